/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's MGMT PASSTHROUGH (MPI3 function 0x0A),
 * the transport of the management protocol (mgmt-ops.h): the frame's
 * command SGL holds the request, its response SGL receives the reply.
 * Both must be one SIMPLE SGE in guest memory; the request is read up to
 * MGMT_MAX_CMD_LEN bytes and the reply written up to MGMT_MAX_RESP_LEN,
 * whatever the buffers' size (the mpi3mr driver bounces both through
 * 4 KiB buffers).  A frame the device cannot use completes with an MPI3
 * error status; everything else with SUCCESS and the protocol's status,
 * a request that changed the configuration once its DDF metadata is on
 * the drives (the reply waits, not the main loop).
 *
 * Also what a management operation needs from the MPI3 side: a deleted
 * VD leaves its host through DEVICE STATUS CHANGE (VD not responding).
 */
#include "qemu/osdep.h"
#include "system/dma.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9600.h"
#include "trace.h"

/* MGMT PASSTHROUGH request (MPI 3.0), 0x40 bytes. */
#define MR9600_MGMT_RESERVED        0x0A    /* 0x0A..0x1F: reserved */
#define MR9600_MGMT_COMMAND_SGL     0x20
#define MR9600_MGMT_RESPONSE_SGL    0x30

/* DEVICE STATUS CHANGE event data (24 bytes). */
#define MR9600_DSC_LEN              24

static void mr9600_mgmt_vd_removing(void *opaque, MRVirtualDisk *vd)
{
    MR9600State *s = opaque;
    MRUnit *u = mr_vd_unit(vd);
    uint16_t h = u->host_id;
    uint8_t ev[MR9600_DSC_LEN] = { 0 };

    s->vd_host_state[mr_vd_index(vd)] = 0;
    if (!h || h >= MR9600_MAX_DEV_HANDLE || s->handles[h] != u) {
        return;
    }
    mr9600_requests_cancel(s, h, true, 0, NULL);
    s->handles[h] = NULL;
    u->host_id = 0;
    trace_megaraid_9600_mgmt_vd_removed(mr_vd_index(vd), h);
    if (!s->port_enabled || !mr9600_ioc_ready(s) ||
        !mr9600_event_enabled(s, MPI3_EVENT_DEVICE_STATUS_CHANGE)) {
        return;                 /* the host never learns of it: free now */
    }
    /* keep the handle until the host's REMOVE_DEVICE */
    s->handle_reserved[h] = true;
    stw_le_p(ev, 0xFFFF);
    ev[2] = MPI3_EVENT_DEV_STAT_RC_VD_NOT_RESPONDING;
    stw_le_p(ev + 4, MPI3_DEVICE0_PARENT_INVALID);
    stw_le_p(ev + 6, h);
    stq_le_p(ev + 8, u->wwn);
    mr9600_send_event(s, MPI3_EVENT_DEVICE_STATUS_CHANGE, ev, sizeof(ev));
}

static bool mr9600_mgmt_vd_slot_free(void *opaque, int idx)
{
    MR9600State *s = opaque;
    uint32_t h = MR9600_VD_HANDLE_BASE + idx;

    return h < MR9600_MAX_DEV_HANDLE && !s->handles[h] &&
           !s->handle_reserved[h];
}

static const MRMgmtHostOps mr9600_mgmt_ops = {
    .vd_removing = mr9600_mgmt_vd_removing,
    .vd_slot_free = mr9600_mgmt_vd_slot_free,
};

/*
 * A reply on its way: it goes to the host once the change it made is on
 * the drives (mr_core_mgmt_execute_async), unless the IOC was reset or the
 * device went meanwhile (mgmt_epoch moved on).
 */
typedef struct MR9600MgmtWait {
    MR9600State *s;
    uint32_t epoch;
    MPI3RequestHeader hdr;
    uint64_t resp_addr;
    uint8_t *resp;
} MR9600MgmtWait;

static void mr9600_mgmt_done(void *opaque, size_t len)
{
    MR9600MgmtWait *w = opaque;
    MR9600State *s = w->s;

    if (w->epoch != s->mgmt_epoch) {
        trace_megaraid_9600_mgmt_dropped(le16_to_cpu(w->hdr.host_tag));
    } else if (pci_dma_write(PCI_DEVICE(s), w->resp_addr, w->resp, len) !=
               MEMTX_OK) {
        trace_megaraid_9600_err_mgmt_sgl(0, len);
        mr9600_reply_status(s, 0, &w->hdr, MPI3_IOCSTATUS_INVALID_SGL);
    } else {
        mr9600_reply_status(s, 0, &w->hdr, MPI3_IOCSTATUS_SUCCESS);
    }
    g_free(w->resp);
    g_free(w);
}

void mr9600_mgmt_request(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    const MPI3SGE *cmd_sge = (const void *)(frame + MR9600_MGMT_COMMAND_SGL);
    const MPI3SGE *resp_sge = (const void *)(frame + MR9600_MGMT_RESPONSE_SGL);
    g_autofree uint8_t *cmd = NULL;
    MR9600MgmtWait *w;
    uint64_t cmd_addr, resp_addr;
    uint32_t cmd_len = 0, resp_len = 0;

    for (int i = MR9600_MGMT_RESERVED; i < MR9600_MGMT_COMMAND_SGL; i++) {
        if (frame[i]) {
            trace_megaraid_9600_err_mgmt_frame(i, frame[i]);
            mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
            return;
        }
    }
    if (!mr9600_read_sge(s, cmd_sge, &cmd_addr, &cmd_len) ||
        !mr9600_read_sge(s, resp_sge, &resp_addr, &resp_len) ||
        resp_len < sizeof(MgmtReply)) {
        trace_megaraid_9600_err_mgmt_sgl(cmd_len, resp_len);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    cmd_len = MIN(cmd_len, MGMT_MAX_CMD_LEN);
    resp_len = MIN(resp_len, MGMT_MAX_RESP_LEN);
    cmd = g_malloc(cmd_len);
    if (pci_dma_read(PCI_DEVICE(s), cmd_addr, cmd, cmd_len) != MEMTX_OK) {
        trace_megaraid_9600_err_mgmt_sgl(cmd_len, resp_len);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    w = g_new0(MR9600MgmtWait, 1);
    w->s = s;
    w->epoch = s->mgmt_epoch;
    w->hdr = *hdr;
    w->resp_addr = resp_addr;
    w->resp = g_malloc(resp_len);
    mr_core_mgmt_execute_async(&s->core, &mr9600_mgmt_ops, s, cmd, cmd_len,
                               w->resp, resp_len, mr9600_mgmt_done, w);
}
