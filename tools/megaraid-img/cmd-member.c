/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img fail / replace / spare: member and hot spare changes.
 */
#include "img.h"

#include <stdio.h>
#include <string.h>

int cmd_fail(int argc, char **argv)
{
    g_autofree char *drive = NULL;
    GOptionEntry entries[] = {
        { "drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive,
          "the image to mark failed (one of DRIVE-IMAGE...)", "IMAGE" },
        { NULL }
    };
    GError *err = NULL;
    Img img;
    int pd, rc = 1;

    if (!img_parse("fail", "DRIVE-IMAGE...",
                   "Mark a drive failed: a member goes offline, a spare or "
                   "unconfigured drive goes unconfigured-bad.", entries,
                   &argc, &argv)) {
        return 2;
    }
    if (!drive) {
        fprintf(stderr, "megaraid-img fail: --drive is required\n");
        return 2;
    }
    if (!img_open(&img, "fail", argv + 1, argc - 1, true, false, &err)) {
        img_error("fail", err);
        return 1;
    }
    pd = img_pd_of_path(&img, drive, &err);
    if (pd >= 0 && raid_config_fail_pd(img.cfg, pd, &err) &&
        img_save(&img, &err)) {
        printf("%s: %s\n", drive, raid_pd_state_name(img.cfg->pds[pd].state));
        rc = 0;
    }
    if (err) {
        img_error("fail", err);
    }
    img_close(&img);
    return rc;
}

int cmd_replace(int argc, char **argv)
{
    g_autofree char *drive = NULL, *with = NULL;
    int slot = -1;
    GOptionEntry entries[] = {
        { "drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive,
          "the failed member's image (if it is still listed)", "IMAGE" },
        { "index", 'x', 0, G_OPTION_ARG_INT, &slot,
          "or: the failed or missing member by drive index (see show)", "N" },
        { "with", 'w', 0, G_OPTION_ARG_FILENAME, &with,
          "replacement image (blank or unconfigured); default: a hot spare",
          "IMAGE" },
        { NULL }
    };
    GError *err = NULL;
    Img img;
    int oldpd = -1, newpd = -1, dg = -1, rc = 1;

    if (!img_parse("replace", "DRIVE-IMAGE...",
                   "Replace a failed or missing member by a new image or a "
                   "hot spare; the new drive goes to rebuild (run "
                   "'megaraid-img rebuild').", entries, &argc, &argv)) {
        return 2;
    }
    if (!drive && slot < 0) {
        fprintf(stderr, "megaraid-img replace: --drive or --index is "
                "required\n");
        return 2;
    }
    if (!img_open(&img, "replace", argv + 1, argc - 1, true, false,
                  &err)) {
        img_error("replace", err);
        return 1;
    }
    if (drive) {
        oldpd = img_pd_of_path(&img, drive, &err);
    } else if (slot >= img.cfg->npds) {
        g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "drive index %d does not exist", slot);
    } else {
        oldpd = slot;
    }
    if (oldpd < 0) {
        goto out;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        int pds[RAID_MAX_MEMBERS];
        int n;

        if (!img.cfg->vds[v].used) {
            continue;
        }
        n = raid_vd_members(img.cfg, v, pds, RAID_MAX_MEMBERS);
        for (int i = 0; i < n; i++) {
            if (pds[i] == oldpd) {
                dg = img.cfg->vds[v].dg;
            }
        }
    }
    if (with) {
        newpd = img_pd_of_path(&img, with, NULL);
        if (newpd < 0) {
            newpd = img_add_blank(&img, with, &err);
        }
    } else {
        newpd = raid_config_pick_spare(img.cfg, dg);
        if (newpd < 0) {
            g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "no hot spare for drive group %d; give --with", dg);
        }
    }
    if (newpd < 0 || !raid_config_replace_pd(img.cfg, oldpd, newpd, &err) ||
        !img_save(&img, &err)) {
        goto out;
    }
    printf("%s replaces drive %d; rebuild pending\n",
           img.cfg->pds[newpd].path ? img.cfg->pds[newpd].path : "?", oldpd);
    rc = 0;
out:
    if (err) {
        img_error("replace", err);
    }
    img_close(&img);
    return rc;
}

int cmd_spare(int argc, char **argv)
{
    g_autofree char *drive = NULL;
    int dg = -1;
    gboolean remove = false;
    GOptionEntry entries[] = {
        { "drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive,
          "the image to make a hot spare (blank or unconfigured-good)",
          "IMAGE" },
        { "dedicated", 0, 0, G_OPTION_ARG_INT, &dg,
          "dedicate it to this drive group (default: global)", "DG" },
        { "remove", 0, 0, G_OPTION_ARG_NONE, &remove,
          "turn the hot spare back into an unconfigured-good drive", NULL },
        { NULL }
    };
    GError *err = NULL;
    Img img;
    int pd, rc = 1;

    if (!img_parse("spare", "DRIVE-IMAGE...",
                   "Add or remove a global or dedicated hot spare.", entries,
                   &argc, &argv)) {
        return 2;
    }
    if (!drive) {
        fprintf(stderr, "megaraid-img spare: --drive is required\n");
        return 2;
    }
    if (!img_open(&img, "spare", argv + 1, argc - 1, true, false, &err)) {
        img_error("spare", err);
        return 1;
    }
    pd = img_pd_of_path(&img, drive, NULL);
    if (pd < 0 && !remove) {
        pd = img_add_blank(&img, drive, &err);
    } else if (pd < 0) {
        pd = img_pd_of_path(&img, drive, &err);
    }
    if (pd >= 0 &&
        (remove ? raid_config_remove_spare(img.cfg, pd, &err) :
         raid_config_add_spare(img.cfg, pd, dg, &err)) &&
        img_save(&img, &err)) {
        printf("%s: %s\n", drive, raid_pd_state_name(img.cfg->pds[pd].state));
        rc = 0;
    }
    if (err) {
        img_error("spare", err);
    }
    img_close(&img);
    return rc;
}
