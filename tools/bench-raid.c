/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Benchmark of the RAID core's data path (prints numbers, never fails):
 * P and P+Q generation and two-strip recovery per core, ISA-L through the
 * core, raw ISA-L and the reference; plan + execute throughput on image
 * files for full-stripe writes and read-modify-write.
 *
 *   bench-raid [seconds-per-case (default 0.3)]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <isa-l/raid.h>
#include "raid/raid.h"

static double budget = 0.3;

typedef void BenchFn(void *opaque);

/*
 * CPU time of this thread (user + system): the machine is shared, so
 * rates are per CPU-second, i.e. per core, not per wall-clock second.
 */
static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run fn until the budget of CPU time is used; returns calls per second. */
static double rate(BenchFn *fn, void *opaque)
{
    double start = cpu_now(), now;
    unsigned long n = 0;

    do {
        fn(opaque);
        n++;
        now = cpu_now();
    } while (now - start < budget);
    return n / (now - start);
}

typedef struct Gen {
    RaidStripeBufs b;
    size_t len;
    RaidParityImpl impl;
    void *raw[RAID_PARITY_MAX_DATA + 2];
    int miss_a, miss_b;
} Gen;

static void do_gen(void *o)
{
    Gen *g = o;

    raid_parity_gen(g->impl, &g->b, g->len);
}

static void do_raw_pq(void *o)
{
    Gen *g = o;

    pq_gen(g->b.ndata + 2, g->len, g->raw);
}

static void do_raw_xor(void *o)
{
    Gen *g = o;

    g->raw[g->b.ndata] = g->b.p;
    xor_gen(g->b.ndata + 1, g->len, g->raw);
}

static void do_recover(void *o)
{
    Gen *g = o;

    raid_parity_recover(g->impl, &g->b, g->miss_a, g->miss_b, g->len);
}

static void bench_parity(uint32_t ndata, size_t len)
{
    Gen g = { .len = len };
    double mb = ndata * (double)len / 1e6;
    uint32_t n = ndata + 2;

    g.b.ndata = ndata;
    for (uint32_t i = 0; i < ndata; i++) {
        g.b.data[i] = raid_buf_alloc(len);
        for (size_t j = 0; j < len; j++) {
            g.b.data[i][j] = rand();
        }
        g.b.exp[i] = i;         /* row 0 of DDF RAID 6: data first */
        g.raw[i] = g.b.data[i];
    }
    g.b.p = raid_buf_alloc(len);
    g.b.q = raid_buf_alloc(len);
    g.raw[ndata] = g.b.p;
    g.raw[ndata + 1] = g.b.q;

    printf("%2u data x %4zu KiB  (MB/s of data per core)\n", ndata,
           len >> 10);
    g.impl = RAID_PARITY_ISAL;
    {
        Gen p = g;

        p.b.q = NULL;
        p.impl = RAID_PARITY_ISAL;
        printf("  P    core/ISA-L %8.0f", mb * rate(do_gen, &p));
        printf("   raw xor_gen %8.0f", mb * rate(do_raw_xor, &g));
        p.impl = RAID_PARITY_REF;
        printf("   reference %6.0f\n", mb * rate(do_gen, &p));
    }
    printf("  P+Q  core/ISA-L %8.0f", mb * rate(do_gen, &g));
    printf("   raw pq_gen  %8.0f", mb * rate(do_raw_pq, &g));
    g.impl = RAID_PARITY_REF;
    printf("   reference %6.0f\n", mb * rate(do_gen, &g));
    /* DDF ordering on a rotated row: Q/P in the middle, zero slots */
    for (uint32_t i = 0; i < ndata; i++) {
        g.b.exp[i] = (i + n / 2) % n == n - 1 ? n : (i + n / 2) % n;
    }
    g.impl = RAID_PARITY_ISAL;
    printf("  P+Q  rotated row (DDF Q order, 2 zero slots) core/ISA-L %8.0f\n",
           mb * rate(do_gen, &g));
    g.miss_a = 0;
    g.miss_b = 1;
    printf("  2-data recovery  core/ISA-L %8.0f", mb * rate(do_recover, &g));
    g.impl = RAID_PARITY_REF;
    printf("   reference %6.0f\n", mb * rate(do_recover, &g));
    for (uint32_t i = 0; i < ndata; i++) {
        raid_buf_free(g.b.data[i]);
    }
    raid_buf_free(g.b.p);
    raid_buf_free(g.b.q);
}

/*
 * Memory executor: members are buffers, I/O is memcpy (no syscalls), so
 * the numbers show the core's own cost per request.
 */
typedef struct MemExec {
    uint8_t *mem[RAID_MAX_MEMBERS];
    uint8_t *host;
    RaidBufPool *pool;
} MemExec;

static void mem_rw(void *o, uint32_t m, uint64_t lba, uint32_t n,
                   RaidIOBuf b, RaidIOComplete *cb, void *ctx, bool w)
{
    MemExec *x = o;
    uint8_t *buf = b.ptr ? b.ptr : x->host + b.host_off;

    if (w) {
        memcpy(x->mem[m] + lba * 512, buf, n * 512);
    } else {
        memcpy(buf, x->mem[m] + lba * 512, n * 512);
    }
    cb(ctx, 0);
}

static void mem_read(void *o, uint32_t m, uint64_t lba, uint32_t n,
                     RaidIOBuf b, RaidIOComplete *cb, void *ctx)
{
    mem_rw(o, m, lba, n, b, cb, ctx, false);
}

static void mem_write(void *o, uint32_t m, uint64_t lba, uint32_t n,
                      RaidIOBuf b, RaidIOComplete *cb, void *ctx)
{
    mem_rw(o, m, lba, n, b, cb, ctx, true);
}

static void mem_flush(void *o, uint32_t m, RaidIOComplete *cb, void *ctx)
{
    cb(ctx, 0);
}

static void mem_discard(void *o, uint32_t m, uint64_t lba, uint32_t n,
                        RaidIOComplete *cb, void *ctx)
{
    memset(((MemExec *)o)->mem[m] + lba * 512, 0, n * 512);
    cb(ctx, 0);
}

static void mem_from_host(void *o, uint64_t off, void *dst, size_t len)
{
    memcpy(dst, ((MemExec *)o)->host + off, len);
}

static void mem_to_host(void *o, uint64_t off, const void *src, size_t len)
{
    memcpy(((MemExec *)o)->host + off, src, len);
}

static void *mem_alloc(void *o, size_t len)
{
    return raid_buf_pool_get(((MemExec *)o)->pool, len);
}

static void mem_free(void *o, void *buf, size_t len)
{
    raid_buf_pool_put(((MemExec *)o)->pool, buf, len);
}

static const RaidExecOps mem_ops = {
    mem_read, mem_write, mem_flush, mem_discard, mem_from_host, mem_to_host,
    mem_alloc, mem_free,
};

typedef struct Exec {
    RaidLayout l;
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidFileExec fx;
    uint8_t *buf;
    uint64_t io_sectors;
    uint64_t next;
    RaidWriteMode mode;
    bool random;
    MemExec *mem;               /* non-NULL: run in memory */
} Exec;

static void do_exec(void *o)
{
    Exec *e = o;
    uint64_t lba;
    RaidRequest r = { .op = RAID_OP_WRITE, .sectors = e->io_sectors };
    RaidPlan *p;

    if (e->random) {
        lba = (uint64_t)g_random_int_range(0, e->l.vd_sectors /
                                           e->io_sectors) * e->io_sectors;
    } else {
        lba = e->next;
        e->next = (e->next + e->io_sectors) % (e->l.vd_sectors -
                                                e->l.vd_sectors %
                                                e->io_sectors);
    }
    r.lba = lba;
    p = raid_plan_request(&e->l, e->st, &r, e->mode);
    if (e->mem) {
        e->mem->host = e->buf;
        raid_run_sync(p, RAID_PARITY_ISAL, &mem_ops, e->mem);
    } else {
        e->fx.host = e->buf;
        raid_run_sync(p, RAID_PARITY_ISAL, &raid_file_exec_ops, &e->fx);
    }
    raid_plan_free(p);
}

static void do_plan_only(void *o)
{
    Exec *e = o;
    RaidRequest r = { .op = RAID_OP_WRITE, .sectors = e->io_sectors,
                      .lba = (uint64_t)g_random_int_range(0, 1000) * 8 };

    raid_plan_free(raid_plan_request(&e->l, e->st, &r, e->mode));
}

static void bench_exec(const char *dir, RaidLevel level, uint32_t n)
{
    Exec e = { 0 };
    uint64_t data[RAID_MAX_MEMBERS];
    RaidLayoutDesc d = {
        .level = level, .strip = RAID_STRIP_DEFAULT, .span_members = n,
        .member_data_sectors = data,
    };
    static uint8_t fill[1 << 20];
    double r;

    for (uint32_t m = 0; m < n; m++) {
        g_autofree char *path = g_strdup_printf("%s/m%u", dir, m);

        /* 16 MiB members, written once so the page cache holds them */
        data[m] = 16u << 11;
        e.fx.fd[m] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (e.fx.fd[m] < 0) {
            perror(path);
            exit(1);
        }
        for (uint64_t off = 0; off < data[m] * 512; off += sizeof(fill)) {
            if (pwrite(e.fx.fd[m], fill, sizeof(fill), off) !=
                sizeof(fill)) {
                perror(path);
                exit(1);
            }
        }
        g_unlink(path);
    }
    e.fx.members = n;
    e.fx.pool = raid_buf_pool_new(64 << 20);
    raid_layout_init(&e.l, &d, NULL);
    e.buf = raid_buf_alloc(e.l.row_sectors * 512);
    memset(e.buf, 0x3c, e.l.row_sectors * 512);

    for (int inmem = 0; inmem < 2; inmem++) {
        MemExec mx = { .pool = e.fx.pool };

        if (inmem) {
            for (uint32_t m = 0; m < n; m++) {
                mx.mem[m] = g_malloc(data[m] * 512);
                memset(mx.mem[m], 0x5a, data[m] * 512);     /* fault in */
            }
            e.mem = &mx;
        }
        printf("%s, %u drives, 256 KiB strip, %s:\n",
               raid_level_name(level), n,
               inmem ? "members in memory (the core's own cost)"
                     : "16 MiB files in page cache");
        e.io_sectors = e.l.row_sectors;
        e.mode = RAID_WRITE_AUTO;
        e.random = false;
        r = rate(do_exec, &e);
        printf("  full-stripe write %4" PRIu64 " KiB  %8.0f MB/s %8.0f IOPS\n",
               e.io_sectors / 2, r * e.io_sectors * 512 / 1e6, r);
        e.random = true;
        for (int mode = RAID_WRITE_RMW; mode <= RAID_WRITE_RCW; mode++) {
            e.io_sectors = 8;
            e.mode = mode;
            r = rate(do_exec, &e);
            printf("  4 KiB random write (%s)  %8.0f MB/s %8.0f IOPS\n",
                   mode == RAID_WRITE_RMW ? "RMW" : "RCW",
                   r * 4096 / 1e6, r);
        }
        e.mem = NULL;
        for (uint32_t m = 0; inmem && m < n; m++) {
            g_free(mx.mem[m]);
        }
    }
    e.io_sectors = 8;
    e.mode = RAID_WRITE_AUTO;
    printf("  planning only, 4 KiB write          %8.0f plans/s\n",
           rate(do_plan_only, &e));
    for (uint32_t m = 0; m < n; m++) {
        close(e.fx.fd[m]);
    }
    raid_buf_free(e.buf);
    raid_buf_pool_free(e.fx.pool);
}

int main(int argc, char **argv)
{
    g_autofree char *dir = g_dir_make_tmp("bench-raid-XXXXXX", NULL);

    if (argc > 1) {
        budget = g_ascii_strtod(argv[1], NULL);
    }
    printf("== parity (one core) ==\n");
    bench_parity(4, 256 << 10);
    bench_parity(8, 256 << 10);
    bench_parity(14, 64 << 10);
    printf("\n== plan + execute on files (one core, synchronous) ==\n");
    bench_exec(dir, RAID_LEVEL_5, 5);
    bench_exec(dir, RAID_LEVEL_6, 8);
    g_rmdir(dir);
    return 0;
}
