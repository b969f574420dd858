/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Member I/O in memory for the tests of the plan runner (test-plan,
 * test-concurrency): mem_ops, RaidExecOps over the members' data in
 * memory and a host buffer.  Data moves when an I/O is submitted; its
 * completion waits in a list until the test delivers it, in the order
 * the test chooses (mem_complete).
 */
#ifndef TEST_MEM_EXEC_H
#define TEST_MEM_EXEC_H

#include <errno.h>
#include <string.h>
#include "raid/raid.h"

typedef struct MemPending {
    RaidIOComplete *cb;
    void *ctx;
    int ret;
} MemPending;

typedef struct MemExec {
    uint8_t **mem;              /* each member's data */
    uint8_t *host;              /* the request's data */
    GArray *pending;            /* MemPending: completions not delivered */
    int fail_member;            /* its I/O fails with -EIO (-1: none) */
    RaidBufPool *pool;          /* scratch buffers (NULL: raid_buf_alloc) */
} MemExec;

static inline void mem_queue(MemExec *x, RaidIOComplete *cb, void *ctx,
                             int ret)
{
    MemPending p = { cb, ctx, ret };

    g_array_append_val(x->pending, p);
}

/* Delivers completion @i of @pending (the last one moves into its place). */
static inline void mem_complete(GArray *pending, guint i)
{
    MemPending p = g_array_index(pending, MemPending, i);

    g_array_remove_index_fast(pending, i);
    p.cb(p.ctx, p.ret);
}

static inline void mem_rw(MemExec *x, uint32_t m, uint64_t lba, uint32_t n,
                          RaidIOBuf b, RaidIOComplete *cb, void *ctx, bool w)
{
    uint8_t *buf = b.ptr ? b.ptr : x->host + b.host_off;

    if ((int)m == x->fail_member) {
        mem_queue(x, cb, ctx, -EIO);
        return;
    }
    /*
     * data moves at submission, completion comes later in the test's
     * order: overlapping unlocked plans would see each other half done
     */
    if (w) {
        memcpy(x->mem[m] + lba * RAID_SECTOR_SIZE, buf,
               n * RAID_SECTOR_SIZE);
    } else {
        memcpy(buf, x->mem[m] + lba * RAID_SECTOR_SIZE,
               n * RAID_SECTOR_SIZE);
    }
    mem_queue(x, cb, ctx, 0);
}

static inline void mem_read(void *o, uint32_t m, uint64_t lba, uint32_t n,
                            RaidIOBuf b, RaidIOComplete *cb, void *ctx)
{
    mem_rw(o, m, lba, n, b, cb, ctx, false);
}

static inline void mem_write(void *o, uint32_t m, uint64_t lba, uint32_t n,
                             RaidIOBuf b, RaidIOComplete *cb, void *ctx)
{
    mem_rw(o, m, lba, n, b, cb, ctx, true);
}

static inline void mem_flush(void *o, uint32_t m, RaidIOComplete *cb,
                             void *ctx)
{
    mem_queue(o, cb, ctx, 0);
}

static inline void mem_discard(void *o, uint32_t m, uint64_t lba, uint32_t n,
                               RaidIOComplete *cb, void *ctx)
{
    MemExec *x = o;

    memset(x->mem[m] + lba * RAID_SECTOR_SIZE, 0, n * RAID_SECTOR_SIZE);
    mem_queue(o, cb, ctx, 0);
}

static inline void mem_from_host(void *o, uint64_t off, void *dst,
                                 size_t len)
{
    memcpy(dst, ((MemExec *)o)->host + off, len);
}

static inline void mem_to_host(void *o, uint64_t off, const void *src,
                               size_t len)
{
    memcpy(((MemExec *)o)->host + off, src, len);
}

static inline void *mem_alloc(void *o, size_t len)
{
    MemExec *x = o;

    return x->pool ? raid_buf_pool_get(x->pool, len) : raid_buf_alloc(len);
}

static inline void mem_free(void *o, void *buf, size_t len)
{
    MemExec *x = o;

    if (x->pool) {
        raid_buf_pool_put(x->pool, buf, len);
    } else {
        raid_buf_free(buf);
    }
}

static const RaidExecOps mem_ops = {
    mem_read, mem_write, mem_flush, mem_discard, mem_from_host, mem_to_host,
    mem_alloc, mem_free,
};

#endif
