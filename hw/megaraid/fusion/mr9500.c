/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the megaraid-9500 PCI function (SAS3916 "Aero", Fusion
 * host interface).  Owns the PCI identity and the model table, BAR0 with
 * the Fusion registers (doorbell, scratch pads, interrupt status and mask,
 * request descriptor ports, reply post host index), MSI-X, the firmware
 * state machine (READY, OPERATIONAL, FAULT, doorbell abort to READY, the
 * diagnostic-key chip reset), the drive bays (PD ids) and the property
 * table.
 */
#include "qemu/osdep.h"
#include "system/system.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "block/aio-wait.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/hotplug.h"
#include "migration/vmstate.h"
#include "system/block-backend.h"
#include "hw/megaraid/prop-help.h"
#include "mr9500.h"
#include "trace.h"

#define MR9500_VENDOR_ID        0x1000
#define MR9500_DEVICE_ID        0x10E2
#define MR9500_PCIE_CAP_OFFSET  0x80

static const uint8_t mr9500_diag_keys[] = { 0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD };

static const MR9500Model mr9500_models[] = {
    { "h755n-front", "PERC H755N Front", "DELL", 0x1028, 0x1AE2 },
    { "h755-adapter", "PERC H755 Adapter", "DELL", 0x1028, 0x1AE0 },
    { "9560-16i", "MegaRAID 9560-16i", "BROADCOM", 0x1000, 0x4000 },
    { "9560-8i", "MegaRAID 9560-8i", "BROADCOM", 0x1000, 0x4010 },
};

bool mr9500_dma_ok(MR9500State *s, uint64_t addr, uint64_t len)
{
    return mr_core_dma_ok(PCI_DEVICE(s), addr, len);
}

MRDrive *mr9500_pd_drive(MR9500State *s, uint32_t pd)
{
    MRDrive *d;

    if (pd >= MR9500_MAX_PDS) {
        return NULL;
    }
    d = s->pd[pd];
    if (!d || mr_core_drive_hidden(&s->core, d)) {
        return NULL;
    }
    return d;
}

/* Firmware fault: nothing is processed until a reset. */
void mr9500_fault(MR9500State *s, uint32_t code)
{
    if (s->fw_state == MFI_STATE_FAULT) {
        return;
    }
    trace_megaraid_9500_err_fault(code);
    s->fw_state = MFI_STATE_FAULT;
    s->fault_code = code;
    mr9500_ioc_reset(s);
}

static uint32_t mr9500_scratch0(MR9500State *s)
{
    uint32_t v = s->fw_state << MFI_STATE_SHIFT;

    if (s->fw_state == MFI_STATE_FAULT) {
        /* fault code in 27:16, reset allowed */
        return v | (s->fault_code & 0xFFF) << 16 | MFI_SP0_RESET_ALLOWED;
    }
    return v | MFI_SP0_MSIX | s->max_cmds;
}

static uint32_t mr9500_scratch1(MR9500State *s)
{
    uint32_t v = (uint32_t)(s->queues - 1) << MFI_SP1_QUEUES_SHIFT;

    /* 4 KiB chain frames: 8 units of 512 bytes */
    v |= MFI_SP1_CHAIN_512 | 8u << MFI_SP1_CHAIN_SHIFT;
    v |= MFI_SP1_ATOMIC_SYNC_CACHE | MFI_SP1_64BIT_DMA;
    if (s->rdpq) {
        v |= MFI_SP1_RDPQ;
    }
    return v;
}

/* Back to READY: forget the host's queues and every command. */
static void mr9500_to_ready(MR9500State *s)
{
    mr9500_ioc_reset(s);
    s->fw_state = MFI_STATE_READY;
    s->fault_code = 0;
    s->stopped = false;
}

static void mr9500_doorbell_write(MR9500State *s, uint32_t val)
{
    trace_megaraid_9500_doorbell(val, s->fw_state);
    if (val & MFI_DB_STOP_ADAPTER) {
        /* the driver gave up: stop processing until it resets us */
        s->stopped = true;
        mr9500_ioc_reset(s);
        return;
    }
    if ((val & (MFI_DB_ABORT | MFI_DB_READY)) ==
        (MFI_DB_ABORT | MFI_DB_READY)) {
        if (s->fw_state == MFI_STATE_FAULT) {
            trace_megaraid_9500_ub_doorbell_in_fault(val);
            return;
        }
        mr9500_to_ready(s);
    }
}

static void mr9500_write_seq(MR9500State *s, uint32_t val)
{
    uint32_t key = val & 0xF;

    if (key == mr9500_diag_keys[s->seq_state]) {
        s->seq_state++;
    } else {
        s->seq_state = key == mr9500_diag_keys[0] ? 1 : 0;
    }
    if (s->seq_state == ARRAY_SIZE(mr9500_diag_keys)) {
        s->seq_state = 0;
        s->host_diag |= MFI_DIAG_WRITE_ENABLE;
        trace_megaraid_9500_diag_unlocked();
    }
}

static void mr9500_host_diag_write(MR9500State *s, uint32_t val)
{
    if (!(s->host_diag & MFI_DIAG_WRITE_ENABLE)) {
        trace_megaraid_9500_ub_diag_locked(val);
        return;
    }
    if (val & MFI_DIAG_RESET_ADAPTER) {
        trace_megaraid_9500_diag_reset();
        s->chip_resets++;
        mr9500_to_ready(s);
        s->host_diag = 0;
        s->seq_state = 0;
        mr_core_log_ctrl(&s->core, MR_EV_CTRL_RESET, 1);
    }
}

static uint64_t mr9500_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    MR9500State *s = opaque;
    uint64_t val = 0;

    switch (addr) {
    case MFI_REG_HOST_DIAG:
        val = s->host_diag;
        break;
    case MFI_REG_INTR_STATUS:
        val = s->intr_status;
        break;
    case MFI_REG_INTR_MASK:
        val = s->intr_mask;
        break;
    case MFI_REG_SCRATCH0:
        val = mr9500_scratch0(s);
        break;
    case MFI_REG_SCRATCH1:
        val = mr9500_scratch1(s);
        break;
    case MFI_REG_SCRATCH2:
        val = MR9500_MAP_UNITS << MFI_SP2_MAP_SIZE_SHIFT;
        break;
    case MFI_REG_SCRATCH3:
        /*
         * An NVMe page size: the driver then asks every device it adds
         * for its properties (DEV_GET_TARGET_PROP, mr9500-dcmd.c)
         */
        val = MFI_SP3_NVME_PAGE_SHIFT;
        break;
    default:
        /* doorbell (idle), ports and reserved space read as zero */
        break;
    }
    trace_megaraid_9500_mmio_read(addr, val);
    return val;
}

static void mr9500_mmio_write(void *opaque, hwaddr addr, uint64_t data,
                              unsigned size)
{
    MR9500State *s = opaque;
    uint32_t val = data;

    trace_megaraid_9500_mmio_write(addr, val);
    if (addr >= MFI_REG_COMBINED_INDEX && addr < MFI_REG_COMBINED_INDEX_END &&
        !((addr - MFI_REG_COMBINED_INDEX) & 0xF)) {
        mr9500_host_index_write(s, (addr - MFI_REG_COMBINED_INDEX) / 0x10 * 8 +
                                (val >> 24 & 7), val & 0xFFFFFF);
        return;
    }
    switch (addr) {
    case MFI_REG_DOORBELL:
        mr9500_doorbell_write(s, val);
        break;
    case MFI_REG_WRITE_SEQ:
        mr9500_write_seq(s, val);
        break;
    case MFI_REG_HOST_DIAG:
        mr9500_host_diag_write(s, val);
        break;
    case MFI_REG_INTR_STATUS:
        s->intr_status &= ~val;
        break;
    case MFI_REG_INTR_MASK:
        mr9500_intr_mask_write(s, val);
        break;
    case MFI_REG_REPLY_HOST_INDEX:
        mr9500_host_index_write(s, val >> 24, val & 0xFFFFFF);
        break;
    case MFI_REG_REQ_LOW:
        s->req_low = val;
        s->req_low_valid = true;
        break;
    case MFI_REG_REQ_HIGH:
        if (!s->req_low_valid) {
            trace_megaraid_9500_ub_req_high_alone(val);
            break;
        }
        s->req_low_valid = false;
        mr9500_post_request(s, s->req_low, val);
        break;
    case MFI_REG_REQ_ATOMIC:
        mr9500_post_request(s, val, 0);
        break;
    default:
        trace_megaraid_9500_ub_mmio_write(addr, val);
        break;
    }
}

static const MemoryRegionOps mr9500_mmio_ops = {
    .read = mr9500_mmio_read,
    .write = mr9500_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void mr9500_reset_hold(Object *obj, ResetType type)
{
    MR9500State *s = MEGARAID_9500(obj);

    mr9500_to_ready(s);
    s->intr_mask = 0xFFFFFFFF;
    s->intr_status = 0;
    s->host_diag = 0;
    s->seq_state = 0;
    s->req_low_valid = false;
}

/* ---- drive bays ---- */

static int mr9500_drive_pd_id(MRDrive *d)
{
    if (d->enclosure) {
        return -1;
    }
    if (d->unit.iface == MR_IF_NVME) {
        return d->slot < MR9500_MAX_PDS - MR_MAX_SAS_SATA_DRIVES ?
               MR_MAX_SAS_SATA_DRIVES + d->slot : -1;
    }
    return d->slot < MR_MAX_SAS_SATA_DRIVES ? d->slot : -1;
}

static void mr9500_plug(HotplugHandler *hotplug_dev, DeviceState *dev,
                        Error **errp)
{
    MR9500State *s = MEGARAID_9500(hotplug_dev);
    MRDrive *d = MEGARAID_DRIVE(dev);
    int pd = mr9500_drive_pd_id(d);

    if (pd < 0 || s->pd[pd] || s->pd_pending[pd]) {
        error_setg(errp, "megaraid-9500: no PD id for the drive in enclosure "
                   "%u slot %u (enclosure 0, SAS/SATA slots 0..%d, NVMe "
                   "slots 0..%d, one drive per slot)", d->enclosure, d->slot,
                   MR_MAX_SAS_SATA_DRIVES - 1,
                   MR9500_MAX_PDS - MR_MAX_SAS_SATA_DRIVES - 1);
        return;
    }
    /* (the PD id is taken; the host sees the drive once it has its place) */
    s->pd_pending[pd] = d;
    d->unit.host_id = pd;
    trace_megaraid_9500_drive_plug(pd, d->slot, d->unit.iface);
    if (!mr_core_drive_plugged(&s->core, d)) {
        return;                 /* its metadata is read: drive_arrived */
    }
    s->pd_pending[pd] = NULL;
    s->pd[pd] = d;
    if (dev->hotplugged) {
        mr9500_event_pd(s, MR_EVT_PD_INSERTED, pd, d->slot);
    }
}

/* Hot-plugged @d has its place (hidden or not): the host hears of it. */
void mr9500_drive_arrived(MR9500State *s, MRDrive *d)
{
    uint16_t pd = d->unit.host_id;

    if (pd < MR9500_MAX_PDS && s->pd_pending[pd] == d) {
        s->pd_pending[pd] = NULL;
        s->pd[pd] = d;
        mr9500_event_pd(s, MR_EVT_PD_INSERTED, pd, d->slot);
    }
}

static void mr9500_unplug(HotplugHandler *hotplug_dev, DeviceState *dev,
                          Error **errp)
{
    MR9500State *s = MEGARAID_9500(hotplug_dev);
    MRDrive *d = MEGARAID_DRIVE(dev);

    trace_megaraid_9500_drive_unplug(d->unit.host_id, d->slot);
    mr_core_drive_unplugging(&s->core, d);
    if (d->unit.host_id < MR9500_MAX_PDS && s->pd[d->unit.host_id] == d) {
        mr9500_cmds_cancel_pd(s, d->unit.host_id);
        s->pd[d->unit.host_id] = NULL;
        mr9500_event_pd(s, MR_EVT_PD_REMOVED, d->unit.host_id, d->slot);
    }
    qdev_simple_device_unplug_cb(hotplug_dev, dev, errp);
}

/* ---- realize ---- */

static bool mr9500_check_props(MR9500State *s, Error **errp)
{
    s->model = mr_core_find_model(mr9500_models, ARRAY_SIZE(mr9500_models),
                                  sizeof(mr9500_models[0]), "megaraid-9500",
                                  s->model_str, errp);
    if (!s->model) {
        return false;
    }
    if (s->max_cmds < 64 || s->max_cmds > 8192) {
        error_setg(errp, "megaraid-9500: max-cmds must be 64..8192 (got %u)",
                   s->max_cmds);
        return false;
    }
    if (s->queues < 1 || s->queues > MR9500_MAX_QUEUES) {
        error_setg(errp, "megaraid-9500: queues must be 1..%d (got %u)",
                   MR9500_MAX_QUEUES, s->queues);
        return false;
    }
    return true;
}

static void mr9500_realize(PCIDevice *pci, Error **errp)
{
    MR9500State *s = MEGARAID_9500(pci);
    uint8_t *conf = pci->config;
    MRCoreIdentity id;

    if (!mr9500_check_props(s, errp) ||
        !mr_core_claim_drives(&s->core, errp)) {
        return;
    }
    if (!pci_is_express(pci) || !pci_bus_is_express(pci_get_bus(pci))) {
        error_setg(errp, "megaraid-9500: needs a PCI Express bus (e.g. the "
                   "q35 machine's pcie.0 or a pcie-root-port)");
        return;
    }
    pci_set_word(conf + PCI_SUBSYSTEM_VENDOR_ID, s->model->subsys_vendor);
    pci_set_word(conf + PCI_SUBSYSTEM_ID, s->model->subsys_id);
    conf[PCI_INTERRUPT_PIN] = 1;

    memory_region_init_io(&s->mmio, OBJECT(s), &mr9500_mmio_ops, s,
                          "megaraid-9500-regs", MFI_BAR0_SIZE);
    pci_register_bar(pci, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->mmio);
    if (pcie_endpoint_cap_init(pci, MR9500_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "megaraid-9500: cannot add the PCIe capability");
        return;
    }
    if (msix_init_exclusive_bar(pci, s->queues, 2, errp)) {
        return;
    }
    for (unsigned i = 0; i < s->queues; i++) {
        msix_vector_use(pci, i);
    }
    mr9500_cmds_init(s);
    s->fw_state = MFI_STATE_READY;
    s->intr_mask = 0xFFFFFFFF;
    s->evt_seq = 1;
    s->boot_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    id = (MRCoreIdentity) {
        .model = s->model->name,
        /* the timing model has one profile for this generation's RoC */
        .timing_profile = "sas3916",
        .product = s->model->product,
        .vendor = s->model->vendor,
        .fw_version = MR9500_FW_VERSION,
        .vd_revision = MR9500_VD_REVISION,
        .sat_vendor = "BROADCOM",
        .sat_product = MR9500_SAT_PRODUCT,
        .pci_vendor = MR9500_VENDOR_ID,
        .pci_device = MR9500_DEVICE_ID,
        .subsys_vendor = s->model->subsys_vendor,
        .subsys_id = s->model->subsys_id,
    };
    mr9500_ld_init(s);
    if (!mr_core_realize(&s->core, DEVICE(s), &id, &mr9500_ld_array_ops, s,
                         errp)) {
        /* e.g. a hot-plugged card's bad journal: device_add fails */
        mr9500_cmds_free(s);
        msix_uninit_exclusive_bar(pci);
        return;
    }
    mr9500_evlog_init(s);
}

static void mr9500_exit(PCIDevice *pci)
{
    MR9500State *s = MEGARAID_9500(pci);

    mr9500_ioc_reset(s);
    /* cancelled commands complete later: their slots must outlive them */
    AIO_WAIT_WHILE(NULL, mr9500_cmds_busy(s));
    mr9500_evlog_exit(s);
    mr_core_unrealize(&s->core);
    mr9500_cmds_free(s);
    msix_uninit_exclusive_bar(pci);
}

static const Property mr9500_props[] = {
    DEFINE_PROP_STRING("model", MR9500State, model_str),
    DEFINE_PROP_UINT16("max-cmds", MR9500State, max_cmds, 1024),
    DEFINE_PROP_UINT8("queues", MR9500State, queues, 8),
    DEFINE_PROP_BOOL("rdpq", MR9500State, rdpq, false),
    DEFINE_MR_CORE_PROPERTIES(MR9500State, core),
};

static const VMStateDescription mr9500_vmstate = {
    .name = "megaraid-9500",
    .unmigratable = 1,
};

static void mr9500_instance_init(Object *obj)
{
    MR9500State *s = MEGARAID_9500(obj);

    s->model_str = g_strdup("h755n-front");
    s->fast_path = true;
    mr_core_instance_init(&s->core);
    /* the firmware boots from the controller's LDs in this order */
    device_add_bootindex_property(obj, &s->bootindex, "bootindex", NULL,
                                  DEVICE(obj));
}

static void mr9500_instance_finalize(Object *obj)
{
    mr_core_instance_finalize(&MEGARAID_9500(obj)->core);
}

static char *mr9500_get_fw_version(Object *obj, Error **errp)
{
    return g_strdup(MR9500_FW_VERSION);
}

static void mr9500_get_chip_resets(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &MEGARAID_9500(obj)->chip_resets, errp);
}

static void mr9500_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);
    HotplugHandlerClass *hc = HOTPLUG_HANDLER_CLASS(oc);

    pc->realize = mr9500_realize;
    pc->exit = mr9500_exit;
    pc->vendor_id = MR9500_VENDOR_ID;
    pc->device_id = MR9500_DEVICE_ID;
    pc->class_id = PCI_CLASS_STORAGE_RAID;
    /* the UEFI boot driver (firmware/uefi), as the card's option ROM */
    pc->romfile = "megaraid-9500-efi.rom";
    rc->phases.hold = mr9500_reset_hold;
    hc->plug = mr9500_plug;
    hc->unplug = mr9500_unplug;
    dc->desc = "Broadcom MegaRAID 9500 (Fusion, SAS3916 Aero) RAID controller";
    dc->vmsd = &mr9500_vmstate;
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, mr9500_props);
    object_class_property_set_description(oc, "model",
        "family member: h755n-front (default), h755-adapter, 9560-16i, "
        "9560-8i");
    object_class_property_set_description(oc, "max-cmds",
        "commands the firmware accepts (scratch pad 0)");
    object_class_property_set_description(oc, "queues",
        "reply queues and MSI-X vectors offered (1..16)");
    object_class_property_set_description(oc, "rdpq",
        "advertise reply descriptor post queue arrays (RDPQ)");
    mr_core_class_init(oc, offsetof(MR9500State, core));
    mr9500_map_class_init(oc);
    mr9500_fp_class_init(oc);
    object_class_property_add(oc, "chip-resets", "uint32",
                              mr9500_get_chip_resets, NULL, NULL, NULL);
    object_class_property_set_description(oc, "chip-resets",
        "diagnostic (chip) resets the host did, e.g. online controller "
        "resets (read-only)");
    object_class_property_add_str(oc, "firmware-version",
                                  mr9500_get_fw_version, NULL);
    object_class_property_set_description(oc, "firmware-version",
        "firmware package version CTRL_GET_INFO reports (read-only)");
    mr_class_mark_read_only(oc);
}

static const TypeInfo mr9500_info = {
    .name = TYPE_MEGARAID_9500,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(MR9500State),
    .instance_init = mr9500_instance_init,
    .instance_finalize = mr9500_instance_finalize,
    .class_init = mr9500_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { TYPE_HOTPLUG_HANDLER },
        { }
    },
};

static void mr9500_register_types(void)
{
    type_register_static(&mr9500_info);
}

type_init(mr9500_register_types)
