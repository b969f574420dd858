/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the hold point of the timing model, shared by every host
 * interface.  When a request that the front end stamped (req->timing, its
 * arrival at the doorbell) finishes GOOD, the target asks the model when
 * the real card would have completed it and, if that is still ahead,
 * holds the completion on a QEMU_CLOCK_VIRTUAL timer embedded in the
 * request: the request keeps its slot in the front end meanwhile, so the
 * host sees the card's latency and its queue-full back pressure.  A task
 * management abort or a reset of a held request completes it at once with
 * TASK ABORTED (mr_target_cancel).  Nothing here allocates.
 */
#include "qemu/osdep.h"
#include "scsi/constants.h"
#include "hw/megaraid/target.h"
#include "target-int.h"
#include "hw/megaraid/timing/array-timing.h"
#include "trace.h"

/* The model's operation for a finished command, or -1: not costed. */
static int mr_timing_op(const MRTargetReq *req)
{
    if (mr_target_is_write(req->cdb[0])) {
        return TIMING_OP_WRITE;
    }
    switch (req->cdb[0]) {
    case READ_6:
    case READ_10:
    case READ_12:
    case READ_16:
        return TIMING_OP_READ;
    case SYNCHRONIZE_CACHE:
    case SYNCHRONIZE_CACHE_16:
        return TIMING_OP_FLUSH;
    case UNMAP:
        return TIMING_OP_UNMAP;
    }
    return -1;
}

static void mr_timing_release(void *opaque)
{
    MRTargetReq *req = opaque;
    MRTiming *t = req->timing;

    req->held = false;
    t->held--;
    trace_megaraid_timing_release(req->unit->name, req->cdb[0]);
    req->done(req);
}

/*
 * Cost a request that finished GOOD and hold it until its modelled
 * completion; returns false when done() should be called now.
 */
bool mr_target_timing_hold(MRTargetReq *req)
{
    MRTiming *t = req->timing;
    MRUnit *u = req->unit;
    int op = mr_timing_op(req);
    uint64_t arrival, done;
    int64_t now, deadline;

    if (op < 0) {
        return false;
    }
    arrival = mr_timing_model_of(t, req->arrival_ns);
    done = mr_timing_request(t, req, op, arrival);
    deadline = mr_timing_virt_of(t, done);
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    t->completions++;
    if (deadline <= now) {
        if (deadline < now) {
            t->late++;
            trace_megaraid_timing_late(u->name, req->cdb[0], now - deadline);
        }
        return false;
    }
    trace_megaraid_timing_hold(u->name, req->cdb[0], done - arrival,
                               deadline - now);
    req->held = true;
    t->held++;
    timer_init_ns(&req->hold_timer, QEMU_CLOCK_VIRTUAL, mr_timing_release,
                  req);
    timer_mod_ns(&req->hold_timer, deadline);
    return true;
}

/* Task management or reset: a held request ends now, aborted. */
bool mr_target_timing_cancel(MRTargetReq *req)
{
    if (!req->held) {
        return false;
    }
    timer_del(&req->hold_timer);
    req->held = false;
    req->timing->held--;
    trace_megaraid_timing_abort(req->unit->name, req->cdb[0]);
    mr_target_aborted(req);
    return true;
}
