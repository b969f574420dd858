/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the mpi3mr driver's BSG application interface as mrcli uses it
 * (the packet that selects an MPI pass-through, the buffer list, the reply
 * header), written down from the layout the Linux uapi header documents,
 * and the one transport call that carries a management command.
 */
#ifndef MRCLI_BSG_H
#define MRCLI_BSG_H

#include <stdint.h>
#include <stddef.h>

/* Packet command types. */
#define MRCLI_BSG_DRV_CMD       1
#define MRCLI_BSG_MPT_CMD       2

/* Driver command opcodes mrcli uses. */
#define MRCLI_DRV_ADPINFO       1

/* Buffer types of an MPI pass-through. */
#define MRCLI_BUF_RAIDMGMT_CMD  1
#define MRCLI_BUF_RAIDMGMT_RESP 2
#define MRCLI_BUF_DATA_IN       3
#define MRCLI_BUF_DATA_OUT      4
#define MRCLI_BUF_MPI_REPLY     5
#define MRCLI_BUF_MPI_REQUEST   0xfe

/* mpi_reply_type of the MPI_REPLY buffer. */
#define MRCLI_REPLY_STATUS      1
#define MRCLI_REPLY_ADDRESS     2

/* MPI3 function code of the management pass-through request. */
#define MRCLI_MPI3_FUNCTION_MGMT_PASSTHROUGH 0x0a
/*
 * Bytes of the MGMT PASSTHROUGH frame mrcli sends: the fixed part (the
 * driver writes both SGLs at 0x20 and 0x30 of its own 128-byte copy).
 */
#define MRCLI_MGMT_REQ_SIZE     32
/* The 6.12 driver copies the command and the response through 4 KiB. */
#define MRCLI_MGMT_BUF_MAX      4096

typedef struct MrcliBufEntry {
    uint8_t buf_type;
    uint8_t rsvd1;
    uint16_t rsvd2;
    uint32_t buf_len;
} __attribute__((packed)) MrcliBufEntry;            /* 8 bytes */

/* Header of a pass-through packet; buffer entries follow at 0x18. */
typedef struct MrcliMptPacket {
    uint8_t cmd_type;
    uint8_t rsvd1;
    uint16_t rsvd2;
    uint32_t rsvd3;
    uint8_t mrioc_id;
    uint8_t rsvd4;
    uint16_t timeout;
    uint32_t rsvd5;
    uint8_t num_of_entries;
    uint8_t rsvd6;
    uint16_t rsvd7;
    uint32_t rsvd8;
    MrcliBufEntry entry[8];
} __attribute__((packed)) MrcliMptPacket;

typedef struct MrcliDrvPacket {
    uint8_t cmd_type;
    uint8_t rsvd1;
    uint16_t rsvd2;
    uint32_t rsvd3;
    uint8_t mrioc_id;
    uint8_t opcode;
    uint16_t rsvd4;
    uint32_t rsvd5[4];
} __attribute__((packed)) MrcliDrvPacket;           /* 28 bytes */

/* Start of the adapter information (ADPINFO) the driver returns. */
typedef struct MrcliAdpInfo {
    uint32_t adp_type;
    uint32_t rsvd1;
    uint32_t pci_dev_id;
    uint32_t pci_dev_hw_rev;
    uint32_t pci_subsys_dev_id;
    uint32_t pci_subsys_ven_id;
    uint8_t pci_dev_func;
    uint8_t pci_bus;
    uint16_t rsvd2;
    uint32_t pci_seg_id;
    uint32_t app_intfc_ver;
    uint8_t adp_state;
    uint8_t rsvd3[3];
    uint8_t rsvd4[8];
    uint8_t driver_info[120];
} __attribute__((packed)) MrcliAdpInfo;             /* 168 bytes */

/* What a management transfer returned besides the response bytes. */
typedef struct MrcliMpiResult {
    uint16_t ioc_status;        /* bits 14:0 of the reply's IOCStatus */
    uint32_t ioc_loginfo;
    int reply_type;             /* MRCLI_REPLY_* or 0: none */
} MrcliMpiResult;

typedef struct MrcliXfer {
    const void *cmd;            /* the management command bytes */
    size_t cmd_len;
    void *resp;                 /* the response buffer */
    size_t resp_len;
    const void *dout;           /* optional data-out buffer */
    size_t dout_len;
    void *din;                  /* optional data-in buffer */
    size_t din_len;
} MrcliXfer;

/*
 * Opens /dev/bsg/mpi3mrctl<ctrl>; returns the descriptor or -1 with a
 * message in err (size errlen).
 */
int mrcli_bsg_open(int ctrl, char *err, size_t errlen);

/*
 * Sends one MGMT PASSTHROUGH request with the buffers of x through the
 * driver.  Returns 0 and fills res when the driver completed the request
 * (whatever its IOCStatus), or a negative errno with a message in err.
 */
int mrcli_bsg_mgmt(int fd, int ctrl, const MrcliXfer *x, MrcliMpiResult *res,
                   char *err, size_t errlen);

/*
 * One SG_IO v4 round trip on the BSG node: the packet (an MrcliMptPacket
 * or MrcliDrvPacket and what follows it) and the optional data-out and
 * data-in buffers.  Returns 0, or a negative errno with a message in err
 * when the ioctl failed or the driver refused the request.
 */
int mrcli_bsg_sgio(int fd, const void *pkt, size_t pkt_len,
                   void *dout, size_t dout_len, void *din, size_t din_len,
                   unsigned timeout_ms, char *err, size_t errlen);

/* Driver ADPINFO; 0 or a negative errno with a message. */
int mrcli_bsg_adpinfo(int fd, int ctrl, MrcliAdpInfo *info,
                      char *err, size_t errlen);

#endif
