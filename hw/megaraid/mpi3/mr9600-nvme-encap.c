/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's NVMe ENCAPSULATED request, the path
 * management tools take (through mpi3mr's BSG MPI pass-through) to send
 * an NVMe command to an NVMe drive in a bay.  Owns the decoding of the
 * 64-byte submission queue entry, the walk of its data pointer as the
 * drive would do it (PRP1/PRP2 with a chained PRP list in the drive's
 * page size, or an NVMe SGL: data block, segment and last segment
 * descriptors; the MPI3 SGEs play no part, the driver builds none), the
 * admin commands the firmware answers for the drive (Identify: controller,
 * namespace, active namespace list, namespace identification descriptors;
 * Get Log Page: error information, SMART / health, firmware slot, the
 * health numbers the drive's SCSI logs report, the drive's log of the
 * commands that failed), the NVM commands Read,
 * Write and Flush, translated to the drive's SCSI target so they take
 * the JBOD's own data path, and the completion: a success descriptor, or
 * the NVMe completion queue entry in an MPI3 NVMe encapsulated error
 * reply when the command failed or the request asks for it always.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

/* NVMe status: SC in bits 7:0, SCT in 10:8, DNR bit 14 */
#define NVME_SCT(sct, sc)           (((sct) << 8) | (sc))
#define NVME_DNR                    0x4000
#define NVME_SUCCESS                0x0000
#define NVME_INVALID_OPCODE         (NVME_SCT(0, 0x01) | NVME_DNR)
#define NVME_INVALID_FIELD          (NVME_SCT(0, 0x02) | NVME_DNR)
#define NVME_DATA_TRANSFER_ERROR    NVME_SCT(0, 0x04)
#define NVME_INTERNAL_ERROR         NVME_SCT(0, 0x06)
#define NVME_ABORT_REQUESTED        NVME_SCT(0, 0x07)
#define NVME_INVALID_NSID           (NVME_SCT(0, 0x0b) | NVME_DNR)
#define NVME_SGL_INVALID_COUNT      (NVME_SCT(0, 0x0e) | NVME_DNR)
#define NVME_SGL_INVALID_DATA_LEN   (NVME_SCT(0, 0x0f) | NVME_DNR)
#define NVME_SGL_INVALID_TYPE       (NVME_SCT(0, 0x11) | NVME_DNR)
#define NVME_INVALID_PRP_OFFSET     (NVME_SCT(0, 0x13) | NVME_DNR)
#define NVME_LBA_RANGE              (NVME_SCT(0, 0x80) | NVME_DNR)
#define NVME_NS_NOT_READY           NVME_SCT(0, 0x82)
#define NVME_INVALID_LOG_PAGE       (NVME_SCT(1, 0x09) | NVME_DNR)
#define NVME_READ_ONLY              (NVME_SCT(1, 0x82) | NVME_DNR)
#define NVME_WRITE_FAULT            NVME_SCT(2, 0x80)
#define NVME_UNRECOVERED_READ       NVME_SCT(2, 0x81)

/* opcodes: admin queue, then I/O queue */
#define NVME_ADM_GET_LOG_PAGE       0x02
#define NVME_ADM_IDENTIFY           0x06
#define NVME_CMD_FLUSH              0x00
#define NVME_CMD_WRITE              0x01
#define NVME_CMD_READ               0x02

#define NVME_ID_CNS_NS              0x00
#define NVME_ID_CNS_CTRL            0x01
#define NVME_ID_CNS_NS_ACTIVE_LIST  0x02
#define NVME_ID_CNS_NS_DESCR_LIST   0x03
#define NVME_IDENTIFY_BYTES         4096

#define NVME_LOG_ERROR_INFO         0x01
#define NVME_LOG_SMART_INFO         0x02
#define NVME_LOG_FW_SLOT_INFO       0x03
#define NVME_ERROR_LOG_ENTRIES      MR_NVME_ERROR_LOG   /* ELPE + 1 */
#define NVME_LOG_MAX_BYTES          512

#define NVME_MPSMIN                 4096    /* CAP.MPSMIN: MDTS unit */
#define NVME_NSID_ALL               0xffffffffu

/* Bounds of the walks (the driver uses one PRP list page, one segment) */
#define MR_NVME_MAX_PRP_LISTS       4
#define MR_NVME_MAX_SGL_SEGMENTS    8
#define MR_NVME_MAX_SGL_DESCS       512     /* one 8 KiB segment */

#define NVME_SGL_DATA_BLOCK         0x0
#define NVME_SGL_SEGMENT            0x2
#define NVME_SGL_LAST_SEGMENT       0x3

/* The submission queue entry's fields this file uses */
typedef struct MRNvmeCmd {
    uint8_t opcode;
    uint8_t fuse;
    uint8_t psdt;
    uint16_t cid;
    uint32_t nsid;
    const uint8_t *dptr;        /* 16 bytes: PRP1, PRP2 or SGL1 */
    uint32_t cdw[16];
} MRNvmeCmd;

typedef struct QEMU_PACKED MRNvmeSglDesc {
    uint64_t addr;
    uint32_t len;
    uint8_t reserved[3];
    uint8_t id;                 /* type 7:4, subtype 3:0 */
} MRNvmeSglDesc;
QEMU_BUILD_BUG_ON(sizeof(MRNvmeSglDesc) != 16);

static void mr_nvme_decode(const uint8_t *sqe, MRNvmeCmd *c)
{
    for (int i = 0; i < 16; i++) {
        c->cdw[i] = ldl_le_p(sqe + 4 * i);
    }
    c->opcode = c->cdw[0] & 0xff;
    c->fuse = (c->cdw[0] >> 8) & 3;
    c->psdt = (c->cdw[0] >> 14) & 3;
    c->cid = c->cdw[0] >> 16;
    c->nsid = c->cdw[1];
    c->dptr = sqe + 24;
}

/* ---- data pointer walks ---- */

static uint16_t mr_nvme_add(MR9600State *s, QEMUSGList *sg, uint64_t addr,
                            uint64_t len)
{
    if (!mr9600_dma_ok(s, addr, len)) {
        trace_megaraid_9600_err_nvme_dma(addr, len);
        return NVME_DATA_TRANSFER_ERROR;
    }
    qemu_sglist_add(sg, addr, len);
    return NVME_SUCCESS;
}

/* Read n entries of a PRP list or SGL segment from guest memory. */
static uint16_t mr_nvme_read_list(MR9600State *s, uint64_t addr, void *buf,
                                  uint32_t bytes)
{
    if (!mr9600_dma_ok(s, addr, bytes) ||
        pci_dma_read(PCI_DEVICE(s), addr, buf, bytes)) {
        trace_megaraid_9600_err_nvme_dma(addr, bytes);
        return NVME_DATA_TRANSFER_ERROR;
    }
    return NVME_SUCCESS;
}

/*
 * PRP1 (dword aligned, up to the end of its page), then PRP2: the second
 * page, or when more than one page is left a PRP list (qword aligned);
 * the last entry of a full list page points to the next one.  Entries
 * other than PRP1 start a page.
 */
static uint16_t mr_nvme_map_prp(MR9600State *s, uint32_t psz,
                                const MRNvmeCmd *c, uint32_t len,
                                QEMUSGList *sg)
{
    uint64_t prp1 = ldq_le_p(c->dptr), list = ldq_le_p(c->dptr + 8);
    g_autofree uint64_t *ent = NULL;
    uint32_t first, rem, hops = 0;
    uint16_t st;

    if (prp1 & 3) {
        trace_megaraid_9600_err_nvme_prp_offset(prp1);
        return NVME_INVALID_PRP_OFFSET;
    }
    first = MIN(len, psz - (prp1 & (psz - 1)));
    st = mr_nvme_add(s, sg, prp1, first);
    rem = len - first;
    if (st || !rem) {
        return st;
    }
    if (rem <= psz) {
        if (list & (psz - 1)) {
            trace_megaraid_9600_err_nvme_prp_offset(list);
            return NVME_INVALID_PRP_OFFSET;
        }
        return mr_nvme_add(s, sg, list, rem);
    }
    if (list & 7) {
        trace_megaraid_9600_err_nvme_prp_offset(list);
        return NVME_INVALID_PRP_OFFSET;
    }
    ent = g_new(uint64_t, psz / 8);
    while (rem) {
        uint32_t slots = (psz - (list & (psz - 1))) / 8;
        uint32_t need = DIV_ROUND_UP(rem, psz);
        bool chain = need > slots;
        uint32_t n = chain ? slots : need;

        if (++hops > MR_NVME_MAX_PRP_LISTS || (chain && slots < 2)) {
            trace_megaraid_9600_err_nvme_prp_list(list, hops);
            return NVME_INVALID_FIELD;
        }
        st = mr_nvme_read_list(s, list, ent, n * 8);
        if (st) {
            return st;
        }
        for (uint32_t i = 0; i < n - chain; i++) {
            uint64_t e = le64_to_cpu(ent[i]);
            uint32_t l = MIN(rem, psz);

            if (e & (psz - 1)) {
                trace_megaraid_9600_err_nvme_prp_offset(e);
                return NVME_INVALID_PRP_OFFSET;
            }
            st = mr_nvme_add(s, sg, e, l);
            if (st) {
                return st;
            }
            rem -= l;
        }
        if (chain) {
            list = le64_to_cpu(ent[n - 1]);
            if (list & (psz - 1)) {
                trace_megaraid_9600_err_nvme_prp_offset(list);
                return NVME_INVALID_PRP_OFFSET;
            }
        }
    }
    return NVME_SUCCESS;
}

/*
 * SGL1, then the segments it leads to: data block descriptors (address
 * subtype) describe the data; a segment or last segment descriptor, the
 * last of its list, points to the next list (none after a last segment).
 */
static uint16_t mr_nvme_map_sgl(MR9600State *s, const MRNvmeCmd *c,
                                uint32_t len, QEMUSGList *sg)
{
    g_autofree MRNvmeSglDesc *seg = g_new(MRNvmeSglDesc, 1);
    uint32_t n = 1, hops = 0;
    uint64_t total = 0;
    bool last = false, more = true;
    uint16_t st;

    memcpy(seg, c->dptr, sizeof(*seg));
    while (more) {
        more = false;
        for (uint32_t i = 0; i < n && !more; i++) {
            uint8_t type = seg[i].id >> 4, sub = seg[i].id & 0xf;
            uint64_t addr = le64_to_cpu(seg[i].addr);
            uint32_t dlen = le32_to_cpu(seg[i].len);

            if (type == NVME_SGL_DATA_BLOCK && sub == 0) {
                uint32_t l = MIN((uint64_t)dlen, len - total);

                if (l) {
                    st = mr_nvme_add(s, sg, addr, l);
                    if (st) {
                        return st;
                    }
                    total += l;
                }
                continue;
            }
            if ((type != NVME_SGL_SEGMENT && type != NVME_SGL_LAST_SEGMENT) ||
                sub != 0 || last || i != n - 1) {
                trace_megaraid_9600_err_nvme_sgl_desc(seg[i].id, i);
                return NVME_SGL_INVALID_TYPE;
            }
            if (!dlen || dlen % sizeof(MRNvmeSglDesc) ||
                dlen > MR_NVME_MAX_SGL_DESCS * sizeof(MRNvmeSglDesc) ||
                ++hops > MR_NVME_MAX_SGL_SEGMENTS) {
                trace_megaraid_9600_err_nvme_sgl_segment(addr, dlen, hops);
                return NVME_SGL_INVALID_COUNT;
            }
            last = type == NVME_SGL_LAST_SEGMENT;
            n = dlen / sizeof(MRNvmeSglDesc);
            g_free(seg);
            seg = g_new(MRNvmeSglDesc, n);
            st = mr_nvme_read_list(s, addr, seg, dlen);
            if (st) {
                return st;
            }
            more = true;
        }
    }
    if (total < len) {
        trace_megaraid_9600_err_nvme_sgl_short(total, len);
        return NVME_SGL_INVALID_DATA_LEN;
    }
    return NVME_SUCCESS;
}

static uint16_t mr_nvme_map(MR9600State *s, MRDrive *d, const MRNvmeCmd *c,
                            uint32_t len, QEMUSGList *sg)
{
    if (len > d->nvme_mdts) {
        trace_megaraid_9600_err_nvme_mdts(len, d->nvme_mdts);
        return NVME_INVALID_FIELD;
    }
    if (!len) {
        return NVME_SUCCESS;
    }
    switch (c->psdt) {
    case 0:
        return mr_nvme_map_prp(s, d->nvme_page_size, c, len, sg);
    case 1:
    case 2:
        return mr_nvme_map_sgl(s, c, len, sg);
    default:
        trace_megaraid_9600_err_nvme_psdt(c->psdt);
        return NVME_INVALID_FIELD;
    }
}

/* ---- completion ---- */

/* A failed command goes into the drive's error information log. */
static void mr_nvme_log_error(MR9600Request *r, uint16_t st, bool admin)
{
    MRDrive *d = r->nvme_drive;
    uint8_t *e = d->nvme_error_log[0];

    memmove(d->nvme_error_log[1], d->nvme_error_log[0],
            sizeof(d->nvme_error_log[0]) * (MR_NVME_ERROR_LOG - 1));
    memset(e, 0, sizeof(d->nvme_error_log[0]));
    stq_le_p(e, ++d->nvme_error_count);
    stw_le_p(e + 8, admin ? 0 : 1);             /* SQID */
    stw_le_p(e + 10, r->nvme_cid);
    stw_le_p(e + 12, st << 1 | 1);              /* status, phase tag */
    stw_le_p(e + 14, 0xffff);                   /* no parameter location */
    stq_le_p(e + 16, r->nvme_lba);
    stl_le_p(e + 24, r->nvme_nsid);
}

static void mr_nvme_complete(MR9600State *s, MR9600Request *r, uint16_t st,
                             uint32_t dw0)
{
    MPI3NVMeEncapErrorReply rep = { 0 };
    bool admin = r->nvme_flags & MPI3_NVME_FLAGS_SUBMISSIONQ_ADMIN;
    uint16_t tag = r->host_tag;
    uint16_t flags = r->nvme_flags;
    uint16_t cid = r->nvme_cid;
    MR9600TaskMgmt *tm = r->tm;

    trace_megaraid_9600_nvme_encap_done(tag, r->dev_handle, r->nvme_opcode,
                                        st);
    if (st != NVME_SUCCESS && st != NVME_ABORT_REQUESTED) {
        mr_nvme_log_error(r, st, admin);
    }
    mr9600_request_release(s, r);
    if (tm && st == NVME_ABORT_REQUESTED) {
        tm->termination_count++;
    }
    /* a task management request waits for this reply: a frame carries it */
    if (st == NVME_SUCCESS && !tm &&
        !(flags & MPI3_NVME_FLAGS_FORCE_ADMIN_ERR_REPLY_ALL)) {
        mr9600_post_success(s, 0, tag);
        return;
    }
    rep.hdr.host_tag = cpu_to_le16(tag);
    rep.hdr.function = MPI3_FUNCTION_NVME_ENCAPSULATED;
    rep.hdr.ioc_status = cpu_to_le16(MPI3_IOCSTATUS_SUCCESS);
    rep.nvme_completion_entry[0] = cpu_to_le32(dw0);
    /* SQ identifier (admin 0, the drive's first I/O queue 1), SQ head 0 */
    rep.nvme_completion_entry[2] = cpu_to_le32((admin ? 0 : 1) << 16);
    /* command identifier, phase tag 1, status */
    rep.nvme_completion_entry[3] = cpu_to_le32(cid | 1u << 16 |
                                               (uint32_t)st << 17);
    mr9600_post_frame(s, 0, &rep, sizeof(rep), tm);
}

/* A command answered from a buffer (Identify, Get Log Page): copy it out. */
static uint16_t mr_nvme_to_host(MR9600State *s, MRDrive *d, MR9600Request *r,
                                const MRNvmeCmd *c, const void *buf,
                                uint32_t len)
{
    dma_addr_t resid = 0;
    uint16_t st = mr_nvme_map(s, d, c, len, &r->sg);

    if (st) {
        return st;
    }
    if (dma_buf_read((void *)buf, len, &resid, &r->sg,
                     MEMTXATTRS_UNSPECIFIED) != MEMTX_OK || resid) {
        trace_megaraid_9600_err_nvme_dma(0, len);
        return NVME_DATA_TRANSFER_ERROR;
    }
    return NVME_SUCCESS;
}

/* ---- admin commands ---- */

static void mr_nvme_put_str(uint8_t *dst, const char *src, size_t n)
{
    size_t l = src ? MIN(strlen(src), n) : 0;

    memset(dst, ' ', n);
    if (l) {
        memcpy(dst, src, l);
    }
}

static void mr_nvme_id_ctrl(MRDrive *d, uint8_t *b)
{
    MRUnit *u = &d->unit;
    MRUnitHealth h;
    uint32_t oui = (u->wwn >> 36) & 0xffffff;

    mr_target_health(u, &h);
    stw_le_p(b + 0, 0x1b36);            /* VID: QEMU's PCI vendor id */
    stw_le_p(b + 2, 0x1b36);            /* SSVID */
    mr_nvme_put_str(b + 4, u->serial, 20);
    mr_nvme_put_str(b + 24, u->model, 40);
    mr_nvme_put_str(b + 64, u->firmware, 8);
    b[72] = 6;                          /* RAB */
    b[73] = oui;                        /* IEEE OUI, least significant first */
    b[74] = oui >> 8;
    b[75] = oui >> 16;
    b[77] = ctz32(d->nvme_mdts / NVME_MPSMIN);  /* MDTS, in MPSMIN units */
    stw_le_p(b + 78, 1);                /* CNTLID */
    stl_le_p(b + 80, 0x00010400);       /* VER 1.4 */
    b[258] = 3;                         /* ACL */
    b[259] = 3;                         /* AERL */
    b[260] = 0x02;                      /* FRMW: one slot, slot 1 */
    b[261] = 0x01;                      /* LPA: SMART log per namespace */
    b[262] = NVME_ERROR_LOG_ENTRIES - 1;    /* ELPE */
    stw_le_p(b + 266, h.trip_c + 273);  /* WCTEMP, Kelvin */
    stw_le_p(b + 268, h.trip_c + 273 + 10);     /* CCTEMP */
    b[512] = 0x66;                      /* SQES: 64 bytes */
    b[513] = 0x44;                      /* CQES: 16 bytes */
    stl_le_p(b + 516, 1);               /* NN */
    b[525] = 0x01;                      /* VWC: volatile write cache */
    stl_le_p(b + 536, 0x00000001);      /* SGLS: no alignment needed */
    snprintf((char *)b + 768, 256, "nqn.2026-12.org.megaraid-sim:nvme:%s",
             u->serial ? u->serial : "");
    stw_le_p(b + 2048, 2500);           /* PSD0 MP: 25 W */
}

static void mr_nvme_id_ns(MRDrive *d, uint8_t *b)
{
    MRUnit *u = &d->unit;

    stq_le_p(b + 0, u->num_blocks);     /* NSZE */
    stq_le_p(b + 8, u->num_blocks);     /* NCAP */
    stq_le_p(b + 16, u->num_blocks);    /* NUSE */
    stq_be_p(b + 120, u->wwn);          /* EUI64 */
    stl_le_p(b + 128, ctz32(u->block_size) << 16);     /* LBAF0: LBADS */
}

static uint16_t mr_nvme_identify(MR9600State *s, MRDrive *d, MR9600Request *r,
                                 const MRNvmeCmd *c)
{
    g_autofree uint8_t *b = g_malloc0(NVME_IDENTIFY_BYTES);
    uint8_t cns = c->cdw[10] & 0xff;

    switch (cns) {
    case NVME_ID_CNS_CTRL:
        mr_nvme_id_ctrl(d, b);
        break;
    case NVME_ID_CNS_NS:
    case NVME_ID_CNS_NS_DESCR_LIST:
        if (c->nsid != 1) {
            trace_megaraid_9600_err_nvme_nsid(c->opcode, c->nsid);
            return NVME_INVALID_NSID;
        }
        if (cns == NVME_ID_CNS_NS) {
            mr_nvme_id_ns(d, b);
        } else {
            b[0] = 0x01;                /* NIDT: IEEE EUI-64 */
            b[1] = 8;                   /* NIDL */
            stq_be_p(b + 4, d->unit.wwn);
        }
        break;
    case NVME_ID_CNS_NS_ACTIVE_LIST:
        if (c->nsid >= NVME_NSID_ALL - 1) {
            trace_megaraid_9600_err_nvme_nsid(c->opcode, c->nsid);
            return NVME_INVALID_NSID;
        }
        if (c->nsid < 1) {
            stl_le_p(b, 1);             /* the drive's one namespace */
        }
        break;
    default:
        trace_megaraid_9600_err_nvme_field(c->opcode, 10, c->cdw[10]);
        return NVME_INVALID_FIELD;
    }
    return mr_nvme_to_host(s, d, r, c, b, NVME_IDENTIFY_BYTES);
}

/* NVMe counts data units of 1000 512-byte blocks, rounded up */
static uint64_t mr_nvme_data_units(uint64_t blocks, uint32_t block_size)
{
    return DIV_ROUND_UP(blocks * (block_size / 512), 1000);
}

static void mr_nvme_smart_log(MRDrive *d, uint8_t *b)
{
    MRUnitHealth h;

    mr_target_health(&d->unit, &h);
    b[0] = 0;                           /* critical warning: none */
    stw_le_p(b + 1, h.temp_c + 273);    /* composite temperature, K */
    b[3] = 100;                         /* available spare, % */
    b[4] = 10;                          /* its threshold */
    b[5] = 0;                           /* percentage used */
    stq_le_p(b + 32, mr_nvme_data_units(h.blocks_read, d->unit.block_size));
    stq_le_p(b + 48, mr_nvme_data_units(h.blocks_written,
                                        d->unit.block_size));
    stq_le_p(b + 112, h.start_stop_cycles);     /* power cycles */
    stq_le_p(b + 128, h.power_on_hours);
    stq_le_p(b + 160, h.uncorrected_errors);    /* media errors */
    stq_le_p(b + 176, d->nvme_error_count);     /* error log entries */
    stw_le_p(b + 200, h.temp_c + 273);  /* temperature sensor 1 */
}

static uint16_t mr_nvme_get_log(MR9600State *s, MRDrive *d, MR9600Request *r,
                                const MRNvmeCmd *c)
{
    uint8_t lid = c->cdw[10] & 0xff;
    uint64_t numd = ((uint64_t)(c->cdw[11] & 0xffff) << 16 |
                     c->cdw[10] >> 16) + 1;
    uint64_t off = (uint64_t)c->cdw[13] << 32 | c->cdw[12];
    uint64_t len = numd * 4;
    uint8_t log[NVME_LOG_MAX_BYTES] = { 0 };
    g_autofree uint8_t *b = NULL;
    uint32_t size;

    switch (lid) {
    case NVME_LOG_ERROR_INFO:
        size = sizeof(d->nvme_error_log);
        QEMU_BUILD_BUG_ON(sizeof(d->nvme_error_log) > sizeof(log));
        memcpy(log, d->nvme_error_log, size);
        break;
    case NVME_LOG_SMART_INFO:
        if (c->nsid != 0 && c->nsid != 1 && c->nsid != NVME_NSID_ALL) {
            trace_megaraid_9600_err_nvme_nsid(c->opcode, c->nsid);
            return NVME_INVALID_NSID;
        }
        mr_nvme_smart_log(d, log);
        size = 512;
        break;
    case NVME_LOG_FW_SLOT_INFO:
        log[0] = 1;                     /* AFI: slot 1 active */
        mr_nvme_put_str(log + 8, d->unit.firmware, 8);
        size = 512;
        break;
    default:
        trace_megaraid_9600_err_nvme_field(c->opcode, 10, c->cdw[10]);
        return NVME_INVALID_LOG_PAGE;
    }
    if (off & 3 || off > size || len > d->nvme_mdts) {
        trace_megaraid_9600_err_nvme_field(c->opcode, 12, c->cdw[12]);
        return NVME_INVALID_FIELD;
    }
    b = g_malloc0(len);
    memcpy(b, log + off, MIN(len, size - off));
    return mr_nvme_to_host(s, d, r, c, b, len);
}

/* ---- NVM commands: through the drive's SCSI target ---- */

static uint16_t mr_nvme_scsi_status(const MR9600Request *r)
{
    const MRTargetReq *t = &r->treq;
    uint8_t key = 0;

    switch (t->status) {
    case MPI3_SCSI_STATUS_GOOD:
        return NVME_SUCCESS;
    case MPI3_SCSI_STATUS_TASK_ABORTED:
        return NVME_ABORT_REQUESTED;
    case MPI3_SCSI_STATUS_CHECK_CONDITION:
        break;
    default:
        return NVME_NS_NOT_READY;       /* busy, task set full: retry */
    }
    if (t->sense_len >= 3) {
        key = (t->sense[0] & 0x7f) >= 0x72 ? t->sense[1] & 0xf
                                           : t->sense[2] & 0xf;
    }
    switch (key) {
    case 0x02:                          /* NOT READY */
        return NVME_NS_NOT_READY;
    case 0x03:                          /* MEDIUM ERROR */
        return r->nvme_opcode == NVME_CMD_READ ? NVME_UNRECOVERED_READ
                                               : NVME_WRITE_FAULT;
    case 0x05:                          /* ILLEGAL REQUEST */
        return NVME_INVALID_FIELD;
    case 0x07:                          /* DATA PROTECT */
        return NVME_READ_ONLY;
    default:
        return NVME_INTERNAL_ERROR;
    }
}

static void mr_nvme_io_done(MRTargetReq *treq)
{
    MR9600Request *r = treq->opaque;
    MR9600State *s = r->s;

    if (r->generation != s->generation) {
        /* the IOC was reset while this ran: nothing is posted */
        MR9600TaskMgmt *tm = r->tm;

        mr9600_request_release(s, r);
        if (tm) {
            mr9600_tm_put(s, tm, false);
        }
        return;
    }
    mr_nvme_complete(s, r, mr_nvme_scsi_status(r), 0);
}

static uint16_t mr_nvme_io(MR9600State *s, MRDrive *d, MR9600Request *r,
                           const MRNvmeCmd *c)
{
    MRUnit *u = &d->unit;
    uint64_t slba = (uint64_t)c->cdw[11] << 32 | c->cdw[10];
    uint32_t nlb = (c->cdw[12] & 0xffff) + 1;
    uint64_t len = (uint64_t)nlb * u->block_size;
    uint8_t *cdb = r->treq.cdb;
    uint16_t st;

    if (c->opcode != NVME_CMD_FLUSH) {
        r->nvme_lba = slba;
    }
    if (c->opcode == NVME_CMD_FLUSH) {
        if (c->nsid != 1 && c->nsid != NVME_NSID_ALL) {
            trace_megaraid_9600_err_nvme_nsid(c->opcode, c->nsid);
            return NVME_INVALID_NSID;
        }
        cdb[0] = 0x35;                  /* SYNCHRONIZE CACHE (10) */
        r->treq.cdb_len = 10;
        r->treq.dir = MR_DIR_NONE;
    } else {
        if (c->nsid != 1) {
            trace_megaraid_9600_err_nvme_nsid(c->opcode, c->nsid);
            return NVME_INVALID_NSID;
        }
        if (len > d->nvme_mdts) {
            trace_megaraid_9600_err_nvme_mdts(len, d->nvme_mdts);
            return NVME_INVALID_FIELD;
        }
        if (slba >= u->num_blocks || nlb > u->num_blocks - slba) {
            trace_megaraid_9600_err_nvme_lba(slba, nlb, u->num_blocks);
            return NVME_LBA_RANGE;
        }
        st = mr_nvme_map(s, d, c, len, &r->sg);
        if (st) {
            return st;
        }
        cdb[0] = c->opcode == NVME_CMD_READ ? 0x88 : 0x8a;  /* (16) */
        if (c->cdw[12] & (1u << 30)) {
            cdb[1] = 0x08;              /* FUA */
        }
        stq_be_p(cdb + 2, slba);
        stl_be_p(cdb + 10, nlb);
        r->treq.cdb_len = 16;
        r->treq.dir = c->opcode == NVME_CMD_READ ? MR_DIR_FROM_DEVICE
                                                 : MR_DIR_TO_DEVICE;
        r->treq.sg = &r->sg;
        r->treq.data_len = len;
        r->data_length = len;
    }
    r->treq.unit = u;
    r->treq.lun = 0;
    mr_core_submit(&s->core, &r->treq, mr_nvme_io_done, r,
                   qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    return NVME_SUCCESS;
}

/* ---- the request ---- */

/*
 * The IOC's refusal of a request it cannot hand to an NVMe drive: no
 * device, not a PCIe NVMe device (SAS, SATA, a VD, the SES device), a
 * drive the host does not own (array member, spare, foreign), a frame
 * whose command is not one 64-byte submission queue entry.
 */
static uint16_t mr_nvme_check_target(MR9600State *s,
                                     const MPI3NVMeEncapRequest *req,
                                     MRDrive **dp)
{
    uint16_t handle = le16_to_cpu(req->hdr.function_dependent);
    MRUnit *u = mr9600_unit_by_handle(s, handle);

    if (!u) {
        trace_megaraid_9600_err_nvme_target(handle, "no device");
        return MPI3_IOCSTATUS_SCSI_INVALID_DEVHANDLE;
    }
    if (!u->drive || u->iface != MR_IF_NVME) {
        trace_megaraid_9600_err_nvme_target(handle, "not an NVMe drive");
        return MPI3_IOCSTATUS_INVALID_FUNCTION;
    }
    if (u->drive->in_array) {
        trace_megaraid_9600_err_nvme_target(handle, "not a JBOD");
        return MPI3_IOCSTATUS_SCSI_DEVICE_NOT_THERE;
    }
    if (le16_to_cpu(req->encapsulated_command_length) != 64) {
        trace_megaraid_9600_err_nvme_target(handle, "command length");
        return MPI3_IOCSTATUS_INVALID_FIELD;
    }
    *dp = u->drive;
    return MPI3_IOCSTATUS_SUCCESS;
}

void mr9600_nvme_encap(MR9600State *s, const uint8_t *frame)
{
    const MPI3NVMeEncapRequest *req = (const void *)frame;
    uint16_t tag = le16_to_cpu(req->hdr.host_tag);
    uint16_t flags = le16_to_cpu(req->flags);
    bool admin = flags & MPI3_NVME_FLAGS_SUBMISSIONQ_ADMIN;
    MR9600Request *r;
    MRNvmeCmd c;
    MRDrive *d = NULL;
    uint16_t st;

    mr_nvme_decode(req->command, &c);
    trace_megaraid_9600_nvme_encap(tag,
                                   le16_to_cpu(req->hdr.function_dependent),
                                   admin, c.opcode, c.cid, c.nsid, c.psdt);
    st = mr_nvme_check_target(s, req, &d);
    if (st != MPI3_IOCSTATUS_SUCCESS) {
        mr9600_reply_status(s, 0, &req->hdr, st);
        return;
    }
    r = mr9600_request_take(s, 0, tag, le16_to_cpu(req->hdr.function_dependent),
                            0);
    r->nvme_cid = c.cid;
    r->nvme_flags = flags;
    r->nvme_opcode = c.opcode;
    r->nvme_nsid = c.nsid;
    r->nvme_lba = 0;
    r->nvme_drive = d;
    if (c.fuse) {
        trace_megaraid_9600_err_nvme_field(c.opcode, 0, c.cdw[0]);
        st = NVME_INVALID_FIELD;
    } else if (admin && c.opcode == NVME_ADM_IDENTIFY) {
        st = mr_nvme_identify(s, d, r, &c);
    } else if (admin && c.opcode == NVME_ADM_GET_LOG_PAGE) {
        st = mr_nvme_get_log(s, d, r, &c);
    } else if (!admin && (c.opcode == NVME_CMD_READ ||
                          c.opcode == NVME_CMD_WRITE ||
                          c.opcode == NVME_CMD_FLUSH)) {
        st = mr_nvme_io(s, d, r, &c);
        if (st == NVME_SUCCESS) {
            return;                     /* mr_nvme_io_done completes it */
        }
    } else {
        trace_megaraid_9600_err_nvme_opcode(admin, c.opcode);
        st = NVME_INVALID_OPCODE;
    }
    mr_nvme_complete(s, r, st, 0);
}
