/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: patrol read, one coroutine per controller.
 *
 * A pass reads every member drive of every VD that is not offline
 * (members that are online; hot spares and unconfigured drives are not
 * read, nor members being rebuilt) in chunks, in drive order, at the
 * patrol rate's duty cycle.  A chunk that meets a medium error
 * (drive-media.c) is repaired row by row: the bad member's strip of the
 * row is recomputed from the other members (a rebuild plan of that row
 * with the drive as its target, under the row's exclusive stripe lock)
 * and written back, which reallocates the bad blocks.  A VD without
 * redundancy (RAID 0, JBOD) or a row whose other copies do not read
 * keeps the error, logged as uncorrectable.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/coroutine.h"
#include "qemu/timer.h"
#include "qemu/main-loop.h"
#include "qemu/memalign.h"
#include "block/aio-wait.h"
#include "system/block-backend.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/evlog.h"
#include "hw/megaraid/member/member.h"
#include "hw/megaraid/patrol.h"
#include "trace.h"

/* Member sectors read per chunk */
#define MR_PATROL_CHUNK_SECTORS 2048
#define MR_PATROL_DEFAULT_RATE  30

typedef struct MRPatrol {
    Coroutine *co;
    bool stop;
    QemuCoSleep sleep;
    bool sleeping;
    unsigned rate;
    MRPatrolMode mode;
    unsigned max_drives;
    uint32_t delay_h;
    uint32_t drives_done;
    uint32_t iterations;
    uint64_t done_sectors, total_sectors;
    int cur_slot;
    uint64_t cur_done, cur_total;
    unsigned last_pct_logged;
    uint32_t corrected, uncorrectable;
    void *buf;
    QEMUTimer *timer;           /* mode auto: the next pass */
    GSList *stopped;            /* MRPatrolWaiter: called when it ends */
} MRPatrol;

typedef struct MRPatrolWaiter {
    MRPatrolStopped *cb;
    void *opaque;
} MRPatrolWaiter;

static void mr_patrol_arm(MRArray *a);

static MRPatrol *mr_patrol(MRArray *a)
{
    if (!a->patrol) {
        a->patrol = g_new0(MRPatrol, 1);
        a->patrol->rate = MR_PATROL_DEFAULT_RATE;
        a->patrol->mode = MR_PATROL_MODE_MANUAL;
        a->patrol->max_drives = 1;
        a->patrol->delay_h = 168;
        a->patrol->cur_slot = -1;
    }
    return a->patrol;
}

static void mr_patrol_ev(MRArray *a, MREvCode code, MREvSeverity sev,
                         int target, uint32_t a0, uint32_t a1,
                         const char *fmt, ...) G_GNUC_PRINTF(7, 8);
static void mr_patrol_ev(MRArray *a, MREvCode code, MREvSeverity sev,
                         int target, uint32_t a0, uint32_t a1,
                         const char *fmt, ...)
{
    va_list ap;

    if (!a->evlog) {
        return;
    }
    va_start(ap, fmt);
    mr_evlog_addv(a->evlog, code, sev, target, a0, a1, fmt, ap);
    va_end(ap);
}

static MRDrive *mr_patrol_drive(MRVirtualDisk *vd, uint32_t m)
{
    int pd = vd->member_pd[m];

    return pd >= 0 ? vd->array->pd_drive[pd] : NULL;
}

static bool mr_patrol_member_ok(MRVirtualDisk *vd, uint32_t m)
{
    MRDrive *d = mr_patrol_drive(vd, m);

    return d && d->conf.blk && vd->st[m].status == RAID_MEMBER_ONLINE;
}

typedef struct MRPatrolLockWait {
    Coroutine *co;
    bool granted, waiting;
} MRPatrolLockWait;

static void mr_patrol_granted(void *opaque)
{
    MRPatrolLockWait *w = opaque;

    w->granted = true;
    if (w->waiting) {
        w->waiting = false;
        aio_co_wake(w->co);
    }
}

/* Rewrite member @m's strip of @row from the others.  0 or -errno. */
static int coroutine_fn mr_patrol_repair_row(MRVirtualDisk *vd, uint32_t m,
                                             uint64_t row)
{
    MRPatrolLockWait w = { .co = qemu_coroutine_self() };
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidStripeLock *lk;
    RaidRunResult res;
    RaidPlan *plan;
    bool now;
    int ret;

    if (vd->layout.parity == 0) {
        return -ENOTSUP;
    }
    lk = raid_stripe_lock(vd->locks, row, row, true, mr_patrol_granted, &w,
                          &now);
    while (!now && !w.granted) {
        w.waiting = true;
        qemu_coroutine_yield();
    }
    if (!mr_patrol_member_ok(vd, m)) {
        raid_stripe_unlock(vd->locks, lk);
        return -EIO;
    }
    memcpy(st, vd->st, sizeof(st));
    plan = raid_plan_rebuild_row(&vd->layout, st, row, m);
    ret = plan->error;
    if (!ret) {
        ret = mr_vd_co_run_plan(vd, plan, &res);
    }
    raid_plan_free(plan);
    raid_stripe_unlock(vd->locks, lk);
    return ret;
}

/*
 * A medium error at member sector @bad: repair its row or log it.
 * Returns the sectors from @bad on to go on after (1 when repaired: the
 * rest of the range, if any, is met again; else the bad range up to
 * @end, logged once).
 */
static uint64_t coroutine_fn mr_patrol_medium_error(MRVirtualDisk *vd,
                                                    uint32_t m, uint64_t bad,
                                                    uint64_t end)
{
    MRArray *a = vd->array;
    MRPatrol *p = mr_patrol(a);
    MRDrive *d = mr_patrol_drive(vd, m);
    int slot = d->slot;
    uint32_t off;
    uint64_t row;
    int ret = -EINVAL;
    uint64_t n = 1, dummy;

    if (raid_layout_member_pos(&vd->layout, m, bad, &row, &off)) {
        ret = mr_patrol_repair_row(vd, m, row);
    }
    trace_megaraid_patrol_medium_error(slot, bad, ret);
    if (ret == 0) {
        p->corrected++;
        mr_patrol_ev(a, MR_EV_PD_MEDIUM_REPAIRED, MR_EV_SEV_WARNING, slot,
                     bad, vd->idx, "patrol read: medium error at lba "
                     "%" PRIu64 " corrected from VD %d's redundancy",
                     bad, vd->idx);
        return 1;
    }
    /* (the repair may have yielded: the member's drive as it is now) */
    d = mr_patrol_drive(vd, m);
    while (d && bad + n < end &&
           mr_drive_media_error(d, (bad + n) * RAID_SECTOR_SIZE,
                                RAID_SECTOR_SIZE, &dummy)) {
        n++;
    }
    p->uncorrectable++;
    mr_patrol_ev(a, MR_EV_PD_MEDIUM_ERROR, MR_EV_SEV_CRITICAL, slot, bad,
                 vd->idx, "patrol read: uncorrectable medium error at "
                 "lba %" PRIu64 " (%" PRIu64 " blocks; VD %d%s)",
                 bad, n, vd->idx,
                 ret == -ENOTSUP ? " has no redundancy" : "");
    return n;
}

/* Keep the rate's duty cycle: rest after @work_ns of reading. */
static void coroutine_fn mr_patrol_rest(MRPatrol *p, int64_t work_ns)
{
    unsigned rate = MAX(MIN(p->rate, 100), 1);
    int64_t rest;

    if (rate >= 100 || p->stop) {
        return;
    }
    rest = MIN(work_ns * (100 - rate) / rate, 2 * NANOSECONDS_PER_SECOND);
    if (rest <= 0) {
        return;
    }
    p->sleeping = true;
    qemu_co_sleep_ns_wakeable(&p->sleep, QEMU_CLOCK_REALTIME, rest);
    p->sleeping = false;
}

static void mr_patrol_progress(MRArray *a)
{
    MRPatrol *p = mr_patrol(a);
    unsigned pct = p->total_sectors ?
                   p->done_sectors * 100 / p->total_sectors : 100;

    if (pct / 10 > p->last_pct_logged / 10 && pct < 100) {
        p->last_pct_logged = pct;
        mr_patrol_ev(a, MR_EV_CTRL_PATROL_PROGRESS, MR_EV_SEV_INFO, -1,
                     pct, p->iterations, "patrol read %u%% done", pct);
    }
}

/* Read member @m of @vd; false if stopped or the drive went away. */
static bool coroutine_fn mr_patrol_member(MRVirtualDisk *vd, uint32_t m)
{
    MRArray *a = vd->array;
    MRPatrol *p = mr_patrol(a);
    uint64_t start = vd->layout.member_start[m];
    uint64_t end = start + vd->layout.block_count;
    uint64_t lba = start;

    p->cur_slot = mr_patrol_drive(vd, m)->slot;
    p->cur_done = 0;
    p->cur_total = vd->layout.block_count;
    while (lba < end) {
        uint64_t n = MIN(end - lba, MR_PATROL_CHUNK_SECTORS);
        int64_t t0 = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
        MRDrive *d;
        uint64_t bad;
        int ret;

        if (p->stop || !a->cfg || a->vds[vd->idx] != vd ||
            !mr_patrol_member_ok(vd, m)) {
            return !p->stop;
        }
        d = mr_patrol_drive(vd, m);
        if (mr_drive_media_error(d, lba * RAID_SECTOR_SIZE,
                                 n * RAID_SECTOR_SIZE, &bad)) {
            n = bad - lba + mr_patrol_medium_error(vd, m, bad, end);
            if (vd != a->vds[vd->idx]) {
                return !p->stop;
            }
        } else {
            ret = blk_co_pread(d->conf.blk, lba * RAID_SECTOR_SIZE,
                               n * RAID_SECTOR_SIZE, p->buf, 0);
            if (ret < 0) {
                /* the data path fails the drive when it meets this */
                trace_megaraid_patrol_read_error(d->slot, lba, ret);
                return true;
            }
        }
        lba += n;
        p->cur_done += n;
        p->done_sectors += n;
        mr_patrol_progress(a);
        mr_patrol_rest(p, qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - t0);
    }
    return true;
}

/* The pass has ended: whoever waits for it is told (in that order). */
static void mr_patrol_call_stopped(MRArray *a)
{
    MRPatrol *p = mr_patrol(a);
    GSList *list = g_slist_reverse(p->stopped);

    p->stopped = NULL;
    for (GSList *l = list; l; l = l->next) {
        MRPatrolWaiter *w = l->data;

        w->cb(w->opaque);
    }
    g_slist_free_full(list, g_free);
}

static void coroutine_fn mr_patrol_co(void *opaque)
{
    MRArray *a = opaque;
    MRPatrol *p = mr_patrol(a);

    p->buf = blk_blockalign(NULL, MR_PATROL_CHUNK_SECTORS * RAID_SECTOR_SIZE);
    mr_patrol_ev(a, MR_EV_CTRL_PATROL_STARTED, MR_EV_SEV_INFO, -1, 0,
                 p->iterations, "patrol read started");
    trace_megaraid_patrol_start(p->total_sectors);
    for (int v = 0; v < RAID_MAX_VDS && !p->stop; v++) {
        MRVirtualDisk *vd = a->vds[v];

        if (!vd || !a->cfg || mr_vd_cfg(vd)->state == RAID_VD_OFFLINE) {
            continue;
        }
        for (uint32_t m = 0; m < vd->layout.members && !p->stop; m++) {
            if (vd == a->vds[v] && mr_patrol_member_ok(vd, m) &&
                mr_patrol_member(vd, m) && !p->stop) {
                p->drives_done++;
            }
        }
    }
    p->cur_slot = -1;
    if (p->stop) {
        mr_patrol_ev(a, MR_EV_CTRL_PATROL_STOPPED, MR_EV_SEV_INFO, -1,
                     p->total_sectors ?
                     p->done_sectors * 100 / p->total_sectors : 0,
                     p->iterations, "patrol read stopped");
    } else {
        p->iterations++;
        p->done_sectors = p->total_sectors;
        mr_patrol_arm(a);
        mr_patrol_ev(a, MR_EV_CTRL_PATROL_DONE, MR_EV_SEV_INFO, -1,
                     p->corrected, p->uncorrectable, "patrol read done: "
                     "%u medium errors corrected, %u uncorrectable",
                     p->corrected, p->uncorrectable);
    }
    trace_megaraid_patrol_exit(p->done_sectors, p->stop);
    qemu_vfree(p->buf);
    p->buf = NULL;
    p->co = NULL;
    aio_wait_kick();
    mr_patrol_call_stopped(a);
}

bool mr_patrol_start(MRArray *a, Error **errp)
{
    MRPatrol *p = mr_patrol(a);
    uint64_t total = 0;

    if (p->co) {
        error_setg(errp, "patrol read is already running");
        return false;
    }
    if (p->mode == MR_PATROL_MODE_OFF) {
        error_setg(errp, "patrol read is disabled (mode off)");
        return false;
    }
    if (a->adopting) {
        error_setg(errp, "patrol read: a foreign import is starting the "
                   "cache of its VDs");
        return false;
    }
    if (!a->cfg || a->shut_down) {
        error_setg(errp, "patrol read: the controller has no configuration");
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MRVirtualDisk *vd = a->vds[v];

        if (!vd || mr_vd_cfg(vd)->state == RAID_VD_OFFLINE) {
            continue;
        }
        for (uint32_t m = 0; m < vd->layout.members; m++) {
            if (mr_patrol_member_ok(vd, m)) {
                total += vd->layout.block_count;
            }
        }
    }
    if (!total) {
        error_setg(errp, "patrol read: no configured drive to read");
        return false;
    }
    p->stop = false;
    p->total_sectors = total;
    p->done_sectors = 0;
    p->drives_done = 0;
    p->last_pct_logged = 0;
    p->co = qemu_coroutine_create(mr_patrol_co, a);
    aio_co_enter(qemu_get_aio_context(), p->co);
    return true;
}

void mr_patrol_request_stop(MRArray *a)
{
    MRPatrol *p = a->patrol;

    if (!p) {
        return;
    }
    if (p->timer) {
        timer_del(p->timer);
    }
    if (!p->co || p->stop) {
        return;
    }
    trace_megaraid_patrol_stop_requested(p->done_sectors);
    p->stop = true;
    if (p->sleeping) {
        qemu_co_sleep_wake(&p->sleep);
    }
}

bool mr_patrol_stopping(MRArray *a)
{
    return a->patrol && a->patrol->co && a->patrol->stop;
}

void mr_patrol_when_stopped(MRArray *a, MRPatrolStopped *cb, void *opaque)
{
    MRPatrol *p = mr_patrol(a);
    MRPatrolWaiter *w;

    if (!p->co) {
        cb(opaque);
        return;
    }
    w = g_new0(MRPatrolWaiter, 1);
    w->cb = cb;
    w->opaque = opaque;
    p->stopped = g_slist_prepend(p->stopped, w);
}

void mr_patrol_stop(MRArray *a)
{
    MRPatrol *p = a->patrol;

    mr_patrol_request_stop(a);
    if (!p || !p->co) {
        return;
    }
    if (qemu_in_coroutine()) {
        while (p->co && p->co != qemu_coroutine_self()) {
            qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, SCALE_MS);
        }
        return;
    }
    AIO_WAIT_WHILE(NULL, p->co != NULL);
}

void mr_patrol_status(MRArray *a, MRPatrolStatus *out)
{
    MRPatrol *p = mr_patrol(a);

    memset(out, 0, sizeof(*out));
    out->running = p->co != NULL;
    out->rate = p->rate;
    out->mode = p->mode;
    out->max_drives = p->max_drives;
    out->delay_h = p->delay_h;
    out->drives_done = p->drives_done;
    out->iterations = p->iterations;
    out->done_sectors = p->done_sectors;
    out->total_sectors = p->total_sectors;
    out->percent = p->total_sectors ?
                   p->done_sectors * 100 / p->total_sectors : 0;
    out->cur_slot = p->co ? p->cur_slot : -1;
    out->cur_percent = p->cur_total ? p->cur_done * 100 / p->cur_total : 0;
    out->corrected = p->corrected;
    out->uncorrectable = p->uncorrectable;
}

void mr_patrol_set_rate(MRArray *a, unsigned rate)
{
    mr_patrol(a)->rate = MAX(MIN(rate, 100), 1);
}

/* Mode auto: a pass starts by itself this long after the last one. */
static void mr_patrol_timer_cb(void *opaque)
{
    MRArray *a = opaque;
    Error *err = NULL;

    if (mr_patrol(a)->mode != MR_PATROL_MODE_AUTO) {
        return;
    }
    if (!mr_patrol_start(a, &err)) {
        trace_megaraid_patrol_auto_skipped(error_get_pretty(err));
        error_free(err);
    }
}

static void mr_patrol_arm(MRArray *a)
{
    MRPatrol *p = mr_patrol(a);

    if (p->mode != MR_PATROL_MODE_AUTO || a->shut_down) {
        return;
    }
    if (!p->timer) {
        p->timer = timer_new_ms(QEMU_CLOCK_REALTIME, mr_patrol_timer_cb, a);
    }
    /* a delay of 0: the next pass as soon as this one is done */
    timer_mod(p->timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) +
              (int64_t)p->delay_h * 3600 * 1000 + 1);
}

void mr_patrol_set_mode(MRArray *a, MRPatrolMode mode)
{
    MRPatrol *p = mr_patrol(a);

    p->mode = mode;
    if (mode != MR_PATROL_MODE_AUTO) {
        if (p->timer) {
            timer_del(p->timer);
        }
    } else if (!p->co) {
        mr_patrol_arm(a);
    }
}

void mr_patrol_set_max_drives(MRArray *a, unsigned n)
{
    mr_patrol(a)->max_drives = MAX(MIN(n, 255), 1);
}

void mr_patrol_set_delay(MRArray *a, uint32_t hours)
{
    mr_patrol(a)->delay_h = hours;
}

void mr_patrol_free(MRArray *a)
{
    mr_patrol_stop(a);
    if (a->patrol && a->patrol->timer) {
        timer_free(a->patrol->timer);
    }
    g_free(a->patrol);
    a->patrol = NULL;
}
