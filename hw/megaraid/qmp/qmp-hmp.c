/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: HMP "info megaraid", query-megaraid printed as tables:
 * per controller its cache, then its virtual disks (with their jobs),
 * drive groups and drives.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-megaraid.h"
#include "qemu/cutils.h"
#include "qobject/qdict.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"

static char *mr_hmp_slots(intList *l)
{
    GString *s = g_string_new(NULL);

    for (; l; l = l->next) {
        if (l->value < 0) {
            g_string_append_printf(s, "%s?", s->len ? "," : "");
        } else {
            g_string_append_printf(s, "%s%" PRId64, s->len ? "," : "",
                                   l->value);
        }
    }
    return g_string_free(s, false);
}

static char *mr_hmp_size(uint64_t bytes)
{
    return bytes ? size_to_str(bytes) : g_strdup("0");
}

static void mr_hmp_vds(Monitor *mon, MegaraidVdInfoList *l)
{
    monitor_printf(mon, "  %-3s %-16s %-7s %10s %8s %-18s %-13s %-4s %s\n",
                   "VD", "name", "level", "size", "strip", "state",
                   "write-policy", "DG", "members");
    for (; l; l = l->next) {
        MegaraidVdInfo *v = l->value;
        g_autofree char *size = mr_hmp_size(v->size);
        g_autofree char *strip = mr_hmp_size(v->strip);
        g_autofree char *slots = mr_hmp_slots(v->members);

        monitor_printf(mon, "  %-3" PRId64 " %-16s %-7s %10s %8s %-18s "
                       "%-13s %-4" PRId64 " %s\n", v->index,
                       *v->name ? v->name : "-", v->level, size, strip,
                       v->state, v->write_policy, v->drive_group, slots);
        if (v->job) {
            MegaraidJobInfo *j = v->job;

            monitor_printf(mon, "      job %s%s: %" PRId64 " %% (%" PRIu64
                           "/%" PRIu64 " rows)%s", j->kind,
                           j->repair ? " (repair)" : "", j->progress,
                           j->rows_done, j->rows_total,
                           j->running ? "" : " waiting");
            if (j->has_eta_ms) {
                monitor_printf(mon, ", eta %" PRId64 " ms", j->eta_ms);
            }
            monitor_printf(mon, ", rate %" PRId64 " %%\n", j->rate);
        }
    }
}

static void mr_hmp_dgs(Monitor *mon, MegaraidDriveGroupInfoList *l)
{
    for (; l; l = l->next) {
        MegaraidDriveGroupInfo *g = l->value;
        g_autofree char *vds = mr_hmp_slots(g->vds);
        g_autofree char *free_b = mr_hmp_size(g->free_bytes);
        int n = 0;

        monitor_printf(mon, "  DG %" PRId64 ": VDs %s, free %s per drive",
                       g->index, vds, free_b);
        for (MegaraidSpanList *s = g->spans; s; s = s->next) {
            g_autofree char *slots = mr_hmp_slots(s->value->slots);

            monitor_printf(mon, ", span %d slots %s", n++, slots);
        }
        monitor_printf(mon, "\n");
    }
}

static void mr_hmp_drives(Monitor *mon, MegaraidDriveInfoList *l)
{
    monitor_printf(mon, "  %-4s %-5s %-4s %-18s %10s %-4s %-6s %-20s %s\n",
                   "slot", "if", "med", "state", "size", "DG", "VDs",
                   "serial", "model");
    for (; l; l = l->next) {
        MegaraidDriveInfo *d = l->value;
        g_autofree char *size = mr_hmp_size(d->size);
        g_autofree char *vds = mr_hmp_slots(d->vds);
        g_autofree char *dg = d->has_drive_group ?
            g_strdup_printf("%" PRId64, d->drive_group) : g_strdup("-");
        g_autofree char *state = d->has_rebuild_progress ?
            g_strdup_printf("%s %" PRId64 "%%", d->state,
                            d->rebuild_progress) :
            d->has_spare_for && d->spare_for >= 0 ?
            g_strdup_printf("%s (DG %" PRId64 ")", d->state, d->spare_for) :
            g_strdup(d->state);

        monitor_printf(mon, "  %-4" PRId64 " %-5s %-4s %-18s %10s %-4s "
                       "%-6s %-20s %s\n", d->slot,
                       d->present ? d->interface : "-",
                       d->present ? d->media : "-", state, size, dg,
                       *vds ? vds : "-", d->serial ? d->serial : "-",
                       d->model ? d->model : "(not present)");
    }
}

void hmp_info_megaraid(Monitor *mon, const QDict *qdict)
{
    Error *err = NULL;
    g_autoptr(MegaraidInfoList) list = qmp_query_megaraid(&err);

    if (hmp_handle_error(mon, err)) {
        return;
    }
    if (!list) {
        monitor_printf(mon, "No MegaRAID controller\n");
        return;
    }
    for (MegaraidInfoList *l = list; l; l = l->next) {
        MegaraidInfo *c = l->value;
        g_autofree char *cache = size_to_str(c->cache_size);
        g_autofree char *dirty = mr_hmp_size(c->cache_dirty);

        monitor_printf(mon, "%s (%s): %s, serial %s%s%s\n",
                       c->id ? c->id : "-", c->qom_path, c->model, c->serial,
                       c->firmware ? ", firmware " : "",
                       c->firmware ? c->firmware : "");
        monitor_printf(mon, "  cache %s, dirty %s, flush interval %" PRId64
                       " s, CacheVault %s, journal %s, rebuild rate %"
                       PRId64 " %%%s\n", cache, dirty,
                       c->cache_flush_interval, c->cachevault,
                       c->journal ? c->journal : "none", c->rebuild_rate,
                       c->foreign ? ", foreign configuration present" : "");
        if (c->patrol) {
            monitor_printf(mon, "  patrol read %s, %s, rate %" PRId64
                           " %%, %" PRId64 " %% of pass, %" PRId64
                           " passes, %" PRId64 " corrected, %" PRId64
                           " uncorrectable\n", c->patrol->mode,
                           c->patrol->running ? "running" : "stopped",
                           c->patrol->rate, c->patrol->percent,
                           c->patrol->iterations, c->patrol->corrected,
                           c->patrol->uncorrectable);
        }
        if (c->vds) {
            mr_hmp_vds(mon, c->vds);
        }
        mr_hmp_dgs(mon, c->drive_groups);
        mr_hmp_drives(mon, c->drives);
    }
}
