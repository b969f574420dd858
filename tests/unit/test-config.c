/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests of the configuration model: drive state transitions, VD
 * states, level rules and the card's limits (each refusal names the
 * limit).
 */
#include "raid/config.h"

#include <string.h>

#define GIB (2 * 1024 * 1024ull)       /* sectors */

static RaidConfig *new_cfg(int ndrives, uint64_t sectors)
{
    uint8_t g[RAID_GUID_LEN] = "LSI     TESTCTRL00000001";
    RaidConfig *cfg = raid_config_new(g);

    for (int i = 0; i < ndrives; i++) {
        uint8_t pg[RAID_GUID_LEN] = { 0 };
        GError *err = NULL;

        memcpy(pg, "TESTPD  ", 8);
        pg[20] = i >> 8;
        pg[21] = i;
        g_assert_cmpint(raid_config_add_pd(cfg, pg, i, sectors, &err), ==, i);
        g_assert_no_error(err);
    }
    return cfg;
}

static uint64_t vd_size;       /* sectors for make_vd(); 0: all */

static int make_vd(RaidConfig *cfg, RaidLevel level, int first, int n,
                   int spans, GError **errp)
{
    int pds[RAID_MAX_MEMBERS];
    RaidVdSpec spec = { .level = level, .nspans = spans, .size = vd_size };

    for (int i = 0; i < n; i++) {
        pds[i] = first + i;
    }
    return raid_config_create_vd(cfg, pds, n, &spec, errp);
}

static void assert_refused(GError *err, const char *needle)
{
    g_assert_nonnull(err);
    if (!strstr(err->message, needle)) {
        g_error("message '%s' does not name '%s'", err->message, needle);
    }
}

static void test_transitions(void)
{
    RaidConfig *cfg = new_cfg(4, GIB);
    GError *err = NULL;

    /* Table spot checks, both ways. */
    g_assert_true(raid_pd_transition_valid(RAID_PD_UNCONF_GOOD,
                                           RAID_PD_HOT_SPARE));
    g_assert_true(raid_pd_transition_valid(RAID_PD_OFFLINE, RAID_PD_REBUILD));
    g_assert_true(raid_pd_transition_valid(RAID_PD_REBUILD, RAID_PD_ONLINE));
    g_assert_true(raid_pd_transition_valid(RAID_PD_FOREIGN,
                                           RAID_PD_UNCONF_GOOD));
    g_assert_false(raid_pd_transition_valid(RAID_PD_ONLINE,
                                            RAID_PD_HOT_SPARE));
    g_assert_false(raid_pd_transition_valid(RAID_PD_UNCONF_BAD,
                                            RAID_PD_ONLINE));
    g_assert_false(raid_pd_transition_valid(RAID_PD_ONLINE, RAID_PD_REBUILD));
    g_assert_false(raid_pd_transition_valid(RAID_PD_HOT_SPARE,
                                            RAID_PD_ONLINE));
    g_assert_false(raid_pd_transition_valid(RAID_PD_MISSING, RAID_PD_ONLINE));
    g_assert_false(raid_pd_transition_valid(RAID_PD_STATE__MAX,
                                            RAID_PD_ONLINE));

    /* Through the config: an invalid change is refused, state kept. */
    g_assert_true(raid_config_set_pd_state(cfg, 0, RAID_PD_UNCONF_BAD, &err));
    g_assert_false(raid_config_set_pd_state(cfg, 0, RAID_PD_ONLINE, &err));
    assert_refused(err, "unconfigured-bad -> online");
    g_clear_error(&err);
    g_assert_cmpint(cfg->pds[0].state, ==, RAID_PD_UNCONF_BAD);
    g_assert_false(raid_config_set_pd_state(cfg, 9, RAID_PD_ONLINE, &err));
    assert_refused(err, "does not exist");
    g_clear_error(&err);
    raid_config_free(cfg);
}

static void test_vd_states(void)
{
    RaidConfig *cfg = new_cfg(24, GIB);
    GError *err = NULL;
    int r5 = make_vd(cfg, RAID_LEVEL_5, 0, 4, 0, &err);
    int r6 = make_vd(cfg, RAID_LEVEL_6, 4, 5, 0, &err);
    int r10 = make_vd(cfg, RAID_LEVEL_10, 9, 4, 0, &err);
    int r60 = make_vd(cfg, RAID_LEVEL_60, 13, 8, 2, &err);
    int r0 = make_vd(cfg, RAID_LEVEL_0, 21, 2, 0, &err);

    g_assert_no_error(err);
    g_assert_cmpint(raid_vd_nspans(cfg, r10), ==, 2);
    g_assert_cmpint(raid_vd_nspans(cfg, r60), ==, 2);
    for (int v = 0; v < 5; v++) {
        g_assert_cmpint(cfg->vds[v].state, ==, RAID_VD_OPTIMAL);
    }
    g_assert_true(raid_config_fail_pd(cfg, 0, &err));
    g_assert_cmpint(cfg->vds[r5].state, ==, RAID_VD_DEGRADED);
    g_assert_true(raid_config_fail_pd(cfg, 1, &err));
    g_assert_cmpint(cfg->vds[r5].state, ==, RAID_VD_OFFLINE);

    g_assert_true(raid_config_fail_pd(cfg, 4, &err));
    g_assert_cmpint(cfg->vds[r6].state, ==, RAID_VD_PARTIALLY_DEGRADED);
    g_assert_true(raid_config_fail_pd(cfg, 5, &err));
    g_assert_cmpint(cfg->vds[r6].state, ==, RAID_VD_DEGRADED);
    g_assert_true(raid_config_fail_pd(cfg, 6, &err));
    g_assert_cmpint(cfg->vds[r6].state, ==, RAID_VD_OFFLINE);

    /* RAID 10: one per mirror pair is survivable, a whole pair is not. */
    g_assert_true(raid_config_fail_pd(cfg, 9, &err));
    g_assert_true(raid_config_fail_pd(cfg, 11, &err));
    g_assert_cmpint(cfg->vds[r10].state, ==, RAID_VD_DEGRADED);
    g_assert_true(raid_config_fail_pd(cfg, 10, &err));
    g_assert_cmpint(cfg->vds[r10].state, ==, RAID_VD_OFFLINE);

    /* RAID 60: two per span. */
    g_assert_true(raid_config_fail_pd(cfg, 13, &err));
    g_assert_cmpint(cfg->vds[r60].state, ==, RAID_VD_PARTIALLY_DEGRADED);
    g_assert_true(raid_config_fail_pd(cfg, 17, &err));
    g_assert_true(raid_config_fail_pd(cfg, 18, &err));
    g_assert_cmpint(cfg->vds[r60].state, ==, RAID_VD_DEGRADED);

    g_assert_true(raid_config_fail_pd(cfg, 22, &err));
    g_assert_cmpint(cfg->vds[r0].state, ==, RAID_VD_OFFLINE);
    g_assert_no_error(err);

    /* Failing a failed drive again is a no-op, not an error. */
    g_assert_true(raid_config_fail_pd(cfg, 22, &err));
    raid_config_free(cfg);
}

static void test_level_rules(void)
{
    RaidConfig *cfg = new_cfg(40, GIB);
    GError *err = NULL;
    RaidVdSpec spec = { .level = RAID_LEVEL_5, .strip = 64 };
    int pds[3] = { 0, 1, 2 };

    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_5, 0, 2, 0, &err), <, 0);
    assert_refused(err, "at least 3 drives per span");
    g_clear_error(&err);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_10, 0, 5, 0, &err), <, 0);
    assert_refused(err, "equal spans");
    g_clear_error(&err);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_JBOD, 0, 2, 0, &err), <, 0);
    assert_refused(err, "exactly 1 drive");
    g_clear_error(&err);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_50, 0, 3, 1, &err), <, 0);
    assert_refused(err, "at least 2 spans");
    g_clear_error(&err);
    g_assert_cmpint(raid_config_create_vd(cfg, pds, 3, &spec, &err), <, 0);
    assert_refused(err, "64 KiB to 1 MiB");
    g_clear_error(&err);
    pds[2] = 0;
    spec.strip = 0;
    g_assert_cmpint(raid_config_create_vd(cfg, pds, 3, &spec, &err), <, 0);
    assert_refused(err, "listed twice");
    g_clear_error(&err);
    /* Nothing was left half-made. */
    g_assert_cmpint(raid_config_count_vds(cfg), ==, 0);
    for (int i = 0; i < cfg->npds; i++) {
        g_assert_cmpint(cfg->pds[i].state, ==, RAID_PD_UNCONF_GOOD);
    }
    /* A drive in a group cannot be used again. */
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_1, 0, 2, 0, &err), ==, 0);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_1, 1, 2, 0, &err), <, 0);
    assert_refused(err, "not unconfigured-good");
    g_clear_error(&err);
    raid_config_free(cfg);
}

static void test_limits(void)
{
    RaidConfig *cfg = new_cfg(RAID_MAX_PDS, 4 * GIB);
    GError *err = NULL;
    RaidVdSpec spec = { .level = RAID_LEVEL_0, .size = 2048 };
    uint8_t g[RAID_GUID_LEN] = "one too many drive......";
    int dg, v;

    vd_size = 2048;
    /* 241st drive */
    g_assert_cmpint(raid_config_add_pd(cfg, g, 999, GIB, &err), <, 0);
    assert_refused(err, "at most 240 physical drives");
    g_clear_error(&err);

    /* 33 drives in a span, 9 spans */
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_0, 0, 33, 0, &err), <, 0);
    assert_refused(err, "at most 32 drives per drive group span");
    g_clear_error(&err);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_10, 0, 18, 9, &err), <, 0);
    assert_refused(err, "at most 8 spans");
    g_clear_error(&err);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_0, 0, 32, 0, &err), >=, 0);
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_60, 32, 32, 8, &err), >=, 0);
    g_assert_no_error(err);

    /* 16 VDs per drive group */
    v = make_vd(cfg, RAID_LEVEL_0, 64, 1, 0, &err);
    g_assert_cmpint(v, >=, 0);
    dg = cfg->vds[v].dg;
    for (int i = 1; i < RAID_MAX_VDS_PER_DG; i++) {
        g_assert_cmpint(raid_config_add_vd(cfg, dg, &spec, &err), >=, 0);
        g_assert_no_error(err);
    }
    g_assert_cmpint(raid_config_add_vd(cfg, dg, &spec, &err), <, 0);
    assert_refused(err, "at most 16 VDs per drive group");
    g_clear_error(&err);

    /* 240 VDs: fill with single-drive groups of 16 VDs each. */
    for (int d = 65; raid_config_count_vds(cfg) < RAID_MAX_VDS; d++) {
        v = make_vd(cfg, RAID_LEVEL_0, d, 1, 0, &err);
        g_assert_no_error(err);
        for (int k = 1; k < RAID_MAX_VDS_PER_DG &&
             raid_config_count_vds(cfg) < RAID_MAX_VDS; k++) {
            g_assert_cmpint(raid_config_add_vd(cfg, cfg->vds[v].dg, &spec,
                                               &err), >=, 0);
            g_assert_no_error(err);
        }
    }
    g_assert_cmpint(make_vd(cfg, RAID_LEVEL_0, 200, 1, 0, &err), <, 0);
    assert_refused(err, "at most 240 virtual disks");
    g_clear_error(&err);
    vd_size = 0;
    raid_config_free(cfg);
}

static void test_spare_limits(void)
{
    RaidConfig *cfg = new_cfg(RAID_MAX_PDS, GIB);
    GError *err = NULL;
    int v = make_vd(cfg, RAID_LEVEL_1, 0, 2, 0, &err);
    int dg = cfg->vds[v].dg;

    for (int i = 0; i < RAID_MAX_GLOBAL_SPARES; i++) {
        g_assert_true(raid_config_add_spare(cfg, 2 + i, -1, &err));
    }
    g_assert_false(raid_config_add_spare(cfg, 100, -1, &err));
    assert_refused(err, "at most 64 global hot spares");
    g_clear_error(&err);
    for (int i = 0; i < RAID_MAX_DEDICATED_SPARES; i++) {
        g_assert_true(raid_config_add_spare(cfg, 100 + i, dg, &err));
    }
    g_assert_false(raid_config_add_spare(cfg, 200, dg, &err));
    assert_refused(err, "at most 64 dedicated hot spares");
    g_clear_error(&err);
    g_assert_false(raid_config_add_spare(cfg, 0, -1, &err));
    assert_refused(err, "only an unconfigured-good drive");
    g_clear_error(&err);
    g_assert_false(raid_config_add_spare(cfg, 201, 77, &err));
    assert_refused(err, "drive group 77 does not exist");
    g_clear_error(&err);
    raid_config_free(cfg);
}

static void test_replace(void)
{
    RaidConfig *cfg = new_cfg(8, GIB);
    GError *err = NULL;
    int v = make_vd(cfg, RAID_LEVEL_5, 0, 4, 0, &err);
    int v2 = make_vd(cfg, RAID_LEVEL_1, 4, 2, 0, &err);
    int dg = cfg->vds[v].dg;

    g_assert_true(raid_config_add_spare(cfg, 6, -1, &err));
    g_assert_true(raid_config_add_spare(cfg, 7, dg, &err));
    /* Dedicated spare first; the other group only gets the global one. */
    g_assert_cmpint(raid_config_pick_spare(cfg, dg), ==, 7);
    g_assert_cmpint(raid_config_pick_spare(cfg, cfg->vds[v2].dg), ==, 6);

    /* Only a failed member can be replaced. */
    g_assert_false(raid_config_replace_pd(cfg, 1, 7, &err));
    assert_refused(err, "only an offline or missing member");
    g_clear_error(&err);
    g_assert_true(raid_config_fail_pd(cfg, 1, &err));
    g_assert_false(raid_config_replace_pd(cfg, 1, 2, &err));
    assert_refused(err, "not unconfigured-good or hot-spare");
    g_clear_error(&err);
    /* A dedicated spare of another group is refused. */
    g_assert_true(raid_config_fail_pd(cfg, 4, &err));
    g_assert_false(raid_config_replace_pd(cfg, 4, 7, &err));
    assert_refused(err, "dedicated to drive group");
    g_clear_error(&err);

    g_assert_true(raid_config_replace_pd(cfg, 1, 7, &err));
    g_assert_cmpint(cfg->pds[7].state, ==, RAID_PD_REBUILD);
    g_assert_cmpint(cfg->pds[1].state, ==, RAID_PD_UNCONF_BAD);
    g_assert_cmpint(cfg->dgs[dg].span[0].pd[1], ==, 7);
    g_assert_cmpint(cfg->vds[v].state, ==, RAID_VD_DEGRADED);
    g_assert_cmpint(cfg->vds[v].job.kind, ==, RAID_JOB_REBUILD);
    g_assert_cmpuint(cfg->vds[v].job.target_ref, ==, cfg->pds[7].ref);
    g_assert_true(raid_config_rebuild_done(cfg, 7, &err));
    g_assert_cmpint(cfg->vds[v].state, ==, RAID_VD_OPTIMAL);
    g_assert_cmpint(cfg->vds[v].job.kind, ==, RAID_JOB_NONE);
    g_assert_no_error(err);
    raid_config_free(cfg);
}

static void test_sizes_and_delete(void)
{
    RaidConfig *cfg = new_cfg(4, GIB);
    GError *err = NULL;
    RaidVdSpec spec = { .level = RAID_LEVEL_5, .size = 1000 };
    int pds[4] = { 0, 1, 2, 3 };
    int v, v2;

    /* Reserve rule: 1/128 of the drive, at least 1 MiB, at most 512 MiB */
    g_assert_cmpuint(raid_reserve_sectors(GIB), ==, 8 * 2048);
    g_assert_cmpuint(raid_reserve_sectors(64 * 2048), ==, 2048);
    g_assert_cmpuint(raid_reserve_sectors(1024 * GIB), ==, 512 * 2048);
    g_assert_cmpuint(cfg->pds[0].usable, ==, GIB - 8 * 2048);

    v = raid_config_create_vd(cfg, pds, 4, &spec, &err);
    g_assert_no_error(err);
    /* Rounded up to whole rows: 3 data strips of 256 KiB per row. */
    g_assert_cmpuint(cfg->vds[v].size, ==, 3 * 512);
    g_assert_cmpuint(cfg->vds[v].blocks, ==, 512);
    spec.size = 0;
    v2 = raid_config_add_vd(cfg, cfg->vds[v].dg, &spec, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(cfg->vds[v2].start, ==, 512);
    g_assert_cmpuint(cfg->vds[v2].start + cfg->vds[v2].blocks, <=,
                     cfg->pds[0].usable);
    g_assert_cmpint(raid_config_add_vd(cfg, cfg->vds[v].dg, &spec, &err),
                    <, 0);
    assert_refused(err, "no free space");
    g_clear_error(&err);
    /* First fit: a VD deleted below another leaves a gap that is reused. */
    g_assert_true(raid_config_delete_vd(cfg, v2, &err));
    spec.size = 1000;
    v2 = raid_config_add_vd(cfg, cfg->vds[v].dg, &spec, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(cfg->vds[v2].start, ==, 512);
    spec.size = 3 * 512;
    g_assert_cmpint(raid_config_add_vd(cfg, cfg->vds[v].dg, &spec, &err),
                    ==, 2);
    g_assert_cmpuint(cfg->vds[2].start, ==, 1024);
    g_assert_true(raid_config_delete_vd(cfg, v, &err));
    spec.size = 2 * 3 * 512;        /* two rows: the one-row gap is too small */
    g_assert_cmpint(raid_config_add_vd(cfg, cfg->vds[v2].dg, &spec, &err),
                    ==, 0);
    g_assert_cmpuint(cfg->vds[0].start, ==, 1536);
    spec.size = 1000;               /* one row: fits the gap at 0 */
    g_assert_cmpint(raid_config_add_vd(cfg, cfg->vds[v2].dg, &spec, &err),
                    ==, 3);
    g_assert_cmpuint(cfg->vds[3].start, ==, 0);
    g_assert_true(raid_config_delete_vd(cfg, 3, &err));
    g_assert_true(raid_config_delete_vd(cfg, 2, &err));
    g_assert_true(raid_config_delete_vd(cfg, 0, &err));
    g_assert_true(raid_config_delete_vd(cfg, v2, &err));
    for (int i = 0; i < 4; i++) {
        g_assert_cmpint(cfg->pds[i].state, ==, RAID_PD_UNCONF_GOOD);
    }
    g_assert_false(raid_config_delete_vd(cfg, v, &err));
    assert_refused(err, "does not exist");
    g_clear_error(&err);
    raid_config_free(cfg);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/config/transitions", test_transitions);
    g_test_add_func("/config/vd-states", test_vd_states);
    g_test_add_func("/config/level-rules", test_level_rules);
    g_test_add_func("/config/limits", test_limits);
    g_test_add_func("/config/spare-limits", test_spare_limits);
    g_test_add_func("/config/replace", test_replace);
    g_test_add_func("/config/sizes-delete", test_sizes_and_delete);
    return g_test_run();
}
