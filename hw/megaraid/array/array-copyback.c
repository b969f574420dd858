/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: copyback at run time (the RAID core's copyback.c does
 * the configuration): a blank drive put into the bay of a member that a hot
 * spare replaced gets the spare's data copied back once the drive group
 * is optimal and idle (at once, or when the rebuild or another job
 * ends), as the card does with copyback enabled (the controller's QOM
 * property "copyback", default on); a copyback started and stopped by
 * the management; the data path's view of it (MRVirtualDisk.copy_on: a
 * member's writes also go to the drive it is copied onto); the host's
 * view of the drives a copyback takes and lets go.  The copy itself is
 * the VD's job (jobs/, RAID_JOB_COPYBACK); every change goes to the
 * drives as DDF through mr_array_changed() or the job's checkpoints.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/coroutine.h"
#include "array.h"
#include "trace.h"

void mr_vd_copy_sync(MRVirtualDisk *vd, const int *pds, int n)
{
    RaidConfig *cfg = vd->array->cfg;
    int src, dst;

    vd->copy_on = false;
    if (n >= RAID_MAX_MEMBERS ||
        !raid_copyback_of_dg(cfg, mr_vd_cfg(vd)->dg, &src, &dst) ||
        !vd->array->pd_drive[dst]) {
        return;
    }
    for (int m = 0; m < n; m++) {
        if (pds[m] == src) {
            vd->copy_on = true;
            vd->copy_member = m;
            vd->member_pd[n] = dst;
        }
    }
}

bool mr_array_copyback_onto(MRArray *a, int pd)
{
    GError *err = NULL;
    int src;

    if (!a->copyback || pd < 0 || a->cfg->foreign || !a->pd_drive[pd] ||
        a->cfg->pds[pd].state != RAID_PD_UNCONF_GOOD ||
        !a->cfg->pds[pd].arrived_blank) {
        /* (a member the spare replaced, back, is not a new drive) */
        return false;
    }
    src = raid_copyback_source_for_slot(a->cfg, a->cfg->pds[pd].slot);
    if (src < 0 || !a->pd_drive[src]) {
        return false;
    }
    if (!raid_copyback_start(a->cfg, src, pd, &err)) {
        trace_megaraid_array_copyback_refused(a->cfg->pds[pd].slot,
                                              err->message);
        g_error_free(err);
        return false;
    }
    trace_megaraid_array_copyback(a->cfg->pds[src].slot,
                                  a->cfg->pds[pd].slot, "auto");
    a->meta_extra[pd] = true;
    return true;
}

/* Every VD with a job that may run gets its coroutine (and its entry). */
static void mr_array_copy_kick(MRArray *a)
{
    mr_array_refresh(a);
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            mr_jobs_kick(a->vds[v]);
        }
    }
}

bool mr_array_copyback_auto(MRArray *a)
{
    bool any = false;

    for (int pd = 0; pd < a->cfg->npds; pd++) {
        MRDrive *d = a->pd_drive[pd];

        if (mr_array_copyback_onto(a, pd)) {
            mr_array_tell_drive(a, d);
            any = true;
        } else if (d && a->cfg->pds[pd].state == RAID_PD_UNCONF_GOOD &&
                   d->in_array && !d->meta_pending) {
            /* a member a finished copyback let go: the host's again */
            mr_array_tell_drive(a, d);
        }
    }
    if (any) {
        mr_array_copy_kick(a);
    }
    return any;
}

bool *mr_array_copy_targets(MRArray *a)
{
    bool *was = g_new0(bool, RAID_MAX_PDS);

    for (int pd = 0; a->cfg && pd < a->cfg->npds; pd++) {
        was[pd] = a->cfg->pds[pd].state == RAID_PD_COPYBACK;
    }
    return was;
}

void mr_array_copy_released(MRArray *a, const bool *was)
{
    for (int pd = 0; a->cfg && pd < a->cfg->npds; pd++) {
        if (was[pd] && a->cfg->pds[pd].state != RAID_PD_COPYBACK &&
            a->pd_drive[pd]) {
            /* a copyback let it go (its source failed, ...): the host's */
            trace_megaraid_array_copyback_released(a->pd_drive[pd]->slot,
                raid_pd_state_name(a->cfg->pds[pd].state));
            mr_array_tell_drive(a, a->pd_drive[pd]);
        }
    }
}

bool mr_array_copyback_start(MRArray *a, MRDrive *src, MRDrive *dst,
                             Error **errp)
{
    int s = mr_array_pd_of(a, src), d = mr_array_pd_of(a, dst);
    GError *err = NULL;

    if (s < 0 || d < 0) {
        error_setg(errp, "the drive in slot %u cannot hold RAID metadata "
                   "(too small, or foreign)", s < 0 ? src->slot : dst->slot);
        return false;
    }
    if (!raid_copyback_start(a->cfg, s, d, &err)) {
        error_setg(errp, "%s", err->message);
        g_error_free(err);
        return false;
    }
    trace_megaraid_array_copyback(src->slot, dst->slot, "management");
    a->meta_extra[d] = true;
    mr_array_tell_drive(a, dst);
    mr_array_changed(a);
    return true;
}

bool coroutine_mixed_fn mr_array_copyback_stop(MRArray *a, MRDrive *d,
                                               Error **errp)
{
    MRVirtualDisk *vds[RAID_MAX_VDS];
    int pd = mr_array_pd_of(a, d), src, dst, dg, n = 0;

    dg = raid_copyback_of_pd(a->cfg, pd, &src, &dst);
    if (dg < 0) {
        error_setg(errp, "no copyback runs from or onto the drive in slot "
                   "%u", d->slot);
        return false;
    }
    /* every copy job of the group asked at once, then waited for */
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MRVirtualDisk *vd = a->vds[v];

        if (vd && mr_vd_cfg(vd)->dg == dg &&
            mr_vd_cfg(vd)->job.kind == RAID_JOB_COPYBACK) {
            vd->job_paused = true;      /* no kick starts it again */
            vd->job_stop_waiters++;     /* a VD DELETE waits for this */
            mr_jobs_abort(vd);
            vds[n++] = vd;
        }
    }
    for (int i = 0; i < n; i++) {
        mr_jobs_stop(vds[i]);           /* yields in a coroutine */
    }
    for (int i = 0; i < n; i++) {
        if (!vds[i]->deleting) {
            vds[i]->job_paused = false;
            if (mr_vd_cfg(vds[i])->job.kind == RAID_JOB_COPYBACK) {
                a->hooks->jobs.event(vds[i], MR_EV_JOB_ABORTED,
                                     RAID_JOB_COPYBACK, 0);
            }
        }
        vds[i]->job_stop_waiters--;
    }
    /* (the copy's last window may have ended it meanwhile) */
    pd = mr_array_pd_of(a, d);
    if (raid_copyback_of_pd(a->cfg, pd, &src, &dst) != dg) {
        return true;
    }
    raid_copyback_abandon(a->cfg, dst);
    /* stopped by hand: not started again by itself for this member */
    a->cfg->pds[src].spare_took = false;
    trace_megaraid_array_copyback_stopped(a->cfg->pds[src].slot,
                                          a->cfg->pds[dst].slot);
    if (a->pd_drive[dst]) {
        mr_array_tell_drive(a, a->pd_drive[dst]);
    }
    mr_array_changed(a);
    return true;
}

/* ---- the controller's QOM property "copyback" ---- */

static MRArray *mr_cb_obj_array(Object *obj, void *opaque)
{
    return *(MRArray **)((char *)obj + (ptrdiff_t)opaque);
}

static void mr_get_copyback(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    bool on = mr_cb_obj_array(obj, opaque)->copyback;

    visit_type_bool(v, name, &on, errp);
}

static void mr_set_copyback(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    MRArray *a = mr_cb_obj_array(obj, opaque);
    bool on;

    if (!visit_type_bool(v, name, &on, errp)) {
        return;
    }
    a->copyback = on;
    if (on && a->cfg && a->imported) {
        /* a drive that waited for it in a replaced member's bay */
        mr_array_copyback_auto(a);
    }
}

void mr_array_class_props_copyback(ObjectClass *oc, ptrdiff_t array_offset)
{
    object_class_property_add(oc, "copyback", "bool", mr_get_copyback,
                              mr_set_copyback, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "copyback",
        "copy a hot spare that replaced a failed member back onto a new "
        "drive put into that member's bay, the spare a spare again "
        "(default on, as on the card)");
}
