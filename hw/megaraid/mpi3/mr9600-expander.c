/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's SAS expanders (sas-transport=on), the
 * MPI3 view of each megaraid-expander (bay/expander.c): its checks
 * against the controller (port within the phys, no phy shared with a
 * drive on the controller or another expander), its device handle
 * (MR9600_EXP_HANDLE_BASE + enclosure) and SAS address, its Device page
 * 0, SAS Expander pages 0 and 1, its enclosure (handle 1 + enclosure,
 * Enclosure page 0 and ENCLOSURE DEVICE ADDED), the Device page 0
 * fields of the drives behind it, and the topology change lists of
 * discovery (the controller's list of the wide port, then the
 * expander's, split where its phys do not fit one event) and of a drive
 * plugged or pulled behind it.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "mr9600.h"
#include "trace.h"

/* Expander phys negotiate 22.5 Gb/s with the controller. */
#define MR9600_EXP_PORT_RATE    MPI3_SAS_NEG_LINK_RATE_22_5
#define MR9600_EXP_HW_RATE      ((MPI3_SAS_NEG_LINK_RATE_22_5 << 4) | \
                                 MPI3_SAS_NEG_LINK_RATE_6_0)
/* Topology entries one event carries (128-byte reply frame). */
#define MR9600_TOPO_MAX_ENTRIES \
    ((MR9600_REPLY_FRAME_SIZE - sizeof(MPI3EventNotificationReply) - \
      sizeof(MPI3EventSASTopoChange) + sizeof(MPI3EventSASTopoEntry)) / \
     sizeof(MPI3EventSASTopoEntry))

static MRBus *mr9600_exp_bus(MR9600State *s)
{
    return &s->core.bus;
}

uint16_t mr9600_exp_handle(MRExpander *e)
{
    return MR9600_EXP_HANDLE_BASE + e->enclosure;
}

static uint16_t mr9600_exp_encl_handle(MRExpander *e)
{
    return MR9600_ENCL_HANDLE + e->enclosure;
}

uint64_t mr9600_exp_address(MR9600State *s, MRExpander *e)
{
    return e->sas_address ? e->sas_address
                          : mr9600_sas_address(s) + e->enclosure * 0x100 +
                            0xFF;
}

MRExpander *mr9600_exp_by_handle(MR9600State *s, uint16_t handle)
{
    MRExpander *e;

    if (!mr9600_sas_on(s)) {
        return NULL;
    }
    QLIST_FOREACH(e, &mr9600_exp_bus(s)->expanders, next) {
        if (mr9600_exp_handle(e) == handle) {
            return e;
        }
    }
    return NULL;
}

/* The expander whose wide port holds controller phy @phy, or NULL. */
MRExpander *mr9600_exp_on_phy(MR9600State *s, uint32_t phy)
{
    MRExpander *e;

    if (!mr9600_sas_on(s)) {
        return NULL;
    }
    QLIST_FOREACH(e, &mr9600_exp_bus(s)->expanders, next) {
        if (phy >= e->port && phy < e->port + e->width) {
            return e;
        }
    }
    return NULL;
}

/* The expander @u sits behind (on expander phy u->slot), or NULL. */
MRExpander *mr9600_exp_of_unit(MR9600State *s, MRUnit *u)
{
    MRExpander *e;

    if (!mr9600_sas_on(s) || u->vd || !u->drive || u->iface == MR_IF_NVME ||
        u->drive->enclosure == 0) {
        return NULL;
    }
    e = mr_expander_find(mr9600_exp_bus(s), u->drive->enclosure);
    return e && u->slot < mr_expander_drive_phys(e) ? e : NULL;
}

/* The drive on expander phy @phy as the host may know it, or NULL. */
static MRUnit *mr9600_exp_phy_unit(MR9600State *s, MRExpander *e,
                                   uint32_t phy)
{
    for (uint32_t h = 1; h < MR9600_MAX_DEV_HANDLE; h++) {
        MRUnit *u = mr9600_unit_by_handle(s, h);

        if (u && u->slot == phy && mr9600_exp_of_unit(s, u) == e) {
            return u;
        }
    }
    return NULL;
}

/* bay/expander.c's realize asks: does this controller take @e? */
static bool mr9600_exp_check(void *opaque, MRExpander *e, Error **errp)
{
    MR9600State *s = opaque;
    uint32_t n = mr9600_sas_num_phys(s);
    BusChild *kid;

    if (!mr9600_sas_on(s)) {
        error_setg(errp, "megaraid-expander: the controller needs "
                   "sas-transport=on for expanders");
        return false;
    }
    if (e->enclosure > MR9600_EXP_MAX_ENCL) {
        error_setg(errp, "megaraid-expander: enclosure=%u is out of range "
                   "(1 to %d on megaraid-9600)", e->enclosure,
                   MR9600_EXP_MAX_ENCL);
        return false;
    }
    if (e->port >= n || e->port + e->width > n) {
        error_setg(errp, "megaraid-expander: port=%u width=%u is beyond the "
                   "controller's %u phys", e->port, e->width, n);
        return false;
    }
    for (uint32_t p = e->port; p < e->port + e->width; p++) {
        MRExpander *o = mr9600_exp_on_phy(s, p);

        if (o) {
            error_setg(errp, "megaraid-expander: controller phy %u is "
                       "already the port of the expander of enclosure=%u",
                       p, o->enclosure);
            return false;
        }
    }
    QTAILQ_FOREACH(kid, &BUS(mr9600_exp_bus(s))->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (d->enclosure == 0 && d->unit.iface != MR_IF_NVME &&
            d->slot >= e->port && d->slot < e->port + e->width) {
            error_setg(errp, "megaraid-expander: controller phy %u of "
                       "port=%u width=%u has the drive of slot=%u "
                       "directly attached", d->slot, e->port, e->width,
                       d->slot);
            return false;
        }
    }
    return true;
}

/* A drive coming to the bus: not on a phy that an expander holds. */
bool mr9600_exp_check_drive(MR9600State *s, MRDrive *d, Error **errp)
{
    MRExpander *e;

    if (!mr9600_sas_on(s) || d->unit.iface == MR_IF_NVME) {
        return true;
    }
    if (d->enclosure == 0) {
        e = mr9600_exp_on_phy(s, d->slot);
        if (e) {
            error_setg(errp, "megaraid-drive: slot=%u of enclosure=0 is "
                       "controller phy %u, the port of the expander of "
                       "enclosure=%u", d->slot, d->slot, e->enclosure);
            return false;
        }
        return true;
    }
    e = mr_expander_find(mr9600_exp_bus(s), d->enclosure);
    if (e && d->slot >= mr_expander_drive_phys(e)) {
        error_setg(errp, "megaraid-drive: slot=%u of enclosure=%u is beyond "
                   "its expander's %u drive phys", d->slot, d->enclosure,
                   mr_expander_drive_phys(e));
        return false;
    }
    return true;
}

void mr9600_exp_realize(MR9600State *s)
{
    mr9600_exp_bus(s)->expander_check = mr9600_exp_check;
    mr9600_exp_bus(s)->expander_opaque = s;
}

/* Device page 0 fields of @u if it sits behind an expander. */
bool mr9600_exp_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p)
{
    MRExpander *e = mr9600_exp_of_unit(s, u);
    MPI3Device0SASSATA *a = &p->device_specific.sas_sata;
    uint8_t rate;

    if (!e) {
        return false;
    }
    rate = mr9600_unit_link_rate(u);
    p->parent_dev_handle = cpu_to_le16(mr9600_exp_handle(e));
    p->enclosure_handle = cpu_to_le16(mr9600_exp_encl_handle(e));
    p->io_unit_port = e->port;
    p->flags &= ~cpu_to_le16(MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT);
    a->phy_num = u->slot;
    a->attached_phy_identifier = 0;
    a->negotiated_link_rate = (rate << 4) | rate;
    return true;
}

static void mr9600_exp_page0_of(MR9600State *s, MRExpander *e,
                                MPI3DevicePage0 *p)
{
    MPI3Device0SASSATA *a = &p->device_specific.sas_sata;

    p->dev_handle = cpu_to_le16(mr9600_exp_handle(e));
    p->parent_dev_handle = cpu_to_le16(MR9600_CTRL_HANDLE);
    p->enclosure_handle = cpu_to_le16(mr9600_exp_encl_handle(e));
    p->slot = cpu_to_le16(0xFFFF);
    p->slot_index = cpu_to_le16(0xFFFF);
    p->wwid = cpu_to_le64(mr9600_exp_address(s, e));
    /* no SCSI target: the host builds its expander node instead */
    p->persistent_id = cpu_to_le16(MPI3_DEVICE0_PERSISTENTID_INVALID);
    p->io_unit_port = e->port;
    p->flags = cpu_to_le16(MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                           MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT);
    p->device_form = MPI3_DEVICE_DEVFORM_SAS_SATA;
    a->sas_address = cpu_to_le64(mr9600_exp_address(s, e));
    a->device_info = cpu_to_le16(MPI3_SAS_DEVICE_INFO_TYPE_EXPANDER |
                                 MPI3_SAS_DEVICE_INFO_SMP_TARGET);
    a->phy_num = e->port;               /* the controller phy */
    a->attached_phy_identifier = mr_expander_drive_phys(e);
    a->max_port_connections = e->width;
    a->negotiated_link_rate = (MR9600_EXP_PORT_RATE << 4) |
                              MR9600_EXP_PORT_RATE;
}

/* Device page 0 (form HANDLE) of an expander's handle into buf. */
bool mr9600_exp_own_page0(MR9600State *s, uint16_t handle, uint8_t *buf)
{
    MRExpander *e = mr9600_exp_by_handle(s, handle);

    if (!e) {
        return false;
    }
    mr9600_exp_page0_of(s, e, (MPI3DevicePage0 *)buf);
    return true;
}

/* The expander after handle @after (0xFFFF: the first), by handle. */
static MRExpander *mr9600_exp_next(MR9600State *s, uint32_t after)
{
    MRExpander *e, *best = NULL;

    if (!mr9600_sas_on(s)) {
        return NULL;
    }
    QLIST_FOREACH(e, &mr9600_exp_bus(s)->expanders, next) {
        if ((after == 0xFFFF || mr9600_exp_handle(e) > after) &&
            (!best || mr9600_exp_handle(e) < mr9600_exp_handle(best))) {
            best = e;
        }
    }
    return best;
}

static void mr9600_exp_pg0(MR9600State *s, MRExpander *e, uint8_t *buf)
{
    buf[0x08] = e->port;                        /* io unit port */
    buf[0x09] = 0x11;                           /* REPORT GENERAL dwords */
    stw_le_p(buf + 0x0A, mr9600_exp_encl_handle(e));
    stq_le_p(buf + 0x10, mr9600_exp_address(s, e));
    stw_le_p(buf + 0x1C, mr9600_exp_handle(e));
    stw_le_p(buf + 0x1E, MR9600_CTRL_HANDLE);   /* parent */
    stw_le_p(buf + 0x20, e->change_count);
    buf[0x24] = e->phys;
    buf[0x25] = 1;                              /* SAS level */
}

/* What expander phy @phy of @e is attached to. */
MR9600ExpPhyView mr9600_exp_phy_view(MR9600State *s, MRExpander *e,
                                     uint32_t phy)
{
    MR9600ExpPhyView r = { 0 };
    MRUnit *u;

    if (phy >= mr_expander_drive_phys(e)) {
        r.handle = MR9600_CTRL_HANDLE;
        r.device_info = MPI3_SAS_DEVICE_INFO_SSP_INITIATOR |
                        MPI3_SAS_DEVICE_INFO_STP_INITIATOR |
                        MPI3_SAS_DEVICE_INFO_SMP_INITIATOR;
        r.rate = MR9600_EXP_PORT_RATE;
        r.attached_phy = e->port + phy - mr_expander_drive_phys(e);
        r.sas_address = mr9600_sas_address(s);
        return r;
    }
    u = mr9600_exp_phy_unit(s, e, phy);
    if (u) {
        r.handle = u->host_id;
        r.device_info = MPI3_SAS_DEVICE_INFO_END_DEVICE |
                        (u->iface == MR_IF_SATA ?
                         MPI3_SAS_DEVICE_INFO_STP_SATA_TARGET :
                         MPI3_SAS_DEVICE_INFO_SSP_TARGET);
        r.rate = mr9600_unit_link_rate(u);
        r.sas_address = u->wwn;
        r.sata = u->iface == MR_IF_SATA;
    }
    return r;
}

static void mr9600_exp_pg1(MR9600State *s, MRExpander *e, uint32_t phy,
                           uint8_t *buf)
{
    MR9600ExpPhyView a = mr9600_exp_phy_view(s, e, phy);

    buf[0x08] = e->port;
    buf[0x0C] = e->phys;
    buf[0x0D] = phy;
    buf[0x10] = MR9600_EXP_HW_RATE;             /* programmed */
    buf[0x11] = MR9600_EXP_HW_RATE;             /* hardware */
    stw_le_p(buf + 0x12, a.handle);
    stw_le_p(buf + 0x18, a.device_info);
    stw_le_p(buf + 0x1C, mr9600_exp_handle(e));
    buf[0x1F] = (a.rate << 4) | a.rate;
    if (e->phy_disabled & (1ULL << phy)) {
        buf[0x1F] = 0x11;                       /* disabled (SMP) */
    }
    buf[0x20] = phy;
    buf[0x21] = a.attached_phy;
}

uint16_t mr9600_exp_build_page(MR9600State *s, uint8_t number,
                               uint32_t page_address, uint8_t *buf)
{
    uint16_t handle = page_address & MPI3_SAS_EXPAND_PGAD_HANDLE_MASK;
    uint32_t phy = (page_address >> MPI3_SAS_EXPAND_PGAD_PHYNUM_SHIFT) &
                   0xFF;
    uint32_t form = page_address & MPI3_SAS_EXPAND_PGAD_FORM_MASK;
    MRExpander *e;

    switch (form) {
    case MPI3_SAS_EXPAND_PGAD_FORM_GET_NEXT:
        e = number == 0 ? mr9600_exp_next(s, handle) : NULL;
        if (number != 0) {
            trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_EXPANDER,
                                             page_address,
                                             "GET NEXT of page 1");
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
        break;
    case MPI3_SAS_EXPAND_PGAD_FORM_HANDLE_PHY_NUM:
    case MPI3_SAS_EXPAND_PGAD_FORM_HANDLE:
        e = mr9600_exp_by_handle(s, handle);
        break;
    default:
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_EXPANDER,
                                         page_address, "unknown form");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (!e) {
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
    if (number == 0) {
        mr9600_exp_pg0(s, e, buf);
        return MPI3_IOCSTATUS_SUCCESS;
    }
    if (form != MPI3_SAS_EXPAND_PGAD_FORM_HANDLE_PHY_NUM) {
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_EXPANDER,
                                         page_address, "page 1 needs a phy");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (phy >= e->phys) {
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_EXPANDER,
                                         page_address, "no such phy");
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
    mr9600_exp_pg1(s, e, phy, buf);
    return MPI3_IOCSTATUS_SUCCESS;
}

/* The SAS IO Unit / SAS Phy page view of controller phy @phy. */
bool mr9600_exp_ctrl_phy(MR9600State *s, uint32_t phy, uint16_t *handle,
                         uint8_t *port, uint8_t *neg_rate)
{
    MRExpander *e = mr9600_exp_on_phy(s, phy);

    if (!e) {
        return false;
    }
    *handle = mr9600_exp_handle(e);
    *port = e->port;
    *neg_rate = (MR9600_EXP_PORT_RATE << 4) | MR9600_EXP_PORT_RATE;
    return true;
}

/* ---- enclosures ---- */

static void mr9600_exp_encl_page0(MR9600State *s, MRExpander *e,
                                  MPI3EnclosurePage0 *p)
{
    p->enclosure_logical_id = cpu_to_le64(mr9600_exp_address(s, e));
    /* present: the host keeps only enclosures flagged so */
    p->flags = cpu_to_le16(MPI3_ENCLS0_FLAGS_ENCL_TYPE_SAS |
                           MPI3_ENCLS0_FLAGS_ENCL_DEV_PRESENT |
                           MPI3_ENCLS0_FLAGS_MNG_UNKNOWN);
    p->enclosure_handle = cpu_to_le16(mr9600_exp_encl_handle(e));
    p->num_slots = cpu_to_le16(mr_expander_drive_phys(e));
    p->io_unit_port = e->port;
    p->enclosure_level = 1;
    p->sep_dev_handle = 0;              /* no SES device yet */
}

/*
 * Enclosure page 0 of an expander's enclosure: form HANDLE of its
 * handle, or GET NEXT after the card's (1) or an earlier one.  False:
 * not an expander's, the caller answers.
 */
bool mr9600_exp_encl_page(MR9600State *s, uint32_t page_address,
                          uint8_t *buf, uint16_t *status)
{
    uint16_t handle = page_address & MPI3_ENCLOS_PGAD_HANDLE_MASK;
    MRExpander *e = NULL, *o;

    if (!mr9600_sas_on(s)) {
        return false;
    }
    switch (page_address & MPI3_ENCLOS_PGAD_FORM_MASK) {
    case MPI3_ENCLOS_PGAD_FORM_HANDLE:
        QLIST_FOREACH(o, &mr9600_exp_bus(s)->expanders, next) {
            if (mr9600_exp_encl_handle(o) == handle) {
                e = o;
            }
        }
        break;
    case MPI3_ENCLOS_PGAD_FORM_GET_NEXT:
        if (handle == 0 || handle == 0xFFFF) {
            return false;               /* the card's comes first */
        }
        QLIST_FOREACH(o, &mr9600_exp_bus(s)->expanders, next) {
            if (mr9600_exp_encl_handle(o) > handle &&
                (!e || mr9600_exp_encl_handle(o) <
                       mr9600_exp_encl_handle(e))) {
                e = o;
            }
        }
        if (!e) {
            *status = MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
            return true;
        }
        break;
    default:
        return false;
    }
    if (!e) {
        return false;
    }
    mr9600_exp_encl_page0(s, e, (MPI3EnclosurePage0 *)buf);
    *status = MPI3_IOCSTATUS_SUCCESS;
    return true;
}

/* Every expander, by handle. */
#define MR9600_EXP_FOREACH(s, e) \
    for (MRExpander *e = mr9600_exp_next(s, 0xFFFF); e; \
         e = mr9600_exp_next(s, mr9600_exp_handle(e)))

/* An event whose data is config page @p (its header set here). */
static void mr9600_exp_page_event(MR9600State *s, uint8_t event,
                                  uint8_t page_type, void *p, size_t len)
{
    mr9600_config_page_header(page_type, 0, len, p);
    mr9600_send_event(s, event, p, len);
}

/* After the card's ENCLOSURE DEVICE ADDED: each expander's enclosure. */
void mr9600_exp_encl_events(MR9600State *s)
{
    MR9600_EXP_FOREACH(s, e) {
        MPI3EnclosurePage0 p = { 0 };

        mr9600_exp_encl_page0(s, e, &p);
        trace_megaraid_9600_encl_added(mr9600_exp_encl_handle(e),
                                       mr_expander_drive_phys(e));
        mr9600_exp_page_event(s, MPI3_EVENT_ENCL_DEVICE_ADDED,
                              MPI3_CONFIG_PAGETYPE_ENCLOSURE, &p, sizeof(p));
    }
}

/* ---- discovery and hot plug events ---- */

/* PORT ENABLE, before the drives' DEVICE ADDED: each expander's. */
void mr9600_exp_announce(MR9600State *s)
{
    MR9600_EXP_FOREACH(s, e) {
        MPI3DevicePage0 p = { 0 };

        mr9600_exp_page0_of(s, e, &p);
        trace_megaraid_9600_exp_added(mr9600_exp_handle(e),
                                      mr9600_exp_address(s, e), e->phys);
        mr9600_exp_page_event(s, MPI3_EVENT_DEVICE_ADDED,
                              MPI3_CONFIG_PAGETYPE_DEVICE, &p, sizeof(p));
    }
}

/* A topology change list of up to MR9600_TOPO_MAX_ENTRIES entries. */
#define MR9600_TOPO_HDR_BYTES   offsetof(MPI3EventSASTopoChange, entry)
typedef union MR9600TopoEvent {
    MPI3EventSASTopoChange hdr;
    uint8_t raw[MR9600_TOPO_HDR_BYTES +
                MR9600_TOPO_MAX_ENTRIES * sizeof(MPI3EventSASTopoEntry)];
} MR9600TopoEvent;

static MPI3EventSASTopoEntry *mr9600_topo_entries(MR9600TopoEvent *ev)
{
    return (MPI3EventSASTopoEntry *)(ev->raw + MR9600_TOPO_HDR_BYTES);
}

static void mr9600_exp_send_list(MR9600State *s, MR9600TopoEvent *ev)
{
    size_t len = MR9600_TOPO_HDR_BYTES +
                 ev->hdr.num_entries * sizeof(MPI3EventSASTopoEntry);

    trace_megaraid_9600_exp_topo(le16_to_cpu(ev->hdr.expander_dev_handle),
                                 ev->hdr.start_phy_num, ev->hdr.num_entries,
                                 ev->hdr.exp_status);
    mr9600_send_event(s, MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST, ev, len);
}

/* The controller's list of @e's wide port: its phys link up. */
static void mr9600_exp_ctrl_list(MR9600State *s, MRExpander *e)
{
    MR9600TopoEvent ev = { 0 };
    MPI3EventSASTopoEntry *en = mr9600_topo_entries(&ev);

    ev.hdr.enclosure_handle = cpu_to_le16(MR9600_ENCL_HANDLE);
    ev.hdr.num_phys = mr9600_sas_num_phys(s);
    ev.hdr.num_entries = e->width;
    ev.hdr.start_phy_num = e->port;
    ev.hdr.exp_status = MPI3_EVENT_SAS_TOPO_ES_NO_EXPANDER;
    ev.hdr.io_unit_port = e->port;
    for (uint32_t i = 0; i < e->width; i++) {
        en[i].attached_dev_handle = cpu_to_le16(mr9600_exp_handle(e));
        en[i].link_rate = MR9600_EXP_PORT_RATE << 4;
        en[i].status = MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED;
    }
    mr9600_exp_send_list(s, &ev);
}

/* The expander's own list of every phy, as many events as it takes. */
static void mr9600_exp_own_lists(MR9600State *s, MRExpander *e)
{
    for (uint32_t start = 0; start < e->phys;
         start += MR9600_TOPO_MAX_ENTRIES) {
        MR9600TopoEvent ev = { 0 };
        MPI3EventSASTopoEntry *en = mr9600_topo_entries(&ev);
        uint32_t n = MIN(e->phys - start, MR9600_TOPO_MAX_ENTRIES);

        ev.hdr.enclosure_handle = cpu_to_le16(mr9600_exp_encl_handle(e));
        ev.hdr.expander_dev_handle = cpu_to_le16(mr9600_exp_handle(e));
        ev.hdr.num_phys = e->phys;
        ev.hdr.num_entries = n;
        ev.hdr.start_phy_num = start;
        ev.hdr.exp_status = MPI3_EVENT_SAS_TOPO_ES_RESPONDING;
        ev.hdr.io_unit_port = e->port;
        for (uint32_t i = 0; i < n; i++) {
            MR9600ExpPhyView a = mr9600_exp_phy_view(s, e, start + i);

            en[i].attached_dev_handle = cpu_to_le16(a.handle);
            if (a.handle == MR9600_CTRL_HANDLE) {
                en[i].link_rate = (a.rate << 4) | a.rate;
                en[i].status = MPI3_EVENT_SAS_TOPO_PHY_RC_NO_CHANGE;
            } else if (a.handle) {
                en[i].link_rate = a.rate << 4;
                en[i].status = MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED;
            } else {
                en[i].status = MPI3_EVENT_SAS_TOPO_PHY_STATUS_VACANT |
                               MPI3_EVENT_SAS_TOPO_PHY_RC_NO_CHANGE;
            }
        }
        mr9600_exp_send_list(s, &ev);
    }
}

/* PORT ENABLE, after the controller phys' lists: each expander's. */
void mr9600_exp_port_enable(MR9600State *s)
{
    MR9600_EXP_FOREACH(s, e) {
        mr9600_exp_ctrl_list(s, e);
        mr9600_exp_own_lists(s, e);
    }
}

/* A drive behind an expander came (@present) or went: its phy's list. */
bool mr9600_exp_topo_event(MR9600State *s, MRUnit *u, bool present)
{
    MRExpander *e = mr9600_exp_of_unit(s, u);
    MR9600TopoEvent ev = { 0 };
    MPI3EventSASTopoEntry *en = mr9600_topo_entries(&ev);
    uint8_t rate;

    if (!e) {
        return false;
    }
    rate = mr9600_unit_link_rate(u);
    ev.hdr.enclosure_handle = cpu_to_le16(mr9600_exp_encl_handle(e));
    ev.hdr.expander_dev_handle = cpu_to_le16(mr9600_exp_handle(e));
    ev.hdr.num_phys = e->phys;
    ev.hdr.num_entries = 1;
    ev.hdr.start_phy_num = u->slot;
    ev.hdr.exp_status = MPI3_EVENT_SAS_TOPO_ES_RESPONDING;
    ev.hdr.io_unit_port = e->port;
    en->attached_dev_handle = cpu_to_le16(u->host_id);
    en->link_rate = present ? rate << 4 : rate;
    en->status = present ?
        MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED :
        MPI3_EVENT_SAS_TOPO_PHY_RC_TARG_NOT_RESPONDING;
    mr9600_exp_send_list(s, &ev);
    return true;
}
