/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the DDF rig layer of the megaraid qtests, on top of the
 * MPI3 host layer in megaraid-harness.h: drive images with a DDF
 * configuration written by the RAID core (as megaraid-img does; any
 * layout through rig_write_ddf, one VD plus spares through rig_create),
 * QEMU started on them with the bring-up a driver does, admin requests
 * that keep the events arriving first, Device Page 0, and SCSI I/O with a
 * test pattern.  MR is the host layer's HMR with this rig's ring sizes, a
 * DATA_MAX data buffer and m->events.  Include it from exactly one qtest
 * source (QEMU builds each qtest from one file); everything is static
 * inline.
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

/*
 * QEMU's qtest list builds each qtest from one source file, so the RAID
 * core's configuration and DDF image code (the sources megaraid-img links)
 * is compiled into this file.  config.c and ddf-config.c each have a
 * static level_spanned(): one is renamed here.
 */
#include "../../hw/raid/geometry.c"
#include "../../hw/raid/config.c"
#include "../../hw/raid/config-state.c"
#include "../../hw/raid/ddf-crc.c"
#include "../../hw/raid/ddf-meta.c"
#include "../../hw/raid/ddf-encode.c"
#include "../../hw/raid/ddf-decode.c"
#define level_spanned ddf_config_level_spanned
#include "../../hw/raid/ddf-config.c"
#undef level_spanned
#include "../../hw/raid/ddf-drive.c"
#include "../../hw/raid/ddf-io.c"

/* The rig's ring sizes (the MPI3 layer's defaults but a longer reply queue) */
#define AREQ_N          H_AREQ_N
#define AREP_N          H_AREP_N
#define OREQ_N          H_OREQ_N
#define OREP_N          64
#define RFREE_N         H_RFREE_N
#define SFREE_N         H_SFREE_N
#define DATA_MAX        (1024 * 1024)

#ifndef DRIVE_BYTES                        /* a test may want bigger */
#define DRIVE_BYTES     (16 * 1024 * 1024)
#endif
#define STRIP_SECTORS   128                 /* 64 KiB */
#define VD_HANDLE       0x300
#ifndef MAX_DRIVES
#define MAX_DRIVES      8
#endif

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
#define VDS_OFFLINE             0
#define VDS_DEGRADED            2
#define VDS_OPTIMAL             3

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

/* The drive images of one test and the configuration written on them. */
typedef struct Rig {
    int n;
    char *path[MAX_DRIVES];
    uint64_t vd_sectors;
    uint32_t seq;               /* DDF sequence number when created */
    MR *m;
} Rig;

typedef struct IoRes {
    uint16_t ioc;
    uint8_t status;             /* SCSI status, 0xff: no reply frame */
    uint8_t key, asc;
    uint32_t xfer;
} IoRes;

/* ------------------------------------------------ DDF images (RAID core) */

/* How rig_write_ddf() lays a configuration onto images. */
typedef struct RigLayout {
    int n;                      /* images */
    int nmem;                   /* [0, nmem): one VD's members; 0: none */
    int nspare;                 /* the next nspare: global hot spares */
    int first_slot;             /* the slot image 0 is recorded in */
    uint64_t drive_bytes;       /* 0: DRIVE_BYTES */
    RaidVdSpec spec;            /* .strip 0: STRIP_SECTORS */
    bool settled;               /* initialized, consistent, no job to run */
} RigLayout;

/*
 * Create (or truncate) the images @path, each drive_bytes, and store the
 * layout's configuration on them as DDF (as megaraid-img does); the rest
 * beyond members and spares stay blank (JBOD).  Returns the VD's size in
 * sectors; *@seq gets the configuration's sequence number.
 */
static inline uint64_t rig_write_ddf(char **path, const RigLayout *l,
                                     uint32_t *seq)
{
    uint64_t bytes = l->drive_bytes ? l->drive_bytes : DRIVE_BYTES;
    RaidVdSpec spec = l->spec;
    uint8_t guid[RAID_GUID_LEN];
    g_autofree int *members = g_new(int, l->nmem + 1);
    GError *err = NULL;
    RaidConfig *cfg;
    uint64_t sectors;
    int v;

    spec.strip = spec.strip ? spec.strip : STRIP_SECTORS;
    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = raid_config_new(guid);
    memcpy(cfg->header_guid, "LSI     QTESTHDR", 16);
    stl_be_p(cfg->header_guid + 16, g_random_int());
    stl_be_p(cfg->header_guid + 20, g_random_int());
    for (int i = 0; i < l->n; i++) {
        int fd = open(path[i], O_RDWR | O_CREAT | O_TRUNC, 0600);
        int pd;

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, bytes) == 0);
        close(fd);
        if (i >= l->nmem + l->nspare) {
            continue;
        }
        memcpy(guid, "LSI     QTESTPD ", 16);
        stl_be_p(guid + 16, g_random_int());
        stl_be_p(guid + 20, i);
        pd = raid_config_add_pd(cfg, guid, l->first_slot + i, bytes / 512,
                                &err);
        g_assert_no_error(err);
        g_assert_cmpint(pd, ==, i);
        cfg->pds[pd].path = g_strdup(path[i]);
    }
    if (!l->nmem) {
        /* blank drives only: nothing on them */
        raid_config_free(cfg);
        return 0;
    }
    for (int i = 0; i < l->nmem; i++) {
        members[i] = i;
    }
    v = raid_config_create_vd(cfg, members, l->nmem, &spec, &err);
    g_assert_no_error(err);
    g_assert_cmpint(v, ==, 0);
    for (int i = l->nmem; i < l->nmem + l->nspare; i++) {
        g_assert_true(raid_config_add_spare(cfg, i, -1, &err));
        g_assert_no_error(err);
    }
    if (l->settled) {
        cfg->vds[v].initialized = true;
        cfg->vds[v].consistent = true;
        cfg->vds[v].job.kind = RAID_JOB_NONE;
    }
    g_assert_true(ddf_store_config(cfg, &err));
    g_assert_no_error(err);
    sectors = cfg->vds[v].size;
    if (seq) {
        *seq = cfg->seq;
    }
    raid_config_free(cfg);
    return sectors;
}

/* @n temporary file names (the files exist, empty) for images. */
static inline void rig_tmp_paths(char **path, int n, const char *prefix)
{
    g_autofree char *tmpl = g_strdup_printf("%s-XXXXXX", prefix);

    for (int i = 0; i < n; i++) {
        int fd = g_file_open_tmp(tmpl, &path[i], NULL);

        g_assert(fd >= 0);
        close(fd);
    }
}

/*
 * @n blank images; drives [0, nmem) form one VD of @level, the next
 * @nspare become global hot spares, the rest stay blank (JBOD).
 */
static inline void rig_create_cached(Rig *r, int n, int nmem, int nspare,
                                     RaidLevel level, uint8_t cache)
{
    RigLayout l = {
        .n = n, .nmem = nmem, .nspare = nspare,
        .spec = {
            .level = level,
            .name = "qtest",
            .cache = RAID_CACHE_READ_ALLOWED | cache,
        },
    };

    memset(r, 0, sizeof(*r));
    r->n = n;
    rig_tmp_paths(r->path, n, "megaraid-rig");
    r->vd_sectors = rig_write_ddf(r->path, &l, &r->seq);
}

static inline void rig_create(Rig *r, int n, int nmem, int nspare,
                              RaidLevel level)
{
    rig_create_cached(r, n, nmem, nspare, level, 0);
}

static inline void rig_destroy(Rig *r)
{
    for (int i = 0; i < r->n; i++) {
        unlink(r->path[i]);
        g_free(r->path[i]);
    }
}

/* The configuration stored on the images, as megaraid-img would read it. */
static inline RaidConfig *rig_load(Rig *r)
{
    uint8_t guid[RAID_GUID_LEN];
    g_autofree DdfDriveRead *reads = g_new0(DdfDriveRead, r->n);
    GError *err = NULL;
    RaidConfig *cfg;

    memcpy(guid, "LSI     MRSIM00000000001", RAID_GUID_LEN);
    cfg = ddf_load_files(r->path, r->n, guid, reads, &err);
    g_assert_no_error(err);
    g_assert_nonnull(cfg);
    for (int i = 0; i < r->n; i++) {
        g_free(reads[i].error);
        ddf_drive_read_clear(&reads[i]);
    }
    return cfg;
}

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

/* Start QEMU on the rig's images (drive i in slot i, NVMe) and bring up. */
/* More megaraid-drive properties for every drive (",name=value..."). */
static const char *drive_extra G_GNUC_UNUSED = "";
/*
 * The file= of drive i's backend when set (e.g. "blkdebug:CONF:IMAGE" to
 * inject errors), else the rig's image; the test that sets it clears it.
 */
static char *drive_file[MAX_DRIVES] G_GNUC_UNUSED;

static inline MR *mr_start(Rig *r, const char *ctrl_extra)
{
    MR *m = g_new0(MR, 1);
    GString *cmd = g_string_new("");

    for (int i = 0; i < r->n; i++) {
        g_string_append_printf(cmd, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=nvme%s ", i,
                               drive_file[i] ? drive_file[i] : r->path[i],
                               i, i, i, drive_extra);
    }
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
    r->m = m;
    return m;
}

static inline void mr_stop(Rig *r)
{
    MR *m = r->m;

    g_array_free(m->events, true);
    h_stop(m);
    r->m = NULL;
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

/* One SCSI command on @handle with m->data as the buffer. */
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

static inline IoRes scsi_cmd(MR *m, uint16_t handle, const uint8_t *cdb,
                      size_t cdb_len, uint32_t dir, uint32_t len)
{
    uint16_t tag = scsi_post(m, handle, cdb, cdb_len, dir, len);
    IoRes r = { .status = 0xff };
    Desc d;

    g_assert_true(h_op_reply(m, &d, 30000));
    g_assert_cmphex(d.tag, ==, tag);
    r.ioc = d.status;
    if (d.type == H_DT_SUCCESS) {
        r.status = 0;
        r.xfer = len;
    } else if (d.type == H_DT_ADDRESS) {
        uint32_t sense_count = ldl_le_p(d.frame + 0x18);
        uint64_t sense_addr = ldq_le_p(d.frame + 0x30);

        r.status = d.frame[0x10];
        r.xfer = ldl_le_p(d.frame + 0x14);
        if ((d.frame[0x11] & 3) == 0 && sense_count) {
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

static inline IoRes scsi_rw(MR *m, uint16_t handle, bool write, bool cdb16,
                     uint64_t lba, uint32_t blocks)
{
    uint8_t cdb[16] = { 0 };

    if (cdb16) {
        cdb[0] = write ? 0x8A : 0x88;
        stq_be_p(cdb + 2, lba);
        stl_be_p(cdb + 10, blocks);
    } else {
        cdb[0] = write ? 0x2A : 0x28;
        stl_be_p(cdb + 2, lba);
        stw_be_p(cdb + 7, blocks);
    }
    return scsi_cmd(m, handle, cdb, cdb16 ? 16 : 10,
                    write ? DIR_WRITE : DIR_READ, blocks * 512);
}

/* The test pattern: a function of the VD byte offset and a seed. */
static inline void pattern(uint8_t *buf, uint64_t lba, uint32_t blocks,
                           uint8_t seed)
{
    for (uint64_t i = 0; i < (uint64_t)blocks * 512; i++) {
        uint64_t off = lba * 512 + i;

        buf[i] = (off >> 9) * 131 + (off & 511) * 7 + seed;
    }
}

static inline void vd_write(MR *m, uint64_t lba, uint32_t blocks, uint8_t seed,
                     bool cdb16)
{
    g_autofree uint8_t *buf = g_malloc(blocks * 512);
    IoRes r;

    pattern(buf, lba, blocks, seed);
    qtest_bufwrite(m->qts, m->data, buf, blocks * 512);
    r = scsi_rw(m, VD_HANDLE, true, cdb16, lba, blocks);
    g_assert_cmphex(r.ioc, ==, 0);
    g_assert_cmphex(r.status, ==, 0);
    g_assert_cmpuint(r.xfer, ==, blocks * 512);
}

static inline void vd_check(MR *m, uint64_t lba, uint32_t blocks, uint8_t seed,
                     bool cdb16)
{
    g_autofree uint8_t *want = g_malloc(blocks * 512);
    g_autofree uint8_t *got = g_malloc(blocks * 512);
    IoRes r;

    pattern(want, lba, blocks, seed);
    qtest_memset(m->qts, m->data, 0xA5, blocks * 512);
    r = scsi_rw(m, VD_HANDLE, false, cdb16, lba, blocks);
    g_assert_cmphex(r.ioc, ==, 0);
    g_assert_cmphex(r.status, ==, 0);
    qtest_bufread(m->qts, m->data, got, blocks * 512);
    g_assert_cmpmem(got, blocks * 512, want, blocks * 512);
}

/*
 * Extents that start inside a strip and end in the next one, cross a
 * full stripe (3 strips of a 4-drive RAID 5) and span several stripes.
 */
static const struct {
    uint64_t lba;
    uint32_t blocks;
    bool cdb16;
} extents[] G_GNUC_UNUSED = {
    { 0, 8, false },                        /* 4 KiB at the start */
    { 120, 16, false },                     /* across a strip boundary */
    { 3 * STRIP_SECTORS - 8, 64, true },    /* across a stripe boundary */
    { 2000, 2048, true },                   /* 1 MiB over several stripes */
    { 9001, 333, false },                   /* odd start and length */
    { 20000, 256, true },                   /* a whole strip, aligned */
};

static inline void write_extents(MR *m, uint8_t seed)
{
    for (size_t i = 0; i < ARRAY_SIZE(extents); i++) {
        vd_write(m, extents[i].lba, extents[i].blocks, seed + i,
                 extents[i].cdb16);
    }
}

static inline void check_extents(MR *m, uint8_t seed)
{
    for (size_t i = 0; i < ARRAY_SIZE(extents); i++) {
        vd_check(m, extents[i].lba, extents[i].blocks, seed + i,
                 !extents[i].cdb16);
    }
}

/* ------------------------------------------ QOM (qom_* in the MPI3 layer) */

#define CTRL        "/machine/peripheral/raid0"

static inline char *drive_path(int i)
{
    return g_strdup_printf("/machine/peripheral/hd%d", i);
}

static inline void assert_vd_state(MR *m, const char *want)
{
    g_autofree char *s = qom_get_str(m, CTRL, "vd0-state");

    g_assert_cmpstr(s, ==, want);
}

static inline void assert_drive_state(MR *m, int i, const char *want)
{
    g_autofree char *p = drive_path(i);
    g_autofree char *s = qom_get_str(m, p, "state");

    g_assert_cmpstr(s, ==, want);
}

static inline void fail_drive(MR *m, int i)
{
    g_autofree char *p = drive_path(i);

    qom_set_str(m, p, "state", "offline");
}

#endif
