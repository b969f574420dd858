/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * End-to-end tests of the megaraid-img tool on small sparse images:
 * create, show (human and JSON), write/read, fail, degraded read,
 * replace, interrupted and resumed rebuild, check, import of an
 * mdadm-style foreign DDF set, error messages naming the file and the
 * problem with the documented exit status (1; usage errors 2; check 3),
 * the refusals that keep the tool off images it must not touch (other
 * formats than raw, one image named twice, a VD that does not exist, a
 * file system or partition table under create; the image locks are
 * tested against a running QEMU in tests/qtest/megaraid-img-test.c),
 * and --help for every subcommand.  A self-test shows that the failure
 * check refuses a crash, a wrong status and a missing message.
 */
#include "test-ddf-util.h"
#include "raid/raid.h"
#include "../qtest/megaraid-run-tool.h"

#include <stdarg.h>

static const char *tool;

/* megaraid-img with the given arguments (NULL-terminated) */
#define run(...) run_tool(tool, __VA_ARGS__)

/* "exit status N" or "killed by signal N (NAME)", for messages. */
static char *run_how(const Run *r)
{
    if (r->exited) {
        return g_strdup_printf("exit status %d", r->status);
    }
    return g_strdup_printf("killed by signal %d (%s)", r->signo,
                           g_strsignal(r->signo));
}

#define EXPECT_OK(r) do { \
        if (!(r).exited || (r).status) { \
            g_autofree char *how_ = run_how(&(r)); \
            g_error("megaraid-img failed (%s): %s%s", how_, (r).out, \
                    (r).err); \
        } \
    } while (0)

/*
 * Did the command fail the documented way: a normal exit with status want
 * (1 for errors, 2 for usage errors, 3 for inconsistent rows) and stderr
 * naming n1 and n2 (n2 may be NULL)?  If not, why says what was wrong.
 */
static bool failed_as_expected(const Run *r, int want, const char *n1,
                               const char *n2, char **why)
{
    g_autofree char *how = run_how(r);

    if (!r->exited) {
        *why = g_strdup_printf("crashed (%s) instead of exit status %d",
                               how, want);
    } else if (r->status != want) {
        *why = g_strdup_printf("%s, not %d", how, want);
    } else if (!strstr(r->err, n1) || (n2 && !strstr(r->err, n2))) {
        *why = g_strdup_printf("%s, but stderr does not name '%s'%s%s%s",
                               how, n1, n2 ? " and '" : "", n2 ? n2 : "",
                               n2 ? "'" : "");
    } else {
        *why = NULL;
        return true;
    }
    return false;
}

static void expect_fail(int want, Run r, const char *n1, const char *n2)
{
    g_autofree char *why = NULL;

    if (!failed_as_expected(&r, want, n1, n2, &why)) {
        g_error("expected a failure with status %d naming '%s' and '%s': "
                "%s\n%s%s", want, n1, n2 ? n2 : "", why, r.out, r.err);
    }
    run_clear(&r);
}

static void expect_out(Run r, const char *needle)
{
    EXPECT_OK(r);
    if (!strstr(r.out, needle)) {
        g_error("output lacks '%s':\n%s", needle, r.out);
    }
    run_clear(&r);
}

static void test_help(void)
{
    static const char *const cmds[] = {
        "create", "add-vd", "add-dg", "delete-vd", "show", "fail", "replace",
        "spare", "rebuild", "check",
        "init", "read", "write", "import", "re-add", "online",
    };
    Run r = run("--help", NULL);

    EXPECT_OK(r);
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        g_assert_nonnull(strstr(r.out, cmds[i]));
    }
    run_clear(&r);
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        r = run(cmds[i], "--help", NULL);
        EXPECT_OK(r);
        g_assert_nonnull(strstr(r.out, "Usage:"));
        g_assert_nonnull(strstr(r.out, "--serial"));
        run_clear(&r);
    }
    r = run("frobnicate", NULL);
    g_assert_cmpint(r.status, ==, 2);
    g_assert_nonnull(strstr(r.err, "unknown command 'frobnicate'"));
    run_clear(&r);
}

static char *write_random(const char *dir, const char *name, size_t len,
                          char **data)
{
    char *path = g_build_filename(dir, name, NULL);
    GRand *rnd = g_rand_new_with_seed(len);

    *data = g_malloc(len);
    for (size_t i = 0; i < len; i++) {
        (*data)[i] = g_rand_int(rnd);
    }
    g_assert_true(g_file_set_contents(path, *data, len, NULL));
    g_rand_free(rnd);
    return path;
}

static void expect_read(const char *dir, const char *data, size_t len,
                        const char *off, char **imgs)
{
    g_autofree char *out = g_build_filename(dir, "out.bin", NULL);
    g_autofree char *got = NULL;
    g_autofree char *lens = g_strdup_printf("%zu", len);
    gsize n;
    Run r = run("read", "-o", off, "-l", lens, "-O", out, imgs[0], imgs[1],
                imgs[2], imgs[3], imgs[4], NULL);

    EXPECT_OK(r);
    run_clear(&r);
    g_assert_true(g_file_get_contents(out, &got, &n, NULL));
    g_assert_cmpuint(n, ==, len);
    g_assert_true(memcmp(got, data, len) == 0);
}

static void test_lifecycle(void)
{
    TestImages t;
    g_autofree char *data = NULL, *in = NULL;
    char *d[5];
    Run r;

    test_images_new(&t, 0, 0);
    for (int i = 0; i < 5; i++) {
        d[i] = g_strdup_printf("%s/d%d.img", t.dir, i);
    }
    r = run("create", "-l", "raid5", "-s", "64", "--drive-size", "40M",
            "--hot-spare", d[4], "--name", "data", d[0], d[1], d[2], d[3],
            NULL);
    expect_out(r, "RAID5, 4 drives, strip 64 KiB");
    r = run("show", "--json", d[0], d[1], d[2], d[3], d[4], NULL);
    EXPECT_OK(r);
    g_assert_nonnull(strstr(r.out, "\"level\":\"RAID5\""));
    g_assert_nonnull(strstr(r.out, "\"state\":\"optimal\""));
    g_assert_nonnull(strstr(r.out, "\"name\":\"data\""));
    g_assert_nonnull(strstr(r.out, "\"state\":\"hot-spare\""));
    g_assert_nonnull(strstr(r.out, "\"foreign\":false"));
    run_clear(&r);

    in = write_random(t.dir, "in.bin", 3 << 20, &data);
    r = run("write", "-o", "320K", "-i", in, d[0], d[1], d[2], d[3], d[4],
            NULL);
    EXPECT_OK(r);
    run_clear(&r);
    expect_read(t.dir, data, 3 << 20, "320K", d);
    expect_out(run("check", d[0], d[1], d[2], d[3], d[4], NULL),
               "0 inconsistent row(s)");

    /* A member fails: reads go through parity. */
    expect_out(run("fail", "-d", d[1], d[0], d[1], d[2], d[3], d[4], NULL),
               "offline");
    expect_out(run("show", d[0], d[1], d[2], d[3], d[4], NULL), "degraded");
    expect_read(t.dir, data, 3 << 20, "320K", d);
    expect_fail(1, run("check", d[0], d[1], d[2], d[3], d[4], NULL),
                "needs an optimal VD", NULL);

    /* The hot spare takes over; the rebuild is interrupted and resumed. */
    expect_out(run("replace", "-d", d[1], d[0], d[1], d[2], d[3], d[4], NULL),
               "rebuild pending");
    expect_out(run("rebuild", "--max-rows", "20", d[0], d[1], d[2], d[3],
                   d[4], NULL), "stopped at row 20");
    expect_out(run("show", "--json", d[0], d[1], d[2], d[3], d[4], NULL),
               "\"kind\":\"rebuild\",\"next_row\":20");
    expect_read(t.dir, data, 3 << 20, "320K", d);
    expect_out(run("rebuild", d[0], d[1], d[2], d[3], d[4], NULL),
               "resuming rebuild at row 20");
    expect_out(run("show", d[0], d[1], d[2], d[3], d[4], NULL),
               "RAID5, optimal");
    expect_out(run("check", d[0], d[1], d[2], d[3], d[4], NULL),
               "0 inconsistent row(s)");
    /* The rebuilt drive holds the data: lose another member. */
    expect_out(run("fail", "-d", d[0], d[0], d[1], d[2], d[3], d[4], NULL),
               "offline");
    expect_read(t.dir, data, 3 << 20, "320K", d);

    /* Mistakes are named. */
    expect_fail(1, run("read", "-o", "100", d[0], d[1], d[2], d[3], d[4], NULL),
                "multiples of 512", NULL);
    expect_fail(1, run("read", "-o", "1T", d[0], d[1], d[2], d[3], d[4], NULL),
                "beyond the end of VD 0", NULL);
    expect_fail(1, run("fail", "-d", "/nonexistent.img", d[0], d[2], NULL),
                "/nonexistent.img", "not among the drive images");
    expect_fail(1, run("create", "-l", "raid5", d[0], d[2], d[3], NULL),
                d[0], "already holds DDF metadata");
    {
        /* Drives of two different arrays given together. */
        g_autofree char *o0 = g_strdup_printf("%s/o0.img", t.dir);
        g_autofree char *o1 = g_strdup_printf("%s/o1.img", t.dir);

        expect_out(run("create", "-l", "raid1", "--drive-size", "40M", o0,
                       o1, NULL), "RAID1");
        expect_fail(1, run("show", d[0], o0, NULL), o0,
                    "belong to different DDF containers");
        g_unlink(o0);
        g_unlink(o1);
    }
    g_unlink(in);
    g_free(in);
    in = g_build_filename(t.dir, "out.bin", NULL);
    g_unlink(in);
    for (int i = 0; i < 5; i++) {
        g_unlink(d[i]);
        g_free(d[i]);
    }
    test_images_free(&t);
}

static void test_create_errors(void)
{
    TestImages t;
    g_autofree char *missing = NULL, *blank = NULL;

    test_images_new(&t, 3, 40 << 20);
    missing = g_strdup_printf("%s/missing.img", t.dir);
    expect_fail(1, run("create", "-l", "raid1", t.paths[0], missing, NULL),
                missing, "cannot open");
    expect_fail(1, run("create", "-l", "raid5", t.paths[0], t.paths[1], NULL),
                "at least 3 drives per span", NULL);
    expect_fail(2, run("create", "-l", "raid7", t.paths[0], NULL),
                "unknown RAID level 'raid7'", NULL);
    expect_fail(1, run("create", "-l", "raid0", "-s", "32", t.paths[0], NULL),
                "64 KiB to 1 MiB", NULL);
    expect_fail(2, run("create", "-l", "raid1", t.paths[0], t.paths[0], NULL),
                "given twice", NULL);
    expect_fail(1, run("show", t.paths[0], t.paths[1], NULL),
                "no drive holds valid DDF", t.paths[0]);
    blank = g_strdup_printf("%s/small.img", t.dir);
    expect_fail(1, run("create", "-l", "raid0", "--drive-size", "1M", blank,
                    NULL), blank, "too small");
    g_unlink(blank);
    g_unlink(missing);
    test_images_free(&t);
}

/* A pulled drive: missing, degraded reads, replaced by index, rebuilt. */
static void test_missing_drive(void)
{
    TestImages t;
    g_autofree char *data = NULL, *in = NULL, *out = NULL, *got = NULL;
    gsize n;
    Run r;

    test_images_new(&t, 4, 40 << 20);
    expect_out(run("create", "-l", "raid6", "-s", "64", "--size", "4M",
                   t.paths[0], t.paths[1], t.paths[2], NULL), "RAID6");
    in = write_random(t.dir, "in.bin", 4 << 20, &data);
    out = g_build_filename(t.dir, "out.bin", NULL);
    expect_out(run("write", "-i", in, t.paths[0], t.paths[1], t.paths[2],
                   NULL), "");
    /* Drive 1 is not given any more; a blank drive 3 is. */
    r = run("show", "--json", t.paths[0], t.paths[2], t.paths[3], NULL);
    EXPECT_OK(r);
    g_assert_nonnull(strstr(r.out, "\"state\":\"missing\""));
    g_assert_nonnull(strstr(r.out, "\"state\":\"partially-degraded\""));
    g_assert_nonnull(strstr(r.out, "\"unconfigured_images\":[{\"file\""));
    run_clear(&r);
    expect_out(run("read", "-O", out, t.paths[0], t.paths[2], t.paths[3],
                   NULL), "");
    g_assert_true(g_file_get_contents(out, &got, &n, NULL));
    g_assert_true(n == (4 << 20) && memcmp(got, data, n) == 0);
    g_clear_pointer(&got, g_free);
    expect_fail(1, run("replace", "-x", "9", t.paths[0], t.paths[2], t.paths[3],
                    NULL), "drive index 9 does not exist", NULL);
    expect_out(run("replace", "-x", "1", "-w", t.paths[3], t.paths[0],
                   t.paths[2], t.paths[3], NULL), "rebuild pending");
    expect_out(run("rebuild", t.paths[0], t.paths[2], t.paths[3], NULL),
               "rebuild finished");
    expect_out(run("show", t.paths[0], t.paths[2], t.paths[3], NULL),
               "RAID6, optimal");
    /* Without drive 2: the rebuilt drive serves its strips directly. */
    expect_out(run("read", "-O", out, t.paths[0], t.paths[3], NULL), "");
    g_assert_true(g_file_get_contents(out, &got, &n, NULL));
    g_assert_true(n == (4 << 20) && memcmp(got, data, n) == 0);
    g_unlink(in);
    g_unlink(out);
    test_images_free(&t);
}

/* Up to 16 VDs share a drive group; the 17th is refused by name. */
static void test_vds_per_group(void)
{
    TestImages t;
    Run r;
    int count = 0;

    test_images_new(&t, 2, 40 << 20);
    expect_out(run("create", "-l", "raid1", "--size", "1M", t.paths[0],
                   t.paths[1], NULL), "RAID1");
    for (int i = 1; i < 16; i++) {
        expect_out(run("add-vd", "-l", "raid1", "--size", "1M", t.paths[0],
                       t.paths[1], NULL), "on drive group 0");
    }
    expect_fail(1, run("add-vd", "-l", "raid1", "--size", "1M", t.paths[0],
                    t.paths[1], NULL), "at most 16 VDs per drive group",
                NULL);
    expect_fail(1, run("add-vd", "-l", "raid5", t.paths[0], t.paths[1], NULL),
                "at least 3 drives per span", NULL);
    expect_out(run("delete-vd", "-v", "3", t.paths[0], t.paths[1], NULL),
               "deleted VD 3");
    expect_fail(1, run("delete-vd", "-v", "3", t.paths[0], t.paths[1], NULL),
                "VD 3 does not exist", NULL);
    r = run("show", "--json", t.paths[0], t.paths[1], NULL);
    EXPECT_OK(r);
    for (const char *p = r.out; (p = strstr(p, "\"drive_group\":0")); p++) {
        count++;
    }
    g_assert_cmpint(count, ==, 15);
    g_assert_null(strstr(r.out, "\"index\":3,\"name\""));
    run_clear(&r);
    /* The freed VD number and extent are taken again. */
    expect_out(run("add-vd", "-l", "raid1", "--size", "1M", t.paths[0],
                   t.paths[1], NULL), "created VD 3");
    test_images_free(&t);
}

/*
 * Rewrite the metadata of a configuration the way mdadm lays it out
 * (Linux-MD GUIDs, 1023 PD / 255 VD entries, 256 elements per record,
 * copies 16 and 32 MiB before the end, SRL 03 for RAID 10).
 */
static void make_mdadm_style(RaidConfig *cfg)
{
    for (int i = 0; i < cfg->npds; i++) {
        g_autoptr(DdfMeta) ours = ddf_meta_from_config(cfg, i, 5, 1000);
        g_autoptr(DdfMeta) m = ddf_meta_new(1023, 255, 64, 256);
        uint64_t n = cfg->pds[i].sectors;
        int fd;

        memcpy(m->guid, "Linux-MD\xde\xad\xbe\xef\0\0\0\0TTTTRRRR", 24);
        m->seq = 5;
        m->timestamp = 1000;
        m->primary_lba = n - 32768;
        m->secondary_lba = n - 65536;
        m->ws_lba = n - 65536;
        m->ws_len = 32768;
        memcpy(m->ctrl_guid, "Linux-MD                ", 24);
        m->ctrl_type[0] = 0xffff;
        g_strlcpy(m->product, "mdadm", 17);
        for (int k = 0; k < cfg->npds; k++) {
            m->pd[k] = ours->pd[k];
            m->pd[k].type = (ours->pd[k].type & DDF_PDT_ACTIVE) ? 3 :
                            ours->pd[k].type;
            m->pd[k].configured_size = n - 65536;
        }
        m->vd[0] = ours->vd[0];
        for (guint k = 0; k < ours->conf->len; k++) {
            const DdfVdConf *o = &g_array_index(ours->conf, DdfVdConf, k);
            DdfVdConf *c = ddf_meta_add_conf(m);
            uint32_t *refs = c->refs;
            uint64_t *lbas = c->lbas;

            *c = *o;
            c->nelem = 256;
            c->refs = refs;
            c->lbas = lbas;
            memcpy(c->refs, o->refs, 4 * o->nelem);
            memcpy(c->lbas, o->lbas, 8 * o->nelem);
            memset(c->vendor, 0xff, 32);
            if (c->sec_count > 1) {
                c->srl = 0x03;
            }
        }
        memcpy(m->pdd_guid, ours->pdd_guid, 24);
        m->pdd_ref = ours->pdd_ref;
        fd = open(cfg->pds[i].path, O_RDWR);
        g_assert_true(ddf_write_drive(fd, n * 512, m, NULL));
        close(fd);
    }
}

/* Two drive groups in one configuration: add-dg beside create. */
static void test_add_dg(void)
{
    TestImages t;
    g_autofree char *out = NULL;
    char *in[2], *data[2];
    Run r;

    test_images_new(&t, 6, 40 << 20);
    out = g_build_filename(t.dir, "out.bin", NULL);
    expect_out(run("create", "-l", "raid1", t.paths[0], t.paths[1], NULL),
               "RAID1");
    expect_out(run("add-dg", "-l", "raid5", "-m", t.paths[2], "-m",
                   t.paths[3], "-m", t.paths[4], "--dedicated-spare",
                   t.paths[5], t.paths[0], t.paths[1], t.paths[2],
                   t.paths[3], t.paths[4], t.paths[5], NULL),
               "drive group 1 of 3 drives");
    /* a member of the first group cannot join the second */
    expect_fail(1, run("add-dg", "-l", "raid1", "-m", t.paths[0], "-m",
                    t.paths[5], t.paths[0], t.paths[1], t.paths[2],
                    t.paths[3], t.paths[4], t.paths[5], NULL),
                "is online, not unconfigured-good", NULL);
    expect_fail(2, run("add-dg", "-l", "raid5", t.paths[0], NULL),
                "at least one --member", NULL);
    r = run("show", "--json", t.paths[0], t.paths[1], t.paths[2],
            t.paths[3], t.paths[4], t.paths[5], NULL);
    EXPECT_OK(r);
    g_assert_nonnull(strstr(r.out, "\"drive_group\":0"));
    g_assert_nonnull(strstr(r.out, "\"drive_group\":1"));
    g_assert_nonnull(strstr(r.out, "RAID5"));
    run_clear(&r);
    /*
     * Both arrays read back what was written to them, through the core,
     * and neither write reached the other array.
     */
    for (int vd = 0; vd < 2; vd++) {
        g_autofree char *name = g_strdup_printf("in%d.bin", vd);
        g_autofree char *v = g_strdup_printf("%d", vd);

        in[vd] = write_random(t.dir, name, (1 + vd) << 20, &data[vd]);
        expect_out(run("write", "-v", v, "-o", "64K", "-i", in[vd],
                       t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                       t.paths[4], t.paths[5], NULL), "");
    }
    for (int vd = 0; vd < 2; vd++) {
        g_autofree char *v = g_strdup_printf("%d", vd);
        g_autofree char *got = NULL;
        gsize n;

        expect_out(run("read", "-v", v, "-o", "64K", "-l",
                       vd ? "2M" : "1M", "-O", out, t.paths[0], t.paths[1],
                       t.paths[2], t.paths[3], t.paths[4], t.paths[5], NULL),
                   "");
        g_assert_true(g_file_get_contents(out, &got, &n, NULL));
        g_assert_cmpuint(n, ==, (gsize)(1 + vd) << 20);
        g_assert_true(memcmp(got, data[vd], n) == 0);
        expect_out(run("check", "-v", v, t.paths[0], t.paths[1], t.paths[2],
                       t.paths[3], t.paths[4], t.paths[5], NULL),
                   "0 inconsistent");
    }
    for (int vd = 0; vd < 2; vd++) {
        g_unlink(in[vd]);
        g_free(in[vd]);
        g_free(data[vd]);
    }
    g_unlink(out);
    test_images_free(&t);
}

static void test_import(gconstpointer data)
{
    RaidLevel level = GPOINTER_TO_INT(data);
    TestImages t;
    RaidConfig *cfg;
    RaidLayout *l = g_new(RaidLayout, 1);
    RaidMemberState st[RAID_MAX_MEMBERS] = { 0 };
    RaidFileExec fx = { 0 };
    int pds[8];
    g_autofree char *ref = NULL, *in = NULL, *out = NULL, *got = NULL;
    RaidRequest req = { .op = RAID_OP_WRITE, .lba = 0, .sectors = 4096 };
    gsize n;

    test_vd_size = 4096;
    test_images_new(&t, 4, 80 << 20);
    cfg = test_config_new(&t, 4, level, level == RAID_LEVEL_10 ? 2 : 0);
    test_vd_size = 0;
    /* Data written as md would: by the shared layout rules. */
    in = write_random(t.dir, "ref.bin", 4096 * 512, &ref);
    g_assert_true(raid_config_vd_layout(cfg, 0, l, NULL));
    fx.members = raid_vd_members(cfg, 0, pds, 8);
    for (uint32_t i = 0; i < fx.members; i++) {
        fx.fd[i] = open(cfg->pds[pds[i]].path, O_RDWR);
    }
    g_assert_cmpint(raid_file_exec_request(&fx, l, st, &req, RAID_WRITE_AUTO,
                                           ref), ==, 0);
    for (uint32_t i = 0; i < fx.members; i++) {
        close(fx.fd[i]);
    }
    make_mdadm_style(cfg);

    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "FOREIGN");
    expect_fail(1, run("read", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                    NULL), "foreign configuration", "import");
    expect_out(run("import", "--dry-run", t.paths[0], t.paths[1], t.paths[2],
                   t.paths[3], NULL), "can import 1 VD(s)");
    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "FOREIGN");
    expect_out(run("import", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "imported 1 VD(s), 4 drive(s)");
    expect_out(run("show", "--json", t.paths[0], t.paths[1], t.paths[2],
                   t.paths[3], NULL), "\"foreign\":false");
    out = g_build_filename(t.dir, "out.bin", NULL);
    expect_out(run("check", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "0 inconsistent");
    {
        Run r = run("read", "-l", "2M", "-O", out, t.paths[0], t.paths[1],
                    t.paths[2], t.paths[3], NULL);
        EXPECT_OK(r);
        run_clear(&r);
    }
    g_assert_true(g_file_get_contents(out, &got, &n, NULL));
    g_assert_cmpuint(n, ==, 2 << 20);
    g_assert_true(memcmp(got, ref, n) == 0);
    /* The copies stay where mdadm put them. */
    {
        DdfDriveRead r = { 0 };
        int fd = open(t.paths[0], O_RDONLY);

        g_assert_true(ddf_read_drive(fd, 80 << 20, &r, NULL));
        close(fd);
        g_assert_cmpuint(r.meta->primary_lba, ==, (80 << 11) - 32768);
        g_assert_cmpmem(r.meta->ctrl_guid, 24, TEST_CTRL_GUID, 24);
        ddf_drive_read_clear(&r);
    }
    g_unlink(in);
    g_unlink(out);
    raid_config_free(cfg);
    g_free(l);
    test_images_free(&t);
}

/* Put @len bytes of @what at @off of image @path. */
static void poke(const char *path, uint64_t off, const void *what, size_t len)
{
    int fd = open(path, O_RDWR);

    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(pwrite(fd, what, len, off), ==, (ssize_t)len);
    close(fd);
}

/* A checksum of the whole image, to see that a refusal left it alone. */
static char *image_sum(const char *path)
{
    g_autofree char *data = NULL;
    gsize n;

    g_assert_true(g_file_get_contents(path, &data, &n, NULL));
    return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (guchar *)data, n);
}

/*
 * Images in other formats than raw are refused by every command, with the
 * format named, and left as they were; a raw drive whose data merely
 * starts like a qcow2 header is still a drive.
 */
static void test_refuse_format(void)
{
    static const struct {
        const char *name;
        uint64_t off;
        const char *magic;
        size_t len;
        bool at_end;
    } fmts[] = {
        { "qcow2", 0, "QFI\xfb\0\0\0\3", 8 },
        { "qcow", 0, "QFI\xfb\0\0\0\1", 8 },
        { "qed", 0, "QED\0", 4 },
        { "vmdk", 0, "KDMV", 4 },
        { "vmdk", 0, "# Disk DescriptorFile\n", 22 },
        { "vdi", 64, "\x7f\x10\xda\xbe", 4 },
        { "vhdx", 0, "vhdxfile", 8 },
        { "vpc (VHD)", 0, "conectix", 8 },
        { "vpc (VHD)", 512, "conectix", 8, true },
    };
    TestImages t;

    test_images_new(&t, 4, 40 << 20);
    expect_out(run("create", "-l", "raid5", t.paths[0], t.paths[1],
                   t.paths[2], NULL), "RAID5");
    for (size_t i = 0; i < G_N_ELEMENTS(fmts); i++) {
        g_autofree char *q = g_strdup_printf("%s/f%zu.img", t.dir, i);
        g_autofree char *want = g_strdup_printf("is a %s image",
                                                fmts[i].name);
        g_autofree char *sum = NULL, *after = NULL;
        int fd = open(q, O_RDWR | O_CREAT | O_TRUNC, 0644);

        g_assert_cmpint(fd, >=, 0);
        g_assert_cmpint(ftruncate(fd, 40 << 20), ==, 0);
        close(fd);
        poke(q, fmts[i].at_end ? (40 << 20) - fmts[i].off : fmts[i].off,
             fmts[i].magic, fmts[i].len);
        sum = image_sum(q);
        expect_fail(1, run("create", "-l", "raid1", t.paths[3], q, NULL),
                    q, want);
        expect_fail(1, run("create", "-f", "-l", "raid1", t.paths[3], q,
                        NULL), q, want);
        expect_fail(1, run("spare", "-d", q, t.paths[0], t.paths[1],
                        t.paths[2], q, NULL), q, "raw images only");
        expect_fail(1, run("show", t.paths[0], t.paths[1], t.paths[2], q,
                        NULL), q, want);
        after = image_sum(q);
        g_assert_cmpstr(sum, ==, after);
        g_unlink(q);
    }
    /* A small qcow2 (not whole sectors) is named a qcow2, not a size. */
    {
        g_autofree char *q = g_build_filename(t.dir, "small.qcow2", NULL);
        int fd = open(q, O_RDWR | O_CREAT | O_TRUNC, 0644);

        g_assert_cmpint(fd, >=, 0);
        g_assert_cmpint(ftruncate(fd, 196616), ==, 0);
        close(fd);
        poke(q, 0, "QFI\xfb\0\0\0\3", 8);
        expect_fail(1, run("create", "-l", "raid1", t.paths[3], q, NULL),
                    "is a qcow2 image", "qemu-img convert -O raw");
        g_unlink(q);
    }
    /* VD data that starts like qcow2 lands on member 0's first sector. */
    {
        g_autofree char *in = g_build_filename(t.dir, "q.bin", NULL);
        char sector[512] = "QFI\xfb\0\0\0\3";

        g_assert_true(g_file_set_contents(in, sector, sizeof(sector), NULL));
        expect_out(run("write", "-i", in, t.paths[0], t.paths[1],
                       t.paths[2], NULL), "");
        expect_out(run("fail", "-d", t.paths[1], t.paths[0], t.paths[1],
                       t.paths[2], NULL), "offline");
        expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], NULL),
                   "degraded");
        g_unlink(in);
    }
    test_images_free(&t);
}

/* One image under two names (a path, ./path, a hard link) is refused. */
static void test_refuse_same_image(void)
{
    TestImages t;
    g_autofree char *dot = NULL, *hard = NULL, *sum = NULL, *after = NULL;

    test_images_new(&t, 3, 40 << 20);
    dot = g_strdup_printf("%s/./d0.img", t.dir);
    hard = g_strdup_printf("%s/link.img", t.dir);
    g_assert_cmpint(link(t.paths[0], hard), ==, 0);
    expect_fail(2, run("create", "-l", "raid5", t.paths[0], dot, t.paths[1],
                    NULL), "same image", dot);
    expect_fail(2, run("create", "-l", "raid1", "--hot-spare", hard,
                    t.paths[0], t.paths[1], NULL), "same image", hard);
    expect_out(run("create", "-l", "raid5", t.paths[0], t.paths[1],
                   t.paths[2], NULL), "RAID5");
    sum = image_sum(t.paths[0]);
    expect_fail(1, run("fail", "-d", t.paths[1], t.paths[0], t.paths[1],
                    t.paths[2], dot, NULL), "same image", dot);
    expect_fail(1, run("show", t.paths[0], t.paths[1], t.paths[2], hard,
                    NULL), "same image", hard);
    after = image_sum(t.paths[0]);
    g_assert_cmpstr(sum, ==, after);
    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], NULL),
               "RAID5, optimal");
    g_unlink(hard);
    test_images_free(&t);
}

/* A VD index that does not exist fails every command that takes one. */
static void test_refuse_vd_index(void)
{
    static const char *const cmds[] = {
        "check", "init", "rebuild", "read", "write",
    };
    TestImages t;

    test_images_new(&t, 3, 40 << 20);
    expect_out(run("create", "-l", "raid5", t.paths[0], t.paths[1],
                   t.paths[2], NULL), "RAID5");
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        /* read and write also need a length (write reads no input) */
        const char *l = i < 3 ? NULL : "-l";

        expect_fail(1, run(cmds[i], "-v", "9", t.paths[0], t.paths[1],
                        t.paths[2], l, "512", NULL),
                    "VD 9 does not exist", NULL);
        expect_fail(1, run(cmds[i], "-v", "-5", t.paths[0], t.paths[1],
                        t.paths[2], l, "512", NULL),
                    "VD -5 does not exist", NULL);
    }
    expect_out(run("check", "-v", "0", t.paths[0], t.paths[1], t.paths[2],
                   NULL), "0 inconsistent");
    test_images_free(&t);
}

/*
 * create refuses images that hold a file system, partition table, swap,
 * LVM, LUKS or md superblock, naming what it found, unless --force; it
 * says whose DDF an image holds.
 */
static void test_refuse_used_image(void)
{
    static const struct {
        const char *what;
        int64_t off;            /* negative: from the end */
        const char *sig;
        size_t len;
    } sigs[] = {
        { "ext2/ext3/ext4", 1080, "\x53\xef", 2 },
        { "XFS", 0, "XFSB", 4 },
        { "Btrfs", 0x10040, "_BHRfS_M", 8 },
        { "swap", 4086, "SWAPSPACE2", 10 },
        { "LVM2", 512, "LABELONE\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0LVM2 001",
          32 },
        { "LUKS", 0, "LUKS\xba\xbe", 6 },
        { "mdraid", 4096, "\xfc\x4e\x2b\xa9", 4 },
        { "mdraid", -(8 << 10), "\xfc\x4e\x2b\xa9", 4 },
        { "mdraid", -(64 << 10), "\xfc\x4e\x2b\xa9", 4 },
        { "NTFS", 3, "NTFS    ", 8 },
        { "GPT", 512, "EFI PART", 8 },
        { "MBR", 510, "\x55\xaa", 2 },
    };
    TestImages t;

    test_images_new(&t, 3, 40 << 20);
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
        g_autofree char *sum = NULL, *after = NULL;
        int64_t off = sigs[i].off < 0 ? (40 << 20) + sigs[i].off :
                      sigs[i].off;

        poke(t.paths[1], off, sigs[i].sig, sigs[i].len);
        sum = image_sum(t.paths[1]);
        expect_fail(1, run("create", "-l", "raid1", t.paths[0], t.paths[1],
                        NULL), t.paths[1], sigs[i].what);
        after = image_sum(t.paths[1]);
        g_assert_cmpstr(sum, ==, after);
        /* wipe it again */
        {
            g_autofree char *zero = g_malloc0(sigs[i].len);

            poke(t.paths[1], off, zero, sigs[i].len);
        }
    }
    /* --force overwrites (an ext4 image here). */
    poke(t.paths[2], 1080, "\x53\xef", 2);
    expect_fail(1, run("create", "-l", "raid1", t.paths[0], t.paths[2],
                    NULL), "creating an array would destroy it",
                "use --force to overwrite");
    expect_out(run("create", "-f", "-l", "raid1", t.paths[0], t.paths[2],
                   NULL), "RAID1");
    /* DDF: whose it is. */
    expect_fail(1, run("create", "-l", "raid1", t.paths[0], t.paths[1],
                    NULL), t.paths[0], "this controller 'LSI     MRSIM");
    expect_out(run("create", "--serial", "OTHERCTRL", "-f", "-l", "raid1",
                   t.paths[0], t.paths[1], NULL), "RAID1");
    expect_fail(1, run("create", "-l", "raid1", t.paths[0], t.paths[2],
                    NULL), t.paths[0], "foreign controller 'LSI     OTHER");
    test_images_free(&t);
}

/*
 * The failure check itself: a crash, a wrong exit status or a missing
 * message never count as the expected failure.  /bin/sh scripts stand in
 * for a megaraid-img that crashes or misbehaves.
 */
static void test_expect_fail_self(void)
{
    static const struct {
        const char *script;
        bool accepted;
        const char *why;
    } cases[] = {
        { "echo 'x.img: cannot open' >&2; exit 1", true, NULL },
        { "echo 'x.img: cannot open' >&2; kill -SEGV $$", false, "crashed" },
        { "echo 'x.img: cannot open' >&2; kill -ABRT $$", false, "crashed" },
        { "echo 'x.img: cannot open' >&2; kill -KILL $$", false, "crashed" },
        /* a shell's report of a child killed by SIGABRT */
        { "echo 'x.img: cannot open' >&2; exit 134", false, "not 1" },
        { "echo 'x.img: cannot open' >&2; exit 2", false, "not 1" },
        { "echo 'x.img: cannot open' >&2; exit 0", false, "not 1" },
        { "echo 'x.img: cannot open'; exit 1", false, "does not name" },
        { "echo 'x.img: short input' >&2; exit 1", false, "does not name" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *script = g_strdup_printf("ulimit -c 0; %s",
                                                  cases[i].script);
        char *argv[] = { (char *)"/bin/sh", (char *)"-c", script, NULL };
        g_autofree char *why = NULL;
        Run r = run_argv(argv);
        bool ok = failed_as_expected(&r, 1, "x.img", "cannot open", &why);

        g_assert_cmpint(ok, ==, cases[i].accepted);
        if (ok) {
            g_test_message("%s: accepted", cases[i].script);
        } else {
            g_test_message("%s: %s", cases[i].script, why);
            g_assert_nonnull(strstr(why, cases[i].why));
        }
        run_clear(&r);
    }
}

/*
 * re-add and online: a member failed by hand (its metadata current) goes
 * back online with a consistency check; a member that was away while the
 * VD took writes comes back offline, and re-add rebuilds it.
 */
static void test_readd_missing(void)
{
    TestImages t;
    g_autofree char *data = NULL, *in = NULL, *out = NULL, *got = NULL;
    gsize n;

    test_images_new(&t, 4, 40 << 20);
    expect_out(run("create", "-l", "raid5", "-s", "64", "--size", "4M",
                   t.paths[0], t.paths[1], t.paths[2], NULL), "RAID5");
    in = write_random(t.dir, "in.bin", 2 << 20, &data);
    out = g_build_filename(t.dir, "out.bin", NULL);
    expect_out(run("write", "-i", in, t.paths[0], t.paths[1], t.paths[2],
                   NULL), "");
    /* Failed by hand, nothing written since: current. */
    expect_out(run("fail", "-d", t.paths[1], t.paths[0], t.paths[1],
                   t.paths[2], t.paths[3], NULL), "offline");
    expect_fail(1, run("online", "-d", t.paths[1], t.paths[0], t.paths[1],
                       t.paths[2], t.paths[3], NULL),
                "can be brought back safely", "re-add");
    expect_fail(1, run("re-add", "-d", t.paths[0], t.paths[0], t.paths[1],
                       t.paths[2], t.paths[3], NULL),
                "is online; only a missing or offline member", NULL);
    expect_out(run("re-add", "-d", t.paths[1], t.paths[0], t.paths[1],
                   t.paths[2], t.paths[3], NULL), "consistency check pending");
    expect_out(run("check", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "0 inconsistent row(s)");
    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "RAID5, optimal");
    /* The second half written while drive 1 is left off: it is stale. */
    expect_out(run("write", "-o", "2097152", "-i", in, t.paths[0],
                   t.paths[2], t.paths[3], NULL), "");
    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "1(offline)");
    expect_fail(1, run("replace", "-x", "1", "-w", t.paths[1], t.paths[0],
                       t.paths[1], t.paths[2], t.paths[3], NULL),
                "is offline, not unconfigured-good", NULL);
    expect_fail(1, run("online", "-d", t.paths[1], t.paths[0], t.paths[1],
                       t.paths[2], t.paths[3], NULL),
                "is stale; the other members took writes", "re-add");
    expect_out(run("re-add", "-d", t.paths[1], t.paths[0], t.paths[1],
                   t.paths[2], t.paths[3], NULL), "rebuild pending");
    expect_out(run("rebuild", t.paths[0], t.paths[1], t.paths[2],
                   t.paths[3], NULL), "rebuild finished");
    expect_out(run("show", t.paths[0], t.paths[1], t.paths[2], t.paths[3],
                   NULL), "RAID5, optimal");
    /* Without drive 0: drive 1's rebuilt strips serve both halves. */
    expect_out(run("read", "-l", "4M", "-O", out, t.paths[3], t.paths[1],
                   t.paths[2], NULL), "");
    g_assert_true(g_file_get_contents(out, &got, &n, NULL));
    g_assert_true(n == (4 << 20));
    g_assert_true(memcmp(got, data, 2 << 20) == 0);
    g_assert_true(memcmp(got + (2 << 20), data, 2 << 20) == 0);
    /* init zeroes every VD only when told to. */
    expect_fail(1, run("init", t.paths[0], t.paths[1], t.paths[2],
                       t.paths[3], NULL), "zeroes every VD", "--force");
    expect_out(run("init", "-f", t.paths[0], t.paths[1], t.paths[2],
                   t.paths[3], NULL), "init finished");
    g_unlink(in);
    g_unlink(out);
    test_images_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    tool = g_getenv("MEGARAID_IMG");
    if (!tool) {
        g_printerr("set MEGARAID_IMG to the megaraid-img binary\n");
        return 1;
    }
    g_test_add_func("/img/expect-fail-self-test", test_expect_fail_self);
    g_test_add_func("/img/help", test_help);
    g_test_add_func("/img/lifecycle", test_lifecycle);
    g_test_add_func("/img/create-errors", test_create_errors);
    g_test_add_func("/img/vds-per-group", test_vds_per_group);
    g_test_add_func("/img/add-dg", test_add_dg);
    g_test_add_func("/img/missing-drive", test_missing_drive);
    g_test_add_func("/img/re-add-missing", test_readd_missing);
    g_test_add_func("/img/refuse/format", test_refuse_format);
    g_test_add_func("/img/refuse/same-image", test_refuse_same_image);
    g_test_add_func("/img/refuse/vd-index", test_refuse_vd_index);
    g_test_add_func("/img/refuse/used-image", test_refuse_used_image);
    g_test_add_data_func("/img/import-mdadm-style/RAID5",
                         GINT_TO_POINTER(RAID_LEVEL_5), test_import);
    g_test_add_data_func("/img/import-mdadm-style/RAID10",
                         GINT_TO_POINTER(RAID_LEVEL_10), test_import);
    return g_test_run();
}
