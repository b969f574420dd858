/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 control of the controller's own phys
 * (sas-transport=on): writes of SAS IO Unit page 1 (a phy disabled or
 * enabled, its programmed minimum and maximum link rate), the link each
 * phy then negotiates with its drive, the drive taken from the host while
 * its link is down and given back when it comes up, IO UNIT CONTROL's
 * SAS PHY CONTROL (link reset, hard reset, clear error log), and the Phy
 * page 1 error counters, set and read through QOM (phy<N>-...-count).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object.h"
#include "mr9600.h"
#include "trace.h"

/* The SAS4116's range, and page 1's default MaxMinLinkRate. */
#define MR9600_PHY_RATE_MIN     MPI3_SAS_NEG_LINK_RATE_6_0
#define MR9600_PHY_RATE_MAX     MPI3_SAS_NEG_LINK_RATE_22_5
#define MR9600_PHY_RATES_DEFAULT ((MR9600_PHY_RATE_MAX << 4) | \
                                  MR9600_PHY_RATE_MIN)

/* Phy page 1's counters in page order (offset 0x0C on), their QOM names */
static const char *const mr9600_phy_counter_names[MR9600_PHY_COUNTERS] = {
    "invalid-dword-count",
    "running-disparity-error-count",
    "loss-of-dword-sync-count",
    "phy-reset-problem-count",
};

static bool mr9600_rate_linked(uint8_t rate)
{
    return rate >= MPI3_SAS_NEG_LINK_RATE_1_5;
}

/*
 * The link a phy negotiates with @u: none without a drive, PHY DISABLED
 * while disabled, else the drive's rate capped by the programmed maximum;
 * a programmed minimum above that fails the negotiation (the drives
 * support every rate from 1.5 Gb/s to their own).
 */
uint8_t mr9600_phy_link_rate(MR9600State *s, uint32_t phy, MRUnit *u)
{
    MR9600Phy *p;
    uint8_t r;

    assert(phy < MR9600_MAX_PHYS);
    p = &s->phys[phy];
    if (!u) {
        u = mr9600_phy_unit(s, phy);
    }
    if (!u && p->parked) {
        u = &p->parked->unit;
    }
    if (!u) {
        return MPI3_SAS_NEG_LINK_RATE_UNKNOWN;
    }
    if (p->flags_cur & MPI3_SASIOUNIT1_PHYFLAGS_PHY_DISABLE) {
        return MPI3_SAS_NEG_LINK_RATE_PHY_DISABLED;
    }
    r = MIN(mr9600_unit_link_rate(u), p->rates_cur >> 4);
    if (p->rate_cap) {
        r = MIN(r, p->rate_cap);
    }
    return r < (p->rates_cur & 0x0F) ? MPI3_SAS_NEG_LINK_RATE_NEG_FAILED : r;
}

uint8_t mr9600_phy_rate(MR9600State *s, uint32_t phy)
{
    return mr9600_phy_link_rate(s, phy, NULL);
}

static bool mr9600_phy_events(MR9600State *s)
{
    return s->port_enabled && mr9600_ioc_ready(s) &&
           mr9600_event_enabled(s, MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST);
}

/*
 * The link went down: for the host the drive is gone as if pulled (TARGET
 * NOT RESPONDING, its handle kept until the removal handshake), for the
 * core too (a RAID member goes missing, its array degrades); the card
 * keeps the drive on the phy for when the link returns.
 */
static void mr9600_phy_link_down(MR9600State *s, uint32_t phy, MRUnit *u,
                                 uint8_t link_rate)
{
    uint16_t h = u->host_id;

    trace_megaraid_9600_phy_link(phy, h, link_rate, "down");
    mr9600_requests_cancel(s, h, true, 0, NULL);
    s->handles[h] = NULL;
    s->phys[phy].parked = u->drive;
    if (mr9600_phy_events(s)) {
        s->handle_reserved[h] = true;
        mr9600_sas_topo_list(s, phy, h, link_rate,
                             MPI3_EVENT_SAS_TOPO_PHY_RC_TARG_NOT_RESPONDING);
    }
    mr_core_drive_unplugging(&s->core, u->drive);
}

/* The link came up: the drive arrives as a drive inserted does. */
static void mr9600_phy_link_up(MR9600State *s, uint32_t phy)
{
    MRDrive *d = s->phys[phy].parked;
    uint16_t h = mr9600_alloc_handle(s, d);

    if (!h) {
        trace_megaraid_9600_phy_link(phy, 0, 0, "up, but no free handle");
        return;
    }
    trace_megaraid_9600_phy_link(phy, h, mr9600_phy_rate(s, phy), "up");
    s->phys[phy].parked = NULL;
    d->unit.host_id = h;
    s->handles[h] = &d->unit;
    if (mr_core_drive_plugged(&s->core, d)) {
        mr9600_drive_arrived(s, d);
    }
}

/* @phy's settings changed; its link was at @old: what the host hears. */
static void mr9600_phy_apply(MR9600State *s, uint32_t phy, uint8_t old)
{
    MRUnit *u = mr9600_phy_unit(s, phy);
    uint8_t now = mr9600_phy_rate(s, phy);

    if (now == old) {
        return;
    }
    s->phys[phy].change_count++;
    if (u && !mr9600_rate_linked(now)) {
        mr9600_phy_link_down(s, phy, u, (now << 4) | old);
    } else if (!u && s->phys[phy].parked && mr9600_rate_linked(now)) {
        mr9600_phy_link_up(s, phy);
    } else if (u && mr9600_phy_events(s)) {
        trace_megaraid_9600_phy_link(phy, u->host_id, now, "rate changed");
        mr9600_sas_topo_list(s, phy, u->host_id, (now << 4) | old,
                             MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED);
    }
}

void mr9600_phyctl_iounit1(MR9600State *s, uint8_t action, uint8_t *buf)
{
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        uint8_t *e = buf + MPI3_SASIOUNIT1_HDR_BYTES +
                     i * MPI3_SASIOUNIT1_PHY_BYTES;
        MR9600Phy *p = &s->phys[i];

        switch (action) {
        case MPI3_CONFIG_ACTION_READ_DEFAULT:
            e[2] = 0;
            e[3] = MR9600_PHY_RATES_DEFAULT;
            break;
        case MPI3_CONFIG_ACTION_READ_PERSISTENT:
        case MPI3_CONFIG_ACTION_WRITE_PERSISTENT:
            e[2] = p->flags_pers;
            e[3] = p->rates_pers;
            break;
        default:
            e[2] = p->flags_cur;
            e[3] = p->rates_cur;
            break;
        }
    }
}

void mr9600_phyctl_phy_page(MR9600State *s, uint32_t phy, uint8_t number,
                            uint8_t *buf)
{
    MR9600Phy *p = &s->phys[phy];

    if (number == 0) {
        buf[0x14] = p->rates_cur;               /* programmed */
        buf[0x16] = p->change_count;
        return;
    }
    for (int k = 0; k < MR9600_PHY_COUNTERS; k++) {
        stl_le_p(buf + 0x0C + 4 * k, p->counters[k]);
    }
}

/*
 * Checks of one phy's entry of a page 1 write against the copy it
 * replaces: only PHY DISABLE and the rates may change, each rate within
 * the phy's hardware range, the minimum not above the maximum.
 */
static uint16_t mr9600_check_phy_entry(uint32_t phy, const uint8_t *old,
                                       const uint8_t *e)
{
    uint8_t max = e[3] >> 4, min = e[3] & 0x0F;

    for (int k = 0; k < MPI3_SASIOUNIT1_PHY_BYTES; k++) {
        uint8_t writable = k == 2 ? MPI3_SASIOUNIT1_PHYFLAGS_PHY_DISABLE :
                           k == 3 ? 0xFF : 0;

        if ((e[k] ^ old[k]) & ~writable) {
            trace_megaraid_9600_err_phy_write(phy, k, "read-only field");
            return MPI3_IOCSTATUS_INVALID_FIELD;
        }
    }
    if (min < MR9600_PHY_RATE_MIN || max > MR9600_PHY_RATE_MAX ||
        max < MR9600_PHY_RATE_MIN || min > MR9600_PHY_RATE_MAX) {
        trace_megaraid_9600_err_phy_write(phy, 3, "rate outside 6.0-22.5");
        return MPI3_IOCSTATUS_CONFIG_INVALID_DATA;
    }
    if (min > max) {
        trace_megaraid_9600_err_phy_write(phy, 3, "minimum above maximum");
        return MPI3_IOCSTATUS_CONFIG_INVALID_DATA;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * Checks of a whole page 1 write (@len bytes, the page's length) against
 * the copy @action writes: the header names the page, the phy count is
 * this controller's, the other fields are as they read, every phy entry
 * passes.  Nothing changes unless all pass.
 */
uint16_t mr9600_phyctl_check_iounit1(MR9600State *s, uint8_t action,
                                     const uint8_t *buf, uint32_t len)
{
    const MPI3ConfigPageHeader *h = (const void *)buf;
    uint8_t old[512];
    uint16_t st;

    assert(len <= sizeof(old));
    if (h->page_type != MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT ||
        h->page_number != 1 || le16_to_cpu(h->page_length) != len / 4) {
        trace_megaraid_9600_err_phy_write(0xFF, 0, "header names another "
                                          "page");
        return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
    }
    if (buf[0x10] != mr9600_sas_num_phys(s)) {
        trace_megaraid_9600_err_phy_write(0xFF, 0x10, "phy count");
        return MPI3_IOCSTATUS_CONFIG_INVALID_DATA;
    }
    memset(old, 0, sizeof(old));
    mr9600_sas_build_page(s, MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 1, 0, old);
    mr9600_phyctl_iounit1(s, action, old);
    if (memcmp(old + 8, buf + 8, MPI3_SASIOUNIT1_HDR_BYTES - 8)) {
        trace_megaraid_9600_err_phy_write(0xFF, 8, "read-only field");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        size_t off = MPI3_SASIOUNIT1_HDR_BYTES + i * MPI3_SASIOUNIT1_PHY_BYTES;

        st = mr9600_check_phy_entry(i, old + off, buf + off);
        if (st != MPI3_IOCSTATUS_SUCCESS) {
            return st;
        }
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * WRITE CURRENT takes effect on the links at once (the firmware resets
 * each phy whose settings changed); WRITE PERSISTENT only stores the
 * copy (the driver writes both alike).
 */
uint16_t mr9600_phyctl_write_iounit1(MR9600State *s, uint8_t action,
                                     const uint8_t *buf, uint32_t len)
{
    uint16_t st = mr9600_phyctl_check_iounit1(s, action, buf, len);

    if (st != MPI3_IOCSTATUS_SUCCESS) {
        return st;
    }
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        const uint8_t *e = buf + MPI3_SASIOUNIT1_HDR_BYTES +
                           i * MPI3_SASIOUNIT1_PHY_BYTES;
        MR9600Phy *p = &s->phys[i];
        uint8_t old = mr9600_phy_rate(s, i);

        if (action == MPI3_CONFIG_ACTION_WRITE_PERSISTENT) {
            p->flags_pers = e[2];
            p->rates_pers = e[3];
            continue;
        }
        p->flags_cur = e[2];
        p->rates_cur = e[3];
        mr9600_phy_apply(s, i, old);
    }
    trace_megaraid_9600_config_write(MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 1,
                                     action);
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * A link or hard reset of a phy: the link drops and comes back at the
 * rate it negotiates (a SAS hard reset also resets the drive's tasks;
 * the device's drives have none pending across it), so the host hears a
 * PHY CHANGED with new and old rate; a phy without a link stays down.
 */
static void mr9600_phy_reset(MR9600State *s, uint32_t phy)
{
    MRUnit *u = mr9600_phy_unit(s, phy);
    uint8_t now = mr9600_phy_rate(s, phy);

    if (!u || !mr9600_rate_linked(now)) {
        return;
    }
    s->phys[phy].change_count++;
    if (mr9600_phy_events(s)) {
        mr9600_sas_topo_list(s, phy, u->host_id, (now << 4) | now,
                             MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED);
    }
}

uint16_t mr9600_phyctl_control(MR9600State *s,
                               const MPI3IOUnitControlRequest *req)
{
    uint8_t action = req->param8[0], phy = req->param8[1];

    trace_megaraid_9600_phy_control(phy, action);
    if (!mr9600_sas_on(s)) {
        trace_megaraid_9600_err_phy_control(phy, action, "no SAS transport");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    if (phy >= mr9600_sas_num_phys(s)) {
        trace_megaraid_9600_err_phy_control(phy, action, "no such phy");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    switch (action) {
    case MPI3_CTRL_ACTION_NOP:
        break;
    case MPI3_CTRL_ACTION_LINK_RESET:
    case MPI3_CTRL_ACTION_HARD_RESET:
        mr9600_phy_reset(s, phy);
        break;
    case MPI3_CTRL_ACTION_CLEAR_ERROR_LOG:
        memset(s->phys[phy].counters, 0, sizeof(s->phys[phy].counters));
        break;
    default:
        trace_megaraid_9600_err_phy_control(phy, action, "unknown action");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * A drive inserted into the bay of a phy that is disabled, or whose
 * programmed rates it cannot meet, gets no link: the card keeps it on
 * the phy, the host and the core hear of it when the link comes up.
 */
bool mr9600_phyctl_plug(MR9600State *s, MRDrive *d)
{
    int phy = mr9600_unit_phy(s, &d->unit);

    if (phy < 0 || s->phys[phy].parked ||
        mr9600_rate_linked(mr9600_phy_link_rate(s, phy, &d->unit))) {
        return false;
    }
    trace_megaraid_9600_phy_link(phy, 0, mr9600_phy_link_rate(s, phy,
                                                              &d->unit),
                                 "drive inserted, no link");
    s->phys[phy].parked = d;
    return true;
}

bool mr9600_phyctl_unplug(MR9600State *s, MRDrive *d)
{
    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        if (s->phys[i].parked == d) {
            s->phys[i].parked = NULL;
            return true;
        }
    }
    return false;
}

void mr9600_phyctl_exit(MR9600State *s)
{
    mr9600_linkfault_exit(s);
}

static void mr9600_phy_counter_prop(Object *obj, Visitor *v,
                                    const char *name, void *opaque,
                                    Error **errp)
{
    visit_type_uint32(v, name, opaque, errp);
}

void mr9600_phyctl_defaults(MR9600State *s)
{
    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        MR9600Phy *p = &s->phys[i];

        p->flags_cur = p->flags_pers = 0;
        p->rates_cur = p->rates_pers = MR9600_PHY_RATES_DEFAULT;
    }
}

void mr9600_phyctl_set_pers(MR9600State *s, const uint8_t (*phys)[2])
{
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        s->phys[i].flags_pers = phys[i][0];
        s->phys[i].rates_pers = phys[i][1];
    }
}

void mr9600_phyctl_nvram_image(MR9600State *s,
                               const uint8_t (*pending)[2], uint8_t *buf)
{
    uint16_t bytes = mr9600_sas_page_bytes(s, MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT,
                                           1);

    memset(buf, 0, bytes);
    mr9600_config_page_header(MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 1, bytes,
                              (MPI3ConfigPageHeader *)buf);
    mr9600_sas_build_page(s, MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT, 1, 0, buf);
    mr9600_phyctl_iounit1(s, MPI3_CONFIG_ACTION_READ_PERSISTENT, buf);
    for (uint32_t i = 0; pending && i < mr9600_sas_num_phys(s); i++) {
        uint8_t *e = buf + MPI3_SASIOUNIT1_HDR_BYTES +
                     i * MPI3_SASIOUNIT1_PHY_BYTES;

        e[2] = pending[i][0];
        e[3] = pending[i][1];
    }
}

/*
 * A record written by this device for this many phys: its flags and
 * rates become the persistent copy (a record of another phy count, or
 * one that fails the checks of a write, is ignored: the defaults stay).
 * The current copy starts at the defaults: the drives plugged at start
 * would otherwise need their links applied before the core's import.
 */
void mr9600_phyctl_nvram_load(MR9600State *s, const uint8_t *buf,
                              uint16_t bytes)
{
    if (!mr9600_sas_on(s) ||
        bytes != mr9600_sas_page_bytes(s, MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT,
                                       1)) {
        trace_megaraid_9600_err_phy_write(0xFF, bytes, "config-nvram record "
                                          "of another phy count, ignored");
        return;
    }
    if (mr9600_phyctl_check_iounit1(s, MPI3_CONFIG_ACTION_WRITE_PERSISTENT,
                                    buf, bytes) != MPI3_IOCSTATUS_SUCCESS) {
        return;                         /* (traced) */
    }
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        const uint8_t *e = buf + MPI3_SASIOUNIT1_HDR_BYTES +
                           i * MPI3_SASIOUNIT1_PHY_BYTES;
        MR9600Phy *p = &s->phys[i];

        p->flags_pers = e[2];
        p->rates_pers = e[3];
    }
}

void mr9600_phyctl_realize(MR9600State *s)
{
    mr9600_linkfault_init(s);
    if (!mr9600_sas_on(s)) {
        return;
    }
    for (uint32_t i = 0; i < mr9600_sas_num_phys(s); i++) {
        for (int k = 0; k < MR9600_PHY_COUNTERS; k++) {
            g_autofree char *name =
                g_strdup_printf("phy%u-%s", i, mr9600_phy_counter_names[k]);
            g_autofree char *desc =
                g_strdup_printf("SAS Phy page 1 of controller phy %u: its "
                                "%s (read and set at run time; kept across "
                                "resets, cleared by SAS PHY CONTROL CLEAR "
                                "ERROR LOG)", i,
                                mr9600_phy_counter_names[k]);

            object_property_add(OBJECT(s), name, "uint32",
                                mr9600_phy_counter_prop,
                                mr9600_phy_counter_prop, NULL,
                                &s->phys[i].counters[k]);
            object_property_set_description(OBJECT(s), name, desc);
        }
    }
}
