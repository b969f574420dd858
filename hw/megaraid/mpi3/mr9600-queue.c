/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 queues.  Owns the admin and operational
 * request/reply rings (contiguous and segmented), the doorbells, the
 * reply-free and sense-buffer-free queues, phase bits, reply posting with
 * back-pressure when a ring or free queue is full (a request queue is not
 * read while its reply queue holds back too many replies), MSI-X
 * signalling, and the re-entrancy guard around everything the device
 * writes on its own (replies, interrupts) so that none of it reaches the
 * device's own registers.
 */
#include "qemu/osdep.h"
#include "qemu/rcu.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci.h"
#include "system/dma.h"
#include "exec/memory.h"
#include "mr9600.h"
#include "trace.h"

static uint32_t mr9600_nqueues(MR9600State *s)
{
    return s->max_op_queues + 1;
}

void mr9600_queues_init(MR9600State *s)
{
    uint32_t n = mr9600_nqueues(s);

    s->reqq = g_new0(MR9600Queue, n);
    s->replyq = g_new0(MR9600Queue, n);
    for (uint32_t i = 0; i < n; i++) {
        s->reqq[i].id = i;
        s->replyq[i].id = i;
        QTAILQ_INIT(&s->reqq[i].pending);
        QTAILQ_INIT(&s->replyq[i].pending);
    }
}

static void mr9600_pending_drop(MR9600State *s, MR9600PendingReply *p);

static void mr9600_queue_clear(MR9600State *s, MR9600Queue *q)
{
    MR9600PendingReply *p, *next;
    uint16_t id = q->id;

    QTAILQ_FOREACH_SAFE(p, &q->pending, next, next) {
        QTAILQ_REMOVE(&q->pending, p, next);
        mr9600_pending_drop(s, p);
    }
    g_free(q->segs);
    memset(q, 0, sizeof(*q));
    q->id = id;
    QTAILQ_INIT(&q->pending);
}

void mr9600_queues_reset(MR9600State *s)
{
    uint32_t n = mr9600_nqueues(s);

    for (uint32_t i = 0; i < n; i++) {
        mr9600_queue_clear(s, &s->reqq[i]);
        mr9600_queue_clear(s, &s->replyq[i]);
    }
    s->reply_free_base = 0;
    s->reply_free_depth = 0;
    s->reply_free_host = 0;
    s->reply_free_ci = 0;
    s->sense_free_base = 0;
    s->sense_free_depth = 0;
    s->sense_free_host = 0;
    s->sense_free_ci = 0;
    s->sense_buffer_length = 0;
}

void mr9600_queues_free(MR9600State *s)
{
    mr9600_queues_reset(s);
    g_free(s->reqq);
    g_free(s->replyq);
    s->reqq = NULL;
    s->replyq = NULL;
}

bool mr9600_dma_ok(MR9600State *s, uint64_t addr, uint64_t len)
{
    return mr_core_dma_ok(PCI_DEVICE(s), addr, len);
}

static uint64_t mr9600_entry_addr(MR9600Queue *q, uint32_t idx)
{
    uint64_t off = (uint64_t)idx * q->esize;

    if (q->segmented) {
        return q->segs[off / MPI3_QUEUE_SEGMENT_SIZE] +
               off % MPI3_QUEUE_SEGMENT_SIZE;
    }
    return q->base + off;
}

bool mr9600_admin_enable(MR9600State *s)
{
    MR9600Queue *rq = &s->reqq[0], *pq = &s->replyq[0];
    uint32_t nreq = s->admin_q_num_entries & 0xFFF;
    uint32_t nrep = (s->admin_q_num_entries >> 16) & 0xFFF;

    if (nreq < 2 || nrep < 2 ||
        !mr9600_dma_ok(s, s->admin_req_addr,
                       (uint64_t)nreq * MPI3_REQUEST_FRAME_SIZE) ||
        !mr9600_dma_ok(s, s->admin_reply_addr,
                       (uint64_t)nrep * MPI3_REPLY_DESCRIPTOR_SIZE)) {
        trace_megaraid_9600_err_admin_queue(nreq, nrep, s->admin_req_addr,
                                            s->admin_reply_addr);
        return false;
    }
    mr9600_queue_clear(s, rq);
    mr9600_queue_clear(s, pq);
    rq->created = true;
    rq->size = nreq;
    rq->esize = MPI3_REQUEST_FRAME_SIZE;
    rq->base = s->admin_req_addr;
    pq->created = true;
    pq->size = nrep;
    pq->esize = MPI3_REPLY_DESCRIPTOR_SIZE;
    pq->base = s->admin_reply_addr;
    pq->phase = true;
    pq->irq_enabled = true;
    pq->msix = 0;
    trace_megaraid_9600_admin_queue(nreq, nrep, s->admin_req_addr,
                                    s->admin_reply_addr);
    return true;
}

/* ---- reply posting ---- */

static MR9600Queue *mr9600_reply_queue_for(MR9600State *s, uint16_t req_qid)
{
    MR9600Queue *q;

    if (req_qid == 0) {
        q = &s->replyq[0];
    } else if (req_qid < mr9600_nqueues(s)) {
        uint16_t rid = s->reqq[req_qid].reply_qid;

        q = rid && rid < mr9600_nqueues(s) ? &s->replyq[rid] : NULL;
    } else {
        q = NULL;
    }
    return q && q->created ? q : NULL;
}

static uint32_t mr9600_free_avail(uint32_t host, uint32_t ci, uint32_t depth)
{
    return depth ? (host + depth - ci) % depth : 0;
}

static bool mr9600_pop_free(MR9600State *s, uint64_t base, uint32_t depth,
                            uint32_t *ci, uint32_t len, uint64_t *addr)
{
    uint64_t a;

    if (pci_dma_read(PCI_DEVICE(s), base + (uint64_t)*ci * 8, &a, 8)) {
        return false;
    }
    *ci = (*ci + 1) % depth;
    a = le64_to_cpu(a);
    if (!mr9600_dma_ok(s, a, len)) {
        trace_megaraid_9600_err_free_entry(a);
        return false;
    }
    *addr = a;
    return true;
}

/*
 * Replies, sense data and interrupts are written by the device on its own,
 * often from the completion of a request rather than from a register
 * access or the device's guarded bottom half.  The guest chooses where they
 * go (an MSI-X vector's address is any address): with the re-entrancy guard
 * engaged, an access that would land in this device's own registers is
 * refused by the memory core instead of running a register handler in the
 * middle of posting a reply.  Returns the guard's previous state.
 */
static bool mr9600_guard_enter(MR9600State *s)
{
    MemReentrancyGuard *g = &DEVICE(s)->mem_reentrancy_guard;
    bool was = g->engaged_in_io;

    g->engaged_in_io = true;
    return was;
}

static void mr9600_guard_leave(MR9600State *s, bool was)
{
    DEVICE(s)->mem_reentrancy_guard.engaged_in_io = was;
}

/* Trace an interrupt whose message the guest aimed at one of our BARs. */
static void mr9600_msix_check_target(MR9600State *s, uint16_t vector)
{
    PCIDevice *pci = PCI_DEVICE(s);
    MSIMessage msg;

    if (!msix_enabled(pci) || msix_is_masked(pci, vector)) {
        return;
    }
    msg = msix_get_message(pci, vector);
    for (int i = 0; i < PCI_ROM_SLOT; i++) {
        pcibus_t base = pci_get_bar_addr(pci, i);

        if (base != PCI_BAR_UNMAPPED &&
            !(pci->io_regions[i].type & PCI_BASE_ADDRESS_SPACE_IO) &&
            msg.address - base < pci->io_regions[i].size) {
            trace_megaraid_9600_ub_msix_self_write(vector, msg.address,
                                                   msg.data, i);
            return;
        }
    }
}

/* Try to post p now; false if the ring or a free queue has no room. */
static bool mr9600_try_post_guarded(MR9600State *s, MR9600Queue *q,
                                    MR9600PendingReply *p)
{
    PCIDevice *pci = PCI_DEVICE(s);
    MPI3ReplyDescriptor desc = p->desc;
    uint64_t frame_addr, sense_addr;

    if ((q->pi + 1) % q->size == q->ci) {
        return false;
    }
    if (p->address) {
        if (!s->initialized ||
            !mr9600_free_avail(s->reply_free_host, s->reply_free_ci,
                               s->reply_free_depth)) {
            return false;
        }
        if (p->sense &&
            !mr9600_free_avail(s->sense_free_host, s->sense_free_ci,
                               s->sense_free_depth)) {
            return false;
        }
        if (p->sense) {
            MPI3SCSIIOReply *rep = (MPI3SCSIIOReply *)p->frame;
            uint32_t n = MIN(p->sense_len, s->sense_buffer_length);

            if (!mr9600_pop_free(s, s->sense_free_base, s->sense_free_depth,
                                 &s->sense_free_ci, s->sense_buffer_length,
                                 &sense_addr)) {
                mr9600_ioc_fault(s, MR9600_FAULT_FREE_QUEUE);
                return false;
            }
            pci_dma_write(pci, sense_addr, p->sense_data, n);
            rep->sense_data_buffer_address = cpu_to_le64(sense_addr);
            rep->sense_count = cpu_to_le32(n);
        }
        if (!mr9600_pop_free(s, s->reply_free_base, s->reply_free_depth,
                             &s->reply_free_ci, MR9600_REPLY_FRAME_SIZE,
                             &frame_addr)) {
            mr9600_ioc_fault(s, MR9600_FAULT_FREE_QUEUE);
            return false;
        }
        pci_dma_write(pci, frame_addr, p->frame, MR9600_REPLY_FRAME_SIZE);
        desc.reply_frame_address = cpu_to_le64(frame_addr);
    }
    desc.request_queue_ci = cpu_to_le16(s->reqq[p->req_qid].ci);
    desc.request_queue_id = cpu_to_le16(p->req_qid);
    desc.reply_flags = cpu_to_le16(le16_to_cpu(desc.reply_flags) |
                                   (q->phase ? 1 : 0));
    if (pci_dma_write(pci, mr9600_entry_addr(q, q->pi), &desc, sizeof(desc))) {
        mr9600_ioc_fault(s, MR9600_FAULT_QUEUE_DMA);
        return false;
    }
    trace_megaraid_9600_reply_post(q->id, q->pi, le16_to_cpu(desc.reply_flags),
                                   le16_to_cpu(p->desc.host_tag));
    q->pi++;
    if (q->pi == q->size) {
        q->pi = 0;
        q->phase = !q->phase;
    }
    if (q->irq_enabled) {
        if (trace_event_get_state_backends(
                TRACE_MEGARAID_9600_UB_MSIX_SELF_WRITE)) {
            mr9600_msix_check_target(s, q->msix);
        }
        msix_notify(pci, q->msix);
    }
    return true;
}

static bool mr9600_try_post(MR9600State *s, MR9600Queue *q,
                            MR9600PendingReply *p)
{
    bool was = mr9600_guard_enter(s);
    bool ok = mr9600_try_post_guarded(s, q, p);

    mr9600_guard_leave(s, was);
    return ok;
}

/*
 * How many replies a reply queue may hold back before the request queues
 * that answer into it are no longer read: as many as its ring holds, and
 * never more than MR9600_REPLY_BACKLOG_MAX.  Together with the request
 * slots (max-requests) this bounds what a guest that never consumes its
 * replies makes the device keep.
 */
static uint32_t mr9600_reply_backlog_max(MR9600Queue *q)
{
    return MIN(q->size, MR9600_REPLY_BACKLOG_MAX);
}

/* May request queue rq be read: can its reply queue take the answers? */
static bool mr9600_can_answer(MR9600State *s, MR9600Queue *rq)
{
    MR9600Queue *q = mr9600_reply_queue_for(s, rq->id);

    if (!q || q->npending < mr9600_reply_backlog_max(q)) {
        return true;
    }
    if (!q->stalled) {
        q->stalled = true;
        trace_megaraid_9600_reply_stall(rq->id, q->id, q->npending);
    }
    return false;
}

static void mr9600_pending_drop(MR9600State *s, MR9600PendingReply *p)
{
    if (p->tm) {
        mr9600_tm_put(s, p->tm, false);
    }
    g_free(p);
}

static void mr9600_flush_pending_replies(MR9600State *s, MR9600Queue *q)
{
    MR9600PendingReply *p;

    while ((p = QTAILQ_FIRST(&q->pending)) && mr9600_ioc_ready(s)) {
        MR9600TaskMgmt *tm = p->tm;

        if (!mr9600_try_post(s, q, p)) {
            return;
        }
        QTAILQ_REMOVE(&q->pending, p, next);
        q->npending--;
        g_free(p);
        if (tm) {
            mr9600_tm_put(s, tm, true);
        }
    }
}

static void mr9600_flush_pending(MR9600State *s, MR9600Queue *q)
{
    mr9600_flush_pending_replies(s, q);
    if (q->stalled && q->npending < mr9600_reply_backlog_max(q)) {
        q->stalled = false;
        trace_megaraid_9600_reply_resume(q->id, q->npending);
        mr9600_kick(s);
    }
}

static void mr9600_flush_all_pending(MR9600State *s)
{
    for (uint32_t i = 0; i < mr9600_nqueues(s); i++) {
        if (!QTAILQ_EMPTY(&s->replyq[i].pending)) {
            mr9600_flush_pending(s, &s->replyq[i]);
        }
    }
}

static void mr9600_post(MR9600State *s, MR9600PendingReply *p)
{
    MR9600Queue *q = mr9600_reply_queue_for(s, p->req_qid);
    MR9600TaskMgmt *tm = p->tm;

    if (!q || !mr9600_ioc_ready(s)) {
        trace_megaraid_9600_err_reply_dropped(p->req_qid,
                                              le16_to_cpu(p->desc.host_tag));
        if (tm) {
            mr9600_tm_put(s, tm, false);
        }
        return;
    }
    if (mr9600_fault_drop_reply(s, p->req_qid, le16_to_cpu(p->desc.host_tag),
                                p->address ?
                                ((MPI3DefaultReply *)p->frame)->function : 0,
                                tm)) {
        return;
    }
    if (QTAILQ_EMPTY(&q->pending) && mr9600_try_post(s, q, p)) {
        if (tm) {
            mr9600_tm_put(s, tm, true);
        }
        return;
    }
    if (!mr9600_ioc_ready(s)) {
        if (tm) {
            mr9600_tm_put(s, tm, false);
        }
        return;
    }
    trace_megaraid_9600_reply_deferred(q->id, le16_to_cpu(p->desc.host_tag));
    p = g_memdup2(p, sizeof(*p));
    QTAILQ_INSERT_TAIL(&q->pending, p, next);
    q->npending++;
}

void mr9600_post_success(MR9600State *s, uint16_t req_qid, uint16_t host_tag)
{
    MR9600PendingReply p = { .req_qid = req_qid };

    p.desc.host_tag = cpu_to_le16(host_tag);
    p.desc.reply_flags = cpu_to_le16(MPI3_REPLY_DESCRIPT_FLAGS_TYPE_SUCCESS);
    mr9600_post(s, &p);
}

void mr9600_post_status(MR9600State *s, uint16_t req_qid, uint16_t host_tag,
                        uint16_t ioc_status, uint32_t log_info)
{
    MR9600PendingReply p = { .req_qid = req_qid };

    p.desc.status.ioc_status = cpu_to_le16(ioc_status);
    p.desc.status.ioc_log_info = cpu_to_le32(log_info);
    p.desc.host_tag = cpu_to_le16(host_tag);
    p.desc.reply_flags = cpu_to_le16(MPI3_REPLY_DESCRIPT_FLAGS_TYPE_STATUS);
    mr9600_post(s, &p);
}

void mr9600_post_frame(MR9600State *s, uint16_t req_qid, const void *frame,
                       size_t len, MR9600TaskMgmt *tm)
{
    MR9600PendingReply p = { .req_qid = req_qid, .address = true, .tm = tm };

    memcpy(p.frame, frame, MIN(len, sizeof(p.frame)));
    p.desc.reply_flags = cpu_to_le16(MPI3_REPLY_DESCRIPT_FLAGS_TYPE_ADDRESS);
    p.desc.host_tag = ((const MPI3DefaultReply *)frame)->host_tag;
    mr9600_post(s, &p);
}

void mr9600_post_scsi_reply(MR9600State *s, uint16_t req_qid,
                            const MPI3SCSIIOReply *rep,
                            const uint8_t *sense, uint32_t sense_len,
                            MR9600TaskMgmt *tm)
{
    MR9600PendingReply p = { .req_qid = req_qid, .address = true, .tm = tm };

    memcpy(p.frame, rep, sizeof(*rep));
    if (sense_len) {
        p.sense = true;
        p.sense_len = MIN(sense_len, sizeof(p.sense_data));
        memcpy(p.sense_data, sense, p.sense_len);
    }
    p.desc.reply_flags = cpu_to_le16(MPI3_REPLY_DESCRIPT_FLAGS_TYPE_ADDRESS);
    p.desc.host_tag = rep->hdr.host_tag;
    mr9600_post(s, &p);
}

/* ---- doorbells ---- */

void mr9600_doorbell_write(MR9600State *s, hwaddr addr, uint32_t val)
{
    uint32_t off = addr - MPI3_REG_DOORBELL_BASE;
    uint32_t qid = off / 8;
    bool is_ci = off % 8 == 4;
    MR9600Queue *q;

    if (!mr9600_ioc_ready(s)) {
        trace_megaraid_9600_ub_doorbell_state(addr, val, s->ioc_status);
        return;
    }
    if (qid >= mr9600_nqueues(s)) {
        trace_megaraid_9600_err_doorbell_queue(addr, qid);
        return;
    }
    q = is_ci ? &s->replyq[qid] : &s->reqq[qid];
    if (!q->created) {
        trace_megaraid_9600_err_doorbell_queue(addr, qid);
        return;
    }
    val &= 0xFFFF;
    if (val >= q->size) {
        trace_megaraid_9600_err_doorbell_index(qid, is_ci, val, q->size);
        mr9600_ioc_fault(s, MR9600_FAULT_DOORBELL_RANGE);
        return;
    }
    trace_megaraid_9600_doorbell(qid, is_ci, val);
    if (is_ci) {
        q->ci = val;
        mr9600_flush_pending(s, q);
    } else {
        q->pi = val;
        if (mr_core_timing(&s->core)) {
            /* the timing model's arrival stamp of what this posts */
            q->doorbell_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        }
        mr9600_kick(s);
    }
}

static bool mr9600_free_index_ok(MR9600State *s, uint32_t val, uint32_t depth)
{
    if (!mr9600_ioc_ready(s) || !s->initialized) {
        trace_megaraid_9600_ub_free_index_state(val);
        return false;
    }
    if (val >= depth) {
        trace_megaraid_9600_err_free_index(val, depth);
        mr9600_ioc_fault(s, MR9600_FAULT_FREE_QUEUE);
        return false;
    }
    return true;
}

void mr9600_reply_free_write(MR9600State *s, uint32_t val)
{
    if (mr9600_free_index_ok(s, val, s->reply_free_depth)) {
        s->reply_free_host = val;
        mr9600_flush_all_pending(s);
    }
}

void mr9600_sense_free_write(MR9600State *s, uint32_t val)
{
    if (mr9600_free_index_ok(s, val, s->sense_free_depth)) {
        s->sense_free_host = val;
        mr9600_flush_all_pending(s);
    }
}

/* ---- request processing ---- */

static bool mr9600_fetch(MR9600State *s, MR9600Queue *q, uint8_t *frame)
{
    if (pci_dma_read(PCI_DEVICE(s), mr9600_entry_addr(q, q->ci), frame,
                     MPI3_REQUEST_FRAME_SIZE)) {
        trace_megaraid_9600_err_queue_dma(q->id, q->ci);
        mr9600_ioc_fault(s, MR9600_FAULT_QUEUE_DMA);
        return false;
    }
    q->ci = (q->ci + 1) % q->size;
    return true;
}

void mr9600_process_queues(MR9600State *s)
{
    uint8_t frame[MPI3_REQUEST_FRAME_SIZE];
    bool more = false;
    MR9600Queue *q = &s->reqq[0];

    if (!mr9600_ioc_ready(s)) {
        return;
    }
    for (int n = 0; q->created && q->ci != q->pi; n++) {
        if (n == MR9600_QUEUE_BATCH) {
            more = true;
            break;
        }
        if (!mr9600_can_answer(s, q)) {
            /* Resumed when the host frees reply entries. */
            break;
        }
        if (!mr9600_fetch(s, q, frame)) {
            return;
        }
        mr9600_admin_request(s, frame);
        if (!mr9600_ioc_ready(s)) {
            return;
        }
    }
    for (uint32_t i = 1; i < mr9600_nqueues(s); i++) {
        q = &s->reqq[i];
        for (int n = 0; q->created && q->ci != q->pi; n++) {
            if (n == MR9600_QUEUE_BATCH) {
                more = true;
                break;
            }
            if (!mr9600_can_answer(s, q)) {
                /* Resumed when the host frees reply entries. */
                break;
            }
            if (!mr9600_request_available(s)) {
                /* Resumed when a request completes. */
                trace_megaraid_9600_err_no_request_slot(i);
                break;
            }
            if (!mr9600_fetch(s, q, frame)) {
                return;
            }
            mr9600_scsi_io(s, i, frame);
            if (!mr9600_ioc_ready(s)) {
                return;
            }
        }
    }
    if (more) {
        mr9600_kick(s);
    }
}

/* ---- operational queue create/delete ---- */

static uint16_t mr9600_queue_memory(MR9600State *s, MR9600Queue *q,
                                    uint64_t base, bool segmented)
{
    uint64_t bytes = (uint64_t)q->size * q->esize;

    q->segmented = segmented;
    q->base = base;
    if (!segmented) {
        return mr9600_dma_ok(s, base, bytes) ? MPI3_IOCSTATUS_SUCCESS
                                             : MPI3_IOCSTATUS_INVALID_FIELD;
    }
    q->nsegs = DIV_ROUND_UP(bytes, MPI3_QUEUE_SEGMENT_SIZE);
    if (q->nsegs > MPI3_QUEUE_MAX_SEGMENTS) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_SIZE;
    }
    if (!mr9600_dma_ok(s, base, q->nsegs * 8ULL)) {
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    q->segs = g_new(uint64_t, q->nsegs);
    if (pci_dma_read(PCI_DEVICE(s), base, q->segs, q->nsegs * 8ULL)) {
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    for (uint32_t i = 0; i < q->nsegs; i++) {
        q->segs[i] = le64_to_cpu(q->segs[i]);
        if (!mr9600_dma_ok(s, q->segs[i], MPI3_QUEUE_SEGMENT_SIZE)) {
            trace_megaraid_9600_err_queue_segment(q->id, i, q->segs[i]);
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

uint16_t mr9600_create_queue(MR9600State *s, const MPI3CreateQueueRequest *r,
                             bool reply)
{
    uint16_t qid = le16_to_cpu(r->queue_id);
    uint16_t size = le16_to_cpu(r->size);
    uint16_t arg = le16_to_cpu(r->reply_queue_id_or_msix);
    uint8_t flags = le16_to_cpu(r->hdr.function_dependent) & 0xFF;
    MR9600Queue *q;
    uint16_t st;

    trace_megaraid_9600_create_queue(reply, qid, size, arg, flags,
                                     le64_to_cpu(r->base_address));
    if (qid == 0 || qid >= mr9600_nqueues(s)) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_ID;
    }
    q = reply ? &s->replyq[qid] : &s->reqq[qid];
    if (q->created) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_ID;
    }
    if (size < 2) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_SIZE;
    }
    if (reply) {
        if (arg >= s->msix_vectors) {
            return MPI3_IOCSTATUS_INVALID_MSIX_VECTOR;
        }
    } else if (arg == 0 || arg >= mr9600_nqueues(s) ||
               !s->replyq[arg].created) {
        return MPI3_IOCSTATUS_INVALID_REPLY_QUEUE_ID;
    }
    mr9600_queue_clear(s, q);
    q->size = size;
    q->esize = reply ? MPI3_REPLY_DESCRIPTOR_SIZE : MPI3_REQUEST_FRAME_SIZE;
    st = mr9600_queue_memory(s, q, le64_to_cpu(r->base_address),
                             flags & MPI3_CREATE_QUEUE_FLAGS_SEGMENTED);
    if (st != MPI3_IOCSTATUS_SUCCESS) {
        mr9600_queue_clear(s, q);
        return st;
    }
    q->created = true;
    if (reply) {
        q->phase = true;
        q->msix = arg;
        q->irq_enabled = flags & MPI3_CREATE_REPLY_FLAGS_INT_ENABLE;
    } else {
        q->reply_qid = arg;
        s->replyq[arg].users++;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

uint16_t mr9600_delete_queue(MR9600State *s, uint16_t qid, bool reply)
{
    MR9600Queue *q;
    MR9600Request *r;

    trace_megaraid_9600_delete_queue(reply, qid);
    if (qid == 0 || qid >= mr9600_nqueues(s)) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_ID;
    }
    q = reply ? &s->replyq[qid] : &s->reqq[qid];
    if (!q->created) {
        return MPI3_IOCSTATUS_INVALID_QUEUE_ID;
    }
    if (reply) {
        if (q->users) {
            return MPI3_IOCSTATUS_INVALID_QUEUE_DELETION;
        }
    } else {
        QTAILQ_FOREACH(r, &s->active_reqs, next) {
            if (r->req_qid == qid && r->generation == s->generation) {
                return MPI3_IOCSTATUS_INVALID_QUEUE_DELETION;
            }
        }
        s->replyq[q->reply_qid].users--;
    }
    mr9600_queue_clear(s, q);
    return MPI3_IOCSTATUS_SUCCESS;
}
