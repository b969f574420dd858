/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache of the array glue, its lines and its
 * data path.  Write-back data is held in 64 KiB cache lines per VD and
 * appended to a journal drive (array-cache-vault.c) before the write is
 * acknowledged; the destager (array-cache-destage.c) writes dirty lines
 * to the members through mr_vd_co_io(); the journal is replayed at start
 * and emptied whenever the whole cache is clean.
 * What the three files share is array-cache-int.h; the journal's on-disk
 * format is array-journal.c.  The cache calls only down (array-member.c);
 * the VD's write policy is array.c's, asked through MRArrayHooks.
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
 *  - one record per cached write, copied into the cache and given its
 *    place in the journal under one CoMutex, so the journal order is the
 *    cache order; the record is written after the mutex is dropped, so
 *    writers' records go to the drive concurrently; a write is
 *    acknowledged once its record and every record before it are written
 *    (a QEMU that dies then leaves them to the replay), with
 *    journal-sync only once a flush of the journal drive that started
 *    after that has returned (group commit: one flush covers every record
 *    written before it);
 *  - FUA writes and SYNCHRONIZE CACHE of a write-back VD whose CacheVault
 *    is optimal complete once journaled and flushed, as on the card
 *    (the journal is its non-volatile cache): a FUA write is cached like
 *    any other, and a SYNCHRONIZE CACHE syncs the journal and only
 *    flushes the members if data went to them without a journal record
 *    (write-through) since their last flush.
 *    Otherwise (write-through VD, CacheVault failed or absent, no
 *    journal) FUA writes through and SYNCHRONIZE CACHE destages;
 *  - before a range goes below the cache (write-through, unmap) while
 *    the journal holds records of the VD, its dirty data is destaged, the
 *    members are flushed and an invalidate record is made durable, so a
 *    replay never writes older journaled data over newer data;
 *  - when every VD is clean and its members flushed (when the journal
 *    made records durable; otherwise they count as unjournaled), the
 *    journal is emptied: its header is rewritten, flushed, with the next
 *    generation, which voids every record on the drive.
 * Journal I/O goes through the block layer from coroutines (blk_co_*),
 * never blocking the main loop.
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
#include "hw/megaraid/member/member.h"
#include "cache.h"
#include "array-journal.h"
#include "array-cache-int.h"
#include "trace.h"

/* The VD's write policy: array.c's, through MRArrayHooks (array.h). */
static MRWritePolicy mr_cache_policy(MRVirtualDisk *vd)
{
    return vd->array->hooks->cache.write_policy(vd);
}

/* ---- cache lines ---- */

gint mr_line_cmp(gconstpointer a, gconstpointer b, gpointer opaque)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

MRCacheLine *mr_line_get(MRVdCache *c, uint64_t idx)
{
    return g_tree_lookup(c->lines, &idx);
}

MRCacheLine *mr_line_get_new(MRVdCache *c, uint64_t idx)
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
void mr_line_put(MRVdCache *c, MRCacheLine *l)
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
void mr_line_span(uint64_t idx, uint64_t lba, uint64_t sectors,
                  long *s0, long *s1)
{
    uint64_t base = idx * MR_LINE_SECTORS;

    *s0 = MAX(lba, base) - base;
    *s1 = MIN(lba + sectors, base + MR_LINE_SECTORS) - base;
}

/* Dirty sectors of @l in [s0, s1)? */
bool mr_line_dirty_in(MRCacheLine *l, long s0, long s1)
{
    return find_next_bit(l->dirty, s1, s0) < s1;
}

/* Any line of the range destaging, or dirty inside the range? */
bool mr_cache_range_busy(MRVdCache *c, uint64_t lba, uint64_t sectors)
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

bool mr_cache_range_destaging(MRVdCache *c, uint64_t lba,
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
void mr_cache_fill(MRVdCache *c, uint64_t lba, uint64_t sectors,
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
void mr_cache_drop(MRVdCache *c, uint64_t lba, uint64_t sectors)
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

uint64_t mr_cache_lines_needed(MRVdCache *c, uint64_t lba,
                               uint64_t sectors)
{
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS, n = 0;

    for (idx = lba / MR_LINE_SECTORS; idx <= last; idx++) {
        n += !mr_line_get(c, idx);
    }
    return n;
}

/* ---- data path ---- */

/*
 * Is the VD's cache non-volatile now: write-back with the CacheVault
 * optimal and the journal open and healthy?  Then an acknowledged cached
 * write is in the journal (written, or with journal-sync flushed,
 * before the ack), so FUA and SYNCHRONIZE CACHE need not go below the
 * cache: syncing the journal makes them durable.
 */
bool mr_cache_nonvolatile(MRVirtualDisk *vd)
{
    MRJournal *j = vd->array->journal;

    return vd->cache && j && j->blk && !j->failed &&
           vd->array->cachevault == MR_CV_OPTIMAL &&
           mr_cache_policy(vd) != MR_WP_WRITE_THROUGH;
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
 * not fit, journal full or failed before the data was cached).  With a
 * journal it returns once the write's record is written (with @fua or
 * journal-sync: flushed).
 */
static int coroutine_fn mr_cache_co_write_back(MRVdCache *c, uint64_t lba,
                                               uint64_t sectors,
                                               QEMUIOVector *qiov, bool fua)
{
    MRArray *a = c->vd->array;
    MRJournal *j = a->journal;
    bool journal = j->blk, checkpointed = false;
    uint64_t span = (lba + sectors - 1) / MR_LINE_SECTORS -
                    lba / MR_LINE_SECTORS + 1;
    uint64_t recsize = MR_JOURNAL_REC_HDR + sectors * MR_JOURNAL_SECTOR;
    uint64_t need, errs, epoch = 0, end = 0;
    MRJournalAppend *ap = NULL;
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
        ap = mr_journal_append_begin(j, c, MR_JREC_WRITE, lba, sectors, &bq);
        epoch = j->epoch;
    }
    qemu_co_mutex_unlock(&j->append);
    if (journal) {
        /* other writers place and write their records meanwhile */
        ret = mr_journal_co_append_finish(ap, &end);
    }
    g_free(bounce);
    if (journal && !ret) {
        ret = a->journal_sync || fua ? mr_journal_co_sync(j, epoch, end) :
                                       mr_journal_co_written(j, epoch, end);
    }
    if (ret < 0) {
        /* cached but not durable: put it on the members before the ack */
        ret = mr_cache_co_settle(c, lba, sectors);
        if (!ret) {
            ret = mr_cache_co_member_flush(c);
        }
        return ret;
    }
    mr_cache_destage_decide(c);
    return 0;
}

static int coroutine_fn mr_cache_co_do_write(MRVirtualDisk *vd,
                                             uint64_t lba, uint64_t sectors,
                                             QEMUIOVector *qiov, bool fua)
{
    MRVdCache *c = vd->cache;
    MRJournal *j = vd->array->journal;
    bool wb = c && j && !(j->blk && j->failed) &&
              mr_cache_policy(vd) != MR_WP_WRITE_THROUGH &&
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
        ret = mr_cache_co_write_back(c, lba, sectors, qiov, fua);
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
 * in the journal, as on the real card, and so is what was destaged of it
 * (its records stay until the members are flushed): it completes once
 * the journal is flushed (at once with journal-sync), and flushes the
 * members only if data went to them without a record (write-through)
 * since their last flush.  Without a
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
        MRJournal *j = vd->array->journal;

        if (!vd->array->journal_sync) {
            /* what acknowledged writes wrote to the journal, to its disk */
            ret = mr_journal_co_sync(j, j->epoch, j->written);
            if (ret < 0) {
                return ret;
            }
        }
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
        if (j && j->blk && c->journaled) {
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
        trace_megaraid_cache_policy(vd->idx, mr_cache_policy(vd),
                                    g_tree_nnodes(vd->cache->lines));
        if (mr_cache_policy(vd) == MR_WP_WRITE_THROUGH) {
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
    qemu_co_queue_init(&c->slots);
    c->timer = aio_timer_new(qemu_get_aio_context(), QEMU_CLOCK_REALTIME,
                             SCALE_MS, mr_cache_timer_cb, c);
    vd->cache = c;
}

/* The VD's cache takes nothing new: its timer stops. */
static void mr_cache_vd_stop(MRVdCache *c)
{
    c->stopping = true;
    timer_free(c->timer);
    c->timer = NULL;
}

static void mr_cache_vd_forget(MRVirtualDisk *vd);

void mr_cache_vd_cleanup(MRVirtualDisk *vd)
{
    MRVdCache *c = vd->cache;
    MRArray *a = vd->array;
    MRJournal *j = a->journal;

    if (!c) {
        return;
    }
    mr_cache_vd_stop(c);
    if (j && !qemu_in_coroutine()) {
        AIO_WAIT_WHILE(NULL, j->busy > 0);
        if (g_tree_nnodes(c->lines)) {
            mr_cache_run_drain(a, c);
        }
    }
    mr_cache_vd_forget(vd);
}

void coroutine_fn mr_cache_co_vd_cleanup(MRVirtualDisk *vd)
{
    MRVdCache *c = vd->cache;
    MRArray *a = vd->array;
    MRJournal *j = a->journal;

    if (!c) {
        return;
    }
    mr_cache_vd_stop(c);
    if (j) {
        while (j->busy > 0) {
            qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, SCALE_MS);
        }
        if (g_tree_nnodes(c->lines)) {
            int ret = mr_cache_co_destage_all(c);

            trace_megaraid_cache_drain(vd->idx, g_tree_nnodes(c->lines), ret);
        }
        mr_cache_co_try_reset(a);
    }
    mr_cache_vd_forget(vd);
}

/* Drop what is left of the VD's cache (destaged or not) and free it. */
static void mr_cache_vd_forget(MRVirtualDisk *vd)
{
    MRVdCache *c = vd->cache;

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
    if (j && j->blk) {
        out->journal_records = j->records;
        out->journal_bytes = j->tail;
    }
}
