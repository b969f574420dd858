/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: the controller configuration model.
 *
 * Physical drives, drive groups made of spans, virtual disks, hot spares,
 * drive and VD states with only the valid transitions, and the limits of
 * the MegaRAID 9600.  Every refusal returns false and sets a GError whose
 * message names the limit or the transition.  Pure logic: no I/O.
 */
#ifndef RAID_CONFIG_H
#define RAID_CONFIG_H

#include "raid/geometry.h"
#include "raid/plan.h"

#define RAID_GUID_LEN 24

/* Limits of the MegaRAID 9600 (refused with a message naming them). */
#define RAID_MAX_VDS                240
#define RAID_MAX_VDS_PER_DG         16
#define RAID_MAX_DRIVES_PER_SPAN    RAID_MAX_SPAN_MEMBERS
#define RAID_MAX_GLOBAL_SPARES      64
#define RAID_MAX_DEDICATED_SPARES   64
#define RAID_MAX_PDS                240
#define RAID_MAX_DGS                RAID_MAX_VDS
#define RAID_VD_NAME_LEN            16

typedef enum RaidPdState {
    RAID_PD_UNCONF_GOOD = 0,
    RAID_PD_UNCONF_BAD,
    RAID_PD_ONLINE,
    RAID_PD_OFFLINE,        /* failed member */
    RAID_PD_REBUILD,
    RAID_PD_HOT_SPARE,
    RAID_PD_FOREIGN,
    RAID_PD_MISSING,
    /*
     * Not a member: the drive a copyback copies a member onto (the
     * VDs' cursors name it, copyback.c); a member once it is done.
     */
    RAID_PD_COPYBACK,
    RAID_PD_STATE__MAX,
} RaidPdState;

typedef enum RaidVdState {
    RAID_VD_OPTIMAL = 0,
    RAID_VD_PARTIALLY_DEGRADED,
    RAID_VD_DEGRADED,
    RAID_VD_OFFLINE,
} RaidVdState;

/* Cache policy fields of a VD (DDF cache policy byte bits). */
#define RAID_CACHE_WRITE_BACK       0x01
#define RAID_CACHE_ADAPTIVE_WB      0x02
#define RAID_CACHE_READ_AHEAD       0x04
#define RAID_CACHE_ADAPTIVE_RA      0x08
#define RAID_CACHE_WB_NO_BATTERY    0x10
#define RAID_CACHE_WRITE_ALLOWED    0x20
#define RAID_CACHE_READ_ALLOWED     0x40

typedef enum RaidJobKind {
    RAID_JOB_NONE = 0,
    RAID_JOB_REBUILD,
    RAID_JOB_CHECK,
    RAID_JOB_INIT,
    RAID_JOB_COPYBACK,      /* a member copied onto a new drive */
} RaidJobKind;

/* A resumable background job cursor over a VD's stripe (row) space. */
typedef struct RaidJobCursor {
    RaidJobKind kind;
    bool repair;             /* check: rewrite mismatching parity/mirror */
    uint32_t target_ref;     /* rebuild: PD reference being rebuilt */
    uint64_t next_row;       /* first row not yet done */
    uint64_t total_rows;
    uint64_t mismatches;     /* check: rows found inconsistent so far */
    /*
     * Copyback: the member copied (target_ref: the drive it is copied
     * onto); repair: it is a hot spare again at the end, of drive group
     * spare_dg (-1: global).
     */
    uint32_t source_ref;
    int spare_dg;
} RaidJobCursor;

typedef struct RaidPd {
    uint8_t guid[RAID_GUID_LEN];
    uint32_t ref;            /* DDF PD_Reference, unique in the config */
    int slot;                /* bay, -1 unknown */
    uint64_t sectors;        /* raw capacity, 512-byte sectors */
    uint64_t usable;         /* sectors for user data (below the reserve) */
    RaidPdState state;
    RaidPdState foreign_state;  /* state in its metadata while foreign */
    int spare_dg;            /* dedicated spare: drive group, -1 global */
    bool present;            /* a drive image is attached */
    /*
     * A MISSING member whose data is still current: it was online when
     * it went missing at a start and no write reached its drive group
     * since (DDF: Online|Missing; a stale one is Failed|Missing).  It
     * comes back online, no spare takes its place; the first write makes
     * it stale (raid_config_mark_stale).
     */
    bool in_sync;
    /*
     * Read back: the drive is present again after the configuration
     * named it missing (or another member's copy names it stale), and its
     * data is not current: rebuild it onto itself (state OFFLINE); or,
     * UNCONF_GOOD: a member a spare replaced while it was missing, whose
     * own copy still names it a member (write it).
     */
    bool returned;
    char *path;              /* backing file (tools), may be NULL */
    /* Where its DDF copies live; 0: the default placement (ddf.h). */
    uint64_t ddf_primary, ddf_secondary, ddf_ws_lba;
    uint32_t ddf_ws_len;
    /*
     * A hot spare that took a failed member's place (in memory, not in
     * the DDF): the bay of that member and the drive group the spare
     * was dedicated to (-1: global).  A new drive in that bay gets the
     * data copied back and the spare returns to be one (copyback.c).
     */
    bool spare_took;
    int spare_took_slot;
    int spare_took_dg;
    /*
     * The drive held no metadata when it was put in at run time (a new
     * drive, not a member or another array's drive back) and has had no
     * role since: a copyback may take it (the device sets it; any state
     * change clears it; in memory).
     */
    bool arrived_blank;
} RaidPd;

typedef struct RaidSpan {
    int ndrives;
    int pd[RAID_MAX_DRIVES_PER_SPAN];   /* indexes into RaidConfig.pds */
} RaidSpan;

typedef struct RaidDriveGroup {
    bool used;
    int nspans;
    RaidSpan span[RAID_MAX_SPANS];
    uint64_t next_free;      /* member sector where the next VD starts */
} RaidDriveGroup;

typedef struct RaidVd {
    bool used;
    uint8_t guid[RAID_GUID_LEN];
    char name[RAID_VD_NAME_LEN + 1];
    RaidLevel level;
    uint32_t strip;          /* sectors */
    int dg;
    uint64_t start;          /* member sector of the extent */
    uint64_t blocks;         /* sectors per member extent */
    uint64_t size;           /* VD sectors */
    uint8_t cache;           /* RAID_CACHE_* */
    bool initialized;
    bool consistent;
    uint32_t seq;            /* DDF VD config record sequence number */
    RaidVdState state;
    RaidJobCursor job;
} RaidVd;

typedef struct RaidConfig {
    uint8_t header_guid[RAID_GUID_LEN];
    uint8_t ctrl_guid[RAID_GUID_LEN];
    uint16_t ctrl_type[4];   /* PCI vendor, device, subvendor, subdevice */
    char product[17];
    uint32_t seq;            /* DDF header sequence number */
    bool foreign;            /* read from another controller's drives */
    int npds;
    RaidPd pds[RAID_MAX_PDS];
    RaidDriveGroup dgs[RAID_MAX_DGS];
    RaidVd vds[RAID_MAX_VDS];
} RaidConfig;

/* Parameters of a new VD. */
typedef struct RaidVdSpec {
    RaidLevel level;
    uint32_t strip;          /* sectors; 0: default (256 KiB) */
    uint64_t size;           /* VD sectors; 0: all the free space */
    int nspans;              /* 0: 1 (or 2 for RAID 10/50/60 if even) */
    const char *name;
    uint8_t cache;
} RaidVdSpec;

/* Names for messages and JSON (level names: geometry.h). */
const char *raid_pd_state_name(RaidPdState s);
const char *raid_vd_state_name(RaidVdState s);

/* Metadata reserve at the end of a drive (see docs/megaraid-img.md). */
uint64_t raid_reserve_sectors(uint64_t drive_sectors);

/* Serial number of the emulated controller unless one is given. */
#define RAID_DEFAULT_SERIAL "MRSIM00000000001"

/*
 * The DDF controller GUID of a controller: "LSI     " and its serial
 * (NULL: RAID_DEFAULT_SERIAL), space padded.  megaraid-img and the
 * device derive it the same way, so arrays made by one import in the
 * other.
 */
void raid_ctrl_guid(const char *serial, uint8_t guid[RAID_GUID_LEN]);

RaidConfig *raid_config_new(const uint8_t ctrl_guid[RAID_GUID_LEN]);
void raid_config_free(RaidConfig *cfg);
RaidConfig *raid_config_dup(const RaidConfig *cfg);

/* Add an unconfigured good drive; returns its index or -1. */
int raid_config_add_pd(RaidConfig *cfg, const uint8_t guid[RAID_GUID_LEN],
                       int slot, uint64_t sectors, GError **errp);
int raid_config_find_pd_ref(const RaidConfig *cfg, uint32_t ref);
int raid_config_find_pd_slot(const RaidConfig *cfg, int slot);

/* Drive state change through the transition table. */
bool raid_pd_transition_valid(RaidPdState from, RaidPdState to);
bool raid_config_set_pd_state(RaidConfig *cfg, int pd, RaidPdState to,
                              GError **errp);

/*
 * Create a drive group from @npd unconfigured good drives (in member
 * order) and a first VD on it.  Returns the VD index or -1.
 */
int raid_config_create_vd(RaidConfig *cfg, const int *pds, int npd,
                          const RaidVdSpec *spec, GError **errp);
/* Another VD on an existing drive group (same level rules). */
int raid_config_add_vd(RaidConfig *cfg, int dg, const RaidVdSpec *spec,
                       GError **errp);
bool raid_config_delete_vd(RaidConfig *cfg, int vd, GError **errp);

/* Hot spares: @dg < 0 for a global spare. */
bool raid_config_add_spare(RaidConfig *cfg, int pd, int dg, GError **errp);
bool raid_config_remove_spare(RaidConfig *cfg, int pd, GError **errp);

/* Member failure, replacement, rebuild. */
bool raid_config_fail_pd(RaidConfig *cfg, int pd, GError **errp);
/*
 * Put @newpd (unconfigured good or hot spare) in the place of failed or
 * missing member @oldpd; the new drive goes to REBUILD and the VDs on the
 * group get a rebuild cursor.  The old drive becomes unconfigured bad
 * (or is dropped from the config if missing).
 */
bool raid_config_replace_pd(RaidConfig *cfg, int oldpd, int newpd,
                            GError **errp);
/* Pick the spare for a failed member of @dg: dedicated first. -1: none. */
int raid_config_pick_spare(const RaidConfig *cfg, int dg);
/* Rebuild of @pd finished on every VD: REBUILD -> ONLINE. */
bool raid_config_rebuild_done(RaidConfig *cfg, int pd, GError **errp);

/* Members of a VD, in RAID member order (spans concatenated). */
int raid_vd_members(const RaidConfig *cfg, int vd, int *pds, int max);
int raid_vd_span_width(const RaidConfig *cfg, int vd);
int raid_vd_nspans(const RaidConfig *cfg, int vd);
/* Rows (strips per member extent). */
uint64_t raid_vd_rows(const RaidConfig *cfg, int vd);
/* The data-path layout of a VD (geometry.h). */
bool raid_config_vd_layout(const RaidConfig *cfg, int vd, RaidLayout *l,
                           GError **errp);
/* Member states for the planner: from drive states and rebuild cursors. */
void raid_config_vd_member_states(const RaidConfig *cfg, int vd,
                                  RaidMemberState *st);
/*
 * A write is about to reach drive group @dg: its in-sync missing members
 * become stale (they will need a rebuild).  True if one did.
 */
bool raid_config_mark_stale(RaidConfig *cfg, int dg);
/* Missing members of @dg still in sync (raid_config_mark_stale). */
int raid_config_count_in_sync(const RaidConfig *cfg, int dg);
/*
 * The drive of MISSING member @pd is present again: ONLINE when it is in
 * sync (nothing was written since it went missing), else OFFLINE with
 * .returned set (its data is stale: rebuild it).  Returns the new state.
 */
RaidPdState raid_config_member_back(RaidConfig *cfg, int pd);
/* Drive group of which @pd is a member, or -1. */
int raid_config_pd_dg(const RaidConfig *cfg, int pd);
/* Recompute every VD's state from its members' states. */
void raid_config_update_states(RaidConfig *cfg);
int raid_config_count_vds(const RaidConfig *cfg);
int raid_config_count_spares(const RaidConfig *cfg, bool dedicated);

/*
 * Copyback (copyback.c): member @src (ONLINE) copied onto @dst
 * (UNCONF_GOOD, as large as the group needs) on every VD of its drive
 * group, which must be optimal and idle: @dst goes to COPYBACK and each
 * VD gets a copyback cursor.  When the last VD is copied, @dst takes
 * @src's place (ONLINE) and @src is a hot spare again if it was one that
 * took a failed member's place (dedicated as it was, else global),
 * otherwise unconfigured good.
 */
bool raid_copyback_start(RaidConfig *cfg, int src, int dst, GError **errp);
/*
 * The copyback of drive group @dg, if one runs: *@src the member copied,
 * *@dst the drive it goes to.  False: none.
 */
bool raid_copyback_of_dg(const RaidConfig *cfg, int dg, int *src, int *dst);
/* The same for a drive, source or target of it: its drive group, or -1. */
int raid_copyback_of_pd(const RaidConfig *cfg, int pd, int *src, int *dst);
/*
 * End the copyback onto @dst without taking it (stopped, its drive or
 * the source failed or went): the cursors go, @dst (if still COPYBACK)
 * is unconfigured good again.
 */
void raid_copyback_abandon(RaidConfig *cfg, int dst);
/*
 * The hot spare that took the place of the member in bay @slot and is
 * now that member (ONLINE) of an optimal, idle group: the source of a
 * copyback onto a drive put into that bay.  -1: none.
 */
int raid_copyback_source_for_slot(const RaidConfig *cfg, int slot);
/*
 * Read back (ddf-config.c): the drive a copyback cursor names is
 * written as unconfigured good; present, it is the copyback's target
 * again, otherwise the cursors go.
 */
void raid_copyback_restore(RaidConfig *cfg);
/* The last VD of cursor @c is copied: its target takes the place (job.c). */
bool raid_copyback_done(RaidConfig *cfg, const RaidJobCursor *c,
                        GError **errp);

/* Mark every PD foreign / import a foreign config under @ctrl_guid. */
bool raid_config_import(RaidConfig *cfg, const uint8_t ctrl_guid[RAID_GUID_LEN],
                        GError **errp);

#endif
