/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: how megaraid-9500's MFI management DCMDs (mr9500-pd-mgmt.c,
 * mr9500-bbu.c, mr9500-ctrl-mgmt.c) call the firmware core's management
 * protocol (mgmt-proto.h): a query answered at once, and a change whose
 * DCMD is held until the core has its metadata on the drives, then
 * completed with the MFI status the protocol's status maps to.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

size_t mr9500_mgmt_request(uint8_t *req, uint32_t op, const uint32_t *mbox,
                           const void *data, uint32_t dlen)
{
    MgmtRequest r = {
        .magic = cpu_to_le32(MGMT_REQ_MAGIC),
        .version = cpu_to_le16(MGMT_VERSION),
        .hdr_len = cpu_to_le16(sizeof(MgmtRequest)),
        .opcode = cpu_to_le32(op),
        .data_len = cpu_to_le32(dlen),
    };

    for (int i = 0; i < 4; i++) {
        r.mbox[i] = cpu_to_le32(mbox ? mbox[i] : 0);
    }
    memcpy(req, &r, sizeof(r));
    if (dlen) {
        memcpy(req + sizeof(r), data, dlen);
    }
    return sizeof(r) + dlen;
}

/* ---- queries ---- */

static void mgmt_call_ask_done(void *opaque, size_t len)
{
    MR9500MgmtAnswer *q = opaque;

    if (q->orphan) {
        g_free(q);
        return;
    }
    q->done = true;
    q->len = len;
}

MR9500MgmtAnswer *mr9500_mgmt_ask(MR9500State *s, uint32_t op, uint32_t m0,
                                  uint32_t m1)
{
    uint32_t mbox[4] = { m0, m1 };
    uint8_t req[sizeof(MgmtRequest)];
    MR9500MgmtAnswer *q = g_new0(MR9500MgmtAnswer, 1);

    mr_core_mgmt_execute_async(&s->core, mr9500_mgmt_host_ops(), s, req,
                               mr9500_mgmt_request(req, op, mbox, NULL, 0),
                               q->resp, sizeof(q->resp),
                               mgmt_call_ask_done, q);
    if (!q->done) {
        q->orphan = true;       /* freed when it answers */
        return NULL;
    }
    return q;
}

bool mr9500_mgmt_query(MR9500State *s, uint32_t op, uint32_t m0, void *out,
                       size_t cap)
{
    g_autofree MR9500MgmtAnswer *q = mr9500_mgmt_ask(s, op, m0, 0);
    const MgmtReply *r;

    memset(out, 0, cap);
    if (!q) {
        return false;
    }
    r = (const MgmtReply *)q->resp;
    if (q->len < sizeof(*r) || r->status != MGMT_STAT_OK) {
        return false;
    }
    memcpy(out, q->resp + sizeof(*r),
           MIN(cap, MIN(le32_to_cpu(r->data_len), q->len - sizeof(*r))));
    return true;
}

/*
 * The MFI firmware state of a drive in protocol state @st.  A failed
 * member (the core's offline) is FAILED 0x11, the state mfiutil's "fail"
 * asks for and the only failed state megasasctl names (it prints OFFLINE
 * 0x10 as "???"); PD_STATE_SET takes OFFLINE and FAILED alike.
 */
uint16_t mr9500_mfi_pd_state(uint8_t st)
{
    static const uint16_t map[] = {
        [MGMT_PD_UNCONF_GOOD] = MR_PD_STATE_UNCONF_GOOD,
        [MGMT_PD_UNCONF_BAD] = MR_PD_STATE_UNCONF_BAD,
        [MGMT_PD_ONLINE] = MR_PD_STATE_ONLINE,
        [MGMT_PD_OFFLINE] = MR_PD_STATE_FAILED,
        [MGMT_PD_REBUILD] = MR_PD_STATE_REBUILD,
        [MGMT_PD_HOT_SPARE] = MR_PD_STATE_HOT_SPARE,
        [MGMT_PD_FOREIGN] = MR_PD_STATE_UNCONF_GOOD,
        [MGMT_PD_MISSING] = MR_PD_STATE_FAILED,
        [MGMT_PD_JBOD] = MR_PD_STATE_SYSTEM,
        [MGMT_PD_COPYBACK] = 0x20,      /* MFI's COPYBACK */
    };

    return st < ARRAY_SIZE(map) ? map[st] : MR_PD_STATE_FAILED;
}

/* ---- changes ---- */

typedef struct MgmtCallRun {
    MR9500State *s;
    uint32_t epoch;
    uint16_t smid;
    uint8_t queue;
    uint64_t mfi_addr;
    uint32_t dcmd;
    uint8_t resp[MGMT_MAX_RESP_LEN];
} MgmtCallRun;

uint8_t mr9500_mgmt_mfi_status(uint8_t mgmt)
{
    switch (mgmt) {
    case MGMT_STAT_OK:
        return MFI_STAT_OK;
    case MGMT_STAT_DEVICE_NOT_FOUND:
    case MGMT_STAT_VD_NOT_FOUND:
        return MFI_STAT_DEVICE_NOT_FOUND;
    case MGMT_STAT_DG_NOT_FOUND:
        return MFI_STAT_ARRAY_INDEX_INVALID;
    case MGMT_STAT_LIMIT:
        return MFI_STAT_MAX_SPARES_EXCEEDED;
    case MGMT_STAT_IO_ERROR:
        return MFI_STAT_SCSI_IO_FAILED;
    case MGMT_STAT_INVALID_PARAMETER:
    case MGMT_STAT_DATA_LEN:
        return MFI_STAT_INVALID_PARAMETER;
    default:
        /* wrong state, busy, no job, ...: not in the state it is in */
        return MFI_STAT_WRONG_STATE;
    }
}

static void mgmt_call_run_done(void *opaque, size_t len)
{
    MgmtCallRun *r = opaque;
    const MgmtReply *rep = (const MgmtReply *)r->resp;
    uint8_t st = len >= sizeof(*rep) ? mr9500_mgmt_mfi_status(rep->status)
                                     : MFI_STAT_WRONG_STATE;

    if (r->epoch == r->s->held_epoch) {
        trace_megaraid_9500_mgmt_call_done(r->smid, r->dcmd, st);
        mr9500_mfi_complete(r->s, r->smid, r->queue, r->mfi_addr, st);
    }
    g_free(r);
}

void mr9500_mgmt_run(MR9500State *s, uint16_t smid, uint8_t queue,
                     uint64_t mfi_addr, uint32_t dcmd, uint32_t op,
                     const uint32_t *mbox, const void *data, uint32_t dlen)
{
    g_autofree uint8_t *req = g_malloc(sizeof(MgmtRequest) + dlen);
    MgmtCallRun *r = g_new0(MgmtCallRun, 1);

    r->s = s;
    r->epoch = s->held_epoch;
    r->smid = smid;
    r->queue = queue;
    r->mfi_addr = mfi_addr;
    r->dcmd = dcmd;
    trace_megaraid_9500_mgmt_call_run(smid, dcmd, op, mbox[0], mbox[1]);
    mr_core_mgmt_execute_async(&s->core, mr9500_mgmt_host_ops(), s, req,
                               mr9500_mgmt_request(req, op, mbox, data, dlen),
                               r->resp, sizeof(r->resp),
                               mgmt_call_run_done, r);
}
