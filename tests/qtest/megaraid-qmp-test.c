/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the host's QMP and HMP view of a controller:
 * query-megaraid on an imported RAID 5 with a hot spare and a JBOD drive,
 * the MEGARAID_EVENT events of a member failure and the rebuild onto the
 * spare, HMP "info megaraid", and a machine without a controller.  No
 * guest driver: the controller imports its array at machine start.
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qemu/bswap.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "hw/megaraid/evlog.h"

/*
 * The arrays are written as DDF onto temporary images with the RAID
 * core, as megaraid-img does (QEMU builds a qtest from one file, so the
 * sources are included; two files have a static level_spanned()).
 */
#include "../../hw/raid/geometry.c"
#include "../../hw/raid/config.c"
#include "../../hw/raid/config-state.c"
#include "../../hw/raid/ddf-crc.c"
#include "../../hw/raid/ddf-meta.c"
#include "../../hw/raid/ddf-encode.c"
#include "../../hw/raid/ddf-decode.c"
#define level_spanned ddf_config_level_spanned
#include "../../hw/raid/ddf-config.c"
#undef level_spanned
#include "../../hw/raid/ddf-drive.c"
#include "../../hw/raid/ddf-io.c"

#define NDRIVES         5       /* 0-2 RAID 5, 3 global spare, 4 blank */
#define NMEMBERS        3
#define SPARE           3
#define JBOD            4
#define DRIVE_BYTES     (64 * 1024 * 1024)
#define STRIP_SECTORS   128     /* 64 KiB */
#define CTRL            "/machine/peripheral/raid0"

typedef struct Rig {
    char *path[NDRIVES];
    uint64_t vd_bytes;
    QTestState *qts;
} Rig;

static void rig_create(Rig *r)
{
    uint8_t guid[RAID_GUID_LEN];
    RaidVdSpec spec = {
        .level = RAID_LEVEL_5,
        .strip = STRIP_SECTORS,
        .name = "qmp-r5",
        .cache = RAID_CACHE_READ_ALLOWED | RAID_CACHE_READ_AHEAD,
    };
    int members[NMEMBERS] = { 0, 1, 2 };
    GError *err = NULL;
    RaidConfig *cfg;
    int v;

    memset(r, 0, sizeof(*r));
    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     QMPTSHDR", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    for (int i = 0; i < NDRIVES; i++) {
        int fd = g_file_open_tmp("megaraid-qmp-test-XXXXXX", &r->path[i],
                                 NULL);
        int pd;

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, DRIVE_BYTES) == 0);
        close(fd);
        if (i == JBOD) {
            continue;
        }
        memcpy(guid, "LSI     QMPTSTPD", 16);
        stl_be_p(guid + 16, g_random_int());
        stl_be_p(guid + 20, i);
        pd = raid_config_add_pd(cfg, guid, i, DRIVE_BYTES / 512, &err);
        g_assert_no_error(err);
        cfg->pds[pd].path = g_strdup(r->path[i]);
    }
    v = raid_config_create_vd(cfg, members, NMEMBERS, &spec, &err);
    g_assert_no_error(err);
    raid_config_add_spare(cfg, SPARE, -1, &err);
    g_assert_no_error(err);
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    r->vd_bytes = cfg->vds[v].size * 512;
    raid_config_free(cfg);
}

/* Debian's QEMU source carries no firmware: use the distribution's. */
static const char *fw_args(void)
{
    if (g_file_test("pc-bios/bios-256k.bin", G_FILE_TEST_EXISTS) ||
        !g_file_test("/usr/share/seabios/bios-256k.bin", G_FILE_TEST_EXISTS)) {
        return "";
    }
    return "-L /usr/share/seabios -L /usr/share/qemu ";
}

static void rig_start(Rig *r)
{
    g_autoptr(GString) cmd = g_string_new("");

    for (int i = 0; i < NDRIVES; i++) {
        g_string_append_printf(cmd, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=%s ", i, r->path[i], i, i, i,
                               i == JBOD ? "sas" : "nvme");
    }
    r->qts = qtest_initf("%s-machine q35 -nodefaults "
                         "-device megaraid-9600,id=raid0,addr=04.0 %s",
                         fw_args(), cmd->str);
}

static void rig_destroy(Rig *r)
{
    if (r->qts) {
        qtest_quit(r->qts);
    }
    for (int i = 0; i < NDRIVES; i++) {
        unlink(r->path[i]);
        g_free(r->path[i]);
    }
}

/* ------------------------------------------------------------ helpers */

/* query-megaraid; returns the list (owned by the caller's @rsp). */
static QList *query(QTestState *qts, QDict **rsp)
{
    *rsp = qtest_qmp(qts, "{'execute': 'query-megaraid'}");
    g_assert_true(qdict_haskey(*rsp, "return"));
    return qdict_get_qlist(*rsp, "return");
}

static QDict *list_nth(QList *l, int n)
{
    const QListEntry *e = qlist_first(l);

    while (e && n--) {
        e = qlist_next(e);
    }
    g_assert_nonnull(e);
    return qobject_to(QDict, qlist_entry_obj(e));
}

/* The entry of @l whose integer member @key is @val. */
static QDict *find_by(QList *l, const char *key, int64_t val)
{
    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, key) == val) {
            return d;
        }
    }
    g_test_message("no entry with %s %" PRId64, key, val);
    g_assert_not_reached();
}

/* "[a, b, c]" of an integer list. */
static char *int_list(QList *l)
{
    GString *s = g_string_new("[");

    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        g_string_append_printf(s, "%s%" PRId64, s->len > 1 ? ", " : "",
                               qnum_get_int(qobject_to(QNum,
                                                       qlist_entry_obj(e))));
    }
    g_string_append_c(s, ']');
    return g_string_free(s, false);
}

static void assert_ints(QDict *d, const char *key, const char *want)
{
    g_autofree char *s = int_list(qdict_get_qlist(d, key));

    g_assert_cmpstr(s, ==, want);
}

static void qom_set_str(QTestState *qts, const char *path, const char *prop,
                        const char *val)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-set', 'arguments':"
                           " {'path': %s, 'property': %s, 'value': %s}}",
                           path, prop, val);

    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

static void qom_set_int(QTestState *qts, const char *path, const char *prop,
                        int64_t val)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-set', 'arguments':"
                           " {'path': %s, 'property': %s, 'value': %"
                           PRId64 "}}", path, prop, val);

    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

static char *hmp(QTestState *qts, const char *cmd)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'human-monitor-command', "
                           "'arguments': {'command-line': %s}}", cmd);
    char *out;

    g_assert_true(qdict_haskey(rsp, "return"));
    out = g_strdup(qdict_get_str(rsp, "return"));
    qobject_unref(rsp);
    return out;
}

/* ---------------------------------------------------------------- tests */

/* Everything the import built, as one query shows it. */
static void test_query(void)
{
    Rig r;
    QDict *rsp, *c, *d, *g, *v;
    QList *l, *drives;

    rig_create(&r);
    rig_start(&r);
    l = query(r.qts, &rsp);
    g_assert_cmpint(qlist_size(l), ==, 1);
    c = list_nth(l, 0);
    g_assert_cmpstr(qdict_get_str(c, "qom-path"), ==, CTRL);
    g_assert_cmpstr(qdict_get_str(c, "id"), ==, "raid0");
    g_assert_nonnull(strstr(qdict_get_str(c, "model"), "9670W-16i"));
    g_assert_cmpstr(qdict_get_str(c, "serial"), ==, "MRSIM00000000001");
    g_assert_cmpstr(qdict_get_str(c, "cachevault"), ==, "optimal");
    g_assert_cmpint(qdict_get_int(c, "cache-size"), >, 0);
    g_assert_cmpint(qdict_get_int(c, "cache-dirty"), ==, 0);
    g_assert_cmpint(qdict_get_int(c, "rebuild-rate"), ==, 30);
    g_assert_false(qdict_get_bool(c, "foreign"));
    g_assert_false(qdict_haskey(c, "journal"));

    drives = qdict_get_qlist(c, "drives");
    g_assert_cmpint(qlist_size(drives), ==, NDRIVES);
    for (int i = 0; i < NMEMBERS; i++) {
        g_autofree char *path = g_strdup_printf("/machine/peripheral/hd%d", i);

        d = find_by(drives, "slot", i);
        g_assert_true(qdict_get_bool(d, "present"));
        g_assert_cmpstr(qdict_get_str(d, "qom-path"), ==, path);
        g_assert_cmpstr(qdict_get_str(d, "interface"), ==, "nvme");
        g_assert_cmpstr(qdict_get_str(d, "state"), ==, "online");
        g_assert_cmpint(qdict_get_int(d, "size"), ==, DRIVE_BYTES);
        g_assert_cmpint(qdict_get_int(d, "drive-group"), ==, 0);
        assert_ints(d, "vds", "[0]");
        g_assert_false(qdict_haskey(d, "spare-for"));
        g_assert_nonnull(qdict_get_try_str(d, "serial"));
        g_assert_nonnull(qdict_get_try_str(d, "model"));
    }
    d = find_by(drives, "slot", SPARE);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "hot-spare");
    g_assert_cmpint(qdict_get_int(d, "spare-for"), ==, -1);
    g_assert_false(qdict_haskey(d, "drive-group"));
    d = find_by(drives, "slot", JBOD);
    g_assert_cmpstr(qdict_get_str(d, "state"), ==, "unconfigured-good");
    g_assert_cmpstr(qdict_get_str(d, "interface"), ==, "sas");
    assert_ints(d, "vds", "[]");

    l = qdict_get_qlist(c, "drive-groups");
    g_assert_cmpint(qlist_size(l), ==, 1);
    g = list_nth(l, 0);
    g_assert_cmpint(qdict_get_int(g, "index"), ==, 0);
    assert_ints(g, "vds", "[0]");
    g_assert_cmpint(qlist_size(qdict_get_qlist(g, "spans")), ==, 1);
    assert_ints(list_nth(qdict_get_qlist(g, "spans"), 0), "slots",
                "[0, 1, 2]");

    l = qdict_get_qlist(c, "vds");
    g_assert_cmpint(qlist_size(l), ==, 1);
    v = list_nth(l, 0);
    g_assert_cmpint(qdict_get_int(v, "index"), ==, 0);
    g_assert_cmpstr(qdict_get_str(v, "name"), ==, "qmp-r5");
    g_assert_cmpstr(qdict_get_str(v, "level"), ==, "raid5");
    g_assert_cmpint(qdict_get_int(v, "size"), ==, r.vd_bytes);
    g_assert_cmpint(qdict_get_int(v, "strip"), ==, STRIP_SECTORS * 512);
    g_assert_cmpint(qdict_get_int(v, "drive-group"), ==, 0);
    g_assert_cmpint(qdict_get_int(v, "spans"), ==, 1);
    assert_ints(v, "members", "[0, 1, 2]");
    g_assert_cmpstr(qdict_get_str(v, "state"), ==, "optimal");
    g_assert_cmpstr(qdict_get_str(v, "cache-policy"), ==, "write-through");
    g_assert_cmpstr(qdict_get_str(v, "write-policy"), ==, "write-through");
    g_assert_true(qdict_get_bool(v, "read-ahead"));
    qobject_unref(rsp);

    /* A controller property change shows in the next query. */
    qom_set_str(r.qts, CTRL, "cachevault", "failed");
    l = query(r.qts, &rsp);
    g_assert_cmpstr(qdict_get_str(list_nth(l, 0), "cachevault"), ==,
                    "failed");
    qobject_unref(rsp);
    rig_destroy(&r);
}

/* The HMP table names the controller, the VD and every drive's state. */
static void test_hmp(void)
{
    Rig r;
    g_autofree char *out = NULL;

    rig_create(&r);
    rig_start(&r);
    out = hmp(r.qts, "info megaraid");
    g_test_message("%s", out);
    g_assert_nonnull(strstr(out, "raid0 (" CTRL "): MegaRAID 9670W-16i"));
    g_assert_nonnull(strstr(out, "CacheVault optimal"));
    g_assert_true(g_regex_match_simple(
        "\\n  0 +qmp-r5 +raid5 .* optimal +write-through +0 +0,1,2\\r?\\n",
        out, 0, 0));
    g_assert_nonnull(strstr(out, "DG 0: VDs 0"));
    g_assert_nonnull(strstr(out, "span 0 slots 0,1,2"));
    g_assert_true(g_regex_match_simple("\\n  3 +nvme +ssd +hot-spare ",
                                       out, 0, 0));
    g_assert_true(g_regex_match_simple(
        "\\n  4 +sas +ssd +unconfigured-good ", out, 0, 0));
    rig_destroy(&r);
}

/* Without a controller: an empty list, and HMP says so. */
static void test_none(void)
{
    QTestState *qts = qtest_initf("%s-machine q35 -nodefaults", fw_args());
    QDict *rsp;
    g_autofree char *out = NULL;

    g_assert_cmpint(qlist_size(query(qts, &rsp)), ==, 0);
    qobject_unref(rsp);
    out = hmp(qts, "info megaraid");
    g_assert_cmpstr(out, ==, "No MegaRAID controller\r\n");
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-qmp/query", test_query);
    qtest_add_func("/megaraid-qmp/hmp", test_hmp);
    qtest_add_func("/megaraid-qmp/none", test_none);
    return g_test_run();
}
