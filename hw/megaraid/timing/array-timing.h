/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's timing state (timing=on) shared by the
 * host-neutral firmware core: the hold point of the SCSI target
 * (target-timing.c), the costing of host requests and the QOM properties
 * (array-timing.c) and the paced background jobs (array-jobs.c).
 *
 * Time.  The RAID core's model (raid/timing.h) works in *modelled*
 * nanoseconds; the device runs it on QEMU_CLOCK_VIRTUAL divided by the
 * time scale: modelled = epoch_model + (virtual - epoch_virt) / scale.
 * The virtual clock runs with the guest (it stops while the VM is paused)
 * and, under qtest, only advances with clock_step, so tests of the timing
 * are deterministic.  A change of time-scale moves the epoch, so modelled
 * time stays continuous.
 *
 * Everything runs in the main loop under the BQL.  With timing=off the
 * array has no MRTiming (a->timing is NULL) and none of this runs.
 */
#ifndef HW_MEGARAID_ARRAY_TIMING_H
#define HW_MEGARAID_ARRAY_TIMING_H

#include "qemu/timer.h"
#include "raid/timing.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/member/array-types.h"

/* time-scale bounds (a string property: qdev has no float type) */
#define MR_TIME_SCALE_MIN   0.01
#define MR_TIME_SCALE_MAX   1000.0

typedef struct MRTiming {
    TimingModel *model;
    const TimingCtrlProfile *ctrl;
    double scale;               /* virtual ns per modelled ns */
    int64_t epoch_virt;         /* QEMU_CLOCK_VIRTUAL at the last rescale */
    uint64_t epoch_model;       /* modelled ns then */
    /* bays seen so far: model drive index per (enclosure, slot) */
    GHashTable *bays;
    /* counters (QOM, read-only) */
    uint64_t completions;       /* costed completions */
    uint64_t late;              /* ...whose work ended after their time */
    uint64_t held;              /* held now */
} MRTiming;

/* Modelled ns of a QEMU_CLOCK_VIRTUAL time. */
static inline uint64_t mr_timing_model_of(const MRTiming *t, int64_t virt)
{
    double m = (double)t->epoch_model + (double)(virt - t->epoch_virt) /
               t->scale;

    return m > 0 ? (uint64_t)m : 0;
}

/* QEMU_CLOCK_VIRTUAL time of a modelled time. */
static inline int64_t mr_timing_virt_of(const MRTiming *t, uint64_t model)
{
    return t->epoch_virt + (int64_t)(((double)model -
                                      (double)t->epoch_model) * t->scale);
}

static inline uint64_t mr_timing_model_now(const MRTiming *t)
{
    return mr_timing_model_of(t, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/* array-timing.c */

/* timing=on: build the model for the controller profile @ctrl_name. */
bool mr_timing_init(MRArray *a, const char *ctrl_name, Error **errp);
void mr_timing_cleanup(MRArray *a);
/* The model's drive index of @d (added on first sight), -1 if none. */
int mr_timing_drive(MRTiming *t, MRDrive *d);
/*
 * A VD as the model sees it: @drive gets the model drive per member
 * (RAID_MAX_MEMBERS entries).
 */
void mr_timing_vd(MRTiming *t, MRVirtualDisk *vd, TimingVd *tv, int *drive);
/*
 * Modelled bytes of one member extent of @vd: its real size times the
 * ratio of the members' modelled capacity to their backing size.
 */
uint64_t mr_timing_vd_member_bytes(MRVirtualDisk *vd);
/*
 * Book a finished host request (@op a TimingOp) that arrived at modelled
 * time @arrival; returns its modelled completion.
 */
uint64_t mr_timing_request(MRTiming *t, MRTargetReq *req, int op,
                           uint64_t arrival);
/*
 * Unloaded latency (modelled ns) of one 4 KiB random @op on an idle copy
 * of the controller: on drive @d (JBOD) or on @vd (all members online).
 */
uint64_t mr_timing_unloaded_ns(MRTiming *t, MRDrive *d, MRVirtualDisk *vd,
                               int op);

/* array-timing-props.c */

/* Controller QOM properties: time-scale, timing-late, ... */
void mr_timing_class_props(ObjectClass *oc, ptrdiff_t array_offset);
/* Per VD: vdN-job-rate-bps, vdN-job-eta-ms, vdN-job-busy-pct, ... */
void mr_timing_vd_props(MRVirtualDisk *vd);
/* megaraid-drive: perf-profile and modelled-capacity, at realize. */
bool mr_drive_perf_realize(MRDrive *d, Error **errp);
/* megaraid-drive: timing-read-ns, timing-write-ns (read-only). */
void mr_drive_timing_class_init(ObjectClass *oc);

#endif
