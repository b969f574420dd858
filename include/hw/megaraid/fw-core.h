/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the firmware core every host-interface personality embeds.
 *
 * What a MegaRAID card does whatever its host interface: the drive bays
 * (the megaraid-bus its megaraid-drive devices plug into), the RAID
 * configuration with its cache, jobs and timing model (MRArray), the
 * management operations (MRMgmt), the event log and its QMP events, the
 * controller's identity as the metadata on the drives records it, the
 * properties that configure all of these, and the import of the
 * configuration once the drives given on the command line exist.
 *
 * A personality (megaraid-9600: MPI3) owns the PCI function, the host
 * interface and whatever it tells the host about drives and VDs (device
 * handles, events).  It embeds an MRCore, adds DEFINE_MR_CORE_PROPERTIES
 * to its property table, calls mr_core_class_init() from its class_init,
 * mr_core_realize()/mr_core_unrealize() from its realize/exit, and, as
 * the bus's hotplug handler, mr_core_drive_plugged()/_unplugging() from
 * its plug/unplug callbacks.  It includes only the core's public headers
 * (include/hw/megaraid/): what it reads of the array is below and in
 * vd.h.
 */
#ifndef HW_MEGARAID_FW_CORE_H
#define HW_MEGARAID_FW_CORE_H

#include "qemu/units.h"
#include "qemu/notify.h"
#include "hw/qdev-properties.h"
#include "hw/pci/pci_device.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/vd.h"
#include "hw/megaraid/evlog.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/nv-drive.h"

typedef struct MRArray MRArray;
typedef struct MRMgmt MRMgmt;

/*
 * One entry of a personality's model table (model=): a personality's own
 * model type starts with it.
 */
typedef struct MRCoreModel {
    const char *name;           /* model= name: "9670w-16i" */
    const char *product;        /* "MegaRAID 9670W-16i", "PERC H755N Front" */
    const char *vendor;         /* its VDs' INQUIRY vendor: "BROADCOM" */
    uint16_t subsys_vendor;
    uint16_t subsys_id;
} MRCoreModel;

/*
 * The entry of @table (@count entries @stride bytes apart) named @name
 * (case-insensitive); NULL with @errp naming @device and the allowed
 * names.
 */
const MRCoreModel *mr_core_find_model(const MRCoreModel *table, size_t count,
                                      size_t stride, const char *device,
                                      const char *name, Error **errp);

/*
 * Who the controller is: the DDF header it writes records the PCI ids and
 * the product; its VDs report vendor, product, revision; its SATL names
 * itself in a SATA drive's ATA Information page; the management
 * protocol's controller info gives the firmware version.
 */
typedef struct MRCoreIdentity {
    const char *model;          /* model= name */
    /* the controller's timing profile (raid/timing.h); NULL: model */
    const char *timing_profile;
    const char *product;        /* "MegaRAID 9670W-16i" */
    const char *vendor;         /* the VDs' INQUIRY vendor: "BROADCOM" */
    const char *fw_version;     /* the firmware package: "8.9.1.0-18" */
    const char *vd_revision;    /* the VDs' INQUIRY revision: "5.29" */
    const char *sat_vendor;     /* ATA Information VPD: "BROADCOM" */
    const char *sat_product;    /* ... "MR9670W SATL" */
    /* limits: the most one request to a VD moves (0: 1 MiB) */
    uint32_t max_xfer_bytes;
    uint16_t pci_vendor;
    uint16_t pci_device;
    uint16_t subsys_vendor;
    uint16_t subsys_id;
} MRCoreIdentity;

/* The values of DEFINE_MR_CORE_PROPERTIES, read at realize. */
typedef struct MRCoreConf {
    char *serial;               /* controller serial: gives the ctrl GUID */
    BlockBackend *journal_blk;  /* journal= drive (nv-drive.h), NULL: none */
    bool journal_sync;
    BlockBackend *evlog_blk;    /* event-log= drive, NULL: in memory */
    bool import_foreign;
    bool auto_rebuild;
    uint64_t cache_bytes;
    bool timing_on;
} MRCoreConf;

/*
 * What a personality embeds.  The array (configuration, VDs, cache, jobs)
 * and the management operations are the core's own: a personality reads
 * them through the functions below and vd.h.
 */
typedef struct MRCore {
    DeviceState *owner;         /* the personality's device */
    MRBus bus;                  /* the drive bays */
    MRCoreConf conf;            /* properties */
    MRCoreIdentity id;          /* copied at realize */
    MRArray *array;             /* mr_core_instance_init() .. _finalize() */
    MRMgmt *mgmt;               /* at the first management request */
    Notifier machine_done;      /* import once every drive exists */
} MRCore;

/* cache-size when not given (set in mr_core_instance_init) */
#define MR_CORE_CACHE_DEFAULT   (256 * 1024 * 1024ULL)

/*
 * The properties every personality offers, for its Property table
 * (@_state: the device state type, @_core: its MRCore field).
 */
#define DEFINE_MR_CORE_PROPERTIES(_state, _core)                         \
    DEFINE_PROP_STRING("serial", _state, _core.conf.serial),            \
    DEFINE_PROP_MR_NV_DRIVE("journal", _state, _core.conf.journal_blk), \
    DEFINE_PROP_BOOL("journal-sync", _state, _core.conf.journal_sync,   \
                     false),                                             \
    DEFINE_PROP_MR_NV_DRIVE("event-log", _state, _core.conf.evlog_blk), \
    DEFINE_PROP_BOOL("import-foreign", _state,                           \
                     _core.conf.import_foreign, false),                 \
    DEFINE_PROP_BOOL("auto-rebuild", _state, _core.conf.auto_rebuild,   \
                     true),                                              \
    DEFINE_PROP_UNSIGNED_NODEFAULT("cache-size", _state,                 \
                                   _core.conf.cache_bytes, qdev_prop_size, \
                                   uint64_t),                            \
    DEFINE_PROP_BOOL("timing", _state, _core.conf.timing_on, false)

/*
 * Descriptions of the properties above and the runtime QOM properties of
 * the array and the timing model; @core_offset: the MRCore's offset in
 * the device state.
 */
void mr_core_class_init(ObjectClass *oc, ptrdiff_t core_offset);
/* From the personality's instance_init / instance_finalize. */
void mr_core_instance_init(MRCore *c);
void mr_core_instance_finalize(MRCore *c);

/*
 * Claim the state drives (journal=, event-log=: nv-drive.h): writable,
 * locked, large enough.  A personality calls it first in its realize,
 * before it sets anything up, so that a refused drive leaves nothing
 * behind; mr_core_realize() calls it again (a no-op then).
 */
bool mr_core_claim_drives(MRCore *c, Error **errp);

/*
 * Claim the state drives (mr_core_claim_drives()), start the
 * timing model (timing=on), open the event log, create the
 * drive bays with @owner as their hotplug handler, and import the RAID
 * configuration once the machine is ready (at once for a hot-plugged
 * controller).  @ops tell the personality of VD and drive changes.
 * Configuration errors are errors in @errp, with nothing left set up;
 * those found by the import of a cold-plugged controller, after realize,
 * end QEMU's start through error_fatal (a machine-done notifier cannot
 * fail), those of a hot-plugged one fail its device_add.
 */
bool mr_core_realize(MRCore *c, DeviceState *owner, const MRCoreIdentity *id,
                     const MRArrayOps *ops, void *opaque, Error **errp);
/* Write everything back, close the configuration and the event log. */
void mr_core_unrealize(MRCore *c);

/*
 * True if [addr, addr + len) is guest RAM that @pci's bus-master DMA
 * reaches.  The controllers never DMA anywhere else (no MMIO, no holes,
 * no ROM).
 */
bool mr_core_dma_ok(PCIDevice *pci, uint64_t addr, uint64_t len);

/*
 * The queue depth the firmware tells the host for @u, whatever the host
 * interface: 128 for a VD and an NVMe drive, 64 for SAS, 32 for SATA.
 */
uint16_t mr_core_queue_depth(const MRUnit *u);

/*
 * Request intake, whatever the host interface: @req's unit, lun, CDB,
 * direction, data length and scatter list are filled; the core adds
 * @done and @opaque, the timing model's state and @arrival_ns (when the
 * request arrived, QEMU_CLOCK_VIRTUAL; used with timing=on) and submits
 * it to the SCSI target (target.h), which calls @done once.
 */
void mr_core_submit(MRCore *c, MRTargetReq *req, MRTargetDone *done,
                    void *opaque, int64_t arrival_ns);

/*
 * The personality's plug callback accepted @d / its unplug is removing it.
 * mr_core_drive_plugged() returns true when @d's place is known (tell the
 * host of it now), false when it is pending: a hot plug while running,
 * its metadata being read; the host is told nothing of it (hidden, no
 * I/O) until MRArrayOps.drive_arrived.
 */
bool mr_core_drive_plugged(MRCore *c, MRDrive *d);
void mr_core_drive_unplugging(MRCore *c, MRDrive *d);

/* ---- what a personality reads and asks of the core ---- */

/* The run-time VD @idx, NULL: none (no configuration, deleted). */
MRVirtualDisk *mr_core_vd(MRCore *c, int idx);
/* Is @d hidden from the host (array member, spare, foreign)? */
bool mr_core_drive_hidden(MRCore *c, MRDrive *d);
/* The controller serial (serial=), NULL: the default. */
const char *mr_core_serial(MRCore *c);
MRCacheVaultState mr_core_cachevault(MRCore *c);
/* The timing model for MRTargetReq.timing; NULL: timing=off. */
struct MRTiming *mr_core_timing(MRCore *c);
/* The controller's event log (evlog.h), and a controller entry in it. */
MREvLog *mr_core_evlog(MRCore *c);
void mr_core_log_ctrl(MRCore *c, MREvCode code, uint32_t arg0);

/* What the management operations ask of the host interface. */
typedef struct MRMgmtHostOps {
    /* VD @vd is about to be deleted: stop and withdraw its host device. */
    void (*vd_removing)(void *opaque, MRVirtualDisk *vd);
    /*
     * May a new VD take index @idx now?  (The host may still be letting
     * go of a deleted VD's device there.)  NULL: always.
     */
    bool (*vd_slot_free)(void *opaque, int idx);
} MRMgmtHostOps;

/*
 * Run the management request in @cmd (@cmd_len bytes, mgmt-proto.h) and
 * write the reply into @resp (at most @resp_cap bytes, at least a
 * MgmtReply); @done gets the reply's length (@resp must live until then):
 * at once, or, when the request changed the configuration,
 * once the metadata recording the change is on the drives, with
 * MGMT_STAT_IO_ERROR if a drive refused it (docs/management-protocol.md).
 * The main loop goes on meanwhile.  @done may come after the host
 * interface was reset: it checks that itself.  The first call sets up
 * the operations with @ops and @opaque.  Never fails: a malformed request
 * gets an error status.
 */
typedef void MRMgmtDone(void *done_opaque, size_t len);
void mr_core_mgmt_execute_async(MRCore *c, const MRMgmtHostOps *ops,
                                void *opaque, const uint8_t *cmd,
                                size_t cmd_len, uint8_t *resp,
                                size_t resp_cap, MRMgmtDone *done,
                                void *done_opaque);

#endif
