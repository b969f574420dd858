/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the DDF metadata writes of megaraid-9600 on a
 * slow drive.  Two RAID 1 VDs on four images; one member of the first is
 * throttled to one write per 200 ms (block_set_io_throttle, which under
 * qtest runs on QEMU_CLOCK_VIRTUAL: its writes only progress when the
 * test steps the clock), the other member fails (qom-set state offline).
 * While the survivors' metadata is being written, QMP answers and the
 * second VD's I/O completes within 50 ms; once the clock has run, the
 * degraded state is on the drives and a restart imports it.
 */
#include "qemu/osdep.h"
#include <signal.h>
#include "megaraid-rig.h"

#define META_DRIVES     4
#define VD1_HANDLE      (VD_HANDLE + 1)
#define QUICK_US        (50 * 1000)     /* the bound on every answer */

static QTestState *hang_qts;

/* The main loop stopped answering (the metadata write blocks it): fail. */
static void meta_hang_alarm(int sig)
{
    static const char msg[] = "QEMU stopped answering while it wrote or "
                              "read DDF metadata: main loop blocked\n";

    if (hang_qts) {
        kill(qtest_pid(hang_qts), SIGKILL);
    }
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing to do */
    }
    abort();
}

/* Two RAID 1 VDs: drives 0+1 (VD 0) and 2+3 (VD 1), both settled. */
static void meta_write_images(Rig *r)
{
    uint8_t guid[RAID_GUID_LEN];
    RaidVdSpec spec = {
        .level = RAID_LEVEL_1,
        .strip = STRIP_SECTORS,
        .cache = RAID_CACHE_READ_ALLOWED,
    };
    GError *err = NULL;
    RaidConfig *cfg;

    memset(r, 0, sizeof(*r));
    r->n = META_DRIVES;
    rig_tmp_paths(r->path, r->n, "megaraid-meta");
    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     QTESTHDR", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    for (int i = 0; i < r->n; i++) {
        int fd = open(r->path[i], O_RDWR | O_TRUNC);

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, DRIVE_BYTES) == 0);
        close(fd);
        memcpy(guid, "LSI     QTESTPD ", 16);
        stl_be_p(guid + 16, g_random_int());
        stl_be_p(guid + 20, i);
        g_assert_cmpint(raid_config_add_pd(cfg, guid, i, DRIVE_BYTES / 512,
                                           &err), ==, i);
        cfg->pds[i].path = g_strdup(r->path[i]);
    }
    for (int v = 0; v < 2; v++) {
        int members[2] = { 2 * v, 2 * v + 1 };

        spec.name = v ? "other" : "busy";
        g_assert_cmpint(raid_config_create_vd(cfg, members, 2, &spec, &err),
                        ==, v);
        g_assert_no_error(err);
        cfg->vds[v].initialized = true;
        cfg->vds[v].consistent = true;
    }
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    r->vd_sectors = cfg->vds[1].size;
    raid_config_free(cfg);
}

/*
 * The sequence number of the configuration image @i holds, as the import
 * counts it: a copy still open (being written) counts as the one before.
 */
static uint32_t meta_image_seq(Rig *r, int i)
{
    DdfDriveRead rd;
    GError *err = NULL;
    uint64_t bytes = 0;
    uint32_t seq;
    int fd = open(r->path[i], O_RDONLY);

    g_assert(fd >= 0);
    g_assert_true(ddf_file_size(fd, &bytes, &err));
    g_assert_true(ddf_read_drive(fd, bytes, &rd, &err));
    g_assert_no_error(err);
    close(fd);
    seq = rd.meta->seq - (rd.meta->open_flag ? 1 : 0);
    ddf_drive_read_clear(&rd);
    return seq;
}

static bool meta_pending(MR *m)
{
    QDict *rsp = qts_qom_get(m->qts, CTRL, "metadata-pending");
    bool busy = qdict_get_bool(rsp, "return");

    qobject_unref(rsp);
    return busy;
}

/* Run the virtual clock until no metadata write is pending. */
static void meta_settle(MR *m)
{
    for (int i = 0; i < 400 && meta_pending(m); i++) {
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        g_usleep(1000);
    }
    g_assert_false(meta_pending(m));
}

/* One QMP round trip: how long it took, in microseconds. */
static int64_t meta_qmp_us(MR *m)
{
    int64_t t0 = g_get_monotonic_time();
    g_autofree char *s = qom_get_str(m, "/machine/peripheral/hd2", "state");

    g_assert_cmpstr(s, ==, "online");
    return g_get_monotonic_time() - t0;
}

/* READ(10) / WRITE(10) of @blocks at @lba on the device @handle. */
static IoRes meta_rw(MR *m, uint16_t handle, bool write, uint64_t lba,
                     uint32_t blocks)
{
    uint8_t cdb[16];
    size_t n = rh_rw_cdb(cdb, write, false, lba, blocks);

    return scsi_cmd(m, handle, cdb, n, write ? DIR_WRITE : DIR_READ,
                    blocks * 512);
}

/* A 64 KiB write and read back on VD 1: how long both took. */
static int64_t meta_vd1_io_us(MR *m, uint64_t lba, uint8_t seed)
{
    g_autofree uint8_t *want = g_malloc(128 * 512);
    g_autofree uint8_t *got = g_malloc(128 * 512);
    int64_t t0 = g_get_monotonic_time();
    IoRes res;

    pattern(want, lba, 128, seed);
    qtest_bufwrite(m->qts, m->data, want, 128 * 512);
    res = meta_rw(m, VD1_HANDLE, true, lba, 128);
    g_assert_cmphex(res.ioc, ==, 0);
    g_assert_cmphex(res.status, ==, 0);
    qtest_memset(m->qts, m->data, 0xA5, 128 * 512);
    res = meta_rw(m, VD1_HANDLE, false, lba, 128);
    g_assert_cmphex(res.ioc, ==, 0);
    g_assert_cmphex(res.status, ==, 0);
    t0 = g_get_monotonic_time() - t0;
    qtest_bufread(m->qts, m->data, got, 128 * 512);
    g_assert_cmpmem(got, 128 * 512, want, 128 * 512);
    return t0;
}

static void test_throttled_fail(void)
{
    struct sigaction sa = { 0 };
    g_autofree char *st = NULL;
    uint32_t seq0, seq_failed;
    int64_t us, worst = 0;
    Rig r;
    MR *m;

    meta_write_images(&r);
    sa.sa_handler = meta_hang_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(60);
    m = mr_start(&r, NULL);
    hang_qts = m->qts;
    /* the import's own write lands first, unthrottled */
    meta_settle(m);
    assert_vd_state(m, "optimal");
    seq0 = meta_image_seq(&r, 1);
    g_assert_cmpuint(meta_image_seq(&r, 0), ==, seq0);

    /* drive 1 now takes one write per 200 ms (of the virtual clock) */
    qts_throttle_writes(m->qts, "hd1", 5);

    /* Fail drive 0: the survivors' metadata must be written. */
    alarm(20);
    us = g_get_monotonic_time();
    fail_drive(m, 0);
    us = g_get_monotonic_time() - us;
    g_test_message("qom-set state offline answered in %" PRId64 " us", us);
    g_assert_cmpint(us, <, QUICK_US);
    assert_vd_state(m, "degraded");
    g_assert_true(meta_pending(m));

    /* While drive 1's writes wait: QMP and VD 1 answer at once. */
    for (int i = 0; i < 10; i++) {
        worst = MAX(worst, meta_qmp_us(m));
        worst = MAX(worst, meta_vd1_io_us(m, 1000 + 256 * i, i));
    }
    g_test_message("slowest QMP or VD 1 I/O while writing: %" PRId64 " us",
                   worst);
    g_assert_cmpint(worst, <, QUICK_US);
    g_assert_true(meta_pending(m));
    g_assert_cmpuint(meta_image_seq(&r, 1), ==, seq0);
    alarm(0);

    /* The clock runs: the metadata lands; the failed drive is left alone. */
    meta_settle(m);
    seq_failed = meta_image_seq(&r, 1);
    g_assert_cmpuint(seq_failed, >, seq0);
    g_assert_cmpuint(meta_image_seq(&r, 2), ==, seq_failed);
    g_assert_cmpuint(meta_image_seq(&r, 3), ==, seq_failed);
    g_assert_cmpuint(meta_image_seq(&r, 0), ==, seq0);
    {
        RaidConfig *cfg = rig_load(&r);

        g_assert_cmpuint(cfg->seq, >=, seq_failed);
        g_assert_cmpint(cfg->pds[0].state, ==, RAID_PD_OFFLINE);
        g_assert_cmpint(cfg->vds[0].state, ==, RAID_VD_DEGRADED);
        g_assert_cmpint(cfg->vds[1].state, ==, RAID_VD_OPTIMAL);
        raid_config_free(cfg);
    }
    /* (QEMU's exit writes the metadata once more: not at a frozen clock) */
    qts_throttle_writes(m->qts, "hd1", 0);
    hang_qts = NULL;
    mr_stop(&r);

    /* A restart imports the degraded state. */
    m = mr_start(&r, NULL);
    meta_settle(m);
    assert_vd_state(m, "degraded");
    assert_drive_state(m, 0, "offline");
    assert_drive_state(m, 1, "online");
    st = qom_get_str(m, CTRL, "vd1-state");
    g_assert_cmpstr(st, ==, "optimal");
    mr_stop(&r);
    rig_destroy(&r);
}

/* Another controller's configuration on @path: one drive, a hot spare. */
static void meta_write_foreign(const char *path)
{
    uint8_t guid[RAID_GUID_LEN];
    GError *err = NULL;
    RaidConfig *cfg;
    int fd = open(path, O_RDWR | O_TRUNC);

    g_assert(fd >= 0);
    g_assert(ftruncate(fd, DRIVE_BYTES) == 0);
    close(fd);
    memcpy(guid, "LSI     MRSIMOTHERCTRL01", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     QTESTHDR", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    memcpy(guid, "LSI     QTESTFOREIGN", 20);
    stl_be_p(guid + 20, g_random_int());
    g_assert_cmpint(raid_config_add_pd(cfg, guid, 0, DRIVE_BYTES / 512,
                                       &err), ==, 0);
    g_assert_no_error(err);
    cfg->pds[0].path = g_strdup(path);
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    raid_config_free(cfg);
}

/*
 * Hot plug the image @path in @slot behind the throttle group "slowrd"
 * (one read per 200 ms of the virtual clock): QMP and VD 1 answer at once
 * while its metadata is read, the host hears nothing of it until then,
 * and then it comes (DEVICE ADDED) @hidden or not, with QOM state @state.
 */
static void meta_plug_slow(MR *m, const char *path, int slot, bool hidden,
                           const char *state)
{
    g_autofree char *node = g_strdup_printf("slow%d", slot);
    g_autofree char *id = g_strdup_printf("hp%d", slot);
    g_autofree char *qom = g_strdup_printf("/machine/peripheral/%s", id);
    g_autofree char *st = NULL;
    const uint16_t handle = 1 + slot;
    const uint8_t *pg;
    int64_t us, worst = 0;
    QDict *rsp;

    rsp = qtest_qmp(m->qts, "{'execute': 'blockdev-add', 'arguments': "
                    "{'driver': 'throttle', 'node-name': %s, "
                    "'throttle-group': 'slowrd', 'file': {'driver': 'raw',"
                    " 'file': {'driver': 'file', 'filename': %s}}}}",
                    node, path);
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);

    alarm(20);
    us = g_get_monotonic_time();
    qtest_qmp_device_add(m->qts, "megaraid-drive", id,
                         "{'bus': 'raid0.0', 'slot': %d, 'drive': %s, "
                         "'interface': 'nvme'}", slot, node);
    us = g_get_monotonic_time() - us;
    g_test_message("device_add of slot %d answered in %" PRId64 " us",
                   slot, us);
    g_assert_cmpint(us, <, QUICK_US);
    for (int i = 0; i < 5; i++) {
        int64_t t0 = g_get_monotonic_time();

        g_free(st);
        st = qom_get_str(m, qom, "state");
        g_assert_cmpstr(st, ==, "pending");
        worst = MAX(worst, g_get_monotonic_time() - t0);
        worst = MAX(worst, meta_qmp_us(m));
        worst = MAX(worst, meta_vd1_io_us(m, 3000 + 256 * i, i));
    }
    g_test_message("slowest QMP or VD 1 I/O while reading: %" PRId64 " us",
                   worst);
    g_assert_cmpint(worst, <, QUICK_US);
    mr_pump_events(m, 50);
    g_assert_null(mr_last_page(m, handle, EV_DEVICE_ADDED));
    alarm(0);

    /* the clock runs: the metadata is read, the drive takes its place */
    for (int i = 0; i < 100; i++) {
        g_free(st);
        st = qom_get_str(m, qom, "state");
        if (strcmp(st, "pending")) {
            break;
        }
        qtest_clock_step(m->qts, 100 * 1000 * 1000);
        g_usleep(1000);
    }
    g_assert_cmpstr(st, ==, state);
    mr_pump_events(m, 100);
    pg = mr_last_page(m, handle, EV_DEVICE_ADDED);
    g_assert_nonnull(pg);
    g_assert_cmpint(!!(lduw_le_p(pg + PG0_FLAGS) & PG0_FLAG_HIDDEN), ==,
                    hidden);
}

/*
 * A drive hot-plugged while running, its reads throttled: the main loop
 * does not wait for its metadata.  A foreign drive ends hidden, a blank
 * one unconfigured good and visible.
 */
static void test_hotplug_read(void)
{
    struct sigaction sa = { 0 };
    char *extra[2];
    QDict *rsp;
    Rig r;
    MR *m;

    meta_write_images(&r);
    rig_tmp_paths(extra, 2, "megaraid-meta-hp");
    meta_write_foreign(extra[0]);
    g_assert(truncate(extra[1], DRIVE_BYTES) == 0);
    sa.sa_handler = meta_hang_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    m = mr_start(&r, NULL);
    hang_qts = m->qts;
    meta_settle(m);
    mr_pump_events(m, 100);
    rsp = qtest_qmp(m->qts, "{'execute': 'object-add', 'arguments': "
                    "{'qom-type': 'throttle-group', 'id': 'slowrd', "
                    "'limits': {'iops-read': 5}}}");
    g_assert_true(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);

    meta_plug_slow(m, extra[0], 4, true, "unconfigured-good");
    meta_plug_slow(m, extra[1], 5, false, "unconfigured-good");

    hang_qts = NULL;
    mr_stop(&r);
    rig_destroy(&r);
    for (int i = 0; i < 2; i++) {
        unlink(extra[i]);
        g_free(extra[i]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-meta/throttled-fail", test_throttled_fail);
    qtest_add_func("/megaraid-meta/hotplug-read", test_hotplug_read);
    return g_test_run();
}
