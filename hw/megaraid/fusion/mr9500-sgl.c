/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 scatter-gather lists of SCSI I/O frames,
 * into a QEMUSGList: the IEEE SGL (8 elements in the frame, one chain
 * level) and the NVMe PRP list megaraid_sas builds for fast path I/O of
 * more than four pages to an NVMe drive (a JBOD, or a VD member): the
 * first PRP as the frame's first IEEE element (up to the end of its
 * page), then a chain element (NSF = NVMe PRP) pointing at the list
 * with its length in bytes.  Each list entry is one page of data,
 * page-aligned; the last entry of a list page, when more entries follow,
 * points at the next list page instead (the driver inserts one wherever
 * its list crosses a page).  Every element and entry is checked: only
 * guest RAM, no more entries than the driver's chain buffer holds.
 */
#include "qemu/osdep.h"
#include "system/dma.h"
#include "mr9500.h"
#include "trace.h"

#define MR9500_PRP_PAGE         (1u << MFI_SP3_NVME_PAGE_SHIFT)
#define MPT_SGE_NSF_PRP         0x08

/* Walk the frame's IEEE SGL (one chain level) into @sg. */
static bool mr9500_ieee_sgl(MR9500State *s, const uint8_t *frame,
                            QEMUSGList *sg, uint32_t data_len)
{
    g_autofree uint8_t *chain = NULL;
    const uint8_t *sges = frame + MPT_SGL;
    uint32_t n = MPT_SGL_ENTRIES, total = 0;
    bool chained = false;

    for (uint32_t i = 0; i < n && total < data_len; i++) {
        const uint8_t *e = sges + i * MPT_SGE_SIZE;
        uint64_t addr = ldq_le_p(e);
        uint32_t len = ldl_le_p(e + 8);
        uint8_t flags = e[MPT_SGE_FLAGS];

        if (flags & MPT_SGE_FORMAT_MASK) {
            trace_megaraid_9500_err_sge(flags, addr, len);
            return false;
        }
        if (flags & MPT_SGE_CHAIN) {
            if (chained || len == 0 || len % MPT_SGE_SIZE ||
                len > MR9500_CHAIN_BYTES || !mr9500_dma_ok(s, addr, len)) {
                trace_megaraid_9500_err_sge(flags, addr, len);
                return false;
            }
            chained = true;
            chain = g_malloc(len);
            if (pci_dma_read(PCI_DEVICE(s), addr, chain, len)) {
                return false;
            }
            sges = chain;
            n = len / MPT_SGE_SIZE;
            i = -1;
            continue;
        }
        len = MIN(len, data_len - total);
        if (len) {
            if (!mr9500_dma_ok(s, addr, len)) {
                trace_megaraid_9500_err_sge(flags, addr, len);
                return false;
            }
            qemu_sglist_add(sg, addr, len);
            total += len;
        }
        if (flags & MPT_SGE_END) {
            break;
        }
    }
    if (total < data_len) {
        trace_megaraid_9500_err_sgl_short(total, data_len);
        return false;
    }
    return true;
}

/* The PRP form (the frame's second element is a PRP chain element). */
static bool mr9500_prp_sgl(MR9500State *s, const uint8_t *frame,
                           QEMUSGList *sg, uint32_t data_len)
{
    const uint8_t *first = frame + MPT_SGL;
    const uint8_t *ce = first + MPT_SGE_SIZE;
    const uint64_t mask = MR9500_PRP_PAGE - 1;
    uint64_t addr = ldq_le_p(first);
    uint32_t len = MIN(ldl_le_p(first + 8), data_len);
    uint64_t cur = ldq_le_p(ce);
    uint32_t list_len = ldl_le_p(ce + 8);
    uint32_t count = list_len / 8;
    uint32_t total;

    if (len == 0 || (addr & mask) + len > MR9500_PRP_PAGE ||
        !mr9500_dma_ok(s, addr, len) || list_len % 8 ||
        list_len > MR9500_CHAIN_BYTES || (cur & 7)) {
        trace_megaraid_9500_err_prp(addr, len, cur, list_len);
        return false;
    }
    qemu_sglist_add(sg, addr, len);
    total = len;
    for (uint32_t i = 0; i < count && total < data_len; i++, cur += 8) {
        uint64_t e;

        if (!mr9500_dma_ok(s, cur, 8) ||
            pci_dma_read(PCI_DEVICE(s), cur, &e, 8)) {
            trace_megaraid_9500_err_prp(cur, 8, cur, list_len);
            return false;
        }
        e = le64_to_cpu(e);
        if (!((cur + 8) & mask) && i + 1 < count) {
            /* the last slot of a list page: the list's next page */
            if (e & 7) {
                trace_megaraid_9500_err_prp(e, 0, cur, list_len);
                return false;
            }
            cur = e - 8;
            continue;
        }
        len = MIN(MR9500_PRP_PAGE, data_len - total);
        if ((e & mask) || !mr9500_dma_ok(s, e, len)) {
            trace_megaraid_9500_err_prp(e, len, cur, list_len);
            return false;
        }
        qemu_sglist_add(sg, e, len);
        total += len;
    }
    if (total < data_len) {
        trace_megaraid_9500_err_sgl_short(total, data_len);
        return false;
    }
    trace_megaraid_9500_prp(sg->nsg, list_len, data_len);
    return true;
}

bool mr9500_build_sgl(MR9500State *s, const uint8_t *frame, QEMUSGList *sg,
                      uint32_t data_len)
{
    uint8_t ce_flags = frame[MPT_SGL + MPT_SGE_SIZE + MPT_SGE_FLAGS];

    if ((ce_flags & MPT_SGE_CHAIN) &&
        (ce_flags & MPT_SGE_FORMAT_MASK) == MPT_SGE_NSF_PRP) {
        return mr9500_prp_sgl(s, frame, sg, data_len);
    }
    return mr9500_ieee_sgl(s, frame, sg, data_len);
}
