/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: I/O planning.
 *
 * Owns the pure planner that turns a request (read, write, flush, unmap of
 * a VD range) plus the member states into an I/O plan: member reads,
 * parity steps, member writes, in dependency order; the background-job
 * plans (rebuild one member's strip of a row, check/repair a row); and the
 * stripe (row) range locks that keep concurrent plans consistent.
 *
 * A plan does no I/O: an executor (exec.h) runs it.
 *
 * Plan model:
 *  - Buffers: id 0 (RAID_BUF_HOST) is the request's data buffer
 *    (sectors * 512 bytes; offsets in bytes from its start).  Ids 1..n are
 *    scratch buffers the runner allocates (sizes in plan->buf_size[id]).
 *  - Steps run in phases.  Phase k: first its compute steps run, in list
 *    order, then its member I/O steps are issued, all at once (no two of
 *    them write the same memory or the same member sectors); phase k+1
 *    starts when all of phase k's I/O completed successfully.
 *  - Writes choose full-stripe, reconstruct-write (read the untouched
 *    strips) or read-modify-write (read old data and parity) per stripe,
 *    by the number of member reads.  A degraded stripe whose lost strip
 *    the write leaves alone still takes a read-modify-write when that reads
 *    less (P/Q updated by the delta stay consistent with the lost strip);
 *    otherwise it is reconstructed in memory first.  Either way every
 *    readable member ends up consistent with the new data and later
 *    (degraded or rebuilt) reads return it.
 */
#ifndef RAID_PLAN_H
#define RAID_PLAN_H

#include "raid/geometry.h"
#include "raid/parity.h"

typedef enum RaidOp {
    RAID_OP_READ,
    RAID_OP_WRITE,
    RAID_OP_FLUSH,
    /* Unmap: afterwards the range reads as zeroes (LBPRZ=1). */
    RAID_OP_UNMAP,
} RaidOp;

typedef enum RaidMemberStatus {
    RAID_MEMBER_ONLINE,
    RAID_MEMBER_MISSING,        /* failed, missing, offline: never touched */
    RAID_MEMBER_REBUILDING,     /* valid below `rebuilt`; written always */
} RaidMemberStatus;

typedef struct RaidMemberState {
    RaidMemberStatus status;
    /*
     * REBUILDING: sectors [0, rebuilt) of the extent (relative to its
     * member_start) hold valid data; reads above it reconstruct.
     */
    uint64_t rebuilt;
} RaidMemberState;

typedef struct RaidRequest {
    RaidOp op;
    uint64_t lba;               /* VD sector */
    uint64_t sectors;           /* > 0, to vd_sectors at most; FLUSH: 0 */
} RaidRequest;

/* Parity write strategy; AUTO chooses by cost (tests force the others). */
typedef enum RaidWriteMode {
    RAID_WRITE_AUTO,
    RAID_WRITE_RMW,             /* read-modify-write where possible */
    RAID_WRITE_RCW,             /* reconstruct-write always */
} RaidWriteMode;

#define RAID_BUF_HOST 0u

typedef enum RaidStepKind {
    /* member I/O */
    RAID_STEP_READ,             /* member, lba, sectors -> buf + off */
    RAID_STEP_WRITE,            /* buf + off -> member, lba, sectors */
    RAID_STEP_FLUSH,            /* member */
    RAID_STEP_DISCARD,          /* member range reads back as zeroes */
    /* compute */
    RAID_STEP_COPY_IN,          /* scratch buf + off <- host + host_off */
    RAID_STEP_COPY_OUT,         /* host + host_off <- scratch buf + off */
    RAID_STEP_ZERO,             /* scratch buf + off = 0 */
    RAID_STEP_COPY,             /* buf + off <- buf2 + off2 (scratch) */
    RAID_STEP_GEN,              /* group: P (and Q) from data */
    RAID_STEP_RECOVER,          /* group: rebuild miss_a/miss_b */
    RAID_STEP_DELTA,            /* group: P,Q ^= f(old ^ new) per data */
    RAID_STEP_COMPARE,          /* buf + off vs buf2 + off2: mismatch */
} RaidStepKind;

/*
 * Step flag: run only if an earlier COMPARE of this plan found a mismatch
 * (check with repair).
 */
#define RAID_STEP_F_IF_MISMATCH 1u

typedef struct RaidStep {
    RaidStepKind kind;
    uint8_t phase;
    uint8_t flags;
    uint32_t member;            /* I/O steps */
    uint64_t member_lba;        /* I/O steps: absolute member sector */
    uint32_t sectors;           /* length of I/O / copy / zero / compare */
    uint32_t buf, buf_off;      /* buffer id, byte offset (scratch) */
    uint32_t buf2, buf2_off;    /* COPY / COMPARE second buffer */
    /* host byte offset: COPY_IN/COPY_OUT, I/O with buf == RAID_BUF_HOST */
    uint64_t host_off;
    uint32_t group;             /* GEN / RECOVER / DELTA */
} RaidStep;

/* The buffers of one stripe computation (all at byte offset off, len). */
typedef struct RaidPlanGroup {
    uint32_t ndata;
    uint32_t data_buf[RAID_PARITY_MAX_DATA];
    uint8_t exp[RAID_PARITY_MAX_DATA];
    uint32_t old_buf[RAID_PARITY_MAX_DATA];     /* DELTA: 0 = unchanged */
    uint32_t p_buf, q_buf;      /* 0 = none */
    uint32_t off, len;          /* bytes: data buffers at off, len long */
    uint32_t poff;              /* bytes: P and Q buffers at poff */
    int miss_a, miss_b;         /* RECOVER: data index or RAID_STRIP_* */
} RaidPlanGroup;

typedef struct RaidPlanCost {
    uint32_t member_reads, member_writes;
    uint64_t read_sectors, write_sectors;
    uint32_t full_stripes, rcw_stripes, rmw_stripes, degraded_stripes;
} RaidPlanCost;

typedef struct RaidPlan {
    RaidOp op;
    int error;                  /* 0, or -EIO: data not available */
    bool exclusive;             /* lock rows exclusively (writes, jobs) */
    bool has_rows;              /* false for FLUSH: no row lock needed */
    uint64_t first_row, last_row;
    uint32_t nphases;
    GArray *steps;              /* RaidStep */
    GArray *buf_size;           /* uint32_t bytes, index = buffer id */
    GArray *groups;             /* RaidPlanGroup */
    RaidPlanCost cost;
} RaidPlan;

/* Plan a request.  Always returns a plan; check plan->error. */
RaidPlan *raid_plan_request(const RaidLayout *l, const RaidMemberState *st,
                            const RaidRequest *req, RaidWriteMode mode);
/*
 * Rebuild: recompute member `target`'s strip of `row` from the other
 * readable members and write it (RAID 1/10: copy a readable mirror).
 * The target must be REBUILDING (or ONLINE for a copyback); a MISSING
 * target or a row beyond the extent gives -EINVAL.
 */
RaidPlan *raid_plan_rebuild_row(const RaidLayout *l,
                                const RaidMemberState *st, uint64_t row,
                                uint32_t target);
/*
 * The same for rows [row, row + nrows) in one plan: each member's strips
 * of the rows are read in as few requests as the rows' sources allow and
 * the target's written in one (larger member I/O for a rebuild).  The
 * rows must have one length (not the extent's shorter last row) and
 * nrows * strip at most RAID_PLAN_ROWS_MAX_SECTORS; otherwise, or when
 * a row cannot be rebuilt, the plan fails (-EINVAL, -EIO) and the rows
 * are planned one at a time.  nrows <= 1: raid_plan_rebuild_row().
 */
#define RAID_PLAN_ROWS_MAX_SECTORS 0x10000u
RaidPlan *raid_plan_rebuild_rows(const RaidLayout *l,
                                 const RaidMemberState *st, uint64_t row,
                                 uint32_t nrows, uint32_t target);
/*
 * Copyback: member @src's strip of @row read and written, at the same
 * member sector, to the copyback's target, which the plan names as the
 * member one past the layout's members (RAID_COPY_TARGET; the executor
 * maps it to the new drive).  The source must be readable there (-EIO);
 * a layout of RAID_MAX_MEMBERS members has no room for it (-EINVAL).
 */
#define RAID_COPY_TARGET(l)     ((l)->members)
RaidPlan *raid_plan_copy_row(const RaidLayout *l, const RaidMemberState *st,
                             uint64_t row, uint32_t src);
/*
 * The same row of the source recomputed from the other members (parity
 * or a mirror, as a rebuild of the source would) and written to the
 * target: for a source that cannot read it (a medium error).  -EIO
 * without redundancy.
 */
RaidPlan *raid_plan_copy_row_rebuilt(const RaidLayout *l,
                                     const RaidMemberState *st, uint64_t row,
                                     uint32_t src);
/*
 * Consistency check of a row: recompute P/Q (compare mirrors) from the
 * members and count mismatching strips; with repair, rewrite the parity
 * (other mirrors from the first readable copy).  Stripes with an
 * unreadable member are skipped (a mirror set checks its readable
 * copies).
 */
RaidPlan *raid_plan_check_row(const RaidLayout *l, const RaidMemberState *st,
                              uint64_t row, bool repair);
void raid_plan_free(RaidPlan *plan);
/* Human-readable dump (tests, debugging). */
char *raid_plan_describe(const RaidPlan *plan);

/* Is member m readable for member-relative sectors [off, off + len)? */
bool raid_member_readable(const RaidMemberState *st, uint64_t off,
                          uint64_t len);

/*
 * Row range locks.  Shared (reads) locks coexist; exclusive ones exclude
 * every overlapping lock.  Granting is FIFO among overlapping requests, so
 * a writer is never starved.  Not thread-safe (one AioContext).
 */
typedef struct RaidStripeLocks RaidStripeLocks;
typedef struct RaidStripeLock RaidStripeLock;
typedef void RaidLockGranted(void *opaque);

RaidStripeLocks *raid_stripe_locks_new(void);
void raid_stripe_locks_free(RaidStripeLocks *locks);   /* must be empty */
/*
 * Take rows [first, last].  If it can be held now, returns with
 * *granted_now = true and `granted` is never called; otherwise it is queued
 * and `granted(opaque)` runs from the raid_stripe_unlock() that frees it.
 */
RaidStripeLock *raid_stripe_lock(RaidStripeLocks *locks, uint64_t first,
                                 uint64_t last, bool exclusive,
                                 RaidLockGranted *granted, void *opaque,
                                 bool *granted_now);
void raid_stripe_unlock(RaidStripeLocks *locks, RaidStripeLock *lock);
/* Number of locks held or waiting (tests). */
unsigned raid_stripe_locks_count(const RaidStripeLocks *locks);

#endif
