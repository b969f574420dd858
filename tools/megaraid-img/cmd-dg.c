/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img add-dg: another drive group, with its first VD, in the
 * configuration the images already hold, so that one controller carries
 * several arrays (a RAID 1 boot volume beside a RAID 5 data volume, say).
 * `create` starts a new configuration instead.
 */
#include "img.h"

#include <stdio.h>

int cmd_add_dg(int argc, char **argv)
{
    g_autofree char *level_s = NULL, *size_s = NULL, *name = NULL;
    g_auto(GStrv) members = NULL, dspares = NULL;
    int strip_kib = 256, spans = 0, rc = 1, v = -1;
    gboolean wb = false;
    GOptionEntry entries[] = {
        { "level", 'l', 0, G_OPTION_ARG_STRING, &level_s,
          "RAID level of the new drive group's VD", "LEVEL" },
        { "member", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &members,
          "a member of the new group, in member order (repeat; it must be "
          "among the images and unconfigured or blank)", "IMAGE" },
        { "strip", 's', 0, G_OPTION_ARG_INT, &strip_kib,
          "strip size in KiB: 64 to 1024 (default 256)", "KIB" },
        { "spans", 0, 0, G_OPTION_ARG_INT, &spans,
          "spans for raid10/50/60", "N" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size_s,
          "VD size (default: all the space)", "SIZE" },
        { "name", 'n', 0, G_OPTION_ARG_STRING, &name, "VD name", "NAME" },
        { "dedicated-spare", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &dspares,
          "a hot spare dedicated to the new group (repeat)", "IMAGE" },
        { "write-back", 0, 0, G_OPTION_ARG_NONE, &wb,
          "cache policy: write-back (default write-through)", NULL },
        { NULL }
    };
    RaidVdSpec spec = { 0 };
    g_autofree int *pds = NULL;
    GError *err = NULL;
    uint64_t bytes = 0;
    int nmem;
    Img img;

    if (!img_parse("add-dg", "DRIVE-IMAGE...",
                   "Add a drive group made of the --member images, with one "
                   "VD, to the configuration on the images (all of them, "
                   "old and new, are listed).", entries, &argc, &argv)) {
        return 2;
    }
    nmem = members ? g_strv_length(members) : 0;
    if (!level_s || !raid_level_parse(level_s, &spec.level) || nmem < 1) {
        fprintf(stderr, "megaraid-img add-dg: --level and at least one "
                "--member are required (see --help)\n");
        return 2;
    }
    if (size_s && (!img_parse_size(size_s, &bytes, &err) || bytes % 512)) {
        fprintf(stderr, "megaraid-img add-dg: invalid --size '%s'\n", size_s);
        g_clear_error(&err);
        return 2;
    }
    if (!img_open(&img, "add-dg", argv + 1, argc - 1, true, false, &err)) {
        img_error("add-dg", err);
        return 1;
    }
    pds = g_new(int, nmem);
    for (int i = 0; i < nmem && !err; i++) {
        pds[i] = img_pd_of_path(&img, members[i], NULL);
        if (pds[i] < 0) {
            pds[i] = img_add_blank(&img, members[i], &err);
        }
    }
    spec.strip = (uint32_t)strip_kib * 2;
    spec.size = bytes / 512;
    spec.nspans = spans;
    spec.name = name;
    spec.cache = RAID_CACHE_READ_ALLOWED | (wb ? RAID_CACHE_WRITE_BACK : 0);
    if (!err) {
        v = raid_config_create_vd(img.cfg, pds, nmem, &spec, &err);
    }
    for (int i = 0; v >= 0 && dspares && dspares[i] && !err; i++) {
        int pd = img_pd_of_path(&img, dspares[i], NULL);

        if (pd < 0) {
            pd = img_add_blank(&img, dspares[i], &err);
        }
        if (pd >= 0) {
            raid_config_add_spare(img.cfg, pd, img.cfg->vds[v].dg, &err);
        }
    }
    if (!err && img_save(&img, &err)) {
        printf("created VD %d '%s': %s, drive group %d of %d drives, %"
               G_GUINT64_FORMAT " sectors\n", v, img.cfg->vds[v].name,
               raid_level_name(spec.level), img.cfg->vds[v].dg, nmem,
               img.cfg->vds[v].size);
        rc = 0;
    }
    if (err) {
        img_error("add-dg", err);
    }
    img_close(&img);
    return rc;
}
