/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: drives in the controller's bays.
 *
 * A megaraid-drive sits on the controller's megaraid-bus ("<ctrl-id>.0").
 * It owns its backing BlockBackend and the SCSI logical unit it presents
 * (unit.h: interface, media, vendor/model/serial/firmware, WWN, logical
 * block size).  The controller sees drives only through this header and
 * the SCSI target (target.h).
 */
#ifndef HW_MEGARAID_DRIVE_H
#define HW_MEGARAID_DRIVE_H

#include "hw/qdev-core.h"
#include "hw/block/block.h"
#include "system/block-backend.h"
#include "qom/object.h"
#include "qemu/timer.h"
#include "hw/megaraid/unit.h"

#define TYPE_MEGARAID_BUS "megaraid-bus"
OBJECT_DECLARE_SIMPLE_TYPE(MRBus, MEGARAID_BUS)

#define TYPE_MEGARAID_DRIVE "megaraid-drive"
OBJECT_DECLARE_SIMPLE_TYPE(MRDrive, MEGARAID_DRIVE)

struct MRBus {
    BusState parent_obj;
    struct MRArray *array;      /* the controller's RAID configuration */
    /* expanders (expander.h) and the personality's check of a new one */
    QLIST_HEAD(, MRExpander) expanders;
    bool (*expander_check)(void *opaque, struct MRExpander *e, Error **errp);
    void *expander_opaque;
};

/* An LBA range whose reads fail (injected from the host, QOM media-error). */
typedef struct MRMediaError {
    uint64_t lba;               /* logical blocks */
    uint64_t count;
} MRMediaError;

#define MR_MAX_MEDIA_ERRORS 16
#define MR_NVME_ERROR_LOG   4   /* NVMe error information entries kept */

struct MRDrive {
    DeviceState parent_obj;

    /* properties */
    BlockConf conf;             /* drive=, logical_block_size=, ... */
    uint32_t slot;
    uint32_t enclosure;
    char *interface_str;        /* "nvme" | "sas" | "sata" */
    char *media_str;            /* "ssd" | "hdd" */
    char *perf_str;             /* timing: performance profile name */
    uint64_t modelled_capacity; /* timing: bytes, 0 = the profile's */
    /* NVMe: memory page size and maximum data transfer size, bytes */
    uint32_t nvme_page_size;
    uint32_t nvme_mdts;
    /*
     * NVMe error information log (megaraid-9600's NVMe ENCAPSULATED
     * commands that failed): entries in the NVMe format, newest first,
     * and the number of errors ever logged.  Not kept across a restart.
     */
    uint64_t nvme_error_count;
    uint8_t nvme_error_log[MR_NVME_ERROR_LOG][64];

    /*
     * The drive's SCSI logical unit (unit.h): the properties vendor,
     * model, serial, firmware, wwn and rotation_rate write into it, the
     * rest (interface, media, geometry, target state) is set at realize.
     * unit.drive points back here.
     */
    MRUnit unit;
    bool in_array;              /* member of a RAID array: hidden from host */
    bool meta_pending;          /* hot plug: its metadata is being read */
    uint32_t n_media_errors;
    MRMediaError media_errors[MR_MAX_MEDIA_ERRORS];

    /* timing model (array-timing.c) */
    const struct TimingDriveProfile *perf;
    int timing_idx;             /* model drive index, -1: not yet */

    /* fault injection (drive-fault.c), runtime QOM properties */
    uint32_t fault_delay_ms;    /* delay-ms: commands start this late */
    uint32_t fault_jitter_ms;   /* delay-jitter-ms: plus random 0..this */
    bool fault_unresponsive;    /* unresponsive: commands wait */
    uint8_t fault_status;       /* inject-status: SCSI status ... */
    uint32_t fault_status_count; /* ... for this many more commands */
    GQueue fault_held;          /* MRTargetReq waiting for the two above */

    /* what the drive reports about its health (drive-health.c) */
    uint32_t health_media_errors;   /* media-errors */
    uint32_t health_other_errors;   /* other-errors */
    uint32_t health_pred_failures;  /* predictive-failures */
    bool health_smart_alert;        /* smart-alert */
    uint8_t health_temp_c;          /* temperature, Celsius; 0: none */

    /*
     * The locate LED (QOM "locate", drive-locate.c): set and cleared by
     * the management protocol's PD_LOCATE (mgmt-ops-locate.c), which
     * arms the timer of a locate for a number of seconds.
     */
    bool locate;
    QEMUTimer *locate_timer;        /* NULL: none armed */
    /*
     * The fault LED as the host asked for it (SES RQST FAULT, QOM
     * "fault-led"); the firmware lights it besides while the drive has
     * failed (array/drive-leds.c).
     */
    bool fault_led;
};

/* Number of bays the card offers for each interface kind. */
#define MR_MAX_NVME_DRIVES      32
#define MR_MAX_SAS_SATA_DRIVES  240

/* drive.c: injected media errors (byte ranges of the backend) */
bool mr_drive_media_error(MRDrive *d, uint64_t offset, uint64_t bytes,
                          uint64_t *bad_lba);
void mr_drive_media_rewritten(MRDrive *d, uint64_t offset, uint64_t bytes);
/* drive-state.c: the runtime QOM properties (state, media-error, ...) */
void mr_drive_state_class_init(ObjectClass *oc);
/* drive-fault.c: fault injection properties (delay-ms, unresponsive, ...) */
void mr_drive_fault_class_init(ObjectClass *oc);
/* drive-health.c: the runtime properties of the drive's health counters */
void mr_drive_health_class_init(ObjectClass *oc);
void mr_drive_health_instance_init(Object *obj);
/* drive-locate.c: the read-only property "locate"; the timer's end */
void mr_drive_locate_class_init(ObjectClass *oc);
void mr_drive_locate_cleanup(MRDrive *d);

#endif
