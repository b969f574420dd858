/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 logical drives (the array's VDs as the
 * megaraid_sas driver sees them).  Owns the VD target ids, the LD DCMDs
 * (target id list, LD list, LD info), the LD counts of the controller
 * info, the lookup of a VD's logical unit for an LD I/O frame (an offline
 * VD answers LD OFFLINE), and megaraid-9500's MRArrayOps: a VD created or
 * changing state and a drive becoming hidden (member, spare) or visible
 * are turned into the MFI events the driver rescans on (LD CREATED, LD
 * STATE CHANGE, LD OFFLINE, PD REMOVED / PD INSERTED).
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "mr9500.h"
#include "trace.h"

/* MFI LD states (LD list, LD info, LD state events) */
#define MR_LD_OFFLINE           0
#define MR_LD_PARTIALLY_DEGRADED 1
#define MR_LD_DEGRADED          2
#define MR_LD_OPTIMAL           3

#define MR_LD_QUERY_ALL         0
#define MR_LD_QUERY_EXPOSED     1

/* LD info (MR_DCMD_LD_GET_INFO), 384 bytes */
#define LDI_TARGET_ID           0x00
#define LDI_SEQ                 0x02
#define LDI_NAME                0x04
#define LDI_DEFAULT_CACHE       0x14
#define LDI_ACCESS              0x15
#define LDI_DISK_CACHE          0x16
#define LDI_CURRENT_CACHE       0x17
#define LDI_PRL                 0x20
#define LDI_RLQ                 0x21
#define LDI_SRL                 0x22
#define LDI_STRIPE              0x23
#define LDI_NUM_DRIVES          0x24
#define LDI_SPAN_DEPTH          0x25
#define LDI_STATE               0x26
#define LDI_INIT_STATE          0x27
#define LDI_CONSISTENT          0x28
#define LDI_SPANS               0x40
#define LDI_SPAN_SIZE           24
#define LDI_SIZE                0x100
#define LDI_VPD83               0x130

#define LD_ACCESS_RW            0
#define LD_DISK_CACHE_DEFAULT   0

#define EVT_ARG_LD_STATE        8
#define EVT_CLASS_INFO          0
#define EVT_CLASS_CRITICAL      2

#define MR_EVT_LD_STATE_CHANGE  0x0051
#define MR_EVT_LD_CREATED       0x008A
#define MR_EVT_LD_DELETED       0x008B
#define MR_EVT_LD_OFFLINE       0x00FC

static const uint8_t mr9500_ld_state_of[] = {
    [RAID_VD_OPTIMAL] = MR_LD_OPTIMAL,
    [RAID_VD_PARTIALLY_DEGRADED] = MR_LD_PARTIALLY_DEGRADED,
    [RAID_VD_DEGRADED] = MR_LD_DEGRADED,
    [RAID_VD_OFFLINE] = MR_LD_OFFLINE,
};

static const char *const mr9500_ld_state_name[] = {
    [MR_LD_OFFLINE] = "OFFLINE",
    [MR_LD_PARTIALLY_DEGRADED] = "PARTIALLY DEGRADED",
    [MR_LD_DEGRADED] = "DEGRADED",
    [MR_LD_OPTIMAL] = "OPTIMAL",
};

MRVirtualDisk *mr9500_ld_vd(MR9500State *s, uint32_t tgt)
{
    MRVirtualDisk *vd = tgt < RAID_MAX_VDS ? mr_core_vd(&s->core, tgt)
                                           : NULL;

    return vd && mr_vd_unit(vd)->host_id == tgt ? vd : NULL;
}

static uint8_t mr9500_ld_state(MRVirtualDisk *vd)
{
    return mr9500_ld_state_of[mr_vd_conf(vd)->state];
}

MRUnit *mr9500_ld_unit(MR9500State *s, uint32_t tgt, uint8_t *status)
{
    MRVirtualDisk *vd = mr9500_ld_vd(s, tgt);

    if (!vd) {
        *status = MFI_STAT_DEVICE_NOT_FOUND;
        return NULL;
    }
    if (mr9500_ld_state(vd) == MR_LD_OFFLINE) {
        *status = MFI_STAT_LD_OFFLINE;
        return NULL;
    }
    return mr_vd_unit(vd);
}

/* ---- DCMDs ---- */

/* LD_LIST_QUERY: the target ids (@type: all, or exposed to the host). */
static uint32_t mr9500_ld_tgtid_list(MR9500State *s, uint8_t type,
                                     uint8_t *buf)
{
    uint32_t n = 0;

    for (uint32_t t = 0; t < RAID_MAX_VDS && n < 256; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);

        if (!vd || (type == MR_LD_QUERY_EXPOSED &&
                    mr9500_ld_state(vd) == MR_LD_OFFLINE)) {
            continue;
        }
        buf[12 + n++] = t;
    }
    stl_le_p(buf, MR_LD_TGTID_LIST_SIZE);
    stl_le_p(buf + 4, n);
    return MR_LD_TGTID_LIST_SIZE;
}

/* LD_GET_LIST: every VD with its state and size (sectors). */
static uint32_t mr9500_ld_list(MR9500State *s, uint8_t *buf)
{
    uint32_t n = 0;

    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);
        uint8_t *e = buf + 8 + n * 16;

        if (!vd) {
            continue;
        }
        e[0] = t;
        stw_le_p(e + 2, mr_vd_conf(vd)->seq);
        e[4] = mr9500_ld_state(vd);
        stq_le_p(e + 8, mr_vd_conf(vd)->size);
        n++;
    }
    stl_le_p(buf, n);
    return MR_LD_LIST_SIZE;
}

/* What an LD's configuration says of its layout, as MFI describes it. */
typedef struct LdGeometry {
    uint8_t prl;                /* primary RAID level: 0, 1, 5, 6 */
    bool spanned;               /* RAID 10, 50, 60 */
    uint8_t strip_shift;        /* 2^n sectors */
    uint8_t span_members;
    uint8_t spans;
    uint8_t state;              /* MR_LD_* */
    bool consistent;
    uint64_t start, blocks;     /* member extent */
    uint16_t dg;
    uint64_t size;              /* LD sectors */
} LdGeometry;

static void mr9500_ld_fill_geometry(const LdGeometry *g, uint8_t *li)
{
    li[LDI_PRL] = g->prl;
    /* RAID 5/6: rotating parity, data restarting after it */
    li[LDI_RLQ] = g->prl >= 5 ? 3 : 0;
    /* spanned levels: striping across the spans (RAID 10, 50, 60) */
    li[LDI_SRL] = g->spanned ? 3 : 0;
    li[LDI_STRIPE] = g->strip_shift;
    li[LDI_NUM_DRIVES] = g->span_members;
    li[LDI_SPAN_DEPTH] = g->spans;
    li[LDI_STATE] = g->state;
    li[LDI_INIT_STATE] = 0;
    li[LDI_CONSISTENT] = g->consistent;
    for (uint32_t sp = 0; sp < g->spans && sp < 8; sp++) {
        uint8_t *e = li + LDI_SPANS + sp * LDI_SPAN_SIZE;

        stq_le_p(e, g->start);
        stq_le_p(e + 8, g->blocks);
        stw_le_p(e + 16, g->dg * 8 + sp);      /* array reference */
    }
    stq_le_p(li + LDI_SIZE, g->size);
}

uint8_t mr9500_ld_info(MR9500State *s, uint32_t tgt, uint8_t *li)
{
    static const uint8_t prl[] = {
        [RAID_LEVEL_0] = 0, [RAID_LEVEL_1] = 1, [RAID_LEVEL_5] = 5,
        [RAID_LEVEL_6] = 6, [RAID_LEVEL_10] = 1, [RAID_LEVEL_50] = 5,
        [RAID_LEVEL_60] = 6, [RAID_LEVEL_JBOD] = 0,
    };
    MRVirtualDisk *vd = mr9500_ld_vd(s, tgt);
    const RaidLayout *l;
    const RaidVd *cfg;
    LdGeometry g;
    uint8_t cache;

    if (!vd) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    cfg = mr_vd_conf(vd);
    l = mr_vd_layout(vd);
    li[LDI_TARGET_ID] = tgt;
    stw_le_p(li + LDI_SEQ, cfg->seq);
    strpadcpy((char *)li + LDI_NAME, 16, cfg->name, 0);
    /* the DDF policy byte and MFI's share their bits, caching allowed too */
    cache = cfg->cache & (RAID_CACHE_WRITE_BACK | RAID_CACHE_ADAPTIVE_WB |
                          RAID_CACHE_READ_AHEAD | RAID_CACHE_ADAPTIVE_RA |
                          RAID_CACHE_WB_NO_BATTERY |
                          RAID_CACHE_WRITE_ALLOWED | RAID_CACHE_READ_ALLOWED);
    li[LDI_DEFAULT_CACHE] = cache;
    li[LDI_CURRENT_CACHE] = cache & ~RAID_CACHE_WRITE_BACK;
    if (mr_vd_write_policy(vd) != MR_WP_WRITE_THROUGH) {
        li[LDI_CURRENT_CACHE] |= RAID_CACHE_WRITE_BACK;
    }
    li[LDI_ACCESS] = LD_ACCESS_RW;
    li[LDI_DISK_CACHE] = LD_DISK_CACHE_DEFAULT;
    g = (LdGeometry) {
        .prl = prl[l->level],
        .spanned = l->level == RAID_LEVEL_10 || l->level == RAID_LEVEL_50 ||
                   l->level == RAID_LEVEL_60,
        .strip_shift = l->strip_shift,
        .span_members = l->span_members,
        .spans = l->spans,
        .state = mr9500_ld_state(vd),
        .consistent = cfg->consistent,
        .start = cfg->start,
        .blocks = cfg->blocks,
        .dg = cfg->dg,
        .size = cfg->size,
    };
    mr9500_ld_fill_geometry(&g, li);
    mr9500_ld_progress(vd, li);
    /* VPD page 0x83 with the VD's NAA identifier */
    li[LDI_VPD83 + 1] = 0x83;
    li[LDI_VPD83 + 3] = 12;
    li[LDI_VPD83 + 4] = 0x01;                   /* binary */
    li[LDI_VPD83 + 5] = 0x03;                   /* NAA, LU */
    li[LDI_VPD83 + 7] = 8;
    stq_be_p(li + LDI_VPD83 + 8, mr_vd_unit(vd)->wwn);
    return MFI_STAT_OK;
}

void mr9500_ld_conf_of(const MgmtVdInfo *vi, uint8_t tgt, uint8_t *li)
{
    const MgmtVdEntry *e = &vi->e;
    uint32_t strip = le32_to_cpu(e->strip_kib) * 2;
    uint8_t cache = RAID_CACHE_WRITE_ALLOWED | RAID_CACHE_READ_ALLOWED;
    LdGeometry g = {
        .prl = e->level == MGMT_LEVEL_10 ? 1 : e->level % 10 == 0
               ? e->level / 10 : e->level,
        .spanned = e->level >= MGMT_LEVEL_10,
        .strip_shift = strip ? ctz32(strip) : 0,
        .span_members = e->span_width,
        .spans = e->nspans,
        /* MGMT_VD_* and RaidVdState agree */
        .state = e->state < ARRAY_SIZE(mr9500_ld_state_of)
                 ? mr9500_ld_state_of[e->state] : MR_LD_OFFLINE,
        .consistent = e->flags & MGMT_VD_F_CONSISTENT,
        .start = le64_to_cpu(vi->start_sector),
        .blocks = le64_to_cpu(vi->member_sectors),
        .dg = le16_to_cpu(e->dg),
        .size = le64_to_cpu(e->blocks),
    };

    li[LDI_TARGET_ID] = tgt;
    memcpy(li + LDI_NAME, e->name, MIN(sizeof(e->name), 16));
    cache |= e->cache & MGMT_CACHE_WRITE_BACK ? RAID_CACHE_WRITE_BACK : 0;
    cache |= e->cache & MGMT_CACHE_ALWAYS_WB ? RAID_CACHE_WB_NO_BATTERY : 0;
    cache |= e->cache & MGMT_CACHE_READ_AHEAD ? RAID_CACHE_READ_AHEAD : 0;
    li[LDI_DEFAULT_CACHE] = cache;
    li[LDI_CURRENT_CACHE] = cache;
    li[LDI_ACCESS] = LD_ACCESS_RW;
    li[LDI_DISK_CACHE] = LD_DISK_CACHE_DEFAULT;
    mr9500_ld_fill_geometry(&g, li);
}

bool mr9500_ld_dcmd(MR9500State *s, uint32_t opcode, const uint8_t *mbox,
                    uint8_t **buf, uint32_t *len, uint8_t *status)
{
    switch (opcode) {
    case MR_DCMD_LD_LIST_QUERY:
        *len = MR_LD_TGTID_LIST_SIZE;
        *buf = g_malloc0(*len);
        mr9500_ld_tgtid_list(s, mbox[0], *buf);
        break;
    case MR_DCMD_LD_GET_LIST:
        *len = MR_LD_LIST_SIZE;
        *buf = g_malloc0(*len);
        mr9500_ld_list(s, *buf);
        break;
    case MR_DCMD_LD_GET_INFO:
        *len = MR_LD_INFO_SIZE;
        *buf = g_malloc0(*len);
        *status = mr9500_ld_info(s, mbox[0], *buf);
        break;
    default:
        return false;
    }
    return true;
}

/* The controller info's LD counts (and the PD count after them). */
void mr9500_ld_ctrl_info(MR9500State *s, uint8_t *ci, uint32_t npd)
{
    uint16_t present = 0, degraded = 0, offline = 0;

    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);

        if (!vd) {
            continue;
        }
        present++;
        switch (mr9500_ld_state(vd)) {
        case MR_LD_OFFLINE:
            offline++;
            break;
        case MR_LD_OPTIMAL:
            break;
        default:
            degraded++;
            break;
        }
    }
    stw_le_p(ci + CI_LD_PRESENT, present);
    stw_le_p(ci + CI_LD_DEGRADED, degraded);
    stw_le_p(ci + CI_LD_OFFLINE, offline);
    stw_le_p(ci + CI_PD_PRESENT_COUNT, npd);
}

/* ---- events ---- */

static void mr9500_ld_event(MR9500State *s, uint16_t code, int8_t class,
                            uint16_t tgt, int prev, int now)
{
    g_autofree char *desc = NULL;
    uint32_t seq;
    uint8_t *e = mr9500_event_new(s, code, MFI_EVT_LOCALE_LD, &seq);

    e[MFI_EVT_CLASS] = class;
    stw_le_p(e + MFI_EVT_ARGS, tgt);
    e[MFI_EVT_ARGS + 2] = tgt;            /* the LD index is the target id */
    if (code == MR_EVT_LD_STATE_CHANGE) {
        e[MFI_EVT_ARG_TYPE] = EVT_ARG_LD_STATE;
        stl_le_p(e + MFI_EVT_ARGS + 4, prev);
        stl_le_p(e + MFI_EVT_ARGS + 8, now);
        desc = g_strdup_printf("State change on VD %02x/%u from %s(%x) to "
                               "%s(%x)", tgt, tgt,
                               mr9500_ld_state_name[prev], prev,
                               mr9500_ld_state_name[now], now);
    } else {
        e[MFI_EVT_ARG_TYPE] = MFI_EVT_ARG_LD;
        desc = g_strdup_printf("%s VD %02x/%u",
                               code == MR_EVT_LD_CREATED ? "Created" :
                               code == MR_EVT_LD_DELETED ? "Deleted"
                                                         : "Offline",
                               tgt, tgt);
    }
    pstrcpy((char *)e + MFI_EVT_DESCRIPTION,
            MR_EVT_DETAIL_SIZE - MFI_EVT_DESCRIPTION, desc);
    trace_megaraid_9500_ld_event(seq, code, tgt);
    mr9500_aen_check(s);
}

/* VDs the host was told of that the configuration no longer has. */
static void mr9500_ld_check_deleted(MR9500State *s)
{
    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        if (s->ld_told[t] != MR9500_LD_TOLD_NONE && !mr9500_ld_vd(s, t)) {
            s->ld_told[t] = MR9500_LD_TOLD_NONE;
            trace_megaraid_9500_ld_deleted(t);
            mr9500_ld_event(s, MR_EVT_LD_DELETED, EVT_CLASS_INFO, t, 0, 0);
        }
    }
}

/* ---- MRArrayOps ---- */

static void mr9500_vd_added(void *opaque, MRVirtualDisk *vd)
{
    MR9500State *s = opaque;
    uint8_t state = mr9500_ld_state(vd);
    int idx = mr_vd_index(vd);

    /* the VD's index is its target id: stable across restarts */
    mr_vd_unit(vd)->host_id = idx;
    s->ld_told[idx] = state;
    trace_megaraid_9500_ld_added(idx, state);
    mr9500_map_changed(s);
    mr9500_ld_event(s, MR_EVT_LD_CREATED, EVT_CLASS_INFO, idx, 0, 0);
}

static void mr9500_vd_changed(void *opaque, MRVirtualDisk *vd)
{
    MR9500State *s = opaque;
    uint8_t state = mr9500_ld_state(vd);
    int idx = mr_vd_index(vd);
    uint8_t prev = s->ld_told[idx];

    mr9500_ld_check_deleted(s);
    /* state, members or VDs gone: the held map sync gets the new map */
    mr9500_map_changed(s);
    if (prev == state || prev == MR9500_LD_TOLD_NONE) {
        return;
    }
    s->ld_told[idx] = state;
    trace_megaraid_9500_ld_state(idx, prev, state);
    mr9500_ld_event(s, MR_EVT_LD_STATE_CHANGE,
                    state == MR_LD_OPTIMAL ? EVT_CLASS_INFO
                                           : EVT_CLASS_CRITICAL,
                    idx, prev, state);
    if (state == MR_LD_OFFLINE) {
        mr9500_ld_event(s, MR_EVT_LD_OFFLINE, EVT_CLASS_CRITICAL, idx,
                        0, 0);
    }
}

static void mr9500_drive_changed(void *opaque, MRDrive *d, bool toggled)
{
    MR9500State *s = opaque;
    bool hidden = d->in_array;
    uint16_t pd = d->unit.host_id;

    mr9500_ld_check_deleted(s);
    mr9500_map_changed(s);
    if (!toggled) {
        return;
    }
    trace_megaraid_9500_ld_drive(pd, hidden);
    if (pd >= MR9500_MAX_PDS || s->pd[pd] != d) {
        return;
    }
    if (hidden) {
        /* what the host still runs on it as a JBOD ends */
        mr9500_cmds_cancel_pd(s, pd);
    }
    mr9500_event_pd(s, hidden ? MR_EVT_PD_REMOVED : MR_EVT_PD_INSERTED, pd,
                    d->slot);
}

static void mr9500_ld_drive_arrived(void *opaque, MRDrive *d)
{
    mr9500_drive_arrived(opaque, d);
}

const MRArrayOps mr9500_ld_array_ops = {
    .vd_added = mr9500_vd_added,
    .vd_changed = mr9500_vd_changed,
    .drive_changed = mr9500_drive_changed,
    .drive_arrived = mr9500_ld_drive_arrived,
};

void mr9500_ld_init(MR9500State *s)
{
    memset(s->ld_told, MR9500_LD_TOLD_NONE, sizeof(s->ld_told));
}
