/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SCSI target the controller firmware presents for a
 * logical unit (unit.h): a JBOD drive or a RAID virtual disk.
 *
 * The host-interface front end (MPI3 for megaraid-9600) parses the guest's
 * request, walks and bounds-checks its SGL into a QEMUSGList, fills an
 * MRTargetReq for the unit it addresses and calls mr_target_submit().  The
 * target executes the CDB (emulated commands from buffers, media access
 * with the dma helpers on the drive's BlockBackend or through the VD's
 * data path) and calls req->done exactly once, possibly before
 * mr_target_submit() returns.
 */
#ifndef HW_MEGARAID_TARGET_H
#define HW_MEGARAID_TARGET_H

#include "qemu/timer.h"
#include "system/dma.h"
#include "block/accounting.h"
#include "hw/megaraid/unit.h"

#define MR_SENSE_MAX 96

typedef enum MRDataDir {
    MR_DIR_NONE = 0,
    MR_DIR_TO_DEVICE,           /* guest -> drive (write) */
    MR_DIR_FROM_DEVICE,         /* drive -> guest (read) */
} MRDataDir;

typedef struct MRTargetReq MRTargetReq;
typedef void MRTargetDone(MRTargetReq *req);

struct MRTargetReq {
    /* Filled by the front end. */
    MRUnit *unit;               /* the logical unit addressed */
    uint64_t lun;
    uint8_t cdb[32];
    uint32_t cdb_len;
    MRDataDir dir;
    QEMUSGList *sg;             /* NULL when no data buffer */
    uint32_t data_len;          /* DataLength of the request */
    MRTargetDone *done;
    void *opaque;
    /*
     * Timing model (timing=on): the controller's timing state, NULL when
     * off, and QEMU_CLOCK_VIRTUAL when the request arrived (doorbell).
     * A finished request is then held until its modelled completion
     * (target-timing.c) before done() is called.
     */
    struct MRTiming *timing;
    int64_t arrival_ns;

    /* Filled by the target before done() is called. */
    uint8_t status;             /* SCSI status byte */
    uint8_t sense[MR_SENSE_MAX];
    uint32_t sense_len;
    uint32_t xfer_count;        /* bytes actually transferred */

    /* Private to the target. */
    BlockAIOCB *aiocb;
    void *priv;
    QEMUSGList qsg;             /* sg trimmed to the transfer, if needed */
    bool own_qsg;
    bool cancelled;
    bool fua;                   /* write with BDRV_REQ_FUA */
    BlockAcctCookie acct;
    uint64_t lba;
    uint32_t nblocks;
    QEMUTimer hold_timer;       /* timing: armed while held */
    bool held;
    bool fault_held;            /* held by drive fault injection */
};

/*
 * What a drive's SCSI logs and SMART data report of its health (LOG SENSE
 * temperature, background scan and error counter pages, ATA SMART), for
 * a host interface that reports the same in its own form (an NVMe SMART
 * log through NVMe ENCAPSULATED).
 */
typedef struct MRUnitHealth {
    uint8_t temp_c;             /* current temperature, Celsius */
    uint8_t trip_c;             /* reference (trip) temperature */
    uint32_t power_on_hours;
    uint32_t start_stop_cycles;
    uint64_t blocks_read;       /* logical blocks */
    uint64_t blocks_written;
    uint32_t uncorrected_errors;    /* read and write */
} MRUnitHealth;

void mr_target_health(const MRUnit *u, MRUnitHealth *h);

/* Execute req; req->done() is called once when it finishes. */
void mr_target_submit(MRTargetReq *req);

/*
 * Abort an outstanding request (task management).  done() is still called,
 * exactly once; status is then TASK ABORTED unless the request finished
 * first.  A request held by the timing model has not finished for the
 * host: it completes at once with TASK ABORTED.
 */
void mr_target_cancel(MRTargetReq *req);

/*
 * LBA, transfer length (in blocks; 0 in a 6-byte CDB means 256) and the
 * offset of the length field of a 6/10/12/16-byte READ/WRITE-type CDB,
 * by its opcode group.
 */
void mr_cdb_lba_len(const uint8_t *cdb, uint64_t *lba, uint32_t *len,
                    uint16_t *len_byte);

#endif
