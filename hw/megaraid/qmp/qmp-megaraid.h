/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the host's QMP view of a controller's array (qmp-info.c:
 * query-megaraid; qmp-events.c: MEGARAID_EVENT per event log entry).
 * Host-neutral: it reads an MRArray and the drives on its bus, whatever
 * host interface embeds them.
 */
#ifndef HW_MEGARAID_QMP_MEGARAID_H
#define HW_MEGARAID_QMP_MEGARAID_H

#include "qapi/qapi-types-megaraid.h"
#include "hw/megaraid/array/array.h"

/* One controller as query-megaraid reports it: @bus holds its drives. */
MegaraidInfo *mr_qmp_array_info(MRArray *a, MRBus *bus);

/*
 * Send MEGARAID_EVENT for every new entry of the array's event log
 * (a->evlog open; entries before a->owner is set are not sent); detach
 * before the log is closed.
 */
void mr_qmp_events_attach(MRArray *a);
/*
 * While @hold, the entries @a logs are held (the import of a cold-plugged
 * controller, before the main loop: no QMP client listens); they are sent
 * when the machine first runs, or at once when it runs already.
 */
void mr_qmp_events_hold(MRArray *a, bool hold);
void mr_qmp_events_detach(MRArray *a);

#endif
