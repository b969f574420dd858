/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: virtual disk geometry.
 *
 * Owns the description of a VD's on-member layout (level, strip, spans,
 * member extents) and the pure arithmetic that maps VD sectors to member
 * sectors and back, for RAID 0, 1, 5, 6, 10, 50, 60 and JBOD.
 *
 * Units: everything is in 512-byte sectors.
 *
 * Terms (the same as the SNIA DDF data layout, see docs ddf-metadata.md 7):
 *   member      one drive extent of the VD, numbered 0..members-1 in DDF
 *               Physical_Disk_Sequence order; span s holds members
 *               s * span_members .. s * span_members + span_members - 1
 *               (DDF: BVD Secondary_Element_Seq s, primary element i).
 *   strip       `strip` consecutive sectors of one member.
 *   row         strip r of every member: member sectors
 *               member_start[m] + r * strip .. + strip - 1.
 *               Row r of all members holds exactly the VD range
 *               [r * row_sectors, (r + 1) * row_sectors): rows are the unit
 *               of stripe locks, rebuild, check and background jobs.
 *   stripe      row r of one span (what a parity computation covers).
 *   data strip  VD strip k: VD sectors [k * strip, (k + 1) * strip).
 *
 * Layout rules (what mdadm's DDF support and md read; docs section 7):
 *   RAID 0   (PRL 00 RLQ 00): strip k on member k mod n, row k div n.
 *   RAID 1   (PRL 01 RLQ 00 for 2, 01 for 3 copies): every member holds
 *            the whole VD, member sector = start + VD sector.
 *   RAID 5   (PRL 05 RLQ 03, md left-symmetric, algorithm 2): row r,
 *            parity on member p = n-1 - (r mod n), data index d on member
 *            (p + 1 + d) mod n.
 *   RAID 6   (PRL 06 RLQ 03, md ALGORITHM_ROTATING_N_CONTINUE, layout 10):
 *            P on p = n-1 - (r mod n), Q on (p - 1) mod n, data index d on
 *            (p + 1 + d) mod n.  Q = sum g^i * D over GF(2^8)/0x11d with
 *            i = the member's index in its span (DDF ordering), not the
 *            data index.
 *   JBOD     (PRL 0F): one member, member sector = start + VD sector.
 *   RAID 10/50/60 (SRL 00 striped over B spans of RAID 1/5/6): VD data
 *            strip k goes to span k mod B as that span's strip k div B.
 *            For RAID 10 this is md raid10 near=m over B*m disks (member
 *            b*m + e = md raid disk b*m + e), which mdadm assembles.
 */
#ifndef RAID_GEOMETRY_H
#define RAID_GEOMETRY_H

#include <stdbool.h>
#include <inttypes.h>
#include <stdint.h>
#include <glib.h>

#define RAID_SECTOR_SIZE        512u
#define RAID_MAX_SPAN_MEMBERS   32u
#define RAID_MAX_SPANS          8u
#define RAID_MAX_MEMBERS        (RAID_MAX_SPAN_MEMBERS * RAID_MAX_SPANS)
/* Strip sizes in sectors: 64 KiB .. 1 MiB, powers of two. */
#define RAID_STRIP_MIN          128u
#define RAID_STRIP_MAX          2048u
#define RAID_STRIP_DEFAULT      512u    /* 256 KiB, as 9600 firmware */

typedef enum RaidLevel {
    RAID_LEVEL_0,
    RAID_LEVEL_1,
    RAID_LEVEL_5,
    RAID_LEVEL_6,
    RAID_LEVEL_10,
    RAID_LEVEL_50,
    RAID_LEVEL_60,
    RAID_LEVEL_JBOD,
} RaidLevel;

/*
 * What a caller (config model, DDF import, tests) gives to build a layout.
 * Fields left 0 take their default where one exists.
 */
typedef struct RaidLayoutDesc {
    RaidLevel level;
    uint32_t strip;             /* sectors, power of two; 0 = default */
    uint32_t spans;             /* 1 for 0/1/5/6/JBOD, 1..8 for 10/50/60 */
    uint32_t span_members;      /* members per span (RAID 1: copies) */
    /*
     * Per-member usable data area: member m may use sectors
     * [0, member_data_sectors[m]) (the DDF metadata lives above).
     * spans * span_members entries.
     */
    const uint64_t *member_data_sectors;
    /* Per-member start of this VD's extent; NULL means all 0. */
    const uint64_t *member_start;
    /*
     * Per-member extent length (DDF Block_Count).  0 = the largest that
     * fits every member, rounded down to whole strips (RAID 1 and JBOD:
     * not rounded).  Non-zero: must fit; must be a multiple of the strip
     * for striped levels.
     */
    uint64_t block_count;
} RaidLayoutDesc;

/* The computed layout.  A plain value: copy it, no allocation. */
typedef struct RaidLayout {
    RaidLevel level;
    uint32_t strip;             /* sectors per strip */
    uint32_t strip_shift;       /* log2(strip) */
    uint32_t spans;
    uint32_t span_members;
    uint32_t members;           /* spans * span_members */
    uint32_t span_data;         /* data strips per stripe (one span row) */
    /* redundancy per span: 0, 1 (RAID 5), 2 (RAID 6), copies-1 (RAID 1/10) */
    uint32_t parity;
    uint64_t block_count;       /* sectors per member extent */
    uint64_t rows;              /* rows (rounded up for RAID 1/JBOD) */
    uint64_t row_sectors;       /* VD sectors per row: spans*span_data*strip */
    uint64_t vd_sectors;        /* VD capacity, as md computes it */
    uint64_t member_start[RAID_MAX_MEMBERS];
} RaidLayout;

/* Role of a member's strip in one row. */
typedef enum RaidRole {
    RAID_ROLE_DATA,             /* a data strip (RAID 0/5/6, JBOD) */
    RAID_ROLE_MIRROR,           /* a copy of the span's data (RAID 1/10) */
    RAID_ROLE_P,
    RAID_ROLE_Q,
} RaidRole;

/* One contiguous piece of a VD range that lies in one data strip. */
typedef struct RaidExtent {
    uint64_t vd_lba;            /* first VD sector of the piece */
    uint32_t sectors;           /* length, never crosses a strip */
    uint64_t row;
    uint32_t span;
    uint32_t data_index;        /* d: data index within the stripe */
    uint32_t strip_offset;      /* sector offset within the strip */
    uint32_t member;            /* member holding it (RAID 1/10: 1st copy) */
    uint64_t member_lba;        /* absolute sector on that member */
} RaidExtent;

const char *raid_level_name(RaidLevel level);
/* Parse "0", "raid5", "r60", "jbod", ... */
bool raid_level_parse(const char *s, RaidLevel *level);
/* Parity strips per stripe: 1 for RAID 5/50, 2 for RAID 6/60, else 0. */
uint32_t raid_level_parity(RaidLevel level);
/*
 * Members a span of this level and width can lose and still serve all of
 * its data (RAID 1/10: width - 1; RAID 5/50: 1; RAID 6/60: 2; else 0).
 */
uint32_t raid_level_redundancy(RaidLevel level, uint32_t span_members);
/* DDF Primary/Secondary RAID level codes for a level (SRL 0xFF = none). */
void raid_level_ddf_codes(RaidLevel level, uint32_t span_members,
                          uint8_t *prl, uint8_t *rlq, uint8_t *srl);

/*
 * Check the description against the card's limits and compute the layout.
 * On error fills errp with a message naming the field and the limit.
 */
bool raid_layout_init(RaidLayout *l, const RaidLayoutDesc *desc,
                      GError **errp);

/* Map the first piece of [vd_lba, vd_lba + sectors); sectors > 0. */
void raid_layout_map(const RaidLayout *l, uint64_t vd_lba, uint64_t sectors,
                     RaidExtent *out);

/* Member (global index) holding data index d of (row, span). */
uint32_t raid_layout_data_member(const RaidLayout *l, uint64_t row,
                                 uint32_t span, uint32_t d);
/* Member holding P / Q of (row, span); UINT32_MAX if the level has none. */
uint32_t raid_layout_p_member(const RaidLayout *l, uint64_t row,
                              uint32_t span);
uint32_t raid_layout_q_member(const RaidLayout *l, uint64_t row,
                              uint32_t span);
/* Inverse: role of member m in row; *data_index set for RAID_ROLE_DATA. */
RaidRole raid_layout_role(const RaidLayout *l, uint64_t row, uint32_t member,
                          uint32_t *data_index);
/* Q coefficient exponent of data index d (DDF: member index in span). */
uint8_t raid_layout_q_exp(const RaidLayout *l, uint64_t row, uint32_t span,
                          uint32_t d);
/* First VD sector of data index d of (row, span). */
uint64_t raid_layout_vd_lba(const RaidLayout *l, uint64_t row, uint32_t span,
                            uint32_t d);
/*
 * Inverse map of a member sector (absolute): the row it is in and the
 * sector offset within the strip.  Returns false if outside the extent.
 */
bool raid_layout_member_pos(const RaidLayout *l, uint32_t member,
                            uint64_t member_lba, uint64_t *row,
                            uint32_t *strip_offset);
/*
 * Inverse of raid_layout_map() for one absolute member sector: its role in
 * its row and, for data and mirror strips, the VD sector it holds
 * (UINT64_MAX for P and Q).  Returns false outside the member's extent.
 * For mapping member errors (medium errors, patrol read) to VD sectors.
 */
bool raid_layout_member_to_vd(const RaidLayout *l, uint32_t member,
                              uint64_t member_lba, RaidRole *role,
                              uint64_t *vd_lba);
/*
 * Sectors of row r actually in use on each member (last row of RAID 1/JBOD
 * may be short).
 */
uint32_t raid_layout_row_len(const RaidLayout *l, uint64_t row);
/* Rows covering [vd_lba, vd_lba + sectors), sectors > 0. */
void raid_layout_rows(const RaidLayout *l, uint64_t vd_lba, uint64_t sectors,
                      uint64_t *first_row, uint64_t *last_row);

#endif
