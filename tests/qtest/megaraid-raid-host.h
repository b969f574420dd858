/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the one small interface the RAID qtests drive a
 * controller through, whatever its host interface: start it on a DDF
 * rig's images, post a SCSI command to a target (a VD by index or a JBOD
 * drive by slot) and reap its completion, the VD state the host sees, the
 * VD state change the host is told of, and stop.  The MPI3 host driver
 * (megaraid-9600, megaraid-rig.h) and the Fusion host driver
 * (megaraid-9500, megaraid-fusion-rig.h) implement it; on top of it, the
 * host-neutral helpers: READ/WRITE of the test pattern, the extents, and
 * the QOM views of the controller's drives and VDs.
 */
#ifndef MEGARAID_RAID_HOST_H
#define MEGARAID_RAID_HOST_H

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qemu/bswap.h"
#include "megaraid-qtest-core.h"
#include "megaraid-ddf-rig.h"

/* Every host's I/O buffer in guest memory */
#define DATA_MAX        (1024 * 1024)

/* A target: a VD by its index, or the JBOD drive in a slot */
#define RH_VD(i)        (0x10000 | (i))
#define RH_JBOD(slot)   (slot)
#define RH_IS_VD(t)     (((t) & 0x10000) != 0)
#define RH_INDEX(t)     ((t) & 0xFFFF)

/* A command's data direction */
#define RH_DIR_NONE     0
#define RH_DIR_READ     1
#define RH_DIR_WRITE    2

/* The VD states a host sees (both interfaces number them alike) */
#define VDS_OFFLINE             0
#define VDS_DEGRADED            2
#define VDS_OPTIMAL             3

typedef struct IoRes {
    uint16_t ioc;               /* the host interface's status, 0: good */
    bool absent;                /* the target takes no I/O (not exposed) */
    uint8_t status;             /* SCSI status, 0xff: no reply frame */
    uint8_t key, asc;
    uint32_t xfer;
} IoRes;

typedef struct RaidHost RaidHost;

typedef struct RaidHostOps {
    const char *name;           /* in the test paths: "9600", "9500" */
    const char *device;         /* the QEMU device */
    const char *drive_if;       /* the interface of the rig's drives */
    /* QEMU on the rig's images, drive i (id hdi) in slot i, brought up */
    RaidHost *(*start)(Rig *r, const char *ctrl_extra);
    void (*stop)(RaidHost *h);
    /* Post a SCSI command with its data at @addr; returns its tag. */
    uint16_t (*post)(RaidHost *h, int tgt, const uint8_t *cdb,
                     size_t cdb_len, int dir, uint32_t len, uint64_t addr);
    /* The next completion within @ms into *@tag and *@res; false if none */
    bool (*reap)(RaidHost *h, uint16_t *tag, IoRes *res, int ms);
    /* The state of VD @vd as the host reads it (VDS_*) */
    uint8_t (*vd_state)(RaidHost *h, int vd);
    /*
     * Wait up to @sec seconds for the host to be told VD 0 is @state
     * (since the start or the last forget_events).
     */
    bool (*wait_vd_event)(RaidHost *h, uint8_t state, int sec);
    /* Forget the events the host was told of so far. */
    void (*forget_events)(RaidHost *h);
    /* Let up to @ms pass, serving what the host must (events) meanwhile. */
    void (*idle)(RaidHost *h, int ms);
} RaidHostOps;

/* The RaidHostOps of a host driver whose functions are prefix_start... */
#define RAID_HOST_OPS(prefix, ctrl, dev, iface) {                          \
    .name = (ctrl), .device = (dev), .drive_if = (iface),                 \
    .start = prefix##_start, .stop = prefix##_stop,                       \
    .post = prefix##_post, .reap = prefix##_reap,                         \
    .vd_state = prefix##_vd_state, .wait_vd_event = prefix##_wait_vd_event, \
    .forget_events = prefix##_forget_events, .idle = prefix##_idle,       \
}

struct RaidHost {
    const RaidHostOps *ops;
    QTestState *qts;
    uint64_t data;              /* DATA_MAX bytes for the data of I/O */
    void *priv;                 /* the host driver's own state */
};

/* Key and ASC of fixed or descriptor format sense data */
static inline void parse_sense(const uint8_t *s, IoRes *r)
{
    if ((s[0] & 0x7F) == 0x72 || (s[0] & 0x7F) == 0x73) {
        r->key = s[1] & 0xF;
        r->asc = s[2];
    } else {
        r->key = s[2] & 0xF;
        r->asc = s[12];
    }
}

/* More megaraid-drive properties for every drive (",name=value..."). */
static const char *drive_extra G_GNUC_UNUSED = "";
/*
 * The file= of drive i's backend when set (e.g. "blkdebug:CONF:IMAGE" to
 * inject errors), else the rig's image; the test that sets it clears it.
 */
static char *drive_file[MAX_DRIVES] G_GNUC_UNUSED;

/* The rig's drives: drive i (id hdi, backend di) in slot i, @iface. */
static inline GString *rh_drive_args(Rig *r, const char *iface)
{
    GString *cmd = g_string_new("");

    for (int i = 0; i < r->n; i++) {
        g_string_append_printf(cmd, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=%s%s ", i,
                               drive_file[i] ? drive_file[i] : r->path[i],
                               i, i, i, iface, drive_extra);
    }
    return cmd;
}

static inline RaidHost *rh_start(const RaidHostOps *ops, Rig *r,
                                 const char *ctrl_extra)
{
    RaidHost *h = ops->start(r, ctrl_extra);

    r->h = h;
    return h;
}

static inline void rh_stop(Rig *r)
{
    r->h->ops->stop(r->h);
    r->h = NULL;
}

static inline void rh_idle(RaidHost *h, int ms)
{
    h->ops->idle(h, ms);
}

static inline uint16_t rh_post_at(RaidHost *h, int tgt, const uint8_t *cdb,
                                  size_t cdb_len, int dir, uint32_t len,
                                  uint64_t addr)
{
    return h->ops->post(h, tgt, cdb, cdb_len, dir, len, addr);
}

/* One SCSI command with h->data as the buffer, and its completion. */
static inline IoRes rh_cmd(RaidHost *h, int tgt, const uint8_t *cdb,
                           size_t cdb_len, int dir, uint32_t len)
{
    uint16_t tag = rh_post_at(h, tgt, cdb, cdb_len, dir, len, h->data);
    uint16_t got;
    IoRes r;

    g_assert_true(h->ops->reap(h, &got, &r, 30000));
    g_assert_cmphex(got, ==, tag);
    return r;
}

/* The CDB of a READ or WRITE, (16) or (10). */
static inline size_t rh_rw_cdb(uint8_t *cdb, bool write, bool cdb16,
                               uint64_t lba, uint32_t blocks)
{
    memset(cdb, 0, 16);
    if (cdb16) {
        cdb[0] = write ? 0x8A : 0x88;
        stq_be_p(cdb + 2, lba);
        stl_be_p(cdb + 10, blocks);
        return 16;
    }
    cdb[0] = write ? 0x2A : 0x28;
    stl_be_p(cdb + 2, lba);
    stw_be_p(cdb + 7, blocks);
    return 10;
}

static inline IoRes rh_rw(RaidHost *h, int tgt, bool write, bool cdb16,
                          uint64_t lba, uint32_t blocks)
{
    uint8_t cdb[16];
    size_t n = rh_rw_cdb(cdb, write, cdb16, lba, blocks);

    return rh_cmd(h, tgt, cdb, n, write ? RH_DIR_WRITE : RH_DIR_READ,
                  blocks * 512);
}

static inline void rh_vd_write(RaidHost *h, uint64_t lba, uint32_t blocks,
                               uint8_t seed, bool cdb16)
{
    g_autofree uint8_t *buf = g_malloc(blocks * 512);
    IoRes r;

    pattern(buf, lba, blocks, seed);
    qtest_bufwrite(h->qts, h->data, buf, blocks * 512);
    r = rh_rw(h, RH_VD(0), true, cdb16, lba, blocks);
    g_assert_cmphex(r.ioc, ==, 0);
    g_assert_cmphex(r.status, ==, 0);
    g_assert_cmpuint(r.xfer, ==, blocks * 512);
}

static inline void rh_vd_check(RaidHost *h, uint64_t lba, uint32_t blocks,
                               uint8_t seed, bool cdb16)
{
    g_autofree uint8_t *want = g_malloc(blocks * 512);
    g_autofree uint8_t *got = g_malloc(blocks * 512);
    IoRes r;

    pattern(want, lba, blocks, seed);
    qtest_memset(h->qts, h->data, 0xA5, blocks * 512);
    r = rh_rw(h, RH_VD(0), false, cdb16, lba, blocks);
    g_assert_cmphex(r.ioc, ==, 0);
    g_assert_cmphex(r.status, ==, 0);
    qtest_bufread(h->qts, h->data, got, blocks * 512);
    g_assert_cmpmem(got, blocks * 512, want, blocks * 512);
}

static inline void rh_write_extents(RaidHost *h, uint8_t seed)
{
    for (size_t i = 0; i < ARRAY_SIZE(extents); i++) {
        rh_vd_write(h, extents[i].lba, extents[i].blocks, seed + i,
                    extents[i].cdb16);
    }
}

static inline void rh_check_extents(RaidHost *h, uint8_t seed)
{
    for (size_t i = 0; i < ARRAY_SIZE(extents); i++) {
        rh_vd_check(h, extents[i].lba, extents[i].blocks, seed + i,
                    !extents[i].cdb16);
    }
}

/*
 * @n blank images, drives [0, nmem) one VD of @level, and the extents
 * written on it (pattern @seed) by the controller of @ops, started and
 * stopped.
 */
static inline void rig_create_written(const RaidHostOps *ops, Rig *r, int n,
                                      int nmem, RaidLevel level, uint8_t seed)
{
    rig_create(r, n, nmem, 0, level);
    rh_write_extents(rh_start(ops, r, NULL), seed);
    rh_stop(r);
}

/* ---------------------------------------- QOM: the controller's view */

#define CTRL        "/machine/peripheral/raid0"

static inline char *drive_path(int i)
{
    return g_strdup_printf("/machine/peripheral/hd%d", i);
}

static inline void rh_assert_vd_state(RaidHost *h, const char *want)
{
    g_autofree char *s = qts_qom_get_str(h->qts, CTRL, "vd0-state");

    g_assert_cmpstr(s, ==, want);
}

static inline void rh_assert_drive_state(RaidHost *h, int i,
                                         const char *want)
{
    g_autofree char *p = drive_path(i);
    g_autofree char *s = qts_qom_get_str(h->qts, p, "state");

    g_assert_cmpstr(s, ==, want);
}

static inline void rh_fail_drive(RaidHost *h, int i)
{
    g_autofree char *p = drive_path(i);

    qts_qom_set_str(h->qts, p, "state", "offline");
}

#endif
