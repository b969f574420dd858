# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The README demo (scripts/demo.sh): a RAID 5 VD over 8 NVMe drives of
# 64 MiB plus a global hot spare, made with megaraid-img, rebuild rate 5 %.  The guest's
# mpi3mr shows one BROADCOM virtual disk; data goes on it (fio verify and
# a checksum), drive 3 fails (QOM state=offline), the spare takes over and
# the rebuild progress is printed until the VD is optimal again; the data
# is unchanged, and reads with drive 5 failed too come through the rebuilt
# drive.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
# The host: a low rebuild rate, so that the rebuild can be watched (at
# the default 30 % a 64 MiB drive rebuilds in about two seconds).
#@ prepare . tests/guest/lib-raid.sh; raid_host_begin @WORK@; raid_host_ctrl raid0 rebuild-rate=5; RAID_DRIVE_SIZE=64M raid_host_group demo raid5 nvme 8 1
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_vds 120
dev=$(vd_dev demo)
echo "== lsscsi: one virtual disk; the 9 drives behind it are hidden"
lsscsi -s
check_hidden raid0
check_vd demo
expect_vd demo state '^optimal$'
expect_drive demo-s0 state '^hot-spare$'
echo "== the RAID 5 VD ($dev): fio random write + verify, then a checksum"
fio_verify "$dev" 32M
vd_sum demo 64
before=$SUM
log "checksum of the VD: $before"

echo "== failing drive 3 (qom-set demo-m3 state=offline)"
drive_set demo-m3 state '"offline"'
expect_vd demo state '^degraded$'
expect_drive demo-s0 state '^(rebuild|online)$'
echo "== rebuild onto the hot spare (rebuild-rate 5%)"
t=0
while :; do
    vd_qom demo state; st=$QOM
    vd_qom demo job; job=$QOM
    drive_qom demo-s0 rebuild-progress; pct=$QOM
    log "VD demo: $st, job $job; spare demo-s0: rebuild $pct%"
    [ "$st" != optimal ] || [ "$job" != none ] || break
    t=$((t + 1))
    [ $t -lt 600 ] || fail "rebuild not finished after 600 s"
    sleep 1
done
expect_drive demo-s0 state '^online$'
echo "== VD optimal again; the data:"
vd_sum demo 64
assert_eq "checksum after the rebuild" "$before" "$SUM"
drive_set demo-m5 state '"offline"'
vd_sum demo 64
assert_eq "checksum read through the rebuilt drive (drive 5 failed)" "$before" "$SUM"
log "rebuild finished, data intact"
# A member failing and the rebuild reach the driver as device info
# changes only: its log and the kernel's stay free of errors.
mr9600_driver_log ""
check_dmesg ""
