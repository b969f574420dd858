/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol of the emulated MegaRAID, as it
 * travels in MPI3 MGMT PASSTHROUGH requests (function 0x0A).
 *
 * The real card's management payload is proprietary; this one is ours,
 * modelled on the MegaRAID DCMD set: a request envelope (magic, version,
 * a 32-bit opcode, a mailbox for small arguments, an optional data-out
 * payload) in the command buffer, and a reply header (a status modelled
 * on the MFI status codes, the data length) followed by the opcode's data
 * in the response buffer.  Through the unmodified mpi3mr driver the
 * application sends the request as the RAIDMGMT_CMD buffer and receives
 * the reply in the RAIDMGMT_RESP buffer; both are at most
 * MGMT_MAX_CMD_LEN / MGMT_MAX_RESP_LEN bytes (the driver's 4 KiB bounce
 * buffers), so lists are read in pages (MGMT_LIST_* below).
 *
 * This header is shared by the device (hw/megaraid/mgmt-ops*.c) and the
 * guest tool (tools/mrcli): plain C99, <stdint.h> only.  Every structure
 * is packed and little-endian; the size of each is given in its comment
 * and never changes within a protocol version.  docs/management-protocol.md
 * describes every opcode, its arguments, its data and its statuses.
 */
#ifndef HW_MEGARAID_MGMT_PROTO_H
#define HW_MEGARAID_MGMT_PROTO_H

#include <stdint.h>

#define MGMT_REQ_MAGIC      0x474d524dU    /* "MRMG" in memory order */
#define MGMT_REPLY_MAGIC    0x524d524dU    /* "MRMR" in memory order */
#define MGMT_VERSION        1

/* Command and response buffer limits (the driver's bounce buffers). */
#define MGMT_MAX_CMD_LEN    4096
#define MGMT_MAX_RESP_LEN   4096

/*
 * On megaraid-9500 (megaraid_sas) the protocol travels in an MFI DCMD with
 * this vendor opcode: the DCMD's data buffer holds the request and then
 * receives the reply; mailbox word 0 gives the request's length.
 */
#define MGMT_MFI_DCMD_OPCODE    0xFF4D4700U

/* ---- Request envelope (40 bytes), at offset 0 of the command buffer ---- */

typedef struct __attribute__((packed)) MgmtRequest {
    uint32_t magic;             /* MGMT_REQ_MAGIC */
    uint16_t version;           /* MGMT_VERSION */
    uint16_t hdr_len;           /* sizeof(MgmtRequest) = 40 */
    uint32_t opcode;            /* MGMT_OP_* */
    uint32_t flags;             /* MGMT_REQ_F_*, other bits must be 0 */
    uint32_t tag;               /* echoed in the reply */
    uint32_t data_len;          /* bytes of data-out following the header */
    uint32_t mbox[4];           /* small arguments, per opcode */
} MgmtRequest;                  /* 40 bytes; data-out follows at 40 */

/* Flags: none defined in version 1. */
#define MGMT_REQ_F_MASK     0x00000000U

/* ---- Reply header (32 bytes), at offset 0 of the response buffer ---- */

typedef struct __attribute__((packed)) MgmtReply {
    uint32_t magic;             /* MGMT_REPLY_MAGIC */
    uint16_t version;           /* MGMT_VERSION */
    uint16_t hdr_len;           /* sizeof(MgmtReply) = 32 */
    uint32_t opcode;            /* echoed */
    uint32_t tag;               /* echoed */
    uint8_t status;             /* MGMT_STAT_* */
    uint8_t reserved0;
    /*
     * On an error: byte offset in the request (envelope, then data-out)
     * of the field that was refused; 0xffff: no single field.
     */
    uint16_t err_offset;
    uint32_t data_len;          /* bytes of data following this header */
    uint32_t err_value;         /* on an error: the refused value, or 0 */
    uint32_t reserved1;
} MgmtReply;                    /* 32 bytes; data follows at 32 */

#define MGMT_ERR_OFFSET_NONE 0xffffU

/* Status codes, modelled on the MFI status set. */
#define MGMT_STAT_OK                0x00
#define MGMT_STAT_INVALID_CMD       0x01    /* magic, version, hdr_len, flags */
#define MGMT_STAT_INVALID_OPCODE    0x02    /* unknown opcode */
#define MGMT_STAT_INVALID_PARAMETER 0x03    /* a mailbox or data field */
#define MGMT_STAT_INVALID_SEQ       0x04    /* event log sequence number */
#define MGMT_STAT_DEVICE_NOT_FOUND  0x05    /* no drive in that slot */
#define MGMT_STAT_VD_NOT_FOUND      0x06    /* no such VD */
#define MGMT_STAT_DG_NOT_FOUND      0x07    /* no such drive group */
#define MGMT_STAT_WRONG_STATE       0x08    /* transition not allowed now */
#define MGMT_STAT_BUSY              0x09    /* a job or change is running */
#define MGMT_STAT_LIMIT             0x0a    /* a controller limit */
#define MGMT_STAT_DATA_LEN          0x0b    /* data-out length wrong */
#define MGMT_STAT_RESP_TOO_SMALL    0x0c    /* response buffer too short */
#define MGMT_STAT_NO_JOB            0x0d    /* no such job on the VD */
#define MGMT_STAT_NOT_SUPPORTED     0x0e    /* not (yet) supported */
#define MGMT_STAT_IO_ERROR          0x0f    /* metadata could not be stored */
#define MGMT_STAT_NO_FOREIGN        0x10    /* no foreign configuration */
#define MGMT_STAT_INTERNAL          0x11    /* anything else */

/*
 * ---- Opcodes ----
 * Grouped as the DCMD set is: the high byte is the object class.
 */
#define MGMT_OP_CTRL_GET_INFO       0x01010000U
#define MGMT_OP_CTRL_GET_PROPS      0x01020100U
#define MGMT_OP_CTRL_SET_PROPS      0x01020200U
#define MGMT_OP_PD_LIST             0x02010000U
#define MGMT_OP_PD_INFO             0x02020000U
#define MGMT_OP_PD_SET_STATE        0x02030000U
#define MGMT_OP_PD_SPARE_ADD        0x02040100U
#define MGMT_OP_PD_SPARE_REMOVE     0x02040200U
#define MGMT_OP_DG_LIST             0x03010000U
#define MGMT_OP_VD_LIST             0x04010000U
#define MGMT_OP_VD_INFO             0x04020000U
#define MGMT_OP_VD_CREATE           0x04030100U
#define MGMT_OP_VD_DELETE           0x04030200U
#define MGMT_OP_JOB_CONTROL         0x05010000U
#define MGMT_OP_JOB_STATUS          0x05020000U
#define MGMT_OP_PATROL_CONTROL      0x05030000U
#define MGMT_OP_PATROL_STATUS       0x05040000U
#define MGMT_OP_FOREIGN_SHOW        0x06010000U
#define MGMT_OP_FOREIGN_IMPORT      0x06020000U
#define MGMT_OP_FOREIGN_CLEAR       0x06030000U
#define MGMT_OP_CV_STATUS           0x07010000U
#define MGMT_OP_EVLOG_INFO          0x08010000U
#define MGMT_OP_EVLOG_READ          0x08020000U

/* ---- Shared enumerations ---- */

/* Drive states (as the controller reports them). */
#define MGMT_PD_UNCONF_GOOD     0
#define MGMT_PD_UNCONF_BAD      1
#define MGMT_PD_ONLINE          2
#define MGMT_PD_OFFLINE         3
#define MGMT_PD_REBUILD         4
#define MGMT_PD_HOT_SPARE       5
#define MGMT_PD_FOREIGN         6
#define MGMT_PD_MISSING         7
#define MGMT_PD_JBOD            8   /* unconfigured, exposed to the host */

#define MGMT_IF_NVME            0
#define MGMT_IF_SAS             1
#define MGMT_IF_SATA            2

#define MGMT_MEDIA_SSD          0
#define MGMT_MEDIA_HDD          1

/* RAID levels. */
#define MGMT_LEVEL_0            0
#define MGMT_LEVEL_1            1
#define MGMT_LEVEL_5            5
#define MGMT_LEVEL_6            6
#define MGMT_LEVEL_10           10
#define MGMT_LEVEL_50           50
#define MGMT_LEVEL_60           60

/* VD states. */
#define MGMT_VD_OPTIMAL         0
#define MGMT_VD_PARTIALLY_DEGRADED 1
#define MGMT_VD_DEGRADED        2
#define MGMT_VD_OFFLINE         3

/* VD cache policy bits (requested policy). */
#define MGMT_CACHE_WRITE_BACK   0x01    /* else write-through */
#define MGMT_CACHE_ALWAYS_WB    0x02    /* write-back without CacheVault */
#define MGMT_CACHE_READ_AHEAD   0x04
#define MGMT_CACHE_MASK         0x07

/* Effective write policy. */
#define MGMT_WP_WRITE_THROUGH   0
#define MGMT_WP_WRITE_BACK      1
#define MGMT_WP_ALWAYS_WB       2

/* Background jobs. */
#define MGMT_JOB_NONE           0
#define MGMT_JOB_REBUILD        1
#define MGMT_JOB_CC             2   /* consistency check */
#define MGMT_JOB_INIT           3   /* background (full) initialization */

#define MGMT_JOB_START          1
#define MGMT_JOB_STOP           2   /* abandon the job (cc, init) */
#define MGMT_JOB_PAUSE          3   /* keep the cursor, stop working */
#define MGMT_JOB_RESUME         4

#define MGMT_CV_OPTIMAL         0
#define MGMT_CV_FAILED          1
#define MGMT_CV_ABSENT          2

#define MGMT_NONE16             0xffffU     /* no drive group, VD, ... */
#define MGMT_NONE32             0xffffffffU

/* ---- Lists (PD_LIST, DG_LIST, VD_LIST, FOREIGN_SHOW, EVLOG_READ) ---- */

/*
 * A list reply's data opens with this header, then @count entries of
 * @entry_len bytes each.  Request: mbox[0] = index of the first entry
 * wanted (0 for the start; for EVLOG_READ a sequence number), mbox[1] =
 * most entries wanted (0: as many as fit).  The reply holds as many as
 * fit in the response buffer; @total is the number of entries there are,
 * @next the mbox[0] to send for the next page (MGMT_NONE32: no more).
 */
typedef struct __attribute__((packed)) MgmtListHeader {
    uint32_t total;
    uint32_t first;             /* index (or seq) of the first entry here */
    uint32_t count;             /* entries in this reply */
    uint32_t next;              /* MGMT_NONE32: this was the last page */
    uint16_t entry_len;
    uint16_t reserved0;
    uint32_t reserved1;
} MgmtListHeader;               /* 24 bytes */

/* ---- CTRL_GET_INFO: no arguments; data MgmtCtrlInfo ---- */

typedef struct __attribute__((packed)) MgmtCtrlInfo {
    char product[32];           /* NUL padded, e.g. "MegaRAID 9670W-16i" */
    char serial[32];
    char fw_version[32];
    uint16_t pci_vendor, pci_device, pci_subvendor, pci_subdevice;
    uint16_t max_pds;
    uint16_t max_vds;
    uint16_t max_dgs;
    uint16_t max_spans;
    uint16_t max_drives_per_span;
    uint16_t max_vds_per_dg;
    uint16_t max_global_spares;
    uint16_t max_dedicated_spares;
    uint16_t num_pds;           /* drives in the bays */
    uint16_t num_vds;
    uint16_t num_dgs;
    uint16_t num_global_spares;
    uint16_t num_dedicated_spares;
    uint16_t num_foreign_pds;
    uint64_t levels;            /* bit n: MGMT_LEVEL n supported */
    uint32_t strip_min_kib;
    uint32_t strip_max_kib;
    uint64_t cache_bytes;
    uint8_t cachevault;         /* MGMT_CV_* */
    uint8_t roc_temp_c;         /* ROC temperature, Celsius; 0: none */
    uint8_t cv_temp_c;          /* CacheVault temperature; 0: none */
    uint8_t reserved[17];
} MgmtCtrlInfo;                 /* 176 bytes */

/*
 * ---- CTRL_GET_PROPS: no arguments; data MgmtCtrlProps ----
 * ---- CTRL_SET_PROPS: data-out MgmtCtrlProps, mbox[0] = MGMT_PROP_* mask
 *      of the fields to change (others ignored); reply: the new props ----
 */

typedef struct __attribute__((packed)) MgmtCtrlProps {
    uint8_t rebuild_rate;       /* percent, 0..100 */
    uint8_t cc_rate;            /* percent, 0..100 */
    uint8_t init_rate;          /* percent, 0..100 */
    uint8_t patrol_read;        /* 0 off, 1 on (PATROL_CONTROL) */
    uint8_t auto_rebuild;       /* 0/1: rebuild onto a replaced drive */
    uint8_t cache_flush_s;      /* 1..255 */
    uint8_t reserved[10];
} MgmtCtrlProps;                /* 16 bytes */

#define MGMT_PROP_REBUILD_RATE  0x01
#define MGMT_PROP_CC_RATE       0x02
#define MGMT_PROP_INIT_RATE     0x04
#define MGMT_PROP_PATROL_READ   0x08
#define MGMT_PROP_AUTO_REBUILD  0x10
#define MGMT_PROP_CACHE_FLUSH   0x20
#define MGMT_PROP_MASK          0x3f

/* ---- PD_LIST: list of MgmtPdEntry (index: position in slot order) ---- */

typedef struct __attribute__((packed)) MgmtPdEntry {
    uint16_t enclosure;         /* 0: the drive bays */
    uint16_t slot;
    uint8_t state;              /* MGMT_PD_* */
    uint8_t interface;          /* MGMT_IF_* */
    uint8_t media;              /* MGMT_MEDIA_* */
    uint8_t reserved0;
    uint16_t dg;                /* drive group, MGMT_NONE16 */
    uint16_t spare_dg;          /* dedicated spare's DG; MGMT_NONE16 */
    uint32_t block_size;        /* logical block size, bytes */
    uint64_t blocks;            /* capacity in logical blocks */
    uint16_t dev_handle;        /* device id (MRUnit.host_id), hidden too */
    uint8_t flags;              /* MGMT_PD_F_* */
    uint8_t reserved1[5];
} MgmtPdEntry;                  /* 32 bytes */

#define MGMT_PD_F_EXPOSED       0x01    /* the host sees it as a disk */
#define MGMT_PD_F_GLOBAL_SPARE  0x02
#define MGMT_PD_F_DEDICATED_SPARE 0x04

/*
 * ---- PD_INFO: mbox[0] = slot; data MgmtPdInfo ----
 * (Everywhere a drive is named in a mailbox word: slot | enclosure << 16;
 * enclosure 0 is the drive bays.  In VD_CREATE's list: slots of
 * enclosure 0.)
 */

typedef struct __attribute__((packed)) MgmtPdInfo {
    MgmtPdEntry e;              /* as in the list */
    char vendor[16];            /* NUL padded */
    char model[48];
    char serial[32];
    char firmware[16];
    uint8_t guid[24];           /* DDF PD GUID; zero if not configured */
    uint64_t usable_sectors;    /* 512-byte sectors for user data */
    uint16_t span;              /* in its DG; MGMT_NONE16 */
    uint16_t span_pos;          /* position in the span; MGMT_NONE16 */
    uint32_t media_errors;      /* injected media error ranges */
    uint32_t read_errors;
    uint32_t write_errors;
    /* rebuild onto this drive (MGMT_JOB_REBUILD on its VDs) */
    uint8_t rebuild_active;     /* 0/1 */
    uint8_t rebuild_percent;
    uint8_t rebuild_running;    /* 0: paused or waiting */
    uint8_t reserved0;
    uint32_t rebuild_eta_s;     /* MGMT_NONE32: unknown */
    /*
     * What the drive reports about its health (megaraid-drive's
     * properties media-errors, other-errors, predictive-failures,
     * smart-alert, temperature); zeros from cores before these fields.
     */
    uint32_t media_error_count; /* plus read/write errors above */
    uint32_t other_errors;
    uint32_t predictive_failures;
    uint8_t smart_alert;        /* 1: the drive flags a SMART alert */
    uint8_t temperature_c;      /* Celsius; 0: no reading */
    uint16_t reserved1;
    /* appended: older cores send 216 bytes (the tool reads zeros) */
    uint64_t wwn;               /* the drive's world wide name; 0: none */
    uint8_t reserved2[8];
} MgmtPdInfo;                   /* 232 bytes */

/*
 * ---- PD_SET_STATE: mbox[0] = slot, mbox[1] = MGMT_SET_*,
 *      mbox[2] = MGMT_SET_F_*; no data ----
 */
#define MGMT_SET_OFFLINE        1   /* fail an online member */
#define MGMT_SET_ONLINE         2   /* rebuild-done / forced online */
#define MGMT_SET_MISSING        3   /* mark an offline member missing */
#define MGMT_SET_GOOD           4   /* unconfigured bad (or JBOD) -> good */
#define MGMT_SET_JBOD           5   /* unconfigured good -> JBOD */
#define MGMT_SET_BAD            6   /* unconfigured good -> bad */

/* With MGMT_SET_ONLINE: bring an offline member back without a rebuild. */
#define MGMT_SET_F_FORCE        0x01
#define MGMT_SET_F_MASK         0x01

/*
 * ---- PD_SPARE_ADD: mbox[0] = slot, mbox[1] = DG (MGMT_NONE32: global)
 * ---- PD_SPARE_REMOVE: mbox[0] = slot.  No data. ----
 */

/* ---- DG_LIST: list of MgmtDgEntry ---- */

#define MGMT_DG_MAX_MEMBERS     32  /* drives listed per entry */

typedef struct __attribute__((packed)) MgmtDgEntry {
    uint16_t dg;
    uint8_t nspans;
    uint8_t span_width;         /* drives per span */
    uint8_t level;              /* of its VDs (MGMT_LEVEL_*) */
    uint8_t nvds;
    uint8_t ndrives;            /* nspans * span_width */
    uint8_t nlisted;            /* slots[] entries filled (<= 32) */
    uint64_t member_sectors;    /* usable sectors per member */
    uint64_t free_sectors;      /* per member, after the last VD */
    uint16_t slots[MGMT_DG_MAX_MEMBERS];    /* member order */
    uint16_t dedicated_spares;  /* count */
    uint8_t reserved[6];
} MgmtDgEntry;                  /* 96 bytes */

/* ---- VD_LIST: list of MgmtVdEntry ---- */

#define MGMT_VD_NAME_LEN        16

typedef struct __attribute__((packed)) MgmtVdEntry {
    uint16_t vd;                /* VD index (StorCLI "v<vd>") */
    uint16_t dg;
    uint8_t level;              /* MGMT_LEVEL_* */
    uint8_t state;              /* MGMT_VD_* */
    uint8_t cache;              /* MGMT_CACHE_* requested */
    uint8_t write_policy;       /* MGMT_WP_* effective */
    uint64_t blocks;            /* VD size in 512-byte sectors */
    uint32_t strip_kib;
    uint8_t nspans;
    uint8_t span_width;
    uint8_t job;                /* MGMT_JOB_* */
    uint8_t job_percent;
    char name[MGMT_VD_NAME_LEN];    /* NUL padded, not terminated if 16 */
    uint16_t dev_handle;        /* host id (MRUnit.host_id) */
    uint8_t flags;              /* MGMT_VD_F_* */
    uint8_t reserved[5];
} MgmtVdEntry;                  /* 48 bytes */

#define MGMT_VD_F_INITIALIZED   0x01
#define MGMT_VD_F_CONSISTENT    0x02

/* ---- JOB_STATUS: mbox[0] = VD; data MgmtJobStatus ---- */

typedef struct __attribute__((packed)) MgmtJobStatus {
    uint16_t vd;
    uint8_t job;                /* MGMT_JOB_*, NONE: no job */
    uint8_t repair;             /* cc: repairs inconsistencies */
    uint8_t running;            /* 1 working, 0 paused or waiting */
    uint8_t paused;             /* 1: paused by JOB_CONTROL */
    uint8_t percent;
    uint8_t reserved0;
    uint16_t target_slot;       /* rebuild: drive rebuilt; MGMT_NONE16 */
    /* copyback: the member copied (target: where); else NONE16 (or 0) */
    uint16_t source_slot;
    uint32_t eta_s;             /* MGMT_NONE32: unknown */
    uint64_t next_row;
    uint64_t total_rows;
    uint64_t mismatches;        /* cc */
    uint64_t bytes_per_s;       /* per member; 0: not measured yet */
} MgmtJobStatus;                /* 48 bytes */

/*
 * ---- PATROL_CONTROL: mbox[0] = MGMT_PATROL_*; mbox[1] = rate (1..100)
 *      for MGMT_PATROL_RATE, the mode for MGMT_PATROL_MODE; reply:
 *      MgmtPatrolStatus ----
 * ---- PATROL_STATUS: no arguments; data MgmtPatrolStatus ----
 */

#define MGMT_PATROL_STOP        0
#define MGMT_PATROL_START       1
#define MGMT_PATROL_RATE        2
#define MGMT_PATROL_MODE        3       /* mbox[1] = MGMT_PATROL_MODE_* */
#define MGMT_PATROL_DELAY       4       /* mbox[1] = auto: hours between */

#define MGMT_PATROL_MODE_AUTO   0
#define MGMT_PATROL_MODE_MANUAL 1
#define MGMT_PATROL_MODE_OFF    2

typedef struct __attribute__((packed)) MgmtPatrolStatus {
    uint8_t running;            /* 1: a pass is reading */
    uint8_t rate;               /* percent, 1..100 */
    uint8_t percent;            /* of the pass (100 after a full pass) */
    uint8_t drive_percent;      /* of the drive being read */
    uint16_t drive_slot;        /* drive being read; MGMT_NONE16 */
    uint8_t mode;               /* MGMT_PATROL_MODE_* */
    uint8_t drives_done;        /* drives read to the end in this pass */
    uint32_t iterations;        /* passes completed */
    uint32_t corrected;         /* medium errors repaired, all passes */
    uint32_t uncorrectable;     /* medium errors left (no redundancy) */
    uint32_t delay_hours;       /* auto mode: hours between passes */
    uint64_t done_sectors;      /* member sectors read in the pass */
    uint64_t total_sectors;
} MgmtPatrolStatus;             /* 40 bytes */

/* ---- VD_INFO: mbox[0] = VD; data MgmtVdInfo + members ---- */

typedef struct __attribute__((packed)) MgmtVdMember {
    uint16_t slot;              /* MGMT_NONE16: missing */
    uint8_t span;
    uint8_t state;              /* MGMT_PD_* */
} MgmtVdMember;                 /* 4 bytes */

typedef struct __attribute__((packed)) MgmtVdInfo {
    MgmtVdEntry e;              /* as in the list */
    uint8_t guid[24];           /* DDF VD GUID */
    uint64_t start_sector;      /* member sector of the extent */
    uint64_t member_sectors;    /* extent per member */
    uint32_t logical_block;     /* bytes, as the host sees it */
    uint16_t nmembers;          /* MgmtVdMember entries that follow */
    uint16_t reserved0;
    MgmtJobStatus job;
    uint8_t reserved1[16];
} MgmtVdInfo;                   /* 160 bytes, then nmembers x 4 bytes */

/* ---- VD_CREATE: data-out MgmtVdCreate + ndrives x uint16 slot ---- */

typedef struct __attribute__((packed)) MgmtVdCreate {
    uint8_t level;              /* MGMT_LEVEL_* */
    uint8_t nspans;             /* 0: the level's default */
    uint8_t ndrives;            /* slots that follow; 0 with dg set */
    uint8_t cache;              /* MGMT_CACHE_* */
    uint32_t strip_kib;         /* 0: 256; power of two, 64..1024 */
    uint64_t size_sectors;      /* 0: all the free space */
    uint16_t dg;                /* NONE16: new DG, else a VD more on it */
    uint8_t flags;              /* MGMT_CREATE_F_* */
    uint8_t reserved0;
    char name[MGMT_VD_NAME_LEN];    /* NUL padded */
    uint8_t reserved1[4];
} MgmtVdCreate;                 /* 40 bytes, then ndrives x 2 bytes */

/*
 * Start a full initialization at once (zeroes the new VD); without it the
 * VD is created initialized (its drives are taken as they are).
 */
#define MGMT_CREATE_F_INIT      0x01
#define MGMT_CREATE_F_MASK      0x01

/* Reply data of VD_CREATE: the new VD's MgmtVdEntry. */

/* ---- VD_DELETE: mbox[0] = VD, mbox[1] = MGMT_DELETE_F_*; no data ---- */
#define MGMT_DELETE_F_FORCE     0x01    /* even with a job running */
#define MGMT_DELETE_F_MASK      0x01

/*
 * ---- JOB_CONTROL: mbox[0] = VD (cc, init) or slot (rebuild),
 *      mbox[1] = MGMT_JOB_*, mbox[2] = MGMT_JOB_START..RESUME,
 *      mbox[3] = MGMT_JOB_F_*; reply: the MgmtJobStatus of the VD
 *      (rebuild: of the first VD being rebuilt onto the drive) ----
 */
#define MGMT_JOB_F_REPAIR       0x01    /* cc: fix what does not match */
#define MGMT_JOB_F_MASK         0x01

/* ---- FOREIGN_SHOW: list of MgmtForeignEntry (one per foreign drive) ---- */

typedef struct __attribute__((packed)) MgmtForeignEntry {
    uint16_t slot;
    uint8_t foreign_state;      /* MGMT_PD_* in its own metadata */
    uint8_t reserved0;
    uint8_t ctrl_guid[24];      /* the controller that wrote it */
    uint16_t nvds;              /* VDs its configuration holds */
    uint8_t reserved1[6];
} MgmtForeignEntry;             /* 36 bytes */

/*
 * ---- FOREIGN_IMPORT / FOREIGN_CLEAR: mbox[0] = MGMT_NONE32 (all foreign
 *      drives; the only value in version 1); no data ----
 */

/* ---- CV_STATUS: no arguments; data MgmtCvStatus ---- */

typedef struct __attribute__((packed)) MgmtCvStatus {
    uint8_t state;              /* MGMT_CV_* */
    uint8_t write_back_ok;      /* 1: WB VDs run write-back now */
    uint8_t flush_interval_s;
    uint8_t reserved0;
    uint32_t reserved1;
    uint64_t cache_bytes;
    uint64_t dirty_bytes;
    uint64_t journal_records;
    uint64_t journal_bytes;
} MgmtCvStatus;                 /* 40 bytes */

/* ---- EVLOG_INFO: no arguments; data MgmtEvlogInfo ---- */

typedef struct __attribute__((packed)) MgmtEvlogInfo {
    uint32_t oldest_seq;        /* 0: empty */
    uint32_t newest_seq;
    uint32_t count;
    uint32_t capacity;
    uint32_t boot_seq;          /* first entry of this run */
    uint32_t clear_seq;         /* last clear mark; 0: none */
    uint32_t shutdown_seq;      /* newest shutdown entry; 0: none */
    uint32_t reserved;
} MgmtEvlogInfo;                /* 32 bytes */

/*
 * ---- EVLOG_READ: mbox[0] = first sequence number wanted (0: the
 *      oldest held), mbox[1] = most entries (0: as many as fit); a list
 *      of MgmtEvent in sequence order.  A first sequence number older
 *      than the oldest held starts at the oldest; one past the newest
 *      returns an empty list; beyond that: MGMT_STAT_INVALID_SEQ. ----
 */

#define MGMT_EV_TEXT_LEN        96

typedef struct __attribute__((packed)) MgmtEvent {
    uint32_t seq;
    uint16_t code;              /* event code (docs: the evlog codes) */
    uint8_t cls;                /* 0 ctrl, 1 drive, 2 vd, 3 job, 4 cv, 5 cfg */
    uint8_t severity;           /* 0 info, 1 warning, 2 critical, 3 fatal */
    uint64_t time_ms;           /* host time, ms since the epoch */
    int32_t target;             /* drive slot or VD index; -1 none */
    uint32_t arg[2];
    char text[MGMT_EV_TEXT_LEN];    /* NUL terminated */
    uint8_t reserved[4];
} MgmtEvent;                    /* 128 bytes */

/*
 * ---- VD_SET_PROPS: mbox[0] = VD, mbox[1] = MGMT_VDPROP_* mask of the
 *      fields to change; data-out MgmtVdProps; reply: the VD's
 *      MgmtVdEntry.  (Appended after protocol version 1's first set;
 *      what MFI LD_SET_PROPERTIES changes.) ----
 */
#define MGMT_OP_VD_SET_PROPS        0x04040000U

typedef struct __attribute__((packed)) MgmtVdProps {
    /*
     * The VD's cache policy byte as DDF records it: write back 0x01,
     * adaptive write back 0x02, read ahead 0x04, adaptive read ahead 0x08,
     * write back without a healthy CacheVault 0x10, write caching allowed
     * 0x20, read caching allowed 0x40 (MGMT_VDPROP_CACHE_MASK).
     */
    uint8_t cache_policy;
    uint8_t reserved0[3];
    char name[MGMT_VD_NAME_LEN];    /* NUL padded, printable ASCII */
    uint8_t reserved1[12];
} MgmtVdProps;                  /* 32 bytes */

#define MGMT_VDPROP_CACHE       0x01
#define MGMT_VDPROP_NAME        0x02
#define MGMT_VDPROP_MASK        0x03
#define MGMT_VDPROP_CACHE_MASK  0x7f

/*
 * ---- PD_LOCATE: mbox[0] = slot (slot | enclosure << 16), mbox[1] = 1
 *      start / 0 stop, mbox[2] = seconds the locate LED blinks (0: until
 *      stopped; start only); no data; reply: the drive's MgmtPdEntry,
 *      with MGMT_PD_F_LOCATE as it is now.  (Appended after protocol
 *      version 1's first set.) ----
 */
#define MGMT_OP_PD_LOCATE           0x02050000U
#define MGMT_PD_F_LOCATE        0x08    /* MgmtPdEntry.flags: LED blinks */
#define MGMT_LOCATE_MAX_S       86400   /* a day at most */

/*
 * Copyback (appended): a member's data copied onto a new drive, which
 * then takes its place (the member, a hot spare that took a failed
 * member's place, is a hot spare again).  JOB_CONTROL with job
 * MGMT_JOB_COPYBACK: start: mbox[0] = the member copied (source),
 * mbox[3] = the drive to copy onto (target, unconfigured good); stop,
 * pause, resume: mbox[0] = either drive, mbox[3] = 0.  Reply: the
 * MgmtJobStatus of the group's first VD being copied (none after a
 * stop).  The target's state meanwhile: MGMT_PD_COPYBACK.
 */
#define MGMT_JOB_COPYBACK       4
#define MGMT_PD_COPYBACK        9

/*
 * ---- FOREIGN_CONFIG: mbox[0] = foreign configuration index (0, 1, ...:
 *      the controller GUIDs of FOREIGN_SHOW's entries in their order of
 *      first appearance); no data; reply: MgmtForeignConfig, then ndgs x
 *      MgmtDgEntry, nvds x MgmtVdInfo (no member list after each), nspares
 *      x MgmtForeignSpare: the configuration as its drives' metadata
 *      holds it (drive groups and VDs numbered as there; member slots the
 *      bays the drives are in now, MGMT_NONE16 for a member not here;
 *      VD dev_handle MGMT_NONE16).  An index with no configuration:
 *      MGMT_STAT_NO_FOREIGN.  (Appended after protocol version 1's
 *      first set; what MFI FOREIGN_DISPLAY and PREVIEW show.) ----
 */
#define MGMT_OP_FOREIGN_CONFIG      0x06040000U

typedef struct __attribute__((packed)) MgmtForeignConfig {
    uint8_t ctrl_guid[24];      /* the controller that wrote it */
    uint16_t ndgs;
    uint16_t nvds;
    uint16_t nspares;
    uint16_t ndrives;           /* its drives in the bays now */
} MgmtForeignConfig;            /* 32 bytes */

typedef struct __attribute__((packed)) MgmtForeignSpare {
    uint16_t slot;              /* MGMT_NONE16: not here */
    uint16_t dg;                /* dedicated to; MGMT_NONE16: global */
    uint8_t reserved[4];
} MgmtForeignSpare;             /* 8 bytes */

#endif
