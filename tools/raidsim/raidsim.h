/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: shared declarations of the timing-model simulator.
 *
 * Owns the description of a simulated test bed (controller, drives,
 * arrays and their state) and of an fio-like job, and the result of one
 * run; sim.c runs a job on a bed as a discrete-event simulation,
 * reference.c holds the published test beds, plot.c draws them.
 */
#ifndef RAIDSIM_H
#define RAIDSIM_H

#include <stdio.h>
#include "raid/timing.h"

typedef struct SimBed {
    const TimingCtrlProfile *ctrl;
    const TimingDriveProfile *drive;
    RaidLevel level;            /* RAID_LEVEL_JBOD: every drive alone */
    unsigned arrays;            /* VDs of drives_per_array drives each */
    unsigned drives_per_array;
    bool rebuilding;            /* member 0 of every VD is rebuilt */
    double rebuilt_frac;        /* of that member, already rebuilt */
    bool write_back;
    unsigned rate;              /* rebuild-rate */
} SimBed;

typedef struct SimJob {
    bool random;
    unsigned read_pct;          /* 100 = reads only, 0 = writes only */
    uint32_t bs;                /* bytes */
    unsigned numjobs, iodepth;
    double ramp_s, runtime_s;   /* simulated seconds */
    uint64_t seed;
} SimJob;

typedef struct SimResult {
    double iops, mbps;          /* host, MB = 10^6 B */
    double lat_mean_us, lat_max_us;
    double rebuild_mbps;        /* bytes written to rebuild targets */
    uint64_t ios;               /* completions simulated (all of the run) */
    const char *bottleneck;     /* busiest resource in the window */
    double bottleneck_util;
    /* the busiest resources, most first (utilization in the window) */
    const char *busiest[8];
    double busiest_util[8];
} SimResult;

bool sim_run(const SimBed *bed, const SimJob *job, SimResult *res,
             GError **errp);

/*
 * reference.c: run a published test bed; returns the worst |error| %.
 * *worst_unwaived gets the worst over the cells not named in `waive`
 * (NULL-terminated labels: known misses that a test checks apart).
 * With @plot_png, the cells are drawn there with a +-@plot_band % band;
 * *plot_failed is set (and the reason printed) when that fails.
 */
double reference_run(const char *bed, FILE *out, const char *plot_png,
                     double plot_band, bool *plot_failed, double runtime_s,
                     char **waive, double *worst_unwaived);
/* Print the values the two published rebuild times give ([calib]). */
void reference_calibrate(FILE *out);

/* plot.c: model against reference, one bar pair per cell. */
typedef struct PlotCell {
    const char *label;
    double ref, model;
    bool time;                  /* a rebuild time, not a throughput */
} PlotCell;

/*
 * Draws @cells into @png (gnuplot); @band_pct is the allowed error drawn
 * around 1.  False with @errp set when the PNG could not be drawn.
 */
bool plot_cells(const char *png, const char *title, const PlotCell *cells,
                unsigned n, double band_pct, GError **errp);

#endif
