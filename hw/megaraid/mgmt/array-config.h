/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: run-time changes of the controller's RAID configuration
 * (array-config.c), as a management command asks for them: create and
 * delete VDs, drive state changes, rebuild onto a chosen drive, foreign
 * configurations imported or cleared.  Every change is checked by the
 * RAID core, applied to the MRArray's VDs, written to the drives as DDF
 * and told to the controller through MRArrayOps; on a refusal nothing
 * changes.  Host-neutral: no MPI3 here.
 */
#ifndef HW_MEGARAID_ARRAY_CONFIG_H
#define HW_MEGARAID_ARRAY_CONFIG_H

#include "hw/megaraid/array/array.h"

/* Why a change was refused (the management status follows from it). */
typedef enum MRCfgError {
    MR_CFG_OK = 0,
    MR_CFG_WRONG_STATE,         /* a state does not allow it */
    MR_CFG_BUSY,                /* a job is in the way */
    MR_CFG_LIMIT,               /* a controller limit */
    MR_CFG_INVALID,             /* the core refused the parameters */
    MR_CFG_IO,                  /* metadata could not be written */
    MR_CFG_NOT_SUPPORTED,
} MRCfgError;

/*
 * A new VD: on a new drive group made of @drives (in member order;
 * unconfigured-good drives of this configuration) when @dg < 0, else in
 * the free space of drive group @dg (@n 0).  Returns the VD index or -1.
 * The members become hidden; the controller is told of the new VD
 * (vd_added) and of every member (drive_changed).
 */
int mr_array_create_vd(MRArray *a, int dg, MRDrive *const *drives, int n,
                       const RaidVdSpec *spec, MRCfgError *why, Error **errp);
/*
 * Delete VD @vd: its job stops, its cache is written back, its QOM
 * properties go; a group left without VDs frees its drives (unconfigured
 * good, visible again), and they get metadata saying so.  The caller has
 * already withdrawn the VD from its host.  The waiting (job window,
 * member I/O, destage) and what follows run in mr_cfg_later(): until
 * then the VD is vd->deleting, still in the configuration and on the
 * drives, so a crash meanwhile keeps it (the DDF is written last).
 */
bool mr_array_delete_vd(MRArray *a, int vd, MRCfgError *why, Error **errp);
/*
 * Drive state changes of the management interface (see
 * docs/management-protocol.md): @to is RAID_PD_OFFLINE (a member fails),
 * RAID_PD_ONLINE (@force: an offline member back without a rebuild),
 * RAID_PD_MISSING (an offline member), RAID_PD_UNCONF_GOOD (from
 * unconfigured bad) or RAID_PD_UNCONF_BAD (from unconfigured good).
 */
bool mr_array_set_drive_state(MRArray *a, MRDrive *d, RaidPdState to,
                              bool force, MRCfgError *why, Error **errp);
/*
 * Rebuild onto @d: an offline member is rebuilt in place; an
 * unconfigured-good drive takes the place of the first failed or missing
 * member of a drive group.
 */
bool mr_array_start_rebuild(MRArray *a, MRDrive *d, MRCfgError *why,
                            Error **errp);
/*
 * Stop the rebuild onto @d (StorCLI's "stop rebuild"): the drive goes
 * offline again, as a failed member; a start rebuilds it from the start.
 */
bool mr_array_stop_rebuild(MRArray *a, MRDrive *d, MRCfgError *why,
                           Error **errp);
/* The drive group, span and position of PD @pd; false if not a member. */
bool mr_array_pd_position(MRArray *a, int pd, int *dg, int *span, int *pos);
/*
 * Foreign configuration: the whole configuration read at start is
 * foreign (a->cfg->foreign), or single drives are (a hot-added drive of
 * another controller, hidden and outside the configuration, or PDs in
 * foreign state).  Import adopts a foreign configuration read at start;
 * clear makes every foreign drive unconfigured good (its metadata is
 * replaced by ours; another array's drive is zeroed by the metadata
 * writer and shown to the host after that, so a management reply waiting
 * for the pass comes after the wipe).  Both start the cache of a whole
 * foreign configuration in mr_cfg_later(), and change the configuration
 * only once it is up (a failure leaves it foreign: an I/O error).
 * @count: foreign drives there are.
 */
int mr_array_foreign_count(MRArray *a, BusState *bus);
bool mr_array_foreign_import(MRArray *a, BusState *bus, MRCfgError *why,
                             Error **errp);
bool mr_array_foreign_clear(MRArray *a, BusState *bus, MRCfgError *why,
                            Error **errp);

/*
 * Run-time work that waits for I/O (array-config-later.c): @fn runs in a
 * coroutine, started now.  The management command running now answers
 * once it has returned and the metadata pass asked by then is done (or,
 * when @fn returns false, at once with MGMT_STAT_IO_ERROR):
 * mr_mgmt_execute_async() claims it (mr_cfg_later_claim(): false when
 * the command started none).  Unplug and exit wait for it
 * (a->cfg_later_busy).
 */
typedef struct MRCfgLater MRCfgLater;
typedef bool coroutine_fn MRCfgLaterFn(MRArray *a, void *opaque);
void mr_cfg_later(MRArray *a, MRCfgLaterFn *fn, void *opaque);
bool mr_cfg_later_claim(MRArray *a, MRMetaDone *done, void *opaque);

/*
 * Management's stops (array-config-stop.c): the job of each of @vds (@n)
 * is asked to stop at once; an mr_cfg_later() coroutine waits for their
 * current windows and then runs @then (may be NULL) on those not deleted
 * meanwhile, so the reply comes after the stop.  The caller keeps the
 * jobs from starting again meanwhile (vd->job_paused).
 */
typedef void MRCfgStopThen(MRArray *a, MRVirtualDisk *const *vds, int n,
                           void *opaque);
void mr_cfg_stop_jobs(MRArray *a, MRVirtualDisk *const *vds, int n,
                      MRCfgStopThen *then, void *opaque);
/* PATROL CONTROL stop: the pass ends at its window, in a coroutine. */
void mr_cfg_stop_patrol(MRArray *a);

#endif
