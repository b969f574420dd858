/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 configuration pages: the CONFIG request
 * (page header, read, write actions) and the pages the Linux drivers and
 * management tools read: Driver pages 1 and 2, Device page 0, IOC page 0,
 * IO Unit pages 0 and 1 and Manufacturing page 0; the writable pages
 * (IO Unit page 1, Driver pages 1 and 2): their current and persistent
 * copies, the fields a write may change, and the persistent copies'
 * file (the config-nvram property).
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "system/dma.h"
#include "system/block-backend.h"
#include "block/aio-wait.h"
#include "mr9600.h"
#include "hw/megaraid/nv-drive.h"
#include "trace.h"

#define MR9600_PAGE_MAX 512

/*
 * A writable page: which bits of each byte a write may change (bytes
 * past the mask, and the 8-byte header, are read-only) and the
 * page's default contents after the header.
 */
typedef struct MR9600PageFields {
    uint8_t store;              /* index in cfg_cur / cfg_pers */
    uint8_t writable[MR9600_CFG_STORED_MAX];
    uint8_t defaults[MR9600_CFG_STORED_MAX];
} MR9600PageFields;

/*
 * IO Unit page 1: Flags bits 5:0 (NVMe and SATA write cache policy, ATA
 * security freeze lock, write same buffer) and the four device missing
 * delay bytes.  Default: leave the drives' write caches as they are.
 */
static const MR9600PageFields mr9600_iounit1_fields = {
    .store = 0,
    .writable = { [8] = 0x3f, [12] = 0xff, [13] = 0xff, [14] = 0xff,
                  [15] = 0xff },
    .defaults = { [8] = 0x22 },
};

/*
 * Driver page 1: time stamp update interval and the host diag buffer
 * sizes (trace, firmware, driver: max, min, decrement), 16-bit each;
 * Flags has no defined bit.
 */
static const MR9600PageFields mr9600_driver1_fields = {
    .store = 1,
    .writable = { [12] = 0xff,
                  [16] = 0xff, [17] = 0xff, [18] = 0xff, [19] = 0xff,
                  [20] = 0xff, [21] = 0xff,
                  [24] = 0xff, [25] = 0xff, [26] = 0xff, [27] = 0xff,
                  [28] = 0xff, [29] = 0xff,
                  [32] = 0xff, [33] = 0xff, [34] = 0xff, [35] = 0xff,
                  [36] = 0xff, [37] = 0xff },
};

/*
 * Driver page 2: the global trigger bits MPI 3.0 defines (bits 63:59,
 * 2:1) and the number of trigger elements, which must be 0: the page
 * has no room for an element.
 */
static const MR9600PageFields mr9600_driver2_fields = {
    .store = 2,
    .writable = { [8] = 0x06, [15] = 0xf8, [28] = 0xff },
};

typedef struct MR9600Page {
    uint8_t type;
    uint8_t number;
    uint8_t attr;
    uint16_t bytes;                     /* 0: by the model (SAS pages) */
    const MR9600PageFields *fields;     /* NULL: read-only page */
    bool sas;                           /* only with sas-transport=on */
} MR9600Page;

static const MR9600Page mr9600_pages[] = {
    { MPI3_CONFIG_PAGETYPE_DRIVER, 1, MPI3_CONFIG_PAGEATTR_PERSISTENT, 40,
      &mr9600_driver1_fields },
    { MPI3_CONFIG_PAGETYPE_DRIVER, 2, MPI3_CONFIG_PAGEATTR_PERSISTENT, 32,
      &mr9600_driver2_fields },
    { MPI3_CONFIG_PAGETYPE_DEVICE, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 64 },
    { MPI3_CONFIG_PAGETYPE_IOC, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 28 },
    { MPI3_CONFIG_PAGETYPE_IO_UNIT, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 24 },
    { MPI3_CONFIG_PAGETYPE_IO_UNIT, 1, MPI3_CONFIG_PAGEATTR_PERSISTENT, 16,
      &mr9600_iounit1_fields },
    { MPI3_CONFIG_PAGETYPE_MANUFACTURING, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY,
      448 },
    /* the SAS transport personality's (mr9600-sas.c, mr9600-encl.c) */
    { MPI3_CONFIG_PAGETYPE_ENCLOSURE, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 32,
      NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 0,
      NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 1, MPI3_CONFIG_PAGEATTR_READ_ONLY, 0,
      NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_PHY, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY, 0,
      NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_EXPANDER, 0, MPI3_CONFIG_PAGEATTR_READ_ONLY,
      MPI3_SASEXPANDER0_BYTES, NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_EXPANDER, 1, MPI3_CONFIG_PAGEATTR_READ_ONLY,
      MPI3_SASEXPANDER1_BYTES, NULL, true },
    { MPI3_CONFIG_PAGETYPE_SAS_PHY, 1, MPI3_CONFIG_PAGEATTR_READ_ONLY, 0,
      NULL, true },
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

/* A page's length in bytes on this controller. */
static uint16_t mr9600_page_len(MR9600State *s, const MR9600Page *pg)
{
    return pg->bytes ? pg->bytes
                     : mr9600_sas_page_bytes(s, pg->type, pg->number);
}

void mr9600_config_page_header(uint8_t type, uint8_t number, uint16_t bytes,
                               MPI3ConfigPageHeader *h)
{
    const MR9600Page *pg = mr9600_find_page(type, number);

    memset(h, 0, sizeof(*h));
    h->page_version = 0;
    h->page_number = number;
    h->page_attribute = pg ? pg->attr : MPI3_CONFIG_PAGEATTR_READ_ONLY;
    h->page_length = cpu_to_le16(bytes / 4);
    h->page_type = type;
}

static void mr9600_page_header(MR9600State *s, const MR9600Page *pg,
                               MPI3ConfigPageHeader *h)
{
    mr9600_config_page_header(pg->type, pg->number, mr9600_page_len(s, pg),
                              h);
}

/*
 * The persistent copies' drive (config-nvram, a QEMU drive: nv-drive.h):
 * its first MR9600_NVRAM_BYTES hold "MRCFGNV1", then per writable page
 * its type, number, length in bytes (16-bit little endian) and contents,
 * then zeroes.  A drive of zeroes holds no copies yet: the defaults.
 */
#define MR9600_NVRAM_MAGIC "MRCFGNV1"

static bool mr9600_cfg_load_nvram(MR9600State *s, Error **errp)
{
    const char *name = mr_nv_drive_name(s->config_nvram);
    g_autofree char *desc = mr_nv_drive_desc(s->config_nvram);
    uint8_t data[MR9600_NVRAM_BYTES];
    size_t len = sizeof(data), off = 8;
    int ret;

    ret = blk_pread(s->config_nvram, 0, len, data, 0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "config-nvram: drive %s: cannot "
                         "read it", desc);
        return false;
    }
    if (buffer_is_zero(data, len)) {
        /* a blank drive: defaults until the first persistent write */
        trace_megaraid_9600_config_nvram(name, "blank");
        return true;
    }
    if (memcmp(data, MR9600_NVRAM_MAGIC, 8)) {
        error_setg(errp, "config-nvram: drive %s holds no megaraid-9600 "
                   "config NVRAM (bad magic); a blank drive starts from "
                   "the defaults", desc);
        return false;
    }
    while (off + 4 <= len) {
        uint8_t type = data[off], number = data[off + 1];
        uint16_t bytes = lduw_le_p(data + off + 2);
        const MR9600Page *pg = mr9600_find_page(type, number);

        off += 4;
        if (!bytes || off + bytes > len) {
            break;
        }
        if (pg && pg->fields && pg->bytes == bytes) {
            memcpy(s->cfg_pers[pg->fields->store] + 8, data + off + 8,
                   bytes - 8);
        }
        off += bytes;
    }
    trace_megaraid_9600_config_nvram(name, "loaded");
    return true;
}

/* The stored pages, from defaults and the drive, at realize. */
bool mr9600_config_realize(MR9600State *s, Error **errp)
{
    for (size_t i = 0; i < ARRAY_SIZE(mr9600_pages); i++) {
        const MR9600PageFields *f = mr9600_pages[i].fields;

        if (f) {
            memcpy(s->cfg_pers[f->store], f->defaults, sizeof(f->defaults));
        }
    }
    if (s->config_nvram &&
        (!mr_nv_drive_claim(s->config_nvram, "config-nvram",
                            MR9600_NVRAM_BYTES, "one sector", errp) ||
         !mr9600_cfg_load_nvram(s, errp))) {
        return false;
    }
    memcpy(s->cfg_cur, s->cfg_pers, sizeof(s->cfg_cur));
    qemu_co_mutex_init(&s->cfg_nvram_lock);
    return true;
}

/*
 * A WRITE PERSISTENT on its way to config-nvram: the page's new copy,
 * which becomes the persistent copy once it is durable on the drive, and
 * the request whose reply waits for that (dropped if the IOC was reset or
 * the device went meanwhile: mgmt_epoch moved on).
 */
typedef struct MR9600CfgWrite {
    MR9600State *s;
    const MR9600Page *pg;
    uint32_t epoch;
    MPI3RequestHeader hdr;
    uint8_t action;
    uint8_t copy[MR9600_CFG_STORED_MAX];
} MR9600CfgWrite;

/* The drive's image of the persistent copies, with w's page as w has it. */
static void mr9600_cfg_image(MR9600State *s, const MR9600CfgWrite *w,
                             uint8_t *b)
{
    size_t off = 8;

    memset(b, 0, MR9600_NVRAM_BYTES);
    memcpy(b, MR9600_NVRAM_MAGIC, 8);
    for (size_t i = 0; i < ARRAY_SIZE(mr9600_pages); i++) {
        const MR9600Page *pg = &mr9600_pages[i];

        if (!pg->fields) {
            continue;
        }
        assert(off + 4 + pg->bytes <= MR9600_NVRAM_BYTES);
        b[off] = pg->type;
        b[off + 1] = pg->number;
        stw_le_p(b + off + 2, pg->bytes);
        memcpy(b + off + 4, pg == w->pg ? w->copy :
               s->cfg_pers[pg->fields->store], pg->bytes);
        off += 4 + pg->bytes;
    }
}

/*
 * Write the persistent copies with w's page to the drive and flush it,
 * one write at a time (in the order the requests came), then post the
 * reply: SUCCESS with the new copy in place, INTERNAL ERROR with the old
 * one kept.  The main loop runs meanwhile.
 */
static void coroutine_fn mr9600_cfg_save_co(void *opaque)
{
    MR9600CfgWrite *w = opaque;
    MR9600State *s = w->s;
    const char *name = mr_nv_drive_name(s->config_nvram);
    uint8_t b[MR9600_NVRAM_BYTES];
    int ret;

    qemu_co_mutex_lock(&s->cfg_nvram_lock);
    mr9600_cfg_image(s, w, b);
    ret = blk_co_pwrite(s->config_nvram, 0, sizeof(b), b, 0);
    if (ret >= 0) {
        ret = blk_co_flush(s->config_nvram);
    }
    if (ret >= 0) {
        memcpy(s->cfg_pers[w->pg->fields->store], w->copy, sizeof(w->copy));
    }
    qemu_co_mutex_unlock(&s->cfg_nvram_lock);

    trace_megaraid_9600_config_nvram(name, ret < 0 ? strerror(-ret)
                                                   : "written");
    if (w->epoch != s->mgmt_epoch) {
        trace_megaraid_9600_config_dropped(le16_to_cpu(w->hdr.host_tag));
    } else if (ret < 0) {
        mr9600_reply_status(s, 0, &w->hdr, MPI3_IOCSTATUS_INTERNAL_ERROR);
    } else {
        trace_megaraid_9600_config_write(w->pg->type, w->pg->number,
                                         w->action);
        mr9600_reply_status(s, 0, &w->hdr, MPI3_IOCSTATUS_SUCCESS);
    }
    g_free(w);
    s->cfg_nvram_writes--;
    aio_wait_kick();
}

/* At unrealize: the writes in flight end first (their replies dropped). */
void mr9600_config_exit(MR9600State *s)
{
    AIO_WAIT_WHILE(NULL, s->cfg_nvram_writes);
}

void mr9600_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p)
{
    const MR9600Page *pg = mr9600_find_page(MPI3_CONFIG_PAGETYPE_DEVICE, 0);
    uint16_t flags = MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                     MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT;
    /* set at realize (drive.c) or by the array for a VD */
    uint64_t wwid = u->wwn;
    uint16_t handle = u->host_id;

    memset(p, 0, sizeof(*p));
    mr9600_page_header(s, pg, &p->header);
    if (u->drive && u->drive->in_array) {
        flags |= MPI3_DEVICE0_FLAGS_HIDDEN;
    }
    p->dev_handle = cpu_to_le16(handle);
    p->persistent_id = cpu_to_le16(handle - 1);
    if (u->vd) {
        mr9600_vd_page0(s, u, p);
        return;
    }
    if (u->ses) {
        mr9600_ses_page0(s, p);
        return;
    }
    p->parent_dev_handle = cpu_to_le16(MPI3_DEVICE0_PARENT_INVALID);
    p->slot = cpu_to_le16(u->slot);
    p->enclosure_handle = 0;
    p->wwid = cpu_to_le64(wwid);
    p->persistent_id = cpu_to_le16(handle - 1);
    p->io_unit_port = mr9600_unit_port(s, u);
    p->access_status = 0;
    p->flags = cpu_to_le16(flags);
    p->slot_index = cpu_to_le16(u->slot);
    if (u->iface == MR_IF_NVME) {
        MPI3Device0PCIe *n = &p->device_specific.pcie;

        p->queue_depth = cpu_to_le16(mr_core_queue_depth(u));
        p->device_form = MPI3_DEVICE_DEVFORM_PCIE;
        n->supported_link_rates = MPI3_DEVICE0_PCIE_LINK_RATE_16_0_SUPP;
        n->max_port_width = 4;
        n->negotiated_port_width = 4;
        n->negotiated_link_rate = MPI3_PCIE_NEG_LINK_RATE_16_0;
        n->port_num = u->slot;
        n->device_info = cpu_to_le16(MPI3_DEVICE0_PCIE_DEVICE_INFO_TYPE_NVME);
        n->maximum_data_transfer_size = cpu_to_le32(
            u->drive ? u->drive->nvme_mdts : MR9600_MAX_DATA_LENGTH);
        n->page_size = u->drive ? ctz32(u->drive->nvme_page_size) : 12;
        n->capabilities = cpu_to_le32(MPI3_DEVICE0_PCIE_CAP_SGL_SUPP);
    } else {
        MPI3Device0SASSATA *a = &p->device_specific.sas_sata;
        bool sata = u->iface == MR_IF_SATA;

        p->queue_depth = cpu_to_le16(mr_core_queue_depth(u));
        p->device_form = MPI3_DEVICE_DEVFORM_SAS_SATA;
        a->sas_address = cpu_to_le64(wwid);
        a->device_info = cpu_to_le16(MPI3_SAS_DEVICE_INFO_END_DEVICE |
            (sata ? MPI3_SAS_DEVICE_INFO_STP_SATA_TARGET
                  : MPI3_SAS_DEVICE_INFO_SSP_TARGET));
        a->phy_num = u->slot;
        a->max_port_connections = 1;
        /* on a controller phy: parent, enclosure, port, link rate */
        mr9600_sas_device_page0(s, u, p);
    }
}

static void mr9600_ioc_page0(MR9600State *s, uint8_t *buf)
{
    PCIDevice *pci = PCI_DEVICE(s);

    stw_le_p(buf + 0x0C, pci_get_word(pci->config + PCI_VENDOR_ID));
    stw_le_p(buf + 0x0E, pci_get_word(pci->config + PCI_DEVICE_ID));
    buf[0x10] = pci->config[PCI_REVISION_ID];
    stl_le_p(buf + 0x14, PCI_CLASS_STORAGE_RAID << 8);
    stw_le_p(buf + 0x18, s->model->core.subsys_vendor);
    stw_le_p(buf + 0x1A, s->model->core.subsys_id);
}

static void mr9600_mfg_page0(MR9600State *s, uint8_t *buf)
{
    strpadcpy((char *)buf + 0x08, 8, "B0", '\0');
    strpadcpy((char *)buf + 0x10, 32, "SAS4116", '\0');
    strpadcpy((char *)buf + 0x30, 32, s->model->core.product, '\0');
    strpadcpy((char *)buf + 0x50, 32, "03-50107-00000", '\0');
    strpadcpy((char *)buf + 0x70, 32, "SKA0000000", '\0');
    strpadcpy((char *)buf + 0xC0, 256, s->model->core.product, '\0');
}

/* Build the page into buf; returns an IOC status. */
static uint16_t mr9600_build_page(MR9600State *s, const MR9600Page *pg,
                                  uint32_t page_address, uint8_t *buf)
{
    MRUnit *u;
    uint16_t handle;

    memset(buf, 0, MR9600_PAGE_MAX);
    mr9600_page_header(s, pg, (MPI3ConfigPageHeader *)buf);
    switch (pg->type) {
    case MPI3_CONFIG_PAGETYPE_DEVICE:
        handle = page_address & MPI3_DEVICE_PGAD_HANDLE_MASK;
        switch (page_address & MPI3_DEVICE_PGAD_FORM_MASK) {
        case MPI3_DEVICE_PGAD_FORM_HANDLE:
            if (mr9600_sas_ctrl_page(s, handle, buf)) {
                return MPI3_IOCSTATUS_SUCCESS;
            }
            u = mr9600_unit_by_handle(s, handle);
            break;
        case MPI3_DEVICE_PGAD_FORM_GET_NEXT:
            u = mr9600_next_unit(s, handle);
            break;
        default:
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
        if (!u) {
            return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
        }
        mr9600_device_page0(s, u, (MPI3DevicePage0 *)buf);
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
    case MPI3_CONFIG_PAGETYPE_ENCLOSURE:
        return mr9600_encl_build_page(s, page_address, buf);
    case MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT:
    case MPI3_CONFIG_PAGETYPE_SAS_PHY:
    case MPI3_CONFIG_PAGETYPE_SAS_EXPANDER:
        return mr9600_sas_build_page(s, pg->type, pg->number, page_address,
                                     buf);
    default:
        break;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/* The copy of a writable page that action reads or writes (body only). */
static const uint8_t *mr9600_cfg_copy(MR9600State *s, const MR9600Page *pg,
                                      uint8_t action)
{
    uint8_t i = pg->fields->store;

    switch (action) {
    case MPI3_CONFIG_ACTION_READ_DEFAULT:
        return pg->fields->defaults;
    case MPI3_CONFIG_ACTION_READ_PERSISTENT:
    case MPI3_CONFIG_ACTION_WRITE_PERSISTENT:
        return s->cfg_pers[i];
    default:
        return s->cfg_cur[i];
    }
}

/*
 * Checks of a page write's data against the copy it replaces: the header
 * names this page, only writable bits change, and the writable fields
 * hold values the page defines.  Returns the IOC status to post.
 */
static uint16_t mr9600_check_page_write(const MR9600Page *pg,
                                        const uint8_t *old,
                                        const uint8_t *buf)
{
    const MPI3ConfigPageHeader *h = (const void *)buf;
    uint32_t flags;

    if (h->page_type != pg->type || h->page_number != pg->number ||
        le16_to_cpu(h->page_length) != pg->bytes / 4) {
        trace_megaraid_9600_err_config_write(pg->type, pg->number, 0,
                                             "header names another page");
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
    for (unsigned k = 8; k < pg->bytes; k++) {
        if ((buf[k] ^ old[k]) & ~pg->fields->writable[k]) {
            trace_megaraid_9600_err_config_write(pg->type, pg->number, k,
                                                 "read-only or reserved");
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
    }
    switch (pg->type) {
    case MPI3_CONFIG_PAGETYPE_IO_UNIT:
        flags = ldl_le_p(buf + 8);
        /* 30h and 03h are reserved encodings of the write cache fields */
        if ((flags & 0x30) == 0x30 || (flags & 0x03) == 0x03) {
            trace_megaraid_9600_err_config_write(pg->type, pg->number, 8,
                                                 "reserved cache setting");
            return MPI3_IOCSTATUS_CONFIG_INVALID_DATA;
        }
        break;
    case MPI3_CONFIG_PAGETYPE_DRIVER:
        if (pg->number == 2 && buf[28] != 0) {
            trace_megaraid_9600_err_config_write(pg->type, pg->number, 28,
                                                 "no room for triggers");
            return MPI3_IOCSTATUS_CONFIG_INVALID_DATA;
        }
        break;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * WRITE CURRENT / WRITE PERSISTENT of a writable page.  A WRITE
 * PERSISTENT with config-nvram completes once the copy is durable: its
 * reply comes from mr9600_cfg_save_co (*later set).
 */
static uint16_t mr9600_write_page(MR9600State *s, const MR9600Page *pg,
                                  const MPI3ConfigRequest *req,
                                  uint64_t addr, uint32_t len, bool *later)
{
    uint8_t buf[MR9600_CFG_STORED_MAX];
    uint8_t *copy = (uint8_t *)mr9600_cfg_copy(s, pg, req->action);
    MR9600CfgWrite *w;
    uint16_t st;

    if (le16_to_cpu(req->page_length) != pg->bytes / 4) {
        trace_megaraid_9600_err_config_write(pg->type, pg->number, 0,
                                             "request page length");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (len < pg->bytes) {
        trace_megaraid_9600_err_config_write(pg->type, pg->number, len,
                                             "buffer shorter than the page");
        return MPI3_IOCSTATUS_INVALID_SGL;
    }
    if (pci_dma_read(PCI_DEVICE(s), addr, buf, pg->bytes) != MEMTX_OK) {
        return MPI3_IOCSTATUS_INVALID_SGL;
    }
    st = mr9600_check_page_write(pg, copy, buf);
    if (st != MPI3_IOCSTATUS_SUCCESS) {
        return st;
    }
    if (req->action == MPI3_CONFIG_ACTION_WRITE_PERSISTENT &&
        s->config_nvram) {
        w = g_new0(MR9600CfgWrite, 1);
        w->s = s;
        w->pg = pg;
        w->epoch = s->mgmt_epoch;
        w->hdr = req->hdr;
        w->action = req->action;
        memcpy(w->copy, copy, sizeof(w->copy));
        memcpy(w->copy + 8, buf + 8, pg->bytes - 8);
        s->cfg_nvram_writes++;
        *later = true;
        qemu_coroutine_enter(qemu_coroutine_create(mr9600_cfg_save_co, w));
        return MPI3_IOCSTATUS_SUCCESS;
    }
    memcpy(copy + 8, buf + 8, pg->bytes - 8);
    trace_megaraid_9600_config_write(pg->type, pg->number, req->action);
    return MPI3_IOCSTATUS_SUCCESS;
}

void mr9600_config_request(MR9600State *s, const MPI3ConfigRequest *req)
{
    const MR9600Page *pg = mr9600_find_page(req->page_type, req->page_number);
    uint32_t page_address = le32_to_cpu(req->page_address);
    uint8_t buf[MR9600_PAGE_MAX];
    uint16_t st = MPI3_IOCSTATUS_SUCCESS;
    bool later = false;
    uint64_t addr;
    uint32_t len;

    trace_megaraid_9600_config(req->page_type, req->page_number, req->action,
                               page_address);
    if (pg && pg->sas && !mr9600_sas_on(s)) {
        pg = NULL;              /* the multipath personality has none */
    }
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
        mr9600_page_header(s, pg, (MPI3ConfigPageHeader *)buf);
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
        if (st == MPI3_IOCSTATUS_SUCCESS && pg->fields) {
            memcpy(buf + 8, mr9600_cfg_copy(s, pg, req->action) + 8,
                   pg->bytes - 8);
        }
        if (st == MPI3_IOCSTATUS_SUCCESS) {
            pci_dma_write(PCI_DEVICE(s), addr, buf,
                          MIN(len, mr9600_page_len(s, pg)));
        }
        break;
    case MPI3_CONFIG_ACTION_WRITE_CURRENT:
    case MPI3_CONFIG_ACTION_WRITE_PERSISTENT:
        if (pg->attr == MPI3_CONFIG_PAGEATTR_READ_ONLY || !pg->fields ||
            (req->action == MPI3_CONFIG_ACTION_WRITE_PERSISTENT &&
             pg->attr != MPI3_CONFIG_PAGEATTR_PERSISTENT)) {
            trace_megaraid_9600_err_config_write(pg->type, pg->number, 0,
                                                 "page is read-only");
            st = MPI3_IOCSTATUS_CONFIG_INVALID_ACTION;
            break;
        }
        st = mr9600_write_page(s, pg, req, addr, len, &later);
        if (later) {
            return;
        }
        break;
    default:
        st = MPI3_IOCSTATUS_CONFIG_INVALID_ACTION;
        break;
    }
out:
    mr9600_reply_status(s, 0, &req->hdr, st);
}
