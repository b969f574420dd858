/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's operations that change the
 * configuration: drive states, hot spares, VD create and delete,
 * background jobs (start, stop, pause, resume), foreign configurations.
 * Each handler checks its arguments (naming the refused field), then the
 * states, then asks array-config.c / the array to do it.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qapi/error.h"
#include "mgmt-ops.h"
#include "array-config.h"
#include "hw/megaraid/array/evlog-array.h"
#include "trace.h"

static uint8_t mgmt_cfg_status(MgmtCtx *c, MRCfgError why, Error *err)
{
    static const uint8_t status[] = {
        [MR_CFG_OK] = MGMT_STAT_INTERNAL,
        [MR_CFG_WRONG_STATE] = MGMT_STAT_WRONG_STATE,
        [MR_CFG_BUSY] = MGMT_STAT_BUSY,
        [MR_CFG_LIMIT] = MGMT_STAT_LIMIT,
        [MR_CFG_INVALID] = MGMT_STAT_INVALID_PARAMETER,
        [MR_CFG_IO] = MGMT_STAT_IO_ERROR,
        [MR_CFG_NOT_SUPPORTED] = MGMT_STAT_NOT_SUPPORTED,
    };

    trace_megaraid_mgmt_refused(c->opcode, err ? error_get_pretty(err) : "");
    error_free(err);
    return (unsigned)why < ARRAY_SIZE(status) ? status[why]
                                              : MGMT_STAT_INTERNAL;
}

/* Changes need a configuration of this controller. */
static uint8_t mgmt_check_native(MgmtCtx *c)
{
    if (c->a->cfg->foreign) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_ERR_OFFSET_NONE,
                           MGMT_PD_FOREIGN);
    }
    return MGMT_STAT_OK;
}

static uint8_t mgmt_reply_pd(MgmtCtx *c, MRDrive *d)
{
    uint8_t st = mgmt_need(c, sizeof(MgmtPdEntry));

    if (st) {
        return st;
    }
    mgmt_fill_pd_entry(c->a, d, (MgmtPdEntry *)c->out);
    c->out_len = sizeof(MgmtPdEntry);
    return MGMT_STAT_OK;
}

static MRDrive *mgmt_arg_drive(MgmtCtx *c, int i, uint8_t *st)
{
    MRDrive *d = mgmt_drive(c, c->mbox[i]);

    *st = d ? MGMT_STAT_OK
            : mgmt_refuse(c, MGMT_STAT_DEVICE_NOT_FOUND, MGMT_OFF_MBOX(i),
                          c->mbox[i]);
    return d;
}

/* ---- drive states ---- */

uint8_t mgmt_op_pd_set_state(MgmtCtx *c)
{
    uint32_t action = c->mbox[1], flags = c->mbox[2];
    bool force = flags & MGMT_SET_F_FORCE;
    MRCfgError why = MR_CFG_OK;
    Error *err = NULL;
    RaidPdState to;
    uint8_t st;
    MRDrive *d = mgmt_arg_drive(c, 0, &st);

    if (!d) {
        return st;
    }
    if (action < MGMT_SET_OFFLINE || action > MGMT_SET_BAD) {
        return mgmt_bad_mbox(c, 1);
    }
    if ((flags & ~MGMT_SET_F_MASK) || (force && action != MGMT_SET_ONLINE)) {
        return mgmt_bad_mbox(c, 2);
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    switch (action) {
    case MGMT_SET_OFFLINE:
        to = RAID_PD_OFFLINE;
        break;
    case MGMT_SET_ONLINE:
        to = RAID_PD_ONLINE;
        break;
    case MGMT_SET_MISSING:
        to = RAID_PD_MISSING;
        break;
    case MGMT_SET_JBOD:
        /* unconfigured-good drives are the host's disks already */
        if (mgmt_pd_state(c->a, d) != MGMT_PD_UNCONF_GOOD) {
            return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(1),
                               mgmt_pd_state(c->a, d));
        }
        return mgmt_reply_pd(c, d);
    case MGMT_SET_BAD:
        to = RAID_PD_UNCONF_BAD;
        break;
    default:
        to = RAID_PD_UNCONF_GOOD;
        break;
    }
    trace_megaraid_mgmt_set_state(d->slot, raid_pd_state_name(to), force);
    if (!mr_array_set_drive_state(c->a, d, to, force, &why, &err)) {
        st = mgmt_cfg_status(c, why, err);
        return mgmt_refuse(c, st, MGMT_OFF_MBOX(1), mgmt_pd_state(c->a, d));
    }
    return mgmt_reply_pd(c, d);
}

/* ---- hot spares ---- */

uint8_t mgmt_op_spare_add(MgmtCtx *c)
{
    uint32_t dgarg = c->mbox[1];
    int dg = dgarg == MGMT_NONE32 ? -1 : (int)MIN(dgarg, INT_MAX);
    Error *err = NULL;
    uint8_t st;
    MRDrive *d = mgmt_arg_drive(c, 0, &st);

    if (!d) {
        return st;
    }
    if (dg >= 0 && (dg >= RAID_MAX_DGS || !c->a->cfg->dgs[dg].used)) {
        return mgmt_refuse(c, MGMT_STAT_DG_NOT_FOUND, MGMT_OFF_MBOX(1), dgarg);
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    if (mgmt_pd_state(c->a, d) != MGMT_PD_UNCONF_GOOD ||
        mr_array_pd_of(c->a, d) < 0) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                           mgmt_pd_state(c->a, d));
    }
    if (raid_config_count_spares(c->a->cfg, dg >= 0) >=
        (dg >= 0 ? RAID_MAX_DEDICATED_SPARES : RAID_MAX_GLOBAL_SPARES)) {
        return mgmt_refuse(c, MGMT_STAT_LIMIT, MGMT_OFF_MBOX(1), dgarg);
    }
    if (!mr_array_set_spare(c->a, d, dg, true, &err)) {
        return mgmt_cfg_status(c, MR_CFG_WRONG_STATE, err);
    }
    return mgmt_reply_pd(c, d);
}

uint8_t mgmt_op_spare_remove(MgmtCtx *c)
{
    Error *err = NULL;
    uint8_t st;
    MRDrive *d = mgmt_arg_drive(c, 0, &st);

    if (!d) {
        return st;
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    if (mgmt_pd_state(c->a, d) != MGMT_PD_HOT_SPARE) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                           mgmt_pd_state(c->a, d));
    }
    if (!mr_array_set_spare(c->a, d, -1, false, &err)) {
        return mgmt_cfg_status(c, MR_CFG_WRONG_STATE, err);
    }
    return mgmt_reply_pd(c, d);
}

/* ---- virtual disks ---- */

static bool mgmt_level_of(uint8_t level, RaidLevel *out)
{
    switch (level) {
    case MGMT_LEVEL_0:
        *out = RAID_LEVEL_0;
        return true;
    case MGMT_LEVEL_1:
        *out = RAID_LEVEL_1;
        return true;
    case MGMT_LEVEL_5:
        *out = RAID_LEVEL_5;
        return true;
    case MGMT_LEVEL_6:
        *out = RAID_LEVEL_6;
        return true;
    case MGMT_LEVEL_10:
        *out = RAID_LEVEL_10;
        return true;
    case MGMT_LEVEL_50:
        *out = RAID_LEVEL_50;
        return true;
    case MGMT_LEVEL_60:
        *out = RAID_LEVEL_60;
        return true;
    default:
        return false;
    }
}

#define VC_OFF(field)   MGMT_OFF_DATA(offsetof(MgmtVdCreate, field))

/* The name: printable ASCII, then only NULs. */
static int mgmt_bad_name(const char *name)
{
    int i = 0;

    while (i < MGMT_VD_NAME_LEN && name[i]) {
        if (name[i] < 0x20 || name[i] > 0x7e) {
            return i;
        }
        i++;
    }
    for (; i < MGMT_VD_NAME_LEN; i++) {
        if (name[i]) {
            return i;
        }
    }
    return -1;
}

uint8_t mgmt_op_vd_create(MgmtCtx *c)
{
    MgmtVdCreate vc;
    MRDrive *drives[RAID_MAX_MEMBERS];
    char name[MGMT_VD_NAME_LEN + 1] = { 0 };
    RaidVdSpec spec = { 0 };
    MRCfgError why = MR_CFG_OK;
    Error *err = NULL;
    uint32_t strip;
    uint16_t dgarg;
    int dg, idx, bad;
    uint8_t st;

    if (c->data_len < sizeof(vc)) {
        return mgmt_refuse(c, MGMT_STAT_DATA_LEN,
                           offsetof(MgmtRequest, data_len), c->data_len);
    }
    memcpy(&vc, c->data, sizeof(vc));
    if (c->data_len != sizeof(vc) + 2u * vc.ndrives) {
        return mgmt_refuse(c, MGMT_STAT_DATA_LEN,
                           offsetof(MgmtRequest, data_len), c->data_len);
    }
    if (!mgmt_level_of(vc.level, &spec.level)) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(level),
                           vc.level);
    }
    if (vc.nspans > RAID_MAX_SPANS) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(nspans),
                           vc.nspans);
    }
    if (vc.cache & ~MGMT_CACHE_MASK) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(cache),
                           vc.cache);
    }
    strip = le32_to_cpu(vc.strip_kib);
    if (strip && (strip < 64 || strip > 1024 || (strip & (strip - 1)))) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(strip_kib),
                           strip);
    }
    if (vc.flags & ~MGMT_CREATE_F_MASK) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(flags),
                           vc.flags);
    }
    if (vc.reserved0) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, VC_OFF(reserved0),
                           vc.reserved0);
    }
    for (int i = 0; i < (int)sizeof(vc.reserved1); i++) {
        if (vc.reserved1[i]) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               VC_OFF(reserved1) + i, vc.reserved1[i]);
        }
    }
    bad = mgmt_bad_name(vc.name);
    if (bad >= 0) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                           VC_OFF(name) + bad, (uint8_t)vc.name[bad]);
    }
    memcpy(name, vc.name, MGMT_VD_NAME_LEN);
    dgarg = le16_to_cpu(vc.dg);
    if (dgarg == MGMT_NONE16) {
        dg = -1;
        if (!vc.ndrives) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               VC_OFF(ndrives), 0);
        }
    } else {
        dg = dgarg;
        if (dg >= RAID_MAX_DGS || !c->a->cfg->dgs[dg].used) {
            return mgmt_refuse(c, MGMT_STAT_DG_NOT_FOUND, VC_OFF(dg), dgarg);
        }
        if (vc.ndrives || vc.nspans) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               vc.ndrives ? VC_OFF(ndrives) : VC_OFF(nspans),
                               vc.ndrives ? vc.ndrives : vc.nspans);
        }
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    for (int i = 0; i < vc.ndrives; i++) {
        uint16_t off = MGMT_OFF_DATA(sizeof(vc) + 2 * i);
        uint16_t slot = lduw_le_p(c->data + sizeof(vc) + 2 * i);

        drives[i] = mgmt_drive(c, slot);
        if (!drives[i]) {
            return mgmt_refuse(c, MGMT_STAT_DEVICE_NOT_FOUND, off, slot);
        }
        for (int k = 0; k < i; k++) {
            if (drives[k] == drives[i]) {
                return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, off, slot);
            }
        }
        if (mgmt_pd_state(c->a, drives[i]) != MGMT_PD_UNCONF_GOOD ||
            mr_array_pd_of(c->a, drives[i]) < 0) {
            return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, off, slot);
        }
    }
    if (raid_config_count_vds(c->a->cfg) >= RAID_MAX_VDS) {
        return mgmt_refuse(c, MGMT_STAT_LIMIT, MGMT_ERR_OFFSET_NONE,
                           RAID_MAX_VDS);
    }
    /* the core gives a new VD the lowest free index */
    for (idx = 0; c->a->cfg->vds[idx].used; idx++) {
        continue;
    }
    if (c->m->ops && c->m->ops->vd_slot_free &&
        !c->m->ops->vd_slot_free(c->m->opaque, idx)) {
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_ERR_OFFSET_NONE, idx);
    }
    spec.strip = strip * 2;
    spec.size = le64_to_cpu(vc.size_sectors);
    spec.nspans = vc.nspans;
    spec.name = name;
    spec.cache = RAID_CACHE_READ_ALLOWED | RAID_CACHE_WRITE_ALLOWED;
    if (vc.cache & MGMT_CACHE_WRITE_BACK) {
        spec.cache |= RAID_CACHE_WRITE_BACK;
    }
    if (vc.cache & MGMT_CACHE_ALWAYS_WB) {
        spec.cache |= RAID_CACHE_WRITE_BACK | RAID_CACHE_WB_NO_BATTERY;
    }
    if (vc.cache & MGMT_CACHE_READ_AHEAD) {
        spec.cache |= RAID_CACHE_READ_AHEAD;
    }
    idx = mr_array_create_vd(c->a, dg, drives, vc.ndrives, &spec, &why, &err);
    if (idx < 0) {
        return mgmt_cfg_status(c, why, err);
    }
    if (vc.flags & MGMT_CREATE_F_INIT) {
        /* a full initialization: every row written */
        if (!mr_jobs_start(c->a->vds[idx], RAID_JOB_INIT, false, &err)) {
            trace_megaraid_mgmt_refused(c->opcode, error_get_pretty(err));
            error_free(err);
        }
    }
    st = mgmt_need(c, sizeof(MgmtVdEntry));
    if (st) {
        return MGMT_STAT_OK;    /* created; the reply has no room for it */
    }
    mgmt_fill_vd_entry(c->a->vds[idx], (MgmtVdEntry *)c->out);
    c->out_len = sizeof(MgmtVdEntry);
    return MGMT_STAT_OK;
}

uint8_t mgmt_op_vd_delete(MgmtCtx *c)
{
    MRVirtualDisk *vd = mgmt_vd(c, c->mbox[0]);
    uint32_t flags = c->mbox[1];
    MRCfgError why = MR_CFG_OK;
    Error *err = NULL;

    if (!vd) {
        return mgmt_refuse(c, MGMT_STAT_VD_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    if (flags & ~MGMT_DELETE_F_MASK) {
        return mgmt_bad_mbox(c, 1);
    }
    if (mr_vd_cfg(vd)->job.kind != RAID_JOB_NONE &&
        !(flags & MGMT_DELETE_F_FORCE)) {
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_OFF_MBOX(1),
                           mgmt_job_kind(mr_vd_cfg(vd)));
    }
    if (c->m->ops && c->m->ops->vd_removing) {
        c->m->ops->vd_removing(c->m->opaque, vd);
    }
    if (!mr_array_delete_vd(c->a, c->mbox[0], &why, &err)) {
        return mgmt_cfg_status(c, why, err);
    }
    return MGMT_STAT_OK;
}

/* ---- jobs ---- */

static uint8_t mgmt_reply_job(MgmtCtx *c, MRVirtualDisk *vd)
{
    if (mgmt_need(c, sizeof(MgmtJobStatus))) {
        return MGMT_STAT_OK;    /* done; the reply has no room for it */
    }
    mgmt_fill_job(vd, (MgmtJobStatus *)c->out);
    c->out_len = sizeof(MgmtJobStatus);
    return MGMT_STAT_OK;
}

/* A pause waited for: a resume that came meanwhile starts the job again. */
static void mgmt_job_paused(MRArray *a, MRVirtualDisk *const *vds, int n,
                            void *opaque)
{
    for (int i = 0; i < n; i++) {
        if (!vds[i]->job_paused) {
            mr_jobs_kick(vds[i]);
        }
    }
}

/*
 * Pause (the job stops at its window, in a coroutine: the reply comes
 * after that, with the status then) or resume @n VDs' jobs.
 */
static void mgmt_job_pause(MgmtCtx *c, MRVirtualDisk *const *vds, int n,
                           bool pause)
{
    for (int i = 0; i < n; i++) {
        vds[i]->job_paused = pause;
        if (!pause) {
            mr_jobs_kick(vds[i]);
        }
    }
    if (pause) {
        mr_cfg_stop_jobs(c->a, vds, n, mgmt_job_paused, NULL);
    }
}

/* The job status of the VD in mbox[0] again (after its stop). */
static void mgmt_refill_vd_job(MgmtCtx *c)
{
    MRVirtualDisk *vd = mgmt_vd(c, c->mbox[0]);

    if (vd) {
        mgmt_reply_job(c, vd);
    }
}

/* The first VD rebuilding onto the drive in mbox[0], or NULL. */
static MRVirtualDisk *mgmt_rebuild_vd(MgmtCtx *c, MRDrive *d)
{
    int pd = mr_array_pd_of(c->a, d);

    for (int v = 0; v < RAID_MAX_VDS && pd >= 0; v++) {
        MRVirtualDisk *vd = mgmt_vd(c, v);

        if (vd && mr_vd_cfg(vd)->job.kind == RAID_JOB_REBUILD &&
            mr_vd_cfg(vd)->job.target_ref == c->a->cfg->pds[pd].ref) {
            return vd;
        }
    }
    return NULL;
}

static void mgmt_refill_rebuild_job(MgmtCtx *c)
{
    MRDrive *d = mgmt_drive(c, c->mbox[0]);
    MRVirtualDisk *vd = d ? mgmt_rebuild_vd(c, d) : NULL;

    if (vd) {
        mgmt_reply_job(c, vd);
    }
}

static uint8_t mgmt_rebuild_control(MgmtCtx *c, uint32_t action)
{
    MRCfgError why = MR_CFG_OK;
    Error *err = NULL;
    MRVirtualDisk *vds[RAID_MAX_VDS];
    MRVirtualDisk *first;
    int pd, n = 0;
    uint8_t st;
    MRDrive *d = mgmt_arg_drive(c, 0, &st);

    if (!d) {
        return st;
    }
    if (c->mbox[3]) {
        return mgmt_bad_mbox(c, 3);
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    if (action == MGMT_JOB_STOP) {
        if (!mr_array_stop_rebuild(c->a, d, &why, &err)) {
            st = mgmt_cfg_status(c, why, err);
            return mgmt_refuse(c, st, MGMT_OFF_MBOX(0),
                               mgmt_pd_state(c->a, d));
        }
        trace_megaraid_mgmt_job(-1, MGMT_JOB_REBUILD, action);
        return MGMT_STAT_OK;    /* no job left to report */
    }
    if (action == MGMT_JOB_START &&
        !mr_array_start_rebuild(c->a, d, &why, &err)) {
        st = mgmt_cfg_status(c, why, err);
        return mgmt_refuse(c, st, MGMT_OFF_MBOX(0), mgmt_pd_state(c->a, d));
    }
    pd = mr_array_pd_of(c->a, d);
    for (int v = 0; v < RAID_MAX_VDS && pd >= 0; v++) {
        MRVirtualDisk *vd = mgmt_vd(c, v);

        if (!vd || mr_vd_cfg(vd)->job.kind != RAID_JOB_REBUILD ||
            mr_vd_cfg(vd)->job.target_ref != c->a->cfg->pds[pd].ref) {
            continue;
        }
        vds[n++] = vd;
    }
    if (!n) {
        /* started: the rebuild may already be done (tiny VDs) */
        return action == MGMT_JOB_START ? MGMT_STAT_OK
               : mgmt_refuse(c, MGMT_STAT_NO_JOB, MGMT_OFF_MBOX(0),
                             c->mbox[0]);
    }
    first = vds[0];
    if (action != MGMT_JOB_START) {
        mgmt_job_pause(c, vds, n, action == MGMT_JOB_PAUSE);
        if (action == MGMT_JOB_PAUSE) {
            c->m->refill = mgmt_refill_rebuild_job;
        }
    }
    trace_megaraid_mgmt_job(first->idx, MGMT_JOB_REBUILD, action);
    return mgmt_reply_job(c, first);
}

/*
 * JOB CONTROL stop of a check or an initialization, once the job has
 * stopped at its window (array-config-stop.c): the cursor goes, the log
 * says aborted, the metadata pass is asked (the reply waits for it).
 */
static void mgmt_job_stopped(MRArray *a, MRVirtualDisk *const *vds, int n,
                             void *opaque)
{
    for (int i = 0; i < n; i++) {
        RaidVd *v = mr_vd_cfg(vds[i]);

        vds[i]->job_paused = false;
        if (v->job.kind == RAID_JOB_NONE) {
            continue;                   /* it finished first */
        }
        mr_ev_job(vds[i], MR_EV_JOB_ABORTED, v->job.kind, 0);
        memset(&v->job, 0, sizeof(v->job));
        v->seq++;
    }
    mr_array_refresh(a);
    mr_array_store_async(a);
}

uint8_t mgmt_op_job_control(MgmtCtx *c)
{
    uint32_t job = c->mbox[1], action = c->mbox[2], flags = c->mbox[3];
    MRVirtualDisk *vd;
    RaidVd *v;
    Error *err = NULL;
    uint8_t st;

    if (job == MGMT_JOB_COPYBACK) {
        return mgmt_copyback_control(c);    /* mgmt-ops-copyback.c */
    }
    if (job < MGMT_JOB_REBUILD || job > MGMT_JOB_INIT) {
        return mgmt_bad_mbox(c, 1);
    }
    if (action < MGMT_JOB_START || action > MGMT_JOB_RESUME) {
        return mgmt_bad_mbox(c, 2);
    }
    if (job == MGMT_JOB_REBUILD) {
        return mgmt_rebuild_control(c, action);
    }
    vd = mgmt_vd(c, c->mbox[0]);
    if (!vd) {
        return mgmt_refuse(c, MGMT_STAT_VD_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    if ((flags & ~MGMT_JOB_F_MASK) ||
        (flags && (job != MGMT_JOB_CC || action != MGMT_JOB_START))) {
        return mgmt_bad_mbox(c, 3);
    }
    st = mgmt_check_native(c);
    if (st) {
        return st;
    }
    v = mr_vd_cfg(vd);
    if (action != MGMT_JOB_START) {
        if (mgmt_job_kind(v) != job) {
            return mgmt_refuse(c, MGMT_STAT_NO_JOB, MGMT_OFF_MBOX(1), job);
        }
        trace_megaraid_mgmt_job(vd->idx, job, action);
        /* the reply comes once the job has stopped, with its status then */
        c->m->refill = mgmt_refill_vd_job;
        if (action != MGMT_JOB_STOP) {
            mgmt_job_pause(c, &vd, 1, action == MGMT_JOB_PAUSE);
            return mgmt_reply_job(c, vd);
        }
        vd->job_paused = true;          /* no kick until it is cleared */
        mr_cfg_stop_jobs(c->a, &vd, 1, mgmt_job_stopped, NULL);
        return mgmt_reply_job(c, vd);
    }
    if (job == MGMT_JOB_CC &&
        (v->level == RAID_LEVEL_0 || v->level == RAID_LEVEL_JBOD)) {
        return mgmt_refuse(c, MGMT_STAT_NOT_SUPPORTED, MGMT_OFF_MBOX(1), job);
    }
    if (v->job.kind != RAID_JOB_NONE) {
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_OFF_MBOX(1),
                           mgmt_job_kind(v));
    }
    if (v->state != RAID_VD_OPTIMAL) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                           v->state);
    }
    vd->job_paused = false;
    trace_megaraid_mgmt_job(vd->idx, job, action);
    if (!mr_jobs_start(vd, job == MGMT_JOB_CC ? RAID_JOB_CHECK : RAID_JOB_INIT,
                       flags & MGMT_JOB_F_REPAIR, &err)) {
        return mgmt_cfg_status(c, MR_CFG_WRONG_STATE, err);
    }
    return mgmt_reply_job(c, vd);
}

/* ---- foreign configurations ---- */

/* Import or clear (@act) every foreign configuration found. */
static uint8_t mgmt_foreign_apply(MgmtCtx *c,
                                  bool (*act)(MRArray *a, BusState *bus,
                                              MRCfgError *why, Error **errp))
{
    MRCfgError why = MR_CFG_OK;
    Error *err = NULL;

    if (c->mbox[0] != MGMT_NONE32) {
        return mgmt_bad_mbox(c, 0);
    }
    if (!mr_array_foreign_count(c->a, c->m->bus)) {
        return mgmt_refuse(c, MGMT_STAT_NO_FOREIGN, MGMT_ERR_OFFSET_NONE, 0);
    }
    if (!act(c->a, c->m->bus, &why, &err)) {
        return mgmt_cfg_status(c, why, err);
    }
    return MGMT_STAT_OK;
}

uint8_t mgmt_op_foreign_import(MgmtCtx *c)
{
    return mgmt_foreign_apply(c, mr_array_foreign_import);
}

uint8_t mgmt_op_foreign_clear(MgmtCtx *c)
{
    return mgmt_foreign_apply(c, mr_array_foreign_clear);
}
