/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: drawing model against reference with gnuplot.
 *
 * Owns --plot: one bar per published cell, the model's value divided by
 * the published one, on an axis that starts at 0 so that bar heights
 * compare.  Cells mix units (IOPS, MB/s, minutes), so the ratio is what
 * fits on one axis; the tables print absolute values.  Throughput cells
 * (above 1: the model is faster than the card) and rebuild-time cells
 * (above 1: the model rebuilds slower) mean opposite things above 1, so
 * they are drawn in two panels.  The target band (1 +- the allowed
 * error) is shaded; a cell outside it is drawn red and its ratio printed
 * over the bar.  Needs Debian's gnuplot-nox (pngcairo terminal),
 * installed by scripts/setup-core-deps.sh.
 */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "raidsim.h"

#define PLOT_IN_BAND    0x3070b0
#define PLOT_OUT_BAND   0xd02020

/* One panel's data file: index, label, ratio, colour, ratio text. */
static bool plot_write_data(const char *path, const PlotCell *cells,
                            unsigned n, bool time_cells, double band,
                            double *top, unsigned *count, GError **errp)
{
    GString *s = g_string_new(NULL);
    unsigned k = 0;
    bool ok;

    for (unsigned i = 0; i < n; i++) {
        double r = cells[i].model / cells[i].ref;
        bool out = !(fabs(r - 1) <= band);
        char *label;

        if (cells[i].time != time_cells) {
            continue;
        }
        label = g_strdelimit(g_strdup(cells[i].label), "\"", '\'');
        g_string_append_printf(s, "%u \"%s\" %.4f %d \"%s%.2f\"\n", k++,
                               label, r, out ? PLOT_OUT_BAND : PLOT_IN_BAND,
                               out ? "x" : "", r);
        *top = fmax(*top, r);
        g_free(label);
    }
    if (!k) {
        /* gnuplot refuses an empty file: one invisible point */
        g_string_append(s, "0 \"\" NaN 0 \"\"\n");
    }
    *count = k;
    ok = g_file_set_contents(path, s->str, -1, errp);
    g_string_free(s, true);
    return ok;
}

static void plot_panel(GString *s, const char *dat, const char *what,
                       const char *above, double band, double top,
                       unsigned count)
{
    g_string_append_printf(s,
        "set title \"%s (%u cells): model / published; above 1 means %s\"\n"
        "set yrange [0:%g]\n"
        "set xrange [-0.6:%g]\n"
        "unset object 1\n"
        "set object 1 rect from graph 0, first %g to graph 1, first %g "
        "behind fc rgb '#d8f0d8' fs solid 1.0 noborder\n"
        "plot '%s' using 1:3:4:xtic(2) with boxes lc rgb variable "
        "notitle, '' using 1:3:5 with labels offset 0,0.7 notitle, "
        "1 with lines lc rgb 'black' lw 2 title 'published value', "
        "NaN with boxes fc rgb '#d8f0d8' fs solid title "
        "'target band (+-%g %%)', NaN with boxes lc rgb '#%06x' fs solid "
        "title 'outside the band (x)'\n",
        what, count, above, ceil(fmax(1.3, top * 1.15) * 10) / 10,
        fmax(count, 1) - 0.4, 1 - band, 1 + band, dat, band * 100,
        PLOT_OUT_BAND);
}

bool plot_cells(const char *png, const char *title, const PlotCell *cells,
                unsigned n, double band_pct, GError **errp)
{
    char *dir = g_dir_make_tmp("raidsim-plot-XXXXXX", errp);
    char *dat_tp, *dat_tm, *gp, *argv[3] = { (char *)"gnuplot", NULL, NULL };
    double band = band_pct / 100, top_tp = 0, top_tm = 0;
    unsigned n_tp = 0, n_tm = 0;
    g_autofree char *out = NULL, *err_text = NULL;
    GString *s;
    gint status = 0;
    bool ok;

    if (!dir) {
        return false;
    }
    dat_tp = g_build_filename(dir, "throughput.dat", NULL);
    dat_tm = g_build_filename(dir, "time.dat", NULL);
    gp = g_build_filename(dir, "plot.gp", NULL);
    ok = plot_write_data(dat_tp, cells, n, false, band, &top_tp, &n_tp,
                         errp) &&
         plot_write_data(dat_tm, cells, n, true, band, &top_tm, &n_tm, errp);
    s = g_string_new(NULL);
    g_string_append_printf(s,
        "set terminal pngcairo size 1200,1100 font ',10'\n"
        "set output '%s'\n"
        "set multiplot layout 2,1 title \"%s\"\n"
        "set style fill solid 0.7\n"
        "set boxwidth 0.7\n"
        "set ylabel 'model / published'\n"
        "set xtics rotate by -45 left noenhanced\n"
        "set grid ytics\n"
        "set bmargin 10\n"
        "set rmargin 4\n"
        "set key top right opaque\n", png, title);
    plot_panel(s, dat_tp, "Throughput", "faster than the card", band,
               top_tp, n_tp);
    plot_panel(s, dat_tm, "Rebuild time", "slower than the card", band,
               top_tm, n_tm);
    g_string_append(s, "unset multiplot\n");
    ok = ok && g_file_set_contents(gp, s->str, -1, errp);
    argv[1] = gp;
    ok = ok && g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                            &out, &err_text, &status, errp);
    if (ok && !g_spawn_check_wait_status(status, NULL)) {
        g_set_error(errp, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                    "gnuplot failed drawing %s%s%s", png,
                    err_text && *err_text ? ": " : "",
                    err_text ? g_strstrip(err_text) : "");
        ok = false;
    }
    g_unlink(dat_tp);
    g_unlink(dat_tm);
    g_unlink(gp);
    g_rmdir(dir);
    g_free(dat_tp);
    g_free(dat_tm);
    g_free(gp);
    g_free(dir);
    g_string_free(s, true);
    return ok;
}
