/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what `-device megaraid-*,help` and device-list-properties
 * say about a property beyond its own description: a property that can
 * only be read is marked "(read-only)".
 */
#ifndef HW_MEGARAID_PROP_HELP_H
#define HW_MEGARAID_PROP_HELP_H

#include "qom/object.h"

/*
 * Append " (read-only)" to the description of every property of @oc
 * itself (not its parents') that has a getter and no setter, unless the
 * description says so already.  Call at the end of class_init.
 */
void mr_class_mark_read_only(ObjectClass *oc);

#endif
