/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: row range locks.  A FIFO of held and waiting locks; a lock is
 * granted when it conflicts with no lock queued before it, so overlapping
 * requests run in arrival order and shared (read) locks run together.
 */
#include <glib.h>
#include "raid/plan.h"

struct RaidStripeLock {
    uint64_t first, last;
    bool exclusive;
    bool held;
    RaidLockGranted *granted;
    void *opaque;
};

struct RaidStripeLocks {
    GQueue queue;               /* RaidStripeLock, arrival order */
};

RaidStripeLocks *raid_stripe_locks_new(void)
{
    RaidStripeLocks *l = g_new0(RaidStripeLocks, 1);

    g_queue_init(&l->queue);
    return l;
}

void raid_stripe_locks_free(RaidStripeLocks *locks)
{
    if (locks) {
        g_assert(g_queue_is_empty(&locks->queue));
        g_free(locks);
    }
}

unsigned raid_stripe_locks_count(const RaidStripeLocks *locks)
{
    return g_queue_get_length((GQueue *)&locks->queue);
}

static bool conflicts(const RaidStripeLock *a, const RaidStripeLock *b)
{
    return a->first <= b->last && b->first <= a->last &&
           (a->exclusive || b->exclusive);
}

/* Can the lock at `node` be held, given everything queued before it? */
static bool grantable(GList *node)
{
    for (GList *n = node->prev; n; n = n->prev) {
        if (conflicts(n->data, node->data)) {
            return false;
        }
    }
    return true;
}

RaidStripeLock *raid_stripe_lock(RaidStripeLocks *locks, uint64_t first,
                                 uint64_t last, bool exclusive,
                                 RaidLockGranted *granted, void *opaque,
                                 bool *granted_now)
{
    RaidStripeLock *k = g_new0(RaidStripeLock, 1);

    k->first = first;
    k->last = last;
    k->exclusive = exclusive;
    k->granted = granted;
    k->opaque = opaque;
    g_queue_push_tail(&locks->queue, k);
    k->held = grantable(locks->queue.tail);
    *granted_now = k->held;
    return k;
}

void raid_stripe_unlock(RaidStripeLocks *locks, RaidStripeLock *lock)
{
    GPtrArray *wake = g_ptr_array_new();

    g_assert(lock->held);
    g_queue_remove(&locks->queue, lock);
    for (GList *n = locks->queue.head; n; n = n->next) {
        RaidStripeLock *k = n->data;

        if (!k->held && grantable(n)) {
            k->held = true;
            g_ptr_array_add(wake, k);
        }
    }
    g_free(lock);
    /* Callbacks last: they may take or release other locks. */
    for (guint i = 0; i < wake->len; i++) {
        RaidStripeLock *k = g_ptr_array_index(wake, i);

        k->granted(k->opaque);
    }
    g_ptr_array_free(wake, true);
}
