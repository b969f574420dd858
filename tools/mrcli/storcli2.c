/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: storcli2's (008.x) documents where they differ from storcli
 * v1's: "/cx show all" (Basics, Version, HostInterface, DeviceInterface,
 * Status with counts, HwCfg with the chip temperature, Max. Supported
 * Config, Properties, the TOPOLOGY/VD LIST/PD LIST/Enclosure List of
 * storcli2 with State/Status pairs and CurrentCache/DefaultCache) and the
 * drive details as "Drives List"[{"Drive Information", "Drive Detailed
 * Information"}].  storcli.c picks these for the storcli2 names.
 */
#include "mrcli.h"
#include "out.h"
#include "storcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "9.094 TiB": storcli2 prints binary units as such */
static const char *size2(uint64_t bytes, char *buf)
{
    size_t n;

    size_str(bytes, buf);
    n = strlen(buf);
    if (n > 2 && n + 2 < 32 && buf[n - 1] == 'B') {
        buf[n - 1] = 'i';
        buf[n] = 'B';
        buf[n + 1] = 0;
    }
    return buf;
}

/* storcli2's State and Status of a drive */
static void pd_state2(const MgmtPdEntry *p, const char **state,
                      const char **status)
{
    *status = "Online";
    if (p->flags & MGMT_PD_F_GLOBAL_SPARE) {
        *state = "GHS";
        return;
    }
    if (p->flags & MGMT_PD_F_DEDICATED_SPARE) {
        *state = "DHS";
        return;
    }
    switch (p->state) {
    case MGMT_PD_ONLINE:
        *state = "Conf";
        break;
    case MGMT_PD_OFFLINE:
        *state = "Conf";
        *status = "Offline";
        break;
    case MGMT_PD_REBUILD:
        *state = "Conf";
        *status = "Rebuild";
        break;
    case MGMT_PD_MISSING:
        *state = "Conf";
        *status = "Missing";
        break;
    case MGMT_PD_UNCONF_BAD:
        *state = "Unusbl";
        *status = "Offline";
        break;
    case MGMT_PD_JBOD:
        *state = "JBOD";
        break;
    case MGMT_PD_COPYBACK:
        *state = "Conf";
        *status = "Copyback";
        break;
    case MGMT_PD_HOT_SPARE:
        *state = "GHS";
        break;
    default:                    /* unconfigured good, foreign */
        *state = "UConf";
        break;
    }
}

static const char *const pd_cols2[] = {
    "EID:Slt", "PID", "State", "Status", "DG", "Size", "Intf", "Med",
    "SED_Type", "SeSz", "Model", "Sp", "LU/NS Count", "Alt-EID", NULL,
};

static void pd_row2(Mrcli *m, MrSection *t, const MgmtPdEntry *p,
                    const char *model)
{
    const char *state, *status;
    char b[32];

    pd_state2(p, &state, &status);
    row_new(t);
    row_str(t, "%d:%u", mrcli_eid(m), p->slot);
    row_num(t, p->dev_handle);
    row_str(t, "%s", state);
    row_str(t, "%s", status);
    if (p->dg != MGMT_NONE16) {
        row_num(t, p->dg);
    } else if (p->spare_dg != MGMT_NONE16) {
        row_num(t, p->spare_dg);
    } else {
        row_str(t, "-");
    }
    row_str(t, "%s", size2(p->blocks * p->block_size, b));
    row_str(t, "%s", iface_name(p->interface));
    row_str(t, "%s", media_name(p->media));
    row_str(t, "-");
    row_str(t, "%uB", p->block_size);
    row_str(t, "%s", model);
    row_str(t, "%s", p->state == MGMT_PD_FOREIGN ? "F" :
            p->flags & MGMT_PD_F_EXPOSED ? "U" : "D");
    row_num(t, 1);
    row_str(t, "-");
}

void storcli2_pd_table(Mrcli *m, const char *name, const MgmtPdEntry *p,
                       const char *model)
{
    pd_row2(m, out_table(m->out, name, pd_cols2), p, model);
}

/* The same drive as one object ("Drive Information"). */
static void pd_props2(Mrcli *m, MrSection *s, const MgmtPdEntry *p,
                      const char *model)
{
    const char *state, *status;
    char b[32];

    pd_state2(p, &state, &status);
    sec_str(s, "EID:Slt", "%d:%u", mrcli_eid(m), p->slot);
    sec_num(s, "PID", p->dev_handle);
    sec_str(s, "State", "%s", state);
    sec_str(s, "Status", "%s", status);
    if (p->dg != MGMT_NONE16) {
        sec_num(s, "DG", p->dg);
    } else {
        sec_str(s, "DG", "-");
    }
    sec_str(s, "Size", "%s", size2(p->blocks * p->block_size, b));
    sec_str(s, "Intf", "%s", iface_name(p->interface));
    sec_str(s, "Med", "%s", media_name(p->media));
    sec_str(s, "SED_Type", "-");
    sec_str(s, "SeSz", "%uB", p->block_size);
    sec_str(s, "Model", "%s", model);
    sec_str(s, "Sp", "%s", p->flags & MGMT_PD_F_EXPOSED ? "U" : "D");
    sec_num(s, "LU/NS Count", 1);
    sec_str(s, "Alt-EID", "-");
}

static void cache2(const MgmtVdEntry *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s,%s", v->cache & MGMT_CACHE_READ_AHEAD ? "R" :
             "NR", v->write_policy == MGMT_WP_WRITE_BACK ? "WB" :
             v->write_policy == MGMT_WP_ALWAYS_WB ? "AWB" : "WT");
}

void storcli2_ctrl_show_all(Mrcli *m, const StorcliCtrl *c)
{
    static const char *const topo_cols[] = {
        "DG", "Span", "Row", "EID:Slot", "PID", "Type", "State", "Status",
        "BT", "Size", "PDC", "Secured", "FSpace", NULL,
    };
    static const char *const vd_cols[] = {
        "DG/VD", "TYPE", "State", "Access", "CurrentCache", "DefaultCache",
        "Size", "Name", NULL,
    };
    static const char *const encl_cols[] = {
        "EID", "State", "DeviceType", "Slots", "PD", "Partner-EID",
        "Multipath", "PS", "Fans", "TSs", "Alms", "SIM", "ProdID", NULL,
    };
    static const char *const ep_cols[] = {
        "Type", "SubType", "Temperature(C)", "Status", NULL,
    };
    const MgmtCtrlInfo *ci = &c->ci;
    MrSection *s, *t;
    char b[64];
    uint32_t dgrd = 0, offl = 0, failed = 0, pfa = 0;

    for (uint32_t i = 0; i < c->nvd; i++) {
        dgrd += c->vds[i].state == MGMT_VD_DEGRADED ||
                c->vds[i].state == MGMT_VD_PARTIALLY_DEGRADED;
        offl += c->vds[i].state == MGMT_VD_OFFLINE;
    }
    for (uint32_t i = 0; i < c->npd; i++) {
        failed += c->pds[i].state == MGMT_PD_OFFLINE ||
                  c->pds[i].state == MGMT_PD_UNCONF_BAD;
        pfa += c->pd_pred[i] != 0;
    }
    s = out_props(m->out, "Basics");
    sec_str(s, "Product Name", "%s", c->product);
    sec_str(s, "Serial Number", "%s", c->serial);
    sec_str(s, "Controller Time(LocalTime yyyy/mm/dd hh:mm:sec)", "%s",
            c->time2);
    sec_str(s, "System Time(LocalTime yyyy/mm/dd hh:mm:sec)", "%s",
            c->time2);
    sec_str(s, "OEM", "Broadcom");
    sec_num(s, "SubOEMID", 0);

    s = out_props(m->out, "Version");
    sec_str(s, "Package Version", "%s", c->fw);
    sec_str(s, "Firmware Version", "%s", c->fw);
    sec_str(s, "Driver Name", "%s", c->driver);
    sec_str(s, "Driver Version", "%s", c->driver_version);

    s = out_props(m->out, "HostInterface");
    sec_str(s, "Max PCIe Link Rate", "0x08 (16GT/s)");
    sec_num(s, "Max PCIe Port Width", 8);
    s = out_props(m->out, "DeviceInterface");
    sec_str(s, "SAS/SATA", "SAS/SATA-6G, SAS-12G, SAS-22.5G");
    sec_str(s, "PCIe", "PCIE-2.5GT, PCIE-5GT, PCIE-8GT, PCIE-16GT");
    sec_str(s, "PCI Vendor ID", "0x%04X", ci->pci_vendor);
    sec_str(s, "PCI Device ID", "0x%04X", ci->pci_device);
    sec_str(s, "PCI Subsystem Vendor ID", "0x%04X", ci->pci_subvendor);
    sec_str(s, "PCI Subsystem ID", "0x%04X", ci->pci_subdevice);

    s = out_props(m->out, "Status");
    sec_str(s, "Controller Status", "%s", dgrd || offl || failed ?
            "Needs Attention" : "Optimal");
    sec_num(s, "VD Count", c->nvd);
    sec_num(s, "VD Degraded Count", dgrd);
    sec_num(s, "VD Offline Count", offl);
    sec_num(s, "PD Count", c->npd);
    sec_num(s, "PD Drive Count", c->npd);
    sec_num(s, "Critical Predictive Failure PD Drive Count", pfa);
    sec_num(s, "Failed PD Drive Count", failed);
    sec_num(s, "Memory Correctable Errors", 0);
    sec_num(s, "Memory Uncorrectable Errors", 0);
    sec_num(s, "ECC Bucket Count", 0);
    sec_str(s, "Preserved Cache Present", "No");
    sec_str(s, "Controller has booted into safe mode", "No");
    sec_str(s, "Controller Personality", "RAID");

    s = out_props(m->out, "HwCfg");
    sec_str(s, "NVRAM", "Present");
    sec_num(s, "DDR Memory Size(MiB)", ci->cache_bytes >> 20);
    sec_str(s, "Flash", "Present");
    if (ci->cachevault != MGMT_CV_ABSENT) {
        sec_num(s, "CacheVault Flash Size(MiB)", c->cv.cache_bytes >> 20);
    }
    sec_num(s, "Current Size of FW Cache(MiB)", c->cv.cache_bytes >> 20);
    sec_str(s, "Energy Pack", "%s", ci->cachevault != MGMT_CV_ABSENT ?
            "Present" : "Absent");
    sec_str(s, "On Board Expander", "Absent");
    sec_str(s, "Temperature Sensor for Chip", "%s", ci->roc_temp_c ?
            "Present" : "Absent");
    sec_str(s, "Temperature Sensor for Board", "Absent");
    if (ci->roc_temp_c) {
        sec_num(s, "Chip temperature(C)", ci->roc_temp_c);
    }

    s = out_props(m->out, "Max. Supported Config");
    sec_num(s, "Max Number of VDs", ci->max_vds);
    sec_num(s, "Max Number of Physical Drives", ci->max_pds);
    sec_num(s, "Max NVMe Drives", 32);      /* the card's NVMe bays */
    sec_num(s, "Max Arrays", ci->max_dgs);
    sec_num(s, "Max PD Per Array", ci->max_drives_per_span);
    sec_num(s, "Max Spans Per VD", ci->max_spans);
    sec_num(s, "Max Dedicated HSPs", ci->max_dedicated_spares);
    sec_num(s, "Max Global HSPs", ci->max_global_spares);
    sec_num(s, "Max VDs Per Array", ci->max_vds_per_dg);

    s = out_props(m->out, "Properties");
    sec_num(s, "Rebuild Rate(%)", c->cp.rebuild_rate);
    sec_num(s, "BGI Rate(%)", c->cp.init_rate);
    sec_num(s, "Consistency Check Rate(%)", c->cp.cc_rate);
    sec_str(s, "Auto Rebuild", "%s", c->cp.auto_rebuild ? "Yes" : "No");

    s = out_props(m->out, "Capabilities");
    sec_str(s, "Supported Drive Interfaces", "SAS, SATA, NVMe");
    sec_str(s, "Supported RAID Levels", "%s", c->levels);

    s = out_props(m->out, "Scheduled Tasks");
    sec_str(s, "Patrol Read Execution Frequency(hours)", "%s",
            c->cp.patrol_read ? "168" : "NA");

    out_num(m->out, "Drive Groups", ci->num_dgs);
    t = out_table(m->out, "TOPOLOGY", topo_cols);
    for (uint32_t i = 0; i < c->nvd; i++) {
        row_new(t);
        row_num(t, c->vds[i].dg);
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "%s", level_name(c->vds[i].level));
        row_str(t, "-");
        row_str(t, "-");
        row_str(t, "N");
        row_str(t, "%s", size2(c->vds[i].blocks * 512, b));
        row_str(t, "dflt");
        row_str(t, "N");
        row_str(t, "N");
    }
    for (uint32_t i = 0; i < c->npd; i++) {
        const MgmtPdEntry *p = &c->pds[i];
        const char *state, *status;
        int arr, row;

        if (p->dg == MGMT_NONE16) {
            continue;
        }
        pd_state2(p, &state, &status);
        storcli_pd_place(m, p, &arr, &row);
        row_new(t);
        row_num(t, p->dg);
        storcli_row_place(t, arr);
        storcli_row_place(t, row);
        row_str(t, "%d:%u", mrcli_eid(m), p->slot);
        row_num(t, p->dev_handle);
        row_str(t, "DRIVE");
        row_str(t, "%s", state);
        row_str(t, "%s", status);
        row_str(t, "N");
        row_str(t, "%s", size2(p->blocks * p->block_size, b));
        row_str(t, "dflt");
        row_str(t, "N");
        row_str(t, "-");
    }
    out_num(m->out, "Virtual Drives", c->nvd);
    t = out_table(m->out, "VD LIST", vd_cols);
    for (uint32_t i = 0; i < c->nvd; i++) {
        char cc[16], nm[MGMT_VD_NAME_LEN + 1];

        row_new(t);
        row_str(t, "%u/%u", c->vds[i].dg, c->vds[i].vd);
        row_str(t, "%s", level_name(c->vds[i].level));
        row_str(t, "%s", vd_state_abbr(c->vds[i].state));
        row_str(t, "RW");
        cache2(&c->vds[i], cc, sizeof(cc));
        row_str(t, "%s", cc);
        row_str(t, "%s", cc);
        row_str(t, "%s", size2(c->vds[i].blocks * 512, b));
        row_str(t, "%s", vd_name(&c->vds[i], nm));
    }
    out_num(m->out, "Physical Drives", c->npd);
    t = out_table(m->out, "PD LIST", pd_cols2);
    for (uint32_t i = 0; i < c->npd; i++) {
        pd_row2(m, t, &c->pds[i], c->pd_model[i]);
    }
    out_num(m->out, "Enclosures", 1);
    t = out_table(m->out, "Enclosure List", encl_cols);
    row_new(t);
    row_num(t, mrcli_eid(m));
    row_str(t, "OK");
    row_str(t, "Enclosure");
    row_num(t, ci->max_pds);
    row_num(t, c->npd);
    row_str(t, "-");
    row_str(t, "No");
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 0);
    row_num(t, 1);
    row_str(t, "VirtualSES");
    if (ci->cachevault != MGMT_CV_ABSENT) {
        t = out_table(m->out, "Energy Pack Info", ep_cols);
        row_new(t);
        row_str(t, "Supercap");
        row_str(t, "CVPM05");
        if (ci->cv_temp_c) {
            row_num(t, ci->cv_temp_c);
        } else {
            row_str(t, "NA");
        }
        row_str(t, "%s", ci->cachevault == MGMT_CV_OPTIMAL ? "Optimal" :
                "Failed");
    }
}

void storcli2_pd_detail(Mrcli *m, MrSection *list, const MgmtPdInfo *pi,
                        const StorcliPdText *tx)
{
    MrSection *item = out_list_item(m->out, list);
    MrSection *s, *lu;
    char key[64], b[32];

    pd_props2(m, out_props_in(m->out, item, "Drive Information"), &pi->e,
              tx->model);
    s = out_group(m->out, item, "Drive Detailed Information");
    lu = out_props_in(m->out, s, "#scalars");
    sec_num(lu, "Shield Counter", 0);
    if (pi->temperature_c) {
        sec_num(lu, "Temperature(C)", pi->temperature_c);
    } else {
        sec_str(lu, "Temperature(C)", "NA");
    }
    sec_str(lu, "Serial Number", "%s", tx->serial);
    sec_str(lu, "Vendor", "%s", tx->vendor);
    sec_str(lu, "Model", "%s", tx->model);
    if (pi->wwn) {
        sec_str(lu, "WWN", "%016llX", (unsigned long long)pi->wwn);
    } else {
        sec_str(lu, "WWN", "NA");
    }
    sec_str(lu, "Firmware Revision Level", "%s", tx->fw);
    sec_str(lu, "Logical Sector Size", "%uB", pi->e.block_size);
    sec_str(lu, "Raw size", "%s [0x%llx Sectors]",
            size2(pi->e.blocks * pi->e.block_size, b),
            (unsigned long long)pi->e.blocks);
    sec_str(lu, "Capable Speed", "%s", storcli_link_speed(pi->e.interface));
    if (pi->e.dg != MGMT_NONE16) {
        snprintf(key, sizeof(key), "DriveGroup:%u, Span:%u, Row:%u",
                 pi->e.dg, pi->span, pi->span_pos);
    } else {
        snprintf(key, sizeof(key), "DriveGroup:-, Span:-, Row:-");
    }
    sec_str(lu, "Drive position", "%s", key);
    sec_str(lu, "Commissioned Spare", "%s",
            pi->e.flags & (MGMT_PD_F_GLOBAL_SPARE |
                           MGMT_PD_F_DEDICATED_SPARE) ? "Yes" : "No");
    sec_str(lu, "Emergency Spare", "No");
    sec_str(lu, "SED Capable", "No");
    lu = out_props_in(m->out, s, "LU/NS Properties");
    sec_num(lu, "Media Error Count", (long long)pi->media_error_count +
            pi->read_errors + pi->write_errors);
    sec_num(lu, "Other Error Count", pi->other_errors);
    sec_num(lu, "Predictive Failure Count", pi->predictive_failures);
    sec_str(lu, "S.M.A.R.T alert flagged by drive", "%s",
            pi->smart_alert ? "Yes" : "No");
    sec_str(lu, "Coerced size", "%s [0x%llx Sectors]",
            size2(pi->usable_sectors * 512, b),
            (unsigned long long)pi->usable_sectors);
}
