/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img rebuild / check / init: background jobs run to completion
 * (or --max-rows) on the images, checkpointed in the DDF metadata so an
 * interrupted run resumes where it stopped.
 */
#include "img.h"

#include <stdio.h>
#include <string.h>

/* Rows between two metadata checkpoints. */
#define CHECKPOINT_ROWS 256

static int run_jobs(const char *cmd, Img *img, int only_vd, RaidJobKind kind,
                    bool repair, int64_t max_rows, GError **errp)
{
    int ran = 0;
    uint64_t left = max_rows > 0 ? (uint64_t)max_rows : UINT64_MAX;
    uint64_t mism = 0;

    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &img->cfg->vds[v];
        RaidFileExec fx;

        if (!vd->used || (only_vd >= 0 && v != only_vd)) {
            continue;
        }
        if (vd->job.kind == RAID_JOB_NONE) {
            GError *e = NULL;
            if (kind == RAID_JOB_REBUILD) {
                /* A member in rebuild without a cursor gets one. */
                if (!raid_job_start(img->cfg, v, kind, repair, &e)) {
                    g_clear_error(&e);
                    continue;
                }
            } else if (!raid_job_start(img->cfg, v, kind, repair, errp)) {
                return -1;
            }
        } else if (vd->job.kind != kind) {
            if (only_vd >= 0) {
                g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "VD %d runs a %s, not a %s", v,
                            raid_job_name(vd->job.kind), raid_job_name(kind));
                return -1;
            }
            continue;
        } else if (vd->job.next_row) {
            printf("VD %d: resuming %s at row %" G_GUINT64_FORMAT " of %"
                   G_GUINT64_FORMAT "\n", v, raid_job_name(kind),
                   vd->job.next_row, vd->job.total_rows);
        }
        if (!img_exec_open(img, v, true, &fx, errp)) {
            return -1;
        }
        ran++;
        while (left) {
            RaidJobProgress pr;
            uint64_t chunk = MIN(left, CHECKPOINT_ROWS);
            bool ok = raid_job_step(img->cfg, v, &raid_file_exec_ops, &fx,
                                    chunk, &pr, errp);

            left -= pr.rows;
            mism = pr.total_mismatches;
            /* Checkpoint, also after an error (the cursor is valid). */
            if (!img_save(img, ok ? errp : NULL) || !ok) {
                img_exec_close(&fx);
                return -1;
            }
            if (pr.finished) {
                printf("VD %d: %s finished%s", v, raid_job_name(kind),
                       kind == RAID_JOB_CHECK ? "" : "\n");
                if (kind == RAID_JOB_CHECK) {
                    printf(", %" G_GUINT64_FORMAT " inconsistent row(s)%s\n",
                           mism, repair && mism ? " repaired" : "");
                }
                break;
            }
        }
        img_exec_close(&fx);
        if (!left && vd->job.kind != RAID_JOB_NONE) {
            printf("VD %d: %s stopped at row %" G_GUINT64_FORMAT " of %"
                   G_GUINT64_FORMAT " (%u%%)\n", v, raid_job_name(kind),
                   vd->job.next_row, vd->job.total_rows,
                   raid_job_percent(&vd->job));
            break;
        }
    }
    if (!ran && kind == RAID_JOB_REBUILD) {
        printf("no rebuild pending\n");
    }
    (void)cmd;
    return (int)MIN(mism, 1);
}

static int job_cmd(const char *cmd, RaidJobKind kind, const char *summary,
                   int argc, char **argv)
{
    int vd = -1;
    gint64 max_rows = 0;
    gboolean repair = false, force = false;
    GOptionEntry entries[] = {
        { "vd", 'v', 0, G_OPTION_ARG_INT, &vd, "only this VD", "N" },
        { "max-rows", 0, 0, G_OPTION_ARG_INT64, &max_rows,
          "stop after this many rows (the job resumes next time)", "N" },
        { NULL }, { NULL }
    };
    GError *err = NULL;
    Img img;
    int r;

    if (kind == RAID_JOB_CHECK) {
        entries[2] = (GOptionEntry) {
            "repair", 0, 0, G_OPTION_ARG_NONE, &repair,
            "rewrite parity / mirrors of inconsistent rows", NULL };
    } else if (kind == RAID_JOB_INIT) {
        entries[2] = (GOptionEntry) {
            "force", 'f', 0, G_OPTION_ARG_NONE, &force,
            "without -v: zero every VD", NULL };
    }
    if (!img_parse(cmd, "DRIVE-IMAGE...", summary, entries, &argc, &argv)) {
        return 2;
    }
    if (!img_open(&img, cmd, argv + 1, argc - 1, true, false, &err)) {
        img_error(cmd, err);
        return 1;
    }
    if (vd < -1) {
        g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "VD %d does not exist", vd);
        r = -1;
    } else if (vd >= 0 && img_vd(&img, vd, &err) < 0) {
        r = -1;
    } else if (kind == RAID_JOB_INIT && vd == -1 && !force &&
               raid_config_count_vds(img.cfg) > 0) {
        g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "without -v, init zeroes every VD (%d VD(s) here) and "
                    "all their data; give -v VD for one, or --force for "
                    "all", raid_config_count_vds(img.cfg));
        r = -1;
    } else {
        r = run_jobs(cmd, &img, vd, kind, repair, max_rows, &err);
    }
    if (r < 0) {
        img_error(cmd, err);
        r = 1;
    } else if (kind == RAID_JOB_CHECK && r > 0 && !repair) {
        r = 3;      /* inconsistencies found */
    } else {
        r = 0;
    }
    img_close(&img);
    return r;
}

int cmd_rebuild(int argc, char **argv)
{
    return job_cmd("rebuild", RAID_JOB_REBUILD,
                   "Rebuild members in rebuild state (after 'replace'), "
                   "resuming from the checkpoint in the metadata.",
                   argc, argv);
}

int cmd_check(int argc, char **argv)
{
    return job_cmd("check", RAID_JOB_CHECK,
                   "Consistency check: compare parity / mirrors with the "
                   "data; exit status 3 if inconsistent rows were found "
                   "(without --repair).", argc, argv);
}

int cmd_init(int argc, char **argv)
{
    return job_cmd("init", RAID_JOB_INIT,
                   "Full initialization: write zeroes (data and parity) "
                   "over the VD.", argc, argv);
}
