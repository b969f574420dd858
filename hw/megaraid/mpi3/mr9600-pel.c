/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's PERSISTENT EVENT LOG function (MPI3
 * 0x09) over the controller's event log (evlog.h): sequence numbers,
 * count, entries, clear mark, acknowledge, print strings, and the WAIT
 * that stays outstanding until an entry the host asked for arrives (or
 * it is aborted, times out, or the IOC is reset).  Also opens and closes
 * the log for the controller, turns every new entry into an MPI3 LOG
 * DATA event for hosts that unmask it, and a CacheVault change into
 * ENERGY PACK CHANGE (the shutdown timeout the driver then uses).
 *
 * An MREvEntry becomes a 128-byte MPI3 PEL entry: TimeStamp (ms since
 * the epoch), SequenceNumber, LogCode (the MREvCode), Locale and Class
 * from the entry's class and severity (below), and PELInfo: u32 target
 * (slot or VD, 0xFFFFFFFF none), u32 arg0, u32 arg1, then the text
 * (NUL-terminated, up to 83 characters).  ArgDataSize says 12 (the three
 * numbers), FixedFormatStringsSize the text's length with its NUL.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/bswap.h"
#include "qemu/timer.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

/* What mpi3.h does not name yet (MPI 3.0 PEL, mpi30_ioc.h layouts). */
#define MR9600_PEL_ACTION_MARK_CLEAR        0x02
#define MR9600_PEL_ACTION_GET_LOG           0x03
#define MR9600_PEL_ACTION_GET_COUNT         0x04
#define MR9600_PEL_ACTION_GET_PRINT_STRINGS 0x07
#define MR9600_PEL_ACTION_ACKNOWLEDGE       0x08
#define MR9600_PEL_STATUS_NOT_FOUND         0x01
#define MR9600_PEL_CLASS_MAX                0x06
#define MR9600_PEL_ENTRY_SIZE               128
#define MR9600_PEL_LIST_HDR                 8
#define MR9600_PEL_SEQ_SIZE                 24
#define MR9600_PEL_INFO_OFF                 0x20
#define MR9600_PEL_TEXT_MAX                 (96 - 12)

/* Locale bits and classes of the MPI3 PEL entry. */
#define MR9600_PEL_LOCALE_VD                0x0001
#define MR9600_PEL_LOCALE_PD                0x0002
#define MR9600_PEL_LOCALE_EPACK             0x0008
#define MR9600_PEL_LOCALE_CONTROLLER        0x0020
#define MR9600_PEL_LOCALE_CONFIGURATION     0x0040
#define MR9600_PEL_CLASS_PROGRESS           0x01
#define MR9600_PEL_CLASS_INFORMATIONAL      0x02

/* Request fields (byte offsets in the frame) */
#define MR9600_PEL_REQ_SEQ                  0x0C
#define MR9600_PEL_REQ_LOCALE               0x10
#define MR9600_PEL_REQ_CLASS                0x12
#define MR9600_PEL_REQ_WAIT_TIME            0x14
#define MR9600_PEL_REQ_ABORT_TAG            0x10
#define MR9600_PEL_REQ_SGL                  0x20

static uint16_t mr9600_pel_locale(const MREvEntry *e)
{
    switch (e->cls) {
    case MR_EV_CLASS_DRIVE:
        return MR9600_PEL_LOCALE_PD;
    case MR_EV_CLASS_VD:
    case MR_EV_CLASS_JOB:
        return MR9600_PEL_LOCALE_VD;
    case MR_EV_CLASS_CACHEVAULT:
        return MR9600_PEL_LOCALE_EPACK;
    case MR_EV_CLASS_CONFIG:
        return MR9600_PEL_LOCALE_CONFIGURATION;
    default:
        return MR9600_PEL_LOCALE_CONTROLLER;
    }
}

/* MPI3 class: progress 1, informational 2, warning 3 ... fatal 5 */
static uint8_t mr9600_pel_class(const MREvEntry *e)
{
    if (e->code == MR_EV_JOB_PROGRESS) {
        return MR9600_PEL_CLASS_PROGRESS;
    }
    return MR9600_PEL_CLASS_INFORMATIONAL + e->severity;
}

static bool mr9600_pel_match(const MREvEntry *e, uint16_t locale,
                             uint8_t cls)
{
    return (mr9600_pel_locale(e) & locale) && mr9600_pel_class(e) >= cls;
}

static void mr9600_pel_entry(const MREvEntry *e, uint8_t *p)
{
    size_t tlen = strnlen(e->text, MR9600_PEL_TEXT_MAX - 1);

    memset(p, 0, MR9600_PEL_ENTRY_SIZE);
    stq_le_p(p, e->time_ms);
    stl_le_p(p + 0x08, e->seq);
    stw_le_p(p + 0x0C, e->code);
    stw_le_p(p + 0x10, mr9600_pel_locale(e));
    p[0x12] = mr9600_pel_class(e);
    p[0x16] = 12;
    p[0x17] = tlen + 1;
    stl_le_p(p + MR9600_PEL_INFO_OFF, e->target < 0 ? UINT32_MAX
                                                    : (uint32_t)e->target);
    stl_le_p(p + MR9600_PEL_INFO_OFF + 4, e->arg[0]);
    stl_le_p(p + MR9600_PEL_INFO_OFF + 8, e->arg[1]);
    memcpy(p + MR9600_PEL_INFO_OFF + 12, e->text, tlen);
}

static void mr9600_pel_reply(MR9600State *s, uint16_t tag, uint8_t action,
                             uint16_t pel_status, uint32_t xfer)
{
    MPI3PELReply rep = { 0 };

    rep.hdr.host_tag = cpu_to_le16(tag);
    rep.hdr.function = MPI3_FUNCTION_PERSISTENT_EVENT_LOG;
    rep.action = action;
    rep.pe_log_status = cpu_to_le16(pel_status);
    rep.transfer_length = cpu_to_le32(xfer);
    trace_megaraid_9600_pel_reply(tag, action, pel_status, xfer);
    mr9600_post_frame(s, 0, &rep, sizeof(rep), NULL);
}

/* The request's data buffer, at least @min bytes; else the status. */
static uint16_t mr9600_pel_buffer(MR9600State *s, const uint8_t *frame,
                                  uint32_t min, uint64_t *addr,
                                  uint32_t *len)
{
    const MPI3SGE *sge = (const void *)(frame + MR9600_PEL_REQ_SGL);

    if (!mr9600_read_sge(s, sge, addr, len)) {
        return MPI3_IOCSTATUS_INVALID_SGL;
    }
    if (*len < min) {
        trace_megaraid_9600_err_pel_short(frame[0x0A], *len, min);
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/* First entry at or after @seq matching the filter, 0 if none. */
static uint32_t mr9600_pel_next(MREvLog *log, uint32_t seq, uint16_t locale,
                                uint8_t cls, MREvEntry *e)
{
    uint32_t newest = mr_evlog_newest(log);

    for (seq = MAX(seq, mr_evlog_oldest(log)); seq && seq <= newest; seq++) {
        if (mr_evlog_get(log, seq, e) && mr9600_pel_match(e, locale, cls)) {
            return seq;
        }
    }
    return 0;
}

static void mr9600_pel_wait_done(MR9600State *s, uint16_t pel_status)
{
    uint16_t tag = s->pel_wait_tag;

    s->pel_wait_tag = 0;
    timer_del(s->pel_timer);
    mr9600_pel_reply(s, tag, MPI3_PEL_ACTION_WAIT, pel_status, 0);
}

static void mr9600_pel_timeout(void *opaque)
{
    MR9600State *s = opaque;

    if (s->pel_wait_tag && mr9600_ioc_ready(s)) {
        trace_megaraid_9600_pel_wait_timeout(s->pel_wait_tag);
        mr9600_pel_wait_done(s, MR9600_PEL_STATUS_NOT_FOUND);
    }
}

/* A new entry: complete the WAIT it satisfies; LOG DATA event. */
static void mr9600_pel_notify(Notifier *n, void *data)
{
    MR9600State *s = container_of(n, MR9600State, pel_notifier);
    const MREvEntry *e = data;
    uint8_t ent[MR9600_PEL_ENTRY_SIZE];
    size_t evlen = MR9600_REPLY_FRAME_SIZE -
                   sizeof(MPI3EventNotificationReply);

    if (!mr9600_ioc_ready(s)) {
        return;
    }
    if (s->pel_wait_tag && e->seq >= s->pel_wait_seq &&
        mr9600_pel_match(e, s->pel_wait_locale, s->pel_wait_class)) {
        trace_megaraid_9600_pel_wait_done(s->pel_wait_tag, e->seq);
        mr9600_pel_wait_done(s, MPI3_PEL_STATUS_SUCCESS);
    }
    if (e->code == MR_EV_CV_STATE) {
        mr9600_energy_pack_changed(s);
    }
    if (mr9600_event_enabled(s, MPI3_EVENT_LOG_DATA)) {
        mr9600_pel_entry(e, ent);
        mr9600_send_event(s, MPI3_EVENT_LOG_DATA, ent,
                          MIN(evlen, sizeof(ent)) & ~3);
    }
}

static void mr9600_pel_get_seqnum(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    MREvLog *log = mr_core_evlog(&s->core);
    uint8_t seq[MR9600_PEL_SEQ_SIZE];
    uint64_t addr;
    uint32_t len;
    uint16_t st = mr9600_pel_buffer(s, frame, sizeof(seq), &addr, &len);

    if (st) {
        mr9600_reply_status(s, 0, hdr, st);
        return;
    }
    stl_le_p(seq, mr_evlog_newest(log));
    stl_le_p(seq + 4, mr_evlog_oldest(log));
    stl_le_p(seq + 8, mr_evlog_clear_seq(log));
    stl_le_p(seq + 12, mr_evlog_shutdown_seq(log));
    stl_le_p(seq + 16, mr_evlog_boot_seq(log));
    stl_le_p(seq + 20, s->pel_last_ack);
    pci_dma_write(PCI_DEVICE(s), addr, seq, sizeof(seq));
    mr9600_pel_reply(s, le16_to_cpu(hdr->host_tag), MPI3_PEL_ACTION_GET_SEQNUM,
                     MPI3_PEL_STATUS_SUCCESS, sizeof(seq));
}

/* GET_LOG and GET_COUNT: entries from a sequence number, filtered. */
static void mr9600_pel_get_log(MR9600State *s, const uint8_t *frame,
                               bool count_only)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint8_t action = frame[0x0A];
    MREvLog *log = mr_core_evlog(&s->core);
    uint32_t seq = ldl_le_p(frame + MR9600_PEL_REQ_SEQ);
    uint16_t locale = lduw_le_p(frame + MR9600_PEL_REQ_LOCALE);
    uint8_t cls = frame[MR9600_PEL_REQ_CLASS];
    uint32_t min = count_only ? 4 : MR9600_PEL_LIST_HDR +
                                    MR9600_PEL_ENTRY_SIZE;
    uint32_t n = 0, room, len, xfer;
    uint8_t ent[MR9600_PEL_ENTRY_SIZE], list_hdr[MR9600_PEL_LIST_HDR] = {};
    MREvEntry e;
    uint64_t addr;
    uint16_t st;

    if (cls > MR9600_PEL_CLASS_MAX) {
        trace_megaraid_9600_err_pel_field(action, "class", cls);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
        return;
    }
    st = mr9600_pel_buffer(s, frame, min, &addr, &len);
    if (st) {
        mr9600_reply_status(s, 0, hdr, st);
        return;
    }
    room = count_only ? UINT32_MAX
                      : (len - MR9600_PEL_LIST_HDR) / MR9600_PEL_ENTRY_SIZE;
    while (n < room && (seq = mr9600_pel_next(log, seq, locale, cls, &e))) {
        if (!count_only) {
            mr9600_pel_entry(&e, ent);
            pci_dma_write(PCI_DEVICE(s), addr + MR9600_PEL_LIST_HDR +
                          (uint64_t)n * MR9600_PEL_ENTRY_SIZE, ent,
                          sizeof(ent));
        }
        n++;
        seq++;
    }
    stl_le_p(list_hdr, n);
    xfer = count_only ? 4 : MR9600_PEL_LIST_HDR + n * MR9600_PEL_ENTRY_SIZE;
    pci_dma_write(PCI_DEVICE(s), addr, list_hdr, count_only ? 4 : 8);
    mr9600_pel_reply(s, le16_to_cpu(hdr->host_tag), action,
                     n ? MPI3_PEL_STATUS_SUCCESS : MR9600_PEL_STATUS_NOT_FOUND,
                     xfer);
}

static void mr9600_pel_wait(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint8_t cls = frame[MR9600_PEL_REQ_CLASS];
    uint16_t wait_s = lduw_le_p(frame + MR9600_PEL_REQ_WAIT_TIME);
    MREvEntry e;

    if (s->pel_wait_tag) {
        trace_megaraid_9600_err_pel_field(MPI3_PEL_ACTION_WAIT, "second wait",
                                          s->pel_wait_tag);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_STATE);
        return;
    }
    if (cls > MR9600_PEL_CLASS_MAX) {
        trace_megaraid_9600_err_pel_field(MPI3_PEL_ACTION_WAIT, "class", cls);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
        return;
    }
    if (!hdr->host_tag) {
        /* 0 is the invalid host tag (and "no WAIT held" here) */
        trace_megaraid_9600_err_pel_field(MPI3_PEL_ACTION_WAIT, "host tag", 0);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
        return;
    }
    s->pel_wait_tag = le16_to_cpu(hdr->host_tag);
    s->pel_wait_seq = ldl_le_p(frame + MR9600_PEL_REQ_SEQ);
    s->pel_wait_locale = lduw_le_p(frame + MR9600_PEL_REQ_LOCALE);
    s->pel_wait_class = cls;
    trace_megaraid_9600_pel_wait(s->pel_wait_tag, s->pel_wait_seq,
                                 s->pel_wait_locale, cls, wait_s);
    if (mr9600_pel_next(mr_core_evlog(&s->core), s->pel_wait_seq,
                        s->pel_wait_locale, cls, &e)) {
        /* already there: the host missed nothing, it is told at once */
        trace_megaraid_9600_pel_wait_done(s->pel_wait_tag, e.seq);
        mr9600_pel_wait_done(s, MPI3_PEL_STATUS_SUCCESS);
        return;
    }
    if (wait_s) {
        timer_mod(s->pel_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                  wait_s * 1000LL);
    }
}

static void mr9600_pel_abort(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint16_t victim = lduw_le_p(frame + MR9600_PEL_REQ_ABORT_TAG);

    trace_megaraid_9600_pel_abort(victim, s->pel_wait_tag);
    if (s->pel_wait_tag && victim == s->pel_wait_tag) {
        mr9600_pel_wait_done(s, MPI3_PEL_STATUS_ABORTED);
    }
    /* nothing (left) to abort is not an error: the WAIT may just have ended */
    mr9600_pel_reply(s, le16_to_cpu(hdr->host_tag), MPI3_PEL_ACTION_ABORT,
                     MPI3_PEL_STATUS_SUCCESS, 0);
}

static void mr9600_pel_print_strings(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint8_t list[16] = { 0 };   /* no print strings: the text is inline */
    uint64_t addr;
    uint32_t len;
    uint16_t st = mr9600_pel_buffer(s, frame, sizeof(list), &addr, &len);

    if (st) {
        mr9600_reply_status(s, 0, hdr, st);
        return;
    }
    pci_dma_write(PCI_DEVICE(s), addr, list, sizeof(list));
    mr9600_pel_reply(s, le16_to_cpu(hdr->host_tag),
                     MR9600_PEL_ACTION_GET_PRINT_STRINGS,
                     MPI3_PEL_STATUS_SUCCESS, sizeof(list));
}

void mr9600_pel_request(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint8_t action = frame[0x0A];
    uint16_t tag = le16_to_cpu(hdr->host_tag);
    MREvLog *log = mr_core_evlog(&s->core);
    uint32_t seq;

    trace_megaraid_9600_pel(action, tag);
    switch (action) {
    case MPI3_PEL_ACTION_GET_SEQNUM:
        mr9600_pel_get_seqnum(s, frame);
        break;
    case MR9600_PEL_ACTION_GET_LOG:
        mr9600_pel_get_log(s, frame, false);
        break;
    case MR9600_PEL_ACTION_GET_COUNT:
        mr9600_pel_get_log(s, frame, true);
        break;
    case MPI3_PEL_ACTION_WAIT:
        mr9600_pel_wait(s, frame);
        break;
    case MPI3_PEL_ACTION_ABORT:
        mr9600_pel_abort(s, frame);
        break;
    case MR9600_PEL_ACTION_MARK_CLEAR:
        if (frame[MR9600_PEL_REQ_SEQ] != 0) {
            trace_megaraid_9600_err_pel_field(action, "clear type",
                                              frame[MR9600_PEL_REQ_SEQ]);
            mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
            break;
        }
        mr_evlog_mark_clear(log);
        mr9600_pel_reply(s, tag, action, MPI3_PEL_STATUS_SUCCESS, 0);
        break;
    case MR9600_PEL_ACTION_ACKNOWLEDGE:
        seq = ldl_le_p(frame + MR9600_PEL_REQ_SEQ);
        if (!seq || seq > mr_evlog_newest(log)) {
            mr9600_pel_reply(s, tag, action, MR9600_PEL_STATUS_NOT_FOUND, 0);
            break;
        }
        s->pel_last_ack = MAX(s->pel_last_ack, seq);
        mr9600_pel_reply(s, tag, action, MPI3_PEL_STATUS_SUCCESS, 0);
        break;
    case MR9600_PEL_ACTION_GET_PRINT_STRINGS:
        mr9600_pel_print_strings(s, frame);
        break;
    default:
        trace_megaraid_9600_err_pel_field(action, "action", action);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_FIELD);
        break;
    }
}

bool mr9600_pel_realize(MR9600State *s, Error **errp)
{
    s->pel_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, mr9600_pel_timeout, s);
    s->pel_notifier.notify = mr9600_pel_notify;
    mr_evlog_add_notifier(mr_core_evlog(&s->core), &s->pel_notifier);
    return true;
}

void mr9600_pel_exit(MR9600State *s)
{
    if (s->pel_notifier.notify) {
        mr_evlog_remove_notifier(&s->pel_notifier);
        s->pel_notifier.notify = NULL;
    }
    if (s->pel_timer) {
        timer_free(s->pel_timer);
        s->pel_timer = NULL;
    }
}
