/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's persistent event log (evlog.h): the ring
 * of entries in memory, its drive, and the checks that refuse a damaged
 * log.
 *
 * The drive (the event-log property: a QEMU drive, nv-drive.h) stands for
 * the card's NVRAM, so it is kept apart from the RAID drives (a log must
 * outlive every drive of the array) and from the cache journal (which is
 * emptied when the cache is clean).  Layout, little endian:
 *
 *   0      header, 512 bytes: "MRSIMEVL", u32 version (1), u32 entry
 *          size (128), u32 entries in the ring, u32 clear mark, u32
 *          shutdown mark, reserved, u32 CRC-32C of bytes 0..59 at 60
 *   512    the ring: entry n lives in slot (n - 1) % entries, 128 bytes
 *          each: u32 seq (0: empty slot), u32 CRC-32C of the other 124
 *          bytes, u64 time (ms since the epoch), u16 code, u8 class, u8
 *          severity, s32 target, u32 arg0, u32 arg1, text (96 bytes,
 *          NUL-terminated)
 *
 * A drive larger than that keeps the rest unused; a drive of zeroes is a
 * log never used, and gets a header and an empty ring.
 *
 * An entry is one 128-byte write at a 128-byte aligned offset (it never
 * straddles a sector, so a crash leaves it old or new, not torn); the
 * header is written only when a mark moves.  Writes go to the block layer
 * at once, in order, from one coroutine (the caller never waits for
 * them), and are flushed when the log is closed or mr_evlog_flush() is
 * called.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/bswap.h"
#include "qemu/coroutine.h"
#include "qemu/crc32c.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "block/aio-wait.h"
#include "system/block-backend.h"
#include "hw/megaraid/evlog.h"

static const char mr_evlog_magic[8] = "MRSIMEVL";
#define MR_EVLOG_VERSION        1
#define MR_EVLOG_HDR_SIZE       512
#define MR_EVLOG_HDR_CRC_OFF    60
#define MR_EVLOG_REC_SIZE       128
#define MR_EVLOG_REC_TEXT_OFF   32

QEMU_BUILD_BUG_ON(MR_EVLOG_REC_TEXT_OFF + MR_EV_TEXT_LEN > MR_EVLOG_REC_SIZE);

/* A write waiting for the writer coroutine (an entry or the header). */
typedef struct MREvWrite {
    uint64_t off;
    size_t len;
    const char *what;
    uint8_t buf[MR_EVLOG_HDR_SIZE];
} MREvWrite;

struct MREvLog {
    char *name;                 /* the drive's; NULL: in memory */
    BlockBackend *blk;          /* NULL: in memory (or after a write error) */
    GQueue writes;              /* MREvWrite, in the order they were made */
    bool writing;               /* the writer coroutine runs */
    uint32_t cap;
    uint32_t count;             /* entries held */
    uint32_t newest;            /* 0: empty */
    uint32_t boot_seq;
    uint32_t clear_seq;
    uint32_t shutdown_seq;
    MREvEntry *ring;            /* entry seq in ring[(seq - 1) % cap] */
    NotifierList notifiers;
};

/* ---- encoding (no I/O) ---- */

static uint32_t mr_evlog_rec_crc(const uint8_t *rec)
{
    uint32_t crc = crc32c(0xffffffff, rec, 4);

    return crc32c(~crc, rec + 8, MR_EVLOG_REC_SIZE - 8);
}

static void mr_evlog_rec_encode(const MREvEntry *e, uint8_t *rec)
{
    memset(rec, 0, MR_EVLOG_REC_SIZE);
    stl_le_p(rec, e->seq);
    stq_le_p(rec + 8, e->time_ms);
    stw_le_p(rec + 16, e->code);
    rec[18] = e->cls;
    rec[19] = e->severity;
    stl_le_p(rec + 20, (uint32_t)e->target);
    stl_le_p(rec + 24, e->arg[0]);
    stl_le_p(rec + 28, e->arg[1]);
    memcpy(rec + MR_EVLOG_REC_TEXT_OFF, e->text, MR_EV_TEXT_LEN);
    stl_le_p(rec + 4, mr_evlog_rec_crc(rec));
}

/* Decode a non-empty slot; NULL or what is wrong with it. */
static const char *mr_evlog_rec_decode(const uint8_t *rec, MREvEntry *e)
{
    if (ldl_le_p(rec + 4) != mr_evlog_rec_crc(rec)) {
        return "checksum mismatch";
    }
    memset(e, 0, sizeof(*e));
    e->seq = ldl_le_p(rec);
    e->time_ms = ldq_le_p(rec + 8);
    e->code = lduw_le_p(rec + 16);
    e->cls = rec[18];
    e->severity = rec[19];
    e->target = (int32_t)ldl_le_p(rec + 20);
    e->arg[0] = ldl_le_p(rec + 24);
    e->arg[1] = ldl_le_p(rec + 28);
    memcpy(e->text, rec + MR_EVLOG_REC_TEXT_OFF, MR_EV_TEXT_LEN);
    if (e->cls >= MR_EV_CLASS__MAX || e->cls != mr_evlog_code_class(e->code)) {
        return "unknown class";
    }
    if (e->severity >= MR_EV_SEV__MAX) {
        return "unknown severity";
    }
    if (memchr(e->text, 0, MR_EV_TEXT_LEN) == NULL) {
        return "text not terminated";
    }
    return NULL;
}

static void mr_evlog_hdr_encode(const MREvLog *log, uint8_t *hdr)
{
    memset(hdr, 0, MR_EVLOG_HDR_SIZE);
    memcpy(hdr, mr_evlog_magic, sizeof(mr_evlog_magic));
    stl_le_p(hdr + 8, MR_EVLOG_VERSION);
    stl_le_p(hdr + 12, MR_EVLOG_REC_SIZE);
    stl_le_p(hdr + 16, log->cap);
    stl_le_p(hdr + 20, log->clear_seq);
    stl_le_p(hdr + 24, log->shutdown_seq);
    stl_le_p(hdr + MR_EVLOG_HDR_CRC_OFF,
             crc32c(0xffffffff, hdr, MR_EVLOG_HDR_CRC_OFF));
}

/* Check a header and take its fields; NULL or what is wrong. */
static const char *mr_evlog_hdr_decode(MREvLog *log, const uint8_t *hdr)
{
    uint32_t cap;

    if (memcmp(hdr, mr_evlog_magic, sizeof(mr_evlog_magic))) {
        return "not a megaraid-sim event log (bad magic)";
    }
    if (ldl_le_p(hdr + MR_EVLOG_HDR_CRC_OFF) !=
        crc32c(0xffffffff, hdr, MR_EVLOG_HDR_CRC_OFF)) {
        return "header checksum mismatch";
    }
    if (ldl_le_p(hdr + 8) != MR_EVLOG_VERSION) {
        return "unsupported event log version";
    }
    if (ldl_le_p(hdr + 12) != MR_EVLOG_REC_SIZE) {
        return "unsupported entry size";
    }
    cap = ldl_le_p(hdr + 16);
    if (cap < MR_EVLOG_MIN_ENTRIES || cap > MR_EVLOG_MAX_ENTRIES) {
        return "number of entries out of range";
    }
    log->cap = cap;
    log->clear_seq = ldl_le_p(hdr + 20);
    log->shutdown_seq = ldl_le_p(hdr + 24);
    return NULL;
}

/* ---- the drive ---- */

static uint64_t mr_evlog_slot_off(const MREvLog *log, uint32_t seq)
{
    return MR_EVLOG_HDR_SIZE + (uint64_t)((seq - 1) % log->cap) *
           MR_EVLOG_REC_SIZE;
}

uint64_t mr_evlog_bytes(uint32_t entries)
{
    return MR_EVLOG_HDR_SIZE + (uint64_t)entries * MR_EVLOG_REC_SIZE;
}

/* A write failed: say so once and go on in memory. */
static void mr_evlog_write_failed(MREvLog *log, const char *what, int err)
{
    error_report("megaraid event log on drive %s: %s: %s; the log goes "
                 "on in memory only", log->name, what, strerror(err));
    log->blk = NULL;
}

/* Write what is queued, in order, until the queue is empty. */
static void coroutine_fn mr_evlog_writer_co(void *opaque)
{
    MREvLog *log = opaque;
    MREvWrite *w;

    while ((w = g_queue_pop_head(&log->writes))) {
        if (log->blk) {
            int ret = blk_co_pwrite(log->blk, w->off, w->len, w->buf, 0);

            if (ret < 0) {
                mr_evlog_write_failed(log, w->what, -ret);
            }
        }
        g_free(w);
    }
    log->writing = false;
    aio_wait_kick();
}

static void mr_evlog_pwrite(MREvLog *log, const void *buf, size_t len,
                            uint64_t off, const char *what)
{
    MREvWrite *w;

    if (!log->blk) {
        return;
    }
    assert(len <= sizeof(w->buf));
    w = g_new(MREvWrite, 1);
    w->off = off;
    w->len = len;
    w->what = what;
    memcpy(w->buf, buf, len);
    g_queue_push_tail(&log->writes, w);
    if (!log->writing) {
        log->writing = true;
        aio_co_enter(qemu_get_aio_context(),
                     qemu_coroutine_create(mr_evlog_writer_co, log));
    }
}

static void mr_evlog_write_hdr(MREvLog *log)
{
    uint8_t hdr[MR_EVLOG_HDR_SIZE];

    mr_evlog_hdr_encode(log, hdr);
    mr_evlog_pwrite(log, hdr, sizeof(hdr), 0, "writing the header");
}

void mr_evlog_flush(MREvLog *log)
{
    int ret;

    AIO_WAIT_WHILE(NULL, log->writing);
    if (log->blk) {
        ret = blk_flush(log->blk);
        if (ret < 0) {
            error_report("megaraid event log on drive %s: flush: %s",
                         log->name, strerror(-ret));
        }
    }
}

/*
 * Read the ring from the drive (@hdr: its first bytes, checked here);
 * false with @errp naming the problem.
 */
static bool mr_evlog_load(MREvLog *log, const uint8_t *hdr, int64_t size,
                          Error **errp)
{
    g_autofree uint8_t *buf = NULL;
    const char *bad;
    uint32_t slot, lo = 0;
    int ret;

    bad = mr_evlog_hdr_decode(log, hdr);
    if (bad) {
        error_setg(errp, "event-log: drive %s: %s", log->name, bad);
        return false;
    }
    if ((uint64_t)size < mr_evlog_bytes(log->cap)) {
        error_setg(errp, "event-log: drive %s has %" PRId64 " bytes, "
                   "fewer than its %u entries need (%" PRIu64 ")",
                   log->name, size, log->cap, mr_evlog_bytes(log->cap));
        return false;
    }
    buf = g_malloc((size_t)log->cap * MR_EVLOG_REC_SIZE);
    ret = blk_pread(log->blk, MR_EVLOG_HDR_SIZE,
                    (size_t)log->cap * MR_EVLOG_REC_SIZE, buf, 0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "event-log: drive %s: cannot read "
                         "its entries", log->name);
        return false;
    }
    log->ring = g_new0(MREvEntry, log->cap);
    for (slot = 0; slot < log->cap; slot++) {
        const uint8_t *rec = buf + (size_t)slot * MR_EVLOG_REC_SIZE;
        MREvEntry *e = &log->ring[slot];

        if (ldl_le_p(rec) == 0) {
            continue;
        }
        bad = mr_evlog_rec_decode(rec, e);
        if (!bad && (e->seq - 1) % log->cap != slot) {
            bad = "sequence number does not belong in this slot";
        }
        if (bad) {
            error_setg(errp, "event-log: drive %s: entry in slot %u: %s",
                       log->name, slot, bad);
            return false;
        }
        log->count++;
        log->newest = MAX(log->newest, e->seq);
        lo = lo ? MIN(lo, e->seq) : e->seq;
    }
    if (log->count && log->newest - lo + 1 != log->count) {
        error_setg(errp, "event-log: drive %s: entries %u..%u are not "
                   "contiguous (%u held)", log->name, lo, log->newest,
                   log->count);
        return false;
    }
    if (log->clear_seq > log->newest || log->shutdown_seq > log->newest) {
        error_setg(errp, "event-log: drive %s: header marks lie beyond "
                   "the newest entry %u", log->name, log->newest);
        return false;
    }
    return true;
}

/* A drive never used: a header and a ring of zeroes, written now. */
static bool mr_evlog_format(MREvLog *log, int64_t size, Error **errp)
{
    uint8_t hdr[MR_EVLOG_HDR_SIZE];
    int ret;

    if ((uint64_t)size < mr_evlog_bytes(log->cap)) {
        error_setg(errp, "event-log: drive %s has %" PRId64 " bytes; a "
                   "log of %u entries needs %" PRIu64, log->name, size,
                   log->cap, mr_evlog_bytes(log->cap));
        return false;
    }
    log->ring = g_new0(MREvEntry, log->cap);
    mr_evlog_hdr_encode(log, hdr);
    ret = blk_pwrite_zeroes(log->blk, MR_EVLOG_HDR_SIZE,
                            (int64_t)log->cap * MR_EVLOG_REC_SIZE, 0);
    if (ret >= 0) {
        ret = blk_pwrite(log->blk, 0, sizeof(hdr), hdr, 0);
    }
    if (ret >= 0) {
        ret = blk_flush(log->blk);
    }
    if (ret < 0) {
        error_setg_errno(errp, -ret, "event-log: drive %s: cannot write "
                         "an empty log", log->name);
        return false;
    }
    return true;
}

MREvLog *mr_evlog_open(BlockBackend *blk, const char *name, uint32_t entries,
                       Error **errp)
{
    ERRP_GUARD();
    MREvLog *log = g_new0(MREvLog, 1);
    uint8_t hdr[MR_EVLOG_HDR_SIZE];
    int64_t size;
    int ret;

    log->cap = entries ? entries : MR_EVLOG_DEFAULT_ENTRIES;
    notifier_list_init(&log->notifiers);
    g_queue_init(&log->writes);
    if (log->cap < MR_EVLOG_MIN_ENTRIES || log->cap > MR_EVLOG_MAX_ENTRIES) {
        error_setg(errp, "event log: %u entries is out of range (%u to %u)",
                   log->cap, MR_EVLOG_MIN_ENTRIES, MR_EVLOG_MAX_ENTRIES);
        goto fail;
    }
    if (!blk) {
        log->ring = g_new0(MREvEntry, log->cap);
        return log;
    }
    log->name = g_strdup(name);
    log->blk = blk;
    size = blk_getlength(blk);
    if (size < 0) {
        error_setg_errno(errp, -size, "event-log: drive %s: cannot get "
                         "its size", name);
        goto fail;
    }
    if (size < MR_EVLOG_HDR_SIZE) {
        error_setg(errp, "event-log: drive %s is shorter than an event "
                   "log header (%" PRId64 " bytes)", name, size);
        goto fail;
    }
    ret = blk_pread(blk, 0, sizeof(hdr), hdr, 0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "event-log: drive %s: cannot read",
                         name);
        goto fail;
    }
    if (buffer_is_zero(hdr, sizeof(hdr)) ? !mr_evlog_format(log, size, errp)
                                         : !mr_evlog_load(log, hdr, size,
                                                          errp)) {
        goto fail;
    }
    return log;

fail:
    log->blk = NULL;
    mr_evlog_close(log);
    return NULL;
}

void mr_evlog_close(MREvLog *log)
{
    if (!log) {
        return;
    }
    mr_evlog_flush(log);
    g_free(log->ring);
    g_free(log->name);
    g_free(log);
}

/* ---- entries ---- */

uint32_t mr_evlog_addv(MREvLog *log, MREvCode code, MREvSeverity sev,
                       int target, uint32_t arg0, uint32_t arg1,
                       const char *fmt, va_list ap)
{
    uint8_t rec[MR_EVLOG_REC_SIZE];
    MREvEntry *e;
    uint32_t seq = log->newest + 1;

    if (seq == 0) {
        /* 2^32 - 1 entries: start again rather than reuse 0 ("none") */
        seq = 1;
        log->count = 0;
        log->clear_seq = log->shutdown_seq = log->boot_seq = 0;
    }
    e = &log->ring[(seq - 1) % log->cap];
    memset(e, 0, sizeof(*e));
    e->seq = seq;
    e->time_ms = qemu_clock_get_ms(QEMU_CLOCK_HOST);
    e->code = code;
    e->cls = mr_evlog_code_class(code);
    e->severity = sev;
    e->target = target;
    e->arg[0] = arg0;
    e->arg[1] = arg1;
    g_vsnprintf(e->text, sizeof(e->text), fmt, ap);

    log->newest = seq;
    if (log->count < log->cap) {
        log->count++;
    }
    if (!log->boot_seq) {
        log->boot_seq = seq;
    }
    mr_evlog_rec_encode(e, rec);
    mr_evlog_pwrite(log, rec, sizeof(rec), mr_evlog_slot_off(log, seq),
                    "writing an entry");
    if (code == MR_EV_CTRL_SHUTDOWN) {
        log->shutdown_seq = seq;
        mr_evlog_write_hdr(log);
    }
    notifier_list_notify(&log->notifiers, e);
    return seq;
}

uint32_t mr_evlog_add(MREvLog *log, MREvCode code, MREvSeverity sev,
                      int target, uint32_t arg0, uint32_t arg1,
                      const char *fmt, ...)
{
    va_list ap;
    uint32_t seq;

    va_start(ap, fmt);
    seq = mr_evlog_addv(log, code, sev, target, arg0, arg1, fmt, ap);
    va_end(ap);
    return seq;
}

uint32_t mr_evlog_oldest(const MREvLog *log)
{
    return log->count ? log->newest - log->count + 1 : 0;
}

uint32_t mr_evlog_newest(const MREvLog *log)
{
    return log->count ? log->newest : 0;
}

bool mr_evlog_get(const MREvLog *log, uint32_t seq, MREvEntry *out)
{
    if (!log->count || seq < mr_evlog_oldest(log) || seq > log->newest) {
        return false;
    }
    *out = log->ring[(seq - 1) % log->cap];
    return true;
}

uint32_t mr_evlog_count(const MREvLog *log)
{
    return log->count;
}

uint32_t mr_evlog_capacity(const MREvLog *log)
{
    return log->cap;
}

uint32_t mr_evlog_boot_seq(const MREvLog *log)
{
    return log->boot_seq;
}

uint32_t mr_evlog_clear_seq(const MREvLog *log)
{
    return log->clear_seq;
}

uint32_t mr_evlog_shutdown_seq(const MREvLog *log)
{
    return log->shutdown_seq;
}

void mr_evlog_mark_clear(MREvLog *log)
{
    uint32_t mark = log->newest;

    log->clear_seq = mark;
    mr_evlog_write_hdr(log);
    mr_evlog_add(log, MR_EV_CTRL_LOG_CLEARED, MR_EV_SEV_INFO, -1, mark, 0,
                 "Event log cleared up to sequence %u", mark);
}

void mr_evlog_add_notifier(MREvLog *log, Notifier *n)
{
    notifier_list_add(&log->notifiers, n);
}

void mr_evlog_remove_notifier(Notifier *n)
{
    notifier_remove(n);
}

/* ---- names ---- */

const char *mr_evlog_class_name(MREvClass cls)
{
    static const char *const names[MR_EV_CLASS__MAX] = {
        [MR_EV_CLASS_CONTROLLER] = "controller",
        [MR_EV_CLASS_DRIVE] = "drive",
        [MR_EV_CLASS_VD] = "vd",
        [MR_EV_CLASS_JOB] = "job",
        [MR_EV_CLASS_CACHEVAULT] = "cachevault",
        [MR_EV_CLASS_CONFIG] = "config",
    };

    return (unsigned)cls < MR_EV_CLASS__MAX ? names[cls] : "unknown";
}

const char *mr_evlog_severity_name(MREvSeverity sev)
{
    static const char *const names[MR_EV_SEV__MAX] = {
        [MR_EV_SEV_INFO] = "info",
        [MR_EV_SEV_WARNING] = "warning",
        [MR_EV_SEV_CRITICAL] = "critical",
        [MR_EV_SEV_FATAL] = "fatal",
    };

    return (unsigned)sev < MR_EV_SEV__MAX ? names[sev] : "unknown";
}

const char *mr_evlog_code_name(uint16_t code)
{
    switch ((MREvCode)code) {
    case MR_EV_CTRL_STARTED:
        return "ctrl-started";
    case MR_EV_CTRL_RESET:
        return "ctrl-reset";
    case MR_EV_CTRL_SHUTDOWN:
        return "ctrl-shutdown";
    case MR_EV_CTRL_LOG_CLEARED:
        return "log-cleared";
    case MR_EV_PD_INSERTED:
        return "pd-inserted";
    case MR_EV_PD_REMOVED:
        return "pd-removed";
    case MR_EV_PD_STATE:
        return "pd-state";
    case MR_EV_PD_FAILED:
        return "pd-failed";
    case MR_EV_PD_SPARE:
        return "pd-spare";
    case MR_EV_PD_LOCATE:
        return "pd-locate";
    case MR_EV_PD_MEDIUM_REPAIRED:
        return "pd-medium-repaired";
    case MR_EV_PD_MEDIUM_ERROR:
        return "pd-medium-error";
    case MR_EV_CTRL_PATROL_STARTED:
        return "patrol-started";
    case MR_EV_CTRL_PATROL_PROGRESS:
        return "patrol-progress";
    case MR_EV_CTRL_PATROL_DONE:
        return "patrol-done";
    case MR_EV_CTRL_PATROL_STOPPED:
        return "patrol-stopped";
    case MR_EV_VD_STATE:
        return "vd-state";
    case MR_EV_VD_CREATED:
        return "vd-created";
    case MR_EV_VD_DELETED:
        return "vd-deleted";
    case MR_EV_JOB_STARTED:
        return "job-started";
    case MR_EV_JOB_PROGRESS:
        return "job-progress";
    case MR_EV_JOB_DONE:
        return "job-done";
    case MR_EV_JOB_ABORTED:
        return "job-aborted";
    case MR_EV_CV_STATE:
        return "cachevault-state";
    case MR_EV_CFG_FOREIGN_FOUND:
        return "foreign-found";
    case MR_EV_CFG_FOREIGN_IMPORTED:
        return "foreign-imported";
    case MR_EV_CFG_FOREIGN_CLEARED:
        return "foreign-cleared";
    case MR_EV_CFG_CHANGED:
        return "config-changed";
    }
    return "unknown";
}
