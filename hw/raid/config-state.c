/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: drive and VD states.
 *
 * Owns the drive state transition table, the names of states and levels,
 * and the rule that derives a VD's state from its members.
 */
#include "raid/config.h"

#include <string.h>

#define T(from, to) [RAID_PD_##from][RAID_PD_##to] = true

/* The only drive state changes the controller makes or accepts. */
static const bool pd_transitions[RAID_PD_STATE__MAX][RAID_PD_STATE__MAX] = {
    T(UNCONF_GOOD, ONLINE), T(UNCONF_GOOD, HOT_SPARE),
    T(UNCONF_GOOD, UNCONF_BAD), T(UNCONF_GOOD, MISSING),
    T(UNCONF_GOOD, REBUILD),
    T(UNCONF_BAD, UNCONF_GOOD), T(UNCONF_BAD, MISSING),
    T(ONLINE, OFFLINE), T(ONLINE, MISSING), T(ONLINE, UNCONF_GOOD),
    T(OFFLINE, ONLINE), T(OFFLINE, REBUILD), T(OFFLINE, UNCONF_BAD),
    T(OFFLINE, MISSING),
    T(REBUILD, ONLINE), T(REBUILD, OFFLINE), T(REBUILD, MISSING),
    T(HOT_SPARE, REBUILD), T(HOT_SPARE, UNCONF_GOOD),
    T(HOT_SPARE, UNCONF_BAD), T(HOT_SPARE, MISSING),
    T(FOREIGN, UNCONF_GOOD), T(FOREIGN, ONLINE), T(FOREIGN, HOT_SPARE),
    T(FOREIGN, OFFLINE), T(FOREIGN, REBUILD), T(FOREIGN, UNCONF_BAD),
    T(FOREIGN, MISSING),
    T(MISSING, OFFLINE), T(MISSING, REBUILD), T(MISSING, UNCONF_GOOD),
    T(UNCONF_GOOD, COPYBACK), T(COPYBACK, UNCONF_GOOD),
    T(COPYBACK, UNCONF_BAD), T(COPYBACK, MISSING),
};

#undef T

static const char *const pd_state_names[RAID_PD_STATE__MAX] = {
    [RAID_PD_UNCONF_GOOD] = "unconfigured-good",
    [RAID_PD_UNCONF_BAD] = "unconfigured-bad",
    [RAID_PD_ONLINE] = "online",
    [RAID_PD_OFFLINE] = "offline",
    [RAID_PD_REBUILD] = "rebuild",
    [RAID_PD_HOT_SPARE] = "hot-spare",
    [RAID_PD_FOREIGN] = "foreign",
    [RAID_PD_MISSING] = "missing",
    [RAID_PD_COPYBACK] = "copyback",
};

const char *raid_pd_state_name(RaidPdState s)
{
    return (unsigned)s < RAID_PD_STATE__MAX ? pd_state_names[s] : "invalid";
}

const char *raid_vd_state_name(RaidVdState s)
{
    switch (s) {
    case RAID_VD_OPTIMAL:
        return "optimal";
    case RAID_VD_PARTIALLY_DEGRADED:
        return "partially-degraded";
    case RAID_VD_DEGRADED:
        return "degraded";
    case RAID_VD_OFFLINE:
        return "offline";
    }
    return "invalid";
}

bool raid_pd_transition_valid(RaidPdState from, RaidPdState to)
{
    if ((unsigned)from >= RAID_PD_STATE__MAX ||
        (unsigned)to >= RAID_PD_STATE__MAX) {
        return false;
    }
    return from == to || pd_transitions[from][to];
}

/*
 * A drive being rebuilt that fails or leaves takes its rebuild with it:
 * the rows already rebuilt onto it miss every write made while it is
 * out, so a later rebuild of it starts again from the first row.
 */
static void drop_rebuild_cursors(RaidConfig *cfg, uint32_t ref)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];

        if (vd->used && vd->job.kind == RAID_JOB_REBUILD &&
            vd->job.target_ref == ref) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->seq++;
        }
    }
}

bool raid_config_set_pd_state(RaidConfig *cfg, int pd, RaidPdState to,
                              GError **errp)
{
    RaidPd *p;

    if (pd < 0 || pd >= cfg->npds) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "drive %d does not exist", pd);
        return false;
    }
    p = &cfg->pds[pd];
    if (!raid_pd_transition_valid(p->state, to)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "drive %d (slot %d): state change %s -> %s is not "
                    "allowed", pd, p->slot, raid_pd_state_name(p->state),
                    raid_pd_state_name(to));
        return false;
    }
    if (p->state == RAID_PD_REBUILD && to != RAID_PD_REBUILD &&
        to != RAID_PD_ONLINE) {
        drop_rebuild_cursors(cfg, p->ref);
    }
    if (to != p->state && to != RAID_PD_ONLINE) {
        int src, dst;

        /* the copyback of which it is the source or the target ends */
        if (raid_copyback_of_pd(cfg, pd, &src, &dst) >= 0) {
            raid_copyback_abandon(cfg, dst);
        }
    }
    if (to != p->state) {
        p->arrived_blank = false;   /* it has had a role since it came */
    }
    p->state = to;
    p->in_sync = false;         /* set only when read at start */
    p->returned = false;
    raid_config_update_states(cfg);
    return true;
}

int raid_config_pd_dg(const RaidConfig *cfg, int pd)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        const RaidDriveGroup *dg = &cfg->dgs[g];

        for (int s = 0; dg->used && s < dg->nspans; s++) {
            for (int i = 0; i < dg->span[s].ndrives; i++) {
                if (dg->span[s].pd[i] == pd) {
                    return g;
                }
            }
        }
    }
    return -1;
}

static int in_sync_members(RaidConfig *cfg, int g, bool clear)
{
    const RaidDriveGroup *dg = &cfg->dgs[g];
    int n = 0;

    if (g < 0 || g >= RAID_MAX_DGS || !dg->used) {
        return 0;
    }
    for (int s = 0; s < dg->nspans; s++) {
        for (int i = 0; i < dg->span[s].ndrives; i++) {
            RaidPd *p = &cfg->pds[dg->span[s].pd[i]];

            if (p->state == RAID_PD_MISSING && p->in_sync) {
                n++;
                if (clear) {
                    p->in_sync = false;
                }
            }
        }
    }
    return n;
}

bool raid_config_mark_stale(RaidConfig *cfg, int dg)
{
    return in_sync_members(cfg, dg, true) > 0;
}

int raid_config_count_in_sync(const RaidConfig *cfg, int dg)
{
    return in_sync_members((RaidConfig *)cfg, dg, false);
}

RaidPdState raid_config_member_back(RaidConfig *cfg, int pd)
{
    RaidPd *p = &cfg->pds[pd];

    if (p->state != RAID_PD_MISSING) {
        return p->state;
    }
    p->state = p->in_sync ? RAID_PD_ONLINE : RAID_PD_OFFLINE;
    p->returned = !p->in_sync;
    p->in_sync = false;
    raid_config_update_states(cfg);
    return p->state;
}

/*
 * A span that lost more members than its redundancy is offline and so is
 * the VD.  A span that lost exactly its redundancy makes the VD degraded
 * (one more failure loses data); fewer losses make it partially degraded
 * (RAID 6 with one member out, a 3-way mirror with one out).
 */
static RaidVdState vd_state(const RaidConfig *cfg, const RaidVd *vd)
{
    const RaidDriveGroup *dg = &cfg->dgs[vd->dg];
    RaidVdState st = RAID_VD_OPTIMAL;

    for (int s = 0; s < dg->nspans; s++) {
        const RaidSpan *sp = &dg->span[s];
        int red = raid_level_redundancy(vd->level, sp->ndrives);
        int failed = 0;

        for (int i = 0; i < sp->ndrives; i++) {
            if (cfg->pds[sp->pd[i]].state != RAID_PD_ONLINE) {
                failed++;
            }
        }
        if (failed > red) {
            return RAID_VD_OFFLINE;
        }
        if (failed && failed == red) {
            st = RAID_VD_DEGRADED;
        } else if (failed && st == RAID_VD_OPTIMAL) {
            st = RAID_VD_PARTIALLY_DEGRADED;
        }
    }
    return st;
}

void raid_config_update_states(RaidConfig *cfg)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used) {
            cfg->vds[v].state = vd_state(cfg, &cfg->vds[v]);
        }
    }
}
