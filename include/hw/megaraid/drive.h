/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: drives in the controller's bays.
 *
 * A megaraid-drive sits on the controller's megaraid-bus ("<ctrl-id>.0").
 * It owns its backing BlockBackend and its identity (interface, media,
 * vendor/model/serial/firmware, WWN, logical block size).  The controller
 * sees drives only through this header and the SCSI target (target.h).
 */
#ifndef HW_MEGARAID_DRIVE_H
#define HW_MEGARAID_DRIVE_H

#include "hw/qdev-core.h"
#include "hw/block/block.h"
#include "system/block-backend.h"
#include "qom/object.h"

#define TYPE_MEGARAID_BUS "megaraid-bus"
OBJECT_DECLARE_SIMPLE_TYPE(MRBus, MEGARAID_BUS)

#define TYPE_MEGARAID_DRIVE "megaraid-drive"
OBJECT_DECLARE_SIMPLE_TYPE(MRDrive, MEGARAID_DRIVE)

typedef enum MRDriveInterface {
    MR_IF_NVME = 0,
    MR_IF_SAS,
    MR_IF_SATA,
} MRDriveInterface;

typedef enum MRDriveMedia {
    MR_MEDIA_SSD = 0,
    MR_MEDIA_HDD,
} MRDriveMedia;

struct MRBus {
    BusState parent_obj;
    struct MRArray *array;      /* the controller's RAID configuration */
};

/* An LBA range whose reads fail (injected from the host, QOM media-error). */
typedef struct MRMediaError {
    uint64_t lba;               /* logical blocks */
    uint64_t count;
} MRMediaError;

#define MR_MAX_MEDIA_ERRORS 16

#define MR_SELFTEST_LOG 8

/*
 * State of the SCSI target the firmware presents for the drive: mode page
 * settings the guest can change and the counters LOG SENSE and SMART
 * report.  Owned by hw/megaraid/target*.c; reset at realize.
 */
typedef struct MRTargetState {
    bool wce;                   /* caching page WCE (current) */
    bool saved_wce;             /* caching page WCE (saved) */
    bool default_wce;           /* caching page WCE (default) */
    bool d_sense;               /* control page D_SENSE: descriptor sense */
    bool dexcpt;                /* IE page DEXCPT: exceptions disabled */
    uint8_t mrie;               /* IE page MRIE */
    bool stopped;               /* START STOP UNIT with START=0 */
    uint32_t start_stop_cycles;
    uint64_t blocks_read;
    uint64_t blocks_written;
    uint32_t read_errors;       /* uncorrected, from the backend */
    uint32_t write_errors;
    int64_t realized_ns;        /* QEMU_CLOCK_REALTIME at realize */
    /* self-test log, most recent first (SEND DIAGNOSTIC, SMART) */
    uint8_t selftest_count;
    uint8_t selftest_code[MR_SELFTEST_LOG];     /* 1 short, 2 extended */
    uint32_t selftest_hours[MR_SELFTEST_LOG];   /* power-on hours */
} MRTargetState;

struct MRDrive {
    DeviceState parent_obj;

    /* properties */
    BlockConf conf;             /* drive=, logical_block_size=, ... */
    uint32_t slot;
    uint32_t enclosure;
    char *interface_str;        /* "nvme" | "sas" | "sata" */
    char *media_str;            /* "ssd" | "hdd" */
    char *vendor;
    char *model;
    char *serial;
    char *firmware;
    uint64_t wwn;               /* 0: derived from controller and slot */
    /*
     * Non-zero: the logical unit's name is NAA 6 (IEEE Registered
     * Extended, 16 bytes): wwn, then this vendor specific extension
     * (RAID volumes; a drive's wwn is an 8-byte NAA 5 name).
     */
    uint64_t wwn_ext;
    uint32_t rotation_rate;     /* 1 for SSD, RPM for HDD */
    char *perf_str;             /* timing: performance profile name */
    uint64_t modelled_capacity; /* timing: bytes, 0 = the profile's */

    /* derived at realize */
    MRDriveInterface iface;
    MRDriveMedia media;
    uint32_t block_size;        /* 512 or 4096 */
    uint32_t phys_block_size;   /* >= block_size, power of two multiple */
    uint64_t num_blocks;        /* capacity in logical blocks */
    bool discard;               /* ssd with discard=unmap: LBP offered */
    bool read_only;
    uint16_t dev_handle;        /* assigned by the controller on plug */
    bool in_array;              /* member of a RAID array: hidden from host */
    /* The SCSI target of a RAID VD: not a device on the bus (array.c). */
    struct MRVirtualDisk *vd;
    uint32_t opt_gran_blocks;   /* VD: strip, in logical blocks */
    uint32_t opt_xfer_blocks;   /* VD: full stripe, in logical blocks */
    uint32_t n_media_errors;
    MRMediaError media_errors[MR_MAX_MEDIA_ERRORS];

    MRTargetState ts;

    /* timing model (array-timing.c) */
    const struct TimingDriveProfile *perf;
    int timing_idx;             /* model drive index, -1: not yet */
    uint64_t timing_next_lba;   /* end of the last I/O: sequential hint */

    /* fault injection (drive-fault.c), runtime QOM properties */
    uint32_t fault_delay_ms;    /* delay-ms: commands start this late */
    uint32_t fault_jitter_ms;   /* delay-jitter-ms: plus random 0..this */
    bool fault_unresponsive;    /* unresponsive: commands wait */
    uint8_t fault_status;       /* inject-status: SCSI status ... */
    uint32_t fault_status_count; /* ... for this many more commands */
    GQueue fault_held;          /* MRTargetReq waiting for the two above */
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

#endif
