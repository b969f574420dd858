/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 events as the megaraid_sas driver receives
 * them.  Owns the ring of the firmware's recent events (256-byte MFI event
 * details with sequence numbers), the events the device raises (a JBOD
 * drive inserted or removed), and the delivery through the EVENT_WAIT
 * DCMD the firmware holds: the oldest event at or after the sequence
 * number the host asked for, of its class and locale, completes it.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "mr9500.h"
#include "trace.h"


static uint8_t *mr9500_event_slot(MR9500State *s, uint32_t seq)
{
    uint8_t *e = s->evt_ring[seq % MR9500_EVT_RING];

    return ldl_le_p(e + MFI_EVT_SEQ) == seq && seq ? e : NULL;
}

void mr9500_aen_check(MR9500State *s)
{
    uint32_t first = MAX(s->aen.seq, 1);
    uint8_t status;

    if (!s->aen.active) {
        return;
    }
    if (s->evt_seq >= MR9500_EVT_RING &&
        first < s->evt_seq - MR9500_EVT_RING + 1) {
        first = s->evt_seq - MR9500_EVT_RING + 1;   /* older ones are gone */
    }
    for (uint32_t seq = first; seq && seq <= s->evt_seq; seq++) {
        uint8_t *e = mr9500_event_slot(s, seq);

        /* the core log's entries are the tools' (mr9500-evlog.c) */
        if (!e || s->evt_core[seq % MR9500_EVT_RING] ||
            (int8_t)e[MFI_EVT_CLASS] < s->aen.class ||
            !(lduw_le_p(e + MFI_EVT_LOCALE) & s->aen.locale)) {
            continue;
        }
        status = mr9500_mfi_to_host(s, s->aen.frame, MFI_DCMD_SGL, e,
                                    MR_EVT_DETAIL_SIZE);
        trace_megaraid_9500_aen_deliver(s->aen.smid, seq,
                                        lduw_le_p(e + MFI_EVT_CODE));
        mr9500_held_complete(s, &s->aen, status);
        return;
    }
}

uint8_t *mr9500_event_new(MR9500State *s, uint16_t code, uint16_t locale,
                          uint32_t *seq)
{
    uint8_t *e;
    int64_t secs = (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->boot_ns) /
                   NANOSECONDS_PER_SECOND;

    *seq = ++s->evt_seq;
    e = s->evt_ring[*seq % MR9500_EVT_RING];
    s->evt_core[*seq % MR9500_EVT_RING] = false;
    memset(e, 0, MR_EVT_DETAIL_SIZE);
    stl_le_p(e + MFI_EVT_SEQ, *seq);
    stl_le_p(e + MFI_EVT_TIME, 0xFF000000u | (secs & 0xFFFFFF));
    stl_le_p(e + MFI_EVT_CODE, code);
    stw_le_p(e + MFI_EVT_LOCALE, locale);
    return e;
}

void mr9500_event_pd(MR9500State *s, uint16_t code, uint32_t pd,
                     uint32_t slot)
{
    g_autofree char *desc = NULL;
    uint32_t seq;
    uint8_t *e;

    /* the maps (JBOD device handles) are current before the host rescans */
    mr9500_map_changed(s);
    e = mr9500_event_new(s, code, MFI_EVT_LOCALE_PD, &seq);
    e[MFI_EVT_CLASS] = 0;                               /* info */
    e[MFI_EVT_ARG_TYPE] = MFI_EVT_ARG_PD;
    stw_le_p(e + MFI_EVT_ARGS, pd);
    e[MFI_EVT_ARGS + 2] = 0;                            /* enclosure index */
    e[MFI_EVT_ARGS + 3] = slot;
    desc = g_strdup_printf("%s: PD %02x(e0xff/s%u)",
                           code == MR_EVT_PD_INSERTED ? "Inserted"
                                                      : "Removed",
                           pd, slot);
    pstrcpy((char *)e + MFI_EVT_DESCRIPTION,
            MR_EVT_DETAIL_SIZE - MFI_EVT_DESCRIPTION, desc);
    trace_megaraid_9500_event(seq, code, pd);
    mr9500_aen_check(s);
}
