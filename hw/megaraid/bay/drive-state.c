/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the host (like a BMC) sees and changes of a drive
 * while the machine runs: its RAID state ("state", writable to fail a
 * drive or make it a hot spare), its rebuild progress, and injected media
 * errors ("media-error": reads of a range fail until it is rewritten, as
 * a drive reallocates a sector on write).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "hw/megaraid/drive.h"
#include "qemu/error-report.h"
#include "hw/megaraid/array/array.h"
#include "hw/megaraid/mgmt/array-config.h"
#include "trace.h"

static MRArray *mr_drive_array(MRDrive *d)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(d));

    return bus ? MEGARAID_BUS(bus)->array : NULL;
}

static char *mr_drive_get_media_error(Object *obj, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    GString *s = g_string_new("");

    for (uint32_t i = 0; i < d->n_media_errors; i++) {
        g_string_append_printf(s, "%s%" PRIu64 "+%" PRIu64, i ? "," : "",
                               d->media_errors[i].lba,
                               d->media_errors[i].count);
    }
    return g_string_free(s, false);
}

/* "LBA+COUNT" adds a bad range, "" clears them all. */
static void mr_drive_set_media_error(Object *obj, const char *value,
                                     Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    const char *plus = strchr(value, '+');
    uint64_t lba, count;

    if (!*value) {
        d->n_media_errors = 0;
        return;
    }
    if (!plus) {
        error_setg(errp, "megaraid-drive: media-error '%s' is not LBA+COUNT "
                   "(or \"\" to clear)", value);
        return;
    }
    {
        g_autofree char *head = g_strndup(value, plus - value);

        if (qemu_strtou64(head, NULL, 0, &lba) < 0 ||
            qemu_strtou64(plus + 1, NULL, 0, &count) < 0 || !count) {
            error_setg(errp, "megaraid-drive: media-error '%s' is not "
                       "LBA+COUNT with numbers and COUNT > 0", value);
            return;
        }
    }
    if (DEVICE(d)->realized &&
        (lba >= d->unit.num_blocks || count > d->unit.num_blocks - lba)) {
        error_setg(errp, "megaraid-drive: media-error %" PRIu64 "+%" PRIu64
                   " is beyond the drive's %" PRIu64 " blocks", lba, count,
                   d->unit.num_blocks);
        return;
    }
    if (d->n_media_errors == MR_MAX_MEDIA_ERRORS) {
        error_setg(errp, "megaraid-drive: at most %d media-error ranges",
                   MR_MAX_MEDIA_ERRORS);
        return;
    }
    d->media_errors[d->n_media_errors++] = (MRMediaError) { lba, count };
    trace_megaraid_drive_media_error_set(d->slot, lba, count);
}

static char *mr_drive_get_state(Object *obj, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    MRArray *a = mr_drive_array(d);

    return g_strdup(a && a->cfg ? mr_array_drive_state(a, d)
                                : "unconfigured-good");
}

/* A hot spare stops being one; an unconfigured-bad drive is good again. */
static void mr_drive_set_unconf_good(MRArray *a, MRDrive *d, Error **errp)
{
    ERRP_GUARD();
    int pd = mr_array_pd_of(a, d);

    if (pd >= 0 && a->cfg->pds[pd].state == RAID_PD_HOT_SPARE) {
        mr_array_set_spare(a, d, -1, false, errp);
        return;
    }
    if (pd >= 0 && (a->cfg->pds[pd].state == RAID_PD_UNCONF_BAD ||
                    a->cfg->pds[pd].state == RAID_PD_UNCONF_GOOD)) {
        if (!mr_array_set_drive_state(a, d, RAID_PD_UNCONF_GOOD, false,
                                      NULL, errp)) {
            error_prepend(errp, "megaraid-drive: ");
        }
        return;
    }
    error_setg(errp, "megaraid-drive: the drive in slot %u is %s, not a hot "
               "spare or an unconfigured-bad drive: only those can be set "
               "unconfigured-good", d->slot, mr_array_drive_state(a, d));
}

/*
 * A failed member taken back online as it is: only with force, since
 * what was written to its VDs while it was out is not on it.
 */
static void mr_drive_set_online(MRArray *a, MRDrive *d, bool force,
                                Error **errp)
{
    ERRP_GUARD();
    int pd = mr_array_pd_of(a, d);
    RaidPdState s = pd >= 0 ? a->cfg->pds[pd].state : RAID_PD_UNCONF_GOOD;

    if (s == RAID_PD_ONLINE) {
        return;
    }
    if (s != RAID_PD_OFFLINE || raid_config_pd_dg(a->cfg, pd) < 0) {
        error_setg(errp, "megaraid-drive: the drive in slot %u is %s, not a "
                   "failed (offline) array member: only those can be set "
                   "online", d->slot, mr_array_drive_state(a, d));
        return;
    }
    if (!force) {
        error_setg(errp, "megaraid-drive: the drive in slot %u is an offline "
                   "member: what was written to its VDs since it failed is "
                   "not on it, so taken back as it is it may return stale "
                   "data; 'online-force' does it anyway (then run a "
                   "consistency check), or let it rebuild", d->slot);
        return;
    }
    if (mr_array_set_drive_state(a, d, RAID_PD_ONLINE, true, NULL, errp)) {
        warn_report("megaraid: the drive in slot %u forced online by the "
                    "host: its data may be stale", d->slot);
    } else {
        error_prepend(errp, "megaraid-drive: ");
    }
}

static void mr_drive_set_state(Object *obj, const char *value, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    MRArray *a = mr_drive_array(d);

    if (!a || !a->cfg) {
        error_setg(errp, "megaraid-drive: state can be set once the drive "
                   "is in a controller that has started");
        return;
    }
    if (!strcmp(value, "offline") || !strcmp(value, "failed")) {
        int pd = mr_array_pd_of(a, d);

        if (pd < 0 || (a->cfg->pds[pd].state != RAID_PD_ONLINE &&
                       a->cfg->pds[pd].state != RAID_PD_REBUILD)) {
            error_setg(errp, "megaraid-drive: the drive in slot %u is %s, "
                       "not an online or rebuilding array member", d->slot,
                       mr_array_drive_state(a, d));
            return;
        }
        mr_array_fail_drive(a, d, "set offline by the host");
    } else if (!strcmp(value, "hot-spare")) {
        mr_array_set_spare(a, d, -1, true, errp);
    } else if (!strcmp(value, "unconfigured-good")) {
        mr_drive_set_unconf_good(a, d, errp);
    } else if (!strcmp(value, "online") || !strcmp(value, "online-force")) {
        mr_drive_set_online(a, d, !strcmp(value, "online-force"), errp);
    } else {
        error_setg(errp, "megaraid-drive: state '%s' cannot be set (offline, "
                   "hot-spare, unconfigured-good, online-force)", value);
    }
}

static void mr_drive_get_rebuild_progress(Object *obj, Visitor *v,
                                          const char *name, void *opaque,
                                          Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    MRArray *a = mr_drive_array(d);
    int64_t pct = -1;
    int pd = a && a->cfg ? mr_array_pd_of(a, d) : -1;

    if (pd >= 0 && a->cfg->pds[pd].state == RAID_PD_REBUILD) {
        uint32_t ref = a->cfg->pds[pd].ref;
        uint64_t done = 0, total = 0;

        for (int i = 0; i < RAID_MAX_VDS; i++) {
            const RaidVd *vd = &a->cfg->vds[i];

            if (vd->used && vd->job.kind == RAID_JOB_REBUILD &&
                vd->job.target_ref == ref) {
                done += vd->job.next_row;
                total += vd->job.total_rows;
            }
        }
        pct = total ? done * 100 / total : 0;
    }
    visit_type_int(v, name, &pct, errp);
}

void mr_drive_state_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "state", mr_drive_get_state,
                                  mr_drive_set_state);
    object_class_property_set_description(oc, "state",
        "RAID state (unconfigured-good, online, offline, rebuild, hot-spare, "
        "foreign, unconfigured-bad, missing; pending while a hot-plugged "
        "drive's metadata is read); set offline to fail a member, "
        "hot-spare or unconfigured-good to add or remove a global spare "
        "(unconfigured-good also takes back an unconfigured-bad drive), "
        "online-force to take a failed member back as it is");
    object_class_property_add(oc, "rebuild-progress", "int",
                              mr_drive_get_rebuild_progress, NULL, NULL,
                              NULL);
    object_class_property_set_description(oc, "rebuild-progress",
        "percent of the rebuild onto this drive done, -1 when not rebuilding");
    object_class_property_add_str(oc, "media-error", mr_drive_get_media_error,
                                  mr_drive_set_media_error);
    object_class_property_set_description(oc, "media-error",
        "LBA+COUNT: reads of these blocks fail until they are written; "
        "\"\" clears");
}
