/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: the published test beds (../shared/docs/reference-results.md)
 * as data, and their runs.
 *
 * Owns every published cell (workload, array, state, published value)
 * and the bed it was measured on; reference_run() simulates each cell,
 * prints it beside the model's value and its error, and ends with
 * "worst cell error: N %".  Assumptions where the sources are silent
 * (the study's, [study] 2.3): "4K OLTP" is 70 % reads, PT's "8K mixed"
 * is 70/30, sequential tests use 128 KiB (64 KiB for PT's reads), fio
 * runs 64 jobs x QD 64 for small blocks and 16 x 16 for large ones,
 * rebuilding arrays are half rebuilt, MB/s are 10^6 B/s.
 */
#include <math.h>
#include <string.h>
#include "raidsim.h"

typedef enum CellKind {
    CELL_MBPS,
    CELL_IOPS,
    CELL_REBUILD_MIN,
} CellKind;

typedef struct RefCell {
    const char *label;
    CellKind kind;
    RaidLevel level;
    unsigned arrays, drives;    /* VDs x drives each (JBOD: drives) */
    bool rebuilding;
    bool random;
    unsigned read_pct;
    uint32_t bs;
    double ref;
    const char *note;           /* how a range or ">" was read */
} RefCell;

typedef struct RefBed {
    const char *name;
    const char *title;
    const char *ctrl, *drive;
    const RefCell *cells;
    unsigned ncells;
} RefBed;

#define K4      4096u
#define K8      8192u
#define K64     65536u
#define K128    131072u
#define JB      RAID_LEVEL_JBOD
#define R10     RAID_LEVEL_10
#define R5      RAID_LEVEL_5
#define R6      RAID_LEVEL_6

/* StorageReview, MegaRAID 9670W-16i, 16 x Micron 7450 6.4 TB */
static const RefCell cells_9670w[] = {
    { "seq read JBOD", CELL_MBPS, JB, 1, 16, false, false, 100, K128, 28314 },
    { "seq read RAID 10", CELL_MBPS, R10, 2, 8, false, false, 100, K128,
      28061 },
    { "seq read RAID 5", CELL_MBPS, R5, 2, 8, false, false, 100, K128, 28061 },
    { "seq write JBOD", CELL_MBPS, JB, 1, 16, false, false, 0, K128, 26673 },
    { "seq write RAID 10", CELL_MBPS, R10, 2, 8, false, false, 0, K128, 10137 },
    { "seq write RAID 5", CELL_MBPS, R5, 2, 8, false, false, 0, K128, 13218 },
    { "50:50 seq JBOD", CELL_MBPS, JB, 1, 16, false, false, 50, K128, 41607 },
    { "50:50 seq RAID 10", CELL_MBPS, R10, 2, 8, false, false, 50, K128,
      19639 },
    { "50:50 seq RAID 5", CELL_MBPS, R5, 2, 8, false, false, 50, K128, 25833 },
    { "4K read JBOD", CELL_IOPS, JB, 1, 16, false, true, 100, K4, 7017041 },
    { "4K read RAID 10", CELL_IOPS, R10, 2, 8, false, true, 100, K4, 7006027 },
    { "4K read RAID 5", CELL_IOPS, R5, 2, 8, false, true, 100, K4, 6991181 },
    { "4K read RAID 10 rebuilding", CELL_IOPS, R10, 1, 16, true, true, 100,
      K4, 3312304 },
    { "4K read RAID 5 rebuilding", CELL_IOPS, R5, 1, 16, true, true, 100,
      K4, 3250371 },
    { "4K write JBOD", CELL_IOPS, JB, 1, 16, false, true, 0, K4, 6263549 },
    { "4K write RAID 10", CELL_IOPS, R10, 2, 8, false, true, 0, K4, 2167101 },
    { "4K write RAID 5", CELL_IOPS, R5, 2, 8, false, true, 0, K4, 1001826 },
    { "4K write RAID 10 rebuilding", CELL_IOPS, R10, 1, 16, true, true, 0,
      K4, 2182173 },
    { "4K write RAID 5 rebuilding", CELL_IOPS, R5, 1, 16, true, true, 0,
      K4, 788085 },
    { "4K OLTP JBOD", CELL_IOPS, JB, 1, 16, false, true, 70, K4, 7780295 },
    { "4K OLTP RAID 10", CELL_IOPS, R10, 2, 8, false, true, 70, K4, 5614088 },
    { "4K OLTP RAID 5", CELL_IOPS, R5, 2, 8, false, true, 70, K4, 2765867 },
    { "4K OLTP RAID 10 rebuilding", CELL_IOPS, R10, 1, 16, true, true, 70,
      K4, 2376036 },
    { "4K OLTP RAID 5 rebuilding", CELL_IOPS, R5, 1, 16, true, true, 70,
      K4, 1786743 },
    { "rebuild RAID 10 (min)", CELL_REBUILD_MIN, R10, 1, 16, true, false, 0,
      0, 60.7 },
    { "rebuild RAID 5 (min)", CELL_REBUILD_MIN, R5, 1, 16, true, false, 0,
      0, 82.3 },
};

/* Principled Technologies, PERC H755N front, 8 x 3.2 TB mixed-use NVMe */
static const RefCell cells_h755n[] = {
    { "4K read RAID 10", CELL_IOPS, R10, 1, 8, false, true, 100, K4, 3550000,
      "> 3.55 M" },
    { "4K read RAID 5", CELL_IOPS, R5, 1, 8, false, true, 100, K4, 3500000,
      "> 3.5 M" },
    { "4K read RAID 6", CELL_IOPS, R6, 1, 8, false, true, 100, K4, 3500000,
      "> 3.5 M" },
    { "4K write RAID 10", CELL_IOPS, R10, 1, 8, false, true, 0, K4, 917000 },
    { "4K write RAID 5", CELL_IOPS, R5, 1, 8, false, true, 0, K4, 186000 },
    { "4K write RAID 6", CELL_IOPS, R6, 1, 8, false, true, 0, K4, 198000 },
    { "8K mixed 70/30 RAID 10", CELL_IOPS, R10, 1, 8, false, true, 70, K8,
      1050000, "1.0-1.1 M" },
    { "8K mixed 70/30 RAID 5", CELL_IOPS, R5, 1, 8, false, true, 70, K8,
      500000, "~500 K" },
    { "8K mixed 70/30 RAID 6", CELL_IOPS, R6, 1, 8, false, true, 70, K8,
      400000, "~400 K" },
    { "8K read RAID 10", CELL_IOPS, R10, 1, 8, false, true, 100, K8, 1775000,
      "about half of 4K" },
    { "seq write RAID 10", CELL_MBPS, R10, 1, 8, false, false, 0, K128, 5908 },
    { "64K seq read RAID 5", CELL_MBPS, R5, 1, 8, false, false, 100, K64,
      14800 },
    { "64K seq read RAID 6", CELL_MBPS, R6, 1, 8, false, false, 100, K64,
      14800 },
};

static const RefBed beds[] = {
    { "9670w",
      "MegaRAID 9670W-16i, 16 x Micron 7450 MAX 6.4 TB (StorageReview)",
      "9670w-16i", "micron-7450-max-6.4t", cells_9670w,
      G_N_ELEMENTS(cells_9670w) },
    { "h755n", "PERC H755N (SAS3916), 8 x 3.2 TB mixed-use NVMe (PT)",
      "sas3916", "gen4-mu-3.2t", cells_h755n, G_N_ELEMENTS(cells_h755n) },
};

/* MegaRAID's default rebuild rate: the published runs used it. */
#define REF_RATE 30

static double run_cell(const RefBed *b, const RefCell *c, double runtime_s,
                       SimResult *r)
{
    SimBed bed = {
        .ctrl = timing_ctrl_profile_find(b->ctrl),
        .drive = timing_drive_profile_find(b->drive),
        .level = c->level, .arrays = c->arrays, .drives_per_array = c->drives,
        .rebuilding = c->rebuilding, .rebuilt_frac = 0.5,
        .write_back = c->level != RAID_LEVEL_JBOD, .rate = REF_RATE,
    };
    SimJob job = {
        .random = c->random, .read_pct = c->read_pct, .bs = c->bs,
        .numjobs = c->bs >= K64 ? 16 : 64, .iodepth = c->bs >= K64 ? 16 : 64,
        .ramp_s = 0.03, .runtime_s = runtime_s,
    };

    memset(r, 0, sizeof(*r));
    if (c->kind == CELL_REBUILD_MIN) {
        return timing_rebuild_idle_ns(bed.ctrl, bed.drive, c->level,
                                      c->drives, bed.drive->capacity,
                                      REF_RATE) / 60e9;
    }
    if (!sim_run(&bed, &job, r, NULL)) {
        return NAN;
    }
    return c->kind == CELL_MBPS ? r->mbps : r->iops;
}

static void fmt_val(char *buf, size_t len, CellKind k, double v)
{
    if (k == CELL_IOPS) {
        snprintf(buf, len, "%.3f M", v / 1e6);
    } else if (k == CELL_MBPS) {
        snprintf(buf, len, "%.0f MB/s", v);
    } else {
        snprintf(buf, len, "%.1f min", v);
    }
}

double reference_run(const char *name, FILE *out, const char *plot_png,
                     double plot_band, bool *plot_failed, double runtime_s,
                     char **waive, double *worst_unwaived)
{
    const RefBed *b = NULL;
    PlotCell *pc;
    double worst = 0;
    const char *worst_label = "";

    for (unsigned i = 0; i < G_N_ELEMENTS(beds); i++) {
        if (!g_ascii_strcasecmp(beds[i].name, name)) {
            b = &beds[i];
        }
    }
    if (!b) {
        fprintf(stderr, "raidsim: no reference bed '%s' (9670w, h755n)\n",
                name);
        return NAN;
    }
    pc = g_new0(PlotCell, b->ncells);
    if (worst_unwaived) {
        *worst_unwaived = 0;
    }
    fprintf(out, "# %s\n# controller %s, drives %s, rebuild-rate %d\n",
            b->title, b->ctrl, b->drive, REF_RATE);
    fprintf(out, "| %-28s | %14s | %14s | %7s | %-22s |\n", "cell",
            "reference", "model", "error", "bottleneck");
    fprintf(out, "|%s|%s|%s|%s|%s|\n", "------------------------------",
            "---------------:", "---------------:", "--------:",
            "------------------------");
    for (unsigned i = 0; i < b->ncells; i++) {
        const RefCell *c = &b->cells[i];
        SimResult r;
        double v = run_cell(b, c, runtime_s, &r);
        double err = (v / c->ref - 1) * 100;
        char rs[32], ms[32], bn[64] = "";

        fmt_val(rs, sizeof(rs), c->kind, c->ref);
        fmt_val(ms, sizeof(ms), c->kind, v);
        if (r.bottleneck) {
            snprintf(bn, sizeof(bn), "%s %.0f%%", r.bottleneck,
                     r.bottleneck_util * 100);
            if (c->rebuilding) {
                snprintf(bn + strlen(bn), sizeof(bn) - strlen(bn),
                         ", rb %.2f GB/s", r.rebuild_mbps / 1e3);
            }
        } else if (c->kind == CELL_REBUILD_MIN) {
            snprintf(bn, sizeof(bn), "idle, rate %d", REF_RATE);
        }
        fprintf(out, "| %-28s | %14s | %14s | %+6.1f%% | %-22s |\n",
                c->label, rs, ms, err, bn);
        if (!(fabs(err) <= worst)) {
            worst = fabs(err);
            worst_label = c->label;
        }
        if (!(waive && g_strv_contains((const char *const *)waive,
                                       c->label)) &&
            worst_unwaived && !(fabs(err) <= *worst_unwaived)) {
            *worst_unwaived = fabs(err);
        }
        pc[i] = (PlotCell) { c->label, c->ref, v,
                             c->kind == CELL_REBUILD_MIN };
    }
    fprintf(out, "worst cell: %s\n", worst_label);
    fprintf(out, "worst cell error: %.1f %%\n", worst);
    if (plot_png) {
        GError *err = NULL;

        if (!plot_cells(plot_png, b->title, pc, b->ncells, plot_band,
                        &err)) {
            fprintf(stderr, "raidsim: cannot draw %s: %s\n"
                    "raidsim: --plot needs gnuplot with the pngcairo "
                    "terminal (Debian: apt-get install gnuplot-nox)\n",
                    plot_png, err->message);
            g_error_free(err);
            *plot_failed = true;
        }
    }
    g_free(pc);
    return worst;
}

/*
 * The two parameters the rebuild times set ([calib]): the pipeline depth
 * at rate 100 from the RAID 10 time (it has no XOR), then the parity
 * engine's bandwidth from the RAID 5 time.  Bisection on the idle model.
 */
void reference_calibrate(FILE *out)
{
    const TimingDriveProfile *d =
        timing_drive_profile_find("micron-7450-max-6.4t");
    TimingCtrlProfile c = *timing_ctrl_profile_find("9670w-16i");
    double lo = 1, hi = 20;

    for (int i = 0; i < 40; i++) {
        c.bg_depth_full = (lo + hi) / 2;
        if (timing_rebuild_idle_ns(&c, d, RAID_LEVEL_10, 16, d->capacity,
                                   REF_RATE) / 60e9 > 60.7) {
            lo = c.bg_depth_full;
        } else {
            hi = c.bg_depth_full;
        }
    }
    fprintf(out, "bg_depth_full %.3f (depth %.3f at rate %d): RAID 10 "
            "rebuild %.2f min\n", c.bg_depth_full,
            c.bg_depth_full * REF_RATE / 100, REF_RATE,
            timing_rebuild_idle_ns(&c, d, RAID_LEVEL_10, 16, d->capacity,
                                   REF_RATE) / 60e9);
    lo = 1e9;
    hi = 1e12;
    for (int i = 0; i < 60; i++) {
        c.parity_bps = sqrt(lo * hi);
        if (timing_rebuild_idle_ns(&c, d, RAID_LEVEL_5, 16, d->capacity,
                                   REF_RATE) / 60e9 > 82.3) {
            lo = c.parity_bps;
        } else {
            hi = c.parity_bps;
        }
    }
    fprintf(out, "parity_bps %.4g: RAID 5 rebuild %.2f min\n", c.parity_bps,
            timing_rebuild_idle_ns(&c, d, RAID_LEVEL_5, 16, d->capacity,
                                   REF_RATE) / 60e9);
}
