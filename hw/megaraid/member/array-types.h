/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the array's types, the leaf every array layer shares: the
 * controller's MRArray (configuration, drives, VDs, the layers' state),
 * the run-time VD (MRVirtualDisk) and the hooks through which a lower
 * layer reports upwards (MRArrayHooks).  Only types and an inline
 * accessor: the layers' functions are in their own headers (array.h,
 * array-vd.h, cache.h, jobs.h, member.h, array-timing.h).  It sits in
 * the lowest array layer (member/) so every layer above may include it.
 */
#ifndef HW_MEGARAID_ARRAY_TYPES_H
#define HW_MEGARAID_ARRAY_TYPES_H

#include "qemu/coroutine.h"
#include "qemu/queue.h"
#include "qemu/notify.h"
#include "block/aio.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/evlog.h"
#include "hw/megaraid/vd.h"
#include "raid/raid.h"
#include "raid/config.h"
#include "raid/job.h"
#include "raid/ddf.h"

typedef struct MRArray MRArray;
typedef struct MRJobStats MRJobStats;
typedef struct MRVdCache MRVdCache;
typedef struct MRJournal MRJournal;

/*
 * What the lower layers tell array.c (see the diagram above), one group
 * per layer: a layer calls only its own group.  array.c installs its table
 * in mr_array_init(); a unit test of a layer installs its own with the
 * hooks that layer calls.
 */
typedef struct MRArrayHooks {
    struct {
        /* @d failed a member I/O (not a stale plan) */
        void (*failed)(MRArray *a, MRDrive *d, const char *why);
        /*
         * a write is about to reach the members of @vd while some are
         * missing but in sync: they become stale (sets write_barrier)
         */
        void coroutine_fn (*write_starts)(MRVirtualDisk *vd);
    } member;                   /* array-member.c */
    struct {
        /* the VD's effective write policy now */
        MRWritePolicy (*write_policy)(MRVirtualDisk *vd);
    } cache;                    /* array-cache*.c */
    struct {
        /*
         * a job changed the configuration (started, finished, a member
         * failed under it): recompute the states, tell the controller
         */
        void (*config_changed)(MRArray *a);
        /* write the metadata (the job's cursor) to the drives */
        bool (*store)(MRArray *a, Error **errp);
        /* an event-log entry of a job (MR_EV_JOB_*), its progress */
        void (*event)(MRVirtualDisk *vd, MREvCode code, RaidJobKind kind,
                      uint64_t arg);
        void (*progress)(MRVirtualDisk *vd);
        /*
         * a job ended: start the copyback that waited for the drive
         * group to be idle (array-copyback.c); true if one started
         */
        bool (*copyback)(MRArray *a);
    } jobs;                     /* array-jobs.c */
    struct {
        /* the VD's effective write policy, its dirty data in the cache */
        MRWritePolicy (*write_policy)(MRVirtualDisk *vd);
        bool (*vd_dirty)(MRVirtualDisk *vd);
        /* the progress of the VD's job (mr_jobs_stats) */
        void (*job_stats)(MRVirtualDisk *vd, MRJobStats *out);
    } timing;                   /* array-timing*.c */
} MRArrayHooks;

struct MRVirtualDisk {
    MRArray *array;
    int idx;                    /* index in cfg->vds */
    RaidLayout layout;
    RaidMemberState st[RAID_MAX_MEMBERS];
    int member_pd[RAID_MAX_MEMBERS];    /* PD index per member, -1 absent */
    RaidStripeLocks *locks;
    /*
     * The SCSI logical unit the VD presents (unit.h), made with the VD;
     * unit.vd points back here, unit.drive is NULL.
     */
    MRUnit unit;
    uint32_t in_flight;         /* data-path requests (drain, pull) */
    bool deleting;              /* VD DELETE is tearing it down */
    MRVdCache *cache;           /* array-cache.c, NULL: none */
    /* array-jobs.c */
    Coroutine *job_co;
    bool job_stop;              /* ask the job coroutine to return */
    int64_t job_last_ckpt_ns;
    struct MRJobRun *job_run;   /* the running job's state, private */
    /*
     * The job cursor's row as the drives hold it (QOM, for the host's
     * tests): in the metadata last written to every drive, and in the
     * metadata read at start (the row a resumed job starts from); -1:
     * no job there.
     */
    int64_t job_ckpt_row;
    int64_t job_resumed_row;
    /*
     * The last finished job (QOM vdN-last-job-ms, vdN-last-job-model-ms):
     * its duration (QEMU_CLOCK_VIRTUAL with timing=on, else realtime) and
     * what the model expected for it with no load (0: timing off); -1:
     * none finished yet.
     */
    int64_t job_last_ms;
    int64_t job_last_model_ms;
    /* The host paused the job (management): mr_jobs_kick() leaves it. */
    bool job_paused;
    /* vdN-job "none" asked its job to stop; it has not ended yet. */
    bool job_aborting;
    /*
     * The metadata pass (MRArray.meta_asked) that records the last change
     * of the VD's members: its writes are acknowledged once it is done.
     */
    uint64_t meta_barrier;
    /*
     * Missing members of its drive group still in sync (left off at
     * start, nothing written since: RaidPd.in_sync); a write first makes
     * them stale (MRArrayHooks.member.write_starts), and no write reaches
     * a member before the pass recording that (write_barrier) is done.
     */
    int in_sync_missing;
    uint64_t write_barrier;
    /*
     * Management stops of its job waiting in a coroutine (array-config-
     * stop.c): a VD DELETE frees the VD only once they have looked.
     */
    unsigned job_stop_waiters;
    /*
     * Copyback (array-copyback.c): while copy_on, the writes, flushes
     * and unmaps of member copy_member also go to the drive it is copied
     * onto, which member_pd[layout.members] names (RAID_COPY_TARGET: the
     * job's copy plans write it there).
     */
    bool copy_on;
    uint32_t copy_member;
};

struct MRArray {
    const MRArrayOps *ops;
    void *opaque;
    const MRArrayHooks *hooks;  /* installed by mr_array_init() */
    Object *owner;              /* the controller: QOM properties */
    char *serial;               /* controller serial: gives the ctrl GUID */
    uint8_t ctrl_guid[RAID_GUID_LEN];
    uint16_t ctrl_type[4];
    const char *product;
    /* what the VDs' logical units report (MRCoreIdentity) */
    const char *vendor;
    const char *vd_revision;
    uint32_t max_xfer_bytes;    /* the most one request moves */
    RaidConfig *cfg;
    bool imported;              /* import ran */
    bool importing;             /* the import's cache start (replay) runs */
    /*
     * A run-time FOREIGN IMPORT starts the cache in a coroutine: until it
     * is done its VDs are hidden (mr_core_vd, management) and management
     * changes are refused busy; while the journal is read (which may
     * fail and undo the import) the metadata writer holds its passes too
     * (adopt_hold), so the drives keep the foreign configuration.  A
     * FOREIGN CLEAR of a whole foreign configuration is adopting too
     * while it starts the cache (the configuration still foreign).
     */
    bool adopting;
    bool adopt_hold;
    /* drive per PD index (NULL: missing), and PD index per drive */
    MRDrive *pd_drive[RAID_MAX_PDS];
    MRVirtualDisk *vds[RAID_MAX_VDS];
    RaidParityImpl impl;
    RaidBufPool *pool;
    Notifier shutdown;          /* QEMU quits: write everything back */
    bool shut_down;             /* ...done: the drives are closing */
    /*
     * The metadata writer (array.c): passes asked for and finished (a
     * store asked for while one runs coalesces into the next pass), the
     * coroutine running them (NULL: idle), the drives of the pass in
     * flight, whether the last pass wrote every drive (else why not), the
     * coroutines waiting for a pass (mr_array_store in a coroutine, VD
     * writes behind vd->meta_barrier), the PDs outside the members
     * and spares the next pass writes too (unconfigured drives), and the
     * drives outside the configuration whose metadata area the next pass
     * zeroes first (mr_array_store_wipe), with the one being zeroed.
     */
    uint64_t meta_asked;
    uint64_t meta_done;
    Coroutine *meta_co;
    unsigned meta_writing;
    QLIST_HEAD(, MRMetaDrive) meta_drives;
    bool meta_ok;
    char *meta_error;
    CoQueue meta_waiters;
    GSList *meta_done_cbs;      /* mr_array_when_stored() */
    bool meta_extra[RAID_MAX_PDS];
    GSList *meta_wipes;
    struct MRMetaWipe *meta_wiping;
    bool meta_closing;          /* mr_array_cleanup: no wiped callbacks */
    unsigned drive_reads;       /* hot-plugged drives being read */
    struct MRCfgLater *cfg_later;       /* started, reply not yet claimed */
    /* mr_cfg_later() coroutines, and QOM stops waiting for a job */
    unsigned cfg_later_busy;
    /* properties of the controller, owned here */
    uint8_t rebuild_rate;       /* percent, 0..100: rebuilds */
    uint8_t cc_rate;            /* ... consistency checks */
    uint8_t init_rate;          /* ... background and full initialization */
    bool auto_rebuild;          /* rebuild onto a replaced drive */
    bool copyback;              /* copy a spare back onto a new drive */
    bool import_foreign;        /* adopt a foreign configuration at start */
    MRCacheVaultState cachevault;
    uint8_t roc_temp_c;         /* roc-temperature: the ROC's sensor, C */
    uint8_t cv_temp_c;          /* cachevault-temperature: its sensor, C */
    BlockBackend *journal_blk;  /* journal= drive (nv-drive.h), NULL: none */
    /*
     * journal-sync: every write-back write waits for the flush of its
     * record (host crash safe); otherwise only FUA and SYNCHRONIZE CACHE
     * do, and a write is acknowledged once its record is written.
     */
    bool journal_sync;
    MRJournal *journal;         /* array-cache.c */
    /* the controller's event log (evlog.h, evlog-array.c); NULL: none */
    struct MREvLog *evlog;
    BlockBackend *evlog_blk;    /* event-log= drive, NULL: in memory */
    struct MREvArray *ev;       /* states last logged */
    uint64_t cache_bytes;       /* controller cache size */
    /*
     * Cache flush interval, seconds (1 to 255; 0 counts as 1): a write
     * into a clean cache arms the destage of everything dirty this long
     * after it.
     */
    uint8_t cache_flush_s;
    bool timing_on;             /* timing=on (property) */
    double time_scale;          /* time-scale (property), default 1 */
    struct MRTiming *timing;    /* array-timing.h; NULL: timing off */
    struct MRPatrol *patrol;    /* patrol.c; NULL: never used */
    /*
     * The core's (fw-core.c): a VD was made, add its QOM properties
     * (array-props.c, above array.c); NULL: none (unit tests).
     */
    void (*vd_made)(MRVirtualDisk *vd);
};

/* The VD's entry in the configuration. */
static inline RaidVd *mr_vd_cfg(MRVirtualDisk *vd)
{
    return &vd->array->cfg->vds[vd->idx];
}

/* Progress of a VD's job for QOM (rates measured over the current run). */
struct MRJobStats {
    RaidJobKind kind;           /* RAID_JOB_NONE: no job */
    bool repair;                /* check: repairs (background init) */
    bool running;               /* a coroutine works on it now */
    unsigned percent;           /* raid_job_percent() */
    uint64_t next_row, total_rows;
    uint64_t mismatches;        /* check: inconsistent rows so far */
    uint64_t rows_per_s;        /* 0: not measured yet */
    uint64_t bytes_per_s;       /* per member extent (rebuild: target) */
    int64_t eta_s;              /* seconds left, -1: not known */
    unsigned busy_percent;      /* share of the run's time spent working */
    /* timing=on: the run's pace follows the model (modelled, scaled) */
    bool timed;
    int64_t elapsed_ms;         /* of the current run, QEMU_CLOCK_VIRTUAL */
    int64_t eta_ms;             /* -1: not known */
    int64_t model_ms;           /* idle duration the model gives, scaled */
    uint64_t model_bytes;       /* modelled bytes per member */
    int64_t model_row;          /* rows the modelled progress reached */
};

#endif
