/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the host's QMP and HMP view of a controller:
 * query-megaraid on an imported RAID 5 with a hot spare and a JBOD drive,
 * the query and the MEGARAID_EVENT events of a member failure and of the
 * rebuild onto the spare, HMP "info megaraid", a machine without a
 * controller, and docs/examples/libvirt-demo.xml.  No guest driver: the
 * controller imports its array at machine start.
 */
#include "qemu/osdep.h"
#include <signal.h>
#include "libqtest.h"
#include "qemu/bswap.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"
#include "hw/megaraid/evlog.h"

#define NDRIVES         5       /* 0-2 RAID 5, 3 global spare, 4 blank */
#define NMEMBERS        3
#define SPARE           3
#define JBOD            4
#define DRIVE_BYTES     (64 * 1024 * 1024)

/* The DDF rig layer writes the arrays (as megaraid-img does). */
#include "megaraid-rig.h"

typedef struct QmpRig {
    char *path[NDRIVES];
    uint64_t vd_bytes;
    QTestState *qts;
} QmpRig;

/*
 * Write a RAID 5 onto the images @path (created, DRIVE_BYTES each): the
 * first @nmem are its members, the next @nspare global hot spares, the
 * rest stay blank.  Returns the VD's size in bytes.
 */
static uint64_t write_array(char **path, int n, int nmem, int nspare,
                            const char *name, uint8_t cache)
{
    RigLayout l = {
        .n = n, .nmem = nmem, .nspare = nspare,
        .spec = {
            .level = RAID_LEVEL_5,
            .name = name,
            .cache = RAID_CACHE_READ_ALLOWED | cache,
        },
    };

    return rig_write_ddf(path, &l, NULL) * 512;
}

static void qmp_rig_create(QmpRig *r)
{
    memset(r, 0, sizeof(*r));
    rig_tmp_paths(r->path, NDRIVES, "megaraid-qmp-test");
    r->vd_bytes = write_array(r->path, NDRIVES, NMEMBERS, 1, "qmp-r5",
                              RAID_CACHE_READ_AHEAD);
}

/* Start QEMU with drive i in slot i, but none in the slots of @absent. */
static void qmp_rig_start_without(QmpRig *r, unsigned absent)
{
    g_autoptr(GString) cmd = g_string_new("");

    for (int i = 0; i < NDRIVES; i++) {
        if (absent & (1u << i)) {
            continue;
        }
        g_string_append_printf(cmd, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=%s ", i, r->path[i], i, i, i,
                               i == JBOD ? "sas" : "nvme");
    }
    r->qts = qtest_initf("%s-machine q35 -nodefaults "
                         "-device megaraid-9600,id=raid0,addr=04.0 %s",
                         h_fw_args(), cmd->str);
}

static void qmp_rig_start(QmpRig *r)
{
    qmp_rig_start_without(r, 0);
}

static void qmp_rig_destroy(QmpRig *r)
{
    if (r->qts) {
        qtest_quit(r->qts);
    }
    for (int i = 0; i < NDRIVES; i++) {
        unlink(r->path[i]);
        g_free(r->path[i]);
    }
}

/* ------------------------------------------------------------ helpers */

/* query-megaraid; returns the list (owned by the caller's @rsp). */
static QList *query(QTestState *qts, QDict **rsp)
{
    *rsp = qtest_qmp(qts, "{'execute': 'query-megaraid'}");
    g_assert_true(qdict_haskey(*rsp, "return"));
    return qdict_get_qlist(*rsp, "return");
}

static QDict *list_nth(QList *l, int n)
{
    const QListEntry *e = qlist_first(l);

    while (e && n--) {
        e = qlist_next(e);
    }
    g_assert_nonnull(e);
    return qobject_to(QDict, qlist_entry_obj(e));
}

/* The entry of @l whose integer member @key is @val. */
static QDict *find_by(QList *l, const char *key, int64_t val)
{
    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, key) == val) {
            return d;
        }
    }
    g_test_message("no entry with %s %" PRId64, key, val);
    g_assert_not_reached();
}

/* "[a, b, c]" of an integer list. */
static char *int_list(QList *l)
{
    GString *s = g_string_new("[");

    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        g_string_append_printf(s, "%s%" PRId64, s->len > 1 ? ", " : "",
                               qnum_get_int(qobject_to(QNum,
                                                       qlist_entry_obj(e))));
    }
    g_string_append_c(s, ']');
    return g_string_free(s, false);
}

static void assert_ints(QDict *d, const char *key, const char *want)
{
    g_autofree char *s = int_list(qdict_get_qlist(d, key));

    g_assert_cmpstr(s, ==, want);
}

static char *hmp(QTestState *qts, const char *cmd)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'human-monitor-command', "
                           "'arguments': {'command-line': %s}}", cmd);
    char *out;

    g_assert_true(qdict_haskey(rsp, "return"));
    out = g_strdup(qdict_get_str(rsp, "return"));
    qobject_unref(rsp);
    return out;
}

/* ---------------------------------------------------------------- tests */

/* Everything the import built, as one query shows it. */
static void test_query(void)
{
    QmpRig r;
    QDict *rsp, *c, *d, *g, *v;
    QList *l, *drives;

    qmp_rig_create(&r);
    qmp_rig_start(&r);
    l = query(r.qts, &rsp);
    g_assert_cmpint(qlist_size(l), ==, 1);
    c = list_nth(l, 0);
    g_assert_cmpstr(qdict_get_str(c, "qom-path"), ==, CTRL);
    g_assert_cmpstr(qdict_get_str(c, "id"), ==, "raid0");
    g_assert_nonnull(strstr(qdict_get_str(c, "model"), "9670W-16i"));
    g_assert_cmpstr(qdict_get_str(c, "serial"), ==, "MRSIM00000000001");
    g_assert_cmpstr(qdict_get_str(c, "firmware"), ==, "8.9.1.0-18");
    g_assert_cmpstr(qdict_get_str(c, "cachevault"), ==, "optimal");
    g_assert_cmpint(qdict_get_int(c, "cache-size"), >, 0);
    g_assert_cmpint(qdict_get_int(c, "cache-dirty"), ==, 0);
    g_assert_cmpint(qdict_get_int(c, "rebuild-rate"), ==, 30);
    g_assert_false(qdict_get_bool(c, "foreign"));
    g_assert_false(qdict_haskey(c, "journal"));

    drives = qdict_get_qlist(c, "drives");
    g_assert_cmpint(qlist_size(drives), ==, NDRIVES);
    for (int i = 0; i < NDRIVES; i++) {
        g_assert_cmpint(qdict_get_int(list_nth(drives, i), "slot"), ==, i);
    }
    for (int i = 0; i < NMEMBERS; i++) {
        g_autofree char *path = g_strdup_printf("/machine/peripheral/hd%d", i);

        d = find_by(drives, "slot", i);
        g_assert_true(qdict_get_bool(d, "present"));
        g_assert_cmpstr(qdict_get_str(d, "qom-path"), ==, path);
        g_assert_cmpstr(qdict_get_str(d, "interface"), ==, "nvme");
        g_assert_cmpstr(qdict_get_str(d, "state"), ==, "online");
        g_assert_cmpint(qdict_get_int(d, "size"), ==, DRIVE_BYTES);
        g_assert_cmpint(qdict_get_int(d, "drive-group"), ==, 0);
        assert_ints(d, "vds", "[0]");
        g_assert_false(qdict_haskey(d, "spare-for"));
        g_assert_nonnull(qdict_get_try_str(d, "serial"));
        g_assert_nonnull(qdict_get_try_str(d, "model"));
    }
    d = find_by(drives, "slot", SPARE);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "hot-spare");
    g_assert_cmpint(qdict_get_int(d, "spare-for"), ==, -1);
    g_assert_false(qdict_haskey(d, "drive-group"));
    d = find_by(drives, "slot", JBOD);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "unconfigured-good");
    g_assert_cmpstr(qdict_get_str(d, "interface"), ==, "sas");
    assert_ints(d, "vds", "[]");

    l = qdict_get_qlist(c, "drive-groups");
    g_assert_cmpint(qlist_size(l), ==, 1);
    g = list_nth(l, 0);
    g_assert_cmpint(qdict_get_int(g, "index"), ==, 0);
    assert_ints(g, "vds", "[0]");
    g_assert_cmpint(qlist_size(qdict_get_qlist(g, "spans")), ==, 1);
    assert_ints(list_nth(qdict_get_qlist(g, "spans"), 0), "slots",
                "[0, 1, 2]");

    l = qdict_get_qlist(c, "vds");
    g_assert_cmpint(qlist_size(l), ==, 1);
    v = list_nth(l, 0);
    g_assert_cmpint(qdict_get_int(v, "index"), ==, 0);
    g_assert_cmpstr(qdict_get_str(v, "name"), ==, "qmp-r5");
    g_assert_cmpstr(qdict_get_str(v, "level"), ==, "raid5");
    g_assert_cmpint(qdict_get_int(v, "size"), ==, r.vd_bytes);
    g_assert_cmpint(qdict_get_int(v, "strip"), ==, STRIP_SECTORS * 512);
    g_assert_cmpint(qdict_get_int(v, "drive-group"), ==, 0);
    g_assert_cmpint(qdict_get_int(v, "spans"), ==, 1);
    assert_ints(v, "members", "[0, 1, 2]");
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "optimal");
    g_assert_cmpstr(qdict_get_str(v, "cache-policy"), ==, "write-through");
    g_assert_cmpstr(qdict_get_str(v, "write-policy"), ==, "write-through");
    g_assert_true(qdict_get_bool(v, "read-ahead"));
    qobject_unref(rsp);

    /* A controller property change shows in the next query. */
    qts_qom_set_str(r.qts, CTRL, "cachevault", "failed");
    l = query(r.qts, &rsp);
    g_assert_cmpstr(qdict_get_str(list_nth(l, 0), "cachevault"), ==,
                    "failed");
    qobject_unref(rsp);
    qmp_rig_destroy(&r);
}

/*
 * MEGARAID_EVENTs in arrival order: every event received so far is moved
 * from libqtest's queue into @evs, each checked (controller, increasing
 * sequence numbers, a time near now, slot/vd by class).
 */
typedef struct Events {
    GPtrArray *evs;             /* QDict "data" of each event */
    int64_t last_seq;
} Events;

static void qdict_free_fn(gpointer d)
{
    qobject_unref((QDict *)d);
}

static void events_pull(QTestState *qts, Events *e)
{
    QDict *ev;

    qobject_unref(qtest_qmp(qts, "{'execute': 'query-status'}"));
    while ((ev = qtest_qmp_event_ref(qts, "MEGARAID_EVENT"))) {
        QDict *data = qdict_get_qdict(ev, "data");
        const char *cls = qdict_get_str(data, "class");
        int64_t now_ms = g_get_real_time() / 1000;

        g_test_message("MEGARAID_EVENT seq %" PRId64 " %s (%s, %s): %s",
                       qdict_get_int(data, "seq"),
                       qdict_get_str(data, "name"), cls,
                       qdict_get_str(data, "severity"),
                       qdict_get_str(data, "text"));
        g_assert_cmpstr(qdict_get_str(data, "qom-path"), ==, CTRL);
        g_assert_cmpint(qdict_get_int(data, "seq"), >, e->last_seq);
        e->last_seq = qdict_get_int(data, "seq");
        g_assert_cmpint(llabs(qdict_get_int(data, "time") - now_ms), <,
                        600 * 1000);
        g_assert_cmpint(qdict_haskey(data, "slot"), ==,
                        !strcmp(cls, "drive"));
        g_assert_cmpint(qdict_haskey(data, "vd"), ==,
                        !strcmp(cls, "vd") || !strcmp(cls, "job"));
        g_ptr_array_add(e->evs, qobject_ref(data));
        qobject_unref(ev);
    }
}

/* Index in @e of the first event @name about @key = @val after @from. */
static int events_find(Events *e, int from, const char *name,
                       const char *key, int64_t val)
{
    for (guint i = from; i < e->evs->len; i++) {
        QDict *d = e->evs->pdata[i];

        if (!strcmp(qdict_get_str(d, "name"), name) &&
            (!key || (qdict_haskey(d, key) &&
                      qdict_get_int(d, key) == val))) {
            return i;
        }
    }
    return -1;
}

/* Wait up to @sec seconds for that event; its index in @e. */
static int events_wait(QTestState *qts, Events *e, int from,
                       const char *name, const char *key, int64_t val,
                       int sec)
{
    for (int i = 0; i < sec * 20; i++) {
        int at;

        events_pull(qts, e);
        at = events_find(e, from, name, key, val);
        if (at >= 0) {
            return at;
        }
        g_usleep(50 * 1000);
    }
    g_test_message("no MEGARAID_EVENT %s %s %" PRId64 " in %d s", name,
                   key ? key : "", val, sec);
    g_assert_not_reached();
}

/* The first controller's VD 0 and the drive in @slot, from one query. */
static QDict *query_vd0(QTestState *qts, QDict **rsp, QDict **drive,
                        int slot)
{
    QDict *c = list_nth(query(qts, rsp), 0);

    *drive = find_by(qdict_get_qlist(c, "drives"), "slot", slot);
    return list_nth(qdict_get_qlist(c, "vds"), 0);
}

/*
 * A member fails: the query shows the VD degraded with a rebuild onto the
 * spare and its progress; once the rebuild is done, optimal and no job.
 */
static void test_fail(void)
{
    QmpRig r;
    QDict *rsp, *v, *d, *j;
    int64_t pct = -1;
    Events ev = { .evs = g_ptr_array_new_with_free_func(qdict_free_fn) };
    int failed, at;

    qmp_rig_create(&r);
    qmp_rig_start(&r);
    /* slowly, so that the query sees the rebuild running */
    qts_qom_set_int(r.qts, CTRL, "rebuild-rate", 1);
    qts_qom_set_str(r.qts, "/machine/peripheral/hd1", "state", "offline");

    /*
     * events: the failure, the VD's new state, the spare's, the rebuild's
     * start and its first tenth
     */
    failed = events_wait(r.qts, &ev, 0, "pd-failed", "slot", 1, 10);
    g_assert_cmpstr(qdict_get_str(ev.evs->pdata[failed], "class"), ==,
                    "drive");
    g_assert_cmpstr(qdict_get_str(ev.evs->pdata[failed], "severity"), ==,
                    "critical");
    g_assert_cmpint(qdict_get_int(ev.evs->pdata[failed], "code"), ==,
                    MR_EV_PD_FAILED);
    events_wait(r.qts, &ev, failed, "vd-state", "vd", 0, 10);
    events_wait(r.qts, &ev, failed, "pd-state", "slot", SPARE, 10);
    at = events_wait(r.qts, &ev, failed, "job-started", "vd", 0, 10);
    g_assert_cmpint(qdict_get_int(ev.evs->pdata[at], "code"), ==,
                    MR_EV_JOB_STARTED);
    at = events_wait(r.qts, &ev, at, "job-progress", "vd", 0, 60);
    g_assert_cmpstr(qdict_get_str(ev.evs->pdata[at], "class"), ==, "job");

    v = query_vd0(r.qts, &rsp, &d, 1);
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "degraded");
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "unconfigured-bad");
    g_assert_false(qdict_haskey(d, "drive-group"));
    /* the spare took slot 1's place among the members */
    assert_ints(v, "members", "[0, 3, 2]");
    j = qdict_get_qdict(v, "job");
    g_assert_nonnull(j);
    g_assert_cmpstr(qdict_get_str(j, "kind"), ==, "rebuild");
    g_assert_cmpint(qdict_get_int(j, "rate"), ==, 1);
    g_assert_cmpint(qdict_get_int(j, "rows-total"), >, 0);
    g_assert_cmpint(qdict_get_int(j, "progress"), <, 100);
    qobject_unref(rsp);
    {
        g_autofree char *out = hmp(r.qts, "info megaraid");

        g_test_message("%s", out);
        g_assert_true(g_regex_match_simple(
            "\\n      job rebuild: [0-9]+ % \\([0-9]+/[0-9]+ rows\\).*"
            "rate 1 %", out, 0, 0));
        g_assert_true(g_regex_match_simple("\\n  3 +nvme +ssd +rebuild "
                                           "[0-9]+%", out, 0, 0));
    }
    query_vd0(r.qts, &rsp, &d, SPARE);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "rebuild");
    g_assert_cmpint(qdict_get_int(d, "drive-group"), ==, 0);
    g_assert_false(qdict_haskey(d, "spare-for"));
    g_assert_cmpint(qdict_get_int(d, "rebuild-progress"), >=, 0);
    qobject_unref(rsp);

    /* full speed to the end */
    qts_qom_set_int(r.qts, CTRL, "rebuild-rate", 100);
    for (int i = 0; i < 600; i++) {
        v = query_vd0(r.qts, &rsp, &d, SPARE);
        if (!qdict_haskey(v, "job")) {
            break;
        }
        j = qdict_get_qdict(v, "job");
        if (qdict_get_int(j, "progress") != pct) {
            pct = qdict_get_int(j, "progress");
            g_test_message("rebuild %" PRId64 " %%, running %d", pct,
                           qdict_get_bool(j, "running"));
        }
        qobject_unref(rsp);
        rsp = NULL;
        g_usleep(100 * 1000);
    }
    g_assert_nonnull(rsp);
    g_assert_false(qdict_haskey(v, "job"));
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "optimal");
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "online");
    g_assert_false(qdict_haskey(d, "rebuild-progress"));
    qobject_unref(rsp);

    /* events: progress by tenths, the end, the VD optimal again */
    at = events_wait(r.qts, &ev, failed, "job-done", "vd", 0, 10);
    events_wait(r.qts, &ev, at, "vd-state", "vd", 0, 10);
    events_wait(r.qts, &ev, at, "pd-state", "slot", SPARE, 10);
    g_ptr_array_free(ev.evs, true);
    qmp_rig_destroy(&r);
}

/*
 * A consistency check started by QOM: the query shows it as the VD's job
 * ("check"), and its start and end come as events; afterwards the VD is
 * consistent and has no job.
 */
static void test_check(void)
{
    QmpRig r;
    QDict *rsp, *v, *d, *j;
    Events ev = { .evs = g_ptr_array_new_with_free_func(qdict_free_fn) };
    int at;

    qmp_rig_create(&r);
    qmp_rig_start(&r);
    qts_qom_set_int(r.qts, CTRL, "cc-rate", 1);
    qts_qom_set_str(r.qts, CTRL, "vd0-job", "check");
    v = query_vd0(r.qts, &rsp, &d, 0);
    j = qdict_get_qdict(v, "job");
    g_assert_nonnull(j);
    g_assert_cmpstr(qdict_get_str(j, "kind"), ==, "check");
    /* a check runs at cc-rate, not rebuild-rate */
    g_assert_cmpint(qdict_get_int(j, "rate"), ==, 1);
    g_assert_false(qdict_get_bool(j, "repair"));
    g_assert_cmpint(qdict_get_int(j, "mismatches"), ==, 0);
    qobject_unref(rsp);
    at = events_wait(r.qts, &ev, 0, "job-started", "vd", 0, 10);
    g_assert_nonnull(strstr(qdict_get_str(ev.evs->pdata[at], "text"),
                            "check"));
    qts_qom_set_int(r.qts, CTRL, "cc-rate", 100);
    events_wait(r.qts, &ev, at, "job-done", "vd", 0, 60);
    v = query_vd0(r.qts, &rsp, &d, 0);
    g_assert_false(qdict_haskey(v, "job"));
    g_assert_true(qdict_get_bool(v, "consistent"));
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "optimal");
    qobject_unref(rsp);
    g_ptr_array_free(ev.evs, true);
    qmp_rig_destroy(&r);
}

static pid_t check_stop_qemu;

/* A qom-set that waited for the job: QEMU is killed, the test fails. */
static void check_stop_hung(int sig)
{
    static const char why[] = "vd0-job=none did not return at once\n";

    kill(check_stop_qemu, SIGKILL);
    if (write(2, why, sizeof(why) - 1) < 0) {
        /* the abort says enough */
    }
    abort();
}

/*
 * vdN-job "none" of a check whose window cannot end (a member's reads
 * throttled to one a second of the virtual clock, which nothing moves):
 * the qom-set returns at once and only asks the stop; vdN-job reads
 * "stopping" (QMP answering within 50 ms meanwhile), a second "none" is
 * no error and a new check is refused.  With the reads free again the
 * check ends: "none", the abort logged, no job in the query.
 */
static void test_check_stop(void)
{
    struct sigaction sa = { .sa_handler = check_stop_hung };
    QmpRig r;
    QDict *rsp, *v, *d;
    Events ev = { .evs = g_ptr_array_new_with_free_func(qdict_free_fn) };
    char *job = NULL;
    int64_t t0;
    int at;

    qmp_rig_create(&r);
    qmp_rig_start(&r);
    qts_qom_set_int(r.qts, CTRL, "cc-rate", 100);
    qts_throttle_reads(r.qts, "hd0", 1);
    qts_qom_set_str(r.qts, CTRL, "vd0-job", "check");
    at = events_wait(r.qts, &ev, 0, "job-started", "vd", 0, 10);
    g_usleep(300 * 1000);
    check_stop_qemu = qtest_pid(r.qts);
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(20);
    t0 = g_get_monotonic_time();
    qts_qom_set_str(r.qts, CTRL, "vd0-job", "none");
    g_test_message("qom-set vd0-job none: %" PRId64 " us",
                   g_get_monotonic_time() - t0);
    g_assert_cmpint(g_get_monotonic_time() - t0, <, 50 * 1000);
    for (int i = 0; i < 5; i++) {
        t0 = g_get_monotonic_time();
        job = qts_qom_get_str(r.qts, CTRL, "vd0-job");
        g_assert_cmpint(g_get_monotonic_time() - t0, <, 50 * 1000);
        g_assert_cmpstr(job, ==, "stopping");
        g_free(job);
        g_usleep(50 * 1000);
    }
    qts_qom_set_str(r.qts, CTRL, "vd0-job", "none");
    rsp = qts_qom_set(r.qts, CTRL, "vd0-job",
                      QOBJECT(qstring_from_str("check")));
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    alarm(0);

    qts_throttle_reads(r.qts, "hd0", 0);
    for (int i = 0; i < 100; i++) {
        job = qts_qom_get_str(r.qts, CTRL, "vd0-job");
        if (strcmp(job, "stopping")) {
            break;
        }
        g_free(job);
        job = NULL;
        g_usleep(100 * 1000);
    }
    g_assert_cmpstr(job, ==, "none");
    g_free(job);
    events_wait(r.qts, &ev, at, "job-aborted", "vd", 0, 10);
    v = query_vd0(r.qts, &rsp, &d, 0);
    g_assert_false(qdict_haskey(v, "job"));
    qobject_unref(rsp);
    g_ptr_array_free(ev.evs, true);
    qmp_rig_destroy(&r);
}

/*
 * A member's bay and the spare's are empty at start: the query lists
 * both from the configuration (not present, no device path or identity)
 * and the VD degraded.
 */
static void test_missing(void)
{
    QmpRig r;
    QDict *rsp, *c, *d, *v;
    QList *drives;

    qmp_rig_create(&r);
    qmp_rig_start_without(&r, 1u << 2 | 1u << SPARE);
    c = list_nth(query(r.qts, &rsp), 0);
    drives = qdict_get_qlist(c, "drives");
    g_assert_cmpint(qlist_size(drives), ==, NDRIVES);
    /* present drives first, in slot order, then the missing ones */
    g_assert_cmpint(qdict_get_int(list_nth(drives, 2), "slot"), ==, JBOD);
    for (int i = 3; i < NDRIVES; i++) {
        d = list_nth(drives, i);
        g_assert_false(qdict_get_bool(d, "present"));
        /* DDF does not record bays: an absent drive's is not known */
        g_assert_cmpint(qdict_get_int(d, "slot"), ==, -1);
        g_assert_false(qdict_haskey(d, "qom-path"));
        g_assert_false(qdict_haskey(d, "serial"));
        g_assert_false(qdict_haskey(d, "interface"));
        g_assert_cmpint(qdict_get_int(d, "size"), >, 0);
    }
    d = list_nth(drives, 3);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "missing");
    g_assert_cmpint(qdict_get_int(d, "drive-group"), ==, 0);
    assert_ints(d, "vds", "[0]");
    g_assert_cmpstr(qdict_get_str(list_nth(drives, 4), "state"), ==,
                    "hot-spare");
    v = list_nth(qdict_get_qlist(c, "vds"), 0);
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "degraded");
    assert_ints(v, "members", "[0, 1, -1]");
    qobject_unref(rsp);
    qmp_rig_destroy(&r);
}

/* The HMP table names the controller, the VD and every drive's state. */
static void test_hmp(void)
{
    QmpRig r;
    g_autofree char *out = NULL;

    qmp_rig_create(&r);
    qmp_rig_start(&r);
    out = hmp(r.qts, "info megaraid");
    g_test_message("%s", out);
    g_assert_nonnull(strstr(out, "raid0 (" CTRL "): MegaRAID 9670W-16i"));
    g_assert_nonnull(strstr(out, "CacheVault optimal"));
    g_assert_true(g_regex_match_simple(
        "\\n  0 +qmp-r5 +raid5 .* optimal +write-through +0 +0,1,2\\r?\\n",
        out, 0, 0));
    g_assert_nonnull(strstr(out, "DG 0: VDs 0"));
    g_assert_nonnull(strstr(out, "span 0 slots 0,1,2"));
    g_assert_true(g_regex_match_simple("\\n  3 +nvme +ssd +hot-spare ",
                                       out, 0, 0));
    g_assert_true(g_regex_match_simple(
        "\\n  4 +sas +ssd +unconfigured-good ", out, 0, 0));
    qmp_rig_destroy(&r);
}

/* Without a controller: an empty list, and HMP says so. */
static void test_none(void)
{
    QTestState *qts = qtest_initf("%s-machine q35 -nodefaults", h_fw_args());
    QDict *rsp;
    g_autofree char *out = NULL;

    g_assert_cmpint(qlist_size(query(qts, &rsp)), ==, 0);
    qobject_unref(rsp);
    out = hmp(qts, "info megaraid");
    g_assert_cmpstr(out, ==, "No MegaRAID controller\r\n");
    qtest_quit(qts);
}

/*
 * docs/examples/libvirt-demo.xml: libvirt's schema accepts it (when
 * virt-xml-validate is installed), and the QEMU arguments it passes boot
 * the demo's array: a RAID 5 over slots 0-7 and a spare in slot 8.
 */
static void test_libvirt_demo(void)
{
    g_autofree char *self = realpath(__FILE__, NULL);
    g_autofree char *top = NULL, *xml = NULL, *text = NULL;
    g_autofree char *dir = g_dir_make_tmp("megaraid-qmp-demo-XXXXXX", NULL);
    g_autoptr(GString) args = g_string_new("");
    g_autoptr(GRegex) re = g_regex_new("<qemu:arg value='([^']*)'/>", 0, 0,
                                       NULL);
    g_autoptr(GMatchInfo) mi = NULL;
    g_autofree char *validate = g_find_program_in_path("virt-xml-validate");
    char *path[9];
    QTestState *qts;
    QDict *rsp, *c, *v;
    QList *drives;

    g_assert_nonnull(self);
    top = g_path_get_dirname(self);
    for (int i = 0; i < 2; i++) {
        char *up = g_path_get_dirname(top);

        g_free(top);
        top = up;
    }
    xml = g_build_filename(top, "docs/examples/libvirt-demo.xml", NULL);
    g_assert_true(g_file_get_contents(xml, &text, NULL, NULL));
    if (validate) {
        g_autofree char *out = NULL, *err = NULL;
        const char *argv[] = { validate, xml, NULL };
        int status;

        g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL,
                                   &out, &err, &status, NULL));
        g_test_message("virt-xml-validate: %s%s", out, err);
        g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    } else {
        g_test_message("virt-xml-validate is not installed (Debian: "
                       "libvirt-clients): the XML is not validated");
    }

    /* the images at the XML's paths, in a temporary folder */
    for (int i = 0; i < 9; i++) {
        path[i] = i < 8 ? g_strdup_printf("%s/demo-m%d.img", dir, i)
                        : g_strdup_printf("%s/demo-s0.img", dir);
    }
    write_array(path, 9, 8, 1, "demo", 0);
    g_regex_match(re, text, 0, &mi);
    for (; g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
        g_autofree char *a = g_match_info_fetch(mi, 1);
        g_auto(GStrv) parts = g_strsplit(a, "/var/lib/megaraid-sim", -1);
        g_autofree char *joined = g_strjoinv(dir, parts);

        g_string_append_printf(args, "%s ", joined);
    }
    g_assert_nonnull(strstr(args->str, "megaraid-9600,id=raid0"));
    qts = qtest_initf("-machine q35 -nodefaults %s", args->str);

    c = list_nth(query(qts, &rsp), 0);
    g_assert_cmpint(qdict_get_int(c, "rebuild-rate"), ==, 5);
    drives = qdict_get_qlist(c, "drives");
    g_assert_cmpint(qlist_size(drives), ==, 9);
    for (int i = 0; i < 8; i++) {
        QDict *d = find_by(drives, "slot", i);
        g_autofree char *qp = g_strdup_printf("/machine/peripheral/demo-m%d",
                                              i);

        g_assert_cmpstr(qdict_get_str(d, "qom-path"), ==, qp);
        g_assert_cmpstr(qdict_get_str(d, "interface"), ==, "nvme");
        g_assert_cmpstr(qdict_get_str(d, "state"), ==, "online");
    }
    g_assert_cmpstr(qdict_get_str(find_by(drives, "slot", 8), "state"), ==,
                    "hot-spare");
    v = list_nth(qdict_get_qlist(c, "vds"), 0);
    g_assert_cmpstr(qdict_get_str(v, "name"), ==, "demo");
    g_assert_cmpstr(qdict_get_str(v, "level"), ==, "raid5");
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "optimal");
    assert_ints(v, "members", "[0, 1, 2, 3, 4, 5, 6, 7]");
    qobject_unref(rsp);
    qtest_quit(qts);
    for (int i = 0; i < 9; i++) {
        unlink(path[i]);
        g_free(path[i]);
    }
    rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-qmp/query", test_query);
    qtest_add_func("/megaraid-qmp/fail", test_fail);
    qtest_add_func("/megaraid-qmp/check", test_check);
    qtest_add_func("/megaraid-qmp/check-stop", test_check_stop);
    qtest_add_func("/megaraid-qmp/missing", test_missing);
    qtest_add_func("/megaraid-qmp/hmp", test_hmp);
    qtest_add_func("/megaraid-qmp/none", test_none);
    qtest_add_func("/megaraid-qmp/libvirt-demo", test_libvirt_demo);
    return g_test_run();
}
