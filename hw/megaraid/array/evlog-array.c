/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the array's entries in the controller's event log
 * (evlog-array.h): the states last logged, compared after every refresh,
 * and the one-call entries for failures, hot plug, jobs, foreign
 * configurations, resets and shutdowns.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "evlog-array.h"
#include "hw/megaraid/nv-drive.h"

/* What the log last said about each drive, VD and the CacheVault. */
typedef struct MREvArray {
    bool synced;
    bool pd_known[RAID_MAX_PDS];
    uint8_t pd_guid[RAID_MAX_PDS][RAID_GUID_LEN];
    uint8_t pd_state[RAID_MAX_PDS];
    bool vd_used[RAID_MAX_VDS];
    uint8_t vd_state[RAID_MAX_VDS];
    uint8_t job_tenth[RAID_MAX_VDS];    /* progress last logged, 0..10 */
    uint8_t job_kind[RAID_MAX_VDS];     /* job logged as running */
    uint8_t job_pct[RAID_MAX_VDS];      /* its progress last seen */
    uint8_t cachevault;
} MREvArray;

static const char *const mr_ev_cv_names[] = {
    [MR_CV_OPTIMAL] = "optimal",
    [MR_CV_FAILED] = "failed",
    [MR_CV_ABSENT] = "absent",
};

static MREvSeverity mr_ev_pd_severity(RaidPdState s)
{
    switch (s) {
    case RAID_PD_OFFLINE:
    case RAID_PD_MISSING:
        return MR_EV_SEV_CRITICAL;
    case RAID_PD_UNCONF_BAD:
    case RAID_PD_FOREIGN:
        return MR_EV_SEV_WARNING;
    default:
        return MR_EV_SEV_INFO;
    }
}

static MREvSeverity mr_ev_vd_severity(RaidVdState s)
{
    switch (s) {
    case RAID_VD_OPTIMAL:
        return MR_EV_SEV_INFO;
    case RAID_VD_OFFLINE:
        return MR_EV_SEV_CRITICAL;
    default:
        return MR_EV_SEV_WARNING;
    }
}

bool mr_ev_open(MRArray *a, Error **errp)
{
    g_autofree char *desc = a->evlog_blk ? mr_nv_drive_desc(a->evlog_blk)
                                         : NULL;

    a->evlog = mr_evlog_open(a->evlog_blk, desc, 0, errp);
    if (!a->evlog) {
        return false;
    }
    a->ev = g_new0(MREvArray, 1);
    mr_evlog_add(a->evlog, MR_EV_CTRL_STARTED, MR_EV_SEV_INFO, -1, 0, 0,
                 "Controller started (%s)", a->product ? a->product : "");
    return true;
}

void mr_ev_flush(MRArray *a)
{
    if (a->evlog) {
        mr_evlog_flush(a->evlog);
    }
}

void mr_ev_close(MRArray *a)
{
    mr_evlog_close(a->evlog);
    a->evlog = NULL;
    g_free(a->ev);
    a->ev = NULL;
}

static void mr_ev_sync_pds(MRArray *a, MREvArray *ev, bool quiet)
{
    RaidConfig *cfg = a->cfg;

    for (int pd = 0; pd < RAID_MAX_PDS; pd++) {
        RaidPd *p = &cfg->pds[pd];
        bool used = pd < cfg->npds;

        if (!used) {
            ev->pd_known[pd] = false;
            continue;
        }
        if (!ev->pd_known[pd] ||
            memcmp(ev->pd_guid[pd], p->guid, RAID_GUID_LEN)) {
            /* a drive new to the configuration: its insertion says it */
            ev->pd_known[pd] = true;
            memcpy(ev->pd_guid[pd], p->guid, RAID_GUID_LEN);
            ev->pd_state[pd] = p->state;
            continue;
        }
        if (ev->pd_state[pd] == p->state || quiet) {
            ev->pd_state[pd] = p->state;
            continue;
        }
        mr_evlog_add(a->evlog, MR_EV_PD_STATE, mr_ev_pd_severity(p->state),
                     p->slot, ev->pd_state[pd], p->state,
                     "Drive in slot %d: state %s -> %s", p->slot,
                     raid_pd_state_name(ev->pd_state[pd]),
                     raid_pd_state_name(p->state));
        ev->pd_state[pd] = p->state;
    }
}

static void mr_ev_sync_vds(MRArray *a, MREvArray *ev, bool first)
{
    RaidConfig *cfg = a->cfg;

    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];
        bool used = vd->used && !cfg->foreign;

        if (used != ev->vd_used[v]) {
            if (used && !first) {
                mr_evlog_add(a->evlog, MR_EV_VD_CREATED, MR_EV_SEV_INFO, v,
                             vd->level, 0, "VD %d created (%s)", v,
                             vd->name);
            } else if (!used) {
                mr_evlog_add(a->evlog, MR_EV_VD_DELETED, MR_EV_SEV_INFO, v,
                             0, 0, "VD %d deleted", v);
            }
            ev->vd_used[v] = used;
            ev->vd_state[v] = used ? vd->state : RAID_VD_OPTIMAL;
            ev->job_tenth[v] = 0;
            ev->job_kind[v] = RAID_JOB_NONE;
            /*
             * (at start, the VDs not optimal are said with the reason by
             * mr_array_report_start(), array-report.c)
             */
            continue;
        }
        if (used && ev->job_kind[v] != RAID_JOB_NONE &&
            vd->job.kind != ev->job_kind[v]) {
            /* gone without its done entry: its drive failed or left */
            mr_evlog_add(a->evlog, MR_EV_JOB_ABORTED, MR_EV_SEV_WARNING, v,
                         ev->job_kind[v], ev->job_pct[v],
                         "VD %d: %s stopped at %u%%", v,
                         raid_job_name(ev->job_kind[v]), ev->job_pct[v]);
            ev->job_kind[v] = RAID_JOB_NONE;
            ev->job_tenth[v] = 0;
        }
        if (!used || ev->vd_state[v] == vd->state) {
            continue;
        }
        mr_evlog_add(a->evlog, MR_EV_VD_STATE, mr_ev_vd_severity(vd->state),
                     v, ev->vd_state[v], vd->state, "VD %d: state %s -> %s",
                     v, raid_vd_state_name(ev->vd_state[v]),
                     raid_vd_state_name(vd->state));
        ev->vd_state[v] = vd->state;
    }
}

void mr_ev_sync(MRArray *a)
{
    MREvArray *ev = a->ev;
    bool first;

    if (!a->evlog || !ev || !a->cfg) {
        return;
    }
    first = !ev->synced;
    mr_ev_sync_pds(a, ev, first);
    mr_ev_sync_vds(a, ev, first);
    if (first) {
        ev->cachevault = a->cachevault;
        if (a->cachevault != MR_CV_OPTIMAL) {
            mr_evlog_add(a->evlog, MR_EV_CV_STATE, MR_EV_SEV_WARNING, -1,
                         a->cachevault, a->cachevault,
                         "CacheVault is %s at start",
                         mr_ev_cv_names[a->cachevault]);
        }
    } else if (ev->cachevault != a->cachevault) {
        mr_evlog_add(a->evlog, MR_EV_CV_STATE,
                     a->cachevault == MR_CV_OPTIMAL ? MR_EV_SEV_INFO
                                                   : MR_EV_SEV_WARNING,
                     -1, ev->cachevault, a->cachevault,
                     "CacheVault: state %s -> %s",
                     mr_ev_cv_names[ev->cachevault],
                     mr_ev_cv_names[a->cachevault]);
        ev->cachevault = a->cachevault;
    }
    ev->synced = true;
}

void mr_ev_drive(MRArray *a, MREvCode code, MRDrive *d, const char *why)
{
    if (!a->evlog) {
        return;
    }
    switch (code) {
    case MR_EV_PD_FAILED:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_CRITICAL, d->slot, 0, 0,
                     "Drive in slot %u failed: %s", d->slot,
                     why ? why : "unknown");
        break;
    case MR_EV_PD_INSERTED:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, d->slot, 0, 0,
                     "Drive inserted in slot %u", d->slot);
        break;
    case MR_EV_PD_REMOVED:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_WARNING, d->slot, 0, 0,
                     "Drive removed from slot %u", d->slot);
        break;
    default:
        g_assert_not_reached();
    }
}

static unsigned mr_ev_job_percent(MRVirtualDisk *vd)
{
    return raid_job_percent(&mr_vd_cfg(vd)->job);
}

void mr_ev_job(MRVirtualDisk *vd, MREvCode code, RaidJobKind kind,
               uint64_t arg)
{
    MRArray *a = vd->array;
    const char *name = raid_job_name(kind);
    unsigned pct;

    if (!a->evlog || !a->ev || kind == RAID_JOB_NONE) {
        return;
    }
    pct = mr_vd_cfg(vd)->job.kind == kind ? mr_ev_job_percent(vd) : 0;
    switch (code) {
    case MR_EV_JOB_STARTED:
        a->ev->job_tenth[vd->idx] = pct / 10;
        a->ev->job_kind[vd->idx] = kind;
        a->ev->job_pct[vd->idx] = pct;
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, vd->idx, kind, arg != 0,
                     "VD %d: %s %s at %u%%", vd->idx, name,
                     arg ? "resumed" : "started", pct);
        break;
    case MR_EV_JOB_DONE:
        a->ev->job_tenth[vd->idx] = 0;
        a->ev->job_kind[vd->idx] = RAID_JOB_NONE;
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, vd->idx, kind,
                     (uint32_t)MIN(arg, UINT32_MAX), "VD %d: %s done",
                     vd->idx, name);
        break;
    case MR_EV_JOB_ABORTED:
        a->ev->job_tenth[vd->idx] = 0;
        a->ev->job_kind[vd->idx] = RAID_JOB_NONE;
        mr_evlog_add(a->evlog, code, MR_EV_SEV_WARNING, vd->idx, kind, pct,
                     "VD %d: %s stopped at %u%%", vd->idx, name, pct);
        break;
    default:
        g_assert_not_reached();
    }
}

void mr_ev_job_progress(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;
    RaidJobCursor *c = &mr_vd_cfg(vd)->job;
    unsigned tenth;

    if (!a->evlog || !a->ev || c->kind == RAID_JOB_NONE) {
        return;
    }
    a->ev->job_pct[vd->idx] = mr_ev_job_percent(vd);
    tenth = a->ev->job_pct[vd->idx] / 10;
    if (tenth <= a->ev->job_tenth[vd->idx] || tenth >= 10) {
        return;                 /* 100 % is the job's "done" entry */
    }
    a->ev->job_tenth[vd->idx] = tenth;
    mr_evlog_add(a->evlog, MR_EV_JOB_PROGRESS, MR_EV_SEV_INFO, vd->idx,
                 c->kind, tenth * 10, "VD %d: %s %u%% done", vd->idx,
                 raid_job_name(c->kind), tenth * 10);
}

void mr_ev_config(MRArray *a, MREvCode code, uint32_t arg0)
{
    if (!a->evlog) {
        return;
    }
    switch (code) {
    case MR_EV_CFG_FOREIGN_FOUND:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_WARNING, -1, arg0, 0,
                     "Foreign configuration found on %u drive(s)", arg0);
        break;
    case MR_EV_CFG_FOREIGN_IMPORTED:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, -1, arg0, 0,
                     "Foreign configuration imported");
        break;
    case MR_EV_CFG_FOREIGN_CLEARED:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, -1, arg0, 0,
                     "Foreign configuration cleared");
        break;
    default:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, -1, arg0, 0,
                     "Configuration changed");
        break;
    }
}

void mr_ev_ctrl(MRArray *a, MREvCode code, uint32_t arg0)
{
    if (!a->evlog) {
        return;
    }
    switch (code) {
    case MR_EV_CTRL_RESET:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, -1, arg0, 0,
                     "Controller %s reset", arg0 ? "soft" : "message unit");
        break;
    case MR_EV_CTRL_SHUTDOWN:
        mr_evlog_add(a->evlog, code, MR_EV_SEV_INFO, -1, arg0, 0,
                     "Controller shut down (%s)",
                     arg0 ? "host's shutdown notification" : "power off");
        break;
    default:
        g_assert_not_reached();
    }
}
