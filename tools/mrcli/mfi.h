/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the megaraid_sas transport (megaraid-9500).  The driver's ioctl
 * node /dev/megaraid_sas_ioctl_node takes MEGASAS_IOC_FIRMWARE packets:
 * one MFI frame and the user buffers of its SGL.  mrcli sends one DCMD
 * with the management protocol's vendor opcode; its single data buffer
 * carries the request in and the reply out.  The packet layout is written
 * down here from the driver's documented ioctl interface.
 */
#ifndef MRCLI_MFI_H
#define MRCLI_MFI_H

#include <stdint.h>
#include <stddef.h>
#include <sys/uio.h>

#define MRCLI_MFI_NODE          "/dev/megaraid_sas_ioctl_node"
/* the character device's name in /proc/devices */
#define MRCLI_MFI_CHRDEV        "megaraid_sas_ioctl"

#define MRCLI_MFI_CMD_DCMD      0x05
#define MRCLI_MFI_FLAGS_WRITE   0x0008
#define MRCLI_MFI_FLAGS_READ    0x0010
#define MRCLI_MFI_DCMD_MBOX     0x1c    /* mailbox in the DCMD frame */
#define MRCLI_MFI_DCMD_SGL      0x28    /* SGL offset in the DCMD frame */
#define MRCLI_MFI_MAX_SGE       16

/* The ioctl packet (native 64-bit layout). */
typedef struct MrcliIocPacket {
    uint16_t host_no;
    uint16_t pad1;
    uint32_t sgl_off;
    uint32_t sge_count;
    uint32_t sense_off;
    uint32_t sense_len;
    uint8_t frame[128];     /* the MFI frame; status comes back at 2 */
    struct iovec sgl[MRCLI_MFI_MAX_SGE];
} __attribute__((packed)) MrcliIocPacket;

#define MRCLI_MEGASAS_IOC_FIRMWARE _IOWR('M', 1, MrcliIocPacket)

/* SCSI host numbers of the megaraid_sas controllers, ascending. */
int mrcli_mfi_hosts(int *hosts, int max);

/* Number of mpi3mr controllers (/dev/bsg/mpi3mrctl<N> nodes). */
int mrcli_mpi3mr_count(void);

/*
 * Opens the ioctl node (creating it from /proc/devices when udev did
 * not); the descriptor or -1 with a message in err.
 */
int mrcli_mfi_open(char *err, size_t errlen);

/*
 * One management round trip: buf (buf_len bytes) holds the request's
 * cmd_len bytes and receives the reply.  Returns 0 with the MFI status
 * in *mfi_status, or a negative errno with a message in err.
 */
int mrcli_mfi_mgmt(int fd, int host_no, void *buf, size_t buf_len,
                   size_t cmd_len, uint8_t *mfi_status,
                   char *err, size_t errlen);

/* "/SSSS:BB:DD.F/" of SCSI host host_no into buf ("" if unknown). */
void mrcli_mfi_pci(int host_no, char *buf, size_t len);

#endif
