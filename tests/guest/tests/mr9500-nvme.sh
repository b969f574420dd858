# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 with NVMe drives, as a PERC H755N holds them: an NVMe JBOD
# and the failure groups of raid-fail-offline (RAID 1, 5, 10 and 60 on
# NVMe, RAID 6 and 50 on SAS, each with global hot spares, made by
# megaraid-img).  megaraid_sas sees the NVMe drives as NVMe (PD info),
# takes queue depth 128 and a 1 MiB I/O limit from the firmware's target
# properties, and sends large fast path I/O to them as NVMe PRP lists:
# fio verify with 4 KiB to 1 MiB blocks on the JBOD passes.  Then the
# failure test: during fio verify on every VD, members fail through QOM
# (the NVMe RAID 1 and 10 take fast path I/O, PRP lists included, to
# their members all along), fio passes, the spares rebuild, different
# original members fail and every VD reads back what it held.
#@ kernels 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mr9500-nvme.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # shellcheck disable=SC2034 # read by raid_host_ctrl
    RAID_CTRL_TYPE=megaraid-9500
    raid_host_begin "$2"
    raid_host_fail_groups
    # an NVMe JBOD: slot 0 of its own controller, PD id 240
    raid_host_ctrl c-nj
    truncate -s 64M "$2/nj.img"
    raid_host_drive nj nvme
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh

# nvme_jbod: the /dev/sdX of nj (c-nj, PD id 240: channel 1, target 112).
nvme_jbod() {
    local pci b path
    pci=$(layout_attr ctrl c-nj pci)
    for b in /sys/block/sd*; do
        [ -e "$b" ] || continue
        path=$(readlink -f "$b/device")
        case "$path" in */"$pci"/*:1:112:0) echo "/dev/${b##*/}" ;; esac
    done
}

need_driver megaraid_sas
wait_vds 120
for _ in $(seq 50); do
    [ -n "$(nvme_jbod)" ] && break
    sleep 0.2
done
nj=$(nvme_jbod)
[ -n "$nj" ] || { lsscsi; fail "the NVMe JBOD (PD 240) has no disk"; }
mr9500_driver_log
b=${nj#/dev/}
log "NVMe JBOD = $nj"
assert_eq "queue depth of the NVMe JBOD" 128 \
    "$(cat "/sys/block/$b/device/queue_depth")"
assert_eq "max_hw_sectors_kb of the NVMe JBOD" 1024 \
    "$(cat "/sys/block/$b/queue/max_hw_sectors_kb")"
fio_verify "$nj" 32M --bsrange=4k-1m
# the NVMe RAID 1 and 10 offer fast path; its I/O to their members came
# the same way (more than 4 pages: PRP lists)
for n in f1 f10; do
    b=$(vd_dev "$n")
    assert_eq "max_hw_sectors_kb of VD $n (NVMe members)" 1024 \
        "$(cat "/sys/block/${b#/dev/}/queue/max_hw_sectors_kb")"
done

# the default model's VDs: DELL PERC H755N Front (check_vd)
# shellcheck disable=SC2034 # read by check_vd
RAID_VENDOR=DELL RAID_PRODUCT="PERC H755N Front"
raid_fail_test offline
for c in c-f1 c-f10; do
    qom_get "/machine/peripheral/$c" fast-path-ios
    [ "$QOM" -gt 0 ] || fail "no fast path I/O reached $c (NVMe RAID 1/10)"
    log "$c: $QOM fast path frames"
done
