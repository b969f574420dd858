/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's timing model (timing=on) as the firmware
 * core sees it.  Owns the model's lifetime (built from the controller
 * profile that model= names), the model drive of every bay, the model's
 * view of a VD (its members' drives, geometry, state), what a VD's member
 * extent amounts to on the modelled drives, and the costing of one host
 * request: a JBOD request on its drive, a VD request from its own RAID
 * plan (the member I/O and RaidPlanCost of the plan the data path would
 * run now).  No QEMU device code: the background jobs' unit test links it.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/megaraid/target.h"
#include "array-timing.h"

/* Member I/O entries one request may cost (merged per drive and phase). */
#define MR_TIMING_MAX_IO    128

bool mr_timing_init(MRArray *a, const char *ctrl_name, Error **errp)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(ctrl_name);
    MRTiming *t;

    if (!c) {
        g_autofree char *names = timing_ctrl_profile_names();

        error_setg(errp, "%s: model '%s' has no timing profile; "
                   "timing=on needs one of: %s",
                   a->owner ? object_get_typename(a->owner) : "megaraid",
                   ctrl_name, names);
        return false;
    }
    t = g_new0(MRTiming, 1);
    t->ctrl = c;
    t->model = timing_model_new(c);
    t->scale = a->time_scale > 0 ? a->time_scale : 1.0;
    t->epoch_virt = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    t->bays = g_hash_table_new(NULL, NULL);
    a->timing = t;
    return true;
}

void mr_timing_cleanup(MRArray *a)
{
    MRTiming *t = a->timing;

    if (!t) {
        return;
    }
    /* the front end aborted every held request before */
    assert(t->held == 0);
    g_hash_table_destroy(t->bays);
    timing_model_free(t->model);
    g_free(t);
    a->timing = NULL;
}

/*
 * A bay keeps its model drive across hot plug, as long as the drive put
 * in it has the same performance profile; otherwise it gets a new one.
 */
int mr_timing_drive(MRTiming *t, MRDrive *d)
{
    gpointer key, val;

    if (d->timing_idx >= 0 &&
        timing_model_drive(t->model, d->timing_idx) == d->perf) {
        return d->timing_idx;
    }
    if (!d->perf) {
        return -1;
    }
    key = GUINT_TO_POINTER((d->enclosure << 16 | d->slot) + 1);
    val = g_hash_table_lookup(t->bays, key);
    if (val && timing_model_drive(t->model, GPOINTER_TO_INT(val) - 1) ==
        d->perf) {
        d->timing_idx = GPOINTER_TO_INT(val) - 1;
        return d->timing_idx;
    }
    d->timing_idx = timing_model_add_drive(t->model, d->perf);
    if (d->timing_idx >= 0) {
        g_hash_table_insert(t->bays, key,
                            GINT_TO_POINTER(d->timing_idx + 1));
    }
    return d->timing_idx;
}

void mr_timing_vd(MRTiming *t, MRVirtualDisk *vd, TimingVd *tv, int *drive)
{
    const RaidLayout *l = &vd->layout;
    bool degraded = false;

    for (uint32_t m = 0; m < l->members; m++) {
        int pd = vd->member_pd[m];
        MRDrive *d = pd >= 0 ? vd->array->pd_drive[pd] : NULL;

        drive[m] = d ? mr_timing_drive(t, d) : -1;
        if (vd->st[m].status != RAID_MEMBER_ONLINE) {
            degraded = true;
        }
    }
    *tv = (TimingVd) {
        .level = l->level,
        .members = l->members,
        .span_members = l->span_members,
        .drive = drive,
        .data_strips = l->span_data,
        .strip_bytes = l->strip * RAID_SECTOR_SIZE,
        .degraded = degraded,
    };
}

/* Modelled capacity of a drive: the property, else its profile's. */
static uint64_t mr_timing_capacity(MRDrive *d)
{
    uint64_t real = d->unit.num_blocks * d->unit.block_size;
    uint64_t cap = d->modelled_capacity ? d->modelled_capacity :
                   d->perf ? d->perf->capacity : 0;

    return MAX(cap, real);
}

uint64_t mr_timing_vd_member_bytes(MRVirtualDisk *vd)
{
    const RaidLayout *l = &vd->layout;
    uint64_t extent = l->block_count * RAID_SECTOR_SIZE;
    double ratio = 0;

    /* the smallest ratio of any present member bounds the extent */
    for (uint32_t m = 0; m < l->members; m++) {
        int pd = vd->member_pd[m];
        MRDrive *d = pd >= 0 ? vd->array->pd_drive[pd] : NULL;
        double r;

        if (!d || !d->unit.num_blocks) {
            continue;
        }
        r = (double)mr_timing_capacity(d) /
            ((double)d->unit.num_blocks * d->unit.block_size);
        if (ratio == 0 || r < ratio) {
            ratio = r;
        }
    }
    return (uint64_t)((double)extent * MAX(ratio, 1.0));
}

uint64_t mr_timing_request(MRTiming *t, MRTargetReq *req, int op,
                           uint64_t arrival)
{
    MRUnit *u = req->unit;
    MRVirtualDisk *vd = u->vd;
    TimingDriveIo io[MR_TIMING_MAX_IO];
    int drive[RAID_MAX_MEMBERS];
    TimingVd tv;
    TimingRequest tr = {
        .op = op,
        .jbod_drive = -1,
    };

    if (op == TIMING_OP_READ || op == TIMING_OP_WRITE) {
        tr.bytes = (uint64_t)req->nblocks * u->block_size;
        tr.sequential = req->lba == u->timing_next_lba;
        u->timing_next_lba = req->lba + req->nblocks;
    }
    if (!vd) {
        tr.jbod_drive = mr_timing_drive(t, u->drive);
        if (tr.jbod_drive < 0) {
            return arrival;
        }
        return timing_submit(t->model, arrival, &tr);
    }
    mr_timing_vd(t, vd, &tv, drive);
    tv.write_back = vd->array->hooks->timing.write_policy(vd) !=
                    MR_WP_WRITE_THROUGH;
    /* dirty lines take reads off the hardware fast path */
    tv.dirty_cache = vd->array->hooks->timing.vd_dirty(vd);
    tr.vd = &tv;
    if (tr.bytes) {
        RaidRequest rq = {
            .op = op == TIMING_OP_READ ? RAID_OP_READ : RAID_OP_WRITE,
            .lba = req->lba * (u->block_size / RAID_SECTOR_SIZE),
            .sectors = tr.bytes / RAID_SECTOR_SIZE,
        };
        RaidPlan *plan = raid_plan_request(&vd->layout, vd->st, &rq,
                                           RAID_WRITE_AUTO);

        if (!plan->error) {
            tr.cost = plan->cost;
            tr.nio = timing_plan_drive_io(plan, drive, io, MR_TIMING_MAX_IO);
            tr.io = io;
        }
        raid_plan_free(plan);
    }
    return timing_submit(t->model, arrival, &tr);
}

uint64_t mr_timing_unloaded_ns(MRTiming *t, MRDrive *d, MRVirtualDisk *vd,
                               int op)
{
    TimingModel *m = timing_model_new(t->ctrl);
    TimingDriveIo io[MR_TIMING_MAX_IO];
    int drive[RAID_MAX_MEMBERS];
    TimingVd tv;
    TimingRequest tr = {
        .op = op,
        .bytes = 4096,
        .jbod_drive = -1,
    };
    uint64_t ns = 0;

    if (vd) {
        const RaidLayout *l = &vd->layout;
        RaidMemberState st[RAID_MAX_MEMBERS];
        RaidRequest rq = {
            .op = op == TIMING_OP_READ ? RAID_OP_READ : RAID_OP_WRITE,
            .lba = 0,
            .sectors = 4096 / RAID_SECTOR_SIZE,
        };
        RaidPlan *plan;

        for (uint32_t i = 0; i < l->members; i++) {
            int pd = vd->member_pd[i];
            MRDrive *md = pd >= 0 ? vd->array->pd_drive[pd] : NULL;

            drive[i] = md && md->perf ?
                       timing_model_add_drive(m, md->perf) : -1;
            st[i] = (RaidMemberState) { .status = RAID_MEMBER_ONLINE };
        }
        tv = (TimingVd) {
            .level = l->level, .members = l->members,
            .span_members = l->span_members, .drive = drive,
            .data_strips = l->span_data,
            .strip_bytes = l->strip * RAID_SECTOR_SIZE,
            .write_back = vd->array->hooks->timing.write_policy(vd) !=
                          MR_WP_WRITE_THROUGH,
        };
        plan = raid_plan_request(l, st, &rq, RAID_WRITE_AUTO);
        if (!plan->error) {
            tr.vd = &tv;
            tr.cost = plan->cost;
            tr.nio = timing_plan_drive_io(plan, drive, io, MR_TIMING_MAX_IO);
            tr.io = io;
            ns = timing_submit(m, 0, &tr);
        }
        raid_plan_free(plan);
    } else if (d && d->perf) {
        tr.jbod_drive = timing_model_add_drive(m, d->perf);
        ns = timing_submit(m, 0, &tr);
    }
    timing_model_free(m);
    return ns;
}
