/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the controller's RAID configuration at run time.
 *
 * Owns the import of the DDF metadata from the drives when the controller
 * starts (as firmware does at boot), the VDs built from it, the metadata
 * written back to the drives on every change, drive failures (from the
 * host, from I/O errors, from a pulled drive) with the hot-spare takeover
 * that follows, and drives inserted while running.  It owns and drives
 * the layers below it (array.h): the VD entry points in array-vd.c, the
 * cache in array-cache*.c, rebuild and the other background jobs in
 * array-jobs.c, the member I/O in array-member.c; they report back
 * through the MRArrayHooks installed here.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "system/block-backend.h"
#include "system/runstate.h"
#include "block/aio-wait.h"
#include "qemu/coroutine.h"
#include "raid/ddf.h"
#include "array.h"
#include "evlog-array.h"
#include "hw/megaraid/timing/array-timing.h"
#include "trace.h"

int mr_array_pd_of(MRArray *a, MRDrive *d)
{
    if (!a->cfg) {
        return -1;
    }
    for (int i = 0; i < a->cfg->npds; i++) {
        if (a->pd_drive[i] == d) {
            return i;
        }
    }
    return -1;
}

const char *mr_array_drive_state(MRArray *a, MRDrive *d)
{
    int pd = mr_array_pd_of(a, d);

    if (d->meta_pending) {
        return "pending";       /* hot-plugged, its metadata being read */
    }
    return pd < 0 ? "unconfigured-good"
                  : raid_pd_state_name(a->cfg->pds[pd].state);
}

bool mr_array_drive_hidden(MRArray *a, MRDrive *d)
{
    int pd = mr_array_pd_of(a, d);

    if (d->meta_pending) {
        return true;
    }
    return pd >= 0 && a->cfg->pds[pd].state != RAID_PD_UNCONF_GOOD;
}

MRWritePolicy mr_array_write_policy(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;
    uint8_t cache = mr_vd_cfg(vd)->cache;

    if (cache & RAID_CACHE_WB_NO_BATTERY) {
        return MR_WP_ALWAYS_WRITE_BACK;
    }
    if ((cache & RAID_CACHE_WRITE_BACK) && a->cachevault == MR_CV_OPTIMAL &&
        a->journal_blk) {
        return MR_WP_WRITE_BACK;
    }
    return MR_WP_WRITE_THROUGH;
}

/* ---- metadata I/O on a drive's BlockBackend ---- */

static int mr_ddf_read(void *opaque, uint64_t offset, void *buf, size_t len)
{
    MRDrive *d = opaque;

    return blk_pread(d->conf.blk, offset, len, buf, 0);
}

static int mr_ddf_write(void *opaque, uint64_t offset, const void *buf,
                        size_t len)
{
    MRDrive *d = opaque;

    return blk_pwrite(d->conf.blk, offset, len, buf, 0);
}

static int mr_ddf_flush(void *opaque)
{
    MRDrive *d = opaque;

    return blk_flush(d->conf.blk);
}

DdfDriveIO mr_ddf_io(MRDrive *d)
{
    return (DdfDriveIO) {
        .read = mr_ddf_read,
        .write = mr_ddf_write,
        .flush = mr_ddf_flush,
        .opaque = d,
        .bytes = d->unit.num_blocks * d->unit.block_size,
    };
}

/* The GUID of a drive that holds no DDF yet: its vendor and WWN. */
static void mr_drive_guid(MRDrive *d, uint8_t guid[RAID_GUID_LEN])
{
    char tail[17];

    memset(guid, ' ', RAID_GUID_LEN);
    memcpy(guid, d->unit.vendor, MIN(strlen(d->unit.vendor), 8));
    snprintf(tail, sizeof(tail), "%016" PRIx64, d->unit.wwn);
    memcpy(guid + 8, tail, 16);
}

static bool mr_pd_written(const RaidPd *p)
{
    switch (p->state) {
    case RAID_PD_ONLINE:
    case RAID_PD_REBUILD:
    case RAID_PD_HOT_SPARE:
    case RAID_PD_COPYBACK:      /* written unconfigured: the cursors name it */
        return true;
    default:
        /* failed, foreign and unconfigured drives are left alone */
        return false;
    }
}

/*
 * ---- the metadata writer ----
 *
 * One coroutine per array writes the DDF metadata, off the main loop's
 * back: a store asked for (mr_array_store) bumps meta_asked and starts it
 * if idle; it runs passes until meta_done catches up, so stores asked for
 * while a pass is in flight coalesce into one more pass with the newest
 * configuration.  A pass takes a snapshot (the sequence number, each
 * drive's DdfMeta, the job cursors) without yielding, then writes all its
 * drives at once, one coroutine each, and ends when the last is done.
 *
 * Order, so that a crash at any point leaves metadata that our import and
 * mdadm read (docs/dev/raid-core.md, "Metadata writes"):
 *  - per drive, ddf_drive_write(): primary, anchor, secondary, each copy
 *    opened, written, closed and flushed: one valid copy at every moment;
 *  - across drives: every pass has a new header sequence number, and a
 *    reader takes the global sections of the drive with the highest one
 *    (an open copy counting one less), the VD records with the highest
 *    record sequence number: a crash part way through a pass reads as
 *    the old configuration or the new one, never a mixture of sections;
 *  - passes never overlap, so a later change is never on a drive before
 *    an earlier one;
 *  - a failed or removed member is not written (mr_pd_written): the
 *    survivors carry its new state, and its own stale copy, with a lower
 *    sequence number, loses to theirs;
 *  - a write to a VD whose members changed is acknowledged only once the
 *    pass recording the change is done (mr_vd_co_io waits for
 *    vd->meta_barrier): data written around a failed member is never
 *    acknowledged while the drives still name it online.
 * Only the exit paths (shutdown, unrealize) wait for the writer outside a
 * coroutine (mr_array_meta_wait); a coroutine caller of mr_array_store
 * (a job's checkpoint) waits for its pass by yielding.
 */

/*
 * One drive's write in a pass.  A drive pulled meanwhile is cancelled
 * (mr_array_drive_removed drains its BlockBackend after that): the rest
 * of its write fails without touching it.
 */
typedef struct MRMetaDrive {
    MRArray *a;
    MRDrive *d;
    BlockBackend *blk;
    uint32_t slot;
    DdfMeta *m;
    bool cancelled;             /* the drive went: no more I/O to it */
    bool ok;
    char *err;
    QLIST_ENTRY(MRMetaDrive) next;
} MRMetaDrive;

static int mr_meta_io_read(void *opaque, uint64_t offset, void *buf,
                           size_t len)
{
    return -ENOTSUP;            /* the write protocol never reads */
}

static int coroutine_fn mr_meta_io_write(void *opaque, uint64_t offset,
                                         const void *buf, size_t len)
{
    MRMetaDrive *w = opaque;

    if (w->cancelled) {
        return -ENODEV;
    }
    return blk_co_pwrite(w->blk, offset, len, buf, 0);
}

static int coroutine_fn mr_meta_io_flush(void *opaque)
{
    MRMetaDrive *w = opaque;

    if (w->cancelled) {
        return -ENODEV;
    }
    return blk_co_flush(w->blk);
}

static void coroutine_fn mr_meta_drive_co(void *opaque)
{
    MRMetaDrive *w = opaque;
    MRArray *a = w->a;
    DdfDriveIO io = {
        .read = mr_meta_io_read,
        .write = mr_meta_io_write,
        .flush = mr_meta_io_flush,
        .opaque = w,
        .bytes = w->d->unit.num_blocks * w->d->unit.block_size,
    };
    GError *err = NULL;

    trace_megaraid_array_store_drive(w->slot, w->m->seq);
    w->ok = ddf_drive_write(&io, w->m, &err);
    if (!w->ok) {
        w->err = g_strdup(err->message);
        g_error_free(err);
    }
    if (--a->meta_writing == 0) {
        aio_co_wake(a->meta_co);
    }
}

/* The drives a pass writes: members, spares and the PDs asked for. */
static bool mr_meta_target(MRArray *a, int pd)
{
    return a->pd_drive[pd] && a->pd_drive[pd]->conf.blk &&
           (mr_pd_written(&a->cfg->pds[pd]) || a->meta_extra[pd]);
}

/* A job cursor's row as the metadata records it, -1: no job. */
static int64_t mr_vd_cursor_row(const RaidVd *v)
{
    return v->job.kind == RAID_JOB_NONE ? -1 : (int64_t)v->job.next_row;
}

/* A drive the next pass zeroes the metadata area of (mr_array_store_wipe). */
typedef struct MRMetaWipe {
    MRDrive *d;
    BlockBackend *blk;
    uint32_t slot;
    uint64_t offset, bytes;
    MRWiped *wiped;
    bool cancelled;             /* the drive went: no more I/O to it */
} MRMetaWipe;

static void mr_meta_error(MRArray *a, bool first, char *msg)
{
    if (first) {
        g_free(a->meta_error);
        a->meta_error = msg;
    } else {
        g_free(msg);
    }
}

/*
 * The wipes asked for, one after the other, before the pass writes
 * anything: a drive is shown to the host (@wiped) only once it is blank,
 * and no later metadata write to it can overtake its wipe.
 */
static bool coroutine_fn mr_meta_wipes(MRArray *a)
{
    bool ok = true;

    while (a->meta_wipes) {
        MRMetaWipe *w = a->meta_wipes->data;
        int ret = -ENODEV;

        a->meta_wipes = g_slist_delete_link(a->meta_wipes, a->meta_wipes);
        if (!w->cancelled) {
            a->meta_wiping = w;
            ret = blk_co_pwrite_zeroes(w->blk, w->offset, w->bytes, 0);
            if (ret >= 0 && !w->cancelled) {
                ret = blk_co_flush(w->blk);
            }
            a->meta_wiping = NULL;
        }
        trace_megaraid_array_wipe(w->slot, w->cancelled ? "drive gone" :
                                  ret < 0 ? strerror(-ret) : "blank");
        if (w->cancelled) {
            g_free(w);
            continue;
        }
        if (ret < 0) {
            mr_meta_error(a, ok, g_strdup_printf("megaraid: clearing the "
                                                 "metadata of the drive in "
                                                 "slot %u failed: %s",
                                                 w->slot, strerror(-ret)));
            ok = false;
        }
        if (!a->meta_closing && !a->shut_down) {
            w->wiped(a, w->d, ret >= 0);
        }
        g_free(w);
    }
    return ok;
}

static bool coroutine_fn mr_meta_pass(MRArray *a)
{
    uint32_t ts = (uint32_t)(g_get_real_time() / G_USEC_PER_SEC - 315532800);
    g_autoptr(GPtrArray) ws = g_ptr_array_new();
    int64_t rows[RAID_MAX_VDS];
    bool ok = mr_meta_wipes(a);

    if (!a->cfg || a->cfg->foreign || a->adopt_hold) {
        return ok;
    }
    /*
     * The snapshot: the cursors as they are before the first drive is
     * written (a job moves on meanwhile: every drive gets this row or a
     * later one), the sequence number, every drive's metadata.
     */
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        rows[v] = mr_vd_cursor_row(&a->cfg->vds[v]);
    }
    a->cfg->seq++;
    for (int i = 0; i < a->cfg->npds; i++) {
        MRMetaDrive *w;

        if (!mr_meta_target(a, i)) {
            a->meta_extra[i] = false;
            continue;
        }
        a->meta_extra[i] = false;
        w = g_new0(MRMetaDrive, 1);
        w->a = a;
        w->d = a->pd_drive[i];
        w->blk = w->d->conf.blk;
        w->slot = w->d->slot;
        w->m = ddf_meta_from_config(a->cfg, i, a->cfg->seq, ts);
        QLIST_INSERT_HEAD(&a->meta_drives, w, next);
        g_ptr_array_add(ws, w);
    }
    a->meta_writing = ws->len + 1;
    for (guint i = 0; i < ws->len; i++) {
        qemu_coroutine_enter(qemu_coroutine_create(mr_meta_drive_co,
                                                   ws->pdata[i]));
    }
    if (--a->meta_writing) {
        qemu_coroutine_yield();
    }
    for (guint i = 0; i < ws->len; i++) {
        MRMetaDrive *w = ws->pdata[i];

        QLIST_REMOVE(w, next);
        if (!w->ok && !w->cancelled) {
            /* reported (QEMU's log; a management reply: IO_ERROR) */
            trace_megaraid_array_store_error(w->slot, w->err);
            mr_meta_error(a, ok, g_strdup_printf("megaraid: writing the "
                                                 "DDF metadata to the drive "
                                                 "in slot %u failed: %s",
                                                 w->slot, w->err));
            ok = false;
        }
        ddf_meta_free(w->m);
        g_free(w->err);
        g_free(w);
    }
    trace_megaraid_array_store(a->cfg ? a->cfg->seq : 0);
    for (int v = 0; ok && v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            a->vds[v]->job_ckpt_row = rows[v];
        }
    }
    return ok;
}

typedef struct MRMetaDoneCb {
    uint64_t pass;
    MRMetaDone *done;
    void *opaque;
} MRMetaDoneCb;

/* The callbacks of the passes finished now. */
static void mr_meta_call_done(MRArray *a, bool ok)
{
    GSList *due = NULL;

    for (GSList *l = a->meta_done_cbs; l; ) {
        MRMetaDoneCb *cb = l->data;
        GSList *next = l->next;

        if (cb->pass <= a->meta_done) {
            a->meta_done_cbs = g_slist_delete_link(a->meta_done_cbs, l);
            due = g_slist_prepend(due, cb);
        }
        l = next;
    }
    /* in the order they were asked for */
    for (GSList *l = due; l; l = l->next) {
        MRMetaDoneCb *cb = l->data;

        cb->done(cb->opaque, ok);
        g_free(cb);
    }
    g_slist_free(due);
}

void mr_array_when_stored(MRArray *a, uint64_t pass, MRMetaDone *done,
                          void *opaque)
{
    MRMetaDoneCb *cb;

    if (pass <= a->meta_done) {
        done(opaque, a->meta_ok);
        return;
    }
    cb = g_new0(MRMetaDoneCb, 1);
    cb->pass = pass;
    cb->done = done;
    cb->opaque = opaque;
    a->meta_done_cbs = g_slist_prepend(a->meta_done_cbs, cb);
}

static void coroutine_fn mr_meta_co(void *opaque)
{
    MRArray *a = opaque;

    while (a->meta_done < a->meta_asked) {
        uint64_t upto = a->meta_asked;
        bool ok = mr_meta_pass(a);

        if (!ok && !a->shut_down) {
            warn_report("%s", a->meta_error);
        }
        a->meta_ok = ok;
        a->meta_done = upto;
        qemu_co_queue_restart_all(&a->meta_waiters);
        mr_meta_call_done(a, ok);
    }
    a->meta_co = NULL;
    trace_megaraid_array_store_idle(a->meta_done);
    aio_wait_kick();
}

uint64_t mr_array_store_async(MRArray *a)
{
    /* (a run-time import reading its journal: its end asks a pass) */
    if (!a->cfg || a->cfg->foreign || a->adopt_hold) {
        return a->meta_done;
    }
    a->meta_asked++;
    if (!a->meta_co) {
        a->meta_co = qemu_coroutine_create(mr_meta_co, a);
        aio_co_enter(qemu_get_aio_context(), a->meta_co);
    }
    return a->meta_asked;
}

void mr_array_store_pd(MRArray *a, int pd)
{
    if (pd >= 0 && pd < RAID_MAX_PDS) {
        a->meta_extra[pd] = true;
    }
    mr_array_store_async(a);
}

uint64_t mr_array_store_wipe(MRArray *a, MRDrive *d, MRWiped *wiped)
{
    uint64_t bytes = d->unit.num_blocks * d->unit.block_size;
    uint64_t reserve = raid_reserve_sectors(bytes / RAID_SECTOR_SIZE) *
                       RAID_SECTOR_SIZE;
    MRMetaWipe *w = g_new0(MRMetaWipe, 1);

    reserve = MIN(reserve, bytes);
    w->d = d;
    w->blk = d->conf.blk;
    w->slot = d->slot;
    w->offset = bytes - reserve;
    w->bytes = reserve;
    w->wiped = wiped;
    w->cancelled = !w->blk;
    a->meta_wipes = g_slist_append(a->meta_wipes, w);
    return mr_array_store_async(a);
}

bool mr_array_store(MRArray *a, Error **errp)
{
    uint64_t gen = mr_array_store_async(a);

    if (!qemu_in_coroutine()) {
        /* the writer reports its own errors */
        return true;
    }
    while (a->meta_done < gen) {
        qemu_co_queue_wait(&a->meta_waiters, NULL);
    }
    if (!a->meta_ok) {
        error_setg(errp, "%s", a->meta_error);
        return false;
    }
    return true;
}

bool mr_array_meta_pending(MRArray *a)
{
    return a->meta_co != NULL;
}

/* Exit paths only: wait for the writer, polling the main context. */
static bool mr_array_meta_wait(MRArray *a)
{
    AIO_WAIT_WHILE_UNLOCKED(NULL, a->meta_co != NULL);
    return a->meta_ok;
}

/* Drive @d goes: the writer's I/O to it stops. */
static void mr_array_meta_cancel(MRArray *a, MRDrive *d)
{
    MRMetaDrive *w;

    QLIST_FOREACH(w, &a->meta_drives, next) {
        if (w->d == d) {
            w->cancelled = true;
        }
    }
    for (GSList *l = a->meta_wipes; l; l = l->next) {
        MRMetaWipe *wipe = l->data;

        if (wipe->d == d) {
            wipe->cancelled = true;
        }
    }
    if (a->meta_wiping && a->meta_wiping->d == d) {
        a->meta_wiping->cancelled = true;
    }
}

/* ---- VDs ---- */

static void mr_vd_unit_init(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;
    RaidVd *v = mr_vd_cfg(vd);
    MRUnit *u = &vd->unit;
    uint32_t bs = 512, pbs = 512, crc = 0;
    bool ssd = true, discard = true;

    for (uint32_t m = 0; m < vd->layout.members; m++) {
        const MRDrive *d = vd->member_pd[m] >= 0 ?
                           a->pd_drive[vd->member_pd[m]] : NULL;

        if (!d) {
            continue;
        }
        bs = MAX(bs, d->unit.block_size);
        pbs = MAX(pbs, d->unit.phys_block_size);
        ssd &= d->unit.media == MR_MEDIA_SSD;
        discard &= d->unit.discard;
    }
    for (int i = 0; i < RAID_GUID_LEN; i++) {
        crc = crc * 31 + v->guid[i];
    }
    u->vd = vd;
    u->drive = NULL;
    u->iface = MR_IF_SAS;
    u->media = ssd ? MR_MEDIA_SSD : MR_MEDIA_HDD;
    u->rotation_rate = ssd ? 1 : 7200;
    /* volumes report the card: BROADCOM MR9670W-16i, DELL PERC H965i */
    snprintf(u->name, sizeof(u->name), "vd %d", vd->idx);
    u->vendor = g_strdup(a->vendor ?: "");
    u->model = g_str_has_prefix(a->product, "MegaRAID ") ?
               g_strdup_printf("MR%.14s", a->product + 9) :
               g_strndup(a->product, 16);
    u->serial = g_strdup_printf("%08x%04x", crc, vd->idx);
    u->firmware = g_strdup(a->vd_revision ?: "");
    /*
     * NAA 6 (16 bytes) with the LSI OUI, as MegaRAID volumes report; the
     * extension is the rest of the VD GUID, so the name is stable.
     */
    u->wwn = 0x600605b000000000ULL | ((uint64_t)crc << 4) | (vd->idx & 0xf);
    u->wwn_ext = ldq_be_p(v->guid + RAID_GUID_LEN - 8) | 1;
    u->block_size = bs;
    u->phys_block_size = pbs;
    u->num_blocks = vd->layout.vd_sectors * RAID_SECTOR_SIZE / bs;
    u->discard = discard && vd->layout.level != RAID_LEVEL_JBOD;
    u->opt_gran_blocks = vd->layout.strip * RAID_SECTOR_SIZE / bs;
    if (vd->layout.level != RAID_LEVEL_1 &&
        vd->layout.level != RAID_LEVEL_JBOD) {
        uint64_t full = vd->layout.row_sectors * RAID_SECTOR_SIZE;

        /* the controller moves at most max_xfer_bytes per request */
        u->opt_xfer_blocks = (full <= a->max_xfer_bytes ? full :
                              vd->layout.strip * RAID_SECTOR_SIZE) / bs;
    }
    u->ts.wce = mr_array_write_policy(vd) != MR_WP_WRITE_THROUGH;
    u->ts.saved_wce = u->ts.wce;
    u->ts.default_wce = u->ts.wce;
    u->ts.mrie = 6;
    u->ts.realized_ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

static void mr_vd_unit_free(MRVirtualDisk *vd)
{
    g_free(vd->unit.vendor);
    g_free(vd->unit.model);
    g_free(vd->unit.serial);
    g_free(vd->unit.firmware);
}

/* Member states and drives of a VD, from the configuration. */
static void mr_vd_sync(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(a->cfg, vd->idx, pds, RAID_MAX_MEMBERS);

    raid_config_vd_member_states(a->cfg, vd->idx, vd->st);
    vd->in_sync_missing = raid_config_count_in_sync(a->cfg,
                                                    mr_vd_cfg(vd)->dg);
    for (int m = 0; m < RAID_MAX_MEMBERS; m++) {
        vd->member_pd[m] = m < n ? pds[m] : -1;
        if (m < n && !a->pd_drive[pds[m]]) {
            vd->st[m].status = RAID_MEMBER_MISSING;
        }
    }    mr_vd_copy_sync(vd, pds, n);
}

MRVirtualDisk *mr_vd_new(MRArray *a, int idx, Error **errp)
{
    MRVirtualDisk *vd = g_new0(MRVirtualDisk, 1);
    GError *err = NULL;

    vd->array = a;
    vd->idx = idx;
    if (!raid_config_vd_layout(a->cfg, idx, &vd->layout, &err)) {
        error_setg(errp, "megaraid: VD %d in the DDF metadata cannot be "
                   "used: %s", idx, err->message);
        g_error_free(err);
        g_free(vd);
        return NULL;
    }
    mr_vd_sync(vd);
    vd->job_resumed_row = mr_vd_cursor_row(mr_vd_cfg(vd));
    vd->job_ckpt_row = vd->job_resumed_row;
    vd->job_last_ms = -1;
    vd->job_last_model_ms = -1;
    vd->locks = raid_stripe_locks_new();
    mr_vd_unit_init(vd);
    mr_cache_vd_init(vd);
    if (a->vd_made) {
        a->vd_made(vd);
    }
    mr_timing_vd_props(vd);
    return vd;
}

static void mr_vd_release(MRVirtualDisk *vd)
{
    raid_stripe_locks_free(vd->locks);
    mr_vd_unit_free(vd);
    g_free(vd);
}

void mr_vd_free(MRVirtualDisk *vd)
{
    mr_patrol_stop(vd->array);
    mr_jobs_stop(vd);
    mr_vd_drain(vd);
    mr_cache_vd_cleanup(vd);
    mr_vd_release(vd);
}

void coroutine_fn mr_vd_co_free(MRVirtualDisk *vd)
{
    vd->job_paused = true;      /* no kick starts its job again */
    mr_patrol_stop(vd->array);  /* waits in this coroutine */
    mr_jobs_stop(vd);
    while (vd->job_stop_waiters > 0) {
        /* a management stop of its job still to look at it */
        qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, SCALE_MS);
    }
    while (vd->in_flight > 0) {
        qemu_co_sleep_ns(QEMU_CLOCK_REALTIME, SCALE_MS);
    }
    mr_cache_co_vd_cleanup(vd);
    mr_vd_release(vd);
}

/* ---- states ---- */

void mr_array_refresh(MRArray *a)
{
    RaidVdState before[RAID_MAX_VDS];

    for (int i = 0; i < RAID_MAX_VDS; i++) {
        before[i] = a->cfg->vds[i].state;
    }
    raid_config_update_states(a->cfg);
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVirtualDisk *vd = a->vds[i];

        if (!vd) {
            continue;
        }
        mr_vd_sync(vd);
        /* the caching mode page shows the controller cache's policy */
        vd->unit.ts.wce = mr_array_write_policy(vd) != MR_WP_WRITE_THROUGH;
        trace_megaraid_array_vd_state(i, raid_vd_state_name(before[i]),
                raid_vd_state_name(mr_vd_cfg(vd)->state));
        if (a->ops->vd_changed && !vd->deleting && !a->adopting) {
            a->ops->vd_changed(a->opaque, vd);
        }
    }
    mr_ev_sync(a);
}

/* Drive group of which PD @pd is a member, or -1 (spare, unused drive). */
static int mr_pd_group(MRArray *a, int pd)
{
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        int pds[RAID_MAX_MEMBERS];
        int n;

        if (!a->cfg->vds[v].used) {
            continue;
        }
        n = raid_vd_members(a->cfg, v, pds, RAID_MAX_MEMBERS);
        for (int k = 0; k < n; k++) {
            if (pds[k] == pd) {
                return a->cfg->vds[v].dg;
            }
        }
    }
    return -1;
}

/*
 * Every degraded drive group with a usable hot spare gets it: the spare
 * takes a failed or missing member's place and a rebuild starts.
 */
static void mr_array_use_spares(MRArray *a)
{
    bool changed = false;

    for (int pd = 0; pd < a->cfg->npds; pd++) {
        RaidPdState s = a->cfg->pds[pd].state;
        int dg, spare;
        GError *err = NULL;

        if (s != RAID_PD_OFFLINE && s != RAID_PD_MISSING) {
            continue;
        }
        if (s == RAID_PD_MISSING && a->cfg->pds[pd].in_sync) {
            /* left off at start, nothing written since: it holds its place */
            continue;
        }
        dg = mr_pd_group(a, pd);
        if (dg < 0) {
            continue;
        }
        spare = raid_config_pick_spare(a->cfg, dg);
        if (spare < 0 || !a->pd_drive[spare]) {
            continue;
        }
        if (!raid_config_replace_pd(a->cfg, pd, spare, &err)) {
            trace_megaraid_array_spare_refused(a->cfg->pds[spare].slot,
                                               err->message);
            g_error_free(err);
            continue;
        }
        trace_megaraid_array_spare_used(a->pd_drive[spare]->slot, dg);
        changed = true;
        mr_array_tell_drive(a, a->pd_drive[spare]);
    }
    if (changed) {
        mr_array_refresh(a);
    }
}

/* After a change: spares, states, metadata, jobs. */
void mr_array_changed(MRArray *a)
{
    RaidMemberStatus was[RAID_MAX_VDS][RAID_MAX_MEMBERS];
    int pd_was[RAID_MAX_VDS][RAID_MAX_MEMBERS];
    uint64_t gen;
    g_autofree bool *copying = mr_array_copy_targets(a);

    for (int i = 0; i < RAID_MAX_VDS; i++) {
        for (int m = 0; a->vds[i] && m < RAID_MAX_MEMBERS; m++) {
            was[i][m] = a->vds[i]->st[m].status;
            pd_was[i][m] = a->vds[i]->member_pd[m];
        }
    }
    mr_array_refresh(a);
    mr_array_use_spares(a);
    mr_array_copy_released(a, copying);
    gen = mr_array_store_async(a);
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        MRVirtualDisk *vd = a->vds[i];

        for (int m = 0; vd && m < RAID_MAX_MEMBERS; m++) {
            if (vd->st[m].status != was[i][m] ||
                vd->member_pd[m] != pd_was[i][m]) {
                /* its writes wait until the drives record the change */
                vd->meta_barrier = gen;
                break;
            }
        }
    }
    for (int i = 0; i < RAID_MAX_VDS; i++) {
        if (a->vds[i]) {
            mr_jobs_kick(a->vds[i]);
        }
    }
}

void mr_array_fail_drive(MRArray *a, MRDrive *d, const char *why)
{
    int pd = mr_array_pd_of(a, d);
    GError *err = NULL;

    if (pd < 0 || a->shut_down) {
        /* after the shutdown write-back, errors come from closing drives */
        return;
    }
    trace_megaraid_array_fail(d->slot, why,
                              raid_pd_state_name(a->cfg->pds[pd].state));
    if (!raid_config_fail_pd(a->cfg, pd, &err)) {
        trace_megaraid_array_fail_refused(d->slot, err->message);
        g_error_free(err);
        return;
    }
    warn_report("megaraid: drive in slot %u failed (%s)", d->slot, why);
    mr_ev_drive(a, MR_EV_PD_FAILED, d, why);
    mr_array_changed(a);
}

void mr_array_drive_removed(MRArray *a, MRDrive *d)
{
    int pd;

    /* a read still running: unplug waits for it, the drive has its place */
    mr_array_drive_read_wait(a, d);
    pd = mr_array_pd_of(a, d);

    mr_ev_drive(a, MR_EV_PD_REMOVED, d, NULL);
    if (pd < 0) {
        /* a foreign drive: a wipe asked for or running stops */
        mr_array_meta_cancel(a, d);
        if (d->conf.blk && a->meta_wiping && a->meta_wiping->d == d) {
            blk_drain(d->conf.blk);
        }
        return;
    }
    if (a->cfg->pds[pd].state == RAID_PD_ONLINE ||
        a->cfg->pds[pd].state == RAID_PD_REBUILD) {
        raid_config_fail_pd(a->cfg, pd, NULL);
    }
    if (a->cfg->pds[pd].state == RAID_PD_OFFLINE) {
        raid_config_set_pd_state(a->cfg, pd, RAID_PD_MISSING, NULL);
    }
    if (a->cfg->pds[pd].state == RAID_PD_COPYBACK) {
        /* the copyback onto it ends; the member stays where it is */
        raid_config_set_pd_state(a->cfg, pd, RAID_PD_UNCONF_GOOD, NULL);
    }
    a->cfg->pds[pd].present = false;
    a->pd_drive[pd] = NULL;
    trace_megaraid_array_drive_removed(d->slot, pd);
    /* member and metadata I/O already issued to it completes first */
    mr_array_meta_cancel(a, d);
    if (d->conf.blk) {
        blk_drain(d->conf.blk);
    }
    mr_array_changed(a);
}


/* A drive that holds no usable metadata joins as unconfigured good. */
static int mr_array_add_blank(MRArray *a, MRDrive *d)
{
    uint8_t guid[RAID_GUID_LEN];
    uint64_t sectors = d->unit.num_blocks * d->unit.block_size /
                       RAID_SECTOR_SIZE;
    GError *err = NULL;
    int pd;

    mr_drive_guid(d, guid);
    for (pd = 0; pd < a->cfg->npds; pd++) {
        if (!memcmp(a->cfg->pds[pd].guid, guid, RAID_GUID_LEN)) {
            break;
        }
    }
    if (pd < a->cfg->npds) {
        if (a->pd_drive[pd]) {
            return -1;
        }
    } else {
        pd = raid_config_add_pd(a->cfg, guid, -1, sectors, &err);
        if (pd < 0) {
            /* e.g. too small for the metadata reserve: a plain JBOD */
            trace_megaraid_array_pd_refused(d->slot, err->message);
            g_error_free(err);
            return -1;
        }
    }
    a->cfg->pds[pd].present = true;
    a->cfg->pds[pd].slot = d->slot;
    a->cfg->pds[pd].sectors = sectors;
    a->pd_drive[pd] = d;
    return pd;
}

/*
 * Member @pd (present, OFFLINE: back with stale data, or failed) is
 * rebuilt onto itself: REBUILD, and a rebuild on its drive group's VDs.
 */
static void mr_array_rebuild_returned(MRArray *a, int pd)
{
    int dg = mr_pd_group(a, pd);

    if (dg < 0 ||
        !raid_config_set_pd_state(a->cfg, pd, RAID_PD_REBUILD, NULL)) {
        return;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->cfg->vds[v].used && a->cfg->vds[v].dg == dg) {
            raid_job_start(a->cfg, v, RAID_JOB_REBUILD, false, NULL);
        }
    }
}

void coroutine_fn mr_array_co_write_starts(MRVirtualDisk *vd)
{
    MRArray *a = vd->array;
    int dg = mr_vd_cfg(vd)->dg;

    if (!raid_config_mark_stale(a->cfg, dg)) {
        return;
    }
    /*
     * The missing members no longer hold the VD's data: the drives must
     * say so before the write reaches any member, or a start with them
     * back would take them online (hw/raid/config-state.c).
     */
    trace_megaraid_array_stale(vd->idx, dg);
    warn_report("megaraid: VD %d written while degraded: its missing "
                "members are stale now and will be rebuilt when back",
                vd->idx);
    mr_ev_vd_stale(a, vd->idx);
    if (a->importing) {
        /* the journal's replay: the import's end does the rest */
        for (int v = 0; v < RAID_MAX_VDS; v++) {
            if (a->vds[v]) {
                mr_vd_sync(a->vds[v]);
            }
        }
        vd->write_barrier = mr_array_store_async(a);
    } else {
        mr_array_changed(a);        /* now a spare may take their place */
        vd->write_barrier = a->meta_asked;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v] && mr_vd_cfg(a->vds[v])->dg == dg) {
            a->vds[v]->write_barrier = vd->write_barrier;
        }
    }
}

void mr_array_drive_place(MRArray *a, MRDrive *d, const DdfDriveRead *rd)
{
    int pd = -1;

    if (!a->cfg) {
        return;                 /* import at start will see it */
    }
    mr_ev_drive(a, MR_EV_PD_INSERTED, d, NULL);
    if (rd && rd->meta) {
        for (int i = 0; i < a->cfg->npds; i++) {
            if (!memcmp(a->cfg->pds[i].guid, rd->meta->pdd_guid,
                        RAID_GUID_LEN) && !a->pd_drive[i]) {
                pd = i;
            }
        }
        if (pd < 0 || memcmp(rd->meta->ctrl_guid, a->cfg->ctrl_guid,
                             RAID_GUID_LEN)) {
            /* another array's drive: foreign, hidden, never written */
            trace_megaraid_array_foreign(d->slot);
            mr_ev_config(a, MR_EV_CFG_FOREIGN_FOUND, 1);
            d->in_array = true;
            return;
        }
        a->pd_drive[pd] = d;
        a->cfg->pds[pd].present = true;
        a->cfg->pds[pd].slot = d->slot;
        if (a->cfg->pds[pd].state == RAID_PD_MISSING &&
            mr_pd_group(a, pd) < 0) {
            /*
             * a spare took its place meanwhile: it is no member any more,
             * a drive like any other (written so, its DDF agrees)
             */
            raid_config_set_pd_state(a->cfg, pd, RAID_PD_UNCONF_GOOD, NULL);
            a->meta_extra[pd] = true;
        } else if (a->cfg->pds[pd].state == RAID_PD_MISSING) {
            /* the member is back: online if in sync, else rebuild it */
            raid_config_member_back(a->cfg, pd);
        }
    }
    if (pd < 0) {
        pd = mr_array_add_blank(a, d);
        if (pd >= 0) {
            /* a new drive, put in now: a copyback may take it */
            a->cfg->pds[pd].arrived_blank = true;
        }
    }
    trace_megaraid_array_drive_added(d->slot, pd);
    if (pd >= 0 && a->auto_rebuild &&
        (a->cfg->pds[pd].state == RAID_PD_UNCONF_GOOD ||
         a->cfg->pds[pd].state == RAID_PD_OFFLINE)) {
        /* a replacement in the bay of a failed member takes its place */
        for (int old = 0; old < a->cfg->npds; old++) {
            RaidPd *o = &a->cfg->pds[old];

            if (old == pd && o->state == RAID_PD_OFFLINE) {
                mr_array_rebuild_returned(a, pd);
                break;
            }
            if (old != pd && !a->pd_drive[old] && o->slot == (int)d->slot &&
                (o->state == RAID_PD_MISSING || o->state == RAID_PD_OFFLINE) &&
                mr_pd_group(a, old) >= 0 &&
                raid_config_replace_pd(a->cfg, old, pd, NULL)) {
                trace_megaraid_array_replaced(d->slot);
                break;
            }
        }
    }
    /* in the bay of a member a hot spare replaced: copy the spare back */
    mr_array_copyback_onto(a, pd);
    d->in_array = mr_array_drive_hidden(a, d);
    mr_array_changed(a);
}

void mr_array_tell_drive(MRArray *a, MRDrive *d)
{
    bool hidden = mr_array_drive_hidden(a, d);
    bool toggled = d->in_array != hidden;

    d->in_array = hidden;
    if (a->ops->drive_changed) {
        a->ops->drive_changed(a->opaque, d, toggled);
    }
}

bool mr_array_set_spare(MRArray *a, MRDrive *d, int dg, bool add,
                        Error **errp)
{
    int pd = mr_array_pd_of(a, d);
    GError *err = NULL;
    bool ok;

    if (pd < 0) {
        error_setg(errp, "megaraid-drive: the drive in slot %u cannot hold "
                   "RAID metadata (too small, or foreign)", d->slot);
        return false;
    }
    ok = add ? raid_config_add_spare(a->cfg, pd, dg, &err)
             : raid_config_remove_spare(a->cfg, pd, &err);
    if (!ok) {
        error_setg(errp, "megaraid-drive: %s", err->message);
        g_error_free(err);
        return false;
    }
    mr_array_tell_drive(a, d);
    mr_array_changed(a);
    return true;
}

/* ---- import at start ---- */

static int mr_drive_cmp(gconstpointer pa, gconstpointer pb)
{
    const MRDrive *a = *(MRDrive *const *)pa;
    const MRDrive *b = *(MRDrive *const *)pb;
    uint32_t ka = a->enclosure * 256 + a->slot;
    uint32_t kb = b->enclosure * 256 + b->slot;

    return ka < kb ? -1 : ka > kb;
}

static void mr_array_shutdown(Notifier *n, void *data);

/*
 * The import failed: take back what it set up, so that the array is as
 * before it (no configuration, no VD, nothing written to the drives) and
 * mr_array_cleanup() has nothing to write back.
 */
static void mr_array_import_undo(MRArray *a)
{
    if (a->shutdown.notify) {
        notifier_remove(&a->shutdown);
        a->shutdown.notify = NULL;
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            mr_vd_free(a->vds[v]);
            a->vds[v] = NULL;
        }
    }
    memset(a->pd_drive, 0, sizeof(a->pd_drive));
    raid_config_free(a->cfg);
    a->cfg = NULL;
    a->imported = false;
}

bool mr_array_import(MRArray *a, BusState *bus, Error **errp)
{
    g_autoptr(GPtrArray) drives = g_ptr_array_new();
    g_autofree DdfMeta **metas = NULL;
    g_autofree uint64_t *sectors = NULL;
    g_autofree int *pd_of = NULL;
    g_autofree DdfDriveRead *reads = NULL;
    BusChild *kid;
    int n, nmeta = 0;
    GError *err = NULL;
    RaidConfig *cfg = NULL;

    raid_ctrl_guid(a->serial, a->ctrl_guid);
    QTAILQ_FOREACH(kid, &bus->children, sibling) {
        g_ptr_array_add(drives, MEGARAID_DRIVE(kid->child));
    }
    g_ptr_array_sort(drives, mr_drive_cmp);
    n = drives->len;
    metas = g_new0(DdfMeta *, n + 1);
    sectors = g_new0(uint64_t, n + 1);
    pd_of = g_new0(int, n + 1);
    reads = g_new0(DdfDriveRead, n + 1);
    for (int i = 0; i < n; i++) {
        MRDrive *d = drives->pdata[i];
        DdfDriveIO io = mr_ddf_io(d);

        sectors[i] = d->unit.num_blocks * d->unit.block_size / RAID_SECTOR_SIZE;
        pd_of[i] = -1;
        if (ddf_drive_read(&io, &reads[i], &err)) {
            metas[i] = reads[i].meta;
            nmeta++;
        } else {
            /* no DDF at all is normal (a JBOD drive); say why otherwise */
            trace_megaraid_array_no_ddf(d->slot, err->message);
            g_clear_error(&err);
        }
    }
    if (nmeta) {
        cfg = ddf_config_from_meta(metas, sectors, n, a->ctrl_guid, pd_of,
                                   &err);
        if (!cfg) {
            warn_report("megaraid: the RAID metadata on the drives cannot be "
                        "used, they are left alone (not exposed, not "
                        "written): %s", err->message);
            g_clear_error(&err);
            for (int i = 0; i < n; i++) {
                if (metas[i]) {
                    MRDrive *d = drives->pdata[i];
                    d->in_array = true;
                }
            }
        }
    }
    for (int i = 0; i < n; i++) {
        ddf_drive_read_clear(&reads[i]);
    }
    if (cfg && cfg->foreign && a->import_foreign) {
        if (!raid_config_import(cfg, a->ctrl_guid, &err)) {
            error_setg(errp, "%s: import-foreign: %s",
                       object_get_typename(a->owner), err->message);
            g_error_free(err);
            raid_config_free(cfg);
            return false;
        }
        info_report("megaraid: imported the foreign configuration");
        mr_ev_config(a, MR_EV_CFG_FOREIGN_IMPORTED, nmeta);
    } else if (cfg && cfg->foreign) {
        warn_report("megaraid: the drives hold a foreign configuration "
                    "(another controller's); its drives are not exposed "
                    "nor written until it is imported (import-foreign=on)");
        mr_ev_config(a, MR_EV_CFG_FOREIGN_FOUND, nmeta);
    }
    if (!cfg) {
        cfg = raid_config_new(a->ctrl_guid);
    }
    a->cfg = cfg;
    if (!cfg->product[0]) {
        g_strlcpy(cfg->product, a->product, sizeof(cfg->product));
    }
    memcpy(cfg->ctrl_type, a->ctrl_type, sizeof(cfg->ctrl_type));
    for (int i = 0; i < n; i++) {
        MRDrive *d = drives->pdata[i];

        if (pd_of[i] >= 0) {
            a->pd_drive[pd_of[i]] = d;
            cfg->pds[pd_of[i]].slot = d->slot;
        } else if (!metas[i] && !cfg->foreign) {
            mr_array_add_blank(a, d);
        }
    }
    for (int pd = 0; pd < cfg->npds && !cfg->foreign; pd++) {
        if (cfg->pds[pd].returned && cfg->pds[pd].present &&
            cfg->pds[pd].state == RAID_PD_OFFLINE && a->auto_rebuild) {
            /* back with stale data: rebuilt onto itself, not a spare */
            mr_array_rebuild_returned(a, pd);
        }
        if (cfg->pds[pd].returned && cfg->pds[pd].present &&
            cfg->pds[pd].state == RAID_PD_UNCONF_GOOD) {
            /* replaced while away: its DDF must stop naming it a member */
            a->meta_extra[pd] = true;
        }
    }
    raid_config_update_states(cfg);
    for (int v = 0; v < RAID_MAX_VDS && !cfg->foreign; v++) {
        if (cfg->vds[v].used) {
            a->vds[v] = mr_vd_new(a, v, errp);
            if (!a->vds[v]) {
                mr_array_import_undo(a);
                return false;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        MRDrive *d = drives->pdata[i];

        d->in_array |= cfg->foreign ? metas[i] != NULL
                                    : mr_array_drive_hidden(a, d);
    }
    a->imported = true;
    a->shutdown.notify = mr_array_shutdown;
    qemu_register_shutdown_notifier(&a->shutdown);
    trace_megaraid_array_import(n, nmeta, raid_config_count_vds(cfg),
                                cfg->foreign);
    mr_ev_sync(a);
    if (cfg->foreign) {
        return true;
    }
    mr_array_report_start(a);
    a->importing = true;
    if (!mr_cache_start(a, errp)) {
        a->importing = false;
        mr_array_import_undo(a);
        return false;
    }
    a->importing = false;
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v] && a->ops->vd_added) {
            a->ops->vd_added(a->opaque, a->vds[v]);
        }
    }
    if (raid_config_count_vds(cfg)) {
        mr_array_changed(a);
    }
    return true;
}

/*
 * QEMU quits without unrealizing devices, and closes the drives after
 * this: finish the guest's requests, stop the jobs at a checkpoint and
 * write the cache back while the drives still work, as firmware flushes
 * its cache when the host shuts down.
 */
static void mr_array_shutdown(Notifier *n, void *data)
{
    MRArray *a = container_of(n, MRArray, shutdown);

    /* exit: a hot plug's read and a change's I/O still running end first */
    mr_array_drive_read_wait(a, NULL);
    if (a->shut_down || !a->cfg || a->cfg->foreign) {
        mr_ev_flush(a);                 /* the entries so far */
        return;
    }
    mr_patrol_stop(a);
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            mr_jobs_stop(a->vds[v]);
            mr_vd_drain(a->vds[v]);
        }
    }
    mr_cache_stop(a);
    mr_array_store_async(a);
    if (!mr_array_meta_wait(a)) {
        /* (reported by the writer) */
        trace_megaraid_array_store_error(0, a->meta_error);
    }
    a->shut_down = true;
    mr_ev_ctrl(a, MR_EV_CTRL_SHUTDOWN, 0);
    mr_ev_flush(a);
    trace_megaraid_array_shutdown(a->cfg->seq);
}

/* What the layers below report up to here (array.h). */
static const MRArrayHooks mr_array_hooks = {
    .member.failed = mr_array_fail_drive,
    .member.write_starts = mr_array_co_write_starts,
    .cache.write_policy = mr_array_write_policy,
    .jobs.config_changed = mr_array_refresh,
    .jobs.store = mr_array_store,
    .jobs.event = mr_ev_job,
    .jobs.progress = mr_ev_job_progress,
    .jobs.copyback = mr_array_copyback_auto,
    .timing.write_policy = mr_array_write_policy,
    .timing.vd_dirty = mr_cache_vd_dirty,
    .timing.job_stats = mr_jobs_stats,
};

void mr_array_defaults(MRArray *a)
{
    a->rebuild_rate = 30;
    a->cc_rate = 30;
    a->init_rate = 30;
    a->copyback = true;
    a->cache_flush_s = 1;
    a->roc_temp_c = 55;
    a->cv_temp_c = 28;
    a->time_scale = 1.0;
}

void mr_array_init(MRArray *a, const MRArrayOps *ops, void *opaque)
{
    a->ops = ops;
    a->opaque = opaque;
    a->hooks = &mr_array_hooks;
    a->impl = RAID_PARITY_ISAL;
    a->pool = raid_buf_pool_new(64 * MiB);
    a->meta_ok = true;
    qemu_co_queue_init(&a->meta_waiters);
    QLIST_INIT(&a->meta_drives);
}

void mr_array_cleanup(MRArray *a)
{
    mr_array_drive_read_wait(a, NULL);
    if (a->shutdown.notify) {
        notifier_remove(&a->shutdown);
        a->shutdown.notify = NULL;
    }
    mr_patrol_free(a);
    if (a->cfg && a->imported && !a->cfg->foreign) {
        mr_cache_stop(a);
    }
    for (int v = 0; v < RAID_MAX_VDS; v++) {
        if (a->vds[v]) {
            mr_vd_free(a->vds[v]);
            a->vds[v] = NULL;
        }
    }
    if (a->cfg) {
        /* device_del: the last pass, then nothing may run on the config */
        a->meta_closing = true;
        mr_array_store_async(a);
        mr_array_meta_wait(a);
        raid_config_free(a->cfg);
        a->cfg = NULL;
    }
    /* (none left: every pass asked for is done) */
    assert(!a->meta_done_cbs);
    g_slist_free_full(a->meta_wipes, g_free);
    a->meta_wipes = NULL;
    g_free(a->meta_error);
    a->meta_error = NULL;
    raid_buf_pool_free(a->pool);
    a->pool = NULL;
}
