/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a RAID virtual disk as a personality sees it.
 *
 * The firmware core keeps its VDs (MRVirtualDisk) private; a host
 * interface learns of them through MRArrayOps (added, changed) and reads
 * what it tells the host through the accessors below: the index, the
 * state and entry in the configuration, the layout, the members' drives,
 * the effective write policy and the SCSI logical unit the VD presents
 * (unit.h), whose host_id the personality assigns.  A personality finds a
 * VD by index with mr_core_vd() (fw-core.h).
 */
#ifndef HW_MEGARAID_VD_H
#define HW_MEGARAID_VD_H

#include "hw/megaraid/drive.h"
#include "hw/megaraid/unit.h"
#include "raid/raid.h"
#include "raid/config.h"

typedef struct MRVirtualDisk MRVirtualDisk;

/* Effective write policy of a VD (what MODE SENSE and QOM report). */
typedef enum MRWritePolicy {
    MR_WP_WRITE_THROUGH = 0,
    MR_WP_WRITE_BACK,
    MR_WP_ALWAYS_WRITE_BACK,
} MRWritePolicy;

/* Health of the flash-backed cache (the cachevault property). */
typedef enum MRCacheVaultState {
    MR_CV_OPTIMAL = 0,
    MR_CV_FAILED,
    MR_CV_ABSENT,
} MRCacheVaultState;

/* What the personality is told of the configuration (all optional). */
typedef struct MRArrayOps {
    /* A VD appeared (import, hot plug of its drives). */
    void (*vd_added)(void *opaque, MRVirtualDisk *vd);
    /* A VD's state, cache policy or job changed. */
    void (*vd_changed)(void *opaque, MRVirtualDisk *vd);
    /*
     * The configuration changed around drive @d (a spare added or used, a
     * foreign drive cleared); @toggled: it became hidden from the host
     * (d->in_array now true: array member, spare, foreign) or visible
     * (false).  The core keeps d->in_array: the host's view of the drive.
     */
    void (*drive_changed)(void *opaque, MRDrive *d, bool toggled);
    /*
     * Drive @d, hot-plugged while running, whose plug left it pending
     * (mr_core_drive_plugged() returned false), has its place now:
     * d->in_array says whether it is hidden.  Tell the host of it as the
     * plug would have.
     */
    void (*drive_arrived)(void *opaque, MRDrive *d);
} MRArrayOps;

/* Index of the VD in the configuration (0 .. RAID_MAX_VDS - 1). */
int mr_vd_index(const MRVirtualDisk *vd);
/* The VD's entry in the configuration: state, size, sequence number. */
const RaidVd *mr_vd_conf(const MRVirtualDisk *vd);
/* Level, strip, spans and members of the VD. */
const RaidLayout *mr_vd_layout(const MRVirtualDisk *vd);
/* The logical unit the VD presents (host_id is the personality's). */
MRUnit *mr_vd_unit(MRVirtualDisk *vd);
/*
 * The drive of member @m (< mr_vd_layout()->members), NULL when the
 * member has no drive now (missing, pulled), and the member's status
 * (RAID_MEMBER_MISSING: failed, missing or offline: never touched).
 */
MRDrive *mr_vd_member_drive(const MRVirtualDisk *vd, unsigned m);
RaidMemberStatus mr_vd_member_status(const MRVirtualDisk *vd, unsigned m);
/* The effective write policy (cache policy and CacheVault health). */
MRWritePolicy mr_vd_write_policy(MRVirtualDisk *vd);

#endif
