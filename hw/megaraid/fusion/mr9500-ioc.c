/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 IOC INIT and queues.  Owns the MFA-posted
 * MFI INIT frame and the MPI2 IOC INIT it carries (validation, frame base,
 * reply queues contiguous or through an RDPQ array), the request
 * descriptors (fetch of the SMID's 256-byte frame, dispatch on its
 * Function byte), the reply descriptor queues with their producer and the
 * host's consumer indices, and the interrupts (MSI-X per queue, INTx with
 * the status register, both held while the host masks them).
 */
#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "system/dma.h"
#include "mr9500.h"
#include "trace.h"

/* Forget every host address and command: reset, doorbell abort, fault. */
void mr9500_ioc_reset(MR9500State *s)
{
    s->generation++;
    mr9500_cmds_abort_all(s);
    mr9500_dcmd_reset(s);
    s->operational = false;
    s->frame_base = 0;
    s->reply_depth = 0;
    s->nqueues = 0;
    s->max_smid = 0;
    memset(s->reply_base, 0, sizeof(s->reply_base));
    memset(s->reply_pi, 0, sizeof(s->reply_pi));
    memset(s->reply_hi, 0, sizeof(s->reply_hi));
    s->intr_status = 0;
    pci_set_irq(PCI_DEVICE(s), 0);
}

static bool mr9500_intr_enabled(MR9500State *s)
{
    return !(s->intr_mask & MFI_INTR_ENABLE_BITS);
}

static void mr9500_update_intx(MR9500State *s)
{
    PCIDevice *pci = PCI_DEVICE(s);
    bool pending = s->nqueues && s->reply_pi[0] != s->reply_hi[0];

    if (msix_enabled(pci)) {
        pci_set_irq(pci, 0);
        return;
    }
    if (pending) {
        s->intr_status |= MFI_INTR_REPLY;
    } else {
        s->intr_status &= ~MFI_INTR_REPLY;
    }
    pci_set_irq(pci, mr9500_intr_enabled(s) &&
                (s->intr_status & ~s->intr_mask & MFI_INTR_ENABLE_BITS));
}

static void mr9500_notify(MR9500State *s, uint32_t q)
{
    PCIDevice *pci = PCI_DEVICE(s);

    if (msix_enabled(pci)) {
        if (mr9500_intr_enabled(s)) {
            msix_notify(pci, q);
        }
        return;
    }
    mr9500_update_intx(s);
}

void mr9500_intr_mask_write(MR9500State *s, uint32_t val)
{
    bool was = mr9500_intr_enabled(s);

    s->intr_mask = val;
    trace_megaraid_9500_intr_mask(val);
    if (!was && mr9500_intr_enabled(s)) {
        /* replies posted while masked: signal them now */
        for (uint32_t q = 0; q < s->nqueues; q++) {
            if (s->reply_pi[q] != s->reply_hi[q]) {
                mr9500_notify(s, q);
            }
        }
    }
    mr9500_update_intx(s);
}

void mr9500_host_index_write(MR9500State *s, uint32_t queue, uint32_t idx)
{
    if (!s->operational || queue >= s->nqueues || idx >= s->reply_depth) {
        trace_megaraid_9500_ub_host_index(queue, idx);
        return;
    }
    s->reply_hi[queue] = idx;
    if (queue == 0) {
        mr9500_update_intx(s);
    }
    if (s->tm_waiting) {
        mr9500_tm_consumed(s);
    }
}

void mr9500_post_reply(MR9500State *s, uint32_t queue, uint16_t smid)
{
    uint8_t desc[MFI_REPLY_DESC_SIZE] = { 0 };
    uint64_t addr;

    if (!s->operational) {
        return;
    }
    if (queue >= s->nqueues) {
        queue = 0;
    }
    addr = s->reply_base[queue] +
           (uint64_t)s->reply_pi[queue] * MFI_REPLY_DESC_SIZE;
    desc[1] = queue;
    stw_le_p(desc + 2, smid);
    trace_megaraid_9500_reply(queue, s->reply_pi[queue], smid);
    if (pci_dma_write(PCI_DEVICE(s), addr, desc, sizeof(desc))) {
        mr9500_fault(s, MR9500_FAULT_REPLY_DMA);
        return;
    }
    s->reply_pi[queue] = (s->reply_pi[queue] + 1) % s->reply_depth;
    mr9500_notify(s, queue);
}

bool mr9500_frame_write(MR9500State *s, uint16_t smid, uint32_t off,
                        const void *buf, uint32_t len)
{
    uint64_t addr = s->frame_base + (uint64_t)smid * MPT_FRAME_SIZE + off;

    return !pci_dma_write(PCI_DEVICE(s), addr, buf, len);
}

/* ---- IOC INIT ---- */

static uint8_t mr9500_ioc_init_parse(MR9500State *s, const uint8_t *ii)
{
    uint32_t nq = MAX(ii[IOCINIT_MSIX_VECTORS], 1);
    uint32_t depth = lduw_le_p(ii + IOCINIT_REPLY_DEPTH);
    uint64_t frames = ldq_le_p(ii + IOCINIT_FRAME_BASE);
    uint64_t replies = ldq_le_p(ii + IOCINIT_REPLY_BASE);
    uint32_t max_smid = 2 * (s->max_cmds - 1u);

    trace_megaraid_9500_ioc_init(ii[IOCINIT_MSGFLAGS], nq, depth, frames,
                                 replies);
    if (ii[IOCINIT_FUNCTION] != MPI2_FUNCTION_IOC_INIT ||
        lduw_le_p(ii + IOCINIT_FRAME_SIZE) != MPT_FRAME_SIZE / 4 ||
        nq > s->queues || depth < 16 || depth % 16 ||
        !mr9500_dma_ok(s, frames, (uint64_t)(max_smid + 1) * MPT_FRAME_SIZE)) {
        trace_megaraid_9500_err_ioc_init(ii[IOCINIT_FUNCTION], nq, depth,
                                         frames);
        return MFI_STAT_INVALID_PARAMETER;
    }
    if (ii[IOCINIT_MSGFLAGS] & IOCINIT_MSGFLAGS_RDPQ) {
        uint8_t rdpq[MR9500_MAX_QUEUES * MFI_RDPQ_ENTRY_SIZE];

        if (!s->rdpq || !mr9500_dma_ok(s, replies, sizeof(rdpq)) ||
            pci_dma_read(PCI_DEVICE(s), replies, rdpq, sizeof(rdpq))) {
            trace_megaraid_9500_err_rdpq(replies);
            return MFI_STAT_INVALID_PARAMETER;
        }
        for (uint32_t q = 0; q < nq; q++) {
            s->reply_base[q] = ldq_le_p(rdpq + q * MFI_RDPQ_ENTRY_SIZE);
        }
    } else {
        for (uint32_t q = 0; q < nq; q++) {
            s->reply_base[q] = replies +
                               (uint64_t)q * depth * MFI_REPLY_DESC_SIZE;
        }
    }
    for (uint32_t q = 0; q < nq; q++) {
        if (!mr9500_dma_ok(s, s->reply_base[q],
                           (uint64_t)depth * MFI_REPLY_DESC_SIZE)) {
            trace_megaraid_9500_err_reply_queue(q, s->reply_base[q]);
            return MFI_STAT_INVALID_PARAMETER;
        }
    }
    s->frame_base = frames;
    s->reply_depth = depth;
    s->nqueues = nq;
    s->max_smid = max_smid;
    s->sense_high = ldl_le_p(ii + IOCINIT_SENSE_HIGH);
    s->timestamp_ms = ldq_le_p(ii + IOCINIT_TIMESTAMP);
    memset(s->reply_pi, 0, sizeof(s->reply_pi));
    memset(s->reply_hi, 0, sizeof(s->reply_hi));
    return MFI_STAT_OK;
}

static void mr9500_ioc_init(MR9500State *s, uint64_t addr)
{
    PCIDevice *pci = PCI_DEVICE(s);
    uint8_t frame[MFI_INIT_FRAME_SIZE];
    uint8_t ii[IOCINIT_SIZE];
    uint8_t status;
    uint64_t qinfo;

    if (!mr9500_dma_ok(s, addr, sizeof(frame)) ||
        pci_dma_read(pci, addr, frame, sizeof(frame))) {
        trace_megaraid_9500_err_init_frame(addr);
        return;
    }
    if (frame[MFI_HDR_CMD] != MFI_CMD_INIT) {
        status = MFI_STAT_INVALID_CMD;
    } else if (s->fw_state != MFI_STATE_READY || s->operational) {
        trace_megaraid_9500_ub_init_state(s->fw_state);
        status = MFI_STAT_WRONG_STATE;
    } else {
        qinfo = ldq_le_p(frame + MFI_INIT_QINFO_LO);
        if (!mr9500_dma_ok(s, qinfo, sizeof(ii)) ||
            pci_dma_read(pci, qinfo, ii, sizeof(ii))) {
            trace_megaraid_9500_err_init_frame(qinfo);
            status = MFI_STAT_INVALID_PARAMETER;
        } else {
            status = mr9500_ioc_init_parse(s, ii);
        }
    }
    if (status == MFI_STAT_OK) {
        s->operational = true;
        s->fw_state = MFI_STATE_OPERATIONAL;
    }
    trace_megaraid_9500_ioc_init_done(status);
    pci_dma_write(pci, addr + MFI_HDR_STATUS, &status, 1);
}

/* ---- request descriptors ---- */

void mr9500_post_request(MR9500State *s, uint32_t lo, uint32_t hi)
{
    uint8_t type = MFI_REQ_TYPE(lo & 0xFF);
    uint8_t queue = lo >> 8 & 0xFF;
    uint16_t smid = lo >> 16;
    uint8_t frame[MPT_FRAME_SIZE];
    uint64_t addr;

    trace_megaraid_9500_request(lo, hi);
    if (s->stopped || s->fw_state == MFI_STATE_FAULT) {
        trace_megaraid_9500_ub_request_state(s->fw_state, lo);
        return;
    }
    if (type == MFI_REQ_TYPE_MFA) {
        mr9500_ioc_init(s, (uint64_t)hi << 32 | (lo & ~0xFFu));
        return;
    }
    if (!s->operational) {
        trace_megaraid_9500_ub_request_state(s->fw_state, lo);
        return;
    }
    if (smid == 0 || smid > s->max_smid) {
        /* no reply can name it: the driver would index outside its pool */
        trace_megaraid_9500_err_smid(smid, s->max_smid);
        return;
    }
    if (s->cmds[smid].active || s->cmds[smid].tm_wait) {
        trace_megaraid_9500_err_smid_busy(smid);
        return;
    }
    if (queue >= s->nqueues) {
        trace_megaraid_9500_ub_queue(smid, queue);
        queue = 0;
    }
    addr = s->frame_base + (uint64_t)smid * MPT_FRAME_SIZE;
    if (pci_dma_read(PCI_DEVICE(s), addr, frame, sizeof(frame))) {
        mr9500_fault(s, MR9500_FAULT_FRAME_DMA);
        return;
    }
    switch (frame[MPT_FUNCTION]) {
    case MPT_FUNC_MFI_PASSTHRU:
        mr9500_mfi_passthru(s, smid, queue, frame);
        break;
    case MPT_FUNC_SCSI_IO:
    case MPT_FUNC_LD_IO:
        mr9500_scsi_io(s, smid, queue, frame);
        break;
    case MPT_FUNC_TASK_MGMT:
        mr9500_task_mgmt(s, smid, queue, frame);
        break;
    default: {
        uint8_t st[2] = { 0, MFI_STAT_INVALID_CMD };

        trace_megaraid_9500_err_function(smid, frame[MPT_FUNCTION]);
        mr9500_frame_write(s, smid, MPT_RAIDCTX_EX_STATUS, st, 2);
        mr9500_post_reply(s, queue, smid);
        break;
    }
    }
}
