/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: hostile-input fuzzer of the megaraid-9600 MPI 3.0 host
 * interface, run as a qtest.  From a fixed seed it drives the device
 * through random sequences of actions: bring-up with mutated fields,
 * random and mutated admin frames (every function code, config pages,
 * NVMe encapsulated commands with wild PRPs and SGLs),
 * SCSI IO and task management frames with wild SGLs (guest RAM, the
 * device's own BAR, MMIO holes, beyond RAM, chains into chains), queue
 * indexes out of range, doorbell and register storms, message unit / soft
 * / diag-fault reset storms mid-flight, MSI-X vectors aimed at the
 * device's own registers, scribbles over the rings, drive hot unplug and
 * the fault injection properties.  After every batch QEMU must still
 * answer (a register read and a QMP query within a deadline, else the
 * test fails as a hang) and stay within a memory bound; a crash or an
 * assertion in QEMU fails the test through libqtest.
 *
 * CI runs MRSIM_FUZZ_ITERS (default 400) batches from MRSIM_FUZZ_SEED
 * (default 1) on each of MRSIM_FUZZ_RUNS (default 2) machines (every
 * second one a 9600-16e eHBA with the SAS transport personality and an
 * expander with a drive behind it); longer
 * by hand, e.g. on the ASan build:
 *   MRSIM_FUZZ_ITERS=20000 MRSIM_FUZZ_SEED=$RANDOM \
 *     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
 *     tests/qtest/megaraid-fuzz-test --tap
 * A failing seed and batch are printed so that the run can be replayed;
 * MRSIM_FUZZ_QEMU_ARGS adds QEMU arguments (e.g. -trace 'megaraid*_err_*').
 *
 * /megaraid-fuzz/corpus replays every qtest command stream (*.qtest) of
 * tests/qtest/megaraid-fuzz-corpus/ (or MRSIM_FUZZ_CORPUS) on a fresh
 * machine with the same command line, then runs the same liveness and
 * memory checks.  MRSIM_FUZZ_RECORD=DIR makes the generator keep QEMU's
 * qtest log of each run and cut it into one stream per batch (the
 * machine's set-up and bring-up, then that batch), with an index of what
 * each batch did: candidates for the corpus.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qobject/qdict.h"
#include "megaraid-harness.h"

#define FUZZ_BATCH          8       /* actions between liveness checks */
#define FUZZ_HANG_SECONDS   20
#define FUZZ_RSS_LIMIT_KB   (1536 * 1024)
/* record mode: a RAM read with no effect marks the end of a batch */
#define FUZZ_MARK_ADDR      0x7fff1
#define FUZZ_MARK_LINE      "readb 0x7fff1"

typedef struct Fuzz {
    HMR *m;
    GRand *rand;
    uint64_t wild[16];          /* addresses an SGL or ring may name */
    int nwild;
    uint64_t scratch;           /* guest RAM the frames may point into */
    uint16_t tag;
    bool unplugged;
    uint32_t replies[4];        /* consumed, by descriptor type / 4 */
} Fuzz;

static QTestState *fuzz_qts;
static uint32_t fuzz_seed;
static uint32_t fuzz_batch;
static const char *fuzz_file;   /* corpus file being replayed, or NULL */

static void fuzz_hang(int sig)
{
    static char msg[128];
    int n;

    if (fuzz_file) {
        n = snprintf(msg, sizeof(msg), "megaraid-fuzz: QEMU stopped "
                     "answering (corpus %s)\n", fuzz_file);
    } else {
        n = snprintf(msg, sizeof(msg), "megaraid-fuzz: QEMU stopped "
                     "answering (seed %u, batch %u)\n", fuzz_seed, fuzz_batch);
    }
    kill(qtest_pid(fuzz_qts), SIGKILL);
    if (write(2, msg, n) < 0) {
        /* nothing to do */
    }
    abort();
}

static uint32_t rnd(Fuzz *z, uint32_t n)
{
    return n ? g_rand_int_range(z->rand, 0, n) : 0;
}

static uint64_t rnd64(Fuzz *z)
{
    return (uint64_t)g_rand_int(z->rand) << 32 | g_rand_int(z->rand);
}

/* A value biased towards the boundaries where bugs live. */
static uint32_t rnd_edge(Fuzz *z)
{
    static const uint32_t edges[] = {
        0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511,
        512, 1023, 1024, 4095, 4096, 65535, 65536, 0x7fffffff, 0x80000000,
        0xfffffffe, 0xffffffff,
    };

    switch (rnd(z, 3)) {
    case 0:
        return edges[rnd(z, ARRAY_SIZE(edges))];
    case 1:
        return rnd(z, 300);
    }
    return g_rand_int(z->rand);
}

static uint64_t rnd_addr(Fuzz *z)
{
    switch (rnd(z, 4)) {
    case 0:
        return z->wild[rnd(z, z->nwild)] + rnd(z, 2) * rnd(z, 8192);
    case 1:
        return rnd64(z);
    }
    return z->scratch + rnd(z, 60 * 1024);
}

static void fill_sge(Fuzz *z, uint8_t *p)
{
    static const uint8_t flags[] = { 0x08, 0x00, 0x20, 0x30, 0x0a, 0xff };

    stq_le_p(p, rnd_addr(z));
    stl_le_p(p + 8, rnd(z, 2) ? rnd(z, 65536) : rnd_edge(z));
    p[15] = rnd(z, 3) ? flags[rnd(z, ARRAY_SIZE(flags))] : rnd(z, 256);
}

/* Flip, set or clear a few bytes of a frame. */
static void mutate(Fuzz *z, uint8_t *f, size_t len)
{
    int n = rnd(z, 4);

    for (int i = 0; i < n; i++) {
        size_t at = rnd(z, len);

        switch (rnd(z, 4)) {
        case 0:
            f[at] ^= 1 << rnd(z, 8);
            break;
        case 1:
            f[at] = rnd(z, 256);
            break;
        case 2:
            f[at] = 0xff;
            break;
        default:
            f[at] = 0;
            break;
        }
    }
}

static const uint8_t admin_functions[] = {
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
    0x0c, 0x0d, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x20, 0x21, 0x22,
    0x23, 0x24, 0x30, 0x31, 0x32, 0x70, 0x71, 0x72, 0x73, 0x80, 0xff,
};

/* NVMe opcodes: Flush, Write, Read / Get Log Page, Identify, unknown */
static const uint8_t nvme_ops[] = { 0x00, 0x01, 0x02, 0x06, 0x7f, 0xff };

static const uint8_t cdb_ops[] = {
    0x00, 0x03, 0x08, 0x0a, 0x12, 0x15, 0x1a, 0x1b, 0x1d, 0x25, 0x28,
    0x2a, 0x2e, 0x2f, 0x35, 0x41, 0x42, 0x4c, 0x4d, 0x55, 0x5a, 0x85,
    0x88, 0x8a, 0x8e, 0x8f, 0x91, 0x93, 0x9e, 0xa0, 0xa1, 0xa3, 0xa8,
    0xaa, 0xff,
};

static uint16_t some_handle(Fuzz *z)
{
    HMR *m = z->m;

    if (m->nhandles && rnd(z, 4)) {
        return m->handles[rnd(z, m->nhandles)];
    }
    return rnd(z, 2) ? rnd(z, 1100) : rnd_edge(z);
}

/* An admin frame: a random function with random, then edge, fields. */
static void act_admin(Fuzz *z)
{
    HMR *m = z->m;
    uint8_t f[128];

    for (size_t i = 0; i < sizeof(f); i++) {
        f[i] = rnd(z, 3) ? 0 : rnd(z, 256);
    }
    stw_le_p(f, z->tag++);
    /* one in six an NVMe encapsulated command: its PRP and SGL walks */
    f[3] = rnd(z, 6) ? admin_functions[rnd(z, ARRAY_SIZE(admin_functions))]
                     : 0x24;
    stw_le_p(f + 0x0A, rnd(z, 2) ? rnd_edge(z) : some_handle(z));
    switch (f[3]) {
    case 0x70: case 0x71: case 0x72: case 0x73:     /* queue create/delete */
        stw_le_p(f + 0x0C, rnd_edge(z));
        stw_le_p(f + 0x0E, rnd(z, 2) ? rnd(z, 6) : rnd_edge(z));
        stw_le_p(f + 0x10, rnd(z, 2) ? rnd(z, 6) : rnd_edge(z));
        stq_le_p(f + 0x18, rnd_addr(z));
        break;
    case 0x24:                  /* NVMe encapsulated: a shaped NVMe SQE */
        stw_le_p(f + 0x0A, some_handle(z));
        stw_le_p(f + 0x0C, rnd(z, 4) ? 64 : rnd_edge(z));
        stw_le_p(f + 0x0E, rnd(z, 4));
        f[0x20] = nvme_ops[rnd(z, ARRAY_SIZE(nvme_ops))];
        f[0x21] = rnd(z, 4) << 6;                   /* PSDT */
        stl_le_p(f + 0x24, rnd(z, 4) ? 1 : rnd_edge(z));       /* NSID */
        stq_le_p(f + 0x38, rnd_addr(z));            /* PRP1, SGL1 */
        stq_le_p(f + 0x40, rnd_addr(z));            /* PRP2 */
        if (rnd(z, 2)) {
            stl_le_p(f + 0x40, rnd(z, 2) ? rnd(z, 8) * 16 : rnd_edge(z));
            f[0x47] = rnd(z, 2) ? 0x30 : rnd(z, 256);   /* SGL1 type */
        }
        stl_le_p(f + 0x48, rnd(z, 2) ? rnd(z, 4) : rnd_edge(z));  /* CDW10 */
        stl_le_p(f + 0x50, rnd(z, 2) ? rnd(z, 300) : rnd_edge(z));
        break;
    default:
        fill_sge(z, f + 0x10 + 16 * rnd(z, 4));
        break;
    }
    mutate(z, f, sizeof(f));
    h_submit_admin(m, f, sizeof(f));
}

/* A SCSI IO frame with a random CDB and a wild SGL, maybe chained. */
static void act_scsi_io(Fuzz *z)
{
    HMR *m = z->m;
    uint8_t f[128] = { 0 };
    int nsge = 1 + rnd(z, 4);

    if (rnd(z, 2)) {
        /* a valid READ or WRITE, lightly mutated: reaches the media path */
        h_rw_frame(m, f, z->tag++, some_handle(z), rnd(z, 2), rnd(z, 2048),
                   1 + rnd(z, 64));
        h_put_sge(f + 0x40, z->scratch + 512 * rnd(z, 56), 32768, 0x08);
        if (rnd(z, 2)) {
            mutate(z, f, sizeof(f));
        }
        h_submit_op(m, f);
        return;
    }
    stw_le_p(f, z->tag++);
    f[3] = rnd(z, 8) ? 0x20 : 0x21;
    stw_le_p(f + 0x0A, some_handle(z));
    stl_le_p(f + 0x0C, rnd(z, 2) ? (rnd(z, 3) << 18) : rnd_edge(z));
    stl_le_p(f + 0x14, rnd(z, 2) ? rnd(z, 65536) : rnd_edge(z));
    if (rnd(z, 8) == 0) {
        f[0x08 + rnd(z, 8)] = rnd(z, 256);           /* LUN */
    }
    f[0x20] = cdb_ops[rnd(z, ARRAY_SIZE(cdb_ops))];
    for (int i = 1; i < 16; i++) {
        f[0x20 + i] = rnd(z, 2) ? 0 : rnd(z, 256);
    }
    if (rnd(z, 2)) {
        /* a small transfer near block 0 actually moves data */
        stl_be_p(f + 0x22, rnd(z, 64));
        stw_be_p(f + 0x27, rnd(z, 16));
    }
    for (int i = 0; i < nsge && i < 4; i++) {
        fill_sge(z, f + 0x40 + 16 * i);
    }
    if (rnd(z, 4) == 0) {
        /* a chain element into scratch, holding more wild elements */
        uint8_t chain[256];
        uint64_t at = z->scratch + 32 * 1024 + rnd(z, 16) * 256;

        for (int i = 0; i < 16; i++) {
            fill_sge(z, chain + 16 * i);
        }
        qtest_memwrite(m->qts, at, chain, sizeof(chain));
        h_put_sge(f + 0x40 + 16 * rnd(z, 4), rnd(z, 4) ? at : rnd_addr(z),
                  rnd(z, 2) ? 256 : rnd_edge(z), rnd(z, 2) ? 0x30 : 0x20);
    }
    mutate(z, f, sizeof(f));
    if (rnd(z, 6) == 0) {
        h_submit_admin(m, f, sizeof(f));
    } else {
        h_submit_op(m, f);
    }
}

/* Doorbells: producer and consumer indexes in and out of range. */
static void act_doorbells(Fuzz *z)
{
    HMR *m = z->m;
    int n = 1 + rnd(z, 64);

    for (int i = 0; i < n; i++) {
        uint32_t reg;

        switch (rnd(z, 4)) {
        case 0:
            reg = 0x1000 + 4 * rnd(z, 1024);
            break;
        case 1:
            reg = H_OREQ_PI(1) + 4 * rnd(z, 2);
            break;
        case 2:
            reg = rnd(z, 2) ? H_AREQ_PI : H_AREP_CI;
            break;
        default:
            reg = rnd(z, 2) ? H_RFREE_HOST : H_SFREE_HOST;
            break;
        }
        h_wr(m, reg, rnd(z, 3) ? rnd(z, 64) : rnd_edge(z));
    }
}

/* Any register of the system interface, any value (diag unlocks too). */
static void act_registers(Fuzz *z)
{
    HMR *m = z->m;
    int n = 1 + rnd(z, 8);

    for (int i = 0; i < n; i++) {
        uint32_t reg = 4 * rnd(z, 0x1D00 / 4);

        if (rnd(z, 4) == 0) {
            h_unlock_diag(m);
            reg = H_HOST_DIAG;
        }
        if (rnd(z, 2)) {
            h_rd(m, reg);
        } else {
            h_wr(m, reg, rnd_edge(z));
        }
    }
}

/* Resets mid-flight: MUR, soft reset, diag fault, then maybe bring-up. */
static void act_reset(Fuzz *z)
{
    HMR *m = z->m;

    switch (rnd(z, 3)) {
    case 0:
        h_wr(m, H_IOC_CONFIG, h_rd(m, H_IOC_CONFIG) & ~1u);
        break;
    case 1:
        h_soft_reset(m);
        break;
    default:
        h_unlock_diag(m);
        h_wr(m, H_HOST_DIAG, 0x700);
        break;
    }
    m->nhandles = 0;
}

/* A queue create frame (the harness's h_create_q waits for its reply). */
static void submit_create_q(HMR *m, bool reply, uint16_t qid, uint16_t size,
                            uint16_t arg, uint8_t flags, uint64_t base)
{
    uint8_t f[32];

    h_create_q_frame(f, reply, qid, size, arg, flags, base);
    h_submit_admin(m, f, sizeof(f));
}

/*
 * The real bring-up, some of it mutated (queues in odd places), without
 * waiting for any answer: the frames follow each other in the admin ring.
 */
static void act_bringup(Fuzz *z)
{
    HMR *m = z->m;
    uint8_t f[64];
    HDesc d;

    if (h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT)) {
        h_soft_reset(m);
    }
    if ((h_enable(m) & (H_ST_READY | H_ST_FAULT)) != H_ST_READY) {
        return;
    }
    h_ioc_init_frame(m, f);
    if (rnd(z, 4) == 0) {
        mutate(z, f, sizeof(f));
    }
    h_submit_admin(m, f, sizeof(f));
    h_post_free_queues(m);
    qtest_memset(m->qts, m->orep, 0, m->orep_n * 16);
    m->oreq_pi = 0;
    m->orep_ci = 0;
    m->orep_phase = true;
    submit_create_q(m, true, 1, m->orep_n, rnd(z, 4) ? 1 : rnd(z, 200),
                    rnd(z, 4) ? 0x01 : rnd(z, 256),
                    rnd(z, 8) ? m->orep : rnd_addr(z));
    submit_create_q(m, false, 1, m->oreq_n, 1, rnd(z, 8) ? 0 : 0x80, m->oreq);
    if (rnd(z, 4)) {
        submit_create_q(m, true, 2 + rnd(z, 3), 2 + rnd(z, 64), rnd(z, 6),
                        rnd(z, 256), rnd_addr(z));
    }
    h_event_notify_frame(f, NULL);
    h_submit_admin(m, f, 32);
    stw_le_p(f, 1);
    f[3] = 0x03;
    h_submit_admin(m, f, 12);
    m->nhandles = 0;
    for (int i = 0; i < 32 && h_admin_reply(m, &d, 100); i++) {
        if (d.tag == 0xFFFF && d.frame[0x11] == 0x07 && m->nhandles < 8) {
            m->handles[m->nhandles++] = lduw_le_p(d.frame + 0x18 + 0x08);
        }
    }
}

/* MSI-X vectors aimed at the device's own registers, or anywhere. */
static void act_msix(Fuzz *z)
{
    HMR *m = z->m;
    int v = rnd(z, 8);

    switch (rnd(z, 3)) {
    case 0:
        h_msix(m, v, m->bar0 + 4 * rnd(z, 0x1D00 / 4), rnd_edge(z));
        break;
    case 1:
        h_msix(m, v, rnd_addr(z), rnd_edge(z));
        break;
    default:
        h_msix(m, v, m->msi + 4 * v, v + 1);
        break;
    }
}

/* Scribble over the host's rings and free lists. */
static void act_scribble(Fuzz *z)
{
    HMR *m = z->m;
    uint64_t bases[] = { m->areq, m->arep, m->oreq, m->orep, m->rfree,
                         m->sfree };
    uint64_t at = bases[rnd(z, ARRAY_SIZE(bases))] + rnd(z, 1024);

    qtest_writeq(m->qts, at & ~7ull, rnd(z, 2) ? rnd64(z) : rnd_addr(z));
}

/* Consume replies (or not: the back pressure path), return frames. */
static void act_consume(Fuzz *z)
{
    HMR *m = z->m;
    HDesc d;
    int n = rnd(z, 40);

    for (int i = 0; i < n; i++) {
        if (!h_op_reply(m, &d, 0) && !h_admin_reply(m, &d, 0)) {
            break;
        }
        z->replies[d.type & 3]++;
    }
}

/* The fault injection properties and a drive pull, from QMP. */
static void act_qmp(Fuzz *z)
{
    HMR *m = z->m;
    QDict *r = NULL;
    g_autofree char *code = NULL;

    static const char *const counters[] = {
        "drop-admin-replies", "drop-tm-replies", "fault-ioc-init",
        "diag-save-ms",
    };

    switch (rnd(z, 10)) {
    case 0:
        code = g_strdup_printf("0x%x:0x%x", 1 + rnd(z, 0xfffe),
                               rnd_edge(z));
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "'inject-fault', 'value': %s}}", code);
        break;
    case 1:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "'inject-prepare-reset', 'value': true}}");
        break;
    case 2:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "'drop-replies', 'value': %u}}", rnd(z, 4));
        break;
    case 3:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/hd1', 'property': "
                      "'unresponsive', 'value': %i}}", rnd(z, 2));
        break;
    case 4:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/hd1', 'property': "
                      "'delay-ms', 'value': %u}}", rnd(z, 3) * 50);
        break;
    case 5:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/hd0', 'property': "
                      "'inject-status', 'value': %s}}",
                      rnd(z, 2) ? "busy:3" : "task-set-full:2");
        break;
    case 6:
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "%s, 'value': %u}}", counters[rnd(z, 4)], rnd(z, 3));
        break;
    case 7:
        code = g_strdup_printf("0x%x", rnd_edge(z) & 0xffff);
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "'inject-bad-host-tag', 'value': %s}}", code);
        break;
    case 8:
        /* a handle that may not exist, any status: refusals are fine */
        code = g_strdup_printf("%u:0x%x:0x%x:%u", 1 + rnd(z, 4),
                               rnd_edge(z) & 0x7fff, rnd_edge(z),
                               1 + rnd(z, 3));
        r = qtest_qmp(m->qts, "{'execute': 'qom-set', 'arguments': {"
                      "'path': '/machine/peripheral/raid0', 'property': "
                      "'inject-io-status', 'value': %s}}", code);
        break;
    default:
        if (!z->unplugged && rnd(z, 4) == 0) {
            z->unplugged = true;
            qtest_qmp_device_del_send(m->qts, "hd2");
        }
        break;
    }
    qobject_unref(r);
}

static long qemu_rss_kb(QTestState *qts)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status",
                                            (int)qtest_pid(qts));
    g_autofree char *text = NULL;
    const char *p;
    long kb = 0;

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        return 0;
    }
    p = strstr(text, "VmRSS:");
    if (p) {
        qemu_strtol(p + 6, &p, 10, &kb);
    }
    return kb;
}

/*
 * QEMU must answer a register read and a QMP query, within a deadline, and
 * stay under @rss_limit_kb of memory.
 */
static void check_alive_within(Fuzz *z, long rss_limit_kb)
{
    QDict *r;
    long rss;

    alarm(FUZZ_HANG_SECONDS);
    h_rd(z->m, H_IOC_STATUS);
    r = qtest_qmp(z->m->qts, "{'execute': 'query-status'}");
    g_assert(qdict_haskey(r, "return"));
    qobject_unref(r);
    alarm(0);
    rss = qemu_rss_kb(z->m->qts);
    if (rss > rss_limit_kb) {
        if (fuzz_file) {
            g_test_message("corpus %s: QEMU RSS %ld kB", fuzz_file, rss);
        } else {
            g_test_message("seed %u batch %u: QEMU RSS %ld kB", fuzz_seed,
                           fuzz_batch, rss);
        }
        g_assert_cmpint(rss, <=, rss_limit_kb);
    }
}

static void check_alive(Fuzz *z)
{
    check_alive_within(z, FUZZ_RSS_LIMIT_KB);
}

static uint32_t env_u32(const char *name, uint32_t dflt)
{
    const char *v = g_getenv(name);
    unsigned long n;

    if (!v || !*v) {
        return dflt;
    }
    g_assert_cmpint(qemu_strtoul(v, NULL, 0, &n), ==, 0);
    return n;
}

/*
 * The machine every run and every corpus stream gets: h_start's NVMe drive
 * on a file in slot 0 (device handle 1 once discovered), a SAS and a slow
 * SATA null-co drive, and @more.
 */
static char *fuzz_args(const char *more)
{
    return g_strdup_printf(
        "-blockdev driver=null-co,node-name=n1,size=67108864,read-zeroes=on "
        "-device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=n1,"
        "interface=sas "
        "-blockdev driver=null-co,node-name=n2,size=67108864,read-zeroes=on,"
        "latency-ns=2000000 "
        "-device megaraid-drive,id=hd2,bus=raid0.0,slot=2,drive=n2,"
        "interface=sata %s %s", g_getenv("MRSIM_FUZZ_QEMU_ARGS") ?: "",
        more);
}

static void fuzz_alarm_handler(void)
{
    struct sigaction sa = { 0 };

    sa.sa_handler = fuzz_hang;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
}

/* The commands QEMU received, from its qtest log ("[R +time] command"). */
static GPtrArray *qtest_log_commands(const char *path)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GPtrArray *cmds = g_ptr_array_new_with_free_func(g_free);

    g_assert(g_file_get_contents(path, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        const char *c = strstr(lines[i], "] ");

        if (g_str_has_prefix(lines[i], "[R +") && c &&
            !g_str_equal(c + 2, "endianness")) {
            g_ptr_array_add(cmds, g_strdup(c + 2));
        }
    }
    return cmds;
}

/*
 * Record mode: cut the run's qtest log at the batch markers into
 * DIR/seed-S-batch-NNNN.qtest, each the set-up (boot, bring-up) followed
 * by one batch.  QMP actions (fault injection, unplug) are not qtest
 * commands: the index counts them, the streams do not carry them.
 */
static void fuzz_split_log(const char *dir, const char *log, uint32_t seed,
                           GPtrArray *notes)
{
    g_autoptr(GPtrArray) cmds = qtest_log_commands(log);
    GString *setup = g_string_new("");
    GString *batch = g_string_new("");
    uint32_t b = 0;
    bool in_setup = true;

    for (guint i = 0; i < cmds->len; i++) {
        const char *c = g_ptr_array_index(cmds, i);

        if (!g_str_equal(c, FUZZ_MARK_LINE)) {
            g_string_append_printf(in_setup ? setup : batch, "%s\n", c);
            continue;
        }
        if (in_setup) {
            in_setup = false;
            continue;
        }
        if (b < notes->len) {
            g_autofree char *path = g_strdup_printf(
                "%s/seed-%u-batch-%04u.qtest", dir, seed, b);
            g_autofree char *text = g_strdup_printf(
                "# recorded by megaraid-fuzz-test, seed %u batch %u: %s\n"
                "# set-up and bring-up:\n%s# batch %u:\n%s",
                seed, b, (char *)g_ptr_array_index(notes, b), setup->str,
                b, batch->str);

            g_assert(g_file_set_contents(path, text, -1, NULL));
        }
        g_string_truncate(batch, 0);
        b++;
    }
    g_string_free(setup, true);
    g_string_free(batch, true);
}

static void fuzz_run(uint32_t seed, uint32_t iters, bool sas)
{
    const char *rec = g_getenv("MRSIM_FUZZ_RECORD");
    g_autofree char *log = rec ? g_strdup_printf("%s/seed-%u.log", rec, seed)
                               : NULL;
    g_autofree char *more = log ? g_strdup_printf("-qtest-log %s", log)
                                : g_strdup("");
    g_autofree char *base = fuzz_args(more);
    /*
     * Every second machine is an eHBA (sas-transport on by default) with
     * an expander and a drive behind it: the SAS pages, SES, SMP and the
     * controller's phy control take the same frames.
     */
    g_autofree char *args = sas ? g_strdup_printf(
        "%s -device megaraid-expander,id=ex1,controller=raid0,enclosure=1,"
        "port=8 -blockdev driver=null-co,node-name=n3,size=67108864,"
        "read-zeroes=on -device megaraid-drive,id=hd3,bus=raid0.0,"
        "enclosure=1,slot=0,drive=n3,interface=sas", base) : g_strdup(base);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    HMR *m = g_new0(HMR, 1);
    Fuzz z = { .tag = 0x100 };
    uint32_t counts[11] = { 0 };

    if (rec) {
        g_assert(g_mkdir_with_parents(rec, 0755) == 0);
    }
    h_launch_disk(m, sas ? ",model=9600-16e" : NULL, args);
    z.m = m;
    fuzz_seed = seed;
    fuzz_file = NULL;
    fuzz_qts = m->qts;
    fuzz_alarm_handler();
    z.rand = g_rand_new_with_seed(seed);
    z.scratch = h_alloc(m, 64 * 1024);
    z.wild[z.nwild++] = 0;
    z.wild[z.nwild++] = m->bar0;
    z.wild[z.nwild++] = m->bar0 + 0x1000;
    z.wild[z.nwild++] = (qpci_config_readl(m->dev, PCI_BASE_ADDRESS_2) &
                         ~0xfu) + m->dev->msix_table_off;
    z.wild[z.nwild++] = 0xfee00000;                 /* MSI window */
    z.wild[z.nwild++] = 0xfed00000;                 /* HPET */
    z.wild[z.nwild++] = 0x000a0000;                 /* VGA hole */
    z.wild[z.nwild++] = 0x08000000 - 4096;          /* end of 128 MiB RAM */
    z.wild[z.nwild++] = 0xfffff000;
    z.wild[z.nwild++] = 0xfffffffffffff000ull;
    z.wild[z.nwild++] = m->areq;
    z.wild[z.nwild++] = m->arep;
    z.wild[z.nwild++] = m->oreq;
    z.wild[z.nwild++] = m->frames;

    alarm(FUZZ_HANG_SECONDS);
    h_bringup(m);
    alarm(0);
    if (rec) {
        qtest_readb(m->qts, FUZZ_MARK_ADDR);
    }
    for (fuzz_batch = 0; fuzz_batch < iters; fuzz_batch++) {
        static const char *const kind_names[] = {
            "bringup", "admin", "scsi", "doorbells", "registers", "reset",
            "msix", "scribble", "consume", "qmp", "clock",
        };
        GString *note = g_string_new("");
        uint32_t seen[4];

        memcpy(seen, z.replies, sizeof(seen));
        for (int i = 0; i < FUZZ_BATCH; i++) {
            uint32_t a = rnd(&z, 100);
            int kind;

            alarm(FUZZ_HANG_SECONDS);
            if (a < 4) {
                kind = 0;
                act_bringup(&z);
            } else if (a < 22) {
                kind = 1;
                act_admin(&z);
            } else if (a < 52) {
                kind = 2;
                act_scsi_io(&z);
            } else if (a < 60) {
                kind = 3;
                act_doorbells(&z);
            } else if (a < 65) {
                kind = 4;
                act_registers(&z);
            } else if (a < 68) {
                kind = 5;
                act_reset(&z);
            } else if (a < 73) {
                kind = 6;
                act_msix(&z);
            } else if (a < 78) {
                kind = 7;
                act_scribble(&z);
            } else if (a < 95) {
                kind = 8;
                act_consume(&z);
            } else if (a < 98) {
                kind = 9;
                act_qmp(&z);
            } else {
                kind = 10;
                qtest_clock_step(m->qts, (1 + rnd(&z, 3000)) * 1000 * 1000ll);
            }
            counts[kind]++;
            g_string_append_printf(note, "%s%s", i ? " " : "",
                                   kind_names[kind]);
        }
        /* let timers (drive latency, fault phases) run */
        qtest_clock_step(m->qts, 10 * 1000 * 1000);
        check_alive(&z);
        /* mostly keep the IOC up, so that frames get past the front door */
        if ((!(h_rd(m, H_IOC_STATUS) & H_ST_READY) || !m->nhandles) &&
            rnd(&z, 4)) {
            alarm(FUZZ_HANG_SECONDS);
            act_bringup(&z);
            alarm(0);
        }
        if (rec) {
            g_string_append_printf(note, "; replies address %u success %u "
                                   "status %u; IOC status 0x%x",
                                   z.replies[0] - seen[0],
                                   z.replies[1] - seen[1],
                                   z.replies[3] - seen[3],
                                   h_rd(m, H_IOC_STATUS));
            qtest_readb(m->qts, FUZZ_MARK_ADDR);
        }
        g_ptr_array_add(notes, g_string_free(note, false));
    }
    g_test_message("seed %u: %u batches; bringup %u admin %u scsi %u "
                   "doorbells %u registers %u resets %u msix %u scribbles %u "
                   "consume %u qmp %u clock %u; replies seen: address %u "
                   "success %u status %u other %u", seed, iters, counts[0],
                   counts[1], counts[2], counts[3], counts[4], counts[5],
                   counts[6], counts[7], counts[8], counts[9], counts[10],
                   z.replies[0], z.replies[1], z.replies[3], z.replies[2]);
    g_rand_free(z.rand);
    /* QEMU exits cleanly after all of it */
    h_stop(m);
    if (rec) {
        g_autofree char *index = g_strdup_printf("%s/seed-%u.index", rec,
                                                 seed);
        GString *text = g_string_new("");

        for (guint b = 0; b < notes->len; b++) {
            g_string_append_printf(text, "%u: %s\n", b,
                                   (char *)g_ptr_array_index(notes, b));
        }
        g_assert(g_file_set_contents(index, text->str, -1, NULL));
        g_string_free(text, true);
        fuzz_split_log(rec, log, seed, notes);
    }
}

static void test_fuzz(void)
{
    uint32_t seed = env_u32("MRSIM_FUZZ_SEED", 1);
    uint32_t iters = env_u32("MRSIM_FUZZ_ITERS", 400);
    uint32_t runs = env_u32("MRSIM_FUZZ_RUNS", 2);

    for (uint32_t r = 0; r < runs; r++) {
        fuzz_run(seed + r, iters, r % 2);
    }
}

static uint64_t num(const char *file, int line, const char *w)
{
    uint64_t v;

    if (!w || qemu_strtou64(w, NULL, 0, &v) < 0) {
        g_test_message("%s:%d: bad number '%s'", file, line, w ?: "");
        g_assert_not_reached();
    }
    return v;
}

/*
 * One line of a qtest command stream, as the libqtest call that sends it.
 * The stream format is QEMU's qtest protocol (what -qtest-log records):
 * port and MMIO accesses, guest memory reads, writes and fills, and
 * virtual clock steps.
 */
static void replay_line(QTestState *qts, const char *file, int line,
                        const char *text)
{
    g_auto(GStrv) w = g_strsplit_set(text, " \t", -1);
    int n = g_strv_length(w);
    const char *op = w[0];
    uint64_t a, v;

    if (g_str_equal(op, "endianness") || g_str_has_prefix(op, "irq_")) {
        /* libqtest's start-up; h_start has done it on this machine */
        return;
    }
    a = n > 1 ? num(file, line, w[1]) : 0;
    v = n > 2 ? num(file, line, w[2]) : 0;
    if (n == 2 && g_str_equal(op, "inb")) {
        qtest_inb(qts, a);
    } else if (n == 2 && g_str_equal(op, "inw")) {
        qtest_inw(qts, a);
    } else if (n == 2 && g_str_equal(op, "inl")) {
        qtest_inl(qts, a);
    } else if (n == 3 && g_str_equal(op, "outb")) {
        qtest_outb(qts, a, v);
    } else if (n == 3 && g_str_equal(op, "outw")) {
        qtest_outw(qts, a, v);
    } else if (n == 3 && g_str_equal(op, "outl")) {
        qtest_outl(qts, a, v);
    } else if (n == 2 && g_str_equal(op, "readb")) {
        qtest_readb(qts, a);
    } else if (n == 2 && g_str_equal(op, "readw")) {
        qtest_readw(qts, a);
    } else if (n == 2 && g_str_equal(op, "readl")) {
        qtest_readl(qts, a);
    } else if (n == 2 && g_str_equal(op, "readq")) {
        qtest_readq(qts, a);
    } else if (n == 3 && g_str_equal(op, "writeb")) {
        qtest_writeb(qts, a, v);
    } else if (n == 3 && g_str_equal(op, "writew")) {
        qtest_writew(qts, a, v);
    } else if (n == 3 && g_str_equal(op, "writel")) {
        qtest_writel(qts, a, v);
    } else if (n == 3 && g_str_equal(op, "writeq")) {
        qtest_writeq(qts, a, v);
    } else if (n == 3 && v <= 1024 * 1024 &&
               (g_str_equal(op, "read") || g_str_equal(op, "b64read"))) {
        g_autofree uint8_t *buf = g_malloc(v ?: 1);

        if (v && op[0] == 'r') {
            qtest_memread(qts, a, buf, v);
        } else if (v) {
            qtest_bufread(qts, a, buf, v);
        }
    } else if (n == 4 && g_str_equal(op, "write") &&
               g_str_has_prefix(w[3], "0x") &&
               strlen(w[3]) == 2 + 2 * v && v <= 1024 * 1024) {
        g_autofree uint8_t *buf = g_malloc(v ?: 1);

        for (uint64_t i = 0; i < v; i++) {
            int hi = g_ascii_xdigit_value(w[3][2 + 2 * i]);
            int lo = g_ascii_xdigit_value(w[3][3 + 2 * i]);

            if (hi < 0 || lo < 0) {
                g_test_message("%s:%d: bad hex data", file, line);
                g_assert_not_reached();
            }
            buf[i] = hi << 4 | lo;
        }
        if (v) {
            qtest_memwrite(qts, a, buf, v);
        }
    } else if (n == 4 && g_str_equal(op, "b64write")) {
        gsize len;
        g_autofree uint8_t *buf = g_base64_decode(w[3], &len);

        if (len < v) {
            g_test_message("%s:%d: b64write data shorter than %" PRIu64,
                           file, line, v);
            g_assert_not_reached();
        }
        if (v) {
            qtest_bufwrite(qts, a, buf, v);
        }
    } else if (n == 4 && g_str_equal(op, "memset") && v <= 64 * 1024 * 1024) {
        qtest_memset(qts, a, num(file, line, w[3]), v);
    } else if (n == 1 && g_str_equal(op, "clock_step")) {
        qtest_clock_step_next(qts);
    } else if (n == 2 && g_str_equal(op, "clock_step")) {
        qtest_clock_step(qts, a);
    } else {
        g_test_message("%s:%d: cannot replay '%s'", file, line, text);
        g_assert_not_reached();
    }
}

static char *corpus_dir(void)
{
    g_autofree char *src = NULL;
    g_autofree char *dir = NULL;
    const char *env = g_getenv("MRSIM_FUZZ_CORPUS");

    if (env && *env) {
        return g_strdup(env);
    }
    /* this file is a link from QEMU's tree into the project's */
    src = realpath(__FILE__, NULL);
    dir = g_path_get_dirname(src ?: __FILE__);
    return g_build_filename(dir, "megaraid-fuzz-corpus", NULL);
}

/* Replay one corpus stream on a fresh machine, then check it lives. */
static void replay_file(const char *path)
{
    g_autofree char *args = fuzz_args("");
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    HMR *m;
    Fuzz z = { 0 };
    int cmds = 0;
    long rss_limit_kb = FUZZ_RSS_LIMIT_KB;

    g_assert(g_file_get_contents(path, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    m = h_start(args);
    z.m = m;
    fuzz_qts = m->qts;
    fuzz_file = path;
    fuzz_alarm_handler();
    for (int i = 0; lines[i]; i++) {
        g_strstrip(lines[i]);
        if (g_str_has_prefix(lines[i], "# rss-limit-mb:")) {
            /* a tighter memory bound for this stream */
            rss_limit_kb = 1024 * num(path, i + 1, g_strstrip(lines[i] + 15));
        }
        if (!lines[i][0] || lines[i][0] == '#') {
            continue;
        }
        alarm(FUZZ_HANG_SECONDS);
        replay_line(m->qts, path, i + 1, lines[i]);
        cmds++;
    }
    alarm(0);
    g_assert_cmpint(cmds, >, 0);
    qtest_clock_step(m->qts, 10 * 1000 * 1000);
    check_alive_within(&z, rss_limit_kb);
    h_stop(m);
    fuzz_file = NULL;
    g_test_message("corpus %s: %d commands, QEMU alive", path, cmds);
}

static gint cmp_names(gconstpointer a, gconstpointer b)
{
    return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

static void test_corpus(void)
{
    g_autofree char *dir = corpus_dir();
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;

    if (!d) {
        g_test_message("corpus directory %s missing", dir);
        g_assert_nonnull(d);
    }
    while ((name = g_dir_read_name(d))) {
        if (g_str_has_suffix(name, ".qtest")) {
            g_ptr_array_add(files, g_build_filename(dir, name, NULL));
        }
    }
    g_dir_close(d);
    g_ptr_array_sort(files, cmp_names);
    if (!files->len) {
        g_test_message("corpus directory %s holds no *.qtest", dir);
    }
    g_assert_cmpint(files->len, >, 0);
    for (guint i = 0; i < files->len; i++) {
        replay_file(g_ptr_array_index(files, i));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-fuzz/mpi3", test_fuzz);
    qtest_add_func("/megaraid-fuzz/corpus", test_corpus);
    return g_test_run();
}
