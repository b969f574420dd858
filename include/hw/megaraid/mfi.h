/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: register-level definitions of the MegaRAID "Fusion" host
 * interface (SAS39xx "Aero", Linux megaraid_sas) as megaraid-9500 models
 * it: the BAR0 register offsets and values, the firmware states, request
 * and reply descriptors, the 256-byte MPT request frame, the legacy MFI
 * frames tunnelled through it (INIT, DCMD, ABORT), MFI status codes and
 * the DCMD opcodes and buffer layouts the device answers.
 *
 * Frames are handled as byte arrays with the offsets below and the
 * little-endian load/store helpers, never as host structures.
 */
#ifndef HW_MEGARAID_MFI_H
#define HW_MEGARAID_MFI_H

/* ---- BAR0 registers ---- */
#define MFI_REG_DOORBELL            0x000
#define MFI_REG_WRITE_SEQ           0x004
#define MFI_REG_HOST_DIAG           0x008
#define MFI_REG_INTR_STATUS         0x030
#define MFI_REG_INTR_MASK           0x034
#define MFI_REG_REPLY_HOST_INDEX    0x06C
#define MFI_REG_SCRATCH0            0x0B0
#define MFI_REG_SCRATCH1            0x0B4
#define MFI_REG_SCRATCH2            0x0B8
#define MFI_REG_SCRATCH3            0x0BC
#define MFI_REG_REQ_LOW             0x0C0
#define MFI_REG_REQ_HIGH            0x0C4
#define MFI_REG_REQ_ATOMIC          0x0C8
#define MFI_REG_COMBINED_INDEX      0x30C   /* + 0x10 * group, 16 groups */
#define MFI_REG_COMBINED_INDEX_END  0x40C
#define MFI_BAR0_SIZE               0x10000

/* Doorbell commands (written in OPERATIONAL or during bring-up). */
#define MFI_DB_ABORT                0x01
#define MFI_DB_READY                0x02
#define MFI_DB_MFIMODE              0x04
#define MFI_DB_CLEAR_HANDSHAKE      0x08
#define MFI_DB_HOTPLUG              0x10
#define MFI_DB_STOP_ADAPTER         0x20

/* Host diagnostic register */
#define MFI_DIAG_RESET_ADAPTER      0x04
#define MFI_DIAG_WRITE_ENABLE       0x80

/* Interrupt status / mask bits */
#define MFI_INTR_REPLY              0x08
#define MFI_INTR_DOORBELL           0x01
#define MFI_INTR_ENABLE_BITS        (MFI_INTR_REPLY | MFI_INTR_DOORBELL)

/* Scratch pad 0: firmware state */
#define MFI_STATE_SHIFT             28
#define MFI_STATE_READY             0xB
#define MFI_STATE_OPERATIONAL       0xC
#define MFI_STATE_FAULT             0xF
#define MFI_SP0_MSIX                (1u << 26)
#define MFI_SP0_RESET_ALLOWED       (1u << 1)
#define MFI_SP0_MAX_CMDS_MASK       0xFFFF

/* Scratch pad 1: capabilities */
#define MFI_SP1_CHAIN_SHIFT         5       /* bits 9:5 */
#define MFI_SP1_QUEUES_SHIFT        14      /* bits 21:14 = queues - 1 */
#define MFI_SP1_CHAIN_512           (1u << 22)
#define MFI_SP1_RDPQ                (1u << 23)
#define MFI_SP1_ATOMIC_SYNC_CACHE   (1u << 24)
#define MFI_SP1_64BIT_DMA           (1u << 25)

/* Scratch pad 2: RAID map size in 64 KiB units, bits 24:16 */
#define MFI_SP2_MAP_SIZE_SHIFT      16
/* scratch pad 3 bits 7:0: log2 of the NVMe page size (Ventura and later) */
#define MFI_SP3_NVME_PAGE_SHIFT     12

/* ---- request and reply descriptors ---- */
#define MFI_REQ_TYPE(flags)         (((flags) >> 1) & 7)
#define MFI_REQ_TYPE_SCSI_IO        0
#define MFI_REQ_TYPE_MFA            1
#define MFI_REQ_TYPE_HIGH_PRIORITY  3
#define MFI_REQ_TYPE_FAST_PATH      6
#define MFI_REQ_TYPE_LD_IO          7
#define MFI_REPLY_DESC_SIZE         8
#define MFI_RDPQ_ENTRY_SIZE         16
#define MFI_RDPQ_MAX_ENTRIES        128

/* ---- MFI INIT frame and MPI2 IOC INIT ---- */
#define MFI_INIT_FRAME_SIZE         64
#define MFI_INIT_QINFO_LO           0x18
#define MFI_INIT_QINFO_HI           0x1C

#define IOCINIT_SIZE                72
#define IOCINIT_FUNCTION            0x03
#define IOCINIT_MSGFLAGS            0x07
#define IOCINIT_MSGFLAGS_RDPQ       0x01
#define IOCINIT_MSIX_VECTORS        0x17
#define IOCINIT_FRAME_SIZE          0x1A    /* in 32-bit words */
#define IOCINIT_REPLY_DEPTH         0x1C
#define IOCINIT_SENSE_HIGH          0x20
#define IOCINIT_FRAME_BASE          0x28
#define IOCINIT_REPLY_BASE          0x30
#define IOCINIT_TIMESTAMP           0x40
#define MPI2_FUNCTION_IOC_INIT      0x02

/* ---- the 256-byte MPT request frame ---- */
#define MPT_FRAME_SIZE              256
#define MPT_DEV_HANDLE              0x00
#define MPT_FUNCTION                0x03
#define MPT_SENSE_LOW               0x0C
#define MPT_SENSE_LENGTH            0x12
#define MPT_DATA_LENGTH             0x1C
#define MPT_IO_FLAGS                0x24
#define MPT_LUN                     0x34
#define MPT_CONTROL                 0x3C
#define MPT_CONTROL_WRITE           (1u << 24)
#define MPT_CONTROL_READ            (1u << 25)
#define MPT_CDB                     0x40
#define MPT_CDB_MAX                 32
#define MPT_RAIDCTX_TGT_ID          0x66
#define MPT_RAIDCTX_EX_STATUS       0x76
#define MPT_RAIDCTX_STATUS          0x77
#define MPT_RAIDCTX_RAID_FLAGS      0x78
#define MPT_RAID_FLAGS_SUBTYPE(f)   (((f) >> 4) & 0xF)
#define MPT_SUBTYPE_SYSTEM_PD       1
#define MPT_SGL                     0x80
#define MPT_SGL_ENTRIES             8
#define MPT_SGE_SIZE                16
#define MPT_SGE_FLAGS               0x0F    /* within an SGE */
#define MPT_SGE_CHAIN               0x80
#define MPT_SGE_END                 0x40
#define MPT_SGE_FORMAT_MASK         0x1C    /* IEEE (0), PRP, NVMe SGL */

#define MPT_FUNC_SCSI_IO            0x00
#define MPT_FUNC_TASK_MGMT          0x01
#define MPT_FUNC_MFI_PASSTHRU       0xF0
#define MPT_FUNC_LD_IO              0xF1

/* Task management frame */
#define MPT_TM_TYPE                 0x05
#define MPT_TM_TASK_MID             0x30
#define MPT_TM_ABORT_TASK           0x01
#define MPT_TM_TARGET_RESET         0x03
#define MPT_TM_REPLY                0x80

/* ---- MFI frames (256 bytes on Fusion) ---- */
#define MFI_FRAME_SIZE              256
#define MFI_HDR_CMD                 0x00
#define MFI_HDR_SENSE_LEN           0x01
#define MFI_HDR_STATUS              0x02
#define MFI_HDR_SCSI_STATUS         0x03
#define MFI_HDR_TARGET              0x04
#define MFI_HDR_LUN                 0x05
#define MFI_HDR_CDB_LEN             0x06
#define MFI_HDR_SGE_COUNT           0x07
#define MFI_HDR_CONTEXT             0x08
#define MFI_HDR_FLAGS               0x10
#define MFI_HDR_XFER_LEN            0x14
#define MFI_FLAGS_SGL64             0x0002
#define MFI_FLAGS_IEEE              0x0020

#define MFI_DCMD_OPCODE             0x18
#define MFI_DCMD_MBOX               0x1C
#define MFI_DCMD_SGL                0x28
#define MFI_PASS_SENSE_ADDR         0x18
#define MFI_PASS_CDB                0x20
#define MFI_PASS_SGL                0x30
#define MFI_FLAGS_DIR_WRITE         0x0008
#define MFI_FLAGS_DIR_READ          0x0010
#define MFI_ABORT_ADDR_LO           0x20
#define MFI_ABORT_ADDR_HI           0x24

#define MFI_CMD_INIT                0x00
#define MFI_CMD_LD_SCSI_IO          0x03
#define MFI_CMD_PD_SCSI_IO          0x04
#define MFI_CMD_DCMD                0x05
#define MFI_CMD_ABORT               0x06

/* MFI status codes */
#define MFI_STAT_OK                 0x00
#define MFI_STAT_INVALID_CMD        0x01
#define MFI_STAT_INVALID_DCMD       0x02
#define MFI_STAT_INVALID_PARAMETER  0x03
#define MFI_STAT_ABORT_NOT_POSSIBLE 0x05
#define MFI_STAT_DEVICE_NOT_FOUND   0x0C
#define MFI_STAT_MEMORY_NOT_AVAIL   0x20
#define MFI_STAT_NOT_FOUND          0x23
#define MFI_STAT_SCSI_DONE_WITH_ERROR 0x2D
#define MFI_STAT_SCSI_IO_FAILED     0x2E
#define MFI_STAT_WRONG_STATE        0x32
#define MFI_STAT_LD_OFFLINE         0x33
#define MFI_STAT_CONFIG_SEQ_MISMATCH 0x67

/* ---- DCMD opcodes ---- */
#define MR_DCMD_CTRL_GET_INFO       0x01010000
#define MR_DCMD_CTRL_EVENT_GET_INFO 0x01040100
#define MR_DCMD_CTRL_EVENT_WAIT     0x01040500
#define MR_DCMD_CTRL_SHUTDOWN       0x01050000
#define MR_DCMD_HIBERNATE_SHUTDOWN  0x01060000
#define MR_DCMD_CTRL_CACHE_FLUSH    0x01101000
#define MR_DCMD_PD_GET_LIST         0x02010000
#define MR_DCMD_PD_LIST_QUERY       0x02010100
#define MR_DCMD_PD_GET_INFO         0x02020000
#define MR_DCMD_LD_GET_LIST         0x03010000
#define MR_DCMD_LD_LIST_QUERY       0x03010100
#define MR_DCMD_LD_GET_INFO         0x03020000
#define MR_DCMD_LD_MAP_GET_INFO     0x0300E101
#define MR_DCMD_SYSTEM_PD_MAP       0x0200E102
#define MR_DCMD_DEV_GET_TARGET_PROP 0x0200E103

/* Controller info (2384 bytes) */
#define MR_CTRL_INFO_SIZE           2384
#define CI_PCI_VENDOR               0x000
#define CI_PCI_DEVICE               0x002
#define CI_PCI_SUBVENDOR            0x004
#define CI_PCI_SUBDEVICE            0x006
#define CI_HOST_INTERFACE           0x020
#define CI_IMAGE_COUNT              0x0B4
#define CI_IMAGE_COMPONENT          0x0B8   /* name[8] version[32] ... */
#define CI_MAX_ARMS                 0x53C
#define CI_MAX_SPANS                0x53D
#define CI_MAX_ARRAYS               0x53E
#define CI_MAX_LDS                  0x53F
#define CI_PRODUCT_NAME             0x540
#define CI_SERIAL                   0x590
#define CI_MAX_CMDS                 0x5B8
#define CI_MAX_SGE                  0x5BA
#define CI_MAX_REQUEST_SIZE         0x5BC
#define CI_LD_PRESENT               0x5C0
#define CI_LD_DEGRADED              0x5C2
#define CI_LD_OFFLINE               0x5C4
#define CI_PD_PRESENT_COUNT         0x5C6
#define CI_PD_DISK_PRESENT          0x5C8
#define CI_MEMORY_SIZE              0x5D0
#define CI_MAX_STRIPS_PER_IO        0x5DA
#define CI_RAID_LEVELS              0x5DC
/*
 * raid_levels bits (public mfi_ctrl_info): 0, 1, 5, 1E, 6; the spanned
 * levels 00/10/50/60 are the adapter operations' spanning_allowed
 */
#define CI_RAID_0                   0x01
#define CI_RAID_1                   0x02
#define CI_RAID_5                   0x04
#define CI_RAID_1E                  0x08
#define CI_RAID_6                   0x10
#define CI_STRIPE_MIN               0x5E8
#define CI_STRIPE_MAX               0x5E9
#define CI_ON_OFF_PROPS             0x620
#define CI_ON_OFF_ENABLE_JBOD       (1u << 13)
#define CI_PACKAGE_VERSION          0x640
#define CI_ADAPTER_OPS2             0x7A4
#define CI_OPS2_SUPPORT_JBOD        (1u << 11)
#define CI_MAX_PDS                  0x780
#define CI_ADAPTER_OPS3             0x7E8
#define CI_OPS3_MAX_EXT_LDS         (1u << 5)
#define CI_OPS3_SEQ_NUM_JBOD_FP     (1u << 24)  /* JBOD sequence map */
#define CI_TASK_ABORT_TO            0x94B
#define CI_MAX_RESET_TO             0x94C

/* PD list (header 8 bytes, 24-byte entries) */
#define MR_PD_LIST_HDR              8
#define MR_PD_LIST_ENTRY            24
/* LD target id list (268 bytes) */
#define MR_LD_TGTID_LIST_SIZE       268
/* LD list (4104 bytes) */
#define MR_LD_LIST_SIZE             4104
/* LD info (384 bytes) */
#define MR_LD_INFO_SIZE             384
/* PD info (512 bytes) */
#define MR_PD_INFO_SIZE             512
/* DEV_GET_TARGET_PROP's answer (MR_TARGET_PROPERTIES) */
#define MR_TGT_PROP_SIZE            512
#define MR_TGT_PROP_MAX_IO_KB       0x00
#define MR_TGT_PROP_QDEPTH          0x04
#define MR_TGT_PROP_SECTOR          0x08
#define MR_TGT_PROP_RESET_TMO       0x0C
#define PDI_DEVICE_ID               0x000
#define PDI_INQUIRY                 0x004
#define PDI_SCSI_TYPE               0x0A5
#define PDI_FW_STATE                0x0B8
#define PDI_DDF_TYPE                0x0BC
#define PDI_RAW_SIZE                0x0E8
#define PDI_NONCOERCED_SIZE         0x0F0
#define PDI_COERCED_SIZE            0x0F8
#define PDI_ENCL_ID                 0x100
#define PDI_SLOT                    0x103
#define MR_PD_STATE_SYSTEM          0x40
#define MR_PD_IF_SAS                2
#define MR_PD_IF_SATA               3
#define MR_PD_IF_NVME               5
/* Event log info (five u32) */
#define MR_EVT_LOG_INFO_SIZE        20

/* Event detail (MR_EVT_DETAIL_SIZE bytes): offsets and the values used. */
#define MFI_EVT_SEQ                 0x00
#define MFI_EVT_TIME                0x04
#define MFI_EVT_CODE                0x08
#define MFI_EVT_LOCALE              0x0C
#define MFI_EVT_CLASS               0x0F
#define MFI_EVT_ARG_TYPE            0x10
#define MFI_EVT_ARGS                0x20
#define MFI_EVT_DESCRIPTION         0x80
#define MFI_EVT_LOCALE_LD           0x0001
#define MFI_EVT_LOCALE_PD           0x0002
#define MFI_EVT_ARG_LD              2       /* argument type: an LD */
#define MFI_EVT_ARG_PD              10      /* argument type: a PD */

/* ---- configuration and LD management DCMDs (mr9500-cfg.c) ---- */
#define MR_DCMD_LD_GET_PROPERTIES   0x03030000
#define MR_DCMD_LD_SET_PROPERTIES   0x03040000
#define MR_DCMD_LD_INIT_START       0x03060100
#define MR_DCMD_LD_DELETE           0x03090000
#define MR_DCMD_CFG_READ            0x04010000
#define MR_DCMD_CFG_ADD             0x04020000
#define MR_DCMD_CFG_CLEAR           0x04030000
#define MR_DCMD_CFG_MAKE_SPARE      0x04040000
#define MR_DCMD_CFG_REMOVE_SPARE    0x04050000
#define MR_DCMD_CFG_FOREIGN_SCAN    0x04060100
#define MR_DCMD_CFG_FOREIGN_DISPLAY 0x04060200
#define MR_DCMD_CFG_FOREIGN_PREVIEW 0x04060300
#define MR_DCMD_CFG_FOREIGN_IMPORT  0x04060400
#define MR_DCMD_CFG_FOREIGN_CLEAR   0x04060500

/* more MFI status codes */
#define MFI_STAT_ARRAY_INDEX_INVALID    0x09
#define MFI_STAT_CONFIG_RESOURCE_CONFLICT 0x0B
#define MFI_STAT_DRIVE_TOO_SMALL        0x0D
#define MFI_STAT_LD_CC_IN_PROGRESS      0x17
#define MFI_STAT_LD_INIT_IN_PROGRESS    0x18
#define MFI_STAT_LD_MAX_CONFIGURED      0x1A
#define MFI_STAT_LD_RBLD_IN_PROGRESS    0x1C
#define MFI_STAT_LD_WRONG_RAID_LEVEL    0x1E
#define MFI_STAT_MAX_SPARES_EXCEEDED    0x1F
#define MFI_STAT_INVALID_SEQUENCE_NUMBER 0x04

/* MFI PD firmware states (PD info, a configuration's arrays) */
#define MR_PD_STATE_UNCONF_GOOD     0x00
#define MR_PD_STATE_UNCONF_BAD      0x01
#define MR_PD_STATE_HOT_SPARE       0x02
#define MR_PD_STATE_OFFLINE         0x10
#define MR_PD_STATE_FAILED          0x11
#define MR_PD_STATE_REBUILD         0x14
#define MR_PD_STATE_ONLINE          0x18

/*
 * Configuration data (CFG_READ, CFG_ADD, foreign preview): a 32-byte
 * header, then array_count arrays of array_size bytes, log_drv_count LD
 * configurations of log_drv_size bytes, spares_count spares of
 * spares_size bytes.
 */
#define MR_CFG_HDR_SIZE             32
#define MR_CFG_SIZE                 0x00    /* u32: bytes of the whole */
#define MR_CFG_ARRAY_COUNT          0x04    /* u16 */
#define MR_CFG_ARRAY_SIZE           0x06
#define MR_CFG_LD_COUNT             0x08
#define MR_CFG_LD_SIZE              0x0A
#define MR_CFG_SPARE_COUNT          0x0C
#define MR_CFG_SPARE_SIZE           0x0E
/* an array: 32-byte header, then 8-byte drive entries (32 in 288 bytes) */
#define MR_ARRAY_SIZE               288
#define MR_ARRAY_HDR                32
#define MR_ARRAY_BLOCKS             0x00    /* u64: per drive */
#define MR_ARRAY_NUM_DRIVES         0x08
#define MR_ARRAY_REF                0x0A    /* u16 */
#define MR_ARRAY_PD_SIZE            8
#define MR_ARRAY_PD_ID              0x00    /* u16 device id, 0xFFFF missing */
#define MR_ARRAY_PD_SEQ             0x02
#define MR_ARRAY_PD_STATE           0x04    /* u16 MR_PD_STATE_* */
#define MR_ARRAY_PD_ENCL            0x06
#define MR_ARRAY_PD_SLOT            0x07
/*
 * An LD configuration (256 bytes; also the first 256 bytes of LD info):
 * properties (32), parameters (32), 8 spans of 24 bytes.
 */
#define MR_LD_CONFIG_SIZE           256
#define MR_LD_PROPS_SIZE            32
#define MR_LDP_TARGET_ID            0x00
#define MR_LDP_SEQ                  0x02    /* u16 */
#define MR_LDP_NAME                 0x04    /* 16 bytes */
#define MR_LDP_DEFAULT_CACHE        0x14
#define MR_LDP_ACCESS               0x15
#define MR_LDP_DISK_CACHE           0x16
#define MR_LDP_CURRENT_CACHE        0x17
#define MR_LDP_NO_BGI               0x18
#define MR_LDC_PRL                  0x20
#define MR_LDC_RLQ                  0x21
#define MR_LDC_SRL                  0x22
#define MR_LDC_STRIPE               0x23    /* 2^n sectors */
#define MR_LDC_NUM_DRIVES           0x24    /* per span */
#define MR_LDC_SPAN_DEPTH           0x25
#define MR_LDC_STATE                0x26
#define MR_LDC_INIT_STATE           0x27    /* 0 no, 1 quick, 2 full */
#define MR_LDC_CONSISTENT           0x28
#define MR_LDC_SPANS                0x40
#define MR_LDC_SPAN_SIZE            24
#define MR_LDC_SPAN_START           0x00    /* u64 */
#define MR_LDC_SPAN_BLOCKS          0x08    /* u64 */
#define MR_LDC_SPAN_ARRAY           0x10    /* u16 */
#define MR_LDC_MAX_SPANS            8
/* LD info after the configuration: size, then the progress block */
#define MR_LDI_PROGRESS             0x108   /* u32 active bits */
#define MR_LDI_PROG_CC              0x10C   /* u16 progress (/65535), u16 s */
#define MR_LDI_PROG_BGI             0x110
#define MR_LDI_PROG_FGI             0x114
#define MR_LDI_PROG_RECON           0x118
#define MR_LD_PROGRESS_CC           0x01
#define MR_LD_PROGRESS_BGI          0x02
#define MR_LD_PROGRESS_FGI          0x04
#define MR_LD_PROGRESS_RECON        0x08
/* a hot spare: PD ref, type, array count, 16 array refs (40 bytes) */
#define MR_SPARE_SIZE               40
#define MR_SPARE_HDR                8
#define MR_SPARE_PD_ID              0x00
#define MR_SPARE_TYPE               0x04
#define MR_SPARE_DEDICATED          0x01
#define MR_SPARE_ARRAY_COUNT        0x07
#define MR_SPARE_ARRAYS             0x08
#define MR_SPARE_MAX_ARRAYS         16
/* FOREIGN_SCAN: count, then 8 configuration ids of 24 bytes */
#define MR_FOREIGN_SCAN_SIZE        196

/* physical drive management DCMDs (mr9500-pd-mgmt.c) */
#define MR_DCMD_PD_STATE_SET        0x02030100  /* mbox: PD ref, u16 state */
#define MR_DCMD_PD_REBUILD_START    0x02040100  /* mbox: PD ref */
#define MR_DCMD_PD_REBUILD_ABORT    0x02040200
#define MR_DCMD_PD_GET_PROGRESS     0x02060000  /* MR_PD_PROGRESS, 32 bytes */

/* controller management and battery DCMDs (mr9500-ctrl-mgmt.c, -bbu.c) */
#define MR_DCMD_CTRL_GET_PROPERTIES 0x01020100  /* mfi_ctrl_props, 64 bytes */
#define MR_DCMD_CTRL_SET_PROPERTIES 0x01020200
#define MR_DCMD_CTRL_EVENT_GET      0x01040300  /* mbox: seq, locale/class */
#define MR_DCMD_CTRL_TIME_SECS_GET  0x01080201
#define MR_DCMD_BBU_GET_STATUS      0x05010000
#define MR_DCMD_BBU_GET_CAPACITY    0x05020000
#define MR_DCMD_BBU_GET_DESIGN      0x05030000
#define MR_DCMD_BBU_GET_PROPERTIES  0x05050100
#define MFI_STAT_NO_HW_PRESENT      0x22

#endif
