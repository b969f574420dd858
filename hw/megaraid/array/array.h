/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the array glue between a controller and the RAID core.
 *
 * An MRArray holds the controller's RAID configuration (RaidConfig, read
 * from the DDF metadata on its drives), the drives that back each physical
 * drive entry, and one MRVirtualDisk per VD.  It knows nothing of the host
 * interface: a controller calls the entry points below and learns of
 * changes through MRArrayOps.
 *
 * The array's files are layers, one folder each, and calls go down only
 * (scripts/check-layers.sh checks the includes):
 *
 *  core/fw-core.c, mgmt/ (mgmt-ops*.c,              target/ (the SCSI target)
 *  array-config.c), qmp/, bay/ (drive-state.c:          |
 *  QOM state of a drive)                                v
 *       |                                          array/array-vd.c: a VD's
 *       v                                          entry points (array-vd.h)
 *  array/array.c: configuration, drive/VD               |                 |
 *  states, metadata; owns and drives the                v                 |
 *  layers below (init, cleanup, kick, stop,        cache/: the controller |
 *  drain), installs MRArrayHooks.  Above it:       cache (cache.h) and  (unmap)
 *  array-props.c (QOM, registered by fw-core).     its journal            |
 *  Below it: evlog-array.c (its log entries)            |                 |
 *       |        |                                      |                 |
 *       |        v                                      |                 |
 *       |     jobs/: rebuild, consistency check,        |                 |
 *       |     init (jobs.h)                             |                 |
 *       |        |         \                           |                 |
 *       |        |          v                           |                 |
 *       |        |     timing/: the timing model (array-timing.h)         |
 *       v        v                                      v                 v
 *  member/: the leaf types (array-types.h); member I/O (member.h):
 *  binding, stale-plan replanning, row locks, plans run on the members'
 *  BlockBackends, drain; the drives' media errors (drive-media.c)
 *       |
 *       v
 *  RAID core (raid/), block layer
 *
 * The edges, file by file (function calls among the array files):
 *   array.c        -> cache (start, stop, vd_init, vd_cleanup, policy),
 *                     jobs (kick, stop), member (drain), evlog-array,
 *                     timing (vd props); array-props only through
 *                     MRArray.vd_made, which fw-core.c installs
 *   array-props.c  -> array.c, cache (policy, stats), jobs (start)
 *   array-config.c -> array.c, jobs (stop), cache (start), evlog-array
 *   evlog-array.c  -> the event log (evlog.h) only
 *   array-vd.c     -> cache (read, write, flush, invalidate), member
 *                     (mr_vd_co_io: unmap)
 *   cache/         -> member (mr_vd_co_io, drain), array-journal
 *   jobs/          -> member (mr_vd_co_run_plan), timing (the VD in the
 *                     timing model, for the job's pace)
 *   timing/        -> no other array file
 *   member/        -> no other array file
 *   bay/drive-state.c -> array.c (the QOM state: fail, spares)
 * What a lower layer reports upwards goes through MRArrayHooks, which
 * array.c fills (a unit test fills its own), one group per layer: a
 * member's failed I/O (member), the VD's write policy (cache), a job's
 * change of the configuration, its cursor to store in the metadata and
 * its event-log entries (jobs), the write policy, the cache's dirty state
 * and a job's progress for the request costing and the estimates
 * (timing).
 *
 * Everything runs in the main loop's AioContext under the BQL.
 */
#ifndef HW_MEGARAID_ARRAY_H
#define HW_MEGARAID_ARRAY_H

#include "hw/megaraid/member/array-types.h"
#include "hw/megaraid/member/member.h"
#include "hw/megaraid/cache/cache.h"
#include "hw/megaraid/jobs/jobs.h"
#include "hw/megaraid/patrol.h"

/*
 * ---- array.c: configuration, states, metadata ----
 * For the core (fw-core.c), the management (mgmt-ops*.c,
 * array-config.c), qmp*.c, a drive's QOM state (drive-state.c) and
 * array-props.c; never for the layers below it, which use MRArrayHooks.
 */

/*
 * The defaults of the runtime properties (rates 30 %, cache flush 1 s,
 * time scale 1), when the controller's object is made.
 */
void mr_array_defaults(MRArray *a);
void mr_array_init(MRArray *a, const MRArrayOps *ops, void *opaque);
void mr_array_cleanup(MRArray *a);
/*
 * Read the DDF metadata of every drive on @bus and build the VDs.  Drives
 * without metadata stay unconfigured (JBOD).  A foreign configuration is
 * kept foreign (its drives hidden and never written) unless
 * a->import_foreign.  Replays the cache journal.  Errors name the drive
 * or the file; after one the array is as before (nothing imported).
 */
bool mr_array_import(MRArray *a, BusState *bus, Error **errp);
/*
 * Write the configuration to every present, non-failed drive, in the
 * array's metadata writer (a coroutine; the main loop goes on).  In a
 * coroutine mr_array_store() waits for the pass and reports its error;
 * elsewhere it returns true at once and the writer reports errors.
 * mr_array_store_async() returns the pass that will hold the
 * configuration as it is now; mr_array_store_pd() makes the next pass
 * write PD @pd too, which is not a member or spare (an unconfigured drive,
 * so that it does not read back as what it was).
 */
bool mr_array_store(MRArray *a, Error **errp);
uint64_t mr_array_store_async(MRArray *a);
void mr_array_store_pd(MRArray *a, int pd);
/*
 * Drive @d, outside the configuration (another array's drive), is to be
 * blank: the next pass zeroes its metadata area and flushes it before it
 * writes anything, then calls @wiped (@ok: the drive is blank) from the
 * writer, unless the drive went or the array is being torn down first.
 * An error makes the pass fail (a management reply waiting for it:
 * IO_ERROR).  Returns the pass, as mr_array_store_async().
 */
typedef void MRWiped(MRArray *a, MRDrive *d, bool ok);
uint64_t mr_array_store_wipe(MRArray *a, MRDrive *d, MRWiped *wiped);
/* A metadata write asked for has not finished (QOM metadata-pending). */
bool mr_array_meta_pending(MRArray *a);
/*
 * Call @done once metadata pass @pass is finished (@ok: every drive took
 * its metadata), from the metadata writer; at once if it is finished
 * already.  For a reply that may go to the host only once a change is on
 * the drives (management commands).  The caller that may go away first
 * makes @done a no-op for itself (the writer always calls it once).
 */
typedef void MRMetaDone(void *opaque, bool ok);
void mr_array_when_stored(MRArray *a, uint64_t pass, MRMetaDone *done,
                          void *opaque);
/* Drive <-> PD index; -1 when the drive is not in the configuration. */
int mr_array_pd_of(MRArray *a, MRDrive *d);
/* Is the drive hidden from the host (member, spare, foreign)? */
bool mr_array_drive_hidden(MRArray *a, MRDrive *d);
/*
 * A member failed (QOM, I/O error): offline it, degrade its VDs, start a
 * rebuild onto a hot spare, store the metadata and tell the controller.
 */
void mr_array_fail_drive(MRArray *a, MRDrive *d, const char *why);
/* Hot plug: a drive is about to be removed. */
void mr_array_drive_removed(MRArray *a, MRDrive *d);
/*
 * Drive @d came while running, its metadata read as @rd (NULL: none, a
 * blank drive): it becomes a returning member, a foreign drive (hidden)
 * or an unconfigured good one; d->in_array is set, nothing is told.
 */
void mr_array_drive_place(MRArray *a, MRDrive *d, const DdfDriveRead *rd);
/*
 * Hot plug (array-plug.c): drive @d was plugged while running.  Its
 * metadata is read in a coroutine; until then it is pending
 * (d->meta_pending, hidden, outside the configuration).  Then it is
 * placed (mr_array_drive_place) and MRArrayOps.drive_arrived is called.
 * Returns false when it is pending, true when nothing had to be read.
 */
bool mr_array_drive_plugged(MRArray *a, MRDrive *d);
/*
 * Unplug and exit paths: wait for @d's read (NULL: every drive's, and
 * the coroutines of configuration changes, mr_cfg_later()).
 */
void mr_array_drive_read_wait(MRArray *a, MRDrive *d);
/*
 * array-report.c: at start, every VD not optimal and why, on stderr and
 * in the event log; the entry of the write that makes a VD's missing
 * members stale.
 */
void mr_array_report_start(MRArray *a);
void mr_ev_vd_stale(MRArray *a, int v);
/*
 * A write is about to reach @vd's members while some are missing but in
 * sync (MRArrayHooks.member.write_starts): they become stale, the pass
 * that records it is asked (vd->write_barrier), a spare may take over.
 */
void coroutine_fn mr_array_co_write_starts(MRVirtualDisk *vd);
/* Config changed: recompute states, layouts, member states; notify. */
void mr_array_refresh(MRArray *a);
/* Make a drive a hot spare (@dg < 0: global) or remove it as a spare. */
bool mr_array_set_spare(MRArray *a, MRDrive *d, int dg, bool add,
                        Error **errp);
/*
 * Tell the controller the configuration changed around @d: d->in_array
 * (the host's view) follows mr_array_drive_hidden(), and
 * MRArrayOps.drive_changed says whether that toggled.
 */
void mr_array_tell_drive(MRArray *a, MRDrive *d);
/* Drive state name for QOM ("online", "offline", "rebuild", ...). */
const char *mr_array_drive_state(MRArray *a, MRDrive *d);
/*
 * For array-config.c (run-time configuration changes): build / free the
 * run-time VD of cfg->vds[idx]; after a change: refresh states, use hot
 * spares, store the metadata, kick the jobs; a drive's metadata I/O.
 */
MRVirtualDisk *mr_vd_new(MRArray *a, int idx, Error **errp);
void mr_vd_free(MRVirtualDisk *vd);
/*
 * The same in a coroutine, for a run-time VD DELETE: its job's window,
 * its member I/O and the destage of its dirty lines are waited for
 * without stopping the main loop.  The VD must be out of the host's view.
 */
void coroutine_fn mr_vd_co_free(MRVirtualDisk *vd);
void mr_array_changed(MRArray *a);
DdfDriveIO mr_ddf_io(MRDrive *d);
/* Effective write policy of a VD (cache policy and CacheVault). */
MRWritePolicy mr_array_write_policy(MRVirtualDisk *vd);
/*
 * array-props.c: the controller's runtime QOM properties of the array
 * (cachevault, rebuild-rate, cache-dirty-bytes, journal-records, ...),
 * and per VD n: vdN-state, vdN-level, vdN-write-policy, vdN-job,
 * vdN-progress, vdN-job-row, vdN-checkpoint-row, vdN-resumed-row.  The
 * controller state's field at @array_offset points to the array
 * (MRCore.array).
 */
void mr_array_class_props(ObjectClass *oc, ptrdiff_t array_offset);
/* array-props-patrol.c: patrol-read, patrol-rate, patrol-status */
void mr_array_class_props_patrol(ObjectClass *oc, ptrdiff_t array_offset);
void mr_array_vd_props(MRVirtualDisk *vd);
/*
 * array-copyback.c: copyback at run time.  mr_vd_copy_sync: the data
 * path's view of a copyback of the VD's group (vd->copy_on; @pds, @n
 * its members); mr_array_copyback_onto: a drive placed in a bay (PD
 * @pd) starts the copyback of the spare that replaced the member there
 * (true if it did; the caller tells the host and stores);
 * mr_array_copyback_auto: the same for every drive waiting
 * (MRArrayHooks.jobs.copyback); mr_array_copy_targets/_released: the
 * drives a change let go of are the host's again; start and stop from
 * the management (@d either drive of it: the stop asks every copy job
 * of the group to stop and waits for their windows, yielding in a
 * coroutine, which is where its callers run it); the QOM property
 * "copyback".
 */
void mr_vd_copy_sync(MRVirtualDisk *vd, const int *pds, int n);
bool mr_array_copyback_onto(MRArray *a, int pd);
bool mr_array_copyback_auto(MRArray *a);
bool *mr_array_copy_targets(MRArray *a);
void mr_array_copy_released(MRArray *a, const bool *was);
bool mr_array_copyback_start(MRArray *a, MRDrive *src, MRDrive *dst,
                             Error **errp);
bool coroutine_mixed_fn mr_array_copyback_stop(MRArray *a, MRDrive *d,
                                               Error **errp);
void mr_array_class_props_copyback(ObjectClass *oc, ptrdiff_t array_offset);

#endif
