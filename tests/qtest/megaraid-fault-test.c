/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of fault injection on megaraid-9600 and
 * megaraid-drive (docs/fault-injection.md), set over QMP as a driver
 * developer would: an IOC fault with its code and info words and the
 * soft reset that ends it, the snapdump phase, PREPARE FOR RESET and the
 * firmware's reset, lost replies, BUSY / TASK SET FULL, a slow drive on
 * the guest clock, an unresponsive drive whose command only task
 * management ends, lost admin and TM replies, a wrong host tag, a chosen
 * IOCStatus and LogInfo, the snapdump of a host diag fault with
 * DIAG_SAVE and faults during IOC INIT.
 */
#include "qemu/osdep.h"
#include "qobject/qdict.h"
#include "megaraid-harness.h"

#define RAID0 "/machine/peripheral/raid0"
#define HD0 "/machine/peripheral/hd0"

/* One READ of block lba: true when a GOOD reply came within ms. */
static bool read_ok(HMR *m, uint16_t tag, uint32_t lba, int ms)
{
    uint8_t f[128];
    HDesc d;

    h_rw_frame(m, f, tag, m->handles[0], false, lba, 1);
    h_submit_op(m, f);
    if (!h_op_reply(m, &d, ms)) {
        return false;
    }
    g_assert_cmphex(d.tag, ==, tag);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    return true;
}

static void test_ioc_fault(void)
{
    HMR *m = h_start(NULL);
    g_autofree char *cur = NULL;

    h_bringup(m);
    g_assert(read_ok(m, 10, 0, 5000));
    g_assert(qom_set_fails(m, RAID0, "inject-fault", "0"));
    g_assert(qom_set_fails(m, RAID0, "inject-fault", "0x10000"));
    g_assert(qom_set_fails(m, RAID0, "inject-fault", "1:2:3:4:5"));
    qom_set_str(m, RAID0, "inject-fault", "0x5a17:0x11:0x22:0x33");
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0x5a17);
    g_assert_cmphex(h_rd(m, H_FAULT_INFO0), ==, 0x11);
    g_assert_cmphex(h_rd(m, H_FAULT_INFO0 + 4), ==, 0x22);
    g_assert_cmphex(h_rd(m, H_FAULT_INFO0 + 8), ==, 0x33);
    cur = qom_get_str(m, RAID0, "inject-fault");
    g_assert_cmpstr(cur, ==, "0x5a17:0x00000011:0x00000022:0x00000033");
    /* a second fault while faulted is refused */
    g_assert(qom_set_fails(m, RAID0, "inject-fault", "0x1234"));
    /* I/O in FAULT gets no answer */
    g_assert(!read_ok(m, 11, 0, 200));
    g_assert_cmpint(qom_get_int(m, RAID0, "faults-injected"), ==, 1);

    /* the driver's recovery: soft reset, bring-up again */
    h_soft_reset(m);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_FAULT | H_ST_READY), ==, 0);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0);
    g_assert_cmpint(qom_get_int(m, RAID0, "ioc-resets"), ==, 1);
    h_bringup(m);
    g_assert(read_ok(m, 12, 1, 5000));
    h_stop(m);
}

/*
 * The IOC in FAULT shows SAVE IN PROGRESS for @ms, then only the fault;
 * a soft reset (which clears DIAG_SAVE) and the bring-up end it.
 */
static void expect_save_phase(HMR *m, int64_t ms)
{
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 0x80, ==, 0x80);
    qtest_clock_step(m->qts, (ms - 100) * 1000 * 1000);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 0x80, ==, 0x80);
    qtest_clock_step(m->qts, 200 * 1000 * 1000);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 0x80, ==, 0);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    h_soft_reset(m);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG) & 0x10, ==, 0);
    h_bringup(m);
    g_assert(read_ok(m, 10, 0, 5000));
}

static void test_fault_snapdump(void)
{
    HMR *m = h_start(NULL);

    h_bringup(m);
    qom_set_int(m, RAID0, "fault-save-ms", 500);
    qom_set_str(m, RAID0, "inject-fault", "0x2222");
    expect_save_phase(m, 500);
    h_stop(m);
}

static void test_prepare_reset(void)
{
    HMR *m = h_start(NULL);
    HDesc d;

    h_bringup(m);
    qom_set_int(m, RAID0, "prepare-reset-ms", 1500);
    qom_set_bool(m, RAID0, "inject-prepare-reset", true);
    /* the event: PREPARE FOR RESET, reason START */
    g_assert(h_admin_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 0xFFFF);
    g_assert_cmphex(d.frame[3], ==, 0x04);
    g_assert_cmphex(d.frame[0x11], ==, 0x09);
    g_assert_cmphex(d.frame[0x18], ==, 0x01);
    g_assert_cmpint(qom_get_int(m, RAID0, "ioc-resets"), ==, 0);
    qtest_clock_step(m->qts, 1000 * 1000 * 1000);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_READY, ==, H_ST_READY);
    qtest_clock_step(m->qts, 600 * 1000 * 1000);
    /* the firmware reset itself: what the driver's watchdog sees */
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) &
                    (H_ST_READY | H_ST_FAULT | H_ST_RESET_HIST), ==,
                    H_ST_RESET_HIST);
    g_assert_cmpint(qom_get_int(m, RAID0, "ioc-resets"), ==, 1);
    h_soft_reset(m);
    h_bringup(m);
    g_assert(read_ok(m, 10, 0, 5000));
    h_stop(m);
}

static void test_drop_replies(void)
{
    HMR *m = h_start(NULL);

    h_bringup(m);
    qom_set_int(m, RAID0, "drop-replies", 2);
    g_assert(!read_ok(m, 10, 0, 300));
    g_assert_cmpint(qom_get_int(m, RAID0, "drop-replies"), ==, 1);
    g_assert(!read_ok(m, 11, 0, 300));
    g_assert(read_ok(m, 12, 0, 5000));
    g_assert_cmpint(qom_get_int(m, RAID0, "drop-replies"), ==, 0);
    h_stop(m);
}

static void expect_status(HMR *m, uint16_t tag, uint8_t status)
{
    uint8_t f[128];
    HDesc d;

    h_rw_frame(m, f, tag, m->handles[0], false, 0, 1);
    h_submit_op(m, f);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, tag);
    if (status == 0) {
        g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
        return;
    }
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(d.frame[0x10], ==, status);
    g_assert_cmpuint(ldl_le_p(d.frame + 0x14), ==, 0);  /* nothing moved */
}

static void test_inject_status(void)
{
    HMR *m = h_start(NULL);
    g_autofree char *cur = NULL;

    h_bringup(m);
    g_assert(qom_set_fails(m, HD0, "inject-status", "sleepy"));
    g_assert(qom_set_fails(m, HD0, "inject-status", "busy:0"));
    qom_set_str(m, HD0, "inject-status", "busy:2");
    cur = qom_get_str(m, HD0, "inject-status");
    g_assert_cmpstr(cur, ==, "busy:2");
    expect_status(m, 10, 0x08);
    expect_status(m, 11, 0x08);
    expect_status(m, 12, 0);
    qom_set_str(m, HD0, "inject-status", "task-set-full");
    expect_status(m, 13, 0x28);
    expect_status(m, 14, 0);
    qom_set_str(m, HD0, "inject-status", "busy:5");
    qom_set_str(m, HD0, "inject-status", "");
    expect_status(m, 15, 0);
    h_stop(m);
}

static void test_delay(void)
{
    HMR *m = h_start(NULL);
    HDesc d;

    h_bringup(m);
    qom_set_int(m, HD0, "delay-ms", 100);
    g_assert(!read_ok(m, 10, 0, 200));
    qtest_clock_step(m->qts, 60 * 1000 * 1000);
    g_assert(!h_op_reply(m, &d, 100));
    qtest_clock_step(m->qts, 50 * 1000 * 1000);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 10);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    qom_set_int(m, HD0, "delay-ms", 0);
    g_assert(read_ok(m, 11, 0, 5000));
    /* random latency: at most the jitter */
    qom_set_int(m, HD0, "delay-jitter-ms", 50);
    for (int i = 0; i < 8; i++) {
        if (!read_ok(m, 20 + i, 0, 50)) {
            qtest_clock_step(m->qts, 51 * 1000 * 1000);
            g_assert(h_op_reply(m, &d, 5000));
            g_assert_cmphex(d.tag, ==, 20 + i);
        }
    }
    {
        QDict *r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': %s, 'property': 'delay-jitter-ms', "
                             "'value': 3600001}}", HD0);

        g_assert(qdict_haskey(r, "error"));
        qobject_unref(r);
    }
    h_stop(m);
}

static void test_unresponsive(void)
{
    HMR *m = h_start(NULL);
    uint8_t f[32] = { 0 };
    HDesc d;

    h_bringup(m);
    qom_set_bool(m, HD0, "unresponsive", true);
    g_assert(!read_ok(m, 10, 0, 300));
    qtest_clock_step(m->qts, 30ll * 1000 * 1000 * 1000);
    g_assert(!h_op_reply(m, &d, 100));
    /* the driver's error handling: a target reset ends it */
    stw_le_p(f, 5);
    f[3] = 0x21;
    stw_le_p(f + 0x0A, m->handles[0]);
    f[0x0E] = 0x03;
    h_submit_admin(m, f, sizeof(f));
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 10);
    g_assert_cmphex(d.status, ==, 0x0048);          /* TASK TERMINATED */
    g_assert(h_admin_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 5);
    g_assert_cmpuint(ldl_le_p(d.frame + 0x10), ==, 1); /* terminated */

    /* clearing it lets a waiting command run */
    g_assert(!read_ok(m, 11, 0, 200));
    qom_set_bool(m, HD0, "unresponsive", false);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 11);
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);

    /* and a soft reset drops one */
    qom_set_bool(m, HD0, "unresponsive", true);
    g_assert(!read_ok(m, 12, 0, 200));
    h_soft_reset(m);
    qom_set_bool(m, HD0, "unresponsive", false);
    h_bringup(m);
    g_assert(read_ok(m, 13, 0, 5000));
    h_stop(m);
}

/* Lost admin and TM replies: each counter loses only its own kind. */
static void test_drop_admin_tm(void)
{
    HMR *m = h_start(NULL);
    uint8_t f[32] = { 0 };
    HDesc d;

    h_bringup(m);
    m->admin_ms = 300;
    qom_set_int(m, RAID0, "drop-admin-replies", 1);
    qom_set_int(m, RAID0, "drop-tm-replies", 1);
    /* an I/O is not an admin request: answered */
    g_assert(read_ok(m, 10, 0, 5000));
    h_event_notify_frame(f, NULL);
    g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0xFFFF);
    g_assert_cmpint(qom_get_int(m, RAID0, "drop-admin-replies"), ==, 0);
    g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0);
    /* a LUN reset is carried out, its reply lost; the next one answered */
    for (int i = 0; i < 2; i++) {
        memset(f, 0, sizeof(f));
        stw_le_p(f, 5 + i);
        f[3] = 0x21;
        stw_le_p(f + 0x0A, m->handles[0]);
        f[0x0E] = 0x05;
        h_submit_admin(m, f, sizeof(f));
        g_assert(h_admin_reply(m, &d, 300) == (i == 1));
    }
    g_assert_cmphex(d.tag, ==, 6);
    g_assert_cmpint(qom_get_int(m, RAID0, "drop-tm-replies"), ==, 0);
    g_assert(qom_set_fails(m, RAID0, "drop-tm-replies", "-1"));
    g_assert(read_ok(m, 11, 0, 5000));
    h_stop(m);
}

/* One completion with a wrong host tag, then the right ones again. */
static void test_bad_host_tag(void)
{
    HMR *m = h_start(NULL);
    g_autofree char *cur = NULL;
    uint8_t f[128];
    HDesc d;

    g_assert(qom_set_fails(m, RAID0, "inject-bad-host-tag", "0x10000"));
    g_assert(qom_set_fails(m, RAID0, "inject-bad-host-tag", "x"));
    g_assert(qom_set_fails(m, RAID0, "inject-bad-host-tag", "1:2"));
    h_bringup(m);
    qom_set_str(m, RAID0, "inject-bad-host-tag", "0");
    cur = qom_get_str(m, RAID0, "inject-bad-host-tag");
    g_assert_cmpstr(cur, ==, "0x0000");
    h_rw_frame(m, f, 10, m->handles[0], false, 0, 1);
    h_submit_op(m, f);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, 0);
    g_free(cur);
    cur = qom_get_str(m, RAID0, "inject-bad-host-tag");
    g_assert_cmpstr(cur, ==, "");
    g_assert(read_ok(m, 11, 0, 5000));
    h_stop(m);
}

static void expect_io_status(HMR *m, uint16_t tag, uint16_t st, uint32_t li)
{
    uint8_t f[128];
    HDesc d;

    h_rw_frame(m, f, tag, m->handles[0], false, 0, 1);
    h_submit_op(m, f);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, tag);
    g_assert_cmpint(d.type, ==, H_DT_ADDRESS);
    g_assert_cmphex(lduw_le_p(d.frame + 0x0A), ==, st | 0x8000);
    g_assert_cmphex(ldl_le_p(d.frame + 0x0C), ==, li);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);   /* no status, no sense */
    g_assert_cmpuint(ldl_le_p(d.frame + 0x14), ==, 0);
}

/* A device's completions with a chosen IOCStatus and LogInfo. */
static void test_io_status(void)
{
    HMR *m = h_start(NULL);
    g_autofree char *cur = NULL;
    g_autofree char *v = NULL;

    h_bringup(m);
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "0x43"));
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "1:0"));
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "1:0x8000"));
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "1:0x43:1:0"));
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "0x2ff:0x43"));
    g_assert(qom_set_fails(m, RAID0, "inject-io-status", "1:2:3:4:5"));
    v = g_strdup_printf("0x%x:0x43:0x31120303:2", m->handles[0]);
    qom_set_str(m, RAID0, "inject-io-status", v);
    cur = qom_get_str(m, RAID0, "inject-io-status");
    g_assert(g_str_has_suffix(cur, ":0x0043:0x31120303:2"));
    expect_io_status(m, 10, 0x43, 0x31120303);
    expect_io_status(m, 11, 0x43, 0x31120303);
    g_assert(read_ok(m, 12, 0, 5000));
    g_free(v);
    v = g_strdup_printf("0x%x:0x4b", m->handles[0]);
    qom_set_str(m, RAID0, "inject-io-status", v);
    expect_io_status(m, 13, 0x4b, 0);
    g_assert(read_ok(m, 14, 0, 5000));
    /* "" ends it */
    qom_set_str(m, RAID0, "inject-io-status", v);
    qom_set_str(m, RAID0, "inject-io-status", "");
    g_assert(read_ok(m, 15, 0, 5000));
    h_stop(m);
}

/* The host's diag fault with DIAG_SAVE: SAVE IN PROGRESS, then FAULT. */
static void test_diag_save(void)
{
    HMR *m = h_start(NULL);

    h_bringup(m);
    qom_set_int(m, RAID0, "diag-save-ms", 700);
    /* without DIAG_SAVE: no snapdump */
    h_unlock_diag(m);
    h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x700);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0xF000);
    g_assert_cmphex(h_rd(m, H_HOST_DIAG) & 0x80, ==, 0);
    h_soft_reset(m);
    h_bringup(m);
    /* with it, as the driver's snapdump path writes it */
    h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) | 0x10);
    h_unlock_diag(m);
    h_wr(m, H_HOST_DIAG, h_rd(m, H_HOST_DIAG) | 0x700);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
    g_assert_cmphex(h_rd(m, H_FAULT), ==, 0xF000);
    expect_save_phase(m, 700);
    h_stop(m);
}

/* IOC INIT faults N times; each soft reset and retry, then it succeeds. */
static void test_fault_ioc_init(void)
{
    HMR *m = g_new0(HMR, 1);
    uint8_t f[64];

    h_launch_disk(m, ",fault-ioc-init=2", NULL);
    g_assert(qom_set_fails(m, RAID0, "fault-ioc-init", "x"));
    for (int i = 0; i < 2; i++) {
        g_assert_cmphex(h_enable(m) & (H_ST_READY | H_ST_FAULT), ==,
                        H_ST_READY);
        m->admin_ms = 300;
        h_ioc_init_frame(m, f);
        g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0xFFFF);
        g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, H_ST_FAULT);
        g_assert_cmphex(h_rd(m, H_FAULT), ==, 0x2005);
        g_assert_cmpint(qom_get_int(m, RAID0, "fault-ioc-init"), ==, 1 - i);
        h_soft_reset(m);
    }
    m->admin_ms = 0;
    h_bringup(m);
    g_assert(read_ok(m, 10, 0, 5000));
    g_assert_cmpint(qom_get_int(m, RAID0, "faults-injected"), ==, 2);
    h_stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-fault/ioc-fault", test_ioc_fault);
    qtest_add_func("/megaraid-fault/snapdump", test_fault_snapdump);
    qtest_add_func("/megaraid-fault/prepare-reset", test_prepare_reset);
    qtest_add_func("/megaraid-fault/drop-replies", test_drop_replies);
    qtest_add_func("/megaraid-fault/inject-status", test_inject_status);
    qtest_add_func("/megaraid-fault/delay", test_delay);
    qtest_add_func("/megaraid-fault/unresponsive", test_unresponsive);
    qtest_add_func("/megaraid-fault/drop-admin-tm", test_drop_admin_tm);
    qtest_add_func("/megaraid-fault/bad-host-tag", test_bad_host_tag);
    qtest_add_func("/megaraid-fault/io-status", test_io_status);
    qtest_add_func("/megaraid-fault/diag-save", test_diag_save);
    qtest_add_func("/megaraid-fault/fault-ioc-init", test_fault_ioc_init);
    return g_test_run();
}
