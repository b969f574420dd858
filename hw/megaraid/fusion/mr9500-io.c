/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 SCSI I/O and task management.  Owns the
 * per-SMID command slots, the decode of a SCSI frame to its target (JBOD
 * system PDs by the RAID context's PD id; LD I/O to a VD's unit by the
 * RAID context's target id, mr9500-ld.c; fast path frames to a VD
 * member, mr9500-fp.c), the data's SGL (mr9500-sgl.c), the hand-off to
 * the unit's SCSI target, the completion (RAID-context status and
 * ex_status, residual in DataLength, sense into the command's sense
 * buffer, reply descriptor) and MPI2 task management (abort task, abort
 * task set, LUN and target reset) through the shared target's cancel,
 * whose reply waits until every command it ended has posted its own.
 */
#include "qemu/osdep.h"
#include "system/dma.h"
#include "mr9500.h"
#include "trace.h"

#define MR9500_SG_KEEP  32

void mr9500_cmds_init(MR9500State *s)
{
    s->ncmds = 2u * (s->max_cmds - 1) + 1;
    s->cmds = g_new0(MR9500Cmd, s->ncmds);
    for (uint32_t i = 0; i < s->ncmds; i++) {
        s->cmds[i].s = s;
        s->cmds[i].smid = i;
    }
}

void mr9500_cmds_free(MR9500State *s)
{
    for (uint32_t i = 0; s->cmds && i < s->ncmds; i++) {
        if (s->cmds[i].sg.sg) {
            qemu_sglist_destroy(&s->cmds[i].sg);
        }
    }
    g_free(s->cmds);
    s->cmds = NULL;
}

/*
 * Cancel every command in flight; stale ones post nothing (generation),
 * and a TM waiting for them never replies.
 */
void mr9500_cmds_abort_all(MR9500State *s)
{
    s->tm_waiting = 0;
    for (uint32_t i = 0; s->cmds && i < s->ncmds; i++) {
        s->cmds[i].tm_wait = false;
        if (s->cmds[i].active) {
            mr_target_cancel(&s->cmds[i].treq);
        }
    }
}

bool mr9500_cmds_busy(MR9500State *s)
{
    for (uint32_t i = 0; s->cmds && i < s->ncmds; i++) {
        if (s->cmds[i].active) {
            return true;
        }
    }
    return false;
}

static void mr9500_cmd_release(MR9500Cmd *c)
{
    if (c->sg.sg && c->sg.nalloc > MR9500_SG_KEEP) {
        qemu_sglist_destroy(&c->sg);
    }
    c->active = false;
}

/* Write status/ex_status (and the transferred length) into the frame. */
static void mr9500_io_status(MR9500State *s, uint16_t smid, uint8_t status,
                             uint8_t ex_status, const uint32_t *xfer)
{
    uint8_t st[2] = { ex_status, status };
    uint8_t len[4];

    if (xfer) {
        stl_le_p(len, *xfer);
        mr9500_frame_write(s, smid, MPT_DATA_LENGTH, len, sizeof(len));
    }
    mr9500_frame_write(s, smid, MPT_RAIDCTX_EX_STATUS, st, sizeof(st));
}

static void mr9500_io_error(MR9500State *s, uint16_t smid, uint8_t queue,
                            uint8_t status)
{
    trace_megaraid_9500_err_io(smid, status);
    mr9500_io_status(s, smid, status, 0, NULL);
    mr9500_post_reply(s, queue, smid);
}

/* An MFI pass-through SCSI frame finished: SCSI and MFI status, sense. */
static void mr9500_mfi_scsi_done(MR9500State *s, MR9500Cmd *c,
                                 uint8_t status, uint32_t sense_len)
{
    uint8_t cmd_status = status ? MFI_STAT_SCSI_DONE_WITH_ERROR : MFI_STAT_OK;
    uint32_t n = MIN(sense_len, c->sense_max);

    if (status == 0x40) {               /* TASK ABORTED */
        cmd_status = MFI_STAT_SCSI_IO_FAILED;
    }
    if (n && c->sense_addr && mr9500_dma_ok(s, c->sense_addr, n)) {
        pci_dma_write(PCI_DEVICE(s), c->sense_addr, c->treq.sense, n);
    }
    pci_dma_write(PCI_DEVICE(s), c->mfi_addr + MFI_HDR_SCSI_STATUS,
                  &status, 1);
    mr9500_mfi_complete(s, c->smid, c->queue, c->mfi_addr, cmd_status);
}

/* The reply of a SCSI I/O frame: RAID-context status, sense, descriptor. */
static void mr9500_scsi_reply(MR9500State *s, MR9500Cmd *c,
                              MRTargetReq *treq, uint32_t xfer,
                              uint32_t sense_len)
{
    if (treq->status == 0x40) {         /* TASK ABORTED */
        mr9500_io_status(s, c->smid, MFI_STAT_SCSI_IO_FAILED, 0x02, NULL);
    } else if (treq->status == 0 && xfer == c->data_len) {
        mr9500_io_status(s, c->smid, MFI_STAT_OK, 0, NULL);
    } else {
        if (treq->status == 0x02 && sense_len && c->sense_addr &&
            mr9500_dma_ok(s, c->sense_addr, MR_SENSE_MAX)) {
            uint8_t sense[MR_SENSE_MAX] = { 0 };

            memcpy(sense, treq->sense, sense_len);
            pci_dma_write(PCI_DEVICE(s), c->sense_addr, sense, MR_SENSE_MAX);
        }
        mr9500_io_status(s, c->smid, MFI_STAT_SCSI_DONE_WITH_ERROR,
                         treq->status, &xfer);
    }
    mr9500_post_reply(s, c->queue, c->smid);
}

static void mr9500_tm_put(MR9500State *s, uint16_t tm_smid, uint32_t queue);

static void mr9500_scsi_done(MRTargetReq *treq)
{
    MR9500Cmd *c = treq->opaque;
    MR9500State *s = c->s;
    uint32_t xfer = MIN(treq->xfer_count, c->data_len);
    uint32_t sense_len = MIN(treq->sense_len, MR_SENSE_MAX);
    bool stale = c->generation != s->generation;
    uint16_t tm_smid = c->tm_smid;

    trace_megaraid_9500_io_done(c->smid, treq->status, xfer, sense_len);
    mr9500_cmd_release(c);
    c->tm_smid = 0;
    if (stale) {
        return;
    }
    if (c->mfi) {
        mr9500_mfi_scsi_done(s, c, treq->status, sense_len);
    } else {
        mr9500_scsi_reply(s, c, treq, xfer, sense_len);
    }
    if (tm_smid) {
        /* the victim's reply is posted: the TM's follows once consumed */
        mr9500_tm_put(s, tm_smid, c->queue < s->nqueues ? c->queue : 0);
    }
}

/* Reset the slot's SG list for a new request. */
static void mr9500_sg_reset(MR9500State *s, MR9500Cmd *c)
{
    if (c->sg.sg) {
        c->sg.nsg = 0;
        c->sg.size = 0;
    } else {
        qemu_sglist_init(&c->sg, DEVICE(s), 4,
                         pci_get_address_space(PCI_DEVICE(s)));
    }
}

static void mr9500_submit(MR9500State *s, MR9500Cmd *c)
{
    c->active = true;
    c->tm_smid = 0;
    c->generation = s->generation;
    mr_core_submit(&s->core, &c->treq, mr9500_scsi_done, c,
                   qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/*
 * MFI PD_SCSI_IO / LD_SCSI_IO (the ioctl pass-through: smartctl, storcli):
 * a CDB to the drive with PD id target_id, whatever its role, or (LD)
 * to the VD with that LD target id.
 */
void mr9500_mfi_scsi(MR9500State *s, uint16_t smid, uint8_t queue,
                     uint64_t mfi_addr, const uint8_t *f)
{
    MR9500Cmd *c = &s->cmds[smid];
    uint16_t flags = lduw_le_p(f + MFI_HDR_FLAGS);
    uint32_t dlen = ldl_le_p(f + MFI_HDR_XFER_LEN);
    bool ld = f[MFI_HDR_CMD] == MFI_CMD_LD_SCSI_IO;
    MRDrive *d = ld ? NULL : s->pd[f[MFI_HDR_TARGET]];
    uint8_t st = MFI_STAT_DEVICE_NOT_FOUND;
    MRUnit *u = d ? &d->unit : NULL;

    trace_megaraid_9500_mfi_scsi(smid, f[MFI_HDR_CMD], f[MFI_HDR_TARGET],
                                 f[MFI_PASS_CDB], dlen);
    if (ld) {
        /* to a VD by its LD target id (mr9500-ld.c) */
        u = mr9500_ld_unit(s, f[MFI_HDR_TARGET], &st);
    }
    if (!u) {
        mr9500_mfi_complete(s, smid, queue, mfi_addr, st);
        return;
    }
    memset(&c->treq, 0, sizeof(c->treq));
    switch (flags & (MFI_FLAGS_DIR_READ | MFI_FLAGS_DIR_WRITE)) {
    case MFI_FLAGS_DIR_READ:
        c->treq.dir = MR_DIR_FROM_DEVICE;
        break;
    case MFI_FLAGS_DIR_WRITE:
        c->treq.dir = MR_DIR_TO_DEVICE;
        break;
    default:
        c->treq.dir = dlen ? MR_DIR_FROM_DEVICE : MR_DIR_NONE;
        break;
    }
    if (c->treq.dir == MR_DIR_NONE) {
        dlen = 0;
    }
    if (dlen > MR9500_MAX_DATA || f[MFI_HDR_CDB_LEN] > 16) {
        mr9500_mfi_complete(s, smid, queue, mfi_addr,
                            MFI_STAT_INVALID_PARAMETER);
        return;
    }
    if (dlen) {
        mr9500_sg_reset(s, c);
        if (!mr9500_mfi_sgl(s, f, MFI_PASS_SGL, &c->sg, dlen) ||
            c->sg.size < dlen) {
            if (c->sg.size < dlen) {
                trace_megaraid_9500_err_sgl_short(c->sg.size, dlen);
            }
            mr9500_mfi_complete(s, smid, queue, mfi_addr,
                                MFI_STAT_INVALID_PARAMETER);
            return;
        }
        c->treq.sg = &c->sg;
    }
    c->mfi = true;
    c->fp = false;
    c->ld = ld;
    c->mfi_addr = mfi_addr;
    c->sense_max = MIN(f[MFI_HDR_SENSE_LEN], MR_SENSE_MAX);
    c->sense_addr = ldq_le_p(f + MFI_PASS_SENSE_ADDR);
    c->queue = queue;
    c->pd = f[MFI_HDR_TARGET];
    c->data_len = dlen;
    c->treq.unit = u;
    c->treq.lun = f[MFI_HDR_LUN];
    memcpy(c->treq.cdb, f + MFI_PASS_CDB, 16);
    c->treq.cdb_len = 16;
    c->treq.data_len = dlen;
    mr9500_submit(s, c);
}

/* A drive leaves: what it still runs completes as terminated. */
void mr9500_cmds_cancel_pd(MR9500State *s, uint32_t pd)
{
    for (uint32_t i = 1; s->cmds && i < s->ncmds; i++) {
        if (s->cmds[i].active && !s->cmds[i].ld && s->cmds[i].pd == pd) {
            mr_target_cancel(&s->cmds[i].treq);
        }
    }
}

void mr9500_scsi_io(MR9500State *s, uint16_t smid, uint8_t queue,
                    const uint8_t *frame)
{
    MR9500Cmd *c = &s->cmds[smid];
    uint8_t sub = MPT_RAID_FLAGS_SUBTYPE(frame[MPT_RAIDCTX_RAID_FLAGS]);
    uint16_t handle = lduw_le_p(frame + MPT_DEV_HANDLE);
    uint32_t control = ldl_le_p(frame + MPT_CONTROL);
    uint32_t dlen = ldl_le_p(frame + MPT_DATA_LENGTH);
    uint32_t pd;
    MRDrive *d;
    MRUnit *u;
    MRDataDir dir;
    uint8_t st = MFI_STAT_DEVICE_NOT_FOUND;
    bool second = false;

    memset(&c->treq, 0, sizeof(c->treq));
    memcpy(c->treq.cdb, frame + MPT_CDB, 16);
    c->fp = false;
    if (frame[MPT_FUNCTION] == MPT_FUNC_SCSI_IO &&
        sub != MPT_SUBTYPE_SYSTEM_PD) {
        /* fast path: a VD member's device handle and LBA (mr9500-fp.c) */
        u = mr9500_fp_resolve(s, c, frame, &st, &second);
        pd = c->pd;
    } else if (sub != MPT_SUBTYPE_SYSTEM_PD) {
        /* LD I/O: the VD's target id is in the RAID context */
        pd = lduw_le_p(frame + MPT_RAIDCTX_TGT_ID);
        trace_megaraid_9500_io_vd(smid, pd, frame[MPT_CDB]);
        u = mr9500_ld_unit(s, pd, &st);
    } else {
        pd = handle != 0xFFFF ? handle
                              : lduw_le_p(frame + MPT_RAIDCTX_TGT_ID);
        d = mr9500_pd_drive(s, pd);
        trace_megaraid_9500_io(smid, queue, pd, frame[MPT_CDB], dlen,
                               control);
        u = d ? &d->unit : NULL;
    }
    if (!u) {
        mr9500_io_error(s, smid, queue, st);
        return;
    }
    switch (control & (MPT_CONTROL_READ | MPT_CONTROL_WRITE)) {
    case 0:
        dir = MR_DIR_NONE;
        dlen = 0;
        break;
    case MPT_CONTROL_READ:
        dir = MR_DIR_FROM_DEVICE;
        break;
    case MPT_CONTROL_WRITE:
        dir = MR_DIR_TO_DEVICE;
        break;
    default:
        mr9500_io_error(s, smid, queue, MFI_STAT_INVALID_PARAMETER);
        return;
    }
    if (dlen > MR9500_MAX_DATA) {
        mr9500_io_error(s, smid, queue, MFI_STAT_INVALID_PARAMETER);
        return;
    }
    if (dlen) {
        mr9500_sg_reset(s, c);
        if (!mr9500_build_sgl(s, frame, &c->sg, dlen)) {
            mr9500_io_error(s, smid, queue, MFI_STAT_INVALID_PARAMETER);
            return;
        }
        c->treq.sg = &c->sg;
    }
    if (second) {
        /* the first frame of the pair writes both copies */
        mr9500_io_status(s, smid, MFI_STAT_OK, 0, NULL);
        mr9500_post_reply(s, queue, smid);
        return;
    }
    c->mfi = false;
    c->ld = sub != MPT_SUBTYPE_SYSTEM_PD;
    c->queue = queue;
    c->pd = pd;
    c->data_len = dlen;
    c->sense_addr = (uint64_t)s->sense_high << 32 |
                    ldl_le_p(frame + MPT_SENSE_LOW);
    c->treq.unit = u;
    c->treq.lun = frame[MPT_LUN + 1];
    c->treq.cdb_len = 16;
    c->treq.dir = dir;
    c->treq.data_len = dlen;
    mr9500_submit(s, c);
}

/*
 * MPI2 SCSI task management as megaraid_sas sends it (its
 * MR_TASK_MANAGE_REQUEST): the MPI2 request in frame bytes 0x00..0x7F,
 * then a flags word at 0x80 saying whether DevHandle names a JBOD (the
 * JBOD sequence map's device handle, here the PD id) or an LD (its target
 * id).  The reply goes over that flags word (the driver reads it there)
 * before the reply descriptor is posted.
 */
#define TM_LUN                  0x0C
#define TM_FLAGS                0x80
#define TM_FLAG_LD              (1u << 0)
#define TM_FLAG_PD              (1u << 1)
#define TM_TYPE_ABORT_TASK_SET  0x02
#define TM_TYPE_LUN_RESET       0x05
/* reply at TM_FLAGS: MPI2_SCSI_TASK_MANAGE_REPLY */
#define TMR_SIZE                0x1C
#define TMR_MSG_LENGTH          0x02
#define TMR_RESPONSE_CODE       0x04
#define TMR_TASK_TYPE           0x05
#define TMR_IOC_STATUS          0x0E
#define TMR_TERMINATION_COUNT   0x14
#define TM_RSP_COMPLETE         0x00
#define TM_RSP_INVALID_FRAME    0x02
#define TM_RSP_NOT_SUPPORTED    0x04
#define IOCSTATUS_INVALID_FIELD         0x0004
#define IOCSTATUS_INVALID_DEVHANDLE     0x0042

/* Write the TM's reply into its frame and post its descriptor. */
static void mr9500_tm_reply(MR9500State *s, MR9500Cmd *tm, uint16_t ioc_status,
                            uint8_t response)
{
    uint8_t r[TMR_SIZE] = { 0 };

    stw_le_p(r, tm->tm_handle);
    r[TMR_MSG_LENGTH] = TMR_SIZE / 4;
    r[MPT_FUNCTION] = MPT_FUNC_TASK_MGMT;
    r[TMR_RESPONSE_CODE] = response;
    r[TMR_TASK_TYPE] = tm->tm_type;
    stw_le_p(r + TMR_IOC_STATUS, ioc_status);
    stl_le_p(r + TMR_TERMINATION_COUNT, tm->tm_count);
    trace_megaraid_9500_tm_done(tm->smid, tm->tm_count, ioc_status,
                                response);
    mr9500_frame_write(s, tm->smid, TM_FLAGS, r, sizeof(r));
    mr9500_post_reply(s, tm->queue, tm->smid);
}

/*
 * Has the host consumed every reply the TM's victims posted?  The replies
 * it has not consumed on queue q are those from its consumer index up to
 * the producer index; a victim's is among them when fewer replies were
 * posted after it than are unconsumed.
 */
static bool mr9500_tm_victims_consumed(MR9500State *s, MR9500Cmd *tm)
{
    uint32_t depth = s->reply_depth;

    for (uint32_t q = 0; q < s->nqueues; q++) {
        uint32_t pi = s->reply_pi[q];
        uint32_t unconsumed = (pi + depth - s->reply_hi[q]) % depth;
        uint32_t after = (pi + depth - tm->tm_after[q]) % depth;

        if ((tm->tm_queues & 1u << q) && after < unconsumed) {
            return false;
        }
    }
    return true;
}

/*
 * The TM replies once its victims have all completed and the host has
 * consumed their replies: megaraid_sas checks, when the TM completes,
 * that the aborted command is gone, and a reply on another queue whose
 * interrupt it has not handled yet would make the abort look failed.
 */
static void mr9500_tm_try(MR9500State *s, MR9500Cmd *tm)
{
    if (!tm->tm_wait || tm->tm_pending ||
        !mr9500_tm_victims_consumed(s, tm)) {
        return;
    }
    tm->tm_wait = false;
    s->tm_waiting--;
    mr9500_tm_reply(s, tm, 0, TM_RSP_COMPLETE);
}

/* One command the TM ended has posted its reply on @queue (or none). */
static void mr9500_tm_put(MR9500State *s, uint16_t tm_smid, uint32_t queue)
{
    MR9500Cmd *tm = &s->cmds[tm_smid];

    if (!tm->tm_wait) {
        return;
    }
    if (queue < s->nqueues) {
        tm->tm_queues |= 1u << queue;
        tm->tm_after[queue] = s->reply_pi[queue];
    }
    tm->tm_pending--;
    mr9500_tm_try(s, tm);
}

void mr9500_tm_consumed(MR9500State *s)
{
    for (uint32_t i = 1; s->tm_waiting && i < s->ncmds; i++) {
        mr9500_tm_try(s, &s->cmds[i]);
    }
}

/* @c is in flight to the device a TM names, and no other TM ends it. */
static bool mr9500_tm_victim(MR9500State *s, MR9500Cmd *c, bool ld,
                             uint16_t handle)
{
    return c->active && c->ld == ld && c->pd == handle && !c->tm_smid &&
           c->generation == s->generation;
}

/* Cancel @c on behalf of the TM @tm (its reply waits for @c's). */
static void mr9500_tm_cancel(MR9500Cmd *tm, MR9500Cmd *c)
{
    c->tm_smid = tm->smid;
    tm->tm_pending++;
    tm->tm_count++;
    mr_target_cancel(&c->treq);
}

void mr9500_task_mgmt(MR9500State *s, uint16_t smid, uint8_t queue,
                      const uint8_t *frame)
{
    MR9500Cmd *tm = &s->cmds[smid];
    uint8_t type = frame[MPT_TM_TYPE];
    uint16_t mid = lduw_le_p(frame + MPT_TM_TASK_MID);
    uint16_t handle = lduw_le_p(frame + MPT_DEV_HANDLE);
    uint32_t flags = ldl_le_p(frame + TM_FLAGS);
    uint8_t lun = frame[TM_LUN + 1];
    bool ld = flags & TM_FLAG_LD;
    MR9500Cmd *c;

    trace_megaraid_9500_tm(smid, type, handle, mid);
    tm->queue = queue;
    tm->tm_type = type;
    tm->tm_handle = handle;
    tm->tm_count = 0;
    if (!(flags & TM_FLAG_PD) == !ld) {
        /* neither or both kinds: the frame does not say what DevHandle is */
        mr9500_tm_reply(s, tm, IOCSTATUS_INVALID_FIELD, TM_RSP_INVALID_FRAME);
        return;
    }
    if (ld ? !mr9500_ld_vd(s, handle) : !(handle < MR9500_MAX_PDS &&
                                          s->pd[handle])) {
        /*
         * No such device: the IOC's answer to a TM for an unknown handle
         * is IOCStatus SCSI_INVALID_DEVHANDLE (as MPI 2.5 IOCs answer).
         */
        mr9500_tm_reply(s, tm, IOCSTATUS_INVALID_DEVHANDLE,
                        TM_RSP_INVALID_FRAME);
        return;
    }
    if (!ld && !mr9500_pd_drive(s, handle)) {
        /*
         * A VD member or spare: present, but not exposed and not
         * TM-capable (its JBOD map entry has no handle, TM bit clear); the
         * firmware declines it with response TM NOT SUPPORTED and ends
         * nothing (the member's I/O belongs to its VD).
         */
        mr9500_tm_reply(s, tm, 0, TM_RSP_NOT_SUPPORTED);
        return;
    }
    switch (type) {
    case MPT_TM_ABORT_TASK:
        if (mid == 0 || mid > s->max_smid || mid >= s->ncmds) {
            /*
             * TaskMID outside the request pool names no task the IOC
             * could hold: a malformed frame (IOCStatus INVALID_FIELD).
             */
            mr9500_tm_reply(s, tm, IOCSTATUS_INVALID_FIELD,
                            TM_RSP_INVALID_FRAME);
            return;
        }
        break;
    case TM_TYPE_ABORT_TASK_SET:
    case TM_TYPE_LUN_RESET:
    case MPT_TM_TARGET_RESET:
        break;
    default:
        /* QUERY TASK, CLEAR ACA, ...: not offered */
        mr9500_tm_reply(s, tm, 0, TM_RSP_NOT_SUPPORTED);
        return;
    }
    tm->tm_wait = true;
    s->tm_waiting++;
    tm->tm_queues = 0;
    tm->tm_pending = 1;             /* this TM itself, dropped below */
    if (type == MPT_TM_ABORT_TASK) {
        c = &s->cmds[mid];
        /*
         * Only a SCSI I/O to this device; a task that already completed
         * (or is not this device's) is not found: TM COMPLETE with a
         * TerminationCount of 0, as MPI firmware answers.
         */
        if (!c->mfi && mr9500_tm_victim(s, c, ld, handle)) {
            mr9500_tm_cancel(tm, c);
        }
    } else {
        for (uint32_t i = 1; i < s->ncmds; i++) {
            c = &s->cmds[i];
            if (mr9500_tm_victim(s, c, ld, handle) &&
                (type == MPT_TM_TARGET_RESET || c->treq.lun == lun)) {
                mr9500_tm_cancel(tm, c);
            }
        }
    }
    mr9500_tm_put(s, smid, UINT32_MAX);
}
