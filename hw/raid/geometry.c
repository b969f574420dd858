/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: VD geometry.  Validates a layout description against the
 * card's limits and maps VD sectors to member strips and back (rules in
 * include/raid/geometry.h).
 */
#include <string.h>
#include <strings.h>
#include "raid/geometry.h"

static const struct {
    RaidLevel level;
    const char *name;
    uint32_t min_members, max_members;  /* per span */
    bool composite;                     /* spans of a base level */
} level_info[] = {
    { RAID_LEVEL_0, "RAID0", 1, 32, false },
    { RAID_LEVEL_1, "RAID1", 2, 32, false },
    { RAID_LEVEL_5, "RAID5", 3, 32, false },
    { RAID_LEVEL_6, "RAID6", 3, 32, false },
    { RAID_LEVEL_10, "RAID10", 2, 32, true },
    { RAID_LEVEL_50, "RAID50", 3, 32, true },
    { RAID_LEVEL_60, "RAID60", 3, 32, true },
    { RAID_LEVEL_JBOD, "JBOD", 1, 1, false },
};

static int level_idx(RaidLevel level)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(level_info); i++) {
        if (level_info[i].level == level) {
            return i;
        }
    }
    return -1;
}

const char *raid_level_name(RaidLevel level)
{
    int i = level_idx(level);

    return i < 0 ? "invalid" : level_info[i].name;
}

bool raid_level_parse(const char *s, RaidLevel *level)
{
    if (!g_ascii_strncasecmp(s, "raid", 4)) {
        s += 4;
    } else if (s[0] == 'r' || s[0] == 'R') {
        s += 1;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(level_info); i++) {
        const char *n = level_info[i].name;

        if (!strncmp(n, "RAID", 4)) {
            n += 4;
        }
        if (!g_ascii_strcasecmp(s, n)) {
            *level = level_info[i].level;
            return true;
        }
    }
    return false;
}

static bool is_mirror(RaidLevel level)
{
    return level == RAID_LEVEL_1 || level == RAID_LEVEL_10;
}

static bool is_striped(RaidLevel level)
{
    return level != RAID_LEVEL_1 && level != RAID_LEVEL_JBOD;
}

uint32_t raid_level_parity(RaidLevel level)
{
    switch (level) {
    case RAID_LEVEL_5:
    case RAID_LEVEL_50:
        return 1;
    case RAID_LEVEL_6:
    case RAID_LEVEL_60:
        return 2;
    default:
        return 0;
    }
}

uint32_t raid_level_redundancy(RaidLevel level, uint32_t span_members)
{
    return is_mirror(level) ? span_members - 1 : raid_level_parity(level);
}

void raid_level_ddf_codes(RaidLevel level, uint32_t span_members,
                          uint8_t *prl, uint8_t *rlq, uint8_t *srl)
{
    *srl = 0xff;
    switch (level) {
    case RAID_LEVEL_0:
        *prl = 0x00;
        *rlq = 0x00;
        break;
    case RAID_LEVEL_10:
        *srl = 0x00;            /* striped (mdadm also reads 03 spanned) */
        /* fall through */
    case RAID_LEVEL_1:
        *prl = 0x01;
        *rlq = span_members == 2 ? 0x00 : 0x01;   /* simple / multi */
        break;
    case RAID_LEVEL_50:
        *srl = 0x00;
        /* fall through */
    case RAID_LEVEL_5:
        *prl = 0x05;
        *rlq = 0x03;            /* rotating parity N, data continuation */
        break;
    case RAID_LEVEL_60:
        *srl = 0x00;
        /* fall through */
    case RAID_LEVEL_6:
        *prl = 0x06;
        *rlq = 0x03;
        break;
    case RAID_LEVEL_JBOD:
    default:
        *prl = 0x0f;
        *rlq = 0x00;
        break;
    }
}

bool raid_layout_init(RaidLayout *l, const RaidLayoutDesc *d, GError **errp)
{
    int li = level_idx(d->level);
    uint32_t strip = d->strip ? d->strip : RAID_STRIP_DEFAULT;
    uint32_t spans = d->spans ? d->spans : 1;
    uint32_t n = d->span_members;
    uint64_t extent = UINT64_MAX;

    memset(l, 0, sizeof(*l));
    if (li < 0) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "level: unknown RAID level %d", d->level);
        return false;
    }
    if (strip < RAID_STRIP_MIN || strip > RAID_STRIP_MAX ||
        (strip & (strip - 1))) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "strip: %u sectors is not a power of two from %u "
                    "(64 KiB) to %u (1 MiB)", strip, RAID_STRIP_MIN,
                    RAID_STRIP_MAX);
        return false;
    }
    if (level_info[li].composite ? spans > RAID_MAX_SPANS : spans != 1) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "spans: %s takes %s span(s), not %u",
                    level_info[li].name,
                    level_info[li].composite ? "1 to 8" : "exactly 1",
                    spans);
        return false;
    }
    if (n < level_info[li].min_members || n > level_info[li].max_members) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "span_members: %s takes %u to %u drives per span, "
                    "not %u", level_info[li].name,
                    level_info[li].min_members, level_info[li].max_members,
                    n);
        return false;
    }
    if (!d->member_data_sectors) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "member_data_sectors: missing");
        return false;
    }

    l->level = d->level;
    l->strip = strip;
    l->strip_shift = g_bit_nth_lsf(strip, -1);
    l->spans = spans;
    l->span_members = n;
    l->members = spans * n;
    l->parity = raid_level_redundancy(d->level, n);
    l->span_data = is_mirror(d->level) || d->level == RAID_LEVEL_JBOD ?
                   1 : n - raid_level_parity(d->level);

    for (uint32_t m = 0; m < l->members; m++) {
        uint64_t start = d->member_start ? d->member_start[m] : 0;

        if (start >= d->member_data_sectors[m]) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "member_start: member %u starts at sector %" PRIu64
                        ", beyond its data area of %" PRIu64 " sectors",
                        m, start, d->member_data_sectors[m]);
            return false;
        }
        l->member_start[m] = start;
        extent = MIN(extent, d->member_data_sectors[m] - start);
    }

    if (d->block_count) {
        if (d->block_count > extent) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "block_count: %" PRIu64 " sectors do not fit the "
                        "smallest member extent of %" PRIu64,
                        d->block_count, extent);
            return false;
        }
        if (is_striped(d->level) && (d->block_count & (strip - 1))) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "block_count: %" PRIu64 " sectors is not a multiple "
                        "of the %u-sector strip", d->block_count, strip);
            return false;
        }
        l->block_count = d->block_count;
    } else {
        l->block_count = is_striped(d->level) ? extent & ~(uint64_t)(strip - 1)
                                              : extent;
    }
    if (l->block_count == 0) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "member_data_sectors: members are smaller than one "
                    "%u-sector strip", strip);
        return false;
    }

    l->rows = (l->block_count + strip - 1) >> l->strip_shift;
    l->row_sectors = (uint64_t)spans * l->span_data * strip;
    l->vd_sectors = is_striped(d->level) || d->level == RAID_LEVEL_10 ?
                    l->rows * l->row_sectors : l->block_count;
    return true;
}

uint32_t raid_layout_p_member(const RaidLayout *l, uint64_t row,
                              uint32_t span)
{
    uint32_t n = l->span_members;

    if (!raid_level_parity(l->level)) {
        return UINT32_MAX;
    }
    return span * n + (n - 1 - (uint32_t)(row % n));
}

uint32_t raid_layout_q_member(const RaidLayout *l, uint64_t row,
                              uint32_t span)
{
    uint32_t n = l->span_members;
    uint32_t p;

    if (raid_level_parity(l->level) != 2) {
        return UINT32_MAX;
    }
    p = n - 1 - (uint32_t)(row % n);
    return span * n + (p + n - 1) % n;
}

static uint32_t data_local(const RaidLayout *l, uint64_t row, uint32_t d)
{
    uint32_t n = l->span_members;

    if (!raid_level_parity(l->level)) {
        return is_mirror(l->level) ? 0 : d;
    }
    return (n - 1 - (uint32_t)(row % n) + 1 + d) % n;
}

uint32_t raid_layout_data_member(const RaidLayout *l, uint64_t row,
                                 uint32_t span, uint32_t d)
{
    return span * l->span_members + data_local(l, row, d);
}

uint8_t raid_layout_q_exp(const RaidLayout *l, uint64_t row, uint32_t span,
                          uint32_t d)
{
    return data_local(l, row, d);
}

RaidRole raid_layout_role(const RaidLayout *l, uint64_t row, uint32_t member,
                          uint32_t *data_index)
{
    uint32_t n = l->span_members;
    uint32_t i = member % n;
    uint32_t p = n - 1 - (uint32_t)(row % n);

    *data_index = 0;
    if (is_mirror(l->level)) {
        return RAID_ROLE_MIRROR;
    }
    if (!raid_level_parity(l->level)) {
        *data_index = i;
        return RAID_ROLE_DATA;
    }
    if (i == p) {
        return RAID_ROLE_P;
    }
    if (raid_level_parity(l->level) == 2 && i == (p + n - 1) % n) {
        return RAID_ROLE_Q;
    }
    *data_index = (i + n - p - 1) % n;
    return RAID_ROLE_DATA;
}

uint64_t raid_layout_vd_lba(const RaidLayout *l, uint64_t row, uint32_t span,
                            uint32_t d)
{
    uint64_t j = row * l->span_data + d;

    return (j * l->spans + span) << l->strip_shift;
}

void raid_layout_map(const RaidLayout *l, uint64_t vd_lba, uint64_t sectors,
                     RaidExtent *out)
{
    uint64_t k = vd_lba >> l->strip_shift;
    uint32_t off = vd_lba & (l->strip - 1);
    uint64_t j = k / l->spans;

    out->vd_lba = vd_lba;
    out->sectors = MIN(sectors, (uint64_t)(l->strip - off));
    out->span = k % l->spans;
    out->row = j / l->span_data;
    out->data_index = j % l->span_data;
    out->strip_offset = off;
    out->member = raid_layout_data_member(l, out->row, out->span,
                                          out->data_index);
    out->member_lba = l->member_start[out->member] +
                      (out->row << l->strip_shift) + off;
}

bool raid_layout_member_pos(const RaidLayout *l, uint32_t member,
                            uint64_t member_lba, uint64_t *row,
                            uint32_t *strip_offset)
{
    uint64_t rel;

    if (member >= l->members || member_lba < l->member_start[member]) {
        return false;
    }
    rel = member_lba - l->member_start[member];
    if (rel >= l->block_count) {
        return false;
    }
    *row = rel >> l->strip_shift;
    *strip_offset = rel & (l->strip - 1);
    return true;
}

bool raid_layout_member_to_vd(const RaidLayout *l, uint32_t member,
                              uint64_t member_lba, RaidRole *role,
                              uint64_t *vd_lba)
{
    uint64_t row;
    uint32_t off, d;

    if (!raid_layout_member_pos(l, member, member_lba, &row, &off)) {
        return false;
    }
    *role = raid_layout_role(l, row, member, &d);
    *vd_lba = *role == RAID_ROLE_P || *role == RAID_ROLE_Q ? UINT64_MAX :
              raid_layout_vd_lba(l, row, member / l->span_members, d) + off;
    return true;
}

uint32_t raid_layout_row_len(const RaidLayout *l, uint64_t row)
{
    uint64_t start = row << l->strip_shift;

    if (start >= l->block_count) {
        return 0;
    }
    return MIN((uint64_t)l->strip, l->block_count - start);
}

void raid_layout_rows(const RaidLayout *l, uint64_t vd_lba, uint64_t sectors,
                      uint64_t *first_row, uint64_t *last_row)
{
    *first_row = vd_lba / l->row_sectors;
    *last_row = (vd_lba + sectors - 1) / l->row_sectors;
}
