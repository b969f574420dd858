/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: storcli's copyback and VD cache policy commands over the
 * management protocol:
 *   /cx/ex/sx|eall/sall show copyback   progress of a copyback from or
 *                                        onto the drive (Drive-ID,
 *                                        Progress%, Status, Estimated
 *                                        Time Left, as show rebuild)
 *   /cx/ex/sx start copyback target=E:S  copy member sx onto drive E:S
 *   /cx/ex/sx stop|pause|resume copyback
 *       (JOB_CONTROL, job MGMT_JOB_COPYBACK: docs/management-protocol.md)
 *   /cx/vx set wrcache=wb|wt|awb rdcache=ra|nora name=NAME (VD_SET_PROPS)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "storcli.h"
#include "out.h"

static const char *const cb_cols[] = {
    "Drive-ID", "Progress%", "Status", "Estimated Time Left", NULL,
};

/*
 * The copyback from or onto the drive in @slot: the job status of the
 * first VD being copied.  0: found; 1: none; -1: the protocol failed.
 */
static int cb_status(Mrcli *m, uint32_t slot, MgmtJobStatus *js)
{
    MgmtVdEntry *v;
    uint32_t n, total;
    int found = 1;

    v = mgmt_list(m, MGMT_OP_VD_LIST, 0, 0, sizeof(*v), &n, &total);
    if (!v) {
        return -1;
    }
    for (uint32_t i = 0; i < n && found == 1; i++) {
        if (v[i].job != MGMT_JOB_COPYBACK) {
            continue;
        }
        if (mgmt_call(m, MGMT_OP_JOB_STATUS, v[i].vd, 0, 0, 0, NULL, 0, js,
                      sizeof(*js), NULL, NULL) < 0) {
            found = -1;
        } else if (js->job == MGMT_JOB_COPYBACK &&
                   (js->target_slot == slot || js->source_slot == slot)) {
            found = 0;
        }
    }
    free(v);
    return found;
}

static void cb_row(Mrcli *m, MrSection *t, uint32_t slot,
                   const MgmtJobStatus *js)
{
    row_new(t);
    row_str(t, "/c%d/e%d/s%u", m->obj.ctrl, mrcli_eid(m), slot);
    if (!js) {
        row_progress(t, NULL, 0, 0);
        return;
    }
    row_progress(t, job_status_name(js), js->percent, js->eta_s);
}

static void cb_show(Mrcli *m)
{
    MgmtPdEntry *p;
    MgmtJobStatus js;
    MrSection *t;
    uint32_t n, total;

    if (!args_all_used(m)) {
        return;
    }
    p = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*p), &n, &total);
    if (!p) {
        return;
    }
    t = out_table(m->out, "Drive Information", cb_cols);
    for (uint32_t i = 0; i < n; i++) {
        int rc;

        if (!m->obj.all && p[i].slot != m->obj.index) {
            continue;
        }
        rc = cb_status(m, p[i].slot, &js);
        if (rc < 0) {
            break;
        }
        cb_row(m, t, p[i].slot, rc == 0 ? &js : NULL);
    }
    free(p);
    out_set_desc(m->out, "Show Drive Copyback Status Succeeded.");
}

/* A decimal number at *@p up to @max; advances *@p.  False: none. */
static bool cb_dec(const char **p, long max, long *v)
{
    const char *s = *p;

    *v = 0;
    if (*s < '0' || *s > '9') {
        return false;
    }
    while (*s >= '0' && *s <= '9') {
        *v = *v * 10 + (*s++ - '0');
        if (*v > max) {
            return false;
        }
    }
    *p = s;
    return true;
}

long storcli_drive_ref(Mrcli *m, const char *key, const char *arg)
{
    const char *s = arg;
    long e, slot;

    if (!cb_dec(&s, 65535, &e) || *s++ != ':' ||
        !cb_dec(&s, 0xfffe, &slot) || *s) {
        usage_error(m, "%s=%s: expected enclosure:slot, e.g. %s=%d:4", key,
                    arg, key, mrcli_eid(m));
        return -1;
    }
    if (e != 0 && e != MRCLI_BAYS_EID) {
        usage_error(m, "%s=%s: enclosure %ld does not exist (the drive "
                    "bays are enclosure %d, also called 0)", key, arg, e,
                    MRCLI_BAYS_EID);
        return -1;
    }
    return slot;
}

static void cb_action(Mrcli *m, int action)
{
    static const char *const names[] = {
        "", "Start", "Stop", "Pause", "Resume",
    };
    MgmtJobStatus js = { 0 };   /* a stop replies no data */
    const char *tgt = NULL;
    long dst = 0;
    char desc[64];
    MrSection *t;

    if (m->obj.all) {
        usage_error(m, "copyback needs one drive, e.g. /c%d/e%d/s3",
                    m->obj.ctrl, mrcli_eid(m));
        return;
    }
    if (action == MGMT_JOB_START) {
        tgt = arg_kv(m, "target");
        if (!tgt) {
            usage_error(m, "start copyback: give the drive to copy onto, "
                        "e.g. target=%d:4", mrcli_eid(m));
            return;
        }
        dst = storcli_drive_ref(m, "target", tgt);
        if (dst < 0) {
            return;
        }
    }
    if (!args_all_used(m)) {
        return;
    }
    if (mgmt_call(m, MGMT_OP_JOB_CONTROL, m->obj.index, MGMT_JOB_COPYBACK,
                  action, (uint32_t)dst, NULL, 0, &js, sizeof(js), NULL,
                  NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        return;
    }
    snprintf(desc, sizeof(desc), "%s Drive Copyback Succeeded.",
             names[action]);
    out_set_desc(m->out, desc);
    t = out_table(m->out, "Drive Information", cb_cols);
    cb_row(m, t, action == MGMT_JOB_START ? (uint32_t)dst : m->obj.index,
           js.job == MGMT_JOB_COPYBACK ? &js : NULL);
}

bool storcli_copyback(Mrcli *m)
{
    static const char *const verbs[] = {
        "", "start", "stop", "pause", "resume",
    };

    if (m->obj.kind != OBJ_PD || !arg_is(m, 1, "copyback")) {
        return false;
    }
    if (arg_is(m, 0, "show")) {
        arg_use(m, 2);
        cb_show(m);
        return true;
    }
    for (int a = MGMT_JOB_START; a <= MGMT_JOB_RESUME; a++) {
        if (arg_is(m, 0, verbs[a])) {
            arg_use(m, 2);
            cb_action(m, a);
            return true;
        }
    }
    return false;
}

/* ---- /cx/vx set wrcache=wb|wt|awb rdcache=ra|nora name=NAME ---- */

/* The VD's DDF cache byte with the asked changes (-1: a usage error). */
static int vd_cache_byte(Mrcli *m, uint8_t cur, const char *wr,
                         const char *rd)
{
    bool wb = cur & MGMT_CACHE_WRITE_BACK, awb = cur & MGMT_CACHE_ALWAYS_WB;
    bool ra = cur & MGMT_CACHE_READ_AHEAD;

    if (wr && !strcasecmp(wr, "wb")) {
        wb = true;
        awb = false;
    } else if (wr && !strcasecmp(wr, "wt")) {
        wb = awb = false;
    } else if (wr && !strcasecmp(wr, "awb")) {
        wb = awb = true;
    } else if (wr) {
        usage_error(m, "set wrcache=%s: expected wb, wt or awb", wr);
        return -1;
    }
    if (rd && !strcasecmp(rd, "ra")) {
        ra = true;
    } else if (rd && !strcasecmp(rd, "nora")) {
        ra = false;
    } else if (rd) {
        usage_error(m, "set rdcache=%s: expected ra or nora", rd);
        return -1;
    }
    /* DDF: write back 0x01, read ahead 0x04, without CacheVault 0x10 */
    return (wb ? 0x01 : 0) | (ra ? 0x04 : 0) | (awb ? 0x10 : 0) | 0x20 | 0x40;
}

/* StorCLI's VD names: up to 15 printable characters, no blanks. */
static bool vd_name_ok(Mrcli *m, const char *name)
{
    size_t n = strlen(name);

    if (n == 0 || n >= MGMT_VD_NAME_LEN) {
        usage_error(m, "set name=%s: a name has 1 to %d characters", name,
                    MGMT_VD_NAME_LEN - 1);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (name[i] <= ' ' || name[i] > '~') {
            usage_error(m, "set name=%s: printable characters only, no "
                        "blanks", name);
            return false;
        }
    }
    return true;
}

static void vd_set_row(Mrcli *m, MrSection *t, const char *prop,
                       const char *value)
{
    row_new(t);
    row_num(t, m->obj.index);
    row_str(t, "%s", prop);
    row_str(t, "%s", value);
    row_str(t, "Success");
    row_num(t, 0);
    row_str(t, "-");
}

bool storcli_vd_set(Mrcli *m)
{
    static const char *const cols[] = {
        "VD", "Property", "Value", "Status", "ErrCd", "ErrMsg", NULL,
    };
    const char *wr, *rd, *name;
    uint32_t mask = 0;
    MgmtVdInfo vi;
    MgmtVdProps p;
    MgmtVdEntry e;
    MrSection *t;
    int byte;

    if (m->obj.kind != OBJ_VD || !arg_is(m, 0, "set")) {
        return false;
    }
    arg_use(m, 1);
    wr = arg_kv(m, "wrcache");
    rd = arg_kv(m, "rdcache");
    name = arg_kv(m, "name");
    if (!wr && !rd && !name) {
        usage_error(m, "set on a virtual drive: give wrcache=wb|wt|awb, "
                    "rdcache=ra|nora and/or name=NAME");
        return true;
    }
    if (m->obj.all) {
        usage_error(m, "set needs one virtual drive, e.g. /c%d/v0",
                    m->obj.ctrl);
        return true;
    }
    /* (the words are checked first) */
    if (!args_all_used(m) || vd_cache_byte(m, 0, wr, rd) < 0 ||
        (name && !vd_name_ok(m, name))) {
        return true;
    }
    if (mgmt_call(m, MGMT_OP_VD_INFO, m->obj.index, 0, 0, 0, NULL, 0, &vi,
                  sizeof(vi), NULL, NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        return true;
    }
    memset(&p, 0, sizeof(p));
    if (wr || rd) {
        byte = vd_cache_byte(m, vi.e.cache, wr, rd);
        if (byte < 0) {
            return true;
        }
        p.cache_policy = byte;
        mask |= MGMT_VDPROP_CACHE;
    }
    if (name) {
        memcpy(p.name, name, strlen(name));     /* < 16: checked */
        mask |= MGMT_VDPROP_NAME;
    }
    if (mgmt_call(m, MGMT_OP_VD_SET_PROPS, m->obj.index, mask,
                  0, 0, &p, sizeof(p), &e, sizeof(e), NULL, NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        return true;
    }
    out_set_desc(m->out, "Set Virtual Drive Properties Succeeded.");
    t = out_table(m->out, "Detailed Status", cols);
    if (wr) {
        vd_set_row(m, t, "wrCache", e.cache & MGMT_CACHE_ALWAYS_WB ? "AWB" :
                   e.cache & MGMT_CACHE_WRITE_BACK ? "WB" : "WT");
    }
    if (rd) {
        vd_set_row(m, t, "rdCache",
                   e.cache & MGMT_CACHE_READ_AHEAD ? "RA" : "NoRA");
    }
    if (name) {
        char got[MGMT_VD_NAME_LEN + 1];

        memcpy(got, e.name, MGMT_VD_NAME_LEN);
        got[MGMT_VD_NAME_LEN] = '\0';
        vd_set_row(m, t, "Name", got);
    }
    return true;
}
