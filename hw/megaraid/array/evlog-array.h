/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the array glue writes into the controller's event
 * log (evlog.h).  State changes are found by comparison: mr_ev_sync(),
 * called at the end of every mr_array_refresh(), logs each drive, VD and
 * CacheVault state that differs from the one last logged, so a new path
 * that changes a state (management, QOM, a failure) is logged without a
 * call of its own.  Happenings that are not states (a drive failed,
 * inserted, removed; a job started, progressed, ended; a foreign
 * configuration; controller reset and shutdown) are logged by one call at
 * the place they happen.
 *
 * Every function does nothing when the array has no log (a->evlog NULL,
 * as in the unit tests' arrays).
 */
#ifndef HW_MEGARAID_EVLOG_ARRAY_H
#define HW_MEGARAID_EVLOG_ARRAY_H

#include "hw/megaraid/evlog.h"
#include "hw/megaraid/member/array-types.h"

/*
 * Open the array's log (a->evlog_blk, or in memory) and log
 * MR_EV_CTRL_STARTED; false with @errp naming the drive's problem.
 */
bool mr_ev_open(MRArray *a, Error **errp);
/* Have every entry so far on the drive and flushed (QEMU quits). */
void mr_ev_flush(MRArray *a);
void mr_ev_close(MRArray *a);

/* Log every state that changed since the last call (the first: none). */
void mr_ev_sync(MRArray *a);
/* MR_EV_PD_FAILED (@why), MR_EV_PD_INSERTED or MR_EV_PD_REMOVED. */
void mr_ev_drive(MRArray *a, MREvCode code, MRDrive *d, const char *why);
/*
 * A job of @kind started (@arg: 1 resumed), is done (@arg: inconsistent
 * rows found), was given up (@arg unused); progress by tenths of it.
 */
void mr_ev_job(MRVirtualDisk *vd, MREvCode code, RaidJobKind kind,
               uint64_t arg);
void mr_ev_job_progress(MRVirtualDisk *vd);
/* Configuration and controller entries with one argument. */
void mr_ev_config(MRArray *a, MREvCode code, uint32_t arg0);
void mr_ev_ctrl(MRArray *a, MREvCode code, uint32_t arg0);

#endif
