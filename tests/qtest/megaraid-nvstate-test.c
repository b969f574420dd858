/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the controller's own state on QEMU drives
 * (hw/megaraid/bay/nv-drive.c): the write-back journal on qcow2 replays its
 * dirty data into a new QEMU after a kill, a second QEMU that opens the
 * same journal gets a lock error naming it, and drives too small,
 * read-only or given as old-style file names are refused with a message
 * naming the property, the drive and what it needs.  The event log and
 * the config NVRAM on qcow2 are kept across a restart in
 * megaraid-pel-test and megaraid-9600-test.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qobject/qjson.h"
#include "megaraid-rig.h"

static char *tmp_file(const char *prefix)
{
    g_autofree char *tmpl = g_strdup_printf("%s-XXXXXX", prefix);
    char *path;
    int fd = g_file_open_tmp(tmpl, &path, NULL);

    g_assert(fd >= 0);
    close(fd);
    return path;
}

/*
 * Write-back data that only the cache and its qcow2 journal hold, then
 * "kill -9": the drives and the journal as they are at that moment go to
 * a new QEMU, which must replay the journal and give the data back.
 * @img_opts: the journal image's qemu-img options; @ctrl: controller
 * properties.
 */
static void journal_replay(const char *img_opts, const char *ctrl)
{
    g_autofree char *jnl = tmp_file("megaraid-nvstate-jnl");
    g_autofree char *jcopy = tmp_file("megaraid-nvstate-jnl-copy");
    g_autofree char *props = journal_props(jnl, ctrl);
    g_autofree char *props2 = journal_props(jcopy, ctrl);
    g_autofree char *wp = NULL;
    Rig r, c;
    MR *m;

    rig_create_cached(&r, 3, 3, 0, RAID_LEVEL_5, RAID_CACHE_WRITE_BACK);
    h_img_create("qcow2", img_opts, jnl, "8M");
    m = mr_start(&r, props);
    wp = qom_get_str(m, CTRL, "vd0-write-policy");
    g_assert_cmpstr(wp, ==, "write-back");
    write_extents_held(m, 40);
    g_assert_cmpint(qom_get_int(m, CTRL, "journal-records"), >=,
                    ARRAY_SIZE(extents));

    /* the kill: what the files hold now (nothing is being written) */
    rig_copy(&c, &r, "megaraid-nvstate-copy");
    rig_copy_file(jnl, jcopy);
    mr_stop(&r);

    /* the restart: replayed, destaged and the journal emptied at start */
    m = mr_start(&c, props2);
    g_assert_cmpint(qom_get_int(m, CTRL, "journal-records"), ==, 0);
    g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), ==, 0);
    check_extents(m, 40);
    mr_stop(&c);

    /* the members hold it: a start without any journal reads it back */
    m = mr_start(&c, ",cache-size=4M");
    check_extents(m, 40);
    mr_stop(&c);

    rig_destroy(&r);
    rig_destroy(&c);
    unlink(jnl);
    unlink(jcopy);
}

/*
 * qcow2 with its metadata preallocated: a write acknowledged once its
 * record is written (no flush) survives the kill.
 */
static void test_replay_qcow2_prealloc(void)
{
    journal_replay("preallocation=metadata", "");
}

/* qcow2 as qemu-img makes it, with journal-sync: records are flushed. */
static void test_replay_qcow2_sync(void)
{
    journal_replay(NULL, ",journal-sync=on");
}

static void expect_failed_start(const char *args, const char *const *want)
{
    g_autofree char *err = NULL;
    int rc = h_run_qemu(args, &err);

    g_test_message("exit %d: %s", rc, err);
    g_assert_cmpint(rc, !=, 0);
    for (; *want; want++) {
        if (!strstr(err, *want)) {
            g_test_message("stderr lacks '%s'", *want);
            g_assert_not_reached();
        }
    }
}

/* A second QEMU on the same journal: a lock error that names it. */
static void test_journal_locked(void)
{
    g_autofree char *jq = tmp_file("megaraid-nvstate-lock-q");
    g_autofree char *jr = tmp_file("megaraid-nvstate-lock-r");
    g_autofree char *args_q = g_strdup_printf(
        "-M q35 -nodefaults -blockdev driver=qcow2,node-name=jnl0,"
        "file.driver=file,file.filename=%s "
        "-device megaraid-9600,cache-size=4M,journal=jnl0", jq);
    g_autofree char *args_r = g_strdup_printf(
        "-M q35 -nodefaults -drive if=none,id=jraw,format=raw,file=%s "
        "-device megaraid-9600,cache-size=4M,journal=jraw", jr);
    const char *want_q[] = { "lock", jq, NULL };
    const char *want_r[] = { "journal: drive 'jraw'", jr, "lock", NULL };
    g_autofree char *err = NULL;
    QTestState *a;

    h_img_create("qcow2", NULL, jq, "8M");
    h_img_create("raw", NULL, jr, "8M");

    /* qcow2: refused where the second opens the image */
    a = qtest_initf("%s%s", h_fw_args(), args_q);
    expect_failed_start(args_q, want_q);
    qtest_quit(a);
    /* once the first is gone, the second starts */
    g_assert_cmpint(h_run_qemu(args_q, &err), ==, 0);

    /* raw: refused when the controller takes the journal */
    a = qtest_initf("%s%s", h_fw_args(), args_r);
    expect_failed_start(args_r, want_r);
    qtest_quit(a);
    unlink(jq);
    unlink(jr);
}

/* device_add of a controller with @props (a JSON fragment): its error. */
static char *try_add(QTestState *qts, const char *driver, const char *props)
{
    g_autofree char *json = g_strdup_printf(
        "{'driver': '%s', 'bus': 'rp0', %s}", driver, props);

    return h_device_add_err(qts, json);
}

static void expect_refused(QTestState *qts, const char *driver,
                           const char *props, const char *const *want)
{
    g_autofree char *err = try_add(qts, driver, props);
    QDict *rsp;

    g_assert_nonnull(err);
    g_test_message("%s %s: %s", driver, props, err);
    for (; *want; want++) {
        if (!strstr(err, *want)) {
            g_test_message("error lacks '%s'", *want);
            g_assert_not_reached();
        }
    }
    /* QEMU goes on */
    rsp = qtest_qmp(qts, "{'execute': 'query-status'}");
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

#define WANT(...) ((const char *const[]) { __VA_ARGS__, NULL })

/*
 * Drives too small, read-only, named the old way, or holding something
 * else: clear errors.
 */
static void test_refused(void)
{
    g_autofree char *junk = tmp_file("megaraid-nvstate-junk");
    QTestState *qts;

    g_assert_true(g_file_set_contents(junk, "not an NVRAM, not zeroes",
                                      -1, NULL));
    qts = qtest_initf(
        "%s-M q35 -nodefaults "
        "-device pcie-root-port,id=rp0,chassis=1,bus=pcie.0 "
        "-blockdev driver=null-co,node-name=small,size=1048576 "
        "-blockdev driver=null-co,node-name=ro,size=1073741824,"
        "read-only=on "
        "-blockdev driver=null-co,node-name=tiny,size=4096 "
        "-blockdev driver=null-co,node-name=zero,size=0 "
        "-blockdev driver=file,node-name=junk,filename=%s", h_fw_args(),
        junk);

    expect_refused(qts, "megaraid-9600", "'journal': 'cache.jnl'",
                   WANT("journal: 'cache.jnl' is not a block device node "
                        "name or drive id",
                        "-blockdev driver=file,filename=cache.jnl,"
                        "node-name=journal0",
                        "-device megaraid-9600,...,journal=journal0"));
    expect_refused(qts, "megaraid-9600", "'event-log': '/tmp/raid0.evl'",
                   WANT("event-log: '/tmp/raid0.evl' is not a block device",
                        "filename=/tmp/raid0.evl,node-name=event-log0"));
    expect_refused(qts, "megaraid-9600", "'config-nvram': 'nv.bin'",
                   WANT("config-nvram: 'nv.bin' is not a block device"));
    /* a file in a missing folder: the same check for all three (issue 26) */
    expect_refused(qts, "megaraid-9600",
                   "'config-nvram': '/nonexistent-dir/raid0.nv'",
                   WANT("config-nvram: '/nonexistent-dir/raid0.nv' is not a "
                        "block device node name or drive id"));
    expect_refused(qts, "megaraid-9600",
                   "'journal': '/nonexistent-dir/cache.jnl'",
                   WANT("journal: '/nonexistent-dir/cache.jnl' is not a "
                        "block device node name or drive id"));
    /* the default cache (256 MiB) needs a 512 MiB journal */
    expect_refused(qts, "megaraid-9600", "'journal': 'small'",
                   WANT("journal: drive 'small'", "has 1048576 bytes",
                        "needs at least 536870912 (2 x cache-size",
                        "qemu-img create -f qcow2 FILE 512M"));
    expect_refused(qts, "megaraid-9600",
                   "'journal': 'small', 'cache-size': 4194304",
                   WANT("journal: drive 'small'", "has 1048576 bytes",
                        "needs at least 8388608"));
    expect_refused(qts, "megaraid-9600", "'journal': 'ro'",
                   WANT("journal: drive 'ro'", "read-only"));
    expect_refused(qts, "megaraid-9600", "'event-log': 'tiny'",
                   WANT("event-log: drive 'tiny'", "has 4096 bytes",
                        "needs at least 131584"));
    expect_refused(qts, "megaraid-9600", "'config-nvram': 'zero'",
                   WANT("config-nvram: drive 'zero'", "has 0 bytes",
                        "needs at least 512"));
    expect_refused(qts, "megaraid-9600", "'config-nvram': 'junk'",
                   WANT("config-nvram: drive 'junk'", junk,
                        "holds no megaraid-9600 config NVRAM (bad magic)"));
    if (qtest_has_device("megaraid-9500")) {
        expect_refused(qts, "megaraid-9500", "'journal': 'cache.jnl'",
                       WANT("journal: 'cache.jnl' is not a block device",
                            "-device megaraid-9500,...,journal=journal0"));
        expect_refused(qts, "megaraid-9500", "'event-log': 'tiny'",
                       WANT("event-log: drive 'tiny'", "has 4096 bytes"));
    }
    qtest_quit(qts);
    unlink(junk);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!qtest_has_device("megaraid-9600")) {
        g_test_message("megaraid-9600 not built");
        return g_test_run();
    }
    qtest_add_func("/megaraid-nvstate/replay-qcow2-prealloc",
                   test_replay_qcow2_prealloc);
    qtest_add_func("/megaraid-nvstate/replay-qcow2-sync",
                   test_replay_qcow2_sync);
    qtest_add_func("/megaraid-nvstate/journal-locked", test_journal_locked);
    qtest_add_func("/megaraid-nvstate/refused", test_refused);
    return g_test_run();
}
