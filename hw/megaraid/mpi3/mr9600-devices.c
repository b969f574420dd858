/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 devices.  Owns the drive bus the controller
 * creates, device handles and persistent IDs, event delivery (masks,
 * change count, unsolicited event replies), the discovery replay at PORT
 * ENABLE, and hot plug: the controller is the bus's HotplugHandler, sends
 * DEVICE ADDED on insert and a topology change on removal, and frees a
 * handle when the host completes the removal handshake; and a device's
 * visibility (a drive given to an array or made a spare, an offline VD) as
 * the DEVICE STATUS CHANGE every mpi3mr version acts on.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/hotplug.h"
#include "hw/qdev-core.h"
#include "mr9600.h"
#include "trace.h"

/*
 * The unit behind handle @h as the host may know it: none while it is a
 * hot-plugged drive whose metadata is still being read (meta_pending).
 */
static MRUnit *mr9600_shown_unit(MR9600State *s, uint32_t h)
{
    MRUnit *u = h < MR9600_MAX_DEV_HANDLE ? s->handles[h] : NULL;

    return u && !(u->drive && u->drive->meta_pending) ? u : NULL;
}

MRUnit *mr9600_unit_by_handle(MR9600State *s, uint16_t handle)
{
    return mr9600_shown_unit(s, handle);
}

MRUnit *mr9600_next_unit(MR9600State *s, uint16_t after_handle)
{
    uint32_t h = after_handle == 0xFFFF ? 1 : after_handle + 1;

    for (; h < MR9600_MAX_DEV_HANDLE; h++) {
        if (mr9600_shown_unit(s, h)) {
            return s->handles[h];
        }
    }
    return NULL;
}

bool mr9600_event_enabled(MR9600State *s, uint8_t event)
{
    return s->events_enabled && s->initialized &&
           !(s->event_masks[event / 32] & (1u << (event % 32)));
}

void mr9600_send_event(MR9600State *s, uint8_t event, const void *data,
                       size_t len)
{
    uint8_t frame[MR9600_REPLY_FRAME_SIZE] = { 0 };
    MPI3EventNotificationReply *ev = (MPI3EventNotificationReply *)frame;

    assert(len % 4 == 0 && len <= sizeof(frame) - sizeof(*ev));
    if (!mr9600_event_enabled(s, event)) {
        trace_megaraid_9600_event_masked(event);
        return;
    }
    s->change_count++;
    ev->hdr.host_tag = cpu_to_le16(0xFFFF);
    ev->hdr.function = MPI3_FUNCTION_EVENT_NOTIFICATION;
    ev->event_data_length = len / 4;
    ev->event = event;
    ev->ioc_change_count = cpu_to_le16(s->change_count);
    ev->event_context = cpu_to_le32(s->change_count);
    memcpy(frame + sizeof(*ev), data, len);
    trace_megaraid_9600_event(event, s->change_count);
    mr9600_post_frame(s, 0, frame, sizeof(frame), NULL);
}

/*
 * A device was hidden from the host or shown again.  DEVICE INFO CHANGED
 * (with the HIDDEN flag or the VD state in its page) is acted on only by
 * older drivers; DEVICE STATUS CHANGE with reason HIDDEN or NOT HIDDEN is
 * acted on by all of them.  The driver answers a hide with the hide
 * handshake: a target reset, then IO UNIT CONTROL HIDDEN ACK.
 */
void mr9600_send_visibility(MR9600State *s, MRUnit *u, bool hidden)
{
    MPI3EventDeviceStatusChange ev = { 0 };
    uint16_t handle = u->host_id;

    if (!s->port_enabled || !mr9600_ioc_ready(s) || !handle) {
        return;
    }
    ev.reason_code = hidden ? MPI3_EVENT_DEV_STAT_RC_HIDDEN
                            : MPI3_EVENT_DEV_STAT_RC_NOT_HIDDEN;
    ev.io_unit_port = mr9600_unit_port(s, u);
    ev.parent_dev_handle = cpu_to_le16(mr9600_unit_phy(s, u) >= 0 ?
                                       MR9600_CTRL_HANDLE :
                                       mr9600_exp_of_unit(s, u) ?
                                       mr9600_exp_handle(
                                           mr9600_exp_of_unit(s, u)) :
                                       MPI3_DEVICE0_PARENT_INVALID);
    ev.dev_handle = cpu_to_le16(handle);
    ev.wwid = cpu_to_le64(u->wwn);
    trace_megaraid_9600_device_visibility(handle, hidden);
    mr9600_send_event(s, MPI3_EVENT_DEVICE_STATUS_CHANGE, &ev, sizeof(ev));
}

static void mr9600_announce(MR9600State *s, MRUnit *u)
{
    MPI3DevicePage0 pg;

    mr9600_device_page0(s, u, &pg);
    mr9600_send_event(s, MPI3_EVENT_DEVICE_ADDED, &pg, sizeof(pg));
}

void mr9600_port_enable(MR9600State *s, uint16_t host_tag)
{
    trace_megaraid_9600_port_enable(host_tag);
    mr9600_exp_announce(s);             /* before the drives behind them */
    for (uint32_t h = 1; h < MR9600_MAX_DEV_HANDLE; h++) {
        MRUnit *u = mr9600_shown_unit(s, h);

        /* (a drive whose metadata is being read comes when it is read) */
        if (u) {
            mr9600_announce(s, u);
        }
    }
    mr9600_sas_port_enable(s);
    s->port_enabled = true;
    mr9600_post_success(s, 0, host_tag);
}

/* Removal handshake done: the handle may be given to a new drive. */
uint16_t mr9600_remove_device(MR9600State *s, uint16_t handle)
{
    if (handle >= MR9600_MAX_DEV_HANDLE || s->handles[handle] ||
        !s->handle_reserved[handle]) {
        trace_megaraid_9600_err_remove_device(handle);
        return handle < MR9600_MAX_DEV_HANDLE && s->handles[handle]
               ? MPI3_IOCSTATUS_INVALID_STATE : MPI3_IOCSTATUS_INVALID_FIELD;
    }
    s->handle_reserved[handle] = false;
    trace_megaraid_9600_handle_freed(handle);
    return MPI3_IOCSTATUS_SUCCESS;
}

void mr9600_devices_reset(MR9600State *s)
{
    /* After a reset the host has forgotten every removed handle. */
    memset(s->handle_reserved, 0, sizeof(s->handle_reserved));
}

/*
 * Handles from MR9600_VD_HANDLE_BASE on belong to the VDs (VD n has base +
 * n), whether or not the VD exists yet: a drive never takes one, or the VD
 * made later (imported at machine start, created by management) would
 * find its handle taken.  The 767 below are plenty for the card's 272
 * drives.
 */
static bool mr9600_handle_free(MR9600State *s, uint32_t h)
{
    return h && h < MR9600_VD_HANDLE_BASE && !s->handles[h] &&
           !s->handle_reserved[h] && !mr9600_exp_by_handle(s, h);
}

/*
 * A drive's handle: 1 + enclosure * 256 + slot when that is free, else the
 * highest free one, so that a drive of enclosure 3 or above (or one whose
 * handle waits for the host's REMOVE DEVICE) does not take the handle of
 * a bay of enclosures 0 to 2 (at most 752) before that bay's drive comes.
 */
static uint16_t mr9600_alloc_handle(MR9600State *s, MRDrive *d)
{
    uint32_t want = 1 + d->enclosure * 256 + d->slot;

    if (mr9600_handle_free(s, want)) {
        return want;
    }
    for (uint32_t h = MR9600_VD_HANDLE_BASE - 1; h > 0; h--) {
        if (mr9600_handle_free(s, h)) {
            return h;
        }
    }
    return 0;
}

static void mr9600_plug(HotplugHandler *hotplug_dev, DeviceState *dev,
                        Error **errp)
{
    MR9600State *s = MEGARAID_9600(hotplug_dev);
    MRDrive *d = MEGARAID_DRIVE(dev);
    uint16_t h;

    if (!mr9600_exp_check_drive(s, d, errp)) {
        return;
    }
    h = mr9600_alloc_handle(s, d);
    if (!h) {
        error_setg(errp, "megaraid-9600: no free device handle for the drive "
                   "in slot %u", d->slot);
        return;
    }
    d->unit.host_id = h;
    s->handles[h] = &d->unit;
    trace_megaraid_9600_drive_plug(h, d->slot, d->unit.iface, dev->hotplugged);
    if (mr_core_drive_plugged(&s->core, d)) {
        mr9600_drive_arrived(s, d);
    }
}

/* @d has its place (hidden or not): the host hears of it. */
void mr9600_drive_arrived(MR9600State *s, MRDrive *d)
{
    if (d->unit.host_id < MR9600_MAX_DEV_HANDLE &&
        s->handles[d->unit.host_id] == &d->unit &&
        s->port_enabled && mr9600_ioc_ready(s)) {
        mr9600_announce(s, &d->unit);
        mr9600_sas_topo_event(s, &d->unit, true);
    }
}

static void mr9600_announce_removal(MR9600State *s, MRDrive *d)
{
    if (d->unit.iface == MR_IF_NVME) {
        MPI3EventPCIeTopoChange ev = { 0 };

        ev.num_ports = 1;
        ev.num_entries = 1;
        ev.start_port_num = d->slot;
        ev.switch_status = MPI3_EVENT_PCIE_TOPO_SS_NO_PCIE_SWITCH;
        ev.io_unit_port = d->slot / 4;
        ev.entry[0].attached_dev_handle = cpu_to_le16(d->unit.host_id);
        ev.entry[0].port_status = MPI3_EVENT_PCIE_TOPO_PS_NOT_RESPONDING;
        mr9600_send_event(s, MPI3_EVENT_PCIE_TOPOLOGY_CHANGE_LIST, &ev,
                          sizeof(ev));
    } else if (mr9600_unit_phy(s, &d->unit) >= 0 ||
               mr9600_exp_of_unit(s, &d->unit)) {
        mr9600_sas_topo_event(s, &d->unit, false);
    } else {
        MPI3EventSASTopoChange ev = { 0 };

        ev.num_phys = 1;
        ev.num_entries = 1;
        ev.start_phy_num = d->slot;
        ev.exp_status = MPI3_EVENT_SAS_TOPO_ES_NO_EXPANDER;
        ev.io_unit_port = d->slot / 4;
        ev.entry[0].attached_dev_handle = cpu_to_le16(d->unit.host_id);
        ev.entry[0].status = MPI3_EVENT_SAS_TOPO_PHY_RC_TARG_NOT_RESPONDING;
        mr9600_send_event(s, MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST, &ev,
                          sizeof(ev));
    }
}

static void mr9600_unplug(HotplugHandler *hotplug_dev, DeviceState *dev,
                          Error **errp)
{
    MR9600State *s = MEGARAID_9600(hotplug_dev);
    MRDrive *d = MEGARAID_DRIVE(dev);
    uint16_t h = d->unit.host_id;

    trace_megaraid_9600_drive_unplug(h, d->slot);
    mr_core_drive_unplugging(&s->core, d);
    if (h && h < MR9600_MAX_DEV_HANDLE && s->handles[h] == &d->unit) {
        mr9600_requests_cancel(s, h, true, 0, NULL);
        s->handles[h] = NULL;
        if (s->port_enabled && mr9600_ioc_ready(s) &&
            mr9600_event_enabled(s, d->unit.iface == MR_IF_NVME ?
                                 MPI3_EVENT_PCIE_TOPOLOGY_CHANGE_LIST :
                                 MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST)) {
            /* Keep the handle until the host's REMOVE_DEVICE. */
            s->handle_reserved[h] = true;
            mr9600_announce_removal(s, d);
        }
    }
    qdev_simple_device_unplug_cb(hotplug_dev, dev, errp);
}

void mr9600_hotplug_class_init(ObjectClass *oc)
{
    HotplugHandlerClass *hc = HOTPLUG_HANDLER_CLASS(oc);

    hc->plug = mr9600_plug;
    hc->unplug = mr9600_unplug;
}
