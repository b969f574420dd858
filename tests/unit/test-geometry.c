/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the VD geometry: layout tables worked out by hand from
 * the DDF/md rules (docs ddf-metadata.md section 7) for small arrays of
 * every level, the inverse maps, sizes and parameter validation.
 */
#include <string.h>
#include "raid/geometry.h"

#define STRIP 128u

typedef struct Table {
    const char *name;
    RaidLevel level;
    uint32_t spans, span_members;
    /*
     * One string per row: a token per member in member order: a number k
     * is VD data strip k (a copy of it for mirrors), P and Q parity.
     */
    const char *rows[6];
} Table;

static const Table tables[] = {
    { "raid0-4", RAID_LEVEL_0, 1, 4, {
        "0 1 2 3",
        "4 5 6 7",
        "8 9 10 11" } },
    { "raid0-1", RAID_LEVEL_0, 1, 1, { "0", "1", "2" } },
    { "jbod", RAID_LEVEL_JBOD, 1, 1, { "0", "1", "2" } },
    { "raid1-2", RAID_LEVEL_1, 1, 2, { "0 0", "1 1", "2 2" } },
    { "raid1-3", RAID_LEVEL_1, 1, 3, { "0 0 0", "1 1 1" } },
    /* left-symmetric, parity N with data continuation (DDF RLQ 03) */
    { "raid5-3", RAID_LEVEL_5, 1, 3, {
        "0 1 P",
        "3 P 2",
        "P 4 5",
        "6 7 P" } },
    { "raid5-4", RAID_LEVEL_5, 1, 4, {
        "0 1 2 P",
        "4 5 P 3",
        "8 P 6 7",
        "P 9 10 11",
        "12 13 14 P" } },
    { "raid5-5", RAID_LEVEL_5, 1, 5, {
        "0 1 2 3 P",
        "5 6 7 P 4",
        "10 11 P 8 9",
        "15 P 12 13 14",
        "P 16 17 18 19",
        "20 21 22 23 P" } },
    /* DDF RAID 6 RLQ 03: Q just before P, data after P */
    { "raid6-4", RAID_LEVEL_6, 1, 4, {
        "0 1 Q P",
        "3 Q P 2",
        "Q P 4 5",
        "P 6 7 Q",
        "8 9 Q P" } },
    { "raid6-5", RAID_LEVEL_6, 1, 5, {
        "0 1 2 Q P",
        "4 5 Q P 3",
        "8 Q P 6 7",
        "Q P 9 10 11",
        "P 12 13 14 Q" } },
    /* md raid10 near=2 over 4 disks = 2 RAID 1 spans striped */
    { "raid10-2x2", RAID_LEVEL_10, 2, 2, {
        "0 0 1 1",
        "2 2 3 3",
        "4 4 5 5" } },
    { "raid10-3x2", RAID_LEVEL_10, 3, 2, {
        "0 0 1 1 2 2",
        "3 3 4 4 5 5" } },
    { "raid10-2x3", RAID_LEVEL_10, 2, 3, {
        "0 0 0 1 1 1",
        "2 2 2 3 3 3" } },
    /* strip k on span k mod 2 as its strip k div 2 */
    { "raid50-2x3", RAID_LEVEL_50, 2, 3, {
        "0 2 P 1 3 P",
        "6 P 4 7 P 5",
        "P 8 10 P 9 11",
        "12 14 P 13 15 P" } },
    { "raid60-2x4", RAID_LEVEL_60, 2, 4, {
        "0 2 Q P 1 3 Q P",
        "6 Q P 4 7 Q P 5",
        "Q P 8 10 Q P 9 11",
        "P 12 14 Q P 13 15 Q" } },
};

static void make_layout(RaidLayout *l, RaidLevel level, uint32_t spans,
                        uint32_t n, uint64_t rows, bool offsets)
{
    uint64_t data[RAID_MAX_MEMBERS], start[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = {
        .level = level, .strip = STRIP, .spans = spans, .span_members = n,
        .member_data_sectors = data, .member_start = offsets ? start : NULL,
    };
    GError *err = NULL;

    for (uint32_t m = 0; m < spans * n; m++) {
        start[m] = offsets ? 1000 * m + 8 : 0;
        /* a tail that is not a whole strip, on a different member each */
        data[m] = (offsets ? start[m] : 0) + rows * STRIP + 3 + m;
    }
    g_assert_true(raid_layout_init(l, &d, &err));
    g_assert_no_error(err);
}

static void check_table(gconstpointer opaque)
{
    const Table *t = opaque;
    bool mirror = t->level == RAID_LEVEL_1 || t->level == RAID_LEVEL_10;
    uint32_t nrows = 0;
    RaidLayout l;

    while (nrows < G_N_ELEMENTS(t->rows) && t->rows[nrows]) {
        nrows++;
    }
    for (int offsets = 0; offsets < 2; offsets++) {
        make_layout(&l, t->level, t->spans, t->span_members, nrows + 1,
                    offsets);
        for (uint32_t r = 0; r < nrows; r++) {
            g_auto(GStrv) tok = g_strsplit(t->rows[r], " ", -1);

            g_assert_cmpuint(g_strv_length(tok), ==, l.members);
            for (uint32_t m = 0; m < l.members; m++) {
                uint32_t span = m / l.span_members, d;
                RaidRole role = raid_layout_role(&l, r, m, &d);
                uint64_t row;
                uint32_t soff;

                g_assert_true(raid_layout_member_pos(&l, m,
                              l.member_start[m] + r * STRIP + 7, &row,
                              &soff));
                g_assert_cmpuint(row, ==, r);
                g_assert_cmpuint(soff, ==, 7);
                if (!strcmp(tok[m], "P")) {
                    g_assert_cmpint(role, ==, RAID_ROLE_P);
                    g_assert_cmpuint(raid_layout_p_member(&l, r, span), ==, m);
                } else if (!strcmp(tok[m], "Q")) {
                    g_assert_cmpint(role, ==, RAID_ROLE_Q);
                    g_assert_cmpuint(raid_layout_q_member(&l, r, span), ==, m);
                } else {
                    uint64_t k = g_ascii_strtoull(tok[m], NULL, 10);
                    RaidExtent e;

                    raid_layout_map(&l, k * STRIP + 5, 1000, &e);
                    g_assert_cmpuint(e.row, ==, r);
                    g_assert_cmpuint(e.span, ==, span);
                    g_assert_cmpuint(e.strip_offset, ==, 5);
                    g_assert_cmpuint(e.sectors, ==, STRIP - 5);
                    if (mirror) {
                        g_assert_cmpint(role, ==, RAID_ROLE_MIRROR);
                        g_assert_cmpuint(e.member, ==,
                                         span * l.span_members);
                        g_assert_cmpuint(raid_layout_vd_lba(&l, r, span, 0),
                                         ==, k * STRIP);
                    } else {
                        g_assert_cmpint(role, ==, RAID_ROLE_DATA);
                        g_assert_cmpuint(e.member, ==, m);
                        g_assert_cmpuint(e.data_index, ==, d);
                        g_assert_cmpuint(e.member_lba, ==,
                                         l.member_start[m] + r * STRIP + 5);
                        g_assert_cmpuint(raid_layout_vd_lba(&l, r, span, d),
                                         ==, k * STRIP);
                        g_assert_cmpuint(raid_layout_data_member(&l, r, span,
                                                                 d), ==, m);
                        /* DDF Q ordering: member index within the span */
                        g_assert_cmpuint(raid_layout_q_exp(&l, r, span, d),
                                         ==, m % l.span_members);
                    }
                }
            }
        }
    }
}

/*
 * RAID 10 of B spans of m-way mirrors is md raid10 "near=m" over B*m
 * disks: copy j of strip k sits at x = m*k + j, on disk x mod (B*m), chunk
 * row x div (B*m); mdadm maps BVD b member e to raid disk b*m + e.
 */
static void test_raid10_is_md_near(void)
{
    for (uint32_t spans = 1; spans <= RAID_MAX_SPANS; spans++) {
        for (uint32_t m = 2; m <= 3; m++) {
            RaidLayout l;

            make_layout(&l, RAID_LEVEL_10, spans, m, 5, false);
            for (uint64_t k = 0; k < 5 * spans; k++) {
                RaidExtent e;

                raid_layout_map(&l, k * STRIP, 1, &e);
                for (uint32_t j = 0; j < m; j++) {
                    uint64_t x = m * k + j;

                    g_assert_cmpuint(e.member + j, ==, x % (spans * m));
                    g_assert_cmpuint(e.row, ==, x / (spans * m));
                    g_assert_cmpint(raid_layout_role(&l, e.row, e.member + j,
                                                     &(uint32_t){0}), ==,
                                    RAID_ROLE_MIRROR);
                }
            }
        }
    }
}

/*
 * Every member sector maps back to the VD sector that maps to it (data and
 * mirrors), P and Q sectors to none, and every VD sector is found exactly
 * once per copy.
 */
static void test_member_to_vd(void)
{
    static const struct {
        RaidLevel level;
        uint32_t spans, n;
    } cases[] = {
        { RAID_LEVEL_0, 1, 3 }, { RAID_LEVEL_1, 1, 2 }, { RAID_LEVEL_5, 1, 4 },
        { RAID_LEVEL_6, 1, 5 }, { RAID_LEVEL_10, 2, 2 },
        { RAID_LEVEL_50, 2, 3 }, { RAID_LEVEL_60, 2, 4 },
        { RAID_LEVEL_JBOD, 1, 1 },
    };

    for (unsigned c = 0; c < G_N_ELEMENTS(cases); c++) {
        bool mirror = cases[c].level == RAID_LEVEL_1 ||
                      cases[c].level == RAID_LEVEL_10;
        RaidLayout l;
        g_autofree uint8_t *seen = NULL;
        uint64_t parity = 0;

        make_layout(&l, cases[c].level, cases[c].spans, cases[c].n, 5, true);
        seen = g_malloc0(l.vd_sectors);
        for (uint32_t m = 0; m < l.members; m++) {
            for (uint64_t s = 0; s < l.block_count; s++) {
                RaidRole role;
                uint64_t vd;
                RaidExtent e;

                g_assert_true(raid_layout_member_to_vd(&l, m,
                              l.member_start[m] + s, &role, &vd));
                if (role == RAID_ROLE_P || role == RAID_ROLE_Q) {
                    g_assert_cmpuint(vd, ==, UINT64_MAX);
                    parity++;
                    continue;
                }
                g_assert_cmpuint(vd, <, l.vd_sectors);
                seen[vd]++;
                raid_layout_map(&l, vd, 1, &e);
                g_assert_cmpuint(e.member_lba - l.member_start[e.member], ==,
                                 s);
                if (role == RAID_ROLE_DATA) {
                    g_assert_cmpuint(e.member, ==, m);
                } else {
                    g_assert_cmpuint(e.member / l.span_members, ==,
                                     m / l.span_members);
                }
            }
            g_assert_false(raid_layout_member_to_vd(&l, m,
                           l.member_start[m] + l.block_count,
                           &(RaidRole){0}, &(uint64_t){0}));
        }
        for (uint64_t v = 0; v < l.vd_sectors; v++) {
            g_assert_cmpuint(seen[v], ==, mirror ? l.span_members : 1);
        }
        /* P and Q: `parity` strips per stripe, none for mirrors */
        g_assert_cmpuint(parity, ==, mirror ? 0 :
                         l.rows * l.strip * l.spans * l.parity);
    }
}

/* Capacity (md's size formula, docs 7.7) and derived fields. */
static void test_sizes(void)
{
    RaidLayout l;

    make_layout(&l, RAID_LEVEL_5, 1, 4, 7, false);
    g_assert_cmpuint(l.block_count, ==, 7 * STRIP);
    g_assert_cmpuint(l.vd_sectors, ==, 3 * 7 * STRIP);
    g_assert_cmpuint(l.row_sectors, ==, 3 * STRIP);
    g_assert_cmpuint(l.parity, ==, 1);

    make_layout(&l, RAID_LEVEL_6, 1, 6, 5, true);
    g_assert_cmpuint(l.vd_sectors, ==, 4 * 5 * STRIP);
    g_assert_cmpuint(l.parity, ==, 2);

    make_layout(&l, RAID_LEVEL_0, 1, 3, 4, false);
    g_assert_cmpuint(l.vd_sectors, ==, 3 * 4 * STRIP);

    /* mirrors and JBOD are not rounded to strips */
    make_layout(&l, RAID_LEVEL_1, 1, 2, 4, false);
    g_assert_cmpuint(l.block_count, ==, 4 * STRIP + 3);
    g_assert_cmpuint(l.vd_sectors, ==, 4 * STRIP + 3);
    g_assert_cmpuint(l.rows, ==, 5);
    g_assert_cmpuint(raid_layout_row_len(&l, 4), ==, 3);
    g_assert_cmpuint(raid_layout_row_len(&l, 5), ==, 0);

    make_layout(&l, RAID_LEVEL_JBOD, 1, 1, 4, true);
    g_assert_cmpuint(l.vd_sectors, ==, 4 * STRIP + 3);

    make_layout(&l, RAID_LEVEL_10, 3, 2, 4, false);
    g_assert_cmpuint(l.vd_sectors, ==, 3 * 4 * STRIP);
    g_assert_cmpuint(l.parity, ==, 1);

    make_layout(&l, RAID_LEVEL_50, 2, 4, 4, false);
    g_assert_cmpuint(l.vd_sectors, ==, 2 * 3 * 4 * STRIP);
    make_layout(&l, RAID_LEVEL_60, 3, 5, 4, false);
    g_assert_cmpuint(l.vd_sectors, ==, 3 * 3 * 4 * STRIP);
    g_assert_cmpuint(l.members, ==, 15);
}

static void test_rows(void)
{
    RaidLayout l;
    uint64_t a, b;

    make_layout(&l, RAID_LEVEL_5, 1, 4, 8, false);
    raid_layout_rows(&l, 0, 1, &a, &b);
    g_assert_cmpuint(a, ==, 0);
    g_assert_cmpuint(b, ==, 0);
    raid_layout_rows(&l, 3 * STRIP - 1, 2, &a, &b);
    g_assert_cmpuint(a, ==, 0);
    g_assert_cmpuint(b, ==, 1);
    raid_layout_rows(&l, 3 * STRIP * 2, 3 * STRIP * 3, &a, &b);
    g_assert_cmpuint(a, ==, 2);
    g_assert_cmpuint(b, ==, 4);
    /* outside the extent */
    g_assert_false(raid_layout_member_pos(&l, 0, 8 * STRIP, &a,
                                          (uint32_t *)&b));
    g_assert_false(raid_layout_member_pos(&l, 4, 0, &a, (uint32_t *)&b));
}

static void expect_error(RaidLayoutDesc *d, const char *field)
{
    RaidLayout l;
    GError *err = NULL;

    g_assert_false(raid_layout_init(&l, d, &err));
    g_assert_nonnull(err);
    g_assert_true(g_str_has_prefix(err->message, field));
    g_error_free(err);
}

static void test_validation(void)
{
    uint64_t data[RAID_MAX_MEMBERS], start[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = {
        .level = RAID_LEVEL_5, .span_members = 4,
        .member_data_sectors = data,
    };
    RaidLayout l;
    GError *err = NULL;

    for (unsigned i = 0; i < RAID_MAX_MEMBERS; i++) {
        data[i] = 1 << 20;
        start[i] = 0;
    }
    g_assert_true(raid_layout_init(&l, &d, &err));
    g_assert_cmpuint(l.strip, ==, RAID_STRIP_DEFAULT);
    d.strip = 100;
    expect_error(&d, "strip");
    d.strip = 64;
    expect_error(&d, "strip");
    d.strip = 4096;
    expect_error(&d, "strip");
    d.strip = 2048;
    g_assert_true(raid_layout_init(&l, &d, NULL));
    d.span_members = 2;
    expect_error(&d, "span_members");
    d.span_members = 33;
    expect_error(&d, "span_members");
    d.span_members = 32;
    g_assert_true(raid_layout_init(&l, &d, NULL));
    d.spans = 2;
    expect_error(&d, "spans");
    d.level = RAID_LEVEL_50;
    d.spans = 9;
    expect_error(&d, "spans");
    d.spans = 8;
    g_assert_true(raid_layout_init(&l, &d, NULL));
    g_assert_cmpuint(l.members, ==, 256);
    d.level = RAID_LEVEL_JBOD;
    d.spans = 1;
    d.span_members = 2;
    expect_error(&d, "span_members");
    d.level = RAID_LEVEL_5;
    d.span_members = 4;
    d.block_count = 1000;
    expect_error(&d, "block_count");
    d.block_count = 2 << 20;
    expect_error(&d, "block_count");
    d.block_count = 0;
    d.member_start = start;
    start[2] = 1 << 20;
    expect_error(&d, "member_start");
    start[2] = (1 << 20) - 100;
    expect_error(&d, "member_data_sectors");
    d.member_data_sectors = NULL;
    expect_error(&d, "member_data_sectors");
}

static void test_names(void)
{
    RaidLevel lv;
    uint8_t prl, rlq, srl;

    g_assert_true(raid_level_parse("raid5", &lv));
    g_assert_cmpint(lv, ==, RAID_LEVEL_5);
    g_assert_true(raid_level_parse("r60", &lv));
    g_assert_cmpint(lv, ==, RAID_LEVEL_60);
    g_assert_true(raid_level_parse("JBOD", &lv));
    g_assert_cmpint(lv, ==, RAID_LEVEL_JBOD);
    g_assert_true(raid_level_parse("10", &lv));
    g_assert_cmpint(lv, ==, RAID_LEVEL_10);
    g_assert_false(raid_level_parse("raid7", &lv));
    g_assert_cmpstr(raid_level_name(RAID_LEVEL_50), ==, "RAID50");

    raid_level_ddf_codes(RAID_LEVEL_5, 4, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x05);
    g_assert_cmphex(rlq, ==, 0x03);
    g_assert_cmphex(srl, ==, 0xff);
    raid_level_ddf_codes(RAID_LEVEL_6, 4, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x06);
    g_assert_cmphex(rlq, ==, 0x03);
    raid_level_ddf_codes(RAID_LEVEL_1, 3, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x01);
    g_assert_cmphex(rlq, ==, 0x01);
    raid_level_ddf_codes(RAID_LEVEL_10, 2, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x01);
    g_assert_cmphex(rlq, ==, 0x00);
    g_assert_cmphex(srl, ==, 0x00);
    raid_level_ddf_codes(RAID_LEVEL_60, 5, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x06);
    g_assert_cmphex(srl, ==, 0x00);
    raid_level_ddf_codes(RAID_LEVEL_JBOD, 1, &prl, &rlq, &srl);
    g_assert_cmphex(prl, ==, 0x0f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(tables); i++) {
        g_autofree char *path = g_strdup_printf("/raid/geometry/table/%s",
                                                tables[i].name);
        g_test_add_data_func(path, &tables[i], check_table);
    }
    g_test_add_func("/raid/geometry/raid10-md-near", test_raid10_is_md_near);
    g_test_add_func("/raid/geometry/member-to-vd", test_member_to_vd);
    g_test_add_func("/raid/geometry/sizes", test_sizes);
    g_test_add_func("/raid/geometry/rows", test_rows);
    g_test_add_func("/raid/geometry/validation", test_validation);
    g_test_add_func("/raid/geometry/names", test_names);
    return g_test_run();
}
