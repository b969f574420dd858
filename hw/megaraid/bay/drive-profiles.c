/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: default identities of megaraid-drive per interface and
 * media, modelled on drives commonly found behind a 9600-series card.
 *
 * - NVMe: a Micron 7450 PRO 3.84 TB (U.3).  The tri-mode RoC translates
 *   SCSI to NVMe and presents the drive with the vendor identification
 *   "NVMe", the first 16 characters of the NVMe model number as product
 *   and the end of the firmware revision as product revision.
 * - SAS: Seagate Nytro 3332 (SSD) and Exos 7E8 (HDD), vendor "SEAGATE".
 * - SATA: Intel D3-S4510 (SSD) and Seagate Exos 7E8 SATA (HDD); SAT gives
 *   the vendor identification "ATA" and the ATA model as product.
 *
 * Every field can be overridden with the device's properties.
 */

#include "qemu/osdep.h"
#include "drive-int.h"

static const MRDriveProfile mr_profiles[] = {
    {
        .iface = MR_IF_NVME, .media = MR_MEDIA_SSD,
        .vendor = "NVMe", .model = "Micron_7450_MTFDKCC3T8TFR",
        .firmware = "E2MU200",
        .serial_prefix = "2245", .serial_digits = 8, .serial_suffix = "",
        .oui = 0x00a075, .rotation_rate = 1, .form_factor = 3,
    }, {
        .iface = MR_IF_SAS, .media = MR_MEDIA_SSD,
        .vendor = "SEAGATE", .model = "XS3840SE70084",
        .firmware = "0003",
        .serial_prefix = "HLJ", .serial_digits = 5, .serial_suffix = "",
        .oui = 0x000c50, .rotation_rate = 1, .form_factor = 3,
    }, {
        .iface = MR_IF_SAS, .media = MR_MEDIA_HDD,
        .vendor = "SEAGATE", .model = "ST8000NM001A",
        .firmware = "E002",
        .serial_prefix = "ZA2", .serial_digits = 5, .serial_suffix = "",
        .oui = 0x000c50, .rotation_rate = 7200, .form_factor = 2,
    }, {
        .iface = MR_IF_SATA, .media = MR_MEDIA_SSD,
        .vendor = "ATA", .model = "INTEL SSDSC2KB038T8",
        .firmware = "XCV10132",
        .serial_prefix = "PHYF", .serial_digits = 8,
        .serial_suffix = "3P8EGN",
        .oui = 0x5cd2e4, .rotation_rate = 1, .form_factor = 3,
    }, {
        .iface = MR_IF_SATA, .media = MR_MEDIA_HDD,
        .vendor = "ATA", .model = "ST8000NM000A-2KE101",
        .firmware = "SN04",
        .serial_prefix = "WKD", .serial_digits = 5, .serial_suffix = "",
        .oui = 0x000c50, .rotation_rate = 7200, .form_factor = 2,
    },
};

/* The default identity, or NULL for a combination no drive offers. */
const MRDriveProfile *mr_drive_profile(MRDriveInterface iface,
                                       MRDriveMedia media)
{
    int i;

    for (i = 0; i < ARRAY_SIZE(mr_profiles); i++) {
        if (mr_profiles[i].iface == iface && mr_profiles[i].media == media) {
            return &mr_profiles[i];
        }
    }
    return NULL;
}
