/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img re-add / online: the host-side way back for a member that
 * the configuration marks missing or offline although its image is there
 * (a drive left off one QEMU command line, a pulled drive put back).
 * re-add rebuilds a member whose metadata is behind its VDs and puts a
 * current one online with a consistency check pending; online forces a
 * member online as it is, like the card's "set online force".
 */
#include "img.h"

#include <stdio.h>
#include <string.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/*
 * The sequence number of VD @v's configuration record on drive @pd's own
 * metadata, or -1 when its metadata has no record of the VD.
 */
static int64_t drive_vd_seq(Img *img, int pd, int v)
{
    const RaidPd *p = &img->cfg->pds[pd];
    const DdfMeta *m;
    int64_t seq = -1;

    if (p->slot < 0 || p->slot >= img->n || !img->reads[p->slot].meta) {
        return -1;
    }
    m = img->reads[p->slot].meta;
    for (guint i = 0; m->conf && i < m->conf->len; i++) {
        const DdfVdConf *c = &g_array_index(m->conf, DdfVdConf, i);

        if (!memcmp(c->guid, img->cfg->vds[v].guid, RAID_GUID_LEN)) {
            seq = MAX(seq, (int64_t)c->seq);
        }
    }
    return seq;
}

/* Does VD @v have drive @pd among its members? */
static bool vd_has_member(Img *img, int v, int pd)
{
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(img->cfg, v, pds, RAID_MAX_MEMBERS);

    for (int i = 0; i < n; i++) {
        if (pds[i] == pd) {
            return true;
        }
    }
    return false;
}

typedef struct Assess {
    int nvds;
    bool behind;            /* some VD changed since the drive left */
    bool no_redundancy;     /* some VD cannot rebuild it (offline) */
    bool other_rebuild;     /* some VD already rebuilds another drive */
    GString *why;           /* per-VD explanation for messages */
} Assess;

static bool assess(Img *img, int pd, Assess *a, GError **errp)
{
    RaidPd *p = &img->cfg->pds[pd];

    memset(a, 0, sizeof(*a));
    a->why = g_string_new("");
    if (p->state != RAID_PD_MISSING && p->state != RAID_PD_OFFLINE) {
        ERR(errp, "drive in slot %d is %s; only a missing or offline member "
            "can be brought back", p->slot, raid_pd_state_name(p->state));
        return false;
    }
    if (!p->present || !p->path) {
        ERR(errp, "drive %d (reference %08x) is not among the images given; "
            "list its image in its slot", pd, p->ref);
        return false;
    }
    if (p->returned) {
        /* the other members wrote while it was away (DDF: not in sync) */
        a->behind = true;
        g_string_append(a->why, "; the other members took writes while it "
                        "was away");
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &img->cfg->vds[v];
        int64_t seq;

        if (!vd->used || !vd_has_member(img, v, pd)) {
            continue;
        }
        a->nvds++;
        seq = drive_vd_seq(img, pd, v);
        if (seq < 0 || seq < (int64_t)vd->seq) {
            a->behind = true;
            if (seq < 0) {
                g_string_append_printf(a->why, "; VD %d: the drive's metadata "
                                       "has no record of it", v);
            } else {
                g_string_append_printf(a->why, "; VD %d: the drive's metadata "
                                       "is at sequence %" G_GINT64_FORMAT
                                       ", the VD's at %u", v, seq, vd->seq);
            }
        }
        if (vd->state == RAID_VD_OFFLINE) {
            a->no_redundancy = true;
            g_string_append_printf(a->why, "; VD %d is offline without it "
                                   "(no redundancy left to rebuild from)", v);
        }
        if (vd->job.kind == RAID_JOB_REBUILD && vd->job.target_ref != p->ref) {
            a->other_rebuild = true;
        }
    }
    if (!a->nvds) {
        ERR(errp, "drive in slot %d is not a member of any VD", p->slot);
        return false;
    }
    return true;
}

/* Missing/offline -> online, and a consistency check pending on its VDs. */
static bool put_online(Img *img, int pd, GError **errp)
{
    RaidPd *p = &img->cfg->pds[pd];

    if (p->state == RAID_PD_MISSING &&
        !raid_config_set_pd_state(img->cfg, pd, RAID_PD_OFFLINE, errp)) {
        return false;
    }
    if (!raid_config_set_pd_state(img->cfg, pd, RAID_PD_ONLINE, errp)) {
        return false;
    }
    raid_config_update_states(img->cfg);
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &img->cfg->vds[v];

        if (!vd->used || !vd_has_member(img, v, pd)) {
            continue;
        }
        vd->seq++;
        if (vd->job.kind != RAID_JOB_NONE) {
            printf("VD %d: keeps its pending %s; run 'megaraid-img check' "
                   "after it\n", v, raid_job_name(vd->job.kind));
        } else if (vd->state == RAID_VD_OPTIMAL) {
            memset(&vd->job, 0, sizeof(vd->job));
            vd->job.kind = RAID_JOB_CHECK;
            vd->job.total_rows = raid_vd_rows(img->cfg, v);
            printf("VD %d: %s, consistency check pending (run "
                   "'megaraid-img check')\n", v,
                   raid_vd_state_name(vd->state));
        } else {
            printf("VD %d: %s; run 'megaraid-img check' once it is "
                   "optimal\n", v, raid_vd_state_name(vd->state));
        }
    }
    return true;
}

/* Missing/offline -> rebuild, with a rebuild cursor on its VDs. */
static bool put_rebuild(Img *img, int pd, GError **errp)
{
    RaidPd *p = &img->cfg->pds[pd];

    if (!raid_config_set_pd_state(img->cfg, pd, RAID_PD_REBUILD, errp)) {
        return false;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        RaidVd *vd = &img->cfg->vds[v];

        if (!vd->used || !vd_has_member(img, v, pd)) {
            continue;
        }
        memset(&vd->job, 0, sizeof(vd->job));
        vd->job.kind = RAID_JOB_REBUILD;
        vd->job.target_ref = p->ref;
        vd->job.total_rows = raid_vd_rows(img->cfg, v);
        vd->seq++;
    }
    raid_config_update_states(img->cfg);
    return true;
}

static int recover_cmd(const char *cmd, bool force_online, int argc,
                       char **argv)
{
    g_autofree char *drive = NULL;
    gboolean force = false, rebuild = false;
    GOptionEntry entries[] = {
        { "drive", 'd', 0, G_OPTION_ARG_FILENAME, &drive,
          "the member's image (one of DRIVE-IMAGE...)", "IMAGE" },
        { "force", 'f', 0, G_OPTION_ARG_NONE, &force,
          force_online ?
          "put it online although its data may be stale" :
          "put it online although its VDs cannot rebuild it", NULL },
        { NULL }, { NULL }
    };
    GError *err = NULL;
    Img img;
    Assess a = { 0 };
    int pd, rc = 1;

    if (!force_online) {
        entries[2] = (GOptionEntry) {
            "rebuild", 0, 0, G_OPTION_ARG_NONE, &rebuild,
            "rebuild it even if its metadata is current", NULL };
    }
    if (!img_parse(cmd, "DRIVE-IMAGE...", force_online ?
                   "Force a missing or offline member online as it is (the "
                   "card's 'set online force'); its VDs get a consistency "
                   "check.  Refused, unless --force, when its metadata is "
                   "behind its VDs or a rebuild could bring it back "
                   "instead." :
                   "Re-add a missing or offline member whose image is back: "
                   "a member whose metadata is behind its VDs is rebuilt, a "
                   "current one goes online with a consistency check "
                   "pending.", entries, &argc, &argv)) {
        return 2;
    }
    if (!drive) {
        fprintf(stderr, "megaraid-img %s: --drive is required\n", cmd);
        return 2;
    }
    if (!img_open(&img, cmd, argv + 1, argc - 1, true, false, &err)) {
        img_error(cmd, err);
        return 1;
    }
    pd = img_pd_of_path(&img, drive, &err);
    if (pd < 0 || !assess(&img, pd, &a, &err)) {
        goto out;
    }
    if (!force_online && (a.behind || rebuild)) {
        if (a.no_redundancy) {
            ERR(&err, "%s cannot be rebuilt%s; 'megaraid-img online -f -d "
                "%s' puts it online as it is", drive, a.why->str, drive);
            goto out;
        }
        if (a.other_rebuild) {
            ERR(&err, "%s: its drive group already rebuilds another drive; "
                "run 'megaraid-img rebuild' first", drive);
            goto out;
        }
        if (!put_rebuild(&img, pd, &err) || !img_save(&img, &err)) {
            goto out;
        }
        printf("%s: rebuild pending (%s); run 'megaraid-img rebuild'\n",
               drive, a.behind ? "its metadata is behind its VDs" :
               "--rebuild");
        rc = 0;
        goto out;
    }
    if (a.behind && !force) {
        ERR(&err, "%s is stale%s: writes made while it was away are not on "
            "it%s", drive, a.why->str, a.no_redundancy ?
            "; use --force to put it online as it is" :
            "; 'megaraid-img re-add' rebuilds it (or use --force)");
        goto out;
    }
    if (force_online && !a.behind && !a.no_redundancy && !force) {
        ERR(&err, "%s can be brought back safely: 'megaraid-img re-add -d %s' "
            "(or use --force)", drive, drive);
        goto out;
    }
    if (!put_online(&img, pd, &err) || !img_save(&img, &err)) {
        goto out;
    }
    fprintf(stderr, "megaraid-img %s: warning: %s is online as it is%s; "
            "any write its VDs took while it was %s is not on it, and "
            "reads of those blocks from it return the old data until the "
            "consistency check (with --repair: parity follows the data) "
            "or a restore\n", cmd, drive,
            a.behind ? " although its metadata is behind" : "",
            "away");
    printf("%s: online\n", drive);
    rc = 0;
out:
    if (err) {
        img_error(cmd, err);
    }
    if (a.why) {
        g_string_free(a.why, true);
    }
    img_close(&img);
    return rc;
}

int cmd_readd(int argc, char **argv)
{
    return recover_cmd("re-add", false, argc, argv);
}

int cmd_online(int argc, char **argv)
{
    return recover_cmd("online", true, argc, argv);
}
