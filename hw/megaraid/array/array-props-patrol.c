/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's QOM properties of patrol read
 * (jobs/patrol.c): patrol-read (write "start" or "stop"; reads the
 * state: "stopping" from a stop until the pass has ended, as the stop
 * returns at once), patrol-rate and patrol-status.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "array.h"

static MRArray *mr_patrol_obj_array(Object *obj, void *opaque)
{
    return *(MRArray **)((char *)obj + (ptrdiff_t)opaque);
}


static void mr_get_patrol_state(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    MRPatrolStatus st;
    g_autofree char *s = NULL;

    mr_patrol_status(mr_patrol_obj_array(obj, opaque), &st);
    s = g_strdup(!st.running ? "stopped" :
                 mr_patrol_stopping(mr_patrol_obj_array(obj, opaque)) ?
                 "stopping" : "running");
    visit_type_str(v, name, &s, errp);
}

static void mr_set_patrol_state(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    MRArray *a = mr_patrol_obj_array(obj, opaque);
    g_autofree char *s = NULL;

    if (!visit_type_str(v, name, &s, errp)) {
        return;
    }
    if (!strcmp(s, "start")) {
        mr_patrol_start(a, errp);
    } else if (!strcmp(s, "stop")) {
        mr_patrol_request_stop(a);      /* ends at its window */
    } else {
        error_setg(errp, "%s: patrol-read takes start or stop, not '%s'",
                   object_get_typename(obj), s);
    }
}

static void mr_get_patrol_rate(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    MRPatrolStatus st;
    uint8_t r;

    mr_patrol_status(mr_patrol_obj_array(obj, opaque), &st);
    r = st.rate;
    visit_type_uint8(v, name, &r, errp);
}

static void mr_set_patrol_rate(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    uint8_t r;

    if (!visit_type_uint8(v, name, &r, errp)) {
        return;
    }
    if (r < 1 || r > 100) {
        error_setg(errp, "%s: patrol-rate must be 1 to 100 percent",
                   object_get_typename(obj));
        return;
    }
    mr_patrol_set_rate(mr_patrol_obj_array(obj, opaque), r);
}

static void mr_get_patrol_status(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    MRPatrolStatus st;
    g_autofree char *s = NULL;

    mr_patrol_status(mr_patrol_obj_array(obj, opaque), &st);
    s = g_strdup_printf("state=%s percent=%u iterations=%u drive=%d "
                        "drive-percent=%u corrected=%u uncorrectable=%u",
                        st.running ? "running" : "stopped", st.percent,
                        st.iterations, st.cur_slot, st.cur_percent,
                        st.corrected, st.uncorrectable);
    visit_type_str(v, name, &s, errp);
}

void mr_array_class_props_patrol(ObjectClass *oc, ptrdiff_t array_offset)
{
    object_class_property_add(oc, "patrol-read", "str", mr_get_patrol_state,
                              mr_set_patrol_state, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "patrol-read",
        "patrol read: write start or stop; reads running or stopped");
    object_class_property_add(oc, "patrol-rate", "uint8", mr_get_patrol_rate,
                              mr_set_patrol_rate, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "patrol-rate",
        "share of the drives' time patrol read takes, 1 to 100 percent "
        "(default 30)");
    object_class_property_add(oc, "patrol-status", "str",
                              mr_get_patrol_status, NULL, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "patrol-status",
        "patrol read: state, percent of the pass, passes done, drive slot "
        "being read and its percent, medium errors corrected and left");
}
