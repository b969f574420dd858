/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 fault injection on the drives of the
 * controller's phys (sas-transport=on), as QOM properties of the
 * controller: a link flap (the drive's entry DELAY NOT RESPONDING, then
 * RESPONDING), a phy renegotiating at another rate (PHY CHANGED), an
 * internal device reset (DEVICE STATUS CHANGE reset start, then
 * complete), and events sent with ACK REQUIRED, held until the host's
 * EVENT ACK.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_FLAP_MS_DEFAULT          2000
#define MR9600_DEV_RESET_MS_DEFAULT     1000

/* "PHY" or "PHY:ARG" of an injection property into *phy and *arg. */
static bool mr9600_parse_phy_arg(MR9600State *s, const char *prop,
                                 const char *value, uint32_t *phy,
                                 char **arg, Error **errp)
{
    g_auto(GStrv) f = g_strsplit(value, ":", 2);
    uint64_t n;

    if (!DEVICE(s)->realized) {
        error_setg(errp, "%s: set it at run time (qom-set)", prop);
        return false;
    }
    if (!mr9600_sas_on(s)) {
        error_setg(errp, "%s: needs sas-transport=on", prop);
        return false;
    }
    if (!f[0] || qemu_strtou64(f[0], NULL, 0, &n) ||
        n >= mr9600_sas_num_phys(s)) {
        error_setg(errp, "%s: '%s' names no controller phy (0-%u)", prop,
                   value, mr9600_sas_num_phys(s) - 1);
        return false;
    }
    if (!mr9600_phy_unit(s, n)) {
        error_setg(errp, "%s: phy %u has no drive linked to it", prop,
                   (unsigned)n);
        return false;
    }
    *phy = n;
    *arg = f[0] && f[1] ? g_strdup(f[1]) : NULL;
    return true;
}

/* A time in ms from "MS" (NULL: @dflt); false: not a number. */
static bool mr9600_parse_ms(const char *prop, const char *arg, uint32_t dflt,
                            uint32_t *ms, Error **errp)
{
    uint64_t v;

    if (!arg) {
        *ms = dflt;
        return true;
    }
    if (qemu_strtou64(arg, NULL, 0, &v) || v > 600000) {
        error_setg(errp, "%s: '%s' is no time in ms (0-600000)", prop, arg);
        return false;
    }
    *ms = v;
    return true;
}

/* "PHY[:MS]" of a timed injection, MS @dflt when not given. */
static bool mr9600_parse_timed(MR9600State *s, const char *prop,
                               const char *value, uint32_t dflt,
                               uint32_t *phy, uint32_t *ms, Error **errp)
{
    g_autofree char *arg = NULL;

    return mr9600_parse_phy_arg(s, prop, value, phy, &arg, errp) &&
           mr9600_parse_ms(prop, arg, dflt, ms, errp);
}

/*
 * The start of a timed injection "PHY[:MS]" of @prop: the drive on the
 * phy, with the phy's flag at @flag (in MR9600Phy) set and its @timer
 * (in MR9600Phy) due MS ms from now; NULL (and *errp) if refused, or if
 * that phy's previous one still runs.
 */
static MRUnit *mr9600_timed_start(MR9600State *s, const char *prop,
                                  const char *value, uint32_t dflt,
                                  size_t flag, size_t timer, uint32_t *phy,
                                  Error **errp)
{
    uint32_t ms;
    uint8_t *p;

    if (!mr9600_parse_timed(s, prop, value, dflt, phy, &ms, errp)) {
        return NULL;
    }
    p = (uint8_t *)&s->phys[*phy];
    if (*(bool *)(p + flag)) {
        error_setg(errp, "%s: phy %u: the last one is still under way",
                   prop, *phy);
        return NULL;
    }
    *(bool *)(p + flag) = true;
    timer_mod(*(QEMUTimer **)(p + timer),
              qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + ms);
    return mr9600_phy_unit(s, *phy);
}

/* ---- link flap: DELAY NOT RESPONDING, later RESPONDING ---- */

static void mr9600_flap_end(void *opaque)
{
    MR9600Phy *p = opaque;
    MR9600State *s = p->s;
    uint32_t phy = p - s->phys;
    MRUnit *u = mr9600_phy_unit(s, phy);
    uint8_t rate = mr9600_phy_rate(s, phy);

    p->flapping = false;
    if (!u) {
        return;                 /* pulled or its link went down meanwhile */
    }
    trace_megaraid_9600_phy_link(phy, u->host_id, rate, "flap over");
    mr9600_sas_topo_list(s, phy, u->host_id, rate << 4,
                         MPI3_EVENT_SAS_TOPO_PHY_RC_RESPONDING);
}

/* The phys whose bool at @flag (in MR9600Phy) is set: "0 2". */
static char *mr9600_phys_with(MR9600State *s, size_t flag)
{
    GString *g = g_string_new("");

    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        if (*(bool *)((uint8_t *)&s->phys[i] + flag)) {
            g_string_append_printf(g, "%s%u", g->len ? " " : "", i);
        }
    }
    return g_string_free(g, false);
}

static char *mr9600_flap_get(Object *obj, Error **errp)
{
    return mr9600_phys_with(MEGARAID_9600(obj),
                            offsetof(MR9600Phy, flapping));
}

static void mr9600_flap_set(Object *obj, const char *value, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    uint32_t phy;
    MR9600Phy *p;
    MRUnit *u;

    u = mr9600_timed_start(s, "inject-link-flap", value,
                           MR9600_FLAP_MS_DEFAULT,
                           offsetof(MR9600Phy, flapping),
                           offsetof(MR9600Phy, flap_timer), &phy, errp);
    if (!u) {
        return;
    }
    p = &s->phys[phy];
    p->change_count++;
    p->counters[MR9600_PHY_LOSS_OF_SYNC]++;
    trace_megaraid_9600_phy_link(phy, u->host_id, 0, "flap");
    mr9600_sas_topo_list(s, phy, u->host_id, mr9600_phy_rate(s, phy),
                         MPI3_EVENT_SAS_TOPO_PHY_RC_DELAY_NOT_RESPONDING);
}

/* ---- a phy renegotiating at another rate ---- */

static void mr9600_rate_set(Object *obj, const char *value, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    g_autofree char *arg = NULL;
    uint8_t cap, old;
    uint32_t phy;
    MRUnit *u;

    if (!mr9600_parse_phy_arg(s, "inject-phy-rate", value, &phy, &arg,
                              errp)) {
        return;
    }
    if (!g_strcmp0(arg, "6.0")) {
        cap = MPI3_SAS_NEG_LINK_RATE_6_0;
    } else if (!g_strcmp0(arg, "12.0")) {
        cap = MPI3_SAS_NEG_LINK_RATE_12_0;
    } else if (!g_strcmp0(arg, "22.5") || !g_strcmp0(arg, "none")) {
        cap = 0;
    } else {
        error_setg(errp, "inject-phy-rate: '%s': want PHY:6.0, PHY:12.0 or "
                   "PHY:22.5 (or PHY:none: no cap)", value);
        return;
    }
    old = mr9600_phy_rate(s, phy);
    s->phys[phy].rate_cap = cap;
    u = mr9600_phy_unit(s, phy);
    if (mr9600_phy_rate(s, phy) != old) {
        s->phys[phy].change_count++;
        trace_megaraid_9600_phy_link(phy, u->host_id, mr9600_phy_rate(s, phy),
                                     "renegotiated");
        mr9600_sas_topo_list(s, phy, u->host_id,
                             (mr9600_phy_rate(s, phy) << 4) | old,
                             MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED);
    }
}

static char *mr9600_rate_get(Object *obj, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    GString *g = g_string_new("");

    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        if (s->phys[i].rate_cap) {
            g_string_append_printf(g, "%s%u:%s", g->len ? " " : "", i,
                                   s->phys[i].rate_cap ==
                                   MPI3_SAS_NEG_LINK_RATE_6_0 ? "6.0"
                                                              : "12.0");
        }
    }
    return g_string_free(g, false);
}

/* ---- internal device reset ---- */

static void mr9600_dev_reset_event(MR9600State *s, MRUnit *u, uint8_t rc)
{
    MPI3EventDeviceStatusChange ev = { 0 };

    ev.reason_code = rc;
    ev.io_unit_port = mr9600_unit_port(s, u);
    ev.parent_dev_handle = cpu_to_le16(MR9600_CTRL_HANDLE);
    ev.dev_handle = cpu_to_le16(u->host_id);
    ev.wwid = cpu_to_le64(u->wwn);
    mr9600_send_event(s, MPI3_EVENT_DEVICE_STATUS_CHANGE, &ev, sizeof(ev));
}

static void mr9600_dev_reset_end(void *opaque)
{
    MR9600Phy *p = opaque;
    MR9600State *s = p->s;
    MRUnit *u = mr9600_phy_unit(s, p - s->phys);

    p->resetting = false;
    if (u) {
        trace_megaraid_9600_phy_link(p - s->phys, u->host_id, 0,
                                     "internal device reset complete");
        mr9600_dev_reset_event(s, u,
                               MPI3_EVENT_DEV_STAT_RC_INT_DEVICE_RESET_CMP);
    }
}

static char *mr9600_dev_reset_get(Object *obj, Error **errp)
{
    return mr9600_phys_with(MEGARAID_9600(obj),
                            offsetof(MR9600Phy, resetting));
}

static void mr9600_dev_reset_set(Object *obj, const char *value,
                                 Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    uint32_t phy;
    MRUnit *u;

    u = mr9600_timed_start(s, "inject-device-reset", value,
                           MR9600_DEV_RESET_MS_DEFAULT,
                           offsetof(MR9600Phy, resetting),
                           offsetof(MR9600Phy, reset_timer), &phy, errp);
    if (!u) {
        return;
    }
    trace_megaraid_9600_phy_link(phy, u->host_id, 0,
                                 "internal device reset");
    mr9600_dev_reset_event(s, u, MPI3_EVENT_DEV_STAT_RC_INT_DEVICE_RESET_STRT);
}

/* ---- events with ACK REQUIRED ---- */

bool mr9600_event_wants_ack(MR9600State *s, uint8_t event, uint32_t context)
{
    if (!s->ack_events || s->acks_pending >= MR9600_ACKS_MAX) {
        return false;
    }
    s->ack_events--;
    s->acks[s->acks_pending].event = event;
    s->acks[s->acks_pending].context = context;
    s->acks_pending++;
    return true;
}

uint16_t mr9600_event_ack(MR9600State *s, const MPI3EventAckRequest *req)
{
    uint32_t ctx = le32_to_cpu(req->event_context);

    for (uint32_t i = 0; i < s->acks_pending; i++) {
        if (s->acks[i].event == req->event && s->acks[i].context == ctx) {
            s->acks[i] = s->acks[--s->acks_pending];
            s->acks_done++;
            trace_megaraid_9600_event_ack(req->event, ctx);
            return MPI3_IOCSTATUS_SUCCESS;
        }
    }
    trace_megaraid_9600_err_event_ack(req->event, ctx);
    return MPI3_IOCSTATUS_INVALID_FIELD;
}

/* At an IOC reset the host forgets the events it owed an ACK. */
void mr9600_linkfault_reset(MR9600State *s)
{
    s->acks_pending = 0;
}

static void mr9600_ack_prop(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    uint32_t *field = (uint32_t *)((uint8_t *)s + (uintptr_t)opaque);

    visit_type_uint32(v, name, field, errp);
}

void mr9600_linkfault_init(MR9600State *s)
{
    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        MR9600Phy *p = &s->phys[i];

        p->s = s;
        p->flap_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, mr9600_flap_end, p);
        p->reset_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL,
                                      mr9600_dev_reset_end, p);
    }
}

void mr9600_linkfault_exit(MR9600State *s)
{
    for (uint32_t i = 0; i < MR9600_MAX_PHYS; i++) {
        MR9600Phy *p = &s->phys[i];

        if (p->flap_timer) {
            timer_free(p->flap_timer);
            p->flap_timer = NULL;
        }
        if (p->reset_timer) {
            timer_free(p->reset_timer);
            p->reset_timer = NULL;
        }
    }
}

void mr9600_linkfault_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "inject-link-flap", mr9600_flap_get,
                                  mr9600_flap_set);
    object_class_property_set_description(oc, "inject-link-flap",
        "fault injection (run time, sas-transport=on): PHY[:MS] drops the "
        "link of the drive on controller phy PHY for MS ms (default 2000): "
        "its topology entry DELAY NOT RESPONDING, then RESPONDING; reads "
        "the phys flapping now");
    object_class_property_add_str(oc, "inject-phy-rate", mr9600_rate_get,
                                  mr9600_rate_set);
    object_class_property_set_description(oc, "inject-phy-rate",
        "fault injection (run time, sas-transport=on): PHY:RATE (6.0, 12.0; "
        "22.5 or none: no cap) makes phy PHY renegotiate at most at RATE "
        "Gb/s, with a PHY CHANGED list; reads the caps in force");
    object_class_property_add_str(oc, "inject-device-reset",
                                  mr9600_dev_reset_get, mr9600_dev_reset_set);
    object_class_property_set_description(oc, "inject-device-reset",
        "fault injection (run time, sas-transport=on): PHY[:MS] resets the "
        "drive on phy PHY inside the firmware: DEVICE STATUS CHANGE "
        "internal device reset start, complete MS ms later (default "
        "1000); reads the phys whose drive is being reset");
    object_class_property_add(oc, "inject-ack-events", "uint32",
                              mr9600_ack_prop, mr9600_ack_prop, NULL,
                              (void *)offsetof(MR9600State, ack_events));
    object_class_property_set_description(oc, "inject-ack-events",
        "fault injection (run time): the next N events are sent with ACK "
        "REQUIRED and held until the host's EVENT ACK; reads how many are "
        "still to send so");
    object_class_property_add(oc, "events-awaiting-ack", "uint32",
                              mr9600_ack_prop, NULL, NULL,
                              (void *)offsetof(MR9600State, acks_pending));
    object_class_property_set_description(oc, "events-awaiting-ack",
        "events sent with ACK REQUIRED the host has not acknowledged");
    object_class_property_add(oc, "events-acked", "uint32",
                              mr9600_ack_prop, NULL, NULL,
                              (void *)offsetof(MR9600State, acks_done));
    object_class_property_set_description(oc, "events-acked",
        "EVENT ACKs of events sent with ACK REQUIRED, since start");
}
