/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of members that come back (issue 26).  A start
 * with drives left off the command line says, on stderr, which VD is not
 * optimal and which member is missing, and leaves the drives so that the
 * next start with every drive has the VD back as it was: optimal, the
 * hot spare unused, when nothing was written meanwhile; degraded and
 * rebuilding the returning member onto itself, with every byte written
 * while it was away, when something was.  A member pulled while running
 * and put back after a spare took its place is an unconfigured-good
 * drive in QOM, QMP, HMP and on its DDF (no phantom rebuild).  The
 * start's words reach a QMP client as MEGARAID_EVENT once the machine
 * runs; the host's QOM way back refuses what could lose data, saying why.
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "qobject/qstring.h"
#include "megaraid-rig.h"

#define SPARE5      4           /* the 5-drive rig: RAID 5 0-3, spare 4 */

/* The rig's drives but those in @absent, as QEMU arguments. */
static char *drive_args(Rig *r, unsigned absent)
{
    GString *s = g_string_new("-M q35 -nodefaults -device "
                              "megaraid-9600,id=raid0 ");

    for (int i = 0; i < r->n; i++) {
        if (absent & (1u << i)) {
            continue;
        }
        g_string_append_printf(s, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=nvme ", i, r->path[i], i, i, i);
    }
    return g_string_free(s, false);
}

/* A start without @absent, vCPU stopped, quit at once: its stderr. */
static char *start_without(Rig *r, unsigned absent)
{
    g_autofree char *args = drive_args(r, absent);
    char *err = NULL;

    g_assert_cmpint(h_run_qemu(args, &err), ==, 0);
    g_test_message("stderr: %s", err);
    return err;
}

static char *qom_str(QTestState *qts, const char *path, const char *prop)
{
    return qts_qom_get_str(qts, path, prop);
}

static void assert_state(QTestState *qts, int i, const char *want)
{
    g_autofree char *p = drive_path(i);
    g_autofree char *s = qom_str(qts, p, "state");

    g_assert_cmpstr(s, ==, want);
}

/*
 * Nothing written while they were away: a start without one member
 * (degraded), then without two (offline), each followed by a start with
 * every drive, which must show the VD optimal, every member online and
 * the spare still a spare.
 */
static void test_unwritten(void)
{
    static const unsigned absent[] = { 1u << 2, 1u << 1 | 1u << 2 };
    static const char *const said[] = {
        "VD 0 'qtest' (RAID5) is degraded at start: member 2 missing",
        "VD 0 'qtest' (RAID5) is offline at start: member 1 missing",
    };
    Rig r;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    for (size_t k = 0; k < G_N_ELEMENTS(absent); k++) {
        g_autofree char *err = start_without(&r, absent[k]);
        g_autofree char *args = drive_args(&r, 0);
        g_autofree char *st = NULL;
        QTestState *qts;

        g_assert_nonnull(strstr(err, said[k]));
        g_assert_nonnull(strstr(err, "member 2 missing: no drive in any "
                                "bay has DDF GUID"));
        qts = qtest_initf("%s%s", h_fw_args(), args);
        st = qom_str(qts, CTRL, "vd0-state");
        g_assert_cmpstr(st, ==, "optimal");
        for (int i = 0; i < 4; i++) {
            assert_state(qts, i, "online");
        }
        assert_state(qts, SPARE5, "hot-spare");
        qtest_quit(qts);
    }
    rig_destroy(&r);
}

/*
 * What a start with a member left off logs reaches a QMP client as
 * MEGARAID_EVENT: held while the machine is made (no client listens
 * yet), sent when it first runs (-S, then "cont").
 */
static void test_start_event(void)
{
    g_autofree char *args = NULL;
    QTestState *qts;
    QDict *ev, *data;
    bool seen = false;
    Rig r;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    args = drive_args(&r, 1u << 2);
    qts = qtest_initf("%s-S %s", h_fw_args(), args);
    /* (the events sent at "cont" come before its reply) */
    qobject_unref(qtest_qmp(qts, "{'execute': 'cont'}"));
    while (!seen && (ev = qtest_qmp_event_ref(qts, "MEGARAID_EVENT"))) {
        data = qdict_get_qdict(ev, "data");
        g_test_message("MEGARAID_EVENT %s: %s",
                       qdict_get_str(data, "severity"),
                       qdict_get_str(data, "text"));
        seen = !strcmp(qdict_get_str(data, "text"),
                       "VD 0 degraded at start: member 2 missing") &&
               !strcmp(qdict_get_str(data, "severity"), "warning");
        qobject_unref(ev);
    }
    g_assert_true(seen);
    qtest_quit(qts);
    rig_destroy(&r);
}

/* Wait up to @sec s for VD 0's job to end; true if it did. */
static bool wait_no_job(RaidHost *h, int sec)
{
    for (int i = 0; i < sec * 10; i++) {
        g_autofree char *job = qts_qom_get_str(h->qts, CTRL, "vd0-job");

        if (!strcmp(job, "none")) {
            return true;
        }
        rh_idle(h, 100);
    }
    return false;
}

/*
 * Written while a member was away: the next start with it rebuilds it
 * onto itself (not onto the spare), and it then holds what was written.
 */
static void test_written(void)
{
    Rig r;
    RaidHost *h;

    rig_create(&r, 4, 3, 1, RAID_LEVEL_5);     /* RAID 5 0-2, spare 3 */
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_write_extents(h, 20);
    rh_stop(&r);

    r.n = 2;                    /* member 2 and the spare left off */
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_assert_vd_state(h, "degraded");
    rh_write_extents(h, 40);
    rh_stop(&r);

    r.n = 4;
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_assert_drive_state(h, 3, "hot-spare");
    rh_assert_drive_state(h, 2, "rebuild");
    g_assert_true(wait_no_job(h, 120));
    rh_assert_vd_state(h, "optimal");
    rh_assert_drive_state(h, 2, "online");
    rh_assert_drive_state(h, 3, "hot-spare");
    /* member 2 must hold its part of what was written without it */
    rh_fail_drive(h, 0);
    rh_check_extents(h, 40);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * A member pulled while running, rebuilt onto the spare, put back: an
 * unconfigured-good drive everywhere, also after a restart.
 */
static void test_phantom(void)
{
    Rig r;
    RaidHost *h;
    g_autofree char *out = NULL;
    QDict *rsp, *c;
    QList *drives;

    rig_create(&r, 4, 3, 1, RAID_LEVEL_5);
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_write_extents(h, 60);
    qtest_qmp_device_del(h->qts, "hd2");
    rh_idle(h, 200);
    g_assert_true(wait_no_job(h, 120));
    rh_assert_drive_state(h, 3, "online");
    rh_assert_vd_state(h, "optimal");

    qts_plug_drive(h->qts, "back2", r.path[2], "hd2", 2, "nvme");
    rh_idle(h, 200);
    rh_assert_drive_state(h, 2, "unconfigured-good");
    out = qtest_hmp(h->qts, "info megaraid");
    g_test_message("%s", out);
    g_assert_true(g_regex_match_simple("\\n  2 +nvme +ssd "
                                       "+unconfigured-good ", out, 0, 0));
    g_assert_false(g_regex_match_simple("\\n  2 [^\\n]*rebuild", out, 0, 0));
    rsp = qtest_qmp(h->qts, "{'execute': 'query-megaraid'}");
    c = qobject_to(QDict, qlist_peek(qdict_get_qlist(rsp, "return")));
    drives = qdict_get_qlist(c, "drives");
    for (const QListEntry *e = qlist_first(drives); e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == 2) {
            g_assert_cmpstr(qdict_get_str(d, "state"), ==,
                            "unconfigured-good");
            g_assert_false(qdict_haskey(d, "rebuild-progress"));
            g_assert_false(qdict_haskey(d, "drive-group"));
        }
    }
    qobject_unref(rsp);
    rh_stop(&r);

    /* the DDF agrees */
    {
        RaidConfig *cfg = rig_load(&r);
        int pd = raid_config_find_pd_slot(cfg, 2);

        g_assert_cmpint(pd, >=, 0);
        g_assert_cmpint(cfg->pds[pd].state, ==, RAID_PD_UNCONF_GOOD);
        g_assert_cmpint(cfg->vds[0].state, ==, RAID_VD_OPTIMAL);
        raid_config_free(cfg);
    }
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_assert_drive_state(h, 2, "unconfigured-good");
    rh_assert_vd_state(h, "optimal");
    rh_check_extents(h, 60);
    rh_stop(&r);
    rig_destroy(&r);
}

/* qom-set @prop of @path to @val; its error's text, or NULL if it took. */
static char *qom_set_err(QTestState *qts, const char *path, const char *prop,
                         const char *val)
{
    QDict *rsp = qts_qom_set(qts, path, prop,
                            QOBJECT(qstring_from_str(val)));
    char *err = NULL;

    if (qdict_haskey(rsp, "error")) {
        err = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
        g_test_message("qom-set %s %s: %s", prop, val, err);
    }
    qobject_unref(rsp);
    return err;
}

/*
 * The host's QOM way back on a running controller: a failed member back
 * online only with force; an unconfigured-bad drive (a member a spare
 * replaced) good again; a job stop that says why when it refuses.
 */
static void test_qom(void)
{
    g_autofree char *args = NULL;
    g_autofree char *p0 = drive_path(0), *p2 = drive_path(2);
    QTestState *qts;
    Rig r;
    char *e;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    args = drive_args(&r, 0);
    qts = qtest_initf("%s%s", h_fw_args(), args);
    /* member 0 fails: the spare takes its place, drive 0 is bad */
    g_assert_null(qom_set_err(qts, p0, "state", "offline"));
    assert_state(qts, 0, "unconfigured-bad");
    e = qom_set_err(qts, p0, "state", "online-force");
    g_assert_nonnull(strstr(e, "not a failed (offline) array member"));
    g_free(e);
    g_assert_null(qom_set_err(qts, p0, "state", "unconfigured-good"));
    assert_state(qts, 0, "unconfigured-good");
    /* an online member cannot be "unconfigured-good": it says why */
    e = qom_set_err(qts, p2, "state", "unconfigured-good");
    g_assert_nonnull(strstr(e, "the drive in slot 2 is online, not a hot "
                            "spare or an unconfigured-bad drive"));
    g_free(e);
    /* the rebuild onto the spare cannot be stopped through vd0-job */
    e = qom_set_err(qts, CTRL, "vd0-job", "none");
    g_assert_true(!e || strstr(e, "set that drive's state offline") ||
                  strstr(e, "runs no job"));
    g_free(e);
    qtest_quit(qts);
    rig_destroy(&r);

    /* no spare this time: member 2 fails and stays offline */
    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    g_free(args);
    args = drive_args(&r, 0);
    qts = qtest_initf("%s%s", h_fw_args(), args);
    g_assert_null(qom_set_err(qts, p2, "state", "offline"));
    assert_state(qts, 2, "offline");
    e = qom_set_err(qts, p2, "state", "online");
    g_assert_nonnull(strstr(e, "'online-force' does it anyway"));
    g_free(e);
    assert_state(qts, 2, "offline");
    g_assert_null(qom_set_err(qts, p2, "state", "online-force"));
    assert_state(qts, 2, "online");
    e = qom_set_err(qts, CTRL, "vd0-job", "none");
    g_assert_nonnull(strstr(e, "VD 0 runs no job to stop"));
    g_free(e);
    qtest_quit(qts);
    rig_destroy(&r);
}

/*
 * A member pulled while running and rebuilt onto the spare is back at the
 * next start: an unconfigured-good drive (not bad, no phantom rebuild),
 * the VD optimal on the spare.
 */
static void test_replaced_at_start(void)
{
    Rig r;
    RaidHost *h;

    rig_create(&r, 4, 3, 1, RAID_LEVEL_5);
    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_write_extents(h, 80);
    qtest_qmp_device_del(h->qts, "hd2");
    rh_idle(h, 200);
    g_assert_true(wait_no_job(h, 120));
    rh_stop(&r);

    h = rh_start(&mpi3_host_ops, &r, NULL);
    rh_assert_drive_state(h, 2, "unconfigured-good");
    rh_assert_drive_state(h, 3, "online");
    rh_assert_vd_state(h, "optimal");
    rh_check_extents(h, 80);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * A member left off at start and device_add'ed while running: online at
 * once when nothing was written meanwhile; rebuilt onto itself, and then
 * holding what was written, when something was.
 */
static void test_hotplug_back(void)
{
    for (int written = 0; written < 2; written++) {
        Rig r;
        RaidHost *h;

        rig_create(&r, 3, 3, 0, RAID_LEVEL_5);
        h = rh_start(&mpi3_host_ops, &r, NULL);
        rh_write_extents(h, 100);
        rh_stop(&r);

        r.n = 2;                /* member 2 left off */
        h = rh_start(&mpi3_host_ops, &r, NULL);
        rh_assert_vd_state(h, "degraded");
        if (written) {
            rh_write_extents(h, 120);
        }
        qts_plug_drive(h->qts, "back2", r.path[2], "hd2", 2, "nvme");
        r.n = 3;
        rh_idle(h, 200);
        if (written) {
            rh_assert_drive_state(h, 2, "rebuild");
            g_assert_true(wait_no_job(h, 120));
        }
        rh_assert_drive_state(h, 2, "online");
        rh_assert_vd_state(h, "optimal");
        rh_fail_drive(h, 0);
        rh_check_extents(h, written ? 120 : 100);
        rh_stop(&r);
        rig_destroy(&r);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!qtest_has_device("megaraid-9600")) {
        g_test_message("megaraid-9600 not built");
        return g_test_run();
    }
    qtest_add_func("/megaraid-return/unwritten", test_unwritten);
    qtest_add_func("/megaraid-return/written", test_written);
    qtest_add_func("/megaraid-return/phantom", test_phantom);
    qtest_add_func("/megaraid-return/replaced-at-start",
                   test_replaced_at_start);
    qtest_add_func("/megaraid-return/hotplug-back", test_hotplug_back);
    qtest_add_func("/megaraid-return/qom", test_qom);
    qtest_add_func("/megaraid-return/start-event", test_start_event);
    return g_test_run();
}
