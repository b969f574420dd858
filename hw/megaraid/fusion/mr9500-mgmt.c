/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's transport of the management protocol
 * (mgmt-ops.h): an MFI DCMD with the vendor opcode MGMT_MFI_DCMD_OPCODE,
 * as an application sends it through megaraid_sas' ioctl node.  The
 * DCMD's data buffer (its SGL, xfer_len bytes) holds the request
 * envelope on the way in (mailbox word 0: its length) and receives the
 * reply, header and data, on the way out.  A buffer the device cannot
 * use completes with MFI INVALID PARAMETER; everything else with MFI OK
 * and the protocol's status in the reply header, a request that changed
 * the configuration once its DDF metadata is on the drives (the DCMD is
 * held meanwhile, not the main loop).
 *
 * Also what a management operation needs from the megaraid_sas side: a
 * VD about to be deleted stops answering its LD target id and what it
 * still runs is terminated; mr9500-ld.c tells the driver LD DELETED once
 * it is gone.
 */
#include "qemu/osdep.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"


static void mr9500_mgmt_vd_removing(void *opaque, MRVirtualDisk *vd)
{
    MR9500State *s = opaque;
    MRUnit *u = mr_vd_unit(vd);
    uint16_t tgt = u->host_id;

    if (tgt != mr_vd_index(vd)) {
        return;                 /* never exposed */
    }
    /* LD I/O to it now answers DEVICE NOT FOUND (mr9500_ld_unit) */
    u->host_id = MR9500_NO_HOST_ID;
    for (uint32_t i = 1; s->cmds && i < s->ncmds; i++) {
        if (s->cmds[i].active && s->cmds[i].ld && s->cmds[i].pd == tgt) {
            mr_target_cancel(&s->cmds[i].treq);
        }
    }
    trace_megaraid_9500_mgmt_vd_removed(tgt);
}

static bool mr9500_mgmt_vd_slot_free(void *opaque, int idx)
{
    MR9500State *s = opaque;

    /* the LD DELETED of a VD deleted there has been raised */
    return idx >= 0 && idx < RAID_MAX_VDS &&
           s->ld_told[idx] == MR9500_LD_TOLD_NONE;
}

static const MRMgmtHostOps mr9500_mgmt_ops = {
    .vd_removing = mr9500_mgmt_vd_removing,
    .vd_slot_free = mr9500_mgmt_vd_slot_free,
};

const MRMgmtHostOps *mr9500_mgmt_host_ops(void)
{
    return &mr9500_mgmt_ops;
}

/*
 * A reply on its way: it goes to the host once the change it made is on
 * the drives (mr_core_mgmt_execute_async), unless the chip was reset or the
 * device went meanwhile (held_epoch moved on).
 */
typedef struct MR9500MgmtWait {
    MR9500State *s;
    uint32_t epoch;
    uint16_t smid;
    uint8_t queue;
    uint64_t mfi_addr;
    uint8_t frame[MFI_FRAME_SIZE];
    uint8_t *resp;
} MR9500MgmtWait;

static void mr9500_mgmt_done(void *opaque, size_t len)
{
    MR9500MgmtWait *w = opaque;
    MR9500State *s = w->s;

    if (w->epoch == s->held_epoch) {
        uint8_t st;

        trace_megaraid_9500_mgmt_reply(ldl_le_p(w->resp + 8), w->resp[16],
                                       len);
        st = mr9500_mfi_to_host(s, w->frame, MFI_DCMD_SGL, w->resp, len);
        mr9500_mfi_complete(s, w->smid, w->queue, w->mfi_addr, st);
    }
    g_free(w->resp);
    g_free(w);
}

bool mr9500_mgmt_dcmd(MR9500State *s, uint16_t smid, uint8_t queue,
                      uint64_t mfi_addr, const uint8_t *f, uint8_t *status)
{
    const uint8_t *mbox = f + MFI_DCMD_MBOX;
    uint32_t xfer = ldl_le_p(f + MFI_HDR_XFER_LEN);
    uint32_t cmd_len = ldl_le_p(mbox);
    g_autofree uint8_t *cmd = NULL;
    MR9500MgmtWait *w;
    uint32_t resp_cap;

    trace_megaraid_9500_mgmt_dcmd(xfer, cmd_len);
    /* mailbox words 1 and 2 are reserved */
    if (ldl_le_p(mbox + 4) || ldl_le_p(mbox + 8) || !cmd_len ||
        cmd_len > xfer || cmd_len > MGMT_MAX_CMD_LEN ||
        xfer < sizeof(MgmtReply)) {
        trace_megaraid_9500_mgmt_err_buffer(xfer, cmd_len);
        *status = MFI_STAT_INVALID_PARAMETER;
        return true;
    }
    resp_cap = MIN(xfer, MGMT_MAX_RESP_LEN);
    cmd = g_malloc(cmd_len);
    if (!mr9500_mfi_from_host(s, f, cmd, cmd_len)) {
        trace_megaraid_9500_mgmt_err_buffer(xfer, cmd_len);
        *status = MFI_STAT_INVALID_PARAMETER;
        return true;
    }
    w = g_new0(MR9500MgmtWait, 1);
    w->s = s;
    w->epoch = s->held_epoch;
    w->smid = smid;
    w->queue = queue;
    w->mfi_addr = mfi_addr;
    memcpy(w->frame, f, MFI_FRAME_SIZE);
    w->resp = g_malloc0(resp_cap);
    mr_core_mgmt_execute_async(&s->core, &mr9500_mgmt_ops, s, cmd, cmd_len,
                               w->resp, resp_cap, mr9500_mgmt_done, w);
    return false;
}
