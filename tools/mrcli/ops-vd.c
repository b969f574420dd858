/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: virtual drives and drive groups: /c0 add vd, /c0/vN show [all],
 * /c0/vall show [all], /c0/vN delete [force], /c0/vN start|stop|pause|
 * resume cc|init, /c0/vN show cc|init, /c0/dall show; and the VD and job
 * tables other commands reuse.
 */
#include "mrcli.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const vd_cols[] = {
    "DG/VD", "TYPE", "State", "Access", "Consist", "Cache", "Size", "Name",
    "Operation", NULL,
};

static void vd_row(Mrcli *m, MrSection *t, const MgmtVdEntry *v)
{
    char b[32], c[16], nm[MGMT_VD_NAME_LEN + 1];

    row_new(t);
    row_str(t, "%u/%u", v->dg, v->vd);
    row_str(t, "%s", level_name(v->level));
    row_str(t, "%s", vd_state_abbr(v->state));
    row_str(t, "RW");
    row_str(t, "%s", v->flags & MGMT_VD_F_CONSISTENT ? "Yes" : "No");
    row_str(t, "%s", cache_str(v, c));
    row_str(t, "%s", size_str(v->blocks * 512, b));
    row_str(t, "%s", vd_name(v, nm));
    if (v->job == MGMT_JOB_NONE) {
        row_str(t, "None");
    } else {
        row_str(t, "%s %u%%", job_name(v->job), v->job_percent);
    }
}

void emit_vd_table(Mrcli *m, const char *name, const MgmtVdEntry *v,
                   uint32_t n)
{
    MrSection *t = out_table(m->out, name, vd_cols);

    for (uint32_t i = 0; i < n; i++) {
        vd_row(m, t, &v[i]);
    }
}

const char *eta_str(uint32_t eta_s, char *buf)
{
    if (eta_s == MGMT_NONE32) {
        return "-";
    }
    if (eta_s >= 120) {
        snprintf(buf, 32, "%u Minutes", (eta_s + 59) / 60);
    } else {
        snprintf(buf, 32, "%u Seconds", eta_s);
    }
    return buf;
}

void row_progress(MrSection *t, const char *status, uint32_t percent,
                  uint32_t eta_s)
{
    char b[32];

    if (!status) {
        row_num(t, 0);
        row_str(t, "Not in progress");
        row_str(t, "-");
        return;
    }
    row_num(t, percent);
    row_str(t, "%s", status);
    row_str(t, "%s", eta_str(eta_s, b));
}

const char *job_status_name(const MgmtJobStatus *j)
{
    return j->paused ? "Paused" : j->running ? "In progress" : "Waiting";
}

static const char *const job_cols[] = {
    "Object", "Operation", "Progress%", "Status", "Estimated Time Left",
    NULL,
};

void emit_job_row(Mrcli *m, MrSection *t, const char *what,
                  const MgmtJobStatus *j, int want)
{
    bool active = j->job != MGMT_JOB_NONE && (!want || j->job == want);

    row_new(t);
    row_str(t, "%s", what);
    row_str(t, "%s", job_name(active ? j->job : want));
    row_progress(t, active ? job_status_name(j) : NULL, j->percent,
                 j->eta_s);
}

/* The VD list; NULL with the document failed. */
static MgmtVdEntry *vd_list(Mrcli *m, uint32_t *n)
{
    uint32_t total;

    return mgmt_list(m, MGMT_OP_VD_LIST, 0, 0, sizeof(MgmtVdEntry), n,
                     &total);
}

static int parse_level(const char *s)
{
    static const struct {
        const char *name;
        int level;
    } lv[] = {
        { "r0", 0 }, { "raid0", 0 }, { "r1", 1 }, { "raid1", 1 },
        { "r5", 5 }, { "raid5", 5 }, { "r6", 6 }, { "raid6", 6 },
        { "r10", 10 }, { "raid10", 10 }, { "r50", 50 }, { "raid50", 50 },
        { "r60", 60 }, { "raid60", 60 },
    };

    for (size_t i = 0; i < sizeof(lv) / sizeof(lv[0]); i++) {
        if (!strcasecmp(s, lv[i].name)) {
            return lv[i].level;
        }
    }
    return -1;
}

void op_vd_add(Mrcli *m)
{
    struct {
        MgmtVdCreate c;
        uint16_t slots[256];
    } __attribute__((packed)) rq;
    uint16_t slots[256];
    uint64_t size = 0;
    MgmtVdEntry made;
    const char *v;
    unsigned long long n;
    int level = -1, nslots = 0;
    size_t len;

    memset(&rq, 0, sizeof(rq));
    /* "add vd r5 ..." or "add vd type=r5 ..." */
    v = arg_kv(m, "type");
    if (v) {
        level = parse_level(v);
        if (level < 0) {
            usage_error(m, "type=%s: not a RAID level (r0 r1 r5 r6 r10 r50 "
                        "r60)", v);
            return;
        }
    } else if (m->args.n > 2 && !strchr(m->args.w[2], '=')) {
        level = parse_level(m->args.w[2]);
        if (level < 0) {
            usage_error(m, "add vd: '%s' is not a RAID level (r0 r1 r5 r6 "
                        "r10 r50 r60)", m->args.w[2]);
            return;
        }
        m->args.used[2] = true;
    }
    if (level < 0) {
        usage_error(m, "add vd: give the RAID level, e.g. "
                    "'add vd r5 drives=0:0-3'");
        return;
    }
    rq.c.level = level;
    rq.c.dg = MGMT_NONE16;
    v = arg_kv(m, "drives");
    if (v && !parse_drives(m, v, slots, 255, &nslots)) {
        return;
    }
    v = arg_kv(m, "dg");
    if (v) {
        if (!parse_uint(m, "dg", v, 0xfffe, &n)) {
            return;
        }
        rq.c.dg = n;
    }
    if (!nslots && rq.c.dg == MGMT_NONE16) {
        usage_error(m, "add vd: give the drives, e.g. drives=0:0-3 (or "
                    "dg=N for one more VD on a drive group)");
        return;
    }
    if (nslots && rq.c.dg != MGMT_NONE16) {
        usage_error(m, "add vd: drives= and dg= exclude each other");
        return;
    }
    rq.c.ndrives = nslots;
    memcpy(rq.slots, slots, sizeof(slots));
    v = arg_kv(m, "strip");
    if (v) {
        if (!parse_uint(m, "strip", v, 1024 * 1024, &n)) {
            return;
        }
        rq.c.strip_kib = n;
    }
    v = arg_kv(m, "pdperarray");
    if (v) {
        if (!parse_uint(m, "pdperarray", v, 255, &n)) {
            return;
        }
        if (!n || !nslots || nslots % n) {
            usage_error(m, "pdperarray=%s: must divide the %d drives", v,
                        nslots);
            return;
        }
        rq.c.nspans = nslots / n;
    }
    v = arg_kv(m, "size");
    if (v && !parse_size(m, v, &size)) {
        return;
    }
    rq.c.size_sectors = size;
    v = arg_kv(m, "name");
    if (v) {
        if (strlen(v) > MGMT_VD_NAME_LEN) {
            usage_error(m, "name=%s: at most %d characters", v,
                        MGMT_VD_NAME_LEN);
            return;
        }
        memcpy(rq.c.name, v, strlen(v));
    }
    /* Write policy (wb default, as StorCLI), read ahead (nora default). */
    rq.c.cache = MGMT_CACHE_WRITE_BACK;
    if (arg_flag(m, "wt")) {
        rq.c.cache &= ~MGMT_CACHE_WRITE_BACK;
    }
    if (arg_flag(m, "awb")) {
        rq.c.cache |= MGMT_CACHE_WRITE_BACK | MGMT_CACHE_ALWAYS_WB;
    }
    arg_flag(m, "wb");
    if (arg_flag(m, "ra")) {
        rq.c.cache |= MGMT_CACHE_READ_AHEAD;
    }
    arg_flag(m, "nora");
    arg_flag(m, "direct");      /* the only I/O policy: direct */
    if (arg_flag(m, "init")) {
        rq.c.flags |= MGMT_CREATE_F_INIT;
    }
    if (!args_all_used(m)) {
        return;
    }
    len = sizeof(rq.c) + nslots * sizeof(uint16_t);
    if (mgmt_call(m, MGMT_OP_VD_CREATE, 0, 0, 0, 0, &rq, len, &made,
                  sizeof(made), NULL, NULL) < 0) {
        return;
    }
    out_note(m->out, "Add VD succeeded: /c%d/v%u", m->obj.ctrl, made.vd);
    emit_vd_table(m, "VD LIST", &made, 1);
}

static void vd_details(Mrcli *m, uint16_t vd, const MgmtPdEntry *pds,
                       uint32_t npd)
{
    static const char *const mcols[] = {
        "EID:Slt", "Span", "Row", "State", "Size", "Intf", "Med", NULL,
    };
    static uint8_t buf[MGMT_MAX_RESP_LEN];
    MgmtVdInfo info;
    const MgmtVdMember *mem;
    size_t len;
    char title[64], b[32];
    MrSection *t, *s;
    int row = 0, last_span = -1;

    if (mgmt_call(m, MGMT_OP_VD_INFO, vd, 0, 0, 0, NULL, 0, buf, sizeof(buf),
                  &len, NULL) < 0) {
        return;
    }
    if (len < sizeof(info)) {
        out_fail(m->out, "virtual drive info: reply of %zu bytes is short",
                 len);
        return;
    }
    memcpy(&info, buf, sizeof(info));
    if (sizeof(info) + (size_t)info.nmembers * sizeof(*mem) > len) {
        out_fail(m->out, "virtual drive info: %u members do not fit the "
                 "reply", info.nmembers);
        return;
    }
    mem = (const MgmtVdMember *)(buf + sizeof(info));
    snprintf(title, sizeof(title), "PDs for VD %u", vd);
    t = out_table(m->out, title, mcols);
    for (uint16_t i = 0; i < info.nmembers; i++) {
        const MgmtPdEntry *pd = NULL;

        if (mem[i].span != last_span) {
            row = 0;
            last_span = mem[i].span;
        }
        for (uint32_t k = 0; k < npd && mem[i].slot != MGMT_NONE16; k++) {
            if (pds[k].slot == mem[i].slot) {
                pd = &pds[k];
            }
        }
        row_new(t);
        if (mem[i].slot == MGMT_NONE16) {
            row_str(t, "-");
        } else {
            row_str(t, "%d:%u", mrcli_eid(m), mem[i].slot);
        }
        row_num(t, mem[i].span);
        row_num(t, row++);
        row_str(t, "%s", pd_state_abbr(mem[i].state));
        if (pd) {
            row_str(t, "%s", size_str(pd->blocks * pd->block_size, b));
            row_str(t, "%s", iface_name(pd->interface));
            row_str(t, "%s", media_name(pd->media));
        } else {
            row_str(t, "-");
            row_str(t, "-");
            row_str(t, "-");
        }
    }
    snprintf(title, sizeof(title), "VD%u Properties", vd);
    s = out_props(m->out, title);
    sec_str(s, "Strip Size", "%u KB", info.e.strip_kib);
    sec_num(s, "Number of Blocks", info.e.blocks);
    sec_num(s, "Span Depth", info.e.nspans);
    sec_num(s, "Number of Drives Per Span", info.e.span_width);
    sec_str(s, "Write Cache(initial setting)", "%s",
            info.e.cache & MGMT_CACHE_ALWAYS_WB ? "AlwaysWriteBack" :
            info.e.cache & MGMT_CACHE_WRITE_BACK ? "WriteBack" :
            "WriteThrough");
    sec_str(s, "Current Write Policy", "%s",
            info.e.write_policy == MGMT_WP_WRITE_BACK ? "WriteBack" :
            info.e.write_policy == MGMT_WP_ALWAYS_WB ? "AlwaysWriteBack" :
            "WriteThrough");
    sec_str(s, "Read Ahead", "%s", info.e.cache & MGMT_CACHE_READ_AHEAD ?
            "Yes" : "No");
    sec_str(s, "Initialized", "%s", info.e.flags & MGMT_VD_F_INITIALIZED ?
            "Yes" : "No");
    sec_str(s, "Logical Sector Size", "%u", info.logical_block);
    {
        char os[64];

        sec_str(s, "OS Drive Name", "%s",
                os_drive_name(m, info.e.dev_handle, true, os,
                              sizeof(os)) ? os :
                "-");
    }
    sec_str(s, "Device Handle", "0x%04x", info.e.dev_handle);
    {
        char g[49];

        for (int k = 0; k < 24; k++) {
            snprintf(g + 2 * k, 3, "%02x", info.guid[k]);
        }
        sec_str(s, "VD GUID", "%s", g);
    }
    if (info.job.job != MGMT_JOB_NONE) {
        sec_str(s, "Active Operations", "%s (%u%%)%s", job_name(info.job.job),
                info.job.percent, info.job.paused ? " paused" : "");
    } else {
        sec_str(s, "Active Operations", "None");
    }
}

void op_vd_show(Mrcli *m, bool all)
{
    MgmtVdEntry *v;
    MgmtPdEntry *pds = NULL;
    uint32_t n, npd = 0, total, shown = 0;
    MrSection *t;

    if (!args_all_used(m)) {
        return;
    }
    v = vd_list(m, &n);
    if (!v) {
        return;
    }
    if (all) {
        pds = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*pds), &npd,
                        &total);
        if (!pds) {
            free(v);
            return;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        char title[32];

        if (!m->obj.all && v[i].vd != m->obj.index) {
            continue;
        }
        shown++;
        if (all) {
            snprintf(title, sizeof(title), "/c%d/v%u", m->obj.ctrl, v[i].vd);
            t = out_table(m->out, title, vd_cols);
            vd_row(m, t, &v[i]);
            vd_details(m, v[i].vd, pds, npd);
        } else {
            t = out_table(m->out, "Virtual Drives", vd_cols);
            vd_row(m, t, &v[i]);
        }
    }
    if (!m->obj.all && !shown) {
        out_fail(m->out, "virtual drive %d does not exist", m->obj.index);
    } else if (m->obj.all && !shown) {
        out_table(m->out, "Virtual Drives", vd_cols);
        out_note(m->out, "No virtual drives configured");
    }
    free(v);
    free(pds);
}

void op_vd_delete(Mrcli *m)
{
    bool force = arg_flag(m, "force");
    MgmtVdEntry *v;
    uint32_t n;

    if (!args_all_used(m)) {
        return;
    }
    if (!m->obj.all) {
        if (mgmt_call(m, MGMT_OP_VD_DELETE, m->obj.index,
                      force ? MGMT_DELETE_F_FORCE : 0, 0, 0, NULL, 0, NULL, 0,
                      NULL, NULL) == 0) {
            out_note(m->out, "Delete VD succeeded: /c%d/v%d", m->obj.ctrl,
                     m->obj.index);
        }
        return;
    }
    v = vd_list(m, &n);
    if (!v) {
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (mgmt_call(m, MGMT_OP_VD_DELETE, v[i].vd,
                      force ? MGMT_DELETE_F_FORCE : 0, 0, 0, NULL, 0, NULL, 0,
                      NULL, NULL) < 0) {
            break;
        }
        out_note(m->out, "Delete VD succeeded: /c%d/v%u", m->obj.ctrl,
                 v[i].vd);
    }
    free(v);
}

static const char *action_name(int action)
{
    switch (action) {
    case MGMT_JOB_START: return "Start";
    case MGMT_JOB_STOP: return "Stop";
    case MGMT_JOB_PAUSE: return "Pause";
    case MGMT_JOB_RESUME: return "Resume";
    }
    return "?";
}

/* The VDs the object names; NULL (failed) if a single one is missing. */
static MgmtVdEntry *object_vds(Mrcli *m, uint32_t *n)
{
    MgmtVdEntry *v = vd_list(m, n);
    uint32_t k = 0;

    if (!v) {
        return NULL;
    }
    for (uint32_t i = 0; i < *n; i++) {
        if (m->obj.all || v[i].vd == m->obj.index) {
            v[k++] = v[i];
        }
    }
    *n = k;
    if (!m->obj.all && !k) {
        out_fail(m->out, "virtual drive %d does not exist", m->obj.index);
        free(v);
        return NULL;
    }
    return v;
}

void op_vd_job(Mrcli *m, int action, int job)
{
    bool repair = arg_flag(m, "repair");
    MgmtVdEntry *v;
    MgmtJobStatus js;
    MrSection *t;
    uint32_t n;

    arg_flag(m, "force");   /* StorCLI's "start init force": accepted */
    if (!args_all_used(m)) {
        return;
    }
    if (repair && (job != MGMT_JOB_CC || action != MGMT_JOB_START)) {
        usage_error(m, "repair goes only with 'start cc'");
        return;
    }
    v = object_vds(m, &n);
    if (!v) {
        return;
    }
    t = out_table(m->out, "VD Operation Status", job_cols);
    for (uint32_t i = 0; i < n; i++) {
        char what[32];

        if (mgmt_call(m, MGMT_OP_JOB_CONTROL, v[i].vd, job, action,
                      repair ? MGMT_JOB_F_REPAIR : 0, NULL, 0, &js,
                      sizeof(js), NULL, NULL) < 0) {
            break;
        }
        snprintf(what, sizeof(what), "/c%d/v%u", m->obj.ctrl, v[i].vd);
        emit_job_row(m, t, what, &js, job);
        out_note(m->out, "%s %s succeeded on %s", action_name(action),
                 job_name(job), what);
    }
    free(v);
}

void op_vd_job_show(Mrcli *m, int job)
{
    MgmtVdEntry *v;
    MgmtJobStatus js;
    MrSection *t;
    uint32_t n;

    if (!args_all_used(m)) {
        return;
    }
    v = object_vds(m, &n);
    if (!v) {
        return;
    }
    t = out_table(m->out, "VD Operation Status", job_cols);
    for (uint32_t i = 0; i < n; i++) {
        char what[32];

        if (mgmt_call(m, MGMT_OP_JOB_STATUS, v[i].vd, 0, 0, 0, NULL, 0, &js,
                      sizeof(js), NULL, NULL) < 0) {
            break;
        }
        snprintf(what, sizeof(what), "/c%d/v%u", m->obj.ctrl, v[i].vd);
        emit_job_row(m, t, what, &js, job);
    }
    free(v);
}

void op_dg_show(Mrcli *m)
{
    static const char *const cols[] = {
        "DG", "Arr", "Row", "EID:Slt", "Type", "State", "Size", NULL,
    };
    static const char *const dcols[] = {
        "DG", "Type", "Spans", "Drives/Span", "VDs", "Member Size",
        "Free/Member", "Dedicated HSP", NULL,
    };
    MgmtDgEntry *d;
    MgmtPdEntry *pds;
    uint32_t n, npd, total, shown = 0;
    MrSection *t, *top;

    if (!args_all_used(m)) {
        return;
    }
    d = mgmt_list(m, MGMT_OP_DG_LIST, 0, 0, sizeof(*d), &n, &total);
    if (!d) {
        return;
    }
    pds = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*pds), &npd, &total);
    if (!pds) {
        free(d);
        return;
    }
    t = out_table(m->out, "Drive Groups", dcols);
    top = out_table(m->out, "TOPOLOGY", cols);
    for (uint32_t i = 0; i < n; i++) {
        char b[32];

        if (!m->obj.all && d[i].dg != m->obj.index) {
            continue;
        }
        shown++;
        row_new(t);
        row_num(t, d[i].dg);
        row_str(t, "%s", level_name(d[i].level));
        row_num(t, d[i].nspans);
        row_num(t, d[i].span_width);
        row_num(t, d[i].nvds);
        row_str(t, "%s", size_str(d[i].member_sectors * 512, b));
        row_str(t, "%s", size_str(d[i].free_sectors * 512, b));
        row_num(t, d[i].dedicated_spares);
        for (int k = 0; k < d[i].nlisted && k < MGMT_DG_MAX_MEMBERS; k++) {
            uint16_t slot = d[i].slots[k];
            int width = d[i].span_width ? d[i].span_width : 1;
            const MgmtPdEntry *pd = NULL;

            for (uint32_t j = 0; j < npd; j++) {
                if (pds[j].slot == slot) {
                    pd = &pds[j];
                }
            }
            row_new(top);
            row_num(top, d[i].dg);
            row_num(top, k / width);
            row_num(top, k % width);
            if (slot == MGMT_NONE16) {
                row_str(top, "-");
            } else {
                row_str(top, "%d:%u", mrcli_eid(m), slot);
            }
            row_str(top, "DRIVE");
            row_str(top, "%s", pd ? pd_state_abbr(pd->state) : "Msng");
            row_str(top, "%s", pd ? size_str(pd->blocks * pd->block_size, b)
                    : "-");
        }
    }
    if (!m->obj.all && !shown) {
        out_fail(m->out, "drive group %d does not exist", m->obj.index);
    }
    free(d);
    free(pds);
}
