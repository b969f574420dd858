/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's own non-volatile state on QEMU drives.
 *
 * The cache journal (the CacheVault flash), the event log and the
 * megaraid-9600's config NVRAM each live on a drive given by a property
 * (journal=, event-log=, config-nvram=) that takes a -blockdev node name
 * or a -drive id, as pflash's drive= does: any format QEMU opens (raw,
 * qcow2, NBD...), and QEMU's image locking keeps a second process from
 * writing the same image.  This header is what the three share: the
 * property type (it refuses the old file-name values with a message that
 * says what to write instead, and cannot be changed once the controller
 * is realized) and the claim at realize (write permission, the image
 * lock, the size each needs).
 */
#ifndef HW_MEGARAID_NV_DRIVE_H
#define HW_MEGARAID_NV_DRIVE_H

#include "hw/qdev-properties.h"
#include "system/block-backend.h"

extern const PropertyInfo mr_prop_nv_drive;

#define DEFINE_PROP_MR_NV_DRIVE(_n, _s, _f) \
    DEFINE_PROP(_n, _s, _f, mr_prop_nv_drive, BlockBackend *)

/*
 * Take @blk for the state behind property @prop: write permission, no
 * other writer (QEMU's image lock), at least @need bytes.  @why says what
 * the size is made of, for the error message.  False with @errp naming
 * the property, the drive and the problem.
 */
bool mr_nv_drive_claim(BlockBackend *blk, const char *prop, uint64_t need,
                       const char *why, Error **errp);
/* The drive's id or node name, for traces. */
const char *mr_nv_drive_name(BlockBackend *blk);
/* "'NAME' (FILE)", or "'NAME'" without a file name, for messages. */
char *mr_nv_drive_desc(BlockBackend *blk);

#endif
