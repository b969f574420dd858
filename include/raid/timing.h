/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model.
 *
 * Owns the public interface of the model that says *when* an I/O of the
 * simulated controller completes: performance profiles of drives and
 * controllers (data, with a cited source for every number), the model
 * object (one per controller: its resources and their reservations), the
 * costing of host requests and background chunks (rebuild, check, init),
 * and a few closed-form helpers (unloaded latency, idle rebuild time).
 *
 * The model books next-free-time reservations: every resource (host link
 * per direction and both directions together, the RoC's hardware fast
 * path and firmware, the cache data mover, the parity engine, the
 * back-end fabric per direction, each drive's link and media) is a server
 * of known capacity; a request's demand on each resource it touches is
 * computed from its RAID plan, booked at the resource's next free time,
 * and the request completes when its last booking is served plus its
 * unloaded latency (drive, firmware, link).  Queueing, saturation and the
 * throughput at any queue depth fall out of the reservations: nothing is
 * fitted per workload.  Times are nanoseconds of *modelled* time on a
 * clock chosen by the caller (simulated time in raidsim, a scaled virtual
 * clock in the device); the model never reads a clock itself.
 *
 * Background work (rebuild, check, initialization) books the same
 * resources chunk by chunk.  It yields to foreground I/O but keeps a floor
 * share of every resource the foreground saturates; its unloaded speed is
 * a small pipeline of chunks whose depth and floor share follow
 * `rebuild-rate` (see timing_background_slots()).
 *
 * Not thread-safe: one model per controller, used from one thread.
 * No QEMU headers: the device and the raidsim host program share it.
 * docs/dev/timing.md has the calibration table and the per-cell results.
 */
#ifndef RAID_TIMING_H
#define RAID_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include "raid/geometry.h"
#include "raid/plan.h"

/* ---- profiles ----------------------------------------------------------- */

typedef enum TimingIface {
    TIMING_IFACE_NVME,
    TIMING_IFACE_SAS,
    TIMING_IFACE_SATA,
} TimingIface;

/*
 * A drive's performance.  Bandwidths in bytes/s (10^6 B = 1 MB), IOPS for
 * 4 KiB random I/O at full queue depth, latencies of one unloaded 4 KiB
 * command.
 */
typedef struct TimingDriveProfile {
    const char *name;           /* "micron-7450-max-6.4t" */
    const char *desc;           /* one line for help text */
    TimingIface iface;
    bool rotational;            /* random I/O pays positioning, seq not */
    uint64_t capacity;          /* modelled capacity, bytes */
    double seq_read_bps, seq_write_bps;
    double rand_read_iops, rand_write_iops;
    uint32_t read_lat_ns, write_lat_ns;
    uint32_t channels;          /* commands served at once (parallelism) */
    uint32_t link_lanes;        /* PCIe lanes (NVMe) or SAS/SATA links */
    double lane_bps;            /* payload bytes/s of one lane or link */
    const char *source;         /* where each number comes from */
} TimingDriveProfile;

/*
 * A controller's performance.  "FW" costs are RoC firmware processor time
 * per host operation class (ns); the hardware fast path serves JBOD I/O and
 * reads of optimal VDs without firmware.
 */
typedef struct TimingCtrlProfile {
    const char *name;           /* "9670w-16i" */
    const char *desc;
    /* host link */
    uint32_t host_lanes;
    uint32_t host_gen;          /* PCIe generation: 3, 4, 5 */
    double host_eff_d2h;        /* payload efficiency device -> host */
    double host_eff_h2d;        /* payload efficiency host -> device */
    double duplex_cap;          /* kappa: both directions <= kappa x d2h */
    uint32_t cmd_bytes;         /* per command h2d (SQE, doorbell, SGL) */
    uint32_t cpl_bytes;         /* per command d2h (reply, interrupt) */
    double read_req_frac;       /* d2h read-request TLP bytes per h2d byte */
    uint32_t link_lat_ns;       /* unloaded: doorbell to reply, wire part */
    /* RoC */
    double hw_cmd_rate;         /* fast path, host commands/s */
    uint32_t hw_lat_ns;         /* fast path latency */
    uint32_t fw_lat_ns;         /* firmware path latency */
    double fw_write_ns;         /* cached (write-back) host write */
    double fw_parity_ns;        /* RAID 5 parity update (RMW / RCW) */
    double fw_parity6_ns;       /* RAID 6 P+Q update */
    double fw_degraded_read_ns; /* host read of a degraded VD */
    double fw_dirty_read_ns;    /* host read of a VD with dirty cache */
    double fw_backend_cmd_ns;   /* each back-end drive command */
    double fw_line_ns;          /* background chunk, per 4 KiB line */
    double fw_misc_ns;          /* flush, unmap, write-through write */
    /* cache memory and engines */
    double cache_bps;           /* data mover, bytes/s (all directions) */
    uint32_t meta_bytes;        /* cache metadata moved per cached write */
    uint64_t cache_dirty_max;   /* dirty bytes before writes wait */
    double parity_bps;          /* XOR / P+Q engine input bytes/s */
    /* back end */
    uint32_t backend_lanes;     /* all back-end links together */
    uint32_t backend_gen;
    uint32_t drive_lanes_max;   /* lanes wired per drive bay, 0 = all */
    /*
     * The lanes split evenly into backend_links links (0 or 1: one), each
     * to its own backend_link_bays bays (an enclosure or connector); bays
     * fill the links in order and wrap around.
     */
    uint32_t backend_links;
    uint32_t backend_link_bays;
    /* background work */
    uint32_t bg_chunk_bytes;    /* per member, one chunk (the strip) */
    uint32_t bg_fw_lat_ns;      /* firmware latency per chunk */
    double bg_depth_full;       /* chunks in flight at rebuild-rate 100 */
    double bg_floor_full;       /* floor share at rebuild-rate 100 */
    const char *source;
} TimingCtrlProfile;

const TimingDriveProfile *timing_drive_profile_find(const char *name);
/* i-th profile (0 ..), NULL past the end: for help text and errors. */
const TimingDriveProfile *timing_drive_profile_at(unsigned i);
/* The profile a drive gets when none is chosen. */
const TimingDriveProfile *timing_drive_profile_default(TimingIface iface);
const TimingCtrlProfile *timing_ctrl_profile_find(const char *name);
const TimingCtrlProfile *timing_ctrl_profile_at(unsigned i);
/* "a, b, c": every valid name, for error messages (g_free it). */
char *timing_drive_profile_names(void);
char *timing_ctrl_profile_names(void);

/* ---- the model ---------------------------------------------------------- */

typedef struct TimingModel TimingModel;

#define TIMING_MAX_DRIVES 256

/* The profile is referenced, not copied: it must outlive the model. */
TimingModel *timing_model_new(const TimingCtrlProfile *ctrl);
void timing_model_free(TimingModel *m);
/* Add a drive (a bay); returns its index (0, 1, ...) or -1 when full. */
int timing_model_add_drive(TimingModel *m, const TimingDriveProfile *p);
/*
 * Forget every reservation (the drives stay): for a caller whose clock
 * starts again from 0, e.g. after a controller reset.
 */
void timing_model_reset(TimingModel *m);
const TimingCtrlProfile *timing_model_ctrl(const TimingModel *m);
const TimingDriveProfile *timing_model_drive(const TimingModel *m, int d);

/* ---- host requests ------------------------------------------------------ */

typedef enum TimingOp {
    TIMING_OP_READ,
    TIMING_OP_WRITE,
    TIMING_OP_FLUSH,
    TIMING_OP_UNMAP,
} TimingOp;

/* A virtual disk as the model sees it. */
typedef struct TimingVd {
    RaidLevel level;
    uint32_t members;           /* all spans */
    uint32_t span_members;
    const int *drive;           /* model drive index per member, -1 = none */
    uint32_t data_strips;       /* data strips per stripe (span) */
    uint32_t strip_bytes;
    bool degraded;              /* a member missing or rebuilding */
    bool write_back;            /* writes acknowledged from the cache */
    bool dirty_cache;           /* the cache holds dirty data of this VD */
} TimingVd;

/* One member I/O of a plan, merged per drive, direction and phase. */
typedef struct TimingDriveIo {
    int drive;                  /* model drive index */
    bool write;
    uint8_t phase;
    uint32_t cmds;              /* member commands merged into this one */
    uint64_t bytes;
} TimingDriveIo;

typedef struct TimingRequest {
    TimingOp op;
    uint64_t bytes;             /* host data bytes (0 for flush) */
    bool sequential;            /* hint: drives skip positioning */
    const TimingVd *vd;         /* an I/O of this VD, or NULL: ... */
    int jbod_drive;             /* ... JBOD I/O on this drive */
    /* VD requests: the plan's cost and its member I/O */
    RaidPlanCost cost;
    const TimingDriveIo *io;
    uint32_t nio;
    /*
     * Coalesced write-back: cost and io describe a destage (e.g. one full
     * stripe) shared by this many host writes, each of which is charged
     * 1/share of it.  0 or 1: the request's own plan.
     */
    uint32_t share;
} TimingRequest;

/*
 * Collect a plan's member I/O into io[] (merged per drive, direction and
 * phase); member_drive maps plan members to model drives (-1: none).
 * Returns the number of entries used (at most max).
 */
uint32_t timing_plan_drive_io(const RaidPlan *plan, const int *member_drive,
                              TimingDriveIo *io, uint32_t max);

/*
 * Book a host request that arrived (doorbell) at arrival_ns; returns its
 * modelled completion time (>= arrival_ns).  Every resource serves its
 * bookings in the order they are made (FIFO), whatever their arrival.  A
 * write-back write completes when acknowledged from the cache; its
 * destage is booked at the same time and delays later writes only when
 * the dirty data would exceed cache_dirty_max.
 */
uint64_t timing_submit(TimingModel *m, uint64_t arrival_ns,
                       const TimingRequest *req);

/* ---- background work --------------------------------------------------- */

typedef enum TimingBgKind {
    TIMING_BG_REBUILD,          /* read survivors, write the target */
    TIMING_BG_CHECK,            /* read every member, compare / verify */
    TIMING_BG_INIT,             /* write every member */
} TimingBgKind;

typedef struct TimingBackground {
    TimingBgKind kind;
    const TimingVd *vd;
    int target_drive;           /* rebuild: the drive written */
    uint64_t bytes;             /* per member, this chunk (0: one chunk) */
} TimingBackground;

/*
 * Book one chunk of background work issued at now_ns; returns when it is
 * done.  On every resource the foreground keeps busy the chunk gets the
 * floor share of it; elsewhere it runs at full speed.
 */
uint64_t timing_background_submit(TimingModel *m, uint64_t now_ns,
                                  unsigned rate,
                                  const TimingBackground *bg);

/*
 * rebuild-rate (0..100, 0 counts as 1) under the model: the background
 * runs a pipeline of chunks whose mean depth is bg_depth_full x rate/100
 * and whose floor share of a saturated resource is bg_floor_full x
 * rate/100.  It uses timing_background_slots() slots: slot i keeps one
 * chunk in flight a fraction min(1, depth - i) of the time, resting
 * timing_background_rest_ns() after each chunk (a duty cycle in modelled
 * time).  The published 9670W rebuild times come out at rate 30, the
 * MegaRAID default (docs/dev/timing.md).
 */
double timing_background_depth(const TimingCtrlProfile *c, unsigned rate);
double timing_background_floor(const TimingCtrlProfile *c, unsigned rate);
unsigned timing_background_slots(const TimingCtrlProfile *c, unsigned rate);
uint64_t timing_background_rest_ns(const TimingCtrlProfile *c, unsigned rate,
                                   unsigned slot, uint64_t busy_ns);

/* ---- helpers ------------------------------------------------------------ */

/*
 * Unloaded latency of one random read of `bytes` (4096 for the usual
 * test) on a JBOD drive or an optimal VD (both take the fast path).
 */
uint64_t timing_unloaded_read_ns(const TimingCtrlProfile *c,
                                 const TimingDriveProfile *d,
                                 uint32_t bytes);
/*
 * Duration of a rebuild with no foreground load of one member of a VD of
 * `level` over `members` drives of profile d, each of modelled capacity
 * `capacity` bytes, at rebuild-rate `rate`.
 */
uint64_t timing_rebuild_idle_ns(const TimingCtrlProfile *c,
                                const TimingDriveProfile *d, RaidLevel level,
                                uint32_t members, uint64_t capacity,
                                unsigned rate);

/* ---- statistics (raidsim, benchmarks) ---------------------------------- */

/* Busy time (ns) of the model's resources; names match by index. */
unsigned timing_model_resources(const TimingModel *m);
const char *timing_model_resource_name(const TimingModel *m, unsigned i);
double timing_model_resource_busy_ns(const TimingModel *m, unsigned i);
void timing_model_reset_stats(TimingModel *m);

#endif
