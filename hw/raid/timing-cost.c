/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model, costing of host requests.
 *
 * Owns the one pure mapping from a host request (JBOD I/O, or a VD I/O
 * with its plan's cost and member I/O) to the demand it puts on every
 * resource, and timing_submit(), which books that demand and returns the
 * completion time.  The cost rules (docs/dev/timing.md has the table):
 *
 *  - host link: data plus per-command protocol bytes, per direction and
 *    in the combined budget; a write's data is fetched by the controller,
 *    so it also costs read-request bytes device -> host;
 *  - RoC: every host command passes the hardware fast path once; JBOD
 *    I/O and reads of optimal VDs with a clean cache need nothing else;
 *    everything else adds firmware time per host-operation class
 *    (cached write, parity update, degraded read, dirty-cache read);
 *  - cache data mover: a write's data in, plus its metadata, plus every
 *    member read into and member write out of the cache, plus parity the
 *    engine generates from scratch (full stripe, reconstruct-write).  So a
 *    mirrored write moves 3x, a RAID 5 RMW 5x, a full stripe 2 + 2/(N-1)x;
 *  - parity engine: its input bytes (member reads and new data), twice
 *    for P+Q;
 *  - back end and drives: each member I/O on the back-end link of its
 *    drive's bay, the drive's own link and its media.
 *
 * A write-back write completes on its acknowledgement (host link, RoC,
 * cache in); its destage is booked at the same time and only holds the
 * acknowledgement back when it runs more than the dirty-cache window
 * behind (cache_dirty_max at back-end write speed).
 */
#include <math.h>
#include "timing-int.h"

#define SECTOR RAID_SECTOR_SIZE

/*
 * Unloaded latency of one command beyond its transfer; a rotational drive
 * streaming sequentially pays no positioning.
 */
static double media_lat(const TimingDriveProfile *p, bool write,
                        bool sequential)
{
    if (sequential && p->rotational) {
        return 0;
    }
    return write ? p->write_lat_ns : p->read_lat_ns;
}

double timing_drive_media_ns(const TimingDriveRt *dr, bool write,
                             double cmds, double bytes, bool sequential)
{
    const TimingDriveProfile *p = dr->p;
    double cmd = write ? dr->wr_cmd_ns : dr->rd_cmd_ns;
    double s;

    if (sequential && p->rotational) {
        cmd = 0;
    }
    s = cmds * cmd + bytes * (write ? dr->wr_ns_b : dr->rd_ns_b);
    /* at most `channels` commands in service, each for its latency */
    return fmax(s, (cmds * media_lat(p, write, sequential) + s) /
                   MAX(p->channels, 1u));
}

void timing_demand_drive(TimingModel *m, TimingDemand *dm, int d,
                         bool write, double cmds, double bytes,
                         bool sequential)
{
    const TimingDriveRt *dr = &m->drive[d];

    timing_demand_add(dm, TR_DRIVE_MEDIA(d),
                      timing_drive_media_ns(dr, write, cmds, bytes,
                                            sequential));
    timing_demand_add(dm, write ? TR_DRIVE_DOWN(d) : TR_DRIVE_UP(d),
                      bytes * dr->link_ns_b);
    timing_demand_add(dm, write ? TR_BC(dr->be) : TR_BD(dr->be),
                      bytes * (write ? m->bc_ns_b : m->bd_ns_b));
    timing_demand_add(dm, TR_BB(dr->be), bytes * m->bb_ns_b);
}

static double drive_lat(const TimingModel *m, int d, bool write,
                        bool sequential)
{
    return media_lat(m->drive[d].p, write, sequential);
}

static void demand_host_link(TimingModel *m, TimingDemand *dm, TimingOp op,
                             uint64_t bytes)
{
    const TimingCtrlProfile *c = m->c;
    double d2h = c->cpl_bytes, h2d = c->cmd_bytes;

    if (op == TIMING_OP_READ) {
        d2h += bytes;
    } else if (op == TIMING_OP_WRITE) {
        h2d += bytes;
        d2h += c->read_req_frac * bytes;
    }
    timing_demand_add(dm, TR_HD, d2h * m->hd_ns_b);
    timing_demand_add(dm, TR_HH, h2d * m->hh_ns_b);
    timing_demand_add(dm, TR_HB, (d2h + h2d) * m->hb_ns_b);
}

static bool drive_ok(const TimingModel *m, int d)
{
    return d >= 0 && (unsigned)d < m->ndrives;
}

/*
 * The member I/O of a VD request, each charged `scale` of its size;
 * returns the sum over plan phases of the slowest drive latency.
 */
static double demand_members(TimingModel *m, TimingDemand *dm,
                             const TimingRequest *req, double scale,
                             bool discard)
{
    double phase_lat[TIMING_MAX_PHASES] = { 0 };
    double lat = 0;

    if (req->io) {
        for (uint32_t i = 0; i < req->nio; i++) {
            const TimingDriveIo *io = &req->io[i];
            unsigned ph = MIN(io->phase, TIMING_MAX_PHASES - 1);

            if (!drive_ok(m, io->drive)) {
                continue;
            }
            timing_demand_drive(m, dm, io->drive, io->write,
                                io->cmds * scale,
                                discard ? 0 : io->bytes * scale,
                                req->sequential);
            phase_lat[ph] = fmax(phase_lat[ph],
                                 drive_lat(m, io->drive, io->write,
                                           req->sequential));
        }
    } else {
        /* no member list: the plan's I/O spread evenly over the members */
        const TimingVd *vd = req->vd;
        const RaidPlanCost *pc = &req->cost;
        unsigned n = 0;

        for (uint32_t i = 0; i < vd->members; i++) {
            n += drive_ok(m, vd->drive[i]);
        }
        for (uint32_t i = 0; n && i < vd->members; i++) {
            int d = vd->drive[i];

            if (!drive_ok(m, d)) {
                continue;
            }
            if (pc->member_reads) {
                timing_demand_drive(m, dm, d, false,
                                    scale * pc->member_reads / n,
                                    scale * pc->read_sectors * SECTOR / n,
                                    req->sequential);
                phase_lat[0] = fmax(phase_lat[0],
                                    drive_lat(m, d, false, req->sequential));
            }
            if (pc->member_writes) {
                unsigned ph = pc->member_reads ? 1 : 0;

                timing_demand_drive(m, dm, d, true,
                                    scale * pc->member_writes / n,
                                    discard ? 0 :
                                    scale * pc->write_sectors * SECTOR / n,
                                    req->sequential);
                phase_lat[ph] = fmax(phase_lat[ph],
                                     drive_lat(m, d, true, req->sequential));
            }
        }
    }
    for (unsigned i = 0; i < TIMING_MAX_PHASES; i++) {
        lat += phase_lat[i];
    }
    return lat;
}

static uint64_t finish(double t)
{
    return t <= 0 ? 0 : (uint64_t)llround(t);
}

static uint64_t submit_jbod(TimingModel *m, double t,
                            const TimingRequest *req)
{
    const TimingCtrlProfile *c = m->c;
    TimingDemand *dm = &m->dm;
    int d = req->jbod_drive;
    double lat = c->link_lat_ns + c->hw_lat_ns;
    bool write = req->op != TIMING_OP_READ;

    timing_demand_clear(dm);
    demand_host_link(m, dm, req->op, req->bytes);
    timing_demand_add(dm, TR_HW, m->hw_ns_cmd);
    if (drive_ok(m, d)) {
        bool data = req->op == TIMING_OP_READ || req->op == TIMING_OP_WRITE;

        timing_demand_drive(m, dm, d, write, 1, data ? req->bytes : 0,
                            req->sequential);
        lat += drive_lat(m, d, write, req->sequential);
    }
    return finish(timing_book_fg(m, dm, t) + lat);
}

static uint64_t submit_read(TimingModel *m, double t,
                            const TimingRequest *req)
{
    const TimingCtrlProfile *c = m->c;
    const TimingVd *vd = req->vd;
    const RaidPlanCost *pc = &req->cost;
    TimingDemand *dm = &m->dm;
    bool fw_path = vd->degraded || vd->dirty_cache;
    double fw = 0, lat;

    timing_demand_clear(dm);
    demand_host_link(m, dm, req->op, req->bytes);
    timing_demand_add(dm, TR_HW, m->hw_ns_cmd);
    if (vd->degraded) {
        fw += c->fw_degraded_read_ns;
    }
    if (vd->dirty_cache) {
        fw += c->fw_dirty_read_ns;
    }
    if (fw_path) {
        fw += c->fw_backend_cmd_ns * pc->member_reads;
    }
    if (pc->degraded_stripes && raid_level_parity(vd->level)) {
        /* reconstruct: members through the engine, result via the cache */
        fw += c->fw_parity_ns;
        timing_demand_add(dm, TR_DDR, 2.0 * req->bytes * m->ddr_ns_b);
        timing_demand_add(dm, TR_PAR,
                          (double)pc->read_sectors * SECTOR * m->par_ns_b);
    }
    timing_demand_add(dm, TR_FW, fw);
    lat = c->link_lat_ns + (fw_path ? c->fw_lat_ns : c->hw_lat_ns) +
          demand_members(m, dm, req, 1.0, false);
    return finish(timing_book_fg(m, dm, t) + lat);
}

/* A VD write's destage (member I/O, parity, cache out), 1/share of it. */
static double demand_destage(TimingModel *m, TimingDemand *dm,
                             const TimingRequest *req)
{
    const TimingCtrlProfile *c = m->c;
    const TimingVd *vd = req->vd;
    const RaidPlanCost *pc = &req->cost;
    unsigned k = raid_level_parity(vd->level);
    double share = MAX(req->share, 1u), scale = 1.0 / share;
    double rd = (double)pc->read_sectors * SECTOR;
    double wr = (double)pc->write_sectors * SECTOR;
    double data = (double)req->bytes * share;
    double gen = 0, fw;

    fw = c->fw_backend_cmd_ns * (pc->member_reads + pc->member_writes);
    if (k) {
        uint32_t stripes = pc->full_stripes + pc->rcw_stripes +
                           pc->rmw_stripes + pc->degraded_stripes;

        fw += stripes * (k == 2 ? c->fw_parity6_ns : c->fw_parity_ns);
        if (!pc->rmw_stripes) {
            /* parity made from scratch is written into the cache */
            gen = fmax(0, wr - data);
        }
        timing_demand_add(dm, TR_PAR, scale * k * (rd + data) * m->par_ns_b);
    }
    timing_demand_add(dm, TR_FW, scale * fw);
    timing_demand_add(dm, TR_DDR, scale * (rd + wr + gen) * m->ddr_ns_b);
    return demand_members(m, dm, req, scale, false);
}

static uint64_t submit_write(TimingModel *m, double t,
                             const TimingRequest *req)
{
    const TimingCtrlProfile *c = m->c;
    const TimingVd *vd = req->vd;
    TimingDemand *ack = &m->dm, *de = vd->write_back ? &m->dm2 : &m->dm;
    double ack_lat = c->link_lat_ns + c->fw_lat_ns, de_lat, t_ack, t_de;
    double in = req->bytes + (vd->write_back ? c->meta_bytes : 0);

    timing_demand_clear(ack);
    timing_demand_clear(&m->dm2);
    demand_host_link(m, ack, req->op, req->bytes);
    timing_demand_add(ack, TR_HW, m->hw_ns_cmd);
    timing_demand_add(ack, TR_FW, c->fw_write_ns);
    timing_demand_add(ack, TR_DDR, in * m->ddr_ns_b);
    de_lat = demand_destage(m, de, req);
    if (!vd->write_back) {
        return finish(timing_book_fg(m, ack, t) + ack_lat + de_lat);
    }
    t_ack = timing_book_fg(m, ack, t) + ack_lat;
    t_de = timing_book_fg(m, de, t) + de_lat;
    return finish(fmax(t_ack, t_de - m->destage_lag_ns));
}

static uint64_t submit_other(TimingModel *m, double t,
                             const TimingRequest *req)
{
    const TimingCtrlProfile *c = m->c;
    TimingDemand *dm = &m->dm;
    double lat = c->link_lat_ns + c->fw_lat_ns;

    timing_demand_clear(dm);
    demand_host_link(m, dm, req->op, 0);
    timing_demand_add(dm, TR_HW, m->hw_ns_cmd);
    timing_demand_add(dm, TR_FW, c->fw_misc_ns);
    if (req->op == TIMING_OP_UNMAP) {
        lat += demand_members(m, dm, req, 1.0, true);
    }
    return finish(timing_book_fg(m, dm, t) + lat);
}

uint64_t timing_submit(TimingModel *m, uint64_t arrival_ns,
                       const TimingRequest *req)
{
    double t = (double)arrival_ns;

    m->last_ns = fmax(m->last_ns, t);
    if (!req->vd) {
        return submit_jbod(m, t, req);
    }
    switch (req->op) {
    case TIMING_OP_READ:
        return submit_read(m, t, req);
    case TIMING_OP_WRITE:
        return submit_write(m, t, req);
    default:
        return submit_other(m, t, req);
    }
}

uint32_t timing_plan_drive_io(const RaidPlan *plan, const int *member_drive,
                              TimingDriveIo *io, uint32_t max)
{
    uint32_t n = 0;

    for (guint i = 0; i < plan->steps->len; i++) {
        const RaidStep *s = &g_array_index(plan->steps, RaidStep, i);
        bool write;
        int d;
        uint32_t j;

        if (s->kind == RAID_STEP_READ) {
            write = false;
        } else if (s->kind == RAID_STEP_WRITE ||
                   s->kind == RAID_STEP_DISCARD) {
            write = true;
        } else {
            continue;
        }
        d = member_drive[s->member];
        if (d < 0) {
            continue;
        }
        for (j = 0; j < n; j++) {
            if (io[j].drive == d && io[j].write == write &&
                io[j].phase == s->phase) {
                break;
            }
        }
        if (j == n) {
            if (n == max) {
                continue;
            }
            io[n++] = (TimingDriveIo) {
                .drive = d, .write = write, .phase = s->phase,
            };
        }
        io[j].cmds++;
        io[j].bytes += (uint64_t)s->sectors * SECTOR;
    }
    return n;
}
