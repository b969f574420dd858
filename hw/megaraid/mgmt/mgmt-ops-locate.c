/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's PD_LOCATE: the locate LED of
 * a drive in a bay on and off (storcli's /cx/ex/sx start|stop locate,
 * MFI PD_LOCATE_START/STOP through megaraid-9500), for a number of
 * seconds or until stopped.  The LED is the drive's "locate" flag
 * (bay/drive-locate.c shows it to QOM, the PD list and query-megaraid
 * carry it); every change is an event-log entry (MR_EV_PD_LOCATE).
 * Nothing is stored on the drives: the LED is off after a restart, as
 * on the card.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/timer.h"
#include "hw/megaraid/evlog.h"
#include "mgmt-ops.h"
#include "trace.h"

static void mgmt_locate_log(MRArray *a, MRDrive *d, bool on, uint32_t secs)
{
    if (!a || !a->evlog) {
        return;
    }
    if (on && secs) {
        mr_evlog_add(a->evlog, MR_EV_PD_LOCATE, MR_EV_SEV_INFO, d->slot, 1,
                     secs, "Locate started on drive in slot %u for %u s",
                     d->slot, secs);
    } else if (on) {
        mr_evlog_add(a->evlog, MR_EV_PD_LOCATE, MR_EV_SEV_INFO, d->slot, 1,
                     0, "Locate started on drive in slot %u", d->slot);
    } else {
        mr_evlog_add(a->evlog, MR_EV_PD_LOCATE, MR_EV_SEV_INFO, d->slot, 0,
                     0, "Locate stopped on drive in slot %u", d->slot);
    }
}

/* The array of the drive's controller (MRBus.array), or NULL. */
static MRArray *mgmt_locate_array(MRDrive *d)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(d));

    return bus ? MEGARAID_BUS(bus)->array : NULL;
}

/* A timed locate ran out. */
static void mgmt_locate_expired(void *opaque)
{
    MRDrive *d = opaque;

    if (!d->locate) {
        return;
    }
    d->locate = false;
    trace_megaraid_mgmt_locate(d->slot, false, 0);
    mgmt_locate_log(mgmt_locate_array(d), d, false, 0);
}

void mgmt_pd_locate(MRArray *a, MRDrive *d, bool on, uint32_t secs)
{
    bool was = d->locate;

    if (d->locate_timer) {
        timer_del(d->locate_timer);
    }
    d->locate = on;
    if (on && secs) {
        if (!d->locate_timer) {
            d->locate_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL,
                                           mgmt_locate_expired, d);
        }
        timer_mod(d->locate_timer,
                  qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + secs * 1000ll);
    }
    trace_megaraid_mgmt_locate(d->slot, on, secs);
    /* a start while blinking restarts the time; a stop while off is news */
    if (on || was) {
        mgmt_locate_log(a, d, on, secs);
    }
}

uint8_t mgmt_op_pd_locate(MgmtCtx *c)
{
    MRDrive *d = mgmt_drive(c, c->mbox[0]);
    uint8_t st = mgmt_need(c, sizeof(MgmtPdEntry));

    if (st) {
        return st;
    }
    if (!d) {
        return mgmt_refuse(c, MGMT_STAT_DEVICE_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    if (c->mbox[1] > 1) {
        return mgmt_bad_mbox(c, 1);
    }
    if (c->mbox[2] > MGMT_LOCATE_MAX_S || (!c->mbox[1] && c->mbox[2])) {
        return mgmt_bad_mbox(c, 2);
    }
    mgmt_pd_locate(c->a, d, c->mbox[1], c->mbox[2]);
    mgmt_fill_pd_entry(c->a, d, (MgmtPdEntry *)c->out);
    c->out_len = sizeof(MgmtPdEntry);
    return MGMT_STAT_OK;
}
