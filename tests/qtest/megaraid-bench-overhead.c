/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the request-overhead benchmark (issue 13).  Not a test:
 * built beside the qtests, run by scripts/bench-overhead.sh, prints
 * numbers and fails only when a reply is missing or wrong, never on
 * speed.  Owns the measurement: a batch of 4K READ(10) or WRITE(10)
 * requests prefilled in one large operational request queue, one
 * doorbell write, then a wait for the last reply descriptor; the time
 * per request is the batch's wall time divided by its size, so the qtest
 * socket's round trips (one doorbell, a poll every 50 us) are amortised
 * over the batch.  Beside the wall time it reports the CPU time QEMU's
 * main thread (where the device, the block layer's completions and the
 * qtest server run) used in the same interval, from /proc/PID/schedstat:
 * on a shared, busy host that moves less than the wall time.  Targets: a
 * JBOD drive on a null-co backend (read-zeroes=on: the device's own path
 * and the block layer, nothing else) and a RAID 5 VD over four image
 * files made with the DDF rig (the VD layer's path plus the members' file
 * I/O; put TMPDIR on tmpfs to keep the disk out).
 *
 * Environment: MRSIM_BENCH_N requests a batch (default 1000),
 * MRSIM_BENCH_REPS batches per line (default 15, median reported),
 * MRSIM_BENCH_ONLY "jbod" or "vd" for one target.
 */
#include "megaraid-rig.h"

#define OB_QN           4096    /* request and reply ring entries */
#define OB_BLOCKS       8       /* 4 KiB in 512-byte blocks */
#define OB_DT_SUCCESS   1

typedef struct Bench {
    MR *m;
    uint16_t handle;
    uint64_t sectors;           /* LBAs the batch spreads over */
    uint64_t posted;            /* replies consumed so far (ring position) */
} Bench;

/* CPU time in ns QEMU's main thread has run; -1 if unknown */
static int64_t main_thread_ns(MR *m)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/schedstat",
                                            (int)qtest_pid(m->qts));
    g_autofree char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        return -1;
    }
    return g_ascii_strtoll(text, NULL, 10);
}

static int env_int(const char *name, int def)
{
    const char *v = g_getenv(name);

    return v && atoi(v) > 0 ? atoi(v) : def;
}

/* Copy len bytes to ring entry idx onwards, wrapping at the ring's end. */
static void ring_write(MR *m, uint64_t ring, uint32_t esize, uint32_t idx,
                       const uint8_t *buf, uint32_t count)
{
    uint32_t first = MIN(count, OB_QN - idx);

    qtest_memwrite(m->qts, ring + (uint64_t)idx * esize, buf,
                   (size_t)first * esize);
    if (count > first) {
        qtest_memwrite(m->qts, ring, buf + (size_t)first * esize,
                       (size_t)(count - first) * esize);
    }
}

static void ring_read(MR *m, uint64_t ring, uint32_t esize, uint32_t idx,
                      uint8_t *buf, uint32_t count)
{
    uint32_t first = MIN(count, OB_QN - idx);

    qtest_memread(m->qts, ring + (uint64_t)idx * esize, buf,
                  (size_t)first * esize);
    if (count > first) {
        qtest_memread(m->qts, ring, buf + (size_t)first * esize,
                      (size_t)(count - first) * esize);
    }
}

/* The phase bit the device writes into reply number abs (from 0). */
static unsigned phase_of(uint64_t abs)
{
    return (abs / OB_QN) % 2 == 0;
}

/*
 * One batch of n requests: prefill, ring once, wait for the last reply.
 * Returns the wall time in ns between the doorbell write and the moment
 * the last reply was seen; checks every reply afterwards.
 */
static int64_t run_batch(Bench *b, bool write, uint32_t n, uint32_t salt,
                         int64_t *cpu)
{
    MR *m = b->m;
    g_autofree uint8_t *frames = g_malloc0((size_t)n * 128);
    g_autofree uint8_t *replies = g_malloc0((size_t)n * 16);
    g_autofree uint8_t *seen = g_malloc0(n + 1);
    uint32_t pi = m->oreq_pi, ci = m->orep_ci;
    uint64_t last = b->posted + n - 1;
    uint64_t slot_addr = m->orep + (uint64_t)(last % OB_QN) * 16;
    uint64_t slots = b->sectors / OB_BLOCKS;
    int64_t t0, t1, c0, c1;
    uint8_t raw[16];

    for (uint32_t i = 0; i < n; i++) {
        uint8_t *f = frames + (size_t)i * 128;
        uint64_t lba = ((uint64_t)(i + salt) * 2654435761u % slots) *
                       OB_BLOCKS;
        uint8_t cdb[10] = { write ? 0x2A : 0x28 };

        stl_be_p(cdb + 2, lba);
        stw_be_p(cdb + 7, OB_BLOCKS);
        h_scsi_frame(f, i + 1, b->handle, write ? DIR_WRITE : DIR_READ,
                     OB_BLOCKS * 512, cdb, sizeof(cdb));
        /* 16 buffers of 4 KiB in turn (their contents do not matter) */
        h_put_sge(f + 0x40, m->data + (i % 16) * 4096, OB_BLOCKS * 512,
                  0x08);
    }
    ring_write(m, m->oreq, 128, pi, frames, n);
    m->oreq_pi = (pi + n) % OB_QN;

    c0 = main_thread_ns(m);
    t0 = g_get_monotonic_time();
    h_wr(m, H_OREQ_PI(1), m->oreq_pi);
    for (int64_t spins = 0;; spins++) {
        qtest_memread(m->qts, slot_addr, raw, sizeof(raw));
        if ((lduw_le_p(raw + 14) & 1) == phase_of(last)) {
            break;
        }
        g_assert_cmpint(g_get_monotonic_time() - t0, <, 120 * G_USEC_PER_SEC);
        g_usleep(50);
    }
    t1 = g_get_monotonic_time();
    c1 = main_thread_ns(m);
    *cpu = c0 < 0 || c1 < 0 ? -1 : c1 - c0;

    /* every reply: SUCCESS, this batch's phase, each tag exactly once */
    ring_read(m, m->orep, 16, ci, replies, n);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *d = replies + (size_t)i * 16;
        uint16_t flags = lduw_le_p(d + 14);
        uint16_t tag = lduw_le_p(d + 12);

        g_assert_cmpuint(flags & 1, ==, phase_of(b->posted + i));
        g_assert_cmpuint(flags >> 12, ==, OB_DT_SUCCESS);
        g_assert_cmpuint(tag, >=, 1);
        g_assert_cmpuint(tag, <=, n);
        g_assert_false(seen[tag]);
        seen[tag] = 1;
    }
    b->posted += n;
    m->orep_ci = (ci + n) % OB_QN;
    h_wr(m, H_OREP_CI(1), m->orep_ci);
    return (t1 - t0) * 1000;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

static void bench_line(Bench *b, const char *name, bool write)
{
    uint32_t n = env_int("MRSIM_BENCH_N", 1000);
    int reps = env_int("MRSIM_BENCH_REPS", 15);
    g_autofree int64_t *t = g_new(int64_t, reps);
    g_autofree int64_t *c = g_new(int64_t, reps);
    int64_t dummy;
    double med;

    g_assert_cmpuint(n, <, OB_QN);
    run_batch(b, write, n, 7, &dummy);      /* warm-up, not counted */
    for (int r = 0; r < reps; r++) {
        t[r] = run_batch(b, write, n, r * 977, &c[r]);
    }
    qsort(t, reps, sizeof(*t), cmp_i64);
    qsort(c, reps, sizeof(*c), cmp_i64);
    med = (double)t[reps / 2] / n;
    printf("%-22s %-5s %5u x %2d  %7.0f ns/req  %7.0f req/s  "
           "(min %.0f, max %.0f)  main-thread CPU %.0f ns/req\n",
           name, write ? "write" : "read", n, reps, med, 1e9 / med,
           (double)t[0] / n, (double)t[reps - 1] / n,
           c[reps / 2] < 0 ? -1.0 : (double)c[reps / 2] / n);
    fflush(stdout);
}

/* Bring-up with OB_QN-entry operational rings and a 64 KiB data area. */
static MR *bench_start(const char *drives)
{
    MR *m = g_new0(MR, 1);

    m->oreq_n = OB_QN;
    m->orep_n = OB_QN;
    m->data_size = 64 * 1024;
    m->admin_ms = 10000;
    h_launch(m, NULL, drives);
    h_bringup(m);
    return m;
}

static void bench_jbod(void)
{
    Bench b = { 0 };

    b.m = bench_start("-blockdev driver=null-co,node-name=n0,size=1073741824,"
                      "read-zeroes=on "
                      "-device megaraid-drive,id=hd0,bus=raid0.0,slot=0,"
                      "drive=n0,interface=sas");
    g_assert_cmpint(b.m->nhandles, >=, 1);
    b.handle = b.m->handles[0];
    b.sectors = 1024 * 1024 * 1024 / 512;
    bench_line(&b, "jbod null-co", false);
    bench_line(&b, "jbod null-co", true);
    h_stop(b.m);
}

static void bench_vd(void)
{
    RigLayout l = {
        .n = 4, .nmem = 4, .settled = true,
        .spec = {
            .level = RAID_LEVEL_5,
            .name = "bench",
            .cache = RAID_CACHE_READ_ALLOWED,
        },
    };
    GString *cmd = g_string_new("");
    char *path[4];
    Bench b = { 0 };

    rig_tmp_paths(path, 4, "megaraid-bench");
    b.sectors = rig_write_ddf(path, &l, NULL);
    for (int i = 0; i < 4; i++) {
        g_string_append_printf(cmd, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=nvme ", i, path[i], i, i, i);
    }
    b.m = bench_start(cmd->str);
    g_string_free(cmd, true);
    b.handle = VD_HANDLE;
    bench_line(&b, "raid5 vd (files, wt)", false);
    bench_line(&b, "raid5 vd (files, wt)", true);
    h_stop(b.m);
    for (int i = 0; i < 4; i++) {
        unlink(path[i]);
        g_free(path[i]);
    }
}

int main(int argc, char **argv)
{
    const char *only = g_getenv("MRSIM_BENCH_ONLY");

    g_test_init(&argc, &argv, NULL);
    if (only && !*only) {
        only = NULL;
    }
    printf("host-side time per 4K request, doorbell to reply posted "
           "(batch median)\n");
    if (!only || !strcmp(only, "jbod")) {
        bench_jbod();
    }
    if (!only || !strcmp(only, "vd")) {
        bench_vd();
    }
    return 0;
}
