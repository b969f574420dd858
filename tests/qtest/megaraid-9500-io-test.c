/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of JBOD I/O through the megaraid-9500 Fusion host
 * interface: a WRITE and READ of a JBOD drive through a fast-path frame
 * with the data compared (also on the drive's image), and NVMe PRP lists
 * as megaraid_sas builds them, malformed ones refused.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/jbod-io", test_io);
    qtest_add_func("/megaraid-9500/nvme-prp", test_prp);
    return g_test_run();
}
