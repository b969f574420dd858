/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's patrol read operations
 * (PATROL_CONTROL: start, stop, rate; PATROL_STATUS) on jobs/patrol.c.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/bswap.h"
#include "mgmt-ops.h"
#include "array-config.h"
#include "hw/megaraid/patrol.h"

/* the protocol's mode numbers are the core's */
QEMU_BUILD_BUG_ON(MGMT_PATROL_MODE_AUTO != MR_PATROL_MODE_AUTO ||
                  MGMT_PATROL_MODE_MANUAL != MR_PATROL_MODE_MANUAL ||
                  MGMT_PATROL_MODE_OFF != MR_PATROL_MODE_OFF);

static void mgmt_fill_patrol(MgmtCtx *c, MgmtPatrolStatus *ps)
{
    MRPatrolStatus st;

    mr_patrol_status(c->a, &st);
    memset(ps, 0, sizeof(*ps));
    ps->running = st.running;
    ps->rate = st.rate;
    ps->percent = MIN(st.percent, 100);
    ps->drive_percent = MIN(st.cur_percent, 100);
    ps->drive_slot = cpu_to_le16(st.cur_slot < 0 ? MGMT_NONE16 :
                                 st.cur_slot);
    ps->mode = st.mode;
    ps->drives_done = MIN(st.drives_done, 255);
    ps->iterations = cpu_to_le32(st.iterations);
    ps->corrected = cpu_to_le32(st.corrected);
    ps->uncorrectable = cpu_to_le32(st.uncorrectable);
    ps->delay_hours = cpu_to_le32(st.delay_h);
    ps->done_sectors = cpu_to_le64(st.done_sectors);
    ps->total_sectors = cpu_to_le64(st.total_sectors);
    c->out_len = sizeof(*ps);
}

static void mgmt_refill_patrol(MgmtCtx *c)
{
    if (c->out_cap >= sizeof(MgmtPatrolStatus)) {
        mgmt_fill_patrol(c, (MgmtPatrolStatus *)c->out);
    }
}

uint8_t mgmt_patrol_on(MRArray *a)
{
    MRPatrolStatus st;

    mr_patrol_status(a, &st);
    return st.mode != MR_PATROL_MODE_OFF;
}

/* On: a mode that was off becomes manual (auto and manual are kept). */
void mgmt_patrol_set_on(MRArray *a, bool on)
{
    if (!on) {
        mr_patrol_set_mode(a, MR_PATROL_MODE_OFF);
    } else if (!mgmt_patrol_on(a)) {
        mr_patrol_set_mode(a, MR_PATROL_MODE_MANUAL);
    }
}

uint8_t mgmt_op_patrol_status(MgmtCtx *c)
{
    uint8_t st = mgmt_need(c, sizeof(MgmtPatrolStatus));

    if (st) {
        return st;
    }
    mgmt_fill_patrol(c, (MgmtPatrolStatus *)c->out);
    return MGMT_STAT_OK;
}

uint8_t mgmt_op_patrol_control(MgmtCtx *c)
{
    MRPatrolStatus ps;
    uint8_t st = mgmt_need(c, sizeof(MgmtPatrolStatus));
    Error *err = NULL;

    if (st) {
        return st;
    }
    mr_patrol_status(c->a, &ps);
    switch (c->mbox[0]) {
    case MGMT_PATROL_START:
        if (ps.running) {
            return mgmt_refuse(c, MGMT_STAT_BUSY, MGMT_OFF_MBOX(0),
                               c->mbox[0]);
        }
        if (ps.mode == MR_PATROL_MODE_OFF) {
            return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                               c->mbox[0]);
        }
        if (!mr_patrol_start(c->a, &err)) {
            error_free(err);
            return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_OFF_MBOX(0),
                               c->mbox[0]);
        }
        break;
    case MGMT_PATROL_STOP:
        if (!ps.running) {
            return mgmt_refuse(c, MGMT_STAT_NO_JOB, MGMT_OFF_MBOX(0),
                               c->mbox[0]);
        }
        /* the pass ends at its window: the reply after, with the status */
        mr_cfg_stop_patrol(c->a);
        c->m->refill = mgmt_refill_patrol;
        break;
    case MGMT_PATROL_RATE:
        if (c->mbox[1] < 1 || c->mbox[1] > 100) {
            return mgmt_bad_mbox(c, 1);
        }
        mr_patrol_set_rate(c->a, c->mbox[1]);
        break;
    case MGMT_PATROL_MODE:
        if (c->mbox[1] > MGMT_PATROL_MODE_OFF) {
            return mgmt_bad_mbox(c, 1);
        }
        mr_patrol_set_mode(c->a, c->mbox[1]);
        break;
    case MGMT_PATROL_DELAY:
        if (c->mbox[1] > 24 * 365) {
            return mgmt_bad_mbox(c, 1);
        }
        mr_patrol_set_delay(c->a, c->mbox[1]);
        break;
    default:
        return mgmt_bad_mbox(c, 0);
    }
    mgmt_fill_patrol(c, (MgmtPatrolStatus *)c->out);
    return MGMT_STAT_OK;
}
