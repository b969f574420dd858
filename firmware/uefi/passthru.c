/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: EFI_EXT_SCSI_PASS_THRU_PROTOCOL over the IOC
 * (either personality, through MR_OPS).
 * Each device the IOC offers (a VD that is not offline, a JBOD drive) is
 * target N (its place in discovery order), LUN 0, and its device path node
 * is SCSI(N,0).  Firmware's SCSI bus and disk drivers build Block I/O on
 * it.  Data moves through the IOC's bounce buffer: a transfer larger than
 * it gets EFI_BAD_BUFFER_SIZE with the largest length allowed, as the
 * specification says, and the disk driver splits the request.
 */
#include "mr-efi.h"

#define DEFAULT_TIMEOUT_US  (30ULL * 1000000)

static const MR_TARGET *target_of(MR_CTRL *c, const UINT8 *target,
                                  UINT64 lun)
{
    for (int i = 1; i < TARGET_MAX_BYTES; i++) {
        if (target[i]) {
            return NULL;
        }
    }
    if (lun != 0 || target[0] >= c->ntargets) {
        return NULL;
    }
    return &c->targets[target[0]];
}

static void fill_sense(MR_CTRL *c,
                       EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *pkt,
                       const MR_SCSI_RESULT *res)
{
    UINT32 n = res->sense_count;

    if (n > pkt->SenseDataLength) {
        n = pkt->SenseDataLength;
    }
    if (n && pkt->SenseData) {
        CopyMem(pkt->SenseData, mr_dma(c, c->scratch_off), n);
    }
    pkt->SenseDataLength = n;
}

static EFI_STATUS EFIAPI pass_thru(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This,
                                   UINT8 *Target, UINT64 Lun,
                                   EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET
                                   *pkt, EFI_EVENT Event)
{
    MR_CTRL *c = MR_FROM_PASS_THRU(This);
    BOOLEAN write;
    UINT32 len;
    VOID *buf;
    const MR_TARGET *t;
    MR_SCSI_RESULT res;
    EFI_STATUS st;
    UINT64 us;

    (void)Event;                /* blocking only: no NONBLOCKIO attribute */
    if (!Target || !pkt || !pkt->Cdb || pkt->CdbLength == 0 ||
        pkt->CdbLength > 32 ||
        pkt->DataDirection > EFI_EXT_SCSI_DATA_DIRECTION_WRITE) {
        return EFI_INVALID_PARAMETER;
    }
    t = target_of(c, Target, Lun);
    if (!t) {
        pkt->HostAdapterStatus =
            EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT;
        return EFI_TIMEOUT;
    }
    write = pkt->DataDirection == EFI_EXT_SCSI_DATA_DIRECTION_WRITE;
    len = write ? pkt->OutTransferLength : pkt->InTransferLength;
    buf = write ? pkt->OutDataBuffer : pkt->InDataBuffer;
    if (len && !buf) {
        return EFI_INVALID_PARAMETER;
    }
    if (len > c->max_xfer) {
        if (write) {
            pkt->OutTransferLength = c->max_xfer;
        } else {
            pkt->InTransferLength = c->max_xfer;
        }
        pkt->SenseDataLength = 0;
        return EFI_BAD_BUFFER_SIZE;
    }
    if (!c->up) {
        /* a request timed out earlier: bring the IOC up again first */
        st = c->ops->start(c);
        if (EFI_ERROR(st)) {
            return EFI_DEVICE_ERROR;
        }
    }
    if (write && len) {
        CopyMem(mr_dma(c, c->bounce_off), buf, len);
    }
    /* Timeout is in 100 ns units; 0 means none, bounded here all the same */
    us = pkt->Timeout ? (pkt->Timeout + 9) / 10 : DEFAULT_TIMEOUT_US;
    st = c->ops->scsi(c, t, pkt, len, &res, us);
    if (st == EFI_TIMEOUT || st == EFI_DEVICE_ERROR) {
        c->ops->reset(c);       /* no late reply lands in a reused slot */
        pkt->HostAdapterStatus = st == EFI_TIMEOUT
            ? EFI_EXT_SCSI_STATUS_HOST_ADAPTER_TIMEOUT_COMMAND
            : EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER;
        pkt->SenseDataLength = 0;
        return st;
    }
    if (!write && res.transfer_count) {
        CopyMem(buf, mr_dma(c, c->bounce_off), res.transfer_count);
    }
    if (write) {
        pkt->OutTransferLength = res.transfer_count;
    } else {
        pkt->InTransferLength = res.transfer_count;
    }
    pkt->TargetStatus = res.scsi_status;
    fill_sense(c, pkt, &res);
    switch (res.host) {
    case MR_HOST_OK:
        pkt->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK;
        /* a CHECK CONDITION is the target's: the caller reads the sense */
        return EFI_SUCCESS;
    case MR_HOST_UNDERRUN:
        /* the lengths say how much moved */
        pkt->HostAdapterStatus =
            EFI_EXT_SCSI_STATUS_HOST_ADAPTER_DATA_OVERRUN_UNDERRUN;
        return res.scsi_status == 0 ? EFI_SUCCESS : EFI_DEVICE_ERROR;
    case MR_HOST_NO_DEVICE:
        pkt->HostAdapterStatus =
            EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT;
        return EFI_TIMEOUT;
    default:
        pkt->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER;
        return EFI_DEVICE_ERROR;
    }
}

static BOOLEAN all_ff(const UINT8 *t)
{
    for (int i = 0; i < TARGET_MAX_BYTES; i++) {
        if (t[i] != 0xFF) {
            return FALSE;
        }
    }
    return TRUE;
}

/* The target after *Target (all 0xFF: the first). */
static EFI_STATUS next_target(MR_CTRL *c, UINT8 **Target)
{
    UINT8 *t;

    if (!Target || !*Target) {
        return EFI_INVALID_PARAMETER;
    }
    t = *Target;
    if (all_ff(t)) {
        if (c->ntargets == 0) {
            return EFI_NOT_FOUND;
        }
        SetMem(t, TARGET_MAX_BYTES, 0);
        return EFI_SUCCESS;
    }
    if (!target_of(c, t, 0)) {
        return EFI_INVALID_PARAMETER;
    }
    if ((UINT32)t[0] + 1 >= c->ntargets) {
        return EFI_NOT_FOUND;
    }
    t[0]++;
    return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_next_target_lun(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 **Target, UINT64 *Lun)
{
    if (!Lun) {
        return EFI_INVALID_PARAMETER;
    }
    /* one LUN per target: the next target's LUN 0 */
    if (Target && *Target && !all_ff(*Target) && *Lun != 0) {
        return EFI_INVALID_PARAMETER;
    }
    *Lun = 0;
    return next_target(MR_FROM_PASS_THRU(This), Target);
}

static EFI_STATUS EFIAPI get_next_target(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 **Target)
{
    return next_target(MR_FROM_PASS_THRU(This), Target);
}

static EFI_STATUS EFIAPI build_device_path(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 *Target, UINT64 Lun,
    EFI_DEVICE_PATH_PROTOCOL **DevicePath)
{
    MR_CTRL *c = MR_FROM_PASS_THRU(This);
    SCSI_DEVICE_PATH *node;

    if (!Target || !DevicePath) {
        return EFI_INVALID_PARAMETER;
    }
    if (!target_of(c, Target, Lun)) {
        return EFI_NOT_FOUND;
    }
    node = AllocateZeroPool(sizeof(*node));
    if (!node) {
        return EFI_OUT_OF_RESOURCES;
    }
    node->Header.Type = MESSAGING_DEVICE_PATH;
    node->Header.SubType = MSG_SCSI_DP;
    SetDevicePathNodeLength(&node->Header, sizeof(*node));
    node->Pun = Target[0];
    node->Lun = (UINT16)Lun;
    *DevicePath = (EFI_DEVICE_PATH_PROTOCOL *)node;
    return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_target_lun(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This,
    EFI_DEVICE_PATH_PROTOCOL *DevicePath, UINT8 **Target, UINT64 *Lun)
{
    MR_CTRL *c = MR_FROM_PASS_THRU(This);
    SCSI_DEVICE_PATH *node = (SCSI_DEVICE_PATH *)DevicePath;

    if (!DevicePath || !Target || !*Target || !Lun) {
        return EFI_INVALID_PARAMETER;
    }
    if (DevicePathType(DevicePath) != MESSAGING_DEVICE_PATH ||
        DevicePathSubType(DevicePath) != MSG_SCSI_DP ||
        DevicePathNodeLength(DevicePath) != sizeof(*node)) {
        return EFI_UNSUPPORTED;
    }
    if (node->Pun >= c->ntargets || node->Lun != 0) {
        return EFI_NOT_FOUND;
    }
    SetMem(*Target, TARGET_MAX_BYTES, 0);
    (*Target)[0] = (UINT8)node->Pun;
    *Lun = node->Lun;
    return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI reset_channel(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This)
{
    MR_CTRL *c = MR_FROM_PASS_THRU(This);

    c->ops->reset(c);
    return EFI_ERROR(c->ops->start(c)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI reset_target_lun(
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *This, UINT8 *Target, UINT64 Lun)
{
    if (!Target || !target_of(MR_FROM_PASS_THRU(This), Target, Lun)) {
        return EFI_INVALID_PARAMETER;
    }
    return EFI_UNSUPPORTED;     /* allowed by the specification */
}

void mr_pass_thru_init(MR_CTRL *c)
{
    c->mode.AdapterId = 0xFFFFFFFF;
    c->mode.Attributes = EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL |
                         EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL;
    c->mode.IoAlign = 0;        /* the bounce buffer takes any buffer */
    c->pass_thru.Mode = &c->mode;
    c->pass_thru.PassThru = pass_thru;
    c->pass_thru.GetNextTargetLun = get_next_target_lun;
    c->pass_thru.BuildDevicePath = build_device_path;
    c->pass_thru.GetTargetLun = get_target_lun;
    c->pass_thru.ResetChannel = reset_channel;
    c->pass_thru.ResetTargetLun = reset_target_lun;
    c->pass_thru.GetNextTarget = get_next_target;
}
