/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's views of the configuration:
 * drive, drive group and VD lists and details, background job status.
 * Read-only; lists come in pages (mgmt_list).  Also the
 * translations from the RAID core's and the array's types to the
 * protocol's numbers, which the changing operations share.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "mgmt-ops.h"
#include "array-config.h"

/* ---- lookups and translations ---- */

static int mgmt_drive_cmp(gconstpointer pa, gconstpointer pb)
{
    const MRDrive *a = *(MRDrive *const *)pa;
    const MRDrive *b = *(MRDrive *const *)pb;
    uint64_t ka = (uint64_t)a->enclosure << 32 | a->slot;
    uint64_t kb = (uint64_t)b->enclosure << 32 | b->slot;

    return ka < kb ? -1 : ka > kb;
}

GPtrArray *mgmt_drives(MgmtCtx *c)
{
    GPtrArray *drives = g_ptr_array_new();
    BusChild *kid;

    QTAILQ_FOREACH(kid, &c->m->bus->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (!d->meta_pending) {         /* (shown once it has its place) */
            g_ptr_array_add(drives, d);
        }
    }
    g_ptr_array_sort(drives, mgmt_drive_cmp);
    return drives;
}

MRDrive *mgmt_drive(MgmtCtx *c, uint32_t encl_slot)
{
    BusChild *kid;

    QTAILQ_FOREACH(kid, &c->m->bus->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (d->slot == (encl_slot & 0xffff) &&
            d->enclosure == encl_slot >> 16 && !d->meta_pending) {
            return d;
        }
    }
    return NULL;
}

MRVirtualDisk *mgmt_vd(MgmtCtx *c, uint32_t idx)
{
    MRVirtualDisk *vd = idx < RAID_MAX_VDS ? c->a->vds[idx] : NULL;

    /* (going, or an import's VD not yet shown: not found) */
    return vd && !vd->deleting && !c->a->adopting ? vd : NULL;
}

uint8_t mgmt_pd_state(MRArray *a, MRDrive *d)
{
    int pd = mr_array_pd_of(a, d);

    if (pd < 0) {
        /* hidden and outside the configuration: another array's drive */
        return d->in_array ? MGMT_PD_FOREIGN : MGMT_PD_UNCONF_GOOD;
    }
    if (a->cfg->foreign) {
        return MGMT_PD_FOREIGN;
    }
    if (a->cfg->pds[pd].state == RAID_PD_COPYBACK) {
        return MGMT_PD_COPYBACK;
    }
    /* RaidPdState and MGMT_PD_* share their numbers 0..7 */
    return a->cfg->pds[pd].state;
}

uint8_t mgmt_level(RaidLevel l)
{
    static const uint8_t levels[] = {
        [RAID_LEVEL_0] = MGMT_LEVEL_0,
        [RAID_LEVEL_1] = MGMT_LEVEL_1,
        [RAID_LEVEL_5] = MGMT_LEVEL_5,
        [RAID_LEVEL_6] = MGMT_LEVEL_6,
        [RAID_LEVEL_10] = MGMT_LEVEL_10,
        [RAID_LEVEL_50] = MGMT_LEVEL_50,
        [RAID_LEVEL_60] = MGMT_LEVEL_60,
        [RAID_LEVEL_JBOD] = 0xff,
    };

    return (unsigned)l < ARRAY_SIZE(levels) ? levels[l] : 0xff;
}

uint8_t mgmt_job_kind(const RaidVd *v)
{
    switch (v->job.kind) {
    case RAID_JOB_REBUILD:
        return MGMT_JOB_REBUILD;
    case RAID_JOB_CHECK:
        /* the repairing check of a never initialized VD is its BGI */
        return v->job.repair && !v->initialized ? MGMT_JOB_INIT
                                                : MGMT_JOB_CC;
    case RAID_JOB_INIT:
        return MGMT_JOB_INIT;
    case RAID_JOB_COPYBACK:
        return MGMT_JOB_COPYBACK;
    default:
        return MGMT_JOB_NONE;
    }
}

void mgmt_fill_job(MRVirtualDisk *vd, MgmtJobStatus *js)
{
    RaidVd *v = mr_vd_cfg(vd);
    RaidConfig *cfg = vd->array->cfg;
    MRJobStats s;
    int pd;

    mr_jobs_stats(vd, &s);
    memset(js, 0, sizeof(*js));
    js->vd = cpu_to_le16(vd->idx);
    js->job = mgmt_job_kind(v);
    js->target_slot = cpu_to_le16(MGMT_NONE16);
    js->source_slot = cpu_to_le16(MGMT_NONE16);
    js->eta_s = cpu_to_le32(MGMT_NONE32);
    if (js->job == MGMT_JOB_NONE) {
        return;
    }
    js->repair = s.repair;
    js->running = s.running;
    js->paused = vd->job_paused;
    js->percent = s.percent;
    if (v->job.kind == RAID_JOB_REBUILD ||
        v->job.kind == RAID_JOB_COPYBACK) {
        pd = raid_config_find_pd_ref(cfg, v->job.target_ref);
        if (pd >= 0 && cfg->pds[pd].slot >= 0) {
            js->target_slot = cpu_to_le16(cfg->pds[pd].slot);
        }
    }
    if (v->job.kind == RAID_JOB_COPYBACK) {
        pd = raid_config_find_pd_ref(cfg, v->job.source_ref);
        if (pd >= 0 && cfg->pds[pd].slot >= 0) {
            js->source_slot = cpu_to_le16(cfg->pds[pd].slot);
        }
    }
    if (s.eta_s >= 0 && s.running) {
        js->eta_s = cpu_to_le32(MIN(s.eta_s, (int64_t)UINT32_MAX - 1));
    }
    js->next_row = cpu_to_le64(s.next_row);
    js->total_rows = cpu_to_le64(s.total_rows);
    js->mismatches = cpu_to_le64(s.mismatches);
    js->bytes_per_s = cpu_to_le64(s.bytes_per_s);
}

void mgmt_fill_pd_entry(MRArray *a, MRDrive *d, MgmtPdEntry *e)
{
    int pd = mr_array_pd_of(a, d);
    int dg, span, pos;

    memset(e, 0, sizeof(*e));
    e->enclosure = cpu_to_le16(d->enclosure);
    e->slot = cpu_to_le16(d->slot);
    e->state = mgmt_pd_state(a, d);
    e->interface = d->unit.iface == MR_IF_NVME ? MGMT_IF_NVME :
                   d->unit.iface == MR_IF_SAS ? MGMT_IF_SAS : MGMT_IF_SATA;
    e->media = d->unit.media == MR_MEDIA_HDD ? MGMT_MEDIA_HDD : MGMT_MEDIA_SSD;
    e->dg = cpu_to_le16(MGMT_NONE16);
    e->spare_dg = cpu_to_le16(MGMT_NONE16);
    e->block_size = cpu_to_le32(d->unit.block_size);
    e->blocks = cpu_to_le64(d->unit.num_blocks);
    /* The firmware's device id: every drive has one, exposed or not. */
    e->dev_handle = cpu_to_le16(d->unit.host_id);
    if (!d->in_array) {
        e->flags |= MGMT_PD_F_EXPOSED;
    }
    if (d->locate) {
        e->flags |= MGMT_PD_F_LOCATE;
    }
    if (pd < 0 || a->cfg->foreign) {
        return;
    }
    if (mr_array_pd_position(a, pd, &dg, &span, &pos)) {
        e->dg = cpu_to_le16(dg);
    }
    if (a->cfg->pds[pd].state == RAID_PD_HOT_SPARE) {
        if (a->cfg->pds[pd].spare_dg >= 0) {
            e->spare_dg = cpu_to_le16(a->cfg->pds[pd].spare_dg);
            e->flags |= MGMT_PD_F_DEDICATED_SPARE;
        } else {
            e->flags |= MGMT_PD_F_GLOBAL_SPARE;
        }
    }
}

void mgmt_fill_vd_conf(const RaidConfig *cfg, int idx, MgmtVdEntry *e)
{
    const RaidVd *v = &cfg->vds[idx];

    memset(e, 0, sizeof(*e));
    e->vd = cpu_to_le16(idx);
    e->dg = cpu_to_le16(v->dg);
    e->level = mgmt_level(v->level);
    e->state = v->state;        /* RaidVdState and MGMT_VD_* agree */
    e->cache = (v->cache & RAID_CACHE_WRITE_BACK ? MGMT_CACHE_WRITE_BACK : 0) |
               (v->cache & RAID_CACHE_WB_NO_BATTERY ? MGMT_CACHE_ALWAYS_WB
                                                    : 0) |
               (v->cache & RAID_CACHE_READ_AHEAD ? MGMT_CACHE_READ_AHEAD : 0);
    e->write_policy = MGMT_WP_WRITE_THROUGH;
    e->blocks = cpu_to_le64(v->size);
    e->strip_kib = cpu_to_le32(v->strip / 2);
    e->nspans = raid_vd_nspans(cfg, idx);
    e->span_width = raid_vd_span_width(cfg, idx);
    e->job = mgmt_job_kind(v);
    e->job_percent = e->job ? raid_job_percent(&v->job) : 0;
    memcpy(e->name, v->name, MIN(strlen(v->name), sizeof(e->name)));
    e->dev_handle = cpu_to_le16(MGMT_NONE16);
    e->flags = (v->initialized ? MGMT_VD_F_INITIALIZED : 0) |
               (v->consistent ? MGMT_VD_F_CONSISTENT : 0);
}

void mgmt_fill_vd_entry(MRVirtualDisk *vd, MgmtVdEntry *e)
{
    mgmt_fill_vd_conf(vd->array->cfg, vd->idx, e);
    switch (mr_array_write_policy(vd)) {
    case MR_WP_WRITE_BACK:
        e->write_policy = MGMT_WP_WRITE_BACK;
        break;
    case MR_WP_ALWAYS_WRITE_BACK:
        e->write_policy = MGMT_WP_ALWAYS_WB;
        break;
    default:
        e->write_policy = MGMT_WP_WRITE_THROUGH;
        break;
    }
    e->dev_handle = cpu_to_le16(vd->unit.host_id);
}

uint8_t mgmt_list(MgmtCtx *c, uint32_t total, uint16_t entry_len,
                  void (*fill)(MgmtCtx *c, uint32_t index, void *entry,
                               void *opaque),
                  void *opaque)
{
    MgmtListHeader *h = (MgmtListHeader *)c->out;
    uint32_t first = c->mbox[0], max = c->mbox[1];
    uint32_t fit, count = 0;
    uint8_t st = mgmt_need(c, sizeof(*h));

    if (st) {
        return st;
    }
    fit = (c->out_cap - sizeof(*h)) / entry_len;
    if (first < total) {
        count = MIN(total - first, fit);
        if (max) {
            count = MIN(count, max);
        }
    }
    if (first < total && !count) {
        return mgmt_refuse(c, MGMT_STAT_RESP_TOO_SMALL, MGMT_ERR_OFFSET_NONE,
                           sizeof(MgmtReply) + sizeof(*h) + entry_len);
    }
    memset(h, 0, sizeof(*h));
    h->total = cpu_to_le32(total);
    h->first = cpu_to_le32(first);
    h->count = cpu_to_le32(count);
    h->next = cpu_to_le32(first < total && first + count < total ?
                          first + count : MGMT_NONE32);
    h->entry_len = cpu_to_le16(entry_len);
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *e = c->out + sizeof(*h) + (size_t)i * entry_len;

        memset(e, 0, entry_len);
        fill(c, first + i, e, opaque);
    }
    c->out_len = sizeof(*h) + (size_t)count * entry_len;
    return MGMT_STAT_OK;
}

/* ---- drives ---- */

static void mgmt_fill_pd(MgmtCtx *c, uint32_t i, void *entry, void *opaque)
{
    GPtrArray *drives = opaque;

    mgmt_fill_pd_entry(c->a, drives->pdata[i], entry);
}

uint8_t mgmt_op_pd_list(MgmtCtx *c)
{
    g_autoptr(GPtrArray) drives = mgmt_drives(c);

    return mgmt_list(c, drives->len, sizeof(MgmtPdEntry), mgmt_fill_pd,
                     drives);
}

uint8_t mgmt_op_pd_info(MgmtCtx *c)
{
    MRArray *a = c->a;
    MgmtPdInfo *pi = (MgmtPdInfo *)c->out;
    MRDrive *d = mgmt_drive(c, c->mbox[0]);
    uint8_t st = mgmt_need(c, sizeof(*pi));
    int pd, dg, span, pos;

    if (!d) {
        return mgmt_refuse(c, MGMT_STAT_DEVICE_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    if (st) {
        return st;
    }
    memset(pi, 0, sizeof(*pi));
    mgmt_fill_pd_entry(a, d, &pi->e);
    mgmt_strpad(pi->vendor, sizeof(pi->vendor), d->unit.vendor);
    mgmt_strpad(pi->model, sizeof(pi->model), d->unit.model);
    mgmt_strpad(pi->serial, sizeof(pi->serial), d->unit.serial);
    mgmt_strpad(pi->firmware, sizeof(pi->firmware), d->unit.firmware);
    pi->span = cpu_to_le16(MGMT_NONE16);
    pi->span_pos = cpu_to_le16(MGMT_NONE16);
    pi->media_errors = cpu_to_le32(d->n_media_errors);
    pi->read_errors = cpu_to_le32(d->unit.ts.read_errors);
    pi->write_errors = cpu_to_le32(d->unit.ts.write_errors);
    pi->rebuild_eta_s = cpu_to_le32(MGMT_NONE32);
    pi->media_error_count = cpu_to_le32(d->health_media_errors);
    pi->other_errors = cpu_to_le32(d->health_other_errors);
    pi->predictive_failures = cpu_to_le32(d->health_pred_failures);
    pi->smart_alert = d->health_smart_alert;
    pi->temperature_c = d->health_temp_c;
    pi->wwn = cpu_to_le64(d->unit.wwn);
    c->out_len = sizeof(*pi);
    pd = mr_array_pd_of(a, d);
    if (pd < 0) {
        return MGMT_STAT_OK;
    }
    memcpy(pi->guid, a->cfg->pds[pd].guid, sizeof(pi->guid));
    pi->usable_sectors = cpu_to_le64(a->cfg->pds[pd].usable);
    if (!a->cfg->foreign && mr_array_pd_position(a, pd, &dg, &span, &pos)) {
        pi->span = cpu_to_le16(span);
        pi->span_pos = cpu_to_le16(pos);
    }
    for (int v = 0; v < RAID_MAX_VDS && !a->cfg->foreign; v++) {
        MRVirtualDisk *vd = a->vds[v];
        MgmtJobStatus js;

        if (!vd || mr_vd_cfg(vd)->job.kind != RAID_JOB_REBUILD ||
            mr_vd_cfg(vd)->job.target_ref != a->cfg->pds[pd].ref) {
            continue;
        }
        mgmt_fill_job(vd, &js);
        pi->rebuild_active = 1;
        pi->rebuild_percent = js.percent;
        pi->rebuild_running = js.running;
        pi->rebuild_eta_s = js.eta_s;
        break;
    }
    return MGMT_STAT_OK;
}

/* ---- drive groups ---- */

/* Index of the @n-th used drive group, or -1. */
static int mgmt_nth_dg(RaidConfig *cfg, uint32_t n)
{
    for (int g = 0; g < RAID_MAX_DGS; g++) {
        if (cfg->dgs[g].used && n-- == 0) {
            return g;
        }
    }
    return -1;
}

void mgmt_fill_dg_entry(const RaidConfig *cfg, int g, MgmtDgEntry *e)
{
    const RaidDriveGroup *grp = &cfg->dgs[g];
    uint64_t usable = UINT64_MAX;
    uint16_t spares = 0;
    int k = 0;

    e->dg = cpu_to_le16(g);
    e->nspans = grp->nspans;
    e->span_width = grp->nspans ? grp->span[0].ndrives : 0;
    for (int s = 0; s < grp->nspans; s++) {
        for (int m = 0; m < grp->span[s].ndrives; m++, k++) {
            const RaidPd *p = &cfg->pds[grp->span[s].pd[m]];

            usable = MIN(usable, p->usable);
            if (k < MGMT_DG_MAX_MEMBERS) {
                e->slots[k] = cpu_to_le16(p->slot >= 0 ? p->slot
                                                       : MGMT_NONE16);
            }
        }
    }
    e->ndrives = k;
    e->nlisted = MIN(k, MGMT_DG_MAX_MEMBERS);
    if (usable == UINT64_MAX) {
        usable = 0;
    }
    e->member_sectors = cpu_to_le64(usable);
    e->free_sectors = cpu_to_le64(usable > grp->next_free ?
                                  usable - grp->next_free : 0);
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (cfg->vds[v].used && cfg->vds[v].dg == g) {
            if (!e->nvds) {
                e->level = mgmt_level(cfg->vds[v].level);
            }
            e->nvds++;
        }
    }
    for (int p = 0; p < cfg->npds; p++) {
        spares += cfg->pds[p].state == RAID_PD_HOT_SPARE &&
                  cfg->pds[p].spare_dg == g;
    }
    e->dedicated_spares = cpu_to_le16(spares);
}

static void mgmt_fill_dg(MgmtCtx *c, uint32_t i, void *entry, void *opaque)
{
    int g = mgmt_nth_dg(c->a->cfg, i);

    assert(g >= 0);
    mgmt_fill_dg_entry(c->a->cfg, g, entry);
}

uint8_t mgmt_op_dg_list(MgmtCtx *c)
{
    uint32_t n = 0;

    for (int g = 0; g < RAID_MAX_DGS && !c->a->cfg->foreign; g++) {
        n += c->a->cfg->dgs[g].used;
    }
    return mgmt_list(c, n, sizeof(MgmtDgEntry), mgmt_fill_dg, NULL);
}

/* ---- virtual disks ---- */

static MRVirtualDisk *mgmt_nth_vd(MRArray *a, uint32_t n)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v] && n-- == 0) {
            return a->vds[v];
        }
    }
    return NULL;
}

static void mgmt_fill_vd(MgmtCtx *c, uint32_t i, void *entry, void *opaque)
{
    mgmt_fill_vd_entry(mgmt_nth_vd(c->a, i), entry);
}

uint8_t mgmt_op_vd_list(MgmtCtx *c)
{
    uint32_t n = 0;

    for (int v = 0; v < RAID_MAX_VDS; v++) {
        n += c->a->vds[v] != NULL;
    }
    return mgmt_list(c, n, sizeof(MgmtVdEntry), mgmt_fill_vd, NULL);
}

uint8_t mgmt_op_vd_info(MgmtCtx *c)
{
    MRVirtualDisk *vd = mgmt_vd(c, c->mbox[0]);
    RaidConfig *cfg = c->a->cfg;
    MgmtVdInfo *vi = (MgmtVdInfo *)c->out;
    MgmtVdMember *mem = (MgmtVdMember *)(c->out + sizeof(*vi));
    int pds[RAID_MAX_MEMBERS];
    int n, width;
    uint8_t st;

    if (!vd) {
        return mgmt_refuse(c, MGMT_STAT_VD_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    n = raid_vd_members(cfg, vd->idx, pds, RAID_MAX_MEMBERS);
    st = mgmt_need(c, sizeof(*vi) + n * sizeof(*mem));
    if (st) {
        return st;
    }
    width = MAX(raid_vd_span_width(cfg, vd->idx), 1);
    memset(vi, 0, sizeof(*vi));
    mgmt_fill_vd_entry(vd, &vi->e);
    memcpy(vi->guid, mr_vd_cfg(vd)->guid, sizeof(vi->guid));
    vi->start_sector = cpu_to_le64(mr_vd_cfg(vd)->start);
    vi->member_sectors = cpu_to_le64(mr_vd_cfg(vd)->blocks);
    vi->logical_block = cpu_to_le32(vd->unit.block_size);
    vi->nmembers = cpu_to_le16(n);
    mgmt_fill_job(vd, &vi->job);
    for (int i = 0; i < n; i++) {
        const RaidPd *p = &cfg->pds[pds[i]];

        mem[i].slot = cpu_to_le16(p->slot >= 0 ? p->slot : MGMT_NONE16);
        mem[i].span = i / width;
        mem[i].state = c->a->pd_drive[pds[i]] ? p->state : MGMT_PD_MISSING;
    }
    c->out_len = sizeof(*vi) + n * sizeof(*mem);
    return MGMT_STAT_OK;
}

uint8_t mgmt_op_job_status(MgmtCtx *c)
{
    MRVirtualDisk *vd = mgmt_vd(c, c->mbox[0]);
    uint8_t st;

    if (!vd) {
        return mgmt_refuse(c, MGMT_STAT_VD_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    st = mgmt_need(c, sizeof(MgmtJobStatus));
    if (st) {
        return st;
    }
    mgmt_fill_job(vd, (MgmtJobStatus *)c->out);
    c->out_len = sizeof(MgmtJobStatus);
    return MGMT_STAT_OK;
}
