/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the three files of the controller cache share (not
 * part of the array's interface, which is array.h): the cache line, the
 * per-VD cache and the controller-wide journal state, and the functions
 * each file offers the others.
 *   array-cache.c          cache lines, the data path (read, write-back,
 *                          write-through, flush, invalidate), per-VD state
 *   array-cache-destage.c  the destager: which dirty data goes to the
 *                          members next (the destage decision), settling
 *                          a range, member flushes, emptying the journal
 *   array-cache-vault.c    the journal drive (the emulated CacheVault):
 *                          record appends, group commit, replay at start
 */
#ifndef HW_MEGARAID_ARRAY_CACHE_INT_H
#define HW_MEGARAID_ARRAY_CACHE_INT_H

#define MR_LINE_SECTORS         128
#define MR_LINE_BYTES           (MR_LINE_SECTORS * MR_JOURNAL_SECTOR)
#define MR_CACHE_RETRY_MS       5000    /* retry after a destage error */
#define MR_CACHE_MIN_LINES      16
#define MR_JOURNAL_MIN_LIMIT    (4 * MiB)   /* > the largest request */
/* destage writes of a VD in flight at once, and the size of each */
#define MR_DESTAGE_MAX_INFLIGHT 8
#define MR_DESTAGE_MAX_SECTORS  2048            /* 1 MiB, whole rows */
#define MR_JOURNAL_MAX_SYNCS    4       /* journal flushes at once */

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
    CoQueue slots;              /* waiting for inflight < the bound */
    unsigned inflight;          /* destage writes (extents) in flight */
    Coroutine *destage_co;
    bool destage_again;
    bool stopping;
    QEMUTimer *timer;           /* idle destage and error retry */
    bool journaled;             /* journal holds records of this VD */
    bool members_dirty;         /* member writes since the last flush */
    bool members_unjournaled;   /* of them, writes the journal lacks */
};

/*
 * Controller-wide state: the cache memory budget and the journal drive
 * (blk NULL: no journal).  One per MRArray, a->journal.
 */
struct MRJournal {
    MRArray *a;
    BlockBackend *blk;          /* a->journal_blk once opened */
    uint64_t gen;               /* generation in the journal's header */
    bool failed;                /* I/O error: no more write-back */
    uint64_t lines;             /* cache lines allocated, all VDs */
    uint64_t max_lines;
    uint64_t destage_errs;      /* destage failures so far */
    CoQueue space;              /* writers waiting for free lines */
    CoMutex append;             /* cache copy + record write order */
    uint64_t tail;              /* end of the placed records */
    uint64_t written;           /* records written up to, no gap */
    GQueue pending;             /* MRJournalAppend in file order */
    bool writing;               /* a batch of records is being written */
    CoQueue write_wait;         /* records waiting for the next batch */
    uint64_t records;           /* records in the journal (up to tail) */
    uint64_t synced;            /* flushed up to (this epoch) */
    uint64_t epoch;             /* bumped when the journal is emptied */
    uint64_t next_seq;
    uint64_t limit;             /* journal size that forces a checkpoint */
    unsigned syncs;             /* flushes running */
    uint64_t sync_target;       /* what the last one started covers */
    CoQueue sync_wait;
    unsigned busy;              /* background coroutines running */
};

typedef enum MRJournalOp {
    MR_JIO_WRITE,               /* @qiov at @off */
    MR_JIO_SYNC,                /* flush the drive */
    MR_JIO_RESET,               /* empty: header of the next generation */
} MRJournalOp;

/* ---- array-cache-vault.c ---- */

int coroutine_fn mr_journal_co_io(MRJournal *j, MRJournalOp op,
                                  QEMUIOVector *qiov, uint64_t off);
void mr_journal_fail(MRJournal *j, const char *op, int ret);
typedef struct MRJournalAppend MRJournalAppend;
/* Place a record (caller holds j->append), then write it without it. */
MRJournalAppend *mr_journal_append_begin(MRJournal *j, MRVdCache *c,
                                         MRJournalRecType type,
                                         uint64_t lba, uint64_t sectors,
                                         QEMUIOVector *data);
int coroutine_fn mr_journal_co_append_finish(MRJournalAppend *ap,
                                             uint64_t *end);
/* Wait until the journal is durable up to @end of @epoch. */
int coroutine_fn mr_journal_co_sync(MRJournal *j, uint64_t epoch,
                                    uint64_t end);
/* Wait until the journal is written, without a gap, up to @end of @epoch. */
int coroutine_fn mr_journal_co_written(MRJournal *j, uint64_t epoch,
                                       uint64_t end);

/* ---- array-cache.c: cache lines ---- */

gint mr_line_cmp(gconstpointer a, gconstpointer b, gpointer opaque);
MRCacheLine *mr_line_get(MRVdCache *c, uint64_t idx);
MRCacheLine *mr_line_get_new(MRVdCache *c, uint64_t idx);
void mr_line_put(MRVdCache *c, MRCacheLine *l);
void mr_line_span(uint64_t idx, uint64_t lba, uint64_t sectors,
                  long *s0, long *s1);
bool mr_line_dirty_in(MRCacheLine *l, long s0, long s1);
bool mr_cache_range_busy(MRVdCache *c, uint64_t lba, uint64_t sectors);
bool mr_cache_range_destaging(MRVdCache *c, uint64_t lba, uint64_t sectors);
void mr_cache_fill(MRVdCache *c, uint64_t lba, uint64_t sectors,
                   QEMUIOVector *qiov);
void mr_cache_drop(MRVdCache *c, uint64_t lba, uint64_t sectors);
uint64_t mr_cache_lines_needed(MRVdCache *c, uint64_t lba, uint64_t sectors);
bool mr_cache_nonvolatile(MRVirtualDisk *vd);

/* ---- array-cache-destage.c ---- */

int coroutine_fn mr_cache_co_member_flush(MRVdCache *c);
/* The destage decision: lines from @first that one destage takes. */
uint32_t mr_cache_destage_pick(MRVdCache *c, MRCacheLine *first);
int coroutine_fn mr_cache_co_destage_line(MRVdCache *c, MRCacheLine *l);
gboolean mr_cache_first(gpointer key, gpointer value, gpointer out);
int coroutine_fn mr_cache_co_destage_all(MRVdCache *c);
void coroutine_fn mr_cache_co_try_reset(MRArray *a);
void mr_cache_kick(MRVdCache *c);
void mr_cache_kick_all(MRArray *a);
void mr_cache_timer_cb(void *opaque);
void mr_cache_arm_timer(MRVdCache *c);
/*
 * When the cache destages, decided after every write-back write: at once
 * when the dirty lines of all VDs fill MR_CACHE_DESTAGE_HIGH_PCT percent
 * of the cache, else everything dirty one flush interval
 * (cache-flush-interval) after a write into a clean cache.  (A write
 * that finds no room kicks every VD's destage and waits for it; a VD
 * that turns write-through and a failed journal destage at once.)
 */
#define MR_CACHE_DESTAGE_HIGH_PCT   50
void mr_cache_destage_decide(MRVdCache *c);
void coroutine_fn mr_cache_co_checkpoint(MRArray *a);
int coroutine_fn mr_cache_co_settle(MRVdCache *c, uint64_t lba,
                                    uint64_t sectors);
/* Destage one VD (@c) or every VD (NULL); in a coroutine it yields. */
void coroutine_mixed_fn mr_cache_run_drain(MRArray *a, MRVdCache *c);

#endif
