/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: timing model profiles (data only) and their lookup.
 *
 * Owns every number of the timing model: drive performance profiles and
 * controller (RoC, link, cache) profiles, each with a `source` saying where
 * every value comes from.  Sources named here:
 *   [ref]   ../shared/docs/reference-results.md (StorageReview 9670W-16i
 *           review; Principled Technologies' PERC H755N report)
 *   [study] ../shared/docs/timing-feasibility.md (throwaway fit)
 *   [calib] docs/dev/timing.md: derived here from the 9670W's *optimal*
 *           cells and the two rebuild times, with the arithmetic shown
 *   [spec]  the vendor's public data sheet of that drive (class values)
 *   [pcie]  PCIe base spec: 16 GT/s per Gen4 lane, 128b/130b encoding
 *   [doc]   MegaRAID / PERC user guides: the rebuild rate is the fraction
 *           of the controller's compute cycles (LSI) or system resources
 *           (Dell OpenManage) dedicated to the rebuild
 * Both builds get the data by compiling this file: the standalone core
 * (meson.build, raid_core_sources) and QEMU (hw/raid/meson.build).
 */
#include <string.h>
#include "timing-int.h"

/* ---- drives ------------------------------------------------------------ */

/* PCIe Gen4 lane payload after 128b/130b and ~8 % TLP overhead [pcie]. */
#define GEN4_LANE_BPS   1.80e9

static const TimingDriveProfile drives[] = {
    {
        .name = "micron-7450-max-6.4t",
        .desc = "Micron 7450 MAX 6.4 TB, U.3 NVMe PCIe Gen4 x4 "
                "(9670W test bed)",
        .iface = TIMING_IFACE_NVME,
        .capacity = 6400000000000ull,
        .seq_read_bps = 6.8e9, .seq_write_bps = 5.3e9,
        .rand_read_iops = 1000000, .rand_write_iops = 400000,
        .read_lat_ns = 80000, .write_lat_ns = 20000,
        .channels = 256,
        .link_lanes = 4, .lane_bps = GEN4_LANE_BPS,
        .source = "capacity: [ref] 1 (formatted to 6.4 TB); seq 6.8/5.3 GB/s, "
                  "4K 1.0 M / 400 K IOPS: [spec] Micron 7450 MAX 6.4 TB "
                  "(5.3 GB/s is the low end of 5.3-5.6), [study] 2.3 (the JBOD "
                  "4K write cell needs >= 391 K/drive); latency 80/20 us: "
                  "[study] 2.1 rebuild chunk read/write latency, Gen4 "
                  "enterprise QD1 class values; channels: >= IOPS x latency "
                  "so the drive reaches its rated IOPS; x4: [spec], [pcie]",
    },
    {
        .name = "gen4-mu-3.2t",
        .desc = "mixed-use 3.2 TB NVMe PCIe Gen4 U.2 (Kioxia CM6-V / Intel "
                "P5600 class; H755N test bed)",
        .iface = TIMING_IFACE_NVME,
        .capacity = 3200000000000ull,
        .seq_read_bps = 6.9e9, .seq_write_bps = 4.2e9,
        .rand_read_iops = 1000000, .rand_write_iops = 300000,
        .read_lat_ns = 80000, .write_lat_ns = 20000,
        .channels = 256,
        .link_lanes = 4, .lane_bps = GEN4_LANE_BPS,
        .source = "capacity: [ref] 2 (3.2 TB mixed use); 6.9/4.2 GB/s, "
                  "1.0 M / 300 K IOPS: [spec] CM6-V 3.2 TB class, [study] 2.3; "
                  "latency, channels: as micron-7450-max-6.4t; x4 drive "
                  "(the H755N wires x2 per bay: controller profile)",
    },
    {
        .name = "intel-s4510-1.92t",
        .desc = "Intel D3-S4510 1.92 TB SATA 6 Gb/s SSD",
        .iface = TIMING_IFACE_SATA,
        .capacity = 1920000000000ull,
        .seq_read_bps = 560e6, .seq_write_bps = 510e6,
        .rand_read_iops = 97000, .rand_write_iops = 35500,
        .read_lat_ns = 36000, .write_lat_ns = 37000,
        .channels = 32,
        .link_lanes = 1, .lane_bps = 600e6,
        .source = "[spec] Intel D3-S4510 1.92 TB: 560/510 MB/s, 97 K / 35.5 K "
                  "IOPS, latency 36/37 us; [ref] 2 (one S4510 writes about "
                  "510 MB/s); channels: SATA NCQ depth 32; link: 6 Gb/s "
                  "8b/10b = 600 MB/s",
    },
    {
        .name = "sas12-ssd-3.84t",
        .desc = "12 Gb/s SAS SSD 3.84 TB, read intensive (one port)",
        .iface = TIMING_IFACE_SAS,
        .capacity = 3840000000000ull,
        .seq_read_bps = 1.1e9, .seq_write_bps = 1.0e9,
        .rand_read_iops = 200000, .rand_write_iops = 60000,
        .read_lat_ns = 100000, .write_lat_ns = 30000,
        .channels = 254,
        .link_lanes = 1, .lane_bps = 1.2e9,
        .source = "[spec] 12G SAS SSD class (Kioxia PM5-R, Seagate Nytro "
                  "3000 data sheets) limited to one 12 Gb/s port as cabled "
                  "to a MegaRAID: 1.1/1.0 GB/s, 200 K / 60 K IOPS, latency "
                  "100/30 us; link 12 Gb/s 8b/10b = 1.2 GB/s; channels: SAS "
                  "queue depth 254",
    },
    {
        .name = "sas-hdd-7200-8t",
        .desc = "7200 rpm 12 Gb/s SAS HDD 8 TB",
        .iface = TIMING_IFACE_SAS,
        .rotational = true,
        .capacity = 8000000000000ull,
        .seq_read_bps = 249e6, .seq_write_bps = 249e6,
        .rand_read_iops = 170, .rand_write_iops = 550,
        .read_lat_ns = 6000000, .write_lat_ns = 1000000,
        .channels = 2,
        .link_lanes = 1, .lane_bps = 1.2e9,
        .source = "[spec] Seagate Exos 7E8 8 TB SAS: 249 MB/s sustained, 4K "
                  "QD16 random 170 read / 550 write IOPS (write cache "
                  "enabled), average rotational latency 4.16 ms plus "
                  "settle (6 ms read, 1 ms write at QD1 beyond the "
                  "positioning time the IOPS imply); channels 2: NCQ "
                  "reordering roughly halves positioning at depth",
    },
};

/* ---- controllers ------------------------------------------------------- */

/*
 * SAS4116W RoC (9670W-16i).  Every value with [calib] is derived in
 * docs/dev/timing.md from an optimal-state cell or a rebuild time.
 */
#define SAS4116W_ROC \
    .host_eff_d2h = 0.907, .host_eff_h2d = 0.851, .duplex_cap = 1.493, \
    .cmd_bytes = 200, .cpl_bytes = 48, .read_req_frac = 0.047, \
    .link_lat_ns = 1000, \
    .hw_cmd_rate = 7.78e6, .hw_lat_ns = 5000, .fw_lat_ns = 10000, \
    .fw_write_ns = 386.8, .fw_parity_ns = 611.4, .fw_parity6_ns = 688.0, \
    .fw_degraded_read_ns = 240.0, .fw_dirty_read_ns = 88.7, \
    .fw_backend_cmd_ns = 0, .fw_line_ns = 562.5, .fw_misc_ns = 386.8, \
    .cache_bps = 30.06e9, .meta_bytes = 1740, \
    .cache_dirty_max = 256ull << 20, .parity_bps = 55.36e9, \
    .backend_gen = 4, \
    .bg_chunk_bytes = 256 << 10, .bg_fw_lat_ns = 10000, \
    .bg_depth_full = 4.589, .bg_floor_full = 1.0

#define SAS4116W_SOURCE \
    "host link: [ref] 1 PCIe Gen4 x16; eta_d2h 0.907 balances the optimal " \
    "seq-read and 4K-read cells, eta_h2d 0.851 the JBOD seq/4K write " \
    "cells, kappa 1.493 the JBOD 50:50 cell [calib]; protocol bytes " \
    "200/48 and 4.7 % read requests [study] 7.3; hw fast path 7.78 M/s: " \
    "JBOD OLTP cell [calib]; fw write 386.8 ns, parity 611.4 ns, dirty " \
    "read 88.7 ns: solved from RAID 5 4K write, RAID 10 and RAID 5 OLTP " \
    "optimal cells [calib]; parity6 = 1.125 x parity (SAS3916 ratio); " \
    "back-end command 0: issued in hardware [study] 6.7; degraded read " \
    "240 ns, 562.5 ns per rebuilt 4 KiB line: [study] 3.1 (NOT " \
    "identifiable from optimal cells: fitted there with the rebuilding " \
    "cells); floor share rate/100 (0.30 at rate 30): the rebuild rate " \
    "is the fraction of the controller's compute cycles / resources " \
    "given to the rebuild [doc]; cache 30.06 GB/s and 1740 B metadata " \
    "per cached write: RAID seq-write, 50:50 and RAID 10 4K-write " \
    "optimal cells [calib]; parity engine 55.36 GB/s: RAID 5 rebuild " \
    "time, pipeline depth 1.377 at rate 30: RAID 10 rebuild time " \
    "[calib]; back end 16 lanes Gen4 as two x8 links of 8 bays each " \
    "(the 16i's lanes; [ref] 1 cables two 8-bay NVMe JBODs); " \
    "chunk 256 KiB = default strip; latencies 1/5/10 us: class " \
    "values, no cell depends on them; dirty window 256 MiB: modelling " \
    "choice, no cell depends on it"

/* SAS3916 RoC (PERC H755N): link efficiencies carried over. */
#define SAS3916_ROC \
    .host_eff_d2h = 0.907, .host_eff_h2d = 0.851, .duplex_cap = 1.493, \
    .cmd_bytes = 200, .cpl_bytes = 48, .read_req_frac = 0.047, \
    .link_lat_ns = 1000, \
    .hw_cmd_rate = 3.6e6, .hw_lat_ns = 8000, .fw_lat_ns = 20000, \
    .fw_write_ns = 1068.9, .fw_parity_ns = 3901.3, .fw_parity6_ns = 4394.2, \
    .fw_degraded_read_ns = 663.0, .fw_dirty_read_ns = 960.3, \
    .fw_backend_cmd_ns = 0, .fw_line_ns = 1553.0, .fw_misc_ns = 1068.9, \
    .cache_bps = 17.8e9, .meta_bytes = 1740, \
    .cache_dirty_max = 256ull << 20, .parity_bps = 50e9, \
    .backend_lanes = 16, .backend_gen = 4, .drive_lanes_max = 2, \
    .bg_chunk_bytes = 256 << 10, .bg_fw_lat_ns = 20000, \
    .bg_depth_full = 4.589, .bg_floor_full = 1.0

#define SAS3916_SOURCE \
    "host link: [ref] 2 PCIe 4.0 x8, efficiencies and kappa from the " \
    "SAS4116W (only the lane count changes); hw fast path 3.6 M/s: above " \
    "the measured 3.55 M reads (marketed 3 M) so reads bind on the link; " \
    "fw write 1068.9 ns, RMW 3901 ns more (RAID 5) / 4394 ns (RAID 6), " \
    "dirty read 960.3 ns: minimax over the H755N 4K write and 8K mixed " \
    "cells (the RoC profile is what the H755N may change) [calib]; cache " \
    "17.8 GB/s: H755N RAID 10 seq write cell; metadata 1740 B, parity " \
    "50 GB/s: as the SAS4116W [study] 2.2; back end 8 bays x2 Gen4 [ref] " \
    "2, [study] 2.3, each bay on its own x2 (one back-end link); floor " \
    "share rate/100 [doc]; degraded read, rebuild line, latencies: no " \
    "H755N cell, scaled from the SAS4116W by its write cost (unverified)"

static const TimingCtrlProfile ctrls[] = {
    {
        .name = "9670w-16i",
        .desc = "MegaRAID 9670W-16i (SAS4116W, PCIe Gen4 x16, 16 lanes "
                "back end)",
        .host_lanes = 16, .host_gen = 4, .backend_lanes = 16,
        .backend_links = 2, .backend_link_bays = 8,
        SAS4116W_ROC,
        .source = SAS4116W_SOURCE,
    },
    {
        .name = "9660-16i",
        .desc = "MegaRAID 9660-16i (SAS4116, PCIe Gen4 x8 host link)",
        .host_lanes = 8, .host_gen = 4, .backend_lanes = 16,
        .backend_links = 2, .backend_link_bays = 8,
        SAS4116W_ROC,
        .source = "as 9670w-16i with an x8 host link (Broadcom 9660-16i "
                  "product brief); " SAS4116W_SOURCE,
    },
    {
        .name = "9670-24i",
        .desc = "MegaRAID 9670-24i (SAS4116W, PCIe Gen4 x16, 24 lanes "
                "back end)",
        .host_lanes = 16, .host_gen = 4, .backend_lanes = 24,
        .backend_links = 3, .backend_link_bays = 8,
        SAS4116W_ROC,
        .source = "as 9670w-16i with a 24-lane back end (Broadcom 9670-24i "
                  "product brief); " SAS4116W_SOURCE,
    },
    {
        .name = "9600-16i",
        .desc = "MegaRAID 9600-16i (SAS4116W, PCIe Gen4 x8)",
        .host_lanes = 8, .host_gen = 4, .backend_lanes = 16,
        .backend_links = 2, .backend_link_bays = 8,
        SAS4116W_ROC,
        .source = "as 9670w-16i with an x8 host link (9600-16i product "
                  "brief; RoC taken as the same, unverified); "
                  SAS4116W_SOURCE,
    },
    {
        .name = "h965i",
        .desc = "Dell PERC H965i (SAS4116W, PCIe Gen4 x16)",
        .host_lanes = 16, .host_gen = 4, .backend_lanes = 16,
        .backend_links = 2, .backend_link_bays = 8,
        SAS4116W_ROC,
        .source = "as 9670w-16i (same RoC, Dell PERC 12 documentation); "
                  SAS4116W_SOURCE,
    },
    {
        .name = "sas3916",
        .desc = "SAS3916 RoC as in the Dell PERC H755N front (PCIe Gen4 x8, "
                "8 bays x2; simulator only)",
        .host_lanes = 8, .host_gen = 4,
        SAS3916_ROC,
        .source = SAS3916_SOURCE,
    },
};

/* ---- lookup ------------------------------------------------------------- */

const TimingDriveProfile *timing_drive_profile_at(unsigned i)
{
    return i < G_N_ELEMENTS(drives) ? &drives[i] : NULL;
}

const TimingCtrlProfile *timing_ctrl_profile_at(unsigned i)
{
    return i < G_N_ELEMENTS(ctrls) ? &ctrls[i] : NULL;
}

const TimingDriveProfile *timing_drive_profile_find(const char *name)
{
    for (unsigned i = 0; name && i < G_N_ELEMENTS(drives); i++) {
        if (!g_ascii_strcasecmp(drives[i].name, name)) {
            return &drives[i];
        }
    }
    return NULL;
}

const TimingCtrlProfile *timing_ctrl_profile_find(const char *name)
{
    for (unsigned i = 0; name && i < G_N_ELEMENTS(ctrls); i++) {
        if (!g_ascii_strcasecmp(ctrls[i].name, name)) {
            return &ctrls[i];
        }
    }
    return NULL;
}

const TimingDriveProfile *timing_drive_profile_default(TimingIface iface)
{
    switch (iface) {
    case TIMING_IFACE_SAS:
        return timing_drive_profile_find("sas12-ssd-3.84t");
    case TIMING_IFACE_SATA:
        return timing_drive_profile_find("intel-s4510-1.92t");
    default:
        return timing_drive_profile_find("micron-7450-max-6.4t");
    }
}

char *timing_drive_profile_names(void)
{
    GString *s = g_string_new(NULL);

    for (unsigned i = 0; i < G_N_ELEMENTS(drives); i++) {
        g_string_append_printf(s, "%s%s", i ? ", " : "", drives[i].name);
    }
    return g_string_free(s, false);
}

char *timing_ctrl_profile_names(void)
{
    GString *s = g_string_new(NULL);

    for (unsigned i = 0; i < G_N_ELEMENTS(ctrls); i++) {
        g_string_append_printf(s, "%s%s", i ? ", " : "", ctrls[i].name);
    }
    return g_string_free(s, false);
}
