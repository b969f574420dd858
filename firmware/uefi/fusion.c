/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the Fusion/MFI IOC (megaraid-9500) as a boot
 * driver uses it.  Polled, one request at a time, interrupts masked: the
 * firmware brought to READY (doorbell abort from OPERATIONAL, the
 * diagnostic reset from FAULT), IOC INIT posted as an MFA request with one
 * reply queue, the LD list and each LD's info through MFI DCMDs in the
 * MPT pass-through, and SCSI commands to the LDs as LD I/O frames (the
 * path megaraid_sas uses).  JBOD drives are not offered.  The IOC is
 * handed back in READY, where megaraid_sas starts from.  Frame offsets
 * are hw/megaraid/mfi.h's.
 */
#include "mr-efi.h"

#define F_DEPTH         64      /* reply descriptors (a multiple of 16) */
#define F_SMID_IO       1
#define F_SMID_DCMD     2
#define F_SENSE_LEN     96
#define F_MAX_XFER      (64 * 1024)
#define F_MAX_LD_TARGETS 256

/* Layout of the DMA area after the request frames (FR bytes). */
#define OFF_REPLY(c)    ((c)->frames_bytes)
#define OFF_INIT(c)     ((c)->frames_bytes + 0x200)
#define OFF_IOCINIT(c)  ((c)->frames_bytes + 0x300)
#define OFF_MFI(c)      ((c)->frames_bytes + 0x400)
#define OFF_SENSE(c)    ((c)->frames_bytes + 0x500)
#define OFF_SCRATCH(c)  ((c)->frames_bytes + 0x1000)    /* 8 KiB */
#define OFF_BOUNCE(c)   ((c)->frames_bytes + 0x3000)

static UINT32 fw_state(MR_CTRL *c)
{
    return mr_rd32(c, MFI_REG_SCRATCH0) >> MFI_STATE_SHIFT;
}

static EFI_STATUS wait_state(MR_CTRL *c, UINT32 want, UINT64 us)
{
    for (UINT64 t = 0;; t += 1000) {
        UINT32 st = fw_state(c);

        if (st == want) {
            return EFI_SUCCESS;
        }
        if (mr_rd32(c, MFI_REG_SCRATCH0) == 0xFFFFFFFF || t >= us) {
            return EFI_TIMEOUT;
        }
        BS->Stall(1000);
    }
}

/* To READY: doorbell abort from OPERATIONAL, diagnostic reset from FAULT. */
static EFI_STATUS to_ready(MR_CTRL *c)
{
    UINT32 st = fw_state(c);

    c->up = FALSE;
    mr_wr32(c, MFI_REG_INTR_MASK, 0xFFFFFFFF);  /* polled */
    if (st == MFI_STATE_FAULT) {
        mr_diag_unlock(c, MFI_REG_WRITE_SEQ);
        mr_wr32(c, MFI_REG_HOST_DIAG, MFI_DIAG_RESET_ADAPTER);
    } else if (st != MFI_STATE_READY) {
        mr_wr32(c, MFI_REG_DOORBELL, MFI_DB_ABORT | MFI_DB_READY);
    }
    return wait_state(c, MFI_STATE_READY, mr_ready_us(c));
}

static void fusion_reset(MR_CTRL *c)
{
    to_ready(c);
}

static UINTN fusion_dma_size(MR_CTRL *c)
{
    UINT32 max_cmds;

    c->timeout_s = 180;
    to_ready(c);
    max_cmds = mr_rd32(c, MFI_REG_SCRATCH0) & MFI_SP0_MAX_CMDS_MASK;
    if (max_cmds < 2 || max_cmds > 8192) {
        max_cmds = 8192;        /* room for the largest the IOC may ask */
    }
    /* SMIDs 0 .. 2 (max_cmds - 1), 256 bytes each, as IOC INIT checks */
    c->frames_bytes = ((2 * (max_cmds - 1) + 1) * MPT_FRAME_SIZE + 4095) &
                      ~(UINTN)4095;
    c->bounce_off = OFF_BOUNCE(c);
    c->scratch_off = OFF_SCRATCH(c);
    return OFF_BOUNCE(c) + MR_MAX_XFER;
}

/* ---- requests and replies ---- */

static void post(MR_CTRL *c, UINT32 lo, UINT32 hi)
{
    mr_barrier();
    mr_wr32(c, MFI_REG_REQ_LOW, lo);
    mr_wr32(c, MFI_REG_REQ_HIGH, hi);
}

/* Wait for the reply of @smid (others are dropped). */
static EFI_STATUS wait_reply(MR_CTRL *c, UINT16 smid, UINT64 us)
{
    for (UINT64 t = 0;; t += 10) {
        /* volatile: the IOC writes the descriptor while this polls it */
        volatile UINT64 *d = (volatile UINT64 *)mr_dma(c, OFF_REPLY(c)) +
                             c->reply_ci;           /* (polled) */
        UINT64 v = *d;

        if (v != ~0ULL) {
            *d = ~0ULL;
            c->reply_ci = (c->reply_ci + 1) % F_DEPTH;
            mr_wr32(c, MFI_REG_REPLY_HOST_INDEX, c->reply_ci);
            if ((UINT16)(v >> 16) == smid) {
                return EFI_SUCCESS;
            }
            continue;
        }
        if (fw_state(c) == MFI_STATE_FAULT) {
            return EFI_DEVICE_ERROR;
        }
        if (us && t >= us) {
            return EFI_TIMEOUT;
        }
        BS->Stall(10);
    }
}

/* An MFI DCMD through the MPT pass-through; its MFI status (0xFF: none). */
static UINT8 dcmd(MR_CTRL *c, UINT32 opcode, UINT8 mbox0, UINT32 len)
{
    UINT8 *f = mr_dma(c, OFF_MFI(c));
    UINT8 *mpt = mr_dma(c, F_SMID_DCMD * MPT_FRAME_SIZE);
    UINT64 data = mr_bus(c, OFF_SCRATCH(c));
    UINT64 mfi = mr_bus(c, OFF_MFI(c));

    ZeroMem(f, MFI_FRAME_SIZE);
    ZeroMem(mr_dma(c, OFF_SCRATCH(c)), len);
    f[MFI_HDR_CMD] = MFI_CMD_DCMD;
    f[MFI_HDR_STATUS] = 0xFF;
    f[MFI_HDR_SGE_COUNT] = len ? 1 : 0;
    *(UINT16 *)(f + MFI_HDR_FLAGS) = MFI_FLAGS_SGL64 | MFI_FLAGS_DIR_READ;
    *(UINT32 *)(f + MFI_HDR_XFER_LEN) = len;
    *(UINT32 *)(f + MFI_DCMD_OPCODE) = opcode;
    f[MFI_DCMD_MBOX] = mbox0;
    *(UINT64 *)(f + MFI_DCMD_SGL) = data;
    *(UINT32 *)(f + MFI_DCMD_SGL + 8) = len;

    ZeroMem(mpt, MPT_FRAME_SIZE);
    mpt[MPT_FUNCTION] = MPT_FUNC_MFI_PASSTHRU;
    mpt[2] = MPT_SGL / 16;                  /* chain offset (16-byte units) */
    mpt[0x14] = MPT_SGL / 4;                /* SGL offset (dwords) */
    *(UINT64 *)(mpt + MPT_SGL) = mfi;       /* a chain to the MFI frame */
    *(UINT32 *)(mpt + MPT_SGL + 8) = MFI_FRAME_SIZE;
    mpt[MPT_SGL + MPT_SGE_FLAGS] = MPT_SGE_CHAIN | 0x03;
    post(c, (UINT32)F_SMID_DCMD << 16, 0);
    if (EFI_ERROR(wait_reply(c, F_SMID_DCMD, 30ULL * 1000000))) {
        return 0xFF;
    }
    return f[MFI_HDR_STATUS];
}

/* ---- bring-up ---- */

static EFI_STATUS fusion_start(MR_CTRL *c)
{
    UINT8 *init = mr_dma(c, OFF_INIT(c));
    UINT8 *ii = mr_dma(c, OFF_IOCINIT(c));
    EFI_STATUS st;

    st = to_ready(c);
    if (EFI_ERROR(st)) {
        return st;
    }
    SetMem(mr_dma(c, OFF_REPLY(c)), F_DEPTH * MFI_REPLY_DESC_SIZE, 0xFF);
    c->reply_ci = 0;
    ZeroMem(ii, IOCINIT_SIZE);
    ii[0] = 0x04;                               /* who init: host driver */
    ii[IOCINIT_FUNCTION] = MPI2_FUNCTION_IOC_INIT;
    *(UINT16 *)(ii + 0x0C) = 0x0200;            /* MPI 2.0 */
    *(UINT16 *)(ii + 0x0E) = 0x1000;            /* header version */
    ii[0x16] = 12;                              /* host page size 4 KiB */
    ii[IOCINIT_MSIX_VECTORS] = 1;
    *(UINT16 *)(ii + IOCINIT_FRAME_SIZE) = MPT_FRAME_SIZE / 4;
    *(UINT16 *)(ii + IOCINIT_REPLY_DEPTH) = F_DEPTH;
    *(UINT32 *)(ii + IOCINIT_SENSE_HIGH) =
        (UINT32)(mr_bus(c, OFF_SENSE(c)) >> 32);
    *(UINT64 *)(ii + IOCINIT_FRAME_BASE) = mr_bus(c, 0);
    *(UINT64 *)(ii + IOCINIT_REPLY_BASE) = mr_bus(c, OFF_REPLY(c));
    ZeroMem(init, MFI_INIT_FRAME_SIZE);
    init[MFI_HDR_CMD] = MFI_CMD_INIT;
    init[MFI_HDR_STATUS] = 0xFF;
    *(UINT16 *)(init + MFI_HDR_FLAGS) = 0x0001; /* no reply descriptor */
    *(UINT32 *)(init + MFI_HDR_XFER_LEN) = IOCINIT_SIZE;
    *(UINT64 *)(init + MFI_INIT_QINFO_LO) = mr_bus(c, OFF_IOCINIT(c));
    post(c, (UINT32)mr_bus(c, OFF_INIT(c)) | MFI_REQ_TYPE_MFA << 1,
         (UINT32)(mr_bus(c, OFF_INIT(c)) >> 32));
    /* the IOC writes the status byte: read it volatile (polled) */
    for (UINT32 t = 0; ((volatile UINT8 *)init)[MFI_HDR_STATUS] == 0xFF; /**/
         t++) {
        if (t * 1000ULL >= mr_ready_us(c)) {
            return EFI_TIMEOUT;
        }
        BS->Stall(1000);
    }
    if (init[MFI_HDR_STATUS] != MFI_STAT_OK ||
        fw_state(c) != MFI_STATE_OPERATIONAL) {
        return EFI_DEVICE_ERROR;
    }
    c->max_xfer = F_MAX_XFER;
    c->up = TRUE;
    return EFI_SUCCESS;
}

/* ---- discovery: the LDs that are not offline ---- */

static UINT8 ld_level(MR_CTRL *c, UINT8 tgt)
{
    const UINT8 *li = mr_dma(c, OFF_SCRATCH(c));
    UINT8 prl, spans;

    if (dcmd(c, MR_DCMD_LD_GET_INFO, tgt, MR_LD_INFO_SIZE) != MFI_STAT_OK) {
        return 0;
    }
    prl = li[0x20];                 /* primary RAID level */
    spans = li[0x25];               /* span depth */
    if (spans > 1) {
        return prl == 1 ? 10 : prl * 10;       /* 10, 50, 60 */
    }
    return prl;
}

static EFI_STATUS fusion_discover(MR_CTRL *c)
{
    UINT8 tgt[F_MAX_LD_TARGETS], state[F_MAX_LD_TARGETS];
    const UINT8 *l = mr_dma(c, OFF_SCRATCH(c));
    UINT32 n;

    c->ntargets = 0;
    if (dcmd(c, MR_DCMD_LD_GET_LIST, 0, MR_LD_LIST_SIZE) != MFI_STAT_OK) {
        return EFI_DEVICE_ERROR;
    }
    n = *(const UINT32 *)l;
    if (n > F_MAX_LD_TARGETS) {
        n = F_MAX_LD_TARGETS;
    }
    for (UINT32 i = 0; i < n; i++) {
        tgt[i] = l[8 + i * 16];
        state[i] = l[8 + i * 16 + 4];
    }
    for (UINT32 i = 0; i < n && c->ntargets < MR_MAX_TARGETS; i++) {
        MR_TARGET *t;

        if (state[i] == MR_VD_OFFLINE) {
            continue;                   /* an offline VD is not offered */
        }
        t = &c->targets[c->ntargets++];
        t->handle = tgt[i];
        t->vd = TRUE;
        t->vd_state = state[i] & 3;
        t->raid_level = ld_level(c, tgt[i]);
    }
    return EFI_SUCCESS;
}

/* ---- SCSI commands to an LD ---- */

static EFI_STATUS fusion_scsi(MR_CTRL *c, const MR_TARGET *t,
                              EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *pkt,
                              UINT32 len, MR_SCSI_RESULT *res,
                              UINT64 timeout_us)
{
    UINT8 *f = mr_dma(c, F_SMID_IO * MPT_FRAME_SIZE);
    const UINT8 *sense = mr_dma(c, OFF_SENSE(c));
    UINT32 xfer;
    EFI_STATUS st;

    ZeroMem(f, MPT_FRAME_SIZE);
    *(UINT16 *)(f + MPT_DEV_HANDLE) = t->handle;
    f[MPT_FUNCTION] = MPT_FUNC_LD_IO;
    *(UINT32 *)(f + MPT_SENSE_LOW) = (UINT32)mr_bus(c, OFF_SENSE(c));
    *(UINT16 *)(f + 0x10) = 2;                  /* SGL flags: IEEE */
    f[MPT_SENSE_LENGTH] = F_SENSE_LEN;
    f[0x14] = MPT_SGL / 4;                      /* SGL offset (dwords) */
    *(UINT32 *)(f + MPT_DATA_LENGTH) = len;
    *(UINT16 *)(f + MPT_IO_FLAGS) = pkt->CdbLength;
    if (len) {
        *(UINT32 *)(f + MPT_CONTROL) =
            pkt->DataDirection == EFI_EXT_SCSI_DATA_DIRECTION_WRITE
            ? MPT_CONTROL_WRITE : MPT_CONTROL_READ;
    }
    CopyMem(f + MPT_CDB, pkt->Cdb, pkt->CdbLength);
    *(UINT16 *)(f + MPT_RAIDCTX_TGT_ID) = t->handle;
    f[MPT_RAIDCTX_STATUS] = 0xFF;
    f[MPT_RAIDCTX_RAID_FLAGS] = 0x00;           /* an LD */
    if (len) {
        *(UINT64 *)(f + MPT_SGL) = mr_bus(c, OFF_BOUNCE(c));
        *(UINT32 *)(f + MPT_SGL + 8) = len;
        f[MPT_SGL + MPT_SGE_FLAGS] = MPT_SGE_END;
    }
    post(c, (UINT32)F_SMID_IO << 16 | MFI_REQ_TYPE_LD_IO << 1, 0);
    st = wait_reply(c, F_SMID_IO, timeout_us);
    if (EFI_ERROR(st)) {
        return st;
    }
    ZeroMem(res, sizeof(*res));
    res->transfer_count = len;
    switch (f[MPT_RAIDCTX_STATUS]) {
    case MFI_STAT_OK:
        res->host = MR_HOST_OK;
        break;
    case MFI_STAT_SCSI_DONE_WITH_ERROR:
        res->scsi_status = f[MPT_RAIDCTX_EX_STATUS];
        xfer = *(UINT32 *)(f + MPT_DATA_LENGTH);
        res->transfer_count = xfer < len ? xfer : len;
        res->host = res->transfer_count < len && res->scsi_status == 0
                    ? MR_HOST_UNDERRUN : MR_HOST_OK;
        if (res->scsi_status == 0x02) {         /* CHECK CONDITION */
            res->sense_count = (UINT32)sense[7] + 8 < F_SENSE_LEN
                               ? (UINT32)sense[7] + 8 : F_SENSE_LEN;
            CopyMem(mr_dma(c, OFF_SCRATCH(c)), sense, res->sense_count);
        }
        break;
    case MFI_STAT_DEVICE_NOT_FOUND:
    case MFI_STAT_LD_OFFLINE:
        res->host = MR_HOST_NO_DEVICE;
        break;
    default:
        res->host = MR_HOST_ERROR;
        break;
    }
    return EFI_SUCCESS;
}

const MR_OPS mr_fusion_ops = {
    .name = L"MegaRAID 9500 (Fusion)",
    .device_id = 0x10E2,
    .dma_size = fusion_dma_size,
    .start = fusion_start,
    .reset = fusion_reset,
    .discover = fusion_discover,
    .scsi = fusion_scsi,
};
