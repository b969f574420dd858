/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: mapping between the configuration model
 * (RaidConfig) and per-drive DDF metadata (DdfMeta).
 *
 * Owns where the DDF structure sits on a drive, how drive and VD states
 * and RAID levels are written as DDF codes, and how a configuration is
 * rebuilt from the copies found on a set of drives (newest wins, foreign
 * controllers are flagged).
 */
#include "raid/ddf.h"
#include "ddf-layout.h"

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/*
 * Inside the reserve at the end of the drive (raid_reserve_sectors()):
 * anchor in the last sector, the primary copy just below it, the
 * secondary below that (each copy in a 64 KiB-aligned slot), and the
 * rest of the reserve, from its start up to the secondary, is workspace.
 */
void ddf_placement(uint64_t sectors, uint32_t copy_sectors, DdfPlacement *p)
{
    uint64_t slot = (copy_sectors + 127) / 128 * 128;

    p->anchor = sectors - 1;
    p->primary = p->anchor - slot;
    p->secondary = p->primary - slot;
    p->ws_lba = sectors - raid_reserve_sectors(sectors);
    p->ws_len = p->secondary > p->ws_lba ? p->secondary - p->ws_lba : 0;
}

void ddf_job_encode(const RaidJobCursor *c, uint8_t vendor[32])
{
    memset(vendor, 0xff, 32);
    if (c->kind == RAID_JOB_NONE) {
        return;
    }
    put32(vendor, DDF_JOB_MAGIC);
    vendor[4] = c->kind;
    vendor[5] = c->repair;
    if (c->kind == RAID_JOB_COPYBACK) {
        /* the drive group the source is a spare of again, 0xffff global */
        vendor[6] = c->spare_dg < 0 ? 0xff : c->spare_dg & 0xff;
        vendor[7] = c->spare_dg < 0 ? 0xff : c->spare_dg >> 8;
    }
    put32(vendor + 8, c->target_ref);
    put64(vendor + 12, c->next_row);
    put64(vendor + 20, c->total_rows);
    /* a copyback has no mismatches: the member it copies in their place */
    put32(vendor + 28, c->kind == RAID_JOB_COPYBACK ? c->source_ref :
          (uint32_t)MIN(c->mismatches, UINT32_MAX));
}

bool ddf_job_decode(const uint8_t vendor[32], RaidJobCursor *c)
{
    memset(c, 0, sizeof(*c));
    if (get32(vendor) != DDF_JOB_MAGIC || vendor[4] < RAID_JOB_REBUILD ||
        vendor[4] > RAID_JOB_COPYBACK) {
        return false;
    }
    c->kind = vendor[4];
    c->repair = vendor[5] & 1;
    c->target_ref = get32(vendor + 8);
    c->next_row = get64(vendor + 12);
    c->total_rows = get64(vendor + 20);
    c->mismatches = get32(vendor + 28);
    if (c->kind == RAID_JOB_COPYBACK) {
        uint16_t dg = vendor[6] | vendor[7] << 8;

        c->source_ref = get32(vendor + 28);
        c->mismatches = 0;
        c->spare_dg = dg >= RAID_MAX_DGS ? -1 : dg;
    }
    if (c->next_row > c->total_rows) {
        c->next_row = c->total_rows;
    }
    return true;
}

static bool level_spanned(RaidLevel l)
{
    return l == RAID_LEVEL_10 || l == RAID_LEVEL_50 || l == RAID_LEVEL_60;
}

static bool level_from_codes(const DdfVdConf *c, RaidLevel *l, GError **errp)
{
    bool spanned = c->sec_count > 1;

    if (spanned && c->srl != 0x00 && c->srl != 0x03) {
        ERR(errp, "secondary RAID level 0x%02x is not supported", c->srl);
        return false;
    }
    switch (c->prl) {
    case 0x00:
        *l = RAID_LEVEL_0;
        if (spanned) {
            break;
        }
        return true;
    case 0x01:
        *l = spanned ? RAID_LEVEL_10 : RAID_LEVEL_1;
        return true;
    case 0x05:
        if (c->rlq != 0x03) {
            break;
        }
        *l = spanned ? RAID_LEVEL_50 : RAID_LEVEL_5;
        return true;
    case 0x06:
        if (c->rlq != 0x03) {
            break;
        }
        *l = spanned ? RAID_LEVEL_60 : RAID_LEVEL_6;
        return true;
    case 0x0f:
        *l = RAID_LEVEL_JBOD;
        if (spanned || c->prim_count != 1) {
            break;
        }
        return true;
    }
    ERR(errp, "DDF RAID level 0x%02x qualifier 0x%02x%s is not supported "
        "(RAID 0, 1, 5/6 with rotating parity N continuation, 10, 50, 60, "
        "JBOD)", c->prl, c->rlq, spanned ? " with a secondary level" : "");
    return false;
}

static void pd_codes(const RaidConfig *cfg, int pd, bool member,
                     uint16_t *type, uint16_t *state)
{
    const RaidPd *p = &cfg->pds[pd];
    RaidPdState s = p->state == RAID_PD_FOREIGN ? p->foreign_state : p->state;

    *type = DDF_PDT_FORCED_GUID;
    *state = DDF_PDS_ONLINE;
    switch (s) {
    case RAID_PD_UNCONF_GOOD:
        break;
    case RAID_PD_UNCONF_BAD:
        *state = DDF_PDS_FAILED;
        break;
    case RAID_PD_ONLINE:
        *type |= DDF_PDT_ACTIVE;
        break;
    case RAID_PD_OFFLINE:
        *type |= DDF_PDT_ACTIVE;
        *state = DDF_PDS_FAILED;
        break;
    case RAID_PD_REBUILD:
        *type |= DDF_PDT_ACTIVE;
        *state = DDF_PDS_ONLINE | DDF_PDS_REBUILDING;
        break;
    case RAID_PD_HOT_SPARE:
        *type |= p->spare_dg >= 0 ? DDF_PDT_SPARE : DDF_PDT_GLOBAL_SPARE;
        break;
    case RAID_PD_COPYBACK:
        /* not a member yet: unconfigured good; the VDs' cursors name it */
        break;
    case RAID_PD_MISSING:
        /* in sync: its data is current (Online|Missing); else stale */
        *type |= member ? DDF_PDT_ACTIVE : 0;
        *state = (member && p->in_sync ? DDF_PDS_ONLINE : DDF_PDS_FAILED) |
                 DDF_PDS_MISSING;
        break;
    default:
        break;
    }
    if (p->state == RAID_PD_FOREIGN) {
        *type |= DDF_PDT_FOREIGN;
    }
}

/* The state of a PD entry; *@in_sync: a missing member still current. */
static RaidPdState pd_state_from_codes(uint16_t type, uint16_t state,
                                       bool *in_sync)
{
    *in_sync = false;
    if (type & (DDF_PDT_GLOBAL_SPARE | DDF_PDT_SPARE) &&
        !(state & DDF_PDS_FAILED)) {
        return RAID_PD_HOT_SPARE;
    }
    if (!(type & DDF_PDT_ACTIVE)) {
        if (state & DDF_PDS_MISSING) {
            /* a replaced member that was missing: no drive group */
            return RAID_PD_MISSING;
        }
        return state & DDF_PDS_FAILED ? RAID_PD_UNCONF_BAD :
               RAID_PD_UNCONF_GOOD;
    }
    if (state & DDF_PDS_MISSING) {
        *in_sync = (state & (DDF_PDS_ONLINE | DDF_PDS_FAILED)) ==
                   DDF_PDS_ONLINE;
        return RAID_PD_MISSING;
    }
    if (state & DDF_PDS_FAILED) {
        return RAID_PD_OFFLINE;
    }
    if (state & DDF_PDS_REBUILDING) {
        return RAID_PD_REBUILD;
    }
    return state & DDF_PDS_ONLINE ? RAID_PD_ONLINE : RAID_PD_OFFLINE;
}

/* Drive group and span of a PD, or false. */
static bool pd_span(const RaidConfig *cfg, int pd, int *dg, int *span)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        if (!cfg->dgs[g].used) {
            continue;
        }
        for (int s = 0; s < cfg->dgs[g].nspans; s++) {
            for (int i = 0; i < cfg->dgs[g].span[s].ndrives; i++) {
                if (cfg->dgs[g].span[s].pd[i] == pd) {
                    *dg = g;
                    *span = s;
                    return true;
                }
            }
        }
    }
    return false;
}

static uint8_t vd_state_code(const RaidVd *vd)
{
    static const uint8_t codes[] = {
        [RAID_VD_OPTIMAL] = DDF_VDS_OPTIMAL,
        [RAID_VD_PARTIALLY_DEGRADED] = DDF_VDS_PART_OPTIMAL,
        [RAID_VD_DEGRADED] = DDF_VDS_DEGRADED,
        [RAID_VD_OFFLINE] = DDF_VDS_FAILED,
    };

    return codes[vd->state] | (vd->consistent ? 0 : DDF_VDS_INCONSISTENT);
}

static uint8_t log2_strip(uint32_t strip)
{
    uint8_t n = 0;

    while ((1u << n) < strip) {
        n++;
    }
    return n;
}

DdfMeta *ddf_meta_from_config(const RaidConfig *cfg, int pd, uint32_t seq,
                              uint32_t timestamp)
{
    DdfMeta *m = ddf_meta_new(DDF_OUR_MAX_PD, DDF_OUR_MAX_VD,
                              DDF_OUR_MAX_PART, DDF_OUR_MPPE);
    const RaidPd *me = &cfg->pds[pd];
    DdfPlacement pl;
    int dg = -1, span = -1;
    bool member = pd_span(cfg, pd, &dg, &span);

    memcpy(m->guid, cfg->header_guid, DDF_GUID_LEN);
    m->seq = seq;
    m->timestamp = timestamp;
    ddf_placement(me->sectors, ddf_copy_sectors(m), &pl);
    m->primary_lba = me->ddf_primary ? me->ddf_primary : pl.primary;
    m->secondary_lba = me->ddf_primary ? me->ddf_secondary : pl.secondary;
    m->ws_lba = me->ddf_primary ? me->ddf_ws_lba : pl.ws_lba;
    m->ws_len = me->ddf_primary ? me->ddf_ws_len : pl.ws_len;

    memcpy(m->ctrl_guid, cfg->ctrl_guid, DDF_GUID_LEN);
    memcpy(m->ctrl_type, cfg->ctrl_type, sizeof(m->ctrl_type));
    g_strlcpy(m->product, cfg->product, sizeof(m->product));

    for (int i = 0; i < cfg->npds && i < m->max_pd; i++) {
        DdfPdEntry *e = &m->pd[i];
        int g, s;

        memcpy(e->guid, cfg->pds[i].guid, DDF_GUID_LEN);
        e->ref = cfg->pds[i].ref;
        pd_codes(cfg, i, pd_span(cfg, i, &g, &s), &e->type, &e->state);
        e->configured_size = cfg->pds[i].usable;
    }
    for (int v = 0; v < RAID_MAX_VDS && v < m->max_vd; v++) {
        const RaidVd *vd = &cfg->vds[v];
        DdfVdEntry *e = &m->vd[v];

        if (!vd->used) {
            continue;
        }
        memcpy(e->guid, vd->guid, DDF_GUID_LEN);
        e->number = v;
        e->state = vd_state_code(vd);
        e->init_state = vd->initialized ? DDF_INIT_FULL :
                        vd->job.kind == RAID_JOB_INIT ? DDF_INIT_QUICK :
                        DDF_INIT_NONE;
        memset(e->name, 0, sizeof(e->name));
        memcpy(e->name, vd->name, strnlen(vd->name, 16));
    }
    for (int v = 0; member && v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];
        const RaidDriveGroup *g = &cfg->dgs[dg];
        const RaidSpan *sp = &g->span[span];
        DdfVdConf *c;

        if (!vd->used || vd->dg != dg) {
            continue;
        }
        c = ddf_meta_add_conf(m);
        memcpy(c->guid, vd->guid, DDF_GUID_LEN);
        c->timestamp = timestamp;
        c->seq = vd->seq;
        c->prim_count = sp->ndrives;
        c->stripe_size = log2_strip(vd->strip);
        /* The data path's geometry owns the level codes. */
        raid_level_ddf_codes(vd->level, sp->ndrives, &c->prl, &c->rlq,
                             &c->srl);
        c->sec_count = level_spanned(vd->level) ? g->nspans : 1;
        c->sec_seq = level_spanned(vd->level) ? span : 0;
        c->block_count = vd->blocks;
        c->vd_size = vd->size;
        c->cache = vd->cache;
        c->bg_rate = 0x80;
        ddf_job_encode(&vd->job, c->vendor);
        for (int i = 0; i < sp->ndrives && i < m->mppe; i++) {
            c->refs[i] = cfg->pds[sp->pd[i]].ref;
            c->lbas[i] = vd->start;
        }
    }
    if (me->state == RAID_PD_HOT_SPARE) {
        m->has_spare = true;
        m->spare.type = me->spare_dg >= 0 ? 1 : 0;
        for (int v = 0; me->spare_dg >= 0 && v < RAID_MAX_VDS; v++) {
            if (cfg->vds[v].used && cfg->vds[v].dg == me->spare_dg &&
                m->spare.n < DDF_OUR_MAX_VD) {
                memcpy(m->spare.e[m->spare.n].guid, cfg->vds[v].guid,
                       DDF_GUID_LEN);
                m->spare.e[m->spare.n++].sec = 0;
            }
        }
    }
    memcpy(m->pdd_guid, me->guid, DDF_GUID_LEN);
    m->pdd_ref = me->ref;
    m->pdd_forced_ref = 1;
    m->pdd_forced_guid = 1;
    return m;
}

static bool guid_unused(const uint8_t *g)
{
    for (int i = 0; i < DDF_GUID_LEN; i++) {
        if (g[i] != 0xff) {
            return false;
        }
    }
    return true;
}

/* Newest global sections: highest seq, an open copy counting one less. */
static int64_t meta_age(const DdfMeta *m)
{
    return (int64_t)m->seq - (m->open_flag ? 1 : 0);
}

/* The newest record of BVD @sec of VD @guid over all drives. */
static const DdfVdConf *find_bvd(DdfMeta *const *metas, int n,
                                 const uint8_t *guid, int sec)
{
    const DdfVdConf *best = NULL;

    for (int i = 0; i < n; i++) {
        if (!metas[i]) {
            continue;
        }
        for (guint k = 0; k < metas[i]->conf->len; k++) {
            const DdfVdConf *c = &g_array_index(metas[i]->conf, DdfVdConf, k);
            bool same_bvd = sec < 0 ||
                            (c->sec_count > 1 ? c->sec_seq == sec : sec == 0);

            if (!memcmp(c->guid, guid, DDF_GUID_LEN) && same_bvd &&
                (!best || c->seq > best->seq)) {
                best = c;
            }
        }
    }
    return best;
}

static int find_or_make_dg(RaidConfig *cfg, const int *pds, int nspans,
                           int width)
{
    int free_dg = -1;

    for (int g = 0; g < RAID_MAX_DGS; g++) {
        RaidDriveGroup *dg = &cfg->dgs[g];
        bool same = dg->used && dg->nspans == nspans &&
                    dg->span[0].ndrives == width;

        if (!dg->used) {
            if (free_dg < 0) {
                free_dg = g;
            }
            continue;
        }
        for (int s = 0; same && s < nspans; s++) {
            for (int i = 0; same && i < width; i++) {
                same = dg->span[s].pd[i] == pds[s * width + i];
            }
        }
        if (same) {
            return g;
        }
    }
    if (free_dg >= 0) {
        RaidDriveGroup *dg = &cfg->dgs[free_dg];

        memset(dg, 0, sizeof(*dg));
        dg->used = true;
        dg->nspans = nspans;
        for (int s = 0; s < nspans; s++) {
            dg->span[s].ndrives = width;
            for (int i = 0; i < width; i++) {
                dg->span[s].pd[i] = pds[s * width + i];
            }
        }
    }
    return free_dg;
}

static bool load_vd(RaidConfig *cfg, DdfMeta *const *metas, int n,
                    const DdfVdEntry *e, int v, GError **errp)
{
    const DdfVdConf *first = find_bvd(metas, n, e->guid, 0);
    int pds[RAID_MAX_MEMBERS], nspans, width, dg;
    RaidLevel level;
    RaidVd *vd = &cfg->vds[v];
    uint64_t start;

    if (!first) {
        first = find_bvd(metas, n, e->guid, -1);
    }
    if (!first) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "VD %d '%s': no drive holds its configuration record", v,
                    e->name);
        return false;
    }
    if (!level_from_codes(first, &level, errp)) {
        g_prefix_error(errp, "VD %d '%s': ", v, e->name);
        return false;
    }
    nspans = level_spanned(level) ? first->sec_count : 1;
    width = first->prim_count;
    if (nspans < 1 || nspans > (int)RAID_MAX_SPANS || width < 1 ||
        width > (int)RAID_MAX_SPAN_MEMBERS) {
        ERR(errp, "VD %d '%s': %d spans of %d drives exceed the card's "
            "limits (%u spans, %u drives per span)", v, e->name, nspans,
            width, RAID_MAX_SPANS, RAID_MAX_SPAN_MEMBERS);
        return false;
    }
    start = first->lbas[0];
    for (int s = 0; s < nspans; s++) {
        const DdfVdConf *c = nspans > 1 ? find_bvd(metas, n, e->guid, s) :
                             first;

        if (!c) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                        "VD %d '%s': no drive holds the record of span %d",
                        v, e->name, s);
            return false;
        }
        if (c->prim_count != width || c->prl != first->prl ||
            c->block_count != first->block_count ||
            c->stripe_size != first->stripe_size) {
            ERR(errp, "VD %d '%s': span %d differs from span 0", v, e->name,
                s);
            return false;
        }
        for (int i = 0; i < width; i++) {
            int pd;

            if (i >= c->nelem) {
                ERR(errp, "VD %d '%s': %d members but records hold %u",
                    v, e->name, width, c->nelem);
                return false;
            }
            pd = raid_config_find_pd_ref(cfg, c->refs[i]);
            if (pd < 0) {
                ERR(errp, "VD %d '%s': member %d refers to unknown drive "
                    "reference %08x", v, e->name, s * width + i, c->refs[i]);
                return false;
            }
            if (c->lbas[i] != start) {
                ERR(errp, "VD %d '%s': members start at different LBAs "
                    "(%" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT "), which "
                    "this controller does not support", v, e->name, start,
                    c->lbas[i]);
                return false;
            }
            pds[s * width + i] = pd;
        }
    }
    for (int i = 0; i < nspans * width; i++) {
        for (int j = 0; j < i; j++) {
            if (pds[i] == pds[j]) {
                ERR(errp, "VD %d '%s': a drive is listed twice", v, e->name);
                return false;
            }
        }
    }
    dg = find_or_make_dg(cfg, pds, nspans, width);
    if (dg < 0) {
        ERR(errp, "VD %d '%s': too many drive groups", v, e->name);
        return false;
    }
    memset(vd, 0, sizeof(*vd));
    vd->used = true;
    memcpy(vd->guid, e->guid, DDF_GUID_LEN);
    g_strlcpy(vd->name, e->name, sizeof(vd->name));
    vd->level = level;
    vd->strip = first->stripe_size >= 7 && first->stripe_size <= 11 ?
                1u << first->stripe_size : RAID_STRIP_DEFAULT;
    if (first->stripe_size < 7 || first->stripe_size > 11) {
        if (level != RAID_LEVEL_1 && level != RAID_LEVEL_JBOD) {
            ERR(errp, "VD %d '%s': strip of 512 << %u bytes; the card "
                "supports 64 KiB to 1 MiB", v, e->name, first->stripe_size);
            return false;
        }
    }
    vd->dg = dg;
    vd->start = start;
    vd->blocks = first->block_count;
    vd->size = first->vd_size;
    vd->cache = first->cache;
    vd->initialized = (e->init_state & 3) == DDF_INIT_FULL;
    vd->consistent = !(e->state & DDF_VDS_INCONSISTENT);
    vd->seq = first->seq;
    ddf_job_decode(first->vendor, &vd->job);
    cfg->dgs[dg].next_free = MAX(cfg->dgs[dg].next_free, start + vd->blocks);
    for (int i = 0; i < nspans * width; i++) {
        RaidPd *p = &cfg->pds[pds[i]];
        if (p->state == RAID_PD_UNCONF_GOOD || p->state == RAID_PD_HOT_SPARE) {
            p->state = RAID_PD_OFFLINE;
        }
        if (p->usable < start + vd->blocks) {
            p->usable = start + vd->blocks;
        }
    }
    return true;
}

/* The entry of the PD whose GUID is @guid in @m's table, or NULL. */
static const DdfPdEntry *meta_pd_entry(const DdfMeta *m, const uint8_t *guid)
{
    for (int i = 0; i < m->max_pd; i++) {
        if (!memcmp(m->pd[i].guid, guid, DDF_GUID_LEN)) {
            return &m->pd[i];
        }
    }
    return NULL;
}

/* In @m's table, is the PD @guid an active member online (not failed)? */
static bool meta_says_online(const DdfMeta *m, const uint8_t *guid)
{
    const DdfPdEntry *e = meta_pd_entry(m, guid);
    bool in_sync;

    return e && pd_state_from_codes(e->type, e->state, &in_sync) ==
                RAID_PD_ONLINE;
}

/*
 * Present member @k: its data is stale when a copy on another member
 * that was online when it wrote it names @k failed or missing and stale
 * (writes went on without @k: e.g. two starts, each without the other's
 * drives), or when @k's own copy does not show it online.  A MISSING
 * member that is present again comes back (raid_config_member_back):
 * online when in sync, else OFFLINE to be rebuilt onto itself.
 */
static void returning_member(RaidConfig *cfg, DdfMeta *const *metas, int n,
                             const int *pd_of, int k)
{
    RaidPd *p = &cfg->pds[k];
    bool stale = false;

    for (int i = 0; i < n; i++) {
        const DdfPdEntry *e;
        bool in_sync;
        RaidPdState s;

        if (!metas[i] || pd_of[i] < 0) {
            continue;
        }
        if (pd_of[i] == k) {
            /* (a copy it missed while it was missing is no news) */
            stale |= p->state == RAID_PD_MISSING &&
                     !meta_says_online(metas[i], p->guid);
            continue;
        }
        e = meta_pd_entry(metas[i], p->guid);
        if (!e || !meta_says_online(metas[i], metas[i]->pdd_guid)) {
            continue;
        }
        s = pd_state_from_codes(e->type, e->state, &in_sync);
        if (s == RAID_PD_OFFLINE || (s == RAID_PD_MISSING && !in_sync)) {
            stale = true;
        }
    }
    if (p->state == RAID_PD_ONLINE && stale) {
        /* the newest copy is the stale drive's own: its peers know better */
        p->state = RAID_PD_MISSING;
    }
    if (p->state == RAID_PD_MISSING) {
        p->in_sync &= !stale;
        raid_config_member_back(cfg, k);
    }
}

/* The configuration whose global sections are @best's. */
static RaidConfig *config_from_best(DdfMeta *const *metas,
                                    const uint64_t *sectors, int n,
                                    const DdfMeta *best,
                                    const uint8_t *ctrl_guid,
                                    int *out_pd_of_drive, GError **errp)
{
    RaidConfig *cfg;

    for (int i = 0; i < n; i++) {
        out_pd_of_drive[i] = -1;
    }
    cfg = raid_config_new(best->ctrl_guid);
    memcpy(cfg->header_guid, best->guid, DDF_GUID_LEN);
    memcpy(cfg->ctrl_type, best->ctrl_type, sizeof(cfg->ctrl_type));
    g_strlcpy(cfg->product, best->product, sizeof(cfg->product));
    cfg->seq = best->seq;

    for (int i = 0; i < best->max_pd; i++) {
        const DdfPdEntry *e = &best->pd[i];
        RaidPd *p;

        if (guid_unused(e->guid) || e->ref == 0xffffffffu) {
            continue;
        }
        if (cfg->npds >= RAID_MAX_PDS) {
            ERR(errp, "more than %d physical drives in the metadata",
                RAID_MAX_PDS);
            goto fail;
        }
        if (raid_config_find_pd_ref(cfg, e->ref) >= 0) {
            ERR(errp, "physical drive reference %08x is used twice", e->ref);
            goto fail;
        }
        p = &cfg->pds[cfg->npds++];
        memcpy(p->guid, e->guid, DDF_GUID_LEN);
        p->ref = e->ref;
        p->slot = -1;
        p->usable = e->configured_size;
        p->sectors = e->configured_size;
        p->state = pd_state_from_codes(e->type, e->state, &p->in_sync);
        p->spare_dg = -1;
    }
    for (int i = 0; i < n; i++) {
        if (!metas[i]) {
            continue;
        }
        for (int k = 0; k < cfg->npds; k++) {
            RaidPd *p = &cfg->pds[k];
            if (!memcmp(p->guid, metas[i]->pdd_guid, DDF_GUID_LEN) &&
                !p->present) {
                p->present = true;
                p->slot = i;
                p->sectors = sectors[i];
                p->ddf_primary = metas[i]->primary_lba;
                p->ddf_secondary = metas[i]->secondary_lba;
                p->ddf_ws_lba = metas[i]->ws_lba;
                p->ddf_ws_len = metas[i]->ws_len;
                out_pd_of_drive[i] = k;
            }
        }
    }
    for (int v = 0; v < best->max_vd && v < RAID_MAX_VDS; v++) {
        if (guid_unused(best->vd[v].guid)) {
            continue;
        }
        if (!load_vd(cfg, metas, n, &best->vd[v], v, errp)) {
            goto fail;
        }
    }
    for (int k = 0; k < cfg->npds; k++) {
        RaidPd *p = &cfg->pds[k];
        int g, s;
        bool member = pd_span(cfg, k, &g, &s);

        if (!member && (p->state == RAID_PD_ONLINE ||
                        p->state == RAID_PD_REBUILD)) {
            p->state = RAID_PD_UNCONF_GOOD;
        } else if (!member && p->state == RAID_PD_OFFLINE) {
            p->state = RAID_PD_UNCONF_BAD;
        }
        if (member && !p->present && p->state != RAID_PD_MISSING) {
            /* current if it was online: nothing written without it yet */
            p->in_sync = p->state == RAID_PD_ONLINE;
            p->state = RAID_PD_MISSING;
        }
        if (!member && p->state == RAID_PD_MISSING) {
            /* a replaced member: back, it is a drive like any other */
            p->in_sync = false;
            if (p->present) {
                p->state = RAID_PD_UNCONF_GOOD;
                p->returned = true;     /* its own copy says otherwise */
            }
        }
        if (member && p->present) {
            returning_member(cfg, metas, n, out_pd_of_drive, k);
        }
        if (p->state == RAID_PD_HOT_SPARE && out_pd_of_drive) {
            for (int i = 0; i < n; i++) {
                const DdfMeta *m = metas[i];
                if (out_pd_of_drive[i] != k || !m->has_spare ||
                    !(m->spare.type & 1)) {
                    continue;
                }
                for (int j = 0; j < m->spare.n && p->spare_dg < 0; j++) {
                    for (int v = 0; v < RAID_MAX_VDS; v++) {
                        if (cfg->vds[v].used &&
                            !memcmp(cfg->vds[v].guid, m->spare.e[j].guid,
                                    DDF_GUID_LEN)) {
                            p->spare_dg = cfg->vds[v].dg;
                            break;
                        }
                    }
                }
            }
        }
    }
    raid_copyback_restore(cfg);
    raid_config_update_states(cfg);
    if (!ctrl_guid || memcmp(ctrl_guid, cfg->ctrl_guid, DDF_GUID_LEN)) {
        cfg->foreign = true;
        for (int k = 0; k < cfg->npds; k++) {
            cfg->pds[k].foreign_state = cfg->pds[k].state;
            cfg->pds[k].state = RAID_PD_FOREIGN;
        }
    }
    return cfg;

fail:
    raid_config_free(cfg);
    return NULL;
}

/*
 * The newest global sections win.  A writer that stopped part way
 * through a change (a crash between its drives) may leave the newest
 * global sections naming a VD whose configuration records did not reach
 * any drive yet (a VD being created, a span's records): that
 * configuration was never complete, and the configuration of the pass
 * before it (one sequence number lower: the drives the interrupted pass
 * had not reached yet) is used instead.  Any other problem, or no such
 * pass, refuses the drives.  The
 * sequence number is the highest found, so that the next write is newer
 * than every copy on the drives.
 */
RaidConfig *ddf_config_from_meta(DdfMeta *const *metas, const uint64_t *sectors,
                                 int n, const uint8_t *ctrl_guid,
                                 int *out_pd_of_drive, GError **errp)
{
    const DdfMeta *first = NULL;
    int first_i = -1;
    int64_t below = INT64_MAX;
    uint32_t max_seq = 0;
    GError *newest_err = NULL;

    for (int i = 0; i < n; i++) {
        out_pd_of_drive[i] = -1;
        if (!metas[i]) {
            continue;
        }
        if (first && memcmp(first->guid, metas[i]->guid, DDF_GUID_LEN)) {
            ERR(errp, "drives %d and %d belong to different DDF containers "
                "(header GUIDs differ)", first_i, i);
            return NULL;
        }
        if (!first) {
            first = metas[i];
            first_i = i;
        }
        max_seq = MAX(max_seq, metas[i]->seq);
    }
    if (!first) {
        ERR(errp, "no drive holds valid DDF metadata");
        return NULL;
    }
    for (;;) {
        const DdfMeta *best = NULL;
        GError *err = NULL;
        RaidConfig *cfg;

        for (int i = 0; i < n; i++) {
            if (metas[i] && meta_age(metas[i]) < below &&
                (!best || meta_age(metas[i]) > meta_age(best) ||
                 (meta_age(metas[i]) == meta_age(best) && best->open_flag &&
                  !metas[i]->open_flag))) {
                /* of equal ages, a closed copy (complete) wins */
                best = metas[i];
            }
        }
        if (!best || (newest_err && meta_age(best) != below - 1)) {
            /* only the pass just before the interrupted one stands in */
            g_propagate_error(errp, newest_err);
            return NULL;
        }
        cfg = config_from_best(metas, sectors, n, best, ctrl_guid,
                               out_pd_of_drive, &err);
        if (cfg) {
            cfg->seq = MAX(cfg->seq, max_seq);
            g_clear_error(&newest_err);
            return cfg;
        }
        if (newest_err ||
            !g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
            /* the newest's problem is the one to tell */
            if (newest_err) {
                g_error_free(err);
            } else {
                newest_err = err;
            }
            g_propagate_error(errp, newest_err);
            return NULL;
        }
        newest_err = err;
        below = meta_age(best);
    }
}
