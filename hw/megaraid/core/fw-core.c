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
#include "hw/megaraid/fw-core.h"
#include "hw/megaraid/array/array.h"
#include "hw/megaraid/timing/array-timing.h"
#include "hw/megaraid/array/evlog-array.h"
#include "hw/megaraid/mgmt/mgmt-ops.h"
#include "hw/megaraid/qmp/qmp-megaraid.h"

/*
 * The import: read the drives' metadata, bring up the VDs and the cache.
 * A configuration it cannot use (a journal it cannot open, metadata that
 * cannot be used) is an error with its cause in @errp; the array is then
 * left as before (nothing written to the drives).
 */
static bool mr_core_import(MRCore *c, Error **errp)
{
    if (c->array->imported) {
        return true;
    }
    return mr_array_import(c->array, BUS(&c->bus), errp);
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
    MRCore *c = container_of(n, MRCore, machine_done);

    /* what the import logs reaches QMP clients when the machine runs */
    mr_qmp_events_hold(c->array, true);
    mr_core_import(c, &error_fatal);
    mr_qmp_events_hold(c->array, false);
}

/*
 * The properties' values into the array (the strings and drives stay the
 * properties'); again at realize changes nothing.
 */
static void mr_core_conf_apply(MRCore *c)
{
    MRArray *a = c->array;

    if (!c->conf.serial) {
        c->conf.serial = g_strdup(RAID_DEFAULT_SERIAL); /* QOM reads it */
    }
    a->serial = c->conf.serial;
    a->journal_blk = c->conf.journal_blk;
    a->journal_sync = c->conf.journal_sync;
    a->evlog_blk = c->conf.evlog_blk;
    a->import_foreign = c->conf.import_foreign;
    a->auto_rebuild = c->conf.auto_rebuild;
    a->cache_bytes = c->conf.cache_bytes;
    a->timing_on = c->conf.timing_on;
}

bool mr_core_claim_drives(MRCore *c, Error **errp)
{
    MRArray *a = c->array;

    /* the sizes needed follow the properties' values */
    mr_core_conf_apply(c);
    if (c->conf.journal_blk &&
        !mr_nv_drive_claim(c->conf.journal_blk, "journal",
                           mr_cache_journal_bytes(a),
                           "2 x cache-size, at least 4 MiB", errp)) {
        return false;
    }
    if (c->conf.evlog_blk &&
        !mr_nv_drive_claim(c->conf.evlog_blk, "event-log",
                           mr_evlog_bytes(MR_EVLOG_DEFAULT_ENTRIES),
                           "a header and 1024 entries of 128 bytes",
                           errp)) {
        return false;
    }
    return true;
}

bool mr_core_realize(MRCore *c, DeviceState *owner, const MRCoreIdentity *id,
                     const MRArrayOps *ops, void *opaque, Error **errp)
{
    MRArray *a = c->array;

    c->owner = owner;
    c->id = *id;
    a->owner = OBJECT(owner);
    if (!mr_core_claim_drives(c, errp)) {
        return false;
    }
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
    a->vd_made = mr_array_vd_props;
    a->product = id->product;
    a->vendor = id->vendor;
    a->vd_revision = id->vd_revision;
    a->max_xfer_bytes = id->max_xfer_bytes ?: 1 * MiB;
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
    mr_array_cleanup(c->array);
    c->bus.array = NULL;
    mr_qmp_events_detach(c->array);
    mr_ev_close(c->array);
    mr_timing_cleanup(c->array);
}

void mr_core_instance_init(MRCore *c)
{
    c->array = g_new0(MRArray, 1);
    mr_array_defaults(c->array);
    /* not a property default, so that -device help shows "256M" once */
    c->conf.cache_bytes = MR_CORE_CACHE_DEFAULT;
}

void mr_core_instance_finalize(MRCore *c)
{
    g_free(c->mgmt);
    c->mgmt = NULL;
    g_free(c->array);
    c->array = NULL;
}

bool mr_core_drive_plugged(MRCore *c, MRDrive *d)
{
    d->unit.sat_vendor = c->id.sat_vendor;
    d->unit.sat_product = c->id.sat_product;
    if (c->array->imported) {
        return mr_array_drive_plugged(c->array, d);
    }
    return true;
}

void mr_core_drive_unplugging(MRCore *c, MRDrive *d)
{
    if (c->array->imported) {
        mr_array_drive_removed(c->array, d);
    }
}

void mr_core_submit(MRCore *c, MRTargetReq *req, MRTargetDone *done,
                    void *opaque, int64_t arrival_ns)
{
    req->done = done;
    req->opaque = opaque;
    req->timing = c->array->timing;
    if (req->timing) {
        req->arrival_ns = arrival_ns;
    }
    mr_target_submit(req);
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
    /* the runtime properties find the array through MRCore.array */
    ptrdiff_t array_offset = core_offset + offsetof(MRCore, array);

    object_class_property_set_description(oc, "serial",
        "controller serial number: the owner of the RAID metadata on the "
        "drives (default MRSIM00000000001, as megaraid-img)");
    object_class_property_set_description(oc, "journal",
        "drive (-blockdev node name or -drive id, at least 2 x cache-size "
        "and 4 MiB) that keeps the write-back cache across a crash (the "
        "CacheVault's flash); without it write-back VDs run write-through");
    object_class_property_set_description(oc, "journal-sync",
        "on: each write-back write is acknowledged once its journal record "
        "is flushed to the journal drive (survives a host crash); off: once "
        "it is written (survives QEMU's crash or kill; FUA writes and "
        "SYNCHRONIZE CACHE wait for the flush)");
    object_class_property_set_description(oc, "event-log",
        "drive (-blockdev node name or -drive id, at least 129 KiB) that "
        "keeps the controller's event log across a restart (the card's "
        "NVRAM; a blank drive starts an empty log, a damaged one is "
        "refused); without it the log is kept for this run only");
    object_class_property_set_description(oc, "import-foreign",
        "adopt a configuration written by another controller at start");
    object_class_property_set_description(oc, "auto-rebuild",
        "rebuild onto a drive inserted in a failed member's bay");
    object_class_property_set_description(oc, "cache-size",
        "controller cache for write-back VDs (default 256M)");
    object_class_property_set_description(oc, "timing",
        "on: hold every completion until the card's modelled time and pace "
        "rebuild, check and initialization by the model (controller profile "
        "from model=, drive profiles from perf-profile=); off: as fast as "
        "the host can");
    mr_array_class_props(oc, array_offset);
    mr_timing_class_props(oc, array_offset);
}

const MRCoreModel *mr_core_find_model(const MRCoreModel *table, size_t count,
                                      size_t stride, const char *device,
                                      const char *name, Error **errp)
{
    g_autoptr(GString) names = g_string_new(NULL);

    for (size_t i = 0; i < count; i++) {
        const MRCoreModel *m = (const void *)((const char *)table +
                                              i * stride);

        if (!g_ascii_strcasecmp(name, m->name)) {
            return m;
        }
        g_string_append_printf(names, "%s%s", i ? ", " : "", m->name);
    }
    error_setg(errp, "%s: model '%s' is unknown; allowed: %s", device, name,
               names->str);
    return NULL;
}

/* ---- what a personality reads ---- */

MRVirtualDisk *mr_core_vd(MRCore *c, int idx)
{
    if (idx < 0 || idx >= RAID_MAX_VDS || !c->array->cfg ||
        c->array->adopting) {
        return NULL;            /* (an import's VDs: not yet) */
    }
    return c->array->vds[idx];
}

bool mr_core_drive_hidden(MRCore *c, MRDrive *d)
{
    return mr_array_drive_hidden(c->array, d);
}

const char *mr_core_serial(MRCore *c)
{
    return c->array->serial;
}

MRCacheVaultState mr_core_cachevault(MRCore *c)
{
    return c->array->cachevault;
}

struct MRTiming *mr_core_timing(MRCore *c)
{
    return c->array->timing;
}

MREvLog *mr_core_evlog(MRCore *c)
{
    return c->array->evlog;
}

void mr_core_log_ctrl(MRCore *c, MREvCode code, uint32_t arg0)
{
    mr_ev_ctrl(c->array, code, arg0);
}

/* The management operations, set up at the first request. */
static MRMgmt *mr_core_mgmt(MRCore *c, const MRMgmtHostOps *ops,
                            void *opaque)
{
    if (!c->mgmt) {
        c->mgmt = g_new0(MRMgmt, 1);
        mr_mgmt_init(c->mgmt, c->array, BUS(&c->bus), ops, opaque);
        g_strlcpy(c->mgmt->fw_version, c->id.fw_version ?: "",
                  sizeof(c->mgmt->fw_version));
    }
    return c->mgmt;
}

void mr_core_mgmt_execute_async(MRCore *c, const MRMgmtHostOps *ops,
                                void *opaque, const uint8_t *cmd,
                                size_t cmd_len, uint8_t *resp,
                                size_t resp_cap, MRMgmtDone *done,
                                void *done_opaque)
{
    mr_mgmt_execute_async(mr_core_mgmt(c, ops, opaque), cmd, cmd_len, resp,
                          resp_cap, done, done_opaque);
}
