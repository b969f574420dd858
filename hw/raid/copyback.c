/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: copyback, as the card does it.  A hot spare
 * that took a failed member's place is copied, VD extent by VD extent,
 * onto a new drive put into that member's bay; then the new drive takes
 * the member's place and the spare is a spare again.
 *
 * Owns when a copyback may start, the cursor it gives every VD of the
 * drive group (RAID_JOB_COPYBACK: target_ref the new drive, source_ref
 * the member), the new drive's COPYBACK state, the swap at its end, its
 * abandonment (stopped, a drive failed or went) and how it is read back
 * from DDF (the new drive is written as unconfigured good; the cursors
 * name it).  The rows are copied by the job cursor (job.c,
 * raid_plan_copy_row()).
 */
#include "raid/config.h"

#include <string.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/* Span and position of member @pd in drive group @dg. */
static bool member_pos(const RaidConfig *cfg, int dg, int pd, int *s, int *i)
{
    const RaidDriveGroup *g = &cfg->dgs[dg];

    for (*s = 0; *s < g->nspans; (*s)++) {
        for (*i = 0; *i < g->span[*s].ndrives; (*i)++) {
            if (g->span[*s].pd[*i] == pd) {
                return true;
            }
        }
    }
    return false;
}

static bool is_copyback(const RaidVd *v)
{
    return v->used && v->job.kind == RAID_JOB_COPYBACK;
}

bool raid_copyback_of_dg(const RaidConfig *cfg, int dg, int *src, int *dst)
{
    for (int v = 0; v < RAID_MAX_VDS && dg >= 0; v++) {
        const RaidVd *vd = &cfg->vds[v];

        if (is_copyback(vd) && vd->dg == dg) {
            *src = raid_config_find_pd_ref(cfg, vd->job.source_ref);
            *dst = raid_config_find_pd_ref(cfg, vd->job.target_ref);
            if (*src >= 0 && *dst >= 0) {
                return true;
            }
        }
    }
    *src = *dst = -1;
    return false;
}

int raid_copyback_of_pd(const RaidConfig *cfg, int pd, int *src, int *dst)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];

        if (is_copyback(vd) && pd >= 0 &&
            (vd->job.source_ref == cfg->pds[pd].ref ||
             vd->job.target_ref == cfg->pds[pd].ref) &&
            raid_copyback_of_dg(cfg, vd->dg, src, dst)) {
            return vd->dg;
        }
    }
    *src = *dst = -1;
    return -1;
}

/* Every VD of @dg optimal and without a job (else why not). */
static bool dg_idle(const RaidConfig *cfg, int dg, GError **errp)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];

        if (!vd->used || vd->dg != dg) {
            continue;
        }
        if (vd->job.kind != RAID_JOB_NONE) {
            ERR(errp, "VD %d runs another background job: a copyback "
                "waits for it", v);
            return false;
        }
        if (vd->state != RAID_VD_OPTIMAL) {
            ERR(errp, "VD %d is %s: a copyback needs an optimal drive group",
                v, raid_vd_state_name(vd->state));
            return false;
        }
    }
    return true;
}

bool raid_copyback_start(RaidConfig *cfg, int src, int dst, GError **errp)
{
    RaidPd *s, *d;
    uint64_t need = 0;
    int dg, n;
    bool any = false;

    if (src < 0 || src >= cfg->npds || dst < 0 || dst >= cfg->npds ||
        src == dst) {
        ERR(errp, "a copyback needs two different drives");
        return false;
    }
    if (cfg->foreign) {
        ERR(errp, "the configuration is foreign");
        return false;
    }
    s = &cfg->pds[src];
    d = &cfg->pds[dst];
    dg = raid_config_pd_dg(cfg, src);
    if (dg < 0 || s->state != RAID_PD_ONLINE || !s->present) {
        ERR(errp, "drive in slot %d is %s, not an online member: nothing to "
            "copy from", s->slot, dg < 0 ? raid_pd_state_name(s->state) :
            s->present ? raid_pd_state_name(s->state) : "not present");
        return false;
    }
    if (d->state != RAID_PD_UNCONF_GOOD || !d->present) {
        ERR(errp, "drive in slot %d is %s; a copyback goes to an "
            "unconfigured-good drive", d->slot,
            d->present ? raid_pd_state_name(d->state) : "not present");
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used && cfg->vds[v].dg == dg) {
            need = MAX(need, cfg->vds[v].start + cfg->vds[v].blocks);
            any = true;
        }
    }
    if (!any) {
        ERR(errp, "drive group %d has no VD to copy", dg);
        return false;
    }
    if (d->usable < need) {
        ERR(errp, "drive in slot %d has %" G_GUINT64_FORMAT " usable "
            "sectors; the drive group needs %" G_GUINT64_FORMAT, d->slot,
            d->usable, need);
        return false;
    }
    n = 0;
    for (int sp = 0; sp < cfg->dgs[dg].nspans; sp++) {
        n += cfg->dgs[dg].span[sp].ndrives;
    }
    if (n >= RAID_MAX_MEMBERS) {
        /* the target is planned as the member one past the last */
        ERR(errp, "drive group %d has %d members: no copyback on the "
            "widest groups", dg, n);
        return false;
    }
    if (!dg_idle(cfg, dg, errp)) {
        return false;
    }
    if (!raid_config_set_pd_state(cfg, dst, RAID_PD_COPYBACK, errp)) {
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];

        if (vd->used && vd->dg == dg) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->job.kind = RAID_JOB_COPYBACK;
            vd->job.target_ref = d->ref;
            vd->job.source_ref = s->ref;
            /* a spare that took over returns to be one (job.repair) */
            vd->job.repair = s->spare_took;
            vd->job.spare_dg = s->spare_took ? s->spare_took_dg : -1;
            vd->job.total_rows = raid_vd_rows(cfg, v);
            vd->seq++;
        }
    }
    return true;
}

void raid_copyback_abandon(RaidConfig *cfg, int dst)
{
    uint32_t ref;

    if (dst < 0 || dst >= cfg->npds) {
        return;
    }
    ref = cfg->pds[dst].ref;
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];

        if (is_copyback(vd) && vd->job.target_ref == ref) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->seq++;
        }
    }
    if (cfg->pds[dst].state == RAID_PD_COPYBACK) {
        cfg->pds[dst].state = RAID_PD_UNCONF_GOOD;
    }
}

bool raid_copyback_done(RaidConfig *cfg, const RaidJobCursor *c,
                        GError **errp)
{
    int dst = raid_config_find_pd_ref(cfg, c->target_ref);
    int src = raid_config_find_pd_ref(cfg, c->source_ref);
    int dg = -1, s, i;
    RaidPd *d, *p;

    for (int v = 0; v < RAID_MAX_VDS && dst >= 0 && dst < cfg->npds; v++) {
        if (cfg->vds[v].used && cfg->vds[v].job.kind == RAID_JOB_COPYBACK &&
            cfg->vds[v].job.target_ref == cfg->pds[dst].ref) {
            ERR(errp, "VD %d is still being copied", v);
            return false;
        }
    }
    if (dst < 0 || dst >= cfg->npds ||
        cfg->pds[dst].state != RAID_PD_COPYBACK) {
        ERR(errp, "drive %d is not the target of a copyback", dst);
        return false;
    }
    d = &cfg->pds[dst];
    dg = src >= 0 && src < cfg->npds ? raid_config_pd_dg(cfg, src) : -1;
    if (dg < 0 || !member_pos(cfg, dg, src, &s, &i)) {
        raid_copyback_abandon(cfg, dst);
        ERR(errp, "the member copied onto drive %d is no longer one", dst);
        return false;
    }
    p = &cfg->pds[src];
    cfg->dgs[dg].span[s].pd[i] = dst;
    d->state = RAID_PD_ONLINE;
    /*
     * a spare that took over is a spare again (as dedicated as it was);
     * a member copied by hand (storcli's start copyback) is let go
     */
    p->state = c->repair ? RAID_PD_HOT_SPARE : RAID_PD_UNCONF_GOOD;
    p->spare_dg = c->repair && c->spare_dg == dg ? dg : -1;
    p->spare_took = false;
    p->in_sync = false;
    p->returned = false;
    raid_config_update_states(cfg);
    return true;
}

int raid_copyback_source_for_slot(const RaidConfig *cfg, int slot)
{
    for (int pd = 0; pd < cfg->npds && slot >= 0; pd++) {
        const RaidPd *p = &cfg->pds[pd];
        int dg = raid_config_pd_dg(cfg, pd);

        if (p->spare_took && p->spare_took_slot == slot &&
            p->state == RAID_PD_ONLINE && p->present && dg >= 0 &&
            dg_idle(cfg, dg, NULL)) {
            return pd;
        }
    }
    return -1;
}

void raid_copyback_restore(RaidConfig *cfg)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];
        int src, dst, dg;

        if (!is_copyback(vd)) {
            continue;
        }
        src = raid_config_find_pd_ref(cfg, vd->job.source_ref);
        dst = raid_config_find_pd_ref(cfg, vd->job.target_ref);
        dg = src >= 0 ? raid_config_pd_dg(cfg, src) : -1;
        if (dg == vd->dg && dst >= 0 && cfg->pds[dst].present &&
            raid_config_pd_dg(cfg, dst) < 0 &&
            (cfg->pds[dst].state == RAID_PD_UNCONF_GOOD ||
             cfg->pds[dst].state == RAID_PD_COPYBACK)) {
            cfg->pds[dst].state = RAID_PD_COPYBACK;
            continue;
        }
        memset(&vd->job, 0, sizeof(vd->job));
    }
}
