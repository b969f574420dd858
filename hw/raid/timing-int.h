/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model internals shared by the timing-*.c files.
 *
 * Owns the model's state: the resource table (index layout below), each
 * resource's next-free times for foreground and background work, the
 * per-unit service times derived from the profiles, and the demand
 * accumulator one booking fills.
 *
 * Resource layout: TR_* shared resources first, then three per back-end
 * link (up, down, both directions), then three per drive (media, link
 * drive->controller, link controller->drive).
 */
#ifndef RAID_TIMING_INT_H
#define RAID_TIMING_INT_H

#include "raid/timing.h"

enum {
    TR_HD,                      /* host link device -> host */
    TR_HH,                      /* host link host -> device */
    TR_HB,                      /* host link, both directions */
    TR_HW,                      /* RoC hardware fast path */
    TR_FW,                      /* RoC firmware */
    TR_DDR,                     /* cache memory / data mover */
    TR_PAR,                     /* parity engine */
    TR_SHARED,
};

/* Back-end links the back-end lanes can be split into (profile). */
#define TIMING_MAX_BACKEND_LINKS 4

/* Back-end link l: drives -> controller, controller -> drives, both. */
#define TR_BD(l)            (TR_SHARED + 3 * (l))
#define TR_BC(l)            (TR_SHARED + 3 * (l) + 1)
#define TR_BB(l)            (TR_SHARED + 3 * (l) + 2)
#define TR_DRIVES           (TR_SHARED + 3 * TIMING_MAX_BACKEND_LINKS)
#define TR_DRIVE_MEDIA(d)   (TR_DRIVES + 3 * (d))
#define TR_DRIVE_UP(d)      (TR_DRIVES + 3 * (d) + 1)
#define TR_DRIVE_DOWN(d)    (TR_DRIVES + 3 * (d) + 2)
#define TR_MAX              (TR_DRIVES + 3 * TIMING_MAX_DRIVES)

/* Plan phases whose drive latencies add up; later ones count as the last. */
#define TIMING_MAX_PHASES 4

/* Window over which a resource's foreground utilization is measured. */
#define TIMING_UTIL_WINDOW_NS 1e6
/* Foreground backlog above which a resource counts as saturated. */
#define TIMING_BACKLOG_NS 50e3

typedef struct TimingRes {
    double nf;                  /* foreground: next free, ns */
    double nf_bg;               /* background: next free, ns */
    double busy;                /* work booked since the last reset, ns */
    double win_start, win_work; /* foreground work in the current window */
    double util;                /* foreground utilization, last window */
} TimingRes;

typedef struct TimingDriveRt {
    const TimingDriveProfile *p;
    double rd_cmd_ns, wr_cmd_ns;        /* per command, random */
    double rd_ns_b, wr_ns_b;            /* media ns per byte */
    double link_ns_b;                   /* own link ns per byte */
    unsigned be;                        /* its back-end link */
} TimingDriveRt;

/* What one booking asks of each resource (ns of service). */
typedef struct TimingDemand {
    unsigned n;
    uint16_t res[TR_MAX];
    double acc[TR_MAX];
} TimingDemand;

struct TimingModel {
    const TimingCtrlProfile *c;
    unsigned ndrives;
    TimingDriveRt drive[TIMING_MAX_DRIVES];
    TimingRes res[TR_MAX];
    /* service time per unit */
    double hd_ns_b, hh_ns_b, hb_ns_b;
    unsigned be_links;          /* back-end links (1 .. MAX) */
    double bd_ns_b, bc_ns_b, bb_ns_b;   /* per back-end link */
    double ddr_ns_b, par_ns_b, hw_ns_cmd;
    double destage_lag_ns;      /* how far acks may run ahead of destage */
    double last_ns;             /* latest arrival seen */
    TimingDemand dm, dm2;       /* scratch */
};

/* PCIe payload bytes/s of one lane before protocol efficiency. */
double timing_pcie_lane_bps(uint32_t gen);

/* timing-resource.c */
static inline void timing_demand_clear(TimingDemand *dm)
{
    for (unsigned i = 0; i < dm->n; i++) {
        dm->acc[dm->res[i]] = 0;
    }
    dm->n = 0;
}

static inline void timing_demand_add(TimingDemand *dm, unsigned res,
                                     double ns)
{
    if (!(ns > 0)) {
        return;
    }
    if (dm->acc[res] == 0) {
        dm->res[dm->n++] = res;
    }
    dm->acc[res] += ns;
}

/* Foreground utilization of r as seen at t (0..1). */
double timing_res_util(TimingRes *r, double t);
/* Book every demand at t as foreground work; returns the last finish. */
double timing_book_fg(TimingModel *m, TimingDemand *dm, double t);
/* Book every demand at t as background work with floor share g. */
double timing_book_bg(TimingModel *m, TimingDemand *dm, double t, double g);
/* One resource, background, floor share g; returns its finish. */
double timing_res_book_bg(TimingRes *r, double t, double work, double g);

/* timing-cost.c */
/* Service time of member I/O on drive d (cmds commands, bytes). */
double timing_drive_media_ns(const TimingDriveRt *dr, bool write,
                             double cmds, double bytes, bool sequential);
/* Add drive d's media, link and back-end demand for one member I/O. */
void timing_demand_drive(TimingModel *m, TimingDemand *dm, int d,
                         bool write, double cmds, double bytes,
                         bool sequential);

#endif
