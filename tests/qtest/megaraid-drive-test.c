/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-drive's properties and realize checks,
 * through device_add on a megaraid-9600's bus: defaults per interface,
 * slot assignment, every refused configuration with its message, and
 * the card's limits (32 NVMe, 240 SAS/SATA drives).
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qobject/qjson.h"
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-drive/refused", test_refused);
    qtest_add_func("/megaraid-drive/defaults", test_defaults);
    qtest_add_func("/megaraid-drive/limit-nvme", test_limit_nvme);
    qtest_add_func("/megaraid-drive/limit-sas", test_limit_sas);
    qtest_add_func("/megaraid-drive/full-card", test_full_card);
    return g_test_run();
}
