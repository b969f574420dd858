/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: patrol read (patrol.c), the controller's background read
 * of every configured drive's media that repairs medium errors from the
 * VD's redundancy.  For the controller's properties (array-props.c).
 */
#ifndef HW_MEGARAID_PATROL_H
#define HW_MEGARAID_PATROL_H

#include "hw/megaraid/member/array-types.h"

typedef struct MRPatrolStatus {
    bool running;
    unsigned rate;              /* percent, 1..100 */
    uint32_t iterations;        /* passes completed */
    uint64_t done_sectors;      /* of this pass, all drives */
    uint64_t total_sectors;
    unsigned percent;
    int cur_slot;               /* drive being read, -1 none */
    unsigned cur_percent;       /* ...its progress */
    uint32_t corrected;         /* medium errors repaired (all passes) */
    uint32_t uncorrectable;     /* medium errors left (no redundancy) */
} MRPatrolStatus;

/* Start a pass (false + errp if one runs or there is nothing to read). */
bool mr_patrol_start(MRArray *a, Error **errp);
/* Stop the pass and wait for it (no-op if none). */
void mr_patrol_stop(MRArray *a);
void mr_patrol_status(MRArray *a, MRPatrolStatus *out);
/* Rate 1..100 (default 30). */
void mr_patrol_set_rate(MRArray *a, unsigned rate);

#endif
