/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a background job's pace with timing=on (array-jobs-int.h).
 * The job books chunks of the modelled member extent with
 * timing_background_submit() in a pipeline of slots, waits on
 * QEMU_CLOCK_VIRTUAL for their modelled (scaled) completion, and runs the
 * real rows (array-jobs-pipeline.c) as the modelled progress reaches
 * them.
 */
#include "qemu/osdep.h"
#include "qemu/coroutine.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "hw/megaraid/member/member.h"
#include "jobs.h"
#include "hw/megaraid/timing/array-timing.h"
#include "array-jobs-int.h"
#include "trace.h"

static TimingBgKind job_bg_kind(RaidJobKind k)
{
    return k == RAID_JOB_REBUILD ? TIMING_BG_REBUILD :
           k == RAID_JOB_INIT ? TIMING_BG_INIT : TIMING_BG_CHECK;
}

/* Size the pipeline for the rate; slots added start idle at @now. */
static void job_pace_slots(MRJobRun *r, MRTiming *t, uint64_t now)
{
    MRJobPace *p = &r->pace;
    unsigned rate = mr_jobs_rate(r->vd);
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
    int pd = mr_job_rebuild_target_pd(vd);
    MRDrive *d = pd >= 0 ? vd->array->pd_drive[pd] : NULL;
    bool mirror = l->level == RAID_LEVEL_1 || l->level == RAID_LEVEL_10;

    if (v->job.kind != RAID_JOB_REBUILD || !d || !d->perf) {
        return 0;
    }
    return timing_rebuild_idle_ns(t->ctrl, d->perf, l->level,
                                  mirror ? 2 : l->span_members, bytes,
                                  mr_jobs_rate(vd));
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
    int pd = mr_job_rebuild_target_pd(vd);
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

    if (mr_jobs_rate(r->vd) != p->rate) {
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
MRBatchResult coroutine_fn mr_job_paced(MRJobRun *r, int64_t *work_ns)
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
            return mr_job_batch(r, work_ns, p->completed >= p->total ?
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
