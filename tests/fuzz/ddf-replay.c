/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the DDF fuzz target over files or directories of inputs (the
 * regression corpus), without libFuzzer: meson test runs it on
 * tests/fuzz/ddf-corpus, under the sanitizers when the build has them.
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "ddf-fuzz.h"

static int run_file(const char *path)
{
    g_autofree char *data = NULL;
    gsize len;

    if (!g_file_get_contents(path, &data, &len, NULL)) {
        fprintf(stderr, "ddf-replay: cannot read %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;

    for (int i = 1; i < argc; i++) {
        GDir *d = g_dir_open(argv[i], 0, NULL);
        const char *name;

        if (!d) {
            bad += run_file(argv[i]);
            files++;
            continue;
        }
        while ((name = g_dir_read_name(d))) {
            g_autofree char *p = g_build_filename(argv[i], name, NULL);
            bad += run_file(p);
            files++;
        }
        g_dir_close(d);
    }
    printf("1..1\n%s 1 - %d input(s) replayed\n", bad || !files ? "not ok" :
           "ok", files);
    return bad || !files;
}
