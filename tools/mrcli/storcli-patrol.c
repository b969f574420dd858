/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: storcli's patrol read commands on a controller (/cx show
 * patrolread; start, stop, suspend and resume patrolread) over
 * MGMT_OP_PATROL_STATUS/CONTROL, with storcli's documents: the
 * "Controller Properties" table of PR rows, and the one-line
 * descriptions of the actions.  Called as mrcli, ops-patrol.c answers
 * instead, with mrcli's own document.
 */
#include "storcli.h"
#include "out.h"
#include <stdio.h>
#include <string.h>

static const char *pr_mode(int mode)
{
    switch (mode) {
    case MGMT_PATROL_MODE_AUTO:
        return "Auto";
    case MGMT_PATROL_MODE_MANUAL:
        return "Manual";
    default:
        return "Disable";
    }
}

static void pr_row(MrSection *t, const char *prop, const char *value)
{
    row_new(t);
    row_str(t, "%s", prop);
    row_str(t, "%s", value);
}

static void pr_show(Mrcli *m, const MgmtPatrolStatus *ps)
{
    MrSection *t = out_table(m->out, "Controller Properties",
                              storcli_ctrl_prop_cols);
    char v[64];

    pr_row(t, "PR Mode", pr_mode(ps->mode));
    snprintf(v, sizeof(v), "%u hours", ps->delay_hours);
    pr_row(t, "PR Execution Delay", v);
    snprintf(v, sizeof(v), "%u", ps->iterations);
    pr_row(t, "PR iterations completed", v);
    pr_row(t, "PR Next Start time", "NA");
    pr_row(t, "PR on SSD", "Disabled");
    if (ps->running) {
        snprintf(v, sizeof(v), "Active %u", ps->percent);
    } else {
        snprintf(v, sizeof(v), "%s",
                 ps->mode == MGMT_PATROL_MODE_OFF ? "Disabled" : "Stopped");
    }
    pr_row(t, "PR Current State", v);
    pr_row(t, "PR Excluded VDs", "None");
}

bool storcli_patrol(Mrcli *m)
{
    static const struct {
        const char *verb;
        uint32_t action;
        const char *desc;
    } acts[] = {
        { "start", MGMT_PATROL_START, "Start PR" },
        { "resume", MGMT_PATROL_START, "Resume PR" },
        { "stop", MGMT_PATROL_STOP, "Stop PR" },
        { "suspend", MGMT_PATROL_STOP, "Suspend PR" },
    };
    MgmtPatrolStatus ps;

    if (m->name_dialect == MR_DIALECT_MRCLI || m->args.n < 2 ||
        !arg_is(m, 1, "patrolread")) {
        return false;
    }
    if (arg_is(m, 0, "show")) {
        arg_use(m, 2);
        if (args_all_used(m) &&
            mgmt_call(m, MGMT_OP_PATROL_STATUS, 0, 0, 0, 0, NULL, 0, &ps,
                      sizeof(ps), NULL, NULL) == 0) {
            pr_show(m, &ps);
        }
        return true;
    }
    for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
        if (!arg_is(m, 0, acts[i].verb)) {
            continue;
        }
        arg_use(m, 2);
        if (args_all_used(m) &&
            mgmt_call(m, MGMT_OP_PATROL_CONTROL, acts[i].action, 0, 0, 0,
                      NULL, 0, &ps, sizeof(ps), NULL, NULL) == 0) {
            out_set_desc(m->out, acts[i].desc);
        }
        return true;
    }
    return false;
}
