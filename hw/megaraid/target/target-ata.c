/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: ATA PASS-THROUGH (12/16) of the SCSI target for SATA
 * drives (SAT-4 12.2): IDENTIFY DEVICE built from the drive's identity,
 * SMART (READ DATA, READ THRESHOLDS, RETURN STATUS, READ LOG, ENABLE,
 * EXECUTE OFF-LINE IMMEDIATE), READ LOG EXT (with Device Statistics and
 * SATA Phy Event Counters), CHECK POWER MODE, SET
 * FEATURES and the idle/standby commands, with the ATA status return
 * descriptor when CK_COND is set or the command is aborted.  Pure: the
 * caller (target.c) traces and transfers.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "scsi/constants.h"
#include "target-int.h"

#define ATA_STATUS_OK       0x50        /* DRDY | DSC */
#define ATA_STATUS_ERR      0x51
#define ATA_ERROR_ABRT      0x04

#define ATA_SMART_MID       0x4f
#define ATA_SMART_HIGH      0xc2

typedef struct MRAtaRegs {
    uint16_t feature;
    uint16_t count;
    uint64_t lba;
    uint8_t device;
    uint8_t command;
    uint8_t error;
    uint8_t status;
} MRAtaRegs;

/* An ATA string: two characters per word, the first in the high byte. */
static void mr_ata_string(uint16_t *w, const char *s, int chars)
{
    uint8_t tmp[40];
    int i;

    mr_pad(tmp, s, chars);
    for (i = 0; i < chars / 2; i++) {
        w[i] = (tmp[2 * i] << 8) | tmp[2 * i + 1];
    }
}

/* Set byte 511 so that the 512 bytes sum to zero. */
static void mr_ata_checksum(uint8_t *b)
{
    uint8_t sum = 0;
    int i;

    for (i = 0; i < 511; i++) {
        sum += b[i];
    }
    b[511] = -sum;
}

static void mr_ata_words_to_bytes(const uint16_t *id, uint8_t *b)
{
    int i;

    for (i = 0; i < 256; i++) {
        b[2 * i] = id[i];
        b[2 * i + 1] = id[i] >> 8;
    }
}

/* IDENTIFY DEVICE data (ACS-3), as 256 host-order words. */
void mr_ata_identify(const MRUnit *u, uint16_t *id)
{
    uint64_t sectors = u->num_blocks;
    uint32_t ratio = u->phys_block_size / u->block_size;
    uint8_t sum = 0;
    int i;

    memset(id, 0, 512);
    id[0] = 0x0040;                             /* fixed device */
    id[1] = 16383;
    id[2] = 0xc837;
    id[3] = 16;
    id[6] = 63;
    mr_ata_string(id + 10, u->serial, 20);
    mr_ata_string(id + 23, u->firmware, 8);
    mr_ata_string(id + 27, u->model, 40);
    id[47] = 0x8010;
    id[48] = 0x4000;
    id[49] = 0x0f00;                            /* LBA, DMA, IORDY */
    id[50] = 0x4000;
    id[53] = 0x0007;
    id[59] = 0x0110;
    id[60] = MIN(sectors, 0x0fffffff);
    id[61] = MIN(sectors, 0x0fffffff) >> 16;
    id[63] = 0x0007;
    id[64] = 0x0003;
    id[65] = id[66] = id[67] = id[68] = 120;
    if (u->discard) {
        id[69] = 0x4020;                        /* DRAT, RZAT */
    }
    id[75] = 31;                                /* queue depth 32 */
    id[76] = 0x050e;                    /* NCQ, phy events, 1.5/3/6 Gb/s */
    id[77] = 0x0006;                            /* current speed 6 Gb/s */
    id[80] = 0x07f0;                            /* ATA-4 to ACS-3 */
    id[81] = 0x006d;                            /* ACS-3 revision 5 */
    id[82] = 0x7069;                            /* SMART, PM, WC, ... */
    id[83] = 0x7400;                            /* 48-bit, FLUSH (EXT) */
    id[84] = 0x4123;                            /* WWN, GPL, self-test */
    id[85] = 0x7048 | (u->ts.wce ? 0x0020 : 0) |
             (u->ts.dexcpt ? 0 : 0x0001);
    id[86] = 0xb400;
    id[87] = 0x4123;
    id[88] = 0x407f;                            /* UDMA 0-6, mode 6 */
    id[100] = sectors;
    id[101] = sectors >> 16;
    id[102] = sectors >> 32;
    id[103] = sectors >> 48;
    id[106] = 0x4000 | ctz32(ratio);
    if (ratio > 1) {
        id[106] |= 0x2000;
    }
    if (u->block_size > 512) {
        id[106] |= 0x1000;
        id[117] = u->block_size / 2;
        id[118] = (u->block_size / 2) >> 16;
    }
    id[108] = u->wwn >> 48;
    id[109] = u->wwn >> 32;
    id[110] = u->wwn >> 16;
    id[111] = u->wwn;
    id[119] = 0x4000;
    id[120] = 0x4000;
    id[168] = u->media == MR_MEDIA_HDD ? 2 : 3; /* 3.5" or 2.5" */
    id[169] = u->discard ? 0x0001 : 0;          /* DSM TRIM */
    id[217] = u->rotation_rate;
    id[222] = 0x107f;                           /* SATA 3.1 */
    id[255] = 0x00a5;
    for (i = 0; i < 255; i++) {
        sum += (id[i] & 0xff) + (id[i] >> 8);
    }
    sum += 0xa5;
    id[255] |= (uint8_t)(-sum) << 8;
}

typedef enum {
    MR_RAW_ZERO,
    MR_RAW_HOURS,
    MR_RAW_CYCLES,
    MR_RAW_TEMP,
    MR_RAW_UNCORR,
    MR_RAW_WRITES_32M,
    MR_RAW_READS_32M,
    MR_RAW_FIXED,
} MRRawKind;

typedef struct MRSmartAttr {
    uint8_t id;
    uint16_t flags;
    uint8_t value;
    uint8_t worst;
    uint8_t thresh;
    MRRawKind raw;
    uint32_t fixed;
} MRSmartAttr;

static const MRSmartAttr mr_ssd_attrs[] = {
    { 5, 0x0032, 100, 100, 0, MR_RAW_ZERO },
    { 9, 0x0032, 100, 100, 0, MR_RAW_HOURS },
    { 12, 0x0032, 100, 100, 0, MR_RAW_CYCLES },
    { 170, 0x0033, 100, 100, 10, MR_RAW_ZERO },
    { 171, 0x0032, 100, 100, 0, MR_RAW_ZERO },
    { 172, 0x0032, 100, 100, 0, MR_RAW_ZERO },
    { 174, 0x0032, 100, 100, 0, MR_RAW_FIXED, 3 },
    { 175, 0x0033, 100, 100, 10, MR_RAW_FIXED, 17 },
    { 183, 0x0032, 100, 100, 0, MR_RAW_ZERO },
    { 184, 0x0033, 100, 100, 90, MR_RAW_ZERO },
    { 187, 0x0032, 100, 100, 0, MR_RAW_UNCORR },
    { 190, 0x0022, 66, 60, 0, MR_RAW_TEMP },
    { 194, 0x0022, 100, 100, 0, MR_RAW_TEMP },
    { 197, 0x0012, 100, 100, 0, MR_RAW_ZERO },
    { 199, 0x003e, 100, 100, 0, MR_RAW_ZERO },
    { 225, 0x0032, 100, 100, 0, MR_RAW_WRITES_32M },
    { 233, 0x0032, 100, 100, 0, MR_RAW_ZERO },
    { 241, 0x0032, 100, 100, 0, MR_RAW_WRITES_32M },
    { 242, 0x0032, 100, 100, 0, MR_RAW_READS_32M },
};

static const MRSmartAttr mr_hdd_attrs[] = {
    { 1, 0x000f, 80, 64, 44, MR_RAW_ZERO },
    { 3, 0x0003, 91, 91, 0, MR_RAW_ZERO },
    { 4, 0x0032, 100, 100, 20, MR_RAW_CYCLES },
    { 5, 0x0033, 100, 100, 10, MR_RAW_ZERO },
    { 7, 0x000f, 88, 60, 45, MR_RAW_ZERO },
    { 9, 0x0032, 100, 100, 0, MR_RAW_HOURS },
    { 10, 0x0013, 100, 100, 97, MR_RAW_ZERO },
    { 12, 0x0032, 100, 100, 20, MR_RAW_CYCLES },
    { 187, 0x0032, 100, 100, 0, MR_RAW_UNCORR },
    { 190, 0x0022, 66, 55, 40, MR_RAW_TEMP },
    { 194, 0x0022, 34, 45, 0, MR_RAW_TEMP },
    { 197, 0x0012, 100, 100, 0, MR_RAW_ZERO },
    { 198, 0x0010, 100, 100, 0, MR_RAW_ZERO },
    { 199, 0x003e, 200, 200, 0, MR_RAW_ZERO },
};

static uint64_t mr_smart_raw(const MRUnit *u, const MRSmartAttr *a)
{
    uint64_t bytes32m = 32ULL << 20;

    switch (a->raw) {
    case MR_RAW_HOURS:
        return mr_power_on_hours(u);
    case MR_RAW_CYCLES:
        return u->ts.start_stop_cycles + 12;
    case MR_RAW_TEMP:
        return MR_TEMP_C;
    case MR_RAW_UNCORR:
        return u->ts.read_errors;
    case MR_RAW_WRITES_32M:
        return u->ts.blocks_written * u->block_size / bytes32m;
    case MR_RAW_READS_32M:
        return u->ts.blocks_read * u->block_size / bytes32m;
    case MR_RAW_FIXED:
        return a->fixed;
    default:
        return 0;
    }
}

/* SMART READ DATA (thresholds=false) or READ THRESHOLDS. */
static void mr_smart_data(const MRUnit *u, bool thresholds, uint8_t *b)
{
    bool ssd = u->media == MR_MEDIA_SSD;
    const MRSmartAttr *attrs = ssd ? mr_ssd_attrs : mr_hdd_attrs;
    int count = ssd ? ARRAY_SIZE(mr_ssd_attrs) : ARRAY_SIZE(mr_hdd_attrs);
    int i, k;

    memset(b, 0, 512);
    b[0] = 0x01;
    for (i = 0; i < count; i++) {
        uint8_t *e = b + 2 + 12 * i;
        uint64_t raw = mr_smart_raw(u, &attrs[i]);

        e[0] = attrs[i].id;
        if (thresholds) {
            e[1] = attrs[i].thresh;
            continue;
        }
        e[1] = attrs[i].flags;
        e[2] = attrs[i].flags >> 8;
        e[3] = attrs[i].value;
        e[4] = attrs[i].worst;
        for (k = 0; k < 6; k++) {
            e[5 + k] = raw >> (8 * k);
        }
    }
    if (!thresholds) {
        b[362] = 0x00;                          /* off-line: never started */
        b[363] = 0x00;                          /* last self-test passed */
        b[367] = 0x11;                          /* off-line, self-test */
        b[368] = 0x03;                          /* SMART capabilities */
        b[370] = 0x01;                          /* error logging */
        b[372] = 2;                             /* short self-test, min */
        b[373] = ssd ? 10 : 255;                /* extended self-test */
        if (!ssd) {
            b[375] = 720 & 0xff;                /* extended, 16-bit */
            b[376] = 720 >> 8;
        }
    }
    mr_ata_checksum(b);
}

/* SMART self-test log (06h), or extended self-test log (07h, ext). */
static void mr_smart_selftest_log(const MRUnit *u, bool ext, uint8_t *b)
{
    int i, n = MIN(u->ts.selftest_count, MR_SELFTEST_LOG);
    int size = ext ? 26 : 24;

    memset(b, 0, 512);
    b[0] = 0x01;
    for (i = 0; i < n; i++) {
        /* entries are oldest first; the index names the newest */
        uint8_t *e = b + (ext ? 4 : 2) + size * i;
        int j = n - 1 - i;

        e[0] = u->ts.selftest_code[j];          /* LBA low: test type */
        e[1] = 0x00;                            /* completed, no error */
        e[2] = u->ts.selftest_hours[j];
        e[3] = u->ts.selftest_hours[j] >> 8;
    }
    if (ext) {
        b[2] = n;
    } else {
        b[508] = n;
    }
    mr_ata_checksum(b);
}

/* Device Statistics pages (log 04h) the drive keeps; 07h only on SSDs. */
#define MR_DEVSTAT_PAGES 8

/* One statistic: supported and valid flags over a 48-bit value. */
static void mr_devstat(uint8_t *q, uint64_t v)
{
    stq_le_p(q, (v & 0xffffffffffffULL) | (3ULL << 62));
}

/*
 * Device Statistics (ACS-3 9.10) page `page` into b: the list (00h),
 * general (01h), general errors (04h), temperature (05h), transport
 * (06h) and, for an SSD, solid state (07h).  False for another page.
 */
static bool mr_ata_devstats(const MRUnit *u, uint16_t page, uint8_t *b)
{
    bool ssd = u->media == MR_MEDIA_SSD;
    uint8_t *q = b + 8;

    if (page >= MR_DEVSTAT_PAGES || page == 2 || page == 3 ||
        (page == 7 && !ssd)) {
        return false;
    }
    stq_le_p(b, 0x0001 | ((uint64_t)page << 16));  /* revision 1, page */
    switch (page) {
    case 0x00:
        b[8] = ssd ? 6 : 5;
        b[9] = 0x00;
        b[10] = 0x01;
        b[11] = 0x04;
        b[12] = 0x05;
        b[13] = 0x06;
        b[14] = 0x07;                           /* counted only on SSDs */
        if (!ssd) {
            b[14] = 0;
        }
        break;
    case 0x01:
        mr_devstat(q, u->ts.start_stop_cycles + 12);   /* power-on resets */
        mr_devstat(q + 8, mr_power_on_hours(u));
        mr_devstat(q + 16, u->ts.blocks_written);
        /* command counts are not kept: those two are not supported */
        mr_devstat(q + 32, u->ts.blocks_read);
        break;
    case 0x04:
        mr_devstat(q, u->ts.read_errors + u->ts.write_errors);
        mr_devstat(q + 8, 0);       /* resets during a command */
        break;
    case 0x05:
        mr_devstat(q, MR_TEMP_C);   /* current */
        mr_devstat(q + 24, MR_TEMP_C + 6);     /* highest */
        mr_devstat(q + 32, 20);     /* lowest */
        mr_devstat(q + 72, 0);      /* minutes over the limit */
        mr_devstat(q + 80, MR_TEMP_TRIP_C);    /* specified maximum */
        mr_devstat(q + 88, 0);      /* minutes under the limit */
        mr_devstat(q + 96, 0);      /* specified minimum */
        break;
    case 0x06:
        mr_devstat(q, 1);           /* hardware resets: the power-on one */
        mr_devstat(q + 8, 0);       /* ASR events */
        mr_devstat(q + 16, 0);      /* interface CRC errors */
        break;
    case 0x07:
        /* percentage used endurance indicator, as log page 11h says */
        mr_devstat(q, MIN(100, 1 + u->ts.blocks_written / (1ULL << 31)));
        break;
    }
    return true;
}

/*
 * SATA Phy Event Counters (log 11h): 16-bit counters by identifier
 * (bits 14:12 give the size in words), a zero identifier ends the list;
 * the link came up once, at power on, without errors.
 */
static void mr_ata_phy_events(uint8_t *b)
{
    static const uint16_t ids[] = {
        0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x0008,
        0x0009, 0x000a, 0x000b, 0x000d, 0x000f, 0x0010, 0x0012,
    };
    uint8_t *p = b + 4;

    for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
        stw_le_p(p, 0x1000 | ids[i]);
        /* D2H register FISes sent for COMRESET: the power-on one */
        stw_le_p(p + 2, ids[i] == 0x000a ? 1 : 0);
        p += 4;
    }
    mr_ata_checksum(b);
}

/*
 * SMART READ LOG (gpl=false) or READ LOG EXT page `page` of a log
 * address (only Device Statistics has more than page 0).
 */
static bool mr_ata_log(const MRUnit *u, bool gpl, uint8_t addr, uint16_t page,
                       uint8_t *b)
{
    memset(b, 0, 512);
    if (addr == 0x04) {
        /* Device Statistics: page by page (READ LOG EXT) */
        return gpl && mr_ata_devstats(u, page, b);
    }
    if (page != 0) {
        return false;
    }
    switch (addr) {
    case 0x00:                                  /* log directory */
        b[0] = 0x01;
        if (gpl) {
            b[2 * 0x03] = 1;
            b[2 * 0x04] = MR_DEVSTAT_PAGES;
            b[2 * 0x07] = 1;
            b[2 * 0x11] = 1;
        } else {
            b[2 * 0x01] = 1;
            b[2 * 0x06] = 1;
        }
        return true;
    case 0x11:                                  /* SATA phy event counters */
        if (!gpl) {
            return false;
        }
        mr_ata_phy_events(b);
        return true;
    case 0x01:                                  /* summary error log */
        if (gpl) {
            return false;
        }
        b[0] = 0x01;
        mr_ata_checksum(b);
        return true;
    case 0x03:                                  /* ext comprehensive */
        if (!gpl) {
            return false;
        }
        b[0] = 0x01;
        mr_ata_checksum(b);
        return true;
    case 0x06:
        if (gpl) {
            return false;
        }
        mr_smart_selftest_log(u, false, b);
        return true;
    case 0x07:
        if (!gpl) {
            return false;
        }
        mr_smart_selftest_log(u, true, b);
        return true;
    }
    return false;
}

/*
 * Record a completed self-test (SMART or SEND DIAGNOSTIC), by its ATA
 * code: 01h short, 02h extended, 81h/82h the same in captive mode.
 */
void mr_selftest_record(MRUnit *u, uint8_t code)
{
    MRTargetState *ts = &u->ts;

    memmove(ts->selftest_code + 1, ts->selftest_code, MR_SELFTEST_LOG - 1);
    memmove(ts->selftest_hours + 1, ts->selftest_hours,
            sizeof(ts->selftest_hours[0]) * (MR_SELFTEST_LOG - 1));
    ts->selftest_code[0] = code;
    ts->selftest_hours[0] = mr_power_on_hours(u);
    ts->selftest_count = MIN(ts->selftest_count + 1, MR_SELFTEST_LOG);
}

/* SMART (B0h); returns bytes of data-in, or -1 to abort. */
static int mr_ata_smart(MRUnit *u, MRAtaRegs *r, uint8_t *buf)
{
    uint8_t mid = r->lba >> 8, high = r->lba >> 16;

    if (mid != ATA_SMART_MID || high != ATA_SMART_HIGH) {
        return -1;
    }
    switch (r->feature & 0xff) {
    case 0xd0:                                  /* READ DATA */
        mr_smart_data(u, false, buf);
        return 512;
    case 0xd1:                                  /* READ THRESHOLDS */
        mr_smart_data(u, true, buf);
        return 512;
    case 0xd2:                                  /* ATTRIBUTE AUTOSAVE */
    case 0xd3:                                  /* SAVE ATTRIBUTE VALUES */
        return 0;
    case 0xd4:                                  /* EXECUTE OFF-LINE */
        switch (r->lba & 0xff) {
        case 0x00:
        case 0x7f:
            return 0;
        case 0x01:
        case 0x02:
        case 0x81:
        case 0x82:
            mr_selftest_record(u, r->lba & 0xff);
            return 0;
        }
        return -1;
    case 0xd5:                                  /* READ LOG */
        if ((r->count & 0xff) != 1 ||
            !mr_ata_log(u, false, r->lba & 0xff, 0, buf)) {
            return -1;
        }
        return 512;
    case 0xd8:                                  /* ENABLE OPERATIONS */
        u->ts.dexcpt = false;
        return 0;
    case 0xd9:                                  /* DISABLE OPERATIONS */
        u->ts.dexcpt = true;
        return 0;
    case 0xda:                                  /* RETURN STATUS */
        /* no threshold exceeded: the signature stays 4Fh/C2h */
        return 0;
    }
    return -1;
}

/* One ATA command; returns bytes of data-in, or -1 to abort it. */
static int mr_ata_command(MRUnit *u, MRAtaRegs *r, uint8_t *buf)
{
    uint16_t id[256];

    switch (r->command) {
    case 0xec:                                  /* IDENTIFY DEVICE */
        mr_ata_identify(u, id);
        mr_ata_words_to_bytes(id, buf);
        return 512;
    case 0xb0:
        return mr_ata_smart(u, r, buf);
    case 0x2f:                                  /* READ LOG EXT */
        if (r->count != 1 ||
            !mr_ata_log(u, true, r->lba & 0xff, (r->lba >> 8) & 0xffff,
                        buf)) {
            return -1;
        }
        return 512;
    case 0xe5:                                  /* CHECK POWER MODE */
        r->count = 0xff;                        /* active or idle */
        return 0;
    case 0xef:                                  /* SET FEATURES */
        if ((r->feature & 0xff) == 0x02) {
            u->ts.wce = true;
        } else if ((r->feature & 0xff) == 0x82) {
            u->ts.wce = false;
        }
        return 0;
    case 0xe0:                                  /* STANDBY IMMEDIATE */
    case 0xe1:                                  /* IDLE IMMEDIATE */
    case 0xe2:                                  /* STANDBY */
    case 0xe3:                                  /* IDLE */
    case 0x00:                                  /* NOP */
        return r->command ? 0 : -1;
    }
    return -1;
}

static void mr_ata_descriptor(MRSense *s, const MRAtaRegs *r, bool extend)
{
    s->ata_valid = true;
    s->ata[0] = extend ? 1 : 0;
    s->ata[1] = r->error;
    s->ata[2] = r->count >> 8;
    s->ata[3] = r->count;
    s->ata[4] = r->lba >> 24;
    s->ata[5] = r->lba;
    s->ata[6] = r->lba >> 32;
    s->ata[7] = r->lba >> 8;
    s->ata[8] = r->lba >> 40;
    s->ata[9] = r->lba >> 16;
    s->ata[10] = r->device;
    s->ata[11] = r->status;
}

/*
 * ATA PASS-THROUGH (12) A1h or (16) 85h.  Returns -1 with *s for a
 * rejected CDB, 0 for GOOD, 1 for CHECK CONDITION with *s carrying the
 * ATA status return descriptor (CK_COND, or the command was aborted).
 * Data-in, if any, is in buf with its length in *len_out.
 */
int mr_ata_passthrough(MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                       uint32_t *len_out, MRSense *s)
{
    bool is16 = cdb[0] == ATA_PASSTHROUGH_16;
    uint8_t proto = (cdb[1] >> 1) & 0x0f;
    bool extend = is16 && (cdb[1] & 1);
    bool ck_cond = cdb[2] & 0x20;
    MRAtaRegs r = { 0 };
    int n;

    *len_out = 0;
    if (is16) {
        r.feature = cdb[4] | (extend ? cdb[3] << 8 : 0);
        r.count = cdb[6] | (extend ? cdb[5] << 8 : 0);
        r.lba = cdb[8] | (cdb[10] << 8) | (cdb[12] << 16);
        if (extend) {
            r.lba |= ((uint64_t)cdb[7] << 24) | ((uint64_t)cdb[9] << 32) |
                     ((uint64_t)cdb[11] << 40);
        }
        r.device = cdb[13];
        r.command = cdb[14];
    } else {
        r.feature = cdb[3];
        r.count = cdb[4];
        r.lba = cdb[5] | (cdb[6] << 8) | (cdb[7] << 16);
        r.device = cdb[8];
        r.command = cdb[9];
    }
    switch (proto) {
    case 0:                                     /* hard reset */
    case 1:                                     /* SRST */
        return 0;
    case 15:                                    /* return response info */
        r.status = ATA_STATUS_OK;
        mr_sense_set(s, RECOVERED_ERROR, 0x00, 0x1d);
        mr_ata_descriptor(s, &r, extend);
        return 1;
    case 3:                                     /* non-data */
    case 4:                                     /* PIO data-in */
    case 6:                                     /* DMA */
    case 10:                                    /* UDMA data-in */
    case 12:                                    /* FPDMA */
        break;
    default:
        /* data-out protocols: no data-out command is emulated */
        if (proto == 5 || proto == 11) {
            break;
        }
        mr_sense_bad_cdb(s, 1, 4);
        return -1;
    }

    n = (proto == 5 || proto == 11) ? -1 : mr_ata_command(u, &r, buf);
    if (n < 0) {
        r.status = ATA_STATUS_ERR;
        r.error = ATA_ERROR_ABRT;
        mr_sense_set(s, ABORTED_COMMAND, 0x00, 0x00);
        mr_ata_descriptor(s, &r, extend);
        return 1;
    }
    *len_out = n;
    r.status = ATA_STATUS_OK;
    if (!ck_cond) {
        return 0;
    }
    mr_sense_set(s, RECOVERED_ERROR, 0x00, 0x1d);
    mr_ata_descriptor(s, &r, extend);
    return 1;
}
