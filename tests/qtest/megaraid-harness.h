/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the MPI 3.0 host layer every megaraid-9600 qtest shares:
 * booting QEMU with the controller, BAR and MSI-X access, the admin
 * queues, IOC INIT, operational queue pair 1, events, PORT ENABLE, frame
 * builders, and reply polling that can give up (a fault test expects some
 * replies never to come).  Ring sizes are per instance (HMR's *_n fields,
 * H_*_N when left 0).  megaraid-rig.h builds the MPI3 RAID rig on top of
 * it.  The firmware search path, guest memory and the QOM helpers are the
 * shared qtest core's (megaraid-qtest-core.h).  Offsets are written from
 * the MPI 3.0 interface description, not from the device's header.
 * Everything is static inline: a qtest includes what it uses.
 */
#ifndef MEGARAID_HARNESS_H
#define MEGARAID_HARNESS_H

#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci-pc.h"
#include "qemu/bswap.h"
#include "qobject/qbool.h"
#include "qobject/qdict.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"
#include "qobject/qjson.h"
#include "qapi/error.h"
#include "hw/pci/pci_regs.h"
#include "megaraid-qtest-core.h"

#define H_DEVFN         0x20
#define H_AREQ_N        64
#define H_AREP_N        128
#define H_OREQ_N        64
#define H_OREP_N        48
#define H_RFREE_N       65
#define H_SFREE_N       17
#define H_DISK_BLOCKS   2048

#define H_IOC_CONFIG    0x0014
#define H_IOC_STATUS    0x001C
#define H_ADMIN_N       0x0024
#define H_ADMIN_REQ     0x0028
#define H_ADMIN_REP     0x0030
#define H_AREQ_PI       0x1000
#define H_AREP_CI       0x1004
#define H_OREQ_PI(n)    (0x1008 + 8 * ((n) - 1))
#define H_OREP_CI(n)    (0x100C + 8 * ((n) - 1))
#define H_WRITE_SEQ     0x1C04
#define H_HOST_DIAG     0x1C08
#define H_FAULT         0x1C10
#define H_FAULT_INFO0   0x1C14
#define H_RFREE_HOST    0x1C40
#define H_SFREE_HOST    0x1C44

#define H_ST_READY      0x01
#define H_ST_FAULT      0x02
#define H_ST_RESET_HIST 0x10

/* What mpi3mr leaves unmasked (EVENT NOTIFICATION's four mask words) */
#define H_EVENT_MASK_DRIVER \
    ((const uint32_t[4]) { 0xFDB9843F, 0xFFFFFFFA, 0xFFFFFFFF, 0xFFFFFFFF })

#define H_DT_ADDRESS    0x0
#define H_DT_SUCCESS    0x1
#define H_DT_STATUS     0x3

typedef struct HDesc {
    int type;
    uint16_t tag;
    uint16_t status;
    uint16_t qid;               /* request queue and its consumer index */
    uint16_t qci;
    uint64_t frame_addr;
    uint8_t frame[128];
} HDesc;

typedef struct HMR {
    QOSState *qs;
    QTestState *qts;
    QPCIDevice *dev;
    QPCIBar bar;
    uint64_t bar0;              /* BAR0's guest physical address */
    char *img;
    uint64_t areq, arep, msi, buf;
    uint32_t areq_pi, arep_ci;
    bool arep_phase;
    uint64_t rfree, sfree, frames, senses;
    uint32_t rfree_host, sfree_host;
    uint64_t oreq, orep;
    uint32_t oreq_pi, orep_ci;
    bool orep_phase;
    bool segmented;             /* request queue 1 in 4 KiB segments */
    uint64_t oseglist;          /* ... listed here */
    uint16_t handles[8];        /* announced at PORT ENABLE */
    int nhandles;
    /* ring sizes in entries; h_launch() fills the ones left 0 */
    uint32_t areq_n, arep_n, oreq_n, orep_n, rfree_n, sfree_n;
    int admin_ms;               /* admin reply wait in h_admin; 0: 5 s */
    size_t data_size;           /* > 0: h_launch() allocates m->data */
    uint64_t data;
    uint16_t tag;               /* free for the layer above */
    GArray *events;             /* kept by the layer above, if it wants */
    struct RaidHost *host;      /* the RAID qtests' interface over it */
} HMR;

static inline uint32_t h_rd(HMR *m, uint32_t off)
{
    return qpci_io_readl(m->dev, m->bar, off);
}

static inline void h_wr(HMR *m, uint32_t off, uint32_t val)
{
    qpci_io_writel(m->dev, m->bar, off, val);
}

static inline uint64_t h_alloc(HMR *m, size_t size)
{
    return qc_alloc(m->qs, size);
}

/* Point MSI-X vector v at addr with data. */
static inline void h_msix(HMR *m, int v, uint64_t addr, uint32_t data)
{
    uint64_t e = m->dev->msix_table_off + v * 16;

    qpci_io_writel(m->dev, m->dev->msix_table_bar, e, addr);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 4, addr >> 32);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 8, data);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 12, 0);
}

/*
 * Boot QEMU with megaraid-9600 raid0 (PCI 04.0) whose device properties
 * get @ctrl_props appended (",name=value..."), and @rest after it; map
 * BAR0, point MSI-X vectors 0-3 at m->msi (vector v writes v + 1 at
 * msi + 4v) and allocate the rings.
 */
static inline void h_launch(HMR *m, const char *ctrl_props, const char *rest)
{
    m->areq_n = m->areq_n ? m->areq_n : H_AREQ_N;
    m->arep_n = m->arep_n ? m->arep_n : H_AREP_N;
    m->oreq_n = m->oreq_n ? m->oreq_n : H_OREQ_N;
    m->orep_n = m->orep_n ? m->orep_n : H_OREP_N;
    m->rfree_n = m->rfree_n ? m->rfree_n : H_RFREE_N;
    m->sfree_n = m->sfree_n ? m->sfree_n : H_SFREE_N;
    m->qs = qtest_pc_boot("%s-machine q35 -nodefaults "
                          "-device megaraid-9600,id=raid0,addr=04.0%s %s",
                          h_fw_args(), ctrl_props ? ctrl_props : "",
                          rest ? rest : "");
    m->qts = m->qs->qts;
    m->dev = qpci_device_find(m->qs->pcibus, H_DEVFN);
    g_assert(m->dev);
    qpci_device_enable(m->dev);
    m->bar = qpci_iomap(m->dev, 0, NULL);
    m->bar0 = qpci_config_readl(m->dev, PCI_BASE_ADDRESS_0) & ~0xFull;
    m->bar0 |= (uint64_t)qpci_config_readl(m->dev, PCI_BASE_ADDRESS_1) << 32;
    qpci_msix_enable(m->dev);
    m->msi = h_alloc(m, 4096);
    for (int v = 0; v < 4; v++) {
        h_msix(m, v, m->msi + 4 * v, v + 1);
    }
    m->areq = h_alloc(m, m->areq_n * 128);
    m->arep = h_alloc(m, m->arep_n * 16);
    m->rfree = h_alloc(m, m->rfree_n * 8);
    m->sfree = h_alloc(m, m->sfree_n * 8);
    m->frames = h_alloc(m, m->rfree_n * 128);
    m->senses = h_alloc(m, m->sfree_n * 256);
    m->oreq = h_alloc(m, m->oreq_n * 128);
    m->orep = h_alloc(m, m->orep_n * 16);
    m->buf = h_alloc(m, 64 * 1024);
    if (m->data_size) {
        m->data = h_alloc(m, m->data_size);
    }
}

/*
 * h_launch() with drive hd0 (NVMe, a file of H_DISK_BLOCKS, removed by
 * h_stop) in slot 0 and the @extra arguments.
 */
static inline void h_launch_disk(HMR *m, const char *ctrl_props,
                                 const char *extra)
{
    g_autofree char *rest = NULL;
    int fd;

    fd = g_file_open_tmp("megaraid-harness-XXXXXX", &m->img, NULL);
    g_assert(fd >= 0);
    g_assert(ftruncate(fd, H_DISK_BLOCKS * 512) == 0);
    close(fd);
    rest = g_strdup_printf("-drive if=none,id=d0,format=raw,file=%s "
                           "-device megaraid-drive,id=hd0,bus=raid0.0,"
                           "slot=0,drive=d0,interface=nvme %s",
                           m->img, extra ? extra : "");
    h_launch(m, ctrl_props, rest);
}

/* Boot with drive hd0 (NVMe, a file) in slot 0 and the extra arguments. */
static inline HMR *h_start(const char *extra)
{
    HMR *m = g_new0(HMR, 1);

    h_launch_disk(m, NULL, extra);
    return m;
}

static inline void h_stop(HMR *m)
{
    qtest_shutdown(m->qs);
    if (m->img) {
        unlink(m->img);
        g_free(m->img);
    }
    g_free(m->dev);
    g_free(m);
}

/* Program the admin queues and set ENABLE_IOC; returns IOC Status. */
static inline uint32_t h_enable(HMR *m)
{
    m->areq_pi = 0;
    m->arep_ci = 0;
    m->arep_phase = true;
    qtest_memset(m->qts, m->arep, 0, m->arep_n * 16);
    h_wr(m, H_ADMIN_N, m->arep_n << 16 | m->areq_n);
    h_wr(m, H_ADMIN_REQ, m->areq);
    h_wr(m, H_ADMIN_REQ + 4, m->areq >> 32);
    h_wr(m, H_ADMIN_REP, m->arep);
    h_wr(m, H_ADMIN_REP + 4, m->arep >> 32);
    h_wr(m, H_AREQ_PI, 0);
    h_wr(m, H_AREP_CI, 0);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 1);
    return h_rd(m, H_IOC_STATUS);
}

static inline void h_unlock_diag(HMR *m)
{
    static const uint32_t keys[] = { 0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD };

    for (int i = 0; i < 7; i++) {
        h_wr(m, H_WRITE_SEQ, keys[i]);
    }
}

/* What the driver does to leave FAULT: a soft reset. */
static inline void h_soft_reset(HMR *m)
{
    h_unlock_diag(m);
    h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x100);
    h_wr(m, H_WRITE_SEQ, 0x4);
    h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
}

static inline void h_submit_admin(HMR *m, const void *frame, size_t len)
{
    uint64_t slot = m->areq + m->areq_pi * 128;

    qtest_memset(m->qts, slot, 0, 128);
    qtest_memwrite(m->qts, slot, frame, len);
    m->areq_pi = (m->areq_pi + 1) % m->areq_n;
    h_wr(m, H_AREQ_PI, m->areq_pi);
}

static inline void h_return_frame(HMR *m, uint64_t addr)
{
    qtest_writeq(m->qts, m->rfree + m->rfree_host * 8, addr);
    m->rfree_host = (m->rfree_host + 1) % m->rfree_n;
    h_wr(m, H_RFREE_HOST, m->rfree_host);
}

static inline void h_return_sense(HMR *m, uint64_t addr)
{
    qtest_writeq(m->qts, m->sfree + m->sfree_host * 8, addr);
    m->sfree_host = (m->sfree_host + 1) % m->sfree_n;
    h_wr(m, H_SFREE_HOST, m->sfree_host);
}

/* The next descriptor of a reply ring within about ms; false if none. */
static inline bool h_poll(HMR *m, uint64_t ring, uint32_t n, uint32_t *ci,
                          bool *phase, uint32_t ci_reg, HDesc *d, int ms)
{
    uint8_t raw[16];
    uint16_t flags;

    for (int i = 0;; i++) {
        qtest_memread(m->qts, ring + *ci * 16, raw, 16);
        flags = lduw_le_p(raw + 14);
        if ((flags & 1) == *phase) {
            break;
        }
        if (i >= ms) {
            return false;
        }
        g_usleep(1000);
    }
    memset(d, 0, sizeof(*d));
    d->type = flags >> 12;
    d->qci = lduw_le_p(raw + 8);
    d->qid = lduw_le_p(raw + 10);
    d->tag = lduw_le_p(raw + 12);
    if (d->type == H_DT_STATUS) {
        d->status = lduw_le_p(raw) & 0x7fff;
    } else if (d->type == H_DT_ADDRESS) {
        d->frame_addr = ldq_le_p(raw);
        qtest_memread(m->qts, d->frame_addr, d->frame, 128);
        d->tag = lduw_le_p(d->frame);
        d->status = lduw_le_p(d->frame + 0x0A) & 0x7fff;
        h_return_frame(m, d->frame_addr);
    }
    *ci = (*ci + 1) % n;
    if (*ci == 0) {
        *phase = !*phase;
    }
    h_wr(m, ci_reg, *ci);
    return true;
}

static inline bool h_admin_reply(HMR *m, HDesc *d, int ms)
{
    return h_poll(m, m->arep, m->arep_n, &m->arep_ci, &m->arep_phase,
                  H_AREP_CI, d, ms);
}

static inline bool h_op_reply(HMR *m, HDesc *d, int ms)
{
    return h_poll(m, m->orep, m->orep_n, &m->orep_ci, &m->orep_phase,
                  H_OREP_CI(1), d, ms);
}

/* Submit an admin frame; its IOC status (0xFFFF: no reply). */
/*
 * Submit an admin frame; the events before its reply go to @ev (at most
 * @max, *@n of them so far).  Returns the reply's status.
 */
static inline uint16_t h_admin_events(HMR *m, const void *frame, size_t len,
                                      HDesc *ev, int *n, int max)
{
    HDesc d;

    h_submit_admin(m, frame, len);
    for (;;) {
        g_assert(h_admin_reply(m, &d, 5000));
        if (d.tag != 0xFFFF) {
            return d.status;
        }
        g_assert_cmpint(*n, <, max);
        ev[(*n)++] = d;
    }
}

static inline uint16_t h_admin(HMR *m, const void *frame, size_t len)
{
    HDesc d;

    h_submit_admin(m, frame, len);
    do {
        if (!h_admin_reply(m, &d, m->admin_ms ? m->admin_ms : 5000)) {
            return 0xFFFF;
        }
    } while (d.tag == 0xFFFF);      /* events */
    return d.status;
}

static inline void h_put_sge(uint8_t *p, uint64_t addr, uint32_t len,
                             uint8_t flags)
{
    stq_le_p(p, addr);
    stl_le_p(p + 8, len);
    p[15] = flags;
}

/*
 * An MPI3 CONFIG request (function 10h) in @f (H_CONFIG_LEN bytes): host
 * tag @tag, page @type/@num, @action, page address @address, page length
 * @page_len dwords, the page's buffer @len bytes at @buf.
 */
#define H_CONFIG_LEN    48
static inline void h_config_frame(uint8_t *f, uint16_t tag, uint8_t type,
                                  uint8_t num, uint8_t action,
                                  uint32_t address, uint16_t page_len,
                                  uint64_t buf, uint32_t len)
{
    memset(f, 0, H_CONFIG_LEN);
    stw_le_p(f, tag);
    f[3] = 0x10;
    f[0x0D] = num;
    f[0x0E] = type;
    f[0x0F] = action;
    stl_le_p(f + 0x10, address);
    stw_le_p(f + 0x14, page_len);
    h_put_sge(f + 0x20, buf, len, 0x08);
}

/* The IOC INIT frame for this host's free queues. */
static inline void h_ioc_init_frame(HMR *m, uint8_t *f)
{
    memset(f, 0, 64);
    for (uint32_t i = 0; i < m->rfree_n - 1; i++) {
        qtest_writeq(m->qts, m->rfree + i * 8, m->frames + i * 128);
    }
    for (uint32_t i = 0; i < m->sfree_n - 1; i++) {
        qtest_writeq(m->qts, m->sfree + i * 8, m->senses + i * 256);
    }
    stw_le_p(f, 1);
    f[3] = 0x02;
    stl_le_p(f + 0x0C, 0x03002200);
    f[0x19] = 3;
    stw_le_p(f + 0x1C, m->rfree_n);
    stq_le_p(f + 0x20, m->rfree);
    stw_le_p(f + 0x2C, m->sfree_n);
    stw_le_p(f + 0x2E, 256);
    stq_le_p(f + 0x30, m->sfree);
}

/* After IOC INIT succeeded: hand the free queues to the IOC. */
static inline void h_post_free_queues(HMR *m)
{
    m->rfree_host = m->rfree_n - 1;
    m->sfree_host = m->sfree_n - 1;
    h_wr(m, H_RFREE_HOST, m->rfree_host);
    h_wr(m, H_SFREE_HOST, m->sfree_host);
}

static inline void h_ioc_init(HMR *m)
{
    uint8_t f[64];

    h_ioc_init_frame(m, f);
    g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0);
    h_post_free_queues(m);
}

/* CREATE REQUEST/REPLY QUEUE frame; @arg: its reply queue or MSI-X vector */
static inline void h_create_q_frame(uint8_t *f, bool reply, uint16_t qid,
                                    uint16_t size, uint16_t arg,
                                    uint8_t flags, uint64_t base)
{
    memset(f, 0, 32);
    stw_le_p(f, 1);
    f[3] = reply ? 0x72 : 0x70;
    f[0x0A] = flags;
    stw_le_p(f + 0x0C, size);
    stw_le_p(f + 0x0E, qid);
    stw_le_p(f + 0x10, arg);
    stq_le_p(f + 0x18, base);
}

static inline uint16_t h_create_q(HMR *m, bool reply, uint16_t qid,
                                  uint16_t size, uint16_t arg, uint8_t flags,
                                  uint64_t base)
{
    uint8_t f[32];

    h_create_q_frame(f, reply, qid, size, arg, flags, base);
    return h_admin(m, f, sizeof(f));
}

/* EVENT NOTIFICATION frame; @mask: four mask words, NULL: none masked. */
static inline void h_event_notify_frame(uint8_t *f, const uint32_t *mask)
{
    memset(f, 0, 32);
    stw_le_p(f, 1);
    f[3] = 0x04;
    for (int i = 0; mask && i < 4; i++) {
        stl_le_p(f + 0x10 + 4 * i, mask[i]);
    }
}

static inline void h_event_notify(HMR *m)
{
    uint8_t f[32];

    h_event_notify_frame(f, NULL);  /* every event unmasked */
    g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0);
}

/* PORT ENABLE; records the handles that DEVICE ADDED announces. */
static inline void h_port_enable(HMR *m)
{
    uint8_t f[12] = { 0 };
    HDesc d;

    stw_le_p(f, 1);
    f[3] = 0x03;
    m->nhandles = 0;
    h_submit_admin(m, f, sizeof(f));
    for (;;) {
        g_assert(h_admin_reply(m, &d, 5000));
        if (d.tag != 0xFFFF) {
            break;
        }
        if (d.frame[0x11] == 0x07 && m->nhandles < 8) {
            m->handles[m->nhandles++] = lduw_le_p(d.frame + 0x18 + 0x08);
        }
    }
    g_assert_cmphex(d.status, ==, 0);
}

/* Admin queues, IOC FACTS (into m->buf) and IOC INIT. */
static inline void h_init(HMR *m)
{
    uint8_t f[32] = { 0 };

    g_assert_cmphex(h_enable(m) & (H_ST_READY | H_ST_FAULT), ==, H_ST_READY);
    stw_le_p(f, 1);
    f[3] = 0x01;
    h_put_sge(f + 0x10, m->buf, 112, 0x08);
    g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0);
    h_ioc_init(m);
}

/* Everything up to PORT ENABLE with operational queue pair 1. */
static inline void h_bringup(HMR *m)
{
    h_init(m);
    m->oreq_pi = 0;
    m->orep_ci = 0;
    m->orep_phase = true;
    qtest_memset(m->qts, m->orep, 0, m->orep_n * 16);
    g_assert_cmphex(h_create_q(m, true, 1, m->orep_n, 1, 0x01, m->orep), ==, 0);
    g_assert_cmphex(h_create_q(m, false, 1, m->oreq_n, 1, 0, m->oreq), ==, 0);
    h_event_notify(m);
    h_port_enable(m);
}

/* Where entry @idx of request queue 1 is (32 entries a segment). */
static inline uint64_t h_oreq_slot(HMR *m, uint32_t idx)
{
    if (m->segmented) {
        return qtest_readq(m->qts, m->oseglist + (idx / 32) * 8) +
               (idx % 32) * 128;
    }
    return m->oreq + idx * 128;
}

static inline void h_submit_op(HMR *m, const void *frame)
{
    qtest_memwrite(m->qts, h_oreq_slot(m, m->oreq_pi), frame, 128);
    m->oreq_pi = (m->oreq_pi + 1) % m->oreq_n;
    h_wr(m, H_OREQ_PI(1), m->oreq_pi);
}

/* A SCSI IO frame (128 bytes) without its SGL; @dir: data direction. */
static inline void h_scsi_frame(uint8_t *f, uint16_t tag, uint16_t handle,
                                uint32_t dir, uint32_t len, const uint8_t *cdb,
                                size_t cdb_len)
{
    memset(f, 0, 128);
    stw_le_p(f, tag);
    f[3] = 0x20;
    stw_le_p(f + 0x0A, handle);
    stl_le_p(f + 0x0C, dir);
    stl_le_p(f + 0x14, len);
    memcpy(f + 0x20, cdb, cdb_len);
}

/* A READ(10) or WRITE(10) of n blocks at lba through buf. */
static inline void h_rw_frame(HMR *m, uint8_t *f, uint16_t tag,
                              uint16_t handle, bool write, uint32_t lba,
                              uint16_t n)
{
    uint8_t cdb[10] = { write ? 0x2A : 0x28 };

    stl_be_p(cdb + 2, lba);
    stw_be_p(cdb + 7, n);
    h_scsi_frame(f, tag, handle, write ? 0x00040000 : 0x00080000, n * 512,
                 cdb, sizeof(cdb));
    h_put_sge(f + 0x40, m->buf, n * 512, 0x08);
}

/* ------------------------------------ QOM (megaraid-qtest-core.h) */

static inline char *qom_get_str(HMR *m, const char *path, const char *prop)
{
    return qts_qom_get_str(m->qts, path, prop);
}

static inline int64_t qom_get_int(HMR *m, const char *path, const char *prop)
{
    return qts_qom_get_int(m->qts, path, prop);
}

static inline void qom_set_str(HMR *m, const char *path, const char *prop,
                               const char *val)
{
    qts_qom_set_str(m->qts, path, prop, val);
}

static inline void qom_set_int(HMR *m, const char *path, const char *prop,
                               int64_t val)
{
    qts_qom_set_int(m->qts, path, prop, val);
}

static inline void qom_set_bool(HMR *m, const char *path, const char *prop,
                                bool val)
{
    qts_qom_set_ok(m->qts, path, prop, QOBJECT(qbool_from_bool(val)));
}

/* A qom-set the device must refuse: true if it did. */
static inline bool qom_set_fails(HMR *m, const char *path, const char *prop,
                                 const char *val)
{
    QDict *rsp = qts_qom_set(m->qts, path, prop,
                             QOBJECT(qstring_from_str(val)));
    bool failed = qdict_haskey(rsp, "error");

    qobject_unref(rsp);
    return failed;
}

/* ------------------------------------ images and QEMUs that must fail */

/*
 * device_add with the arguments @json (a JSON object, single quotes as
 * qobject_from_json() takes them): the error's text, NULL if it worked.
 */
static inline char *h_device_add_err(QTestState *qts, const char *json)
{
    QObject *args = qobject_from_json(json, &error_abort);
    QDict *rsp = qtest_qmp(qts, "{'execute': 'device_add', "
                           "'arguments': %p}", args);
    char *err = NULL;

    if (qdict_haskey(rsp, "error")) {
        err = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"),
                                     "desc"));
    }
    qobject_unref(rsp);
    return err;
}

/*
 * A temporary file of @size bytes whose first @junk bytes are 0x5a (no
 * header the controller knows), the rest zeroes; its path.
 */
static inline char *h_junk_file(const char *prefix, size_t junk, size_t size)
{
    g_autofree char *tmpl = g_strdup_printf("%s-XXXXXX", prefix);
    g_autofree uint8_t *buf = g_malloc(junk + 1);
    char *path = NULL;
    int fd = g_file_open_tmp(tmpl, &path, NULL);

    g_assert(fd >= 0);
    memset(buf, 0x5a, junk);
    g_assert_cmpint(write(fd, buf, junk), ==, junk);
    g_assert_cmpint(ftruncate(fd, size), ==, 0);
    close(fd);
    return path;
}

/*
 * qemu-img create -f @fmt [-o @opts] @path @size, with the qemu-img of
 * the build (QTEST_QEMU_IMG) or the one in PATH.
 */
static inline void h_img_create(const char *fmt, const char *opts,
                                const char *path, const char *size)
{
    const char *img = g_getenv("QTEST_QEMU_IMG") ?: "qemu-img";
    const char *argv[] = {
        img, "create", "-q", "-f", fmt, opts ? "-o" : path,
        opts ? opts : size, opts ? path : NULL, size, NULL,
    };
    g_autofree char *out = NULL, *err = NULL;
    int status;

    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL,
                               G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, NULL));
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        g_test_message("%s create %s: %s", img, path, err);
        g_assert_not_reached();
    }
}

/*
 * Start QEMU with @args (split at spaces) and its monitor on stdin, which
 * says "quit" at once: a QEMU that starts ends there, one that refuses
 * its command line ends before.  Returns its exit status (not a signal:
 * a crash fails the test); its standard error goes to *@err.
 */
static inline int h_run_qemu(const char *args, char **err)
{
    const char *qemu = g_getenv("QTEST_QEMU_BINARY");
    g_autofree char *cmd = NULL;
    g_auto(GStrv) words = NULL;
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_autofree char *out = NULL;
    int status;

    g_assert_nonnull(qemu);
    cmd = g_strdup_printf("%s %s-display none -S -monitor stdio %s", qemu,
                          h_fw_args(), args);
    words = g_strsplit(cmd, " ", -1);
    g_ptr_array_add(argv, (char *)"/bin/sh");
    g_ptr_array_add(argv, (char *)"-c");
    g_ptr_array_add(argv, (char *)"echo quit | exec \"$0\" \"$@\"");
    for (char **w = words; *w; w++) {
        if (**w) {
            g_ptr_array_add(argv, *w);
        }
    }
    g_ptr_array_add(argv, NULL);
    g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, 0, NULL,
                               NULL, &out, err, &status, NULL));
    g_assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

#endif
