/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img create: a new configuration (one drive group and its VD,
 * plus hot spares) written as DDF to every drive image.
 */
#include "img.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/* Open (or create, with --drive-size) an image and check its size. */
static bool prepare_image(const char *path, uint64_t create_size,
                          GError **errp)
{
    uint64_t bytes;
    int fd = open(path, O_RDWR);

    if (fd < 0 && errno == ENOENT && create_size) {
        fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
        if (fd >= 0 && ftruncate(fd, create_size) < 0) {
            ERR(errp, "%s: cannot set size: %s", path, g_strerror(errno));
            close(fd);
            return false;
        }
    }
    if (fd < 0) {
        ERR(errp, "%s: cannot open: %s%s", path, g_strerror(errno),
            errno == ENOENT ? " (give --drive-size to create it)" : "");
        return false;
    }
    if (!ddf_file_size(fd, &bytes, errp)) {
        g_prefix_error(errp, "%s: ", path);
        close(fd);
        return false;
    }
    close(fd);
    return true;
}

/* After the format check (img_guard_open): a raw image of whole sectors. */
static bool image_size_ok(const char *path, GError **errp)
{
    uint64_t bytes;
    int fd = img_open_sized(path, &bytes, errp);

    if (fd < 0) {
        return false;
    }
    close(fd);
    if (bytes % 512) {
        ERR(errp, "%s: size %" G_GUINT64_FORMAT " is not a multiple of 512 "
            "(a drive image is whole 512-byte sectors)", path, bytes);
        return false;
    }
    return true;
}

/* Without --force: refuse an image holding DDF or anyone's data. */
static bool image_unused(const char *path, GError **errp)
{
    DdfDriveRead r;
    uint64_t bytes;
    int fd = img_open_sized(path, &bytes, errp);

    if (fd < 0) {
        return false;
    }
    if (bytes >= 64 * 512 && ddf_read_drive(fd, bytes, &r, NULL)) {
        g_autofree char *ctrl = g_strndup((const char *)r.meta->ctrl_guid,
                                          RAID_GUID_LEN);
        uint8_t ours[RAID_GUID_LEN];

        img_ctrl_guid(ours);
        for (char *c = ctrl; *c; c++) {
            *c = g_ascii_isprint(*c) ? *c : '.';
        }
        ERR(errp, "%s: already holds DDF metadata (%s controller '%s'; use "
            "--force to overwrite)", path,
            memcmp(r.meta->ctrl_guid, ours, RAID_GUID_LEN) ? "foreign" :
            "this", g_strchomp(ctrl));
        ddf_drive_read_clear(&r);
        close(fd);
        return false;
    }
    close(fd);
    return img_guard_unused(path, errp);
}

int cmd_create(int argc, char **argv)
{
    g_autofree char *level_s = NULL, *size_s = NULL, *dsize_s = NULL;
    g_autofree char *name = NULL;
    g_auto(GStrv) spares = NULL, dspares = NULL;
    int strip_kib = 256, spans = 0;
    gboolean force = false, wb = false, ra = false;
    GOptionEntry entries[] = {
        { "level", 'l', 0, G_OPTION_ARG_STRING, &level_s,
          "RAID level: raid0 raid1 raid5 raid6 raid10 raid50 raid60 jbod",
          "LEVEL" },
        { "strip", 's', 0, G_OPTION_ARG_INT, &strip_kib,
          "strip size in KiB: 64 to 1024, power of two (default 256)", "KIB" },
        { "spans", 0, 0, G_OPTION_ARG_INT, &spans,
          "spans for raid10/50/60 (default: pairs for raid10, 2 otherwise)",
          "N" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size_s,
          "VD size (K/M/G suffix; default: all the space)", "SIZE" },
        { "name", 'n', 0, G_OPTION_ARG_STRING, &name, "VD name (16 chars)",
          "NAME" },
        { "drive-size", 0, 0, G_OPTION_ARG_STRING, &dsize_s,
          "create missing images as sparse files of this size", "SIZE" },
        { "hot-spare", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &spares,
          "add this image as a global hot spare (repeatable)", "IMAGE" },
        { "dedicated-spare", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &dspares,
          "add this image as a hot spare dedicated to the new drive group",
          "IMAGE" },
        { "write-back", 0, 0, G_OPTION_ARG_NONE, &wb,
          "cache policy: write-back (default write-through)", NULL },
        { "read-ahead", 0, 0, G_OPTION_ARG_NONE, &ra,
          "cache policy: read-ahead", NULL },
        { "force", 'f', 0, G_OPTION_ARG_NONE, &force,
          "overwrite images that already hold DDF metadata", NULL },
        { NULL }
    };
    GError *err = NULL;
    ImgGuard guard = { 0 };
    uint64_t vd_bytes = 0, dsize = 0;
    RaidVdSpec spec = { 0 };
    g_autoptr(GPtrArray) all = g_ptr_array_new();
    g_autofree int *members = NULL;
    RaidConfig *cfg = NULL;
    uint8_t guid[RAID_GUID_LEN];
    int nmem, v, rc = 1;

    if (!img_parse("create", "MEMBER-IMAGE...",
                   "Create a drive group from the member images (in member "
                   "order) with one VD, and write DDF metadata to them.",
                   entries, &argc, &argv)) {
        rc = 2;
        goto out;
    }
    nmem = argc - 1;
    if (!level_s || nmem < 1) {
        fprintf(stderr, "megaraid-img create: --level and at least one "
                "member image are required (see --help)\n");
        rc = 2;
        goto out;
    }
    if (!raid_level_parse(level_s, &spec.level)) {
        fprintf(stderr, "megaraid-img create: unknown RAID level '%s'\n",
                level_s);
        rc = 2;
        goto out;
    }
    if ((size_s && !img_parse_size(size_s, &vd_bytes, &err)) ||
        (dsize_s && !img_parse_size(dsize_s, &dsize, &err))) {
        rc = 2;
        goto out;
    }
    if (vd_bytes % 512 || dsize % 512) {
        fprintf(stderr, "megaraid-img create: sizes must be multiples of "
                "512 bytes\n");
        rc = 2;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        g_ptr_array_add(all, argv[i]);
    }
    for (int i = 0; spares && spares[i]; i++) {
        g_ptr_array_add(all, spares[i]);
    }
    for (int i = 0; dspares && dspares[i]; i++) {
        g_ptr_array_add(all, dspares[i]);
    }
    for (guint i = 0; i < all->len; i++) {
        for (guint j = 0; j < i; j++) {
            if (!strcmp(all->pdata[i], all->pdata[j])) {
                fprintf(stderr, "megaraid-img create: %s is given twice\n",
                        (char *)all->pdata[i]);
                rc = 2;
                goto out;
            }
        }
        if (!prepare_image(all->pdata[i], dsize, &err)) {
            goto out;
        }
    }
    if (!img_guard_open(&guard, (char **)all->pdata, all->len, true,
                        "create", &err)) {
        if (g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_EXIST)) {
            rc = 2;
        }
        goto out;
    }
    for (guint i = 0; i < all->len; i++) {
        if (!image_size_ok(all->pdata[i], &err)) {
            goto out;
        }
    }
    for (guint i = 0; i < all->len && !force; i++) {
        if (!image_unused(all->pdata[i], &err)) {
            goto out;
        }
    }

    img_ctrl_guid(guid);
    cfg = raid_config_new(guid);
    img_make_guid(cfg->header_guid, "");
    for (int i = 0; i < 4; i++) {
        cfg->header_guid[8 + 2 * i] = cfg->ctrl_type[i] >> 8;
        cfg->header_guid[9 + 2 * i] = cfg->ctrl_type[i] & 0xff;
    }
    for (guint i = 0; i < all->len; i++) {
        const char *path = all->pdata[i];
        uint64_t bytes;
        int fd = open(path, O_RDONLY), pd;

        if (fd < 0 || !ddf_file_size(fd, &bytes, &err)) {
            if (fd >= 0) {
                close(fd);
            } else {
                g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_IO, "%s",
                            g_strerror(errno));
            }
            g_prefix_error(&err, "%s: ", path);
            goto out;
        }
        close(fd);
        img_make_guid(guid, "MRSIMPD");
        guid[23] ^= i;
        pd = raid_config_add_pd(cfg, guid, i, bytes / 512, &err);
        if (pd < 0) {
            g_prefix_error(&err, "%s: ", path);
            goto out;
        }
        cfg->pds[pd].path = g_strdup(path);
    }
    members = g_new(int, nmem);
    for (int i = 0; i < nmem; i++) {
        members[i] = i;
    }
    spec.strip = (uint32_t)strip_kib * 2;
    spec.nspans = spans;
    spec.size = vd_bytes / 512;
    spec.name = name;
    spec.cache = (wb ? RAID_CACHE_WRITE_BACK : 0) |
                 (ra ? RAID_CACHE_READ_AHEAD : 0) |
                 RAID_CACHE_READ_ALLOWED | (wb ? RAID_CACHE_WRITE_ALLOWED : 0);
    v = raid_config_create_vd(cfg, members, nmem, &spec, &err);
    if (v < 0) {
        goto out;
    }
    for (guint i = nmem; i < all->len; i++) {
        bool dedicated = i >= nmem + (spares ? g_strv_length(spares) : 0);
        if (!raid_config_add_spare(cfg, i, dedicated ? cfg->vds[v].dg : -1,
                                   &err)) {
            g_prefix_error(&err, "%s: ", (char *)all->pdata[i]);
            goto out;
        }
    }
    if (!ddf_store_config(cfg, &err)) {
        goto out;
    }
    printf("created VD %d '%s': %s, %d drives, strip %u KiB, %"
           G_GUINT64_FORMAT " sectors\n", v, cfg->vds[v].name,
           raid_level_name(cfg->vds[v].level), nmem, cfg->vds[v].strip / 2,
           cfg->vds[v].size);
    rc = 0;
out:
    if (err) {
        img_error("create", err);
    }
    img_guard_close(&guard);
    raid_config_free(cfg);
    return rc;
}
