/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the UEFI boot-service driver for megaraid-9600
 * (MPI 3.0).  This header holds the driver's per-controller state, the
 * UEFI Extended SCSI Pass Thru protocol's definitions (UEFI 2.x, section
 * "Extended SCSI Pass Thru Protocol"; gnu-efi 3.0.15 has none) and the
 * functions the three parts of the driver give each other:
 *   driver.c    Driver Binding, Component Name 2, ExitBootServices
 *   ioc.c       the IOC: bring-up, queues, requests, discovery
 *   passthru.c  EFI_EXT_SCSI_PASS_THRU_PROTOCOL over ioc.c
 */
#ifndef MR_EFI_H
#define MR_EFI_H

#include <efi.h>
#include <efilib.h>

#define MPI3_STANDALONE
#include "hw/megaraid/mpi3.h"

/* ---- EFI_EXT_SCSI_PASS_THRU_PROTOCOL (UEFI specification) ---- */

#define EFI_EXT_SCSI_PASS_THRU_PROTOCOL_GUID \
    { 0x143b7632, 0xb81b, 0x4cb7, \
      { 0xab, 0xd3, 0xb6, 0x25, 0xa5, 0xb9, 0xbf, 0xfe } }

#define TARGET_MAX_BYTES                            0x10
#define EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL  0x0001
#define EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL   0x0002

#define EFI_EXT_SCSI_DATA_DIRECTION_READ            0
#define EFI_EXT_SCSI_DATA_DIRECTION_WRITE           1
#define EFI_EXT_SCSI_DATA_DIRECTION_BIDIRECTIONAL   2

#define EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK                     0x00
#define EFI_EXT_SCSI_STATUS_HOST_ADAPTER_TIMEOUT_COMMAND        0x09
#define EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT      0x11
#define EFI_EXT_SCSI_STATUS_HOST_ADAPTER_DATA_OVERRUN_UNDERRUN  0x12
#define EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER                  0x7f

#define EFI_EXT_SCSI_STATUS_TARGET_GOOD             0x00
#define EFI_EXT_SCSI_STATUS_TARGET_CHECK_CONDITION  0x02

typedef struct {
    UINT32 AdapterId;
    UINT32 Attributes;
    UINT32 IoAlign;
} EFI_EXT_SCSI_PASS_THRU_MODE;

typedef struct {
    UINT64 Timeout;             /* 100 ns units; 0: wait forever */
    VOID *InDataBuffer;
    VOID *OutDataBuffer;
    VOID *SenseData;
    VOID *Cdb;
    UINT32 InTransferLength;
    UINT32 OutTransferLength;
    UINT8 CdbLength;
    UINT8 DataDirection;
    UINT8 HostAdapterStatus;
    UINT8 TargetStatus;
    UINT8 SenseDataLength;
} EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET;

struct _EFI_EXT_SCSI_PASS_THRU_PROTOCOL;
typedef struct _EFI_EXT_SCSI_PASS_THRU_PROTOCOL EFI_EXT_SCSI_PASS_THRU_PROTOCOL;

typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_PASSTHRU)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 *Target, UINT64 Lun,
    EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *Packet, EFI_EVENT Event);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_GET_NEXT_TARGET_LUN)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 **Target, UINT64 *Lun);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_BUILD_DEVICE_PATH)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 *Target, UINT64 Lun,
    EFI_DEVICE_PATH_PROTOCOL **DevicePath);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_GET_TARGET_LUN)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This,
    EFI_DEVICE_PATH_PROTOCOL *DevicePath, UINT8 **Target, UINT64 *Lun);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_RESET_CHANNEL)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_RESET_TARGET_LUN)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 *Target, UINT64 Lun);
typedef EFI_STATUS (EFIAPI *EFI_EXT_SCSI_PASS_THRU_GET_NEXT_TARGET)(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 **Target);

struct _EFI_EXT_SCSI_PASS_THRU_PROTOCOL {
    EFI_EXT_SCSI_PASS_THRU_MODE *Mode;
    EFI_EXT_SCSI_PASS_THRU_PASSTHRU PassThru;
    EFI_EXT_SCSI_PASS_THRU_GET_NEXT_TARGET_LUN GetNextTargetLun;
    EFI_EXT_SCSI_PASS_THRU_BUILD_DEVICE_PATH BuildDevicePath;
    EFI_EXT_SCSI_PASS_THRU_GET_TARGET_LUN GetTargetLun;
    EFI_EXT_SCSI_PASS_THRU_RESET_CHANNEL ResetChannel;
    EFI_EXT_SCSI_PASS_THRU_RESET_TARGET_LUN ResetTargetLun;
    EFI_EXT_SCSI_PASS_THRU_GET_NEXT_TARGET GetNextTarget;
};

/* ---- the driver ---- */

#define MR_SIGNATURE        0x3639524d  /* "MR96" */
#define MR_MAX_TARGETS      64          /* VDs and JBOD drives offered */

/* Ring sizes (entries); the admin reply ring also takes events. */
#define MR_AREQ_N           8
#define MR_AREP_N           16
#define MR_OREQ_N           8
#define MR_OREP_N           16
#define MR_RFREE_N          17          /* reply frames: one slot kept free */
#define MR_SFREE_N          9           /* sense buffers */
#define MR_REPLY_FRAME      128
#define MR_SENSE_LEN        256
/* Largest transfer a request carries (the bounce buffer). */
#define MR_MAX_XFER         (256 * 1024)

typedef struct {
    UINT16 handle;              /* MPI3 device handle */
    UINT8 form;                 /* MPI3_DEVICE_DEVFORM_* */
    UINT8 vd_state;             /* VDs: MPI3_DEVICE0_VD_STATE_* */
    UINT8 raid_level;           /* VDs */
} MR_TARGET;

typedef struct {
    UINT32 signature;
    EFI_HANDLE controller;
    EFI_PCI_IO_PROTOCOL *pci;
    UINT64 saved_attributes;
    BOOLEAN attributes_saved;

    /* One common DMA buffer holds every ring and the bounce buffer. */
    VOID *dma_host;
    UINT64 dma_dev;             /* its bus address */
    UINTN dma_pages;
    VOID *dma_map;

    UINT32 areq_pi, arep_ci, oreq_pi, orep_ci;
    BOOLEAN arep_phase, orep_phase;
    UINT32 rfree_host, sfree_host;
    UINT16 next_tag;
    UINT32 timeout_s;           /* IOC ready timeout (IOC Information) */
    UINT32 max_xfer;            /* bytes, from IOC FACTS and the bounce */
    BOOLEAN up;                 /* IOC operational */

    MR_TARGET targets[MR_MAX_TARGETS];
    UINT32 ntargets;
    UINT8 last_target[TARGET_MAX_BYTES];

    EFI_EXT_SCSI_PASS_THRU_PROTOCOL pass_thru;
    EFI_EXT_SCSI_PASS_THRU_MODE mode;
    EFI_EVENT exit_event;
} MR_CTRL;

#define MR_FROM_PASS_THRU(p) \
    ((MR_CTRL *)((UINT8 *)(p) - __builtin_offsetof(MR_CTRL, pass_thru)))

/* Result of one SCSI IO. */
typedef struct {
    UINT16 ioc_status;
    UINT8 scsi_status;
    UINT32 transfer_count;
    UINT32 sense_count;
} MR_SCSI_RESULT;

/* ioc.c */
EFI_STATUS mr_ioc_dma_alloc(MR_CTRL *c);
void mr_ioc_dma_free(MR_CTRL *c);
EFI_STATUS mr_ioc_start(MR_CTRL *c);
void mr_ioc_stop(MR_CTRL *c);
void mr_ioc_reset_regs(MR_CTRL *c);
EFI_STATUS mr_ioc_discover(MR_CTRL *c);
EFI_STATUS mr_ioc_scsi(MR_CTRL *c, const MR_TARGET *t,
                       EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *pkt,
                       UINT32 len, MR_SCSI_RESULT *res, UINT64 timeout_us);
VOID *mr_ioc_bounce(MR_CTRL *c);
UINT8 *mr_ioc_sense(MR_CTRL *c);
CHAR16 *mr_ioc_describe(MR_CTRL *c);

/* passthru.c */
void mr_pass_thru_init(MR_CTRL *c);

#endif
