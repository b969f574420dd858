/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9500's physical drive management DCMDs
 * as MFI tools send them: PD_GET_INFO of unconfigured drives (state
 * UNCONFIGURED GOOD, while PD_LIST_QUERY still gives the host every one
 * as a disk), its error counters from the drive's health properties and
 * its SAS address; PD_STATE_SET to hot spare and back, to failed on a
 * RAID 1 member (the spare rebuilds, PD_GET_PROGRESS and PD info's
 * progress block report it, the drive ends online), each checked against
 * query-megaraid; and the refusals: unknown drives, stale sequence
 * numbers, states MFI cannot ask for and states the drive cannot take.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

#define NDRV            4
#define PD_LIST_QUERY   0x02010100u
#define PD_GET_INFO     0x02020000u
#define PD_STATE_SET    0x02030100u
#define PD_RBLD_START   0x02040100u
#define PD_RBLD_ABORT   0x02040200u
#define PD_GET_PROGRESS 0x02060000u
#define PD_LOCATE_START 0x02070100u
#define PD_LOCATE_STOP  0x02070200u
#define CFG_ADD         0x04020000u
#define CTRL_GET_INFO   0x01010000u
#define CTRL_GET_PROPS  0x01020100u
#define CTRL_SET_PROPS  0x01020200u
#define EVT_GET_INFO    0x01040100u
#define EVT_GET         0x01040300u
#define BBU_STATUS      0x05010000u
#define BBU_CAPACITY    0x05020000u
#define BBU_DESIGN      0x05030000u
#define BBU_PROPS       0x05050100u
#define BBU_SET_PROPS   0x05050200u
#define BBU_LEARN       0x05040000u

#define ST_UNCONF_GOOD  0x00
#define ST_UNCONF_BAD   0x01
#define ST_HOT_SPARE    0x02
#define ST_FAILED       0x11
#define ST_REBUILD      0x14
#define ST_ONLINE       0x18

static char *img[NDRV];

/* The controller and four blank 16 MiB SAS drives in slots 0..3. */
static FU *pd_start(void)
{
    return blank_rig("pd", img, NDRV, "", "PDSER");
}

static void pd_stop(FU *m)
{
    rig_end(m, img, NDRV);
}

/* PD_GET_INFO of @pd into @pi (512 bytes); the MFI status. */
static uint8_t pd_info(FU *m, uint16_t pd, uint8_t *pi)
{
    uint8_t mbox[12] = { 0 };
    uint8_t st;

    stw_le_p(mbox, pd);
    qtest_memset(m->qts, m->buf, 0xAA, 512);
    st = dcmd_mbox(m, 60, PD_GET_INFO, mbox, m->buf, 512);
    qtest_memread(m->qts, m->buf, pi, 512);
    return st;
}

static uint16_t pd_state(FU *m, uint16_t pd)
{
    uint8_t pi[512];

    g_assert_cmphex(pd_info(m, pd, pi), ==, 0);
    return lduw_le_p(pi + 0xB8);
}

/* The sequence number PD_GET_INFO gives @pd now. */
static uint16_t pd_seq(FU *m, uint16_t pd)
{
    uint8_t pi[512];

    g_assert_cmphex(pd_info(m, pd, pi), ==, 0);
    return lduw_le_p(pi + 2);
}

/*
 * PD_STATE_SET as mfiutil sends it: PD ref (id, seq), then the state;
 * @seq CUR: the one PD_GET_INFO gives now (what mfiutil reads first).
 */
#define CUR -1
static uint8_t pd_set(FU *m, uint16_t pd, int seq, uint16_t state)
{
    uint8_t mbox[12] = { 0 };

    if (seq == CUR) {
        seq = pd < NDRV ? pd_seq(m, pd) : 0;
    }
    stw_le_p(mbox, pd);
    stw_le_p(mbox + 2, seq);
    stw_le_p(mbox + 4, state);
    return dcmd_mbox(m, 61, PD_STATE_SET, mbox, 0, 0);
}

static uint8_t pd_ref_dcmd(FU *m, uint32_t op, uint16_t pd, uint32_t len)
{
    uint8_t mbox[12] = { 0 };

    stw_le_p(mbox, pd);
    qtest_memset(m->qts, m->buf, 0xAA, 64);
    return dcmd_mbox(m, 62, op, mbox, len ? m->buf : 0, len);
}

/* The state query-megaraid gives the drive in @slot. */
static char *qmp_state(FU *m, int slot)
{
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");
    QList *l = qdict_get_qlist(rsp, "return");
    QDict *c = qobject_to(QDict, qlist_entry_obj(qlist_first(l)));
    QList *drives = qdict_get_qlist(c, "drives");
    char *st = NULL;

    for (const QListEntry *e = qlist_first(drives); e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == slot) {
            st = g_strdup(qdict_get_str(d, "state"));
        }
    }
    qobject_unref(rsp);
    g_assert_nonnull(st);
    return st;
}

static void assert_qmp_state(FU *m, int slot, const char *want)
{
    g_autofree char *st = qmp_state(m, slot);

    g_assert_cmpstr(st, ==, want);
}

static void health_set(FU *m, const char *id, const char *prop, int v)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                         "'path': %s, 'property': %s, 'value': %d}}",
                         path, prop, v);

    if (qdict_haskey(r, "error")) {
        g_printerr("qom-set %s: %s\n", prop,
                   qdict_get_str(qdict_get_qdict(r, "error"), "desc"));
    }
    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

/* A RAID 1 of drives 0 and 1 (CFG_ADD as mfiutil builds it). */
static void raid1(FU *m)
{
    uint8_t c[32 + 288 + 256] = { 0 };
    uint8_t *a = c + 32, *l = a + 288;
    uint64_t blocks = VD_DRIVE_BYTES / 512;

    stw_le_p(c + 4, 1);
    stw_le_p(c + 6, 288);
    stw_le_p(c + 8, 1);
    stw_le_p(c + 10, 256);
    stw_le_p(c + 14, 40);
    stl_le_p(c, sizeof(c));
    stq_le_p(a, blocks);
    a[8] = 2;
    for (int i = 0; i < 2; i++) {
        stw_le_p(a + 32 + 8 * i, i);
        stw_le_p(a + 32 + 8 * i + 4, ST_ONLINE);
    }
    strcpy((char *)l + 4, "mirror");
    l[0x14] = l[0x17] = 0x21;
    l[0x20] = 1;
    l[0x23] = 7;
    l[0x24] = 2;
    l[0x25] = 1;
    l[0x26] = 3;
    stq_le_p(l + 0x40 + 8, blocks);
    qtest_memwrite(m->qts, m->buf, c, sizeof(c));
    g_assert_cmphex(dcmd(m, 63, CFG_ADD, 0, m->buf, sizeof(c)), ==, 0);
}

/*
 * Unconfigured drives: PD info says UNCONFIGURED GOOD (what mfiutil
 * builds on), the host still gets all of them as system PDs.
 */
static void test_unconfigured(void)
{
    FU *m = pd_start();
    uint8_t pi[512];
    char serial[21] = { 0 };

    g_assert_cmphex(dcmd(m, 64, PD_LIST_QUERY, 0, m->buf, 4096), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, NDRV);
    for (int pd = 0; pd < NDRV; pd++) {
        g_autofree char *want = g_strdup_printf("PDSER%d", pd);

        g_assert_cmphex(pd_info(m, pd, pi), ==, 0);
        g_assert_cmphex(lduw_le_p(pi + 0xB8), ==, ST_UNCONF_GOOD);
        g_assert_cmpuint(lduw_le_p(pi + 2), ==, 0);        /* seq */
        g_assert_cmphex(lduw_le_p(pi + 0xBC) & 0x1F, ==, 0);
        g_assert_cmpuint(pi[0xC0], ==, 1);                 /* one path */
        g_assert_cmphex(ldq_le_p(pi + 0xC8), !=, 0);       /* SAS addr */
        g_assert_cmpuint(pi[0x103], ==, pd);
        memcpy(serial, pi + 4 + 36, 20);
        g_strchomp(serial);
        g_assert_cmpstr(serial, ==, want);
        assert_qmp_state(m, pd, "unconfigured-good");
    }
    /* the drive's health counters */
    health_set(m, "hd2", "media-errors", 5);
    health_set(m, "hd2", "other-errors", 3);
    health_set(m, "hd2", "predictive-failures", 2);
    g_assert_cmphex(pd_info(m, 2, pi), ==, 0);
    g_assert_cmpuint(ldl_le_p(pi + 0xA8), ==, 5);
    g_assert_cmpuint(ldl_le_p(pi + 0xAC), ==, 3);
    g_assert_cmpuint(ldl_le_p(pi + 0xB0), ==, 2);
    g_assert_cmphex(pd_info(m, 1, pi), ==, 0);
    g_assert_cmpuint(ldl_le_p(pi + 0xA8), ==, 0);
    pd_stop(m);
}

/* Hot spare, fail a member, the rebuild onto the spare, and back. */
static void test_state_set(void)
{
    FU *m = pd_start();
    uint8_t pi[512];
    uint16_t seq1;
    int i;

    g_assert_cmphex(pd_set(m, 3, CUR, ST_HOT_SPARE), ==, 0);
    g_assert_cmphex(pd_state(m, 3), ==, ST_HOT_SPARE);
    assert_qmp_state(m, 3, "hot-spare");
    g_assert_cmphex(pd_info(m, 3, pi), ==, 0);
    g_assert_cmphex(lduw_le_p(pi + 0xBC) & 0x0C, ==, 0x0C);   /* global */
    /* a spare again is no state change the drive can take */
    g_assert_cmphex(pd_set(m, 3, CUR, ST_HOT_SPARE), ==, 0x32);
    g_assert_cmphex(pd_set(m, 3, CUR, ST_UNCONF_GOOD), ==, 0);
    g_assert_cmphex(pd_state(m, 3), ==, ST_UNCONF_GOOD);
    assert_qmp_state(m, 3, "unconfigured-good");

    /* unconfigured bad and good again */
    g_assert_cmphex(pd_set(m, 2, CUR, ST_UNCONF_BAD), ==, 0);
    g_assert_cmphex(pd_state(m, 2), ==, ST_UNCONF_BAD);
    assert_qmp_state(m, 2, "unconfigured-bad");
    g_assert_cmphex(pd_set(m, 2, CUR, ST_UNCONF_GOOD), ==, 0);
    assert_qmp_state(m, 2, "unconfigured-good");

    raid1(m);
    g_assert_cmphex(pd_state(m, 0), ==, ST_ONLINE);
    g_assert_cmphex(pd_info(m, 0, pi), ==, 0);
    g_assert_cmphex(lduw_le_p(pi + 0xBC) & 0x02, ==, 0x02);   /* in VD */
    /* no rebuild to stop; an unconfigured drive cannot go offline */
    g_assert_cmphex(pd_ref_dcmd(m, PD_RBLD_ABORT, 0, 0), ==, 0x32);
    g_assert_cmphex(pd_set(m, 2, CUR, ST_FAILED), ==, 0x32);
    g_assert_cmphex(pd_state(m, 2), ==, ST_UNCONF_GOOD);

    /*
     * fail member 1 (mfiutil fail): the core's offline, FAILED in MFI
     * (what megasasctl names); the info read before is stale now
     */
    seq1 = pd_seq(m, 1);
    g_assert_cmphex(pd_set(m, 1, seq1, ST_FAILED), ==, 0);
    g_assert_cmphex(pd_state(m, 1), ==, ST_FAILED);
    assert_qmp_state(m, 1, "offline");
    g_assert_cmpuint(pd_seq(m, 1), !=, seq1);
    g_assert_cmphex(pd_set(m, 1, seq1, ST_UNCONF_BAD), ==, 0x04);
    g_assert_cmphex(pd_state(m, 1), ==, ST_FAILED);
    /* a spare: the rebuild runs onto it and ends with it online */
    g_assert_cmphex(pd_set(m, 3, CUR, ST_HOT_SPARE), ==, 0);
    for (i = 0; i < 2000; i++) {
        uint16_t st = pd_state(m, 3);

        if (st == ST_REBUILD) {
            bool active;

            g_assert_cmphex(pd_ref_dcmd(m, PD_GET_PROGRESS, 3, 32), ==, 0);
            active = qtest_readl(m->qts, m->buf) & 1;
            g_assert_cmphex(pd_info(m, 3, pi), ==, 0);
            /*
             * The rebuild runs on its own: it may have ended between the
             * reads.  Then the drive is online; else both say it runs.
             */
            if (!active || !(ldl_le_p(pi + 0x104) & 1)) {
                g_assert_cmphex(pd_state(m, 3), ==, ST_ONLINE);
                break;
            }
        } else if (st == ST_ONLINE) {
            break;
        } else {
            g_assert_cmphex(st, ==, ST_HOT_SPARE);
        }
        qtest_clock_step(m->qts, 10 * 1000 * 1000);
        g_usleep(1000);
    }
    g_assert_cmphex(pd_state(m, 3), ==, ST_ONLINE);
    assert_qmp_state(m, 3, "online");
    g_assert_cmphex(pd_ref_dcmd(m, PD_GET_PROGRESS, 3, 32), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf) & 1, ==, 0);
    /*
     * the replaced drive left the array unconfigured bad, as the card
     * leaves a failed drive a spare took over, in MFI and QMP alike
     */
    g_assert_cmphex(pd_state(m, 1), ==, ST_UNCONF_BAD);
    assert_qmp_state(m, 1, "unconfigured-bad");
    g_assert_cmphex(pd_info(m, 1, pi), ==, 0);
    g_assert_cmphex(lduw_le_p(pi + 0xBC) & 0x02, ==, 0);      /* no VD */
    /* the failed drive is no member now: mfiutil "good" frees it */
    g_assert_cmphex(pd_set(m, 1, CUR, ST_UNCONF_GOOD), ==, 0);
    assert_qmp_state(m, 1, "unconfigured-good");
    pd_stop(m);
}

/* What MFI answers for the PD DCMDs it cannot do. */
static void test_refused(void)
{
    FU *m = pd_start();

    /* a drive that is not there */
    g_assert_cmphex(pd_set(m, 9, CUR, ST_HOT_SPARE), ==, 0x0C);
    g_assert_cmphex(pd_set(m, 0xFFFF, CUR, ST_HOT_SPARE), ==, 0x0C);
    g_assert_cmphex(pd_ref_dcmd(m, PD_GET_PROGRESS, 200, 32), ==, 0x0C);
    g_assert_cmphex(pd_ref_dcmd(m, PD_RBLD_START, 9, 0), ==, 0x0C);
    /* a stale sequence number */
    g_assert_cmphex(pd_set(m, 0, 7, ST_HOT_SPARE), ==, 0x04);
    g_assert_cmphex(pd_state(m, 0), ==, ST_UNCONF_GOOD);
    /* states MFI has no request for (copyback, garbage) */
    g_assert_cmphex(pd_set(m, 0, CUR, 0x20), ==, 0x03);
    g_assert_cmphex(pd_set(m, 0, CUR, 0xBEEF), ==, 0x03);
    /* states an unconfigured drive cannot take */
    g_assert_cmphex(pd_set(m, 0, CUR, ST_ONLINE), ==, 0x32);
    g_assert_cmphex(pd_set(m, 0, CUR, ST_REBUILD), ==, 0x32);
    g_assert_cmphex(pd_ref_dcmd(m, PD_RBLD_START, 0, 0), ==, 0x32);
    g_assert_cmphex(pd_state(m, 0), ==, ST_UNCONF_GOOD);
    assert_qmp_state(m, 0, "unconfigured-good");
    /* a progress buffer shorter than the structure: what fits */
    g_assert_cmphex(pd_ref_dcmd(m, PD_GET_PROGRESS, 0, 4), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 4), ==, 0xAAAAAAAA);
    pd_stop(m);
}

static void cv_set(FU *m, const char *state)
{
    QDict *r = qom(m, "qom-set", "cachevault", state);

    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
}

/*
 * CTRL_EVENT_GET from @first: true when an event up to @last has @text
 * in its description (copied into @ev when not NULL).
 */
static bool evt_find(FU *m, uint32_t first, uint32_t last, const char *text,
                     uint8_t *ev)
{
    uint8_t mbox[12] = { 0 }, e[256];
    uint32_t n;

    stl_le_p(mbox, first);
    stw_le_p(mbox + 4, 0xFFFF);
    mbox[7] = 0xFE;
    g_assert_cmphex(dcmd_mbox(m, 64, EVT_GET, mbox, m->buf, 4096), ==, 0);
    n = qtest_readl(m->qts, m->buf);
    for (uint32_t i = 0; i < n; i++) {
        qtest_memread(m->qts, m->buf + 8 + 256 * i, e, sizeof(e));
        e[255] = 0;
        if (ldl_le_p(e) > last) {
            break;
        }
        if (strstr((char *)e + 0x80, text)) {
            if (ev) {
                memcpy(ev, e, sizeof(e));
            }
            return true;
        }
    }
    return false;
}

/*
 * The controller as mfiutil "show adapter/battery/events" and megasasctl
 * read it: CTRL_GET_INFO's hardware and properties, the properties
 * DCMDs (a rate change lands in the core: QOM rebuild-rate), the
 * CacheVault's BBU DCMDs in its three states, and EVENT_GET from the
 * sequence numbers EVENT_GET_INFO gives.
 */
static void test_ctrl(void)
{
    FU *m = pd_start();
    uint8_t b[4096], ev[256];
    uint32_t newest, oldest, boot;
    QDict *r;

    g_assert_cmphex(dcmd(m, 64, CTRL_GET_INFO, 0, m->buf, 2048), ==, 0);
    qtest_memread(m->qts, m->buf, b, 2048);
    g_assert_cmphex(ldl_le_p(b + 0x5B0) & 1, ==, 1);       /* BBU present */
    g_assert_cmphex(ldl_le_p(b + 0x5E0) & 0x80, ==, 0x80);
    g_assert_cmpuint(ldl_le_p(b + 0x5B4), >, 700000000);   /* since 2000 */
    g_assert_cmphex(ldl_le_p(b + 0x620) & (1u << 13), !=, 0);  /* JBOD */
    g_assert_cmpuint(b[0x608], >, 0);                      /* rebuild rate */
    /* RAID 0, 1, 5, 6 and spanning (10/50/60), no RAID 1E */
    g_assert_cmphex(ldl_le_p(b + 0x5DC), ==, 0x17);
    g_assert_cmphex(ldl_le_p(b + 0x5E0) & 0x100, ==, 0x100);

    /* properties: the rebuild rate changes in the core */
    g_assert_cmphex(dcmd(m, 64, CTRL_GET_PROPS, 0, m->buf, 64), ==, 0);
    qtest_memread(m->qts, m->buf, b, 64);
    g_assert_cmpuint(b[8], ==, qtest_readb(m->qts, m->buf + 8));
    b[8] = 17;
    qtest_memwrite(m->qts, m->buf, b, 64);
    g_assert_cmphex(dcmd(m, 64, CTRL_SET_PROPS, 0, m->buf, 64), ==, 0);
    g_assert_cmphex(dcmd(m, 64, CTRL_GET_PROPS, 0, m->buf, 64), ==, 0);
    g_assert_cmpuint(qtest_readb(m->qts, m->buf + 8), ==, 17);
    r = qom(m, "qom-get", "rebuild-rate", NULL);
    g_assert_cmpint(qdict_get_int(r, "return"), ==, 17);
    qobject_unref(r);
    /* bad rates and a short buffer */
    b[8] = 101;
    qtest_memwrite(m->qts, m->buf, b, 64);
    g_assert_cmphex(dcmd(m, 64, CTRL_SET_PROPS, 0, m->buf, 64), ==, 0x03);
    g_assert_cmphex(dcmd(m, 64, CTRL_SET_PROPS, 0, m->buf, 16), ==, 0x03);

    /* the CacheVault: optimal, failed, absent */
    g_assert_cmphex(dcmd(m, 64, BBU_STATUS, 0, m->buf, 64), ==, 0);
    qtest_memread(m->qts, m->buf, b, 64);
    g_assert_cmpuint(b[0], ==, 1);
    g_assert_cmphex(ldl_le_p(b + 8), ==, 0);
    g_assert_cmpuint(lduw_le_p(b + 2), >, 0);
    g_assert_cmpuint(lduw_le_p(b + 0x22), ==, 100);
    g_assert_cmphex(dcmd(m, 64, BBU_CAPACITY, 0, m->buf, 48), ==, 0);
    g_assert_cmpuint(qtest_readw(m->qts, m->buf), ==, 100);
    g_assert_cmphex(dcmd(m, 64, BBU_DESIGN, 0, m->buf, 67), ==, 0);
    qtest_memread(m->qts, m->buf, b, 67);
    g_assert_cmpstr((char *)b + 0x1A, ==, "CVPM05");
    g_assert_cmphex(dcmd(m, 64, BBU_PROPS, 0, m->buf, 32), ==, 0);
    /* properties back as they are: taken; auto learn on, short: refused */
    g_assert_cmphex(dcmd(m, 64, BBU_SET_PROPS, 0, m->buf, 32), ==, 0);
    g_assert_cmphex(dcmd(m, 64, BBU_SET_PROPS, 0, m->buf, 16), ==, 0x03);
    qtest_writeb(m->qts, m->buf + 9, 0);
    g_assert_cmphex(dcmd(m, 64, BBU_SET_PROPS, 0, m->buf, 32), ==, 0x03);
    g_assert_cmphex(dcmd(m, 64, BBU_PROPS, 0, m->buf, 32), ==, 0);
    g_assert_cmpuint(qtest_readb(m->qts, m->buf + 9), ==, 1);
    /* a CacheVault has no learn cycle */
    g_assert_cmphex(dcmd(m, 64, BBU_LEARN, 0, 0, 0), ==, 0x32);
    cv_set(m, "failed");
    g_assert_cmphex(dcmd(m, 64, BBU_STATUS, 0, m->buf, 64), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 8), !=, 0);
    cv_set(m, "absent");
    g_assert_cmphex(dcmd(m, 64, BBU_STATUS, 0, m->buf, 64), ==, 0x22);
    g_assert_cmphex(dcmd(m, 64, BBU_DESIGN, 0, m->buf, 67), ==, 0x22);
    g_assert_cmphex(dcmd(m, 64, BBU_LEARN, 0, 0, 0), ==, 0x22);
    g_assert_cmphex(dcmd(m, 64, BBU_SET_PROPS, 0, m->buf, 32), ==, 0x22);
    g_assert_cmphex(dcmd(m, 64, CTRL_GET_INFO, 0, m->buf, 2048), ==, 0);
    g_assert_cmphex(qtest_readl(m->qts, m->buf + 0x5B0) & 1, ==, 0);
    cv_set(m, "optimal");

    /* events: hot spare made (an event); read from the oldest on */
    g_assert_cmphex(pd_set(m, 3, CUR, ST_HOT_SPARE), ==, 0);
    g_assert_cmphex(dcmd(m, 64, EVT_GET_INFO, 0, m->buf, 20), ==, 0);
    newest = qtest_readl(m->qts, m->buf);
    oldest = qtest_readl(m->qts, m->buf + 4);
    boot = qtest_readl(m->qts, m->buf + 16);
    g_assert_cmpuint(oldest, >=, 1);
    g_assert_cmpuint(oldest, <=, newest);
    {
        uint8_t mbox[12] = { 0 };
        uint32_t n;

        stl_le_p(mbox, oldest);
        stw_le_p(mbox + 4, 0xFFFF);             /* every locale */
        mbox[7] = 0xFE;                         /* class debug and up */
        g_assert_cmphex(dcmd_mbox(m, 64, EVT_GET, mbox, m->buf, 4096),
                        ==, 0);
        n = qtest_readl(m->qts, m->buf);
        g_assert_cmpuint(n, >=, 1);
        g_assert_cmpuint(n, <=, 15);
        /* in order, the last one the newest */
        g_assert_cmpuint(qtest_readl(m->qts, m->buf + 8 + 256 * (n - 1)),
                         <=, newest);
        g_assert_cmpuint(qtest_readl(m->qts, m->buf + 8), >=, oldest);
        /*
         * the core log's entries with its texts: the controller's start
         * at EVENT_GET_INFO's boot mark, drive 3's state change among
         * the newest (a PD state change event about slot 3)
         */
        g_assert_cmpuint(boot, >=, oldest);
        g_assert_cmpuint(boot, <=, newest);
        g_assert_true(evt_find(m, boot, boot, "Controller started", NULL));
        g_assert_true(evt_find(m, MAX(newest, 4) - 3, newest,
                               "Drive in slot 3: state", ev));
        g_assert_cmphex(ldl_le_p(ev + 8), ==, 0x72);
        g_assert_cmphex(lduw_le_p(ev + 0xC), ==, 0x02);
        g_assert_cmpuint(ev[0x23], ==, 3);
        /* past the newest: none; a buffer too short for one */
        stl_le_p(mbox, newest + 1);
        g_assert_cmphex(dcmd_mbox(m, 64, EVT_GET, mbox, m->buf, 4096),
                        ==, 0x23);
        stl_le_p(mbox, oldest);
        g_assert_cmphex(dcmd_mbox(m, 64, EVT_GET, mbox, m->buf, 100),
                        ==, 0x03);
    }
    pd_stop(m);
}

/* A drive's locate LED as QOM and query-megaraid show it. */
static bool locate_on(FU *m, int slot)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/hd%d",
                                            slot);
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': 'locate'}}", path);
    QList *l;
    QDict *c;
    bool qom, qmp = false;
    int seen = 0;

    g_assert_true(qdict_haskey(rsp, "return"));
    qom = qdict_get_bool(rsp, "return");
    qobject_unref(rsp);
    rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");
    l = qdict_get_qlist(rsp, "return");
    c = qobject_to(QDict, qlist_entry_obj(qlist_first(l)));
    for (const QListEntry *e = qlist_first(qdict_get_qlist(c, "drives"));
         e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == slot) {
            qmp = qdict_get_bool(d, "locate");
            seen++;
        }
    }
    qobject_unref(rsp);
    g_assert_cmpint(seen, ==, 1);
    g_assert_cmpint(qom, ==, qmp);
    return qom;
}

/* PD_LOCATE_START / STOP as mfiutil sends them (device id, 4 bytes). */
static void test_locate(void)
{
    FU *m = pd_start();

    g_assert_false(locate_on(m, 2));
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_START, 2, 0), ==, 0);
    g_assert_true(locate_on(m, 2));
    g_assert_false(locate_on(m, 1));
    /* the drive's state is not touched */
    assert_qmp_state(m, 2, "unconfigured-good");
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_START, 2, 0), ==, 0);
    g_assert_true(locate_on(m, 2));
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_STOP, 2, 0), ==, 0);
    g_assert_false(locate_on(m, 2));
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_STOP, 2, 0), ==, 0);
    g_assert_false(locate_on(m, 2));
    /* a member too, and a drive that is not there */
    raid1(m);
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_START, 0, 0), ==, 0);
    g_assert_true(locate_on(m, 0));
    assert_qmp_state(m, 0, "online");
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_START, 9, 0), ==, 0x0C);
    g_assert_cmphex(pd_ref_dcmd(m, PD_LOCATE_STOP, 0xFFFF, 0), ==, 0x0C);
    g_assert_true(locate_on(m, 0));
    pd_stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/pd/unconfigured", test_unconfigured);
    qtest_add_func("/megaraid-9500/pd/state-set", test_state_set);
    qtest_add_func("/megaraid-9500/pd/refused", test_refused);
    qtest_add_func("/megaraid-9500/pd/ctrl-bbu-events", test_ctrl);
    qtest_add_func("/megaraid-9500/pd/locate", test_locate);
    return g_test_run();
}
