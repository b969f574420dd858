/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: background jobs of the array (rebuild, consistency check,
 * background and full initialization) as one coroutine per VD.
 *
 * Owns the job coroutine's loop (a pipeline of rows: each chunk of rows
 * runs in a worker coroutine of its own under the rows' exclusive stripe
 * lock, several chunks in flight at once, their rows counted in row
 * order so the cursor never passes a row that is not written; then a
 * sleep as the rebuild rate says; a rebuild's chunk is several adjacent
 * rows in one plan, so that member requests are larger than a strip),
 * checkpoints of the cursor into the DDF
 * metadata, what follows a
 * finished job (a second rebuild, background initialization), and
 * stopping.  With timing=on the pace is the model's instead of the duty
 * cycle: the job books its chunks of the *modelled* member extent with
 * timing_background_submit() in a pipeline of slots (rebuild-rate as
 * raid/timing.h defines it), waits on QEMU_CLOCK_VIRTUAL for their
 * modelled (scaled) completion, and copies the real rows as the modelled
 * progress reaches them: the copy of an image smaller than the modelled
 * drive takes a fraction of each wait, and progress, duration and the
 * load on the model follow the modelled capacity.  The cursor and what a
 * finished job changes in the configuration belong to the RAID core
 * (raid/job.h).  The jobs run their plans on the members through
 * array-member.c (mr_vd_co_run_plan); what array.c must hear (the
 * configuration changed, the cursor to store, event-log entries) goes
 * through MRArrayHooks (array.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/coroutine.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qemu/main-loop.h"
#include "block/aio-wait.h"
#include "system/runstate.h"
#include "system/reset.h"
#include "hw/megaraid/array.h"
#include "array-timing.h"
#include "trace.h"

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

/*
 * Every running job, so that a shutdown stops them while the drives can
 * still be written: QEMU quits without unrealizing devices, and member
 * I/O issued once the block layer is drained for the exit would fail and
 * fail its drive.
 */
static QLIST_HEAD(, MRJobRun) mr_job_runs =
    QLIST_HEAD_INITIALIZER(mr_job_runs);
static Notifier mr_jobs_shutdown_notifier;
static bool mr_jobs_hooked;
static bool mr_jobs_shutting_down;

static void mr_jobs_shutdown(Notifier *n, void *data)
{
    mr_jobs_shutting_down = true;
    while (!QLIST_EMPTY(&mr_job_runs)) {
        mr_jobs_stop(QLIST_FIRST(&mr_job_runs)->vd);
    }
}

/* A reset after a shutdown that only paused (-no-shutdown). */
static void mr_jobs_reset(void *opaque)
{
    mr_jobs_shutting_down = false;
}

static void mr_jobs_hook(void)
{
    if (!mr_jobs_hooked) {
        mr_jobs_hooked = true;
        mr_jobs_shutdown_notifier.notify = mr_jobs_shutdown;
        qemu_register_shutdown_notifier(&mr_jobs_shutdown_notifier);
        qemu_register_reset(mr_jobs_reset, NULL);
    }
}

static int64_t now_ns(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

static bool level_has_parity(RaidLevel l)
{
    return l == RAID_LEVEL_5 || l == RAID_LEVEL_6 || l == RAID_LEVEL_50 ||
           l == RAID_LEVEL_60;
}

/* The drive a rebuild cursor targets, or -1. */
static int rebuild_target_pd(MRVirtualDisk *vd)
{
    RaidConfig *cfg = vd->array->cfg;

    return raid_config_find_pd_ref(cfg, mr_vd_cfg(vd)->job.target_ref);
}

/*
 * May the cursor's job make progress in the VD's current state?  A
 * rebuild needs its target still rebuilding and the VD not offline; a
 * check or an initialization needs an optimal VD (it waits otherwise:
 * the card pauses them while the VD is degraded).
 */
static bool job_may_run(MRVirtualDisk *vd, const char **why)
{
    RaidVd *v = mr_vd_cfg(vd);
    RaidConfig *cfg = vd->array->cfg;
    int pd;

    if (cfg->foreign) {
        *why = "the configuration is foreign";
        return false;
    }
    switch (v->job.kind) {
    case RAID_JOB_NONE:
        *why = "no job";
        return false;
    case RAID_JOB_REBUILD:
        pd = rebuild_target_pd(vd);
        if (v->state == RAID_VD_OFFLINE) {
            *why = "the VD is offline";
            return false;
        }
        if (pd < 0 || cfg->pds[pd].state != RAID_PD_REBUILD ||
            !cfg->pds[pd].present) {
            *why = "the drive being rebuilt is gone or failed";
            return false;
        }
        return true;
    default:
        if (v->state != RAID_VD_OPTIMAL) {
            *why = "the VD is not optimal";
            return false;
        }
        return true;
    }
}

/*
 * Give an idle VD the job it should run: a member still in rebuild
 * state without a cursor (a second replaced member of a RAID 6 whose
 * first rebuild just ended, or one whose cursor was lost), or background
 * initialization of a never initialized parity VD.  Returns whether a
 * job was started.
 */
static bool job_auto_start(MRVirtualDisk *vd)
{
    RaidConfig *cfg = vd->array->cfg;
    RaidVd *v = mr_vd_cfg(vd);

    if (v->job.kind != RAID_JOB_NONE || v->state == RAID_VD_OFFLINE ||
        cfg->foreign) {
        return false;
    }
    if (raid_job_start(cfg, vd->idx, RAID_JOB_REBUILD, false, NULL)) {
        int pd = rebuild_target_pd(vd);

        if (pd >= 0 && cfg->pds[pd].present) {
            trace_megaraid_job_auto(vd->idx, "rebuild");
            return true;
        }
        /* Its drive is not there: nothing to rebuild onto. */
        memset(&v->job, 0, sizeof(v->job));
    }
    if (!v->initialized && level_has_parity(v->level) &&
        v->state == RAID_VD_OPTIMAL &&
        raid_job_start(cfg, vd->idx, RAID_JOB_CHECK, true, NULL)) {
        trace_megaraid_job_auto(vd->idx, "background-init");
        return true;
    }
    return false;
}

static void coroutine_fn job_checkpoint(MRVirtualDisk *vd, bool force)
{
    int64_t now = now_ns();
    Error *err = NULL;

    vd->array->hooks->jobs.progress(vd);
    if (!force && now - vd->job_last_ckpt_ns < MR_JOB_CKPT_NS) {
        return;
    }
    vd->job_last_ckpt_ns = now;
    trace_megaraid_job_checkpoint(vd->idx, mr_vd_cfg(vd)->job.next_row);
    if (!vd->array->hooks->jobs.store(vd->array, &err)) {
        trace_megaraid_err_job_store(vd->idx, error_get_pretty(err));
        error_free(err);
    }
}

/*
 * Let guest reads use what the rebuild wrote: raise the rebuilt mark of
 * the rebuilding members in the data path's member states (it only ever
 * grows between refreshes, and only over rows the job finished under
 * their exclusive lock).
 */
static void job_publish_progress(MRVirtualDisk *vd)
{
    RaidMemberState st[RAID_MAX_MEMBERS];

    raid_config_vd_member_states(vd->array->cfg, vd->idx, st);
    for (uint32_t m = 0; m < vd->layout.members; m++) {
        if (vd->st[m].status == RAID_MEMBER_REBUILDING &&
            st[m].status == RAID_MEMBER_REBUILDING &&
            st[m].rebuilt > vd->st[m].rebuilt) {
            vd->st[m].rebuilt = st[m].rebuilt;
        }
    }
}

unsigned mr_jobs_rate(MRVirtualDisk *vd)
{
    const RaidVd *v = mr_vd_cfg(vd);
    MRArray *a = vd->array;
    unsigned rate = a->rebuild_rate;

    switch (v->job.kind) {
    case RAID_JOB_CHECK:
        /* the repairing check of a never initialized VD is its BGI */
        rate = v->job.repair && !v->initialized ? a->init_rate : a->cc_rate;
        break;
    case RAID_JOB_INIT:
        rate = a->init_rate;
        break;
    default:
        break;
    }
    return MAX(MIN(rate, 100), 1);
}

static unsigned job_rate(MRVirtualDisk *vd)
{
    return mr_jobs_rate(vd);
}

static uint64_t job_row_bytes(MRVirtualDisk *vd)
{
    return MAX((uint64_t)vd->layout.strip * 512 *
               MAX(vd->layout.members, 1), 1);
}

/* Rows per chunk: a rebuild's member requests of about a MiB. */
static uint32_t job_chunk_rows(MRVirtualDisk *vd)
{
    uint64_t strip = MAX((uint64_t)vd->layout.strip, 1);
    uint64_t n;

    if (mr_vd_cfg(vd)->job.kind != RAID_JOB_REBUILD) {
        return 1;
    }
    n = MR_JOB_CHUNK_MEMBER_BYTES / (strip * 512);
    n = MIN(n, RAID_PLAN_ROWS_MAX_SECTORS / strip);
    return MIN(MAX(n, 1), MR_JOB_CHUNK_MAX);
}

/* Chunks in flight at once: the window's bytes of member I/O. */
static unsigned job_window_chunks(MRVirtualDisk *vd)
{
    uint64_t n = MR_JOB_WINDOW_BYTES / (job_row_bytes(vd) *
                                        job_chunk_rows(vd));

    return MIN(MAX(n, MR_JOB_WINDOW_MIN), MR_JOB_WINDOW_MAX);
}

typedef enum MRBatchResult {
    MR_BATCH_OK,                /* rows done, the job goes on */
    MR_BATCH_FINISHED,          /* the job completed */
    MR_BATCH_FAILED,            /* a row failed; the cursor is on it */
    MR_BATCH_CHANGED,           /* the cursor was replaced meanwhile */
} MRBatchResult;

/* One row with the lock held: begin, run, end. */
static MRBatchResult coroutine_fn job_row(MRJobRun *r, uint64_t first,
                                          uint64_t last)
{
    MRVirtualDisk *vd = r->vd;
    RaidConfig *cfg = vd->array->cfg;
    RaidJobRow jr;
    RaidRunResult res = { .ret = 0, .failed_member = UINT32_MAX };
    RaidJobProgress pr = { 0 };
    GError *gerr = NULL;

    if (!raid_job_row_begin(cfg, vd->idx, &vd->layout, &jr, &gerr)) {
        trace_megaraid_err_job_row(vd->idx, gerr->message);
        g_error_free(gerr);
        return MR_BATCH_FAILED;
    }
    if (jr.plan) {
        RaidVd *v = mr_vd_cfg(vd);
        uint32_t seq = v->seq;
        RaidJobCursor before = v->job;

        if (jr.plan->error) {
            res.ret = jr.plan->error;
        } else if (jr.plan->has_rows &&
                   (jr.plan->first_row < first || jr.plan->last_row > last)) {
            /* Never for the core's row plans: refuse rather than race. */
            res.ret = -ERANGE;
        } else {
            int ret = mr_vd_co_run_plan(vd, jr.plan, &res);

            if (ret < 0 && res.ret == 0) {
                res.ret = ret;
            }
        }
        /*
         * While the row ran, a failure elsewhere may have given the VD a
         * new cursor (a spare replaced the drive being rebuilt: rebuild
         * from row 0 onto it).  Accounting this row would advance that
         * cursor over a row it never wrote: drop the result instead.
         */
        if (v->seq != seq || v->job.kind != before.kind ||
            v->job.target_ref != before.target_ref ||
            v->job.next_row != jr.row) {
            trace_megaraid_job_row_dropped(vd->idx, jr.row);
            raid_plan_free(jr.plan);
            return MR_BATCH_CHANGED;
        }
    }
    if (!raid_job_row_end(cfg, vd->idx, &vd->layout, &jr, &res, &pr,
                          &gerr)) {
        trace_megaraid_err_job_row(vd->idx, gerr->message);
        g_error_free(gerr);
        return MR_BATCH_FAILED;
    }
    if (pr.mismatches) {
        trace_megaraid_job_mismatch(vd->idx, jr.row, pr.total_mismatches);
    }
    r->rows += pr.rows;
    return pr.finished ? MR_BATCH_FINISHED : MR_BATCH_OK;
}

static void job_slot_granted(void *opaque)
{
    MRJobSlot *sl = opaque;

    aio_co_wake(sl->co);
}

/*
 * The chunk's rows as one plan (a rebuild of several rows whose per-row
 * plans are all runnable), or NULL: run them one at a time.  Planned
 * from the member states the per-row plans were made from (nothing
 * yielded since), so it reads and writes what they would.
 */
static RaidPlan *job_slot_merged_plan(MRJobSlot *sl)
{
    MRVirtualDisk *vd = sl->r->vd;
    RaidConfig *cfg = vd->array->cfg;
    RaidMemberState st[RAID_MAX_MEMBERS];
    int pds[RAID_MAX_MEMBERS];
    uint32_t target = UINT32_MAX;
    RaidPlan *p;
    int n;

    if (sl->nrows < 2 || sl->kind != RAID_JOB_REBUILD) {
        return NULL;
    }
    for (uint32_t i = 0; i < sl->nrows; i++) {
        if (!sl->jr[i].plan || sl->jr[i].plan->error) {
            return NULL;
        }
    }
    n = raid_vd_members(cfg, vd->idx, pds, RAID_MAX_MEMBERS);
    for (int i = 0; i < n; i++) {
        if (cfg->pds[pds[i]].ref == sl->target_ref) {
            target = i;
        }
    }
    if (target == UINT32_MAX) {
        return NULL;
    }
    raid_config_vd_member_states(cfg, vd->idx, st);
    p = raid_plan_rebuild_rows(&vd->layout, st, sl->row, sl->nrows, target);
    if (p->error || !p->has_rows || p->first_row != sl->row ||
        p->last_row != sl->row + sl->nrows - 1) {
        raid_plan_free(p);
        return NULL;
    }
    return p;
}

/* Run the chunk's rows: merged, else one after another. */
static void coroutine_fn job_slot_run(MRJobSlot *sl)
{
    MRVirtualDisk *vd = sl->r->vd;
    RaidPlan *merged = job_slot_merged_plan(sl);

    if (merged) {
        RaidRunResult res = { .ret = 0, .failed_member = UINT32_MAX };
        int ret = mr_vd_co_run_plan(vd, merged, &res);

        if (ret < 0 && res.ret == 0) {
            res.ret = ret;
        }
        trace_megaraid_job_chunk(vd->idx, sl->row, sl->nrows, res.ret);
        raid_plan_free(merged);
        for (uint32_t i = 0; i < sl->nrows; i++) {
            sl->res[i] = res;
        }
        return;
    }
    for (uint32_t i = 0; i < sl->nrows; i++) {
        RaidJobRow *jr = &sl->jr[i];
        RaidRunResult *res = &sl->res[i];

        if (!jr->plan) {
            /* the job ended meanwhile: nothing to run */
        } else if (jr->plan->error) {
            res->ret = jr->plan->error;
        } else if (jr->plan->has_rows &&
                   (jr->plan->first_row != sl->row + i ||
                    jr->plan->last_row != sl->row + i)) {
            /* Never for the core's row plans: refuse rather than race. */
            res->ret = -ERANGE;
        } else {
            int ret = mr_vd_co_run_plan(vd, jr->plan, res);

            if (ret < 0 && res->ret == 0) {
                res->ret = ret;
            }
        }
        if (res->ret < 0) {
            /* the rows after it cannot be counted: do not run them */
            break;
        }
    }
}

/* A pipeline worker: lock the rows, plan them, run them, tell the job. */
static void coroutine_fn job_slot_co(void *opaque)
{
    MRJobSlot *sl = opaque;
    MRJobRun *r = sl->r;
    MRVirtualDisk *vd = r->vd;
    RaidVd *v = mr_vd_cfg(vd);
    GError *gerr = NULL;
    const char *why;
    bool now = false;

    sl->lk = raid_stripe_lock(vd->locks, sl->row, sl->row + sl->nrows - 1,
                              true, job_slot_granted, sl, &now);
    if (!now) {
        qemu_coroutine_yield();
    }
    /* States may have changed while waiting for the lock. */
    if (vd->job_stop || !job_may_run(vd, &why)) {
        sl->skipped = true;
    } else {
        sl->planned = true;
        for (uint32_t i = 0; i < sl->nrows; i++) {
            if (!raid_job_row_begin_at(vd->array->cfg, vd->idx, &vd->layout,
                                       sl->row + i, &sl->jr[i], &gerr)) {
                trace_megaraid_err_job_row(vd->idx, gerr->message);
                g_clear_error(&gerr);
                sl->planned = false;
                break;
            }
        }
        if (sl->planned) {
            sl->seq = v->seq;
            sl->kind = v->job.kind;
            sl->target_ref = v->job.target_ref;
            job_slot_run(sl);
        }
    }
    sl->done = true;
    if (r->waiting) {
        r->waiting = false;
        aio_co_wake(r->co);
    }
}

static void job_slot_start(MRJobRun *r, MRJobSlot *sl, uint64_t row,
                           uint32_t nrows)
{
    memset(sl, 0, sizeof(*sl));
    sl->r = r;
    sl->row = row;
    sl->nrows = nrows;
    for (uint32_t i = 0; i < nrows; i++) {
        sl->res[i].failed_member = UINT32_MAX;
    }
    sl->co = qemu_coroutine_create(job_slot_co, sl);
    aio_co_enter(qemu_get_aio_context(), sl->co);
}

/* Free the plans of the chunk's rows from @from on (not counted). */
static void job_slot_drop(MRJobSlot *sl, uint32_t from)
{
    for (uint32_t i = from; i < sl->nrows; i++) {
        raid_plan_free(sl->jr[i].plan);
        sl->jr[i].plan = NULL;
    }
}

/*
 * Count a finished chunk's rows, in order: each must be the cursor's row,
 * for the cursor it was planned for.  @drop: an earlier row was not
 * counted, so these cannot be either (the cursor would pass the gap).
 * Stops at the first row that is not counted.
 */
static MRBatchResult job_slot_count(MRJobRun *r, MRJobSlot *sl, bool drop)
{
    MRVirtualDisk *vd = r->vd;
    RaidConfig *cfg = vd->array->cfg;
    RaidVd *v = mr_vd_cfg(vd);
    GError *gerr = NULL;

    if (drop || sl->skipped) {
        job_slot_drop(sl, 0);
        return MR_BATCH_OK;
    }
    if (!sl->planned) {
        job_slot_drop(sl, 0);
        return MR_BATCH_FAILED;
    }
    for (uint32_t i = 0; i < sl->nrows; i++) {
        RaidJobRow *jr = &sl->jr[i];
        RaidJobProgress pr = { 0 };

        /*
         * While the row ran, a failure elsewhere may have given the VD a
         * new cursor (a spare replaced the drive being rebuilt: rebuild
         * from row 0 onto it).  Counting this row would advance that
         * cursor over a row it never wrote: drop the result instead.
         */
        if (jr->plan &&
            (v->seq != sl->seq || v->job.kind != sl->kind ||
             v->job.target_ref != sl->target_ref ||
             v->job.next_row != jr->row)) {
            trace_megaraid_job_row_dropped(vd->idx, jr->row);
            job_slot_drop(sl, i);
            return MR_BATCH_CHANGED;
        }
        if (!jr->plan && v->job.next_row < v->job.total_rows) {
            /* planned as "no row left" but rows are left: not ours */
            job_slot_drop(sl, i);
            return MR_BATCH_CHANGED;
        }
        if (!raid_job_row_end(cfg, vd->idx, &vd->layout, jr, &sl->res[i],
                              &pr, &gerr)) {
            trace_megaraid_err_job_row(vd->idx, gerr->message);
            g_error_free(gerr);
            job_slot_drop(sl, i + 1);
            return MR_BATCH_FAILED;
        }
        if (pr.mismatches) {
            trace_megaraid_job_mismatch(vd->idx, jr->row,
                                        pr.total_mismatches);
        }
        r->rows += pr.rows;
        /* each 10 % in the event log, however many rows a chunk holds */
        vd->array->hooks->jobs.progress(vd);
        if (pr.finished) {
            job_slot_drop(sl, i + 1);
            return MR_BATCH_FINISHED;
        }
    }
    return MR_BATCH_OK;
}

/*
 * Rows from the cursor on (below @limit), a window of them in flight at
 * once, until the batch time, a stop request, a state in which the job
 * may not run, the end of the job, or a row that fails.  Rows are
 * counted in order as they finish, each row's lock released only once
 * the cursor has passed it and guest reads were told (the data path
 * then sees the row rebuilt).  Returns once every row it started is
 * finished.
 */
static MRBatchResult coroutine_fn job_batch(MRJobRun *r, int64_t *work_ns,
                                            uint64_t limit)
{
    MRVirtualDisk *vd = r->vd;
    RaidVd *v = mr_vd_cfg(vd);
    uint64_t rows = vd->layout.rows;
    uint64_t first = v->job.next_row, issue = first, end;
    unsigned window = job_window_chunks(vd);
    uint32_t chunk = job_chunk_rows(vd);
    unsigned head = 0, n = 0;
    bool full = job_rate(vd) >= 100 || vd->array->timing;
    int64_t slice = full ? MR_JOB_BATCH_FULL_NS : MR_JOB_BATCH_NS;
    MRBatchResult ret = MR_BATCH_OK;
    bool issuing = true, drop = false;
    int64_t t0;

    *work_ns = 0;
    if (first >= rows) {
        /* Nothing left (e.g. resumed at the end): end finishes it. */
        return job_row(r, 0, 0);
    }
    end = MIN(rows, limit);
    if (!full) {
        end = MIN(end, first + MAX(MR_JOB_BATCH_BYTES / job_row_bytes(vd), 1));
    }
    t0 = now_ns();
    r->batch_t0 = t0;
    for (;;) {
        MRJobSlot *sl;

        while (issuing && n < window) {
            const char *why;
            uint32_t k;

            if (issue >= end || vd->job_stop || !job_may_run(vd, &why) ||
                now_ns() - t0 >= slice ||
                (full && !vd->array->timing && job_rate(vd) < 100)) {
                issuing = false;
                break;
            }
            k = MIN(chunk, end - issue);
            job_slot_start(r, &r->slot[(head + n) % MR_JOB_WINDOW_MAX],
                           issue, k);
            issue += k;
            n++;
        }
        if (n == 0) {
            break;
        }
        sl = &r->slot[head];
        if (!sl->done) {
            r->waiting = true;
            qemu_coroutine_yield();
            continue;
        }
        if (!drop) {
            MRBatchResult res = job_slot_count(r, sl, false);

            if (sl->skipped) {
                /* a state stopped the job: rows after it cannot count */
                drop = true;
                issuing = false;
            } else if (res != MR_BATCH_OK) {
                ret = res;
                drop = true;
                issuing = false;
            } else {
                job_publish_progress(vd);
            }
        } else {
            job_slot_count(r, sl, true);
        }
        raid_stripe_unlock(vd->locks, sl->lk);
        sl->lk = NULL;
        head = (head + 1) % MR_JOB_WINDOW_MAX;
        n--;
    }
    *work_ns = now_ns() - t0;
    r->batch_t0 = 0;
    job_publish_progress(vd);
    trace_megaraid_job_batch(vd->idx, first, v->job.next_row, *work_ns);
    return ret;
}

/* Rate limiting: after @work_ns of work, rest so it is rate % of time. */
static void coroutine_fn job_rest(MRJobRun *r, int64_t work_ns)
{
    MRVirtualDisk *vd = r->vd;
    unsigned rate = job_rate(vd);
    int64_t ns;

    if (rate >= 100 || work_ns <= 0) {
        return;
    }
    ns = MIN(work_ns * (100 - rate) / rate, MR_JOB_MAX_SLEEP_NS);
    if (vd->job_stop) {
        return;
    }
    trace_megaraid_job_sleep(vd->idx, rate, ns);
    r->sleeping = true;
    qemu_co_sleep_ns_wakeable(&r->sleep, QEMU_CLOCK_REALTIME, ns);
    r->sleeping = false;
}

static void job_measure_reset(MRJobRun *r)
{
    RaidVd *v = mr_vd_cfg(r->vd);

    r->kind = v->job.kind;
    r->started_ns = now_ns();
    r->start_row = v->job.next_row;
    r->rows = 0;
    r->work_ns = 0;
    r->started_virt = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    r->pace.ready = false;
}

/* ---- timing=on: the model's pace ---- */

static TimingBgKind job_bg_kind(RaidJobKind k)
{
    return k == RAID_JOB_REBUILD ? TIMING_BG_REBUILD :
           k == RAID_JOB_INIT ? TIMING_BG_INIT : TIMING_BG_CHECK;
}

/* Size the pipeline for the rate; slots added start idle at @now. */
static void job_pace_slots(MRJobRun *r, MRTiming *t, uint64_t now)
{
    MRJobPace *p = &r->pace;
    unsigned rate = job_rate(r->vd);
    unsigned n = MIN(timing_background_slots(t->ctrl, rate),
                     MR_JOB_PACE_SLOTS);

    for (unsigned i = p->slots; i < n; i++) {
        p->busy[i] = false;
        p->next[i] = now;
    }
    for (unsigned i = n; i < p->slots; i++) {
        /* a slot given up at a lower rate: its chunk is booked, count it */
        if (p->busy[i]) {
            p->busy[i] = false;
            p->completed++;
            p->run_completed++;
        }
    }
    p->slots = n;
    p->rate = rate;
}

/* The model's duration of this job with no load (rebuilds only). */
static uint64_t job_pace_model_ns(MRVirtualDisk *vd, MRTiming *t,
                                  uint64_t bytes)
{
    RaidVd *v = mr_vd_cfg(vd);
    const RaidLayout *l = &vd->layout;
    int pd = rebuild_target_pd(vd);
    MRDrive *d = pd >= 0 ? vd->array->pd_drive[pd] : NULL;
    bool mirror = l->level == RAID_LEVEL_1 || l->level == RAID_LEVEL_10;

    if (v->job.kind != RAID_JOB_REBUILD || !d || !d->perf) {
        return 0;
    }
    return timing_rebuild_idle_ns(t->ctrl, d->perf, l->level,
                                  mirror ? 2 : l->span_members, bytes,
                                  job_rate(vd));
}

static void job_pace_setup(MRJobRun *r, MRTiming *t)
{
    MRVirtualDisk *vd = r->vd;
    RaidVd *v = mr_vd_cfg(vd);
    MRJobPace *p = &r->pace;
    uint64_t now = mr_timing_model_now(t);

    memset(p, 0, sizeof(*p));
    p->ready = true;
    p->chunk_bytes = MAX(t->ctrl->bg_chunk_bytes, 4096);
    p->model_bytes = mr_timing_vd_member_bytes(vd);
    p->total = MAX(DIV_ROUND_UP(p->model_bytes, p->chunk_bytes), 1);
    if (v->job.total_rows) {
        p->completed = (uint64_t)((double)p->total *
                                  MIN(v->job.next_row, v->job.total_rows) /
                                  v->job.total_rows);
    }
    p->issued = p->completed;
    p->model_ns = job_pace_model_ns(vd, t, p->model_bytes);
    p->started_model = now;
    job_pace_slots(r, t, now);
    trace_megaraid_timing_job_start(vd->idx, raid_job_name(v->job.kind),
                                    p->model_bytes, p->total, p->slots,
                                    p->model_ns);
}

/* Book one chunk of slot @s at modelled time @at. */
static void job_pace_issue(MRJobRun *r, MRTiming *t, unsigned s, uint64_t at)
{
    MRVirtualDisk *vd = r->vd;
    MRJobPace *p = &r->pace;
    int drive[RAID_MAX_MEMBERS];
    int pd = rebuild_target_pd(vd);
    MRDrive *target = pd >= 0 ? vd->array->pd_drive[pd] : NULL;
    TimingVd tv;
    TimingBackground bg = {
        .kind = job_bg_kind(mr_vd_cfg(vd)->job.kind),
        .vd = &tv,
        .bytes = p->chunk_bytes,
        .target_drive = -1,
    };

    mr_timing_vd(t, vd, &tv, drive);
    if (bg.kind == TIMING_BG_REBUILD && target) {
        bg.target_drive = mr_timing_drive(t, target);
    }
    p->issue_t[s] = at;
    p->done[s] = MAX(timing_background_submit(t->model, at, p->rate, &bg),
                     at);
    p->busy[s] = true;
    p->issued++;
}

/*
 * Run the pipeline's events up to modelled time @now in time order;
 * returns the time of the next event (UINT64_MAX: none).
 */
static uint64_t job_pace_advance(MRJobRun *r, MRTiming *t, uint64_t now)
{
    MRJobPace *p = &r->pace;

    if (job_rate(r->vd) != p->rate) {
        job_pace_slots(r, t, now);
    }
    for (unsigned n = 0; n < MR_JOB_PACE_BUDGET; n++) {
        uint64_t e = UINT64_MAX;
        unsigned s = 0;

        for (unsigned i = 0; i < p->slots; i++) {
            uint64_t ei = p->busy[i] ? p->done[i] : p->next[i];

            if (ei < e) {
                e = ei;
                s = i;
            }
        }
        if (e > now) {
            return e;
        }
        if (p->busy[s]) {
            uint64_t busy = p->done[s] - p->issue_t[s];
            uint64_t rest = timing_background_rest_ns(t->ctrl, p->rate, s,
                                                      busy);

            p->busy[s] = false;
            p->completed++;
            p->run_completed++;
            p->busy_ns += busy;
            p->next[s] = rest == UINT64_MAX ? UINT64_MAX : p->done[s] + rest;
        } else if (p->issued < p->total) {
            job_pace_issue(r, t, s, e);
        } else {
            p->next[s] = UINT64_MAX;
        }
    }
    return now;                 /* over budget: come back at once */
}

/*
 * The next step of a job under the model: the real rows the modelled
 * progress has reached, else a wait for the model's next event.
 */
static MRBatchResult coroutine_fn job_paced(MRJobRun *r, int64_t *work_ns)
{
    MRVirtualDisk *vd = r->vd;
    MRTiming *t = vd->array->timing;
    RaidVd *v = mr_vd_cfg(vd);
    MRJobPace *p = &r->pace;

    *work_ns = 0;
    if (!p->ready) {
        job_pace_setup(r, t);
    }
    while (!vd->job_stop) {
        uint64_t now = mr_timing_model_now(t);
        uint64_t next = job_pace_advance(r, t, now);
        uint64_t allowed = v->job.total_rows;
        int64_t virt, sleep;

        if (p->completed < p->total) {
            allowed = (uint64_t)((double)v->job.total_rows * p->completed /
                                 p->total);
        }
        if (p->completed >= p->total || v->job.next_row < allowed) {
            return job_batch(r, work_ns, p->completed >= p->total ?
                             UINT64_MAX : allowed);
        }
        if (next == now) {
            /* over the booking budget: let the main loop run */
            aio_co_schedule(qemu_get_aio_context(), qemu_coroutine_self());
            qemu_coroutine_yield();
            continue;
        }
        virt = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        sleep = next == UINT64_MAX ? MR_JOB_MAX_SLEEP_NS :
                mr_timing_virt_of(t, next) - virt;
        sleep = MIN(MAX(sleep, MR_JOB_PACE_MIN_SLEEP), MR_JOB_MAX_SLEEP_NS);
        r->sleeping = true;
        qemu_co_sleep_ns_wakeable(&r->sleep, QEMU_CLOCK_VIRTUAL, sleep);
        r->sleeping = false;
    }
    return MR_BATCH_OK;
}

/* A job ended: what it took, and what the model gave it. */
static void job_record_done(MRJobRun *r)
{
    MRVirtualDisk *vd = r->vd;
    MRTiming *t = vd->array->timing;

    if (t) {
        vd->job_last_ms = (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) -
                           r->started_virt) / SCALE_MS;
        vd->job_last_model_ms = r->pace.model_ns ?
            (int64_t)((double)r->pace.model_ns * t->scale / SCALE_MS) : -1;
        trace_megaraid_timing_job_done(vd->idx, vd->job_last_ms,
                                       vd->job_last_model_ms);
    } else {
        vd->job_last_ms = (now_ns() - r->started_ns) / SCALE_MS;
        vd->job_last_model_ms = -1;
    }
}

/*
 * Run jobs until none is left that may run, a row keeps failing, or a
 * stop is requested.  Returns whether anything was done since the last
 * checkpoint.
 */
static bool coroutine_fn job_run_loop(MRJobRun *r, bool *give_up)
{
    MRVirtualDisk *vd = r->vd;
    MRArray *a = vd->array;
    RaidVd *v = mr_vd_cfg(vd);
    uint64_t fail_row = UINT64_MAX;
    unsigned fails = 0;
    bool dirty = false;

    while (!vd->job_stop) {
        const char *why = NULL;
        MRBatchResult res;
        int64_t work_ns;

        if (r->announce) {
            /* A new job: member states, the controller, the metadata. */
            r->announce = false;
            job_measure_reset(r);
            trace_megaraid_job_start(vd->idx, raid_job_name(v->job.kind),
                                     v->job.repair, v->job.next_row,
                                     vd->layout.rows);
            a->hooks->jobs.event(vd, MR_EV_JOB_STARTED, v->job.kind,
                                 v->job.next_row);
            a->hooks->jobs.config_changed(a);
            job_checkpoint(vd, true);
            dirty = false;
            continue;
        }
        if (!job_may_run(vd, &why)) {
            if (v->job.kind != RAID_JOB_NONE) {
                trace_megaraid_job_paused(vd->idx, raid_job_name(v->job.kind),
                                          v->job.next_row, why);
            }
            break;
        }
        if (r->kind != v->job.kind) {
            job_measure_reset(r);
        }
        if (a->timing) {
            res = job_paced(r, &work_ns);
        } else {
            res = job_batch(r, &work_ns, UINT64_MAX);
        }
        r->work_ns += work_ns;
        dirty = true;
        if (res == MR_BATCH_FINISHED) {
            trace_megaraid_job_done(vd->idx, raid_job_name(r->kind),
                                    r->rows, now_ns() - r->started_ns);
            job_record_done(r);
            a->hooks->jobs.event(vd, MR_EV_JOB_DONE, r->kind,
                                 v->job.mismatches);
            /* The core changed the configuration (drive online, ...). */
            a->hooks->jobs.config_changed(a);
            job_checkpoint(vd, true);
            dirty = false;
            /* Whatever should follow (second rebuild, BGI) starts now. */
            r->announce |= job_auto_start(vd);
            continue;
        }
        if (res == MR_BATCH_CHANGED) {
            job_measure_reset(r);
        }
        if (res == MR_BATCH_FAILED) {
            /*
             * The data path failed the member that errored: the new
             * states decide whether the job goes on (job_may_run).
             */
            a->hooks->jobs.config_changed(a);
            if (v->job.next_row != fail_row) {
                fail_row = v->job.next_row;
                fails = 0;
            }
            if (++fails >= MR_JOB_MAX_RETRIES) {
                trace_megaraid_job_paused(vd->idx, raid_job_name(v->job.kind),
                                          v->job.next_row,
                                          "the row keeps failing");
                a->hooks->jobs.event(vd, MR_EV_JOB_ABORTED, v->job.kind, 0);
                *give_up = true;
                break;
            }
        }
        job_checkpoint(vd, false);
        if (!a->timing) {
            job_rest(r, work_ns);
        }
    }
    return dirty;
}

static void coroutine_fn job_co_entry(void *opaque)
{
    MRJobRun *r = opaque;
    MRVirtualDisk *vd = r->vd;
    bool give_up = false;
    const char *why;

    job_measure_reset(r);
    if (!r->announce) {
        /* a job the cursor already held: new to this run of the VD */
        vd->array->hooks->jobs.event(vd, MR_EV_JOB_STARTED,
                                     mr_vd_cfg(vd)->job.kind,
                                     mr_vd_cfg(vd)->job.next_row);
    }
    for (;;) {
        if (job_run_loop(r, &give_up)) {
            job_checkpoint(vd, true);
        }
        /*
         * The checkpoint may have yielded: a job started meanwhile by
         * the host (mr_jobs_start saw this coroutine still running) is
         * run here rather than forgotten.
         */
        if (give_up || vd->job_stop || !job_may_run(vd, &why)) {
            break;
        }
    }
    trace_megaraid_job_exit(vd->idx, mr_vd_cfg(vd)->job.next_row,
                            vd->job_stop);
    QLIST_REMOVE(r, next);
    vd->job_run = NULL;
    vd->job_co = NULL;
    g_free(r);
    aio_wait_kick();
}

static void job_spawn(MRVirtualDisk *vd, bool announce)
{
    MRJobRun *r;

    if (vd->job_co) {
        return;
    }
    mr_jobs_hook();
    r = g_new0(MRJobRun, 1);
    r->vd = vd;
    r->announce = announce;
    QLIST_INSERT_HEAD(&mr_job_runs, r, next);
    vd->job_stop = false;
    vd->job_run = r;
    r->co = qemu_coroutine_create(job_co_entry, r);
    vd->job_co = r->co;
    aio_co_enter(qemu_get_aio_context(), r->co);
}

void mr_jobs_kick(MRVirtualDisk *vd)
{
    const char *why;
    bool announce = false;

    if (vd->job_co || !vd->array->cfg || mr_jobs_shutting_down ||
        vd->job_paused) {
        return;
    }
    if (mr_vd_cfg(vd)->job.kind == RAID_JOB_NONE) {
        announce = job_auto_start(vd);
    }
    if (!job_may_run(vd, &why)) {
        return;
    }
    job_spawn(vd, announce);
}

void mr_jobs_stop(MRVirtualDisk *vd)
{
    MRJobRun *r = vd->job_run;

    if (!vd->job_co) {
        return;
    }
    vd->job_stop = true;
    if (r && r->sleeping) {
        qemu_co_sleep_wake(&r->sleep);
    }
    if (qemu_in_coroutine()) {
        if (qemu_coroutine_self() == vd->job_co) {
            /* From the job itself (e.g. its row failed the target). */
            return;
        }
        while (vd->job_co) {
            qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, SCALE_MS);
        }
        return;
    }
    AIO_WAIT_WHILE(NULL, vd->job_co != NULL);
}

bool mr_jobs_start(MRVirtualDisk *vd, RaidJobKind kind, bool repair,
                   Error **errp)
{
    GError *gerr = NULL;

    if (kind != RAID_JOB_CHECK && kind != RAID_JOB_INIT) {
        error_setg(errp, "VD %d: only a consistency check or an "
                   "initialization can be started; a rebuild starts when a "
                   "drive replaces a failed member", vd->idx);
        return false;
    }
    if (mr_jobs_shutting_down) {
        error_setg(errp, "VD %d: the machine is shutting down", vd->idx);
        return false;
    }
    if (!raid_job_start(vd->array->cfg, vd->idx, kind, repair, &gerr)) {
        error_setg(errp, "%s", gerr->message);
        g_error_free(gerr);
        return false;
    }
    trace_megaraid_job_request(vd->idx, raid_job_name(kind), repair);
    if (vd->job_co) {
        /* A coroutine that is about to return: it runs the new job. */
        vd->job_run->announce = true;
        return true;
    }
    job_spawn(vd, true);
    return true;
}

void mr_jobs_stats(MRVirtualDisk *vd, MRJobStats *out)
{
    RaidVd *v = mr_vd_cfg(vd);
    MRJobRun *r = vd->job_run;

    memset(out, 0, sizeof(*out));
    out->eta_s = -1;
    out->eta_ms = -1;
    out->model_row = -1;
    out->kind = v->job.kind;
    out->repair = v->job.repair;
    out->running = vd->job_co != NULL;
    out->percent = raid_job_percent(&v->job);
    out->next_row = v->job.next_row;
    out->total_rows = v->job.total_rows;
    out->mismatches = v->job.mismatches;
    if (r && r->kind == v->job.kind && vd->array->timing && r->pace.ready) {
        MRTiming *t = vd->array->timing;
        const MRJobPace *p = &r->pace;
        int64_t el = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - r->started_virt;
        uint64_t el_model = mr_timing_model_now(t) - p->started_model;

        out->timed = true;
        out->elapsed_ms = el / SCALE_MS;
        out->model_bytes = p->model_bytes;
        out->model_ms = (int64_t)((double)p->model_ns * t->scale / SCALE_MS);
        out->model_row = p->completed >= p->total ? v->job.total_rows :
                         (int64_t)((double)v->job.total_rows * p->completed /
                                   p->total);
        if (el > 0) {
            double s = (double)el / NANOSECONDS_PER_SECOND;

            out->rows_per_s = r->rows / s;
            out->bytes_per_s = p->run_completed * p->chunk_bytes / s;
        }
        if (el_model > 0 && p->slots) {
            out->busy_percent = MIN(100.0 * p->busy_ns /
                                    ((double)el_model * p->slots), 100);
        }
        if (out->bytes_per_s) {
            double left = (double)(p->total - MIN(p->completed, p->total)) *
                          p->chunk_bytes;

            out->eta_ms = left * 1000 / out->bytes_per_s;
            out->eta_s = out->eta_ms / 1000;
        }
        return;
    }
    if (r && r->kind == v->job.kind) {
        out->elapsed_ms = (now_ns() - r->started_ns) / SCALE_MS;
    }
    if (r && r->kind == v->job.kind && r->rows) {
        int64_t el = now_ns() - r->started_ns;
        /* the batch running counts as work up to now */
        int64_t work = r->work_ns +
                       (r->batch_t0 ? now_ns() - r->batch_t0 : 0);

        if (el > 0) {
            out->rows_per_s = r->rows * NANOSECONDS_PER_SECOND / el;
            out->bytes_per_s = out->rows_per_s * vd->layout.strip * 512;
            out->busy_percent = MIN(work * 100 / el, 100);
        }
        if (out->rows_per_s) {
            out->eta_s = (v->job.total_rows - MIN(v->job.next_row,
                                                  v->job.total_rows)) /
                         out->rows_per_s;
            out->eta_ms = (v->job.total_rows - MIN(v->job.next_row,
                                                   v->job.total_rows)) *
                          1000 / out->rows_per_s;
        }
    }
}
