/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's event log operations: the
 * log's sequence numbers and entries read by sequence number, straight
 * from the controller's persistent event log (evlog.h, MRArray.evlog).
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/megaraid/evlog.h"
#include "mgmt-ops.h"

static uint8_t mgmt_no_log(MgmtCtx *c)
{
    return mgmt_refuse(c, MGMT_STAT_NOT_SUPPORTED, MGMT_ERR_OFFSET_NONE, 0);
}

uint8_t mgmt_op_evlog_info(MgmtCtx *c)
{
    MREvLog *log = c->a->evlog;
    MgmtEvlogInfo *li = (MgmtEvlogInfo *)c->out;
    uint8_t st;

    if (!log) {
        return mgmt_no_log(c);
    }
    st = mgmt_need(c, sizeof(*li));
    if (st) {
        return st;
    }
    memset(li, 0, sizeof(*li));
    li->oldest_seq = cpu_to_le32(mr_evlog_oldest(log));
    li->newest_seq = cpu_to_le32(mr_evlog_newest(log));
    li->count = cpu_to_le32(mr_evlog_count(log));
    li->capacity = cpu_to_le32(mr_evlog_capacity(log));
    li->boot_seq = cpu_to_le32(mr_evlog_boot_seq(log));
    li->clear_seq = cpu_to_le32(mr_evlog_clear_seq(log));
    li->shutdown_seq = cpu_to_le32(mr_evlog_shutdown_seq(log));
    c->out_len = sizeof(*li);
    return MGMT_STAT_OK;
}

uint8_t mgmt_op_evlog_read(MgmtCtx *c)
{
    MREvLog *log = c->a->evlog;
    MgmtListHeader *h = (MgmtListHeader *)c->out;
    uint32_t first = c->mbox[0], max = c->mbox[1];
    uint32_t oldest, newest, fit, count = 0;
    uint8_t st;

    if (!log) {
        return mgmt_no_log(c);
    }
    oldest = mr_evlog_oldest(log);
    newest = mr_evlog_newest(log);
    if (first == 0 || (oldest && first < oldest)) {
        first = oldest ? oldest : newest + 1;
    }
    if (first > newest + 1) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_SEQ, MGMT_OFF_MBOX(0),
                           newest);
    }
    st = mgmt_need(c, sizeof(*h) + sizeof(MgmtEvent));
    if (st) {
        return st;
    }
    fit = (c->out_cap - sizeof(*h)) / sizeof(MgmtEvent);
    if (oldest && first <= newest) {
        count = MIN(newest - first + 1, fit);
        if (max) {
            count = MIN(count, max);
        }
    }
    memset(h, 0, sizeof(*h));
    h->total = cpu_to_le32(mr_evlog_count(log));
    h->first = cpu_to_le32(first);
    h->entry_len = cpu_to_le16(sizeof(MgmtEvent));
    for (uint32_t i = 0; i < count; i++) {
        MgmtEvent *ev = (MgmtEvent *)(c->out + sizeof(*h)) + i;
        MREvEntry e;

        if (!mr_evlog_get(log, first + i, &e)) {
            count = i;
            break;
        }
        memset(ev, 0, sizeof(*ev));
        ev->seq = cpu_to_le32(e.seq);
        ev->code = cpu_to_le16(e.code);
        ev->cls = e.cls;
        ev->severity = e.severity;
        ev->time_ms = cpu_to_le64(e.time_ms);
        ev->target = cpu_to_le32(e.target);
        ev->arg[0] = cpu_to_le32(e.arg[0]);
        ev->arg[1] = cpu_to_le32(e.arg[1]);
        mgmt_strpad(ev->text, sizeof(ev->text), e.text);
    }
    h->count = cpu_to_le32(count);
    h->next = cpu_to_le32(count && first + count <= newest ? first + count
                                                          : MGMT_NONE32);
    c->out_len = sizeof(*h) + count * sizeof(MgmtEvent);
    return MGMT_STAT_OK;
}
