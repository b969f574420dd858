/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-drive's properties and realize checks,
 * through device_add on a megaraid-9600's bus: defaults per interface,
 * slot assignment, every refused configuration with its message, and
 * the card's limits (32 NVMe, 240 SAS/SATA drives); modelled-capacity's
 * units; what QOM reads back; what -device help says of the drive's and
 * the controllers' properties (defaults once, no sentinels, read-only).
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qobject/qjson.h"
#include "qobject/qnum.h"
#include "qobject/qlist.h"
#include "megaraid-harness.h"

static QTestState *start(const char *extra)
{
    return qtest_initf("%s-machine q35 -nodefaults "
                       "-device megaraid-9600,id=r %s", h_fw_args(),
                       extra ? extra : "");
}

static void add_drive_node(QTestState *qts, const char *id, long long size)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'blockdev-add', 'arguments': "
                           "{'driver': 'null-co', 'node-name': %s, "
                           "'size': %lld}}", id, size);

    g_assert(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

/* device_add megaraid-drive with props (a JSON fragment); NULL if ok. */
static char *try_add(QTestState *qts, const char *props)
{
    g_autofree char *json = g_strdup_printf(
        "{'driver': 'megaraid-drive', 'bus': 'r.0', %s}", props);

    return h_device_add_err(qts, json);
}

static void expect_error(QTestState *qts, const char *props,
                         const char *needle)
{
    g_autofree char *err = try_add(qts, props);

    g_assert_nonnull(err);
    if (!strstr(err, needle)) {
        g_test_message("error '%s' lacks '%s'", err, needle);
        g_assert_not_reached();
    }
}

static void test_refused(void)
{
    QTestState *qts = start(NULL);

    add_drive_node(qts, "n0", 64 * 1024 * 1024);
    add_drive_node(qts, "small", 524288);
    expect_error(qts, "'id': 'x'", "property 'drive' is required");
    expect_error(qts, "'drive': 'small'", "less than the 1 MiB minimum");
    expect_error(qts, "'drive': 'n0', 'interface': 'scsi'",
                 "interface=scsi is not valid");
    expect_error(qts, "'drive': 'n0', 'media': 'tape'",
                 "media=tape is not valid");
    expect_error(qts, "'drive': 'n0', 'interface': 'nvme', 'media': 'hdd'",
                 "media=hdd is not offered with interface=nvme");
    expect_error(qts, "'drive': 'n0', 'logical_block_size': 1024",
                 "logical_block_size=1024 is not supported");
    expect_error(qts, "'drive': 'n0', 'slot': 240",
                 "slot=240 is out of range");
    expect_error(qts, "'drive': 'n0', 'enclosure': 256",
                 "enclosure=256 is out of range");
    expect_error(qts, "'drive': 'n0', 'interface': 'sas', "
                 "'model': 'ABCDEFGHIJKLMNOPQ'", "model='ABCDEFGHIJKLMNOPQ'");
    expect_error(qts, "'drive': 'n0', 'vendor': 'TOOLONGVENDOR'",
                 "vendor='TOOLONGVENDOR'");
    expect_error(qts, "'drive': 'n0', 'interface': 'sas', "
                 "'firmware': 'ABCDE'", "firmware='ABCDE'");
    expect_error(qts, "'drive': 'n0', 'serial': 'S\\u0001'",
                 "serial must be printable ASCII");
    expect_error(qts, "'drive': 'n0', 'rotation_rate': 500",
                 "rotation_rate=500 is not valid");

    /* a good one takes slot 0; the same slot again is refused */
    g_assert_null(try_add(qts, "'id': 'd0', 'drive': 'n0', 'slot': 0"));
    add_drive_node(qts, "n1", 64 * 1024 * 1024);
    expect_error(qts, "'drive': 'n1', 'slot': 0",
                 "slot=0 of enclosure=0 is already taken");
    /* another enclosure has its own slot 0 */
    g_assert_null(try_add(qts, "'id': 'd1', 'drive': 'n1', 'slot': 0, "
                          "'enclosure': 1"));
    qtest_quit(qts);
}

static void test_defaults(void)
{
    QTestState *qts = start(NULL);
    g_autofree char *serial = NULL, *model = NULL, *vendor = NULL;

    add_drive_node(qts, "n0", 64 * 1024 * 1024);
    add_drive_node(qts, "n1", 64 * 1024 * 1024);
    add_drive_node(qts, "n2", 64 * 1024 * 1024);
    g_assert_null(try_add(qts, "'id': 'a', 'drive': 'n0', "
                          "'interface': 'sata'"));
    g_assert_null(try_add(qts, "'id': 'b', 'drive': 'n1', "
                          "'interface': 'sas', 'media': 'hdd'"));
    g_assert_null(try_add(qts, "'id': 'c', 'drive': 'n2'"));

    /* slots are assigned in order when not given */
    g_assert_cmpint(qts_qom_get_int(qts, "/machine/peripheral/a", "slot"),
                    ==, 0);
    g_assert_cmpint(qts_qom_get_int(qts, "/machine/peripheral/b", "slot"),
                    ==, 1);
    g_assert_cmpint(qts_qom_get_int(qts, "/machine/peripheral/c", "slot"),
                    ==, 2);

    vendor = qts_qom_get_str(qts, "/machine/peripheral/a", "vendor");
    model = qts_qom_get_str(qts, "/machine/peripheral/a", "model");
    serial = qts_qom_get_str(qts, "/machine/peripheral/a", "serial");
    g_assert_cmpstr(vendor, ==, "ATA");
    g_assert_cmpstr(model, ==, "INTEL SSDSC2KB038T8");
    g_assert_true(g_str_has_prefix(serial, "PHYF"));
    g_assert_cmpint(strlen(serial), ==, 18);
    g_assert_cmpint((uint64_t)qts_qom_get_int(qts, "/machine/peripheral/a",
                                              "wwn") >> 36, ==, 0x55cd2e4);
    g_free(vendor);
    g_free(model);
    vendor = qts_qom_get_str(qts, "/machine/peripheral/b", "vendor");
    model = qts_qom_get_str(qts, "/machine/peripheral/b", "model");
    g_assert_cmpstr(vendor, ==, "SEAGATE");
    g_assert_cmpstr(model, ==, "ST8000NM001A");
    g_assert_cmpint(qts_qom_get_int(qts, "/machine/peripheral/b",
                                    "rotation_rate"), ==, 7200);
    g_free(vendor);
    g_free(model);
    vendor = qts_qom_get_str(qts, "/machine/peripheral/c", "vendor");
    model = qts_qom_get_str(qts, "/machine/peripheral/c", "model");
    g_assert_cmpstr(vendor, ==, "NVMe");
    g_assert_cmpstr(model, ==, "Micron_7450_MTFDKCC3T8TFR");
    g_assert_cmpint((uint64_t)qts_qom_get_int(qts, "/machine/peripheral/c",
                                              "wwn") >> 36, ==, 0x500a075);
    qtest_quit(qts);
}

/* The card's limit for one kind; the next drive of that kind is refused. */
static void test_limit(const char *iface, int limit, const char *needle)
{
    GString *args = g_string_new("");
    g_autofree char *props = NULL;
    QTestState *qts;
    int i;

    for (i = 0; i < limit; i++) {
        g_string_append_printf(args, "-blockdev null-co,node-name=n%d,"
                               "size=1073741824 -device megaraid-drive,"
                               "bus=r.0,drive=n%d,interface=%s ", i, i,
                               iface);
    }
    qts = start(args->str);
    add_drive_node(qts, "extra", 1024 * 1024 * 1024);
    props = g_strdup_printf("'drive': 'extra', 'interface': '%s'", iface);
    expect_error(qts, props, needle);
    qtest_quit(qts);
    g_string_free(args, true);
}

static void test_limit_nvme(void)
{
    test_limit("nvme", 32, "takes at most 32 NVMe drives");
}

static void test_limit_sas(void)
{
    test_limit("sas", 240, "takes at most 240 SAS/SATA drives");
}

static int64_t qom_int(QTestState *qts, const char *id, const char *prop)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': %s}}", id, prop);
    int64_t v = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return v;
}

/*
 * The whole card with no slot given: 240 SAS drives fill enclosure 0, the
 * 32 NVMe drives after them go on in enclosure 1; a 33rd NVMe is refused.
 */
static void test_full_card(void)
{
    GString *args = g_string_new("");
    QTestState *qts;
    int i;

    for (i = 0; i < 272; i++) {
        g_string_append_printf(args, "-blockdev null-co,node-name=n%d,"
                               "size=1073741824 -device megaraid-drive,"
                               "id=hd%d,bus=r.0,drive=n%d,interface=%s ",
                               i, i, i, i < 240 ? "sas" : "nvme");
    }
    qts = start(args->str);
    g_assert_cmpint(qom_int(qts, "/machine/peripheral/hd239", "enclosure"),
                    ==, 0);
    g_assert_cmpint(qom_int(qts, "/machine/peripheral/hd239", "slot"),
                    ==, 239);
    g_assert_cmpint(qom_int(qts, "/machine/peripheral/hd240", "enclosure"),
                    ==, 1);
    g_assert_cmpint(qom_int(qts, "/machine/peripheral/hd240", "slot"),
                    ==, 0);
    g_assert_cmpint(qom_int(qts, "/machine/peripheral/hd271", "slot"),
                    ==, 31);
    add_drive_node(qts, "extra", 1024 * 1024 * 1024);
    expect_error(qts, "'drive': 'extra', 'interface': 'nvme'",
                 "takes at most 32 NVMe drives");
    qtest_quit(qts);
    g_string_free(args, true);
}

#define TB  1000000000000ULL
#define TIB (1ULL << 40)

static uint64_t qom_u64(QTestState *qts, const char *id, const char *prop)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);

    return (uint64_t)qts_qom_get_int(qts, path, prop);
}

/*
 * modelled-capacity: TB is 10^12 (the drive's label, the profile names),
 * TiB 2^40; a bare T means one thing to QEMU and another on the label,
 * so it is refused with both readings.  Each way of setting it (-device,
 * -global, device_add with a string or a number) reads back the bytes.
 */
static void test_capacity_units(void)
{
    QTestState *qts = start("-blockdev driver=null-co,node-name=c0,"
                            "size=67108864 "
                            "-device megaraid-drive,id=cl,bus=r.0,drive=c0,"
                            "modelled-capacity=2TB "
                            "-blockdev driver=null-co,node-name=c1,"
                            "size=67108864 "
                            "-global megaraid-drive.modelled-capacity=1TiB "
                            "-device megaraid-drive,id=gl,bus=r.0,drive=c1");
    static const struct {
        const char *given;
        uint64_t bytes;
    } ok[] = {
        { "'6.4TB'", 6400000000000ULL },
        { "'6.4TiB'", 7036874417766ULL },   /* 6.4 x 2^40, rounded down */
        { "'3.84tb'", 3840000000000ULL },
        { "'512GiB'", 512ULL << 30 },
        { "'8000000000000'", 8 * TB },
        { "'1.5PB'", 1500 * TB },
        { "12345678901", 12345678901ULL },  /* a JSON number */
    };

    g_assert_cmpuint(qom_u64(qts, "cl", "modelled-capacity"), ==, 2 * TB);
    g_assert_cmpuint(qom_u64(qts, "gl", "modelled-capacity"), ==, TIB);
    for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
        g_autofree char *node = g_strdup_printf("k%zu", i);
        g_autofree char *props = g_strdup_printf(
            "'id': 'k%zu', 'drive': 'k%zu', 'modelled-capacity': %s", i, i,
            ok[i].given);
        g_autofree char *id = g_strdup_printf("k%zu", i);

        add_drive_node(qts, node, 64 * 1024 * 1024);
        g_assert_null(try_add(qts, props));
        g_assert_cmpuint(qom_u64(qts, id, "modelled-capacity"), ==,
                         ok[i].bytes);
    }
    add_drive_node(qts, "bad", 64 * 1024 * 1024);
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '6.4T'",
                 "modelled-capacity=6.4T is ambiguous: write 6.4TB for "
                 "6400000000000 bytes");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '6.4T'",
                 "6.4TiB for 7036874417766 bytes");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '2g'",
                 "write 2GB for 2000000000 bytes");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '1.5'",
                 "modelled-capacity='1.5' is not a size");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '6.4 TB'",
                 "is not a size");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': '99999PB'",
                 "is too large");
    expect_error(qts, "'drive': 'bad', 'modelled-capacity': -1",
                 "must be a byte count");
    qtest_quit(qts);
}

/*
 * QOM reads back what is in use: a drive's interface and media and its
 * modelled capacity when they were left to their defaults, the
 * controller's serial when not given.
 */
static void test_readback(void)
{
    QTestState *qts = start("-device megaraid-9600,id=r2,serial=LAB0001 "
                            "-blockdev driver=null-co,node-name=n0,"
                            "size=67108864 "
                            "-device megaraid-drive,id=a,bus=r.0,drive=n0 "
                            "-blockdev driver=null-co,node-name=n1,"
                            "size=67108864 "
                            "-device megaraid-drive,id=b,bus=r.0,drive=n1,"
                            "interface=sas,media=hdd");
    static const char *const want[][3] = {
        { "a", "interface", "nvme" }, { "a", "media", "ssd" },
        { "b", "interface", "sas" }, { "b", "media", "hdd" },
        { "r", "serial", "MRSIM00000000001" }, { "r2", "serial", "LAB0001" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        g_autofree char *path = g_strdup_printf("/machine/peripheral/%s",
                                                want[i][0]);
        g_autofree char *v = qts_qom_get_str(qts, path, want[i][1]);

        g_assert_cmpstr(v, ==, want[i][2]);
    }
    /* the profiles' capacities: micron-7450-max-6.4t, sas-hdd-7200-8t */
    g_assert_cmpuint(qom_u64(qts, "a", "modelled-capacity"), ==,
                     6400000000000ULL);
    g_assert_cmpuint(qom_u64(qts, "b", "modelled-capacity"), ==, 8 * TB);
    qtest_quit(qts);
}

/* device-list-properties of @type: name -> its QDict. */
static QDict *list_props(QTestState *qts, const char *type)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'device-list-properties', "
                           "'arguments': {'typename': %s}}", type);
    QDict *out = qdict_new();
    QList *l = qdict_get_qlist(rsp, "return");
    QListEntry *e;

    g_assert_nonnull(l);
    QLIST_FOREACH_ENTRY(l, e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));

        qdict_put_obj(out, qdict_get_str(p, "name"),
                      qobject_ref(QOBJECT(p)));
    }
    qobject_unref(rsp);
    return out;
}

static const char *prop_desc(QDict *p)
{
    return qdict_haskey(p, "description") ?
           qdict_get_str(p, "description") : "";
}

/*
 * -device ...,help: a default said once (not in the description and
 * again as QEMU's "(default: N)"), no sentinel number as a default (the
 * description says what "not given" means), read-only properties
 * marked: every property a realized device refuses to set as "not
 * writable" says "read-only" in its help.
 */
static void check_help(QTestState *qts, const char *type, const char *path,
                       const char *const *no_default)
{
    QDict *props = list_props(qts, type);
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-list', 'arguments': "
                           "{'path': %s}}", path);
    QList *l = qdict_get_qlist(rsp, "return");
    /* QEMU's PCIDevice properties: their help is QEMU's */
    static const char *const qemu_owned[] = { "busnr", NULL };
    g_autoptr(GString) unmarked = g_string_new(NULL);
    const QDictEntry *de;
    QListEntry *e;
    int ro = 0;

    for (de = qdict_first(props); de; de = qdict_next(props, de)) {
        QDict *p = qobject_to(QDict, qdict_entry_value(de));
        const char *name = qdict_entry_key(de);
        QObject *dv = qdict_get(p, "default-value");

        if (dv && strstr(prop_desc(p), "(default")) {
            g_test_message("%s.%s: default said twice: %s", type, name,
                           prop_desc(p));
            g_assert_not_reached();
        }
        if (dv && qobject_type(dv) == QTYPE_QNUM &&
            strcmp(name, "romsize")) {  /* QEMU's PCIDevice, not ours */
            uint64_t u;

            if (qnum_get_try_uint(qobject_to(QNum, dv), &u) &&
                (u == UINT32_MAX || u == UINT64_MAX)) {
                g_test_message("%s.%s: sentinel default %" PRIu64, type,
                               name, u);
                g_assert_not_reached();
            }
        }
    }
    for (int i = 0; no_default[i]; i++) {
        QDict *p = qdict_get_qdict(props, no_default[i]);

        g_assert_nonnull(p);
        if (qdict_haskey(p, "default-value")) {
            g_test_message("%s.%s shows a number as its default", type,
                           no_default[i]);
            g_assert_not_reached();
        }
    }
    QLIST_FOREACH_ENTRY(l, e) {
        QDict *q = qobject_to(QDict, qlist_entry_obj(e));
        const char *name = qdict_get_str(q, "name");
        QDict *p = qdict_get_qdict(props, name);
        QDict *got, *set;

        if (!p || !strcmp(name, "drive")) {
            /*
             * not in -device help; or QEMU's drive property, whose setter
             * on a realized device asserts when given its own node
             */
            continue;
        }
        got = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                        "{'path': %s, 'property': %s}}", path, name);
        if (!qdict_haskey(got, "return")) {
            qobject_unref(got);
            continue;
        }
        /* set it to what it reads: only a read-only one is refused so */
        set = qtest_qmp(qts, "{'execute': 'qom-set', 'arguments': "
                        "{'path': %s, 'property': %s, 'value': %p}}", path,
                        name, qobject_ref(qdict_get(got, "return")));
        if (qdict_haskey(set, "error") &&
            strstr(qdict_get_str(qdict_get_qdict(set, "error"), "desc"),
                   "is not writable")) {
            ro++;
            if (!strstr(prop_desc(p), "read-only") &&
                !g_strv_contains(qemu_owned, name)) {
                g_string_append_printf(unmarked, " %s", name);
            }
        }
        qobject_unref(got);
        qobject_unref(set);
    }
    if (unmarked->len) {
        g_test_message("%s: read-only, the help does not say so:%s", type,
                       unmarked->str);
        g_assert_not_reached();
    }
    g_assert_cmpint(ro, >, 2);
    qobject_unref(rsp);
    qobject_unref(props);
}

static void test_help(void)
{
    static const char *const drive_none[] = {
        "slot", "logical_block_size", "physical_block_size", "min_io_size",
        "opt_io_size", "discard_granularity", "rotation_rate", "wwn",
        "modelled-capacity", NULL,
    };
    static const char *const ctrl_none[] = { "cache-size", NULL };
    QTestState *qts = start("-blockdev driver=null-co,node-name=n0,"
                            "size=67108864 "
                            "-device megaraid-drive,id=a,bus=r.0,drive=n0");
    QDict *ctrl = list_props(qts, "megaraid-9600");

    g_assert_nonnull(strstr(prop_desc(qdict_get_qdict(ctrl, "cache-size")),
                            "(default 256M)"));
    g_assert_cmpint(qts_qom_get_int(qts, "/machine/peripheral/r",
                                    "cache-size"), ==, 256 * 1024 * 1024);
    qobject_unref(ctrl);
    check_help(qts, "megaraid-drive", "/machine/peripheral/a", drive_none);
    check_help(qts, "megaraid-9600", "/machine/peripheral/r", ctrl_none);
    qtest_quit(qts);
    if (qtest_has_device("megaraid-9500")) {
        qts = qtest_initf("%s-machine q35 -nodefaults "
                          "-device megaraid-9500,id=r", h_fw_args());
        check_help(qts, "megaraid-9500", "/machine/peripheral/r", ctrl_none);
        qtest_quit(qts);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-drive/refused", test_refused);
    qtest_add_func("/megaraid-drive/defaults", test_defaults);
    qtest_add_func("/megaraid-drive/limit-nvme", test_limit_nvme);
    qtest_add_func("/megaraid-drive/limit-sas", test_limit_sas);
    qtest_add_func("/megaraid-drive/full-card", test_full_card);
    qtest_add_func("/megaraid-drive/capacity-units", test_capacity_units);
    qtest_add_func("/megaraid-drive/readback", test_readback);
    qtest_add_func("/megaraid-drive/help", test_help);
    return g_test_run();
}
