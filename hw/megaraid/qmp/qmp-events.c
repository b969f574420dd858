/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: MEGARAID_EVENT, one QMP event per entry a controller adds
 * to its event log (evlog.h), through a notifier on the log that lives
 * as long as the log is open.  The event carries the entry as the log
 * holds it, plus the controller's QOM path; the drive slot or VD index
 * goes in "slot" or "vd" by the entry's class.  Entries written before
 * the controller has a QOM path (its start, during realize) are not
 * sent: no QMP client can have seen the device yet.  Entries of a
 * cold-plugged controller's import (what it found at start: a VD not
 * optimal, a foreign configuration) come before any QMP client can
 * listen: the core holds them (mr_qmp_events_hold) and they are sent when
 * the machine first runs (a client that started QEMU with -S sees them
 * at "cont").
 */
#include "qemu/osdep.h"
#include "qemu/queue.h"
#include "system/runstate.h"
#include "qapi/qapi-events-megaraid.h"
#include "hw/megaraid/evlog.h"
#include "qmp-megaraid.h"
#include "trace.h"

/* At most this many entries of the start are held for the first run. */
#define MR_QMP_HELD_MAX 64

typedef struct MRQmpEvents {
    Notifier notifier;
    MRArray *array;
    bool holding;                       /* mr_qmp_events_hold() */
    GQueue held;                        /* MREvEntry *, before the run */
    VMChangeStateEntry *vmse;           /* held ones wait for the run */
    QLIST_ENTRY(MRQmpEvents) next;
} MRQmpEvents;

static QLIST_HEAD(, MRQmpEvents) mr_qmp_subscribed =
    QLIST_HEAD_INITIALIZER(mr_qmp_subscribed);

static void mr_qmp_event_send(MRArray *a, const MREvEntry *e)
{
    g_autofree char *path = a->owner ? object_get_canonical_path(a->owner)
                                     : NULL;
    bool drive = e->cls == MR_EV_CLASS_DRIVE && e->target >= 0;
    bool vd = (e->cls == MR_EV_CLASS_VD || e->cls == MR_EV_CLASS_JOB) &&
              e->target >= 0;

    if (!path) {
        return;     /* the controller's start, before it has a path */
    }
    trace_megaraid_qmp_event(path, e->seq, e->code);
    qapi_event_send_megaraid_event(path, e->seq, e->time_ms, e->code,
                                   mr_evlog_code_name(e->code),
                                   mr_evlog_class_name(e->cls),
                                   mr_evlog_severity_name(e->severity),
                                   drive, e->target, vd, e->target,
                                   e->text);
}

static void mr_qmp_event_notify(Notifier *n, void *data)
{
    MRQmpEvents *sub = container_of(n, MRQmpEvents, notifier);

    if (sub->holding) {
        /* the machine's creation: no QMP client listens yet */
        if (sub->held.length < MR_QMP_HELD_MAX) {
            g_queue_push_tail(&sub->held, g_memdup2(data, sizeof(MREvEntry)));
        }
        return;
    }
    mr_qmp_event_send(sub->array, data);
}

static void mr_qmp_held_free(MRQmpEvents *sub)
{
    g_queue_clear_full(&sub->held, g_free);
    if (sub->vmse) {
        qemu_del_vm_change_state_handler(sub->vmse);
        sub->vmse = NULL;
    }
}

/* The machine runs for the first time: what its start logged goes out. */
static void mr_qmp_first_run(void *opaque, bool running, RunState state)
{
    MRQmpEvents *sub = opaque;
    MREvEntry *e;

    if (!running) {
        return;
    }
    while ((e = g_queue_pop_head(&sub->held))) {
        mr_qmp_event_send(sub->array, e);
        g_free(e);
    }
    mr_qmp_held_free(sub);
}

void mr_qmp_events_attach(MRArray *a)
{
    MRQmpEvents *sub;

    if (!a->evlog) {
        return;
    }
    QLIST_FOREACH(sub, &mr_qmp_subscribed, next) {
        if (sub->array == a) {
            return;
        }
    }
    sub = g_new0(MRQmpEvents, 1);
    sub->array = a;
    sub->notifier.notify = mr_qmp_event_notify;
    g_queue_init(&sub->held);
    mr_evlog_add_notifier(a->evlog, &sub->notifier);
    QLIST_INSERT_HEAD(&mr_qmp_subscribed, sub, next);
}

void mr_qmp_events_hold(MRArray *a, bool hold)
{
    MRQmpEvents *sub;

    QLIST_FOREACH(sub, &mr_qmp_subscribed, next) {
        if (sub->array != a) {
            continue;
        }
        sub->holding = hold;
        if (hold && !sub->vmse && !runstate_is_running()) {
            sub->vmse = qemu_add_vm_change_state_handler(mr_qmp_first_run,
                                                         sub);
        }
        if (!hold && !sub->vmse) {
            mr_qmp_first_run(sub, true, RUN_STATE_RUNNING);
        }
    }
}

void mr_qmp_events_detach(MRArray *a)
{
    MRQmpEvents *sub;

    QLIST_FOREACH(sub, &mr_qmp_subscribed, next) {
        if (sub->array == a) {
            mr_evlog_remove_notifier(&sub->notifier);
            mr_qmp_held_free(sub);
            QLIST_REMOVE(sub, next);
            g_free(sub);
            return;
        }
    }
}
