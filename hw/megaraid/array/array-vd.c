/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a VD's entry points for the SCSI target, above the
 * controller cache.
 *
 * Owns the checks of a request's byte range against the VD and its
 * conversion to sectors, the path of each request into the cache
 * (array-cache.c: reads, writes, SYNCHRONIZE CACHE; an unmap drops the
 * cached range, then goes to the members through array-member.c), and
 * the AIO forms the dma helpers call, each running the coroutine form in
 * a coroutine of its own.  Calls only downwards (array.h's layers).
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "array-vd.h"
#include "array.h"

/* ---- coroutine forms ---- */

static bool mr_vd_range(MRVirtualDisk *vd, int64_t offset, int64_t bytes,
                        uint64_t *lba, uint64_t *sectors)
{
    if (offset < 0 || bytes < 0 || offset % RAID_SECTOR_SIZE ||
        bytes % RAID_SECTOR_SIZE ||
        (uint64_t)(offset + bytes) >
        vd->layout.vd_sectors * RAID_SECTOR_SIZE) {
        return false;
    }
    *lba = offset / RAID_SECTOR_SIZE;
    *sectors = bytes / RAID_SECTOR_SIZE;
    return true;
}

int coroutine_fn mr_vd_co_preadv(MRVirtualDisk *vd, int64_t offset,
                                 int64_t bytes, QEMUIOVector *qiov)
{
    uint64_t lba, sectors;

    if (!mr_vd_range(vd, offset, bytes, &lba, &sectors)) {
        return -EINVAL;
    }
    if (!sectors) {
        return 0;
    }
    return mr_cache_co_read(vd, lba, sectors, qiov);
}

int coroutine_fn mr_vd_co_pwritev(MRVirtualDisk *vd, int64_t offset,
                                  int64_t bytes, QEMUIOVector *qiov,
                                  bool fua)
{
    uint64_t lba, sectors;

    if (!mr_vd_range(vd, offset, bytes, &lba, &sectors)) {
        return -EINVAL;
    }
    if (!sectors) {
        return 0;
    }
    return mr_cache_co_write(vd, lba, sectors, qiov, fua);
}

int coroutine_fn mr_vd_co_flush(MRVirtualDisk *vd)
{
    return mr_cache_co_flush(vd);
}

int coroutine_fn mr_vd_co_pdiscard(MRVirtualDisk *vd, int64_t offset,
                                   int64_t bytes)
{
    uint64_t lba, sectors;
    int ret;

    if (!mr_vd_range(vd, offset, bytes, &lba, &sectors)) {
        return -EINVAL;
    }
    if (!sectors) {
        return 0;
    }
    ret = mr_cache_co_invalidate(vd, lba, sectors);
    if (ret < 0) {
        return ret;
    }
    return mr_vd_co_io(vd, RAID_OP_UNMAP, lba, sectors, NULL);
}

/* ---- AIO wrappers for the dma helpers ---- */

typedef enum MRVdAioKind {
    MR_VD_AIO_READ,
    MR_VD_AIO_WRITE,
    MR_VD_AIO_FLUSH,
} MRVdAioKind;

typedef struct MRVdAIOCB {
    BlockAIOCB common;
    MRVirtualDisk *vd;
    MRVdAioKind kind;
    int64_t offset;
    QEMUIOVector *qiov;
    bool fua;
    bool returned;              /* the submitter has its pointer */
    bool finished;
    int ret;
} MRVdAIOCB;

static const AIOCBInfo mr_vd_aiocb_info = {
    .aiocb_size = sizeof(MRVdAIOCB),
};

static void mr_vd_aio_complete(MRVdAIOCB *acb)
{
    acb->common.cb(acb->common.opaque, acb->ret);
    qemu_aio_unref(acb);
}

static void mr_vd_aio_bh(void *opaque)
{
    mr_vd_aio_complete(opaque);
}

static void coroutine_fn mr_vd_aio_entry(void *opaque)
{
    MRVdAIOCB *acb = opaque;
    int64_t bytes = acb->qiov ? acb->qiov->size : 0;

    switch (acb->kind) {
    case MR_VD_AIO_READ:
        acb->ret = mr_vd_co_preadv(acb->vd, acb->offset, bytes, acb->qiov);
        break;
    case MR_VD_AIO_WRITE:
        acb->ret = mr_vd_co_pwritev(acb->vd, acb->offset, bytes, acb->qiov,
                                    acb->fua);
        break;
    case MR_VD_AIO_FLUSH:
        acb->ret = mr_vd_co_flush(acb->vd);
        break;
    }
    acb->finished = true;
    if (acb->returned) {
        mr_vd_aio_complete(acb);
    }
}

static BlockAIOCB *mr_vd_aio_start(MRVirtualDisk *vd, MRVdAioKind kind,
                                   int64_t offset, QEMUIOVector *qiov,
                                   bool fua, BlockCompletionFunc *cb,
                                   void *opaque)
{
    MRVdAIOCB *acb = qemu_aio_get(&mr_vd_aiocb_info, NULL, cb, opaque);
    Coroutine *co;

    acb->vd = vd;
    acb->kind = kind;
    acb->offset = offset;
    acb->qiov = qiov;
    acb->fua = fua;
    acb->returned = false;
    acb->finished = false;
    co = qemu_coroutine_create(mr_vd_aio_entry, acb);
    aio_co_enter(qemu_get_aio_context(), co);
    acb->returned = true;
    if (acb->finished) {
        /* never call back before the submitter has the AIOCB */
        aio_bh_schedule_oneshot(qemu_get_aio_context(), mr_vd_aio_bh, acb);
    }
    return &acb->common;
}

BlockAIOCB *mr_vd_aio_preadv(MRVirtualDisk *vd, int64_t offset,
                             QEMUIOVector *qiov, BlockCompletionFunc *cb,
                             void *opaque)
{
    return mr_vd_aio_start(vd, MR_VD_AIO_READ, offset, qiov, false, cb,
                           opaque);
}

BlockAIOCB *mr_vd_aio_pwritev(MRVirtualDisk *vd, int64_t offset,
                              QEMUIOVector *qiov, bool fua,
                              BlockCompletionFunc *cb, void *opaque)
{
    return mr_vd_aio_start(vd, MR_VD_AIO_WRITE, offset, qiov, fua, cb,
                           opaque);
}

BlockAIOCB *mr_vd_aio_flush(MRVirtualDisk *vd, BlockCompletionFunc *cb,
                            void *opaque)
{
    return mr_vd_aio_start(vd, MR_VD_AIO_FLUSH, 0, NULL, false, cb, opaque);
}
