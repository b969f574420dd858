/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: run-time changes of the controller's RAID configuration
 * (see array-config.h): VDs created and deleted, drive states set by the
 * host, rebuilds started on a chosen drive, foreign configurations
 * imported or cleared.  The RAID core checks every change on the
 * configuration; this file applies it to the run-time VDs, writes the
 * DDF metadata and tells the controller what its host must learn.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/coroutine.h"
#include "qom/object.h"
#include "system/block-backend.h"
#include "raid/job.h"
#include "array-config.h"
#include "hw/megaraid/array/evlog-array.h"
#include "trace.h"

static bool mr_cfg_fail(MRCfgError *why, MRCfgError code)
{
    if (why) {
        *why = code;
    }
    return false;
}

static bool mr_cfg_gerr(Error **errp, MRCfgError *why, MRCfgError code,
                        GError *gerr)
{
    error_setg(errp, "%s", gerr->message);
    g_error_free(gerr);
    return mr_cfg_fail(why, code);
}

static void mr_cfg_tell_drive(MRArray *a, MRDrive *d)
{
    if (d) {
        mr_array_tell_drive(a, d);
    }
}

bool mr_array_pd_position(MRArray *a, int pd, int *dg, int *span, int *pos)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        const RaidDriveGroup *grp = &a->cfg->dgs[g];

        if (!grp->used) {
            continue;
        }
        for (int s = 0; s < grp->nspans; s++) {
            for (int k = 0; k < grp->span[s].ndrives; k++) {
                if (grp->span[s].pd[k] == pd) {
                    *dg = g;
                    *span = s;
                    *pos = k;
                    return true;
                }
            }
        }
    }
    return false;
}

/*
 * After mr_array_changed() asked for the configuration's metadata on its
 * drives: the unconfigured drives in @pds get it too, in the same
 * metadata writer (so that, at the next start, they are not read back as
 * what they were before).
 */
static bool mr_cfg_store(MRArray *a, const int *pds, int n, MRCfgError *why,
                         Error **errp)
{
    for (int i = 0; i < n; i++) {
        RaidPdState st = a->cfg->pds[pds[i]].state;

        if ((st == RAID_PD_UNCONF_GOOD || st == RAID_PD_UNCONF_BAD) &&
            a->pd_drive[pds[i]]) {
            trace_megaraid_cfg_write_pd(a->pd_drive[pds[i]]->slot,
                                        a->cfg->seq);
            mr_array_store_pd(a, pds[i]);
        }
    }
    return true;
}

/* The QOM properties of a VD index ("vdN-..."): a deleted VD's go. */
static void mr_cfg_drop_vd_props(MRArray *a, int idx)
{
    g_autofree char *prefix = g_strdup_printf("vd%d-", idx);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    ObjectPropertyIterator iter;
    ObjectProperty *prop;

    if (!a->owner) {
        return;
    }
    object_property_iter_init(&iter, a->owner);
    while ((prop = object_property_iter_next(&iter))) {
        if (g_str_has_prefix(prop->name, prefix)) {
            g_ptr_array_add(names, g_strdup(prop->name));
        }
    }
    for (guint i = 0; i < names->len; i++) {
        object_property_del(a->owner, names->pdata[i]);
    }
}

/* Put @saved back as the configuration (a change that failed half way). */
static void mr_cfg_restore(MRArray *a, RaidConfig *saved)
{
    RaidConfig tmp = *a->cfg;

    *a->cfg = *saved;
    *saved = tmp;
    raid_config_free(saved);
}

int mr_array_create_vd(MRArray *a, int dg, MRDrive *const *drives, int n,
                       const RaidVdSpec *spec, MRCfgError *why, Error **errp)
{
    int pds[RAID_MAX_MEMBERS];
    RaidConfig *saved;
    MRVirtualDisk *vd;
    GError *gerr = NULL;
    int idx;

    if (!a->cfg || a->cfg->foreign) {
        error_setg(errp, "the configuration is foreign: import or clear it "
                   "first");
        mr_cfg_fail(why, MR_CFG_WRONG_STATE);
        return -1;
    }
    if (n > RAID_MAX_MEMBERS) {
        error_setg(errp, "at most %u drives per VD", RAID_MAX_MEMBERS);
        mr_cfg_fail(why, MR_CFG_LIMIT);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        pds[i] = mr_array_pd_of(a, drives[i]);
        if (pds[i] < 0 ||
            a->cfg->pds[pds[i]].state != RAID_PD_UNCONF_GOOD) {
            error_setg(errp, "the drive in slot %u is not unconfigured good",
                       drives[i]->slot);
            mr_cfg_fail(why, MR_CFG_WRONG_STATE);
            return -1;
        }
    }
    saved = raid_config_dup(a->cfg);
    idx = dg < 0 ? raid_config_create_vd(a->cfg, pds, n, spec, &gerr)
                 : raid_config_add_vd(a->cfg, dg, spec, &gerr);
    if (idx < 0) {
        raid_config_free(saved);
        mr_cfg_gerr(errp, why, raid_config_count_vds(a->cfg) >= RAID_MAX_VDS ?
                    MR_CFG_LIMIT : MR_CFG_INVALID, gerr);
        return -1;
    }
    raid_config_update_states(a->cfg);
    vd = mr_vd_new(a, idx, errp);
    if (!vd) {
        mr_cfg_restore(a, saved);
        mr_cfg_fail(why, MR_CFG_INVALID);
        return -1;
    }
    raid_config_free(saved);
    a->vds[idx] = vd;
    trace_megaraid_cfg_vd_created(idx, raid_level_name(spec->level), n,
                                  a->cfg->vds[idx].size);
    for (int i = 0; i < n; i++) {
        mr_cfg_tell_drive(a, drives[i]);
    }
    if (a->ops->vd_added) {
        a->ops->vd_added(a->opaque, vd);
    }
    mr_array_changed(a);
    return idx;
}

/* VD DELETE, after the checks: in a coroutine (mr_cfg_later). */
static bool coroutine_fn mr_cfg_vd_delete_co(MRArray *a, void *opaque)
{
    MRVirtualDisk *vd = opaque;
    int idx = vd->idx;
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(a->cfg, idx, pds, RAID_MAX_MEMBERS);
    GError *gerr = NULL;

    /* stops the job, drains, writes the cache back */
    mr_vd_co_free(vd);
    a->vds[idx] = NULL;
    mr_cfg_drop_vd_props(a, idx);
    if (!raid_config_delete_vd(a->cfg, idx, &gerr)) {
        /* cannot happen: the VD exists */
        g_error_free(gerr);
    }
    trace_megaraid_cfg_vd_deleted(idx, n);
    raid_config_update_states(a->cfg);
    for (int i = 0; i < n; i++) {
        mr_cfg_tell_drive(a, a->pd_drive[pds[i]]);
    }
    mr_array_changed(a);
    mr_cfg_store(a, pds, n, NULL, NULL);
    return true;
}

bool mr_array_delete_vd(MRArray *a, int idx, MRCfgError *why, Error **errp)
{
    if (!a->cfg || a->cfg->foreign || idx < 0 || idx >= RAID_MAX_VDS ||
        !a->vds[idx] || a->vds[idx]->deleting) {
        error_setg(errp, "VD %d does not exist", idx);
        return mr_cfg_fail(why, MR_CFG_INVALID);
    }
    a->vds[idx]->deleting = true;
    mr_cfg_later(a, mr_cfg_vd_delete_co, a->vds[idx]);
    return true;
}

/* Every used VD on drive group @dg gets a rebuild cursor if it can. */
static void mr_cfg_start_rebuilds(MRArray *a, int dg)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->cfg->vds[v].used && a->cfg->vds[v].dg == dg) {
            raid_job_start(a->cfg, v, RAID_JOB_REBUILD, false, NULL);
        }
    }
}

bool mr_array_set_drive_state(MRArray *a, MRDrive *d, RaidPdState to,
                              bool force, MRCfgError *why, Error **errp)
{
    int pd = mr_array_pd_of(a, d);
    int dg, span, pos;
    RaidPdState from;
    GError *gerr = NULL;

    if (pd < 0 || a->cfg->foreign) {
        error_setg(errp, "the drive in slot %u is not part of this "
                   "configuration (too small for metadata, or foreign)",
                   d->slot);
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    }
    from = a->cfg->pds[pd].state;
    switch (to) {
    case RAID_PD_OFFLINE:
        if (from != RAID_PD_ONLINE && from != RAID_PD_REBUILD) {
            break;
        }
        /*
         * As mr_array_fail_drive() does for a drive that failed, but an
         * administrator's request is no warning on QEMU's stderr: the
         * event log has it.
         */
        if (!raid_config_fail_pd(a->cfg, pd, &gerr)) {
            return mr_cfg_gerr(errp, why, MR_CFG_WRONG_STATE, gerr);
        }
        trace_megaraid_cfg_set_offline(d->slot, raid_pd_state_name(from));
        mr_ev_drive(a, MR_EV_PD_FAILED, d, "set offline by the host");
        mr_array_changed(a);
        return true;
    case RAID_PD_ONLINE:
        if (from != RAID_PD_OFFLINE || !force ||
            !mr_array_pd_position(a, pd, &dg, &span, &pos)) {
            break;
        }
        if (!raid_config_set_pd_state(a->cfg, pd, RAID_PD_ONLINE, &gerr)) {
            return mr_cfg_gerr(errp, why, MR_CFG_WRONG_STATE, gerr);
        }
        trace_megaraid_cfg_forced_online(d->slot, dg);
        mr_array_changed(a);
        return true;
    case RAID_PD_MISSING:
        if (from != RAID_PD_OFFLINE) {
            break;
        }
        if (!raid_config_set_pd_state(a->cfg, pd, RAID_PD_MISSING, &gerr)) {
            return mr_cfg_gerr(errp, why, MR_CFG_WRONG_STATE, gerr);
        }
        mr_array_changed(a);
        return true;
    case RAID_PD_UNCONF_GOOD:
    case RAID_PD_UNCONF_BAD:
        if (from == to) {
            return true;
        }
        if (from != RAID_PD_UNCONF_GOOD && from != RAID_PD_UNCONF_BAD) {
            break;
        }
        if (!raid_config_set_pd_state(a->cfg, pd, to, &gerr)) {
            return mr_cfg_gerr(errp, why, MR_CFG_WRONG_STATE, gerr);
        }
        mr_cfg_tell_drive(a, d);
        mr_array_changed(a);
        return mr_cfg_store(a, &pd, 1, why, errp);
    default:
        break;
    }
    error_setg(errp, "the drive in slot %u is %s: it cannot be set %s%s",
               d->slot, raid_pd_state_name(from), raid_pd_state_name(to),
               to == RAID_PD_ONLINE && !force ? " without force" : "");
    return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
}

/*
 * The rebuild onto @opaque (the drive) has stopped at its window (in a
 * coroutine, array-config-stop.c): its cursors go and the drive is failed
 * again, unless the rebuild finished first (or the drive went) meanwhile.
 */
static void mr_cfg_rebuild_stopped(MRArray *a, MRVirtualDisk *const *vds,
                                   int n, void *opaque)
{
    MRDrive *d = opaque;
    int pd = mr_array_pd_of(a, d);
    uint64_t ref = pd >= 0 ? a->cfg->pds[pd].ref : 0;

    for (int i = 0; i < n; i++) {
        RaidVd *rv = mr_vd_cfg(vds[i]);

        vds[i]->job_paused = false;
        if (pd < 0 || rv->job.kind != RAID_JOB_REBUILD ||
            rv->job.target_ref != ref) {
            continue;
        }
        mr_ev_job(vds[i], MR_EV_JOB_ABORTED, RAID_JOB_REBUILD, 0);
        memset(&rv->job, 0, sizeof(rv->job));
        rv->seq++;
    }
    if (pd >= 0 && a->cfg->pds[pd].state == RAID_PD_REBUILD &&
        raid_config_fail_pd(a->cfg, pd, NULL)) {
        trace_megaraid_cfg_set_offline(d->slot, "rebuild (stopped)");
        mr_ev_drive(a, MR_EV_PD_FAILED, d, "rebuild stopped by the host");
    }
    mr_array_changed(a);
    object_unref(OBJECT(d));
}

bool mr_array_stop_rebuild(MRArray *a, MRDrive *d, MRCfgError *why,
                           Error **errp)
{
    int pd = mr_array_pd_of(a, d);
    MRVirtualDisk *vds[RAID_MAX_VDS];
    int n = 0;

    if (pd < 0 || a->cfg->foreign ||
        a->cfg->pds[pd].state != RAID_PD_REBUILD) {
        error_setg(errp, "the drive in slot %u is not being rebuilt",
                   d->slot);
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MRVirtualDisk *vd = a->vds[v];
        RaidVd *rv = vd ? mr_vd_cfg(vd) : NULL;

        if (!rv || vd->deleting || rv->job.kind != RAID_JOB_REBUILD ||
            rv->job.target_ref != a->cfg->pds[pd].ref) {
            continue;
        }
        vd->job_paused = true;          /* no kick until it is cleared */
        vds[n++] = vd;
    }
    /* the drive is failed once its rebuild has stopped (the reply after) */
    object_ref(OBJECT(d));
    mr_cfg_stop_jobs(a, vds, n, mr_cfg_rebuild_stopped, d);
    return true;
}

bool mr_array_start_rebuild(MRArray *a, MRDrive *d, MRCfgError *why,
                            Error **errp)
{
    int pd = mr_array_pd_of(a, d);
    int dg, span, pos;
    GError *gerr = NULL;

    if (pd < 0 || a->cfg->foreign) {
        error_setg(errp, "the drive in slot %u is not part of this "
                   "configuration", d->slot);
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    }
    switch (a->cfg->pds[pd].state) {
    case RAID_PD_OFFLINE:
        if (!mr_array_pd_position(a, pd, &dg, &span, &pos)) {
            break;
        }
        if (!raid_config_set_pd_state(a->cfg, pd, RAID_PD_REBUILD, &gerr)) {
            return mr_cfg_gerr(errp, why, MR_CFG_WRONG_STATE, gerr);
        }
        mr_cfg_start_rebuilds(a, dg);
        trace_megaraid_cfg_rebuild(d->slot, dg);
        mr_array_changed(a);
        return true;
    case RAID_PD_UNCONF_GOOD:
        for (int old = 0; old < a->cfg->npds; old++) {
            RaidPdState s = a->cfg->pds[old].state;

            if ((s != RAID_PD_OFFLINE && s != RAID_PD_MISSING) ||
                !mr_array_pd_position(a, old, &dg, &span, &pos)) {
                continue;
            }
            if (!raid_config_replace_pd(a->cfg, old, pd, &gerr)) {
                return mr_cfg_gerr(errp, why, MR_CFG_INVALID, gerr);
            }
            trace_megaraid_cfg_rebuild(d->slot, dg);
            mr_cfg_tell_drive(a, d);
            mr_cfg_tell_drive(a, a->pd_drive[old]);
            mr_array_changed(a);
            return mr_cfg_store(a, &old, 1, why, errp);
        }
        error_setg(errp, "no drive group has a failed or missing member for "
                   "the drive in slot %u to replace", d->slot);
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    case RAID_PD_REBUILD:
        error_setg(errp, "the drive in slot %u is already rebuilding",
                   d->slot);
        return mr_cfg_fail(why, MR_CFG_BUSY);
    default:
        break;
    }
    error_setg(errp, "the drive in slot %u is %s: nothing to rebuild onto it",
               d->slot, raid_pd_state_name(a->cfg->pds[pd].state));
    return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
}

/* ---- foreign configurations ---- */

/* A drive of another controller that came after the start (hidden). */
static bool mr_cfg_foreign_extra(MRArray *a, MRDrive *d)
{
    return d->in_array && !d->meta_pending && mr_array_pd_of(a, d) < 0;
}

int mr_array_foreign_count(MRArray *a, BusState *bus)
{
    BusChild *kid;
    int n = 0;

    if (!a->cfg) {
        return 0;
    }
    QTAILQ_FOREACH(kid, &bus->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);
        int pd = mr_array_pd_of(a, d);

        if (pd < 0 ? mr_cfg_foreign_extra(a, d)
                   : a->cfg->foreign ||
                     a->cfg->pds[pd].state == RAID_PD_FOREIGN) {
            n++;
        }
    }
    return n;
}

/* Drives without metadata that the start left out of a foreign config. */
static void mr_cfg_add_blank_drives(MRArray *a, BusState *bus)
{
    BusChild *kid;

    QTAILQ_FOREACH(kid, &bus->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (mr_array_pd_of(a, d) < 0 && !d->in_array) {
            /* the start found no metadata on it */
            mr_array_drive_place(a, d, NULL);
        }
    }
}

/* Undo an import whose cache did not start: the foreign config again. */
static void mr_cfg_import_undo(MRArray *a, RaidConfig *saved)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            mr_cfg_drop_vd_props(a, v);
            if (qemu_in_coroutine()) {
                mr_vd_co_free(a->vds[v]);
            } else {
                mr_vd_free(a->vds[v]);      /* (nothing runs on it yet) */
            }
            a->vds[v] = NULL;
        }
    }
    mr_cfg_restore(a, saved);
    a->adopt_hold = false;
    a->adopting = false;
}

typedef struct MRCfgImport {
    BusState *bus;
    RaidConfig *saved;          /* the foreign configuration, for an undo */
} MRCfgImport;

/*
 * FOREIGN IMPORT, after the checks, in a coroutine (mr_cfg_later): the
 * cache of the imported VDs starts (journal read and replayed, what it
 * replayed destaged) while they are hidden; then the host is told.  If
 * the journal cannot be read, the import is undone and the reply is an
 * I/O error: the drives still hold the foreign configuration (no pass
 * was written meanwhile: a->adopt_hold).
 */
static bool coroutine_fn mr_cfg_import_co(MRArray *a, void *opaque)
{
    MRCfgImport *imp = opaque;
    Error *err = NULL;
    bool ok;

    a->importing = true;        /* (write_starts: the end does the rest) */
    ok = mr_cache_load(a, &err);
    a->adopt_hold = false;
    if (ok) {
        mr_cache_load_destage(a);
    }
    a->importing = false;
    if (!ok) {
        trace_megaraid_cfg_foreign_import_failed(error_get_pretty(err));
        warn_report_err(err);
        mr_cfg_import_undo(a, imp->saved);
        g_free(imp);
        return false;
    }
    raid_config_free(imp->saved);
    a->adopting = false;
    trace_megaraid_cfg_foreign_import(raid_config_count_vds(a->cfg));
    mr_ev_config(a, MR_EV_CFG_FOREIGN_IMPORTED, a->cfg->npds);
    for (int i = 0; i < a->cfg->npds; i++) {
        mr_cfg_tell_drive(a, a->pd_drive[i]);
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            a->vds[v]->job_paused = false;
            if (a->ops->vd_added) {
                a->ops->vd_added(a->opaque, a->vds[v]);
            }
        }
    }
    mr_array_changed(a);
    mr_cfg_add_blank_drives(a, imp->bus);
    g_free(imp);
    return true;
}

bool mr_array_foreign_import(MRArray *a, BusState *bus, MRCfgError *why,
                             Error **errp)
{
    MRCfgImport *imp;
    RaidConfig *saved;
    GError *gerr = NULL;

    if (!a->cfg || !a->cfg->foreign) {
        if (mr_array_foreign_count(a, bus)) {
            error_setg(errp, "foreign drives next to this controller's "
                       "configuration can only be cleared");
            return mr_cfg_fail(why, MR_CFG_NOT_SUPPORTED);
        }
        error_setg(errp, "there is no foreign configuration");
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    }
    saved = raid_config_dup(a->cfg);
    if (!raid_config_import(a->cfg, a->ctrl_guid, &gerr)) {
        raid_config_free(saved);
        return mr_cfg_gerr(errp, why, MR_CFG_INVALID, gerr);
    }
    /* hidden, held and busy until the cache of its VDs is up */
    a->adopting = true;
    a->adopt_hold = true;
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->cfg->vds[v].used) {
            a->vds[v] = mr_vd_new(a, v, errp);
            if (!a->vds[v]) {
                /* the drives keep their metadata: nothing was written */
                mr_cfg_import_undo(a, saved);
                return mr_cfg_fail(why, MR_CFG_INVALID);
            }
            a->vds[v]->job_paused = true;   /* no job before the cache */
        }
    }
    imp = g_new0(MRCfgImport, 1);
    imp->bus = bus;
    imp->saved = saved;
    mr_cfg_later(a, mr_cfg_import_co, imp);
    return true;
}

/*
 * A foreign drive's metadata area is zero now (the metadata writer, after
 * FOREIGN CLEAR): it joins as unconfigured good and the host, which last
 * saw it hidden, is told it is visible.  Not if the wipe failed (it stays
 * hidden and foreign) or an earlier clear's wipe showed it already.
 */
static void mr_cfg_wiped(MRArray *a, MRDrive *d, bool ok)
{
    if (!ok || !mr_cfg_foreign_extra(a, d)) {
        return;
    }
    d->in_array = false;
    mr_array_drive_place(a, d, NULL);   /* blank now: nothing to read */
    d->in_array = true;
    mr_cfg_tell_drive(a, d);
}

/*
 * The end of FOREIGN CLEAR, once the configuration has changed (PDs
 * @changed, @nchanged of them): the event, the metadata of the drives
 * now unconfigured good, the host told; another array's drives (hidden,
 * outside the configuration) are blanked by the metadata writer before
 * they are shown (mr_cfg_wiped), and a management reply waits for that
 * pass.
 */
static void mr_cfg_clear_end(MRArray *a, BusState *bus, const int *changed,
                             int nchanged)
{
    g_autoptr(GPtrArray) extra = g_ptr_array_new();
    BusChild *kid;

    QTAILQ_FOREACH(kid, &bus->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (mr_cfg_foreign_extra(a, d)) {
            g_ptr_array_add(extra, d);
        }
    }
    trace_megaraid_cfg_foreign_clear(nchanged, extra->len);
    mr_ev_config(a, MR_EV_CFG_FOREIGN_CLEARED, nchanged + extra->len);
    raid_config_update_states(a->cfg);
    mr_array_changed(a);
    mr_cfg_store(a, changed, nchanged, NULL, NULL);
    for (int i = 0; i < nchanged; i++) {
        mr_cfg_tell_drive(a, a->pd_drive[changed[i]]);
    }
    for (guint i = 0; i < extra->len; i++) {
        mr_array_store_wipe(a, extra->pdata[i], mr_cfg_wiped);
    }
    mr_cfg_add_blank_drives(a, bus);
}

/*
 * FOREIGN CLEAR of a whole foreign configuration, in a coroutine
 * (mr_cfg_later): the cache starts first (the journal read, a new
 * generation written; nothing of it belongs to a VD here), with the
 * configuration still foreign and every command answered busy
 * (a->adopting).  Only then does the configuration become ours, without
 * its VDs and spares.  If the journal cannot be read nothing has changed
 * and the reply is an I/O error.
 */
static bool coroutine_fn mr_cfg_clear_co(MRArray *a, void *opaque)
{
    BusState *bus = opaque;
    int changed[RAID_MAX_PDS];
    int nchanged = 0;
    Error *err = NULL;
    bool ok;

    ok = mr_cache_start(a, &err);
    a->adopting = false;
    if (!ok) {
        trace_megaraid_cfg_foreign_clear_failed(error_get_pretty(err));
        warn_report_err(err);
        return false;
    }
    /* (still foreign: every command was refused meanwhile) */
    if (!raid_config_import(a->cfg, a->ctrl_guid, NULL)) {
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->cfg->vds[v].used) {
            raid_config_delete_vd(a->cfg, v, NULL);
        }
    }
    for (int i = 0; i < a->cfg->npds; i++) {
        if (a->cfg->pds[i].state == RAID_PD_HOT_SPARE) {
            raid_config_remove_spare(a->cfg, i, NULL);
        }
        changed[nchanged++] = i;
    }
    mr_cfg_clear_end(a, bus, changed, nchanged);
    return true;
}

bool mr_array_foreign_clear(MRArray *a, BusState *bus, MRCfgError *why,
                            Error **errp)
{
    int changed[RAID_MAX_PDS];
    int nchanged = 0;

    if (!a->cfg || !mr_array_foreign_count(a, bus)) {
        error_setg(errp, "there is no foreign configuration");
        return mr_cfg_fail(why, MR_CFG_WRONG_STATE);
    }
    if (a->cfg->foreign) {
        /* ours once the cache is up; busy until then */
        a->adopting = true;
        mr_cfg_later(a, mr_cfg_clear_co, bus);
        return true;
    }
    for (int i = 0; i < a->cfg->npds; i++) {
        RaidPd *p = &a->cfg->pds[i];

        if (p->state == RAID_PD_FOREIGN) {
            p->spare_dg = -1;
            raid_config_set_pd_state(a->cfg, i, RAID_PD_UNCONF_GOOD, NULL);
            changed[nchanged++] = i;
        }
    }
    mr_cfg_clear_end(a, bus, changed, nchanged);
    return true;
}
