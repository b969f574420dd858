/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: query-megaraid in a QEMU built without the MegaRAID
 * devices (CONFIG_MEGARAID_9600 off): the schema still has the command,
 * and it answers that there is no controller.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-megaraid.h"

MegaraidInfoList *qmp_query_megaraid(Error **errp)
{
    return NULL;
}
