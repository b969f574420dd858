/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: SAS expanders in front of a drive enclosure.
 *
 * A megaraid-expander names a controller (controller=<id>) and the drive
 * enclosure whose bays its phys serve (enclosure=E: the drives given with
 * -device megaraid-drive,enclosure=E,slot=S sit on expander phy S).  Its
 * last `width` phys form the wide port to the controller phys from `port`
 * on.  The device holds only what any personality needs to know; how the
 * host sees it (handles, pages, events, SMP) is the personality's, which
 * vets it through the bus's expander_check hook at realize.  Cold plug
 * only.
 */
#ifndef HW_MEGARAID_EXPANDER_H
#define HW_MEGARAID_EXPANDER_H

#include "hw/qdev-core.h"
#include "qemu/queue.h"
#include "qom/object.h"

#define TYPE_MEGARAID_EXPANDER "megaraid-expander"
OBJECT_DECLARE_SIMPLE_TYPE(MRExpander, MEGARAID_EXPANDER)

#define MR_EXP_MIN_PHYS     8
#define MR_EXP_MAX_PHYS     64
#define MR_EXP_MAX_WIDTH    8

struct MRExpander {
    DeviceState parent_obj;

    /* properties */
    DeviceState *ctrl;          /* controller= */
    uint32_t enclosure;         /* the drive enclosure it serves, >= 1 */
    uint32_t phys;              /* its phy count */
    uint32_t port;              /* first controller phy of its wide port */
    uint32_t width;             /* controller phys (lanes) of that port */
    uint64_t sas_address;       /* 0: the personality derives one */
    char *vendor;               /* SMP REPORT MANUFACTURER INFORMATION */
    char *product;
    char *revision;

    /* state the host changes (SMP PHY CONTROL) */
    uint64_t phy_disabled;      /* bit n: phy n disabled */
    uint16_t change_count;      /* expander change count */

    struct MRBus *bus;          /* the controller's drive bus */
    QLIST_ENTRY(MRExpander) next;
};

/* The expander phys drives can use: those below its wide port's. */
static inline uint32_t mr_expander_drive_phys(const MRExpander *e)
{
    return e->phys - e->width;
}

/* The expander serving drive enclosure @encl on @bus, or NULL. */
MRExpander *mr_expander_find(struct MRBus *bus, uint32_t encl);

#endif
