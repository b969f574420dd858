/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SES device server (ses.h): the commands an enclosure
 * services device answers (INQUIRY with its VPD pages, REPORT LUNS, TEST
 * UNIT READY, REQUEST SENSE, RECEIVE DIAGNOSTIC RESULTS, SEND DIAGNOSTIC)
 * and its diagnostic pages from SES-3: Supported Diagnostic Pages (00h),
 * Configuration (01h: one enclosure, one type descriptor header, Array
 * Device Slot, one element per bay), Enclosure Status (02h: a slot's
 * drive, its RAID state and its LEDs), Enclosure Control (02h sent:
 * RQST IDENT and RQST FAULT per slot), Element Descriptor (07h: "SlotNN")
 * and Additional Element Status (0Ah: the SAS address of the drive in each
 * bay, which is how a host ties a bay to its disk).
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "scsi/constants.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/ses.h"
#include "hw/megaraid/array/drive-leds.h"
#include "target-int.h"
#include "trace.h"

/* Diagnostic page codes (SES-3) */
#define SES_PG_SUPPORTED        0x00
#define SES_PG_CONFIG           0x01
#define SES_PG_STATUS           0x02    /* received; sent: control */
#define SES_PG_DESCRIPTOR       0x07
#define SES_PG_ADDL_STATUS      0x0a

#define SES_ELEM_ARRAY_SLOT     0x17    /* Array Device Slot element type */
#define SES_ELEM_BYTES          4       /* a status or control element */
#define SES_ENCL_DESC_BYTES     40      /* enclosure descriptor, 36 + 4 */
#define SES_ADDL_DESC_BYTES     36      /* EIP, one phy descriptor */
#define SES_PROTO_SAS           0x6

/* Element status codes */
#define SES_ST_OK               0x1
#define SES_ST_CRITICAL         0x2
#define SES_ST_NOT_INSTALLED    0x5

/* Array Device Slot control, byte 0 */
#define SES_CTL_SELECT          0x80
/* ... byte 2 and byte 3 */
#define SES_CTL_RQST_IDENT      0x02
#define SES_CTL_RQST_FAULT      0x20

/* The page header all pages share: code, byte 1, length, generation */
#define SES_HDR_BYTES           8
/* A control page at most: its header, the overall element and the slots */
#define SES_CTL_MAX             (SES_HDR_BYTES + \
                                 SES_ELEM_BYTES * (MR_SES_MAX_SLOTS + 1))

static const uint8_t ses_pages[] = {
    SES_PG_SUPPORTED, SES_PG_CONFIG, SES_PG_STATUS, SES_PG_DESCRIPTOR,
    SES_PG_ADDL_STATUS,
};

void mr_ses_init(MRSes *ses, const char *name, uint32_t num_slots,
                 uint64_t logical_id, uint64_t sas_address,
                 uint64_t attached_address, MRSesSlotDrive *slot_drive,
                 void *opaque)
{
    MRUnit *u = &ses->unit;

    assert(num_slots <= MR_SES_MAX_SLOTS);
    memset(ses, 0, sizeof(*ses));
    ses->num_slots = num_slots;
    ses->logical_id = logical_id;
    ses->attached_address = attached_address;
    ses->slot_drive = slot_drive;
    ses->opaque = opaque;
    u->ses = ses;
    u->iface = MR_IF_SAS;
    u->vendor = g_strdup("BROADCOM");
    u->model = g_strdup("VirtualSES");
    u->serial = g_strdup_printf("%016" PRIx64, sas_address);
    u->firmware = g_strdup("03");
    u->wwn = sas_address;
    u->block_size = 512;
    u->phys_block_size = 512;
    pstrcpy(u->name, sizeof(u->name), name);
}

void mr_ses_cleanup(MRSes *ses)
{
    g_free(ses->unit.vendor);
    g_free(ses->unit.model);
    g_free(ses->unit.serial);
    g_free(ses->unit.firmware);
    ses->unit.vendor = ses->unit.model = NULL;
    ses->unit.serial = ses->unit.firmware = NULL;
}

/* ---- INQUIRY ---- */

static int ses_std_inquiry(const MRUnit *u, uint8_t *buf)
{
    buf[0] = TYPE_ENCLOSURE;
    buf[2] = 0x06;                      /* SPC-4 */
    buf[3] = 0x02;                      /* response data format */
    buf[4] = 36 - 5;
    buf[6] = 0x40;                      /* EncServ */
    mr_pad(buf + 8, u->vendor, 8);
    mr_pad(buf + 16, u->model, 16);
    mr_pad(buf + 32, u->firmware, 4);
    return 36;
}

static int ses_inquiry(MRTargetReq *req, uint8_t *buf, MRSense *s)
{
    const MRUnit *u = req->unit;
    const uint8_t *cdb = req->cdb;
    size_t l;

    if (cdb[1] & 0x02) {                /* CMDDT (obsolete) */
        mr_sense_bad_cdb(s, 1, 1);
        return -1;
    }
    if (!(cdb[1] & 0x01)) {
        if (cdb[2]) {
            mr_sense_bad_cdb(s, 2, -1);
            return -1;
        }
        return ses_std_inquiry(u, buf);
    }
    buf[0] = TYPE_ENCLOSURE;
    buf[1] = cdb[2];
    switch (cdb[2]) {
    case 0x00:
        buf[4] = 0x00;
        buf[5] = 0x80;
        buf[6] = 0x83;
        mr_put16(buf + 2, 3);
        return 7;
    case 0x80:
        l = strlen(u->serial);
        memcpy(buf + 4, u->serial, l);
        mr_put16(buf + 2, l);
        return 4 + l;
    case 0x83:
        /* the logical unit's NAA name: its SAS address */
        buf[4] = 0x01;                  /* binary */
        buf[5] = 0x03;                  /* logical unit, NAA */
        buf[7] = 8;
        mr_put64(buf + 8, u->wwn);
        mr_put16(buf + 2, 12);
        return 16;
    }
    mr_sense_bad_cdb(s, 2, -1);
    return -1;
}

/* ---- RECEIVE DIAGNOSTIC RESULTS ---- */

/* A page's header; @len is the whole page, header included. */
static int ses_page_done(uint8_t *buf, uint8_t code, int len)
{
    buf[0] = code;
    mr_put16(buf + 2, len - 4);
    mr_put32(buf + 4, 0);               /* generation: the set is fixed */
    return len;
}

static int ses_page_supported(uint8_t *buf)
{
    buf[0] = SES_PG_SUPPORTED;
    memcpy(buf + 4, ses_pages, sizeof(ses_pages));
    mr_put16(buf + 2, sizeof(ses_pages));
    return 4 + sizeof(ses_pages);
}

static int ses_page_config(MRSes *ses, uint8_t *buf)
{
    uint8_t *e = buf + SES_HDR_BYTES;
    uint8_t *t = e + SES_ENCL_DESC_BYTES;

    buf[1] = 0;                         /* no secondary subenclosures */
    e[0] = 0x11;                        /* process 1 of 1 */
    e[1] = 0;                           /* subenclosure 0 */
    e[2] = 1;                           /* type descriptor headers */
    e[3] = SES_ENCL_DESC_BYTES - 4;
    mr_put64(e + 4, ses->logical_id);
    mr_pad(e + 12, ses->unit.vendor, 8);
    mr_pad(e + 20, ses->unit.model, 16);
    mr_pad(e + 36, ses->unit.firmware, 4);
    t[0] = SES_ELEM_ARRAY_SLOT;
    t[1] = ses->num_slots;
    t[2] = 0;                           /* subenclosure 0 */
    t[3] = 0;                           /* no type descriptor text */
    return ses_page_done(buf, SES_PG_CONFIG, t + 4 - buf);
}

/* The status element of bay @slot; true if its drive has failed. */
static bool ses_slot_status(MRSes *ses, uint32_t slot, uint8_t *el)
{
    MRDrive *d = ses->slot_drive(ses->opaque, slot);
    MRDriveLeds l;

    if (!d) {
        el[0] = SES_ST_NOT_INSTALLED;
        return false;
    }
    mr_drive_leds(d, &l);
    el[0] = l.failed ? SES_ST_CRITICAL : SES_ST_OK;
    el[1] = (l.failed ? 0 : 0x80) |     /* OK */
            (l.hot_spare ? 0x20 : 0) |  /* HOT SPARE */
            (l.rebuild ? 0x02 : 0);     /* REBUILD/REMAP */
    el[2] = l.locate ? 0x02 : 0;        /* IDENT */
    el[3] = (l.failed ? 0x40 : 0) |     /* FAULT SENSED */
            (l.fault_requested ? 0x20 : 0);     /* FAULT REQSTD */
    return l.failed;
}

static int ses_page_status(MRSes *ses, uint8_t *buf)
{
    uint8_t *el = buf + SES_HDR_BYTES + SES_ELEM_BYTES;   /* past overall */
    bool critical = false;

    for (uint32_t i = 0; i < ses->num_slots; i++, el += SES_ELEM_BYTES) {
        critical |= ses_slot_status(ses, i, el);
    }
    buf[1] = critical ? 0x02 : 0;       /* CRIT: an element is critical */
    return ses_page_done(buf, SES_PG_STATUS, el - buf);
}

/* One element descriptor: reserved, length, text. */
static uint8_t *ses_descriptor(uint8_t *p, const char *text)
{
    size_t l = strlen(text);

    mr_put16(p + 2, l);
    memcpy(p + 4, text, l);
    return p + 4 + l;
}

static int ses_page_descriptor(MRSes *ses, uint8_t *buf)
{
    uint8_t *p = ses_descriptor(buf + SES_HDR_BYTES, "Drive Slots");

    for (uint32_t i = 0; i < ses->num_slots; i++) {
        char name[16];

        snprintf(name, sizeof(name), "Slot%02u", i);
        p = ses_descriptor(p, name);
    }
    return ses_page_done(buf, SES_PG_DESCRIPTOR, p - buf);
}

/* The SAS descriptor of bay @slot: the drive's phy, attached to ours. */
static void ses_slot_addl(MRSes *ses, uint32_t slot, uint8_t *p)
{
    MRDrive *d = ses->slot_drive(ses->opaque, slot);
    uint8_t *phy = p + 8;

    p[0] = (d ? 0 : 0x80) | 0x10 | SES_PROTO_SAS;   /* INVALID, EIP */
    p[1] = SES_ADDL_DESC_BYTES - 2;
    p[3] = slot;                        /* element index */
    p[4] = 1;                           /* phy descriptors */
    p[5] = 0;                           /* device slot type, all phys */
    p[7] = slot;                        /* device slot number */
    if (!d) {
        return;
    }
    phy[0] = 0x10;                      /* end device */
    phy[3] = d->unit.iface == MR_IF_SATA ? 0x01 : 0x08;  /* SATA / SSP */
    mr_put64(phy + 4, ses->attached_address);
    mr_put64(phy + 12, d->unit.wwn);
    phy[20] = 0;                        /* phy identifier */
}

static int ses_page_addl(MRSes *ses, uint8_t *buf)
{
    uint8_t *p = buf + SES_HDR_BYTES;

    for (uint32_t i = 0; i < ses->num_slots; i++, p += SES_ADDL_DESC_BYTES) {
        ses_slot_addl(ses, i, p);
    }
    return ses_page_done(buf, SES_PG_ADDL_STATUS, p - buf);
}

static int ses_receive_diag(MRTargetReq *req, uint8_t *buf, MRSense *s)
{
    MRSes *ses = req->unit->ses;
    uint8_t page = req->cdb[2];

    if (!(req->cdb[1] & 0x01)) {
        /* PCV 0: the page of the last SEND DIAGNOSTIC */
        if (page) {
            mr_sense_bad_cdb(s, 2, -1);
            return -1;
        }
        page = ses->last_page;
    }
    trace_megaraid_target_ses_receive(req->unit->name, page);
    switch (page) {
    case SES_PG_SUPPORTED:
        return ses_page_supported(buf);
    case SES_PG_CONFIG:
        return ses_page_config(ses, buf);
    case SES_PG_STATUS:
        return ses_page_status(ses, buf);
    case SES_PG_DESCRIPTOR:
        return ses_page_descriptor(ses, buf);
    case SES_PG_ADDL_STATUS:
        return ses_page_addl(ses, buf);
    }
    trace_megaraid_err_target_ses(req->unit->name, page, "unsupported page");
    mr_sense_bad_cdb(s, 2, -1);
    return -1;
}

/* ---- SEND DIAGNOSTIC ---- */

/* Enclosure Control: the element checks, then the requests of each slot. */
static bool ses_control(MRTargetReq *req, const uint8_t *pg, uint32_t len,
                        MRSense *s)
{
    MRSes *ses = req->unit->ses;
    uint32_t want = SES_HDR_BYTES + SES_ELEM_BYTES * (ses->num_slots + 1);
    const uint8_t *el = pg + SES_HDR_BYTES + SES_ELEM_BYTES;

    if (len != want) {
        /* more elements than slots, or fewer than the page has */
        trace_megaraid_err_target_ses(req->unit->name, pg[0],
                                      "control page length");
        mr_sense_bad_param(s, 2, -1);
        return false;
    }
    if (mr_get32(pg + 4) != 0) {
        trace_megaraid_err_target_ses(req->unit->name, pg[0],
                                      "expected generation");
        mr_sense_bad_param(s, 4, -1);
        return false;
    }
    for (uint32_t i = 0; i < ses->num_slots; i++, el += SES_ELEM_BYTES) {
        MRDrive *d;

        if (!(el[0] & SES_CTL_SELECT)) {
            continue;
        }
        d = ses->slot_drive(ses->opaque, i);
        trace_megaraid_target_ses_control(req->unit->name, i, !!d,
                                          !!(el[2] & SES_CTL_RQST_IDENT),
                                          !!(el[3] & SES_CTL_RQST_FAULT));
        if (d) {
            /* an empty bay's LEDs go with the bay's next drive: none */
            mr_drive_set_locate(d, el[2] & SES_CTL_RQST_IDENT);
            mr_drive_set_fault_led(d, el[3] & SES_CTL_RQST_FAULT);
        }
    }
    return true;
}

static void ses_send_diag(MRTargetReq *req)
{
    const uint8_t *cdb = req->cdb;
    uint32_t len = mr_get16(cdb + 3);
    g_autofree uint8_t *pg = NULL;
    MRSense s;

    if (cdb[1] & 0x04) {
        /* SELFTEST: the enclosure's own test passes */
        mr_target_good(req);
        return;
    }
    if (!len) {
        mr_target_good(req);
        return;
    }
    if (!(cdb[1] & 0x10)) {             /* a page needs PF */
        mr_sense_bad_cdb(&s, 1, 4);
        mr_target_fail(req, &s);
        return;
    }
    if (len < SES_HDR_BYTES || len > SES_CTL_MAX) {
        trace_megaraid_err_target_ses(req->unit->name, 0xff,
                                      "parameter list length");
        mr_sense_bad_cdb(&s, 3, -1);
        mr_target_fail(req, &s);
        return;
    }
    pg = g_malloc0(len);
    if (mr_target_fetch(req, pg, len) < len) {
        trace_megaraid_err_target_short_param(req->unit->name, cdb[0], len,
                                              req->xfer_count);
        mr_sense_set(&s, ILLEGAL_REQUEST, 0x1a, 0x00);
        mr_target_fail(req, &s);
        return;
    }
    if (mr_get16(pg + 2) + 4 != len) {
        trace_megaraid_err_target_ses(req->unit->name, pg[0], "page length");
        mr_sense_bad_param(&s, 2, -1);
        mr_target_fail(req, &s);
        return;
    }
    if (pg[0] != SES_PG_STATUS) {
        trace_megaraid_err_target_ses(req->unit->name, pg[0],
                                      "unsupported control page");
        mr_sense_set(&s, ILLEGAL_REQUEST, 0x35, 0x01);
        mr_target_fail(req, &s);
        return;
    }
    if (!ses_control(req, pg, len, &s)) {
        mr_target_fail(req, &s);
        return;
    }
    req->unit->ses->last_page = pg[0];
    mr_target_good(req);
}

/* ---- dispatch ---- */

void mr_ses_execute(MRTargetReq *req)
{
    g_autofree uint8_t *buf = g_malloc0(MR_RESP_MAX);
    const uint8_t *cdb = req->cdb;
    uint32_t alloc;
    MRSense s;
    int n;

    mr_sense_set(&s, NO_SENSE, 0, 0);
    switch (cdb[0]) {
    case TEST_UNIT_READY:
        mr_target_good(req);
        return;
    case SEND_DIAGNOSTIC:
        ses_send_diag(req);
        return;
    case INQUIRY:
        alloc = mr_get16(cdb + 3);
        n = ses_inquiry(req, buf, &s);
        break;
    case REPORT_LUNS:
        alloc = mr_get32(cdb + 6);
        n = mr_build_report_luns(cdb, buf, &s);
        break;
    case REQUEST_SENSE:
        alloc = cdb[4];
        n = mr_sense_build(&s, cdb[1] & 1, buf, MR_SENSE_MAX);
        break;
    case RECEIVE_DIAGNOSTIC:
        alloc = mr_get16(cdb + 3);
        n = ses_receive_diag(req, buf, &s);
        break;
    default:
        trace_megaraid_err_target_opcode(req->unit->name, cdb[0]);
        mr_sense_bad_opcode(&s);
        n = -1;
        alloc = 0;
        break;
    }
    if (n < 0) {
        mr_target_fail(req, &s);
    } else {
        mr_target_send(req, buf, n, alloc);
    }
}
