/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 configuration pages: the CONFIG request
 * (page header, read, write actions) and the pages the Linux drivers and
 * management tools read: Driver pages 1 and 2, Device page 0, IOC page 0,
 * IO Unit pages 0 and 1 and Manufacturing page 0.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_PAGE_MAX 448

typedef struct MR9600Page {
    uint8_t type;
    uint8_t number;
    uint8_t attr;
    uint16_t bytes;
} MR9600Page;

static const MR9600Page mr9600_pages[] = {
    { MPI3_CONFIG_PAGETYPE_DRIVER, 1, MPI3_CONFIG_PAGEATTR_PERSISTENT, 40 },
    { MPI3_CONFIG_PAGETYPE_DRIVER, 2, MPI3_CONFIG_PAGEATTR_PERSISTENT, 32 },
    { MPI3_CONFIG_PAGETYPE_DEVICE, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 64 },
    { MPI3_CONFIG_PAGETYPE_IOC, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 28 },
    { MPI3_CONFIG_PAGETYPE_IO_UNIT, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 24 },
    { MPI3_CONFIG_PAGETYPE_IO_UNIT, 1, MPI3_CONFIG_PAGEATTR_CHANGEABLE, 16 },
    { MPI3_CONFIG_PAGETYPE_MANUFACTURING, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY,
      448 },
};

static const MR9600Page *mr9600_find_page(uint8_t type, uint8_t number)
{
    for (size_t i = 0; i < ARRAY_SIZE(mr9600_pages); i++) {
        if (mr9600_pages[i].type == type && mr9600_pages[i].number == number) {
            return &mr9600_pages[i];
        }
    }
    return NULL;
}

static void mr9600_page_header(const MR9600Page *pg, MPI3ConfigPageHeader *h)
{
    memset(h, 0, sizeof(*h));
    h->page_version = 0;
    h->page_number = pg->number;
    h->page_attribute = pg->attr;
    h->page_length = cpu_to_le16(pg->bytes / 4);
    h->page_type = pg->type;
}

void mr9600_device_page0(MR9600State *s, MRDrive *d, MPI3DevicePage0 *p)
{
    const MR9600Page *pg = mr9600_find_page(MPI3_CONFIG_PAGETYPE_DEVICE, 0);
    uint16_t flags = MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                     MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT;
    /* set at realize (drive.c) or by the array for a VD */
    uint64_t wwid = d->wwn;

    memset(p, 0, sizeof(*p));
    mr9600_page_header(pg, &p->header);
    if (d->in_array) {
        flags |= MPI3_DEVICE0_FLAGS_HIDDEN;
    }
    p->dev_handle = cpu_to_le16(d->dev_handle);
    p->persistent_id = cpu_to_le16(d->dev_handle - 1);
    if (d->vd) {
        mr9600_vd_page0(s, d, p);
        return;
    }
    p->parent_dev_handle = cpu_to_le16(MPI3_DEVICE0_PARENT_INVALID);
    p->slot = cpu_to_le16(d->slot);
    p->enclosure_handle = 0;
    p->wwid = cpu_to_le64(wwid);
    p->persistent_id = cpu_to_le16(d->dev_handle - 1);
    p->io_unit_port = d->slot / 4;
    p->access_status = 0;
    p->flags = cpu_to_le16(flags);
    p->slot_index = cpu_to_le16(d->slot);
    if (d->iface == MR_IF_NVME) {
        MPI3Device0PCIe *n = &p->device_specific.pcie;

        p->queue_depth = cpu_to_le16(128);
        p->device_form = MPI3_DEVICE_DEVFORM_PCIE;
        n->supported_link_rates = MPI3_DEVICE0_PCIE_LINK_RATE_16_0_SUPP;
        n->max_port_width = 4;
        n->negotiated_port_width = 4;
        n->negotiated_link_rate = MPI3_PCIE_NEG_LINK_RATE_16_0;
        n->port_num = d->slot;
        n->device_info = cpu_to_le16(MPI3_DEVICE0_PCIE_DEVICE_INFO_TYPE_NVME);
        n->maximum_data_transfer_size = cpu_to_le32(MR9600_MAX_DATA_LENGTH);
        n->page_size = 12;
    } else {
        MPI3Device0SASSATA *a = &p->device_specific.sas_sata;
        bool sata = d->iface == MR_IF_SATA;

        p->queue_depth = cpu_to_le16(sata ? 32 : 64);
        p->device_form = MPI3_DEVICE_DEVFORM_SAS_SATA;
        a->sas_address = cpu_to_le64(wwid);
        a->device_info = cpu_to_le16(MPI3_SAS_DEVICE_INFO_END_DEVICE |
            (sata ? MPI3_SAS_DEVICE_INFO_STP_SATA_TARGET
                  : MPI3_SAS_DEVICE_INFO_SSP_TARGET));
        a->phy_num = d->slot;
        a->max_port_connections = 1;
    }
}

static void mr9600_ioc_page0(MR9600State *s, uint8_t *buf)
{
    PCIDevice *pci = PCI_DEVICE(s);

    stw_le_p(buf + 0x0C, pci_get_word(pci->config + PCI_VENDOR_ID));
    stw_le_p(buf + 0x0E, pci_get_word(pci->config + PCI_DEVICE_ID));
    buf[0x10] = pci->config[PCI_REVISION_ID];
    stl_le_p(buf + 0x14, PCI_CLASS_STORAGE_RAID << 8);
    stw_le_p(buf + 0x18, s->model->subsys_vendor);
    stw_le_p(buf + 0x1A, s->model->subsys_id);
}

static void mr9600_mfg_page0(MR9600State *s, uint8_t *buf)
{
    strpadcpy((char *)buf + 0x08, 8, "B0", '\0');
    strpadcpy((char *)buf + 0x10, 32, "SAS4116", '\0');
    strpadcpy((char *)buf + 0x30, 32, s->model->product, '\0');
    strpadcpy((char *)buf + 0x50, 32, "03-50107-00000", '\0');
    strpadcpy((char *)buf + 0x70, 32, "SKA0000000", '\0');
    strpadcpy((char *)buf + 0xC0, 256, s->model->product, '\0');
}

/* Build the page into buf; returns an IOC status. */
static uint16_t mr9600_build_page(MR9600State *s, const MR9600Page *pg,
                                  uint32_t page_address, uint8_t *buf)
{
    MRDrive *d;
    uint16_t handle;

    memset(buf, 0, MR9600_PAGE_MAX);
    mr9600_page_header(pg, (MPI3ConfigPageHeader *)buf);
    switch (pg->type) {
    case MPI3_CONFIG_PAGETYPE_DEVICE:
        handle = page_address & MPI3_DEVICE_PGAD_HANDLE_MASK;
        switch (page_address & MPI3_DEVICE_PGAD_FORM_MASK) {
        case MPI3_DEVICE_PGAD_FORM_HANDLE:
            d = mr9600_drive_by_handle(s, handle);
            break;
        case MPI3_DEVICE_PGAD_FORM_GET_NEXT:
            d = mr9600_next_drive(s, handle);
            break;
        default:
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
        if (!d) {
            return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
        }
        mr9600_device_page0(s, d, (MPI3DevicePage0 *)buf);
        break;
    case MPI3_CONFIG_PAGETYPE_IOC:
        mr9600_ioc_page0(s, buf);
        break;
    case MPI3_CONFIG_PAGETYPE_MANUFACTURING:
        mr9600_mfg_page0(s, buf);
        break;
    case MPI3_CONFIG_PAGETYPE_IO_UNIT:
        if (pg->number == 0) {
            stq_le_p(buf + 0x08, s->dsn);
        }
        break;
    default:
        /* Driver pages 1 and 2: no diag buffers, no triggers. */
        break;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

void mr9600_config_request(MR9600State *s, const MPI3ConfigRequest *req)
{
    const MR9600Page *pg = mr9600_find_page(req->page_type, req->page_number);
    uint32_t page_address = le32_to_cpu(req->page_address);
    uint8_t buf[MR9600_PAGE_MAX];
    uint16_t st = MPI3_IOCSTATUS_SUCCESS;
    uint64_t addr;
    uint32_t len;

    trace_megaraid_config(req->page_type, req->page_number, req->action,
                          page_address);
    if (!pg) {
        st = MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
        goto out;
    }
    if (!mr9600_read_sge(s, &req->sgl, &addr, &len)) {
        st = MPI3_IOCSTATUS_INVALID_SGL;
        goto out;
    }
    switch (req->action) {
    case MPI3_CONFIG_ACTION_PAGE_HEADER:
        mr9600_page_header(pg, (MPI3ConfigPageHeader *)buf);
        pci_dma_write(PCI_DEVICE(s), addr, buf,
                      MIN(len, sizeof(MPI3ConfigPageHeader)));
        break;
    case MPI3_CONFIG_ACTION_READ_DEFAULT:
    case MPI3_CONFIG_ACTION_READ_CURRENT:
    case MPI3_CONFIG_ACTION_READ_PERSISTENT:
        if (req->action != MPI3_CONFIG_ACTION_READ_CURRENT &&
            pg->attr != MPI3_CONFIG_PAGEATTR_PERSISTENT) {
            st = MPI3_IOCSTATUS_CONFIG_INVALID_ACTION;
            break;
        }
        st = mr9600_build_page(s, pg, page_address, buf);
        if (st == MPI3_IOCSTATUS_SUCCESS) {
            pci_dma_write(PCI_DEVICE(s), addr, buf, MIN(len, pg->bytes));
        }
        break;
    case MPI3_CONFIG_ACTION_WRITE_CURRENT:
    case MPI3_CONFIG_ACTION_WRITE_PERSISTENT:
        if (pg->attr == MPI3_CONFIG_PAGEATTR_READ_ONLY ||
            (req->action == MPI3_CONFIG_ACTION_WRITE_PERSISTENT &&
             pg->attr != MPI3_CONFIG_PAGEATTR_PERSISTENT)) {
            st = MPI3_IOCSTATUS_CONFIG_INVALID_ACTION;
        }
        /* Writable pages hold no state the device acts on yet. */
        break;
    default:
        st = MPI3_IOCSTATUS_CONFIG_INVALID_ACTION;
        break;
    }
out:
    mr9600_reply_status(s, 0, &req->hdr, st);
}
