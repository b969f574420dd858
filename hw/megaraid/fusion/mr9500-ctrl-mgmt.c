/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's controller management as MFI tools
 * (mfiutil, megasasctl, storcli v1) read it: what CTRL_GET_INFO says
 * beyond the driver's needs (hardware present, operations supported, the
 * controller properties, the drive counts, firmware time),
 * CTRL_GET_PROPERTIES / CTRL_SET_PROPERTIES over the core's CTRL_GET/SET
 * PROPS, and CTRL_EVENT_GET, the tools' read of the event ring the
 * driver's EVENT_WAIT is served from (mr9500-events.c).
 */
#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

/* CTRL_GET_INFO fields (MR_CTRL_INFO / mfi_ctrl_info) */
#define CI_HW_PRESENT           0x5B0
#define CI_HW_BBU               0x01
#define CI_FW_TIME              0x5B4
#define CI_PD_PRED_FAIL         0x5CA
#define CI_PD_FAILED            0x5CC
#define CI_ADAPTER_OPS          0x5E0
#define CI_LD_OPS               0x5E4
#define CI_PD_OPS               0x5EC
#define CI_PD_MIX               0x5F0
#define CI_PROPERTIES           0x600

/* rates, spares, foreign import, BBU, spanning, dedicated/global spares */
#define CI_ADAPTER_OPS_VALUE    (0x0001 | 0x0002 | 0x0004 | 0x0010 | \
                                 0x0080 | 0x0100 | 0x0200 | 0x0800 | 0x4000)
#define CI_LD_OPS_VALUE         0x1F    /* read, write, IO, access, disk */
#define CI_PD_OPS_VALUE         0x07    /* force online, offline, rebuild */
#define CI_PD_MIX_VALUE         0x03    /* SAS and SATA drives */

/* the controller properties (mfi_ctrl_props), 64 bytes */
#define CP_SIZE                 64
#define CP_REBUILD_RATE         0x08
#define CP_PATROL_RATE          0x09
#define CP_BGI_RATE             0x0A
#define CP_CC_RATE              0x0B
#define CP_RECON_RATE           0x0C
#define CP_CACHE_FLUSH          0x0D
#define CP_DISABLE_AUTO_RBLD    0x13

/* CTRL_EVENT_GET: count, reserved, then event details */
#define EVL_HDR                 8

/* MFI firmware time: seconds since 2000-01-01 00:00 UTC */
#define MFI_TIME_EPOCH          946684800

static uint32_t ctrl_fw_time(void)
{
    return MAX(0, qemu_clock_get_ms(QEMU_CLOCK_HOST) / 1000 - MFI_TIME_EPOCH);
}

static void ctrl_fill_props(MR9500State *s, uint8_t *p)
{
    MgmtCtrlProps cp;
    MgmtPatrolStatus pr;

    if (mr9500_mgmt_query(s, MGMT_OP_CTRL_GET_PROPS, 0, &cp, sizeof(cp))) {
        p[CP_REBUILD_RATE] = cp.rebuild_rate;
        p[CP_BGI_RATE] = cp.init_rate;
        p[CP_CC_RATE] = cp.cc_rate;
        p[CP_RECON_RATE] = cp.rebuild_rate;
        p[CP_CACHE_FLUSH] = cp.cache_flush_s;
        p[CP_DISABLE_AUTO_RBLD] = !cp.auto_rebuild;
    }
    if (mr9500_mgmt_query(s, MGMT_OP_PATROL_STATUS, 0, &pr, sizeof(pr))) {
        p[CP_PATROL_RATE] = pr.rate;
    }
}

void mr9500_ctrl_info_mgmt(MR9500State *s, uint8_t *ci)
{
    MgmtCvStatus cv;
    MgmtPdInfo pi;
    uint16_t failed = 0, pred = 0;
    uint32_t on_off = ldl_le_p(ci + CI_ON_OFF_PROPS);

    if (mr9500_mgmt_query(s, MGMT_OP_CV_STATUS, 0, &cv, sizeof(cv)) &&
        cv.state != MGMT_CV_ABSENT) {
        stl_le_p(ci + CI_HW_PRESENT, CI_HW_BBU);
    }
    stl_le_p(ci + CI_FW_TIME, ctrl_fw_time());
    for (uint32_t pd = 0; pd < MR9500_MAX_PDS; pd++) {
        MRDrive *d = s->pd[pd];

        if (!d || !mr9500_mgmt_query(s, MGMT_OP_PD_INFO,
                                     d->slot | d->enclosure << 16, &pi,
                                     sizeof(pi))) {
            continue;
        }
        failed += pi.e.state == MGMT_PD_OFFLINE ||
                  pi.e.state == MGMT_PD_UNCONF_BAD;
        pred += pi.predictive_failures || pi.smart_alert;
    }
    stw_le_p(ci + CI_PD_PRED_FAIL, pred);
    stw_le_p(ci + CI_PD_FAILED, failed);
    stl_le_p(ci + CI_ADAPTER_OPS, CI_ADAPTER_OPS_VALUE);
    stl_le_p(ci + CI_LD_OPS, CI_LD_OPS_VALUE);
    stl_le_p(ci + CI_PD_OPS, CI_PD_OPS_VALUE);
    stl_le_p(ci + CI_PD_MIX, CI_PD_MIX_VALUE);
    ctrl_fill_props(s, ci + CI_PROPERTIES);
    stl_le_p(ci + CI_ON_OFF_PROPS, on_off);
}

/* CTRL_SET_PROPERTIES: what the core keeps, as one CTRL_SET_PROPS. */
static uint8_t ctrl_set_props(MR9500State *s, uint16_t smid, uint8_t queue,
                              uint64_t mfi_addr, const uint8_t *f)
{
    uint8_t in[CP_SIZE], now[CP_SIZE] = { 0 };
    MgmtCtrlProps cp = { 0 };
    uint32_t mask = 0, mbox[4] = { 0 };

    if (ldl_le_p(f + MFI_HDR_XFER_LEN) < CP_SIZE ||
        !mr9500_mfi_from_host(s, f, in, CP_SIZE)) {
        return MFI_STAT_INVALID_PARAMETER;
    }
    ctrl_fill_props(s, now);
    if (in[CP_REBUILD_RATE] > 100 || in[CP_BGI_RATE] > 100 ||
        in[CP_CC_RATE] > 100 || in[CP_PATROL_RATE] > 100 ||
        !in[CP_CACHE_FLUSH]) {
        return MFI_STAT_INVALID_PARAMETER;
    }
    cp.rebuild_rate = in[CP_REBUILD_RATE];
    cp.init_rate = in[CP_BGI_RATE];
    cp.cc_rate = in[CP_CC_RATE];
    cp.cache_flush_s = in[CP_CACHE_FLUSH];
    cp.auto_rebuild = !in[CP_DISABLE_AUTO_RBLD];
    mask |= in[CP_REBUILD_RATE] != now[CP_REBUILD_RATE] ?
            MGMT_PROP_REBUILD_RATE : 0;
    mask |= in[CP_BGI_RATE] != now[CP_BGI_RATE] ? MGMT_PROP_INIT_RATE : 0;
    mask |= in[CP_CC_RATE] != now[CP_CC_RATE] ? MGMT_PROP_CC_RATE : 0;
    mask |= in[CP_CACHE_FLUSH] != now[CP_CACHE_FLUSH] ?
            MGMT_PROP_CACHE_FLUSH : 0;
    mask |= in[CP_DISABLE_AUTO_RBLD] != now[CP_DISABLE_AUTO_RBLD] ?
            MGMT_PROP_AUTO_REBUILD : 0;
    /* the patrol rate is PR_SET_PROPERTIES' and the protocol's PATROL */
    if (in[CP_PATROL_RATE] && in[CP_PATROL_RATE] != now[CP_PATROL_RATE]) {
        trace_megaraid_9500_ctrl_props_ignored("patrol_read_rate",
                                               in[CP_PATROL_RATE]);
    }
    if (!mask) {
        return MFI_STAT_OK;
    }
    mbox[0] = mask;
    mr9500_mgmt_run(s, smid, queue, mfi_addr, MR_DCMD_CTRL_SET_PROPERTIES,
                    MGMT_OP_CTRL_SET_PROPS, mbox, &cp, sizeof(cp));
    return 0xFF;                /* held */
}

/* The event ring from mailbox word 0's sequence number on (EVENT_GET). */
static uint8_t ctrl_event_get(MR9500State *s, const uint8_t *f, uint8_t **buf,
                              uint32_t *len)
{
    const uint8_t *mbox = f + MFI_DCMD_MBOX;
    uint32_t xfer = ldl_le_p(f + MFI_HDR_XFER_LEN);
    uint32_t seq = ldl_le_p(mbox), n = 0, max;
    uint16_t locale = lduw_le_p(mbox + 4);
    int8_t class = (int8_t)mbox[7];
    uint32_t oldest = s->evt_seq >= MR9500_EVT_RING ?
                      s->evt_seq - MR9500_EVT_RING + 1 : 1;

    if (xfer < EVL_HDR + MR_EVT_DETAIL_SIZE) {
        return MFI_STAT_INVALID_PARAMETER;
    }
    if (seq > s->evt_seq) {
        return MFI_STAT_NOT_FOUND;      /* nothing from there on yet */
    }
    max = MIN((xfer - EVL_HDR) / MR_EVT_DETAIL_SIZE, MR9500_EVT_RING);
    *buf = g_malloc0(EVL_HDR + max * MR_EVT_DETAIL_SIZE);
    for (uint32_t q = MAX(seq, oldest); q && q <= s->evt_seq && n < max;
         q++) {
        const uint8_t *e = s->evt_ring[q % MR9500_EVT_RING];

        if (ldl_le_p(e + MFI_EVT_SEQ) != q ||
            (int8_t)e[MFI_EVT_CLASS] < class ||
            !(lduw_le_p(e + MFI_EVT_LOCALE) & locale)) {
            continue;
        }
        memcpy(*buf + EVL_HDR + n * MR_EVT_DETAIL_SIZE, e,
               MR_EVT_DETAIL_SIZE);
        n++;
    }
    if (!n) {
        g_free(*buf);
        *buf = NULL;
        return MFI_STAT_NOT_FOUND;
    }
    stl_le_p(*buf, n);
    *len = EVL_HDR + n * MR_EVT_DETAIL_SIZE;
    return MFI_STAT_OK;
}

MR9500CfgAnswer mr9500_ctrl_mgmt_dcmd(MR9500State *s, uint32_t opcode,
                                      uint16_t smid, uint8_t queue,
                                      uint64_t mfi_addr, const uint8_t *f,
                                      uint8_t **buf, uint32_t *len,
                                      uint8_t *status)
{
    uint8_t st;

    switch (opcode) {
    case MR_DCMD_CTRL_GET_PROPERTIES:
        *len = CP_SIZE;
        *buf = g_malloc0(CP_SIZE);
        ctrl_fill_props(s, *buf);
        stl_le_p(*buf + CI_ON_OFF_PROPS - CI_PROPERTIES,
                 CI_ON_OFF_ENABLE_JBOD);
        *status = MFI_STAT_OK;
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CTRL_SET_PROPERTIES:
        st = ctrl_set_props(s, smid, queue, mfi_addr, f);
        if (st == 0xFF) {
            return MR9500_CFG_HELD;
        }
        *status = st;
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CTRL_EVENT_GET:
        *status = ctrl_event_get(s, f, buf, len);
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CTRL_TIME_SECS_GET:
        *len = 4;
        *buf = g_malloc0(4);
        stl_le_p(*buf, ctrl_fw_time());
        *status = MFI_STAT_OK;
        return MR9500_CFG_ANSWERED;
    default:
        return MR9500_CFG_NOT_MINE;
    }
}
