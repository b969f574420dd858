/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the timing model as the host's management sees it.  Owns
 * the controller's run-time properties time-scale (a decimal string,
 * strictly parsed: qdev has no float type), timing-late,
 * timing-completions, timing-held and timing-profile; per VD the job
 * statistics (vdN-job-rate-bps, -rows-per-s, -eta-ms, -busy-pct,
 * -elapsed-ms, -model-ms, -model-row, vdN-last-job-ms,
 * vdN-last-job-model-ms) and the
 * modelled unloaded 4 KiB latencies (vdN-timing-read-ns, -write-ns); and
 * megaraid-drive's performance profile (perf-profile, modelled-capacity,
 * checked at realize) with its latencies (timing-read-ns, -write-ns).
 * Latencies are in guest-visible (scaled) nanoseconds.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object.h"
#include "array-timing.h"
#include "trace.h"

static MRArray *mr_obj_array(Object *obj, void *opaque)
{
    return *(MRArray **)((char *)obj + (ptrdiff_t)opaque);
}

/* ---- controller ---- */

/* "0.01" .. "1000": digits with an optional fraction, nothing else. */
static bool mr_parse_scale(Object *obj, const char *s, double *out,
                           Error **errp)
{
    const char *p = s;
    double v;

    while (g_ascii_isdigit(*p)) {
        p++;
    }
    if (p > s && *p == '.' && g_ascii_isdigit(p[1])) {
        for (p++; g_ascii_isdigit(*p); p++) {
            /* the fraction */
        }
    }
    if (p == s || *p) {
        goto bad;
    }
    v = g_ascii_strtod(s, NULL);
    if (v >= MR_TIME_SCALE_MIN && v <= MR_TIME_SCALE_MAX) {
        *out = v;
        return true;
    }
bad:
    error_setg(errp, "%s: time-scale '%s' is not a decimal number "
               "from 0.01 to 1000 (e.g. \"100\": the card 100 times slower, "
               "\"0.05\": 20 times faster)", object_get_typename(obj), s);
    return false;
}

static void mr_get_scale(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);
    g_autofree char *s = g_strdup_printf("%g", a->time_scale);

    visit_type_str(v, name, &s, errp);
}

static void mr_set_scale(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    MRArray *a = mr_obj_array(obj, opaque);
    MRTiming *t = a->timing;
    g_autofree char *s = NULL;
    double scale;

    if (!visit_type_str(v, name, &s, errp) ||
        !mr_parse_scale(obj, s, &scale, errp)) {
        return;
    }
    trace_megaraid_timing_scale((uint64_t)(a->time_scale * 1000),
                                (uint64_t)(scale * 1000));
    a->time_scale = scale;
    if (t) {
        /* modelled time goes on from where it is */
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        t->epoch_model = mr_timing_model_of(t, now);
        t->epoch_virt = now;
        t->scale = scale;
    }
}

typedef enum MRTimingCounter {
    MR_TC_LATE,
    MR_TC_COMPLETIONS,
    MR_TC_HELD,
} MRTimingCounter;

static void mr_get_counter(Object *obj, Visitor *v, const char *name,
                           MRTimingCounter which, void *opaque, Error **errp)
{
    MRTiming *t = mr_obj_array(obj, opaque)->timing;
    uint64_t val = 0;

    if (t) {
        val = which == MR_TC_LATE ? t->late :
              which == MR_TC_COMPLETIONS ? t->completions : t->held;
    }
    visit_type_uint64(v, name, &val, errp);
}

static void mr_get_late(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    mr_get_counter(obj, v, name, MR_TC_LATE, opaque, errp);
}

static void mr_get_completions(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    mr_get_counter(obj, v, name, MR_TC_COMPLETIONS, opaque, errp);
}

static void mr_get_held(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    mr_get_counter(obj, v, name, MR_TC_HELD, opaque, errp);
}

static void mr_get_profile(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    MRTiming *t = mr_obj_array(obj, opaque)->timing;
    char *s = (char *)(t ? t->ctrl->name : "");

    visit_type_str(v, name, &s, errp);
}

void mr_timing_class_props(ObjectClass *oc, ptrdiff_t array_offset)
{
    object_class_property_add(oc, "time-scale", "str", mr_get_scale,
                              mr_set_scale, NULL, (void *)array_offset);
    object_class_property_set_description(oc, "time-scale",
        "timing=on: every modelled time is multiplied by this, a decimal "
        "from 0.01 to 1000 given as a string (default \"1\"); above 1 the "
        "card is slower (a TCG guest sees its ratios), below 1 faster (a "
        "60-minute rebuild in a minute); may change at run time");
    object_class_property_add(oc, "timing-late", "uint64", mr_get_late,
                              NULL, NULL, (void *)array_offset);
    object_class_property_set_description(oc, "timing-late",
        "timing=on: completions whose emulated work ended after their "
        "modelled (scaled) time, so the host delivered them late "
        "(read-only)");
    object_class_property_add(oc, "timing-completions", "uint64",
                              mr_get_completions, NULL, NULL,
                              (void *)array_offset);
    object_class_property_set_description(oc, "timing-completions",
        "timing=on: read, write, flush and unmap completions costed by the "
        "model (read-only)");
    object_class_property_add(oc, "timing-held", "uint64", mr_get_held,
                              NULL, NULL, (void *)array_offset);
    object_class_property_set_description(oc, "timing-held",
        "timing=on: completions held for their modelled time now "
        "(read-only)");
    object_class_property_add(oc, "timing-profile", "str", mr_get_profile,
                              NULL, NULL, (void *)array_offset);
    object_class_property_set_description(oc, "timing-profile",
        "the controller's timing profile (from model=), empty with "
        "timing=off (read-only)");
}

/* ---- per VD ---- */

typedef enum MRVdStat {
    MR_VS_RATE_BPS,
    MR_VS_ROWS_PER_S,
    MR_VS_ETA_MS,
    MR_VS_BUSY_PCT,
    MR_VS_ELAPSED_MS,
    MR_VS_MODEL_MS,
    MR_VS_MODEL_ROW,
    MR_VS_LAST_MS,
    MR_VS_LAST_MODEL_MS,
    MR_VS_READ_NS,
    MR_VS_WRITE_NS,
    MR_VS_COUNT,
} MRVdStat;

static const struct {
    const char *suffix;
    const char *desc;
} mr_vd_stats[MR_VS_COUNT] = {
    [MR_VS_RATE_BPS] = { "job-rate-bps",
        "bytes/s of each member extent the VD's job goes through (timing=on: "
        "modelled bytes per guest second), 0: not measured yet" },
    [MR_VS_ROWS_PER_S] = { "job-rows-per-s", "rows/s of the VD's job" },
    [MR_VS_ETA_MS] = { "job-eta-ms", "ms the VD's job still needs, -1: "
        "not known" },
    [MR_VS_BUSY_PCT] = { "job-busy-pct", "share of the job's run spent "
        "working (the rest rests for the rebuild rate or, with timing=on, "
        "waits for the modelled time), percent" },
    [MR_VS_ELAPSED_MS] = { "job-elapsed-ms", "ms the VD's job has run in "
        "this run (timing=on: guest time), -1: no job" },
    [MR_VS_MODEL_MS] = { "job-model-ms", "timing=on: ms the model gives "
        "the VD's job from start to end with no host load, time-scale "
        "applied; -1: no job or timing=off" },
    [MR_VS_MODEL_ROW] = { "job-model-row", "timing=on: the row the "
        "modelled progress has reached; the real copy (vdN-job-row) follows "
        "up to it; -1: no job or timing=off" },
    [MR_VS_LAST_MS] = { "last-job-ms", "ms the VD's last finished job "
        "took (timing=on: guest time), -1: none yet" },
    [MR_VS_LAST_MODEL_MS] = { "last-job-model-ms", "what job-model-ms was "
        "for the last finished job, -1: none or timing=off" },
    [MR_VS_READ_NS] = { "timing-read-ns", "timing=on: modelled latency of "
        "one unloaded 4 KiB random read of the VD, time-scale applied; 0: "
        "timing=off" },
    [MR_VS_WRITE_NS] = { "timing-write-ns", "timing=on: modelled latency "
        "of one unloaded 4 KiB random write of the VD (its write policy), "
        "time-scale applied; 0: timing=off" },
};

static int64_t mr_scaled_ns(MRTiming *t, uint64_t model_ns)
{
    return t ? (int64_t)((double)model_ns * t->scale) : 0;
}

static int64_t mr_vd_stat(MRVirtualDisk *vd, MRVdStat which)
{
    MRTiming *t = vd->array->timing;
    MRJobStats js;

    switch (which) {
    case MR_VS_LAST_MS:
        return vd->job_last_ms;
    case MR_VS_LAST_MODEL_MS:
        return vd->job_last_model_ms;
    case MR_VS_READ_NS:
    case MR_VS_WRITE_NS:
        return t ? mr_scaled_ns(t, mr_timing_unloaded_ns(t, NULL, vd,
                                    which == MR_VS_READ_NS ?
                                    TIMING_OP_READ : TIMING_OP_WRITE)) : 0;
    default:
        break;
    }
    vd->array->hooks->timing.job_stats(vd, &js);
    switch (which) {
    case MR_VS_RATE_BPS:
        return js.bytes_per_s;
    case MR_VS_ROWS_PER_S:
        return js.rows_per_s;
    case MR_VS_ETA_MS:
        return js.eta_ms;
    case MR_VS_BUSY_PCT:
        return js.busy_percent;
    case MR_VS_ELAPSED_MS:
        return js.kind == RAID_JOB_NONE ? -1 : js.elapsed_ms;
    case MR_VS_MODEL_ROW:
        return js.kind == RAID_JOB_NONE || !js.timed ? -1 : js.model_row;
    default:
        return js.kind == RAID_JOB_NONE || !js.timed ? -1 : js.model_ms;
    }
}

static void mr_vd_get_stat(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    MRVirtualDisk *vd = opaque;
    const char *dash = strchr(name, '-');
    int64_t val = 0;

    for (int i = 0; dash && i < MR_VS_COUNT; i++) {
        if (!strcmp(dash + 1, mr_vd_stats[i].suffix)) {
            val = mr_vd_stat(vd, i);
            break;
        }
    }
    visit_type_int(v, name, &val, errp);
}

void mr_timing_vd_props(MRVirtualDisk *vd)
{
    Object *obj = vd->array->owner;

    if (!obj) {
        return;
    }
    for (int i = 0; i < MR_VS_COUNT; i++) {
        g_autofree char *name = g_strdup_printf("vd%d-%s", vd->idx,
                                                mr_vd_stats[i].suffix);

        if (object_property_find(obj, name)) {
            continue;
        }
        object_property_add(obj, name, "int", mr_vd_get_stat, NULL, NULL,
                            vd);
        object_property_set_description(obj, name, mr_vd_stats[i].desc);
    }
}

/* ---- megaraid-drive ---- */

static TimingIface mr_timing_iface(MRDriveInterface iface)
{
    return iface == MR_IF_SAS ? TIMING_IFACE_SAS :
           iface == MR_IF_SATA ? TIMING_IFACE_SATA : TIMING_IFACE_NVME;
}

/* A hard disk's default: the first rotational profile. */
static const TimingDriveProfile *mr_timing_hdd_profile(void)
{
    const TimingDriveProfile *p;

    for (unsigned i = 0; (p = timing_drive_profile_at(i)); i++) {
        if (p->rotational) {
            return p;
        }
    }
    return NULL;
}

bool mr_drive_perf_realize(MRDrive *d, Error **errp)
{
    const TimingDriveProfile *p = NULL;

    if (d->perf_str) {
        p = timing_drive_profile_find(d->perf_str);
        if (!p) {
            g_autofree char *names = timing_drive_profile_names();

            error_setg(errp, "megaraid-drive: perf-profile '%s' is unknown; "
                       "allowed: %s", d->perf_str, names);
            return false;
        }
    } else if (d->unit.media == MR_MEDIA_HDD) {
        p = mr_timing_hdd_profile();
    }
    if (!p) {
        p = timing_drive_profile_default(mr_timing_iface(d->unit.iface));
    }
    d->perf = p;
    d->timing_idx = -1;
    d->unit.timing_next_lba = 0;
    return true;
}

static MRTiming *mr_drive_timing(MRDrive *d)
{
    BusState *b = qdev_get_parent_bus(DEVICE(d));
    MRBus *bus = b ? MEGARAID_BUS(b) : NULL;

    return bus && bus->array ? bus->array->timing : NULL;
}

static void mr_drive_get_lat(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    MRTiming *t = mr_drive_timing(d);
    int64_t val = 0;

    if (t) {
        val = mr_scaled_ns(t, mr_timing_unloaded_ns(t, d, NULL,
                               strstr(name, "read") ? TIMING_OP_READ :
                                                      TIMING_OP_WRITE));
    }
    visit_type_int(v, name, &val, errp);
}

static void mr_drive_get_perf(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    char *s = (char *)(d->perf ? d->perf->name : "");

    visit_type_str(v, name, &s, errp);
}

void mr_drive_timing_class_init(ObjectClass *oc)
{
    object_class_property_add(oc, "timing-read-ns", "int", mr_drive_get_lat,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "timing-read-ns",
        "timing=on: modelled latency of one unloaded 4 KiB random read of "
        "the drive as JBOD, the controller's time-scale applied; 0: "
        "timing=off (read-only)");
    object_class_property_add(oc, "timing-write-ns", "int",
                              mr_drive_get_lat, NULL, NULL, NULL);
    object_class_property_set_description(oc, "timing-write-ns",
        "timing=on: as timing-read-ns for a 4 KiB random write");
    object_class_property_add(oc, "timing-perf", "str", mr_drive_get_perf,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "timing-perf",
        "the performance profile in use (perf-profile or its default) "
        "(read-only)");
}
