/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: request planner.  Turns read, write, flush and unmap of a VD
 * range into member I/O and parity steps: direct member I/O for RAID 0,
 * JBOD and mirrors; per stripe full-stripe, reconstruct-write,
 * read-modify-write or degraded (reconstruct, then write) plans for
 * RAID 5/6/50/60.
 */
#include <errno.h>
#include <string.h>
#include "plan-int.h"

#define SECTOR RAID_SECTOR_SIZE

/* ---- plan building ---------------------------------------------------- */

RaidPlan *raid_plan_new(RaidOp op)
{
    RaidPlan *p = g_new0(RaidPlan, 1);
    uint32_t zero = 0;

    p->op = op;
    p->steps = g_array_new(false, true, sizeof(RaidStep));
    p->buf_size = g_array_new(false, true, sizeof(uint32_t));
    p->groups = g_array_new(false, true, sizeof(RaidPlanGroup));
    g_array_append_val(p->buf_size, zero);      /* id 0: host */
    return p;
}

void raid_plan_free(RaidPlan *p)
{
    if (p) {
        g_array_free(p->steps, true);
        g_array_free(p->buf_size, true);
        g_array_free(p->groups, true);
        g_free(p);
    }
}

RaidPlan *raid_plan_fail(RaidPlan *p, int err)
{
    p->error = err;
    g_array_set_size(p->steps, 0);
    g_array_set_size(p->buf_size, 1);
    g_array_set_size(p->groups, 0);
    p->nphases = 0;
    return p;
}

uint32_t raid_plan_buf(RaidPlan *p, uint32_t sectors)
{
    uint32_t bytes = sectors * SECTOR;

    g_array_append_val(p->buf_size, bytes);
    return p->buf_size->len - 1;
}

RaidStep *raid_plan_step(RaidPlan *p, RaidStepKind kind, unsigned phase)
{
    RaidStep s = { .kind = kind, .phase = phase };

    g_array_append_val(p->steps, s);
    p->nphases = MAX(p->nphases, phase + 1);
    return &g_array_index(p->steps, RaidStep, p->steps->len - 1);
}

void raid_plan_io(RaidPlan *p, RaidStepKind kind, unsigned phase,
                  uint32_t member, uint64_t lba, uint32_t sectors,
                  uint32_t buf, uint64_t off)
{
    RaidStep *s;

    if (kind == RAID_STEP_READ) {
        p->cost.member_reads++;
        p->cost.read_sectors += sectors;
    } else if (kind == RAID_STEP_WRITE || kind == RAID_STEP_DISCARD) {
        p->cost.member_writes++;
        p->cost.write_sectors += sectors;
    }
    /*
     * Discards of whole stripes come member after member: look back one
     * stripe's worth of steps for the same member.
     */
    for (guint back = 1; kind == RAID_STEP_DISCARD && back <= p->steps->len &&
         back <= RAID_MAX_SPAN_MEMBERS; back++) {
        s = &g_array_index(p->steps, RaidStep, p->steps->len - back);
        if (s->kind == kind && s->phase == phase && s->member == member &&
            !s->flags && s->member_lba + s->sectors == lba &&
            s->sectors + (uint64_t)sectors <= 0x10000) {
            s->sectors += sectors;
            p->cost.member_writes--;
            return;
        }
    }
    if (p->steps->len) {
        s = &g_array_index(p->steps, RaidStep, p->steps->len - 1);
        if (s->kind == kind && s->phase == phase && s->member == member &&
            !s->flags && s->buf == buf && s->member_lba + s->sectors == lba &&
            s->sectors + (uint64_t)sectors <= 0x10000 &&
            (kind == RAID_STEP_DISCARD ||
             (buf == RAID_BUF_HOST ?
              s->host_off + (uint64_t)s->sectors * SECTOR == off :
              s->buf_off + (uint64_t)s->sectors * SECTOR == off))) {
            s->sectors += sectors;
            if (kind == RAID_STEP_READ) {
                p->cost.member_reads--;
            } else {
                p->cost.member_writes--;
            }
            return;
        }
    }
    s = raid_plan_step(p, kind, phase);
    s->member = member;
    s->member_lba = lba;
    s->sectors = sectors;
    s->buf = buf;
    if (buf == RAID_BUF_HOST) {
        s->host_off = off;
    } else {
        s->buf_off = off;
    }
}

uint32_t raid_plan_group(RaidPlan *p, const RaidPlanGroup *g)
{
    g_array_append_val(p->groups, *g);
    return p->groups->len - 1;
}

bool raid_member_readable(const RaidMemberState *st, uint64_t off,
                          uint64_t len)
{
    switch (st->status) {
    case RAID_MEMBER_ONLINE:
        return true;
    case RAID_MEMBER_REBUILDING:
        return off + len <= st->rebuilt;
    default:
        return false;
    }
}

static void copy_step(RaidPlan *p, RaidStepKind kind, unsigned phase,
                      uint32_t buf, uint32_t buf_off, uint64_t host_off,
                      uint32_t sectors)
{
    RaidStep *s = raid_plan_step(p, kind, phase);

    s->buf = buf;
    s->buf_off = buf_off;
    s->host_off = host_off;
    s->sectors = sectors;
}

static void group_step(RaidPlan *p, RaidStepKind kind, unsigned phase,
                       const RaidPlanGroup *g)
{
    RaidStep *s = raid_plan_step(p, kind, phase);

    s->group = raid_plan_group(p, g);
}

/* ---- RAID 0, JBOD, RAID 1/10 --------------------------------------------- */

static int plan_direct(RaidPlan *p, const RaidLayout *l,
                       const RaidMemberState *st, const RaidRequest *req)
{
    bool mirror = l->level == RAID_LEVEL_1 || l->level == RAID_LEVEL_10;
    uint64_t lba = req->lba, end = req->lba + req->sectors;

    while (lba < end) {
        RaidExtent e;
        uint64_t host_off = (lba - req->lba) * SECTOR;
        uint32_t first;
        uint64_t rel;

        raid_layout_map(l, lba, end - lba, &e);
        first = e.member;
        rel = e.member_lba - l->member_start[e.member];
        if (req->op == RAID_OP_READ) {
            uint32_t pick = UINT32_MAX;
            uint32_t copies = mirror ? l->span_members : 1;

            for (uint32_t i = 0; i < copies; i++) {
                uint32_t m = first + (uint32_t)((e.row + i) % copies);

                if (raid_st_readable(st, m, rel, e.sectors)) {
                    pick = m;
                    break;
                }
            }
            if (pick == UINT32_MAX) {
                return -EIO;
            }
            raid_plan_io(p, RAID_STEP_READ, 0, pick,
                         l->member_start[pick] + rel, e.sectors,
                         RAID_BUF_HOST, host_off);
        } else {
            uint32_t copies = mirror ? l->span_members : 1;
            uint32_t done = 0;

            for (uint32_t i = 0; i < copies; i++) {
                uint32_t m = first + i;

                if (!raid_member_writable(&st[m])) {
                    continue;
                }
                raid_plan_io(p, req->op == RAID_OP_WRITE ?
                             RAID_STEP_WRITE : RAID_STEP_DISCARD, 0, m,
                             l->member_start[m] + rel, e.sectors,
                             RAID_BUF_HOST, host_off);
                done++;
            }
            if (!done) {
                return -EIO;
            }
        }
        lba += e.sectors;
    }
    return 0;
}

/* ---- RAID 5/6/50/60 ------------------------------------------------------ */

typedef struct Stripe {
    uint64_t row;
    uint32_t span;
    bool touched;
    /* per data index: piece [lo, hi) in strip sectors; hi == 0: none */
    uint32_t lo[RAID_PARITY_MAX_DATA], hi[RAID_PARITY_MAX_DATA];
    uint64_t host_off[RAID_PARITY_MAX_DATA];
} Stripe;

typedef struct StripeCtx {
    RaidPlan *p;
    const RaidLayout *l;
    const RaidMemberState *st;
    const RaidRequest *req;
    RaidWriteMode mode;
    const Stripe *s;
    uint32_t lo, hi;            /* hull of the touched pieces */
    uint32_t pm, qm;            /* P and Q members, qm UINT32_MAX if none */
    uint32_t dm[RAID_PARITY_MAX_DATA];
} StripeCtx;

static bool sc_readable(const StripeCtx *c, uint32_t m, uint32_t lo,
                        uint32_t hi)
{
    return raid_st_readable(c->st, m, (c->s->row << c->l->strip_shift) + lo,
                            hi - lo);
}

static uint64_t sc_lba(const StripeCtx *c, uint32_t m, uint32_t off)
{
    return c->l->member_start[m] + (c->s->row << c->l->strip_shift) + off;
}

/*
 * Put new data of piece d into buffer `buf` that starts at strip offset
 * buf_lo: from the host, or zeroes for unmap.
 */
static void sc_fill(const StripeCtx *c, unsigned phase, uint32_t d,
                    uint32_t buf, uint32_t buf_lo)
{
    const Stripe *s = c->s;

    copy_step(c->p, c->req->op == RAID_OP_WRITE ? RAID_STEP_COPY_IN :
              RAID_STEP_ZERO, phase, buf, (s->lo[d] - buf_lo) * SECTOR,
              s->host_off[d], s->hi[d] - s->lo[d]);
}

static void sc_group_init(const StripeCtx *c, RaidPlanGroup *g)
{
    const RaidLayout *l = c->l;

    memset(g, 0, sizeof(*g));
    g->ndata = l->span_data;
    for (uint32_t d = 0; d < l->span_data; d++) {
        g->exp[d] = raid_layout_q_exp(l, c->s->row, c->s->span, d);
    }
    g->len = (c->hi - c->lo) * SECTOR;
    g->miss_a = g->miss_b = RAID_STRIP_NONE;
}

static int plan_stripe_read(StripeCtx *c)
{
    const Stripe *s = c->s;
    const RaidLayout *l = c->l;
    RaidPlan *p = c->p;
    uint32_t rlo = UINT32_MAX, rhi = 0;
    int miss[2] = { RAID_STRIP_NONE, RAID_STRIP_NONE }, nmiss = 0;
    RaidPlanGroup g;
    bool need_q;

    for (uint32_t d = 0; d < l->span_data; d++) {
        if (!s->hi[d]) {
            continue;
        }
        if (sc_readable(c, c->dm[d], s->lo[d], s->hi[d])) {
            raid_plan_io(p, RAID_STEP_READ, 0, c->dm[d],
                         sc_lba(c, c->dm[d], s->lo[d]), s->hi[d] - s->lo[d],
                         RAID_BUF_HOST, s->host_off[d]);
        } else {
            rlo = MIN(rlo, s->lo[d]);
            rhi = MAX(rhi, s->hi[d]);
        }
    }
    if (rhi == 0) {
        return 0;
    }
    /* Reconstruct [rlo, rhi) of the stripe. */
    c->lo = rlo;
    c->hi = rhi;
    p->cost.degraded_stripes++;
    sc_group_init(c, &g);
    for (uint32_t d = 0; d < l->span_data; d++) {
        if (!sc_readable(c, c->dm[d], rlo, rhi)) {
            if (nmiss == 2) {
                return -EIO;
            }
            miss[nmiss++] = d;
        }
    }
    if (!sc_readable(c, c->pm, rlo, rhi)) {
        if (nmiss == 2) {
            return -EIO;
        }
        miss[nmiss++] = RAID_STRIP_P;
    }
    need_q = nmiss == 2 || (nmiss == 1 && miss[0] == RAID_STRIP_P);
    if (need_q && (c->qm == UINT32_MAX || !sc_readable(c, c->qm, rlo, rhi))) {
        return -EIO;
    }
    for (uint32_t d = 0; d < l->span_data; d++) {
        g.data_buf[d] = raid_plan_buf(p, rhi - rlo);
        if (d != (uint32_t)miss[0] && (nmiss < 2 || d != (uint32_t)miss[1])) {
            raid_plan_io(p, RAID_STEP_READ, 0, c->dm[d],
                         sc_lba(c, c->dm[d], rlo), rhi - rlo,
                         g.data_buf[d], 0);
        }
    }
    g.p_buf = raid_plan_buf(p, rhi - rlo);
    if (miss[0] != RAID_STRIP_P && (nmiss < 2 || miss[1] != RAID_STRIP_P)) {
        raid_plan_io(p, RAID_STEP_READ, 0, c->pm, sc_lba(c, c->pm, rlo),
                     rhi - rlo, g.p_buf, 0);
    }
    if (need_q) {
        g.q_buf = raid_plan_buf(p, rhi - rlo);
        raid_plan_io(p, RAID_STEP_READ, 0, c->qm, sc_lba(c, c->qm, rlo),
                     rhi - rlo, g.q_buf, 0);
    }
    g.miss_a = miss[0];
    g.miss_b = nmiss == 2 ? miss[1] : RAID_STRIP_NONE;
    group_step(p, RAID_STEP_RECOVER, 1, &g);
    for (uint32_t d = 0; d < l->span_data; d++) {
        if (s->hi[d] && !sc_readable(c, c->dm[d], s->lo[d], s->hi[d])) {
            copy_step(p, RAID_STEP_COPY_OUT, 1, g.data_buf[d],
                      (s->lo[d] - rlo) * SECTOR, s->host_off[d],
                      s->hi[d] - s->lo[d]);
        }
    }
    return 0;
}

/* Write data pieces and parity from a group whose buffers cover [lo, hi). */
static void sc_write_out(StripeCtx *c, const RaidPlanGroup *g,
                         unsigned phase)
{
    const Stripe *s = c->s;
    RaidPlan *p = c->p;

    for (uint32_t d = 0; d < c->l->span_data; d++) {
        if (s->hi[d] && raid_member_writable(&c->st[c->dm[d]])) {
            raid_plan_io(p, RAID_STEP_WRITE, phase, c->dm[d],
                         sc_lba(c, c->dm[d], s->lo[d]), s->hi[d] - s->lo[d],
                         g->data_buf[d], (s->lo[d] - c->lo) * SECTOR);
        }
    }
    if (raid_member_writable(&c->st[c->pm])) {
        raid_plan_io(p, RAID_STEP_WRITE, phase, c->pm,
                     sc_lba(c, c->pm, c->lo), c->hi - c->lo, g->p_buf,
                     g->poff);
    }
    if (c->qm != UINT32_MAX && raid_member_writable(&c->st[c->qm])) {
        raid_plan_io(p, RAID_STEP_WRITE, phase, c->qm,
                     sc_lba(c, c->qm, c->lo), c->hi - c->lo, g->q_buf,
                     g->poff);
    }
}

static void plan_stripe_rmw(StripeCtx *c)
{
    const Stripe *s = c->s;
    RaidPlan *p = c->p;
    uint32_t pb, qb = 0;

    p->cost.rmw_stripes++;
    pb = raid_plan_buf(p, c->hi - c->lo);
    raid_plan_io(p, RAID_STEP_READ, 0, c->pm, sc_lba(c, c->pm, c->lo),
                 c->hi - c->lo, pb, 0);
    if (c->qm != UINT32_MAX) {
        qb = raid_plan_buf(p, c->hi - c->lo);
        raid_plan_io(p, RAID_STEP_READ, 0, c->qm, sc_lba(c, c->qm, c->lo),
                     c->hi - c->lo, qb, 0);
    }
    for (uint32_t d = 0; d < c->l->span_data; d++) {
        RaidPlanGroup g;
        uint32_t len = s->hi[d] - s->lo[d];

        if (!s->hi[d]) {
            continue;
        }
        sc_group_init(c, &g);
        g.ndata = 1;
        g.exp[0] = raid_layout_q_exp(c->l, s->row, s->span, d);
        g.data_buf[0] = raid_plan_buf(p, len);
        g.old_buf[0] = raid_plan_buf(p, len);
        g.p_buf = pb;
        g.q_buf = qb;
        g.len = len * SECTOR;
        g.poff = (s->lo[d] - c->lo) * SECTOR;
        raid_plan_io(p, RAID_STEP_READ, 0, c->dm[d],
                     sc_lba(c, c->dm[d], s->lo[d]), len, g.old_buf[0], 0);
        sc_fill(c, 1, d, g.data_buf[0], s->lo[d]);
        group_step(p, RAID_STEP_DELTA, 1, &g);
        raid_plan_io(p, RAID_STEP_WRITE, 1, c->dm[d],
                     sc_lba(c, c->dm[d], s->lo[d]), len, g.data_buf[0], 0);
    }
    raid_plan_io(p, RAID_STEP_WRITE, 1, c->pm, sc_lba(c, c->pm, c->lo),
                 c->hi - c->lo, pb, 0);
    if (qb) {
        raid_plan_io(p, RAID_STEP_WRITE, 1, c->qm, sc_lba(c, c->qm, c->lo),
                     c->hi - c->lo, qb, 0);
    }
}

/*
 * Reconstruct-write, full-stripe write and degraded write: all data of
 * [lo, hi) in buffers (read, recovered or new), then P/Q generated.
 */
static int plan_stripe_rcw(StripeCtx *c, bool degraded, bool full_stripe)
{
    const Stripe *s = c->s;
    const RaidLayout *l = c->l;
    RaidPlan *p = c->p;
    uint32_t len = c->hi - c->lo;
    bool full[RAID_PARITY_MAX_DATA], ok[RAID_PARITY_MAX_DATA];
    bool p_ok, q_ok, recover = false;
    int miss[2] = { RAID_STRIP_NONE, RAID_STRIP_NONE };
    uint32_t nbad = 0, ndata_bad = 0;
    RaidPlanGroup g;

    sc_group_init(c, &g);
    for (uint32_t d = 0; d < l->span_data; d++) {
        full[d] = s->hi[d] && s->lo[d] <= c->lo && s->hi[d] >= c->hi;
        ok[d] = sc_readable(c, c->dm[d], c->lo, c->hi);
        if (!ok[d]) {
            nbad++;
            if (ndata_bad < 2) {
                miss[ndata_bad] = d;
            }
            ndata_bad++;
            recover = recover || !full[d];
        }
        g.data_buf[d] = raid_plan_buf(p, len);
    }
    p_ok = sc_readable(c, c->pm, c->lo, c->hi);
    q_ok = c->qm != UINT32_MAX && sc_readable(c, c->qm, c->lo, c->hi);
    nbad += !p_ok + (c->qm != UINT32_MAX && !q_ok);
    if (nbad > l->parity) {
        return -EIO;
    }
    g.p_buf = raid_plan_buf(p, len);
    if (c->qm != UINT32_MAX) {
        g.q_buf = raid_plan_buf(p, len);
    }
    for (uint32_t d = 0; d < l->span_data; d++) {
        if (ok[d] && (recover || !full[d])) {
            raid_plan_io(p, RAID_STEP_READ, 0, c->dm[d],
                         sc_lba(c, c->dm[d], c->lo), len, g.data_buf[d], 0);
        }
    }
    if (recover) {
        /* Old contents of unreadable, partly written strips. */
        bool need_q = ndata_bad == 2 || !p_ok;

        if (!p_ok) {
            miss[1] = RAID_STRIP_P;
        } else {
            raid_plan_io(p, RAID_STEP_READ, 0, c->pm, sc_lba(c, c->pm, c->lo),
                         len, g.p_buf, 0);
        }
        if (need_q) {
            raid_plan_io(p, RAID_STEP_READ, 0, c->qm, sc_lba(c, c->qm, c->lo),
                         len, g.q_buf, 0);
        }
        g.miss_a = miss[0];
        g.miss_b = miss[1];
        group_step(p, RAID_STEP_RECOVER, 1, &g);
    }
    if (degraded) {
        p->cost.degraded_stripes++;
    } else if (full_stripe) {
        p->cost.full_stripes++;
    } else {
        p->cost.rcw_stripes++;
    }
    for (uint32_t d = 0; d < l->span_data; d++) {
        if (s->hi[d]) {
            sc_fill(c, 1, d, g.data_buf[d], c->lo);
        }
    }
    g.miss_a = g.miss_b = RAID_STRIP_NONE;
    group_step(p, RAID_STEP_GEN, 1, &g);
    sc_write_out(c, &g, 1);
    return 0;
}

/*
 * A degraded stripe can still take a read-modify-write when every strip
 * it writes and every parity strip are readable over the written range:
 * the lost strip is then one the write does not touch, and updating P/Q
 * by the delta keeps them consistent with its (unchanged) contents, so a
 * later rebuild or degraded read still recovers it.  Reconstructing would
 * read every surviving data strip and P instead: use RMW when it reads
 * fewer strips (and always in RMW mode, never in RCW mode).
 */
static bool plan_stripe_rmw_degraded(const StripeCtx *c, uint32_t rmw_reads)
{
    const Stripe *s = c->s;

    if (c->mode == RAID_WRITE_RCW) {
        return false;
    }
    for (uint32_t d = 0; d < c->l->span_data; d++) {
        if (s->hi[d] && !sc_readable(c, c->dm[d], s->lo[d], s->hi[d])) {
            return false;
        }
    }
    if (!sc_readable(c, c->pm, c->lo, c->hi) ||
        (c->qm != UINT32_MAX && !sc_readable(c, c->qm, c->lo, c->hi))) {
        return false;
    }
    return c->mode == RAID_WRITE_RMW || rmw_reads < c->l->span_data;
}

static int plan_stripe_write(StripeCtx *c)
{
    const Stripe *s = c->s;
    const RaidLayout *l = c->l;
    uint32_t touched = 0, partial = 0, rcw_reads, rmw_reads;
    bool healthy = true, full = true;

    for (uint32_t d = 0; d < l->span_data; d++) {
        if (s->hi[d]) {
            touched++;
            if (s->lo[d] > c->lo || s->hi[d] < c->hi) {
                partial++;
            }
        }
        full = full && s->lo[d] == 0 && s->hi[d] == l->strip;
        healthy = healthy && sc_readable(c, c->dm[d], c->lo, c->hi);
    }
    healthy = healthy && sc_readable(c, c->pm, c->lo, c->hi) &&
              (c->qm == UINT32_MAX || sc_readable(c, c->qm, c->lo, c->hi));

    if (full && c->req->op == RAID_OP_UNMAP) {
        /* A whole stripe of zeroes has zero parity: discard it all. */
        for (uint32_t i = 0; i < l->span_members; i++) {
            uint32_t m = s->span * l->span_members + i;

            if (raid_member_writable(&c->st[m])) {
                raid_plan_io(c->p, RAID_STEP_DISCARD, 0, m, sc_lba(c, m, 0),
                             l->strip, RAID_BUF_HOST, 0);
            }
        }
        c->p->cost.full_stripes++;
        return 0;
    }
    rmw_reads = touched + l->parity;
    if (!full && !healthy && plan_stripe_rmw_degraded(c, rmw_reads)) {
        plan_stripe_rmw(c);
        return 0;
    }
    if (full || !healthy) {
        return plan_stripe_rcw(c, !healthy, full);
    }
    rcw_reads = l->span_data - touched + partial;
    if (c->mode == RAID_WRITE_RMW ||
        (c->mode == RAID_WRITE_AUTO && rmw_reads < rcw_reads)) {
        plan_stripe_rmw(c);
        return 0;
    }
    return plan_stripe_rcw(c, false, false);
}

static int plan_parity(RaidPlan *p, const RaidLayout *l,
                       const RaidMemberState *st, const RaidRequest *req,
                       RaidWriteMode mode)
{
    uint64_t nstripes = (p->last_row - p->first_row + 1) * l->spans;
    Stripe *stripes = g_new0(Stripe, nstripes);
    uint64_t lba = req->lba, end = req->lba + req->sectors;
    int ret = 0;

    while (lba < end) {
        RaidExtent e;
        Stripe *s;

        raid_layout_map(l, lba, end - lba, &e);
        s = &stripes[(e.row - p->first_row) * l->spans + e.span];
        s->row = e.row;
        s->span = e.span;
        s->touched = true;
        s->lo[e.data_index] = e.strip_offset;
        s->hi[e.data_index] = e.strip_offset + e.sectors;
        s->host_off[e.data_index] = (lba - req->lba) * SECTOR;
        lba += e.sectors;
    }
    for (uint64_t i = 0; i < nstripes && !ret; i++) {
        StripeCtx c = {
            .p = p, .l = l, .st = st, .req = req, .mode = mode,
            .s = &stripes[i], .lo = UINT32_MAX, .hi = 0,
        };

        if (!stripes[i].touched) {
            continue;
        }
        for (uint32_t d = 0; d < l->span_data; d++) {
            c.dm[d] = raid_layout_data_member(l, c.s->row, c.s->span, d);
            if (c.s->hi[d]) {
                c.lo = MIN(c.lo, c.s->lo[d]);
                c.hi = MAX(c.hi, c.s->hi[d]);
            }
        }
        c.pm = raid_layout_p_member(l, c.s->row, c.s->span);
        c.qm = raid_layout_q_member(l, c.s->row, c.s->span);
        ret = req->op == RAID_OP_READ ? plan_stripe_read(&c)
                                      : plan_stripe_write(&c);
    }
    g_free(stripes);
    return ret;
}

/* ---- entry point --------------------------------------------------------- */

RaidPlan *raid_plan_request(const RaidLayout *l, const RaidMemberState *st,
                            const RaidRequest *req, RaidWriteMode mode)
{
    RaidPlan *p = raid_plan_new(req->op);
    int ret;

    if (req->op == RAID_OP_FLUSH) {
        for (uint32_t m = 0; m < l->members; m++) {
            if (raid_member_writable(&st[m])) {
                RaidStep *s = raid_plan_step(p, RAID_STEP_FLUSH, 0);

                s->member = m;
            }
        }
        return p;
    }
    if (!req->sectors || req->lba >= l->vd_sectors ||
        req->sectors > l->vd_sectors - req->lba) {
        return raid_plan_fail(p, -EINVAL);
    }
    p->has_rows = true;
    p->exclusive = req->op != RAID_OP_READ;
    raid_layout_rows(l, req->lba, req->sectors, &p->first_row, &p->last_row);
    if (l->parity && (l->level == RAID_LEVEL_5 || l->level == RAID_LEVEL_6 ||
                      l->level == RAID_LEVEL_50 ||
                      l->level == RAID_LEVEL_60)) {
        ret = plan_parity(p, l, st, req, mode);
    } else {
        ret = plan_direct(p, l, st, req);
    }
    return ret ? raid_plan_fail(p, ret) : p;
}

static const char *const step_names[] = {
    [RAID_STEP_READ] = "read", [RAID_STEP_WRITE] = "write",
    [RAID_STEP_FLUSH] = "flush", [RAID_STEP_DISCARD] = "discard",
    [RAID_STEP_COPY_IN] = "copy-in", [RAID_STEP_COPY_OUT] = "copy-out",
    [RAID_STEP_ZERO] = "zero", [RAID_STEP_COPY] = "copy",
    [RAID_STEP_GEN] = "gen", [RAID_STEP_RECOVER] = "recover",
    [RAID_STEP_DELTA] = "delta", [RAID_STEP_COMPARE] = "compare",
};

char *raid_plan_describe(const RaidPlan *p)
{
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "error %d rows %" PRIu64 "-%" PRIu64 "\n",
                           p->error, p->first_row, p->last_row);
    for (guint i = 0; i < p->steps->len; i++) {
        const RaidStep *t = &g_array_index(p->steps, RaidStep, i);

        g_string_append_printf(s, "%u %s", t->phase, step_names[t->kind]);
        switch (t->kind) {
        case RAID_STEP_READ:
        case RAID_STEP_WRITE:
        case RAID_STEP_DISCARD:
            g_string_append_printf(s, " m%u @%" PRIu64 " +%u buf%u",
                                   t->member, t->member_lba, t->sectors,
                                   t->buf);
            break;
        case RAID_STEP_FLUSH:
            g_string_append_printf(s, " m%u", t->member);
            break;
        case RAID_STEP_GEN:
        case RAID_STEP_RECOVER:
        case RAID_STEP_DELTA: {
            const RaidPlanGroup *g = &g_array_index(p->groups, RaidPlanGroup,
                                                    t->group);
            g_string_append_printf(s, " g%u miss %d,%d", t->group,
                                   g->miss_a, g->miss_b);
            break;
        }
        default:
            g_string_append_printf(s, " buf%u+%u +%u", t->buf, t->buf_off,
                                   t->sectors);
        }
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, false);
}
