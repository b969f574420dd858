/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500's configuration and LD management DCMDs,
 * the ones MFI tools (mfiutil, storcli v1) send through megaraid_sas'
 * ioctl node: CFG_READ (the arrays, LDs and hot spares), CFG_ADD (new
 * VDs of every level from the arrays and LDs the tool sends), CFG_CLEAR,
 * CFG_MAKE_SPARE / CFG_REMOVE_SPARE, the foreign scan, import and clear,
 * LD_GET/SET_PROPERTIES, LD_DELETE and LD_INIT_START.
 *
 * Nothing here changes the configuration itself: every change is one or
 * more requests of the firmware core's management protocol
 * (mgmt-proto.h, mr_core_mgmt_execute_async), the operations mrcli and
 * the 9600 use, so each lands as DDF on the drives and QMP sees it.  A
 * DCMD that changes the configuration is checked whole first, then its
 * requests run one after the other, each once the previous one's
 * metadata is on the drives; the DCMD is held meanwhile and completes
 * with the MFI status of the first refusal, or OK after the last.
 * Reads (CFG_READ, LD properties) come from the protocol's lists and the
 * VDs' public view.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "block/aio.h"
#include "qemu/main-loop.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"

#define CFG_VD_OF_PREVIOUS  (-2)

/* One management request of a DCMD, and what its refusal answers. */
typedef struct CfgStep {
    uint32_t op;
    uint32_t mbox[4];
    /* VD_CREATE: MgmtVdCreate and a slot per member, at most */
    uint8_t data[sizeof(MgmtVdCreate) + 2 * RAID_MAX_MEMBERS];
    uint32_t dlen;
    /*
     * >= 0: the step whose new VD's drive group this one names (a
     * dedicated spare of a new array); CFG_VD_OF_PREVIOUS: mbox[0] is the
     * VD the step before made; -1: as built.
     */
    int dg_of;
    uint8_t limit_status;       /* MFI status for MGMT_STAT_LIMIT */
} CfgStep;

typedef struct CfgMade {
    int dg;
    int vd;
} CfgMade;

typedef struct CfgRun {
    MR9500State *s;
    uint32_t epoch;
    uint16_t smid;
    uint8_t queue;
    uint64_t mfi_addr;
    uint32_t dcmd;
    GArray *steps;              /* CfgStep */
    GArray *dgs;                /* per step: CfgMade of its VD_CREATE */
    guint next;
    /*
     * A CFG_ADD refused after some of its requests were made: they are
     * undone (undoing: the steps are the undo list) and the DCMD answers
     * the refusal (fail) after that.
     */
    bool undoable;
    bool undoing;
    uint8_t fail;
    uint8_t resp[MGMT_MAX_RESP_LEN];
} CfgRun;

static uint8_t cfg_reply_status(const uint8_t *resp)
{
    return ((const MgmtReply *)resp)->status;
}

/* Every entry of list @op, concatenated (entry_len bytes each). */
static GByteArray *cfg_list(MR9500State *s, uint32_t op, uint16_t entry_len)
{
    GByteArray *out = g_byte_array_new();
    uint32_t first = 0;

    while (first != MGMT_NONE32) {
        g_autofree MR9500MgmtAnswer *q = mr9500_mgmt_ask(s, op, first, 0);
        const MgmtListHeader *h;
        uint32_t count;

        if (!q || cfg_reply_status(q->resp) != MGMT_STAT_OK) {
            break;
        }
        h = (const MgmtListHeader *)(q->resp + sizeof(MgmtReply));
        count = le32_to_cpu(h->count);
        if (le16_to_cpu(h->entry_len) != entry_len ||
            sizeof(MgmtReply) + sizeof(*h) + (size_t)count * entry_len >
            q->len) {
            break;
        }
        g_byte_array_append(out, (const uint8_t *)(h + 1), count * entry_len);
        if (le32_to_cpu(h->next) <= first && le32_to_cpu(h->next) !=
            MGMT_NONE32) {
            break;
        }
        first = le32_to_cpu(h->next);
        if (!count) {
            break;
        }
    }
    return out;
}

/* ---- drives: MFI PD ids and the protocol's slots ---- */

static int cfg_pd_of_slot(MR9500State *s, uint16_t slot)
{
    for (int pd = 0; pd < MR9500_MAX_PDS; pd++) {
        if (s->pd[pd] && s->pd[pd]->slot == slot && !s->pd[pd]->enclosure) {
            return pd;
        }
    }
    return -1;
}

static const MgmtPdEntry *cfg_pd_entry(GByteArray *pds, uint16_t slot)
{
    for (guint i = 0; i + sizeof(MgmtPdEntry) <= pds->len;
         i += sizeof(MgmtPdEntry)) {
        const MgmtPdEntry *e = (const MgmtPdEntry *)(pds->data + i);

        if (le16_to_cpu(e->slot) == slot && !le16_to_cpu(e->enclosure)) {
            return e;
        }
    }
    return NULL;
}

/* ---- CFG_READ ---- */

typedef struct CfgView {
    GByteArray *dgs;            /* MgmtDgEntry */
    GByteArray *pds;            /* MgmtPdEntry */
} CfgView;

static void cfg_view(MR9500State *s, CfgView *v)
{
    v->dgs = cfg_list(s, MGMT_OP_DG_LIST, sizeof(MgmtDgEntry));
    v->pds = cfg_list(s, MGMT_OP_PD_LIST, sizeof(MgmtPdEntry));
}

static void cfg_view_free(CfgView *v)
{
    g_byte_array_unref(v->dgs);
    g_byte_array_unref(v->pds);
}

static uint32_t cfg_ndgs(CfgView *v)
{
    return v->dgs->len / sizeof(MgmtDgEntry);
}

static const MgmtDgEntry *cfg_dg(CfgView *v, uint32_t i)
{
    return (const MgmtDgEntry *)(v->dgs->data + i * sizeof(MgmtDgEntry));
}

/* The drive group with index @dg in @v, NULL: none. */
static const MgmtDgEntry *cfg_dg_by_index(CfgView *v, uint16_t dg)
{
    for (uint32_t i = 0; i < cfg_ndgs(v); i++) {
        if (le16_to_cpu(cfg_dg(v, i)->dg) == dg) {
            return cfg_dg(v, i);
        }
    }
    return NULL;
}

/* An array is a span of a drive group: its reference dg * 8 + span. */
#define CFG_ARRAY_REF(dg, span)     ((dg) * MR_LDC_MAX_SPANS + (span))

static bool cfg_array_exists(CfgView *v, uint16_t ref)
{
    const MgmtDgEntry *g = cfg_dg_by_index(v, ref / MR_LDC_MAX_SPANS);

    return g && ref % MR_LDC_MAX_SPANS < g->nspans;
}

static void cfg_fill_array(MR9500State *s, CfgView *v, const MgmtDgEntry *g,
                           int span, uint8_t *a)
{
    int w = g->span_width;

    stq_le_p(a + MR_ARRAY_BLOCKS, le64_to_cpu(g->member_sectors));
    a[MR_ARRAY_NUM_DRIVES] = w;
    stw_le_p(a + MR_ARRAY_REF, CFG_ARRAY_REF(le16_to_cpu(g->dg), span));
    for (int k = 0; k < (MR_ARRAY_SIZE - MR_ARRAY_HDR) / MR_ARRAY_PD_SIZE;
         k++) {
        uint8_t *p = a + MR_ARRAY_HDR + k * MR_ARRAY_PD_SIZE;
        int m = span * w + k;
        uint16_t slot = k < w && m < g->nlisted ? le16_to_cpu(g->slots[m])
                                               : MGMT_NONE16;
        const MgmtPdEntry *e = slot != MGMT_NONE16 ? cfg_pd_entry(v->pds, slot)
                                                  : NULL;
        int pd = e ? cfg_pd_of_slot(s, slot) : -1;

        p[MR_ARRAY_PD_ENCL] = 0xFF;
        p[MR_ARRAY_PD_SLOT] = 0xFF;
        if (k >= w) {
            stw_le_p(p + MR_ARRAY_PD_ID, 0xFFFF);
            continue;
        }
        if (pd < 0) {
            /* a missing member */
            stw_le_p(p + MR_ARRAY_PD_ID, 0xFFFF);
            stw_le_p(p + MR_ARRAY_PD_STATE, MR_PD_STATE_FAILED);
            continue;
        }
        stw_le_p(p + MR_ARRAY_PD_ID, pd);
        stw_le_p(p + MR_ARRAY_PD_STATE, mr9500_mfi_pd_state(e->state));
        p[MR_ARRAY_PD_SLOT] = slot;
    }
}

static void cfg_fill_spare(MR9500State *s, CfgView *v, const MgmtPdEntry *e,
                           int pd, uint8_t *sp)
{
    const MgmtDgEntry *g = NULL;

    stw_le_p(sp + MR_SPARE_PD_ID, pd);
    if (e->flags & MGMT_PD_F_DEDICATED_SPARE) {
        g = cfg_dg_by_index(v, le16_to_cpu(e->spare_dg));
    }
    if (!g) {
        return;                 /* global: backs every array */
    }
    sp[MR_SPARE_TYPE] = MR_SPARE_DEDICATED;
    sp[MR_SPARE_ARRAY_COUNT] = MIN(g->nspans, MR_SPARE_MAX_ARRAYS);
    for (int i = 0; i < sp[MR_SPARE_ARRAY_COUNT]; i++) {
        stw_le_p(sp + MR_SPARE_ARRAYS + 2 * i,
                 CFG_ARRAY_REF(le16_to_cpu(g->dg), i));
    }
}

/*
 * CFG_READ's layout of @v: an array per span of each drive group, the
 * @nlds LD configurations at @lds (MR_LD_CONFIG_SIZE bytes each), a spare
 * entry per hot spare here; its length in *@len.
 */
static uint8_t *cfg_assemble(MR9500State *s, CfgView *v, const uint8_t *lds,
                             uint32_t nlds, uint32_t *len)
{
    uint32_t narrays = 0, nspares = 0, off;
    uint8_t *buf;

    for (uint32_t i = 0; i < cfg_ndgs(v); i++) {
        narrays += MIN(cfg_dg(v, i)->nspans, MR_LDC_MAX_SPANS);
    }
    for (guint i = 0; i < v->pds->len; i += sizeof(MgmtPdEntry)) {
        const MgmtPdEntry *e = (const MgmtPdEntry *)(v->pds->data + i);

        nspares += e->state == MGMT_PD_HOT_SPARE &&
                   cfg_pd_of_slot(s, le16_to_cpu(e->slot)) >= 0;
    }
    *len = MR_CFG_HDR_SIZE + narrays * MR_ARRAY_SIZE +
           nlds * MR_LD_CONFIG_SIZE + nspares * MR_SPARE_SIZE;
    buf = g_malloc0(*len);
    stl_le_p(buf + MR_CFG_SIZE, *len);
    stw_le_p(buf + MR_CFG_ARRAY_COUNT, narrays);
    stw_le_p(buf + MR_CFG_ARRAY_SIZE, MR_ARRAY_SIZE);
    stw_le_p(buf + MR_CFG_LD_COUNT, nlds);
    stw_le_p(buf + MR_CFG_LD_SIZE, MR_LD_CONFIG_SIZE);
    stw_le_p(buf + MR_CFG_SPARE_COUNT, nspares);
    stw_le_p(buf + MR_CFG_SPARE_SIZE, MR_SPARE_SIZE);
    off = MR_CFG_HDR_SIZE;
    for (uint32_t i = 0; i < cfg_ndgs(v); i++) {
        for (int sp = 0; sp < MIN(cfg_dg(v, i)->nspans, MR_LDC_MAX_SPANS);
             sp++) {
            cfg_fill_array(s, v, cfg_dg(v, i), sp, buf + off);
            off += MR_ARRAY_SIZE;
        }
    }
    memcpy(buf + off, lds, nlds * MR_LD_CONFIG_SIZE);
    off += nlds * MR_LD_CONFIG_SIZE;
    for (guint i = 0; i < v->pds->len; i += sizeof(MgmtPdEntry)) {
        const MgmtPdEntry *e = (const MgmtPdEntry *)(v->pds->data + i);
        int pd = cfg_pd_of_slot(s, le16_to_cpu(e->slot));

        if (e->state == MGMT_PD_HOT_SPARE && pd >= 0) {
            cfg_fill_spare(s, v, e, pd, buf + off);
            off += MR_SPARE_SIZE;
        }
    }
    trace_megaraid_9500_cfg_read(*len, narrays, nlds, nspares);
    return buf;
}

/* The whole configuration as CFG_READ answers it; its length in *@len. */
static uint8_t *cfg_read(MR9500State *s, uint32_t *len)
{
    g_autofree uint8_t *lds = g_malloc0(RAID_MAX_VDS * MR_LD_CONFIG_SIZE);
    uint32_t nlds = 0;
    uint8_t *buf;
    CfgView v;

    cfg_view(s, &v);
    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        uint8_t li[MR_LD_INFO_SIZE] = { 0 };

        if (mr9500_ld_vd(s, t) && mr9500_ld_info(s, t, li) == MFI_STAT_OK) {
            memcpy(lds + nlds++ * MR_LD_CONFIG_SIZE, li, MR_LD_CONFIG_SIZE);
        }
    }
    buf = cfg_assemble(s, &v, lds, nlds, len);
    cfg_view_free(&v);
    return buf;
}

/*
 * FOREIGN_DISPLAY / FOREIGN_PREVIEW of configuration @idx: laid out as
 * CFG_READ, from what its drives' metadata holds: its drive groups as
 * arrays (a member here ONLINE, one not here missing), its VDs as LDs
 * with their index there as target id, its hot spares that are here.
 * NULL with *@status: no such configuration, or unreadable.
 */
static uint8_t *cfg_foreign_read(MR9500State *s, uint32_t idx, uint32_t *len,
                                 uint8_t *status)
{
    g_autofree MR9500MgmtAnswer *q = mr9500_mgmt_ask(
        s, MGMT_OP_FOREIGN_CONFIG, idx, 0);
    const MgmtForeignConfig *h;
    const uint8_t *p;
    g_autofree uint8_t *lds = NULL;
    uint32_t ndgs, nvds, nspares;
    uint8_t *buf;
    CfgView v;

    if (!q || cfg_reply_status(q->resp) != MGMT_STAT_OK ||
        q->len < sizeof(MgmtReply) + sizeof(*h)) {
        *status = q && cfg_reply_status(q->resp) == MGMT_STAT_IO_ERROR
                  ? MFI_STAT_SCSI_IO_FAILED : MFI_STAT_NOT_FOUND;
        return NULL;
    }
    h = (const MgmtForeignConfig *)(q->resp + sizeof(MgmtReply));
    ndgs = le16_to_cpu(h->ndgs);
    nvds = le16_to_cpu(h->nvds);
    nspares = le16_to_cpu(h->nspares);
    if (q->len < sizeof(MgmtReply) + sizeof(*h) + ndgs * sizeof(MgmtDgEntry) +
        nvds * sizeof(MgmtVdInfo) + nspares * sizeof(MgmtForeignSpare)) {
        *status = MFI_STAT_NOT_FOUND;
        return NULL;
    }
    p = (const uint8_t *)(h + 1);
    v.dgs = g_byte_array_new();
    v.pds = g_byte_array_new();
    g_byte_array_append(v.dgs, p, ndgs * sizeof(MgmtDgEntry));
    for (uint32_t i = 0; i < ndgs; i++) {
        const MgmtDgEntry *g = cfg_dg(&v, i);

        for (int m = 0; m < g->nlisted; m++) {
            MgmtPdEntry e = {
                .slot = g->slots[m], .state = MGMT_PD_ONLINE, .dg = g->dg,
            };

            if (le16_to_cpu(e.slot) != MGMT_NONE16) {
                g_byte_array_append(v.pds, (uint8_t *)&e, sizeof(e));
            }
        }
    }
    p += ndgs * sizeof(MgmtDgEntry);
    lds = g_malloc0(MAX(nvds, 1) * MR_LD_CONFIG_SIZE);
    for (uint32_t i = 0; i < nvds; i++) {
        const MgmtVdInfo *vi = (const MgmtVdInfo *)(p + i * sizeof(*vi));

        mr9500_ld_conf_of(vi, le16_to_cpu(vi->e.vd),
                          lds + i * MR_LD_CONFIG_SIZE);
    }
    p += nvds * sizeof(MgmtVdInfo);
    for (uint32_t i = 0; i < nspares; i++) {
        const MgmtForeignSpare *fsp = (const MgmtForeignSpare *)p + i;
        bool dedicated = le16_to_cpu(fsp->dg) != MGMT_NONE16;
        MgmtPdEntry e = {
            .slot = fsp->slot, .state = MGMT_PD_HOT_SPARE,
            .spare_dg = fsp->dg,
            .flags = dedicated ? MGMT_PD_F_DEDICATED_SPARE
                               : MGMT_PD_F_GLOBAL_SPARE,
        };

        g_byte_array_append(v.pds, (uint8_t *)&e, sizeof(e));
    }
    buf = cfg_assemble(s, &v, lds, nvds, len);
    cfg_view_free(&v);
    return buf;
}

/* ---- running the requests of a change ---- */

static uint8_t cfg_mfi_status(const CfgStep *st, uint8_t mgmt)
{
    switch (mgmt) {
    case MGMT_STAT_OK:
        return MFI_STAT_OK;
    case MGMT_STAT_DEVICE_NOT_FOUND:
    case MGMT_STAT_VD_NOT_FOUND:
        return MFI_STAT_DEVICE_NOT_FOUND;
    case MGMT_STAT_DG_NOT_FOUND:
        return MFI_STAT_ARRAY_INDEX_INVALID;
    case MGMT_STAT_WRONG_STATE:
    case MGMT_STAT_BUSY:
    case MGMT_STAT_NO_JOB:
    case MGMT_STAT_INTERNAL:
        return MFI_STAT_WRONG_STATE;
    case MGMT_STAT_LIMIT:
        return st->limit_status;
    case MGMT_STAT_NO_FOREIGN:
        return MFI_STAT_NOT_FOUND;
    case MGMT_STAT_IO_ERROR:
        return MFI_STAT_SCSI_IO_FAILED;
    case MGMT_STAT_NOT_SUPPORTED:
        return MFI_STAT_LD_WRONG_RAID_LEVEL;
    default:
        return MFI_STAT_INVALID_PARAMETER;
    }
}

static void cfg_run_next(CfgRun *r);

static void cfg_run_next_bh(void *opaque)
{
    CfgRun *r = opaque;

    if (r->epoch != r->s->held_epoch) {
        g_array_unref(r->steps);
        g_array_unref(r->dgs);
        g_free(r);
        return;
    }
    cfg_run_next(r);
}

static void cfg_run_finish(CfgRun *r, uint8_t status)
{
    if (r->undoing) {
        status = r->fail;
    }
    trace_megaraid_9500_cfg_done(r->smid, r->dcmd, r->next, status);
    mr9500_mfi_complete(r->s, r->smid, r->queue, r->mfi_addr, status);
    g_array_unref(r->steps);
    g_array_unref(r->dgs);
    g_free(r);
}

static CfgStep *cfg_step(CfgRun *r, uint32_t op, uint32_t m0, uint32_t m1);

/* Undo the requests made so far, newest first, then answer @status. */
static void cfg_run_undo(CfgRun *r, uint8_t status)
{
    GArray *done = r->steps, *made = r->dgs;
    guint n = r->next;

    trace_megaraid_9500_cfg_undo(r->smid, n, status);
    r->steps = g_array_new(false, true, sizeof(CfgStep));
    r->dgs = g_array_new(false, true, sizeof(CfgMade));
    for (guint i = n; i-- > 0;) {
        const CfgStep *st = &g_array_index(done, CfgStep, i);
        int vd = g_array_index(made, CfgMade, i).vd;

        if (st->op == MGMT_OP_VD_CREATE && vd >= 0) {
            cfg_step(r, MGMT_OP_VD_DELETE, vd, MGMT_DELETE_F_FORCE);
        } else if (st->op == MGMT_OP_PD_SPARE_ADD) {
            cfg_step(r, MGMT_OP_PD_SPARE_REMOVE, st->mbox[0], 0);
        }
    }
    g_array_unref(done);
    g_array_unref(made);
    r->undoing = true;
    r->fail = status;
    r->next = 0;
    aio_bh_schedule_oneshot(qemu_get_aio_context(), cfg_run_next_bh, r);
}

static void cfg_run_done(void *opaque, size_t len)
{
    CfgRun *r = opaque;
    const CfgStep *st = &g_array_index(r->steps, CfgStep, r->next);
    uint8_t mgmt = len >= sizeof(MgmtReply) ? cfg_reply_status(r->resp)
                                           : MGMT_STAT_INTERNAL;
    CfgMade made = { -1, -1 };

    if (r->epoch != r->s->held_epoch) {
        /* the host session that asked is gone: nothing more to do */
        g_array_unref(r->steps);
        g_array_unref(r->dgs);
        g_free(r);
        return;
    }
    trace_megaraid_9500_cfg_step(r->smid, r->next, st->op, mgmt);
    if (mgmt != MGMT_STAT_OK && !r->undoing) {
        if (r->undoable && r->next) {
            cfg_run_undo(r, cfg_mfi_status(st, mgmt));
            return;
        }
        cfg_run_finish(r, cfg_mfi_status(st, mgmt));
        return;
    }
    if (st->op == MGMT_OP_VD_CREATE &&
        len >= sizeof(MgmtReply) + sizeof(MgmtVdEntry)) {
        const MgmtVdEntry *e =
            (const MgmtVdEntry *)(r->resp + sizeof(MgmtReply));

        made.dg = le16_to_cpu(e->dg);
        made.vd = le16_to_cpu(e->vd);
    }
    g_array_index(r->dgs, CfgMade, r->next) = made;
    r->next++;
    /*
     * Not from here: this may be the metadata writer's coroutine, where a
     * change's store would wait for the writer itself.
     */
    aio_bh_schedule_oneshot(qemu_get_aio_context(), cfg_run_next_bh, r);
}

static void cfg_run_next(CfgRun *r)
{
    uint8_t req[sizeof(MgmtRequest) + sizeof(((CfgStep *)0)->data)];
    CfgStep *st;
    size_t n;

    if (r->next >= r->steps->len) {
        cfg_run_finish(r, MFI_STAT_OK);
        return;
    }
    st = &g_array_index(r->steps, CfgStep, r->next);
    if (st->dg_of == CFG_VD_OF_PREVIOUS) {
        /* the VD the create before this step made */
        st->mbox[0] = g_array_index(r->dgs, CfgMade, r->next - 1).vd;
    } else if (st->dg_of >= 0) {
        int dg = g_array_index(r->dgs, CfgMade, st->dg_of).dg;

        if (dg < 0) {
            cfg_run_finish(r, MFI_STAT_WRONG_STATE);
            return;
        }
        st->mbox[1] = dg;           /* PD_SPARE_ADD: dedicated to it */
    }
    n = mr9500_mgmt_request(req, st->op, st->mbox, st->data, st->dlen);
    memset(r->resp, 0, sizeof(MgmtReply));
    mr_core_mgmt_execute_async(&r->s->core, mr9500_mgmt_host_ops(), r->s,
                               req, n, r->resp, sizeof(r->resp),
                               cfg_run_done, r);
}

static CfgRun *cfg_run_new(MR9500State *s, uint16_t smid, uint8_t queue,
                           uint64_t mfi_addr, uint32_t dcmd)
{
    CfgRun *r = g_new0(CfgRun, 1);

    r->s = s;
    r->epoch = s->held_epoch;
    r->smid = smid;
    r->queue = queue;
    r->mfi_addr = mfi_addr;
    r->dcmd = dcmd;
    r->steps = g_array_new(false, true, sizeof(CfgStep));
    r->dgs = g_array_new(false, true, sizeof(CfgMade));
    return r;
}

static CfgStep *cfg_step(CfgRun *r, uint32_t op, uint32_t m0, uint32_t m1)
{
    CfgStep st = {
        .op = op, .mbox = { m0, m1 }, .dg_of = -1,
        .limit_status = MFI_STAT_LD_MAX_CONFIGURED,
    };
    CfgMade none = { -1, -1 };

    g_array_append_val(r->steps, st);
    g_array_append_val(r->dgs, none);
    return &g_array_index(r->steps, CfgStep, r->steps->len - 1);
}

static void cfg_run_start(CfgRun *r)
{
    trace_megaraid_9500_cfg_run(r->smid, r->dcmd, r->steps->len);
    r->next = 0;
    cfg_run_next(r);
}

/* ---- CFG_ADD ---- */

/* Largest CFG_ADD accepted: every array and LD of the controller. */
#define CFG_ADD_MAX     (MR_CFG_HDR_SIZE + 256 * MR_ARRAY_SIZE + \
                         RAID_MAX_VDS * MR_LD_CONFIG_SIZE + \
                         64 * MR_SPARE_SIZE)

typedef struct CfgAddArray {
    uint16_t ref;
    int ndrives;
    int pd[32];
    uint64_t blocks;            /* smallest raw capacity of its drives */
    int ld;                     /* the LD of the request using it, -1 */
    int span;                   /* its span in that LD */
} CfgAddArray;

static int cfg_add_level(uint8_t prl, int spans, int *mgmt_level)
{
    switch (prl) {
    case 0:
        *mgmt_level = MGMT_LEVEL_0;
        return spans == 1 ? 0 : -1;
    case 1:
        *mgmt_level = spans > 1 ? MGMT_LEVEL_10 : MGMT_LEVEL_1;
        return 0;
    case 5:
        *mgmt_level = spans > 1 ? MGMT_LEVEL_50 : MGMT_LEVEL_5;
        return 0;
    case 6:
        *mgmt_level = spans > 1 ? MGMT_LEVEL_60 : MGMT_LEVEL_6;
        return 0;
    default:
        return -1;
    }
}

/* Data drives per span of a level's span of @width drives. */
static uint32_t cfg_data_drives(int level, int width)
{
    switch (level) {
    case MGMT_LEVEL_1:
    case MGMT_LEVEL_10:
        return 1;               /* the core's spans are n-way mirrors */
    case MGMT_LEVEL_5:
    case MGMT_LEVEL_50:
        return MAX(width - 1, 1);
    case MGMT_LEVEL_6:
    case MGMT_LEVEL_60:
        return MAX(width - 2, 1);
    default:
        return width;
    }
}

/* The smallest drive of the new arrays of LD @l (sectors). */
static uint64_t arr_blocks(const CfgAddArray *arr, uint32_t na, uint32_t l)
{
    uint64_t b = UINT64_MAX;

    for (uint32_t i = 0; i < na; i++) {
        if (arr[i].ld == (int)l) {
            b = MIN(b, arr[i].blocks);
        }
    }
    return b;
}

static bool cfg_drive_free(GByteArray *pds, MRDrive *d)
{
    const MgmtPdEntry *e = cfg_pd_entry(pds, d->slot);

    return e && (e->state == MGMT_PD_UNCONF_GOOD || e->state == MGMT_PD_JBOD);
}

static uint8_t cfg_add(MR9500State *s, CfgRun *r, const uint8_t *c,
                       uint32_t len)
{
    uint32_t total = ldl_le_p(c + MR_CFG_SIZE);
    uint32_t na = lduw_le_p(c + MR_CFG_ARRAY_COUNT);
    uint32_t asz = lduw_le_p(c + MR_CFG_ARRAY_SIZE);
    uint32_t nl = lduw_le_p(c + MR_CFG_LD_COUNT);
    uint32_t lsz = lduw_le_p(c + MR_CFG_LD_SIZE);
    uint32_t ns = lduw_le_p(c + MR_CFG_SPARE_COUNT);
    uint32_t ssz = lduw_le_p(c + MR_CFG_SPARE_SIZE);
    g_autofree CfgAddArray *arr = NULL;
    g_autofree int *ld_step = NULL;
    CfgView v;
    uint8_t st = MFI_STAT_OK;
    uint64_t need;
    const uint8_t *p;

    need = MR_CFG_HDR_SIZE + (uint64_t)na * asz + (uint64_t)nl * lsz +
           (uint64_t)ns * ssz;
    if (total < need || need > len || (na && asz < MR_ARRAY_HDR) ||
        (nl && lsz < MR_LD_CONFIG_SIZE) || (ns && ssz < MR_SPARE_HDR) ||
        (!nl && !ns) || nl > RAID_MAX_VDS) {
        trace_megaraid_9500_cfg_err_add("header", total);
        return MFI_STAT_INVALID_PARAMETER;
    }
    cfg_view(s, &v);
    arr = g_new0(CfgAddArray, MAX(na, 1));
    ld_step = g_new0(int, MAX(nl, 1));
    /* the arrays: drives that exist, are free and are named once */
    p = c + MR_CFG_HDR_SIZE;
    for (uint32_t i = 0; i < na && !st; i++, p += asz) {
        CfgAddArray *a = &arr[i];

        a->ref = lduw_le_p(p + MR_ARRAY_REF);
        a->ndrives = p[MR_ARRAY_NUM_DRIVES];
        a->ld = -1;
        a->blocks = UINT64_MAX;
        if (!a->ndrives || a->ndrives > 32 ||
            MR_ARRAY_HDR + a->ndrives * MR_ARRAY_PD_SIZE > asz ||
            cfg_array_exists(&v, a->ref)) {
            trace_megaraid_9500_cfg_err_add("array", a->ref);
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        for (uint32_t k = 0; k < i; k++) {
            if (arr[k].ref == a->ref) {
                trace_megaraid_9500_cfg_err_add("array ref twice", a->ref);
                st = MFI_STAT_INVALID_PARAMETER;
            }
        }
        for (int k = 0; k < a->ndrives && !st; k++) {
            uint16_t id = lduw_le_p(p + MR_ARRAY_HDR + k * MR_ARRAY_PD_SIZE +
                                    MR_ARRAY_PD_ID);
            MRDrive *d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;

            if (!d) {
                trace_megaraid_9500_cfg_err_add("no such drive", id);
                st = MFI_STAT_DEVICE_NOT_FOUND;
                break;
            }
            for (uint32_t j = 0; j <= i; j++) {
                for (int q = 0; q < (j == i ? k : arr[j].ndrives); q++) {
                    if (arr[j].pd[q] == id) {
                        trace_megaraid_9500_cfg_err_add("drive twice", id);
                        st = MFI_STAT_INVALID_PARAMETER;
                    }
                }
            }
            if (!st && !cfg_drive_free(v.pds, d)) {
                trace_megaraid_9500_cfg_err_add("drive in use", id);
                st = MFI_STAT_CONFIG_RESOURCE_CONFLICT;
            }
            a->pd[k] = id;
            a->blocks = MIN(a->blocks, d->unit.num_blocks *
                                       (d->unit.block_size / 512));
        }
    }
    /* the LDs: each on new arrays of equal width, or on one drive group */
    p = c + MR_CFG_HDR_SIZE + na * asz;
    for (uint32_t l = 0; l < nl && !st; l++, p += lsz) {
        uint8_t tgt = p[MR_LDP_TARGET_ID];
        int spans = p[MR_LDC_SPAN_DEPTH], width = p[MR_LDC_NUM_DRIVES];
        uint8_t stripe = p[MR_LDC_STRIPE];
        uint64_t blocks = ldq_le_p(p + MR_LDC_SPANS + MR_LDC_SPAN_BLOCKS);
        uint8_t cache = p[MR_LDP_DEFAULT_CACHE];
        MgmtVdCreate vc = { 0 };
        const MgmtDgEntry *g = NULL;
        int level, nnew = 0;
        CfgStep *step;
        uint16_t slots[RAID_MAX_MEMBERS];
        int nslots = 0;

        if (spans < 1 || spans > MR_LDC_MAX_SPANS ||
            cfg_add_level(p[MR_LDC_PRL], spans, &level) < 0) {
            trace_megaraid_9500_cfg_err_add("raid level", p[MR_LDC_PRL]);
            st = spans < 1 || spans > MR_LDC_MAX_SPANS
                 ? MFI_STAT_INVALID_PARAMETER : MFI_STAT_LD_WRONG_RAID_LEVEL;
            break;
        }
        if (stripe < 7 || stripe > 11 || (cache & ~MGMT_VDPROP_CACHE_MASK) ||
            p[MR_LDP_ACCESS] || p[MR_LDC_INIT_STATE] > 2 ||
            (tgt < RAID_MAX_VDS && mr_core_vd(&s->core, tgt))) {
            trace_megaraid_9500_cfg_err_add("ld parameters", tgt);
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        for (int sp = 0; sp < spans && !st; sp++) {
            const uint8_t *e = p + MR_LDC_SPANS + sp * MR_LDC_SPAN_SIZE;
            uint16_t ref = lduw_le_p(e + MR_LDC_SPAN_ARRAY);
            uint32_t i;

            for (i = 0; i < na && arr[i].ref != ref; i++) {
                continue;
            }
            if (i < na) {
                /* a new array: once, in one LD, all of one width */
                if (arr[i].ld >= 0 || arr[i].ndrives != width) {
                    trace_megaraid_9500_cfg_err_add("array reused", ref);
                    st = MFI_STAT_INVALID_PARAMETER;
                    break;
                }
                if (ldq_le_p(e + MR_LDC_SPAN_BLOCKS) > arr[i].blocks) {
                    trace_megaraid_9500_cfg_err_add("does not fit", ref);
                    st = MFI_STAT_DRIVE_TOO_SMALL;
                    break;
                }
                arr[i].ld = l;
                arr[i].span = sp;
                for (int k = 0; k < width; k++) {
                    slots[nslots++] = s->pd[arr[i].pd[k]]->slot;
                }
                nnew++;
                continue;
            }
            /* an array of the configuration: its span sp, of one group */
            g = cfg_dg_by_index(&v, ref / MR_LDC_MAX_SPANS);
            if (!g || ref % MR_LDC_MAX_SPANS != sp || g->nspans != spans ||
                g->span_width != width) {
                trace_megaraid_9500_cfg_err_add("unknown array", ref);
                st = MFI_STAT_ARRAY_INDEX_INVALID;
            }
        }
        if (st) {
            break;
        }
        if (nnew && nnew != spans) {
            trace_megaraid_9500_cfg_err_add("new and old arrays", tgt);
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        vc.level = level;
        vc.nspans = nnew ? spans : 0;
        vc.ndrives = nnew ? nslots : 0;
        vc.cache = (cache & RAID_CACHE_WRITE_BACK ? MGMT_CACHE_WRITE_BACK : 0) |
                   (cache & RAID_CACHE_WB_NO_BATTERY ? MGMT_CACHE_ALWAYS_WB
                                                     : 0) |
                   (cache & RAID_CACHE_READ_AHEAD ? MGMT_CACHE_READ_AHEAD : 0);
        vc.strip_kib = cpu_to_le32((1u << stripe) / 2);
        vc.dg = cpu_to_le16(nnew ? MGMT_NONE16 : le16_to_cpu(g->dg));
        vc.flags = p[MR_LDC_INIT_STATE] == 2 ? MGMT_CREATE_F_INIT : 0;
        memcpy(vc.name, p + MR_LDP_NAME, MGMT_VD_NAME_LEN);
        /* per member: all of it, or what the tool asks */
        if (blocks && blocks < (nnew ? arr_blocks(arr, na, l)
                                     : le64_to_cpu(g->free_sectors))) {
            vc.size_sectors = cpu_to_le64(blocks * cfg_data_drives(level,
                                                                   width) *
                                          spans);
        }
        QEMU_BUILD_BUG_ON(sizeof(vc) + 2 * ARRAY_SIZE(slots) >
                          sizeof(step->data));
        step = cfg_step(r, MGMT_OP_VD_CREATE, 0, 0);
        memcpy(step->data, &vc, sizeof(vc));
        for (int k = 0; k < nslots; k++) {
            stw_le_p(step->data + sizeof(vc) + 2 * k, slots[k]);
        }
        step->dlen = sizeof(vc) + 2 * nslots;
        ld_step[l] = r->steps->len - 1;
        /* the cache bits VD_CREATE does not take, as the tool sent them */
        step = cfg_step(r, MGMT_OP_VD_SET_PROPS, 0, MGMT_VDPROP_CACHE);
        step->data[0] = cache;
        memcpy(step->data + 4, p + MR_LDP_NAME, MGMT_VD_NAME_LEN);
        step->dlen = sizeof(MgmtVdProps);
        step->dg_of = CFG_VD_OF_PREVIOUS;
    }
    for (uint32_t i = 0; i < na && !st; i++) {
        if (arr[i].ld < 0) {
            /* an array with no LD: the core keeps no empty drive group */
            trace_megaraid_9500_cfg_err_add("array without LD", arr[i].ref);
            st = MFI_STAT_INVALID_PARAMETER;
        }
    }
    /* the hot spares */
    p = c + MR_CFG_HDR_SIZE + na * asz + nl * lsz;
    for (uint32_t i = 0; i < ns && !st; i++, p += ssz) {
        uint16_t id = lduw_le_p(p + MR_SPARE_PD_ID);
        MRDrive *d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;
        uint8_t cnt = p[MR_SPARE_ARRAY_COUNT];
        CfgStep *step;

        if (!d) {
            st = MFI_STAT_DEVICE_NOT_FOUND;
            break;
        }
        if (!cfg_drive_free(v.pds, d)) {
            st = MFI_STAT_CONFIG_RESOURCE_CONFLICT;
            break;
        }
        step = cfg_step(r, MGMT_OP_PD_SPARE_ADD, d->slot, MGMT_NONE32);
        step->limit_status = MFI_STAT_MAX_SPARES_EXCEEDED;
        if (!(p[MR_SPARE_TYPE] & MR_SPARE_DEDICATED)) {
            continue;
        }
        if (!cnt || cnt > MR_SPARE_MAX_ARRAYS ||
            MR_SPARE_HDR + 2u * cnt > ssz) {
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        {
            uint16_t ref = lduw_le_p(p + MR_SPARE_ARRAYS);
            const MgmtDgEntry *g = cfg_dg_by_index(&v, ref / MR_LDC_MAX_SPANS);
            uint32_t k;

            for (k = 0; k < na && arr[k].ref != ref; k++) {
                continue;
            }
            if (k < na) {
                step->dg_of = ld_step[arr[k].ld];
            } else if (g) {
                step->mbox[1] = le16_to_cpu(g->dg);
            } else {
                st = MFI_STAT_ARRAY_INDEX_INVALID;
            }
        }
    }
    cfg_view_free(&v);
    return st;
}

/* ---- CFG_CLEAR, spares, LDs ---- */

/* A VD with a job running: the MFI status that refuses deleting it. */
static uint8_t cfg_vd_busy(MRVirtualDisk *vd)
{
    switch (mr_vd_conf(vd)->job.kind) {
    case RAID_JOB_REBUILD:
        return MFI_STAT_LD_RBLD_IN_PROGRESS;
    case RAID_JOB_CHECK:
        return MFI_STAT_LD_CC_IN_PROGRESS;
    case RAID_JOB_INIT:
        return MFI_STAT_LD_INIT_IN_PROGRESS;
    default:
        return MFI_STAT_OK;
    }
}

static uint8_t cfg_clear(MR9500State *s, CfgRun *r)
{
    CfgView v;

    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        MRVirtualDisk *vd = mr_core_vd(&s->core, t);

        if (vd && cfg_vd_busy(vd)) {
            return cfg_vd_busy(vd);
        }
    }
    cfg_view(s, &v);
    for (guint i = 0; i < v.pds->len; i += sizeof(MgmtPdEntry)) {
        const MgmtPdEntry *e = (const MgmtPdEntry *)(v.pds->data + i);

        if (e->state == MGMT_PD_HOT_SPARE) {
            cfg_step(r, MGMT_OP_PD_SPARE_REMOVE, le16_to_cpu(e->slot), 0);
        }
    }
    cfg_view_free(&v);
    for (uint32_t t = 0; t < RAID_MAX_VDS; t++) {
        if (mr_core_vd(&s->core, t)) {
            cfg_step(r, MGMT_OP_VD_DELETE, t, 0);
        }
    }
    return MFI_STAT_OK;
}

/* CFG_MAKE_SPARE: an mfi_spare (PD, type, the arrays it backs). */
static uint8_t cfg_make_spare(MR9500State *s, CfgRun *r, const uint8_t *sp,
                              uint32_t len)
{
    uint16_t id = lduw_le_p(sp + MR_SPARE_PD_ID);
    MRDrive *d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;
    bool dedicated = sp[MR_SPARE_TYPE] & MR_SPARE_DEDICATED;
    uint8_t cnt = sp[MR_SPARE_ARRAY_COUNT];
    uint32_t dg = MGMT_NONE32;
    CfgStep *step;
    CfgView v;
    uint8_t st = MFI_STAT_OK;

    if ((dedicated && !cnt) || cnt > MR_SPARE_MAX_ARRAYS ||
        MR_SPARE_HDR + 2u * cnt > len) {
        trace_megaraid_9500_cfg_err_add("spare arrays", cnt);
        return MFI_STAT_INVALID_PARAMETER;
    }
    if (!d) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    cfg_view(s, &v);
    /* a dedicated spare backs the arrays (spans) of one drive group */
    for (int i = 0; i < cnt && dedicated; i++) {
        uint16_t ref = lduw_le_p(sp + MR_SPARE_ARRAYS + 2 * i);
        const MgmtDgEntry *g = cfg_dg_by_index(&v, ref / MR_LDC_MAX_SPANS);

        if (!g || ref % MR_LDC_MAX_SPANS >= g->nspans ||
            (dg != MGMT_NONE32 && dg != le16_to_cpu(g->dg))) {
            trace_megaraid_9500_cfg_err_add("spare array", ref);
            st = MFI_STAT_ARRAY_INDEX_INVALID;
            break;
        }
        dg = le16_to_cpu(g->dg);
    }
    if (!st && !cfg_drive_free(v.pds, d)) {
        st = MFI_STAT_CONFIG_RESOURCE_CONFLICT;
    }
    cfg_view_free(&v);
    if (st) {
        return st;
    }
    step = cfg_step(r, MGMT_OP_PD_SPARE_ADD, d->slot, dg);
    step->limit_status = MFI_STAT_MAX_SPARES_EXCEEDED;
    return MFI_STAT_OK;
}

static MRVirtualDisk *cfg_ld(MR9500State *s, const uint8_t *mbox)
{
    return mr9500_ld_vd(s, mbox[0]);
}

/* LD_GET_PROPERTIES: the first 32 bytes of the LD's configuration. */
static uint8_t cfg_ld_props(MR9500State *s, const uint8_t *mbox, uint8_t *p)
{
    uint8_t li[MR_LD_INFO_SIZE] = { 0 };
    uint8_t st = mr9500_ld_info(s, mbox[0], li);

    memcpy(p, li, MR_LD_PROPS_SIZE);
    return st;
}

/* LD_SET_PROPERTIES: the name and the default cache policy. */
static uint8_t cfg_ld_set_props(MR9500State *s, CfgRun *r,
                                const uint8_t *mbox, const uint8_t *p)
{
    MRVirtualDisk *vd = cfg_ld(s, mbox);
    CfgStep *step;

    if (!vd) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    if (p[MR_LDP_TARGET_ID] != mbox[0] ||
        (p[MR_LDP_DEFAULT_CACHE] & ~MGMT_VDPROP_CACHE_MASK) ||
        p[MR_LDP_ACCESS] || p[MR_LDP_DISK_CACHE]) {
        /* read-only and blocked access, the drives' own caches: not kept */
        trace_megaraid_9500_cfg_err_add("ld properties", mbox[0]);
        return MFI_STAT_INVALID_PARAMETER;
    }
    step = cfg_step(r, MGMT_OP_VD_SET_PROPS, mr_vd_index(vd),
                    MGMT_VDPROP_CACHE | MGMT_VDPROP_NAME);
    step->data[0] = p[MR_LDP_DEFAULT_CACHE];
    memcpy(step->data + 4, p + MR_LDP_NAME, MGMT_VD_NAME_LEN);
    step->dlen = sizeof(MgmtVdProps);
    return MFI_STAT_OK;
}

static uint8_t cfg_ld_delete(MR9500State *s, CfgRun *r, const uint8_t *mbox)
{
    MRVirtualDisk *vd = cfg_ld(s, mbox);

    if (!vd) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    if (cfg_vd_busy(vd)) {
        return cfg_vd_busy(vd);
    }
    cfg_step(r, MGMT_OP_VD_DELETE, mr_vd_index(vd), 0);
    return MFI_STAT_OK;
}

/* LD_INIT_START: a full (zeroing) initialization of the LD. */
static uint8_t cfg_ld_init(MR9500State *s, CfgRun *r, const uint8_t *mbox)
{
    MRVirtualDisk *vd = cfg_ld(s, mbox);
    CfgStep *step;

    if (!vd) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    if (cfg_vd_busy(vd)) {
        return cfg_vd_busy(vd);
    }
    step = cfg_step(r, MGMT_OP_JOB_CONTROL, mr_vd_index(vd), MGMT_JOB_INIT);
    step->mbox[2] = MGMT_JOB_START;
    return MFI_STAT_OK;
}

/* ---- foreign configurations ---- */

/* FOREIGN_SCAN: one configuration per controller GUID found. */
static void cfg_foreign_scan(MR9500State *s, uint8_t *out)
{
    GByteArray *l = cfg_list(s, MGMT_OP_FOREIGN_SHOW,
                             sizeof(MgmtForeignEntry));
    uint32_t n = 0;

    for (guint i = 0; i < l->len; i += sizeof(MgmtForeignEntry)) {
        const MgmtForeignEntry *e = (const MgmtForeignEntry *)(l->data + i);
        uint32_t k;

        for (k = 0; k < n && memcmp(out + 4 + 24 * k, e->ctrl_guid, 24); k++) {
            continue;
        }
        if (k == n && n < 8) {
            memcpy(out + 4 + 24 * n++, e->ctrl_guid, 24);
        }
    }
    stl_le_p(out, n);
    g_byte_array_unref(l);
}

/* ---- the DCMDs ---- */

MR9500CfgAnswer mr9500_cfg_dcmd(MR9500State *s, uint32_t opcode,
                                uint16_t smid, uint8_t queue,
                                uint64_t mfi_addr, const uint8_t *f,
                                uint8_t **buf, uint32_t *len,
                                uint8_t *status)
{
    const uint8_t *mbox = f + MFI_DCMD_MBOX;
    uint32_t xfer = ldl_le_p(f + MFI_HDR_XFER_LEN);
    g_autofree uint8_t *in = NULL;
    CfgRun *r;
    uint8_t st = MFI_STAT_OK;

    switch (opcode) {
    case MR_DCMD_CFG_READ:
        if (xfer < MR_CFG_HDR_SIZE) {
            trace_megaraid_9500_cfg_err_buffer(opcode, xfer);
            *status = MFI_STAT_INVALID_PARAMETER;
            return MR9500_CFG_ANSWERED;
        }
        /* as much as the buffer holds: the header says how much there is */
        *buf = cfg_read(s, len);
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_LD_GET_PROPERTIES:
        if (xfer < MR_LD_PROPS_SIZE) {
            trace_megaraid_9500_cfg_err_buffer(opcode, xfer);
            *status = MFI_STAT_INVALID_PARAMETER;
            return MR9500_CFG_ANSWERED;
        }
        *len = MR_LD_PROPS_SIZE;
        *buf = g_malloc0(*len);
        *status = cfg_ld_props(s, mbox, *buf);
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CFG_FOREIGN_SCAN:
        *len = MR_FOREIGN_SCAN_SIZE;
        *buf = g_malloc0(*len);
        cfg_foreign_scan(s, *buf);
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CFG_FOREIGN_DISPLAY:
    case MR_DCMD_CFG_FOREIGN_PREVIEW:
        if (xfer < MR_CFG_HDR_SIZE) {
            trace_megaraid_9500_cfg_err_buffer(opcode, xfer);
            *status = MFI_STAT_INVALID_PARAMETER;
            return MR9500_CFG_ANSWERED;
        }
        *buf = cfg_foreign_read(s, mbox[0], len, status);
        return MR9500_CFG_ANSWERED;
    case MR_DCMD_CFG_ADD:
    case MR_DCMD_CFG_CLEAR:
    case MR_DCMD_CFG_MAKE_SPARE:
    case MR_DCMD_CFG_REMOVE_SPARE:
    case MR_DCMD_LD_SET_PROPERTIES:
    case MR_DCMD_LD_DELETE:
    case MR_DCMD_LD_INIT_START:
    case MR_DCMD_CFG_FOREIGN_IMPORT:
    case MR_DCMD_CFG_FOREIGN_CLEAR:
        break;
    default:
        return MR9500_CFG_NOT_MINE;
    }

    /* the changes: the data the tool sent, checked, then the requests */
    r = cfg_run_new(s, smid, queue, mfi_addr, opcode);
    r->undoable = opcode == MR_DCMD_CFG_ADD;
    switch (opcode) {
    case MR_DCMD_CFG_ADD:
    case MR_DCMD_CFG_MAKE_SPARE:
    case MR_DCMD_LD_SET_PROPERTIES: {
        uint32_t min = opcode == MR_DCMD_CFG_ADD ? MR_CFG_HDR_SIZE :
                       opcode == MR_DCMD_CFG_MAKE_SPARE ? MR_SPARE_HDR
                                                        : MR_LD_PROPS_SIZE;

        if (xfer < min || xfer > CFG_ADD_MAX) {
            trace_megaraid_9500_cfg_err_buffer(opcode, xfer);
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        in = g_malloc0(xfer);
        if (!mr9500_mfi_from_host(s, f, in, xfer)) {
            trace_megaraid_9500_cfg_err_buffer(opcode, xfer);
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        st = opcode == MR_DCMD_CFG_ADD ? cfg_add(s, r, in, xfer) :
             opcode == MR_DCMD_CFG_MAKE_SPARE ? cfg_make_spare(s, r, in, xfer)
                                              : cfg_ld_set_props(s, r, mbox,
                                                                 in);
        break;
    }
    case MR_DCMD_CFG_CLEAR:
        st = cfg_clear(s, r);
        break;
    case MR_DCMD_CFG_REMOVE_SPARE: {
        uint16_t id = lduw_le_p(mbox);
        MRDrive *d = id < MR9500_MAX_PDS ? s->pd[id] : NULL;

        if (!d) {
            st = MFI_STAT_DEVICE_NOT_FOUND;
            break;
        }
        cfg_step(r, MGMT_OP_PD_SPARE_REMOVE, d->slot, 0);
        break;
    }
    case MR_DCMD_LD_DELETE:
        st = cfg_ld_delete(s, r, mbox);
        break;
    case MR_DCMD_LD_INIT_START:
        st = cfg_ld_init(s, r, mbox);
        break;
    case MR_DCMD_CFG_FOREIGN_IMPORT:
    case MR_DCMD_CFG_FOREIGN_CLEAR: {
        uint8_t scan[MR_FOREIGN_SCAN_SIZE];

        cfg_foreign_scan(s, scan);
        /* the core imports (or clears) every foreign drive at once */
        if (opcode == MR_DCMD_CFG_FOREIGN_IMPORT && mbox[0] != 0xFF &&
            (mbox[0] >= ldl_le_p(scan) || ldl_le_p(scan) > 1)) {
            st = MFI_STAT_INVALID_PARAMETER;
            break;
        }
        cfg_step(r, opcode == MR_DCMD_CFG_FOREIGN_IMPORT
                    ? MGMT_OP_FOREIGN_IMPORT : MGMT_OP_FOREIGN_CLEAR,
                 MGMT_NONE32, 0);
        break;
    }
    }
    if (st != MFI_STAT_OK) {
        trace_megaraid_9500_cfg_refused(smid, opcode, st);
        g_array_unref(r->steps);
        g_array_unref(r->dgs);
        g_free(r);
        *status = st;
        return MR9500_CFG_ANSWERED;
    }
    /* held until the last request's metadata is on the drives */
    cfg_run_start(r);
    return MR9500_CFG_HELD;
}
