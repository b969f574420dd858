/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: unit tests of the SCSI target's pure builders (sense,
 * INQUIRY/VPD, READ CAPACITY, REPORT LUNS, MODE SENSE/SELECT, LOG SENSE,
 * ATA PASS-THROUGH) on hand-made logical units (a JBOD drive's identity,
 * with no drive object behind it), without a controller, plus random CDBs
 * through every builder.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "scsi/constants.h"
#include "hw/megaraid/target/target-int.h"
#include "hw/megaraid/bay/drive-int.h"

static MRUnit *make_unit(MRDriveInterface iface, MRDriveMedia media)
{
    MRUnit *d = g_new0(MRUnit, 1);
    const MRDriveProfile *p = mr_drive_profile(iface, media);

    g_assert(p);
    d->iface = iface;
    d->media = media;
    d->vendor = g_strdup(p->vendor);
    d->model = g_strdup(p->model);
    d->firmware = g_strdup(p->firmware);
    d->serial = g_strdup("SER123");
    d->wwn = 0x5000c500a1b2c3d0ULL;
    d->block_size = 512;
    d->phys_block_size = 512;
    d->num_blocks = 131072;
    d->rotation_rate = p->rotation_rate;
    d->discard = media == MR_MEDIA_SSD;
    d->ts.wce = true;
    d->ts.saved_wce = true;
    d->ts.default_wce = true;
    d->ts.mrie = 6;
    d->ts.realized_ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    return d;
}

static void free_unit(MRUnit *d)
{
    g_free(d->vendor);
    g_free(d->model);
    g_free(d->firmware);
    g_free(d->serial);
    g_free(d);
}

static void assert_cdb_field(const MRSense *s, uint8_t asc, uint16_t byte,
                             int bit)
{
    g_assert_cmpint(s->key, ==, ILLEGAL_REQUEST);
    g_assert_cmpint(s->asc, ==, asc);
    g_assert_true(s->sks_valid);
    g_assert_cmpint(s->sks_field, ==, byte);
    g_assert_cmpint(s->sks_bit, ==, bit);
}

static void test_sense_formats(void)
{
    uint8_t b[96];
    MRSense s;
    size_t n;

    mr_sense_bad_cdb(&s, 2, 5);
    n = mr_sense_build(&s, false, b, sizeof(b));
    g_assert_cmpint(n, ==, 18);
    g_assert_cmpint(b[0], ==, 0x70);
    g_assert_cmpint(b[2], ==, ILLEGAL_REQUEST);
    g_assert_cmpint(b[7], ==, 10);
    g_assert_cmpint(b[12], ==, 0x24);
    g_assert_cmpint(b[15], ==, 0x80 | 0x40 | 0x08 | 5);  /* SKSV C/D BPV */
    g_assert_cmpint(mr_get16(b + 16), ==, 2);

    n = mr_sense_build(&s, true, b, sizeof(b));
    g_assert_cmpint(b[0], ==, 0x72);
    g_assert_cmpint(b[1], ==, ILLEGAL_REQUEST);
    g_assert_cmpint(b[2], ==, 0x24);
    g_assert_cmpint(b[7], ==, n - 8);
    g_assert_cmpint(b[8], ==, 0x02);                    /* SKS descriptor */
    g_assert_cmpint(b[12], ==, 0x80 | 0x40 | 0x08 | 5);

    mr_sense_set(&s, MEDIUM_ERROR, 0x11, 0x00);
    s.info_valid = true;
    s.info = 0x123456789ULL;
    n = mr_sense_build(&s, false, b, sizeof(b));
    g_assert_cmpint(b[0], ==, 0x70);                    /* too big: no VALID */
    s.info = 0x1234;
    n = mr_sense_build(&s, false, b, sizeof(b));
    g_assert_cmpint(b[0], ==, 0xf0);
    g_assert_cmpint(mr_get32(b + 3), ==, 0x1234);
    n = mr_sense_build(&s, true, b, sizeof(b));
    g_assert_cmpint(b[8], ==, 0x00);                    /* information */
    g_assert_cmpint(b[10], ==, 0x80);
    g_assert_cmpint(mr_get64(b + 12), ==, 0x1234);

    /* a short buffer is never overrun */
    memset(b, 0xee, sizeof(b));
    n = mr_sense_build(&s, true, b, 5);
    g_assert_cmpint(n, ==, 5);
    g_assert_cmpint(b[5], ==, 0xee);
}

static void test_inquiry_standard(void)
{
    MRUnit *d = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    uint8_t cdb[16] = { INQUIRY, 0, 0, 0, 96 };
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    MRSense s;
    int n;

    n = mr_build_inquiry(d, 0, cdb, b, &s);
    g_assert_cmpint(n, ==, 96);
    g_assert_cmpint(b[0], ==, TYPE_DISK);
    g_assert_cmpint(b[2], ==, 0x06);
    g_assert_cmpint(b[3], ==, 0x12);
    g_assert_cmpint(b[4], ==, 91);
    g_assert_true(b[7] & 0x02);
    g_assert_cmpmem(b + 8, 8, "SEAGATE ", 8);
    g_assert_cmpmem(b + 16, 16, "XS3840SE70084   ", 16);
    g_assert_cmpmem(b + 32, 4, "0003", 4);

    /* LUN 1: peripheral qualifier 3, no device type */
    n = mr_build_inquiry(d, 1, cdb, b, &s);
    g_assert_cmpint(b[0], ==, 0x7f);

    cdb[1] = 0x02;                                      /* CMDDT */
    g_assert_cmpint(mr_build_inquiry(d, 0, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 1, 1);
    cdb[1] = 0;
    cdb[2] = 0x80;                                      /* page, no EVPD */
    g_assert_cmpint(mr_build_inquiry(d, 0, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, -1);
    free_unit(d);
    g_free(b);
}

static void test_inquiry_revision(void)
{
    MRUnit *d = make_unit(MR_IF_SATA, MR_MEDIA_SSD);
    char rev[4], prod[16];

    mr_inquiry_revision(d, rev);
    g_assert_cmpmem(rev, 4, "0132", 4);                 /* XCV10132 */
    mr_inquiry_product(d, prod);
    g_assert_cmpmem(prod, 16, "INTEL SSDSC2KB03", 16);
    free_unit(d);
    d = make_unit(MR_IF_NVME, MR_MEDIA_SSD);
    mr_inquiry_revision(d, rev);
    g_assert_cmpmem(rev, 4, "U200", 4);                 /* E2MU200 */
    g_free(d->firmware);
    d->firmware = g_strdup("AB  ");
    mr_inquiry_revision(d, rev);
    g_assert_cmpmem(rev, 4, "AB  ", 4);
    free_unit(d);
}

static int vpd(MRUnit *d, uint8_t page, uint8_t *b, MRSense *s)
{
    uint8_t cdb[16] = { INQUIRY, 1, page, 0x10, 0 };

    return mr_build_inquiry(d, 0, cdb, b, s);
}

static void test_vpd_pages(void)
{
    MRUnit *sas = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    MRUnit *sata = make_unit(MR_IF_SATA, MR_MEDIA_SSD);
    MRUnit *hdd = make_unit(MR_IF_SAS, MR_MEDIA_HDD);
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    uint16_t id[256];
    MRSense s;
    int n, i;

    n = vpd(sas, 0x00, b, &s);
    g_assert_cmpint(n, ==, 4 + 6);
    g_assert_null(memchr(b + 4, 0x89, n - 4));
    n = vpd(sata, 0x00, b, &s);
    g_assert_cmpint(n, ==, 4 + 7);
    g_assert_nonnull(memchr(b + 4, 0x89, n - 4));
    for (i = 4; i < n; i++) {
        uint8_t *p = g_malloc0(MR_RESP_MAX);

        /* every listed page exists, and its length field is right */
        int l = vpd(sata, b[i], p, &s);
        g_assert_cmpint(l, >, 4);
        g_assert_cmpint(p[1], ==, b[i]);
        g_assert_cmpint(mr_get16(p + 2), ==, l - 4);
        g_free(p);
    }
    g_assert_cmpint(vpd(sas, 0x89, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, -1);

    n = vpd(sas, 0x80, b, &s);
    g_assert_cmpint(n, ==, 4 + 6);
    g_assert_cmpmem(b + 4, 6, "SER123", 6);

    n = vpd(sas, 0x83, b, &s);
    g_assert_cmpint(b[4], ==, 0x01);                    /* binary */
    g_assert_cmpint(b[5], ==, 0x03);                    /* LU, NAA */
    g_assert_cmpint(b[7], ==, 8);
    g_assert_cmpint(mr_get64(b + 8), ==, sas->wwn);
    g_assert_cmpint(b[16], ==, 0x61);                   /* SAS, binary */
    g_assert_cmpint(b[17], ==, 0x93);                   /* PIV, port, NAA */
    g_assert_cmpint(mr_get64(b + 20), ==, sas->wwn + 1);

    n = vpd(sas, 0xb0, b, &s);
    g_assert_cmpint(mr_get32(b + 8), ==, MR_MAX_XFER_BYTES / 512);
    g_assert_cmpint(mr_get32(b + 20), ==, MR_MAX_UNMAP_BLOCKS);
    g_assert_cmpint(mr_get32(b + 24), ==, MR_MAX_UNMAP_DESCS);
    n = vpd(hdd, 0xb0, b, &s);
    g_assert_cmpint(mr_get32(b + 20), ==, 0);

    n = vpd(sas, 0xb1, b, &s);
    g_assert_cmpint(mr_get16(b + 4), ==, 1);
    g_assert_cmpint(b[7] & 0xf, ==, 3);
    n = vpd(hdd, 0xb1, b, &s);
    g_assert_cmpint(mr_get16(b + 4), ==, 7200);
    g_assert_cmpint(b[7] & 0xf, ==, 2);

    n = vpd(sas, 0xb2, b, &s);
    g_assert_cmpint(b[5], ==, 0x80 | 0x40 | 0x20 | 0x04);
    n = vpd(hdd, 0xb2, b, &s);
    g_assert_cmpint(b[5], ==, 0);

    n = vpd(sata, 0x89, b, &s);
    g_assert_cmpint(n, ==, 572);
    g_assert_cmpint(b[56], ==, 0xec);
    mr_ata_identify(sata, id);
    for (i = 0; i < 256; i++) {
        g_assert_cmpint(b[60 + 2 * i] | (b[61 + 2 * i] << 8), ==, id[i]);
    }
    free_unit(sas);
    free_unit(sata);
    free_unit(hdd);
    g_free(b);
}

static void test_read_capacity(void)
{
    MRUnit *d = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    uint8_t rc10[10] = { READ_CAPACITY_10 };
    uint8_t rc16[16] = { SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16 };
    uint8_t b[64];
    MRSense s;

    g_assert_cmpint(mr_build_read_capacity(d, rc10, b, &s), ==, 8);
    g_assert_cmpint(mr_get32(b), ==, 131071);
    g_assert_cmpint(mr_get32(b + 4), ==, 512);
    d->num_blocks = 1ULL << 33;
    mr_build_read_capacity(d, rc10, b, &s);
    g_assert_cmpint(mr_get32(b), ==, 0xffffffff);
    g_assert_cmpint(mr_build_read_capacity(d, rc16, b, &s), ==, 32);
    g_assert_cmpint(mr_get64(b), ==, (1ULL << 33) - 1);
    g_assert_cmpint(b[14], ==, 0xc0);                   /* LBPME LBPRZ */
    d->phys_block_size = 4096;
    d->discard = false;
    mr_build_read_capacity(d, rc16, b, &s);
    g_assert_cmpint(b[13] & 0xf, ==, 3);
    g_assert_cmpint(b[14], ==, 0);
    rc10[5] = 1;                                        /* LBA, PMI=0 */
    g_assert_cmpint(mr_build_read_capacity(d, rc10, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, -1);
    free_unit(d);
}

static void test_report_luns(void)
{
    uint8_t cdb[12] = { REPORT_LUNS, 0, 0, 0, 0, 0, 0, 0, 0, 16 };
    uint8_t b[64];
    MRSense s;

    g_assert_cmpint(mr_build_report_luns(cdb, b, &s), ==, 16);
    g_assert_cmpint(mr_get32(b), ==, 8);
    g_assert_cmpint(mr_get64(b + 8), ==, 0);
    cdb[9] = 15;
    g_assert_cmpint(mr_build_report_luns(cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 6, -1);
    cdb[9] = 16;
    cdb[2] = 0x03;
    g_assert_cmpint(mr_build_report_luns(cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, -1);
}

static void test_read_defect(void)
{
    uint8_t c10[10] = { READ_DEFECT_DATA, 0, 0x0c, 0, 0, 0, 0, 0, 4, 0 };
    uint8_t c12[12] = { READ_DEFECT_DATA_12, 0x1d, 0, 0, 0, 0, 0, 0, 0, 8,
                        0, 0 };
    uint8_t b[16];
    MRSense s;

    g_assert_cmpint(mr_build_read_defect(c10, b, &s), ==, 4);
    g_assert_cmpint(b[1], ==, 0x0c);                    /* GLISTV, fmt 4 */
    g_assert_cmpint(mr_get16(b + 2), ==, 0);
    g_assert_cmpint(mr_build_read_defect(c12, b, &s), ==, 8);
    g_assert_cmpint(b[1], ==, 0x1d);
    g_assert_cmpint(mr_get32(b + 4), ==, 0);
    c10[2] = 0x0f;                                      /* vendor format */
    g_assert_cmpint(mr_build_read_defect(c10, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, 2);
}

static void test_mode_sense(void)
{
    MRUnit *d = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    uint8_t ms6[6] = { MODE_SENSE, 0, 0x08, 0, 255 };
    uint8_t ms10[10] = { MODE_SENSE_10, 0x10, 0x3f, 0, 0, 0, 0, 0x10, 0 };
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    MRSense s;
    int n;

    n = mr_build_mode_sense(d, ms6, b, &s);
    g_assert_cmpint(n, ==, 4 + 8 + 20);
    g_assert_cmpint(b[0], ==, n - 1);
    g_assert_cmpint(b[2], ==, 0x10);                    /* DPOFUA */
    g_assert_cmpint(b[3], ==, 8);
    g_assert_cmpint(mr_get32(b + 4), ==, 131072);
    g_assert_cmpint(mr_get32(b + 8) & 0xffffff, ==, 512);
    g_assert_cmpint(b[12], ==, 0x08);
    g_assert_cmpint(b[13], ==, 0x12);
    g_assert_cmpint(b[14], ==, 0x04);                   /* WCE */

    ms6[1] = 0x08;                                      /* DBD */
    ms6[2] = 0x48;                                      /* changeable */
    n = mr_build_mode_sense(d, ms6, b, &s);
    g_assert_cmpint(n, ==, 4 + 20);
    g_assert_cmpint(b[3], ==, 0);
    g_assert_cmpint(b[6], ==, 0x04);                    /* only WCE */
    g_assert_cmpint(b[8], ==, 0);

    n = mr_build_mode_sense(d, ms10, b, &s);
    g_assert_cmpint(n, ==, 8 + 16 + 12 + 20 + 12 + 12);
    g_assert_cmpint(mr_get16(b), ==, n - 2);
    g_assert_cmpint(b[4], ==, 1);                       /* LONGLBA */
    g_assert_cmpint(mr_get16(b + 6), ==, 16);
    g_assert_cmpint(mr_get64(b + 8), ==, 131072);
    g_assert_cmpint(mr_get32(b + 20), ==, 512);

    ms6[2] = 0x05;                                      /* no such page */
    g_assert_cmpint(mr_build_mode_sense(d, ms6, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, 5);
    ms6[2] = 0x08;
    ms6[3] = 0x01;                                      /* subpage */
    g_assert_cmpint(mr_build_mode_sense(d, ms6, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 3, -1);
    free_unit(d);
    g_free(b);
}

static void test_mode_select(void)
{
    MRUnit *d = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    uint8_t ms6[6] = { MODE_SENSE, 0x08, 0x08, 0, 255 };
    uint8_t sel[6] = { MODE_SELECT, 0x10, 0, 0, 0 };
    uint8_t ctl[6] = { MODE_SENSE, 0x08, 0x0a, 0, 255 };
    uint8_t param[64];
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    MRSense s;
    int n;

    /* what the kernel does for cache_type: sense, flip WCE, select */
    n = mr_build_mode_sense(d, ms6, b, &s);
    memset(param, 0, 4);
    memcpy(param + 4, b + 4, n - 4);
    param[6] &= ~0x04;
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, n, &s), ==, 0);
    g_assert_false(d->ts.wce);
    g_assert_true(d->ts.saved_wce);
    mr_build_mode_sense(d, ms6, b, &s);
    g_assert_cmpint(b[6], ==, 0);

    sel[1] |= 0x01;                                     /* SP */
    param[6] |= 0x04;
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, n, &s), ==, 0);
    g_assert_true(d->ts.wce);
    g_assert_true(d->ts.saved_wce);

    /* a bit that is not changeable: rejected, nothing applied */
    param[6] = 0x00;
    param[4 + 13] ^= 0x01;
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, n, &s), ==, -1);
    g_assert_cmpint(s.asc, ==, 0x26);
    g_assert_cmpint(s.sks_field, ==, 4 + 13);
    g_assert_true(d->ts.wce);
    param[4 + 13] ^= 0x01;

    /* page longer than the list */
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, n - 1, &s), ==, -1);
    g_assert_cmpint(s.asc, ==, 0x1a);
    /* header only */
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, 3, &s), ==, -1);
    g_assert_cmpint(s.asc, ==, 0x1a);

    /* D_SENSE in the control page */
    n = mr_build_mode_sense(d, ctl, b, &s);
    memset(param, 0, 4);
    memcpy(param + 4, b + 4, n - 4);
    param[6] |= 0x04;
    g_assert_cmpint(mr_apply_mode_select(d, sel, param, n, &s), ==, 0);
    g_assert_true(d->ts.d_sense);
    free_unit(d);
    g_free(b);
}

static void test_log_sense(void)
{
    MRUnit *d = make_unit(MR_IF_SAS, MR_MEDIA_SSD);
    MRUnit *hdd = make_unit(MR_IF_SAS, MR_MEDIA_HDD);
    uint8_t cdb[10] = { LOG_SENSE, 0, 0x40, 0, 0, 0, 0, 0x10, 0 };
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    MRSense s;
    int n, i;

    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(b[0], ==, 0);
    g_assert_cmpint(mr_get16(b + 2), ==, n - 4);
    g_assert_nonnull(memchr(b + 4, 0x11, n - 4));
    for (i = 4; i < n; i++) {
        uint8_t *p = g_malloc0(MR_RESP_MAX);
        uint8_t c2[10] = { LOG_SENSE, 0, 0x40 | b[i], 0, 0, 0, 0, 0x10, 0 };
        int l = mr_build_log_sense(d, c2, p, &s);

        g_assert_cmpint(l, >=, 4);
        g_assert_cmpint(p[0] & 0x3f, ==, b[i]);
        g_assert_cmpint(mr_get16(p + 2), ==, l - 4);
        g_free(p);
    }
    n = mr_build_log_sense(hdd, cdb, b, &s);
    g_assert_null(memchr(b + 4, 0x11, n - 4));

    cdb[2] = 0x4d;                                      /* temperature */
    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(mr_get16(b + 4), ==, 0);
    g_assert_cmpint(b[9], ==, MR_TEMP_C);

    d->ts.blocks_read = 100;
    cdb[2] = 0x43;                                      /* read errors */
    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(mr_get16(b + 4 + 5 * 12), ==, 5);
    g_assert_cmpint(mr_get64(b + 8 + 5 * 12), ==, 100 * 512);

    /* PARAMETER POINTER: parameters from code 4 on, none past the last */
    cdb[6] = 4;
    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(n, ==, 4 + 3 * 12);
    g_assert_cmpint(mr_get16(b + 4), ==, 4);
    cdb[6] = 7;
    g_assert_cmpint(mr_build_log_sense(d, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 5, -1);
    cdb[6] = 0;

    mr_selftest_record(d, 1);
    cdb[2] = 0x50;                                      /* self-test */
    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(n, ==, 4 + 20 * 20);
    g_assert_cmpint(b[8], ==, 1 << 5);                  /* bg short, ok */

    cdb[2] = 0x40;
    cdb[3] = 0xff;
    n = mr_build_log_sense(d, cdb, b, &s);
    g_assert_cmpint(b[0], ==, 0x40);
    g_assert_cmpint(b[1], ==, 0xff);
    cdb[2] = 0x4d;
    g_assert_cmpint(mr_build_log_sense(d, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 3, -1);
    cdb[3] = 0;
    cdb[1] = 0x02;                                      /* PPC */
    g_assert_cmpint(mr_build_log_sense(d, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 1, 1);
    free_unit(d);
    free_unit(hdd);
    g_free(b);
}

static int ata16(MRUnit *d, uint8_t proto, bool ck, uint8_t feature,
                 uint8_t lba_lo, uint8_t mid, uint8_t high, uint8_t cmd,
                 uint8_t *b, uint32_t *len, MRSense *s)
{
    uint8_t cdb[16] = { ATA_PASSTHROUGH_16, proto << 1,
                        (ck ? 0x20 : 0) | 0x0e, 0, feature, 0, 1, 0,
                        lba_lo, 0, mid, 0, high, 0x40, cmd, 0 };

    return mr_ata_passthrough(d, cdb, b, len, s);
}

static uint8_t sum512(const uint8_t *b)
{
    uint8_t sum = 0;
    int i;

    for (i = 0; i < 512; i++) {
        sum += b[i];
    }
    return sum;
}

static void test_ata(void)
{
    MRUnit *d = make_unit(MR_IF_SATA, MR_MEDIA_SSD);
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    uint8_t sb[96];
    uint32_t len;
    MRSense s;

    g_assert_cmpint(ata16(d, 4, false, 0, 0, 0, 0, 0xec, b, &len, &s), ==, 0);
    g_assert_cmpint(len, ==, 512);
    g_assert_cmpint(sum512(b), ==, 0);
    g_assert_cmpint(b[510], ==, 0xa5);
    g_assert_cmpmem(b + 54, 4, "NIET", 4);              /* "INTE" swapped */
    g_assert_cmpint(b[2 * 217], ==, 1);                 /* non-rotating */
    g_assert_cmpint(b[2 * 169] & 1, ==, 1);             /* TRIM */
    g_assert_cmpint(b[2 * 100] | b[2 * 100 + 1] << 8, ==, 131072 & 0xffff);
    g_assert_cmpint(b[2 * 101] | b[2 * 101 + 1] << 8, ==, 131072 >> 16);

    g_assert_cmpint(ata16(d, 4, false, 0xd0, 0, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 0);
    g_assert_cmpint(sum512(b), ==, 0);
    g_assert_cmpint(b[2], ==, 5);                       /* first attribute */
    g_assert_cmpint(ata16(d, 4, false, 0xd1, 0, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 0);
    g_assert_cmpint(sum512(b), ==, 0);

    /* RETURN STATUS with CK_COND: the descriptor carries 4Fh/C2h */
    g_assert_cmpint(ata16(d, 3, true, 0xda, 0, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 1);
    g_assert_cmpint(len, ==, 0);
    g_assert_cmpint(s.key, ==, RECOVERED_ERROR);
    g_assert_cmpint(s.ascq, ==, 0x1d);
    mr_sense_build(&s, false, sb, sizeof(sb));
    g_assert_cmpint(sb[0], ==, 0x72);                   /* always desc */
    g_assert_cmpint(sb[8], ==, 0x09);
    g_assert_cmpint(sb[9], ==, 0x0c);
    g_assert_cmpint(sb[8 + 9], ==, 0x4f);
    g_assert_cmpint(sb[8 + 11], ==, 0xc2);
    g_assert_cmpint(sb[8 + 13], ==, 0x50);

    /* SMART without its signature: aborted with ABRT */
    g_assert_cmpint(ata16(d, 3, false, 0xda, 0, 0, 0, 0xb0, b, &len, &s),
                    ==, 1);
    g_assert_cmpint(s.key, ==, ABORTED_COMMAND);
    g_assert_cmpint(s.ata[1], ==, 0x04);
    g_assert_cmpint(s.ata[11], ==, 0x51);

    /* CHECK POWER MODE */
    g_assert_cmpint(ata16(d, 3, true, 0, 0, 0, 0, 0xe5, b, &len, &s), ==, 1);
    g_assert_cmpint(s.ata[3], ==, 0xff);

    /* self-test, then the SMART self-test log holds it */
    g_assert_cmpint(ata16(d, 3, false, 0xd4, 1, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 0);
    g_assert_cmpint(ata16(d, 4, false, 0xd5, 6, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 0);
    g_assert_cmpint(sum512(b), ==, 0);
    g_assert_cmpint(b[2], ==, 1);
    g_assert_cmpint(b[508], ==, 1);

    /* unknown log, unknown command, bad protocol */
    g_assert_cmpint(ata16(d, 4, false, 0xd5, 0x42, 0x4f, 0xc2, 0xb0, b, &len,
                          &s), ==, 1);
    g_assert_cmpint(s.key, ==, ABORTED_COMMAND);
    g_assert_cmpint(ata16(d, 3, false, 0, 0, 0, 0, 0xca, b, &len, &s), ==, 1);
    g_assert_cmpint(ata16(d, 7, false, 0, 0, 0, 0, 0xec, b, &len, &s), ==,
                    -1);
    assert_cdb_field(&s, 0x24, 1, 4);
    free_unit(d);
    g_free(b);
}

static void test_report_opcodes(void)
{
    MRUnit *sas = make_unit(MR_IF_SAS, MR_MEDIA_HDD);
    MRUnit *sata = make_unit(MR_IF_SATA, MR_MEDIA_SSD);
    uint8_t cdb[12] = { MAINTENANCE_IN, 0x0c, 0, 0, 0, 0, 0, 0, 0x10, 0 };
    uint8_t *b = g_malloc0(MR_RESP_MAX);
    MRSense s;
    int n, i;
    bool ata = false, unmap = false, rc16 = false;

    n = mr_build_report_opcodes(sas, cdb, b, &s);
    g_assert_cmpint(mr_get32(b), ==, n - 4);
    g_assert_cmpint((n - 4) % 8, ==, 0);
    for (i = 4; i < n; i += 8) {
        ata |= b[i] == ATA_PASSTHROUGH_16;
        unmap |= b[i] == UNMAP;
        if (b[i] == SERVICE_ACTION_IN_16) {
            rc16 = mr_get16(b + i + 2) == SAI_READ_CAPACITY_16 &&
                   (b[i + 5] & 1) && mr_get16(b + i + 6) == 16;
        }
    }
    g_assert_false(ata);                        /* SAS: no ATA PT */
    g_assert_false(unmap);                      /* HDD: no discard */
    g_assert_true(rc16);
    n = mr_build_report_opcodes(sata, cdb, b, &s);
    g_assert_nonnull(memchr(b + 4, ATA_PASSTHROUGH_16, n - 4));

    /* one command: READ(16), usage data starts with the opcode */
    cdb[2] = 1;
    cdb[3] = READ_16;
    n = mr_build_report_opcodes(sas, cdb, b, &s);
    g_assert_cmpint(n, ==, 4 + 16);
    g_assert_cmpint(b[1] & 7, ==, 3);
    g_assert_cmpint(b[4], ==, READ_16);
    /* one command that is not implemented */
    cdb[3] = 0x04;                              /* FORMAT UNIT */
    n = mr_build_report_opcodes(sas, cdb, b, &s);
    g_assert_cmpint(n, ==, 4);
    g_assert_cmpint(b[1] & 7, ==, 1);
    /* option 1 on an opcode with service actions, option 2 without */
    cdb[3] = SERVICE_ACTION_IN_16;
    g_assert_cmpint(mr_build_report_opcodes(sas, cdb, b, &s), ==, -1);
    assert_cdb_field(&s, 0x24, 2, 2);
    cdb[2] = 2;
    cdb[5] = SAI_READ_CAPACITY_16;
    g_assert_cmpint(mr_build_report_opcodes(sas, cdb, b, &s), ==, 4 + 16);
    cdb[3] = READ_16;
    g_assert_cmpint(mr_build_report_opcodes(sas, cdb, b, &s), ==, -1);
    /* command timeouts descriptor with RCTD */
    cdb[2] = 0x83;
    cdb[3] = READ_10;
    n = mr_build_report_opcodes(sas, cdb, b, &s);
    g_assert_cmpint(n, ==, 4 + 10 + 12);
    g_assert_true(b[1] & 0x80);
    cdb[2] = 5;
    g_assert_cmpint(mr_build_report_opcodes(sas, cdb, b, &s), ==, -1);
    free_unit(sas);
    free_unit(sata);
    g_free(b);
}

/* Random CDBs through every builder: no crash, lengths in bounds. */
static void test_random_cdbs(void)
{
    static const uint8_t ops[] = {
        INQUIRY, READ_CAPACITY_10, SERVICE_ACTION_IN_16, REPORT_LUNS,
        MODE_SENSE, MODE_SENSE_10, LOG_SENSE, ATA_PASSTHROUGH_12,
        ATA_PASSTHROUGH_16, MODE_SELECT, MODE_SELECT_10, MAINTENANCE_IN,
        READ_DEFECT_DATA, READ_DEFECT_DATA_12,
    };
    GRand *r = g_rand_new_with_seed(9600);
    uint8_t *b = g_malloc0(MR_RESP_MAX + 64);
    uint8_t cdb[32], param[300];
    int i, k, iface;

    for (iface = 0; iface < 3; iface++) {
        MRUnit *d = make_unit(iface, MR_MEDIA_SSD);

        for (i = 0; i < 20000; i++) {
            MRSense s;
            uint32_t len;
            int n = 0;

            for (k = 0; k < 32; k++) {
                cdb[k] = g_rand_int(r);
            }
            cdb[0] = ops[g_rand_int_range(r, 0, ARRAY_SIZE(ops))];
            memset(b + MR_RESP_MAX, 0x5a, 64);
            switch (cdb[0]) {
            case INQUIRY:
                n = mr_build_inquiry(d, g_rand_int(r) & 1, cdb, b, &s);
                break;
            case READ_CAPACITY_10:
            case SERVICE_ACTION_IN_16:
                n = mr_build_read_capacity(d, cdb, b, &s);
                break;
            case REPORT_LUNS:
                n = mr_build_report_luns(cdb, b, &s);
                break;
            case READ_DEFECT_DATA:
            case READ_DEFECT_DATA_12:
                n = mr_build_read_defect(cdb, b, &s);
                break;
            case MODE_SENSE:
            case MODE_SENSE_10:
                n = mr_build_mode_sense(d, cdb, b, &s);
                break;
            case LOG_SENSE:
                n = mr_build_log_sense(d, cdb, b, &s);
                break;
            case MAINTENANCE_IN:
                n = mr_build_report_opcodes(d, cdb, b, &s);
                break;
            case MODE_SELECT:
            case MODE_SELECT_10:
                len = g_rand_int_range(r, 0, sizeof(param));
                for (k = 0; k < len; k++) {
                    param[k] = g_rand_int(r);
                }
                n = mr_apply_mode_select(d, cdb, param, len, &s);
                break;
            default:
                n = mr_ata_passthrough(d, cdb, b, &len, &s);
                if (n >= 0) {
                    g_assert_cmpint(len, <=, 512);
                }
                break;
            }
            g_assert_cmpint(n, <=, MR_RESP_MAX);
            g_assert_cmpint(b[MR_RESP_MAX], ==, 0x5a);
            g_assert_cmpint(b[MR_RESP_MAX + 63], ==, 0x5a);
            if (n < 0) {
                uint8_t sb[96];

                g_assert_cmpint(mr_sense_build(&s, i & 1, sb, sizeof(sb)),
                                <=, sizeof(sb));
            }
        }
        free_unit(d);
    }
    g_rand_free(r);
    g_free(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/megaraid/target/sense", test_sense_formats);
    g_test_add_func("/megaraid/target/inquiry", test_inquiry_standard);
    g_test_add_func("/megaraid/target/revision", test_inquiry_revision);
    g_test_add_func("/megaraid/target/vpd", test_vpd_pages);
    g_test_add_func("/megaraid/target/read-capacity", test_read_capacity);
    g_test_add_func("/megaraid/target/report-luns", test_report_luns);
    g_test_add_func("/megaraid/target/read-defect", test_read_defect);
    g_test_add_func("/megaraid/target/mode-sense", test_mode_sense);
    g_test_add_func("/megaraid/target/mode-select", test_mode_select);
    g_test_add_func("/megaraid/target/log-sense", test_log_sense);
    g_test_add_func("/megaraid/target/ata", test_ata);
    g_test_add_func("/megaraid/target/report-opcodes", test_report_opcodes);
    g_test_add_func("/megaraid/target/random-cdbs", test_random_cdbs);
    return g_test_run();
}
