/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache's destager.  One coroutine per VD
 * writes dirty cache lines to the members (kicked when the cache is half
 * full, by the flush-interval timer, by a checkpoint when the journal is
 * full); settling a range before data goes below the cache; member
 * flushes; emptying the journal once every VD is clean and flushed; the
 * drain at stop and after the replay at start.  A destage writes a
 * snapshot of a line and marks it clean only if no write changed the
 * line meanwhile (its generation), see array-cache.c.
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

/* Write a snapshot of the line's dirty data to the members. */
int coroutine_fn mr_cache_co_destage_line(MRVdCache *c,
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

/*
 * Destage every line that is dirty now: afterwards all data written to
 * the cache before the call is on the members (not yet flushed).
 */
int coroutine_fn mr_cache_co_destage_all(MRVdCache *c)
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
void coroutine_fn mr_cache_co_try_reset(MRArray *a)
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

void mr_cache_run_drain(MRArray *a, MRVdCache *c)
{
    MRCacheJob job = { .a = a, .c = c };
    Coroutine *co = qemu_coroutine_create(mr_cache_drain_co, &job);

    assert(!qemu_in_coroutine());
    aio_co_enter(qemu_get_aio_context(), co);
    AIO_WAIT_WHILE(NULL, !job.done);
}
