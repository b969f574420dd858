/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img add-vd / delete-vd: more VDs on an existing drive group
 * (up to 16), and their removal.
 */
#include "img.h"

#include <stdio.h>

int cmd_add_vd(int argc, char **argv)
{
    g_autofree char *level_s = NULL, *size_s = NULL, *name = NULL;
    int strip_kib = 256, dg = -1, v, rc = 1;
    GOptionEntry entries[] = {
        { "level", 'l', 0, G_OPTION_ARG_STRING, &level_s,
          "RAID level (must fit the group's spans)", "LEVEL" },
        { "strip", 's', 0, G_OPTION_ARG_INT, &strip_kib,
          "strip size in KiB: 64 to 1024 (default 256)", "KIB" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size_s,
          "VD size (default: the rest of the group)", "SIZE" },
        { "name", 'n', 0, G_OPTION_ARG_STRING, &name, "VD name", "NAME" },
        { "dg", 0, 0, G_OPTION_ARG_INT, &dg,
          "drive group (default: the first VD's)", "DG" },
        { NULL }
    };
    RaidVdSpec spec = { 0 };
    GError *err = NULL;
    uint64_t bytes = 0;
    Img img;

    if (!img_parse("add-vd", "DRIVE-IMAGE...",
                   "Add a VD in the free space of an existing drive group.",
                   entries, &argc, &argv)) {
        return 2;
    }
    if (!level_s || !raid_level_parse(level_s, &spec.level)) {
        fprintf(stderr, "megaraid-img add-vd: --level is missing or "
                "unknown\n");
        return 2;
    }
    if (size_s && (!img_parse_size(size_s, &bytes, &err) || bytes % 512)) {
        fprintf(stderr, "megaraid-img add-vd: invalid --size '%s'\n", size_s);
        g_clear_error(&err);
        return 2;
    }
    if (!img_open(&img, "add-vd", argv + 1, argc - 1, true, false, &err)) {
        img_error("add-vd", err);
        return 1;
    }
    if (dg < 0) {
        int first = img_vd(&img, -1, &err);
        dg = first < 0 ? -1 : img.cfg->vds[first].dg;
    }
    spec.strip = (uint32_t)strip_kib * 2;
    spec.size = bytes / 512;
    spec.name = name;
    spec.cache = RAID_CACHE_READ_ALLOWED;
    if (!err) {
        v = raid_config_add_vd(img.cfg, dg, &spec, &err);
        if (v >= 0 && img_save(&img, &err)) {
            printf("created VD %d '%s': %s on drive group %d, start %"
                   G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " sectors\n", v,
                   img.cfg->vds[v].name, raid_level_name(spec.level), dg,
                   img.cfg->vds[v].start, img.cfg->vds[v].size);
            rc = 0;
        }
    }
    if (err) {
        img_error("add-vd", err);
    }
    img_close(&img);
    return rc;
}

int cmd_delete_vd(int argc, char **argv)
{
    int vd = -1, rc = 1;
    GOptionEntry entries[] = {
        { "vd", 'v', 0, G_OPTION_ARG_INT, &vd, "the VD to delete", "N" },
        { NULL }
    };
    GError *err = NULL;
    Img img;

    if (!img_parse("delete-vd", "DRIVE-IMAGE...",
                   "Delete a VD; when it was the group's last, its drives "
                   "become unconfigured.", entries, &argc, &argv)) {
        return 2;
    }
    if (vd < 0) {
        fprintf(stderr, "megaraid-img delete-vd: --vd is required\n");
        return 2;
    }
    if (!img_open(&img, "delete-vd", argv + 1, argc - 1, true, false,
                  &err)) {
        img_error("delete-vd", err);
        return 1;
    }
    if (raid_config_delete_vd(img.cfg, vd, &err) && img_save(&img, &err)) {
        printf("deleted VD %d\n", vd);
        rc = 0;
    }
    if (err) {
        img_error("delete-vd", err);
    }
    img_close(&img);
    return rc;
}
