/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache journal's on-disk format (see
 * array-journal.h): encoding and checking the journal header, encoding
 * record headers and scanning records.  No I/O.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/iov.h"
#include "qemu/cutils.h"
#include "raid/crc32c.h"
#include "array-journal.h"

static const char mr_journal_magic[8] = "MRSIMJNL";
#define MR_JREC_MAGIC           0x524a524dU     /* "MRJR" on disk */
#define MR_JREC_CRC_OFF         28
#define MR_JREC_GEN_OFF         56
#define MR_JFILE_GEN_OFF        16
#define MR_JFILE_CRC_OFF        60

/*
 * CRC-32C over pieces: start from ~0, feed pieces with mr_journal_crc(),
 * finish with ~.  raid_crc32c() runs on ISA-L's crc32_iscsi() (the CPU's
 * CRC32 instruction) when the build has ISA-L: QEMU's table-driven
 * crc32c() took a third of the process's time under a sequential
 * write-back stream (128 KiB records), on the main loop.  The values are
 * those of ~crc32c(crc, ...) with or without ISA-L: journals stay
 * readable.
 */
static uint32_t mr_journal_crc(uint32_t crc, const void *buf, size_t len)
{
    return raid_crc32c(crc, buf, len);
}

void mr_journal_file_hdr_encode(uint8_t hdr[MR_JOURNAL_FILE_HDR],
                                uint64_t gen)
{
    memset(hdr, 0, MR_JOURNAL_FILE_HDR);
    memcpy(hdr, mr_journal_magic, sizeof(mr_journal_magic));
    stl_le_p(hdr + 8, MR_JOURNAL_VERSION);
    stl_le_p(hdr + 12, MR_JOURNAL_REC_HDR);
    stq_le_p(hdr + MR_JFILE_GEN_OFF, gen);
    stl_le_p(hdr + MR_JFILE_CRC_OFF,
             ~mr_journal_crc(~0U, hdr, MR_JFILE_CRC_OFF));
}

bool mr_journal_file_hdr_blank(const uint8_t *buf, size_t len)
{
    return len >= MR_JOURNAL_FILE_HDR &&
           buffer_is_zero(buf, MR_JOURNAL_FILE_HDR);
}

const char *mr_journal_file_hdr_check(const uint8_t *buf, size_t len,
                                      uint64_t *gen)
{
    if (len < MR_JOURNAL_FILE_HDR) {
        return "shorter than a journal header";
    }
    if (memcmp(buf, mr_journal_magic, sizeof(mr_journal_magic))) {
        return "not a megaraid-sim cache journal (bad magic)";
    }
    if (ldl_le_p(buf + MR_JFILE_CRC_OFF) !=
        ~mr_journal_crc(~0U, buf, MR_JFILE_CRC_OFF)) {
        return "journal header checksum mismatch";
    }
    if (ldl_le_p(buf + 8) != MR_JOURNAL_VERSION) {
        return "unsupported journal version";
    }
    if (ldl_le_p(buf + 12) != MR_JOURNAL_REC_HDR) {
        return "unsupported journal record header size";
    }
    if (gen) {
        *gen = ldq_le_p(buf + MR_JFILE_GEN_OFF);
    }
    return NULL;
}

uint64_t mr_journal_rec_size(const MRJournalRec *rec)
{
    uint64_t data = rec->type == MR_JREC_WRITE ?
                    (uint64_t)rec->sectors * MR_JOURNAL_SECTOR : 0;

    return MR_JOURNAL_REC_HDR + data;
}

static void mr_journal_rec_fill(uint8_t hdr[MR_JOURNAL_REC_HDR],
                                const MRJournalRec *rec)
{
    memset(hdr, 0, MR_JOURNAL_REC_HDR);
    stl_le_p(hdr, MR_JREC_MAGIC);
    hdr[4] = rec->type;
    stq_le_p(hdr + 8, rec->seq);
    stq_le_p(hdr + 16, rec->lba);
    stl_le_p(hdr + 24, rec->sectors);
    memcpy(hdr + 32, rec->guid, MR_JOURNAL_GUID_LEN);
    stq_le_p(hdr + MR_JREC_GEN_OFF, rec->gen);
}

void mr_journal_rec_encode(uint8_t hdr[MR_JOURNAL_REC_HDR],
                           const MRJournalRec *rec,
                           const struct iovec *iov, unsigned int niov)
{
    uint32_t crc;
    unsigned int i;

    mr_journal_rec_fill(hdr, rec);
    crc = mr_journal_crc(~0U, hdr, MR_JOURNAL_REC_HDR);
    for (i = 0; i < niov; i++) {
        crc = mr_journal_crc(crc, iov[i].iov_base, iov[i].iov_len);
    }
    stl_le_p(hdr + MR_JREC_CRC_OFF, ~crc);
}

/* Check one record at @p with @avail bytes left; fill @rec. */
static MRJournalStop mr_journal_rec_check(const uint8_t *p, size_t avail,
                                          MRJournalRec *rec)
{
    uint8_t copy[MR_JOURNAL_REC_HDR];
    uint64_t size;
    uint32_t crc;

    if (avail < MR_JOURNAL_REC_HDR) {
        return MR_JSTOP_SHORT;
    }
    if (ldl_le_p(p) != MR_JREC_MAGIC) {
        return MR_JSTOP_MAGIC;
    }
    if (p[4] != MR_JREC_WRITE && p[4] != MR_JREC_INVALIDATE) {
        return MR_JSTOP_TYPE;
    }
    rec->type = p[4];
    rec->seq = ldq_le_p(p + 8);
    rec->lba = ldq_le_p(p + 16);
    rec->sectors = ldl_le_p(p + 24);
    memcpy(rec->guid, p + 32, MR_JOURNAL_GUID_LEN);
    rec->gen = ldq_le_p(p + MR_JREC_GEN_OFF);
    size = mr_journal_rec_size(rec);
    if (size > avail) {
        return MR_JSTOP_SHORT;
    }
    memcpy(copy, p, MR_JOURNAL_REC_HDR);
    stl_le_p(copy + MR_JREC_CRC_OFF, 0);
    crc = mr_journal_crc(~0U, copy, MR_JOURNAL_REC_HDR);
    crc = mr_journal_crc(crc, p + MR_JOURNAL_REC_HDR,
                         size - MR_JOURNAL_REC_HDR);
    if (~crc != ldl_le_p(p + MR_JREC_CRC_OFF)) {
        return MR_JSTOP_CRC;
    }
    return MR_JSTOP_END;
}

uint64_t mr_journal_rec_need(const uint8_t *p, size_t avail)
{
    MRJournalRec rec = { .type = MR_JREC_WRITE };

    if (avail < MR_JOURNAL_REC_HDR) {
        return MR_JOURNAL_REC_HDR;
    }
    if (p[4] != MR_JREC_WRITE) {
        return MR_JOURNAL_REC_HDR;
    }
    rec.sectors = ldl_le_p(p + 24);
    return mr_journal_rec_size(&rec);
}

void mr_journal_scan_piece(const uint8_t *buf, size_t len, uint64_t base,
                           uint64_t gen, MRJournalRecFn fn, void *opaque,
                           MRJournalScan *out)
{
    uint64_t off = out->valid_end;
    const uint8_t *data;
    MRJournalRec rec;

    assert(off >= base);
    while (off < base + len) {
        const uint8_t *p = buf + (off - base);
        MRJournalStop stop = mr_journal_rec_check(p, base + len - off, &rec);

        if (stop == MR_JSTOP_END && rec.gen != gen) {
            stop = MR_JSTOP_GEN;
        }
        if (stop == MR_JSTOP_END && out->records &&
            rec.seq != out->last_seq + 1) {
            stop = MR_JSTOP_SEQ;
        }
        if (stop != MR_JSTOP_END) {
            out->stop = stop;
            return;
        }
        data = rec.type == MR_JREC_WRITE ? p + MR_JOURNAL_REC_HDR : NULL;
        out->records++;
        out->last_seq = rec.seq;
        off += mr_journal_rec_size(&rec);
        out->valid_end = off;
        if (fn && !fn(&rec, data, opaque)) {
            return;
        }
    }
    out->stop = MR_JSTOP_END;
}

void mr_journal_scan(const uint8_t *buf, size_t len, MRJournalRecFn fn,
                     void *opaque, MRJournalScan *out)
{
    memset(out, 0, sizeof(*out));
    out->valid_end = MIN(len, MR_JOURNAL_FILE_HDR);
    if (len <= MR_JOURNAL_FILE_HDR) {
        return;
    }
    mr_journal_scan_piece(buf, len, 0, ldq_le_p(buf + MR_JFILE_GEN_OFF),
                          fn, opaque, out);
}

const char *mr_journal_stop_name(MRJournalStop stop)
{
    static const char *const names[] = {
        [MR_JSTOP_END] = "end",
        [MR_JSTOP_SHORT] = "record cut short",
        [MR_JSTOP_MAGIC] = "no record magic",
        [MR_JSTOP_TYPE] = "unknown record type",
        [MR_JSTOP_CRC] = "record checksum mismatch",
        [MR_JSTOP_SEQ] = "record sequence break",
        [MR_JSTOP_GEN] = "record of an earlier generation",
    };

    return stop < ARRAY_SIZE(names) ? names[stop] : "?";
}
