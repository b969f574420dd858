/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the SCSI target's medium access on the drive's
 * BlockBackend: READ/WRITE (6/10/12/16) and WRITE AND VERIFY through the
 * dma helpers, SYNCHRONIZE CACHE, and the coroutine-driven VERIFY, WRITE
 * SAME and UNMAP.  Range, direction and buffer-length checks come first;
 * backend errors become MEDIUM ERROR sense.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/coroutine.h"
#include "qemu/cutils.h"
#include "scsi/constants.h"
#include "system/block-backend.h"
#include "hw/megaraid/target.h"
#include "target-int.h"
#include "trace.h"

#define MR_CHUNK_BYTES  (1 * MiB)

typedef struct MRIOCmd {
    MRTargetReq *req;
    uint64_t lba;
    uint32_t nblocks;
    MRSense sense;
} MRIOCmd;

void mr_cdb_lba_len(const uint8_t *cdb, uint64_t *lba, uint32_t *len,
                    uint16_t *len_byte)
{
    switch (cdb[0] >> 5) {
    case 0:
        *lba = ((cdb[1] & 0x1f) << 16) | (cdb[2] << 8) | cdb[3];
        *len = cdb[4] ? cdb[4] : 256;
        *len_byte = 4;
        break;
    case 1:
    case 2:
        *lba = mr_get32(cdb + 2);
        *len = mr_get16(cdb + 7);
        *len_byte = 7;
        break;
    case 5:
        *lba = mr_get32(cdb + 2);
        *len = mr_get32(cdb + 6);
        *len_byte = 6;
        break;
    default:
        *lba = mr_get64(cdb + 2);
        *len = mr_get32(cdb + 10);
        *len_byte = 10;
        break;
    }
}

static bool mr_check_range(MRTargetReq *req, uint64_t lba, uint64_t n,
                           MRSense *s)
{
    uint64_t num = req->unit->num_blocks;

    if (lba > num || n > num - lba) {
        trace_megaraid_err_target_lba_range(req->unit->name, req->cdb[0],
                                            lba, n, num);
        mr_sense_set(s, ILLEGAL_REQUEST, 0x21, 0x00);
        return false;
    }
    return true;
}

static void mr_io_error(MRTargetReq *req, int ret, bool write, uint64_t lba)
{
    MRUnit *u = req->unit;
    MRSense s;

    if (ret == -ECANCELED) {
        mr_target_aborted(req);
        return;
    }
    trace_megaraid_err_target_io(u->name, req->cdb[0], lba, ret);
    switch (-ret) {
    case ENOMEDIUM:
        mr_sense_set(&s, NOT_READY, 0x3a, 0x00);
        break;
    case EROFS:
    case EACCES:
    case EPERM:
        mr_sense_set(&s, DATA_PROTECT, 0x27, 0x00);
        break;
    default:
        if (write) {
            u->ts.write_errors++;
            mr_sense_set(&s, MEDIUM_ERROR, 0x0c, 0x00);
        } else {
            u->ts.read_errors++;
            mr_sense_set(&s, MEDIUM_ERROR, 0x11, 0x00);
        }
        s.info_valid = true;
        s.info = lba;
        break;
    }
    mr_target_fail(req, &s);
}

bool mr_target_is_write(uint8_t opcode)
{
    switch (opcode) {
    case WRITE_6:
    case WRITE_10:
    case WRITE_12:
    case WRITE_16:
    case WRITE_VERIFY_10:
    case WRITE_VERIFY_12:
    case WRITE_VERIFY_16:
        return true;
    }
    return false;
}

static BlockAIOCB *mr_dma_readv(int64_t offset, QEMUIOVector *iov,
                                BlockCompletionFunc *cb, void *cb_opaque,
                                void *opaque)
{
    MRTargetReq *req = opaque;

    return mr_medium_aio_preadv(req->unit, offset, iov, cb, cb_opaque);
}

static BlockAIOCB *mr_dma_writev(int64_t offset, QEMUIOVector *iov,
                                 BlockCompletionFunc *cb, void *cb_opaque,
                                 void *opaque)
{
    MRTargetReq *req = opaque;

    return mr_medium_aio_pwritev(req->unit, offset, iov, req->fua, cb,
                                 cb_opaque);
}

static void mr_rw_complete(void *opaque, int ret)
{
    MRTargetReq *req = opaque;
    MRUnit *u = req->unit;
    BlockAcctStats *stats = mr_medium_stats(u);
    bool write = mr_target_is_write(req->cdb[0]);

    req->aiocb = NULL;
    if (req->own_qsg) {
        qemu_sglist_destroy(&req->qsg);
        req->own_qsg = false;
    }
    if (ret < 0) {
        if (stats) {
            block_acct_failed(stats, &req->acct);
        }
        mr_io_error(req, ret, write, req->lba);
        return;
    }
    if (stats) {
        block_acct_done(stats, &req->acct);
    }
    if (write) {
        u->ts.blocks_written += req->nblocks;
    } else {
        u->ts.blocks_read += req->nblocks;
    }
    req->xfer_count = req->nblocks * u->block_size;
    mr_target_good(req);
}

/*
 * The QEMUSGList covering exactly bytes of the guest's buffer: the
 * request's own when it has that size, else a trimmed copy.
 */
static QEMUSGList *mr_trim_sg(MRTargetReq *req, uint64_t bytes)
{
    QEMUSGList *sg = req->sg;
    int i;

    if (sg->size == bytes) {
        return sg;
    }
    qemu_sglist_init(&req->qsg, sg->dev, sg->nsg, sg->as);
    for (i = 0; i < sg->nsg && bytes; i++) {
        dma_addr_t len = MIN(sg->sg[i].len, bytes);

        qemu_sglist_add(&req->qsg, sg->sg[i].base, len);
        bytes -= len;
    }
    req->own_qsg = true;
    return &req->qsg;
}

/* READ and WRITE (6/10/12/16), WRITE AND VERIFY (10/12/16). */
void mr_target_rw(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    const uint8_t *cdb = req->cdb;
    bool write = mr_target_is_write(cdb[0]);
    uint16_t len_byte;
    uint64_t lba, bytes;
    uint32_t n;
    QEMUSGList *sg;
    MRSense s;

    if (!mr_target_ready(req, &s)) {
        goto fail;
    }
    if ((cdb[0] >> 5) != 0 && (cdb[1] & 0xe0)) {
        /* RDPROTECT/WRPROTECT: no protection information */
        trace_megaraid_err_target_protect(u->name, cdb[0]);
        mr_sense_bad_cdb(&s, 1, 7);
        goto fail;
    }
    mr_cdb_lba_len(cdb, &lba, &n, &len_byte);
    if (!mr_check_range(req, lba, n, &s)) {
        goto fail;
    }
    if (write && u->read_only) {
        trace_megaraid_err_target_read_only(u->name, cdb[0]);
        mr_sense_set(&s, DATA_PROTECT, 0x27, 0x00);
        goto fail;
    }
    req->lba = lba;
    req->nblocks = n;
    bytes = (uint64_t)n * u->block_size;
    if (bytes == 0) {
        mr_target_good(req);
        return;
    }
    if (req->dir != (write ? MR_DIR_TO_DEVICE : MR_DIR_FROM_DEVICE)) {
        trace_megaraid_err_target_dir(u->name, cdb[0], req->dir);
        mr_sense_bad_cdb(&s, 0, -1);
        goto fail;
    }
    if (mr_target_avail(req) < bytes) {
        trace_megaraid_err_target_overrun(u->name, cdb[0], bytes,
                                          mr_target_avail(req));
        mr_sense_bad_cdb(&s, len_byte, -1);
        goto fail;
    }
    /*
     * FUA (not in 6-byte CDBs), or write-through when a drive's WCE is
     * clear; a VD's cache follows its write policy (array-cache.c).
     */
    req->fua = write && (((cdb[0] >> 5) != 0 && (cdb[1] & 0x08)) ||
                         (!u->ts.wce && !u->vd));
    sg = mr_trim_sg(req, bytes);
    trace_megaraid_target_rw(u->name, write, lba, n, req->fua);
    if (mr_medium_stats(u)) {
        block_acct_start(mr_medium_stats(u), &req->acct, bytes,
                         write ? BLOCK_ACCT_WRITE : BLOCK_ACCT_READ);
    }
    req->aiocb = dma_blk_io(sg, lba * u->block_size, u->block_size,
                            write ? mr_dma_writev : mr_dma_readv, req,
                            mr_rw_complete, req,
                            write ? DMA_DIRECTION_TO_DEVICE :
                                    DMA_DIRECTION_FROM_DEVICE);
    return;

fail:
    mr_target_fail(req, &s);
}

static void mr_flush_complete(void *opaque, int ret)
{
    MRTargetReq *req = opaque;

    req->aiocb = NULL;
    if (ret < 0) {
        mr_io_error(req, ret, true, 0);
        return;
    }
    mr_target_good(req);
}

/* SYNCHRONIZE CACHE (10/16): the range is checked, the whole cache flushed. */
void mr_target_sync(MRTargetReq *req)
{
    MRUnit *u = req->unit;
    uint16_t len_byte;
    uint64_t lba;
    uint32_t n;
    MRSense s;

    if (!mr_target_ready(req, &s)) {
        mr_target_fail(req, &s);
        return;
    }
    mr_cdb_lba_len(req->cdb, &lba, &n, &len_byte);
    if (!mr_check_range(req, lba, n, &s)) {
        mr_target_fail(req, &s);
        return;
    }
    trace_megaraid_target_sync(u->name, lba, n);
    req->aiocb = mr_medium_aio_flush(u, mr_flush_complete, req);
}

/* START STOP UNIT with START=0: flush before stopping. */
void mr_target_stop_flush(MRTargetReq *req)
{
    req->aiocb = mr_medium_aio_flush(req->unit, mr_flush_complete, req);
}

bool mr_target_io_cancel(MRTargetReq *req)
{
    if (req->aiocb) {
        blk_aio_cancel_async(req->aiocb);
        return true;
    }
    return false;
}

/*
 * Coroutine commands.  Each body returns 0 for GOOD, 1 with c->sense
 * filled for CHECK CONDITION, or a negative errno from the backend (with
 * c->lba the failing LBA).
 */
typedef int coroutine_fn MRIOBody(MRIOCmd *c);

typedef struct MRIOCo {
    MRIOCmd cmd;
    MRIOBody *body;
    bool write;
} MRIOCo;

static void coroutine_fn mr_io_co_entry(void *opaque)
{
    MRIOCo *co = opaque;
    MRTargetReq *req = co->cmd.req;
    MRUnit *u = req->unit;
    int ret = co->body(&co->cmd);

    if (ret == 0 && req->cancelled) {
        ret = -ECANCELED;
    }
    if (ret < 0) {
        mr_io_error(req, ret, co->write, co->cmd.lba);
    } else if (ret > 0) {
        mr_target_fail(req, &co->cmd.sense);
    } else {
        mr_target_good(req);
    }
    g_free(co);
    mr_medium_dec_in_flight(u);
}

static void mr_io_co_start(MRTargetReq *req, MRIOBody *body, bool write)
{
    MRIOCo *co = g_new0(MRIOCo, 1);
    Coroutine *c;

    co->cmd.req = req;
    co->body = body;
    co->write = write;
    /* counted in flight, so that draining the drive waits for it */
    mr_medium_inc_in_flight(req->unit);
    c = qemu_coroutine_create(mr_io_co_entry, co);
    aio_co_enter(req->unit->vd ? qemu_get_aio_context() :
                 blk_get_aio_context(req->unit->drive->conf.blk), c);
}

static int coroutine_fn mr_verify_body(MRIOCmd *c)
{
    MRTargetReq *req = c->req;
    MRUnit *u = req->unit;
    uint8_t bytchk = (req->cdb[1] >> 1) & 3;
    uint32_t bs = u->block_size;
    uint16_t len_byte;
    uint64_t lba, done = 0, total;
    uint32_t n;
    g_autofree uint8_t *media = NULL;
    g_autofree uint8_t *data = NULL;
    int ret;

    if (!mr_target_ready(req, &c->sense)) {
        return 1;
    }
    if (req->cdb[1] & 0xe0) {
        mr_sense_bad_cdb(&c->sense, 1, 7);
        return 1;
    }
    if (bytchk == 2) {
        mr_sense_bad_cdb(&c->sense, 1, 2);
        return 1;
    }
    mr_cdb_lba_len(req->cdb, &lba, &n, &len_byte);
    if (!mr_check_range(req, lba, n, &c->sense)) {
        return 1;
    }
    total = (uint64_t)n * bs;
    trace_megaraid_target_verify(u->name, lba, n, bytchk);
    if (n == 0) {
        return 0;
    }
    if (bytchk) {
        uint64_t want = bytchk == 1 ? total : bs;

        if (want > MR_MAX_VERIFY_BYTES) {
            trace_megaraid_err_target_verify_len(u->name, n);
            mr_sense_bad_cdb(&c->sense, len_byte, -1);
            return 1;
        }
        data = g_malloc(want);
        if (mr_target_fetch(req, data, want) < want) {
            trace_megaraid_err_target_overrun(u->name, req->cdb[0], want,
                                              req->xfer_count);
            mr_sense_bad_cdb(&c->sense, len_byte, -1);
            return 1;
        }
    }
    media = g_malloc(MIN(total, MR_CHUNK_BYTES));
    while (done < total) {
        uint32_t chunk = MIN(total - done, MR_CHUNK_BYTES);
        uint32_t i;

        if (req->cancelled) {
            return -ECANCELED;
        }
        c->lba = lba + done / bs;
        ret = mr_medium_co_pread(u, lba * bs + done, chunk, media);
        if (ret < 0) {
            return ret;
        }
        for (i = 0; bytchk && i < chunk; i += bs) {
            const uint8_t *want = bytchk == 1 ? data + done + i : data;
            uint32_t j;

            if (memcmp(media + i, want, bs) == 0) {
                continue;
            }
            for (j = 0; media[i + j] == want[j]; j++) {
                /* find the first differing byte */
            }
            trace_megaraid_err_target_miscompare(u->name, lba, done + i + j);
            mr_sense_set(&c->sense, MISCOMPARE, 0x1d, 0x00);
            c->sense.info_valid = true;
            c->sense.info = done + i + j;
            return 1;
        }
        done += chunk;
    }
    u->ts.blocks_read += n;
    return 0;
}

void mr_target_verify(MRTargetReq *req)
{
    mr_io_co_start(req, mr_verify_body, false);
}

static int coroutine_fn mr_write_same_body(MRIOCmd *c)
{
    MRTargetReq *req = c->req;
    MRUnit *u = req->unit;
    uint32_t bs = u->block_size;
    uint8_t flags = req->cdb[1];
    bool unmap = flags & 0x08;
    bool ndob = req->cdb[0] == WRITE_SAME_16 && (flags & 0x01);
    bool fua = !u->ts.wce && !u->vd;
    g_autofree uint8_t *pattern = g_malloc0(bs);
    g_autofree uint8_t *buf = NULL;
    uint16_t len_byte;
    uint64_t lba, done, total;
    uint32_t n, i;
    int ret;

    if (!mr_target_ready(req, &c->sense)) {
        return 1;
    }
    if (flags & 0xe0) {
        mr_sense_bad_cdb(&c->sense, 1, 7);
        return 1;
    }
    if (flags & 0x10) {                         /* ANCHOR */
        mr_sense_bad_cdb(&c->sense, 1, 4);
        return 1;
    }
    if (unmap && !u->discard) {
        trace_megaraid_err_target_no_discard(u->name, req->cdb[0]);
        mr_sense_bad_cdb(&c->sense, 1, 3);
        return 1;
    }
    mr_cdb_lba_len(req->cdb, &lba, &n, &len_byte);
    if (n == 0) {                               /* WSNZ */
        mr_sense_bad_cdb(&c->sense, len_byte, -1);
        return 1;
    }
    if (!mr_check_range(req, lba, n, &c->sense)) {
        return 1;
    }
    if (u->read_only) {
        trace_megaraid_err_target_read_only(u->name, req->cdb[0]);
        mr_sense_set(&c->sense, DATA_PROTECT, 0x27, 0x00);
        return 1;
    }
    if (!ndob && mr_target_fetch(req, pattern, bs) < bs) {
        trace_megaraid_err_target_overrun(u->name, req->cdb[0], bs,
                                          req->xfer_count);
        mr_sense_set(&c->sense, ILLEGAL_REQUEST, 0x1a, 0x00);
        return 1;
    }
    c->lba = lba;
    total = (uint64_t)n * bs;
    trace_megaraid_target_write_same(u->name, lba, n, unmap, ndob);
    if (buffer_is_zero(pattern, bs)) {
        ret = mr_medium_co_zero(u, lba * bs, total, unmap, fua);
        if (ret < 0) {
            return ret;
        }
        u->ts.blocks_written += n;
        return 0;
    }
    buf = g_malloc(MIN(total, MR_CHUNK_BYTES));
    for (i = 0; i < MIN(total, MR_CHUNK_BYTES); i += bs) {
        memcpy(buf + i, pattern, bs);
    }
    for (done = 0; done < total; ) {
        uint32_t chunk = MIN(total - done, MR_CHUNK_BYTES);

        if (req->cancelled) {
            return -ECANCELED;
        }
        c->lba = lba + done / bs;
        ret = mr_medium_co_pwrite(u, lba * bs + done, chunk, buf, fua);
        if (ret < 0) {
            return ret;
        }
        done += chunk;
    }
    u->ts.blocks_written += n;
    return 0;
}

void mr_target_write_same(MRTargetReq *req)
{
    mr_io_co_start(req, mr_write_same_body, true);
}

static int coroutine_fn mr_unmap_body(MRIOCmd *c)
{
    MRTargetReq *req = c->req;
    MRUnit *u = req->unit;
    uint32_t bs = u->block_size;
    uint32_t plen = mr_get16(req->cdb + 7);
    uint32_t bdl, ndesc, i;
    g_autofree uint8_t *p = NULL;
    int ret;

    if (!mr_target_ready(req, &c->sense)) {
        return 1;
    }
    if (req->cdb[1] & 0x01) {                   /* ANCHOR */
        mr_sense_bad_cdb(&c->sense, 1, 0);
        return 1;
    }
    if (plen == 0) {
        return 0;
    }
    if (plen < 8) {
        mr_sense_set(&c->sense, ILLEGAL_REQUEST, 0x1a, 0x00);
        return 1;
    }
    if (u->read_only) {
        trace_megaraid_err_target_read_only(u->name, req->cdb[0]);
        mr_sense_set(&c->sense, DATA_PROTECT, 0x27, 0x00);
        return 1;
    }
    p = g_malloc0(plen);
    if (mr_target_fetch(req, p, plen) < plen) {
        trace_megaraid_err_target_overrun(u->name, req->cdb[0], plen,
                                          req->xfer_count);
        mr_sense_set(&c->sense, ILLEGAL_REQUEST, 0x1a, 0x00);
        return 1;
    }
    bdl = mr_get16(p + 2);
    ndesc = MIN(bdl, plen - 8) / 16;
    if (ndesc > MR_MAX_UNMAP_DESCS) {
        mr_sense_bad_param(&c->sense, 2, -1);
        return 1;
    }
    /* Check every descriptor before changing anything. */
    for (i = 0; i < ndesc; i++) {
        const uint8_t *desc = p + 8 + 16 * i;
        uint64_t lba = mr_get64(desc);
        uint32_t n = mr_get32(desc + 8);

        if (n > MR_MAX_UNMAP_BLOCKS) {
            mr_sense_bad_param(&c->sense, 8 + 16 * i + 8, -1);
            return 1;
        }
        if (!mr_check_range(req, lba, n, &c->sense)) {
            return 1;
        }
    }
    for (i = 0; i < ndesc; i++) {
        const uint8_t *desc = p + 8 + 16 * i;
        uint64_t lba = mr_get64(desc);
        uint32_t n = mr_get32(desc + 8);

        if (req->cancelled) {
            return -ECANCELED;
        }
        if (n == 0) {
            continue;
        }
        trace_megaraid_target_unmap(u->name, lba, n);
        c->lba = lba;
        ret = mr_medium_co_zero(u, lba * bs, (uint64_t)n * bs, true, false);
        if (ret < 0) {
            return ret;
        }
    }
    return 0;
}

void mr_target_unmap(MRTargetReq *req)
{
    MRSense s;

    if (!req->unit->discard) {
        trace_megaraid_err_target_no_discard(req->unit->name, req->cdb[0]);
        mr_sense_bad_opcode(&s);
        mr_target_fail(req, &s);
        return;
    }
    mr_io_co_start(req, mr_unmap_body, true);
}
