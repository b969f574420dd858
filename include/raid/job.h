/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: background jobs (rebuild, consistency check,
 * initialization) as resumable cursors over a VD's rows.
 *
 * The cursor (RaidJobCursor, config.h) lives in the VD and is saved with
 * the DDF metadata (vendor area of the VD configuration record, see
 * ddf_job_encode()), so a job resumes at its last checkpoint after a
 * restart.  raid_job_step() runs the data path's rebuild/check plans
 * (plan.h) row by row through any executor (exec.h); the caller decides
 * how many rows to run between checkpoints.
 */
#ifndef RAID_JOB_H
#define RAID_JOB_H

#include "raid/config.h"
#include "raid/exec.h"

/* Start a job on a VD; refuses (naming the reason) when it cannot run. */
bool raid_job_start(RaidConfig *cfg, int vd, RaidJobKind kind, bool repair,
                    GError **errp);

typedef struct RaidJobProgress {
    uint64_t rows;              /* rows processed by this call */
    uint64_t mismatches;        /* check: inconsistent rows in this call */
    uint64_t total_mismatches;  /* check: since the job started */
    bool finished;              /* the job completed and was cleared */
} RaidJobProgress;

/*
 * Run up to @max_rows rows of the VD's job synchronously (the executor
 * must complete synchronously, e.g. raid_file_exec_ops).  Advances the
 * cursor; when the last row is done the job finishes: rebuild -> the
 * drive goes online once no VD of its group still rebuilds it; check
 * with repair, or without mismatches -> the VD is marked consistent and
 * initialized (background initialization); init -> the VD is zeroed and
 * initialized.
 * On an I/O error the cursor stays at the failing row.
 */
bool raid_job_step(RaidConfig *cfg, int vd, const RaidExecOps *ops,
                   void *opaque, uint64_t max_rows, RaidJobProgress *out,
                   GError **errp);

/*
 * Asynchronous use (the device): plan the cursor's next row, run the plan
 * with raid_run_start() while holding its rows' stripe lock (the plan's
 * first_row/last_row, exclusive), then account the result.  begin leaves
 * jr->plan NULL when no row is left; end then finishes the job.  On an
 * I/O error end returns false and the cursor stays on that row.
 */
typedef struct RaidJobRow {
    uint64_t row;
    RaidPlan *plan;             /* owned until raid_job_row_end() */
} RaidJobRow;

bool raid_job_row_begin(RaidConfig *cfg, int vd, const RaidLayout *l,
                        RaidJobRow *jr, GError **errp);
/*
 * The same plan for a row at or ahead of the cursor, so that several rows
 * can run at once (a pipeline).  Their results must still be given to
 * raid_job_row_end() in row order, each when the cursor has reached it:
 * end advances the cursor by one row and does not look at jr->row.
 */
bool raid_job_row_begin_at(RaidConfig *cfg, int vd, const RaidLayout *l,
                           uint64_t row, RaidJobRow *jr, GError **errp);
bool raid_job_row_end(RaidConfig *cfg, int vd, const RaidLayout *l,
                      RaidJobRow *jr, const RaidRunResult *res,
                      RaidJobProgress *out, GError **errp);

/* Percentage done (0..100) for display. */
unsigned raid_job_percent(const RaidJobCursor *c);
const char *raid_job_name(RaidJobKind k);

#endif
