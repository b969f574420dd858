/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of a RAID 1 VD behind the megaraid-9500 Fusion host
 * interface (the RAID core writes its DDF on the images, as megaraid-img
 * does): the VD as LD target 0 in the LD lists, LD info and the
 * controller's LD counts, its members gone from the PD list, WRITE/READ
 * through LD I/O frames (Function 0xF1), READ CAPACITY through MFI
 * LD_SCSI_IO, a member failed through QOM (degraded, LD STATE CHANGE
 * event), the second (offline: no longer exposed, LD I/O answers LD
 * OFFLINE); the RAID map (header, tables, the LD's span map), its pended
 * sync (held, completed by a member failure, stale, aborted) and hostile
 * map requests; the fast path to the members; VD_DELETE through the
 * management DCMD.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

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
    mfi_abort_post(m, 71, m->mfi, mfi2);
    g_assert_cmpuint(reply(m, 0), ==, 70);
    g_assert_cmphex(rd8(m, mfi2 + 2), ==, 0x23);
    g_assert_cmpuint(reply(m, 0), ==, 71);
    g_assert_cmphex(rd8(m, m->mfi + 2), ==, 0);
    /* still answering */
    g_assert_cmphex(dcmd(m, 72, 0x0300E101, 0, m->buf, 65536), ==, 0);

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/ld", test_ld);
    qtest_add_func("/megaraid-9500/map", test_map);
    qtest_add_func("/megaraid-9500/fast-path", test_fp);
    qtest_add_func("/megaraid-9500/mgmt-delete", test_mgmt_delete);
    return g_test_run();
}
