/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the megaraid-9600 PCI function.  Owns the PCI identity and
 * the model family table, BAR0 with the MPI 3.0 system interface
 * registers, MSI-X, the IOC state
 * machine (reset, ready, fault, message unit reset, soft reset, diag
 * fault), shutdown notification, the property table and realize checks.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "qemu/main-loop.h"
#include "block/aio-wait.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/hotplug.h"
#include "system/system.h"
#include "migration/vmstate.h"
#include "system/block-backend.h"
#include "hw/megaraid/prop-help.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_VENDOR_ID        0x1000
#define MR9600_DEVICE_ID        0x00A5

/* Write Sequence keys that unlock the Host Diagnostic register. */
static const uint8_t mr9600_diag_keys[] = { 0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD };

/*
 * The family (subsystem ids as PCI ID lists name them).  The eHBA models
 * report their drives through the SAS transport layer by default
 * (sas-transport=auto), the MegaRAID models as the RAID personality's
 * multipath targets (docs/sas-topology.md says why).
 */
static const MR9600Model mr9600_models[] = {
    { { "9670w-16i", "MegaRAID 9670W-16i", "BROADCOM", 0x1000, 0x4600 },
      MR9600_PERSONALITY_RAID, 16, false },
    { { "9660-16i", "MegaRAID 9660-16i", "BROADCOM", 0x1000, 0x4620 },
      MR9600_PERSONALITY_RAID, 16, false },
    { { "9670-24i", "MegaRAID 9670-24i", "BROADCOM", 0x1000, 0x4610 },
      MR9600_PERSONALITY_RAID, 24, false },
    { { "9600-16i", "HBA 9600-16i (eHBA)", "BROADCOM", 0x1000, 0x4670 },
      MR9600_PERSONALITY_EHBA, 16, true },
    { { "9600-24i", "HBA 9600-24i (eHBA)", "BROADCOM", 0x1000, 0x4660 },
      MR9600_PERSONALITY_EHBA, 24, true },
    { { "9600-16e", "HBA 9600-16e (eHBA)", "BROADCOM", 0x1000, 0x4680 },
      MR9600_PERSONALITY_EHBA, 16, true },
    { { "h965i", "PERC H965i", "DELL", 0x1028, 0x2114 },
      MR9600_PERSONALITY_RAID, 16, false },
};

bool mr9600_ioc_ready(MR9600State *s)
{
    return (s->ioc_status & MPI3_IOC_STATUS_READY) &&
           !(s->ioc_status & MPI3_IOC_STATUS_FAULT);
}

void mr9600_kick(MR9600State *s)
{
    qemu_bh_schedule(s->bh);
}

/* Drop all host-interface state: what every MUR and soft reset does. */
void mr9600_ioc_reset(MR9600State *s)
{
    s->ioc_resets++;
    s->mgmt_epoch++;
    mr9600_requests_abort_all(s);
    mr9600_queues_reset(s);
    mr9600_devices_reset(s);
    mr9600_linkfault_reset(s);
    /*
     * A reset also ends a shutdown request: the driver ORs the field into
     * IOC Configuration again at its next shutdown, and only a change to
     * NORMAL starts one (a field left set would never complete again).
     */
    s->ioc_config &= ~(MPI3_IOC_CONFIG_ENABLE_IOC | MPI3_IOC_CONFIG_DIAG_SAVE |
                       MPI3_IOC_CONFIG_SHUTDOWN_MASK);
    s->ioc_status &= ~(MPI3_IOC_STATUS_READY | MPI3_IOC_STATUS_FAULT);
    s->ioc_status |= MPI3_IOC_STATUS_RESET_HISTORY;
    s->host_diag = 0;
    s->write_seq_state = 0;
    s->fault = 0;
    memset(s->fault_info, 0, sizeof(s->fault_info));
    s->initialized = false;
    s->events_enabled = false;
    memset(s->event_masks, 0xff, sizeof(s->event_masks));
    s->port_enabled = false;
    s->pel_wait_tag = 0;
}

void mr9600_ioc_fault(MR9600State *s, uint16_t code)
{
    if (s->ioc_status & MPI3_IOC_STATUS_FAULT) {
        return;
    }
    trace_megaraid_9600_err_ioc_fault(code);
    s->ioc_status |= MPI3_IOC_STATUS_FAULT;
    s->fault = code;
    /* Nothing is processed or posted until a soft reset. */
    mr9600_requests_abort_all(s);
}

/*
 * Shutdown notification.  IOC Status says SHUTDOWN IN PROGRESS at once and
 * SHUTDOWN COMPLETE when the host's I/O still in flight has finished and
 * every drive's volatile cache is flushed.  Nothing here waits: the
 * notification is a register write that may come from any context, even
 * (a guest's MSI-X vector aimed at this register) from the completion of a
 * request that is itself in flight, where draining would never return.
 */
static void mr9600_shutdown_flushed(void *opaque, int ret)
{
    MR9600State *s = opaque;

    if (ret < 0) {
        trace_megaraid_9600_shutdown_flush_failed(ret);
    }
    if (--s->shutdown_flushes) {
        return;
    }
    if (s->shutdown_requested) {
        /* notified again meanwhile: flush once more */
        qemu_bh_schedule(s->shutdown_bh);
        return;
    }
    if ((s->ioc_status & MPI3_IOC_STATUS_SHUTDOWN_MASK) ==
        MPI3_IOC_STATUS_SHUTDOWN_IN_PROGRESS) {
        s->ioc_status = (s->ioc_status & ~MPI3_IOC_STATUS_SHUTDOWN_MASK) |
                        MPI3_IOC_STATUS_SHUTDOWN_COMPLETE;
        trace_megaraid_9600_shutdown();
        mr_core_log_ctrl(&s->core, MR_EV_CTRL_SHUTDOWN, 1);
    }
}

static void mr9600_shutdown_bh(void *opaque)
{
    MR9600State *s = opaque;
    BusChild *kid;

    if (!s->shutdown_requested || s->shutdown_flushes) {
        return;
    }
    if (!QTAILQ_EMPTY(&s->active_reqs)) {
        /* mr9600_io_idle() schedules this again */
        trace_megaraid_9600_shutdown_wait();
        return;
    }
    s->shutdown_requested = false;
    s->shutdown_flushes = 1;
    QTAILQ_FOREACH(kid, &BUS(&s->core.bus)->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (d->conf.blk) {
            s->shutdown_flushes++;
            blk_aio_flush(d->conf.blk, mr9600_shutdown_flushed, s);
        }
    }
    mr9600_shutdown_flushed(s, 0);
}

/* The last request in flight finished. */
void mr9600_io_idle(MR9600State *s)
{
    if (s->shutdown_requested) {
        qemu_bh_schedule(s->shutdown_bh);
    }
}

static void mr9600_shutdown_notify(MR9600State *s)
{
    s->ioc_status = (s->ioc_status & ~MPI3_IOC_STATUS_SHUTDOWN_MASK) |
                    MPI3_IOC_STATUS_SHUTDOWN_IN_PROGRESS;
    s->shutdown_requested = true;
    qemu_bh_schedule(s->shutdown_bh);
}

static void mr9600_ioc_config_write(MR9600State *s, uint32_t val)
{
    uint32_t old = s->ioc_config;

    /* The entry-size fields are the device's; host writes are ignored. */
    val = (val & ~MPI3_IOC_CONFIG_ENTRY_SIZES_MASK) |
          MPI3_IOC_CONFIG_ENTRY_SIZES;
    s->ioc_config = val;
    trace_megaraid_9600_ioc_config(old, val);

    if ((val & MPI3_IOC_CONFIG_SHUTDOWN_MASK) ==
        MPI3_IOC_CONFIG_SHUTDOWN_NORMAL &&
        (old & MPI3_IOC_CONFIG_SHUTDOWN_MASK) !=
        MPI3_IOC_CONFIG_SHUTDOWN_NORMAL) {
        mr9600_shutdown_notify(s);
    }

    if (!(old & MPI3_IOC_CONFIG_ENABLE_IOC) &&
        (val & MPI3_IOC_CONFIG_ENABLE_IOC)) {
        if (s->ioc_status & (MPI3_IOC_STATUS_FAULT | MPI3_IOC_STATUS_READY)) {
            trace_megaraid_9600_ub_enable_in_state(s->ioc_status);
            return;
        }
        /* A new session: no shutdown is pending or reported. */
        s->ioc_config &= ~MPI3_IOC_CONFIG_SHUTDOWN_MASK;
        s->ioc_status &= ~MPI3_IOC_STATUS_SHUTDOWN_MASK;
        if (!mr9600_admin_enable(s)) {
            mr9600_ioc_fault(s, MR9600_FAULT_ADMIN_Q_CONFIG);
            return;
        }
        s->ioc_status |= MPI3_IOC_STATUS_READY;
        trace_megaraid_9600_ioc_ready();
    } else if ((old & MPI3_IOC_CONFIG_ENABLE_IOC) &&
               !(val & MPI3_IOC_CONFIG_ENABLE_IOC)) {
        if (s->ioc_status & MPI3_IOC_STATUS_FAULT) {
            /* Only a soft reset leaves FAULT. */
            trace_megaraid_9600_ub_mur_in_fault();
            return;
        }
        trace_megaraid_9600_mur(s->scratchpad[0]);
        mr9600_ioc_reset(s);
        mr_core_log_ctrl(&s->core, MR_EV_CTRL_RESET, 0);
    }
}

static void mr9600_write_sequence(MR9600State *s, uint32_t val)
{
    uint32_t key = val & MPI3_WRITE_SEQ_KEY_MASK;

    /* Any write while unlocked relocks the register. */
    if (s->host_diag & MPI3_HOST_DIAG_WRITE_ENABLE) {
        s->host_diag &= ~MPI3_HOST_DIAG_WRITE_ENABLE;
        s->write_seq_state = 0;
    }
    if (key == mr9600_diag_keys[s->write_seq_state]) {
        s->write_seq_state++;
    } else {
        s->write_seq_state = key == mr9600_diag_keys[0] ? 1 : 0;
    }
    if (s->write_seq_state == ARRAY_SIZE(mr9600_diag_keys)) {
        s->write_seq_state = 0;
        s->host_diag |= MPI3_HOST_DIAG_WRITE_ENABLE;
        trace_megaraid_9600_diag_unlocked();
    }
}

static void mr9600_host_diag_write(MR9600State *s, uint32_t val)
{
    uint32_t action;

    if (!(s->host_diag & MPI3_HOST_DIAG_WRITE_ENABLE)) {
        trace_megaraid_9600_ub_host_diag_locked(val);
        return;
    }
    action = (val & MPI3_HOST_DIAG_RESET_ACTION_MASK) >>
             MPI3_HOST_DIAG_RESET_ACTION_SHIFT;
    trace_megaraid_9600_host_diag(val, action, s->scratchpad[0]);
    switch (action) {
    case 0:
        break;
    case MPI3_HOST_DIAG_ACTION_DIAG_FAULT:
        if (!(s->ioc_status & MPI3_IOC_STATUS_FAULT)) {
            mr9600_ioc_fault(s, MPI3_FAULT_DIAG_FAULT_RESET);
            mr9600_fault_diag_save(s);
        }
        break;
    case MPI3_HOST_DIAG_ACTION_SOFT_RESET:
    case MPI3_HOST_DIAG_ACTION_HOST_BOOT:
    case MPI3_HOST_DIAG_ACTION_COMPLETE:
        mr9600_ioc_reset(s);
        mr_core_log_ctrl(&s->core, MR_EV_CTRL_RESET, 1);
        break;
    default:
        trace_megaraid_9600_ub_host_diag_action(action);
        break;
    }
}

static uint64_t mr9600_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    MR9600State *s = opaque;
    uint64_t val = 0;

    switch (addr) {
    case MPI3_REG_IOC_INFO_LO:
        val = (uint32_t)s->ready_timeout / 2 << MPI3_IOC_INFO_TIMEOUT_SHIFT;
        break;
    case MPI3_REG_VERSION:
        val = 0x03002200;
        break;
    case MPI3_REG_IOC_CONFIG:
        val = s->ioc_config;
        break;
    case MPI3_REG_IOC_STATUS:
        val = s->ioc_status;
        break;
    case MPI3_REG_ADMIN_Q_NUM_ENTRIES:
        val = s->admin_q_num_entries;
        break;
    case MPI3_REG_ADMIN_REQ_Q_ADDR_LO:
        val = (uint32_t)s->admin_req_addr;
        break;
    case MPI3_REG_ADMIN_REQ_Q_ADDR_HI:
        val = s->admin_req_addr >> 32;
        break;
    case MPI3_REG_ADMIN_REPLY_Q_ADDR_LO:
        val = (uint32_t)s->admin_reply_addr;
        break;
    case MPI3_REG_ADMIN_REPLY_Q_ADDR_HI:
        val = s->admin_reply_addr >> 32;
        break;
    case MPI3_REG_COALESCE_CONTROL:
        val = s->coalesce_control;
        break;
    case MPI3_REG_HOST_DIAG:
        val = s->host_diag;
        break;
    case MPI3_REG_FAULT:
        val = s->fault;
        break;
    case MPI3_REG_FAULT_INFO0:
    case MPI3_REG_FAULT_INFO1:
    case MPI3_REG_FAULT_INFO2:
        val = s->fault_info[(addr - MPI3_REG_FAULT_INFO0) / 4];
        break;
    case MPI3_REG_HCB_ADDR_LO:
        val = (uint32_t)s->hcb_addr;
        break;
    case MPI3_REG_HCB_ADDR_HI:
        val = s->hcb_addr >> 32;
        break;
    case MPI3_REG_HCB_SIZE:
        val = s->hcb_size;
        break;
    case MPI3_REG_REPLY_FREE_HOST_INDEX:
        val = s->reply_free_host;
        break;
    case MPI3_REG_SENSE_FREE_HOST_INDEX:
        val = s->sense_free_host;
        break;
    case MPI3_REG_SCRATCHPAD0 ... MPI3_REG_SCRATCHPAD3:
        val = s->scratchpad[(addr - MPI3_REG_SCRATCHPAD0) / 4];
        break;
    default:
        /* Doorbells and reserved space read as zero. */
        break;
    }
    trace_megaraid_9600_mmio_read(addr, val);
    return val;
}

static void mr9600_mmio_write(void *opaque, hwaddr addr, uint64_t data,
                              unsigned size)
{
    MR9600State *s = opaque;
    uint32_t val = data;

    trace_megaraid_9600_mmio_write(addr, val);
    if (addr >= MPI3_REG_DOORBELL_BASE && addr < MPI3_REG_DOORBELL_END) {
        mr9600_doorbell_write(s, addr, val);
        return;
    }
    switch (addr) {
    case MPI3_REG_IOC_CONFIG:
        mr9600_ioc_config_write(s, val);
        break;
    case MPI3_REG_IOC_STATUS:
        s->ioc_status &= ~(val & MPI3_IOC_STATUS_RESET_HISTORY);
        break;
    case MPI3_REG_ADMIN_Q_NUM_ENTRIES:
        s->admin_q_num_entries = val;
        break;
    case MPI3_REG_ADMIN_REQ_Q_ADDR_LO:
        s->admin_req_addr = deposit64(s->admin_req_addr, 0, 32, val);
        break;
    case MPI3_REG_ADMIN_REQ_Q_ADDR_HI:
        s->admin_req_addr = deposit64(s->admin_req_addr, 32, 32, val);
        break;
    case MPI3_REG_ADMIN_REPLY_Q_ADDR_LO:
        s->admin_reply_addr = deposit64(s->admin_reply_addr, 0, 32, val);
        break;
    case MPI3_REG_ADMIN_REPLY_Q_ADDR_HI:
        s->admin_reply_addr = deposit64(s->admin_reply_addr, 32, 32, val);
        break;
    case MPI3_REG_COALESCE_CONTROL:
        s->coalesce_control = val;
        break;
    case MPI3_REG_WRITE_SEQUENCE:
        mr9600_write_sequence(s, val);
        break;
    case MPI3_REG_HOST_DIAG:
        mr9600_host_diag_write(s, val);
        break;
    case MPI3_REG_HCB_ADDR_LO:
        s->hcb_addr = deposit64(s->hcb_addr, 0, 32, val);
        break;
    case MPI3_REG_HCB_ADDR_HI:
        s->hcb_addr = deposit64(s->hcb_addr, 32, 32, val);
        break;
    case MPI3_REG_HCB_SIZE:
        s->hcb_size = val;
        break;
    case MPI3_REG_REPLY_FREE_HOST_INDEX:
        mr9600_reply_free_write(s, val);
        break;
    case MPI3_REG_SENSE_FREE_HOST_INDEX:
        mr9600_sense_free_write(s, val);
        break;
    case MPI3_REG_SCRATCHPAD0 ... MPI3_REG_SCRATCHPAD3:
        s->scratchpad[(addr - MPI3_REG_SCRATCHPAD0) / 4] = val;
        break;
    default:
        trace_megaraid_9600_ub_mmio_write(addr, val);
        break;
    }
}

static const MemoryRegionOps mr9600_mmio_ops = {
    .read = mr9600_mmio_read,
    .write = mr9600_mmio_write,
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

static void mr9600_bh(void *opaque)
{
    mr9600_process_queues(opaque);
}

static void mr9600_reset_hold(Object *obj, ResetType type)
{
    MR9600State *s = MEGARAID_9600(obj);
    /* FLR, hot reset, D3hot -> D0 (mr9600-pcie.c); else power-on */
    bool function_reset = mr9600_pcie_reset(s);
    uint32_t resets;

    mr9600_ioc_reset(s);
    resets = s->ioc_resets;
    mr9600_fault_reset(s);
    if (function_reset) {
        /* counted, and the driver sees RESET with Reset History */
        s->ioc_resets = resets;
        s->ioc_status = MPI3_IOC_STATUS_RESET_HISTORY;
    } else {
        /* a power-on reset reports no history; the driver sees RESET */
        s->ioc_status = 0;
    }
    s->ioc_config = MPI3_IOC_CONFIG_ENTRY_SIZES;
    s->admin_q_num_entries = 0;
    s->admin_req_addr = 0;
    s->admin_reply_addr = 0;
    s->coalesce_control = 0;
    s->hcb_addr = 0;
    s->hcb_size = 0;
    memset(s->scratchpad, 0, sizeof(s->scratchpad));
}

static bool mr9600_check_props(MR9600State *s, Error **errp)
{
    uint32_t lo = (uint32_t)s->dsn;

    const MRCoreModel *m = mr_core_find_model(&mr9600_models[0].core,
                                              ARRAY_SIZE(mr9600_models),
                                              sizeof(mr9600_models[0]),
                                              "megaraid-9600", s->model_str,
                                              errp);

    if (!m) {
        return false;
    }
    s->model = container_of(m, MR9600Model, core);
    s->sas_transport = s->sas_transport_prop == ON_OFF_AUTO_AUTO
                       ? s->model->sas_transport
                       : s->sas_transport_prop == ON_OFF_AUTO_ON;
    if (s->max_op_queues < 1 || s->max_op_queues > MPI3_MAX_OP_QUEUES_REGMAP) {
        error_setg(errp, "megaraid-9600: max-queues must be 1..%d (got %u)",
                   MPI3_MAX_OP_QUEUES_REGMAP, s->max_op_queues);
        return false;
    }
    if (s->msix_vectors < 1 || s->msix_vectors > 1024) {
        error_setg(errp, "megaraid-9600: msix-vectors must be 1..1024 "
                   "(got %u)", s->msix_vectors);
        return false;
    }
    if (s->max_outstanding < 128 || s->max_outstanding > 16384) {
        error_setg(errp, "megaraid-9600: max-requests must be 128..16384 "
                   "(got %u)", s->max_outstanding);
        return false;
    }
    if (s->ready_timeout < 2 || s->ready_timeout > 510) {
        error_setg(errp, "megaraid-9600: ready-timeout must be 2..510 "
                   "seconds (got %u)", s->ready_timeout);
        return false;
    }
    /* The driver refuses controllers that are not secure. */
    if ((lo & 0x2) || ((lo >> 2) & 3) == 0 || ((lo >> 2) & 3) == 3) {
        error_setg(errp, "megaraid-9600: dsn 0x%" PRIx64 " has no valid "
                   "security status in bits 3:2 (use 01 or 10, bit 1 clear)",
                   s->dsn);
        return false;
    }
    return true;
}

static void mr9600_realize(PCIDevice *pci, Error **errp)
{
    MR9600State *s = MEGARAID_9600(pci);
    uint8_t *conf = pci->config;

    if (!mr9600_check_props(s, errp) || !mr9600_facts_check(s, errp) ||
        !mr_core_claim_drives(&s->core, errp) ||
        !mr9600_config_realize(s, errp)) {
        return;
    }
    if (!pci_is_express(pci) || pci_bus_is_express(pci_get_bus(pci)) == 0) {
        error_setg(errp, "megaraid-9600: needs a PCI Express bus (e.g. the "
                   "q35 machine's pcie.0 or a pcie-root-port)");
        return;
    }

    pci_set_word(conf + PCI_SUBSYSTEM_VENDOR_ID, s->model->core.subsys_vendor);
    pci_set_word(conf + PCI_SUBSYSTEM_ID, s->model->core.subsys_id);
    pci_config_set_revision(conf, s->revision);
    conf[PCI_INTERRUPT_PIN] = 0;

    memory_region_init_io(&s->mmio, OBJECT(s), &mr9600_mmio_ops, s,
                          "megaraid-9600-sysif", MPI3_SYSIF_SIZE);
    pci_register_bar(pci, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->mmio);

    if (!mr9600_pcie_realize(s, errp)) {
        return;
    }
    if (msix_init_exclusive_bar(pci, s->msix_vectors, 2, errp)) {
        mr9600_pcie_exit(s);
        return;
    }
    for (unsigned i = 0; i < s->msix_vectors; i++) {
        msix_vector_use(pci, i);
    }

    s->bh = qemu_bh_new_guarded(mr9600_bh, s,
                                &DEVICE(s)->mem_reentrancy_guard);
    s->shutdown_bh = qemu_bh_new_guarded(mr9600_shutdown_bh, s,
                                         &DEVICE(s)->mem_reentrancy_guard);
    mr9600_queues_init(s);
    mr9600_requests_init(s);
    mr9600_fault_init(s);
    mr9600_ses_realize(s);
    mr9600_phyctl_realize(s);
    if (!mr9600_array_realize(s, errp)) {
        goto fail;
    }
    mr9600_exp_realize(s);              /* the bus exists from here on */
    if (!mr9600_pel_realize(s, errp)) {
        mr9600_array_unrealize(s);
        goto fail;
    }
    s->ioc_config = MPI3_IOC_CONFIG_ENTRY_SIZES;
    memset(s->event_masks, 0xff, sizeof(s->event_masks));
    return;

fail:
    /* e.g. a hot-plugged card's bad journal: device_add fails */
    mr9600_ses_exit(s);
    mr9600_queues_free(s);
    mr9600_requests_free(s);
    mr9600_fault_exit(s);
    mr9600_phyctl_exit(s);
    qemu_bh_delete(s->bh);
    qemu_bh_delete(s->shutdown_bh);
    msix_uninit_exclusive_bar(pci);
    mr9600_pcie_exit(s);
}

static void mr9600_exit(PCIDevice *pci)
{
    MR9600State *s = MEGARAID_9600(pci);

    mr9600_requests_abort_all(s);
    /*
     * management replies the metadata writer still owes, and CONFIG
     * replies owed by config-nvram writes, go nowhere
     */
    s->mgmt_epoch++;
    mr9600_config_exit(s);
    /* the flushes of a shutdown notification call back into s */
    AIO_WAIT_WHILE(NULL, s->shutdown_flushes);
    mr9600_pel_exit(s);
    mr9600_array_unrealize(s);
    mr9600_ses_exit(s);
    mr9600_queues_free(s);
    mr9600_requests_free(s);
    mr9600_fault_exit(s);
    mr9600_phyctl_exit(s);
    qemu_bh_delete(s->bh);
    qemu_bh_delete(s->shutdown_bh);
    msix_uninit_exclusive_bar(pci);
    mr9600_pcie_exit(s);
}

static const Property mr9600_props[] = {
    DEFINE_PROP_STRING("model", MR9600State, model_str),
    DEFINE_PROP_UINT8("revision", MR9600State, revision, 1),
    DEFINE_PROP_UINT64("dsn", MR9600State, dsn, 0x500062b2000c0008ULL),
    DEFINE_PROP_UINT16("max-queues", MR9600State, max_op_queues,
                       MR9600_MAX_OP_QUEUES),
    DEFINE_PROP_UINT16("msix-vectors", MR9600State, msix_vectors,
                       MR9600_MSIX_VECTORS),
    DEFINE_PROP_UINT16("max-requests", MR9600State, max_outstanding,
                       MR9600_MAX_OUTSTANDING),
    DEFINE_PROP_UINT32("ready-timeout", MR9600State, ready_timeout, 120),
    DEFINE_PROP_ON_OFF_AUTO("sas-transport", MR9600State, sas_transport_prop,
                            ON_OFF_AUTO_AUTO),
    DEFINE_PROP_BOOL("reply-queue-limit", MR9600State, reply_queue_limit,
                     false),
    DEFINE_PROP_UINT16("io-throttle-groups", MR9600State, throttle_groups, 0),
    DEFINE_PROP_UINT8("io-throttle-devices", MR9600State, throttle_devices,
                      0),
    DEFINE_PROP_UINT32("io-throttle-data-kib", MR9600State,
                       throttle_data_kib, 0),
    DEFINE_PROP_UINT16("io-throttle-high-mib", MR9600State,
                       throttle_high_mib, 0),
    DEFINE_PROP_UINT16("io-throttle-low-mib", MR9600State, throttle_low_mib,
                       0),
    DEFINE_PROP_MR_NV_DRIVE("config-nvram", MR9600State, config_nvram),
    DEFINE_MR_CORE_PROPERTIES(MR9600State, core),
};

static const VMStateDescription mr9600_vmstate = {
    .name = "megaraid-9600",
    .unmigratable = 1,
};

static void mr9600_instance_init(Object *obj)
{
    MR9600State *s = MEGARAID_9600(obj);

    s->model_str = g_strdup("9670w-16i");
    s->prepare_reset_ms = 2000;
    mr_core_instance_init(&s->core);
    /* the firmware boots from the controller's disks in this order */
    device_add_bootindex_property(obj, &s->bootindex, "bootindex", NULL,
                                  DEVICE(obj));
}

static void mr9600_instance_finalize(Object *obj)
{
    mr_core_instance_finalize(&MEGARAID_9600(obj)->core);
}

static char *mr9600_get_fw_version(Object *obj, Error **errp)
{
    return g_strdup(MR9600_FW_VERSION);
}

static void mr9600_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    pc->realize = mr9600_realize;
    pc->exit = mr9600_exit;
    pc->vendor_id = MR9600_VENDOR_ID;
    pc->device_id = MR9600_DEVICE_ID;
    pc->class_id = PCI_CLASS_STORAGE_RAID;
    /* the UEFI boot driver (firmware/uefi), as the card's option ROM */
    pc->romfile = "megaraid-9600-efi.rom";
    rc->phases.hold = mr9600_reset_hold;
    dc->desc = "Broadcom MegaRAID 9600 (MPI 3.0, SAS4116) RAID controller";
    dc->vmsd = &mr9600_vmstate;
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, mr9600_props);
    object_class_property_add_str(oc, "firmware-version",
                                  mr9600_get_fw_version, NULL);
    object_class_property_set_description(oc, "firmware-version",
        "firmware version the IOC reports (IOC FACTS, management)");
    object_class_property_set_description(oc, "model",
        "family member: 9670w-16i (default), 9660-16i, 9670-24i, "
        "the eHBAs 9600-16i, 9600-24i, 9600-16e, and h965i");
    object_class_property_set_description(oc, "revision",
        "PCI revision ID; 0 makes the driver use contiguous queues");
    object_class_property_set_description(oc, "dsn",
        "PCIe Device Serial Number; bits 3:2 are the security status");
    object_class_property_set_description(oc, "max-queues",
        "operational queue pairs reported in IOC FACTS");
    object_class_property_set_description(oc, "msix-vectors",
        "MSI-X table size");
    object_class_property_set_description(oc, "max-requests",
        "MaxOutstandingRequests reported in IOC FACTS");
    object_class_property_set_description(oc, "ready-timeout",
        "IOC ready timeout in seconds reported in IOC Information");
    object_class_property_set_description(oc, "sas-transport",
        "on: the IOC reports no MULTIPATH capability, so the driver runs "
        "its SAS transport layer: phys, ports, end devices and the card's "
        "enclosure (docs/sas-topology.md); off: VDs and drives on the "
        "driver's own channels, with no SAS transport objects; auto: "
        "on for the eHBA models, off for the others");
    object_class_property_set_description(oc, "reply-queue-limit",
        "on: IOC FACTS sets MAX_REQ_PER_REPLY_QUEUE_LIMIT, so the driver "
        "holds back I/O while a reply queue is nearly full (counted in its "
        "reply_qfull_count); off: the flag clear");
    object_class_property_set_description(oc, "io-throttle-groups",
        "IOC FACTS MaxIOThrottleGroup: IO throttle groups the driver "
        "keeps for VDs (0: none)");
    object_class_property_set_description(oc, "io-throttle-devices",
        "IOC FACTS MaxDevicesPerThrottleGroup");
    object_class_property_set_description(oc, "io-throttle-data-kib",
        "IOC FACTS IOThrottleDataLength in KiB, a multiple of 4 up to the "
        "largest transfer (1024): larger I/Os count against a throttle "
        "group (0: the driver disables throttling)");
    object_class_property_set_description(oc, "io-throttle-high-mib",
        "IOC FACTS IOThrottleHigh: MiB of large I/O outstanding at which "
        "the driver starts throttling");
    object_class_property_set_description(oc, "io-throttle-low-mib",
        "IOC FACTS IOThrottleLow: MiB at which it stops, at most "
        "io-throttle-high-mib");
    object_class_property_set_description(oc, "config-nvram",
        "drive (-blockdev node name or -drive id, at least 512 bytes) that "
        "keeps the persistent CONFIG pages (IO Unit page 1, Driver pages 1 "
        "and 2) across a restart, as the card's NVRAM; without it they are "
        "kept for this run only");
    mr_core_class_init(oc, offsetof(MR9600State, core));
    mr9600_hotplug_class_init(oc);
    mr9600_fault_class_init(oc);
    mr9600_linkfault_class_init(oc);
    mr9600_pcie_class_init(oc);
    mr_class_mark_read_only(oc);
}

static const TypeInfo mr9600_info = {
    .name = TYPE_MEGARAID_9600,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(MR9600State),
    .instance_init = mr9600_instance_init,
    .instance_finalize = mr9600_instance_finalize,
    .class_init = mr9600_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { TYPE_HOTPLUG_HANDLER },
        { }
    },
};

static void mr9600_register_types(void)
{
    type_register_static(&mr9600_info);
}

type_init(mr9600_register_types)
