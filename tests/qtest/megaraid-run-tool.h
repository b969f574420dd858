/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: running a host tool (megaraid-img) from a test and
 * collecting how it ended and what it printed.  Plain GLib, no QEMU
 * headers: the qtests include it here and the standalone core build's
 * tests/unit/test-img.c as ../qtest/megaraid-run-tool.h.
 */
#ifndef MEGARAID_RUN_TOOL_H
#define MEGARAID_RUN_TOOL_H

#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/wait.h>

/*
 * How a command ended: exited (status is its exit status) or killed by
 * signo (status -1).  A crash is never an exit status.
 */
typedef struct Run {
    bool exited;
    int status, signo;
    char *out, *err;
} Run;

static inline void run_clear(Run *r)
{
    g_free(r->out);
    g_free(r->err);
}

/*
 * Run argv (NULL-terminated; argv[0] without a '/' is looked up in PATH)
 * and collect how it ended and its output.
 */
static inline Run run_argv(char **argv)
{
    Run r = { .status = -1 };
    GError *err = NULL;
    int wait;

    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
                               NULL, &r.out, &r.err, &wait, &err));
    g_assert_no_error(err);
    if (WIFEXITED(wait)) {
        r.exited = true;
        r.status = WEXITSTATUS(wait);
    } else if (WIFSIGNALED(wait)) {
        r.signo = WTERMSIG(wait);
    }
    return r;
}

/* Run @tool with the arguments @first and those in @ap (NULL-terminated). */
static inline Run run_tool_va(const char *tool, const char *first,
                              va_list ap)
{
    GPtrArray *argv = g_ptr_array_new();
    Run r;

    g_ptr_array_add(argv, (char *)tool);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        g_ptr_array_add(argv, (char *)a);
    }
    g_ptr_array_add(argv, NULL);
    r = run_argv((char **)argv->pdata);
    g_ptr_array_free(argv, true);
    return r;
}

/* Run @tool with the arguments from @first on (NULL-terminated). */
static inline Run G_GNUC_NULL_TERMINATED run_tool(const char *tool,
                                                  const char *first, ...)
{
    va_list ap;
    Run r;

    va_start(ap, first);
    r = run_tool_va(tool, first, ap);
    va_end(ap);
    return r;
}

#endif
