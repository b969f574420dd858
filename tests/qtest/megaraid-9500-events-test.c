/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the megaraid-9500's events through the Fusion
 * host interface: hot plug and pull as PD events through the held
 * EVENT_WAIT, a wait aborted, a wait for an event already logged; the
 * controller's event log (a locate LED started) in CTRL_EVENT_GET but not
 * completing the driver's EVENT_WAIT.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

static void test_events(void)
{
    MR *m = start();
    uint64_t wait_mfi = alloc(m, 256), evt = alloc(m, 256);
    uint64_t abort_mfi = alloc(m, 256);
    uint32_t newest;
    char desc[64];
    QDict *r;

    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01040100, 0, m->buf, 20), ==, 0);
    newest = qtest_readl(m->qts, m->buf);

    /* EVENT_WAIT for newest + 1, all classes from debug: held */
    dcmd_post(m, 70, wait_mfi, 0x01040500, newest + 1, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0xFF);

    /* a drive hot plugged into slot 9: PD_INSERTED completes the wait */
    r = qtest_qmp(m->qts, "{'execute': 'blockdev-add', 'arguments': {"
                  "'driver': 'null-co', 'node-name': 'hp', "
                  "'size': 1048576}}");
    g_assert(!qdict_haskey(r, "error"));
    qobject_unref(r);
    r = qtest_qmp(m->qts, "{'execute': 'device_add', 'arguments': {"
                  "'driver': 'megaraid-drive', 'id': 'hpd', "
                  "'bus': 'raid0.0', 'slot': 9, 'drive': 'hp', "
                  "'interface': 'sas'}}");
    g_assert(!qdict_haskey(r, "error"));
    qobject_unref(r);
    g_assert_cmpuint(reply(m, 0), ==, 70);
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, evt), ==, newest + 1);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x005B);
    g_assert_cmpuint(qtest_readw(m->qts, evt + 0x20), ==, 9);
    qtest_memread(m->qts, evt + 0x80, desc, sizeof(desc));
    desc[sizeof(desc) - 1] = 0;
    g_assert(strstr(desc, "Inserted"));
    g_assert_cmphex(dcmd(m, 64, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 3);

    /* the next wait is held; ABORT completes it with NOT_FOUND first */
    dcmd_post(m, 71, wait_mfi, 0x01040500, newest + 2, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    mfi_abort_post(m, 72, abort_mfi, wait_mfi);
    g_assert_cmpuint(reply(m, 0), ==, 71);
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0x23);
    g_assert_cmpuint(reply(m, 0), ==, 72);
    g_assert_cmphex(rd8(m, abort_mfi + 2), ==, 0);

    /* a wait for an event already logged completes at once */
    dcmd_post(m, 73, wait_mfi, 0x01040500, newest + 1, 0xFE00FFFF, evt, 256);
    g_assert_cmpuint(reply(m, 0), ==, 73);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x005B);

    /* a cold-plugged drive pulled: PD_REMOVED */
    dcmd_post(m, 74, wait_mfi, 0x01040500, newest + 2, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    qtest_qmp_device_del_send(m->qts, "hd0");
    g_assert_cmpuint(reply(m, 0), ==, 74);
    g_assert_cmphex(qtest_readl(m->qts, evt + 8), ==, 0x0070);
    g_assert_cmpuint(qtest_readw(m->qts, evt + 0x20), ==, 0);
    g_assert_cmphex(dcmd(m, 64, 0x02010100, 5, m->buf, 8192), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 4), ==, 2);
    stop(m);
}

/*
 * A core log entry the device raises no driver event for (PD_LOCATE_START
 * by mfiutil locate): in the MFI log with the core's text, the held
 * EVENT_WAIT left waiting.
 */
static void test_events_core(void)
{
    MR *m = start();
    uint64_t wait_mfi = alloc(m, 256), evt = alloc(m, 256);
    uint64_t abort_mfi = alloc(m, 256);
    uint8_t mbox[12] = { 0 };
    uint32_t newest;
    char desc[64];

    ioc_init(m);
    g_assert_cmphex(dcmd(m, 64, 0x01040100, 0, m->buf, 20), ==, 0);
    newest = qtest_readl(m->qts, m->buf);
    dcmd_post(m, 70, wait_mfi, 0x01040500, newest + 1, 0xFE00FFFF, evt, 256);
    g_assert(no_reply(m, 0));
    /* the LED of PD 0 on: the reply is the DCMD's, not the wait's */
    g_assert_cmphex(dcmd(m, 65, 0x02070100, 0, 0, 0), ==, 0);
    g_assert(no_reply(m, 0));
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0xFF);
    g_assert_cmphex(dcmd(m, 64, 0x01040100, 0, m->buf, 20), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, newest + 1);
    stl_le_p(mbox, newest + 1);
    stw_le_p(mbox + 4, 0xFFFF);
    mbox[7] = 0xFE;
    g_assert_cmphex(dcmd_mbox(m, 64, 0x01040300, mbox, m->buf, 4096), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 1);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf + 8), ==, newest + 1);
    g_assert_cmphex(qtest_readw(m->qts, m->buf + 8 + 0xC), ==, 0x0002);
    qtest_memread(m->qts, m->buf + 8 + 0x80, desc, sizeof(desc));
    desc[sizeof(desc) - 1] = 0;
    g_assert_nonnull(strstr(desc, "Locate started on drive in slot 0"));
    /* the wait is still held: ABORT ends it */
    mfi_abort_post(m, 72, abort_mfi, wait_mfi);
    g_assert_cmpuint(reply(m, 0), ==, 70);
    g_assert_cmphex(rd8(m, wait_mfi + 2), ==, 0x23);
    g_assert_cmpuint(reply(m, 0), ==, 72);
    stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/events", test_events);
    qtest_add_func("/megaraid-9500/events-core", test_events_core);
    return g_test_run();
}
