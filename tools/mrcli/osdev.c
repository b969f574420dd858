/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: which Linux disk is a VD or JBOD drive.  The controller reports
 * each exposed device's MPI3 handle; the mpi3mr driver shows the same
 * handle in each SCSI device's "device_handle" attribute, and the disk's
 * sysfs path names the controller's PCI function (from the driver's
 * ADPINFO), so a handle maps to one /dev/sdX.  On megaraid_sas the
 * handle is the LD's target id or the JBOD's PD id, and the SCSI address
 * names the disk.
 */
#include "mrcli.h"
#include "bsg.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "/SSSS:BB:DD.F/" of the controller, or "" if the driver does not say. */
static const char *ctrl_pci(Mrcli *m)
{
    MrcliAdpInfo ai;
    char err[256];

    if (m->pci[0] || m->fd < 0 || m->mfi) {
        return m->pci;
    }
    if (mrcli_bsg_adpinfo(m->fd, m->obj.ctrl, &ai, err, sizeof(err)) == 0) {
        snprintf(m->pci, sizeof(m->pci), "/%04x:%02x:%02x.%u/",
                 ai.pci_seg_id & 0xffff, ai.pci_bus, ai.pci_dev_func & 0x1f,
                 ai.pci_dev_func >> 5);
    }
    return m->pci;
}

/*
 * megaraid_sas: an LD is the SCSI device HOST:2:<VD index>:0, a JBOD
 * HOST:<PD id / 128>:<PD id % 128>:0 (the id is the reported handle).
 */
static bool mfi_drive_name(Mrcli *m, uint16_t id, bool vd, char *buf,
                           size_t len)
{
    char want[64];
    DIR *d;
    struct dirent *e;
    bool found = false;

    snprintf(want, sizeof(want), "%d:%u:%u:0", m->host_no,
             vd ? 2u : id / 128u, vd ? id : id % 128u);
    d = opendir("/sys/block");
    while (d && !found && (e = readdir(d))) {
        char path[PATH_MAX], real[PATH_MAX];
        const char *base;

        if (strncmp(e->d_name, "sd", 2)) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/block/%s/device", e->d_name);
        if (!realpath(path, real)) {
            continue;
        }
        base = strrchr(real, '/');
        if (base && !strcmp(base + 1, want)) {
            snprintf(buf, len, "/dev/%s", e->d_name);
            found = true;
        }
    }
    if (d) {
        closedir(d);
    }
    return found;
}

bool os_drive_name(Mrcli *m, uint16_t handle, bool vd, char *buf, size_t len)
{
    const char *pci;
    DIR *d;
    struct dirent *e;
    bool found = false;

    if (m->mfi) {
        return mfi_drive_name(m, handle, vd, buf, len);
    }
    pci = ctrl_pci(m);
    if (!handle || !pci[0]) {
        return false;
    }
    d = opendir("/sys/block");
    while (d && !found && (e = readdir(d))) {
        char path[PATH_MAX], real[PATH_MAX], line[32];
        unsigned h;
        FILE *f;

        if (strncmp(e->d_name, "sd", 2)) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/block/%s/device", e->d_name);
        if (!realpath(path, real) || !strstr(real, pci)) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/block/%s/device/device_handle",
                 e->d_name);
        f = fopen(path, "r");
        if (!f) {
            continue;
        }
        if (fgets(line, sizeof(line), f) && sscanf(line, "%x", &h) == 1 &&
            h == handle) {
            snprintf(buf, len, "/dev/%s", e->d_name);
            found = true;
        }
        fclose(f);
    }
    if (d) {
        closedir(d);
    }
    return found;
}
