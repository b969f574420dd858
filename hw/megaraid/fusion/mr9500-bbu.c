/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's battery DCMDs for its CacheVault
 * (BBU_GET_STATUS, BBU_GET_CAPACITY_INFO, BBU_GET_DESIGN_INFO,
 * BBU_GET_PROPERTIES), as mfiutil "show battery" and megasasctl read
 * them.  The module's state is the core's (the management protocol's
 * CV_STATUS, QOM cachevault= on the controller): optimal, failed (the
 * pack needs replacing: write-back VDs run write-through) or absent (every
 * BBU DCMD answers NO HW PRESENT, as a card without one does).  A
 * CacheVault is a supercapacitor pack with a flash module: always fully
 * charged, no learn cycles; the figures reported (voltage, energy, name)
 * are those of a CVPM05 module, inferred, not read from a card.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

/* BBU_GET_STATUS (mfi_bbu_status), 64 bytes */
#define BS_SIZE                 64
#define BS_TYPE                 0x00
#define BS_TYPE_IBBU            1       /* intelligent module */
#define BS_VOLTAGE              0x02    /* mV */
#define BS_CURRENT              0x04    /* mA, signed */
#define BS_TEMPERATURE          0x06    /* Celsius */
#define BS_FW_STATUS            0x08
#define BS_ST_REPLACE_PACK      (1u << 10)
#define BS_DETAIL               0x20
#define BS_IBBU_REL_CHARGE      0x02
#define BS_IBBU_CHARGER         0x04    /* charger system state */
#define BS_CHARGER_COMPLETE     1
#define BS_IBBU_ABS_CHARGE      0x0A

/* BBU_GET_CAPACITY_INFO (mfi_bbu_capacity_info), 48 bytes */
#define BC_SIZE                 48
#define BC_REL_CHARGE           0x00
#define BC_ABS_CHARGE           0x02
#define BC_REMAINING            0x04
#define BC_FULL                 0x06
#define BC_RUN_TO_EMPTY         0x08
#define BC_AVG_TO_EMPTY         0x0A
#define BC_AVG_TO_FULL          0x0C

/* BBU_GET_DESIGN_INFO (mfi_bbu_design_info), 67 bytes */
#define BD_SIZE                 67
#define BD_MFG_DATE             0x00    /* day | month << 5 | year-1980 << 9 */
#define BD_CAPACITY             0x04
#define BD_VOLTAGE              0x06
#define BD_SERIAL               0x0A
#define BD_MFG_NAME             0x0E    /* 12 */
#define BD_DEVICE_NAME          0x1A    /* 8 */
#define BD_CHEMISTRY            0x22    /* 8 */

/* BBU_GET_PROPERTIES (mfi_bbu_properties), 32 bytes */
#define BP_SIZE                 32
#define BP_LEARN_PERIOD         0x00
#define BP_AUTO_LEARN_MODE      0x09
#define BP_LEARN_DISABLED       1

#define CV_VOLTAGE_MV           9480
#define CV_ENERGY_J             332     /* reported as the capacity */
#define CV_TEMP_C               28

static void bbu_status(const MgmtCtrlInfo *ci, uint8_t state, uint8_t *b)
{
    uint8_t *ib = b + BS_DETAIL;

    b[BS_TYPE] = BS_TYPE_IBBU;
    stw_le_p(b + BS_VOLTAGE, state == MGMT_CV_OPTIMAL ? CV_VOLTAGE_MV : 0);
    stw_le_p(b + BS_CURRENT, 0);
    stw_le_p(b + BS_TEMPERATURE, ci->cv_temp_c ? ci->cv_temp_c : CV_TEMP_C);
    stl_le_p(b + BS_FW_STATUS,
             state == MGMT_CV_OPTIMAL ? 0 : BS_ST_REPLACE_PACK);
    stw_le_p(ib + BS_IBBU_REL_CHARGE, state == MGMT_CV_OPTIMAL ? 100 : 0);
    stw_le_p(ib + BS_IBBU_ABS_CHARGE, state == MGMT_CV_OPTIMAL ? 100 : 0);
    /* a supercapacitor pack is charged whenever it is healthy */
    stw_le_p(ib + BS_IBBU_CHARGER,
             state == MGMT_CV_OPTIMAL ? BS_CHARGER_COMPLETE : 0);
}

static void bbu_capacity(uint8_t state, uint8_t *b)
{
    uint16_t pct = state == MGMT_CV_OPTIMAL ? 100 : 0;

    stw_le_p(b + BC_REL_CHARGE, pct);
    stw_le_p(b + BC_ABS_CHARGE, pct);
    stw_le_p(b + BC_REMAINING, pct ? CV_ENERGY_J : 0);
    stw_le_p(b + BC_FULL, CV_ENERGY_J);
    /* no discharge, no charging: unknown times */
    stw_le_p(b + BC_RUN_TO_EMPTY, 0xFFFF);
    stw_le_p(b + BC_AVG_TO_EMPTY, 0xFFFF);
    stw_le_p(b + BC_AVG_TO_FULL, 0xFFFF);
}

static void bbu_design(const MgmtCtrlInfo *ci, uint8_t *b)
{
    /* 2020-01-15; the serial: the low bits of the controller's */
    stl_le_p(b + BD_MFG_DATE, 15 | 1 << 5 | (2020 - 1980) << 9);
    stw_le_p(b + BD_CAPACITY, CV_ENERGY_J);
    stw_le_p(b + BD_VOLTAGE, CV_VOLTAGE_MV);
    stw_le_p(b + BD_SERIAL, g_str_hash(ci->serial) & 0xFFFF);
    strpadcpy((char *)b + BD_MFG_NAME, 12, "LSI", 0);
    strpadcpy((char *)b + BD_DEVICE_NAME, 8, "CVPM05", 0);
    strpadcpy((char *)b + BD_CHEMISTRY, 8, "EDLC", 0);
}

bool mr9500_bbu_dcmd(MR9500State *s, uint32_t opcode, uint8_t **buf,
                     uint32_t *len, uint8_t *status)
{
    MgmtCvStatus cv;
    MgmtCtrlInfo ci;

    switch (opcode) {
    case MR_DCMD_BBU_GET_STATUS:
    case MR_DCMD_BBU_GET_CAPACITY:
    case MR_DCMD_BBU_GET_DESIGN:
    case MR_DCMD_BBU_GET_PROPERTIES:
        break;
    default:
        return false;
    }
    if (!mr9500_mgmt_query(s, MGMT_OP_CV_STATUS, 0, &cv, sizeof(cv)) ||
        cv.state == MGMT_CV_ABSENT) {
        *status = MFI_STAT_NO_HW_PRESENT;
        return true;
    }
    mr9500_mgmt_query(s, MGMT_OP_CTRL_GET_INFO, 0, &ci, sizeof(ci));
    *len = opcode == MR_DCMD_BBU_GET_STATUS ? BS_SIZE :
           opcode == MR_DCMD_BBU_GET_CAPACITY ? BC_SIZE :
           opcode == MR_DCMD_BBU_GET_DESIGN ? BD_SIZE : BP_SIZE;
    *buf = g_malloc0(*len);
    switch (opcode) {
    case MR_DCMD_BBU_GET_STATUS:
        bbu_status(&ci, cv.state, *buf);
        break;
    case MR_DCMD_BBU_GET_CAPACITY:
        bbu_capacity(cv.state, *buf);
        break;
    case MR_DCMD_BBU_GET_DESIGN:
        bbu_design(&ci, *buf);
        break;
    default:
        /* a CacheVault has no learn cycles */
        stl_le_p(*buf + BP_LEARN_PERIOD, 0);
        (*buf)[BP_AUTO_LEARN_MODE] = BP_LEARN_DISABLED;
        break;
    }
    trace_megaraid_9500_bbu(opcode, cv.state);
    *status = MFI_STAT_OK;
    return true;
}
