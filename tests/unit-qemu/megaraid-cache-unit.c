/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: unit tests of the controller cache (hw/megaraid/
 * array-cache.c) and its journal format (array-journal.c).  The VDs below
 * the cache are flat memory images (mr_vd_co_io() is replaced here), so
 * a "kill -9" is a copy of the journal drive (a raw file opened through
 * the block layer) and of the images taken between two acknowledged
 * requests; a new array started on the copies must replay every
 * acknowledged write.
 */

#include "qemu/osdep.h"
#include <sys/resource.h>
#include "qemu/main-loop.h"
#include "qemu/coroutine.h"
#include "qemu/iov.h"
#include "qemu/units.h"
#include "qemu/bswap.h"
#include "qemu/crc32c.h"
#include "qapi/error.h"
#include "block/aio.h"
#include "block/block.h"
#include "qobject/qdict.h"
#include "system/block-backend.h"
#include "hw/megaraid/array/array.h"
#include "hw/megaraid/cache/array-journal.h"
#include "hw/megaraid/cache/array-cache-int.h"
#include "hw/megaraid/nv-drive.h"

#define VD_SECTORS      4096            /* 2 MiB per VD */
#define VD_BYTES        (VD_SECTORS * 512)
#define LINE_BYTES      (64 * KiB)

/* ---- a VD below the cache: a flat image ---- */

typedef struct TVd {
    MRVirtualDisk vd;
    uint8_t *disk;
    uint8_t *model;             /* what an acknowledged reader must see */
    MRWritePolicy policy;
    bool fail;
    bool yield;                 /* let other coroutines run mid-I/O */
    int64_t delay_ns;           /* a slow member write */
    unsigned writes, flushes;
    GArray *wlog;               /* TWrite of each member write, if set */
    unsigned busy, busy_max;    /* member writes in flight, their peak */
} TVd;

typedef struct TWrite {
    uint64_t lba, sectors;
} TWrite;

typedef struct TArray {
    MRArray a;
    TVd *t[2];
    int nvd;
    char *jpath;                /* the journal drive's file */
} TArray;

static char *tmpdir;

static void t_check_disk(TVd *t);

static void coroutine_fn t_yield(void)
{
    aio_co_schedule(qemu_get_current_aio_context(), qemu_coroutine_self());
    qemu_coroutine_yield();
}

int coroutine_fn mr_vd_co_io(MRVirtualDisk *vd, RaidOp op, uint64_t lba,
                             uint64_t sectors, QEMUIOVector *qiov)
{
    TVd *t = container_of(vd, TVd, vd);

    if (t->yield) {
        t_yield();
    }
    if (t->fail) {
        return -EIO;
    }
    switch (op) {
    case RAID_OP_READ:
        g_assert_cmpuint(lba + sectors, <=, VD_SECTORS);
        g_assert_cmpuint(qiov->size, ==, sectors * 512);
        qemu_iovec_from_buf(qiov, 0, t->disk + lba * 512, sectors * 512);
        break;
    case RAID_OP_WRITE:
        g_assert_cmpuint(lba + sectors, <=, VD_SECTORS);
        g_assert_cmpuint(qiov->size, ==, sectors * 512);
        qemu_iovec_to_buf(qiov, 0, t->disk + lba * 512, sectors * 512);
        t->writes++;
        if (t->wlog) {
            TWrite w = { .lba = lba, .sectors = sectors };

            g_array_append_val(t->wlog, w);
        }
        t->busy++;
        t->busy_max = MAX(t->busy_max, t->busy);
        if (t->delay_ns) {
            qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, t->delay_ns);
        }
        t->busy--;
        break;
    case RAID_OP_FLUSH:
        t->flushes++;
        break;
    default:
        g_assert_not_reached();
    }
    if (t->yield) {
        t_yield();
    }
    return 0;
}

/* nv-drive.c's names of the journal drive, for messages and traces */
const char *mr_nv_drive_name(BlockBackend *blk)
{
    return "tjournal";
}

char *mr_nv_drive_desc(BlockBackend *blk)
{
    return g_strdup("'tjournal'");
}

/* array.c's hooks for the cache: the VD's write policy is the test's. */
static MRWritePolicy t_write_policy(MRVirtualDisk *vd)
{
    return container_of(vd, TVd, vd)->policy;
}

static const MRArrayHooks t_hooks = {
    .cache.write_policy = t_write_policy,
};

static char *jpath(const char *name)
{
    return g_build_filename(tmpdir, name, NULL);
}

/* An array of @nvd VDs; @src: copy its images and models (a restart). */
static TArray *ta_new(const char *journal, uint64_t cache_bytes, int nvd,
                      TArray *src, uint8_t guid_salt)
{
    TArray *ta = g_new0(TArray, 1);

    ta->nvd = nvd;
    ta->a.hooks = &t_hooks;
    ta->a.cfg = g_new0(RaidConfig, 1);
    ta->a.cachevault = MR_CV_OPTIMAL;
    ta->a.cache_bytes = cache_bytes;
    if (journal) {
        QDict *opts = qdict_new();
        int fd = open(journal, O_RDWR | O_CREAT, 0644);
        struct stat st;

        /* a sparse file of the size the journal needs (at least) */
        g_assert_cmpint(fd, >=, 0);
        g_assert_cmpint(fstat(fd, &st), ==, 0);
        if (st.st_size < mr_cache_journal_bytes(&ta->a)) {
            g_assert_cmpint(ftruncate(fd, mr_cache_journal_bytes(&ta->a)),
                            ==, 0);
        }
        close(fd);
        qdict_put_str(opts, "driver", "file");
        ta->jpath = g_strdup(journal);
        ta->a.journal_blk = blk_new_open(journal, NULL, opts, BDRV_O_RDWR,
                                         &error_abort);
    }
    for (int i = 0; i < nvd; i++) {
        TVd *t = g_new0(TVd, 1);
        RaidVd *rv = &ta->a.cfg->vds[i];

        rv->used = true;
        rv->size = VD_SECTORS;
        memset(rv->guid, 0x40 + i + guid_salt, RAID_GUID_LEN);
        t->vd.array = &ta->a;
        t->vd.idx = i;
        t->policy = MR_WP_WRITE_BACK;
        t->disk = src ? g_memdup2(src->t[i]->disk, VD_BYTES)
                      : g_malloc0(VD_BYTES);
        t->model = src ? g_memdup2(src->t[i]->model, VD_BYTES)
                       : g_malloc0(VD_BYTES);
        ta->t[i] = t;
        ta->a.vds[i] = &t->vd;
        mr_cache_vd_init(&t->vd);
    }
    return ta;
}

static void ta_start(TArray *ta)
{
    mr_cache_start(&ta->a, &error_abort);
}

static void ta_free(TArray *ta)
{
    mr_cache_stop(&ta->a);
    for (int i = 0; i < ta->nvd; i++) {
        mr_cache_vd_cleanup(&ta->t[i]->vd);
        g_free(ta->t[i]->disk);
        g_free(ta->t[i]->model);
        g_free(ta->t[i]);
    }
    if (ta->a.journal_blk) {
        blk_unref(ta->a.journal_blk);
    }
    g_free(ta->jpath);
    g_free(ta->a.cfg);
    g_free(ta);
}

/* A clean stop destages everything: the images match the models. */
static void ta_stop_check(TArray *ta)
{
    mr_cache_stop(&ta->a);
    for (int i = 0; i < ta->nvd; i++) {
        t_check_disk(ta->t[i]);
    }
    ta_free(ta);
}

/*
 * Where the journal on @path ends: its header and the records of its
 * generation (MR_JOURNAL_FILE_HDR: empty).
 */
static int64_t jlen(const char *path)
{
    MRJournalScan scan;
    gchar *buf;
    gsize len;

    g_assert(g_file_get_contents(path, &buf, &len, NULL));
    if (mr_journal_file_hdr_blank((uint8_t *)buf, len) ||
        mr_journal_file_hdr_check((uint8_t *)buf, len, NULL)) {
        g_free(buf);
        return MR_JOURNAL_FILE_HDR;
    }
    mr_journal_scan((uint8_t *)buf, len, NULL, NULL, &scan);
    g_free(buf);
    return scan.valid_end;
}

/*
 * The journal emptied: the array knows (the reset's flush returned) and
 * the drive says so.
 */
static bool t_jempty(TArray *ta)
{
    return ta->a.journal->tail == MR_JOURNAL_FILE_HDR &&
           jlen(ta->jpath) == MR_JOURNAL_FILE_HDR;
}

/*
 * kill -9 between two requests: the journal drive and the images as they
 * are now go to a new array (not started).  @cut zeroes that many bytes
 * at the journal's end (a torn last record).
 */
static TArray *ta_crash(TArray *ta, const char *newjournal, size_t cut)
{
    gchar *buf, *again;
    gsize len, len2;
    MRJournalScan scan;

    /*
     * A background reset (clean cache) may be under way in a worker
     * thread: copy again until two copies agree.
     */
    g_assert(g_file_get_contents(ta->jpath, &buf, &len, NULL));
    for (;;) {
        g_assert(g_file_get_contents(ta->jpath, &again, &len2, NULL));
        if (len == len2 && !memcmp(buf, again, len)) {
            g_free(again);
            break;
        }
        g_free(buf);
        buf = again;
        len = len2;
    }
    if (cut) {
        g_assert_null(mr_journal_file_hdr_check((uint8_t *)buf, len, NULL));
        mr_journal_scan((uint8_t *)buf, len, NULL, NULL, &scan);
        g_assert_cmpuint(scan.valid_end, >=, MR_JOURNAL_FILE_HDR + cut);
        memset(buf + scan.valid_end - cut, 0, cut);
    }
    g_assert(g_file_set_contents(newjournal, buf, len, NULL));
    g_free(buf);
    return ta_new(newjournal, ta->a.cache_bytes, ta->nvd, ta, 0);
}

/* ---- requests, each in a coroutine, polled to completion ---- */

typedef enum { T_WRITE, T_FUA, T_READ, T_FLUSH, T_INVAL } TOp;

typedef struct TReq {
    TVd *t;
    TOp op;
    uint64_t lba, n;
    uint8_t *buf;
    int ret;
    bool done;
} TReq;

static void coroutine_fn t_req_co(void *opaque)
{
    TReq *r = opaque;
    QEMUIOVector q;

    if (r->buf) {
        /* two iovec elements, to exercise the gather paths */
        size_t half = r->n / 2 * 512;

        qemu_iovec_init(&q, 2);
        qemu_iovec_add(&q, r->buf, half);
        qemu_iovec_add(&q, r->buf + half, r->n * 512 - half);
    }
    switch (r->op) {
    case T_WRITE:
    case T_FUA:
        r->ret = mr_cache_co_write(&r->t->vd, r->lba, r->n, &q,
                                   r->op == T_FUA);
        break;
    case T_READ:
        r->ret = mr_cache_co_read(&r->t->vd, r->lba, r->n, &q);
        break;
    case T_FLUSH:
        r->ret = mr_cache_co_flush(&r->t->vd);
        break;
    case T_INVAL:
        r->ret = mr_cache_co_invalidate(&r->t->vd, r->lba, r->n);
        break;
    }
    if (r->buf) {
        qemu_iovec_destroy(&q);
    }
    r->done = true;
}

static void t_req_start(TReq *r)
{
    aio_co_enter(qemu_get_aio_context(),
                 qemu_coroutine_create(t_req_co, r));
}

static void t_wait(bool *done)
{
    while (!*done) {
        main_loop_wait(false);
    }
}

static int t_req(TVd *t, TOp op, uint64_t lba, uint64_t n, uint8_t *buf)
{
    TReq r = { .t = t, .op = op, .lba = lba, .n = n, .buf = buf };

    t_req_start(&r);
    t_wait(&r.done);
    return r.ret;
}

static void fill(uint8_t *buf, uint64_t n, uint32_t seed)
{
    for (uint64_t i = 0; i < n * 512; i++) {
        buf[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 9));
    }
}

/* Write @n sectors of pattern @seed and update the model. */
static void t_write(TVd *t, uint64_t lba, uint64_t n, uint32_t seed,
                    bool fua)
{
    uint8_t *buf = g_malloc(n * 512);

    fill(buf, n, seed);
    g_assert_cmpint(t_req(t, fua ? T_FUA : T_WRITE, lba, n, buf), ==, 0);
    memcpy(t->model + lba * 512, buf, n * 512);
    g_free(buf);
}

static void t_check_read(TVd *t, uint64_t lba, uint64_t n)
{
    uint8_t *buf = g_malloc(n * 512);

    memset(buf, 0xee, n * 512);
    g_assert_cmpint(t_req(t, T_READ, lba, n, buf), ==, 0);
    g_assert(!memcmp(buf, t->model + lba * 512, n * 512));
    g_free(buf);
}

static void t_check_disk(TVd *t)
{
    for (uint64_t s = 0; s < VD_SECTORS; s++) {
        if (memcmp(t->disk + s * 512, t->model + s * 512, 512)) {
            g_error("VD %d sector %" PRIu64 " differs from the model",
                    t->vd.idx, s);
        }
    }
}

/* Poll the main loop until @cond or @ms pass; returns @cond. */
#define POLL_UNTIL(cond, ms) ({                                         \
    int64_t end_ = qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + (ms);      \
    while (!(cond) && qemu_clock_get_ms(QEMU_CLOCK_REALTIME) < end_) { \
        main_loop_wait(true);                                           \
        g_usleep(1000);                                                 \
    }                                                                   \
    (cond); })

/* ---- the journal format ---- */

typedef struct TRecs {
    int n;
    MRJournalRec rec[8];
    uint8_t data[8][2048];
} TRecs;

static bool t_collect(const MRJournalRec *rec, const uint8_t *data,
                      void *opaque)
{
    TRecs *r = opaque;

    g_assert_cmpint(r->n, <, 8);
    r->rec[r->n] = *rec;
    if (data) {
        memcpy(r->data[r->n], data, rec->sectors * 512);
    }
    r->n++;
    return true;
}

#define T_GEN   0x1122334455667788ULL

/*
 * A journal image of generation @gen with @n records (2 sectors each,
 * every third an inval).
 */
static GByteArray *t_image_gen(int n, uint64_t seq0, uint64_t gen,
                               size_t *last_off)
{
    GByteArray *img = g_byte_array_new();
    uint8_t hdr[MR_JOURNAL_FILE_HDR];

    mr_journal_file_hdr_encode(hdr, gen);
    g_byte_array_append(img, hdr, sizeof(hdr));
    for (int i = 0; i < n; i++) {
        MRJournalRec rec = {
            .type = i % 3 == 2 ? MR_JREC_INVALIDATE : MR_JREC_WRITE,
            .seq = seq0 + i, .lba = 100 * i, .sectors = 2, .gen = gen,
        };
        uint8_t rh[MR_JOURNAL_REC_HDR], data[1024];
        struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
        bool w = rec.type == MR_JREC_WRITE;

        memset(rec.guid, i, sizeof(rec.guid));
        fill(data, 2, i);
        mr_journal_rec_encode(rh, &rec, &iov, w);
        *last_off = img->len;
        g_byte_array_append(img, rh, sizeof(rh));
        if (w) {
            g_byte_array_append(img, data, sizeof(data));
        }
    }
    return img;
}

static GByteArray *t_image(int n, uint64_t seq0, size_t *last_off)
{
    return t_image_gen(n, seq0, T_GEN, last_off);
}

static void test_journal_header(void)
{
    uint8_t hdr[MR_JOURNAL_FILE_HDR];
    uint64_t gen = 0;

    memset(hdr, 0, sizeof(hdr));
    g_assert_true(mr_journal_file_hdr_blank(hdr, sizeof(hdr)));
    g_assert(strstr(mr_journal_file_hdr_check(hdr, sizeof(hdr), NULL),
                    "magic"));
    mr_journal_file_hdr_encode(hdr, T_GEN);
    g_assert_false(mr_journal_file_hdr_blank(hdr, sizeof(hdr)));
    g_assert_null(mr_journal_file_hdr_check(hdr, sizeof(hdr), &gen));
    g_assert_cmphex(gen, ==, T_GEN);
    g_assert_cmphex(ldq_le_p(hdr + 16), ==, T_GEN);
    g_assert_cmpuint(ldl_le_p(hdr + 8), ==, 2);     /* version */
    /* the checksum is CRC-32C as QEMU's crc32c() computes it */
    g_assert_cmphex((uint32_t)ldl_le_p(hdr + 60), ==,
                    crc32c(0xffffffff, hdr, 60));
    g_assert(strstr(mr_journal_file_hdr_check(hdr, 10, NULL), "shorter"));
    hdr[20] ^= 1;
    g_assert(strstr(mr_journal_file_hdr_check(hdr, sizeof(hdr), NULL),
                    "checksum"));
    hdr[20] ^= 1;
    hdr[0] = 'X';
    g_assert(strstr(mr_journal_file_hdr_check(hdr, sizeof(hdr), NULL),
                    "magic"));
}

static void test_journal_scan(void)
{
    size_t last;
    GByteArray *img = t_image(5, 7, &last);
    MRJournalScan scan;
    TRecs r = { 0 };
    uint8_t data[1024];

    mr_journal_scan(img->data, img->len, t_collect, &r, &scan);
    g_assert_cmpint(scan.stop, ==, MR_JSTOP_END);
    g_assert_cmpuint(scan.records, ==, 5);
    g_assert_cmpuint(scan.valid_end, ==, img->len);
    g_assert_cmpuint(scan.last_seq, ==, 11);
    g_assert_cmpint(r.n, ==, 5);
    for (int i = 0; i < 5; i++) {
        g_assert_cmpuint(r.rec[i].seq, ==, 7 + i);
        g_assert_cmpuint(r.rec[i].lba, ==, 100 * i);
        g_assert_cmpuint(r.rec[i].sectors, ==, 2);
        g_assert_cmpuint(r.rec[i].guid[5], ==, i);
        g_assert_cmpint(r.rec[i].type, ==,
                        i % 3 == 2 ? MR_JREC_INVALIDATE : MR_JREC_WRITE);
        if (r.rec[i].type == MR_JREC_WRITE) {
            fill(data, 2, i);
            g_assert(!memcmp(r.data[i], data, sizeof(data)));
        }
    }
    g_byte_array_free(img, TRUE);
}

/* The checksum does not depend on how the data is split in iovecs. */
static void test_journal_split(void)
{
    MRJournalRec rec = { .type = MR_JREC_WRITE, .seq = 3, .sectors = 2 };
    uint8_t h1[MR_JOURNAL_REC_HDR], h2[MR_JOURNAL_REC_HDR], data[1024];
    struct iovec one = { .iov_base = data, .iov_len = 1024 };
    struct iovec three[3] = {
        { .iov_base = data, .iov_len = 1 },
        { .iov_base = data + 1, .iov_len = 0 },
        { .iov_base = data + 1, .iov_len = 1023 },
    };

    fill(data, 2, 9);
    mr_journal_rec_encode(h1, &rec, &one, 1);
    mr_journal_rec_encode(h2, &rec, three, 3);
    g_assert(!memcmp(h1, h2, sizeof(h1)));
    /* the record checksum: CRC-32C of the header (crc zero), then data */
    memcpy(h2, h1, sizeof(h2));
    stl_le_p(h2 + 28, 0);
    g_assert_cmphex(ldl_le_p(h1 + 28), ==,
                    crc32c(~crc32c(0xffffffff, h2, sizeof(h2)), data, 1024));
    data[1000] ^= 4;
    mr_journal_rec_encode(h2, &rec, &one, 1);
    g_assert(memcmp(h1, h2, sizeof(h1)));
}

/* Every cut inside the last record keeps exactly the records before it. */
static void test_journal_torn(void)
{
    size_t last;
    GByteArray *img = t_image(4, 0, &last);
    MRJournalScan scan;

    for (size_t len = last; len < img->len; len++) {
        mr_journal_scan(img->data, len, NULL, NULL, &scan);
        g_assert_cmpuint(scan.records, ==, 3);
        g_assert_cmpuint(scan.valid_end, ==, last);
        g_assert_cmpint(scan.stop, ==,
                        len == last ? MR_JSTOP_END : MR_JSTOP_SHORT);
    }
    /* zeroes after the last record (a file extended but not written) */
    g_byte_array_set_size(img, img->len + 4096);
    memset(img->data + img->len - 4096, 0, 4096);
    mr_journal_scan(img->data, img->len, NULL, NULL, &scan);
    g_assert_cmpuint(scan.records, ==, 4);
    g_assert_cmpint(scan.stop, ==, MR_JSTOP_MAGIC);
    g_byte_array_free(img, TRUE);
}

/* A flipped bit anywhere in a record stops the scan at that record. */
static void test_journal_bitflip(void)
{
    size_t last;
    GByteArray *img = t_image(2, 0, &last);
    MRJournalScan scan;

    for (size_t off = last; off < img->len; off++) {
        for (int bit = 0; bit < 8; bit += 3) {
            img->data[off] ^= 1 << bit;
            mr_journal_scan(img->data, img->len, NULL, NULL, &scan);
            g_assert_cmpuint(scan.records, ==, 1);
            g_assert_cmpuint(scan.valid_end, ==, last);
            g_assert_cmpint(scan.stop, !=, MR_JSTOP_END);
            img->data[off] ^= 1 << bit;
        }
    }
    g_byte_array_free(img, TRUE);
}

/* Records whose sequence does not follow are not replayed. */
static void test_journal_seq(void)
{
    size_t last1, last2;
    GByteArray *a = t_image(2, 10, &last1);
    GByteArray *b = t_image(2, 50, &last2);
    MRJournalScan scan;

    /* a's records then b's (seq 10, 11, 50, 51): a stale tail */
    g_byte_array_append(a, b->data + MR_JOURNAL_FILE_HDR,
                        b->len - MR_JOURNAL_FILE_HDR);
    mr_journal_scan(a->data, a->len, NULL, NULL, &scan);
    g_assert_cmpuint(scan.records, ==, 2);
    g_assert_cmpint(scan.stop, ==, MR_JSTOP_SEQ);
    g_byte_array_free(a, TRUE);
    g_byte_array_free(b, TRUE);
}

/*
 * Records of an earlier generation (left on the drive when the journal
 * was emptied) end the scan, even with a sequence that follows.
 */
static void test_journal_gen(void)
{
    size_t last1, last2;
    GByteArray *a = t_image_gen(2, 0, T_GEN + 1, &last1);
    GByteArray *b = t_image_gen(4, 0, T_GEN, &last2);
    MRJournalScan scan;

    /* a's records over the start of b's: b's seq 2 and 3 follow a's 0, 1 */
    g_assert_cmpuint(b->len, >, a->len);
    memcpy(b->data, a->data, a->len);
    mr_journal_scan(b->data, b->len, NULL, NULL, &scan);
    g_assert_cmpuint(scan.records, ==, 2);
    g_assert_cmpuint(scan.valid_end, ==, a->len);
    g_assert_cmpint(scan.stop, ==, MR_JSTOP_GEN);
    g_byte_array_free(a, TRUE);
    g_byte_array_free(b, TRUE);
}

/* The scan in pieces finds what one scan of the whole image finds. */
static void test_journal_pieces(void)
{
    size_t last;
    GByteArray *img = t_image(7, 0, &last);
    MRJournalScan whole, part = { .valid_end = MR_JOURNAL_FILE_HDR };
    int rounds = 0;

    mr_journal_scan(img->data, img->len, NULL, NULL, &whole);
    for (;;) {
        g_assert_cmpint(++rounds, <, 100);
        uint64_t base = part.valid_end;
        size_t len = MIN(700, img->len - base);

        if (!len) {
            break;
        }
        mr_journal_scan_piece(img->data + base, len, base, T_GEN, NULL, NULL,
                              &part);
        if (part.stop != MR_JSTOP_SHORT) {
            break;
        }
        /* 700 bytes hold any of these records (64 + 1024 do not) */
        if (part.valid_end == base) {
            g_assert_cmpuint(mr_journal_rec_need(img->data + base, len), ==,
                             64 + 1024);
            len = MIN(64 + 1024, img->len - base);
            mr_journal_scan_piece(img->data + base, len, base, T_GEN, NULL,
                                  NULL, &part);
        }
    }
    g_assert_cmpuint(part.records, ==, whole.records);
    g_assert_cmpuint(part.records, ==, 7);
    g_assert_cmpuint(part.valid_end, ==, whole.valid_end);
    g_assert_cmpuint(part.last_seq, ==, whole.last_seq);
    g_byte_array_free(img, TRUE);
}

/* ---- the cache ---- */

/* Acknowledged write-back writes survive a kill; newest data wins. */
static void test_wb_replay(void)
{
    g_autofree char *j1 = jpath("wb1.jnl"), *j2 = jpath("wb2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 2, NULL, 0), *tb;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 200, 1, false);
    t_write(t, 100, 50, 2, false);      /* overlaps the first */
    t_write(t, 120, 8, 3, false);
    t_write(ta->t[1], 4000, 96, 4, false);
    /* write-back: nothing on the members yet, reads see the cache */
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpint(jlen(j1), >, 258 * 512);
    t_check_read(t, 0, 300);
    t_check_read(t, 110, 20);
    t_check_read(ta->t[1], 3990, 106);

    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    t_check_disk(tb->t[1]);
    g_assert_cmpint(jlen(j2), ==, MR_JOURNAL_FILE_HDR);
    g_assert_cmpuint(tb->t[0]->flushes, >, 0);
    ta_free(tb);
    /* a clean stop destages and empties the journal */
    ta_free(ta);
    g_assert_cmpint(jlen(j1), ==, MR_JOURNAL_FILE_HDR);
    unlink(j1);
    unlink(j2);
}

/* A torn last record is ignored, the records before it are replayed. */
static void test_torn_replay(void)
{
    g_autofree char *j1 = jpath("torn1.jnl"), *j2 = jpath("torn2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    uint8_t *before;

    ta_start(ta);
    t_write(ta->t[0], 8, 16, 1, false);
    before = g_memdup2(ta->t[0]->model, VD_BYTES);
    t_write(ta->t[0], 16, 16, 2, false);
    /* as if the last write had not been acknowledged */
    memcpy(ta->t[0]->model, before, VD_BYTES);
    tb = ta_crash(ta, j2, 100);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    g_assert_cmpint(jlen(j2), ==, MR_JOURNAL_FILE_HDR);
    ta_free(tb);
    ta_free(ta);
    g_free(before);
    unlink(j1);
    unlink(j2);
}

/*
 * Write-through and FUA data over dirty cached data: a replay must not
 * bring the older cached data back over it.
 */
static void test_wt_over_dirty(void)
{
    g_autofree char *j1 = jpath("wt1.jnl"), *j2 = jpath("wt2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 256, 1, false);
    t_write(t, 64, 32, 2, true);        /* FUA */
    t_check_read(t, 0, 256);
    t->policy = MR_WP_WRITE_THROUGH;
    t_write(t, 200, 10, 3, false);      /* write-through */
    t_check_read(t, 0, 256);
    t->policy = MR_WP_WRITE_BACK;
    t_write(t, 70, 4, 4, false);        /* cached again, newest */
    t_check_read(t, 0, 256);
    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    ta_free(ta);
    unlink(j1);
    unlink(j2);
}

/* Invalidate (before an unmap) keeps replay from resurrecting data. */
static void test_invalidate(void)
{
    g_autofree char *j1 = jpath("inv1.jnl"), *j2 = jpath("inv2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 300, 1, false);
    g_assert_cmpint(t_req(t, T_INVAL, 50, 100, NULL), ==, 0);
    /* the unmap that follows, below the cache */
    memset(t->disk + 50 * 512, 0, 100 * 512);
    memset(t->model + 50 * 512, 0, 100 * 512);
    t_check_read(t, 0, 300);
    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    ta_free(ta);

    /* without a journal the dirty data is simply dropped */
    ta = ta_new(NULL, 1 * MiB, 1, NULL, 0);
    ta_start(ta);
    t = ta->t[0];
    t->policy = MR_WP_ALWAYS_WRITE_BACK;
    t_write(t, 0, 64, 5, false);
    g_assert_cmpint(t_req(t, T_INVAL, 0, 64, NULL), ==, 0);
    memset(t->model, 0, 64 * 512);
    t_check_read(t, 0, 64);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->writes, ==, 0);
    ta_free(ta);
    unlink(j1);
    unlink(j2);
}

/* Records of a VD that no longer exists are ignored. */
static void test_unknown_vd(void)
{
    g_autofree char *j1 = jpath("unk1.jnl"), *j2 = jpath("unk2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    gchar *buf;
    gsize len;

    ta_start(ta);
    t_write(ta->t[0], 0, 64, 1, false);
    g_assert(g_file_get_contents(j1, &buf, &len, NULL));
    g_assert(g_file_set_contents(j2, buf, len, NULL));
    g_free(buf);
    tb = ta_new(j2, 1 * MiB, 1, NULL, 7);       /* other GUID */
    ta_start(tb);
    g_assert_cmpuint(tb->t[0]->writes, ==, 0);
    t_check_disk(tb->t[0]);                      /* zeroes */
    g_assert_cmpint(jlen(j2), ==, MR_JOURNAL_FILE_HDR);
    ta_free(tb);
    ta_free(ta);
    unlink(j1);
    unlink(j2);
}

/* A drive that is not a journal is refused with its name and the problem. */
static void test_bad_journal(void)
{
    g_autofree char *j = jpath("bad.jnl");
    Error *err = NULL;
    char junk[200];
    TArray *ta;

    memset(junk, 'x', sizeof(junk));
    g_assert(g_file_set_contents(j, junk, sizeof(junk), NULL));
    ta = ta_new(j, 1 * MiB, 1, NULL, 0);
    g_assert_false(mr_cache_start(&ta->a, &err));
    g_assert(err);
    g_assert(strstr(error_get_pretty(err), "journal: drive 'tjournal'"));
    g_assert(strstr(error_get_pretty(err), "bad magic"));
    error_free(err);
    g_assert_null(ta->a.journal);
    ta_free(ta);
    unlink(j);
}

/* Dirty data is destaged after about a second and the journal emptied. */
/*
 * An idle cache is destaged and the journal emptied.  The members are
 * flushed first only if the journal had made its records durable (FUA,
 * SYNCHRONIZE CACHE, journal-sync); otherwise the records only kept the
 * data across QEMU's death, as the members' files now do, and the next
 * SYNCHRONIZE CACHE flushes the members instead.
 */
static void test_idle_destage(void)
{
    g_autofree char *j = jpath("idle.jnl");
    TArray *ta;
    TVd *t;

    for (int mode = 0; mode < 3; mode++) {
        /* 0: plain writes, 1: a FUA write among them, 2: journal-sync */
        ta = ta_new(j, 1 * MiB, 1, NULL, 0);
        ta->a.journal_sync = mode == 2;
        ta_start(ta);
        t = ta->t[0];
        t->yield = true;
        t_write(t, 10, 100, 1, false);
        if (mode == 1) {
            t_write(t, 300, 8, 2, true);
        }
        g_assert_cmpuint(t->writes, ==, 0);
        g_assert(POLL_UNTIL(t_jempty(ta), 5000));
        t_check_disk(t);
        if (mode == 0) {
            g_assert_cmpuint(t->flushes, ==, 0);
            g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
            g_assert_cmpuint(t->flushes, ==, 1);
        } else {
            g_assert_cmpuint(t->flushes, >, 0);
        }
        ta_free(ta);
        unlink(j);
    }
}

/*
 * SYNCHRONIZE CACHE: journaled data needs no destage and no member flush
 * (it completes once journaled); data written through since the last
 * member flush needs the flush; volatile data is destaged.
 */
static void test_flush(void)
{
    g_autofree char *j = jpath("flush.jnl");
    TArray *ta = ta_new(j, 1 * MiB, 1, NULL, 0);
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 32, 1, false);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpuint(t->flushes, ==, 0);
    /* a write the journal does not hold: the members are flushed once */
    t->policy = MR_WP_WRITE_THROUGH;
    t_write(t, 100, 8, 2, false);
    t->policy = MR_WP_WRITE_BACK;
    g_assert_cmpuint(t->writes, ==, 1);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->flushes, ==, 1);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->flushes, ==, 1);
    ta_free(ta);
    unlink(j);

    ta = ta_new(NULL, 1 * MiB, 1, NULL, 0);
    ta_start(ta);
    t = ta->t[0];
    t->policy = MR_WP_ALWAYS_WRITE_BACK;
    t_write(t, 0, 32, 1, false);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    t_check_disk(t);
    g_assert_cmpuint(t->flushes, ==, 1);
    ta_free(ta);
}

/*
 * FUA on a write-back VD with a healthy CacheVault completes once
 * journaled, as on the card: the data stays dirty in the cache, its
 * record is in the journal (a kill -9 replays it), the members are not
 * written.  With the CacheVault failed (always-write-back), without a
 * journal, or on a write-through VD, FUA still writes through and flushes.
 */
static void test_fua(void)
{
    g_autofree char *j1 = jpath("fua1.jnl"), *j2 = jpath("fua2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    MRCacheStats cs;
    TVd *t;
    int64_t jsize;

    ta_start(ta);
    t = ta->t[0];
    jsize = jlen(j1);
    t_write(t, 40, 24, 1, true);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpuint(t->flushes, ==, 0);
    g_assert_cmpint(jlen(j1), >=, jsize + 24 * 512);
    g_assert_true(mr_cache_vd_dirty(&t->vd));
    mr_cache_stats(&ta->a, &cs);
    g_assert_cmpuint(cs.dirty_bytes, ==, 24 * 512);
    g_assert_cmpuint(cs.journal_records, ==, 1);
    t_check_read(t, 32, 40);
    /* SYNCHRONIZE CACHE after it: nothing below the cache either */
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpuint(t->flushes, ==, 0);
    /* acknowledged, so a kill -9 now must not lose it */
    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);

    /* CacheVault failed, the VD kept write-back: FUA goes through */
    t->policy = MR_WP_ALWAYS_WRITE_BACK;
    ta->a.cachevault = MR_CV_FAILED;
    t_write(t, 300, 8, 2, true);
    g_assert_cmpuint(t->writes, >, 0);
    g_assert_cmpuint(t->flushes, >, 0);
    g_assert(!memcmp(t->disk + 300 * 512, t->model + 300 * 512, 8 * 512));
    /* and SYNCHRONIZE CACHE destages what is cached */
    t_write(t, 600, 8, 3, false);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    t_check_disk(t);

    /* CacheVault optimal again but the VD write-through: through too */
    ta->a.cachevault = MR_CV_OPTIMAL;
    t->policy = MR_WP_WRITE_THROUGH;
    t->writes = t->flushes = 0;
    t_write(t, 900, 8, 4, true);
    g_assert_cmpuint(t->writes, ==, 1);
    g_assert_cmpuint(t->flushes, ==, 1);
    t_check_disk(t);
    ta_free(ta);

    /* no journal (always-write-back, volatile cache): through */
    ta = ta_new(NULL, 1 * MiB, 1, NULL, 0);
    ta_start(ta);
    t = ta->t[0];
    t->policy = MR_WP_ALWAYS_WRITE_BACK;
    t_write(t, 0, 16, 5, true);
    g_assert_cmpuint(t->writes, ==, 1);
    g_assert_cmpuint(t->flushes, ==, 1);
    t_check_disk(t);
    ta_free(ta);
    unlink(j1);
    unlink(j2);
}

/*
 * When an acknowledged write-back write is on the journal's disk: without
 * journal-sync its record is written before the ack (a kill -9 replays
 * it) but fdatasync'ed only for FUA and SYNCHRONIZE CACHE; with
 * journal-sync every ack waits for the fdatasync.
 */
static void test_journal_sync(void)
{
    g_autofree char *j1 = jpath("jsync1.jnl"), *j2 = jpath("jsync2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    MRJournal *j;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    j = ta->a.journal;
    t_write(t, 0, 16, 1, false);
    g_assert_cmpuint(j->written, ==, jlen(j1));
    g_assert_cmpuint(j->synced, <, j->written);
    /* written, not synced: a kill -9 now still replays it */
    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    /* a FUA write is synced before its ack, with what came before it */
    t_write(t, 64, 8, 2, true);
    g_assert_cmpuint(j->synced, ==, j->written);
    /* SYNCHRONIZE CACHE syncs the journal, the members stay untouched */
    t_write(t, 128, 8, 3, false);
    g_assert_cmpuint(j->synced, <, j->written);
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(j->synced, ==, j->written);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpuint(t->flushes, ==, 0);
    ta_free(ta);
    unlink(j1);
    unlink(j2);

    /* journal-sync: every write is synced before its ack */
    ta = ta_new(j1, 1 * MiB, 1, NULL, 0);
    ta->a.journal_sync = true;
    ta_start(ta);
    t = ta->t[0];
    j = ta->a.journal;
    t_write(t, 0, 16, 4, false);
    g_assert_cmpuint(j->written, >, 0);
    g_assert_cmpuint(j->synced, ==, j->written);
    ta_free(ta);
    unlink(j1);
}

/* CacheVault failed: the VD turns write-through and is destaged. */
static void test_policy_change(void)
{
    g_autofree char *j = jpath("policy.jnl");
    TArray *ta = ta_new(j, 1 * MiB, 1, NULL, 0);
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t->yield = true;
    t_write(t, 0, 128, 1, false);
    t->policy = MR_WP_WRITE_THROUGH;
    ta->a.cachevault = MR_CV_FAILED;
    mr_cache_policy_changed(&ta->a);
    t_write(t, 60, 8, 2, false);        /* must not be overtaken */
    g_assert(POLL_UNTIL(t_jempty(ta), 3000));
    t_check_disk(t);
    ta_free(ta);
    unlink(j);
}

/* A member failure keeps the data dirty and journaled until it is back. */
static void test_destage_error(void)
{
    g_autofree char *j1 = jpath("err1.jnl"), *j2 = jpath("err2.jnl");
    TArray *ta = ta_new(j1, 1 * MiB, 1, NULL, 0), *tb;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 64, 1, false);
    t->fail = true;
    POLL_UNTIL(false, 1500);            /* the idle destage fails */
    g_assert_cmpint(jlen(j1), >, MR_JOURNAL_FILE_HDR);
    tb = ta_crash(ta, j2, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    t->fail = false;
    ta_stop_check(ta);
    unlink(j1);
    unlink(j2);
}

/*
 * A cache of 4 lines: writes wait for destage; concurrent overlapping
 * writes and reads while the members yield.
 */
static void test_small_cache(void)
{
    g_autofree char *j = jpath("small.jnl");
    TArray *ta = ta_new(j, 4 * LINE_BYTES, 1, NULL, 0);
    TReq r[8];
    uint8_t *bufs[8];
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t->yield = true;
    for (int i = 0; i < 32; i++) {
        t_write(t, i * 128, 128, i, false);
    }
    /* 8 concurrent writes to distinct lines, then one to all of them */
    for (int i = 0; i < 8; i++) {
        bufs[i] = g_malloc(64 * 512);
        fill(bufs[i], 64, 100 + i);
        r[i] = (TReq){ .t = t, .op = T_WRITE, .lba = i * 256 + 32, .n = 64,
                       .buf = bufs[i] };
        t_req_start(&r[i]);
    }
    for (int i = 0; i < 8; i++) {
        t_wait(&r[i].done);
        g_assert_cmpint(r[i].ret, ==, 0);
        memcpy(t->model + (i * 256 + 32) * 512, bufs[i], 64 * 512);
        g_free(bufs[i]);
    }
    t_check_read(t, 0, 4096);
    ta_stop_check(ta);
    unlink(j);
}

/*
 * Random requests, sequential, with destage running in the background
 * (small cache, yielding members); at random points a kill -9 copy must
 * replay to exactly the acknowledged state.
 */
static void test_random(void)
{
    g_autofree char *j = jpath("rand.jnl"), *jc = jpath("rand-crash.jnl");
    TArray *ta = ta_new(j, 8 * LINE_BYTES, 2, NULL, 0);
    GRand *rnd = g_rand_new_with_seed(20261130);
    unsigned crashes = 0;

    ta_start(ta);
    ta->t[0]->yield = ta->t[1]->yield = true;
    for (int i = 0; i < 400; i++) {
        TVd *t = ta->t[g_rand_int_range(rnd, 0, 2)];
        uint64_t n = g_rand_int_range(rnd, 1, 300);
        uint64_t lba = g_rand_int_range(rnd, 0, VD_SECTORS - n);
        int op = g_rand_int_range(rnd, 0, 100);

        if (op < 55) {
            t_write(t, lba, n, i, false);
        } else if (op < 65) {
            t_write(t, lba, n, i, true);
        } else if (op < 70) {
            t->policy = t->policy == MR_WP_WRITE_BACK ? MR_WP_WRITE_THROUGH
                                                      : MR_WP_WRITE_BACK;
            mr_cache_policy_changed(&ta->a);
        } else if (op < 75) {
            g_assert_cmpint(t_req(t, T_INVAL, lba, n, NULL), ==, 0);
            memset(t->disk + lba * 512, 0, n * 512);
            memset(t->model + lba * 512, 0, n * 512);
        } else if (op < 78) {
            g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
        } else {
            t_check_read(t, lba, n);
        }
        if (i % 50 == 49) {
            TArray *tb = ta_crash(ta, jc, 0);

            ta_start(tb);
            t_check_disk(tb->t[0]);
            t_check_disk(tb->t[1]);
            ta_free(tb);
            crashes++;
        }
    }
    g_assert_cmpuint(crashes, ==, 8);
    ta_stop_check(ta);
    g_rand_free(rnd);
    unlink(j);
    unlink(jc);
}

/*
 * Rounds of four concurrent requests, one per quarter of the VD (so the
 * expected result is defined), sharing the journal's group commit and
 * racing the background destage; a kill -9 copy every ten rounds.
 */
static void test_concurrent(void)
{
    g_autofree char *j = jpath("conc.jnl"), *jc = jpath("conc-crash.jnl");
    TArray *ta = ta_new(j, 8 * LINE_BYTES, 1, NULL, 0);
    GRand *rnd = g_rand_new_with_seed(4242);
    TVd *t = ta->t[0];

    ta_start(ta);
    t->yield = true;
    for (int round = 0; round < 60; round++) {
        TReq r[4];

        for (int q = 0; q < 4; q++) {
            uint64_t n = g_rand_int_range(rnd, 1, 200);
            uint64_t lba = q * (VD_SECTORS / 4) +
                           g_rand_int_range(rnd, 0, VD_SECTORS / 4 - n);
            int op = g_rand_int_range(rnd, 0, 100);

            r[q] = (TReq){ .t = t, .lba = lba, .n = n };
            r[q].op = op < 60 ? T_WRITE : op < 75 ? T_FUA :
                      op < 90 ? T_READ : T_INVAL;
            if (r[q].op != T_INVAL) {
                r[q].buf = g_malloc(n * 512);
                fill(r[q].buf, n, round * 4 + q);
            }
            t_req_start(&r[q]);
        }
        for (int q = 0; q < 4; q++) {
            uint8_t *m = t->model + r[q].lba * 512;

            t_wait(&r[q].done);
            g_assert_cmpint(r[q].ret, ==, 0);
            switch (r[q].op) {
            case T_WRITE:
            case T_FUA:
                memcpy(m, r[q].buf, r[q].n * 512);
                break;
            case T_READ:
                g_assert(!memcmp(r[q].buf, m, r[q].n * 512));
                break;
            default:
                memset(t->disk + r[q].lba * 512, 0, r[q].n * 512);
                memset(m, 0, r[q].n * 512);
                break;
            }
            g_free(r[q].buf);
        }
        if (round % 10 == 9) {
            TArray *tb = ta_crash(ta, jc, 0);

            ta_start(tb);
            t_check_disk(tb->t[0]);
            ta_free(tb);
        }
    }
    ta_stop_check(ta);
    g_rand_free(rnd);
    unlink(j);
    unlink(jc);
}

typedef struct TWriter {
    TVd *t;
    GRand *rnd;
    uint64_t base;
    int count;
    int64_t max_size;
    bool done;
} TWriter;

static void coroutine_fn t_writer_co(void *opaque)
{
    TWriter *w = opaque;
    uint8_t *buf = g_malloc(64 * 512);
    QEMUIOVector q;

    qemu_iovec_init_buf(&q, buf, 64 * 512);
    for (int i = 0; i < w->count; i++) {
        uint64_t lba = w->base + g_rand_int_range(w->rnd, 0, 960);

        fill(buf, 64, g_rand_int(w->rnd));
        g_assert_cmpint(mr_cache_co_write(&w->t->vd, lba, 64, &q, false),
                        ==, 0);
        memcpy(w->t->model + lba * 512, buf, 64 * 512);
        w->max_size = MAX(w->max_size,
                          w->t->vd.array->journal->tail);
    }
    g_free(buf);
    w->done = true;
}

/*
 * Four writers never let the cache (8 lines) get clean: the journal
 * reaches its limit (4 MiB), everything is destaged and it is emptied;
 * it never grows past the limit and no write is lost.
 */
static void test_journal_limit(void)
{
    g_autofree char *j = jpath("limit.jnl"), *jc = jpath("limit-c.jnl");
    TArray *ta = ta_new(j, 8 * LINE_BYTES, 1, NULL, 0), *tb;
    GRand *rnd = g_rand_new_with_seed(77);
    TWriter w[4];

    ta_start(ta);
    ta->t[0]->yield = true;
    ta->t[0]->delay_ns = 2 * SCALE_MS;  /* destage slower than writers */
    for (int i = 0; i < 4; i++) {
        w[i] = (TWriter){ .t = ta->t[0], .rnd = rnd, .count = 100,
                          .base = i * (VD_SECTORS / 4) };
        aio_co_enter(qemu_get_aio_context(),
                     qemu_coroutine_create(t_writer_co, &w[i]));
    }
    for (int i = 0; i < 4; i++) {
        t_wait(&w[i].done);
        g_assert_cmpint(w[i].max_size, <=, 4 * MiB);
    }
    ta->t[0]->delay_ns = 0;
    tb = ta_crash(ta, jc, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    ta_stop_check(ta);
    g_rand_free(rnd);
    unlink(j);
    unlink(jc);
}

/*
 * The journal cannot grow (RLIMIT_FSIZE: EFBIG): the write is still
 * acknowledged, write-through; write-back stops, and the journal is
 * emptied so that its old records cannot bring older data back later.
 */
static void test_journal_error(void)
{
    g_autofree char *j = jpath("jerr.jnl"), *jc = jpath("jerr-c.jnl");
    TArray *ta = ta_new(j, 1 * MiB, 1, NULL, 0), *tb;
    struct rlimit old, lim;
    TVd *t;

    ta_start(ta);
    t = ta->t[0];
    t_write(t, 0, 64, 1, false);
    g_assert_cmpuint(t->writes, ==, 0);
    g_assert_cmpint(getrlimit(RLIMIT_FSIZE, &old), ==, 0);
    lim = old;
    lim.rlim_cur = jlen(j) + 4096;
    signal(SIGXFSZ, SIG_IGN);
    g_assert_cmpint(setrlimit(RLIMIT_FSIZE, &lim), ==, 0);
    t_write(t, 0, 64, 2, false);        /* its record does not fit */
    t_check_read(t, 0, 64);
    g_assert(POLL_UNTIL(t_jempty(ta), 3000));
    g_assert_cmpint(setrlimit(RLIMIT_FSIZE, &old), ==, 0);
    t_check_disk(t);
    /* write-back is off: straight to the members */
    t_write(t, 100, 8, 3, false);
    t_check_disk(t);
    tb = ta_crash(ta, jc, 0);
    ta_start(tb);
    t_check_disk(tb->t[0]);
    ta_free(tb);
    ta_stop_check(ta);
    unlink(j);
    unlink(jc);
}

/* ---- the destager ---- */

/* The member writes logged since the last call, as "lba+sectors ...". */
static char *t_wlog(TVd *t)
{
    GString *s = g_string_new("");

    for (guint i = 0; i < t->wlog->len; i++) {
        TWrite *w = &g_array_index(t->wlog, TWrite, i);

        g_string_append_printf(s, "%s%" PRIu64 "+%" PRIu64, i ? " " : "",
                               w->lba, w->sectors);
    }
    g_array_set_size(t->wlog, 0);
    return g_string_free(s, FALSE);
}

/*
 * A RAID 5 row of 3 x 64 KiB strips (384 sectors) written as three
 * separate 64 KiB writes: the destage is one write of the whole row (a
 * full stripe for the plan), not three read-modify-writes.  A longer
 * stream is cut at row boundaries once an extent reaches 1 MiB.  (The
 * cache is large enough that the destager is not kicked meanwhile.)
 */
static void test_destage_full_row(void)
{
    TArray *ta = ta_new(NULL, 4 * MiB, 1, NULL, 0);
    TVd *t = ta->t[0];
    g_autofree char *log1 = NULL, *log2 = NULL;

    ta_start(ta);
    t->vd.layout.row_sectors = 384;
    t->wlog = g_array_new(FALSE, FALSE, sizeof(TWrite));
    for (int i = 0; i < 3; i++) {
        t_write(t, 384 + i * 128, 128, i, false);
    }
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    log1 = t_wlog(t);
    g_assert_cmpstr(log1, ==, "384+384");
    /* 18 lines from 0: 15 lines (5 rows, <= 1 MiB), then one row more */
    for (int i = 0; i < 18; i++) {
        t_write(t, i * 128, 128, 10 + i, false);
    }
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    log2 = t_wlog(t);
    g_assert_cmpstr(log2, ==, "0+1920 1920+384");
    t_check_disk(t);
    g_array_free(t->wlog, TRUE);
    t->wlog = NULL;
    ta_stop_check(ta);
}

/*
 * Adjacent dirty lines become one member write where their dirty data
 * runs on across the line boundary; a gap splits it.
 */
static void test_destage_merge(void)
{
    TArray *ta = ta_new(NULL, 2 * MiB, 1, NULL, 0);
    TVd *t = ta->t[0];
    g_autofree char *log = NULL;

    ta_start(ta);
    t->wlog = g_array_new(FALSE, FALSE, sizeof(TWrite));
    t_write(t, 256, 64, 1, false);          /* lines 2 and 3, whole */
    t_write(t, 320, 192, 2, false);
    t_write(t, 650, 10, 3, false);          /* line 5: 10..19 */
    t_write(t, 740, 78, 4, false);          /* 100..127, line 6: 0..49 */
    t_write(t, 1100, 4, 5, false);          /* line 8, alone */
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    log = t_wlog(t);
    g_assert_cmpstr(log, ==, "256+256 650+10 740+78 1100+4");
    t_check_disk(t);
    g_array_free(t->wlog, TRUE);
    t->wlog = NULL;
    ta_stop_check(ta);
}

/*
 * Sixteen separate dirty lines of slow members: several destage writes
 * are in flight at once, never more than the bound (8).
 */
static void test_destage_inflight(void)
{
    TArray *ta = ta_new(NULL, 4 * MiB, 1, NULL, 0);
    TVd *t = ta->t[0];

    ta_start(ta);
    for (int i = 0; i < 16; i++) {
        t_write(t, i * 256 + 7, 9, i, false);
    }
    t->delay_ns = 5 * SCALE_MS;
    g_assert_cmpint(t_req(t, T_FLUSH, 0, 0, NULL), ==, 0);
    g_assert_cmpuint(t->writes, ==, 16);
    g_assert_cmpuint(t->busy_max, >, 1);
    g_assert_cmpuint(t->busy_max, <=, 8);
    t_check_disk(t);
    t->delay_ns = 0;
    ta_stop_check(ta);
}

/*
 * kill -9 while destages are in flight (slow members, several writers,
 * records written concurrently): a restart on the journal and the images
 * as they are then has every acknowledged write.
 */
static void test_destage_crash(void)
{
    g_autofree char *j = jpath("dcrash.jnl"), *jc = jpath("dcrash-c.jnl");
    TArray *ta = ta_new(j, 8 * LINE_BYTES, 1, NULL, 0);
    GRand *rnd = g_rand_new_with_seed(1313);
    TVd *t = ta->t[0];
    int crashes = 0;

    ta_start(ta);
    t->vd.layout.row_sectors = 384;
    t->delay_ns = 1 * SCALE_MS;
    for (int round = 0; round < 40; round++) {
        TReq r[6];

        for (int q = 0; q < 6; q++) {
            bool seq = q < 3;
            uint64_t n = seq ? 128 : g_rand_int_range(rnd, 1, 64);
            uint64_t lba = seq ? ((round * 3 + q) * 128) % VD_SECTORS :
                           g_rand_int_range(rnd, 0, VD_SECTORS - n);

            r[q] = (TReq){ .t = t, .op = T_WRITE, .lba = lba, .n = n };
            r[q].buf = g_malloc(n * 512);
            fill(r[q].buf, n, round * 6 + q);
            t_req_start(&r[q]);
        }
        for (int q = 0; q < 6; q++) {
            t_wait(&r[q].done);
            g_assert_cmpint(r[q].ret, ==, 0);
        }
        /* in request order: overlapping random writes end as the last */
        for (int q = 0; q < 6; q++) {
            memcpy(t->model + r[q].lba * 512, r[q].buf, r[q].n * 512);
            g_free(r[q].buf);
        }
        if (t->busy) {
            TArray *tb = ta_crash(ta, jc, 0);

            crashes++;
            ta_start(tb);
            t_check_disk(tb->t[0]);
            ta_free(tb);
        }
    }
    g_assert_cmpint(crashes, >, 0);
    t->delay_ns = 0;
    ta_stop_check(ta);
    g_rand_free(rnd);
    unlink(j);
    unlink(jc);
}

int main(int argc, char **argv)
{
    int ret;

    g_test_init(&argc, &argv, NULL);
    qemu_init_main_loop(&error_abort);
    bdrv_init();
    rust_bql_mock_lock();
    tmpdir = g_dir_make_tmp("mr-cache-XXXXXX", NULL);
    g_assert(tmpdir);

    g_test_add_func("/megaraid/journal/header", test_journal_header);
    g_test_add_func("/megaraid/journal/scan", test_journal_scan);
    g_test_add_func("/megaraid/journal/split", test_journal_split);
    g_test_add_func("/megaraid/journal/torn", test_journal_torn);
    g_test_add_func("/megaraid/journal/bitflip", test_journal_bitflip);
    g_test_add_func("/megaraid/journal/seq", test_journal_seq);
    g_test_add_func("/megaraid/journal/gen", test_journal_gen);
    g_test_add_func("/megaraid/journal/pieces", test_journal_pieces);
    g_test_add_func("/megaraid/cache/wb-replay", test_wb_replay);
    g_test_add_func("/megaraid/cache/torn-replay", test_torn_replay);
    g_test_add_func("/megaraid/cache/wt-over-dirty", test_wt_over_dirty);
    g_test_add_func("/megaraid/cache/invalidate", test_invalidate);
    g_test_add_func("/megaraid/cache/unknown-vd", test_unknown_vd);
    g_test_add_func("/megaraid/cache/bad-journal", test_bad_journal);
    g_test_add_func("/megaraid/cache/idle-destage", test_idle_destage);
    g_test_add_func("/megaraid/cache/flush", test_flush);
    g_test_add_func("/megaraid/cache/fua", test_fua);
    g_test_add_func("/megaraid/cache/journal-sync", test_journal_sync);
    g_test_add_func("/megaraid/cache/policy-change", test_policy_change);
    g_test_add_func("/megaraid/cache/destage-error", test_destage_error);
    g_test_add_func("/megaraid/cache/small-cache", test_small_cache);
    g_test_add_func("/megaraid/cache/random", test_random);
    g_test_add_func("/megaraid/cache/concurrent", test_concurrent);
    g_test_add_func("/megaraid/cache/journal-limit", test_journal_limit);
    g_test_add_func("/megaraid/cache/journal-error", test_journal_error);
    g_test_add_func("/megaraid/cache/destage-full-row",
                    test_destage_full_row);
    g_test_add_func("/megaraid/cache/destage-merge", test_destage_merge);
    g_test_add_func("/megaraid/cache/destage-inflight",
                    test_destage_inflight);
    g_test_add_func("/megaraid/cache/destage-crash", test_destage_crash);
    ret = g_test_run();
    rmdir(tmpdir);
    g_free(tmpdir);
    return ret;
}
