/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the stops that management asks of running work (JOB
 * CONTROL pause and stop, a rebuild stopped, PATROL CONTROL stop).  The
 * stop is asked at once; waiting for the job's current window runs in a
 * coroutine (mr_cfg_later), never as a nested event loop on the main
 * loop, and what follows the stop (the cursor cleared, the abort logged,
 * the drive failed) runs there once the job has stopped.  The management
 * reply waits for it.
 */
#include "qemu/osdep.h"
#include "qemu/coroutine.h"
#include "qemu/timer.h"
#include "hw/megaraid/patrol.h"
#include "hw/megaraid/jobs/jobs.h"
#include "array-config.h"
#include "trace.h"

typedef struct MRCfgStop {
    int n;
    MRVirtualDisk *vds[RAID_MAX_VDS];
    MRCfgStopThen *then;
    void *opaque;
} MRCfgStop;

static bool coroutine_fn mr_cfg_stop_co(MRArray *a, void *opaque)
{
    MRCfgStop *s = opaque;
    MRVirtualDisk *left[RAID_MAX_VDS];
    int n = 0;

    for (int i = 0; i < s->n; i++) {
        mr_jobs_stop(s->vds[i]);        /* waits in this coroutine */
    }
    for (int i = 0; i < s->n; i++) {
        if (!s->vds[i]->deleting) {
            left[n++] = s->vds[i];
        }
    }
    trace_megaraid_cfg_jobs_stopped(s->n, n);
    if (s->then) {
        s->then(a, left, n, s->opaque);
    }
    for (int i = 0; i < s->n; i++) {
        /* (a VD DELETE waiting for this frees the VD now) */
        s->vds[i]->job_stop_waiters--;
    }
    g_free(s);
    return true;
}

void mr_cfg_stop_jobs(MRArray *a, MRVirtualDisk *const *vds, int n,
                      MRCfgStopThen *then, void *opaque)
{
    MRCfgStop *s = g_new0(MRCfgStop, 1);

    assert(n >= 0 && n <= RAID_MAX_VDS);
    s->n = n;
    s->then = then;
    s->opaque = opaque;
    for (int i = 0; i < n; i++) {
        s->vds[i] = vds[i];
        vds[i]->job_stop_waiters++;
    }
    trace_megaraid_cfg_jobs_stop(n);
    /* the coroutine asks each job to stop before it first waits */
    mr_cfg_later(a, mr_cfg_stop_co, s);
}

static bool coroutine_fn mr_cfg_patrol_stop_co(MRArray *a, void *opaque)
{
    mr_patrol_stop(a);                  /* waits in this coroutine */
    return true;
}

void mr_cfg_stop_patrol(MRArray *a)
{
    mr_cfg_later(a, mr_cfg_patrol_stop_co, NULL);
}
