/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests of the DDF metadata: the CRC convention, encode/decode round
 * trips for every level, which copy wins, a power cut after every write
 * of one drive's metadata (torn or not), a pass over the drives cut
 * short, every header and section
 * corrupted in turn (fall back to the redundant copy or refuse with a
 * message naming the structure), foreign configurations and import, and
 * mdadm --examine on what we write (mdadm is required: scripts/setup.sh
 * installs it, and a cross-check that skips proves nothing).
 */
#include "test-ddf-util.h"

#include <stdio.h>

static void test_crc_vectors(void)
{
    uint8_t buf[512];

    memset(buf, 0xff, sizeof(buf));
    g_assert_cmphex(ddf_crc32(buf, 512), ==, 0x0FD1B6E7);
    g_assert_cmphex(ddf_struct_crc(buf, 512), ==, 0x0FD1B6E7);
    memset(buf, 0, sizeof(buf));
    g_assert_cmphex(ddf_struct_crc(buf, 512), ==, 0xF04492AB);
    memset(buf + 4, 0xff, 4);
    g_assert_cmphex(ddf_crc32(buf, 512), ==, 0xF04492AB);
}

/* Decode what we encode, in memory, and compare the fields. */
static void test_codec_round_trip(void)
{
    g_autoptr(DdfMeta) m = ddf_meta_new(63, 15, 4, 16);
    g_autoptr(DdfMeta) d = NULL;
    DdfVdConf *c;
    uint32_t n = ddf_copy_sectors(m);
    g_autofree uint8_t *buf = g_malloc(n * 512);
    uint8_t anchor[512];
    DdfHeader ah, h;
    GError *err = NULL;

    memcpy(m->guid, "GUIDGUIDGUIDGUIDGUIDGUID", 24);
    m->seq = 7;
    m->timestamp = 1234;
    m->primary_lba = 1000;
    m->secondary_lba = 500;
    memcpy(m->ctrl_guid, "LSI     CTRLCTRLCTRLCTRL", 24);
    m->ctrl_type[1] = 0xa5;
    g_strlcpy(m->product, "Prod", sizeof(m->product));
    memcpy(m->pd[3].guid, "PD3PD3PD3PD3PD3PD3PD3PD3", 24);
    m->pd[3].ref = 0x1234;
    m->pd[3].type = DDF_PDT_ACTIVE;
    m->pd[3].state = DDF_PDS_ONLINE | DDF_PDS_REBUILDING;
    m->pd[3].configured_size = 99999;
    memcpy(m->vd[2].guid, "VD2VD2VD2VD2VD2VD2VD2VD2", 24);
    m->vd[2].init_state = DDF_INIT_FULL;
    g_strlcpy(m->vd[2].name, "name16charsxxxxx", 17);
    c = ddf_meta_add_conf(m);
    memcpy(c->guid, m->vd[2].guid, 24);
    c->seq = 3;
    c->prim_count = 2;
    c->prl = 1;
    c->block_count = 4096;
    c->vd_size = 4096;
    c->refs[0] = 0x1234;
    c->refs[1] = 0x5678;
    c->lbas[1] = 77;
    c->vendor[0] = 0x42;
    m->has_spare = true;
    m->spare.type = 1;
    m->spare.n = 1;
    memcpy(m->spare.e[0].guid, m->vd[2].guid, 24);
    memcpy(m->pdd_guid, m->pd[3].guid, 24);
    m->pdd_ref = 0x1234;

    ddf_encode_anchor(m, anchor);
    ddf_encode_copy(m, DDF_HDR_SECONDARY, buf);
    g_assert_true(ddf_decode_header(anchor, &ah, &err));
    g_assert_true(ddf_decode_header(buf, &h, &err));
    g_assert_true(ddf_header_matches_anchor(&h, &ah, DDF_HDR_SECONDARY, &err));
    g_assert_false(ddf_header_matches_anchor(&h, &ah, DDF_HDR_PRIMARY, NULL));
    g_assert_cmpuint(ah.seq, ==, 0xffffffff);
    g_assert_cmpuint(ah.open_flag, ==, 0xff);
    g_assert_cmpuint(ddf_header_extent(&h), ==, n);
    d = ddf_decode_copy(&h, buf, n * 512, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(d->seq, ==, 7);
    g_assert_cmpmem(d->ctrl_guid, 24, m->ctrl_guid, 24);
    g_assert_cmpstr(d->product, ==, "Prod");
    g_assert_cmpuint(d->pd[3].ref, ==, 0x1234);
    g_assert_cmpuint(d->pd[3].state, ==, DDF_PDS_ONLINE | DDF_PDS_REBUILDING);
    g_assert_cmpuint(d->pd[3].configured_size, ==, 99999);
    g_assert_cmpstr(d->vd[2].name, ==, "name16charsxxxxx");
    g_assert_cmpuint(d->conf->len, ==, 1);
    c = &g_array_index(d->conf, DdfVdConf, 0);
    g_assert_cmpuint(c->refs[1], ==, 0x5678);
    g_assert_cmpuint(c->refs[2], ==, 0xffffffff);
    g_assert_cmpuint(c->lbas[1], ==, 77);
    g_assert_cmpuint(c->vendor[0], ==, 0x42);
    g_assert_true(d->has_spare);
    g_assert_cmpuint(d->spare.n, ==, 1);
    g_assert_cmpuint(d->pdd_ref, ==, 0x1234);
    /* Too short a buffer is refused, not over-read. */
    g_assert_null(ddf_decode_copy(&h, buf, n * 512 - 1, &err));
    g_assert_nonnull(err);
    g_clear_error(&err);
}

static void test_pick_copy(void)
{
    DdfHeader p = { .seq = 5 }, s = { .seq = 5 };

    g_assert_cmpint(ddf_pick_copy(&p, true, &s, true), ==, DDF_HDR_PRIMARY);
    g_assert_cmpint(ddf_pick_copy(&p, false, &s, true), ==,
                    DDF_HDR_SECONDARY);
    g_assert_cmpint(ddf_pick_copy(&p, true, &s, false), ==, DDF_HDR_PRIMARY);
    g_assert_cmpint(ddf_pick_copy(&p, false, &s, false), ==, -1);
    s.seq = 6;
    g_assert_cmpint(ddf_pick_copy(&p, true, &s, true), ==, DDF_HDR_SECONDARY);
    s.open_flag = 1;      /* a newer but unfinished secondary loses */
    g_assert_cmpint(ddf_pick_copy(&p, true, &s, true), ==, DDF_HDR_PRIMARY);
    s.seq = 5;
    s.open_flag = 0;
    p.open_flag = 1;      /* equal, primary left open */
    g_assert_cmpint(ddf_pick_copy(&p, true, &s, true), ==, DDF_HDR_SECONDARY);
}

typedef struct LevelCase {
    RaidLevel level;
    int members, spans, spares;
} LevelCase;

static const LevelCase levels[] = {
    { RAID_LEVEL_0, 3, 0, 0 }, { RAID_LEVEL_1, 2, 0, 1 },
    { RAID_LEVEL_5, 4, 0, 1 }, { RAID_LEVEL_6, 5, 0, 0 },
    { RAID_LEVEL_10, 4, 2, 1 }, { RAID_LEVEL_50, 6, 2, 0 },
    { RAID_LEVEL_60, 8, 2, 1 }, { RAID_LEVEL_JBOD, 1, 0, 0 },
};

static void test_files_round_trip(gconstpointer data)
{
    const LevelCase *lc = data;
    TestImages t;
    RaidConfig *cfg, *back;
    GError *err = NULL;
    DdfDriveRead reads[64] = { 0 };

    test_images_new(&t, lc->members + lc->spares, 40 << 20);
    cfg = test_config_new(&t, lc->members, lc->level, lc->spans);
    cfg->vds[0].job.kind = RAID_JOB_CHECK;
    cfg->vds[0].job.next_row = 17;
    cfg->vds[0].job.total_rows = 100;
    cfg->vds[0].job.mismatches = 2;
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);

    back = test_load(&t, TEST_CTRL_GUID, reads, &err);
    g_assert_no_error(err);
    g_assert_false(back->foreign);
    g_assert_cmpuint(back->seq, ==, cfg->seq);
    g_assert_cmpint(back->npds, ==, cfg->npds);
    g_assert_cmpmem(back->header_guid, 24, cfg->header_guid, 24);
    for (int i = 0; i < cfg->npds; i++) {
        g_assert_cmpint(back->pds[i].state, ==, cfg->pds[i].state);
        g_assert_cmpuint(back->pds[i].ref, ==, cfg->pds[i].ref);
        g_assert_cmpuint(back->pds[i].usable, ==, cfg->pds[i].usable);
        g_assert_true(back->pds[i].present);
        g_assert_cmpint(reads[i].used, ==, DDF_HDR_PRIMARY);
        g_assert_true(reads[i].secondary_ok);
    }
    g_assert_cmpint(raid_config_count_vds(back), ==, 1);
    g_assert_cmpint(back->vds[0].level, ==, lc->level);
    g_assert_cmpstr(back->vds[0].name, ==, "testvd");
    g_assert_cmpuint(back->vds[0].size, ==, cfg->vds[0].size);
    g_assert_cmpuint(back->vds[0].blocks, ==, cfg->vds[0].blocks);
    g_assert_cmpuint(back->vds[0].strip, ==, cfg->vds[0].strip);
    g_assert_cmpuint(back->vds[0].cache, ==, RAID_CACHE_READ_AHEAD);
    g_assert_cmpmem(back->vds[0].guid, 24, cfg->vds[0].guid, 24);
    g_assert_cmpint(raid_vd_nspans(back, 0), ==, raid_vd_nspans(cfg, 0));
    {
        int a[64], b[64];
        int n = raid_vd_members(cfg, 0, a, 64);
        g_assert_cmpint(raid_vd_members(back, 0, b, 64), ==, n);
        g_assert_cmpmem(a, n * sizeof(int), b, n * sizeof(int));
    }
    g_assert_cmpint(back->vds[0].job.kind, ==, RAID_JOB_CHECK);
    g_assert_cmpuint(back->vds[0].job.next_row, ==, 17);
    g_assert_cmpuint(back->vds[0].job.mismatches, ==, 2);
    test_reads_clear(reads, t.n);
    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
}

static void flip(const char *path, uint64_t off)
{
    int fd = open(path, O_RDWR);
    uint8_t b;

    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(pread(fd, &b, 1, off), ==, 1);
    b ^= 0x5a;
    g_assert_cmpint(pwrite(fd, &b, 1, off), ==, 1);
    close(fd);
}

static void copy_file(const char *from, const char *to)
{
    g_autofree char *data = NULL;
    gsize len;

    g_assert_true(g_file_get_contents(from, &data, &len, NULL));
    g_assert_true(g_file_set_contents(to, data, len, NULL));
}

/* Byte offset of a section's first sector in the copy at @lba. */
static uint64_t section_off(const char *path, uint64_t lba, int sec)
{
    int fd = open(path, O_RDONLY);
    uint8_t buf[512];
    DdfHeader h;

    g_assert_cmpint(pread(fd, buf, 512, lba * 512), ==, 512);
    close(fd);
    g_assert_true(ddf_decode_header(buf, &h, NULL));
    return (lba + (sec < 0 ? 0 : h.sec_off[sec])) * 512;
}

static const struct {
    int sec;            /* -1: the header itself */
    unsigned byte;      /* offset into it */
    const char *name;   /* what the error must name */
} damage[] = {
    { -1, 0x08, "DDF header: bad CRC" },
    { -1, 0x00, "bad signature" },
    { DDF_SEC_CTRL, 0x10, "controller data" },
    { DDF_SEC_PHYS, 0x48, "physical disk records" },
    { DDF_SEC_VIRT, 0x50, "virtual disk records" },
    { DDF_SEC_CONF, 0x44, "configuration record" },
    { DDF_SEC_PDD, 0x09, "physical disk data" },
};

static void test_corruption(void)
{
    TestImages t;
    RaidConfig *cfg;
    GError *err = NULL;
    g_autofree char *pristine = NULL;
    uint64_t sectors = (40 << 20) / 512;
    DdfPlacement pl;

    test_images_new(&t, 3, 40 << 20);
    cfg = test_config_new(&t, 3, RAID_LEVEL_5, 0);
    g_assert_true(ddf_store_config(cfg, &err));
    pristine = g_strdup_printf("%s/pristine", t.dir);
    copy_file(t.paths[0], pristine);
    ddf_placement(sectors, 118, &pl);

    for (size_t k = 0; k < G_N_ELEMENTS(damage); k++) {
        for (int copy = 0; copy < 3; copy++) {
            uint64_t plba = pl.primary, slba = pl.secondary;
            DdfDriveRead r[64] = { 0 };
            RaidConfig *back;
            int fd;
            uint64_t bytes;
            bool ok;

            copy_file(pristine, t.paths[0]);
            if (copy != 1) {
                flip(t.paths[0], section_off(pristine, plba, damage[k].sec) +
                     damage[k].byte);
            }
            if (copy != 0) {
                flip(t.paths[0], section_off(pristine, slba, damage[k].sec) +
                     damage[k].byte);
            }
            fd = open(t.paths[0], O_RDONLY);
            g_assert_true(ddf_file_size(fd, &bytes, NULL));
            ok = ddf_read_drive(fd, bytes, &r[0], &err);
            close(fd);
            if (copy < 2) {
                /* One copy damaged: the other one is used. */
                g_assert_no_error(err);
                g_assert_true(ok);
                g_assert_cmpint(r[0].used, ==, copy == 0 ? DDF_HDR_SECONDARY :
                                DDF_HDR_PRIMARY);
                g_assert_nonnull(strstr(copy == 0 ? r[0].primary_err :
                                        r[0].secondary_err, damage[k].name));
            } else {
                /* Both damaged: refused, naming the structure. */
                g_assert_false(ok);
                g_assert_nonnull(err);
                if (!strstr(err->message, damage[k].name)) {
                    g_error("'%s' does not name '%s'", err->message,
                            damage[k].name);
                }
                g_clear_error(&err);
            }
            ddf_drive_read_clear(&r[0]);
            /* The array still loads: degraded if drive 0 lost both copies. */
            back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
            g_assert_no_error(err);
            g_assert_cmpint(back->vds[0].state, ==, copy < 2 ?
                            RAID_VD_OPTIMAL : RAID_VD_DEGRADED);
            raid_config_free(back);
        }
    }

    /* A damaged anchor: refused with a message naming it. */
    copy_file(pristine, t.paths[0]);
    flip(t.paths[0], (sectors - 1) * 512 + 0x30);
    {
        DdfDriveRead r = { 0 };
        int fd = open(t.paths[0], O_RDONLY);

        g_assert_false(ddf_read_drive(fd, 40 << 20, &r, &err));
        close(fd);
        g_assert_nonnull(strstr(err->message, "anchor"));
        g_clear_error(&err);
    }
    /* Every drive unreadable: a clear refusal. */
    copy_file(pristine, t.paths[0]);
    for (int i = 0; i < t.n; i++) {
        flip(t.paths[i], (sectors - 1) * 512 + 0x30);
    }
    g_assert_null(test_load(&t, TEST_CTRL_GUID, NULL, &err));
    g_assert_nonnull(strstr(err->message, "no drive holds valid DDF"));
    g_clear_error(&err);

    g_unlink(pristine);
    raid_config_free(cfg);
    test_images_free(&t);
}

/* Random garbage and random bit flips never crash the decoder. */
static void test_garbage(void)
{
    GRand *rnd = g_rand_new_with_seed(42);
    g_autoptr(DdfMeta) m = ddf_meta_new(255, 255, 16, 64);
    uint32_t n = ddf_copy_sectors(m);
    g_autofree uint8_t *good = g_malloc(n * 512);
    g_autofree uint8_t *buf = g_malloc(n * 512);
    int decoded = 0;

    memcpy(m->pd[0].guid, "PD0PD0PD0PD0PD0PD0PD0PD0", 24);
    ddf_meta_add_conf(m)->prim_count = 3;
    ddf_encode_copy(m, DDF_HDR_PRIMARY, good);
    for (int it = 0; it < 2000; it++) {
        DdfHeader h;
        DdfMeta *d;

        memcpy(buf, good, n * 512);
        for (int k = 0; k < 1 + it % 8; k++) {
            buf[g_rand_int_range(rnd, 0, n * 512)] = g_rand_int(rnd);
        }
        if (it % 2) {
            /* Keep the header valid so the sections are reached. */
            memcpy(buf, good, 512);
        }
        if (!ddf_decode_header(buf, &h, NULL)) {
            continue;
        }
        d = ddf_decode_copy(&h, buf, n * 512, NULL);
        decoded += d != NULL;
        ddf_meta_free(d);
    }
    /* Bit flips in unused 0xFF filler are not covered by... all are. */
    g_assert_cmpint(decoded, <, 2000);
    g_rand_free(rnd);
}

/* The newest drive's global sections win; stale drives still count. */
static void test_newest_wins(void)
{
    TestImages t;
    RaidConfig *cfg, *back;
    GError *err = NULL;
    char *keep;

    test_images_new(&t, 4, 40 << 20);
    cfg = test_config_new(&t, 3, RAID_LEVEL_5, 0);
    g_assert_true(ddf_store_config(cfg, &err));
    /* Drive 3 (the spare) is pulled, then the config changes. */
    keep = cfg->pds[3].path;
    cfg->pds[3].path = NULL;
    g_assert_true(raid_config_fail_pd(cfg, 1, &err));
    g_assert_true(ddf_store_config(cfg, &err));
    cfg->pds[3].path = keep;

    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(back->seq, ==, cfg->seq);
    g_assert_cmpint(back->pds[1].state, ==, RAID_PD_OFFLINE);
    g_assert_cmpint(back->pds[3].state, ==, RAID_PD_HOT_SPARE);
    g_assert_cmpint(back->vds[0].state, ==, RAID_VD_DEGRADED);
    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
}

/* @t's images without image @skip (the paths are @t's). */
static TestImages images_without(const TestImages *t, int skip)
{
    TestImages part = { .dir = t->dir };

    for (int i = 0; i < t->n; i++) {
        if (i != skip) {
            part.paths[part.n++] = t->paths[i];
        }
    }
    return part;
}

/*
 * A member left off at a start is missing but in sync (Online|Missing on
 * the others): back, it is online and the spare unused; once a write
 * made it stale (Failed|Missing), back it is OFFLINE and marked returned
 * (rebuild it onto itself).
 */
static void test_member_back(void)
{
    TestImages t, part;
    RaidConfig *cfg, *back;
    GError *err = NULL;

    test_images_new(&t, 4, 40 << 20);
    cfg = test_config_new(&t, 3, RAID_LEVEL_5, 0);
    g_assert_true(ddf_store_config(cfg, &err));
    raid_config_free(cfg);
    part = images_without(&t, 1);

    for (int written = 0; written < 2; written++) {
        cfg = test_load(&part, TEST_CTRL_GUID, NULL, &err);
        g_assert_no_error(err);
        g_assert_cmpint(cfg->pds[1].state, ==, RAID_PD_MISSING);
        g_assert_true(cfg->pds[1].in_sync);
        if (written) {
            g_assert_true(raid_config_mark_stale(cfg, cfg->vds[0].dg));
            g_assert_false(cfg->pds[1].in_sync);
        }
        g_assert_true(ddf_store_config(cfg, &err));
        raid_config_free(cfg);

        back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
        g_assert_no_error(err);
        g_assert_cmpint(back->pds[3].state, ==, RAID_PD_HOT_SPARE);
        if (!written) {
            g_assert_cmpint(back->pds[1].state, ==, RAID_PD_ONLINE);
            g_assert_cmpint(back->vds[0].state, ==, RAID_VD_OPTIMAL);
        } else {
            g_assert_cmpint(back->pds[1].state, ==, RAID_PD_OFFLINE);
            g_assert_true(back->pds[1].returned);
            g_assert_cmpint(back->vds[0].state, ==, RAID_VD_DEGRADED);
        }
        raid_config_free(back);
    }
    test_images_free(&t);
}

static void test_foreign_import(void)
{
    TestImages t;
    RaidConfig *cfg, *back;
    GError *err = NULL;
    const char *other = "LSI     OTHERCONTROLLER1";

    test_images_new(&t, 3, 40 << 20);
    cfg = test_config_new(&t, 2, RAID_LEVEL_1, 0);
    g_assert_true(ddf_store_config(cfg, &err));
    back = test_load(&t, other, NULL, &err);
    g_assert_no_error(err);
    g_assert_true(back->foreign);
    for (int i = 0; i < back->npds; i++) {
        g_assert_cmpint(back->pds[i].state, ==, RAID_PD_FOREIGN);
    }
    g_assert_cmpint(back->pds[2].foreign_state, ==, RAID_PD_HOT_SPARE);
    /* A foreign configuration is not written back before import. */
    g_assert_false(ddf_store_config(back, &err));
    g_assert_nonnull(strstr(err->message, "import"));
    g_clear_error(&err);
    g_assert_true(raid_config_import(back, (const uint8_t *)other, &err));
    g_assert_false(back->foreign);
    g_assert_cmpint(back->pds[0].state, ==, RAID_PD_ONLINE);
    g_assert_cmpint(back->pds[2].state, ==, RAID_PD_HOT_SPARE);
    g_assert_cmpint(back->vds[0].state, ==, RAID_VD_OPTIMAL);
    g_assert_true(ddf_store_config(back, &err));
    raid_config_free(back);
    /* Now it is the other controller's and foreign to us. */
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_true(back->foreign);
    g_assert_false(raid_config_import(cfg, cfg->ctrl_guid, &err));
    g_clear_error(&err);
    raid_config_free(back);
    raid_config_free(cfg);
    test_images_free(&t);
}

/* The mdadm to run; without one the test fails (never skips). */
static char *find_mdadm(void)
{
    char *p = g_find_program_in_path("mdadm");

    if (!p && g_file_test("/usr/sbin/mdadm", G_FILE_TEST_IS_EXECUTABLE)) {
        p = g_strdup("/usr/sbin/mdadm");
    }
    if (!p) {
        g_test_message("mdadm is not installed (scripts/setup.sh installs "
                       "it): the mdadm cross-check cannot run");
        g_test_fail();
    }
    return p;
}

/* mdadm --examine parses what we write and agrees on the geometry. */
static void test_mdadm_examine(gconstpointer data)
{
    const LevelCase *lc = data;
    g_autofree char *mdadm = find_mdadm();
    TestImages t;
    RaidConfig *cfg;
    GError *err = NULL;
    static const char *const names[] = {
        [RAID_LEVEL_0] = "RAID0", [RAID_LEVEL_1] = "RAID1",
        [RAID_LEVEL_5] = "RAID5", [RAID_LEVEL_6] = "RAID6",
        [RAID_LEVEL_10] = "RAID1",       /* plus a secondary level */
    };

    if (!mdadm) {
        return;
    }
    test_images_new(&t, lc->members + lc->spares, 40 << 20);
    cfg = test_config_new(&t, lc->members, lc->level, lc->spans);
    g_assert_true(ddf_store_config(cfg, &err));
    for (int i = 0; i < t.n; i++) {
        const char *argv[] = { mdadm, "--examine", "--metadata=ddf",
                               t.paths[i], NULL };
        g_autofree char *out = NULL, *errs = NULL;
        g_autofree char *lvl = NULL, *chunk = NULL, *dev = NULL;
        g_autofree char *arr = NULL;
        int status;

        g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL,
                                   G_SPAWN_DEFAULT, NULL, NULL, &out, &errs,
                                   &status, &err));
        if (!g_spawn_check_wait_status(status, NULL)) {
            g_error("mdadm --examine %s failed: %s%s", t.paths[i], out, errs);
        }
        g_assert_nonnull(strstr(out, "Version : 01.02.00"));
        g_assert_nonnull(strstr(out, "(LSI     MRSIM00000000001)"));
        g_assert_null(strstr(errs, "CRC"));
        lvl = g_strdup_printf("Raid Level[0] : %s", names[lc->level]);
        chunk = g_strdup_printf("Chunk Size[0] : %u sectors",
                                cfg->vds[0].strip);
        dev = g_strdup_printf("Device Size[0] : %" G_GUINT64_FORMAT,
                              cfg->vds[0].blocks / 2);
        arr = g_strdup_printf("Array Size[0] : %" G_GUINT64_FORMAT,
                              cfg->vds[0].size / 2);
        g_assert_nonnull(strstr(out, "state[0] : Optimal, Consistent"));
        g_assert_nonnull(strstr(out, "init state[0] : Fully Initialised"));
        if (i < lc->members) {
            if (!strstr(out, lvl) || !strstr(out, dev) || !strstr(out, arr) ||
                (lc->level != RAID_LEVEL_1 && !strstr(out, chunk))) {
                g_error("mdadm output of %s lacks '%s' / '%s' / '%s' / "
                        "'%s':\n%s", t.paths[i], lvl, chunk, dev, arr, out);
            }
            if (lc->level == RAID_LEVEL_10) {
                g_autofree char *pos = g_strdup_printf(
                    "Secondary Position[0] : %d of %d", i / 2, lc->spans);
                g_assert_nonnull(strstr(out, "Secondary Level[0] : Striped"));
                g_assert_nonnull(strstr(out, pos));
            }
        } else {
            g_assert_nonnull(strstr(out, "Global-Spare/Online"));
        }
    }
    raid_config_free(cfg);
    test_images_free(&t);
}

/* Prints encode/decode times (never fails on speed). */
static void test_perf(void)
{
    TestImages t;
    RaidConfig *cfg;
    g_autoptr(DdfMeta) m = NULL;
    uint32_t n;
    g_autofree uint8_t *buf = NULL;
    DdfHeader h;
    gint64 t0;
    const int iters = 200;

    test_images_new(&t, 8, 40 << 20);
    cfg = test_config_new(&t, 8, RAID_LEVEL_60, 2);
    m = ddf_meta_from_config(cfg, 0, 1, 1);
    n = ddf_copy_sectors(m);
    buf = g_malloc(n * 512);
    t0 = g_get_monotonic_time();
    for (int i = 0; i < iters; i++) {
        ddf_encode_copy(m, DDF_HDR_PRIMARY, buf);
    }
    g_test_message("DDF encode of one copy (%u sectors): %.1f us", n,
                   (double)(g_get_monotonic_time() - t0) / iters);
    t0 = g_get_monotonic_time();
    for (int i = 0; i < iters; i++) {
        DdfMeta *d;

        g_assert_true(ddf_decode_header(buf, &h, NULL));
        d = ddf_decode_copy(&h, buf, n * 512, NULL);
        g_assert_nonnull(d);
        ddf_meta_free(d);
    }
    g_test_message("DDF decode of one copy (%u sectors): %.1f us", n,
                   (double)(g_get_monotonic_time() - t0) / iters);
    t0 = g_get_monotonic_time();
    for (int i = 0; i < 20; i++) {
        g_assert_true(ddf_store_config(cfg, NULL));
    }
    g_test_message("store to 8 drive images (fdatasync each copy): %.2f ms",
                   (double)(g_get_monotonic_time() - t0) / 20 / 1000);
    t0 = g_get_monotonic_time();
    for (int i = 0; i < 20; i++) {
        RaidConfig *back = test_load(&t, TEST_CTRL_GUID, NULL, NULL);

        g_assert_nonnull(back);
        raid_config_free(back);
    }
    g_test_message("load from 8 drive images: %.2f ms",
                   (double)(g_get_monotonic_time() - t0) / 20 / 1000);
    raid_config_free(cfg);
    test_images_free(&t);
}

/* mdadm reads our drive states: failed, rebuilding, dedicated spare. */
static void test_mdadm_states(void)
{
    g_autofree char *mdadm = find_mdadm();
    TestImages t;
    RaidConfig *cfg;
    GError *err = NULL;
    const char *argv[] = { NULL, "--examine", "--metadata=ddf", NULL, NULL };
    g_autofree char *out = NULL, *errs = NULL;
    int status;

    if (!mdadm) {
        return;
    }
    test_images_new(&t, 6, 40 << 20);
    cfg = test_config_new(&t, 4, RAID_LEVEL_6, 0);
    g_assert_true(raid_config_remove_spare(cfg, 5, &err));
    g_assert_true(raid_config_add_spare(cfg, 5, cfg->vds[0].dg, &err));
    g_assert_true(raid_config_fail_pd(cfg, 1, &err));
    g_assert_true(raid_config_replace_pd(cfg, 1, 4, &err));
    cfg->vds[0].job.next_row = 3;
    g_assert_true(ddf_store_config(cfg, &err));
    argv[0] = mdadm;
    argv[3] = t.paths[0];
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, &out, &errs, &status, &err));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    if (!strstr(out, "/Offline, Failed") ||
        !strstr(out, "active/Online, Rebuilding") ||
        !strstr(out, "state[0] : Partially Optimal") ||
        !strstr(out, "Raid Devices[0] : 4 (0@0K 4@0K 2@0K 3@0K)")) {
        g_error("mdadm --examine does not show the states:\n%s", out);
    }
    g_free(out);
    g_free(errs);
    argv[3] = t.paths[5];
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, &out, &errs, &status, &err));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    g_assert_nonnull(strstr(out, "spare/Online"));
    raid_config_free(cfg);
    test_images_free(&t);
}

/* ---- a power cut at every step of one drive's metadata write ---- */

/*
 * A drive in memory that takes @budget more writes, the last of them
 * torn (only its first sector reaches the medium) when @torn is set;
 * every write after that fails, as after a power cut.
 */
typedef struct MemDrive {
    uint8_t *buf;
    uint64_t bytes;
    int budget;
    bool torn;
    int writes;                 /* writes asked for */
} MemDrive;

static int mem_read(void *opaque, uint64_t offset, void *buf, size_t len)
{
    MemDrive *d = opaque;

    memcpy(buf, d->buf + offset, len);
    return 0;
}

static int mem_write(void *opaque, uint64_t offset, const void *buf,
                     size_t len)
{
    MemDrive *d = opaque;

    d->writes++;
    if (d->budget <= 0) {
        return -EIO;
    }
    if (--d->budget == 0 && d->torn) {
        memcpy(d->buf + offset, buf, 512);
        return -EIO;
    }
    memcpy(d->buf + offset, buf, len);
    return 0;
}

static DdfDriveIO mem_io(MemDrive *d)
{
    return (DdfDriveIO) {
        .read = mem_read, .write = mem_write, .opaque = d, .bytes = d->bytes,
    };
}

/*
 * What drive @pd of @cfg reads as after its metadata @to was written
 * over @old (NULL: a blank drive) with a power cut after each write, torn
 * or not: always @old's configuration (or nothing on a blank drive) or
 * @to's, never a drive without valid metadata.
 */
static void torn_writes(uint64_t bytes, DdfMeta *old, DdfMeta *to)
{
    g_autofree uint8_t *before = g_malloc0(bytes);
    MemDrive d = { .bytes = bytes, .budget = INT_MAX };
    DdfDriveIO io = mem_io(&d);
    int total;

    d.buf = before;
    if (old) {
        g_assert_true(ddf_drive_write(&io, old, NULL));
    }
    d.buf = g_malloc(bytes);
    memcpy(d.buf, before, bytes);
    d.writes = 0;
    g_assert_true(ddf_drive_write(&io, to, NULL));
    total = d.writes;
    g_assert_cmpint(total, >=, 5);
    for (int k = 0; k <= total; k++) {
        for (int torn = 0; torn < 2; torn++) {
            DdfDriveRead rd;
            GError *err = NULL;
            bool ok;

            memcpy(d.buf, before, bytes);
            d.budget = k;
            d.torn = torn && k > 0;
            g_assert_cmpint(ddf_drive_write(&io, to, NULL), ==,
                            k == total && !d.torn);
            ok = ddf_drive_read(&io, &rd, &err);
            if (!ok) {
                g_test_message("power cut after write %d%s: %s", k,
                               d.torn ? " (torn)" : "", err->message);
                g_assert_null(old);
                g_clear_error(&err);
                continue;
            }
            if (rd.meta->seq - (rd.meta->open_flag ? 1 : 0) == to->seq) {
                g_assert_cmpuint(rd.meta->max_part, ==, to->max_part);
            } else {
                g_assert_nonnull(old);
                g_assert_cmpuint(rd.meta->seq - (rd.meta->open_flag ? 1 : 0),
                                 <=, old->seq);
                g_assert_cmpuint(rd.meta->max_part, ==, old->max_part);
            }
            ddf_drive_read_clear(&rd);
        }
    }
    /* after the whole write: the new one, closed */
    d.budget = INT_MAX;
    g_assert_true(ddf_drive_write(&io, to, NULL));
    g_free(d.buf);
}

static void test_torn_write(void)
{
    TestImages t;
    RaidConfig *cfg;
    uint64_t bytes = 40 << 20;
    g_autoptr(DdfMeta) a = NULL;
    g_autoptr(DdfMeta) b = NULL;
    g_autoptr(DdfMeta) small = NULL;

    test_images_new(&t, 3, bytes);
    cfg = test_config_new(&t, 3, RAID_LEVEL_5, 0);
    a = ddf_meta_from_config(cfg, 1, 7, 1000);
    g_assert_true(raid_config_fail_pd(cfg, 0, NULL));
    b = ddf_meta_from_config(cfg, 1, 8, 1001);
    /* the same layout, a newer configuration */
    torn_writes(bytes, a, b);
    /* a blank drive: nothing, or the whole of it */
    torn_writes(bytes, NULL, b);
    /* another writer's layout (fewer partitions) at the same LBAs */
    small = ddf_meta_from_config(cfg, 1, 7, 1000);
    small->max_part = 4;
    torn_writes(bytes, small, b);
    raid_config_free(cfg);
    test_images_free(&t);
}

/* Write @cfg's next sequence number onto drive @pd only (a pass cut short). */
static void store_one(RaidConfig *cfg, int pd, uint32_t seq)
{
    g_autoptr(DdfMeta) m = ddf_meta_from_config(cfg, pd, seq, 1234);
    uint64_t bytes;
    int fd = open(cfg->pds[pd].path, O_RDWR);

    g_assert_cmpint(fd, >=, 0);
    g_assert_true(ddf_file_size(fd, &bytes, NULL));
    g_assert_true(ddf_write_drive(fd, bytes, m, NULL));
    close(fd);
}

/*
 * A VD created while the controller wrote its drives one after another,
 * cut short after one drive outside the new VD: the newest global
 * sections name a VD whose records are on no drive.  The import takes
 * the configuration of the pass before (every other drive has it) and
 * continues the sequence numbers above the interrupted pass.
 */
static void test_interrupted_pass(void)
{
    TestImages t;
    RaidConfig *cfg, *back;
    RaidVdSpec spec = { .level = RAID_LEVEL_1, .strip = 128, .name = "new",
                        .cache = RAID_CACHE_READ_AHEAD };
    int pair[2] = { 2, 3 };
    GError *err = NULL;
    RaidConfig *before;
    uint32_t old_seq;

    test_images_new(&t, 4, 40 << 20);
    test_vd_size = 0;
    cfg = test_config_new(&t, 2, RAID_LEVEL_1, 0);
    /* drives 2 and 3 were spares: make them unconfigured, stored */
    g_assert_true(raid_config_remove_spare(cfg, 2, &err));
    g_assert_true(raid_config_remove_spare(cfg, 3, &err));
    g_assert_true(ddf_store_config(cfg, &err));
    old_seq = cfg->seq;
    before = raid_config_dup(cfg);
    g_assert_cmpint(raid_config_create_vd(cfg, pair, 2, &spec, &err), ==, 1);
    g_assert_no_error(err);
    /* the next pass reached drive 0 only */
    store_one(cfg, 0, old_seq + 1);

    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_nonnull(back);
    g_assert_true(back->vds[0].used);
    g_assert_false(back->vds[1].used);
    g_assert_cmpint(back->vds[0].state, ==, RAID_VD_OPTIMAL);
    g_assert_cmpint(back->pds[2].state, ==, RAID_PD_UNCONF_GOOD);
    /* the next write is newer than drive 0's interrupted one */
    g_assert_cmpuint(back->seq, ==, old_seq + 1);
    raid_config_free(back);

    /* not the pass before (drive 1 two behind): refused, naming the VD */
    for (int i = 1; i < 4; i++) {
        store_one(before, i, old_seq - 1);
    }
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_null(back);
    g_assert_nonnull(strstr(err->message, "no drive holds"));
    g_clear_error(&err);

    /* the whole pass: the new VD is there */
    g_assert_true(ddf_store_config(cfg, &err));
    back = test_load(&t, TEST_CTRL_GUID, NULL, &err);
    g_assert_no_error(err);
    g_assert_true(back->vds[1].used);
    raid_config_free(back);
    raid_config_free(before);
    raid_config_free(cfg);
    test_images_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ddf/crc", test_crc_vectors);
    g_test_add_func("/ddf/codec-round-trip", test_codec_round_trip);
    g_test_add_func("/ddf/pick-copy", test_pick_copy);
    for (size_t i = 0; i < G_N_ELEMENTS(levels); i++) {
        test_add_level("/ddf/files-round-trip", levels[i].level, &levels[i],
                       test_files_round_trip);
    }
    g_test_add_func("/ddf/corruption", test_corruption);
    g_test_add_func("/ddf/garbage", test_garbage);
    g_test_add_func("/ddf/newest-wins", test_newest_wins);
    g_test_add_func("/ddf/torn-write", test_torn_write);
    g_test_add_func("/ddf/interrupted-pass", test_interrupted_pass);
    g_test_add_func("/ddf/foreign-import", test_foreign_import);
    g_test_add_func("/ddf/member-back", test_member_back);
    g_test_add_func("/ddf/perf", test_perf);
    g_test_add_func("/ddf/mdadm-states", test_mdadm_states);
    for (size_t i = 0; i < 5; i++) {
        test_add_level("/ddf/mdadm-examine", levels[i].level, &levels[i],
                       test_mdadm_examine);
    }
    return g_test_run();
}
