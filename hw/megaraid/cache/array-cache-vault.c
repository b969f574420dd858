/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache's journal drive, the emulated
 * CacheVault: its I/O through the block layer, record appends, the group
 * commit that makes records durable before writes are acknowledged, and
 * the start (check or format the drive's header, replay its records into
 * the VD caches, destage them) and stop of the cache.  The record format
 * is array-journal.c; the rules are in array-cache.c's opening comment.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/bitmap.h"
#include "qemu/coroutine.h"
#include "qemu/iov.h"
#include "qemu/memalign.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "block/aio-wait.h"
#include "system/block-backend.h"
#include "hw/megaraid/member/member.h"
#include "cache.h"
#include "array-journal.h"
#include "array-cache-int.h"
#include "hw/megaraid/nv-drive.h"
#include "trace.h"

/* ---- journal drive I/O (the block layer, from coroutines) ---- */

/*
 * One write, one flush, or emptying the journal: the header of the next
 * generation, flushed, after which the records on the drive count as old.
 */
int coroutine_fn mr_journal_co_io(MRJournal *j, MRJournalOp op,
                                  QEMUIOVector *qiov, uint64_t off)
{
    uint8_t hdr[MR_JOURNAL_FILE_HDR];
    int ret;

    switch (op) {
    case MR_JIO_WRITE:
        return blk_co_pwritev(j->blk, off, qiov->size, qiov, 0);
    case MR_JIO_SYNC:
        return blk_co_flush(j->blk);
    case MR_JIO_RESET:
        mr_journal_file_hdr_encode(hdr, j->gen + 1);
        ret = blk_co_pwrite(j->blk, 0, sizeof(hdr), hdr, 0);
        if (ret >= 0) {
            ret = blk_co_flush(j->blk);
        }
        if (ret >= 0) {
            j->gen++;
        }
        return ret;
    }
    return -EINVAL;
}

/*
 * A journal I/O error: write-back stops (later writes go write-through).
 * The records already on the drive would bring old data back at the next
 * start, so the cache is destaged and the journal emptied as soon as it
 * can be (mr_cache_co_try_reset() also runs on a failed journal).
 */
void mr_journal_fail(MRJournal *j, const char *op, int ret)
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
 * Appending is two steps so that writers do not queue behind each other's
 * drive writes: mr_journal_append_begin(), under j->append, gives the
 * record its sequence number and its place on the drive (so the journal
 * order stays the cache order); mr_journal_co_append_finish(), after the
 * caller dropped j->append, has it written.  One write is in flight at a
 * time and takes every record placed and not yet written, in journal
 * order, as one blk_co_pwritev (up to MR_JOURNAL_BATCH_BYTES and the
 * drive's iovec limit): records placed while a write runs go out
 * together in the next one, so a stream of small writes costs one block
 * layer request per batch, not per record.
 * j->written is the end of the records written without a gap: a flush
 * covers only up to it, so no record is reported durable while one before
 * it is still unwritten (a crash then leaves a hole, and the replay stops
 * before it: nothing after it was acknowledged).
 */
struct MRJournalAppend {
    MRJournal *j;
    uint64_t off, end;
    bool issued;                /* in a write (in flight or done) */
    bool done;                  /* written (or failed): ret */
    bool finished;              /* its writer saw it: may be freed */
    int ret;
    uint8_t hdr[MR_JOURNAL_REC_HDR];
    QEMUIOVector q;
};

#define MR_JOURNAL_BATCH_BYTES  (4 * MiB)

/*
 * Place a record (caller holds j->append).  @data covers the record's
 * sectors for MR_JREC_WRITE, NULL otherwise; it must stay unchanged until
 * mr_journal_co_append_finish() returns.
 */
MRJournalAppend *mr_journal_append_begin(MRJournal *j, MRVdCache *c,
                                         MRJournalRecType type,
                                         uint64_t lba, uint64_t sectors,
                                         QEMUIOVector *data)
{
    MRJournalRec rec = {
        .type = type, .seq = j->next_seq, .lba = lba, .sectors = sectors,
        .gen = j->gen,
    };
    MRJournalAppend *ap = g_new0(MRJournalAppend, 1);
    QEMUIOVector d;

    memcpy(rec.guid, mr_vd_cfg(c->vd)->guid, MR_JOURNAL_GUID_LEN);
    qemu_iovec_init(&d, data ? data->niov : 1);
    if (data) {
        qemu_iovec_concat(&d, data, 0, sectors * MR_JOURNAL_SECTOR);
    }
    mr_journal_rec_encode(ap->hdr, &rec, d.iov, d.niov);
    qemu_iovec_init(&ap->q, d.niov + 1);
    qemu_iovec_add(&ap->q, ap->hdr, sizeof(ap->hdr));
    qemu_iovec_concat(&ap->q, &d, 0, d.size);
    qemu_iovec_destroy(&d);
    ap->j = j;
    ap->off = j->tail;
    ap->end = j->tail + mr_journal_rec_size(&rec);
    g_queue_push_tail(&j->pending, ap);
    trace_megaraid_cache_journal_append(c->vd->idx, rec.seq, type, lba,
                                        sectors, j->tail);
    j->tail = ap->end;
    j->records++;
    j->next_seq++;
    c->journaled = true;
    return ap;
}

/*
 * Write the records placed and not yet in a write, from the first one on,
 * in one request; the caller is the one writer (j->writing).  A single
 * record of more pieces than the drive takes in one request goes through
 * a bounce buffer.
 */
static void coroutine_fn mr_journal_co_write_batch(MRJournal *j)
{
    g_autofree MRJournalAppend **batch = NULL;
    int max_iov = MAX(blk_get_max_iov(j->blk), 2);
    MRJournalAppend *prev = NULL;
    void *bounce = NULL;
    QEMUIOVector q;
    GList *l;
    unsigned n = 0, i;
    int ret;

    qemu_iovec_init(&q, 16);
    batch = g_new(MRJournalAppend *, g_queue_get_length(&j->pending));
    for (l = j->pending.head; l; l = l->next) {
        MRJournalAppend *ap = l->data;

        if (ap->issued) {
            continue;
        }
        if (prev && (ap->off != prev->end ||
                     q.size + ap->q.size > MR_JOURNAL_BATCH_BYTES ||
                     q.niov + ap->q.niov > max_iov)) {
            break;
        }
        ap->issued = true;
        qemu_iovec_concat(&q, &ap->q, 0, ap->q.size);
        batch[n++] = ap;
        prev = ap;
    }
    if (!n) {
        qemu_iovec_destroy(&q);
        return;
    }
    if (q.niov > max_iov) {
        size_t size = q.size;

        bounce = qemu_blockalign(blk_bs(j->blk), size);
        qemu_iovec_to_buf(&q, 0, bounce, size);
        qemu_iovec_destroy(&q);
        qemu_iovec_init_buf(&q, bounce, size);
    }
    ret = mr_journal_co_io(j, MR_JIO_WRITE, &q, batch[0]->off);
    qemu_iovec_destroy(&q);
    qemu_vfree(bounce);
    if (ret < 0) {
        mr_journal_fail(j, "write", ret);
    }
    for (i = 0; i < n; i++) {
        batch[i]->ret = ret;
        batch[i]->done = true;
    }
}

/* Have a placed record written; its end goes to *@end (mr_journal_co_sync). */
int coroutine_fn mr_journal_co_append_finish(MRJournalAppend *ap,
                                             uint64_t *end)
{
    MRJournal *j = ap->j;
    int ret;

    while (!ap->done) {
        if (j->writing) {
            qemu_co_queue_wait(&j->write_wait, NULL);
            continue;
        }
        j->writing = true;
        mr_journal_co_write_batch(j);
        j->writing = false;
        qemu_co_queue_restart_all(&j->write_wait);
    }
    ret = ap->ret;
    qemu_iovec_destroy(&ap->q);
    *end = ap->end;
    ap->finished = true;
    /* records written in a batch are freed once their writers saw them */
    while (!g_queue_is_empty(&j->pending) &&
           ((MRJournalAppend *)g_queue_peek_head(&j->pending))->finished) {
        MRJournalAppend *head = g_queue_pop_head(&j->pending);

        j->written = head->end;
        g_free(head);
    }
    qemu_co_queue_restart_all(&j->sync_wait);
    return ret;
}

/*
 * Wait until the journal is durable up to @end of @epoch (group commit:
 * one flush covers every record written before it started).  Up to
 * MR_JOURNAL_MAX_SYNCS run at once: a record written while one runs
 * starts the next instead of waiting for it to end, so that under a
 * steady stream a record waits for about one flush, not two.  Flushes
 * may end out of order; synced only grows.
 */
int coroutine_fn mr_journal_co_sync(MRJournal *j, uint64_t epoch,
                                    uint64_t end)
{
    while (j->epoch == epoch && j->synced < end) {
        uint64_t target, ep;
        int ret;

        if (j->failed) {
            return -EIO;
        }
        if (j->written < end || j->sync_target >= end ||
            j->syncs >= MR_JOURNAL_MAX_SYNCS) {
            /* not written yet, a running sync covers it, or no slot */
            qemu_co_queue_wait(&j->sync_wait, NULL);
            continue;
        }
        j->syncs++;
        target = j->sync_target = j->written;
        ep = j->epoch;
        ret = mr_journal_co_io(j, MR_JIO_SYNC, NULL, 0);
        j->syncs--;
        if (ret < 0) {
            mr_journal_fail(j, "flush", ret);
        } else if (ep == j->epoch && target > j->synced) {
            j->synced = target;
        }
        qemu_co_queue_restart_all(&j->sync_wait);
    }
    return 0;
}

/*
 * Wait until every record up to @end of @epoch is written (j->written: no
 * record before it still unwritten), so that a QEMU that dies now leaves
 * them to the replay: what the drive was given survives the process (on
 * a qcow2 journal only with its metadata preallocated: qcow2 keeps the
 * mapping of newly allocated clusters in memory until a flush).
 */
int coroutine_fn mr_journal_co_written(MRJournal *j, uint64_t epoch,
                                       uint64_t end)
{
    while (j->epoch == epoch && j->written < end) {
        if (j->failed) {
            return -EIO;
        }
        qemu_co_queue_wait(&j->sync_wait, NULL);
    }
    return j->failed && j->epoch == epoch ? -EIO : 0;
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

/* The journal is read at start in pieces of this size (or a record's). */
#define MR_JOURNAL_READ_CHUNK   (4 * MiB)

/*
 * Empty the journal at start (the main loop at machine start, a
 * coroutine at a run-time import): the next generation.
 */
static bool coroutine_mixed_fn
mr_cache_journal_new_gen(MRJournal *j, uint64_t gen, const char *desc,
                         Error **errp)
{
    uint8_t hdr[MR_JOURNAL_FILE_HDR];
    int ret;

    mr_journal_file_hdr_encode(hdr, gen);
    ret = blk_pwrite(j->blk, 0, sizeof(hdr), hdr, 0);
    if (ret >= 0) {
        ret = blk_flush(j->blk);
    }
    if (ret < 0) {
        error_setg_errno(errp, -ret, "journal: drive %s: cannot write its "
                         "header", desc);
        return false;
    }
    j->gen = gen;
    return true;
}

/*
 * Read the records of generation @gen from the drive, in pieces, into
 * the VD caches; the scan's result in *@scan.  The records may go past
 * j->limit (a journal written with a larger cache-size): the whole drive
 * is read, up to the first record that is not one of them.
 */
static bool coroutine_mixed_fn
mr_cache_replay(MRJournal *j, uint64_t gen, MRReplay *r, MRJournalScan *scan,
                const char *desc, Error **errp)
{
    int64_t end = blk_getlength(j->blk);
    size_t cap;
    g_autofree uint8_t *buf = NULL;

    if (end < 0) {
        error_setg_errno(errp, -end, "journal: drive %s: cannot get its "
                         "size", desc);
        return false;
    }
    cap = MIN(MR_JOURNAL_READ_CHUNK, end);
    buf = g_malloc(cap);
    memset(scan, 0, sizeof(*scan));
    scan->valid_end = MR_JOURNAL_FILE_HDR;
    for (;;) {
        uint64_t base = scan->valid_end;
        uint64_t len = MIN(cap, end - base);
        uint64_t need;
        int ret;

        if (!len) {
            break;
        }
        ret = blk_pread(j->blk, base, len, buf, 0);
        if (ret < 0) {
            error_setg_errno(errp, -ret, "journal: drive %s: cannot read "
                             "it", desc);
            return false;
        }
        mr_journal_scan_piece(buf, len, base, gen, mr_cache_replay_rec, r,
                              scan);
        if (scan->stop != MR_JSTOP_SHORT || base + len >= end) {
            break;
        }
        if (scan->valid_end > base) {
            continue;                   /* the next piece from there */
        }
        /* a record larger than the piece: a piece as large as it */
        need = mr_journal_rec_need(buf, len);
        if (need <= len || need > end - base) {
            break;
        }
        g_free(buf);
        buf = g_try_malloc(need);
        if (!buf) {
            error_setg(errp, "journal: drive %s: a record of %" PRIu64
                       " bytes does not fit in memory", desc, need);
            return false;
        }
        cap = need;
    }
    return true;
}

/*
 * Check the journal drive's header (a blank drive gets one) and load the
 * records of its generation into the VD caches.  An empty journal starts
 * a new generation at once, so that no record on the drive, whatever was
 * cut short before, can pass for one of this run.
 */
static bool coroutine_mixed_fn
mr_cache_open_journal(MRArray *a, MRJournal *j, Error **errp)
{
    ERRP_GUARD();
    const char *name = mr_nv_drive_name(a->journal_blk);
    g_autofree char *desc = mr_nv_drive_desc(a->journal_blk);
    uint8_t hdr[MR_JOURNAL_FILE_HDR];
    MRReplay r = { .a = a };
    MRJournalScan scan;
    const char *why;
    uint64_t gen;
    int ret;

    j->blk = a->journal_blk;
    ret = blk_pread(j->blk, 0, sizeof(hdr), hdr, 0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "journal: drive %s: cannot read its "
                         "header", desc);
        return false;
    }
    if (mr_journal_file_hdr_blank(hdr, sizeof(hdr))) {
        gen = (uint64_t)g_random_int() << 32 | g_random_int();
        if (!mr_cache_journal_new_gen(j, gen, desc, errp)) {
            return false;
        }
        j->tail = j->synced = j->written = MR_JOURNAL_FILE_HDR;
        j->sync_target = MR_JOURNAL_FILE_HDR;
        trace_megaraid_cache_journal_open(name, gen, 0, 0, j->tail, "new");
        return true;
    }
    why = mr_journal_file_hdr_check(hdr, sizeof(hdr), &gen);
    if (why) {
        error_setg(errp, "journal: drive %s: %s (a blank drive, or one "
                   "whose first %d bytes are zero, starts with an empty "
                   "cache)", desc, why, MR_JOURNAL_FILE_HDR);
        return false;
    }
    if (!mr_cache_replay(j, gen, &r, &scan, desc, errp)) {
        return false;
    }
    trace_megaraid_cache_journal_open(name, gen, scan.records, r.skipped,
                                      scan.valid_end,
                                      mr_journal_stop_name(scan.stop));
    if (!scan.records && !mr_cache_journal_new_gen(j, gen + 1, desc, errp)) {
        return false;
    }
    j->gen = scan.records ? gen : gen + 1;
    j->tail = j->synced = j->written = scan.valid_end;
    j->sync_target = scan.valid_end;
    j->records = scan.records;
    j->next_seq = scan.records ? scan.last_seq + 1 : 0;
    return true;
}

uint64_t mr_cache_journal_bytes(MRArray *a)
{
    return MAX(2 * a->cache_bytes, MR_JOURNAL_MIN_LIMIT);
}

bool coroutine_mixed_fn mr_cache_load(MRArray *a, Error **errp)
{
    MRJournal *j = g_new0(MRJournal, 1);

    j->a = a;
    j->max_lines = a->cache_bytes / MR_LINE_BYTES;
    j->limit = mr_cache_journal_bytes(a);
    qemu_co_queue_init(&j->space);
    qemu_co_queue_init(&j->sync_wait);
    qemu_co_queue_init(&j->write_wait);
    g_queue_init(&j->pending);
    qemu_co_mutex_init(&j->append);
    a->journal = j;
    if (a->journal_blk && !mr_cache_open_journal(a, j, errp)) {
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
    return true;
}

void coroutine_mixed_fn mr_cache_load_destage(MRArray *a)
{
    MRJournal *j = a->journal;

    /* write the replayed data to the members, flush, empty the journal */
    if (j->lines || j->tail > MR_JOURNAL_FILE_HDR) {
        mr_cache_run_drain(a, NULL);
    }
    trace_megaraid_cache_start(a->journal_blk ?
                               mr_nv_drive_name(a->journal_blk) : "",
                               a->cache_bytes, j->lines, j->tail);
}

bool coroutine_mixed_fn mr_cache_start(MRArray *a, Error **errp)
{
    if (!mr_cache_load(a, errp)) {
        return false;
    }
    mr_cache_load_destage(a);
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
    a->journal = NULL;
    g_free(j);
}
