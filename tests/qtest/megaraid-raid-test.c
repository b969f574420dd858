/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of RAID virtual disks inside megaraid-9600.  Arrays
 * are written as DDF onto temporary raw images with the RAID core (as
 * megaraid-img does), then the controller imports them at start; the test
 * drives the MPI3 host interface like a driver would: the VD's Device
 * Page 0, INQUIRY/VPD/READ CAPACITY of the VD, data integrity across
 * strips and stripes, member failures from QMP (degraded, hot spare
 * rebuild, offline), injected media errors, and the states stored on the
 * drives once QEMU has gone.
 */
#include "qemu/osdep.h"
#include "megaraid-rig.h"
#include "qobject/qbool.h"
#include "megaraid-fusion-rig.h"

/* -------------------------------------------------------------- tests */

/* RAID 5 over 4 NVMe drives, a hot spare and a blank drive. */
static void test_import(void)
{
    Rig r;
    MR *m;
    const uint8_t *pg;
    uint8_t page[64], buf[64];
    uint8_t cdb[16] = { 0 };
    IoRes res;

    rig_create(&r, 6, 4, 1, RAID_LEVEL_5);
    g_assert_cmpuint(r.vd_sectors, ==,
                     (DRIVE_BYTES / 512 - raid_reserve_sectors(
                      DRIVE_BYTES / 512)) / STRIP_SECTORS * STRIP_SECTORS * 3);
    m = mr_start(&r, NULL);

    /* DEVICE ADDED at PORT ENABLE: the VD in its form, members hidden. */
    pg = mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED);
    g_assert_nonnull(pg);
    g_assert_cmpuint(pg[PG0_FORM], ==, FORM_VD);
    g_assert_cmpuint(pg[PG0_VD_STATE], ==, VDS_OPTIMAL);
    g_assert_cmpuint(pg[PG0_VD_LEVEL], ==, 5);
    g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==, 0);
    for (int i = 0; i < 6; i++) {
        pg = mr_last_page(m, 1 + i, EV_DEVICE_ADDED);
        g_assert_nonnull(pg);
        g_assert_cmpuint(pg[PG0_FORM], ==, 1);          /* PCIe (NVMe) */
        g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==,
                        i < 5 ? PG0_FLAG_HIDDEN : 0);
    }
    /* The same by CONFIG. */
    g_assert_cmphex(mr_device_page0(m, VD_HANDLE, page), ==, 0);
    g_assert_cmphex(lduw_le_p(page + 0x08), ==, VD_HANDLE);
    g_assert_cmpuint(page[PG0_FORM], ==, FORM_VD);
    g_assert_cmpuint(page[PG0_VD_STATE], ==, VDS_OPTIMAL);
    g_assert_cmpuint(page[PG0_VD_LEVEL], ==, 5);
    g_assert_cmphex(mr_device_page0(m, 2, page), ==, 0);
    g_assert_cmphex(lduw_le_p(page + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==,
                    PG0_FLAG_HIDDEN);
    {
        g_autofree char *lvl = qom_get_str(m, CTRL, "vd0-level");

        g_assert_cmpstr(lvl, ==, "raid5");
    }
    assert_vd_state(m, "optimal");
    assert_drive_state(m, 4, "hot-spare");
    assert_drive_state(m, 0, "online");

    /* READ CAPACITY(16): the VD's size in 512-byte blocks. */
    cdb[0] = 0x9E;
    cdb[1] = 0x10;
    stl_be_p(cdb + 10, 32);
    res = scsi_cmd(m, VD_HANDLE, cdb, 16, DIR_READ, 32);
    g_assert_cmphex(res.ioc, ==, 0);
    g_assert_cmphex(res.status, ==, 0);
    qtest_memread(m->qts, m->data, buf, 32);
    g_assert_cmpuint(ldq_be_p(buf), ==, r.vd_sectors - 1);
    g_assert_cmpuint(ldl_be_p(buf + 8), ==, 512);

    /* INQUIRY: a Broadcom volume. */
    memset(cdb, 0, sizeof(cdb));
    cdb[0] = 0x12;
    cdb[4] = 36;
    res = scsi_cmd(m, VD_HANDLE, cdb, 6, DIR_READ, 36);
    g_assert_cmphex(res.status, ==, 0);
    qtest_memread(m->qts, m->data, buf, 36);
    g_assert_cmpuint(buf[0] & 0x1F, ==, 0);
    g_assert_cmpmem(buf + 8, 8, "BROADCOM", 8);

    /* Block limits VPD: optimal transfer = full stripe, granularity strip */
    cdb[1] = 1;
    cdb[2] = 0xB0;
    cdb[4] = 64;
    res = scsi_cmd(m, VD_HANDLE, cdb, 6, DIR_READ, 64);
    g_assert_cmphex(res.status, ==, 0);
    qtest_memread(m->qts, m->data, buf, 64);
    g_assert_cmphex(buf[1], ==, 0xB0);
    g_assert_cmpuint(lduw_be_p(buf + 6), ==, STRIP_SECTORS);
    g_assert_cmpuint(ldl_be_p(buf + 12), ==, 3 * STRIP_SECTORS);

    /*
     * Device Identification VPD: the volume's name is a 16-byte NAA 6
     * (IEEE Registered Extended) with the LSI OUI, 600605b...
     */
    cdb[2] = 0x83;
    res = scsi_cmd(m, VD_HANDLE, cdb, 6, DIR_READ, 64);
    g_assert_cmphex(res.status, ==, 0);
    qtest_memread(m->qts, m->data, buf, 64);
    g_assert_cmphex(buf[1], ==, 0x83);
    g_assert_cmphex(buf[5] & 0x3F, ==, 0x03);           /* LU, NAA */
    g_assert_cmpuint(buf[7], ==, 16);
    g_assert_cmphex(buf[8] >> 4, ==, 6);
    g_assert_cmphex(ldl_be_p(buf + 8) >> 4, ==, 0x600605b);
    g_assert_cmphex(ldq_be_p(buf + 16), !=, 0);

    /* The blank drive is a plain JBOD that answers I/O. */
    memset(cdb, 0, sizeof(cdb));
    res = scsi_cmd(m, 6, cdb, 6, DIR_NONE, 0);
    g_assert_cmphex(res.ioc, ==, 0);
    g_assert_cmphex(res.status, ==, 0);
    mr_stop(&r);
    rig_destroy(&r);
}

static void test_data_path(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    uint8_t cdb[16] = { 0 };
    Rig r;
    RaidHost *h;
    IoRes res;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 1);
    rh_check_extents(h, 1);
    /* Overwrite part of one extent (read-modify-write of a stripe). */
    rh_vd_write(h, 2000 + 100, 24, 77, false);
    rh_vd_check(h, 2000 + 100, 24, 77, true);
    rh_vd_check(h, 2000, 100, 1 + 3, false);
    /* The last block of the VD. */
    rh_vd_write(h, r.vd_sectors - 1, 1, 9, true);
    rh_vd_check(h, r.vd_sectors - 1, 1, 9, false);

    /* A member, addressed as a JBOD drive, takes no I/O. */
    res = rh_rw(h, RH_JBOD(1), false, false, 0, 8);
    g_assert_true(res.absent);
    res = rh_cmd(h, RH_JBOD(0), cdb, 6, RH_DIR_NONE, 0);
    g_assert_true(res.absent);

    /* Beyond the end: ILLEGAL REQUEST, LBA out of range. */
    res = rh_rw(h, RH_VD(0), false, true, r.vd_sectors, 8);
    g_assert_cmphex(res.status, ==, 0x02);
    g_assert_cmphex(res.key, ==, 0x05);
    g_assert_cmphex(res.asc, ==, 0x21);
    res = rh_rw(h, RH_VD(0), false, true, r.vd_sectors - 4, 8);
    g_assert_cmphex(res.status, ==, 0x02);
    g_assert_cmphex(res.key, ==, 0x05);
    g_assert_cmphex(res.asc, ==, 0x21);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * Every level the core builds, over the fewest drives it takes with two
 * spans for the spanned ones: the host sees the VD optimal, the QOM level
 * names it, and the extents and the last block read back as written.
 */
static void test_levels(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    static const struct {
        RaidLevel level;
        int n;
    } levels[] = {
        { RAID_LEVEL_0, 2 }, { RAID_LEVEL_1, 2 }, { RAID_LEVEL_5, 3 },
        { RAID_LEVEL_6, 4 }, { RAID_LEVEL_10, 4 }, { RAID_LEVEL_50, 6 },
        { RAID_LEVEL_60, 6 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
        g_autofree char *lvl = NULL;
        RaidHost *h;
        Rig r;

        rig_create(&r, levels[i].n, levels[i].n, 0, levels[i].level);
        h = rh_start(ops, &r, NULL);
        lvl = qts_qom_get_str(h->qts, CTRL, "vd0-level");
        g_test_message("%s over %d drives: %" PRIu64 " sectors", lvl,
                       levels[i].n, r.vd_sectors);
        g_assert_cmpint(g_ascii_strcasecmp(lvl,
                                           raid_level_name(levels[i].level)),
                        ==, 0);
        g_assert_cmpuint(h->ops->vd_state(h, 0), ==, VDS_OPTIMAL);
        rh_write_extents(h, 100 + i * 8);
        rh_check_extents(h, 100 + i * 8);
        rh_vd_write(h, r.vd_sectors - 1, 1, 99, true);
        rh_vd_check(h, r.vd_sectors - 1, 1, 99, false);
        rh_stop(&r);
        rig_destroy(&r);
    }
}

/* Wait for the VD's rebuild to finish; false on timeout. */
static bool wait_rebuild(RaidHost *h, int spare, int sec)
{
    g_autofree char *p = drive_path(spare);
    int64_t last = -2;

    for (int i = 0; i < sec * 10; i++) {
        g_autofree char *job = qts_qom_get_str(h->qts, CTRL, "vd0-job");
        int64_t pct = qts_qom_get_int(h->qts, p, "rebuild-progress");

        if (pct != last) {
            g_test_message("rebuild: job %s, drive %d at %" PRId64 "%%",
                           job, spare, pct);
            last = pct;
        }
        if (!strcmp(job, "none")) {
            return true;
        }
        g_assert_cmpstr(job, ==, "rebuild");
        rh_idle(h, 100);
    }
    return false;
}

/* A member fails; the hot spare takes over and is rebuilt. */
static void test_degraded_rebuild(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    Rig r;
    RaidHost *h;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 10);
    /*
     * Slowly at first, so that the checks below see the rebuild still
     * running (at 100 % the pipelined rebuild of this small VD can end
     * before the first of them).
     */
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);
    h->ops->forget_events(h);

    rh_fail_drive(h, 1);
    /* The host hears the VD go degraded. */
    g_assert_true(h->ops->wait_vd_event(h, VDS_DEGRADED, 10));
    /* The spare took the failed member's place, which left the VD. */
    rh_assert_drive_state(h, 1, "unconfigured-bad");
    rh_assert_drive_state(h, 4, "rebuild");
    rh_assert_vd_state(h, "degraded");
    g_assert_cmpuint(h->ops->vd_state(h, 0), ==, VDS_DEGRADED);
    /* Data reads back while the rebuild runs, and new writes land. */
    rh_check_extents(h, 10);
    rh_vd_write(h, 40000, 512, 55, true);
    rh_vd_check(h, 40000, 512, 55, false);

    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    g_assert_true(wait_rebuild(h, 4, 120));
    rh_assert_drive_state(h, 4, "online");
    rh_assert_vd_state(h, "optimal");
    g_assert_true(h->ops->wait_vd_event(h, VDS_OPTIMAL, 10));
    rh_check_extents(h, 10);
    rh_vd_check(h, 40000, 512, 55, true);

    /*
     * Fail an original member: the reads now depend on what the rebuild
     * wrote to the former spare.
     */
    rh_fail_drive(h, 0);
    rh_assert_vd_state(h, "degraded");
    rh_check_extents(h, 10);
    rh_vd_check(h, 40000, 512, 55, false);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * Several requests' writes to one member fail at once (blkdebug returns
 * every error of a main-loop pass together, as a cut NBD link did): the
 * first error fails the member and the hot spare takes its index; the
 * later errors belong to the failed drive, not to the spare (which used
 * to be failed too, taking the VD offline), and each of those requests
 * is planned again and succeeds on the remaining mirror.
 */
static void test_error_burst(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    enum { N = 16, BLOCKS = 8, GAP = 4 * STRIP_SECTORS };
    g_autofree char *conf = NULL;
    g_autofree char *file = NULL;
    GString *rules = g_string_new("");
    uint16_t tags[N];
    int ok = 0;
    Rig r;
    RaidHost *h;
    int fd;

    rig_create(&r, 3, 2, 1, RAID_LEVEL_1);
    fd = g_file_open_tmp("mr-burst-XXXXXX.conf", &conf, NULL);
    g_assert_cmpint(fd, >=, 0);
    for (int i = 0; i < N; i++) {
        g_string_append_printf(rules, "[inject-error]\nevent = \"write_aio\"\n"
                               "errno = \"5\"\nsector = \"%d\"\n\n",
                               i * GAP);
    }
    g_assert_true(g_file_set_contents(conf, rules->str, -1, NULL));
    g_string_free(rules, true);
    close(fd);
    file = g_strdup_printf("blkdebug:%s:%s", conf, r.path[1]);
    drive_file[1] = file;
    h = rh_start(ops, &r, NULL);
    drive_file[1] = NULL;
    rh_assert_vd_state(h, "optimal");
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);

    /* All N writes in flight at once, each from its own buffer. */
    for (int i = 0; i < N; i++) {
        uint8_t cdb[10] = { 0x2A }, buf[BLOCKS * 512];
        uint64_t addr = h->data + i * sizeof(buf);

        pattern(buf, i * GAP, BLOCKS, 61);
        qtest_bufwrite(h->qts, addr, buf, sizeof(buf));
        stl_be_p(cdb + 2, i * GAP);
        stw_be_p(cdb + 7, BLOCKS);
        tags[i] = rh_post_at(h, RH_VD(0), cdb, 10, RH_DIR_WRITE,
                             sizeof(buf), addr);
    }
    for (int i = 0; i < N; i++) {
        uint16_t tag;
        IoRes res;

        g_assert_true(h->ops->reap(h, &tag, &res, 30000));
        g_test_message("write tag %u: status 0x%x, SCSI status 0x%x",
                       tag, res.ioc, res.status);
        for (int k = 0; k < N; k++) {
            ok += tag == tags[k] && res.ioc == 0 && res.status == 0;
        }
    }
    g_assert_cmpint(ok, ==, N);
    /* Only the drive that failed the I/O left; the spare rebuilds. */
    rh_assert_drive_state(h, 1, "unconfigured-bad");
    rh_assert_drive_state(h, 2, "rebuild");
    rh_assert_vd_state(h, "degraded");
    for (int i = 0; i < N; i++) {
        rh_vd_check(h, i * GAP, BLOCKS, 61, false);
    }
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    g_assert_true(wait_rebuild(h, 2, 120));
    rh_assert_vd_state(h, "optimal");
    rh_fail_drive(h, 0);
    for (int i = 0; i < N; i++) {
        rh_vd_check(h, i * GAP, BLOCKS, 61, false);
    }
    rh_stop(&r);
    rig_destroy(&r);
    unlink(conf);
}

/*
 * The drive being rebuilt leaves part way and comes back after the host
 * wrote to rows it had already been given: those rows are stale on it,
 * so its rebuild starts again from the first row, not where it stopped
 * (which lost the write once the other mirror failed).
 */
static void test_rebuild_target_returns(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    g_autofree char *p2 = drive_path(2);
    int64_t pct = 0;
    Rig r;
    RaidHost *h;

    rig_create(&r, 3, 2, 1, RAID_LEVEL_1);
    h = rh_start(ops, &r, NULL);
    rh_vd_write(h, 0, 256, 70, false);
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);
    rh_fail_drive(h, 1);
    rh_assert_drive_state(h, 2, "rebuild");
    for (int i = 0; i < 1200 && pct < 10; i++) {
        rh_idle(h, 100);
        pct = qts_qom_get_int(h->qts, p2, "rebuild-progress");
    }
    g_test_message("rebuild target leaves at %" PRId64 "%%", pct);
    g_assert_cmpint(pct, >=, 10);
    g_assert_cmpint(pct, <, 100);

    qtest_qmp_device_del(h->qts, "hd2");
    rh_idle(h, 200);
    rh_assert_vd_state(h, "degraded");
    /* Row 0 was rebuilt onto the departed drive; now it changes. */
    rh_vd_write(h, 0, 256, 71, false);

    qts_plug_drive(h->qts, "back2", r.path[2], "hd2", 2, ops->drive_if);
    rh_idle(h, 200);
    rh_assert_drive_state(h, 2, "rebuild");
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    g_assert_true(wait_rebuild(h, 2, 120));
    rh_assert_vd_state(h, "optimal");
    /* Only the returned drive is left: it must hold the new row 0. */
    rh_fail_drive(h, 0);
    rh_vd_check(h, 0, 256, 71, false);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * Members leave (device_del) while a rebuild at 100 % has its chunks in
 * flight on them (throttled drives: the 16 MiB drives' whole rebuild is
 * one window, queued in the throttle): each removal waits for the I/O
 * already issued, the rebuilds go on from the members left, QEMU keeps
 * answering and the data stays intact.  Two rounds on the RAID 6, each
 * failing one member and pulling another.
 */
/*
 * Start the rig with every drive behind a throttle group of its own
 * (@limit: the group's QEMU properties), so that member I/O stays in
 * flight; @ctrl: controller properties.
 */
static RaidHost *rh_start_throttled(const RaidHostOps *ops, Rig *r,
                                    const char *ctrl, const char *limit)
{
    g_autoptr(GString) args = g_string_new(ctrl);
    char *files[MAX_DRIVES];
    RaidHost *h;

    for (int i = 0; i < r->n; i++) {
        g_string_append_printf(args, " -object throttle-group,id=tg%d,%s",
                               i, limit);
        /* (single quotes: libqtest starts QEMU through the shell) */
        files[i] = g_strdup_printf("'json:{\"file\":{"
                                   "\"driver\":\"throttle\",,"
                                   "\"throttle-group\":\"tg%d\",,"
                                   "\"file\":{\"driver\":\"file\",,"
                                   "\"filename\":\"%s\"}}}'", i,
                                   r->path[i]);
        drive_file[i] = files[i];
    }
    h = rh_start(ops, r, args->str);
    for (int i = 0; i < r->n; i++) {
        drive_file[i] = NULL;
        g_free(files[i]);
    }
    return h;
}

static void test_pull_during_rebuild(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    Rig r;
    RaidHost *h;

    rig_create(&r, 7, 4, 3, RAID_LEVEL_6);
    /* 32 MiB/s per drive: a rebuild takes about a second */
    h = rh_start_throttled(ops, &r, ",rebuild-rate=1", "x-bps-total=33554432");
    rh_vd_write(h, 0, 2048, 81, false);
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    rh_fail_drive(h, 0);
    qtest_qmp_device_del(h->qts, "hd1");
    g_assert_true(wait_rebuild(h, 5, 120));
    rh_assert_vd_state(h, "optimal");
    rh_vd_check(h, 0, 2048, 81, false);
    rh_vd_write(h, 1024, 512, 82, false);
    rh_fail_drive(h, 2);
    qtest_qmp_device_del(h->qts, "hd3");
    rh_idle(h, 200);
    rh_vd_check(h, 0, 1024, 81, false);
    rh_vd_check(h, 1024, 512, 82, false);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * A write planned while the member it reads was healthy, which waits for
 * its row behind another write while that member fails and the hot
 * spare (blank, not yet rebuilt there) takes its place, must not read
 * the spare as if it held the data: it is planned again.  On a RAID 5
 * of 4 (row 80: strip k on member k, parity on member 3), W1 rewrites
 * the end of strip 0 and holds the row;
 * W2, a write of the start of strip 2, plans a reconstruct-write that
 * reads strip 1 from member 1; member 1 fails meanwhile.  Strip 1 must
 * still read back (it was read as zeros from the spare, and the parity
 * W2 wrote then lost it).  The drives are throttled to 256 KiB/s so that
 * W1 is still in flight when the failure comes; the spare takes member 1
 * before the metadata is written, and W1 completes while it is.
 */
static void test_stale_plan(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    enum { ROW = 80, RB = ROW * 3 * STRIP_SECTORS };
    uint8_t w1[32 * 512], w2[64 * 512], cdb[10] = { 0x2A };
    uint16_t tags[2];
    int ok = 0;
    Rig r;
    RaidHost *h;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    h = rh_start_throttled(ops, &r, ",rebuild-rate=1", "x-bps-total=262144");
    rh_vd_write(h, RB, 3 * STRIP_SECTORS, 90, false);

    pattern(w1, RB + 96, 32, 91);
    qtest_bufwrite(h->qts, h->data, w1, sizeof(w1));
    stl_be_p(cdb + 2, RB + 96);
    stw_be_p(cdb + 7, 32);
    tags[0] = rh_post_at(h, RH_VD(0), cdb, 10, RH_DIR_WRITE, sizeof(w1),
                         h->data);
    pattern(w2, RB + 2 * STRIP_SECTORS, 64, 92);
    qtest_bufwrite(h->qts, h->data + sizeof(w1), w2, sizeof(w2));
    stl_be_p(cdb + 2, RB + 2 * STRIP_SECTORS);
    stw_be_p(cdb + 7, 64);
    tags[1] = rh_post_at(h, RH_VD(0), cdb, 10, RH_DIR_WRITE, sizeof(w2),
                         h->data + sizeof(w1));
    rh_fail_drive(h, 1);
    for (int i = 0; i < 2; i++) {
        uint16_t tag;
        IoRes res;

        g_assert_true(h->ops->reap(h, &tag, &res, 30000));
        ok += (tag == tags[0] || tag == tags[1]) && res.ioc == 0 &&
              res.status == 0;
    }
    g_assert_cmpint(ok, ==, 2);
    rh_assert_drive_state(h, 4, "rebuild");
    rh_vd_check(h, RB, 96, 90, false);
    rh_vd_check(h, RB + 96, 32, 91, false);
    rh_vd_check(h, RB + STRIP_SECTORS, STRIP_SECTORS, 90, false);
    rh_vd_check(h, RB + 2 * STRIP_SECTORS, 64, 92, false);
    rh_vd_check(h, RB + 2 * STRIP_SECTORS + 64, 64, 90, false);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * A journal that is not one, with a RAID 5 on the drives: QEMU does not
 * start (status 1, the cause on stderr, at machine-done where the import
 * runs) and writes nothing to the drives, where a good start stores the
 * metadata again.
 */
static void test_bad_journal(void)
{
    /* the size cache-size=2M needs: the drive is refused for its content */
    g_autofree char *journal = h_junk_file("megaraid-badj", 4096,
                                           4 * 1024 * 1024);
    g_autofree char *err = NULL;
    GString *args = g_string_new(NULL);
    RaidConfig *cfg;
    Rig r;

    rig_create(&r, 3, 3, 0, RAID_LEVEL_5);
    g_string_append_printf(args, "-M q35 -nodefaults "
                           "-blockdev driver=file,filename=%s,node-name=jn "
                           "-device megaraid-9600,id=raid0,journal=jn,"
                           "cache-size=2M", journal);
    for (int i = 0; i < r.n; i++) {
        g_string_append_printf(args, " -drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,bus=raid0.0,"
                               "slot=%d,drive=d%d,interface=nvme",
                               i, r.path[i], i, i);
    }
    /* refused (status 1), not crashed */
    g_assert_cmpint(h_run_qemu(args->str, &err), ==, 1);
    g_string_free(args, true);
    g_test_message("stderr: %s", err);
    g_assert_nonnull(strstr(err, journal));
    g_assert_nonnull(strstr(err, "bad magic"));
    cfg = rig_load(&r);
    g_assert_cmpuint(cfg->seq, ==, r.seq);      /* not written */
    g_assert_cmpuint(raid_config_count_vds(cfg), ==, 1);
    raid_config_free(cfg);
    unlink(journal);
    rig_destroy(&r);
}

/* RAID 5 without a spare loses two members: offline, errors, no data. */
static void test_offline(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    Rig r;
    RaidHost *h;
    IoRes res;
    QDict *rsp;
    uint8_t got[4096], want[4096];
    int good = 0;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 20);
    rh_fail_drive(h, 2);
    rh_assert_vd_state(h, "degraded");
    rh_check_extents(h, 20);
    rh_fail_drive(h, 0);
    rh_assert_vd_state(h, "offline");
    g_assert_true(h->ops->wait_vd_event(h, VDS_OFFLINE, 10));

    for (size_t i = 0; i < ARRAY_SIZE(extents); i++) {
        uint32_t n = MIN(extents[i].blocks, 8);

        pattern(want, extents[i].lba, n, 20 + i);
        qtest_memset(h->qts, h->data, 0xA5, sizeof(got));
        res = rh_rw(h, RH_VD(0), false, extents[i].cdb16,
                      extents[i].lba, n);
        g_test_message("offline VD: READ of %u at %" PRIu64 ": IOC status "
                       "0x%x, SCSI status 0x%x, sense key %u ASC 0x%x", n,
                       extents[i].lba, res.ioc, res.status, res.key,
                       res.asc);
        /* no wrong data: what reached the buffer is the data written */
        qtest_memread(h->qts, h->data, got, n * 512);
        for (uint32_t k = 0; k < n * 512; k++) {
            if (got[k] != 0xA5) {
                g_assert_cmphex(got[k], ==, want[k]);
            }
        }
        good += res.ioc == 0 && res.status == 0;
    }
    /* Writes fail too (LBA 2000: a strip whose row keeps its parity). */
    res = rh_rw(h, RH_VD(0), true, false, 0, 8);
    good += res.ioc == 0 && res.status == 0;
    res = rh_rw(h, RH_VD(0), true, false, 2000, 8);
    g_test_message("offline VD: WRITE of 8 at 2000: IOC status 0x%x, SCSI "
                   "status 0x%x", res.ioc, res.status);
    good += res.ioc == 0 && res.status == 0;
    g_assert_cmpint(good, ==, 0);

    /* QEMU is still there. */
    rsp = qtest_qmp(h->qts, "{'execute': 'query-status'}");
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * The events since the last call, as "event:handle[:reason]" words (the
 * reason of a STATUS CHANGE, the HIDDEN flag or VD state of an INFO
 * CHANGED), after waiting @ms for the first one.
 */
static char *mr_event_words(MR *m, int ms)
{
    GString *out = g_string_new("");

    mr_pump_events(m, ms);
    for (guint k = 0; k < m->events->len; k++) {
        Event *e = &g_array_index(m->events, Event, k);

        g_string_append_printf(out, "%s%02x:%x", k ? " " : "", e->event,
                               e->handle);
        if (e->event == EV_DEVICE_STATUS_CHANGE) {
            g_string_append_printf(out, ":%x", e->page[DSC_REASON]);
        } else if (e->event == EV_DEVICE_INFO_CHANGED) {
            g_string_append_printf(out, ":%x", e->page[PG0_FORM] == FORM_VD
                                   ? e->page[PG0_VD_STATE]
                                   : lduw_le_p(e->page + PG0_FLAGS) &
                                     PG0_FLAG_HIDDEN);
        }
    }
    g_array_set_size(m->events, 0);
    return g_string_free(out, false);
}

/*
 * Visibility changes reach every driver version: a JBOD drive made a hot
 * spare is hidden (DEVICE STATUS CHANGE, reason HIDDEN, after its INFO
 * CHANGED page with the HIDDEN flag), released it is shown again (NOT
 * HIDDEN), and a VD hidden when it goes offline (only then: degraded
 * keeps it).
 */
static void test_visibility(void)
{
    Rig r;
    MR *m;
    g_autofree char *spare = NULL, *released = NULL, *degraded = NULL;
    g_autofree char *offline = NULL;
    g_autofree char *jbod = drive_path(4);

    rig_create(&r, 5, 4, 0, RAID_LEVEL_5);     /* drive 4 (handle 5): blank */
    m = mr_start(&r, NULL);
    g_array_set_size(m->events, 0);

    qom_set_str(m, jbod, "state", "hot-spare");
    spare = mr_event_words(m, 2000);
    g_assert_cmpstr(spare, ==, "08:5:8 0d:5:2");
    qom_set_str(m, jbod, "state", "unconfigured-good");
    released = mr_event_words(m, 2000);
    g_assert_cmpstr(released, ==, "08:5:0 0d:5:3");

    fail_drive(m, 1);
    assert_vd_state(m, "degraded");
    degraded = mr_event_words(m, 2000);
    g_assert_null(strstr(degraded, "0d:"));
    g_assert_nonnull(strstr(degraded, "08:300:2"));
    fail_drive(m, 2);
    assert_vd_state(m, "offline");
    offline = mr_event_words(m, 2000);
    g_assert_nonnull(strstr(offline, "08:300:0 0d:300:2"));
    mr_stop(&r);
    rig_destroy(&r);
}

/* Injected media errors: recovered on RAID 5, MEDIUM ERROR on RAID 0. */
static void test_media_error(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    uint32_t reserve = raid_reserve_sectors(DRIVE_BYTES / 512);
    g_autofree char *range = g_strdup_printf("0+%u",
                                             DRIVE_BYTES / 512 - reserve);
    g_autofree char *p2 = drive_path(2);
    g_autofree char *p1 = drive_path(1);
    Rig r;
    RaidHost *h;
    IoRes res;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 30);
    qts_qom_set_str(h->qts, p2, "media-error", range);
    rh_check_extents(h, 30);
    rh_assert_vd_state(h, "optimal");
    rh_assert_drive_state(h, 2, "online");
    rh_stop(&r);
    rig_destroy(&r);

    rig_create(&r, 2, 2, 0, RAID_LEVEL_0);
    h = rh_start(ops, &r, NULL);
    rh_vd_write(h, 0, 512, 40, false);
    rh_vd_check(h, 0, 512, 40, false);
    qts_qom_set_str(h->qts, p1, "media-error", range);
    /* The first strip is on member 0: still readable. */
    rh_vd_check(h, 0, STRIP_SECTORS, 40, true);
    /* The second is on member 1: no redundancy to recover it from. */
    res = rh_rw(h, RH_VD(0), false, false, STRIP_SECTORS, 8);
    g_assert_cmphex(res.status, ==, 0x02);
    g_assert_cmphex(res.key, ==, 0x03);                 /* MEDIUM ERROR */
    g_assert_cmphex(res.asc, ==, 0x11);                 /* unrecovered */
    /* A write reallocates the blocks: they read again. */
    rh_vd_write(h, STRIP_SECTORS, 8, 41, false);
    rh_vd_check(h, STRIP_SECTORS, 8, 41, true);
    rh_stop(&r);
    rig_destroy(&r);
}

/* States persist on the drives after QEMU has gone, and across restarts. */
static void test_persist(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    RaidConfig *cfg;
    Rig r;
    RaidHost *h;
    int v = 0;

    rig_create(&r, 4, 4, 0, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    rh_write_extents(h, 50);
    rh_fail_drive(h, 3);
    rh_assert_vd_state(h, "degraded");
    rh_vd_write(h, 30000, 256, 60, true);
    rh_stop(&r);

    cfg = rig_load(&r);
    g_assert_false(cfg->foreign);
    g_assert_cmpuint(cfg->seq, >, r.seq);
    g_assert_cmpint(raid_config_count_vds(cfg), ==, 1);
    g_assert_true(cfg->vds[v].used);
    g_assert_cmpint(cfg->vds[v].state, ==, RAID_VD_DEGRADED);
    for (int i = 0; i < 4; i++) {
        int pd = raid_config_find_pd_slot(cfg, i);

        g_assert_cmpint(pd, >=, 0);
        if (i == 3) {
            g_assert_cmpint(cfg->pds[pd].state, !=, RAID_PD_ONLINE);
        } else {
            g_assert_cmpint(cfg->pds[pd].state, ==, RAID_PD_ONLINE);
        }
    }
    raid_config_free(cfg);

    /* A restart imports the degraded VD with the data written. */
    h = rh_start(ops, &r, NULL);
    rh_assert_vd_state(h, "degraded");
    g_assert_cmpuint(h->ops->vd_state(h, 0), ==, VDS_DEGRADED);
    if (ops == &mpi3_host_ops) {
        /* and so it was announced at PORT ENABLE */
        g_assert_cmpuint(mr_last_page(h->priv, VD_HANDLE, EV_DEVICE_ADDED)
                         [PG0_VD_STATE], ==, VDS_DEGRADED);
    }
    rh_check_extents(h, 50);
    rh_vd_check(h, 30000, 256, 60, false);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * Drives written under another controller's serial are foreign: nothing
 * of them is exposed or written; import-foreign=on adopts the VD, data
 * and all, and rewrites the metadata under this controller.
 */
static void test_foreign(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    const char *other = ",serial=OTHERCTRL0000001";
    uint8_t tur[16] = { 0 };
    RaidConfig *cfg;
    RaidHost *h;
    IoRes res;
    Rig r;

    rig_create_written(ops, &r, 4, 3, RAID_LEVEL_5, 70);
    cfg = rig_load(&r);
    r.seq = cfg->seq;
    raid_config_free(cfg);

    h = rh_start(ops, &r, other);
    /* no VD, and its members take no I/O */
    res = rh_rw(h, RH_VD(0), false, false, 0, 8);
    g_assert_true(res.absent);
    for (int i = 0; i < 3; i++) {
        res = rh_rw(h, RH_JBOD(i), false, false, 0, 8);
        g_assert_true(res.absent);
        rh_assert_drive_state(h, i, "foreign");
    }
    /* the blank drive is no part of it: a JBOD disk as before */
    res = rh_cmd(h, RH_JBOD(3), tur, 6, RH_DIR_NONE, 0);
    g_assert_cmphex(res.ioc, ==, 0);
    g_assert_cmphex(res.status, ==, 0);
    if (ops == &mpi3_host_ops) {
        /* no DEVICE ADDED of the VD, its members hidden, the JBOD shown */
        MR *m = h->priv;

        g_assert_null(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
        for (int i = 0; i < 3; i++) {
            const uint8_t *pg = mr_last_page(m, 1 + i, EV_DEVICE_ADDED);

            g_assert_nonnull(pg);
            g_assert_cmphex(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN, ==,
                            PG0_FLAG_HIDDEN);
        }
        g_assert_cmphex(lduw_le_p(mr_last_page(m, 4, EV_DEVICE_ADDED) +
                                  PG0_FLAGS) & PG0_FLAG_HIDDEN, ==, 0);
    }
    rh_stop(&r);
    cfg = rig_load(&r);
    g_assert_cmpuint(cfg->seq, ==, r.seq);          /* not written */
    raid_config_free(cfg);

    h = rh_start(ops, &r, ",serial=OTHERCTRL0000001,import-foreign=on");
    if (ops == &mpi3_host_ops) {
        g_assert_nonnull(mr_last_page(h->priv, VD_HANDLE, EV_DEVICE_ADDED));
    }
    g_assert_cmpuint(h->ops->vd_state(h, 0), ==, VDS_OPTIMAL);
    rh_assert_vd_state(h, "optimal");
    rh_check_extents(h, 70);
    rh_stop(&r);
    cfg = rig_load(&r);
    g_assert_true(cfg->foreign);    /* now another controller's to us */
    g_assert_cmpuint(cfg->seq, >, r.seq);
    raid_config_free(cfg);
    rig_destroy(&r);
}

/* ------------------------------------------------------ timing model */

/* qom-set that must fail; returns the error's text. */
static char *qom_set_refused(MR *m, const char *path, const char *prop,
                             const char *json)
{
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments':"
                           " {'path': %s, 'property': %s, 'value': %s}}",
                           path, prop, json);
    char *desc;

    g_assert_true(qdict_haskey(rsp, "error"));
    desc = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
    qobject_unref(rsp);
    return desc;
}

/*
 * timing=on: the profiles in use, time-scale's strict form and run-time
 * change, a wrong drive profile refused with the valid names, and a VD
 * read held until its modelled (scaled) latency has passed on the
 * virtual clock, which only clock_step moves under qtest; a held read
 * aborted by task management, and one still held when QEMU quits.
 */
static void test_timing_hold(void)
{
    static const char *const bad[] = {
        "0", "0.001", "2000", "abc", "1e2", " 5", "5 ", "0x10", "-1", "",
        "1.", ".5", "nan",
    };
    uint8_t cdb[10] = { 0x28 };
    g_autofree char *perf = NULL;
    g_autofree char *prof = NULL;
    g_autofree char *scale = NULL;
    g_autofree char *err = NULL;
    int64_t lat, t0;
    Desc d;
    Rig r;
    MR *m;

    rig_create_cached(&r, 5, 4, 1, RAID_LEVEL_5,
                      RAID_CACHE_WRITE_BACK | RAID_CACHE_WB_NO_BATTERY);
    m = mr_start(&r, ",timing=on,time-scale=50 "
                 "-drive if=none,id=dx,driver=null-co,size=64M");
    prof = qom_get_str(m, CTRL, "timing-profile");
    g_assert_cmpstr(prof, ==, "9670w-16i");
    perf = qom_get_str(m, "/machine/peripheral/hd0", "timing-perf");
    g_assert_cmpstr(perf, ==, "micron-7450-max-6.4t");
    scale = qom_get_str(m, CTRL, "time-scale");
    g_assert_cmpstr(scale, ==, "50");
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *json = g_strdup_printf("\"%s\"", bad[i]);
        g_autofree char *e = qom_set_refused(m, CTRL, "time-scale", json);

        g_assert_nonnull(strstr(e, "time-scale"));
    }
    err = qom_set_refused(m, CTRL, "timing-late", "1");
    g_test_message("timing-late is read-only: %s", err);
    /* a wrong performance profile names the valid ones */
    {
        QDict *rsp = qtest_qmp(m->qts, "{'execute': 'device_add', "
                               "'arguments': {'driver': 'megaraid-drive', "
                               "'bus': 'raid0.0', 'slot': 9, 'drive': 'dx', "
                               "'perf-profile': 'bogus'}}");
        const char *desc;

        g_assert_true(qdict_haskey(rsp, "error"));
        desc = qdict_get_str(qdict_get_qdict(rsp, "error"), "desc");
        g_test_message("device_add: %s", desc);
        g_assert_nonnull(strstr(desc, "perf-profile 'bogus'"));
        g_assert_nonnull(strstr(desc, "micron-7450-max-6.4t"));
        qobject_unref(rsp);
    }

    /* the scaled unloaded latency of a 4 KiB read */
    lat = qom_get_int(m, CTRL, "vd0-timing-read-ns");
    g_test_message("VD 4 KiB read: %" PRId64 " ns at time-scale 50", lat);
    g_assert_cmpint(lat, >, 50 * 10000);
    g_assert_cmpint(lat, <, 50 * 1000000);
    g_assert_cmpint(qom_get_int(m, "/machine/peripheral/hd4",
                                "timing-read-ns"), >, 0);

    /* held while the virtual clock stands still, however long we wait */
    stw_be_p(cdb + 7, 8);
    t0 = qtest_clock_step(m->qts, 1);
    scsi_post(m, VD_HANDLE, cdb, 10, DIR_READ, 4096);
    g_assert_false(h_op_reply(m, &d, 300));
    g_assert_cmpint(qom_get_int(m, CTRL, "timing-held"), ==, 1);
    /* not yet at 90 % of its modelled latency */
    qtest_clock_step(m->qts, lat * 9 / 10);
    g_assert_false(h_op_reply(m, &d, 100));
    /* released by 110 % */
    qtest_clock_step(m->qts, lat * 2 / 10);
    g_assert_true(h_op_reply(m, &d, 5000));
    g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    g_test_message("completed after %" PRId64 " ns of virtual time",
                   qtest_clock_step(m->qts, 1) - t0);
    g_assert_cmpint(qom_get_int(m, CTRL, "timing-held"), ==, 0);
    g_assert_cmpint(qom_get_int(m, CTRL, "timing-completions"), ==, 1);
    g_assert_cmpint(qom_get_int(m, CTRL, "timing-late"), ==, 0);

    /*
     * Dirty lines of a write-back VD keep its reads off the hardware fast
     * path: the same read, after a cached write, takes the firmware path's
     * longer latency (10 us instead of 5 us, scaled 50 times: 5 %).
     */
    {
        g_autofree char *wp = qom_get_str(m, CTRL, "vd0-write-policy");
        uint8_t wcdb[10] = { 0x2A };

        g_assert_cmpstr(wp, ==, "always-write-back");
        qom_set_int(m, CTRL, "cache-flush-interval", 255);
        stl_be_p(wcdb + 2, 64);
        stw_be_p(wcdb + 7, 8);
        scsi_post(m, VD_HANDLE, wcdb, 10, DIR_WRITE, 4096);
        qtest_clock_step(m->qts, lat * 4);
        g_assert_true(h_op_reply(m, &d, 5000));
        g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
        g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), >, 0);
        t0 = qtest_clock_step(m->qts, 1);
        scsi_post(m, VD_HANDLE, cdb, 10, DIR_READ, 4096);
        qtest_clock_step(m->qts, lat * 103 / 100);
        g_assert_false(h_op_reply(m, &d, 100));
        qtest_clock_step(m->qts, lat / 10);
        g_assert_true(h_op_reply(m, &d, 5000));
        g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
        g_test_message("dirty VD read: completed after %" PRId64 " ns",
                       qtest_clock_step(m->qts, 1) - t0);
        g_assert_cmpint(qom_get_int(m, CTRL, "timing-completions"), ==, 3);
    }

    /* task management aborts a held request: TASK TERMINATED at once */
    {
        uint8_t tm[32] = { 0 };
        uint16_t tag = scsi_post(m, VD_HANDLE, cdb, 10, DIR_READ, 4096);

        g_assert_false(h_op_reply(m, &d, 200));
        g_assert_cmpint(qom_get_int(m, CTRL, "timing-held"), ==, 1);
        stw_le_p(tm, 0x7001);
        tm[3] = 0x21;                           /* SCSI TASK MGMT */
        stw_le_p(tm + 0x0A, VD_HANDLE);
        stw_le_p(tm + 0x0C, tag);
        tm[0x0E] = 0x01;                        /* ABORT TASK */
        g_assert_cmphex(mr_admin(m, tm, sizeof(tm)), ==, 0);
        g_assert_true(h_op_reply(m, &d, 5000));
        g_assert_cmphex(d.tag, ==, tag);
        g_assert_cmphex(d.status, ==, 0x0048);  /* TASK TERMINATED */
        g_assert_cmpint(qom_get_int(m, CTRL, "timing-held"), ==, 0);
        /* its timer is gone: stepping past it posts nothing more */
        qtest_clock_step(m->qts, lat * 2);
        g_assert_false(h_op_reply(m, &d, 100));
    }

    /* a faster card at run time: the next read is held 50 times less */
    qom_set_str(m, CTRL, "time-scale", "1");
    g_assert_cmpint(qom_get_int(m, CTRL, "vd0-timing-read-ns") * 50, ==,
                    lat);
    /* and QEMU quits cleanly with a request held */
    scsi_post(m, VD_HANDLE, cdb, 10, DIR_READ, 4096);
    g_assert_false(h_op_reply(m, &d, 200));
    g_assert_cmpint(qom_get_int(m, CTRL, "timing-held"), ==, 1);
    mr_stop(&r);
    rig_destroy(&r);
}

/*
 * The timing tests' rig: a RAID 5 of 4 drives plus a spare, each modelled
 * at 32 times its image, on a controller with timing=on and `ctrl_opts`.
 * The VD is settled (initialized, no job to run): the rebuild the tests
 * time is the only background job.
 */
static RaidHost *timing_rig_start(const RaidHostOps *ops, Rig *r,
                                  const char *ctrl_opts)
{
    g_autofree char *extra = g_strdup_printf(",modelled-capacity=%d",
                                             DRIVE_BYTES * 32);
    g_autofree char *opts = g_strdup_printf(",timing=on%s", ctrl_opts);
    g_autofree char *job = NULL;
    RigLayout l = {
        .n = 5, .nmem = 4, .nspare = 1, .settled = true,
        .spec = {
            .level = RAID_LEVEL_5,
            .name = "qtest",
            .cache = RAID_CACHE_READ_ALLOWED,
        },
    };
    RaidHost *h;

    rig_create_layout(r, &l);
    drive_extra = extra;
    h = rh_start(ops, r, opts);
    drive_extra = "";
    job = qts_qom_get_str(h->qts, CTRL, "vd0-job");
    g_assert_cmpstr(job, ==, "none");
    return h;
}

/*
 * timing=on: wait (real time, up to 30 s) until the rebuild's real copy
 * has caught up with the rows the model has reached (vd0-job-model-row),
 * so that a slow host does not count; returns vd0-job.
 */
static char *timing_catch_up(RaidHost *h)
{
    char *job = NULL;

    for (int i = 0; i < 30000; i++) {
        g_free(job);
        job = qts_qom_get_str(h->qts, CTRL, "vd0-job");
        if (strcmp(job, "rebuild") ||
            qts_qom_get_int(h->qts, CTRL, "vd0-job-row") >=
            qts_qom_get_int(h->qts, CTRL, "vd0-job-model-row")) {
            break;
        }
        g_usleep(1000);
    }
    return job;
}

/*
 * timing=on: a RAID 5 rebuild of drives modelled at 32 times their image
 * takes, on the virtual clock, what the model gives it with no load
 * (timing_rebuild_idle_ns x time-scale, vd0-job-model-ms) within 10 %,
 * and its progress follows the modelled time, not the copy of the image.
 * After each step of the virtual clock the test lets the real copy catch
 * up with the modelled rows (vd0-job-model-row), so a slow host does not
 * count.
 */
static void test_timing_rebuild(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    int64_t model_ms, step, elapsed = 0, last_ms, last_model;
    bool half = false;
    Rig r;
    RaidHost *h;

    h = timing_rig_start(ops, &r, ",time-scale=4");
    g_assert_cmpint(qts_qom_get_int(h->qts, CTRL, "vd0-job-model-ms"), ==, -1);
    g_assert_cmpint(qts_qom_get_int(h->qts, CTRL, "vd0-last-job-ms"), ==, -1);
    rh_fail_drive(h, 1);
    rh_assert_drive_state(h, 4, "rebuild");
    model_ms = qts_qom_get_int(h->qts, CTRL, "vd0-job-model-ms");
    g_test_message("modelled rebuild: %" PRId64 " ms (time-scale 4)",
                   model_ms);
    g_assert_cmpint(model_ms, >, 100);
    step = model_ms * 1000000LL / 500;
    for (;;) {
        g_autofree char *job = timing_catch_up(h);

        if (!strcmp(job, "none")) {
            break;
        }
        g_assert_cmpstr(job, ==, "rebuild");
        g_assert_cmpint(elapsed, <, model_ms * 1000000LL * 3);
        if (!half && elapsed >= model_ms * 1000000LL / 2) {
            g_autofree char *p = drive_path(4);
            int64_t pct = qts_qom_get_int(h->qts, p, "rebuild-progress");
            int64_t eta = qts_qom_get_int(h->qts, CTRL, "vd0-job-eta-ms");
            int64_t bps = qts_qom_get_int(h->qts, CTRL, "vd0-job-rate-bps");

            g_test_message("half time: %" PRId64 " %%, eta %" PRId64
                           " ms, %" PRId64 " B/s", pct, eta, bps);
            half = true;
            g_assert_cmpint(pct, >=, 40);
            g_assert_cmpint(pct, <=, 60);
            g_assert_cmpint(eta, >, model_ms / 4);
            g_assert_cmpint(eta, <, model_ms * 3 / 4);
            g_assert_cmpint(bps, >, 0);
        }
        qtest_clock_step(h->qts, step);
        elapsed += step;
    }
    g_assert_true(half);
    last_ms = qts_qom_get_int(h->qts, CTRL, "vd0-last-job-ms");
    last_model = qts_qom_get_int(h->qts, CTRL, "vd0-last-job-model-ms");
    g_test_message("rebuild took %" PRId64 " ms of virtual time, modelled "
                   "%" PRId64 " ms", last_ms, last_model);
    g_assert_cmpint(last_model, ==, model_ms);
    g_assert_cmpint(llabs(last_ms - model_ms) * 10, <=, model_ms);
    rh_assert_drive_state(h, 4, "online");
    rh_assert_vd_state(h, "optimal");
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * timing=on: rebuild-rate changes while the paced rebuild runs (more
 * slots, fewer, the fewest) and the rebuild still ends, faster at 100 %
 * than the model gives it at 30 %.
 */
static void test_timing_rate(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    static const int rates[] = { 100, 1, 30, 100 };
    int64_t model_ms, step, elapsed = 0, last_ms;
    Rig r;
    RaidHost *h;

    h = timing_rig_start(ops, &r, ",time-scale=4");
    rh_fail_drive(h, 1);
    model_ms = qts_qom_get_int(h->qts, CTRL, "vd0-job-model-ms");
    step = model_ms * 1000000LL / 100;
    for (int i = 0; ; i++) {
        /* (the real copy keeps up with the model: a slow host is no cost) */
        g_autofree char *job = timing_catch_up(h);

        if (!strcmp(job, "none")) {
            break;
        }
        if (i % 5 == 0 && i / 5 < ARRAY_SIZE(rates)) {
            qts_qom_set_int(h->qts, CTRL, "rebuild-rate", rates[i / 5]);
        }
        g_assert_cmpint(elapsed, <, model_ms * 1000000LL * 4);
        qtest_clock_step(h->qts, step);
        elapsed += step;
        g_usleep(2000);
    }
    last_ms = qts_qom_get_int(h->qts, CTRL, "vd0-last-job-ms");
    g_test_message("rebuild with rate changes: %" PRId64 " ms, %" PRId64
                   " ms modelled at rate 30", last_ms, model_ms);
    g_assert_cmpint(last_ms, <, model_ms);
    rh_assert_drive_state(h, 4, "online");
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * timing=on: virtual ns until a burst of @n 1 MiB reads of the VD, all
 * posted at one instant, has completed.  The clock moves only once every
 * request has done its real work (held or completed), so each is costed
 * when it arrived, however slow the host.
 */
static int64_t timing_burst(RaidHost *h, int n)
{
    uint8_t cdb[10] = { 0x28 };
    int64_t t0 = qtest_clock_step(h->qts, 1), t = t0;
    int got = 0;
    uint16_t tag;
    IoRes res;

    for (int i = 0; i < n; i++) {
        stl_be_p(cdb + 2, i * 2048);
        stw_be_p(cdb + 7, 2048);
        rh_post_at(h, RH_VD(0), cdb, 10, RH_DIR_READ, 1024 * 1024, h->data);
    }
    while (got < n) {
        for (int i = 0; i < 10000; i++) {
            while (h->ops->reap(h, &tag, &res, 0)) {
                g_assert_cmphex(res.ioc, ==, 0);
                g_assert_cmphex(res.status, ==, 0);
                got++;
            }
            if (got + qts_qom_get_int(h->qts, CTRL, "timing-held") >= n) {
                break;
            }
            g_usleep(500);
        }
        if (got < n) {
            t = qtest_clock_step(h->qts, 10000);
        }
    }
    return t - t0;
}

/*
 * timing=on: the foreground pays for a rebuild.  A burst of 32 reads of
 * 1 MiB takes longer while a member is being rebuilt (degraded reads and
 * the rebuild's floor share of the drives) than before and after.
 */
static void test_timing_load(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    int64_t before, during, after, step;
    g_autofree char *job = NULL;
    Rig r;
    RaidHost *h;

    h = timing_rig_start(ops, &r, "");
    before = timing_burst(h, 32);
    rh_fail_drive(h, 1);
    job = qts_qom_get_str(h->qts, CTRL, "vd0-job");
    g_assert_cmpstr(job, ==, "rebuild");
    /* into the rebuild's steady state */
    qtest_clock_step(h->qts, 20 * 1000000);
    during = timing_burst(h, 32);
    step = qts_qom_get_int(h->qts, CTRL, "vd0-job-model-ms") * 1000000LL / 50;
    for (int i = 0; i < 500 && strcmp(job, "none"); i++) {
        qtest_clock_step(h->qts, step);
        g_free(job);
        job = timing_catch_up(h);
    }
    rh_assert_vd_state(h, "optimal");
    after = timing_burst(h, 32);
    g_test_message("32 x 1 MiB reads: %" PRId64 " ns optimal, %" PRId64
                   " ns during the rebuild, %" PRId64 " ns after it",
                   before, during, after);
    g_assert_cmpint(during * 10, >, before * 12);
    g_assert_cmpint(after * 10, <, before * 11);
    g_assert_cmpint(after * 10, >, before * 9);
    g_assert_cmpint(qts_qom_get_int(h->qts, CTRL, "timing-late"), ==, 0);
    rh_stop(&r);
    rig_destroy(&r);
}

/*
 * Device handles from VD_HANDLE on are the VDs', even where 1 + enclosure
 * x 256 + slot lands there (enclosure 3 and above): a RAID 1 over two
 * drives and a JBOD drive, all in enclosure 3; the VD keeps 0x300 and no
 * drive gets a handle at or above it.
 */
static void test_drive_handles(void)
{
    Rig r;
    MR *m;
    int drives = 0;

    rig_create(&r, 3, 2, 0, RAID_LEVEL_1);
    drive_extra = ",enclosure=3";
    m = mr_start(&r, NULL);
    drive_extra = "";
    g_assert_nonnull(mr_last_page(m, VD_HANDLE, EV_DEVICE_ADDED));
    for (guint k = 0; k < m->events->len; k++) {
        Event *e = &g_array_index(m->events, Event, k);

        if (e->event != EV_DEVICE_ADDED || e->page[PG0_FORM] == FORM_VD) {
            continue;
        }
        g_assert_cmphex(e->handle, !=, 0);
        g_assert_cmphex(e->handle, <, VD_HANDLE);
        drives++;
    }
    g_assert_cmpint(drives, ==, 3);
    mr_stop(&r);
    rig_destroy(&r);
}

static bool qom_get_bool(QTestState *qts, const char *path, const char *prop)
{
    QDict *rsp = qts_qom_get(qts, path, prop);
    bool on = qdict_get_bool(rsp, "return");

    qobject_unref(rsp);
    return on;
}

/* The drive in bay @i reaches state @want within @sec seconds. */
static bool wait_drive_state(RaidHost *h, int i, const char *want, int sec)
{
    g_autofree char *p = drive_path(i);

    for (int t = 0; t < sec * 10; t++) {
        g_autofree char *st = qts_qom_get_str(h->qts, p, "state");

        if (!strcmp(st, want)) {
            return true;
        }
        rh_idle(h, 100);
    }
    return false;
}

/*
 * Copyback as the card does it: a member fails, the hot spare rebuilds
 * in its place, the failed drive is pulled and a new one put into its
 * bay: the spare's data is copied onto it while the host writes (rows
 * copied already and rows still to copy), the rows the spare cannot read
 * (a medium error) from the parity, then the new drive is the member and
 * the spare a spare again.  Off (QOM copyback=false), a new
 * drive in the bay stays unconfigured until it is turned on.
 */
static void test_copyback(const void *opaque)
{
    const RaidHostOps *ops = opaque;
    g_autofree char *fresh = NULL;
    int64_t pct = 0;
    Rig r;
    RaidHost *h;
    int fd;

    rig_create(&r, 5, 4, 1, RAID_LEVEL_5);
    h = rh_start(ops, &r, NULL);
    g_assert_true(qom_get_bool(h->qts, CTRL, "copyback"));
    rh_write_extents(h, 30);
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);
    rh_fail_drive(h, 1);
    rh_assert_drive_state(h, 4, "rebuild");
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    g_assert_true(wait_rebuild(h, 4, 120));
    rh_assert_drive_state(h, 4, "online");

    /*
     * the spare cannot read some of its blocks: the copyback takes those
     * rows from the other members' parity (else it would stop there)
     */
    {
        g_autofree char *p4 = drive_path(4);

        qts_qom_set_str(h->qts, p4, "media-error", "1200+16");
    }
    /* the failed drive is pulled; a blank one goes into its bay */
    qtest_qmp_device_del(h->qts, "hd1");
    rh_idle(h, 200);
    fd = g_file_open_tmp("megaraid-copyback-XXXXXX", &fresh, NULL);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(ftruncate(fd, DRIVE_BYTES), ==, 0);
    close(fd);
    qts_qom_set_ok(h->qts, CTRL, "copyback", QOBJECT(qbool_from_bool(false)));
    qts_plug_drive(h->qts, "new1", fresh, "hd1", 1, ops->drive_if);
    rh_idle(h, 300);
    /* off: nothing happens to it */
    rh_assert_drive_state(h, 1, "unconfigured-good");
    rh_assert_drive_state(h, 4, "online");
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);
    qts_qom_set_ok(h->qts, CTRL, "copyback", QOBJECT(qbool_from_bool(true)));
    rh_assert_drive_state(h, 1, "copyback");
    {
        g_autofree char *job = qts_qom_get_str(h->qts, CTRL, "vd0-job");

        g_assert_cmpstr(job, ==, "copyback");
    }
    rh_assert_vd_state(h, "optimal");
    for (int i = 0; i < 1200 && pct < 5; i++) {
        rh_idle(h, 100);
        pct = qts_qom_get_int(h->qts, CTRL, "vd0-progress");
    }
    g_test_message("copyback at %" PRId64 "%% when the host writes", pct);
    {
        QDict *rsp = qtest_qmp(h->qts, "{'execute': 'query-megaraid'}");
        QDict *c = qobject_to(QDict,
                              qlist_peek(qdict_get_qlist(rsp, "return")));
        int seen = 0;

        for (const QListEntry *e = qlist_first(qdict_get_qlist(c, "drives"));
             e; e = qlist_next(e)) {
            QDict *d = qobject_to(QDict, qlist_entry_obj(e));

            if (qdict_get_int(d, "slot") == 1 &&
                qdict_get_bool(d, "present")) {
                /* (the drive pulled from the bay is listed too) */
                g_assert_cmpstr(qdict_get_str(d, "state"), ==, "copyback");
                g_assert_cmpint(qdict_get_int(d, "copyback-progress"), >=,
                                pct);
                seen++;
            } else {
                g_assert_false(qdict_haskey(d, "copyback-progress"));
            }
        }
        g_assert_cmpint(seen, ==, 1);
        qobject_unref(rsp);
    }
    g_assert_cmpint(pct, >=, 5);
    g_assert_cmpint(pct, <, 60);
    /* rows copied already (the start) and rows not yet (the end) */
    rh_vd_write(h, 1000, 256, 31, false);
    rh_vd_write(h, r.vd_sectors - 256, 256, 32, false);
    rh_check_extents(h, 30);
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 100);
    g_assert_true(wait_drive_state(h, 1, "online", 120));
    rh_assert_drive_state(h, 4, "hot-spare");
    rh_assert_vd_state(h, "optimal");
    {
        g_autofree char *job = qts_qom_get_str(h->qts, CTRL, "vd0-job");

        g_assert_cmpstr(job, ==, "none");
    }
    rh_vd_check(h, 1000, 256, 31, false);
    rh_vd_check(h, r.vd_sectors - 256, 256, 32, false);

    /*
     * The new drive holds the member's data: with an original member
     * failed the reads depend on it (and the spare, a spare again,
     * rebuilds from it).
     */
    qts_qom_set_int(h->qts, CTRL, "rebuild-rate", 1);
    rh_fail_drive(h, 0);
    rh_assert_vd_state(h, "degraded");
    rh_assert_drive_state(h, 4, "rebuild");
    rh_vd_check(h, 1000, 256, 31, false);
    rh_vd_check(h, r.vd_sectors - 256, 256, 32, false);
    rh_check_extents(h, 30);
    rh_stop(&r);
    rig_destroy(&r);
    unlink(fresh);
}

/* The RAID data path through either host interface (megaraid-raid-host.h) */
static const struct {
    const char *name;
    GTestDataFunc fn;
} host_tests[] = {
    { "levels", test_levels },
    { "data-path", test_data_path },
    { "degraded-rebuild", test_degraded_rebuild },
    { "media-error", test_media_error },
    { "persist", test_persist },
    { "foreign", test_foreign },
    { "offline", test_offline },
    { "pull-during-rebuild", test_pull_during_rebuild },
    { "stale-plan", test_stale_plan },
    { "error-burst", test_error_burst },
    { "rebuild-target-returns", test_rebuild_target_returns },
    { "copyback", test_copyback },
    { "timing-rebuild", test_timing_rebuild },
    { "timing-rate", test_timing_rate },
    { "timing-load", test_timing_load },
};

static void add_host_tests(const RaidHostOps *ops)
{
    if (!qtest_has_device(ops->device)) {
        g_test_message("%s not built", ops->device);
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(host_tests); i++) {
        g_autofree char *path = g_strdup_printf("/megaraid-raid/%s/%s",
                                                ops->name,
                                                host_tests[i].name);

        qtest_add_data_func(path, ops, host_tests[i].fn);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_host_tests(&mpi3_host_ops);
    add_host_tests(&fusion_host_ops);
    if (!qtest_has_device("megaraid-9600")) {
        g_test_message("megaraid-9600 not built");
        return g_test_run();
    }
    /* What only the MPI3 interface shows (events, Device Page 0, handles) */
    qtest_add_func("/megaraid-raid/import", test_import);
    qtest_add_func("/megaraid-raid/bad-journal", test_bad_journal);
    qtest_add_func("/megaraid-raid/visibility", test_visibility);
    qtest_add_func("/megaraid-raid/drive-handles", test_drive_handles);
    qtest_add_func("/megaraid-raid/timing-hold", test_timing_hold);
    return g_test_run();
}
