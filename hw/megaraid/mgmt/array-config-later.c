/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the part of a run-time configuration change that waits
 * for I/O (a deleted VD's job window, member I/O and destage; a job's
 * window before it stops).  It runs in a coroutine, never as a nested
 * event loop on the main loop; the management reply of the command that
 * started it (mr_mgmt_execute_async) waits for it and for the metadata
 * pass it asked for.
 */
#include "qemu/osdep.h"
#include "qemu/coroutine.h"
#include "qemu/main-loop.h"
#include "array-config.h"
#include "trace.h"

struct MRCfgLater {
    MRArray *a;
    MRCfgLaterFn *fn;
    void *opaque;
    bool finished;
    bool ok;                    /* what @fn returned */
    MRMetaDone *done;           /* the reply, once claimed */
    void *done_opaque;
};

static void mr_cfg_later_reply(MRCfgLater *l)
{
    if (!l->ok) {
        /* it failed: the reply says so at once (no pass to wait for) */
        trace_megaraid_cfg_later_failed();
        l->done(l->done_opaque, false);
        g_free(l);
        return;
    }
    trace_megaraid_cfg_later_done(l->a->meta_asked);
    mr_array_when_stored(l->a, l->a->meta_asked, l->done, l->done_opaque);
    g_free(l);
}

static void coroutine_fn mr_cfg_later_co(void *opaque)
{
    MRCfgLater *l = opaque;
    MRArray *a = l->a;

    l->ok = l->fn(a, l->opaque);
    l->finished = true;
    a->cfg_later_busy--;
    if (l->done) {
        mr_cfg_later_reply(l);
    } else if (a->cfg_later != l) {
        g_free(l);              /* nobody waits for it */
    }
}

void mr_cfg_later(MRArray *a, MRCfgLaterFn *fn, void *opaque)
{
    MRCfgLater *l = g_new0(MRCfgLater, 1);

    l->a = a;
    l->fn = fn;
    l->opaque = opaque;
    /* (one per command: the last one started is the one replied after) */
    a->cfg_later = l;
    a->cfg_later_busy++;
    trace_megaraid_cfg_later_start();
    aio_co_enter(qemu_get_aio_context(),
                 qemu_coroutine_create(mr_cfg_later_co, l));
}

bool mr_cfg_later_claim(MRArray *a, MRMetaDone *done, void *opaque)
{
    MRCfgLater *l = a->cfg_later;

    if (!l) {
        return false;
    }
    a->cfg_later = NULL;
    l->done = done;
    l->done_opaque = opaque;
    if (l->finished) {
        mr_cfg_later_reply(l);
    }
    return true;
}
