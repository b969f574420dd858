/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: patrol read (patrol.c), the controller's background read
 * of every configured drive's media that repairs medium errors from the
 * VD's redundancy.  Public: for the controller's QOM properties
 * (array-props-patrol.c), the management protocol (mgmt-ops-patrol.c) and
 * the personalities' own commands (fusion/mr9500-pr.c).
 */
#ifndef HW_MEGARAID_PATROL_H
#define HW_MEGARAID_PATROL_H

typedef struct MRArray MRArray;

/* The schedule (the card's patrol read modes) */
typedef enum MRPatrolMode {
    MR_PATROL_MODE_AUTO,        /* passes started by the controller */
    MR_PATROL_MODE_MANUAL,      /* only when started by the host */
    MR_PATROL_MODE_OFF,         /* disabled: a start is refused */
} MRPatrolMode;

typedef struct MRPatrolStatus {
    bool running;
    MRPatrolMode mode;
    uint8_t max_drives;         /* drives read at once (1: the model) */
    uint32_t delay_h;           /* auto: hours between passes */
    uint32_t drives_done;       /* drives read to the end in this pass */
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
/*
 * Stop the pass and wait for it (no-op if none): in a coroutine it
 * yields; on the main loop it polls (only machine exit and unplug).
 */
void mr_patrol_stop(MRArray *a);
/*
 * Ask the pass to stop without waiting: it ends at its current window.
 * mr_patrol_stopping() is true from then until it has ended, and
 * mr_patrol_when_stopped() calls @cb once it has (at once when no pass
 * runs), on the main loop.
 */
void mr_patrol_request_stop(MRArray *a);
bool mr_patrol_stopping(MRArray *a);
typedef void MRPatrolStopped(void *opaque);
void mr_patrol_when_stopped(MRArray *a, MRPatrolStopped *cb, void *opaque);
void mr_patrol_status(MRArray *a, MRPatrolStatus *out);
/* Stop the pass and free the state (the array goes away). */
void mr_patrol_free(MRArray *a);
/* Rate 1..100 (default 30). */
void mr_patrol_set_rate(MRArray *a, unsigned rate);
/* Mode (default manual) and drives read at once (stored; one is read). */
void mr_patrol_set_mode(MRArray *a, MRPatrolMode mode);
void mr_patrol_set_max_drives(MRArray *a, unsigned n);
/* Auto mode: hours from the end of a pass to the next (default 168). */
void mr_patrol_set_delay(MRArray *a, uint32_t hours);

#endif
