/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's PD_LOCATE_START and PD_LOCATE_STOP DCMDs
 * (the opcodes of FreeBSD's mfireg.h, which mfiutil's "locate" and
 * storcli v1's "start|stop locate" send): the drive's locate LED on
 * (until stopped) and off.  The mailbox names the drive by its device
 * id (bytes 0..1; bytes 2..3 are not looked at).  Done through the
 * firmware core's management protocol (PD_LOCATE), so mrcli, QOM and
 * QMP see the same LED.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

#define MR_DCMD_PD_LOCATE_START     0x02070100
#define MR_DCMD_PD_LOCATE_STOP      0x02070200

MR9500CfgAnswer mr9500_locate_dcmd(MR9500State *s, uint32_t opcode,
                                   uint16_t smid, uint8_t queue,
                                   uint64_t mfi_addr, const uint8_t *f,
                                   uint8_t *status)
{
    const uint8_t *mbox = f + MFI_DCMD_MBOX;
    uint16_t id = lduw_le_p(mbox);
    uint32_t m[4] = { 0 };
    MRDrive *d;

    if (opcode != MR_DCMD_PD_LOCATE_START &&
        opcode != MR_DCMD_PD_LOCATE_STOP) {
        return MR9500_CFG_NOT_MINE;
    }
    d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;
    if (!d) {
        trace_megaraid_9500_pdm_refused(smid, opcode, id,
                                        MFI_STAT_DEVICE_NOT_FOUND);
        *status = MFI_STAT_DEVICE_NOT_FOUND;
        return MR9500_CFG_ANSWERED;
    }
    m[0] = d->slot | d->enclosure << 16;
    m[1] = opcode == MR_DCMD_PD_LOCATE_START;
    trace_megaraid_9500_locate(smid, id, m[1]);
    mr9500_mgmt_run(s, smid, queue, mfi_addr, opcode, MGMT_OP_PD_LOCATE, m,
                    NULL, 0);
    return MR9500_CFG_HELD;
}
