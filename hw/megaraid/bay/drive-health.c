/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-drive: what the drive reports about its health, as runtime QOM
 * properties so tests can set them before and while the guest reads them:
 * "media-errors", "other-errors", "predictive-failures" (counts),
 * "smart-alert" (bool) and "temperature" (Celsius, 0 no reading).  The
 * management protocol's PD_INFO and the storcli documents carry them.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/megaraid/drive.h"
#include "trace.h"

/* the counters: opaque is the field's offset in MRDrive */
static void mr_health_get_count(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    uint32_t *field = (uint32_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_uint32(v, name, field, errp);
}

static void mr_health_set_count(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    uint32_t *field = (uint32_t *)((char *)obj + (uintptr_t)opaque);
    uint32_t n;

    if (!visit_type_uint32(v, name, &n, errp)) {
        return;
    }
    *field = n;
    trace_megaraid_drive_health_set(d->slot, name, n);
}

static void mr_health_get_temp(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    visit_type_uint8(v, name, &MEGARAID_DRIVE(obj)->health_temp_c, errp);
}

static void mr_health_set_temp(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    uint8_t t;

    if (!visit_type_uint8(v, name, &t, errp)) {
        return;
    }
    if (t > 125) {
        error_setg(errp, "megaraid-drive: temperature must be 0 (no "
                   "reading) to 125 Celsius, not %u", t);
        return;
    }
    d->health_temp_c = t;
    trace_megaraid_drive_health_set(d->slot, name, t);
}

static bool mr_health_get_alert(Object *obj, Error **errp)
{
    return MEGARAID_DRIVE(obj)->health_smart_alert;
}

static void mr_health_set_alert(Object *obj, bool on, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);

    d->health_smart_alert = on;
    trace_megaraid_drive_health_set(d->slot, "smart-alert", on);
}

void mr_drive_health_instance_init(Object *obj)
{
    MEGARAID_DRIVE(obj)->health_temp_c = 30;
}

void mr_drive_health_class_init(ObjectClass *oc)
{
    static const struct {
        const char *name;
        size_t offset;
        const char *desc;
    } counts[] = {
        { "media-errors", offsetof(MRDrive, health_media_errors),
          "media errors the drive reports (storcli's Media Error Count, "
          "with the read and write errors of injected media errors)" },
        { "other-errors", offsetof(MRDrive, health_other_errors),
          "other errors the drive reports (Other Error Count)" },
        { "predictive-failures", offsetof(MRDrive, health_pred_failures),
          "predictive failure events (Predictive Failure Count)" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
        object_class_property_add(oc, counts[i].name, "uint32",
                                  mr_health_get_count, mr_health_set_count,
                                  NULL, (void *)(uintptr_t)counts[i].offset);
        object_class_property_set_description(oc, counts[i].name,
                                              counts[i].desc);
    }
    object_class_property_add_bool(oc, "smart-alert", mr_health_get_alert,
                                   mr_health_set_alert);
    object_class_property_set_description(oc, "smart-alert",
        "the drive flags a S.M.A.R.T. alert (default off)");
    object_class_property_add(oc, "temperature", "uint8",
                              mr_health_get_temp, mr_health_set_temp, NULL,
                              NULL);
    object_class_property_set_description(oc, "temperature",
        "drive temperature in Celsius, 0 for no reading (default 30)");
}
