/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: the discrete-event simulation of one fio-like job on a test bed.
 *
 * Owns the closed loop: every job keeps `iodepth` requests outstanding on
 * its target (a JBOD drive or a VD; jobs are spread round-robin over the
 * targets); each completion, at the time the timing model gave it,
 * issues the next request at that simulated time.  Rebuilding VDs also
 * run their rebuild pipeline (timing_background_slots() slots, each with
 * its duty-cycle rest).  Simulated time only: wall time depends on the
 * number of requests, not on the simulated duration.
 *
 * A VD request's cost comes from a real plan of the RAID core: per target
 * and direction a pool of requests at random (or consecutive) offsets is
 * planned once, on the VD's real layout and member states (so degraded
 * and rebuilt regions, RMW against full stripes come from the planner),
 * and the simulation draws from the pool.  Sequential writes to a
 * write-back parity VD are costed as the cache destages them: full
 * stripes, each shared by the host writes that filled it.
 */
#include <math.h>
#include <string.h>
#include "raidsim.h"

#define POOL            512u    /* planned requests per target and op */
#define POOL_IO_MAX     64u     /* member I/O entries per request */
#define SEQ_RUN         32u     /* consecutive requests per sequential run */

typedef struct Sample {
    TimingRequest req;
    TimingDriveIo io[POOL_IO_MAX];
} Sample;

typedef struct Target {
    int jbod_drive;             /* >= 0: JBOD */
    TimingVd vd;
    int drive[RAID_MAX_MEMBERS];
    RaidLayout layout;
    RaidMemberState st[RAID_MAX_MEMBERS];
    Sample *pool[2];            /* [0] reads, [1] writes */
    int rebuild_drive;          /* -1: none */
} Target;

typedef struct Event {
    uint64_t t;
    uint32_t id;
} Event;

typedef struct Heap {
    Event *e;
    uint32_t n;
} Heap;

static void heap_push(Heap *h, uint64_t t, uint32_t id)
{
    uint32_t i = h->n++;

    while (i) {
        uint32_t p = (i - 1) / 2;

        if (h->e[p].t <= t) {
            break;
        }
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = (Event) { t, id };
}

static Event heap_pop(Heap *h)
{
    Event top = h->e[0], last = h->e[--h->n];
    uint32_t i = 0;

    for (;;) {
        uint32_t c = 2 * i + 1;

        if (c >= h->n) {
            break;
        }
        if (c + 1 < h->n && h->e[c + 1].t < h->e[c].t) {
            c++;
        }
        if (h->e[c].t >= last.t) {
            break;
        }
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n) {
        h->e[i] = last;
    }
    return top;
}

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static bool level_parity(RaidLevel l)
{
    return l == RAID_LEVEL_5 || l == RAID_LEVEL_6 || l == RAID_LEVEL_50 ||
           l == RAID_LEVEL_60;
}

static bool target_init(Target *tg, const SimBed *bed, TimingModel *m,
                        GError **errp)
{
    unsigned n = bed->drives_per_array;
    uint64_t data[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = { .level = bed->level, .member_data_sectors = data };

    for (unsigned i = 0; i < n; i++) {
        tg->drive[i] = timing_model_add_drive(m, bed->drive);
        data[i] = bed->drive->capacity / RAID_SECTOR_SIZE;
        tg->st[i] = (RaidMemberState) { .status = RAID_MEMBER_ONLINE };
    }
    switch (bed->level) {
    case RAID_LEVEL_10:
        d.spans = n / 2;
        d.span_members = 2;
        break;
    case RAID_LEVEL_50:
    case RAID_LEVEL_60:
        d.spans = 2;
        d.span_members = n / 2;
        break;
    default:
        d.spans = 1;
        d.span_members = n;
    }
    if (!raid_layout_init(&tg->layout, &d, errp)) {
        return false;
    }
    tg->rebuild_drive = -1;
    if (bed->rebuilding) {
        uint64_t strips = tg->layout.block_count / tg->layout.strip;

        tg->st[0].status = RAID_MEMBER_REBUILDING;
        tg->st[0].rebuilt = (uint64_t)(strips * bed->rebuilt_frac) *
                            tg->layout.strip;
        tg->rebuild_drive = tg->drive[0];
    }
    tg->vd = (TimingVd) {
        .level = bed->level, .members = n,
        .span_members = tg->layout.span_members, .drive = tg->drive,
        .data_strips = tg->layout.span_data,
        .strip_bytes = tg->layout.strip * RAID_SECTOR_SIZE,
        .degraded = bed->rebuilding, .write_back = bed->write_back,
    };
    tg->jbod_drive = -1;
    return true;
}

static void pool_fill(Target *tg, const SimJob *job, bool write,
                      uint64_t *rng)
{
    const RaidLayout *l = &tg->layout;
    uint64_t bs_sec = job->bs / RAID_SECTOR_SIZE;
    uint64_t units = l->vd_sectors / bs_sec;
    bool coalesce = write && !job->random && tg->vd.write_back &&
                    level_parity(l->level);
    Sample *pool = g_new0(Sample, POOL);
    uint64_t base = 0;

    for (unsigned i = 0; i < POOL; i++) {
        RaidRequest rq = {
            .op = write ? RAID_OP_WRITE : RAID_OP_READ,
            .sectors = bs_sec,
        };
        Sample *s = &pool[i];
        RaidPlan *p;

        if (i % SEQ_RUN == 0) {
            base = rng_next(rng) % (units - POOL);
        }
        if (coalesce) {
            /* the cache destages whole stripes */
            uint64_t row = base * bs_sec / l->row_sectors + i % SEQ_RUN;

            rq.lba = (row % l->rows) * l->row_sectors;
            rq.sectors = l->row_sectors;
        } else if (job->random) {
            rq.lba = (rng_next(rng) % units) * bs_sec;
        } else {
            rq.lba = (base + i % SEQ_RUN) * bs_sec;
        }
        p = raid_plan_request(l, tg->st, &rq, RAID_WRITE_AUTO);
        g_assert(!p->error);
        s->req = (TimingRequest) {
            .op = write ? TIMING_OP_WRITE : TIMING_OP_READ,
            .bytes = job->bs, .sequential = !job->random,
            .jbod_drive = -1, .vd = &tg->vd, .cost = p->cost,
            .io = s->io,
            .nio = timing_plan_drive_io(p, tg->drive, s->io, POOL_IO_MAX),
            .share = coalesce ? rq.sectors / bs_sec : 1,
        };
        raid_plan_free(p);
    }
    tg->pool[write] = pool;
}

bool sim_run(const SimBed *bed, const SimJob *job, SimResult *res,
             GError **errp)
{
    const TimingCtrlProfile *c = bed->ctrl;
    TimingModel *m = timing_model_new(c);
    unsigned ntg = bed->level == RAID_LEVEL_JBOD ?
                   bed->arrays * bed->drives_per_array : bed->arrays;
    unsigned slots = timing_background_slots(c, bed->rate);
    uint32_t pop = job->numjobs * job->iodepth, nbg = 0;
    uint64_t ramp = (uint64_t)(job->ramp_s * 1e9);
    uint64_t end = ramp + (uint64_t)(job->runtime_s * 1e9);
    uint64_t rng = job->seed ? job->seed : 0x9e3779b97f4a7c15ull;
    uint64_t win_ios = 0, win_bytes = 0, bg_bytes = 0, all_ios = 0;
    double lat_sum = 0, lat_max = 0;
    bool stats_reset = false;
    Target *tg = g_new0(Target, ntg);
    uint64_t *issued;
    uint32_t *bg_tg;
    Heap h;
    bool ok = false;

    memset(res, 0, sizeof(*res));
    if (job->bs < RAID_SECTOR_SIZE || job->bs % RAID_SECTOR_SIZE || !pop) {
        g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "bs must be a multiple of 512, numjobs and iodepth > 0");
        goto out_free;
    }
    for (unsigned i = 0; i < ntg; i++) {
        if (bed->level == RAID_LEVEL_JBOD) {
            tg[i].jbod_drive = timing_model_add_drive(m, bed->drive);
            tg[i].rebuild_drive = -1;
            continue;
        }
        if (!target_init(&tg[i], bed, m, errp)) {
            goto out_free;
        }
        if (job->read_pct > 0) {
            pool_fill(&tg[i], job, false, &rng);
        }
        if (job->read_pct < 100) {
            pool_fill(&tg[i], job, true, &rng);
        }
        tg[i].vd.dirty_cache = bed->write_back && job->read_pct < 100;
        nbg += tg[i].rebuild_drive >= 0 ? slots : 0;
    }

    h.e = g_new(Event, pop + nbg);
    h.n = 0;
    issued = g_new0(uint64_t, pop);
    bg_tg = g_new0(uint32_t, nbg + 1);
    for (uint32_t i = 0; i < pop; i++) {
        heap_push(&h, 0, i);
    }
    nbg = 0;
    for (unsigned i = 0; i < ntg; i++) {
        for (unsigned s = 0; tg[i].rebuild_drive >= 0 && s < slots; s++) {
            bg_tg[nbg] = i * 64 + s;
            heap_push(&h, 0, pop + nbg++);
        }
    }

    while (h.n) {
        Event ev = heap_pop(&h);
        uint64_t t = ev.t;

        if (t >= end) {
            break;
        }
        if (!stats_reset && t >= ramp) {
            timing_model_reset_stats(m);
            stats_reset = true;
        }
        if (ev.id >= pop) {
            /* a rebuild slot: its chunk is done; rest, or issue the next */
            uint32_t k = bg_tg[ev.id - pop];
            Target *bt = &tg[k / 64];
            TimingBackground bg = {
                .kind = TIMING_BG_REBUILD, .vd = &bt->vd,
                .target_drive = bt->rebuild_drive,
            };
            uint64_t done = timing_background_submit(m, t, bed->rate, &bg);

            if (done >= ramp && done < end) {
                bg_bytes += c->bg_chunk_bytes;
            }
            heap_push(&h, done + timing_background_rest_ns(c, bed->rate,
                                                           k % 64, done - t),
                      ev.id);
            continue;
        }
        /* a host request completed (or the run starts): record, reissue */
        if (t > 0) {
            all_ios++;
            if (t >= ramp) {
                double lat = (double)(t - issued[ev.id]);

                win_ios++;
                win_bytes += job->bs;
                lat_sum += lat;
                lat_max = fmax(lat_max, lat);
            }
        }
        {
            uint32_t jb = ev.id / job->iodepth;
            Target *jt = &tg[jb % ntg];
            bool write = rng_next(&rng) % 100 >= job->read_pct;
            TimingRequest jreq;
            const TimingRequest *req;

            if (jt->jbod_drive >= 0) {
                jreq = (TimingRequest) {
                    .op = write ? TIMING_OP_WRITE : TIMING_OP_READ,
                    .bytes = job->bs, .sequential = !job->random,
                    .jbod_drive = jt->jbod_drive,
                };
                req = &jreq;
            } else {
                req = &jt->pool[write][rng_next(&rng) % POOL].req;
            }
            issued[ev.id] = t;
            heap_push(&h, timing_submit(m, t, req), ev.id);
        }
    }

    res->ios = all_ios;
    res->iops = win_ios / job->runtime_s;
    res->mbps = win_bytes / job->runtime_s / 1e6;
    res->lat_mean_us = win_ios ? lat_sum / win_ios / 1e3 : 0;
    res->lat_max_us = lat_max / 1e3;
    res->rebuild_mbps = bg_bytes / job->runtime_s / 1e6;
    for (unsigned i = 0; i < timing_model_resources(m); i++) {
        double u = timing_model_resource_busy_ns(m, i) /
                   (job->runtime_s * 1e9);
        unsigned k = G_N_ELEMENTS(res->busiest);

        while (k > 0 &&
               (!res->busiest[k - 1] || u > res->busiest_util[k - 1])) {
            if (k < G_N_ELEMENTS(res->busiest)) {
                res->busiest[k] = res->busiest[k - 1];
                res->busiest_util[k] = res->busiest_util[k - 1];
            }
            k--;
        }
        if (k < G_N_ELEMENTS(res->busiest)) {
            res->busiest[k] = timing_model_resource_name(m, i);
            res->busiest_util[k] = u;
        }
    }
    res->bottleneck = res->busiest[0];
    res->bottleneck_util = res->busiest_util[0];
    ok = true;
    g_free(h.e);
    g_free(issued);
    g_free(bg_tg);
out_free:
    for (unsigned i = 0; i < ntg; i++) {
        g_free(tg[i].pool[0]);
        g_free(tg[i].pool[1]);
    }
    g_free(tg);
    timing_model_free(m);
    return ok;
}
