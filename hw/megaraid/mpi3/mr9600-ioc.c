/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 IOC management requests on the admin queue:
 * dispatch by function, IOC FACTS (the 9670W's limits), IOC INIT, CI
 * UPLOAD (package manifest), queue create/delete, event notification and
 * acknowledgement, IO UNIT CONTROL and diag buffer posting; the persistent
 * event log is mr9600-pel.c's.  Every request is completed, with an MPI3
 * error status when it is malformed.
 */
#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_PRODUCT_ID       0x2000
/*
 * Seconds the host should allow a shutdown notification (IOC FACTS, and
 * ENERGY PACK CHANGE when the CacheVault changes): with the CacheVault's
 * flash the cache may stay dirty; without it every dirty line must reach
 * the drives first.  A modelling choice: the card's values are not
 * published.
 */
#define MR9600_SHUTDOWN_TIMEOUT         10
#define MR9600_SHUTDOWN_TIMEOUT_NO_CV   60
#define MR9600_DMA_ADDRESS_WIDTH 64

void mr9600_reply_status(MR9600State *s, uint16_t req_qid,
                         const MPI3RequestHeader *hdr, uint16_t ioc_status)
{
    uint16_t tag = le16_to_cpu(hdr->host_tag);

    if (ioc_status == MPI3_IOCSTATUS_SUCCESS) {
        mr9600_post_success(s, req_qid, tag);
    } else {
        trace_megaraid_9600_err_request(hdr->function, tag, ioc_status);
        mr9600_post_status(s, req_qid, tag, ioc_status, 0);
    }
}

/* A single SIMPLE system-memory SGE describing a buffer in guest RAM. */
bool mr9600_read_sge(MR9600State *s, const MPI3SGE *sge, uint64_t *addr,
                     uint32_t *len)
{
    uint8_t type = sge->flags & MPI3_SGE_FLAGS_TYPE_MASK;

    *addr = le64_to_cpu(sge->address);
    *len = le32_to_cpu(sge->length);
    if (type != MPI3_SGE_FLAGS_TYPE_SIMPLE ||
        (sge->flags & MPI3_SGE_FLAGS_DLAS_MASK) || *len == 0 ||
        !mr9600_dma_ok(s, *addr, *len)) {
        trace_megaraid_9600_err_sge(sge->flags, *addr, *len);
        return false;
    }
    return true;
}

/*
 * The IO throttling limits IOC FACTS reports (the driver's throttle
 * groups for VDs, and its reply queue full guard): 0 (the default) is
 * none, as the 9670W reports.
 */
bool mr9600_facts_check(MR9600State *s, Error **errp)
{
    if (s->throttle_data_kib % 4 ||
        s->throttle_data_kib > MR9600_MAX_DATA_LENGTH / 1024) {
        error_setg(errp, "megaraid-9600: io-throttle-data-kib %u is not a "
                   "multiple of 4 KiB of 0..%u (the largest transfer)",
                   s->throttle_data_kib, MR9600_MAX_DATA_LENGTH / 1024);
        return false;
    }
    if (s->throttle_low_mib > s->throttle_high_mib) {
        error_setg(errp, "megaraid-9600: io-throttle-low-mib %u is above "
                   "io-throttle-high-mib %u", s->throttle_low_mib,
                   s->throttle_high_mib);
        return false;
    }
    return true;
}

static void mr9600_ioc_facts(MR9600State *s, const uint8_t *frame)
{
    const MPI3IOCFactsRequest *req = (const void *)frame;
    MPI3IOCFactsData f = { 0 };
    uint64_t addr;
    uint32_t len;
    bool raid = s->model->personality == MR9600_PERSONALITY_RAID;

    if (!mr9600_read_sge(s, &req->sgl, &addr, &len)) {
        mr9600_reply_status(s, 0, &req->hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    len = MIN(len, sizeof(f)) & ~3u;
    f.ioc_facts_data_length = cpu_to_le16(len / 4);
    f.mpi_version = cpu_to_le32(0x03002200);
    f.fw_build_num = cpu_to_le16(MR9600_FW_BUILD);
    f.fw_phase_minor = MR9600_FW_PHASE_MINOR;
    f.fw_phase_major = MR9600_FW_PHASE_MAJOR;
    f.fw_gen_minor = MR9600_FW_GEN_MINOR;
    f.fw_gen_major = MR9600_FW_GEN_MAJOR;
    /* without MULTIPATH the driver runs its SAS transport layer */
    f.ioc_capabilities = cpu_to_le32(
        (mr9600_sas_on(s) ? 0 : MPI3_IOCFACTS_CAPABILITY_MULTIPATH) |
        (raid ? MPI3_IOCFACTS_CAPABILITY_RAID_SUPPORTED : 0));
    f.ioc_number = 0;
    f.who_init = s->initialized ? 3 : 0;
    f.max_msix_vectors = cpu_to_le16(s->msix_vectors);
    f.max_outstanding_requests = cpu_to_le16(s->max_outstanding);
    f.product_id = cpu_to_le16(MR9600_PRODUCT_ID);
    f.ioc_request_frame_size = cpu_to_le16(MPI3_REQUEST_FRAME_SIZE / 4);
    f.reply_frame_size = cpu_to_le16(MR9600_REPLY_FRAME_SIZE / 4);
    f.max_persistent_id = cpu_to_le16(MR9600_MAX_PERSISTENT_ID);
    f.protocol_flags = MPI3_IOCFACTS_PROTOCOL_SAS |
        MPI3_IOCFACTS_PROTOCOL_SATA | MPI3_IOCFACTS_PROTOCOL_NVME |
        MPI3_IOCFACTS_PROTOCOL_SCSI_INITIATOR;
    f.max_data_length = cpu_to_le16(MR9600_MAX_DATA_LENGTH / 4096);
    f.max_sas_expanders = cpu_to_le16(64);
    f.max_enclosures = cpu_to_le16(8);
    f.min_dev_handle = cpu_to_le16(1);
    f.max_dev_handle = cpu_to_le16(MR9600_MAX_DEV_HANDLE);
    f.max_nvme = cpu_to_le16(MR_MAX_NVME_DRIVES);
    f.max_vds = cpu_to_le16(raid ? 240 : 0);
    f.max_host_pds = cpu_to_le16(MR_MAX_SAS_SATA_DRIVES);
    f.max_adv_host_pds = cpu_to_le16(MR_MAX_SAS_SATA_DRIVES);
    f.max_raid_pds = cpu_to_le16(raid ? MR_MAX_SAS_SATA_DRIVES : 0);
    /*
     * The width of the DMA addresses the IOC decodes: every address the
     * device takes is checked against guest memory, not truncated, so all
     * 64 bits.  (A zero here makes newer mpi3mr compute a 0-bit mask.)
     */
    f.flags = cpu_to_le32((raid ? MPI3_IOCFACTS_FLAGS_PERSONALITY_RAID_DDR
                                : MPI3_IOCFACTS_FLAGS_PERSONALITY_EHBA) |
                          (MR9600_DMA_ADDRESS_WIDTH <<
                           MPI3_IOCFACTS_FLAGS_DMA_ADDRESS_WIDTH_SHIFT) |
                          (s->reply_queue_limit ?
                           MPI3_IOCFACTS_FLAGS_MAX_REQ_PER_REPLY_Q : 0));
    f.max_devices_per_throttle_group = s->throttle_devices;
    f.io_throttle_data_length = cpu_to_le16(s->throttle_data_kib / 4);
    f.max_io_throttle_group = cpu_to_le16(s->throttle_groups);
    f.io_throttle_low = cpu_to_le16(s->throttle_low_mib);
    f.io_throttle_high = cpu_to_le16(s->throttle_high_mib);
    f.max_operational_request_queues = cpu_to_le16(s->max_op_queues);
    f.max_operational_reply_queues = cpu_to_le16(s->max_op_queues);
    f.shutdown_timeout = cpu_to_le16(mr9600_shutdown_timeout(s));

    trace_megaraid_9600_ioc_facts(len);
    pci_dma_write(PCI_DEVICE(s), addr, &f, len);
    mr9600_reply_status(s, 0, &req->hdr, MPI3_IOCSTATUS_SUCCESS);
}

uint16_t mr9600_shutdown_timeout(MR9600State *s)
{
    return mr_core_cachevault(&s->core) == MR_CV_OPTIMAL ?
           MR9600_SHUTDOWN_TIMEOUT : MR9600_SHUTDOWN_TIMEOUT_NO_CV;
}

/* The CacheVault changed: tell the host the new shutdown timeout. */
void mr9600_energy_pack_changed(MR9600State *s)
{
    uint8_t ev[8] = { 0 };

    if (!mr9600_ioc_ready(s) ||
        !mr9600_event_enabled(s, MPI3_EVENT_ENERGY_PACK_CHANGE)) {
        return;
    }
    stw_le_p(ev + 4, mr9600_shutdown_timeout(s));
    trace_megaraid_9600_energy_pack_change(mr9600_shutdown_timeout(s));
    mr9600_send_event(s, MPI3_EVENT_ENERGY_PACK_CHANGE, ev, sizeof(ev));
}

static uint16_t mr9600_check_ioc_init(MR9600State *s,
                                      const MPI3IOCInitRequest *req)
{
    uint32_t rdepth = le16_to_cpu(req->reply_free_queue_depth);
    uint32_t sdepth = le16_to_cpu(req->sense_buffer_free_queue_depth);
    uint32_t slen = le16_to_cpu(req->sense_buffer_length);

    if (s->initialized) {
        return MPI3_IOCSTATUS_INVALID_STATE;
    }
    if (rdepth < 2 || sdepth < 2 || slen < 18 ||
        slen > MR9600_SENSE_BUFFER_SIZE * 16) {
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (!mr9600_dma_ok(s, le64_to_cpu(req->reply_free_queue_address),
                       rdepth * 8ULL) ||
        !mr9600_dma_ok(s, le64_to_cpu(req->sense_buffer_free_queue_address),
                       sdepth * 8ULL)) {
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

static void mr9600_ioc_init(MR9600State *s, const uint8_t *frame)
{
    const MPI3IOCInitRequest *req = (const void *)frame;
    uint16_t st;

    if (mr9600_fault_ioc_init(s)) {
        return;
    }
    st = mr9600_check_ioc_init(s, req);
    trace_megaraid_9600_ioc_init(
        le32_to_cpu(req->mpi_version), req->hdr.msg_flags,
        le16_to_cpu(req->reply_free_queue_depth),
        le16_to_cpu(req->sense_buffer_free_queue_depth),
        le16_to_cpu(req->sense_buffer_length), st);
    if (st == MPI3_IOCSTATUS_SUCCESS) {
        s->reply_free_base = le64_to_cpu(req->reply_free_queue_address);
        s->reply_free_depth = le16_to_cpu(req->reply_free_queue_depth);
        s->reply_free_host = 0;
        s->reply_free_ci = 0;
        s->sense_free_base = le64_to_cpu(req->sense_buffer_free_queue_address);
        s->sense_free_depth = le16_to_cpu(req->sense_buffer_free_queue_depth);
        s->sense_free_host = 0;
        s->sense_free_ci = 0;
        s->sense_buffer_length = le16_to_cpu(req->sense_buffer_length);
        s->timestamp_ms = le64_to_cpu(req->time_stamp);
        s->timestamp_set_at = qemu_clock_get_ms(QEMU_CLOCK_HOST);
        s->initialized = true;
    }
    mr9600_reply_status(s, 0, &req->hdr, st);
}

static void mr9600_ci_upload(MR9600State *s, const uint8_t *frame)
{
    const MPI3CIUploadRequest *req = (const void *)frame;
    uint8_t manifest[MPI3_CI_UPLOAD_MANIFEST_SIZE] = { 0 };
    uint8_t *v = manifest + MPI3_CI_MANIFEST_PKG_VERSION_OFFSET;
    PCIDevice *pci = PCI_DEVICE(s);
    uint64_t addr;
    uint32_t len;

    if (!mr9600_read_sge(s, &req->sgl, &addr, &len)) {
        mr9600_reply_status(s, 0, &req->hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    /* MPI manifest: type 0, IDs at 0x20, package version at 0x38. */
    stw_le_p(manifest + 0x20, pci_get_word(pci->config + PCI_VENDOR_ID));
    stw_le_p(manifest + 0x22, pci_get_word(pci->config + PCI_DEVICE_ID));
    stw_le_p(manifest + 0x24, s->model->core.subsys_vendor);
    stw_le_p(manifest + 0x26, s->model->core.subsys_id);
    stw_le_p(v, MR9600_FW_BUILD);
    v[4] = MR9600_FW_PHASE_MINOR;
    v[5] = MR9600_FW_PHASE_MAJOR;
    v[6] = MR9600_FW_GEN_MINOR;
    v[7] = MR9600_FW_GEN_MAJOR;
    pci_dma_write(pci, addr, manifest, MIN(len, sizeof(manifest)));
    mr9600_reply_status(s, 0, &req->hdr, MPI3_IOCSTATUS_SUCCESS);
}

static void mr9600_event_notification(MR9600State *s, const uint8_t *frame)
{
    const MPI3EventNotificationRequest *req = (const void *)frame;

    for (int i = 0; i < 4; i++) {
        s->event_masks[i] = le32_to_cpu(req->event_masks[i]);
    }
    s->events_enabled = true;
    trace_megaraid_9600_event_masks(s->event_masks[0], s->event_masks[1],
                                    s->event_masks[2], s->event_masks[3]);
    mr9600_reply_status(s, 0, &req->hdr, MPI3_IOCSTATUS_SUCCESS);
    mr9600_encl_events_enabled(s);
}

static void mr9600_io_unit_control(MR9600State *s, const uint8_t *frame)
{
    const MPI3IOUnitControlRequest *req = (const void *)frame;
    uint8_t op = le16_to_cpu(req->hdr.function_dependent) >> 8;
    MPI3IOUnitControlReply rep = { 0 };
    uint16_t st = MPI3_IOCSTATUS_SUCCESS;
    uint64_t now;

    trace_megaraid_9600_io_unit_control(op, le16_to_cpu(req->param16[0]));
    switch (op) {
    case MPI3_CTRL_OP_UPDATE_TIMESTAMP:
        s->timestamp_ms = le64_to_cpu(req->param64[0]);
        s->timestamp_set_at = qemu_clock_get_ms(QEMU_CLOCK_HOST);
        break;
    case MPI3_CTRL_OP_REMOVE_DEVICE:
        st = mr9600_remove_device(s, le16_to_cpu(req->param16[0]));
        break;
    case MPI3_CTRL_OP_HIDDEN_ACK:
        st = mr9600_unit_by_handle(s, le16_to_cpu(req->param16[0]))
             ? MPI3_IOCSTATUS_SUCCESS : MPI3_IOCSTATUS_INVALID_FIELD;
        break;
    case MPI3_CTRL_OP_SAS_PHY_CONTROL:
        st = mr9600_phyctl_control(s, req);
        break;
    case MPI3_CTRL_OP_GET_TIMESTAMP:
    case MPI3_CTRL_OP_GET_IOC_CHANGE_COUNT:
        rep.hdr.host_tag = req->hdr.host_tag;
        rep.hdr.function = req->hdr.function;
        now = s->timestamp_ms + qemu_clock_get_ms(QEMU_CLOCK_HOST) -
              s->timestamp_set_at;
        rep.value64[0] = cpu_to_le64(now);
        rep.value16[0] = cpu_to_le16(s->change_count);
        mr9600_post_frame(s, 0, &rep, sizeof(rep), NULL);
        return;
    default:
        st = MPI3_IOCSTATUS_INVALID_FIELD;
        break;
    }
    mr9600_reply_status(s, 0, &req->hdr, st);
}

static bool mr9600_allowed_before_init(uint8_t function)
{
    switch (function) {
    case MPI3_FUNCTION_IOC_FACTS:
    case MPI3_FUNCTION_IOC_INIT:
    case MPI3_FUNCTION_CONFIG:
    case MPI3_FUNCTION_DIAG_BUFFER_POST:
    case MPI3_FUNCTION_DIAG_BUFFER_MANAGE:
        return true;
    default:
        return false;
    }
}

void mr9600_admin_request(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    const MPI3CreateQueueRequest *cq = (const void *)frame;
    uint16_t st;

    trace_megaraid_9600_admin_request(hdr->function,
                                      le16_to_cpu(hdr->host_tag));
    if (!s->initialized && !mr9600_allowed_before_init(hdr->function)) {
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_STATE);
        return;
    }
    switch (hdr->function) {
    case MPI3_FUNCTION_IOC_FACTS:
        mr9600_ioc_facts(s, frame);
        break;
    case MPI3_FUNCTION_IOC_INIT:
        mr9600_ioc_init(s, frame);
        break;
    case MPI3_FUNCTION_PORT_ENABLE:
        mr9600_port_enable(s, le16_to_cpu(hdr->host_tag));
        break;
    case MPI3_FUNCTION_EVENT_NOTIFICATION:
        mr9600_event_notification(s, frame);
        break;
    case MPI3_FUNCTION_EVENT_ACK:
        st = mr9600_event_ack(s, (const MPI3EventAckRequest *)frame);
        mr9600_reply_status(s, 0, hdr, st);
        break;
    case MPI3_FUNCTION_DIAG_BUFFER_POST:
    case MPI3_FUNCTION_DIAG_BUFFER_MANAGE:
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_SUCCESS);
        break;
    case MPI3_FUNCTION_CI_UPLOAD:
        mr9600_ci_upload(s, frame);
        break;
    case MPI3_FUNCTION_IO_UNIT_CONTROL:
        mr9600_io_unit_control(s, frame);
        break;
    case MPI3_FUNCTION_PERSISTENT_EVENT_LOG:
        mr9600_pel_request(s, frame);
        break;
    case MPI3_FUNCTION_CONFIG:
        mr9600_config_request(s, (const MPI3ConfigRequest *)frame);
        break;
    case MPI3_FUNCTION_MGMT_PASSTHROUGH:
        mr9600_mgmt_request(s, frame);
        break;
    case MPI3_FUNCTION_SMP_PASSTHROUGH:
        mr9600_smp_request(s, frame);
        break;
    case MPI3_FUNCTION_SCSI_IO:
        if (!mr9600_request_available(s)) {
            mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_BUSY);
            break;
        }
        mr9600_scsi_io(s, 0, frame);
        break;
    case MPI3_FUNCTION_NVME_ENCAPSULATED:
        if (!mr9600_request_available(s)) {
            mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_BUSY);
            break;
        }
        mr9600_nvme_encap(s, frame);
        break;
    case MPI3_FUNCTION_SCSI_TASK_MGMT:
        mr9600_task_mgmt(s, (const MPI3SCSITaskMgmtRequest *)frame);
        break;
    case MPI3_FUNCTION_CREATE_REQUEST_QUEUE:
    case MPI3_FUNCTION_CREATE_REPLY_QUEUE:
        st = mr9600_create_queue(s, cq, hdr->function ==
                                 MPI3_FUNCTION_CREATE_REPLY_QUEUE);
        mr9600_reply_status(s, 0, hdr, st);
        break;
    case MPI3_FUNCTION_DELETE_REQUEST_QUEUE:
    case MPI3_FUNCTION_DELETE_REPLY_QUEUE:
        st = mr9600_delete_queue(s, le16_to_cpu(hdr->function_dependent),
                                 hdr->function ==
                                 MPI3_FUNCTION_DELETE_REPLY_QUEUE);
        mr9600_reply_status(s, 0, hdr, st);
        break;
    default:
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FUNCTION);
        break;
    }
}
