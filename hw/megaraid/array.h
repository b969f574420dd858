/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the array glue between a controller and the RAID core.
 *
 * An MRArray holds the controller's RAID configuration (RaidConfig, read
 * from the DDF metadata on its drives), the drives that back each physical
 * drive entry, and one MRVirtualDisk per VD.  It knows nothing of the host
 * interface: a controller calls the entry points below and learns of
 * changes through MRArrayOps.
 *
 * The array's files are layers, and calls go down only:
 *
 *  controller (mr9600*.c, mgmt-ops*.c,             SCSI target (target*.c)
 *  qmp*.c; drive-state.c: QOM)                          |
 *       |                                               v
 *       v                                          array-vd.c: a VD's entry
 *  array.c: configuration, drive/VD                points, range checks
 *  states, metadata; owns and drives                    |                 |
 *  the layers below (init, cleanup,                     v                 |
 *  kick, stop, drain), installs                    array-cache*.c: the    |
 *  MRArrayHooks.  Beside it: array-                controller cache;    (unmap)
 *  config.c, array-props.c,                  +---> array-journal.c:       |
 *  evlog-array.c                             |     its format             |
 *       |        |           |               |          |                 |
 *       |        |           +---------------+          |                 |
 *       |        v                                      |                 |
 *       |     array-jobs.c: rebuild,                    |                 |
 *       |     consistency check, init                   |                 |
 *       |        |                                      |                 |
 *       v        v                                      v                 v
 *  array-member.c: binding, stale-plan replanning, row locks, plans run
 *  on the members' BlockBackends, drain
 *       |
 *       v
 *  RAID core (raid/), drives (drive-fault.c: media errors), block layer
 *
 * The edges, file by file (function calls among the array files):
 *   array.c        -> array-cache (start, stop, vd_init, vd_cleanup),
 *                     array-jobs (kick, stop), array-member (drain),
 *                     evlog-array, array-props, array-timing-props
 *   array-config.c -> array.c, array-jobs (stop), array-cache (start),
 *                     evlog-array
 *   array-props.c  -> array.c, array-cache (policy, stats), array-jobs
 *                     (start)
 *   array-vd.c     -> array-cache (read, write, flush, invalidate),
 *                     array-member (mr_vd_co_io: unmap)
 *   array-cache*.c -> array-member (mr_vd_co_io, drain), array-journal
 *   array-jobs.c   -> array-member (mr_vd_co_run_plan), array-timing
 *                     (the VD in the timing model, for the job's pace)
 *   array-member.c -> no other array file (drive-fault.c: media errors)
 * What a lower layer reports upwards goes through MRArrayHooks, which
 * array.c fills (a unit test fills its own), one group per layer: a
 * member's failed I/O (member I/O), the VD's write policy (cache), a
 * job's change of the configuration, its cursor to store in the metadata
 * and its event-log entries (jobs).  array-timing.c is the timing model
 * beside the layers: the jobs use its VD layout part; its request costing
 * (which reads the write policy and the cache's dirty state) is called by
 * the target, its estimates by array-timing-props.c.
 *
 * Everything runs in the main loop's AioContext under the BQL.
 */
#ifndef HW_MEGARAID_ARRAY_H
#define HW_MEGARAID_ARRAY_H

#include "qemu/coroutine.h"
#include "qemu/queue.h"
#include "qemu/notify.h"
#include "block/aio.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/evlog.h"
#include "raid/raid.h"
#include "raid/config.h"
#include "raid/job.h"
#include "raid/ddf.h"

typedef struct MRArray MRArray;
typedef struct MRVirtualDisk MRVirtualDisk;
typedef struct MRVdCache MRVdCache;
typedef struct MRJournal MRJournal;

/* What the controller is told (all optional). */
typedef struct MRArrayOps {
    /* A VD appeared (import, hot plug of its drives). */
    void (*vd_added)(void *opaque, MRVirtualDisk *vd);
    /* A VD's state, cache policy or job changed. */
    void (*vd_changed)(void *opaque, MRVirtualDisk *vd);
    /* A drive became hidden (array member, spare, foreign) or visible. */
    void (*drive_changed)(void *opaque, MRDrive *d);
} MRArrayOps;

typedef enum MRCacheVaultState {
    MR_CV_OPTIMAL = 0,
    MR_CV_FAILED,
    MR_CV_ABSENT,
} MRCacheVaultState;

/* Effective write policy of a VD (what MODE SENSE and QOM report). */
typedef enum MRWritePolicy {
    MR_WP_WRITE_THROUGH = 0,
    MR_WP_WRITE_BACK,
    MR_WP_ALWAYS_WRITE_BACK,
} MRWritePolicy;

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
    } jobs;                     /* array-jobs.c */
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
    RaidConfig *cfg;
    bool imported;              /* import ran */
    /* drive per PD index (NULL: missing), and PD index per drive */
    MRDrive *pd_drive[RAID_MAX_PDS];
    MRVirtualDisk *vds[RAID_MAX_VDS];
    RaidParityImpl impl;
    RaidBufPool *pool;
    Notifier shutdown;          /* QEMU quits: write everything back */
    bool shut_down;             /* ...done: the drives are closing */
    bool storing;               /* mr_array_store() is writing */
    bool store_again;           /* ...and must write once more */
    /* properties of the controller, owned here */
    uint8_t rebuild_rate;       /* percent, 0..100: rebuilds */
    uint8_t cc_rate;            /* ... consistency checks */
    uint8_t init_rate;          /* ... background and full initialization */
    bool auto_rebuild;          /* rebuild onto a replaced drive */
    bool import_foreign;        /* adopt a foreign configuration at start */
    MRCacheVaultState cachevault;
    char *journal_path;         /* cache journal file, NULL: none */
    /*
     * journal-sync: every write-back write waits for the fdatasync of its
     * record (host crash safe); otherwise only FUA and SYNCHRONIZE CACHE
     * do, and a write is acknowledged once its record is written.
     */
    bool journal_sync;
    MRJournal *journal;         /* array-cache.c */
    /* the controller's event log (evlog.h, evlog-array.c); NULL: none */
    struct MREvLog *evlog;
    char *evlog_path;           /* event-log property, NULL: in memory */
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
};

/* The VD's entry in the configuration. */
static inline RaidVd *mr_vd_cfg(MRVirtualDisk *vd)
{
    return &vd->array->cfg->vds[vd->idx];
}

/*
 * ---- array.c: configuration, states, metadata ----
 * For the controller (mr9600*.c, mgmt-ops*.c, qmp*.c), a drive's QOM
 * state (drive-state.c) and the files beside array.c (array-config.c,
 * array-props.c, evlog-array.c, array-timing*.c); never for the layers
 * below it, which use MRArrayHooks.
 */

void mr_array_init(MRArray *a, const MRArrayOps *ops, void *opaque);
void mr_array_cleanup(MRArray *a);
/*
 * Read the DDF metadata of every drive on @bus and build the VDs.  Drives
 * without metadata stay unconfigured (JBOD).  A foreign configuration is
 * kept foreign (its drives hidden and never written) unless
 * a->import_foreign.  Replays the cache journal.  Errors name the drive
 * or the file; after one the array is as before (nothing imported).
 */
bool mr_array_import(MRArray *a, BusState *bus, Error **errp);
/* Write the configuration to every present, non-failed drive. */
bool mr_array_store(MRArray *a, Error **errp);
/* Drive <-> PD index; -1 when the drive is not in the configuration. */
int mr_array_pd_of(MRArray *a, MRDrive *d);
/* Is the drive hidden from the host (member, spare, foreign)? */
bool mr_array_drive_hidden(MRArray *a, MRDrive *d);
/*
 * A member failed (QOM, I/O error): offline it, degrade its VDs, start a
 * rebuild onto a hot spare, store the metadata and tell the controller.
 */
void mr_array_fail_drive(MRArray *a, MRDrive *d, const char *why);
/* Hot plug: a drive is about to be removed / was added. */
void mr_array_drive_removed(MRArray *a, MRDrive *d);
void mr_array_drive_added(MRArray *a, MRDrive *d);
/* Config changed: recompute states, layouts, member states; notify. */
void mr_array_refresh(MRArray *a);
/* Make a drive a hot spare (@dg < 0: global) or remove it as a spare. */
bool mr_array_set_spare(MRArray *a, MRDrive *d, int dg, bool add,
                        Error **errp);
/* Drive state name for QOM ("online", "offline", "rebuild", ...). */
const char *mr_array_drive_state(MRArray *a, MRDrive *d);
/*
 * For array-config.c (run-time configuration changes): build / free the
 * run-time VD of cfg->vds[idx]; after a change: refresh states, use hot
 * spares, store the metadata, kick the jobs; a drive's metadata I/O.
 */
MRVirtualDisk *mr_vd_new(MRArray *a, int idx, Error **errp);
void mr_vd_free(MRVirtualDisk *vd);
void mr_array_changed(MRArray *a);
DdfDriveIO mr_ddf_io(MRDrive *d);
/* Effective write policy of a VD (cache policy and CacheVault). */
MRWritePolicy mr_array_write_policy(MRVirtualDisk *vd);
/*
 * array-props.c: the controller's runtime QOM properties of the array
 * (cachevault, rebuild-rate, cache-dirty-bytes, journal-records, ...),
 * and per VD n: vdN-state, vdN-level, vdN-write-policy, vdN-job,
 * vdN-progress, vdN-job-row, vdN-checkpoint-row, vdN-resumed-row.  The
 * array must be the controller state's field at @array_offset.
 */
void mr_array_class_props(ObjectClass *oc, ptrdiff_t array_offset);
void mr_array_vd_props(MRVirtualDisk *vd);

/*
 * ---- array-member.c: a VD's I/O on the members' BlockBackends ----
 * The lowest layer: for array-vd.c (unmap), the cache, the jobs, and
 * array.c (drain).
 */

/*
 * Run a request on the VD's members, below the cache: plan, take the
 * rows' stripe lock, run, and on a member error fail the member and plan
 * again.  Returns 0 or -errno (-EIO: data not available, e.g. offline).
 * @qiov covers @sectors * 512 bytes (NULL for FLUSH).
 */
int coroutine_fn mr_vd_co_io(MRVirtualDisk *vd, RaidOp op, uint64_t lba,
                             uint64_t sectors, QEMUIOVector *qiov);
/* Run a job plan (rebuild/check row) whose stripe lock the caller holds. */
int coroutine_fn mr_vd_co_run_plan(MRVirtualDisk *vd, const RaidPlan *plan,
                                   RaidRunResult *res);
/* Wait until the VD has no request in flight. */
void mr_vd_drain(MRVirtualDisk *vd);

/*
 * ---- array-vd.c: the VD's entry points, above the cache ----
 * For the SCSI target only.
 */

/*
 * The SCSI target's entry points for a VD (byte offsets and lengths in
 * units of the VD's logical block size): above the cache.
 */
int coroutine_fn mr_vd_co_preadv(MRVirtualDisk *vd, int64_t offset,
                                 int64_t bytes, QEMUIOVector *qiov);
int coroutine_fn mr_vd_co_pwritev(MRVirtualDisk *vd, int64_t offset,
                                  int64_t bytes, QEMUIOVector *qiov,
                                  bool fua);
int coroutine_fn mr_vd_co_flush(MRVirtualDisk *vd);
/* Afterwards the range reads as zeroes. */
int coroutine_fn mr_vd_co_pdiscard(MRVirtualDisk *vd, int64_t offset,
                                   int64_t bytes);
/* AIO forms for the dma helpers (dma_blk_io) and flush. */
BlockAIOCB *mr_vd_aio_preadv(MRVirtualDisk *vd, int64_t offset,
                             QEMUIOVector *qiov, BlockCompletionFunc *cb,
                             void *opaque);
BlockAIOCB *mr_vd_aio_pwritev(MRVirtualDisk *vd, int64_t offset,
                              QEMUIOVector *qiov, bool fua,
                              BlockCompletionFunc *cb, void *opaque);
BlockAIOCB *mr_vd_aio_flush(MRVirtualDisk *vd, BlockCompletionFunc *cb,
                            void *opaque);

/*
 * ---- array-cache*.c: controller cache and its journal ----
 * I/O for array-vd.c; start/stop, per-VD init/cleanup for array.c and
 * array-config.c; the policy change and the statistics for array-props.c,
 * array-timing.c and the controller (mgmt-ops.c, qmp-info.c).
 */

/* Open the journal (a->journal_path) and replay it onto the VDs. */
bool mr_cache_start(MRArray *a, Error **errp);
void mr_cache_stop(MRArray *a);
void mr_cache_vd_init(MRVirtualDisk *vd);
void mr_cache_vd_cleanup(MRVirtualDisk *vd);
/* Through the cache; fall to mr_vd_co_io() as the policy says. */
int coroutine_fn mr_cache_co_read(MRVirtualDisk *vd, uint64_t lba,
                                  uint64_t sectors, QEMUIOVector *qiov);
int coroutine_fn mr_cache_co_write(MRVirtualDisk *vd, uint64_t lba,
                                   uint64_t sectors, QEMUIOVector *qiov,
                                   bool fua);
int coroutine_fn mr_cache_co_flush(MRVirtualDisk *vd);
/* Drop cached data of a range (before an unmap goes below the cache). */
int coroutine_fn mr_cache_co_invalidate(MRVirtualDisk *vd, uint64_t lba,
                                        uint64_t sectors);
/* CacheVault state changed: write back everything if now write-through. */
void mr_cache_policy_changed(MRArray *a);

/* What the cache holds now (QOM cache-dirty-bytes, journal-records). */
typedef struct MRCacheStats {
    uint64_t dirty_bytes;       /* cached data not yet on the members */
    uint64_t dirty_lines;
    uint64_t journal_records;   /* records in the journal file */
    uint64_t journal_bytes;     /* its size, header included */
} MRCacheStats;
void mr_cache_stats(MRArray *a, MRCacheStats *out);
/* The cache holds data of @vd not yet on its members (timing model). */
bool mr_cache_vd_dirty(MRVirtualDisk *vd);

/*
 * ---- array-jobs.c: rebuild, consistency check, initialization ----
 * For array.c and the files beside it (kick, stop, start, statistics)
 * and the controller (mgmt-ops*.c, qmp-info.c: start, stop, pause,
 * statistics, rate).
 */

/* Start (or resume) the VD's job coroutine if its cursor holds a job. */
void mr_jobs_kick(MRVirtualDisk *vd);
/* Stop the job coroutine (checkpointing the cursor) and wait for it. */
void mr_jobs_stop(MRVirtualDisk *vd);
/* Start a job from the host (QOM): "check", "check-repair", "init". */
bool mr_jobs_start(MRVirtualDisk *vd, RaidJobKind kind, bool repair,
                   Error **errp);

/* Progress of a VD's job for QOM (rates measured over the current run). */
typedef struct MRJobStats {
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
} MRJobStats;
void mr_jobs_stats(MRVirtualDisk *vd, MRJobStats *out);
/* The rate (1-100 %) of @vd's job kind: rebuild-, cc- or init-rate. */
unsigned mr_jobs_rate(MRVirtualDisk *vd);

#endif
