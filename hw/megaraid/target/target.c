/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SCSI target the firmware presents for a JBOD drive.
 * Owns command dispatch (CDB length and LUN checks, opcode table), the
 * transfer of emulated responses and parameter lists through the
 * request's QEMUSGList, completion with status and sense, and the
 * commands that need no medium access (INQUIRY, READ CAPACITY, REPORT
 * LUNS, MODE SENSE/SELECT, LOG SENSE/SELECT, REQUEST SENSE, TEST UNIT
 * READY, START STOP UNIT, SEND DIAGNOSTIC, ATA PASS-THROUGH).  Medium
 * access lives in target-io.c.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "scsi/constants.h"
#include "hw/megaraid/target.h"
#include "target-int.h"
#include "trace.h"

/* CDB length of each opcode group (0 for groups without a fixed length). */
static uint32_t mr_cdb_group_len(uint8_t opcode)
{
    switch (opcode >> 5) {
    case 0:
        return 6;
    case 1:
    case 2:
        return 10;
    case 4:
        return 16;
    case 5:
        return 12;
    }
    return 0;
}

void mr_target_good(MRTargetReq *req)
{
    req->status = GOOD;
    req->sense_len = 0;
    trace_megaraid_target_done(req->unit->name, req->cdb[0], req->status,
                               req->xfer_count);
    /* timing=on: held until the model says the card would be done */
    if (req->timing && !req->cancelled && mr_target_timing_hold(req)) {
        return;
    }
    req->done(req);
}

void mr_target_fail(MRTargetReq *req, const MRSense *s)
{
    req->status = CHECK_CONDITION;
    req->sense_len = mr_sense_build(s, req->unit->ts.d_sense, req->sense,
                                    sizeof(req->sense));
    trace_megaraid_target_check_condition(req->unit->name, req->cdb[0],
                                          s->key, s->asc, s->ascq);
    req->done(req);
}

void mr_target_aborted(MRTargetReq *req)
{
    req->status = TASK_ABORTED;
    req->sense_len = 0;
    trace_megaraid_target_aborted(req->unit->name, req->cdb[0]);
    req->done(req);
}

/* Bytes the guest's buffer can hold or supply. */
uint32_t mr_target_avail(MRTargetReq *req)
{
    if (!req->sg || req->dir == MR_DIR_NONE) {
        return 0;
    }
    return MIN(req->sg->size, req->data_len);
}

/* Copy an emulated response (at most alloc bytes of it) to the guest. */
static void mr_target_copy_out(MRTargetReq *req, const uint8_t *buf,
                               uint32_t n, uint32_t alloc)
{
    dma_addr_t residual = 0;

    n = MIN(n, alloc);
    if (req->dir != MR_DIR_FROM_DEVICE) {
        if (n) {
            trace_megaraid_err_target_dir(req->unit->name, req->cdb[0],
                                          req->dir);
        }
        n = 0;
    }
    n = MIN(n, mr_target_avail(req));
    req->xfer_count = 0;
    if (n) {
        /* the residual is what is left of the whole sg list */
        dma_buf_read((void *)buf, n, &residual, req->sg,
                     MEMTXATTRS_UNSPECIFIED);
        req->xfer_count = req->sg->size - residual;
    }
}

void mr_target_send(MRTargetReq *req, const uint8_t *buf, uint32_t n,
                    uint32_t alloc)
{
    mr_target_copy_out(req, buf, n, alloc);
    mr_target_good(req);
}

/* Read up to len bytes of the guest's data-out buffer into buf. */
uint32_t mr_target_fetch(MRTargetReq *req, void *buf, uint32_t len)
{
    dma_addr_t residual = 0;
    uint32_t n;

    if (req->dir != MR_DIR_TO_DEVICE) {
        return 0;
    }
    n = MIN(len, mr_target_avail(req));
    req->xfer_count = 0;
    if (n) {
        dma_buf_write(buf, n, &residual, req->sg, MEMTXATTRS_UNSPECIFIED);
        req->xfer_count = req->sg->size - residual;
    }
    return req->xfer_count;
}

/* NOT READY conditions for commands that need the medium. */
bool mr_target_ready(MRTargetReq *req, MRSense *s)
{
    MRUnit *u = req->unit;

    if (!mr_medium_present(u)) {
        mr_sense_set(s, NOT_READY, 0x3a, 0x00);
        return false;
    }
    if (u->ts.stopped) {
        mr_sense_set(s, NOT_READY, 0x04, 0x02);
        return false;
    }
    return true;
}

static void mr_target_request_sense(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    uint8_t buf[MR_SENSE_MAX];
    MRSense s;
    size_t n;

    if (req->lun) {
        mr_sense_set(&s, ILLEGAL_REQUEST, 0x25, 0x00);
    } else if (u->ts.stopped) {
        mr_sense_set(&s, NOT_READY, 0x04, 0x02);
    } else {
        mr_sense_set(&s, NO_SENSE, 0x00, 0x00);
    }
    n = mr_sense_build(&s, req->cdb[1] & 1, buf, sizeof(buf));
    mr_target_send(req, buf, n, req->cdb[4]);
}

static void mr_target_start_stop(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    uint8_t pc = req->cdb[4] >> 4;
    bool start = req->cdb[4] & 1;
    MRSense s;

    if (pc != 0 && pc != 1 && pc != 2 && pc != 3 && pc != 0xa && pc != 0xb) {
        mr_sense_bad_cdb(&s, 4, 7);
        mr_target_fail(req, &s);
        return;
    }
    trace_megaraid_target_start_stop(u->name, pc, start);
    if (pc != 0) {
        /* power conditions: active, idle, standby all keep the medium */
        mr_target_good(req);
        return;
    }
    if (start) {
        if (u->ts.stopped) {
            u->ts.start_stop_cycles++;
        }
        u->ts.stopped = false;
        mr_target_good(req);
        return;
    }
    u->ts.stopped = true;
    if (req->cdb[4] & 0x04) {                   /* NO_FLUSH */
        mr_target_good(req);
        return;
    }
    mr_target_stop_flush(req);
}

static void mr_target_mode_select(MRTargetReq *req)
{
    bool ten = req->cdb[0] == MODE_SELECT_10;
    uint32_t len = ten ? mr_get16(req->cdb + 7) : req->cdb[4];
    g_autofree uint8_t *buf = NULL;
    MRSense s;

    if (len && !(req->cdb[1] & 0x10)) {         /* PF must be set */
        mr_sense_bad_cdb(&s, 1, 4);
        mr_target_fail(req, &s);
        return;
    }
    if (len == 0) {
        mr_target_good(req);
        return;
    }
    buf = g_malloc0(len);
    if (mr_target_fetch(req, buf, len) < len) {
        trace_megaraid_err_target_short_param(req->unit->name, req->cdb[0],
                                              len, req->xfer_count);
        mr_sense_set(&s, ILLEGAL_REQUEST, 0x1a, 0x00);
        mr_target_fail(req, &s);
        return;
    }
    if (mr_apply_mode_select(req->unit, req->cdb, buf, len, &s) < 0) {
        mr_target_fail(req, &s);
        return;
    }
    trace_megaraid_target_mode_select(req->unit->name, req->unit->ts.wce,
                                      req->unit->ts.d_sense,
                                      req->unit->ts.dexcpt,
                                      req->unit->ts.mrie);
    mr_target_good(req);
}

static void mr_target_log_select(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    MRSense s;

    /* Only PCR (reset the cumulative counters) with no parameter list. */
    if (mr_get16(req->cdb + 7)) {
        mr_sense_bad_cdb(&s, 7, -1);
        mr_target_fail(req, &s);
        return;
    }
    trace_megaraid_target_log_select(u->name, req->cdb[1] & 0x02);
    if (req->cdb[1] & 0x02) {
        u->ts.blocks_read = 0;
        u->ts.blocks_written = 0;
        u->ts.read_errors = 0;
        u->ts.write_errors = 0;
    }
    mr_target_good(req);
}

static void mr_target_send_diag(MRTargetReq *req)
{
    uint8_t code = req->cdb[1] >> 5;
    MRSense s;

    /*
     * SELFTEST=1 (default self-test) or background/foreground short or
     * extended self-test codes: the emulated medium always passes.
     */
    if (mr_get16(req->cdb + 3) ||
        !(req->cdb[1] & 0x04 || code == 1 || code == 2 || code == 4 ||
          code == 5 || code == 6)) {
        mr_sense_bad_cdb(&s, 1, 7);
        mr_target_fail(req, &s);
        return;
    }
    trace_megaraid_target_self_test(req->unit->name, code);
    /* log it with the ATA codes: 01h/02h background, 81h/82h foreground */
    if (req->cdb[1] & 0x04) {
        mr_selftest_record(req->unit, 0x81);
    } else if (code == 1 || code == 2) {
        mr_selftest_record(req->unit, code);
    } else if (code == 5 || code == 6) {
        mr_selftest_record(req->unit, 0x80 | (code - 4));
    }
    mr_target_good(req);
}

static void mr_target_ata_pt(MRTargetReq *req)
{
    g_autofree uint8_t *buf = g_malloc0(MR_RESP_MAX);
    bool is16 = req->cdb[0] == ATA_PASSTHROUGH_16;
    uint8_t cmd = is16 ? req->cdb[14] : req->cdb[9];
    uint8_t feature = is16 ? req->cdb[4] : req->cdb[3];
    uint32_t n = 0;
    MRSense s;
    int r;

    trace_megaraid_target_ata(req->unit->name, cmd, feature,
                              (req->cdb[1] >> 1) & 0xf, req->cdb[2] & 0x20);
    r = mr_ata_passthrough(req->unit, req->cdb, buf, &n, &s);
    if (r < 0) {
        trace_megaraid_err_target_ata_cdb(req->unit->name,
                                          (req->cdb[1] >> 1) & 0xf,
                                          req->cdb[2] & 3);
        mr_target_fail(req, &s);
        return;
    }
    if (r > 0 && s.key == ABORTED_COMMAND) {
        trace_megaraid_err_target_ata(req->unit->name, cmd, feature);
    }
    mr_target_copy_out(req, buf, n, n);
    if (r == 0) {
        mr_target_good(req);
        return;
    }
    /* CK_COND or ATA error: the ATA status return descriptor */
    req->status = CHECK_CONDITION;
    req->sense_len = mr_sense_build(&s, true, req->sense, sizeof(req->sense));
    trace_megaraid_target_check_condition(req->unit->name, req->cdb[0],
                                          s.key, s.asc, s.ascq);
    req->done(req);
}

/*
 * Emulated commands that return a buffer: build it, then send at most the
 * allocation length.  Returns false if the opcode is not one of them.
 */
static bool mr_target_emulate(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    const uint8_t *cdb = req->cdb;
    g_autofree uint8_t *buf = NULL;
    uint32_t alloc;
    MRSense s;
    int n;

    switch (cdb[0]) {
    case INQUIRY:
    case READ_CAPACITY_10:
    case SERVICE_ACTION_IN_16:
    case REPORT_LUNS:
    case MODE_SENSE:
    case MODE_SENSE_10:
    case LOG_SENSE:
    case MAINTENANCE_IN:
    case READ_DEFECT_DATA:
    case READ_DEFECT_DATA_12:
        break;
    default:
        return false;
    }
    buf = g_malloc0(MR_RESP_MAX);
    mr_sense_set(&s, NO_SENSE, 0, 0);
    switch (cdb[0]) {
    case INQUIRY:
        alloc = mr_get16(cdb + 3);
        n = mr_build_inquiry(u, req->lun, cdb, buf, &s);
        if (n >= 0) {
            trace_megaraid_target_inquiry(u->name, cdb[1] & 1, cdb[2], n);
        }
        break;
    case READ_CAPACITY_10:
        alloc = 8;
        n = mr_build_read_capacity(u, cdb, buf, &s);
        break;
    case SERVICE_ACTION_IN_16:
        if ((cdb[1] & 0x1f) != SAI_READ_CAPACITY_16) {
            mr_sense_bad_cdb(&s, 1, 4);
            n = -1;
            alloc = 0;
            break;
        }
        alloc = mr_get32(cdb + 10);
        n = mr_build_read_capacity(u, cdb, buf, &s);
        break;
    case REPORT_LUNS:
        alloc = mr_get32(cdb + 6);
        n = mr_build_report_luns(cdb, buf, &s);
        break;
    case MODE_SENSE:
        alloc = cdb[4];
        n = mr_build_mode_sense(u, cdb, buf, &s);
        break;
    case MODE_SENSE_10:
        alloc = mr_get16(cdb + 7);
        n = mr_build_mode_sense(u, cdb, buf, &s);
        break;
    case READ_DEFECT_DATA:
        alloc = mr_get16(cdb + 7);
        n = mr_build_read_defect(cdb, buf, &s);
        break;
    case READ_DEFECT_DATA_12:
        alloc = mr_get32(cdb + 6);
        n = mr_build_read_defect(cdb, buf, &s);
        break;
    case MAINTENANCE_IN:
        alloc = mr_get32(cdb + 6);
        if ((cdb[1] & 0x1f) != 0x0c) {          /* REPORT SUPPORTED OPCODES */
            mr_sense_bad_cdb(&s, 1, 4);
            n = -1;
            break;
        }
        n = mr_build_report_opcodes(u, cdb, buf, &s);
        break;
    default: /* LOG_SENSE */
        alloc = mr_get16(cdb + 7);
        n = mr_build_log_sense(u, cdb, buf, &s);
        break;
    }
    if (n < 0) {
        mr_target_fail(req, &s);
    } else {
        mr_target_send(req, buf, n, alloc);
    }
    return true;
}

static bool mr_opcode_any_lun(uint8_t opcode)
{
    return opcode == INQUIRY || opcode == REPORT_LUNS ||
           opcode == REQUEST_SENSE;
}

void mr_target_submit(MRTargetReq *req)
{
    req->status = GOOD;
    req->sense_len = 0;
    req->xfer_count = 0;
    req->aiocb = NULL;
    req->priv = NULL;
    req->own_qsg = false;
    req->cancelled = false;
    req->fua = false;
    req->held = false;
    req->fault_held = false;

    trace_megaraid_target_submit(req->unit->name, req->lun, req->cdb[0],
                                 req->cdb_len, req->dir, req->data_len);
    if (mr_drive_fault_submit(req)) {
        return;
    }
    mr_target_execute(req);
}

void mr_target_execute(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    uint8_t opcode = req->cdb[0];
    uint32_t need = mr_cdb_group_len(opcode);
    MRSense s;

    if (req->cdb_len > sizeof(req->cdb)) {
        trace_megaraid_ub_target_cdb_len(u->name, opcode, req->cdb_len);
        req->cdb_len = sizeof(req->cdb);
    }
    if (need == 0) {
        trace_megaraid_err_target_opcode(u->name, opcode);
        mr_sense_bad_opcode(&s);
        mr_target_fail(req, &s);
        return;
    }
    if (req->cdb_len < need) {
        /* the bytes the guest did not send read as zero */
        trace_megaraid_ub_target_cdb_len(u->name, opcode, req->cdb_len);
        memset(req->cdb + req->cdb_len, 0, sizeof(req->cdb) - req->cdb_len);
    }
    if (req->lun != 0 && !mr_opcode_any_lun(opcode)) {
        trace_megaraid_err_target_lun(u->name, req->lun, opcode);
        mr_sense_set(&s, ILLEGAL_REQUEST, 0x25, 0x00);
        mr_target_fail(req, &s);
        return;
    }

    if (u->ses) {
        mr_ses_execute(req);            /* an enclosure's SES device */
        return;
    }
    if (mr_target_emulate(req)) {
        return;
    }

    switch (opcode) {
    case TEST_UNIT_READY:
        if (!mr_target_ready(req, &s)) {
            mr_target_fail(req, &s);
            return;
        }
        mr_target_good(req);
        return;
    case REQUEST_SENSE:
        mr_target_request_sense(req);
        return;
    case START_STOP:
        mr_target_start_stop(req);
        return;
    case MODE_SELECT:
    case MODE_SELECT_10:
        mr_target_mode_select(req);
        return;
    case LOG_SELECT:
        mr_target_log_select(req);
        return;
    case SEND_DIAGNOSTIC:
        mr_target_send_diag(req);
        return;
    case READ_6:
    case READ_10:
    case READ_12:
    case READ_16:
    case WRITE_6:
    case WRITE_10:
    case WRITE_12:
    case WRITE_16:
    case WRITE_VERIFY_10:
    case WRITE_VERIFY_12:
    case WRITE_VERIFY_16:
        mr_target_rw(req);
        return;
    case VERIFY_10:
    case VERIFY_12:
    case VERIFY_16:
        mr_target_verify(req);
        return;
    case SYNCHRONIZE_CACHE:
    case SYNCHRONIZE_CACHE_16:
        mr_target_sync(req);
        return;
    case WRITE_SAME_10:
    case WRITE_SAME_16:
        mr_target_write_same(req);
        return;
    case UNMAP:
        mr_target_unmap(req);
        return;
    case ATA_PASSTHROUGH_12:
    case ATA_PASSTHROUGH_16:
        if (u->iface == MR_IF_SATA) {
            mr_target_ata_pt(req);
            return;
        }
        break;
    }
    trace_megaraid_err_target_opcode(u->name, opcode);
    mr_sense_bad_opcode(&s);
    mr_target_fail(req, &s);
}

void mr_target_cancel(MRTargetReq *req)
{
    trace_megaraid_target_cancel(req->unit->name, req->cdb[0]);
    req->cancelled = true;
    if (mr_drive_fault_cancel(req)) {
        return;
    }
    if (req->timing && mr_target_timing_cancel(req)) {
        return;
    }
    mr_target_io_cancel(req);
}
