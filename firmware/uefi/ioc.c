/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the MPI 3.0 IOC as a boot driver uses it.
 * Polled, one request at a time: the IOC brought from RESET, READY or
 * FAULT to operational (IOC FACTS, IOC INIT, one operational queue pair,
 * PORT ENABLE) with the waits the IOC reports, discovery of the exposed
 * devices through Device Page 0, SCSI IO through a bounce buffer, and the
 * message unit reset that hands the IOC back to the OS driver in RESET.
 * Every ring, reply frame and sense buffer lives in the driver's one DMA
 * area (driver.c).
 */
#include "mr-efi.h"

/* Ring sizes (entries); the admin reply ring also takes events. */
#define MR_AREQ_N           8
#define MR_AREP_N           16
#define MR_OREQ_N           8
#define MR_OREP_N           16
#define MR_RFREE_N          17          /* reply frames: one slot kept free */
#define MR_SFREE_N          9           /* sense buffers */
#define MR_REPLY_FRAME      128

/* Layout of the DMA area (bytes from its start). */
#define OFF_AREQ        0x0000
#define OFF_AREP        (OFF_AREQ + MR_AREQ_N * MPI3_REQUEST_FRAME_SIZE)
#define OFF_OREQ        (OFF_AREP + MR_AREP_N * MPI3_REPLY_DESCRIPTOR_SIZE)
#define OFF_OREP        (OFF_OREQ + MR_OREQ_N * MPI3_REQUEST_FRAME_SIZE)
#define OFF_RFREE       (OFF_OREP + MR_OREP_N * MPI3_REPLY_DESCRIPTOR_SIZE)
#define OFF_SFREE       (OFF_RFREE + MR_RFREE_N * 8)
#define OFF_SCRATCH     0x0C00              /* FACTS data, config pages */
#define OFF_FRAMES      0x1000
#define OFF_SENSE       0x2000
#define OFF_BOUNCE      0x3000
#define DMA_BYTES       (OFF_BOUNCE + MR_MAX_XFER)

_Static_assert(OFF_SFREE + MR_SFREE_N * 8 <= OFF_SCRATCH, "rings overlap");
_Static_assert(OFF_FRAMES + MR_RFREE_N * MR_REPLY_FRAME <= OFF_SENSE,
               "reply frames overlap");
_Static_assert(OFF_SENSE + MR_SFREE_N * MR_SENSE_LEN <= OFF_BOUNCE,
               "sense buffers overlap");

#define ADMIN_REQ_PI    MPI3_REG_DOORBELL_BASE
#define ADMIN_REP_CI    (MPI3_REG_DOORBELL_BASE + 4)
#define OP_REQ_PI       (MPI3_REG_DOORBELL_BASE + 8)    /* queue 1 */
#define OP_REP_CI       (MPI3_REG_DOORBELL_BASE + 12)

#define WHO_INIT_ROM_BIOS   0x02
#define POLL_US             10

typedef struct {
    UINT16 type;                /* MPI3_REPLY_DESCRIPT_FLAGS_TYPE_* */
    UINT16 tag;
    UINT16 ioc_status;
    UINT8 frame[MR_REPLY_FRAME];    /* ADDRESS replies */
} MR_REPLY;

/* Wait until (IOC status & mask) == want, or FAULT; microseconds. */
static EFI_STATUS wait_status(MR_CTRL *c, UINT32 mask, UINT32 want,
                              UINT64 us)
{
    for (UINT64 t = 0;; t += 1000) {
        UINT32 st = mr_rd32(c, MPI3_REG_IOC_STATUS);

        if ((st & mask) == want) {
            return EFI_SUCCESS;
        }
        if ((st & MPI3_IOC_STATUS_FAULT) && !(mask & MPI3_IOC_STATUS_FAULT)) {
            return EFI_DEVICE_ERROR;
        }
        if (st == 0xFFFFFFFF || t >= us) {
            return EFI_TIMEOUT;
        }
        BS->Stall(1000);
    }
}

/* Out of FAULT: the diagnostic soft reset. */
static EFI_STATUS soft_reset(MR_CTRL *c)
{
    mr_diag_unlock(c, MPI3_REG_WRITE_SEQUENCE);
    mr_wr32(c, MPI3_REG_HOST_DIAG, mr_rd32(c, MPI3_REG_HOST_DIAG) |
         MPI3_HOST_DIAG_ACTION_SOFT_RESET << MPI3_HOST_DIAG_RESET_ACTION_SHIFT);
    mr_wr32(c, MPI3_REG_WRITE_SEQUENCE, 0x4);      /* lock again */
    return wait_status(c, MPI3_IOC_STATUS_FAULT | MPI3_IOC_STATUS_READY, 0,
                       mr_ready_us(c));
}

/* The message unit reset: the IOC back in RESET, rings forgotten. */
static void mpi3_reset(MR_CTRL *c)
{
    UINT32 cfg = mr_rd32(c, MPI3_REG_IOC_CONFIG);

    c->up = FALSE;
    if (cfg & MPI3_IOC_CONFIG_ENABLE_IOC) {
        mr_wr32(c, MPI3_REG_IOC_CONFIG, cfg & ~MPI3_IOC_CONFIG_ENABLE_IOC);
        wait_status(c, MPI3_IOC_STATUS_READY, 0, mr_ready_us(c));
    }
}

/* ---- admin and operational rings ---- */

static void put_sge(UINT8 *p, UINT64 addr, UINT32 len)
{
    MPI3SGE *sge = (MPI3SGE *)p;

    sge->address = addr;
    sge->length = len;
    sge->flags = MPI3_SGE_FLAGS_TYPE_SIMPLE | MPI3_SGE_FLAGS_END_OF_LIST;
}

static void return_frame(MR_CTRL *c, UINT64 addr)
{
    ((UINT64 *)mr_dma(c, OFF_RFREE))[c->rfree_host] = addr;
    c->rfree_host = (c->rfree_host + 1) % MR_RFREE_N;
    mr_barrier();
    mr_wr32(c, MPI3_REG_REPLY_FREE_HOST_INDEX, c->rfree_host);
}

static void return_sense(MR_CTRL *c, UINT64 addr)
{
    ((UINT64 *)mr_dma(c, OFF_SFREE))[c->sfree_host] = addr;
    c->sfree_host = (c->sfree_host + 1) % MR_SFREE_N;
    mr_barrier();
    mr_wr32(c, MPI3_REG_SENSE_FREE_HOST_INDEX, c->sfree_host);
}

/* The next reply of a ring, if its phase says it is there. */
static BOOLEAN take_reply(MR_CTRL *c, UINTN ring, UINT32 n, UINT32 *ci,
                          BOOLEAN *phase, UINT32 ci_reg, MR_REPLY *r)
{
    /* volatile: the IOC writes the descriptor while this polls it */
    volatile MPI3ReplyDescriptor *d =   /* (polled: see above) */
        (volatile MPI3ReplyDescriptor *)mr_dma(c, ring) + *ci; /* (polled) */
    UINT16 flags = d->reply_flags;
    UINT64 frame;

    if ((flags & MPI3_REPLY_DESCRIPT_FLAGS_PHASE) != (*phase ? 1 : 0)) {
        return FALSE;
    }
    mr_barrier();
    r->type = flags & MPI3_REPLY_DESCRIPT_FLAGS_TYPE_MASK;
    r->tag = d->host_tag;
    r->ioc_status = 0;
    if (r->type == MPI3_REPLY_DESCRIPT_FLAGS_TYPE_STATUS) {
        r->ioc_status = d->status.ioc_status & 0x7FFF;
    } else if (r->type == MPI3_REPLY_DESCRIPT_FLAGS_TYPE_ADDRESS) {
        frame = d->reply_frame_address;
        if (frame >= mr_bus(c, OFF_FRAMES) &&
            frame + MR_REPLY_FRAME <= mr_bus(c, OFF_FRAMES) +
                                      MR_RFREE_N * MR_REPLY_FRAME) {
            CopyMem(r->frame, mr_dma(c, frame - c->dma_dev), MR_REPLY_FRAME);
            r->tag = ((MPI3DefaultReply *)r->frame)->host_tag;
            r->ioc_status = ((MPI3DefaultReply *)r->frame)->ioc_status &
                            0x7FFF;
            return_frame(c, frame);
        } else {
            /* not one of ours: count it as a failed request */
            r->ioc_status = MPI3_IOCSTATUS_INTERNAL_ERROR;
        }
    }
    *ci = (*ci + 1) % n;
    if (*ci == 0) {
        *phase = !*phase;
    }
    mr_wr32(c, ci_reg, *ci);
    return TRUE;
}

/* Wait for the reply with @tag on the admin (op = FALSE) or op ring. */
static EFI_STATUS wait_reply(MR_CTRL *c, BOOLEAN op, UINT16 tag,
                             MR_REPLY *r, UINT64 us)
{
    for (UINT64 t = 0;; t += POLL_US) {
        BOOLEAN got = op ? take_reply(c, OFF_OREP, MR_OREP_N, &c->orep_ci,
                                      &c->orep_phase, OP_REP_CI, r)
                         : take_reply(c, OFF_AREP, MR_AREP_N, &c->arep_ci,
                                      &c->arep_phase, ADMIN_REP_CI, r);

        if (got && r->tag == tag) {
            return EFI_SUCCESS;
        }
        if (got) {
            continue;           /* an event, or a late reply: dropped */
        }
        if (mr_rd32(c, MPI3_REG_IOC_STATUS) & MPI3_IOC_STATUS_FAULT) {
            return EFI_DEVICE_ERROR;
        }
        if (us && t >= us) {
            return EFI_TIMEOUT;
        }
        BS->Stall(POLL_US);
    }
}

static UINT16 new_tag(MR_CTRL *c)
{
    c->next_tag = c->next_tag >= 0x7FFF ? 1 : c->next_tag + 1;
    return c->next_tag;
}

/* Post an admin frame and wait for its reply; its IOC status in @r. */
static EFI_STATUS admin(MR_CTRL *c, VOID *frame, UINTN len, MR_REPLY *r,
                        UINT64 us)
{
    UINT8 *slot = mr_dma(c, OFF_AREQ + c->areq_pi * MPI3_REQUEST_FRAME_SIZE);
    UINT16 tag = new_tag(c);

    ((MPI3RequestHeader *)frame)->host_tag = tag;
    ZeroMem(slot, MPI3_REQUEST_FRAME_SIZE);
    CopyMem(slot, frame, len);
    c->areq_pi = (c->areq_pi + 1) % MR_AREQ_N;
    mr_barrier();
    mr_wr32(c, ADMIN_REQ_PI, c->areq_pi);
    return wait_reply(c, FALSE, tag, r, us);
}

static EFI_STATUS admin_ok(MR_CTRL *c, VOID *frame, UINTN len, UINT64 us)
{
    MR_REPLY r;
    EFI_STATUS st = admin(c, frame, len, &r, us);

    if (!EFI_ERROR(st) && r.ioc_status != MPI3_IOCSTATUS_SUCCESS) {
        st = EFI_DEVICE_ERROR;
    }
    return st;
}

/* ---- bring-up ---- */

static EFI_STATUS enable_admin(MR_CTRL *c)
{
    UINT32 cfg;

    c->areq_pi = c->arep_ci = 0;
    c->arep_phase = TRUE;
    ZeroMem(mr_dma(c, OFF_AREP), MR_AREP_N * MPI3_REPLY_DESCRIPTOR_SIZE);
    mr_wr32(c, MPI3_REG_ADMIN_Q_NUM_ENTRIES, MR_AREP_N << 16 | MR_AREQ_N);
    mr_wr32(c, MPI3_REG_ADMIN_REQ_Q_ADDR_LO, (UINT32)mr_bus(c, OFF_AREQ));
    mr_wr32(c, MPI3_REG_ADMIN_REQ_Q_ADDR_HI,
            (UINT32)(mr_bus(c, OFF_AREQ) >> 32));
    mr_wr32(c, MPI3_REG_ADMIN_REPLY_Q_ADDR_LO, (UINT32)mr_bus(c, OFF_AREP));
    mr_wr32(c, MPI3_REG_ADMIN_REPLY_Q_ADDR_HI,
         (UINT32)(mr_bus(c, OFF_AREP) >> 32));
    cfg = mr_rd32(c, MPI3_REG_IOC_CONFIG);
    mr_wr32(c, MPI3_REG_IOC_CONFIG, cfg | MPI3_IOC_CONFIG_ENABLE_IOC);
    return wait_status(c, MPI3_IOC_STATUS_READY, MPI3_IOC_STATUS_READY,
                       mr_ready_us(c));
}

static EFI_STATUS ioc_facts(MR_CTRL *c)
{
    MPI3IOCFactsRequest f;
    MPI3IOCFactsData *d = (MPI3IOCFactsData *)mr_dma(c, OFF_SCRATCH);
    EFI_STATUS st;
    UINT32 max;

    ZeroMem(&f, sizeof(f));
    ZeroMem(d, sizeof(*d));
    f.hdr.function = MPI3_FUNCTION_IOC_FACTS;
    put_sge((UINT8 *)&f.sgl, mr_bus(c, OFF_SCRATCH), sizeof(*d));
    st = admin_ok(c, &f, sizeof(f), mr_ready_us(c));
    if (EFI_ERROR(st)) {
        return st;
    }
    max = d->max_data_length ? (UINT32)d->max_data_length * 4096 : 65536;
    c->max_xfer = max < MR_MAX_XFER ? max : MR_MAX_XFER;
    return EFI_SUCCESS;
}

static EFI_STATUS ioc_init(MR_CTRL *c)
{
    MPI3IOCInitRequest f;
    UINT64 *rfree = (UINT64 *)mr_dma(c, OFF_RFREE);
    UINT64 *sfree = (UINT64 *)mr_dma(c, OFF_SFREE);
    EFI_STATUS st;

    for (UINT32 i = 0; i < MR_RFREE_N - 1; i++) {
        rfree[i] = mr_bus(c, OFF_FRAMES + i * MR_REPLY_FRAME);
    }
    for (UINT32 i = 0; i < MR_SFREE_N - 1; i++) {
        sfree[i] = mr_bus(c, OFF_SENSE + i * MR_SENSE_LEN);
    }
    ZeroMem(&f, sizeof(f));
    f.hdr.function = MPI3_FUNCTION_IOC_INIT;
    f.mpi_version = mr_rd32(c, MPI3_REG_VERSION);
    f.who_init = WHO_INIT_ROM_BIOS;
    f.reply_free_queue_depth = MR_RFREE_N;
    f.reply_free_queue_address = mr_bus(c, OFF_RFREE);
    f.sense_buffer_free_queue_depth = MR_SFREE_N;
    f.sense_buffer_length = MR_SENSE_LEN;
    f.sense_buffer_free_queue_address = mr_bus(c, OFF_SFREE);
    st = admin_ok(c, &f, sizeof(f), mr_ready_us(c));
    if (EFI_ERROR(st)) {
        return st;
    }
    c->rfree_host = MR_RFREE_N - 1;
    c->sfree_host = MR_SFREE_N - 1;
    mr_wr32(c, MPI3_REG_REPLY_FREE_HOST_INDEX, c->rfree_host);
    mr_wr32(c, MPI3_REG_SENSE_FREE_HOST_INDEX, c->sfree_host);
    return EFI_SUCCESS;
}

static EFI_STATUS create_queue(MR_CTRL *c, BOOLEAN reply)
{
    MPI3CreateQueueRequest f;

    ZeroMem(&f, sizeof(f));
    f.hdr.function = reply ? MPI3_FUNCTION_CREATE_REPLY_QUEUE
                           : MPI3_FUNCTION_CREATE_REQUEST_QUEUE;
    f.size = reply ? MR_OREP_N : MR_OREQ_N;
    f.queue_id = 1;
    /* a reply queue without interrupts on vector 0; requests reply to 1 */
    f.reply_queue_id_or_msix = reply ? 0 : 1;
    f.base_address = mr_bus(c, reply ? OFF_OREP : OFF_OREQ);
    return admin_ok(c, &f, sizeof(f), mr_ready_us(c));
}

static EFI_STATUS port_enable(MR_CTRL *c)
{
    MPI3RequestHeader f;

    ZeroMem(&f, sizeof(f));
    f.function = MPI3_FUNCTION_PORT_ENABLE;
    /* discovery of a full topology: the driver allows minutes */
    return admin_ok(c, &f, sizeof(f), 300ULL * 1000000);
}

static EFI_STATUS mpi3_start(MR_CTRL *c)
{
    UINT32 st = mr_rd32(c, MPI3_REG_IOC_STATUS);
    EFI_STATUS rc;

    c->timeout_s = (mr_rd32(c, MPI3_REG_IOC_INFO_LO) >>
                    MPI3_IOC_INFO_TIMEOUT_SHIFT) * 2;
    if (c->timeout_s < 10) {
        c->timeout_s = 10;
    }
    if (st == 0xFFFFFFFF) {
        return EFI_DEVICE_ERROR;
    }
    if (st & MPI3_IOC_STATUS_FAULT) {
        rc = soft_reset(c);
        if (EFI_ERROR(rc)) {
            return rc;
        }
    } else {
        mpi3_reset(c);
    }
    mr_wr32(c, MPI3_REG_IOC_STATUS, MPI3_IOC_STATUS_RESET_HISTORY);
    rc = enable_admin(c);
    if (!EFI_ERROR(rc)) {
        rc = ioc_facts(c);
    }
    if (!EFI_ERROR(rc)) {
        rc = ioc_init(c);
    }
    c->oreq_pi = c->orep_ci = 0;
    c->orep_phase = TRUE;
    ZeroMem(mr_dma(c, OFF_OREP), MR_OREP_N * MPI3_REPLY_DESCRIPTOR_SIZE);
    if (!EFI_ERROR(rc)) {
        rc = create_queue(c, TRUE);
    }
    if (!EFI_ERROR(rc)) {
        rc = create_queue(c, FALSE);
    }
    if (!EFI_ERROR(rc)) {
        rc = port_enable(c);
    }
    if (EFI_ERROR(rc)) {
        mpi3_reset(c);
        return rc;
    }
    c->up = TRUE;
    return EFI_SUCCESS;
}

/* ---- discovery ---- */

static EFI_STATUS device_page0(MR_CTRL *c, UINT32 page_address,
                               MPI3DevicePage0 *pg, UINT16 *ioc_status)
{
    MPI3ConfigRequest f;
    MR_REPLY r;
    EFI_STATUS st;

    ZeroMem(&f, sizeof(f));
    ZeroMem(mr_dma(c, OFF_SCRATCH), sizeof(*pg));
    f.hdr.function = MPI3_FUNCTION_CONFIG;
    f.page_type = MPI3_CONFIG_PAGETYPE_DEVICE;
    f.page_number = 0;
    f.action = MPI3_CONFIG_ACTION_READ_CURRENT;
    f.page_address = page_address;
    f.page_length = sizeof(*pg) / 4;
    put_sge((UINT8 *)&f.sgl, mr_bus(c, OFF_SCRATCH), sizeof(*pg));
    st = admin(c, &f, sizeof(f), &r, mr_ready_us(c));
    if (EFI_ERROR(st)) {
        return st;
    }
    *ioc_status = r.ioc_status;
    CopyMem(pg, mr_dma(c, OFF_SCRATCH), sizeof(*pg));
    return EFI_SUCCESS;
}

static BOOLEAN offered(const MPI3DevicePage0 *pg)
{
    if (pg->access_status != 0 ||
        (pg->flags & MPI3_DEVICE0_FLAGS_HIDDEN) ||
        !(pg->flags & MPI3_DEVICE0_FLAGS_DEVICE_PRESENT)) {
        return FALSE;
    }
    switch (pg->device_form) {
    case MPI3_DEVICE_DEVFORM_VD:
        /* an offline VD is not offered */
        return pg->device_specific.vd.vd_state !=
               MPI3_DEVICE0_VD_STATE_OFFLINE;
    case MPI3_DEVICE_DEVFORM_PCIE:
    case MPI3_DEVICE_DEVFORM_SAS_SATA:
        return TRUE;
    default:
        return FALSE;
    }
}

static EFI_STATUS mpi3_discover(MR_CTRL *c)
{
    MPI3DevicePage0 pg;
    UINT16 handle = 0xFFFF, ios;
    EFI_STATUS st;

    c->ntargets = 0;
    for (UINT32 guard = 0; guard < 1024; guard++) {
        st = device_page0(c, MPI3_DEVICE_PGAD_FORM_GET_NEXT | handle, &pg,
                          &ios);
        if (EFI_ERROR(st)) {
            return st;
        }
        if (ios != MPI3_IOCSTATUS_SUCCESS ||
            (handle != 0xFFFF && pg.dev_handle <= handle)) {
            break;              /* past the last device */
        }
        handle = pg.dev_handle;
        if (offered(&pg) && c->ntargets < MR_MAX_TARGETS) {
            MR_TARGET *t = &c->targets[c->ntargets++];

            t->handle = pg.dev_handle;
            t->vd = pg.device_form == MPI3_DEVICE_DEVFORM_VD;
            t->vd_state = t->vd ? pg.device_specific.vd.vd_state & 3 : 0;
            t->raid_level = t->vd ? pg.device_specific.vd.raid_level : 0;
        }
    }
    return EFI_SUCCESS;
}

/* ---- SCSI IO ---- */

static EFI_STATUS mpi3_scsi(MR_CTRL *c, const MR_TARGET *t,
                       EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *pkt,
                       UINT32 len, MR_SCSI_RESULT *res, UINT64 timeout_us)
{
    MPI3SCSIIORequest *f;
    MPI3SCSIIOReply *rep;
    MR_REPLY r;
    UINT16 tag = new_tag(c);
    EFI_STATUS st;

    f = (MPI3SCSIIORequest *)mr_dma(c, OFF_OREQ +
                                  c->oreq_pi * MPI3_REQUEST_FRAME_SIZE);
    ZeroMem(f, sizeof(*f));
    f->hdr.host_tag = tag;
    f->hdr.function = MPI3_FUNCTION_SCSI_IO;
    f->hdr.function_dependent = t->handle;
    if (len == 0) {
        f->flags = MPI3_SCSIIO_FLAGS_DATADIRECTION_NONE;
    } else if (pkt->DataDirection == EFI_EXT_SCSI_DATA_DIRECTION_WRITE) {
        f->flags = MPI3_SCSIIO_FLAGS_DATADIRECTION_WRITE;
    } else {
        f->flags = MPI3_SCSIIO_FLAGS_DATADIRECTION_READ;
    }
    if (pkt->CdbLength > 16) {
        f->flags |= MPI3_SCSIIO_FLAGS_CDB_GREATER_THAN_16;
    }
    f->data_length = len;
    CopyMem(f->cdb, pkt->Cdb, pkt->CdbLength);
    if (len) {
        put_sge((UINT8 *)&f->sgl[0], mr_bus(c, OFF_BOUNCE), len);
    }
    c->oreq_pi = (c->oreq_pi + 1) % MR_OREQ_N;
    mr_barrier();
    mr_wr32(c, OP_REQ_PI, c->oreq_pi);

    st = wait_reply(c, TRUE, tag, &r, timeout_us);
    if (EFI_ERROR(st)) {
        return st;
    }
    ZeroMem(res, sizeof(*res));
    res->transfer_count = len;
    if (r.type != MPI3_REPLY_DESCRIPT_FLAGS_TYPE_ADDRESS) {
        res->host = r.ioc_status == MPI3_IOCSTATUS_SUCCESS ? MR_HOST_OK
                                                         : MR_HOST_ERROR;
        return EFI_SUCCESS;
    }
    switch (r.ioc_status) {
    case MPI3_IOCSTATUS_SUCCESS:
        res->host = MR_HOST_OK;
        break;
    case MPI3_IOCSTATUS_SCSI_DATA_UNDERRUN:
    case MPI3_IOCSTATUS_SCSI_DATA_OVERRUN:
        res->host = MR_HOST_UNDERRUN;
        break;
    case MPI3_IOCSTATUS_SCSI_DEVICE_NOT_THERE:
    case MPI3_IOCSTATUS_SCSI_INVALID_DEVHANDLE:
        res->host = MR_HOST_NO_DEVICE;
        break;
    default:
        res->host = MR_HOST_ERROR;
        break;
    }
    rep = (MPI3SCSIIOReply *)r.frame;
    res->scsi_status = rep->scsi_status;
    res->transfer_count = rep->transfer_count < len ? rep->transfer_count
                                                    : len;
    if (rep->sense_data_buffer_address >= mr_bus(c, OFF_SENSE) &&
        rep->sense_data_buffer_address + MR_SENSE_LEN <=
        mr_bus(c, OFF_SENSE) + MR_SFREE_N * MR_SENSE_LEN) {
        UINTN off = rep->sense_data_buffer_address - c->dma_dev;

        if ((rep->scsi_state & MPI3_SCSI_STATE_SENSE_NOT_AVAILABLE) ==
            MPI3_SCSI_STATE_SENSE_VALID && rep->sense_count) {
            res->sense_count = rep->sense_count < MR_SENSE_LEN
                               ? rep->sense_count : MR_SENSE_LEN;
            CopyMem(mr_dma(c, OFF_SCRATCH), mr_dma(c, off), res->sense_count);
        }
        return_sense(c, rep->sense_data_buffer_address);
    }
    return EFI_SUCCESS;
}

static UINTN mpi3_dma_size(MR_CTRL *c)
{
    c->bounce_off = OFF_BOUNCE;
    c->scratch_off = OFF_SCRATCH;
    return DMA_BYTES;
}

const MR_OPS mr_mpi3_ops = {
    .name = L"MegaRAID 9600 (MPI3)",
    .device_id = 0x00A5,
    .dma_size = mpi3_dma_size,
    .start = mpi3_start,
    .reset = mpi3_reset,
    .discover = mpi3_discover,
    .scsi = mpi3_scsi,
};
