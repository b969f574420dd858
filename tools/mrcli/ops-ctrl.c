/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: controller-wide commands: /c0 show [all], /c0 set PROP=VALUE,
 * /c0 show events [seq=N] [count=N] [wait=S], /c0/cv show,
 * /c0/fall show|import|delete.
 */
#include "mrcli.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static void str_field(char *dst, const char *src, size_t len)
{
    size_t n = 0;

    while (n < len && src[n]) {
        dst[n] = (src[n] >= 0x20 && src[n] < 0x7f) ? src[n] : '?';
        n++;
    }
    dst[n] = 0;
}

static void emit_props(Mrcli *m, const MgmtCtrlProps *p, const char *sec)
{
    MrSection *s = out_props(m->out, sec);

    sec_str(s, "Rebuild Rate", "%u%%", p->rebuild_rate);
    sec_str(s, "CC Rate", "%u%%", p->cc_rate);
    sec_str(s, "BGI Rate", "%u%%", p->init_rate);
    sec_str(s, "Patrol Read", "%s", p->patrol_read ? "On" : "Off");
    sec_str(s, "Auto Rebuild", "%s", p->auto_rebuild ? "On" : "Off");
    sec_str(s, "Cache Flush Interval", "%u sec", p->cache_flush_s);
}

static const char *cv_state_name(int s)
{
    return s == MGMT_CV_OPTIMAL ? "Optimal" : s == MGMT_CV_FAILED ?
        "Failed" : s == MGMT_CV_ABSENT ? "Absent" : "Unknown";
}

void op_ctrl_show(Mrcli *m, bool all)
{
    MgmtCtrlInfo ci;
    MgmtCtrlProps cp;
    MgmtVdEntry *vds;
    MgmtPdEntry *pds;
    uint32_t nvd, npd, tot;
    char prod[33], serial[33], fw[33], b[32];
    MrSection *s;
    bool attention = false;

    if (mgmt_call(m, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0, &ci,
                  sizeof(ci), NULL, NULL) < 0 ||
        mgmt_call(m, MGMT_OP_CTRL_GET_PROPS, 0, 0, 0, 0, NULL, 0, &cp,
                  sizeof(cp), NULL, NULL) < 0) {
        return;
    }
    vds = mgmt_list(m, MGMT_OP_VD_LIST, 0, 0, sizeof(*vds), &nvd, &tot);
    if (!vds) {
        return;
    }
    pds = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*pds), &npd, &tot);
    if (!pds) {
        free(vds);
        return;
    }
    for (uint32_t i = 0; i < nvd; i++) {
        attention |= vds[i].state != MGMT_VD_OPTIMAL;
    }
    str_field(prod, ci.product, sizeof(ci.product));
    str_field(serial, ci.serial, sizeof(ci.serial));
    str_field(fw, ci.fw_version, sizeof(ci.fw_version));

    s = out_props(m->out, "Basics");
    sec_num(s, "Controller", m->obj.ctrl);
    sec_str(s, "Model", "%s", prod);
    sec_str(s, "Serial Number", "%s", serial);
    sec_str(s, "PCI Vendor ID", "0x%04x", ci.pci_vendor);
    sec_str(s, "PCI Device ID", "0x%04x", ci.pci_device);
    sec_str(s, "SubVendor ID", "0x%04x", ci.pci_subvendor);
    sec_str(s, "SubDevice ID", "0x%04x", ci.pci_subdevice);
    s = out_props(m->out, "Version");
    sec_str(s, "Firmware Version", "%s", fw);
    sec_str(s, "CLI Version", "%s", MRCLI_VERSION);
    s = out_props(m->out, "Status");
    sec_str(s, "Controller Status", "%s", attention ? "Needs Attention" :
            "Optimal");
    sec_str(s, "CacheVault", "%s", cv_state_name(ci.cachevault));
    sec_str(s, "Cache Size", "%s", size_str(ci.cache_bytes, b));
    if (all) {
        char levels[128] = "";

        s = out_props(m->out, "Capabilities");
        for (int l = 0; l < 64; l++) {
            if (ci.levels & (1ull << l)) {
                size_t n = strlen(levels);

                snprintf(levels + n, sizeof(levels) - n, "%s%s",
                         n ? ", " : "", level_name(l));
            }
        }
        sec_str(s, "RAID Levels Supported", "%s", levels);
        sec_str(s, "Strip Sizes", "%u KB - %u KB", ci.strip_min_kib,
                ci.strip_max_kib);
        sec_num(s, "Max Physical Drives", ci.max_pds);
        sec_num(s, "Max Virtual Drives", ci.max_vds);
        sec_num(s, "Max Drive Groups", ci.max_dgs);
        sec_num(s, "Max Spans", ci.max_spans);
        sec_num(s, "Max Drives per Span", ci.max_drives_per_span);
        sec_num(s, "Max VDs per Drive Group", ci.max_vds_per_dg);
        sec_num(s, "Max Global Hot Spares", ci.max_global_spares);
        sec_num(s, "Max Dedicated Hot Spares", ci.max_dedicated_spares);
        emit_props(m, &cp, "Policies");
    }
    s = out_props(m->out, "Counts");
    sec_num(s, "Physical Drives", ci.num_pds);
    sec_num(s, "Virtual Drives", ci.num_vds);
    sec_num(s, "Drive Groups", ci.num_dgs);
    sec_num(s, "Global Hot Spares", ci.num_global_spares);
    sec_num(s, "Dedicated Hot Spares", ci.num_dedicated_spares);
    sec_num(s, "Foreign Drives", ci.num_foreign_pds);
    emit_vd_table(m, "VD LIST", vds, nvd);
    emit_pd_table(m, "PD LIST", pds, npd);
    free(vds);
    free(pds);
}

/*
 * The on/off property @key, if given: sets *field and @bit in *mask.
 * False when the value is neither (reported).
 */
static bool flag_arg(Mrcli *m, const char *key, uint32_t bit,
                     uint32_t *mask, uint8_t *field)
{
    const char *v = arg_kv(m, key);

    if (!v) {
        return true;
    }
    if (strcasecmp(v, "on") && strcasecmp(v, "off")) {
        usage_error(m, "%s=%s: expected on or off", key, v);
        return false;
    }
    *field = !strcasecmp(v, "on");
    *mask |= bit;
    return true;
}

void op_ctrl_set(Mrcli *m)
{
    static const struct {
        const char *key;
        uint32_t bit;
    } rates[] = {
        { "rebuildrate", MGMT_PROP_REBUILD_RATE },
        { "ccrate", MGMT_PROP_CC_RATE },
        { "bgirate", MGMT_PROP_INIT_RATE },
        { "initrate", MGMT_PROP_INIT_RATE },
    };
    MgmtCtrlProps p, now;
    uint32_t mask = 0;
    const char *v;
    unsigned long long n;
    MrSection *t;
    static const char *const cols[] = { "Ctrl_Prop", "Value", NULL };

    memset(&p, 0, sizeof(p));
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        v = arg_kv(m, rates[i].key);
        if (!v) {
            continue;
        }
        if (!parse_uint(m, rates[i].key, v, 100, &n)) {
            return;
        }
        mask |= rates[i].bit;
        if (rates[i].bit == MGMT_PROP_REBUILD_RATE) {
            p.rebuild_rate = n;
        } else if (rates[i].bit == MGMT_PROP_CC_RATE) {
            p.cc_rate = n;
        } else {
            p.init_rate = n;
        }
    }
    if (!flag_arg(m, "autorebuild", MGMT_PROP_AUTO_REBUILD, &mask,
                  &p.auto_rebuild) ||
        !flag_arg(m, "patrolread", MGMT_PROP_PATROL_READ, &mask,
                  &p.patrol_read)) {
        return;
    }
    v = arg_kv(m, "cacheflushint");
    if (v) {
        if (!parse_uint(m, "cacheflushint", v, 255, &n)) {
            return;
        }
        p.cache_flush_s = n;
        mask |= MGMT_PROP_CACHE_FLUSH;
    }
    if (!args_all_used(m)) {
        return;
    }
    if (!mask) {
        usage_error(m, "set: name a property, e.g. rebuildrate=30 (also "
                    "ccrate, bgirate, autorebuild, patrolread, "
                    "cacheflushint)");
        return;
    }
    if (mgmt_call(m, MGMT_OP_CTRL_SET_PROPS, mask, 0, 0, 0, &p, sizeof(p),
                  &now, sizeof(now), NULL, NULL) < 0) {
        return;
    }
    t = out_table(m->out, "Controller Properties", cols);
    if (mask & MGMT_PROP_REBUILD_RATE) {
        row_new(t);
        row_str(t, "Rebuild Rate");
        row_str(t, "%u%%", now.rebuild_rate);
    }
    if (mask & MGMT_PROP_CC_RATE) {
        row_new(t);
        row_str(t, "CC Rate");
        row_str(t, "%u%%", now.cc_rate);
    }
    if (mask & MGMT_PROP_INIT_RATE) {
        row_new(t);
        row_str(t, "BGI Rate");
        row_str(t, "%u%%", now.init_rate);
    }
    if (mask & MGMT_PROP_AUTO_REBUILD) {
        row_new(t);
        row_str(t, "Auto Rebuild");
        row_str(t, "%s", now.auto_rebuild ? "On" : "Off");
    }
    if (mask & MGMT_PROP_PATROL_READ) {
        row_new(t);
        row_str(t, "Patrol Read");
        row_str(t, "%s", now.patrol_read ? "On" : "Off");
    }
    if (mask & MGMT_PROP_CACHE_FLUSH) {
        row_new(t);
        row_str(t, "Cache Flush Interval");
        row_str(t, "%u sec", now.cache_flush_s);
    }
}

/* Rebuild rate and friends alone: /c0 show rebuildrate etc. */
void op_ctrl_show_props(Mrcli *m)
{
    MgmtCtrlProps cp;

    if (mgmt_call(m, MGMT_OP_CTRL_GET_PROPS, 0, 0, 0, 0, NULL, 0, &cp,
                  sizeof(cp), NULL, NULL) == 0) {
        emit_props(m, &cp, "Controller Properties");
    }
}

/* How often "show events seq=N wait=S" asks for the newest entry. */
#define EVENT_POLL_MS 200

static const char *ev_class(int c)
{
    static const char *const n[] = {
        "Controller", "Drive", "VD", "Job", "CacheVault", "Config",
    };

    return c >= 0 && c < 6 ? n[c] : "Unknown";
}

static const char *ev_severity(int s)
{
    static const char *const n[] = { "Info", "Warning", "Critical", "Fatal" };

    return s >= 0 && s < 4 ? n[s] : "Unknown";
}

void op_ctrl_events(Mrcli *m)
{
    static const char *const cols[] = {
        "Seq", "Time", "Code", "Class", "Severity", "Target", "Description",
        NULL,
    };
    MgmtEvlogInfo li;
    MgmtEvent *ev;
    const char *v;
    unsigned long long seq = 0, cnt = 0, wait_s = 0;
    const struct timespec poll = {
        .tv_nsec = EVENT_POLL_MS * 1000000L,
    };
    bool have_seq = false;
    uint32_t n, total;
    MrSection *s, *t;

    v = arg_kv(m, "seq");
    if (v) {
        if (!parse_uint(m, "seq", v, UINT32_MAX, &seq)) {
            return;
        }
        have_seq = true;
    }
    v = arg_kv(m, "count");
    if (v && !parse_uint(m, "count", v, 100000, &cnt)) {
        return;
    }
    v = arg_kv(m, "wait");
    if (v && !parse_uint(m, "wait", v, 86400, &wait_s)) {
        return;
    }
    if (!args_all_used(m)) {
        return;
    }
    if (v && !have_seq) {
        usage_error(m, "wait= needs seq= (the sequence number to wait for)");
        return;
    }
    /* wait=S: poll the log until entry seq exists, for at most S seconds */
    for (unsigned long long polls = 0; ; polls++) {
        if (mgmt_call(m, MGMT_OP_EVLOG_INFO, 0, 0, 0, 0, NULL, 0, &li,
                      sizeof(li), NULL, NULL) < 0) {
            return;
        }
        if (!v || li.newest_seq >= seq) {
            break;
        }
        if (polls >= wait_s * 1000 / EVENT_POLL_MS) {
            out_fail(m->out, "no event %llu within %llu s (newest: %u)", seq,
                     wait_s, li.newest_seq);
            return;
        }
        nanosleep(&poll, NULL);
    }
    s = out_props(m->out, "Event Log");
    sec_num(s, "Oldest Sequence", li.oldest_seq);
    sec_num(s, "Newest Sequence", li.newest_seq);
    sec_num(s, "Entries", li.count);
    sec_num(s, "Capacity", li.capacity);
    sec_num(s, "Boot Sequence", li.boot_seq);
    sec_num(s, "Clear Sequence", li.clear_seq);
    sec_num(s, "Shutdown Sequence", li.shutdown_seq);
    if (!have_seq) {
        /* count=N alone: the newest N entries */
        seq = li.oldest_seq;
        if (cnt && li.newest_seq >= cnt && li.newest_seq - cnt + 1 > seq) {
            seq = li.newest_seq - cnt + 1;
        }
    }
    t = out_table(m->out, "Events", cols);
    if (!li.count) {
        return;
    }
    ev = mgmt_list(m, MGMT_OP_EVLOG_READ, seq, cnt, sizeof(*ev), &n, &total);
    if (!ev) {
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        time_t secs = ev[i].time_ms / 1000;
        struct tm tm;
        char when[40], text[MGMT_EV_TEXT_LEN + 1];

        gmtime_r(&secs, &tm);
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
        str_field(text, ev[i].text, MGMT_EV_TEXT_LEN);
        row_new(t);
        row_num(t, ev[i].seq);
        row_str(t, "%s.%03u", when, (unsigned)(ev[i].time_ms % 1000));
        row_str(t, "0x%04x", ev[i].code);
        row_str(t, "%s", ev_class(ev[i].cls));
        row_str(t, "%s", ev_severity(ev[i].severity));
        if (ev[i].target < 0) {
            row_str(t, "-");
        } else if (ev[i].cls == 1) {
            row_str(t, "/c%d/e%d/s%d",
                    m->obj.ctrl, mrcli_eid(m), ev[i].target);
        } else if (ev[i].cls == 2 || ev[i].cls == 3) {
            row_str(t, "/c%d/v%d", m->obj.ctrl, ev[i].target);
        } else {
            row_num(t, ev[i].target);
        }
        row_str(t, "%s", text);
    }
    free(ev);
}

void op_cv_show(Mrcli *m)
{
    MgmtCvStatus cv;
    MrSection *s;
    char b[32];

    if (!args_all_used(m) ||
        mgmt_call(m, MGMT_OP_CV_STATUS, 0, 0, 0, 0, NULL, 0, &cv, sizeof(cv),
                  NULL, NULL) < 0) {
        return;
    }
    s = out_props(m->out, "Cachevault_Info");
    sec_str(s, "State", "%s", cv_state_name(cv.state));
    sec_str(s, "Write-Back Allowed", "%s", cv.write_back_ok ? "Yes" : "No");
    sec_str(s, "Cache Size", "%s", size_str(cv.cache_bytes, b));
    sec_str(s, "Dirty Cache", "%s", size_str(cv.dirty_bytes, b));
    sec_str(s, "Flush Interval", "%u sec", cv.flush_interval_s);
    sec_num(s, "Journal Records", cv.journal_records);
    sec_str(s, "Journal Size", "%s", size_str(cv.journal_bytes, b));
}

void op_foreign(Mrcli *m, int what)
{
    static const char *const cols[] = {
        "EID:Slt", "State in its configuration", "VDs", "Written by", NULL,
    };
    MgmtForeignEntry *f;
    uint32_t n, total;
    MrSection *t, *s;

    if (!args_all_used(m)) {
        return;
    }
    if (what == 1 || what == 2) {
        uint32_t op = what == 1 ? MGMT_OP_FOREIGN_IMPORT :
            MGMT_OP_FOREIGN_CLEAR;

        if (mgmt_call(m, op, MGMT_NONE32, 0, 0, 0, NULL, 0, NULL, 0, NULL,
                      NULL) < 0) {
            return;
        }
        out_note(m->out, "%s", what == 1 ?
                 "Foreign configuration imported" :
                 "Foreign configuration deleted");
        return;
    }
    f = mgmt_list(m, MGMT_OP_FOREIGN_SHOW, 0, 0, sizeof(*f), &n, &total);
    if (!f) {
        return;
    }
    s = out_props(m->out, "Foreign Configuration");
    sec_num(s, "Foreign Drives", n);
    t = out_table(m->out, "Foreign Drives List", cols);
    for (uint32_t i = 0; i < n; i++) {
        char guid[49];

        for (int k = 0; k < 24; k++) {
            snprintf(guid + 2 * k, 3, "%02x", f[i].ctrl_guid[k]);
        }
        row_new(t);
        row_str(t, "%d:%u", mrcli_eid(m), f[i].slot);
        row_str(t, "%s", pd_state_name(f[i].foreign_state));
        row_num(t, f[i].nvds);
        row_str(t, "%s", guid);
    }
    free(f);
}
