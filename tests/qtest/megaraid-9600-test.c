/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the megaraid-9600 MPI 3.0 host interface:
 * register reset values and the IOC state machine, admin round trips,
 * IOC FACTS, operational queue create/delete (contiguous and segmented),
 * discovery at PORT ENABLE, SCSI READ/WRITE through an operational queue,
 * task management, shutdown notification, and malformed or hostile guest
 * input (among it an MSI-X vector aimed at the device's own registers and
 * a guest that never consumes its replies).  Offsets of
 * frames and descriptors are written from the interface description, not
 * taken from the device's header, so that both sides are checked.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"

/* This test's rings: fewer free frames and sense buffers than the layer's */
#define AREQ_N          H_AREQ_N
#define AREP_N          H_AREP_N
#define OREQ_N          H_OREQ_N
#define OREP_N          H_OREP_N
#define RFREE_N         33
#define SFREE_N         9

/* Registers and IOC Status bits the MPI3 layer does not name */
#define R_IOC_INFO      0x0000
#define ST_SHUTDOWN     0x0C
#define ST_SHUTDOWN_RUN 0x04
#define ST_SHUTDOWN_OK  0x08

typedef HMR MR;
typedef HDesc Desc;

/*
 * Drive hd0 (NVMe, a file) in slot 0, a slow null-co node "spare" for
 * hot plug, and @extra appended to the controller's properties.
 */
static MR *mr_start(const char *extra)
{
    MR *m = g_new0(MR, 1);

    m->rfree_n = RFREE_N;
    m->sfree_n = SFREE_N;
    h_launch_disk(m, extra, "-blockdev driver=null-co,node-name=spare,"
                  "size=4194304,latency-ns=300000000");
    m->oseglist = h_alloc(m, 4096);
    return m;
}

static bool msi_fired(MR *m, int v)
{
    uint32_t val = qtest_readl(m->qts, m->msi + 4 * v);

    qtest_writel(m->qts, m->msi + 4 * v, 0);
    return val == (uint32_t)v + 1;
}

/* Program the admin queues and set ENABLE_IOC: the IOC must be READY. */
static void mr_enable(MR *m)
{
    g_assert_cmphex(h_enable(m) & (H_ST_READY | H_ST_FAULT), ==, H_ST_READY);
}

/* Wait for IOC Status to report SHUTDOWN COMPLETE (the driver polls). */
static void mr_wait_shutdown(MR *m)
{
    for (int i = 0; i < 5000; i++) {
        uint32_t st = h_rd(m, H_IOC_STATUS) & ST_SHUTDOWN;

        if (st == ST_SHUTDOWN_OK) {
            return;
        }
        g_assert_cmphex(st, ==, ST_SHUTDOWN_RUN);
        g_usleep(1000);
    }
    g_assert_not_reached();
}

static void mr_unlock_diag(MR *m)
{
    h_unlock_diag(m);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 1, ==, 1);
}

/* The driver's soft reset, checking each step on the way. */
static void mr_soft_reset(MR *m)
{
    mr_unlock_diag(m);
    h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x100);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) &
                    (H_ST_READY | H_ST_FAULT | H_ST_RESET_HIST),
                    ==, H_ST_RESET_HIST);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG) & 1, ==, 0);
    h_wr(m, H_WRITE_SEQ, 0x4);
    h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
}

static void mr_admin_reply(MR *m, Desc *d)
{
    g_assert(h_admin_reply(m, d, 5000));
}

static void mr_op_reply(MR *m, Desc *d)
{
    g_assert(h_op_reply(m, d, 5000));
}

/* Submit an admin frame and return its IOC status; the reply in @d. */
static uint16_t mr_admin(MR *m, const void *frame, size_t len, Desc *d)
{
    Desc local;

    d = d ? d : &local;
    h_submit_admin(m, frame, len);
    mr_admin_reply(m, d);
    g_assert_cmphex(d->tag, ==, lduw_le_p(frame));
    return d->status;
}

static uint16_t mr_facts(MR *m, uint64_t buf, uint32_t len)
{
    uint8_t f[32] = { 0 };

    stw_le_p(f, 1);
    f[3] = 0x01;
    h_put_sge(f + 0x10, buf, len, 0x08);
    return mr_admin(m, f, sizeof(f), NULL);
}

static void mr_ioc_init(MR *m)
{
    uint8_t f[64];

    h_ioc_init_frame(m, f);
    g_assert_cmphex(mr_admin(m, f, sizeof(f), NULL), ==, 0);
    h_post_free_queues(m);
}

static uint16_t mr_create_q(MR *m, bool reply, uint16_t qid, uint16_t size,
                            uint16_t arg, uint8_t flags, uint64_t base)
{
    uint8_t f[32];

    h_create_q_frame(f, reply, qid, size, arg, flags, base);
    return mr_admin(m, f, sizeof(f), NULL);
}

static uint16_t mr_delete_q(MR *m, bool reply, uint16_t qid)
{
    uint8_t f[16] = { 0 };

    stw_le_p(f, 1);
    f[3] = reply ? 0x73 : 0x71;
    stw_le_p(f + 0x0A, qid);
    return mr_admin(m, f, 12, NULL);
}

/* Operational queue pair 1, contiguous or segmented. */
static void mr_create_op_queues(MR *m, bool segmented)
{
    uint64_t rbase = m->orep, qbase = m->oreq;

    m->segmented = segmented;
    m->oreq_pi = 0;
    m->orep_ci = 0;
    m->orep_phase = true;
    qtest_memset(m->qts, m->orep, 0, OREP_N * 16);
    if (segmented) {
        /* reply ring: one 4 KiB segment; request ring: two segments */
        uint64_t rseg = h_alloc(m, 4096);
        uint64_t qseg0 = h_alloc(m, 4096), qseg1 = h_alloc(m, 4096);

        m->orep = rseg;
        qtest_writeq(m->qts, m->oseglist, rseg);
        qtest_writeq(m->qts, m->oseglist + 2048, qseg0);
        qtest_writeq(m->qts, m->oseglist + 2056, qseg1);
        rbase = m->oseglist;
        qbase = m->oseglist + 2048;
        m->oreq = 0;
        m->oseglist = qbase;
    }
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 1, 0x01 |
                                (segmented ? 0x80 : 0), rbase), ==, 0);
    g_assert_cmphex(mr_create_q(m, false, 1, OREQ_N, 1,
                                segmented ? 0x80 : 0, qbase), ==, 0);
}

static void mr_event_notify(MR *m)
{
    uint8_t f[32];

    h_event_notify_frame(f, H_EVENT_MASK_DRIVER);
    g_assert_cmphex(mr_admin(m, f, sizeof(f), NULL), ==, 0);
}

/* PORT ENABLE: returns the handle announced by the DEVICE ADDED event. */
static uint16_t mr_port_enable(MR *m)
{
    uint8_t f[12] = { 0 };
    uint16_t handle;
    Desc d;

    stw_le_p(f, 1);
    f[3] = 0x03;
    h_submit_admin(m, f, sizeof(f));
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.tag, ==, 0xFFFF);
    g_assert_cmphex(d.frame[3], ==, 0x04);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);        /* DEVICE ADDED */
    g_assert_cmpuint(d.frame[0x10], ==, 16);         /* 64 bytes of data */
    handle = lduw_le_p(d.frame + 0x18 + 0x08);
    g_assert_cmpuint(handle, !=, 0);
    g_assert_cmpuint(handle, <, 1024);
    g_assert_cmphex(lduw_le_p(d.frame + 0x18 + 0x18), ==, handle - 1);
    g_assert_cmphex(d.frame[0x18 + 0x27], ==, 1);    /* PCIe form */
    g_assert_cmphex(lduw_le_p(d.frame + 0x18 + 0x2E), ==, 1); /* NVMe */
    g_assert_cmphex(d.frame[0x18 + 0x1C] & 0x08, ==, 0);      /* visible */
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 1);
    return handle;
}

static MR *mr_bringup(bool segmented, uint16_t *handle)
{
    MR *m = mr_start(segmented ? NULL : ",revision=0");
    uint64_t buf = h_alloc(m, 4096);

    mr_enable(m);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    mr_ioc_init(m);
    mr_create_op_queues(m, segmented);
    mr_event_notify(m);
    *handle = mr_port_enable(m);
    return m;
}

static void rw10(uint8_t *cdb, bool write, uint32_t lba, uint16_t n)
{
    memset(cdb, 0, 10);
    cdb[0] = write ? 0x2A : 0x28;
    stl_be_p(cdb + 2, lba);
    stw_be_p(cdb + 7, n);
}

/* ---------------------------------------------------------------- tests */

static void test_reset_values(void)
{
    MR *m = mr_start(NULL);

    g_assert_cmphex(h_rd(m, R_IOC_INFO) >> 24, !=, 0);
    g_assert_cmphex(h_rd(m, R_IOC_INFO) & 1, ==, 0);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG), ==, 0x00470000);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS), ==, 0);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG), ==, 0);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_VENDOR_ID), ==, 0x1000);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_DEVICE_ID), ==, 0x00A5);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x1000);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_SUBSYSTEM_ID), ==, 0x4600);
    g_assert_cmpuint(qpci_msix_table_size(m->dev), >=, 64);
    /* The entry-size fields cannot be changed by the host. */
    h_wr(m, H_IOC_CONFIG, 0x00FF0000);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG), ==, 0x00470000);
    h_stop(m);
}

static void test_state_machine(void)
{
    MR *m = mr_start(NULL);

    mr_enable(m);
    /* Message unit reset: ENABLE_IOC 1 -> 0 while ready. */
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_RESET_HIST), ==,
                    H_ST_RESET_HIST);
    h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS), ==, 0);

    /* Wrong key order does not unlock; a locked host diag is ignored. */
    h_wr(m, H_WRITE_SEQ, 0xF);
    h_wr(m, H_WRITE_SEQ, 0x4);
    h_wr(m, H_WRITE_SEQ, 0x2);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 1, ==, 0);
    mr_enable(m);
    h_wr(m, H_HOST_DIAG, 0x700);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);

    /* Soft reset from READY. */
    mr_soft_reset(m);
    mr_enable(m);

    /* Diag fault, then soft reset out of FAULT. */
    mr_unlock_diag(m);
    h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x700);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    g_assert_cmphex(h_rd(m, H_FAULT) & 0xFFFF, ==, 0xF000);
    h_wr(m, H_WRITE_SEQ, 0x4);
    /* ENABLE_IOC cannot leave FAULT; only a soft reset does. */
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    mr_soft_reset(m);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0);
    mr_enable(m);

    /* Shutdown notification completes. */
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
    h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 0x6000);
    mr_wait_shutdown(m);

    /*
     * The driver is loaded again (enable) and shut down again, ORing the
     * field into what it reads: the second notification completes too.
     */
    mr_enable(m);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG) & 0xC000, ==, 0);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & ST_SHUTDOWN, ==, 0);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 0x6000);
    mr_wait_shutdown(m);
    /* ... and after a message unit reset with the field still set. */
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG) & 0xC000, ==, 0);
    mr_enable(m);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 0x6000);
    mr_wait_shutdown(m);
    h_stop(m);
}

static void test_facts(void)
{
    MR *m = mr_start(NULL);
    uint64_t buf = h_alloc(m, 4096);
    uint8_t f[112];
    Desc d;

    mr_enable(m);
    msi_fired(m, 0);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    g_assert_true(msi_fired(m, 0));
    qtest_memread(m->qts, buf, f, sizeof(f));
    g_assert_cmpuint(lduw_le_p(f + 0x00), ==, 28);
    g_assert_cmphex(ldl_le_p(f + 0x04), ==, 0x03002200);
    g_assert_cmphex(ldl_le_p(f + 0x10) & 0x2, ==, 0x2);      /* multipath */
    g_assert_cmpuint(lduw_le_p(f + 0x16), >=, 1);             /* MSI-X */
    g_assert_cmpuint(lduw_le_p(f + 0x18), >, 23);             /* requests */
    g_assert_cmpuint(lduw_le_p(f + 0x1C), ==, 32);            /* req frame */
    g_assert_cmpuint(lduw_le_p(f + 0x1E), ==, 32);            /* reply frame */
    g_assert_cmpuint(lduw_le_p(f + 0x22), ==, 1023);
    g_assert_cmpuint(lduw_le_p(f + 0x2A), ==, 256);           /* 1 MiB */
    g_assert_cmpuint(lduw_le_p(f + 0x30), ==, 1);
    g_assert_cmpuint(lduw_le_p(f + 0x32), ==, 1024);
    g_assert_cmphex(ldl_le_p(f + 0x44) & 0xF, ==, 2);         /* RAID */
    g_assert_cmpuint((ldl_le_p(f + 0x44) >> 8) & 0xFF, ==, 64); /* DMA bits */
    g_assert_cmpuint(lduw_le_p(f + 0x48), >=, 1);
    g_assert_cmpuint(lduw_le_p(f + 0x48), <=, 383);
    g_assert_cmpuint(lduw_le_p(f + 0x48), ==, lduw_le_p(f + 0x4A));

    /* 6.1 asks for 104 bytes: nothing beyond is written. */
    qtest_memset(m->qts, buf, 0xAA, 128);
    g_assert_cmphex(mr_facts(m, buf, 104), ==, 0);
    qtest_memread(m->qts, buf, f, sizeof(f));
    g_assert_cmpuint(lduw_le_p(f), ==, 26);
    g_assert_cmphex(f[104], ==, 0xAA);

    /* The admin reply carries the request queue CI. */
    memset(f, 0, 32);
    f[0] = 7;
    f[3] = 0x01;
    h_submit_admin(m, f, 32);
    mr_admin_reply(m, &d);
    g_assert_cmpuint(d.qci, ==, m->areq_pi);
    g_assert_cmpint(d.type, ==, H_DT_STATUS);
    g_assert_cmphex(d.status, ==, 0x0003);                    /* no SGE */
    h_stop(m);
}

static void test_eHBA_model(void)
{
    QOSState *qs = qtest_pc_boot("%s-machine q35 -nodefaults "
                                 "-device megaraid-9600,addr=04.0,"
                                 "model=9600-16i", h_fw_args());
    QPCIDevice *dev = qpci_device_find(qs->pcibus, H_DEVFN);

    g_assert_cmphex(qpci_config_readw(dev, PCI_SUBSYSTEM_ID), ==, 0x4670);
    g_free(dev);
    qtest_shutdown(qs);
}

static void test_queues(void)
{
    MR *m = mr_start(NULL);
    uint64_t buf = h_alloc(m, 4096);

    mr_enable(m);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    /* Before IOC INIT queues cannot be created. */
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 1, 1, m->orep), ==,
                    0x0008);
    mr_ioc_init(m);
    /* Bad IDs and sizes. */
    g_assert_cmphex(mr_create_q(m, true, 0, OREP_N, 1, 1, m->orep), ==,
                    0x0F00);
    g_assert_cmphex(mr_create_q(m, true, 1000, OREP_N, 1, 1, m->orep), ==,
                    0x0F00);
    g_assert_cmphex(mr_create_q(m, true, 1, 0, 1, 1, m->orep), ==, 0x0F01);
    g_assert_cmphex(mr_create_q(m, true, 1, 1, 1, 1, m->orep), ==, 0x0F01);
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 4000, 1, m->orep), ==,
                    0x0F02);
    /* Ring outside guest RAM. */
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 1, 1, 1ULL << 45), ==,
                    0x0007);
    /* Segmented ring whose segment list points outside guest RAM. */
    qtest_writeq(m->qts, m->oseglist, 1ULL << 44);
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 1, 0x81, m->oseglist),
                    ==, 0x0007);
    /* Request queue without its reply queue. */
    g_assert_cmphex(mr_create_q(m, false, 1, OREQ_N, 1, 0, m->oreq), ==,
                    0x0F03);
    mr_create_op_queues(m, false);
    g_assert_cmphex(mr_create_q(m, true, 1, OREP_N, 1, 1, m->orep), ==,
                    0x0F00);
    g_assert_cmphex(mr_delete_q(m, true, 1), ==, 0x0F04);
    g_assert_cmphex(mr_delete_q(m, false, 2), ==, 0x0F00);
    g_assert_cmphex(mr_delete_q(m, false, 1), ==, 0);
    g_assert_cmphex(mr_delete_q(m, true, 1), ==, 0);
    g_assert_cmphex(mr_delete_q(m, true, 1), ==, 0x0F00);
    /* And again, segmented. */
    mr_create_op_queues(m, true);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
    h_stop(m);
}

static void do_rw(MR *m, uint16_t handle, bool chain)
{
    uint64_t data = h_alloc(m, 8 * 512), chainbuf = h_alloc(m, 4096);
    uint8_t pattern[8 * 512], back[8 * 512];
    uint8_t f[128], cdb[10];
    Desc d;

    for (size_t i = 0; i < sizeof(pattern); i++) {
        pattern[i] = i * 7 + (chain ? 3 : 1);
    }
    qtest_memwrite(m->qts, data, pattern, sizeof(pattern));

    /* WRITE(10) of 8 blocks in two SIMPLE elements. */
    rw10(cdb, true, 100, 8);
    h_scsi_frame(f, 10, handle, 0x00040000, sizeof(pattern), cdb, 10);
    h_put_sge(f + 0x40, data, 1000, 0x00);
    h_put_sge(f + 0x50, data + 1000, sizeof(pattern) - 1000, 0x08);
    msi_fired(m, 1);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 10);
    g_assert_cmpuint(d.qid, ==, 1);
    g_assert_cmpuint(d.qci, ==, m->oreq_pi);
    g_assert_true(msi_fired(m, 1));

    /* READ(10) back, 8 pieces: 3 in the frame, 5 behind a LAST CHAIN. */
    qtest_memset(m->qts, data, 0, sizeof(back));
    rw10(cdb, false, 100, 8);
    h_scsi_frame(f, 11, handle, 0x00080000, sizeof(back), cdb, 10);
    if (chain) {
        for (int i = 0; i < 3; i++) {
            h_put_sge(f + 0x40 + 16 * i, data + 512 * i, 512, 0);
        }
        h_put_sge(f + 0x70, chainbuf, 5 * 16, 0x30);
        for (int i = 3; i < 8; i++) {
            uint8_t e[16] = { 0 };

            h_put_sge(e, data + 512 * i, 512, i == 7 ? 0x08 : 0);
            qtest_memwrite(m->qts, chainbuf + 16 * (i - 3), e, 16);
        }
    } else {
        h_put_sge(f + 0x40, data, sizeof(back), 0x08);
    }
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 11);
    qtest_memread(m->qts, data, back, sizeof(back));
    g_assert_cmpmem(back, sizeof(back), pattern, sizeof(pattern));
}

static void test_scsi_rw_contiguous(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);

    do_rw(m, handle, false);
    do_rw(m, handle, true);
    h_stop(m);
}

static void test_scsi_rw_segmented(void)
{
    uint16_t handle;
    MR *m = mr_bringup(true, &handle);

    /* Enough requests to wrap both rings and cross request segments. */
    for (int i = 0; i < 40; i++) {
        do_rw(m, handle, i & 1);
    }
    h_stop(m);
}

static void test_scsi_inquiry_and_sense(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t data = h_alloc(m, 4096);
    uint8_t f[128], cdb[16] = { 0x12, 0, 0, 0, 255 }, sense[18];
    uint64_t sense_addr;
    Desc d;

    /* INQUIRY with a larger allocation length: a short transfer. */
    h_scsi_frame(f, 20, handle, 0x00080000, 255, cdb, 6);
    h_put_sge(f + 0x40, data, 255, 0x08);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.status, ==, 0x0045);
    g_assert_cmphex(d.frame[0x10], ==, 0);                    /* GOOD */
    g_assert_cmphex(d.frame[0x11] & 3, ==, 3);                /* no sense */
    g_assert_cmpuint(ldl_le_p(d.frame + 0x14), >=, 36);
    g_assert_cmpuint(ldl_le_p(d.frame + 0x14), <, 255);
    g_assert_cmpuint(qtest_readb(m->qts, data) & 0x1F, ==, 0);

    /* READ(10) beyond the end: CHECK CONDITION with sense data. */
    rw10(cdb, false, H_DISK_BLOCKS, 1);
    h_scsi_frame(f, 21, handle, 0x00080000, 512, cdb, 10);
    h_put_sge(f + 0x40, data, 512, 0x08);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.frame[0x10], ==, 0x02);
    g_assert_cmphex(d.frame[0x11] & 3, ==, 0);
    g_assert_cmpuint(ldl_le_p(d.frame + 0x18), >=, 8);
    sense_addr = ldq_le_p(d.frame + 0x30);
    g_assert_cmpuint(sense_addr, >=, m->senses);
    g_assert_cmpuint(sense_addr, <, m->senses + SFREE_N * 256);
    qtest_memread(m->qts, sense_addr, sense, sizeof(sense));
    g_assert_true((sense[0] & 0x7F) == 0x70 || (sense[0] & 0x7F) == 0x72);
    g_assert_cmphex((sense[0] & 0x7F) == 0x70 ? sense[2] & 0xF : sense[1],
                    ==, 0x05);                    /* ILLEGAL REQUEST */

    /* Unknown handle: DEVICE NOT THERE. */
    memset(cdb, 0, sizeof(cdb));
    h_scsi_frame(f, 22, 999, 0, 0, cdb, 6);
    h_put_sge(f + 0x40, ~0ULL, 0, 0x08);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmphex(d.status, ==, 0x0043);
    h_stop(m);
}

static void test_task_mgmt(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint8_t f[32] = { 0 };
    Desc d;

    stw_le_p(f, 5);
    f[3] = 0x21;
    stw_le_p(f + 0x0A, handle);
    f[0x0E] = 0x03;                                   /* TARGET RESET */
    h_submit_admin(m, f, sizeof(f));
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);           /* frame required */
    g_assert_cmphex(d.tag, ==, 5);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmphex(d.frame[0x14], ==, 0x00);          /* TM complete */

    f[0x0E] = 0x05;                                   /* LU RESET */
    h_submit_admin(m, f, sizeof(f));
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.frame[0x14], ==, 0x00);

    f[0x0E] = 0x7F;                                   /* unknown type */
    h_submit_admin(m, f, sizeof(f));
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.frame[0x14], ==, 0x04);

    stw_le_p(f + 0x0A, 777);                          /* bad handle */
    f[0x0E] = 0x03;
    h_submit_admin(m, f, sizeof(f));
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.status, ==, 0x0042);
    h_stop(m);
}

static void expect_scsi_error(MR *m, uint8_t *f, uint16_t status);

static uint16_t mr_remove_device(MR *m, uint16_t tag, uint16_t handle)
{
    uint8_t f[64] = { 0 };

    stw_le_p(f, tag);
    f[3] = 0x08;
    f[0x0B] = 0x10;                                   /* REMOVE_DEVICE */
    stw_le_p(f + 0x30, handle);
    return mr_admin(m, f, sizeof(f), NULL);
}

/* TARGET RESET with a READ in flight on a slow drive. */
static void test_tm_terminates_io(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t data = h_alloc(m, 4096);
    uint8_t f[128], cdb[10], tm[32] = { 0 };
    uint8_t raw[16];
    uint32_t terminated;
    Desc d;

    qtest_qmp_device_add(m->qts, "megaraid-drive", "slow",
                         "{'bus': 'raid0.0', 'slot': 7, 'drive': 'spare',"
                         " 'interface': 'nvme'}");
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);
    handle = lduw_le_p(d.frame + 0x18 + 0x08);

    rw10(cdb, false, 0, 8);
    h_scsi_frame(f, 70, handle, 0x00080000, 4096, cdb, 10);
    h_put_sge(f + 0x40, data, 4096, 0x08);
    h_submit_op(m, f);
    stw_le_p(tm, 5);
    tm[3] = 0x21;
    stw_le_p(tm + 0x0A, handle);
    tm[0x0E] = 0x03;
    h_submit_admin(m, tm, sizeof(tm));
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.tag, ==, 5);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmphex(d.frame[0x14], ==, 0x00);
    terminated = ldl_le_p(d.frame + 0x10);
    /*
     * The READ was completed before the TM reply: terminated (TASK
     * TERMINATED, counted in TerminationCount) if the backend could cancel
     * it, else with its normal status (null-co cannot cancel).
     */
    qtest_memread(m->qts, m->orep + m->orep_ci * 16, raw, 16);
    g_assert_cmphex(lduw_le_p(raw + 14) & 1, ==, m->orep_phase);
    mr_op_reply(m, &d);
    g_assert_cmphex(d.tag, ==, 70);
    if (terminated) {
        g_assert_cmpuint(terminated, ==, 1);
        g_assert_cmphex(d.status, ==, 0x0048);
        g_assert_cmphex(d.frame[0x11] & 0x08, ==, 0x08);
    } else {
        g_assert_cmphex(d.status, ==, 0);
        g_assert_cmpuint(ldl_le_p(d.frame + 0x14), ==, 4096);
    }
    h_stop(m);
}

static void test_hotplug(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint8_t f[128], tm[32] = { 0 };
    Desc d;

    /* Hot removal: a PCIe topology change, NOT RESPONDING for the handle. */
    qtest_qmp_device_del(m->qts, "hd0");
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.tag, ==, 0xFFFF);
    g_assert_cmphex(d.frame[0x11], ==, 0x20);
    g_assert_cmpuint(d.frame[0x18 + 0x08], ==, 1);    /* one entry */
    g_assert_cmphex(lduw_le_p(d.frame + 0x18 + 0x10), ==, handle);
    g_assert_cmphex(d.frame[0x18 + 0x12], ==, 0x02);
    /*
     * I/O to it is refused; the handle stays reserved until the host's
     * removal handshake (target reset, then REMOVE_DEVICE).
     */
    h_scsi_frame(f, 60, handle, 0, 0, (const uint8_t *)"\0\0\0\0\0\0", 6);
    h_put_sge(f + 0x40, ~0ULL, 0, 0x08);
    expect_scsi_error(m, f, 0x0043);
    stw_le_p(tm, 8);
    tm[3] = 0x21;
    stw_le_p(tm + 0x0A, handle);
    stw_le_p(tm + 0x0C, 0xFFFF);
    tm[0x0E] = 0x03;
    h_submit_admin(m, tm, sizeof(tm));
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmphex(mr_remove_device(m, 8, handle), ==, 0);
    g_assert_cmphex(mr_remove_device(m, 8, handle), ==, 0x0007);

    /* Hot add of a SAS drive: DEVICE ADDED with its device page 0. */
    qtest_qmp_device_add(m->qts, "megaraid-drive", "hd1",
                         "{'bus': 'raid0.0', 'slot': 3, 'drive': 'spare',"
                         " 'interface': 'sas'}");
    mr_admin_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);
    handle = lduw_le_p(d.frame + 0x18 + 0x08);
    g_assert_cmpuint(handle, !=, 0);
    g_assert_cmphex(d.frame[0x18 + 0x27], ==, 0);                /* SAS */
    g_assert_cmphex(lduw_le_p(d.frame + 0x18 + 0x0A), ==, 0xFFFF);
    g_assert_cmphex(lduw_le_p(d.frame + 0x18 + 0x32) & 0x107, ==, 0x101);
    /* And it answers I/O. */
    h_scsi_frame(f, 61, handle, 0, 0, (const uint8_t *)"\0\0\0\0\0\0", 6);
    h_put_sge(f + 0x40, ~0ULL, 0, 0x08);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 61);
    h_stop(m);
}

/* ---- bad input ---- */

static void expect_scsi_error(MR *m, uint8_t *f, uint16_t status)
{
    Desc d;

    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmphex(d.tag, ==, lduw_le_p(f));
    g_assert_cmphex(d.status, ==, status);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
}

static void test_bad_functions(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint8_t f[128] = { 0 };
    Desc d;

    for (int fn = 0x8A; fn < 0x100; fn += 0x1B) {
        stw_le_p(f, 1);
        f[3] = fn;
        g_assert_cmphex(mr_admin(m, f, 64, &d), ==, 0x0001);
        g_assert_cmpint(d.type, ==, H_DT_STATUS);
    }
    /* A non-SCSI function on an operational queue. */
    stw_le_p(f, 33);
    f[3] = 0x01;
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_STATUS);
    g_assert_cmphex(d.tag, ==, 33);
    g_assert_cmphex(d.status, ==, 0x0001);
    /* IOC INIT twice. */
    memset(f, 0, sizeof(f));
    stw_le_p(f, 1);
    f[3] = 0x02;
    g_assert_cmphex(mr_admin(m, f, 64, NULL), ==, 0x0008);
    /* Config page that does not exist. */
    memset(f, 0, sizeof(f));
    stw_le_p(f, 6);
    f[3] = 0x10;
    f[0x0E] = 0x7E;
    h_put_sge(f + 0x20, h_alloc(m, 64), 8, 0x08);
    g_assert_cmphex(mr_admin(m, f, 48, NULL), ==, 0x0022);
    /* Driver page 2 header works (6.12 needs it). */
    f[0x0D] = 2;
    f[0x0E] = 0x03;
    g_assert_cmphex(mr_admin(m, f, 48, NULL), ==, 0);
    h_stop(m);
}

static void test_bad_sgl(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t data = h_alloc(m, 4096), c1 = h_alloc(m, 4096);
    uint64_t chains[8];
    uint8_t f[128], cdb[10], e[16] = { 0 };

    rw10(cdb, false, 0, 1);
    /* DataLength above the card's maximum transfer. */
    h_scsi_frame(f, 40, handle, 0x00080000, 16 << 20, cdb, 10);
    h_put_sge(f + 0x40, data, 16 << 20, 0x08);
    expect_scsi_error(m, f, 0x0007);
    /* SGL shorter than DataLength. */
    h_scsi_frame(f, 41, handle, 0x00080000, 512, cdb, 10);
    h_put_sge(f + 0x40, data, 100, 0x08);
    expect_scsi_error(m, f, 0x0003);
    /* Element outside guest RAM, and over the device's own BAR. */
    h_put_sge(f + 0x40, 1ULL << 44, 512, 0x08);
    expect_scsi_error(m, f, 0x0003);
    h_put_sge(f + 0x40, 0xFFFFFFFFFFFFFF00ULL, 512, 0x08);
    expect_scsi_error(m, f, 0x0003);
    h_put_sge(f + 0x40, qpci_config_readl(m->dev, PCI_BASE_ADDRESS_0) & ~0xFu,
            512, 0x08);
    expect_scsi_error(m, f, 0x0003);
    /* Address space other than system memory. */
    h_put_sge(f + 0x40, data, 512, 0x09);
    expect_scsi_error(m, f, 0x0003);
    /* Chain that points at itself. */
    h_put_sge(e, c1, 16, 0x30);
    qtest_memwrite(m->qts, c1, e, 16);
    h_scsi_frame(f, 42, handle, 0x00080000, 512, cdb, 10);
    h_put_sge(f + 0x40, c1, 16, 0x30);
    expect_scsi_error(m, f, 0x0003);
    /* Too many chain levels (distinct buffers). */
    for (int i = 0; i < 8; i++) {
        chains[i] = h_alloc(m, 64);
    }
    for (int i = 0; i < 7; i++) {
        h_put_sge(e, chains[i + 1], 16, 0x20);
        qtest_memwrite(m->qts, chains[i], e, 16);
    }
    h_put_sge(e, data, 512, 0x08);
    qtest_memwrite(m->qts, chains[7], e, 16);
    h_put_sge(f + 0x40, chains[0], 16, 0x20);
    expect_scsi_error(m, f, 0x0003);
    /* Chain with a length that is not a whole number of elements. */
    h_put_sge(f + 0x40, c1, 17, 0x30);
    expect_scsi_error(m, f, 0x0003);
    /* Both data directions at once. */
    h_scsi_frame(f, 43, handle, 0x000C0000, 512, cdb, 10);
    h_put_sge(f + 0x40, data, 512, 0x08);
    expect_scsi_error(m, f, 0x0007);
    /* Bad SGE in IOC FACTS. */
    g_assert_cmphex(mr_facts(m, 1ULL << 44, 112), ==, 0x0003);
    g_assert_cmphex(mr_facts(m, data, 0), ==, 0x0003);
    /* The device still works. */
    do_rw(m, handle, true);
    h_stop(m);
}

static void test_bad_doorbells(void)
{
    MR *m = mr_start(NULL);
    uint64_t buf = h_alloc(m, 4096);

    /* Doorbells before the IOC is ready are ignored. */
    h_wr(m, H_AREQ_PI, 5);
    h_wr(m, H_OREQ_PI(3), 1);
    h_wr(m, H_RFREE_HOST, 7);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS), ==, 0);
    /* Bad admin queue configuration faults the IOC. */
    h_wr(m, H_ADMIN_N, 0);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 1);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    g_assert_cmphex(h_rd(m, H_FAULT), !=, 0);
    mr_soft_reset(m);
    mr_enable(m);
    /* Doorbell of a queue that does not exist: ignored. */
    h_wr(m, H_OREQ_PI(2), 1);
    h_wr(m, H_OREP_CI(383), 1);
    h_wr(m, 0x1BFC, 1);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
    /* Free queue index before IOC INIT: ignored. */
    h_wr(m, H_SFREE_HOST, 3);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    /* Index beyond the ring: IOC fault. */
    h_wr(m, H_AREQ_PI, AREQ_N);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    /* Doorbells while faulted are ignored; soft reset recovers. */
    h_wr(m, H_AREQ_PI, 1);
    mr_soft_reset(m);
    mr_enable(m);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    mr_ioc_init(m);
    h_wr(m, H_RFREE_HOST, RFREE_N + 5);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    h_stop(m);
}

static void test_reset_storm(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t data = h_alloc(m, 64 * 1024), buf = h_alloc(m, 4096);
    uint8_t f[128], cdb[10];

    for (int i = 0; i < 100; i++) {
        /* Queue some I/O, then reset under it. */
        for (int j = 0; j < 4; j++) {
            rw10(cdb, j & 1, j * 16, 16);
            h_scsi_frame(f, 50 + j, handle, j & 1 ? 0x00040000 : 0x00080000,
                         8192, cdb, 10);
            h_put_sge(f + 0x40, data + j * 8192, 8192, 0x08);
            h_submit_op(m, f);
        }
        switch (i % 3) {
        case 0:
            h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
            h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
            break;
        case 1:
            mr_soft_reset(m);
            break;
        default:
            mr_unlock_diag(m);
            h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x700);
            mr_soft_reset(m);
            break;
        }
        g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT),
                        ==, 0);
        mr_enable(m);
        g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
        mr_ioc_init(m);
        mr_create_op_queues(m, false);
        if (i % 10 == 9) {
            mr_event_notify(m);
            g_assert_cmpuint(mr_port_enable(m), ==, handle);
            do_rw(m, handle, false);
        }
    }
    h_stop(m);
}

/* A slow drive in slot 7 (the null-co node with 300 ms latency). */
static uint16_t mr_add_slow_drive(MR *m)
{
    Desc d;

    qtest_qmp_device_add(m->qts, "megaraid-drive", "slow",
                         "{'bus': 'raid0.0', 'slot': 7, 'drive': 'spare',"
                         " 'interface': 'nvme'}");
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);
    return lduw_le_p(d.frame + 0x18 + 0x08);
}

/*
 * Shutdown notification with a READ in flight: IN PROGRESS until the READ
 * has completed and the drives are flushed, then COMPLETE; nothing waits
 * inside the register write.
 */
static void test_shutdown_waits_for_io(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t data = h_alloc(m, 4096);
    uint8_t f[128], cdb[10];
    Desc d;

    handle = mr_add_slow_drive(m);
    rw10(cdb, false, 0, 8);
    h_scsi_frame(f, 80, handle, 0x00080000, 4096, cdb, 10);
    h_put_sge(f + 0x40, data, 4096, 0x08);
    h_submit_op(m, f);
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 0x6000);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & ST_SHUTDOWN, ==, ST_SHUTDOWN_RUN);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 80);
    mr_wait_shutdown(m);
    h_stop(m);
}

static QTestState *hang_qts;

/* QEMU stopped answering: kill it and fail now rather than at a timeout. */
static void hang_alarm(int sig)
{
    static const char msg[] = "QEMU stopped answering: main loop hung\n";

    kill(qtest_pid(hang_qts), SIGKILL);
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing to do */
    }
    abort();
}

/*
 * An MSI-X vector aimed at the device's own IOC Configuration register,
 * with a message that asks for a shutdown notification, then one READ:
 * the READ's reply is posted from the block layer's completion, and its
 * interrupt must not run a register handler there (it drained the drives
 * from inside the completion of the request in flight: QEMU hung).  The
 * write is refused; the device and its registers stay usable.
 */
static void test_msix_self_write(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    uint64_t bar0 = qpci_config_readl(m->dev, PCI_BASE_ADDRESS_0) & ~0xFull;
    uint64_t e = m->dev->msix_table_off + 16;
    uint64_t data = h_alloc(m, 4096);
    struct sigaction sa = { 0 };
    uint8_t f[128], cdb[10];
    Desc d;

    bar0 |= (uint64_t)qpci_config_readl(m->dev, PCI_BASE_ADDRESS_1) << 32;
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e, bar0 + H_IOC_CONFIG);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 4, bar0 >> 32);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 8, 0x00474000);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 12, 0);

    hang_qts = m->qts;
    sa.sa_handler = hang_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(20);
    rw10(cdb, false, 0, 8);
    h_scsi_frame(f, 90, handle, 0x00080000, 4096, cdb, 10);
    h_put_sge(f + 0x40, data, 4096, 0x08);
    h_submit_op(m, f);
    mr_op_reply(m, &d);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_assert_cmphex(d.tag, ==, 90);
    /* The message never reached the register. */
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG), ==, 0x00470001);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) &
                    (H_ST_READY | H_ST_FAULT | ST_SHUTDOWN),
                    ==, H_ST_READY);
    /* Still usable, with interrupts where they belong again. */
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e, m->msi + 4);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 4, 0);
    qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 8, 2);
    do_rw(m, handle, false);
    alarm(0);
    h_stop(m);
}

#define FLOOD_DOORBELLS 4000

/*
 * A guest that never consumes its replies: every request slot holds a
 * frame whose function is not SCSI IO (answered by a status reply, no
 * request slot), the reply queue's CI never advances, and the request
 * queue's PI doorbell makes the ring full again thousands of times.  The
 * device reads frames only while their answers have room (in the ring or
 * the reply queue's small backlog), so what it holds stays bounded: once
 * the host consumes, it sees each frame the device read answered once, in
 * ring order, the device reads the rest up to the last PI, and then there
 * is nothing more.  (It used to read every frame at every doorbell and
 * queue all of the replies: hundreds of thousands.)
 */
static void test_reply_flood(void)
{
    uint16_t handle;
    MR *m = mr_bringup(false, &handle);
    const uint32_t bound = (OREP_N - 1) + OREP_N + OREQ_N;
    uint32_t pi = m->oreq_pi, start = m->oreq_pi, n = 0;
    uint8_t f[128] = { 0 }, raw[16];
    Desc d;

    for (uint32_t i = 0; i < OREQ_N; i++) {
        stw_le_p(f, 0x100 + i);
        f[3] = 0x01;                                  /* IOC FACTS */
        qtest_memwrite(m->qts, h_oreq_slot(m, i), f, sizeof(f));
    }
    for (int k = 0; k < FLOOD_DOORBELLS; k++) {
        pi = (pi + OREQ_N - 1) % OREQ_N;
        h_wr(m, H_OREQ_PI(1), pi);
    }
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT),
                    ==, H_ST_READY);

    /* Consume until nothing has come for 200 ms. */
    for (int idle = 0; idle < 200; idle++) {
        qtest_memread(m->qts, m->orep + m->orep_ci * 16, raw, 16);
        if ((lduw_le_p(raw + 14) & 1) != m->orep_phase) {
            g_usleep(1000);
            continue;
        }
        mr_op_reply(m, &d);
        g_assert_cmpint(d.type, ==, H_DT_STATUS);
        g_assert_cmphex(d.tag, ==, 0x100 + (start + n) % OREQ_N);
        g_assert_cmphex(d.status, ==, 0x0001);
        g_assert_cmpuint(d.qid, ==, 1);
        n++;
        g_assert_cmpuint(n, <=, bound);
        idle = 0;
    }
    g_test_message("flood: %u replies", n);
    /* The device read up to the last PI and answered that frame last. */
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint((start + n) % OREQ_N, ==, pi);
    g_assert_cmpuint(d.qci, ==, pi);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT),
                    ==, H_ST_READY);

    m->oreq_pi = pi;
    do_rw(m, handle, false);
    h_stop(m);
}

/*
 * CONFIG requests (function 10h): page header, read and write actions on
 * a page through a buffer at buf.  page_len is the request's page
 * length in dwords.
 */
enum { CFG_HEADER, CFG_READ_DEFAULT, CFG_READ_CURRENT, CFG_WRITE_CURRENT,
       CFG_READ_PERSISTENT, CFG_WRITE_PERSISTENT };
enum { PG_IO_UNIT = 0x00, PG_IOC = 0x02, PG_DRIVER = 0x03 };

static uint16_t mr_config(MR *m, uint8_t type, uint8_t num, uint8_t action,
                          uint16_t page_len, uint64_t buf, uint32_t len)
{
    uint8_t f[H_CONFIG_LEN];

    h_config_frame(f, 0x30, type, num, action, 0, page_len, buf, len);
    return mr_admin(m, f, sizeof(f), NULL);
}

/* Read page type/num with action into out (len bytes); IOC status. */
static uint16_t cfg_read(MR *m, uint8_t type, uint8_t num, uint8_t action,
                         uint8_t *out, uint32_t len)
{
    uint64_t buf = h_alloc(m, 512);
    uint16_t st;

    st = mr_config(m, type, num, action, len / 4, buf, len);
    qtest_memread(m->qts, buf, out, len);
    return st;
}

static uint16_t cfg_write(MR *m, uint8_t type, uint8_t num, uint8_t action,
                          const uint8_t *page, uint32_t len)
{
    uint64_t buf = h_alloc(m, 512);

    qtest_memwrite(m->qts, buf, page, len);
    return mr_config(m, type, num, action, len / 4, buf, len);
}

/* The three writable pages: type, number, bytes, attribute. */
static const struct {
    uint8_t type, num, bytes, attr;
} cfg_writable[] = {
    { PG_IO_UNIT, 1, 16, 0x20 },
    { PG_DRIVER, 1, 40, 0x20 },
    { PG_DRIVER, 2, 32, 0x20 },
};

/* Values written in the tests: each within the page's writable fields. */
static void cfg_set_values(uint8_t type, uint8_t num, uint8_t *p, int gen)
{
    if (type == PG_IO_UNIT) {
        p[8] = gen ? 0x11 : 0x0d;       /* NVMe WC off, SATA WC off, ... */
        p[12] = 0x20 + gen;             /* device missing delay */
        p[15] = 0x85;
    } else if (num == 1) {
        p[12] = 10 + gen;               /* time stamp update, minutes */
        stw_le_p(p + 16, 0x1000 + gen); /* host diag trace max size */
        stw_le_p(p + 36, 0x0040);       /* driver decrement size */
    } else {
        stq_le_p(p + 8, gen ? 0x2000000000000004ULL : 0x0000000000000002ULL);
    }
}

static void test_config_write_read(void)
{
    MR *m = mr_start(NULL);
    uint8_t pg[64], back[64], def[64], pers[64];

    mr_enable(m);
    mr_ioc_init(m);
    for (size_t i = 0; i < G_N_ELEMENTS(cfg_writable); i++) {
        uint8_t t = cfg_writable[i].type, n = cfg_writable[i].num;
        uint8_t len = cfg_writable[i].bytes;

        g_test_message("page type %u number %u", t, n);
        g_assert_cmphex(cfg_read(m, t, n, CFG_HEADER, pg, 8), ==, 0);
        g_assert_cmphex(pg[3], ==, cfg_writable[i].attr);
        g_assert_cmpuint(lduw_le_p(pg + 4), ==, len / 4);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_CURRENT, pg, len), ==, 0);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_DEFAULT, def, len), ==, 0);
        g_assert_cmpmem(pg, len, def, len);

        /* WRITE CURRENT: read back; persistent and default unchanged */
        cfg_set_values(t, n, pg, 0);
        g_assert_cmphex(cfg_write(m, t, n, CFG_WRITE_CURRENT, pg, len), ==,
                        0);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_CURRENT, back, len), ==,
                        0);
        g_assert_cmpmem(back, len, pg, len);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_PERSISTENT, pers, len),
                        ==, 0);
        g_assert_cmpmem(pers, len, def, len);

        /* WRITE PERSISTENT: the persistent copy only */
        memcpy(back, def, len);
        cfg_set_values(t, n, back, 1);
        g_assert_cmphex(cfg_write(m, t, n, CFG_WRITE_PERSISTENT, back, len),
                        ==, 0);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_PERSISTENT, pers, len),
                        ==, 0);
        g_assert_cmpmem(pers, len, back, len);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_CURRENT, back, len), ==,
                        0);
        g_assert_cmpmem(back, len, pg, len);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_DEFAULT, back, len), ==,
                        0);
        g_assert_cmpmem(back, len, def, len);
    }
    h_stop(m);
}

static void test_config_refused(void)
{
    MR *m = mr_start(NULL);
    uint8_t pg[64], cur[64];

    mr_enable(m);
    mr_ioc_init(m);
    /* read-only pages: IOC page 0, IO Unit page 0 */
    g_assert_cmphex(cfg_read(m, PG_IOC, 0, CFG_READ_CURRENT, pg, 28), ==, 0);
    g_assert_cmphex(cfg_write(m, PG_IOC, 0, CFG_WRITE_CURRENT, pg, 28), ==,
                    0x0020);
    g_assert_cmphex(cfg_read(m, PG_IO_UNIT, 0, CFG_READ_CURRENT, pg, 24), ==,
                    0);
    g_assert_cmphex(cfg_write(m, PG_IO_UNIT, 0, CFG_WRITE_PERSISTENT, pg,
                              24), ==, 0x0020);
    /* a page that does not exist */
    g_assert_cmphex(cfg_write(m, PG_DRIVER, 7, CFG_WRITE_CURRENT, pg, 16),
                    ==, 0x0022);

    g_assert_cmphex(cfg_read(m, PG_IO_UNIT, 1, CFG_READ_CURRENT, cur, 16),
                    ==, 0);
    /* reserved bits of IO Unit page 1's flags */
    memcpy(pg, cur, 16);
    pg[9] = 0x01;
    g_assert_cmphex(cfg_write(m, PG_IO_UNIT, 1, CFG_WRITE_CURRENT, pg, 16),
                    ==, 0x0007);
    /* reserved encodings of the write cache fields */
    memcpy(pg, cur, 16);
    pg[8] = 0x30;
    g_assert_cmphex(cfg_write(m, PG_IO_UNIT, 1, CFG_WRITE_CURRENT, pg, 16),
                    ==, 0x0023);
    pg[8] = 0x03;
    g_assert_cmphex(cfg_write(m, PG_IO_UNIT, 1, CFG_WRITE_CURRENT, pg, 16),
                    ==, 0x0023);
    /* a header naming another page */
    memcpy(pg, cur, 16);
    pg[2] = 0;
    g_assert_cmphex(cfg_write(m, PG_IO_UNIT, 1, CFG_WRITE_CURRENT, pg, 16),
                    ==, 0x0022);
    /* the request's page length is not the page's */
    memcpy(pg, cur, 16);
    {
        uint64_t buf = h_alloc(m, 64);

        qtest_memwrite(m->qts, buf, pg, 16);
        g_assert_cmphex(mr_config(m, PG_IO_UNIT, 1, CFG_WRITE_CURRENT, 3,
                                  buf, 16), ==, 0x0007);
    }
    /* Driver page 1: a reserved byte; Driver page 2: trigger elements */
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_CURRENT, pg, 40), ==,
                    0);
    pg[13] = 1;
    g_assert_cmphex(cfg_write(m, PG_DRIVER, 1, CFG_WRITE_CURRENT, pg, 40),
                    ==, 0x0007);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 2, CFG_READ_CURRENT, pg, 32), ==,
                    0);
    pg[28] = 1;
    g_assert_cmphex(cfg_write(m, PG_DRIVER, 2, CFG_WRITE_CURRENT, pg, 32),
                    ==, 0x0023);
    /* nothing refused changed anything */
    g_assert_cmphex(cfg_read(m, PG_IO_UNIT, 1, CFG_READ_CURRENT, pg, 16), ==,
                    0);
    g_assert_cmpmem(pg, 16, cur, 16);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 2, CFG_READ_CURRENT, pg, 32), ==,
                    0);
    g_assert_cmphex(pg[28], ==, 0);
    h_stop(m);
}

/* The properties of a config-nvram drive in qcow2 image @path. */
static char *nvram_qcow2(const char *path)
{
    return g_strdup_printf(",config-nvram=nv0 -blockdev driver=qcow2,"
                           "node-name=nv0,file.driver=file,"
                           "file.filename=%s", path);
}

/*
 * WRITE PERSISTENT survives a restart with config-nvram (a qcow2 drive);
 * current does not.
 */
static void test_config_persistent(void)
{
    g_autofree char *path = NULL;
    g_autofree char *extra = NULL;
    uint8_t pg[64], want[3][64], def[3][64], back[64];
    int fd;
    MR *m;

    fd = g_file_open_tmp("megaraid-9600-nvram-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
    h_img_create("qcow2", NULL, path, "64K");     /* blank: defaults */
    extra = nvram_qcow2(path);

    m = mr_start(extra);
    mr_enable(m);
    mr_ioc_init(m);
    for (size_t i = 0; i < G_N_ELEMENTS(cfg_writable); i++) {
        uint8_t t = cfg_writable[i].type, n = cfg_writable[i].num;
        uint8_t len = cfg_writable[i].bytes;

        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_CURRENT, def[i], len), ==,
                        0);
        memcpy(want[i], def[i], len);
        cfg_set_values(t, n, want[i], 1);
        g_assert_cmphex(cfg_write(m, t, n, CFG_WRITE_PERSISTENT, want[i],
                                  len), ==, 0);
        memcpy(pg, def[i], len);
        cfg_set_values(t, n, pg, 0);
        g_assert_cmphex(cfg_write(m, t, n, CFG_WRITE_CURRENT, pg, len), ==,
                        0);
    }
    h_stop(m);

    /* a new QEMU: persistent copies from the file, current = persistent */
    m = mr_start(extra);
    mr_enable(m);
    mr_ioc_init(m);
    for (size_t i = 0; i < G_N_ELEMENTS(cfg_writable); i++) {
        uint8_t t = cfg_writable[i].type, n = cfg_writable[i].num;
        uint8_t len = cfg_writable[i].bytes;

        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_PERSISTENT, back, len),
                        ==, 0);
        g_assert_cmpmem(back, len, want[i], len);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_CURRENT, back, len), ==,
                        0);
        g_assert_cmpmem(back, len, want[i], len);
        g_assert_cmphex(cfg_read(m, t, n, CFG_READ_DEFAULT, back, len), ==,
                        0);
        g_assert_cmpmem(back, len, def[i], len);
    }
    h_stop(m);

    /* without the property nothing carries over */
    m = mr_start(NULL);
    mr_enable(m);
    mr_ioc_init(m);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, back, 40),
                    ==, 0);
    g_assert_cmpmem(back, 40, def[1], 40);
    h_stop(m);
    unlink(path);
}

/* Submit a CONFIG write of page (type, num) and return at once. */
static void cfg_write_submit(MR *m, uint8_t type, uint8_t num,
                             uint8_t action, const uint8_t *page,
                             uint32_t len)
{
    uint64_t buf = h_alloc(m, 512);
    uint8_t f[H_CONFIG_LEN];

    qtest_memwrite(m->qts, buf, page, len);
    h_config_frame(f, 0x31, type, num, action, 0, len / 4, buf, len);
    h_submit_admin(m, f, sizeof(f));
}

/* Run the virtual clock until the write's reply comes; its IOC status. */
static uint16_t cfg_write_wait(MR *m)
{
    Desc d;

    for (int i = 0; i < 100; i++) {
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        if (h_admin_reply(m, &d, 5)) {
            g_assert_cmphex(d.tag, ==, 0x31);
            return d.status;
        }
    }
    g_assert_not_reached();
}

/*
 * A WRITE PERSISTENT is answered once its copy is on config-nvram, and
 * the main loop runs meanwhile: with the NVRAM throttled (one write per
 * second of the virtual clock, which only the test moves) the
 * second write gets no reply, QMP answers and READ PERSISTENT still gives
 * the copy on the drive; the reply comes once the clock runs.  A reset
 * while a write is pending drops its reply; the write still lands.
 */
static void test_config_nvram_pending(void)
{
    g_autofree char *path = NULL;
    g_autofree char *extra = NULL;
    g_autofree char *plain = NULL;
    uint8_t def[40], one[40], two[40], back[40];
    int64_t t0, worst = 0;
    Desc d;
    int fd;
    MR *m;

    fd = g_file_open_tmp("megaraid-9600-nvram-XXXXXX", &path, NULL);
    g_assert(fd >= 0);
    close(fd);
    h_img_create("qcow2", NULL, path, "64K");
    /*
     * (a -drive, throttled through QMP: a throttle-group object given on
     * the command line is made before qtest's clock and runs in real time)
     */
    extra = g_strdup_printf(",config-nvram=nvd -drive if=none,id=nvd,"
                            "format=qcow2,file=%s", path);
    m = mr_start(extra);
    qts_throttle_drive(m->qts, "device", "nvd", 1);
    mr_enable(m);
    mr_ioc_init(m);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, def, 40),
                    ==, 0);
    memcpy(one, def, 40);
    cfg_set_values(PG_DRIVER, 1, one, 1);
    memcpy(two, def, 40);
    cfg_set_values(PG_DRIVER, 1, two, 0);

    /* the first write uses up the throttle's budget */
    cfg_write_submit(m, PG_DRIVER, 1, CFG_WRITE_PERSISTENT, one, 40);
    g_assert_cmphex(cfg_write_wait(m), ==, 0);

    /* the second waits for the clock, and the main loop runs */
    cfg_write_submit(m, PG_DRIVER, 1, CFG_WRITE_PERSISTENT, two, 40);
    for (int i = 0; i < 5; i++) {
        QDict *rsp;

        t0 = g_get_monotonic_time();
        rsp = qtest_qmp(m->qts, "{'execute': 'query-status'}");
        worst = MAX(worst, g_get_monotonic_time() - t0);
        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);
        g_assert_false(h_admin_reply(m, &d, 20));
    }
    g_test_message("QMP while the NVRAM write waits: %" PRId64 " us at most",
                   worst);
    g_assert_cmpint(worst, <, 1000 * 1000);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, back, 40),
                    ==, 0);
    g_assert_cmpmem(back, 40, one, 40);
    g_assert_cmphex(cfg_write_wait(m), ==, 0);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, back, 40),
                    ==, 0);
    g_assert_cmpmem(back, 40, two, 40);

    /* a reset while the write waits: no reply after it, the copy lands */
    cfg_write_submit(m, PG_DRIVER, 1, CFG_WRITE_PERSISTENT, one, 40);
    g_assert_false(h_admin_reply(m, &d, 20));
    mr_soft_reset(m);
    mr_enable(m);
    mr_ioc_init(m);
    for (int i = 0; i < 30; i++) {
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        g_assert_false(h_admin_reply(m, &d, 5));
    }
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, back, 40),
                    ==, 0);
    g_assert_cmpmem(back, 40, one, 40);
    h_stop(m);

    /* and it is on the drive */
    plain = nvram_qcow2(path);
    m = mr_start(plain);
    mr_enable(m);
    mr_ioc_init(m);
    g_assert_cmphex(cfg_read(m, PG_DRIVER, 1, CFG_READ_PERSISTENT, back, 40),
                    ==, 0);
    g_assert_cmpmem(back, 40, one, 40);
    h_stop(m);
    unlink(path);
}

/* The throttle fields and the reply queue limit flag, from properties. */
static void test_facts_limits(void)
{
    static const char *const bad[] = {
        "io-throttle-data-kib=6", "io-throttle-data-kib=1028",
        "io-throttle-high-mib=4,io-throttle-low-mib=5",
    };
    MR *m = mr_start(",reply-queue-limit=on,io-throttle-groups=8,"
                     "io-throttle-devices=16,io-throttle-data-kib=128,"
                     "io-throttle-high-mib=24,io-throttle-low-mib=12");
    uint64_t buf = h_alloc(m, 4096);
    uint8_t f[112];

    mr_enable(m);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    qtest_memread(m->qts, buf, f, sizeof(f));
    g_assert_cmphex(ldl_le_p(f + 0x44) & 0x40, ==, 0x40);
    g_assert_cmpuint(f[95], ==, 16);
    g_assert_cmpuint(lduw_le_p(f + 96), ==, 32);              /* 4 KiB units */
    g_assert_cmpuint(lduw_le_p(f + 98), ==, 8);
    g_assert_cmpuint(lduw_le_p(f + 100), ==, 12);
    g_assert_cmpuint(lduw_le_p(f + 102), ==, 24);
    h_stop(m);

    /* the defaults: no limit, no throttling */
    m = mr_start(NULL);
    buf = h_alloc(m, 4096);
    mr_enable(m);
    g_assert_cmphex(mr_facts(m, buf, 112), ==, 0);
    qtest_memread(m->qts, buf, f, sizeof(f));
    g_assert_cmphex(ldl_le_p(f + 0x44) & 0x40, ==, 0);
    for (int i = 95; i < 104; i++) {
        g_assert_cmpuint(f[i], ==, 0);
    }
    h_stop(m);

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *args = g_strdup_printf(
            "-machine q35 -nodefaults -device megaraid-9600,%s", bad[i]);
        g_autofree char *err = NULL;
        g_auto(GStrv) kv = g_strsplit(bad[i], "=", 2);

        g_assert_cmpint(h_run_qemu(args, &err), !=, 0);
        g_assert_nonnull(strstr(err, kv[0]));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!qtest_has_device("megaraid-9600")) {
        g_test_message("megaraid-9600 not built");
        return g_test_run();
    }
    qtest_add_func("/megaraid-9600/reset-values", test_reset_values);
    qtest_add_func("/megaraid-9600/state-machine", test_state_machine);
    qtest_add_func("/megaraid-9600/facts", test_facts);
    qtest_add_func("/megaraid-9600/facts-limits", test_facts_limits);
    qtest_add_func("/megaraid-9600/model-ehba", test_eHBA_model);
    qtest_add_func("/megaraid-9600/queues", test_queues);
    qtest_add_func("/megaraid-9600/scsi-rw-contiguous",
                   test_scsi_rw_contiguous);
    qtest_add_func("/megaraid-9600/scsi-rw-segmented", test_scsi_rw_segmented);
    qtest_add_func("/megaraid-9600/scsi-inquiry-sense",
                   test_scsi_inquiry_and_sense);
    qtest_add_func("/megaraid-9600/task-mgmt", test_task_mgmt);
    qtest_add_func("/megaraid-9600/tm-terminates-io", test_tm_terminates_io);
    qtest_add_func("/megaraid-9600/hotplug", test_hotplug);
    qtest_add_func("/megaraid-9600/bad/functions", test_bad_functions);
    qtest_add_func("/megaraid-9600/bad/sgl", test_bad_sgl);
    qtest_add_func("/megaraid-9600/bad/doorbells", test_bad_doorbells);
    qtest_add_func("/megaraid-9600/bad/reset-storm", test_reset_storm);
    qtest_add_func("/megaraid-9600/shutdown-waits-for-io",
                   test_shutdown_waits_for_io);
    qtest_add_func("/megaraid-9600/bad/msix-self-write", test_msix_self_write);
    qtest_add_func("/megaraid-9600/bad/reply-flood", test_reply_flood);
    qtest_add_func("/megaraid-9600/config/write-read",
                   test_config_write_read);
    qtest_add_func("/megaraid-9600/config/refused", test_config_refused);
    qtest_add_func("/megaraid-9600/config/persistent",
                   test_config_persistent);
    qtest_add_func("/megaraid-9600/config/nvram-pending",
                   test_config_nvram_pending);
    return g_test_run();
}
