/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: what the array says at start about every VD that is not
 * optimal, and why (its members missing, failed, rebuilding), on stderr
 * (warn_report) and in the event log (so also as MEGARAID_EVENT), naming
 * the drives the configuration expects and does not find; and the entry
 * of the first write that makes a VD's missing members stale.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "array.h"
#include "evlog-array.h"
#include "trace.h"

/* A drive GUID for people: printable bytes as they are, others in hex. */
static void mr_report_guid(GString *s, const uint8_t *guid)
{
    g_string_append_c(s, '"');
    for (int i = 0; i < RAID_GUID_LEN; i++) {
        if (guid[i] >= 0x20 && guid[i] < 0x7f && guid[i] != '"' &&
            guid[i] != '\\') {
            g_string_append_c(s, guid[i]);
        } else {
            g_string_append_printf(s, "\\x%02x", guid[i]);
        }
    }
    g_string_append_c(s, '"');
}

/*
 * Why VD @v is not optimal: @brief for the event log ("member 2 missing,
 * member 3 failed"), @full for stderr (with the missing drives' GUIDs and
 * sizes).  False if every member is online; *@resuming true if the
 * only members not online are being rebuilt (the rebuild resumes).
 */
static bool mr_report_why(MRArray *a, int v, GString *brief, GString *full,
                          bool *resuming)
{
    const RaidConfig *cfg = a->cfg;
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(cfg, v, pds, RAID_MAX_MEMBERS);
    bool any = false;

    *resuming = true;
    for (int m = 0; m < n && m < RAID_MAX_MEMBERS; m++) {
        const RaidPd *p = &cfg->pds[pds[m]];
        const char *what;

        if (p->state == RAID_PD_ONLINE && a->pd_drive[pds[m]]) {
            continue;
        }
        switch (p->state) {
        case RAID_PD_MISSING:
            what = p->in_sync ? "missing" : "missing (stale)";
            break;
        case RAID_PD_REBUILD:
            what = "rebuilding";
            break;
        case RAID_PD_OFFLINE:
            what = p->returned ? "back with stale data" : "failed";
            break;
        default:
            what = raid_pd_state_name(p->state);
            break;
        }
        if (p->state != RAID_PD_REBUILD || !a->pd_drive[pds[m]]) {
            *resuming = false;
        }
        g_string_append_printf(brief, "%smember %d", any ? ", " : "", m);
        g_string_append_printf(full, "%smember %d", any ? "; " : "", m);
        if (a->pd_drive[pds[m]]) {
            g_string_append_printf(brief, " (slot %u)",
                                   a->pd_drive[pds[m]]->slot);
            g_string_append_printf(full, " in slot %u",
                                   a->pd_drive[pds[m]]->slot);
        }
        g_string_append_printf(brief, " %s", what);
        g_string_append_printf(full, " %s", what);
        if (!a->pd_drive[pds[m]]) {
            g_string_append(full, ": no drive in any bay has DDF GUID ");
            mr_report_guid(full, p->guid);
            g_string_append_printf(full, " (PD reference %08x, %" PRIu64
                                   " MiB)", p->ref,
                                   p->sectors * RAID_SECTOR_SIZE / MiB);
        }
        any = true;
    }
    return any;
}

void mr_array_report_start(MRArray *a)
{
    const RaidConfig *cfg = a->cfg;

    if (!cfg || cfg->foreign) {
        return;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];
        g_autoptr(GString) brief = g_string_new(NULL);
        g_autoptr(GString) full = g_string_new(NULL);
        bool missing_in_sync = raid_config_count_in_sync(cfg, vd->dg) > 0;
        bool resuming;

        if (!vd->used || !mr_report_why(a, v, brief, full, &resuming)) {
            continue;
        }
        if (resuming) {
            /* a rebuild that goes on where it stopped: the event log's */
            trace_megaraid_array_start_resuming(v, full->str);
        } else {
            warn_report("megaraid: VD %d '%s' (%s) is %s at start: %s", v,
                        vd->name, raid_level_name(vd->level),
                        raid_vd_state_name(vd->state), full->str);
        }
        if (missing_in_sync) {
            error_printf("The missing members still hold the VD's data and "
                         "keep their place (no hot spare takes it): give "
                         "their drives and start again to have the VD back "
                         "as it was.  The first write to the VD makes them "
                         "stale (rebuilt when back).\n");
        }
        if (a->evlog) {
            MREvSeverity sev = vd->state == RAID_VD_OFFLINE ?
                               MR_EV_SEV_CRITICAL : MR_EV_SEV_WARNING;

            mr_evlog_add(a->evlog, MR_EV_VD_STATE, sev, v, vd->state,
                         vd->state, "VD %d %s at start: %s", v,
                         raid_vd_state_name(vd->state), brief->str);
        }
    }
}

void mr_ev_vd_stale(MRArray *a, int v)
{
    if (a->evlog) {
        mr_evlog_add(a->evlog, MR_EV_VD_STATE, MR_EV_SEV_WARNING, v,
                     a->cfg->vds[v].state, a->cfg->vds[v].state,
                     "VD %d written while degraded: missing members stale",
                     v);
    }
}
