/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: fault injection on a drive's SCSI target, for driver
 * developers.  Owns the runtime QOM properties "delay-ms" (every command
 * starts N ms late on QEMU_CLOCK_VIRTUAL) and "delay-jitter-ms" (plus a
 * random 0..M ms more each), "unresponsive" (commands wait
 * until it is cleared, or until task management or a reset aborts them)
 * and "inject-status" (the next N commands end at once with SCSI BUSY or
 * TASK SET FULL), and the one hook in the target's submission path that
 * applies them.  A held command keeps its slot in the front end, so the
 * host sees exactly what a slow or hung drive shows: a command that does
 * not come back.  Only the drive's own target (a JBOD drive) is affected;
 * member I/O of a RAID virtual disk does not pass through here.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "scsi/constants.h"
#include "hw/megaraid/target.h"
#include "target-int.h"
#include "trace.h"

static void mr_fault_unhold(MRTargetReq *req)
{
    MRDrive *d = req->unit->drive;

    g_queue_remove(&d->fault_held, req);
    req->fault_held = false;
}

/* delay-ms: the wait is over, run the command now. */
static void mr_fault_delay_expired(void *opaque)
{
    MRTargetReq *req = opaque;

    mr_fault_unhold(req);
    trace_megaraid_drive_fault_release(req->unit->slot, req->cdb[0]);
    mr_target_execute(req);
}

/*
 * Called for every command the front end submits; true when a fault
 * took it (it is completed now or later, never by mr_target_execute).
 */
bool mr_drive_fault_submit(MRTargetReq *req)
{
    MRDrive *d = req->unit->drive;

    if (!d) {
        return false;           /* a VD's unit */
    }
    if (d->fault_status_count) {
        d->fault_status_count--;
        trace_megaraid_drive_fault_status(d->slot, req->cdb[0],
                                          d->fault_status,
                                          d->fault_status_count);
        req->status = d->fault_status;
        req->sense_len = 0;
        req->xfer_count = 0;
        req->done(req);
        return true;
    }
    if (!d->fault_unresponsive && !d->fault_delay_ms &&
        !d->fault_jitter_ms) {
        return false;
    }
    req->fault_held = true;
    g_queue_push_tail(&d->fault_held, req);
    /* not armed while unresponsive: set off, the command runs at once */
    timer_init_ns(&req->hold_timer, QEMU_CLOCK_VIRTUAL,
                  mr_fault_delay_expired, req);
    if (d->fault_unresponsive) {
        trace_megaraid_drive_fault_hold(d->slot, req->cdb[0], 0);
    } else {
        int64_t ns = (int64_t)d->fault_delay_ms * SCALE_MS;

        if (d->fault_jitter_ms) {
            ns += g_random_int() % ((uint64_t)d->fault_jitter_ms * 1000 + 1) *
                  SCALE_US;
        }
        trace_megaraid_drive_fault_hold(d->slot, req->cdb[0], ns / SCALE_MS);
        timer_mod_ns(&req->hold_timer,
                     qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ns);
    }
    return true;
}

/* Task management or a reset: a held command ends now, aborted. */
bool mr_drive_fault_cancel(MRTargetReq *req)
{
    if (!req->fault_held) {
        return false;
    }
    timer_del(&req->hold_timer);
    mr_fault_unhold(req);
    trace_megaraid_drive_fault_abort(req->unit->slot, req->cdb[0]);
    mr_target_aborted(req);
    return true;
}

/* unresponsive=off: the drive answers again, in arrival order. */
static void mr_fault_release_waiting(MRDrive *d)
{
    g_autoptr(GQueue) run = g_queue_new();
    MRTargetReq *req;

    for (GList *l = d->fault_held.head; l; l = l->next) {
        req = l->data;
        /* those waiting out delay-ms keep their timer */
        if (!timer_pending(&req->hold_timer)) {
            g_queue_push_tail(run, req);
        }
    }
    while ((req = g_queue_pop_head(run))) {
        mr_fault_unhold(req);
        trace_megaraid_drive_fault_release(d->slot, req->cdb[0]);
        mr_target_execute(req);
    }
}

/* delay-ms and delay-jitter-ms: opaque is the field's offset in MRDrive */
static void mr_fault_get_delay(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    uint32_t *field = (uint32_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_uint32(v, name, field, errp);
}

static void mr_fault_set_delay(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    uint32_t *field = (uint32_t *)((char *)obj + (uintptr_t)opaque);
    uint32_t ms;

    if (!visit_type_uint32(v, name, &ms, errp)) {
        return;
    }
    if (ms > 3600 * 1000) {
        error_setg(errp, "megaraid-drive: %s must be 0..3600000 (got %u)",
                   name, ms);
        return;
    }
    *field = ms;
    trace_megaraid_drive_fault_set(d->slot, name, ms);
}

static bool mr_fault_get_unresponsive(Object *obj, Error **errp)
{
    return MEGARAID_DRIVE(obj)->fault_unresponsive;
}

static void mr_fault_set_unresponsive(Object *obj, bool on, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);

    d->fault_unresponsive = on;
    trace_megaraid_drive_fault_set(d->slot, "unresponsive", on);
    if (!on) {
        mr_fault_release_waiting(d);
    }
}

static char *mr_fault_get_status(Object *obj, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);

    if (!d->fault_status_count) {
        return g_strdup("");
    }
    return g_strdup_printf("%s:%u", d->fault_status == BUSY ? "busy"
                                                            : "task-set-full",
                           d->fault_status_count);
}

/* "busy[:N]", "task-set-full[:N]"; "" or "off" clears. */
static void mr_fault_set_status(Object *obj, const char *value, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    const char *colon = strchr(value, ':');
    g_autofree char *kind = colon ? g_strndup(value, colon - value)
                                  : g_strdup(value);
    uint64_t count = 1;
    uint8_t status;

    if (!*value || !strcmp(value, "off")) {
        d->fault_status_count = 0;
        trace_megaraid_drive_fault_set(d->slot, "inject-status", 0);
        return;
    }
    if (!strcmp(kind, "busy")) {
        status = BUSY;
    } else if (!strcmp(kind, "task-set-full")) {
        status = TASK_SET_FULL;
    } else {
        error_setg(errp, "megaraid-drive: inject-status '%s': use "
                   "busy[:COUNT], task-set-full[:COUNT] or \"\"", value);
        return;
    }
    if (colon && (qemu_strtou64(colon + 1, NULL, 0, &count) < 0 ||
                  count < 1 || count > UINT32_MAX)) {
        error_setg(errp, "megaraid-drive: inject-status '%s': COUNT must "
                   "be 1..%u", value, UINT32_MAX);
        return;
    }
    d->fault_status = status;
    d->fault_status_count = count;
    trace_megaraid_drive_fault_set(d->slot, "inject-status", count);
}

void mr_drive_fault_class_init(ObjectClass *oc)
{
    object_class_property_add(oc, "delay-ms", "uint32", mr_fault_get_delay,
                              mr_fault_set_delay, NULL,
                              (void *)offsetof(MRDrive, fault_delay_ms));
    object_class_property_set_description(oc, "delay-ms",
        "fault injection: every command completes this many ms late "
        "(guest clock); 0 (default) off");
    object_class_property_add(oc, "delay-jitter-ms", "uint32",
                              mr_fault_get_delay, mr_fault_set_delay, NULL,
                              (void *)offsetof(MRDrive, fault_jitter_ms));
    object_class_property_set_description(oc, "delay-jitter-ms",
        "fault injection: each command completes a random 0..N ms more "
        "late, on top of delay-ms; 0 (default) off");
    object_class_property_add_bool(oc, "unresponsive",
                                   mr_fault_get_unresponsive,
                                   mr_fault_set_unresponsive);
    object_class_property_set_description(oc, "unresponsive",
        "fault injection: on = commands never complete until this is set "
        "off again or task management / a reset aborts them");
    object_class_property_add_str(oc, "inject-status", mr_fault_get_status,
                                  mr_fault_set_status);
    object_class_property_set_description(oc, "inject-status",
        "fault injection: busy[:N] or task-set-full[:N]: the next N "
        "commands (default 1) end with that SCSI status; \"\" clears");
}
