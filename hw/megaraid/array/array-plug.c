/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a drive hot-plugged while the machine runs.  Its DDF
 * metadata is read in a coroutine, so a slow drive never stops the main
 * loop; until the read is done the drive is pending (hidden, outside the
 * configuration, told to no host), then the array places it (returning
 * member, foreign, unconfigured good) and the personality is told.
 */
#include "qemu/osdep.h"
#include "qemu/coroutine.h"
#include "qom/object.h"
#include "system/block-backend.h"
#include "block/aio-wait.h"
#include "raid/ddf.h"
#include "array.h"
#include "trace.h"

typedef struct MRDriveRead {
    MRArray *a;
    MRDrive *d;
    bool plugging;              /* inside the plug: it tells the host */
} MRDriveRead;

static void coroutine_fn mr_array_drive_read_co(void *opaque)
{
    MRDriveRead *r = opaque;
    MRArray *a = r->a;
    MRDrive *d = r->d;
    DdfDriveIO io = mr_ddf_io(d);
    DdfDriveRead rd = { 0 };
    bool ok;

    trace_megaraid_array_drive_read(d->slot);
    ok = ddf_drive_read(&io, &rd, NULL);
    trace_megaraid_array_drive_read_done(d->slot, ok);
    d->meta_pending = false;
    d->in_array = false;
    if (a->cfg) {
        mr_array_drive_place(a, d, ok ? &rd : NULL);
        if (!r->plugging && a->ops->drive_arrived) {
            a->ops->drive_arrived(a->opaque, d);
        }
    }
    ddf_drive_read_clear(&rd);
    a->drive_reads--;
    object_unref(OBJECT(d));
    g_free(r);
    aio_wait_kick();
}

bool mr_array_drive_plugged(MRArray *a, MRDrive *d)
{
    MRDriveRead *r;

    if (!a->cfg || !d->conf.blk) {
        return true;            /* the import at start will see it */
    }
    r = g_new0(MRDriveRead, 1);
    r->a = a;
    r->d = d;
    d->meta_pending = true;
    d->in_array = true;         /* hidden until it has its place */
    a->drive_reads++;
    r->plugging = true;
    object_ref(OBJECT(d));
    qemu_coroutine_enter(qemu_coroutine_create(mr_array_drive_read_co, r));
    if (!d->meta_pending) {
        return true;            /* read at once (r is gone) */
    }
    r->plugging = false;
    return false;
}

void mr_array_drive_read_wait(MRArray *a, MRDrive *d)
{
    if (d) {
        AIO_WAIT_WHILE_UNLOCKED(NULL, d->meta_pending);
    } else {
        /* (and a configuration change's coroutine, array-config.h) */
        AIO_WAIT_WHILE_UNLOCKED(NULL,
                                a->drive_reads > 0 || a->cfg_later_busy > 0);
    }
}
