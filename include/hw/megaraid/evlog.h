/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's persistent event log.
 *
 * The firmware of a MegaRAID card keeps one sequence-numbered log of
 * everything that happened to it (drives failed, inserted, removed or
 * changing state; VD states; background jobs; CacheVault; foreign
 * configurations; resets and shutdowns) in controller NVRAM, and every
 * management path reads that one log: the MPI3 PERSISTENT EVENT LOG
 * function (mr9600-pel.c), the management pass-through's "event log read",
 * the host's QMP events.  This header is that log, host-neutral: no MPI3
 * type appears here, each reader translates an MREvEntry into its own
 * format.
 *
 * The log is a ring of a fixed number of entries (the oldest are
 * overwritten).  Sequence numbers start at 1 and grow by one per entry
 * for the whole life of the log (0 means "none").  With a backing drive
 * (the controller's event-log property, a QEMU drive) every entry is
 * written to it as it is added, so the log survives a QEMU restart;
 * without one the log lives in memory for this run.
 *
 * Readers that want every new entry as it arrives register a Notifier:
 * it is called, after the entry is stored, with a const MREvEntry * as
 * its data.  Everything runs under the BQL in the main loop.
 *
 * Where the controller keeps its log: MRArray.evlog
 * (hw/megaraid/member/array-types.h), never NULL between the controller's
 * realize and unrealize.
 */
#ifndef HW_MEGARAID_EVLOG_H
#define HW_MEGARAID_EVLOG_H

#include "qemu/notify.h"

/* Entries in the ring unless the caller asks for another size. */
#define MR_EVLOG_DEFAULT_ENTRIES 1024
#define MR_EVLOG_MIN_ENTRIES     16
#define MR_EVLOG_MAX_ENTRIES     65536
/* Text of an entry, terminating NUL included (longer text is cut). */
#define MR_EV_TEXT_LEN 96

/* What an entry is about. */
typedef enum MREvClass {
    MR_EV_CLASS_CONTROLLER = 0,
    MR_EV_CLASS_DRIVE,
    MR_EV_CLASS_VD,
    MR_EV_CLASS_JOB,
    MR_EV_CLASS_CACHEVAULT,
    MR_EV_CLASS_CONFIG,
    MR_EV_CLASS__MAX,
} MREvClass;

typedef enum MREvSeverity {
    MR_EV_SEV_INFO = 0,
    MR_EV_SEV_WARNING,
    MR_EV_SEV_CRITICAL,
    MR_EV_SEV_FATAL,
    MR_EV_SEV__MAX,
} MREvSeverity;

/*
 * Event codes: the high byte is the MREvClass.  The meaning of target and of
 * the two arguments is given per code; "state" arguments are the
 * RaidPdState / RaidVdState / MRCacheVaultState values of the time,
 * "job" arguments RaidJobKind values.  A code's number never changes
 * (log files and guest tools keep them); new codes are added at the end
 * of their class.
 */
typedef enum MREvCode {
    /* controller; target -1 */
    MR_EV_CTRL_STARTED = 0x0001,    /* the log was opened: one per run */
    MR_EV_CTRL_RESET = 0x0002,      /* arg0: 0 soft, 1 diag/hard */
    MR_EV_CTRL_SHUTDOWN = 0x0003,   /* host's shutdown or QEMU quit */
    MR_EV_CTRL_LOG_CLEARED = 0x0004,    /* clear mark set (arg0: seq) */
    /* patrol read; arg1: passes completed before this one */
    MR_EV_CTRL_PATROL_STARTED = 0x0005,
    MR_EV_CTRL_PATROL_PROGRESS = 0x0006,    /* arg0: percent done */
    MR_EV_CTRL_PATROL_DONE = 0x0007,    /* arg0 corrected, arg1 uncorrectable */
    MR_EV_CTRL_PATROL_STOPPED = 0x0008, /* arg0: percent done */
    /* drives; target: slot in the bays */
    MR_EV_PD_INSERTED = 0x0101,
    MR_EV_PD_REMOVED = 0x0102,
    MR_EV_PD_STATE = 0x0103,        /* arg0 old state, arg1 new state */
    MR_EV_PD_FAILED = 0x0104,       /* a member failed (text: why) */
    /* arg0: 1 made a spare, 0 no longer one; arg1: drive group, ~0 global */
    MR_EV_PD_SPARE = 0x0105,
    /* the locate LED; arg0: 1 on, 0 off; arg1: seconds (0: until stopped) */
    MR_EV_PD_LOCATE = 0x0106,
    /* patrol read; arg0: drive lba (low 32 bits), arg1: VD index */
    MR_EV_PD_MEDIUM_REPAIRED = 0x0107,  /* rewritten from redundancy */
    MR_EV_PD_MEDIUM_ERROR = 0x0108,     /* uncorrectable (no redundancy) */
    /* virtual disks; target: VD index */
    MR_EV_VD_STATE = 0x0201,        /* arg0 old state, arg1 new state */
    MR_EV_VD_CREATED = 0x0202,
    MR_EV_VD_DELETED = 0x0203,
    /* background jobs; target: VD index; arg0: job kind */
    MR_EV_JOB_STARTED = 0x0301,     /* arg1: 1 resumed after a restart */
    MR_EV_JOB_PROGRESS = 0x0302,    /* arg1: percent done (10, 20, ...) */
    MR_EV_JOB_DONE = 0x0303,        /* arg1: inconsistent rows (check) */
    MR_EV_JOB_ABORTED = 0x0304,     /* arg1: percent done when stopped */
    /* CacheVault; target -1 */
    MR_EV_CV_STATE = 0x0401,        /* arg0 old state, arg1 new state */
    /* configuration; target -1 */
    MR_EV_CFG_FOREIGN_FOUND = 0x0501,   /* arg0: foreign drives */
    MR_EV_CFG_FOREIGN_IMPORTED = 0x0502,
    MR_EV_CFG_FOREIGN_CLEARED = 0x0503,
    MR_EV_CFG_CHANGED = 0x0504,
} MREvCode;

typedef struct MREvEntry {
    uint32_t seq;               /* 1, 2, ... */
    uint64_t time_ms;           /* host time, ms since the epoch */
    uint16_t code;              /* MREvCode */
    uint8_t cls;                /* MREvClass */
    uint8_t severity;           /* MREvSeverity */
    int32_t target;             /* drive slot or VD index, -1 none */
    uint32_t arg[2];
    char text[MR_EV_TEXT_LEN];  /* NUL-terminated, human readable */
} MREvEntry;

typedef struct MREvLog MREvLog;

/*
 * A log of @entries entries (0: MR_EVLOG_DEFAULT_ENTRIES).  With @blk
 * (the caller holds it writable, nv-drive.h; @name is how messages name
 * it) the log is read from that drive (a drive of zeroes gets an
 * empty log) and kept there; a drive that holds no event log, one of
 * another version, too small for its entries, or with a damaged entry is
 * refused with an error naming the drive and the problem.  An existing
 * log keeps its own number of entries.  @blk NULL: in memory only.
 * Returns NULL on error.
 */
MREvLog *mr_evlog_open(BlockBackend *blk, const char *name,
                       uint32_t entries, Error **errp);
/* Wait for the writes made so far and flush the drive (if any). */
void mr_evlog_flush(MREvLog *log);
/* Flush the drive (mr_evlog_flush) and free the log. */
void mr_evlog_close(MREvLog *log);
/* Bytes a log of @entries entries occupies on its drive. */
uint64_t mr_evlog_bytes(uint32_t entries);

/*
 * Add an entry; returns its sequence number.  @target is a drive slot or
 * a VD index, -1 for none.  The text is printf-style and cut at
 * MR_EV_TEXT_LEN - 1 bytes.  The entry goes to the drive in the
 * background; a write error is reported once (error_report) and the log
 * goes on in memory.
 */
uint32_t mr_evlog_add(MREvLog *log, MREvCode code, MREvSeverity sev,
                      int target, uint32_t arg0, uint32_t arg1,
                      const char *fmt, ...) G_GNUC_PRINTF(7, 8);
uint32_t mr_evlog_addv(MREvLog *log, MREvCode code, MREvSeverity sev,
                       int target, uint32_t arg0, uint32_t arg1,
                       const char *fmt, va_list ap) G_GNUC_PRINTF(7, 0);

/* Copy the entry @seq into @out; false if it is not (or no longer) held. */
bool mr_evlog_get(const MREvLog *log, uint32_t seq, MREvEntry *out);
/* Oldest / newest sequence number held; 0 when the log is empty. */
uint32_t mr_evlog_oldest(const MREvLog *log);
uint32_t mr_evlog_newest(const MREvLog *log);
/* Entries held now, and the ring's size. */
uint32_t mr_evlog_count(const MREvLog *log);
uint32_t mr_evlog_capacity(const MREvLog *log);
/*
 * Marks kept on the drive with the entries: the first entry of this run
 * (its MR_EV_CTRL_STARTED), the last clear mark (entries up to it count
 * as cleared for readers that honour it; nothing is deleted), the newest
 * MR_EV_CTRL_SHUTDOWN.  0: none.
 */
uint32_t mr_evlog_boot_seq(const MREvLog *log);
uint32_t mr_evlog_clear_seq(const MREvLog *log);
uint32_t mr_evlog_shutdown_seq(const MREvLog *log);
/* Set the clear mark to the newest entry and log MR_EV_CTRL_LOG_CLEARED. */
void mr_evlog_mark_clear(MREvLog *log);

/* Called for every new entry, data: const MREvEntry *. */
void mr_evlog_add_notifier(MREvLog *log, Notifier *n);
void mr_evlog_remove_notifier(Notifier *n);

/* Names for readers and tools ("controller", "warning", "pd-state"). */
const char *mr_evlog_class_name(MREvClass cls);
const char *mr_evlog_severity_name(MREvSeverity sev);
const char *mr_evlog_code_name(uint16_t code);
/* The class an event code belongs to (its high byte). */
static inline MREvClass mr_evlog_code_class(uint16_t code)
{
    return (MREvClass)(code >> 8);
}

#endif
