/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache's destager.  One coroutine per VD
 * writes dirty cache lines to the members (kicked when the cache is half
 * full, by the flush-interval timer, by a checkpoint when the journal is
 * full); settling a range before data goes below the cache; member
 * flushes; emptying the journal once every VD is clean and flushed; the
 * drain at stop and after the replay at start.
 *
 * The destage decision (mr_cache_destage_pick) merges adjacent dirty
 * lines into extents of up to 1 MiB cut at row boundaries, so that a
 * sequential stream reaches a RAID 5/6 VD as full-stripe writes (parity
 * from the new data, no reads) rather than a read-modify-write per line;
 * up to MR_DESTAGE_MAX_INFLIGHT extents per VD are written at once.  A
 * destage writes a snapshot of its lines and marks a line clean only if
 * no write changed it meanwhile (its generation), see array-cache.c; a
 * line is in at most one destage at a time.
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

/* ---- destage ---- */

int coroutine_fn mr_cache_co_member_flush(MRVdCache *c)
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

/*
 * The destage decision: how many adjacent lines, from @first on, one
 * destage takes.  Lines are merged while the dirty data runs on without
 * a gap from one line into the next (the last sector of a line and the
 * first of the next both dirty), so that a sequential stream becomes one
 * member write per extent and, where it covers whole rows of the VD, one
 * full-stripe write per row (parity from the new data, no reads) instead
 * of a read-modify-write per 64 KiB line.  An extent ends at a row
 * boundary once it holds MR_DESTAGE_MAX_SECTORS (or one row, if a row is
 * larger), so that the writes in flight share the work.  A line being
 * destaged ends the extent.  @first must be dirty and not destaging.
 */
uint32_t mr_cache_destage_pick(MRVdCache *c, MRCacheLine *first)
{
    uint64_t row = c->vd->layout.row_sectors;
    uint32_t row_lines = 1, max_lines, n = 1;
    MRCacheLine *last = first;

    if (row && row % MR_LINE_SECTORS == 0) {
        row_lines = row / MR_LINE_SECTORS;
    }
    max_lines = MAX(MR_DESTAGE_MAX_SECTORS / MR_LINE_SECTORS / row_lines, 1) *
                row_lines;
    for (;;) {
        uint64_t next = last->idx + 1;
        MRCacheLine *l;

        if (n >= max_lines ||
            (next % row_lines == 0 && n + row_lines > max_lines)) {
            break;
        }
        l = mr_line_get(c, next);
        if (!l || l->destaging ||
            !test_bit(MR_LINE_SECTORS - 1, last->dirty) ||
            !test_bit(0, l->dirty)) {
            break;
        }
        last = l;
        n++;
    }
    return n;
}

/*
 * Write a snapshot of the dirty data of lines @idx .. @idx + @n - 1 (all
 * present, marked destaging by the caller) to the members: one write per
 * run of dirty sectors, runs continuing across line boundaries.  A line's
 * dirty bits are cleared only if no write changed it meanwhile.
 */
static int coroutine_fn mr_cache_co_destage_extent(MRVdCache *c,
                                                   uint64_t idx, uint32_t n)
{
    uint64_t base = idx * MR_LINE_SECTORS, total = n * MR_LINE_SECTORS;
    g_autofree MRCacheLine **lines = g_new(MRCacheLine *, n);
    g_autofree uint64_t *gens = g_new(uint64_t, n);
    g_autofree unsigned long *snap = bitmap_new(total);
    uint8_t *buf = g_malloc((size_t)n * MR_LINE_BYTES);
    uint64_t s, e;
    int ret = 0;

    for (uint32_t i = 0; i < n; i++) {
        MRCacheLine *l = mr_line_get(c, idx + i);

        assert(l && l->destaging);
        lines[i] = l;
        gens[i] = l->gen;
        for (s = find_next_bit(l->dirty, MR_LINE_SECTORS, 0);
             s < MR_LINE_SECTORS;
             s = find_next_bit(l->dirty, MR_LINE_SECTORS, e)) {
            e = find_next_zero_bit(l->dirty, MR_LINE_SECTORS, s);
            bitmap_set(snap, i * MR_LINE_SECTORS + s, e - s);
        }
        memcpy(buf + (size_t)i * MR_LINE_BYTES, l->data, MR_LINE_BYTES);
    }
    for (s = find_next_bit(snap, total, 0); s < total;
         s = find_next_bit(snap, total, e)) {
        QEMUIOVector q;

        e = find_next_zero_bit(snap, total, s);
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
    for (uint32_t i = 0; i < n; i++) {
        MRCacheLine *l = lines[i];

        l->destaging = false;
        trace_megaraid_cache_destage(c->vd->idx, l->idx * MR_LINE_SECTORS,
                                     l->gen != gens[i], ret);
        if (!ret && l->gen == gens[i]) {
            bitmap_zero(l->dirty, MR_LINE_SECTORS);
        }
        mr_line_put(c, l);
    }
    qemu_co_queue_restart_all(&c->wait);
    return ret;
}

/* Write a snapshot of the line's dirty data to the members. */
int coroutine_fn mr_cache_co_destage_line(MRVdCache *c, MRCacheLine *l)
{
    assert(!l->destaging);
    l->destaging = true;
    return mr_cache_co_destage_extent(c, l->idx, 1);
}

gboolean mr_cache_first(gpointer key, gpointer value, gpointer out)
{
    *(MRCacheLine **)out = value;
    return TRUE;
}

static gboolean mr_cache_collect(gpointer key, gpointer value, gpointer arr)
{
    g_array_append_val((GArray *)arr, *(uint64_t *)key);
    return FALSE;
}

/* The extents one mr_cache_co_destage_all() call has in flight. */
typedef struct MRDestageBatch {
    MRVdCache *c;
    Coroutine *co;
    unsigned running;
    bool waiting;
    int ret;
} MRDestageBatch;

typedef struct MRDestageWork {
    MRDestageBatch *b;
    uint64_t idx;
    uint32_t n;
} MRDestageWork;

static void coroutine_fn mr_cache_destage_work_co(void *opaque)
{
    MRDestageWork *w = opaque;
    MRDestageBatch *b = w->b;
    MRVdCache *c = b->c;
    int ret = mr_cache_co_destage_extent(c, w->idx, w->n);

    g_free(w);
    if (ret < 0 && !b->ret) {
        b->ret = ret;
    }
    c->inflight--;
    qemu_co_queue_next(&c->slots);
    if (!--b->running && b->waiting) {
        b->waiting = false;
        aio_co_wake(b->co);
    }
}

/*
 * Destage every line that is dirty now: afterwards all data written to
 * the cache before the call is on the members (not yet flushed).  Up to
 * MR_DESTAGE_MAX_INFLIGHT extents of the VD are written at once (the
 * bound is per VD, shared by every caller); each extent's lines are
 * marked destaging before it starts, so no line is in two destages.
 */
int coroutine_fn mr_cache_co_destage_all(MRVdCache *c)
{
    GArray *idxs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    MRDestageBatch b = { .c = c, .co = qemu_coroutine_self() };
    uint64_t own_end = 0;       /* lines below: in our own extents */
    guint i;

    g_tree_foreach(c->lines, mr_cache_collect, idxs);
    for (i = 0; i < idxs->len && !b.ret; i++) {
        uint64_t idx = g_array_index(idxs, uint64_t, i);
        MRCacheLine *l;

        if (idx < own_end) {
            continue;           /* its snapshot was taken after our start */
        }
        while (!b.ret && (l = mr_line_get(c, idx))) {
            MRDestageWork *w;

            if (l->destaging) {
                /* its snapshot may predate us: wait, then write it again */
                qemu_co_queue_wait(&c->wait, NULL);
                continue;
            }
            if (bitmap_empty(l->dirty, MR_LINE_SECTORS)) {
                break;
            }
            if (c->inflight >= MR_DESTAGE_MAX_INFLIGHT) {
                qemu_co_queue_wait(&c->slots, NULL);
                continue;       /* the line may have changed meanwhile */
            }
            w = g_new0(MRDestageWork, 1);
            w->b = &b;
            w->idx = idx;
            w->n = mr_cache_destage_pick(c, l);
            for (uint32_t k = 0; k < w->n; k++) {
                mr_line_get(c, idx + k)->destaging = true;
            }
            own_end = idx + w->n;
            c->inflight++;
            b.running++;
            aio_co_enter(qemu_get_aio_context(),
                         qemu_coroutine_create(mr_cache_destage_work_co, w));
            break;
        }
    }
    while (b.running) {
        b.waiting = true;
        qemu_coroutine_yield();
    }
    g_array_free(idxs, TRUE);
    return b.ret;
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

/*
 * Must the members be flushed before the journal lets go of their data?
 * Only as far as the journal made it durable: without journal-sync, when
 * no record of this epoch was flushed (no FUA write, no SYNCHRONIZE
 * CACHE) nor is being, the records only protected against QEMU's death,
 * which data written to the members' files survives as well.  The members
 * then count as unjournaled: the next SYNCHRONIZE CACHE flushes them.
 */
static bool mr_cache_reset_needs_flush(MRArray *a)
{
    MRJournal *j = a->journal;

    return a->journal_sync || j->synced > MR_JOURNAL_FILE_HDR || j->syncs;
}

/* Empty the journal if the whole cache is clean. */
void coroutine_fn mr_cache_co_try_reset(MRArray *a)
{
    MRJournal *j = a->journal;
    bool flush;
    int ret;

    if (!j || !j->blk || j->tail == MR_JOURNAL_FILE_HDR ||
        !g_queue_is_empty(&j->pending) || !mr_cache_all_clean(a, false)) {
        return;
    }
    flush = mr_cache_reset_needs_flush(a);
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

        if (flush && c && c->members_dirty &&
            mr_cache_co_member_flush(c) < 0) {
            return;
        }
    }
    qemu_co_mutex_lock(&j->append);
    if (j->tail != MR_JOURNAL_FILE_HDR && g_queue_is_empty(&j->pending) &&
        mr_cache_all_clean(a, flush) &&
        (flush || !mr_cache_reset_needs_flush(a))) {
        ret = mr_journal_co_io(j, MR_JIO_RESET, NULL, 0);
        if (ret < 0) {
            mr_journal_fail(j, "reset", ret);
        } else {
            trace_megaraid_cache_journal_reset(j->tail);
            j->tail = j->synced = j->written = MR_JOURNAL_FILE_HDR;
            j->sync_target = MR_JOURNAL_FILE_HDR;
            j->records = 0;
            j->epoch++;
            for (int i = 0; i < RAID_MAX_VDS; i++) {
                MRVdCache *c = a->vds[i] ? a->vds[i]->cache : NULL;

                if (c) {
                    c->journaled = false;
                    c->members_unjournaled |= c->members_dirty;
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
void mr_cache_kick(MRVdCache *c)
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

void mr_cache_kick_all(MRArray *a)
{
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        if (a->vds[i] && a->vds[i]->cache) {
            mr_cache_kick(a->vds[i]->cache);
        }
    }
}

void mr_cache_timer_cb(void *opaque)
{
    mr_cache_kick(opaque);
}

void mr_cache_destage_decide(MRVdCache *c)
{
    MRJournal *j = c->vd->array->journal;

    if (j->lines * 100 >= j->max_lines * MR_CACHE_DESTAGE_HIGH_PCT) {
        mr_cache_kick(c);
    } else {
        mr_cache_arm_timer(c);
    }
}

/* The destage of what is dirty, one flush interval from now. */
void mr_cache_arm_timer(MRVdCache *c)
{
    int64_t ms = MAX(c->vd->array->cache_flush_s, 1) * 1000;

    if (!timer_pending(c->timer)) {
        timer_mod(c->timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + ms);
    }
}

/* Destage a whole VD and empty the journal if possible (journal full). */
void coroutine_fn mr_cache_co_checkpoint(MRArray *a)
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
int coroutine_fn mr_cache_co_settle(MRVdCache *c, uint64_t lba,
                                    uint64_t sectors)
{
    MRJournal *j = c->vd->array->journal;
    uint64_t idx, last = (lba + sectors - 1) / MR_LINE_SECTORS;
    MRJournalAppend *ap;
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
        if (!j || !j->blk || !c->journaled) {
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
        ap = mr_journal_append_begin(j, c, MR_JREC_INVALIDATE, lba, sectors,
                                     NULL);
        epoch = j->epoch;
        qemu_co_mutex_unlock(&j->append);
        ret = mr_journal_co_append_finish(ap, &end);
        if (ret < 0) {
            return ret;
        }
        mr_cache_arm_timer(c);
        return mr_journal_co_sync(j, epoch, end);
    }
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

void coroutine_mixed_fn mr_cache_run_drain(MRArray *a, MRVdCache *c)
{
    MRCacheJob job = { .a = a, .c = c };
    Coroutine *co;

    if (qemu_in_coroutine()) {
        /* (a run-time import's replay): in this coroutine */
        mr_cache_drain_co(&job);
        return;
    }
    co = qemu_coroutine_create(mr_cache_drain_co, &job);
    aio_co_enter(qemu_get_aio_context(), co);
    AIO_WAIT_WHILE(NULL, !job.done);
}
