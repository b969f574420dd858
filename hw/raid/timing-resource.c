/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model resources and reservations.
 *
 * Owns the model object (timing_model_new/free/add_drive), the per-unit
 * service times derived from the profiles, and the two booking rules
 * every cost goes through:
 *
 *  - foreground: a demand of w ns on a resource starts at
 *    max(arrival, next free) and moves next free by w (FIFO, work
 *    conserving: queueing and saturation fall out of it);
 *  - background: work that yields to the foreground but keeps a floor
 *    share g.  Each resource measures its foreground utilization u over
 *    the last window; background work w gets the share the foreground
 *    leaves, at least g: it takes w / max(g, 1 - u), and where it takes
 *    more than the idle part (g > 1 - u) the foreground's next free moves
 *    by the difference.  So on a resource the foreground saturates the
 *    background progresses at g and the foreground keeps 1 - g; on an idle
 *    one the background runs at full speed and delays nobody.  A resource
 *    with a foreground backlog above TIMING_BACKLOG_NS counts as
 *    saturated whatever its measured utilization (which, saturated, only
 *    shows what the background left to the foreground).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "timing-int.h"

static const char *const shared_names[TR_SHARED] = {
    [TR_HD] = "host-d2h", [TR_HH] = "host-h2d", [TR_HB] = "host-both",
    [TR_HW] = "roc-hw", [TR_FW] = "roc-fw", [TR_DDR] = "cache",
    [TR_PAR] = "parity",
};

double timing_pcie_lane_bps(uint32_t gen)
{
    /* 8b/10b below Gen3, 128b/130b from Gen3 on */
    switch (gen) {
    case 1:
        return 250e6;
    case 2:
        return 500e6;
    case 3:
        return 8e9 * 128 / 130 / 8;
    case 5:
        return 32e9 * 128 / 130 / 8;
    default:
        return 16e9 * 128 / 130 / 8;
    }
}

TimingModel *timing_model_new(const TimingCtrlProfile *c)
{
    TimingModel *m = g_new0(TimingModel, 1);
    double host = c->host_lanes * timing_pcie_lane_bps(c->host_gen);
    unsigned links = MIN(MAX(c->backend_links, 1u),
                         (unsigned)TIMING_MAX_BACKEND_LINKS);
    /* each back-end link has its share of the lanes */
    double be = c->backend_lanes * timing_pcie_lane_bps(c->backend_gen) /
                links;

    m->c = c;
    m->be_links = links;
    m->hd_ns_b = 1e9 / (host * c->host_eff_d2h);
    m->hh_ns_b = 1e9 / (host * c->host_eff_h2d);
    m->hb_ns_b = 1e9 / (host * c->host_eff_d2h * c->duplex_cap);
    /*
     * The back end's links carry the same protocol as the host's: data
     * the drives push up is posted (like d2h), data they fetch is a
     * read completion (like h2d).
     */
    m->bd_ns_b = 1e9 / (be * c->host_eff_d2h);
    m->bc_ns_b = 1e9 / (be * c->host_eff_h2d);
    m->bb_ns_b = 1e9 / (be * c->host_eff_d2h * c->duplex_cap);
    m->ddr_ns_b = 1e9 / c->cache_bps;
    m->par_ns_b = 1e9 / c->parity_bps;
    m->hw_ns_cmd = 1e9 / c->hw_cmd_rate;
    m->destage_lag_ns = (double)c->cache_dirty_max * m->bc_ns_b / links;
    return m;
}

void timing_model_free(TimingModel *m)
{
    g_free(m);
}

int timing_model_add_drive(TimingModel *m, const TimingDriveProfile *p)
{
    TimingDriveRt *dr;
    uint32_t lanes = p->link_lanes;

    if (m->ndrives >= TIMING_MAX_DRIVES) {
        return -1;
    }
    if (m->c->drive_lanes_max && lanes > m->c->drive_lanes_max) {
        lanes = m->c->drive_lanes_max;
    }
    dr = &m->drive[m->ndrives];
    dr->p = p;
    dr->rd_ns_b = 1e9 / p->seq_read_bps;
    dr->wr_ns_b = 1e9 / p->seq_write_bps;
    /* per-command cost: what the 4 KiB IOPS leave after the transfer */
    dr->rd_cmd_ns = fmax(0, 1e9 / p->rand_read_iops - 4096 * dr->rd_ns_b);
    dr->wr_cmd_ns = fmax(0, 1e9 / p->rand_write_iops - 4096 * dr->wr_ns_b);
    dr->link_ns_b = 1e9 / (lanes * p->lane_bps);
    /* bays fill the back-end links in order, backend_link_bays each */
    dr->be = m->c->backend_link_bays ?
             m->ndrives / m->c->backend_link_bays % m->be_links : 0;
    return m->ndrives++;
}

void timing_model_reset(TimingModel *m)
{
    memset(m->res, 0, sizeof(m->res));
    m->last_ns = 0;
}

const TimingCtrlProfile *timing_model_ctrl(const TimingModel *m)
{
    return m->c;
}

const TimingDriveProfile *timing_model_drive(const TimingModel *m, int d)
{
    return d >= 0 && (unsigned)d < m->ndrives ? m->drive[d].p : NULL;
}

/* Close the utilization window if it is over. */
static inline void res_window(TimingRes *r, double t)
{
    if (t - r->win_start >= TIMING_UTIL_WINDOW_NS) {
        r->util = fmin(1.0, r->win_work / (t - r->win_start));
        r->win_start = t;
        r->win_work = 0;
    }
}

double timing_res_util(TimingRes *r, double t)
{
    res_window(r, t);
    return r->util;
}

double timing_book_fg(TimingModel *m, TimingDemand *dm, double t)
{
    double fin = t;

    for (unsigned i = 0; i < dm->n; i++) {
        TimingRes *r = &m->res[dm->res[i]];
        double w = dm->acc[dm->res[i]];

        res_window(r, t);
        r->win_work += w;
        r->nf = fmax(r->nf, t) + w;
        r->busy += w;
        fin = fmax(fin, r->nf);
    }
    return fin;
}

double timing_res_book_bg(TimingRes *r, double t, double work, double g)
{
    double start = fmax(t, r->nf_bg);
    double idle = 1.0 - timing_res_util(r, t);
    double share, dur;

    if (r->nf - t > TIMING_BACKLOG_NS) {
        /* saturated: the foreground keeps it busy, we get the floor */
        idle = 0;
    }
    share = fmax(g, idle);
    dur = work / share;
    r->busy += work;
    if (share > idle) {
        /* beyond the idle capacity: the foreground waits that much */
        r->nf = fmax(r->nf, t) + (work - idle * dur);
    }
    r->nf_bg = start + dur;
    return r->nf_bg;
}

double timing_book_bg(TimingModel *m, TimingDemand *dm, double t, double g)
{
    double fin = t;

    for (unsigned i = 0; i < dm->n; i++) {
        fin = fmax(fin, timing_res_book_bg(&m->res[dm->res[i]], t,
                                           dm->acc[dm->res[i]], g));
    }
    return fin;
}

/*
 * The statistics number the resources in use densely: the shared ones,
 * the back-end links the profile has, the drives added.
 */
unsigned timing_model_resources(const TimingModel *m)
{
    return TR_SHARED + 3 * m->be_links + 3 * m->ndrives;
}

static unsigned res_index(const TimingModel *m, unsigned i)
{
    if (i < TR_SHARED + 3 * m->be_links) {
        return i;
    }
    return i - 3 * m->be_links + TR_DRIVES - TR_SHARED;
}

const char *timing_model_resource_name(const TimingModel *m, unsigned i)
{
    static const char *const kind[3] = { "media", "link-up", "link-down" };
    static const char *const be_kind[3] = { "up", "down", "both" };
    static char buf[TIMING_MAX_DRIVES * 3][24];
    static char be_buf[TIMING_MAX_BACKEND_LINKS * 3][24];

    if (i < TR_SHARED) {
        return shared_names[i];
    }
    if (i >= timing_model_resources(m)) {
        return NULL;
    }
    i = res_index(m, i);
    if (i < TR_DRIVES) {
        i -= TR_SHARED;
        if (!be_buf[i][0]) {
            /* one link: "backend-up"; several: "backend0-up", ... */
            if (m->be_links == 1) {
                snprintf(be_buf[i], sizeof(be_buf[i]), "backend-%s",
                         be_kind[i % 3]);
            } else {
                snprintf(be_buf[i], sizeof(be_buf[i]), "backend%u-%s",
                         i / 3, be_kind[i % 3]);
            }
        }
        return be_buf[i];
    }
    i -= TR_DRIVES;
    if (!buf[i][0]) {
        snprintf(buf[i], sizeof(buf[i]), "drive%u-%s", i / 3, kind[i % 3]);
    }
    return buf[i];
}

double timing_model_resource_busy_ns(const TimingModel *m, unsigned i)
{
    return i < timing_model_resources(m) ? m->res[res_index(m, i)].busy : 0;
}

void timing_model_reset_stats(TimingModel *m)
{
    for (unsigned i = 0; i < TR_MAX; i++) {
        m->res[i].busy = 0;
    }
}
