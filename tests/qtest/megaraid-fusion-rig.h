/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the Fusion host driver of the RAID qtests (megaraid-9500):
 * the RaidHost interface (megaraid-raid-host.h) over the Fusion host
 * layer (megaraid-fusion-host.h), fusion_host_ops.  The rig's drives are
 * SAS drives (JBOD PD id = slot); a VD is the LD of the same target id;
 * I/O goes on reply queue 1 with SMIDs 1..FU_IO_SMIDS, DCMDs on queue 0
 * with SMIDs of their own; the VD state is the LD list's, and the host
 * hears of a state change from the LD STATE CHANGE event in the event
 * log (EVENT_WAIT for an event already logged completes at once).
 */
#ifndef MEGARAID_FUSION_RIG_H
#define MEGARAID_FUSION_RIG_H

#include "megaraid-fusion-host.h"
#include "megaraid-raid-host.h"

#define FU_IO_SMIDS     100
#define FU_SMID_DCMD    (MAX_SMID - 1)
#define FU_SMID_EVENT   MAX_SMID

#define MFI_LD_LIST         0x03010000
#define MFI_EVENT_GET_INFO  0x01040100
#define MFI_EVENT_WAIT      0x01040500
#define MFI_EVENT_GET       0x01040300
#define MFI_EVT_LD_STATE    0x0051

typedef struct FusionHost {
    RaidHost h;
    FU *m;
    uint16_t smid;              /* the last I/O SMID used */
    uint32_t len[FU_IO_SMIDS + 1];
    uint64_t ev_mfi, ev;        /* EVENT_WAIT's MFI frame and event */
    uint32_t ev_seen;           /* the newest event looked at */
} FusionHost;

static const RaidHostOps fusion_host_ops;

/* The newest event's sequence number (EVENT_GET_INFO). */
static inline uint32_t fusion_newest_event(FU *m)
{
    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, MFI_EVENT_GET_INFO, 0, m->buf, 20),
                    ==, 0);
    return qtest_readl(m->qts, m->buf);
}

static RaidHost *fusion_start(Rig *r, const char *ctrl_extra)
{
    FusionHost *fh = g_new0(FusionHost, 1);
    FU *m = g_new0(FU, 1);
    GString *drives = rh_drive_args(r, fusion_host_ops.drive_if);
    g_autofree char *devices = g_strdup_printf(
        "-device megaraid-9500,id=raid0,addr=04.0,max-cmds=%d,queues=2%s %s",
        MAX_CMDS, ctrl_extra ? ctrl_extra : "", drives->str);

    g_string_free(drives, true);
    fu_launch(m, devices);
    m->data = alloc(m, DATA_MAX);
    ioc_init(m);
    fh->m = m;
    fh->ev_mfi = alloc(m, 256);
    fh->ev = alloc(m, 256);
    fh->ev_seen = fusion_newest_event(m);
    fh->h.ops = &fusion_host_ops;
    fh->h.qts = m->qts;
    fh->h.data = m->data;
    fh->h.priv = m;
    return &fh->h;
}

static void fusion_stop(RaidHost *h)
{
    FU *m = h->priv;

    qtest_shutdown(m->qs);
    g_free(m->dev);
    g_free(m);
    g_free(h);
}

static uint16_t fusion_post(RaidHost *h, int tgt, const uint8_t *cdb,
                            size_t cdb_len, int dir, uint32_t len,
                            uint64_t addr)
{
    static const uint32_t ctl[] = {
        [RH_DIR_NONE] = 0, [RH_DIR_READ] = 1u << 25,
        [RH_DIR_WRITE] = 1u << 24,
    };
    FusionHost *fh = container_of(h, FusionHost, h);
    uint16_t smid = fh->smid = fh->smid % FU_IO_SMIDS + 1;

    fh->len[smid] = len;
    fu_cdb_post(fh->m, smid, 1, RH_IS_VD(tgt), RH_INDEX(tgt), cdb, cdb_len,
                ctl[dir], len, len ? addr : 0);
    return smid;
}

/* The RAID context's status (0x77) and extended status (0x76) */
static bool fusion_reap(RaidHost *h, uint16_t *tag, IoRes *res, int ms)
{
    FusionHost *fh = container_of(h, FusionHost, h);
    FU *m = fh->m;
    uint16_t smid;
    uint64_t f;
    IoRes r = { .status = 0xff };

    if (!reply_wait(m, 1, ms, &smid)) {
        return false;
    }
    g_assert_cmpuint(smid, >=, 1);
    g_assert_cmpuint(smid, <=, FU_IO_SMIDS);
    f = m->frames + smid * 256ull;
    r.ioc = rd8(m, f + 0x77);
    r.absent = r.ioc == 0x0C;                   /* DEVICE NOT FOUND */
    if (r.ioc == 0) {
        r.status = 0;
        r.xfer = fh->len[smid];
    } else if (r.ioc == 0x2D) {                 /* SCSI DONE WITH ERROR */
        r.status = rd8(m, f + 0x76);
        r.xfer = qtest_readl(m->qts, f + 0x1C);
        if (r.status == 0x02) {
            uint8_t sense[32];

            qtest_memread(m->qts, m->sense, sense, sizeof(sense));
            parse_sense(sense, &r);
        }
    }
    g_assert_cmphex(rd(m, R_SP0) >> 28, !=, 0xF);  /* no FAULT */
    *tag = smid;
    *res = r;
    return true;
}

/* The LD list: (target id, state) entries of 16 bytes from offset 8 */
static uint8_t fusion_vd_state(RaidHost *h, int vd)
{
    FU *m = h->priv;
    uint32_t n;

    g_assert_cmphex(dcmd(m, FU_SMID_DCMD, MFI_LD_LIST, 1, m->buf, 4104), ==,
                    0);
    n = qtest_readl(m->qts, m->buf);
    for (uint32_t i = 0; i < n; i++) {
        if (rd8(m, m->buf + 8 + 16 * i) == vd) {
            return rd8(m, m->buf + 12 + 16 * i);
        }
    }
    g_assert_not_reached();
}

/* An LD STATE CHANGE of LD 0 to @state logged since the last one seen. */
static bool fusion_wait_vd_event(RaidHost *h, uint8_t state, int sec)
{
    FusionHost *fh = container_of(h, FusionHost, h);
    FU *m = fh->m;

    for (int i = 0; i < sec * 10; i++) {
        uint32_t newest = fusion_newest_event(m);

        while (fh->ev_seen < newest) {
            uint8_t mbox[12] = { 0 };
            uint32_t n;

            /*
             * every class from debug, every locale, in order (CTRL_EVENT_GET:
             * the MFI log also holds the controller log's entries, which
             * EVENT_WAIT leaves to the tools)
             */
            stl_le_p(mbox, fh->ev_seen + 1);
            stw_le_p(mbox + 4, 0xFFFF);
            mbox[7] = 0xFE;
            g_assert_cmphex(dcmd_mbox(m, FU_SMID_DCMD, MFI_EVENT_GET, mbox,
                                      m->buf, 4096), ==, 0);
            n = qtest_readl(m->qts, m->buf);
            g_assert_cmpuint(n, >=, 1);
            for (uint32_t k = 0; k < n; k++) {
                uint64_t ev = m->buf + 8 + 256 * k;
                uint32_t seq = qtest_readl(m->qts, ev);

                g_assert_cmpuint(seq, >, fh->ev_seen);
                fh->ev_seen = seq;
                if (qtest_readl(m->qts, ev + 8) == MFI_EVT_LD_STATE &&
                    qtest_readw(m->qts, ev + 0x20) == 0 &&
                    qtest_readl(m->qts, ev + 0x28) == state) {
                    return true;
                }
            }
        }
        g_usleep(100 * 1000);
    }
    return false;
}

static void fusion_forget_events(RaidHost *h)
{
    FusionHost *fh = container_of(h, FusionHost, h);

    fh->ev_seen = fusion_newest_event(fh->m);
}

/* Nothing arrives unasked on this interface: time passes. */
static void fusion_idle(RaidHost *h, int ms)
{
    g_usleep(ms * 1000);
}

static const RaidHostOps fusion_host_ops =
    RAID_HOST_OPS(fusion, "9500", "megaraid-9500", "sas");

#endif
