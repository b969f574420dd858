/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the medium behind a SCSI target's logical unit.  A JBOD
 * drive's medium is its BlockBackend (unit->drive); a RAID VD's is the
 * array (unit->vd, array-vd.c).  The target reads, writes, flushes and
 * unmaps through these few calls and need not know which it serves.
 * Injected media errors of a JBOD drive are checked here too.
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "block/aio-wait.h"
#include "system/block-backend.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/array/array-vd.h"
#include "target-int.h"

bool mr_medium_present(MRUnit *u)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        return true;
    }
    return d->conf.blk && blk_is_inserted(d->conf.blk);
}

BlockAcctStats *mr_medium_stats(MRUnit *u)
{
    MRDrive *d = u->drive;

    return u->vd ? NULL : blk_get_stats(d->conf.blk);
}

static void mr_medium_fail_bh(void *opaque)
{
    BlockAIOCB *acb = opaque;

    acb->cb(acb->opaque, -EIO);
    qemu_aio_unref(acb);
}

static const AIOCBInfo mr_medium_fail_info = {
    .aiocb_size = sizeof(BlockAIOCB),
};

/* A read that hits an injected media error fails, later, with -EIO. */
static BlockAIOCB *mr_medium_fail(BlockCompletionFunc *cb, void *opaque)
{
    BlockAIOCB *acb = qemu_aio_get(&mr_medium_fail_info, NULL, cb, opaque);

    aio_bh_schedule_oneshot(qemu_get_aio_context(), mr_medium_fail_bh, acb);
    return acb;
}

BlockAIOCB *mr_medium_aio_preadv(MRUnit *u, int64_t offset,
                                 QEMUIOVector *qiov, BlockCompletionFunc *cb,
                                 void *opaque)
{
    MRDrive *d = u->drive;
    uint64_t bad;

    if (u->vd) {
        return mr_vd_aio_preadv(u->vd, offset, qiov, cb, opaque);
    }
    if (d->n_media_errors &&
        mr_drive_media_error(d, offset, qiov->size, &bad)) {
        return mr_medium_fail(cb, opaque);
    }
    return blk_aio_preadv(d->conf.blk, offset, qiov, 0, cb, opaque);
}

BlockAIOCB *mr_medium_aio_pwritev(MRUnit *u, int64_t offset,
                                  QEMUIOVector *qiov, bool fua,
                                  BlockCompletionFunc *cb, void *opaque)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        return mr_vd_aio_pwritev(u->vd, offset, qiov, fua, cb, opaque);
    }
    if (d->n_media_errors) {
        mr_drive_media_rewritten(d, offset, qiov->size);
    }
    return blk_aio_pwritev(d->conf.blk, offset, qiov,
                           fua ? BDRV_REQ_FUA : 0, cb, opaque);
}

BlockAIOCB *mr_medium_aio_flush(MRUnit *u, BlockCompletionFunc *cb,
                                void *opaque)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        return mr_vd_aio_flush(u->vd, cb, opaque);
    }
    return blk_aio_flush(d->conf.blk, cb, opaque);
}

int coroutine_fn mr_medium_co_pread(MRUnit *u, int64_t offset,
                                    int64_t bytes, void *buf)
{
    MRDrive *d = u->drive;
    uint64_t bad;

    if (u->vd) {
        QEMUIOVector qiov;

        qemu_iovec_init_buf(&qiov, buf, bytes);
        return mr_vd_co_preadv(u->vd, offset, bytes, &qiov);
    }
    if (d->n_media_errors && mr_drive_media_error(d, offset, bytes, &bad)) {
        return -EIO;
    }
    return blk_co_pread(d->conf.blk, offset, bytes, buf, 0);
}

int coroutine_fn mr_medium_co_pwrite(MRUnit *u, int64_t offset,
                                     int64_t bytes, const void *buf,
                                     bool fua)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        QEMUIOVector qiov;

        qemu_iovec_init_buf(&qiov, buf, bytes);
        return mr_vd_co_pwritev(u->vd, offset, bytes, &qiov, fua);
    }
    if (d->n_media_errors) {
        mr_drive_media_rewritten(d, offset, bytes);
    }
    return blk_co_pwrite(d->conf.blk, offset, bytes, buf,
                         fua ? BDRV_REQ_FUA : 0);
}

/* Afterwards the range reads as zeroes; @unmap allows deallocation. */
int coroutine_fn mr_medium_co_zero(MRUnit *u, int64_t offset, int64_t bytes,
                                   bool unmap, bool fua)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        g_autofree void *zero = NULL;
        int ret;

        if (unmap) {
            return mr_vd_co_pdiscard(u->vd, offset, bytes);
        }
        /* zeroes written as data, a chunk at a time */
        zero = g_malloc0(MIN(bytes, 1024 * 1024));
        while (bytes > 0) {
            int64_t n = MIN(bytes, 1024 * 1024);

            ret = mr_medium_co_pwrite(u, offset, n, zero, fua);
            if (ret < 0) {
                return ret;
            }
            offset += n;
            bytes -= n;
        }
        return 0;
    }
    if (d->n_media_errors) {
        mr_drive_media_rewritten(d, offset, bytes);
    }
    return blk_co_pwrite_zeroes(d->conf.blk, offset, bytes,
                                (unmap ? BDRV_REQ_MAY_UNMAP : 0) |
                                (fua ? BDRV_REQ_FUA : 0));
}

void mr_medium_inc_in_flight(MRUnit *u)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        u->vd->in_flight++;
    } else {
        blk_inc_in_flight(d->conf.blk);
    }
}

void mr_medium_dec_in_flight(MRUnit *u)
{
    MRDrive *d = u->drive;

    if (u->vd) {
        u->vd->in_flight--;
        aio_wait_kick();
    } else {
        blk_dec_in_flight(d->conf.blk);
    }
}
