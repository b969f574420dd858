/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the firmware core's life cycle (fw-core.h): its shared
 * properties, bring-up and tear-down in the order the parts depend on
 * each other (timing model and event log before the array, the array
 * before the import), the import once the command line's drives exist,
 * the array's part of drive hot plug, and the DMA check both host
 * interfaces apply to every guest address.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "hw/qdev-core.h"
#include "qemu/rcu.h"
#include "system/system.h"
#include "exec/memory.h"
#include "fw-core.h"
#include "array-timing.h"
#include "evlog-array.h"
#include "qmp-megaraid.h"

/*
 * The import: read the drives' metadata, bring up the VDs and the cache.
 * A configuration it cannot use (a journal it cannot open, metadata that
 * cannot be used) is an error with its cause in @errp; the array is then
 * left as before (nothing written to the drives).
 */
static bool mr_core_import(MRCore *c, Error **errp)
{
    if (c->array.imported) {
        return true;
    }
    return mr_array_import(&c->array, BUS(&c->bus), errp);
}

/*
 * Cold-plugged controllers import once the command line's drives exist.
 * A notifier cannot fail, so, as the PC machine's own machine-done
 * notifier does with its CXL set-up, an error here ends the start through
 * error_fatal: the message on stderr and exit status 1, before the guest
 * runs.
 */
static void mr_core_machine_done(Notifier *n, void *opaque)
{
    mr_core_import(container_of(n, MRCore, machine_done), &error_fatal);
}

bool mr_core_realize(MRCore *c, DeviceState *owner, const MRCoreIdentity *id,
                     const MRArrayOps *ops, void *opaque, Error **errp)
{
    MRArray *a = &c->array;

    c->owner = owner;
    a->owner = OBJECT(owner);
    if (a->timing_on &&
        !mr_timing_init(a, id->timing_profile ?: id->model, errp)) {
        return false;
    }
    if (!mr_ev_open(a, errp)) {
        mr_timing_cleanup(a);
        return false;
    }
    mr_qmp_events_attach(a);            /* MEGARAID_EVENT (qmp-events.c) */

    qbus_init(&c->bus, sizeof(c->bus), TYPE_MEGARAID_BUS, owner, NULL);
    qbus_set_hotplug_handler(BUS(&c->bus), OBJECT(owner));

    mr_array_init(a, ops, opaque);
    a->product = id->product;
    a->ctrl_type[0] = id->pci_vendor;
    a->ctrl_type[1] = id->pci_device;
    a->ctrl_type[2] = id->subsys_vendor;
    a->ctrl_type[3] = id->subsys_id;
    c->bus.array = a;
    if (phase_check(PHASE_MACHINE_READY)) {
        /* hot-plugged: its drives come later, one by one; device_add fails */
        if (!mr_core_import(c, errp)) {
            mr_core_unrealize(c);
            return false;
        }
    } else {
        c->machine_done.notify = mr_core_machine_done;
        qemu_add_machine_init_done_notifier(&c->machine_done);
    }
    return true;
}

void mr_core_unrealize(MRCore *c)
{
    if (c->machine_done.notify) {
        qemu_remove_machine_init_done_notifier(&c->machine_done);
        c->machine_done.notify = NULL;
    }
    mr_array_cleanup(&c->array);
    c->bus.array = NULL;
    mr_qmp_events_detach(&c->array);
    mr_ev_close(&c->array);
    mr_timing_cleanup(&c->array);
}

void mr_core_drive_plugged(MRCore *c, MRDrive *d)
{
    if (c->array.imported) {
        mr_array_drive_added(&c->array, d);
    }
}

void mr_core_drive_unplugging(MRCore *c, MRDrive *d)
{
    if (c->array.imported) {
        mr_array_drive_removed(&c->array, d);
    }
}

uint16_t mr_core_queue_depth(const MRUnit *u)
{
    if (u->vd || u->iface == MR_IF_NVME) {
        return 128;
    }
    return u->iface == MR_IF_SATA ? 32 : 64;
}

bool mr_core_dma_ok(PCIDevice *pci, uint64_t addr, uint64_t len)
{
    AddressSpace *as = pci_get_address_space(pci);

    if (len == 0 || addr + len < addr) {
        return false;
    }
    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, l = len;
        MemoryRegion *mr = address_space_translate(as, addr, &xlat, &l, true,
                                                   MEMTXATTRS_UNSPECIFIED);

        if (!memory_region_is_ram(mr) || mr->readonly ||
            memory_region_is_ram_device(mr) || l == 0) {
            return false;
        }
        addr += l;
        len -= l;
    }
    return true;
}

void mr_core_class_init(ObjectClass *oc, ptrdiff_t core_offset)
{
    ptrdiff_t array_offset = core_offset + offsetof(MRCore, array);

    object_class_property_set_description(oc, "serial",
        "controller serial number: the owner of the RAID metadata on the "
        "drives (default MRSIM00000000001, as megaraid-img)");
    object_class_property_set_description(oc, "journal",
        "file that keeps the write-back cache across a crash (the "
        "CacheVault's flash); without it write-back VDs run write-through");
    object_class_property_set_description(oc, "journal-sync",
        "on: each write-back write is acknowledged once its journal record "
        "is fdatasync'ed (survives a host crash); off: once it is written "
        "(survives QEMU's crash or kill; FUA writes and SYNCHRONIZE CACHE "
        "wait for the fdatasync)");
    object_class_property_set_description(oc, "event-log",
        "file that keeps the controller's event log across a restart (the "
        "card's NVRAM; created when missing, a damaged one is refused); "
        "without it the log is kept for this run only");
    object_class_property_set_description(oc, "import-foreign",
        "adopt a configuration written by another controller at start");
    object_class_property_set_description(oc, "auto-rebuild",
        "rebuild onto a drive inserted in a failed member's bay");
    object_class_property_set_description(oc, "cache-size",
        "controller cache for write-back VDs (default 256M)");
    object_class_property_set_description(oc, "timing",
        "on: hold every completion until the card's modelled time and pace "
        "rebuild, check and initialization by the model (controller profile "
        "from model=, drive profiles from perf-profile=); off (default): "
        "as fast as the host can");
    mr_array_class_props(oc, array_offset);
    mr_timing_class_props(oc, array_offset);
}
