/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's SES device (sas-transport=on): the card's
 * virtual SEP of its own enclosure, the bays on its phys.  Owns its device
 * handle (MR9600_SEP_HANDLE, taken at realize so that no drive gets it),
 * its Device page 0 (an SSP end device directly attached to the
 * controller and virtual, which the host puts on its non-transport SCSI
 * channel as it does the card's real virtual SEP), its SAS address and
 * which drive sits in each of its slots.  The SES device server itself
 * is the core's (target/target-ses.c).
 */
#include "qemu/osdep.h"
#include "mr9600.h"
#include "trace.h"

/* The SEP's SAS address: the controller's with its low nibble set. */
static uint64_t mr9600_ses_address(MR9600State *s)
{
    return mr9600_sas_address(s) | 0x1;
}

/* The drive on phy @slot, hidden (a member, a spare) or not. */
static MRDrive *mr9600_ses_slot_drive(void *opaque, uint32_t slot)
{
    MR9600State *s = opaque;

    for (uint32_t h = 1; h < MR9600_MAX_DEV_HANDLE; h++) {
        MRUnit *u = s->handles[h];

        if (u && u->drive && mr9600_unit_phy(s, u) == (int)slot) {
            return u->drive;
        }
    }
    return NULL;
}

void mr9600_ses_realize(MR9600State *s)
{
    if (!mr9600_sas_on(s)) {
        return;
    }
    mr_ses_init(&s->ses, "ses 0", mr9600_sas_num_phys(s),
                mr9600_sas_address(s), mr9600_ses_address(s),
                mr9600_sas_address(s), mr9600_ses_slot_drive, s);
    s->ses.unit.host_id = MR9600_SEP_HANDLE;
    s->handles[MR9600_SEP_HANDLE] = &s->ses.unit;
    trace_megaraid_9600_ses(MR9600_SEP_HANDLE, mr9600_ses_address(s),
                            s->ses.num_slots);
}

void mr9600_ses_exit(MR9600State *s)
{
    if (s->handles[MR9600_SEP_HANDLE] == &s->ses.unit) {
        s->handles[MR9600_SEP_HANDLE] = NULL;
        mr_ses_cleanup(&s->ses);
    }
}

uint16_t mr9600_ses_handle(MR9600State *s)
{
    return s->handles[MR9600_SEP_HANDLE] == &s->ses.unit ? MR9600_SEP_HANDLE
                                                         : 0;
}

/* Device page 0 of the SEP (the header and handle are the caller's). */
void mr9600_ses_page0(MR9600State *s, MPI3DevicePage0 *p)
{
    MPI3Device0SASSATA *a = &p->device_specific.sas_sata;

    p->parent_dev_handle = cpu_to_le16(MR9600_CTRL_HANDLE);
    p->enclosure_handle = cpu_to_le16(MR9600_ENCL_HANDLE);
    p->slot = cpu_to_le16(0xFFFF);      /* in no bay */
    p->slot_index = cpu_to_le16(0xFFFF);
    p->wwid = cpu_to_le64(mr9600_ses_address(s));
    p->io_unit_port = 0xFF;             /* the controller's own */
    p->queue_depth = cpu_to_le16(1);
    /* directly attached and virtual: the host's non-transport channel */
    p->flags = cpu_to_le16(MPI3_DEVICE0_FLAGS_DEVICE_PRESENT |
                           MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT |
                           MPI3_DEVICE0_FLAGS_ATT_METHOD_VIRTUAL);
    p->device_form = MPI3_DEVICE_DEVFORM_SAS_SATA;
    a->sas_address = cpu_to_le64(mr9600_ses_address(s));
    a->device_info = cpu_to_le16(MPI3_SAS_DEVICE_INFO_END_DEVICE |
                                 MPI3_SAS_DEVICE_INFO_SSP_TARGET);
    a->phy_num = 0xFF;                  /* on no controller phy */
    a->max_port_connections = 1;
}
