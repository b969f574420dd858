/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: query-megaraid.  Finds every controller by its drive bus
 * (a megaraid-bus that carries an array) and reports, from the MRArray
 * and the drives on that bus, the controller and its cache, each drive
 * (present, or named by the configuration but missing), each drive group
 * and each virtual disk with its background job.  Reads only: nothing
 * here changes the array.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/util.h"
#include "qapi/qapi-commands-megaraid.h"
#include "qom/object.h"
#include "hw/qdev-core.h"
#include "raid/job.h"
#include "qmp-megaraid.h"
#include "hw/megaraid/nv-drive.h"
#include "hw/megaraid/patrol.h"
#include "hw/megaraid/array/drive-leds.h"
#include "trace.h"

static const char *const mr_qmp_cv_names[] = {
    [MR_CV_OPTIMAL] = "optimal",
    [MR_CV_FAILED] = "failed",
    [MR_CV_ABSENT] = "absent",
};

static const char *const mr_qmp_wp_names[] = {
    [MR_WP_WRITE_THROUGH] = "write-through",
    [MR_WP_WRITE_BACK] = "write-back",
    [MR_WP_ALWAYS_WRITE_BACK] = "always-write-back",
};

static const char *const mr_qmp_if_names[] = {
    [MR_IF_NVME] = "nvme",
    [MR_IF_SAS] = "sas",
    [MR_IF_SATA] = "sata",
};

static const char *const mr_qmp_media_names[] = {
    [MR_MEDIA_SSD] = "ssd",
    [MR_MEDIA_HDD] = "hdd",
};

static int64_t mr_qmp_pd_slot(const RaidConfig *cfg, int pd)
{
    return pd >= 0 && pd < cfg->npds ? cfg->pds[pd].slot : -1;
}

/* The drive group @pd is a member of, -1: none. */
static int mr_qmp_pd_dg(const RaidConfig *cfg, int pd)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        const RaidDriveGroup *dg = &cfg->dgs[g];

        if (!dg->used) {
            continue;
        }
        for (int s = 0; s < dg->nspans; s++) {
            for (int i = 0; i < dg->span[s].ndrives; i++) {
                if (dg->span[s].pd[i] == pd) {
                    return g;
                }
            }
        }
    }
    return -1;
}

static intList *mr_qmp_dg_vds(const RaidConfig *cfg, int dg)
{
    intList *head = NULL, **tail = &head;

    for (int v = 0; dg >= 0 && v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used && cfg->vds[v].dg == dg) {
            QAPI_LIST_APPEND(tail, v);
        }
    }
    return head;
}

/* Percent of the rebuild onto @pd (every VD of its group), -1: none. */
static int64_t mr_qmp_rebuild_pct(const RaidConfig *cfg, int pd)
{
    uint64_t done = 0, total = 0;

    if (cfg->pds[pd].state != RAID_PD_REBUILD) {
        return -1;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];

        if (vd->used && vd->job.kind == RAID_JOB_REBUILD &&
            vd->job.target_ref == cfg->pds[pd].ref) {
            done += MIN(vd->job.next_row, vd->job.total_rows);
            total += vd->job.total_rows;
        }
    }
    return total ? done * 100 / total : 0;
}

/* Percent of the copyback onto @pd (its VDs still copied), -1: none. */
static int64_t mr_qmp_copyback_pct(const RaidConfig *cfg, int pd)
{
    uint64_t done = 0, total = 0;

    if (cfg->pds[pd].state != RAID_PD_COPYBACK) {
        return -1;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];

        if (vd->used && vd->job.kind == RAID_JOB_COPYBACK &&
            vd->job.target_ref == cfg->pds[pd].ref) {
            done += MIN(vd->job.next_row, vd->job.total_rows);
            total += vd->job.total_rows;
        }
    }
    return total ? done * 100 / total : 0;
}

/* What the configuration says of a drive (@pd < 0: not in it). */
static void mr_qmp_drive_cfg(MegaraidDriveInfo *di, const RaidConfig *cfg,
                             int pd)
{
    int dg;

    if (pd < 0) {
        return;
    }
    dg = mr_qmp_pd_dg(cfg, pd);
    if (dg >= 0) {
        di->has_drive_group = true;
        di->drive_group = dg;
        di->vds = mr_qmp_dg_vds(cfg, dg);
    }
    if (cfg->pds[pd].state == RAID_PD_HOT_SPARE) {
        di->has_spare_for = true;
        di->spare_for = cfg->pds[pd].spare_dg;
    }
    di->rebuild_progress = mr_qmp_rebuild_pct(cfg, pd);
    di->has_rebuild_progress = di->rebuild_progress >= 0;
    di->copyback_progress = mr_qmp_copyback_pct(cfg, pd);
    di->has_copyback_progress = di->copyback_progress >= 0;
}

static MegaraidDriveInfo *mr_qmp_drive(MRArray *a, MRDrive *d)
{
    MegaraidDriveInfo *di = g_new0(MegaraidDriveInfo, 1);
    MRDriveLeds leds;

    di->slot = d->slot;
    di->present = true;
    di->qom_path = object_get_canonical_path(OBJECT(d));
    di->interface = g_strdup(mr_qmp_if_names[d->unit.iface]);
    di->media = g_strdup(mr_qmp_media_names[d->unit.media]);
    di->state = g_strdup(a->cfg ? mr_array_drive_state(a, d)
                                : "unconfigured-good");
    di->size = d->unit.num_blocks * d->unit.block_size;
    di->vendor = g_strdup(d->unit.vendor);
    di->model = g_strdup(d->unit.model);
    di->serial = g_strdup(d->unit.serial);
    di->firmware = g_strdup(d->unit.firmware);
    mr_drive_leds(d, &leds);
    di->locate = leds.locate;
    di->fault_led = leds.fault;
    di->rebuild_led = leds.rebuild;
    if (a->cfg) {
        mr_qmp_drive_cfg(di, a->cfg, mr_array_pd_of(a, d));
    }
    return di;
}

/* A drive the configuration names that is not in any bay. */
static MegaraidDriveInfo *mr_qmp_missing_drive(MRArray *a, int pd)
{
    MegaraidDriveInfo *di = g_new0(MegaraidDriveInfo, 1);
    const RaidPd *p = &a->cfg->pds[pd];

    di->slot = p->slot;
    di->state = g_strdup(raid_pd_state_name(p->state));
    di->size = p->sectors * RAID_SECTOR_SIZE;
    mr_qmp_drive_cfg(di, a->cfg, pd);
    return di;
}

static MegaraidDriveGroupInfo *mr_qmp_dg(const RaidConfig *cfg, int g)
{
    MegaraidDriveGroupInfo *gi = g_new0(MegaraidDriveGroupInfo, 1);
    const RaidDriveGroup *dg = &cfg->dgs[g];
    MegaraidSpanList **stail = &gi->spans;
    uint64_t free_sectors = UINT64_MAX;

    gi->index = g;
    gi->vds = mr_qmp_dg_vds(cfg, g);
    for (int s = 0; s < dg->nspans; s++) {
        MegaraidSpan *sp = g_new0(MegaraidSpan, 1);
        intList **tail = &sp->slots;

        for (int i = 0; i < dg->span[s].ndrives; i++) {
            int pd = dg->span[s].pd[i];

            QAPI_LIST_APPEND(tail, mr_qmp_pd_slot(cfg, pd));
            if (pd >= 0 && pd < cfg->npds) {
                uint64_t usable = cfg->pds[pd].usable;

                free_sectors = MIN(free_sectors, usable > dg->next_free ?
                                   usable - dg->next_free : 0);
            }
        }
        QAPI_LIST_APPEND(stail, sp);
    }
    gi->free_bytes = free_sectors == UINT64_MAX ? 0 :
                     free_sectors * RAID_SECTOR_SIZE;
    return gi;
}

static MegaraidJobInfo *mr_qmp_job(MRArray *a, int v)
{
    const RaidVd *rv = &a->cfg->vds[v];
    MegaraidJobInfo *ji;
    MRJobStats st = { 0 };

    if (rv->job.kind == RAID_JOB_NONE) {
        return NULL;
    }
    ji = g_new0(MegaraidJobInfo, 1);
    if (a->vds[v]) {
        mr_jobs_stats(a->vds[v], &st);
    } else {
        st.eta_ms = -1;
        st.percent = raid_job_percent(&rv->job);
        st.next_row = rv->job.next_row;
        st.total_rows = rv->job.total_rows;
        st.mismatches = rv->job.mismatches;
        st.repair = rv->job.repair;
    }
    ji->kind = g_strdup(raid_job_name(rv->job.kind));
    ji->repair = st.repair;
    ji->running = st.running;
    ji->progress = st.percent;
    ji->rows_done = st.next_row;
    ji->rows_total = st.total_rows;
    ji->mismatches = st.mismatches;
    ji->has_eta_ms = st.eta_ms >= 0;
    ji->eta_ms = st.eta_ms;
    ji->rate = a->vds[v] ? mr_jobs_rate(a->vds[v]) : a->rebuild_rate;
    ji->has_bytes_per_sec = st.bytes_per_s != 0;
    ji->bytes_per_sec = st.bytes_per_s;
    return ji;
}

static MegaraidVdInfo *mr_qmp_vd(MRArray *a, int v)
{
    const RaidConfig *cfg = a->cfg;
    const RaidVd *rv = &cfg->vds[v];
    MegaraidVdInfo *vi = g_new0(MegaraidVdInfo, 1);
    g_autofree int *pds = g_new(int, RAID_MAX_MEMBERS);
    intList **tail = &vi->members;
    MRWritePolicy conf;
    int n;

    vi->index = v;
    vi->name = g_strdup(rv->name);
    vi->level = g_ascii_strdown(raid_level_name(rv->level), -1);
    vi->size = rv->size * RAID_SECTOR_SIZE;
    vi->strip = (uint64_t)rv->strip * RAID_SECTOR_SIZE;
    vi->drive_group = rv->dg;
    vi->spans = raid_vd_nspans(cfg, v);
    n = raid_vd_members(cfg, v, pds, RAID_MAX_MEMBERS);
    for (int i = 0; i < n; i++) {
        QAPI_LIST_APPEND(tail, mr_qmp_pd_slot(cfg, pds[i]));
    }
    vi->state = g_strdup(raid_vd_state_name(rv->state));
    conf = (rv->cache & RAID_CACHE_WB_NO_BATTERY) ? MR_WP_ALWAYS_WRITE_BACK :
           (rv->cache & RAID_CACHE_WRITE_BACK) ? MR_WP_WRITE_BACK :
           MR_WP_WRITE_THROUGH;
    vi->cache_policy = g_strdup(mr_qmp_wp_names[conf]);
    vi->write_policy = g_strdup(mr_qmp_wp_names[a->vds[v] ?
                                mr_array_write_policy(a->vds[v]) :
                                MR_WP_WRITE_THROUGH]);
    vi->read_ahead = rv->cache & RAID_CACHE_READ_AHEAD;
    vi->initialized = rv->initialized;
    vi->consistent = rv->consistent;
    vi->job = mr_qmp_job(a, v);
    return vi;
}

/* Drives in slot order (the bus lists them newest first). */
static gint mr_qmp_slot_cmp(gconstpointer pa, gconstpointer pb)
{
    const MRDrive *da = *(MRDrive *const *)pa;
    const MRDrive *db = *(MRDrive *const *)pb;

    return da->slot < db->slot ? -1 : da->slot > db->slot;
}

static MegaraidPatrolInfo *mr_qmp_patrol_info(MRArray *a)
{
    static const char *const modes[] = { "auto", "manual", "off" };
    MegaraidPatrolInfo *pi = g_new0(MegaraidPatrolInfo, 1);
    MRPatrolStatus st;

    mr_patrol_status(a, &st);
    pi->mode = g_strdup(modes[st.mode]);
    pi->running = st.running;
    pi->rate = st.rate;
    pi->percent = st.percent;
    pi->iterations = st.iterations;
    pi->has_drive = st.cur_slot >= 0;
    pi->drive = st.cur_slot;
    pi->drive_percent = st.cur_percent;
    pi->corrected = st.corrected;
    pi->uncorrectable = st.uncorrectable;
    return pi;
}

MegaraidInfo *mr_qmp_array_info(MRArray *a, MRBus *bus)
{
    MegaraidInfo *info = g_new0(MegaraidInfo, 1);
    MegaraidDriveInfoList **dtail = &info->drives;
    MegaraidDriveGroupInfoList **gtail = &info->drive_groups;
    MegaraidVdInfoList **vtail = &info->vds;
    DeviceState *dev = DEVICE(a->owner);
    const RaidConfig *cfg = a->cfg;
    g_autoptr(GPtrArray) drives = g_ptr_array_new();
    MRCacheStats cs;
    BusChild *kid;

    info->qom_path = object_get_canonical_path(a->owner);
    info->id = g_strdup(dev->id);
    info->model = g_strdup(a->product);
    info->serial = g_strdup(a->serial ? a->serial : RAID_DEFAULT_SERIAL);
    if (object_property_find(a->owner, "firmware-version")) {
        info->firmware = object_property_get_str(a->owner,
                                                 "firmware-version", NULL);
    }
    mr_cache_stats(a, &cs);
    info->cache_size = a->cache_bytes;
    info->cache_dirty = cs.dirty_bytes;
    info->cache_flush_interval = MAX(a->cache_flush_s, 1);
    info->cachevault = g_strdup(mr_qmp_cv_names[a->cachevault]);
    info->journal = a->journal_blk ?
                    g_strdup(mr_nv_drive_name(a->journal_blk)) : NULL;
    info->rebuild_rate = a->rebuild_rate;
    info->patrol = mr_qmp_patrol_info(a);

    QTAILQ_FOREACH(kid, &BUS(bus)->children, sibling) {
        MRDrive *d = (MRDrive *)object_dynamic_cast(OBJECT(kid->child),
                                                    TYPE_MEGARAID_DRIVE);

        if (d) {
            g_ptr_array_add(drives, d);
        }
    }
    g_ptr_array_sort(drives, mr_qmp_slot_cmp);
    for (guint i = 0; i < drives->len; i++) {
        QAPI_LIST_APPEND(dtail, mr_qmp_drive(a, drives->pdata[i]));
    }
    if (!cfg) {
        return info;            /* not imported yet */
    }
    for (int pd = 0; pd < cfg->npds; pd++) {
        if (cfg->pds[pd].state == RAID_PD_FOREIGN) {
            info->foreign = true;
        }
        if (!a->pd_drive[pd]) {
            QAPI_LIST_APPEND(dtail, mr_qmp_missing_drive(a, pd));
        }
    }
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        if (cfg->dgs[g].used) {
            QAPI_LIST_APPEND(gtail, mr_qmp_dg(cfg, g));
        }
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used) {
            QAPI_LIST_APPEND(vtail, mr_qmp_vd(a, v));
        }
    }
    return info;
}

static int mr_qmp_find(Object *obj, void *opaque)
{
    MegaraidInfoList ***tail = opaque;
    MRBus *bus = (MRBus *)object_dynamic_cast(obj, TYPE_MEGARAID_BUS);

    if (bus && bus->array && bus->array->owner) {
        QAPI_LIST_APPEND(*tail, mr_qmp_array_info(bus->array, bus));
    }
    return 0;
}

MegaraidInfoList *qmp_query_megaraid(Error **errp)
{
    MegaraidInfoList *head = NULL, **tail = &head;

    object_child_foreach_recursive(object_get_root(), mr_qmp_find, &tail);
    trace_megaraid_qmp_query(QAPI_LIST_LENGTH(head));
    return head;
}
