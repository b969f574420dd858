/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests of the background jobs on image files: consistency check
 * (finds and repairs damaged parity), rebuild onto a hot spare that is
 * interrupted, checkpointed in the DDF, reloaded and resumed, and full
 * initialization; data is compared byte for byte with a reference.
 */
#include "test-exec-util.h"
#include "raid/job.h"

#include <errno.h>

typedef struct JobCase {
    RaidLevel level;
    int members, spans;
} JobCase;

static const JobCase cases[] = {
    { RAID_LEVEL_1, 2, 0 }, { RAID_LEVEL_5, 4, 0 }, { RAID_LEVEL_6, 5, 0 },
    { RAID_LEVEL_10, 4, 2 }, { RAID_LEVEL_50, 6, 2 }, { RAID_LEVEL_60, 8, 2 },
};

/* Run the VD's job to the end in chunks of @chunk rows. */
static RaidJobProgress run_job(RaidConfig *cfg, uint64_t chunk)
{
    RaidJobProgress pr, total = { 0 };
    RaidFileExec fx;
    GError *err = NULL;

    test_exec_open(cfg, &fx);
    do {
        g_assert_true(raid_job_step(cfg, 0, &raid_file_exec_ops, &fx, chunk,
                                    &pr, &err));
        g_assert_no_error(err);
        total.rows += pr.rows;
        total.mismatches += pr.mismatches;
        total.total_mismatches = pr.total_mismatches;
        total.finished = pr.finished;
    } while (!pr.finished);
    test_exec_close(&fx);
    return total;
}

static void flip_member(RaidConfig *cfg, int member, uint64_t lba)
{
    int pds[RAID_MAX_MEMBERS];
    uint8_t b;
    int fd;

    raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);
    fd = open(cfg->pds[pds[member]].path, O_RDWR);
    g_assert_cmpint(pread(fd, &b, 1, lba * 512 + 100), ==, 1);
    b ^= 0xff;
    g_assert_cmpint(pwrite(fd, &b, 1, lba * 512 + 100), ==, 1);
    close(fd);
}

static void test_jobs(gconstpointer data)
{
    const JobCase *jc = data;
    TestImages t;
    RaidConfig *cfg, *back;
    RaidLayout *l = g_new(RaidLayout, 1);
    GError *err = NULL;
    g_autofree uint8_t *ref = NULL;
    RaidJobProgress pr;
    GRand *rnd = g_rand_new_with_seed(7);
    int pds[RAID_MAX_MEMBERS], victim = 1, spare, rows;
    uint32_t redundant;

    test_vd_size = 8192;
    test_images_new(&t, jc->members + 1, 40 << 20);
    cfg = test_config_new(&t, jc->members, jc->level, jc->spans);
    test_vd_size = 0;
    spare = jc->members;
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_true(raid_config_vd_layout(cfg, 0, l, &err));
    rows = l->rows;
    g_assert_cmpint(rows, >=, 8);

    ref = g_malloc(cfg->vds[0].size * 512);
    for (uint64_t i = 0; i < cfg->vds[0].size * 128; i++) {
        ((uint32_t *)ref)[i] = g_rand_int(rnd);
    }
    test_vd_io(cfg, RAID_OP_WRITE, ref);

    /* A clean check finds nothing. */
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    g_assert_false(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(strstr(err->message, "already runs a check"));
    g_clear_error(&err);
    pr = run_job(cfg, 5);
    g_assert_cmpuint(pr.rows, ==, rows);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);
    g_assert_true(cfg->vds[0].consistent);

    /* Damage redundancy in row 3: found, then repaired. */
    redundant = jc->level == RAID_LEVEL_1 || jc->level == RAID_LEVEL_10 ?
                raid_layout_data_member(l, 3, 0, 0) ^ 1 :
                raid_layout_p_member(l, 3, 0);
    flip_member(cfg, redundant, l->member_start[redundant] + 3 * l->strip);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 1);
    g_assert_false(cfg->vds[0].consistent);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, true, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 1);
    g_assert_true(cfg->vds[0].consistent);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);

    /* Fail a member, rebuild onto the spare with a restart half way. */
    raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);
    g_assert_true(raid_config_fail_pd(cfg, pds[victim], &err));
    g_assert_false(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(strstr(err->message, "needs an optimal VD"));
    g_clear_error(&err);
    test_assert_vd_equals(cfg, ref);
    g_assert_true(raid_config_replace_pd(cfg, pds[victim], spare, &err));
    g_assert_no_error(err);
    {
        RaidFileExec fx;
        test_exec_open(cfg, &fx);
        g_assert_true(raid_job_step(cfg, 0, &raid_file_exec_ops, &fx,
                                    rows / 2, &pr, &err));
        test_exec_close(&fx);
    }
    g_assert_false(pr.finished);
    g_assert_true(ddf_store_config(cfg, &err));
    /* "Restart": everything comes back from the metadata. */
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_REBUILD);
    g_assert_cmpuint(back->vds[0].job.next_row, ==, rows / 2);
    g_assert_cmpint(back->pds[spare].state, ==, RAID_PD_REBUILD);
    g_assert_cmpint(back->pds[pds[victim]].state, ==, RAID_PD_UNCONF_BAD);
    /* Reads during the rebuild are right (rebuilt part and the rest). */
    test_assert_vd_equals(back, ref);
    pr = run_job(back, 3);
    g_assert_cmpuint(pr.rows, ==, rows - rows / 2);
    g_assert_cmpint(back->pds[spare].state, ==, RAID_PD_ONLINE);
    g_assert_cmpint(back->vds[0].state, ==, RAID_VD_OPTIMAL);
    /* The rebuilt member holds the right data: lose another one. */
    raid_vd_members(back, 0, pds, RAID_MAX_MEMBERS);
    g_assert_true(raid_config_fail_pd(back, pds[0], &err));
    test_assert_vd_equals(back, ref);
    g_assert_cmpuint(pds[victim], ==, spare);

    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
    g_rand_free(rnd);
    g_free(l);
}

static void test_init_job(void)
{
    TestImages t;
    RaidConfig *cfg;
    GError *err = NULL;
    g_autofree uint8_t *junk = NULL, *zero = NULL;
    RaidJobProgress pr;

    test_vd_size = 4096;
    test_images_new(&t, 4, 40 << 20);
    cfg = test_config_new(&t, 4, RAID_LEVEL_6, 0);
    test_vd_size = 0;
    junk = g_malloc(cfg->vds[0].size * 512);
    memset(junk, 0xa5, cfg->vds[0].size * 512);
    zero = g_malloc0(cfg->vds[0].size * 512);
    test_vd_io(cfg, RAID_OP_WRITE, junk);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_INIT, false, &err));
    g_assert_false(cfg->vds[0].initialized);
    pr = run_job(cfg, 7);
    g_assert_true(pr.finished);
    g_assert_true(cfg->vds[0].initialized);
    test_assert_vd_equals(cfg, zero);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);
    /* RAID 0 has nothing to check. */
    g_assert_false(raid_job_start(cfg, 5, RAID_JOB_CHECK, false, &err));
    g_assert_nonnull(strstr(err->message, "does not exist"));
    g_clear_error(&err);
    g_assert_false(raid_job_start(cfg, 0, RAID_JOB_REBUILD, false, &err));
    g_assert_nonnull(strstr(err->message, "no member in rebuild"));
    g_clear_error(&err);
    raid_config_free(cfg);
    test_images_free(&t);
}

/*
 * Background initialization is a check with repair: a never-initialized
 * VD keeps its data, gets consistent parity, and is initialized after it
 * (also in the metadata); a check without repair that finds mismatches
 * leaves it uninitialized.
 */
static void test_bgi(void)
{
    TestImages t;
    RaidConfig *cfg, *back;
    RaidLayout *l = g_new(RaidLayout, 1);
    GError *err = NULL;
    g_autofree uint8_t *ref = NULL;
    RaidJobProgress pr;

    test_vd_size = 4096;
    test_images_new(&t, 5, 40 << 20);
    cfg = test_config_new(&t, 5, RAID_LEVEL_6, 0);
    test_vd_size = 0;
    ref = g_malloc(cfg->vds[0].size * 512);
    for (uint64_t i = 0; i < cfg->vds[0].size * 512; i++) {
        ref[i] = i * 7 + (i >> 9);
    }
    test_vd_io(cfg, RAID_OP_WRITE, ref);
    g_assert_true(raid_config_vd_layout(cfg, 0, l, &err));
    /* Never initialized: P of row 1 and Q of row 4 are stale. */
    cfg->vds[0].initialized = false;
    cfg->vds[0].consistent = false;
    flip_member(cfg, raid_layout_p_member(l, 1, 0),
                l->member_start[0] + 1 * l->strip);
    flip_member(cfg, raid_layout_q_member(l, 4, 0),
                l->member_start[0] + 4 * l->strip + 3);

    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 2);
    g_assert_false(cfg->vds[0].initialized);
    g_assert_false(cfg->vds[0].consistent);

    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, true, &err));
    g_assert_no_error(err);
    pr = run_job(cfg, 3);
    g_assert_true(pr.finished);
    g_assert_cmpuint(pr.total_mismatches, ==, 2);
    g_assert_true(cfg->vds[0].initialized);
    g_assert_true(cfg->vds[0].consistent);
    test_assert_vd_equals(cfg, ref);
    g_assert_true(ddf_store_config(cfg, &err));
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_true(back->vds[0].initialized);
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_true(raid_job_start(back, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(back, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);
    test_assert_vd_equals(back, ref);
    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
    g_free(l);
}

static void run_done(void *opaque, const RaidRunResult *res)
{
    *(RaidRunResult *)opaque = *res;
}

/* The device's way: row begin, raid_run_start under the row lock, end. */
/*
 * Several rows planned ahead of the cursor (raid_job_row_begin_at), run
 * in any order, counted in row order: the same result as one at a time;
 * a row behind the cursor or past the end is refused.
 */
static void test_pipelined_rows(void)
{
    TestImages t;
    RaidConfig *cfg;
    RaidLayout *l = g_new(RaidLayout, 1);
    GError *err = NULL;
    RaidFileExec fx;
    RaidJobProgress pr = { 0 };
    g_autofree uint8_t *ref = NULL;
    uint64_t rows = 0;
    enum { WINDOW = 4 };

    test_vd_size = 4096;
    test_images_new(&t, 4, 40 << 20);
    cfg = test_config_new(&t, 4, RAID_LEVEL_5, 0);
    test_vd_size = 0;
    ref = g_malloc(cfg->vds[0].size * 512);
    memset(ref, 0x5a, cfg->vds[0].size * 512);
    test_vd_io(cfg, RAID_OP_WRITE, ref);
    g_assert_true(raid_config_vd_layout(cfg, 0, l, &err));
    g_assert_cmpuint(l->rows, >, WINDOW * 2);
    flip_member(cfg, raid_layout_p_member(l, 5, 0),
                l->member_start[0] + 5 * l->strip);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, true, &err));
    test_exec_open(cfg, &fx);
    while (!pr.finished) {
        RaidJobRow jr[WINDOW];
        RaidRunResult res[WINDOW];
        uint64_t cur = cfg->vds[0].job.next_row;
        unsigned n = 0;

        if (cur > 0) {
            RaidJobRow behind;

            g_assert_false(raid_job_row_begin_at(cfg, 0, l, cur - 1, &behind,
                                                 &err));
            g_assert_null(behind.plan);
            g_clear_error(&err);
        }
        if (cur < l->rows) {
            RaidJobRow past;

            g_assert_false(raid_job_row_begin_at(cfg, 0, l, l->rows, &past,
                                                 &err));
            g_clear_error(&err);
        }
        for (uint64_t row = cur; row < MIN(cur + WINDOW, l->rows); row++) {
            g_assert_true(raid_job_row_begin_at(cfg, 0, l, row, &jr[n],
                                                &err));
            g_assert_nonnull(jr[n].plan);
            g_assert_cmpuint(jr[n].row, ==, row);
            g_assert_cmpuint(jr[n].plan->first_row, ==, row);
            n++;
        }
        /* run the window backwards: the files complete at once */
        for (unsigned i = n; i-- > 0;) {
            res[i].ret = 1;
            raid_run_start(jr[i].plan, RAID_PARITY_ISAL, &raid_file_exec_ops,
                           &fx, run_done, &res[i]);
            g_assert_cmpint(res[i].ret, ==, 0);
        }
        /* counted in row order, each at the cursor */
        for (unsigned i = 0; i < n; i++) {
            g_assert_cmpuint(cfg->vds[0].job.next_row, ==, jr[i].row);
            g_assert_true(raid_job_row_end(cfg, 0, l, &jr[i], &res[i], &pr,
                                           &err));
            rows++;
        }
        if (!n) {
            RaidJobRow last;
            RaidRunResult none = { 0 };

            g_assert_true(raid_job_row_begin(cfg, 0, l, &last, &err));
            g_assert_null(last.plan);
            g_assert_true(raid_job_row_end(cfg, 0, l, &last, &none, &pr,
                                           &err));
        }
    }
    test_exec_close(&fx);
    g_assert_cmpuint(rows, ==, l->rows);
    g_assert_cmpuint(pr.total_mismatches, ==, 1);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    /* Repaired: a clean check now. */
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);
    raid_config_free(cfg);
    test_images_free(&t);
    g_free(l);
}

static void test_async_rows(void)
{
    TestImages t;
    RaidConfig *cfg;
    RaidLayout *l = g_new(RaidLayout, 1);
    RaidStripeLocks *locks = raid_stripe_locks_new();
    GError *err = NULL;
    RaidFileExec fx;
    RaidJobProgress pr = { 0 };
    g_autofree uint8_t *ref = NULL;
    uint64_t rows = 0;

    test_vd_size = 4096;
    test_images_new(&t, 4, 40 << 20);
    cfg = test_config_new(&t, 4, RAID_LEVEL_5, 0);
    test_vd_size = 0;
    ref = g_malloc(cfg->vds[0].size * 512);
    memset(ref, 0x3c, cfg->vds[0].size * 512);
    test_vd_io(cfg, RAID_OP_WRITE, ref);
    g_assert_true(raid_config_vd_layout(cfg, 0, l, &err));
    flip_member(cfg, raid_layout_p_member(l, 2, 0),
                l->member_start[0] + 2 * l->strip);
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, true, &err));
    test_exec_open(cfg, &fx);
    while (!pr.finished) {
        RaidJobRow jr;
        RaidRunResult res = { .ret = 1 };
        RaidStripeLock *lk = NULL;
        bool now = true;

        g_assert_true(raid_job_row_begin(cfg, 0, l, &jr, &err));
        if (jr.plan) {
            g_assert_true(jr.plan->exclusive);
            g_assert_cmpuint(jr.plan->first_row, ==, jr.row);
            lk = raid_stripe_lock(locks, jr.plan->first_row,
                                  jr.plan->last_row, true, NULL, NULL, &now);
            g_assert_true(now);
            raid_run_start(jr.plan, RAID_PARITY_ISAL, &raid_file_exec_ops,
                           &fx, run_done, &res);
            g_assert_cmpint(res.ret, ==, 0);    /* files complete at once */
            raid_stripe_unlock(locks, lk);
            rows++;
        }
        g_assert_true(raid_job_row_end(cfg, 0, l, &jr, &res, &pr, &err));
        g_assert_null(jr.plan);
    }
    test_exec_close(&fx);
    g_assert_cmpuint(rows, ==, l->rows);
    g_assert_cmpuint(pr.total_mismatches, ==, 1);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpuint(raid_stripe_locks_count(locks), ==, 0);
    /* Repaired: a clean check now. */
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    pr = run_job(cfg, 1000);
    g_assert_cmpuint(pr.total_mismatches, ==, 0);
    raid_stripe_locks_free(locks);
    raid_config_free(cfg);
    test_images_free(&t);
    g_free(l);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        test_add_level("/job/check-rebuild", cases[i].level, &cases[i],
                       test_jobs);
    }
    g_test_add_func("/job/init", test_init_job);
    g_test_add_func("/job/bgi", test_bgi);
    g_test_add_func("/job/async-rows", test_async_rows);
    g_test_add_func("/job/pipelined-rows", test_pipelined_rows);
    return g_test_run();
}
