/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: fault injection on the megaraid-9600 controller, for
 * driver developers.  Owns the runtime QOM properties that make the IOC
 * fail as the real firmware can: "inject-fault" (IOC FAULT with a chosen
 * fault code and fault-info words, optionally with a snapdump "diag save
 * in progress" phase of "fault-save-ms"), "inject-prepare-reset" (the
 * PREPARE FOR RESET event, then a firmware-initiated reset after
 * "prepare-reset-ms"), "drop-replies", "drop-admin-replies" and
 * "drop-tm-replies" (the next N replies to operational, admin or task
 * management requests are lost), "inject-bad-host-tag" (one completion
 * with a wrong host tag), "inject-io-status" (a device's completions fail
 * with a chosen IOCStatus and LogInfo), "fault-ioc-init" (IOC INIT
 * faults), "diag-save-ms" (the snapdump phase of a host-requested diag
 * fault with DIAG_SAVE), and the read-only "ioc-resets" counter.  Every
 * delay runs on QEMU_CLOCK_VIRTUAL.  The IOC state machine itself stays
 * in mr9600.c; this file only drives it.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_PREPARE_RESET_RC_START   0x01

/* Event data of PREPARE FOR RESET. */
typedef struct QEMU_PACKED MR9600EventPrepareReset {
    uint8_t reason_code;
    uint8_t reserved1;
    uint16_t reserved2;
} MR9600EventPrepareReset;

/* The snapdump phase is over, or the prepared reset is due. */
static void mr9600_fault_timer_cb(void *opaque)
{
    MR9600State *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (s->fault_save_until && now >= s->fault_save_until) {
        s->fault_save_until = 0;
        s->host_diag &= ~MPI3_HOST_DIAG_SAVE_IN_PROGRESS;
        trace_megaraid_9600_fault_save_done(s->fault);
    }
    if (s->fault_reset_at && now >= s->fault_reset_at) {
        s->fault_reset_at = 0;
        trace_megaraid_9600_fault_self_reset();
        mr9600_ioc_reset(s);
    }
    if (s->fault_save_until || s->fault_reset_at) {
        int64_t next = INT64_MAX;

        if (s->fault_save_until) {
            next = s->fault_save_until;
        }
        if (s->fault_reset_at) {
            next = MIN(next, s->fault_reset_at);
        }
        timer_mod_ns(s->fault_timer, next);
    }
}

static void mr9600_fault_arm(MR9600State *s, int64_t when)
{
    if (!timer_pending(s->fault_timer) ||
        timer_expire_time_ns(s->fault_timer) > when) {
        timer_mod_ns(s->fault_timer, when);
    }
}

/*
 * A reply about to be posted; true: lose it.  @function is the reply
 * frame's (0 for a success or status descriptor); @tm says the reply is
 * of an I/O a task management request terminated, which the TM's own
 * accounting waits for: those are never lost.
 */
bool mr9600_fault_drop_reply(MR9600State *s, uint16_t req_qid,
                             uint16_t host_tag, uint8_t function, bool tm)
{
    uint32_t *left;

    if (tm) {
        return false;
    }
    if (req_qid) {
        left = &s->fault_drop_replies;
    } else if (function == MPI3_FUNCTION_SCSI_TASK_MGMT) {
        left = &s->fault_drop_tm;
    } else {
        left = &s->fault_drop_admin;
    }
    if (!*left) {
        return false;
    }
    (*left)--;
    trace_megaraid_9600_fault_reply_dropped(req_qid, host_tag, function,
                                            *left);
    return true;
}

/* The host tag a SCSI IO completion carries: once, the injected one. */
uint16_t mr9600_fault_io_tag(MR9600State *s, uint16_t host_tag)
{
    uint16_t bad;

    if (s->fault_bad_tag < 0) {
        return host_tag;
    }
    bad = s->fault_bad_tag;
    s->fault_bad_tag = -1;
    trace_megaraid_9600_fault_bad_tag(host_tag, bad);
    return bad;
}

/* A SCSI IO completion of @handle; true: it fails with the injected status. */
bool mr9600_fault_io_status(MR9600State *s, uint16_t handle,
                            uint16_t *ioc_status, uint32_t *log_info)
{
    if (!s->fault_io_count || handle != s->fault_io_handle) {
        return false;
    }
    s->fault_io_count--;
    *ioc_status = s->fault_io_status;
    *log_info = s->fault_io_loginfo;
    trace_megaraid_9600_fault_io_status(handle, *ioc_status, *log_info,
                                        s->fault_io_count);
    return true;
}

/* An IOC INIT request arrived; true: the IOC faulted instead. */
bool mr9600_fault_ioc_init(MR9600State *s)
{
    if (!s->fault_ioc_init) {
        return false;
    }
    s->fault_ioc_init--;
    trace_megaraid_9600_fault_ioc_init(s->fault_ioc_init);
    mr9600_ioc_fault(s, MR9600_FAULT_IOC_INIT);
    s->fault_injected++;
    return true;
}

/*
 * Show the snapdump: SAVE IN PROGRESS for @ms, then the timer clears it
 * (the fault itself stays until the host resets the IOC).
 */
static void mr9600_fault_save_start(MR9600State *s, uint32_t ms)
{
    if (!ms) {
        return;
    }
    s->host_diag |= MPI3_HOST_DIAG_SAVE_IN_PROGRESS;
    s->fault_save_until = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                          (int64_t)ms * SCALE_MS;
    mr9600_fault_arm(s, s->fault_save_until);
}

/*
 * The host asked for a diag fault (Host Diagnostic reset action DIAG
 * FAULT) and the IOC faulted with DIAG_FAULT_RESET: with DIAG_SAVE set in
 * IOC Configuration the firmware saves its snapdump first.
 */
void mr9600_fault_diag_save(MR9600State *s)
{
    if (!(s->ioc_config & MPI3_IOC_CONFIG_DIAG_SAVE) || !s->diag_save_ms) {
        return;
    }
    trace_megaraid_9600_fault_diag_save(s->diag_save_ms);
    mr9600_fault_save_start(s, s->diag_save_ms);
}

static char *mr9600_fault_get(Object *obj, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);

    if (!(s->ioc_status & MPI3_IOC_STATUS_FAULT)) {
        return g_strdup("");
    }
    return g_strdup_printf("0x%04x:0x%08x:0x%08x:0x%08x", s->fault,
                           s->fault_info[0], s->fault_info[1],
                           s->fault_info[2]);
}

/*
 * Parse @value, "W0[:W1...]" with @min to @max words, word i at most
 * @limit[i]; false (and @errp naming @prop and @syntax) if it is not.
 */
static bool mr9600_fault_words(const char *prop, const char *syntax,
                               const char *value, guint min, guint max,
                               const uint64_t *limit, uint64_t *words,
                               Error **errp)
{
    g_auto(GStrv) parts = g_strsplit(value, ":", 0);
    guint n = g_strv_length(parts);

    if (n < min || n > max) {
        error_setg(errp, "megaraid-9600: %s '%s' is not %s", prop, value,
                   syntax);
        return false;
    }
    for (guint i = 0; i < n; i++) {
        if (qemu_strtou64(parts[i], NULL, 0, &words[i]) < 0 ||
            words[i] > limit[i]) {
            error_setg(errp, "megaraid-9600: %s '%s': word %u is not a "
                       "number of 0..0x%" PRIx64 " (%s)", prop, value, i + 1,
                       limit[i], syntax);
            return false;
        }
    }
    return true;
}

static bool mr9600_fault_at_run_time(MR9600State *s, const char *prop,
                                     Error **errp)
{
    if (!DEVICE(s)->realized) {
        error_setg(errp, "megaraid-9600: %s is set at run time "
                   "(qom-set), not at start", prop);
        return false;
    }
    return true;
}

/* "CODE[:INFO0[:INFO1[:INFO2]]]": the IOC faults now. */
static void mr9600_fault_set(Object *obj, const char *value, Error **errp)
{
    static const uint64_t limit[] = {
        0xffff, UINT32_MAX, UINT32_MAX, UINT32_MAX
    };
    MR9600State *s = MEGARAID_9600(obj);
    uint64_t words[4] = { 0 };

    if (!mr9600_fault_words("inject-fault", "CODE[:INFO0[:INFO1[:INFO2]]]",
                            value, 1, 4, limit, words, errp)) {
        return;
    }
    if (!words[0]) {
        error_setg(errp, "megaraid-9600: inject-fault: code 0 is no fault");
        return;
    }
    if (!mr9600_fault_at_run_time(s, "inject-fault", errp)) {
        return;
    }
    if (s->ioc_status & MPI3_IOC_STATUS_FAULT) {
        error_setg(errp, "megaraid-9600: the IOC is in FAULT already "
                   "(code 0x%04x)", s->fault);
        return;
    }
    trace_megaraid_9600_fault_inject(words[0], words[1], words[2], words[3]);
    mr9600_ioc_fault(s, words[0]);
    for (int i = 0; i < 3; i++) {
        s->fault_info[i] = words[i + 1];
    }
    s->fault_injected++;
    mr9600_fault_save_start(s, s->fault_save_ms);
}

static char *mr9600_bad_tag_get(Object *obj, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);

    if (s->fault_bad_tag < 0) {
        return g_strdup("");
    }
    return g_strdup_printf("0x%04x", s->fault_bad_tag);
}

/* "TAG": the next SCSI IO completion carries host tag TAG instead. */
static void mr9600_bad_tag_set(Object *obj, const char *value, Error **errp)
{
    static const uint64_t limit[] = { 0xffff };
    MR9600State *s = MEGARAID_9600(obj);
    uint64_t tag;

    if (!*value) {
        s->fault_bad_tag = -1;
        return;
    }
    if (!mr9600_fault_words("inject-bad-host-tag", "TAG (0..0xffff)", value,
                            1, 1, limit, &tag, errp) ||
        !mr9600_fault_at_run_time(s, "inject-bad-host-tag", errp)) {
        return;
    }
    s->fault_bad_tag = tag;
}

static char *mr9600_io_status_get(Object *obj, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);

    if (!s->fault_io_count) {
        return g_strdup("");
    }
    return g_strdup_printf("0x%04x:0x%04x:0x%08x:%u", s->fault_io_handle,
                           s->fault_io_status, s->fault_io_loginfo,
                           s->fault_io_count);
}

/*
 * "HANDLE:IOCSTATUS[:LOGINFO[:COUNT]]": the next COUNT (default 1) SCSI
 * IO completions of the device with that handle fail with that IOCStatus
 * and LogInfo; "" ends it.
 */
static void mr9600_io_status_set(Object *obj, const char *value,
                                 Error **errp)
{
    static const char syntax[] = "HANDLE:IOCSTATUS[:LOGINFO[:COUNT]]";
    static const uint64_t limit[] = {
        0xfffe, MPI3_IOCSTATUS_STATUS_MASK, UINT32_MAX, UINT32_MAX
    };
    MR9600State *s = MEGARAID_9600(obj);
    uint64_t words[4] = { 0, 0, 0, 1 };

    if (!*value) {
        s->fault_io_count = 0;
        return;
    }
    if (!mr9600_fault_words("inject-io-status", syntax, value, 2, 4, limit,
                            words, errp) ||
        !mr9600_fault_at_run_time(s, "inject-io-status", errp)) {
        return;
    }
    if (!words[1] || !words[3]) {
        error_setg(errp, "megaraid-9600: inject-io-status '%s': IOCSTATUS "
                   "0 (SUCCESS) and COUNT 0 inject nothing", value);
        return;
    }
    if (!mr9600_unit_by_handle(s, words[0])) {
        error_setg(errp, "megaraid-9600: inject-io-status '%s': no device "
                   "has handle 0x%04" PRIx64, value, words[0]);
        return;
    }
    s->fault_io_handle = words[0];
    s->fault_io_status = words[1];
    s->fault_io_loginfo = words[2];
    s->fault_io_count = words[3];
}

static bool mr9600_prepare_get(Object *obj, Error **errp)
{
    return MEGARAID_9600(obj)->fault_reset_at != 0;
}

static void mr9600_prepare_set(Object *obj, bool on, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    MR9600EventPrepareReset ev = {
        .reason_code = MR9600_PREPARE_RESET_RC_START,
    };

    if (!on) {
        return;
    }
    if (!DEVICE(s)->realized || !mr9600_ioc_ready(s)) {
        error_setg(errp, "megaraid-9600: inject-prepare-reset needs a "
                   "READY IOC (the driver loaded)");
        return;
    }
    if (s->fault_reset_at) {
        error_setg(errp, "megaraid-9600: a prepared reset is pending");
        return;
    }
    trace_megaraid_9600_fault_prepare_reset(s->prepare_reset_ms);
    mr9600_send_event(s, MPI3_EVENT_PREPARE_FOR_RESET, &ev, sizeof(ev));
    s->fault_reset_at = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                        (int64_t)s->prepare_reset_ms * SCALE_MS;
    mr9600_fault_arm(s, s->fault_reset_at);
}

static void mr9600_fault_uint32(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    MR9600State *s = MEGARAID_9600(obj);
    uint32_t *field = (uint32_t *)((char *)s + (uintptr_t)opaque);

    visit_type_uint32(v, name, field, errp);
}

void mr9600_fault_init(MR9600State *s)
{
    s->fault_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, mr9600_fault_timer_cb,
                                  s);
    s->fault_bad_tag = -1;
}

/*
 * A cold reset of the card ends any snapdump, prepared reset or pending
 * injection but fault-ioc-init, which may be set at start for the first
 * initialization.
 */
void mr9600_fault_reset(MR9600State *s)
{
    s->fault_save_until = 0;
    s->fault_reset_at = 0;
    s->fault_drop_replies = 0;
    s->fault_drop_admin = 0;
    s->fault_drop_tm = 0;
    s->fault_bad_tag = -1;
    s->fault_io_count = 0;
    s->ioc_resets = 0;
    if (s->fault_timer) {
        timer_del(s->fault_timer);
    }
}

void mr9600_fault_exit(MR9600State *s)
{
    if (s->fault_timer) {
        timer_free(s->fault_timer);
        s->fault_timer = NULL;
    }
}

/* The fault injection counters and times, all uint32. */
static const struct {
    const char *name;
    size_t offset;
    bool writable;
    const char *desc;
} mr9600_fault_uint32_props[] = {
    { "fault-save-ms", offsetof(MR9600State, fault_save_ms), true,
      "fault injection: an injected fault first shows a snapdump (host "
      "diagnostic SAVE IN PROGRESS) for this many ms; 0 (default) none" },
    { "prepare-reset-ms", offsetof(MR9600State, prepare_reset_ms), true,
      "fault injection: ms from PREPARE FOR RESET to the firmware's "
      "reset (default 2000)" },
    { "drop-replies", offsetof(MR9600State, fault_drop_replies), true,
      "fault injection: the next N replies to operational (SCSI IO) "
      "requests are lost; reads the number still to lose" },
    { "drop-admin-replies", offsetof(MR9600State, fault_drop_admin), true,
      "fault injection: the next N replies to admin requests (but task "
      "management) are lost; reads the number still to lose" },
    { "drop-tm-replies", offsetof(MR9600State, fault_drop_tm), true,
      "fault injection: the next N task management replies are lost (the "
      "TM itself is carried out); reads the number still to lose" },
    { "fault-ioc-init", offsetof(MR9600State, fault_ioc_init), true,
      "fault injection: the next N IOC INIT requests put the IOC into "
      "FAULT (code 0x2005) instead of a reply; kept across resets" },
    { "diag-save-ms", offsetof(MR9600State, diag_save_ms), true,
      "fault injection: a host-requested diag fault with DIAG_SAVE set "
      "shows SAVE IN PROGRESS for this many ms; 0 (default) none" },
    { "ioc-resets", offsetof(MR9600State, ioc_resets), false,
      "message unit, soft and firmware resets of the IOC, and FLRs, hot "
      "resets and D3hot -> D0 of the function, since start" },
    { "faults-injected", offsetof(MR9600State, fault_injected), false,
      "faults injected with inject-fault, fault-ioc-init since start" },
};

void mr9600_fault_class_init(ObjectClass *oc)
{
    for (size_t i = 0; i < ARRAY_SIZE(mr9600_fault_uint32_props); i++) {
        const char *name = mr9600_fault_uint32_props[i].name;

        object_class_property_add(oc, name, "uint32", mr9600_fault_uint32,
                                  mr9600_fault_uint32_props[i].writable ?
                                  mr9600_fault_uint32 : NULL, NULL,
                                  (void *)(uintptr_t)
                                  mr9600_fault_uint32_props[i].offset);
        object_class_property_set_description(oc, name,
                                      mr9600_fault_uint32_props[i].desc);
    }
    object_class_property_add_str(oc, "inject-fault", mr9600_fault_get,
                                  mr9600_fault_set);
    object_class_property_set_description(oc, "inject-fault",
        "fault injection (run time): CODE[:INFO0[:INFO1[:INFO2]]] puts the "
        "IOC into FAULT with that fault code and fault-info words until "
        "the driver resets it; reads the current fault, \"\" if none");
    object_class_property_add_bool(oc, "inject-prepare-reset",
                                   mr9600_prepare_get, mr9600_prepare_set);
    object_class_property_set_description(oc, "inject-prepare-reset",
        "fault injection (run time): on sends PREPARE FOR RESET and resets "
        "the IOC prepare-reset-ms later, as the firmware does before a "
        "self reset; reads on while that reset is pending");
    object_class_property_add_str(oc, "inject-bad-host-tag",
                                  mr9600_bad_tag_get, mr9600_bad_tag_set);
    object_class_property_set_description(oc, "inject-bad-host-tag",
        "fault injection (run time): TAG: the next SCSI IO completion "
        "carries host tag TAG instead of its own (the request itself is "
        "never completed); reads the pending tag, \"\" if none");
    object_class_property_add_str(oc, "inject-io-status",
                                  mr9600_io_status_get, mr9600_io_status_set);
    object_class_property_set_description(oc, "inject-io-status",
        "fault injection (run time): HANDLE:IOCSTATUS[:LOGINFO[:COUNT]]: "
        "the next COUNT (1) SCSI IO completions of that device handle fail "
        "with that IOCStatus and LogInfo; reads what is left, \"\" if none");
}
