/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the planner's decisions (which member I/O a request
 * becomes: full stripe, RMW or RCW by cost, degraded reads and writes,
 * failures), of the stripe locks, and of the runner with an executor that
 * completes asynchronously and out of order.
 */
#include "test-mem-exec.h"

#define STRIP 128u
#define SECTOR RAID_SECTOR_SIZE

static void layout(RaidLayout *l, RaidLevel level, uint32_t spans,
                   uint32_t n)
{
    uint64_t data[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = {
        .level = level, .strip = STRIP, .spans = spans, .span_members = n,
        .member_data_sectors = data,
    };

    for (unsigned i = 0; i < RAID_MAX_MEMBERS; i++) {
        data[i] = 16 * STRIP;
    }
    g_assert_true(raid_layout_init(l, &d, NULL));
}

static unsigned count(const RaidPlan *p, RaidStepKind kind, int member)
{
    unsigned n = 0;

    for (guint i = 0; i < p->steps->len; i++) {
        const RaidStep *s = &g_array_index(p->steps, RaidStep, i);

        n += s->kind == kind && (member < 0 || s->member == (uint32_t)member);
    }
    return n;
}

static RaidPlan *plan(const RaidLayout *l, const RaidMemberState *st,
                      RaidOp op, uint64_t lba, uint64_t n, RaidWriteMode mode)
{
    RaidRequest r = { .op = op, .lba = lba, .sectors = n };

    return raid_plan_request(l, st, &r, mode);
}

static void test_full_stripe(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    layout(&l, RAID_LEVEL_5, 1, 4);
    /* row 1 of a 4-member RAID 5: 3 data strips, no reads at all */
    p = plan(&l, st, RAID_OP_WRITE, 3 * STRIP, 3 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 4);
    g_assert_cmpuint(count(p, RAID_STEP_GEN, -1), ==, 1);
    g_assert_cmpuint(p->cost.full_stripes, ==, 1);
    g_assert_true(p->exclusive);
    g_assert_cmpuint(p->first_row, ==, 1);
    g_assert_cmpuint(p->last_row, ==, 1);
    raid_plan_free(p);

    /* the same, even with the P member missing */
    st[2].status = RAID_MEMBER_MISSING;    /* P of row 1 */
    p = plan(&l, st, RAID_OP_WRITE, 3 * STRIP, 3 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 2), ==, 0);
    raid_plan_free(p);
}

static void test_rmw_rcw_choice(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    /* RAID 5 of 5, one small write: RMW reads 2, RCW reads 3 */
    layout(&l, RAID_LEVEL_5, 1, 5);
    p = plan(&l, st, RAID_OP_WRITE, 10, 8, RAID_WRITE_AUTO);
    g_assert_cmpuint(p->cost.rmw_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 0), ==, 1);      /* old D0 */
    g_assert_cmpuint(count(p, RAID_STEP_READ, 4), ==, 1);      /* old P */
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 2);
    g_assert_cmpuint(p->cost.read_sectors, ==, 16);
    raid_plan_free(p);
    /* forced RCW: the 3 other data strips, same range */
    p = plan(&l, st, RAID_OP_WRITE, 10, 8, RAID_WRITE_RCW);
    g_assert_cmpuint(p->cost.rcw_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 0), ==, 0);
    g_assert_cmpuint(p->cost.read_sectors, ==, 24);
    raid_plan_free(p);
    /* three of four strips written: RCW reads 1, RMW would read 4 */
    p = plan(&l, st, RAID_OP_WRITE, 0, 3 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpuint(p->cost.rcw_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 3), ==, 1);
    raid_plan_free(p);

    /* RAID 6 of 6, small write: RMW 3 reads = RCW 3 reads: RCW wins */
    layout(&l, RAID_LEVEL_6, 1, 6);
    p = plan(&l, st, RAID_OP_WRITE, 0, 8, RAID_WRITE_AUTO);
    g_assert_cmpuint(p->cost.rcw_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 3);
    raid_plan_free(p);
    /* RAID 6 of 8: RMW 3 reads < RCW 5 */
    layout(&l, RAID_LEVEL_6, 1, 8);
    p = plan(&l, st, RAID_OP_WRITE, 0, 8, RAID_WRITE_AUTO);
    g_assert_cmpuint(p->cost.rmw_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 7), ==, 1);      /* P */
    g_assert_cmpuint(count(p, RAID_STEP_READ, 6), ==, 1);      /* Q */
    g_assert_cmpuint(count(p, RAID_STEP_DELTA, -1), ==, 1);
    raid_plan_free(p);
}

static void test_degraded(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    layout(&l, RAID_LEVEL_5, 1, 4);
    st[1].status = RAID_MEMBER_MISSING;
    /* D1 (member 1, row 0) read: the other three members, then recover */
    p = plan(&l, st, RAID_OP_READ, STRIP + 4, 4, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_COPY_OUT, -1), ==, 1);
    g_assert_false(p->exclusive);
    raid_plan_free(p);
    /* D0 is intact: read directly */
    p = plan(&l, st, RAID_OP_READ, 4, 4, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 0);
    raid_plan_free(p);
    /*
     * a write inside the lost strip: parity of that range from the new
     * data and the other strips; nothing goes to member 1
     */
    p = plan(&l, st, RAID_OP_WRITE, STRIP + 4, 4, RAID_WRITE_RMW);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 3), ==, 1);     /* P */
    g_assert_cmpuint(p->cost.degraded_stripes, ==, 1);
    raid_plan_free(p);
    /*
     * end of D0 and start of D1: D1's old data beyond the write is
     * needed for the parity, so it is recovered first
     */
    p = plan(&l, st, RAID_OP_WRITE, STRIP - 4, 6, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 0), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 3), ==, 1);
    raid_plan_free(p);
    /*
     * a write that leaves the lost strip alone: read-modify-write of D0
     * and P (2 reads), not a reconstruction from every survivor; forced
     * RCW still reconstructs
     */
    p = plan(&l, st, RAID_OP_WRITE, 4, 4, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(p->cost.rmw_stripes, ==, 1);
    g_assert_cmpuint(p->cost.degraded_stripes, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 0), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 3), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 1), ==, 0);
    raid_plan_free(p);
    p = plan(&l, st, RAID_OP_WRITE, 4, 4, RAID_WRITE_RCW);
    g_assert_cmpuint(p->cost.degraded_stripes, ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 1);
    raid_plan_free(p);
    /* a rebuilding member is read below its cursor only */
    st[1].status = RAID_MEMBER_REBUILDING;
    st[1].rebuilt = STRIP;      /* row 0 done */
    p = plan(&l, st, RAID_OP_READ, STRIP, 8, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 0);
    raid_plan_free(p);
    p = plan(&l, st, RAID_OP_READ, 5 * STRIP, 8,
             RAID_WRITE_AUTO);                  /* row 1, member 1: D5 */
    g_assert_cmpuint(count(p, RAID_STEP_READ, 1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_RECOVER, -1), ==, 1);
    raid_plan_free(p);
    /* but always written */
    p = plan(&l, st, RAID_OP_WRITE, 5 * STRIP, 8,
             RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 1), ==, 1);
    raid_plan_free(p);

    /* two members lost on RAID 5: data there is gone */
    st[1].status = RAID_MEMBER_MISSING;
    st[2].status = RAID_MEMBER_MISSING;
    p = plan(&l, st, RAID_OP_READ, STRIP, 8, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, -EIO);
    g_assert_cmpuint(p->steps->len, ==, 0);
    raid_plan_free(p);
    p = plan(&l, st, RAID_OP_WRITE, STRIP, 8, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, -EIO);
    raid_plan_free(p);

    /* RAID 6 with D0 and P lost reads through Q */
    layout(&l, RAID_LEVEL_6, 1, 5);
    memset(st, 0, sizeof(st));
    st[0].status = RAID_MEMBER_MISSING;
    st[4].status = RAID_MEMBER_MISSING;
    p = plan(&l, st, RAID_OP_READ, 0, 8, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 3), ==, 1);      /* Q */
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    raid_plan_free(p);
}

static void test_mirror_and_plain(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    layout(&l, RAID_LEVEL_10, 2, 2);
    /* a write of strips 0..3 goes to all four members, twice each */
    p = plan(&l, st, RAID_OP_WRITE, 0, 4 * STRIP, RAID_WRITE_AUTO);
    for (int m = 0; m < 4; m++) {
        g_assert_cmpuint(count(p, RAID_STEP_WRITE, m), ==, 2);
    }
    raid_plan_free(p);
    /* reads alternate mirrors by row; a missing copy is skipped */
    st[0].status = RAID_MEMBER_MISSING;
    p = plan(&l, st, RAID_OP_READ, 0, 4 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 0), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, 1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 4);
    raid_plan_free(p);
    st[1].status = RAID_MEMBER_MISSING;
    p = plan(&l, st, RAID_OP_READ, 0, 1, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, -EIO);
    raid_plan_free(p);
    p = plan(&l, st, RAID_OP_READ, STRIP, 1, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, 0);
    raid_plan_free(p);

    /* JBOD: contiguous strips become one member I/O */
    layout(&l, RAID_LEVEL_JBOD, 1, 1);
    memset(st, 0, sizeof(st));
    p = plan(&l, st, RAID_OP_WRITE, 5, 5 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpuint(p->steps->len, ==, 1);
    g_assert_cmpuint(g_array_index(p->steps, RaidStep, 0).sectors, ==,
                     5 * STRIP);
    raid_plan_free(p);

    /* out of range */
    p = plan(&l, st, RAID_OP_READ, l.vd_sectors - 1, 2, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, -EINVAL);
    raid_plan_free(p);
    p = plan(&l, st, RAID_OP_READ, 0, 0, RAID_WRITE_AUTO);
    g_assert_cmpint(p->error, ==, -EINVAL);
    raid_plan_free(p);
}

static void test_flush_unmap(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    layout(&l, RAID_LEVEL_6, 1, 5);
    st[2].status = RAID_MEMBER_MISSING;
    p = plan(&l, st, RAID_OP_FLUSH, 0, 0, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_FLUSH, -1), ==, 4);
    g_assert_cmpuint(count(p, RAID_STEP_FLUSH, 2), ==, 0);
    g_assert_false(p->has_rows);
    raid_plan_free(p);
    st[2].status = RAID_MEMBER_ONLINE;
    /* whole stripes are discarded on every member (zero parity) */
    p = plan(&l, st, RAID_OP_UNMAP, 0, 2 * 3 * STRIP, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_DISCARD, -1), ==, 5);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 0);
    raid_plan_free(p);
    /* a partial stripe is written as zeroes with new parity */
    p = plan(&l, st, RAID_OP_UNMAP, 8, 8, RAID_WRITE_AUTO);
    g_assert_cmpuint(count(p, RAID_STEP_DISCARD, -1), ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_ZERO, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 3);
    raid_plan_free(p);
}

static void test_jobs(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    RaidPlan *p;

    layout(&l, RAID_LEVEL_0, 1, 3);
    p = raid_plan_rebuild_row(&l, st, 0, 1);
    g_assert_cmpint(p->error, ==, -EIO);
    raid_plan_free(p);

    layout(&l, RAID_LEVEL_6, 1, 5);
    st[1].status = RAID_MEMBER_REBUILDING;
    p = raid_plan_rebuild_row(&l, st, 3, 1);
    g_assert_cmpint(p->error, ==, 0);
    /* only the target missing: one parity strip is not read */
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 1);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, 1), ==, 1);
    g_assert_true(p->exclusive);
    raid_plan_free(p);
    st[3].status = RAID_MEMBER_MISSING;
    p = raid_plan_rebuild_row(&l, st, 3, 1);
    g_assert_cmpint(p->error, ==, 0);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 3);
    raid_plan_free(p);
    st[4].status = RAID_MEMBER_MISSING;
    p = raid_plan_rebuild_row(&l, st, 3, 1);
    g_assert_cmpint(p->error, ==, -EIO);
    raid_plan_free(p);

    /* check: a degraded stripe is skipped, a healthy one compared */
    p = raid_plan_check_row(&l, st, 0, true);
    g_assert_cmpuint(p->steps->len, ==, 0);
    raid_plan_free(p);
    memset(st, 0, sizeof(st));
    p = raid_plan_check_row(&l, st, 0, true);
    g_assert_cmpuint(count(p, RAID_STEP_READ, -1), ==, 5);
    g_assert_cmpuint(count(p, RAID_STEP_COMPARE, -1), ==, 2);
    g_assert_cmpuint(count(p, RAID_STEP_WRITE, -1), ==, 2);
    raid_plan_free(p);
}

/* ---- invariants of every plan -------------------------------------------- */

static void check_buf(const RaidPlan *p, uint32_t buf, uint64_t off,
                      uint64_t bytes, uint64_t host_len)
{
    if (buf == RAID_BUF_HOST) {
        g_assert_cmpuint(off + bytes, <=, host_len);
        return;
    }
    g_assert_cmpuint(buf, <, p->buf_size->len);
    g_assert_cmpuint(off + bytes, <=,
                     g_array_index(p->buf_size, uint32_t, buf));
    g_assert_cmpuint(off % SECTOR, ==, 0);
}

static void check_group(const RaidPlan *p, const RaidStep *s)
{
    const RaidPlanGroup *g;

    g_assert_cmpuint(s->group, <, p->groups->len);
    g = &g_array_index(p->groups, RaidPlanGroup, s->group);
    g_assert_cmpuint(g->ndata, >=, 1);
    g_assert_cmpuint(g->ndata, <=, RAID_PARITY_MAX_DATA);
    for (uint32_t d = 0; d < g->ndata; d++) {
        g_assert_cmpuint(g->data_buf[d], !=, RAID_BUF_HOST);
        check_buf(p, g->data_buf[d], g->off, g->len, 0);
        if (g->old_buf[d]) {
            check_buf(p, g->old_buf[d], g->off, g->len, 0);
        }
    }
    g_assert_cmpuint(g->p_buf, !=, RAID_BUF_HOST);
    check_buf(p, g->p_buf, g->poff, g->len, 0);
    if (g->q_buf) {
        check_buf(p, g->q_buf, g->poff, g->len, 0);
    }
}

/*
 * Random layouts, member states and requests (in range or not): a plan is
 * either an error without steps, or touches only members that may be
 * touched, only sectors inside their extents, and only buffer bytes that
 * exist; reads never go to unreadable members.
 */
static void test_invariants(void)
{
    static const RaidLevel levels[] = {
        RAID_LEVEL_0, RAID_LEVEL_1, RAID_LEVEL_5, RAID_LEVEL_6,
        RAID_LEVEL_10, RAID_LEVEL_50, RAID_LEVEL_60, RAID_LEVEL_JBOD,
    };
    GRand *r = g_rand_new_with_seed(g_test_rand_int());
    unsigned ok = 0, failed = 0;

    for (int iter = 0; iter < 20000; iter++) {
        RaidLevel lv = levels[g_rand_int_range(r, 0, G_N_ELEMENTS(levels))];
        bool comp = lv == RAID_LEVEL_10 || lv == RAID_LEVEL_50 ||
                    lv == RAID_LEVEL_60;
        uint64_t data[RAID_MAX_MEMBERS], start[RAID_MAX_MEMBERS];
        RaidLayoutDesc d = {
            .level = lv, .strip = 128u << g_rand_int_range(r, 0, 5),
            .spans = comp ? g_rand_int_range(r, 1, 5) : 1,
            .span_members = lv == RAID_LEVEL_JBOD ? 1 :
                            g_rand_int_range(r, 1, 12),
            .member_data_sectors = data, .member_start = start,
        };
        RaidMemberState st[RAID_MAX_MEMBERS] = { 0 };
        RaidRequest rq;
        RaidLayout l;
        RaidPlan *p;
        uint64_t host_len;

        for (unsigned m = 0; m < RAID_MAX_MEMBERS; m++) {
            start[m] = g_rand_int_range(r, 0, 64);
            data[m] = start[m] + g_rand_int_range(r, 1, 6) * 2048 +
                      g_rand_int_range(r, 0, 300);
        }
        if (!raid_layout_init(&l, &d, NULL)) {
            continue;           /* e.g. too few members for the level */
        }
        for (uint32_t m = 0; m < l.members; m++) {
            switch (g_rand_int_range(r, 0, 8)) {
            case 0:
                st[m].status = RAID_MEMBER_MISSING;
                break;
            case 1:
                st[m].status = RAID_MEMBER_REBUILDING;
                st[m].rebuilt = g_rand_int_range(r, 0, l.block_count + 1);
                break;
            }
        }
        rq.op = g_rand_int_range(r, 0, 4);
        rq.lba = g_rand_int_range(r, 0, l.vd_sectors + 2);
        rq.sectors = g_rand_int_range(r, 0, 3 * l.row_sectors + 2);
        host_len = rq.sectors * SECTOR;
        if (g_rand_int_range(r, 0, 10) == 0) {
            uint64_t row = g_rand_int_range(r, 0, l.rows + 1);
            uint32_t tgt = g_rand_int_range(r, 0, l.members + 1);

            p = g_rand_boolean(r) ? raid_plan_rebuild_row(&l, st, row, tgt)
                                  : raid_plan_check_row(&l, st, row,
                                                        g_rand_boolean(r));
            host_len = 0;
        } else {
            p = raid_plan_request(&l, st, &rq, g_rand_int_range(r, 0, 3));
        }
        if (p->error) {
            g_assert_cmpuint(p->steps->len, ==, 0);
            failed++;
            raid_plan_free(p);
            continue;
        }
        ok++;
        for (guint i = 0; i < p->steps->len; i++) {
            const RaidStep *s = &g_array_index(p->steps, RaidStep, i);
            uint64_t bytes = (uint64_t)s->sectors * SECTOR;

            g_assert_cmpuint(s->phase, <, p->nphases);
            switch (s->kind) {
            case RAID_STEP_READ:
            case RAID_STEP_WRITE:
            case RAID_STEP_DISCARD: {
                uint64_t rel;

                g_assert_cmpuint(s->member, <, l.members);
                g_assert_cmpint(st[s->member].status, !=,
                                RAID_MEMBER_MISSING);
                g_assert_cmpuint(s->sectors, >, 0);
                g_assert_cmpuint(s->member_lba, >=, l.member_start[s->member]);
                rel = s->member_lba - l.member_start[s->member];
                g_assert_cmpuint(rel + s->sectors, <=, l.block_count);
                g_assert_cmpuint(l.member_start[s->member] + rel + s->sectors,
                                 <=, data[s->member]);
                if (s->kind == RAID_STEP_READ) {
                    g_assert_true(raid_member_readable(&st[s->member], rel,
                                                       s->sectors));
                }
                if (s->kind != RAID_STEP_DISCARD) {
                    check_buf(p, s->buf, s->buf == RAID_BUF_HOST ?
                              s->host_off : s->buf_off, bytes, host_len);
                }
                break;
            }
            case RAID_STEP_FLUSH:
                g_assert_cmpint(st[s->member].status, !=,
                                RAID_MEMBER_MISSING);
                break;
            case RAID_STEP_COPY_IN:
            case RAID_STEP_COPY_OUT:
                check_buf(p, RAID_BUF_HOST, s->host_off, bytes, host_len);
                /* fall through */
            case RAID_STEP_ZERO:
                g_assert_cmpuint(s->buf, !=, RAID_BUF_HOST);
                check_buf(p, s->buf, s->buf_off, bytes, 0);
                break;
            case RAID_STEP_COMPARE:
            case RAID_STEP_COPY:
                check_buf(p, s->buf, s->buf_off, bytes, 0);
                check_buf(p, s->buf2, s->buf2_off, bytes, 0);
                break;
            default:
                check_group(p, s);
                break;
            }
        }
        raid_plan_free(p);
    }
    g_test_message("%u plans checked, %u refused", ok, failed);
    g_assert_cmpuint(ok, >, 5000);
    g_assert_cmpuint(failed, >, 100);
    g_rand_free(r);
}

/* ---- stripe locks -------------------------------------------------------- */

static void granted_cb(void *opaque)
{
    (*(int *)opaque)++;
}

static void test_locks(void)
{
    RaidStripeLocks *lk = raid_stripe_locks_new();
    int ga = 0, gb = 0, gc = 0, gd = 0, gf = 0;
    bool now;
    RaidStripeLock *a, *b, *c, *d, *e, *f;

    a = raid_stripe_lock(lk, 0, 3, false, granted_cb, &ga, &now);
    g_assert_true(now);
    b = raid_stripe_lock(lk, 2, 5, false, granted_cb, &gb, &now);
    g_assert_true(now);                         /* shared with a */
    c = raid_stripe_lock(lk, 3, 3, true, granted_cb, &gc, &now);
    g_assert_false(now);                        /* exclusive: waits */
    d = raid_stripe_lock(lk, 5, 6, false, granted_cb, &gd, &now);
    g_assert_true(now);                         /* shared with b, no c */
    f = raid_stripe_lock(lk, 3, 4, false, granted_cb, &gf, &now);
    g_assert_false(now);                        /* FIFO: behind c */
    raid_stripe_unlock(lk, a);
    g_assert_cmpint(gc, ==, 0);                 /* b still holds row 3 */
    e = raid_stripe_lock(lk, 10, 12, true, granted_cb, NULL, &now);
    g_assert_true(now);                         /* disjoint */
    raid_stripe_unlock(lk, e);
    raid_stripe_unlock(lk, b);
    g_assert_cmpint(gc, ==, 1);
    g_assert_cmpint(gf, ==, 0);
    raid_stripe_unlock(lk, c);
    g_assert_cmpint(gf, ==, 1);
    raid_stripe_unlock(lk, d);
    raid_stripe_unlock(lk, f);
    g_assert_cmpuint(raid_stripe_locks_count(lk), ==, 0);
    g_assert_cmpint(ga + gb + gd, ==, 0);       /* granted at once */
    raid_stripe_locks_free(lk);
}

/* ---- runner with deferred, reordered completions ------------------------- */

static void run_done(void *opaque, const RaidRunResult *res)
{
    *(RaidRunResult *)opaque = *res;
}

/* Complete everything pending, newest first, until idle. */
static void drain(MemExec *x)
{
    while (x->pending->len) {
        mem_complete(x->pending, x->pending->len - 1);
    }
}

static RaidRunResult run_async(MemExec *x, const RaidLayout *l,
                               const RaidMemberState *st, RaidOp op,
                               uint64_t lba, uint64_t n, uint8_t *data)
{
    RaidRunResult res = { .ret = 1 };
    RaidPlan *p = plan(l, st, op, lba, n, RAID_WRITE_AUTO);

    x->host = data;
    raid_run_start(p, RAID_PARITY_ISAL, &mem_ops, x, run_done, &res);
    g_assert_cmpint(res.ret, ==, 1);            /* not finished yet */
    drain(x);
    g_assert_cmpint(res.ret, !=, 1);
    raid_plan_free(p);
    return res;
}

static void test_runner_async(void)
{
    RaidLayout l;
    RaidMemberState st[8] = { 0 };
    uint8_t *mem[8] = { 0 };
    MemExec x = { .mem = mem, .fail_member = -1 };
    size_t vd;
    uint8_t *data, *back;
    RaidRunResult res;

    layout(&l, RAID_LEVEL_6, 1, 6);
    vd = l.vd_sectors * SECTOR;
    for (int m = 0; m < 6; m++) {
        x.mem[m] = g_malloc0(16 * STRIP * SECTOR);
    }
    x.pending = g_array_new(false, false, sizeof(MemPending));
    data = g_malloc(vd);
    back = g_malloc(vd);
    for (size_t i = 0; i < vd; i++) {
        data[i] = i * 7 + (i >> 9);
    }
    res = run_async(&x, &l, st, RAID_OP_WRITE, 0, l.vd_sectors, data);
    g_assert_cmpint(res.ret, ==, 0);
    /* small RMW-style writes, then degraded reads through P and Q */
    for (int i = 0; i < 20; i++) {
        uint64_t lba = (i * 977) % (l.vd_sectors - 40);

        memset(data + lba * SECTOR, i, 40 * SECTOR);
        res = run_async(&x, &l, st, RAID_OP_WRITE, lba, 40,
                        data + lba * SECTOR);
        g_assert_cmpint(res.ret, ==, 0);
    }
    st[0].status = RAID_MEMBER_MISSING;
    st[3].status = RAID_MEMBER_MISSING;
    res = run_async(&x, &l, st, RAID_OP_READ, 0, l.vd_sectors, back);
    g_assert_cmpint(res.ret, ==, 0);
    g_assert_cmpmem(back, vd, data, vd);

    /* a member I/O error is reported with the member */
    memset(st, 0, sizeof(st));
    x.fail_member = 2;
    res = run_async(&x, &l, st, RAID_OP_READ, 0, l.vd_sectors, back);
    g_assert_cmpint(res.ret, ==, -EIO);
    g_assert_cmpuint(res.failed_member, ==, 2);

    for (int m = 0; m < 6; m++) {
        g_free(x.mem[m]);
    }
    g_array_free(x.pending, true);
    g_free(data);
    g_free(back);
}

static void test_pool(void)
{
    RaidBufPool *pool = raid_buf_pool_new(8192);
    void *a = raid_buf_pool_get(pool, 4096);
    void *b = raid_buf_pool_get(pool, 4096);
    void *c = raid_buf_pool_get(pool, 4096);

    g_assert_true(a != b && b != c);
    g_assert_cmpuint((uintptr_t)a % 64, ==, 0);
    raid_buf_pool_put(pool, a, 4096);
    raid_buf_pool_put(pool, b, 4096);
    raid_buf_pool_put(pool, c, 4096);           /* over the limit: freed */
    g_assert_true(raid_buf_pool_get(pool, 4096) == b);
    g_assert_true(raid_buf_pool_get(pool, 4096) == a);
    raid_buf_free(a);
    raid_buf_free(b);
    a = raid_buf_pool_get(pool, 512);
    raid_buf_pool_put(pool, a, 512);
    b = raid_buf_pool_get(pool, 1024);          /* no 1024 cached */
    g_assert_true(a != b);
    raid_buf_free(b);
    raid_buf_pool_free(pool);                   /* frees a */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/raid/plan/full-stripe", test_full_stripe);
    g_test_add_func("/raid/plan/rmw-rcw-choice", test_rmw_rcw_choice);
    g_test_add_func("/raid/plan/degraded", test_degraded);
    g_test_add_func("/raid/plan/mirror-and-plain", test_mirror_and_plain);
    g_test_add_func("/raid/plan/flush-unmap", test_flush_unmap);
    g_test_add_func("/raid/plan/jobs", test_jobs);
    g_test_add_func("/raid/plan/invariants", test_invariants);
    g_test_add_func("/raid/locks", test_locks);
    g_test_add_func("/raid/runner/async", test_runner_async);
    g_test_add_func("/raid/runner/pool", test_pool);
    return g_test_run();
}
