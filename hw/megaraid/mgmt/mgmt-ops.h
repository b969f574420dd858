/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management protocol's operations, host-neutral
 * (include/hw/megaraid/mgmt-proto.h, docs/management-protocol.md).
 *
 * A host interface (the MPI3 MGMT PASSTHROUGH of megaraid-9600 in
 * mr9600-mgmt.c, later the Fusion personality's DCMD path) copies a
 * request out of guest memory, calls mr_mgmt_execute() and copies the
 * reply back.  The operations act on the controller's MRArray and its
 * drive bus only; what the host must do itself (withdraw a VD from its
 * driver before it is deleted) comes back through MRMgmtHostOps.
 *
 * mgmt-ops.c: envelope, dispatch, controller info and properties,
 * CacheVault; mgmt-ops-query.c: drive, drive group, VD and job views;
 * mgmt-ops-config.c: configuration changes and jobs; mgmt-ops-evlog.c:
 * the event log.
 */
#ifndef HW_MEGARAID_MGMT_OPS_H
#define HW_MEGARAID_MGMT_OPS_H

#include "hw/megaraid/mgmt-proto.h"
#include "hw/megaraid/fw-core.h"
#include "hw/megaraid/array/array.h"

typedef struct MREvLog MREvLog;
typedef struct MgmtCtx MgmtCtx;

struct MRMgmt {
    MRArray *array;
    BusState *bus;              /* the drive bays (MRDrive children) */
    const MRMgmtHostOps *ops;
    void *opaque;
    /* what CTRL_GET_INFO reports */
    const char *serial;
    char fw_version[32];
    /*
     * Set by a handler whose work waits in mr_cfg_later(): fills the
     * reply's data again (the request's mailbox in @c) once that work is
     * done, so mr_mgmt_execute_async() answers with the state after it.
     */
    void (*refill)(MgmtCtx *c);
};

void mr_mgmt_init(MRMgmt *m, MRArray *a, BusState *bus,
                  const MRMgmtHostOps *ops, void *opaque);

/*
 * Run the request in @cmd (@cmd_len bytes: the command buffer as far as
 * the host gave it) and write the reply (MgmtReply and its data) into
 * @resp, at most @resp_cap bytes (>= sizeof(MgmtReply)).  Returns the
 * reply's length.  Never fails: a malformed request gets an error status.
 */
size_t mr_mgmt_execute(MRMgmt *m, const uint8_t *cmd, size_t cmd_len,
                       uint8_t *resp, size_t resp_cap);
/*
 * The same, answering through @done (the reply's length; @resp must live
 * until then): at once, or, when the request changed the configuration,
 * once the metadata recording the change is on the drives, with
 * MGMT_STAT_IO_ERROR if a drive refused it (docs/management-protocol.md).
 * The main loop goes on meanwhile.  @done may come from the metadata
 * writer after the host interface was reset: it checks that itself.
 */
void mr_mgmt_execute_async(MRMgmt *m, const uint8_t *cmd, size_t cmd_len,
                           uint8_t *resp, size_t resp_cap, MRMgmtDone *done,
                           void *opaque);

/* ---- for the mgmt-ops*.c files ---- */

struct MgmtCtx {
    MRMgmt *m;
    MRArray *a;
    uint32_t opcode;
    uint32_t mbox[4];
    const uint8_t *data;        /* data-out */
    uint32_t data_len;
    uint8_t *out;               /* reply data */
    size_t out_cap;
    size_t out_len;             /* bytes of reply data written */
    uint16_t err_offset;
    uint32_t err_value;
};

/* Offsets of request fields, for MgmtReply.err_offset. */
#define MGMT_OFF_MBOX(i)        (24 + 4 * (i))
#define MGMT_OFF_DATA(off)      ((uint16_t)(sizeof(MgmtRequest) + (off)))

/* An error status naming the field at @offset and its value. */
uint8_t mgmt_refuse(MgmtCtx *c, uint8_t status, uint16_t offset,
                    uint32_t value);
/* A mailbox word out of range. */
uint8_t mgmt_bad_mbox(MgmtCtx *c, int i);
/* Room for @len bytes of reply data, else RESP_TOO_SMALL. */
uint8_t mgmt_need(MgmtCtx *c, size_t len);

/* @src into @dst, NUL padded, cut to @len - 1 bytes. */
void mgmt_strpad(char *dst, size_t len, const char *src);
/* The drive in bay @encl_slot (slot | enclosure << 16), or NULL. */
MRDrive *mgmt_drive(MgmtCtx *c, uint32_t encl_slot);
/* The run-time VD @idx, or NULL. */
MRVirtualDisk *mgmt_vd(MgmtCtx *c, uint32_t idx);
/* A drive's state as the protocol names it (MGMT_PD_*). */
uint8_t mgmt_pd_state(MRArray *a, MRDrive *d);
uint8_t mgmt_level(RaidLevel l);
uint8_t mgmt_job_kind(const RaidVd *v);
void mgmt_fill_job(MRVirtualDisk *vd, MgmtJobStatus *js);
void mgmt_fill_pd_entry(MRArray *a, MRDrive *d, MgmtPdEntry *e);
void mgmt_fill_vd_entry(MRVirtualDisk *vd, MgmtVdEntry *e);
/* What @cfg itself says of its VD @idx and drive group @g. */
void mgmt_fill_vd_conf(const RaidConfig *cfg, int idx, MgmtVdEntry *e);
void mgmt_fill_dg_entry(const RaidConfig *cfg, int g, MgmtDgEntry *e);
/* Drives of the bus in (enclosure, slot) order; g_ptr_array_unref. */
GPtrArray *mgmt_drives(MgmtCtx *c);
/*
 * A list reply: fill @first.. of @total entries of @entry_len bytes with
 * @fill (index, entry buffer); mbox[0] first, mbox[1] max.
 */
uint8_t mgmt_list(MgmtCtx *c, uint32_t total, uint16_t entry_len,
                  void (*fill)(MgmtCtx *c, uint32_t index, void *entry,
                               void *opaque),
                  void *opaque);

/* Handlers (status MGMT_STAT_*). */
uint8_t mgmt_op_pd_list(MgmtCtx *c);
uint8_t mgmt_op_pd_info(MgmtCtx *c);
uint8_t mgmt_op_dg_list(MgmtCtx *c);
uint8_t mgmt_op_vd_list(MgmtCtx *c);
uint8_t mgmt_op_vd_info(MgmtCtx *c);
uint8_t mgmt_op_job_status(MgmtCtx *c);
uint8_t mgmt_op_foreign_show(MgmtCtx *c);
uint8_t mgmt_op_foreign_config(MgmtCtx *c);
uint8_t mgmt_op_pd_set_state(MgmtCtx *c);
uint8_t mgmt_op_spare_add(MgmtCtx *c);
uint8_t mgmt_op_spare_remove(MgmtCtx *c);
uint8_t mgmt_op_vd_create(MgmtCtx *c);
uint8_t mgmt_op_vd_delete(MgmtCtx *c);
uint8_t mgmt_op_job_control(MgmtCtx *c);
uint8_t mgmt_op_foreign_import(MgmtCtx *c);
uint8_t mgmt_op_foreign_clear(MgmtCtx *c);
uint8_t mgmt_op_evlog_info(MgmtCtx *c);
uint8_t mgmt_op_evlog_read(MgmtCtx *c);
uint8_t mgmt_op_vd_set_props(MgmtCtx *c);     /* mgmt-ops-vdprops.c */
/* mgmt-ops-patrol.c; the props' patrol_read: 1 unless mode off */
uint8_t mgmt_patrol_on(MRArray *a);
void mgmt_patrol_set_on(MRArray *a, bool on);
uint8_t mgmt_op_patrol_control(MgmtCtx *c);
uint8_t mgmt_op_patrol_status(MgmtCtx *c);
/* mgmt-ops-locate.c: the locate LED of @d on (@secs: 0 until stopped) */
void mgmt_pd_locate(MRArray *a, MRDrive *d, bool on, uint32_t secs);
uint8_t mgmt_op_pd_locate(MgmtCtx *c);
/* mgmt-ops-copyback.c: JOB_CONTROL of MGMT_JOB_COPYBACK */
uint8_t mgmt_copyback_control(MgmtCtx *c);

#endif
