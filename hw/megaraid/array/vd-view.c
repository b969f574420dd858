/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the accessors of a VD a personality reads (vd.h), so
 * that MRVirtualDisk stays private to the firmware core.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/vd.h"
#include "array.h"

int mr_vd_index(const MRVirtualDisk *vd)
{
    return vd->idx;
}

const RaidVd *mr_vd_conf(const MRVirtualDisk *vd)
{
    return &vd->array->cfg->vds[vd->idx];
}

const RaidLayout *mr_vd_layout(const MRVirtualDisk *vd)
{
    return &vd->layout;
}

MRUnit *mr_vd_unit(MRVirtualDisk *vd)
{
    return &vd->unit;
}

MRDrive *mr_vd_member_drive(const MRVirtualDisk *vd, unsigned m)
{
    int pd = m < RAID_MAX_MEMBERS ? vd->member_pd[m] : -1;

    return pd >= 0 && pd < RAID_MAX_PDS ? vd->array->pd_drive[pd] : NULL;
}

RaidMemberStatus mr_vd_member_status(const MRVirtualDisk *vd, unsigned m)
{
    return m < RAID_MAX_MEMBERS && vd->member_pd[m] >= 0 ?
           vd->st[m].status : RAID_MEMBER_MISSING;
}

MRWritePolicy mr_vd_write_policy(MRVirtualDisk *vd)
{
    return mr_array_write_policy(vd);
}
