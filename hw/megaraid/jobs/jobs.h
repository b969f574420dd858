/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: rebuild, consistency check and initialization
 * (array-jobs*.c).  For array.c and the files beside it (kick, stop,
 * start, statistics) and the controller (mgmt-ops*.c, qmp-info.c:
 * start, stop, pause, statistics, rate).  What a job changes goes up
 * through MRArrayHooks.jobs.
 */
#ifndef HW_MEGARAID_JOBS_H
#define HW_MEGARAID_JOBS_H

#include "hw/megaraid/member/array-types.h"

/* Start (or resume) the VD's job coroutine if its cursor holds a job. */
void mr_jobs_kick(MRVirtualDisk *vd);
/*
 * Stop the job coroutine (checkpointing the cursor) and wait for it: in
 * a coroutine it yields; on the main loop it polls (exit, unplug).
 */
void mr_jobs_stop(MRVirtualDisk *vd);
/* Only ask it to stop (at its current window); no wait. */
void mr_jobs_abort(MRVirtualDisk *vd);
/* Start a job from the host (QOM): "check", "check-repair", "init". */
bool mr_jobs_start(MRVirtualDisk *vd, RaidJobKind kind, bool repair,
                   Error **errp);

void mr_jobs_stats(MRVirtualDisk *vd, MRJobStats *out);
/* The rate (1-100 %) of @vd's job kind: rebuild-, cc- or init-rate. */
unsigned mr_jobs_rate(MRVirtualDisk *vd);

#endif
