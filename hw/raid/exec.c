/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: plan runner.  Drives a plan's phases through an executor:
 * compute steps in order, then the phase's member I/O all at once, then
 * the next phase when the last I/O completed.  Works with executors that
 * complete inline (files) and later (QEMU coroutines / AIO).
 */
#include <errno.h>
#include <string.h>
#include "raid/exec.h"

typedef struct RaidRun {
    const RaidPlan *plan;
    RaidParityImpl impl;
    const RaidExecOps *ops;
    void *opaque;
    RaidRunDone *done;
    void *done_opaque;
    uint8_t **buf;              /* scratch buffers by id */
    unsigned phase;
    unsigned inflight;
    bool mismatch;
    RaidRunResult res;
} RaidRun;

typedef struct RaidRunIO {
    RaidRun *run;
    uint32_t member;
} RaidRunIO;

static uint8_t *bufp(RaidRun *r, uint32_t id, uint32_t off)
{
    return r->buf[id] + off;
}

static RaidStripeBufs group_bufs(RaidRun *r, const RaidPlanGroup *g)
{
    RaidStripeBufs b = { .ndata = g->ndata };

    for (uint32_t d = 0; d < g->ndata; d++) {
        b.data[d] = bufp(r, g->data_buf[d], g->off);
        b.exp[d] = g->exp[d];
    }
    b.p = g->p_buf ? bufp(r, g->p_buf, g->poff) : NULL;
    b.q = g->q_buf ? bufp(r, g->q_buf, g->poff) : NULL;
    return b;
}

static void run_compute(RaidRun *r, const RaidStep *s)
{
    const RaidPlanGroup *g = NULL;
    size_t len = (size_t)s->sectors * RAID_SECTOR_SIZE;
    RaidStripeBufs b;

    if (s->kind == RAID_STEP_GEN || s->kind == RAID_STEP_RECOVER ||
        s->kind == RAID_STEP_DELTA) {
        g = &g_array_index(r->plan->groups, RaidPlanGroup, s->group);
        b = group_bufs(r, g);
    }
    switch (s->kind) {
    case RAID_STEP_COPY_IN:
        r->ops->copy_from_host(r->opaque, s->host_off,
                               bufp(r, s->buf, s->buf_off), len);
        break;
    case RAID_STEP_COPY_OUT:
        r->ops->copy_to_host(r->opaque, s->host_off,
                             bufp(r, s->buf, s->buf_off), len);
        break;
    case RAID_STEP_ZERO:
        memset(bufp(r, s->buf, s->buf_off), 0, len);
        break;
    case RAID_STEP_COPY:
        memcpy(bufp(r, s->buf, s->buf_off), bufp(r, s->buf2, s->buf2_off),
               len);
        break;
    case RAID_STEP_COMPARE:
        if (memcmp(bufp(r, s->buf, s->buf_off),
                   bufp(r, s->buf2, s->buf2_off), len)) {
            r->mismatch = true;
            r->res.mismatches++;
        }
        break;
    case RAID_STEP_GEN:
        raid_parity_gen(r->impl, &b, g->len);
        break;
    case RAID_STEP_RECOVER:
        if (!raid_parity_recover(r->impl, &b, g->miss_a, g->miss_b,
                                 g->len)) {
            r->res.ret = -EIO;
        }
        break;
    case RAID_STEP_DELTA:
        for (uint32_t d = 0; d < g->ndata; d++) {
            uint8_t *old;

            if (!g->old_buf[d]) {
                continue;
            }
            old = bufp(r, g->old_buf[d], g->off);
            raid_xor_into(old, b.data[d], g->len);
            raid_parity_apply_delta(r->impl, b.p, b.q, g->exp[d], old,
                                    g->len);
        }
        break;
    default:
        g_assert_not_reached();
    }
}

static bool is_io(RaidStepKind k)
{
    return k <= RAID_STEP_DISCARD;
}

static void run_finish(RaidRun *r)
{
    for (guint i = 1; i < r->plan->buf_size->len; i++) {
        size_t len = g_array_index(r->plan->buf_size, uint32_t, i);

        if (r->ops->buf_free) {
            r->ops->buf_free(r->opaque, r->buf[i], len);
        } else {
            raid_buf_free(r->buf[i]);
        }
    }
    g_free(r->buf);
    r->done(r->done_opaque, &r->res);
    g_free(r);
}

static void run_phases(RaidRun *r);

static void io_done(void *ctx, int ret)
{
    RaidRunIO *io = ctx;
    RaidRun *r = io->run;

    if (ret < 0 && !r->res.ret) {
        r->res.ret = ret;
        r->res.failed_member = io->member;
    }
    g_free(io);
    if (--r->inflight == 0) {
        r->phase++;
        run_phases(r);
    }
}

static void submit(RaidRun *r, const RaidStep *s)
{
    RaidRunIO *io = g_new(RaidRunIO, 1);
    RaidIOBuf b = { 0 };

    io->run = r;
    io->member = s->member;
    if (s->buf == RAID_BUF_HOST) {
        b.host_off = s->host_off;
    } else {
        b.ptr = bufp(r, s->buf, s->buf_off);
    }
    r->inflight++;
    switch (s->kind) {
    case RAID_STEP_READ:
        r->ops->read(r->opaque, s->member, s->member_lba, s->sectors, b,
                     io_done, io);
        break;
    case RAID_STEP_WRITE:
        r->ops->write(r->opaque, s->member, s->member_lba, s->sectors, b,
                      io_done, io);
        break;
    case RAID_STEP_FLUSH:
        r->ops->flush(r->opaque, s->member, io_done, io);
        break;
    default:
        r->ops->discard(r->opaque, s->member, s->member_lba, s->sectors,
                        io_done, io);
        break;
    }
}

static void run_phases(RaidRun *r)
{
    const GArray *steps = r->plan->steps;

    while (r->phase < r->plan->nphases && !r->res.ret) {
        for (guint i = 0; i < steps->len && !r->res.ret; i++) {
            const RaidStep *s = &g_array_index(steps, RaidStep, i);

            if (s->phase == r->phase && !is_io(s->kind) &&
                (!(s->flags & RAID_STEP_F_IF_MISMATCH) || r->mismatch)) {
                run_compute(r, s);
            }
        }
        if (r->res.ret) {
            break;
        }
        r->inflight = 1;        /* hold the phase open while submitting */
        for (guint i = 0; i < steps->len; i++) {
            const RaidStep *s = &g_array_index(steps, RaidStep, i);

            if (s->phase == r->phase && is_io(s->kind) &&
                (!(s->flags & RAID_STEP_F_IF_MISMATCH) || r->mismatch)) {
                submit(r, s);
            }
        }
        if (--r->inflight > 0) {
            return;             /* io_done continues */
        }
        r->phase++;
    }
    run_finish(r);
}

void raid_run_start(const RaidPlan *plan, RaidParityImpl impl,
                    const RaidExecOps *ops, void *opaque,
                    RaidRunDone *done, void *done_opaque)
{
    RaidRun *r = g_new0(RaidRun, 1);

    r->plan = plan;
    r->impl = impl;
    r->ops = ops;
    r->opaque = opaque;
    r->done = done;
    r->done_opaque = done_opaque;
    r->res.ret = plan->error;
    r->res.failed_member = UINT32_MAX;
    r->buf = g_new0(uint8_t *, plan->buf_size->len);
    for (guint i = 1; i < plan->buf_size->len; i++) {
        size_t len = g_array_index(plan->buf_size, uint32_t, i);

        r->buf[i] = ops->buf_alloc ? ops->buf_alloc(opaque, len)
                                   : raid_buf_alloc(len);
    }
    run_phases(r);
}

typedef struct SyncWait {
    bool done;
    RaidRunResult res;
} SyncWait;

static void sync_done(void *opaque, const RaidRunResult *res)
{
    SyncWait *w = opaque;

    w->done = true;
    w->res = *res;
}

RaidRunResult raid_run_sync(const RaidPlan *plan, RaidParityImpl impl,
                            const RaidExecOps *ops, void *opaque)
{
    SyncWait w = { 0 };

    raid_run_start(plan, impl, ops, opaque, sync_done, &w);
    g_assert(w.done);           /* the executor must complete inline */
    return w.res;
}

/* ---- scratch buffer pool ------------------------------------------------- */

#define POOL_SLOTS 64

struct RaidBufPool {
    size_t max_bytes, bytes;
    unsigned n;
    void *buf[POOL_SLOTS];
    size_t len[POOL_SLOTS];
};

RaidBufPool *raid_buf_pool_new(size_t max_cached_bytes)
{
    RaidBufPool *p = g_new0(RaidBufPool, 1);

    p->max_bytes = max_cached_bytes;
    return p;
}

void raid_buf_pool_free(RaidBufPool *p)
{
    if (p) {
        for (unsigned i = 0; i < p->n; i++) {
            raid_buf_free(p->buf[i]);
        }
        g_free(p);
    }
}

void *raid_buf_pool_get(RaidBufPool *p, size_t len)
{
    for (unsigned i = p->n; i-- > 0;) {
        if (p->len[i] == len) {
            void *b = p->buf[i];

            p->bytes -= len;
            p->n--;
            p->buf[i] = p->buf[p->n];
            p->len[i] = p->len[p->n];
            return b;
        }
    }
    return raid_buf_alloc(len);
}

void raid_buf_pool_put(RaidBufPool *p, void *buf, size_t len)
{
    if (p->n == POOL_SLOTS || p->bytes + len > p->max_bytes) {
        raid_buf_free(buf);
        return;
    }
    p->buf[p->n] = buf;
    p->len[p->n] = len;
    p->n++;
    p->bytes += len;
}
