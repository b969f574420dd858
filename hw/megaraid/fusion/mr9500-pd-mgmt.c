/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's physical drive management as MFI tools
 * (mfiutil, megasasctl, storcli v1) see it: the management part of
 * PD_GET_INFO (firmware state, sequence number, DDF type bits, error
 * counters, SAS address, serial number, rebuild and patrol progress),
 * PD_STATE_SET (checking the sequence number),
 * PD_REBUILD_START / PD_REBUILD_ABORT and PD_GET_PROGRESS.
 *
 * Everything is read from and done through the firmware core's
 * management protocol (mgmt-proto.h: PD_INFO, PD_SET_STATE, PD_SPARE_*,
 * JOB_CONTROL, PATROL_STATUS), so the MFI tools, mrcli and QMP see one
 * state, stored as DDF.  A change holds its DCMD until the core has its
 * metadata on the drives.
 *
 * Drive states: the core has no JBOD state of its own; an unconfigured
 * good drive is also the host's disk (the driver learns that from
 * PD_LIST_QUERY and the JBOD map, never from PD_GET_INFO's state).  MFI
 * tools build VDs only on drives PD_GET_INFO calls UNCONFIGURED GOOD, so
 * that is what such a drive is reported as (docs/megaraid-9500.md).
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

/* PD info fields beyond the ones mr9500-dcmd.c fills (MR_PD_INFO) */
#define PDI_SEQ_NUM             0x002
#define PDI_MEDIA_ERR           0x0A8
#define PDI_OTHER_ERR           0x0AC
#define PDI_PRED_FAIL           0x0B0
#define PDI_PATH_COUNT          0x0C0
#define PDI_SAS_ADDR            0x0C8
#define PDI_PROGRESS            0x104

/* DDF type bits of PD info (with the interface in bits 15:12) */
#define PDI_DDF_IN_VD           0x0002
#define PDI_DDF_GLOBAL_SPARE    0x0004
#define PDI_DDF_SPARE           0x0008
#define PDI_DDF_FOREIGN         0x0010

/* MR_PD_PROGRESS: active bits, then rebuild, patrol, clear progress */
#define PDP_SIZE                32
#define PDP_ACTIVE_REBUILD      0x01
#define PDP_ACTIVE_PATROL       0x02
#define PDP_REBUILD             4
#define PDP_PATROL              8

static uint32_t pdm_slot_arg(MRDrive *d)
{
    return d->slot | d->enclosure << 16;
}

static bool pdm_pd_info(MR9500State *s, MRDrive *d, MgmtPdInfo *pi)
{
    return mr9500_mgmt_query(s, MGMT_OP_PD_INFO, pdm_slot_arg(d), pi,
                             sizeof(*pi));
}

/*
 * The sequence number PD_GET_INFO reports and PD_STATE_SET checks: 0 at
 * first, one more each time the drive's state is seen changed (so a
 * PD_STATE_SET built from an info read before a change is refused).
 */
static uint16_t pdm_seq(MR9500State *s, uint16_t pd, uint8_t state)
{
    if (s->pd_seq_state[pd] != state + 1) {
        if (s->pd_seq_state[pd]) {
            s->pd_seq[pd]++;
        }
        s->pd_seq_state[pd] = state + 1;
    }
    return s->pd_seq[pd];
}

/* MFI progress: 0..0xFFFF for 0..100 % */
static uint16_t pdm_progress(uint8_t percent)
{
    return MIN(percent, 100) * 0xFFFFu / 100;
}

/* The MR_PD_PROGRESS of drive @d (@pi its protocol info) into @p. */
static void pdm_fill_progress(MR9500State *s, MRDrive *d,
                              const MgmtPdInfo *pi, uint8_t *p)
{
    MgmtPatrolStatus pr;
    uint32_t active = 0;

    if (pi->rebuild_active) {
        active |= PDP_ACTIVE_REBUILD;
        stw_le_p(p + PDP_REBUILD, pdm_progress(pi->rebuild_percent));
    }
    if (mr9500_mgmt_query(s, MGMT_OP_PATROL_STATUS, 0, &pr, sizeof(pr)) &&
        pr.running && le16_to_cpu(pr.drive_slot) == d->slot &&
        !d->enclosure) {
        active |= PDP_ACTIVE_PATROL;
        stw_le_p(p + PDP_PATROL, pdm_progress(pr.drive_percent));
    }
    stl_le_p(p, active);
}

void mr9500_pd_info_mgmt(MR9500State *s, MRDrive *d, uint8_t *out)
{
    MgmtPdInfo pi;
    uint16_t ddf = lduw_le_p(out + PDI_DDF_TYPE);
    uint64_t sas = d->unit.wwn;

    if (!pdm_pd_info(s, d, &pi)) {
        return;                 /* a query answers at once: not reached */
    }
    if (d->unit.host_id < MR9500_MAX_PDS) {
        stw_le_p(out + PDI_SEQ_NUM, pdm_seq(s, d->unit.host_id, pi.e.state));
    }
    stw_le_p(out + PDI_FW_STATE, mr9500_mfi_pd_state(pi.e.state));
    if (le16_to_cpu(pi.e.dg) != MGMT_NONE16) {
        ddf |= PDI_DDF_IN_VD;
    }
    if (pi.e.flags & (MGMT_PD_F_GLOBAL_SPARE | MGMT_PD_F_DEDICATED_SPARE)) {
        ddf |= PDI_DDF_SPARE;
    }
    if (pi.e.flags & MGMT_PD_F_GLOBAL_SPARE) {
        ddf |= PDI_DDF_GLOBAL_SPARE;
    }
    if (pi.e.state == MGMT_PD_FOREIGN) {
        ddf |= PDI_DDF_FOREIGN;
    }
    stw_le_p(out + PDI_DDF_TYPE, ddf);
    /* the drive's own counters plus the errors the controller saw */
    stl_le_p(out + PDI_MEDIA_ERR, le32_to_cpu(pi.media_error_count) +
             le32_to_cpu(pi.read_errors) + le32_to_cpu(pi.write_errors));
    stl_le_p(out + PDI_OTHER_ERR, le32_to_cpu(pi.other_errors));
    stl_le_p(out + PDI_PRED_FAIL, le32_to_cpu(pi.predictive_failures) +
             (pi.smart_alert ? 1 : 0));
    /* one path, the drive's port address (its WWN) */
    sas = sas ? sas : le64_to_cpu(pi.wwn);
    if (sas) {
        out[PDI_PATH_COUNT] = 1;
        stq_le_p(out + PDI_SAS_ADDR, sas);
    }
    /* INQUIRY: the serial number in the vendor specific bytes 36..55 */
    if (pi.serial[0]) {
        char serial[21];

        memcpy(serial, pi.serial, 20);
        serial[20] = 0;
        strpadcpy((char *)out + PDI_INQUIRY + 36, 20, serial, ' ');
        out[PDI_INQUIRY + 4] = 91;          /* 96 bytes of INQUIRY data */
    }
    pdm_fill_progress(s, d, &pi, out + PDI_PROGRESS);
}

/* ---- changes ---- */

/* The drive a PD reference (device id, sequence number) at @mbox names. */
static MRDrive *pdm_ref(MR9500State *s, const uint8_t *mbox, uint8_t *st)
{
    uint16_t id = lduw_le_p(mbox);
    MRDrive *d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;

    if (!d) {
        *st = MFI_STAT_DEVICE_NOT_FOUND;
        return NULL;
    }
    return d;
}

/*
 * PD_STATE_SET to MFI state @to: the protocol request that takes drive
 * @d (now in protocol state @cur) there; false: a state MFI cannot ask.
 */
static bool pdm_state_request(MRDrive *d, uint8_t cur, uint16_t to,
                              uint32_t *op, uint32_t *mbox)
{
    mbox[0] = pdm_slot_arg(d);
    mbox[1] = 0;
    mbox[2] = 0;
    *op = MGMT_OP_PD_SET_STATE;
    switch (to) {
    case MR_PD_STATE_UNCONF_GOOD:
        if (cur == MGMT_PD_HOT_SPARE) {
            *op = MGMT_OP_PD_SPARE_REMOVE;
        } else {
            mbox[1] = MGMT_SET_GOOD;
        }
        return true;
    case MR_PD_STATE_UNCONF_BAD:
        mbox[1] = MGMT_SET_BAD;
        return true;
    case MR_PD_STATE_HOT_SPARE:
        *op = MGMT_OP_PD_SPARE_ADD;
        mbox[1] = MGMT_NONE32;              /* global */
        return true;
    case MR_PD_STATE_OFFLINE:
    case MR_PD_STATE_FAILED:
        mbox[1] = MGMT_SET_OFFLINE;
        return true;
    case MR_PD_STATE_REBUILD:
        *op = MGMT_OP_JOB_CONTROL;
        mbox[1] = MGMT_JOB_REBUILD;
        mbox[2] = MGMT_JOB_START;
        return true;
    case MR_PD_STATE_ONLINE:
        /* as mfiutil's "online": forced, no rebuild */
        mbox[1] = MGMT_SET_ONLINE;
        mbox[2] = MGMT_SET_F_FORCE;
        return true;
    case MR_PD_STATE_SYSTEM:
        mbox[1] = MGMT_SET_JBOD;
        return true;
    default:
        return false;
    }
}

MR9500CfgAnswer mr9500_pd_mgmt_dcmd(MR9500State *s, uint32_t opcode,
                                    uint16_t smid, uint8_t queue,
                                    uint64_t mfi_addr, const uint8_t *f,
                                    uint8_t **buf, uint32_t *len,
                                    uint8_t *status)
{
    const uint8_t *mbox = f + MFI_DCMD_MBOX;
    uint32_t op, m[4] = { 0 };
    MgmtPdInfo pi;
    uint8_t st = MFI_STAT_OK;
    MRDrive *d;

    switch (opcode) {
    case MR_DCMD_PD_STATE_SET:
    case MR_DCMD_PD_REBUILD_START:
    case MR_DCMD_PD_REBUILD_ABORT:
    case MR_DCMD_PD_GET_PROGRESS:
        break;
    default:
        return MR9500_CFG_NOT_MINE;
    }
    d = pdm_ref(s, mbox, &st);
    if (d && !pdm_pd_info(s, d, &pi)) {
        st = MFI_STAT_DEVICE_NOT_FOUND;
    }
    if (st != MFI_STAT_OK) {
        trace_megaraid_9500_pdm_refused(smid, opcode, lduw_le_p(mbox), st);
        *status = st;
        return MR9500_CFG_ANSWERED;
    }
    if (st == MFI_STAT_OK && opcode == MR_DCMD_PD_STATE_SET &&
        lduw_le_p(mbox + 2) != pdm_seq(s, lduw_le_p(mbox), pi.e.state)) {
        st = MFI_STAT_INVALID_SEQUENCE_NUMBER;  /* built on a stale info */
        trace_megaraid_9500_pdm_refused(smid, opcode, lduw_le_p(mbox), st);
        *status = st;
        return MR9500_CFG_ANSWERED;
    }
    switch (opcode) {
    case MR_DCMD_PD_GET_PROGRESS:
        *len = PDP_SIZE;
        *buf = g_malloc0(PDP_SIZE);
        pdm_fill_progress(s, d, &pi, *buf);
        *status = MFI_STAT_OK;
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_PD_STATE_SET:
        if (!pdm_state_request(d, pi.e.state, lduw_le_p(mbox + 4), &op, m)) {
            trace_megaraid_9500_pdm_refused(smid, opcode, lduw_le_p(mbox),
                                            MFI_STAT_INVALID_PARAMETER);
            *status = MFI_STAT_INVALID_PARAMETER;
            return MR9500_CFG_ANSWERED;
        }
        break;
    default:
        op = MGMT_OP_JOB_CONTROL;
        m[0] = pdm_slot_arg(d);
        m[1] = MGMT_JOB_REBUILD;
        m[2] = opcode == MR_DCMD_PD_REBUILD_START ? MGMT_JOB_START
                                                  : MGMT_JOB_STOP;
        break;
    }
    mr9500_mgmt_run(s, smid, queue, mfi_addr, opcode, op, m, NULL, 0);
    return MR9500_CFG_HELD;
}
