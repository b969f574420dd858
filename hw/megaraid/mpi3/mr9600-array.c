/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's side of the array glue.  Imports the RAID
 * configuration once every drive given on the command line exists (or at
 * realize for a hot-plugged controller), gives each VD a device handle,
 * describes it in Device Page 0 (the VD form the driver reads), and turns
 * array changes into the MPI3 events the driver acts on: DEVICE ADDED for
 * a new VD, DEVICE INFO CHANGED when a VD's state changes or a drive
 * becomes hidden (array member, spare) or visible, and with it a DEVICE
 * STATUS CHANGE (hidden, not hidden) when a drive or an offline VD is to
 * leave or rejoin the host.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "hw/qdev-core.h"
#include "system/system.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_VD_HANDLE_BASE   0x300

static const uint8_t mr9600_vd_state[] = {
    [RAID_VD_OPTIMAL] = MPI3_DEVICE0_VD_STATE_OPTIMAL,
    [RAID_VD_PARTIALLY_DEGRADED] = MPI3_DEVICE0_VD_STATE_PARTIALLY_DEGRADED,
    [RAID_VD_DEGRADED] = MPI3_DEVICE0_VD_STATE_DEGRADED,
    [RAID_VD_OFFLINE] = MPI3_DEVICE0_VD_STATE_OFFLINE,
};

static const uint8_t mr9600_vd_level[] = {
    [RAID_LEVEL_0] = 0,
    [RAID_LEVEL_1] = 1,
    [RAID_LEVEL_5] = 5,
    [RAID_LEVEL_6] = 6,
    [RAID_LEVEL_10] = 10,
    [RAID_LEVEL_50] = 50,
    [RAID_LEVEL_60] = 60,
    [RAID_LEVEL_JBOD] = MPI3_DEVICE0_VD_RAIDLEVEL_JBOD,
};

void mr9600_vd_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p)
{
    MRVirtualDisk *vd = u->vd;
    const RaidLayout *l = mr_vd_layout(vd);
    MPI3Device0VD *v = &p->device_specific.vd;
    uint16_t info = 0;

    p->parent_dev_handle = cpu_to_le16(MPI3_DEVICE0_PARENT_INVALID);
    p->slot = 0;
    p->slot_index = 0;
    p->io_unit_port = 0;
    p->wwid = cpu_to_le64(u->wwn);
    p->flags = cpu_to_le16(MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                           MPI3_DEVICE0_FLAGS_ATT_METHOD_VIRTUAL);
    p->queue_depth = cpu_to_le16(mr_core_queue_depth(u));
    p->device_form = MPI3_DEVICE_DEVFORM_VD;
    for (uint32_t m = 0; m < l->members; m++) {
        MRDrive *d = mr_vd_member_drive(vd, m);

        if (d) {
            info |= d->unit.iface == MR_IF_NVME ?
                    MPI3_DEVICE0_VD_DEVICE_INFO_NVME :
                    d->unit.iface == MR_IF_SATA ?
                    MPI3_DEVICE0_VD_DEVICE_INFO_SATA :
                    MPI3_DEVICE0_VD_DEVICE_INFO_SAS;
        }
    }
    info |= u->media == MR_MEDIA_SSD ? MPI3_DEVICE0_VD_DEVICE_INFO_SSD
                                     : MPI3_DEVICE0_VD_DEVICE_INFO_HDD;
    v->vd_state = mr9600_vd_state[mr_vd_conf(vd)->state];
    v->raid_level = mr9600_vd_level[l->level];
    v->device_info = cpu_to_le16(info);
}

static bool mr9600_can_notify(MR9600State *s)
{
    return s->port_enabled && mr9600_ioc_ready(s);
}

static void mr9600_info_changed(MR9600State *s, MRUnit *u)
{
    MPI3DevicePage0 pg;

    if (!mr9600_can_notify(s) || !u->host_id) {
        return;
    }
    mr9600_device_page0(s, u, &pg);
    mr9600_send_event(s, MPI3_EVENT_DEVICE_INFO_CHANGED, &pg, sizeof(pg));
}

static void mr9600_vd_added(void *opaque, MRVirtualDisk *vd)
{
    MR9600State *s = opaque;
    MRUnit *u = mr_vd_unit(vd);
    int idx = mr_vd_index(vd);
    uint16_t h = MR9600_VD_HANDLE_BASE + idx;
    MPI3DevicePage0 pg;

    if (s->handles[h] || s->handle_reserved[h]) {
        warn_report("megaraid-9600: no device handle for VD %d", idx);
        return;
    }
    u->host_id = h;
    u->slot = h;                /* the SAS phy log page's address */
    s->vd_host_state[idx] = mr9600_vd_state[mr_vd_conf(vd)->state];
    s->handles[h] = u;
    trace_megaraid_9600_vd_handle(idx, h);
    if (mr9600_can_notify(s)) {
        mr9600_device_page0(s, u, &pg);
        mr9600_send_event(s, MPI3_EVENT_DEVICE_ADDED, &pg, sizeof(pg));
    }
}

static void mr9600_vd_changed(void *opaque, MRVirtualDisk *vd)
{
    MR9600State *s = opaque;
    uint8_t state = mr9600_vd_state[mr_vd_conf(vd)->state];
    uint8_t *told = &s->vd_host_state[mr_vd_index(vd)];
    bool was_hidden = *told == MPI3_DEVICE0_VD_STATE_OFFLINE;

    if (*told == state) {
        return;                 /* the host already has this state */
    }
    *told = state;
    mr9600_info_changed(s, mr_vd_unit(vd));
    if (was_hidden != (state == MPI3_DEVICE0_VD_STATE_OFFLINE)) {
        mr9600_send_visibility(s, mr_vd_unit(vd), !was_hidden);
    }
}

static void mr9600_drive_changed(void *opaque, MRDrive *d, bool toggled)
{
    MR9600State *s = opaque;
    bool hidden = d->in_array;

    if (!toggled) {
        return;
    }
    if (hidden) {
        mr9600_requests_cancel(s, d->unit.host_id, true, 0, NULL);
    }
    mr9600_info_changed(s, &d->unit);
    mr9600_send_visibility(s, &d->unit, hidden);
}

static void mr9600_array_drive_arrived(void *opaque, MRDrive *d)
{
    mr9600_drive_arrived(opaque, d);
}

static const MRArrayOps mr9600_array_ops = {
    .vd_added = mr9600_vd_added,
    .vd_changed = mr9600_vd_changed,
    .drive_changed = mr9600_drive_changed,
    .drive_arrived = mr9600_array_drive_arrived,
};

bool mr9600_array_realize(MR9600State *s, Error **errp)
{
    PCIDevice *pci = PCI_DEVICE(s);
    MRCoreIdentity id = {
        .model = s->model->core.name,
        .product = s->model->core.product,
        .vendor = s->model->core.vendor,
        .fw_version = MR9600_FW_VERSION,
        .vd_revision = MR9600_VD_REVISION,
        .sat_vendor = "BROADCOM",
        .sat_product = MR9600_SAT_PRODUCT,
        .pci_vendor = pci_get_word(pci->config + PCI_VENDOR_ID),
        .pci_device = pci_get_word(pci->config + PCI_DEVICE_ID),
        .subsys_vendor = s->model->core.subsys_vendor,
        .subsys_id = s->model->core.subsys_id,
    };

    return mr_core_realize(&s->core, DEVICE(s), &id, &mr9600_array_ops, s,
                           errp);
}

void mr9600_array_unrealize(MR9600State *s)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        MRVirtualDisk *vd = mr_core_vd(&s->core, v);
        MRUnit *u = vd ? mr_vd_unit(vd) : NULL;

        if (u && u->host_id && s->handles[u->host_id] == u) {
            mr9600_requests_cancel(s, u->host_id, true, 0, NULL);
            s->handles[u->host_id] = NULL;
        }
    }
    mr_core_unrealize(&s->core);
}
