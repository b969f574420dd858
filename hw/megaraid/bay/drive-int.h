/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the files of the drive bays share: the default
 * identities of megaraid-drive per interface and media.
 */
#ifndef HW_MEGARAID_DRIVE_INT_H
#define HW_MEGARAID_DRIVE_INT_H

#include "hw/qdev-properties.h"
#include "hw/megaraid/drive.h"

/* drive-profiles.c */
typedef struct MRDriveProfile {
    MRDriveInterface iface;
    MRDriveMedia media;
    const char *vendor;         /* INQUIRY vendor identification */
    const char *model;          /* product (SAS) or full model (ATA/NVMe) */
    const char *firmware;
    const char *serial_prefix;  /* serial = prefix + digits from slot */
    unsigned serial_digits;
    const char *serial_suffix;
    uint32_t oui;               /* IEEE OUI for the NAA-5 WWN */
    uint32_t rotation_rate;     /* 1: non-rotating, else RPM */
    uint8_t form_factor;        /* VPD B1h NOMINAL FORM FACTOR */
} MRDriveProfile;

const MRDriveProfile *mr_drive_profile(MRDriveInterface iface,
                                       MRDriveMedia media);

/* drive-capacity.c: modelled-capacity, explicit decimal or binary units */
extern const PropertyInfo mr_prop_capacity;
bool mr_drive_parse_capacity(const char *s, uint64_t *out, Error **errp);

#endif
