/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a VD's I/O on its members' BlockBackends, below the
 * controller cache.
 *
 * A request becomes a RAID-core plan (raid_plan_request) over the VD's
 * current member states; the members the plan saw are bound to it, the
 * plan's rows are locked (shared for reads, exclusive for writes), and the
 * plan runs with an executor whose member reads and writes are blk_aio
 * requests, all of a phase in flight at once.  A plan whose members
 * changed while it waited or ran is stale: it is planned again, no drive
 * blamed.  A member that fails an I/O is reported upwards
 * (MRArrayHooks.member.failed: array.c fails the drive) and the request is
 * planned again around it, so the guest sees no error while the VD has
 * redundancy left.  An injected media error on a
 * read only makes that request read around the member, as firmware
 * recovers a read.
 *
 * The cache (array-cache*.c), an unmap from array-vd.c and the background
 * jobs (array-jobs.c, mr_vd_co_run_plan: plans made under their own row
 * locks) call in here; array.c drains it.  The lowest layer of the
 * array: it calls no other array file.
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "block/aio-wait.h"
#include "system/block-backend.h"
#include "member.h"
#include "trace.h"

/* Plans made again for a request whose members changed under it, at most */
#define MR_VD_MAX_STALE 16

/* One plan run: the executor's opaque. */
typedef struct MRVdRun {
    MRVirtualDisk *vd;
    QEMUIOVector *qiov;         /* request data, NULL for job plans */
    Coroutine *co;
    bool waiting;
    bool done;
    bool granted;
    RaidRunResult res;
    uint32_t media_member;      /* member whose read hit a media error */
    /*
     * The drive each member's I/O went to: a hot spare may take a failed
     * member's index while other requests' I/O to the old drive is still
     * in flight, and their errors are that drive's, not the spare's.
     */
    MRDrive *issued[RAID_MAX_MEMBERS];
    /*
     * The members as the plan saw them (mr_run_bind): a state change does
     * not wait for the row locks (a drive fails, a spare takes its
     * member), so a plan that waited for its rows, or is part way, may
     * meet a member that another drive, or another state, stands behind
     * now.  Its I/O there fails as stale (no drive is blamed) and the
     * request is planned again.
     */
    bool bound;
    bool stale;
    MRDrive *planned[RAID_MAX_MEMBERS];
    RaidMemberState planned_st[RAID_MAX_MEMBERS];
    /* copyback: the target failed a write this run gave it too */
    MRDrive *copy_failed;
} MRVdRun;

typedef struct MRMemberIO {
    QEMUIOVector qiov;
    RaidIOComplete *cb;
    void *ctx;
    MRDrive *d;
    uint64_t offset;
    uint64_t bytes;
    bool write;
} MRMemberIO;

static MRDrive *mr_member_drive(MRVirtualDisk *vd, uint32_t member)
{
    int pd = member < RAID_MAX_MEMBERS ? vd->member_pd[member] : -1;

    return pd >= 0 ? vd->array->pd_drive[pd] : NULL;
}

static void mr_member_io_done(void *opaque, int ret)
{
    MRMemberIO *io = opaque;

    if (ret < 0) {
        trace_megaraid_array_member_error(io->d->slot, io->write, io->offset,
                                          ret);
    } else if (io->write) {
        mr_drive_media_rewritten(io->d, io->offset, io->bytes);
    }
    qemu_iovec_destroy(&io->qiov);
    io->cb(io->ctx, ret);
    g_free(io);
}

/* Remember the members as they are now, for the plan made from them. */
static void mr_run_bind(MRVdRun *run)
{
    MRVirtualDisk *vd = run->vd;

    for (uint32_t m = 0; m < vd->layout.members; m++) {
        run->planned[m] = mr_member_drive(vd, m);
        run->planned_st[m] = vd->st[m];
    }
    run->bound = true;
    run->stale = false;
}

/* Is @member no longer what the plan saw (drive, state, rebuilt part)? */
static bool mr_run_member_changed(MRVdRun *run, uint32_t member)
{
    const RaidMemberState *now = &run->vd->st[member];

    return mr_member_drive(run->vd, member) != run->planned[member] ||
           now->status != run->planned_st[member].status ||
           now->rebuilt < run->planned_st[member].rebuilt;
}

static bool mr_run_changed(MRVdRun *run)
{
    for (uint32_t m = 0; m < run->vd->layout.members; m++) {
        if (mr_run_member_changed(run, m)) {
            return true;
        }
    }
    return false;
}

/*
 * The drive for @member's next I/O, remembered as where it went; NULL
 * (the I/O fails) when the member changed since the plan was made.
 */
static MRDrive *mr_run_member_drive(MRVdRun *run, uint32_t member)
{
    MRDrive *d = mr_member_drive(run->vd, member);

    if (member < RAID_MAX_MEMBERS) {
        if (run->bound && member < run->vd->layout.members &&
            mr_run_member_changed(run, member)) {
            trace_megaraid_array_member_stale(run->vd->idx, member);
            run->stale = true;
            return NULL;
        }
        run->issued[member] = d;
    }
    return d;
}

/* The drive that failed @run's I/O of @member. */
static MRDrive *mr_run_failed_drive(MRVdRun *run, uint32_t member)
{
    if (member < RAID_MAX_MEMBERS && run->issued[member]) {
        return run->issued[member];
    }
    return mr_member_drive(run->vd, member);
}

/*
 * ---- copyback ----
 * While a member is copied onto a new drive (vd->copy_on), what the data
 * path writes to that member (writes, unmaps, flushes) goes to the new
 * drive too, whatever the row: rows already copied stay current, rows
 * not yet copied are copied later under the job's row lock.  The
 * member's result is the request's; a failure of the new drive ends the
 * copyback (reported after the run: MRVdRun.copy_failed).
 */
typedef struct MRMirrorIO {
    RaidIOComplete *cb;
    void *ctx;
    MRVdRun *run;
    MRDrive *t;
    int pending;
    int ret;
} MRMirrorIO;

/* The drive @member is being copied onto, or NULL. */
static MRDrive *mr_copy_target(MRVdRun *run, uint32_t member)
{
    MRVirtualDisk *vd = run->vd;
    MRDrive *t;

    if (!vd->copy_on || member != vd->copy_member) {
        return NULL;
    }
    t = mr_member_drive(vd, vd->layout.members);
    return t && t->conf.blk ? t : NULL;
}

static void mr_mirror_put(MRMirrorIO *mi)
{
    if (--mi->pending == 0) {
        mi->cb(mi->ctx, mi->ret);
        g_free(mi);
    }
}

static void mr_mirror_member_done(void *opaque, int ret)
{
    MRMirrorIO *mi = opaque;

    mi->ret = ret;
    mr_mirror_put(mi);
}

static void mr_mirror_copy_done(void *opaque, int ret)
{
    MRMirrorIO *mi = opaque;

    if (ret < 0) {
        trace_megaraid_array_copy_mirror_error(mi->run->vd->idx,
                                               mi->t->slot, ret);
        mi->run->copy_failed = mi->t;
    }
    mr_mirror_put(mi);
}

/* Both completions of a mirrored I/O, the member's result to @cb. */
static MRMirrorIO *mr_mirror_new(MRVdRun *run, MRDrive *t,
                                 RaidIOComplete *cb, void *ctx)
{
    MRMirrorIO *mi = g_new0(MRMirrorIO, 1);

    mi->cb = cb;
    mi->ctx = ctx;
    mi->run = run;
    mi->t = t;
    mi->pending = 2;
    return mi;
}

static void mr_member_issue(MRVdRun *run, MRDrive *d, bool write,
                            uint64_t lba, uint32_t sectors, RaidIOBuf buf,
                            RaidIOComplete *cb, void *ctx)
{
    uint64_t bytes = (uint64_t)sectors * RAID_SECTOR_SIZE;
    MRMemberIO *io;

    io = g_new0(MRMemberIO, 1);
    io->cb = cb;
    io->ctx = ctx;
    io->d = d;
    io->write = write;
    io->offset = lba * RAID_SECTOR_SIZE;
    io->bytes = bytes;
    qemu_iovec_init(&io->qiov, 1);
    if (buf.ptr) {
        qemu_iovec_add(&io->qiov, buf.ptr, bytes);
    } else {
        qemu_iovec_concat(&io->qiov, run->qiov, buf.host_off, bytes);
    }
    if (write) {
        blk_aio_pwritev(d->conf.blk, io->offset, &io->qiov, 0,
                        mr_member_io_done, io);
    } else {
        blk_aio_preadv(d->conf.blk, io->offset, &io->qiov, 0,
                       mr_member_io_done, io);
    }
}

static void mr_member_rw(MRVdRun *run, bool write, uint32_t member,
                         uint64_t lba, uint32_t sectors, RaidIOBuf buf,
                         RaidIOComplete *cb, void *ctx)
{
    MRDrive *d = mr_run_member_drive(run, member);
    uint64_t bytes = (uint64_t)sectors * RAID_SECTOR_SIZE;
    MRDrive *t;
    uint64_t bad;

    if (!d || !d->conf.blk) {
        cb(ctx, -EIO);
        return;
    }
    if (!write && mr_drive_media_error(d, lba * RAID_SECTOR_SIZE, bytes,
                                       &bad)) {
        run->media_member = member;
        cb(ctx, -EIO);
        return;
    }
    t = write ? mr_copy_target(run, member) : NULL;
    if (t) {
        MRMirrorIO *mi = mr_mirror_new(run, t, cb, ctx);

        mr_member_issue(run, d, true, lba, sectors, buf,
                        mr_mirror_member_done, mi);
        mr_member_issue(run, t, true, lba, sectors, buf,
                        mr_mirror_copy_done, mi);
        return;
    }
    mr_member_issue(run, d, write, lba, sectors, buf, cb, ctx);
}

static void mr_exec_read(void *opaque, uint32_t member, uint64_t lba,
                         uint32_t sectors, RaidIOBuf buf,
                         RaidIOComplete *cb, void *ctx)
{
    mr_member_rw(opaque, false, member, lba, sectors, buf, cb, ctx);
}

static void mr_exec_write(void *opaque, uint32_t member, uint64_t lba,
                          uint32_t sectors, RaidIOBuf buf,
                          RaidIOComplete *cb, void *ctx)
{
    mr_member_rw(opaque, true, member, lba, sectors, buf, cb, ctx);
}

static void mr_exec_flush(void *opaque, uint32_t member,
                          RaidIOComplete *cb, void *ctx)
{
    MRVdRun *run = opaque;
    MRDrive *d = mr_run_member_drive(run, member);

    MRDrive *t = mr_copy_target(run, member);

    if (!d || !d->conf.blk) {
        cb(ctx, -EIO);
        return;
    }
    if (t) {
        MRMirrorIO *mi = mr_mirror_new(run, t, cb, ctx);

        blk_aio_flush(d->conf.blk, mr_mirror_member_done, mi);
        blk_aio_flush(t->conf.blk, mr_mirror_copy_done, mi);
        return;
    }
    blk_aio_flush(d->conf.blk, cb, ctx);
}

static void mr_exec_discard(void *opaque, uint32_t member, uint64_t lba,
                            uint32_t sectors, RaidIOComplete *cb, void *ctx)
{
    MRVdRun *run = opaque;
    MRDrive *d = mr_run_member_drive(run, member);
    MRDrive *t;

    if (!d || !d->conf.blk) {
        cb(ctx, -EIO);
        return;
    }
    mr_drive_media_rewritten(d, lba * RAID_SECTOR_SIZE,
                             (uint64_t)sectors * RAID_SECTOR_SIZE);
    t = mr_copy_target(run, member);
    if (t) {
        MRMirrorIO *mi = mr_mirror_new(run, t, cb, ctx);

        mr_drive_media_rewritten(t, lba * RAID_SECTOR_SIZE,
                                 (uint64_t)sectors * RAID_SECTOR_SIZE);
        blk_aio_pwrite_zeroes(d->conf.blk, lba * RAID_SECTOR_SIZE,
                              (int64_t)sectors * RAID_SECTOR_SIZE,
                              BDRV_REQ_MAY_UNMAP, mr_mirror_member_done, mi);
        blk_aio_pwrite_zeroes(t->conf.blk, lba * RAID_SECTOR_SIZE,
                              (int64_t)sectors * RAID_SECTOR_SIZE,
                              BDRV_REQ_MAY_UNMAP, mr_mirror_copy_done, mi);
        return;
    }
    blk_aio_pwrite_zeroes(d->conf.blk, lba * RAID_SECTOR_SIZE,
                          (int64_t)sectors * RAID_SECTOR_SIZE,
                          BDRV_REQ_MAY_UNMAP, cb, ctx);
}

static void mr_exec_copy_from_host(void *opaque, uint64_t off, void *dst,
                                   size_t len)
{
    MRVdRun *run = opaque;

    qemu_iovec_to_buf(run->qiov, off, dst, len);
}

static void mr_exec_copy_to_host(void *opaque, uint64_t off, const void *src,
                                 size_t len)
{
    MRVdRun *run = opaque;

    qemu_iovec_from_buf(run->qiov, off, src, len);
}

static void *mr_exec_buf_alloc(void *opaque, size_t len)
{
    MRVdRun *run = opaque;

    return raid_buf_pool_get(run->vd->array->pool, len);
}

static void mr_exec_buf_free(void *opaque, void *buf, size_t len)
{
    MRVdRun *run = opaque;

    raid_buf_pool_put(run->vd->array->pool, buf, len);
}

static const RaidExecOps mr_exec_ops = {
    .read = mr_exec_read,
    .write = mr_exec_write,
    .flush = mr_exec_flush,
    .discard = mr_exec_discard,
    .copy_from_host = mr_exec_copy_from_host,
    .copy_to_host = mr_exec_copy_to_host,
    .buf_alloc = mr_exec_buf_alloc,
    .buf_free = mr_exec_buf_free,
};

static void mr_run_done(void *opaque, const RaidRunResult *res)
{
    MRVdRun *run = opaque;

    run->res = *res;
    run->done = true;
    if (run->waiting) {
        run->waiting = false;
        aio_co_wake(run->co);
    }
}

/* The drive being copied onto failed a write the run mirrored to it. */
static void mr_run_copy_failed(MRVdRun *run)
{
    if (run->copy_failed) {
        run->vd->array->hooks->member.failed(run->vd->array,
                                             run->copy_failed, "I/O error");
        run->copy_failed = NULL;
    }
}

static int coroutine_fn mr_run(MRVdRun *run, const RaidPlan *plan)
{
    run->co = qemu_coroutine_self();
    run->done = false;
    run->media_member = UINT32_MAX;
    run->copy_failed = NULL;
    memset(run->issued, 0, sizeof(run->issued));
    raid_run_start(plan, run->vd->array->impl, &mr_exec_ops, run,
                   mr_run_done, run);
    while (!run->done) {
        run->waiting = true;
        qemu_coroutine_yield();
    }
    return run->res.ret;
}

static void mr_lock_granted(void *opaque)
{
    MRVdRun *run = opaque;

    run->granted = true;
    if (run->waiting) {
        run->waiting = false;
        aio_co_wake(run->co);
    }
}

static RaidStripeLock *coroutine_fn mr_lock_rows(MRVdRun *run,
                                                 const RaidPlan *plan)
{
    RaidStripeLock *lock;
    bool now;

    run->co = qemu_coroutine_self();
    run->granted = false;
    lock = raid_stripe_lock(run->vd->locks, plan->first_row, plan->last_row,
                            plan->exclusive, mr_lock_granted, run, &now);
    while (!now && !run->granted) {
        run->waiting = true;
        qemu_coroutine_yield();
    }
    return lock;
}

int coroutine_fn mr_vd_co_run_plan(MRVirtualDisk *vd, const RaidPlan *plan,
                                   RaidRunResult *res)
{
    MRVdRun run = { .vd = vd };
    int ret;

    vd->in_flight++;
    /*
     * (the caller planned under its row locks, without yielding since.
     * A job's writes leave in-sync missing members in sync: a rebuild and
     * patrol read's repair write what the members hold already, and a
     * check or an initialization runs on optimal VDs only.)
     */
    mr_run_bind(&run);
    ret = mr_run(&run, plan);
    *res = run.res;
    mr_run_copy_failed(&run);
    if (ret < 0 && run.res.failed_member != UINT32_MAX && !run.stale) {
        MRDrive *d = mr_run_failed_drive(&run, run.res.failed_member);

        if (d && run.media_member != run.res.failed_member) {
            vd->array->hooks->member.failed(vd->array, d, "I/O error");
        }
    }
    vd->in_flight--;
    aio_wait_kick();
    return ret;
}

/*
 * A write around changed members is acknowledged only once the metadata
 * that records the change is on the drives (array.c's writer ends the
 * pass): a crash never leaves acknowledged data beside metadata that
 * still names a failed member online.
 */
static void coroutine_fn mr_vd_meta_barrier(MRVirtualDisk *vd, RaidOp op)
{
    MRArray *a = vd->array;

    if (op == RAID_OP_READ || a->meta_done >= vd->meta_barrier) {
        return;
    }
    trace_megaraid_array_meta_barrier(vd->idx, vd->meta_barrier);
    while (a->meta_done < vd->meta_barrier) {
        qemu_co_queue_wait(&a->meta_waiters, NULL);
    }
}

/*
 * A write to a VD whose missing members are still in sync makes them
 * stale first, and waits until the drives say so: only then may it reach
 * a member (a start with them back must not take them online).
 */
static void coroutine_fn mr_vd_write_starts(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;

    if (vd->in_sync_missing && a->hooks->member.write_starts) {
        a->hooks->member.write_starts(vd);
    }
    while (a->meta_done < vd->write_barrier) {
        qemu_co_queue_wait(&a->meta_waiters, NULL);
    }
}

int coroutine_fn mr_vd_co_io(MRVirtualDisk *vd, RaidOp op, uint64_t lba,
                             uint64_t sectors, QEMUIOVector *qiov)
{
    RaidRequest rq = { .op = op, .lba = lba, .sectors = sectors };
    RaidMemberState st[RAID_MAX_MEMBERS];
    uint32_t skip[RAID_MAX_MEMBERS];
    uint32_t nskip = 0;
    MRVdRun run = { .vd = vd, .qiov = qiov };
    unsigned stale = 0;
    int ret;

    trace_megaraid_array_io(vd->idx, op, lba, sectors);
    if (mr_vd_cfg(vd)->state == RAID_VD_OFFLINE) {
        /* an offline VD takes no I/O, even where its rows survive */
        trace_megaraid_array_io_error(vd->idx, op, lba, -EIO);
        return -EIO;
    }
    vd->in_flight++;
    if (op == RAID_OP_WRITE || op == RAID_OP_UNMAP) {
        mr_vd_write_starts(vd);
    }
    for (uint32_t attempt = 0; ; attempt++) {
        RaidPlan *plan;
        RaidStripeLock *lock = NULL;

        memcpy(st, vd->st, sizeof(st));
        for (uint32_t i = 0; i < nskip; i++) {
            st[skip[i]].status = RAID_MEMBER_MISSING;
        }
        mr_run_bind(&run);
        plan = raid_plan_request(&vd->layout, st, &rq, RAID_WRITE_AUTO);
        if (plan->error) {
            ret = plan->error;
            raid_plan_free(plan);
            trace_megaraid_array_io_error(vd->idx, op, lba, ret);
            break;
        }
        if (plan->has_rows) {
            lock = mr_lock_rows(&run, plan);
        }
        if (lock && mr_run_changed(&run)) {
            /* the members changed while the rows were awaited */
            ret = -EIO;
            run.stale = true;
        } else {
            ret = mr_run(&run, plan);
            mr_run_copy_failed(&run);
        }
        if (lock) {
            raid_stripe_unlock(vd->locks, lock);
        }
        raid_plan_free(plan);
        if (ret == 0) {
            break;
        }
        if (run.stale) {
            /* planned on members that changed since: plan it again */
            if (++stale > MR_VD_MAX_STALE) {
                trace_megaraid_array_io_error(vd->idx, op, lba, ret);
                break;
            }
            continue;
        }
        if (run.res.failed_member == UINT32_MAX ||
            attempt - stale > vd->layout.members) {
            trace_megaraid_array_io_error(vd->idx, op, lba, ret);
            break;
        }
        if (run.media_member == run.res.failed_member && op == RAID_OP_READ &&
            nskip < RAID_MAX_MEMBERS) {
            /* recover this read from the other members */
            skip[nskip++] = run.media_member;
            trace_megaraid_array_media_recover(vd->idx, run.media_member, lba);
        } else {
            MRDrive *d = mr_run_failed_drive(&run, run.res.failed_member);

            if (d) {
                vd->array->hooks->member.failed(vd->array, d, "I/O error");
            }
            if (vd->st[run.res.failed_member].status != RAID_MEMBER_MISSING &&
                mr_member_drive(vd, run.res.failed_member) == d) {
                /*
                 * could not be failed (e.g. last copy): report the error;
                 * a member a spare has replaced since is planned again
                 */
                break;
            }
        }
    }
    mr_vd_meta_barrier(vd, op);
    vd->in_flight--;
    aio_wait_kick();
    return ret;
}

void mr_vd_drain(MRVirtualDisk *vd)
{
    AIO_WAIT_WHILE_UNLOCKED(NULL, vd->in_flight > 0);
}
