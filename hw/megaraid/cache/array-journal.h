/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: on-disk format of the controller cache journal (the
 * emulated CacheVault flash).  Pure functions on byte buffers: encode a
 * journal header or a record header, and scan a journal image record by
 * record.  array-cache-vault.c does the drive I/O and the replay.
 *
 * The journal lives on a drive of fixed size (the journal= property):
 * records are appended from the header on, and emptying the journal
 * rewrites the header with the next generation instead of truncating a
 * file; records of another generation than the header's are old ones, and
 * a scan stops at the first of them.  Layout (integers little-endian):
 *
 *   header, MR_JOURNAL_FILE_HDR bytes at offset 0:
 *     0  magic "MRSIMJNL"   8  version u32   12  record header size u32
 *     16 generation u64     24 reserved ...  60 crc32c of bytes 0..59
 *   records, appended in order from offset MR_JOURNAL_FILE_HDR:
 *     0  magic u32 "MRJR"   4  type u8 (MR_JREC_*), 3 reserved bytes
 *     8  seq u64 (each record's is its predecessor's + 1)
 *     16 lba u64            24 sectors u32 (512-byte sectors)
 *     28 crc32c u32 of this header (crc field zero) and then the data
 *     32 VD GUID (24 bytes, the DDF VD GUID)
 *     56 generation u64 (the header's when the record was written)
 *     64 data: sectors * 512 bytes for MR_JREC_WRITE, none otherwise
 *
 * A crash can leave a torn record only at the tail (records are written
 * in order and acknowledged only after they and all before them are
 * written), so a scan stops, without error, at the first record that is
 * incomplete, fails its checks or belongs to another generation.  A bad
 * header is an error; a header of zeroes is a journal never used.
 */
#ifndef HW_MEGARAID_ARRAY_JOURNAL_H
#define HW_MEGARAID_ARRAY_JOURNAL_H

#define MR_JOURNAL_FILE_HDR     64
#define MR_JOURNAL_REC_HDR      64
#define MR_JOURNAL_VERSION      2
#define MR_JOURNAL_GUID_LEN     24
#define MR_JOURNAL_SECTOR       512

typedef enum MRJournalRecType {
    MR_JREC_WRITE = 1,          /* data of a cached write */
    MR_JREC_INVALIDATE = 2,     /* earlier data of the range is void */
} MRJournalRecType;

typedef struct MRJournalRec {
    MRJournalRecType type;
    uint64_t seq;
    uint64_t lba;
    uint32_t sectors;
    uint8_t guid[MR_JOURNAL_GUID_LEN];
    uint64_t gen;               /* the journal's generation */
} MRJournalRec;

/* Why a scan stopped. */
typedef enum MRJournalStop {
    MR_JSTOP_END = 0,           /* clean end of file */
    MR_JSTOP_SHORT,             /* record header or data cut short */
    MR_JSTOP_MAGIC,             /* no record magic (e.g. zeroes) */
    MR_JSTOP_TYPE,              /* unknown record type */
    MR_JSTOP_CRC,               /* checksum mismatch */
    MR_JSTOP_SEQ,               /* sequence does not follow */
    MR_JSTOP_GEN,               /* a record of an earlier generation */
} MRJournalStop;

typedef struct MRJournalScan {
    uint64_t records;           /* valid records found */
    uint64_t valid_end;         /* offset after the last valid record */
    uint64_t last_seq;          /* seq of the last valid record */
    MRJournalStop stop;
} MRJournalScan;

/*
 * Called for each valid record; @data points at its sectors * 512 bytes
 * (NULL for records without data).  Return false to stop the scan (the
 * scan then reports MR_JSTOP_END at that record).
 */
typedef bool (*MRJournalRecFn)(const MRJournalRec *rec, const uint8_t *data,
                               void *opaque);

void mr_journal_file_hdr_encode(uint8_t hdr[MR_JOURNAL_FILE_HDR],
                                uint64_t gen);
/*
 * NULL when valid (its generation to *@gen if @gen), else a description
 * of the problem.
 */
const char *mr_journal_file_hdr_check(const uint8_t *buf, size_t len,
                                      uint64_t *gen);
/* A header of zeroes: a journal drive never used. */
bool mr_journal_file_hdr_blank(const uint8_t *buf, size_t len);

/*
 * Encode a record header.  @iov/@niov hold the record's data (exactly
 * rec->sectors * 512 bytes for MR_JREC_WRITE, nothing otherwise).
 */
void mr_journal_rec_encode(uint8_t hdr[MR_JOURNAL_REC_HDR],
                           const MRJournalRec *rec,
                           const struct iovec *iov, unsigned int niov);
/* Size of a record on disk (header and data). */
uint64_t mr_journal_rec_size(const MRJournalRec *rec);

/*
 * Scan the records of a journal image @buf of @len bytes whose file header
 * has been checked.  Never reads outside @buf.
 */
void mr_journal_scan(const uint8_t *buf, size_t len, MRJournalRecFn fn,
                     void *opaque, MRJournalScan *out);
/*
 * The same piece by piece, for a journal read in chunks: @buf holds the
 * journal's bytes from offset @base on, @len of them; the scan goes on
 * from @out->valid_end (>= @base; MR_JOURNAL_FILE_HDR and the rest zero
 * for the first piece) with records of generation @gen.  It ends at the
 * end of @buf with MR_JSTOP_SHORT when a record does not fit in it:
 * mr_journal_rec_need() then says how many bytes from @out->valid_end
 * the next piece must hold at least.
 */
void mr_journal_scan_piece(const uint8_t *buf, size_t len, uint64_t base,
                           uint64_t gen, MRJournalRecFn fn, void *opaque,
                           MRJournalScan *out);
/* Bytes the record starting at @p (with @avail bytes there) occupies. */
uint64_t mr_journal_rec_need(const uint8_t *p, size_t avail);
const char *mr_journal_stop_name(MRJournalStop stop);

#endif
