/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests of copyback (hw/raid/copyback.c) on image files: a member
 * fails, a hot spare rebuilds in its place, a new drive gets the spare's
 * data copied back (interrupted, stored as DDF, read back, resumed),
 * then takes the member's place while the spare is a spare again; data
 * compared byte for byte with a reference, and the refusals.
 */
#include "test-exec-util.h"
#include "raid/job.h"

#include <errno.h>

typedef struct CbCase {
    RaidLevel level;
    int members, spans;
} CbCase;

static const CbCase cases[] = {
    { RAID_LEVEL_0, 2, 0 }, { RAID_LEVEL_1, 2, 0 }, { RAID_LEVEL_5, 4, 0 },
    { RAID_LEVEL_6, 5, 0 }, { RAID_LEVEL_10, 4, 2 }, { RAID_LEVEL_50, 6, 2 },
};

/* The VD's members open, and the copyback's target (if any) after them. */
static void exec_open(RaidConfig *cfg, RaidFileExec *fx)
{
    int src, dst;

    test_exec_open(cfg, fx);
    if (raid_copyback_of_dg(cfg, cfg->vds[0].dg, &src, &dst)) {
        fx->fd[fx->members] = open(cfg->pds[dst].path, O_RDWR);
        g_assert_cmpint(fx->fd[fx->members], >=, 0);
    }
    fx->members++;
}

/* Up to @rows rows of the VD's job; true when it finished. */
static bool step(RaidConfig *cfg, uint64_t rows)
{
    RaidJobProgress pr;
    RaidFileExec fx;
    GError *err = NULL;

    exec_open(cfg, &fx);
    g_assert_true(raid_job_step(cfg, 0, &raid_file_exec_ops, &fx, rows, &pr,
                                &err));
    g_assert_no_error(err);
    test_exec_close(&fx);
    return pr.finished;
}

static void run_to_end(RaidConfig *cfg, uint64_t rows)
{
    bool done = false;

    while (!done) {
        done = step(cfg, rows);
    }
}

/* The extent of the VD on two drives is the same, byte for byte. */
static void assert_same_extent(RaidConfig *cfg, int a, int b)
{
    const RaidVd *v = &cfg->vds[0];
    size_t len = v->blocks * 512;
    g_autofree uint8_t *x = g_malloc(len), *y = g_malloc(len);
    int fa = open(cfg->pds[a].path, O_RDONLY);
    int fb = open(cfg->pds[b].path, O_RDONLY);

    g_assert_cmpint(pread(fa, x, len, v->start * 512), ==, len);
    g_assert_cmpint(pread(fb, y, len, v->start * 512), ==, len);
    g_assert_true(memcmp(x, y, len) == 0);
    close(fa);
    close(fb);
}

/*
 * Row 0 of member @src recomputed from the others onto @dst with @src
 * unreadable (closed): @dst then holds what @src holds there.  Without
 * redundancy (@redundant false) the plan fails.
 */
static void copy_row_rebuilt(RaidConfig *cfg, int src, int dst,
                             bool redundant)
{
    RaidLayout *l = g_new(RaidLayout, 1);
    RaidMemberState st[RAID_MAX_MEMBERS];
    int pds[RAID_MAX_MEMBERS], m = -1;
    int n = raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);
    uint32_t len;
    g_autofree uint8_t *a = NULL, *b = NULL;
    RaidFileExec fx;
    RaidRunResult res;
    RaidPlan *p;
    int fa, fb;

    for (int i = 0; i < n; i++) {
        m = pds[i] == src ? i : m;
    }
    g_assert_cmpint(m, >=, 0);
    g_assert_true(raid_config_vd_layout(cfg, 0, l, NULL));
    raid_config_vd_member_states(cfg, 0, st);
    p = raid_plan_copy_row_rebuilt(l, st, 0, m);
    if (!redundant) {
        g_assert_cmpint(p->error, ==, -EIO);
        raid_plan_free(p);
        g_free(l);
        return;
    }
    g_assert_cmpint(p->error, ==, 0);
    exec_open(cfg, &fx);
    close(fx.fd[m]);
    fx.fd[m] = -1;              /* the source reads nothing */
    res = raid_run_sync(p, RAID_PARITY_ISAL, &raid_file_exec_ops, &fx);
    g_assert_cmpint(res.ret, ==, 0);
    test_exec_close(&fx);
    raid_plan_free(p);
    len = raid_layout_row_len(l, 0) * 512;
    a = g_malloc(len);
    b = g_malloc(len);
    fa = open(cfg->pds[src].path, O_RDONLY);
    fb = open(cfg->pds[dst].path, O_RDONLY);
    g_assert_cmpint(pread(fa, a, len, l->member_start[m] * 512), ==, len);
    g_assert_cmpint(pread(fb, b, len, l->member_start[m] * 512), ==, len);
    g_assert_true(memcmp(a, b, len) == 0);
    close(fa);
    close(fb);
    g_free(l);
}

static void test_copyback(gconstpointer data)
{
    const CbCase *c = data;
    TestImages t;
    RaidConfig *cfg, *back;
    GError *err = NULL;
    g_autofree uint8_t *ref = NULL;
    GRand *rnd = g_rand_new_with_seed(11);
    int pds[RAID_MAX_MEMBERS], victim = 1, spare = c->members;
    int fresh = c->members + 1, src, dst;
    uint64_t rows;

    test_vd_size = 4096;
    test_images_new(&t, c->members + 2, 40 << 20);
    cfg = test_config_new(&t, c->members, c->level, c->spans);
    test_vd_size = 0;
    g_assert_true(raid_config_remove_spare(cfg, fresh, &err));
    rows = raid_vd_rows(cfg, 0);
    ref = g_malloc(cfg->vds[0].size * 512);
    for (uint64_t i = 0; i < cfg->vds[0].size * 128; i++) {
        ((uint32_t *)ref)[i] = g_rand_int(rnd);
    }
    test_vd_io(cfg, RAID_OP_WRITE, ref);
    raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);

    /* nothing to copy back yet; a copyback onto a spare is refused */
    g_assert_cmpint(raid_copyback_source_for_slot(cfg, victim), ==, -1);
    g_assert_false(raid_copyback_start(cfg, pds[0], spare, &err));
    g_assert_nonnull(strstr(err->message, "unconfigured-good"));
    g_clear_error(&err);

    if (c->level != RAID_LEVEL_0) {
        /* the member fails, the spare takes over and is rebuilt */
        g_assert_true(raid_config_fail_pd(cfg, pds[victim], &err));
        g_assert_true(raid_config_replace_pd(cfg, pds[victim], spare, &err));
        g_assert_true(cfg->pds[spare].spare_took);
        g_assert_cmpint(cfg->pds[spare].spare_took_slot, ==, victim);
        /* not while the group is rebuilt */
        g_assert_cmpint(raid_copyback_source_for_slot(cfg, victim), ==, -1);
        g_assert_false(raid_copyback_start(cfg, spare, fresh, &err));
        g_assert_nonnull(strstr(err->message, "not an online member"));
        g_clear_error(&err);
        run_to_end(cfg, 1000);
        g_assert_cmpint(cfg->pds[spare].state, ==, RAID_PD_ONLINE);
        g_assert_cmpint(raid_copyback_source_for_slot(cfg, victim), ==,
                        spare);
        src = spare;
    } else {
        /* RAID 0: a manual copyback of a member, nothing failed */
        src = pds[victim];
    }
    test_assert_vd_equals(cfg, ref);

    g_assert_true(raid_copyback_start(cfg, src, fresh, &err));
    g_assert_no_error(err);
    g_assert_cmpint(cfg->pds[fresh].state, ==, RAID_PD_COPYBACK);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_COPYBACK);
    g_assert_cmpint(raid_copyback_of_pd(cfg, fresh, &src, &dst), ==,
                    cfg->vds[0].dg);
    g_assert_cmpint(dst, ==, fresh);
    g_assert_false(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    g_clear_error(&err);
    /* a COPYBACK drive takes no other role */
    g_assert_false(raid_config_add_spare(cfg, fresh, -1, &err));
    g_clear_error(&err);

    copy_row_rebuilt(cfg, src, fresh, c->level != RAID_LEVEL_0);

    /* half, stored, read back ("restart"), the rest */
    g_assert_false(step(cfg, rows / 2));
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_COPYBACK);
    g_assert_cmpuint(back->vds[0].job.next_row, ==, rows / 2);
    g_assert_cmpuint(back->vds[0].job.source_ref, ==, cfg->pds[src].ref);
    g_assert_cmpuint(back->vds[0].job.target_ref, ==, cfg->pds[fresh].ref);
    g_assert_cmpint(back->pds[fresh].state, ==, RAID_PD_COPYBACK);
    g_assert_cmpint(back->pds[src].state, ==, RAID_PD_ONLINE);
    test_assert_vd_equals(back, ref);
    run_to_end(back, 3);
    raid_vd_members(back, 0, pds, RAID_MAX_MEMBERS);
    g_assert_cmpint(pds[victim], ==, fresh);
    g_assert_cmpint(back->pds[fresh].state, ==, RAID_PD_ONLINE);
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpint(back->vds[0].state, ==, RAID_VD_OPTIMAL);
    /* the spare is one again; a member copied by hand is let go */
    g_assert_cmpint(back->pds[src].state, ==, (c->level == RAID_LEVEL_0 ?
                    RAID_PD_UNCONF_GOOD : RAID_PD_HOT_SPARE));
    g_assert_cmpint(back->pds[src].spare_dg, ==, -1);
    g_assert_false(back->pds[src].spare_took);
    assert_same_extent(back, src, fresh);
    test_assert_vd_equals(back, ref);
    /* stored so too */
    g_assert_true(ddf_store_config(back, &err));
    raid_config_free(cfg);
    cfg = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpint(cfg->pds[fresh].state, ==, RAID_PD_ONLINE);
    g_assert_cmpint(cfg->pds[src].state, ==, (c->level == RAID_LEVEL_0 ?
                    RAID_PD_UNCONF_GOOD : RAID_PD_HOT_SPARE));
    test_assert_vd_equals(cfg, ref);

    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
    g_rand_free(rnd);
}

/* A copyback ends without a swap when its target or its source fails. */
static void test_abandon(void)
{
    TestImages t;
    RaidConfig *cfg, *back;
    GError *err = NULL;
    int pds[RAID_MAX_MEMBERS];

    test_vd_size = 4096;
    test_images_new(&t, 5, 40 << 20);
    cfg = test_config_new(&t, 4, RAID_LEVEL_5, 0);
    test_vd_size = 0;
    g_assert_true(raid_config_remove_spare(cfg, 4, &err));
    raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);

    /* not while another job runs on the group */
    g_assert_true(raid_job_start(cfg, 0, RAID_JOB_CHECK, false, &err));
    g_assert_false(raid_copyback_start(cfg, pds[2], 4, &err));
    g_assert_nonnull(strstr(err->message, "copyback waits"));
    g_clear_error(&err);
    run_to_end(cfg, 1000);
    /* nor onto a drive too small, nor from a drive that is no member */
    cfg->pds[4].usable = cfg->vds[0].start + cfg->vds[0].blocks - 1;
    g_assert_false(raid_copyback_start(cfg, pds[2], 4, &err));
    g_assert_nonnull(strstr(err->message, "usable sectors"));
    g_clear_error(&err);
    cfg->pds[4].usable = cfg->pds[pds[2]].usable;
    g_assert_false(raid_copyback_start(cfg, 4, pds[2], &err));
    g_assert_nonnull(strstr(err->message, "not an online member"));
    g_clear_error(&err);

    /* the target fails: unconfigured bad, the VD untouched */
    g_assert_true(raid_copyback_start(cfg, pds[2], 4, &err));
    g_assert_false(step(cfg, 2));
    g_assert_true(raid_config_fail_pd(cfg, 4, &err));
    g_assert_cmpint(cfg->pds[4].state, ==, RAID_PD_UNCONF_BAD);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpint(cfg->vds[0].state, ==, RAID_VD_OPTIMAL);
    g_assert_true(raid_config_set_pd_state(cfg, 4, RAID_PD_UNCONF_GOOD,
                                           &err));

    /* the source fails: the target is unconfigured good again */
    g_assert_true(raid_copyback_start(cfg, pds[2], 4, &err));
    g_assert_false(step(cfg, 2));
    g_assert_true(raid_config_fail_pd(cfg, pds[2], &err));
    g_assert_cmpint(cfg->pds[4].state, ==, RAID_PD_UNCONF_GOOD);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpint(cfg->vds[0].state, ==, RAID_VD_DEGRADED);
    g_assert_false(raid_copyback_start(cfg, pds[1], 4, &err));
    g_assert_nonnull(strstr(err->message, "optimal"));
    g_clear_error(&err);

    /* a cursor naming a drive that is not there is dropped at read back */
    g_assert_true(raid_config_replace_pd(cfg, pds[2], 4, &err));
    run_to_end(cfg, 1000);
    g_assert_true(raid_config_set_pd_state(cfg, pds[2], RAID_PD_UNCONF_GOOD,
                                           &err));
    g_assert_true(raid_copyback_start(cfg, 4, pds[2], &err));
    g_assert_true(ddf_store_config(cfg, &err));
    g_unlink(t.paths[2]);
    {
        int fd = open(t.paths[2], O_RDWR | O_CREAT | O_TRUNC, 0644);

        g_assert_cmpint(ftruncate(fd, 40 << 20), ==, 0);
        close(fd);
    }
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_NONE);
    g_assert_cmpint(back->pds[4].state, ==, RAID_PD_ONLINE);
    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *level = raid_level_name(cases[i].level);
        g_autofree char *name = g_strdup_printf("/copyback/%s", level);

        g_test_add_data_func(name, &cases[i], test_copyback);
    }
    g_test_add_func("/copyback/abandon", test_abandon);
    return g_test_run();
}
