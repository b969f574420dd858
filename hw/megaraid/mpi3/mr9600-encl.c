/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600 enclosures (sas-transport=on): the card's
 * own virtual enclosure of the bays on its phys (handle 1, a slot per
 * phy, logical ID the controller's SAS address, its SES device
 * mr9600-ses.c's), its Enclosure page 0
 * and the ENCLOSURE DEVICE ADDED event sent when the host enables events,
 * before PORT ENABLE's devices, so that each device's EnclosureHandle names
 * an enclosure the host knows.
 */
#include "qemu/osdep.h"
#include "mr9600.h"
#include "trace.h"

static void mr9600_encl_page0(MR9600State *s, MPI3EnclosurePage0 *p)
{
    p->enclosure_logical_id = cpu_to_le64(mr9600_sas_address(s));
    p->flags = cpu_to_le16(MPI3_ENCLS0_FLAGS_ENCL_TYPE_VIRTUAL |
                           MPI3_ENCLS0_FLAGS_ENCL_DEV_PRESENT |
                           MPI3_ENCLS0_FLAGS_MNG_UNKNOWN);
    p->enclosure_handle = cpu_to_le16(MR9600_ENCL_HANDLE);
    p->num_slots = cpu_to_le16(mr9600_sas_num_phys(s));
    p->io_unit_port = 0xFF;             /* the controller's own */
    p->enclosure_level = 0;
    p->sep_dev_handle = cpu_to_le16(mr9600_ses_handle(s));
    p->chassis_slot = 0;
}

uint16_t mr9600_encl_build_page(MR9600State *s, uint32_t page_address,
                                uint8_t *buf)
{
    uint16_t handle = page_address & MPI3_ENCLOS_PGAD_HANDLE_MASK;
    uint16_t st;

    if (mr9600_exp_encl_page(s, page_address, buf, &st)) {
        return st;                      /* an expander's enclosure */
    }
    switch (page_address & MPI3_ENCLOS_PGAD_FORM_MASK) {
    case MPI3_ENCLOS_PGAD_FORM_HANDLE:
        if (handle != MR9600_ENCL_HANDLE) {
            trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_ENCLOSURE,
                                             page_address, "no such handle");
            return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
        }
        break;
    case MPI3_ENCLOS_PGAD_FORM_GET_NEXT:
        /* the one enclosure follows handle 0 and the 0xFFFF of a start */
        if (handle != 0 && handle != 0xFFFF) {
            return MPI3_IOCSTATUS_CONFIG_INVALID_PAGE;
        }
        break;
    default:
        trace_megaraid_9600_err_sas_page(MPI3_CONFIG_PAGETYPE_ENCLOSURE,
                                         page_address, "unknown form");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    mr9600_encl_page0(s, (MPI3EnclosurePage0 *)buf);
    return MPI3_IOCSTATUS_SUCCESS;
}

/*
 * The host enabled events (after IOC INIT, again after each reset): the
 * firmware reports its enclosure, well before PORT ENABLE's devices, so
 * that the host knows it when a device page names it.
 */
void mr9600_encl_events_enabled(MR9600State *s)
{
    MPI3EnclosurePage0 p = { 0 };

    if (!mr9600_sas_on(s)) {
        return;
    }
    mr9600_config_page_header(MPI3_CONFIG_PAGETYPE_ENCLOSURE, 0,
                              sizeof(p), &p.header);
    mr9600_encl_page0(s, &p);
    trace_megaraid_9600_encl_added(MR9600_ENCL_HANDLE,
                                   mr9600_sas_num_phys(s));
    mr9600_send_event(s, MPI3_EVENT_ENCL_DEVICE_ADDED, &p, sizeof(p));
    mr9600_exp_encl_events(s);
}
