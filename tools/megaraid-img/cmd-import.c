/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img import: adopt a foreign DDF configuration (another
 * controller's, or one mdadm created with --metadata=ddf) and rewrite it
 * as this controller's.
 */
#include "img.h"

#include <stdio.h>

int cmd_import(int argc, char **argv)
{
    gboolean dry_run = false;
    GOptionEntry entries[] = {
        { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
          "only check that the configuration can be imported", NULL },
        { NULL }
    };
    GError *err = NULL;
    Img img;
    int rc = 1, nvd = 0;

    if (!img_parse("import", "DRIVE-IMAGE...",
                   "Import the foreign configuration on the images: its "
                   "drives and VDs become this controller's, and the "
                   "metadata is rewritten with this controller's GUID.",
                   entries, &argc, &argv)) {
        return 2;
    }
    if (!img_open(&img, "import", argv + 1, argc - 1, !dry_run, true,
                  &err)) {
        img_error("import", err);
        return 1;
    }
    if (!raid_config_import(img.cfg, img.ctrl_guid, &err)) {
        goto out;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidLayout *l;

        if (!img.cfg->vds[v].used) {
            continue;
        }
        l = g_new(RaidLayout, 1);
        if (!raid_config_vd_layout(img.cfg, v, l, &err)) {
            g_prefix_error(&err, "VD %d '%s': ", v, img.cfg->vds[v].name);
            g_free(l);
            goto out;
        }
        if (l->vd_sectors != img.cfg->vds[v].size) {
            printf("VD %d '%s': size %" G_GUINT64_FORMAT " in the metadata, "
                   "%" G_GUINT64_FORMAT " by the layout; using the layout\n",
                   v, img.cfg->vds[v].name, img.cfg->vds[v].size,
                   l->vd_sectors);
            img.cfg->vds[v].size = l->vd_sectors;
        }
        g_free(l);
        printf("VD %d '%s': %s, %s, %" G_GUINT64_FORMAT " sectors\n", v,
               img.cfg->vds[v].name, raid_level_name(img.cfg->vds[v].level),
               raid_vd_state_name(img.cfg->vds[v].state),
               img.cfg->vds[v].size);
        nvd++;
    }
    if (!dry_run && !img_save(&img, &err)) {
        goto out;
    }
    printf("%s %d VD(s), %d drive(s)\n", dry_run ? "can import" : "imported",
           nvd, img.cfg->npds);
    rc = 0;
out:
    if (err) {
        img_error("import", err);
    }
    img_close(&img);
    return rc;
}
