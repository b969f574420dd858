/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: plans for the background jobs: rebuild a member's strip
 * of one row (from parity or a mirror) or of several adjacent rows at
 * once (each member's strips read in as few requests as the rows allow,
 * the target's written in one), and check/repair a row's parity or
 * mirror copies, and copy a member's strip of a row onto a copyback's
 * target.  The job cursors (job*.c) decide which rows.
 */
#include <errno.h>
#include <string.h>
#include "plan-int.h"

static bool is_mirror(const RaidLayout *l)
{
    return l->level == RAID_LEVEL_1 || l->level == RAID_LEVEL_10;
}

static bool is_parity(const RaidLayout *l)
{
    return l->parity && !is_mirror(l);
}

static uint64_t row_lba(const RaidLayout *l, uint32_t m, uint64_t row)
{
    return l->member_start[m] + (row << l->strip_shift);
}

/* Buffers for a whole span row: data strips, P and Q. */
static void span_group(RaidPlan *p, const RaidLayout *l, uint64_t row,
                       uint32_t span, uint32_t len, RaidPlanGroup *g)
{
    memset(g, 0, sizeof(*g));
    g->ndata = l->span_data;
    g->len = len * RAID_SECTOR_SIZE;
    g->miss_a = g->miss_b = RAID_STRIP_NONE;
    for (uint32_t d = 0; d < l->span_data; d++) {
        g->exp[d] = raid_layout_q_exp(l, row, span, d);
        g->data_buf[d] = raid_plan_buf(p, len);
    }
    g->p_buf = raid_plan_buf(p, len);
    if (l->parity == 2) {
        g->q_buf = raid_plan_buf(p, len);
    }
}

static uint32_t member_buf(const RaidLayout *l, const RaidPlanGroup *g,
                           uint64_t row, uint32_t m, int *idx)
{
    uint32_t d;

    switch (raid_layout_role(l, row, m, &d)) {
    case RAID_ROLE_P:
        *idx = RAID_STRIP_P;
        return g->p_buf;
    case RAID_ROLE_Q:
        *idx = RAID_STRIP_Q;
        return g->q_buf;
    default:
        *idx = d;
        return g->data_buf[d];
    }
}

RaidPlan *raid_plan_rebuild_row(const RaidLayout *l,
                                const RaidMemberState *st, uint64_t row,
                                uint32_t target)
{
    RaidPlan *p = raid_plan_new(RAID_OP_WRITE);
    uint32_t len = raid_layout_row_len(l, row);
    uint32_t span, first;
    uint64_t rel = row << l->strip_shift;

    if (target >= l->members || !len ||
        !raid_member_writable(&st[target])) {
        return raid_plan_fail(p, -EINVAL);
    }
    p->has_rows = true;
    p->exclusive = true;
    p->first_row = p->last_row = row;
    span = target / l->span_members;
    first = span * l->span_members;

    if (is_mirror(l)) {
        for (uint32_t i = 0; i < l->span_members; i++) {
            uint32_t m = first + (uint32_t)((row + i) % l->span_members);

            if (m != target && raid_st_readable(st, m, rel, len)) {
                uint32_t b = raid_plan_buf(p, len);

                raid_plan_io(p, RAID_STEP_READ, 0, m, row_lba(l, m, row),
                             len, b, 0);
                raid_plan_io(p, RAID_STEP_WRITE, 1, target,
                             row_lba(l, target, row), len, b, 0);
                return p;
            }
        }
        return raid_plan_fail(p, -EIO);
    }
    if (is_parity(l)) {
        RaidPlanGroup g;
        int miss[2] = { RAID_STRIP_NONE, RAID_STRIP_NONE };
        uint32_t nmiss = 1, tbuf;
        int skip = RAID_STRIP_NONE;

        span_group(p, l, row, span, len, &g);
        tbuf = member_buf(l, &g, row, target, &miss[0]);
        if (l->parity == 2) {
            bool all = true;

            for (uint32_t i = 0; i < l->span_members; i++) {
                uint32_t m = first + i;

                if (m != target && !raid_st_readable(st, m, rel, len)) {
                    all = false;
                }
            }
            /*
             * Only the target is missing: one parity strip suffices, so
             * the other is not read (it is recomputed, not written): Q
             * for a data or P target (a data strip comes back from P by
             * XOR), P for a Q target.  One member read less per row.
             */
            if (all) {
                skip = miss[0] == RAID_STRIP_Q ? RAID_STRIP_P : RAID_STRIP_Q;
            }
        }
        for (uint32_t i = 0; i < l->span_members; i++) {
            uint32_t m = first + i;
            int idx;
            uint32_t b = member_buf(l, &g, row, m, &idx);

            if (m == target) {
                continue;
            }
            if (idx == skip) {
                miss[1] = idx;
                continue;
            }
            if (raid_st_readable(st, m, rel, len)) {
                raid_plan_io(p, RAID_STEP_READ, 0, m, row_lba(l, m, row),
                             len, b, 0);
            } else if (nmiss++ < l->parity) {
                miss[1] = idx;
            }
        }
        if (nmiss > l->parity) {
            return raid_plan_fail(p, -EIO);
        }
        g.miss_a = miss[0];
        g.miss_b = miss[1];
        raid_plan_step(p, RAID_STEP_RECOVER, 1)->group =
            raid_plan_group(p, &g);
        raid_plan_io(p, RAID_STEP_WRITE, 1, target, row_lba(l, target, row),
                     len, tbuf, 0);
        return p;
    }
    return raid_plan_fail(p, -EIO);     /* RAID 0, JBOD: no redundancy */
}

/*
 * Rows [row, row + nrows) as one plan.  Every member of the target's span
 * has one buffer holding its strips of the rows back to back, so a
 * row's stripe is the members' buffers at the row's offset: member reads
 * of adjacent rows merge into one request (raid_plan_io), each row is
 * recovered at its offset as raid_plan_rebuild_row() would, and the
 * target's buffer is written at once.  The sources of each row are the
 * ones the single-row plan picks, so a run breaks where a row skips a
 * member (RAID 6 skips the parity it does not need) or cannot read it.
 */
RaidPlan *raid_plan_rebuild_rows(const RaidLayout *l,
                                 const RaidMemberState *st, uint64_t row,
                                 uint32_t nrows, uint32_t target)
{
    RaidPlan *p;
    uint32_t len, span, first, sm;
    g_autofree uint32_t *groups = NULL;
    g_autofree bool *rd = NULL;
    uint32_t mbuf[RAID_MAX_SPAN_MEMBERS];

    if (nrows <= 1) {
        return raid_plan_rebuild_row(l, st, row, target);
    }
    p = raid_plan_new(RAID_OP_WRITE);
    len = raid_layout_row_len(l, row);
    /* only the extent's last row may be shorter: it is planned alone */
    if (target >= l->members || !len || !raid_member_writable(&st[target]) ||
        row + nrows > l->rows ||
        raid_layout_row_len(l, row + nrows - 1) != len ||
        (uint64_t)len * nrows > RAID_PLAN_ROWS_MAX_SECTORS) {
        return raid_plan_fail(p, -EINVAL);
    }
    p->has_rows = true;
    p->exclusive = true;
    p->first_row = row;
    p->last_row = row + nrows - 1;
    sm = l->span_members;
    span = target / sm;
    first = span * sm;

    if (is_mirror(l)) {
        uint32_t b = raid_plan_buf(p, len * nrows);

        for (uint32_t i = 0; i < nrows; i++) {
            uint64_t r = row + i, rel = r << l->strip_shift;
            uint32_t src = UINT32_MAX;

            for (uint32_t j = 0; j < sm && src == UINT32_MAX; j++) {
                uint32_t m = first + (uint32_t)((r + j) % sm);

                if (m != target && raid_st_readable(st, m, rel, len)) {
                    src = m;
                }
            }
            if (src == UINT32_MAX) {
                return raid_plan_fail(p, -EIO);
            }
            raid_plan_io(p, RAID_STEP_READ, 0, src, row_lba(l, src, r), len,
                         b, (uint64_t)i * len * RAID_SECTOR_SIZE);
        }
        raid_plan_io(p, RAID_STEP_WRITE, 1, target, row_lba(l, target, row),
                     len * nrows, b, 0);
        return p;
    }
    if (!is_parity(l)) {
        return raid_plan_fail(p, -EIO);     /* RAID 0, JBOD */
    }
    groups = g_new(uint32_t, nrows);
    rd = g_new0(bool, (size_t)nrows * sm);
    for (uint32_t j = 0; j < sm; j++) {
        mbuf[j] = raid_plan_buf(p, len * nrows);
    }
    for (uint32_t i = 0; i < nrows; i++) {
        uint64_t r = row + i, rel = r << l->strip_shift;
        int idx[RAID_MAX_SPAN_MEMBERS] = { 0 };
        int miss[2] = { RAID_STRIP_NONE, RAID_STRIP_NONE };
        int skip = RAID_STRIP_NONE;
        uint32_t nmiss = 1;
        bool all = true;
        RaidPlanGroup g;

        memset(&g, 0, sizeof(g));
        g.ndata = l->span_data;
        g.len = len * RAID_SECTOR_SIZE;
        g.off = g.poff = i * len * RAID_SECTOR_SIZE;
        for (uint32_t j = 0; j < sm; j++) {
            uint32_t d;

            switch (raid_layout_role(l, r, first + j, &d)) {
            case RAID_ROLE_P:
                idx[j] = RAID_STRIP_P;
                g.p_buf = mbuf[j];
                break;
            case RAID_ROLE_Q:
                idx[j] = RAID_STRIP_Q;
                g.q_buf = mbuf[j];
                break;
            default:
                idx[j] = d;
                g.data_buf[d] = mbuf[j];
                g.exp[d] = raid_layout_q_exp(l, r, span, d);
                break;
            }
            if (first + j != target &&
                !raid_st_readable(st, first + j, rel, len)) {
                all = false;
            }
        }
        miss[0] = idx[target - first];
        if (l->parity == 2 && all) {
            /* as the single-row plan: the parity not needed is not read */
            skip = miss[0] == RAID_STRIP_Q ? RAID_STRIP_P : RAID_STRIP_Q;
        }
        for (uint32_t j = 0; j < sm; j++) {
            if (first + j == target) {
                continue;
            }
            if (idx[j] == skip) {
                miss[1] = idx[j];
            } else if (raid_st_readable(st, first + j, rel, len)) {
                rd[(size_t)j * nrows + i] = true;
            } else if (nmiss++ < l->parity) {
                miss[1] = idx[j];
            }
        }
        if (nmiss > l->parity) {
            return raid_plan_fail(p, -EIO);
        }
        g.miss_a = miss[0];
        g.miss_b = miss[1];
        groups[i] = raid_plan_group(p, &g);
    }
    /* member by member, so adjacent rows' reads merge */
    for (uint32_t j = 0; j < sm; j++) {
        for (uint32_t i = 0; i < nrows; i++) {
            if (rd[(size_t)j * nrows + i]) {
                raid_plan_io(p, RAID_STEP_READ, 0, first + j,
                             row_lba(l, first + j, row + i), len, mbuf[j],
                             (uint64_t)i * len * RAID_SECTOR_SIZE);
            }
        }
    }
    for (uint32_t i = 0; i < nrows; i++) {
        raid_plan_step(p, RAID_STEP_RECOVER, 1)->group = groups[i];
    }
    raid_plan_io(p, RAID_STEP_WRITE, 1, target, row_lba(l, target, row),
                 len * nrows, mbuf[target - first], 0);
    return p;
}

RaidPlan *raid_plan_copy_row(const RaidLayout *l, const RaidMemberState *st,
                             uint64_t row, uint32_t src)
{
    RaidPlan *p = raid_plan_new(RAID_OP_WRITE);
    uint32_t len = raid_layout_row_len(l, row);
    uint32_t b;

    if (src >= l->members || l->members >= RAID_MAX_MEMBERS || !len) {
        return raid_plan_fail(p, -EINVAL);
    }
    if (!raid_st_readable(st, src, row << l->strip_shift, len)) {
        return raid_plan_fail(p, -EIO);
    }
    p->has_rows = true;
    p->exclusive = true;
    p->first_row = p->last_row = row;
    b = raid_plan_buf(p, len);
    raid_plan_io(p, RAID_STEP_READ, 0, src, row_lba(l, src, row), len, b, 0);
    raid_plan_io(p, RAID_STEP_WRITE, 1, RAID_COPY_TARGET(l),
                 row_lba(l, src, row), len, b, 0);
    return p;
}

RaidPlan *raid_plan_copy_row_rebuilt(const RaidLayout *l,
                                     const RaidMemberState *st, uint64_t row,
                                     uint32_t src)
{
    RaidPlan *p;

    if (src >= l->members || l->members >= RAID_MAX_MEMBERS) {
        return raid_plan_fail(raid_plan_new(RAID_OP_WRITE), -EINVAL);
    }
    /* the source's strip from the others, written to the target instead */
    p = raid_plan_rebuild_row(l, st, row, src);
    for (guint i = 0; !p->error && i < p->steps->len; i++) {
        RaidStep *s = &g_array_index(p->steps, RaidStep, i);

        if (s->kind == RAID_STEP_WRITE && s->member == src) {
            s->member = RAID_COPY_TARGET(l);
        }
    }
    return p;
}

static void compare(RaidPlan *p, uint32_t a, uint32_t b, uint32_t len)
{
    RaidStep *s = raid_plan_step(p, RAID_STEP_COMPARE, 1);

    s->buf = a;
    s->buf2 = b;
    s->sectors = len;
}

static void check_mirror_span(RaidPlan *p, const RaidLayout *l,
                              const RaidMemberState *st, uint64_t row,
                              uint32_t span, uint32_t len, bool repair)
{
    uint64_t rel = row << l->strip_shift;
    uint32_t ref = UINT32_MAX, refbuf = 0;

    for (uint32_t i = 0; i < l->span_members; i++) {
        uint32_t m = span * l->span_members + i;
        uint32_t b;

        if (!raid_st_readable(st, m, rel, len)) {
            continue;
        }
        b = raid_plan_buf(p, len);
        raid_plan_io(p, RAID_STEP_READ, 0, m, row_lba(l, m, row), len, b, 0);
        if (ref == UINT32_MAX) {
            ref = m;
            refbuf = b;
            continue;
        }
        compare(p, refbuf, b, len);
        if (repair) {
            raid_plan_io(p, RAID_STEP_WRITE, 1, m, row_lba(l, m, row), len,
                         refbuf, 0);
            g_array_index(p->steps, RaidStep, p->steps->len - 1).flags =
                RAID_STEP_F_IF_MISMATCH;
        }
    }
}

static void check_parity_span(RaidPlan *p, const RaidLayout *l,
                              const RaidMemberState *st, uint64_t row,
                              uint32_t span, uint32_t len, bool repair)
{
    uint64_t rel = row << l->strip_shift;
    uint32_t first = span * l->span_members;
    RaidPlanGroup g, n;
    uint32_t pm = raid_layout_p_member(l, row, span);
    uint32_t qm = raid_layout_q_member(l, row, span);

    for (uint32_t i = 0; i < l->span_members; i++) {
        if (!raid_st_readable(st, first + i, rel, len)) {
            return;
        }
    }
    span_group(p, l, row, span, len, &g);
    for (uint32_t i = 0; i < l->span_members; i++) {
        int idx;
        uint32_t b = member_buf(l, &g, row, first + i, &idx);

        raid_plan_io(p, RAID_STEP_READ, 0, first + i,
                     row_lba(l, first + i, row), len, b, 0);
    }
    n = g;
    n.p_buf = raid_plan_buf(p, len);
    n.q_buf = g.q_buf ? raid_plan_buf(p, len) : 0;
    raid_plan_step(p, RAID_STEP_GEN, 1)->group = raid_plan_group(p, &n);
    compare(p, g.p_buf, n.p_buf, len);
    if (n.q_buf) {
        compare(p, g.q_buf, n.q_buf, len);
    }
    if (repair) {
        raid_plan_io(p, RAID_STEP_WRITE, 1, pm, row_lba(l, pm, row), len,
                     n.p_buf, 0);
        g_array_index(p->steps, RaidStep, p->steps->len - 1).flags =
            RAID_STEP_F_IF_MISMATCH;
        if (n.q_buf) {
            raid_plan_io(p, RAID_STEP_WRITE, 1, qm, row_lba(l, qm, row),
                         len, n.q_buf, 0);
            g_array_index(p->steps, RaidStep, p->steps->len - 1).flags =
                RAID_STEP_F_IF_MISMATCH;
        }
    }
}

RaidPlan *raid_plan_check_row(const RaidLayout *l, const RaidMemberState *st,
                              uint64_t row, bool repair)
{
    RaidPlan *p = raid_plan_new(RAID_OP_READ);
    uint32_t len = raid_layout_row_len(l, row);

    if (!len) {
        return raid_plan_fail(p, -EINVAL);
    }
    p->has_rows = true;
    p->exclusive = repair;
    p->first_row = p->last_row = row;
    for (uint32_t span = 0; span < l->spans; span++) {
        if (is_mirror(l)) {
            check_mirror_span(p, l, st, row, span, len, repair);
        } else if (is_parity(l)) {
            check_parity_span(p, l, st, row, span, len, repair);
        }
    }
    return p;
}
