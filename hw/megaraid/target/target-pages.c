/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: mode and log pages of the SCSI target.  MODE SENSE (6/10)
 * with current, changeable, default and saved values of the read-write
 * error recovery (01h), caching (08h), control (0Ah) and informational
 * exceptions (1Ch) pages; MODE SELECT of their changeable fields (WCE,
 * D_SENSE, DEXCPT/MRIE); LOG SENSE of the pages smartctl and sg_logs
 * read.  A RAID volume, like a MegaRAID VD, has only the caching and
 * control pages and the list of log pages: no SMART of its own.  Pure
 * builders over the drive's state (see target-int.h).
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "scsi/constants.h"
#include "target-int.h"
#include "hw/megaraid/target.h"

enum {
    MR_PC_CURRENT = 0,
    MR_PC_CHANGEABLE = 1,
    MR_PC_DEFAULT = 2,
    MR_PC_SAVED = 3,
};

static const uint8_t mr_mode_pages[] = { 0x01, 0x08, 0x0a, 0x1c };

/* Mode page `page` for page control pc into p; returns its length or 0. */
static int mr_mode_page(const MRUnit *u, uint8_t page, int pc, uint8_t *p)
{
    const MRTargetState *ts = &u->ts;
    bool chg = pc == MR_PC_CHANGEABLE;
    bool wce;

    if (u->vd && (page == 0x01 || page == 0x1c)) {
        /* a volume: no error recovery or SMART of its own */
        return 0;
    }
    switch (page) {
    case 0x01:                                  /* read-write error recovery */
        memset(p, 0, 12);
        p[0] = 0x01;
        p[1] = 0x0a;
        if (!chg) {
            p[2] = 0xc0;                        /* AWRE, ARRE */
            p[3] = 20;                          /* read retry count */
            p[8] = 20;                          /* write retry count */
        }
        return 12;
    case 0x08:                                  /* caching */
        memset(p, 0, 20);
        p[0] = 0x08;
        p[1] = 0x12;
        wce = pc == MR_PC_CURRENT ? ts->wce :
              pc == MR_PC_SAVED ? ts->saved_wce :
              pc == MR_PC_DEFAULT ? ts->default_wce : true;
        p[2] = wce ? 0x04 : 0;
        if (!chg) {
            mr_put16(p + 4, 0xffff);            /* disable prefetch xfer len */
            mr_put16(p + 8, 0xffff);            /* maximum prefetch */
            mr_put16(p + 10, 0xffff);           /* maximum prefetch ceiling */
            p[12] = 0x00;
            p[13] = 0x20;                       /* number of cache segments */
        }
        return 20;
    case 0x0a:                                  /* control */
        memset(p, 0, 12);
        p[0] = 0x0a;
        p[1] = 0x0a;
        if (chg) {
            p[2] = 0x04;                        /* D_SENSE */
            return 12;
        }
        if (pc == MR_PC_CURRENT || pc == MR_PC_SAVED) {
            p[2] = ts->d_sense ? 0x04 : 0;
        }
        p[3] = 0x10;                            /* unrestricted reordering */
        mr_put16(p + 8, 0xffff);                /* busy timeout: unlimited */
        mr_put16(p + 10, u->media == MR_MEDIA_HDD ? 36000 : 1800);
        return 12;
    case 0x1c:                                  /* informational exceptions */
        memset(p, 0, 12);
        p[0] = 0x1c;
        p[1] = 0x0a;
        if (chg) {
            p[2] = 0x08;                        /* DEXCPT */
            p[3] = 0x0f;                        /* MRIE */
            mr_put32(p + 4, 0xffffffff);
            mr_put32(p + 8, 0xffffffff);
            return 12;
        }
        /* EWASC: temperature warnings on, as drives ship */
        if (pc == MR_PC_DEFAULT) {
            p[2] = 0x10;
            p[3] = 6;                           /* report on request */
        } else {
            p[2] = 0x10 | (ts->dexcpt ? 0x08 : 0);
            p[3] = ts->mrie;
        }
        mr_put32(p + 4, 6000);                  /* interval timer, 100 ms */
        return 12;
    }
    return 0;
}

int mr_build_mode_sense(const MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                        MRSense *s)
{
    bool ten = cdb[0] == MODE_SENSE_10;
    bool dbd = cdb[1] & 0x08;
    bool llbaa = ten && (cdb[1] & 0x10);
    int pc = cdb[2] >> 6;
    uint8_t page = cdb[2] & 0x3f;
    uint8_t subpage = cdb[3];
    int hdr = ten ? 8 : 4;
    int bdlen = dbd ? 0 : llbaa ? 16 : 8;
    int n = hdr, i, l;

    if (subpage != 0 && !(page == 0x3f && subpage == 0xff)) {
        mr_sense_bad_cdb(s, 3, -1);
        return -1;
    }
    memset(buf, 0, hdr);
    if (!dbd) {
        uint64_t blocks = pc == MR_PC_CHANGEABLE ? 0 : u->num_blocks;
        uint32_t bs = pc == MR_PC_CHANGEABLE ? 0 : u->block_size;

        if (llbaa) {
            memset(buf + n, 0, 16);
            mr_put64(buf + n, blocks);
            mr_put32(buf + n + 12, bs);
            buf[4] = 0x01;                      /* LONGLBA */
            n += 16;
        } else {
            memset(buf + n, 0, 8);
            mr_put32(buf + n, MIN(blocks, 0xffffffffULL));
            mr_put32(buf + n + 4, bs);          /* byte 4 is reserved */
            buf[n + 4] = 0;
            n += 8;
        }
    }
    if (page == 0x3f) {
        for (i = 0; i < ARRAY_SIZE(mr_mode_pages); i++) {
            n += mr_mode_page(u, mr_mode_pages[i], pc, buf + n);
        }
    } else {
        l = mr_mode_page(u, page, pc, buf + n);
        if (!l) {
            mr_sense_bad_cdb(s, 2, 5);
            return -1;
        }
        n += l;
    }
    /* header: mode data length, medium type, device-specific parameter */
    if (ten) {
        mr_put16(buf, n - 2);
        buf[3] = (u->read_only ? 0x80 : 0) | 0x10;     /* WP, DPOFUA */
        mr_put16(buf + 6, bdlen);
    } else {
        buf[0] = n - 1;
        buf[2] = (u->read_only ? 0x80 : 0) | 0x10;
        buf[3] = bdlen;
    }
    return n;
}

int mr_apply_mode_select(MRUnit *u, const uint8_t *cdb,
                         const uint8_t *param, uint32_t len, MRSense *s)
{
    bool ten = cdb[0] == MODE_SELECT_10;
    bool save = cdb[1] & 0x01;
    uint32_t hdr = ten ? 8 : 4;
    uint32_t bdlen, off;
    uint8_t cur[32], chg[32];
    MRTargetState ns = u->ts;

    if (len < hdr) {
        mr_sense_set(s, ILLEGAL_REQUEST, 0x1a, 0x00);
        return -1;
    }
    bdlen = ten ? mr_get16(param + 6) : param[3];
    if (bdlen != 0 && bdlen != 8 && !(ten && bdlen == 16)) {
        mr_sense_bad_param(s, ten ? 6 : 3, -1);
        return -1;
    }
    if (hdr + bdlen > len) {
        mr_sense_set(s, ILLEGAL_REQUEST, 0x1a, 0x00);
        return -1;
    }
    if (bdlen) {
        /* the block length may be zero or the current one */
        uint32_t bl = bdlen == 16 ? mr_get32(param + hdr + 12) :
                      mr_get32(param + hdr + 4) & 0xffffff;

        if (bl && bl != u->block_size) {
            mr_sense_bad_param(s, hdr + bdlen - 3, -1);
            return -1;
        }
    }
    for (off = hdr + bdlen; off < len; ) {
        const uint8_t *p = param + off;
        uint8_t page;
        uint32_t plen, k;

        if (len - off < 2) {
            mr_sense_set(s, ILLEGAL_REQUEST, 0x1a, 0x00);
            return -1;
        }
        page = p[0] & 0x3f;
        plen = p[1] + 2;
        if (p[0] & 0x40) {                      /* SPF: no subpages here */
            mr_sense_bad_param(s, off, 6);
            return -1;
        }
        if (off + plen > len) {
            mr_sense_set(s, ILLEGAL_REQUEST, 0x1a, 0x00);
            return -1;
        }
        if (mr_mode_page(u, page, MR_PC_CURRENT, cur) != plen) {
            mr_sense_bad_param(s, off + (mr_mode_page(u, page, 0, cur) ?
                                         1 : 0), -1);
            return -1;
        }
        mr_mode_page(u, page, MR_PC_CHANGEABLE, chg);
        for (k = 2; k < plen; k++) {
            if ((p[k] ^ cur[k]) & ~chg[k]) {
                mr_sense_bad_param(s, off + k, -1);
                return -1;
            }
        }
        switch (page) {
        case 0x08:
            ns.wce = p[2] & 0x04;
            break;
        case 0x0a:
            ns.d_sense = p[2] & 0x04;
            break;
        case 0x1c:
            ns.dexcpt = p[2] & 0x08;
            ns.mrie = p[3] & 0x0f;
            if (ns.mrie > 6) {
                mr_sense_bad_param(s, off + 3, 3);
                return -1;
            }
            break;
        }
        off += plen;
    }
    if (save) {
        ns.saved_wce = ns.wce;
    }
    u->ts = ns;
    return 0;
}

/* Power-on hours: a profile-like history plus the time since realize. */
uint32_t mr_power_on_hours(const MRUnit *u)
{
    int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - u->ts.realized_ns;

    return 1200 + MAX(ns, 0) / (3600 * NANOSECONDS_PER_SECOND);
}

void mr_target_health(const MRUnit *u, MRUnitHealth *h)
{
    h->temp_c = MR_TEMP_C;
    h->trip_c = MR_TEMP_TRIP_C;
    h->power_on_hours = mr_power_on_hours(u);
    h->start_stop_cycles = u->ts.start_stop_cycles + 12;  /* as page 0Eh */
    h->blocks_read = u->ts.blocks_read;
    h->blocks_written = u->ts.blocks_written;
    h->uncorrected_errors = u->ts.read_errors + u->ts.write_errors;
}

/* One log parameter: code, control byte, value bytes. */
static int mr_log_param(uint8_t *p, uint16_t code, uint8_t ctrl,
                        const void *val, uint8_t len)
{
    mr_put16(p, code);
    p[2] = ctrl;
    p[3] = len;
    memcpy(p + 4, val, len);
    return 4 + len;
}

static int mr_log_counter(uint8_t *p, uint16_t code, uint64_t v)
{
    uint8_t b[8];

    mr_put64(b, v);
    return mr_log_param(p, code, 0x02, b, 8);
}

static int mr_log_pages(const MRUnit *u, uint8_t *list)
{
    int n = 0;

    list[n++] = 0x00;
    if (u->vd) {
        /* a volume keeps no drive logs: SMART is the members' */
        return n;
    }
    list[n++] = 0x02;
    list[n++] = 0x03;
    list[n++] = 0x06;
    list[n++] = 0x0d;
    list[n++] = 0x0e;
    list[n++] = 0x10;
    if (u->media == MR_MEDIA_SSD) {
        list[n++] = 0x11;
    }
    list[n++] = 0x15;
    if (u->iface == MR_IF_SAS) {
        list[n++] = 0x18;
    }
    list[n++] = 0x2f;
    return n;
}

static int mr_log_errors(const MRUnit *u, bool write, uint8_t *p)
{
    uint64_t blocks = write ? u->ts.blocks_written : u->ts.blocks_read;
    uint32_t bad = write ? u->ts.write_errors : u->ts.read_errors;
    int n = 0;

    n += mr_log_counter(p + n, 0x0000, 0);      /* corrected, no delay */
    n += mr_log_counter(p + n, 0x0001, 0);      /* corrected, delayed */
    n += mr_log_counter(p + n, 0x0002, 0);      /* rereads/rewrites */
    n += mr_log_counter(p + n, 0x0003, 0);      /* total corrected */
    n += mr_log_counter(p + n, 0x0004, 0);      /* algorithm invocations */
    n += mr_log_counter(p + n, 0x0005, blocks * u->block_size);
    n += mr_log_counter(p + n, 0x0006, bad);    /* total uncorrected */
    return n;
}

/*
 * Keep the parameters whose code is at least the PARAMETER POINTER (SPC
 * LOG SENSE); p holds n bytes of parameters.  Returns the new length.
 */
static int mr_log_from_pointer(uint8_t *p, int n, uint16_t pointer)
{
    int in = 0, out = 0;

    while (in + 4 <= n) {
        int len = 4 + p[in + 3];

        if (in + len > n) {
            break;
        }
        if (mr_get16(p + in) >= pointer) {
            memmove(p + out, p + in, len);
            out += len;
        }
        in += len;
    }
    return out;
}

/* Background scan results (15h): status parameter only, no scan active. */
static int mr_log_background_scan(const MRUnit *u, uint8_t *p)
{
    uint8_t b[12] = { 0 };

    mr_put32(b, mr_power_on_hours(u) * 60);     /* power-on minutes */
    b[5] = 0x00;                                /* no scan active */
    mr_put16(b + 6, 1);                         /* scans performed */
    mr_put16(b + 10, 1);                        /* medium scans performed */
    return mr_log_param(p, 0x0000, 0x03, b, sizeof(b));
}

/*
 * Protocol specific port (18h) of a SAS drive: port A, one phy at 12 Gb/s
 * attached to the controller, whose link came up at power on (reason and
 * attached reason 1h), no link errors.
 */
static int mr_log_sas_port(const MRUnit *u, uint8_t *p)
{
    uint8_t b[4 + 52] = { 0 };
    uint8_t *phy = b + 4;

    b[0] = 0x06;                                /* SAS protocol */
    b[3] = 1;                                   /* number of phys */
    phy[1] = 0;                                 /* phy identifier */
    phy[3] = 52 - 4;                            /* descriptor length */
    phy[4] = 0x11;                  /* attached: end device; power on */
    phy[5] = 0x1b;                  /* reason: power on; 12 Gb/s */
    phy[6] = 0x08;                              /* attached SSP initiator */
    mr_put64(phy + 8, u->wwn + 1);              /* port A */
    mr_put64(phy + 16, 0x500605b000000000ULL | (u->slot & 0xff));
    return mr_log_param(p, 0x0001, 0x03, b, sizeof(b));
}

int mr_build_log_sense(const MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                       MRSense *s)
{
    uint8_t page = cdb[2] & 0x3f;
    uint8_t subpage = cdb[3];
    uint8_t *p = buf + 4;
    uint8_t list[16], b[16];
    int n = 0, i, cnt;

    if (cdb[1] & 0x02) {                        /* PPC */
        mr_sense_bad_cdb(s, 1, 1);
        return -1;
    }
    if (cdb[1] & 0x01) {                        /* SP: nothing to save */
        mr_sense_bad_cdb(s, 1, 0);
        return -1;
    }
    cnt = mr_log_pages(u, list);
    if (subpage == 0xff && page == 0x00) {
        /* supported pages and subpages */
        for (i = 0; i < cnt; i++) {
            p[n++] = list[i];
            p[n++] = 0x00;
        }
        p[n++] = 0x00;
        p[n++] = 0xff;
        buf[0] = 0x40;
        buf[1] = 0xff;
        mr_put16(buf + 2, n);
        return 4 + n;
    }
    if (subpage != 0) {
        mr_sense_bad_cdb(s, 3, -1);
        return -1;
    }
    if (!memchr(list, page, cnt)) {
        mr_sense_bad_cdb(s, 2, 5);
        return -1;
    }
    buf[0] = page;
    buf[1] = 0;
    switch (page) {
    case 0x00:
        memcpy(p, list, cnt);
        n = cnt;
        break;
    case 0x02:
        n = mr_log_errors(u, true, p);
        break;
    case 0x03:
        n = mr_log_errors(u, false, p);
        break;
    case 0x06:
        n = mr_log_counter(p, 0x0000, 0);
        break;
    case 0x0d:
        b[0] = 0;
        b[1] = MR_TEMP_C;
        n += mr_log_param(p + n, 0x0000, 0x03, b, 2);
        b[1] = MR_TEMP_TRIP_C;
        n += mr_log_param(p + n, 0x0001, 0x03, b, 2);
        break;
    case 0x0e:
        n += mr_log_param(p + n, 0x0001, 0x01, "202314", 6);
        n += mr_log_param(p + n, 0x0002, 0x01, "      ", 6);
        mr_put32(b, 50000);
        n += mr_log_param(p + n, 0x0003, 0x03, b, 4);
        mr_put32(b, u->ts.start_stop_cycles + 12);
        n += mr_log_param(p + n, 0x0004, 0x03, b, 4);
        mr_put32(b, 600000);
        n += mr_log_param(p + n, 0x0005, 0x03, b, 4);
        mr_put32(b, u->media == MR_MEDIA_HDD ?
                    u->ts.start_stop_cycles + 40 : 0);
        n += mr_log_param(p + n, 0x0006, 0x03, b, 4);
        break;
    case 0x10:
        /* twenty self-test result entries, most recent first */
        for (i = 0; i < 20; i++) {
            uint8_t code = i < u->ts.selftest_count ?
                           u->ts.selftest_code[i] : 0;

            memset(b, 0, sizeof(b));
            if (code) {
                /* SCSI code: 1/2 background, 5/6 foreground; passed */
                b[0] = ((code & 0x80 ? 4 : 0) + (code & 0x7f)) << 5;
                b[1] = u->ts.selftest_count - i;
                mr_put16(b + 2, u->ts.selftest_hours[i]);
                mr_put64(b + 4, UINT64_MAX);
            }
            n += mr_log_param(p + n, i + 1, 0x03, b, 0x10);
        }
        break;
    case 0x11:
        memset(b, 0, 4);
        b[3] = MIN(100, 1 + u->ts.blocks_written / (1ULL << 31));
        n += mr_log_param(p + n, 0x0001, 0x03, b, 4);
        break;
    case 0x15:
        n = mr_log_background_scan(u, p);
        break;
    case 0x18:
        n = mr_log_sas_port(u, p);
        break;
    case 0x2f:
        b[0] = 0;                               /* IE ASC: no failure */
        b[1] = 0;
        b[2] = MR_TEMP_C;
        b[3] = MR_TEMP_TRIP_C;
        n += mr_log_param(p + n, 0x0000, 0x03, b, 4);
        break;
    }
    if (page != 0x00 && mr_get16(cdb + 5)) {
        n = mr_log_from_pointer(p, n, mr_get16(cdb + 5));
        if (n == 0) {
            /* the pointer is beyond the page's last parameter */
            mr_sense_bad_cdb(s, 5, -1);
            return -1;
        }
    }
    mr_put16(buf + 2, n);
    return 4 + n;
}
