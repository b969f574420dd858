/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache of the array glue and its journal
 * (the emulated CacheVault).  Write-back data is held in 64 KiB cache
 * lines per VD and appended to a journal file before the write is
 * acknowledged; a coroutine per VD destages dirty lines to the members
 * through mr_vd_co_io(); the journal is replayed at start and emptied
 * whenever the whole cache is clean and the members flushed.  The
 * journal's on-disk format is in array-journal.c.
 *
 * Why fixed cache lines: a line (128 sectors) with a dirty bitmap makes
 * "newest data wins" a plain overwrite in place, keeps the memory bound
 * (lines * 64 KiB <= cache size) exact and cheap to check, and gives the
 * destager a natural unit.  Each line carries a generation counter bumped
 * by every write into it: a destage writes a snapshot of the line and
 * clears the dirty bits only if the generation did not change meanwhile,
 * so newer data is never marked clean by an older destage, and only one
 * destage of a line runs at a time, so older data never lands after newer
 * data of the same line.  A line exists only while it holds dirty data or
 * is being destaged.  Reads snapshot the dirty data of their range before
 * reading the members and lay it over what the members return.
 *
 * Journal rules (see docs/megaraid-9600.md, "Controller cache and
 * CacheVault"):
 *  - one record per cached write, copied into the cache and written to the
 *    journal under one CoMutex, so the journal order is the cache order
 *    and the file has no holes; a write is acknowledged only once an
 *    fdatasync that started after its record was written has returned
 *    (group commit: one fdatasync covers every record written before it);
 *  - FUA writes and SYNCHRONIZE CACHE of a write-back VD whose CacheVault
 *    is optimal complete once journaled, as on the card (the journal is
 *    its non-volatile cache): a FUA write is cached like any other, and a
 *    SYNCHRONIZE CACHE only flushes the members if data went to them
 *    without a journal record (write-through) since their last flush.
 *    Otherwise (write-through VD, CacheVault failed or absent, no
 *    journal) FUA writes through and SYNCHRONIZE CACHE destages;
 *  - before a range goes below the cache (write-through, unmap) while
 *    the journal holds records of the VD, its dirty data is destaged, the
 *    members are flushed and an invalidate record is made durable, so a
 *    replay never writes older journaled data over newer data;
 *  - when every VD is clean and its members flushed, the journal is
 *    truncated to its header (ftruncate + fdatasync).
 * Journal I/O runs in the thread pool, never blocking the main loop.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/bitmap.h"
#include "qemu/coroutine.h"
#include "qemu/iov.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "block/aio-wait.h"
#include "block/thread-pool.h"
#include "array.h"
#include "array-journal.h"
#include "trace.h"

#define MR_LINE_SECTORS         128
#define MR_LINE_BYTES           (MR_LINE_SECTORS * MR_JOURNAL_SECTOR)
#define MR_CACHE_RETRY_MS       5000    /* retry after a destage error */
#define MR_CACHE_MIN_LINES      16
#define MR_JOURNAL_MIN_LIMIT    (4 * MiB)   /* > the largest request */

typedef struct MRCacheLine {
    uint64_t idx;               /* VD sector / MR_LINE_SECTORS */
    unsigned long dirty[BITS_TO_LONGS(MR_LINE_SECTORS)];
    uint64_t gen;               /* bumped by every change of the data */
    bool destaging;
    uint8_t *data;
} MRCacheLine;

struct MRVdCache {
    MRVirtualDisk *vd;
    GTree *lines;               /* &idx -> MRCacheLine, in LBA order */
    CoQueue wait;               /* a line of this VD finished destaging */
    Coroutine *destage_co;
    bool destage_again;
    bool stopping;
    QEMUTimer *timer;           /* idle destage and error retry */
    bool journaled;             /* journal holds records of this VD */
    bool members_dirty;         /* member writes since the last flush */
    bool members_unjournaled;   /* of them, writes the journal lacks */
};

/*
 * Controller-wide state: the cache memory budget and the journal file
 * (fd -1: no journal).  One per MRArray, a->journal.
 */
struct MRJournal {
    MRArray *a;
    int fd;
    bool failed;                /* I/O error: no more write-back */
    uint64_t lines;             /* cache lines allocated, all VDs */
    uint64_t max_lines;
    uint64_t destage_errs;      /* destage failures so far */
    CoQueue space;              /* writers waiting for free lines */
    CoMutex append;             /* cache copy + record write order */
    uint64_t tail;              /* end of the written records */
    uint64_t records;           /* records in the file (up to tail) */
    uint64_t synced;            /* fdatasync'ed up to (this epoch) */
    uint64_t epoch;             /* bumped when the journal is emptied */
    uint64_t next_seq;
    uint64_t limit;             /* journal size that forces a checkpoint */
    bool syncing;
    CoQueue sync_wait;
    unsigned busy;              /* background coroutines running */
};

/* ---- journal file I/O (thread pool) ---- */

typedef enum MRJournalOp {
    MR_JIO_WRITE,
    MR_JIO_SYNC,
    MR_JIO_TRUNCATE,
} MRJournalOp;

typedef struct MRJournalIO {
    int fd;
    MRJournalOp op;
    struct iovec *iov;
    unsigned int niov;
    uint64_t off;
} MRJournalIO;

static int mr_journal_io_fn(void *opaque)
{
    MRJournalIO *io = opaque;
    ssize_t n;

    switch (io->op) {
    case MR_JIO_WRITE:
        while (io->niov) {
            n = pwritev(io->fd, io->iov, MIN(io->niov, IOV_MAX), io->off);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                return n < 0 ? -errno : -EIO;
            }
            io->off += n;
            iov_discard_front(&io->iov, &io->niov, n);
        }
        return 0;
    case MR_JIO_TRUNCATE:
        if (ftruncate(io->fd, io->off) < 0) {
            return -errno;
        }
        /* fall through */
    case MR_JIO_SYNC:
        return qemu_fdatasync(io->fd) < 0 ? -errno : 0;
    }
    return -EINVAL;
}

static int coroutine_fn mr_journal_co_io(MRJournal *j, MRJournalOp op,
                                         QEMUIOVector *qiov, uint64_t off)
{
    MRJournalIO io = {
        .fd = j->fd, .op = op, .off = off,
        .iov = qiov ? qiov->iov : NULL, .niov = qiov ? qiov->niov : 0,
    };

    return thread_pool_submit_co(mr_journal_io_fn, &io);
}

static void mr_cache_kick_all(MRArray *a);

/*
 * A journal I/O error: write-back stops (later writes go write-through).
 * The records already in the file would bring old data back at the next
 * start, so the cache is destaged and the file emptied as soon as it can
 * be (mr_cache_co_try_reset() also runs on a failed journal).
 */
static void mr_journal_fail(MRJournal *j, const char *op, int ret)
{
    bool first = !j->failed;

    trace_megaraid_err_cache_journal(op, ret);
    j->failed = true;
    qemu_co_queue_restart_all(&j->sync_wait);
    if (first) {
        mr_cache_kick_all(j->a);
    }
}

/*
 * Append a record (caller holds j->append).  @data covers the record's
 * sectors for MR_JREC_WRITE, NULL otherwise.
 */
static int coroutine_fn mr_journal_co_append(MRJournal *j, MRVdCache *c,
                                             MRJournalRecType type,
                                             uint64_t lba, uint64_t sectors,
                                             QEMUIOVector *data)
{
    MRJournalRec rec = {
        .type = type, .seq = j->next_seq, .lba = lba, .sectors = sectors,
    };
    uint8_t hdr[MR_JOURNAL_REC_HDR];
    QEMUIOVector d, q;
    int ret;

    memcpy(rec.guid, mr_vd_cfg(c->vd)->guid, MR_JOURNAL_GUID_LEN);
    qemu_iovec_init(&d, data ? data->niov : 1);
    if (data) {
        qemu_iovec_concat(&d, data, 0, sectors * MR_JOURNAL_SECTOR);
    }
    mr_journal_rec_encode(hdr, &rec, d.iov, d.niov);
    qemu_iovec_init(&q, d.niov + 1);
    qemu_iovec_add(&q, hdr, sizeof(hdr));
    qemu_iovec_concat(&q, &d, 0, d.size);
    ret = mr_journal_co_io(j, MR_JIO_WRITE, &q, j->tail);
    qemu_iovec_destroy(&q);
    qemu_iovec_destroy(&d);
    if (ret < 0) {
        mr_journal_fail(j, "write", ret);
        return ret;
    }
    trace_megaraid_cache_journal_append(c->vd->idx, rec.seq, type, lba,
                                        sectors, j->tail);
    j->tail += mr_journal_rec_size(&rec);
    j->records++;
    j->next_seq++;
    c->journaled = true;
    return 0;
}

/* Wait until the journal is durable up to @end of @epoch (group commit). */
static int coroutine_fn mr_journal_co_sync(MRJournal *j, uint64_t epoch,
                                           uint64_t end)
{
    while (j->epoch == epoch && j->synced < end) {
        uint64_t target, ep;
        int ret;

        if (j->failed) {
            return -EIO;
        }
        if (j->syncing) {
            qemu_co_queue_wait(&j->sync_wait, NULL);
            continue;
        }
        j->syncing = true;
        target = j->tail;
        ep = j->epoch;
        ret = mr_journal_co_io(j, MR_JIO_SYNC, NULL, 0);
        j->syncing = false;
        if (ret < 0) {
            mr_journal_fail(j, "fdatasync", ret);
        } else if (ep == j->epoch && target > j->synced) {
            j->synced = target;
        }
        qemu_co_queue_restart_all(&j->sync_wait);
    }
    return 0;
}

/* ---- cache lines ---- */

static gint mr_line_cmp(gconstpointer a, gconstpointer b, gpointer opaque)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static MRCacheLine *mr_line_get(MRVdCache *c, uint64_t idx)
{
    return g_tree_lookup(c->lines, &idx);
}

static MRCacheLine *mr_line_get_new(MRVdCache *c, uint64_t idx)
{
    MRCacheLine *l = mr_line_get(c, idx);
    MRJournal *j = c->vd->array->journal;

    if (!l) {
        l = g_new0(MRCacheLine, 1);
        l->idx = idx;
        l->data = g_malloc(MR_LINE_BYTES);
        g_tree_insert(c->lines, &l->idx, l);
        if (j) {
            j->lines++;
        }
    }
    return l;
}

/* Free the line if it holds nothing (no dirty data, no destage). */
static void mr_line_put(MRVdCache *c, MRCacheLine *l)
{
    MRJournal *j = c->vd->array->journal;

    if (l->destaging || !bitmap_empty(l->dirty, MR_LINE_SECTORS)) {
        return;
    }
    g_tree_remove(c->lines, &l->idx);
    g_free(l->data);
    g_free(l);
    if (j) {
        j->lines--;
        qemu_co_queue_restart_all(&j->space);
    }
}

/* Part of [lba, lba + sectors) inside line @idx, as line sectors. */
static void mr_line_span(uint64_t idx, uint64_t lba, uint64_t sectors,
                         long *s0, long *s1)
{
    uint64_t base = idx * MR_LINE_SECTORS;

    *s0 = MAX(lba, base) - base;
    *s1 = MIN(lba + sectors, base + MR_LINE_SECTORS) - base;
}

/* Dirty sectors of @l in [s0, s1)? */
static bool mr_line_dirty_in(MRCacheLine *l, long s0, long s1)
{
    return find_next_bit(l->dirty, s1, s0) < s1;
}

/* Any line of the range destaging, or dirty inside the range? */
static bool mr_cache_range_busy(MRVdCache *c, uint64_t lba, uint64_t sectors)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;
    long s0, s1;

    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        MRCacheLine *l = mr_line_get(c, idx);

        if (!l) {
            continue;
        }
        mr_line_span(idx, lba, sectors, &s0, &s1);
        if (l->destaging || mr_line_dirty_in(l, s0, s1)) {
            return true;
        }
    }
    return false;
}

static bool mr_cache_range_destaging(MRVdCache *c, uint64_t lba,
                                     uint64_t sectors)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;

    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        MRCacheLine *l = mr_line_get(c, idx);

        if (l && l->destaging) {
            return true;
        }
    }
    return false;
}

/* Copy @qiov (covering the range) into the cache as dirty data. */
static void mr_cache_fill(MRVdCache *c, uint64_t lba, uint64_t sectors,
                          QEMUIOVector *qiov)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;
    long s0, s1;

    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        MRCacheLine *l = mr_line_get_new(c, idx);

        mr_line_span(idx, lba, sectors, &s0, &s1);
        qemu_iovec_to_buf(qiov,
                          (idx * MR_LINE_SECTORS + s0 - lba) *
                          MR_JOURNAL_SECTOR,
                          l->data + s0 * MR_JOURNAL_SECTOR,
                          (s1 - s0) * MR_JOURNAL_SECTOR);
        bitmap_set(l->dirty, s0, s1 - s0);
        l->gen++;
    }
}

/* Drop dirty data of a range (no line of it may be destaging). */
static void mr_cache_drop(MRVdCache *c, uint64_t lba, uint64_t sectors)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;
    long s0, s1;

    for (idx = lba / MR_LINE_SECTORS; sectors && idx <= last; idx++) {
        MRCacheLine *l = mr_line_get(c, idx);

        if (l) {
            assert(!l->destaging);
            mr_line_span(idx, lba, sectors, &s0, &s1);
            bitmap_clear(l->dirty, s0, s1 - s0);
            l->gen++;
            mr_line_put(c, l);
        }
    }
}

static uint64_t mr_cache_lines_needed(MRVdCache *c, uint64_t lba,
                                      uint64_t sectors)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS, n = 0;

    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        n += !mr_line_get(c, idx);
    }
    return n;
}

/* ---- destage ---- */

static int coroutine_fn mr_cache_co_member_flush(MRVdCache *c)
{
    int ret;

    bool unjournaled = c->members_unjournaled;

    c->members_dirty = false;
    c->members_unjournaled = false;
    ret = mr_vd_co_io(c->vd, RAID_OP_FLUSH, 0, 0, NULL);
    if (ret < 0) {
        c->members_dirty = true;
        c->members_unjournaled |= unjournaled;
    }
    return ret;
}

/* Write a snapshot of the line's dirty data to the members. */
static int coroutine_fn mr_cache_co_destage_line(MRVdCache *c,
                                                 MRCacheLine *l)
{
    unsigned long snap[BITS_TO_LONGS(MR_LINE_SECTORS)];
    uint64_t gen = l->gen, base = l->idx * MR_LINE_SECTORS;
    uint8_t *buf;
    long s, e;
    int ret = 0;

    assert(!l->destaging);
    l->destaging = true;
    bitmap_copy(snap, l->dirty, MR_LINE_SECTORS);
    buf = g_memdup2(l->data, MR_LINE_BYTES);
    for (s = find_next_bit(snap, MR_LINE_SECTORS, 0); s < MR_LINE_SECTORS;
         s = find_next_bit(snap, MR_LINE_SECTORS, e)) {
        QEMUIOVector q;

        e = find_next_zero_bit(snap, MR_LINE_SECTORS, s);
        qemu_iovec_init_buf(&q, buf + s * MR_JOURNAL_SECTOR,
                            (e - s) * MR_JOURNAL_SECTOR);
        ret = mr_vd_co_io(c->vd, RAID_OP_WRITE, base + s, e - s, &q);
        /* after completion: a flush that started earlier missed it */
        c->members_dirty = true;
        if (ret < 0) {
            trace_megaraid_err_cache_destage(c->vd->idx, base + s, ret);
            break;
        }
    }
    g_free(buf);
    l->destaging = false;
    trace_megaraid_cache_destage(c->vd->idx, base, l->gen != gen, ret);
    if (!ret && l->gen == gen) {
        bitmap_zero(l->dirty, MR_LINE_SECTORS);
    }
    mr_line_put(c, l);
    qemu_co_queue_restart_all(&c->wait);
    return ret;
}

static gboolean mr_cache_first(gpointer key, gpointer value, gpointer out)
{
    *(MRCacheLine **)out = value;
    return TRUE;
}

static gboolean mr_cache_collect(gpointer key, gpointer value, gpointer arr)
{
    g_array_append_val((GArray *)arr, *(uint64_t *)key);
    return FALSE;
}

/*
 * Destage every line that is dirty now: afterwards all data written to
 * the cache before the call is on the members (not yet flushed).
 */
static int coroutine_fn mr_cache_co_destage_all(MRVdCache *c)
{
    GArray *idxs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    int ret = 0;
    guint i;

    g_tree_foreach(c->lines, mr_cache_collect, idxs);
    for (i = 0; i < idxs->len && !ret; i++) {
        uint64_t idx = g_array_index(idxs, uint64_t, i);
        MRCacheLine *l;

        while ((l = mr_line_get(c, idx))) {
            if (l->destaging) {
                /* its snapshot may predate us: wait, then write it again */
                qemu_co_queue_wait(&c->wait, NULL);
                continue;
            }
            if (!bitmap_empty(l->dirty, MR_LINE_SECTORS)) {
                ret = mr_cache_co_destage_line(c, l);
            }
            break;
        }
    }
    g_array_free(idxs, TRUE);
    return ret;
}

static bool mr_cache_all_clean(MRArray *a, bool flushed)
{
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

        if (c && (g_tree_nnodes(c->lines) ||
                  (flushed && c->members_dirty))) {
            return false;
        }
    }
    return true;
}

/* Empty the journal if the whole cache is clean. */
static void coroutine_fn mr_cache_co_try_reset(MRArray *a)
{
    MRJournal *j = a->journal;
    int ret;

    if (!j || j->fd < 0 || j->tail == MR_JOURNAL_FILE_HDR ||
        !mr_cache_all_clean(a, false)) {
        return;
    }
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

        if (c && c->members_dirty && mr_cache_co_member_flush(c) < 0) {
            return;
        }
    }
    qemu_co_mutex_lock(&j->append);
    if (j->tail != MR_JOURNAL_FILE_HDR &&
        mr_cache_all_clean(a, true)) {
        ret = mr_journal_co_io(j, MR_JIO_TRUNCATE, NULL, MR_JOURNAL_FILE_HDR);
        if (ret < 0) {
            mr_journal_fail(j, "truncate", ret);
        } else {
            trace_megaraid_cache_journal_reset(j->tail);
            j->tail = j->synced = MR_JOURNAL_FILE_HDR;
            j->records = 0;
            j->epoch++;
            for (int i = 0; i < RAID_MAX_VDS; i++) {
                if (a->vds[i] && a->vds[i]->cache) {
                    a->vds[i]->cache->journaled = false;
                }
            }
            qemu_co_queue_restart_all(&j->sync_wait);
        }
    }
    qemu_co_mutex_unlock(&j->append);
}

static void coroutine_fn mr_cache_destage_co(void *opaque)
{
    MRVdCache *c = opaque;
    MRArray *a = c->vd->array;
    MRJournal *j = a->journal;
    int ret;

    do {
        c->destage_again = false;
        ret = mr_cache_co_destage_all(c);
    } while (!ret && c->destage_again && !c->stopping);
    if (ret < 0) {
        j->destage_errs++;
        qemu_co_queue_restart_all(&j->space);
        if (!c->stopping) {
            timer_mod(c->timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) +
                      MR_CACHE_RETRY_MS);
        }
    } else {
        mr_cache_co_try_reset(a);
    }
    c->destage_co = NULL;
    j->busy--;
    qemu_co_queue_restart_all(&c->wait);
    aio_wait_kick();
}

/* Start the VD's destage coroutine (or make it go round once more). */
static void mr_cache_kick(MRVdCache *c)
{
    MRJournal *j = c->vd->array->journal;

    if (!j || c->stopping) {
        return;
    }
    if (c->destage_co) {
        c->destage_again = true;
        return;
    }
    if (!g_tree_nnodes(c->lines) && !c->journaled) {
        return;
    }
    trace_megaraid_cache_kick(c->vd->idx, g_tree_nnodes(c->lines));
    j->busy++;
    c->destage_co = qemu_coroutine_create(mr_cache_destage_co, c);
    aio_co_enter(qemu_get_aio_context(), c->destage_co);
}

static void mr_cache_kick_all(MRArray *a)
{
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        if (a->vds[i] && a->vds[i]->cache) {
            mr_cache_kick(a->vds[i]->cache);
        }
    }
}

static void mr_cache_timer_cb(void *opaque)
{
    mr_cache_kick(opaque);
}

/* The destage of what is dirty, one flush interval from now. */
static void mr_cache_arm_timer(MRVdCache *c)
{
    int64_t ms = MAX(c->vd->array->cache_flush_s, 1) * 1000;

    if (!timer_pending(c->timer)) {
        timer_mod(c->timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + ms);
    }
}

/* Destage a whole VD and empty the journal if possible (journal full). */
static void coroutine_fn mr_cache_co_checkpoint(MRArray *a)
{
    trace_megaraid_cache_checkpoint(a->journal->tail);
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        if (a->vds[i] && a->vds[i]->cache) {
            mr_cache_co_destage_all(a->vds[i]->cache);
        }
    }
    mr_cache_co_try_reset(a);
}

/*
 * Make the range clean before data goes below the cache: destage its
 * dirty lines (waiting for destages in flight) and, while the journal
 * holds records of the VD, flush the members and make an invalidate
 * record durable so that a replay cannot bring older data back.
 */
static int coroutine_fn mr_cache_co_settle(MRVdCache *c, uint64_t lba,
                                           uint64_t sectors)
{
    MRJournal *j = c->vd->array->journal;
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;
    uint64_t epoch, end;
    long s0, s1;
    int ret;

    for (;;) {
        for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
            MRCacheLine *l;

            while ((l = mr_line_get(c, idx))) {
                mr_line_span(idx, lba, sectors, &s0, &s1);
                if (l->destaging) {
                    qemu_co_queue_wait(&c->wait, NULL);
                } else if (mr_line_dirty_in(l, s0, s1)) {
                    ret = mr_cache_co_destage_line(c, l);
                    if (ret < 0) {
                        return ret;
                    }
                } else {
                    break;
                }
            }
        }
        if (mr_cache_range_busy(c, lba, sectors)) {
            continue;           /* written again while we yielded */
        }
        if (!j || j->fd < 0 || !c->journaled) {
            return 0;
        }
        if (c->members_dirty) {
            ret = mr_cache_co_member_flush(c);
            if (ret < 0) {
                return ret;
            }
        }
        qemu_co_mutex_lock(&j->append);
        if (!c->journaled || j->failed) {
            /* a failed journal takes no records: the data is flushed */
            qemu_co_mutex_unlock(&j->append);
            return 0;
        }
        if (mr_cache_range_busy(c, lba, sectors) || c->members_dirty) {
            qemu_co_mutex_unlock(&j->append);
            continue;
        }
        ret = mr_journal_co_append(j, c, MR_JREC_INVALIDATE, lba, sectors,
                                   NULL);
        epoch = j->epoch;
        end = j->tail;
        qemu_co_mutex_unlock(&j->append);
        if (ret < 0) {
            return ret;
        }
        mr_cache_arm_timer(c);
        return mr_journal_co_sync(j, epoch, end);
    }
}

/* ---- data path ---- */

/*
 * Is the VD's cache non-volatile now: write-back with the CacheVault
 * optimal and the journal open and healthy?  Then an acknowledged cached
 * write is durable (its record was fdatasync'ed before the ack), so FUA
 * and SYNCHRONIZE CACHE need not go below the cache.
 */
static bool mr_cache_nonvolatile(MRVirtualDisk *vd)
{
    MRJournal *j = vd->array->journal;

    return vd->cache && j && j->fd >= 0 && !j->failed &&
           vd->array->cachevault == MR_CV_OPTIMAL &&
           mr_array_write_policy(vd) != MR_WP_WRITE_THROUGH;
}

static int coroutine_fn mr_cache_co_write_through(MRVdCache *c, uint64_t lba,
                                                  uint64_t sectors,
                                                  QEMUIOVector *qiov,
                                                  bool fua)
{
    int ret = mr_cache_co_settle(c, lba, sectors);

    if (ret < 0) {
        return ret;
    }
    ret = mr_vd_co_io(c->vd, RAID_OP_WRITE, lba, sectors, qiov);
    /* after completion: a flush that started earlier missed it */
    c->members_dirty = true;
    c->members_unjournaled = true;
    if (!ret && fua) {
        ret = mr_cache_co_member_flush(c);
    }
    return ret;
}

/*
 * Cache a write; returns 1 when it must go write-through instead (does
 * not fit, journal full or failed before the data was cached).
 */
static int coroutine_fn mr_cache_co_write_back(MRVdCache *c, uint64_t lba,
                                               uint64_t sectors,
                                               QEMUIOVector *qiov)
{
    MRArray *a = c->vd->array;
    MRJournal *j = a->journal;
    bool journal = j->fd >= 0, checkpointed = false;
    uint64_t span = (lba + sectors - 1) / MR_LINE_SECTORS -
                    lba / MR_LINE_SECTORS + 1;
    uint64_t recsize = MR_JOURNAL_REC_HDR + sectors * MR_JOURNAL_SECTOR;
    uint64_t need, errs, epoch = 0, end = 0;
    QEMUIOVector bq;
    uint8_t *bounce;
    int ret = 0;

    if (span > j->max_lines ||
        (journal && recsize > j->limit - MR_JOURNAL_FILE_HDR)) {
        return 1;
    }
    for (;;) {
        qemu_co_mutex_lock(&j->append);
        if (journal && j->failed) {
            qemu_co_mutex_unlock(&j->append);
            return 1;
        }
        need = mr_cache_lines_needed(c, lba, sectors);
        if (j->lines + need > j->max_lines) {
            qemu_co_mutex_unlock(&j->append);
            trace_megaraid_cache_wait_space(c->vd->idx, need, j->lines);
            errs = j->destage_errs;
            mr_cache_kick_all(a);
            qemu_co_queue_wait(&j->space, NULL);
            if (j->destage_errs != errs) {
                return 1;       /* the cache cannot drain: go below it */
            }
            continue;
        }
        if (journal && j->tail + recsize > j->limit) {
            qemu_co_mutex_unlock(&j->append);
            if (checkpointed) {
                return 1;
            }
            mr_cache_co_checkpoint(a);
            checkpointed = true;
            continue;
        }
        break;
    }
    /*
     * One copy of the guest's buffer feeds both the cache and the record,
     * so that a guest changing its buffer meanwhile cannot make them
     * differ or break the record's checksum.
     */
    bounce = g_malloc(sectors * MR_JOURNAL_SECTOR);
    qemu_iovec_to_buf(qiov, 0, bounce, sectors * MR_JOURNAL_SECTOR);
    qemu_iovec_init_buf(&bq, bounce, sectors * MR_JOURNAL_SECTOR);
    mr_cache_fill(c, lba, sectors, &bq);
    if (journal) {
        ret = mr_journal_co_append(j, c, MR_JREC_WRITE, lba, sectors, &bq);
        epoch = j->epoch;
        end = j->tail;
    }
    qemu_co_mutex_unlock(&j->append);
    g_free(bounce);
    if (journal && !ret) {
        ret = mr_journal_co_sync(j, epoch, end);
    }
    if (ret < 0) {
        /* cached but not durable: put it on the members before the ack */
        ret = mr_cache_co_settle(c, lba, sectors);
        if (!ret) {
            ret = mr_cache_co_member_flush(c);
        }
        return ret;
    }
    if (j->lines * 2 >= j->max_lines) {
        mr_cache_kick(c);
    } else {
        mr_cache_arm_timer(c);
    }
    return 0;
}

static int coroutine_fn mr_cache_co_do_write(MRVirtualDisk *vd,
                                             uint64_t lba, uint64_t sectors,
                                             QEMUIOVector *qiov, bool fua)
{
    MRVdCache *c = vd->cache;
    MRJournal *j = vd->array->journal;
    bool wb = c && j && !(j->fd >= 0 && j->failed) &&
              mr_array_write_policy(vd) != MR_WP_WRITE_THROUGH &&
              (!fua || mr_cache_nonvolatile(vd));
    int ret;

    trace_megaraid_cache_write(vd->idx, lba, sectors, wb, fua);
    if (!sectors) {
        return 0;
    }
    if (!c) {
        return mr_vd_co_io(vd, RAID_OP_WRITE, lba, sectors, qiov);
    }
    if (wb) {
        ret = mr_cache_co_write_back(c, lba, sectors, qiov);
        if (ret <= 0) {
            return ret;
        }
    }
    return mr_cache_co_write_through(c, lba, sectors, qiov, fua);
}

static int coroutine_fn mr_cache_co_do_read(MRVirtualDisk *vd,
                                            uint64_t lba, uint64_t sectors,
                                            QEMUIOVector *qiov)
{
    MRVdCache *c = vd->cache;
    uint64_t idx, last, hit = 0, r;
    unsigned long *map = NULL;
    uint8_t *buf = NULL;
    long s0, s1, s, e;
    int ret = 0;

    if (!c || !sectors || !g_tree_nnodes(c->lines)) {
        return mr_vd_co_io(vd, RAID_OP_READ, lba, sectors, qiov);
    }
    /* snapshot the range's dirty data: it is newer than the members */
    last = (lba + sectors - 1) / MR_LINE_SECTORS;
    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        MRCacheLine *l = mr_line_get(c, idx);

        if (!l) {
            continue;
        }
        mr_line_span(idx, lba, sectors, &s0, &s1);
        for (s = find_next_bit(l->dirty, s1, s0); s < s1;
             s = find_next_bit(l->dirty, s1, e)) {
            e = find_next_zero_bit(l->dirty, s1, s);
            if (!buf) {
                buf = g_malloc(sectors * MR_JOURNAL_SECTOR);
                map = bitmap_new(sectors);
            }
            r = idx * MR_LINE_SECTORS + s - lba;
            memcpy(buf + r * MR_JOURNAL_SECTOR,
                   l->data + s * MR_JOURNAL_SECTOR,
                   (e - s) * MR_JOURNAL_SECTOR);
            bitmap_set(map, r, e - s);
            hit += e - s;
        }
    }
    trace_megaraid_cache_read(vd->idx, lba, sectors, hit);
    if (hit < sectors) {
        ret = mr_vd_co_io(vd, RAID_OP_READ, lba, sectors, qiov);
    }
    if (!ret && hit) {
        for (s = find_next_bit(map, sectors, 0); s < sectors;
             s = find_next_bit(map, sectors, e)) {
            e = find_next_zero_bit(map, sectors, s);
            qemu_iovec_from_buf(qiov, s * MR_JOURNAL_SECTOR,
                                buf + s * MR_JOURNAL_SECTOR,
                                (e - s) * MR_JOURNAL_SECTOR);
        }
    }
    g_free(buf);
    g_free(map);
    return ret;
}

/*
 * SYNCHRONIZE CACHE.  With the cache non-volatile (the journal open on a
 * healthy CacheVault's flash), the cached data of acknowledged writes is
 * already durable, as on the real card, and so is what was destaged of
 * it (its records stay until the members are flushed): it completes at
 * once, unless data went to the members without a record (write-through)
 * since their last flush; only then are the members flushed.  Without a
 * journal, with the CacheVault failed or absent, or when the VD is
 * write-through, every dirty line is destaged and the members flushed.
 */
static int coroutine_fn mr_cache_co_do_flush(MRVirtualDisk *vd)
{
    MRVdCache *c = vd->cache;
    bool durable = mr_cache_nonvolatile(vd);
    int ret;

    if (!c) {
        return mr_vd_co_io(vd, RAID_OP_FLUSH, 0, 0, NULL);
    }
    trace_megaraid_cache_flush(vd->idx, !durable, g_tree_nnodes(c->lines));
    if (durable) {
        return c->members_unjournaled ? mr_cache_co_member_flush(c) : 0;
    }
    ret = mr_cache_co_destage_all(c);
    if (ret < 0) {
        return ret;
    }
    return mr_cache_co_member_flush(c);
}

/*
 * Before an unmap: without journal records of the VD, dirty data of the
 * range is simply dropped; with them it is destaged first (settle), so
 * that a crash before the unmap completes shows the last acknowledged
 * data, never older data.
 */
static int coroutine_fn mr_cache_co_do_invalidate(MRVirtualDisk *vd,
                                                  uint64_t lba,
                                                  uint64_t sectors)
{
    MRVdCache *c = vd->cache;
    MRJournal *j = vd->array->journal;

    if (!c || !sectors) {
        return 0;
    }
    trace_megaraid_cache_invalidate(vd->idx, lba, sectors);
    for (;;) {
        if (j && j->fd >= 0 && c->journaled) {
            return mr_cache_co_settle(c, lba, sectors);
        }
        if (!mr_cache_range_destaging(c, lba, sectors)) {
            break;
        }
        qemu_co_queue_wait(&c->wait, NULL);
        j = vd->array->journal;
    }
    mr_cache_drop(c, lba, sectors);
    return 0;
}

/*
 * The entry points count as data-path requests of the VD (vd->in_flight),
 * so that mr_vd_drain() also waits for writes held by the journal.
 */
static int mr_cache_done(MRVirtualDisk *vd, int ret)
{
    vd->in_flight--;
    aio_wait_kick();
    return ret;
}

int coroutine_fn mr_cache_co_write(MRVirtualDisk *vd, uint64_t lba,
                                   uint64_t sectors, QEMUIOVector *qiov,
                                   bool fua)
{
    vd->in_flight++;
    return mr_cache_done(vd, mr_cache_co_do_write(vd, lba, sectors, qiov,
                                                  fua));
}

int coroutine_fn mr_cache_co_read(MRVirtualDisk *vd, uint64_t lba,
                                  uint64_t sectors, QEMUIOVector *qiov)
{
    vd->in_flight++;
    return mr_cache_done(vd, mr_cache_co_do_read(vd, lba, sectors, qiov));
}

int coroutine_fn mr_cache_co_flush(MRVirtualDisk *vd)
{
    vd->in_flight++;
    return mr_cache_done(vd, mr_cache_co_do_flush(vd));
}

int coroutine_fn mr_cache_co_invalidate(MRVirtualDisk *vd, uint64_t lba,
                                        uint64_t sectors)
{
    vd->in_flight++;
    return mr_cache_done(vd, mr_cache_co_do_invalidate(vd, lba, sectors));
}

void mr_cache_policy_changed(MRArray *a)
{
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVirtualDisk *vd = a->vds[i];

        if (!vd || !vd->cache) {
            continue;
        }
        trace_megaraid_cache_policy(vd->idx, mr_array_write_policy(vd),
                                    g_tree_nnodes(vd->cache->lines));
        if (mr_array_write_policy(vd) == MR_WP_WRITE_THROUGH) {
            mr_cache_kick(vd->cache);
        }
    }
}

/* ---- per VD ---- */

void mr_cache_vd_init(MRVirtualDisk *vd)
{
    MRVdCache *c;

    if (vd->cache) {
        return;
    }
    c = g_new0(MRVdCache, 1);
    c->vd = vd;
    c->lines = g_tree_new_full(mr_line_cmp, NULL, NULL, NULL);
    qemu_co_queue_init(&c->wait);
    c->timer = aio_timer_new(qemu_get_aio_context(), QEMU_CLOCK_REALTIME,
                             SCALE_MS, mr_cache_timer_cb, c);
    vd->cache = c;
}

typedef struct MRCacheJob {
    MRArray *a;
    MRVdCache *c;               /* NULL: every VD */
    bool done;
} MRCacheJob;

/* Destage one or every VD, then empty the journal if clean. */
static void coroutine_fn mr_cache_drain_co(void *opaque)
{
    MRCacheJob *job = opaque;
    MRArray *a = job->a;

    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = job->c;

        if (!c) {
            c = a->vds[i] ? a->vds[i]->cache : NULL;
        } else if (i) {
            break;
        }
        if (c && g_tree_nnodes(c->lines)) {
            int ret = mr_cache_co_destage_all(c);

            trace_megaraid_cache_drain(c->vd->idx, g_tree_nnodes(c->lines),
                                       ret);
        }
    }
    mr_cache_co_try_reset(a);
    job->done = true;
    aio_wait_kick();
}

static void mr_cache_run_drain(MRArray *a, MRVdCache *c)
{
    MRCacheJob job = { .a = a, .c = c };
    Coroutine *co = qemu_coroutine_create(mr_cache_drain_co, &job);

    assert(!qemu_in_coroutine());
    aio_co_enter(qemu_get_aio_context(), co);
    AIO_WAIT_WHILE(NULL, !job.done);
}

void mr_cache_vd_cleanup(MRVirtualDisk *vd)
{
    MRVdCache *c = vd->cache;
    MRArray *a = vd->array;
    MRJournal *j = a->journal;

    if (!c) {
        return;
    }
    c->stopping = true;
    timer_free(c->timer);
    c->timer = NULL;
    if (j && !qemu_in_coroutine()) {
        AIO_WAIT_WHILE(NULL, j->busy > 0);
        if (g_tree_nnodes(c->lines)) {
            mr_cache_run_drain(a, c);
        }
    }
    if (g_tree_nnodes(c->lines)) {
        /* the journal keeps the data if it was journaled */
        trace_megaraid_err_cache_lost(vd->idx, g_tree_nnodes(c->lines));
    }
    while (g_tree_nnodes(c->lines)) {
        MRCacheLine *l = NULL;

        g_tree_foreach(c->lines, mr_cache_first, &l);
        bitmap_zero(l->dirty, MR_LINE_SECTORS);
        l->destaging = false;
        mr_line_put(c, l);
    }
    g_tree_destroy(c->lines);
    g_free(c);
    vd->cache = NULL;
}

/* ---- what the cache holds (QOM) ---- */

static gboolean mr_cache_count_dirty(gpointer key, gpointer value,
                                     gpointer opaque)
{
    MRCacheLine *l = value;
    MRCacheStats *st = opaque;
    long n = bitmap_count_one(l->dirty, MR_LINE_SECTORS);

    if (n) {
        st->dirty_lines++;
        st->dirty_bytes += (uint64_t)n * MR_JOURNAL_SECTOR;
    }
    return FALSE;
}

/* A line lives only while it holds dirty data or is being destaged. */
bool mr_cache_vd_dirty(MRVirtualDisk *vd)
{
    return vd->cache && g_tree_nnodes(vd->cache->lines) > 0;
}

/*
 * Dirty data counts from the moment it is cached (a write is acknowledged
 * once its journal record is durable, just after) until a destage of it
 * has completed (a line being destaged is still dirty): meanwhile the
 * cache and the journal hold its only copies.
 */
void mr_cache_stats(MRArray *a, MRCacheStats *out)
{
    MRJournal *j = a->journal;

    memset(out, 0, sizeof(*out));
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

        if (c) {
            g_tree_foreach(c->lines, mr_cache_count_dirty, out);
        }
    }
    if (j && j->fd >= 0) {
        out->journal_records = j->records;
        out->journal_bytes = j->tail;
    }
}

/* ---- start (replay) and stop ---- */

typedef struct MRReplay {
    MRArray *a;
    uint64_t applied;
    uint64_t skipped;
} MRReplay;

static MRVirtualDisk *mr_cache_vd_by_guid(MRArray *a, const uint8_t *guid)
{
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVirtualDisk *vd = a->vds[i];

        if (vd && vd->cache &&
            !memcmp(mr_vd_cfg(vd)->guid, guid, RAID_GUID_LEN)) {
            return vd;
        }
    }
    return NULL;
}

/* Load one journal record into the cache (it is destaged afterwards). */
static bool mr_cache_replay_rec(const MRJournalRec *rec, const uint8_t *data,
                                void *opaque)
{
    MRReplay *r = opaque;
    MRVirtualDisk *vd = mr_cache_vd_by_guid(r->a, rec->guid);
    uint64_t size = vd ? mr_vd_cfg(vd)->size : 0;
    QEMUIOVector q;

    if (!vd) {
        trace_megaraid_cache_replay_skip(rec->seq, rec->lba, rec->sectors,
                                         "no VD with this GUID");
        r->skipped++;
        return true;
    }
    if (!rec->sectors || rec->lba >= size || rec->sectors > size - rec->lba) {
        trace_megaraid_cache_replay_skip(rec->seq, rec->lba, rec->sectors,
                                         "range beyond the VD");
        r->skipped++;
        return true;
    }
    trace_megaraid_cache_replay_record(vd->idx, rec->seq, rec->type,
                                       rec->lba, rec->sectors);
    if (rec->type == MR_JREC_WRITE) {
        qemu_iovec_init_buf(&q, (void *)data,
                            (size_t)rec->sectors * MR_JOURNAL_SECTOR);
        mr_cache_fill(vd->cache, rec->lba, rec->sectors, &q);
    } else {
        mr_cache_drop(vd->cache, rec->lba, rec->sectors);
    }
    vd->cache->journaled = true;
    r->applied++;
    return true;
}

static int mr_cache_pio(int fd, void *buf, size_t len, off_t off, bool wr)
{
    while (len) {
        ssize_t n = wr ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 ? -errno : -EIO;
        }
        buf = (uint8_t *)buf + n;
        len -= n;
        off += n;
    }
    return 0;
}

/* Open or create the journal and load its records into the VD caches. */
static bool mr_cache_open_journal(MRArray *a, MRJournal *j, Error **errp)
{
    const char *path = a->journal_path;
    MRReplay r = { .a = a };
    MRJournalScan scan;
    const char *why;
    uint8_t *buf;
    off_t size;
    int fd, ret;

    fd = qemu_create(path, O_RDWR, 0644, errp);
    if (fd < 0) {
        error_prepend(errp, "cache journal: ");
        return false;
    }
    if (qemu_lock_fd(fd, 0, 0, true) < 0) {
        error_setg(errp, "cache journal '%s' is in use by another process",
                   path);
        goto fail;
    }
    size = lseek(fd, 0, SEEK_END);
    if (size < 0) {
        error_setg_errno(errp, errno, "cache journal '%s'", path);
        goto fail;
    }
    if (size == 0) {
        uint8_t hdr[MR_JOURNAL_FILE_HDR];

        mr_journal_file_hdr_encode(hdr);
        ret = mr_cache_pio(fd, hdr, sizeof(hdr), 0, true);
        if (!ret && qemu_fdatasync(fd) < 0) {
            ret = -errno;
        }
        if (ret < 0) {
            error_setg_errno(errp, -ret, "cache journal '%s': cannot "
                             "write its header", path);
            goto fail;
        }
        j->tail = j->synced = MR_JOURNAL_FILE_HDR;
        j->fd = fd;
        trace_megaraid_cache_journal_open(path, 0, 0, 0, "new");
        return true;
    }
    buf = g_try_malloc(size);
    if (!buf) {
        error_setg(errp, "cache journal '%s': %" PRId64 " bytes do not fit "
                   "in memory", path, (int64_t)size);
        goto fail;
    }
    ret = mr_cache_pio(fd, buf, size, 0, false);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "cache journal '%s': cannot read it",
                         path);
        g_free(buf);
        goto fail;
    }
    why = mr_journal_file_hdr_check(buf, size);
    if (why) {
        error_setg(errp, "cache journal '%s': %s (move the file away to "
                   "start with an empty cache)", path, why);
        g_free(buf);
        goto fail;
    }
    mr_journal_scan(buf, size, mr_cache_replay_rec, &r, &scan);
    g_free(buf);
    trace_megaraid_cache_journal_open(path, scan.records, r.skipped,
                                      size - scan.valid_end,
                                      mr_journal_stop_name(scan.stop));
    if ((uint64_t)size > scan.valid_end &&
        ftruncate(fd, scan.valid_end) < 0) {
        error_setg_errno(errp, errno, "cache journal '%s': cannot drop its "
                         "torn tail", path);
        goto fail;
    }
    j->tail = j->synced = scan.valid_end;
    j->records = scan.records;
    j->next_seq = scan.records ? scan.last_seq + 1 : 0;
    j->fd = fd;
    return true;

fail:
    qemu_close(fd);
    return false;
}

bool mr_cache_start(MRArray *a, Error **errp)
{
    MRJournal *j = g_new0(MRJournal, 1);

    j->a = a;
    j->fd = -1;
    j->max_lines = a->cache_bytes / MR_LINE_BYTES;
    j->limit = MAX(2 * a->cache_bytes, MR_JOURNAL_MIN_LIMIT);
    qemu_co_queue_init(&j->space);
    qemu_co_queue_init(&j->sync_wait);
    qemu_co_mutex_init(&j->append);
    a->journal = j;
    if (a->journal_path && !mr_cache_open_journal(a, j, errp)) {
        for (int i = 0; i < RAID_MAX_VDS; i++) {
            if (a->vds[i] && a->vds[i]->cache) {
                MRVirtualDisk *vd = a->vds[i];

                mr_cache_drop(vd->cache, 0, mr_vd_cfg(vd)->size);
            }
        }
        a->journal = NULL;
        g_free(j);
        return false;
    }
    /* write the replayed data to the members, flush, empty the journal */
    if (j->lines || j->tail > MR_JOURNAL_FILE_HDR) {
        mr_cache_run_drain(a, NULL);
    }
    trace_megaraid_cache_start(a->journal_path ? a->journal_path : "",
                               a->cache_bytes, j->lines, j->tail);
    return true;
}

void mr_cache_stop(MRArray *a)
{
    MRJournal *j = a->journal;

    if (!j) {
        return;
    }
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

        if (c) {
            c->stopping = true;
            timer_del(c->timer);
        }
    }
    AIO_WAIT_WHILE(NULL, j->busy > 0);
    mr_cache_run_drain(a, NULL);
    trace_megaraid_cache_stop(j->lines, j->tail);
    if (j->fd >= 0) {
        qemu_close(j->fd);
    }
    a->journal = NULL;
    g_free(j);
}
