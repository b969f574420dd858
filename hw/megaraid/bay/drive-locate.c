/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-drive: the LEDs of the drive's bay as the host (a BMC) sees and
 * sets them: the read-only QOM property "locate" (true while the locate
 * LED blinks), "locate-led" (the same LED, settable), "fault-led" (lit
 * while the host asks for it or the drive has failed; setting it is the
 * host's request) and "rebuild-led" (read-only: the drive is rebuilt),
 * and the end of the drive's locate timer when the drive goes.  The
 * management protocol's PD_LOCATE (mgmt/mgmt-ops-locate.c) and the SES
 * device's slot controls (target/target-ses.c) set the same state
 * (array/drive-leds.c).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/array/drive-leds.h"

static bool mr_drive_get_locate(Object *obj, Error **errp)
{
    return MEGARAID_DRIVE(obj)->locate;
}

static void mr_drive_set_locate_led(Object *obj, bool value, Error **errp)
{
    mr_drive_set_locate(MEGARAID_DRIVE(obj), value);
}

static bool mr_drive_get_fault_led(Object *obj, Error **errp)
{
    MRDriveLeds l;

    mr_drive_leds(MEGARAID_DRIVE(obj), &l);
    return l.fault;
}

static void mr_drive_set_fault_led_prop(Object *obj, bool value, Error **errp)
{
    mr_drive_set_fault_led(MEGARAID_DRIVE(obj), value);
}

static bool mr_drive_get_rebuild_led(Object *obj, Error **errp)
{
    MRDriveLeds l;

    mr_drive_leds(MEGARAID_DRIVE(obj), &l);
    return l.rebuild;
}

void mr_drive_locate_cleanup(MRDrive *d)
{
    if (d->locate_timer) {
        timer_free(d->locate_timer);
        d->locate_timer = NULL;
    }
    d->locate = false;
}

void mr_drive_locate_class_init(ObjectClass *oc)
{
    object_class_property_add_bool(oc, "locate", mr_drive_get_locate, NULL);
    object_class_property_set_description(oc, "locate",
        "the drive's locate LED blinks (read-only; storcli "
        "/cx/ex/sx start|stop locate, MFI PD_LOCATE_START/STOP)");
    object_class_property_add_bool(oc, "locate-led", mr_drive_get_locate,
                                   mr_drive_set_locate_led);
    object_class_property_set_description(oc, "locate-led",
        "the bay's locate (ident) LED, as \"locate\" reads it; set or "
        "clear it as the host does with PD_LOCATE or SES RQST IDENT "
        "(ends a timed locate)");
    object_class_property_add_bool(oc, "fault-led", mr_drive_get_fault_led,
                                   mr_drive_set_fault_led_prop);
    object_class_property_set_description(oc, "fault-led",
        "the bay's fault LED: lit while the host asks for it (SES RQST "
        "FAULT, or setting this) or while the drive has failed (offline, "
        "unconfigured-bad); setting it sets or clears the request only");
    object_class_property_add_bool(oc, "rebuild-led",
                                   mr_drive_get_rebuild_led, NULL);
    object_class_property_set_description(oc, "rebuild-led",
        "the bay shows rebuild/remap: the drive is being rebuilt "
        "(read-only)");
}
