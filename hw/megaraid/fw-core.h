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
 * its plug/unplug callbacks.
 */
#ifndef HW_MEGARAID_FW_CORE_H
#define HW_MEGARAID_FW_CORE_H

#include "qemu/units.h"
#include "qemu/notify.h"
#include "hw/qdev-properties.h"
#include "hw/pci/pci_device.h"
#include "hw/megaraid/drive.h"
#include "array.h"
#include "mgmt-ops.h"

/* Who the controller is: recorded in the DDF header it writes. */
typedef struct MRCoreIdentity {
    const char *model;          /* model= name */
    /* the controller's timing profile (raid/timing.h); NULL: model */
    const char *timing_profile;
    const char *product;        /* "MegaRAID 9670W-16i" */
    uint16_t pci_vendor;
    uint16_t pci_device;
    uint16_t subsys_vendor;
    uint16_t subsys_id;
} MRCoreIdentity;

typedef struct MRCore {
    DeviceState *owner;         /* the personality's device */
    MRBus bus;                  /* the drive bays */
    MRArray array;              /* configuration, VDs, cache, jobs */
    MRMgmt mgmt;                /* set up by the personality at first use */
    Notifier machine_done;      /* import once every drive exists */
} MRCore;

/*
 * The properties every personality offers, for its Property table
 * (@_state: the device state type, @_core: its MRCore field).
 */
#define DEFINE_MR_CORE_PROPERTIES(_state, _core)                         \
    DEFINE_PROP_STRING("serial", _state, _core.array.serial),           \
    DEFINE_PROP_STRING("journal", _state, _core.array.journal_path),    \
    DEFINE_PROP_BOOL("journal-sync", _state, _core.array.journal_sync,  \
                     false),                                             \
    DEFINE_PROP_STRING("event-log", _state, _core.array.evlog_path),    \
    DEFINE_PROP_BOOL("import-foreign", _state,                           \
                     _core.array.import_foreign, false),                \
    DEFINE_PROP_BOOL("auto-rebuild", _state, _core.array.auto_rebuild,  \
                     true),                                              \
    DEFINE_PROP_SIZE("cache-size", _state, _core.array.cache_bytes,     \
                     256 * MiB),                                         \
    DEFINE_PROP_BOOL("timing", _state, _core.array.timing_on, false)

/*
 * Descriptions of the properties above and the runtime QOM properties of
 * the array and the timing model; @core_offset: the MRCore's offset in
 * the device state.
 */
void mr_core_class_init(ObjectClass *oc, ptrdiff_t core_offset);

/*
 * Start the timing model (timing=on), open the event log, create the
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

/* The personality's plug callback accepted @d / its unplug is removing it. */
void mr_core_drive_plugged(MRCore *c, MRDrive *d);
void mr_core_drive_unplugging(MRCore *c, MRDrive *d);

#endif
