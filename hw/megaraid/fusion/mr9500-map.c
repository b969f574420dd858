/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 RAID map and online controller reset.
 * Owns the RAID map the driver fetches with LD_MAP_GET_INFO (the
 * "dynamic" format an Aero controller announces through scratch pad 2: a
 * header, a table of four descriptors, then the PD device handles, the LD
 * target id -> LD index table, the arrays and one span map per LD), the
 * pended map sync (LD_MAP_GET_INFO with the pend flag: held until the
 * configuration changes, then completed with the new map in its buffer,
 * or at once when the driver's LD list is already stale), the JBOD
 * sequence map (SYSTEM_PD_MAP_GET_INFO: per PD id its device handle and
 * sequence number, TM-capable when exposed) and its pended update, their ABORT
 * and their loss at a reset, and the "inject-fault" property an OCR test
 * uses to put the firmware in FAULT.
 *
 * Every LD is TM-capable; fast path (read and write, within one strip) is
 * offered for the LDs mr9500-fp.c names, whose frames it serves.  The
 * geometry of every LD is described (level, strip, arms per span, arm ->
 * PD device id, one quad per span): the driver's fast path arithmetic,
 * its RAID 1 load balancing and its R5/6 division hints (which arrive in
 * LD I/O frames and may be ignored) all read it.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object.h"
#include "mr9500.h"
#include "trace.h"

/* Dynamic map header (MR_FW_RAID_MAP_DYNAMIC), offsets in bytes */
#define MAP_SIZE                0x00
#define MAP_DESC_OFFSET         0x04
#define MAP_DESC_SIZE           0x08
#define MAP_DESC_COUNT          0x0C
#define MAP_PD_IO_TIMEOUT       0x24
#define MAP_LD_COUNT            0x2C
#define MAP_AR_COUNT            0x2E
#define MAP_SPAN_COUNT          0x30
#define MAP_HDR_BYTES           0x58    /* incl. 32 bytes the driver owns */
#define MAP_DESC_BYTES          16      /* type, offset, size, elements */
#define MAP_DESCS               4
#define MAP_DATA                (MAP_HDR_BYTES + MAP_DESCS * MAP_DESC_BYTES)

/* descriptor types, in the order the data follows */
#define MAP_DESC_DEVHDL         0
#define MAP_DESC_TGTID          1
#define MAP_DESC_ARRAY          2
#define MAP_DESC_SPAN           3

/* element sizes */
#define MAP_DEVHDL_BYTES        8       /* handle, valid, iface, 2 handles */
#define MAP_TGTID_BYTES         2
#define MAP_ARRAY_BYTES         64      /* 32 arms: PD device id, LE16 */
#define MAP_ARRAY_ARMS          32
#define MAP_LDRAID_BYTES        0x80
#define MAP_SPANBLK_BYTES       296
#define MAP_SPANS               8
#define MAP_LDSPAN_BYTES        (MAP_LDRAID_BYTES + MAP_ARRAY_ARMS + \
                                 MAP_SPANS * MAP_SPANBLK_BYTES)
#define MAP_MAX_TGTIDS          256     /* LD target ids 0..255 */
#define MAP_MAX_ARRAYS          512     /* the driver's table holds 512 */
#define MAP_INVALID_HANDLE      0xFFFF

/* LD RAID entry (MR_LD_RAID) */
#define LR_CAPABILITY           0x00
#define LR_CAP_FP               (1u << 0)       /* fpCapable */
#define LR_CAP_FP_WRITE         (1u << 20)
#define LR_CAP_FP_READ          (1u << 21)
#define LR_CAP_TM               (1u << 25)      /* tmCapable */
#define LR_SIZE                 0x08
#define LR_SPAN_DEPTH           0x10
#define LR_LEVEL                0x11
#define LR_STRIPE_SHIFT         0x12
#define LR_ROW_SIZE             0x13
#define LR_ROW_DATA_SIZE        0x14
#define LR_WRITE_MODE           0x15
#define LR_PRL                  0x16
#define LR_SRL                  0x17
#define LR_TARGET_ID            0x18
#define LR_LD_STATE             0x1A
#define LR_MOD_FACTOR           0x1C    /* data arms of a row */
#define LR_SEQ                  0x1E
#define LR_FP_TIMEOUT           0x2C
#define LR_BLOCK_LENGTH         0x30

/* span block (MR_SPAN_BLOCK_INFO) within the span map */
#define SB_NUM_ROWS             0x00
#define SB_START_BLK            0x08
#define SB_NUM_BLKS             0x10
#define SB_ARRAY_REF            0x18
#define SB_ROW_SIZE             0x1A
#define SB_ROW_DATA_SIZE        0x1B
#define SB_QUADS                0x20    /* count, reserved, then quads */
#define SB_QUAD0                0x28
#define QD_LOG_START            0x00
#define QD_LOG_END              0x08
#define QD_OFFSET               0x10
#define QD_DIFF                 0x18

/* MFI LD states */
#define MAP_LD_OFFLINE          0
#define MAP_LD_PART_DEGRADED    1
#define MAP_LD_DEGRADED         2
#define MAP_LD_OPTIMAL          3

#define MAP_PD_IO_TIMEOUT_S     10
#define MAP_SYNC_ENTRY          4       /* target id, reserved, seq LE16 */
#define MAP_MBOX_PEND           1

/* JBOD sequence map (MR_PD_CFG_SEQ_NUM_SYNC): size, count, 8-byte entries */
#define JBOD_MAP_HDR            8
#define JBOD_MAP_ENTRY          8
#define JBOD_MAP_BYTES          (JBOD_MAP_HDR + MR9500_MAX_PDS * JBOD_MAP_ENTRY)
#define JE_SEQ                  0
#define JE_HANDLE               2
#define JE_CAPABILITY           4       /* bit 0: TM capable */
#define JE_CAP_TM               0x01
#define JE_TARGET_ID            6

static uint8_t mr9500_map_ld_state(MRVirtualDisk *vd)
{
    switch (mr_vd_conf(vd)->state) {
    case RAID_VD_OPTIMAL:
        return MAP_LD_OPTIMAL;
    case RAID_VD_PARTIALLY_DEGRADED:
        return MAP_LD_PART_DEGRADED;
    case RAID_VD_DEGRADED:
        return MAP_LD_DEGRADED;
    default:
        return MAP_LD_OFFLINE;
    }
}

/* The host's device id of member @m, MAP_INVALID_HANDLE: none. */
static uint16_t mr9500_map_arm_pd(MR9500State *s, MRVirtualDisk *vd,
                                  uint32_t m)
{
    MRDrive *d;

    if (mr_vd_member_status(vd, m) == RAID_MEMBER_MISSING) {
        return MAP_INVALID_HANDLE;
    }
    d = mr_vd_member_drive(vd, m);
    if (!d || d->unit.host_id >= MR9500_MAX_PDS ||
        s->pd[d->unit.host_id] != d) {
        return MAP_INVALID_HANDLE;
    }
    return d->unit.host_id;
}

/* MFI level byte and DDF PRL/SRL of @level */
static void mr9500_map_level(RaidLevel level, uint8_t *mfi, uint8_t *prl,
                             uint8_t *srl)
{
    static const uint8_t lvl[] = {
        [RAID_LEVEL_0] = 0, [RAID_LEVEL_1] = 1, [RAID_LEVEL_5] = 5,
        [RAID_LEVEL_6] = 6, [RAID_LEVEL_10] = 1, [RAID_LEVEL_50] = 5,
        [RAID_LEVEL_60] = 6, [RAID_LEVEL_JBOD] = 0,
    };
    static const uint8_t ddf[] = {
        [RAID_LEVEL_0] = 0x00, [RAID_LEVEL_1] = 0x01, [RAID_LEVEL_5] = 0x05,
        [RAID_LEVEL_6] = 0x06, [RAID_LEVEL_10] = 0x01, [RAID_LEVEL_50] = 0x05,
        [RAID_LEVEL_60] = 0x06, [RAID_LEVEL_JBOD] = 0x0F,
    };

    *mfi = level < ARRAY_SIZE(lvl) ? lvl[level] : 0;
    *prl = level < ARRAY_SIZE(ddf) ? ddf[level] : 0;
    *srl = level == RAID_LEVEL_10 || level == RAID_LEVEL_50 ||
           level == RAID_LEVEL_60 ? 0x00 : 0xFF;
}

/* Index of the array holding @pds in @ar (added if new), -1: table full. */
static int mr9500_map_array(uint8_t *ar, uint32_t *nar, const uint16_t *pds)
{
    uint8_t e[MAP_ARRAY_BYTES];

    for (uint32_t i = 0; i < MAP_ARRAY_ARMS; i++) {
        stw_le_p(e + 2 * i, pds[i]);
    }
    for (uint32_t i = 0; i < *nar; i++) {
        if (!memcmp(ar + i * MAP_ARRAY_BYTES, e, sizeof(e))) {
            return i;
        }
    }
    if (*nar >= MAP_MAX_ARRAYS) {
        return -1;
    }
    memcpy(ar + *nar * MAP_ARRAY_BYTES, e, sizeof(e));
    return (*nar)++;
}

/* One LD's span map entry at @e; false: the array table is full. */
static bool mr9500_map_ld(MR9500State *s, MRVirtualDisk *vd, uint16_t seq,
                          uint8_t *e, uint8_t *ar, uint32_t *nar)
{
    const RaidLayout *l = mr_vd_layout(vd);
    const MRUnit *u = mr_vd_unit(vd);
    uint8_t *r = e;
    uint8_t *arm_map = e + MAP_LDRAID_BYTES;
    uint32_t data = l->level == RAID_LEVEL_1 || l->level == RAID_LEVEL_10 ?
                    1 : l->span_data;
    uint64_t span_rows = l->rows;
    uint8_t level, prl, srl;

    mr9500_map_level(l->level, &level, &prl, &srl);
    /* TM-capable (mr9500-io.c); fast path (mr9500-fp.c); no read ahead */
    stl_le_p(r + LR_CAPABILITY, LR_CAP_TM |
             (mr9500_fp_offered(s, vd) ? LR_CAP_FP | LR_CAP_FP_READ |
                                         LR_CAP_FP_WRITE : 0));
    stq_le_p(r + LR_SIZE, u->num_blocks);
    r[LR_SPAN_DEPTH] = l->spans;
    r[LR_LEVEL] = level;
    r[LR_STRIPE_SHIFT] = l->strip_shift;
    r[LR_ROW_SIZE] = l->span_members;
    r[LR_ROW_DATA_SIZE] = data;
    r[LR_PRL] = prl;
    r[LR_SRL] = srl;
    stw_le_p(r + LR_TARGET_ID, u->host_id);
    r[LR_LD_STATE] = mr9500_map_ld_state(vd);
    r[LR_MOD_FACTOR] = data;
    stw_le_p(r + LR_SEQ, seq);
    r[LR_FP_TIMEOUT] = MAP_PD_IO_TIMEOUT_S;
    stl_le_p(r + LR_BLOCK_LENGTH, u->block_size);
    for (uint32_t i = 0; i < data && i < MAP_ARRAY_ARMS; i++) {
        arm_map[i] = i;
    }
    for (uint32_t sp = 0; sp < l->spans && sp < MAP_SPANS; sp++) {
        uint8_t *b = e + MAP_LDRAID_BYTES + MAP_ARRAY_ARMS +
                     sp * MAP_SPANBLK_BYTES;
        uint8_t *q = b + SB_QUAD0;
        uint16_t pds[MAP_ARRAY_ARMS];
        int ref;

        for (uint32_t a = 0; a < MAP_ARRAY_ARMS; a++) {
            pds[a] = a < l->span_members ?
                     mr9500_map_arm_pd(s, vd, sp * l->span_members + a) :
                     MAP_INVALID_HANDLE;
        }
        ref = mr9500_map_array(ar, nar, pds);
        if (ref < 0) {
            return false;
        }
        /*
         * Row r of the LD (rowDataSize strips) lies on span r mod spans,
         * as its row r div spans: one quad per span.
         */
        stq_le_p(b + SB_NUM_ROWS, span_rows);
        stq_le_p(b + SB_START_BLK, l->member_start[sp * l->span_members]);
        stq_le_p(b + SB_NUM_BLKS, l->block_count);
        stw_le_p(b + SB_ARRAY_REF, ref);
        b[SB_ROW_SIZE] = l->span_members;
        b[SB_ROW_DATA_SIZE] = data;
        stl_le_p(b + SB_QUADS, 1);
        stq_le_p(q + QD_LOG_START, sp);
        stq_le_p(q + QD_LOG_END, sp + (span_rows ? span_rows - 1 : 0) *
                 l->spans);
        stq_le_p(q + QD_OFFSET, 0);
        stl_le_p(q + QD_DIFF, l->spans);
    }
    return true;
}

/*
 * Build the map into @buf (@cap bytes, zeroed).  Returns its size, 0 when
 * it does not fit.  Every LD carries s->map_seq as its sequence number.
 */
static uint32_t mr9500_map_build(MR9500State *s, uint8_t *buf, uint32_t cap,
                                 uint32_t *nld_out)
{
    const uint32_t hdl_off = 0;
    const uint32_t tgt_off = hdl_off + MR9500_MAX_PDS * MAP_DEVHDL_BYTES;
    const uint32_t ar_off = tgt_off + MAP_MAX_TGTIDS * MAP_TGTID_BYTES;
    g_autofree uint8_t *ar = g_malloc0(MAP_MAX_ARRAYS * MAP_ARRAY_BYTES);
    g_autofree uint8_t *tmp = g_malloc0(MAP_LDSPAN_BYTES);
    uint32_t nld = 0, nar = 0, nspan = 0;
    uint32_t span_off, size;
    uint8_t *data = buf + MAP_DATA;
    uint8_t *d;

    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        nld += mr9500_ld_vd(s, t) != NULL;
    }
    *nld_out = nld;
    if (cap < MAP_DATA + ar_off) {
        return 0;
    }

    /* device handles: the PD device id is the handle */
    for (uint32_t pd = 0; pd < MR9500_MAX_PDS; pd++) {
        MRDrive *dr = s->pd[pd];

        d = data + hdl_off + pd * MAP_DEVHDL_BYTES;
        if (!dr) {
            stw_le_p(d, MAP_INVALID_HANDLE);
            stw_le_p(d + 4, MAP_INVALID_HANDLE);
            stw_le_p(d + 6, MAP_INVALID_HANDLE);
            continue;
        }
        stw_le_p(d, pd);
        d[2] = 1;
        d[3] = mr9500_pd_if(&dr->unit);
        stw_le_p(d + 4, pd);
        stw_le_p(d + 6, MAP_INVALID_HANDLE);
    }

    /* target ids -> LD index; LDs ordered by target id */
    for (uint32_t t = 0, ld = 0; t < MAP_MAX_TGTIDS; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);

        stw_le_p(data + tgt_off + t * MAP_TGTID_BYTES,
                 vd ? ld++ : 0xFFFF);
    }

    /* first pass: count the (shared) arrays, then lay the LDs out */
    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);

        if (vd && !mr9500_map_ld(s, vd, s->map_seq, tmp, ar, &nar)) {
            return 0;
        }
    }
    span_off = ar_off + nar * MAP_ARRAY_BYTES;
    if (MAP_DATA + span_off + (uint64_t)nld * MAP_LDSPAN_BYTES > cap) {
        return 0;
    }
    nar = 0;
    memset(ar, 0, MAP_MAX_ARRAYS * MAP_ARRAY_BYTES);
    for (uint32_t t = 0, ld = 0; t < RAID_MAX_VDS; t++) {
        MRVirtualDisk *vd = mr9500_ld_vd(s, t);

        if (!vd) {
            continue;
        }
        mr9500_map_ld(s, vd, s->map_seq,
                      data + span_off + ld * MAP_LDSPAN_BYTES, ar, &nar);
        nspan += mr_vd_layout(vd)->spans;
        ld++;
    }
    memcpy(data + ar_off, ar, nar * MAP_ARRAY_BYTES);
    size = MAP_DATA + span_off + nld * MAP_LDSPAN_BYTES;

    /* header and descriptor table */
    stl_le_p(buf + MAP_SIZE, size);
    stl_le_p(buf + MAP_DESC_OFFSET, MAP_HDR_BYTES);
    stl_le_p(buf + MAP_DESC_SIZE, MAP_DESCS * MAP_DESC_BYTES);
    stl_le_p(buf + MAP_DESC_COUNT, MAP_DESCS);
    buf[MAP_PD_IO_TIMEOUT] = MAP_PD_IO_TIMEOUT_S;
    stw_le_p(buf + MAP_LD_COUNT, nld);
    stw_le_p(buf + MAP_AR_COUNT, nar);
    stw_le_p(buf + MAP_SPAN_COUNT, nspan);
    d = buf + MAP_HDR_BYTES;
    stl_le_p(d, MAP_DESC_DEVHDL);
    stl_le_p(d + 4, hdl_off);
    stl_le_p(d + 8, MR9500_MAX_PDS * MAP_DEVHDL_BYTES);
    stl_le_p(d + 12, MR9500_MAX_PDS);
    d += MAP_DESC_BYTES;
    stl_le_p(d, MAP_DESC_TGTID);
    stl_le_p(d + 4, tgt_off);
    stl_le_p(d + 8, MAP_MAX_TGTIDS * MAP_TGTID_BYTES);
    stl_le_p(d + 12, MAP_MAX_TGTIDS);
    d += MAP_DESC_BYTES;
    stl_le_p(d, MAP_DESC_ARRAY);
    stl_le_p(d + 4, ar_off);
    stl_le_p(d + 8, nar * MAP_ARRAY_BYTES);
    stl_le_p(d + 12, nar);
    d += MAP_DESC_BYTES;
    stl_le_p(d, MAP_DESC_SPAN);
    stl_le_p(d + 4, span_off);
    stl_le_p(d + 8, nld * MAP_LDSPAN_BYTES);
    stl_le_p(d + 12, nld);
    return size;
}

/* Build the map and send it through the SGL of @frame. */
static uint8_t mr9500_map_send(MR9500State *s, const uint8_t *frame)
{
    uint32_t cap = ldl_le_p(frame + MFI_HDR_XFER_LEN);
    g_autofree uint8_t *buf = NULL;
    uint32_t size, nld = 0;

    if (cap > MR9500_MAP_BYTES) {
        cap = MR9500_MAP_BYTES;
    }
    buf = g_malloc0(MR9500_MAP_BYTES);
    size = mr9500_map_build(s, buf, cap, &nld);
    if (!size) {
        trace_megaraid_9500_err_map_size(ldl_le_p(frame + MFI_HDR_XFER_LEN),
                                         nld);
        return MFI_STAT_INVALID_PARAMETER;
    }
    trace_megaraid_9500_map(size, nld, s->map_seq);
    return mr9500_mfi_to_host(s, frame, MFI_DCMD_SGL, buf, size);
}

/* Does the driver's LD list (the sync buffer) still match ours? */
static bool mr9500_map_sync_current(MR9500State *s, const uint8_t *frame)
{
    uint32_t nld = 0;
    uint32_t want = frame[MFI_DCMD_MBOX];
    const uint8_t *f = frame;
    uint16_t flags = lduw_le_p(f + MFI_HDR_FLAGS);
    uint32_t esize = flags & MFI_FLAGS_IEEE ? 16 :
                     flags & MFI_FLAGS_SGL64 ? 12 : 8;
    uint64_t addr;
    uint32_t len;
    g_autofree uint8_t *list = NULL;

    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        nld += mr9500_ld_vd(s, t) != NULL;
    }
    if (nld != want) {
        return false;
    }
    if (!nld || !f[MFI_HDR_SGE_COUNT]) {
        return true;
    }
    /* the list is in the first SGL element */
    addr = esize == 8 ? ldl_le_p(f + MFI_DCMD_SGL) :
                        ldq_le_p(f + MFI_DCMD_SGL);
    len = ldl_le_p(f + MFI_DCMD_SGL + (esize == 8 ? 4 : 8));
    if (len < nld * MAP_SYNC_ENTRY ||
        !mr9500_dma_ok(s, addr, nld * MAP_SYNC_ENTRY)) {
        return false;
    }
    list = g_malloc(nld * MAP_SYNC_ENTRY);
    if (pci_dma_read(PCI_DEVICE(s), addr, list, nld * MAP_SYNC_ENTRY)) {
        return false;
    }
    for (uint32_t i = 0; i < nld; i++) {
        const uint8_t *e = list + i * MAP_SYNC_ENTRY;

        if (!mr9500_ld_vd(s, e[0]) || lduw_le_p(e + 2) != s->map_seq) {
            return false;
        }
    }
    return true;
}

bool mr9500_map_dcmd(MR9500State *s, uint16_t smid, uint64_t mfi_addr,
                     const uint8_t *frame, uint8_t *status)
{
    if (frame[MFI_DCMD_MBOX + 1] != MAP_MBOX_PEND) {
        *status = mr9500_map_send(s, frame);
        return true;
    }
    if (s->map_sync.active) {
        trace_megaraid_9500_ub_map_sync_twice(smid, s->map_sync.smid);
        *status = MFI_STAT_WRONG_STATE;
        return true;
    }
    if (ldl_le_p(frame + MFI_HDR_XFER_LEN) < MAP_DATA) {
        *status = MFI_STAT_INVALID_PARAMETER;
        return true;
    }
    if (!mr9500_map_sync_current(s, frame)) {
        /* the driver's copy is stale: the new map now */
        trace_megaraid_9500_map_sync(smid, frame[MFI_DCMD_MBOX], false);
        *status = mr9500_map_send(s, frame);
        return true;
    }
    mr9500_hold(&s->map_sync, smid, mfi_addr, frame);
    trace_megaraid_9500_map_sync(smid, frame[MFI_DCMD_MBOX], true);
    return false;
}

/*
 * The JBOD sequence map: per PD id the device handle of an exposed JBOD
 * (its PD id; 0xFFFF for none, a VD member or a spare), the sequence
 * number and, for an exposed JBOD, the TM-capable bit: megaraid_sas then
 * aborts a timed-out command by TM (mr9500-io.c) instead of an OCR.
 */
static uint8_t mr9500_jbod_map_send(MR9500State *s, const uint8_t *frame)
{
    g_autofree uint8_t *buf = g_malloc0(JBOD_MAP_BYTES);

    if (ldl_le_p(frame + MFI_HDR_XFER_LEN) < JBOD_MAP_BYTES) {
        trace_megaraid_9500_err_map_size(ldl_le_p(frame + MFI_HDR_XFER_LEN),
                                         0);
        return MFI_STAT_INVALID_PARAMETER;
    }
    stl_le_p(buf, JBOD_MAP_BYTES);
    stl_le_p(buf + 4, MR9500_MAX_PDS);
    for (uint32_t pd = 0; pd < MR9500_MAX_PDS; pd++) {
        uint8_t *e = buf + JBOD_MAP_HDR + pd * JBOD_MAP_ENTRY;

        bool jbod = mr9500_pd_drive(s, pd);

        stw_le_p(e + JE_SEQ, s->map_seq);
        stw_le_p(e + JE_HANDLE, jbod ? pd : MAP_INVALID_HANDLE);
        e[JE_CAPABILITY] = jbod ? JE_CAP_TM : 0;
        stw_le_p(e + JE_TARGET_ID, pd);
    }
    s->jbod_sent_seq = s->map_seq;
    trace_megaraid_9500_jbod_map(s->map_seq);
    return mr9500_mfi_to_host(s, frame, MFI_DCMD_SGL, buf, JBOD_MAP_BYTES);
}

bool mr9500_jbod_map_dcmd(MR9500State *s, uint16_t smid, uint64_t mfi_addr,
                          const uint8_t *frame, uint8_t *status)
{
    if (frame[MFI_DCMD_MBOX] != MAP_MBOX_PEND) {
        *status = mr9500_jbod_map_send(s, frame);
        return true;
    }
    if (s->jbod_sync.active) {
        trace_megaraid_9500_ub_map_sync_twice(smid, s->jbod_sync.smid);
        *status = MFI_STAT_WRONG_STATE;
        return true;
    }
    if (ldl_le_p(frame + MFI_HDR_XFER_LEN) < JBOD_MAP_BYTES) {
        *status = MFI_STAT_INVALID_PARAMETER;
        return true;
    }
    if (s->jbod_sent_seq != s->map_seq) {
        /* changed since the host's copy: the new map now */
        *status = mr9500_jbod_map_send(s, frame);
        return true;
    }
    mr9500_hold(&s->jbod_sync, smid, mfi_addr, frame);
    trace_megaraid_9500_jbod_map_hold(smid);
    return false;
}

void mr9500_map_changed(MR9500State *s)
{
    uint8_t st;

    s->map_seq++;
    if (s->jbod_sync.active) {
        st = mr9500_jbod_map_send(s, s->jbod_sync.frame);
        mr9500_held_complete(s, &s->jbod_sync, st);
    }
    if (s->map_sync.active) {
        st = mr9500_map_send(s, s->map_sync.frame);
        mr9500_held_complete(s, &s->map_sync, st);
    }
}

bool mr9500_map_abort(MR9500State *s, uint64_t victim)
{
    MR9500Held *h = s->map_sync.active && s->map_sync.mfi_addr == victim ?
                    &s->map_sync :
                    s->jbod_sync.active && s->jbod_sync.mfi_addr == victim ?
                    &s->jbod_sync : NULL;

    if (!h) {
        return false;
    }
    mr9500_held_complete(s, h, MFI_STAT_NOT_FOUND);
    return true;
}

void mr9500_map_reset(MR9500State *s)
{
    /* the held syncs belong to the host session that is gone */
    s->map_sync.active = false;
    s->jbod_sync.active = false;
}

/* ---- fault injection (QOM, run time) ---- */

static char *mr9500_fault_get(Object *obj, Error **errp)
{
    MR9500State *s = MEGARAID_9500(obj);

    if (s->fw_state != MFI_STATE_FAULT) {
        return g_strdup("");
    }
    return g_strdup_printf("0x%03x", s->fault_code);
}

/* "CODE": the firmware faults now (scratch pad 0 with reset allowed). */
static void mr9500_fault_set(Object *obj, const char *value, Error **errp)
{
    MR9500State *s = MEGARAID_9500(obj);
    uint64_t code;

    if (qemu_strtou64(value, NULL, 0, &code) < 0 || !code || code > 0xFFF) {
        error_setg(errp, "megaraid-9500: inject-fault '%s': CODE is "
                   "1..0xfff", value);
        return;
    }
    if (!DEVICE(s)->realized) {
        error_setg(errp, "megaraid-9500: inject-fault is set at run time "
                   "(qom-set), not at start");
        return;
    }
    if (s->fw_state == MFI_STATE_FAULT) {
        error_setg(errp, "megaraid-9500: the firmware is in FAULT already "
                   "(code 0x%03x)", s->fault_code);
        return;
    }
    trace_megaraid_9500_fault_inject(code);
    s->faults_injected++;
    mr9500_fault(s, code);
}

static void mr9500_faults_get(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    uint32_t n = MEGARAID_9500(obj)->faults_injected;

    visit_type_uint32(v, name, &n, errp);
}

void mr9500_map_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "inject-fault", mr9500_fault_get,
                                  mr9500_fault_set);
    object_class_property_set_description(oc, "inject-fault",
        "fault injection (run time): CODE (1..0xfff) puts the firmware in "
        "FAULT with reset allowed; the driver's online controller reset "
        "brings it back. Reads the fault code while in FAULT");
    object_class_property_add(oc, "faults-injected", "uint32",
                              mr9500_faults_get, NULL, NULL, NULL);
    object_class_property_set_description(oc, "faults-injected",
        "faults injected with inject-fault since start");
}
