/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a drive's bay LEDs (drive-leds.h): the host's requests
 * (locate, fault) kept in the drive, and the fault and rebuild
 * indications the firmware derives from the drive's state in the
 * configuration, so that a failed member's bay shows fault until the
 * drive is replaced (the new drive is a new device with its LEDs off)
 * and a rebuilt one shows rebuild until the rebuild ends.
 */
#include "qemu/osdep.h"
#include "hw/qdev-core.h"
#include "array.h"
#include "drive-leds.h"
#include "trace.h"

static RaidPdState mr_drive_pd_state(MRDrive *d)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(d));
    MRArray *a = bus ? MEGARAID_BUS(bus)->array : NULL;
    int pd = a ? mr_array_pd_of(a, d) : -1;

    return pd < 0 ? RAID_PD_UNCONF_GOOD : a->cfg->pds[pd].state;
}

void mr_drive_leds(MRDrive *d, MRDriveLeds *l)
{
    RaidPdState st = mr_drive_pd_state(d);

    l->locate = d->locate;
    l->fault_requested = d->fault_led;
    l->failed = st == RAID_PD_OFFLINE || st == RAID_PD_UNCONF_BAD;
    l->rebuild = st == RAID_PD_REBUILD;
    l->hot_spare = st == RAID_PD_HOT_SPARE;
    l->fault = l->fault_requested || l->failed;
}

void mr_drive_set_locate(MRDrive *d, bool on)
{
    if (d->locate_timer) {
        timer_del(d->locate_timer);
    }
    if (d->locate != on) {
        trace_megaraid_drive_led(d->slot, "locate", on);
    }
    d->locate = on;
}

void mr_drive_set_fault_led(MRDrive *d, bool on)
{
    if (d->fault_led != on) {
        trace_megaraid_drive_led(d->slot, "fault", on);
    }
    d->fault_led = on;
}
