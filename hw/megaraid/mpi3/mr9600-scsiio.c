/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 SCSI IO and task management.  Owns the
 * preallocated request pool (each slot keeps its QEMUSGList between
 * requests: no allocation per request), the bounds-checked SGL walk
 * (simple, chain and last-chain elements, chain depth and loop limits, DMA
 * only into guest RAM) into a QEMUSGList, the hand-off to the drive's SCSI
 * target, the translation of the target's status, sense and transfer count
 * into an MPI3 SCSI IO reply, and task management (abort, LUN and target
 * reset, queries) which terminates the I/O it covers before it replies.
 */
#include "qemu/osdep.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

void mr9600_requests_init(MR9600State *s)
{
    QTAILQ_INIT(&s->free_reqs);
    QTAILQ_INIT(&s->active_reqs);
    s->reqs = g_new0(MR9600Request, s->max_outstanding);
    for (uint32_t i = 0; i < s->max_outstanding; i++) {
        s->reqs[i].s = s;
        QTAILQ_INSERT_TAIL(&s->free_reqs, &s->reqs[i], next);
    }
}

/* SG entries a free slot keeps for the next request; more are given back */
#define MR9600_SG_KEEP  32

void mr9600_requests_free(MR9600State *s)
{
    for (uint32_t i = 0; s->reqs && i < s->max_outstanding; i++) {
        if (s->reqs[i].sg.sg) {
            qemu_sglist_destroy(&s->reqs[i].sg);
        }
    }
    g_free(s->reqs);
    s->reqs = NULL;
}

bool mr9600_request_available(MR9600State *s)
{
    return !QTAILQ_EMPTY(&s->free_reqs);
}

void mr9600_request_release(MR9600State *s, MR9600Request *r)
{
    bool was_empty = QTAILQ_EMPTY(&s->free_reqs);

    if (r->sg.sg && r->sg.nalloc > MR9600_SG_KEEP) {
        qemu_sglist_destroy(&r->sg);
    }
    r->active = false;
    r->tm = NULL;
    QTAILQ_REMOVE(&s->active_reqs, r, next);
    QTAILQ_INSERT_HEAD(&s->free_reqs, r, next);
    if (was_empty) {
        /* Queue processing stopped for lack of request slots. */
        if (mr_core_timing(&s->core)) {
            /* what waited for a slot arrives (for the model) now */
            s->slots_freed_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        }
        mr9600_kick(s);
    }
    if (QTAILQ_EMPTY(&s->active_reqs)) {
        mr9600_io_idle(s);
    }
}

/*
 * Take a free slot (the caller checked mr9600_request_available) for a
 * request of dlen bytes: active, its target request cleared, its SG list
 * empty and ready.
 */
MR9600Request *mr9600_request_take(MR9600State *s, uint16_t qid, uint16_t tag,
                                   uint16_t handle, uint32_t dlen)
{
    MR9600Request *r = QTAILQ_FIRST(&s->free_reqs);

    QTAILQ_REMOVE(&s->free_reqs, r, next);
    QTAILQ_INSERT_TAIL(&s->active_reqs, r, next);
    r->active = true;
    r->generation = s->generation;
    r->host_tag = tag;
    r->dev_handle = handle;
    r->req_qid = qid;
    r->data_length = dlen;
    r->tm = NULL;
    memset(&r->treq, 0, sizeof(r->treq));
    if (r->sg.sg) {
        /* the slot's list from an earlier request, emptied */
        r->sg.nsg = 0;
        r->sg.size = 0;
    } else {
        qemu_sglist_init(&r->sg, DEVICE(s), 4,
                         pci_get_address_space(PCI_DEVICE(s)));
    }
    return r;
}

uint64_t mr9600_decode_lun(const uint8_t *lun)
{
    for (int i = 2; i < 8; i++) {
        if (lun[i]) {
            return UINT64_MAX;
        }
    }
    switch (lun[0] >> 6) {
    case 0:                             /* peripheral device addressing */
        return lun[0] ? UINT64_MAX : lun[1];
    case 1:                             /* flat space addressing */
        return ((lun[0] & 0x3f) << 8) | lun[1];
    default:
        return UINT64_MAX;
    }
}

/* ---- SGL walk ---- */

static uint16_t mr9600_build_sgl(MR9600State *s, const MPI3SCSIIORequest *req,
                                 QEMUSGList *sg, uint32_t data_len)
{
    g_autofree MPI3SGE *chain = NULL;
    const MPI3SGE *sges = req->sgl;
    uint64_t visited[MR9600_MAX_CHAIN_DEPTH];
    uint32_t n = ARRAY_SIZE(req->sgl), i = 0, depth = 0, count = 0;
    uint64_t total = 0;

    while (i < n) {
        MPI3SGE e = sges[i++];
        uint64_t addr = le64_to_cpu(e.address);
        uint32_t len = le32_to_cpu(e.length);

        if (++count > MR9600_MAX_SGES) {
            trace_megaraid_9600_err_sgl_too_long(count);
            return MPI3_IOCSTATUS_INVALID_SGL;
        }
        if (e.flags & MPI3_SGE_FLAGS_DLAS_MASK) {
            trace_megaraid_9600_err_sge(e.flags, addr, len);
            return MPI3_IOCSTATUS_INVALID_SGL;
        }
        switch (e.flags & MPI3_SGE_FLAGS_TYPE_MASK) {
        case MPI3_SGE_FLAGS_TYPE_SIMPLE:
            len = MIN((uint64_t)len, data_len - total);
            if (len) {
                if (!mr9600_dma_ok(s, addr, len)) {
                    trace_megaraid_9600_err_sge(e.flags, addr, len);
                    return MPI3_IOCSTATUS_INVALID_SGL;
                }
                qemu_sglist_add(sg, addr, len);
                total += len;
            }
            if (e.flags & MPI3_SGE_FLAGS_END_OF_LIST) {
                i = n;
            }
            break;
        case MPI3_SGE_FLAGS_TYPE_CHAIN:
        case MPI3_SGE_FLAGS_TYPE_LAST_CHAIN:
            if (depth == MR9600_MAX_CHAIN_DEPTH) {
                trace_megaraid_9600_err_sgl_chain_depth(depth);
                return MPI3_IOCSTATUS_INVALID_SGL;
            }
            for (uint32_t k = 0; k < depth; k++) {
                if (visited[k] == addr) {
                    trace_megaraid_9600_err_sgl_chain_loop(addr);
                    return MPI3_IOCSTATUS_INVALID_SGL;
                }
            }
            if (len == 0 || len % sizeof(MPI3SGE) ||
                len > MR9600_MAX_SGES * sizeof(MPI3SGE) ||
                !mr9600_dma_ok(s, addr, len)) {
                trace_megaraid_9600_err_sge(e.flags, addr, len);
                return MPI3_IOCSTATUS_INVALID_SGL;
            }
            visited[depth++] = addr;
            g_free(chain);
            chain = g_malloc(len);
            if (pci_dma_read(PCI_DEVICE(s), addr, chain, len)) {
                return MPI3_IOCSTATUS_INVALID_SGL;
            }
            sges = chain;
            n = len / sizeof(MPI3SGE);
            i = 0;
            break;
        default:
            /* Bit buckets and EEDP elements: no PI is ever reported. */
            trace_megaraid_9600_err_sge(e.flags, addr, len);
            return MPI3_IOCSTATUS_INVALID_SGL;
        }
    }
    if (total < data_len) {
        trace_megaraid_9600_err_sgl_short(total, data_len);
        return MPI3_IOCSTATUS_INVALID_SGL;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/* ---- completion ---- */

static void mr9600_scsi_error(MR9600State *s, uint16_t qid,
                              const MPI3SCSIIORequest *req, uint16_t ioc_status)
{
    MPI3SCSIIOReply rep = { 0 };

    trace_megaraid_9600_err_scsi_io(le16_to_cpu(req->hdr.host_tag),
                                    le16_to_cpu(req->hdr.function_dependent),
                                    ioc_status);
    rep.hdr.host_tag = req->hdr.host_tag;
    rep.hdr.function = MPI3_FUNCTION_SCSI_IO;
    rep.hdr.ioc_status = cpu_to_le16(ioc_status);
    rep.scsi_state = MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE;
    rep.dev_handle = req->hdr.function_dependent;
    mr9600_post_scsi_reply(s, qid, &rep, NULL, 0, NULL);
}

static void mr9600_scsi_done(MRTargetReq *treq)
{
    MR9600Request *r = treq->opaque;
    MR9600State *s = r->s;
    MR9600TaskMgmt *tm = r->tm;
    MPI3SCSIIOReply rep = { 0 };
    uint32_t xfer = MIN(treq->xfer_count, r->data_length);
    uint32_t sense_len = MIN(treq->sense_len, MR_SENSE_MAX);
    uint8_t sense[MR_SENSE_MAX];
    uint16_t qid = r->req_qid, tag = r->host_tag, handle = r->dev_handle;
    uint8_t status = treq->status;
    uint16_t ioc_status;
    uint32_t log_info;

    trace_megaraid_9600_scsi_io_done(tag, r->dev_handle, treq->status, xfer,
                                     sense_len);
    if (r->generation != s->generation) {
        /* The IOC was reset while this ran: no completion is posted. */
        mr9600_request_release(s, r);
        if (tm) {
            mr9600_tm_put(s, tm, false);
        }
        return;
    }
    memcpy(sense, treq->sense, sense_len);
    if (!tm) {
        tag = mr9600_fault_io_tag(s, tag);
    }
    rep.hdr.host_tag = cpu_to_le16(tag);
    rep.hdr.function = MPI3_FUNCTION_SCSI_IO;
    rep.dev_handle = cpu_to_le16(r->dev_handle);
    rep.transfer_count = cpu_to_le32(xfer);
    rep.scsi_status = status;
    mr9600_request_release(s, r);

    if (status == MPI3_SCSI_STATUS_TASK_ABORTED) {
        if (tm) {
            tm->termination_count++;
        }
        rep.hdr.ioc_status = cpu_to_le16(MPI3_IOCSTATUS_SCSI_TASK_TERMINATED);
        rep.scsi_status = 0;
        rep.scsi_state = MPI3_SCSI_STATE_TERMINATED |
                         MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE;
        mr9600_post_scsi_reply(s, qid, &rep, NULL, 0, tm);
        return;
    }
    if (!tm && mr9600_fault_io_status(s, handle, &ioc_status, &log_info)) {
        /* Failed in the IOC: no SCSI status, nothing transferred. */
        rep.hdr.ioc_status = cpu_to_le16(ioc_status |
                                         MPI3_IOCSTATUS_LOGINFO_AVAIL);
        rep.hdr.ioc_log_info = cpu_to_le32(log_info);
        rep.transfer_count = 0;
        rep.scsi_status = 0;
        rep.scsi_state = MPI3_SCSI_STATE_NO_SCSI_STATUS |
                         MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE;
        mr9600_post_scsi_reply(s, qid, &rep, NULL, 0, NULL);
        return;
    }
    if (status == MPI3_SCSI_STATUS_GOOD && !sense_len &&
        xfer == r->data_length && !tm) {
        mr9600_post_success(s, qid, tag);
        return;
    }
    ioc_status = xfer < r->data_length ? MPI3_IOCSTATUS_SCSI_DATA_UNDERRUN
                                       : MPI3_IOCSTATUS_SUCCESS;
    rep.hdr.ioc_status = cpu_to_le16(ioc_status);
    rep.scsi_state = sense_len ? MPI3_SCSI_STATE_SENSE_VALID
                               : MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE;
    mr9600_post_scsi_reply(s, qid, &rep, sense, sense_len, tm);
}

void mr9600_scsi_io(MR9600State *s, uint16_t qid, const uint8_t *frame)
{
    const MPI3SCSIIORequest *req = (const void *)frame;
    uint16_t tag = le16_to_cpu(req->hdr.host_tag);
    uint16_t handle = le16_to_cpu(req->hdr.function_dependent);
    uint32_t flags = le32_to_cpu(req->flags);
    uint32_t dlen = le32_to_cpu(req->data_length);
    MRDataDir dir;
    MR9600Request *r;
    MRUnit *u;
    uint16_t st;

    if (req->hdr.function != MPI3_FUNCTION_SCSI_IO) {
        trace_megaraid_9600_err_op_function(qid, req->hdr.function, tag);
        mr9600_post_status(s, qid, tag, MPI3_IOCSTATUS_INVALID_FUNCTION, 0);
        return;
    }
    trace_megaraid_9600_scsi_io(qid, tag, handle, req->cdb[0], dlen, flags);
    u = mr9600_unit_by_handle(s, handle);
    if (!u || (u->drive && u->drive->in_array)) {
        /* array members, spares and foreign drives take no host I/O */
        mr9600_scsi_error(s, qid, req, MPI3_IOCSTATUS_SCSI_DEVICE_NOT_THERE);
        return;
    }
    switch (flags & MPI3_SCSIIO_FLAGS_DATADIRECTION_MASK) {
    case MPI3_SCSIIO_FLAGS_DATADIRECTION_NONE:
        dir = MR_DIR_NONE;
        dlen = 0;
        break;
    case MPI3_SCSIIO_FLAGS_DATADIRECTION_WRITE:
        dir = MR_DIR_TO_DEVICE;
        break;
    case MPI3_SCSIIO_FLAGS_DATADIRECTION_READ:
        dir = MR_DIR_FROM_DEVICE;
        break;
    default:
        mr9600_scsi_error(s, qid, req, MPI3_IOCSTATUS_INVALID_FIELD);
        return;
    }
    if ((flags & MPI3_SCSIIO_FLAGS_CDB_IN_SEPARATE_BUF) ||
        (flags & MPI3_SCSIIO_FLAGS_DMAOPERATION_MASK) ||
        dlen > MR9600_MAX_DATA_LENGTH) {
        mr9600_scsi_error(s, qid, req, MPI3_IOCSTATUS_INVALID_FIELD);
        return;
    }

    r = mr9600_request_take(s, qid, tag, handle, dlen);
    if (dlen) {
        r->treq.sg = &r->sg;
        st = mr9600_build_sgl(s, req, &r->sg, dlen);
        if (st != MPI3_IOCSTATUS_SUCCESS) {
            mr9600_request_release(s, r);
            mr9600_scsi_error(s, qid, req, st);
            return;
        }
    }
    r->treq.unit = u;
    r->treq.lun = mr9600_decode_lun(req->lun);
    memcpy(r->treq.cdb, req->cdb, sizeof(r->treq.cdb));
    r->treq.cdb_len = (flags & MPI3_SCSIIO_FLAGS_CDB_GREATER_THAN_16) ? 32
                                                                      : 16;
    r->treq.dir = dir;
    r->treq.data_len = dlen;
    mr_core_submit(&s->core, &r->treq, mr9600_scsi_done, r,
                   MAX(s->reqq[qid].doorbell_ns, s->slots_freed_ns));
}

/* ---- cancellation and task management ---- */

void mr9600_requests_abort_all(MR9600State *s)
{
    MR9600Request *r, *next;

    s->generation++;
    QTAILQ_FOREACH_SAFE(r, &s->active_reqs, next, next) {
        mr_target_cancel(&r->treq);
    }
}

uint32_t mr9600_requests_cancel(MR9600State *s, uint16_t handle, bool any_lun,
                                uint64_t lun, MR9600TaskMgmt *tm)
{
    MR9600Request *r, *next;
    uint32_t count = 0;

    QTAILQ_FOREACH_SAFE(r, &s->active_reqs, next, next) {
        if (r->dev_handle != handle || r->tm ||
            r->generation != s->generation ||
            (!any_lun && r->treq.lun != lun)) {
            continue;
        }
        count++;
        if (tm) {
            r->tm = tm;
            tm->outstanding++;
        }
        mr_target_cancel(&r->treq);
    }
    return count;
}

void mr9600_tm_put(MR9600State *s, MR9600TaskMgmt *tm, bool posted)
{
    MPI3SCSITaskMgmtReply rep = { 0 };

    if (--tm->outstanding) {
        return;
    }
    if (tm->generation == s->generation && mr9600_ioc_ready(s)) {
        rep.hdr.host_tag = cpu_to_le16(tm->host_tag);
        rep.hdr.function = MPI3_FUNCTION_SCSI_TASK_MGMT;
        rep.hdr.ioc_status = cpu_to_le16(tm->ioc_status);
        rep.termination_count = cpu_to_le32(tm->termination_count);
        rep.response_data = cpu_to_le32(tm->response_code);
        trace_megaraid_9600_task_mgmt_done(tm->host_tag, tm->response_code,
                                           tm->termination_count);
        mr9600_post_frame(s, 0, &rep, sizeof(rep), NULL);
    }
    g_free(tm);
}

static bool mr9600_task_outstanding(MR9600State *s, uint16_t handle,
                                    bool any_lun, uint64_t lun, int tag)
{
    MR9600Request *r;

    QTAILQ_FOREACH(r, &s->active_reqs, next) {
        if (r->dev_handle == handle && r->generation == s->generation &&
            (any_lun || r->treq.lun == lun) &&
            (tag < 0 || r->host_tag == tag)) {
            return true;
        }
    }
    return false;
}

void mr9600_task_mgmt(MR9600State *s, const MPI3SCSITaskMgmtRequest *req)
{
    MR9600TaskMgmt *tm = g_new0(MR9600TaskMgmt, 1);
    uint16_t handle = le16_to_cpu(req->hdr.function_dependent);
    uint16_t task_tag = le16_to_cpu(req->task_host_tag);
    uint64_t lun = mr9600_decode_lun(req->lun);
    MR9600Request *r, *next;
    bool queued;

    tm->outstanding = 1;
    tm->generation = s->generation;
    tm->host_tag = le16_to_cpu(req->hdr.host_tag);
    tm->response_code = MPI3_SCSITASKMGMT_RSPCODE_TM_COMPLETE;
    trace_megaraid_9600_task_mgmt(tm->host_tag, handle, req->task_type,
                                  task_tag);

    if (!mr9600_unit_by_handle(s, handle) &&
        !(handle < MR9600_MAX_DEV_HANDLE && s->handle_reserved[handle])) {
        tm->ioc_status = MPI3_IOCSTATUS_SCSI_INVALID_DEVHANDLE;
        tm->response_code = MPI3_SCSITASKMGMT_RSPCODE_INVALID_FRAME;
        mr9600_tm_put(s, tm, true);
        return;
    }
    switch (req->task_type) {
    case MPI3_SCSITASKMGMT_TASKTYPE_ABORT_TASK:
        QTAILQ_FOREACH_SAFE(r, &s->active_reqs, next, next) {
            if (r->dev_handle == handle && r->host_tag == task_tag &&
                r->generation == s->generation && r->req_qid != 0 &&
                !r->tm) {
                r->tm = tm;
                tm->outstanding++;
                mr_target_cancel(&r->treq);
                break;
            }
        }
        break;
    case MPI3_SCSITASKMGMT_TASKTYPE_ABORT_TASK_SET:
    case MPI3_SCSITASKMGMT_TASKTYPE_CLEAR_TASK_SET:
    case MPI3_SCSITASKMGMT_TASKTYPE_LOGICAL_UNIT_RESET:
        mr9600_requests_cancel(s, handle, false, lun, tm);
        break;
    case MPI3_SCSITASKMGMT_TASKTYPE_TARGET_RESET:
    case MPI3_SCSITASKMGMT_TASKTYPE_I_T_NEXUS_RESET:
        mr9600_requests_cancel(s, handle, true, 0, tm);
        break;
    case MPI3_SCSITASKMGMT_TASKTYPE_QUERY_TASK:
    case MPI3_SCSITASKMGMT_TASKTYPE_QUERY_TASK_SET:
    case MPI3_SCSITASKMGMT_TASKTYPE_QUERY_ASYNC_EVENT:
        queued = mr9600_task_outstanding(s, handle, false, lun,
            req->task_type == MPI3_SCSITASKMGMT_TASKTYPE_QUERY_TASK ?
            task_tag : -1);
        if (queued) {
            tm->response_code = MPI3_SCSITASKMGMT_RSPCODE_IO_QUEUED_ON_IOC;
        }
        break;
    case MPI3_SCSITASKMGMT_TASKTYPE_CLEAR_ACA:
        break;
    default:
        tm->response_code =
            MPI3_SCSITASKMGMT_RSPCODE_TM_FUNCTION_NOT_SUPPORTED;
        break;
    }
    mr9600_tm_put(s, tm, true);
}
