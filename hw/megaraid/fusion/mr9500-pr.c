/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's patrol read DCMDs (PR_GET_STATUS,
 * PR_GET_PROPERTIES, PR_SET_PROPERTIES, PR_START, PR_STOP) on the
 * firmware core's patrol read (include/hw/megaraid/patrol.h).  Layouts
 * as the MFI headers give them: the status is 16 bytes, the properties
 * 208 (64 LDs, 256 PDs).  PR_STOP is held until the pass has ended (at
 * its current window; the main loop goes on meanwhile); a reset in
 * between drops it, as the host session that sent it is gone.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "system/dma.h"
#include "hw/megaraid/patrol.h"
#include "mr9500.h"
#include "trace.h"

#define MR_DCMD_PR_GET_STATUS       0x01070100
#define MR_DCMD_PR_GET_PROPERTIES   0x01070200
#define MR_DCMD_PR_SET_PROPERTIES   0x01070300
#define MR_DCMD_PR_START            0x01070400
#define MR_DCMD_PR_STOP             0x01070500

/* struct mfi_pr_status */
#define MR_PR_STATUS_SIZE           16
#define MR_PR_ST_ITERATIONS         0       /* u32 */
#define MR_PR_ST_STATE              4       /* u8 */
#define MR_PR_ST_PD_DONE            5       /* u8 */
#define MR_PR_STATE_STOPPED         0
#define MR_PR_STATE_ACTIVE          2

/* struct mfi_pr_properties */
#define MR_PR_PROPS_SIZE            208
#define MR_PR_P_OP_MODE             0       /* u8: 0 auto, 1 manual, 2 off */
#define MR_PR_P_MAX_PD              1       /* u8 */
#define MR_PR_P_EXCLUDE_LD_COUNT    3       /* u8, then u16[64] */
#define MR_PR_P_NEXT_EXEC           196     /* u32, seconds */
#define MR_PR_P_EXEC_FREQ           200     /* u32, seconds */
#define MR_PR_P_CLEAR_FREQ          204     /* u32, seconds */

static MRArray *mr9500_pr_array(MR9500State *s)
{
    return s->core.array;
}

/* Copy @len bytes of the command's data-out into @buf. */
static bool mr9500_pr_from_host(MR9500State *s, const uint8_t *f,
                                uint8_t *buf, uint32_t len)
{
    QEMUSGList sg;
    bool ok;

    if (ldl_le_p(f + MFI_HDR_XFER_LEN) < len) {
        return false;
    }
    qemu_sglist_init(&sg, DEVICE(s), 4, pci_get_address_space(PCI_DEVICE(s)));
    ok = mr9500_mfi_sgl(s, f, MFI_DCMD_SGL, &sg, len) && sg.size == len;
    if (ok) {
        dma_buf_write(buf, len, NULL, &sg, MEMTXATTRS_UNSPECIFIED);
    }
    qemu_sglist_destroy(&sg);
    return ok;
}

static void mr9500_pr_props(MR9500State *s, uint8_t *p)
{
    MRPatrolStatus st;

    mr_patrol_status(mr9500_pr_array(s), &st);
    p[MR_PR_P_OP_MODE] = st.mode;
    p[MR_PR_P_MAX_PD] = st.max_drives;
    stl_le_p(p + MR_PR_P_EXEC_FREQ, st.delay_h * 3600);
}

static uint8_t mr9500_pr_set_props(MR9500State *s, const uint8_t *f)
{
    MRArray *a = mr9500_pr_array(s);
    uint8_t p[MR_PR_PROPS_SIZE];

    if (!mr9500_pr_from_host(s, f, p, sizeof(p))) {
        return MFI_STAT_INVALID_PARAMETER;
    }
    if (p[MR_PR_P_OP_MODE] > MR_PATROL_MODE_OFF || !p[MR_PR_P_MAX_PD] ||
        p[MR_PR_P_EXCLUDE_LD_COUNT]) {
        trace_megaraid_9500_pr_refused(p[MR_PR_P_OP_MODE],
                                       p[MR_PR_P_MAX_PD],
                                       p[MR_PR_P_EXCLUDE_LD_COUNT]);
        return MFI_STAT_INVALID_PARAMETER;
    }
    /* the delay first: a change to auto schedules the pass with it */
    mr_patrol_set_delay(a, ldl_le_p(p + MR_PR_P_EXEC_FREQ) / 3600);
    mr_patrol_set_max_drives(a, p[MR_PR_P_MAX_PD]);
    mr_patrol_set_mode(a, p[MR_PR_P_OP_MODE]);
    return MFI_STAT_OK;
}

/* A PR_STOP held until the pass has ended. */
typedef struct MR9500PrStop {
    MR9500State *s;
    uint32_t held_epoch;        /* s->held_epoch when it came */
    uint16_t smid;
    uint8_t queue;
    uint64_t mfi_addr;
} MR9500PrStop;

static void mr9500_pr_stopped(void *opaque)
{
    MR9500PrStop *h = opaque;
    bool current = h->held_epoch == h->s->held_epoch;

    trace_megaraid_9500_pr_stopped(h->smid, current);
    if (current) {
        mr9500_mfi_complete(h->s, h->smid, h->queue, h->mfi_addr,
                            MFI_STAT_OK);
    }
    g_free(h);
}

static MR9500CfgAnswer mr9500_pr_stop(MR9500State *s, uint16_t smid,
                                      uint8_t queue, uint64_t mfi_addr)
{
    MRArray *a = mr9500_pr_array(s);
    MR9500PrStop *h = g_new0(MR9500PrStop, 1);

    h->s = s;
    h->held_epoch = s->held_epoch;
    h->smid = smid;
    h->queue = queue;
    h->mfi_addr = mfi_addr;
    mr_patrol_request_stop(a);
    mr_patrol_when_stopped(a, mr9500_pr_stopped, h);
    return MR9500_CFG_HELD;
}

MR9500CfgAnswer mr9500_pr_dcmd(MR9500State *s, uint32_t opcode,
                               uint16_t smid, uint8_t queue,
                               uint64_t mfi_addr, const uint8_t *f,
                               uint8_t **buf, uint32_t *len, uint8_t *status)
{
    MRArray *a = mr9500_pr_array(s);
    MRPatrolStatus st;
    Error *err = NULL;

    mr_patrol_status(a, &st);
    switch (opcode) {
    case MR_DCMD_PR_GET_STATUS:
        *len = MR_PR_STATUS_SIZE;
        *buf = g_malloc0(*len);
        stl_le_p(*buf + MR_PR_ST_ITERATIONS, st.iterations);
        (*buf)[MR_PR_ST_STATE] = st.running ? MR_PR_STATE_ACTIVE :
                                 MR_PR_STATE_STOPPED;
        (*buf)[MR_PR_ST_PD_DONE] = MIN(st.drives_done, 255);
        break;
    case MR_DCMD_PR_GET_PROPERTIES:
        *len = MR_PR_PROPS_SIZE;
        *buf = g_malloc0(*len);
        mr9500_pr_props(s, *buf);
        break;
    case MR_DCMD_PR_SET_PROPERTIES:
        *status = mr9500_pr_set_props(s, f);
        break;
    case MR_DCMD_PR_START:
        if (!mr_patrol_start(a, &err)) {
            trace_megaraid_9500_pr_start_refused(error_get_pretty(err));
            error_free(err);
            *status = MFI_STAT_WRONG_STATE;
        }
        break;
    case MR_DCMD_PR_STOP:
        if (!st.running) {
            break;                      /* nothing to stop: OK now */
        }
        return mr9500_pr_stop(s, smid, queue, mfi_addr);
    default:
        return MR9500_CFG_NOT_MINE;
    }
    return MR9500_CFG_ANSWERED;
}
