/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the storcli commands and documents beyond mrcli's own: storcli
 * v1's "/cx show all" document (Basics, Version, Bus, Status, HwCfg,
 * Policies, Capabilities, Scheduled Tasks, the counts at the top, VD,
 * PD, enclosure and Cachevault lists), the drive details under
 * "Drive /cx/ex/sx - Detailed Information", and the probe commands tools
 * gate a run on (show time, aso, autoconfig, cc, /cx/cv show status,
 * /cx/bbu show, drive show initialization).  Commands whose operation
 * the management protocol lacks get storcli's failure document.
 */
#include "mrcli.h"
#include "mfi.h"
#include "out.h"
#include "storcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

const char *const storcli_ctrl_prop_cols[] = {
    "Ctrl_Prop", "Value", NULL,
};

/* The controller answers (else the document failed, exit status 3). */
static bool ctrl_present(Mrcli *m)
{
    MgmtCtrlInfo ci;

    return mgmt_call(m, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0, &ci,
                     sizeof(ci), NULL, NULL) == 0;
}

/* storcli's "un-supported command" for what the protocol cannot do. */
static void unsupported(Mrcli *m, const char *what)
{
    if (!ctrl_present(m)) {
        return;
    }
    out_fail(m->out, "%s: un-supported command (the emulated controller's "
             "management protocol has no such operation)", what);
    out_errcd(m->out, MRCLI_ERRCD_SYNTAX);
    m->exit_status = MRCLI_EXIT_FAILED;
}

/* "12/03/2026, 10:43:26" as storcli prints date and time. */
static void now_str(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    localtime_r(&t, &tm);
    strftime(buf, len, "%m/%d/%Y, %H:%M:%S", &tm);
}

static const char *driver_name(const Mrcli *m)
{
    return m->mfi ? "megaraid_sas" : "mpi3mr";
}

static void driver_version(const Mrcli *m, char *buf, size_t len)
{
    char path[96];
    FILE *f;

    snprintf(path, sizeof(path), "/sys/module/%s/version", driver_name(m));
    f = fopen(path, "r");
    buf[0] = 0;
    if (f) {
        if (fgets(buf, len, f)) {
            buf[strcspn(buf, "\n")] = 0;
        }
        fclose(f);
    }
    if (!buf[0]) {
        snprintf(buf, len, "Unknown");
    }
}

static const char *const vd_list_cols[] = {
    "DG/VD", "TYPE", "State", "Access", "Consist", "Cache", "Cac", "sCC",
    "Size", "Name", NULL,
};

static void vd_list_row(MrSection *t, const MgmtVdEntry *v)
{
    char b[32], c[16], nm[MGMT_VD_NAME_LEN + 1];

    row_new(t);
    row_str(t, "%u/%u", v->dg, v->vd);
    row_str(t, "%s", level_name(v->level));
    row_str(t, "%s", vd_state_abbr(v->state));
    row_str(t, "RW");
    row_str(t, "%s", v->flags & MGMT_VD_F_CONSISTENT ? "Yes" : "No");
    row_str(t, "%s", cache_str(v, c));
    row_str(t, "-");
    row_str(t, "OFF");
    row_str(t, "%s", size_str(v->blocks * 512, b));
    row_str(t, "%s", vd_name(v, nm));
}

static const char *const pd_list_cols[] = {
    "EID:Slt", "DID", "State", "DG", "Size", "Intf", "Med", "SED", "PI",
    "SeSz", "Model", "Sp", "Type", NULL,
};

static const char *pd_state_v1(const MgmtPdEntry *p)
{
    if (p->flags & MGMT_PD_F_GLOBAL_SPARE) {
        return "GHS";
    }
    if (p->flags & MGMT_PD_F_DEDICATED_SPARE) {
        return "DHS";
    }
    return pd_state_abbr(p->state);
}

static void pd_list_row(Mrcli *m, MrSection *t, const MgmtPdEntry *p,
                        const char *model)
{
    char b[32];

    row_new(t);
    row_str(t, "%d:%u", mrcli_eid(m), p->slot);
    row_num(t, p->dev_handle);
    row_str(t, "%s", pd_state_v1(p));
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
    row_str(t, "N");
    row_str(t, "N");
    row_str(t, "%uB", p->block_size);
    row_str(t, "%s", model);
    row_str(t, "%s", p->flags & MGMT_PD_F_EXPOSED ? "U" : "D");
    row_str(t, "%s", p->state == MGMT_PD_JBOD ? "JBOD" : "-");
}

static void pd_text(const MgmtPdInfo *pi, StorcliPdText *tx)
{
    text_field(tx->vendor, pi->vendor, sizeof(pi->vendor));
    text_field(tx->model, pi->model, sizeof(pi->model));
    text_field(tx->serial, pi->serial, sizeof(pi->serial));
    text_field(tx->fw, pi->firmware, sizeof(pi->firmware));
}

/* The drive's model and predictive failure count, for the lists. */
static void pd_model(Mrcli *m, const MgmtPdEntry *p, char *model,
                     size_t len, uint32_t *pred)
{
    MgmtPdInfo pi;
    StorcliPdText tx;
    MrOut *keep = m->out, *scratch = out_new(m->obj.ctrl, false);

    /* a drive that went away between the list and here: no model */
    m->out = scratch;
    *pred = 0;
    if (mgmt_call(m, MGMT_OP_PD_INFO, p->slot, 0, 0, 0, NULL, 0, &pi,
                  sizeof(pi), NULL, NULL) == 0) {
        pd_text(&pi, &tx);
        snprintf(model, len, "%s", tx.model);
        *pred = pi.predictive_failures;
    } else {
        snprintf(model, len, "-");
    }
    m->out = keep;
    out_free(scratch);
}

/*
 * Where member @p sits in its drive group: *@arr its span ("Arr" of
 * storcli's TOPOLOGY), *@row its position in the span; -1 when the
 * firmware does not say (a drive gone since the list was read).
 */
void storcli_pd_place(Mrcli *m, const MgmtPdEntry *p, int *arr, int *row)
{
    MgmtPdInfo pi;
    MrOut *keep = m->out, *scratch = out_new(m->obj.ctrl, false);

    m->out = scratch;
    *arr = *row = -1;
    if (mgmt_call(m, MGMT_OP_PD_INFO, p->slot, 0, 0, 0, NULL, 0, &pi,
                  sizeof(pi), NULL, NULL) == 0 && pi.span != MGMT_NONE16) {
        *arr = pi.span;
        *row = pi.span_pos == MGMT_NONE16 ? -1 : pi.span_pos;
    }
    m->out = keep;
    out_free(scratch);
}

/* A TOPOLOGY cell: the number, or "-" when there is none. */
void storcli_row_place(MrSection *t, int v)
{
    if (v < 0) {
        row_str(t, "-");
    } else {
        row_num(t, v);
    }
}

/* storcli2's "/cx show all" from what ctrl_show_all read. */
static void ctrl_show_all2(Mrcli *m, StorcliCtrl *c)
{
    struct tm tm;
    time_t now = time(NULL);

    c->pd_model = calloc(c->npd ? c->npd : 1, sizeof(*c->pd_model));
    c->pd_pred = calloc(c->npd ? c->npd : 1, sizeof(*c->pd_pred));
    if (!c->pd_model || !c->pd_pred) {
        fputs("mrcli: out of memory\n", stderr);
        exit(MRCLI_EXIT_IO);
    }
    for (uint32_t i = 0; i < c->npd; i++) {
        pd_model(m, &c->pds[i], c->pd_model[i], sizeof(c->pd_model[i]),
                 &c->pd_pred[i]);
    }
    localtime_r(&now, &tm);
    strftime(c->time2, sizeof(c->time2), "%Y/%m/%d %H:%M:%S", &tm);
    c->driver = driver_name(m);
    driver_version(m, c->driver_version, sizeof(c->driver_version));
    c->levels[0] = 0;
    for (int l = 0; l < 64; l++) {
        if (c->ci.levels & (1ull << l)) {
            size_t n = strlen(c->levels);

            snprintf(c->levels + n, sizeof(c->levels) - n, "%s%s",
                     n ? ", " : "", level_name(l));
        }
    }
    storcli2_ctrl_show_all(m, c);
    free(c->pd_model);
    free(c->pd_pred);
}

static void ctrl_show_all(Mrcli *m, bool brief)
{
    static const char *const topo_cols[] = {
        "DG", "Arr", "Row", "EID:Slot", "DID", "Type", "State", "BT", "Size",
        "PDC", "PI", "SED", "DS3", "FSpace", "TR", NULL,
    };
    static const char *const encl_cols[] = {
        "EID", "State", "Slots", "PD", "PS", "Fans", "TSs", "Alms", "SIM",
        "Port#", "ProdID", "VendorSpecific", NULL,
    };
    static const char *const cv_cols[] = {
        "Model", "State", "Temp", "Mode", "MfgDate", NULL,
    };
    MgmtCtrlInfo ci;
    MgmtCtrlProps cp;
    MgmtCvStatus cv;
    MgmtVdEntry *vds;
    MgmtPdEntry *pds;
    uint32_t nvd, npd, tot;
    char prod[33], serial[33], fw[33], b[64], t1[32];
    MrSection *s, *t;
    bool attention = false;

    if (!args_all_used(m) ||
        mgmt_call(m, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0, &ci,
                  sizeof(ci), NULL, NULL) < 0 ||
        mgmt_call(m, MGMT_OP_CTRL_GET_PROPS, 0, 0, 0, 0, NULL, 0, &cp,
                  sizeof(cp), NULL, NULL) < 0 ||
        mgmt_call(m, MGMT_OP_CV_STATUS, 0, 0, 0, 0, NULL, 0, &cv,
                  sizeof(cv), NULL, NULL) < 0) {
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
    text_field(prod, ci.product, sizeof(ci.product));
    text_field(serial, ci.serial, sizeof(ci.serial));
    text_field(fw, ci.fw_version, sizeof(ci.fw_version));
    if (m->dialect == MR_DIALECT_V2) {
        StorcliCtrl c = {
            .ci = ci, .cp = cp, .cv = cv, .vds = vds, .nvd = nvd,
            .pds = pds, .npd = npd,
        };

        snprintf(c.product, sizeof(c.product), "%s", prod);
        snprintf(c.serial, sizeof(c.serial), "%s", serial);
        snprintf(c.fw, sizeof(c.fw), "%s", fw);
        ctrl_show_all2(m, &c);
        free(vds);
        free(pds);
        return;
    }

    if (brief) {
        /* "/cx show": the summary values at the top, then the lists */
        char t1b[32], dv[64];

        now_str(t1b, sizeof(t1b));
        driver_version(m, dv, sizeof(dv));
        out_str(m->out, "Product Name", "%s", prod);
        out_str(m->out, "Serial Number", "%s", serial);
        out_str(m->out, "System Time", "%s", t1b);
        out_str(m->out, "Controller Time", "%s", t1b);
        out_str(m->out, "FW Package Build", "%s", fw);
        out_str(m->out, "FW Version", "%s", fw);
        out_str(m->out, "Driver Name", "%s", driver_name(m));
        out_str(m->out, "Driver Version", "%s", dv);
        out_str(m->out, "Vendor Id", "0x%04X", ci.pci_vendor);
        out_str(m->out, "Device Id", "0x%04X", ci.pci_device);
        out_str(m->out, "SubVendor Id", "0x%04X", ci.pci_subvendor);
        out_str(m->out, "SubDevice Id", "0x%04X", ci.pci_subdevice);
        out_str(m->out, "Host Interface", "PCI-E");
        out_str(m->out, "Device Interface", "SAS-12G");
        out_str(m->out, "Current Personality", "RAID-Mode ");
        goto lists;
    }
    s = out_props(m->out, "Basics");
    sec_num(s, "Controller", m->obj.ctrl);
    sec_str(s, "Model", "%s", prod);
    sec_str(s, "Serial Number", "%s", serial);
    now_str(t1, sizeof(t1));
    /* the drivers hand the card the host's time at load: the same clock */
    sec_str(s, "Current Controller Date/Time", "%s", t1);
    sec_str(s, "Current System Date/time", "%s", t1);
    sec_str(s, "Mfg. Date", "00/00/00");
    sec_str(s, "Rework Date", "00/00/00");
    sec_str(s, "Revision No", "00");

    s = out_props(m->out, "Version");
    sec_str(s, "Firmware Package Build", "%s", fw);
    sec_str(s, "Firmware Version", "%s", fw);
    sec_str(s, "Driver Name", "%s", driver_name(m));
    driver_version(m, b, sizeof(b));
    sec_str(s, "Driver Version", "%s", b);

    s = out_props(m->out, "Bus");
    sec_str(s, "Vendor Id", "0x%04X", ci.pci_vendor);
    sec_str(s, "Device Id", "0x%04X", ci.pci_device);
    sec_str(s, "SubVendor Id", "0x%04X", ci.pci_subvendor);
    sec_str(s, "SubDevice Id", "0x%04X", ci.pci_subdevice);
    sec_str(s, "Host Interface", "PCI-E");
    sec_str(s, "Device Interface", "SAS-12G");

    s = out_props(m->out, "Pending Images in Flash");
    sec_str(s, "Image name", "No pending images");

    s = out_props(m->out, "Status");
    sec_str(s, "Controller Status", "%s", attention ? "Needs Attention" :
            "Optimal");
    sec_num(s, "Memory Correctable Errors", 0);
    sec_num(s, "Memory Uncorrectable Errors", 0);
    sec_num(s, "ECC Bucket Count", 0);
    sec_str(s, "Any Offline VD Cache Preserved", "No");
    /* storcli's BBU status word: 0 is a healthy CacheVault */
    if (cv.state == MGMT_CV_OPTIMAL) {
        sec_num(s, "BBU Status", 0);
    } else if (cv.state == MGMT_CV_ABSENT) {
        sec_str(s, "BBU Status", "NA");
    } else {
        sec_num(s, "BBU Status", 1);
    }
    sec_str(s, "PD Firmware Download in progress", "No");
    sec_str(s, "Support PD Firmware Download", "No");
    sec_str(s, "Lock Key Assigned", "No");
    sec_str(s, "Controller has booted into safe mode", "No");

    s = out_props(m->out, "Supported Adapter Operations");
    sec_str(s, "Rebuild Rate", "Yes");
    sec_str(s, "CC Rate", "Yes");
    sec_str(s, "BGI Rate ", "Yes");
    sec_str(s, "Patrol Read Rate", "No");
    sec_str(s, "Alarm Control", "No");
    sec_str(s, "Cluster Support", "No");
    sec_str(s, "BBU", "No");
    sec_str(s, "Spanning", ci.max_spans > 1 ? "Yes" : "No");
    sec_str(s, "Dedicated Hot Spare", ci.max_dedicated_spares ? "Yes" :
            "No");
    sec_str(s, "Revertible Hot Spares", "No");
    sec_str(s, "Foreign Config Import", "Yes");
    sec_str(s, "Self Diagnostic", "No");
    sec_str(s, "Allow Mixed Redundancy on Array", "No");
    sec_str(s, "Global Hot Spares", ci.max_global_spares ? "Yes" : "No");
    sec_str(s, "Deny SCSI Passthrough", "No");
    sec_str(s, "Support Security", "No");
    sec_str(s, "Support JBOD", "Yes");

    s = out_props(m->out, "HwCfg");
    sec_str(s, "ChipRevision", " A0");
    sec_str(s, "BatteryFRU", "N/A");
    sec_num(s, "Front End Port Count", 0);
    sec_num(s, "Backend Port Count", ci.max_pds < 16 ? 8 : 16);
    sec_str(s, "BBU", "Absent");
    sec_str(s, "Alarm", "Absent");
    sec_str(s, "Serial Debugger", "Absent");
    sec_str(s, "On Board Memory Size", "%lluMB",
            (unsigned long long)(ci.cache_bytes >> 20));
    sec_str(s, "CacheVault Flash Size", "%s",
            cv.state == MGMT_CV_ABSENT ? "NA" : size_str(cv.cache_bytes, b));
    sec_str(s, "TPM", "Absent");
    sec_str(s, "Upgrade Key", "Absent");
    sec_str(s, "On Board Expander", "Absent");
    sec_str(s, "Temperature Sensor for ROC", ci.roc_temp_c ? "Present" :
            "Absent");
    sec_str(s, "Temperature Sensor for Controller", "Absent");
    sec_str(s, "Current Size of FW Cache (MB)", "%llu",
            (unsigned long long)(cv.cache_bytes >> 20));
    if (ci.roc_temp_c) {
        sec_num(s, "ROC temperature(Degree Celsius)", ci.roc_temp_c);
    }

    s = out_props(m->out, "Policies");
    sec_str(s, "Rebuild Rate", "%u %%", cp.rebuild_rate);
    sec_str(s, "CC Rate", "%u %%", cp.cc_rate);
    sec_str(s, "BGI Rate", "%u %%", cp.init_rate);
    sec_str(s, "Auto Rebuild", "%s", cp.auto_rebuild ? "On" : "Off");
    sec_str(s, "Flush Time(Default)", "%us", cp.cache_flush_s);

    s = out_props(m->out, "Defaults");
    sec_str(s, "Strip Size", "64 KB");
    sec_str(s, "Write Policy", "WB");
    sec_str(s, "Read Policy", "RA");
    sec_str(s, "Default spin down time in minutes", "0");
    sec_str(s, "Enable JBOD", "Yes");

    s = out_props(m->out, "Capabilities");
    sec_str(s, "Supported Drives", "SAS, SATA, NVMe");
    {
        char levels[160] = "";

        for (int l = 0; l < 64; l++) {
            if (ci.levels & (1ull << l)) {
                size_t n = strlen(levels);

                snprintf(levels + n, sizeof(levels) - n, "%s%s",
                         n ? ", " : "", level_name(l));
            }
        }
        sec_str(s, "RAID Level Supported", "%s", levels);
    }
    sec_str(s, "Enable JBOD", "Yes");
    sec_str(s, "Mix in Enclosure", "Allowed");
    sec_str(s, "Mix of SAS/SATA of HDD type in VD", "Allowed");
    sec_num(s, "Max Arms Per VD", ci.max_drives_per_span);
    sec_num(s, "Max Spans Per VD", ci.max_spans);
    sec_num(s, "Max Arrays", ci.max_dgs);
    sec_num(s, "Max VD per array", ci.max_vds_per_dg);
    sec_num(s, "Max Number of VDs", ci.max_vds);
    sec_str(s, "Min Strip Size", "%u KB", ci.strip_min_kib);
    sec_str(s, "Max Strip Size", "%s", ci.strip_max_kib >= 1024 ?
            "1.000 MB" : "512 KB");

    s = out_props(m->out, "Scheduled Tasks");
    sec_str(s, "Consistency Check Reoccurrence", "NA");
    sec_str(s, "Next Consistency check launch", "NA");
    sec_str(s, "Patrol Read Reoccurrence", "%s",
            cp.patrol_read ? "168 hrs" : "NA");
    sec_str(s, "Next Patrol Read launch", "NA");
    sec_str(s, "Battery learn Reoccurrence", "NA");
    sec_str(s, "OEMID", "Broadcom");

lists:
    out_num(m->out, "Drive Groups", ci.num_dgs);
    t = out_table(m->out, "TOPOLOGY", topo_cols);
    for (uint32_t i = 0; i < nvd; i++) {
        row_new(t);
        row_num(t, vds[i].dg);
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "%s", level_name(vds[i].level));
        row_str(t, "%s", vd_state_abbr(vds[i].state));
        row_str(t, "N");
        row_str(t, "%s", size_str(vds[i].blocks * 512, b));
        row_str(t, "dflt");
        row_str(t, "N");
        row_str(t, "N");
        row_str(t, "none");
        row_str(t, "N");
        row_str(t, "N");
    }
    for (uint32_t i = 0; i < npd; i++) {
        int arr, row;

        if (pds[i].dg == MGMT_NONE16) {
            continue;
        }
        storcli_pd_place(m, &pds[i], &arr, &row);
        row_new(t);
        row_num(t, pds[i].dg);
        storcli_row_place(t, arr);
        storcli_row_place(t, row);
        row_str(t, "%d:%u", mrcli_eid(m), pds[i].slot);
        row_num(t, pds[i].dev_handle);
        row_str(t, "DRIVE");
        row_str(t, "%s", pd_state_v1(&pds[i]));
        row_str(t, "N");
        row_str(t, "%s", size_str(pds[i].blocks * pds[i].block_size, b));
        row_str(t, "dflt");
        row_str(t, "N");
        row_str(t, "N");
        row_str(t, "none");
        row_str(t, "-");
        row_str(t, "N");
    }
    out_num(m->out, "Virtual Drives", nvd);
    t = out_table(m->out, "VD LIST", vd_list_cols);
    for (uint32_t i = 0; i < nvd; i++) {
        vd_list_row(t, &vds[i]);
    }
    out_num(m->out, "Physical Drives", npd);
    t = out_table(m->out, "PD LIST", pd_list_cols);
    for (uint32_t i = 0; i < npd; i++) {
        char model[49];
        uint32_t pred;

        pd_model(m, &pds[i], model, sizeof(model), &pred);
        pd_list_row(m, t, &pds[i], model);
    }
    out_num(m->out, "Enclosures", 1);
    t = out_table(m->out, "Enclosure LIST", encl_cols);
    row_new(t);
    row_num(t, mrcli_eid(m));
    row_str(t, "OK");
    row_num(t, ci.max_pds);
    row_num(t, npd);
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 1);
    row_str(t, "-");
    row_str(t, "VirtualSES");
    row_str(t, " ");
    if (cv.state != MGMT_CV_ABSENT) {
        t = out_table(m->out, "Cachevault_Info", cv_cols);
        row_new(t);
        row_str(t, "CVPM05");
        row_str(t, "%s", cv.state == MGMT_CV_OPTIMAL ? "Optimal" : "Failed");
        if (ci.cv_temp_c) {
            row_str(t, "%uC", ci.cv_temp_c);
        } else {
            row_str(t, "NA");
        }
        row_str(t, "-");
        row_str(t, "NA");
    }
    free(vds);
    free(pds);
}

const char *storcli_link_speed(int iface)
{
    switch (iface) {
    case MGMT_IF_SATA:
        return "6.0Gb/s";
    case MGMT_IF_SAS:
        return "12.0Gb/s";
    default:
        return "8.0GT/s";
    }
}

/* The drive details storcli.py and friends look drives up by. */
static void pd_detail(Mrcli *m, const MgmtPdInfo *pi)
{
    char id[48], key[128], vendor[17], model[49], serial[33], fw[17];
    char b[32];
    MrSection *g, *s, *t;
    int eid = mrcli_eid(m);

    snprintf(id, sizeof(id), "Drive /c%d/e%d/s%u", m->obj.ctrl, eid,
             pi->e.slot);
    t = out_table(m->out, id, pd_list_cols);
    text_field(vendor, pi->vendor, sizeof(pi->vendor));
    text_field(model, pi->model, sizeof(pi->model));
    text_field(serial, pi->serial, sizeof(pi->serial));
    text_field(fw, pi->firmware, sizeof(pi->firmware));
    pd_list_row(m, t, &pi->e, model);
    snprintf(key, sizeof(key), "%s - Detailed Information", id);
    g = out_group(m->out, NULL, key);
    snprintf(key, sizeof(key), "%s State", id);
    s = out_props_in(m->out, g, key);
    sec_num(s, "Shield Counter", 0);
    /* reported by the drive, plus the reads and writes that hit media */
    sec_num(s, "Media Error Count", (long long)pi->media_error_count +
            pi->read_errors + pi->write_errors);
    sec_num(s, "Other Error Count", pi->other_errors);
    if (pi->temperature_c) {
        sec_str(s, "Drive Temperature", "%3uC (%.2f F)", pi->temperature_c,
                pi->temperature_c * 9.0 / 5.0 + 32.0);
    } else {
        sec_str(s, "Drive Temperature", "NA");
    }
    sec_num(s, "Predictive Failure Count", pi->predictive_failures);
    sec_str(s, "S.M.A.R.T alert flagged by drive", "%s",
            pi->smart_alert ? "Yes" : "No");
    snprintf(key, sizeof(key), "%s Device attributes", id);
    s = out_props_in(m->out, g, key);
    sec_str(s, "SN", "%s", serial);
    sec_str(s, "Manufacturer Id", "%s", vendor);
    sec_str(s, "Model Number", "%s", model);
    sec_str(s, "NAND Vendor", "NA");
    if (pi->wwn) {
        sec_str(s, "WWN", "%016llX", (unsigned long long)pi->wwn);
    } else {
        sec_str(s, "WWN", "NA");
    }
    sec_str(s, "Firmware Revision", "%s", fw);
    sec_str(s, "Raw size", "%s [0x%llx Sectors]",
            size_str(pi->e.blocks * pi->e.block_size, b),
            (unsigned long long)pi->e.blocks);
    sec_str(s, "Coerced size", "%s [0x%llx Sectors]",
            size_str(pi->usable_sectors * 512, b),
            (unsigned long long)pi->usable_sectors);
    sec_str(s, "Device Speed", "%s", storcli_link_speed(pi->e.interface));
    sec_str(s, "Link Speed", "%s", storcli_link_speed(pi->e.interface));
    sec_str(s, "Logical Sector Size", "%uB", pi->e.block_size);
    sec_str(s, "Physical Sector Size", "%uB", pi->e.block_size);
    snprintf(key, sizeof(key), "%s Policies/Settings", id);
    s = out_props_in(m->out, g, key);
    if (pi->e.dg != MGMT_NONE16) {
        snprintf(key, sizeof(key), "DriveGroup:%u, Span:%u, Row:%u",
                 pi->e.dg, pi->span, pi->span_pos);
    } else {
        snprintf(key, sizeof(key), "DriveGroup:-, Span:-, Row:-");
    }
    sec_str(s, "Drive position", "%s", key);
    sec_str(s, "Enclosure position", "1");
    sec_str(s, "Sequence Number", "2");
    sec_str(s, "Commissioned Spare", "%s",
            pi->e.flags & (MGMT_PD_F_GLOBAL_SPARE |
                           MGMT_PD_F_DEDICATED_SPARE) ? "Yes" : "No");
    sec_str(s, "Emergency Spare", "No");
    sec_str(s, "Last Predictive Failure Event Sequence Number", "0");
    sec_str(s, "Successful diagnostics completion on", "N/A");
    sec_str(s, "FDE Type", "None");
    sec_str(s, "SED Capable", "No");
    sec_str(s, "SED Enabled", "No");
    sec_str(s, "Secured", "No");
    sec_str(s, "Locked", "No");
    sec_str(s, "Needs EKM Attention", "No");
    sec_str(s, "PI Eligible", "No");
    sec_str(s, "Drive is formatted for PI", "No");
    sec_str(s, "Port Information", "-");
}

static void pd_show_all(Mrcli *m)
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
        MgmtPdInfo pi;

        if (!m->obj.all && p[i].slot != m->obj.index) {
            continue;
        }
        if (mgmt_call(m, MGMT_OP_PD_INFO, p[i].slot, 0, 0, 0, NULL, 0, &pi,
                      sizeof(pi), NULL, NULL) < 0) {
            break;
        }
        if (m->dialect == MR_DIALECT_V2) {
            StorcliPdText tx;

            pd_text(&pi, &tx);
            storcli2_pd_detail(m, out_list(m->out, NULL, "Drives List"), &pi,
                               &tx);
            out_set_desc(m->out, "Show Drive Information Succeeded.");
        } else {
            pd_detail(m, &pi);
        }
        shown++;
    }
    free(p);
    if (!shown && !out_failed(m->out)) {
        out_fail(m->out, "No drive found at /c%d/e%d/s%d", m->obj.ctrl,
                 mrcli_eid(m), m->obj.index);
        m->exit_status = MRCLI_EXIT_FAILED;
    }
}

/* "/cx/ex/sx show", "/cx/eall/sall show": the Drive Information table */
static void pd_show_list(Mrcli *m)
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
        char model[49];
        uint32_t pred;

        if (!m->obj.all && p[i].slot != m->obj.index) {
            continue;
        }
        pd_model(m, &p[i], model, sizeof(model), &pred);
        if (m->dialect == MR_DIALECT_V2) {
            storcli2_pd_table(m, "Drive Information", &p[i], model);
        } else {
            pd_list_row(m, out_table(m->out, "Drive Information",
                                     pd_list_cols), &p[i], model);
        }
        shown++;
    }
    free(p);
    if (!shown) {
        out_fail(m->out, "No drive found at /c%d/e%d/s%d", m->obj.ctrl,
                 mrcli_eid(m), m->obj.index);
        m->exit_status = MRCLI_EXIT_FAILED;
    }
}

/* "/cx/vx show", "/cx/vall show": the Virtual Drives table (v1) */
static void vd_show_list(Mrcli *m)
{
    MgmtVdEntry *v;
    uint32_t n, total, shown = 0;
    MrSection *t;

    if (!args_all_used(m)) {
        return;
    }
    v = mgmt_list(m, MGMT_OP_VD_LIST, 0, 0, sizeof(*v), &n, &total);
    if (!v) {
        return;
    }
    t = out_table(m->out, "Virtual Drives", vd_list_cols);
    for (uint32_t i = 0; i < n; i++) {
        if (m->obj.all || v[i].vd == m->obj.index) {
            vd_list_row(t, &v[i]);
            shown++;
        }
    }
    free(v);
    if (!shown && !m->obj.all) {
        out_fail(m->out, "VD %d does not exist", m->obj.index);
        m->exit_status = MRCLI_EXIT_FAILED;
    }
}

static void ctrl_show_time(Mrcli *m)
{
    char t1[32];
    MrSection *t;

    if (!args_all_used(m) || !ctrl_present(m)) {
        return;
    }
    now_str(t1, sizeof(t1));
    t = out_table(m->out, "Controller Properties", storcli_ctrl_prop_cols);
    row_new(t);
    row_str(t, "Time");
    row_str(t, "%s", t1);
}

static void ctrl_show_aso(Mrcli *m)
{
    static const char *const cols[] = {
        "Adv S/W Opt", "Time Remaining", "Mode", NULL,
    };
    MgmtCtrlInfo ci;
    MrSection *t;

    if (!args_all_used(m) ||
        mgmt_call(m, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0, &ci,
                  sizeof(ci), NULL, NULL) < 0) {
        return;
    }
    t = out_table(m->out, "Cntrl Advanced Software Option", cols);
    if (ci.levels & (1u << MGMT_LEVEL_5)) {
        row_new(t);
        row_str(t, "MegaRAID RAID5");
        row_str(t, "Unlimited");
        row_str(t, "-");
    }
    if (ci.levels & (1u << MGMT_LEVEL_6)) {
        row_new(t);
        row_str(t, "MegaRAID RAID6");
        row_str(t, "Unlimited");
        row_str(t, "-");
    }
}

static void ctrl_show_prop(Mrcli *m, const char *prop, const char *value)
{
    MrSection *t;

    if (!args_all_used(m) || !ctrl_present(m)) {
        return;
    }
    t = out_table(m->out, "Controller Properties", storcli_ctrl_prop_cols);
    row_new(t);
    row_str(t, "%s", prop);
    row_str(t, "%s", value);
}

static void pd_show_init(Mrcli *m)
{
    static const char *const cols[] = {
        "Drive-ID", "Progress%", "Status", "Estimated Time Left", NULL,
    };
    MgmtPdEntry *p;
    uint32_t n, total;
    MrSection *t;

    if (!args_all_used(m)) {
        return;
    }
    p = mgmt_list(m, MGMT_OP_PD_LIST, 0, 0, sizeof(*p), &n, &total);
    if (!p) {
        return;
    }
    /* the core has no drive erase/initialize job: never in progress */
    t = out_table(m->out, "Drive Information", cols);
    for (uint32_t i = 0; i < n; i++) {
        if (!m->obj.all && p[i].slot != m->obj.index) {
            continue;
        }
        row_new(t);
        row_str(t, "/c%d/e%d/s%u", m->obj.ctrl, mrcli_eid(m), p[i].slot);
        row_progress(t, NULL, 0, 0);
    }
    free(p);
}

/*
 * start|stop locate: MGMT_OP_PD_LOCATE (mbox[0] the drive, mbox[1] 1
 * start, 0 stop) where the protocol has it; storcli's "un-supported
 * command" otherwise.
 */
static void pd_locate(Mrcli *m, bool start)
{
    if (!args_all_used(m)) {
        return;
    }
    if (m->obj.all) {
        usage_error(m, "locate needs one drive, e.g. /c%d/e%d/s3",
                    m->obj.ctrl, mrcli_eid(m));
        return;
    }
#ifdef MGMT_OP_PD_LOCATE
    if (mgmt_call(m, MGMT_OP_PD_LOCATE, m->obj.index, start ? 1 : 0, 0, 0,
                  NULL, 0, NULL, 0, NULL, NULL) < 0) {
        m->exit_status = m->exit_status ? m->exit_status : MRCLI_EXIT_FAILED;
        return;
    }
    out_set_desc(m->out, start ? "Start Drive Locate Succeeded." :
                 "Stop Drive Locate Succeeded.");
#else
    unsupported(m, start ? "start locate" : "stop locate");
#endif
}

void storcli_overview(MrOut *o, MrDialect d, int n, bool all)
{
    static const char *const cols1[] = {
        "Ctl", "Model", "Ports", "PDs", "DGs", "DGDsbl", "VDs", "VDNA",
        "BBU", "sPR", "DS", "EHS", "ASOs", "Hlth", NULL,
    };
    static const char *const cols2[] = {
        "Ctrl", "Product Name", "SASAddress", "Personality", "Status",
        "PD(s)", "VD(s)", "VNOpt", "EPack", NULL,
    };
    MrSection *t = out_table(o, "System Overview",
                             d == MR_DIALECT_V2 ? cols2 : cols1);

    (void)all;      /* "show all": the same overview */
    for (int c = 0; c < n; c++) {
        Mrcli m;
        MgmtCtrlInfo ci;
        MgmtCtrlProps cp;
        MgmtVdEntry *vds = NULL;
        uint32_t nvd = 0, tot, bad = 0;
        char prod[33];
        bool ok;

        memset(&m, 0, sizeof(m));
        m.fd = -1;
        m.obj.ctrl = c;
        m.name_dialect = d;
        m.dialect = d;
        m.out = out_new(c, false);
        ok = mgmt_call(&m, MGMT_OP_CTRL_GET_INFO, 0, 0, 0, 0, NULL, 0, &ci,
                       sizeof(ci), NULL, NULL) == 0 &&
             mgmt_call(&m, MGMT_OP_CTRL_GET_PROPS, 0, 0, 0, 0, NULL, 0, &cp,
                       sizeof(cp), NULL, NULL) == 0 &&
             (vds = mgmt_list(&m, MGMT_OP_VD_LIST, 0, 0, sizeof(*vds), &nvd,
                              &tot)) != NULL;
        if (m.fd >= 0) {
            close(m.fd);
        }
        out_free(m.out);
        row_new(t);
        row_num(t, c);
        if (!ok) {
            row_str(t, "-");        /* the rest of the row: "-" */
            continue;
        }
        for (uint32_t i = 0; i < nvd; i++) {
            bad += vds[i].state != MGMT_VD_OPTIMAL;
        }
        free(vds);
        text_field(prod, ci.product, sizeof(ci.product));
        row_str(t, "%s", prod);
        if (d == MR_DIALECT_V2) {
            row_str(t, "-");
            row_str(t, "RAID");
            row_str(t, "%s", bad ? "Needs Attention" : "Optimal");
            row_num(t, ci.num_pds);
            row_num(t, ci.num_vds);
            row_num(t, bad);
            row_str(t, "%s", ci.cachevault == MGMT_CV_OPTIMAL ? "Optimal" :
                    ci.cachevault == MGMT_CV_ABSENT ? "Absent" : "Failed");
            continue;
        }
        row_num(t, ci.max_pds < 16 ? 8 : 16);
        row_num(t, ci.num_pds);
        row_num(t, ci.num_dgs);
        row_num(t, 0);
        row_num(t, ci.num_vds);
        row_num(t, bad);
        row_str(t, "%s", ci.cachevault == MGMT_CV_OPTIMAL ? "Opt" :
                ci.cachevault == MGMT_CV_ABSENT ? "Msng" : "Bad");
        row_str(t, "%s", cp.patrol_read ? "On" : "Off");
        row_str(t, "1&2");
        row_str(t, "Y");
        row_num(t, 2);
        row_str(t, "%s", bad ? "NdAtn" : "Opt");
    }
}

static bool storcli_names(const Mrcli *m)
{
    return m->name_dialect != MR_DIALECT_MRCLI;
}

bool storcli_dispatch(Mrcli *m)
{
    bool show = arg_is(m, 0, "show");
    int n = m->args.n;

    switch (m->obj.kind) {
    case OBJ_CTRL:
        if (show && n <= 2 && (n == 1 || arg_is(m, 1, "all")) &&
            storcli_names(m)) {
            arg_use(m, n);
            ctrl_show_all(m, n == 1);
            return true;
        }
        if (show && arg_is(m, 1, "time")) {
            arg_use(m, 2);
            ctrl_show_time(m);
            return true;
        }
        if (show && arg_is(m, 1, "aso")) {
            arg_use(m, 2);
            ctrl_show_aso(m);
            return true;
        }
        if (show && arg_is(m, 1, "autoconfig")) {
            arg_use(m, 2);
            ctrl_show_prop(m, "AutoConfig", "Off");
            return true;
        }
        if (show && arg_is(m, 1, "cc")) {
            arg_use(m, 2);
            ctrl_show_prop(m, "CC Operation Mode", "Disabled");
            return true;
        }
        if (show && arg_is(m, 1, "termlog")) {
            arg_use(m, 2);
            unsupported(m, "show termlog");
            return true;
        }
        if (arg_is(m, 0, "set") && n == 2 &&
            !strncasecmp(m->args.w[1], "jbod=", 5)) {
            arg_use(m, 2);
            if (!strcasecmp(m->args.w[1] + 5, "on")) {
                /* JBOD is always enabled on the emulated cards */
                ctrl_show_prop(m, "JBOD", "ON");
            } else {
                unsupported(m, "set jbod=off");
            }
            return true;
        }
        if (storcli_patrol(m)) {
            return true;        /* storcli-patrol.c */
        }
        return false;
    case OBJ_CV:
        if (show && n == 2 && arg_is(m, 1, "status")) {
            arg_use(m, 2);
            op_cv_show(m);
            return true;
        }
        return false;
    case OBJ_BBU:
        if (show) {
            arg_use(m, n);
            if (!ctrl_present(m)) {
                return true;
            }
            out_fail(m->out, "BBU is absent: the controller has a "
                     "CacheVault (/c%d/cv show)", m->obj.ctrl);
            m->exit_status = MRCLI_EXIT_FAILED;
            return true;
        }
        return false;
    case OBJ_VD:
        if (show && n == 1 && storcli_names(m) &&
            m->dialect == MR_DIALECT_V1) {
            arg_use(m, 1);
            vd_show_list(m);
            return true;
        }
        if (show && arg_is(m, 1, "bgi")) {
            arg_use(m, 2);
            op_vd_job_show(m, MGMT_JOB_INIT);
            return true;
        }
        if (storcli_vd_set(m)) {
            return true;        /* storcli-copyback.c */
        }
        return false;
    case OBJ_PD:
        if (show && n == 1 && storcli_names(m)) {
            arg_use(m, 1);
            pd_show_list(m);
            return true;
        }
        if (show && n == 2 && arg_is(m, 1, "all") && storcli_names(m)) {
            arg_use(m, 2);
            pd_show_all(m);
            return true;
        }
        if (show && arg_is(m, 1, "initialization")) {
            arg_use(m, 2);
            pd_show_init(m);
            return true;
        }
        if ((arg_is(m, 0, "start") || arg_is(m, 0, "stop")) &&
            arg_is(m, 1, "locate")) {
            arg_use(m, 2);
            pd_locate(m, arg_is(m, 0, "start"));
            return true;
        }
        if (storcli_copyback(m)) {
            return true;        /* storcli-copyback.c */
        }
        if (storcli_insert_replace(m)) {
            return true;        /* storcli-insert.c */
        }
        return false;
    default:
        return false;
    }
}
