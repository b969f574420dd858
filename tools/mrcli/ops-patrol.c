/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mrcli: patrol read of the controller (/c0): show patrolread, start,
 * stop, suspend and resume patrolread, set patrolread=on|off
 * mode=auto|manual [patrolrate=N], over MGMT_OP_PATROL_CONTROL/STATUS.
 * Suspend stops the pass (the next start begins a new one) and resume
 * starts one: the firmware keeps no cursor across a stop.
 */
#include "mrcli.h"
#include "out.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *patrol_mode_name(int mode)
{
    switch (mode) {
    case MGMT_PATROL_MODE_AUTO:
        return "Auto";
    case MGMT_PATROL_MODE_MANUAL:
        return "Manual";
    case MGMT_PATROL_MODE_OFF:
        return "Disabled";
    }
    return "Unknown";
}

static void emit_patrol(Mrcli *m, const MgmtPatrolStatus *ps)
{
    MrSection *s = out_props(m->out, "Patrol Read Status");

    sec_str(s, "PR Mode", "%s", patrol_mode_name(ps->mode));
    sec_str(s, "PR Rate", "%u%%", ps->rate);
    sec_str(s, "PR State", "%s", ps->running ? "Active" : "Stopped");
    sec_num(s, "PR Iterations completed", ps->iterations);
    sec_str(s, "PR Progress", "%u%%", ps->percent);
    sec_num(s, "PR Drives completed", ps->drives_done);
    if (ps->running && ps->drive_slot != MGMT_NONE16) {
        sec_str(s, "PR Current drive", "%u (%u%%)", ps->drive_slot,
                ps->drive_percent);
    }
    sec_num(s, "PR Corrected media errors", ps->corrected);
    sec_num(s, "PR Uncorrectable media errors", ps->uncorrectable);
}

static void patrol_call(Mrcli *m, uint32_t action, uint32_t arg)
{
    MgmtPatrolStatus ps;

    if (mgmt_call(m, MGMT_OP_PATROL_CONTROL, action, arg, 0, 0, NULL, 0, &ps,
                  sizeof(ps), NULL, NULL) == 0 && action != MGMT_PATROL_MODE &&
        action != MGMT_PATROL_RATE) {
        emit_patrol(m, &ps);
    }
}

static void patrol_set(Mrcli *m)
{
    const char *on = arg_kv(m, "patrolread");
    const char *mode = arg_kv(m, "mode");
    const char *rate = arg_kv(m, "patrolrate");
    MgmtPatrolStatus ps;
    unsigned long long n = 0;
    int want = -1;

    if (!args_all_used(m)) {
        return;
    }
    if (on && !strcasecmp(on, "off")) {
        want = MGMT_PATROL_MODE_OFF;
    } else if (on && strcasecmp(on, "on")) {
        usage_error(m, "patrolread= takes on or off, not '%s'", on);
        return;
    }
    if (mode && want != MGMT_PATROL_MODE_OFF) {
        if (!strcasecmp(mode, "auto")) {
            want = MGMT_PATROL_MODE_AUTO;
        } else if (!strcasecmp(mode, "manual")) {
            want = MGMT_PATROL_MODE_MANUAL;
        } else {
            usage_error(m, "mode= takes auto or manual, not '%s'", mode);
            return;
        }
    } else if (on && want < 0) {
        want = MGMT_PATROL_MODE_MANUAL;
    }
    if (rate && !parse_uint(m, "patrolrate", rate, 100, &n)) {
        return;
    }
    if (want >= 0 && mgmt_call(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_MODE,
                               want, 0, 0, NULL, 0, NULL, 0, NULL, NULL) < 0) {
        return;
    }
    if (rate && mgmt_call(m, MGMT_OP_PATROL_CONTROL, MGMT_PATROL_RATE, n, 0,
                          0, NULL, 0, NULL, 0, NULL, NULL) < 0) {
        return;
    }
    if (mgmt_call(m, MGMT_OP_PATROL_STATUS, 0, 0, 0, 0, NULL, 0, &ps,
                  sizeof(ps), NULL, NULL) == 0) {
        emit_patrol(m, &ps);
    }
}

static bool word_starts(Mrcli *m, const char *prefix)
{
    for (int i = 0; i < m->args.n; i++) {
        if (!strncasecmp(m->args.w[i], prefix, strlen(prefix))) {
            return true;
        }
    }
    return false;
}

bool op_patrol(Mrcli *m)
{
    MgmtPatrolStatus ps;

    if (m->args.n < 1) {
        return false;
    }
    if (arg_is(m, 0, "set") && (word_starts(m, "mode=") ||
                                word_starts(m, "patrolrate="))) {
        arg_use(m, 1);
        patrol_set(m);
        return true;
    }
    if (m->args.n < 2 || !arg_is(m, 1, "patrolread")) {
        return false;
    }
    arg_use(m, 2);
    if (!args_all_used(m)) {
        return true;
    }
    if (arg_is(m, 0, "show")) {
        if (mgmt_call(m, MGMT_OP_PATROL_STATUS, 0, 0, 0, 0, NULL, 0, &ps,
                      sizeof(ps), NULL, NULL) == 0) {
            emit_patrol(m, &ps);
        }
    } else if (arg_is(m, 0, "start") || arg_is(m, 0, "resume")) {
        patrol_call(m, MGMT_PATROL_START, 0);
    } else if (arg_is(m, 0, "stop") || arg_is(m, 0, "suspend")) {
        patrol_call(m, MGMT_PATROL_STOP, 0);
    } else {
        usage_error(m, "patrolread: use show, start, stop, suspend or "
                    "resume");
    }
    return true;
}
