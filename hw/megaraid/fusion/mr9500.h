/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: shared state of the megaraid-9500 controller (SAS3916
 * "Aero", the Fusion host interface of the Linux megaraid_sas driver) and
 * the interfaces between its files: mr9500.c (PCI function, registers,
 * firmware state machine, drive bays), mr9500-ioc.c (IOC INIT, request
 * descriptors, reply queues, interrupts), mr9500-dcmd.c (MFI pass-through
 * frames and DCMDs), mr9500-io.c (SCSI I/O to JBOD drives and LDs, task
 * management), mr9500-sgl.c (their SGLs and PRP lists), mr9500-fp.c
 * (fast path: which LDs offer it, its frames), mr9500-ld.c (LDs, their
 * DCMDs and events), mr9500-events.c, mr9500-mgmt.c and mr9500-map.c
 * (RAID map, map sync, fault injection).
 */
#ifndef HW_MEGARAID_MR9500_H
#define HW_MEGARAID_MR9500_H

#include "hw/pci/pci_device.h"
#include "hw/megaraid/mfi.h"
#include "hw/megaraid/drive.h"
#include "hw/megaraid/target.h"
#include "hw/megaraid/fw-core.h"
#include "hw/megaraid/mgmt-proto.h"

#define TYPE_MEGARAID_9500 "megaraid-9500"
OBJECT_DECLARE_SIMPLE_TYPE(MR9500State, MEGARAID_9500)

/*
 * Firmware package version (controller info, the management protocol's
 * controller info, QOM firmware-version).
 */
#define MR9500_FW_VERSION       "52.16.1-4405"
/*
 * What its VDs and its SATL report: the INQUIRY revision of a VD (four
 * characters: the package's major and minor, 52.16, as the firmware
 * numbers itself, 5.16) and the SAT product of the ATA Information page
 * (the model's name).  Inferred, not read from a card.
 */
#define MR9500_VD_REVISION      "5.16"
#define MR9500_SAT_PRODUCT      "PERC H755N SATL"

/* ld_told[]: the host was never told of the VD (or told it is gone). */
#define MR9500_LD_TOLD_NONE     0xFF
/* MRUnit.host_id of a VD withdrawn from the host: no LD target matches. */
#define MR9500_NO_HOST_ID       0xFFFF

#define MR9500_MAX_QUEUES       16      /* reply queues offered, <= 16 */
#define MR9500_MAX_PDS          256     /* PD ids 0..255 */
#define MR9500_CHAIN_BYTES      4096    /* chain frame the driver allocates */
#define MR9500_MAX_DATA         (16 * 1024 * 1024)
/* NVMe devices' maximum I/O size (DEV_GET_TARGET_PROP), KiB */
#define MR9500_NVME_MAX_IO_KB   1024
/* RAID map size (scratch pad 2 bits 24:16, in 64 KiB): 240 LDs fit */
#define MR9500_MAP_UNITS        10
#define MR9500_MAP_BYTES        (MR9500_MAP_UNITS * 64 * 1024)

/* Fault codes (scratch pad 0 bits 27:16) raised for host misbehaviour. */
#define MR9500_FAULT_FRAME_DMA  0x0A1
#define MR9500_FAULT_REPLY_DMA  0x0A2

/* A model= entry: name, product, vendor, subsystem ids. */
typedef MRCoreModel MR9500Model;

/* One outstanding request, indexed by its SMID. */
typedef struct MR9500Cmd {
    struct MR9500State *s;
    bool active;
    uint16_t smid;
    uint8_t queue;              /* reply queue named by the descriptor */
    uint8_t pd;                 /* JBOD PD id (VD: target id) */
    bool ld;                    /* to a VD (mr9500-ld.c) */
    uint32_t generation;
    uint32_t data_len;
    uint64_t sense_addr;
    bool mfi;                   /* MFI pass-through SCSI frame */
    uint64_t mfi_addr;
    uint8_t sense_max;          /* MFI: sense bytes the host takes */
    QEMUSGList sg;
    MRTargetReq treq;
    /* a command cancelled by task management: the TM's SMID, 0 none */
    uint16_t tm_smid;
    /*
     * This slot is a TM waiting for the commands it ended to post their
     * replies and for the host to consume them (its reply comes after).
     */
    bool tm_wait;
    uint8_t tm_type;
    uint16_t tm_handle;
    uint32_t tm_pending;        /* cancelled commands not yet completed */
    uint32_t tm_count;          /* TerminationCount */
    uint16_t tm_queues;         /* reply queues holding their replies */
    uint16_t tm_after[MR9500_MAX_QUEUES];   /* producer index after them */
    /* mr9500-fp.c: a fast path frame, run on its VD (pd: target id) */
    bool fp;
    bool fp_write;
    uint16_t fp_peer;           /* RAID 1/10 write: the other copy's SMID */
    uint32_t fp_blocks;
    uint64_t fp_lba;            /* VD sector */
} MR9500Cmd;

/* A DCMD the firmware holds (EVENT_WAIT). */
typedef struct MR9500Held {
    bool active;
    uint16_t smid;
    uint64_t mfi_addr;
    uint32_t seq;               /* first sequence number wanted */
    uint16_t locale;
    int8_t class;
    uint8_t frame[MFI_FRAME_SIZE];  /* its MFI frame: the SGL */
} MR9500Held;

/* The firmware's recent events (mr9500-events.c). */
#define MR9500_EVT_RING     256
#define MR_EVT_DETAIL_SIZE  256

typedef struct MR9500State {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    int32_t bootindex;          /* the option ROM's LDs in the boot order */

    /* properties */
    char *model_str;
    uint16_t max_cmds;          /* scratch pad 0 bits 15:0 */
    uint8_t queues;             /* reply queues offered (MSI-X vectors) */
    bool rdpq;                  /* advertise RDPQ */
    const MR9500Model *model;

    /* registers */
    uint32_t fw_state;          /* MFI_STATE_* */
    uint32_t fault_code;
    uint32_t intr_mask;
    uint32_t intr_status;
    uint32_t host_diag;
    uint32_t seq_state;         /* diagnostic key sequence position */
    uint32_t req_low;           /* latched low half of a descriptor */
    bool req_low_valid;
    bool stopped;               /* doorbell STOP_ADP: adapter killed */

    /* IOC INIT state */
    bool operational;
    uint32_t generation;        /* bumped at every reset: stale completions */
    uint64_t frame_base;
    uint32_t reply_depth;
    uint32_t nqueues;
    uint32_t sense_high;
    uint16_t max_smid;
    uint64_t reply_base[MR9500_MAX_QUEUES];
    uint32_t reply_pi[MR9500_MAX_QUEUES];     /* device producer index */
    uint32_t reply_hi[MR9500_MAX_QUEUES];     /* host consumer index */
    uint64_t timestamp_ms;

    MR9500Cmd *cmds;            /* [max_smid + 1] */
    uint32_t ncmds;
    MR9500Held aen;
    MR9500Held map_sync;        /* mr9500-map.c: the pended map sync */
    uint16_t map_seq;           /* mr9500-map.c: bumped at every change */
    MR9500Held jbod_sync;       /* mr9500-map.c: the pended JBOD map */
    uint16_t jbod_sent_seq;     /* map_seq of the last JBOD map sent */
    uint32_t faults_injected;   /* mr9500-map.c: inject-fault count */
    uint32_t chip_resets;       /* diagnostic resets by the host (QOM) */
    /*
     * Bumped at every reset (and so at exit): the cache flushes and the
     * management replies still in flight from before complete to no one.
     */
    uint32_t held_epoch;
    uint32_t tm_waiting;        /* mr9500-io.c: TMs with tm_wait set */
    bool fast_path;             /* mr9500-fp.c: offered (QOM fast-path) */
    uint64_t fp_ios;            /* fast path frames served (QOM) */
    uint32_t evt_seq;           /* newest event sequence number */
    uint8_t evt_ring[MR9500_EVT_RING][MR_EVT_DETAIL_SIZE];
    /* mr9500-evlog.c: the core log's entries into the ring */
    Notifier evlog_notifier;
    bool evt_core[MR9500_EVT_RING];     /* slot holds a core log entry */
    uint32_t evt_boot_seq;      /* this run's controller start; 0: none */
    uint32_t evt_clear_seq;     /* the newest log clear mark */
    uint32_t evt_shutdown_seq;  /* the newest shutdown */
    int64_t boot_ns;            /* QEMU_CLOCK_VIRTUAL at realize */

    /* drives: PD id -> drive (JBODs exposed to the host) */
    MRDrive *pd[MR9500_MAX_PDS];
    /* hot-plugged, metadata being read: PD id taken, not shown yet */
    MRDrive *pd_pending[MR9500_MAX_PDS];
    /* mr9500-ld.c: the MFI state of each VD the host was told */
    uint8_t ld_told[RAID_MAX_VDS];
    /* mr9500-pd-mgmt.c: PD sequence numbers, the state last seen + 1 */
    uint16_t pd_seq[MR9500_MAX_PDS];
    uint8_t pd_seq_state[MR9500_MAX_PDS];

    MRCore core;
} MR9500State;

/* The MFI PD interface type of drive unit @u (PD info, RAID map). */
static inline uint8_t mr9500_pd_if(const MRUnit *u)
{
    return u->iface == MR_IF_NVME ? MR_PD_IF_NVME :
           u->iface == MR_IF_SATA ? MR_PD_IF_SATA : MR_PD_IF_SAS;
}

/* mr9500.c */
void mr9500_fault(MR9500State *s, uint32_t code);
bool mr9500_dma_ok(MR9500State *s, uint64_t addr, uint64_t len);
MRDrive *mr9500_pd_drive(MR9500State *s, uint32_t pd);
/* Hot-plugged drive @d has its place: the PD INSERTED event (mr9500.c). */
void mr9500_drive_arrived(MR9500State *s, MRDrive *d);

/* mr9500-ioc.c */
void mr9500_ioc_reset(MR9500State *s);
void mr9500_post_request(MR9500State *s, uint32_t lo, uint32_t hi);
void mr9500_post_reply(MR9500State *s, uint32_t queue, uint16_t smid);
void mr9500_host_index_write(MR9500State *s, uint32_t queue, uint32_t idx);
void mr9500_intr_mask_write(MR9500State *s, uint32_t val);
bool mr9500_frame_write(MR9500State *s, uint16_t smid, uint32_t off,
                        const void *buf, uint32_t len);

/* mr9500-dcmd.c */
void mr9500_mfi_passthru(MR9500State *s, uint16_t smid, uint8_t queue,
                         const uint8_t *frame);
void mr9500_dcmd_reset(MR9500State *s);
/*
 * Walk the SGL of MFI frame @f at @sgl_off (32-bit, 64-bit or IEEE
 * elements) into @sg until it covers @len bytes; false when the SGL does
 * not fit the frame or an element it needs is outside guest RAM.  The SGL
 * may cover less than @len (sg->size says how much).
 */
bool mr9500_mfi_sgl(MR9500State *s, const uint8_t *f, uint32_t sgl_off,
                    QEMUSGList *sg, uint32_t len);
uint8_t mr9500_mfi_to_host(MR9500State *s, const uint8_t *f,
                           uint32_t sgl_off, const void *buf, uint32_t len);
/*
 * Read @len bytes of a DCMD's data (the SGL of MFI frame @f) into @buf;
 * false when the SGL is bad or holds fewer than @len bytes.
 */
bool mr9500_mfi_from_host(MR9500State *s, const uint8_t *f, uint8_t *buf,
                          uint32_t len);
/* Hold the MFI command at @smid/@mfi_addr (a copy of its frame) in @h. */
void mr9500_hold(MR9500Held *h, uint16_t smid, uint64_t mfi_addr,
                 const uint8_t *frame);
/* Complete the command @h holds with @status (reply queue 0). */
void mr9500_held_complete(MR9500State *s, MR9500Held *h, uint8_t status);
void mr9500_mfi_complete(MR9500State *s, uint16_t smid, uint8_t queue,
                         uint64_t mfi_addr, uint8_t status);

/* mr9500-events.c */
#define MR_EVT_PD_INSERTED  0x005B
#define MR_EVT_PD_REMOVED   0x0070
void mr9500_event_pd(MR9500State *s, uint16_t code, uint32_t pd,
                     uint32_t slot);
/*
 * A new event in the ring: sequence number, time, @code and @locale set,
 * the rest zero for the caller to fill; then mr9500_aen_check().
 */
uint8_t *mr9500_event_new(MR9500State *s, uint16_t code, uint16_t locale,
                          uint32_t *seq);
/* EVENT_WAIT arrived (in s->aen): complete it now if an event matches. */
void mr9500_aen_check(MR9500State *s);
/* mr9500-evlog.c: the core's event log in the MFI log (realize, exit) */
void mr9500_evlog_init(MR9500State *s);
void mr9500_evlog_exit(MR9500State *s);

/* mr9500-sgl.c */
/*
 * The data of SCSI I/O frame @frame (IEEE SGL or NVMe PRP list) into @sg
 * until it covers @data_len bytes; false: malformed, outside guest RAM
 * or short.
 */
bool mr9500_build_sgl(MR9500State *s, const uint8_t *frame, QEMUSGList *sg,
                      uint32_t data_len);

/* mr9500-io.c */
void mr9500_cmds_init(MR9500State *s);
void mr9500_cmds_free(MR9500State *s);
void mr9500_cmds_abort_all(MR9500State *s);
/* Commands still waiting for the target's completion (cancel is async). */
bool mr9500_cmds_busy(MR9500State *s);
void mr9500_scsi_io(MR9500State *s, uint16_t smid, uint8_t queue,
                    const uint8_t *frame);
void mr9500_task_mgmt(MR9500State *s, uint16_t smid, uint8_t queue,
                      const uint8_t *frame);
void mr9500_mfi_scsi(MR9500State *s, uint16_t smid, uint8_t queue,
                     uint64_t mfi_addr, const uint8_t *f);
void mr9500_cmds_cancel_pd(MR9500State *s, uint32_t pd);
/* The host consumed replies: a TM waiting for that may reply now. */
void mr9500_tm_consumed(MR9500State *s);

/* mr9500-fp.c */
/* Does the RAID map offer fast path for @vd? */
bool mr9500_fp_offered(MR9500State *s, MRVirtualDisk *vd);
/*
 * A fast path frame (its CDB already in @c->treq.cdb): the VD's unit, the
 * CDB rewritten to the VD's LBA, @c's fp fields and pd (the target id)
 * set, and *@second when it is the second frame of a RAID 1/10 write pair
 * that needs no I/O of its own; NULL with the MFI status to answer.
 */
MRUnit *mr9500_fp_resolve(MR9500State *s, MR9500Cmd *c, const uint8_t *frame,
                          uint8_t *status, bool *second);
void mr9500_fp_class_init(ObjectClass *oc);

/* mr9500-ld.c */
extern const MRArrayOps mr9500_ld_array_ops;
void mr9500_ld_init(MR9500State *s);
/* LD_LIST_QUERY, LD_GET_LIST, LD_GET_INFO; false: not an LD DCMD */
bool mr9500_ld_dcmd(MR9500State *s, uint32_t opcode, const uint8_t *mbox,
                    uint8_t **buf, uint32_t *len, uint8_t *status);
void mr9500_ld_ctrl_info(MR9500State *s, uint8_t *ci, uint32_t npd);
/* The VD with LD target id @tgt (its index, while exposed); NULL: none. */
MRVirtualDisk *mr9500_ld_vd(MR9500State *s, uint32_t tgt);
/* The unit of VD target @tgt; NULL with the MFI status to answer. */
MRUnit *mr9500_ld_unit(MR9500State *s, uint32_t tgt, uint8_t *status);
/* LD_GET_INFO of target @tgt into @li (MR_LD_INFO_SIZE bytes, zeroed). */
uint8_t mr9500_ld_info(MR9500State *s, uint32_t tgt, uint8_t *li);
/* The LD configuration (CFG_READ's) of a VD the protocol describes. */
void mr9500_ld_conf_of(const MgmtVdInfo *vi, uint8_t tgt, uint8_t *li);

/*
 * mr9500-cfg.c: the configuration and LD management DCMDs (CFG_*,
 * LD_GET/SET_PROPERTIES, LD_DELETE, LD_INIT_START, the foreign ones).
 * NOT_MINE: another opcode; ANSWERED: *@status (and *@buf, *@len to
 * send) now; HELD: it completes later (mr9500_mfi_complete), once its
 * change is on the drives.
 */
typedef enum MR9500CfgAnswer {
    MR9500_CFG_NOT_MINE = 0,
    MR9500_CFG_ANSWERED,
    MR9500_CFG_HELD,
} MR9500CfgAnswer;
/*
 * mr9500-pr.c: the PR_* DCMDs (NOT_MINE: not a patrol read DCMD; HELD:
 * PR_STOP, until the pass has ended).
 */
MR9500CfgAnswer mr9500_pr_dcmd(MR9500State *s, uint32_t opcode,
                               uint16_t smid, uint8_t queue,
                               uint64_t mfi_addr, const uint8_t *f,
                               uint8_t **buf, uint32_t *len, uint8_t *status);
MR9500CfgAnswer mr9500_cfg_dcmd(MR9500State *s, uint32_t opcode,
                                uint16_t smid, uint8_t queue,
                                uint64_t mfi_addr, const uint8_t *f,
                                uint8_t **buf, uint32_t *len,
                                uint8_t *status);
/*
 * mr9500-mgmt-call.c: the management request for @op in @req (room for
 * an MgmtRequest and @dlen bytes; @mbox: 4 words or NULL); its length.
 */
size_t mr9500_mgmt_request(uint8_t *req, uint32_t op, const uint32_t *mbox,
                           const void *data, uint32_t dlen);
/* A query's answer: MgmtReply and its data in @resp, @len bytes. */
typedef struct MR9500MgmtAnswer {
    bool done;
    bool orphan;                /* nobody waits: freed when it answers */
    size_t len;
    uint8_t resp[MGMT_MAX_RESP_LEN];
} MR9500MgmtAnswer;
/*
 * Query @op (mailbox words @m0, @m1) answered now: the answer (g_free),
 * or NULL if it did not answer at once.
 */
MR9500MgmtAnswer *mr9500_mgmt_ask(MR9500State *s, uint32_t op, uint32_t m0,
                                  uint32_t m1);
/*
 * Management protocol query @op (mailbox word 0 @m0) answered now: true
 * with its data (@cap bytes, zero padded) in @out when it answered
 * MGMT_STAT_OK.
 */
bool mr9500_mgmt_query(MR9500State *s, uint32_t op, uint32_t m0, void *out,
                       size_t cap);
/*
 * Run change @op (@mbox: 4 words, @data of @dlen bytes) for DCMD @dcmd
 * at @smid: the DCMD completes with the MFI status of its answer.
 */
void mr9500_mgmt_run(MR9500State *s, uint16_t smid, uint8_t queue,
                     uint64_t mfi_addr, uint32_t dcmd, uint32_t op,
                     const uint32_t *mbox, const void *data, uint32_t dlen);
/* The MFI status of management protocol status @mgmt. */
uint8_t mr9500_mgmt_mfi_status(uint8_t mgmt);
/* The MFI firmware state of a drive in protocol state @st (MGMT_PD_*). */
uint16_t mr9500_mfi_pd_state(uint8_t st);
/*
 * mr9500-pd-mgmt.c: PD_STATE_SET, PD_REBUILD_START/ABORT and
 * PD_GET_PROGRESS, answered as mr9500_cfg_dcmd() answers.
 */
MR9500CfgAnswer mr9500_pd_mgmt_dcmd(MR9500State *s, uint32_t opcode,
                                    uint16_t smid, uint8_t queue,
                                    uint64_t mfi_addr, const uint8_t *f,
                                    uint8_t **buf, uint32_t *len,
                                    uint8_t *status);
/*
 * The management part of PD_GET_INFO of drive @d into @pi (its firmware
 * state, DDF type bits, counters, SAS address, serial, progress).
 */
void mr9500_pd_info_mgmt(MR9500State *s, MRDrive *d, uint8_t *pi);
/*
 * mr9500-ctrl-mgmt.c: CTRL_GET/SET_PROPERTIES, CTRL_EVENT_GET and
 * TIME_SECS_GET, answered as mr9500_cfg_dcmd() answers; and what
 * CTRL_GET_INFO (@ci) says of the hardware, operations and properties.
 */
MR9500CfgAnswer mr9500_ctrl_mgmt_dcmd(MR9500State *s, uint32_t opcode,
                                      uint16_t smid, uint8_t queue,
                                      uint64_t mfi_addr, const uint8_t *f,
                                      uint8_t **buf, uint32_t *len,
                                      uint8_t *status);
void mr9500_ctrl_info_mgmt(MR9500State *s, uint8_t *ci);
/*
 * mr9500-locate.c: PD_LOCATE_START/STOP, answered as mr9500_cfg_dcmd()
 * answers (HELD: through the management protocol).
 */
MR9500CfgAnswer mr9500_locate_dcmd(MR9500State *s, uint32_t opcode,
                                   uint16_t smid, uint8_t queue,
                                   uint64_t mfi_addr, const uint8_t *f,
                                   uint8_t *status);
/* mr9500-bbu.c: the BBU_GET_* DCMDs (CacheVault); false: not one. */
bool mr9500_bbu_dcmd(MR9500State *s, uint32_t opcode, uint8_t **buf,
                     uint32_t *len, uint8_t *status);
/* mr9500-bbu-set.c: BBU_SET_PROPERTIES, BBU_START_LEARN */
bool mr9500_bbu_set_dcmd(MR9500State *s, uint32_t opcode, const uint8_t *f,
                         uint8_t *status);
/* mr9500-ld-props.c: the job progress block of LD info (@li) of @vd. */
void mr9500_ld_progress(MRVirtualDisk *vd, uint8_t *li);

/*
 * mr9500-mgmt.c: the management protocol DCMD in MFI frame @frame.  True
 * with the MFI status to complete it with now; false: it completes later
 * (mr9500_mfi_complete), once its change is on the drives.
 */
bool mr9500_mgmt_dcmd(MR9500State *s, uint16_t smid, uint8_t queue,
                      uint64_t mfi_addr, const uint8_t *frame,
                      uint8_t *status);
/* What the core's management operations ask of megaraid-9500. */
const MRMgmtHostOps *mr9500_mgmt_host_ops(void);

/* mr9500-map.c */
/*
 * LD_MAP_GET_INFO: the map now, or (pend flag) the held map sync.
 * Returns false when the command is held.
 */
bool mr9500_map_dcmd(MR9500State *s, uint16_t smid, uint64_t mfi_addr,
                     const uint8_t *frame, uint8_t *status);
/*
 * The configuration changed (a VD created, deleted, changing state or
 * members), a PD event (mr9500-events.c): mr9500-ld.c's MRArrayOps call
 * this.  The held RAID map sync and JBOD map sync complete with the new
 * maps.
 */
void mr9500_map_changed(MR9500State *s);
/* SYSTEM_PD_MAP_GET_INFO: the JBOD sequence map (false: held). */
bool mr9500_jbod_map_dcmd(MR9500State *s, uint16_t smid, uint64_t mfi_addr,
                          const uint8_t *frame, uint8_t *status);
/* ABORT of @victim: true when it was a held map sync (completed). */
bool mr9500_map_abort(MR9500State *s, uint64_t victim);
void mr9500_map_reset(MR9500State *s);
/* inject-fault, faults-injected */
void mr9500_map_class_init(ObjectClass *oc);

#endif
