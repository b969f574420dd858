/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of configuration errors found when a controller
 * starts, on both personalities.  A cold-plugged controller imports its
 * configuration once the machine is ready: a bad one ends QEMU's start
 * with the message on stderr and exit status 1.  A hot-plugged
 * controller imports at realize: a bad one fails device_add with the
 * message, QEMU keeps running, and the failed controller leaves nothing
 * behind (its event log unlocked, its id and slot free for the next
 * device_add).  The bad configuration here is a cache journal drive that
 * holds something else than a journal.
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "megaraid-harness.h"

static const char *const controllers[] = { "megaraid-9600", "megaraid-9500" };

/*
 * The journal drives' size: what cache-size=2M needs (2 x cache-size, at
 * least 4 MiB); the event log's is smaller.
 */
#define JOURNAL_SIZE    (4 * 1024 * 1024)
#define CACHE_ARGS      "cache-size=2M"

static char *file_contents(const char *path, gsize *len)
{
    char *buf = NULL;

    g_assert_true(g_file_get_contents(path, &buf, len, NULL));
    return buf;
}

/*
 * Start QEMU with @device cold-plugged; it must exit with status 1 (not
 * crash, not run) and say @cause and @name on stderr.
 */
static void check_start_refused(const char *device, const char *cause,
                                const char *name)
{
    g_autofree char *err = NULL;
    g_autofree char *args = g_strdup_printf("-M q35 -nodefaults -device %s",
                                            device);

    g_assert_cmpint(h_run_qemu(args, &err), ==, 1);
    g_test_message("%s: %s", device, err);
    g_assert_nonnull(strstr(err, cause));
    g_assert_nonnull(strstr(err, name));
}

/* A cold-plugged controller with a bad journal: QEMU does not start. */
static void test_cold(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(controllers); i++) {
        g_autofree char *journal = h_junk_file("megaraid-start-j", 4096,
                                             JOURNAL_SIZE);
        g_autofree char *dev = g_strdup_printf(
            "%s,journal=jn," CACHE_ARGS " -blockdev driver=file,"
            "filename=%s,node-name=jn", controllers[i], journal);
        g_autofree char *before = NULL, *after = NULL;
        gsize len_before, len_after;

        before = file_contents(journal, &len_before);
        check_start_refused(dev, "not a megaraid-sim cache journal "
                            "(bad magic)", journal);
        /* the file is left as it was for the user to look at */
        after = file_contents(journal, &len_after);
        g_assert_cmpmem(before, len_before, after, len_after);
        unlink(journal);
    }
}

static QDict *device_add(QTestState *qts, const char *driver,
                         const char *journal, const char *evlog)
{
    return qtest_qmp(qts, "{'execute': 'device_add', 'arguments': {"
                     "'driver': %s, 'id': 'hp', 'bus': 'rp0', "
                     "'journal': %s, 'event-log': %s, 'cache-size': 2097152, "
                     "'timing': true}}", driver, journal, evlog);
}

/* A -blockdev node @node on the raw file @path. */
static void blockdev_add(QTestState *qts, const char *node, const char *path)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'blockdev-add', 'arguments': {"
                           "'driver': 'file', 'filename': %s, "
                           "'node-name': %s}}", path, node);

    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

/* A hot-plugged controller with a bad journal: device_add fails. */
static void test_hot(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(controllers); i++) {
        g_autofree char *bad = h_junk_file("megaraid-start-j", 4096,
                                         JOURNAL_SIZE);
        g_autofree char *good = h_junk_file("megaraid-start-j", 0,
                                          JOURNAL_SIZE);
        g_autofree char *evlog = h_junk_file("megaraid-start-ev", 0,
                                           1024 * 1024);
        QTestState *qts;
        const char *desc;
        QDict *rsp;

        qts = qtest_initf("%s-M q35 -nodefaults -device "
                          "pcie-root-port,id=rp0,chassis=1,bus=pcie.0",
                          h_fw_args());
        blockdev_add(qts, "jbad", bad);
        blockdev_add(qts, "jgood", good);
        blockdev_add(qts, "ev", evlog);
        rsp = device_add(qts, controllers[i], "jbad", "ev");
        g_assert_true(qdict_haskey(rsp, "error"));
        desc = qdict_get_str(qdict_get_qdict(rsp, "error"), "desc");
        g_test_message("device_add %s: %s", controllers[i], desc);
        g_assert_nonnull(strstr(desc, bad));
        g_assert_nonnull(strstr(desc, "bad magic"));
        qobject_unref(rsp);

        /* QEMU goes on answering */
        rsp = qtest_qmp(qts, "{'execute': 'query-status'}");
        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);

        /*
         * Nothing of the failed controller is left: the same id, slot and
         * event log (locked while a controller has it open) are free.
         */
        rsp = device_add(qts, controllers[i], "jgood", "ev");
        if (qdict_haskey(rsp, "error")) {
            g_test_message("second device_add: %s",
                           qdict_get_str(qdict_get_qdict(rsp, "error"),
                                         "desc"));
        }
        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);
        rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': {"
                        "'path': '/machine/peripheral/hp', "
                        "'property': 'journal'}}");
        g_assert_cmpstr(qdict_get_str(rsp, "return"), ==, "jgood");
        qobject_unref(rsp);
        qtest_quit(qts);        /* asserts a clean exit */
        unlink(bad);
        unlink(good);
        unlink(evlog);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!qtest_has_device("megaraid-9600") ||
        !qtest_has_device("megaraid-9500")) {
        g_test_message("megaraid-9600 or megaraid-9500 not built");
        return g_test_run();
    }
    qtest_add_func("/megaraid-start/cold-plug-error", test_cold);
    qtest_add_func("/megaraid-start/hot-plug-error", test_hot);
    return g_test_run();
}
