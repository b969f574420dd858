/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the RAID configuration as the host's management sees it
 * (like a BMC): controller properties that may change while the machine
 * runs (CacheVault health, rebuild rate), what the cache holds (dirty
 * bytes, journal records) and, per VD, its state, level, effective write
 * policy and background job with its cursor (now, as last checkpointed,
 * as resumed at start), readable with qom-get; a job is started by
 * writing vdN-job.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/coroutine.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "array.h"
#include "trace.h"

static const char *const mr_cv_names[] = {
    [MR_CV_OPTIMAL] = "optimal",
    [MR_CV_FAILED] = "failed",
    [MR_CV_ABSENT] = "absent",
};

/*
 * A controller property's opaque: the offset in the object of the
 * controller's MRArray pointer (MRCore.array).
 */
static MRArray *mr_obj_array(Object *obj, void *opaque)
{
    return *(MRArray **)((char *)obj + (ptrdiff_t)opaque);
}

static void mr_get_cachevault(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);
    char *s = (char *)mr_cv_names[a->cachevault];

    visit_type_str(v, name, &s, errp);
}

static void mr_set_cachevault(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);
    g_autofree char *s = NULL;

    if (!visit_type_str(v, name, &s, errp)) {
        return;
    }
    for (int i = 0; i < ARRAY_SIZE(mr_cv_names); i++) {
        if (!strcmp(s, mr_cv_names[i])) {
            trace_megaraid_array_cachevault(mr_cv_names[a->cachevault], s);
            a->cachevault = i;
            if (a->cfg) {
                mr_cache_policy_changed(a);
                mr_array_refresh(a);
            }
            return;
        }
    }
    error_setg(errp, "%s: cachevault '%s' is not optimal, failed or absent",
               object_get_typename(obj), s);
}

/* A rate property's opaque: where its array is, and its byte in it. */
typedef struct MRRateProp {
    ptrdiff_t array_offset;
    size_t field;
} MRRateProp;

static uint8_t *mr_obj_rate(Object *obj, void *opaque)
{
    const MRRateProp *rp = opaque;

    return (uint8_t *)mr_obj_array(obj, (void *)rp->array_offset) +
           rp->field;
}

static void *mr_rate_prop(ptrdiff_t array_offset, size_t field)
{
    MRRateProp *rp = g_new(MRRateProp, 1);    /* lives with the class */

    rp->array_offset = array_offset;
    rp->field = field;
    return rp;
}

static void mr_get_rate(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint8(v, name, mr_obj_rate(obj, opaque), errp);
}

static void mr_set_rate(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    uint8_t rate;

    if (!visit_type_uint8(v, name, &rate, errp)) {
        return;
    }
    if (rate > 100) {
        error_setg(errp, "%s: %s %u is not a percentage (0 to 100)",
                   object_get_typename(obj), name, rate);
        return;
    }
    *mr_obj_rate(obj, opaque) = rate;
}

static void mr_get_flush(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);

    visit_type_uint8(v, name, &a->cache_flush_s, errp);
}

static void mr_set_flush(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);
    uint8_t s;

    if (!visit_type_uint8(v, name, &s, errp)) {
        return;
    }
    if (!s) {
        error_setg(errp, "%s: cache-flush-interval must be 1 to 255 "
                   "seconds", object_get_typename(obj));
        return;
    }
    a->cache_flush_s = s;
}

/*
 * roc-temperature and cachevault-temperature: what the sensors read,
 * 1..125 C
 */
static uint8_t *mr_temp_field(Object *obj, const char *name, void *opaque)
{
    MRArray *a = mr_obj_array(obj, opaque);

    return !strcmp(name, "roc-temperature") ? &a->roc_temp_c : &a->cv_temp_c;
}

static void mr_get_temp(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint8(v, name, mr_temp_field(obj, name, opaque), errp);
}

static void mr_set_temp(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    uint8_t t;

    if (!visit_type_uint8(v, name, &t, errp)) {
        return;
    }
    if (!t || t > 125) {
        error_setg(errp, "%s: %s must be 1 to 125 (Celsius), not %u",
                   object_get_typename(obj), name, t);
        return;
    }
    *mr_temp_field(obj, name, opaque) = t;
}

static void mr_get_dirty_bytes(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    MRCacheStats st;

    mr_cache_stats(mr_obj_array(obj, opaque), &st);
    visit_type_uint64(v, name, &st.dirty_bytes, errp);
}

static void mr_get_journal_records(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    MRCacheStats st;

    mr_cache_stats(mr_obj_array(obj, opaque), &st);
    visit_type_uint64(v, name, &st.journal_records, errp);
}

static void mr_get_metadata_pending(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    bool busy = mr_array_meta_pending(mr_obj_array(obj, opaque));

    visit_type_bool(v, name, &busy, errp);
}

void mr_array_class_props(ObjectClass *oc, ptrdiff_t array_offset)
{
    mr_array_class_props_patrol(oc, array_offset);
    mr_array_class_props_copyback(oc, array_offset);
    object_class_property_add(oc, "cachevault", "str", mr_get_cachevault,
                              mr_set_cachevault, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "cachevault",
        "CacheVault (flash-backed cache) health: optimal, failed or absent; "
        "write-back VDs run write-through unless it is optimal");
    object_class_property_add(oc, "rebuild-rate", "uint8", mr_get_rate,
                              mr_set_rate, NULL,
                              mr_rate_prop(array_offset,
                                           offsetof(MRArray, rebuild_rate)));
    object_class_property_set_description(oc, "rebuild-rate",
        "share of the controller's and drives' time a rebuild takes, 0 to "
        "100 percent (default 30)");
    object_class_property_add(oc, "cc-rate", "uint8", mr_get_rate,
                              mr_set_rate, NULL,
                              mr_rate_prop(array_offset,
                                           offsetof(MRArray, cc_rate)));
    object_class_property_set_description(oc, "cc-rate",
        "the same for a consistency check (default 30)");
    object_class_property_add(oc, "init-rate", "uint8", mr_get_rate,
                              mr_set_rate, NULL,
                              mr_rate_prop(array_offset,
                                           offsetof(MRArray, init_rate)));
    object_class_property_set_description(oc, "init-rate",
        "the same for background and full initialization (default 30)");
    object_class_property_add(oc, "cache-flush-interval", "uint8",
                              mr_get_flush, mr_set_flush, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "cache-flush-interval",
        "seconds from a write into a clean cache to the destage of "
        "everything dirty, 1 to 255 (default 1); settable at run time");
    object_class_property_add(oc, "roc-temperature", "uint8",
                              mr_get_temp, mr_set_temp, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "roc-temperature",
        "what the controller's ROC temperature sensor reads, 1 to 125 "
        "Celsius (default 55); settable at run time");
    object_class_property_add(oc, "cachevault-temperature", "uint8",
                              mr_get_temp, mr_set_temp, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "cachevault-temperature",
        "what the CacheVault's temperature sensor reads, 1 to 125 Celsius "
        "(default 28); settable at run time");
    object_class_property_add(oc, "cache-dirty-bytes", "uint64",
                              mr_get_dirty_bytes, NULL, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "cache-dirty-bytes",
        "bytes of write-back data in the controller cache that no "
        "completed destage has written to the members yet: acknowledged "
        "writes, and writes waiting for their journal record to be "
        "durable (read-only)");
    object_class_property_add(oc, "metadata-pending", "bool",
                              mr_get_metadata_pending, NULL, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "metadata-pending",
        "a DDF metadata write asked for (a configuration change, a failure, "
        "a job checkpoint) is still on its way to the drives (read-only)");
    object_class_property_add(oc, "journal-records", "uint64",
                              mr_get_journal_records, NULL, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "journal-records",
        "records in the cache journal file since it was last emptied, 0 "
        "without a journal (read-only)");
}

/* ---- per VD ---- */

static const char *const mr_vd_state_names[] = {
    [RAID_VD_OPTIMAL] = "optimal",
    [RAID_VD_PARTIALLY_DEGRADED] = "partially-degraded",
    [RAID_VD_DEGRADED] = "degraded",
    [RAID_VD_OFFLINE] = "offline",
};

static const char *const mr_wp_names[] = {
    [MR_WP_WRITE_THROUGH] = "write-through",
    [MR_WP_WRITE_BACK] = "write-back",
    [MR_WP_ALWAYS_WRITE_BACK] = "always-write-back",
};

static char *mr_vd_get_state(Object *obj, void *opaque, Error **errp)
{
    return g_strdup(mr_vd_state_names[mr_vd_cfg(opaque)->state]);
}

static void mr_vd_visit_str(Visitor *v, const char *name, const char *val,
                            Error **errp)
{
    char *s = (char *)val;

    visit_type_str(v, name, &s, errp);
}

static void mr_vd_get_state_v(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    g_autofree char *s = mr_vd_get_state(obj, opaque, errp);

    mr_vd_visit_str(v, name, s, errp);
}

static void mr_vd_get_level(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    MRVirtualDisk *vd = opaque;
    g_autofree char *level = g_ascii_strdown(raid_level_name(vd->layout.level),
                                             -1);

    /* spelt as megaraid-img -l takes it: raid5, raid60, jbod */
    mr_vd_visit_str(v, name, level, errp);
}

static void mr_vd_get_policy(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    mr_vd_visit_str(v, name, mr_wp_names[mr_array_write_policy(opaque)],
                    errp);
}

static void mr_vd_get_job(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    MRVirtualDisk *vd = opaque;

    /* a stop asked by "none" reads "stopping" until the job has ended */
    mr_vd_visit_str(v, name, vd->job_aborting ? "stopping" :
                    raid_job_name(mr_vd_cfg(vd)->job.kind), errp);
}

typedef struct MRVdStop {
    MRVirtualDisk *vd;
    MRDrive *copy;              /* a copyback's drive: its group's copy */
} MRVdStop;

/*
 * The end of a "none": waits in a coroutine for the job's window (the
 * setter returned at once), then logs the abort and clears the cursor,
 * unless the VD is being deleted meanwhile; a copyback is dropped for
 * its whole group (mr_array_copyback_stop).  Unplug and exit wait for it
 * (a->cfg_later_busy), a VD DELETE too (vd->job_stop_waiters).
 */
static void coroutine_fn mr_vd_stop_job_co(void *opaque)
{
    MRVdStop *s = opaque;
    MRVirtualDisk *vd = s->vd;
    MRArray *a = vd->array;
    RaidJobKind kind = mr_vd_cfg(vd)->job.kind;
    bool copy = s->copy;

    if (copy) {
        /* (false only if the copy ended meanwhile) */
        mr_array_copyback_stop(a, s->copy, NULL);
    } else {
        mr_jobs_stop(vd);               /* waits in this coroutine */
    }
    g_free(s);
    vd->job_aborting = false;
    if (!vd->deleting) {
        vd->job_paused = false;
    }
    /* (a job that ended first, in its last window, is not aborted) */
    if (!vd->deleting && !copy && mr_vd_cfg(vd)->job.kind != RAID_JOB_NONE) {
        RaidVd *rv = mr_vd_cfg(vd);

        a->hooks->jobs.event(vd, MR_EV_JOB_ABORTED, kind, 0);
        memset(&rv->job, 0, sizeof(rv->job));
        rv->seq++;
        mr_array_refresh(a);
        mr_array_store_async(a);
    }
    vd->job_stop_waiters--;
    a->cfg_later_busy--;
    aio_wait_kick();
}

/* Ask the stop now; the rest once the job has ended, in a coroutine. */
static void mr_vd_stop_later(MRVirtualDisk *vd, MRDrive *copy)
{
    MRVdStop *s = g_new0(MRVdStop, 1);

    s->vd = vd;
    s->copy = copy;
    vd->job_aborting = true;
    vd->job_paused = true;              /* no kick starts it again */
    vd->job_stop_waiters++;
    vd->array->cfg_later_busy++;
    mr_jobs_abort(vd);
    aio_co_enter(qemu_get_aio_context(),
                 qemu_coroutine_create(mr_vd_stop_job_co, s));
}

/*
 * "none": stop the VD's job from the host, as JOB CONTROL stop does.  A
 * check stops at once; an initialization only with force (the VD's
 * parity stays unwritten where it did not reach); a rebuild is stopped
 * by failing its drive (its drive's state offline), which says what that
 * costs.  The setter only asks the stop and returns; the job ends at its
 * window (vdN-job reads "stopping" until then, mr_vd_stop_job_co).
 */
static void mr_vd_stop_job(Object *obj, MRVirtualDisk *vd, const char *name,
                           bool force, Error **errp)
{
    RaidVd *rv = mr_vd_cfg(vd);
    RaidJobKind kind = rv->job.kind;

    if (vd->job_aborting) {
        return;                         /* asked already: "stopping" */
    }
    if (kind == RAID_JOB_NONE) {
        error_setg(errp, "%s: %s: VD %d runs no job to stop",
                   object_get_typename(obj), name, vd->idx);
        return;
    }
    if (kind == RAID_JOB_REBUILD) {
        int pd = raid_config_find_pd_ref(vd->array->cfg, rv->job.target_ref);

        error_setg(errp, "%s: %s: VD %d rebuilds the drive in slot %d: "
                   "stopping it leaves the VD without redundancy; to stop "
                   "it, set that drive's state offline",
                   object_get_typename(obj), name, vd->idx,
                   pd >= 0 ? vd->array->cfg->pds[pd].slot : -1);
        return;
    }
    if (kind == RAID_JOB_COPYBACK) {
        int pd = raid_config_find_pd_ref(vd->array->cfg, rv->job.target_ref);
        MRDrive *d = pd >= 0 ? vd->array->pd_drive[pd] : NULL;

        /* the copyback of the whole drive group ends, not one VD's */
        if (d) {
            mr_vd_stop_later(vd, d);
            return;
        }
    }
    if (kind == RAID_JOB_INIT && !force) {
        error_setg(errp, "%s: %s: VD %d is being initialized (%u%%): "
                   "stopped, its parity stays unwritten where the "
                   "initialization did not reach (a check finds it "
                   "inconsistent); 'none-force' stops it anyway",
                   object_get_typename(obj), name, vd->idx,
                   raid_job_percent(&rv->job));
        return;
    }
    mr_vd_stop_later(vd, NULL);
}

static void mr_vd_set_job(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    g_autofree char *s = NULL;

    if (!visit_type_str(v, name, &s, errp)) {
        return;
    }
    if (!strcmp(s, "check")) {
        mr_jobs_start(opaque, RAID_JOB_CHECK, false, errp);
    } else if (!strcmp(s, "check-repair")) {
        mr_jobs_start(opaque, RAID_JOB_CHECK, true, errp);
    } else if (!strcmp(s, "init")) {
        mr_jobs_start(opaque, RAID_JOB_INIT, false, errp);
    } else if (!strcmp(s, "none") || !strcmp(s, "none-force")) {
        mr_vd_stop_job(obj, opaque, name, !strcmp(s, "none-force"), errp);
    } else {
        error_setg(errp, "%s: %s '%s' is not a job that can be started "
                   "(check, check-repair, init) nor a stop (none, "
                   "none-force)", object_get_typename(obj), name, s);
    }
}

static void mr_vd_get_progress(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    const RaidJobCursor *c = &mr_vd_cfg(opaque)->job;
    int64_t pct = c->kind == RAID_JOB_NONE ? -1 : (int64_t)raid_job_percent(c);

    visit_type_int(v, name, &pct, errp);
}

static void mr_vd_get_job_row(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    const RaidJobCursor *c = &mr_vd_cfg(opaque)->job;
    int64_t row = c->kind == RAID_JOB_NONE ? -1 : (int64_t)c->next_row;

    visit_type_int(v, name, &row, errp);
}

static void mr_vd_get_ckpt_row(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    MRVirtualDisk *vd = opaque;

    visit_type_int(v, name, &vd->job_ckpt_row, errp);
}

static void mr_vd_get_resumed_row(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    MRVirtualDisk *vd = opaque;

    visit_type_int(v, name, &vd->job_resumed_row, errp);
}

void mr_array_vd_props(MRVirtualDisk *vd)
{
    Object *obj = vd->array->owner;
    g_autofree char *state = g_strdup_printf("vd%d-state", vd->idx);
    g_autofree char *level = g_strdup_printf("vd%d-level", vd->idx);
    g_autofree char *policy = g_strdup_printf("vd%d-write-policy", vd->idx);
    g_autofree char *job = g_strdup_printf("vd%d-job", vd->idx);
    g_autofree char *progress = g_strdup_printf("vd%d-progress", vd->idx);
    g_autofree char *row = g_strdup_printf("vd%d-job-row", vd->idx);
    g_autofree char *ckpt = g_strdup_printf("vd%d-checkpoint-row", vd->idx);
    g_autofree char *resumed = g_strdup_printf("vd%d-resumed-row", vd->idx);

    if (!obj || object_property_find(obj, state)) {
        return;
    }
    object_property_add(obj, state, "str", mr_vd_get_state_v, NULL, NULL,
                        vd);
    object_property_add(obj, level, "str", mr_vd_get_level, NULL, NULL, vd);
    object_property_add(obj, policy, "str", mr_vd_get_policy, NULL, NULL,
                        vd);
    object_property_add(obj, job, "str", mr_vd_get_job, mr_vd_set_job, NULL,
                        vd);
    object_property_add(obj, progress, "int", mr_vd_get_progress, NULL,
                        NULL, vd);
    object_property_add(obj, row, "int", mr_vd_get_job_row, NULL, NULL, vd);
    object_property_add(obj, ckpt, "int", mr_vd_get_ckpt_row, NULL, NULL,
                        vd);
    object_property_add(obj, resumed, "int", mr_vd_get_resumed_row, NULL,
                        NULL, vd);
}
