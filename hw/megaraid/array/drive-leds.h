/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the LEDs of a drive's bay as every view shows them (the
 * SES device's slot status, QOM, query-megaraid): locate and the
 * requested fault LED the host sets, and what the firmware lights from
 * the drive's RAID state (fault while it has failed, rebuild while it is
 * rebuilt).
 */
#ifndef HW_MEGARAID_ARRAY_DRIVE_LEDS_H
#define HW_MEGARAID_ARRAY_DRIVE_LEDS_H

#include "hw/megaraid/drive.h"

typedef struct MRDriveLeds {
    bool locate;                /* ident/locate blinks */
    bool fault_requested;       /* the host asked for the fault LED */
    bool failed;                /* the firmware lights fault: it failed */
    bool rebuild;               /* the firmware shows rebuild/remap */
    bool hot_spare;
    bool fault;                 /* the fault LED: requested or failed */
} MRDriveLeds;

void mr_drive_leds(MRDrive *d, MRDriveLeds *l);
/* Locate on or off until told otherwise (ends a timed PD_LOCATE). */
void mr_drive_set_locate(MRDrive *d, bool on);
void mr_drive_set_fault_led(MRDrive *d, bool on);

#endif
