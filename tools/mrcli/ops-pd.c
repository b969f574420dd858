/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: drives in the bays (enclosure 0): /c0/eall/sall show [all],
 * /c0/e0/sN show [all], set offline|online [force]|good|missing|jbod|bad,
 * add|delete hotsparedrive, show rebuild, start|stop|pause|resume
 * rebuild; and the drive table other commands reuse.
 */
#include "mrcli.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pd_cols[] = {
    "EID:Slt", "DID", "State", "DG", "Size", "Intf", "Med", "SeSz", "Sp",
    NULL,
};

static void pd_row(Mrcli *m, MrSection *t, const MgmtPdEntry *p)
{
    char b[32];

    row_new(t);
    row_str(t, "%d:%u", mrcli_eid(m), p->slot);
    row_num(t, p->dev_handle);
    if (p->flags & MGMT_PD_F_GLOBAL_SPARE) {
        row_str(t, "GHS");
    } else if (p->flags & MGMT_PD_F_DEDICATED_SPARE) {
        row_str(t, "DHS");
    } else {
        row_str(t, "%s", pd_state_abbr(p->state));
    }
    if (p->dg != MGMT_NONE16) {
        row_num(t, p->dg);
    } else if (p->spare_dg != MGMT_NONE16) {
        row_num(t, p->spare_dg);
    } else {
        row_str(t, "-");
    }
    row_str(t, "%s", size_str(p->blocks * p->block_size, b));
    row_str(t, "%s", iface_name(p->interface));
    row_str(t, "%s", media_name(p->media));
    row_str(t, "%uB", p->block_size);
    row_str(t, "%s", p->flags & MGMT_PD_F_EXPOSED ? "U" : "D");
}

void emit_pd_table(Mrcli *m, const char *name, const MgmtPdEntry *p,
                   uint32_t n)
{
    MrSection *t = out_table(m->out, name, pd_cols);

    for (uint32_t i = 0; i < n; i++) {
        pd_row(m, t, &p[i]);
    }
}

static int pd_info(Mrcli *m, int slot, MgmtPdInfo *info)
{
    return mgmt_call(m, MGMT_OP_PD_INFO, slot, 0, 0, 0, NULL, 0, info,
                     sizeof(*info), NULL, NULL);
}

static void pd_details(Mrcli *m, const MgmtPdInfo *pi)
{
    char title[64], vendor[17], model[49], serial[33], fw[17], b[32];
    MrSection *t, *s;

    snprintf(title, sizeof(title), "Drive /c%d/e%d/s%u",
             m->obj.ctrl, mrcli_eid(m),
             pi->e.slot);
    t = out_table(m->out, title, pd_cols);
    pd_row(m, t, &pi->e);
    text_field(vendor, pi->vendor, sizeof(pi->vendor));
    text_field(model, pi->model, sizeof(pi->model));
    text_field(serial, pi->serial, sizeof(pi->serial));
    text_field(fw, pi->firmware, sizeof(pi->firmware));
    snprintf(title, sizeof(title), "Drive /c%d/e%d/s%u Device attributes",
             m->obj.ctrl, mrcli_eid(m), pi->e.slot);
    s = out_props(m->out, title);
    sec_str(s, "Manufacturer Id", "%s", vendor);
    sec_str(s, "Model Number", "%s", model);
    sec_str(s, "SN", "%s", serial);
    sec_str(s, "Firmware Revision", "%s", fw);
    sec_str(s, "Raw size", "%s [0x%llx Sectors]",
            size_str(pi->e.blocks * pi->e.block_size, b),
            (unsigned long long)pi->e.blocks);
    sec_str(s, "Coerced size", "%s [0x%llx Sectors]",
            size_str(pi->usable_sectors * 512, b),
            (unsigned long long)pi->usable_sectors);
    sec_str(s, "Logical Sector Size", "%uB", pi->e.block_size);
    snprintf(title, sizeof(title), "Drive /c%d/e%d/s%u State",
             m->obj.ctrl, mrcli_eid(m),
             pi->e.slot);
    s = out_props(m->out, title);
    sec_str(s, "State", "%s", pd_state_name(pi->e.state));
    if (pi->span != MGMT_NONE16) {
        sec_num(s, "Span", pi->span);
        sec_num(s, "Position in Span", pi->span_pos);
    }
    sec_num(s, "Media Error Count", pi->media_errors);
    sec_num(s, "Read Error Count", pi->read_errors);
    sec_num(s, "Write Error Count", pi->write_errors);
    sec_str(s, "Exposed to OS", "%s",
            pi->e.flags & MGMT_PD_F_EXPOSED ? "Yes" : "No");
    if (pi->e.flags & MGMT_PD_F_EXPOSED) {
        char os[64];

        sec_str(s, "OS Drive Name", "%s",
                os_drive_name(m, pi->e.dev_handle, false, os,
                              sizeof(os)) ? os :
                "-");
    }
    if (pi->rebuild_active) {
        sec_str(s, "Rebuild", "%u%% %s", pi->rebuild_percent,
                pi->rebuild_running ? "In progress" : "Paused");
    }
}

void op_pd_show(Mrcli *m, bool all)
{
    MgmtPdEntry *p;
    uint32_t n, total, shown = 0;

    if (!args_all_used(m)) {
        return;
    }
    p = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*p), &n, &total);
    if (!p) {
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!m->obj.all && p[i].slot != m->obj.index) {
            continue;
        }
        shown++;
        if (all) {
            MgmtPdInfo pi;

            if (pd_info(m, p[i].slot, &pi) < 0) {
                break;
            }
            pd_details(m, &pi);
        } else {
            pd_row(m, out_table(m->out, "Drive Information", pd_cols), &p[i]);
        }
    }
    if (!m->obj.all && !shown) {
        out_fail(m->out, "no drive in slot %d", m->obj.index);
    } else if (!shown && !all) {
        out_table(m->out, "Drive Information", pd_cols);
    }
    free(p);
}

/* A command that needs one drive, not /sall. */
static bool one_drive(Mrcli *m)
{
    if (m->obj.all) {
        usage_error(m, "this command needs one drive, e.g. /c%d/e%d/s3",
                    m->obj.ctrl, mrcli_eid(m));
        return false;
    }
    return true;
}

void op_pd_set(Mrcli *m)
{
    static const struct {
        const char *word;
        uint32_t state;
        const char *done;
    } st[] = {
        { "offline", MGMT_SET_OFFLINE, "Set Drive Offline" },
        { "online", MGMT_SET_ONLINE, "Set Drive Online" },
        { "missing", MGMT_SET_MISSING, "Set Drive Missing" },
        { "good", MGMT_SET_GOOD, "Set Drive Good" },
        { "jbod", MGMT_SET_JBOD, "Set Drive JBOD" },
        { "bad", MGMT_SET_BAD, "Set Drive Bad" },
    };
    uint32_t flags = 0;
    MgmtPdInfo pi;
    int which = -1;

    if (!one_drive(m)) {
        return;
    }
    for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
        if (arg_is(m, 1, st[i].word)) {
            which = i;
        }
    }
    if (which < 0) {
        usage_error(m, "set: expected offline, online [force], good, "
                    "missing, jbod or bad");
        return;
    }
    arg_use(m, 2);
    if (arg_flag(m, "force")) {
        if (st[which].state != MGMT_SET_ONLINE) {
            usage_error(m, "force goes only with 'set online'");
            return;
        }
        flags |= MGMT_SET_F_FORCE;
    }
    if (!args_all_used(m)) {
        return;
    }
    if (mgmt_call(m, MGMT_OP_PD_SET_STATE, m->obj.index, st[which].state,
                  flags, 0, NULL, 0, NULL, 0, NULL, NULL) < 0) {
        return;
    }
    out_note(m->out, "%s%s succeeded: /c%d/e%d/s%d", st[which].done,
             flags ? " (forced)" : "", m->obj.ctrl, mrcli_eid(m),
             m->obj.index);
    if (pd_info(m, m->obj.index, &pi) == 0) {
        pd_row(m, out_table(m->out, "Drive Information", pd_cols), &pi.e);
    }
}

void op_pd_spare(Mrcli *m, bool add)
{
    unsigned long long dg = MGMT_NONE32;
    const char *v = NULL;
    MgmtPdInfo pi;

    if (!one_drive(m)) {
        return;
    }
    if (add) {
        v = arg_kv(m, "dgs");
        if (v && !parse_uint(m, "dgs", v, 0xfffe, &dg)) {
            return;
        }
    }
    if (!args_all_used(m)) {
        return;
    }
    if (add) {
        if (mgmt_call(m, MGMT_OP_PD_SPARE_ADD, m->obj.index, dg, 0, 0, NULL,
                      0, NULL, 0, NULL, NULL) < 0) {
            return;
        }
        if (v) {
            out_note(m->out, "Add Hot Spare succeeded: /c%d/e%d/s%d "
                     "dedicated to DG %llu", m->obj.ctrl, mrcli_eid(m),
                     m->obj.index, dg);
        } else {
            out_note(m->out, "Add Hot Spare succeeded: /c%d/e%d/s%d global",
                     m->obj.ctrl, mrcli_eid(m), m->obj.index);
        }
    } else {
        if (mgmt_call(m, MGMT_OP_PD_SPARE_REMOVE, m->obj.index, 0, 0, 0, NULL,
                      0, NULL, 0, NULL, NULL) < 0) {
            return;
        }
        out_note(m->out, "Delete Hot Spare succeeded: /c%d/e%d/s%d",
                 m->obj.ctrl, mrcli_eid(m), m->obj.index);
    }
    if (pd_info(m, m->obj.index, &pi) == 0) {
        pd_row(m, out_table(m->out, "Drive Information", pd_cols), &pi.e);
    }
}

static const char *const rb_cols[] = {
    "Drive-ID", "Progress%", "Status", "Estimated Time Left", NULL,
};

static void rebuild_row(Mrcli *m, MrSection *t, const MgmtPdInfo *pi)
{
    row_new(t);
    row_str(t, "/c%d/e%d/s%u", m->obj.ctrl, mrcli_eid(m), pi->e.slot);
    row_progress(t, !pi->rebuild_active ? NULL :
                 pi->rebuild_running ? "In progress" : "Paused",
                 pi->rebuild_percent, pi->rebuild_eta_s);
}

void op_pd_rebuild_show(Mrcli *m)
{
    MgmtPdEntry *p;
    MgmtPdInfo pi;
    MrSection *t;
    uint32_t n, total, shown = 0;

    if (!args_all_used(m)) {
        return;
    }
    t = out_table(m->out, "Rebuild Status", rb_cols);
    if (!m->obj.all) {
        if (pd_info(m, m->obj.index, &pi) == 0) {
            rebuild_row(m, t, &pi);
        }
        return;
    }
    p = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*p), &n, &total);
    if (!p) {
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (pd_info(m, p[i].slot, &pi) < 0) {
            break;
        }
        if (pi.rebuild_active) {
            rebuild_row(m, t, &pi);
            shown++;
        }
    }
    if (!shown) {
        out_note(m->out, "No rebuild in progress");
    }
    free(p);
}

void op_pd_rebuild(Mrcli *m, int action)
{
    static const char *const names[] = {
        "", "Start", "Stop", "Pause", "Resume",
    };
    MgmtJobStatus js = { 0 };   /* a stopped rebuild replies no data */
    MrSection *t;
    char what[32];

    if (!one_drive(m) || !args_all_used(m)) {
        return;
    }
    if (mgmt_call(m, MGMT_OP_JOB_CONTROL, m->obj.index, MGMT_JOB_REBUILD,
                  action, 0, NULL, 0, &js, sizeof(js), NULL, NULL) < 0) {
        return;
    }
    snprintf(what, sizeof(what), "/c%d/e%d/s%d",
             m->obj.ctrl, mrcli_eid(m), m->obj.index);
    out_note(m->out, "%s Drive Rebuild succeeded: %s", names[action], what);
    t = out_table(m->out, "Rebuild Status", rb_cols);
    row_new(t);
    row_str(t, "%s", what);
    row_progress(t, js.job == MGMT_JOB_REBUILD ? job_status_name(&js) : NULL,
                 js.percent, js.eta_s);
}
