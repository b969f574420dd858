/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: background jobs of the array (rebuild, consistency check,
 * background and full initialization) as one coroutine per VD.
 *
 * Owns the job coroutine per VD: which job may run in the VD's state,
 * what follows a finished job (a second rebuild, background
 * initialization), checkpoints of the cursor into the DDF metadata,
 * retries of a failing row, start, stop (also at QEMU's shutdown) and the
 * statistics.  The rows themselves run in a pipeline of worker
 * coroutines (array-jobs-pipeline.c), paced by the rate's duty cycle or,
 * with timing=on, by the model (array-jobs-pace.c).  The cursor and what
 * a finished job changes in the configuration belong to the RAID core
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
#include "hw/megaraid/member/member.h"
#include "jobs.h"
#include "hw/megaraid/timing/array-timing.h"
#include "array-jobs-int.h"
#include "trace.h"


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

static bool level_has_parity(RaidLevel l)
{
    return l == RAID_LEVEL_5 || l == RAID_LEVEL_6 || l == RAID_LEVEL_50 ||
           l == RAID_LEVEL_60;
}

/* The drive a rebuild (or copyback) cursor targets, or -1. */
int mr_job_rebuild_target_pd(MRVirtualDisk *vd)
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
bool mr_job_may_run(MRVirtualDisk *vd, const char **why)
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
        pd = mr_job_rebuild_target_pd(vd);
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
    case RAID_JOB_COPYBACK:
        pd = mr_job_rebuild_target_pd(vd);
        if (v->state == RAID_VD_OFFLINE) {
            *why = "the VD is offline";
            return false;
        }
        if (pd < 0 || cfg->pds[pd].state != RAID_PD_COPYBACK ||
            !cfg->pds[pd].present || !vd->copy_on) {
            *why = "the drive copied onto is gone or failed";
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
        int pd = mr_job_rebuild_target_pd(vd);

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
    int64_t now = mr_job_now_ns();
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
void mr_job_publish_progress(MRVirtualDisk *vd)
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
        vd->job_last_ms = (mr_job_now_ns() - r->started_ns) / SCALE_MS;
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
            mr_job_measure_reset(r);
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
        if (!mr_job_may_run(vd, &why)) {
            if (v->job.kind != RAID_JOB_NONE) {
                trace_megaraid_job_paused(vd->idx, raid_job_name(v->job.kind),
                                          v->job.next_row, why);
            }
            break;
        }
        if (r->kind != v->job.kind) {
            mr_job_measure_reset(r);
        }
        if (a->timing) {
            res = mr_job_paced(r, &work_ns);
        } else {
            res = mr_job_batch(r, &work_ns, UINT64_MAX);
        }
        r->work_ns += work_ns;
        dirty = true;
        if (res == MR_BATCH_FINISHED) {
            trace_megaraid_job_done(vd->idx, raid_job_name(r->kind),
                                    r->rows, mr_job_now_ns() - r->started_ns);
            job_record_done(r);
            a->hooks->jobs.event(vd, MR_EV_JOB_DONE, r->kind,
                                 v->job.mismatches);
            /* The core changed the configuration (drive online, ...). */
            a->hooks->jobs.config_changed(a);
            /* a copyback that waited for the group to be idle */
            if (a->hooks->jobs.copyback && a->hooks->jobs.copyback(a)) {
                r->announce = v->job.kind != RAID_JOB_NONE;
            }
            /*
             * Whatever should follow (second rebuild, BGI) starts now,
             * before the checkpoint yields for the metadata writer: the
             * cursor never reads "no job" while work is left, and the
             * metadata written records the next job.
             */
            r->announce |= job_auto_start(vd);
            job_checkpoint(vd, true);
            dirty = false;
            continue;
        }
        if (res == MR_BATCH_CHANGED) {
            mr_job_measure_reset(r);
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
            mr_job_rest(r, work_ns);
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

    mr_job_measure_reset(r);
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
        if (give_up || vd->job_stop || !mr_job_may_run(vd, &why)) {
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
    if (!mr_job_may_run(vd, &why)) {
        return;
    }
    job_spawn(vd, announce);
}

void mr_jobs_abort(MRVirtualDisk *vd)
{
    MRJobRun *r = vd->job_run;

    if (!vd->job_co) {
        return;
    }
    vd->job_stop = true;
    if (r && r->sleeping) {
        qemu_co_sleep_wake(&r->sleep);
    }
}

void mr_jobs_stop(MRVirtualDisk *vd)
{
    if (!vd->job_co) {
        return;
    }
    mr_jobs_abort(vd);
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
        out->elapsed_ms = (mr_job_now_ns() - r->started_ns) / SCALE_MS;
    }
    if (r && r->kind == v->job.kind && r->rows) {
        int64_t el = mr_job_now_ns() - r->started_ns;
        /* the batch running counts as work up to now */
        int64_t work = r->work_ns +
                       (r->batch_t0 ? mr_job_now_ns() - r->batch_t0 : 0);

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
