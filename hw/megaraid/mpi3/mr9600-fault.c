/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: fault injection on the megaraid-9600 controller, for
 * driver developers.  Owns the runtime QOM properties that make the IOC
 * fail as the real firmware can: "inject-fault" (IOC FAULT with a chosen
 * fault code and fault-info words, optionally with a snapdump "diag save
 * in progress" phase of "fault-save-ms"), "inject-prepare-reset" (the
 * PREPARE FOR RESET event, then a firmware-initiated reset after
 * "prepare-reset-ms"), "drop-replies" (the next N replies to operational
 * requests are lost), and the read-only "ioc-resets" counter.  Every
 * delay runs on QEMU_CLOCK_VIRTUAL.  The IOC state machine itself stays
 * in mr9600.c; this file only drives it.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_PREPARE_RESET_RC_START   0x01

/* Event data of PREPARE FOR RESET. */
typedef struct QEMU_PACKED MR9600EventPrepareReset {
    uint8_t reason_code;
    uint8_t reserved1;
    uint16_t reserved2;
} MR9600EventPrepareReset;

/* The snapdump phase is over, or the prepared reset is due. */
static void mr9600_fault_timer_cb(void *opaque)
{
    MR9600State *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (s->fault_save_until && now >= s->fault_save_until) {
        s->fault_save_until = 0;
        s->host_diag &= ~MPI3_HOST_DIAG_SAVE_IN_PROGRESS;
        trace_megaraid_9600_fault_save_done(s->fault);
    }
    if (s->fault_reset_at && now >= s->fault_reset_at) {
        s->fault_reset_at = 0;
        trace_megaraid_9600_fault_self_reset();
        mr9600_ioc_reset(s);
    }
    if (s->fault_save_until || s->fault_reset_at) {
        int64_t next = INT64_MAX;

        if (s->fault_save_until) {
            next = s->fault_save_until;
        }
        if (s->fault_reset_at) {
            next = MIN(next, s->fault_reset_at);
        }
        timer_mod_ns(s->fault_timer, next);
    }
}

static void mr9600_fault_arm(MR9600State *s, int64_t when)
{
    if (!timer_pending(s->fault_timer) ||
        timer_expire_time_ns(s->fault_timer) > when) {
        timer_mod_ns(s->fault_timer, when);
    }
}

/* Replies posted for an operational request; true: lose this one. */
bool mr9600_fault_drop_reply(MR9600State *s, uint16_t req_qid,
                             uint16_t host_tag, bool tm)
{
    if (!s->fault_drop_replies || req_qid == 0 || tm) {
        return false;
    }
    s->fault_drop_replies--;
    trace_megaraid_9600_fault_reply_dropped(req_qid, host_tag,
                                            s->fault_drop_replies);
    return true;
}

static char *mr9600_fault_get(Object *obj, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);

    if (!(s->ioc_status & MPI3_IOC_STATUS_FAULT)) {
        return g_strdup("");
    }
    return g_strdup_printf("0x%04x:0x%08x:0x%08x:0x%08x", s->fault,
                           s->fault_info[0], s->fault_info[1],
                           s->fault_info[2]);
}

/* "CODE[:INFO0[:INFO1[:INFO2]]]": the IOC faults now. */
static void mr9600_fault_set(Object *obj, const char *value, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    g_auto(GStrv) parts = g_strsplit(value, ":", 0);
    uint64_t words[4] = { 0 };
    guint n = g_strv_length(parts);

    if (n < 1 || n > 4) {
        error_setg(errp, "megaraid-9600: inject-fault '%s' is not "
                   "CODE[:INFO0[:INFO1[:INFO2]]]", value);
        return;
    }
    for (guint i = 0; i < n; i++) {
        if (qemu_strtou64(parts[i], NULL, 0, &words[i]) < 0 ||
            words[i] > (i ? UINT32_MAX : 0xffff)) {
            error_setg(errp, "megaraid-9600: inject-fault '%s': CODE is "
                       "0..0xffff and each INFO word 32 bits", value);
            return;
        }
    }
    if (!words[0]) {
        error_setg(errp, "megaraid-9600: inject-fault: code 0 is no fault");
        return;
    }
    if (!DEVICE(s)->realized) {
        error_setg(errp, "megaraid-9600: inject-fault is set at run time "
                   "(qom-set), not at start");
        return;
    }
    if (s->ioc_status & MPI3_IOC_STATUS_FAULT) {
        error_setg(errp, "megaraid-9600: the IOC is in FAULT already "
                   "(code 0x%04x)", s->fault);
        return;
    }
    trace_megaraid_9600_fault_inject(words[0], words[1], words[2], words[3]);
    mr9600_ioc_fault(s, words[0]);
    for (int i = 0; i < 3; i++) {
        s->fault_info[i] = words[i + 1];
    }
    s->fault_injected++;
    if (s->fault_save_ms) {
        s->host_diag |= MPI3_HOST_DIAG_SAVE_IN_PROGRESS;
        s->fault_save_until = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                              (int64_t)s->fault_save_ms * SCALE_MS;
        mr9600_fault_arm(s, s->fault_save_until);
    }
}

static bool mr9600_prepare_get(Object *obj, Error **errp)
{
    return MEGARAID_9600(obj)->fault_reset_at != 0;
}

static void mr9600_prepare_set(Object *obj, bool on, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    MR9600EventPrepareReset ev = {
        .reason_code = MR9600_PREPARE_RESET_RC_START,
    };

    if (!on) {
        return;
    }
    if (!DEVICE(s)->realized || !mr9600_ioc_ready(s)) {
        error_setg(errp, "megaraid-9600: inject-prepare-reset needs a "
                   "READY IOC (the driver loaded)");
        return;
    }
    if (s->fault_reset_at) {
        error_setg(errp, "megaraid-9600: a prepared reset is pending");
        return;
    }
    trace_megaraid_9600_fault_prepare_reset(s->prepare_reset_ms);
    mr9600_send_event(s, MPI3_EVENT_PREPARE_FOR_RESET, &ev, sizeof(ev));
    s->fault_reset_at = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                        (int64_t)s->prepare_reset_ms * SCALE_MS;
    mr9600_fault_arm(s, s->fault_reset_at);
}

static void mr9600_fault_uint32(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    uint32_t *field = (uint32_t *)((char *)s + (uintptr_t)opaque);

    visit_type_uint32(v, name, field, errp);
}

void mr9600_fault_init(MR9600State *s)
{
    s->fault_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, mr9600_fault_timer_cb,
                                  s);
}

/* A cold reset of the card ends any snapdump or prepared reset. */
void mr9600_fault_reset(MR9600State *s)
{
    s->fault_save_until = 0;
    s->fault_reset_at = 0;
    s->fault_drop_replies = 0;
    s->ioc_resets = 0;
    if (s->fault_timer) {
        timer_del(s->fault_timer);
    }
}

void mr9600_fault_exit(MR9600State *s)
{
    if (s->fault_timer) {
        timer_free(s->fault_timer);
        s->fault_timer = NULL;
    }
}

static void mr9600_fault_add_uint32(ObjectClass *oc, const char *name,
                                    size_t offset, bool writable,
                                    const char *desc)
{
    object_class_property_add(oc, name, "uint32", mr9600_fault_uint32,
                              writable ? mr9600_fault_uint32 : NULL, NULL,
                              (void *)(uintptr_t)offset);
    object_class_property_set_description(oc, name, desc);
}

void mr9600_fault_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "inject-fault", mr9600_fault_get,
                                  mr9600_fault_set);
    object_class_property_set_description(oc, "inject-fault",
        "fault injection (run time): CODE[:INFO0[:INFO1[:INFO2]]] puts the "
        "IOC into FAULT with that fault code and fault-info words until "
        "the driver resets it; reads the current fault, \"\" if none");
    object_class_property_add_bool(oc, "inject-prepare-reset",
                                   mr9600_prepare_get, mr9600_prepare_set);
    object_class_property_set_description(oc, "inject-prepare-reset",
        "fault injection (run time): on sends PREPARE FOR RESET and resets "
        "the IOC prepare-reset-ms later, as the firmware does before a "
        "self reset; reads on while that reset is pending");
    mr9600_fault_add_uint32(oc, "fault-save-ms",
        offsetof(MR9600State, fault_save_ms), true,
        "fault injection: an injected fault first shows a snapdump (host "
        "diagnostic SAVE IN PROGRESS) for this many ms; 0 (default) none");
    mr9600_fault_add_uint32(oc, "prepare-reset-ms",
        offsetof(MR9600State, prepare_reset_ms), true,
        "fault injection: ms from PREPARE FOR RESET to the firmware's "
        "reset (default 2000)");
    mr9600_fault_add_uint32(oc, "drop-replies",
        offsetof(MR9600State, fault_drop_replies), true,
        "fault injection: the next N replies to operational (SCSI IO) "
        "requests are lost; reads the number still to lose");
    mr9600_fault_add_uint32(oc, "ioc-resets",
        offsetof(MR9600State, ioc_resets), false,
        "message unit, soft and firmware resets of the IOC, and FLRs, hot "
        "resets and D3hot -> D0 of the function, since start");
    mr9600_fault_add_uint32(oc, "faults-injected",
        offsetof(MR9600State, fault_injected), false,
        "faults injected with inject-fault since start");
}
