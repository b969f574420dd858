/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the changing battery DCMDs for megaraid-9500's
 * CacheVault, as mfiutil "bbu SETTING VALUE" and "start learn" send
 * them: BBU_SET_PROPERTIES (data-out mfi_bbu_properties) and
 * BBU_START_LEARN.  A CacheVault has no learn cycles (mr9500-bbu.c
 * reports auto learn disabled): properties that keep auto learn disabled
 * are taken (the learn period, delay and mode fields mean nothing to the
 * module and are not kept), ones that turn it on are INVALID PARAMETER,
 * a learn cycle WRONG STATE; without a module (cachevault=absent) both
 * answer NO HW PRESENT.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

#define MR_DCMD_BBU_START_LEARN     0x05040000
#define MR_DCMD_BBU_SET_PROPERTIES  0x05050200

/* mfi_bbu_properties, 32 bytes */
#define BSP_SIZE                32
#define BSP_AUTO_LEARN_MODE     0x09
#define BSP_LEARN_DISABLED      1

bool mr9500_bbu_set_dcmd(MR9500State *s, uint32_t opcode, const uint8_t *f,
                         uint8_t *status)
{
    uint8_t p[BSP_SIZE];
    MgmtCvStatus cv;

    if (opcode != MR_DCMD_BBU_START_LEARN &&
        opcode != MR_DCMD_BBU_SET_PROPERTIES) {
        return false;
    }
    if (!mr9500_mgmt_query(s, MGMT_OP_CV_STATUS, 0, &cv, sizeof(cv)) ||
        cv.state == MGMT_CV_ABSENT) {
        *status = MFI_STAT_NO_HW_PRESENT;
    } else if (opcode == MR_DCMD_BBU_START_LEARN) {
        *status = MFI_STAT_WRONG_STATE;         /* nothing to learn */
    } else if (ldl_le_p(f + MFI_HDR_XFER_LEN) < BSP_SIZE ||
               !mr9500_mfi_from_host(s, f, p, BSP_SIZE) ||
               p[BSP_AUTO_LEARN_MODE] != BSP_LEARN_DISABLED) {
        *status = MFI_STAT_INVALID_PARAMETER;
    } else {
        *status = MFI_STAT_OK;
    }
    trace_megaraid_9500_bbu_set(opcode, cv.state, *status);
    return true;
}
