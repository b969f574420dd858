/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: which Linux disk is a VD or JBOD drive.  The controller reports
 * each exposed device's MPI3 handle; the mpi3mr driver shows the same
 * handle in each SCSI device's "device_handle" attribute, and the disk's
 * sysfs path names the controller's PCI function (from the driver's
 * ADPINFO), so a handle maps to one /dev/sdX.
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

bool os_drive_name(Mrcli *m, uint16_t handle, char *buf, size_t len)
{
    const char *pci = ctrl_pci(m);
    DIR *d;
    struct dirent *e;
    bool found = false;

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
