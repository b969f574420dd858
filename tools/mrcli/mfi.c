/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the megaraid_sas transport.  Finds the driver's controllers
 * (SCSI hosts whose proc_name is megaraid_sas), opens its ioctl node and
 * carries one management request per MEGASAS_IOC_FIRMWARE ioctl in a
 * DCMD with the protocol's vendor opcode (docs/management-protocol.md,
 * "On megaraid-9500").
 */
#include "mfi.h"
#include "hw/megaraid/mgmt-proto.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return x < y ? -1 : x > y;
}

int mrcli_mfi_hosts(int *hosts, int max)
{
    DIR *d = opendir("/sys/class/scsi_host");
    struct dirent *e;
    int n = 0;

    while (d && n < max && (e = readdir(d))) {
        char path[PATH_MAX], name[64] = "";
        unsigned h;
        FILE *f;

        if (sscanf(e->d_name, "host%u", &h) != 1) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/class/scsi_host/%s/proc_name",
                 e->d_name);
        f = fopen(path, "r");
        if (!f) {
            continue;
        }
        if (fgets(name, sizeof(name), f)) {
            name[strcspn(name, "\n")] = 0;
        }
        fclose(f);
        if (!strcmp(name, "megaraid_sas")) {
            hosts[n++] = (int)h;
        }
    }
    if (d) {
        closedir(d);
    }
    qsort(hosts, n, sizeof(*hosts), cmp_int);
    return n;
}

int mrcli_mpi3mr_count(void)
{
    DIR *d = opendir("/dev/bsg");
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d))) {
        unsigned c;
        char tail;

        if (sscanf(e->d_name, "mpi3mrctl%u%c", &c, &tail) == 1) {
            n++;
        }
    }
    if (d) {
        closedir(d);
    }
    return n;
}

/* The node's major from /proc/devices; -1 when the driver is not there. */
static int chrdev_major(void)
{
    FILE *f = fopen("/proc/devices", "r");
    char line[128], name[64];
    int major, found = -1;

    while (f && fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%d %63s", &major, name) == 2 &&
            !strcmp(name, MRCLI_MFI_CHRDEV)) {
            found = major;
            break;
        }
    }
    if (f) {
        fclose(f);
    }
    return found;
}

int mrcli_mfi_open(char *err, size_t errlen)
{
    int fd = open(MRCLI_MFI_NODE, O_RDWR);

    if (fd < 0 && errno == ENOENT) {
        /* no udev in the guest: make the node from /proc/devices */
        int major = chrdev_major();

        if (major < 0) {
            errno = ENOENT;     /* the driver is not loaded */
        } else if (mknod(MRCLI_MFI_NODE, S_IFCHR | 0600,
                         makedev(major, 0)) == 0) {
            fd = open(MRCLI_MFI_NODE, O_RDWR);
        }
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", MRCLI_MFI_NODE,
                 strerror(errno));
    }
    return fd;
}

int mrcli_mfi_mgmt(int fd, int host_no, void *buf, size_t buf_len,
                   size_t cmd_len, uint8_t *mfi_status,
                   char *err, size_t errlen)
{
    MrcliIocPacket ioc;
    uint8_t *f = ioc.frame;
    uint32_t v;

    memset(&ioc, 0, sizeof(ioc));
    ioc.host_no = host_no;
    ioc.sgl_off = MRCLI_MFI_DCMD_SGL;
    ioc.sge_count = 1;
    ioc.sgl[0].iov_base = buf;
    ioc.sgl[0].iov_len = buf_len;
    f[0] = MRCLI_MFI_CMD_DCMD;
    f[2] = 0xff;                        /* status, set by the firmware */
    f[7] = 1;                           /* sge_count */
    v = MRCLI_MFI_FLAGS_WRITE | MRCLI_MFI_FLAGS_READ;
    memcpy(f + 0x10, &v, 2);            /* flags (little-endian guest) */
    v = buf_len;
    memcpy(f + 0x14, &v, 4);            /* data_xfer_len */
    v = MGMT_MFI_DCMD_OPCODE;
    memcpy(f + 0x18, &v, 4);
    v = cmd_len;
    memcpy(f + MRCLI_MFI_DCMD_MBOX, &v, 4);
    if (ioctl(fd, MRCLI_MEGASAS_IOC_FIRMWARE, &ioc) < 0) {
        int e = errno;

        snprintf(err, errlen, "host %d: MEGASAS_IOC_FIRMWARE: %s", host_no,
                 strerror(e));
        return -e;
    }
    *mfi_status = ioc.frame[2];
    return 0;
}

void mrcli_mfi_pci(int host_no, char *buf, size_t len)
{
    char path[PATH_MAX], real[PATH_MAX], *p, *q;
    unsigned seg, bus, dev, fn;

    buf[0] = 0;
    snprintf(path, sizeof(path), "/sys/class/scsi_host/host%d/device",
             host_no);
    if (!realpath(path, real)) {
        return;
    }
    /* the last PCI address before ".../hostN" */
    p = strstr(real, "/host");
    if (!p) {
        return;
    }
    *p = 0;
    q = strrchr(real, '/');
    if (q && sscanf(q + 1, "%x:%x:%x.%u", &seg, &bus, &dev, &fn) == 4) {
        snprintf(buf, len, "/%04x:%02x:%02x.%u/", seg, bus, dev, fn);
    }
}
