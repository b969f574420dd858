/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 MFI frames tunnelled through MPT Function
 * 0xF0.  Owns the fetch of the MFI frame from the pass-through chain
 * element, the MFI SGL (32-bit, 64-bit and IEEE elements, bounds-checked,
 * DMA only into guest RAM), the DCMDs the driver sends at probe, run time
 * and remove (controller info, PD and LD lists, PD info, event log info,
 * the EVENT_WAIT the firmware holds, cache flush and shutdown, answered
 * when the drives' AIO flushes are done), ABORT of a
 * held command, and the MFI completion (status byte, reply descriptor).
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "system/dma.h"
#include "system/block-backend.h"
#include "hw/megaraid/mgmt-proto.h"
#include "mr9500.h"
#include "trace.h"


typedef struct MR9500Mfi {
    uint16_t smid;
    uint8_t queue;
    uint64_t addr;              /* the MFI frame in host memory */
    uint8_t f[MFI_FRAME_SIZE];
} MR9500Mfi;

void mr9500_dcmd_reset(MR9500State *s)
{
    /* a held EVENT_WAIT belongs to the host session that is gone */
    s->aen.active = false;
    /* ... and so do the flushes and management replies in flight */
    s->held_epoch++;
    mr9500_map_reset(s);
}

void mr9500_mfi_complete(MR9500State *s, uint16_t smid, uint8_t queue,
                         uint64_t mfi_addr, uint8_t status)
{
    trace_megaraid_9500_mfi_done(smid, status);
    pci_dma_write(PCI_DEVICE(s), mfi_addr + MFI_HDR_STATUS, &status, 1);
    mr9500_post_reply(s, queue, smid);
}

bool mr9500_mfi_sgl(MR9500State *s, const uint8_t *f, uint32_t sgl_off,
                    QEMUSGList *sg, uint32_t len)
{
    uint16_t flags = lduw_le_p(f + MFI_HDR_FLAGS);
    uint32_t esize = flags & MFI_FLAGS_IEEE ? 16 :
                     flags & MFI_FLAGS_SGL64 ? 12 : 8;
    uint32_t count = f[MFI_HDR_SGE_COUNT];

    if (count > (MFI_FRAME_SIZE - sgl_off) / esize) {
        trace_megaraid_9500_err_mfi_sgl(count, 0, 0);
        return false;
    }
    for (uint32_t i = 0; i < count && sg->size < len; i++) {
        const uint8_t *e = f + sgl_off + i * esize;
        uint64_t addr = esize == 8 ? ldl_le_p(e) : ldq_le_p(e);
        uint32_t n = MIN(ldl_le_p(e + (esize == 8 ? 4 : 8)), len - sg->size);

        if (!n) {
            continue;
        }
        if (!mr9500_dma_ok(s, addr, n)) {
            trace_megaraid_9500_err_mfi_sgl(count, addr, n);
            return false;
        }
        qemu_sglist_add(sg, addr, n);
    }
    return true;
}

void mr9500_hold(MR9500Held *h, uint16_t smid, uint64_t mfi_addr,
                 const uint8_t *frame)
{
    h->active = true;
    h->smid = smid;
    h->mfi_addr = mfi_addr;
    memcpy(h->frame, frame, MFI_FRAME_SIZE);
}

void mr9500_held_complete(MR9500State *s, MR9500Held *h, uint8_t status)
{
    h->active = false;
    mr9500_mfi_complete(s, h->smid, 0, h->mfi_addr, status);
}

/* Copy @len bytes of @buf to the host through the SGL of MFI frame @f. */
uint8_t mr9500_mfi_to_host(MR9500State *s, const uint8_t *f,
                           uint32_t sgl_off, const void *buf, uint32_t len)
{
    QEMUSGList sg;
    uint8_t st = MFI_STAT_OK;

    qemu_sglist_init(&sg, DEVICE(s), 4, pci_get_address_space(PCI_DEVICE(s)));
    len = MIN(len, ldl_le_p(f + MFI_HDR_XFER_LEN));
    if (mr9500_mfi_sgl(s, f, sgl_off, &sg, len)) {
        dma_buf_read((void *)buf, sg.size, NULL, &sg, MEMTXATTRS_UNSPECIFIED);
    } else {
        st = MFI_STAT_INVALID_PARAMETER;
    }
    qemu_sglist_destroy(&sg);
    return st;
}

/*
 * Read @len bytes from the host through the SGL of MFI frame @f into
 * @buf.  False when an element is outside guest RAM, the SGL does not
 * fit the frame or it holds fewer than @len bytes.
 */
bool mr9500_mfi_from_host(MR9500State *s, const uint8_t *f, uint8_t *buf,
                          uint32_t len)
{
    QEMUSGList sg;
    bool ok;

    qemu_sglist_init(&sg, DEVICE(s), 4, pci_get_address_space(PCI_DEVICE(s)));
    ok = mr9500_mfi_sgl(s, f, MFI_DCMD_SGL, &sg, len) && sg.size == len &&
         dma_buf_write(buf, len, NULL, &sg, MEMTXATTRS_UNSPECIFIED) ==
         MEMTX_OK;
    qemu_sglist_destroy(&sg);
    return ok;
}

/* ---- data builders ---- */

static void mr9500_ctrl_info(MR9500State *s, uint8_t *ci)
{
    const MR9500Model *m = s->model;
    uint32_t npd = 0;

    for (uint32_t i = 0; i < MR9500_MAX_PDS; i++) {
        npd += s->pd[i] != NULL;
    }
    stw_le_p(ci + CI_PCI_VENDOR, 0x1000);
    stw_le_p(ci + CI_PCI_DEVICE, 0x10E2);
    stw_le_p(ci + CI_PCI_SUBVENDOR, m->subsys_vendor);
    stw_le_p(ci + CI_PCI_SUBDEVICE, m->subsys_id);
    ci[CI_HOST_INTERFACE] = 0x02;           /* PCIe */
    stl_le_p(ci + CI_IMAGE_COUNT, 1);
    strpadcpy((char *)ci + CI_IMAGE_COMPONENT, 8, "APP", 0);
    strpadcpy((char *)ci + CI_IMAGE_COMPONENT + 8, 32, MR9500_FW_VERSION, 0);
    ci[CI_MAX_ARMS] = 32;
    ci[CI_MAX_SPANS] = 8;
    ci[CI_MAX_ARRAYS] = 128;
    ci[CI_MAX_LDS] = 240;
    strpadcpy((char *)ci + CI_PRODUCT_NAME, 80, m->product, 0);
    strpadcpy((char *)ci + CI_SERIAL, 32,
              mr_core_serial(&s->core) ?: RAID_DEFAULT_SERIAL, 0);
    stw_le_p(ci + CI_MAX_CMDS, s->max_cmds);
    stw_le_p(ci + CI_MAX_SGE, 256);
    stl_le_p(ci + CI_MAX_REQUEST_SIZE, 2048);
    stw_le_p(ci + CI_PD_PRESENT_COUNT, npd);
    stw_le_p(ci + CI_PD_DISK_PRESENT, npd);
    stw_le_p(ci + CI_MEMORY_SIZE, 8192);
    stw_le_p(ci + CI_MAX_STRIPS_PER_IO, 16);
    /* the 9500's levels: no RAID 1E; spans are CI_ADAPTER_OPS' */
    stl_le_p(ci + CI_RAID_LEVELS,
             CI_RAID_0 | CI_RAID_1 | CI_RAID_5 | CI_RAID_6);
    ci[CI_STRIPE_MIN] = 7;
    ci[CI_STRIPE_MAX] = 11;
    stl_le_p(ci + CI_ON_OFF_PROPS, CI_ON_OFF_ENABLE_JBOD);
    strpadcpy((char *)ci + CI_PACKAGE_VERSION, 96, MR9500_FW_VERSION, 0);
    stl_le_p(ci + CI_ADAPTER_OPS2, CI_OPS2_SUPPORT_JBOD);
    stw_le_p(ci + CI_MAX_PDS, MR9500_MAX_PDS);
    stl_le_p(ci + CI_ADAPTER_OPS3,
             CI_OPS3_MAX_EXT_LDS | CI_OPS3_SEQ_NUM_JBOD_FP);
    ci[CI_TASK_ABORT_TO] = 30;
    ci[CI_MAX_RESET_TO] = 60;
    mr9500_ld_ctrl_info(s, ci, npd);
    /* hardware, operations, properties: mr9500-ctrl-mgmt.c */
    mr9500_ctrl_info_mgmt(s, ci);
}

/* PD list: the exposed JBODs only (@all: every drive in the bays). */
static uint32_t mr9500_pd_list(MR9500State *s, uint8_t *buf, bool all)
{
    uint32_t n = 0;

    for (uint32_t pd = 0; pd < MR9500_MAX_PDS; pd++) {
        MRDrive *d = all ? s->pd[pd] : mr9500_pd_drive(s, pd);
        uint8_t *e = buf + MR_PD_LIST_HDR + n * MR_PD_LIST_ENTRY;

        if (!d) {
            continue;
        }
        stw_le_p(e, pd);
        stw_le_p(e + 2, 0xFFFF);                /* no enclosure device */
        e[4] = 0;
        e[5] = d->slot;
        e[6] = 0;                               /* disk */
        e[7] = 1;
        stq_le_p(e + 8, d->unit.wwn);
        n++;
    }
    stl_le_p(buf, MR_PD_LIST_HDR + n * MR_PD_LIST_ENTRY);
    stl_le_p(buf + 4, n);
    return MR_PD_LIST_HDR + n * MR_PD_LIST_ENTRY;
}

static uint8_t mr9500_pd_info(MR9500State *s, uint32_t pd, uint8_t *pi)
{
    MRDrive *d = pd < MR9500_MAX_PDS ? s->pd[pd] : NULL;
    MRUnit *u;
    uint64_t blocks;

    if (!d) {
        return MFI_STAT_DEVICE_NOT_FOUND;
    }
    u = &d->unit;
    blocks = u->num_blocks * (u->block_size / 512);
    stw_le_p(pi + PDI_DEVICE_ID, pd);
    pi[PDI_INQUIRY] = 0x00;                      /* direct access */
    pi[PDI_INQUIRY + 2] = 0x06;
    pi[PDI_INQUIRY + 3] = 0x02;
    pi[PDI_INQUIRY + 4] = 31;
    strpadcpy((char *)pi + PDI_INQUIRY + 8, 8, u->vendor ? u->vendor : "", ' ');
    strpadcpy((char *)pi + PDI_INQUIRY + 16, 16, u->model ? u->model : "",
              ' ');
    strpadcpy((char *)pi + PDI_INQUIRY + 32, 4,
              u->firmware ? u->firmware : "", ' ');
    pi[PDI_SCSI_TYPE] = 0;
    stw_le_p(pi + PDI_FW_STATE,
             mr9500_pd_drive(s, pd) ? MR_PD_STATE_SYSTEM : 0x18);
    /* NVMe: the driver sends its large fast path I/O as PRP lists */
    stw_le_p(pi + PDI_DDF_TYPE, mr9500_pd_if(u) << 12);
    /* state, counters, progress: the core's (mr9500-pd-mgmt.c) */
    mr9500_pd_info_mgmt(s, d, pi);
    stq_le_p(pi + PDI_RAW_SIZE, blocks);
    stq_le_p(pi + PDI_NONCOERCED_SIZE, blocks);
    stq_le_p(pi + PDI_COERCED_SIZE, blocks);
    stw_le_p(pi + PDI_ENCL_ID, 0xFFFF);
    pi[PDI_SLOT] = d->slot;
    return MFI_STAT_OK;
}

/* @u is an NVMe drive or an LD with an NVMe member. */
static bool mr9500_nvme_unit(MR9500State *s, MRUnit *u)
{
    MRVirtualDisk *vd = u->vd;

    if (!vd) {
        return u->iface == MR_IF_NVME;
    }
    for (uint32_t m = 0; m < mr_vd_layout(vd)->members; m++) {
        MRDrive *d = mr_vd_member_drive(vd, m);

        if (d && d->unit.iface == MR_IF_NVME) {
            return true;
        }
    }
    return false;
}

/*
 * DEV_GET_TARGET_PROP for the JBOD (mbox byte 0 = 0) or LD (1) with
 * target id mbox bytes 2..3: its queue depth (the core's, as megaraid-9600
 * reports it) and block size; for an NVMe drive and an LD with an NVMe
 * member a maximum I/O size, which makes the driver keep each request's
 * segments on NVMe page boundaries, as its PRP lists need (none for the
 * others: the driver would apply NVMe limits); no reset timeout (the
 * driver keeps its default).
 */
static uint8_t mr9500_target_prop(MR9500State *s, const uint8_t *mbox,
                                  uint8_t *tp)
{
    uint16_t tgt = lduw_le_p(mbox + 2);
    uint8_t st = MFI_STAT_DEVICE_NOT_FOUND;
    MRDrive *d;
    MRUnit *u;

    if (mbox[0]) {
        u = mr9500_ld_unit(s, tgt, &st);
    } else {
        d = mr9500_pd_drive(s, tgt);
        u = d ? &d->unit : NULL;
    }
    if (!u) {
        return st;
    }
    stl_le_p(tp + MR_TGT_PROP_MAX_IO_KB,
             mr9500_nvme_unit(s, u) ? MR9500_NVME_MAX_IO_KB : 0);
    stl_le_p(tp + MR_TGT_PROP_QDEPTH, mr_core_queue_depth(u));
    stl_le_p(tp + MR_TGT_PROP_SECTOR, u->block_size);
    tp[MR_TGT_PROP_RESET_TMO] = 0;
    return MFI_STAT_OK;
}

/*
 * CACHE FLUSH and SHUTDOWN: every drive's BlockBackend is flushed with
 * AIO (the main loop goes on meanwhile) and the command completes when
 * the last flush is done.  A chip reset meanwhile drops the completion:
 * the host session that sent it is gone.
 */
typedef struct MR9500Flush {
    MR9500State *s;
    uint16_t smid;
    uint8_t queue;
    uint64_t mfi_addr;
    uint32_t epoch;             /* s->held_epoch when it started */
    unsigned pending;
} MR9500Flush;

static void mr9500_flush_done(void *opaque, int ret)
{
    MR9500Flush *f = opaque;

    if (--f->pending) {
        return;
    }
    if (f->epoch == f->s->held_epoch) {
        mr9500_mfi_complete(f->s, f->smid, f->queue, f->mfi_addr,
                            MFI_STAT_OK);
    }
    g_free(f);
}

static void mr9500_flush_drives(MR9500State *s, const MR9500Mfi *m)
{
    MR9500Flush *f = g_new0(MR9500Flush, 1);
    BusChild *kid;

    f->s = s;
    f->smid = m->smid;
    f->queue = m->queue;
    f->mfi_addr = m->addr;
    f->epoch = s->held_epoch;
    f->pending = 1;
    QTAILQ_FOREACH(kid, &BUS(&s->core.bus)->children, sibling) {
        MRDrive *d = MEGARAID_DRIVE(kid->child);

        if (d->conf.blk) {
            f->pending++;
            blk_aio_flush(d->conf.blk, mr9500_flush_done, f);
        }
    }
    trace_megaraid_9500_flush(m->smid, f->pending - 1);
    mr9500_flush_done(f, 0);
}

/* ---- DCMD ---- */

/* Returns false when the command is held (no completion now). */
static bool mr9500_dcmd(MR9500State *s, MR9500Mfi *m, uint8_t *status)
{
    uint32_t opcode = ldl_le_p(m->f + MFI_DCMD_OPCODE);
    const uint8_t *mbox = m->f + MFI_DCMD_MBOX;
    g_autofree uint8_t *buf = NULL;
    uint32_t len = 0;
    uint8_t st = MFI_STAT_OK;
    MR9500CfgAnswer cfg;

    trace_megaraid_9500_dcmd(m->smid, opcode, ldl_le_p(mbox),
                             ldl_le_p(m->f + MFI_HDR_XFER_LEN));
    switch (opcode) {
    case MR_DCMD_CTRL_GET_INFO:
        len = MR_CTRL_INFO_SIZE;
        buf = g_malloc0(len);
        mr9500_ctrl_info(s, buf);
        break;
    case MR_DCMD_PD_LIST_QUERY:
    case MR_DCMD_PD_GET_LIST:
        buf = g_malloc0(MR_PD_LIST_HDR + MR9500_MAX_PDS * MR_PD_LIST_ENTRY);
        len = mr9500_pd_list(s, buf, opcode == MR_DCMD_PD_GET_LIST);
        break;
    case MR_DCMD_PD_GET_INFO:
        len = MR_PD_INFO_SIZE;
        buf = g_malloc0(len);
        st = mr9500_pd_info(s, lduw_le_p(mbox), buf);
        break;
    case MR_DCMD_DEV_GET_TARGET_PROP:
        len = MR_TGT_PROP_SIZE;
        buf = g_malloc0(len);
        st = mr9500_target_prop(s, mbox, buf);
        break;
    case MR_DCMD_CTRL_EVENT_GET_INFO:
        len = MR_EVT_LOG_INFO_SIZE;
        buf = g_malloc0(len);
        stl_le_p(buf, s->evt_seq);          /* newest */
        /* oldest: the ring keeps the newest MR9500_EVT_RING */
        stl_le_p(buf + 4, s->evt_seq >= MR9500_EVT_RING ?
                          s->evt_seq - MR9500_EVT_RING + 1 : 1);
        /* the core log's marks as their MFI events (mr9500-evlog.c) */
        stl_le_p(buf + 8, s->evt_clear_seq);
        stl_le_p(buf + 12, s->evt_shutdown_seq);
        stl_le_p(buf + 16, s->evt_boot_seq ?: 1);
        break;
    case MR_DCMD_CTRL_EVENT_WAIT:
        if (s->aen.active) {
            trace_megaraid_9500_ub_aen_twice(m->smid, s->aen.smid);
            st = MFI_STAT_WRONG_STATE;
            break;
        }
        /* held until an event it asks for is logged, or aborted */
        mr9500_hold(&s->aen, m->smid, m->addr, m->f);
        s->aen.seq = ldl_le_p(mbox);
        s->aen.locale = lduw_le_p(mbox + 4);
        s->aen.class = (int8_t)mbox[7];
        trace_megaraid_9500_aen_hold(m->smid, s->aen.seq);
        mr9500_aen_check(s);
        return false;
    case MR_DCMD_CTRL_CACHE_FLUSH:
        /* completes when the drives' flushes are done */
        mr9500_flush_drives(s, m);
        return false;
    case MR_DCMD_CTRL_SHUTDOWN:
    case MR_DCMD_HIBERNATE_SHUTDOWN:
        /* held commands are dropped: their memory may be freed now */
        s->aen.active = false;
        mr9500_map_reset(s);
        mr9500_flush_drives(s, m);
        return false;
    case MR_DCMD_LD_MAP_GET_INFO:
        /* mr9500-map.c: the RAID map, or the map sync it holds */
        if (!mr9500_map_dcmd(s, m->smid, m->addr, m->f, &st)) {
            return false;
        }
        break;
    case MR_DCMD_SYSTEM_PD_MAP:
        /* mr9500-map.c: the JBOD sequence map, or its pended update */
        if (!mr9500_jbod_map_dcmd(s, m->smid, m->addr, m->f, &st)) {
            return false;
        }
        break;
    case MGMT_MFI_DCMD_OPCODE:
        /* mr9500-mgmt.c: the management protocol, in and out of the SGL */
        if (!mr9500_mgmt_dcmd(s, m->smid, m->queue, m->addr, m->f, &st)) {
            return false;
        }
        break;
    default:
        if (mr9500_ld_dcmd(s, opcode, mbox, &buf, &len, &st)) {
            break;              /* LD list and info: mr9500-ld.c */
        }
        /* configuration and LD management: mr9500-cfg.c */
        cfg = mr9500_cfg_dcmd(s, opcode, m->smid, m->queue, m->addr, m->f,
                              &buf, &len, &st);
        if (cfg == MR9500_CFG_HELD) {
            return false;
        }
        if (cfg == MR9500_CFG_ANSWERED) {
            break;
        }
        /* patrol read: mr9500-pr.c */
        cfg = mr9500_pr_dcmd(s, opcode, m->smid, m->queue, m->addr, m->f,
                             &buf, &len, &st);
        if (cfg == MR9500_CFG_HELD) {
            return false;
        } else if (cfg == MR9500_CFG_ANSWERED) {
            break;
        }
        /* PD locate: mr9500-locate.c */
        cfg = mr9500_locate_dcmd(s, opcode, m->smid, m->queue, m->addr, m->f,
                                 &st);
        if (cfg == MR9500_CFG_HELD) {
            return false;
        } else if (cfg == MR9500_CFG_ANSWERED) {
            break;
        }
        /* PD state, rebuild, progress: mr9500-pd-mgmt.c */
        cfg = mr9500_pd_mgmt_dcmd(s, opcode, m->smid, m->queue, m->addr,
                                  m->f, &buf, &len, &st);
        if (cfg == MR9500_CFG_HELD) {
            return false;
        }
        if (cfg == MR9500_CFG_ANSWERED) {
            break;
        }
        /* controller properties, events, time: mr9500-ctrl-mgmt.c */
        cfg = mr9500_ctrl_mgmt_dcmd(s, opcode, m->smid, m->queue, m->addr,
                                    m->f, &buf, &len, &st);
        if (cfg == MR9500_CFG_HELD) {
            return false;
        }
        if (cfg == MR9500_CFG_ANSWERED) {
            break;
        }
        if (mr9500_bbu_dcmd(s, opcode, &buf, &len, &st)) {
            break;              /* CacheVault: mr9500-bbu.c */
        }
        if (mr9500_bbu_set_dcmd(s, opcode, m->f, &st)) {
            break;              /* CacheVault changes: mr9500-bbu-set.c */
        }
        /* everything else */
        trace_megaraid_9500_dcmd_unsupported(opcode);
        st = MFI_STAT_INVALID_DCMD;
        break;
    }
    if (st == MFI_STAT_OK && len) {
        st = mr9500_mfi_to_host(s, m->f, MFI_DCMD_SGL, buf, len);
    }
    *status = st;
    return true;
}

static uint8_t mr9500_abort(MR9500State *s, MR9500Mfi *m)
{
    uint64_t victim = ldq_le_p(m->f + MFI_ABORT_ADDR_LO);

    trace_megaraid_9500_abort(m->smid, victim);
    if (s->aen.active && s->aen.mfi_addr == victim) {
        mr9500_held_complete(s, &s->aen, MFI_STAT_NOT_FOUND);
    }
    mr9500_map_abort(s, victim);
    return MFI_STAT_OK;
}

void mr9500_mfi_passthru(MR9500State *s, uint16_t smid, uint8_t queue,
                         const uint8_t *frame)
{
    const uint8_t *sge = frame + MPT_SGL;
    MR9500Mfi *m = g_new0(MR9500Mfi, 1);
    uint8_t status = MFI_STAT_INVALID_CMD;

    m->smid = smid;
    m->queue = queue;
    m->addr = ldq_le_p(sge);
    if (!(sge[MPT_SGE_FLAGS] & MPT_SGE_CHAIN) ||
        ldl_le_p(sge + 8) < MFI_FRAME_SIZE / 4 ||
        !mr9500_dma_ok(s, m->addr, MFI_FRAME_SIZE) ||
        pci_dma_read(PCI_DEVICE(s), m->addr, m->f, MFI_FRAME_SIZE)) {
        /* no MFI frame to answer in: the SMID completes all the same */
        trace_megaraid_9500_err_mfi_frame(smid, m->addr, sge[MPT_SGE_FLAGS]);
        mr9500_post_reply(s, queue, smid);
        g_free(m);
        return;
    }
    trace_megaraid_9500_mfi(smid, m->f[MFI_HDR_CMD], m->addr);
    switch (m->f[MFI_HDR_CMD]) {
    case MFI_CMD_DCMD:
        if (!mr9500_dcmd(s, m, &status)) {
            g_free(m);
            return;
        }
        break;
    case MFI_CMD_ABORT:
        status = mr9500_abort(s, m);
        break;
    case MFI_CMD_PD_SCSI_IO:
    case MFI_CMD_LD_SCSI_IO:
        /* completes through the SCSI target */
        mr9500_mfi_scsi(s, smid, queue, m->addr, m->f);
        g_free(m);
        return;
    default:
        trace_megaraid_9500_err_mfi_cmd(smid, m->f[MFI_HDR_CMD]);
        break;
    }
    mr9500_mfi_complete(s, smid, queue, m->addr, status);
    g_free(m);
}
