/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the megaraid-drive device (a drive in one of the
 * controller's bays) and the megaraid-bus it plugs into.  Owns the
 * properties, their defaults from the drive profiles, and the checks at
 * realize: backend, block sizes, capacity, slot range and uniqueness,
 * identity strings, and the card's per-interface drive limits.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/block/block.h"
#include "system/block-backend.h"
#include "block/block-common.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/prop-help.h"
#include "drive-int.h"
#include "hw/megaraid/timing/array-timing.h"
#include "trace.h"

/* Smallest backing size accepted: 1 MiB. */
#define MR_DRIVE_MIN_BYTES  (1 * MiB)
#define MR_SLOT_AUTO        UINT32_MAX
#define MR_MAX_SLOTS        MR_MAX_SAS_SATA_DRIVES
#define MR_MAX_ENCLOSURE    255

static const char *const mr_if_names[] = {
    [MR_IF_NVME] = "nvme", [MR_IF_SAS] = "sas", [MR_IF_SATA] = "sata",
};

static bool mr_parse_enum(const char *prop, const char *val,
                          const char *const *names, int count, int dflt,
                          int *out, Error **errp)
{
    ERRP_GUARD();
    int i;

    if (!val) {
        *out = dflt;
        return true;
    }
    for (i = 0; i < count; i++) {
        if (!strcmp(val, names[i])) {
            *out = i;
            return true;
        }
    }
    error_setg(errp, "megaraid-drive: %s=%s is not valid", prop, val);
    if (count == 3) {
        error_append_hint(errp, "Allowed values: %s, %s, %s\n",
                          names[0], names[1], names[2]);
    } else {
        error_append_hint(errp, "Allowed values: %s, %s\n",
                          names[0], names[1]);
    }
    return false;
}

/* An identity string: printable ASCII, at most max characters. */
static bool mr_check_ident(const char *prop, const char *val, size_t max,
                           Error **errp)
{
    size_t i, l = strlen(val);

    if (l == 0 || l > max) {
        error_setg(errp, "megaraid-drive: %s='%s' must have 1 to %zu "
                   "characters", prop, val, max);
        return false;
    }
    for (i = 0; i < l; i++) {
        if (val[i] < 0x20 || val[i] > 0x7e) {
            error_setg(errp, "megaraid-drive: %s must be printable ASCII",
                       prop);
            return false;
        }
    }
    return true;
}

/* A number that differs for every (bus, enclosure, slot). */
static uint32_t mr_drive_seed(MRDrive *d)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(d));
    uint32_t h = bus && bus->name ? g_str_hash(bus->name) : 0;

    return ((h & 0xff) << 16 | (d->enclosure & 0xff) << 8 | d->slot) *
           0x9e3779b1u;
}

static void mr_drive_defaults(MRDrive *d, const MRDriveProfile *p)
{
    uint32_t seed = mr_drive_seed(d);

    if (!d->unit.vendor) {
        d->unit.vendor = g_strdup(p->vendor);
    }
    if (!d->unit.model) {
        d->unit.model = g_strdup(p->model);
    }
    if (!d->unit.firmware) {
        d->unit.firmware = g_strdup(p->firmware);
    }
    if (!d->unit.serial) {
        uint32_t mask = p->serial_digits >= 8 ? UINT32_MAX :
                        (1u << (4 * p->serial_digits)) - 1;

        d->unit.serial = g_strdup_printf("%s%0*X%s", p->serial_prefix,
                                    p->serial_digits, seed & mask,
                                    p->serial_suffix);
    }
    if (!d->unit.wwn) {
        /* NAA 5, the vendor's OUI, 36 bits from the bay, ports at +1..3 */
        d->unit.wwn = (5ULL << 60) | ((uint64_t)p->oui << 36) |
                 (((uint64_t)seed << 4) & 0xffffffff0ULL);
    }
    if (!d->unit.rotation_rate) {
        d->unit.rotation_rate = p->rotation_rate;
    }
}

/* Is bay @slot of enclosure @encl taken by a realized sibling of @d? */
static bool mr_drive_bay_used(MRDrive *d, uint32_t encl, uint32_t slot)
{
    BusChild *kid;

    QTAILQ_FOREACH(kid, &qdev_get_parent_bus(DEVICE(d))->children, sibling) {
        MRDrive *o = (MRDrive *)object_dynamic_cast(OBJECT(kid->child),
                                                     TYPE_MEGARAID_DRIVE);

        if (o && o != d && DEVICE(o)->realized && o->enclosure == encl &&
            o->slot == slot) {
            return true;
        }
    }
    return false;
}

/*
 * Slot uniqueness and the card's limits, against realized siblings.  A
 * drive with no slot takes the first free bay of its enclosure or, when
 * that one is full, of the next enclosure with room (so that the card's
 * 272 drives can be given without slot numbers).
 */
static bool mr_drive_check_bus(MRDrive *d, Error **errp)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(d));
    uint32_t nvme = 0, other = 0, encl, slot;
    g_autofree bool *used = g_new0(bool, MR_MAX_SLOTS);
    BusChild *kid;

    QTAILQ_FOREACH(kid, &bus->children, sibling) {
        MRDrive *o = (MRDrive *)object_dynamic_cast(OBJECT(kid->child),
                                                     TYPE_MEGARAID_DRIVE);

        if (!o || o == d || !DEVICE(o)->realized) {
            continue;
        }
        if (o->unit.iface == MR_IF_NVME) {
            nvme++;
        } else {
            other++;
        }
    }
    if (d->unit.iface == MR_IF_NVME && nvme >= MR_MAX_NVME_DRIVES) {
        error_setg(errp, "megaraid-drive: interface=nvme: the controller "
                   "takes at most %d NVMe drives", MR_MAX_NVME_DRIVES);
        return false;
    }
    if (d->unit.iface != MR_IF_NVME && other >= MR_MAX_SAS_SATA_DRIVES) {
        error_setg(errp, "megaraid-drive: interface=%s: the controller "
                   "takes at most %d SAS/SATA drives",
                   mr_if_names[d->unit.iface], MR_MAX_SAS_SATA_DRIVES);
        return false;
    }
    if (d->slot != MR_SLOT_AUTO) {
        if (d->slot >= MR_MAX_SLOTS) {
            error_setg(errp, "megaraid-drive: slot=%u is out of range "
                       "(0 to %d)", d->slot, MR_MAX_SLOTS - 1);
            return false;
        }
        if (mr_drive_bay_used(d, d->enclosure, d->slot)) {
            error_setg(errp, "megaraid-drive: slot=%u of enclosure=%u is "
                       "already taken", d->slot, d->enclosure);
            return false;
        }
        return true;
    }
    for (encl = d->enclosure; encl <= MR_MAX_ENCLOSURE; encl++) {
        memset(used, 0, MR_MAX_SLOTS * sizeof(*used));
        QTAILQ_FOREACH(kid, &bus->children, sibling) {
            MRDrive *o = (MRDrive *)object_dynamic_cast(OBJECT(kid->child),
                                                         TYPE_MEGARAID_DRIVE);

            if (o && o != d && DEVICE(o)->realized && o->enclosure == encl &&
                o->slot < MR_MAX_SLOTS) {
                used[o->slot] = true;
            }
        }
        for (slot = 0; slot < MR_MAX_SLOTS && used[slot]; slot++) {
            /* first free bay */
        }
        if (slot < MR_MAX_SLOTS) {
            d->enclosure = encl;
            d->slot = slot;
            return true;
        }
    }
    error_setg(errp, "megaraid-drive: no free slot in enclosure=%u or after",
               d->enclosure);
    return false;
}

static bool mr_drive_init_blk(MRDrive *d, Error **errp)
{
    ERRP_GUARD();
    BlockBackend *blk = d->conf.blk;
    int64_t len;

    if (!blk) {
        error_setg(errp, "megaraid-drive: property 'drive' is required");
        error_append_hint(errp, "Example: -drive if=none,id=d0,file=d0.img "
                          "-device megaraid-drive,drive=d0\n");
        return false;
    }
    /* a 4Kn drive: the physical block size follows the logical one */
    if (d->conf.logical_block_size > 512 && !d->conf.physical_block_size) {
        d->conf.physical_block_size = d->conf.logical_block_size;
    }
    if (!blkconf_blocksizes(&d->conf, errp)) {
        return false;
    }
    if (d->conf.logical_block_size != 512 &&
        d->conf.logical_block_size != 4096) {
        error_setg(errp, "megaraid-drive: logical_block_size=%u is not "
                   "supported (512 or 4096)", d->conf.logical_block_size);
        return false;
    }
    if (d->conf.physical_block_size > 4096) {
        error_setg(errp, "megaraid-drive: physical_block_size=%u is not "
                   "supported (at most 4096)", d->conf.physical_block_size);
        return false;
    }
    if (!blkconf_apply_backend_options(&d->conf,
                                       !blk_supports_write_perm(blk),
                                       false, errp)) {
        return false;
    }
    len = blk_getlength(blk);
    if (len < 0) {
        error_setg_errno(errp, -len, "megaraid-drive: cannot get the size "
                         "of drive '%s'", blk_name(blk));
        return false;
    }
    if (len < MR_DRIVE_MIN_BYTES) {
        error_setg(errp, "megaraid-drive: drive '%s' has %" PRId64 " bytes, "
                   "less than the 1 MiB minimum", blk_name(blk), len);
        return false;
    }
    d->unit.block_size = d->conf.logical_block_size;
    d->unit.phys_block_size = MAX(d->conf.physical_block_size,
                                  d->unit.block_size);
    d->unit.num_blocks = len / d->unit.block_size;
    d->unit.read_only = !blk_is_writable(blk);
    d->unit.discard = d->unit.media == MR_MEDIA_SSD &&
                      (blk_get_flags(blk) & BDRV_O_UNMAP);
    return true;
}

/*
 * NVMe page size and MDTS: what the drive's Device Page 0 reports and
 * NVMe ENCAPSULATED honours.  4 or 8 KiB pages (mpi3mr builds its PRP
 * lists in 8 KiB buffers and refuses other sizes); MDTS a power of two
 * from one page to 1 MiB (the controller's largest transfer).
 */
static bool mr_drive_check_nvme(MRDrive *d, Error **errp)
{
    if (d->nvme_page_size != 4096 && d->nvme_page_size != 8192) {
        error_setg(errp, "megaraid-drive: nvme-page-size=%u is not valid "
                   "(4096 or 8192)", d->nvme_page_size);
        return false;
    }
    if (!is_power_of_2(d->nvme_mdts) || d->nvme_mdts < d->nvme_page_size ||
        d->nvme_mdts > 1 * MiB) {
        error_setg(errp, "megaraid-drive: nvme-mdts=%u is not valid (a "
                   "power of two from nvme-page-size to 1048576)",
                   d->nvme_mdts);
        return false;
    }
    return true;
}

static void mr_drive_realize(DeviceState *dev, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(dev);
    static const char *const media_names[] = { "ssd", "hdd" };
    const MRDriveProfile *p;
    int v;

    if (!mr_parse_enum("interface", d->interface_str, mr_if_names, 3,
                       MR_IF_NVME, &v, errp)) {
        return;
    }
    d->unit.iface = v;
    if (!d->interface_str) {
        d->interface_str = g_strdup(mr_if_names[v]);    /* QOM reads it */
    }
    if (!mr_parse_enum("media", d->media_str, media_names, 2, MR_MEDIA_SSD,
                       &v, errp)) {
        return;
    }
    d->unit.media = v;
    if (!d->media_str) {
        d->media_str = g_strdup(media_names[v]);
    }
    p = mr_drive_profile(d->unit.iface, d->unit.media);
    if (!p) {
        error_setg(errp, "megaraid-drive: media=%s is not offered with "
                   "interface=%s", media_names[d->unit.media],
                   mr_if_names[d->unit.iface]);
        return;
    }
    if (d->enclosure > MR_MAX_ENCLOSURE) {
        error_setg(errp, "megaraid-drive: enclosure=%u is out of range "
                   "(0 to %d)", d->enclosure, MR_MAX_ENCLOSURE);
        return;
    }
    if (!mr_drive_init_blk(d, errp) || !mr_drive_check_bus(d, errp)) {
        return;
    }
    mr_drive_defaults(d, p);
    if (!mr_check_ident("vendor", d->unit.vendor, 8, errp) ||
        !mr_check_ident("model", d->unit.model,
                        d->unit.iface == MR_IF_SAS ? 16 : 40, errp) ||
        !mr_check_ident("serial", d->unit.serial, 20, errp) ||
        !mr_check_ident("firmware", d->unit.firmware,
                        d->unit.iface == MR_IF_SAS ? 4 : 8, errp)) {
        return;
    }
    if (d->unit.rotation_rate != 1 &&
        (d->unit.rotation_rate < 0x401 || d->unit.rotation_rate > 0xfffe)) {
        error_setg(errp, "megaraid-drive: rotation_rate=%u is not valid "
                   "(1 for non-rotating, or 1025 to 65534 rpm)",
                   d->unit.rotation_rate);
        return;
    }

    if (!mr_drive_check_nvme(d, errp) || !mr_drive_perf_realize(d, errp)) {
        return;
    }

    /* the drive's logical unit: identity and geometry are set above */
    d->unit.drive = d;
    d->unit.vd = NULL;
    d->unit.slot = d->slot;
    snprintf(d->unit.name, sizeof(d->unit.name), "drive %u", d->slot);
    memset(&d->unit.ts, 0, sizeof(d->unit.ts));
    d->unit.ts.wce = blk_enable_write_cache(d->conf.blk);
    d->unit.ts.saved_wce = d->unit.ts.wce;
    d->unit.ts.default_wce = d->unit.ts.wce;
    d->unit.ts.mrie = 6;
    d->unit.ts.realized_ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);

    trace_megaraid_drive_realize(d->enclosure, d->slot,
                                 mr_if_names[d->unit.iface],
                                 d->unit.num_blocks, d->unit.block_size,
                                 d->unit.discard);
}

static void mr_drive_unrealize(DeviceState *dev)
{
    MRDrive *d = MEGARAID_DRIVE(dev);

    trace_megaraid_drive_unrealize(d->enclosure, d->slot);
    mr_drive_locate_cleanup(d);
    if (d->conf.blk) {
        blk_drain(d->conf.blk);
    }
}

/*
 * QEMU's block properties, written out so that the ones whose zero or -1
 * means "decide at realize" show no number as their default in -device
 * help (the descriptions below say what they default to).
 */
static const Property mr_drive_props[] = {
    DEFINE_PROP_DRIVE("drive", MRDrive, conf.blk),
    DEFINE_PROP_ON_OFF_AUTO("backend_defaults", MRDrive,
                            conf.backend_defaults, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_UNSIGNED_NODEFAULT("logical_block_size", MRDrive,
                                   conf.logical_block_size,
                                   qdev_prop_blocksize, uint32_t),
    DEFINE_PROP_UNSIGNED_NODEFAULT("physical_block_size", MRDrive,
                                   conf.physical_block_size,
                                   qdev_prop_blocksize, uint32_t),
    DEFINE_PROP_UNSIGNED_NODEFAULT("min_io_size", MRDrive, conf.min_io_size,
                                   qdev_prop_size32, uint32_t),
    DEFINE_PROP_UNSIGNED_NODEFAULT("opt_io_size", MRDrive, conf.opt_io_size,
                                   qdev_prop_size32, uint32_t),
    DEFINE_PROP_UNSIGNED_NODEFAULT("discard_granularity", MRDrive,
                                   conf.discard_granularity,
                                   qdev_prop_size32, uint32_t),
    DEFINE_PROP_ON_OFF_AUTO("write-cache", MRDrive, conf.wce,
                            ON_OFF_AUTO_AUTO),
    DEFINE_PROP_BOOL("share-rw", MRDrive, conf.share_rw, false),
    DEFINE_PROP_ON_OFF_AUTO("account-invalid", MRDrive,
                            conf.account_invalid, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_ON_OFF_AUTO("account-failed", MRDrive,
                            conf.account_failed, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_UNSIGNED_NODEFAULT("slot", MRDrive, slot, qdev_prop_uint32,
                                   uint32_t),
    DEFINE_PROP_UINT32("enclosure", MRDrive, enclosure, 0),
    DEFINE_PROP_STRING("interface", MRDrive, interface_str),
    DEFINE_PROP_STRING("media", MRDrive, media_str),
    DEFINE_PROP_STRING("vendor", MRDrive, unit.vendor),
    DEFINE_PROP_STRING("model", MRDrive, unit.model),
    DEFINE_PROP_STRING("serial", MRDrive, unit.serial),
    DEFINE_PROP_STRING("firmware", MRDrive, unit.firmware),
    DEFINE_PROP_UNSIGNED_NODEFAULT("wwn", MRDrive, unit.wwn,
                                   qdev_prop_uint64, uint64_t),
    DEFINE_PROP_UNSIGNED_NODEFAULT("rotation_rate", MRDrive,
                                   unit.rotation_rate, qdev_prop_uint32,
                                   uint32_t),
    DEFINE_PROP_STRING("perf-profile", MRDrive, perf_str),
    DEFINE_PROP_UINT32("nvme-page-size", MRDrive, nvme_page_size, 4096),
    DEFINE_PROP_UINT32("nvme-mdts", MRDrive, nvme_mdts, 1 * MiB),
    DEFINE_PROP("modelled-capacity", MRDrive, modelled_capacity,
                mr_prop_capacity, uint64_t),
};

static const struct {
    const char *name;
    const char *desc;
} mr_drive_prop_desc[] = {
    { "drive", "backing block device (any -drive/-blockdev node); "
      "discard=unmap on an SSD enables UNMAP and WRITE SAME(UNMAP)" },
    { "slot", "bay number in the enclosure, 0-239 (default: the first free "
      "bay of the enclosure, or of the next one with room when it is "
      "full)" },
    { "enclosure", "enclosure number, 0-255" },
    { "interface", "nvme|sas|sata (default nvme); the card takes up to 32 "
      "NVMe and 240 SAS/SATA drives" },
    { "media", "ssd|hdd (default ssd; hdd with sas or sata only)" },
    { "vendor", "INQUIRY vendor, up to 8 characters (default per "
      "interface: NVMe, SEAGATE, ATA)" },
    { "model", "model number: INQUIRY product for SAS (16 characters), "
      "ATA/NVMe model (40) (default per interface and media)" },
    { "serial", "serial number, up to 20 characters (default derived "
      "from the bay)" },
    { "firmware", "firmware revision, up to 4 (SAS) or 8 characters" },
    { "wwn", "world wide name, NAA 5 (default derived from the vendor OUI "
      "and the bay)" },
    { "rotation_rate", "1 for non-rotating or rpm (default: 1 for ssd, "
      "7200 for hdd)" },
    { "perf-profile", "performance profile of the timing model (the "
      "controller's timing=on): micron-7450-max-6.4t, gen4-mu-3.2t, "
      "intel-s4510-1.92t, sas12-ssd-3.84t, sas-hdd-7200-8t (default per "
      "interface and media)" },
    { "nvme-page-size", "NVMe memory page size in bytes, 4096 or 8192: "
      "Device Page 0's page size, the PRP page of NVMe ENCAPSULATED" },
    { "nvme-mdts", "NVMe maximum data transfer size in bytes, a power of "
      "two from nvme-page-size to 1048576: Device Page 0's MDTS (the "
      "driver's largest I/O to the drive), Identify's MDTS" },
    { "modelled-capacity", "capacity the timing model gives the drive: "
      "bytes, or with an explicit unit, TB = 10^12 bytes as on the drive's "
      "label, TiB = 2^40 (also KB MB GB PB, KiB MiB GiB PiB; a bare T is "
      "refused as ambiguous), e.g. 6.4TB over a 1G image: rebuilds take "
      "the time of the modelled size (default: the performance profile's; "
      "never below the image); reads back the bytes in use" },
    { "logical_block_size", "logical block size, 512 or 4096 (default "
      "512, or the backend's with backend_defaults=on)" },
    { "physical_block_size", "physical block size, up to 4096 (e.g. 4096 "
      "with logical_block_size=512 for a 512e drive; default: the logical "
      "block size)" },
    { "min_io_size", "minimum I/O size in bytes (block layer hint; "
      "default none)" },
    { "opt_io_size", "optimal I/O size in bytes (block layer hint; "
      "default none)" },
    { "discard_granularity", "discard granularity in bytes (block layer "
      "hint; UNMAP granularity follows the physical block size; default: "
      "the backend's)" },
    { "write-cache", "on|off|auto: initial WCE of the caching mode page "
      "(auto: the backend's cache mode); the guest can change it" },
    { "share-rw", "allow other users to write the backing image" },
    { "account-invalid", "account invalid requests in the block stats" },
    { "account-failed", "account failed requests in the block stats" },
    { "backend_defaults", "take block size hints from the backend" },
};

static void mr_drive_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    int i;

    dc->bus_type = TYPE_MEGARAID_BUS;
    dc->realize = mr_drive_realize;
    dc->unrealize = mr_drive_unrealize;
    dc->desc = "MegaRAID drive in a controller bay (NVMe, SAS or SATA)";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, mr_drive_props);
    mr_drive_state_class_init(oc);
    mr_drive_fault_class_init(oc);
    mr_drive_health_class_init(oc);
    mr_drive_locate_class_init(oc);
    mr_drive_timing_class_init(oc);
    for (i = 0; i < ARRAY_SIZE(mr_drive_prop_desc); i++) {
        object_class_property_set_description(oc, mr_drive_prop_desc[i].name,
                                              mr_drive_prop_desc[i].desc);
    }
    mr_class_mark_read_only(oc);
}

/* The properties whose "not given" is not zero. */
static void mr_drive_instance_init(Object *obj)
{
    MRDrive *d = MEGARAID_DRIVE(obj);

    d->slot = MR_SLOT_AUTO;
    d->conf.discard_granularity = -1;
    mr_drive_health_instance_init(obj);
}

static const TypeInfo mr_bus_info = {
    .name = TYPE_MEGARAID_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(MRBus),
};

static const TypeInfo mr_drive_info = {
    .name = TYPE_MEGARAID_DRIVE,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MRDrive),
    .instance_init = mr_drive_instance_init,
    .class_init = mr_drive_class_init,
};

static void mr_drive_register_types(void)
{
    type_register_static(&mr_bus_info);
    type_register_static(&mr_drive_info);
}

type_init(mr_drive_register_types)
