/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: hostile-input fuzzer of the megaraid-9600 MPI 3.0 host
 * interface, run as a qtest.  From a fixed seed it drives the device
 * through random sequences of actions: bring-up with mutated fields,
 * random and mutated admin frames (every function code, config pages),
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
 * (default 1) on each of MRSIM_FUZZ_RUNS (default 2) machines; longer
 * by hand, e.g. on the ASan build:
 *   MRSIM_FUZZ_ITERS=20000 MRSIM_FUZZ_SEED=$RANDOM \
 *     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
 *     tests/qtest/megaraid-fuzz-test --tap
 * A failing seed and batch are printed so that the run can be replayed;
 * MRSIM_FUZZ_QEMU_ARGS adds QEMU arguments (e.g. -trace 'megaraid_err_*').
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qobject/qdict.h"
#include "megaraid-harness.h"

#define FUZZ_BATCH          8       /* actions between liveness checks */
#define FUZZ_HANG_SECONDS   20
#define FUZZ_RSS_LIMIT_KB   (1536 * 1024)

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

static void fuzz_hang(int sig)
{
    static char msg[128];
    int n;

    n = snprintf(msg, sizeof(msg), "megaraid-fuzz: QEMU stopped answering "
                 "(seed %u, batch %u)\n", fuzz_seed, fuzz_batch);
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
    f[3] = admin_functions[rnd(z, ARRAY_SIZE(admin_functions))];
    stw_le_p(f + 0x0A, rnd(z, 2) ? rnd_edge(z) : some_handle(z));
    switch (f[3]) {
    case 0x70: case 0x71: case 0x72: case 0x73:     /* queue create/delete */
        stw_le_p(f + 0x0C, rnd_edge(z));
        stw_le_p(f + 0x0E, rnd(z, 2) ? rnd(z, 6) : rnd_edge(z));
        stw_le_p(f + 0x10, rnd(z, 2) ? rnd(z, 6) : rnd_edge(z));
        stq_le_p(f + 0x18, rnd_addr(z));
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

    switch (rnd(z, 7)) {
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

/* QEMU must answer a register read and a QMP query, within a deadline. */
static void check_alive(Fuzz *z)
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
    if (rss > FUZZ_RSS_LIMIT_KB) {
        g_test_message("seed %u batch %u: QEMU RSS %ld kB", fuzz_seed,
                       fuzz_batch, rss);
        g_assert_cmpint(rss, <=, FUZZ_RSS_LIMIT_KB);
    }
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

static void fuzz_run(uint32_t seed, uint32_t iters)
{
    g_autofree char *args = g_strdup_printf(
        "-blockdev driver=null-co,node-name=n1,size=67108864,read-zeroes=on "
        "-device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=n1,"
        "interface=sas "
        "-blockdev driver=null-co,node-name=n2,size=67108864,read-zeroes=on,"
        "latency-ns=2000000 "
        "-device megaraid-drive,id=hd2,bus=raid0.0,slot=2,drive=n2,"
        "interface=sata %s", g_getenv("MRSIM_FUZZ_QEMU_ARGS") ?: "");
    HMR *m = h_start(args);
    Fuzz z = { .m = m, .tag = 0x100 };
    struct sigaction sa = { 0 };
    uint32_t counts[11] = { 0 };

    fuzz_seed = seed;
    fuzz_qts = m->qts;
    sa.sa_handler = fuzz_hang;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
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
    for (fuzz_batch = 0; fuzz_batch < iters; fuzz_batch++) {
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
}

static void test_fuzz(void)
{
    uint32_t seed = env_u32("MRSIM_FUZZ_SEED", 1);
    uint32_t iters = env_u32("MRSIM_FUZZ_ITERS", 400);
    uint32_t runs = env_u32("MRSIM_FUZZ_RUNS", 2);

    for (uint32_t r = 0; r < runs; r++) {
        fuzz_run(seed + r, iters);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-fuzz/mpi3", test_fuzz);
    return g_test_run();
}
