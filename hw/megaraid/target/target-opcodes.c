/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: REPORT SUPPORTED OPERATION CODES (SPC-5 6.36) of the SCSI
 * target: the table of commands it implements, with the CDB usage data
 * of each (the bits the target examines).  Pure builder (target-int.h).
 */

#include "qemu/osdep.h"
#include "scsi/constants.h"
#include "target-int.h"

#define MR_SA_NONE  0xffff

typedef struct MROpcode {
    uint8_t len;
    uint16_t sa;                /* MR_SA_NONE: no service action */
    uint8_t only;               /* 0 all, 1 SATA drives, 2 with discard */
    uint8_t usage[16];          /* byte 0 is the opcode */
} MROpcode;

#define RW10(op)  { 10, MR_SA_NONE, 0, { op, 0xf8, 0xff, 0xff, 0xff, 0xff, \
                                         0x00, 0xff, 0xff, 0x00 } }
#define RW12(op)  { 12, MR_SA_NONE, 0, { op, 0xf8, 0xff, 0xff, 0xff, 0xff, \
                                         0xff, 0xff, 0xff, 0xff, 0x00, \
                                         0x00 } }
#define RW16(op)  { 16, MR_SA_NONE, 0, { op, 0xf8, 0xff, 0xff, 0xff, 0xff, \
                                         0xff, 0xff, 0xff, 0xff, 0xff, \
                                         0xff, 0xff, 0xff, 0x00, 0x00 } }

static const MROpcode mr_opcodes[] = {
    { 6, MR_SA_NONE, 0, { TEST_UNIT_READY, 0, 0, 0, 0, 0 } },
    { 6, MR_SA_NONE, 0, { REQUEST_SENSE, 0x01, 0, 0, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { READ_6, 0x1f, 0xff, 0xff, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { WRITE_6, 0x1f, 0xff, 0xff, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { INQUIRY, 0x03, 0xff, 0xff, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { MODE_SELECT, 0x11, 0, 0, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { MODE_SENSE, 0x08, 0xff, 0xff, 0xff, 0 } },
    { 6, MR_SA_NONE, 0, { START_STOP, 0x01, 0, 0, 0xf5, 0 } },
    { 6, MR_SA_NONE, 0, { SEND_DIAGNOSTIC, 0xe4, 0, 0xff, 0xff, 0 } },
    { 10, MR_SA_NONE, 0, { READ_CAPACITY_10, 0, 0xff, 0xff, 0xff, 0xff,
                           0, 0, 0x01, 0 } },
    RW10(READ_10),
    RW10(WRITE_10),
    RW10(WRITE_VERIFY_10),
    { 10, MR_SA_NONE, 0, { VERIFY_10, 0xe6, 0xff, 0xff, 0xff, 0xff, 0,
                           0xff, 0xff, 0 } },
    { 10, MR_SA_NONE, 0, { READ_DEFECT_DATA, 0, 0x1f, 0, 0, 0, 0, 0xff,
                           0xff, 0 } },
    { 12, MR_SA_NONE, 0, { READ_DEFECT_DATA_12, 0x1f, 0, 0, 0, 0, 0xff,
                           0xff, 0xff, 0xff, 0, 0 } },
    { 10, MR_SA_NONE, 0, { SYNCHRONIZE_CACHE, 0, 0xff, 0xff, 0xff, 0xff, 0,
                           0xff, 0xff, 0 } },
    { 10, MR_SA_NONE, 0, { WRITE_SAME_10, 0xf8, 0xff, 0xff, 0xff, 0xff, 0,
                           0xff, 0xff, 0 } },
    { 10, MR_SA_NONE, 2, { UNMAP, 0x01, 0, 0, 0, 0, 0, 0xff, 0xff, 0 } },
    { 10, MR_SA_NONE, 0, { LOG_SELECT, 0x02, 0, 0, 0, 0, 0, 0xff, 0xff,
                           0 } },
    { 10, MR_SA_NONE, 0, { LOG_SENSE, 0x03, 0xff, 0xff, 0, 0xff, 0xff, 0xff,
                           0xff, 0 } },
    { 10, MR_SA_NONE, 0, { MODE_SELECT_10, 0x11, 0, 0, 0, 0, 0, 0xff, 0xff,
                           0 } },
    { 10, MR_SA_NONE, 0, { MODE_SENSE_10, 0x18, 0xff, 0xff, 0, 0, 0, 0xff,
                           0xff, 0 } },
    { 16, MR_SA_NONE, 1, { ATA_PASSTHROUGH_16, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0 } },
    RW16(READ_16),
    RW16(WRITE_16),
    RW16(WRITE_VERIFY_16),
    { 16, MR_SA_NONE, 0, { VERIFY_16, 0xe6, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0,
                           0 } },
    { 16, MR_SA_NONE, 0, { SYNCHRONIZE_CACHE_16, 0, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0, 0 } },
    { 16, MR_SA_NONE, 0, { WRITE_SAME_16, 0xf9, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0, 0 } },
    { 16, SAI_READ_CAPACITY_16, 0, { SERVICE_ACTION_IN_16, 0x1f, 0, 0, 0, 0,
                                     0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
                                     0, 0 } },
    { 12, MR_SA_NONE, 0, { REPORT_LUNS, 0, 0xff, 0, 0, 0, 0xff, 0xff, 0xff,
                           0xff, 0, 0 } },
    { 12, MR_SA_NONE, 1, { ATA_PASSTHROUGH_12, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0, 0 } },
    { 12, 0x0c, 0, { MAINTENANCE_IN, 0x1f, 0x87, 0xff, 0xff, 0xff, 0xff,
                     0xff, 0xff, 0xff, 0, 0 } },
    RW12(READ_12),
    RW12(WRITE_12),
    RW12(WRITE_VERIFY_12),
    { 12, MR_SA_NONE, 0, { VERIFY_12, 0xe6, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0, 0 } },
};

static bool mr_opcode_offered(const MRUnit *u, const MROpcode *o)
{
    return o->only == 0 || (o->only == 1 && u->iface == MR_IF_SATA) ||
           (o->only == 2 && u->discard);
}

/* Command timeouts descriptor (no timeouts reported); returns 12. */
static int mr_timeouts_desc(uint8_t *p)
{
    memset(p, 0, 12);
    mr_put16(p, 0x0a);
    return 12;
}

/* REPORT SUPPORTED OPERATION CODES (A3h/0Ch) into buf (MR_RESP_MAX). */
int mr_build_report_opcodes(const MRUnit *u, const uint8_t *cdb,
                            uint8_t *buf, MRSense *s)
{
    bool rctd = cdb[2] & 0x80;
    uint8_t option = cdb[2] & 0x07;
    uint8_t op = cdb[3];
    uint16_t sa = mr_get16(cdb + 4);
    const MROpcode *o = NULL;
    int i, n;

    if (option == 0) {
        n = 4;
        for (i = 0; i < ARRAY_SIZE(mr_opcodes); i++) {
            o = &mr_opcodes[i];
            if (!mr_opcode_offered(u, o)) {
                continue;
            }
            memset(buf + n, 0, 8);
            buf[n] = o->usage[0];
            if (o->sa != MR_SA_NONE) {
                mr_put16(buf + n + 2, o->sa);
                buf[n + 5] |= 0x01;             /* SERVACTV */
            }
            mr_put16(buf + n + 6, o->len);
            if (rctd) {
                buf[n + 5] |= 0x02;             /* CTDP */
                n += 8 + mr_timeouts_desc(buf + n + 8);
            } else {
                n += 8;
            }
        }
        mr_put32(buf, n - 4);
        return n;
    }
    if (option > 3) {
        mr_sense_bad_cdb(s, 2, 2);
        return -1;
    }
    for (i = 0; i < ARRAY_SIZE(mr_opcodes); i++) {
        const MROpcode *c = &mr_opcodes[i];

        if (c->usage[0] != op || !mr_opcode_offered(u, c)) {
            continue;
        }
        if (option == 1 && c->sa != MR_SA_NONE) {
            /* the opcode has service actions: option 1 is invalid */
            mr_sense_bad_cdb(s, 2, 2);
            return -1;
        }
        if (option == 2 && c->sa == MR_SA_NONE) {
            mr_sense_bad_cdb(s, 2, 2);
            return -1;
        }
        if ((option == 2 || (option == 3 && c->sa != MR_SA_NONE)) &&
            c->sa != sa) {
            continue;
        }
        o = c;
        break;
    }
    memset(buf, 0, 4);
    if (!o) {
        buf[1] = 0x01;                          /* not supported */
        return 4;
    }
    buf[1] = 0x03 | (rctd ? 0x80 : 0);          /* supported, CTDP */
    mr_put16(buf + 2, o->len);
    memcpy(buf + 4, o->usage, o->len);
    n = 4 + o->len;
    if (rctd) {
        n += mr_timeouts_desc(buf + n);
    }
    return n;
}
