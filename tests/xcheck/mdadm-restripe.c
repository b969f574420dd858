/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cross-check of the RAID 5 / RAID 6 layouts against mdadm's own striping
 * code: arrays are written through the core's planner on image files, then
 * mdadm's save_stripes() (restripe.c, built from Debian's mdadm source by
 * mdadm-restripe.sh, not part of this project) reads the VD back with md's
 * left-symmetric (layout 2) and DDF rotating-N-continue (layout 10)
 * geometry, also with every member and every pair of members missing so
 * that it reconstructs through P and through Q in DDF order.  Its output
 * must equal the data written.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "raid/raid.h"

/* mdadm's restripe.c (declared here, linked from mdadm's source) */
int save_stripes(int *source, unsigned long long *offsets, int raid_disks,
                 int chunk_size, int level, int layout, int nwrites,
                 int *dest, unsigned long long start,
                 unsigned long long length, char *buf);
const char Name[] = "xcheck";

#define STRIP 128u
#define ROWS 6u
#define MD_LEFT_SYMMETRIC 2
#define MD_ROTATING_N_CONTINUE 10

static int failures, checks;

static void compare(const char *what, int level, int n, int *fds,
                    unsigned long long *offs, const RaidLayout *l,
                    const uint8_t *ref, const char *dir)
{
    g_autofree char *path = g_strdup_printf("%s/out", dir);
    size_t len = l->vd_sectors * 512;
    uint8_t *got = g_malloc(len);
    char *buf = g_malloc((size_t)n * STRIP * 512);
    int out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    int rv;

    rv = save_stripes(fds, offs, n, STRIP * 512, level,
                      level == 5 ? MD_LEFT_SYMMETRIC : MD_ROTATING_N_CONTINUE,
                      1, &out, 0, len, buf);
    checks++;
    if (rv || pread(out, got, len, 0) != (ssize_t)len ||
        memcmp(got, ref, len)) {
        failures++;
        printf("FAIL raid%d n=%d %s (save_stripes %d)\n", level, n, what, rv);
    }
    close(out);
    g_unlink(path);
    g_free(got);
    g_free(buf);
}

static void run(int level, int n, const char *dir)
{
    uint64_t data[32], start[32];
    RaidLayoutDesc d = {
        .level = level == 5 ? RAID_LEVEL_5 : RAID_LEVEL_6, .strip = STRIP,
        .span_members = n, .member_data_sectors = data, .member_start = start,
    };
    RaidLayout l;
    RaidMemberState st[32] = { 0 };
    RaidFileExec fx = { .members = n };
    unsigned long long offs[32];
    int fds[32];
    uint8_t *ref, *w;
    GRand *r = g_rand_new_with_seed(level * 100 + n);

    for (int m = 0; m < n; m++) {
        g_autofree char *path = g_strdup_printf("%s/m%d", dir, m);

        start[m] = 64 * m;          /* DDF per-member starting LBAs */
        data[m] = start[m] + ROWS * STRIP;
        offs[m] = start[m] * 512;
        fx.fd[m] = fds[m] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
        g_unlink(path);
    }
    if (!raid_layout_init(&l, &d, NULL)) {
        abort();
    }
    ref = g_malloc(l.vd_sectors * 512);
    w = g_malloc(l.vd_sectors * 512);
    for (size_t i = 0; i < l.vd_sectors * 512; i++) {
        ref[i] = g_rand_int(r);
    }
    /* a full write, then random overwrites (RMW and RCW paths) */
    if (raid_file_exec_request(&fx, &l, st, &(RaidRequest){ RAID_OP_WRITE, 0,
                               l.vd_sectors }, RAID_WRITE_AUTO, ref)) {
        abort();
    }
    for (int i = 0; i < 200; i++) {
        uint64_t cnt = g_rand_int_range(r, 1, 3 * STRIP);
        uint64_t lba = g_rand_int_range(r, 0, l.vd_sectors - cnt + 1);

        for (size_t j = 0; j < cnt * 512; j++) {
            w[j] = g_rand_int(r);
        }
        if (raid_file_exec_request(&fx, &l, st, &(RaidRequest){
                                   RAID_OP_WRITE, lba, cnt },
                                   g_rand_int_range(r, 0, 3), w)) {
            abort();
        }
        memcpy(ref + lba * 512, w, cnt * 512);
    }

    compare("all members", level, n, fds, offs, &l, ref, dir);
    for (int a = 0; a < n; a++) {
        int f[32];
        char what[64];

        memcpy(f, fds, sizeof(f));
        f[a] = -1;
        snprintf(what, sizeof(what), "member %d missing", a);
        compare(what, level, n, f, offs, &l, ref, dir);
        for (int b = a + 1; level == 6 && b < n; b++) {
            f[b] = -1;
            snprintf(what, sizeof(what), "members %d,%d missing", a, b);
            compare(what, level, n, f, offs, &l, ref, dir);
            f[b] = fds[b];
        }
    }
    for (int m = 0; m < n; m++) {
        close(fds[m]);
    }
    g_free(ref);
    g_free(w);
    g_rand_free(r);
}

int main(void)
{
    g_autofree char *dir = g_dir_make_tmp("xcheck-XXXXXX", NULL);

    for (int n = 3; n <= 8; n++) {
        run(5, n, dir);
    }
    for (int n = 4; n <= 8; n++) {
        run(6, n, dir);
    }
    g_rmdir(dir);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
