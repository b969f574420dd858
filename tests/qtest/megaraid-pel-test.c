/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9600's persistent event log through
 * the MPI3 PERSISTENT EVENT LOG function: sequence numbers, entries and
 * counts with the locale/class filter, a WAIT completed by a member
 * failure (and the LOG DATA event of a host that unmasks it), a WAIT
 * whose entry is already there, a WAIT with a wait time, ABORT, malformed
 * requests refused with an error status, the log kept across a restart
 * on the same event-log file, and damaged files refused at start.  The
 * RAID 1 under test is written as DDF with the RAID core (as megaraid-img
 * does).  Offsets are written from the MPI 3.0 interface description.
 */
#include "qemu/osdep.h"
#include "megaraid-rig.h"

/* PEL actions, statuses, locales, classes; IOC statuses */
#define PEL_GET_SEQNUM  0x01
#define PEL_MARK_CLEAR  0x02
#define PEL_GET_LOG     0x03
#define PEL_GET_COUNT   0x04
#define PEL_WAIT        0x05
#define PEL_ABORT       0x06
#define PEL_PRINT_STRINGS 0x07
#define PEL_ACKNOWLEDGE 0x08
#define PELS_SUCCESS    0
#define PELS_NOT_FOUND  1
#define PELS_ABORTED    2
#define LOC_VD          0x0001
#define LOC_PD          0x0002
#define LOC_CTRL        0x0020
#define LOC_ALL         0xFFFF
#define IOC_INVALID_SGL     0x0003
#define IOC_INVALID_FIELD   0x0007
#define IOC_INVALID_STATE   0x0008

/* Event log codes (include/hw/megaraid/evlog.h) */
#define EV_CTRL_STARTED     0x0001
#define EV_CTRL_SHUTDOWN    0x0003
#define EV_PD_INSERTED      0x0101
#define EV_PD_REMOVED       0x0102
#define EV_PD_STATE         0x0103
#define EV_PD_FAILED        0x0104
#define EV_VD_STATE         0x0201
#define EV_JOB_STARTED      0x0301
#define EV_JOB_PROGRESS     0x0302
#define EV_JOB_DONE         0x0303

#define TAG_WAIT        4
#define TAG_ABORT       3
#define TAG_REQ         0x21

typedef struct Pel {
    HMR *m;
    char *path[3];              /* RAID 1 members (slots 1, 2), spare (3) */
    char *log;                  /* event-log file */
    uint64_t data;              /* 64 KiB of guest RAM for PEL data */
} Pel;

typedef struct Seq {
    uint32_t newest, oldest, clear, shutdown, boot, ack;
} Seq;

/*
 * Two blank images made one RAID 1 (slots 1 and 2), a third a global hot
 * spare (slot 3) if @spare; hd0 stays JBOD.  No background
 * initialization: the log holds only what a test does.
 */
static void pel_images(Pel *p, bool spare)
{
    RigLayout l = {
        .n = spare ? 3 : 2, .nmem = 2, .nspare = spare ? 1 : 0,
        .first_slot = 1,
        .spec = {
            .level = RAID_LEVEL_1, .strip = 128, .name = "peltest",
            .cache = RAID_CACHE_READ_ALLOWED,
        },
        .settled = true,
    };

    rig_tmp_paths(p->path, l.n, "megaraid-pel-test");
    rig_write_ddf(p->path, &l, NULL);
}

static void pel_boot(Pel *p)
{
    g_autofree char *extra = g_strdup_printf(
        "-blockdev driver=qcow2,node-name=evlog0,file.driver=file,"
        "file.filename=%s -global megaraid-9600.event-log=evlog0 "
        "-drive if=none,id=d1,format=raw,file=%s "
        "-device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1,"
        "interface=nvme "
        "-drive if=none,id=d2,format=raw,file=%s "
        "-device megaraid-drive,id=hd2,bus=raid0.0,slot=2,drive=d2,"
        "interface=nvme "
        "-blockdev driver=null-co,node-name=nul,size=67108864",
        p->log, p->path[0], p->path[1]);
    g_autofree char *spare = p->path[2] ? g_strdup_printf(
        "%s -drive if=none,id=d3,format=raw,file=%s "
        "-device megaraid-drive,id=hd3,bus=raid0.0,slot=3,drive=d3,"
        "interface=nvme", extra, p->path[2]) : NULL;
    HMR *m = h_start(spare ? spare : extra);

    h_init(m);
    p->m = m;
    p->data = h_alloc(m, 64 * 1024);
}

static Pel *pel_new_rig(bool spare)
{
    Pel *p = g_new0(Pel, 1);
    int fd = g_file_open_tmp("megaraid-pel-log-XXXXXX", &p->log, NULL);

    g_assert(fd >= 0);
    close(fd);
    /* the event log on a blank qcow2 drive: the device formats it */
    h_img_create("qcow2", NULL, p->log, "1M");
    pel_images(p, spare);
    return p;
}

static Pel *pel_new(void)
{
    return pel_new_rig(false);
}

static void pel_stop(Pel *p)
{
    if (p->m) {
        h_stop(p->m);
        p->m = NULL;
    }
}

static void pel_free(Pel *p)
{
    pel_stop(p);
    for (int i = 0; i < 3; i++) {
        if (p->path[i]) {
            unlink(p->path[i]);
            g_free(p->path[i]);
        }
    }
    unlink(p->log);
    g_free(p->log);
    g_free(p);
}

static void pel_frame(uint8_t *f, uint16_t tag, uint8_t action)
{
    memset(f, 0, 128);
    stw_le_p(f, tag);
    f[3] = 0x09;
    f[0x0A] = action;
}

/* Next reply that is not an event; events seen go to @ev (may be NULL). */
static bool pel_reply(Pel *p, HDesc *d, int ms, GArray *ev)
{
    for (;;) {
        if (!h_admin_reply(p->m, d, ms)) {
            return false;
        }
        if (d->tag != 0xFFFF) {
            return true;
        }
        if (ev) {
            g_array_append_val(ev, *d);
        }
    }
}

/* A request answered by a PEL reply frame: its PELogStatus. */
static uint16_t pel_call(Pel *p, const uint8_t *f, size_t len,
                         uint32_t *xfer)
{
    HDesc d;

    h_submit_admin(p->m, f, len);
    g_assert_true(pel_reply(p, &d, 5000, NULL));
    g_assert_cmphex(d.tag, ==, lduw_le_p(f));
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmphex(d.frame[3], ==, 0x09);
    g_assert_cmphex(d.frame[0x10], ==, f[0x0A]);
    if (xfer) {
        *xfer = ldl_le_p(d.frame + 0x18);
    }
    return lduw_le_p(d.frame + 0x14);
}

/* A request that must be refused: its IOC status. */
static uint16_t pel_refused(Pel *p, const uint8_t *f, size_t len)
{
    HDesc d;

    h_submit_admin(p->m, f, len);
    g_assert_true(pel_reply(p, &d, 5000, NULL));
    g_assert_cmphex(d.tag, ==, lduw_le_p(f));
    return d.status;
}

static Seq pel_seq(Pel *p)
{
    uint8_t f[128], raw[24];
    Seq s;

    pel_frame(f, TAG_REQ, PEL_GET_SEQNUM);
    h_put_sge(f + 0x20, p->data, 24, 0x08);
    g_assert_cmpuint(pel_call(p, f, 0x30, NULL), ==, PELS_SUCCESS);
    qtest_memread(p->m->qts, p->data, raw, sizeof(raw));
    s.newest = ldl_le_p(raw);
    s.oldest = ldl_le_p(raw + 4);
    s.clear = ldl_le_p(raw + 8);
    s.shutdown = ldl_le_p(raw + 12);
    s.boot = ldl_le_p(raw + 16);
    s.ack = ldl_le_p(raw + 20);
    return s;
}

/* GET_LOG into p->data (room for @max entries); the entries' count. */
static uint32_t pel_log(Pel *p, uint32_t from, uint16_t locale, uint8_t cls,
                        uint32_t max, uint16_t *pel_status)
{
    uint8_t f[128];
    uint32_t xfer, n;

    pel_frame(f, TAG_REQ, PEL_GET_LOG);
    stl_le_p(f + 0x0C, from);
    stw_le_p(f + 0x10, locale);
    f[0x12] = cls;
    h_put_sge(f + 0x20, p->data, 8 + 128 * max, 0x08);
    *pel_status = pel_call(p, f, 0x30, &xfer);
    n = qtest_readl(p->m->qts, p->data);
    g_assert_cmpuint(xfer, ==, 8 + 128 * n);
    return n;
}

static uint32_t pel_count(Pel *p, uint32_t from, uint16_t locale,
                          uint8_t cls)
{
    uint8_t f[128];

    pel_frame(f, TAG_REQ, PEL_GET_COUNT);
    stl_le_p(f + 0x0C, from);
    stw_le_p(f + 0x10, locale);
    f[0x12] = cls;
    h_put_sge(f + 0x20, p->data, 8, 0x08);
    pel_call(p, f, 0x30, NULL);
    return qtest_readl(p->m->qts, p->data);
}

/* Entry @i of the last GET_LOG. */
static void pel_entry(Pel *p, uint32_t i, uint8_t *e)
{
    qtest_memread(p->m->qts, p->data + 8 + 128 * i, e, 128);
}

/* Find an entry with @code in the last GET_LOG of @n entries; its index. */
static int pel_find(Pel *p, uint32_t n, uint16_t code, uint8_t *e)
{
    for (uint32_t i = 0; i < n; i++) {
        pel_entry(p, i, e);
        if (lduw_le_p(e + 0x0C) == code) {
            return i;
        }
    }
    return -1;
}

static void pel_wait_submit(Pel *p, uint32_t from, uint16_t locale,
                            uint8_t cls, uint16_t wait_s)
{
    uint8_t f[128];

    pel_frame(f, TAG_WAIT, PEL_WAIT);
    stl_le_p(f + 0x0C, from);
    stw_le_p(f + 0x10, locale);
    f[0x12] = cls;
    stw_le_p(f + 0x14, wait_s);
    h_submit_admin(p->m, f, 0x20);
}

/* The WAIT's completion: its PELogStatus (-1: none within @ms). */
static int pel_wait_done(Pel *p, int ms, GArray *ev)
{
    HDesc d;

    if (!pel_reply(p, &d, ms, ev)) {
        return -1;
    }
    g_assert_cmphex(d.tag, ==, TAG_WAIT);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.status, ==, 0);
    g_assert_cmphex(d.frame[0x10], ==, PEL_WAIT);
    return lduw_le_p(d.frame + 0x14);
}

/* ------------------------------------------------------------- tests */

static void test_seqnum_and_log(void)
{
    Pel *p = pel_new();
    uint8_t e[128], f[128];
    uint16_t st;
    uint32_t n, xfer;
    Seq s;

    pel_boot(p);
    s = pel_seq(p);
    g_assert_cmpuint(s.oldest, ==, 1);
    g_assert_cmpuint(s.boot, ==, 1);
    g_assert_cmpuint(s.newest, >=, 1);
    g_assert_cmpuint(s.clear, ==, 0);
    g_assert_cmpuint(s.shutdown, ==, 0);

    n = pel_log(p, 0, LOC_ALL, 0, 64, &st);
    g_assert_cmpuint(st, ==, PELS_SUCCESS);
    g_assert_cmpuint(n, ==, s.newest);
    g_assert_cmpuint(pel_count(p, 0, LOC_ALL, 0), ==, n);
    pel_entry(p, 0, e);
    g_assert_cmpuint(ldl_le_p(e + 0x08), ==, 1);
    g_assert_cmphex(lduw_le_p(e + 0x0C), ==, EV_CTRL_STARTED);
    g_assert_cmphex(lduw_le_p(e + 0x10), ==, LOC_CTRL);
    g_assert_cmpuint(e[0x12], ==, 2);               /* informational */
    g_assert_cmpuint(ldq_le_p(e), >, 1500000000000ULL);  /* ms, epoch */
    /* no target */
    g_assert_cmphex((uint32_t)ldl_le_p(e + 0x20), ==, 0xFFFFFFFF);
    g_assert_nonnull(strstr((char *)e + 0x2C, "Controller started"));

    /* a healthy start has nothing of class warning or above */
    n = pel_log(p, 0, LOC_ALL, 3, 64, &st);
    g_assert_cmpuint(n, ==, 0);
    g_assert_cmpuint(st, ==, PELS_NOT_FOUND);
    /* nor anything about drives */
    g_assert_cmpuint(pel_count(p, 0, LOC_PD, 0), ==, 0);
    /* past the newest: nothing */
    n = pel_log(p, s.newest + 1, LOC_ALL, 0, 64, &st);
    g_assert_cmpuint(st, ==, PELS_NOT_FOUND);

    /* ACKNOWLEDGE: recorded up to the newest, refused past it */
    pel_frame(f, TAG_REQ, PEL_ACKNOWLEDGE);
    stl_le_p(f + 0x0C, s.newest);
    g_assert_cmpuint(pel_call(p, f, 0x14, NULL), ==, PELS_SUCCESS);
    stl_le_p(f + 0x0C, s.newest + 5);
    g_assert_cmpuint(pel_call(p, f, 0x14, NULL), ==, PELS_NOT_FOUND);
    g_assert_cmpuint(pel_seq(p).ack, ==, s.newest);
    /* GET_PRINT_STRINGS: none (the text is in each entry) */
    pel_frame(f, TAG_REQ, PEL_PRINT_STRINGS);
    h_put_sge(f + 0x20, p->data, 64, 0x08);
    qtest_writel(p->m->qts, p->data, 0xdeadbeef);
    g_assert_cmpuint(pel_call(p, f, 0x30, &xfer), ==, PELS_SUCCESS);
    g_assert_cmpuint(xfer, ==, 16);
    g_assert_cmpuint(qtest_readl(p->m->qts, p->data), ==, 0);
    pel_free(p);
}

static void test_wait_drive_failure(void)
{
    Pel *p = pel_new();
    g_autoptr(GArray) ev = g_array_new(false, true, sizeof(HDesc));
    bool log_data = false;
    uint8_t e[128], f[32] = { 0 };
    uint16_t st;
    uint32_t n;
    Seq s;
    int i;

    pel_boot(p);
    /* events: LOG DATA unmasked, everything else too */
    stw_le_p(f, 1);
    f[3] = 0x04;
    g_assert_cmphex(h_admin(p->m, f, sizeof(f)), ==, 0);

    s = pel_seq(p);
    pel_wait_submit(p, s.newest + 1, LOC_PD, 0, 0);
    g_assert_cmpint(pel_wait_done(p, 300, ev), ==, -1);   /* held */

    qom_set_str(p->m, "/machine/peripheral/hd2", "state", "offline");
    g_assert_cmpint(pel_wait_done(p, 5000, ev), ==, PELS_SUCCESS);
    for (int k = 0; k < 16; k++) {
        HDesc d;

        if (!h_admin_reply(p->m, &d, 100)) {
            break;
        }
        g_array_append_val(ev, d);
    }

    n = pel_log(p, s.newest + 1, LOC_PD, 0, 64, &st);
    g_assert_cmpuint(st, ==, PELS_SUCCESS);
    g_assert_cmpuint(n, >=, 2);
    i = pel_find(p, n, EV_PD_FAILED, e);
    g_assert_cmpint(i, ==, 0);              /* the failure comes first */
    g_assert_cmphex(lduw_le_p(e + 0x10), ==, LOC_PD);
    g_assert_cmpuint(e[0x12], ==, 4);       /* critical */
    g_assert_cmpuint(ldl_le_p(e + 0x20), ==, 2);        /* slot */
    g_assert_cmpuint(ldl_le_p(e + 0x08), ==, s.newest + 1);
    g_assert_cmpint(pel_find(p, n, EV_PD_STATE, e), >, 0);

    /* the VD went degraded: a warning of locale VD */
    n = pel_log(p, s.newest + 1, LOC_VD, 3, 64, &st);
    g_assert_cmpint(pel_find(p, n, EV_VD_STATE, e), >=, 0);
    g_assert_cmpuint(ldl_le_p(e + 0x20), ==, 0);        /* VD 0 */
    g_assert_cmpuint(ldl_le_p(e + 0x24), ==, 0);        /* was optimal */
    g_assert_cmpuint(ldl_le_p(e + 0x28), ==, RAID_VD_DEGRADED);
    g_assert_cmpuint(e[0x12], ==, 3);       /* warning */

    /* the host that unmasked LOG DATA got every new entry as an event */
    for (guint k = 0; k < ev->len; k++) {
        HDesc *d = &g_array_index(ev, HDesc, k);

        if (d->frame[0x11] == 0x01 &&
            lduw_le_p(d->frame + 0x18 + 0x0C) == EV_PD_FAILED) {
            g_assert_cmpuint(ldl_le_p(d->frame + 0x18 + 0x08), ==,
                             s.newest + 1);
            log_data = true;
        }
    }
    g_assert_true(log_data);
    pel_free(p);
}

/*
 * A CacheVault failure reaches the host as ENERGY PACK CHANGE with the
 * longer shutdown timeout (every dirty line must then reach the drives),
 * its return with the short one.
 */
static uint16_t pel_energy_pack_timeout(Pel *p)
{
    for (int k = 0; k < 32; k++) {
        HDesc d;

        if (!h_admin_reply(p->m, &d, 2000)) {
            break;
        }
        if (d.frame[0x11] == 0x0E) {            /* ENERGY PACK CHANGE */
            return lduw_le_p(d.frame + 0x18 + 4);
        }
    }
    return 0;
}

static void test_energy_pack(void)
{
    Pel *p = pel_new();
    uint8_t f[32] = { 0 };

    pel_boot(p);
    /* EVENT NOTIFICATION: every event unmasked */
    stw_le_p(f, 1);
    f[3] = 0x04;
    g_assert_cmphex(h_admin(p->m, f, sizeof(f)), ==, 0);

    qom_set_str(p->m, "/machine/peripheral/raid0", "cachevault", "failed");
    g_assert_cmpuint(pel_energy_pack_timeout(p), ==, 60);
    qom_set_str(p->m, "/machine/peripheral/raid0", "cachevault", "optimal");
    g_assert_cmpuint(pel_energy_pack_timeout(p), ==, 10);
    pel_free(p);
}

static void test_wait_immediate_and_timeout(void)
{
    Pel *p = pel_new();
    Seq s;

    pel_boot(p);
    s = pel_seq(p);
    /* an entry at or after the starting number exists: done at once */
    pel_wait_submit(p, s.newest, LOC_ALL, 0, 0);
    g_assert_cmpint(pel_wait_done(p, 5000, NULL), ==, PELS_SUCCESS);
    /* ...unless the filter leaves it out */
    pel_wait_submit(p, s.newest, LOC_PD, 0, 2);
    g_assert_cmpint(pel_wait_done(p, 300, NULL), ==, -1);
    /* a wait time of 2 s (guest clock) ends it with NOT_FOUND */
    qtest_clock_step(p->m->qts, 1000 * 1000 * 1000LL);
    g_assert_cmpint(pel_wait_done(p, 200, NULL), ==, -1);
    qtest_clock_step(p->m->qts, 1100 * 1000 * 1000LL);
    g_assert_cmpint(pel_wait_done(p, 5000, NULL), ==, PELS_NOT_FOUND);
    pel_free(p);
}

static void test_abort(void)
{
    Pel *p = pel_new();
    uint8_t f[128];
    HDesc d;
    Seq s;

    pel_boot(p);
    s = pel_seq(p);
    pel_wait_submit(p, s.newest + 1, LOC_ALL, 0, 0);
    g_assert_cmpint(pel_wait_done(p, 200, NULL), ==, -1);

    pel_frame(f, TAG_ABORT, PEL_ABORT);
    stw_le_p(f + 0x10, TAG_WAIT);
    h_submit_admin(p->m, f, 0x18);
    /* the WAIT ends ABORTED, then the ABORT itself succeeds */
    g_assert_cmpint(pel_wait_done(p, 5000, NULL), ==, PELS_ABORTED);
    g_assert_true(pel_reply(p, &d, 5000, NULL));
    g_assert_cmphex(d.tag, ==, TAG_ABORT);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.frame[0x10], ==, PEL_ABORT);
    g_assert_cmphex(lduw_le_p(d.frame + 0x14), ==, PELS_SUCCESS);

    /* nothing left to abort: still a success, and no stray reply */
    g_assert_cmpuint(pel_call(p, f, 0x18, NULL), ==, PELS_SUCCESS);
    g_assert_false(pel_reply(p, &d, 200, NULL));
    /* a new WAIT can be armed and completes on the next entry */
    s = pel_seq(p);
    pel_wait_submit(p, s.newest + 1, LOC_ALL, 0, 0);
    qom_set_str(p->m, "/machine/peripheral/raid0", "cachevault", "failed");
    g_assert_cmpint(pel_wait_done(p, 5000, NULL), ==, PELS_SUCCESS);
    pel_free(p);
}

static void test_malformed(void)
{
    Pel *p = pel_new();
    uint8_t f[128];
    HDesc d;

    pel_boot(p);
    /* GET_SEQNUM: a chain SGE, an empty one, one outside RAM, too short */
    pel_frame(f, TAG_REQ, PEL_GET_SEQNUM);
    h_put_sge(f + 0x20, p->data, 24, 0x20);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_SGL);
    h_put_sge(f + 0x20, p->data, 0, 0x08);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_SGL);
    h_put_sge(f + 0x20, 0xFFFFFFFFF000ULL, 24, 0x08);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_SGL);
    h_put_sge(f + 0x20, p->data, 16, 0x08);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_FIELD);

    /* GET_LOG: room for no entry; a class above 6 */
    pel_frame(f, TAG_REQ, PEL_GET_LOG);
    stw_le_p(f + 0x10, LOC_ALL);
    h_put_sge(f + 0x20, p->data, 100, 0x08);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_FIELD);
    h_put_sge(f + 0x20, p->data, 4096, 0x08);
    f[0x12] = 7;
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_FIELD);
    /* GET_COUNT: no buffer at all */
    pel_frame(f, TAG_REQ, PEL_GET_COUNT);
    g_assert_cmphex(pel_refused(p, f, 0x30), ==, IOC_INVALID_SGL);

    /* unknown actions */
    pel_frame(f, TAG_REQ, 0x00);
    g_assert_cmphex(pel_refused(p, f, 0x20), ==, IOC_INVALID_FIELD);
    pel_frame(f, TAG_REQ, 0x42);
    g_assert_cmphex(pel_refused(p, f, 0x20), ==, IOC_INVALID_FIELD);
    /* MARK_CLEAR of an unknown clear type */
    pel_frame(f, TAG_REQ, PEL_MARK_CLEAR);
    f[0x0C] = 5;
    g_assert_cmphex(pel_refused(p, f, 0x10), ==, IOC_INVALID_FIELD);

    /* WAIT: bad class, host tag 0; a second WAIT while one is held */
    pel_frame(f, TAG_REQ, PEL_WAIT);
    f[0x12] = 9;
    g_assert_cmphex(pel_refused(p, f, 0x20), ==, IOC_INVALID_FIELD);
    pel_frame(f, 0, PEL_WAIT);
    stw_le_p(f + 0x10, LOC_ALL);
    g_assert_cmphex(pel_refused(p, f, 0x20), ==, IOC_INVALID_FIELD);
    pel_wait_submit(p, 0x7FFFFFFF, LOC_ALL, 0, 0);
    g_assert_cmpint(pel_wait_done(p, 200, NULL), ==, -1);
    pel_frame(f, TAG_REQ, PEL_WAIT);
    stl_le_p(f + 0x0C, 1);
    stw_le_p(f + 0x10, LOC_ALL);
    g_assert_cmphex(pel_refused(p, f, 0x20), ==, IOC_INVALID_STATE);

    /* none of it hurt: the IOC is ready, the log answers, the WAIT held */
    g_assert_cmphex(h_rd(p->m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT),
                    ==, H_ST_READY);
    g_assert_cmpuint(pel_seq(p).oldest, ==, 1);
    g_assert_false(pel_reply(p, &d, 100, NULL));
    /* MARK_CLEAR: the clear mark moves to the newest entry */
    pel_frame(f, TAG_REQ, PEL_MARK_CLEAR);
    g_assert_cmpuint(pel_call(p, f, 0x10, NULL), ==, PELS_SUCCESS);
    g_assert_cmpuint(pel_seq(p).clear, >=, 1);
    pel_free(p);
}

/* Hot plug: a drive leaves its bay, another arrives. */
static void test_hotplug(void)
{
    Pel *p = pel_new();
    uint8_t e[128];
    uint16_t st;
    uint32_t n;
    Seq s;

    pel_boot(p);
    s = pel_seq(p);
    qtest_qmp_device_del(p->m->qts, "hd0");
    n = pel_log(p, s.newest + 1, LOC_PD, 0, 64, &st);
    g_assert_cmpint(pel_find(p, n, EV_PD_REMOVED, e), ==, 0);
    g_assert_cmpuint(ldl_le_p(e + 0x20), ==, 0);        /* slot */
    g_assert_cmpuint(e[0x12], ==, 3);                   /* warning */
    qtest_qmp_device_add(p->m->qts, "megaraid-drive", "hd5",
                         "{'bus': 'raid0.0', 'slot': 5, 'drive': 'nul',"
                         " 'interface': 'sas'}");
    n = pel_log(p, s.newest + 1, LOC_PD, 0, 64, &st);
    g_assert_cmpint(pel_find(p, n, EV_PD_INSERTED, e), >, 0);
    g_assert_cmpuint(ldl_le_p(e + 0x20), ==, 5);
    g_assert_cmpuint(e[0x12], ==, 2);                   /* info */
    pel_free(p);
}

/* A hot spare's rebuild: started, every 10 %, done, the VD optimal. */
static void test_rebuild_entries(void)
{
    Pel *p = pel_new_rig(true);
    uint32_t n = 0, from, pct = 0, progress = 0;
    uint8_t e[128];
    uint16_t st;
    int i;

    pel_boot(p);
    qobject_unref(qtest_qmp(p->m->qts, "{'execute': 'qom-set', 'arguments': "
                            "{'path': '/machine/peripheral/raid0', "
                            "'property': 'rebuild-rate', 'value': 100}}"));
    from = pel_seq(p).newest + 1;
    qom_set_str(p->m, "/machine/peripheral/hd1", "state", "offline");
    for (i = 0; i < 600; i++) {
        n = pel_log(p, from, LOC_VD, 0, 100, &st);
        if (pel_find(p, n, EV_JOB_DONE, e) >= 0) {
            break;
        }
        g_usleep(100 * 1000);
    }
    g_assert_cmpint(i, <, 600);
    g_assert_cmpuint(ldl_le_p(e + 0x24), ==, RAID_JOB_REBUILD);
    g_assert_cmpint(pel_find(p, n, EV_JOB_STARTED, e), >=, 0);
    g_assert_cmpuint(ldl_le_p(e + 0x24), ==, RAID_JOB_REBUILD);
    g_assert_cmpuint(ldl_le_p(e + 0x28), ==, 0);        /* not resumed */
    for (uint32_t k = 0; k < n; k++) {
        pel_entry(p, k, e);
        if (lduw_le_p(e + 0x0C) != EV_JOB_PROGRESS) {
            continue;
        }
        g_assert_cmpuint(e[0x12], ==, 1);               /* progress class */
        g_assert_cmpuint(ldl_le_p(e + 0x28), >, pct);   /* rising */
        g_assert_cmpuint(ldl_le_p(e + 0x28) % 10, ==, 0);
        pct = ldl_le_p(e + 0x28);
        progress++;
    }
    g_assert_cmpuint(progress, >=, 1);
    g_assert_cmpuint(pct, <=, 90);
    /* the VD ends optimal after the job is done */
    for (i = 0; i < 100; i++) {
        uint32_t k;

        n = pel_log(p, from, LOC_VD, 0, 100, &st);
        for (k = n; k > 0; k--) {
            pel_entry(p, k - 1, e);
            if (lduw_le_p(e + 0x0C) == EV_VD_STATE) {
                break;
            }
        }
        if (k && ldl_le_p(e + 0x28) == RAID_VD_OPTIMAL) {
            break;
        }
        g_usleep(100 * 1000);
    }
    g_assert_cmpint(i, <, 100);
    pel_free(p);
}

static void test_persist(void)
{
    Pel *p = pel_new();
    uint8_t e[128];
    uint16_t st;
    uint32_t n;
    Seq s1, s2;

    pel_boot(p);
    qom_set_str(p->m, "/machine/peripheral/hd1", "state", "offline");
    s1 = pel_seq(p);
    pel_stop(p);                /* QEMU quits: the shutdown entry */

    pel_boot(p);
    s2 = pel_seq(p);
    g_assert_cmpuint(s2.oldest, ==, 1);
    g_assert_cmpuint(s2.shutdown, >, s1.newest);
    g_assert_cmpuint(s2.boot, ==, s2.shutdown + 1);
    g_assert_cmpuint(s2.newest, >=, s2.boot);
    /* the failure of the first run is still there, where it was */
    n = pel_log(p, 1, LOC_PD, 0, 64, &st);
    g_assert_cmpint(pel_find(p, n, EV_PD_FAILED, e), >=, 0);
    g_assert_cmpuint(ldl_le_p(e + 0x08), <=, s1.newest);
    g_assert_cmpuint(ldl_le_p(e + 0x20), ==, 1);
    n = pel_log(p, s2.shutdown, LOC_ALL, 0, 1, &st);
    g_assert_cmpuint(n, ==, 1);
    pel_entry(p, 0, e);
    g_assert_cmphex(lduw_le_p(e + 0x0C), ==, EV_CTRL_SHUTDOWN);
    /* the VD came back degraded: said at start, as a warning */
    n = pel_log(p, s2.boot, LOC_VD, 3, 64, &st);
    g_assert_cmpint(pel_find(p, n, EV_VD_STATE, e), >=, 0);
    pel_free(p);
}

/*
 * Start QEMU on an event log drive (raw file @log): it must refuse,
 * naming the property, the file and the cause.
 */
static void check_refused_start(const char *log, const char *cause)
{
    g_autofree char *err = NULL;
    g_autofree char *args = g_strdup_printf(
        "-M q35 -nodefaults -blockdev driver=file,filename=%s,"
        "node-name=evl -device megaraid-9600,event-log=evl", log);

    g_assert_cmpint(h_run_qemu(args, &err), !=, 0);
    if (!strstr(err, cause) || !strstr(err, log) ||
        !strstr(err, "event-log: drive 'evl'")) {
        g_test_message("stderr: %s", err);
        g_assert_not_reached();
    }
}

static void test_corrupt(void)
{
    g_autofree char *log = h_junk_file("megaraid-pel-bad", 256 * 1024,
                                       256 * 1024);
    g_autofree uint8_t *junk = g_malloc0(256 * 1024);

    check_refused_start(log, "bad magic");
    /* the magic and zeroes: no valid header */
    memcpy(junk, "MRSIMEVL", 8);
    g_assert_true(g_file_set_contents(log, (char *)junk, 256 * 1024, NULL));
    check_refused_start(log, "header checksum mismatch");
    /* too small for the entries, however it is made */
    g_assert_true(g_file_set_contents(log, (char *)junk, 4096, NULL));
    check_refused_start(log, "needs at least 131584");
    unlink(log);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-pel/seqnum-and-log", test_seqnum_and_log);
    qtest_add_func("/megaraid-pel/wait-drive-failure",
                   test_wait_drive_failure);
    qtest_add_func("/megaraid-pel/wait-immediate-and-timeout",
                   test_wait_immediate_and_timeout);
    qtest_add_func("/megaraid-pel/abort", test_abort);
    qtest_add_func("/megaraid-pel/energy-pack", test_energy_pack);
    qtest_add_func("/megaraid-pel/malformed", test_malformed);
    qtest_add_func("/megaraid-pel/hotplug", test_hotplug);
    qtest_add_func("/megaraid-pel/rebuild-entries", test_rebuild_entries);
    qtest_add_func("/megaraid-pel/persist", test_persist);
    qtest_add_func("/megaraid-pel/corrupt", test_corrupt);
    return g_test_run();
}
