/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the megaraid-9500 Fusion host interface (the
 * megaraid_sas side of issue 12): the firmware state machine to READY,
 * the MFA-posted IOC INIT (also twice, with garbage, after a doorbell
 * abort), controller info and the PD list through MFI pass-through DCMDs,
 * a WRITE and READ of a JBOD drive through a fast-path frame with the data
 * compared (also on the drive's image), task management (ABORT TASK and
 * TARGET RESET of reads held by the drive's "unresponsive" fault, hostile
 * TM frames), and hostile input (bad SGL
 * addresses, SMIDs out of range, unknown functions and MFI commands) that
 * must leave QEMU alive and answering.  With a RAID 1 configuration the
 * RAID core writes on the images (as megaraid-img does): the VD as LD
 * target 0 in the LD lists, LD info and the controller's LD counts, its
 * members gone from the PD list, WRITE/READ through LD I/O frames
 * (Function 0xF1), READ CAPACITY through MFI LD_SCSI_IO, a member
 * failed through QOM (degraded, LD STATE CHANGE event), the second
 * (offline: no longer exposed, LD I/O answers LD OFFLINE); on the same
 * rig the RAID map (header, tables, the LD's span map), its pended sync
 * (held, completed by a member failure, stale, aborted) and hostile map
 * requests.  Hot plug and pull as PD events through the held EVENT_WAIT,
 * MFI PD_SCSI_IO pass-through, and a seeded random hostile-traffic run
 * (fuzz) that QEMU must survive.  Offsets are written here from the
 * interface description, not taken from the device's header, so that both
 * sides are checked.
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci-pc.h"
#include "qemu/bswap.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"

/*
 * The RAID core's configuration and DDF code (what megaraid-img links),
 * to write a configuration onto the images; config.c and ddf-config.c
 * each have a static level_spanned().
 */
#include "../../hw/raid/geometry.c"
#include "../../hw/raid/config.c"
#include "../../hw/raid/config-state.c"
#include "../../hw/raid/ddf-crc.c"
#include "../../hw/raid/ddf-meta.c"
#include "../../hw/raid/ddf-encode.c"
#include "../../hw/raid/ddf-decode.c"
#define level_spanned ddf_config_level_spanned
#include "../../hw/raid/ddf-config.c"
#undef level_spanned
#include "../../hw/raid/ddf-drive.c"
#include "../../hw/raid/ddf-io.c"

#define DEVFN           0x20
#define MAX_CMDS        64
#define MAX_SMID        (2 * (MAX_CMDS - 1))
#define DEPTH           128
#define DISK_BLOCKS     2048

#define R_DOORBELL      0x000
#define R_MASK          0x034
#define R_HOST_INDEX    0x06C
#define R_SP0           0x0B0
#define R_SP1           0x0B4
#define R_REQ_LO        0x0C0
#define R_REQ_HI        0x0C4
#define R_REQ_ATOMIC    0x0C8

typedef struct MR {
    QOSState *qs;
    QTestState *qts;
    QPCIDevice *dev;
    QPCIBar bar;
    char *img[2];
    uint64_t frames;            /* SMID n at frames + 256 n */
    uint64_t replies;
    uint64_t init;              /* MFI INIT frame, IOC INIT at +0x100 */
    uint64_t mfi;               /* one MFI frame */
    uint64_t sense;
    uint64_t buf;               /* 64 KiB */
    uint32_t ci[2];             /* consumer index per reply queue */
} MR;

static uint32_t rd(MR *m, uint32_t off)
{
    return qpci_io_readl(m->dev, m->bar, off);
}

static void wr(MR *m, uint32_t off, uint32_t val)
{
    qpci_io_writel(m->dev, m->bar, off, val);
}

static uint64_t alloc(MR *m, size_t size)
{
    uint64_t a = guest_alloc(&m->qs->alloc, size);

    g_assert(a);
    qtest_memset(m->qts, a, 0, size);
    return a;
}

static char *make_img(void)
{
    char *path;
    int fd = g_file_open_tmp("megaraid-9500-XXXXXX", &path, NULL);

    g_assert(fd >= 0);
    g_assert(ftruncate(fd, DISK_BLOCKS * 512) == 0);
    close(fd);
    return path;
}

/* Firmware search path when the build tree has no pc-bios/ copy. */
static const char *fw_args(void)
{
    if (g_file_test("pc-bios/bios-256k.bin", G_FILE_TEST_EXISTS) ||
        !g_file_test("/usr/share/seabios/bios-256k.bin", G_FILE_TEST_EXISTS)) {
        return "";
    }
    return "-L /usr/share/seabios -L /usr/share/qemu ";
}

/*
 * Drive hd0 in slot 0 (@drive0: its interface and identity) and a SATA
 * drive in slot 3 (PD 3); @opts are more controller properties
 * (",name=value...").
 */
static MR *start_full(const char *opts, const char *drive0)
{
    MR *m = g_new0(MR, 1);

    m->img[0] = make_img();
    m->img[1] = make_img();
    m->qs = qtest_pc_boot("%s-machine q35 -nodefaults "
        "-device megaraid-9500,id=raid0,addr=04.0,max-cmds=%d,queues=2%s "
        "-drive if=none,id=d0,format=raw,file=%s "
        "-drive if=none,id=d1,format=raw,file=%s "
        "-device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,%s "
        "-device megaraid-drive,bus=raid0.0,slot=3,drive=d1,interface=sata,"
        "model=Q95SATA,serial=Q95A0", fw_args(), MAX_CMDS, opts, m->img[0],
        m->img[1], drive0);
    m->qts = m->qs->qts;
    m->dev = qpci_device_find(m->qs->pcibus, DEVFN);
    g_assert(m->dev);
    qpci_device_enable(m->dev);
    m->bar = qpci_iomap(m->dev, 0, NULL);
    m->frames = alloc(m, (MAX_SMID + 1) * 256);
    m->replies = alloc(m, 2 * DEPTH * 8);
    m->init = alloc(m, 4096);
    m->mfi = alloc(m, 256);
    m->sense = alloc(m, 256);
    m->buf = alloc(m, 64 * 1024);
    return m;
}

/* SAS drive in slot 0 (PD 0) and SATA drive in slot 3 (PD 3). */
static MR *start_with(const char *opts)
{
    return start_full(opts, "interface=sas,vendor=SEAGATE,model=Q95SAS,"
                      "serial=Q95S0");
}

static MR *start(void)
{
    return start_with("");
}

static void stop(MR *m)
{
    qtest_shutdown(m->qs);
    for (int i = 0; i < 2; i++) {
        unlink(m->img[i]);
        g_free(m->img[i]);
    }
    g_free(m->dev);
    g_free(m);
}

static uint8_t rd8(MR *m, uint64_t a)
{
    return qtest_readb(m->qts, a);
}

/* Post the MFI INIT frame; returns its status byte (0xFF: no answer). */
static uint8_t ioc_init_raw(MR *m, uint8_t function, uint8_t vectors)
{
    uint8_t f[64] = { 0 }, ii[72] = { 0 };
    uint64_t iia = m->init + 0x100;

    qtest_memset(m->qts, m->replies, 0xFF, 2 * DEPTH * 8);
    m->ci[0] = m->ci[1] = 0;
    ii[0] = 0x04;
    ii[3] = function;
    stw_le_p(ii + 0x0C, 0x0200);
    stw_le_p(ii + 0x0E, 0x1000);
    ii[0x16] = 12;
    ii[0x17] = vectors;
    stw_le_p(ii + 0x1A, 64);
    stw_le_p(ii + 0x1C, DEPTH);
    stq_le_p(ii + 0x28, m->frames);
    stq_le_p(ii + 0x30, m->replies);
    qtest_memwrite(m->qts, iia, ii, sizeof(ii));
    f[0] = 0x00;
    f[2] = 0xFF;
    stw_le_p(f + 0x10, 1);
    stl_le_p(f + 0x14, sizeof(ii));
    stq_le_p(f + 0x18, iia);
    qtest_memwrite(m->qts, m->init, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)m->init | 0x02);
    wr(m, R_REQ_HI, m->init >> 32);
    return rd8(m, m->init + 2);
}

static void ioc_init(MR *m)
{
    g_assert_cmphex(ioc_init_raw(m, 0x02, 2), ==, 0x00);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xC);
}

/* Wait for the next reply descriptor on queue @q; returns its SMID. */
static uint16_t reply(MR *m, uint32_t q)
{
    uint64_t a = m->replies + ((uint64_t)q * DEPTH + m->ci[q]) * 8;
    uint64_t d = qtest_readq(m->qts, a);

    /* I/O completes in QEMU's main loop: give it up to 5 s */
    for (int i = 0; d == UINT64_MAX && i < 5000; i++) {
        g_usleep(1000);
        d = qtest_readq(m->qts, a);
    }
    g_assert_cmphex(d, !=, UINT64_MAX);
    g_assert_cmpuint(d >> 8 & 0xFF, ==, q);
    qtest_writeq(m->qts, a, UINT64_MAX);
    m->ci[q] = (m->ci[q] + 1) % DEPTH;
    wr(m, R_HOST_INDEX, q << 24 | m->ci[q]);
    return d >> 16 & 0xFFFF;
}

static bool no_reply(MR *m, uint32_t q)
{
    uint64_t a = m->replies + ((uint64_t)q * DEPTH + m->ci[q]) * 8;

    return qtest_readq(m->qts, a) == UINT64_MAX;
}

/* A DCMD through the MPT pass-through at @smid; returns the MFI status. */
static uint8_t dcmd_mbox(MR *m, uint16_t smid, uint32_t opcode,
                         const uint8_t *mbox, uint64_t data, uint32_t len)
{
    uint8_t f[256] = { 0 }, mpt[256] = { 0 };

    f[0] = 0x05;
    f[2] = 0xFF;
    f[7] = len ? 1 : 0;
    stw_le_p(f + 0x10, 0x0002 | 0x0010);
    stl_le_p(f + 0x14, len);
    stl_le_p(f + 0x18, opcode);
    memcpy(f + 0x1C, mbox, 12);
    stq_le_p(f + 0x28, data);
    stl_le_p(f + 0x30, len);
    qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
    mpt[3] = 0xF0;
    mpt[2] = 0x08;
    mpt[0x14] = 0x20;
    stq_le_p(mpt + 0x80, m->mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, (uint32_t)smid << 16);
    g_assert_cmpuint(reply(m, 0), ==, smid);
    return rd8(m, m->mfi + 2);
}

static uint8_t dcmd(MR *m, uint16_t smid, uint32_t opcode, uint8_t mb0,
                    uint64_t data, uint32_t len)
{
    uint8_t mbox[12] = { mb0 };

    return dcmd_mbox(m, smid, opcode, mbox, data, len);
}

/*
 * DEV_GET_TARGET_PROP of JBOD (@ld false) or LD target @tgt: its MFI
 * status, the queue depth, block size and maximum I/O size (KiB) into
 * *@qd, *@bs and *@kb.
 */
static uint8_t target_prop(MR *m, bool ld, uint16_t tgt, uint32_t *qd,
                           uint32_t *bs, uint32_t *kb)
{
    uint8_t mbox[12] = { ld };
    uint8_t st;

    stw_le_p(mbox + 2, tgt);
    qtest_memset(m->qts, m->buf, 0xAA, 512);
    st = dcmd_mbox(m, 75, 0x0200E103, mbox, m->buf, 512);
    *kb = qtest_readl(m->qts, m->buf);
    *qd = qtest_readl(m->qts, m->buf + 4);
    *bs = qtest_readl(m->qts, m->buf + 8);
    if (st == 0) {
        /* no reset timeout: the driver keeps its own */
        g_assert_cmpuint(rd8(m, m->buf + 12), ==, 0);
    }
    return st;
}

/* Post a JBOD READ(10)/WRITE(10) fast-path frame. */
static void jbod_post(MR *m, uint16_t smid, uint8_t q, uint16_t pd,
                      bool write, uint32_t lba, uint16_t blocks,
                      uint64_t data)
{
    uint8_t f[256] = { 0 };
    uint32_t len = blocks * 512;

    stw_le_p(f, 0xFFFF);
    f[3] = 0x00;
    stl_le_p(f + 0x0C, (uint32_t)m->sense);
    stw_le_p(f + 0x10, 2);
    f[0x12] = 96;
    f[0x14] = 0x20;
    stl_le_p(f + 0x1C, len);
    stw_le_p(f + 0x24, 10 | 0x4000);
    stl_le_p(f + 0x3C, write ? 1u << 24 : 1u << 25);
    f[0x40] = write ? 0x2A : 0x28;
    stl_be_p(f + 0x42, lba);
    stw_be_p(f + 0x47, blocks);
    stw_le_p(f + 0x66, pd);
    f[0x77] = 0xFF;
    f[0x78] = 0x10;
    stq_le_p(f + 0x80, data);
    stl_le_p(f + 0x88, len);
    f[0x8F] = 0x40;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | (uint32_t)q << 8 | 0x0C);
    wr(m, R_REQ_HI, 0xFFFF0000);
}

/* A JBOD READ(10)/WRITE(10) fast-path frame; returns the RAID status. */
static uint8_t jbod_rw(MR *m, uint16_t smid, uint8_t q, uint16_t pd,
                       bool write, uint32_t lba, uint16_t blocks,
                       uint64_t data)
{
    jbod_post(m, smid, q, pd, write, lba, blocks, data);
    g_assert_cmpuint(reply(m, q), ==, smid);
    return rd8(m, m->frames + smid * 256ull + 0x77);
}

/* MPI2 task management as megaraid_sas sends it (MR_TASK_MANAGE_REQUEST) */
#define TM_ABORT_TASK   0x01
#define TM_TARGET_RESET 0x03
#define TM_FOR_LD       0x1
#define TM_FOR_PD       0x2

/*
 * Post a TM frame at @smid (high priority descriptor): device handle,
 * task type, TaskMID, then the flags word at 0x80 (JBOD or LD handle).
 */
static void tm_post(MR *m, uint16_t smid, uint16_t handle, uint8_t type,
                    uint16_t mid, uint32_t flags)
{
    uint8_t f[256] = { 0 };

    stw_le_p(f, handle);
    f[3] = 0x01;
    f[5] = type;
    stw_le_p(f + 0x30, mid);
    stl_le_p(f + 0x80, flags);
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | 0x03 << 1);
    wr(m, R_REQ_HI, 0);
}

/*
 * The TM at @smid's reply (already consumed from queue 0), written over
 * its flags word: checks handle, function and type; returns IOCStatus,
 * response code and TerminationCount.
 */
static void tm_result(MR *m, uint16_t smid, uint16_t handle, uint8_t type,
                      uint16_t *ioc, uint8_t *rsp, uint32_t *count)
{
    uint64_t r = m->frames + smid * 256ull + 0x80;

    g_assert_cmphex(qtest_readw(m->qts, r), ==, handle);
    g_assert_cmphex(rd8(m, r + 3), ==, 0x01);
    g_assert_cmphex(rd8(m, r + 5), ==, type);
    *ioc = qtest_readw(m->qts, r + 0x0E);
    *rsp = rd8(m, r + 4);
    *count = qtest_readl(m->qts, r + 0x14);
}

/*
 * The next reply on queue 0 is the TM at @smid, with IOCStatus @want_ioc,
 * response code @want_rsp and TerminationCount @want_count.
 */
static void tm_expect(MR *m, uint16_t smid, uint16_t handle, uint8_t type,
                      uint16_t want_ioc, uint8_t want_rsp,
                      uint32_t want_count)
{
    uint16_t ioc;
    uint8_t rsp;
    uint32_t count;

    g_assert_cmpuint(reply(m, 0), ==, smid);
    tm_result(m, smid, handle, type, &ioc, &rsp, &count);
    g_assert_cmphex(ioc, ==, want_ioc);
    g_assert_cmphex(rsp, ==, want_rsp);
    g_assert_cmpuint(count, ==, want_count);
}

/* A TM that ends nothing: its reply is the next one on queue 0. */
static void tm_check(MR *m, uint16_t smid, uint16_t handle, uint8_t type,
                     uint16_t mid, uint32_t flags, uint16_t want_ioc,
                     uint8_t want_rsp)
{
    tm_post(m, smid, handle, type, mid, flags);
    tm_expect(m, smid, handle, type, want_ioc, want_rsp, 0);
}

/* The next reply on queue @q is SCSI I/O @smid, ended by a TM. */
static void tm_victim(MR *m, uint32_t q, uint16_t smid)
{
    g_assert_cmpuint(reply(m, q), ==, smid);
    g_assert_cmphex(rd8(m, m->frames + smid * 256ull + 0x77), ==, 0x2E);
    g_assert_cmphex(rd8(m, m->frames + smid * 256ull + 0x76), ==, 0x02);
}

/* QOM bool @prop of the drive with id @id. */
static void drive_set(MR *m, const char *id, const char *prop, bool on)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                         "'path': %s, 'property': %s, 'value': %i}}",
                         path, prop, on);

    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

static QDict *qom(MR *m, const char *cmd, const char *prop, const char *val)
{
    if (val) {
        return qtest_qmp(m->qts, "{'execute': %s, 'arguments': {"
                         "'path': '/machine/peripheral/raid0', "
                         "'property': %s, 'value': %s}}", cmd, prop, val);
    }
    return qtest_qmp(m->qts, "{'execute': %s, 'arguments': {"
                     "'path': '/machine/peripheral/raid0', "
                     "'property': %s}}", cmd, prop);
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

static void test_io(void)
{
    MR *m = start();
    g_autofree uint8_t *out = g_malloc(8192);
    g_autofree uint8_t *in = g_malloc(8192);
    g_autofree uint8_t *file = g_malloc(8192);
    FILE *fp;

    ioc_init(m);
    for (int i = 0; i < 8192; i++) {
        out[i] = i * 7 + (i >> 9);
    }
    qtest_memwrite(m->qts, m->buf, out, 8192);
    g_assert_cmphex(jbod_rw(m, 1, 1, 0, true, 100, 16, m->buf), ==, 0);
    qtest_memset(m->qts, m->buf + 16384, 0, 8192);
    g_assert_cmphex(jbod_rw(m, 2, 0, 0, false, 100, 16, m->buf + 16384),
                    ==, 0);
    qtest_memread(m->qts, m->buf + 16384, in, 8192);
    g_assert(memcmp(in, out, 8192) == 0);
    /* flush, then the drive's image holds it */
    g_assert_cmphex(dcmd(m, 64, 0x01101000, 3, 0, 0), ==, 0);
    fp = fopen(m->img[0], "rb");
    g_assert(fp);
    g_assert(fseek(fp, 100 * 512, SEEK_SET) == 0);
    g_assert_cmpuint(fread(file, 1, 8192, fp), ==, 8192);
    fclose(fp);
    g_assert(memcmp(file, out, 8192) == 0);
    /* absent PD: DEVICE NOT FOUND */
    g_assert_cmphex(jbod_rw(m, 3, 0, 7, false, 0, 1, m->buf), ==, 0x0C);
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

/* Post a DCMD without waiting for its reply (one that is held). */
static void dcmd_post(MR *m, uint16_t smid, uint64_t mfi, uint32_t opcode,
                      uint32_t w0, uint32_t w1, uint64_t data, uint32_t len)
{
    uint8_t f[256] = { 0 }, mpt[256] = { 0 };

    f[0] = 0x05;
    f[2] = 0xFF;
    f[7] = 1;
    stw_le_p(f + 0x10, 0x0002 | 0x0010);
    stl_le_p(f + 0x14, len);
    stl_le_p(f + 0x18, opcode);
    stl_le_p(f + 0x1C, w0);
    stl_le_p(f + 0x20, w1);
    stq_le_p(f + 0x28, data);
    stl_le_p(f + 0x30, len);
    qtest_memwrite(m->qts, mfi, f, sizeof(f));
    mpt[3] = 0xF0;
    stq_le_p(mpt + 0x80, mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, (uint32_t)smid << 16);
}

static void test_events(void)
{
    MR *m = start();
    uint64_t wait_mfi = alloc(m, 256), evt = alloc(m, 256);
    uint64_t abort_mfi = alloc(m, 256);
    uint8_t f[256] = { 0 }, mpt[256] = { 0 };
    uint32_t newest;
    char desc[64];
    QDict *r;

    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01040100, 0, m->buf, 20), ==, 0);
    newest = qtest_readl(m->qts, m->buf);

    /* EVENT_WAIT for newest + 1, all classes from debug: held */
    dcmd_post(m, 70, wait_mfi, 0x01040500, newest + 1, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0xFF);

    /* a drive hot plugged into slot 9: PD_INSERTED completes the wait */
    r = qtest_qmp(m->qts, "{'execute': 'blockdev-add', 'arguments': {"
                  "'driver': 'null-co', 'node-name': 'hp', "
                  "'size': 1048576}}");
    g_assert(!qdict_haskey(r, "error"));
    qobject_unref(r);
    r = qtest_qmp(m->qts, "{'execute': 'device_add', 'arguments': {"
                  "'driver': 'megaraid-drive', 'id': 'hpd', "
                  "'bus': 'raid0.0', 'slot': 9, 'drive': 'hp', "
                  "'interface': 'sas'}}");
    g_assert(!qdict_haskey(r, "error"));
    qobject_unref(r);
    g_assert_cmpuint(reply(m, 0), ==, 70);
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, evt), ==, newest + 1);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x005B);
    g_assert_cmpuint(qtest_readw(m->qts, evt + 0x20), ==, 9);
    qtest_memread(m->qts, evt + 0x80, desc, sizeof(desc));
    desc[sizeof(desc) - 1] = 0;
    g_assert(strstr(desc, "Inserted"));
    g_assert_cmphex(dcmd(m, 64, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 3);

    /* the next wait is held; ABORT completes it with NOT_FOUND first */
    dcmd_post(m, 71, wait_mfi, 0x01040500, newest + 2, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    f[0] = 0x06;
    f[2] = 0xFF;
    stq_le_p(f + 0x20, wait_mfi);
    qtest_memwrite(m->qts, abort_mfi, f, sizeof(f));
    mpt[3] = 0xF0;
    stq_le_p(mpt + 0x80, abort_mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + 72 * 256, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, 72u << 16);
    g_assert_cmpuint(reply(m, 0), ==, 71);
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0x23);
    g_assert_cmpuint(reply(m, 0), ==, 72);
    g_assert_cmphex(rd8(m, abort_mfi + 2), ==, 0);

    /* a wait for an event already logged completes at once */
    dcmd_post(m, 73, wait_mfi, 0x01040500, newest + 1, 0xFE00FFFF, evt, 256);
    g_assert_cmpuint(reply(m, 0), ==, 73);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x005B);

    /* a cold-plugged drive pulled: PD_REMOVED */
    dcmd_post(m, 74, wait_mfi, 0x01040500, newest + 2, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    qtest_qmp_device_del_send(m->qts, "hd0");
    g_assert_cmpuint(reply(m, 0), ==, 74);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x0070);
    g_assert_cmpuint(qtest_readw(m->qts, evt + 0x20), ==, 0);
    g_assert_cmphex(dcmd(m, 64, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 2);
    stop(m);
}

static void test_passthru(void)
{
    MR *m = start();
    uint8_t f[256] = { 0 }, mpt[256] = { 0 };
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
    mpt[3] = 0xF0;
    stq_le_p(mpt + 0x80, m->mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + 64 * 256, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, 64u << 16);
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

/*
 * Task management: a read held by the drive's "unresponsive" fault is
 * aborted by ABORT TASK (its reply, TASK ABORTED, first; the TM's, TM
 * COMPLETE with a TerminationCount of 1, only once the host has consumed
 * the victim's); TARGET RESET ends every
 * held command of the drive; then the drive answers again.  Hostile TMs:
 * TaskMID 0 or outside the pool, a task not outstanding or another
 * device's, an absent device handle, an LD that does not exist, neither
 * or both handle kinds, unknown task types: each gets its status at once
 * and ends nothing.
 */
static void test_tm(void)
{
    MR *m = start();

    ioc_init(m);
    drive_set(m, "hd0", "unresponsive", true);

    /* ABORT TASK of a held read: the victim's reply, then the TM's */
    jbod_post(m, 1, 0, 0, false, 0, 8, m->buf);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    /* another device's handle (PD 3) does not name it */
    tm_check(m, 100, 3, TM_ABORT_TASK, 1, TM_FOR_PD, 0, 0);
    g_assert(no_reply(m, 0));
    tm_post(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_PD);
    /* the TM's reply waits until the host has consumed the victim's */
    g_usleep(50 * 1000);
    g_assert(!no_reply(m, 0));
    g_assert_cmphex(qtest_readq(m->qts, m->replies + (m->ci[0] + 1) * 8), ==,
                    UINT64_MAX);
    tm_victim(m, 0, 1);
    tm_expect(m, 101, 0, TM_ABORT_TASK, 0, 0, 1);
    g_assert(no_reply(m, 0));
    /* again: no longer outstanding, TM COMPLETE ending nothing */
    tm_check(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_PD, 0, 0);

    /* TARGET RESET: both held reads of PD 0 end, PD 3 is not touched */
    jbod_post(m, 2, 0, 0, false, 8, 8, m->buf);
    jbod_post(m, 3, 1, 0, true, 16, 8, m->buf + 8192);
    g_assert_cmphex(jbod_rw(m, 4, 1, 3, false, 0, 8, m->buf + 16384), ==, 0);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    g_assert(no_reply(m, 1));
    tm_post(m, 102, 0, TM_TARGET_RESET, 0, TM_FOR_PD);
    tm_victim(m, 0, 2);
    tm_victim(m, 1, 3);
    tm_expect(m, 102, 0, TM_TARGET_RESET, 0, 0, 2);

    /* hostile TMs, with a read held on PD 0 that none may end */
    jbod_post(m, 5, 1, 0, false, 24, 8, m->buf);
    g_usleep(50 * 1000);
    /* TaskMID 0, beyond the pool: INVALID_FIELD, INVALID FRAME */
    tm_check(m, 103, 0, TM_ABORT_TASK, 0, TM_FOR_PD, 0x0004, 0x02);
    tm_check(m, 103, 0, TM_ABORT_TASK, MAX_SMID + 1, TM_FOR_PD, 0x0004,
             0x02);
    tm_check(m, 103, 0, TM_ABORT_TASK, 0xFFFF, TM_FOR_PD, 0x0004, 0x02);
    /* its own SMID, an idle one: not outstanding */
    tm_check(m, 103, 0, TM_ABORT_TASK, 103, TM_FOR_PD, 0, 0);
    tm_check(m, 103, 0, TM_ABORT_TASK, MAX_SMID, TM_FOR_PD, 0, 0);
    /* absent PD 7, PD 0xFFFF, LD 0 and 200 (no VD): INVALID_DEVHANDLE */
    tm_check(m, 104, 7, TM_TARGET_RESET, 0, TM_FOR_PD, 0x0042, 0x02);
    tm_check(m, 104, 0xFFFF, TM_ABORT_TASK, 5, TM_FOR_PD, 0x0042, 0x02);
    tm_check(m, 104, 0, TM_TARGET_RESET, 0, TM_FOR_LD, 0x0042, 0x02);
    tm_check(m, 104, 200, TM_ABORT_TASK, 5, TM_FOR_LD, 0x0042, 0x02);
    /* neither or both kinds of handle: INVALID_FIELD */
    tm_check(m, 105, 0, TM_TARGET_RESET, 0, 0, 0x0004, 0x02);
    tm_check(m, 105, 0, TM_TARGET_RESET, 0, 3, 0x0004, 0x02);
    /* QUERY TASK, CLEAR ACA, 0, 0xFF: TM NOT SUPPORTED */
    tm_check(m, 106, 0, 0x07, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0x08, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0x00, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0xFF, 5, TM_FOR_PD, 0, 0x04);
    g_assert(no_reply(m, 1));

    /* answering again: the held read completes, new I/O works */
    drive_set(m, "hd0", "unresponsive", false);
    g_assert_cmpuint(reply(m, 1), ==, 5);
    g_assert_cmphex(rd8(m, m->frames + 5 * 256 + 0x77), ==, 0);
    g_assert_cmphex(jbod_rw(m, 6, 0, 0, false, 0, 8, m->buf), ==, 0);
    g_assert_cmphex(jbod_rw(m, 1, 1, 0, true, 32, 8, m->buf), ==, 0);
    stop(m);
}

/*
 * A fast path frame to PD @pd with its data as an NVMe PRP list, as
 * megaraid_sas builds it for more than four pages to an NVMe drive: the
 * first PRP (@first, @first_len) in the first IEEE element, a PRP chain
 * element (@list, @list_len bytes) in the second; the RAID status.
 */
static uint8_t prp_rw(MR *m, uint16_t smid, uint16_t pd, bool write,
                      uint32_t lba, uint16_t blocks, uint64_t first,
                      uint32_t first_len, uint64_t list, uint32_t list_len)
{
    uint8_t f[256];

    jbod_post(m, smid, 1, pd, write, lba, 0, 0);
    g_assert_cmpuint(reply(m, 1), ==, smid);
    /* the same frame again, now with the data and its PRPs */
    qtest_memread(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    stl_le_p(f + 0x1C, blocks * 512);
    stw_be_p(f + 0x47, blocks);
    f[0x77] = 0xFF;
    memset(f + 0x80, 0, 0x20);
    stq_le_p(f + 0x80, first);
    stl_le_p(f + 0x88, first_len);
    stq_le_p(f + 0x90, list);
    stl_le_p(f + 0x98, list_len);
    f[0x9F] = 0x88;                     /* chain element, NSF NVMe PRP */
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | 1u << 8 | 0x0C);
    wr(m, R_REQ_HI, 0xFFFF0000);
    g_assert_cmpuint(reply(m, 1), ==, smid);
    return rd8(m, m->frames + smid * 256ull + 0x77);
}

/*
 * An NVMe JBOD (slot 0, PD id 240): the PD info says NVMe, the target
 * properties give queue depth 128 and a maximum I/O size; a 24 KiB write
 * as a PRP list (first PRP at a page offset, the list crossing a page
 * through a pointer entry in a page's last slot) reads back through an
 * IEEE SGL and through another PRP list; malformed PRP lists are refused
 * with INVALID PARAMETER: an entry off a page boundary, a list outside
 * RAM or of a length that is no multiple of 8, a first PRP crossing its
 * page, a pointer entry that points at itself.
 */
static void test_prp(void)
{
    MR *m = start_full("", "interface=nvme,model=Q95NVME,serial=Q95N0");
    g_autofree uint8_t *out = g_malloc(24576);
    g_autofree uint8_t *in = g_malloc(24576);
    uint64_t base = (alloc(m, 15 * 4096) + 4095) & ~4095ull;
    uint64_t data = base, list = base + 8 * 4096, list2 = base + 10 * 4096;
    uint64_t rdata = base + 11 * 4096;
    uint32_t qd, bs, kb;

    ioc_init(m);
    g_assert_cmphex(dcmd(m, 70, 0x02020000, 240, m->buf, 512), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 0xBC) >> 12, ==, 5);
    g_assert_cmphex(target_prop(m, false, 240, &qd, &bs, &kb), ==, 0);
    g_assert_cmpuint(qd, ==, 128);
    g_assert_cmpuint(kb, ==, 1024);

    /* data: 3584 bytes at data + 512, then pages data + 4096 * (1..6) */
    for (int i = 0; i < 24576; i++) {
        out[i] = i * 11 + i / 4096;
    }
    qtest_memwrite(m->qts, data + 512, out, 3584);
    for (int p = 0; p < 6; p++) {
        qtest_memwrite(m->qts, data + (p + 1) * 4096ull, out + 3584 + p * 4096,
                       MIN(4096, 24576 - 3584 - p * 4096));
    }
    /* the list: one entry, then a page's last slot pointing at list2 */
    qtest_writeq(m->qts, list + 4096 - 16, data + 4096);
    qtest_writeq(m->qts, list + 4096 - 8, list2);
    for (int p = 1; p < 6; p++) {
        qtest_writeq(m->qts, list2 + (p - 1) * 8, data + (p + 1) * 4096ull);
    }
    g_assert_cmphex(prp_rw(m, 1, 240, true, 16, 48, data + 512, 3584,
                           list + 4096 - 16, 7 * 8), ==, 0);
    qtest_memset(m->qts, m->buf, 0, 24576);
    g_assert_cmphex(jbod_rw(m, 2, 1, 240, false, 16, 48, m->buf), ==, 0);
    qtest_memread(m->qts, m->buf, in, 24576);
    g_assert_cmpmem(in, 24576, out, 24576);
    /* read back through a plain list: first PRP a whole page */
    for (int p = 0; p < 5; p++) {
        qtest_writeq(m->qts, list + p * 8, rdata + (p + 1) * 4096ull);
    }
    g_assert_cmphex(prp_rw(m, 3, 240, false, 16, 48, rdata, 4096, list,
                           5 * 8), ==, 0);
    qtest_memread(m->qts, rdata, in, 24576);
    g_assert_cmpmem(in, 24576, out, 24576);

    /* malformed lists */
    qtest_writeq(m->qts, list + 8, rdata + 2 * 4096 + 8);
    g_assert_cmphex(prp_rw(m, 4, 240, false, 16, 48, rdata, 4096, list,
                           5 * 8), ==, 0x03);
    qtest_writeq(m->qts, list + 8, rdata + 2 * 4096);
    g_assert_cmphex(prp_rw(m, 4, 240, false, 16, 48, rdata, 4096,
                           0xF00000000000ull, 5 * 8), ==, 0x03);
    g_assert_cmphex(prp_rw(m, 4, 240, false, 16, 48, rdata, 4096, list,
                           5 * 8 + 4), ==, 0x03);
    g_assert_cmphex(prp_rw(m, 4, 240, false, 16, 48, rdata + 512, 4096,
                           list, 5 * 8), ==, 0x03);
    qtest_writeq(m->qts, list + 4096 - 8, list + 4096 - 8);
    g_assert_cmphex(prp_rw(m, 4, 240, false, 16, 48, data + 512, 3584,
                           list + 4096 - 16, 512 * 8), ==, 0x03);
    /* still answering */
    g_assert_cmphex(jbod_rw(m, 5, 1, 240, false, 16, 8, m->buf), ==, 0);
    stop(m);
}

/* ---- a RAID 1 VD ---- */

#define VD_DRIVE_BYTES  (16 * 1024 * 1024)

/* RAID 1 DDF on images 0 and 1 (slots 0, 1); image 2 stays blank. */
static uint64_t write_raid1(char **path)
{
    uint8_t guid[RAID_GUID_LEN];
    RaidVdSpec spec = { .level = RAID_LEVEL_1, .strip = 128, .name = "q95vd",
                        .cache = RAID_CACHE_READ_ALLOWED };
    int members[2] = { 0, 1 };
    GError *err = NULL;
    RaidConfig *cfg;
    uint64_t sectors;

    memcpy(guid, "LSI     MRSIM95000000001", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     Q95HDR00", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    for (int i = 0; i < 3; i++) {
        int fd = open(path[i], O_RDWR | O_CREAT | O_TRUNC, 0600);

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, VD_DRIVE_BYTES) == 0);
        close(fd);
        if (i < 2) {
            memcpy(guid, "LSI     Q95PD000", 16);
            stl_be_p(guid + 16, g_random_int());
            stl_be_p(guid + 20, i);
            g_assert_cmpint(raid_config_add_pd(cfg, guid, i,
                                               VD_DRIVE_BYTES / 512, &err),
                            ==, i);
            g_assert_no_error(err);
            cfg->pds[i].path = g_strdup(path[i]);
        }
    }
    g_assert_cmpint(raid_config_create_vd(cfg, members, 2, &spec, &err), ==,
                    0);
    g_assert_no_error(err);
    cfg->vds[0].initialized = true;
    cfg->vds[0].consistent = true;
    cfg->vds[0].job.kind = RAID_JOB_NONE;
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    sectors = cfg->vds[0].size;
    raid_config_free(cfg);
    return sectors;
}

static MR *start_vd(char **path, const char *opts)
{
    MR *m = g_new0(MR, 1);

    m->qs = qtest_pc_boot("%s-machine q35 -nodefaults "
        "-device megaraid-9500,id=raid0,addr=04.0,max-cmds=%d,queues=2,"
        "import-foreign=on%s "
        "-drive if=none,id=d0,format=raw,file=%s "
        "-drive if=none,id=d1,format=raw,file=%s "
        "-drive if=none,id=d2,format=raw,file=%s "
        "-device megaraid-drive,id=m0,bus=raid0.0,slot=0,drive=d0,interface=sas "
        "-device megaraid-drive,id=m1,bus=raid0.0,slot=1,drive=d1,interface=sas "
        "-device megaraid-drive,id=j2,bus=raid0.0,slot=2,drive=d2,interface=sas",
        fw_args(), MAX_CMDS, opts, path[0], path[1], path[2]);
    m->qts = m->qs->qts;
    m->dev = qpci_device_find(m->qs->pcibus, DEVFN);
    g_assert(m->dev);
    qpci_device_enable(m->dev);
    m->bar = qpci_iomap(m->dev, 0, NULL);
    m->frames = alloc(m, (MAX_SMID + 1) * 256);
    m->replies = alloc(m, 2 * DEPTH * 8);
    m->init = alloc(m, 4096);
    m->mfi = alloc(m, 256);
    m->sense = alloc(m, 256);
    m->buf = alloc(m, 64 * 1024);
    return m;
}

/*
 * The RAID 1 rig: three images (@tag in their names, their paths into
 * @path), the RAID core's DDF of a RAID 1 on the first two (its size in
 * *@sectors), QEMU started on them (@opts: more controller properties).
 */
static MR *vd_rig_opts(const char *tag, char **path, uint64_t *sectors,
                       const char *opts)
{
    g_autofree char *tmpl = g_strdup_printf("megaraid-9500-%s-XXXXXX", tag);
    uint64_t n;

    for (int i = 0; i < 3; i++) {
        int fd = g_file_open_tmp(tmpl, &path[i], NULL);

        g_assert(fd >= 0);
        close(fd);
    }
    n = write_raid1(path);
    if (sectors) {
        *sectors = n;
    }
    return start_vd(path, opts);
}

static MR *vd_rig(const char *tag, char **path, uint64_t *sectors)
{
    return vd_rig_opts(tag, path, sectors, "");
}

static void vd_rig_end(MR *m, char **path)
{
    qtest_shutdown(m->qs);
    g_free(m->dev);
    g_free(m);
    for (int i = 0; i < 3; i++) {
        unlink(path[i]);
        g_free(path[i]);
    }
}

/* Post READ(10)/WRITE(10) to LD target @tgt as an LD I/O frame. */
static void ld_post(MR *m, uint16_t smid, uint8_t q, uint16_t tgt,
                    bool write, uint32_t lba, uint16_t blocks, uint64_t data)
{
    uint8_t f[256] = { 0 };
    uint32_t len = blocks * 512;

    stw_le_p(f, tgt);
    f[3] = 0xF1;
    stl_le_p(f + 0x0C, (uint32_t)m->sense);
    stw_le_p(f + 0x10, 2);
    f[0x12] = 96;
    f[0x14] = 0x20;
    stl_le_p(f + 0x1C, len);
    stw_le_p(f + 0x24, 10);
    stl_le_p(f + 0x3C, write ? 1u << 24 : 1u << 25);
    f[0x40] = write ? 0x2A : 0x28;
    stl_be_p(f + 0x42, lba);
    stw_be_p(f + 0x47, blocks);
    stw_le_p(f + 0x66, tgt);
    f[0x77] = 0xFF;
    f[0x78] = 0x00;             /* not a system PD */
    stq_le_p(f + 0x80, data);
    stl_le_p(f + 0x88, len);
    f[0x8F] = 0x40;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | (uint32_t)q << 8 | 0x0E);
    wr(m, R_REQ_HI, 0);
}

/* ld_post(), then its reply; the RAID status. */
static uint8_t ld_rw(MR *m, uint16_t smid, uint8_t q, uint16_t tgt,
                     bool write, uint32_t lba, uint16_t blocks, uint64_t data)
{
    ld_post(m, smid, q, tgt, write, lba, blocks, data);
    g_assert_cmpuint(reply(m, q), ==, smid);
    return rd8(m, m->frames + smid * 256ull + 0x77);
}

/* MFI LD_SCSI_IO (the ioctl path) READ CAPACITY(10) to LD @tgt. */
static uint8_t ld_passthru_readcap(MR *m, uint16_t smid, uint8_t tgt)
{
    uint8_t f[256] = { 0 }, mpt[256] = { 0 };

    f[0] = 0x03;
    f[2] = 0xFF;
    f[4] = tgt;
    f[6] = 10;
    f[7] = 1;
    stw_le_p(f + 0x10, 0x0002 | 0x0010);
    stl_le_p(f + 0x14, 8);
    f[0x20] = 0x25;
    stq_le_p(f + 0x30, m->buf);
    stl_le_p(f + 0x38, 8);
    qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
    mpt[3] = 0xF0;
    stq_le_p(mpt + 0x80, m->mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, (uint32_t)smid << 16);
    g_assert_cmpuint(reply(m, 0), ==, smid);
    return rd8(m, m->mfi + 2);
}

static void fail_member(MR *m, const char *id)
{
    g_autofree char *qom = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                         "'path': %s, 'property': 'state', "
                         "'value': 'offline'}}", qom);

    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

static void test_ld(void)
{
    char *path[3];
    uint64_t sectors, evt;
    g_autofree uint8_t *out = g_malloc(8192);
    g_autofree uint8_t *in = g_malloc(8192);
    uint32_t newest;
    MR *m;

    m = vd_rig("vd", path, &sectors);
    g_assert_cmpuint(sectors, >, 16 * 1024);
    evt = alloc(m, 256);
    ioc_init(m);

    /* controller info: one LD present, none degraded or offline */
    g_assert_cmphex(dcmd(m, 64, 0x01010000, 1, m->buf, 2384), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x5C0), ==, 1);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x5C2), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x5C4), ==, 0);
    /* target id list (exposed to the host): target 0 */
    g_assert_cmphex(dcmd(m, 65, 0x03010100, 1, m->buf, 268), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 12), ==, 0);
    /* LD list: target 0, optimal, its size */
    g_assert_cmphex(dcmd(m, 66, 0x03010000, 1, m->buf, 4104), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 8), ==, 0);
    g_assert_cmpuint(rd8(m, m->buf + 12), ==, 3);
    g_assert_cmpuint(qtest_readq(m->qts, m->buf + 16), ==, sectors);
    /* LD info: RAID 1, 64 KiB strip, two drives, one span, optimal */
    g_assert_cmphex(dcmd(m, 67, 0x03020000, 0, m->buf, 384), ==, 0);
    g_assert_cmpuint(qtest_readq(m->qts, m->buf + 0x100), ==, sectors);
    g_assert_cmpuint(rd8(m, m->buf + 0x20), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 0x23), ==, 7);
    g_assert_cmpuint(rd8(m, m->buf + 0x24), ==, 2);
    g_assert_cmpuint(rd8(m, m->buf + 0x25), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 0x26), ==, 3);
    g_assert_cmphex(dcmd(m, 67, 0x03020000, 5, m->buf, 384), ==, 0x0C);
    /* target properties of the LD: queue depth 128; a member: none */
    {
        uint32_t qd, bs, kb;

        g_assert_cmphex(target_prop(m, true, 0, &qd, &bs, &kb), ==, 0);
        g_assert_cmpuint(kb, ==, 0);
        g_assert_cmpuint(qd, ==, 128);
        g_assert_cmpuint(bs, ==, 512);
        g_assert_cmphex(target_prop(m, false, 0, &qd, &bs, &kb), ==, 0x0C);
    }
    /* PD list: the members are hidden, the blank drive is a JBOD */
    g_assert_cmphex(dcmd(m, 68, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 1);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 8), ==, 2);

    /* WRITE and READ through LD I/O frames */
    for (int i = 0; i < 8192; i++) {
        out[i] = i * 13 + (i >> 8);
    }
    qtest_memwrite(m->qts, m->buf, out, 8192);
    g_assert_cmphex(ld_rw(m, 1, 1, 0, true, 200, 16, m->buf), ==, 0);
    qtest_memset(m->qts, m->buf + 16384, 0, 8192);
    g_assert_cmphex(ld_rw(m, 2, 0, 0, false, 200, 16, m->buf + 16384), ==,
                    0);
    qtest_memread(m->qts, m->buf + 16384, in, 8192);
    g_assert(memcmp(in, out, 8192) == 0);
    /* no VD with target 3 */
    g_assert_cmphex(ld_rw(m, 3, 0, 3, false, 0, 1, m->buf), ==, 0x0C);
    /* the ioctl path: LD_SCSI_IO to target 0 reaches the VD */
    g_assert_cmphex(ld_passthru_readcap(m, 75, 0), ==, 0);
    g_assert_cmphex(rd8(m, m->mfi + 3), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==,
                     bswap32(sectors - 1));
    g_assert_cmphex(ld_passthru_readcap(m, 75, 3), ==, 0x0C);

    /* a member fails: degraded, LD STATE CHANGE 3 -> 2, data still read */
    g_assert_cmphex(dcmd(m, 69, 0x01040100, 0, m->buf, 20), ==, 0);
    newest = qtest_readl(m->qts, m->buf);
    fail_member(m, "m0");
    g_assert_cmphex(dcmd(m, 70, 0x03010000, 1, m->buf, 4104), ==, 0);
    g_assert_cmpuint(rd8(m, m->buf + 12), ==, 2);
    g_assert_cmphex(dcmd(m, 71, 0x01010000, 1, m->buf, 2384), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x5C2), ==, 1);
    /* a wait for LD events after @newest completes at once */
    dcmd_post(m, 72, m->mfi, 0x01040500, newest + 1, 0xFE000001, evt, 256);
    g_assert_cmpuint(reply(m, 0), ==, 72);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x51);
    g_assert_cmpuint(qtest_readw(m->qts, evt + 0x20), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, evt + 0x24), ==, 3);
    g_assert_cmpuint(qtest_readl(m->qts, evt + 0x28), ==, 2);
    qtest_memset(m->qts, m->buf + 16384, 0, 8192);
    g_assert_cmphex(ld_rw(m, 4, 0, 0, false, 200, 16, m->buf + 16384), ==,
                    0);
    qtest_memread(m->qts, m->buf + 16384, in, 8192);
    g_assert(memcmp(in, out, 8192) == 0);

    /* the second: offline, no longer exposed, I/O answers LD OFFLINE */
    fail_member(m, "m1");
    g_assert_cmphex(dcmd(m, 73, 0x03010100, 1, m->buf, 268), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 0);
    g_assert_cmphex(dcmd(m, 74, 0x03010000, 1, m->buf, 4104), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 12), ==, 0);
    g_assert_cmphex(ld_rw(m, 5, 0, 0, false, 200, 16, m->buf), ==, 0x33);
    g_assert_cmphex(ld_passthru_readcap(m, 76, 0), ==, 0x33);

    vd_rig_end(m, path);
}

/*
 * The RAID map (dynamic format) of the RAID 1 rig: header, descriptor
 * table, device handles, target id table, the array, the LD's span map
 * (fast path off); the pended map sync held until a member fails, then
 * completed with the new map (LD degraded, the failed arm gone); a stale
 * sync completes at once; the JBOD sequence map (device handles of the
 * JBODs only, TM-capable) and its pended update; TMs to the LD, to a VD
 * member (not TM-capable: TM NOT SUPPORTED); hostile requests
 * (buffer too small, outside RAM, a second sync) are refused and QEMU
 * keeps answering.
 */
#define MAP_DATA        152
#define MAP_TGT         (MAP_DATA + 256 * 8)
#define MAP_AR          (MAP_TGT + 256 * 2)
#define MAP_LD          (MAP_AR + 64)
#define MAP_SIZE_1LD    (MAP_LD + 2528)
#define MAP_SPAN0       (MAP_LD + 0x80 + 32)
/* tmCapable, fpCapable, fpWriteCapable, fpReadCapable */
#define MAP_CAP_FP      (1u << 25 | 1u << 0 | 1u << 20 | 1u << 21)

static void test_map(void)
{
    char *path[3];
    uint64_t sectors, sync, mfi2, jbuf, mfi3;
    uint16_t seq, r1, r2;
    MR *m;

    m = vd_rig("map", path, &sectors);
    sync = alloc(m, 64 * 1024);
    mfi2 = alloc(m, 256);
    jbuf = alloc(m, 4096);
    mfi3 = alloc(m, 256);
    ioc_init(m);

    /* scratch pad 2: the map size in 64 KiB units */
    g_assert_cmpuint(rd(m, 0xB8) >> 16 & 0x1FF, ==, 10);
    g_assert_cmphex(dcmd(m, 64, 0x0300E101, 0, m->buf, 65536), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, MAP_SIZE_1LD);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 0x58);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 8), ==, 64);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 12), ==, 4);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x2C), ==, 1);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x2E), ==, 1);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + 0x30), ==, 1);
    /* descriptors: type, offset after the table, size, elements */
    for (int i = 0; i < 4; i++) {
        static const uint32_t off[] = { 0, 2048, 2560, 2624 };
        static const uint32_t n[] = { 256, 256, 1, 1 };
        uint64_t d = m->buf + 0x58 + i * 16;

        g_assert_cmpuint(qtest_readl(m->qts, d), ==, i);
        g_assert_cmpuint(qtest_readl(m->qts, d + 4), ==, off[i]);
        g_assert_cmpuint(qtest_readl(m->qts, d + 12), ==, n[i]);
    }
    /* PDs 0..2 have handles (= device id), PD 3 none; SAS */
    for (int pd = 0; pd < 3; pd++) {
        g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_DATA + pd * 8), ==,
                        pd);
        g_assert_cmpuint(rd8(m, m->buf + MAP_DATA + pd * 8 + 3), ==, 2);
    }
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_DATA + 3 * 8), ==,
                    0xFFFF);
    /* target 0 is LD 0, target 1 none */
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_TGT), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_TGT + 2), ==, 0xFFFF);
    /* the array: arms 0 and 1 on PDs 0 and 1 */
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_AR), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_AR + 2), ==, 1);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_AR + 4), ==, 0xFFFF);
    /*
     * LD 0: TM- and fast-path-capable (read, write; write-through), size,
     * 1 span, RAID 1, 64 KiB strip, 2 arms, 1 data arm (modFactor)
     */
    g_assert_cmphex(qtest_readl(m->qts, m->buf + MAP_LD), ==, MAP_CAP_FP);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x1C), ==, 1);
    g_assert_cmpuint(qtest_readq(m->qts, m->buf + MAP_LD + 8), ==, sectors);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x10), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x11), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x12), ==, 7);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x13), ==, 2);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x14), ==, 1);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + MAP_LD + 0x18), ==, 0);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0x1A), ==, 3);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + MAP_LD + 0x30), ==, 512);
    seq = qtest_readw(m->qts, m->buf + MAP_LD + 0x1E);
    /* span 0: array 0, 2 arms, 1 data arm, one quad (rows 0.., diff 1) */
    g_assert_cmpuint(qtest_readw(m->qts, m->buf + MAP_LD + 0xA0 + 0x18), ==,
                     0);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0xA0 + 0x1A), ==, 2);
    g_assert_cmpuint(rd8(m, m->buf + MAP_LD + 0xA0 + 0x1B), ==, 1);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + MAP_LD + 0xA0 + 0x20), ==,
                     1);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + MAP_LD + 0xA0 + 0x40), ==,
                     1);

    /* hostile: buffer too small, buffer outside RAM */
    g_assert_cmphex(dcmd(m, 65, 0x0300E101, 0, m->buf, 4096), ==, 0x03);
    g_assert_cmphex(dcmd(m, 66, 0x0300E101, 0, 0xF00000000000ull, 65536),
                    ==, 0x03);

    /* JBOD sequence map: PD 2 is the JBOD; members and absent PDs none */
    g_assert_cmphex(dcmd(m, 80, 0x0200E102, 0, m->buf, 4096), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 8 + 256 * 8);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 256);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 8 + 2 * 8 + 2), ==, 2);
    g_assert_cmpuint(rd8(m, m->buf + 8 + 2 * 8 + 4), ==, 1);
    g_assert_cmpuint(rd8(m, m->buf + 8 + 0 * 8 + 4), ==, 0);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 8 + 0 * 8 + 2), ==, 0xFFFF);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 8 + 3 * 8 + 2), ==, 0xFFFF);
    g_assert_cmphex(dcmd(m, 81, 0x0200E102, 0, m->buf, 1024), ==, 0x03);
    /* TMs: the LD (nothing outstanding), a member, the JBOD */
    tm_check(m, 90, 0, TM_TARGET_RESET, 0, TM_FOR_LD, 0, 0);
    tm_check(m, 90, 0, TM_ABORT_TASK, 1, TM_FOR_LD, 0, 0);
    tm_check(m, 90, 1, TM_TARGET_RESET, 0, TM_FOR_PD, 0, 0x04);
    tm_check(m, 90, 2, TM_TARGET_RESET, 0, TM_FOR_PD, 0, 0);
    /* its pended update: held */
    dcmd_post(m, 82, mfi3, 0x0200E102, 1, 0, jbuf, 4096);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));

    /* a stale sync (the driver knows no LD) completes at once */
    dcmd_post(m, 67, mfi2, 0x0300E101, 0x0100, 0, sync, 65536);
    g_assert_cmpuint(reply(m, 0), ==, 67);
    g_assert_cmphex(rd8(m, mfi2 + 2), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, sync + 0x2C), ==, 1);

    /* the current LD list: held */
    qtest_memset(m->qts, sync, 0, 65536);
    qtest_writeb(m->qts, sync, 0);
    qtest_writew(m->qts, sync + 2, seq);
    dcmd_post(m, 68, mfi2, 0x0300E101, 0x0101, 0, sync, 65536);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    /* a second sync while one is held: WRONG_STATE */
    dcmd_post(m, 69, m->mfi, 0x0300E101, 0x0101, 0, m->buf, 65536);
    g_assert_cmpuint(reply(m, 0), ==, 69);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0x32);
    /* a member fails: both syncs complete, the LD's map degraded */
    fail_member(m, "m0");
    r1 = reply(m, 0);
    r2 = reply(m, 0);
    g_assert_cmpuint(MIN(r1, r2), ==, 68);
    g_assert_cmpuint(MAX(r1, r2), ==, 82);
    g_assert_cmphex(rd8(m, mfi3 + 2), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, jbuf + 4), ==, 256);
    g_assert_cmphex(rd8(m, mfi2 + 2), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, sync + 0x2C), ==, 1);
    g_assert_cmpuint(rd8(m, sync + MAP_LD + 0x1A), ==, 2);
    g_assert_cmphex(qtest_readw(m->qts, sync + MAP_LD + 0x1E), !=, seq);
    g_assert_cmphex(qtest_readw(m->qts, sync + MAP_AR), ==, 0xFFFF);
    g_assert_cmphex(qtest_readw(m->qts, sync + MAP_AR + 2), ==, 1);

    /* held again, then aborted: NOT_FOUND */
    g_assert_cmphex(dcmd(m, 73, 0x0300E101, 0, m->buf, 65536), ==, 0);
    seq = qtest_readw(m->qts, m->buf + MAP_LD + 0x1E);
    qtest_memset(m->qts, sync, 0, 65536);
    qtest_writew(m->qts, sync + 2, seq);
    dcmd_post(m, 70, mfi2, 0x0300E101, 0x0101, 0, sync, 65536);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    {
        uint8_t f[256] = { 0 }, mpt[256] = { 0 };

        f[0] = 0x06;
        f[2] = 0xFF;
        stq_le_p(f + 0x20, mfi2);
        qtest_memwrite(m->qts, m->mfi, f, sizeof(f));
        mpt[3] = 0xF0;
        stq_le_p(mpt + 0x80, m->mfi);
        stl_le_p(mpt + 0x88, 256);
        mpt[0x8F] = 0x83;
        qtest_memwrite(m->qts, m->frames + 71 * 256ull, mpt, sizeof(mpt));
        wr(m, R_REQ_ATOMIC, 71u << 16);
    }
    g_assert_cmpuint(reply(m, 0), ==, 70);
    g_assert_cmphex(rd8(m, mfi2 + 2), ==, 0x23);
    g_assert_cmpuint(reply(m, 0), ==, 71);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0);
    /* still answering */
    g_assert_cmphex(dcmd(m, 72, 0x0300E101, 0, m->buf, 65536), ==, 0);

    vd_rig_end(m, path);
}

/*
 * Task management of LD commands: with timing=on an LD read is held
 * until the virtual clock passes its modelled completion (qtest moves it
 * only on request), so ABORT TASK and TARGET RESET to the LD (LD flag,
 * its target id) find it outstanding and end it (TASK ABORTED), the TM's
 * reply after the victim's; the ended reads never complete a second
 * time, and the LD still answers.
 */
static void test_ld_tm(void)
{
    char *path[3];
    MR *m = vd_rig_opts("ldtm", path, NULL, ",timing=on");

    ioc_init(m);
    ld_post(m, 1, 1, 0, false, 0, 8, m->buf);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 1));
    tm_post(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_LD);
    tm_victim(m, 1, 1);
    tm_expect(m, 101, 0, TM_ABORT_TASK, 0, 0, 1);

    /* TARGET RESET: two held LD commands end */
    ld_post(m, 2, 1, 0, false, 8, 8, m->buf);
    ld_post(m, 3, 1, 0, true, 16, 8, m->buf + 8192);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 1));
    tm_post(m, 102, 0, TM_TARGET_RESET, 0, TM_FOR_LD);
    tm_victim(m, 1, 2);
    tm_victim(m, 1, 3);
    tm_expect(m, 102, 0, TM_TARGET_RESET, 0, 0, 2);

    /* past every modelled completion: nothing more comes */
    qtest_clock_step(m->qts, 100 * 1000 * 1000);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    g_assert(no_reply(m, 1));
    /* the LD answers */
    ld_post(m, 4, 1, 0, false, 0, 8, m->buf);
    g_usleep(50 * 1000);
    qtest_clock_step(m->qts, 100 * 1000 * 1000);
    g_assert_cmpuint(reply(m, 1), ==, 4);
    g_assert_cmphex(rd8(m, m->frames + 4 * 256 + 0x77), ==, 0);
    vd_rig_end(m, path);
}

/*
 * A fast path frame as megaraid_sas builds one: SCSI IO (Function 0, not
 * a system PD) to member device handle @handle at member LBA @lba, the
 * LD's target id and map sequence number @seq in the RAID context, the
 * peer SMID of a RAID 1 write pair; its RAID status.  @op: READ(10) or
 * WRITE(10), else used as the CDB's opcode with no data.
 */
static void fp_post(MR *m, uint16_t smid, uint16_t handle, uint8_t op,
                    uint32_t lba, uint16_t blocks, uint16_t seq,
                    uint16_t peer, uint64_t data)
{
    uint8_t f[256] = { 0 };
    uint32_t len = op == 0x28 || op == 0x2A ? blocks * 512 : 0;

    stw_le_p(f, handle);
    f[3] = 0x00;
    stl_le_p(f + 0x0C, (uint32_t)m->sense);
    f[0x12] = 96;
    f[0x14] = 0x20;
    stl_le_p(f + 0x1C, len);
    stw_le_p(f + 0x24, 10 | 0x4000);        /* FAST_PATH enabled */
    stl_le_p(f + 0x3C, op == 0x2A ? 1u << 24 : len ? 1u << 25 : 0);
    f[0x40] = op;
    stl_be_p(f + 0x42, lba);
    stw_be_p(f + 0x47, blocks);
    stw_le_p(f + 0x66, 0);                  /* LD target 0 */
    stw_le_p(f + 0x74, peer);
    f[0x77] = 0xFF;
    stw_le_p(f + 0x7A, seq);
    stq_le_p(f + 0x80, data);
    stl_le_p(f + 0x88, len);
    f[0x8F] = 0x40;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | 1u << 8 | 0x06 << 1);
    wr(m, R_REQ_HI, (uint32_t)handle << 16);
}

static uint8_t fp_rw(MR *m, uint16_t smid, uint16_t handle, uint8_t op,
                     uint32_t lba, uint16_t blocks, uint16_t seq,
                     uint64_t data)
{
    fp_post(m, smid, handle, op, lba, blocks, seq, 0, data);
    g_assert_cmpuint(reply(m, 1), ==, smid);
    return rd8(m, m->frames + smid * 256ull + 0x77);
}

static uint64_t fp_ios(MR *m)
{
    QDict *r = qom(m, "qom-get", "fast-path-ios", NULL);
    uint64_t n = qdict_get_int(r, "return");

    qobject_unref(r);
    return n;
}

/*
 * Fast path on a RAID 1 VD: frames to either copy at the member's LBA
 * read and write the LD's data (the firmware maps them back); a RAID 1
 * write pair writes once; frames that do not map back are refused (old
 * map: CONFIG_SEQ_MISMATCH; current map: INVALID_PARAMETER); fast-path=off
 * takes the capability out of the map.
 */
static void test_fp(void)
{
    char *path[3];
    g_autofree uint8_t *out = g_malloc(8192);
    g_autofree uint8_t *in = g_malloc(8192);
    uint64_t data2, start, n0;
    uint16_t seq;
    MR *m;

    m = vd_rig("fp", path, NULL);
    data2 = alloc(m, 8192);
    ioc_init(m);

    g_assert_cmphex(dcmd(m, 64, 0x0300E101, 0, m->buf, 65536), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + MAP_LD), ==, MAP_CAP_FP);
    seq = qtest_readw(m->qts, m->buf + MAP_LD + 0x1E);
    start = qtest_readq(m->qts, m->buf + MAP_SPAN0 + 0x08);
    n0 = fp_ios(m);

    /* LD I/O writes LD sector 8..23; a fast path read of either copy */
    for (int i = 0; i < 8192; i++) {
        out[i] = i * 7 + 3;
    }
    qtest_memwrite(m->qts, m->buf, out, 8192);
    g_assert_cmphex(ld_rw(m, 1, 1, 0, true, 8, 16, m->buf), ==, 0);
    for (uint16_t h = 0; h < 2; h++) {
        qtest_memset(m->qts, data2, 0, 8192);
        g_assert_cmphex(fp_rw(m, 2, h, 0x28, start + 8, 16, seq, data2), ==,
                        0);
        qtest_memread(m->qts, data2, in, 8192);
        g_assert_cmpmem(in, 8192, out, 8192);
    }

    /* a fast path write to copy 0 alone: the LD reads it (both copies) */
    for (int i = 0; i < 4096; i++) {
        out[i] = i * 13 + 1;
    }
    qtest_memwrite(m->qts, data2, out, 4096);
    g_assert_cmphex(fp_rw(m, 3, 0, 0x2A, start + 40, 8, seq, data2), ==, 0);
    qtest_memset(m->qts, m->buf, 0, 4096);
    g_assert_cmphex(ld_rw(m, 4, 1, 0, false, 40, 8, m->buf), ==, 0);
    qtest_memread(m->qts, m->buf, in, 4096);
    g_assert_cmpmem(in, 4096, out, 4096);
    qtest_memset(m->qts, m->buf, 0, 4096);
    g_assert_cmphex(fp_rw(m, 5, 1, 0x28, start + 40, 8, seq, m->buf), ==, 0);
    qtest_memread(m->qts, m->buf, in, 4096);
    g_assert_cmpmem(in, 4096, out, 4096);

    /* a RAID 1 write pair (SMIDs 6 and 7, naming each other) */
    for (int i = 0; i < 4096; i++) {
        out[i] = i * 5 + 11;
    }
    qtest_memwrite(m->qts, data2, out, 4096);
    fp_post(m, 6, 0, 0x2A, start + 64, 8, seq, 7, data2);
    fp_post(m, 7, 1, 0x2A, start + 64, 8, seq, 6, data2);
    {
        uint16_t a = reply(m, 1), b = reply(m, 1);

        g_assert_cmpuint(MIN(a, b), ==, 6);
        g_assert_cmpuint(MAX(a, b), ==, 7);
    }
    g_assert_cmphex(rd8(m, m->frames + 6 * 256ull + 0x77), ==, 0);
    g_assert_cmphex(rd8(m, m->frames + 7 * 256ull + 0x77), ==, 0);
    qtest_memset(m->qts, m->buf, 0, 4096);
    g_assert_cmphex(ld_rw(m, 8, 1, 0, false, 64, 8, m->buf), ==, 0);
    qtest_memread(m->qts, m->buf, in, 4096);
    g_assert_cmpmem(in, 4096, out, 4096);
    g_assert_cmpuint(fp_ios(m), ==, n0 + 6);

    /*
     * Frames that do not map back: the JBOD's handle, crossing a strip,
     * below the VD's extent, no READ/WRITE; with the current sequence
     * number INVALID_PARAMETER, with an old one CONFIG_SEQ_MISMATCH.
     */
    g_assert_cmphex(fp_rw(m, 9, 2, 0x28, start, 8, seq, m->buf), ==, 0x03);
    g_assert_cmphex(fp_rw(m, 9, 0, 0x28, start + 124, 8, seq, m->buf), ==,
                    0x03);
    if (start) {
        g_assert_cmphex(fp_rw(m, 9, 0, 0x28, start - 1, 1, seq, m->buf),
                        ==, 0x03);
    }
    g_assert_cmphex(fp_rw(m, 9, 0, 0x00, start, 0, seq, 0), ==, 0x03);
    g_assert_cmphex(fp_rw(m, 9, 2, 0x28, start, 8, seq - 1, m->buf), ==,
                    0x67);
    g_assert_cmphex(fp_rw(m, 9, 0x7FFF, 0x2A, start, 8, seq - 1, m->buf),
                    ==, 0x67);
    g_assert_cmpuint(fp_ios(m), ==, n0 + 6);

    /* fast-path=off: the map's capability word is TM only */
    qobject_unref(qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                            "'path': '/machine/peripheral/raid0', "
                            "'property': 'fast-path', 'value': false}}"));
    g_assert_cmphex(dcmd(m, 10, 0x0300E101, 0, m->buf, 65536), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + MAP_LD), ==, 1u << 25);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + MAP_LD + 0x1E), !=, seq);

    vd_rig_end(m, path);
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

/* The management protocol in its vendor DCMD (mr9500-mgmt.c). */
#define MGMT_DCMD       0xFF4D4700u

static void mgmt_envelope(MR *m, uint32_t magic, uint32_t opcode,
                          uint32_t tag)
{
    uint8_t rq[40] = { 0 };

    stl_le_p(rq, magic);
    stw_le_p(rq + 4, 1);                /* version */
    stw_le_p(rq + 6, sizeof(rq));
    stl_le_p(rq + 8, opcode);
    stl_le_p(rq + 16, tag);
    qtest_memset(m->qts, m->buf, 0xAA, 4096);
    qtest_memwrite(m->qts, m->buf, rq, sizeof(rq));
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

/* VD_DELETE through the management DCMD: the LD leaves the host. */
static void test_mgmt_delete(void)
{
    char *path[3];
    MR *m;

    m = vd_rig("mg", path, NULL);
    ioc_init(m);
    g_assert_cmphex(ld_passthru_readcap(m, 64, 0), ==, 0);
    /* VD_DELETE of VD 0 (mailbox 0 and flags 0) */
    mgmt_envelope(m, 0x474d524d, 0x04030200, 21);
    g_assert_cmphex(dcmd(m, 65, MGMT_DCMD, 40, m->buf, 4096), ==, 0);
    g_assert_cmphex(rd8(m, m->buf + 16), ==, 0);
    /* LD I/O to it: DEVICE NOT FOUND; the exposed LD list is empty */
    g_assert_cmphex(ld_passthru_readcap(m, 66, 0), ==, 0x0C);
    g_assert_cmphex(dcmd(m, 67, 0x03010100, 1, m->buf, 268), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 0);
    /* deleting it again: the protocol's VD_NOT_FOUND */
    mgmt_envelope(m, 0x474d524d, 0x04030200, 22);
    g_assert_cmphex(dcmd(m, 68, MGMT_DCMD, 40, m->buf, 4096), ==, 0);
    g_assert_cmphex(rd8(m, m->buf + 16), ==, 0x06);
    vd_rig_end(m, path);
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/ready", test_ready);
    qtest_add_func("/megaraid-9500/ioc-init", test_init);
    qtest_add_func("/megaraid-9500/dcmd", test_dcmd);
    qtest_add_func("/megaraid-9500/jbod-io", test_io);
    qtest_add_func("/megaraid-9500/timing", test_timing);
    qtest_add_func("/megaraid-9500/hostile", test_hostile);
    qtest_add_func("/megaraid-9500/diag-reset", test_diag_reset);
    qtest_add_func("/megaraid-9500/task-mgmt", test_tm);
    qtest_add_func("/megaraid-9500/nvme-prp", test_prp);
    qtest_add_func("/megaraid-9500/events", test_events);
    qtest_add_func("/megaraid-9500/passthru", test_passthru);
    qtest_add_func("/megaraid-9500/ld", test_ld);
    qtest_add_func("/megaraid-9500/map", test_map);
    qtest_add_func("/megaraid-9500/ld-task-mgmt", test_ld_tm);
    qtest_add_func("/megaraid-9500/fast-path", test_fp);
    qtest_add_func("/megaraid-9500/fuzz", test_fuzz);
    qtest_add_func("/megaraid-9500/msix", test_msix);
    qtest_add_func("/megaraid-9500/mgmt", test_mgmt);
    qtest_add_func("/megaraid-9500/mgmt-delete", test_mgmt_delete);
    return g_test_run();
}
