/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a drive's injected media errors (drive.h, the QOM
 * media-error property of drive-state.c) as the member I/O meets them: a
 * read of a bad range fails, a write over it reallocates the blocks.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/drive.h"
#include "trace.h"

bool mr_drive_media_error(MRDrive *d, uint64_t offset, uint64_t bytes,
                          uint64_t *bad_lba)
{
    uint64_t first = offset / d->unit.block_size;
    uint64_t end = DIV_ROUND_UP(offset + bytes, d->unit.block_size);

    for (uint32_t i = 0; i < d->n_media_errors; i++) {
        const MRMediaError *e = &d->media_errors[i];

        if (e->lba < end && first < e->lba + e->count) {
            *bad_lba = MAX(first, e->lba);
            trace_megaraid_drive_media_error(d->slot, *bad_lba);
            return true;
        }
    }
    return false;
}

/* A write over a bad range reallocates those blocks: they read again. */
void mr_drive_media_rewritten(MRDrive *d, uint64_t offset, uint64_t bytes)
{
    uint64_t first = DIV_ROUND_UP(offset, d->unit.block_size);
    uint64_t end = (offset + bytes) / d->unit.block_size;
    MRMediaError keep[MR_MAX_MEDIA_ERRORS * 2];
    uint32_t n = 0;

    for (uint32_t i = 0; i < d->n_media_errors; i++) {
        const MRMediaError *e = &d->media_errors[i];
        uint64_t e_end = e->lba + e->count;

        if (e_end <= first || e->lba >= end) {
            keep[n++] = *e;
            continue;
        }
        if (e->lba < first) {
            keep[n++] = (MRMediaError) { e->lba, first - e->lba };
        }
        if (e_end > end) {
            keep[n++] = (MRMediaError) { end, e_end - end };
        }
    }
    d->n_media_errors = MIN(n, MR_MAX_MEDIA_ERRORS);
    memcpy(d->media_errors, keep, d->n_media_errors * sizeof(keep[0]));
}
