/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img read / write: VD data access through the RAID core's plans
 * and the file executor (degraded VDs read through parity).
 */
#include "img.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK_SECTORS 2048      /* 1 MiB per request */

static bool io_prepare(const char *cmd, Img *img, int *vd, const char *off_s,
                       const char *len_s, uint64_t *lba, uint64_t *sectors,
                       bool need_len, GError **errp)
{
    uint64_t off = 0, len = 0;

    *vd = img_vd(img, *vd, errp);
    if (*vd < 0) {
        return false;
    }
    if ((off_s && !img_parse_size(off_s, &off, errp)) ||
        (len_s && !img_parse_size(len_s, &len, errp))) {
        return false;
    }
    if (off % 512 || len % 512) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "--offset and --length must be multiples of 512 bytes");
        return false;
    }
    *lba = off / 512;
    if (*lba > img->cfg->vds[*vd].size) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "offset %" G_GUINT64_FORMAT " is beyond the end of VD %d "
                    "(%" G_GUINT64_FORMAT " bytes)", off, *vd,
                    img->cfg->vds[*vd].size * 512);
        return false;
    }
    *sectors = len_s || need_len ? len / 512 :
               img->cfg->vds[*vd].size - *lba;
    if (*lba + *sectors > img->cfg->vds[*vd].size) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "range ends beyond VD %d (%" G_GUINT64_FORMAT " bytes)",
                    *vd, img->cfg->vds[*vd].size * 512);
        return false;
    }
    if (img->cfg->vds[*vd].state == RAID_VD_OFFLINE) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "VD %d is offline: too many members failed", *vd);
        return false;
    }
    (void)cmd;
    return true;
}

static int do_io(const char *cmd, bool write, int argc, char **argv)
{
    int vd = -1;
    g_autofree char *off_s = NULL, *len_s = NULL, *file = NULL;
    GOptionEntry entries[] = {
        { "vd", 'v', 0, G_OPTION_ARG_INT, &vd, "VD index (default: first)",
          "N" },
        { "offset", 'o', 0, G_OPTION_ARG_STRING, &off_s,
          "byte offset in the VD (multiple of 512)", "BYTES" },
        { "length", 'l', 0, G_OPTION_ARG_STRING, &len_s,
          write ? "bytes to write (default: the input's size)" :
          "bytes to read (default: to the end of the VD)", "BYTES" },
        { write ? "input" : "output", write ? 'i' : 'O', 0,
          G_OPTION_ARG_FILENAME, &file,
          write ? "read the data from FILE (default: stdin)" :
          "write the data to FILE (default: stdout)", "FILE" },
        { NULL }
    };
    GError *err = NULL;
    Img img;
    RaidFileExec fx;
    RaidLayout *l = NULL;
    RaidMemberState st[RAID_MAX_MEMBERS];
    uint64_t lba, sectors, done = 0;
    g_autofree uint8_t *buf = g_malloc(CHUNK_SECTORS * 512);
    FILE *f = NULL;
    int rc = 1;

    if (!img_parse(cmd, "DRIVE-IMAGE...",
                   write ? "Write data into a VD range (through the RAID "
                   "core: parity updated, degraded members skipped)." :
                   "Read a VD range (through the RAID core: degraded "
                   "members reconstructed).", entries, &argc, &argv)) {
        return 2;
    }
    if (!img_open(&img, cmd, argv + 1, argc - 1, write, false, &err)) {
        img_error(cmd, err);
        return 1;
    }
    if (write && !len_s && file) {
        struct stat sb;
        if (stat(file, &sb) == 0) {
            len_s = g_strdup_printf("%" G_GUINT64_FORMAT, (uint64_t)sb.st_size);
        }
    }
    if (write && !len_s) {
        g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "--length is required when writing from stdin");
        goto out;
    }
    if (!io_prepare(cmd, &img, &vd, off_s, len_s, &lba, &sectors, write,
                    &err)) {
        goto out;
    }
    /*
     * Members whose images are not given are missing but in sync until a
     * write: the images given must say they are stale before this writes
     * (or a start with them back would take their old data online).
     */
    if (write && raid_config_mark_stale(img.cfg, img.cfg->vds[vd].dg) &&
        !img_save(&img, &err)) {
        goto out;
    }
    f = file ? fopen(file, write ? "rb" : "wb") : write ? stdin : stdout;
    if (!f) {
        g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_IO, "%s: %s", file,
                    g_strerror(errno));
        goto out;
    }
    l = g_new(RaidLayout, 1);
    if (!raid_config_vd_layout(img.cfg, vd, l, &err) ||
        !img_exec_open(&img, vd, write, &fx, &err)) {
        goto out;
    }
    raid_config_vd_member_states(img.cfg, vd, st);
    while (done < sectors) {
        uint64_t n = MIN(sectors - done, CHUNK_SECTORS);
        RaidRequest req = {
            .op = write ? RAID_OP_WRITE : RAID_OP_READ,
            .lba = lba + done,
            .sectors = n,
        };
        int r;

        if (write && fread(buf, 512, n, f) != n) {
            g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_IO,
                        "%s: short input", file ? file : "stdin");
            break;
        }
        r = raid_file_exec_request(&fx, l, st, &req, RAID_WRITE_AUTO, buf);
        if (r < 0) {
            g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_IO,
                        "VD %d: %s at sector %" G_GUINT64_FORMAT " failed: %s",
                        vd, cmd, req.lba, g_strerror(-r));
            break;
        }
        if (!write && fwrite(buf, 512, n, f) != n) {
            g_set_error(&err, G_FILE_ERROR, G_FILE_ERROR_IO,
                        "%s: write failed", file ? file : "stdout");
            break;
        }
        done += n;
    }
    img_exec_close(&fx);
    if (!err) {
        rc = 0;
    }
out:
    if (f && f != stdin && f != stdout) {
        fclose(f);
    } else if (f == stdout) {
        fflush(stdout);
    }
    if (err) {
        img_error(cmd, err);
    }
    g_free(l);
    img_close(&img);
    return rc;
}

int cmd_read(int argc, char **argv)
{
    return do_io("read", false, argc, argv);
}

int cmd_write(int argc, char **argv)
{
    return do_io("write", true, argc, argv);
}
