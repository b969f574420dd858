/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the drive property of the controller's own state
 * (journal=, event-log=, config-nvram=) and its claim at realize
 * (nv-drive.h).
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/qobject-input-visitor.h"
#include "qapi/visitor.h"
#include "qobject/qstring.h"
#include "hw/qdev-properties-system.h"
#include "block/block_int-common.h"
#include "hw/megaraid/nv-drive.h"

const char *mr_nv_drive_name(BlockBackend *blk)
{
    const char *name = blk_name(blk);

    if (!*name && blk_bs(blk)) {
        name = bdrv_get_node_name(blk_bs(blk));
    }
    return name;
}

char *mr_nv_drive_desc(BlockBackend *blk)
{
    BlockDriverState *bs = blk_bs(blk);

    if (!bs || !*bs->filename) {
        return g_strdup_printf("'%s'", mr_nv_drive_name(blk));
    }
    return g_strdup_printf("'%s' (%s)", mr_nv_drive_name(blk), bs->filename);
}

/*
 * Before the drive property itself: a value that names no drive was, in
 * all likelihood, the file name these properties took before they
 * became drives.
 */
static void mr_nv_drive_set(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    g_autofree char *str = NULL;
    Visitor *sv;

    if (!visit_type_str(v, name, &str, errp)) {
        return;
    }
    if (*str && !blk_by_name(str) && !bdrv_lookup_bs(NULL, str, NULL)) {
        error_setg(errp, "%s: '%s' is not a block device node name or "
                   "drive id; the %s is now a QEMU drive: -blockdev "
                   "driver=file,filename=%s,node-name=%s0 -device %s,...,"
                   "%s=%s0 (README.md, \"The controller's own state\")",
                   name, str, name, str, name, object_get_typename(obj),
                   name, name);
        return;
    }
    sv = qobject_input_visitor_new(QOBJECT(qstring_from_str(str)));
    qdev_prop_drive.set(obj, sv, name, opaque, errp);
    visit_free(sv);
}

/* Reading and releasing are those of QEMU's own drive property. */
static void mr_nv_drive_get(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    qdev_prop_drive.get(obj, v, name, opaque, errp);
}

static void mr_nv_drive_release(Object *obj, const char *name, void *opaque)
{
    qdev_prop_drive.release(obj, name, opaque);
}

const PropertyInfo mr_prop_nv_drive = {
    .type = "str",
    .description = "Node name or drive id of the QEMU drive that holds "
                   "this state",
    .realized_set_allowed = false,
    .get = mr_nv_drive_get,
    .set = mr_nv_drive_set,
    .release = mr_nv_drive_release,
};

bool mr_nv_drive_claim(BlockBackend *blk, const char *prop, uint64_t need,
                       const char *why, Error **errp)
{
    g_autofree char *desc = mr_nv_drive_desc(blk);
    int64_t len;

    if (!blk_bs(blk)) {
        error_setg(errp, "%s: drive %s has no medium", prop, desc);
        return false;
    }
    if (!blk_supports_write_perm(blk)) {
        error_setg(errp, "%s: drive %s is read-only; the %s is written",
                   prop, desc, prop);
        return false;
    }
    /* readers may share it (qemu-img info -U); no other writer */
    if (blk_set_perm(blk, BLK_PERM_CONSISTENT_READ | BLK_PERM_WRITE,
                     BLK_PERM_CONSISTENT_READ | BLK_PERM_WRITE_UNCHANGED,
                     errp) < 0) {
        error_prepend(errp, "%s: drive %s: ", prop, desc);
        return false;
    }
    len = blk_getlength(blk);
    if (len < 0) {
        error_setg_errno(errp, -len, "%s: drive %s: cannot get its size",
                         prop, desc);
        return false;
    }
    if ((uint64_t)len < need) {
        bool mib = !(need % MiB);

        error_setg(errp, "%s: drive %s has %" PRId64 " bytes; the %s needs "
                   "at least %" PRIu64 " (%s): e.g. qemu-img create -f qcow2 "
                   "FILE %" PRIu64 "%s", prop, desc, len, prop, need, why,
                   mib ? need / MiB : DIV_ROUND_UP(need, KiB),
                   mib ? "M" : "K");
        return false;
    }
    return true;
}
