/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: MPI 3.0 host interface definitions (registers, request and
 * reply frames, descriptors, configuration pages, events) as seen by the
 * device.  Written from the interface description in
 * docs/mpi3-host-interface.md; all fields are little endian.
 *
 * The option ROM's UEFI driver (firmware/uefi/) includes it too, built
 * with MPI3_STANDALONE outside QEMU: only the fixed-width integer types
 * are needed then.
 */
#ifndef HW_MEGARAID_MPI3_H
#define HW_MEGARAID_MPI3_H

#ifdef MPI3_STANDALONE
#define QEMU_PACKED __attribute__((packed))
#define QEMU_BUILD_BUG_ON(x) _Static_assert(!(x), "not " #x)
#else
#include "qemu/osdep.h"
#endif

/* ---- System interface registers (BAR0) ---- */

#define MPI3_SYSIF_SIZE                     0x4000

#define MPI3_REG_IOC_INFO_LO                0x0000
#define MPI3_REG_IOC_INFO_HI                0x0004
#define MPI3_REG_VERSION                    0x0008
#define MPI3_REG_IOC_CONFIG                 0x0014
#define MPI3_REG_IOC_STATUS                 0x001C
#define MPI3_REG_ADMIN_Q_NUM_ENTRIES        0x0024
#define MPI3_REG_ADMIN_REQ_Q_ADDR_LO        0x0028
#define MPI3_REG_ADMIN_REQ_Q_ADDR_HI        0x002C
#define MPI3_REG_ADMIN_REPLY_Q_ADDR_LO      0x0030
#define MPI3_REG_ADMIN_REPLY_Q_ADDR_HI      0x0034
#define MPI3_REG_COALESCE_CONTROL           0x0040
#define MPI3_REG_DOORBELL_BASE              0x1000  /* admin PI */
#define MPI3_REG_DOORBELL_END               0x1C00
#define MPI3_REG_WRITE_SEQUENCE             0x1C04
#define MPI3_REG_HOST_DIAG                  0x1C08
#define MPI3_REG_FAULT                      0x1C10
#define MPI3_REG_FAULT_INFO0                0x1C14
#define MPI3_REG_FAULT_INFO1                0x1C18
#define MPI3_REG_FAULT_INFO2                0x1C1C
#define MPI3_REG_HCB_ADDR_LO                0x1C30
#define MPI3_REG_HCB_ADDR_HI                0x1C34
#define MPI3_REG_HCB_SIZE                   0x1C38
#define MPI3_REG_REPLY_FREE_HOST_INDEX      0x1C40
#define MPI3_REG_SENSE_FREE_HOST_INDEX      0x1C44
#define MPI3_REG_SCRATCHPAD0                0x1CF0
#define MPI3_REG_SCRATCHPAD3                0x1CFC

/* Number of operational queue pairs the doorbell area has room for. */
#define MPI3_MAX_OP_QUEUES_REGMAP           383

#define MPI3_IOC_INFO_TIMEOUT_SHIFT         24

#define MPI3_IOC_CONFIG_ENABLE_IOC          (1u << 0)
#define MPI3_IOC_CONFIG_DIAG_SAVE           (1u << 4)
#define MPI3_IOC_CONFIG_DEV_SHUTDOWN_SEND   (1u << 13)
#define MPI3_IOC_CONFIG_SHUTDOWN_MASK       (3u << 14)
#define MPI3_IOC_CONFIG_SHUTDOWN_NORMAL     (1u << 14)
/* Entry sizes: 128-byte requests (2^7), 16-byte replies (2^4). */
#define MPI3_IOC_CONFIG_ENTRY_SIZES         0x00470000u
#define MPI3_IOC_CONFIG_ENTRY_SIZES_MASK    0x00FF0000u

#define MPI3_IOC_STATUS_READY               (1u << 0)
#define MPI3_IOC_STATUS_FAULT               (1u << 1)
#define MPI3_IOC_STATUS_SHUTDOWN_MASK       (3u << 2)
#define MPI3_IOC_STATUS_SHUTDOWN_IN_PROGRESS (1u << 2)
#define MPI3_IOC_STATUS_SHUTDOWN_COMPLETE   (2u << 2)
#define MPI3_IOC_STATUS_RESET_HISTORY       (1u << 4)

#define MPI3_HOST_DIAG_WRITE_ENABLE         (1u << 0)
#define MPI3_HOST_DIAG_SAVE_IN_PROGRESS     (1u << 7)
#define MPI3_HOST_DIAG_RESET_ACTION_SHIFT   8
#define MPI3_HOST_DIAG_RESET_ACTION_MASK    (7u << 8)
#define MPI3_HOST_DIAG_ACTION_SOFT_RESET    1
#define MPI3_HOST_DIAG_ACTION_HOST_BOOT     2
#define MPI3_HOST_DIAG_ACTION_COMPLETE      3
#define MPI3_HOST_DIAG_ACTION_DIAG_FAULT    7

#define MPI3_WRITE_SEQ_KEY_MASK             0xF

#define MPI3_FAULT_DIAG_FAULT_RESET         0xF000

/* ---- Function codes ---- */

#define MPI3_FUNCTION_IOC_FACTS             0x01
#define MPI3_FUNCTION_IOC_INIT              0x02
#define MPI3_FUNCTION_PORT_ENABLE           0x03
#define MPI3_FUNCTION_EVENT_NOTIFICATION    0x04
#define MPI3_FUNCTION_EVENT_ACK             0x05
#define MPI3_FUNCTION_CI_DOWNLOAD           0x06
#define MPI3_FUNCTION_CI_UPLOAD             0x07
#define MPI3_FUNCTION_IO_UNIT_CONTROL       0x08
#define MPI3_FUNCTION_PERSISTENT_EVENT_LOG  0x09
#define MPI3_FUNCTION_MGMT_PASSTHROUGH      0x0A
#define MPI3_FUNCTION_CONFIG                0x10
#define MPI3_FUNCTION_SCSI_IO               0x20
#define MPI3_FUNCTION_SCSI_TASK_MGMT        0x21
#define MPI3_FUNCTION_SMP_PASSTHROUGH       0x22
#define MPI3_FUNCTION_NVME_ENCAPSULATED     0x24
#define MPI3_FUNCTION_CREATE_REQUEST_QUEUE  0x70
#define MPI3_FUNCTION_DELETE_REQUEST_QUEUE  0x71
#define MPI3_FUNCTION_CREATE_REPLY_QUEUE    0x72
#define MPI3_FUNCTION_DELETE_REPLY_QUEUE    0x73
#define MPI3_FUNCTION_TOOLBOX               0x80
#define MPI3_FUNCTION_DIAG_BUFFER_POST      0x81
#define MPI3_FUNCTION_DIAG_BUFFER_MANAGE    0x82
#define MPI3_FUNCTION_DIAG_BUFFER_UPLOAD    0x83

/* ---- IOC status codes ---- */

#define MPI3_IOCSTATUS_SUCCESS                  0x0000
#define MPI3_IOCSTATUS_INVALID_FUNCTION         0x0001
#define MPI3_IOCSTATUS_BUSY                     0x0002
#define MPI3_IOCSTATUS_INVALID_SGL              0x0003
#define MPI3_IOCSTATUS_INTERNAL_ERROR           0x0004
#define MPI3_IOCSTATUS_INSUFFICIENT_RESOURCES   0x0006
#define MPI3_IOCSTATUS_INVALID_FIELD            0x0007
#define MPI3_IOCSTATUS_INVALID_STATE            0x0008
#define MPI3_IOCSTATUS_CONFIG_INVALID_ACTION    0x0020
#define MPI3_IOCSTATUS_CONFIG_INVALID_TYPE      0x0021
#define MPI3_IOCSTATUS_CONFIG_INVALID_PAGE      0x0022
#define MPI3_IOCSTATUS_CONFIG_INVALID_DATA      0x0023
#define MPI3_IOCSTATUS_SCSI_INVALID_DEVHANDLE   0x0042
#define MPI3_IOCSTATUS_SCSI_DEVICE_NOT_THERE    0x0043
#define MPI3_IOCSTATUS_SCSI_DATA_OVERRUN        0x0044
#define MPI3_IOCSTATUS_SCSI_DATA_UNDERRUN       0x0045
#define MPI3_IOCSTATUS_SCSI_TASK_TERMINATED     0x0048
#define MPI3_IOCSTATUS_SCSI_TASK_MGMT_FAILED    0x004A
#define MPI3_IOCSTATUS_SCSI_IOC_TERMINATED      0x004B
#define MPI3_IOCSTATUS_INVALID_QUEUE_ID         0x0F00
#define MPI3_IOCSTATUS_INVALID_QUEUE_SIZE       0x0F01
#define MPI3_IOCSTATUS_INVALID_MSIX_VECTOR      0x0F02
#define MPI3_IOCSTATUS_INVALID_REPLY_QUEUE_ID   0x0F03
#define MPI3_IOCSTATUS_INVALID_QUEUE_DELETION   0x0F04
#define MPI3_IOCSTATUS_STATUS_MASK              0x7FFF
#define MPI3_IOCSTATUS_LOGINFO_AVAIL            0x8000

/* ---- Request header and SGEs ---- */

typedef struct QEMU_PACKED MPI3RequestHeader {
    uint16_t host_tag;
    uint8_t ioc_use_only02;
    uint8_t function;
    uint16_t ioc_use_only04;
    uint8_t ioc_use_only06;
    uint8_t msg_flags;
    uint16_t change_count;
    uint16_t function_dependent;
} MPI3RequestHeader;
QEMU_BUILD_BUG_ON(sizeof(MPI3RequestHeader) != 12);

typedef struct QEMU_PACKED MPI3DefaultReply {
    uint16_t host_tag;
    uint8_t ioc_use_only02;
    uint8_t function;
    uint16_t ioc_use_only04;
    uint8_t ioc_use_only06;
    uint8_t msg_flags;
    uint16_t ioc_use_only08;
    uint16_t ioc_status;
    uint32_t ioc_log_info;
} MPI3DefaultReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3DefaultReply) != 16);

/* NVMe ENCAPSULATED: an NVMe submission queue entry for a PCIe device */
typedef struct QEMU_PACKED MPI3NVMeEncapRequest {
    MPI3RequestHeader hdr;      /* function_dependent: device handle */
    uint16_t encapsulated_command_length;   /* bytes */
    uint16_t flags;
    uint32_t data_length;
    uint32_t reserved14[3];
    uint8_t command[64];        /* the NVMe command */
} MPI3NVMeEncapRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3NVMeEncapRequest) != 96);

#define MPI3_NVME_FLAGS_FORCE_ADMIN_ERR_REPLY_ALL   0x0002
#define MPI3_NVME_FLAGS_SUBMISSIONQ_ADMIN           0x0001

/* Its address reply: the NVMe completion queue entry */
typedef struct QEMU_PACKED MPI3NVMeEncapErrorReply {
    MPI3DefaultReply hdr;
    uint32_t nvme_completion_entry[4];
} MPI3NVMeEncapErrorReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3NVMeEncapErrorReply) != 32);

typedef struct QEMU_PACKED MPI3SGE {
    uint64_t address;
    uint32_t length;
    uint8_t reserved0c[3];
    uint8_t flags;
} MPI3SGE;
QEMU_BUILD_BUG_ON(sizeof(MPI3SGE) != 16);

#define MPI3_SGE_FLAGS_TYPE_MASK            0xF0
#define MPI3_SGE_FLAGS_TYPE_SIMPLE          0x00
#define MPI3_SGE_FLAGS_TYPE_BIT_BUCKET      0x10
#define MPI3_SGE_FLAGS_TYPE_CHAIN           0x20
#define MPI3_SGE_FLAGS_TYPE_LAST_CHAIN      0x30
#define MPI3_SGE_FLAGS_TYPE_EXTENDED        0xF0
#define MPI3_SGE_FLAGS_END_OF_LIST          0x08
#define MPI3_SGE_FLAGS_END_OF_BUFFER        0x04
#define MPI3_SGE_FLAGS_DLAS_MASK            0x03

/* ---- Reply descriptors (16 bytes) ---- */

typedef struct QEMU_PACKED MPI3ReplyDescriptor {
    union {
        uint64_t reply_frame_address;           /* ADDRESS REPLY */
        struct QEMU_PACKED {
            uint16_t ioc_status;                /* STATUS */
            uint16_t reserved02;
            uint32_t ioc_log_info;
        } status;
    };
    uint16_t request_queue_ci;
    uint16_t request_queue_id;
    uint16_t host_tag;                          /* SUCCESS, STATUS */
    uint16_t reply_flags;
} MPI3ReplyDescriptor;
QEMU_BUILD_BUG_ON(sizeof(MPI3ReplyDescriptor) != 16);

#define MPI3_REPLY_DESCRIPT_FLAGS_PHASE         0x0001
#define MPI3_REPLY_DESCRIPT_FLAGS_TYPE_ADDRESS  0x0000
#define MPI3_REPLY_DESCRIPT_FLAGS_TYPE_SUCCESS  0x1000
#define MPI3_REPLY_DESCRIPT_FLAGS_TYPE_STATUS   0x3000
#define MPI3_REPLY_DESCRIPT_FLAGS_TYPE_MASK     0xF000

/* ---- IOC FACTS ---- */

typedef struct QEMU_PACKED MPI3IOCFactsRequest {
    MPI3RequestHeader hdr;
    uint32_t reserved0c;
    MPI3SGE sgl;
} MPI3IOCFactsRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3IOCFactsRequest) != 32);

typedef struct QEMU_PACKED MPI3IOCFactsData {
    uint16_t ioc_facts_data_length;
    uint16_t reserved02;
    uint32_t mpi_version;
    uint16_t fw_build_num;
    uint16_t fw_customer_id;
    uint8_t fw_phase_minor;
    uint8_t fw_phase_major;
    uint8_t fw_gen_minor;
    uint8_t fw_gen_major;
    uint32_t ioc_capabilities;
    uint8_t ioc_number;
    uint8_t who_init;
    uint16_t max_msix_vectors;
    uint16_t max_outstanding_requests;
    uint16_t product_id;
    uint16_t ioc_request_frame_size;
    uint16_t reply_frame_size;
    uint16_t ioc_exceptions;
    uint16_t max_persistent_id;
    uint8_t sge_modifier_mask;
    uint8_t sge_modifier_value;
    uint8_t sge_modifier_shift;
    uint8_t protocol_flags;
    uint16_t max_sas_initiators;
    uint16_t max_data_length;
    uint16_t max_sas_expanders;
    uint16_t max_enclosures;
    uint16_t min_dev_handle;
    uint16_t max_dev_handle;
    uint16_t max_pcie_switches;
    uint16_t max_nvme;
    uint16_t reserved38;
    uint16_t max_vds;
    uint16_t max_host_pds;
    uint16_t max_adv_host_pds;
    uint16_t max_raid_pds;
    uint16_t max_posted_cmd_buffers;
    uint32_t flags;
    uint16_t max_operational_request_queues;
    uint16_t max_operational_reply_queues;
    uint16_t shutdown_timeout;
    uint16_t reserved4e;
    uint32_t diag_trace_size;
    uint32_t diag_fw_size;
    uint32_t diag_driver_size;
    uint8_t max_host_pd_ns_count;
    uint8_t max_adv_host_pd_ns_count;
    uint8_t max_raid_pd_ns_count;
    uint8_t max_devices_per_throttle_group;
    uint16_t io_throttle_data_length;
    uint16_t max_io_throttle_group;
    uint16_t io_throttle_low;
    uint16_t io_throttle_high;
    uint32_t diag_fdl_size;
    uint32_t diag_tty_size;
} MPI3IOCFactsData;
QEMU_BUILD_BUG_ON(sizeof(MPI3IOCFactsData) != 112);

#define MPI3_IOCFACTS_CAPABILITY_NON_SUPERVISOR     (1u << 31)
#define MPI3_IOCFACTS_CAPABILITY_RAID_SUPPORTED     (1u << 3)
#define MPI3_IOCFACTS_CAPABILITY_MULTIPATH          (1u << 1)
#define MPI3_IOCFACTS_PROTOCOL_SAS                  (1u << 4)
#define MPI3_IOCFACTS_PROTOCOL_SATA                 (1u << 3)
#define MPI3_IOCFACTS_PROTOCOL_NVME                 (1u << 2)
#define MPI3_IOCFACTS_PROTOCOL_SCSI_INITIATOR       (1u << 1)
#define MPI3_IOCFACTS_FLAGS_PERSONALITY_EHBA        0
#define MPI3_IOCFACTS_FLAGS_PERSONALITY_RAID_DDR    2
#define MPI3_IOCFACTS_FLAGS_DMA_ADDRESS_WIDTH_SHIFT 8   /* bits 15:8 */
#define MPI3_IOCFACTS_FLAGS_MAX_REQ_PER_REPLY_Q     (1u << 6)

/* ---- IOC INIT ---- */

typedef struct QEMU_PACKED MPI3IOCInitRequest {
    MPI3RequestHeader hdr;
    uint32_t mpi_version;
    uint64_t time_stamp;
    uint8_t reserved18;
    uint8_t who_init;
    uint16_t reserved1a;
    uint16_t reply_free_queue_depth;
    uint16_t reserved1e;
    uint64_t reply_free_queue_address;
    uint32_t reserved28;
    uint16_t sense_buffer_free_queue_depth;
    uint16_t sense_buffer_length;
    uint64_t sense_buffer_free_queue_address;
    uint64_t driver_information_address;
} MPI3IOCInitRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3IOCInitRequest) != 64);

/* ---- CI UPLOAD ---- */

typedef struct QEMU_PACKED MPI3CIUploadRequest {
    MPI3RequestHeader hdr;
    uint32_t signature1;
    uint32_t reserved10;
    uint32_t image_offset;
    uint32_t segment_size;
    uint32_t reserved1c;
    MPI3SGE sgl;
} MPI3CIUploadRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3CIUploadRequest) != 48);

#define MPI3_CI_UPLOAD_MANIFEST_SIZE        176
#define MPI3_CI_MANIFEST_PKG_VERSION_OFFSET 0x38

/* ---- Operational queue management ---- */

typedef struct QEMU_PACKED MPI3CreateQueueRequest {
    MPI3RequestHeader hdr;      /* function_dependent: flags (lo), burst */
    uint16_t size;
    uint16_t queue_id;
    uint16_t reply_queue_id_or_msix; /* request: ReplyQueueID, reply: MSIx */
    uint16_t reserved12;
    uint32_t reserved14;
    uint64_t base_address;
} MPI3CreateQueueRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3CreateQueueRequest) != 32);

#define MPI3_CREATE_QUEUE_FLAGS_SEGMENTED       0x80
#define MPI3_CREATE_REPLY_FLAGS_COALESCE_DIS    0x02
#define MPI3_CREATE_REPLY_FLAGS_INT_ENABLE      0x01
#define MPI3_QUEUE_SEGMENT_SIZE                 4096
#define MPI3_QUEUE_MAX_SEGMENTS                 512

typedef struct QEMU_PACKED MPI3DeleteQueueRequest {
    MPI3RequestHeader hdr;      /* function_dependent: queue id */
} MPI3DeleteQueueRequest;

/* ---- Events ---- */

typedef struct QEMU_PACKED MPI3EventNotificationRequest {
    MPI3RequestHeader hdr;
    uint16_t sas_broadcast_primitive_masks;
    uint16_t sas_notify_primitive_masks;
    uint32_t event_masks[4];
} MPI3EventNotificationRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventNotificationRequest) != 32);

typedef struct QEMU_PACKED MPI3EventNotificationReply {
    MPI3DefaultReply hdr;
    uint8_t event_data_length;  /* dwords */
    uint8_t event;
    uint16_t ioc_change_count;
    uint32_t event_context;
    /* event data follows */
} MPI3EventNotificationReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventNotificationReply) != 24);

#define MPI3_EVENT_NOTIFY_MSGFLAGS_ACK_REQUIRED 0x01

#define MPI3_EVENT_LOG_DATA                     0x01
#define MPI3_EVENT_CHANGE                       0x02
#define MPI3_EVENT_DEVICE_ADDED                 0x07
#define MPI3_EVENT_DEVICE_INFO_CHANGED          0x08
#define MPI3_EVENT_PREPARE_FOR_RESET            0x09
#define MPI3_EVENT_DEVICE_STATUS_CHANGE         0x0D
#define MPI3_EVENT_ENERGY_PACK_CHANGE           0x0E
#define MPI3_EVENT_SAS_DISCOVERY                0x11
#define MPI3_EVENT_SAS_TOPOLOGY_CHANGE_LIST     0x16
#define MPI3_EVENT_PCIE_TOPOLOGY_CHANGE_LIST    0x20
#define MPI3_EVENT_PCIE_ENUMERATION             0x22

typedef struct QEMU_PACKED MPI3EventAckRequest {
    MPI3RequestHeader hdr;
    uint8_t event;
    uint8_t reserved0d[3];
    uint32_t event_context;
} MPI3EventAckRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventAckRequest) != 20);

/* SAS topology change list: 12-byte header + 4-byte entries. */
typedef struct QEMU_PACKED MPI3EventSASTopoEntry {
    uint16_t attached_dev_handle;
    uint8_t link_rate;
    uint8_t status;
} MPI3EventSASTopoEntry;

typedef struct QEMU_PACKED MPI3EventSASTopoChange {
    uint16_t enclosure_handle;
    uint16_t expander_dev_handle;
    uint8_t num_phys;
    uint8_t reserved05[3];
    uint8_t num_entries;
    uint8_t start_phy_num;
    uint8_t exp_status;
    uint8_t io_unit_port;
    MPI3EventSASTopoEntry entry[1];
} MPI3EventSASTopoChange;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventSASTopoChange) != 16);

#define MPI3_EVENT_SAS_TOPO_PHY_RC_TARG_NOT_RESPONDING  0x02
#define MPI3_EVENT_SAS_TOPO_PHY_RC_RESPONDING           0x06
#define MPI3_EVENT_SAS_TOPO_ES_NO_EXPANDER              0x00

/* PCIe topology change list: 16-byte header + 8-byte entries. */
typedef struct QEMU_PACKED MPI3EventPCIeTopoEntry {
    uint16_t attached_dev_handle;
    uint8_t port_status;
    uint8_t reserved03;
    uint8_t current_port_info;
    uint8_t reserved05;
    uint8_t previous_port_info;
    uint8_t reserved07;
} MPI3EventPCIeTopoEntry;

typedef struct QEMU_PACKED MPI3EventPCIeTopoChange {
    uint16_t enclosure_handle;
    uint16_t switch_dev_handle;
    uint8_t num_ports;
    uint8_t reserved05[3];
    uint8_t num_entries;
    uint8_t start_port_num;
    uint8_t switch_status;
    uint8_t io_unit_port;
    uint32_t reserved0c;
    MPI3EventPCIeTopoEntry entry[1];
} MPI3EventPCIeTopoChange;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventPCIeTopoChange) != 24);

#define MPI3_EVENT_PCIE_TOPO_PS_NOT_RESPONDING          0x02
#define MPI3_EVENT_PCIE_TOPO_PS_RESPONDING              0x06
#define MPI3_EVENT_PCIE_TOPO_SS_NO_PCIE_SWITCH          0x00

/* Device status change: a device was hidden, shown again, or went away. */
typedef struct QEMU_PACKED MPI3EventDeviceStatusChange {
    uint16_t task_tag;
    uint8_t reason_code;
    uint8_t io_unit_port;
    uint16_t parent_dev_handle;
    uint16_t dev_handle;
    uint64_t wwid;
    uint8_t lun[8];
} MPI3EventDeviceStatusChange;
QEMU_BUILD_BUG_ON(sizeof(MPI3EventDeviceStatusChange) != 24);

#define MPI3_EVENT_DEV_STAT_RC_HIDDEN                   0x02
#define MPI3_EVENT_DEV_STAT_RC_NOT_HIDDEN               0x03
#define MPI3_EVENT_DEV_STAT_RC_INT_DEVICE_RESET_STRT    0x20
#define MPI3_EVENT_DEV_STAT_RC_INT_DEVICE_RESET_CMP     0x21
#define MPI3_EVENT_DEV_STAT_RC_VD_NOT_RESPONDING        0x50

/* ---- IO UNIT CONTROL ---- */

typedef struct QEMU_PACKED MPI3IOUnitControlRequest {
    MPI3RequestHeader hdr;      /* function_dependent: reserved, operation */
    uint32_t reserved0c;
    uint64_t param64[2];
    uint32_t param32[4];
    uint16_t param16[4];
    uint8_t param8[8];
} MPI3IOUnitControlRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3IOUnitControlRequest) != 64);

#define MPI3_CTRL_OP_UPDATE_TIMESTAMP       0x04
#define MPI3_CTRL_OP_GET_TIMESTAMP          0x05
#define MPI3_CTRL_OP_GET_IOC_CHANGE_COUNT   0x06
#define MPI3_CTRL_OP_REMOVE_DEVICE          0x10
#define MPI3_CTRL_OP_HIDDEN_ACK             0x12
#define MPI3_CTRL_OP_SAS_PHY_CONTROL        0x21
/* SAS PHY CONTROL: param8[0] the action, param8[1] the phy */
#define MPI3_CTRL_ACTION_NOP                0x00
#define MPI3_CTRL_ACTION_LINK_RESET         0x01
#define MPI3_CTRL_ACTION_HARD_RESET         0x02
#define MPI3_CTRL_ACTION_CLEAR_ERROR_LOG    0x05

typedef struct QEMU_PACKED MPI3IOUnitControlReply {
    MPI3DefaultReply hdr;
    uint64_t value64[2];
    uint32_t value32[4];
    uint16_t value16[4];
    uint8_t value8[8];
} MPI3IOUnitControlReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3IOUnitControlReply) != 64);

/* ---- CONFIG ---- */

typedef struct QEMU_PACKED MPI3ConfigRequest {
    MPI3RequestHeader hdr;
    uint8_t page_version;
    uint8_t page_number;
    uint8_t page_type;
    uint8_t action;
    uint32_t page_address;
    uint16_t page_length;
    uint16_t reserved16;
    uint32_t reserved18[2];
    MPI3SGE sgl;
} MPI3ConfigRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3ConfigRequest) != 48);

#define MPI3_CONFIG_ACTION_PAGE_HEADER      0x00
#define MPI3_CONFIG_ACTION_READ_DEFAULT     0x01
#define MPI3_CONFIG_ACTION_READ_CURRENT     0x02
#define MPI3_CONFIG_ACTION_WRITE_CURRENT    0x03
#define MPI3_CONFIG_ACTION_READ_PERSISTENT  0x04
#define MPI3_CONFIG_ACTION_WRITE_PERSISTENT 0x05

typedef struct QEMU_PACKED MPI3ConfigPageHeader {
    uint8_t page_version;
    uint8_t reserved01;
    uint8_t page_number;
    uint8_t page_attribute;
    uint16_t page_length;       /* dwords */
    uint8_t page_type;
    uint8_t reserved07;
} MPI3ConfigPageHeader;
QEMU_BUILD_BUG_ON(sizeof(MPI3ConfigPageHeader) != 8);

#define MPI3_CONFIG_PAGEATTR_READ_ONLY      0x00
#define MPI3_CONFIG_PAGEATTR_CHANGEABLE     0x10
#define MPI3_CONFIG_PAGEATTR_PERSISTENT     0x20

#define MPI3_CONFIG_PAGETYPE_IO_UNIT        0x00
#define MPI3_CONFIG_PAGETYPE_MANUFACTURING  0x01
#define MPI3_CONFIG_PAGETYPE_IOC            0x02
#define MPI3_CONFIG_PAGETYPE_DRIVER         0x03
#define MPI3_CONFIG_PAGETYPE_ENCLOSURE      0x11
#define MPI3_CONFIG_PAGETYPE_DEVICE         0x12

#define MPI3_DEVICE_PGAD_FORM_MASK          0xF0000000u
#define MPI3_DEVICE_PGAD_FORM_GET_NEXT      0x00000000u
#define MPI3_DEVICE_PGAD_FORM_HANDLE        0x20000000u
#define MPI3_DEVICE_PGAD_HANDLE_MASK        0x0000FFFFu

/* Device Page 0 (also the DEVICE ADDED event data) */
typedef struct QEMU_PACKED MPI3Device0PCIe {
    uint8_t supported_link_rates;
    uint8_t max_port_width;
    uint8_t negotiated_port_width;
    uint8_t negotiated_link_rate;
    uint8_t port_num;
    uint8_t controller_reset_to;
    uint16_t device_info;
    uint32_t maximum_data_transfer_size;
    uint32_t capabilities;
    uint16_t noiob;
    uint8_t nvme_abort_to;
    uint8_t page_size;
    uint16_t shutdown_latency;
    uint8_t recovery_info;
    uint8_t reserved17;
} MPI3Device0PCIe;
QEMU_BUILD_BUG_ON(sizeof(MPI3Device0PCIe) != 24);

typedef struct QEMU_PACKED MPI3Device0SASSATA {
    uint64_t sas_address;
    uint16_t flags;
    uint16_t device_info;
    uint8_t phy_num;
    uint8_t attached_phy_identifier;
    uint8_t max_port_connections;
    uint8_t zone_group;
    uint8_t reserved10[3];
    uint8_t negotiated_link_rate;   /* logical << 4 | physical */
} MPI3Device0SASSATA;
QEMU_BUILD_BUG_ON(sizeof(MPI3Device0SASSATA) != 20);

typedef struct QEMU_PACKED MPI3Device0VD {
    uint8_t vd_state;
    uint8_t raid_level;
    uint16_t device_info;
    uint16_t flags;
    uint16_t io_throttle_group;
    uint16_t io_throttle_group_low;
    uint16_t io_throttle_group_high;
    uint32_t reserved0c;
} MPI3Device0VD;
QEMU_BUILD_BUG_ON(sizeof(MPI3Device0VD) != 16);

typedef struct QEMU_PACKED MPI3DevicePage0 {
    MPI3ConfigPageHeader header;
    uint16_t dev_handle;
    uint16_t parent_dev_handle;
    uint16_t slot;
    uint16_t enclosure_handle;
    uint64_t wwid;
    uint16_t persistent_id;
    uint8_t io_unit_port;
    uint8_t access_status;
    uint16_t flags;
    uint16_t reserved1e;
    uint16_t slot_index;
    uint16_t queue_depth;
    uint8_t reserved24[3];
    uint8_t device_form;
    union {
        MPI3Device0PCIe pcie;
        MPI3Device0SASSATA sas_sata;
        MPI3Device0VD vd;
        uint8_t raw[24];
    } device_specific;
} MPI3DevicePage0;
QEMU_BUILD_BUG_ON(sizeof(MPI3DevicePage0) != 64);

#define MPI3_DEVICE0_PARENT_INVALID             0xFFFF
#define MPI3_DEVICE0_FLAGS_DEVICE_PRESENT       0x0001
#define MPI3_DEVICE0_FLAGS_ATT_METHOD_DIR_ATT   0x0002
#define MPI3_DEVICE0_FLAGS_ATT_METHOD_VIRTUAL   0x0004
#define MPI3_DEVICE0_FLAGS_HIDDEN               0x0008
#define MPI3_DEVICE_DEVFORM_SAS_SATA            0x00
#define MPI3_DEVICE_DEVFORM_PCIE                0x01
#define MPI3_DEVICE_DEVFORM_VD                  0x02
#define MPI3_DEVICE0_VD_STATE_OFFLINE           0x00
#define MPI3_DEVICE0_VD_STATE_PARTIALLY_DEGRADED 0x01
#define MPI3_DEVICE0_VD_STATE_DEGRADED          0x02
#define MPI3_DEVICE0_VD_STATE_OPTIMAL           0x03
#define MPI3_DEVICE0_VD_RAIDLEVEL_JBOD          0x00    /* not in the spec */
#define MPI3_DEVICE0_VD_DEVICE_INFO_SAS         0x0001
#define MPI3_DEVICE0_VD_DEVICE_INFO_SATA        0x0002
#define MPI3_DEVICE0_VD_DEVICE_INFO_NVME        0x0004
#define MPI3_DEVICE0_VD_DEVICE_INFO_SSD         0x0008
#define MPI3_DEVICE0_VD_DEVICE_INFO_HDD         0x0010
#define MPI3_SAS_DEVICE_INFO_END_DEVICE         0x0001
#define MPI3_SAS_DEVICE_INFO_STP_SATA_TARGET    0x0080
#define MPI3_SAS_DEVICE_INFO_SSP_TARGET         0x0100
#define MPI3_DEVICE0_PCIE_DEVICE_INFO_TYPE_NVME 0x0001
#define MPI3_DEVICE0_PCIE_CAP_SGL_SUPP          0x00000001
#define MPI3_DEVICE0_PCIE_LINK_RATE_16_0_SUPP   0x08
#define MPI3_PCIE_NEG_LINK_RATE_16_0            0x05

/* ---- SAS transport: SAS pages, enclosures, topology (mr9600-sas.c) ---- */

#define MPI3_CONFIG_PAGETYPE_SAS_IO_UNIT    0x20
#define MPI3_CONFIG_PAGETYPE_SAS_EXPANDER   0x21
#define MPI3_CONFIG_PAGETYPE_SAS_PHY        0x23
#define MPI3_SAS_EXPAND_PGAD_FORM_MASK      0xF0000000u
#define MPI3_SAS_EXPAND_PGAD_FORM_GET_NEXT  0x00000000u
#define MPI3_SAS_EXPAND_PGAD_FORM_HANDLE_PHY_NUM 0x10000000u
#define MPI3_SAS_EXPAND_PGAD_FORM_HANDLE    0x20000000u
#define MPI3_SASEXPANDER0_BYTES             64
#define MPI3_SASEXPANDER1_BYTES             48
#define MPI3_SAS_PHY_PGAD_FORM_MASK         0xF0000000u
#define MPI3_SAS_PHY_PGAD_FORM_PHY_NUMBER   0x00000000u
#define MPI3_SAS_PHY_PGAD_PHY_NUMBER_MASK   0x000000FFu
#define MPI3_ENCLOS_PGAD_FORM_MASK          0xF0000000u
#define MPI3_ENCLOS_PGAD_FORM_GET_NEXT      0x00000000u
#define MPI3_ENCLOS_PGAD_FORM_HANDLE        0x10000000u
#define MPI3_ENCLOS_PGAD_HANDLE_MASK        0x0000FFFFu

#define MPI3_DEVICE0_FLAGS_CONTROLLER_DEV_HANDLE 0x0080
#define MPI3_DEVICE0_PERSISTENTID_INVALID   0xFFFF
#define MPI3_SAS_DEVICE_INFO_SMP_TARGET     0x0040
#define MPI3_SAS_DEVICE_INFO_SSP_INITIATOR  0x0020
#define MPI3_SAS_DEVICE_INFO_STP_INITIATOR  0x0010
#define MPI3_SAS_DEVICE_INFO_SMP_INITIATOR  0x0008
#define MPI3_SAS_DEVICE_INFO_TYPE_MASK      0x0007

/*
 * SAS link rates (negotiated: logical << 4 | physical; hardware and
 * programmed: max << 4 | min)
 */
#define MPI3_SAS_NEG_LINK_RATE_UNKNOWN      0x00
#define MPI3_SAS_NEG_LINK_RATE_PHY_DISABLED 0x01
#define MPI3_SAS_NEG_LINK_RATE_NEG_FAILED   0x02
#define MPI3_SAS_NEG_LINK_RATE_1_5          0x08
#define MPI3_SAS_NEG_LINK_RATE_6_0          0x0A
#define MPI3_SAS_NEG_LINK_RATE_12_0         0x0B
#define MPI3_SAS_NEG_LINK_RATE_22_5         0x0C

#define MPI3_EVENT_ENCL_DEVICE_ADDED            0x0B
#define MPI3_EVENT_ENCL_DEVICE_STATUS_CHANGE    0x0C
#define MPI3_EVENT_SAS_TOPO_PHY_RC_PHY_CHANGED  0x03
#define MPI3_EVENT_SAS_TOPO_PHY_RC_NO_CHANGE    0x04
#define MPI3_EVENT_SAS_TOPO_PHY_RC_DELAY_NOT_RESPONDING 0x05

/* SAS IO Unit page 0: 16-byte header, then 20 bytes per phy */
#define MPI3_SASIOUNIT0_HDR_BYTES           16
#define MPI3_SASIOUNIT0_PHY_BYTES           20
/* SAS IO Unit page 1: 20-byte header, then 12 bytes per phy */
#define MPI3_SASIOUNIT1_HDR_BYTES           20
#define MPI3_SASIOUNIT1_PHY_BYTES           12
#define MPI3_SASIOUNIT0_PHYFLAGS_PHY_DISABLED   0x08
#define MPI3_SASIOUNIT1_PHYFLAGS_PHY_DISABLE    0x08
#define MPI3_SASPHY0_BYTES                  36
#define MPI3_SASPHY1_BYTES                  28

/* SAS expanders (mr9600-expander.c) */
#define MPI3_SAS_EXPAND_PGAD_PHYNUM_SHIFT   16
#define MPI3_SAS_EXPAND_PGAD_HANDLE_MASK    0x0000FFFFu
#define MPI3_SAS_DEVICE_INFO_TYPE_EXPANDER  0x0002
#define MPI3_ENCLS0_FLAGS_ENCL_TYPE_SAS     0x4000
#define MPI3_EVENT_SAS_TOPO_ES_NOT_RESPONDING   0x02
#define MPI3_EVENT_SAS_TOPO_ES_RESPONDING       0x03
#define MPI3_EVENT_SAS_TOPO_PHY_STATUS_VACANT   0x80
#define MPI3_IOCSTATUS_SAS_SMP_REQUEST_FAILED   0x0090
#define MPI3_IOCSTATUS_SAS_SMP_DATA_OVERRUN     0x0091

typedef struct QEMU_PACKED MPI3EnclosurePage0 {
    MPI3ConfigPageHeader header;
    uint64_t enclosure_logical_id;
    uint16_t flags;
    uint16_t enclosure_handle;
    uint16_t num_slots;
    uint16_t reserved16;
    uint8_t io_unit_port;
    uint8_t enclosure_level;
    uint16_t sep_dev_handle;
    uint8_t chassis_slot;
    uint8_t reserved1d[3];
} MPI3EnclosurePage0;
QEMU_BUILD_BUG_ON(sizeof(MPI3EnclosurePage0) != 32);

#define MPI3_ENCLS0_FLAGS_ENCL_TYPE_VIRTUAL     0x0000
#define MPI3_ENCLS0_FLAGS_ENCL_DEV_PRESENT      0x0010
#define MPI3_ENCLS0_FLAGS_MNG_UNKNOWN           0x0000

/* ---- SCSI IO ---- */

typedef struct QEMU_PACKED MPI3SCSIIORequest {
    MPI3RequestHeader hdr;      /* function_dependent: dev handle */
    uint32_t flags;
    uint32_t skip_count;
    uint32_t data_length;
    uint8_t lun[8];
    uint8_t cdb[32];
    MPI3SGE sgl[4];
} MPI3SCSIIORequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3SCSIIORequest) != 128);

#define MPI3_SCSIIO_FLAGS_CDB_GREATER_THAN_16   0x20000000u
#define MPI3_SCSIIO_FLAGS_CDB_IN_SEPARATE_BUF   0x40000000u
#define MPI3_SCSIIO_FLAGS_CDB_MASK              0x60000000u
#define MPI3_SCSIIO_FLAGS_DATADIRECTION_MASK    0x000C0000u
#define MPI3_SCSIIO_FLAGS_DATADIRECTION_NONE    0x00000000u
#define MPI3_SCSIIO_FLAGS_DATADIRECTION_WRITE   0x00040000u
#define MPI3_SCSIIO_FLAGS_DATADIRECTION_READ    0x00080000u
#define MPI3_SCSIIO_FLAGS_DMAOPERATION_MASK     0x00030000u

typedef struct QEMU_PACKED MPI3SCSIIOReply {
    MPI3DefaultReply hdr;
    uint8_t scsi_status;
    uint8_t scsi_state;
    uint16_t dev_handle;
    uint32_t transfer_count;
    uint32_t sense_count;
    uint32_t response_data;
    uint16_t task_tag;
    uint16_t scsi_status_qualifier;
    uint32_t eedp_error_offset;
    uint16_t eedp_observed_app_tag;
    uint16_t eedp_observed_guard;
    uint32_t eedp_observed_ref_tag;
    uint64_t sense_data_buffer_address;
} MPI3SCSIIOReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3SCSIIOReply) != 56);

#define MPI3_SCSI_STATE_SENSE_VALID             0x00
#define MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE     0x03
#define MPI3_SCSI_STATE_NO_SCSI_STATUS          0x04
#define MPI3_SCSI_STATE_TERMINATED              0x08

#define MPI3_SCSI_STATUS_GOOD                   0x00
#define MPI3_SCSI_STATUS_CHECK_CONDITION        0x02
#define MPI3_SCSI_STATUS_BUSY                   0x08
#define MPI3_SCSI_STATUS_TASK_ABORTED           0x40

/* ---- SCSI TASK MGMT ---- */

typedef struct QEMU_PACKED MPI3SCSITaskMgmtRequest {
    MPI3RequestHeader hdr;      /* function_dependent: dev handle */
    uint16_t task_host_tag;
    uint8_t task_type;
    uint8_t reserved0f;
    uint16_t task_request_queue_id;
    uint16_t reserved12;
    uint32_t reserved14;
    uint8_t lun[8];
} MPI3SCSITaskMgmtRequest;
QEMU_BUILD_BUG_ON(sizeof(MPI3SCSITaskMgmtRequest) != 32);

#define MPI3_SCSITASKMGMT_TASKTYPE_ABORT_TASK       0x01
#define MPI3_SCSITASKMGMT_TASKTYPE_ABORT_TASK_SET   0x02
#define MPI3_SCSITASKMGMT_TASKTYPE_TARGET_RESET     0x03
#define MPI3_SCSITASKMGMT_TASKTYPE_LOGICAL_UNIT_RESET 0x05
#define MPI3_SCSITASKMGMT_TASKTYPE_CLEAR_TASK_SET   0x06
#define MPI3_SCSITASKMGMT_TASKTYPE_QUERY_TASK       0x07
#define MPI3_SCSITASKMGMT_TASKTYPE_CLEAR_ACA        0x08
#define MPI3_SCSITASKMGMT_TASKTYPE_QUERY_TASK_SET   0x09
#define MPI3_SCSITASKMGMT_TASKTYPE_QUERY_ASYNC_EVENT 0x0A
#define MPI3_SCSITASKMGMT_TASKTYPE_I_T_NEXUS_RESET  0x0B

typedef struct QEMU_PACKED MPI3SCSITaskMgmtReply {
    MPI3DefaultReply hdr;
    uint32_t termination_count;
    uint32_t response_data;
    uint32_t reserved18;
} MPI3SCSITaskMgmtReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3SCSITaskMgmtReply) != 28);

#define MPI3_SCSITASKMGMT_RSPCODE_TM_COMPLETE       0x00
#define MPI3_SCSITASKMGMT_RSPCODE_INVALID_FRAME     0x02
#define MPI3_SCSITASKMGMT_RSPCODE_TM_FUNCTION_NOT_SUPPORTED 0x04
#define MPI3_SCSITASKMGMT_RSPCODE_TM_SUCCEEDED      0x08
#define MPI3_SCSITASKMGMT_RSPCODE_TM_INVALID_LUN    0x09
#define MPI3_SCSITASKMGMT_RSPCODE_IO_QUEUED_ON_IOC  0x80

/* ---- PERSISTENT EVENT LOG ---- */

#define MPI3_PEL_ACTION_GET_SEQNUM          0x01
#define MPI3_PEL_ACTION_WAIT                0x05
#define MPI3_PEL_ACTION_ABORT               0x06
#define MPI3_PEL_STATUS_SUCCESS             0x00
#define MPI3_PEL_STATUS_ABORTED             0x02

typedef struct QEMU_PACKED MPI3PELReply {
    MPI3DefaultReply hdr;
    uint8_t action;
    uint8_t reserved11;
    uint16_t reserved12;
    uint16_t pe_log_status;
    uint16_t reserved16;
    uint32_t transfer_length;
} MPI3PELReply;
QEMU_BUILD_BUG_ON(sizeof(MPI3PELReply) != 28);

/* Largest request frame the device reads. */
#define MPI3_REQUEST_FRAME_SIZE             128
#define MPI3_REPLY_DESCRIPTOR_SIZE          16

#endif
