/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Helpers shared by the DDF, job and tool tests: scratch directories of
 * sparse drive images and a configuration written onto them.
 */
#ifndef DDF_TEST_UTIL_H
#define DDF_TEST_UTIL_H

#include "raid/ddf.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define TEST_CTRL_GUID "LSI     MRSIM00000000001"

/* Test @fn on @data as @prefix/LEVEL, LEVEL the name of RAID level @level. */
static inline void test_add_level(const char *prefix, RaidLevel level,
                                  const void *data, GTestDataFunc fn)
{
    g_autofree char *p = g_strdup_printf("%s/%s", prefix,
                                         raid_level_name(level));

    g_test_add_data_func(p, data, fn);
}

/* VD size test_config_new() asks for, in sectors (0: all the space). */
static uint64_t test_vd_size;

typedef struct TestImages {
    char *dir;
    int n;
    char *paths[64];
} TestImages;

static inline void test_images_new(TestImages *t, int n, uint64_t bytes)
{
    GError *err = NULL;

    t->dir = g_dir_make_tmp("ddf-test-XXXXXX", &err);
    g_assert_no_error(err);
    t->n = n;
    for (int i = 0; i < n; i++) {
        int fd;

        t->paths[i] = g_strdup_printf("%s/d%d.img", t->dir, i);
        fd = open(t->paths[i], O_RDWR | O_CREAT | O_TRUNC, 0644);
        g_assert_cmpint(fd, >=, 0);
        g_assert_cmpint(ftruncate(fd, bytes), ==, 0);
        close(fd);
    }
}

static inline void test_images_free(TestImages *t)
{
    for (int i = 0; i < t->n; i++) {
        g_unlink(t->paths[i]);
        g_free(t->paths[i]);
    }
    g_rmdir(t->dir);
    g_free(t->dir);
}

/*
 * A configuration over all images: the first @members in one VD of
 * @level (@spans spans), the rest global hot spares.
 */
static inline RaidConfig *test_config_new(TestImages *t, int members,
                                          RaidLevel level, int spans)
{
    RaidConfig *cfg = raid_config_new((const uint8_t *)TEST_CTRL_GUID);
    RaidVdSpec spec = { .level = level, .nspans = spans, .strip = 128,
                        .size = test_vd_size, .name = "testvd",
                        .cache = RAID_CACHE_READ_AHEAD };
    int pds[64];
    GError *err = NULL;

    memcpy(cfg->header_guid, "LSI     \x10\x00\x00\xa5\x10\x00\x46\x00"
           "HDRGUID1", RAID_GUID_LEN);
    for (int i = 0; i < t->n; i++) {
        uint8_t g[RAID_GUID_LEN];
        GStatBuf st;

        memcpy(g, "LSI     TESTPD  ........", RAID_GUID_LEN);
        g[23] = i;
        g_assert_cmpint(g_stat(t->paths[i], &st), ==, 0);
        pds[i] = raid_config_add_pd(cfg, g, i, st.st_size / 512, &err);
        g_assert_no_error(err);
        cfg->pds[pds[i]].path = g_strdup(t->paths[i]);
    }
    g_assert_cmpint(raid_config_create_vd(cfg, pds, members, &spec, &err),
                    ==, 0);
    g_assert_no_error(err);
    for (int i = members; i < t->n; i++) {
        g_assert_true(raid_config_add_spare(cfg, i, -1, &err));
    }
    return cfg;
}

static inline RaidConfig *test_load(TestImages *t, const char *ctrl,
                                    DdfDriveRead *reads, GError **errp)
{
    DdfDriveRead local[64];
    RaidConfig *cfg;

    memset(local, 0, sizeof(local));
    cfg = ddf_load_files(t->paths, t->n, (const uint8_t *)ctrl,
                         reads ? reads : local, errp);
    if (!reads) {
        for (int i = 0; i < t->n; i++) {
            g_free(local[i].error);
            ddf_drive_read_clear(&local[i]);
        }
    }
    return cfg;
}

static inline void test_reads_clear(DdfDriveRead *r, int n)
{
    for (int i = 0; i < n; i++) {
        g_free(r[i].error);
        ddf_drive_read_clear(&r[i]);
    }
}

#endif
