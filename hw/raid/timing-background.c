/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model, background work and closed-form helpers.
 *
 * Owns the costing of one chunk of rebuild, check or initialization, the
 * meaning of rebuild-rate (pipeline depth and floor share, the duty cycle
 * of each pipeline slot in modelled time), and the helpers that run the
 * model on an empty controller: the unloaded read latency and the
 * duration of an idle rebuild.
 *
 * A chunk is a serial chain (firmware latency, member reads, XOR, target
 * write) on the drives and the parity engine, plus the shared work it
 * puts on the firmware (per 4 KiB line), the cache (in and out) and the
 * back end, booked at issue.  Every booking is background work: it keeps
 * its floor share of a resource the foreground has a backlog on and runs
 * at full speed elsewhere (timing-resource.c).
 */
#include <math.h>
#include "timing-int.h"

/* Depths within this of an integer need no extra slot. */
#define DEPTH_EPSILON 0.000001

static unsigned clamp_rate(unsigned rate)
{
    return rate < 1 ? 1 : rate > 100 ? 100 : rate;
}

double timing_background_depth(const TimingCtrlProfile *c, unsigned rate)
{
    return c->bg_depth_full * clamp_rate(rate) / 100.0;
}

double timing_background_floor(const TimingCtrlProfile *c, unsigned rate)
{
    return fmin(0.95, c->bg_floor_full * clamp_rate(rate) / 100.0);
}

unsigned timing_background_slots(const TimingCtrlProfile *c, unsigned rate)
{
    unsigned n = (unsigned)ceil(timing_background_depth(c, rate) -
                                DEPTH_EPSILON);

    return MAX(n, 1u);
}

uint64_t timing_background_rest_ns(const TimingCtrlProfile *c, unsigned rate,
                                   unsigned slot, uint64_t busy_ns)
{
    double f = fmin(1.0, timing_background_depth(c, rate) - slot);

    if (f >= 1.0) {
        return 0;
    }
    if (f <= 0.0) {
        return UINT64_MAX;
    }
    return (uint64_t)llround(busy_ns * (1 - f) / f);
}

static bool level_mirror(RaidLevel l)
{
    return l == RAID_LEVEL_1 || l == RAID_LEVEL_10;
}

/* The member a drive is in, vd->members if none. */
static uint32_t member_of(const TimingVd *vd, int drive)
{
    uint32_t i = 0;

    while (i < vd->members && vd->drive[i] != drive) {
        i++;
    }
    return i;
}

/* Book one member I/O of a chunk at t as background; returns its end. */
static double bg_drive(TimingModel *m, int d, bool write, double bytes,
                       double t, double g)
{
    const TimingDriveRt *dr = &m->drive[d];
    double media = timing_drive_media_ns(dr, write, 1, bytes, true);
    double fin;

    fin = timing_res_book_bg(&m->res[TR_DRIVE_MEDIA(d)], t, media, g);
    fin = fmax(fin, timing_res_book_bg(&m->res[write ? TR_DRIVE_DOWN(d) :
                                                TR_DRIVE_UP(d)],
                                       t, bytes * dr->link_ns_b, g));
    return fin + (write ? dr->p->write_lat_ns : dr->p->read_lat_ns);
}

uint64_t timing_background_submit(TimingModel *m, uint64_t now_ns,
                                  unsigned rate, const TimingBackground *bg)
{
    const TimingCtrlProfile *c = m->c;
    const TimingVd *vd = bg->vd;
    TimingDemand *dm = &m->dm;
    double g = timing_background_floor(c, rate);
    double t = (double)now_ns, bytes = bg->bytes ? bg->bytes :
                                       c->bg_chunk_bytes;
    int src[RAID_MAX_SPAN_MEMBERS];
    unsigned nsrc = 0, ndst = 0, span0 = 0, span_n = vd->members;
    int dst[RAID_MAX_SPAN_MEMBERS];
    double t_rd, t_x, t_end, shared;

    /* the span the chunk works on: the target's (rebuild) or the first */
    if (bg->kind == TIMING_BG_REBUILD) {
        uint32_t i = member_of(vd, bg->target_drive);

        if (i == vd->members || !(level_mirror(vd->level) ||
                                  raid_level_parity(vd->level))) {
            return now_ns;
        }
        span0 = i / vd->span_members * vd->span_members;
        span_n = vd->span_members;
    } else if (vd->span_members) {
        span_n = MIN(vd->span_members, vd->members);
    }
    span_n = MIN(span_n, RAID_MAX_SPAN_MEMBERS);
    for (uint32_t i = span0; i < span0 + span_n; i++) {
        int d = vd->drive[i];

        if (d < 0 || (unsigned)d >= m->ndrives) {
            continue;
        }
        if (bg->kind == TIMING_BG_INIT) {
            dst[ndst++] = d;
        } else if (bg->kind == TIMING_BG_REBUILD && d == bg->target_drive) {
            dst[ndst++] = d;
        } else if (bg->kind == TIMING_BG_REBUILD &&
                   level_mirror(vd->level) && nsrc) {
            continue;           /* one mirror copy is enough */
        } else {
            src[nsrc++] = d;
        }
    }

    /* shared work, booked at issue */
    timing_demand_clear(dm);
    timing_demand_add(dm, TR_FW, c->fw_line_ns * bytes / 4096 *
                      MAX(1u, ndst) +
                      c->fw_backend_cmd_ns * (nsrc + ndst));
    timing_demand_add(dm, TR_DDR, 2 * bytes * MAX(1u, ndst) * m->ddr_ns_b);
    for (unsigned i = 0; i < nsrc; i++) {
        unsigned l = m->drive[src[i]].be;

        timing_demand_add(dm, TR_BD(l), bytes * m->bd_ns_b);
        timing_demand_add(dm, TR_BB(l), bytes * m->bb_ns_b);
    }
    for (unsigned i = 0; i < ndst; i++) {
        unsigned l = m->drive[dst[i]].be;

        timing_demand_add(dm, TR_BC(l), bytes * m->bc_ns_b);
        timing_demand_add(dm, TR_BB(l), bytes * m->bb_ns_b);
    }
    shared = timing_book_bg(m, dm, t, g);

    /* serial chain: firmware, reads, XOR, writes */
    t_rd = t + c->bg_fw_lat_ns;
    t_x = t_rd;
    for (unsigned i = 0; i < nsrc; i++) {
        t_x = fmax(t_x, bg_drive(m, src[i], false, bytes, t_rd, g));
    }
    if (raid_level_parity(vd->level) && nsrc > 1) {
        t_x = timing_res_book_bg(&m->res[TR_PAR], t_x,
                                 nsrc * bytes * m->par_ns_b, g);
    }
    t_end = t_x;
    for (unsigned i = 0; i < ndst; i++) {
        t_end = fmax(t_end, bg_drive(m, dst[i], true, bytes, t_x, g));
    }
    return (uint64_t)llround(fmax(t_end, shared));
}

uint64_t timing_unloaded_read_ns(const TimingCtrlProfile *c,
                                 const TimingDriveProfile *d, uint32_t bytes)
{
    TimingModel *m = timing_model_new(c);
    TimingRequest req = {
        .op = TIMING_OP_READ, .bytes = bytes,
        .jbod_drive = timing_model_add_drive(m, d),
    };
    uint64_t t = timing_submit(m, 0, &req);

    timing_model_free(m);
    return t;
}

/* Chunks an idle-rebuild estimate runs before it extrapolates. */
#define IDLE_REBUILD_CHUNKS 4000u

uint64_t timing_rebuild_idle_ns(const TimingCtrlProfile *c,
                                const TimingDriveProfile *d, RaidLevel level,
                                uint32_t members, uint64_t capacity,
                                unsigned rate)
{
    TimingModel *m = timing_model_new(c);
    int drive[RAID_MAX_SPAN_MEMBERS * RAID_MAX_SPANS];
    unsigned slots = timing_background_slots(c, rate);
    uint64_t next[64] = { 0 }, last = 0;
    TimingVd vd = {
        .level = level, .members = members, .span_members = members,
        .drive = drive, .degraded = true,
    };
    TimingBackground bg = {
        .kind = TIMING_BG_REBUILD, .vd = &vd, .target_drive = 0,
    };
    double ns;

    members = MIN(members, G_N_ELEMENTS(drive));
    vd.members = members;
    if (level == RAID_LEVEL_10 || level == RAID_LEVEL_1) {
        vd.span_members = 2;
    }
    for (uint32_t i = 0; i < members; i++) {
        drive[i] = timing_model_add_drive(m, d);
    }
    slots = MIN(slots, G_N_ELEMENTS(next));
    for (unsigned n = 0; n < IDLE_REBUILD_CHUNKS; n++) {
        unsigned s = 0;
        uint64_t done;

        for (unsigned i = 1; i < slots; i++) {
            if (next[i] < next[s]) {
                s = i;
            }
        }
        done = timing_background_submit(m, next[s], rate, &bg);
        last = MAX(last, done);
        next[s] = done + timing_background_rest_ns(c, rate, s,
                                                   done - next[s]);
    }
    ns = (double)last * ((double)capacity /
                         ((double)IDLE_REBUILD_CHUNKS * c->bg_chunk_bytes));
    timing_model_free(m);
    return (uint64_t)llround(ns);
}
