/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's views of foreign drives:
 * FOREIGN_SHOW (a list entry per foreign drive) and FOREIGN_CONFIG (one
 * foreign configuration, the drive groups, VDs and spares its drives'
 * metadata describe).  Read-only; a foreign drive is read, never written.
 *
 * Two kinds of foreign drive: the array's whole configuration is another
 * controller's (read at start, not imported: its PDs are a->cfg's), or a
 * drive outside the configuration holds another array's metadata (a
 * drive moved in at run time); its own metadata is read again for a
 * view.  Configurations are numbered by their controller GUIDs in the
 * order their first drive comes in bay order, as MFI's FOREIGN_SCAN
 * counts them.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "raid/ddf.h"
#include "mgmt-ops.h"
#include "trace.h"

/* The foreign drives in bay order, each with its own metadata if read. */
typedef struct ForeignSet {
    GPtrArray *drives;
    DdfDriveRead *reads;        /* [i].meta: NULL for a->cfg's own PDs */
} ForeignSet;

static void foreign_set_init(MgmtCtx *c, ForeignSet *fs, bool read)
{
    g_autoptr(GPtrArray) drives = mgmt_drives(c);

    fs->drives = g_ptr_array_new();
    for (guint i = 0; i < drives->len; i++) {
        if (mgmt_pd_state(c->a, drives->pdata[i]) == MGMT_PD_FOREIGN) {
            g_ptr_array_add(fs->drives, drives->pdata[i]);
        }
    }
    fs->reads = g_new0(DdfDriveRead, fs->drives->len + 1);
    for (guint i = 0; read && i < fs->drives->len; i++) {
        MRDrive *d = fs->drives->pdata[i];
        DdfDriveIO io = mr_ddf_io(d);

        if (mr_array_pd_of(c->a, d) < 0 &&
            !ddf_drive_read(&io, &fs->reads[i], NULL)) {
            fs->reads[i].meta = NULL;
        }
    }
}

static void foreign_set_clear(ForeignSet *fs)
{
    for (guint i = 0; i < fs->drives->len; i++) {
        ddf_drive_read_clear(&fs->reads[i]);
    }
    g_free(fs->reads);
    g_ptr_array_unref(fs->drives);
}

/* The controller GUID drive @i's configuration names, NULL: unreadable. */
static const uint8_t *foreign_guid(MgmtCtx *c, ForeignSet *fs, guint i)
{
    if (mr_array_pd_of(c->a, fs->drives->pdata[i]) >= 0) {
        return c->a->cfg->ctrl_guid;
    }
    return fs->reads[i].meta ? fs->reads[i].meta->ctrl_guid : NULL;
}

/* ---- FOREIGN_SHOW ---- */

static void mgmt_fill_foreign(MgmtCtx *c, uint32_t i, void *entry,
                              void *opaque)
{
    ForeignSet *fs = opaque;
    MRDrive *d = fs->drives->pdata[i];
    MgmtForeignEntry *e = entry;
    RaidConfig *cfg = c->a->cfg;
    int pd = mr_array_pd_of(c->a, d);
    const uint8_t *guid = foreign_guid(c, fs, i);

    e->slot = cpu_to_le16(d->slot);
    e->foreign_state = pd >= 0 ? cfg->pds[pd].foreign_state : MGMT_PD_FOREIGN;
    if (guid) {
        memcpy(e->ctrl_guid, guid, sizeof(e->ctrl_guid));
    }
    if (pd >= 0 && cfg->foreign) {
        e->nvds = cpu_to_le16(raid_config_count_vds(cfg));
    }
}

uint8_t mgmt_op_foreign_show(MgmtCtx *c)
{
    ForeignSet fs;
    uint8_t st;

    foreign_set_init(c, &fs, true);
    st = mgmt_list(c, fs.drives->len, sizeof(MgmtForeignEntry),
                   mgmt_fill_foreign, &fs);
    foreign_set_clear(&fs);
    return st;
}

/* ---- FOREIGN_CONFIG ---- */

/*
 * Configuration @want of @fs as a RaidConfig of its own (free it with
 * raid_config_free()), its PDs' slots the bays their drives
 * are in (-1: not here) and their states the ones their metadata holds
 * (a member not here: missing), its VDs' states following from those;
 * *@ndrives its drives here.  NULL: no such configuration, or its
 * metadata cannot be put together (*@st says which).
 */
static RaidConfig *foreign_config(MgmtCtx *c, ForeignSet *fs, uint32_t want,
                                  int *ndrives, uint8_t *st)
{
    g_autoptr(GByteArray) guids = g_byte_array_new();
    g_autofree DdfMeta **metas = g_new0(DdfMeta *, fs->drives->len + 1);
    g_autofree uint64_t *sectors = g_new0(uint64_t, fs->drives->len + 1);
    g_autofree int *pd_of = g_new0(int, fs->drives->len + 1);
    g_autofree MRDrive **mine = g_new0(MRDrive *, fs->drives->len + 1);
    RaidConfig *cfg = NULL;
    bool own_pds = false;
    int n = 0;
    GError *err = NULL;

    for (guint i = 0; i < fs->drives->len; i++) {
        const uint8_t *guid = foreign_guid(c, fs, i);
        guint k;

        if (!guid) {
            continue;
        }
        for (k = 0; k < guids->len / RAID_GUID_LEN &&
             memcmp(guids->data + k * RAID_GUID_LEN, guid, RAID_GUID_LEN);
             k++) {
            continue;
        }
        if (k == guids->len / RAID_GUID_LEN) {
            g_byte_array_append(guids, guid, RAID_GUID_LEN);
        }
        if (k != want) {
            continue;
        }
        mine[n] = fs->drives->pdata[i];
        own_pds |= mr_array_pd_of(c->a, mine[n]) >= 0;
        metas[n] = fs->reads[i].meta;
        sectors[n] = mine[n]->unit.num_blocks * mine[n]->unit.block_size /
                     RAID_SECTOR_SIZE;
        n++;
    }
    *ndrives = n;
    if (!n) {
        *st = MGMT_STAT_NO_FOREIGN;
        return NULL;
    }
    if (own_pds) {
        /* the array's own (foreign) configuration */
        cfg = raid_config_dup(c->a->cfg);
        for (int k = 0; k < cfg->npds; k++) {
            MRDrive *d = c->a->pd_drive[k];

            cfg->pds[k].slot = d ? (int)d->slot : -1;
        }
    } else {
        cfg = ddf_config_from_meta(metas, sectors, n, NULL, pd_of, &err);
        if (!cfg) {
            trace_megaraid_mgmt_foreign_unusable(want, err->message);
            g_error_free(err);
            *st = MGMT_STAT_IO_ERROR;
            return NULL;
        }
        for (int k = 0; k < cfg->npds; k++) {
            cfg->pds[k].slot = -1;
        }
        for (int i = 0; i < n; i++) {
            if (pd_of[i] >= 0) {
                cfg->pds[pd_of[i]].slot = mine[i]->slot;
            }
        }
    }
    for (int k = 0; k < cfg->npds; k++) {
        RaidPd *p = &cfg->pds[k];

        if (p->state == RAID_PD_FOREIGN) {
            p->state = p->foreign_state;
        }
        p->present = p->slot >= 0;
        if (!p->present && raid_config_pd_dg(cfg, k) >= 0) {
            p->state = RAID_PD_MISSING;
        }
    }
    /* the VDs as they would be with these drives */
    raid_config_update_states(cfg);
    return cfg;
}

uint8_t mgmt_op_foreign_config(MgmtCtx *c)
{
    MgmtForeignConfig *h = (MgmtForeignConfig *)c->out;
    RaidConfig *cfg;
    ForeignSet fs;
    uint32_t ndgs = 0, nvds = 0, nspares = 0, off;
    int ndrives;
    uint8_t st = MGMT_STAT_OK;

    foreign_set_init(c, &fs, true);
    cfg = foreign_config(c, &fs, c->mbox[0], &ndrives, &st);
    foreign_set_clear(&fs);
    if (!cfg) {
        return mgmt_refuse(c, st, MGMT_OFF_MBOX(0), c->mbox[0]);
    }
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        ndgs += cfg->dgs[g].used;
    }
    nvds = raid_config_count_vds(cfg);
    for (int k = 0; k < cfg->npds; k++) {
        nspares += cfg->pds[k].state == RAID_PD_HOT_SPARE;
    }
    st = mgmt_need(c, sizeof(*h) + ndgs * sizeof(MgmtDgEntry) +
                   nvds * sizeof(MgmtVdInfo) +
                   nspares * sizeof(MgmtForeignSpare));
    if (st) {
        raid_config_free(cfg);
        return st;
    }
    memset(h, 0, sizeof(*h));
    memcpy(h->ctrl_guid, cfg->ctrl_guid, sizeof(h->ctrl_guid));
    h->ndgs = cpu_to_le16(ndgs);
    h->nvds = cpu_to_le16(nvds);
    h->nspares = cpu_to_le16(nspares);
    h->ndrives = cpu_to_le16(ndrives);
    off = sizeof(*h);
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        if (cfg->dgs[g].used) {
            memset(c->out + off, 0, sizeof(MgmtDgEntry));
            mgmt_fill_dg_entry(cfg, g, (MgmtDgEntry *)(c->out + off));
            off += sizeof(MgmtDgEntry);
        }
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MgmtVdInfo *vi = (MgmtVdInfo *)(c->out + off);

        if (!cfg->vds[v].used) {
            continue;
        }
        memset(vi, 0, sizeof(*vi));
        mgmt_fill_vd_conf(cfg, v, &vi->e);
        memcpy(vi->guid, cfg->vds[v].guid, sizeof(vi->guid));
        vi->start_sector = cpu_to_le64(cfg->vds[v].start);
        vi->member_sectors = cpu_to_le64(cfg->vds[v].blocks);
        vi->job.job = MGMT_JOB_NONE;
        off += sizeof(*vi);
    }
    for (int k = 0; k < cfg->npds; k++) {
        MgmtForeignSpare *sp = (MgmtForeignSpare *)(c->out + off);
        const RaidPd *p = &cfg->pds[k];

        if (p->state != RAID_PD_HOT_SPARE) {
            continue;
        }
        memset(sp, 0, sizeof(*sp));
        sp->slot = cpu_to_le16(p->slot >= 0 ? p->slot : MGMT_NONE16);
        sp->dg = cpu_to_le16(p->spare_dg >= 0 ? p->spare_dg : MGMT_NONE16);
        off += sizeof(*sp);
    }
    c->out_len = off;
    raid_config_free(cfg);
    trace_megaraid_mgmt_foreign_config(c->mbox[0], ndgs, nvds, nspares,
                                       ndrives);
    return MGMT_STAT_OK;
}
