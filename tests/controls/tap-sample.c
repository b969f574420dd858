/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A GLib test binary for negative controls: what it registers depends on
 * CONTROL_TAP, so that the real counting code (scripts/lib-count.sh) can be
 * shown GLib's own TAP output of the cases it must refuse:
 *   none  registers no test (a qtest whose device is missing)
 *   skip  one test passes, one calls g_test_skip()
 *   pass  two tests pass (the clean run the counters must accept)
 */
#include <glib.h>
#include <string.h>

static void t_pass(void)
{
}

static void t_skip(void)
{
    g_test_skip("control: the tool this subtest needs is missing");
}

int main(int argc, char **argv)
{
    const char *mode = g_getenv("CONTROL_TAP");

    g_test_init(&argc, &argv, NULL);
    if (!mode || strcmp(mode, "none") != 0) {
        g_test_add_func("/control/pass", t_pass);
        if (mode && strcmp(mode, "skip") == 0) {
            g_test_add_func("/control/skip", t_skip);
        } else {
            g_test_add_func("/control/pass-too", t_pass);
        }
    }
    return g_test_run();
}
