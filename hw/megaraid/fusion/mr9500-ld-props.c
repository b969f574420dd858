/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the progress block of megaraid-9500's LD info (what
 * `mfiutil show progress` / `volume progress` and storcli read): the
 * background job the firmware core runs on the VD, from its cursor in
 * the configuration.  A consistency check is the LD's CC progress; the
 * core's initialization runs with the VD online, so it is a background
 * initialization (BGI).  A rebuild is the PD's progress, not the LD's.
 */
#include "qemu/osdep.h"
#include "mr9500.h"

void mr9500_ld_progress(MRVirtualDisk *vd, uint8_t *li)
{
    const RaidJobCursor *j = &mr_vd_conf(vd)->job;
    uint32_t off, bit;
    uint64_t done;

    switch (j->kind) {
    case RAID_JOB_CHECK:
        off = MR_LDI_PROG_CC;
        bit = MR_LD_PROGRESS_CC;
        break;
    case RAID_JOB_INIT:
        off = MR_LDI_PROG_BGI;
        bit = MR_LD_PROGRESS_BGI;
        break;
    default:
        return;
    }
    /* progress in 1/65535ths; the elapsed time is not kept */
    done = j->total_rows ? MIN(j->next_row, j->total_rows) * 0xFFFFull /
                           j->total_rows : 0;
    stl_le_p(li + MR_LDI_PROGRESS, ldl_le_p(li + MR_LDI_PROGRESS) | bit);
    stw_le_p(li + off, done);
    stw_le_p(li + off + 2, 0);
}
