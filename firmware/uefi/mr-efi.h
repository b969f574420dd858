/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the UEFI boot-service driver for megaraid-9600
 * (MPI 3.0).  This header holds the driver's per-controller state, the
 * UEFI Extended SCSI Pass Thru protocol's definitions (UEFI 2.x, section
 * "Extended SCSI Pass Thru Protocol"; gnu-efi 3.0.15 has none) and the
 * functions the three parts of the driver give each other:
 *   driver.c    Driver Binding, Component Name 2, ExitBootServices, the
 *               DMA area and the console line
 *   ioc.c       megaraid-9600 (MPI 3.0): bring-up, queues, discovery, I/O
 *   fusion.c    megaraid-9500 (Fusion/MFI): the same
 *   passthru.c  EFI_EXT_SCSI_PASS_THRU_PROTOCOL over either (MR_OPS)
 */
#ifndef MR_EFI_H
#define MR_EFI_H

#include <efi.h>
#include <efilib.h>

#define MPI3_STANDALONE
#include "hw/megaraid/mpi3.h"
#include "hw/megaraid/mfi.h"

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

#define MR_SENSE_LEN        256
/* Largest transfer a request carries (the bounce buffer). */
#define MR_MAX_XFER         (256 * 1024)

/* VD states, as both interfaces number them (offline .. optimal). */
#define MR_VD_OFFLINE       0
#define MR_VD_OPTIMAL       3

typedef struct {
    UINT16 handle;              /* MPI3 device handle, or the LD's target */
    BOOLEAN vd;                 /* a VD (else a JBOD drive) */
    UINT8 vd_state;             /* VDs: MR_VD_* (0..3) */
    UINT8 raid_level;           /* VDs: 0, 1, 5, 6, 10, 50, 60 */
} MR_TARGET;

/* Result of one SCSI command, the same for both interfaces. */
typedef enum {
    MR_HOST_OK,
    MR_HOST_UNDERRUN,           /* less data moved: transfer_count says */
    MR_HOST_NO_DEVICE,          /* the target is gone */
    MR_HOST_ERROR,
} MR_HOST_STATUS;

typedef struct {
    MR_HOST_STATUS host;
    UINT8 scsi_status;
    UINT32 transfer_count;
    UINT32 sense_count;         /* sense data in the scratch area */
} MR_SCSI_RESULT;

typedef struct MR_CTRL MR_CTRL;

/* What a personality gives the rest of the driver. */
typedef struct {
    const CHAR16 *name;         /* "MegaRAID 9600 (MPI3)" */
    UINT16 device_id;           /* PCI 1000:xxxx */
    UINTN (*dma_size)(MR_CTRL *c);      /* sets bounce_off, scratch_off */
    EFI_STATUS (*start)(MR_CTRL *c);    /* to operational */
    void (*reset)(MR_CTRL *c);          /* back to RESET/READY */
    EFI_STATUS (*discover)(MR_CTRL *c); /* fills targets[] */
    EFI_STATUS (*scsi)(MR_CTRL *c, const MR_TARGET *t,
                       EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *pkt,
                       UINT32 len, MR_SCSI_RESULT *res, UINT64 timeout_us);
} MR_OPS;

struct MR_CTRL {
    UINT32 signature;
    const MR_OPS *ops;
    EFI_HANDLE controller;
    EFI_PCI_IO_PROTOCOL *pci;
    UINT64 saved_attributes;
    BOOLEAN attributes_saved;

    /*
     * One common DMA buffer (below 4 GiB) holds every ring and frame of
     * the personality, a scratch area (sense data, pages, DCMD data) and
     * the bounce buffer.
     */
    VOID *dma_host;
    UINT64 dma_dev;             /* its bus address */
    UINTN dma_pages;
    VOID *dma_map;
    UINTN bounce_off, scratch_off;

    /* MPI3 */
    UINT32 areq_pi, arep_ci, oreq_pi, orep_ci;
    BOOLEAN arep_phase, orep_phase;
    UINT32 rfree_host, sfree_host;
    UINT16 next_tag;
    /* Fusion */
    UINTN frames_bytes;         /* the request frames at the area's start */
    UINT32 reply_ci;

    UINT32 timeout_s;           /* how long the IOC may take to be ready */
    UINT32 max_xfer;            /* bytes, from the IOC and the bounce */
    BOOLEAN up;                 /* IOC operational */

    MR_TARGET targets[MR_MAX_TARGETS];
    UINT32 ntargets;

    EFI_EXT_SCSI_PASS_THRU_PROTOCOL pass_thru;
    EFI_EXT_SCSI_PASS_THRU_MODE mode;
    EFI_EVENT exit_event;
};

#define MR_FROM_PASS_THRU(p) \
    ((MR_CTRL *)((UINT8 *)(p) - __builtin_offsetof(MR_CTRL, pass_thru)))

/* driver.c */
UINT8 *mr_dma(MR_CTRL *c, UINTN off);
UINT64 mr_bus(MR_CTRL *c, UINTN off);
void mr_barrier(void);
void mr_diag_unlock(MR_CTRL *c, UINT32 write_seq_reg);
UINT64 mr_ready_us(MR_CTRL *c);
UINT32 mr_rd32(MR_CTRL *c, UINT32 off);
void mr_wr32(MR_CTRL *c, UINT32 off, UINT32 v);

/* ioc.c, fusion.c */
extern const MR_OPS mr_mpi3_ops;
extern const MR_OPS mr_fusion_ops;

/* passthru.c */
void mr_pass_thru_init(MR_CTRL *c);

#endif
