/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: on-disk format of the controller cache journal (the
 * emulated CacheVault flash).  Pure functions on byte buffers: encode a
 * file header or a record header, and scan a journal image record by
 * record.  array-cache-vault.c does the file I/O and the replay.
 *
 * Layout (all integers little-endian):
 *
 *   file header, MR_JOURNAL_FILE_HDR bytes, written once at creation:
 *     0  magic "MRSIMJNL"   8  version u32   12  record header size u32
 *     16 reserved ...       60 crc32c of bytes 0..59
 *   records, appended in order from offset MR_JOURNAL_FILE_HDR:
 *     0  magic u32 "MRJR"   4  type u8 (MR_JREC_*), 3 reserved bytes
 *     8  seq u64 (each record's is its predecessor's + 1)
 *     16 lba u64            24 sectors u32 (512-byte sectors)
 *     28 crc32c u32 of this header (crc field zero) and then the data
 *     32 VD GUID (24 bytes, the DDF VD GUID)   56 reserved u64
 *     64 data: sectors * 512 bytes for MR_JREC_WRITE, none otherwise
 *
 * A crash can leave a torn record only at the tail (records are written
 * one at a time and acknowledged only after they and all before them are
 * durable), so a scan stops, without error, at the first record that is
 * incomplete or fails its checks.  A bad file header is an error.
 */
#ifndef HW_MEGARAID_ARRAY_JOURNAL_H
#define HW_MEGARAID_ARRAY_JOURNAL_H

#define MR_JOURNAL_FILE_HDR     64
#define MR_JOURNAL_REC_HDR      64
#define MR_JOURNAL_VERSION      1
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
} MRJournalRec;

/* Why a scan stopped. */
typedef enum MRJournalStop {
    MR_JSTOP_END = 0,           /* clean end of file */
    MR_JSTOP_SHORT,             /* record header or data cut short */
    MR_JSTOP_MAGIC,             /* no record magic (e.g. zeroes) */
    MR_JSTOP_TYPE,              /* unknown record type */
    MR_JSTOP_CRC,               /* checksum mismatch */
    MR_JSTOP_SEQ,               /* sequence does not follow */
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

void mr_journal_file_hdr_encode(uint8_t hdr[MR_JOURNAL_FILE_HDR]);
/* NULL when valid, else a description of the problem. */
const char *mr_journal_file_hdr_check(const uint8_t *buf, size_t len);

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
const char *mr_journal_stop_name(MRJournalStop stop);

#endif
