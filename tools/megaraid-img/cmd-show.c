/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img show: the configuration on a set of drive images, for
 * people or (--json) for scripts and tests.
 */
#include "img.h"

#include <stdio.h>
#include <string.h>

static char *guid_str(const uint8_t *g)
{
    GString *s = g_string_new(NULL);

    for (int i = 0; i < RAID_GUID_LEN; i++) {
        g_string_append_printf(s, "%02x", g[i]);
    }
    return g_string_free(s, false);
}

/* Printable form of a GUID that starts with text (vendor + serial). */
static char *guid_text(const uint8_t *g)
{
    char *s = g_strndup((const char *)g, RAID_GUID_LEN);

    for (int i = 0; i < RAID_GUID_LEN; i++) {
        if (!g_ascii_isprint(s[i])) {
            s[i] = '.';
        }
    }
    return s;
}

static void json_str(GString *o, const char *s)
{
    g_string_append_c(o, '"');
    for (; s && *s; s++) {
        unsigned char c = *s;
        if (c == '"' || c == '\\') {
            g_string_append_printf(o, "\\%c", c);
        } else if (c < 0x20 || c >= 0x7f) {
            g_string_append_printf(o, "\\u%04x", c);
        } else {
            g_string_append_c(o, c);
        }
    }
    g_string_append_c(o, '"');
}

static const char *copy_name(int used)
{
    return used == DDF_HDR_PRIMARY ? "primary" : "secondary";
}

static void show_json(Img *img)
{
    RaidConfig *cfg = img->cfg;
    GString *o = g_string_new("{");
    g_autofree char *cg = guid_text(cfg->ctrl_guid);
    g_autofree char *hg = guid_str(cfg->header_guid);
    bool first = true;

    g_string_append(o, "\"controller\":");
    json_str(o, cg);
    g_string_append(o, ",\"header_guid\":");
    json_str(o, hg);
    g_string_append_printf(o, ",\"sequence\":%u,\"foreign\":%s",
                           cfg->seq, cfg->foreign ? "true" : "false");
    g_string_append(o, ",\"drives\":[");
    for (int i = 0; i < cfg->npds; i++) {
        const RaidPd *p = &cfg->pds[i];
        g_autofree char *g = guid_str(p->guid);

        g_string_append_printf(o, "%s{\"index\":%d,\"slot\":%d,\"file\":",
                               i ? "," : "", i, p->slot);
        json_str(o, p->path);
        g_string_append(o, ",\"state\":");
        json_str(o, raid_pd_state_name(p->state));
        if (p->state == RAID_PD_FOREIGN) {
            g_string_append(o, ",\"foreign_state\":");
            json_str(o, raid_pd_state_name(p->foreign_state));
        }
        g_string_append_printf(o, ",\"ref\":\"%08x\",\"guid\":\"%s\","
                               "\"sectors\":%" G_GUINT64_FORMAT
                               ",\"usable\":%" G_GUINT64_FORMAT
                               ",\"present\":%s,\"spare_dg\":%d",
                               p->ref, g, p->sectors, p->usable,
                               p->present ? "true" : "false", p->spare_dg);
        for (int k = 0; k < img->n; k++) {
            if (p->path && !strcmp(p->path, img->paths[k]) &&
                img->reads[k].meta) {
                g_string_append_printf(o, ",\"copy\":\"%s\","
                                       "\"primary_ok\":%s,"
                                       "\"secondary_ok\":%s",
                                       copy_name(img->reads[k].used),
                                       img->reads[k].primary_ok ? "true" :
                                       "false",
                                       img->reads[k].secondary_ok ? "true" :
                                       "false");
            }
        }
        g_string_append_c(o, '}');
    }
    g_string_append(o, "],\"unconfigured_images\":[");
    for (int k = 0; k < img->n; k++) {
        if (img->reads[k].error) {
            g_string_append(o, first ? "{\"file\":" : ",{\"file\":");
            json_str(o, img->paths[k]);
            g_string_append(o, ",\"error\":");
            json_str(o, img->reads[k].error);
            g_string_append_c(o, '}');
            first = false;
        }
    }
    g_string_append(o, "],\"vds\":[");
    first = true;
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];
        int pds[RAID_MAX_MEMBERS], n;
        g_autofree char *g = NULL;

        if (!vd->used) {
            continue;
        }
        g = guid_str(vd->guid);
        n = raid_vd_members(cfg, v, pds, RAID_MAX_MEMBERS);
        g_string_append_printf(o, "%s{\"index\":%d,\"name\":", first ? "" :
                               ",", v);
        first = false;
        json_str(o, vd->name);
        g_string_append(o, ",\"level\":");
        json_str(o, raid_level_name(vd->level));
        g_string_append(o, ",\"state\":");
        json_str(o, raid_vd_state_name(vd->state));
        g_string_append_printf(o, ",\"guid\":\"%s\",\"strip_kib\":%u,"
                               "\"sectors\":%" G_GUINT64_FORMAT
                               ",\"start\":%" G_GUINT64_FORMAT
                               ",\"blocks\":%" G_GUINT64_FORMAT
                               ",\"drive_group\":%d,\"spans\":%d,"
                               "\"cache\":%u,\"initialized\":%s,"
                               "\"consistent\":%s,\"members\":[",
                               g, vd->strip / 2, vd->size, vd->start,
                               vd->blocks, vd->dg, raid_vd_nspans(cfg, v),
                               vd->cache, vd->initialized ? "true" : "false",
                               vd->consistent ? "true" : "false");
        for (int i = 0; i < n; i++) {
            g_string_append_printf(o, "%s%d", i ? "," : "", pds[i]);
        }
        g_string_append(o, "],\"job\":{\"kind\":");
        json_str(o, raid_job_name(vd->job.kind));
        g_string_append_printf(o, ",\"next_row\":%" G_GUINT64_FORMAT
                               ",\"total_rows\":%" G_GUINT64_FORMAT
                               ",\"mismatches\":%" G_GUINT64_FORMAT
                               ",\"percent\":%u}}",
                               vd->job.next_row, vd->job.total_rows,
                               vd->job.mismatches,
                               raid_job_percent(&vd->job));
    }
    g_string_append(o, "]}\n");
    fputs(o->str, stdout);
    g_string_free(o, true);
}

static void show_human(Img *img)
{
    RaidConfig *cfg = img->cfg;
    g_autofree char *cg = guid_text(cfg->ctrl_guid);

    printf("Controller: %s (%04x:%04x %04x:%04x, %s)%s\n", cg,
           cfg->ctrl_type[0], cfg->ctrl_type[1], cfg->ctrl_type[2],
           cfg->ctrl_type[3], cfg->product,
           cfg->foreign ? "  FOREIGN: import before use" : "");
    printf("DDF sequence: %u\n\nDrives:\n", cfg->seq);
    printf("  %-3s %-4s %-19s %-10s %-12s %s\n", "#", "slot", "state", "ref",
           "usable MiB", "file");
    for (int i = 0; i < cfg->npds; i++) {
        const RaidPd *p = &cfg->pds[i];
        g_autofree char *st = NULL;

        st = p->state == RAID_PD_FOREIGN ?
             g_strdup_printf("foreign(%s)",
                             raid_pd_state_name(p->foreign_state)) :
             p->state == RAID_PD_HOT_SPARE && p->spare_dg >= 0 ?
             g_strdup_printf("hot-spare(dg%d)", p->spare_dg) :
             g_strdup(raid_pd_state_name(p->state));
        printf("  %-3d %-4d %-19s %08x   %-12" G_GUINT64_FORMAT " %s\n", i,
               p->slot, st, p->ref, p->usable / 2048,
               p->path ? p->path : "(not present)");
    }
    for (int k = 0; k < img->n; k++) {
        const DdfDriveRead *r = &img->reads[k];
        if (r->error) {
            printf("  -   %-4d %-19s %-10s %-12s %s\n", k, "no-ddf", "-", "-",
                   r->error);
        } else if (r->meta && (!r->primary_ok || !r->secondary_ok)) {
            printf("  note: %s uses its %s copy; %s\n", img->paths[k],
                   copy_name(r->used),
                   r->primary_ok ? r->secondary_err : r->primary_err);
        }
    }
    printf("\nVirtual disks:\n");
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        const RaidVd *vd = &cfg->vds[v];
        int pds[RAID_MAX_MEMBERS], n;

        if (!vd->used) {
            continue;
        }
        n = raid_vd_members(cfg, v, pds, RAID_MAX_MEMBERS);
        printf("  VD %d '%s': %s, %s, %d span(s) x %d drives, strip %u KiB, "
               "%" G_GUINT64_FORMAT " MiB%s%s\n", v, vd->name,
               raid_level_name(vd->level), raid_vd_state_name(vd->state),
               raid_vd_nspans(cfg, v), raid_vd_span_width(cfg, v),
               vd->strip / 2, vd->size / 2048,
               vd->initialized ? "" : ", not initialized",
               vd->consistent ? "" : ", inconsistent");
        printf("    members:");
        for (int i = 0; i < n; i++) {
            printf(" %d(%s)", pds[i],
                   raid_pd_state_name(cfg->pds[pds[i]].state));
        }
        printf("\n");
        if (vd->job.kind != RAID_JOB_NONE) {
            printf("    %s: %u%% (row %" G_GUINT64_FORMAT " of %"
                   G_GUINT64_FORMAT ")\n", raid_job_name(vd->job.kind),
                   raid_job_percent(&vd->job), vd->job.next_row,
                   vd->job.total_rows);
        }
    }
}

int cmd_show(int argc, char **argv)
{
    gboolean json = false;
    GOptionEntry entries[] = {
        { "json", 0, 0, G_OPTION_ARG_NONE, &json, "print JSON", NULL },
        { NULL }
    };
    GError *err = NULL;
    Img img;

    if (!img_parse("show", "DRIVE-IMAGE...",
                   "Show the DDF configuration found on the drive images "
                   "(foreign configurations included).", entries, &argc,
                   &argv)) {
        return 2;
    }
    if (!img_open(&img, "show", argv + 1, argc - 1, false, true, &err)) {
        img_error("show", err);
        return 1;
    }
    if (json) {
        show_json(&img);
    } else {
        show_human(&img);
    }
    img_close(&img);
    return 0;
}
