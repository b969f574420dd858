/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a VD's entry points above the cache (array-vd.c), for
 * the SCSI target only.
 */
#ifndef HW_MEGARAID_ARRAY_VD_H
#define HW_MEGARAID_ARRAY_VD_H

#include "hw/megaraid/member/array-types.h"

/*
 * The SCSI target's entry points for a VD (byte offsets and lengths in
 * units of the VD's logical block size): above the cache.
 */
int coroutine_fn mr_vd_co_preadv(MRVirtualDisk *vd, int64_t offset,
                                 int64_t bytes, QEMUIOVector *qiov);
int coroutine_fn mr_vd_co_pwritev(MRVirtualDisk *vd, int64_t offset,
                                  int64_t bytes, QEMUIOVector *qiov,
                                  bool fua);
int coroutine_fn mr_vd_co_flush(MRVirtualDisk *vd);
/* Afterwards the range reads as zeroes. */
int coroutine_fn mr_vd_co_pdiscard(MRVirtualDisk *vd, int64_t offset,
                                   int64_t bytes);
/* AIO forms for the dma helpers (dma_blk_io) and flush. */
BlockAIOCB *mr_vd_aio_preadv(MRVirtualDisk *vd, int64_t offset,
                             QEMUIOVector *qiov, BlockCompletionFunc *cb,
                             void *opaque);
BlockAIOCB *mr_vd_aio_pwritev(MRVirtualDisk *vd, int64_t offset,
                              QEMUIOVector *qiov, bool fua,
                              BlockCompletionFunc *cb, void *opaque);
BlockAIOCB *mr_vd_aio_flush(MRVirtualDisk *vd, BlockCompletionFunc *cb,
                            void *opaque);

#endif
