# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 with NVMe drives, as a PERC H755N holds them: an NVMe JBOD,
# an NVMe RAID 1 and an NVMe RAID 10 (made by megaraid-img), one
# controller each.  megaraid_sas sees the NVMe drives as NVMe (PD info),
# takes queue depth 128 and a 1 MiB I/O limit from the firmware's target
# properties (the VDs with NVMe members too), and sends large fast path
# I/O to the drives as NVMe PRP lists: the JBOD's directly, the VDs' to
# their members by its own arithmetic on the RAID map.  fio verify passes
# on all three at once (4 KiB to 1 MiB blocks on the JBOD, 4 to 64 KiB on
# the VDs), and both VDs' member I/O came by fast path.  (Member failures
# on this controller are raid-levels' and raid-fail-pull's; raid-fail-
# offline's groups on this controller passed too, but cost three minutes
# of CI.)
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
    raid_host_ctrl c-f1;  raid_host_group f1 raid1 nvme 2 0
    raid_host_ctrl c-f10; raid_host_group f10 raid10 nvme 4 0
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
log "NVMe JBOD = $nj"
b=${nj#/dev/}
assert_eq "queue depth of the NVMe JBOD" 128 \
    "$(cat "/sys/block/$b/device/queue_depth")"
for n in f1 f10; do
    b=$(vd_dev "$n")
    b=${b#/dev/}
    assert_eq "max_hw_sectors_kb of VD $n (NVMe members)" 1024 \
        "$(cat "/sys/block/$b/queue/max_hw_sectors_kb")"
    assert_eq "queue depth of VD $n" 128 \
        "$(cat "/sys/block/$b/device/queue_depth")"
done
b=${nj#/dev/}
assert_eq "max_hw_sectors_kb of the NVMe JBOD" 1024 \
    "$(cat "/sys/block/$b/queue/max_hw_sectors_kb")"

( fio_verify "$nj" 32M --bsrange=4k-1m > /tmp/fio-nj.out 2>&1
  echo $? > /tmp/fio-nj.rc ) &
# the VDs with fio's 4-64 KiB blocks: most stay in one 64 KiB strip
for n in f1 f10; do
    fio_start "$n" 24M
done
fio_wait f1 f10
sed 's/^/[nj] /' /tmp/fio-nj.out
assert_eq "fio verify on the NVMe JBOD: exit status" 0 "$(cat /tmp/fio-nj.rc)"
for n in f1 f10; do
    expect_vd "$n" state '^optimal$'
done
for c in c-f1 c-f10; do
    qom_get "/machine/peripheral/$c" fast-path-ios
    [ "$QOM" -gt 0 ] || fail "no fast path I/O reached $c (NVMe RAID 1/10)"
    log "$c: $QOM fast path frames"
done
mr9500_driver_log
