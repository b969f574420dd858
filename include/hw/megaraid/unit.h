/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SCSI logical unit the controller firmware presents,
 * independent of the host interface and of what backs it.
 *
 * An MRUnit is what the SCSI target (target.h) executes commands on: its
 * identity (INQUIRY, VPD pages), its geometry (READ CAPACITY, block
 * limits), the state the guest changes through mode pages and what the log
 * pages count.  Exactly one of drive, vd and ses is set:
 *
 *  - a JBOD drive: the MRDrive's own unit (MRDrive.unit, filled at
 *    realize); media access, injected media errors, fault injection and
 *    the timing profile go through unit->drive;
 *  - a RAID virtual disk: MRVirtualDisk.unit, filled by the array when
 *    the VD is made (array.c); media access goes to the VD's data path;
 *  - an enclosure's SES device (ses.h): no medium, the target's SES
 *    device server (target-ses.c) answers it.
 *
 * A host interface finds units by its own addressing (MPI3: device
 * handles) and hands them to the target in MRTargetReq.unit.
 */
#ifndef HW_MEGARAID_UNIT_H
#define HW_MEGARAID_UNIT_H

typedef enum MRDriveInterface {
    MR_IF_NVME = 0,
    MR_IF_SAS,
    MR_IF_SATA,
} MRDriveInterface;

typedef enum MRDriveMedia {
    MR_MEDIA_SSD = 0,
    MR_MEDIA_HDD,
} MRDriveMedia;

#define MR_SELFTEST_LOG 8

/*
 * State of the SCSI target for the unit: mode page settings the guest can
 * change and the counters LOG SENSE and SMART report.  Owned by
 * hw/megaraid/target*.c; reset when the unit is made.
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
    int64_t realized_ns;        /* QEMU_CLOCK_REALTIME when made */
    /* self-test log, most recent first (SEND DIAGNOSTIC, SMART) */
    uint8_t selftest_count;
    uint8_t selftest_code[MR_SELFTEST_LOG];     /* 1 short, 2 extended */
    uint32_t selftest_hours[MR_SELFTEST_LOG];   /* power-on hours */
} MRTargetState;

typedef struct MRUnit {
    /* identity */
    MRDriveInterface iface;     /* a VD presents itself as SAS */
    MRDriveMedia media;
    char *vendor;
    char *model;
    char *serial;
    char *firmware;
    uint64_t wwn;
    /*
     * Non-zero: the logical unit's name is NAA 6 (IEEE Registered
     * Extended, 16 bytes): wwn, then this vendor specific extension
     * (RAID volumes; a drive's wwn is an 8-byte NAA 5 name).
     */
    uint64_t wwn_ext;
    uint32_t rotation_rate;     /* 1 for SSD, RPM for HDD */
    /*
     * Drive: its bay slot.  VD: set by the host interface (MPI3: the
     * device handle).  The target's traces print it; the SAS phy log
     * page derives an attached address from it.
     */
    uint32_t slot;
    /*
     * What the target's traces call the unit: "drive 3" (its bay slot),
     * "vd 0" (its index in the configuration), whatever the host
     * interface calls it.
     */
    char name[16];
    /*
     * The controller's SCSI-to-ATA translation as a SATA drive's ATA
     * Information VPD page names it (the personality's MRCoreIdentity).
     */
    const char *sat_vendor;
    const char *sat_product;
    /*
     * The id the host interface gave the unit: megaraid-9600 its MPI3
     * device handle (0: none yet, hidden or removed); megaraid-9500 a
     * JBOD's PD id or a VD's LD target id (0 is a valid id there).
     */
    uint16_t host_id;

    /* geometry */
    uint32_t block_size;        /* 512 or 4096 */
    uint32_t phys_block_size;   /* >= block_size, power of two multiple */
    uint64_t num_blocks;        /* capacity in logical blocks */
    uint32_t opt_gran_blocks;   /* VD: strip, in logical blocks */
    uint32_t opt_xfer_blocks;   /* VD: full stripe, in logical blocks */
    bool discard;               /* LBP offered (UNMAP, WRITE SAME unmap) */
    bool read_only;

    MRTargetState ts;
    /* timing model (array-timing.c): end of the last I/O, sequential hint */
    uint64_t timing_next_lba;

    /* what backs the unit: exactly one is set */
    struct MRDrive *drive;      /* JBOD drive: unit embedded in it */
    struct MRVirtualDisk *vd;   /* RAID VD: unit owned by it */
    struct MRSes *ses;          /* SES device: unit embedded in it */
} MRUnit;

#endif
