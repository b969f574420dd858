/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9600's SMP PASSTHROUGH (MPI3 function 0x22,
 * sas-transport=on): an SMP request frame (without its CRC, as the host
 * sends it) from the request SGE to the expander of the SAS address, its
 * response (without CRC) to the response SGE and its length in the
 * reply.  The expander's SMP target answers REPORT GENERAL, REPORT
 * MANUFACTURER INFORMATION, DISCOVER, REPORT PHY ERROR LOG and PHY
 * CONTROL (SAS-2 frames; a request length of 0 is taken as a SAS-1.1
 * request), and every other function with UNKNOWN SMP FUNCTION.  Frames
 * no SMP target would take get an IOC status instead of a response.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "system/dma.h"
#include "mr9600.h"
#include "trace.h"

#define SMP_FRAME_MAX           1024    /* an SMP frame less its CRC */

#define SMP_REQUEST             0x40
#define SMP_RESPONSE            0x41

#define SMP_REPORT_GENERAL      0x00
#define SMP_REPORT_MANUFACTURER 0x01
#define SMP_DISCOVER            0x10
#define SMP_REPORT_PHY_ERR_LOG  0x11
#define SMP_PHY_CONTROL         0x91

#define SMP_RES_ACCEPTED        0x00
#define SMP_RES_UNKNOWN_FUNC    0x01
#define SMP_RES_FUNC_FAILED     0x02
#define SMP_RES_BAD_LENGTH      0x03
#define SMP_RES_BAD_CHANGE_CNT  0x04
#define SMP_RES_NO_PHY          0x10
#define SMP_RES_UNKNOWN_PHY_OP  0x13

#define SMP_PHY_OP_NOP          0x00
#define SMP_PHY_OP_LINK_RESET   0x01
#define SMP_PHY_OP_HARD_RESET   0x02
#define SMP_PHY_OP_DISABLE      0x03
#define SMP_PHY_OP_CLEAR_LOG    0x05
#define SMP_PHY_OP_CLEAR_AFFIL  0x06
#define SMP_PHY_OP_CLEAR_NEXUS  0x08

/* SAS link rate codes (the same numbers as MPI's) */
#define SMP_RATE_PHY_DISABLED   0x1

/* The request frame: MPI3 SMP PASSTHROUGH. */
#define SMP_REQ_IO_UNIT_PORT    0x0B
#define SMP_REQ_SAS_ADDRESS     0x18
#define SMP_REQ_REQUEST_SGE     0x20
#define SMP_REQ_RESPONSE_SGE    0x30

typedef struct MR9600SmpReply {
    MPI3DefaultReply hdr;
    uint16_t response_data_length;
    uint16_t reserved12;
} QEMU_PACKED MR9600SmpReply;

/* Each function: its request length (dwords) and response length. */
typedef struct MR9600SmpFunc {
    uint8_t function;
    uint8_t req_dwords;         /* SAS-2 REQUEST LENGTH */
    uint8_t req_bytes;          /* bytes it reads, header included */
    uint8_t resp_dwords;        /* RESPONSE LENGTH */
} MR9600SmpFunc;

static const MR9600SmpFunc mr9600_smp_funcs[] = {
    { SMP_REPORT_GENERAL, 0, 4, 0x11 },
    { SMP_REPORT_MANUFACTURER, 0, 4, 0x0E },
    { SMP_DISCOVER, 2, 12, 0x18 },
    { SMP_REPORT_PHY_ERR_LOG, 2, 12, 0x06 },
    { SMP_PHY_CONTROL, 9, 40, 0x00 },
};

static MRExpander *mr9600_smp_target(MR9600State *s, uint64_t sas_address)
{
    MRExpander *e;

    if (!mr9600_sas_on(s)) {
        return NULL;
    }
    QLIST_FOREACH(e, &s->core.bus.expanders, next) {
        if (mr9600_exp_address(s, e) == sas_address) {
            return e;
        }
    }
    return NULL;
}

static void mr9600_smp_report_general(MR9600State *s, MRExpander *e,
                                      uint8_t *r)
{
    stw_be_p(r + 4, e->change_count);
    r[8] = 0x80;                        /* long response (SAS-2) */
    r[9] = e->phys;
    stq_be_p(r + 12, mr9600_exp_address(s, e));  /* enclosure logical id */
}

static void mr9600_smp_report_manufacturer(MRExpander *e, uint8_t *r)
{
    r[8] = 0x01;                        /* SAS-1.1 format: component ids */
    strpadcpy((char *)r + 12, 8, e->vendor ?: "BROADCOM", ' ');
    strpadcpy((char *)r + 20, 16, e->product ?: "SAS4x28", ' ');
    strpadcpy((char *)r + 36, 4, e->revision ?: "0100", ' ');
    strpadcpy((char *)r + 40, 8, e->vendor ?: "BROADCOM", ' ');
    stw_be_p(r + 48, 0x0100);           /* component id */
    r[50] = 1;                          /* component revision */
}

static bool mr9600_smp_phy_disabled(MRExpander *e, uint32_t phy)
{
    return e->phy_disabled & (1ULL << phy);
}

static void mr9600_smp_discover(MR9600State *s, MRExpander *e, uint32_t phy,
                                uint8_t *r)
{
    MR9600ExpPhyView a = mr9600_exp_phy_view(s, e, phy);

    stw_be_p(r + 4, e->change_count);
    r[9] = phy;
    if (mr9600_smp_phy_disabled(e, phy)) {
        r[13] = SMP_RATE_PHY_DISABLED;
    } else if (a.handle) {
        r[12] = 1 << 4;                 /* an end device */
        r[13] = a.rate;
        if (a.handle == MR9600_CTRL_HANDLE) {
            r[14] = 0x0E;               /* SSP, STP, SMP initiator */
        } else {
            r[15] = a.sata ? 0x01 : 0x08;   /* SATA device / SSP target */
        }
        stq_be_p(r + 24, a.sas_address);
        r[32] = a.attached_phy;
    }
    stq_be_p(r + 16, mr9600_exp_address(s, e));
    r[40] = (MPI3_SAS_NEG_LINK_RATE_6_0 << 4) | MPI3_SAS_NEG_LINK_RATE_6_0;
    r[41] = (MPI3_SAS_NEG_LINK_RATE_22_5 << 4) |
            MPI3_SAS_NEG_LINK_RATE_22_5;
    /* drive phys route directly, the wide port's subtractively */
    r[44] = phy >= mr_expander_drive_phys(e) ? 1 : 0;
    r[94] = r[13];                      /* negotiated physical rate */
}

static void mr9600_smp_phy_error_log(MRExpander *e, uint32_t phy,
                                     uint8_t *r)
{
    stw_be_p(r + 4, e->change_count);
    r[9] = phy;
    /* invalid dwords, disparity errors, loss of sync, reset problems: 0 */
}

static uint8_t mr9600_smp_phy_control(MR9600State *s, MRExpander *e,
                                      uint32_t phy, const uint8_t *q,
                                      uint8_t *r)
{
    uint16_t expected = lduw_be_p(q + 4);
    uint8_t op = q[10];

    stw_be_p(r + 4, e->change_count);
    if (expected && expected != e->change_count) {
        return SMP_RES_BAD_CHANGE_CNT;
    }
    switch (op) {
    case SMP_PHY_OP_NOP:
    case SMP_PHY_OP_CLEAR_LOG:
    case SMP_PHY_OP_CLEAR_AFFIL:
    case SMP_PHY_OP_CLEAR_NEXUS:
        return SMP_RES_ACCEPTED;
    case SMP_PHY_OP_LINK_RESET:
    case SMP_PHY_OP_HARD_RESET:
        e->phy_disabled &= ~(1ULL << phy);
        break;
    case SMP_PHY_OP_DISABLE:
        /* a phy whose link the host relies on is not taken down (yet) */
        if (mr9600_exp_phy_view(s, e, phy).handle) {
            return SMP_RES_FUNC_FAILED;
        }
        e->phy_disabled |= 1ULL << phy;
        break;
    default:
        return SMP_RES_UNKNOWN_PHY_OP;
    }
    e->change_count++;
    trace_megaraid_9600_smp_phy_control(e->enclosure, phy, op);
    return SMP_RES_ACCEPTED;
}

/*
 * The SMP target's response to @q (@qlen bytes) into @r; returns its
 * length.
 */
static uint32_t mr9600_smp_execute(MR9600State *s, MRExpander *e,
                                   const uint8_t *q, uint32_t qlen,
                                   uint8_t *r)
{
    const MR9600SmpFunc *f = NULL;
    uint8_t alloc = q[2], req_dwords = q[3];
    uint32_t phy = qlen > 9 ? q[9] : 0, len;

    r[0] = SMP_RESPONSE;
    r[1] = q[1];
    for (size_t i = 0; i < ARRAY_SIZE(mr9600_smp_funcs); i++) {
        if (mr9600_smp_funcs[i].function == q[1]) {
            f = &mr9600_smp_funcs[i];
        }
    }
    if (!f) {
        trace_megaraid_9600_err_smp(q[1], SMP_RES_UNKNOWN_FUNC);
        r[2] = SMP_RES_UNKNOWN_FUNC;
        return 4;
    }
    /* SAS-2: the request length its function has; 0: SAS-1.1 frame */
    if ((req_dwords && req_dwords != f->req_dwords) ||
        qlen < MAX(f->req_bytes, 4u + req_dwords * 4)) {
        trace_megaraid_9600_err_smp(q[1], SMP_RES_BAD_LENGTH);
        r[2] = SMP_RES_BAD_LENGTH;
        return 4;
    }
    len = 4 + f->resp_dwords * 4;
    r[3] = alloc || !req_dwords ? f->resp_dwords : 0;
    if ((f->function == SMP_DISCOVER || f->function == SMP_PHY_CONTROL ||
         f->function == SMP_REPORT_PHY_ERR_LOG) && phy >= e->phys) {
        trace_megaraid_9600_err_smp(q[1], SMP_RES_NO_PHY);
        r[2] = SMP_RES_NO_PHY;
        r[3] = 0;
        return 4;
    }
    switch (f->function) {
    case SMP_REPORT_GENERAL:
        mr9600_smp_report_general(s, e, r);
        break;
    case SMP_REPORT_MANUFACTURER:
        mr9600_smp_report_manufacturer(e, r);
        break;
    case SMP_DISCOVER:
        mr9600_smp_discover(s, e, phy, r);
        break;
    case SMP_REPORT_PHY_ERR_LOG:
        mr9600_smp_phy_error_log(e, phy, r);
        break;
    case SMP_PHY_CONTROL:
        r[2] = mr9600_smp_phy_control(s, e, phy, q, r);
        if (r[2] != SMP_RES_ACCEPTED) {
            trace_megaraid_9600_err_smp(q[1], r[2]);
        }
        break;
    }
    /* SAS-2: a response no longer than the host allocated */
    if (alloc && len > 4u + alloc * 4) {
        len = 4 + alloc * 4;
    }
    return len;
}

void mr9600_smp_request(MR9600State *s, const uint8_t *frame)
{
    const MPI3RequestHeader *hdr = (const void *)frame;
    uint64_t sas_address = ldq_le_p(frame + SMP_REQ_SAS_ADDRESS);
    uint8_t q[SMP_FRAME_MAX] = { 0 }, r[SMP_FRAME_MAX] = { 0 };
    uint64_t q_addr, r_addr;
    uint32_t q_len, r_len, len;
    MR9600SmpReply rep = { 0 };
    MRExpander *e;

    if (!mr9600_read_sge(s, (const void *)(frame + SMP_REQ_REQUEST_SGE),
                         &q_addr, &q_len) ||
        !mr9600_read_sge(s, (const void *)(frame + SMP_REQ_RESPONSE_SGE),
                         &r_addr, &r_len)) {
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    e = mr9600_smp_target(s, sas_address);
    if (!e) {
        trace_megaraid_9600_err_smp_target(sas_address,
                                           frame[SMP_REQ_IO_UNIT_PORT]);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_SCSI_DEVICE_NOT_THERE);
        return;
    }
    if (q_len < 4 || q_len > SMP_FRAME_MAX || r_len < 4 ||
        pci_dma_read(PCI_DEVICE(s), q_addr, q, q_len) != MEMTX_OK ||
        q[0] != SMP_REQUEST) {
        trace_megaraid_9600_err_smp_frame(q_len, r_len, q[0]);
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_SAS_SMP_REQUEST_FAILED);
        return;
    }
    len = mr9600_smp_execute(s, e, q, q_len, r);
    trace_megaraid_9600_smp(sas_address, q[1], r[2], len);
    rep.hdr.host_tag = hdr->host_tag;
    rep.hdr.function = MPI3_FUNCTION_SMP_PASSTHROUGH;
    if (len > r_len) {
        len = r_len;
        rep.hdr.ioc_status = cpu_to_le16(MPI3_IOCSTATUS_SAS_SMP_DATA_OVERRUN);
    }
    if (pci_dma_write(PCI_DEVICE(s), r_addr, r, len) != MEMTX_OK) {
        mr9600_reply_status(s, 0, hdr, MPI3_IOCSTATUS_INVALID_SGL);
        return;
    }
    rep.response_data_length = cpu_to_le16(len);
    mr9600_post_frame(s, 0, &rep, sizeof(rep), NULL);
}
