/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: storcli's drive replacement commands over the management
 * protocol:
 *   /cx/ex/sx insert dg=N array=N row=N   the unconfigured-good drive sx
 *       takes the place of the failed or missing member in row N of span
 *       (array) N of drive group N, and is rebuilt (JOB_CONTROL,
 *       MGMT_JOB_REBUILD on sx: the firmware puts it in place of the
 *       group's failed member)
 *   /cx/ex/sx replace replacedrive=E:S    member sx is copied onto the
 *       unconfigured-good drive E:S, which then takes its place
 *       (JOB_CONTROL, MGMT_JOB_COPYBACK: a copyback started by hand)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "storcli.h"
#include "out.h"

static const char *const ins_cols[] = {
    "Drive", "DG", "Arr", "Row", "Status", NULL,
};

/* A member that has no data: failed (offline) or missing. */
static bool member_lost(const MgmtPdEntry *p, uint32_t n, uint16_t slot)
{
    if (slot == MGMT_NONE16) {
        return true;            /* its drive is gone */
    }
    for (uint32_t i = 0; i < n; i++) {
        if (p[i].slot == slot) {
            return p[i].state == MGMT_PD_OFFLINE ||
                   p[i].state == MGMT_PD_MISSING;
        }
    }
    return true;                /* not in the bays any more */
}

static bool ins_num(Mrcli *m, const char *key, unsigned long long max,
                    unsigned long long *v)
{
    const char *s = arg_kv(m, key);

    if (!s) {
        usage_error(m, "insert: give dg=, array= and row= (the place of "
                    "the missing member), e.g. insert dg=0 array=0 row=1");
        return false;
    }
    return parse_uint(m, key, s, max, v);
}

static void storcli_insert(Mrcli *m)
{
    unsigned long long dg, arr, row;
    MgmtDgEntry *g = NULL, *grp = NULL;
    MgmtPdEntry *p = NULL;
    MgmtJobStatus js = { 0 };
    uint32_t ng, np, total, lost = 0;
    MrSection *t;

    if (m->obj.all) {
        usage_error(m, "insert needs one drive, e.g. /c%d/e%d/s4 insert "
                    "dg=0 array=0 row=1", m->obj.ctrl, mrcli_eid(m));
        return;
    }
    if (!ins_num(m, "dg", 0xfffe, &dg) || !ins_num(m, "array", 255, &arr) ||
        !ins_num(m, "row", 255, &row) || !args_all_used(m)) {
        return;
    }
    g = mgmt_list(m, MGMT_OP_DG_LIST, 0, 0, sizeof(*g), &ng, &total);
    if (!g) {
        return;
    }
    p = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*p), &np, &total);
    if (!p) {
        goto out;
    }
    for (uint32_t i = 0; i < ng; i++) {
        if (g[i].dg == dg) {
            grp = &g[i];
        }
        for (uint32_t k = 0; k < g[i].nlisted; k++) {
            lost += member_lost(p, np, g[i].slots[k]);
        }
    }
    if (!grp) {
        out_fail(m->out, "insert: drive group %llu does not exist", dg);
        m->exit_status = MRCLI_EXIT_FAILED;
        goto out;
    }
    if (arr >= grp->nspans || row >= grp->span_width ||
        arr * grp->span_width + row >= grp->nlisted) {
        out_fail(m->out, "insert: drive group %llu has %u array(s) of %u "
                 "row(s): no array %llu row %llu", dg, grp->nspans,
                 grp->span_width, arr, row);
        m->exit_status = MRCLI_EXIT_FAILED;
        goto out;
    }
    if (!member_lost(p, np, grp->slots[arr * grp->span_width + row])) {
        out_fail(m->out, "insert: DG %llu array %llu row %llu is the drive "
                 "in slot %u, which is not failed or missing (set it "
                 "offline and missing first)", dg, arr, row,
                 grp->slots[arr * grp->span_width + row]);
        m->exit_status = MRCLI_EXIT_FAILED;
        goto out;
    }
    if (lost > 1) {
        /* the firmware takes the first lost member it finds */
        out_fail(m->out, "insert: %u members are failed or missing; insert "
                 "puts a drive in place of the only one (rebuild them one "
                 "at a time)", lost);
        m->exit_status = MRCLI_EXIT_FAILED;
        goto out;
    }
    if (mgmt_call(m, MGMT_OP_JOB_CONTROL, m->obj.index, MGMT_JOB_REBUILD,
                  MGMT_JOB_START, 0, NULL, 0, &js, sizeof(js), NULL,
                  NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        goto out;
    }
    out_set_desc(m->out, "Insert Drive Succeeded.");
    t = out_table(m->out, "Drive Information", ins_cols);
    row_new(t);
    row_str(t, "/c%d/e%d/s%d", m->obj.ctrl, mrcli_eid(m), m->obj.index);
    row_num(t, dg);
    row_num(t, arr);
    row_num(t, row);
    row_str(t, "%s", js.job == MGMT_JOB_REBUILD ? "Rebuild started" :
            "Inserted");
out:
    free(g);
    free(p);
}

static void storcli_replace(Mrcli *m)
{
    static const char *const cols[] = {
        "Drive", "Replacement", "Progress%", "Status", NULL,
    };
    MgmtJobStatus js = { 0 };
    const char *rd;
    long dst;
    MrSection *t;

    if (m->obj.all) {
        usage_error(m, "replace needs one drive, e.g. /c%d/e%d/s1 replace "
                    "replacedrive=%d:4", m->obj.ctrl, mrcli_eid(m),
                    mrcli_eid(m));
        return;
    }
    rd = arg_kv(m, "replacedrive");
    if (!rd) {
        usage_error(m, "replace: give the drive to copy onto, e.g. "
                    "replacedrive=%d:4", mrcli_eid(m));
        return;
    }
    dst = storcli_drive_ref(m, "replacedrive", rd);
    if (dst < 0 || !args_all_used(m)) {
        return;
    }
    if (dst == m->obj.index) {
        usage_error(m, "replace: replacedrive=%s is the drive itself", rd);
        return;
    }
    if (mgmt_call(m, MGMT_OP_JOB_CONTROL, m->obj.index, MGMT_JOB_COPYBACK,
                  MGMT_JOB_START, (uint32_t)dst, NULL, 0, &js, sizeof(js),
                  NULL, NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        return;
    }
    out_set_desc(m->out, "Replace Drive Succeeded.");
    t = out_table(m->out, "Drive Information", cols);
    row_new(t);
    row_str(t, "/c%d/e%d/s%d", m->obj.ctrl, mrcli_eid(m), m->obj.index);
    row_str(t, "/c%d/e%d/s%ld", m->obj.ctrl, mrcli_eid(m), dst);
    row_num(t, js.job == MGMT_JOB_COPYBACK ? js.percent : 0);
    row_str(t, "%s", js.job != MGMT_JOB_COPYBACK ? "Not in progress" :
            js.paused ? "Paused" : js.running ? "In progress" : "Waiting");
}

bool storcli_insert_replace(Mrcli *m)
{
    if (m->obj.kind != OBJ_PD) {
        return false;
    }
    if (arg_is(m, 0, "insert")) {
        arg_use(m, 1);
        storcli_insert(m);
        return true;
    }
    if (arg_is(m, 0, "replace")) {
        arg_use(m, 1);
        storcli_replace(m);
        return true;
    }
    return false;
}
