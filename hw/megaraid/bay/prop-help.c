/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: read-only properties marked in the help of the drive and
 * the controllers (prop-help.h).
 */
#include "qemu/osdep.h"
#include "hw/megaraid/prop-help.h"

void mr_class_mark_read_only(ObjectClass *oc)
{
    ObjectPropertyIterator iter;
    ObjectProperty *op;

    object_class_property_iter_init(&iter, oc);
    while ((op = object_property_iter_next(&iter))) {
        g_autofree char *desc = NULL;

        if (op->set || !op->get ||
            g_hash_table_lookup(oc->properties, op->name) != op ||
            (op->description && strstr(op->description, "read-only"))) {
            continue;
        }
        desc = op->description ?
               g_strdup_printf("%s (read-only)", op->description) :
               g_strdup("(read-only)");
        object_class_property_set_description(oc, op->name, desc);
    }
}
