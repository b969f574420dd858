/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the Fusion (MPT/MFI) host layer every megaraid-9500 qtest
 * shares, written as megaraid_sas drives the controller: booting QEMU with
 * the controller and its drives, BAR access, the MFA-posted IOC INIT, the
 * reply queues, MFI DCMDs through the MPT pass-through (waited for or
 * held), target properties, JBOD and LD I/O frames with any CDB, task
 * management frames and replies, QOM, the management protocol's envelope,
 * and the RAID 1 rig (the DDF rig's images, megaraid-ddf-rig.h) with MFI
 * LD_SCSI_IO.  The RAID qtests' interface over it is megaraid-fusion-rig.h.
 * Offsets are written here from the interface description, not taken from
 * the device's header, so that both sides are checked.  Everything is
 * static inline.
 */
#ifndef MEGARAID_FUSION_HOST_H
#define MEGARAID_FUSION_HOST_H

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci-pc.h"
#include "qemu/bswap.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"
#include "megaraid-qtest-core.h"
#include "megaraid-ddf-rig.h"

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

typedef struct FU {
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
    uint64_t data;              /* a layer above may keep its buffer here */
} FU;

/* BAR0 registers (@m: an FU *) */
#define rd(m, off)          qpci_io_readl((m)->dev, (m)->bar, (off))
#define wr(m, off, val)     qpci_io_writel((m)->dev, (m)->bar, (off), (val))

/* Guest memory */
static inline uint8_t rd8(FU *m, uint64_t a)
{
    return qtest_readb(m->qts, a);
}

static inline uint64_t alloc(FU *m, size_t size)
{
    return qc_alloc(m->qs, size);
}

static inline char *make_img(void)
{
    char *path;
    int fd = g_file_open_tmp("megaraid-9500-XXXXXX", &path, NULL);

    g_assert(fd >= 0);
    g_assert(ftruncate(fd, DISK_BLOCKS * 512) == 0);
    close(fd);
    return path;
}

/*
 * Boot QEMU with @devices (the controller, id raid0 at PCI 04.0, and its
 * drives), map BAR0 and allocate the host's frames, reply queues, INIT
 * frame, one MFI frame, a sense buffer and 64 KiB of data.
 */
static inline void fu_launch(FU *m, const char *devices)
{
    m->qs = qtest_pc_boot("%s-machine q35 -nodefaults %s", h_fw_args(),
                          devices);
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
}

/*
 * Drive hd0 in slot 0 (@drive0: its interface and identity) and a SATA
 * drive in slot 3 (PD 3); @opts are more controller properties
 * (",name=value...").
 */
static inline FU *start_full(const char *opts, const char *drive0)
{
    FU *m = g_new0(FU, 1);
    g_autofree char *devices = NULL;

    m->img[0] = make_img();
    m->img[1] = make_img();
    devices = g_strdup_printf(
        "-device megaraid-9500,id=raid0,addr=04.0,max-cmds=%d,queues=2%s "
        "-drive if=none,id=d0,format=raw,file=%s "
        "-drive if=none,id=d1,format=raw,file=%s "
        "-device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,%s "
        "-device megaraid-drive,bus=raid0.0,slot=3,drive=d1,interface=sata,"
        "model=Q95SATA,serial=Q95A0", MAX_CMDS, opts, m->img[0],
        m->img[1], drive0);
    fu_launch(m, devices);
    return m;
}

/* SAS drive in slot 0 (PD 0) and SATA drive in slot 3 (PD 3). */
static inline FU *start_with(const char *opts)
{
    return start_full(opts, "interface=sas,vendor=SEAGATE,model=Q95SAS,"
                      "serial=Q95S0");
}

static inline FU *start(void)
{
    return start_with("");
}

static inline void stop(FU *m)
{
    qtest_shutdown(m->qs);
    for (int i = 0; i < 2; i++) {
        unlink(m->img[i]);
        g_free(m->img[i]);
    }
    g_free(m->dev);
    g_free(m);
}

/* Post the MFI INIT frame; returns its status byte (0xFF: no answer). */
static inline uint8_t ioc_init_raw(FU *m, uint8_t function, uint8_t vectors)
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

static inline void ioc_init(FU *m)
{
    g_assert_cmphex(ioc_init_raw(m, 0x02, 2), ==, 0x00);
    g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xC);
}

/*
 * The next reply descriptor on queue @q within about @ms (I/O completes
 * in QEMU's main loop): its SMID into *@smid; false if none came.
 */
static inline bool reply_wait(FU *m, uint32_t q, int ms, uint16_t *smid)
{
    uint64_t a = m->replies + ((uint64_t)q * DEPTH + m->ci[q]) * 8;
    uint64_t d = qtest_readq(m->qts, a);

    for (int i = 0; d == UINT64_MAX && i < ms; i++) {
        g_usleep(1000);
        d = qtest_readq(m->qts, a);
    }
    if (d == UINT64_MAX) {
        return false;
    }
    g_assert_cmpuint(d >> 8 & 0xFF, ==, q);
    qtest_writeq(m->qts, a, UINT64_MAX);
    m->ci[q] = (m->ci[q] + 1) % DEPTH;
    wr(m, R_HOST_INDEX, q << 24 | m->ci[q]);
    *smid = d >> 16 & 0xFFFF;
    return true;
}

/* Wait for the next reply descriptor on queue @q; returns its SMID. */
static inline uint16_t reply(FU *m, uint32_t q)
{
    uint16_t smid;

    /* I/O completes in QEMU's main loop: give it up to 5 s */
    g_assert_true(reply_wait(m, q, 5000, &smid));
    return smid;
}

static inline bool no_reply(FU *m, uint32_t q)
{
    uint64_t a = m->replies + ((uint64_t)q * DEPTH + m->ci[q]) * 8;

    return qtest_readq(m->qts, a) == UINT64_MAX;
}

/*
 * Post the MPT pass-through frame at @smid that carries the MFI frame at
 * @mfi (what megaraid_sas sends every MFI command in).
 */
static inline void mfi_pass_post(FU *m, uint16_t smid, uint64_t mfi)
{
    uint8_t mpt[256] = { 0 };

    mpt[3] = 0xF0;
    stq_le_p(mpt + 0x80, mfi);
    stl_le_p(mpt + 0x88, 256);
    mpt[0x8F] = 0x83;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, mpt, sizeof(mpt));
    wr(m, R_REQ_ATOMIC, (uint32_t)smid << 16);
}

/* A DCMD through the MPT pass-through at @smid; returns the MFI status. */
static inline uint8_t dcmd_mbox(FU *m, uint16_t smid, uint32_t opcode,
                                const uint8_t *mbox, uint64_t data,
                                uint32_t len)
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

static inline uint8_t dcmd(FU *m, uint16_t smid, uint32_t opcode, uint8_t mb0,
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
static inline uint8_t target_prop(FU *m, bool ld, uint16_t tgt, uint32_t *qd,
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

/*
 * Post a SCSI I/O frame at @smid on reply queue @q with CDB @cdb (up to
 * 16 bytes), Control word @ctl (the data direction) and @len bytes of
 * data at @data: to LD target @id as an LD I/O frame (Function 0xF1) if
 * @ld, else to JBOD PD @id as a system PD fast-path frame.
 */
static inline void fu_cdb_post(FU *m, uint16_t smid, uint8_t q, bool ld,
                               uint16_t id, const uint8_t *cdb, size_t cdb_len,
                               uint32_t ctl, uint32_t len, uint64_t data)
{
    uint8_t f[256] = { 0 };

    stw_le_p(f, ld ? id : 0xFFFF);
    f[3] = ld ? 0xF1 : 0x00;
    stl_le_p(f + 0x0C, (uint32_t)m->sense);
    stw_le_p(f + 0x10, 2);
    f[0x12] = 96;
    f[0x14] = 0x20;
    stl_le_p(f + 0x1C, len);
    stw_le_p(f + 0x24, cdb_len | (ld ? 0 : 0x4000));
    stl_le_p(f + 0x3C, ctl);
    memcpy(f + 0x40, cdb, cdb_len);
    stw_le_p(f + 0x66, id);
    f[0x77] = 0xFF;
    f[0x78] = ld ? 0x00 : 0x10;         /* LD, or a system PD */
    stq_le_p(f + 0x80, data);
    stl_le_p(f + 0x88, len);
    f[0x8F] = 0x40;
    qtest_memwrite(m->qts, m->frames + smid * 256ull, f, sizeof(f));
    wr(m, R_REQ_LO, (uint32_t)smid << 16 | (uint32_t)q << 8 |
       (ld ? 0x0E : 0x0C));
    wr(m, R_REQ_HI, ld ? 0 : 0xFFFF0000);
}

/* Post a READ(10)/WRITE(10) of @blocks at @lba to an LD or a JBOD. */
static inline void fu_rw10_post(FU *m, uint16_t smid, uint8_t q, bool ld,
                                uint16_t id, bool write, uint32_t lba,
                                uint16_t blocks, uint64_t data)
{
    uint8_t cdb[10] = { write ? 0x2A : 0x28 };

    stl_be_p(cdb + 2, lba);
    stw_be_p(cdb + 7, blocks);
    fu_cdb_post(m, smid, q, ld, id, cdb, sizeof(cdb),
                write ? 1u << 24 : 1u << 25, blocks * 512, data);
}

/* Post a JBOD READ(10)/WRITE(10) fast-path frame. */
static inline void jbod_post(FU *m, uint16_t smid, uint8_t q, uint16_t pd,
                             bool write, uint32_t lba, uint16_t blocks,
                             uint64_t data)
{
    fu_rw10_post(m, smid, q, false, pd, write, lba, blocks, data);
}

/* A JBOD READ(10)/WRITE(10) fast-path frame; returns the RAID status. */
static inline uint8_t jbod_rw(FU *m, uint16_t smid, uint8_t q, uint16_t pd,
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
static inline void tm_post(FU *m, uint16_t smid, uint16_t handle, uint8_t type,
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
static inline void tm_result(FU *m, uint16_t smid, uint16_t handle,
                             uint8_t type, uint16_t *ioc, uint8_t *rsp,
                             uint32_t *count)
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
static inline void tm_expect(FU *m, uint16_t smid, uint16_t handle,
                             uint8_t type, uint16_t want_ioc, uint8_t want_rsp,
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
static inline void tm_check(FU *m, uint16_t smid, uint16_t handle, uint8_t type,
                            uint16_t mid, uint32_t flags, uint16_t want_ioc,
                            uint8_t want_rsp)
{
    tm_post(m, smid, handle, type, mid, flags);
    tm_expect(m, smid, handle, type, want_ioc, want_rsp, 0);
}

/* The next reply on queue @q is SCSI I/O @smid, ended by a TM. */
static inline void tm_victim(FU *m, uint32_t q, uint16_t smid)
{
    g_assert_cmpuint(reply(m, q), ==, smid);
    g_assert_cmphex(rd8(m, m->frames + smid * 256ull + 0x77), ==, 0x2E);
    g_assert_cmphex(rd8(m, m->frames + smid * 256ull + 0x76), ==, 0x02);
}

/* QOM bool @prop of the drive with id @id. */
static inline void drive_set(FU *m, const char *id, const char *prop, bool on)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                         "'path': %s, 'property': %s, 'value': %i}}",
                         path, prop, on);

    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

static inline QDict *qom(FU *m, const char *cmd, const char *prop,
                         const char *val)
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

/* Post an MFI ABORT (its frame at @mfi) of the command at @victim. */
static inline void mfi_abort_post(FU *m, uint16_t smid, uint64_t mfi,
                                  uint64_t victim)
{
    uint8_t f[256] = { 0 };

    f[0] = 0x06;
    f[2] = 0xFF;
    stq_le_p(f + 0x20, victim);
    qtest_memwrite(m->qts, mfi, f, sizeof(f));
    mfi_pass_post(m, smid, mfi);
}

/* Post a DCMD without waiting for its reply (one that is held). */
static inline void dcmd_post(FU *m, uint16_t smid, uint64_t mfi,
                             uint32_t opcode, uint32_t w0, uint32_t w1,
                             uint64_t data, uint32_t len)
{
    uint8_t f[256] = { 0 };

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
    mfi_pass_post(m, smid, mfi);
}

/* ---- a RAID 1 VD ---- */

#define VD_DRIVE_BYTES  (16 * 1024 * 1024)

/* RAID 1 DDF on images 0 and 1 (slots 0, 1); image 2 stays blank. */
static inline uint64_t write_raid1(char **path)
{
    RigLayout l = {
        .n = 3, .nmem = 2, .drive_bytes = VD_DRIVE_BYTES, .settled = true,
        .spec = {
            .level = RAID_LEVEL_1, .strip = 128, .name = "q95vd",
            .cache = RAID_CACHE_READ_ALLOWED,
        },
    };

    return rig_write_ddf(path, &l, NULL);
}

static inline FU *start_vd(char **path, const char *opts)
{
    FU *m = g_new0(FU, 1);
    g_autofree char *devices = NULL;

    devices = g_strdup_printf(
        "-device megaraid-9500,id=raid0,addr=04.0,max-cmds=%d,queues=2,"
        "import-foreign=on%s "
        "-drive if=none,id=d0,format=raw,file=%s "
        "-drive if=none,id=d1,format=raw,file=%s "
        "-drive if=none,id=d2,format=raw,file=%s "
        "-device megaraid-drive,id=m0,bus=raid0.0,slot=0,drive=d0,interface=sas "
        "-device megaraid-drive,id=m1,bus=raid0.0,slot=1,drive=d1,interface=sas "
        "-device megaraid-drive,id=j2,bus=raid0.0,slot=2,drive=d2,interface=sas",
        MAX_CMDS, opts, path[0], path[1], path[2]);
    fu_launch(m, devices);
    return m;
}

/*
 * The RAID 1 rig: three images (@tag in their names, their paths into
 * @path), the RAID core's DDF of a RAID 1 on the first two (its size in
 * *@sectors), QEMU started on them (@opts: more controller properties).
 */
static inline FU *vd_rig_opts(const char *tag, char **path, uint64_t *sectors,
                              const char *opts)
{
    g_autofree char *tmpl = g_strdup_printf("megaraid-9500-%s", tag);
    uint64_t n;

    rig_tmp_paths(path, 3, tmpl);
    n = write_raid1(path);
    if (sectors) {
        *sectors = n;
    }
    return start_vd(path, opts);
}

static inline FU *vd_rig(const char *tag, char **path, uint64_t *sectors)
{
    return vd_rig_opts(tag, path, sectors, "");
}

/* QEMU stopped, then the @n images at @path removed. */
static inline void rig_end(FU *m, char **path, int n)
{
    qtest_shutdown(m->qs);
    g_free(m->dev);
    g_free(m);
    for (int i = 0; i < n; i++) {
        unlink(path[i]);
        g_free(path[i]);
    }
}

static inline void vd_rig_end(FU *m, char **path)
{
    rig_end(m, path, 3);
}

/*
 * The blank rig: @n blank VD_DRIVE_BYTES SAS drives hd0.. in slots
 * 0..@n-1 on new images (@tag in their names, their paths into @path;
 * drive i's serial @serial followed by i, unless @serial is NULL) behind
 * a megaraid-9500 (@opts: more controller properties), its IOC
 * initialised.  rig_end() ends it.
 */
static inline FU *blank_rig(const char *tag, char **path, int n,
                            const char *opts, const char *serial)
{
    g_autofree char *tmpl = g_strdup_printf("megaraid-9500-%s", tag);
    FU *m = g_new0(FU, 1);
    GString *dev = g_string_new(NULL);

    rig_tmp_paths(path, n, tmpl);
    g_string_append_printf(dev, "-device megaraid-9500,id=raid0,addr=04.0,"
                           "max-cmds=%d,queues=2%s ", MAX_CMDS, opts);
    for (int i = 0; i < n; i++) {
        g_assert(truncate(path[i], VD_DRIVE_BYTES) == 0);
        g_string_append_printf(dev, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,interface=sas",
                               i, path[i], i, i, i);
        if (serial) {
            g_string_append_printf(dev, ",serial=%s%d", serial, i);
        }
        g_string_append_c(dev, ' ');
    }
    fu_launch(m, dev->str);
    g_string_free(dev, true);
    ioc_init(m);
    return m;
}

/* Post READ(10)/WRITE(10) to LD target @tgt as an LD I/O frame. */
static inline void ld_post(FU *m, uint16_t smid, uint8_t q, uint16_t tgt,
                           bool write, uint32_t lba, uint16_t blocks,
                           uint64_t data)
{
    fu_rw10_post(m, smid, q, true, tgt, write, lba, blocks, data);
}

/* ld_post(), then its reply; the RAID status. */
static inline uint8_t ld_rw(FU *m, uint16_t smid, uint8_t q, uint16_t tgt,
                            bool write, uint32_t lba, uint16_t blocks,
                            uint64_t data)
{
    ld_post(m, smid, q, tgt, write, lba, blocks, data);
    g_assert_cmpuint(reply(m, q), ==, smid);
    return rd8(m, m->frames + smid * 256ull + 0x77);
}

/* MFI LD_SCSI_IO (the ioctl path) READ CAPACITY(10) to LD @tgt. */
static inline uint8_t ld_passthru_readcap(FU *m, uint16_t smid, uint8_t tgt)
{
    uint8_t f[256] = { 0 };

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
    mfi_pass_post(m, smid, m->mfi);
    g_assert_cmpuint(reply(m, 0), ==, smid);
    return rd8(m, m->mfi + 2);
}

static inline void fail_member(FU *m, const char *id)
{
    g_autofree char *qom = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                         "'path': %s, 'property': 'state', "
                         "'value': 'offline'}}", qom);

    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

/* The management protocol in its vendor DCMD (mr9500-mgmt.c). */
#define MGMT_DCMD       0xFF4D4700u

static inline void mgmt_envelope(FU *m, uint32_t magic, uint32_t opcode,
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

#endif
