/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: DDF on drive image files (host tools, tests).
 *
 * The read/write protocol of ddf-drive.c over file descriptors; loading a
 * configuration from a set of images and storing it back to every present
 * member.  The QEMU device uses ddf-drive.c with BlockBackends instead.
 */
#include "raid/ddf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/* DdfDriveIO over a file descriptor. */
typedef struct FdIO {
    int fd;
} FdIO;

static int fd_rw(int fd, bool write, uint8_t *buf, size_t len, uint64_t off)
{
    size_t done = 0;

    while (done < len) {
        ssize_t r = write ? pwrite(fd, buf + done, len - done, off + done) :
                    pread(fd, buf + done, len - done, off + done);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return -errno;
        }
        if (r == 0) {
            return -EIO;        /* end of file */
        }
        done += r;
    }
    return 0;
}

static int fd_read(void *opaque, uint64_t off, void *buf, size_t len)
{
    return fd_rw(((FdIO *)opaque)->fd, false, buf, len, off);
}

static int fd_write(void *opaque, uint64_t off, const void *buf, size_t len)
{
    return fd_rw(((FdIO *)opaque)->fd, true, (uint8_t *)buf, len, off);
}

static int fd_flush(void *opaque)
{
    return fdatasync(((FdIO *)opaque)->fd) < 0 ? -errno : 0;
}

bool ddf_read_drive(int fd, uint64_t bytes, DdfDriveRead *out, GError **errp)
{
    FdIO f = { .fd = fd };
    DdfDriveIO io = { fd_read, fd_write, fd_flush, &f, bytes };

    return ddf_drive_read(&io, out, errp);
}

bool ddf_write_drive(int fd, uint64_t bytes, DdfMeta *m, GError **errp)
{
    FdIO f = { .fd = fd };
    DdfDriveIO io = { fd_read, fd_write, fd_flush, &f, bytes };

    return ddf_drive_write(&io, m, errp);
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
    for (int i = 0, first = -1; i < n; i++) {
        if (!metas[i]) {
            continue;
        }
        if (first < 0) {
            first = i;
        } else if (memcmp(metas[first]->guid, metas[i]->guid,
                          DDF_GUID_LEN)) {
            ERR(errp, "%s and %s belong to different DDF containers "
                "(their header GUIDs differ)", paths[first], paths[i]);
            goto fail;
        }
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
