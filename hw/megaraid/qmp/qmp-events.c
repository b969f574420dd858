/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: MEGARAID_EVENT, one QMP event per entry a controller adds
 * to its event log (evlog.h), through a notifier on the log that lives
 * as long as the log is open.  The event carries the entry as the log
 * holds it, plus the controller's QOM path; the drive slot or VD index
 * goes in "slot" or "vd" by the entry's class.  Entries written before
 * the controller has a QOM path (its start, during realize) are not
 * sent: no QMP client can have seen the device yet.
 */
#include "qemu/osdep.h"
#include "qemu/queue.h"
#include "qapi/qapi-events-megaraid.h"
#include "hw/megaraid/evlog.h"
#include "qmp-megaraid.h"
#include "trace.h"

typedef struct MRQmpEvents {
    Notifier notifier;
    MRArray *array;
    QLIST_ENTRY(MRQmpEvents) next;
} MRQmpEvents;

static QLIST_HEAD(, MRQmpEvents) mr_qmp_subscribed =
    QLIST_HEAD_INITIALIZER(mr_qmp_subscribed);

static void mr_qmp_event_notify(Notifier *n, void *data)
{
    MRArray *a = container_of(n, MRQmpEvents, notifier)->array;
    const MREvEntry *e = data;
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
    mr_evlog_add_notifier(a->evlog, &sub->notifier);
    QLIST_INSERT_HEAD(&mr_qmp_subscribed, sub, next);
}

void mr_qmp_events_detach(MRArray *a)
{
    MRQmpEvents *sub;

    QLIST_FOREACH(sub, &mr_qmp_subscribed, next) {
        if (sub->array == a) {
            mr_evlog_remove_notifier(&sub->notifier);
            QLIST_REMOVE(sub, next);
            g_free(sub);
            return;
        }
    }
}
