/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of task management through the megaraid-9500
 * Fusion host interface: ABORT TASK and TARGET RESET of JBOD reads held
 * by the drive's "unresponsive" fault and of LD reads held by the timing
 * model, and hostile TM frames that must end nothing.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

/*
 * Task management: a read held by the drive's "unresponsive" fault is
 * aborted by ABORT TASK (its reply, TASK ABORTED, first; the TM's, TM
 * COMPLETE with a TerminationCount of 1, only once the host has consumed
 * the victim's); TARGET RESET ends every
 * held command of the drive; then the drive answers again.  Hostile TMs:
 * TaskMID 0 or outside the pool, a task not outstanding or another
 * device's, an absent device handle, an LD that does not exist, neither
 * or both handle kinds, unknown task types: each gets its status at once
 * and ends nothing.
 */
static void test_tm(void)
{
    MR *m = start();

    ioc_init(m);
    drive_set(m, "hd0", "unresponsive", true);

    /* ABORT TASK of a held read: the victim's reply, then the TM's */
    jbod_post(m, 1, 0, 0, false, 0, 8, m->buf);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    /* another device's handle (PD 3) does not name it */
    tm_check(m, 100, 3, TM_ABORT_TASK, 1, TM_FOR_PD, 0, 0);
    g_assert(no_reply(m, 0));
    tm_post(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_PD);
    /* the TM's reply waits until the host has consumed the victim's */
    g_usleep(50 * 1000);
    g_assert(!no_reply(m, 0));
    g_assert_cmphex(qtest_readq(m->qts, m->replies + (m->ci[0] + 1) * 8), ==,
                    UINT64_MAX);
    tm_victim(m, 0, 1);
    tm_expect(m, 101, 0, TM_ABORT_TASK, 0, 0, 1);
    g_assert(no_reply(m, 0));
    /* again: no longer outstanding, TM COMPLETE ending nothing */
    tm_check(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_PD, 0, 0);

    /* TARGET RESET: both held reads of PD 0 end, PD 3 is not touched */
    jbod_post(m, 2, 0, 0, false, 8, 8, m->buf);
    jbod_post(m, 3, 1, 0, true, 16, 8, m->buf + 8192);
    g_assert_cmphex(jbod_rw(m, 4, 1, 3, false, 0, 8, m->buf + 16384), ==, 0);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    g_assert(no_reply(m, 1));
    tm_post(m, 102, 0, TM_TARGET_RESET, 0, TM_FOR_PD);
    tm_victim(m, 0, 2);
    tm_victim(m, 1, 3);
    tm_expect(m, 102, 0, TM_TARGET_RESET, 0, 0, 2);

    /* hostile TMs, with a read held on PD 0 that none may end */
    jbod_post(m, 5, 1, 0, false, 24, 8, m->buf);
    g_usleep(50 * 1000);
    /* TaskMID 0, beyond the pool: INVALID_FIELD, INVALID FRAME */
    tm_check(m, 103, 0, TM_ABORT_TASK, 0, TM_FOR_PD, 0x0004, 0x02);
    tm_check(m, 103, 0, TM_ABORT_TASK, MAX_SMID + 1, TM_FOR_PD, 0x0004,
             0x02);
    tm_check(m, 103, 0, TM_ABORT_TASK, 0xFFFF, TM_FOR_PD, 0x0004, 0x02);
    /* its own SMID, an idle one: not outstanding */
    tm_check(m, 103, 0, TM_ABORT_TASK, 103, TM_FOR_PD, 0, 0);
    tm_check(m, 103, 0, TM_ABORT_TASK, MAX_SMID, TM_FOR_PD, 0, 0);
    /* absent PD 7, PD 0xFFFF, LD 0 and 200 (no VD): INVALID_DEVHANDLE */
    tm_check(m, 104, 7, TM_TARGET_RESET, 0, TM_FOR_PD, 0x0042, 0x02);
    tm_check(m, 104, 0xFFFF, TM_ABORT_TASK, 5, TM_FOR_PD, 0x0042, 0x02);
    tm_check(m, 104, 0, TM_TARGET_RESET, 0, TM_FOR_LD, 0x0042, 0x02);
    tm_check(m, 104, 200, TM_ABORT_TASK, 5, TM_FOR_LD, 0x0042, 0x02);
    /* neither or both kinds of handle: INVALID_FIELD */
    tm_check(m, 105, 0, TM_TARGET_RESET, 0, 0, 0x0004, 0x02);
    tm_check(m, 105, 0, TM_TARGET_RESET, 0, 3, 0x0004, 0x02);
    /* QUERY TASK, CLEAR ACA, 0, 0xFF: TM NOT SUPPORTED */
    tm_check(m, 106, 0, 0x07, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0x08, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0x00, 5, TM_FOR_PD, 0, 0x04);
    tm_check(m, 106, 0, 0xFF, 5, TM_FOR_PD, 0, 0x04);
    g_assert(no_reply(m, 1));

    /* answering again: the held read completes, new I/O works */
    drive_set(m, "hd0", "unresponsive", false);
    g_assert_cmpuint(reply(m, 1), ==, 5);
    g_assert_cmphex(rd8(m, m->frames + 5 * 256 + 0x77), ==, 0);
    g_assert_cmphex(jbod_rw(m, 6, 0, 0, false, 0, 8, m->buf), ==, 0);
    g_assert_cmphex(jbod_rw(m, 1, 1, 0, true, 32, 8, m->buf), ==, 0);
    stop(m);
}

/*
 * Task management of LD commands: with timing=on an LD read is held
 * until the virtual clock passes its modelled completion (qtest moves it
 * only on request), so ABORT TASK and TARGET RESET to the LD (LD flag,
 * its target id) find it outstanding and end it (TASK ABORTED), the TM's
 * reply after the victim's; the ended reads never complete a second
 * time, and the LD still answers.
 */
static void test_ld_tm(void)
{
    char *path[3];
    MR *m = vd_rig_opts("ldtm", path, NULL, ",timing=on");

    ioc_init(m);
    ld_post(m, 1, 1, 0, false, 0, 8, m->buf);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 1));
    tm_post(m, 101, 0, TM_ABORT_TASK, 1, TM_FOR_LD);
    tm_victim(m, 1, 1);
    tm_expect(m, 101, 0, TM_ABORT_TASK, 0, 0, 1);

    /* TARGET RESET: two held LD commands end */
    ld_post(m, 2, 1, 0, false, 8, 8, m->buf);
    ld_post(m, 3, 1, 0, true, 16, 8, m->buf + 8192);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 1));
    tm_post(m, 102, 0, TM_TARGET_RESET, 0, TM_FOR_LD);
    tm_victim(m, 1, 2);
    tm_victim(m, 1, 3);
    tm_expect(m, 102, 0, TM_TARGET_RESET, 0, 0, 2);

    /* past every modelled completion: nothing more comes */
    qtest_clock_step(m->qts, 100 * 1000 * 1000);
    g_usleep(100 * 1000);
    g_assert(no_reply(m, 0));
    g_assert(no_reply(m, 1));
    /* the LD answers */
    ld_post(m, 4, 1, 0, false, 0, 8, m->buf);
    g_usleep(50 * 1000);
    qtest_clock_step(m->qts, 100 * 1000 * 1000);
    g_assert_cmpuint(reply(m, 1), ==, 4);
    g_assert_cmphex(rd8(m, m->frames + 4 * 256 + 0x77), ==, 0);
    vd_rig_end(m, path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/task-mgmt", test_tm);
    qtest_add_func("/megaraid-9500/ld-task-mgmt", test_ld_tm);
    return g_test_run();
}
