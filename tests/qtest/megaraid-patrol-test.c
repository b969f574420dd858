/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: patrol read (hw/megaraid/jobs/patrol.c) through the
 * controller's QOM properties, on both controllers: a medium error on a
 * RAID 5 member is repaired from parity before a host read meets it (the
 * event names the LBA, the bad range is gone, the data reads back); on
 * RAID 0 it is logged and left; progress rises, stop works, bad requests
 * are refused.
 */
#include "qemu/osdep.h"
#include "megaraid-rig.h"
#include "megaraid-fusion-rig.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"

#define BAD_LBA 3850
#define BAD_RANGE "3850+8"
#define BAD_ROW (BAD_LBA / STRIP_SECTORS)

static void qdict_free_fn(gpointer d)
{
    qobject_unref((QDict *)d);
}

/* The MEGARAID_EVENT @name with @key = @val whose text has @needle. */
static bool patrol_event(QTestState *qts, GPtrArray *seen, const char *name,
                         const char *key, int64_t val, const char *needle)
{
    QDict *ev;

    qobject_unref(qtest_qmp(qts, "{'execute': 'query-status'}"));
    while ((ev = qtest_qmp_event_ref(qts, "MEGARAID_EVENT"))) {
        QDict *data = qdict_get_qdict(ev, "data");

        g_test_message("event %s: %s", qdict_get_str(data, "name"),
                       qdict_get_str(data, "text"));
        g_ptr_array_add(seen, qobject_ref(data));
        qobject_unref(ev);
    }
    for (guint i = 0; i < seen->len; i++) {
        QDict *d = g_ptr_array_index(seen, i);

        if (!strcmp(qdict_get_str(d, "name"), name) &&
            (!key || (qdict_haskey(d, key) &&
                      qdict_get_int(d, key) == val)) &&
            (!needle || strstr(qdict_get_str(d, "text"), needle))) {
            return true;
        }
    }
    return false;
}

static char *patrol_status(RaidHost *h)
{
    char *s = qts_qom_get_str(h->qts, CTRL, "patrol-status");

    g_test_message("patrol-status: %s", s);
    return s;
}

/* Wait up to @sec for the pass to end; returns the last status. */
static char *patrol_wait_stopped(RaidHost *h, int sec)
{
    for (int i = 0; i < sec * 10; i++) {
        g_autofree char *st = qts_qom_get_str(h->qts, CTRL, "patrol-read");

        if (!strcmp(st, "stopped")) {
            return patrol_status(h);
        }
        rh_idle(h, 100);
    }
    g_assert_not_reached();
}

/* query-megaraid's patrol and HMP info megaraid's line */
static void assert_query_patrol(RaidHost *h, const char *mode,
                                int iterations, int corrected)
{
    QDict *rsp = qtest_qmp(h->qts, "{'execute': 'query-megaraid'}");
    QList *l = qdict_get_qlist(rsp, "return");
    QDict *c = qobject_to(QDict, qlist_peek(l));
    QDict *p = qdict_get_qdict(c, "patrol");
    g_autofree char *hmp = qtest_hmp(h->qts, "info megaraid");
    g_autofree char *want = g_strdup_printf("patrol read %s, stopped", mode);

    g_assert_nonnull(p);
    g_assert_cmpstr(qdict_get_str(p, "mode"), ==, mode);
    g_assert_false(qdict_get_bool(p, "running"));
    g_assert_cmpint(qdict_get_int(p, "iterations"), ==, iterations);
    g_assert_cmpint(qdict_get_int(p, "corrected"), ==, corrected);
    g_assert_cmpint(qdict_get_int(p, "percent"), ==, 100);
    g_assert_false(qdict_haskey(p, "drive"));
    qobject_unref(rsp);
    g_assert_nonnull(strstr(hmp, want));
}

static void set_fails(RaidHost *h, const char *prop, QObject *val)
{
    QDict *rsp = qts_qom_set(h->qts, CTRL, prop, val);

    g_assert_true(qdict_haskey(rsp, "error"));
    g_test_message("refused: %s", qdict_get_str(qdict_get_qdict(rsp,
                                                   "error"), "desc"));
    qobject_unref(rsp);
}

static void test_repair(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    g_autofree char *p2 = drive_path(2);
    g_autofree char *bad = NULL;
    g_autofree char *left = NULL;
    g_autofree char *st = NULL;
    g_autofree char *lba = g_strdup_printf("lba %d ", BAD_LBA);
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(
        qdict_free_fn);
    Rig r;
    RaidHost *h;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 30);
    /* the row of the bad blocks (3 strips a row), beside the extents */
    rh_vd_write(h, BAD_ROW * 3 * STRIP_SECTORS, 3 * STRIP_SECTORS, 50, false);
    qts_qom_set_str(h->qts, p2, "media-error", BAD_RANGE);
    bad = qts_qom_get_str(h->qts, p2, "media-error");
    g_assert_cmpstr(bad, ==, BAD_RANGE);
    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 100);
    qts_qom_set_str(h->qts, CTRL, "patrol-read", "start");
    st = patrol_wait_stopped(h, 60);
    g_assert_nonnull(strstr(st, "iterations=1 "));
    g_assert_nonnull(strstr(st, "percent=100 "));
    g_assert_nonnull(strstr(st, "corrected=1 uncorrectable=0"));
    g_assert_true(patrol_event(h->qts, seen, "patrol-started", NULL, 0,
                               NULL));
    g_assert_true(patrol_event(h->qts, seen, "pd-medium-repaired", "slot", 2,
                               lba));
    g_assert_true(patrol_event(h->qts, seen, "patrol-done", NULL, 0, NULL));
    assert_query_patrol(h, "manual", 1, 1);
    /* the range was rewritten: the drive reads there again */
    left = qts_qom_get_str(h->qts, p2, "media-error");
    g_assert_cmpstr(left, ==, "");
    rh_assert_drive_state(h, 2, "online");
    rh_assert_vd_state(h, "optimal");
    /* the data, parity and the repaired strip agree with what was written */
    rh_check_extents(h, 30);
    rh_vd_check(h, BAD_ROW * 3 * STRIP_SECTORS, 3 * STRIP_SECTORS, 50, false);
    rh_fail_drive(h, 0);
    rh_check_extents(h, 30);
    rh_vd_check(h, BAD_ROW * 3 * STRIP_SECTORS, 3 * STRIP_SECTORS, 50, false);
    rh_stop(&r);
    rig_destroy(&r);
}

static void test_no_redundancy(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    g_autofree char *p1 = drive_path(1);
    g_autofree char *left = NULL;
    g_autofree char *st = NULL;
    g_autofree char *lba = g_strdup_printf("lba %d ", BAD_LBA);
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(
        qdict_free_fn);
    Rig r;
    RaidHost *h;

    rig_create(&r, 2, 2, 0, RAID_LEVEL_0);
    h = rh_start(ops, &r, NULL);
    qts_qom_set_str(h->qts, p1, "media-error", BAD_RANGE);
    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 100);
    qts_qom_set_str(h->qts, CTRL, "patrol-read", "start");
    st = patrol_wait_stopped(h, 60);
    g_assert_nonnull(strstr(st, "corrected=0 uncorrectable=1"));
    g_assert_true(patrol_event(h->qts, seen, "pd-medium-error", "slot", 1,
                               lba));
    g_assert_false(patrol_event(h->qts, seen, "pd-medium-repaired", NULL, 0,
                                NULL));
    left = qts_qom_get_str(h->qts, p1, "media-error");
    g_assert_cmpstr(left, ==, BAD_RANGE);
    rh_assert_drive_state(h, 1, "online");
    rh_stop(&r);
    rig_destroy(&r);
}

static void test_progress_stop(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(
        qdict_free_fn);
    g_autofree char *st = NULL;
    g_autofree char *st2 = NULL;
    unsigned pct1 = 0, pct2 = 0;
    Rig r;
    RaidHost *h;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    /* bad requests */
    set_fails(h, "patrol-read", QOBJECT(qstring_from_str("go")));
    set_fails(h, "patrol-rate", QOBJECT(qnum_from_int(0)));
    set_fails(h, "patrol-rate", QOBJECT(qnum_from_int(101)));
    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 1);
    qts_qom_set_str(h->qts, CTRL, "patrol-read", "start");
    set_fails(h, "patrol-read", QOBJECT(qstring_from_str("start")));
    rh_idle(h, 600);
    st = patrol_status(h);
    g_assert_nonnull(strstr(st, "state=running"));
    g_assert_cmpint(sscanf(strstr(st, "percent="), "percent=%u", &pct1),
                    ==, 1);
    rh_idle(h, 1200);
    st2 = patrol_status(h);
    g_assert_cmpint(sscanf(strstr(st2, "percent="), "percent=%u", &pct2),
                    ==, 1);
    g_assert_cmpuint(pct2, >, pct1);
    g_assert_cmpuint(pct2, <, 100);
    g_assert_null(strstr(st2, "drive=-1 "));
    /* the stop returns at once; the pass ends at its window */
    qts_qom_set_str(h->qts, CTRL, "patrol-read", "stop");
    g_free(st);
    st = qts_qom_get_str(h->qts, CTRL, "patrol-read");
    g_assert_true(!strcmp(st, "stopping") || !strcmp(st, "stopped"));
    g_free(st2);
    st2 = patrol_wait_stopped(h, 10);
    g_assert_nonnull(strstr(st2, "iterations=0 "));
    g_assert_true(patrol_event(h->qts, seen, "patrol-stopped", NULL, 0,
                               NULL));
    g_assert_false(patrol_event(h->qts, seen, "patrol-done", NULL, 0, NULL));
    rh_stop(&r);
    rig_destroy(&r);
}

/* megaraid-9500: the PR_* DCMDs as mfiutil and storcli send them */
#define PR_GET_STATUS       0x01070100
#define PR_GET_PROPERTIES   0x01070200
#define PR_SET_PROPERTIES   0x01070300
#define PR_START            0x01070400
#define PR_STOP             0x01070500

static uint8_t pr_state(FU *m, uint32_t *iterations)
{
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_GET_STATUS, 0, m->buf, 16), ==,
                    0);
    *iterations = qtest_readl(m->qts, m->buf);
    return qtest_readb(m->qts, m->buf + 4);
}

/* A RAID 5 of four drives on the 9500, as *@h; returns its host layer. */
static FU *pr_start(const RaidHostOps *ops, Rig *r, RaidHost **h)
{
    rig_create(r, 4, 4, 0, RAID_LEVEL_5);
    *h = rh_start(ops, r, NULL);
    return (*h)->priv;
}

static void test_9500_dcmds(const void *opaque)
{
    uint8_t props[208];
    uint32_t it;
    Rig r;
    RaidHost *h;
    FU *m = pr_start(opaque, &r, &h);

    g_assert_cmpuint(pr_state(m, &it), ==, 0);          /* stopped */
    g_assert_cmpuint(it, ==, 0);
    qtest_memset(m->qts, m->buf, 0xAA, sizeof(props));
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_GET_PROPERTIES, 0, m->buf,
                         sizeof(props)), ==, 0);
    qtest_memread(m->qts, m->buf, props, sizeof(props));
    g_assert_cmpuint(props[0], ==, 1);                  /* manual */
    g_assert_cmpuint(props[1], ==, 1);                  /* max_pd */
    g_assert_cmpuint(props[3], ==, 0);                  /* no LD excluded */
    g_assert_cmpuint(ldl_le_p(props + 200), ==, 168 * 3600);
    /* off: a start is refused; a bad mode is refused */
    props[0] = 2;
    qtest_memwrite(m->qts, m->buf, props, sizeof(props));
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_SET_PROPERTIES, 0, m->buf,
                         sizeof(props)), ==, 0);
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_START, 0, 0, 0), ==, 0x32);
    props[0] = 7;
    qtest_memwrite(m->qts, m->buf, props, sizeof(props));
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_SET_PROPERTIES, 0, m->buf,
                         sizeof(props)), ==, 0x03);
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_SET_PROPERTIES, 0, m->buf, 16),
                    ==, 0x03);                          /* short */
    props[0] = 1;
    qtest_memwrite(m->qts, m->buf, props, sizeof(props));
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_SET_PROPERTIES, 0, m->buf,
                         sizeof(props)), ==, 0);
    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 1);
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_START, 0, 0, 0), ==, 0);
    g_assert_cmpuint(pr_state(m, &it), ==, 2);          /* active */
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_START, 0, 0, 0), ==, 0x32);
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_STOP, 0, 0, 0), ==, 0);
    g_assert_cmpuint(pr_state(m, &it), ==, 0);
    g_assert_cmpuint(it, ==, 0);
    /* a full pass counts an iteration */
    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 100);
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_START, 0, 0, 0), ==, 0);
    for (int i = 0; i < 600 && pr_state(m, &it) != 0; i++) {
        rh_idle(h, 100);
    }
    g_assert_cmpuint(pr_state(m, &it), ==, 0);
    g_assert_cmpuint(it, ==, 1);
    g_assert_cmpuint(qtest_readb(m->qts, m->buf + 5), ==, 4);  /* drives */
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * A pass that cannot end its window (every drive's reads throttled to
 * one a second of the virtual clock, which nothing moves) and a PR_STOP
 * posted at SMID 64 with its frame at @mfi: the stop is held (no reply,
 * the frame's status untouched) while the main loop answers QMP within
 * 50 ms and other DCMDs, and the pass reads "stopping".
 */
static void pr_stop_held(RaidHost *h, FU *m, uint64_t mfi)
{
    uint16_t smid;
    uint32_t it;

    qts_qom_set_int(h->qts, CTRL, "patrol-rate", 100);
    for (int i = 0; i < 4; i++) {
        g_autofree char *id = g_strdup_printf("hd%d", i);

        qts_throttle_reads(h->qts, id, 1);
    }
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, PR_START, 0, 0, 0), ==, 0);
    rh_idle(h, 300);
    dcmd_post(m, 64, mfi, PR_STOP, 0, 0, 0, 0);
    for (int i = 0; i < 5; i++) {
        int64_t t0 = g_get_monotonic_time();
        QDict *rsp = qtest_qmp(h->qts, "{'execute': 'query-megaraid'}");
        g_autofree char *st = NULL;

        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);
        g_assert_cmpint(g_get_monotonic_time() - t0, <, 50 * 1000);
        g_assert_false(reply_wait(m, 0, 50, &smid));
        g_assert_cmphex(rd8(m, mfi + 2), ==, 0xFF);
        /* other DCMDs are answered: the pass still runs */
        g_assert_cmpuint(pr_state(m, &it), ==, 2);
        st = qts_qom_get_str(h->qts, CTRL, "patrol-read");
        g_assert_cmpstr(st, ==, "stopping");
    }
}

/* The pass's reads free again. */
static void pr_unthrottle(RaidHost *h)
{
    for (int i = 0; i < 4; i++) {
        g_autofree char *id = g_strdup_printf("hd%d", i);

        qts_throttle_reads(h->qts, id, 0);
    }
}

/*
 * PR_STOP completes once the pass has ended, not before.  With @reset, a
 * doorbell abort and a new IOC INIT while it is held: the pass still
 * ends, but the stop's completion belongs to the session that is gone
 * and is dropped: no reply for it, its frame untouched.
 */
static void pr_stop_case(const RaidHostOps *ops, bool reset)
{
    uint16_t smid;
    uint32_t it;
    Rig r;
    RaidHost *h;
    FU *m = pr_start(ops, &r, &h);
    uint64_t mfi = alloc(m, 256);

    pr_stop_held(h, m, mfi);
    if (reset) {
        wr(m, R_DOORBELL, 0x07);
        g_assert_cmphex(rd(m, R_SP0) >> 28, ==, 0xB);   /* READY */
        ioc_init(m);
    }
    pr_unthrottle(h);
    if (!reset) {
        g_assert_cmpuint(reply(m, 0), ==, 64);
        g_assert_cmphex(rd8(m, mfi + 2), ==, 0);
    }
    for (int i = 0; i < 100 && pr_state(m, &it) != 0; i++) {
        rh_idle(h, 50);
    }
    g_assert_cmpuint(pr_state(m, &it), ==, 0);          /* stopped */
    g_assert_cmpuint(it, ==, 0);
    if (reset) {
        rh_idle(h, 200);
        g_assert_false(reply_wait(m, 0, 100, &smid));
        g_assert_cmphex(rd8(m, mfi + 2), ==, 0xFF);
    }
    rh_stop(&r);
    rig_destroy(&r);
}

static void test_9500_stop_held(const void *opaque)
{
    pr_stop_case(opaque, false);
}

static void test_9500_stop_reset(const void *opaque)
{
    pr_stop_case(opaque, true);
}

static const struct {
    const char *name;
    GTestDataFunc fn;
} tests[] = {
    { "repair", test_repair },
    { "no-redundancy", test_no_redundancy },
    { "progress-stop", test_progress_stop },
};

static void add_tests(const RaidHostOps *ops)
{
    if (!qtest_has_device(ops->device)) {
        g_test_message("%s not built", ops->device);
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
        g_autofree char *path = g_strdup_printf("/megaraid-patrol/%s/%s",
                                                ops->name, tests[i].name);

        qtest_add_data_func(path, ops, tests[i].fn);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_tests(&mpi3_host_ops);
    add_tests(&fusion_host_ops);
    if (qtest_has_device(fusion_host_ops.device)) {
        qtest_add_data_func("/megaraid-patrol/9500/dcmds", &fusion_host_ops,
                            test_9500_dcmds);
        qtest_add_data_func("/megaraid-patrol/9500/stop-held",
                            &fusion_host_ops, test_9500_stop_held);
        qtest_add_data_func("/megaraid-patrol/9500/stop-reset",
                            &fusion_host_ops, test_9500_stop_reset);
    }
    return g_test_run();
}
