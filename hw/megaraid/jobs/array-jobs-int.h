/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the three files of the array's background jobs
 * share (not for use elsewhere: array.h has the jobs' interface):
 *   array-jobs.c           the job coroutine per VD: which job may run,
 *                          what follows a finished one, checkpoints of
 *                          the cursor, start, stop, statistics
 *   array-jobs-pipeline.c  the rows pipeline and the duty cycle
 *   array-jobs-pace.c      the pace with timing=on
 */
#ifndef HW_MEGARAID_ARRAY_JOBS_INT_H
#define HW_MEGARAID_ARRAY_JOBS_INT_H

#include "qemu/coroutine.h"
#include "qemu/queue.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "hw/megaraid/member/member.h"
#include "jobs.h"

/* Member I/O of the chunks in flight at once (the pipeline's window). */
#define MR_JOB_WINDOW_BYTES     (16 * MiB)
/* Chunks in flight at most and at least (whatever their size). */
#define MR_JOB_WINDOW_MAX       16
#define MR_JOB_WINDOW_MIN       4
/*
 * A rebuild's chunk: adjacent rows planned as one, so that each member
 * request carries about this much (a strip per row, one request per
 * member for the chunk's rows).  Checks and initializations run one
 * row per chunk (their results are counted per row).
 */
#define MR_JOB_CHUNK_MEMBER_BYTES (1 * MiB)
#define MR_JOB_CHUNK_MAX        64
/*
 * A batch issues rows for this long (and, below rate 100 %, this much
 * member I/O at most), then lets its rows finish: the duty cycle of a
 * rate below 100 % is kept per batch.  At rate 100 % (or paced by the
 * model) nothing rests between batches, and a batch lasts as long as a
 * checkpoint interval, so the pipeline drains once per checkpoint
 * rather than five times a second; lowering the rate ends it at once.
 */
#define MR_JOB_BATCH_NS         (20 * SCALE_MS)
#define MR_JOB_BATCH_BYTES      (1 * MiB)
#define MR_JOB_BATCH_FULL_NS    (2 * NANOSECONDS_PER_SECOND)
/* Cursor checkpoint into the DDF metadata at most this often. */
#define MR_JOB_CKPT_NS          (2 * NANOSECONDS_PER_SECOND)
/* Longest single rate-limiting sleep (the rate may change meanwhile). */
#define MR_JOB_MAX_SLEEP_NS     (2 * NANOSECONDS_PER_SECOND)
/* Consecutive failures of one row before the job gives up (for now). */
#define MR_JOB_MAX_RETRIES      3
/* timing=on: pipeline slots at most, and chunks booked per wake at most */
#define MR_JOB_PACE_SLOTS       16
#define MR_JOB_PACE_BUDGET      4096
/* timing=on: shortest wait for the model (virtual ns), to batch wakes */
#define MR_JOB_PACE_MIN_SLEEP   (1 * SCALE_MS)

/*
 * timing=on: the job's pipeline in modelled time.  Chunks are per member
 * extent (ctrl->bg_chunk_bytes); slot i issues its next chunk at next[i]
 * and, while busy, ends it at done[i] (modelled ns).  Chunks are booked at
 * their scheduled times even when the coroutine wakes later, so the
 * modelled duration does not depend on the host's timer slack.
 */
typedef struct MRJobPace {
    bool ready;
    unsigned rate;              /* rebuild-rate the slots follow */
    unsigned slots;
    uint64_t chunk_bytes;
    uint64_t total;             /* chunks of the modelled extent */
    uint64_t issued, completed;
    uint64_t run_completed;     /* completed in this run (rates) */
    uint64_t model_bytes;       /* modelled bytes per member */
    uint64_t model_ns;          /* idle duration from the model, unscaled */
    uint64_t busy_ns;           /* chunk time booked (busy %) */
    uint64_t started_model;
    bool busy[MR_JOB_PACE_SLOTS];
    uint64_t next[MR_JOB_PACE_SLOTS];
    uint64_t done[MR_JOB_PACE_SLOTS];
    uint64_t issue_t[MR_JOB_PACE_SLOTS];
} MRJobPace;

typedef struct MRJobRun MRJobRun;

/*
 * One chunk of the pipeline (rows [row, row + nrows)): its worker takes
 * the rows' exclusive stripe lock, plans each row from the states of that
 * moment, runs them (a rebuild's rows as one plan of larger member
 * requests when raid_plan_rebuild_rows() can, else row after row); the
 * job's coroutine counts the rows (in row order) and releases the lock.
 */
typedef struct MRJobSlot {
    MRJobRun *r;
    Coroutine *co;
    uint64_t row;
    uint32_t nrows;
    RaidJobRow jr[MR_JOB_CHUNK_MAX];    /* the plans, owned until counted */
    RaidStripeLock *lk;
    RaidRunResult res[MR_JOB_CHUNK_MAX];
    /* the cursor the row was planned for */
    uint32_t seq;
    RaidJobKind kind;
    uint32_t target_ref;
    bool planned;               /* begin_at succeeded for every row */
    bool skipped;               /* the job may not run: row not run */
    bool done;
} MRJobSlot;

struct MRJobRun {
    MRVirtualDisk *vd;
    Coroutine *co;
    QLIST_ENTRY(MRJobRun) next;
    QemuCoSleep sleep;
    bool sleeping;              /* parked in the rate-limiting sleep */
    bool waiting;               /* waits for a pipeline row to finish */
    MRJobSlot slot[MR_JOB_WINDOW_MAX];
    bool announce;              /* the job is new: refresh and store */
    RaidJobKind kind;           /* job of the current measurement */
    /* measurement of the current job in this run */
    int64_t started_ns;
    uint64_t start_row;
    uint64_t rows;
    int64_t work_ns;
    int64_t batch_t0;           /* start of the batch running, or 0 */
    int64_t started_virt;       /* QEMU_CLOCK_VIRTUAL at the start */
    MRJobPace pace;             /* timing=on */
};

typedef enum MRBatchResult {
    MR_BATCH_OK,                /* rows done, the job goes on */
    MR_BATCH_FINISHED,          /* the job completed */
    MR_BATCH_FAILED,            /* a row failed; the cursor is on it */
    MR_BATCH_CHANGED,           /* the cursor was replaced meanwhile */
} MRBatchResult;

/* array-jobs.c */
static inline int64_t mr_job_now_ns(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

/* The drive a rebuild cursor targets, or -1. */
int mr_job_rebuild_target_pd(MRVirtualDisk *vd);
/* May the cursor's job make progress now?  @why: the reason if not. */
bool mr_job_may_run(MRVirtualDisk *vd, const char **why);
/* Raise the rebuilt mark of rebuilding members in the data path's view. */
void mr_job_publish_progress(MRVirtualDisk *vd);

/* array-jobs-pipeline.c */
/* Issue rows for a batch (at most @limit), let them finish, count them. */
MRBatchResult coroutine_fn mr_job_batch(MRJobRun *r, int64_t *work_ns,
                                        uint64_t limit);
/* The rest after a batch that keeps the rate's duty cycle. */
void coroutine_fn mr_job_rest(MRJobRun *r, int64_t work_ns);
/* Start measuring the cursor's job afresh. */
void mr_job_measure_reset(MRJobRun *r);

/* array-jobs-pace.c */
/* timing=on: a batch as far as the modelled progress has reached. */
MRBatchResult coroutine_fn mr_job_paced(MRJobRun *r, int64_t *work_ns);

#endif
