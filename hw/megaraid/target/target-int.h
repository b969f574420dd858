/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: declarations shared by the SCSI target's files
 * (target.c dispatch and media I/O, target-sense.c, target-inquiry.c,
 * target-pages.c, target-ata.c) and the drive profiles.
 *
 * The builders here are pure: they read the unit's identity and state and
 * a CDB, write a response into a caller buffer or fill an MRSense, and do
 * no I/O, so they can be unit-tested without a controller.
 */
#ifndef HW_MEGARAID_TARGET_INT_H
#define HW_MEGARAID_TARGET_INT_H

#include "hw/megaraid/drive.h"

/* Largest emulated response (VPD 89h is 572 bytes). */
#define MR_RESP_MAX 4096

/* Transfer limits the target advertises (VPD B0h). */
#define MR_MAX_XFER_BYTES       (1 * MiB)
#define MR_MAX_UNMAP_BLOCKS     (1u << 22)
#define MR_MAX_UNMAP_DESCS      255
#define MR_MAX_WSAME_BYTES      (64 * MiB)
#define MR_MAX_VERIFY_BYTES     (8 * MiB)

/* Drive temperature the target reports (Celsius). */
#define MR_TEMP_C               34
#define MR_TEMP_TRIP_C          70

typedef struct MRSense {
    uint8_t key;
    uint8_t asc;
    uint8_t ascq;
    /* sense-key specific field pointer */
    bool sks_valid;
    bool sks_cd;                /* pointer into the CDB (else parameters) */
    int8_t sks_bit;             /* bit pointer, -1 for none */
    uint16_t sks_field;
    /* INFORMATION field */
    bool info_valid;
    uint64_t info;
    /* ATA status return descriptor (descriptor code 09h), 12 bytes */
    bool ata_valid;
    uint8_t ata[12];
} MRSense;

/* target-sense.c */
void mr_sense_set(MRSense *s, uint8_t key, uint8_t asc, uint8_t ascq);
void mr_sense_bad_cdb(MRSense *s, uint16_t byte, int bit);
void mr_sense_bad_param(MRSense *s, uint16_t byte, int bit);
void mr_sense_bad_opcode(MRSense *s);
size_t mr_sense_build(const MRSense *s, bool desc, uint8_t *out,
                      size_t size);

/* target.c: completion and data helpers for the command files */
typedef struct MRTargetReq MRTargetReq;
void mr_target_good(MRTargetReq *req);
void mr_target_fail(MRTargetReq *req, const MRSense *s);
void mr_target_aborted(MRTargetReq *req);
/* Send at most @alloc bytes of the @n in @buf, then complete GOOD. */
void mr_target_send(MRTargetReq *req, const uint8_t *buf, uint32_t n,
                    uint32_t alloc);
/* target-ses.c: a command to an enclosure's SES device */
void mr_ses_execute(MRTargetReq *req);
uint32_t mr_target_avail(MRTargetReq *req);
uint32_t mr_target_fetch(MRTargetReq *req, void *buf, uint32_t len);
bool mr_target_ready(MRTargetReq *req, MRSense *s);
/* Run a submitted command (after drive fault injection let it through). */
void mr_target_execute(MRTargetReq *req);

/* drive-fault.c: fault injection on the drive's target */
bool mr_drive_fault_submit(MRTargetReq *req);
bool mr_drive_fault_cancel(MRTargetReq *req);

/* target-timing.c: the timing model's hold point (timing=on) */
bool mr_target_timing_hold(MRTargetReq *req);
bool mr_target_timing_cancel(MRTargetReq *req);

/* target-io.c: commands that access the medium */
void mr_target_rw(MRTargetReq *req);
/* WRITE(6/10/12/16) and WRITE AND VERIFY(10/12/16). */
bool mr_target_is_write(uint8_t opcode);
void mr_target_sync(MRTargetReq *req);
void mr_target_verify(MRTargetReq *req);
void mr_target_write_same(MRTargetReq *req);
void mr_target_unmap(MRTargetReq *req);
void mr_target_stop_flush(MRTargetReq *req);
bool mr_target_io_cancel(MRTargetReq *req);

/* Build results: length of the response, or -1 with *s filled. */

/* target-inquiry.c */
int mr_build_inquiry(const MRUnit *u, uint64_t lun, const uint8_t *cdb,
                     uint8_t *buf, MRSense *s);
int mr_build_read_capacity(const MRUnit *u, const uint8_t *cdb,
                           uint8_t *buf, MRSense *s);
int mr_build_report_luns(const uint8_t *cdb, uint8_t *buf, MRSense *s);
int mr_build_read_defect(const uint8_t *cdb, uint8_t *buf, MRSense *s);
void mr_inquiry_product(const MRUnit *u, char *out16);
void mr_inquiry_revision(const MRUnit *u, char *out4);

/* target-opcodes.c */
int mr_build_report_opcodes(const MRUnit *u, const uint8_t *cdb,
                            uint8_t *buf, MRSense *s);

/* target-pages.c */
int mr_build_mode_sense(const MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                        MRSense *s);
int mr_apply_mode_select(MRUnit *u, const uint8_t *cdb,
                         const uint8_t *param, uint32_t len, MRSense *s);
int mr_build_log_sense(const MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                       MRSense *s);
uint32_t mr_power_on_hours(const MRUnit *u);

/* target-ata.c: ATA PASS-THROUGH (12/16) for SATA drives */
int mr_ata_passthrough(MRUnit *u, const uint8_t *cdb, uint8_t *buf,
                       uint32_t *len_out, MRSense *s);
void mr_ata_identify(const MRUnit *u, uint16_t *id);
void mr_selftest_record(MRUnit *u, uint8_t code);

/* Big-endian store helpers on a byte buffer. */
static inline void mr_put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline void mr_put32(uint8_t *p, uint32_t v)
{
    mr_put16(p, v >> 16);
    mr_put16(p + 2, v);
}

static inline void mr_put64(uint8_t *p, uint64_t v)
{
    mr_put32(p, v >> 32);
    mr_put32(p + 4, v);
}

static inline uint16_t mr_get16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static inline uint32_t mr_get32(const uint8_t *p)
{
    return ((uint32_t)mr_get16(p) << 16) | mr_get16(p + 2);
}

static inline uint64_t mr_get64(const uint8_t *p)
{
    return ((uint64_t)mr_get32(p) << 32) | mr_get32(p + 4);
}

/* Copy s into a space-padded field of n bytes (no terminator). */
static inline void mr_pad(uint8_t *dst, const char *s, size_t n)
{
    size_t l = s ? strlen(s) : 0;

    memset(dst, ' ', n);
    memcpy(dst, s, MIN(l, n));
}

/* target-medium.c: the drive's BlockBackend or the VD behind the target */
bool mr_medium_present(MRUnit *u);
BlockAcctStats *mr_medium_stats(MRUnit *u);
BlockAIOCB *mr_medium_aio_preadv(MRUnit *u, int64_t offset,
                                 QEMUIOVector *qiov, BlockCompletionFunc *cb,
                                 void *opaque);
BlockAIOCB *mr_medium_aio_pwritev(MRUnit *u, int64_t offset,
                                  QEMUIOVector *qiov, bool fua,
                                  BlockCompletionFunc *cb, void *opaque);
BlockAIOCB *mr_medium_aio_flush(MRUnit *u, BlockCompletionFunc *cb,
                                void *opaque);
int coroutine_fn mr_medium_co_pread(MRUnit *u, int64_t offset,
                                    int64_t bytes, void *buf);
int coroutine_fn mr_medium_co_pwrite(MRUnit *u, int64_t offset,
                                     int64_t bytes, const void *buf,
                                     bool fua);
int coroutine_fn mr_medium_co_zero(MRUnit *u, int64_t offset, int64_t bytes,
                                   bool unmap, bool fua);
void mr_medium_inc_in_flight(MRUnit *u);
void mr_medium_dec_in_flight(MRUnit *u);

#endif
