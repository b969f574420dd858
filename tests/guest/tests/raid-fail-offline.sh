# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 drive failures set from the host (QOM state=offline):
# during fio verify on RAID 1, 5, 6, 10, 50 and 60 (each with global hot
# spares), one member of each fails (two of RAID 6/60): the VDs go
# (partially) degraded, fio ends without errors or verify mismatches, the
# spares take over and rebuild (progress polled over QOM) until the VDs
# are optimal; then different original members fail and every VD still
# reads what it held, through the rebuilt drives.  Last, a RAID 5 reads
# back its data over a member's media error, then loses one drive
# (degraded, data intact) and a second: it goes offline, the guest gets
# I/O errors (never data), and QEMU and the other VDs carry on.
# The RAID engine does not depend on the driver's version: this test runs
# on 6.1 and raid-fail-pull on 7.2 (on megaraid-9500, raid-levels fails
# members on all three kernels, raid-fail-pull on 6.12 and 7.2), so that
# every kernel sees a failure test and the suite's time stays within CI's
# budget.
#@ kernels 6.1
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/raid-fail-offline.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_fail_groups
    raid_host_ctrl c-x5; raid_host_group x5 raid5 sata 3 0
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_vds 120
# Reference data on the RAID 5 that will go offline.
x5=$(vd_dev x5)
dd if=/dev/urandom of=/tmp/x5.ref bs=1M count=8 2>/dev/null
assert_cmd "writing reference data to x5" \
    dd if=/tmp/x5.ref of="$x5" bs=1M oflag=direct
ref=$(md5sum < /tmp/x5.ref | cut -d" " -f1)
vd_sum x5 8
assert_eq "x5 reads back what was written" "$ref" "$SUM"
expect_vd x5 state '^optimal$'

raid_fail_test offline

# A media error on a RAID 5 member: reads of that range come from parity.
drive_set x5-m1 media-error '"0+4096"'
echo 3 > /proc/sys/vm/drop_caches
vd_sum x5 8
assert_eq "x5 read over a member's media error" "$ref" "$SUM"
# (firmware recovers such a read; the drive is not failed for it)
expect_drive x5-m1 state '^online$'
expect_vd x5 state '^optimal$'
log "x5 read back through a media error on x5-m1"
drive_set x5-m1 media-error '""'

# RAID 5: one failed drive, degraded, data intact; a second, offline.
drive_set x5-m0 state '"offline"'
expect_vd x5 state '^degraded$'
vd_sum x5 8
assert_eq "x5 read degraded" "$ref" "$SUM"
# The disk is held open: mpi3mr may remove an offline VD's disk, and I/O
# through the open device must then fail too (/proc/self/fd/8 reopens the
# same block device even if its /dev node is gone).
exec 8<>"$x5"
drive_set x5-m2 state '"offline"'
expect_vd x5 state '^offline$'
sleep 1
if [ -b "$x5" ]; then
    log "x5 offline: its disk $x5 is still there"
else
    log "x5 offline: mpi3mr removed its disk $x5"
fi
errors=0
for i in 0 1 2 3 4 5 6 7; do
    if dd if=/proc/self/fd/8 of=/tmp/x5.chunk bs=1M skip=$i count=1 iflag=direct 2>/dev/null; then
        # Never wrong data: a read that succeeds must return the data.
        dd if=/tmp/x5.ref of=/tmp/x5.want bs=1M skip=$i count=1 2>/dev/null
        cmp -s /tmp/x5.chunk /tmp/x5.want ||
            fail "offline RAID 5 returned wrong data for MiB $i"
        fail "offline RAID 5 returned MiB $i without an error"
    fi
    errors=$((errors + 1))
done
if dd if=/tmp/x5.ref of=/proc/self/fd/8 bs=1M count=1 oflag=direct conv=notrunc 2>/dev/null; then
    fail "a write to the offline RAID 5 succeeded"
fi
log "offline RAID 5: $errors reads and a write got I/O errors"
# QEMU and the other VDs carry on.
expect_vd x5 state '^offline$'
expect_vd f5 state '^degraded$'
vd_sum f5
# shellcheck disable=SC2154  # (set by raid_fail_test)
assert_eq "f5 after x5 went offline" "$SUM0_f5" "$SUM"
# The only errors: I/O errors of the offline x5 (if its disk is still
# there), none of the driver.
mr9600_driver_log ""
check_dmesg "(I/O error|critical medium error), dev ${x5#/dev/}, sector [0-9]+ op 0x[01]:\((READ|WRITE)\) "
