/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the part of the qtest core that no host interface owns:
 * the firmware search path QEMU is started with, and qom-get/qom-set
 * helpers on a QTestState.  The MPI3 host layer (megaraid-harness.h), the
 * Fusion host layer (megaraid-fusion-host.h) and the DDF rig
 * (megaraid-ddf-rig.h) build on it.  Everything is static inline: a qtest
 * includes what it uses.
 */
#ifndef MEGARAID_QTEST_CORE_H
#define MEGARAID_QTEST_CORE_H

#include "libqtest.h"
#include "libqos/libqos.h"
#include "qobject/qdict.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"

/* Firmware search path when the build tree has no pc-bios/ copy. */
static inline const char *h_fw_args(void)
{
    if (g_file_test("pc-bios/bios-256k.bin", G_FILE_TEST_EXISTS) ||
        !g_file_test("/usr/share/seabios/bios-256k.bin", G_FILE_TEST_EXISTS)) {
        return "";
    }
    return "-L /usr/share/seabios -L /usr/share/qemu ";
}

/* @size bytes of zeroed guest memory */
static inline uint64_t qc_alloc(QOSState *qs, size_t size)
{
    uint64_t a = guest_alloc(&qs->alloc, size);

    g_assert(a);
    qtest_memset(qs->qts, a, 0, size);
    return a;
}

/* ----------------------------------------------------------------- QOM */

static inline QDict *qts_qom_set(QTestState *qts, const char *path,
                                 const char *prop, QObject *val)
{
    QDict *args = qdict_new();

    qdict_put_str(args, "path", path);
    qdict_put_str(args, "property", prop);
    qdict_put_obj(args, "value", val);
    return qtest_qmp(qts, "{'execute': 'qom-set', 'arguments': %p}", args);
}

/* qom-set that must succeed (the error is logged if it does not). */
static inline void qts_qom_set_ok(QTestState *qts, const char *path,
                                  const char *prop, QObject *val)
{
    QDict *rsp = qts_qom_set(qts, path, prop, val);

    if (!qdict_haskey(rsp, "return")) {
        g_test_message("qom-set %s %s: %s", path, prop,
                       qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
    }
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

static inline void qts_qom_set_str(QTestState *qts, const char *path,
                                   const char *prop, const char *val)
{
    qts_qom_set_ok(qts, path, prop, QOBJECT(qstring_from_str(val)));
}

static inline void qts_qom_set_int(QTestState *qts, const char *path,
                                   const char *prop, int64_t val)
{
    qts_qom_set_ok(qts, path, prop, QOBJECT(qnum_from_int(val)));
}

static inline QDict *qts_qom_get(QTestState *qts, const char *path,
                                 const char *prop)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments':"
                           " {'path': %s, 'property': %s}}", path, prop);

    g_assert_true(qdict_haskey(rsp, "return"));
    return rsp;
}

static inline char *qts_qom_get_str(QTestState *qts, const char *path,
                                    const char *prop)
{
    QDict *rsp = qts_qom_get(qts, path, prop);
    char *s = g_strdup(qdict_get_str(rsp, "return"));

    qobject_unref(rsp);
    return s;
}

static inline int64_t qts_qom_get_int(QTestState *qts, const char *path,
                                      const char *prop)
{
    QDict *rsp = qts_qom_get(qts, path, prop);
    int64_t v = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return v;
}

/*
 * The drive named @key @name (key "id": the qdev id of a device with a
 * drive; "device": a -drive id) takes @rd reads and @wr writes a second,
 * of the virtual clock under qtest (0: unlimited).
 */
static inline void qts_throttle_rw(QTestState *qts, const char *key,
                                   const char *name, int rd, int wr)
{
    QDict *args = qdict_new();
    QDict *rsp;

    qdict_put_str(args, key, name);
    qdict_put_int(args, "bps", 0);
    qdict_put_int(args, "bps_rd", 0);
    qdict_put_int(args, "bps_wr", 0);
    qdict_put_int(args, "iops", 0);
    qdict_put_int(args, "iops_rd", rd);
    qdict_put_int(args, "iops_wr", wr);
    rsp = qtest_qmp(qts, "{'execute': 'block_set_io_throttle',"
                    " 'arguments': %p}", args);
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
}

/* The same for writes only: @iops writes a second. */
static inline void qts_throttle_drive(QTestState *qts, const char *key,
                                      const char *name, int iops)
{
    qts_throttle_rw(qts, key, name, 0, iops);
}

/*
 * Hot plug image @file (raw) as node @node and megaraid-drive @id in slot
 * @slot of the controller raid0, with interface @iface.
 */
static inline void qts_plug_drive(QTestState *qts, const char *node,
                                  const char *file, const char *id,
                                  int slot, const char *iface)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'blockdev-add', 'arguments': "
                           "{'driver': 'raw', 'node-name': %s, 'file': "
                           "{'driver': 'file', 'filename': %s}}}",
                           node, file);

    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    qtest_qmp_device_add(qts, "megaraid-drive", id,
                         "{'bus': 'raid0.0', 'slot': %d, 'drive': %s, "
                         "'interface': %s}", slot, node, iface);
}

/* The device @id (a qdev id of a device with a drive): as above. */
static inline void qts_throttle_writes(QTestState *qts, const char *id,
                                       int iops)
{
    qts_throttle_drive(qts, "id", id, iops);
}

/* ... and its reads (@iops a second; 0: unlimited). */
static inline void qts_throttle_reads(QTestState *qts, const char *id,
                                      int iops)
{
    qts_throttle_rw(qts, "id", id, iops, 0);
}

#endif
