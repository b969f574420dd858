/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img: what the subcommands share: option parsing, GUIDs, sizes,
 * loading and saving the configuration on the images, file executors.
 */
#include "img.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

char *opt_serial;

void img_error(const char *cmd, GError *err)
{
    fprintf(stderr, "megaraid-img %s: %s\n", cmd, err->message);
    g_error_free(err);
}

bool img_parse(const char *cmd, const char *params, const char *summary,
               GOptionEntry *entries, int *argc, char ***argv)
{
    GOptionEntry common[] = {
        { "serial", 0, 0, G_OPTION_ARG_STRING, &opt_serial,
          "controller serial number (default MRSIM00000000001); drives "
          "written by another controller are foreign", "SERIAL" },
        { NULL }
    };
    g_autofree char *prg = g_strdup_printf("megaraid-img %s", cmd);
    GOptionContext *ctx = g_option_context_new(params);
    GError *err = NULL;
    bool ok;

    g_set_prgname(prg);
    g_option_context_set_summary(ctx, summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_add_main_entries(ctx, common, NULL);
    ok = g_option_context_parse(ctx, argc, argv, &err);
    g_option_context_free(ctx);
    if (!ok) {
        img_error(cmd, err);
    }
    return ok;
}

void img_ctrl_guid(uint8_t guid[RAID_GUID_LEN])
{
    raid_ctrl_guid(opt_serial, guid);
}

void img_make_guid(uint8_t guid[RAID_GUID_LEN], const char *tag)
{
    uint32_t t = (uint32_t)(g_get_real_time() / G_USEC_PER_SEC - 315532800);
    uint32_t r = g_random_int();

    memcpy(guid, "LSI     ", 8);
    memset(guid + 8, ' ', 8);
    memcpy(guid + 8, tag, MIN(strlen(tag), 8));
    for (int i = 0; i < 4; i++) {
        guid[16 + i] = t >> (24 - 8 * i);
        guid[20 + i] = r >> (24 - 8 * i);
    }
}

bool img_parse_size(const char *s, uint64_t *bytes, GError **errp)
{
    char *end;
    guint64 v;
    uint64_t mul = 1;

    if (!s || !g_ascii_isdigit(*s)) {
        ERR(errp, "invalid size '%s'", s ? s : "");
        return false;
    }
    v = g_ascii_strtoull(s, &end, 10);
    switch (g_ascii_toupper(*end)) {
    case 0:
        break;
    case 'K':
        mul = 1ull << 10;
        break;
    case 'M':
        mul = 1ull << 20;
        break;
    case 'G':
        mul = 1ull << 30;
        break;
    case 'T':
        mul = 1ull << 40;
        break;
    default:
        ERR(errp, "invalid size '%s' (use a number with K, M, G or T)", s);
        return false;
    }
    if (*end && end[1] && g_ascii_strcasecmp(end + 1, "iB") &&
        g_ascii_strcasecmp(end + 1, "B")) {
        ERR(errp, "invalid size '%s' (use a number with K, M, G or T)", s);
        return false;
    }
    if (v > UINT64_MAX / mul) {
        ERR(errp, "size '%s' is too large", s);
        return false;
    }
    *bytes = v * mul;
    return true;
}

bool img_open(Img *img, const char *cmd, char **paths, int n, bool write,
              bool allow_foreign, GError **errp)
{
    memset(img, 0, sizeof(*img));
    if (n < 1) {
        ERR(errp, "no drive images given");
        return false;
    }
    if (!img_guard_open(&img->guard, paths, n, write, cmd, errp)) {
        return false;
    }
    img_ctrl_guid(img->ctrl_guid);
    img->paths = paths;
    img->n = n;
    img->reads = g_new0(DdfDriveRead, n);
    img->cfg = ddf_load_files(paths, n, img->ctrl_guid, img->reads, errp);
    if (!img->cfg) {
        g_free(img->reads);
        img->reads = NULL;
        img_guard_close(&img->guard);
        return false;
    }
    if (img->cfg->foreign && !allow_foreign) {
        ERR(errp, "the drives hold a foreign configuration (controller "
            "'%.24s'); run 'megaraid-img import' first",
            (const char *)img->cfg->ctrl_guid);
        img_close(img);
        return false;
    }
    return true;
}

void img_close(Img *img)
{
    for (int i = 0; img->reads && i < img->n; i++) {
        g_free(img->reads[i].error);
        ddf_drive_read_clear(&img->reads[i]);
    }
    g_free(img->reads);
    raid_config_free(img->cfg);
    img_guard_close(&img->guard);
    memset(img, 0, sizeof(*img));
}

int img_pd_of_path(Img *img, const char *path, GError **errp)
{
    for (int i = 0; i < img->cfg->npds; i++) {
        if (img->cfg->pds[i].path && !strcmp(img->cfg->pds[i].path, path)) {
            return i;
        }
    }
    for (int i = 0; i < img->n; i++) {
        if (!strcmp(img->paths[i], path)) {
            ERR(errp, "%s: holds no DDF metadata of this configuration%s%s",
                path, img->reads[i].error ? ": " : "",
                img->reads[i].error ? img->reads[i].error : "");
            return -1;
        }
    }
    ERR(errp, "%s: not among the drive images given", path);
    return -1;
}

int img_open_sized(const char *path, uint64_t *bytes, GError **errp)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        ERR(errp, "%s: cannot open: %s", path, g_strerror(errno));
        return -1;
    }
    if (!ddf_file_size(fd, bytes, errp)) {
        g_prefix_error(errp, "%s: ", path);
        close(fd);
        return -1;
    }
    return fd;
}
int img_add_blank(Img *img, const char *path, GError **errp)
{
    uint8_t guid[RAID_GUID_LEN];
    uint64_t bytes;
    int fd, slot = -1, pd;

    for (int i = 0; i < img->n; i++) {
        if (!strcmp(img->paths[i], path)) {
            slot = i;
        }
    }
    if (slot < 0) {
        ERR(errp, "%s: not among the drive images given", path);
        return -1;
    }
    fd = img_open_sized(path, &bytes, errp);
    if (fd < 0) {
        return -1;
    }
    close(fd);
    img_make_guid(guid, "MRSIMPD");
    guid[23] ^= slot;
    pd = raid_config_add_pd(img->cfg, guid, slot, bytes / 512, errp);
    if (pd < 0) {
        g_prefix_error(errp, "%s: ", path);
        return -1;
    }
    img->cfg->pds[pd].path = g_strdup(path);
    return pd;
}

bool img_save(Img *img, GError **errp)
{
    return ddf_store_config(img->cfg, errp);
}

int img_vd(Img *img, int vd, GError **errp)
{
    if (vd == -1) {
        for (int v = 0; v < RAID_MAX_VDS; v++) {
            if (img->cfg->vds[v].used) {
                return v;
            }
        }
        ERR(errp, "the configuration has no VD");
        return -1;
    }
    if (vd < 0 || vd >= RAID_MAX_VDS || !img->cfg->vds[vd].used) {
        ERR(errp, "VD %d does not exist", vd);
        return -1;
    }
    return vd;
}

bool img_exec_open(Img *img, int vd, bool write, RaidFileExec *fx,
                   GError **errp)
{
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(img->cfg, vd, pds, RAID_MAX_MEMBERS);

    memset(fx, 0, sizeof(*fx));
    for (int i = 0; i < (int)RAID_MAX_MEMBERS; i++) {
        fx->fd[i] = -1;
    }
    fx->members = n;
    for (int i = 0; i < n; i++) {
        const RaidPd *p = &img->cfg->pds[pds[i]];

        if (!p->present || !p->path) {
            continue;
        }
        fx->fd[i] = open(p->path, write ? O_RDWR : O_RDONLY);
        if (fx->fd[i] < 0) {
            ERR(errp, "%s: cannot open: %s", p->path, g_strerror(errno));
            img_exec_close(fx);
            return false;
        }
    }
    return true;
}

void img_exec_close(RaidFileExec *fx)
{
    for (uint32_t i = 0; i < fx->members; i++) {
        if (fx->fd[i] >= 0) {
            close(fx->fd[i]);
            fx->fd[i] = -1;
        }
    }
}
