/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 SAS transport personality (sas-transport=on):
 * the controller's phys (one per connector lane of the model), the drives
 * attached directly to them (enclosure 0, slot = phy number), the
 * controller's own device handle, the SAS pages the host reads (SAS IO
 * Unit pages 0 and 1, SAS Phy pages 0 and 1, the controller's Device page
 * 0) and the SAS topology change lists of discovery and hot plug.  The
 * enclosure of those bays is mr9600-encl.c's; expanders (SAS Expander
 * pages, the drives behind them) are mr9600-expander.c's.
 */
#include "qemu/osdep.h"
#include "mr9600.h"
#include "trace.h"

/* The SAS4116's phys: 22.5 Gb/s at most, 6.0 Gb/s at least. */
#define MR9600_PHY_HW_RATE  ((MPI3_SAS_NEG_LINK_RATE_22_5 << 4) | \
                             MPI3_SAS_NEG_LINK_RATE_6_0)

bool mr9600_sas_on(MR9600State *s)
{
    return s->sas_transport;
}

uint32_t mr9600_sas_num_phys(MR9600State *s)
{
    return MIN(s->model->ports, MR9600_MAX_PHYS);
}

/* NAA 5 with the controller's serial number (dsn) in its low bits. */
uint64_t mr9600_sas_address(MR9600State *s)
{
    return (5ULL << 60) | (s->dsn & 0x0FFFFFFFFFFFFFF0ULL);
}

int mr9600_unit_phy(MR9600State *s, MRUnit *u)
{
    if (!mr9600_sas_on(s) || u->vd || !u->drive || u->iface == MR_IF_NVME ||
        u->drive->enclosure != 0 || u->slot >= mr9600_sas_num_phys(s)) {
        return -1;
    }
    return u->slot;
}

uint8_t mr9600_unit_port(MR9600State *s, MRUnit *u)
{
    int phy = mr9600_unit_phy(s, u);
    MRExpander *e = mr9600_exp_of_unit(s, u);

    if (e) {
        return e->port;                 /* the expander's wide port */
    }
    /* a port per attached device; without transport, 4 lanes a port */
    return phy >= 0 ? phy : (u->vd ? 0 : u->slot / 4);
}

/* The drive attached to @phy as the host may know it, or NULL. */
static MRUnit *mr9600_phy_unit(MR9600State *s, uint32_t phy)
{
    for (uint32_t h = 1; h < MR9600_MAX_DEV_HANDLE; h++) {
        MRUnit *u = mr9600_unit_by_handle(s, h);

        if (u && mr9600_unit_phy(s, u) == (int)phy) {
            return u;
        }
    }
    return NULL;
}

/* A SAS drive links at 12 Gb/s, a SATA drive at 6 Gb/s. */
uint8_t mr9600_unit_link_rate(MRUnit *u)
{
    return u->iface == MR_IF_SATA ? MPI3_SAS_NEG_LINK_RATE_6_0
                                  : MPI3_SAS_NEG_LINK_RATE_12_0;
}

static uint8_t mr9600_neg_rate(MRUnit *u)
{
    uint8_t r = u ? mr9600_unit_link_rate(u) : MPI3_SAS_NEG_LINK_RATE_UNKNOWN;

    return (r << 4) | r;
}

/* Device page 0 fields of a drive on a controller phy. */
void mr9600_sas_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p)
{
    int phy = mr9600_unit_phy(s, u);
    MPI3Device0SASSATA *a = &p->device_specific.sas_sata;

    if (phy < 0) {
        mr9600_exp_device_page0(s, u, p);   /* behind an expander? */
        return;
    }
    p->parent_dev_handle = cpu_to_le16(MR9600_CTRL_HANDLE);
    p->enclosure_handle = cpu_to_le16(MR9600_ENCL_HANDLE);
    p->io_unit_port = phy;
    a->phy_num = phy;
    a->attached_phy_identifier = 0;
    a->negotiated_link_rate = mr9600_neg_rate(u);
}

/* The controller's own device page 0 (handle MR9600_CTRL_HANDLE). */
static void mr9600_ctrl_page0(MR9600State *s, MPI3DevicePage0 *p)
{
    MPI3Device0SASSATA *a = &p->device_specific.sas_sata;

    p->dev_handle = cpu_to_le16(MR9600_CTRL_HANDLE);
    p->parent_dev_handle = cpu_to_le16(MPI3_DEVICE0_PARENT_INVALID);
    p->enclosure_handle = cpu_to_le16(MR9600_ENCL_HANDLE);
    p->wwid = cpu_to_le64(mr9600_sas_address(s));
    p->persistent_id = cpu_to_le16(MPI3_DEVICE0_PERSISTENTID_INVALID);
    p->io_unit_port = 0xFF;
    p->flags = cpu_to_le16(MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                           MPI3_DEVICE0_FLAGS_CONTROLLER_DEV_HANDLE);
    p->device_form = MPI3_DEVICE_DEVFORM_SAS_SATA;
    a->sas_address = cpu_to_le64(mr9600_sas_address(s));
    a->device_info = cpu_to_le16(MPI3_SAS_DEVICE_INFO_SSP_INITIATOR |
                                 MPI3_SAS_DEVICE_INFO_STP_INITIATOR |
                                 MPI3_SAS_DEVICE_INFO_SMP_INITIATOR);
    a->max_port_connections = 1;
}

bool mr9600_sas_ctrl_page(MR9600State *s, uint16_t handle, uint8_t *buf)
{
    if (mr9600_exp_own_page0(s, handle, buf)) {
        return true;
    }
    if (!mr9600_sas_on(s) || handle != MR9600_CTRL_HANDLE) {
        return false;
    }
    mr9600_ctrl_page0(s, (MPI3DevicePage0 *)buf);
    return true;
}

uint16_t mr9600_sas_page_bytes(MR9600State *s, uint8_t type, uint8_t number)
{
    uint32_t n = mr9600_sas_num_phys(s);

    switch (type) {
    case MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT:
        return number == 0 ? MPI3_SASIOUNIT0_HDR_BYTES +
                             n * MPI3_SASIOUNIT0_PHY_BYTES
                           : MPI3_SASIOUNIT1_HDR_BYTES +
                             n * MPI3_SASIOUNIT1_PHY_BYTES;
    case MPI3_CONFIG_PAGETYPE_SAS_PHY:
        return number == 0 ? MPI3_SASPHY0_BYTES : MPI3_SASPHY1_BYTES;
    default:
        return 0;
    }
}

static void mr9600_iounit0(MR9600State *s, uint8_t *buf)
{
    uint32_t n = mr9600_sas_num_phys(s);

    buf[0x0C] = n;
    buf[0x0D] = 0;                      /* init status: no errors */
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *e = buf + MPI3_SASIOUNIT0_HDR_BYTES +
                     i * MPI3_SASIOUNIT0_PHY_BYTES;
        MRUnit *u = mr9600_phy_unit(s, i);
        uint16_t exp;

        e[0] = i;                       /* io unit port */
        e[1] = 0;                       /* port flags */
        e[2] = 0;                       /* phy flags: an enabled drive phy */
        e[3] = mr9600_neg_rate(u);
        stw_le_p(e + 4, MPI3_SAS_DEVICE_INFO_SSP_INITIATOR |
                 MPI3_SAS_DEVICE_INFO_STP_INITIATOR |
                 MPI3_SAS_DEVICE_INFO_SMP_INITIATOR);
        stw_le_p(e + 8, u ? u->host_id : 0);
        if (mr9600_exp_ctrl_phy(s, i, &exp, &e[0], &e[3])) {
            stw_le_p(e + 8, exp);       /* a lane of an expander's port */
        }
        stw_le_p(e + 10, MR9600_CTRL_HANDLE);
        stl_le_p(e + 12, 0);            /* discovery status */
    }
}

static void mr9600_iounit1(MR9600State *s, uint8_t *buf)
{
    uint32_t n = mr9600_sas_num_phys(s);

    stw_le_p(buf + 0x0A, 64);           /* narrow port max queue depth */
    stw_le_p(buf + 0x0E, 254);          /* wide port max queue depth */
    buf[0x10] = n;
    buf[0x11] = 32;                     /* SATA max queue depth */
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *e = buf + MPI3_SASIOUNIT1_HDR_BYTES +
                     i * MPI3_SASIOUNIT1_PHY_BYTES;

        e[0] = i;
        e[3] = MR9600_PHY_HW_RATE;      /* max 22.5, min 6.0 */
        stw_le_p(e + 4, MPI3_SAS_DEVICE_INFO_SSP_INITIATOR |
                 MPI3_SAS_DEVICE_INFO_STP_INITIATOR |
                 MPI3_SAS_DEVICE_INFO_SMP_INITIATOR);
    }
}

static uint16_t mr9600_phy_page(MR9600State *s, uint8_t number,
                                uint32_t page_address, uint8_t *buf)
{
    uint32_t phy = page_address & MPI3_SAS_PHY_PGAD_PHY_NUMBER_MASK;
    MRUnit *u;
    uint16_t exp;
    uint8_t port;

    if ((page_address & MPI3_SAS_PHY_PGAD_FORM_MASK) !=
        MPI3_SAS_PHY_PGAD_FORM_PHY_NUMBER) {
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_PHY,
                                         page_address, "unknown form");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (phy >= mr9600_sas_num_phys(s)) {
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_SAS_PHY,
                                         page_address, "no such phy");
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
    if (number == 1) {
        /* error counters: none yet */
        return MPI3_IOCSTATUS_SUCCESS;
    }
    u = mr9600_phy_unit(s, phy);
    stw_le_p(buf + 0x08, MR9600_CTRL_HANDLE);       /* owner */
    stw_le_p(buf + 0x0C, u ? u->host_id : 0);
    buf[0x0E] = 0;                                  /* attached phy id */
    buf[0x14] = MR9600_PHY_HW_RATE;                 /* programmed */
    buf[0x15] = MR9600_PHY_HW_RATE;                 /* hardware */
    buf[0x1C] = mr9600_neg_rate(u);
    if (mr9600_exp_ctrl_phy(s, phy, &exp, &port, &buf[0x1C])) {
        MRExpander *e = mr9600_exp_on_phy(s, phy);

        stw_le_p(buf + 0x0C, exp);
        buf[0x0E] = mr_expander_drive_phys(e) + phy - e->port;
    }
    stw_le_p(buf + 0x20, phy);                      /* slot */
    stw_le_p(buf + 0x22, phy);                      /* slot index */
    return MPI3_IOCSTATUS_SUCCESS;
}

uint16_t mr9600_sas_build_page(MR9600State *s, uint8_t type, uint8_t number,
                               uint32_t page_address, uint8_t *buf)
{
    switch (type) {
    case MPI3_CONFIG_PAGETYPE_SAS_EXPANDER:
        return mr9600_exp_build_page(s, number, page_address, buf);
    case MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT:
        if (number == 0) {
            mr9600_iounit0(s, buf);
        } else {
            mr9600_iounit1(s, buf);
        }
        return MPI3_IOCSTATUS_SUCCESS;
    case MPI3_CONFIG_PAGETYPE_SAS_PHY:
        return mr9600_phy_page(s, number, page_address, buf);
    default:
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
}

/*
 * A SAS topology change list of one controller phy: @u attached to it
 * (PHY CHANGED, link up from unknown) or gone (TARGET NOT RESPONDING,
 * link down from its rate).
 */
void mr9600_sas_topo_event(MR9600State *s, MRUnit *u, bool present)
{
    uint8_t ev[16] = { 0 };
    int phy = mr9600_unit_phy(s, u);
    uint8_t rate = mr9600_unit_link_rate(u);

    if (mr9600_exp_topo_event(s, u, present) || phy < 0) {
        return;
    }
    stw_le_p(ev + 0, MR9600_ENCL_HANDLE);
    stw_le_p(ev + 2, 0);                /* no expander */
    ev[4] = mr9600_sas_num_phys(s);
    ev[8] = 1;                          /* entries */
    ev[9] = phy;                        /* start phy */
    ev[10] = MPI3_EVENT_SAS_TOPO_ES_NO_EXPANDER;
    ev[11] = phy;                       /* io unit port */
    stw_le_p(ev + 12, u->host_id);
    if (present) {
        ev[14] = rate << 4;
        ev[15] = MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED;
    } else {
        ev[14] = rate;
        ev[15] = MPI3_EVENT_SAS_TOPO_PHY_RC_TARG_NOT_RESPONDING;
    }
    trace_megaraid_9600_sas_topo(phy, u->host_id, ev[14], ev[15]);
    mr9600_send_event(s, MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST, ev, sizeof(ev));
}

/* After the DEVICE ADDED replay of PORT ENABLE: every populated phy. */
void mr9600_sas_port_enable(MR9600State *s)
{
    if (!mr9600_sas_on(s)) {
        return;
    }
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        MRUnit *u = mr9600_phy_unit(s, i);

        if (u) {
            mr9600_sas_topo_event(s, u, true);
        }
    }
    mr9600_exp_port_enable(s);
}
