/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img: offline tool for MegaRAID drive images (like running a
 * RAID utility on pulled disks).  This file dispatches the subcommands.
 */
#include "img.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    ImgCmd fn;
    const char *help;
} cmds[] = {
    { "create", cmd_create, "create a drive group and VD on drive images" },
    { "add-vd", cmd_add_vd, "add a VD to an existing drive group" },
    { "add-dg", cmd_add_dg, "add a drive group (and its VD) to the "
      "configuration" },
    { "delete-vd", cmd_delete_vd, "delete a VD" },
    { "show", cmd_show, "show the configuration (human or --json)" },
    { "fail", cmd_fail, "mark a member drive failed (offline)" },
    { "replace", cmd_replace, "replace a failed member, start a rebuild" },
    { "spare", cmd_spare, "make a drive a global or dedicated hot spare" },
    { "rebuild", cmd_rebuild, "run (or resume) rebuilds" },
    { "check", cmd_check, "consistency check (report or --repair)" },
    { "init", cmd_init, "full initialization of a VD (zeroes)" },
    { "read", cmd_read, "read a VD range to a file or stdout" },
    { "write", cmd_write, "write a VD range from a file or stdin" },
    { "import", cmd_import, "import a foreign configuration (e.g. mdadm's)" },
    { "re-add", cmd_readd, "bring a missing or offline member back (rebuild "
      "or online + check)" },
    { "online", cmd_online, "force a missing or offline member online as "
      "it is" },
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: megaraid-img COMMAND [OPTIONS] DRIVE-IMAGE...\n\n"
            "Commands:\n");
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
    }
    fprintf(f, "\nRun 'megaraid-img COMMAND --help' for a command's options."
            "\n"
            "Exit status: 0 success, 1 error (the message names the image "
            "and the problem),\n2 usage error, 3 'check' found "
            "inconsistent rows.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("megaraid-img %s\n", MEGARAID_IMG_VERSION);
        return 0;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        if (!strcmp(argv[1], cmds[i].name)) {
            return cmds[i].fn(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "megaraid-img: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
