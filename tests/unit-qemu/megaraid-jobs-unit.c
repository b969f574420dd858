/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: unit tests of the array's background jobs (array-jobs.c)
 * in QEMU's main loop, without a controller: the VD's members are memory
 * buffers whose I/O completes from bottom halves, and this file stands in
 * for array.c (the hooks the jobs call: refresh, store, events) and
 * array-member.c (running plans, guest I/O under stripe locks).  Rebuild
 * alongside guest writes, stop and resume, background initialization,
 * the rate, and the errors of mr_jobs_start; and the rebuild's multi-row
 * plans (raid_plan_rebuild_rows) against the data they must restore.
 */

#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "block/aio.h"
#include "system/runstate.h"
#include "system/reset.h"
#include "hw/megaraid/array/array.h"

#define NPD         6
#define PD_SECTORS  (16 * MiB / 512)

typedef struct TestArray {
    MRArray a;
    uint8_t *pd_data[NPD];
    bool io_error[NPD];         /* every I/O of the drive fails */
    unsigned refreshes, stores;
    RaidJobCursor stored;       /* cursor of the last store */
} TestArray;

static TestArray *ta;

/* ---- stand-ins for the system emulator ---- */

static Notifier *shutdown_notifier;
static QEMUResetHandler *reset_handler;

void qemu_register_shutdown_notifier(Notifier *notifier)
{
    g_assert_null(shutdown_notifier);
    shutdown_notifier = notifier;
}

void qemu_register_reset(QEMUResetHandler *func, void *opaque)
{
    g_assert_null(reset_handler);
    reset_handler = func;
}

/* ---- stand-ins for array.c ---- */

static void vd_sync(MRVirtualDisk *vd)
{
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(vd->array->cfg, vd->idx, pds, RAID_MAX_MEMBERS);

    raid_config_vd_member_states(vd->array->cfg, vd->idx, vd->st);
    for (int m = 0; m < n; m++) {
        vd->member_pd[m] = pds[m];
    }
}

void mr_array_refresh(MRArray *a)
{
    raid_config_update_states(a->cfg);
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        if (a->vds[i]) {
            vd_sync(a->vds[i]);
        }
    }
    ta->refreshes++;
}

bool mr_array_store(MRArray *a, Error **errp)
{
    ta->stores++;
    ta->stored = a->cfg->vds[0].job;
    return true;
}

/* No event log here. */
static void test_job_event(MRVirtualDisk *vd, MREvCode code,
                           RaidJobKind kind, uint64_t arg)
{
}

static void test_job_progress(MRVirtualDisk *vd)
{
}

/* array-timing.c costs host writes by the write policy: none here. */
static MRWritePolicy test_write_policy(MRVirtualDisk *vd)
{
    return MR_WP_WRITE_THROUGH;
}

/* ... and reads by whether the cache holds dirty lines: no cache here. */
static bool test_vd_dirty(MRVirtualDisk *vd)
{
    return false;
}

/* What the jobs and the timing model report to array.c (array-types.h). */
static const MRArrayHooks test_hooks = {
    .jobs.config_changed = mr_array_refresh,
    .jobs.store = mr_array_store,
    .jobs.event = test_job_event,
    .jobs.progress = test_job_progress,
    .timing.write_policy = test_write_policy,
    .timing.vd_dirty = test_vd_dirty,
    .timing.job_stats = mr_jobs_stats,
};

/* ---- members in memory, completing from bottom halves ---- */

typedef struct MemIO {
    RaidIOComplete *cb;
    void *ctx;
    int ret;
} MemIO;

typedef struct MemExec {
    MRVirtualDisk *vd;
    uint8_t *host;
} MemExec;

static void mem_io_bh(void *opaque)
{
    MemIO *io = opaque;

    io->cb(io->ctx, io->ret);
    g_free(io);
}

static void mem_complete(RaidIOComplete *cb, void *ctx, int ret)
{
    MemIO *io = g_new(MemIO, 1);

    io->cb = cb;
    io->ctx = ctx;
    io->ret = ret;
    aio_bh_schedule_oneshot(qemu_get_aio_context(), mem_io_bh, io);
}

static uint8_t *mem_member(MemExec *x, uint32_t m, uint64_t lba,
                           uint32_t sectors)
{
    int pd = x->vd->member_pd[m];

    g_assert_cmpint(pd, >=, 0);
    g_assert_cmpuint(lba + sectors, <=, PD_SECTORS);
    if (!ta->a.cfg->pds[pd].present || ta->io_error[pd]) {
        return NULL;
    }
    return ta->pd_data[pd] + lba * 512;
}

static uint8_t *mem_buf(MemExec *x, RaidIOBuf buf)
{
    return buf.ptr ? buf.ptr : x->host + buf.host_off;
}

static void mem_read(void *opaque, uint32_t member, uint64_t lba,
                     uint32_t sectors, RaidIOBuf buf, RaidIOComplete *cb,
                     void *ctx)
{
    uint8_t *p = mem_member(opaque, member, lba, sectors);

    if (p) {
        memcpy(mem_buf(opaque, buf), p, sectors * 512);
    }
    mem_complete(cb, ctx, p ? 0 : -EIO);
}

static void mem_write(void *opaque, uint32_t member, uint64_t lba,
                      uint32_t sectors, RaidIOBuf buf, RaidIOComplete *cb,
                      void *ctx)
{
    uint8_t *p = mem_member(opaque, member, lba, sectors);

    if (p) {
        memcpy(p, mem_buf(opaque, buf), sectors * 512);
    }
    mem_complete(cb, ctx, p ? 0 : -EIO);
}

static void mem_flush(void *opaque, uint32_t member, RaidIOComplete *cb,
                      void *ctx)
{
    mem_complete(cb, ctx, 0);
}

static void mem_discard(void *opaque, uint32_t member, uint64_t lba,
                        uint32_t sectors, RaidIOComplete *cb, void *ctx)
{
    uint8_t *p = mem_member(opaque, member, lba, sectors);

    if (p) {
        memset(p, 0, sectors * 512);
    }
    mem_complete(cb, ctx, p ? 0 : -EIO);
}

static void mem_from_host(void *opaque, uint64_t off, void *dst, size_t len)
{
    memcpy(dst, ((MemExec *)opaque)->host + off, len);
}

static void mem_to_host(void *opaque, uint64_t off, const void *src,
                        size_t len)
{
    memcpy(((MemExec *)opaque)->host + off, src, len);
}

static const RaidExecOps mem_ops = {
    .read = mem_read,
    .write = mem_write,
    .flush = mem_flush,
    .discard = mem_discard,
    .copy_from_host = mem_from_host,
    .copy_to_host = mem_to_host,
};

typedef struct RunWait {
    Coroutine *co;
    bool waiting, done;
    RaidRunResult res;
} RunWait;

static void run_done(void *opaque, const RaidRunResult *res)
{
    RunWait *w = opaque;

    w->res = *res;
    w->done = true;
    if (w->waiting) {
        aio_co_wake(w->co);
    }
}

static int coroutine_fn run_plan(MRVirtualDisk *vd, const RaidPlan *plan,
                                 uint8_t *host, RaidRunResult *res)
{
    MemExec x = { .vd = vd, .host = host };
    RunWait w = { .co = qemu_coroutine_self() };

    raid_run_start(plan, RAID_PARITY_ISAL, &mem_ops, &x, run_done, &w);
    while (!w.done) {
        w.waiting = true;
        qemu_coroutine_yield();
        w.waiting = false;
    }
    *res = w.res;
    return res->ret;
}

/* ---- stand-in for array-member.c ---- */

int coroutine_fn mr_vd_co_run_plan(MRVirtualDisk *vd, const RaidPlan *plan,
                                   RaidRunResult *res)
{
    int ret = run_plan(vd, plan, NULL, res);

    if (ret < 0 && res->failed_member != UINT32_MAX) {
        raid_config_fail_pd(vd->array->cfg,
                            vd->member_pd[res->failed_member], NULL);
        mr_array_refresh(vd->array);
    }
    return ret;
}

typedef struct LockWait {
    Coroutine *co;
} LockWait;

static void lock_granted(void *opaque)
{
    aio_co_wake(((LockWait *)opaque)->co);
}

/* Guest I/O as the data path does it: plan, row lock, run. */
static int coroutine_fn guest_io(MRVirtualDisk *vd, RaidOp op, uint64_t lba,
                                 uint64_t sectors, uint8_t *buf)
{
    RaidRequest req = { .op = op, .lba = lba, .sectors = sectors };
    RaidPlan *plan = raid_plan_request(&vd->layout, vd->st, &req,
                                       RAID_WRITE_AUTO);
    LockWait lw = { .co = qemu_coroutine_self() };
    RaidStripeLock *lk;
    RaidRunResult res;
    bool now;
    int ret = plan->error;

    if (!ret) {
        lk = raid_stripe_lock(vd->locks, plan->first_row, plan->last_row,
                              plan->exclusive, lock_granted, &lw, &now);
        if (!now) {
            qemu_coroutine_yield();
        }
        ret = run_plan(vd, plan, buf, &res);
        raid_stripe_unlock(vd->locks, lk);
    }
    raid_plan_free(plan);
    return ret;
}

/* ---- fixtures ---- */

static MRVirtualDisk *test_setup(RaidLevel level, int members, int spans)
{
    RaidConfig *cfg = raid_config_new((const uint8_t *)
                                      "LSI     MRJOBS0000000001");
    RaidVdSpec spec = { .level = level, .nspans = spans, .strip = 128,
                        .name = "jobs" };
    MRVirtualDisk *vd = g_new0(MRVirtualDisk, 1);
    int pds[NPD];

    ta = g_new0(TestArray, 1);
    ta->a.hooks = &test_hooks;
    ta->a.cfg = cfg;
    ta->a.rebuild_rate = 100;
    ta->a.cc_rate = 100;
    ta->a.init_rate = 100;
    for (int i = 0; i < NPD; i++) {
        uint8_t g[RAID_GUID_LEN];

        memcpy(g, "LSI     JOBSPD  ........", RAID_GUID_LEN);
        g[23] = i;
        /* 1 MiB of metadata reserve on top of the data area */
        pds[i] = raid_config_add_pd(cfg, g, i, PD_SECTORS + 2048, NULL);
        g_assert_cmpint(pds[i], ==, i);
        ta->pd_data[i] = g_malloc0(PD_SECTORS * 512);
    }
    g_assert_cmpint(raid_config_create_vd(cfg, pds, members, &spec, NULL),
                    ==, 0);
    for (int i = members; i < NPD; i++) {
        g_assert_true(raid_config_add_spare(cfg, i, -1, NULL));
    }
    vd->array = &ta->a;
    vd->idx = 0;
    g_assert_true(raid_config_vd_layout(cfg, 0, &vd->layout, NULL));
    g_assert_cmpuint(vd->layout.block_count * 512, <=, PD_SECTORS * 512);
    vd->locks = raid_stripe_locks_new();
    ta->a.vds[0] = vd;
    vd_sync(vd);
    return vd;
}

static void test_teardown(MRVirtualDisk *vd)
{
    mr_jobs_stop(vd);
    g_assert_null(vd->job_co);
    g_assert_cmpuint(raid_stripe_locks_count(vd->locks), ==, 0);
    raid_stripe_locks_free(vd->locks);
    raid_config_free(ta->a.cfg);
    for (int i = 0; i < NPD; i++) {
        g_free(ta->pd_data[i]);
    }
    g_free(vd);
    g_free(ta);
    ta = NULL;
}

typedef struct IOJob {
    MRVirtualDisk *vd;
    RaidOp op;
    uint64_t lba, sectors;
    uint8_t *buf;
    int ret;
    bool done;
} IOJob;

static void coroutine_fn io_job_entry(void *opaque)
{
    IOJob *j = opaque;

    j->ret = guest_io(j->vd, j->op, j->lba, j->sectors, j->buf);
    j->done = true;
}

/* Whole-VD guest I/O, waited for in the main loop. */
static void vd_rw(MRVirtualDisk *vd, RaidOp op, uint8_t *buf)
{
    IOJob j = { .vd = vd, .op = op, .lba = 0,
                .sectors = vd->layout.vd_sectors, .buf = buf };

    aio_co_enter(qemu_get_aio_context(),
                 qemu_coroutine_create(io_job_entry, &j));
    while (!j.done) {
        aio_poll(qemu_get_aio_context(), true);
    }
    g_assert_cmpint(j.ret, ==, 0);
}

static uint8_t *fill_random(MRVirtualDisk *vd, GRand *rnd)
{
    uint64_t bytes = vd->layout.vd_sectors * 512;
    uint8_t *ref = g_malloc(bytes);

    for (uint64_t i = 0; i < bytes / 4; i++) {
        ((uint32_t *)ref)[i] = g_rand_int(rnd);
    }
    vd_rw(vd, RAID_OP_WRITE, ref);
    return ref;
}

static void assert_vd_equals(MRVirtualDisk *vd, const uint8_t *ref)
{
    uint64_t bytes = vd->layout.vd_sectors * 512;
    g_autofree uint8_t *got = g_malloc(bytes);

    vd_rw(vd, RAID_OP_READ, got);
    g_assert_true(memcmp(got, ref, bytes) == 0);
}

static void wait_job(MRVirtualDisk *vd)
{
    while (vd->job_co) {
        aio_poll(qemu_get_aio_context(), true);
    }
}

static void fail_member(MRVirtualDisk *vd, int m)
{
    g_assert_true(raid_config_fail_pd(ta->a.cfg, vd->member_pd[m], NULL));
    mr_array_refresh(&ta->a);
}

/* Fail member @m and put the first spare in its place. */
static int replace_member(MRVirtualDisk *vd, int m)
{
    int old = vd->member_pd[m];
    int spare = raid_config_pick_spare(ta->a.cfg, ta->a.cfg->vds[0].dg);

    g_assert_cmpint(spare, >=, 0);
    fail_member(vd, m);
    g_assert_true(raid_config_replace_pd(ta->a.cfg, old, spare, NULL));
    mr_array_refresh(&ta->a);
    g_assert_cmpint(ta->a.cfg->vds[0].job.kind, ==, RAID_JOB_REBUILD);
    return spare;
}

/* ---- tests ---- */

typedef struct Writer {
    MRVirtualDisk *vd;
    uint8_t *ref;
    GRand *rnd;
    unsigned writes;
    bool done;
} Writer;

/* Random writes (and read-backs) until the rebuild has finished. */
static void coroutine_fn writer_entry(void *opaque)
{
    Writer *w = opaque;
    MRVirtualDisk *vd = w->vd;
    g_autofree uint8_t *buf = g_malloc(64 * 512);

    while (vd->job_co || w->writes < 16) {
        uint64_t sectors = g_rand_int_range(w->rnd, 1, 64);
        uint64_t lba = g_rand_int_range(w->rnd, 0,
                                        vd->layout.vd_sectors - sectors);

        for (uint64_t i = 0; i < sectors * 512; i++) {
            buf[i] = g_rand_int(w->rnd);
        }
        g_assert_cmpint(guest_io(vd, RAID_OP_WRITE, lba, sectors, buf),
                        ==, 0);
        memcpy(w->ref + lba * 512, buf, sectors * 512);
        g_assert_cmpint(guest_io(vd, RAID_OP_READ, lba, sectors, buf),
                        ==, 0);
        g_assert_true(memcmp(buf, w->ref + lba * 512, sectors * 512) == 0);
        w->writes++;
    }
    w->done = true;
}

/*
 * Rebuild onto a spare while two writers write and read back; then the
 * rebuilt member must be right: lose another member and read.
 */
static void test_rebuild_with_io(gconstpointer data)
{
    RaidLevel level = GPOINTER_TO_INT(data);
    int members = level == RAID_LEVEL_6 ? 5 : level == RAID_LEVEL_1 ? 2 : 4;
    MRVirtualDisk *vd = test_setup(level, members, 0);
    GRand *rnd = g_rand_new_with_seed(11);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    Writer w[2];
    int spare;
    MRJobStats st;

    ta->a.rebuild_rate = 60;
    spare = replace_member(vd, 1);
    mr_jobs_kick(vd);
    g_assert_nonnull(vd->job_co);
    mr_jobs_kick(vd);               /* a second kick is harmless */
    for (int i = 0; i < 2; i++) {
        w[i] = (Writer) { .vd = vd, .ref = ref, .rnd = rnd };
        aio_co_enter(qemu_get_aio_context(),
                     qemu_coroutine_create(writer_entry, &w[i]));
    }
    mr_jobs_stats(vd, &st);
    g_assert_cmpint(st.kind, ==, RAID_JOB_REBUILD);
    g_assert_true(st.running);
    while (!w[0].done || !w[1].done) {
        aio_poll(qemu_get_aio_context(), true);
    }
    g_assert_null(vd->job_co);
    g_assert_cmpuint(w[0].writes + w[1].writes, >=, 32);
    g_assert_cmpint(ta->a.cfg->pds[spare].state, ==, RAID_PD_ONLINE);
    g_assert_cmpint(ta->a.cfg->vds[0].state, ==, RAID_VD_OPTIMAL);
    g_assert_cmpint(ta->a.cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpint(ta->stored.kind, ==, RAID_JOB_NONE);
    g_assert_cmpuint(ta->stores, >=, 1);
    g_assert_cmpint(vd->st[1].status, ==, RAID_MEMBER_ONLINE);
    assert_vd_equals(vd, ref);
    /* The rebuilt member holds the data: lose an original one. */
    fail_member(vd, 0);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
}

/* Stop half way: the cursor is stored; kick resumes from it. */
static void test_stop_resume(void)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_5, 4, 0);
    GRand *rnd = g_rand_new_with_seed(5);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    RaidVd *v = &ta->a.cfg->vds[0];
    uint64_t stopped_at;
    unsigned stores;

    ta->a.rebuild_rate = 50;
    replace_member(vd, 2);
    mr_jobs_kick(vd);
    while (v->job.next_row < vd->layout.rows / 4) {
        aio_poll(qemu_get_aio_context(), true);
    }
    stores = ta->stores;
    mr_jobs_stop(vd);
    g_assert_null(vd->job_co);
    g_assert_cmpuint(raid_stripe_locks_count(vd->locks), ==, 0);
    stopped_at = v->job.next_row;
    g_assert_cmpuint(stopped_at, <, vd->layout.rows);
    g_assert_cmpint(v->job.kind, ==, RAID_JOB_REBUILD);
    /* checkpointed where it stopped */
    g_assert_cmpuint(ta->stores, >, stores);
    g_assert_cmpuint(ta->stored.next_row, ==, stopped_at);
    /* rows below the cursor are readable from the rebuilt member */
    g_assert_cmpuint(vd->st[2].rebuilt, ==, stopped_at * vd->layout.strip);
    assert_vd_equals(vd, ref);
    /* nothing moves while stopped */
    for (int i = 0; i < 10; i++) {
        aio_poll(qemu_get_aio_context(), false);
    }
    g_assert_cmpuint(v->job.next_row, ==, stopped_at);
    mr_jobs_kick(vd);
    wait_job(vd);
    g_assert_cmpint(v->job.kind, ==, RAID_JOB_NONE);
    fail_member(vd, 0);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
}

/*
 * A never initialized RAID 6 with stale parity: kick starts background
 * initialization by itself, which keeps the data and fixes the parity.
 */
static void test_bgi(void)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_6, 5, 0);
    GRand *rnd = g_rand_new_with_seed(3);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    RaidVd *v = &ta->a.cfg->vds[0];
    int pd = vd->member_pd[raid_layout_p_member(&vd->layout, 2, 0)];
    Error *err = NULL;

    v->initialized = false;
    /* stale P in row 2 */
    memset(ta->pd_data[pd] + (vd->layout.member_start[0] +
                              2 * vd->layout.strip) * 512, 0x5a, 4096);
    mr_jobs_kick(vd);
    g_assert_nonnull(vd->job_co);
    g_assert_cmpint(v->job.kind, ==, RAID_JOB_CHECK);
    g_assert_true(v->job.repair);
    wait_job(vd);
    g_assert_true(v->initialized);
    g_assert_true(v->consistent);
    g_assert_cmpint(v->job.kind, ==, RAID_JOB_NONE);
    assert_vd_equals(vd, ref);
    /* a host check now finds nothing to repair */
    g_assert_true(mr_jobs_start(vd, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(vd->job_co);
    g_assert_false(mr_jobs_start(vd, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(strstr(error_get_pretty(err), "already runs a check"));
    error_free(err);
    err = NULL;
    wait_job(vd);
    g_assert_true(v->consistent);
    /* the parity is right: lose P and Q's member of row 2 and read */
    fail_member(vd, raid_layout_p_member(&vd->layout, 2, 0));
    fail_member(vd, raid_layout_q_member(&vd->layout, 2, 0));
    assert_vd_equals(vd, ref);
    /* an initialized or degraded VD gets no background init */
    v->initialized = false;
    mr_jobs_kick(vd);
    g_assert_null(vd->job_co);
    g_assert_cmpint(v->job.kind, ==, RAID_JOB_NONE);
    g_assert_false(mr_jobs_start(vd, RAID_JOB_CHECK, true, &err));
    g_assert_nonnull(strstr(error_get_pretty(err), "needs an optimal VD"));
    error_free(err);
    err = NULL;
    g_assert_false(mr_jobs_start(vd, RAID_JOB_REBUILD, false, &err));
    g_assert_nonnull(strstr(error_get_pretty(err), "rebuild starts"));
    error_free(err);
    g_rand_free(rnd);
    test_teardown(vd);
}

/*
 * QEMU quits without unrealizing the controller: the shutdown stops the
 * jobs (checkpointed) before the block layer goes; a reset (after a
 * shutdown that only paused) lets them run again.
 */
static void test_shutdown(void)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_5, 4, 0);
    GRand *rnd = g_rand_new_with_seed(4);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    RaidVd *v = &ta->a.cfg->vds[0];
    ShutdownCause cause = SHUTDOWN_CAUSE_HOST_QMP_QUIT;
    Error *err = NULL;

    ta->a.rebuild_rate = 50;
    replace_member(vd, 1);
    mr_jobs_kick(vd);
    g_assert_nonnull(shutdown_notifier);
    g_assert_nonnull(reset_handler);
    while (v->job.next_row < 8) {
        aio_poll(qemu_get_aio_context(), true);
    }
    shutdown_notifier->notify(shutdown_notifier, &cause);
    g_assert_null(vd->job_co);
    g_assert_cmpuint(raid_stripe_locks_count(vd->locks), ==, 0);
    g_assert_cmpint(ta->stored.kind, ==, RAID_JOB_REBUILD);
    g_assert_cmpuint(ta->stored.next_row, ==, v->job.next_row);
    g_assert_cmpuint(v->job.next_row, <, vd->layout.rows);
    mr_jobs_kick(vd);
    g_assert_null(vd->job_co);
    g_assert_false(mr_jobs_start(vd, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(strstr(error_get_pretty(err), "shutting down"));
    error_free(err);
    reset_handler(NULL);
    mr_jobs_kick(vd);
    g_assert_nonnull(vd->job_co);
    wait_job(vd);
    g_assert_cmpint(v->state, ==, RAID_VD_OPTIMAL);
    fail_member(vd, 0);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
}

/* Full initialization from the host zeroes the VD. */
static void test_init(void)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_5, 4, 0);
    GRand *rnd = g_rand_new_with_seed(9);
    g_autofree uint8_t *ref = fill_random(vd, rnd);

    g_assert_true(mr_jobs_start(vd, RAID_JOB_INIT, false, &error_abort));
    wait_job(vd);
    g_assert_true(ta->a.cfg->vds[0].initialized);
    memset(ref, 0, vd->layout.vd_sectors * 512);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
}

/* The rebuild target fails during the rebuild: the job stops. */
static void test_target_fails(void)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_5, 4, 0);
    GRand *rnd = g_rand_new_with_seed(1);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    RaidVd *v = &ta->a.cfg->vds[0];
    int spare;

    ta->a.rebuild_rate = 50;
    spare = replace_member(vd, 3);
    mr_jobs_kick(vd);
    while (v->job.next_row < 4) {
        aio_poll(qemu_get_aio_context(), true);
    }
    /* its I/O fails: the data path fails the member */
    ta->io_error[spare] = true;
    wait_job(vd);
    g_assert_cmpint(ta->a.cfg->pds[spare].state, !=, RAID_PD_REBUILD);
    g_assert_cmpint(v->state, ==, RAID_VD_DEGRADED);
    g_assert_cmpuint(raid_stripe_locks_count(vd->locks), ==, 0);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
}

/*
 * Rebuild at @rate; at 1/@part of the way, the job's share of working
 * time.  Returns the rebuild speed of the target member in MiB/s, or 0
 * if @stop: the job is stopped there.
 */
static double timed_rebuild(int rate, int part, bool stop, unsigned *busy)
{
    MRVirtualDisk *vd = test_setup(RAID_LEVEL_5, 4, 0);
    GRand *rnd = g_rand_new_with_seed(2);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    RaidVd *v = &ta->a.cfg->vds[0];
    MRJobStats st;
    int64_t t0, ns;
    double mbs;

    ta->a.rebuild_rate = rate;
    replace_member(vd, 0);
    t0 = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    mr_jobs_kick(vd);
    while (v->job.next_row < vd->layout.rows / part) {
        aio_poll(qemu_get_aio_context(), true);
    }
    mr_jobs_stats(vd, &st);
    g_assert_true(st.running);
    g_assert_cmpint(st.kind, ==, RAID_JOB_REBUILD);
    g_assert_cmpuint(st.rows_per_s, >, 0);
    g_assert_cmpint(st.eta_s, >=, 0);
    g_assert_cmpuint(st.percent, >=, 100 / part);
    *busy = st.busy_percent;
    if (stop) {
        mr_jobs_stop(vd);
        g_assert_cmpint(v->job.kind, ==, RAID_JOB_REBUILD);
        test_teardown(vd);
        g_rand_free(rnd);
        return 0;
    }
    wait_job(vd);
    ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - t0;
    mbs = (double)vd->layout.block_count * 512 / MiB * 1e9 / ns;
    g_assert_cmpint(v->state, ==, RAID_VD_OPTIMAL);
    assert_vd_equals(vd, ref);
    g_rand_free(rnd);
    test_teardown(vd);
    return mbs;
}

/*
 * At 25 % the job works about a quarter of the time (it rests three
 * times as long as each batch took), at 0 % (counted as 1 %) about 1 %;
 * at 100 % it never rests.
 */
static void test_rate(void)
{
    unsigned full_busy, quarter_busy, low_busy;
    double full = timed_rebuild(100, 2, false, &full_busy);
    double quarter = timed_rebuild(25, 2, false, &quarter_busy);

    timed_rebuild(0, 8, true, &low_busy);
    g_test_message("rebuild of the target member: %.0f MiB/s at 100 %% "
                   "(busy %u %%), %.0f MiB/s at 25 %% (busy %u %%); "
                   "busy %u %% at 0 %%", full, full_busy, quarter,
                   quarter_busy, low_busy);
    /*
     * Sampled right after a batch, before its rest: k batches took k
     * work times and k - 1 rests (32 batches at 25 %: 25.6 %; 8 at 1 %:
     * 1.1 %).
     */
    g_assert_cmpuint(quarter_busy, <=, 27);
    g_assert_cmpuint(low_busy, <=, 3);
    g_assert_cmpuint(full_busy, >, quarter_busy);
}

/* ---- raid_plan_rebuild_rows: members in memory, completing inline ---- */

static MRVirtualDisk *sync_vd;

static uint8_t *sync_member(uint32_t m, uint64_t lba, uint32_t sectors)
{
    g_assert_cmpuint(lba + sectors, <=, PD_SECTORS);
    return ta->pd_data[sync_vd->member_pd[m]] + lba * 512;
}

static void sync_read(void *opaque, uint32_t member, uint64_t lba,
                      uint32_t sectors, RaidIOBuf buf, RaidIOComplete *cb,
                      void *ctx)
{
    memcpy(buf.ptr, sync_member(member, lba, sectors), sectors * 512);
    (*(unsigned *)opaque)++;
    cb(ctx, 0);
}

static void sync_write(void *opaque, uint32_t member, uint64_t lba,
                       uint32_t sectors, RaidIOBuf buf, RaidIOComplete *cb,
                       void *ctx)
{
    memcpy(sync_member(member, lba, sectors), buf.ptr, sectors * 512);
    (*(unsigned *)opaque)++;
    cb(ctx, 0);
}

static const RaidExecOps sync_ops = {
    .read = sync_read,
    .write = sync_write,
};

typedef struct RowsCase {
    const char *name;
    RaidLevel level;
    int members, spans;
    int target;
    int other;                  /* -1, or a member rebuilding mid-chunk */
} RowsCase;

static const RowsCase rows_cases[] = {
    { "raid1", RAID_LEVEL_1, 2, 1, 1, -1 },
    { "raid5", RAID_LEVEL_5, 4, 1, 2, -1 },
    { "raid6", RAID_LEVEL_6, 5, 1, 3, -1 },
    { "raid6-second-rebuilding", RAID_LEVEL_6, 5, 1, 0, 4 },
    { "raid10", RAID_LEVEL_10, 4, 2, 2, -1 },
    { "raid50", RAID_LEVEL_50, 6, 2, 4, -1 },
};

/*
 * Wipe the target's strips of a chunk of rows and rebuild them with one
 * multi-row plan: the member must hold its data again, with one request
 * per member for the chunk (a member read row by row where its rows
 * differ: skipped parity, a second member rebuilding).  A chunk that
 * runs past the extent is refused.
 */
static void test_rebuild_rows_plan(gconstpointer data)
{
    const RowsCase *c = data;
    MRVirtualDisk *vd = test_setup(c->level, c->members, c->spans);
    RaidLayout *l = &vd->layout;
    g_autoptr(GRand) rnd = g_rand_new_with_seed(13);
    g_autofree uint8_t *ref = fill_random(vd, rnd);
    uint64_t strip_bytes = (uint64_t)l->strip * 512;
    uint8_t *tdata = ta->pd_data[vd->member_pd[c->target]];
    g_autofree uint8_t *orig = g_memdup2(tdata, PD_SECTORS * 512);
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidPlan *p;

    sync_vd = vd;
    for (int m = 0; m < c->members; m++) {
        st[m] = (RaidMemberState){ .status = RAID_MEMBER_ONLINE };
    }
    st[c->target] = (RaidMemberState){ .status = RAID_MEMBER_REBUILDING };
    for (int round = 0; round < 24; round++) {
        uint32_t nrows = g_rand_int_range(rnd, 2, 17);
        uint64_t row = g_rand_int_range(rnd, 0, l->rows - nrows + 1);
        uint64_t lba = l->member_start[c->target] + row * l->strip;
        unsigned ios = 0, steps = 0;
        RaidRunResult res;

        if (c->other >= 0) {
            /* readable for the chunk's first rows only */
            st[c->other] = (RaidMemberState){
                .status = RAID_MEMBER_REBUILDING,
                .rebuilt = (row + nrows / 2) * l->strip,
            };
        }
        memset(tdata + lba * 512, 0xa5, nrows * strip_bytes);
        p = raid_plan_rebuild_rows(l, st, row, nrows, c->target);
        g_assert_cmpint(p->error, ==, 0);
        g_assert_cmpuint(p->first_row, ==, row);
        g_assert_cmpuint(p->last_row, ==, row + nrows - 1);
        for (guint i = 0; i < p->steps->len; i++) {
            RaidStepKind k = g_array_index(p->steps, RaidStep, i).kind;

            steps += k == RAID_STEP_READ || k == RAID_STEP_WRITE;
        }
        res = raid_run_sync(p, RAID_PARITY_ISAL, &sync_ops, &ios);
        g_assert_cmpint(res.ret, ==, 0);
        g_assert_cmpuint(ios, ==, steps);
        g_assert_true(memcmp(tdata + lba * 512, orig + lba * 512,
                             nrows * strip_bytes) == 0);
        if (c->other < 0 && c->level != RAID_LEVEL_6) {
            /* each other member of the span read once, the target written */
            g_assert_cmpuint(steps, ==,
                             c->level == RAID_LEVEL_1 ||
                             c->level == RAID_LEVEL_10 ? 2 :
                             c->members / c->spans);
        }
        raid_plan_free(p);
    }
    /* past the extent: refused, the rows are planned one at a time */
    p = raid_plan_rebuild_rows(l, st, l->rows - 1, 2, c->target);
    g_assert_cmpint(p->error, ==, -EINVAL);
    raid_plan_free(p);
    /* the data path's view is untouched: the VD still reads back */
    assert_vd_equals(vd, ref);
    test_teardown(vd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qemu_init_main_loop(&error_abort);
    g_test_add_data_func("/megaraid/jobs/rebuild-io/raid5",
                         GINT_TO_POINTER(RAID_LEVEL_5), test_rebuild_with_io);
    g_test_add_data_func("/megaraid/jobs/rebuild-io/raid6",
                         GINT_TO_POINTER(RAID_LEVEL_6), test_rebuild_with_io);
    g_test_add_data_func("/megaraid/jobs/rebuild-io/raid1",
                         GINT_TO_POINTER(RAID_LEVEL_1), test_rebuild_with_io);
    g_test_add_func("/megaraid/jobs/stop-resume", test_stop_resume);
    g_test_add_func("/megaraid/jobs/bgi", test_bgi);
    g_test_add_func("/megaraid/jobs/init", test_init);
    g_test_add_func("/megaraid/jobs/target-fails", test_target_fails);
    g_test_add_func("/megaraid/jobs/shutdown", test_shutdown);
    g_test_add_func("/megaraid/jobs/rate", test_rate);
    for (size_t i = 0; i < G_N_ELEMENTS(rows_cases); i++) {
        g_autofree char *path =
            g_strdup_printf("/megaraid/jobs/rebuild-rows-plan/%s",
                            rows_cases[i].name);

        g_test_add_data_func(path, &rows_cases[i], test_rebuild_rows_plan);
    }
    return g_test_run();
}
