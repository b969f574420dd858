/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: drawing model against reference with gnuplot.
 *
 * Owns --plot: one bar per published cell, the model's value as a
 * percentage of the published one, with the reference (100 %) and the
 * +-10 % band drawn across.  Cells mix units (IOPS, MB/s, minutes), so
 * the ratio is what fits on one axis; the tables print absolute values.
 * Needs Debian's gnuplot-nox (pngcairo terminal), installed by
 * scripts/setup-core-deps.sh.
 */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "raidsim.h"

bool plot_cells(const char *png, const char *title, const PlotCell *cells,
                unsigned n, GError **errp)
{
    char *dir = g_dir_make_tmp("raidsim-plot-XXXXXX", errp);
    char *dat, *gp, *argv[3] = { (char *)"gnuplot", NULL, NULL };
    double lo = 70, hi = 130;
    GString *s;
    gint status = 0;
    bool ok;

    if (!dir) {
        return false;
    }
    dat = g_build_filename(dir, "cells.dat", NULL);
    gp = g_build_filename(dir, "plot.gp", NULL);
    s = g_string_new(NULL);
    for (unsigned i = 0; i < n; i++) {
        char *label = g_strdelimit(g_strdup(cells[i].label), "\"", '\'');

        double pct = cells[i].model / cells[i].ref * 100;

        lo = fmin(lo, floor(pct / 10) * 10);
        hi = fmax(hi, ceil(pct / 10) * 10);
        g_string_append_printf(s, "%u \"%s\" %.3f\n", i, label, pct);
        g_free(label);
    }
    ok = g_file_set_contents(dat, s->str, -1, errp);
    g_string_truncate(s, 0);
    g_string_append_printf(s,
        "set terminal pngcairo size 1200,700 font ',10'\n"
        "set output '%s'\n"
        "set title \"%s: model as %% of the published value\"\n"
        "set style fill solid 0.6\n"
        "set boxwidth 0.7\n"
        "set yrange [%g:%g]\n"
        "set ylabel 'model / reference (%%)'\n"
        "set xtics rotate by -45 left noenhanced\n"
        "set grid ytics\n"
        "set bmargin 12\n"
        "set rmargin 12\n"
        "set key top left\n"
        "plot '%s' using 1:3:xtic(2) with boxes lc rgb '#3070b0' "
        "title 'model', 100 with lines lc rgb 'black' lw 2 title "
        "'reference', 110 with lines dt 2 lc rgb 'red' title '+-10 %%', "
        "90 with lines dt 2 lc rgb 'red' notitle\n", png, title, lo, hi, dat);
    ok = ok && g_file_set_contents(gp, s->str, -1, errp);
    argv[1] = gp;
    ok = ok && g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                            NULL, NULL, &status, errp);
#if GLIB_CHECK_VERSION(2, 70, 0)
    ok = ok && g_spawn_check_wait_status(status, errp);
#else
    ok = ok && g_spawn_check_exit_status(status, errp);
#endif
    g_unlink(dat);
    g_unlink(gp);
    g_rmdir(dir);
    g_free(dat);
    g_free(gp);
    g_free(dir);
    g_string_free(s, true);
    return ok;
}
