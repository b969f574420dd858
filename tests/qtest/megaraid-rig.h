/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the MPI3 host driver of the RAID qtests (megaraid-9600),
 * on top of the MPI3 host layer in megaraid-harness.h and the DDF rig
 * (megaraid-ddf-rig.h): QEMU started on a rig's images with the bring-up
 * a driver does, admin requests that keep the events arriving first,
 * Device Page 0, and SCSI I/O; and the RaidHost interface
 * (megaraid-raid-host.h) over it, mpi3_host_ops.  MR is the host layer's
 * HMR with this rig's ring sizes, a DATA_MAX data buffer and m->events.
 * Everything is static inline.
 */
#ifndef MEGARAID_RIG_H
#define MEGARAID_RIG_H

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci-pc.h"
#include "qemu/bswap.h"
#include "qobject/qdict.h"
#include "megaraid-harness.h"
#include "megaraid-raid-host.h"

/* The rig's ring sizes (the MPI3 layer's defaults but a longer reply queue) */
#define AREQ_N          H_AREQ_N
#define AREP_N          H_AREP_N
#define OREQ_N          H_OREQ_N
#define OREP_N          64
#define RFREE_N         H_RFREE_N
#define SFREE_N         H_SFREE_N
#define VD_HANDLE       0x300

/* Events and Device Page 0 */
#define EV_DEVICE_ADDED         0x07
#define EV_DEVICE_INFO_CHANGED  0x08
#define EV_DEVICE_STATUS_CHANGE 0x0D
#define DSC_REASON              0x02    /* in STATUS CHANGE's data */
#define DSC_HANDLE              0x06
#define DSC_RC_HIDDEN           0x02
#define DSC_RC_NOT_HIDDEN       0x03
#define PG0_FLAGS               0x1C
#define PG0_FLAG_HIDDEN         0x0008
#define PG0_FORM                0x27
#define PG0_VD_STATE            0x28
#define PG0_VD_LEVEL            0x29
#define FORM_VD                 2

#define IOC_DEVICE_NOT_THERE    0x0043
#define DIR_NONE                0x00000000
#define DIR_WRITE               0x00040000
#define DIR_READ                0x00080000

typedef HDesc Desc;

typedef struct Event {
    uint8_t event;
    uint16_t handle;
    uint8_t page[64];
} Event;

typedef HMR MR;

static const RaidHostOps mpi3_host_ops;

/* ------------------------------------------------------ MPI3 bring-up */

/* An event reply is kept in m->events; true if @d was one. */
static inline bool mr_keep_event(MR *m, const Desc *d)
{
    Event e = { 0 };

    if (d->type != H_DT_ADDRESS || d->tag != 0xFFFF || d->frame[3] != 0x04) {
        return false;
    }
    e.event = d->frame[0x11];
    if (e.event == EV_DEVICE_ADDED || e.event == EV_DEVICE_INFO_CHANGED) {
        memcpy(e.page, d->frame + 0x18, 64);
        e.handle = lduw_le_p(e.page + 0x08);
    } else if (e.event == EV_DEVICE_STATUS_CHANGE) {
        memcpy(e.page, d->frame + 0x18, 24);
        e.handle = lduw_le_p(e.page + DSC_HANDLE);
    }
    g_array_append_val(m->events, e);
    return true;
}

/* The reply to an admin request, keeping the events that come first. */
static inline void mr_admin_reply(MR *m, Desc *d)
{
    do {
        g_assert(h_admin_reply(m, d, 10000));
    } while (mr_keep_event(m, d));
}

/* Collect the events that arrived, waiting up to @ms for the first one. */
static inline void mr_pump_events(MR *m, int ms)
{
    Desc d;

    while (h_admin_reply(m, &d, ms)) {
        g_assert_true(mr_keep_event(m, &d));
        ms = 0;
    }
}

static inline uint16_t mr_admin(MR *m, const void *frame, size_t len)
{
    Desc d;

    h_submit_admin(m, frame, len);
    mr_admin_reply(m, &d);
    g_assert_cmphex(d.tag, ==, lduw_le_p(frame));
    return d.status;
}

/* Queue 1 of either kind (a request queue replies to reply queue 1). */
static inline uint16_t mr_create_q(MR *m, bool reply, uint16_t size,
                                   uint8_t flags, uint64_t base)
{
    uint8_t f[32];

    h_create_q_frame(f, reply, 1, size, 1, flags, base);
    return mr_admin(m, f, sizeof(f));
}

/* Everything unmasked but what the driver masks too. */
static inline void mr_event_notify(MR *m)
{
    uint8_t f[32];

    h_event_notify_frame(f, H_EVENT_MASK_DRIVER);
    g_assert_cmphex(mr_admin(m, f, sizeof(f)), ==, 0);
}

static inline void mr_port_enable(MR *m)
{
    uint8_t f[12] = { 0 };

    stw_le_p(f, 1);
    f[3] = 0x03;
    g_assert_cmphex(mr_admin(m, f, sizeof(f)), ==, 0);
}

/* The MPI3 host driver's RaidHost: tags 1..0x1000 and their lengths */
typedef struct Mpi3Host {
    RaidHost h;
    uint32_t len[0x1001];
} Mpi3Host;

/* Start QEMU on the rig's images (drive i in slot i, NVMe) and bring up. */
static RaidHost *mpi3_start(Rig *r, const char *ctrl_extra)
{
    Mpi3Host *mh = g_new0(Mpi3Host, 1);
    MR *m = g_new0(MR, 1);
    GString *cmd = rh_drive_args(r, mpi3_host_ops.drive_if);

    m->orep_n = OREP_N;
    m->data_size = DATA_MAX;
    m->admin_ms = 10000;
    h_launch(m, ctrl_extra, cmd->str);
    g_string_free(cmd, true);
    m->events = g_array_new(false, true, sizeof(Event));

    h_init(m);
    m->orep_phase = true;
    g_assert_cmphex(mr_create_q(m, true, OREP_N, 0x01, m->orep), ==, 0);
    g_assert_cmphex(mr_create_q(m, false, OREQ_N, 0, m->oreq), ==, 0);
    mr_event_notify(m);
    mr_port_enable(m);
    mh->h.ops = &mpi3_host_ops;
    mh->h.qts = m->qts;
    mh->h.data = m->data;
    mh->h.priv = m;
    m->host = &mh->h;
    return &mh->h;
}

static void mpi3_stop(RaidHost *h)
{
    MR *m = h->priv;

    g_array_free(m->events, true);
    h_stop(m);
    g_free(h);
}

static inline MR *mr_start(Rig *r, const char *ctrl_extra)
{
    return rh_start(&mpi3_host_ops, r, ctrl_extra)->priv;
}

static inline void mr_stop(Rig *r)
{
    rh_stop(r);
}

/* The newest DEVICE ADDED / INFO CHANGED page of @handle, or NULL. */
static inline const uint8_t *mr_last_page(MR *m, uint16_t handle, uint8_t event)
{
    for (int i = m->events->len - 1; i >= 0; i--) {
        Event *e = &g_array_index(m->events, Event, i);

        if (e->event == event && e->handle == handle) {
            return e->page;
        }
    }
    return NULL;
}

/* Wait up to @sec seconds for INFO CHANGED of the VD with @state. */
static inline bool mr_wait_vd_event(MR *m, uint8_t state, int sec)
{
    for (int i = 0; i < sec * 10; i++) {
        for (guint k = 0; k < m->events->len; k++) {
            Event *e = &g_array_index(m->events, Event, k);

            if (e->event == EV_DEVICE_INFO_CHANGED &&
                e->handle == VD_HANDLE && e->page[PG0_VD_STATE] == state) {
                return true;
            }
        }
        mr_pump_events(m, 100);
    }
    return false;
}

/* CONFIG: read Device Page 0 of @handle. */
static inline uint16_t mr_device_page0(MR *m, uint16_t handle, uint8_t *page)
{
    uint64_t buf = m->data;
    uint8_t f[48] = { 0 };
    uint16_t st;

    stw_le_p(f, 6);
    f[3] = 0x10;
    f[0x0D] = 0;
    f[0x0E] = 0x12;                                 /* device page */
    f[0x0F] = 0x02;                                 /* read current */
    stl_le_p(f + 0x10, 0x20000000u | handle);
    stw_le_p(f + 0x14, 64 / 4);
    h_put_sge(f + 0x20, buf, 64, 0x08);
    qtest_memset(m->qts, buf, 0, 64);
    st = mr_admin(m, f, sizeof(f));
    qtest_memread(m->qts, buf, page, 64);
    return st;
}

/* ------------------------------------------------------------ SCSI I/O */

/* Post a SCSI IO request with its data at @addr; returns its host tag. */
static inline uint16_t scsi_post_at(MR *m, uint16_t handle, const uint8_t *cdb,
                                    size_t cdb_len, uint32_t dir, uint32_t len,
                                    uint64_t addr)
{
    uint8_t f[128];
    uint16_t tag = m->tag = m->tag % 0x1000 + 1;

    h_scsi_frame(f, tag, handle, dir, len, cdb, cdb_len);
    h_put_sge(f + 0x40, len ? addr : ~0ULL, len, 0x08);
    h_submit_op(m, f);
    return tag;
}

/* Post a SCSI IO request (data at m->data); returns its host tag. */
static inline uint16_t scsi_post(MR *m, uint16_t handle, const uint8_t *cdb,
                          size_t cdb_len, uint32_t dir, uint32_t len)
{
    return scsi_post_at(m, handle, cdb, cdb_len, dir, len, m->data);
}

/* The result of SCSI I/O reply @d to a request of @len bytes. */
static inline IoRes scsi_result(MR *m, const Desc *d, uint32_t len)
{
    IoRes r = { .status = 0xff };

    r.ioc = d->status;
    r.absent = d->status == IOC_DEVICE_NOT_THERE;
    if (d->type == H_DT_SUCCESS) {
        r.status = 0;
        r.xfer = len;
    } else if (d->type == H_DT_ADDRESS) {
        uint32_t sense_count = ldl_le_p(d->frame + 0x18);
        uint64_t sense_addr = ldq_le_p(d->frame + 0x30);

        r.status = d->frame[0x10];
        r.xfer = ldl_le_p(d->frame + 0x14);
        if ((d->frame[0x11] & 3) == 0 && sense_count) {
            uint8_t sense[32] = { 0 };

            g_assert_cmpuint(sense_addr, >=, m->senses);
            g_assert_cmpuint(sense_addr, <, m->senses + SFREE_N * 256);
            qtest_memread(m->qts, sense_addr, sense, sizeof(sense));
            parse_sense(sense, &r);
            h_return_sense(m, sense_addr);
        }
    }
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_FAULT, ==, 0);
    return r;
}

static inline IoRes scsi_cmd(MR *m, uint16_t handle, const uint8_t *cdb,
                      size_t cdb_len, uint32_t dir, uint32_t len)
{
    uint16_t tag = scsi_post(m, handle, cdb, cdb_len, dir, len);
    Desc d;

    g_assert_true(h_op_reply(m, &d, 30000));
    g_assert_cmphex(d.tag, ==, tag);
    return scsi_result(m, &d, len);
}


/* The host-neutral helpers (megaraid-raid-host.h) on an MPI3 rig */
static inline void vd_write(MR *m, uint64_t lba, uint32_t blocks, uint8_t seed,
                            bool cdb16)
{
    rh_vd_write(m->host, lba, blocks, seed, cdb16);
}

static inline void vd_check(MR *m, uint64_t lba, uint32_t blocks, uint8_t seed,
                            bool cdb16)
{
    rh_vd_check(m->host, lba, blocks, seed, cdb16);
}

static inline void write_extents(MR *m, uint8_t seed)
{
    rh_write_extents(m->host, seed);
}

/*
 * write_extents() with the destage held off (cache-flush-interval 255):
 * the write-back cache now holds dirty lines.
 */
static inline void write_extents_held(MR *m, uint8_t seed)
{
    qom_set_int(m, CTRL, "cache-flush-interval", 255);
    write_extents(m, seed);
    g_assert_cmpint(qom_get_int(m, CTRL, "cache-dirty-bytes"), >, 0);
}

/*
 * Controller properties for a 4 MiB cache with its journal on the qcow2
 * image @jnl (node jnl0), @extra before the -blockdev.
 */
static inline char *journal_props(const char *jnl, const char *extra)
{
    return g_strdup_printf(",cache-size=4M,journal=jnl0%s "
                           "-blockdev driver=qcow2,node-name=jnl0,"
                           "file.driver=file,file.filename=%s", extra, jnl);
}

static inline void check_extents(MR *m, uint8_t seed)
{
    rh_check_extents(m->host, seed);
}

static inline void assert_vd_state(MR *m, const char *want)
{
    rh_assert_vd_state(m->host, want);
}

static inline void assert_drive_state(MR *m, int i, const char *want)
{
    rh_assert_drive_state(m->host, i, want);
}

static inline void fail_drive(MR *m, int i)
{
    rh_fail_drive(m->host, i);
}

/* ------------------------------------------- the RaidHost interface */

static uint16_t mpi3_post(RaidHost *h, int tgt, const uint8_t *cdb,
                          size_t cdb_len, int dir, uint32_t len, uint64_t addr)
{
    static const uint32_t dirs[] = {
        [RH_DIR_NONE] = DIR_NONE, [RH_DIR_READ] = DIR_READ,
        [RH_DIR_WRITE] = DIR_WRITE,
    };
    Mpi3Host *mh = container_of(h, Mpi3Host, h);
    /* VDs from VD_HANDLE on, the drive in slot s (enclosure 0): 1 + s */
    uint16_t handle = RH_IS_VD(tgt) ? VD_HANDLE + RH_INDEX(tgt) : 1 + tgt;
    uint16_t tag = scsi_post_at(h->priv, handle, cdb, cdb_len, dirs[dir],
                                len, addr);

    mh->len[tag] = len;
    return tag;
}

static bool mpi3_reap(RaidHost *h, uint16_t *tag, IoRes *res, int ms)
{
    Mpi3Host *mh = container_of(h, Mpi3Host, h);
    Desc d;

    if (!h_op_reply(h->priv, &d, ms)) {
        return false;
    }
    g_assert_cmpuint(d.tag, >=, 1);
    g_assert_cmpuint(d.tag, <=, 0x1000);
    *tag = d.tag;
    *res = scsi_result(h->priv, &d, mh->len[d.tag]);
    return true;
}

/* Device Page 0 of the VD */
static uint8_t mpi3_vd_state(RaidHost *h, int vd)
{
    uint8_t page[64];

    g_assert_cmphex(mr_device_page0(h->priv, VD_HANDLE + vd, page), ==, 0);
    return page[PG0_VD_STATE];
}

/* DEVICE INFO CHANGED of the VD */
static bool mpi3_wait_vd_event(RaidHost *h, uint8_t state, int sec)
{
    return mr_wait_vd_event(h->priv, state, sec);
}

static void mpi3_forget_events(RaidHost *h)
{
    MR *m = h->priv;

    g_array_set_size(m->events, 0);
}

/* Events keep arriving on the admin reply queue: collect them. */
static void mpi3_idle(RaidHost *h, int ms)
{
    mr_pump_events(h->priv, ms);
}

static const RaidHostOps mpi3_host_ops =
    RAID_HOST_OPS(mpi3, "9600", "megaraid-9600", "nvme");

#endif
