/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: the DDF read and write protocol on one drive,
 * over caller-supplied sector I/O (files in the tools, BlockBackends in
 * the device).
 *
 * Reading: the anchor in the last sector, then the primary and secondary
 * copies, each checked completely, and the choice between them.  Writing:
 * each copy's header with the open flag set, its sections, the header
 * closed; the primary, then the anchor, then the secondary, with flushes
 * between (the order is explained at ddf_drive_write()).
 */
#include "raid/ddf.h"

#include <errno.h>
#include <string.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

static bool io_read(const DdfDriveIO *io, void *buf, size_t len, uint64_t off,
                    GError **errp)
{
    int r = off <= io->bytes && len <= io->bytes - off ?
            io->read(io->opaque, off, buf, len) : -EINVAL;

    if (r < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(-r),
                    "read of %zu bytes at %" G_GUINT64_FORMAT " failed: %s",
                    len, off, g_strerror(-r));
        return false;
    }
    return true;
}

static bool io_write(const DdfDriveIO *io, const void *buf, size_t len,
                     uint64_t off, GError **errp)
{
    int r = off <= io->bytes && len <= io->bytes - off ?
            io->write(io->opaque, off, buf, len) : -EINVAL;

    if (r < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(-r),
                    "write of %zu bytes at %" G_GUINT64_FORMAT " failed: %s",
                    len, off, g_strerror(-r));
        return false;
    }
    return true;
}

static bool io_flush(const DdfDriveIO *io, GError **errp)
{
    int r = io->flush ? io->flush(io->opaque) : 0;

    if (r < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(-r),
                    "flush failed: %s", g_strerror(-r));
        return false;
    }
    return true;
}

static DdfMeta *read_copy(const DdfDriveIO *io, uint64_t sectors,
                          uint64_t lba, int type, const DdfHeader *anchor,
                          DdfHeader *h, GError **errp)
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
    if (!io_read(io, hdr, 512, lba * 512, errp) ||
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
    if (!io_read(io, buf, (size_t)ext * 512, lba * 512, errp)) {
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

bool ddf_drive_read(const DdfDriveIO *io, DdfDriveRead *out, GError **errp)
{
    uint64_t bytes = io->bytes;
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
    if (!io_read(io, buf, 512, (sectors - 1) * 512, errp)) {
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
    pm = read_copy(io, sectors, anchor.primary_lba, DDF_HDR_PRIMARY, &anchor,
                   &ph, &perr);
    sm = read_copy(io, sectors, anchor.secondary_lba, DDF_HDR_SECONDARY,
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

static bool write_copy(const DdfDriveIO *io, DdfMeta *m, int type, uint64_t lba,
                       GError **errp)
{
    uint32_t n = ddf_copy_sectors(m);
    g_autofree uint8_t *buf = g_malloc((size_t)n * 512);

    /* Open flag set while the sections change, cleared afterwards. */
    m->open_flag = 1;
    ddf_encode_copy(m, type, buf);
    if (!io_write(io, buf, 512, lba * 512, errp) ||
        !io_flush(io, errp)) {
        return false;
    }
    m->open_flag = 0;
    ddf_encode_copy(m, type, buf);
    if (!io_write(io, buf + 512, (size_t)(n - 1) * 512, (lba + 1) * 512,
                     errp) ||
        !io_write(io, buf, 512, lba * 512, errp)) {
        return false;
    }
    return true;
}

/*
 * The order keeps one valid copy on the drive at every moment, should the
 * power go between any two writes (or tear one): a reader takes a copy
 * only when its header matches the anchor (bytes 0x71 onwards: section
 * layout, table sizes) and every section's CRC holds; of two valid copies
 * the newer closed one.
 *
 *  1. primary: header open, flush, sections, header closed, flush.  The
 *     old secondary is the valid copy meanwhile; an open primary whose
 *     sections are all written is valid as well (counted one sequence
 *     number lower by the import).
 *  2. anchor, flush.  Until here the anchor is the old one: on a blank
 *     drive there is none (no DDF: the drive is what it was); when the
 *     layout changes (another writer's section sizes), the old anchor
 *     matches the old secondary only, the new one the new primary only.
 *  3. secondary: as the primary, the new primary valid meanwhile.
 *
 * Writing the anchor last instead would leave a layout change with no
 * copy that matches the anchor after step 3.
 */
bool ddf_drive_write(const DdfDriveIO *io, DdfMeta *m, GError **errp)
{
    uint64_t sectors = io->bytes / 512;
    uint8_t anchor[512];
    uint32_t n = ddf_copy_sectors(m);

    if (m->primary_lba + n >= sectors ||
        (m->secondary_lba != UINT64_MAX &&
         m->secondary_lba + n > m->primary_lba &&
         m->secondary_lba < m->primary_lba + n)) {
        ERR(errp, "DDF copies do not fit below the anchor");
        return false;
    }
    if (!write_copy(io, m, DDF_HDR_PRIMARY, m->primary_lba, errp) ||
        !io_flush(io, errp)) {
        return false;
    }
    ddf_encode_anchor(m, anchor);
    if (!io_write(io, anchor, 512, (sectors - 1) * 512, errp) ||
        !io_flush(io, errp)) {
        return false;
    }
    if (m->secondary_lba != UINT64_MAX &&
        (!write_copy(io, m, DDF_HDR_SECONDARY, m->secondary_lba, errp) ||
         !io_flush(io, errp))) {
        return false;
    }
    return true;
}
