/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: background job cursors.
 *
 * Owns when a rebuild, consistency check or initialization may start,
 * how its cursor advances over the VD's rows (one data-path plan per row)
 * and what finishing it changes in the configuration.
 */
#include "raid/job.h"

#include <string.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

const char *raid_job_name(RaidJobKind k)
{
    switch (k) {
    case RAID_JOB_NONE:
        return "none";
    case RAID_JOB_REBUILD:
        return "rebuild";
    case RAID_JOB_CHECK:
        return "check";
    case RAID_JOB_INIT:
        return "init";
    case RAID_JOB_COPYBACK:
        return "copyback";
    }
    return "invalid";
}

unsigned raid_job_percent(const RaidJobCursor *c)
{
    if (c->kind == RAID_JOB_NONE || c->total_rows == 0) {
        return 100;
    }
    return (unsigned)(c->next_row * 100 / c->total_rows);
}

static bool vd_valid(const RaidConfig *cfg, int vd, GError **errp)
{
    if (vd < 0 || vd >= RAID_MAX_VDS || !cfg->vds[vd].used) {
        ERR(errp, "VD %d does not exist", vd);
        return false;
    }
    return true;
}

bool raid_job_start(RaidConfig *cfg, int vd, RaidJobKind kind, bool repair,
                    GError **errp)
{
    RaidVd *v;
    int pds[RAID_MAX_MEMBERS], n;

    if (!vd_valid(cfg, vd, errp)) {
        return false;
    }
    v = &cfg->vds[vd];
    if (v->job.kind != RAID_JOB_NONE) {
        ERR(errp, "VD %d already runs a %s (%u%%)", vd,
            raid_job_name(v->job.kind), raid_job_percent(&v->job));
        return false;
    }
    n = raid_vd_members(cfg, vd, pds, RAID_MAX_MEMBERS);
    switch (kind) {
    case RAID_JOB_REBUILD:
        for (int i = 0; i < n; i++) {
            if (cfg->pds[pds[i]].state == RAID_PD_REBUILD) {
                memset(&v->job, 0, sizeof(v->job));
                v->job.kind = kind;
                v->job.target_ref = cfg->pds[pds[i]].ref;
                v->job.total_rows = raid_vd_rows(cfg, vd);
                v->seq++;
                return true;
            }
        }
        ERR(errp, "VD %d has no member in rebuild state (replace a failed "
            "member first)", vd);
        return false;
    case RAID_JOB_CHECK:
        if (v->level == RAID_LEVEL_0 || v->level == RAID_LEVEL_JBOD) {
            ERR(errp, "VD %d is %s: it has no redundancy to check", vd,
                raid_level_name(v->level));
            return false;
        }
        if (v->state != RAID_VD_OPTIMAL) {
            ERR(errp, "VD %d is %s: a consistency check needs an optimal VD",
                vd, raid_vd_state_name(v->state));
            return false;
        }
        break;
    case RAID_JOB_INIT:
        if (v->state != RAID_VD_OPTIMAL) {
            ERR(errp, "VD %d is %s: initialization needs an optimal VD", vd,
                raid_vd_state_name(v->state));
            return false;
        }
        v->initialized = false;
        break;
    default:
        ERR(errp, "unknown job kind %d", kind);
        return false;
    }
    memset(&v->job, 0, sizeof(v->job));
    v->job.kind = kind;
    v->job.repair = repair;
    v->job.total_rows = raid_vd_rows(cfg, vd);
    v->seq++;
    return true;
}

/*
 * Initialization of a row: every member's strip reads back as zeroes,
 * which makes data, mirrors, P and Q consistent (discard = write zeroes).
 */
static RaidPlan *init_row_plan(const RaidLayout *l, uint64_t row)
{
    RaidPlan *p = g_new0(RaidPlan, 1);
    uint32_t zero = 0;

    p->op = RAID_OP_UNMAP;
    p->steps = g_array_new(false, true, sizeof(RaidStep));
    p->buf_size = g_array_new(false, true, sizeof(uint32_t));
    p->groups = g_array_new(false, true, sizeof(RaidPlanGroup));
    g_array_append_val(p->buf_size, zero);
    p->exclusive = true;
    p->has_rows = true;
    p->first_row = p->last_row = row;
    p->nphases = 1;
    for (uint32_t m = 0; m < l->members; m++) {
        RaidStep st = {
            .kind = RAID_STEP_DISCARD,
            .member = m,
            .member_lba = l->member_start[m] + row * l->strip,
            .sectors = raid_layout_row_len(l, row),
        };
        g_array_append_val(p->steps, st);
    }
    return p;
}

static void finish(RaidConfig *cfg, int vd)
{
    RaidVd *v = &cfg->vds[vd];
    RaidJobCursor done = v->job;

    memset(&v->job, 0, sizeof(v->job));
    v->seq++;
    switch (done.kind) {
    case RAID_JOB_REBUILD: {
        int pd = raid_config_find_pd_ref(cfg, done.target_ref);
        bool others = false;

        for (int i = 0; i < RAID_MAX_VDS; i++) {
            others |= cfg->vds[i].used && cfg->vds[i].dg == v->dg &&
                      cfg->vds[i].job.kind == RAID_JOB_REBUILD &&
                      cfg->vds[i].job.target_ref == done.target_ref;
        }
        if (pd >= 0 && !others && cfg->pds[pd].state == RAID_PD_REBUILD) {
            raid_config_rebuild_done(cfg, pd, NULL);
        }
        break;
    }
    case RAID_JOB_CHECK:
        /*
         * Every row was compared (and repaired): the redundancy is what
         * an initialization would have written, so a VD that was never
         * initialized now is (background initialization is a check with
         * repair that keeps the data, see docs/megaraid-9600.md).
         */
        if (done.repair || done.mismatches == 0) {
            v->consistent = true;
            v->initialized = true;
        }
        break;
    case RAID_JOB_INIT:
        v->initialized = true;
        v->consistent = true;
        break;
    case RAID_JOB_COPYBACK: {
        bool others = false;

        for (int i = 0; i < RAID_MAX_VDS; i++) {
            others |= cfg->vds[i].used && cfg->vds[i].dg == v->dg &&
                      cfg->vds[i].job.kind == RAID_JOB_COPYBACK &&
                      cfg->vds[i].job.target_ref == done.target_ref;
        }
        if (!others) {
            /* the last VD is copied: the new drive takes the member's place */
            raid_copyback_done(cfg, &done, NULL);
        }
        break;
    }
    default:
        break;
    }
}

/* Member index of the drive with reference @ref, or UINT32_MAX. */
static uint32_t member_of_ref(const RaidConfig *cfg, int vd, uint32_t ref)
{
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(cfg, vd, pds, RAID_MAX_MEMBERS);

    for (int i = 0; i < n && i < RAID_MAX_MEMBERS; i++) {
        if (cfg->pds[pds[i]].ref == ref) {
            return i;
        }
    }
    return UINT32_MAX;
}

/* Member index of the drive a rebuild cursor targets, or UINT32_MAX. */
static uint32_t rebuild_target(const RaidConfig *cfg, int vd)
{
    return member_of_ref(cfg, vd, cfg->vds[vd].job.target_ref);
}

bool raid_job_row_begin(RaidConfig *cfg, int vd, const RaidLayout *l,
                        RaidJobRow *jr, GError **errp)
{
    if (!vd_valid(cfg, vd, errp)) {
        memset(jr, 0, sizeof(*jr));
        return false;
    }
    return raid_job_row_begin_at(cfg, vd, l, cfg->vds[vd].job.next_row, jr,
                                 errp);
}

bool raid_job_row_begin_at(RaidConfig *cfg, int vd, const RaidLayout *l,
                           uint64_t row, RaidJobRow *jr, GError **errp)
{
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidVd *v;
    uint32_t target = UINT32_MAX;

    memset(jr, 0, sizeof(*jr));
    if (!vd_valid(cfg, vd, errp)) {
        return false;
    }
    v = &cfg->vds[vd];
    if (v->job.kind == RAID_JOB_NONE) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "VD %d runs no background job", vd);
        return false;
    }
    if (v->job.kind == RAID_JOB_REBUILD) {
        target = rebuild_target(cfg, vd);
        if (target == UINT32_MAX) {
            ERR(errp, "VD %d: the drive being rebuilt (reference %08x) is "
                "no longer a member", vd, v->job.target_ref);
            return false;
        }
    }
    if (v->job.kind == RAID_JOB_COPYBACK) {
        int dst = raid_config_find_pd_ref(cfg, v->job.target_ref);

        target = member_of_ref(cfg, vd, v->job.source_ref);
        if (target == UINT32_MAX || dst < 0 ||
            cfg->pds[dst].state != RAID_PD_COPYBACK) {
            ERR(errp, "VD %d: the copyback's source (reference %08x) is no "
                "longer a member or its target (%08x) is gone", vd,
                v->job.source_ref, v->job.target_ref);
            return false;
        }
    }
    v->job.total_rows = l->rows;
    if (v->job.next_row >= l->rows) {
        return true;            /* nothing left: row_end finishes it */
    }
    if (row < v->job.next_row || row >= l->rows) {
        ERR(errp, "VD %d: row %" G_GUINT64_FORMAT " is not ahead of the "
            "%s cursor (row %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ")",
            vd, row, raid_job_name(v->job.kind), v->job.next_row, l->rows);
        return false;
    }
    jr->row = row;
    raid_config_vd_member_states(cfg, vd, st);
    switch (v->job.kind) {
    case RAID_JOB_REBUILD:
        jr->plan = raid_plan_rebuild_row(l, st, jr->row, target);
        break;
    case RAID_JOB_CHECK:
        jr->plan = raid_plan_check_row(l, st, jr->row, v->job.repair);
        break;
    case RAID_JOB_COPYBACK:
        jr->plan = raid_plan_copy_row(l, st, jr->row, target);
        break;
    default:
        jr->plan = init_row_plan(l, jr->row);
        break;
    }
    return true;
}

bool raid_job_row_end(RaidConfig *cfg, int vd, const RaidLayout *l,
                      RaidJobRow *jr, const RaidRunResult *res,
                      RaidJobProgress *out, GError **errp)
{
    RaidVd *v = &cfg->vds[vd];
    bool ok = true;

    if (jr->plan) {
        raid_plan_free(jr->plan);
        jr->plan = NULL;
        if (res->ret < 0) {
            ERR(errp, "VD %d: %s of row %" G_GUINT64_FORMAT " failed: %s%s",
                vd, raid_job_name(v->job.kind), jr->row,
                g_strerror(-res->ret), res->failed_member != UINT32_MAX ?
                " (member I/O error)" : "");
            ok = false;
        } else {
            if (res->mismatches) {
                v->job.mismatches++;
                out->mismatches++;
                if (!v->job.repair) {
                    v->consistent = false;
                }
            }
            v->job.next_row++;
            out->rows++;
        }
    }
    out->total_mismatches = v->job.mismatches;
    if (ok && v->job.next_row >= l->rows) {
        finish(cfg, vd);
        out->finished = true;
    }
    return ok;
}

bool raid_job_step(RaidConfig *cfg, int vd, const RaidExecOps *ops,
                   void *opaque, uint64_t max_rows, RaidJobProgress *out,
                   GError **errp)
{
    RaidLayout *l;
    bool ok = true;

    memset(out, 0, sizeof(*out));
    if (!vd_valid(cfg, vd, errp)) {
        return false;
    }
    if (cfg->vds[vd].job.kind == RAID_JOB_NONE) {
        ERR(errp, "VD %d runs no background job", vd);
        return false;
    }
    l = g_new(RaidLayout, 1);
    if (!raid_config_vd_layout(cfg, vd, l, errp)) {
        g_free(l);
        return false;
    }
    while (ok && !out->finished) {
        RaidJobRow jr;
        RaidRunResult res = { 0 };

        if (out->rows >= max_rows && cfg->vds[vd].job.next_row < l->rows) {
            break;
        }
        ok = raid_job_row_begin(cfg, vd, l, &jr, errp);
        if (!ok) {
            break;
        }
        if (jr.plan) {
            res = raid_run_sync(jr.plan, RAID_PARITY_ISAL, ops, opaque);
        }
        ok = raid_job_row_end(cfg, vd, l, &jr, &res, out, errp);
    }
    g_free(l);
    return ok;
}
