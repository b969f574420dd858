/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: sense data of the SCSI target, in fixed (70h) or
 * descriptor (72h) format (SPC-5 4.4), with the INFORMATION field, the
 * sense-key specific field pointer and the ATA status return descriptor
 * (SAT-4 12.2.2.6).
 */

#include "qemu/osdep.h"
#include "scsi/constants.h"
#include "target-int.h"

void mr_sense_set(MRSense *s, uint8_t key, uint8_t asc, uint8_t ascq)
{
    memset(s, 0, sizeof(*s));
    s->key = key;
    s->asc = asc;
    s->ascq = ascq;
    s->sks_bit = -1;
}

static void mr_sense_field(MRSense *s, uint8_t asc, bool cd, uint16_t byte,
                           int bit)
{
    mr_sense_set(s, ILLEGAL_REQUEST, asc, 0);
    s->sks_valid = true;
    s->sks_cd = cd;
    s->sks_field = byte;
    s->sks_bit = bit;
}

/* INVALID FIELD IN CDB, pointing at byte (and bit, or -1). */
void mr_sense_bad_cdb(MRSense *s, uint16_t byte, int bit)
{
    mr_sense_field(s, 0x24, true, byte, bit);
}

/* INVALID FIELD IN PARAMETER LIST. */
void mr_sense_bad_param(MRSense *s, uint16_t byte, int bit)
{
    mr_sense_field(s, 0x26, false, byte, bit);
}

/* INVALID COMMAND OPERATION CODE, pointing at the opcode. */
void mr_sense_bad_opcode(MRSense *s)
{
    mr_sense_field(s, 0x20, true, 0, -1);
}

static void mr_sks_bytes(const MRSense *s, uint8_t *p)
{
    p[0] = 0x80 | (s->sks_cd ? 0x40 : 0);
    if (s->sks_bit >= 0) {
        p[0] |= 0x08 | (s->sks_bit & 7);
    }
    mr_put16(p + 1, s->sks_field);
}

/*
 * Write the sense data for s into out (size bytes, at least 18) and
 * return its length.  desc selects descriptor format; an ATA status
 * return descriptor always uses descriptor format, as SAT requires for
 * CK_COND results that fixed format cannot carry.
 */
size_t mr_sense_build(const MRSense *s, bool desc, uint8_t *out, size_t size)
{
    uint8_t b[64];
    size_t n;

    memset(b, 0, sizeof(b));
    if (desc || s->ata_valid) {
        b[0] = 0x72;
        b[1] = s->key & 0xf;
        b[2] = s->asc;
        b[3] = s->ascq;
        n = 8;
        if (s->info_valid) {
            b[n] = 0x00;
            b[n + 1] = 0x0a;
            b[n + 2] = 0x80;
            mr_put64(b + n + 4, s->info);
            n += 12;
        }
        if (s->sks_valid) {
            b[n] = 0x02;
            b[n + 1] = 0x06;
            mr_sks_bytes(s, b + n + 4);
            n += 8;
        }
        if (s->ata_valid) {
            b[n] = 0x09;
            b[n + 1] = 0x0c;
            memcpy(b + n + 2, s->ata, 12);
            n += 14;
        }
        b[7] = n - 8;
    } else {
        b[0] = 0x70;
        b[2] = s->key & 0xf;
        if (s->info_valid && s->info <= UINT32_MAX) {
            b[0] |= 0x80;
            mr_put32(b + 3, s->info);
        }
        b[7] = 10;
        b[12] = s->asc;
        b[13] = s->ascq;
        if (s->sks_valid) {
            mr_sks_bytes(s, b + 15);
        }
        n = 18;
    }
    n = MIN(n, size);
    memcpy(out, b, n);
    return n;
}
