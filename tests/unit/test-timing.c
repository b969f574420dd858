/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the timing model's arithmetic (include/raid/timing.h):
 * profiles, one drive and the host link saturating, the RAID 5 write
 * penalty, a surviving mirror carrying its partner's reads, the back
 * end's links per enclosure, latency at queue depth 1, an idle rebuild
 * taking capacity / rate, a rebuild under load keeping its floor share
 * of a saturated resource.  Closed-loop cases
 * run raidsim's simulation (tools/raidsim/sim.c, linked in).
 */
#include <math.h>
#include <string.h>
#include "raid/timing.h"
#include "../../tools/raidsim/raidsim.h"

#define CTRL "9670w-16i"
#define DRIVE "micron-7450-max-6.4t"

static void assert_near(double got, double want, double rel)
{
    if (fabs(got / want - 1) > rel) {
        g_error("got %g, want %g within %.1f %%", got, want, rel * 100);
    }
}

static void test_profiles(void)
{
    const TimingDriveProfile *d;
    const TimingCtrlProfile *c;
    char *names;

    for (unsigned i = 0; (d = timing_drive_profile_at(i)); i++) {
        g_assert_true(timing_drive_profile_find(d->name) == d);
        g_assert_nonnull(d->source);
        g_assert_cmpuint(d->capacity, >, 0);
        g_assert_cmpfloat(d->seq_read_bps, >, 0);
        g_assert_cmpfloat(d->rand_write_iops, >, 0);
    }
    for (unsigned i = 0; (c = timing_ctrl_profile_at(i)); i++) {
        g_assert_true(timing_ctrl_profile_find(c->name) == c);
        g_assert_nonnull(c->source);
        g_assert_cmpfloat(c->duplex_cap, >=, 1);
        g_assert_cmpfloat(c->duplex_cap, <=, 2);
    }
    g_assert_null(timing_ctrl_profile_find("9999"));
    g_assert_nonnull(timing_ctrl_profile_find("9660-16i"));
    g_assert_nonnull(timing_ctrl_profile_find("sas3916"));
    g_assert_cmpstr(timing_drive_profile_default(TIMING_IFACE_NVME)->name,
                    ==, DRIVE);
    g_assert_true(timing_drive_profile_default(TIMING_IFACE_SATA)->iface ==
                  TIMING_IFACE_SATA);
    g_assert_true(timing_drive_profile_default(TIMING_IFACE_SAS)->iface ==
                  TIMING_IFACE_SAS);
    names = timing_ctrl_profile_names();
    g_assert_nonnull(strstr(names, "9670w-16i, "));
    g_free(names);
}

/* n JBOD requests all at t = 0 on drives 0..drives-1; last completion. */
static uint64_t jbod_burst(TimingModel *m, unsigned drives, TimingOp op,
                           uint32_t bs, unsigned n)
{
    uint64_t last = 0;

    for (unsigned i = 0; i < n; i++) {
        TimingRequest r = {
            .op = op, .bytes = bs, .jbod_drive = i % drives,
        };

        uint64_t done = timing_submit(m, 0, &r);

        last = MAX(last, done);
    }
    return last;
}

static void test_drive_saturates(void)
{
    const TimingDriveProfile *d = timing_drive_profile_find(DRIVE);
    TimingModel *m = timing_model_new(timing_ctrl_profile_find(CTRL));
    unsigned n = 200000;
    uint64_t t;

    timing_model_add_drive(m, d);
    t = jbod_burst(m, 1, TIMING_OP_READ, 4096, n);
    /* one drive: n reads at its 4 KiB random read rate */
    assert_near(n / (t / 1e9), d->rand_read_iops, 0.01);
    /* a reset forgets the backlog: the next read is unloaded again */
    timing_model_reset(m);
    t = jbod_burst(m, 1, TIMING_OP_READ, 4096, 1);
    g_assert_cmpuint(t, ==, timing_unloaded_read_ns(timing_model_ctrl(m), d,
                                                    4096));
    timing_model_free(m);
}

static void test_host_link_saturates(void)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    TimingModel *m = timing_model_new(c);
    unsigned n = 100000;
    double d2h, h2d;
    uint64_t t;

    for (unsigned i = 0; i < 16; i++) {
        timing_model_add_drive(m, timing_drive_profile_find(DRIVE));
    }
    /* 128 KiB reads on 16 drives: 108 GB/s of drives, a 29 GB/s link */
    d2h = 16 * 16e9 * 128 / 130 / 8 * c->host_eff_d2h;
    t = jbod_burst(m, 16, TIMING_OP_READ, 128 << 10, n);
    assert_near(n * (131072.0 + c->cpl_bytes) / (t / 1e9), d2h, 0.01);
    timing_model_free(m);

    /* writes bind the other direction */
    m = timing_model_new(c);
    for (unsigned i = 0; i < 16; i++) {
        timing_model_add_drive(m, timing_drive_profile_find(DRIVE));
    }
    h2d = 16 * 16e9 * 128 / 130 / 8 * c->host_eff_h2d;
    t = jbod_burst(m, 16, TIMING_OP_WRITE, 128 << 10, n);
    assert_near(n * (131072.0 + c->cmd_bytes) / (t / 1e9), h2d, 0.01);
    timing_model_free(m);
}

/* A VD of `n` drives of the Micron profile on the 9670W. */
typedef struct Vd {
    TimingModel *m;
    RaidLayout l;
    RaidMemberState st[RAID_MAX_MEMBERS];
    int drive[RAID_MAX_MEMBERS];
    TimingVd vd;
} Vd;

static void vd_init(Vd *v, RaidLevel level, unsigned n, bool write_back)
{
    uint64_t data[RAID_MAX_MEMBERS];
    RaidLayoutDesc desc = {
        .level = level, .spans = 1, .span_members = n,
        .member_data_sectors = data,
    };

    v->m = timing_model_new(timing_ctrl_profile_find(CTRL));
    for (unsigned i = 0; i < n; i++) {
        data[i] = 1u << 24;
        v->drive[i] = timing_model_add_drive(v->m,
                                             timing_drive_profile_find(DRIVE));
        v->st[i] = (RaidMemberState) { .status = RAID_MEMBER_ONLINE };
    }
    g_assert_true(raid_layout_init(&v->l, &desc, NULL));
    v->vd = (TimingVd) {
        .level = level, .members = n, .span_members = n, .drive = v->drive,
        .data_strips = v->l.span_data,
        .strip_bytes = v->l.strip * RAID_SECTOR_SIZE, .write_back = write_back,
    };
}

/* n random 4 KiB writes at t = 0; returns host writes per second. */
static double vd_write_burst(Vd *v, unsigned n, RaidPlanCost *sum)
{
    uint64_t last = 0, seed = 1;

    memset(sum, 0, sizeof(*sum));
    for (unsigned i = 0; i < n; i++) {
        TimingDriveIo io[16];
        RaidRequest rq = { .op = RAID_OP_WRITE, .sectors = 8 };
        TimingRequest r = {
            .op = TIMING_OP_WRITE, .bytes = 4096, .vd = &v->vd, .io = io,
        };
        RaidPlan *p;
        uint64_t done;

        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        rq.lba = (seed >> 20) % (v->l.vd_sectors / 8) * 8;
        p = raid_plan_request(&v->l, v->st, &rq, RAID_WRITE_AUTO);
        r.cost = p->cost;
        r.nio = timing_plan_drive_io(p, v->drive, io, G_N_ELEMENTS(io));
        sum->member_reads += p->cost.member_reads;
        sum->member_writes += p->cost.member_writes;
        raid_plan_free(p);
        done = timing_submit(v->m, 0, &r);
        last = MAX(last, done);
    }
    return n / (last / 1e9);
}

static void test_raid5_write_penalty(void)
{
    const TimingDriveProfile *d = timing_drive_profile_find(DRIVE);
    double rd = 1e9 / d->rand_read_iops, wr = 1e9 / d->rand_write_iops;
    unsigned n = 100000;
    RaidPlanCost sum;
    double r0, r5;
    Vd v;

    /* RAID 0 over 4 drives, write-through: one drive write per write */
    vd_init(&v, RAID_LEVEL_0, 4, false);
    r0 = vd_write_burst(&v, n, &sum);
    g_assert_cmpuint(sum.member_writes, ==, n);
    assert_near(r0, 4 * 1e9 / wr, 0.02);
    timing_model_free(v.m);

    /* RAID 5: read old data and parity, write both: 4 drive I/Os */
    vd_init(&v, RAID_LEVEL_5, 4, false);
    r5 = vd_write_burst(&v, n, &sum);
    g_assert_cmpuint(sum.member_reads, ==, 2 * n);
    g_assert_cmpuint(sum.member_writes, ==, 2 * n);
    assert_near(r5, 4 * 1e9 / (2 * rd + 2 * wr), 0.02);
    g_assert_cmpfloat(r5 / r0, <, 0.4);
    timing_model_free(v.m);

    /* write-back on the 9670W: the parity update's firmware binds */
    vd_init(&v, RAID_LEVEL_5, 16, true);
    r5 = vd_write_burst(&v, n, &sum);
    assert_near(r5, 1e9 / (v.m ? timing_model_ctrl(v.m)->fw_write_ns +
                           timing_model_ctrl(v.m)->fw_parity_ns : 1), 0.02);
    timing_model_free(v.m);
}

/* n random 4 KiB reads at t = 0; returns host reads per second. */
static double vd_read_burst(Vd *v, unsigned n)
{
    uint64_t last = 0, seed = 7;

    for (unsigned i = 0; i < n; i++) {
        TimingDriveIo io[16];
        RaidRequest rq = { .op = RAID_OP_READ, .sectors = 8 };
        TimingRequest r = {
            .op = TIMING_OP_READ, .bytes = 4096, .vd = &v->vd, .io = io,
        };
        RaidPlan *p;
        uint64_t done;

        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        rq.lba = (seed >> 20) % (v->l.vd_sectors / 8) * 8;
        p = raid_plan_request(&v->l, v->st, &rq, RAID_WRITE_AUTO);
        g_assert_cmpint(p->error, ==, 0);
        r.cost = p->cost;
        r.nio = timing_plan_drive_io(p, v->drive, io, G_N_ELEMENTS(io));
        raid_plan_free(p);
        done = timing_submit(v->m, 0, &r);
        last = MAX(last, done);
    }
    return n / (last / 1e9);
}

static void test_mirror_survivor(void)
{
    const TimingDriveProfile *d = timing_drive_profile_find(DRIVE);
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    double opt, deg;
    Vd v;

    /* RAID 1 of two drives: reads alternate between the copies */
    vd_init(&v, RAID_LEVEL_1, 2, true);
    opt = vd_read_burst(&v, 100000);
    assert_near(opt, 2 * d->rand_read_iops, 0.02);
    timing_model_free(v.m);

    /* one copy failed: the survivor carries all reads, on the FW path */
    vd_init(&v, RAID_LEVEL_1, 2, true);
    v.st[1].status = RAID_MEMBER_MISSING;
    v.drive[1] = -1;
    v.vd.degraded = true;
    deg = vd_read_burst(&v, 100000);
    assert_near(deg, MIN(d->rand_read_iops, 1e9 / c->fw_degraded_read_ns),
                0.02);
    timing_model_free(v.m);
}

/*
 * The 9670W's 16 back-end lanes are two x8 links of 8 bays each: 8 JBOD
 * drives streaming reads fill one link (half the host link), 16 fill both.
 */
static void test_backend_links(void)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    double link = c->backend_lanes / c->backend_links *
                  (16e9 * 128 / 130 / 8) * c->host_eff_d2h;
    SimBed bed = {
        .ctrl = c, .drive = timing_drive_profile_find(DRIVE),
        .level = RAID_LEVEL_JBOD, .arrays = 1, .drives_per_array = 8,
    };
    SimJob job = {
        .random = false, .read_pct = 100, .bs = 128 << 10, .numjobs = 16,
        .iodepth = 16, .ramp_s = 0.01, .runtime_s = 0.02,
    };
    SimResult r;

    g_assert_true(sim_run(&bed, &job, &r, NULL));
    g_assert_cmpstr(r.bottleneck, ==, "backend0-up");
    assert_near(r.mbps * 1e6, link, 0.02);
    bed.drives_per_array = 16;
    g_assert_true(sim_run(&bed, &job, &r, NULL));
    assert_near(r.mbps * 1e6, 2 * link, 0.02);
}

static void test_qd1_latency(void)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    const TimingDriveProfile *d = timing_drive_profile_find(DRIVE);
    uint64_t unloaded = timing_unloaded_read_ns(c, d, 4096);
    SimBed bed = {
        .ctrl = c, .drive = d, .arrays = 1, .drives_per_array = 4,
        .write_back = true, .rate = 30,
    };
    SimJob job = {
        .random = true, .read_pct = 100, .bs = 4096, .numjobs = 1,
        .iodepth = 1, .ramp_s = 0.001, .runtime_s = 0.02,
    };
    SimResult r;

    /* link, fast path and the drive's read latency, nothing else */
    g_assert_cmpuint(unloaded, >=, d->read_lat_ns + c->hw_lat_ns);
    g_assert_cmpuint(unloaded, <, d->read_lat_ns + c->hw_lat_ns +
                     c->link_lat_ns + 5000);
    for (unsigned i = 0; i < 2; i++) {
        bed.level = i ? RAID_LEVEL_5 : RAID_LEVEL_JBOD;
        g_assert_true(sim_run(&bed, &job, &r, NULL));
        assert_near(r.lat_mean_us * 1e3, unloaded, 0.001);
        assert_near(r.iops, 1e9 / unloaded, 0.01);
    }
    /* queueing appears only with depth: QD 256 on one JBOD drive */
    bed.level = RAID_LEVEL_JBOD;
    bed.drives_per_array = 1;
    job.iodepth = 256;
    g_assert_true(sim_run(&bed, &job, &r, NULL));
    assert_near(r.iops, d->rand_read_iops, 0.02);
    assert_near(r.lat_mean_us * 1e3, 256 / d->rand_read_iops * 1e9, 0.05);
}

static void test_idle_rebuild(void)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    const TimingDriveProfile *d = timing_drive_profile_find(DRIVE);
    double t30 = timing_rebuild_idle_ns(c, d, RAID_LEVEL_10, 16, d->capacity,
                                        30) / 60e9;
    double t30_half = timing_rebuild_idle_ns(c, d, RAID_LEVEL_10, 16,
                                             d->capacity / 2, 30) / 60e9;
    double t15 = timing_rebuild_idle_ns(c, d, RAID_LEVEL_10, 16, d->capacity,
                                        15) / 60e9;
    double r5 = timing_rebuild_idle_ns(c, d, RAID_LEVEL_5, 16, d->capacity,
                                       30) / 60e9;

    /* the published 60.7 / 82.3 min at the default rate 30 */
    assert_near(t30, 60.7, 0.05);
    assert_near(r5, 82.3, 0.05);
    /* duration = capacity / rate: half the capacity, half the time ... */
    assert_near(t30_half, t30 / 2, 0.01);
    /* ... half the rate (half the pipeline depth), about twice the time */
    assert_near(t15, 2 * t30, 0.1);
    g_assert_cmpfloat(t15, >, t30);
    /* pacing: rate 30 is 1.33 chunks in flight, 2 slots */
    g_assert_cmpuint(timing_background_slots(c, 30), ==, 2);
    g_assert_cmpuint(timing_background_rest_ns(c, 30, 0, 1000), ==, 0);
    g_assert_cmpuint(timing_background_rest_ns(c, 30, 1, 1000), >, 1000);
}

static void test_rebuild_floor_share(void)
{
    const TimingCtrlProfile *c = timing_ctrl_profile_find(CTRL);
    SimBed bed = {
        .ctrl = c, .drive = timing_drive_profile_find(DRIVE),
        .level = RAID_LEVEL_5, .arrays = 1, .drives_per_array = 16,
        .rebuilding = true, .rebuilt_frac = 0.5, .write_back = true,
        .rate = 30,
    };
    SimJob job = {
        .random = true, .read_pct = 100, .bs = 4096, .numjobs = 64,
        .iodepth = 64, .ramp_s = 0.02, .runtime_s = 0.05,
    };
    double g = timing_background_floor(c, 30);
    /* one back-end link: half the lanes, posted-write efficiency */
    double link = c->backend_lanes / c->backend_links *
                  (16e9 * 128 / 130 / 8) * c->host_eff_d2h;
    double fw_per_byte = c->fw_line_ns / 4096, share;
    SimResult busy, idle;

    g_assert_cmpuint(c->backend_links, ==, 2);
    /*
     * RAID 5 degraded reads saturate the back-end link of the second
     * enclosure, which carries 8 of the 15 survivors' reads per rebuilt
     * byte; the rebuild keeps its floor share of it.
     */
    g_assert_true(sim_run(&bed, &job, &busy, NULL));
    g_assert_cmpstr(busy.bottleneck, ==, "backend1-up");
    assert_near(busy.rebuild_mbps * 1e6 * 8 / link, g, 0.1);
    /* with a light foreground the rebuild runs at its idle speed */
    job.numjobs = 1;
    job.iodepth = 1;
    g_assert_true(sim_run(&bed, &job, &idle, NULL));
    g_assert_cmpfloat(idle.rebuild_mbps, >, 2 * busy.rebuild_mbps);
    assert_near(idle.rebuild_mbps * 1e6 * 82.3 * 60,
                bed.drive->capacity, 0.1);

    /*
     * RAID 10 degraded reads saturate the firmware; the rebuild's chunk
     * pipeline takes less of it than the floor, and the foreground keeps
     * exactly what the rebuild leaves.
     */
    bed.level = RAID_LEVEL_10;
    job.numjobs = 64;
    job.iodepth = 64;
    g_assert_true(sim_run(&bed, &job, &busy, NULL));
    g_assert_cmpstr(busy.bottleneck, ==, "roc-fw");
    share = busy.rebuild_mbps * 1e6 * fw_per_byte / 1e9;
    g_assert_cmpfloat(share, <, g);
    g_assert_cmpfloat(share, >, 0.5 * g);
    assert_near(busy.iops, (1 - share) * 1e9 / c->fw_degraded_read_ns, 0.05);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/timing/profiles", test_profiles);
    g_test_add_func("/timing/drive-saturates", test_drive_saturates);
    g_test_add_func("/timing/host-link-saturates", test_host_link_saturates);
    g_test_add_func("/timing/raid5-write-penalty", test_raid5_write_penalty);
    g_test_add_func("/timing/mirror-survivor", test_mirror_survivor);
    g_test_add_func("/timing/backend-links", test_backend_links);
    g_test_add_func("/timing/qd1-latency", test_qd1_latency);
    g_test_add_func("/timing/idle-rebuild", test_idle_rebuild);
    g_test_add_func("/timing/rebuild-floor-share", test_rebuild_floor_share);
    return g_test_run();
}
