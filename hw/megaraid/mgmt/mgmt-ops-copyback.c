/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's copyback (JOB_CONTROL with
 * job MGMT_JOB_COPYBACK, mgmt-proto.h): start one from a member onto an
 * unconfigured-good drive, stop it (the new drive is unconfigured good
 * again, the member stays), pause and resume it.  The copyback is
 * array-copyback.c's and the RAID core's; the reply of a change waits
 * for its metadata (mr_mgmt_execute_async).  A stop or a pause waits for
 * the copy's current window in a coroutine (mr_cfg_later), and the reply
 * after it.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/coroutine.h"
#include "mgmt-ops.h"
#include "array-config.h"
#include "trace.h"

static MRDrive *mgmt_cb_drive(MgmtCtx *c, int i, uint8_t *st)
{
    MRDrive *d = mgmt_drive(c, c->mbox[i]);

    *st = d ? MGMT_STAT_OK
            : mgmt_refuse(c, MGMT_STAT_DEVICE_NOT_FOUND, MGMT_OFF_MBOX(i),
                          c->mbox[i]);
    return d;
}

/* The first VD of @dg being copied, or NULL. */
static MRVirtualDisk *mgmt_cb_first(MRArray *a, int dg)
{
    for (int v = 0; v < RAID_MAX_VDS && dg >= 0; v++) {
        MRVirtualDisk *vd = a->vds[v];

        if (vd && mr_vd_cfg(vd)->dg == dg &&
            mr_vd_cfg(vd)->job.kind == RAID_JOB_COPYBACK) {
            return vd;
        }
    }
    return NULL;
}

static uint8_t mgmt_cb_reply(MgmtCtx *c, MRVirtualDisk *vd)
{
    if (!vd || mgmt_need(c, sizeof(MgmtJobStatus))) {
        return MGMT_STAT_OK;    /* done already; or no room for it */
    }
    mgmt_fill_job(vd, (MgmtJobStatus *)c->out);
    c->out_len = sizeof(MgmtJobStatus);
    return MGMT_STAT_OK;
}

/* The reply of a pause, once its jobs have stopped: their status then. */
static void mgmt_cb_refill(MgmtCtx *c)
{
    MRDrive *d = mgmt_drive(c, c->mbox[0]);
    int src, dst, dg;

    if (d) {
        dg = raid_copyback_of_pd(c->a->cfg, mr_array_pd_of(c->a, d), &src,
                                 &dst);
        mgmt_cb_reply(c, mgmt_cb_first(c->a, dg));
    }
}

/* A stop, after the checks: the copy jobs waited for, the copy dropped. */
static bool coroutine_fn mgmt_cb_stop_co(MRArray *a, void *opaque)
{
    /* (false only if the copy ended meanwhile: nothing left to stop) */
    mr_array_copyback_stop(a, opaque, NULL);
    return true;
}

static uint8_t mgmt_cb_start(MgmtCtx *c, MRDrive *src)
{
    Error *err = NULL;
    int s, d, dg;
    uint8_t st;
    MRDrive *dst = mgmt_cb_drive(c, 3, &st);

    if (!dst) {
        return st;
    }
    s = mr_array_pd_of(c->a, src);
    if (s >= 0 && raid_copyback_of_pd(c->a->cfg, s, &s, &d) >= 0) {
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_OFF_MBOX(0), c->mbox[0]);
    }
    if (!mr_array_copyback_start(c->a, src, dst, &err)) {
        trace_megaraid_mgmt_refused(c->opcode, error_get_pretty(err));
        error_free(err);
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                           mgmt_pd_state(c->a, src));
    }
    dg = raid_copyback_of_pd(c->a->cfg, mr_array_pd_of(c->a, dst), &s, &d);
    trace_megaraid_mgmt_copyback(src->slot, dst->slot, MGMT_JOB_START);
    return mgmt_cb_reply(c, mgmt_cb_first(c->a, dg));
}

uint8_t mgmt_copyback_control(MgmtCtx *c)
{
    uint32_t action = c->mbox[2];
    MRVirtualDisk *paused[RAID_MAX_VDS];
    MRVirtualDisk *first;
    int src, dst, dg, n = 0;
    uint8_t st;
    MRDrive *d;

    if (action < MGMT_JOB_START || action > MGMT_JOB_RESUME) {
        return mgmt_bad_mbox(c, 2);
    }
    d = mgmt_cb_drive(c, 0, &st);
    if (!d) {
        return st;
    }
    if (c->a->cfg->foreign) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_ERR_OFFSET_NONE,
                           MGMT_PD_FOREIGN);
    }
    if (action == MGMT_JOB_START) {
        return mgmt_cb_start(c, d);
    }
    if (c->mbox[3]) {
        return mgmt_bad_mbox(c, 3);
    }
    dg = raid_copyback_of_pd(c->a->cfg, mr_array_pd_of(c->a, d), &src,
                             &dst);
    first = mgmt_cb_first(c->a, dg);
    if (dg < 0 || !first) {
        return mgmt_refuse(c, MGMT_STAT_NO_JOB, MGMT_OFF_MBOX(0), c->mbox[0]);
    }
    trace_megaraid_mgmt_copyback(c->a->cfg->pds[src].slot,
                                 c->a->cfg->pds[dst].slot, action);
    if (action == MGMT_JOB_STOP) {
        /* the reply after the stop, with no job left to report */
        mr_cfg_later(c->a, mgmt_cb_stop_co, d);
        return MGMT_STAT_OK;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MRVirtualDisk *vd = c->a->vds[v];

        if (!vd || mr_vd_cfg(vd)->dg != dg ||
            mr_vd_cfg(vd)->job.kind != RAID_JOB_COPYBACK) {
            continue;
        }
        vd->job_paused = action == MGMT_JOB_PAUSE;
        if (vd->job_paused) {
            paused[n++] = vd;
        } else {
            mr_jobs_kick(vd);
        }
    }
    if (n) {
        /* the reply once the copy jobs have stopped, with their status */
        mr_cfg_stop_jobs(c->a, paused, n, NULL, NULL);
        c->m->refill = mgmt_cb_refill;
    }
    return mgmt_cb_reply(c, first);
}
