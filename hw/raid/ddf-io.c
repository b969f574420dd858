/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: DDF on drive images (host tools and tests).
 *
 * Reads the anchor, primary and secondary copies of one image and picks
 * the copy to use; writes a drive's metadata (each copy opened, written,
 * closed, then the anchor); loads a configuration from a set of images and
 * stores it back to every present member.  The QEMU device does the same
 * with BlockBackends, reusing the pure codec.
 */
#include "raid/ddf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

static bool pread_full(int fd, void *buf, size_t len, uint64_t off,
                       GError **errp)
{
    size_t done = 0;

    while (done < len) {
        ssize_t r = pread(fd, (uint8_t *)buf + done, len - done, off + done);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                        "read of %zu bytes at %" G_GUINT64_FORMAT " failed: %s",
                        len, off, r < 0 ? g_strerror(errno) : "end of file");
            return false;
        }
        done += r;
    }
    return true;
}

static bool pwrite_full(int fd, const void *buf, size_t len, uint64_t off,
                        GError **errp)
{
    size_t done = 0;

    while (done < len) {
        ssize_t r = pwrite(fd, (const uint8_t *)buf + done, len - done,
                           off + done);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                        "write of %zu bytes at %" G_GUINT64_FORMAT
                        " failed: %s", len, off, g_strerror(errno));
            return false;
        }
        done += r;
    }
    return true;
}

static DdfMeta *read_copy(int fd, uint64_t sectors, uint64_t lba, int type,
                          const DdfHeader *anchor, DdfHeader *h,
                          GError **errp)
{
    uint8_t hdr[512];
    g_autofree uint8_t *buf = NULL;
    uint32_t ext;
    const char *name = type == DDF_HDR_PRIMARY ? "primary" : "secondary";

    if (lba == UINT64_MAX) {
        ERR(errp, "no %s copy", name);
        return NULL;
    }
    if (lba >= sectors - 1) {
        ERR(errp, "%s header LBA %" G_GUINT64_FORMAT " is beyond the drive",
            name, lba);
        return NULL;
    }
    if (!pread_full(fd, hdr, 512, lba * 512, errp) ||
        !ddf_decode_header(hdr, h, errp) ||
        !ddf_header_matches_anchor(h, anchor, type, errp)) {
        g_prefix_error(errp, "%s copy: ", name);
        return NULL;
    }
    ext = ddf_header_extent(h);
    if (lba + ext > sectors) {
        ERR(errp, "%s copy: sections run past the end of the drive", name);
        return NULL;
    }
    buf = g_malloc((size_t)ext * 512);
    if (!pread_full(fd, buf, (size_t)ext * 512, lba * 512, errp)) {
        g_prefix_error(errp, "%s copy: ", name);
        return NULL;
    }
    {
        DdfMeta *m = ddf_decode_copy(h, buf, (size_t)ext * 512, errp);
        if (!m) {
            g_prefix_error(errp, "%s copy: ", name);
        }
        return m;
    }
}

bool ddf_read_drive(int fd, uint64_t bytes, DdfDriveRead *out, GError **errp)
{
    uint64_t sectors = bytes / 512;
    uint8_t buf[512];
    DdfHeader anchor, ph, sh;
    DdfMeta *pm = NULL, *sm = NULL;
    GError *perr = NULL, *serr = NULL;
    int pick;

    memset(out, 0, sizeof(*out));
    if (sectors < 64) {
        ERR(errp, "too small for DDF metadata (%" G_GUINT64_FORMAT " bytes)",
            bytes);
        return false;
    }
    if (!pread_full(fd, buf, 512, (sectors - 1) * 512, errp)) {
        return false;
    }
    if (!ddf_decode_header(buf, &anchor, errp)) {
        g_prefix_error(errp, "anchor (last sector): ");
        return false;
    }
    if (anchor.type != DDF_HDR_ANCHOR) {
        ERR(errp, "anchor (last sector): header type %u, not an anchor",
            anchor.type);
        return false;
    }
    out->anchor_ok = true;
    pm = read_copy(fd, sectors, anchor.primary_lba, DDF_HDR_PRIMARY, &anchor,
                   &ph, &perr);
    sm = read_copy(fd, sectors, anchor.secondary_lba, DDF_HDR_SECONDARY,
                   &anchor, &sh, &serr);
    out->primary_ok = pm != NULL;
    out->secondary_ok = sm != NULL;
    out->primary_err = perr ? g_strdup(perr->message) : NULL;
    out->secondary_err = serr ? g_strdup(serr->message) : NULL;
    pick = ddf_pick_copy(&ph, pm != NULL, &sh, sm != NULL);
    if (pick < 0) {
        ERR(errp, "no valid DDF copy: %s; %s", perr->message, serr->message);
        g_clear_error(&perr);
        g_clear_error(&serr);
        return false;
    }
    g_clear_error(&perr);
    g_clear_error(&serr);
    out->used = pick;
    out->meta = pick == DDF_HDR_PRIMARY ? pm : sm;
    ddf_meta_free(pick == DDF_HDR_PRIMARY ? sm : pm);
    return true;
}

void ddf_drive_read_clear(DdfDriveRead *r)
{
    ddf_meta_free(r->meta);
    g_free(r->primary_err);
    g_free(r->secondary_err);
    memset(r, 0, sizeof(*r));
}

static bool write_copy(int fd, DdfMeta *m, int type, uint64_t lba,
                       GError **errp)
{
    uint32_t n = ddf_copy_sectors(m);
    g_autofree uint8_t *buf = g_malloc((size_t)n * 512);

    /* Open flag set while the sections change, cleared afterwards. */
    m->open_flag = 1;
    ddf_encode_copy(m, type, buf);
    if (!pwrite_full(fd, buf, 512, lba * 512, errp) ||
        fdatasync(fd) < 0) {
        return false;
    }
    m->open_flag = 0;
    ddf_encode_copy(m, type, buf);
    if (!pwrite_full(fd, buf + 512, (size_t)(n - 1) * 512, (lba + 1) * 512,
                     errp) ||
        !pwrite_full(fd, buf, 512, lba * 512, errp)) {
        return false;
    }
    return true;
}

bool ddf_write_drive(int fd, uint64_t bytes, DdfMeta *m, GError **errp)
{
    uint64_t sectors = bytes / 512;
    uint8_t anchor[512];
    uint32_t n = ddf_copy_sectors(m);

    if (m->primary_lba + n >= sectors ||
        (m->secondary_lba != UINT64_MAX &&
         m->secondary_lba + n > m->primary_lba &&
         m->secondary_lba < m->primary_lba + n)) {
        ERR(errp, "DDF copies do not fit below the anchor");
        return false;
    }
    if (!write_copy(fd, m, DDF_HDR_PRIMARY, m->primary_lba, errp)) {
        return false;
    }
    if (m->secondary_lba != UINT64_MAX &&
        !write_copy(fd, m, DDF_HDR_SECONDARY, m->secondary_lba, errp)) {
        return false;
    }
    ddf_encode_anchor(m, anchor);
    if (!pwrite_full(fd, anchor, 512, (sectors - 1) * 512, errp) ||
        fdatasync(fd) < 0) {
        return false;
    }
    return true;
}

bool ddf_file_size(int fd, uint64_t *bytes, GError **errp)
{
    struct stat st;
    off_t end;

    if (fstat(fd, &st) < 0) {
        ERR(errp, "cannot stat: %s", g_strerror(errno));
        return false;
    }
    if (S_ISREG(st.st_mode)) {
        *bytes = st.st_size;
        return true;
    }
    end = lseek(fd, 0, SEEK_END);
    if (end < 0) {
        ERR(errp, "cannot find the size: %s", g_strerror(errno));
        return false;
    }
    *bytes = end;
    return true;
}

RaidConfig *ddf_load_files(char *const *paths, int n, const uint8_t *ctrl_guid,
                           DdfDriveRead *reads, GError **errp)
{
    g_autofree DdfMeta **metas = g_new0(DdfMeta *, n);
    g_autofree uint64_t *sizes = g_new0(uint64_t, n);
    g_autofree int *pd_of = g_new0(int, n);
    RaidConfig *cfg;

    for (int i = 0; i < n; i++) {
        GError *err = NULL;
        int fd = open(paths[i], O_RDONLY);

        if (fd < 0) {
            ERR(errp, "%s: cannot open: %s", paths[i], g_strerror(errno));
            goto fail;
        }
        if (!ddf_file_size(fd, &sizes[i], &err) ||
            !ddf_read_drive(fd, sizes[i], &reads[i], &err)) {
            /* A drive without DDF: missing from the configuration. */
            reads[i].error = g_strdup_printf("%s: %s", paths[i], err->message);
            g_clear_error(&err);
        }
        close(fd);
        metas[i] = reads[i].meta;
    }
    cfg = ddf_config_from_meta(metas, sizes, n, ctrl_guid, pd_of, errp);
    if (!cfg) {
        for (int i = 0; i < n; i++) {
            if (reads[i].error) {
                g_prefix_error(errp, "%s; ", reads[i].error);
                break;
            }
        }
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        if (pd_of[i] >= 0) {
            cfg->pds[pd_of[i]].path = g_strdup(paths[i]);
        } else if (reads[i].meta && !reads[i].error) {
            reads[i].error = g_strdup_printf("%s: its DDF does not list this "
                                             "drive", paths[i]);
        }
    }
    return cfg;

fail:
    for (int i = 0; i < n; i++) {
        g_free(reads[i].error);
        ddf_drive_read_clear(&reads[i]);
    }
    return NULL;
}

bool ddf_store_config(RaidConfig *cfg, GError **errp)
{
    uint32_t ts = (uint32_t)(g_get_real_time() / G_USEC_PER_SEC - 315532800);

    if (cfg->foreign) {
        ERR(errp, "the configuration is foreign: import it before changing it");
        return false;
    }
    cfg->seq++;
    for (int i = 0; i < cfg->npds; i++) {
        RaidPd *p = &cfg->pds[i];
        g_autoptr(DdfMeta) m = NULL;
        uint64_t bytes;
        int fd;

        if (!p->present || !p->path) {
            continue;
        }
        fd = open(p->path, O_RDWR);
        if (fd < 0) {
            ERR(errp, "%s: cannot open for writing: %s", p->path,
                g_strerror(errno));
            return false;
        }
        m = ddf_meta_from_config(cfg, i, cfg->seq, ts);
        if (!ddf_file_size(fd, &bytes, errp) ||
            !ddf_write_drive(fd, bytes, m, errp)) {
            g_prefix_error(errp, "%s: ", p->path);
            close(fd);
            return false;
        }
        close(fd);
    }
    return true;
}
