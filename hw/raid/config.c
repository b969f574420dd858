/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: configuration changes.
 *
 * Drives, drive groups, VDs and hot spares, checked against the card's
 * limits and level rules; every refusal names the limit it hit.
 */
#include "raid/config.h"

#include <string.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/*
 * Metadata reserve: the 9600 firmware keeps 512 MiB at the end of every
 * drive.  Small (test) drives keep 1/128 of their size instead, rounded up
 * to 1 MiB, at least 1 MiB; drives of 64 GiB and more get the full 512 MiB.
 */
uint64_t raid_reserve_sectors(uint64_t drive_sectors)
{
    const uint64_t mib = 2048;
    uint64_t r = (drive_sectors / 128 + mib - 1) / mib * mib;

    return MIN(MAX(r, mib), 512 * mib);
}

void raid_ctrl_guid(const char *serial, uint8_t guid[RAID_GUID_LEN])
{
    if (!serial) {
        serial = RAID_DEFAULT_SERIAL;
    }
    memcpy(guid, "LSI     ", 8);
    memset(guid + 8, ' ', 16);
    memcpy(guid + 8, serial, MIN(strlen(serial), 16));
}

RaidConfig *raid_config_new(const uint8_t ctrl_guid[RAID_GUID_LEN])
{
    RaidConfig *cfg = g_new0(RaidConfig, 1);

    memcpy(cfg->ctrl_guid, ctrl_guid, RAID_GUID_LEN);
    /* MegaRAID 9670W-16i: PCI 1000:00a5, subsystem 1000:4600. */
    cfg->ctrl_type[0] = 0x1000;
    cfg->ctrl_type[1] = 0x00a5;
    cfg->ctrl_type[2] = 0x1000;
    cfg->ctrl_type[3] = 0x4600;
    g_strlcpy(cfg->product, "MegaRAID 9670W", sizeof(cfg->product));
    return cfg;
}

void raid_config_free(RaidConfig *cfg)
{
    if (!cfg) {
        return;
    }
    for (int i = 0; i < cfg->npds; i++) {
        g_free(cfg->pds[i].path);
    }
    g_free(cfg);
}

RaidConfig *raid_config_dup(const RaidConfig *cfg)
{
    RaidConfig *c = g_memdup2(cfg, sizeof(*cfg));

    for (int i = 0; i < c->npds; i++) {
        c->pds[i].path = g_strdup(cfg->pds[i].path);
    }
    return c;
}

int raid_config_find_pd_ref(const RaidConfig *cfg, uint32_t ref)
{
    for (int i = 0; i < cfg->npds; i++) {
        if (cfg->pds[i].ref == ref) {
            return i;
        }
    }
    return -1;
}

int raid_config_find_pd_slot(const RaidConfig *cfg, int slot)
{
    for (int i = 0; i < cfg->npds; i++) {
        if (cfg->pds[i].slot == slot) {
            return i;
        }
    }
    return -1;
}

int raid_config_add_pd(RaidConfig *cfg, const uint8_t guid[RAID_GUID_LEN],
                       int slot, uint64_t sectors, GError **errp)
{
    RaidPd *p;
    uint32_t ref;

    if (cfg->npds >= RAID_MAX_PDS) {
        ERR(errp, "the card supports at most %d physical drives",
            RAID_MAX_PDS);
        return -1;
    }
    for (int i = 0; i < cfg->npds; i++) {
        if (!memcmp(cfg->pds[i].guid, guid, RAID_GUID_LEN)) {
            ERR(errp, "a drive with the same GUID is already in slot %d",
                cfg->pds[i].slot);
            return -1;
        }
        if (slot >= 0 && cfg->pds[i].slot == slot) {
            ERR(errp, "slot %d already holds a drive", slot);
            return -1;
        }
    }
    if (sectors <= raid_reserve_sectors(sectors) + 2048) {
        ERR(errp, "drive of %" G_GUINT64_FORMAT " sectors is too small for "
            "the %" G_GUINT64_FORMAT "-sector metadata reserve plus 1 MiB "
            "of data", sectors, raid_reserve_sectors(sectors));
        return -1;
    }
    /* A stable reference derived from the GUID, made unique. */
    ref = 2166136261u;
    for (int i = 0; i < RAID_GUID_LEN; i++) {
        ref = (ref ^ guid[i]) * 16777619u;
    }
    while (ref == 0 || ref == 0xffffffffu ||
           raid_config_find_pd_ref(cfg, ref) >= 0) {
        ref++;
    }
    p = &cfg->pds[cfg->npds];
    memset(p, 0, sizeof(*p));
    memcpy(p->guid, guid, RAID_GUID_LEN);
    p->ref = ref;
    p->slot = slot;
    p->sectors = sectors;
    p->usable = (sectors - raid_reserve_sectors(sectors)) / 2048 * 2048;
    p->state = RAID_PD_UNCONF_GOOD;
    p->spare_dg = -1;
    p->present = true;
    return cfg->npds++;
}

int raid_config_count_vds(const RaidConfig *cfg)
{
    int n = 0;

    for (int v = 0; v < RAID_MAX_VDS; v++) {
        n += cfg->vds[v].used;
    }
    return n;
}

int raid_config_count_spares(const RaidConfig *cfg, bool dedicated)
{
    int n = 0;

    for (int i = 0; i < cfg->npds; i++) {
        if (cfg->pds[i].state == RAID_PD_HOT_SPARE &&
            (cfg->pds[i].spare_dg >= 0) == dedicated) {
            n++;
        }
    }
    return n;
}

static int dg_vd_count(const RaidConfig *cfg, int dg)
{
    int n = 0;

    for (int v = 0; v < RAID_MAX_VDS; v++) {
        n += cfg->vds[v].used && cfg->vds[v].dg == dg;
    }
    return n;
}

static bool level_spanned(RaidLevel l)
{
    return l == RAID_LEVEL_10 || l == RAID_LEVEL_50 ||
           l == RAID_LEVEL_60;
}

/* Data strips per row of one span. */
static int span_data_strips(RaidLevel l, int width)
{
    switch (l) {
    case RAID_LEVEL_0:
    case RAID_LEVEL_JBOD:
        return width;
    case RAID_LEVEL_1:
    case RAID_LEVEL_10:
        return 1;
    case RAID_LEVEL_5:
    case RAID_LEVEL_50:
        return width - 1;
    case RAID_LEVEL_6:
    case RAID_LEVEL_60:
        return width - 2;
    }
    return 0;
}

/* Checks a level against a span layout; sets *nspans when it was 0. */
static bool check_level(RaidLevel l, int npd, int *nspans, GError **errp)
{
    int min_width, width;

    if (npd < 1) {
        ERR(errp, "a drive group needs at least one drive");
        return false;
    }
    if (*nspans == 0) {
        *nspans = !level_spanned(l) ? 1 : l == RAID_LEVEL_10 ?
                  MAX(npd / 2, 1) : 2;
    }
    if (*nspans > (int)RAID_MAX_SPANS) {
        ERR(errp, "%d spans requested; the card allows at most %d spans "
            "per drive group", *nspans, RAID_MAX_SPANS);
        return false;
    }
    if (!level_spanned(l) && *nspans != 1) {
        ERR(errp, "%s has a single span, not %d", raid_level_name(l),
            *nspans);
        return false;
    }
    if (level_spanned(l) && *nspans < 2) {
        ERR(errp, "%s needs at least 2 spans", raid_level_name(l));
        return false;
    }
    if (npd % *nspans) {
        ERR(errp, "%d drives do not divide into %d equal spans", npd,
            *nspans);
        return false;
    }
    width = npd / *nspans;
    if (width > (int)RAID_MAX_DRIVES_PER_SPAN) {
        ERR(errp, "%d drives per span; the card allows at most %d drives "
            "per drive group span", width, RAID_MAX_DRIVES_PER_SPAN);
        return false;
    }
    switch (l) {
    case RAID_LEVEL_JBOD:
        if (npd != 1) {
            ERR(errp, "jbod takes exactly 1 drive, not %d", npd);
            return false;
        }
        return true;
    case RAID_LEVEL_0:
        min_width = 1;
        break;
    case RAID_LEVEL_1:
    case RAID_LEVEL_10:
        min_width = 2;
        break;
    case RAID_LEVEL_5:
    case RAID_LEVEL_50:
    case RAID_LEVEL_6:
    case RAID_LEVEL_60:
        min_width = 3;
        break;
    default:
        ERR(errp, "unknown RAID level %d", l);
        return false;
    }
    if (width < min_width) {
        ERR(errp, "%s needs at least %d drives per span, not %d",
            raid_level_name(l), min_width, width);
        return false;
    }
    return true;
}

static bool check_strip(uint32_t strip, GError **errp)
{
    if (strip < RAID_STRIP_MIN || strip > RAID_STRIP_MAX ||
        (strip & (strip - 1))) {
        ERR(errp, "strip size %u KiB: the card supports powers of two "
            "from 64 KiB to 1 MiB", strip / 2);
        return false;
    }
    return true;
}

static void make_vd_guid(const RaidConfig *cfg, int v, uint8_t *guid)
{
    uint32_t t = (uint32_t)(g_get_real_time() / G_USEC_PER_SEC - 315532800);
    uint32_t r = g_random_int();

    /* "LSI     " + controller type + timestamp + random, as DDF suggests. */
    memcpy(guid, "LSI     ", 8);
    for (int i = 0; i < 4; i++) {
        guid[8 + 2 * i] = cfg->ctrl_type[i] >> 8;
        guid[9 + 2 * i] = cfg->ctrl_type[i] & 0xff;
    }
    guid[16] = t >> 24;
    guid[17] = t >> 16;
    guid[18] = t >> 8;
    guid[19] = t;
    r ^= (uint32_t)v;
    guid[20] = r >> 24;
    guid[21] = r >> 16;
    guid[22] = r >> 8;
    guid[23] = r;
}

/*
 * Free extent of a drive group for a VD of @want rows of @ssec sectors
 * (0: as large as possible): the first gap between the group's VDs that
 * fits (first fit, as mdadm allocates), or the largest one.  Sets *start
 * and *rows (the rows available when it fails).
 */
static bool find_gap(const RaidConfig *cfg, int dg, uint64_t limit,
                     uint64_t ssec, uint64_t want, uint64_t *start,
                     uint64_t *rows)
{
    uint64_t at = 0, best_start = 0, best = 0;

    for (;;) {
        uint64_t next = limit, skip = 0, r;

        /* The VD that starts first at or after `at`, or covers `at`. */
        for (int v = 0; v < RAID_MAX_VDS; v++) {
            const RaidVd *vd = &cfg->vds[v];
            uint64_t end = vd->start + vd->blocks;

            if (!vd->used || vd->dg != dg || end <= at) {
                continue;
            }
            if (vd->start <= at) {
                skip = MAX(skip, end);
            } else if (vd->start < next) {
                next = vd->start;
            }
        }
        if (skip) {
            at = skip;
            continue;
        }
        r = next > at ? (next - at) / ssec : 0;
        if (want && r >= want) {
            *start = at;
            *rows = want;
            return true;
        }
        if (r > best) {
            best = r;
            best_start = at;
        }
        if (next >= limit) {
            break;
        }
        at = next;
    }
    *start = best_start;
    *rows = best;
    return !want && best > 0;
}

static bool vd_place(RaidConfig *cfg, int dg, const RaidVdSpec *spec,
                     int *out, GError **errp)
{
    RaidDriveGroup *g = &cfg->dgs[dg];
    uint32_t strip = spec->strip ? spec->strip : RAID_STRIP_DEFAULT;
    uint64_t ssec, minusable = UINT64_MAX, start = 0, rows, drows;
    int width = g->span[0].ndrives, dstrips, v;
    RaidVd *vd;

    if (spec->level == RAID_LEVEL_JBOD) {
        strip = RAID_STRIP_DEFAULT;
    }
    if (!check_strip(strip, errp)) {
        return false;
    }
    if (raid_config_count_vds(cfg) >= RAID_MAX_VDS) {
        ERR(errp, "the card supports at most %d virtual disks",
            RAID_MAX_VDS);
        return false;
    }
    if (dg_vd_count(cfg, dg) >= RAID_MAX_VDS_PER_DG) {
        ERR(errp, "drive group %d already has %d VDs; the card allows at "
            "most %d VDs per drive group", dg, RAID_MAX_VDS_PER_DG,
            RAID_MAX_VDS_PER_DG);
        return false;
    }
    ssec = strip;
    for (int s = 0; s < g->nspans; s++) {
        for (int i = 0; i < g->span[s].ndrives; i++) {
            minusable = MIN(minusable, cfg->pds[g->span[s].pd[i]].usable);
        }
    }
    dstrips = span_data_strips(spec->level, width) * g->nspans;
    drows = spec->size ?
            (spec->size + ssec * dstrips - 1) / (ssec * dstrips) : 0;
    if (!find_gap(cfg, dg, minusable, ssec, drows, &start, &rows)) {
        if (!drows) {
            ERR(errp, "drive group %d has no free space left", dg);
            return false;
        }
        ERR(errp, "VD size %" G_GUINT64_FORMAT " sectors does not fit: "
            "the largest free extent of drive group %d holds %"
            G_GUINT64_FORMAT, spec->size, dg, rows * ssec * dstrips);
        return false;
    }
    if (rows == 0) {
        ERR(errp, "drive group %d has no free space left", dg);
        return false;
    }
    for (v = 0; v < RAID_MAX_VDS && cfg->vds[v].used; v++) {
        /* first free VD slot */
    }
    vd = &cfg->vds[v];
    memset(vd, 0, sizeof(*vd));
    vd->used = true;
    make_vd_guid(cfg, v, vd->guid);
    if (spec->name) {
        g_strlcpy(vd->name, spec->name, sizeof(vd->name));
    } else {
        g_snprintf(vd->name, sizeof(vd->name), "vd%d", v);
    }
    vd->level = spec->level;
    vd->strip = strip;
    vd->dg = dg;
    vd->start = start;
    vd->blocks = rows * ssec;
    vd->size = rows * ssec * dstrips;
    vd->cache = spec->cache;
    vd->initialized = true;
    vd->consistent = true;
    vd->seq = 1;
    {
        /* The data path's geometry decides the capacity (as md does). */
        RaidLayout *l = g_new(RaidLayout, 1);
        bool ok = raid_config_vd_layout(cfg, v, l, errp);

        vd->size = l->vd_sectors;
        g_free(l);
        if (!ok) {
            vd->used = false;
            return false;
        }
    }
    g->next_free = MAX(g->next_free, vd->start + vd->blocks);
    raid_config_update_states(cfg);
    *out = v;
    return true;
}

int raid_config_create_vd(RaidConfig *cfg, const int *pds, int npd,
                          const RaidVdSpec *spec, GError **errp)
{
    int nspans = spec->nspans, dg, width, v;
    RaidDriveGroup *g;

    if (!check_level(spec->level, npd, &nspans, errp)) {
        return -1;
    }
    for (int i = 0; i < npd; i++) {
        if (pds[i] < 0 || pds[i] >= cfg->npds) {
            ERR(errp, "drive %d does not exist", pds[i]);
            return -1;
        }
        if (cfg->pds[pds[i]].state != RAID_PD_UNCONF_GOOD) {
            ERR(errp, "drive in slot %d is %s, not unconfigured-good",
                cfg->pds[pds[i]].slot,
                raid_pd_state_name(cfg->pds[pds[i]].state));
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (pds[j] == pds[i]) {
                ERR(errp, "drive in slot %d is listed twice",
                    cfg->pds[pds[i]].slot);
                return -1;
            }
        }
    }
    for (dg = 0; dg < RAID_MAX_DGS && cfg->dgs[dg].used; dg++) {
        /* first free drive group */
    }
    if (dg == RAID_MAX_DGS) {
        ERR(errp, "the card supports at most %d drive groups", RAID_MAX_DGS);
        return -1;
    }
    g = &cfg->dgs[dg];
    memset(g, 0, sizeof(*g));
    g->used = true;
    g->nspans = nspans;
    width = npd / nspans;
    for (int s = 0; s < nspans; s++) {
        g->span[s].ndrives = width;
        for (int i = 0; i < width; i++) {
            g->span[s].pd[i] = pds[s * width + i];
        }
    }
    if (!vd_place(cfg, dg, spec, &v, errp)) {
        g->used = false;
        return -1;
    }
    for (int i = 0; i < npd; i++) {
        cfg->pds[pds[i]].state = RAID_PD_ONLINE;
        cfg->pds[pds[i]].arrived_blank = false;
    }
    raid_config_update_states(cfg);
    return v;
}

int raid_config_add_vd(RaidConfig *cfg, int dg, const RaidVdSpec *spec,
                       GError **errp)
{
    int nspans, v;

    if (dg < 0 || dg >= RAID_MAX_DGS || !cfg->dgs[dg].used) {
        ERR(errp, "drive group %d does not exist", dg);
        return -1;
    }
    nspans = cfg->dgs[dg].nspans;
    if (!check_level(spec->level,
                     nspans * cfg->dgs[dg].span[0].ndrives, &nspans, errp)) {
        return -1;
    }
    if (nspans != cfg->dgs[dg].nspans) {
        ERR(errp, "drive group %d has %d spans, not %d", dg,
            cfg->dgs[dg].nspans, nspans);
        return -1;
    }
    return vd_place(cfg, dg, spec, &v, errp) ? v : -1;
}

bool raid_config_delete_vd(RaidConfig *cfg, int vd, GError **errp)
{
    int dg;

    if (vd < 0 || vd >= RAID_MAX_VDS || !cfg->vds[vd].used) {
        ERR(errp, "VD %d does not exist", vd);
        return false;
    }
    dg = cfg->vds[vd].dg;
    if (dg_vd_count(cfg, dg) == 1) {
        int src, dst;

        /* the group goes: so does a copyback of it */
        if (raid_copyback_of_dg(cfg, dg, &src, &dst)) {
            raid_copyback_abandon(cfg, dst);
        }
    }
    cfg->vds[vd].used = false;
    if (dg_vd_count(cfg, dg) == 0) {
        RaidDriveGroup *g = &cfg->dgs[dg];

        for (int s = 0; s < g->nspans; s++) {
            for (int i = 0; i < g->span[s].ndrives; i++) {
                RaidPd *p = &cfg->pds[g->span[s].pd[i]];
                p->state = p->state == RAID_PD_ONLINE ? RAID_PD_UNCONF_GOOD :
                           p->state == RAID_PD_MISSING ? RAID_PD_MISSING :
                           RAID_PD_UNCONF_BAD;
            }
        }
        for (int i = 0; i < cfg->npds; i++) {
            if (cfg->pds[i].state == RAID_PD_HOT_SPARE &&
                cfg->pds[i].spare_dg == dg) {
                cfg->pds[i].spare_dg = -1;
            }
        }
        g->used = false;
    } else if (cfg->dgs[dg].next_free == cfg->vds[vd].start +
               cfg->vds[vd].blocks) {
        cfg->dgs[dg].next_free = cfg->vds[vd].start;
    }
    return true;
}

bool raid_config_add_spare(RaidConfig *cfg, int pd, int dg, GError **errp)
{
    bool dedicated = dg >= 0;
    int limit = dedicated ? RAID_MAX_DEDICATED_SPARES :
                RAID_MAX_GLOBAL_SPARES;

    if (pd < 0 || pd >= cfg->npds) {
        ERR(errp, "drive %d does not exist", pd);
        return false;
    }
    if (dedicated && (dg >= RAID_MAX_DGS || !cfg->dgs[dg].used)) {
        ERR(errp, "drive group %d does not exist", dg);
        return false;
    }
    if (cfg->pds[pd].state != RAID_PD_UNCONF_GOOD) {
        ERR(errp, "drive in slot %d is %s; only an unconfigured-good drive "
            "can become a hot spare", cfg->pds[pd].slot,
            raid_pd_state_name(cfg->pds[pd].state));
        return false;
    }
    if (raid_config_count_spares(cfg, dedicated) >= limit) {
        ERR(errp, "the card allows at most %d %s hot spares", limit,
            dedicated ? "dedicated" : "global");
        return false;
    }
    cfg->pds[pd].state = RAID_PD_HOT_SPARE;
    cfg->pds[pd].arrived_blank = false;
    cfg->pds[pd].spare_dg = dg;
    return true;
}

bool raid_config_remove_spare(RaidConfig *cfg, int pd, GError **errp)
{
    if (pd < 0 || pd >= cfg->npds || cfg->pds[pd].state != RAID_PD_HOT_SPARE) {
        ERR(errp, "drive %d is not a hot spare", pd);
        return false;
    }
    cfg->pds[pd].spare_dg = -1;
    return raid_config_set_pd_state(cfg, pd, RAID_PD_UNCONF_GOOD, errp);
}

/* Drive group and position of a member drive, or false. */
static bool find_member(const RaidConfig *cfg, int pd, int *dg, int *s,
                        int *i)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        if (!cfg->dgs[g].used) {
            continue;
        }
        for (int sp = 0; sp < cfg->dgs[g].nspans; sp++) {
            for (int k = 0; k < cfg->dgs[g].span[sp].ndrives; k++) {
                if (cfg->dgs[g].span[sp].pd[k] == pd) {
                    *dg = g;
                    *s = sp;
                    *i = k;
                    return true;
                }
            }
        }
    }
    return false;
}

bool raid_config_fail_pd(RaidConfig *cfg, int pd, GError **errp)
{
    if (pd < 0 || pd >= cfg->npds) {
        ERR(errp, "drive %d does not exist", pd);
        return false;
    }
    if (cfg->pds[pd].state == RAID_PD_HOT_SPARE ||
        cfg->pds[pd].state == RAID_PD_UNCONF_GOOD ||
        cfg->pds[pd].state == RAID_PD_COPYBACK) {
        cfg->pds[pd].spare_dg = -1;
        return raid_config_set_pd_state(cfg, pd, RAID_PD_UNCONF_BAD, errp);
    }
    return raid_config_set_pd_state(cfg, pd, RAID_PD_OFFLINE, errp);
}

int raid_config_pick_spare(const RaidConfig *cfg, int dg)
{
    int global = -1;

    for (int i = 0; i < cfg->npds; i++) {
        const RaidPd *p = &cfg->pds[i];
        if (p->state != RAID_PD_HOT_SPARE || !p->present) {
            continue;
        }
        if (p->spare_dg == dg) {
            return i;
        }
        if (p->spare_dg < 0 && global < 0) {
            global = i;
        }
    }
    return global;
}

bool raid_config_replace_pd(RaidConfig *cfg, int oldpd, int newpd,
                            GError **errp)
{
    int dg, s, i;
    RaidPd *o, *n;
    uint64_t need = 0;

    if (oldpd < 0 || oldpd >= cfg->npds || newpd < 0 ||
        newpd >= cfg->npds) {
        ERR(errp, "drive does not exist");
        return false;
    }
    o = &cfg->pds[oldpd];
    n = &cfg->pds[newpd];
    if (!find_member(cfg, oldpd, &dg, &s, &i)) {
        ERR(errp, "drive in slot %d is not a member of any drive group",
            o->slot);
        return false;
    }
    if (o->state != RAID_PD_OFFLINE && o->state != RAID_PD_MISSING) {
        ERR(errp, "drive in slot %d is %s; only an offline or missing "
            "member can be replaced", o->slot, raid_pd_state_name(o->state));
        return false;
    }
    if (n->state != RAID_PD_UNCONF_GOOD && n->state != RAID_PD_HOT_SPARE) {
        ERR(errp, "replacement drive in slot %d is %s, not "
            "unconfigured-good or hot-spare", n->slot,
            raid_pd_state_name(n->state));
        return false;
    }
    if (n->state == RAID_PD_HOT_SPARE && n->spare_dg >= 0 &&
        n->spare_dg != dg) {
        ERR(errp, "hot spare in slot %d is dedicated to drive group %d, "
            "not %d", n->slot, n->spare_dg, dg);
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used && cfg->vds[v].dg == dg) {
            need = MAX(need, cfg->vds[v].start + cfg->vds[v].blocks);
        }
    }
    if (n->usable < need) {
        ERR(errp, "replacement drive in slot %d has %" G_GUINT64_FORMAT
            " usable sectors; the drive group needs %" G_GUINT64_FORMAT,
            n->slot, n->usable, need);
        return false;
    }
    cfg->dgs[dg].span[s].pd[i] = newpd;
    /* a spare that takes over may later get its data copied back */
    n->spare_took = n->state == RAID_PD_HOT_SPARE && o->slot >= 0;
    n->spare_took_slot = o->slot;
    n->spare_took_dg = n->spare_dg;
    n->spare_dg = -1;
    n->state = RAID_PD_REBUILD;
    n->arrived_blank = false;
    o->state = o->state == RAID_PD_MISSING ? RAID_PD_MISSING :
               RAID_PD_UNCONF_BAD;
    o->in_sync = false;
    o->returned = false;
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];
        if (vd->used && vd->dg == dg) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->job.kind = RAID_JOB_REBUILD;
            vd->job.target_ref = n->ref;
            vd->job.total_rows = raid_vd_rows(cfg, v);
            vd->seq++;
        }
    }
    raid_config_update_states(cfg);
    return true;
}

bool raid_config_rebuild_done(RaidConfig *cfg, int pd, GError **errp)
{
    int dg, s, i;

    if (pd < 0 || pd >= cfg->npds || !find_member(cfg, pd, &dg, &s, &i)) {
        ERR(errp, "drive %d is not a member of any drive group", pd);
        return false;
    }
    if (!raid_config_set_pd_state(cfg, pd, RAID_PD_ONLINE, errp)) {
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &cfg->vds[v];
        if (vd->used && vd->dg == dg && vd->job.kind == RAID_JOB_REBUILD &&
            vd->job.target_ref == cfg->pds[pd].ref) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->seq++;
        }
    }
    return true;
}

int raid_vd_members(const RaidConfig *cfg, int vd, int *pds, int max)
{
    const RaidDriveGroup *g = &cfg->dgs[cfg->vds[vd].dg];
    int n = 0;

    for (int s = 0; s < g->nspans; s++) {
        for (int i = 0; i < g->span[s].ndrives; i++) {
            if (n < max) {
                pds[n] = g->span[s].pd[i];
            }
            n++;
        }
    }
    return n;
}

bool raid_config_vd_layout(const RaidConfig *cfg, int vd, RaidLayout *l,
                           GError **errp)
{
    const RaidVd *v = &cfg->vds[vd];
    uint64_t data[RAID_MAX_MEMBERS], start[RAID_MAX_MEMBERS];
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(cfg, vd, pds, RAID_MAX_MEMBERS);
    RaidLayoutDesc d = {
        .level = v->level,
        .strip = v->strip,
        .spans = raid_vd_nspans(cfg, vd),
        .span_members = raid_vd_span_width(cfg, vd),
        .member_data_sectors = data,
        .member_start = start,
        .block_count = v->blocks,
    };

    for (int i = 0; i < n; i++) {
        /* A missing member's size is unknown: the extent must fit anyway. */
        data[i] = MAX(cfg->pds[pds[i]].usable, v->start + v->blocks);
        start[i] = v->start;
    }
    return raid_layout_init(l, &d, errp);
}

void raid_config_vd_member_states(const RaidConfig *cfg, int vd,
                                  RaidMemberState *st)
{
    const RaidVd *v = &cfg->vds[vd];
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(cfg, vd, pds, RAID_MAX_MEMBERS);

    for (int i = 0; i < n; i++) {
        const RaidPd *p = &cfg->pds[pds[i]];

        st[i].rebuilt = 0;
        if (p->state == RAID_PD_ONLINE && p->present) {
            st[i].status = RAID_MEMBER_ONLINE;
        } else if (p->state == RAID_PD_REBUILD && p->present) {
            st[i].status = RAID_MEMBER_REBUILDING;
            if (v->job.kind == RAID_JOB_REBUILD &&
                v->job.target_ref == p->ref) {
                st[i].rebuilt = v->job.next_row * v->strip;
            }
        } else {
            st[i].status = RAID_MEMBER_MISSING;
        }
    }
}

int raid_vd_span_width(const RaidConfig *cfg, int vd)
{
    return cfg->dgs[cfg->vds[vd].dg].span[0].ndrives;
}

int raid_vd_nspans(const RaidConfig *cfg, int vd)
{
    return cfg->dgs[cfg->vds[vd].dg].nspans;
}

uint64_t raid_vd_rows(const RaidConfig *cfg, int vd)
{
    return cfg->vds[vd].blocks / cfg->vds[vd].strip;
}

bool raid_config_import(RaidConfig *cfg,
                        const uint8_t ctrl_guid[RAID_GUID_LEN], GError **errp)
{
    if (!cfg->foreign) {
        ERR(errp, "the configuration is not foreign; nothing to import");
        return false;
    }
    memcpy(cfg->ctrl_guid, ctrl_guid, RAID_GUID_LEN);
    for (int i = 0; i < cfg->npds; i++) {
        if (cfg->pds[i].state == RAID_PD_FOREIGN) {
            cfg->pds[i].state = cfg->pds[i].foreign_state;
        }
    }
    cfg->foreign = false;
    raid_config_update_states(cfg);
    return true;
}
