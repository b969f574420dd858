/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's request envelope and dispatch,
 * and the controller's own operations (information, properties,
 * CacheVault status).  A request is checked field by field before its
 * handler runs (magic, version, header length, flags, data-out length
 * against the buffer, unused mailbox words, the opcode's exact data-out
 * length); a refusal names the field in the reply.  Host-neutral: the
 * caller moved the bytes in and moves the reply out (mgmt-ops.h).
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "mgmt-ops.h"
#include "array-config.h"
#include "trace.h"

#define MGMT_DATA_ANY   (-1)    /* the handler checks data_len itself */

/* The protocol's sizes (mgmt-proto.h): a change breaks every guest tool. */
QEMU_BUILD_BUG_ON(sizeof(MgmtRequest) != 40);
QEMU_BUILD_BUG_ON(sizeof(MgmtReply) != 32);
QEMU_BUILD_BUG_ON(sizeof(MgmtListHeader) != 24);
QEMU_BUILD_BUG_ON(sizeof(MgmtCtrlInfo) != 176);
QEMU_BUILD_BUG_ON(sizeof(MgmtCtrlProps) != 16);
QEMU_BUILD_BUG_ON(sizeof(MgmtPdEntry) != 32);
QEMU_BUILD_BUG_ON(sizeof(MgmtPdInfo) != 232);
QEMU_BUILD_BUG_ON(sizeof(MgmtDgEntry) != 96);
QEMU_BUILD_BUG_ON(sizeof(MgmtForeignConfig) != 32);
QEMU_BUILD_BUG_ON(sizeof(MgmtForeignSpare) != 8);
QEMU_BUILD_BUG_ON(sizeof(MgmtVdEntry) != 48);
QEMU_BUILD_BUG_ON(sizeof(MgmtJobStatus) != 48);
QEMU_BUILD_BUG_ON(sizeof(MgmtVdMember) != 4);
QEMU_BUILD_BUG_ON(sizeof(MgmtVdInfo) != 160);
QEMU_BUILD_BUG_ON(sizeof(MgmtVdCreate) != 40);
QEMU_BUILD_BUG_ON(sizeof(MgmtForeignEntry) != 36);
QEMU_BUILD_BUG_ON(sizeof(MgmtCvStatus) != 40);
QEMU_BUILD_BUG_ON(sizeof(MgmtEvlogInfo) != 32);
QEMU_BUILD_BUG_ON(sizeof(MgmtEvent) != 128);
QEMU_BUILD_BUG_ON(offsetof(MgmtCtrlInfo, levels) != 132);
QEMU_BUILD_BUG_ON(offsetof(MgmtVdCreate, name) != 20);

typedef struct MgmtOpDesc {
    uint32_t opcode;
    const char *name;
    uint8_t mbox_used;          /* bit i: mbox[i] is an argument */
    int32_t data_len;           /* exact data-out length, or ANY */
    uint8_t (*fn)(MgmtCtx *c);
} MgmtOpDesc;

/* ---- helpers for every handler ---- */

uint8_t mgmt_refuse(MgmtCtx *c, uint8_t status, uint16_t offset,
                    uint32_t value)
{
    c->err_offset = offset;
    c->err_value = value;
    return status;
}

uint8_t mgmt_bad_mbox(MgmtCtx *c, int i)
{
    return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER, MGMT_OFF_MBOX(i),
                       c->mbox[i]);
}

uint8_t mgmt_need(MgmtCtx *c, size_t len)
{
    if (len > c->out_cap) {
        return mgmt_refuse(c, MGMT_STAT_RESP_TOO_SMALL, MGMT_ERR_OFFSET_NONE,
                           len + sizeof(MgmtReply));
    }
    return MGMT_STAT_OK;
}

void mgmt_strpad(char *dst, size_t len, const char *src)
{
    memset(dst, 0, len);
    if (src) {
        memcpy(dst, src, MIN(strlen(src), len - 1));
    }
}

/* ---- controller ---- */

static uint8_t mgmt_op_ctrl_info(MgmtCtx *c)
{
    MRArray *a = c->a;
    RaidConfig *cfg = a->cfg;
    MgmtCtrlInfo *ci = (MgmtCtrlInfo *)c->out;
    uint8_t st = mgmt_need(c, sizeof(*ci));
    g_autoptr(GPtrArray) drives = NULL;
    uint16_t dgs = 0;

    if (st) {
        return st;
    }
    memset(ci, 0, sizeof(*ci));
    mgmt_strpad(ci->product, sizeof(ci->product), a->product);
    mgmt_strpad(ci->serial, sizeof(ci->serial),
                c->m->serial ? c->m->serial : RAID_DEFAULT_SERIAL);
    mgmt_strpad(ci->fw_version, sizeof(ci->fw_version), c->m->fw_version);
    ci->pci_vendor = cpu_to_le16(a->ctrl_type[0]);
    ci->pci_device = cpu_to_le16(a->ctrl_type[1]);
    ci->pci_subvendor = cpu_to_le16(a->ctrl_type[2]);
    ci->pci_subdevice = cpu_to_le16(a->ctrl_type[3]);
    ci->max_pds = cpu_to_le16(RAID_MAX_PDS);
    ci->max_vds = cpu_to_le16(RAID_MAX_VDS);
    ci->max_dgs = cpu_to_le16(RAID_MAX_DGS);
    ci->max_spans = cpu_to_le16(RAID_MAX_SPANS);
    ci->max_drives_per_span = cpu_to_le16(RAID_MAX_DRIVES_PER_SPAN);
    ci->max_vds_per_dg = cpu_to_le16(RAID_MAX_VDS_PER_DG);
    ci->max_global_spares = cpu_to_le16(RAID_MAX_GLOBAL_SPARES);
    ci->max_dedicated_spares = cpu_to_le16(RAID_MAX_DEDICATED_SPARES);
    drives = mgmt_drives(c);
    ci->num_pds = cpu_to_le16(drives->len);
    if (cfg) {
        for (int g = 0; g < RAID_MAX_DGS; g++) {
            dgs += cfg->dgs[g].used;
        }
        ci->num_vds = cpu_to_le16(raid_config_count_vds(cfg));
        ci->num_dgs = cpu_to_le16(dgs);
        ci->num_global_spares =
            cpu_to_le16(raid_config_count_spares(cfg, false));
        ci->num_dedicated_spares =
            cpu_to_le16(raid_config_count_spares(cfg, true));
    }
    for (guint i = 0; i < drives->len; i++) {
        if (mgmt_pd_state(a, drives->pdata[i]) == MGMT_PD_FOREIGN) {
            ci->num_foreign_pds = cpu_to_le16(le16_to_cpu(
                                      ci->num_foreign_pds) + 1);
        }
    }
    ci->levels = cpu_to_le64(1ull << MGMT_LEVEL_0 | 1ull << MGMT_LEVEL_1 |
                             1ull << MGMT_LEVEL_5 | 1ull << MGMT_LEVEL_6 |
                             1ull << MGMT_LEVEL_10 | 1ull << MGMT_LEVEL_50 |
                             1ull << MGMT_LEVEL_60);
    ci->strip_min_kib = cpu_to_le32(64);
    ci->strip_max_kib = cpu_to_le32(1024);
    ci->cache_bytes = cpu_to_le64(a->cache_bytes);
    ci->cachevault = a->cachevault;
    ci->roc_temp_c = a->roc_temp_c;
    ci->cv_temp_c = a->cachevault == MR_CV_ABSENT ? 0 : a->cv_temp_c;
    c->out_len = sizeof(*ci);
    return MGMT_STAT_OK;
}

static void mgmt_get_props(MgmtCtx *c, MgmtCtrlProps *p)
{
    memset(p, 0, sizeof(*p));
    p->rebuild_rate = c->a->rebuild_rate;
    p->cc_rate = c->a->cc_rate;
    p->init_rate = c->a->init_rate;
    p->patrol_read = mgmt_patrol_on(c->a);
    p->auto_rebuild = c->a->auto_rebuild;
    p->cache_flush_s = MAX(c->a->cache_flush_s, 1);
}

static uint8_t mgmt_op_ctrl_get_props(MgmtCtx *c)
{
    uint8_t st = mgmt_need(c, sizeof(MgmtCtrlProps));

    if (st) {
        return st;
    }
    mgmt_get_props(c, (MgmtCtrlProps *)c->out);
    c->out_len = sizeof(MgmtCtrlProps);
    return MGMT_STAT_OK;
}

static uint8_t mgmt_op_ctrl_set_props(MgmtCtx *c)
{
    MgmtCtrlProps p;
    uint32_t mask = c->mbox[0];
    uint8_t st = mgmt_need(c, sizeof(MgmtCtrlProps));
    static const struct {
        uint32_t bit;
        size_t off;
        uint8_t min, max;
    } rules[] = {
        { MGMT_PROP_REBUILD_RATE, offsetof(MgmtCtrlProps, rebuild_rate),
          0, 100 },
        { MGMT_PROP_CC_RATE, offsetof(MgmtCtrlProps, cc_rate), 0, 100 },
        { MGMT_PROP_INIT_RATE, offsetof(MgmtCtrlProps, init_rate), 0, 100 },
        { MGMT_PROP_PATROL_READ, offsetof(MgmtCtrlProps, patrol_read), 0, 1 },
        { MGMT_PROP_AUTO_REBUILD, offsetof(MgmtCtrlProps, auto_rebuild),
          0, 1 },
        { MGMT_PROP_CACHE_FLUSH, offsetof(MgmtCtrlProps, cache_flush_s),
          1, 255 },
    };

    if (st) {
        return st;
    }
    if (!mask || (mask & ~MGMT_PROP_MASK)) {
        return mgmt_bad_mbox(c, 0);
    }
    memcpy(&p, c->data, sizeof(p));
    for (size_t i = 0; i < sizeof(p.reserved); i++) {
        if (p.reserved[i]) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               MGMT_OFF_DATA(offsetof(MgmtCtrlProps,
                                                      reserved) + i),
                               p.reserved[i]);
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
        uint8_t v = c->data[rules[i].off];

        if ((mask & rules[i].bit) && (v < rules[i].min || v > rules[i].max)) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               MGMT_OFF_DATA(rules[i].off), v);
        }
    }
    if (mask & MGMT_PROP_REBUILD_RATE) {
        c->a->rebuild_rate = p.rebuild_rate;
    }
    if (mask & MGMT_PROP_CC_RATE) {
        c->a->cc_rate = p.cc_rate;
    }
    if (mask & MGMT_PROP_INIT_RATE) {
        c->a->init_rate = p.init_rate;
    }
    if (mask & MGMT_PROP_PATROL_READ) {
        mgmt_patrol_set_on(c->a, p.patrol_read);
    }
    if (mask & MGMT_PROP_AUTO_REBUILD) {
        c->a->auto_rebuild = p.auto_rebuild;
    }
    if (mask & MGMT_PROP_CACHE_FLUSH) {
        c->a->cache_flush_s = p.cache_flush_s;
    }
    trace_megaraid_mgmt_set_props(mask, c->a->rebuild_rate, c->a->cc_rate,
                                  c->a->init_rate);
    mgmt_get_props(c, (MgmtCtrlProps *)c->out);
    c->out_len = sizeof(MgmtCtrlProps);
    return MGMT_STAT_OK;
}

static uint8_t mgmt_op_cv_status(MgmtCtx *c)
{
    MgmtCvStatus *cv = (MgmtCvStatus *)c->out;
    MRCacheStats cs = { 0 };
    uint8_t st = mgmt_need(c, sizeof(*cv));

    if (st) {
        return st;
    }
    if (c->a->cfg && c->a->imported) {
        mr_cache_stats(c->a, &cs);
    }
    memset(cv, 0, sizeof(*cv));
    cv->state = c->a->cachevault;
    cv->write_back_ok = c->a->cachevault == MR_CV_OPTIMAL &&
                        c->a->journal_blk != NULL;
    cv->flush_interval_s = MAX(c->a->cache_flush_s, 1);
    cv->cache_bytes = cpu_to_le64(c->a->cache_bytes);
    cv->dirty_bytes = cpu_to_le64(cs.dirty_bytes);
    cv->journal_records = cpu_to_le64(cs.journal_records);
    cv->journal_bytes = cpu_to_le64(cs.journal_bytes);
    c->out_len = sizeof(*cv);
    return MGMT_STAT_OK;
}

/* ---- dispatch ---- */

#define M0      0x1
#define M01     0x3
#define M012    0x7
#define M0123   0xf

static const MgmtOpDesc mgmt_ops[] = {
    { MGMT_OP_CTRL_GET_INFO, "ctrl-get-info", 0, 0, mgmt_op_ctrl_info },
    { MGMT_OP_CTRL_GET_PROPS, "ctrl-get-props", 0, 0,
      mgmt_op_ctrl_get_props },
    { MGMT_OP_CTRL_SET_PROPS, "ctrl-set-props", M0, sizeof(MgmtCtrlProps),
      mgmt_op_ctrl_set_props },
    { MGMT_OP_PD_LIST, "pd-list", M01, 0, mgmt_op_pd_list },
    { MGMT_OP_PD_INFO, "pd-info", M0, 0, mgmt_op_pd_info },
    { MGMT_OP_PD_SET_STATE, "pd-set-state", M012, 0, mgmt_op_pd_set_state },
    { MGMT_OP_PD_SPARE_ADD, "pd-spare-add", M01, 0, mgmt_op_spare_add },
    { MGMT_OP_PD_SPARE_REMOVE, "pd-spare-remove", M0, 0,
      mgmt_op_spare_remove },
    { MGMT_OP_DG_LIST, "dg-list", M01, 0, mgmt_op_dg_list },
    { MGMT_OP_VD_LIST, "vd-list", M01, 0, mgmt_op_vd_list },
    { MGMT_OP_VD_INFO, "vd-info", M0, 0, mgmt_op_vd_info },
    { MGMT_OP_VD_CREATE, "vd-create", 0, MGMT_DATA_ANY, mgmt_op_vd_create },
    { MGMT_OP_VD_DELETE, "vd-delete", M01, 0, mgmt_op_vd_delete },
    { MGMT_OP_JOB_CONTROL, "job-control", M0123, 0, mgmt_op_job_control },
    { MGMT_OP_JOB_STATUS, "job-status", M0, 0, mgmt_op_job_status },
    { MGMT_OP_FOREIGN_SHOW, "foreign-show", M01, 0, mgmt_op_foreign_show },
    { MGMT_OP_FOREIGN_IMPORT, "foreign-import", M0, 0,
      mgmt_op_foreign_import },
    { MGMT_OP_FOREIGN_CLEAR, "foreign-clear", M0, 0, mgmt_op_foreign_clear },
    { MGMT_OP_FOREIGN_CONFIG, "foreign-config", M0, 0,
      mgmt_op_foreign_config },
    { MGMT_OP_CV_STATUS, "cv-status", 0, 0, mgmt_op_cv_status },
    { MGMT_OP_EVLOG_INFO, "evlog-info", 0, 0, mgmt_op_evlog_info },
    { MGMT_OP_EVLOG_READ, "evlog-read", M01, 0, mgmt_op_evlog_read },
    { MGMT_OP_VD_SET_PROPS, "vd-set-props", M01, sizeof(MgmtVdProps),
      mgmt_op_vd_set_props },
    { MGMT_OP_PATROL_CONTROL, "patrol-control", M01, 0,
      mgmt_op_patrol_control },
    { MGMT_OP_PATROL_STATUS, "patrol-status", 0, 0, mgmt_op_patrol_status },
    { MGMT_OP_PD_LOCATE, "pd-locate", M012, 0, mgmt_op_pd_locate },
};

static const MgmtOpDesc *mgmt_find(uint32_t opcode)
{
    for (size_t i = 0; i < ARRAY_SIZE(mgmt_ops); i++) {
        if (mgmt_ops[i].opcode == opcode) {
            return &mgmt_ops[i];
        }
    }
    return NULL;
}

/* The envelope's checks; then the opcode's own. */
static uint8_t mgmt_dispatch(MgmtCtx *c, const uint8_t *cmd, size_t cmd_len)
{
    const MgmtOpDesc *op;
    uint32_t magic, flags;
    uint16_t version, hdr_len;

    if (cmd_len < sizeof(MgmtRequest)) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_CMD, MGMT_ERR_OFFSET_NONE,
                           cmd_len);
    }
    magic = ldl_le_p(cmd + offsetof(MgmtRequest, magic));
    version = lduw_le_p(cmd + offsetof(MgmtRequest, version));
    hdr_len = lduw_le_p(cmd + offsetof(MgmtRequest, hdr_len));
    flags = ldl_le_p(cmd + offsetof(MgmtRequest, flags));
    c->data_len = ldl_le_p(cmd + offsetof(MgmtRequest, data_len));
    for (int i = 0; i < 4; i++) {
        c->mbox[i] = ldl_le_p(cmd + MGMT_OFF_MBOX(i));
    }
    if (magic != MGMT_REQ_MAGIC) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_CMD,
                           offsetof(MgmtRequest, magic), magic);
    }
    if (version != MGMT_VERSION) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_CMD,
                           offsetof(MgmtRequest, version), version);
    }
    if (hdr_len != sizeof(MgmtRequest)) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_CMD,
                           offsetof(MgmtRequest, hdr_len), hdr_len);
    }
    if (flags & ~MGMT_REQ_F_MASK) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_CMD,
                           offsetof(MgmtRequest, flags), flags);
    }
    if (c->data_len > cmd_len - sizeof(MgmtRequest)) {
        return mgmt_refuse(c, MGMT_STAT_DATA_LEN,
                           offsetof(MgmtRequest, data_len), c->data_len);
    }
    c->data = cmd + sizeof(MgmtRequest);
    op = mgmt_find(c->opcode);
    if (!op) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_OPCODE,
                           offsetof(MgmtRequest, opcode), c->opcode);
    }
    for (int i = 0; i < 4; i++) {
        if (!(op->mbox_used & (1u << i)) && c->mbox[i]) {
            return mgmt_bad_mbox(c, i);
        }
    }
    if (op->data_len != MGMT_DATA_ANY && c->data_len != op->data_len) {
        return mgmt_refuse(c, MGMT_STAT_DATA_LEN,
                           offsetof(MgmtRequest, data_len), c->data_len);
    }
    if (!c->a->cfg) {
        /* the configuration is read once every drive exists */
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_ERR_OFFSET_NONE, 0);
    }
    if (c->a->adopting) {
        /* a FOREIGN IMPORT or CLEAR starts the cache (its reply waits) */
        return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_ERR_OFFSET_NONE, 1);
    }
    trace_megaraid_mgmt_op(op->name, c->mbox[0], c->mbox[1], c->data_len);
    return op->fn(c);
}

size_t mr_mgmt_execute(MRMgmt *m, const uint8_t *cmd, size_t cmd_len,
                       uint8_t *resp, size_t resp_cap)
{
    MgmtReply *r = (MgmtReply *)resp;
    MgmtCtx c = {
        .m = m,
        .a = m->array,
        .out = resp + sizeof(MgmtReply),
        .out_cap = resp_cap - sizeof(MgmtReply),
        .err_offset = MGMT_ERR_OFFSET_NONE,
    };
    uint8_t st;

    assert(resp_cap >= sizeof(MgmtReply));
    memset(resp, 0, resp_cap);
    if (cmd_len >= offsetof(MgmtRequest, tag) + 4) {
        c.opcode = ldl_le_p(cmd + offsetof(MgmtRequest, opcode));
        r->tag = cpu_to_le32(ldl_le_p(cmd + offsetof(MgmtRequest, tag)));
    }
    st = mgmt_dispatch(&c, cmd, cmd_len);
    if (st != MGMT_STAT_OK) {
        trace_megaraid_mgmt_err(c.opcode, st, c.err_offset, c.err_value);
        /* an error carries no data */
        memset(c.out, 0, c.out_cap);
        c.out_len = 0;
    }
    assert(c.out_len <= c.out_cap);
    r->magic = cpu_to_le32(MGMT_REPLY_MAGIC);
    r->version = cpu_to_le16(MGMT_VERSION);
    r->hdr_len = cpu_to_le16(sizeof(MgmtReply));
    r->opcode = cpu_to_le32(c.opcode);
    r->status = st;
    r->err_offset = cpu_to_le16(st ? c.err_offset : MGMT_ERR_OFFSET_NONE);
    r->err_value = cpu_to_le32(st ? c.err_value : 0);
    r->data_len = cpu_to_le32(c.out_len);
    return sizeof(MgmtReply) + c.out_len;
}

void mr_mgmt_init(MRMgmt *m, MRArray *a, BusState *bus,
                  const MRMgmtHostOps *ops, void *opaque)
{
    memset(m, 0, sizeof(*m));
    m->array = a;
    m->bus = bus;
    m->ops = ops;
    m->opaque = opaque;
    m->serial = a->serial;
}

/* A reply waiting for the metadata pass of its change. */
typedef struct MgmtStoreWait {
    uint8_t *resp;
    size_t len;
    size_t cap;
    MRMgmtDone *done;
    void *opaque;
    MRMgmt *m;
    void (*refill)(MgmtCtx *c);
    uint32_t mbox[4];
} MgmtStoreWait;

/* The reply's data as it is now that the command's coroutine is done. */
static void mgmt_refill(MgmtStoreWait *w)
{
    MgmtReply *r = (MgmtReply *)w->resp;
    MgmtCtx c = {
        .m = w->m,
        .a = w->m->array,
        .opcode = le32_to_cpu(r->opcode),
        .out = w->resp + sizeof(MgmtReply),
        .out_cap = w->cap - sizeof(MgmtReply),
    };

    memcpy(c.mbox, w->mbox, sizeof(c.mbox));
    memset(c.out, 0, c.out_cap);
    w->refill(&c);
    assert(c.out_len <= c.out_cap);
    r->data_len = cpu_to_le32(c.out_len);
    w->len = sizeof(MgmtReply) + c.out_len;
}

static void mgmt_stored(void *opaque, bool ok)
{
    MgmtStoreWait *w = opaque;
    MgmtReply *r = (MgmtReply *)w->resp;

    if (ok && w->refill && r->status == MGMT_STAT_OK) {
        mgmt_refill(w);
    }
    if (!ok && r->status == MGMT_STAT_OK) {
        /* made, but not on the drives: an error, which carries no data */
        trace_megaraid_mgmt_err(le32_to_cpu(r->opcode), MGMT_STAT_IO_ERROR,
                                MGMT_ERR_OFFSET_NONE, 0);
        memset(w->resp + sizeof(MgmtReply), 0, w->len - sizeof(MgmtReply));
        r->status = MGMT_STAT_IO_ERROR;
        r->err_offset = cpu_to_le16(MGMT_ERR_OFFSET_NONE);
        r->err_value = 0;
        r->data_len = 0;
        w->len = sizeof(MgmtReply);
    }
    w->done(w->opaque, w->len);
    g_free(w);
}

void mr_mgmt_execute_async(MRMgmt *m, const uint8_t *cmd, size_t cmd_len,
                           uint8_t *resp, size_t resp_cap, MRMgmtDone *done,
                           void *opaque)
{
    uint64_t asked = m->array->meta_asked;
    MgmtStoreWait *w = g_new0(MgmtStoreWait, 1);

    w->resp = resp;
    w->cap = resp_cap;
    w->m = m;
    m->array->cfg_later = NULL;
    m->refill = NULL;
    w->len = mr_mgmt_execute(m, cmd, cmd_len, resp, resp_cap);
    w->done = done;
    w->opaque = opaque;
    for (int i = 0; i < 4 && cmd_len >= MGMT_OFF_MBOX(i) + 4; i++) {
        w->mbox[i] = ldl_le_p(cmd + MGMT_OFF_MBOX(i));
    }
    if (mr_cfg_later_claim(m->array, mgmt_stored, w)) {
        w->refill = m->refill;
        /* its I/O runs in a coroutine: the reply comes after it */
        return;
    }
    if (m->array->meta_asked == asked) {
        /* nothing to store (a query, a refusal) */
        mgmt_stored(w, true);
        return;
    }
    trace_megaraid_mgmt_wait_store(le32_to_cpu(((MgmtReply *)resp)->opcode),
                                   m->array->meta_asked);
    mr_array_when_stored(m->array, m->array->meta_asked, mgmt_stored, w);
}
