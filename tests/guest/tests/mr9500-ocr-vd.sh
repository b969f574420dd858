# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 online controller reset with a RAID 5 VD: megaraid-img
# makes the drive group on the host, the controller imports it, the
# driver reads the RAID map with the LD in it (fast path off, so its
# writes go to the firmware as LD I/O with the map's RAID 5 division
# hints) and pends a map sync.  fio with crc32c verification runs on the
# VD when the firmware faults (QOM inject-fault through QMP): the driver's
# OCR returns the outstanding LD I/O to the midlayer, resets the chip,
# sends IOC INIT, fetches the map again (the LD still there) and the
# midlayer re-issues the I/O.  fio passes, the reset is logged once as
# successful, nothing else in the log (the OCR lines: see mr9500-ocr).
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ allow FW in FAULT state Fault code:0x5a5
#@ allow resetting fusion adapter scsi[0-9]+
#@ allow Reset successful for scsi[0-9]+
#@ prepare bash tests/guest/tests/mr9500-ocr-vd.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    RAID_CTRL_TYPE=megaraid-9500
    raid_host_begin "$2"
    raid_host_ctrl c0
    RAID_DRIVE_SIZE=48M raid_host_group v5 raid5 sas 3 0
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh

CTRL=/machine/peripheral/c0

need_driver megaraid_sas
wait_vds 120
dev=$(vd_dev v5)
assert_eq "size of VD v5 ($dev)" "$(vd_attr v5 bytes)" \
    "$(blockdev --getsize64 "$dev")"
expect_vd v5 state '^optimal$'
check_dmesg ""

fio_start v5 32M --loops=3
wait_io_flowing "$dev" /tmp/fio-v5.out
sleep 2
fio_running v5 || { cat /tmp/fio-v5.out; fail "fio ended before the fault"; }
log "firmware fault with fio running on VD v5 ($(disk_io_done "$dev") requests done)"
mr9500_ocr "$CTRL"
fio_wait v5

mr9500_ocr_once "$CTRL"
expect_vd v5 state '^optimal$'
mr9500_driver_log "$MR9500_OCR_LINES"

# the VD after the reset: a new fio, the same data after a cold read
fio_start v5 8M
fio_wait v5
vd_sum v5
_s1=$SUM
echo 3 > /proc/sys/vm/drop_caches
vd_sum v5
assert_eq "v5 reads the same twice after the OCR" "$_s1" "$SUM"
check_dmesg "$MR9500_OCR_LINES"
