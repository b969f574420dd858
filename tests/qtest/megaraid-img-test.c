/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the host tool megaraid-img beside a running QEMU
 * (the image locks): while a megaraid-9600 holds an array's drives, every
 * megaraid-img command that writes is refused with QEMU's lock message and
 * leaves the array alone, show and read still work (with a note), and the
 * images are free again once QEMU has quit; while megaraid-img writes the
 * images, a QEMU cannot start on them.
 *
 * megaraid-img comes from the standalone build: $MEGARAID_IMG, or
 * ../core/megaraid-img beside this build folder (scripts/test.sh builds
 * it before QEMU).
 */

#include "qemu/osdep.h"
#include "megaraid-harness.h"
#include "megaraid-run-tool.h"

#include <glib/gstdio.h>

#define NDRIVES 4       /* RAID 5 over 3 drives and a hot spare */

static char *tool;

/* megaraid-img ARGS... (NULL-terminated) */
#define run_img(...) run_tool(tool, __VA_ARGS__)

typedef struct Rig {
    char *dir;
    char *path[NDRIVES];
} Rig;

/* A RAID 5 over drives 0-2 with drive 3 as a global hot spare. */
static void rig_new(Rig *r)
{
    GError *err = NULL;
    Run x;

    g_assert_true(g_file_test(tool, G_FILE_TEST_IS_EXECUTABLE));
    r->dir = g_dir_make_tmp("mrimg-lock-XXXXXX", &err);
    g_assert_no_error(err);
    for (int i = 0; i < NDRIVES; i++) {
        r->path[i] = g_strdup_printf("%s/d%d.img", r->dir, i);
    }
    x = run_img("create", "-l", "raid5", "-s", "64", "--drive-size", "32M",
                "--hot-spare", r->path[3], r->path[0], r->path[1], r->path[2],
                NULL);
    g_assert_cmpint(x.status, ==, 0);
    run_clear(&x);
}

static void rig_free(Rig *r)
{
    for (int i = 0; i < NDRIVES; i++) {
        g_unlink(r->path[i]);
        g_free(r->path[i]);
    }
    g_rmdir(r->dir);
    g_free(r->dir);
}

/* -drive/-device pairs putting the rig's drives behind controller raid0 */
static char *rig_args(Rig *r)
{
    GString *s = g_string_new("");

    for (int i = 0; i < NDRIVES; i++) {
        g_string_append_printf(s, "-drive if=none,id=d%d,format=raw,file=%s "
                               "-device megaraid-drive,id=hd%d,bus=raid0.0,"
                               "slot=%d,drive=d%d,interface=nvme ", i,
                               r->path[i], i, i, i);
    }
    return g_string_free(s, false);
}

static QTestState *rig_start(Rig *r)
{
    g_autofree char *args = rig_args(r);

    return qtest_initf("%s-machine q35 -nodefaults "
                       "-device megaraid-9600,id=raid0 %s", h_fw_args(),
                       args);
}

/* megaraid-img show --json of the rig must contain @needle. */
static void expect_show(Rig *r, const char *needle)
{
    Run x = run_img("show", "--json", r->path[0], r->path[1], r->path[2],
                    r->path[3], NULL);

    g_assert_cmpint(x.status, ==, 0);
    if (!strstr(x.out, needle)) {
        g_error("show lacks '%s':\n%s", needle, x.out);
    }
    run_clear(&x);
}

static void expect_refused(Run x, const char *what, const char *path)
{
    if (x.status != 1 || !strstr(x.err, path) ||
        !strstr(x.err, "Failed to get \"write\" lock") ||
        !strstr(x.err, "another process")) {
        g_error("megaraid-img %s beside a running QEMU: status %d, not a "
                "lock refusal naming %s:\n%s%s", what, x.status, path, x.out,
                x.err);
    }
    g_test_message("%s: %s", what, x.err);
    run_clear(&x);
}

static void test_running_vm(void)
{
    Rig r;
    QTestState *qts;
    g_autofree char *in = NULL, *out = NULL;
    char **p;
    Run x;

    rig_new(&r);
    p = r.path;
    in = g_strdup_printf("%s/in.bin", r.dir);
    out = g_strdup_printf("%s/out.bin", r.dir);
    g_assert_true(g_file_set_contents(in, "", 0, NULL));
    g_assert_cmpint(truncate(in, 65536), ==, 0);
    qts = rig_start(&r);

    expect_refused(run_img("fail", "-d", p[1], p[0], p[1], p[2], p[3], NULL),
                   "fail", p[0]);
    expect_refused(run_img("replace", "-d", p[1], p[0], p[1], p[2], p[3],
                           NULL), "replace", p[0]);
    expect_refused(run_img("spare", "--remove", "-d", p[3], p[0], p[1], p[2],
                           p[3], NULL), "spare", p[0]);
    expect_refused(run_img("rebuild", p[0], p[1], p[2], p[3], NULL),
                   "rebuild", p[0]);
    expect_refused(run_img("check", "--repair", p[0], p[1], p[2], p[3],
                           NULL), "check", p[0]);
    expect_refused(run_img("init", p[0], p[1], p[2], p[3], NULL), "init",
                   p[0]);
    expect_refused(run_img("write", "-i", in, p[0], p[1], p[2], p[3], NULL),
                   "write", p[0]);
    expect_refused(run_img("add-vd", "-l", "raid5", "--size", "1M", p[0],
                           p[1], p[2], p[3], NULL), "add-vd", p[0]);
    expect_refused(run_img("delete-vd", "-v", "0", p[0], p[1], p[2], p[3],
                           NULL), "delete-vd", p[0]);
    expect_refused(run_img("import", p[0], p[1], p[2], p[3], NULL), "import",
                   p[0]);
    expect_refused(run_img("create", "-f", "-l", "raid1", p[3], p[2], NULL),
                   "create -f", p[3]);

    /* Reading shares the images, as QEMU lets it. */
    x = run_img("show", p[0], p[1], p[2], p[3], NULL);
    g_assert_cmpint(x.status, ==, 0);
    g_assert_nonnull(strstr(x.out, "RAID5, optimal"));
    g_assert_nonnull(strstr(x.err, "open for writing by another process"));
    run_clear(&x);
    x = run_img("read", "-l", "1M", "-O", out, p[0], p[1], p[2], p[3], NULL);
    g_assert_cmpint(x.status, ==, 0);
    run_clear(&x);

    qtest_quit(qts);
    /* Nothing changed behind QEMU's back; the images are free again. */
    expect_show(&r, "\"state\":\"optimal\"");
    expect_show(&r, "\"state\":\"hot-spare\"");
    x = run_img("fail", "-d", p[1], p[0], p[1], p[2], p[3], NULL);
    g_assert_cmpint(x.status, ==, 0);
    g_assert_nonnull(strstr(x.out, "offline"));
    g_assert_cmpstr(x.err, ==, "");
    run_clear(&x);
    g_unlink(in);
    g_unlink(out);
    rig_free(&r);
}

static void test_tool_holds(void)
{
    const char *qemu = g_getenv("QTEST_QEMU_BINARY");
    g_autofree char *args = NULL, *cmd = NULL;
    g_auto(GStrv) qargv = NULL;
    GError *err = NULL;
    char *wargv[] = { tool, (char *)"write", (char *)"-l", (char *)"64K",
                      NULL, NULL, NULL, NULL, NULL };
    g_autofree char *zero = g_malloc0(65536);
    QTestState *qts;
    GPid pid;
    int in_fd, wait = 0;
    bool held = false;
    Rig r;
    Run x;

    g_assert_nonnull(qemu);
    rig_new(&r);
    for (int i = 0; i < NDRIVES; i++) {
        wargv[4 + i] = r.path[i];
    }
    /* megaraid-img write waits for its input with the images locked. */
    g_assert_true(g_spawn_async_with_pipes(NULL, wargv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, &in_fd, NULL, NULL,
                                           &err));
    g_assert_no_error(err);
    for (int i = 0; i < 200 && !held; i++) {
        x = run_img("show", r.path[0], r.path[1], r.path[2], r.path[3],
                    NULL);
        held = x.status == 0 &&
               strstr(x.err, "open for writing by another process");
        run_clear(&x);
        if (!held) {
            g_usleep(50 * 1000);
        }
    }
    g_assert_true(held);

    args = rig_args(&r);
    cmd = g_strdup_printf("timeout 60 %s %s-machine q35 -nodefaults -S "
                          "-display none -accel qtest "
                          "-device megaraid-9600,id=raid0 %s", qemu,
                          h_fw_args(), args);
    g_assert_true(g_shell_parse_argv(cmd, NULL, &qargv, &err));
    g_assert_no_error(err);
    x = run_argv(qargv);
    if (x.status == 0 || x.status == 124 ||
        !strstr(x.err, "Failed to get \"write\" lock") ||
        !strstr(x.err, r.path[0])) {
        g_error("QEMU started on images megaraid-img was writing (status "
                "%d):\n%s", x.status, x.err);
    }
    g_test_message("QEMU: %s", x.err);
    run_clear(&x);

    g_assert_cmpint(write(in_fd, zero, 65536), ==, 65536);
    close(in_fd);
    g_assert_cmpint(waitpid(pid, &wait, 0), ==, pid);
    g_spawn_close_pid(pid);
    g_assert_true(WIFEXITED(wait) && WEXITSTATUS(wait) == 0);

    /* The tool has ended: QEMU starts. */
    qts = rig_start(&r);
    qtest_quit(qts);
    rig_free(&r);
}

int main(int argc, char **argv)
{
    const char *env = g_getenv("MEGARAID_IMG");

    g_test_init(&argc, &argv, NULL);
    tool = env ? g_strdup(env) :
           g_canonicalize_filename("../core/megaraid-img", NULL);
    if (!g_file_test(tool, G_FILE_TEST_IS_EXECUTABLE)) {
        g_printerr("megaraid-img-test: no megaraid-img at %s (build it: "
                   "meson setup build/core && ninja -C build/core "
                   "megaraid-img, or set MEGARAID_IMG)\n", tool);
    }
    qtest_add_func("/megaraid-img/locks/running-vm", test_running_vm);
    qtest_add_func("/megaraid-img/locks/tool-holds", test_tool_holds);
    return g_test_run();
}
