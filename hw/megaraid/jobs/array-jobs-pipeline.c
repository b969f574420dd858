/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the rows pipeline of a background job (array-jobs-int.h).
 * A batch issues chunks of rows into a window of worker coroutines, each
 * under its rows' exclusive stripe lock (a rebuild's chunk of adjacent
 * rows as one plan of larger member requests), counts the finished rows
 * in row order so the cursor never passes an unwritten row, and the
 * rest after it keeps the duty cycle the rate asks for (timing off).
 */
#include "qemu/osdep.h"
#include "qemu/coroutine.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "block/aio-wait.h"
#include "hw/megaraid/member/member.h"
#include "jobs.h"
#include "array-jobs-int.h"
#include "trace.h"

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

/*
 * A copyback row the source could not read (a medium error; a failed
 * source ends the copyback instead): the row from the other members'
 * redundancy, as the card copies it, still under the row's lock.
 */
static void coroutine_fn job_copy_rebuilt(MRJobSlot *sl, uint64_t row,
                                          RaidRunResult *res)
{
    MRVirtualDisk *vd = sl->r->vd;
    RaidRunResult again = { .ret = 0, .failed_member = UINT32_MAX };
    RaidPlan *p;
    int ret;

    if (!vd->copy_on || res->failed_member != vd->copy_member ||
        vd->st[vd->copy_member].status != RAID_MEMBER_ONLINE) {
        return;
    }
    p = raid_plan_copy_row_rebuilt(&vd->layout, vd->st, row,
                                   vd->copy_member);
    if (!p->error) {
        ret = mr_vd_co_run_plan(vd, p, &again);
        if (ret < 0 && again.ret == 0) {
            again.ret = ret;
        }
        trace_megaraid_job_copy_rebuilt(vd->idx, row, again.ret);
        *res = again;
    }
    raid_plan_free(p);
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
            if (res->ret < 0 && sl->kind == RAID_JOB_COPYBACK) {
                job_copy_rebuilt(sl, sl->row + i, res);
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
    if (vd->job_stop || !mr_job_may_run(vd, &why)) {
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
MRBatchResult coroutine_fn mr_job_batch(MRJobRun *r, int64_t *work_ns,
                                        uint64_t limit)
{
    MRVirtualDisk *vd = r->vd;
    RaidVd *v = mr_vd_cfg(vd);
    uint64_t rows = vd->layout.rows;
    uint64_t first = v->job.next_row, issue = first, end;
    unsigned window = job_window_chunks(vd);
    uint32_t chunk = job_chunk_rows(vd);
    unsigned head = 0, n = 0;
    bool full = mr_jobs_rate(vd) >= 100 || vd->array->timing;
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
    t0 = mr_job_now_ns();
    r->batch_t0 = t0;
    for (;;) {
        MRJobSlot *sl;

        while (issuing && n < window) {
            const char *why;
            uint32_t k;

            if (issue >= end || vd->job_stop || !mr_job_may_run(vd, &why) ||
                mr_job_now_ns() - t0 >= slice ||
                (full && !vd->array->timing && mr_jobs_rate(vd) < 100)) {
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
                mr_job_publish_progress(vd);
            }
        } else {
            job_slot_count(r, sl, true);
        }
        raid_stripe_unlock(vd->locks, sl->lk);
        sl->lk = NULL;
        head = (head + 1) % MR_JOB_WINDOW_MAX;
        n--;
    }
    *work_ns = mr_job_now_ns() - t0;
    r->batch_t0 = 0;
    mr_job_publish_progress(vd);
    trace_megaraid_job_batch(vd->idx, first, v->job.next_row, *work_ns);
    return ret;
}

/* Rate limiting: after @work_ns of work, rest so it is rate % of time. */
void coroutine_fn mr_job_rest(MRJobRun *r, int64_t work_ns)
{
    MRVirtualDisk *vd = r->vd;
    unsigned rate = mr_jobs_rate(vd);
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

void mr_job_measure_reset(MRJobRun *r)
{
    RaidVd *v = mr_vd_cfg(r->vd);

    r->kind = v->job.kind;
    r->started_ns = mr_job_now_ns();
    r->start_row = v->job.next_row;
    r->rows = 0;
    r->work_ns = 0;
    r->started_virt = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    r->pace.ready = false;
}
