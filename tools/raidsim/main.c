/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raidsim: command line of the timing-model simulator.
 *
 * Owns option parsing and output: one fio-like job on a bed described by
 * options; or the jobs of a job file (--job FILE, fio's ini style: each
 * section is a job, [global] and the command line give the defaults, keys
 * are the long option names: rw=randrw, bs=4k, level=raid5, ...); or
 * --reference BED (the published test beds, no other input), optionally
 * --plot FILE.png.  Exit status: 0, 1 on bad
 * input or when the plot cannot be drawn; with --max-error E, 2 when a
 * reference run's worst cell error exceeds E % (the meson tests use
 * that).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "raidsim.h"

static char *opt_ctrl = (char *)"9670w-16i";
static char *opt_drive;
static char *opt_level = (char *)"raid5";
static char *opt_state = (char *)"optimal";
static char *opt_rw = (char *)"randread";
static char *opt_bs = (char *)"4k";
static char *opt_reference, *opt_job;
static char *opt_plot;
static gint opt_drives = 16, opt_arrays = 1, opt_mix = 70;
static gint opt_numjobs = 64, opt_iodepth = 64, opt_rate = 30;
static gdouble opt_runtime = 10, opt_ramp = 0.05, opt_max_error = -1;
static gdouble opt_ref_runtime = 0.1, opt_waived_error = -1;
static char **opt_waive;
static gboolean opt_write_through, opt_list, opt_calibrate, opt_version;

static GOptionEntry entries[] = {
    { "reference", 0, 0, G_OPTION_ARG_STRING, &opt_reference,
      "run a published test bed: 9670w or h755n", "BED" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &opt_plot,
      "with --reference: draw model against reference (gnuplot)", "PNG" },
    { "max-error", 0, 0, G_OPTION_ARG_DOUBLE, &opt_max_error,
      "with --reference: exit 2 if the worst cell error exceeds this %",
      "PCT" },
    { "waive", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_waive,
      "with --max-error: a cell (its label) known to miss, checked "
      "against --waived-error instead (repeatable)", "CELL" },
    { "waived-error", 0, 0, G_OPTION_ARG_DOUBLE, &opt_waived_error,
      "with --waive: exit 2 if any cell exceeds this %", "PCT" },
    { "ref-runtime", 0, 0, G_OPTION_ARG_DOUBLE, &opt_ref_runtime,
      "with --reference: simulated seconds per cell (0.1)", "S" },
    { "job", 0, 0, G_OPTION_ARG_FILENAME, &opt_job,
      "run every section of an fio-style job file", "FILE" },
    /* job keys: from here to the end, also valid in a job file */
    { "ctrl", 0, 0, G_OPTION_ARG_STRING, &opt_ctrl,
      "controller profile (9670w-16i)", "NAME" },
    { "drive", 0, 0, G_OPTION_ARG_STRING, &opt_drive,
      "drive profile (default: the NVMe default)", "NAME" },
    { "level", 0, 0, G_OPTION_ARG_STRING, &opt_level,
      "jbod, raid0, raid1, raid5, raid6, raid10, raid50, raid60", "L" },
    { "drives", 0, 0, G_OPTION_ARG_INT, &opt_drives,
      "drives per array (16)", "N" },
    { "arrays", 0, 0, G_OPTION_ARG_INT, &opt_arrays, "arrays (1)", "N" },
    { "state", 0, 0, G_OPTION_ARG_STRING, &opt_state,
      "optimal or rebuilding (member 0, half rebuilt)", "S" },
    { "rebuild-rate", 0, 0, G_OPTION_ARG_INT, &opt_rate,
      "rebuild-rate 0-100 (30)", "R" },
    { "write-through", 0, 0, G_OPTION_ARG_NONE, &opt_write_through,
      "VDs without write-back cache", NULL },
    { "rw", 0, 0, G_OPTION_ARG_STRING, &opt_rw,
      "read, write, rw, randread, randwrite, randrw (fio names)", "RW" },
    { "rwmixread", 0, 0, G_OPTION_ARG_INT, &opt_mix,
      "percent reads of rw/randrw (70)", "PCT" },
    { "bs", 0, 0, G_OPTION_ARG_STRING, &opt_bs, "block size (4k)", "BS" },
    { "numjobs", 0, 0, G_OPTION_ARG_INT, &opt_numjobs, "jobs (64)", "N" },
    { "iodepth", 0, 0, G_OPTION_ARG_INT, &opt_iodepth,
      "outstanding requests per job (64)", "N" },
    { "runtime", 0, 0, G_OPTION_ARG_DOUBLE, &opt_runtime,
      "simulated seconds measured (10)", "S" },
    { "ramp", 0, 0, G_OPTION_ARG_DOUBLE, &opt_ramp,
      "simulated seconds before measuring (0.05)", "S" },
    /* end of job keys */
    { "calibrate-rebuild", 0, 0, G_OPTION_ARG_NONE, &opt_calibrate,
      "print the pipeline depth and parity bandwidth the published "
      "rebuild times give", NULL },
    { "list", 0, 0, G_OPTION_ARG_NONE, &opt_list,
      "list the drive and controller profiles", NULL },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
      "print the version and exit", NULL },
    { NULL }
};

static bool parse_bs(const char *s, uint32_t *bs)
{
    char *end;
    guint64 v = g_ascii_strtoull(s, &end, 10);

    if (*end == 'k' || *end == 'K') {
        v <<= 10;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v <<= 20;
        end++;
    }
    if (*end || !v || v % 512 || v > (16u << 20)) {
        return false;
    }
    *bs = v;
    return true;
}

static void list_profiles(void)
{
    const TimingDriveProfile *d;
    const TimingCtrlProfile *c;

    printf("drive profiles:\n");
    for (unsigned i = 0; (d = timing_drive_profile_at(i)); i++) {
        printf("  %-22s %s\n", d->name, d->desc);
    }
    printf("controller profiles:\n");
    for (unsigned i = 0; (c = timing_ctrl_profile_at(i)); i++) {
        printf("  %-22s %s\n", c->name, c->desc);
    }
}

static int run_job(void)
{
    SimBed bed = {
        .ctrl = timing_ctrl_profile_find(opt_ctrl),
        .drive = opt_drive ? timing_drive_profile_find(opt_drive) :
                 timing_drive_profile_default(TIMING_IFACE_NVME),
        .arrays = opt_arrays, .drives_per_array = opt_drives,
        .rebuilt_frac = 0.5, .write_back = !opt_write_through,
        .rate = opt_rate,
    };
    SimJob job = {
        .numjobs = opt_numjobs, .iodepth = opt_iodepth,
        .ramp_s = opt_ramp, .runtime_s = opt_runtime,
    };
    struct timespec t0, t1;
    GError *err = NULL;
    SimResult r;
    double wall;

    if (!bed.ctrl || !bed.drive) {
        char *names = bed.ctrl ? timing_drive_profile_names() :
                                 timing_ctrl_profile_names();

        fprintf(stderr, "raidsim: unknown %s profile; valid: %s\n",
                bed.ctrl ? "drive" : "controller", names);
        g_free(names);
        return 1;
    }
    if (!raid_level_parse(opt_level, &bed.level)) {
        fprintf(stderr, "raidsim: unknown level '%s'\n", opt_level);
        return 1;
    }
    if (!strcmp(opt_state, "rebuilding")) {
        bed.rebuilding = true;
    } else if (strcmp(opt_state, "optimal")) {
        fprintf(stderr, "raidsim: state is optimal or rebuilding\n");
        return 1;
    }
    if (!parse_bs(opt_bs, &job.bs)) {
        fprintf(stderr, "raidsim: bad block size '%s'\n", opt_bs);
        return 1;
    }
    job.random = g_str_has_prefix(opt_rw, "rand");
    if (!strcmp(opt_rw, "read") || !strcmp(opt_rw, "randread")) {
        job.read_pct = 100;
    } else if (!strcmp(opt_rw, "write") || !strcmp(opt_rw, "randwrite")) {
        job.read_pct = 0;
    } else if (!strcmp(opt_rw, "rw") || !strcmp(opt_rw, "randrw")) {
        job.read_pct = CLAMP(opt_mix, 0, 100);
    } else {
        fprintf(stderr, "raidsim: unknown rw '%s'\n", opt_rw);
        return 1;
    }
    if (opt_numjobs <= 0 || opt_iodepth <= 0 || opt_drives <= 0 ||
        opt_arrays <= 0 || !(opt_runtime > 0) || !(opt_ramp >= 0)) {
        fprintf(stderr, "raidsim: numjobs, iodepth, drives, arrays and "
                "runtime must be positive\n");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!sim_run(&bed, &job, &r, &err)) {
        fprintf(stderr, "raidsim: %s\n", err->message);
        g_error_free(err);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s %s x %d x %d %s, %s %s bs %s, %d jobs x QD %d, "
           "%.3g s simulated\n", bed.ctrl->name, raid_level_name(bed.level),
           opt_arrays, opt_drives, bed.drive->name, opt_state, opt_rw,
           opt_bs, opt_numjobs, opt_iodepth, opt_runtime);
    printf("IOPS %.0f  MB/s %.1f  latency mean %.1f us max %.1f us\n",
           r.iops, r.mbps, r.lat_mean_us, r.lat_max_us);
    if (bed.rebuilding) {
        printf("rebuild %.1f MB/s during the run\n", r.rebuild_mbps);
    }
    printf("busiest resources:");
    for (unsigned i = 0; i < G_N_ELEMENTS(r.busiest) && r.busiest[i]; i++) {
        printf(" %s %.0f%%", r.busiest[i], r.busiest_util[i] * 100);
    }
    printf("\n");
    printf("wall %.2f s for %" PRIu64 " requests (%.0f ns each)\n", wall,
           r.ios, r.ios ? wall * 1e9 / r.ios : 0);
    return 0;
}

/* The job keys: the entries from "ctrl" up to "calibrate-rebuild". */
static GOptionEntry *job_key(const char *name, bool any)
{
    bool in = false;

    for (GOptionEntry *e = entries; e->long_name; e++) {
        if (!strcmp(e->long_name, "ctrl")) {
            in = true;
        } else if (!strcmp(e->long_name, "calibrate-rebuild")) {
            in = false;
        }
        if ((in || any) && !strcmp(e->long_name, name)) {
            return e;
        }
    }
    return NULL;
}

typedef union KeyVal {
    char *s;
    gint i;
    gdouble d;
    gboolean b;
} KeyVal;

static void keys_save(KeyVal *v)
{
    unsigned n = 0;

    for (GOptionEntry *e = entries; e->long_name; e++, n++) {
        memcpy(&v[n], e->arg_data, e->arg == G_OPTION_ARG_INT ?
               sizeof(gint) : e->arg == G_OPTION_ARG_DOUBLE ?
               sizeof(gdouble) : e->arg == G_OPTION_ARG_NONE ?
               sizeof(gboolean) : sizeof(char *));
    }
}

static void keys_restore(const KeyVal *v)
{
    unsigned n = 0;

    for (GOptionEntry *e = entries; e->long_name; e++, n++) {
        memcpy(e->arg_data, &v[n], e->arg == G_OPTION_ARG_INT ?
               sizeof(gint) : e->arg == G_OPTION_ARG_DOUBLE ?
               sizeof(gdouble) : e->arg == G_OPTION_ARG_NONE ?
               sizeof(gboolean) : sizeof(char *));
    }
}

/* Set the job keys of one job-file section; false on a bad key. */
static bool keys_apply(GKeyFile *kf, const char *group, GPtrArray *strings)
{
    gchar **keys = g_key_file_get_keys(kf, group, NULL, NULL);
    bool ok = true;

    for (unsigned i = 0; keys && keys[i] && ok; i++) {
        GOptionEntry *e = job_key(keys[i], false);
        char *v = g_key_file_get_string(kf, group, keys[i], NULL);
        char *end = NULL;

        if (!e || !v) {
            fprintf(stderr, "raidsim: [%s] %s: not a job key\n", group,
                    keys[i]);
            ok = false;
        } else if (e->arg == G_OPTION_ARG_INT) {
            *(gint *)e->arg_data = (gint)g_ascii_strtoll(v, &end, 10);
        } else if (e->arg == G_OPTION_ARG_DOUBLE) {
            *(gdouble *)e->arg_data = g_ascii_strtod(v, &end);
        } else if (e->arg == G_OPTION_ARG_NONE) {
            *(gboolean *)e->arg_data = !strcmp(v, "1") ||
                                       !g_ascii_strcasecmp(v, "true");
        } else {
            *(char **)e->arg_data = v;
            g_ptr_array_add(strings, v);
            v = NULL;
        }
        if (end && (*end || end == v)) {
            fprintf(stderr, "raidsim: [%s] %s=%s: not a number\n", group,
                    keys[i], v);
            ok = false;
        }
        g_free(v);
    }
    g_strfreev(keys);
    return ok;
}

static int run_job_file(const char *path)
{
    GKeyFile *kf = g_key_file_new();
    GPtrArray *strings = g_ptr_array_new_with_free_func(g_free);
    KeyVal base[G_N_ELEMENTS(entries)];
    GError *err = NULL;
    gchar **groups, *text = NULL;
    gsize len;
    int ret = 0;

    /* fio comments start with ';' too */
    if (g_file_get_contents(path, &text, &len, &err)) {
        for (gsize i = 0; i < len; i++) {
            if (text[i] == ';' && (i == 0 || text[i - 1] == '\n')) {
                text[i] = '#';
            }
        }
    }
    if (!text || !g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE,
                                            &err)) {
        fprintf(stderr, "raidsim: %s: %s\n", path, err->message);
        g_error_free(err);
        g_free(text);
        g_key_file_free(kf);
        g_ptr_array_free(strings, true);
        return 1;
    }
    if (g_key_file_has_group(kf, "global") &&
        !keys_apply(kf, "global", strings)) {
        ret = 1;
    }
    g_free(text);
    keys_save(base);
    groups = g_key_file_get_groups(kf, NULL);
    for (unsigned i = 0; !ret && groups[i]; i++) {
        if (!strcmp(groups[i], "global")) {
            continue;
        }
        keys_restore(base);
        if (!keys_apply(kf, groups[i], strings)) {
            ret = 1;
            break;
        }
        printf("[%s] ", groups[i]);
        ret = run_job();
    }
    g_strfreev(groups);
    g_key_file_free(kf);
    g_ptr_array_free(strings, true);
    return ret;
}

int main(int argc, char **argv)
{
    GOptionContext *ctx = g_option_context_new(
        "- the MegaRAID timing model on fio-like jobs, in simulated time");
    GError *err = NULL;
    int ret;

    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx,
        "Exit status: 0 success; 1 bad input, or --plot could not draw "
        "(gnuplot\nmissing or failing: apt-get install gnuplot-nox); 2 a "
        "reference run's cell\nerror above --max-error or "
        "--waived-error.  See raidsim(1).\n");
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "raidsim: %s\n", err->message);
        g_error_free(err);
        g_option_context_free(ctx);
        return 1;
    }
    g_option_context_free(ctx);
    if (opt_version) {
        printf("raidsim %s\n", RAIDSIM_VERSION);
        return 0;
    }
    if (opt_list) {
        list_profiles();
        return 0;
    }
    if (opt_calibrate) {
        reference_calibrate(stdout);
        return 0;
    }
    if (opt_plot && !opt_reference) {
        fprintf(stderr, "raidsim: --plot draws a reference run: it needs "
                "--reference 9670w or --reference h755n\n");
        return 1;
    }
    if (opt_reference) {
        bool plot_failed = false;
        double unwaived, worst = reference_run(opt_reference, stdout,
                                               opt_plot,
                                               opt_max_error >= 0 ?
                                               opt_max_error : 10,
                                               &plot_failed, opt_ref_runtime,
                                               opt_waive, &unwaived);

        if (isnan(worst) || plot_failed) {
            return 1;
        }
        ret = 0;
        if (opt_max_error >= 0 && unwaived > opt_max_error) {
            fprintf(stderr, "raidsim: worst cell error %.1f %% exceeds "
                    "%.1f %%\n", unwaived, opt_max_error);
            ret = 2;
        }
        if (opt_waive && opt_waived_error >= 0 && worst > opt_waived_error) {
            fprintf(stderr, "raidsim: a waived cell's error %.1f %% exceeds "
                    "%.1f %%\n", worst, opt_waived_error);
            ret = 2;
        }
        return ret;
    }
    if (opt_job) {
        return run_job_file(opt_job);
    }
    return run_job();
}
