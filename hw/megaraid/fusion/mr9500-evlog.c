/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's event log (evlog.h, the one mrcli and
 * QMP read) in megaraid-9500's MFI event log, the one CTRL_EVENT_GET,
 * CTRL_EVENT_GET_INFO and EVENT_WAIT serve (mr9500-events.c).
 *
 * At realize the core log's newest entries are put into the MFI log in
 * order (the history a card keeps in NVRAM), then every entry the core
 * logs is added as it is logged, as a 256-byte MFI event detail: the MFI
 * code of the same event, its locale, its class from the severity
 * (progress entries PROGRESS), the drive or VD as its argument, the
 * core's time (seconds since 2000) and the core's text.  The events the
 * device raises itself for the driver at the same moment (LD created,
 * deleted and state change; PD inserted and removed: mr9500-ld.c,
 * mr9500.c) are not added twice.  The MFI log numbers its events itself
 * (one sequence for both kinds): the driver's EVENT_WAIT needs every
 * event it is sent in one sequence.  EVENT_WAIT is completed by the
 * device's own events only: megaraid_sas prints every critical event it
 * is sent to the kernel log, and the driver needs no more than those.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "hw/megaraid/evlog.h"
#include "mr9500.h"
#include "trace.h"

/* MFI event classes and locales (struct mfi_evt) */
#define EVL_CLASS_PROGRESS      ((uint8_t)-1)
#define EVL_LOCALE_LD           0x0001
#define EVL_LOCALE_PD           0x0002
#define EVL_LOCALE_BBU          0x0008
#define EVL_LOCALE_CTRL         0x0020
#define EVL_LOCALE_CONFIG       0x0040

/* argument types (MR_EVT_ARGS_*) */
#define EVL_ARG_NONE            0
#define EVL_ARG_LD              2
#define EVL_ARG_PD              10

/* MFI firmware time: seconds since 2000-01-01 00:00 UTC */
#define EVL_TIME_EPOCH          946684800u

/* The core entries logged at realize that the MFI log starts with. */
#define EVL_REPLAY              (MR9500_EVT_RING / 2)

/* MFI event codes (the public MR_EVT_* list) */
static const struct {
    uint16_t core;
    uint16_t mfi;
} evl_codes[] = {
    { MR_EV_CTRL_STARTED, 0x0000 },         /* boot */
    { MR_EV_CTRL_RESET, 0x0000 },           /* (a reset boots it again) */
    { MR_EV_CTRL_SHUTDOWN, 0x002a },
    { MR_EV_CTRL_LOG_CLEARED, 0x001e },
    { MR_EV_CTRL_PATROL_STARTED, 0x0027 },
    { MR_EV_CTRL_PATROL_PROGRESS, 0x005e },
    { MR_EV_CTRL_PATROL_DONE, 0x0023 },
    { MR_EV_CTRL_PATROL_STOPPED, 0x0024 },  /* as a pause */
    { MR_EV_PD_INSERTED, 0x005b },
    { MR_EV_PD_REMOVED, 0x0070 },
    { MR_EV_PD_STATE, 0x0072 },
    { MR_EV_PD_FAILED, 0x0083 },            /* PD unusable */
    { MR_EV_PD_MEDIUM_REPAIRED, 0x005d },   /* patrol read corrected */
    { MR_EV_PD_MEDIUM_ERROR, 0x005f },      /* patrol read uncorrectable */
    { MR_EV_VD_STATE, 0x0051 },
    { MR_EV_VD_CREATED, 0x008a },
    { MR_EV_VD_DELETED, 0x008b },
    { MR_EV_CFG_FOREIGN_FOUND, 0x00da },
    { MR_EV_CFG_FOREIGN_IMPORTED, 0x00db },
    { MR_EV_CFG_FOREIGN_CLEARED, 0x00dc },
    { MR_EV_CFG_CHANGED, 0x0049 },          /* LD properties changed */
};

/*
 * Background jobs by kind (evlog.h's job argument: 1 rebuild, 2 check,
 * 3 init, 4 copyback): started, progress, done, aborted.
 */
static const uint16_t evl_job_codes[5][4] = {
    [1] = { 0x0069, 0x0067, 0x0064, 0x0062 },   /* PD rebuild */
    [2] = { 0x0042, 0x0041, 0x003a, 0x0038 },   /* LD consistency check */
    [3] = { 0x0047, 0x0045, 0x0048, 0x0043 },   /* LD full init */
    [4] = { 0x0069, 0x0067, 0x0064, 0x0062 },   /* a copy: as a rebuild */
};

static uint16_t evl_mfi_code(const MREvEntry *e)
{
    if (e->code >= MR_EV_JOB_STARTED && e->code <= MR_EV_JOB_ABORTED) {
        uint32_t kind = e->arg[0] < ARRAY_SIZE(evl_job_codes) ? e->arg[0]
                                                                : 2;

        return evl_job_codes[kind ?: 2][e->code - MR_EV_JOB_STARTED];
    }
    if (e->code == MR_EV_CV_STATE) {
        /* BBU good, bad, not present by the new state (MRCacheVaultState) */
        return e->arg[1] == 0 ? 0x00c2 : e->arg[1] == 1 ? 0x00c3 : 0x008e;
    }
    for (size_t i = 0; i < ARRAY_SIZE(evl_codes); i++) {
        if (evl_codes[i].core == e->code) {
            return evl_codes[i].mfi;
        }
    }
    switch (e->code) {
    case MR_EV_PD_SPARE:
        /* global or dedicated spare created / disabled */
        return e->arg[1] == UINT32_MAX ? (e->arg[0] ? 0x0087 : 0x0088)
                                       : (e->arg[0] ? 0x0084 : 0x0085);
    default:
        /* no MFI event of its own (the locate LED): as a PD state change */
        return mr_evlog_code_class(e->code) == MR_EV_CLASS_DRIVE ? 0x0072
                                                                 : 0x0049;
    }
}

/* Raised by the device itself for the driver (not added twice). */
static bool evl_raised_by_device(uint16_t code)
{
    return code == MR_EV_VD_CREATED || code == MR_EV_VD_DELETED ||
           code == MR_EV_VD_STATE || code == MR_EV_PD_INSERTED ||
           code == MR_EV_PD_REMOVED;
}

static void evl_add(MR9500State *s, const MREvEntry *e)
{
    static const uint16_t locale[MR_EV_CLASS__MAX] = {
        [MR_EV_CLASS_CONTROLLER] = EVL_LOCALE_CTRL,
        [MR_EV_CLASS_DRIVE] = EVL_LOCALE_PD,
        [MR_EV_CLASS_VD] = EVL_LOCALE_LD,
        [MR_EV_CLASS_JOB] = EVL_LOCALE_LD,
        [MR_EV_CLASS_CACHEVAULT] = EVL_LOCALE_BBU,
        [MR_EV_CLASS_CONFIG] = EVL_LOCALE_CONFIG,
    };
    uint8_t cls = e->cls < MR_EV_CLASS__MAX ? e->cls : MR_EV_CLASS_CONTROLLER;
    uint64_t secs = e->time_ms / 1000;
    uint32_t seq;
    uint8_t *d;

    d = mr9500_event_new(s, evl_mfi_code(e), locale[cls] ?: EVL_LOCALE_CTRL,
                         &seq);
    s->evt_core[seq % MR9500_EVT_RING] = true;
    stl_le_p(d + MFI_EVT_TIME, secs > EVL_TIME_EPOCH ?
             MIN(secs - EVL_TIME_EPOCH, 0xFEFFFFFFu) : 0);
    d[MFI_EVT_CLASS] = e->code == MR_EV_JOB_PROGRESS ||
                       e->code == MR_EV_CTRL_PATROL_PROGRESS ?
                       EVL_CLASS_PROGRESS : MIN(e->severity, 3);
    if (e->target >= 0 && (cls == MR_EV_CLASS_DRIVE)) {
        d[MFI_EVT_ARG_TYPE] = EVL_ARG_PD;
        stw_le_p(d + MFI_EVT_ARGS, 0xFFFF);     /* PD id: by slot */
        for (uint32_t pd = 0; pd < MR9500_MAX_PDS; pd++) {
            if (s->pd[pd] && s->pd[pd]->slot == e->target &&
                !s->pd[pd]->enclosure) {
                stw_le_p(d + MFI_EVT_ARGS, pd);
                break;
            }
        }
        d[MFI_EVT_ARGS + 2] = 0xFF;             /* no enclosure */
        d[MFI_EVT_ARGS + 3] = e->target;
    } else if (e->target >= 0 && (cls == MR_EV_CLASS_VD ||
                                  cls == MR_EV_CLASS_JOB)) {
        d[MFI_EVT_ARG_TYPE] = EVL_ARG_LD;
        stw_le_p(d + MFI_EVT_ARGS, e->target);
        d[MFI_EVT_ARGS + 2] = e->target;
    } else {
        d[MFI_EVT_ARG_TYPE] = EVL_ARG_NONE;
    }
    pstrcpy((char *)d + MFI_EVT_DESCRIPTION,
            MR_EVT_DETAIL_SIZE - MFI_EVT_DESCRIPTION, e->text);
    if (e->code == MR_EV_CTRL_SHUTDOWN) {
        s->evt_shutdown_seq = seq;
    } else if (e->code == MR_EV_CTRL_LOG_CLEARED) {
        s->evt_clear_seq = seq;
    } else if (e->code == MR_EV_CTRL_STARTED) {
        s->evt_boot_seq = seq;
    }
    trace_megaraid_9500_evlog(seq, e->seq, e->code);
}

static void evl_notify(Notifier *n, void *data)
{
    MR9500State *s = container_of(n, MR9500State, evlog_notifier);
    const MREvEntry *e = data;

    if (evl_raised_by_device(e->code)) {
        return;
    }
    evl_add(s, e);
}

void mr9500_evlog_init(MR9500State *s)
{
    MREvLog *log = mr_core_evlog(&s->core);
    uint32_t newest = mr_evlog_newest(log), oldest = mr_evlog_oldest(log);
    MREvEntry e;

    if (newest && newest - oldest + 1 > EVL_REPLAY) {
        oldest = newest - EVL_REPLAY + 1;
    }
    for (uint32_t seq = oldest; seq && seq <= newest; seq++) {
        if (mr_evlog_get(log, seq, &e)) {
            evl_add(s, &e);
        }
    }
    s->evlog_notifier.notify = evl_notify;
    mr_evlog_add_notifier(log, &s->evlog_notifier);
}

void mr9500_evlog_exit(MR9500State *s)
{
    if (s->evlog_notifier.notify) {
        mr_evlog_remove_notifier(&s->evlog_notifier);
        s->evlog_notifier.notify = NULL;
    }
}
