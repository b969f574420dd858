/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: identification data of the SCSI target: standard INQUIRY,
 * the VPD pages (00h, 80h, 83h, 89h for SATA, B0h, B1h, B2h), READ
 * CAPACITY (10) and (16), READ DEFECT DATA (10) and (12), REPORT LUNS.
 * Pure builders over the drive's identity (see target-int.h).
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "scsi/constants.h"
#include "target-int.h"

/* INQUIRY PRODUCT IDENTIFICATION: the first 16 characters of the model. */
void mr_inquiry_product(const MRUnit *u, char *out16)
{
    mr_pad((uint8_t *)out16, u->model, 16);
}

/*
 * INQUIRY PRODUCT REVISION LEVEL.  SAS drives report their four-character
 * revision.  For ATA (SAT) and NVMe (the RoC's translation) it is the last
 * four characters of the firmware revision, trailing blanks removed, which
 * for an 8-character ATA revision are the characters SAT's translation
 * takes (words 25-26 of IDENTIFY DEVICE).
 */
void mr_inquiry_revision(const MRUnit *u, char *out4)
{
    const char *fw = u->firmware ? u->firmware : "";
    size_t l = strlen(fw);

    while (l > 0 && fw[l - 1] == ' ') {
        l--;
    }
    memset(out4, ' ', 4);
    if (l > 4) {
        memcpy(out4, fw + l - 4, 4);
    } else {
        memcpy(out4, fw, l);
    }
}

static int mr_std_inquiry(const MRUnit *u, uint64_t lun, uint8_t *buf)
{
    static const uint16_t versions[] = { 0x00a0, 0x0460, 0x04c0 };
    int i;

    memset(buf, 0, 96);
    buf[0] = lun ? 0x7f : TYPE_DISK;
    buf[2] = 0x06;                      /* SPC-4 */
    buf[3] = 0x12;                      /* HISUP, response data format 2 */
    buf[4] = 96 - 5;
    buf[7] = 0x02;                      /* CMDQUE */
    mr_pad(buf + 8, u->vendor, 8);
    mr_inquiry_product(u, (char *)buf + 16);
    mr_inquiry_revision(u, (char *)buf + 32);
    for (i = 0; i < ARRAY_SIZE(versions); i++) {
        mr_put16(buf + 58 + 2 * i, versions[i]);
    }
    return 96;
}

static int mr_vpd_supported(const MRUnit *u, uint8_t *buf)
{
    int n = 4;

    buf[n++] = 0x00;
    buf[n++] = 0x80;
    buf[n++] = 0x83;
    if (u->iface == MR_IF_SATA) {
        buf[n++] = 0x89;
    }
    buf[n++] = 0xb0;
    buf[n++] = 0xb1;
    buf[n++] = 0xb2;
    mr_put16(buf + 2, n - 4);
    return n;
}

static int mr_vpd_serial(const MRUnit *u, uint8_t *buf)
{
    size_t l = MIN(strlen(u->serial), 252);

    memcpy(buf + 4, u->serial, l);
    mr_put16(buf + 2, l);
    return 4 + l;
}

/* Append one designation descriptor; returns its length. */
static int mr_desig(uint8_t *p, uint8_t proto, uint8_t codeset, bool piv,
                    uint8_t assoc, uint8_t type, const void *id, uint8_t len)
{
    p[0] = (proto << 4) | codeset;
    p[1] = (piv ? 0x80 : 0) | (assoc << 4) | type;
    p[2] = 0;
    p[3] = len;
    memcpy(p + 4, id, len);
    return 4 + len;
}

static int mr_vpd_devid(const MRUnit *u, uint8_t *buf)
{
    uint8_t id[68];
    int n = 4;

    /*
     * Logical unit: NAA from the WWN (binary, NAA designator): 8 bytes of
     * NAA 5, or the 16 bytes NAA 6 takes (a volume: 600605b0...).
     */
    mr_put64(id, u->wwn);
    if (u->wwn_ext) {
        /* A volume has no SCSI ports of its own: its name is all. */
        mr_put64(id + 8, u->wwn_ext);
        n += mr_desig(buf + n, 0, 1, false, 0, 3, id, 16);
        mr_put16(buf + 2, n - 4);
        return n;
    }
    n += mr_desig(buf + n, 0, 1, false, 0, 3, id, 8);

    switch (u->iface) {
    case MR_IF_SATA:
        /* SAT: T10 vendor ID "ATA" + model + serial. */
        mr_pad(id, "ATA", 8);
        mr_pad(id + 8, u->model, 40);
        mr_pad(id + 48, u->serial, 20);
        n += mr_desig(buf + n, 0, 2, false, 0, 1, id, 68);
        break;
    case MR_IF_NVME: {
        /* EUI-64: the WWN's OUI and its low 40 bits. */
        uint64_t oui = (u->wwn >> 36) & 0xffffff;
        mr_put64(id, (oui << 40) | (u->wwn & 0xffffffffffULL));
        n += mr_desig(buf + n, 0, 1, false, 0, 2, id, 8);
        break;
    }
    case MR_IF_SAS:
        /* Target port (port A = WWN + 1), relative port 1, device name. */
        mr_put64(id, u->wwn + 1);
        n += mr_desig(buf + n, 6, 1, true, 1, 3, id, 8);
        memset(id, 0, 4);
        id[3] = 1;
        n += mr_desig(buf + n, 6, 1, true, 1, 4, id, 4);
        mr_put64(id, u->wwn + 3);
        n += mr_desig(buf + n, 6, 1, true, 2, 3, id, 8);
        break;
    }
    mr_put16(buf + 2, n - 4);
    return n;
}

static int mr_vpd_block_limits(const MRUnit *u, uint8_t *buf)
{
    uint32_t ratio = u->phys_block_size / u->block_size;

    memset(buf + 4, 0, 0x3c);
    mr_put16(buf + 2, 0x3c);
    buf[4] = 0x01;                              /* WSNZ */
    mr_put16(buf + 6, ratio);                   /* optimal granularity */
    mr_put32(buf + 8, MR_MAX_XFER_BYTES / u->block_size);
    if (u->opt_xfer_blocks) {
        /* a VD: strips, and full stripes when one fits a transfer */
        mr_put16(buf + 6, MIN(u->opt_gran_blocks, 0xffff));
        mr_put32(buf + 12, u->opt_xfer_blocks);
    }
    if (u->discard) {
        mr_put32(buf + 20, MR_MAX_UNMAP_BLOCKS);
        mr_put32(buf + 24, MR_MAX_UNMAP_DESCS);
        mr_put32(buf + 28, ratio);              /* unmap granularity */
        buf[32] = 0x80;                         /* UGAVALID, alignment 0 */
        mr_put64(buf + 36, MR_MAX_WSAME_BYTES / u->block_size);
    }
    return 4 + 0x3c;
}

static int mr_vpd_characteristics(const MRUnit *u, uint8_t *buf)
{
    memset(buf + 4, 0, 0x3c);
    mr_put16(buf + 2, 0x3c);
    mr_put16(buf + 4, u->rotation_rate);
    /* 1h: 5.25", 2h: 3.5", 3h: 2.5" */
    buf[7] = u->media == MR_MEDIA_HDD && u->iface != MR_IF_NVME ?
             (u->rotation_rate >= 10000 ? 0x03 : 0x02) : 0x03;
    return 4 + 0x3c;
}

static int mr_vpd_lbp(const MRUnit *u, uint8_t *buf)
{
    memset(buf + 4, 0, 4);
    mr_put16(buf + 2, 4);
    if (u->discard) {
        /* LBPU, LBPWS, LBPWS10, LBPRZ=1; resource provisioned */
        buf[5] = 0x80 | 0x40 | 0x20 | 0x04;
        buf[6] = 0x01;
    }
    return 8;
}

static int mr_vpd_ata_info(const MRUnit *u, uint8_t *buf)
{
    uint16_t id[256];
    int i;

    memset(buf + 4, 0, 572 - 4);
    mr_put16(buf + 2, 572 - 4);
    mr_pad(buf + 8, u->sat_vendor ?: "", 8);          /* SAT vendor */
    mr_pad(buf + 16, u->sat_product ?: "", 16);       /* SAT product */
    mr_pad(buf + 32, "0800", 4);              /* SAT revision */
    /* Device signature: register D2H FIS of a non-packet device. */
    buf[36] = 0x34;
    buf[38] = 0x50;                           /* status: DRDY | DSC */
    buf[39] = 0x01;                           /* error: no error */
    buf[40] = 0x01;                           /* LBA low */
    buf[48] = 0x01;                           /* count */
    buf[56] = 0xec;                           /* IDENTIFY DEVICE */
    mr_ata_identify(u, id);
    for (i = 0; i < 256; i++) {
        buf[60 + 2 * i] = id[i];
        buf[60 + 2 * i + 1] = id[i] >> 8;
    }
    return 572;
}

/* INQUIRY: standard data or a VPD page into buf (MR_RESP_MAX bytes). */
int mr_build_inquiry(const MRUnit *u, uint64_t lun, const uint8_t *cdb,
                     uint8_t *buf, MRSense *s)
{
    bool evpd = cdb[1] & 0x01;
    uint8_t page = cdb[2];

    if (cdb[1] & 0x02) {                        /* CMDDT (obsolete) */
        mr_sense_bad_cdb(s, 1, 1);
        return -1;
    }
    if (!evpd) {
        if (page) {
            mr_sense_bad_cdb(s, 2, -1);
            return -1;
        }
        return mr_std_inquiry(u, lun, buf);
    }
    if (lun) {
        mr_sense_set(s, ILLEGAL_REQUEST, 0x25, 0x00);
        return -1;
    }
    memset(buf, 0, 4);
    buf[0] = TYPE_DISK;
    buf[1] = page;
    switch (page) {
    case 0x00:
        return mr_vpd_supported(u, buf);
    case 0x80:
        return mr_vpd_serial(u, buf);
    case 0x83:
        return mr_vpd_devid(u, buf);
    case 0x89:
        if (u->iface != MR_IF_SATA) {
            break;
        }
        return mr_vpd_ata_info(u, buf);
    case 0xb0:
        return mr_vpd_block_limits(u, buf);
    case 0xb1:
        return mr_vpd_characteristics(u, buf);
    case 0xb2:
        return mr_vpd_lbp(u, buf);
    }
    mr_sense_bad_cdb(s, 2, -1);
    return -1;
}

/* READ CAPACITY (10) (opcode 25h) or (16) (9Eh/10h). */
int mr_build_read_capacity(const MRUnit *u, const uint8_t *cdb,
                           uint8_t *buf, MRSense *s)
{
    uint64_t last = u->num_blocks - 1;
    uint32_t exp = ctz32(u->phys_block_size / u->block_size);

    if (cdb[0] == READ_CAPACITY_10) {
        /* PMI is obsolete; with PMI=0 the LBA field must be zero. */
        if (!(cdb[8] & 1) && mr_get32(cdb + 2)) {
            mr_sense_bad_cdb(s, 2, -1);
            return -1;
        }
        mr_put32(buf, MIN(last, 0xffffffffULL));
        mr_put32(buf + 4, u->block_size);
        return 8;
    }
    memset(buf, 0, 32);
    mr_put64(buf, last);
    mr_put32(buf + 8, u->block_size);
    buf[13] = exp & 0x0f;
    if (u->discard) {
        buf[14] = 0x80 | 0x40;                  /* LBPME, LBPRZ */
    }
    return 32;
}

/* REPORT LUNS: one logical unit, LUN 0. */
int mr_build_report_luns(const uint8_t *cdb, uint8_t *buf, MRSense *s)
{
    uint8_t select = cdb[2];

    if (mr_get32(cdb + 6) < 16) {
        mr_sense_bad_cdb(s, 6, -1);
        return -1;
    }
    memset(buf, 0, 16);
    switch (select) {
    case 0x00:
    case 0x02:
        mr_put32(buf, 8);
        return 16;
    case 0x01:
    case 0x10:
    case 0x11:
    case 0x12:
        /* no well-known or administrative logical units */
        return 8;
    }
    mr_sense_bad_cdb(s, 2, -1);
    return -1;
}

/*
 * READ DEFECT DATA (10) 37h or (12) B7h: the emulated medium has no
 * defects, so both lists are valid and empty, in the requested format.
 */
int mr_build_read_defect(const uint8_t *cdb, uint8_t *buf, MRSense *s)
{
    bool twelve = cdb[0] == READ_DEFECT_DATA_12;
    uint8_t req = twelve ? cdb[1] : cdb[2];
    uint8_t format = req & 0x07;

    if (format == 1 || format == 2 || format == 7) {
        /* reserved formats (7 is vendor specific) */
        mr_sense_bad_cdb(s, twelve ? 1 : 2, 2);
        return -1;
    }
    memset(buf, 0, 8);
    buf[1] = (req & 0x18) | format;
    return twelve ? 8 : 4;
}
