/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9600's management protocol
 * (docs/management-protocol.md) in MGMT PASSTHROUGH requests, sent the
 * way the mpi3mr driver's BSG path sends them (4 KiB command and
 * response buffers, one SGE each): every opcode's answer on a small
 * array, VDs created and deleted (the host's device events, the DDF on
 * the drives across a restart), a member set offline and forced back
 * online, hot spares and rebuilds, jobs started, paused, resumed and
 * stopped, foreign configurations imported and cleared, malformed
 * requests and frames, each refused with its status and no harm done,
 * and a change answered only once its metadata is on the drives.
 */
#include <signal.h>
#include "megaraid-rig.h"
#include "hw/megaraid/mgmt-proto.h"
#include "qemu/cutils.h"
#include "qobject/qlist.h"
#include "hw/megaraid/evlog.h"

#define MG_TAG          0x0042
#define MG_CMD(m)       ((m)->data)
#define MG_RESP(m)      ((m)->data + 64 * 1024)
#define MG_BUF          4096

/* The last reply: header fields in host order, data as sent. */
typedef struct MgRes {
    uint16_t ioc;
    uint8_t status;
    uint16_t err_offset;
    uint32_t err_value;
    uint32_t data_len;
    uint8_t data[MG_BUF];
} MgRes;

static MgRes res;

/* The last reply's data, which must be exactly @len bytes, into @dst. */
static void res_take(void *dst, size_t len)
{
    g_assert_cmpuint(res.data_len, ==, len);
    memcpy(dst, res.data, len);
}

/* A MGMT PASSTHROUGH frame over the command and response buffers. */
static void mg_frame_build(uint8_t *f, uint64_t cmd, uint32_t cmd_len,
                           uint8_t cmd_flags, uint64_t resp,
                           uint32_t resp_len, int reserved_at)
{
    memset(f, 0, 64);
    stw_le_p(f, MG_TAG);
    f[3] = 0x0A;
    if (reserved_at >= 0) {
        f[reserved_at] = 0x5A;
    }
    h_put_sge(f + 0x20, cmd, cmd_len, cmd_flags);
    h_put_sge(f + 0x30, resp, resp_len, 0x0C);
}

static uint16_t mg_frame(MR *m, uint64_t cmd, uint32_t cmd_len,
                         uint8_t cmd_flags, uint64_t resp, uint32_t resp_len,
                         int reserved_at)
{
    uint8_t f[64];

    mg_frame_build(f, cmd, cmd_len, cmd_flags, resp, resp_len, reserved_at);
    return mr_admin(m, f, sizeof(f));
}

/* Send a request image of @len bytes; parse the reply into res. */
static uint8_t mg_send(MR *m, const uint8_t *req, uint32_t len,
                       uint32_t sgl_len, uint32_t resp_len)
{
    uint8_t raw[MG_BUF];
    uint8_t zero[MG_BUF] = { 0 };

    g_assert_cmpuint(len, <=, MG_BUF);
    qtest_memwrite(m->qts, MG_CMD(m), zero, MG_BUF);
    qtest_memwrite(m->qts, MG_CMD(m), req, len);
    qtest_memset(m->qts, MG_RESP(m), 0xEE, MG_BUF);
    memset(&res, 0, sizeof(res));
    res.ioc = mg_frame(m, MG_CMD(m), sgl_len, 0x0C, MG_RESP(m), resp_len, -1);
    g_assert_cmphex(res.ioc, ==, 0);
    qtest_memread(m->qts, MG_RESP(m), raw, MG_BUF);
    g_assert_cmphex(ldl_le_p(raw), ==, MGMT_REPLY_MAGIC);
    g_assert_cmpuint(lduw_le_p(raw + 4), ==, MGMT_VERSION);
    g_assert_cmpuint(lduw_le_p(raw + 6), ==, sizeof(MgmtReply));
    if (sgl_len >= 20) {
        /* echoed if the command reaches that far */
        g_assert_cmphex(ldl_le_p(raw + 8), ==, ldl_le_p(req + 8));
        g_assert_cmphex(ldl_le_p(raw + 12), ==, ldl_le_p(req + 16));
    }
    res.status = raw[16];
    res.err_offset = lduw_le_p(raw + 18);
    res.data_len = ldl_le_p(raw + 20);
    res.err_value = ldl_le_p(raw + 24);
    g_assert_cmpuint(res.data_len, <=, MIN(resp_len, MG_BUF) - 32);
    if (res.status) {
        g_assert_cmpuint(res.data_len, ==, 0);
    } else {
        g_assert_cmphex(res.err_offset, ==, MGMT_ERR_OFFSET_NONE);
    }
    memcpy(res.data, raw + 32, res.data_len);
    return res.status;
}

static void mg_build(uint8_t *req, uint32_t opcode, uint32_t m0, uint32_t m1,
                     uint32_t m2, uint32_t m3, const void *data,
                     uint32_t dlen)
{
    static uint32_t tag = 100;

    memset(req, 0, sizeof(MgmtRequest) + dlen);
    stl_le_p(req, MGMT_REQ_MAGIC);
    stw_le_p(req + 4, MGMT_VERSION);
    stw_le_p(req + 6, sizeof(MgmtRequest));
    stl_le_p(req + 8, opcode);
    stl_le_p(req + 16, tag++);
    stl_le_p(req + 20, dlen);
    stl_le_p(req + 24, m0);
    stl_le_p(req + 28, m1);
    stl_le_p(req + 32, m2);
    stl_le_p(req + 36, m3);
    if (dlen) {
        memcpy(req + sizeof(MgmtRequest), data, dlen);
    }
}

/* One request as mrcli sends it: 4 KiB buffers. */
static uint8_t mg(MR *m, uint32_t opcode, uint32_t m0, uint32_t m1,
                  uint32_t m2, uint32_t m3, const void *data, uint32_t dlen)
{
    uint8_t req[MG_BUF];

    mg_build(req, opcode, m0, m1, m2, m3, data, dlen);
    return mg_send(m, req, sizeof(MgmtRequest) + dlen, MG_BUF, MG_BUF);
}

static uint8_t mg0(MR *m, uint32_t opcode)
{
    return mg(m, opcode, 0, 0, 0, 0, NULL, 0);
}

#define OK(x)   g_assert_cmphex((x), ==, MGMT_STAT_OK)

static const MgmtListHeader *mg_list(void)
{
    const MgmtListHeader *h = (const void *)res.data;

    g_assert_cmpuint(res.data_len, ==,
                     sizeof(*h) + h->count * (uint32_t)h->entry_len);
    return h;
}

static MgmtPdEntry pd_entry(MR *m, int slot)
{
    MgmtPdInfo pi;

    OK(mg(m, MGMT_OP_PD_INFO, slot, 0, 0, 0, NULL, 0));
    res_take(&pi, sizeof(pi));
    g_assert_cmpuint(pi.e.slot, ==, slot);
    return pi.e;
}

static uint8_t pd_state(MR *m, int slot)
{
    return pd_entry(m, slot).state;
}

static MgmtVdInfo vd_info(MR *m, int vd)
{
    MgmtVdInfo vi;

    OK(mg(m, MGMT_OP_VD_INFO, vd, 0, 0, 0, NULL, 0));
    memcpy(&vi, res.data, sizeof(vi));
    g_assert_cmpuint(res.data_len, ==,
                     sizeof(vi) + vi.nmembers * sizeof(MgmtVdMember));
    return vi;
}

static uint32_t vd_count(MR *m)
{
    OK(mg0(m, MGMT_OP_VD_LIST));
    return mg_list()->total;
}

static uint8_t set_state(MR *m, int slot, uint32_t action, uint32_t flags)
{
    return mg(m, MGMT_OP_PD_SET_STATE, slot, action, flags, 0, NULL, 0);
}

static uint8_t job(MR *m, uint32_t target, uint32_t kind, uint32_t action,
                   uint32_t flags)
{
    return mg(m, MGMT_OP_JOB_CONTROL, target, kind, action, flags, NULL, 0);
}

static MgmtJobStatus job_status(MR *m, int vd)
{
    MgmtJobStatus js;

    OK(mg(m, MGMT_OP_JOB_STATUS, vd, 0, 0, 0, NULL, 0));
    res_take(&js, sizeof(js));
    return js;
}

/* Wait up to @sec for VD @vd to have no job. */
static bool wait_no_job(MR *m, int vd, int sec)
{
    for (int i = 0; i < sec * 20; i++) {
        if (job_status(m, vd).job == MGMT_JOB_NONE) {
            return true;
        }
        g_usleep(50 * 1000);
    }
    return false;
}

/* The rebuild, cc and init rates, all three. */
static uint8_t set_rate(MR *m, uint8_t rate)
{
    MgmtCtrlProps p = {
        .rebuild_rate = rate, .cc_rate = rate, .init_rate = rate,
    };

    return mg(m, MGMT_OP_CTRL_SET_PROPS, MGMT_PROP_REBUILD_RATE |
              MGMT_PROP_CC_RATE | MGMT_PROP_INIT_RATE, 0, 0, 0,
              &p, sizeof(p));
}

/* VD_CREATE of @level over @slots (@n of them, new drive group). */
static uint8_t create_vd(MR *m, uint8_t level, const uint16_t *slots, int n,
                         const char *name)
{
    uint8_t buf[sizeof(MgmtVdCreate) + 64] = { 0 };
    MgmtVdCreate *vc = (void *)buf;

    vc->level = level;
    vc->ndrives = n;
    vc->cache = MGMT_CACHE_READ_AHEAD;
    vc->strip_kib = cpu_to_le32(64);
    vc->dg = cpu_to_le16(MGMT_NONE16);
    strncpy(vc->name, name, sizeof(vc->name));
    for (int i = 0; i < n; i++) {
        stw_le_p(buf + sizeof(*vc) + 2 * i, slots[i]);
    }
    return mg(m, MGMT_OP_VD_CREATE, 0, 0, 0, 0, buf, sizeof(*vc) + 2 * n);
}

static int count_events(MR *m, uint8_t event, uint16_t handle)
{
    int n = 0;

    for (guint i = 0; i < m->events->len; i++) {
        Event *e = &g_array_index(m->events, Event, i);

        n += e->event == event && e->handle == handle;
    }
    return n;
}

static void assert_qom_str(MR *m, const char *prop, const char *want)
{
    g_autofree char *v = qom_get_str(m, CTRL, prop);

    g_assert_cmpstr(v, ==, want);
}

/* The host's half of a removal: REMOVE_DEVICE for @handle. */
static uint16_t remove_device(MR *m, uint16_t handle)
{
    uint8_t f[64] = { 0 };

    stw_le_p(f, 3);
    f[3] = 0x08;
    f[0x0B] = 0x10;
    stw_le_p(f + 0x30, handle);
    return mr_admin(m, f, sizeof(f));
}

/* Is there an event log entry of @code (for @target, -1: any)? */
/*
 * How many entries of the event log have @code and @target (-1: any);
 * every entry read is checked for consistency on the way.
 */
static unsigned evlog_count(MR *m, uint16_t code, int32_t target)
{
    uint32_t seq = 0;
    unsigned n = 0;

    do {
        const MgmtListHeader *h;
        const MgmtEvent *ev;

        OK(mg(m, MGMT_OP_EVLOG_READ, seq, 0, 0, 0, NULL, 0));
        h = mg_list();
        ev = (const void *)(h + 1);
        for (uint32_t i = 0; i < h->count; i++) {
            g_assert_cmpuint(ev[i].seq, ==, h->first + i);
            g_assert_cmpuint(ev[i].cls, ==, ev[i].code >> 8);
            g_assert_cmpuint(ev[i].text[MGMT_EV_TEXT_LEN - 1], ==, 0);
            n += ev[i].code == code && (target < 0 || ev[i].target == target);
        }
        seq = h->next;
    } while (seq != MGMT_NONE32);
    return n;
}

static bool evlog_has(MR *m, uint16_t code, int32_t target)
{
    return evlog_count(m, code, target) > 0;
}

/* ------------------------------------------------------------- tests */

/* Every query on RAID 5 over 4 drives, a global spare and a blank one. */
static void test_queries(void)
{
    const MgmtListHeader *h;
    const MgmtPdEntry *pe;
    MgmtCtrlInfo ci;
    MgmtCtrlProps pp = { .rebuild_rate = 55, .cc_rate = 40 };
    MgmtVdEntry ve;
    MgmtVdInfo vi;
    MgmtDgEntry de;
    MgmtPdInfo pi;
    MgmtEvlogInfo li;
    MgmtCvStatus cv;
    Rig r;
    MR *m;

    rig_create(&r, 6, 4, 1, RAID_LEVEL_5);
    m = mr_start(&r, NULL);

    OK(mg0(m, MGMT_OP_CTRL_GET_INFO));
    res_take(&ci, sizeof(ci));
    g_assert_true(g_str_has_prefix(ci.product, "MegaRAID"));
    g_assert_cmpstr(ci.serial, ==, "MRSIM00000000001");
    g_assert_cmpstr(ci.fw_version, !=, "");
    g_assert_cmphex(ci.pci_vendor, ==, 0x1000);
    g_assert_cmpuint(ci.num_pds, ==, 6);
    g_assert_cmpuint(ci.num_vds, ==, 1);
    g_assert_cmpuint(ci.num_dgs, ==, 1);
    g_assert_cmpuint(ci.num_global_spares, ==, 1);
    g_assert_cmpuint(ci.num_foreign_pds, ==, 0);
    g_assert_cmpuint(ci.max_vds, ==, 240);
    g_assert_cmphex(ci.levels, ==, 1ull << 0 | 1ull << 1 | 1ull << 5 |
                    1ull << 6 | 1ull << 10 | 1ull << 50 | 1ull << 60);
    g_assert_cmpuint(ci.strip_min_kib, ==, 64);
    g_assert_cmpuint(ci.strip_max_kib, ==, 1024);
    g_assert_cmpuint(ci.roc_temp_c, ==, 55);
    g_assert_cmpuint(ci.cv_temp_c, ==, 28);

    OK(mg0(m, MGMT_OP_CTRL_GET_PROPS));
    g_assert_cmpuint(res.data[0], ==, qom_get_int(m, CTRL, "rebuild-rate"));
    OK(mg(m, MGMT_OP_CTRL_SET_PROPS,
          MGMT_PROP_REBUILD_RATE | MGMT_PROP_CC_RATE, 0, 0, 0,
          &pp, sizeof(pp)));
    g_assert_cmpuint(res.data[0], ==, 55);
    g_assert_cmpuint(res.data[1], ==, 40);
    g_assert_cmpint(qom_get_int(m, CTRL, "rebuild-rate"), ==, 55);
    g_assert_cmpint(qom_get_int(m, CTRL, "cc-rate"), ==, 40);

    OK(mg0(m, MGMT_OP_PD_LIST));
    h = mg_list();
    g_assert_cmpuint(h->total, ==, 6);
    g_assert_cmpuint(h->count, ==, 6);
    g_assert_cmpuint(h->next, ==, MGMT_NONE32);
    g_assert_cmpuint(h->entry_len, ==, sizeof(MgmtPdEntry));
    pe = (const void *)(h + 1);
    for (int i = 0; i < 4; i++) {
        g_assert_cmpuint(pe[i].slot, ==, i);
        g_assert_cmpuint(pe[i].state, ==, MGMT_PD_ONLINE);
        g_assert_cmpuint(pe[i].dg, ==, 0);
        g_assert_cmpuint(pe[i].interface, ==, MGMT_IF_NVME);
        g_assert_cmpuint(pe[i].flags & MGMT_PD_F_EXPOSED, ==, 0);
        /* hidden, but a device id of its own (storcli's DID) */
        g_assert_cmpuint(pe[i].dev_handle, ==, i + 1);
    }
    g_assert_cmpuint(pe[4].state, ==, MGMT_PD_HOT_SPARE);
    g_assert_cmpuint(pe[4].flags, ==, MGMT_PD_F_GLOBAL_SPARE);
    g_assert_cmpuint(pe[5].state, ==, MGMT_PD_UNCONF_GOOD);
    g_assert_cmpuint(pe[5].flags, ==, MGMT_PD_F_EXPOSED);
    g_assert_cmpuint(pe[5].dev_handle, ==, 6);
    g_assert_cmpuint(pe[5].blocks * pe[5].block_size, ==, DRIVE_BYTES);

    /* pages: two at a time */
    OK(mg(m, MGMT_OP_PD_LIST, 0, 2, 0, 0, NULL, 0));
    g_assert_cmpuint(mg_list()->count, ==, 2);
    g_assert_cmpuint(mg_list()->next, ==, 2);
    OK(mg(m, MGMT_OP_PD_LIST, 4, 2, 0, 0, NULL, 0));
    g_assert_cmpuint(mg_list()->count, ==, 2);
    g_assert_cmpuint(mg_list()->next, ==, MGMT_NONE32);
    OK(mg(m, MGMT_OP_PD_LIST, 6, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(mg_list()->count, ==, 0);

    OK(mg(m, MGMT_OP_PD_INFO, 1, 0, 0, 0, NULL, 0));
    memcpy(&pi, res.data, sizeof(pi));
    g_assert_cmpuint(pi.e.state, ==, MGMT_PD_ONLINE);
    g_assert_cmpuint(pi.span, ==, 0);
    g_assert_cmpuint(pi.span_pos, ==, 1);
    g_assert_cmpuint(pi.usable_sectors, >, 0);
    g_assert_cmpmem(pi.guid, 8, "LSI     ", 8);
    g_assert_cmpuint(pi.rebuild_active, ==, 0);
    g_assert_cmpuint(pi.rebuild_eta_s, ==, MGMT_NONE32);
    /* the drive's health: its QOM properties (drive-health.c) */
    g_assert_cmpuint(pi.temperature_c, ==, 30);
    g_assert_cmpuint(pi.media_error_count, ==, 0);
    g_assert_cmpuint(pi.other_errors, ==, 0);
    g_assert_cmpuint(pi.predictive_failures, ==, 0);
    g_assert_cmpuint(pi.smart_alert, ==, 0);
    g_assert_cmphex(pi.wwn, !=, 0);
    {
        static const struct {
            const char *prop;
            int value;
        } set[] = {
            { "temperature", 47 }, { "media-errors", 5 },
            { "other-errors", 3 }, { "predictive-failures", 2 },
        };
        QDict *rsp;

        for (size_t i = 0; i < G_N_ELEMENTS(set); i++) {
            rsp = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments':"
                            " {'path': '/machine/peripheral/hd1',"
                            " 'property': %s, 'value': %d}}",
                            set[i].prop, set[i].value);
            g_assert_false(qdict_haskey(rsp, "error"));
            qobject_unref(rsp);
        }
        rsp = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments':"
                        " {'path': '/machine/peripheral/hd1',"
                        " 'property': 'smart-alert', 'value': true}}");
        g_assert_false(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
        rsp = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments':"
                        " {'path': '/machine/peripheral/hd1',"
                        " 'property': 'temperature', 'value': 126}}");
        g_assert_true(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }
    OK(mg(m, MGMT_OP_PD_INFO, 1, 0, 0, 0, NULL, 0));
    memcpy(&pi, res.data, sizeof(pi));
    g_assert_cmpuint(pi.temperature_c, ==, 47);
    g_assert_cmpuint(pi.media_error_count, ==, 5);
    g_assert_cmpuint(pi.other_errors, ==, 3);
    g_assert_cmpuint(pi.predictive_failures, ==, 2);
    g_assert_cmpuint(pi.smart_alert, ==, 1);

    OK(mg0(m, MGMT_OP_DG_LIST));
    h = mg_list();
    g_assert_cmpuint(h->total, ==, 1);
    memcpy(&de, h + 1, sizeof(de));
    g_assert_cmpuint(de.dg, ==, 0);
    g_assert_cmpuint(de.nspans, ==, 1);
    g_assert_cmpuint(de.span_width, ==, 4);
    g_assert_cmpuint(de.level, ==, 5);
    g_assert_cmpuint(de.nvds, ==, 1);
    g_assert_cmpuint(de.ndrives, ==, 4);
    for (int i = 0; i < 4; i++) {
        g_assert_cmpuint(de.slots[i], ==, i);
    }

    OK(mg0(m, MGMT_OP_VD_LIST));
    h = mg_list();
    g_assert_cmpuint(h->total, ==, 1);
    memcpy(&ve, h + 1, sizeof(ve));
    g_assert_cmpuint(ve.vd, ==, 0);
    g_assert_cmpuint(ve.level, ==, 5);
    g_assert_cmpuint(ve.state, ==, MGMT_VD_OPTIMAL);
    g_assert_cmpuint(ve.strip_kib, ==, STRIP_SECTORS / 2);
    g_assert_cmpuint(ve.blocks, ==, r.vd_sectors);
    g_assert_cmpuint(ve.nspans, ==, 1);
    g_assert_cmpuint(ve.span_width, ==, 4);
    g_assert_cmpmem(ve.name, 5, "qtest", 5);
    g_assert_cmphex(ve.dev_handle, ==, VD_HANDLE);

    vi = vd_info(m, 0);
    g_assert_cmpuint(vi.nmembers, ==, 4);
    for (int i = 0; i < 4; i++) {
        const MgmtVdMember *mem = (const void *)(res.data + sizeof(vi));

        g_assert_cmpuint(mem[i].slot, ==, i);
        g_assert_cmpuint(mem[i].state, ==, MGMT_PD_ONLINE);
    }
    g_assert_cmpuint(vi.job.job, ==, MGMT_JOB_NONE);
    g_assert_cmpuint(vi.logical_block, ==, 512);
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);

    OK(mg0(m, MGMT_OP_CV_STATUS));
    memcpy(&cv, res.data, sizeof(cv));
    g_assert_cmpuint(cv.state, ==, MGMT_CV_OPTIMAL);
    g_assert_cmpuint(cv.flush_interval_s, >=, 1);

    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 0);

    OK(mg0(m, MGMT_OP_EVLOG_INFO));
    memcpy(&li, res.data, sizeof(li));
    g_assert_cmpuint(li.newest_seq, >=, 1);
    g_assert_cmpuint(li.oldest_seq, >=, 1);
    g_assert_cmpuint(li.count, ==, li.newest_seq - li.oldest_seq + 1);
    OK(mg(m, MGMT_OP_EVLOG_READ, 0, 3, 0, 0, NULL, 0));
    h = mg_list();
    g_assert_cmpuint(h->entry_len, ==, sizeof(MgmtEvent));
    g_assert_cmpuint(h->count, ==, MIN(3, li.count));
    g_assert_cmpuint(h->first, ==, li.oldest_seq);
    g_assert_cmpuint(((const MgmtEvent *)(h + 1))->seq, ==, li.oldest_seq);
    /* one past the newest: empty; further: refused */
    OK(mg(m, MGMT_OP_EVLOG_READ, li.newest_seq + 1, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(mg_list()->count, ==, 0);
    g_assert_cmphex(mg(m, MGMT_OP_EVLOG_READ, li.newest_seq + 2, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_INVALID_SEQ);

    mr_stop(&r);
    rig_destroy(&r);
}

/*
 * VDs made and deleted at run time on blank drives: the host is told
 * (DEVICE ADDED, members hidden; VD NOT RESPONDING, members visible),
 * the data path works, the DDF on the drives follows across restarts.
 */
static void test_create_delete(void)
{
    static const uint16_t mirror[] = { 0, 1 };
    static const uint16_t r5[] = { 2, 3, 4 };
    const uint8_t *pg;
    MgmtVdEntry ve;
    RaidConfig *cfg;
    Rig r;
    MR *m;

    rig_create(&r, 6, 0, 0, RAID_LEVEL_0);
    m = mr_start(&r, NULL);
    OK(mg0(m, MGMT_OP_PD_LIST));
    g_assert_cmpuint(mg_list()->total, ==, 6);
    for (int i = 0; i < 6; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
    }
    g_assert_cmpuint(vd_count(m), ==, 0);

    OK(create_vd(m, MGMT_LEVEL_1, mirror, 2, "mirror"));
    res_take(&ve, sizeof(ve));
    g_assert_cmpuint(ve.vd, ==, 0);
    g_assert_cmpuint(ve.level, ==, 1);
    g_assert_cmphex(ve.dev_handle, ==, VD_HANDLE);
    g_assert_cmpmem(ve.name, 6, "mirror", 6);
    g_assert_nonnull(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    pg = mr_last_page(m, 1, EV_DEVICE_INFO_CHANGED);
    g_assert_nonnull(pg);
    g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==,
                    PG0_FLAG_HIDDEN);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_ONLINE);
    vd_write(m, 0, 64, 11, false);
    vd_check(m, 0, 64, 11, false);

    OK(create_vd(m, MGMT_LEVEL_5, r5, 3, "r5"));
    memcpy(&ve, res.data, sizeof(ve));
    g_assert_cmpuint(ve.vd, ==, 1);
    g_assert_cmphex(ve.dev_handle, ==, VD_HANDLE + 1);
    g_assert_cmpuint(vd_count(m), ==, 2);
    OK(mg0(m, MGMT_OP_DG_LIST));
    g_assert_cmpuint(mg_list()->total, ==, 2);
    assert_qom_str(m, "vd1-state", "optimal");

    /* delete the mirror: its handle goes, its drives come back */
    OK(mg(m, MGMT_OP_VD_DELETE, 0, 0, 0, 0, NULL, 0));
    g_assert_cmpint(count_events(m, EV_DEVICE_STATUS_CHANGE, VD_HANDLE), ==,
                    1);
    g_assert_cmpuint(vd_count(m), ==, 1);
    g_assert_cmphex(mg(m, MGMT_OP_VD_INFO, 0, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_VD_NOT_FOUND);
    g_assert_true(evlog_has(m, 0x0202, 1));         /* VD 1 created */
    g_assert_true(evlog_has(m, 0x0203, 0));         /* VD 0 deleted */
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_UNCONF_GOOD);
    g_assert_cmpuint(pd_entry(m, 1).flags, ==, MGMT_PD_F_EXPOSED);
    pg = mr_last_page(m, 1, EV_DEVICE_INFO_CHANGED);
    g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==, 0);
    /* the QOM properties of VD 0 went with it */
    {
        QDict *rsp = qtest_qmp(m->qts, "{'execute': 'qom-get', 'arguments':"
                               " {'path': %s, 'property': 'vd0-state'}}",
                               CTRL);

        g_assert_true(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }

    /* index 0 waits until the host has let go of its handle */
    g_assert_cmphex(create_vd(m, MGMT_LEVEL_0, mirror, 2, "stripe"), ==,
                    MGMT_STAT_BUSY);
    g_assert_cmphex(remove_device(m, VD_HANDLE), ==, 0);
    OK(create_vd(m, MGMT_LEVEL_0, mirror, 2, "stripe"));
    memcpy(&ve, res.data, sizeof(ve));
    g_assert_cmpuint(ve.vd, ==, 0);
    g_assert_cmpuint(ve.level, ==, 0);
    g_assert_cmpint(count_events(m, EV_DEVICE_ADDED, VD_HANDLE), ==, 2);
    assert_qom_str(m, "vd0-level", "raid0");
    vd_write(m, 100, 300, 12, true);
    vd_check(m, 100, 300, 12, true);
    mr_stop(&r);

    /* on the drives: both VDs */
    cfg = rig_load(&r);
    g_assert_cmpint(raid_config_count_vds(cfg), ==, 2);
    g_assert_cmpint(cfg->vds[0].level, ==, RAID_LEVEL_0);
    g_assert_cmpstr(cfg->vds[0].name, ==, "stripe");
    g_assert_cmpint(cfg->vds[1].level, ==, RAID_LEVEL_5);
    raid_config_free(cfg);

    /* imported again; then both deleted, for good */
    m = mr_start(&r, NULL);
    g_assert_cmpuint(vd_count(m), ==, 2);
    vd_check(m, 100, 300, 12, true);
    OK(mg(m, MGMT_OP_VD_DELETE, 0, 0, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_VD_DELETE, 1, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(vd_count(m), ==, 0);
    mr_stop(&r);
    m = mr_start(&r, NULL);
    g_assert_cmpuint(vd_count(m), ==, 0);
    for (int i = 0; i < 6; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
        g_assert_cmpuint(pd_entry(m, i).flags, ==, MGMT_PD_F_EXPOSED);
    }
    mr_stop(&r);
    rig_destroy(&r);
}

/*
 * A member set offline degrades the VD; it comes back only when forced
 * (no rebuild); set offline again and rebuilt in place, the data holds.
 */
static void test_offline_online(void)
{
    Rig r;
    MR *m;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    write_extents(m, 21);

    OK(set_state(m, 1, MGMT_SET_OFFLINE, 0));
    g_assert_cmpuint(((MgmtPdEntry *)res.data)->state, ==, MGMT_PD_OFFLINE);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_DEGRADED);
    assert_vd_state(m, "degraded");
    assert_drive_state(m, 1, "offline");
    check_extents(m, 21);

    g_assert_cmphex(set_state(m, 1, MGMT_SET_ONLINE, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    g_assert_cmpuint(res.err_value, ==, MGMT_PD_OFFLINE);
    g_assert_cmphex(set_state(m, 0, MGMT_SET_GOOD, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    OK(set_state(m, 1, MGMT_SET_ONLINE, MGMT_SET_F_FORCE));
    g_assert_cmpuint(pd_state(m, 1), ==, MGMT_PD_ONLINE);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_OPTIMAL);
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
    check_extents(m, 21);

    /* offline, then a rebuild onto the same drive */
    OK(set_state(m, 2, MGMT_SET_OFFLINE, 0));
    write_extents(m, 31);
    OK(job(m, 2, MGMT_JOB_REBUILD, MGMT_JOB_START, 0));
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_cmpuint(pd_state(m, 2), ==, MGMT_PD_ONLINE);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_OPTIMAL);
    check_extents(m, 31);

    /* missing: only from offline */
    g_assert_cmphex(set_state(m, 3, MGMT_SET_MISSING, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    OK(set_state(m, 3, MGMT_SET_OFFLINE, 0));
    OK(set_state(m, 3, MGMT_SET_MISSING, 0));
    g_assert_cmpuint(pd_state(m, 3), ==, MGMT_PD_MISSING);
    {
        MgmtVdInfo vi = vd_info(m, 0);
        const MgmtVdMember *mem = (const void *)(res.data + sizeof(vi));

        g_assert_cmpuint(vi.e.state, ==, MGMT_VD_DEGRADED);
        g_assert_cmpuint(mem[3].state, ==, MGMT_PD_MISSING);
    }
    mr_stop(&r);
    rig_destroy(&r);
}

/* Hot spares: added, removed, dedicated; a failure rebuilds onto one. */
static void test_spares(void)
{
    MgmtPdEntry pe;
    Rig r;
    MR *m;

    rig_create(&r, 6, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    OK(mg(m, MGMT_OP_PD_SPARE_ADD, 4, MGMT_NONE32, 0, 0, NULL, 0));
    memcpy(&pe, res.data, sizeof(pe));
    g_assert_cmpuint(pe.state, ==, MGMT_PD_HOT_SPARE);
    g_assert_cmpuint(pe.flags, ==, MGMT_PD_F_GLOBAL_SPARE);
    g_assert_cmphex(mg(m, MGMT_OP_PD_SPARE_ADD, 4, MGMT_NONE32, 0, 0, NULL,
                       0), ==, MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(mg(m, MGMT_OP_PD_SPARE_ADD, 0, MGMT_NONE32, 0, 0, NULL,
                       0), ==, MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(mg(m, MGMT_OP_PD_SPARE_ADD, 5, 7, 0, 0, NULL, 0), ==,
                    MGMT_STAT_DG_NOT_FOUND);
    OK(mg(m, MGMT_OP_PD_SPARE_REMOVE, 4, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);
    g_assert_cmphex(mg(m, MGMT_OP_PD_SPARE_REMOVE, 4, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    OK(mg(m, MGMT_OP_PD_SPARE_ADD, 4, 0, 0, 0, NULL, 0));
    pe = pd_entry(m, 4);
    g_assert_cmpuint(pe.flags, ==, MGMT_PD_F_DEDICATED_SPARE);
    g_assert_cmpuint(pe.spare_dg, ==, 0);
    OK(mg0(m, MGMT_OP_DG_LIST));
    g_assert_cmpuint(((MgmtDgEntry *)(mg_list() + 1))->dedicated_spares, ==,
                     1);

    /* a member fails: the spare takes its place and is rebuilt */
    write_extents(m, 41);
    OK(set_state(m, 2, MGMT_SET_OFFLINE, 0));
    g_assert_cmpuint(pd_state(m, 2), ==, MGMT_PD_UNCONF_BAD);
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_ONLINE);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_OPTIMAL);
    check_extents(m, 41);

    /* the failed drive: good again, a disk of the host's */
    OK(set_state(m, 2, MGMT_SET_GOOD, 0));
    pe = pd_entry(m, 2);
    g_assert_cmpuint(pe.state, ==, MGMT_PD_UNCONF_GOOD);
    g_assert_cmpuint(pe.flags, ==, MGMT_PD_F_EXPOSED);
    OK(set_state(m, 2, MGMT_SET_JBOD, 0));
    OK(set_state(m, 2, MGMT_SET_BAD, 0));
    g_assert_cmpuint(pd_state(m, 2), ==, MGMT_PD_UNCONF_BAD);
    OK(set_state(m, 2, MGMT_SET_GOOD, 0));
    /* nothing to rebuild onto it */
    g_assert_cmphex(job(m, 2, MGMT_JOB_REBUILD, MGMT_JOB_START, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    mr_stop(&r);
    rig_destroy(&r);
}

/* Consistency check and initialization: start, pause, resume, stop. */
static void test_jobs(void)
{
    MgmtJobStatus js, js2;
    unsigned n;
    Rig r;
    MR *m;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    OK(set_rate(m, 1));

    OK(job(m, 0, MGMT_JOB_CC, MGMT_JOB_START, MGMT_JOB_F_REPAIR));
    memcpy(&js, res.data, sizeof(js));
    g_assert_cmpuint(js.job, ==, MGMT_JOB_CC);
    g_assert_cmpuint(js.repair, ==, 1);
    g_assert_cmpuint(js.total_rows, >, 0);
    g_assert_cmphex(job(m, 0, MGMT_JOB_CC, MGMT_JOB_START, 0), ==,
                    MGMT_STAT_BUSY);
    g_assert_cmphex(job(m, 0, MGMT_JOB_INIT, MGMT_JOB_PAUSE, 0), ==,
                    MGMT_STAT_NO_JOB);
    OK(job(m, 0, MGMT_JOB_CC, MGMT_JOB_PAUSE, 0));
    js = job_status(m, 0);
    g_assert_cmpuint(js.paused, ==, 1);
    g_assert_cmpuint(js.running, ==, 0);
    g_usleep(300 * 1000);
    js2 = job_status(m, 0);
    g_assert_cmpuint(js2.next_row, ==, js.next_row);
    g_assert_cmpuint(js2.running, ==, 0);
    /* the VD is busy: no delete without force */
    g_assert_cmphex(mg(m, MGMT_OP_VD_DELETE, 0, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_BUSY);
    OK(job(m, 0, MGMT_JOB_CC, MGMT_JOB_RESUME, 0));
    g_assert_cmpuint(job_status(m, 0).paused, ==, 0);
    OK(set_rate(m, 100));
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_cmpuint(vd_info(m, 0).e.flags & MGMT_VD_F_CONSISTENT, !=, 0);

    /* a full initialization, stopped */
    OK(set_rate(m, 1));
    OK(job(m, 0, MGMT_JOB_INIT, MGMT_JOB_START, 0));
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_INIT);
    OK(job(m, 0, MGMT_JOB_INIT, MGMT_JOB_STOP, 0));
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
    g_assert_cmphex(job(m, 0, MGMT_JOB_INIT, MGMT_JOB_STOP, 0), ==,
                    MGMT_STAT_NO_JOB);
    g_assert_true(evlog_has(m, 0x0304, 0));         /* job aborted */

    /* rebuild controls on a drive that is not being rebuilt */
    g_assert_cmphex(job(m, 0, MGMT_JOB_REBUILD, MGMT_JOB_START, 0), ==,
                    MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(job(m, 0, MGMT_JOB_REBUILD, MGMT_JOB_PAUSE, 0), ==,
                    MGMT_STAT_NO_JOB);
    g_assert_cmphex(job(m, 0, MGMT_JOB_REBUILD, MGMT_JOB_STOP, 0), ==,
                    MGMT_STAT_WRONG_STATE);

    /* a rebuild stopped: the drive offline again, the VD degraded */
    OK(set_state(m, 3, MGMT_SET_OFFLINE, 0));
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_START, 0));
    g_assert_cmpuint(pd_state(m, 3), ==, MGMT_PD_REBUILD);
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_STOP, 0));
    g_assert_cmpuint(pd_state(m, 3), ==, MGMT_PD_OFFLINE);
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_DEGRADED);
    g_assert_cmphex(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_STOP, 0), ==,
                    MGMT_STAT_WRONG_STATE);

    /* the rebuild's target fails: the log says that the rebuild stopped */
    n = evlog_count(m, 0x0304, 0);
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_START, 0));
    OK(set_state(m, 3, MGMT_SET_OFFLINE, 0));
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
    g_assert_cmpuint(evlog_count(m, 0x0304, 0), ==, n + 1);

    /* a rebuild started again, paused and resumed */
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_START, 0));
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_PAUSE, 0));
    memcpy(&js, res.data, sizeof(js));
    g_assert_cmpuint(js.job, ==, MGMT_JOB_REBUILD);
    g_assert_cmpuint(js.target_slot, ==, 3);
    g_assert_cmpuint(js.paused, ==, 1);
    g_assert_cmpuint(pd_state(m, 3), ==, MGMT_PD_REBUILD);
    {
        MgmtPdInfo pi;

        OK(mg(m, MGMT_OP_PD_INFO, 3, 0, 0, 0, NULL, 0));
        memcpy(&pi, res.data, sizeof(pi));
        g_assert_cmpuint(pi.rebuild_active, ==, 1);
        g_assert_cmpuint(pi.rebuild_running, ==, 0);
    }
    OK(set_rate(m, 100));
    OK(job(m, 3, MGMT_JOB_REBUILD, MGMT_JOB_RESUME, 0));
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_cmpuint(pd_state(m, 3), ==, MGMT_PD_ONLINE);

    /* force deletes a VD with a job */
    OK(set_rate(m, 1));
    OK(job(m, 0, MGMT_JOB_CC, MGMT_JOB_START, 0));
    OK(mg(m, MGMT_OP_VD_DELETE, 0, MGMT_DELETE_F_FORCE, 0, 0, NULL, 0));
    g_assert_cmpuint(vd_count(m), ==, 0);
    mr_stop(&r);
    rig_destroy(&r);
}

/*
 * FOREIGN_CONFIG 0: the configuration controller @serial wrote, one drive
 * group of @n members (in bays @slots, MGMT_NONE16: not here) with one
 * VD in @state; there is no configuration 1.
 */
static void check_foreign_config(MR *m, const char *serial, int n,
                                 const uint16_t *slots, uint8_t state)
{
    g_autofree char *guid = g_strdup_printf("LSI     %s", serial);
    const MgmtForeignConfig *h = (const MgmtForeignConfig *)res.data;
    const MgmtDgEntry *g = (const MgmtDgEntry *)(h + 1);
    const MgmtVdInfo *vi = (const MgmtVdInfo *)(g + 1);
    int here = 0;

    OK(mg(m, MGMT_OP_FOREIGN_CONFIG, 0, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(res.data_len, ==, sizeof(*h) + sizeof(*g) + sizeof(*vi));
    g_assert_cmpmem(h->ctrl_guid, 24, guid, 24);
    g_assert_cmpuint(le16_to_cpu(h->ndgs), ==, 1);
    g_assert_cmpuint(le16_to_cpu(h->nvds), ==, 1);
    g_assert_cmpuint(le16_to_cpu(h->nspares), ==, 0);
    g_assert_cmpuint(g->ndrives, ==, n);
    for (int i = 0; i < n; i++) {
        g_assert_cmpuint(le16_to_cpu(g->slots[i]), ==, slots[i]);
        here += slots[i] != MGMT_NONE16;
    }
    g_assert_cmpuint(le16_to_cpu(h->ndrives), ==, here);
    g_assert_cmpuint(le16_to_cpu(vi->e.dg), ==, le16_to_cpu(g->dg));
    g_assert_cmpuint(vi->e.level, ==, n == 2 ? MGMT_LEVEL_1 : MGMT_LEVEL_5);
    g_assert_cmpuint(vi->e.state, ==, state);
    g_assert_cmphex(le16_to_cpu(vi->e.dev_handle), ==, MGMT_NONE16);
    g_assert_cmpuint(le64_to_cpu(vi->e.blocks), >, 0);
    g_assert_cmpuint(le64_to_cpu(vi->member_sectors), >, 0);
    g_assert_cmphex(mg(m, MGMT_OP_FOREIGN_CONFIG, 1, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_NO_FOREIGN);
}

/* Another controller's array: shown, imported; another's: cleared. */
static void test_foreign(void)
{
    static const uint16_t one[] = { 3 };
    MgmtCtrlInfo ci;
    Rig r;
    MR *m;

    rig_create_written(&mpi3_host_ops, &r, 4, 3, RAID_LEVEL_5, 51);

    m = mr_start(&r, ",serial=OTHERCTRL0000001");
    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 3);
    g_assert_cmpmem(((MgmtForeignEntry *)(mg_list() + 1))->ctrl_guid, 24,
                    "LSI     MRSIM00000000001", 24);
    OK(mg0(m, MGMT_OP_CTRL_GET_INFO));
    memcpy(&ci, res.data, sizeof(ci));
    g_assert_cmpuint(ci.num_foreign_pds, ==, 3);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_FOREIGN);
    g_assert_cmpuint(vd_count(m), ==, 0);
    check_foreign_config(m, "MRSIM00000000001", 3,
                         (const uint16_t[]){ 0, 1, 2 }, MGMT_VD_OPTIMAL);
    g_assert_cmphex(create_vd(m, MGMT_LEVEL_0, one, 1, "x"), ==,
                    MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(mg(m, MGMT_OP_FOREIGN_IMPORT, 0, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    OK(mg(m, MGMT_OP_FOREIGN_IMPORT, MGMT_NONE32, 0, 0, 0, NULL, 0));
    g_assert_nonnull(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    g_assert_cmpuint(vd_count(m), ==, 1);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_ONLINE);
    check_extents(m, 51);
    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 0);
    g_assert_true(evlog_has(m, 0x0502, -1));        /* imported */
    g_assert_cmphex(mg(m, MGMT_OP_FOREIGN_IMPORT, MGMT_NONE32, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_NO_FOREIGN);
    mr_stop(&r);

    /* a third controller clears it: every drive unconfigured good */
    m = mr_start(&r, ",serial=THIRDCTRL0000001");
    OK(mg(m, MGMT_OP_FOREIGN_CLEAR, MGMT_NONE32, 0, 0, 0, NULL, 0));
    g_assert_true(evlog_has(m, 0x0503, -1));        /* cleared */
    for (int i = 0; i < 4; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
    }
    g_assert_cmpuint(vd_count(m), ==, 0);
    OK(create_vd(m, MGMT_LEVEL_0, one, 1, "after"));
    mr_stop(&r);
    m = mr_start(&r, ",serial=THIRDCTRL0000001");
    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 0);
    g_assert_cmpuint(vd_count(m), ==, 1);
    for (int i = 0; i < 3; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
    }
    mr_stop(&r);
    rig_destroy(&r);
}

/* A request that must be refused with @status (and field @offset). */
static void refused(MR *m, uint8_t status, int offset, uint32_t opcode,
                    uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3,
                    const void *data, uint32_t dlen)
{
    g_assert_cmphex(mg(m, opcode, m0, m1, m2, m3, data, dlen), ==, status);
    if (offset >= 0) {
        g_assert_cmpuint(res.err_offset, ==, offset);
    }
}

static void test_malformed(void)
{
    uint8_t req[MG_BUF];
    uint8_t vcb[sizeof(MgmtVdCreate) + 8];
    MgmtVdCreate *vc = (void *)vcb;
    MgmtCtrlProps pp = { 0 };
    Rig r;
    MR *m;

    rig_create(&r, 6, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    write_extents(m, 61);

    /* the envelope */
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    stl_le_p(req, 0x12345678);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, MG_BUF), ==,
                    MGMT_STAT_INVALID_CMD);
    g_assert_cmpuint(res.err_offset, ==, 0);
    g_assert_cmphex(res.err_value, ==, 0x12345678);
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    stw_le_p(req + 4, 2);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, MG_BUF), ==,
                    MGMT_STAT_INVALID_CMD);
    g_assert_cmpuint(res.err_offset, ==, 4);
    g_assert_cmpuint(res.err_value, ==, 2);
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    stw_le_p(req + 6, 32);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, MG_BUF), ==,
                    MGMT_STAT_INVALID_CMD);
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    stl_le_p(req + 12, 1);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, MG_BUF), ==,
                    MGMT_STAT_INVALID_CMD);
    g_assert_cmpuint(res.err_offset, ==, 12);
    /* lengths: a command shorter than the header, data past the SGL */
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    g_assert_cmphex(mg_send(m, req, 40, 16, MG_BUF), ==,
                    MGMT_STAT_INVALID_CMD);
    mg_build(req, MGMT_OP_CTRL_SET_PROPS, 1, 0, 0, 0, &pp, sizeof(pp));
    g_assert_cmphex(mg_send(m, req, 56, 48, MG_BUF), ==, MGMT_STAT_DATA_LEN);
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    stl_le_p(req + 20, 5000);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, MG_BUF), ==,
                    MGMT_STAT_DATA_LEN);
    refused(m, MGMT_STAT_DATA_LEN, 20, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0,
            &pp, 4);
    refused(m, MGMT_STAT_DATA_LEN, 20, MGMT_OP_CTRL_SET_PROPS, 1, 0, 0, 0,
            &pp, 8);
    refused(m, MGMT_STAT_INVALID_OPCODE, 8, 0x09090909, 0, 0, 0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_OPCODE, 8, 0, 0, 0, 0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 32, MGMT_OP_CTRL_GET_INFO, 0, 0,
            1, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 28, MGMT_OP_PD_INFO, 0, 1, 0, 0,
            NULL, 0);

    /* a reply buffer too short for the data, and for a page of entries */
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, 64), ==,
                    MGMT_STAT_RESP_TOO_SMALL);
    g_assert_cmpuint(res.err_value, ==, 32 + sizeof(MgmtCtrlInfo));
    mg_build(req, MGMT_OP_PD_LIST, 0, 0, 0, 0, NULL, 0);
    g_assert_cmphex(mg_send(m, req, 40, MG_BUF, 64), ==,
                    MGMT_STAT_RESP_TOO_SMALL);
    mg_build(req, MGMT_OP_PD_LIST, 0, 0, 0, 0, NULL, 0);
    OK(mg_send(m, req, 40, MG_BUF, 32 + 24 + 2 * 32 + 5));
    g_assert_cmpuint(mg_list()->count, ==, 2);

    /* indexes out of range */
    refused(m, MGMT_STAT_DEVICE_NOT_FOUND, 24, MGMT_OP_PD_INFO, 99, 0, 0, 0,
            NULL, 0);
    refused(m, MGMT_STAT_DEVICE_NOT_FOUND, 24, MGMT_OP_PD_INFO, 0x10000, 0,
            0, 0, NULL, 0);
    refused(m, MGMT_STAT_VD_NOT_FOUND, 24, MGMT_OP_VD_INFO, 7, 0, 0, 0,
            NULL, 0);
    refused(m, MGMT_STAT_VD_NOT_FOUND, 24, MGMT_OP_VD_INFO, MGMT_NONE32, 0,
            0, 0, NULL, 0);
    refused(m, MGMT_STAT_VD_NOT_FOUND, 24, MGMT_OP_JOB_STATUS, 240, 0, 0, 0,
            NULL, 0);
    refused(m, MGMT_STAT_VD_NOT_FOUND, 24, MGMT_OP_VD_DELETE, 5, 0, 0, 0,
            NULL, 0);
    refused(m, MGMT_STAT_DG_NOT_FOUND, 28, MGMT_OP_PD_SPARE_ADD, 4, 300, 0,
            0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 28, MGMT_OP_PD_SET_STATE, 4, 0,
            0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 28, MGMT_OP_PD_SET_STATE, 4, 7,
            0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 32, MGMT_OP_PD_SET_STATE, 4,
            MGMT_SET_OFFLINE, MGMT_SET_F_FORCE, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 32, MGMT_OP_PD_SET_STATE, 4,
            MGMT_SET_ONLINE, 2, 0, NULL, 0);
    refused(m, MGMT_STAT_WRONG_STATE, -1, MGMT_OP_PD_SET_STATE, 4,
            MGMT_SET_OFFLINE, 0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 28, MGMT_OP_JOB_CONTROL, 0, 9,
            1, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 32, MGMT_OP_JOB_CONTROL, 0,
            MGMT_JOB_CC, 0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 36, MGMT_OP_JOB_CONTROL, 0,
            MGMT_JOB_CC, MGMT_JOB_PAUSE, MGMT_JOB_F_REPAIR, NULL, 0);
    refused(m, MGMT_STAT_VD_NOT_FOUND, 24, MGMT_OP_JOB_CONTROL, 9,
            MGMT_JOB_CC, MGMT_JOB_START, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_SEQ, 24, MGMT_OP_EVLOG_READ, 0x7fffffff, 0,
            0, 0, NULL, 0);
    refused(m, MGMT_STAT_NO_FOREIGN, -1, MGMT_OP_FOREIGN_CLEAR, MGMT_NONE32,
            0, 0, 0, NULL, 0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 24, MGMT_OP_FOREIGN_CLEAR, 1, 0,
            0, 0, NULL, 0);

    /* properties */
    pp.rebuild_rate = 101;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 40, MGMT_OP_CTRL_SET_PROPS,
            MGMT_PROP_REBUILD_RATE, 0, 0, 0, &pp, sizeof(pp));
    pp.rebuild_rate = 10;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 24, MGMT_OP_CTRL_SET_PROPS, 0, 0,
            0, 0, &pp, sizeof(pp));
    refused(m, MGMT_STAT_INVALID_PARAMETER, 24, MGMT_OP_CTRL_SET_PROPS, 0x40,
            0, 0, 0, &pp, sizeof(pp));
    refused(m, MGMT_STAT_INVALID_PARAMETER, 45, MGMT_OP_CTRL_SET_PROPS,
            MGMT_PROP_CACHE_FLUSH, 0, 0, 0, &pp, sizeof(pp));
    pp.reserved[3] = 1;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 49, MGMT_OP_CTRL_SET_PROPS,
            MGMT_PROP_REBUILD_RATE, 0, 0, 0, &pp, sizeof(pp));
    g_assert_cmpint(qom_get_int(m, CTRL, "rebuild-rate"), !=, 10);

    /* VD_CREATE's fields */
#define VC_RESET() do {                                         \
        memset(vcb, 0, sizeof(vcb));                            \
        vc->level = MGMT_LEVEL_1;                               \
        vc->ndrives = 2;                                        \
        vc->dg = cpu_to_le16(MGMT_NONE16);                      \
        stw_le_p(vcb + sizeof(*vc), 4);                         \
        stw_le_p(vcb + sizeof(*vc) + 2, 5);                     \
    } while (0)
    VC_RESET();
    refused(m, MGMT_STAT_DATA_LEN, 20, MGMT_OP_VD_CREATE, 0, 0, 0, 0, vcb,
            10);
    refused(m, MGMT_STAT_DATA_LEN, 20, MGMT_OP_VD_CREATE, 0, 0, 0, 0, vcb,
            sizeof(*vc));
    refused(m, MGMT_STAT_INVALID_PARAMETER, 24, MGMT_OP_VD_CREATE, 1, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    vc->level = 3;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 40, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->strip_kib = cpu_to_le32(100);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 44, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->strip_kib = cpu_to_le32(2048);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 44, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->cache = 0x80;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 43, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->nspans = 9;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 41, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->name[0] = 'a';
    vc->name[1] = 0x01;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 61, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->name[5] = 'z';                  /* after the terminating NUL */
    refused(m, MGMT_STAT_INVALID_PARAMETER, 65, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->flags = 0x80;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 58, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->reserved1[2] = 1;
    refused(m, MGMT_STAT_INVALID_PARAMETER, 78, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->dg = cpu_to_le16(5);
    refused(m, MGMT_STAT_DG_NOT_FOUND, 56, MGMT_OP_VD_CREATE, 0, 0, 0, 0,
            vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->dg = cpu_to_le16(0);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 42, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    stw_le_p(vcb + sizeof(*vc) + 2, 77);
    refused(m, MGMT_STAT_DEVICE_NOT_FOUND, 82, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    stw_le_p(vcb + sizeof(*vc) + 2, 4);
    refused(m, MGMT_STAT_INVALID_PARAMETER, 82, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    stw_le_p(vcb + sizeof(*vc), 0);     /* a member of VD 0 */
    refused(m, MGMT_STAT_WRONG_STATE, 80, MGMT_OP_VD_CREATE, 0, 0, 0, 0,
            vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->level = MGMT_LEVEL_6;           /* needs four drives */
    refused(m, MGMT_STAT_INVALID_PARAMETER, -1, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    VC_RESET();
    vc->size_sectors = cpu_to_le64(1ULL << 40);
    refused(m, MGMT_STAT_INVALID_PARAMETER, -1, MGMT_OP_VD_CREATE, 0, 0, 0,
            0, vcb, sizeof(*vc) + 4);
    g_assert_cmpuint(vd_count(m), ==, 1);
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);

    /* frames the device cannot use: MPI3 errors */
    mg_build(req, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0);
    qtest_memwrite(m->qts, MG_CMD(m), req, 40);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, MG_RESP(m), 16, -1), ==,
                    0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, MG_RESP(m), 0, -1), ==,
                    0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 0, 0x0C, MG_RESP(m), 4096, -1), ==,
                    0x0003);
    g_assert_cmphex(mg_frame(m, 1ULL << 52, 40, 0x0C, MG_RESP(m), 4096, -1),
                    ==, 0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, 1ULL << 52, 4096, -1),
                    ==, 0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, ~0ULL - 100, 4096, -1),
                    ==, 0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x30, MG_RESP(m), 4096, -1),
                    ==, 0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0E, MG_RESP(m), 4096, -1),
                    ==, 0x0003);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, MG_RESP(m), 4096, 0x10),
                    ==, 0x0007);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, MG_RESP(m), 4096, 0x0A),
                    ==, 0x0007);
    /* a response buffer larger than 4 KiB: only 4 KiB is written */
    qtest_memset(m->qts, MG_RESP(m) + MG_BUF, 0x77, 16);
    mg_build(req, MGMT_OP_PD_LIST, 0, 0, 0, 0, NULL, 0);
    qtest_memwrite(m->qts, MG_CMD(m), req, 40);
    g_assert_cmphex(mg_frame(m, MG_CMD(m), 40, 0x0C, MG_RESP(m), 65536, -1),
                    ==, 0);
    g_assert_cmphex(qtest_readb(m->qts, MG_RESP(m) + MG_BUF), ==, 0x77);

    /* random requests of every opcode: a status each, never harm */
    {
        static const uint32_t ops[] = {
            MGMT_OP_CTRL_GET_INFO, MGMT_OP_CTRL_GET_PROPS,
            MGMT_OP_CTRL_SET_PROPS, MGMT_OP_PD_LIST, MGMT_OP_PD_INFO,
            MGMT_OP_PD_SET_STATE, MGMT_OP_PD_SPARE_ADD,
            MGMT_OP_PD_SPARE_REMOVE, MGMT_OP_DG_LIST, MGMT_OP_VD_LIST,
            MGMT_OP_VD_INFO, MGMT_OP_VD_CREATE, MGMT_OP_VD_DELETE,
            MGMT_OP_JOB_CONTROL, MGMT_OP_JOB_STATUS, MGMT_OP_FOREIGN_SHOW,
            MGMT_OP_FOREIGN_IMPORT, MGMT_OP_FOREIGN_CLEAR, MGMT_OP_CV_STATUS,
            MGMT_OP_EVLOG_INFO, MGMT_OP_EVLOG_READ,
        };
        uint8_t data[256];

        for (int i = 0; i < 300; i++) {
            uint32_t op = ops[g_test_rand_int_range(0, ARRAY_SIZE(ops))];
            uint32_t dlen = g_test_rand_int_range(0, sizeof(data));
            uint32_t mb[4];

            for (int k = 0; k < 4; k++) {
                /* small numbers hit real objects, large ones none */
                mb[k] = g_test_rand_bit() ? g_test_rand_int_range(0, 8)
                                          : g_test_rand_int();
            }
            for (uint32_t k = 0; k < dlen; k++) {
                data[k] = g_test_rand_int();
            }
            if (op == MGMT_OP_PD_SET_STATE || op == MGMT_OP_VD_DELETE ||
                op == MGMT_OP_JOB_CONTROL || op == MGMT_OP_FOREIGN_CLEAR) {
                mb[0] |= 0x100;         /* leave the array alone */
            }
            mg(m, op, mb[0], mb[1], mb[2], mb[3], data,
               g_test_rand_bit() ? dlen : 0);
        }
    }
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
    OK(mg0(m, MGMT_OP_CTRL_GET_INFO));
    check_extents(m, 61);
    mr_stop(&r);
    rig_destroy(&r);
}

static bool meta_pending(MR *m)
{
    QDict *rsp = qts_qom_get(m->qts, CTRL, "metadata-pending");
    bool busy = qdict_get_bool(rsp, "return");

    qobject_unref(rsp);
    return busy;
}

/* Submit management command @opcode (mailbox @m0, @m1) without waiting. */
static void mg_submit(MR *m, uint32_t opcode, uint32_t m0, uint32_t m1)
{
    uint8_t req[MG_BUF], f[64];

    mg_build(req, opcode, m0, m1, 0, 0, NULL, 0);
    qtest_memwrite(m->qts, MG_CMD(m), req, sizeof(MgmtRequest));
    qtest_memset(m->qts, MG_RESP(m), 0xEE, MG_BUF);
    mg_frame_build(f, MG_CMD(m), MG_BUF, 0x0C, MG_RESP(m), MG_BUF, -1);
    h_submit_admin(m, f, sizeof(f));
}

/*
 * While the command is owed its reply: QOM property @prop of @path reads
 * @want (no @path: QMP query-status answers), QMP answers (the slowest
 * answer, in us, returned) and no reply comes.
 */
static int64_t mg_pending(MR *m, const char *path, const char *prop,
                          const char *want)
{
    int64_t worst = 0;
    Desc d;

    for (int i = 0; i < 5; i++) {
        int64_t t0 = g_get_monotonic_time();

        if (path) {
            g_autofree char *st = qom_get_str(m, path, prop);

            g_assert_cmpstr(st, ==, want);
        } else {
            QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-status'}");

            g_assert_true(qdict_haskey(rsp, "return"));
            qobject_unref(rsp);
        }
        worst = MAX(worst, g_get_monotonic_time() - t0);
        while (h_admin_reply(m, &d, 20)) {
            g_assert_true(mr_keep_event(m, &d));
        }
    }
    g_assert_true(meta_pending(m));
    return worst;
}

/* The clock runs until the command's reply comes: OK, magic and status. */
static void mg_wait_ok(MR *m)
{
    uint8_t raw[64];
    bool replied = false;
    Desc d;

    for (int i = 0; i < 400 && !replied; i++) {
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        while (!replied && h_admin_reply(m, &d, 5)) {
            if (!mr_keep_event(m, &d)) {
                g_assert_cmphex(d.tag, ==, MG_TAG);
                g_assert_cmphex(d.status, ==, 0);
                replied = true;
            }
        }
    }
    g_assert_true(replied);
    qtest_memread(m->qts, MG_RESP(m), raw, sizeof(raw));
    g_assert_cmphex(ldl_le_p(raw), ==, MGMT_REPLY_MAGIC);
    g_assert_cmphex(raw[16], ==, MGMT_STAT_OK);
}

/*
 * A change is answered once it is on the drives: with a member throttled
 * (one write per 200 ms of the virtual clock, which only the test moves),
 * PD_SET_STATE OFFLINE of the other member gets no reply while the
 * metadata is pending, QMP answers meanwhile, and the reply comes (OK)
 * once the clock has run and the survivors hold the new state.
 */
static void test_durable(void)
{
    Rig r;
    MR *m;

    rig_create(&r, 3, 2, 0, RAID_LEVEL_1);
    m = mr_start(&r, NULL);
    qts_throttle_writes(m->qts, "hd1", 5);
    mg_submit(m, MGMT_OP_PD_SET_STATE, 0, MGMT_SET_OFFLINE);
    /* the change is made (QMP sees it) but not answered yet */
    mg_pending(m, "/machine/peripheral/hd0", "state", "offline");
    /* the clock runs: the metadata lands, then the reply */
    mg_wait_ok(m);
    g_assert_false(meta_pending(m));
    {
        RaidConfig *cfg = rig_load(&r);

        g_assert_cmpint(cfg->pds[0].state, ==, RAID_PD_OFFLINE);
        g_assert_cmpint(cfg->vds[0].state, ==, RAID_VD_DEGRADED);
        raid_config_free(cfg);
    }
    /* (QEMU's exit writes the metadata once more: not at a frozen clock) */
    qts_throttle_writes(m->qts, "hd1", 0);
    mr_stop(&r);
    rig_destroy(&r);
}

/* Is the drive of device handle @handle hidden from the host? */
static bool drive_hidden(MR *m, uint16_t handle)
{
    uint8_t page[64];

    g_assert_cmphex(mr_device_page0(m, handle, page), ==, 0);
    return lduw_le_p(page + PG0_FLAGS) & PG0_FLAG_HIDDEN;
}

/*
 * FOREIGN CLEAR of another controller's drive next to our configuration:
 * the metadata writer zeroes the drive's metadata area, and both the
 * reply and the drive's showing to the host wait for that.  With the
 * drive throttled (one write a second of the virtual clock, its budget
 * spent by a write first) the drive stays hidden while QMP answers; once
 * the clock runs the reply is OK, the drive unconfigured good and shown
 * (an INFO CHANGED without the hidden flag), its metadata area zero.
 */
static void test_foreign_wipe(void)
{
    g_autofree uint8_t *tail = g_malloc(1024 * 1024);
    const uint16_t handle = 3;                  /* slot 2 */
    const uint8_t *pg;
    MgmtCtrlInfo ci;
    QDict *rsp;
    int64_t worst;
    Rig r, o;
    MR *m;
    FILE *f;

    rig_create(&r, 2, 2, 0, RAID_LEVEL_1);
    /* another controller's array: imported there, so written with its id */
    rig_create(&o, 2, 2, 0, RAID_LEVEL_1);
    m = mr_start(&o, ",serial=OTHERCTRL0000001");
    OK(mg(m, MGMT_OP_FOREIGN_IMPORT, MGMT_NONE32, 0, 0, 0, NULL, 0));
    mr_stop(&o);
    /* (at start the newer foreign configuration would win: hot plug) */
    m = mr_start(&r, NULL);
    qts_plug_drive(m->qts, "df", o.path[0], "hdf", 2, "nvme");
    mr_pump_events(m, 100);
    OK(mg0(m, MGMT_OP_CTRL_GET_INFO));
    memcpy(&ci, res.data, sizeof(ci));
    g_assert_cmpuint(ci.num_foreign_pds, ==, 1);
    g_assert_true(drive_hidden(m, handle));
    /* its own metadata: a RAID 1 of which only it is here */
    check_foreign_config(m, "OTHERCTRL0000001", 2,
                         (const uint16_t[]){ 2, MGMT_NONE16 },
                         MGMT_VD_DEGRADED);
    qts_throttle_writes(m->qts, "hdf", 1);
    rsp = qtest_qmp(m->qts, "{'execute': 'human-monitor-command',"
                    " 'arguments': {'command-line':"
                    " 'qemu-io -d hdf \"write 0 512\"'}}");
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);

    mg_submit(m, MGMT_OP_FOREIGN_CLEAR, MGMT_NONE32, 0);
    worst = mg_pending(m, NULL, NULL, NULL);
    g_test_message("QMP while the wipe waits: %" PRId64 " us at most", worst);
    g_assert_cmpint(worst, <, 1000 * 1000);
    g_assert_true(drive_hidden(m, handle));
    g_assert_null(mr_last_page(m, handle, EV_DEVICE_INFO_CHANGED));
    mg_wait_ok(m);
    mr_pump_events(m, 100);
    pg = mr_last_page(m, handle, EV_DEVICE_INFO_CHANGED);
    g_assert_nonnull(pg);
    g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==, 0);
    g_assert_false(drive_hidden(m, handle));
    g_assert_cmpuint(pd_state(m, 2), ==, MGMT_PD_UNCONF_GOOD);
    OK(mg0(m, MGMT_OP_CTRL_GET_INFO));
    memcpy(&ci, res.data, sizeof(ci));
    g_assert_cmpuint(ci.num_foreign_pds, ==, 0);
    f = fopen(o.path[0], "rb");
    g_assert_nonnull(f);
    g_assert_cmpint(fseek(f, -1024 * 1024, SEEK_END), ==, 0);
    g_assert_cmpuint(fread(tail, 1, 1024 * 1024, f), ==, 1024 * 1024);
    fclose(f);
    g_assert_true(buffer_is_zero(tail, 1024 * 1024));
    qts_throttle_writes(m->qts, "hdf", 0);
    mr_stop(&r);
    rig_destroy(&r);
    rig_destroy(&o);
}

static QTestState *stall_qts;

/* QEMU did not answer in time (its main loop waits): fail. */
static void mg_stall_alarm(int sig)
{
    static const char msg[] = "QEMU's main loop stopped answering while a "
                              "management command waited for I/O\n";

    if (stall_qts) {
        kill(qtest_pid(stall_qts), SIGKILL);
    }
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing to do */
    }
    abort();
}

/*
 * VD DELETE of a write-back VD whose dirty lines only the cache and its
 * journal hold, one member throttled (one write per 200 ms of the
 * virtual clock): the destage waits for it, and meanwhile QMP answers
 * within 50 ms and no reply comes; once the clock runs the reply is OK,
 * the cache clean and the VD gone from the drives.
 */
static void test_delete_destage(void)
{
    struct sigaction sa = { 0 };
    g_autofree char *props = NULL;
    g_autofree char *wp = NULL;
    char *jnl;
    int64_t worst = 0;
    Rig r;
    MR *m;
    Desc d;

    rig_create_cached(&r, 2, 2, 0, RAID_LEVEL_1, RAID_CACHE_WRITE_BACK);
    rig_tmp_paths(&jnl, 1, "megaraid-mgmt-jnl");
    h_img_create("qcow2", NULL, jnl, "8M");
    props = journal_props(jnl, "");
    m = mr_start(&r, props);
    wp = qom_get_str(m, CTRL, "vd0-write-policy");
    g_assert_cmpstr(wp, ==, "write-back");
    write_extents_held(m, 60);
    qts_throttle_writes(m->qts, "hd1", 5);

    sa.sa_handler = mg_stall_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    stall_qts = m->qts;
    alarm(20);
    mg_submit(m, MGMT_OP_VD_DELETE, 0, 0);
    for (int i = 0; i < 5; i++) {
        int64_t t0 = g_get_monotonic_time();
        QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");

        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);
        g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), >, 0);
        worst = MAX(worst, g_get_monotonic_time() - t0);
        while (h_admin_reply(m, &d, 20)) {
            /* only events: the reply waits for the destage */
            g_assert_true(mr_keep_event(m, &d));
        }
    }
    g_test_message("QMP while the destage waits: %" PRId64 " us at most",
                   worst);
    g_assert_cmpint(worst, <, 50 * 1000);
    alarm(0);
    stall_qts = NULL;

    /* the clock runs: the destage ends, the metadata lands, the reply */
    mg_wait_ok(m);
    g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), ==, 0);
    {
        RaidConfig *cfg = rig_load(&r);

        g_assert_false(cfg->vds[0].used);
        raid_config_free(cfg);
    }
    qts_throttle_writes(m->qts, "hd1", 0);
    mr_stop(&r);
    rig_destroy(&r);
    unlink(jnl);
    g_free(jnl);
}

/* PATROL_CONTROL / PATROL_STATUS: a medium error on RAID 5 is repaired. */
static MgmtPatrolStatus patrol_status(MR *m)
{
    MgmtPatrolStatus ps;

    OK(mg0(m, MGMT_OP_PATROL_STATUS));
    res_take(&ps, sizeof(ps));
    return ps;
}

static void test_patrol(void)
{
    MgmtPatrolStatus ps;
    Rig r;
    MR *m;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 0);
    g_assert_cmpuint(ps.rate, ==, 30);
    g_assert_cmpuint(ps.iterations, ==, 0);
    g_assert_cmpuint(ps.mode, ==, MGMT_PATROL_MODE_MANUAL);
    /* off: refused; the props' patrol_read follows the mode */
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_MODE, MGMT_PATROL_MODE_OFF,
          0, 0, NULL, 0));
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_WRONG_STATE);
    OK(mg0(m, MGMT_OP_CTRL_GET_PROPS));
    g_assert_cmpuint(((MgmtCtrlProps *)res.data)->patrol_read, ==, 0);
    {
        MgmtCtrlProps p = { .patrol_read = 1 };

        OK(mg(m, MGMT_OP_CTRL_SET_PROPS, MGMT_PROP_PATROL_READ, 0, 0, 0, &p,
              sizeof(p)));
        g_assert_cmpuint(((MgmtCtrlProps *)res.data)->patrol_read, ==, 1);
    }
    g_assert_cmpuint(patrol_status(m).mode, ==, MGMT_PATROL_MODE_MANUAL);
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_MODE, 3, 0, 0,
                       NULL, 0), ==, MGMT_STAT_INVALID_PARAMETER);
    /* bad requests */
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, 7, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 101, 0,
                       0, NULL, 0), ==, MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_STOP, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_NO_JOB);
    /* a slow pass: busy, progress, stop */
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 1, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0, NULL, 0));
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_BUSY);
    g_usleep(500 * 1000);
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 1);
    g_assert_cmpuint(ps.rate, ==, 1);
    g_assert_cmpuint(ps.done_sectors, >, 0);
    g_assert_cmpuint(ps.done_sectors, <, ps.total_sectors);
    g_assert_cmpuint(ps.drive_slot, !=, MGMT_NONE16);
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_STOP, 0, 0, 0, NULL, 0));
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 0);
    g_assert_cmpuint(ps.iterations, ==, 0);
    g_assert_true(evlog_has(m, 0x0008, -1));            /* stopped */
    /* a medium error on member 2, a full pass at 100 % */
    qts_qom_set_str(m->qts, "/machine/peripheral/hd2", "media-error",
                    "3850+8");
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 100, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0, NULL, 0));
    for (int i = 0; i < 600 && patrol_status(m).running; i++) {
        g_usleep(100 * 1000);
    }
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 0);
    g_assert_cmpuint(ps.iterations, ==, 1);
    g_assert_cmpuint(ps.percent, ==, 100);
    g_assert_cmpuint(ps.corrected, ==, 1);
    g_assert_cmpuint(ps.uncorrectable, ==, 0);
    g_assert_cmpuint(ps.drives_done, ==, 4);
    g_assert_cmpuint(evlog_count(m, 0x0107, 2), ==, 1); /* repaired */
    g_assert_true(evlog_has(m, 0x0007, -1));            /* done */
    /* a VD delete stops a running pass; with no VD nothing is read */
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 1, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(patrol_status(m).running, ==, 1);
    OK(mg(m, MGMT_OP_VD_DELETE, 0, 0, 0, 0, NULL, 0));
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 0);
    g_assert_cmpuint(ps.iterations, ==, 1);
    g_assert_cmpuint(evlog_count(m, 0x0008, -1), ==, 2);    /* stopped */
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_START, 0, 0, 0,
                       NULL, 0), ==, MGMT_STAT_WRONG_STATE);
    {
        g_autofree char *left = qts_qom_get_str(m->qts,
                                                "/machine/peripheral/hd2",
                                                "media-error");

        g_assert_cmpstr(left, ==, "");
    }
    mr_stop(&r);
    rig_destroy(&r);

    /* mode auto with a delay of 0 hours: passes follow one another */
    rig_create(&r, 2, 2, 0, RAID_LEVEL_1);
    m = mr_start(&r, NULL);
    g_assert_cmphex(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_DELAY,
                       100000, 0, 0, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_DELAY, 0, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, 100, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_MODE, MGMT_PATROL_MODE_AUTO,
          0, 0, NULL, 0));
    for (int i = 0; i < 600 && patrol_status(m).iterations < 2; i++) {
        g_usleep(50 * 1000);
    }
    g_assert_cmpuint(patrol_status(m).iterations, >=, 2);
    OK(mg(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_MODE,
          MGMT_PATROL_MODE_MANUAL, 0, 0, NULL, 0));
    for (int i = 0; i < 600 && patrol_status(m).running; i++) {
        g_usleep(50 * 1000);
    }
    ps = patrol_status(m);
    g_assert_cmpuint(ps.running, ==, 0);
    g_usleep(300 * 1000);
    g_assert_cmpuint(patrol_status(m).iterations, ==, ps.iterations);
    mr_stop(&r);
    rig_destroy(&r);
}

/* ---- waits that run in a coroutine (issue 21: no main-loop stall) ---- */

/* Submit a request with four mailbox words; its reply is owed. */
static void mg_submit4(MR *m, uint32_t opcode, uint32_t m0, uint32_t m1,
                       uint32_t m2, uint32_t m3)
{
    uint8_t req[MG_BUF], f[64];

    mg_build(req, opcode, m0, m1, m2, m3, NULL, 0);
    qtest_memwrite(m->qts, MG_CMD(m), req, sizeof(MgmtRequest));
    qtest_memset(m->qts, MG_RESP(m), 0xEE, MG_BUF);
    mg_frame_build(f, MG_CMD(m), MG_BUF, 0x0C, MG_RESP(m), MG_BUF, -1);
    h_submit_admin(m, f, sizeof(f));
}

/*
 * While the submitted command waits: QMP answers within 50 ms each time
 * (SIGALRM kills QEMU and fails the test if the main loop stopped), no
 * reply comes, and @check (may be NULL) holds.  Returns the slowest QMP
 * answer in us.
 */
static int64_t mg_waits_in_coroutine(MR *m, void (*check)(MR *m))
{
    struct sigaction sa = { 0 };
    int64_t worst = 0;
    Desc d;

    sa.sa_handler = mg_stall_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    stall_qts = m->qts;
    alarm(20);
    for (int i = 0; i < 5; i++) {
        int64_t t0 = g_get_monotonic_time();
        QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");

        g_assert_true(qdict_haskey(rsp, "return"));
        qobject_unref(rsp);
        worst = MAX(worst, g_get_monotonic_time() - t0);
        while (h_admin_reply(m, &d, 20)) {
            /* only events: the reply waits */
            g_assert_true(mr_keep_event(m, &d));
        }
        if (check) {
            check(m);
        }
    }
    alarm(0);
    stall_qts = NULL;
    g_assert_cmpint(worst, <, 50 * 1000);
    return worst;
}

/* The job status the reply of a JOB CONTROL carries (after mg_wait_ok). */
static MgmtJobStatus mg_reply_job(MR *m)
{
    uint8_t raw[sizeof(MgmtReply) + sizeof(MgmtJobStatus)];
    MgmtJobStatus js;

    qtest_memread(m->qts, MG_RESP(m), raw, sizeof(raw));
    g_assert_cmpuint(ldl_le_p(raw + offsetof(MgmtReply, data_len)), ==,
                     sizeof(js));
    memcpy(&js, raw + sizeof(MgmtReply), sizeof(js));
    return js;
}

/*
 * JOB CONTROL pause and rebuild stop while the rebuild's target is
 * throttled (one write per 200 ms of the virtual clock, which only the
 * test moves): the job's current window cannot end, so the stop waits;
 * meanwhile QMP answers within 50 ms and no reply comes.  Once the clock
 * runs the reply comes: for the pause with the job's status after the
 * stop (paused, not running), for the stop with the drive offline again.
 */
static void test_job_stop_wait(void)
{
    MgmtJobStatus js;
    int64_t worst;
    Rig r;
    MR *m;

    rig_create(&r, 2, 2, 0, RAID_LEVEL_1);
    m = mr_start(&r, NULL);
    OK(set_state(m, 1, MGMT_SET_OFFLINE, 0));
    for (int round = 0; round < 2; round++) {
        bool pause = round == 1;

        /* a rebuild from row 0, its next window stuck in the throttle */
        OK(set_rate(m, 1));
        OK(job(m, 1, MGMT_JOB_REBUILD, MGMT_JOB_START, 0));
        g_assert_cmpuint(pd_state(m, 1), ==, MGMT_PD_REBUILD);
        qts_throttle_writes(m->qts, "hd1", 5);
        OK(set_rate(m, 100));
        g_usleep(300 * 1000);
        js = job_status(m, 0);
        g_assert_cmpuint(js.job, ==, MGMT_JOB_REBUILD);
        g_assert_cmpuint(js.running, ==, 1);
        g_assert_cmpuint(js.next_row, <, js.total_rows / 2);

        mg_submit4(m, MGMT_OP_JOB_CONTROL, 1, MGMT_JOB_REBUILD,
                   pause ? MGMT_JOB_PAUSE : MGMT_JOB_STOP, 0);
        worst = mg_waits_in_coroutine(m, NULL);
        g_test_message("QMP while the %s waits: %" PRId64 " us at most",
                       pause ? "pause" : "stop", worst);
        mg_wait_ok(m);
        qts_throttle_writes(m->qts, "hd1", 0);
        if (pause) {
            /* the reply: the job's status after the stop */
            js = mg_reply_job(m);
            g_assert_cmpuint(js.job, ==, MGMT_JOB_REBUILD);
            g_assert_cmpuint(js.target_slot, ==, 1);
            g_assert_cmpuint(js.paused, ==, 1);
            g_assert_cmpuint(js.running, ==, 0);
            g_assert_cmpuint(js.next_row, <, js.total_rows);
            g_assert_cmpuint(pd_state(m, 1), ==, MGMT_PD_REBUILD);
            break;
        }
        g_assert_cmpuint(pd_state(m, 1), ==, MGMT_PD_OFFLINE);
        g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
        g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_DEGRADED);
        g_assert_true(evlog_has(m, 0x0304, 0));     /* job aborted */
        {
            RaidConfig *cfg = rig_load(&r);

            g_assert_cmpint(cfg->pds[1].state, ==, RAID_PD_OFFLINE);
            raid_config_free(cfg);
        }
    }
    /* resumed, the rebuild ends */
    OK(job(m, 1, MGMT_JOB_REBUILD, MGMT_JOB_RESUME, 0));
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_cmpuint(pd_state(m, 1), ==, MGMT_PD_ONLINE);
    mr_stop(&r);
    rig_destroy(&r);
}

/*
 * JOB CONTROL pause and stop of a copyback whose target is throttled
 * (one write per 200 ms of the virtual clock): the copy's window cannot
 * end, so each waits in a coroutine; QMP answers within 50 ms and no
 * reply comes.  Once the clock runs the pause's reply says paused, not
 * running; after a resume the stop's reply comes with the target
 * unconfigured good again and the abort logged.  Started again, the
 * host's vd0-job "none" returns at once and reads "stopping" until the
 * clock runs, then "none", the target unconfigured good.
 */
static void test_copyback_stop_wait(void)
{
    MgmtJobStatus js;
    int64_t worst, t0;
    Rig r;
    MR *m;

    rig_create(&r, 6, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    OK(set_rate(m, 1));
    OK(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 4));
    qts_throttle_writes(m->qts, "hd4", 5);
    OK(set_rate(m, 100));
    for (int round = 0; round < 2; round++) {
        bool pause = round == 0;

        g_usleep(300 * 1000);
        g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_COPYBACK);
        mg_submit4(m, MGMT_OP_JOB_CONTROL, 4, MGMT_JOB_COPYBACK,
                   pause ? MGMT_JOB_PAUSE : MGMT_JOB_STOP, 0);
        worst = mg_waits_in_coroutine(m, NULL);
        g_test_message("QMP while the copyback's %s waits: %" PRId64
                       " us at most", pause ? "pause" : "stop", worst);
        mg_wait_ok(m);
        if (pause) {
            js = mg_reply_job(m);
            g_assert_cmpuint(js.job, ==, MGMT_JOB_COPYBACK);
            g_assert_cmpuint(js.paused, ==, 1);
            g_assert_cmpuint(js.running, ==, 0);
            g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_COPYBACK);
            OK(job(m, 4, MGMT_JOB_COPYBACK, MGMT_JOB_RESUME, 0));
            continue;
        }
        g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);
        g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
        g_assert_true(evlog_has(m, MR_EV_JOB_ABORTED, 0));
    }
    /* (its metadata goes to the throttled target too: the clock runs) */
    mg_submit4(m, MGMT_OP_JOB_CONTROL, 2, MGMT_JOB_COPYBACK,
               MGMT_JOB_START, 4);
    mg_wait_ok(m);
    g_usleep(300 * 1000);
    t0 = g_get_monotonic_time();
    qts_qom_set_str(m->qts, CTRL, "vd0-job", "none");
    g_assert_cmpint(g_get_monotonic_time() - t0, <, 50 * 1000);
    for (int i = 0; i < 400; i++) {
        g_autofree char *st = qts_qom_get_str(m->qts, CTRL, "vd0-job");

        if (i == 0) {
            g_assert_cmpstr(st, ==, "stopping");
        } else if (strcmp(st, "stopping")) {
            g_assert_cmpstr(st, ==, "none");
            break;
        }
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        g_usleep(10 * 1000);
    }
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);
    qts_throttle_writes(m->qts, "hd4", 0);
    mr_stop(&r);
    rig_destroy(&r);
}

/* While the import waits: its VD is not shown to the host yet. */
static void import_hidden(MR *m)
{
    g_assert_null(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), >, 0);
}

/*
 * FOREIGN IMPORT of drives whose write-back data only the journal holds
 * (the controller died; drives and CacheVault went to another one): the
 * replay's destage to a throttled member waits in a coroutine.  QMP
 * answers within 50 ms, the VD stays hidden and no reply comes; once the
 * clock runs the reply is OK, the VD shown, the cache clean and the data
 * the host wrote there.
 */
static void test_import_replay(void)
{
    g_autofree char *props = NULL;
    g_autofree char *props2 = NULL;
    char *jnl[2];
    int64_t worst;
    Rig r, c;
    MR *m;

    rig_create_cached(&r, 2, 2, 0, RAID_LEVEL_1, RAID_CACHE_WRITE_BACK);
    rig_tmp_paths(jnl, 2, "megaraid-mgmt-jnl");
    h_img_create("qcow2", "preallocation=metadata", jnl[0], "8M");
    props = journal_props(jnl[0], "");
    m = mr_start(&r, props);
    write_extents_held(m, 62);
    g_assert_cmpint(qom_get_int(m, CTRL, "journal-records"), >, 0);
    /* the kill: the drives and the journal as they are now */
    rig_copy(&c, &r, "megaraid-mgmt-copy");
    rig_copy_file(jnl[0], jnl[1]);
    mr_stop(&r);

    /* another controller: foreign until imported, the journal untouched */
    props2 = journal_props(jnl[1], ",serial=OTHERCTRL0000001");
    m = mr_start(&c, props2);
    g_assert_cmpuint(vd_count(m), ==, 0);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_FOREIGN);
    qts_throttle_writes(m->qts, "hd1", 5);
    mg_submit(m, MGMT_OP_FOREIGN_IMPORT, MGMT_NONE32, 0);
    worst = mg_waits_in_coroutine(m, import_hidden);
    g_test_message("QMP while the import's replay waits: %" PRId64
                   " us at most", worst);
    mg_wait_ok(m);
    qts_throttle_writes(m->qts, "hd1", 0);
    mr_pump_events(m, 100);
    g_assert_nonnull(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    g_assert_cmpuint(vd_count(m), ==, 1);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_ONLINE);
    g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), ==, 0);
    g_assert_cmpint(qom_get_int(m, CTRL, "journal-records"), ==, 0);
    g_assert_true(evlog_has(m, 0x0502, -1));        /* imported */
    check_extents(m, 62);
    mr_stop(&c);
    /* the members hold it: read back without the journal */
    m = mr_start(&c, ",serial=OTHERCTRL0000001,cache-size=4M");
    check_extents(m, 62);
    mr_stop(&c);
    rig_destroy(&r);
    rig_destroy(&c);
    for (int i = 0; i < 2; i++) {
        unlink(jnl[i]);
        g_free(jnl[i]);
    }
}

/*
 * FOREIGN IMPORT or CLEAR (@op; @ev: the event it logs when done) whose
 * journal cannot be read (its header is not ours): the cache does not
 * start, the reply is an I/O error and nothing of the change is left: no
 * VD, the drives still foreign, on the drives too.
 */
static void foreign_fail(uint32_t op, uint16_t ev)
{
    g_autofree char *props = NULL;
    uint8_t junk[512];
    uint32_t seq;
    char *jnl;
    FILE *f;
    Rig r;
    MR *m;

    rig_create_cached(&r, 2, 2, 0, RAID_LEVEL_1, RAID_CACHE_WRITE_BACK);
    {
        RaidConfig *cfg = rig_load(&r);

        seq = cfg->seq;
        raid_config_free(cfg);
    }
    rig_tmp_paths(&jnl, 1, "megaraid-mgmt-jnl");
    h_img_create("raw", NULL, jnl, "8M");
    memset(junk, 0x5A, sizeof(junk));
    f = fopen(jnl, "r+b");
    g_assert_nonnull(f);
    g_assert_cmpuint(fwrite(junk, 1, sizeof(junk), f), ==, sizeof(junk));
    fclose(f);
    props = g_strdup_printf(",serial=OTHERCTRL0000001,cache-size=4M,"
                            "journal=jnl0 -blockdev driver=raw,"
                            "node-name=jnl0,file.driver=file,"
                            "file.filename=%s", jnl);
    m = mr_start(&r, props);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_FOREIGN);
    g_assert_cmphex(mg(m, op, MGMT_NONE32, 0, 0, 0, NULL, 0), ==,
                    MGMT_STAT_IO_ERROR);
    mr_pump_events(m, 100);
    g_assert_null(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    g_assert_cmpuint(vd_count(m), ==, 0);
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_FOREIGN);
    }
    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 2);
    g_assert_false(evlog_has(m, ev, -1));           /* not done */
    /* nothing on the drives changed */
    {
        RaidConfig *cfg = rig_load(&r);

        g_assert_cmpuint(cfg->seq, ==, seq);
        g_assert_true(cfg->vds[0].used);
        raid_config_free(cfg);
    }
    mr_stop(&r);
    rig_destroy(&r);
    unlink(jnl);
    g_free(jnl);
}

static void test_import_fail(void)
{
    foreign_fail(MGMT_OP_FOREIGN_IMPORT, 0x0502);
}

/* The same for FOREIGN CLEAR: the old configuration is left, foreign. */
static void test_foreign_clear_fail(void)
{
    foreign_fail(MGMT_OP_FOREIGN_CLEAR, 0x0503);
}

/*
 * FOREIGN CLEAR of a whole foreign configuration starts the cache: its
 * journal (behind a throttle node: one request per second of the virtual
 * clock, which only the test moves) is read and a new generation written
 * in a coroutine.  QMP answers within 50 ms and no reply comes; once the
 * clock runs the reply is OK, every drive unconfigured good, also on the
 * drives and after a restart.
 */
static void test_foreign_clear_wait(void)
{
    g_autofree char *props = NULL;
    int64_t worst;
    char *jnl;
    Rig r;
    MR *m;

    rig_create_cached(&r, 2, 2, 0, RAID_LEVEL_1, RAID_CACHE_WRITE_BACK);
    rig_tmp_paths(&jnl, 1, "megaraid-mgmt-jnl");
    h_img_create("raw", NULL, jnl, "8M");
    props = g_strdup_printf(",serial=OTHERCTRL0000001,cache-size=4M,"
                            "journal=jnl0 -object throttle-group,id=tgj,"
                            "x-iops-total=1 -blockdev driver=file,"
                            "node-name=jnlf,filename=%s -blockdev "
                            "driver=throttle,node-name=jnl0,"
                            "throttle-group=tgj,file=jnlf", jnl);
    m = mr_start(&r, props);
    g_assert_cmpuint(pd_state(m, 0), ==, MGMT_PD_FOREIGN);
    mg_submit(m, MGMT_OP_FOREIGN_CLEAR, MGMT_NONE32, 0);
    worst = mg_waits_in_coroutine(m, NULL);
    g_test_message("QMP while the clear's cache start waits: %" PRId64
                   " us at most", worst);
    mg_wait_ok(m);
    g_assert_true(evlog_has(m, 0x0503, -1));        /* cleared */
    g_assert_cmpuint(vd_count(m), ==, 0);
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
    }
    OK(mg0(m, MGMT_OP_FOREIGN_SHOW));
    g_assert_cmpuint(mg_list()->total, ==, 0);
    mr_stop(&r);
    {
        RaidConfig *cfg = rig_load(&r);

        /* (read as the first controller's: foreign to it) */
        g_assert_false(cfg->vds[0].used);
        raid_config_free(cfg);
    }
    m = mr_start(&r, ",serial=OTHERCTRL0000001");
    g_assert_cmpuint(vd_count(m), ==, 0);
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(pd_state(m, i), ==, MGMT_PD_UNCONF_GOOD);
    }
    mr_stop(&r);
    rig_destroy(&r);
    unlink(jnl);
    g_free(jnl);
}

/* A drive's locate flag as QOM and query-megaraid show it. */
static bool qom_locate(MR *m, int slot)
{
    g_autofree char *p = drive_path(slot);
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': 'locate'}}", p);
    bool on;

    g_assert_true(qdict_haskey(rsp, "return"));
    on = qdict_get_bool(rsp, "return");
    qobject_unref(rsp);
    return on;
}

static bool qmp_locate(MR *m, int slot)
{
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");
    QList *ctrls = qdict_get_qlist(rsp, "return");
    QDict *ctrl = qobject_to(QDict, qlist_peek(ctrls));
    const QListEntry *e;
    int found = -1;

    g_assert_nonnull(ctrl);
    QLIST_FOREACH_ENTRY(qdict_get_qlist(ctrl, "drives"), e) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == slot) {
            found = qdict_get_bool(d, "locate");
        }
    }
    qobject_unref(rsp);
    g_assert_cmpint(found, >=, 0);
    return found;
}

/* PD_LOCATE: on, off, timed, refusals; QOM, QMP, the PD list, events. */
static void test_locate(void)
{
    MgmtPdEntry pe;
    Rig r;
    MR *m;

    rig_create(&r, 4, 3, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    g_assert_false(qom_locate(m, 1));
    g_assert_false(qmp_locate(m, 1));
    g_assert_false(pd_entry(m, 1).flags & MGMT_PD_F_LOCATE);

    /* a member and an unconfigured drive, until stopped */
    OK(mg(m, MGMT_OP_PD_LOCATE, 1, 1, 0, 0, NULL, 0));
    res_take(&pe, sizeof(pe));
    g_assert_cmpuint(pe.slot, ==, 1);
    g_assert_true(pe.flags & MGMT_PD_F_LOCATE);
    g_assert_cmpuint(pe.state, ==, MGMT_PD_ONLINE);
    OK(mg(m, MGMT_OP_PD_LOCATE, 3, 1, 0, 0, NULL, 0));
    g_assert_true(qom_locate(m, 1));
    g_assert_true(qmp_locate(m, 1));
    g_assert_true(qom_locate(m, 3));
    g_assert_false(qom_locate(m, 0));
    g_assert_false(qmp_locate(m, 2));
    g_assert_true(pd_entry(m, 1).flags & MGMT_PD_F_LOCATE);
    g_assert_cmpuint(evlog_count(m, MR_EV_PD_LOCATE, 1), ==, 1);
    /* the LED changes nothing else */
    assert_drive_state(m, 1, "online");
    assert_vd_state(m, "optimal");
    OK(mg(m, MGMT_OP_PD_LOCATE, 1, 0, 0, 0, NULL, 0));
    g_assert_false(qom_locate(m, 1));
    g_assert_false(qmp_locate(m, 1));
    g_assert_true(qom_locate(m, 3));
    g_assert_cmpuint(evlog_count(m, MR_EV_PD_LOCATE, 1), ==, 2);
    /* stopping a drive that is not blinking logs nothing */
    OK(mg(m, MGMT_OP_PD_LOCATE, 1, 0, 0, 0, NULL, 0));
    g_assert_cmpuint(evlog_count(m, MR_EV_PD_LOCATE, 1), ==, 2);

    /* timed: off by itself once the seconds ran out (virtual clock) */
    OK(mg(m, MGMT_OP_PD_LOCATE, 0, 1, 5, 0, NULL, 0));
    g_assert_true(qom_locate(m, 0));
    qtest_clock_step(m->qts, 4 * 1000000000LL);
    g_assert_true(qom_locate(m, 0));
    qtest_clock_step(m->qts, 2 * 1000000000LL);
    g_assert_false(qom_locate(m, 0));
    g_assert_cmpuint(evlog_count(m, MR_EV_PD_LOCATE, 0), ==, 2);
    /* a stop before the time cancels the timer */
    OK(mg(m, MGMT_OP_PD_LOCATE, 0, 1, 5, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PD_LOCATE, 0, 0, 0, 0, NULL, 0));
    OK(mg(m, MGMT_OP_PD_LOCATE, 0, 1, 0, 0, NULL, 0));
    qtest_clock_step(m->qts, 10 * 1000000000LL);
    g_assert_true(qom_locate(m, 0));

    /* refusals name the field; the LED stays as it was */
    g_assert_cmphex(mg(m, MGMT_OP_PD_LOCATE, 9, 1, 0, 0, NULL, 0), ==,
                    MGMT_STAT_DEVICE_NOT_FOUND);
    g_assert_cmpuint(res.err_offset, ==, 24);
    g_assert_cmphex(mg(m, MGMT_OP_PD_LOCATE, 2, 2, 0, 0, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmpuint(res.err_offset, ==, 28);
    g_assert_cmphex(mg(m, MGMT_OP_PD_LOCATE, 2, 0, 5, 0, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmpuint(res.err_offset, ==, 32);
    g_assert_cmphex(mg(m, MGMT_OP_PD_LOCATE, 2, 1, MGMT_LOCATE_MAX_S + 1, 0,
                       NULL, 0), ==, MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmphex(mg(m, MGMT_OP_PD_LOCATE, 2, 1, 0, 1, NULL, 0), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmpuint(res.err_offset, ==, 36);
    g_assert_false(qom_locate(m, 2));
    /* read-only for QOM */
    {
        QDict *rsp = qts_qom_set(m->qts, "/machine/peripheral/hd2", "locate",
                                 QOBJECT(qbool_from_bool(true)));

        g_assert_true(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }
    g_assert_false(qom_locate(m, 2));
    mr_stop(&r);
    rig_destroy(&r);
}

/* The reply's MgmtJobStatus. */
static MgmtJobStatus res_job(void)
{
    MgmtJobStatus js;

    res_take(&js, sizeof(js));
    return js;
}

/*
 * Copyback through JOB_CONTROL (job 4): refusals, start from a member
 * onto a blank drive, pause, resume, stop (the drive is the host's
 * again), a restart part way (the cursor and the target's state come
 * back from the DDF), the end: the new drive is the member, the one
 * copied by hand is let go; the data is on the new drive.
 */
static void test_copyback(void)
{
    MgmtJobStatus js;
    MgmtVdInfo vi;
    RaidConfig *cfg;
    int64_t row;
    Rig r;
    MR *m;

    rig_create(&r, 6, 4, 0, RAID_LEVEL_5);
    m = mr_start(&r, NULL);
    write_extents(m, 51);
    OK(set_rate(m, 1));
    /* refusals, each naming its field */
    g_assert_cmphex(job(m, 4, MGMT_JOB_COPYBACK, MGMT_JOB_START, 5), ==,
                    MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 3), ==,
                    MGMT_STAT_WRONG_STATE);
    g_assert_cmphex(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 9), ==,
                    MGMT_STAT_DEVICE_NOT_FOUND);
    g_assert_cmpuint(res.err_offset, ==, 36);
    g_assert_cmphex(job(m, 2, MGMT_JOB_COPYBACK, 5, 4), ==,
                    MGMT_STAT_INVALID_PARAMETER);
    g_assert_cmpuint(res.err_offset, ==, 32);
    g_assert_cmphex(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_STOP, 0), ==,
                    MGMT_STAT_NO_JOB);
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);

    /* start: the target leaves the host, the VD's job is the copyback */
    OK(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 4));
    js = res_job();
    g_assert_cmpuint(js.job, ==, MGMT_JOB_COPYBACK);
    g_assert_cmpuint(js.target_slot, ==, 4);
    g_assert_cmpuint(js.source_slot, ==, 2);
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_COPYBACK);
    g_assert_false(pd_entry(m, 4).flags & MGMT_PD_F_EXPOSED);
    g_assert_cmpuint(vd_info(m, 0).e.job, ==, MGMT_JOB_COPYBACK);
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_OPTIMAL);
    g_assert_cmphex(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 5), ==,
                    MGMT_STAT_BUSY);
    g_assert_cmphex(job(m, 0, MGMT_JOB_CC, MGMT_JOB_START, 0), ==,
                    MGMT_STAT_BUSY);
    OK(job(m, 4, MGMT_JOB_COPYBACK, MGMT_JOB_PAUSE, 0));
    g_assert_true(res_job().paused);
    OK(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_RESUME, 0));
    g_assert_false(res_job().paused);
    check_extents(m, 51);

    /* stop: nothing changes but the target, which is the host's again */
    OK(job(m, 4, MGMT_JOB_COPYBACK, MGMT_JOB_STOP, 0));
    g_assert_cmpuint(res.data_len, ==, 0);
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_UNCONF_GOOD);
    g_assert_true(pd_entry(m, 4).flags & MGMT_PD_F_EXPOSED);
    g_assert_cmpuint(job_status(m, 0).job, ==, MGMT_JOB_NONE);
    g_assert_true(evlog_has(m, MR_EV_JOB_ABORTED, 0));
    check_extents(m, 51);

    /* again; QEMU stops part way: it resumes from the DDF */
    OK(job(m, 2, MGMT_JOB_COPYBACK, MGMT_JOB_START, 4));
    for (int i = 0; i < 200; i++) {
        if (qom_get_int(m, CTRL, "vd0-checkpoint-row") > 0) {
            break;
        }
        g_usleep(50 * 1000);
    }
    g_assert_cmpint(qom_get_int(m, CTRL, "vd0-checkpoint-row"), >, 0);
    write_extents(m, 61);
    mr_stop(&r);
    m = mr_start(&r, NULL);
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_COPYBACK);
    js = job_status(m, 0);
    g_assert_cmpuint(js.job, ==, MGMT_JOB_COPYBACK);
    g_assert_cmpuint(js.source_slot, ==, 2);
    row = qom_get_int(m, CTRL, "vd0-resumed-row");
    g_test_message("copyback resumed at row %" PRId64, row);
    g_assert_cmpint(row, >, 0);
    check_extents(m, 61);
    OK(set_rate(m, 100));
    g_assert_true(wait_no_job(m, 0, 60));
    g_assert_true(evlog_has(m, MR_EV_JOB_DONE, 0));

    /* the end: slot 4 is the member, slot 2 (copied by hand) let go */
    g_assert_cmpuint(pd_state(m, 4), ==, MGMT_PD_ONLINE);
    g_assert_cmpuint(pd_state(m, 2), ==, MGMT_PD_UNCONF_GOOD);
    g_assert_true(pd_entry(m, 2).flags & MGMT_PD_F_EXPOSED);
    vi = vd_info(m, 0);
    g_assert_cmpuint(vi.e.state, ==, MGMT_VD_OPTIMAL);
    {
        const MgmtVdMember *mem = (const void *)(res.data + sizeof(vi));

        g_assert_cmpuint(vi.nmembers, ==, 4);
        g_assert_cmpuint(mem[2].slot, ==, 4);
    }
    check_extents(m, 61);
    /* the copy is right: a member fails, reads depend on slot 4 */
    OK(set_state(m, 0, MGMT_SET_OFFLINE, 0));
    g_assert_cmpuint(vd_info(m, 0).e.state, ==, MGMT_VD_DEGRADED);
    check_extents(m, 61);
    mr_stop(&r);
    cfg = rig_load(&r);
    g_assert_cmpint(cfg->pds[raid_config_find_pd_slot(cfg, 4)].state, ==,
                    RAID_PD_ONLINE);
    g_assert_cmpint(cfg->vds[0].job.kind, ==, RAID_JOB_NONE);
    raid_config_free(cfg);
    rig_destroy(&r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!qtest_has_device("megaraid-9600")) {
        return 0;
    }
    qtest_add_func("/megaraid-mgmt/queries", test_queries);
    qtest_add_func("/megaraid-mgmt/create-delete", test_create_delete);
    qtest_add_func("/megaraid-mgmt/offline-online", test_offline_online);
    qtest_add_func("/megaraid-mgmt/spares", test_spares);
    qtest_add_func("/megaraid-mgmt/jobs", test_jobs);
    qtest_add_func("/megaraid-mgmt/foreign", test_foreign);
    qtest_add_func("/megaraid-mgmt/malformed", test_malformed);
    qtest_add_func("/megaraid-mgmt/durable", test_durable);
    qtest_add_func("/megaraid-mgmt/foreign-wipe", test_foreign_wipe);
    qtest_add_func("/megaraid-mgmt/delete-destage", test_delete_destage);
    qtest_add_func("/megaraid-mgmt/patrol", test_patrol);
    qtest_add_func("/megaraid-mgmt/job-stop-wait", test_job_stop_wait);
    qtest_add_func("/megaraid-mgmt/copyback-stop-wait",
                   test_copyback_stop_wait);
    qtest_add_func("/megaraid-mgmt/import-replay", test_import_replay);
    qtest_add_func("/megaraid-mgmt/import-fail", test_import_fail);
    qtest_add_func("/megaraid-mgmt/foreign-clear-wait",
                   test_foreign_clear_wait);
    qtest_add_func("/megaraid-mgmt/foreign-clear-fail",
                   test_foreign_clear_fail);
    qtest_add_func("/megaraid-mgmt/locate", test_locate);
    qtest_add_func("/megaraid-mgmt/copyback", test_copyback);
    return g_test_run();
}
