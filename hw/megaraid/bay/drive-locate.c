/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-drive: the drive's locate LED as the host sees it, the
 * read-only QOM property "locate" (true while the LED blinks), and the
 * end of the drive's locate timer when the drive goes.  The management
 * protocol's PD_LOCATE (mgmt/mgmt-ops-locate.c) turns it on and off.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/megaraid/drive.h"

static bool mr_drive_get_locate(Object *obj, Error **errp)
{
    return MEGARAID_DRIVE(obj)->locate;
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
}
