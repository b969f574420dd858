/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the DDF rig of the qtest core, under every host
 * interface: drive images with a DDF configuration written by the RAID
 * core (as megaraid-img does; any layout through rig_write_ddf, one VD
 * plus spares through rig_create), the configuration read back from them
 * (rig_load), and the test pattern with the extents the RAID qtests write.
 * The RAID core's configuration and DDF image code is linked into the
 * qtests that include this (megaraid_qtest_ddf in meson.build).
 */
#ifndef MEGARAID_DDF_RIG_H
#define MEGARAID_DDF_RIG_H

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "raid/config.h"
#include "raid/ddf.h"

#ifndef DRIVE_BYTES                        /* a test may want bigger */
#define DRIVE_BYTES     (16 * 1024 * 1024)
#endif
#define STRIP_SECTORS   128                 /* 64 KiB */
#ifndef MAX_DRIVES
#define MAX_DRIVES      8
#endif

struct RaidHost;

/* The drive images of one test and the configuration written on them. */
typedef struct Rig {
    int n;
    char *path[MAX_DRIVES];
    uint64_t vd_sectors;
    uint32_t seq;               /* DDF sequence number when created */
    struct RaidHost *h;         /* the controller started on them */
} Rig;

/* How rig_write_ddf() lays a configuration onto images. */
typedef struct RigLayout {
    int n;                      /* images */
    int nmem;                   /* [0, nmem): one VD's members; 0: none */
    int nspare;                 /* the next nspare: global hot spares */
    int first_slot;             /* the slot image 0 is recorded in */
    uint64_t drive_bytes;       /* 0: DRIVE_BYTES */
    RaidVdSpec spec;            /* .strip 0: STRIP_SECTORS */
    bool settled;               /* initialized, consistent, no job to run */
} RigLayout;

/*
 * Create (or truncate) the images @path, each drive_bytes, and store the
 * layout's configuration on them as DDF (as megaraid-img does); the rest
 * beyond members and spares stay blank (JBOD).  Returns the VD's size in
 * sectors; *@seq gets the configuration's sequence number.
 */
static inline uint64_t rig_write_ddf(char **path, const RigLayout *l,
                                     uint32_t *seq)
{
    uint64_t bytes = l->drive_bytes ? l->drive_bytes : DRIVE_BYTES;
    RaidVdSpec spec = l->spec;
    uint8_t guid[RAID_GUID_LEN];
    g_autofree int *members = g_new(int, l->nmem + 1);
    GError *err = NULL;
    RaidConfig *cfg;
    uint64_t sectors;
    int v;

    spec.strip = spec.strip ? spec.strip : STRIP_SECTORS;
    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     QTESTHDR", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    for (int i = 0; i < l->n; i++) {
        int fd = open(path[i], O_RDWR | O_CREAT | O_TRUNC, 0600);
        int pd;

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, bytes) == 0);
        close(fd);
        if (i >= l->nmem + l->nspare) {
            continue;
        }
        memcpy(guid, "LSI     QTESTPD ", 16);
        stl_be_p(guid + 16, g_random_int());
        stl_be_p(guid + 20, i);
        pd = raid_config_add_pd(cfg, guid, l->first_slot + i, bytes / 512,
                                &err);
        g_assert_no_error(err);
        g_assert_cmpint(pd, ==, i);
        cfg->pds[pd].path = g_strdup(path[i]);
    }
    if (!l->nmem) {
        /* blank drives only: nothing on them */
        raid_config_free(cfg);
        return 0;
    }
    for (int i = 0; i < l->nmem; i++) {
        members[i] = i;
    }
    v = raid_config_create_vd(cfg, members, l->nmem, &spec, &err);
    g_assert_no_error(err);
    g_assert_cmpint(v, ==, 0);
    for (int i = l->nmem; i < l->nmem + l->nspare; i++) {
        g_assert_true(raid_config_add_spare(cfg, i, -1, &err));
        g_assert_no_error(err);
    }
    if (l->settled) {
        cfg->vds[v].initialized = true;
        cfg->vds[v].consistent = true;
        cfg->vds[v].job.kind = RAID_JOB_NONE;
    }
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    sectors = cfg->vds[v].size;
    if (seq) {
        *seq = cfg->seq;
    }
    raid_config_free(cfg);
    return sectors;
}

/* @n temporary file names (the files exist, empty) for images. */
static inline void rig_tmp_paths(char **path, int n, const char *prefix)
{
    g_autofree char *tmpl = g_strdup_printf("%s-XXXXXX", prefix);

    for (int i = 0; i < n; i++) {
        int fd = g_file_open_tmp(tmpl, &path[i], NULL);

        g_assert(fd >= 0);
        close(fd);
    }
}

/* File @to made to hold what @from holds. */
static inline void rig_copy_file(const char *from, const char *to)
{
    g_autofree gchar *buf = NULL;
    gsize len;

    g_assert_true(g_file_get_contents(from, &buf, &len, NULL));
    g_assert_true(g_file_set_contents(to, buf, len, NULL));
}

/*
 * @c: copies of @r's drive images as they are now, in new files named
 * @prefix-* (what a power cut would leave).
 */
static inline void rig_copy(Rig *c, const Rig *r, const char *prefix)
{
    memset(c, 0, sizeof(*c));
    c->n = r->n;
    c->vd_sectors = r->vd_sectors;
    rig_tmp_paths(c->path, c->n, prefix);
    for (int i = 0; i < r->n; i++) {
        rig_copy_file(r->path[i], c->path[i]);
    }
}

/* Blank images laid out as @l (rig_write_ddf), the rig's record of them. */
static inline void rig_create_layout(Rig *r, const RigLayout *l)
{
    memset(r, 0, sizeof(*r));
    r->n = l->n;
    rig_tmp_paths(r->path, l->n, "megaraid-rig");
    r->vd_sectors = rig_write_ddf(r->path, l, &r->seq);
}

/*
 * @n blank images; drives [0, nmem) form one VD of @level, the next
 * @nspare become global hot spares, the rest stay blank (JBOD).
 */
static inline void rig_create_cached(Rig *r, int n, int nmem, int nspare,
                                     RaidLevel level, uint8_t cache)
{
    RigLayout l = {
        .n = n, .nmem = nmem, .nspare = nspare,
        .spec = {
            .level = level,
            .name = "qtest",
            .cache = RAID_CACHE_READ_ALLOWED | cache,
        },
    };

    rig_create_layout(r, &l);
}

static inline void rig_create(Rig *r, int n, int nmem, int nspare,
                              RaidLevel level)
{
    rig_create_cached(r, n, nmem, nspare, level, 0);
}

static inline void rig_destroy(Rig *r)
{
    for (int i = 0; i < r->n; i++) {
        unlink(r->path[i]);
        g_free(r->path[i]);
    }
}

/* The configuration stored on the images, as megaraid-img would read it. */
static inline RaidConfig *rig_load(Rig *r)
{
    uint8_t guid[RAID_GUID_LEN];
    g_autofree DdfDriveRead *reads = g_new0(DdfDriveRead, r->n);
    GError *err = NULL;
    RaidConfig *cfg;

    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = ddf_load_files(r->path, r->n, guid, reads, &err);
    g_assert_no_error(err);
    g_assert_nonnull(cfg);
    for (int i = 0; i < r->n; i++) {
        g_free(reads[i].error);
        ddf_drive_read_clear(&reads[i]);
    }
    return cfg;
}

/* The test pattern: a function of the VD byte offset and a seed. */
static inline void pattern(uint8_t *buf, uint64_t lba, uint32_t blocks,
                           uint8_t seed)
{
    for (uint64_t i = 0; i < (uint64_t)blocks * 512; i++) {
        uint64_t off = lba * 512 + i;

        buf[i] = (off >> 9) * 131 + (off & 511) * 7 + seed;
    }
}

/*
 * Extents that start inside a strip and end in the next one, cross a
 * full stripe (3 strips of a 4-drive RAID 5) and span several stripes.
 */
static const struct {
    uint64_t lba;
    uint32_t blocks;
    bool cdb16;
} extents[] G_GNUC_UNUSED = {
    { 0, 8, false },                        /* 4 KiB at the start */
    { 120, 16, false },                     /* across a strip boundary */
    { 3 * STRIP_SECTORS - 8, 64, true },    /* across a stripe boundary */
    { 2000, 2048, true },                   /* 1 MiB over several stripes */
    { 9001, 333, false },                   /* odd start and length */
    { 20000, 256, true },                   /* a whole strip, aligned */
};

#endif
