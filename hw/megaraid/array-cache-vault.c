/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache's journal file, the emulated
 * CacheVault: file I/O in the thread pool, record appends, the group
 * commit that makes records durable before writes are acknowledged, and
 * the start (open or create the file, replay its records into the VD
 * caches, destage them) and stop of the cache.  The record format is
 * array-journal.c; the rules are in array-cache.c's opening comment.
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

/* ---- journal file I/O (thread pool) ---- */

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

int coroutine_fn mr_journal_co_io(MRJournal *j, MRJournalOp op,
                                  QEMUIOVector *qiov, uint64_t off)
{
    MRJournalIO io = {
        .fd = j->fd, .op = op, .off = off,
        .iov = qiov ? qiov->iov : NULL, .niov = qiov ? qiov->niov : 0,
    };

    return thread_pool_submit_co(mr_journal_io_fn, &io);
}

/*
 * A journal I/O error: write-back stops (later writes go write-through).
 * The records already in the file would bring old data back at the next
 * start, so the cache is destaged and the file emptied as soon as it can
 * be (mr_cache_co_try_reset() also runs on a failed journal).
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
 * file writes: mr_journal_append_begin(), under j->append, gives the
 * record its sequence number and its place in the file (so the journal
 * order stays the cache order); mr_journal_co_append_finish(), after the
 * caller dropped j->append, has it written.  One write is in flight at a
 * time and takes every record placed and not yet written, in file order,
 * as one pwritev (up to MR_JOURNAL_BATCH_BYTES): records placed while a
 * write runs go out together in the next one, so a stream of small
 * writes costs one system call per batch, not per record.
 * j->written is the end of the records written without a gap: an
 * fdatasync covers only up to it, so no record is reported durable while
 * one before it is still unwritten (a crash then leaves a hole, and the
 * replay stops before it: nothing after it was acknowledged).
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
 * in one pwritev; the caller is the one writer (j->writing).
 */
static void coroutine_fn mr_journal_co_write_batch(MRJournal *j)
{
    g_autofree MRJournalAppend **batch = NULL;
    MRJournalAppend *prev = NULL;
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
                     q.size + ap->q.size > MR_JOURNAL_BATCH_BYTES)) {
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
    ret = mr_journal_co_io(j, MR_JIO_WRITE, &q, batch[0]->off);
    qemu_iovec_destroy(&q);
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
 * one fdatasync covers every record written before it started).  Up to
 * MR_JOURNAL_MAX_SYNCS run at once: a record written while one runs
 * starts the next instead of waiting for it to end, so that under a
 * steady stream a record waits for about one fdatasync, not two.  Syncs
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
            mr_journal_fail(j, "fdatasync", ret);
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
 * them to the replay: what the file was given survives the process.
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
    ERRP_GUARD();
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
        j->tail = j->synced = j->written = MR_JOURNAL_FILE_HDR;
        j->sync_target = MR_JOURNAL_FILE_HDR;
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
    j->tail = j->synced = j->written = scan.valid_end;
    j->sync_target = scan.valid_end;
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
    qemu_co_queue_init(&j->write_wait);
    g_queue_init(&j->pending);
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
