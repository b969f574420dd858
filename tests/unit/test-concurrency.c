/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Concurrency test of plans, stripe locks and the runner: up to 12
 * requests in flight on one array, member I/O completing in random order,
 * each request holding its rows' lock from planning to completion.  Reads
 * must return exactly the writes submitted before them, and at the end the
 * parity must be consistent (a full check and reads with members left out).
 */
#include "test-mem-exec.h"

#define STRIP 128u
#define ROWS 32u
#define SECTOR RAID_SECTOR_SIZE
#define IN_FLIGHT 12

typedef struct Array {
    RaidLayout l;
    RaidMemberState st[RAID_MAX_MEMBERS];
    uint8_t *mem[RAID_MAX_MEMBERS];
    RaidStripeLocks *locks;
    RaidBufPool *pool;
    GArray *pending;            /* MemPending */
    GRand *rand;
    uint8_t *ref;
    unsigned in_flight, done_reads, done_writes, waited;
} Array;

typedef struct Req {
    Array *a;
    RaidPlan *plan;
    RaidStripeLock *lock;
    uint8_t *data;              /* host buffer */
    uint8_t *expect;            /* reads: the reference when submitted */
    size_t len;
    MemExec x;                  /* its member I/O */
} Req;

static void req_done(void *opaque, const RaidRunResult *res)
{
    Req *r = opaque;
    Array *a = r->a;

    g_assert_cmpint(res->ret, ==, 0);
    if (r->expect) {
        g_assert_cmpmem(r->data, r->len, r->expect, r->len);
        a->done_reads++;
    } else {
        a->done_writes++;
    }
    if (r->lock) {
        raid_stripe_unlock(a->locks, r->lock);
    }
    a->in_flight--;
    raid_plan_free(r->plan);
    g_free(r->data);
    g_free(r->expect);
    g_free(r);
}

static void req_start(void *opaque)
{
    Req *r = opaque;

    raid_run_start(r->plan, RAID_PARITY_ISAL, &mem_ops, &r->x, req_done, r);
}

static void submit(Array *a, RaidOp op, uint64_t lba, uint64_t n)
{
    Req *r = g_new0(Req, 1);
    RaidRequest rq = { .op = op, .lba = lba, .sectors = n };
    bool now = true;

    r->a = a;
    r->len = n * SECTOR;
    r->data = g_malloc(r->len);
    r->x = (MemExec) {
        .mem = a->mem, .host = r->data, .pending = a->pending,
        .fail_member = -1, .pool = a->pool,
    };
    if (op == RAID_OP_READ) {
        r->expect = g_memdup2(a->ref + lba * SECTOR, r->len);
    } else if (op == RAID_OP_WRITE) {
        for (size_t i = 0; i < r->len; i++) {
            r->data[i] = g_rand_int(a->rand);
        }
        memcpy(a->ref + lba * SECTOR, r->data, r->len);
    } else {
        memset(a->ref + lba * SECTOR, 0, r->len);
    }
    r->plan = raid_plan_request(&a->l, a->st, &rq,
                                g_rand_int_range(a->rand, 0, 3));
    g_assert_cmpint(r->plan->error, ==, 0);
    a->in_flight++;
    if (r->plan->has_rows) {
        r->lock = raid_stripe_lock(a->locks, r->plan->first_row,
                                   r->plan->last_row, r->plan->exclusive,
                                   req_start, r, &now);
    }
    if (now) {
        req_start(r);
    } else {
        a->waited++;
    }
}

static void complete_one(Array *a)
{
    mem_complete(a->pending, g_rand_int_range(a->rand, 0, a->pending->len));
}

static void drain(Array *a)
{
    while (a->pending->len) {
        complete_one(a);
    }
    g_assert_cmpuint(a->in_flight, ==, 0);
    g_assert_cmpuint(raid_stripe_locks_count(a->locks), ==, 0);
}

/* Synchronous whole-VD read (through the same async machinery). */
static void check_all(Array *a)
{
    uint64_t chunk = a->l.row_sectors;

    for (uint64_t lba = 0; lba < a->l.vd_sectors; lba += chunk) {
        submit(a, RAID_OP_READ, lba, MIN(chunk, a->l.vd_sectors - lba));
        drain(a);
    }
}

typedef struct Config {
    const char *name;
    RaidLevel level;
    uint32_t spans, span_members;
    int missing;                /* member left out for the run, or -1 */
} Config;

static const Config configs[] = {
    { "raid5-4", RAID_LEVEL_5, 1, 4, -1 },
    { "raid5-4-degraded", RAID_LEVEL_5, 1, 4, 2 },
    { "raid6-5", RAID_LEVEL_6, 1, 5, -1 },
    { "raid6-5-degraded", RAID_LEVEL_6, 1, 5, 0 },
    { "raid10-2x2", RAID_LEVEL_10, 2, 2, -1 },
    { "raid50-2x3", RAID_LEVEL_50, 2, 3, -1 },
    { "raid60-2x4-degraded", RAID_LEVEL_60, 2, 4, 5 },
};

static void run(gconstpointer opaque)
{
    const Config *c = opaque;
    Array a = { 0 };
    uint64_t data[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = {
        .level = c->level, .strip = STRIP, .spans = c->spans,
        .span_members = c->span_members, .member_data_sectors = data,
    };
    unsigned nreq = 1200;

    for (uint32_t m = 0; m < c->spans * c->span_members; m++) {
        data[m] = ROWS * STRIP;
    }
    g_assert_true(raid_layout_init(&a.l, &d, NULL));
    for (uint32_t m = 0; m < a.l.members; m++) {
        a.mem[m] = g_malloc0(data[m] * SECTOR);
    }
    a.locks = raid_stripe_locks_new();
    a.pool = raid_buf_pool_new(16 << 20);
    a.pending = g_array_new(false, false, sizeof(MemPending));
    a.rand = g_rand_new_with_seed(g_test_rand_int());
    a.ref = g_malloc0(a.l.vd_sectors * SECTOR);  /* zero members: consistent */
    if (c->missing >= 0) {
        a.st[c->missing].status = RAID_MEMBER_MISSING;
        memset(a.mem[c->missing], 0xee, data[c->missing] * SECTOR);
    }

    for (unsigned i = 0; i < nreq || a.in_flight;) {
        if (i < nreq && a.in_flight < IN_FLIGHT &&
            (!a.pending->len || g_rand_boolean(a.rand))) {
            unsigned kind = g_rand_int_range(a.rand, 0, 10);
            uint64_t n = g_rand_boolean(a.rand) ?
                         g_rand_int_range(a.rand, 1, 17) :
                         g_rand_int_range(a.rand, 1, a.l.row_sectors + 1);
            uint64_t lba = g_rand_int_range(a.rand, 0,
                                            a.l.vd_sectors - n + 1);

            submit(&a, kind < 4 ? RAID_OP_READ : kind < 9 ? RAID_OP_WRITE :
                   RAID_OP_UNMAP, lba, n);
            i++;
        } else if (a.pending->len) {
            complete_one(&a);
        }
    }
    drain(&a);
    g_test_message("%s: %u reads, %u writes, %u waited for a lock", c->name,
                   a.done_reads, a.done_writes, a.waited);
    g_assert_cmpuint(a.waited, >, 0);       /* the locks were exercised */
    check_all(&a);
    /* parity/mirrors consistent: read with each other member left out */
    for (uint32_t m = 0; m < a.l.members; m++) {
        uint32_t span = m / a.l.span_members, bad = 0;

        for (uint32_t i = 0; i < a.l.span_members; i++) {
            bad += a.st[span * a.l.span_members + i].status !=
                   RAID_MEMBER_ONLINE;
        }
        if (a.st[m].status != RAID_MEMBER_ONLINE || bad + 1 > a.l.parity) {
            continue;
        }
        a.st[m].status = RAID_MEMBER_MISSING;
        check_all(&a);
        a.st[m].status = RAID_MEMBER_ONLINE;
    }

    for (uint32_t m = 0; m < a.l.members; m++) {
        g_free(a.mem[m]);
    }
    raid_stripe_locks_free(a.locks);
    raid_buf_pool_free(a.pool);
    g_array_free(a.pending, true);
    g_rand_free(a.rand);
    g_free(a.ref);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(configs); i++) {
        g_autofree char *path = g_strdup_printf("/raid/concurrency/%s",
                                                configs[i].name);
        g_test_add_data_func(path, &configs[i], run);
    }
    return g_test_run();
}
