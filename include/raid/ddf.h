/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: SNIA DDF metadata.
 *
 * DdfMeta is one drive's decoded DDF structure (header fields, controller
 * data, the global PD and VD tables, this drive's configuration records
 * and its physical disk data).  The codec (ddf-encode.c, ddf-decode.c,
 * ddf-crc.c) is pure: byte buffers in, byte buffers out, every field
 * bounds-checked, so it can be fuzzed.  ddf-config.c maps between DdfMeta
 * and the RaidConfig model; ddf-io.c reads and writes drive images.
 * On-disk facts: docs ddf-metadata.md (mdadm's super-ddf.c is the truth).
 */
#ifndef RAID_DDF_H
#define RAID_DDF_H

#include "raid/config.h"

#define DDF_SECTOR              512
#define DDF_GUID_LEN            24

#define DDF_HEADER_MAGIC        0xDE11DE11u
#define DDF_CONTROLLER_MAGIC    0xAD111111u
#define DDF_PHYS_MAGIC          0x22222222u
#define DDF_PDD_MAGIC           0x33333333u
#define DDF_VIRT_MAGIC          0xDDDDDDDDu
#define DDF_VDCONF_MAGIC        0xEEEEEEEEu
#define DDF_SPARE_MAGIC         0x55555555u
#define DDF_VENDOR_MAGIC        0x88888888u

#define DDF_HDR_ANCHOR          0
#define DDF_HDR_PRIMARY         1
#define DDF_HDR_SECONDARY       2

/* PD_Type bits */
#define DDF_PDT_FORCED_GUID     0x0001
#define DDF_PDT_ACTIVE          0x0002
#define DDF_PDT_GLOBAL_SPARE    0x0004
#define DDF_PDT_SPARE           0x0008
#define DDF_PDT_FOREIGN         0x0010
/* PD_State bits */
#define DDF_PDS_ONLINE          0x0001
#define DDF_PDS_FAILED          0x0002
#define DDF_PDS_REBUILDING      0x0004
#define DDF_PDS_MISSING         0x0040
/* VD_State / Init_State */
#define DDF_VDS_OPTIMAL         0x00
#define DDF_VDS_DEGRADED        0x01
#define DDF_VDS_FAILED          0x04
#define DDF_VDS_PART_OPTIMAL    0x05
#define DDF_VDS_INCONSISTENT    0x10
#define DDF_INIT_NONE           0x00
#define DDF_INIT_QUICK          0x01
#define DDF_INIT_FULL           0x02

/* Upper bounds the decoder accepts (DDF maxima). */
#define DDF_MAX_ENTRIES         4095
#define DDF_MAX_MPPE            4096
#define DDF_MAX_SECTION         1024    /* sectors, as mdadm */
#define DDF_MAX_PARTITIONS      4095

/* What this controller writes (small tables mdadm accepts). */
#define DDF_OUR_MAX_PD          255
#define DDF_OUR_MAX_VD          255
#define DDF_OUR_MAX_PART        16
#define DDF_OUR_MPPE            64

typedef struct DdfPdEntry {
    uint8_t guid[DDF_GUID_LEN];         /* all 0xff: free slot */
    uint32_t ref;
    uint16_t type, state;
    uint64_t configured_size;
} DdfPdEntry;

typedef struct DdfVdEntry {
    uint8_t guid[DDF_GUID_LEN];         /* all 0xff: free slot */
    uint16_t number;
    uint8_t state, init_state;
    char name[17];                      /* NUL-terminated */
} DdfVdEntry;

/*
 * Background job checkpoint, kept in the 32-byte vendor area at 0x1E0 of
 * the VD configuration record (mdadm neither reads nor checks it; it is
 * covered by the record's CRC and sequence number).
 */
#define DDF_JOB_MAGIC           0x4d524a31u     /* "MRJ1" */

typedef struct DdfVdConf {
    uint8_t guid[DDF_GUID_LEN];
    uint32_t timestamp, seq;
    uint16_t prim_count;
    uint8_t stripe_size, prl, rlq, sec_count, sec_seq, srl;
    uint64_t block_count, vd_size;
    uint8_t cache;                      /* cache policy bits (byte 0x87) */
    uint8_t bg_rate;
    uint8_t vendor[32];                 /* 0x1E0: job checkpoint */
    uint16_t nelem;                     /* entries in refs/lbas (mppe) */
    uint32_t *refs;                     /* mppe entries */
    uint64_t *lbas;                     /* mppe entries */
} DdfVdConf;

typedef struct DdfSpare {
    uint8_t type;                       /* bit 0: dedicated */
    uint16_t n;
    struct {
        uint8_t guid[DDF_GUID_LEN];
        uint16_t sec;
    } e[DDF_OUR_MAX_VD];
} DdfSpare;

typedef struct DdfMeta {
    /* header */
    uint8_t guid[DDF_GUID_LEN];
    char rev[9];
    uint32_t seq, timestamp;
    uint8_t open_flag, foreign_flag;
    uint64_t primary_lba, secondary_lba, ws_lba;
    uint32_t ws_len;
    uint16_t max_pd, max_vd, max_part, cfg_rec_len, mppe;
    /* controller data */
    uint8_t ctrl_guid[DDF_GUID_LEN];
    uint16_t ctrl_type[4];
    char product[17];
    uint8_t ctrl_vendor[448];
    /* global tables (max_pd / max_vd entries, slot order kept) */
    DdfPdEntry *pd;
    DdfVdEntry *vd;
    /* local: configuration records and spare assignment */
    GArray *conf;                       /* DdfVdConf */
    bool has_spare;
    DdfSpare spare;
    /* local: physical disk data */
    uint8_t pdd_guid[DDF_GUID_LEN];
    uint32_t pdd_ref;
    uint8_t pdd_forced_ref, pdd_forced_guid;
} DdfMeta;

/* Decoded DDF header (anchor, primary or secondary). */
typedef struct DdfHeader {
    uint8_t guid[DDF_GUID_LEN];
    char rev[9];
    uint32_t seq, timestamp;
    uint8_t open_flag, foreign_flag, type;
    uint64_t primary_lba, secondary_lba, ws_lba;
    uint32_t ws_len;
    uint16_t max_pd, max_vd, max_part, cfg_rec_len, mppe;
    uint32_t sec_off[8], sec_len[8];    /* DDF_SEC_* */
    uint8_t raw[512];
} DdfHeader;

enum {
    DDF_SEC_CTRL, DDF_SEC_PHYS, DDF_SEC_VIRT, DDF_SEC_CONF, DDF_SEC_PDD,
    DDF_SEC_BBM, DDF_SEC_DIAG, DDF_SEC_VENDOR,
};

/* CRC as mdadm computes it: CRC-32 (0xEDB88320), init 0, no final xor. */
uint32_t ddf_crc32(const uint8_t *buf, size_t len);
/* Structure CRC: the same with bytes 4..7 taken as 0xff. */
uint32_t ddf_struct_crc(const uint8_t *buf, size_t len);

DdfMeta *ddf_meta_new(uint16_t max_pd, uint16_t max_vd, uint16_t max_part,
                      uint16_t mppe);
void ddf_meta_free(DdfMeta *m);
DdfVdConf *ddf_meta_add_conf(DdfMeta *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DdfMeta, ddf_meta_free)

/* Sectors of one copy: header plus all its sections. */
uint32_t ddf_copy_sectors(const DdfMeta *m);
/* Encode the anchor (512 bytes). */
void ddf_encode_anchor(const DdfMeta *m, uint8_t *buf);
/* Encode one copy (type PRIMARY or SECONDARY), ddf_copy_sectors() long. */
void ddf_encode_copy(const DdfMeta *m, int type, uint8_t *buf);

/*
 * Decode a header sector: magic, CRC, revision and field sanity.
 * Section offsets and lengths are checked against DDF_MAX_SECTION.
 */
bool ddf_decode_header(const uint8_t *buf, DdfHeader *h, GError **errp);
/* Does a primary/secondary header agree with the anchor (as mdadm asks)? */
bool ddf_header_matches_anchor(const DdfHeader *h, const DdfHeader *anchor,
                               int type, GError **errp);
/* Sectors from the header that a copy needs (largest section end). */
uint32_t ddf_header_extent(const DdfHeader *h);
/*
 * Decode one copy: buf holds the header's LBA onwards, len bytes (at
 * least ddf_header_extent() sectors).  Every section's signature and CRC
 * is checked; any damage refuses the copy with a message naming the
 * section.
 */
DdfMeta *ddf_decode_copy(const DdfHeader *h, const uint8_t *buf, size_t len,
                         GError **errp);

/* Pick the copy to use, as mdadm does (valid, newer, closed). */
int ddf_pick_copy(const DdfHeader *primary, bool primary_ok,
                  const DdfHeader *secondary, bool secondary_ok);

/* ---- mapping to the configuration model (ddf-config.c) ---- */

/* Where the DDF structure lives on a drive of @sectors sectors. */
typedef struct DdfPlacement {
    uint64_t anchor, primary, secondary, ws_lba;
    uint32_t ws_len;
} DdfPlacement;
void ddf_placement(uint64_t sectors, uint32_t copy_sectors, DdfPlacement *p);

/*
 * Build drive @pd's metadata from the configuration.  @seq is the header
 * sequence number to write.
 */
DdfMeta *ddf_meta_from_config(const RaidConfig *cfg, int pd, uint32_t seq,
                              uint32_t timestamp);
/*
 * Rebuild a configuration from the metadata found on @n drives (NULL for a
 * drive without valid DDF).  @sectors gives each drive's size.  The newest
 * global sections win (highest header seq, an open copy counting one
 * less, a closed one winning a tie); for each VD the configuration record
 * with the highest seq wins.  Newest global sections naming a VD whose
 * records are on no drive (a write interrupted part way) give way to the
 * pass one seq before them; the result's seq is the highest found.  If
 * the controller GUID differs from @ctrl_guid (or @ctrl_guid is NULL),
 * the result is foreign: its drives are FOREIGN until
 * raid_config_import().  Returns NULL with a message
 * naming the drive and the problem.  out_pd_of_drive[i] is the PD index of
 * drive i (or -1).
 */
RaidConfig *ddf_config_from_meta(DdfMeta *const *metas, const uint64_t *sectors,
                                 int n, const uint8_t *ctrl_guid,
                                 int *out_pd_of_drive, GError **errp);

/* Job checkpoint in the vendor bytes of a VD configuration record. */
void ddf_job_encode(const RaidJobCursor *c, uint8_t vendor[32]);
bool ddf_job_decode(const uint8_t vendor[32], RaidJobCursor *c);

/* ---- drive images (ddf-io.c; tools and tests) ---- */

typedef struct DdfDriveRead {
    DdfMeta *meta;              /* the copy in use, or NULL */
    int used;                   /* DDF_HDR_PRIMARY or DDF_HDR_SECONDARY */
    bool anchor_ok, primary_ok, secondary_ok;
    char *primary_err, *secondary_err;  /* why a copy was refused */
    char *error;                /* ddf_load_files: why the drive has none */
} DdfDriveRead;

/*
 * Sector I/O for the read/write protocol (ddf-drive.c): byte offsets and
 * lengths are multiples of 512; each returns 0 or -errno.  flush may be
 * NULL.  The QEMU device backs these with blk_pread/blk_pwrite/blk_flush.
 */
typedef struct DdfDriveIO {
    int (*read)(void *opaque, uint64_t offset, void *buf, size_t len);
    int (*write)(void *opaque, uint64_t offset, const void *buf, size_t len);
    int (*flush)(void *opaque);
    void *opaque;
    uint64_t bytes;             /* drive size */
} DdfDriveIO;

/* Read one drive's DDF; false (with the reason) if no copy is valid. */
bool ddf_drive_read(const DdfDriveIO *io, DdfDriveRead *out, GError **errp);
/*
 * Write the primary copy, the anchor, then the secondary copy (each copy
 * opened, written, closed, flushed): one copy stays valid if the writes
 * stop anywhere.  Runs in a coroutine when the I/O callbacks yield.
 */
bool ddf_drive_write(const DdfDriveIO *io, DdfMeta *m, GError **errp);

/* The same on a file descriptor (ddf-io.c). */
bool ddf_read_drive(int fd, uint64_t bytes, DdfDriveRead *out, GError **errp);
void ddf_drive_read_clear(DdfDriveRead *r);
/* The same on a file descriptor (see ddf_drive_write). */
bool ddf_write_drive(int fd, uint64_t bytes, DdfMeta *m, GError **errp);
bool ddf_file_size(int fd, uint64_t *bytes, GError **errp);
/*
 * Load the configuration stored on image files (drive i gets slot i and
 * its path).  reads[n] receives what was found on each drive.
 */
RaidConfig *ddf_load_files(char *const *paths, int n, const uint8_t *ctrl_guid,
                           DdfDriveRead *reads, GError **errp);
/* Write the configuration to every present drive with a path (seq + 1). */
bool ddf_store_config(RaidConfig *cfg, GError **errp);

#endif
