/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: shared state of the megaraid-9600 controller (the MPI 3.0
 * PCI function) and the interfaces between its files: mr9600.c (PCI
 * function, registers, IOC state machine), mr9600-queue.c (rings,
 * doorbells, reply posting), mr9600-ioc.c (IOC management functions),
 * mr9600-config.c (configuration pages), mr9600-scsiio.c (SCSI IO and task
 * management) and mr9600-devices.c (device handles, discovery, hot plug).
 */
#ifndef HW_MEGARAID_MR9600_H
#define HW_MEGARAID_MR9600_H

#include "hw/pci/pci_device.h"
#include "hw/block/block.h"
#include "qemu/queue.h"
#include "qemu/coroutine.h"
#include "hw/megaraid/mpi3.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/fw-core.h"
#include "hw/megaraid/ses.h"
#include "hw/megaraid/expander.h"

#define TYPE_MEGARAID_9600 "megaraid-9600"
OBJECT_DECLARE_SIMPLE_TYPE(MR9600State, MEGARAID_9600)

/* Limits of the 9670W-16i (SAS4116 RoC) as the device reports them. */
#define MR9600_MSIX_VECTORS         128
#define MR9600_MAX_OP_QUEUES        128
#define MR9600_MAX_OUTSTANDING      8192
#define MR9600_MAX_DEV_HANDLE       1024
#define MR9600_MAX_PERSISTENT_ID    1023
#define MR9600_REPLY_FRAME_SIZE     128     /* bytes */
#define MR9600_MAX_DATA_LENGTH      (1024 * 1024)
#define MR9600_MAX_CHAIN_DEPTH      4       /* chain elements per SGL */
#define MR9600_MAX_SGES             4096    /* SGEs per SGL, all levels */

/*
 * Firmware version (IOC FACTS, the management protocol's controller
 * info, QOM "firmware-version"): gen major.minor, phase major.minor-build.
 */
#define MR9600_FW_GEN_MAJOR         8
#define MR9600_FW_GEN_MINOR         9
#define MR9600_FW_PHASE_MAJOR       1
#define MR9600_FW_PHASE_MINOR       0
#define MR9600_FW_BUILD             18
#define MR9600_FW_VERSION \
    stringify(MR9600_FW_GEN_MAJOR) "." stringify(MR9600_FW_GEN_MINOR) "." \
    stringify(MR9600_FW_PHASE_MAJOR) "." stringify(MR9600_FW_PHASE_MINOR) \
    "-" stringify(MR9600_FW_BUILD)
/* What its VDs and its SATL report (INQUIRY revision, ATA Information) */
#define MR9600_VD_REVISION          "5.29"
#define MR9600_SAT_PRODUCT          "MR9670W SATL"
#define MR9600_SENSE_BUFFER_SIZE    256
#define MR9600_QUEUE_BATCH          64      /* requests per queue per pass */
/*
 * Back pressure: replies a reply queue may hold back (ring full, no free
 * reply frame) before the request queues it serves stop being read; the
 * reply ring's size, at most this many.
 */
#define MR9600_REPLY_BACKLOG_MAX    256

/* Firmware-specific fault codes raised for malformed host behaviour. */
#define MR9600_FAULT_ADMIN_Q_CONFIG     0x2001
#define MR9600_FAULT_DOORBELL_RANGE     0x2002
#define MR9600_FAULT_QUEUE_DMA          0x2003
#define MR9600_FAULT_FREE_QUEUE         0x2004
#define MR9600_FAULT_IOC_INIT           0x2005  /* fault-ioc-init */

typedef enum MR9600Personality {
    MR9600_PERSONALITY_RAID,
    MR9600_PERSONALITY_EHBA,
} MR9600Personality;

typedef struct MR9600Model {
    MRCoreModel core;           /* name, product, vendor, subsystem ids */
    MR9600Personality personality;
    uint32_t ports;
    bool sas_transport;         /* sas-transport=auto: on */
} MR9600Model;

typedef struct MR9600Request MR9600Request;
typedef struct MR9600TaskMgmt MR9600TaskMgmt;

/* A reply waiting for room in its reply ring or for a free buffer. */
typedef struct MR9600PendingReply {
    QTAILQ_ENTRY(MR9600PendingReply) next;
    MPI3ReplyDescriptor desc;
    uint16_t req_qid;
    bool address;               /* needs a reply frame */
    bool sense;                 /* SCSI IO reply with sense data */
    uint32_t sense_len;
    uint8_t frame[MR9600_REPLY_FRAME_SIZE];
    uint8_t sense_data[MR_SENSE_MAX];
    MR9600TaskMgmt *tm;         /* TM waiting for this reply to be posted */
} MR9600PendingReply;

typedef struct MR9600Queue {
    bool created;
    bool segmented;
    uint16_t id;
    uint32_t size;              /* entries */
    uint32_t esize;             /* entry size in bytes */
    uint64_t base;
    uint64_t *segs;             /* segment addresses when segmented */
    uint32_t nsegs;
    uint32_t pi;
    uint32_t ci;
    /* request queues */
    uint16_t reply_qid;
    /* reply queues */
    bool phase;
    bool irq_enabled;
    uint16_t msix;
    uint32_t users;             /* request queues bound to this reply queue */
    int64_t doorbell_ns;        /* timing=on: last PI doorbell (virtual) */
    QTAILQ_HEAD(, MR9600PendingReply) pending;
    uint32_t npending;          /* entries on pending */
    bool stalled;               /* its request queues wait for room */
} MR9600Queue;

struct MR9600Request {
    MR9600State *s;
    QTAILQ_ENTRY(MR9600Request) next;
    bool active;
    uint32_t generation;
    uint16_t host_tag;
    uint16_t dev_handle;
    uint16_t req_qid;           /* 0 = admin */
    uint32_t data_length;
    MR9600TaskMgmt *tm;
    QEMUSGList sg;
    MRTargetReq treq;
    /* NVMe ENCAPSULATED (mr9600-nvme-encap.c): what its completion needs */
    uint16_t nvme_cid;
    uint16_t nvme_flags;
    uint8_t nvme_opcode;
    uint32_t nvme_nsid;
    uint64_t nvme_lba;          /* Read/Write: its SLBA, for the error log */
    MRDrive *nvme_drive;
};

struct MR9600TaskMgmt {
    uint32_t outstanding;       /* terminated I/O not yet posted + 1 */
    uint32_t termination_count;
    uint32_t generation;
    uint16_t host_tag;
    uint16_t ioc_status;
    uint8_t response_code;
};

/*
 * A controller phy's programmable state (mr9600-phyctl.c): SAS IO Unit
 * page 1's PhyFlags and MaxMinLinkRate (current and persistent copies),
 * its Phy page 0 change count and Phy page 1 error counters, and the
 * drive attached to it while its link is down (disabled, negotiation
 * failed, a flap under way): kept by the card, gone for the host.
 */
#define MR9600_MAX_PHYS         24      /* the -24i's; the page buffer fits */
#define MR9600_PHY_COUNTERS     4
#define MR9600_PHY_LOSS_OF_SYNC 2       /* counters[]: loss of dword sync */
typedef struct MR9600Phy {
    struct MR9600State *s;
    uint8_t flags_cur, flags_pers;
    uint8_t rates_cur, rates_pers;
    uint8_t change_count;
    uint32_t counters[MR9600_PHY_COUNTERS];
    MRDrive *parked;
    /* injected (mr9600-linkfault.c) */
    uint8_t rate_cap;           /* the link renegotiated at most at this */
    bool flapping;              /* DELAY NOT RESPONDING sent */
    bool resetting;             /* internal device reset started */
    QEMUTimer *flap_timer;
    QEMUTimer *reset_timer;
} MR9600Phy;

/* Events sent with ACK REQUIRED the host has not acknowledged, at most */
#define MR9600_ACKS_MAX         64

/* Writable CONFIG pages kept by the IOC, and their largest size. */
#define MR9600_CFG_STORED       3
#define MR9600_CFG_STORED_MAX   40

struct MR9600State {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    QEMUBH *bh;
    QEMUBH *shutdown_bh;

    /* properties */
    char *model_str;
    uint8_t revision;
    uint64_t dsn;
    uint16_t max_op_queues;
    uint16_t msix_vectors;
    uint16_t max_outstanding;
    uint32_t ready_timeout;     /* seconds */
    OnOffAuto sas_transport_prop;   /* sas-transport */
    bool sas_transport;         /* its value: MULTIPATH cleared */
    bool reply_queue_limit;     /* FACTS: max requests per reply queue */
    uint8_t throttle_devices;   /* FACTS: max devices per throttle group */
    uint16_t throttle_groups;   /* FACTS: max IO throttle groups */
    uint32_t throttle_data_kib; /* FACTS: IO throttle data length */
    uint16_t throttle_high_mib; /* FACTS: IO throttle high / low water */
    uint16_t throttle_low_mib;
    int32_t bootindex;          /* the option ROM's disks in the boot order */

    const MR9600Model *model;

    /* system interface registers */
    uint32_t ioc_config;
    uint32_t ioc_status;
    uint32_t admin_q_num_entries;
    uint64_t admin_req_addr;
    uint64_t admin_reply_addr;
    uint32_t coalesce_control;
    uint32_t host_diag;
    uint32_t write_seq_state;
    uint32_t fault;
    uint32_t fault_info[3];
    uint64_t hcb_addr;
    uint32_t hcb_size;
    uint32_t scratchpad[4];

    /* queues: index 0 is the admin pair */
    MR9600Queue *reqq;
    MR9600Queue *replyq;

    /* free queues, latched at IOC INIT */
    bool initialized;           /* IOC INIT done */
    uint64_t reply_free_base;
    uint32_t reply_free_depth;
    uint32_t reply_free_host;
    uint32_t reply_free_ci;
    uint64_t sense_free_base;
    uint32_t sense_free_depth;
    uint32_t sense_free_host;
    uint32_t sense_free_ci;
    uint32_t sense_buffer_length;

    /* events */
    bool events_enabled;
    uint32_t event_masks[4];
    uint16_t change_count;
    bool port_enabled;
    uint64_t timestamp_ms;
    int64_t timestamp_set_at;

    /* requests */
    uint32_t generation;
    MR9600Request *reqs;
    QTAILQ_HEAD(, MR9600Request) free_reqs;
    QTAILQ_HEAD(, MR9600Request) active_reqs;
    int64_t slots_freed_ns;     /* timing=on: the pool was refilled */

    /* devices */
    MRUnit *handles[MR9600_MAX_DEV_HANDLE];
    bool handle_reserved[MR9600_MAX_DEV_HANDLE];
    /* per VD index: the Device Page 0 VD state last told to the host */
    uint8_t vd_host_state[RAID_MAX_VDS];

    /* shutdown notification (mr9600.c) */
    bool shutdown_requested;    /* not yet started: waits for idle I/O */
    uint32_t shutdown_flushes;  /* drive flushes in flight */

    /* persistent event log (mr9600-pel.c): the WAIT held, 0 = none */
    uint16_t pel_wait_tag;
    uint16_t pel_wait_locale;   /* ...its locale mask */
    uint8_t pel_wait_class;     /* ...its lowest class */
    uint32_t pel_wait_seq;      /* ...its starting sequence number */
    uint32_t pel_last_ack;      /* highest sequence number acknowledged */
    QEMUTimer *pel_timer;       /* WAIT with a wait time */
    Notifier pel_notifier;      /* new entries of array.evlog */

    /* PCIe function (mr9600-pcie.c) */
    bool pm_reset;              /* the reset under way is D3hot -> D0 */

    /* fault injection (mr9600-fault.c) */
    uint32_t fault_drop_replies; /* replies still to lose */
    uint32_t fault_drop_admin;  /* admin replies still to lose */
    uint32_t fault_drop_tm;     /* task management replies still to lose */
    int32_t fault_bad_tag;      /* host tag of the next completion, -1 none */
    uint16_t fault_io_handle;   /* inject-io-status: device handle */
    uint16_t fault_io_status;   /* ... its IOCStatus */
    uint32_t fault_io_loginfo;  /* ... its LogInfo */
    uint32_t fault_io_count;    /* ... completions still to fail */
    uint32_t fault_ioc_init;    /* IOC INIT requests still to fault */
    uint32_t diag_save_ms;      /* snapdump of a host-requested diag fault */
    uint32_t fault_save_ms;     /* snapdump phase of an injected fault */
    uint32_t prepare_reset_ms;  /* PREPARE FOR RESET -> firmware reset */
    int64_t fault_save_until;   /* virtual ns, 0 = no snapdump running */
    int64_t fault_reset_at;     /* virtual ns, 0 = no reset prepared */
    QEMUTimer *fault_timer;
    uint32_t fault_injected;
    uint32_t ioc_resets;        /* MUR, soft and firmware resets */
    /*
     * Bumped at every reset and at exit: a management reply still waiting
     * for its metadata (mr9600-mgmt.c) or a CONFIG reply waiting for its
     * config-nvram write (mr9600-config.c) from before is dropped.
     */
    uint32_t mgmt_epoch;

    /* writable CONFIG pages, current and persistent (mr9600-config.c) */
    BlockBackend *config_nvram; /* property: drive of the persistent copies */
    uint8_t cfg_cur[MR9600_CFG_STORED][MR9600_CFG_STORED_MAX];
    uint8_t cfg_pers[MR9600_CFG_STORED][MR9600_CFG_STORED_MAX];
    CoMutex cfg_nvram_lock;     /* config-nvram writes one at a time */
    uint32_t cfg_nvram_writes;  /* WRITE PERSISTENT writes in flight */

    /*
     * The firmware core: drive bays, RAID configuration, cache, jobs,
     * event log, management operations (fw-core.h); its MRMgmt is set up
     * by mr9600-mgmt.c at first use.
     */
    MRCore core;

    /* the SES device of the card's enclosure (mr9600-ses.c) */
    MRSes ses;

    /* the controller's phys (mr9600-phyctl.c) */
    MR9600Phy phys[MR9600_MAX_PHYS];

    /* events with ACK REQUIRED (mr9600-linkfault.c) */
    uint32_t ack_events;        /* property: the next N ask for an ACK */
    uint32_t acks_pending;
    uint32_t acks_done;
    struct {
        uint8_t event;
        uint32_t context;
    } acks[MR9600_ACKS_MAX];
};

/* mr9600.c */
void mr9600_ioc_fault(MR9600State *s, uint16_t code);
void mr9600_ioc_reset(MR9600State *s);
bool mr9600_ioc_ready(MR9600State *s);
void mr9600_kick(MR9600State *s);
void mr9600_io_idle(MR9600State *s);

/* mr9600-queue.c */
void mr9600_queues_init(MR9600State *s);
void mr9600_queues_reset(MR9600State *s);
void mr9600_queues_free(MR9600State *s);
bool mr9600_admin_enable(MR9600State *s);
void mr9600_doorbell_write(MR9600State *s, hwaddr addr, uint32_t val);
void mr9600_reply_free_write(MR9600State *s, uint32_t val);
void mr9600_sense_free_write(MR9600State *s, uint32_t val);
void mr9600_process_queues(MR9600State *s);
bool mr9600_dma_ok(MR9600State *s, uint64_t addr, uint64_t len);
void mr9600_post_success(MR9600State *s, uint16_t req_qid, uint16_t host_tag);
void mr9600_post_status(MR9600State *s, uint16_t req_qid, uint16_t host_tag,
                        uint16_t ioc_status, uint32_t log_info);
void mr9600_post_frame(MR9600State *s, uint16_t req_qid, const void *frame,
                       size_t len, MR9600TaskMgmt *tm);
void mr9600_post_scsi_reply(MR9600State *s, uint16_t req_qid,
                            const MPI3SCSIIOReply *rep,
                            const uint8_t *sense, uint32_t sense_len,
                            MR9600TaskMgmt *tm);
uint16_t mr9600_create_queue(MR9600State *s, const MPI3CreateQueueRequest *r,
                             bool reply);
uint16_t mr9600_delete_queue(MR9600State *s, uint16_t qid, bool reply);

/* mr9600-ioc.c */
bool mr9600_facts_check(MR9600State *s, Error **errp);
void mr9600_admin_request(MR9600State *s, const uint8_t *frame);
void mr9600_reply_status(MR9600State *s, uint16_t req_qid,
                         const MPI3RequestHeader *hdr, uint16_t ioc_status);
bool mr9600_read_sge(MR9600State *s, const MPI3SGE *sge, uint64_t *addr,
                     uint32_t *len);
uint16_t mr9600_shutdown_timeout(MR9600State *s);
void mr9600_energy_pack_changed(MR9600State *s);

/* mr9600-pel.c */
void mr9600_pel_request(MR9600State *s, const uint8_t *frame);
bool mr9600_pel_realize(MR9600State *s, Error **errp);
void mr9600_pel_exit(MR9600State *s);

/* mr9600-config.c */
/* The config NVRAM's bytes on its drive (config-nvram=). */
#define MR9600_NVRAM_BYTES      512
/* Claim the config-nvram drive and load the persistent pages from it. */
bool mr9600_config_realize(MR9600State *s, Error **errp);
void mr9600_config_request(MR9600State *s, const MPI3ConfigRequest *req);
/* Wait for the config-nvram writes in flight (their replies are dropped). */
void mr9600_config_exit(MR9600State *s);
void mr9600_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *pg);
void mr9600_config_page_header(uint8_t type, uint8_t number, uint16_t bytes,
                               MPI3ConfigPageHeader *h);

/* mr9600-scsiio.c */
void mr9600_requests_init(MR9600State *s);
void mr9600_requests_free(MR9600State *s);
bool mr9600_request_available(MR9600State *s);
MR9600Request *mr9600_request_take(MR9600State *s, uint16_t qid, uint16_t tag,
                                   uint16_t handle, uint32_t dlen);
void mr9600_request_release(MR9600State *s, MR9600Request *r);
void mr9600_scsi_io(MR9600State *s, uint16_t req_qid, const uint8_t *frame);
void mr9600_task_mgmt(MR9600State *s, const MPI3SCSITaskMgmtRequest *req);
void mr9600_requests_abort_all(MR9600State *s);
uint32_t mr9600_requests_cancel(MR9600State *s, uint16_t handle, bool any_lun,
                                uint64_t lun, MR9600TaskMgmt *tm);
uint64_t mr9600_decode_lun(const uint8_t *lun);
void mr9600_tm_put(MR9600State *s, MR9600TaskMgmt *tm, bool posted);

/* mr9600-array.c */
bool mr9600_array_realize(MR9600State *s, Error **errp);
void mr9600_array_unrealize(MR9600State *s);
void mr9600_vd_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *pg);

/* mr9600-pcie.c */
bool mr9600_pcie_realize(MR9600State *s, Error **errp);
void mr9600_pcie_exit(MR9600State *s);
bool mr9600_pcie_reset(MR9600State *s);
void mr9600_pcie_class_init(ObjectClass *oc);

/* mr9600-fault.c */
void mr9600_fault_init(MR9600State *s);
void mr9600_fault_reset(MR9600State *s);
void mr9600_fault_exit(MR9600State *s);
void mr9600_fault_class_init(ObjectClass *oc);
bool mr9600_fault_drop_reply(MR9600State *s, uint16_t req_qid,
                             uint16_t host_tag, uint8_t function, bool tm);
uint16_t mr9600_fault_io_tag(MR9600State *s, uint16_t host_tag);
bool mr9600_fault_io_status(MR9600State *s, uint16_t handle,
                            uint16_t *ioc_status, uint32_t *log_info);
bool mr9600_fault_ioc_init(MR9600State *s);
void mr9600_fault_diag_save(MR9600State *s);

/* mr9600-mgmt.c */
#define MR9600_VD_HANDLE_BASE   0x300   /* VD n has handle base + n */
void mr9600_mgmt_request(MR9600State *s, const uint8_t *frame);

/* mr9600-sas.c: the SAS transport personality (sas-transport=on) */
#define MR9600_CTRL_HANDLE      0x3FF   /* the controller's own device */
#define MR9600_ENCL_HANDLE      1       /* the card's virtual enclosure */
bool mr9600_sas_on(MR9600State *s);
uint32_t mr9600_sas_num_phys(MR9600State *s);
uint64_t mr9600_sas_address(MR9600State *s);
/* The controller phy @u is attached to, -1: none (NVMe, VD, no phy). */
int mr9600_unit_phy(MR9600State *s, MRUnit *u);
/* The IO unit port of @u in its device page and events. */
uint8_t mr9600_unit_port(MR9600State *s, MRUnit *u);
uint8_t mr9600_unit_link_rate(MRUnit *u);
void mr9600_sas_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p);
/* Device page 0 of the controller's handle into buf; false: not it. */
bool mr9600_sas_ctrl_page(MR9600State *s, uint16_t handle, uint8_t *buf);
uint16_t mr9600_sas_page_bytes(MR9600State *s, uint8_t type, uint8_t number);
uint16_t mr9600_sas_build_page(MR9600State *s, uint8_t type, uint8_t number,
                               uint32_t page_address, uint8_t *buf);
void mr9600_sas_topo_event(MR9600State *s, MRUnit *u, bool present);
/* One entry's topology change list for controller phy @phy. */
void mr9600_sas_topo_list(MR9600State *s, uint32_t phy, uint16_t handle,
                          uint8_t link_rate, uint8_t status);
void mr9600_sas_port_enable(MR9600State *s);
/* The drive on controller phy @phy as the host knows it, or NULL. */
MRUnit *mr9600_phy_unit(MR9600State *s, uint32_t phy);

/* mr9600-phyctl.c: writes of SAS IO Unit page 1, SAS PHY CONTROL */
void mr9600_phyctl_realize(MR9600State *s);
/*
 * The NegotiatedLinkRate nibble of @phy with @u attached (NULL: the drive
 * on it, linked or not): a rate, PHY_DISABLED, NEG_FAILED, or 0 (none).
 */
uint8_t mr9600_phy_link_rate(MR9600State *s, uint32_t phy, MRUnit *u);
uint8_t mr9600_phy_rate(MR9600State *s, uint32_t phy);
/* Page 1's per-phy PhyFlags and MaxMinLinkRate of the copy @action reads */
void mr9600_phyctl_iounit1(MR9600State *s, uint8_t action, uint8_t *buf);
void mr9600_phyctl_phy_page(MR9600State *s, uint32_t phy, uint8_t number,
                            uint8_t *buf);
/* Checks of a page 1 write (the IOC status), and applying one checked. */
uint16_t mr9600_phyctl_check_iounit1(MR9600State *s, uint8_t action,
                                     const uint8_t *buf, uint32_t len);
uint16_t mr9600_phyctl_write_iounit1(MR9600State *s, uint8_t action,
                                     const uint8_t *buf, uint32_t len);
/*
 * Page 1's persistent copy in config-nvram: the defaults (before the
 * load), a record's contents loaded, the record's image (with @pending's
 * PhyFlags / MaxMinLinkRate per phy instead of the stored ones unless
 * NULL), and a persistent copy made durable.
 */
void mr9600_phyctl_defaults(MR9600State *s);
void mr9600_phyctl_nvram_load(MR9600State *s, const uint8_t *buf,
                              uint16_t bytes);
void mr9600_phyctl_nvram_image(MR9600State *s,
                               const uint8_t (*pending)[2], uint8_t *buf);
void mr9600_phyctl_set_pers(MR9600State *s, const uint8_t (*phys)[2]);
uint16_t mr9600_phyctl_control(MR9600State *s,
                               const MPI3IOUnitControlRequest *req);
/* @d is plugged: true if its phy has no link (kept, told to no one) */
bool mr9600_phyctl_plug(MR9600State *s, MRDrive *d);
/* @d leaves the bus: true if its link was down (the core knows already) */
bool mr9600_phyctl_unplug(MR9600State *s, MRDrive *d);
void mr9600_phyctl_exit(MR9600State *s);

/* mr9600-linkfault.c: injected link flaps, rates, device resets, ACKs */
void mr9600_linkfault_init(MR9600State *s);
void mr9600_linkfault_exit(MR9600State *s);
void mr9600_linkfault_reset(MR9600State *s);
void mr9600_linkfault_class_init(ObjectClass *oc);
/* Event @event with @context is to be sent with ACK REQUIRED (held). */
bool mr9600_event_wants_ack(MR9600State *s, uint8_t event, uint32_t context);
uint16_t mr9600_event_ack(MR9600State *s, const MPI3EventAckRequest *req);

/* mr9600-encl.c */
uint16_t mr9600_encl_build_page(MR9600State *s, uint32_t page_address,
                                uint8_t *buf);
void mr9600_encl_events_enabled(MR9600State *s);

/* mr9600-nvme-encap.c: NVMe ENCAPSULATED for NVMe JBOD drives */
void mr9600_nvme_encap(MR9600State *s, const uint8_t *frame);

/* mr9600-ses.c: the SEP of the card's enclosure (sas-transport=on) */
#define MR9600_SEP_HANDLE       0x2FF   /* below the VDs', no drive's */
void mr9600_ses_realize(MR9600State *s);
void mr9600_ses_exit(MR9600State *s);
/* The SEP's handle, 0: none. */
uint16_t mr9600_ses_handle(MR9600State *s);
void mr9600_ses_page0(MR9600State *s, MPI3DevicePage0 *p);

/* mr9600-expander.c: megaraid-expander's MPI3 view (sas-transport=on) */
#define MR9600_EXP_HANDLE_BASE  0x2F0   /* enclosure E's: base + E */
#define MR9600_EXP_MAX_ENCL     14      /* handles 0x2F1-0x2FE, no drive's */
void mr9600_exp_realize(MR9600State *s);
uint16_t mr9600_exp_handle(MRExpander *e);
uint64_t mr9600_exp_address(MR9600State *s, MRExpander *e);
MRExpander *mr9600_exp_by_handle(MR9600State *s, uint16_t handle);
MRExpander *mr9600_exp_on_phy(MR9600State *s, uint32_t phy);
MRExpander *mr9600_exp_of_unit(MR9600State *s, MRUnit *u);
bool mr9600_exp_check_drive(MR9600State *s, MRDrive *d, Error **errp);
bool mr9600_exp_device_page0(MR9600State *s, MRUnit *u, MPI3DevicePage0 *p);
bool mr9600_exp_own_page0(MR9600State *s, uint16_t handle, uint8_t *buf);
uint16_t mr9600_exp_build_page(MR9600State *s, uint8_t number,
                               uint32_t page_address, uint8_t *buf);
bool mr9600_exp_ctrl_phy(MR9600State *s, uint32_t phy, uint16_t *handle,
                         uint8_t *port, uint8_t *neg_rate);
bool mr9600_exp_encl_page(MR9600State *s, uint32_t page_address,
                          uint8_t *buf, uint16_t *status);
void mr9600_exp_encl_events(MR9600State *s);
void mr9600_exp_announce(MR9600State *s);
void mr9600_exp_port_enable(MR9600State *s);
bool mr9600_exp_topo_event(MR9600State *s, MRUnit *u, bool present);
typedef struct MR9600ExpPhyView {
    uint16_t handle;            /* 0: nothing; MR9600_CTRL_HANDLE: port */
    uint16_t device_info;
    uint8_t rate;               /* logical = physical */
    uint8_t attached_phy;
    uint64_t sas_address;       /* the attached device's */
    bool sata;
} MR9600ExpPhyView;
MR9600ExpPhyView mr9600_exp_phy_view(MR9600State *s, MRExpander *e,
                                     uint32_t phy);

/* mr9600-smp.c */
void mr9600_smp_request(MR9600State *s, const uint8_t *frame);

/* mr9600-devices.c */
MRUnit *mr9600_unit_by_handle(MR9600State *s, uint16_t handle);
void mr9600_devices_reset(MR9600State *s);
void mr9600_port_enable(MR9600State *s, uint16_t host_tag);
/* Drive @d has its place: the host is told of it (DEVICE ADDED). */
void mr9600_drive_arrived(MR9600State *s, MRDrive *d);
bool mr9600_event_enabled(MR9600State *s, uint8_t event);
void mr9600_send_visibility(MR9600State *s, MRUnit *u, bool hidden);
void mr9600_send_event(MR9600State *s, uint8_t event, const void *data,
                       size_t len);
uint16_t mr9600_remove_device(MR9600State *s, uint16_t handle);
MRUnit *mr9600_next_unit(MR9600State *s, uint16_t after_handle);
/* A free handle for @d (its own bay's first), 0: none. */
uint16_t mr9600_alloc_handle(MR9600State *s, MRDrive *d);
void mr9600_hotplug_class_init(ObjectClass *oc);

#endif
