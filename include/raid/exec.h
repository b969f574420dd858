/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: plan execution.
 *
 * Owns the executor interface (how member I/O is submitted) and the plan
 * runner that drives a plan's phases through it: inside QEMU the ops
 * issue coroutine/AIO requests on BlockBackends and complete later; in
 * tools and tests exec-file.c runs them with pread/pwrite on image files
 * and completes at once.  The runner allocates the plan's scratch buffers,
 * does the compute steps and reports the result.
 */
#ifndef RAID_EXEC_H
#define RAID_EXEC_H

#include "raid/plan.h"

typedef void RaidIOComplete(void *ctx, int ret);   /* ret 0 or -errno */

/* Where a member I/O's data lives: scratch memory, or the host buffer. */
typedef struct RaidIOBuf {
    void *ptr;                  /* scratch memory, or NULL: host buffer */
    uint64_t host_off;          /* bytes into the request's data if !ptr */
} RaidIOBuf;

/*
 * Executor: every submit must call cb(ctx, ret) exactly once, either
 * before returning or later (from the same thread/AioContext).
 */
typedef struct RaidExecOps {
    void (*read)(void *opaque, uint32_t member, uint64_t lba,
                 uint32_t sectors, RaidIOBuf buf,
                 RaidIOComplete *cb, void *ctx);
    void (*write)(void *opaque, uint32_t member, uint64_t lba,
                  uint32_t sectors, RaidIOBuf buf,
                  RaidIOComplete *cb, void *ctx);
    void (*flush)(void *opaque, uint32_t member,
                  RaidIOComplete *cb, void *ctx);
    /* Afterwards the range must read as zeroes (write-zeroes/unmap). */
    void (*discard)(void *opaque, uint32_t member, uint64_t lba,
                    uint32_t sectors, RaidIOComplete *cb, void *ctx);
    /* Host data access (byte offsets into the request's data). */
    void (*copy_from_host)(void *opaque, uint64_t off, void *dst,
                           size_t len);
    void (*copy_to_host)(void *opaque, uint64_t off, const void *src,
                         size_t len);
    /*
     * Optional: scratch buffers for the plan (e.g. qemu_blockalign() for
     * O_DIRECT backends, or a pool).  NULL: raid_buf_alloc/raid_buf_free.
     * Must be aligned to 64 bytes.
     */
    void *(*buf_alloc)(void *opaque, size_t len);
    void (*buf_free)(void *opaque, void *buf, size_t len);
} RaidExecOps;

/*
 * A small cache of scratch buffers by size, so that a stream of similar
 * plans does not allocate and fault in fresh memory each time.  Not
 * thread-safe: one per executor/thread.
 */
typedef struct RaidBufPool RaidBufPool;

RaidBufPool *raid_buf_pool_new(size_t max_cached_bytes);
void raid_buf_pool_free(RaidBufPool *pool);
void *raid_buf_pool_get(RaidBufPool *pool, size_t len);
void raid_buf_pool_put(RaidBufPool *pool, void *buf, size_t len);

typedef struct RaidRunResult {
    int ret;                    /* 0, plan->error, or the first I/O error */
    /*
     * Member of the first I/O error, or UINT32_MAX: the caller fails that
     * member and plans the request again.
     */
    uint32_t failed_member;
    uint32_t mismatches;        /* COMPARE steps that found a difference */
} RaidRunResult;

typedef void RaidRunDone(void *opaque, const RaidRunResult *res);

/*
 * Run a plan.  `done` is called exactly once when all steps finished or
 * the first failing phase drained; the plan stays owned by the caller and
 * must live until then.
 */
void raid_run_start(const RaidPlan *plan, RaidParityImpl impl,
                    const RaidExecOps *ops, void *opaque,
                    RaidRunDone *done, void *done_opaque);
/* For executors that complete synchronously: run and return the result. */
RaidRunResult raid_run_sync(const RaidPlan *plan, RaidParityImpl impl,
                            const RaidExecOps *ops, void *opaque);

/*
 * Synchronous file executor (exec-file.c): members are open file
 * descriptors (-1 = absent; touching it fails with -EIO), host data is a
 * flat buffer.
 */
typedef struct RaidFileExec {
    int fd[RAID_MAX_MEMBERS];
    uint32_t members;
    uint8_t *host;              /* request data, set per request */
    bool punch_holes;           /* discard by fallocate punch-hole */
    bool no_sync;               /* flush skips fdatasync (test scratch) */
    RaidBufPool *pool;          /* optional buffer cache, caller-owned */
    RaidParityImpl impl;        /* parity code to use (default ISA-L) */
} RaidFileExec;

extern const RaidExecOps raid_file_exec_ops;

/* Plan + lock-free synchronous run of one request on files. */
int raid_file_exec_request(RaidFileExec *fx, const RaidLayout *l,
                           const RaidMemberState *st, const RaidRequest *req,
                           RaidWriteMode mode, void *data);
/* Run an already built plan (rebuild/check) on files. */
RaidRunResult raid_file_exec_plan(RaidFileExec *fx, const RaidPlan *plan,
                                  void *data);

#endif
