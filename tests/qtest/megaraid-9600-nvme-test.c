/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9600's NVMe ENCAPSULATED request as
 * mpi3mr's BSG pass-through sends it on the admin queue: Identify
 * (controller, namespace, active namespace list), Get Log Page (SMART,
 * error information with the commands that failed, an unknown page),
 * Write / Read / Flush through PRP lists crossing pages and through NVMe
 * SGLs (a last segment of data blocks), the data found in the drive's
 * image; the completion as a success descriptor or, when the command
 * failed or the request asks for it, the NVMe completion entry in an
 * error reply; bad opcodes, bad and misaligned PRPs, SGLs too short,
 * transfers above MDTS or beyond the namespace, a SAS drive, a VD, its
 * members and spare, an unknown handle; a target reset aborting an NVMe
 * Read the drive holds; the drive's nvme-page-size and nvme-mdts
 * properties (Device Page 0, Identify, 8 KiB PRP pages).  Offsets come
 * from the MPI 3.0 and NVMe interface descriptions, not from the device's
 * headers.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"
#include "megaraid-rig.h"

#define F_ADMIN         0x0001      /* submission queue: admin */
#define F_FORCE_REPLY   0x0002      /* error reply even on success */

/* NVMe status field values (SC | SCT << 8 | DNR << 14) */
#define S_OK            0x0000
#define S_INV_OPCODE    0x4001
#define S_INV_FIELD     0x4002
#define S_XFER_ERROR    0x0004
#define S_INV_NSID      0x400b
#define S_SGL_LEN       0x400f
#define S_PRP_OFFSET    0x4013
#define S_LBA_RANGE     0x4080
#define S_INV_LOG       0x4109

#define PG              4096

typedef struct NvmeResult {
    uint16_t ioc_status;
    bool cqe;                   /* an error reply carried the entry */
    uint16_t status;            /* NVMe status field */
    uint16_t cid;
    uint16_t sqid;
} NvmeResult;

static HMR *nv_start(const char *drive_props)
{
    HMR *m = g_new0(HMR, 1);
    g_autofree char *extra = g_strdup_printf(
        "-blockdev driver=null-co,node-name=d1,size=1048576 "
        "-device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1,"
        "interface=sas %s", drive_props ? drive_props : "");

    h_launch_disk(m, NULL, extra);
    h_bringup(m);
    g_assert_cmpint(m->nhandles, >=, 2);
    return m;
}

/* An encapsulated request for @handle carrying the 64-byte @sqe. */
static NvmeResult nv_send(HMR *m, uint16_t handle, uint16_t flags,
                          const uint8_t *sqe)
{
    uint8_t f[96] = { 0 };
    NvmeResult r = { 0 };
    HDesc d;

    stw_le_p(f, 0x77);
    f[3] = 0x24;
    stw_le_p(f + 0x0A, handle);
    stw_le_p(f + 0x0C, 64);
    stw_le_p(f + 0x0E, flags);
    memcpy(f + 0x20, sqe, 64);
    h_submit_admin(m, f, sizeof(f));
    do {
        g_assert_true(h_admin_reply(m, &d, 5000));
    } while (d.tag == 0xFFFF);
    g_assert_cmphex(d.tag, ==, 0x77);
    r.ioc_status = d.status;
    if (d.type == H_DT_ADDRESS) {
        uint32_t dw3 = ldl_le_p(d.frame + 16 + 12);

        g_assert_cmphex(d.frame[3], ==, 0x24);
        r.cqe = true;
        r.cid = dw3 & 0xffff;
        g_assert_cmphex((dw3 >> 16) & 1, ==, 1);    /* phase tag */
        r.status = dw3 >> 17;
        r.sqid = ldl_le_p(d.frame + 16 + 8) >> 16;
    }
    return r;
}

static void sqe_init(uint8_t *sqe, uint8_t opc, uint8_t psdt, uint32_t nsid)
{
    memset(sqe, 0, 64);
    stl_le_p(sqe, opc | psdt << 14 | 0x1234u << 16);
    stl_le_p(sqe + 4, nsid);
}

static void sqe_prp(uint8_t *sqe, uint64_t prp1, uint64_t prp2)
{
    stq_le_p(sqe + 24, prp1);
    stq_le_p(sqe + 32, prp2);
}

static void sqe_cdw(uint8_t *sqe, int n, uint32_t v)
{
    stl_le_p(sqe + 4 * n, v);
}

/* A page-aligned guest buffer of n pages */
static uint64_t nv_pages(HMR *m, int n)
{
    return (h_alloc(m, (n + 1) * PG) + PG - 1) & ~(uint64_t)(PG - 1);
}

static NvmeResult nv_identify(HMR *m, uint16_t h, uint8_t cns, uint32_t nsid,
                              uint64_t buf, uint16_t flags)
{
    uint8_t sqe[64];

    sqe_init(sqe, 0x06, 0, nsid);
    sqe_prp(sqe, buf, 0);
    sqe_cdw(sqe, 10, cns);
    return nv_send(m, h, flags | F_ADMIN, sqe);
}

static void nv_expect(NvmeResult r, uint16_t status)
{
    g_assert_cmphex(r.ioc_status, ==, 0);
    if (status == S_OK) {
        g_assert_false(r.cqe);
    } else {
        g_assert_true(r.cqe);
        g_assert_cmphex(r.status, ==, status);
        g_assert_cmphex(r.cid, ==, 0x1234);
    }
}

static void test_identify(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    uint64_t buf = nv_pages(m, 1);
    g_autofree char *serial = qom_get_str(m, "/machine/peripheral/hd0",
                                          "serial");
    g_autofree char *model = qom_get_str(m, "/machine/peripheral/hd0",
                                         "model");
    uint8_t id[PG];
    NvmeResult r;

    nv_expect(nv_identify(m, h, 1, 0, buf, 0), S_OK);
    qtest_memread(m->qts, buf, id, sizeof(id));
    g_assert_cmpmem(id + 4, strlen(serial), serial, strlen(serial));
    g_assert_cmpint(id[4 + strlen(serial)], ==, ' ');
    g_assert_cmpmem(id + 24, strlen(model), model, strlen(model));
    g_assert_cmpint(id[77], ==, 8);                 /* 1 MiB in 4 KiB */
    g_assert_cmphex(ldl_le_p(id + 516), ==, 1);     /* one namespace */
    g_assert_cmphex(ldl_le_p(id + 536) & 3, ==, 1); /* SGLs */

    qtest_memset(m->qts, buf, 0xff, PG);
    nv_expect(nv_identify(m, h, 0, 1, buf, 0), S_OK);
    qtest_memread(m->qts, buf, id, sizeof(id));
    g_assert_cmpuint(ldq_le_p(id), ==, H_DISK_BLOCKS);     /* NSZE */
    g_assert_cmpuint((ldl_le_p(id + 128) >> 16) & 0xff, ==, 9);   /* LBADS */

    nv_expect(nv_identify(m, h, 2, 0, buf, 0), S_OK);
    qtest_memread(m->qts, buf, id, 8);
    g_assert_cmphex(ldl_le_p(id), ==, 1);
    g_assert_cmphex(ldl_le_p(id + 4), ==, 0);
    nv_expect(nv_identify(m, h, 2, 1, buf, 0), S_OK);
    qtest_memread(m->qts, buf, id, 4);
    g_assert_cmphex(ldl_le_p(id), ==, 0);

    /* the entry on success when the request asks for it */
    r = nv_identify(m, h, 1, 0, buf, F_FORCE_REPLY);
    g_assert_true(r.cqe);
    g_assert_cmphex(r.status, ==, S_OK);
    g_assert_cmphex(r.cid, ==, 0x1234);
    g_assert_cmphex(r.sqid, ==, 0);
    /* refusals */
    nv_expect(nv_identify(m, h, 0, 2, buf, 0), S_INV_NSID);
    nv_expect(nv_identify(m, h, 0x55, 0, buf, 0), S_INV_FIELD);
    h_stop(m);
}

static NvmeResult nv_get_log(HMR *m, uint16_t h, uint8_t lid, uint32_t bytes,
                             uint64_t buf)
{
    uint8_t sqe[64];

    sqe_init(sqe, 0x02, 0, 0xffffffff);
    sqe_prp(sqe, buf, 0);
    sqe_cdw(sqe, 10, lid | ((bytes / 4 - 1) & 0xffff) << 16);
    sqe_cdw(sqe, 11, (bytes / 4 - 1) >> 16);
    return nv_send(m, h, F_ADMIN, sqe);
}

static void test_smart(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    uint64_t buf = nv_pages(m, 1);
    uint8_t log[512];

    nv_expect(nv_get_log(m, h, 0x02, 512, buf), S_OK);
    qtest_memread(m->qts, buf, log, sizeof(log));
    g_assert_cmpuint(lduw_le_p(log + 1), ==, 34 + 273);    /* as LOG SENSE */
    g_assert_cmpuint(ldq_le_p(log + 128), >=, 1200);       /* hours */
    g_assert_cmpuint(ldq_le_p(log + 128), <, 1300);
    g_assert_cmpuint(log[3], ==, 100);
    qtest_memset(m->qts, buf, 0xaa, 256);
    nv_expect(nv_get_log(m, h, 0x01, 256, buf), S_OK);
    qtest_memread(m->qts, buf, log, 256);
    for (int i = 0; i < 256; i++) {
        g_assert_cmpint(log[i], ==, 0);
    }
    nv_expect(nv_get_log(m, h, 0x7f, 512, buf), S_INV_LOG);
    nv_expect(nv_get_log(m, h, 0x02, 2 * 1024 * 1024, buf), S_INV_FIELD);
    h_stop(m);
}

/* Write or read @nlb blocks at @lba with PRP1/PRP2 as given. */
static NvmeResult nv_rw(HMR *m, uint16_t h, bool write, uint64_t lba,
                        uint32_t nlb, uint8_t psdt, uint64_t p1, uint64_t p2)
{
    uint8_t sqe[64];

    sqe_init(sqe, write ? 0x01 : 0x02, psdt, 1);
    sqe_prp(sqe, p1, p2);
    sqe_cdw(sqe, 10, lba);
    sqe_cdw(sqe, 11, lba >> 32);
    sqe_cdw(sqe, 12, nlb - 1);
    return nv_send(m, h, 0, sqe);
}

static void nv_flush(HMR *m, uint16_t h)
{
    uint8_t sqe[64];

    sqe_init(sqe, 0x00, 0, 1);
    nv_expect(nv_send(m, h, 0, sqe), S_OK);
}

static void fill(uint8_t *b, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++) {
        b[i] = seed + i * 7 + (i >> 9);
    }
}

/* What the drive's image holds at lba */
static void image_read(HMR *m, uint64_t lba, void *buf, size_t n)
{
    int fd = open(m->img, O_RDONLY);

    g_assert(fd >= 0);
    g_assert_cmpint(pread(fd, buf, n, lba * 512), ==, n);
    close(fd);
}

/*
 * 20 KiB from PRP1 at 0x200 into a page (3.5 KiB), a PRP list whose four
 * entries name pages scattered in guest memory, the last one partly used.
 */
static void test_rw_prp(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    const uint32_t len = 20 * 1024;
    uint64_t pages = nv_pages(m, 12), list = nv_pages(m, 1);
    uint64_t data[6] = { pages + 0x200, pages + 3 * PG, pages + 1 * PG,
                         pages + 7 * PG, pages + 5 * PG, pages + 9 * PG };
    g_autofree uint8_t *src = g_malloc(len);
    g_autofree uint8_t *dst = g_malloc(len);
    uint32_t off = 0;

    fill(src, len, 3);
    /* the host buffer: segments in PRP order */
    for (int i = 0; i < 6 && off < len; i++) {
        uint32_t l = MIN(len - off, PG - (data[i] & (PG - 1)));

        qtest_memwrite(m->qts, data[i], src + off, l);
        if (i) {
            qtest_writeq(m->qts, list + 8 * (i - 1), data[i]);
        }
        off += l;
    }
    nv_expect(nv_rw(m, h, true, 100, len / 512, 0, data[0], list), S_OK);
    nv_flush(m, h);
    image_read(m, 100, dst, len);
    g_assert_cmpmem(dst, len, src, len);

    /* read it back into the same scattered pages, cleared first */
    qtest_memset(m->qts, pages, 0, 12 * PG);
    nv_expect(nv_rw(m, h, false, 100, len / 512, 0, data[0], list), S_OK);
    off = 0;
    for (int i = 0; i < 6 && off < len; i++) {
        uint32_t l = MIN(len - off, PG - (data[i] & (PG - 1)));

        qtest_memread(m->qts, data[i], dst + off, l);
        off += l;
    }
    g_assert_cmpmem(dst, len, src, len);

    /* two pages: PRP2 is the second page itself */
    nv_expect(nv_rw(m, h, false, 100, 16, 0, pages, pages + 4 * PG), S_OK);
    qtest_memread(m->qts, pages + 4 * PG, dst, PG);
    g_assert_cmpmem(dst, PG, src + PG, PG);
    h_stop(m);
}

static void sgl_desc(uint8_t *p, uint64_t addr, uint32_t len, uint8_t id)
{
    memset(p, 0, 16);
    stq_le_p(p, addr);
    stl_le_p(p + 8, len);
    p[15] = id;
}

/* mpi3mr's SGL form: a last segment of data blocks, or one data block */
static void test_rw_sgl(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    const uint32_t len = 12 * 1024;
    uint64_t b = nv_pages(m, 6), seg = nv_pages(m, 1);
    g_autofree uint8_t *src = g_malloc(len);
    g_autofree uint8_t *dst = g_malloc(len);
    uint8_t sqe[64], d[16 * 3];

    fill(src, len, 9);
    qtest_memwrite(m->qts, b + 4 * PG, src, PG);
    qtest_memwrite(m->qts, b, src + PG, 2 * PG);
    sgl_desc(d, b + 4 * PG, PG, 0x00);
    sgl_desc(d + 16, b, 2 * PG, 0x00);
    qtest_memwrite(m->qts, seg, d, 32);
    sqe_init(sqe, 0x01, 1, 1);
    sgl_desc(sqe + 24, seg, 32, 0x30);
    sqe_cdw(sqe, 10, 40);
    sqe_cdw(sqe, 12, len / 512 - 1);
    nv_expect(nv_send(m, h, 0, sqe), S_OK);
    nv_flush(m, h);
    image_read(m, 40, dst, len);
    g_assert_cmpmem(dst, len, src, len);

    /* read back through one data block descriptor */
    qtest_memset(m->qts, b, 0, 6 * PG);
    sqe_init(sqe, 0x02, 1, 1);
    sgl_desc(sqe + 24, b + 0x10, len, 0x00);
    sqe_cdw(sqe, 10, 40);
    sqe_cdw(sqe, 12, len / 512 - 1);
    nv_expect(nv_send(m, h, 0, sqe), S_OK);
    qtest_memread(m->qts, b + 0x10, dst, len);
    g_assert_cmpmem(dst, len, src, len);

    /* an SGL shorter than the transfer, a bit bucket descriptor */
    sgl_desc(sqe + 24, b, len - 512, 0x00);
    nv_expect(nv_send(m, h, 0, sqe), S_SGL_LEN);
    sgl_desc(sqe + 24, b, len, 0x10);
    nv_expect(nv_send(m, h, 0, sqe), 0x4011);
    /* a last segment out of guest RAM */
    sgl_desc(sqe + 24, 0xfff000000000ull, 32, 0x30);
    nv_expect(nv_send(m, h, 0, sqe), S_XFER_ERROR);
    h_stop(m);
}

static void test_bad_opcode(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    uint64_t buf = nv_pages(m, 1);
    uint8_t sqe[64], log[256];

    sqe_init(sqe, 0x7f, 0, 1);
    nv_expect(nv_send(m, h, F_ADMIN, sqe), S_INV_OPCODE);
    nv_expect(nv_send(m, h, 0, sqe), S_INV_OPCODE);
    /* an I/O opcode on the admin queue, an admin one on the I/O queue */
    sqe_init(sqe, 0x01, 0, 1);
    nv_expect(nv_send(m, h, F_ADMIN, sqe), S_INV_OPCODE);
    sqe_init(sqe, 0x06, 0, 1);
    nv_expect(nv_send(m, h, 0, sqe), S_INV_OPCODE);
    /* reserved PSDT, fused */
    sqe_init(sqe, 0x06, 3, 0);
    sqe_cdw(sqe, 10, 1);
    nv_expect(nv_send(m, h, F_ADMIN, sqe), S_INV_FIELD);
    stl_le_p(sqe, 0x06 | 1 << 8 | 0x1234u << 16);
    nv_expect(nv_send(m, h, F_ADMIN, sqe), S_INV_FIELD);

    /* the six failures in the error log, newest first, and in SMART */
    nv_expect(nv_get_log(m, h, 0x01, 256, buf), S_OK);
    qtest_memread(m->qts, buf, log, 256);
    g_assert_cmpuint(ldq_le_p(log), ==, 6);             /* error count */
    g_assert_cmphex(lduw_le_p(log + 8), ==, 0);         /* admin SQ */
    g_assert_cmphex(lduw_le_p(log + 10), ==, 0x1234);   /* CID */
    g_assert_cmphex(lduw_le_p(log + 12), ==, S_INV_FIELD << 1 | 1);
    g_assert_cmpuint(ldq_le_p(log + 64), ==, 5);
    g_assert_cmpuint(ldq_le_p(log + 128), ==, 4);
    g_assert_cmphex(lduw_le_p(log + 128 + 8), ==, 1);   /* I/O SQ */
    g_assert_cmphex(lduw_le_p(log + 128 + 12), ==, S_INV_OPCODE << 1 | 1);
    g_assert_cmpuint(ldq_le_p(log + 192), ==, 3);
    nv_expect(nv_get_log(m, h, 0x02, 512, buf), S_OK);
    qtest_memread(m->qts, buf + 176, log, 8);
    g_assert_cmpuint(ldq_le_p(log), ==, 6);
    h_stop(m);
}

static void test_bad_prp(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    uint64_t pages = nv_pages(m, 4), list = nv_pages(m, 1);
    const uint64_t outside = 0xfff000000000ull;

    /* out of guest RAM: PRP1, PRP2, the list, an entry of the list */
    nv_expect(nv_identify(m, h, 1, 0, outside, 0), S_XFER_ERROR);
    nv_expect(nv_rw(m, h, false, 0, 16, 0, pages, outside), S_XFER_ERROR);
    nv_expect(nv_rw(m, h, false, 0, 24, 0, pages, outside), S_XFER_ERROR);
    qtest_writeq(m->qts, list, pages + PG);
    qtest_writeq(m->qts, list + 8, outside);
    nv_expect(nv_rw(m, h, true, 0, 24, 0, pages, list), S_XFER_ERROR);
    /* misaligned: PRP1 not dword aligned, an entry not page aligned */
    nv_expect(nv_identify(m, h, 1, 0, pages + 2, 0), S_PRP_OFFSET);
    qtest_writeq(m->qts, list + 8, pages + 2 * PG + 0x100);
    nv_expect(nv_rw(m, h, false, 0, 24, 0, pages, list), S_PRP_OFFSET);
    nv_expect(nv_rw(m, h, false, 0, 16, 0, pages, pages + 0x80),
              S_PRP_OFFSET);
    /* the controller still works */
    qtest_writeq(m->qts, list + 8, pages + 2 * PG);
    nv_expect(nv_rw(m, h, false, 0, 24, 0, pages, list), S_OK);
    h_stop(m);
}

static void test_targets(void)
{
    HMR *m = nv_start(NULL);
    uint64_t buf = nv_pages(m, 1);
    uint8_t sqe[64];

    /* the SAS drive: the IOC refuses the function for it */
    g_assert_cmphex(nv_identify(m, m->handles[1], 1, 0, buf, 0).ioc_status,
                    ==, 0x0001);
    g_assert_cmphex(nv_identify(m, 0x3ff, 1, 0, buf, 0).ioc_status,
                    ==, 0x0042);
    /* a command that is not one 64-byte entry */
    sqe_init(sqe, 0x06, 0, 0);
    {
        uint8_t f[96] = { 0 };

        stw_le_p(f, 0x78);
        f[3] = 0x24;
        stw_le_p(f + 0x0A, m->handles[0]);
        stw_le_p(f + 0x0C, 32);
        stw_le_p(f + 0x0E, F_ADMIN);
        memcpy(f + 0x20, sqe, 64);
        g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0x0007);
    }
    h_stop(m);
}

static void test_oversize(void)
{
    HMR *m = nv_start("-global megaraid-drive.nvme-mdts=65536");
    uint16_t h = m->handles[0];
    uint64_t pages = nv_pages(m, 1), list = nv_pages(m, 1);
    uint8_t id[PG];

    nv_expect(nv_identify(m, h, 1, 0, pages, 0), S_OK);
    qtest_memread(m->qts, pages, id, sizeof(id));
    g_assert_cmpint(id[77], ==, 4);                 /* 64 KiB */
    /* 64 KiB + one block, beyond the namespace, a bad nsid */
    nv_expect(nv_rw(m, h, false, 0, 129, 0, pages, list), S_INV_FIELD);
    nv_expect(nv_rw(m, h, false, H_DISK_BLOCKS - 1, 2, 0, pages, list),
              S_LBA_RANGE);
    nv_expect(nv_rw(m, h, false, 1ull << 40, 1, 0, pages, 0), S_LBA_RANGE);
    nv_expect(nv_rw(m, h, false, 0, 65536, 0, pages, list), S_INV_FIELD);
    {
        uint8_t sqe[64];

        sqe_init(sqe, 0x02, 0, 7);
        sqe_prp(sqe, pages, 0);
        nv_expect(nv_send(m, h, 0, sqe), S_INV_NSID);
    }
    h_stop(m);
}

/* Device Page 0 of @handle (64 bytes) into @page; its IOC status */
static uint16_t nv_device_page0(HMR *m, uint16_t handle, uint8_t *page)
{
    uint64_t buf = h_alloc(m, 64);
    uint8_t f[H_CONFIG_LEN];
    uint16_t st;

    h_config_frame(f, 6, 0x12, 0, 0x02, 0x20000000u | handle, 64 / 4, buf,
                   64);
    qtest_memset(m->qts, buf, 0, 64);
    st = h_admin(m, f, sizeof(f));
    qtest_memread(m->qts, buf, page, 64);
    return st;
}

/*
 * 8 KiB pages and a 64 KiB MDTS: Device Page 0 reports them (and SGL
 * support), Identify's MDTS follows, the PRP walk uses 8 KiB pages.
 */
static void test_page_8k(void)
{
    HMR *m = nv_start("-global megaraid-drive.nvme-page-size=8192 "
                      "-global megaraid-drive.nvme-mdts=65536");
    uint16_t h = m->handles[0];
    const uint32_t big = 8192, len = 20 * 1024;
    uint64_t pages = (h_alloc(m, 6 * big) + big - 1) & ~(uint64_t)(big - 1);
    uint64_t list = nv_pages(m, 1);
    g_autofree uint8_t *src = g_malloc(len);
    g_autofree uint8_t *dst = g_malloc(len);
    uint8_t pg[64], id[PG];

    g_assert_cmphex(nv_device_page0(m, h, pg), ==, 0);
    g_assert_cmpint(pg[0x27], ==, 0x01);                /* PCIe form */
    g_assert_cmpuint(ldl_le_p(pg + 0x28 + 8), ==, 65536);   /* MDTS */
    g_assert_cmphex(ldl_le_p(pg + 0x28 + 12) & 1, ==, 1);   /* SGL */
    g_assert_cmpint(pg[0x28 + 19], ==, 13);             /* 2^13 pages */
    nv_expect(nv_identify(m, h, 1, 0, pages, 0), S_OK);
    qtest_memread(m->qts, pages, id, sizeof(id));
    g_assert_cmpint(id[77], ==, 4);

    /* PRP1 4 KiB into an 8 KiB page, then two list entries of 8 KiB */
    fill(src, len, 21);
    qtest_memwrite(m->qts, pages + 0x1000, src, 0x1000);
    qtest_memwrite(m->qts, pages + 3 * big, src + 0x1000, big);
    qtest_memwrite(m->qts, pages + 2 * big, src + 0x1000 + big, big);
    qtest_writeq(m->qts, list, pages + 3 * big);
    qtest_writeq(m->qts, list + 8, pages + 2 * big);
    nv_expect(nv_rw(m, h, true, 300, len / 512, 0, pages + 0x1000, list),
              S_OK);
    nv_flush(m, h);
    image_read(m, 300, dst, len);
    g_assert_cmpmem(dst, len, src, len);
    /* an entry on a 4 KiB boundary is not a page start here */
    qtest_writeq(m->qts, list + 8, pages + 2 * big + 0x1000);
    nv_expect(nv_rw(m, h, false, 300, len / 512, 0, pages + 0x1000, list),
              S_PRP_OFFSET);
    h_stop(m);
}

/*
 * TARGET RESET with an NVMe Read held by the drive's delay-ms: the Read
 * completes first, aborted (the NVMe entry in an error reply), counted in
 * the reset's TerminationCount.
 */
static void test_target_reset(void)
{
    HMR *m = nv_start(NULL);
    uint16_t h = m->handles[0];
    uint64_t buf = nv_pages(m, 1);
    uint8_t f[96] = { 0 }, tm[32] = { 0 };
    HDesc d;

    qom_set_int(m, "/machine/peripheral/hd0", "delay-ms", 3000);
    stw_le_p(f, 0x79);
    f[3] = 0x24;
    stw_le_p(f + 0x0A, h);
    stw_le_p(f + 0x0C, 64);
    stl_le_p(f + 0x20, 0x02 | 0x1234u << 16);       /* Read, cid 0x1234 */
    stl_le_p(f + 0x24, 1);
    stq_le_p(f + 0x20 + 24, buf);
    stl_le_p(f + 0x20 + 48, 7);                     /* 8 blocks */
    h_submit_admin(m, f, sizeof(f));
    stw_le_p(tm, 5);
    tm[3] = 0x21;
    stw_le_p(tm + 0x0A, h);
    tm[0x0E] = 0x03;                                /* TARGET RESET */
    h_submit_admin(m, tm, sizeof(tm));
    g_assert_true(h_admin_reply(m, &d, 2000));
    g_assert_cmphex(d.tag, ==, 0x79);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(ldl_le_p(d.frame + 28) >> 17, ==, 0x0007);
    g_assert_true(h_admin_reply(m, &d, 2000));
    g_assert_cmphex(d.tag, ==, 5);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmpuint(ldl_le_p(d.frame + 0x10), ==, 1);
    qom_set_int(m, "/machine/peripheral/hd0", "delay-ms", 0);
    nv_expect(nv_rw(m, h, false, 0, 8, 0, buf, 0), S_OK);
    h_stop(m);
}

/* A RAID 1 VD, its members and its spare: the IOC refuses them all */
static void test_vd(void)
{
    uint8_t f[96] = { 0 };
    Rig r;
    MR *m;

    rig_create(&r, 3, 2, 1, RAID_LEVEL_1);
    m = mr_start(&r, NULL);
    stw_le_p(f, 0x7a);
    f[3] = 0x24;
    stw_le_p(f + 0x0C, 64);
    stw_le_p(f + 0x0E, F_ADMIN);
    stl_le_p(f + 0x20, 0x06 | 0x1234u << 16);       /* Identify */
    stl_le_p(f + 0x20 + 40, 1);
    stq_le_p(f + 0x20 + 24, m->buf);
    stw_le_p(f + 0x0A, VD_HANDLE);
    g_assert_cmphex(mr_admin(m, f, sizeof(f)), ==, 0x0001);
    for (uint16_t h = 1; h <= 3; h++) {
        stw_le_p(f + 0x0A, h);
        g_assert_cmphex(mr_admin(m, f, sizeof(f)), ==, 0x0043);
    }
    mr_stop(&r);
    rig_destroy(&r);
}

static void test_props(void)
{
    static const struct {
        const char *props;
        const char *named;
    } bad[] = {
        { "nvme-page-size=2048", "nvme-page-size" },
        { "nvme-page-size=16384", "nvme-page-size" },
        { "nvme-mdts=3000", "nvme-mdts" },
        { "nvme-mdts=2048", "nvme-mdts" },
        { "nvme-mdts=2097152", "nvme-mdts" },
        { "nvme-page-size=8192,nvme-mdts=4096", "nvme-mdts" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *args = g_strdup_printf(
            "-machine q35 -device megaraid-9600,id=r -blockdev node-name=d,"
            "driver=null-co,size=1048576 -device megaraid-drive,bus=r.0,"
            "drive=d,%s", bad[i].props);
        g_autofree char *err = NULL;

        g_assert_cmpint(h_run_qemu(args, &err), ==, 1);
        g_assert_nonnull(strstr(err, bad[i].named));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9600/nvme/identify", test_identify);
    qtest_add_func("/megaraid-9600/nvme/smart", test_smart);
    qtest_add_func("/megaraid-9600/nvme/rw-prp", test_rw_prp);
    qtest_add_func("/megaraid-9600/nvme/rw-sgl", test_rw_sgl);
    qtest_add_func("/megaraid-9600/nvme/bad-opcode", test_bad_opcode);
    qtest_add_func("/megaraid-9600/nvme/bad-prp", test_bad_prp);
    qtest_add_func("/megaraid-9600/nvme/targets", test_targets);
    qtest_add_func("/megaraid-9600/nvme/oversize", test_oversize);
    qtest_add_func("/megaraid-9600/nvme/page-8k", test_page_8k);
    qtest_add_func("/megaraid-9600/nvme/target-reset", test_target_reset);
    qtest_add_func("/megaraid-9600/nvme/vd", test_vd);
    qtest_add_func("/megaraid-9600/nvme/props", test_props);
    return g_test_run();
}
