/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SCSI enclosure services (SES-3) device the firmware
 * presents for an enclosure of drive bays, as the card's virtual SEP
 * does for a backplane it drives over sideband: a logical unit of
 * peripheral type 0x0d with the EncServ bit, one Array Device Slot
 * element per bay, the slots' LEDs (ident/locate, fault) readable and
 * settable through RECEIVE/SEND DIAGNOSTIC.  The device server is
 * target/target-ses.c; a personality embeds an MRSes, gives it an
 * address in its own addressing (MPI3: a device handle) and hands its
 * unit to the target like a drive's or a VD's.
 */
#ifndef HW_MEGARAID_SES_H
#define HW_MEGARAID_SES_H

#include "hw/megaraid/drive.h"

typedef struct MRSes MRSes;

/* The drive in bay @slot of the enclosure, NULL: the bay is empty. */
typedef MRDrive *MRSesSlotDrive(void *opaque, uint32_t slot);

/* Array Device Slot elements an SES device may have (its pages fit). */
#define MR_SES_MAX_SLOTS        64

struct MRSes {
    MRUnit unit;                /* its logical unit; unit.ses points here */
    uint32_t num_slots;         /* one Array Device Slot element per bay */
    uint64_t logical_id;        /* the enclosure's logical identifier */
    uint64_t attached_address;  /* SAS address the bays' phys attach to */
    MRSesSlotDrive *slot_drive;
    void *opaque;
    uint8_t last_page;          /* RECEIVE DIAGNOSTIC with PCV 0 sends it */
};

/*
 * Make @ses an SES device of @num_slots bays (at most MR_SES_MAX_SLOTS)
 * whose own SAS address is @sas_address; @name names it in traces.
 */
void mr_ses_init(MRSes *ses, const char *name, uint32_t num_slots,
                 uint64_t logical_id, uint64_t sas_address,
                 uint64_t attached_address, MRSesSlotDrive *slot_drive,
                 void *opaque);
void mr_ses_cleanup(MRSes *ses);

#endif
