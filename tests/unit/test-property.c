/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Property test of the whole data path: thousands of random reads, writes
 * and unmaps of random sizes and offsets on every level, run as plans on
 * member image files in a temporary directory, with random member
 * failures, replacements and interleaved rebuilds; every read and a full
 * scan after each phase are compared byte for byte with a flat reference
 * image.  Parity consistency is proven by reading with members left out
 * and by the check plans.
 *
 * Set RAID_PROPERTY_OPS to change the operations per level (default 600)
 * and RAID_PROPERTY_SEED to replay a seed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "raid/raid.h"

#define STRIP 128u
#define ROWS 8u
#define SECTOR RAID_SECTOR_SIZE

typedef struct Config {
    const char *name;
    RaidLevel level;
    uint32_t spans, span_members;
    uint32_t strip, rows;       /* 0: STRIP, ROWS */
} Config;

static const Config configs[] = {
    { "raid0-3", RAID_LEVEL_0, 1, 3 },
    { "jbod", RAID_LEVEL_JBOD, 1, 1 },
    { "raid1-2", RAID_LEVEL_1, 1, 2 },
    { "raid1-3", RAID_LEVEL_1, 1, 3 },
    { "raid5-3", RAID_LEVEL_5, 1, 3 },
    { "raid5-5", RAID_LEVEL_5, 1, 5 },
    { "raid6-3", RAID_LEVEL_6, 1, 3 },
    { "raid6-4", RAID_LEVEL_6, 1, 4 },
    { "raid6-7", RAID_LEVEL_6, 1, 7 },
    { "raid10-2x2", RAID_LEVEL_10, 2, 2 },
    { "raid10-3x3", RAID_LEVEL_10, 3, 3 },
    { "raid50-2x3", RAID_LEVEL_50, 2, 3 },
    { "raid50-3x4", RAID_LEVEL_50, 3, 4 },
    { "raid60-2x4", RAID_LEVEL_60, 2, 4 },
    { "raid60-2x5", RAID_LEVEL_60, 2, 5 },
    /* the largest strip (1 MiB) */
    { "raid5-4-1m", RAID_LEVEL_5, 1, 4, 2048, 3 },
    { "raid60-2x4-1m", RAID_LEVEL_60, 2, 4, 2048, 2 },
};

typedef struct World {
    const Config *cfg;
    GRand *rand;
    char *dir;
    RaidLayout l;
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidFileExec fx;
    uint64_t data_sectors[RAID_MAX_MEMBERS];
    uint8_t *ref;               /* flat reference image of the VD */
    uint8_t *buf;
    int rebuilding;             /* member being rebuilt, or -1 */
    uint64_t rebuild_row;
    unsigned ops, reads, writes, unmaps, failures, rebuilds;
} World;

static char *member_path(World *w, uint32_t m)
{
    return g_strdup_printf("%s/m%u.img", w->dir, m);
}

/* Fresh member file full of garbage: nothing may rely on its contents. */
static int open_member(World *w, uint32_t m)
{
    g_autofree char *path = member_path(w, m);
    size_t len = w->data_sectors[m] * SECTOR;
    g_autofree uint8_t *junk = g_malloc(len);
    int fd;

    for (size_t i = 0; i < len; i += 4) {
        *(uint32_t *)(junk + i) = g_rand_int(w->rand);
    }
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(pwrite(fd, junk, len, 0), ==, (ssize_t)len);
    return fd;
}

static int vd_io(World *w, RaidOp op, uint64_t lba, uint64_t n, void *data)
{
    RaidRequest req = { .op = op, .lba = lba, .sectors = n };
    RaidWriteMode mode = g_rand_int_range(w->rand, 0, 3);

    return raid_file_exec_request(&w->fx, &w->l, w->st, &req, mode, data);
}

static void verify_all(World *w, const char *what)
{
    uint64_t chunk = w->l.row_sectors * 3;

    for (uint64_t lba = 0; lba < w->l.vd_sectors; lba += chunk) {
        uint64_t n = MIN(chunk, w->l.vd_sectors - lba);

        g_assert_cmpint(vd_io(w, RAID_OP_READ, lba, n, w->buf), ==, 0);
        if (memcmp(w->buf, w->ref + lba * SECTOR, n * SECTOR)) {
            g_error("%s: %s: VD differs from the reference at %" PRIu64
                    "+%" PRIu64, w->cfg->name, what, lba, n);
        }
    }
}

static uint32_t span_bad(World *w, uint32_t span)
{
    uint32_t bad = 0;

    for (uint32_t i = 0; i < w->l.span_members; i++) {
        bad += w->st[span * w->l.span_members + i].status !=
               RAID_MEMBER_ONLINE;
    }
    return bad;
}

/*
 * Leave out each member (and pair, for two-failure tolerance) that the
 * level tolerates, and read everything: proves the redundancy on disk
 * matches the data.
 */
static void verify_degraded(World *w)
{
    for (uint32_t a = 0; a < w->l.members; a++) {
        RaidMemberState save = w->st[a];

        if (save.status != RAID_MEMBER_ONLINE ||
            span_bad(w, a / w->l.span_members) + 1 > w->l.parity) {
            continue;
        }
        w->st[a].status = RAID_MEMBER_MISSING;
        verify_all(w, "one member left out");
        for (uint32_t b = a + 1; b < w->l.members; b++) {
            RaidMemberState save_b = w->st[b];

            if (save_b.status != RAID_MEMBER_ONLINE ||
                span_bad(w, b / w->l.span_members) + 1 > w->l.parity ||
                g_rand_int_range(w->rand, 0, 4)) {
                continue;
            }
            w->st[b].status = RAID_MEMBER_MISSING;
            verify_all(w, "two members left out");
            w->st[b] = save_b;
        }
        w->st[a] = save;
    }
}

static void check_rows(World *w, bool expect_clean)
{
    for (uint64_t r = 0; r < w->l.rows; r++) {
        RaidPlan *p = raid_plan_check_row(&w->l, w->st, r, false);
        RaidRunResult res = raid_file_exec_plan(&w->fx, p, NULL);

        g_assert_cmpint(res.ret, ==, 0);
        if (expect_clean && res.mismatches) {
            g_error("%s: row %" PRIu64 ": %u parity/mirror mismatches",
                    w->cfg->name, r, res.mismatches);
        }
        raid_plan_free(p);
    }
}

static void fail_member(World *w)
{
    uint32_t m = g_rand_int_range(w->rand, 0, w->l.members);

    if (w->st[m].status == RAID_MEMBER_MISSING ||
        span_bad(w, m / w->l.span_members) + 1 > w->l.parity) {
        return;
    }
    if (w->st[m].status == RAID_MEMBER_REBUILDING) {
        w->rebuilding = -1;
    }
    w->st[m].status = RAID_MEMBER_MISSING;
    close(w->fx.fd[m]);
    w->fx.fd[m] = -1;           /* any I/O to it now fails the test */
    w->failures++;
}

/* Replace a missing member and start rebuilding it. */
static void replace_member(World *w)
{
    for (uint32_t m = 0; m < w->l.members; m++) {
        if (w->st[m].status == RAID_MEMBER_MISSING && w->rebuilding < 0) {
            w->fx.fd[m] = open_member(w, m);
            w->st[m].status = RAID_MEMBER_REBUILDING;
            w->st[m].rebuilt = 0;
            w->rebuilding = m;
            w->rebuild_row = 0;
            return;
        }
    }
}

static void rebuild_step(World *w, unsigned rows)
{
    uint32_t m = w->rebuilding;

    for (unsigned i = 0; i < rows && w->rebuilding >= 0; i++) {
        RaidPlan *p = raid_plan_rebuild_row(&w->l, w->st, w->rebuild_row, m);
        RaidRunResult res = raid_file_exec_plan(&w->fx, p, NULL);

        g_assert_cmpint(p->error, ==, 0);
        g_assert_cmpint(res.ret, ==, 0);
        raid_plan_free(p);
        w->rebuild_row++;
        w->st[m].rebuilt = MIN(w->rebuild_row * w->l.strip,
                               w->l.block_count);
        if (w->rebuild_row == w->l.rows) {
            w->st[m].status = RAID_MEMBER_ONLINE;
            w->rebuilding = -1;
            w->rebuilds++;
        }
    }
}

static void random_op(World *w)
{
    uint64_t vd = w->l.vd_sectors;
    uint64_t n, lba;
    unsigned kind = g_rand_int_range(w->rand, 0, 100);
    int ret;

    switch (g_rand_int_range(w->rand, 0, 4)) {
    case 0:
        n = g_rand_int_range(w->rand, 1, 9);
        break;
    case 1:
        n = g_rand_int_range(w->rand, 1, w->l.strip * 2);
        break;
    case 2:     /* whole rows, often aligned: full-stripe writes */
        n = w->l.row_sectors * g_rand_int_range(w->rand, 1, 3);
        break;
    default:
        n = g_rand_int_range(w->rand, 1, w->l.row_sectors * 2 + 1);
        break;
    }
    n = MIN(n, vd);
    lba = g_rand_int_range(w->rand, 0, vd - n + 1);
    if (g_rand_boolean(w->rand)) {
        lba -= lba % MIN(n, (uint64_t)w->l.strip);
    }
    if (kind < 40) {
        ret = vd_io(w, RAID_OP_READ, lba, n, w->buf);
        g_assert_cmpint(ret, ==, 0);
        if (memcmp(w->buf, w->ref + lba * SECTOR, n * SECTOR)) {
            g_error("%s: op %u: read %" PRIu64 "+%" PRIu64 " differs",
                    w->cfg->name, w->ops, lba, n);
        }
        w->reads++;
    } else if (kind < 93) {
        for (uint64_t i = 0; i < n * SECTOR; i += 4) {
            *(uint32_t *)(w->buf + i) = g_rand_int(w->rand);
        }
        ret = vd_io(w, RAID_OP_WRITE, lba, n, w->buf);
        g_assert_cmpint(ret, ==, 0);
        memcpy(w->ref + lba * SECTOR, w->buf, n * SECTOR);
        w->writes++;
    } else if (kind < 98) {
        ret = vd_io(w, RAID_OP_UNMAP, lba, n, NULL);
        g_assert_cmpint(ret, ==, 0);
        memset(w->ref + lba * SECTOR, 0, n * SECTOR);
        w->unmaps++;
    } else {
        ret = vd_io(w, RAID_OP_FLUSH, 0, 0, NULL);
        g_assert_cmpint(ret, ==, 0);
    }
    w->ops++;
}

static unsigned env_uint(const char *name, unsigned def)
{
    const char *v = g_getenv(name);

    return v ? (unsigned)g_ascii_strtoull(v, NULL, 0) : def;
}

static void run_config(gconstpointer opaque)
{
    const Config *c = opaque;
    /* big strips: fewer (and bigger) operations */
    unsigned nops = env_uint("RAID_PROPERTY_OPS", 600) / (c->strip ? 4 : 1);
    guint32 seed = env_uint("RAID_PROPERTY_SEED",
                            g_test_rand_int() ^ (c - configs));
    World w = { .cfg = c, .rebuilding = -1 };
    uint64_t start[RAID_MAX_MEMBERS];
    uint32_t strip = c->strip ? c->strip : STRIP;
    uint32_t rows = c->rows ? c->rows : ROWS;
    RaidLayoutDesc d = {
        .level = c->level, .strip = strip, .spans = c->spans,
        .span_members = c->span_members,
        .member_data_sectors = w.data_sectors, .member_start = start,
    };
    bool redundant;

    g_test_message("%s: seed %u (RAID_PROPERTY_SEED)", c->name, seed);
    w.rand = g_rand_new_with_seed(seed);
    w.dir = g_dir_make_tmp("raid-prop-XXXXXX", NULL);
    g_assert_nonnull(w.dir);
    for (uint32_t m = 0; m < c->spans * c->span_members; m++) {
        /* uneven starts and sizes; the layout takes the smallest */
        start[m] = 8 * (m % 3);
        w.data_sectors[m] = start[m] + rows * strip + 16 + 8 * m;
    }
    g_assert_true(raid_layout_init(&w.l, &d, NULL));
    w.fx.members = w.l.members;
    w.fx.punch_holes = true;
    w.fx.no_sync = true;
    w.fx.pool = raid_buf_pool_new(32 << 20);
    /* every other level runs on the reference parity code */
    w.fx.impl = (c - configs) % 2 ? RAID_PARITY_REF : RAID_PARITY_ISAL;
    for (uint32_t m = 0; m < w.l.members; m++) {
        w.fx.fd[m] = open_member(&w, m);
    }
    w.ref = g_malloc0(w.l.vd_sectors * SECTOR);
    w.buf = raid_buf_alloc(w.l.vd_sectors * SECTOR);
    redundant = w.l.parity > 0;

    /* Initialise like a full init: zeroes through the write path. */
    memset(w.buf, 0, w.l.vd_sectors * SECTOR);
    g_assert_cmpint(vd_io(&w, RAID_OP_WRITE, 0, w.l.vd_sectors, w.buf), ==,
                    0);
    check_rows(&w, true);

    for (unsigned i = 0; i < nops; i++) {
        random_op(&w);
        if (redundant) {
            unsigned e = g_rand_int_range(w.rand, 0, 100);

            if (e < 3) {
                fail_member(&w);
            } else if (e < 10) {
                replace_member(&w);
            }
            if (w.rebuilding >= 0 && g_rand_boolean(w.rand)) {
                rebuild_step(&w, 1);
            }
        }
        if (i % 200 == 199) {
            verify_all(&w, "periodic scan");
        }
    }
    verify_all(&w, "after the random phase");
    if (redundant) {
        /* Finish: replace and rebuild everything, then prove consistency. */
        while (w.rebuilding >= 0 || w.failures > w.rebuilds) {
            bool any = false;

            replace_member(&w);
            rebuild_step(&w, w.l.rows);
            for (uint32_t m = 0; m < w.l.members; m++) {
                any = any || w.st[m].status != RAID_MEMBER_ONLINE;
            }
            if (!any) {
                break;
            }
        }
        verify_all(&w, "after the rebuilds");
        check_rows(&w, true);
        verify_degraded(&w);
    } else {
        /* No redundancy: a missing member's strips fail, others work. */
        w.st[0].status = RAID_MEMBER_MISSING;
        g_assert_cmpint(vd_io(&w, RAID_OP_READ, 0, 1, w.buf), ==, -EIO);
        g_assert_cmpint(vd_io(&w, RAID_OP_WRITE, 0, 1, w.buf), ==, -EIO);
        if (w.l.members > 1) {
            g_assert_cmpint(vd_io(&w, RAID_OP_READ, STRIP, STRIP, w.buf), ==,
                            0);
            g_assert_cmpmem(w.buf, STRIP * SECTOR, w.ref + STRIP * SECTOR,
                            STRIP * SECTOR);
        }
        w.st[0].status = RAID_MEMBER_ONLINE;
    }
    g_test_message("%s: %u ops (%u reads, %u writes, %u unmaps), "
                   "%u failures, %u rebuilds", c->name, w.ops, w.reads,
                   w.writes, w.unmaps, w.failures, w.rebuilds);
    g_assert_cmpuint(w.ops, ==, nops);
    if (redundant && nops >= 600) {
        g_assert_cmpuint(w.failures, >, 0);
        g_assert_cmpuint(w.rebuilds, >, 0);
    }

    for (uint32_t m = 0; m < w.l.members; m++) {
        g_autofree char *path = member_path(&w, m);

        if (w.fx.fd[m] >= 0) {
            close(w.fx.fd[m]);
        }
        g_unlink(path);
    }
    g_rmdir(w.dir);
    g_free(w.dir);
    g_free(w.ref);
    raid_buf_pool_free(w.fx.pool);
    raid_buf_free(w.buf);
    g_rand_free(w.rand);
}

/*
 * A corrupted parity or mirror strip is found by check and fixed by
 * check-with-repair.
 */
static void test_check_repair(gconstpointer opaque)
{
    const Config *c = opaque;
    World w = { .cfg = c, .rebuilding = -1 };
    RaidLayoutDesc d = {
        .level = c->level, .strip = STRIP, .spans = c->spans,
        .span_members = c->span_members,
        .member_data_sectors = w.data_sectors,
    };
    uint8_t junk[SECTOR];
    uint32_t victim;

    w.rand = g_rand_new_with_seed(7);
    w.dir = g_dir_make_tmp("raid-chk-XXXXXX", NULL);
    for (uint32_t m = 0; m < c->spans * c->span_members; m++) {
        w.data_sectors[m] = ROWS * STRIP;
    }
    g_assert_true(raid_layout_init(&w.l, &d, NULL));
    w.fx.members = w.l.members;
    for (uint32_t m = 0; m < w.l.members; m++) {
        w.fx.fd[m] = open_member(&w, m);
    }
    w.buf = raid_buf_alloc(w.l.vd_sectors * SECTOR);
    for (uint64_t i = 0; i < w.l.vd_sectors * SECTOR; i++) {
        w.buf[i] = g_rand_int(w.rand);
    }
    g_assert_cmpint(vd_io(&w, RAID_OP_WRITE, 0, w.l.vd_sectors, w.buf), ==,
                    0);
    /* corrupt one sector of the redundancy of row 2 */
    victim = c->level == RAID_LEVEL_1 ? 1 : raid_layout_p_member(&w.l, 2, 0);
    memset(junk, 0x5c, sizeof(junk));
    g_assert_cmpint(pwrite(w.fx.fd[victim], junk, SECTOR,
                           (2 * STRIP + 9) * SECTOR), ==, SECTOR);
    for (int pass = 0; pass < 3; pass++) {
        RaidPlan *p = raid_plan_check_row(&w.l, w.st, 2, pass == 1);
        RaidRunResult res = raid_file_exec_plan(&w.fx, p, NULL);

        g_assert_cmpint(res.ret, ==, 0);
        g_assert_cmpuint(res.mismatches, ==, pass < 2 ? 1 : 0);
        raid_plan_free(p);
    }
    for (uint32_t m = 0; m < w.l.members; m++) {
        g_autofree char *path = member_path(&w, m);

        close(w.fx.fd[m]);
        g_unlink(path);
    }
    g_rmdir(w.dir);
    g_free(w.dir);
    raid_buf_free(w.buf);
    g_rand_free(w.rand);
}

static const Config *find_config(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(configs); i++) {
        if (!strcmp(configs[i].name, name)) {
            return &configs[i];
        }
    }
    g_assert_not_reached();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(configs); i++) {
        g_autofree char *path = g_strdup_printf("/raid/property/%s",
                                                configs[i].name);
        g_test_add_data_func(path, &configs[i], run_config);
    }
    g_test_add_data_func("/raid/check/raid5", find_config("raid5-5"),
                         test_check_repair);
    g_test_add_data_func("/raid/check/raid6", find_config("raid6-7"),
                         test_check_repair);
    g_test_add_data_func("/raid/check/raid1", find_config("raid1-3"),
                         test_check_repair);
    return g_test_run();
}
