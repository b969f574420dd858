/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the megaraid-expander device (expander.h): its
 * properties, the checks any personality shares (the controller is a
 * megaraid controller whose personality takes expanders, the enclosure
 * is not the card's own and has no other expander, the phys and the
 * port's width are in range, no drive of its enclosure sits beyond its
 * drive phys) and its place on the controller's drive bus's list.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/expander.h"
#include "trace.h"

MRExpander *mr_expander_find(MRBus *bus, uint32_t encl)
{
    MRExpander *e;

    QLIST_FOREACH(e, &bus->expanders, next) {
        if (e->enclosure == encl) {
            return e;
        }
    }
    return NULL;
}

static MRBus *mr_expander_ctrl_bus(DeviceState *ctrl)
{
    BusState *b;

    QLIST_FOREACH(b, &ctrl->child_bus, sibling) {
        MRBus *mb = (MRBus *)object_dynamic_cast(OBJECT(b),
                                                 TYPE_MEGARAID_BUS);
        if (mb) {
            return mb;
        }
    }
    return NULL;
}

/* Every drive of the enclosure already there sits on a drive phy. */
static bool mr_expander_check_drives(MRExpander *e, Error **errp)
{
    BusChild *kid;

    QTAILQ_FOREACH(kid, &BUS(e->bus)->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (d->enclosure == e->enclosure && d->unit.iface != MR_IF_NVME &&
            d->slot >= mr_expander_drive_phys(e)) {
            error_setg(errp, "megaraid-expander: the drive in slot=%u of "
                       "enclosure=%u is beyond the expander's %u drive phys "
                       "(phys=%u less width=%u)", d->slot, e->enclosure,
                       mr_expander_drive_phys(e), e->phys, e->width);
            return false;
        }
    }
    return true;
}

static void mr_expander_realize(DeviceState *dev, Error **errp)
{
    MRExpander *e = MEGARAID_EXPANDER(dev);

    if (!e->ctrl) {
        error_setg(errp, "megaraid-expander: controller= (the id of a "
                   "megaraid-9600) is required");
        return;
    }
    e->bus = mr_expander_ctrl_bus(e->ctrl);
    if (!e->bus) {
        error_setg(errp, "megaraid-expander: controller=%s is not a "
                   "megaraid controller", e->ctrl->id ?: "?");
        return;
    }
    if (!e->bus->expander_check) {
        error_setg(errp, "megaraid-expander: controller=%s does not take "
                   "expanders (megaraid-9600 with sas-transport=on does)",
                   e->ctrl->id ?: "?");
        return;
    }
    if (e->enclosure == 0) {
        error_setg(errp, "megaraid-expander: enclosure=0 is the card's own "
                   "(its bays are on the controller's phys); use 1 or "
                   "above");
        return;
    }
    if (mr_expander_find(e->bus, e->enclosure)) {
        error_setg(errp, "megaraid-expander: enclosure=%u already has an "
                   "expander", e->enclosure);
        return;
    }
    if (e->phys < MR_EXP_MIN_PHYS || e->phys > MR_EXP_MAX_PHYS) {
        error_setg(errp, "megaraid-expander: phys=%u is out of range "
                   "(%d to %d)", e->phys, MR_EXP_MIN_PHYS, MR_EXP_MAX_PHYS);
        return;
    }
    if (e->width < 1 || e->width > MR_EXP_MAX_WIDTH ||
        e->width >= e->phys) {
        error_setg(errp, "megaraid-expander: width=%u is out of range "
                   "(1 to %d, below phys=%u)", e->width, MR_EXP_MAX_WIDTH,
                   e->phys);
        return;
    }
    if (!mr_expander_check_drives(e, errp) ||
        !e->bus->expander_check(e->bus->expander_opaque, e, errp)) {
        return;
    }
    QLIST_INSERT_HEAD(&e->bus->expanders, e, next);
    trace_megaraid_expander_realize(e->enclosure, e->phys, e->port,
                                    e->width, e->sas_address);
}

static void mr_expander_unrealize(DeviceState *dev)
{
    MRExpander *e = MEGARAID_EXPANDER(dev);

    QLIST_REMOVE(e, next);
}

static const Property mr_expander_props[] = {
    DEFINE_PROP_LINK("controller", MRExpander, ctrl, TYPE_DEVICE,
                     DeviceState *),
    DEFINE_PROP_UINT32("enclosure", MRExpander, enclosure, 1),
    DEFINE_PROP_UINT32("phys", MRExpander, phys, 28),
    DEFINE_PROP_UINT32("port", MRExpander, port, 0),
    DEFINE_PROP_UINT32("width", MRExpander, width, 4),
    DEFINE_PROP_UINT64("sas-address", MRExpander, sas_address, 0),
    DEFINE_PROP_STRING("vendor", MRExpander, vendor),
    DEFINE_PROP_STRING("product", MRExpander, product),
    DEFINE_PROP_STRING("revision", MRExpander, revision),
};

static const struct {
    const char *name;
    const char *desc;
} mr_expander_prop_desc[] = {
    { "controller", "id of the megaraid-9600 (sas-transport=on) whose "
      "phys the expander's wide port is cabled to (required)" },
    { "enclosure", "the drive enclosure whose bays the expander's phys "
      "serve (megaraid-drive enclosure=), 1-14; drive slot S "
      "is on expander phy S" },
    { "phys", "phy count, 8-64 (28 as a SAS4x28, 24 also "
      "common); the last width= of them are the port to the controller" },
    { "port", "first controller phy of the wide port" },
    { "width", "lanes of the wide port, 1-8: controller phys "
      "port to port+width-1" },
    { "sas-address", "SAS address (0: the controller's plus "
      "enclosure * 0x100 + 0xFF)" },
    { "vendor", "SMP REPORT MANUFACTURER vendor, up to 8 characters "
      "(default BROADCOM)" },
    { "product", "SMP REPORT MANUFACTURER product, up to 16 characters "
      "(default SAS4x28)" },
    { "revision", "SMP REPORT MANUFACTURER revision, up to 4 characters "
      "(default 0100)" },
};

static void mr_expander_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = mr_expander_realize;
    dc->unrealize = mr_expander_unrealize;
    dc->hotpluggable = false;
    dc->desc = "MegaRAID SAS expander in front of a drive enclosure";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, mr_expander_props);
    for (size_t i = 0; i < ARRAY_SIZE(mr_expander_prop_desc); i++) {
        object_class_property_set_description(oc,
                                              mr_expander_prop_desc[i].name,
                                              mr_expander_prop_desc[i].desc);
    }
}

static const TypeInfo mr_expander_info = {
    .name = TYPE_MEGARAID_EXPANDER,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MRExpander),
    .class_init = mr_expander_class_init,
};

static void mr_expander_register_types(void)
{
    type_register_static(&mr_expander_info);
}

type_init(mr_expander_register_types)
