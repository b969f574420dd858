/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller cache and its journal (array-cache*.c).
 * I/O for array-vd.c; start/stop, per-VD init/cleanup for array.c and
 * array-config.c; the policy change and the statistics for array-props.c
 * and the controller (mgmt-ops.c, qmp-info.c).  It asks the write policy
 * through MRArrayHooks.cache.
 */
#ifndef HW_MEGARAID_CACHE_H
#define HW_MEGARAID_CACHE_H

#include "hw/megaraid/member/array-types.h"

/*
 * Open the journal (a->journal_blk) and replay it onto the VDs:
 * mr_cache_load() then mr_cache_load_destage().  On the main loop at
 * machine start; in a coroutine (run-time FOREIGN IMPORT) its reads,
 * writes and destage yield instead of polling the main loop.
 */
bool coroutine_mixed_fn mr_cache_start(MRArray *a, Error **errp);
/*
 * Its two halves: the journal's header and records read into the VD
 * caches (nothing is written to the members; a failure leaves no
 * journal and every VD cache empty), then the replayed data destaged to
 * the members and the journal emptied.
 */
bool coroutine_mixed_fn mr_cache_load(MRArray *a, Error **errp);
void coroutine_mixed_fn mr_cache_load_destage(MRArray *a);
/*
 * Bytes of the journal drive the cache uses (and needs): twice the cache
 * size, at least 4 MiB; a checkpoint empties it when it is full.
 */
uint64_t mr_cache_journal_bytes(MRArray *a);
void mr_cache_stop(MRArray *a);
void mr_cache_vd_init(MRVirtualDisk *vd);
void mr_cache_vd_cleanup(MRVirtualDisk *vd);
/*
 * The same in a coroutine (run-time VD DELETE): waits for the journal
 * and destages the VD's dirty lines without stopping the main loop.
 */
void coroutine_fn mr_cache_co_vd_cleanup(MRVirtualDisk *vd);
/* Through the cache; fall to mr_vd_co_io() as the policy says. */
int coroutine_fn mr_cache_co_read(MRVirtualDisk *vd, uint64_t lba,
                                  uint64_t sectors, QEMUIOVector *qiov);
int coroutine_fn mr_cache_co_write(MRVirtualDisk *vd, uint64_t lba,
                                   uint64_t sectors, QEMUIOVector *qiov,
                                   bool fua);
int coroutine_fn mr_cache_co_flush(MRVirtualDisk *vd);
/* Drop cached data of a range (before an unmap goes below the cache). */
int coroutine_fn mr_cache_co_invalidate(MRVirtualDisk *vd, uint64_t lba,
                                        uint64_t sectors);
/* CacheVault state changed: write back everything if now write-through. */
void mr_cache_policy_changed(MRArray *a);

/* What the cache holds now (QOM cache-dirty-bytes, journal-records). */
typedef struct MRCacheStats {
    uint64_t dirty_bytes;       /* cached data not yet on the members */
    uint64_t dirty_lines;
    uint64_t journal_records;   /* records in the journal */
    uint64_t journal_bytes;     /* its size, header included */
} MRCacheStats;
void mr_cache_stats(MRArray *a, MRCacheStats *out);
/* The cache holds data of @vd not yet on its members (timing model). */
bool mr_cache_vd_dirty(MRVirtualDisk *vd);

#endif
