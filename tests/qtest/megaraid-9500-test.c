/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the megaraid-9500 Fusion host interface (the
 * megaraid_sas side of issue 12), its bring-up and firmware: the state
 * machine to READY, the MFA-posted IOC INIT (also twice, with garbage,
 * after a doorbell abort), controller info, the PD list and the other
 * DCMDs through the MFI pass-through, MFI PD_SCSI_IO pass-through, the
 * diagnostic reset, MSI-X masking, the timing model, the management
 * protocol's DCMD, and hostile input (bad SGL addresses, SMIDs out of
 * range, unknown functions and MFI commands, a seeded random run) that
 * must leave QEMU alive and answering.  The host layer is
 * megaraid-fusion-host.h; I/O, LDs, task management and events have
 * qtests of their own (megaraid-9500-*-test.c).
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

static void test_ready(void)
{
    MR *m = start();
    uint32_t sp0 = rd(m, R_SP0), sp1 = rd(m, R_SP1);

    g_assert_cmphex(sp0 >> 28, ==, 0xB);
    g_assert_cmphex(sp0 & (1u << 26), !=, 0);
    g_assert_cmpuint(sp0 & 0xFFFF, ==, MAX_CMDS);
    g_assert_cmpuint((sp1 >> 14 & 0xFF) + 1, ==, 2);
    g_assert_cmphex(sp1 & (1u << 24), !=, 0);
    g_assert_cmphex(rd(m, R_DOORBELL), ==, 0);
    g_assert_cmphex(rd(m, R_MASK), ==, 0xFFFFFFFF);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_DEVICE_ID), ==, 0x10E2);
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_SUBSYSTEM_ID), ==, 0x1AE2);
    stop(m);
}

static void test_init(void)
{
    MR *m = start();

    /* garbage IOC INIT: rejected, still READY */
    g_assert_cmphex(ioc_init_raw(m, 0x77, 2), ==, 0x03);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
    /* more vectors than offered */
    g_assert_cmphex(ioc_init_raw(m, 0x02, 9), ==, 0x03);
    ioc_init(m);
    /* twice: wrong state, still OPERATIONAL */
    g_assert_cmphex(ioc_init_raw(m, 0x02, 2), ==, 0x32);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xC);
    /* doorbell abort back to READY, then a new session */
    wr(m, R_DOORBELL, 0x07);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
    ioc_init(m);
    g_assert_cmphex(dcmd(m, 70, 0x01010000, 1, m->buf, 2384), ==, 0);
    stop(m);
}

static void test_dcmd(void)
{
    MR *m = start();
    char name[81] = { 0 };

    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01010000, 1, m->buf, 2384), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf), ==, 0x1000);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 2), ==, 0x10E2);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 4), ==, 0x1028);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 6), ==, 0x1AE2);
    qtest_memread(m->qts, m->buf + 0x540, name, 80);
    g_assert_cmpstr(name, ==, "PERC H755N Front");
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 0x620) & (1u << 13), !=, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 0x7A4) & (1u << 11), !=, 0);

    /* PD list, exposed to host: PD 0 and PD 3 */
    g_assert_cmphex(dcmd(m, 65, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 2);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 8 + 2 * 24);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 8), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 8 + 24), ==, 3);
    g_assert_cmpuint(rd8(m, m->buf + 8 + 24 + 6), ==, 0);

    /* no VDs; event log info; an empty RAID map (header and 4 tables) */
    g_assert_cmphex(dcmd(m, 66, 0x03010100, 1, m->buf, 268), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 0);
    g_assert_cmphex(dcmd(m, 67, 0x01040100, 0, m->buf, 20), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), >=, 1);
    g_assert_cmphex(dcmd(m, 68, 0x0300E101, 0, m->buf, 65536), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 152 + 256 * 8 + 512);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 0x0C), ==, 4);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x2C), ==, 0);
    g_assert_cmphex(dcmd(m, 69, 0x12345678, 0, m->buf, 16), ==, 0x02);
    /* PD info: the SATA drive's interface type */
    g_assert_cmphex(dcmd(m, 70, 0x02020000, 3, m->buf, 512), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 0xBC) >> 12, ==, 3);
    g_assert_cmphex(dcmd(m, 70, 0x02020000, 9, m->buf, 512), ==, 0x0C);
    /*
     * Target properties (scratch pad 3 announces an NVMe page size, so
     * the driver asks): SAS JBOD 64, SATA JBOD 32, 512-byte blocks; a PD
     * id with no JBOD and an LD that does not exist: DEVICE NOT FOUND.
     */
    g_assert_cmpuint(rd(m, 0xBC) & 0xFF, ==, 12);
    {
        uint32_t qd, bs, kb;

        g_assert_cmphex(target_prop(m, false, 0, &qd, &bs, &kb), ==, 0);
        g_assert_cmpuint(kb, ==, 0);
        g_assert_cmpuint(qd, ==, 64);
        g_assert_cmpuint(bs, ==, 512);
        g_assert_cmphex(target_prop(m, false, 3, &qd, &bs, &kb), ==, 0);
        g_assert_cmpuint(qd, ==, 32);
        g_assert_cmphex(target_prop(m, false, 1, &qd, &bs, &kb), ==, 0x0C);
        g_assert_cmphex(target_prop(m, false, 0xFFFF, &qd, &bs, &kb), ==, 0x0C);
        g_assert_cmphex(target_prop(m, true, 0, &qd, &bs, &kb), ==, 0x0C);
    }
    stop(m);
}

/*
 * timing=on: the firmware core's timing model with the SAS3916 profile;
 * a JBOD read is held until its modelled completion (the virtual clock,
 * which only clock_step moves under qtest); the core's errors name this
 * controller.
 */
static void test_timing(void)
{
    MR *m = start_with(",timing=on,model=9560-16i");
    QDict *r;

    r = qom(m, "qom-get", "timing-profile", NULL);
    g_assert_cmpstr(qdict_get_str(r, "return"), ==, "sas3916");
    qobject_unref(r);
    ioc_init(m);
    jbod_post(m, 1, 1, 0, false, 0, 8, m->buf);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 1));
    qtest_clock_step(m->qts, 10 * 1000 * 1000);
    g_assert_cmpuint(reply(m, 1), ==, 1);
    g_assert_cmphex(rd8(m, m->frames + 256 + 0x77), ==, 0);
    r = qom(m, "qom-get", "timing-completions", NULL);
    g_assert_cmpuint(qdict_get_int(r, "return"), ==, 1);
    qobject_unref(r);
    r = qom(m, "qom-set", "time-scale", "abc");
    g_assert(qdict_haskey(r, "error"));
    g_assert(g_str_has_prefix(qdict_get_str(qdict_get_qdict(r, "error"),
                                            "desc"),
                              "megaraid-9500: time-scale 'abc'"));
    qobject_unref(r);
    stop(m);
}

static void test_hostile(void)
{
    MR *m = start();
    uint8_t f[256] = { 0 };

    /* descriptors before IOC INIT are dropped */
    wr(m, R_REQ_ATOMIC, 5u << 16);
    ioc_init(m);
    g_assert(no_reply(m, 0));

    /* SMID 0 and beyond the pool: no reply can name them */
    wr(m, R_REQ_ATOMIC, 0);
    wr(m, R_REQ_ATOMIC, (uint32_t)(MAX_SMID + 1) << 16);
    wr(m, R_REQ_ATOMIC, 0xFFFFu << 16);
    g_assert(no_reply(m, 0));

    /* unknown function: INVALID_CMD in the RAID context */
    f[3] = 0x77;
    qtest_memwrite(m->qts, m->frames + 9 * 256, f, sizeof(f));
    wr(m, R_REQ_ATOMIC, 9u << 16 | 0x7F00);     /* queue out of range */
    g_assert_cmpuint(reply(m, 0), ==, 9);
    g_assert_cmphex(rd8(m, m->frames + 9 * 256 + 0x77), ==, 0x01);

    /* DCMD data to an address outside RAM: INVALID_PARAMETER */
    g_assert_cmphex(dcmd(m, 64, 0x01010000, 1, 0xFFFF00000000ull, 2384),
                    ==, 0x03);
    /* I/O with an SGL outside RAM: the request fails, nothing else */
    g_assert_cmphex(jbod_rw(m, 4, 0, 0, false, 0, 8, 0xFFFF00000000ull),
                    ==, 0x03);
    g_assert_cmphex(jbod_rw(m, 5, 0, 0, true, 0, 8, 0xFEE00000ull), ==, 0x03);
    /* unknown MFI command */
    memset(f, 0, sizeof(f));
    f[0] = 0x42;
    f[2] = 0xFF;
    qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
    memset(f, 0, sizeof(f));
    f[3] = 0xF0;
    stq_le_p(f + 0x80, m->mfi);
    stl_le_p(f + 0x88, 256);
    f[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + 66 * 256, f, sizeof(f));
    wr(m, R_REQ_ATOMIC, 66u << 16);
    g_assert_cmpuint(reply(m, 0), ==, 66);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0x01);
    /* pass-through whose MFI frame is not in RAM: the SMID completes */
    stq_le_p(f + 0x80, 0xFFFF00000000ull);
    qtest_memwrite(m->qts, m->frames + 67 * 256, f, sizeof(f));
    wr(m, R_REQ_ATOMIC, 67u << 16);
    g_assert_cmpuint(reply(m, 0), ==, 67);
    /* garbage in the host index and combined index registers */
    wr(m, R_HOST_INDEX, 0xFFFFFFFF);
    wr(m, 0x30C, 0x07FFFFFF);
    wr(m, 0x3FC, 0xFFFFFFFF);

    /* still answering */
    g_assert_cmphex(dcmd(m, 65, 0x01010000, 1, m->buf, 2384), ==, 0);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xC);

    /* doorbell abort: READY, nothing posted from the old session */
    wr(m, R_DOORBELL, 0x07);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
    stop(m);
}

static void test_diag_reset(void)
{
    MR *m = start();
    static const uint8_t keys[] = { 0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD };
    QDict *r;

    ioc_init(m);
    for (size_t i = 0; i < sizeof(keys); i++) {
        wr(m, 0x004, keys[i]);
    }
    g_assert_cmphex(rd(m, 0x008) & 0x80, ==, 0x80);
    wr(m, 0x008, rd(m, 0x008) | 0x4);
    g_assert_cmphex(rd(m, 0x008) & 0x4, ==, 0);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
    r = qom(m, "qom-get", "chip-resets", NULL);
    g_assert_cmpint(qdict_get_int(r, "return"), ==, 1);
    qobject_unref(r);
    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01010000, 1, m->buf, 2384), ==, 0);
    stop(m);
}

static void test_passthru(void)
{
    MR *m = start();
    uint8_t f[256] = { 0 };
    char vendor[9] = { 0 };

    ioc_init(m);
    /* INQUIRY to PD 0 the way smartctl sends it */
    f[0] = 0x04;
    f[2] = 0xFF;
    f[4] = 0;
    f[6] = 6;
    f[7] = 1;
    stw_le_p(f + 0x10, 0x0002 | 0x0010);
    stl_le_p(f + 0x14, 36);
    f[0x20] = 0x12;
    f[0x24] = 36;
    stq_le_p(f + 0x30, m->buf);
    stl_le_p(f + 0x38, 36);
    qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
    mfi_pass_post(m, 64, m->mfi);
    g_assert_cmpuint(reply(m, 0), ==, 64);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0);
    g_assert_cmphex(rd8(m, m->mfi + 3), ==, 0);
    qtest_memread(m->qts, m->buf + 8, vendor, 8);
    g_assert_cmpstr(vendor, ==, "SEAGATE ");
    /* no drive with PD id 200 */
    f[4] = 200;
    qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
    wr(m, R_REQ_ATOMIC, 64u << 16);
    g_assert_cmpuint(reply(m, 0), ==, 64);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0x0C);
    stop(m);
}

/*
 * Random hostile traffic: frames of every function with random fields,
 * SGLs into RAM, outside it and at 0, chain elements, MFI frames of every
 * command, random descriptors through both ports, random register writes
 * (but no reset of the firmware state on every round).  QEMU must survive
 * and, after a doorbell abort and a new IOC INIT, answer a DCMD.
 */
static void test_fuzz(void)
{
    MR *m = start();
    GRand *rnd = g_rand_new_with_seed(0x9500);
    static const uint8_t funcs[] = { 0x00, 0x01, 0xF0, 0xF1, 0x02, 0x77 };
    static const uint32_t ops[] = {
        0x01010000, 0x02010100, 0x02010000, 0x02020000, 0x03010100,
        0x03010000, 0x0300E101, 0x0200E102, 0x01040100, 0x01040500,
        0x01101000, 0x03020000,
        /* mr9500-cfg.c: configuration and LD management */
        0x04010000, 0x04020000, 0x04030000, 0x04040000, 0x04050000,
        0x04060100, 0x04060200, 0x04060300, 0x04060400, 0x04060500,
        0x03030000, 0x03040000,
        0x03060100, 0x03090000,
        /* mr9500-pd-mgmt.c: PD state, rebuild, progress */
        0x02030100, 0x02040100, 0x02040200, 0x02060000,
        /* mr9500-ctrl-mgmt.c, mr9500-bbu.c */
        0x01020100, 0x01020200, 0x01040300, 0x01080201, 0x05010000,
        0x05020000, 0x05030000, 0x05050100,
        /* mr9500-bbu-set.c */
        0x05040000, 0x05050200,
    };
    static const uint32_t regs[] = {
        0x004, 0x008, 0x030, 0x034, 0x06C, 0x0B0, 0x0C8, 0x30C,
        0x31C, 0x3FC, 0x400, 0xFFC,
    };
    uint64_t addrs[4];
    uint8_t f[256];

    ioc_init(m);
    addrs[0] = m->buf;
    addrs[1] = 0xFFFF00000000ull;
    addrs[2] = 0;
    addrs[3] = m->frames + 64 * 256;
    for (int it = 0; it < 1500; it++) {
        uint16_t smid = g_rand_int_range(rnd, 0, MAX_SMID + 3);
        uint64_t mfi = addrs[g_rand_int_range(rnd, 0, 4)] + 1024;

        for (int i = 0; i < 256; i += 4) {
            stl_le_p(f + i, g_rand_int(rnd));
        }
        f[3] = funcs[g_rand_int_range(rnd, 0, sizeof(funcs))];
        stl_le_p(f + 0x1C, g_rand_int_range(rnd, 0, 70000));
        if (g_rand_boolean(rnd)) {
            /* a JBOD frame for PD 0, 3 or an absent one */
            static const uint16_t pds[] = { 0, 3, 7, 300 };

            f[0x78] = 0x10;
            stw_le_p(f + 0x66, pds[g_rand_int_range(rnd, 0, 4)]);
            stw_le_p(f, g_rand_boolean(rnd) ? 0xFFFF : lduw_le_p(f + 0x66));
            f[0x40] = g_rand_boolean(rnd) ? 0x28 : 0x2A;
        }
        for (int e = 0; e < 8; e++) {
            uint8_t *sge = f + 0x80 + 16 * e;

            stq_le_p(sge, addrs[g_rand_int_range(rnd, 0, 4)] +
                     g_rand_int_range(rnd, 0, 4096));
            stl_le_p(sge + 8, g_rand_int_range(rnd, 0, 9000));
            sge[15] = g_rand_boolean(rnd) ? 0x40 :
                      g_rand_boolean(rnd) ? 0x80 : g_rand_int(rnd);
        }
        if (f[3] == 0xF0) {
            uint8_t mf[256];

            stq_le_p(f + 0x80, mfi);
            stl_le_p(f + 0x88, 256);
            f[0x8F] = 0x83;
            for (int i = 0; i < 256; i += 4) {
                stl_le_p(mf + i, g_rand_int(rnd));
            }
            mf[0] = g_rand_int_range(rnd, 0, 12);
            if (g_rand_boolean(rnd)) {
                mf[0] = 0x05;
                stl_le_p(mf + 0x18, ops[g_rand_int_range(rnd, 0,
                                                         G_N_ELEMENTS(ops))]);
            }
            mf[7] = g_rand_int_range(rnd, 0, 3);
            stl_le_p(mf + 0x14, g_rand_int_range(rnd, 0, 70000));
            stq_le_p(mf + 0x28, addrs[g_rand_int_range(rnd, 0, 4)]);
            stq_le_p(mf + 0x30, addrs[g_rand_int_range(rnd, 0, 4)]);
            if (mfi != 1024) {
                qtest_memwrite(m->qts, mfi, mf, sizeof(mf));
            }
        }
        if (smid <= MAX_SMID) {
            qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
        }
        switch (g_rand_int_range(rnd, 0, 8)) {
        case 0:
            wr(m, R_REQ_LO, (uint32_t)smid << 16 | g_rand_int(rnd) % 0x10000);
            wr(m, R_REQ_HI, g_rand_int(rnd));
            break;
        case 1:
            wr(m, regs[g_rand_int_range(rnd, 0, G_N_ELEMENTS(regs))],
               g_rand_int(rnd) & ~0x20u);
            break;
        default:
            wr(m, R_REQ_ATOMIC, (uint32_t)smid << 16 |
               (g_rand_int_range(rnd, 0, 3) << 8) |
               (g_rand_int_range(rnd, 0, 8) << 1));
            break;
        }
        if (it % 100 == 99) {
            /* let I/O finish; keep the reply queues from filling */
            g_usleep(2000);
            qtest_memset(m->qts, m->replies, 0xFF, 2 * DEPTH * 8);
        }
        if (rd(m, R_SP0) >> 28 == 0xF || it % 500 == 499) {
            /* a fault (or now and then): back to READY and init again */
            wr(m, R_DOORBELL, 0x07);
            if (rd(m, R_SP0) >> 28 != 0xB) {
                static const uint8_t keys[] = {
                    0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD
                };

                for (size_t k = 0; k < sizeof(keys); k++) {
                    wr(m, 0x004, keys[k]);
                }
                wr(m, 0x008, 0x84);
            }
            g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
            ioc_init(m);
        }
    }
    g_usleep(100000);
    wr(m, R_DOORBELL, 0x07);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);
    wr(m, R_MASK, 0xFFFFFFFF);
    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01010000, 1, m->buf, 2384), ==, 0);
    g_rand_free(rnd);
    stop(m);
}

/*
 * Interrupts: no MSI-X message while the host masks them (what the driver
 * does during polled init DCMDs), the held-back replies signalled when it
 * unmasks, then one message per reply, on the vector of the reply queue.
 */
static void test_msix(void)
{
    MR *m = start();
    uint64_t msi = alloc(m, 64), mfi2 = alloc(m, 256);

    qpci_msix_enable(m->dev);
    for (int v = 0; v < 2; v++) {
        uint64_t e = m->dev->msix_table_off + v * 16;

        qpci_io_writel(m->dev, m->dev->msix_table_bar, e, msi + 4 * v);
        qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 4,
                       (msi + 4 * v) >> 32);
        qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 8, v + 1);
        qpci_io_writel(m->dev, m->dev->msix_table_bar, e + 12, 0);
    }
    ioc_init(m);
    g_assert_cmphex(rd(m, R_MASK), ==, 0xFFFFFFFF);

    /* masked: the reply is posted, no message */
    dcmd_post(m, 64, m->mfi, 0x01010000, 1, 0, m->buf, 2384);
    g_assert_cmpuint(rd8(m, m->mfi + 2), ==, 0);
    g_assert(!no_reply(m, 0));
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 0);

    /* unmasked: the pending queue 0 is signalled at once */
    wr(m, R_MASK, 0xFFFFFFF6);
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 1);
    g_assert_cmphex(qtest_readl(m->qts, msi + 4), ==, 0);
    g_assert_cmpuint(reply(m, 0), ==, 64);
    qtest_writel(m->qts, msi, 0);

    /* then each reply raises its queue's vector */
    g_assert_cmphex(jbod_rw(m, 1, 1, 0, false, 0, 8, m->buf), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, msi + 4), ==, 2);
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 0);
    g_assert_cmphex(dcmd(m, 65, 0x01040100, 0, m->buf, 20), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 1);

    /* masked again (interrupt-poll mode): nothing until unmasked */
    qtest_writel(m->qts, msi, 0);
    wr(m, R_MASK, 0xFFFFFFFF);
    dcmd_post(m, 66, mfi2, 0x01040100, 0, 0, m->buf, 20);
    g_assert(!no_reply(m, 0));
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 0);
    wr(m, R_MASK, 0xFFFFFFF6);
    g_assert_cmphex(qtest_readl(m->qts, msi), ==, 1);
    g_assert_cmpuint(reply(m, 0), ==, 66);
    stop(m);
}

static void test_mgmt(void)
{
    MR *m = start();

    ioc_init(m);
    /* CTRL_GET_INFO through the protocol: reply header and data */
    mgmt_envelope(m, 0x474d524d, 0x01010000, 0x1234);
    g_assert_cmphex(dcmd(m, 71, MGMT_DCMD, 40, m->buf, 4096), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf), ==, 0x524d524d);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 8), ==, 0x01010000);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 12), ==, 0x1234);
    g_assert_cmphex(rd8(m, m->buf + 16), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 20), >, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 20), <=, 4096 - 32);
    /* bad magic: MFI OK, the protocol's INVALID_CMD */
    mgmt_envelope(m, 0x11111111, 0x01010000, 7);
    g_assert_cmphex(dcmd(m, 72, MGMT_DCMD, 40, m->buf, 4096), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf), ==, 0x524d524d);
    g_assert_cmphex(rd8(m, m->buf + 16), ==, 0x01);
    /* a short request: the protocol refuses it */
    mgmt_envelope(m, 0x474d524d, 0x01010000, 8);
    g_assert_cmphex(dcmd(m, 73, MGMT_DCMD, 12, m->buf, 4096), ==, 0);
    g_assert_cmphex(rd8(m, m->buf + 16), ==, 0x01);
    /* unusable buffers: MFI INVALID PARAMETER, nothing written */
    mgmt_envelope(m, 0x474d524d, 0x01010000, 9);
    g_assert_cmphex(dcmd(m, 74, MGMT_DCMD, 0, m->buf, 4096), ==, 0x03);
    g_assert_cmphex(dcmd(m, 75, MGMT_DCMD, 40, m->buf, 16), ==, 0x03);
    g_assert_cmphex(dcmd(m, 76, MGMT_DCMD, 200, m->buf, 100), ==, 0x03);
    g_assert_cmphex(dcmd(m, 77, MGMT_DCMD, 40, 0xFFFFFFFF0000ull, 4096),
                    ==, 0x03);
    g_assert_cmphex(dcmd(m, 78, MGMT_DCMD, 40, m->buf, 0), ==, 0x03);
    g_assert_cmphex(qtest_readl(m->qts, m->buf), ==, 0x474d524d);
    /* still answering */
    g_assert_cmphex(dcmd(m, 79, 0x01010000, 1, m->buf, 2384), ==, 0);
    stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/ready", test_ready);
    qtest_add_func("/megaraid-9500/ioc-init", test_init);
    qtest_add_func("/megaraid-9500/dcmd", test_dcmd);
    qtest_add_func("/megaraid-9500/timing", test_timing);
    qtest_add_func("/megaraid-9500/hostile", test_hostile);
    qtest_add_func("/megaraid-9500/diag-reset", test_diag_reset);
    qtest_add_func("/megaraid-9500/passthru", test_passthru);
    qtest_add_func("/megaraid-9500/fuzz", test_fuzz);
    qtest_add_func("/megaraid-9500/msix", test_msix);
    qtest_add_func("/megaraid-9500/mgmt", test_mgmt);
    return g_test_run();
}
