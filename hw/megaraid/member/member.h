/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a VD's I/O on its members' BlockBackends
 * (array-member.c), the lowest array layer: for array-vd.c (unmap), the
 * cache, the jobs and array.c (drain).  A member's failed I/O goes up
 * through MRArrayHooks.member.
 */
#ifndef HW_MEGARAID_MEMBER_H
#define HW_MEGARAID_MEMBER_H

#include "array-types.h"

/*
 * Run a request on the VD's members, below the cache: plan, take the
 * rows' stripe lock, run, and on a member error fail the member and plan
 * again.  Returns 0 or -errno (-EIO: data not available, e.g. offline).
 * @qiov covers @sectors * 512 bytes (NULL for FLUSH).
 */
int coroutine_fn mr_vd_co_io(MRVirtualDisk *vd, RaidOp op, uint64_t lba,
                             uint64_t sectors, QEMUIOVector *qiov);
/* Run a job plan (rebuild/check row) whose stripe lock the caller holds. */
int coroutine_fn mr_vd_co_run_plan(MRVirtualDisk *vd, const RaidPlan *plan,
                                   RaidRunResult *res);
/* Wait until the VD has no request in flight. */
void mr_vd_drain(MRVirtualDisk *vd);

#endif
