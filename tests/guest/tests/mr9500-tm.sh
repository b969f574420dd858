# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9500 task management seen by the unmodified megaraid_sas: the
# JBOD sequence map marks the JBOD TM-capable, so when its drive stops
# answering (QOM "unresponsive" over QMP) and a read times out, the
# driver's error handler aborts the read with an MPI2 ABORT TASK ("task
# abort SUCCESS") instead of an online controller reset.  The fault is
# then cleared, the midlayer's retry of the read returns the image's data,
# new I/O works, and no OCR happened: none of the driver's OCR lines in
# the kernel log, and the controller's chip-resets count is unchanged.
# The driver only hands a timed-out command to the error handler once it
# is 2 x scmd_timeout old (megasas_reset_timer), so the module is loaded
# again with scmd_timeout=10 (its minimum) and the disk's timeout set to
# 4 s: the abort comes about 20 s after the read.
#@ timeout 600
#@ smp 2
#@ qmp
#@ kernels 6.12 7.2
#@ disk t0 64M vendor=SEAGATE product=MR95TM0 serial=J95T00
#@ qemu -device megaraid-9500,id=raid0
#@ qemu -device megaraid-drive,id=t0d,bus=raid0.0,slot=0,drive=t0,interface=sas,vendor=SEAGATE,model=MR95TM0,serial=J95T00
. /mrsim/lib-raid.sh

CTRL=/machine/peripheral/raid0
# what an online controller reset (or a failed one) prints
OCR_RE='resetting fusion adapter|Reset successful|Reset failed|killing adapter|FW in FAULT|megasas_reset_fusion|target reset|Controller is not OPERATIONAL'

need_driver megaraid_sas
wait_disks 120
assert_cmd "rmmod megaraid_sas" rmmod megaraid_sas
assert_cmd "modprobe megaraid_sas scmd_timeout=10" modprobe megaraid_sas scmd_timeout=10
need_driver megaraid_sas
wait_disks 120
dev=$(disk_dev t0)
echo 4 > "/sys/block/${dev#/dev/}/device/timeout"

# the block the hung read will fetch, read while the drive answers
want=$(dd if="$dev" bs=4096 skip=100 count=1 iflag=direct 2>/dev/null | md5sum)
qom_get "$CTRL" chip-resets
resets0=$QOM
log "$dev ready; chip resets $resets0"

drive_set t0d unresponsive true
t0=$(cut -d. -f1 /proc/uptime)
( dd if="$dev" of=/tmp/tm.blk bs=4096 skip=200 count=1 iflag=direct \
      2>/tmp/tm.err; echo $? > /tmp/tm.rc ) &
sleep 2
[ ! -f /tmp/tm.rc ] || fail "the read completed although the drive is unresponsive"

# the error handler aborts it by task management
wait_dmesg 'task abort SUCCESS' "$OCR_RE|task abort FAILED" 90 "task abort"
drive_set t0d unresponsive false
log "task abort $(($(cut -d. -f1 /proc/uptime) - t0)) s after the read"
# (without the time stamp: the log scan fails kernel lines on the console)
dmesg | grep -E 'attempting task abort|task abort SUCCESS' |
    sed 's/^\[[ 0-9.]*\] /kernel: /'
dmesg | grep -q 'attempting task abort' || fail "no TM abort was sent"

# the midlayer's retry of the read completes with the image's data
_t=0
while [ ! -f /tmp/tm.rc ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "the aborted read was not retried within 60 s"
    sleep 0.1
done
wait
[ "$(cat /tmp/tm.rc)" = 0 ] || { cat /tmp/tm.err; fail "the aborted read failed"; }
want200=$(dd if="$dev" bs=4096 skip=200 count=1 iflag=direct 2>/dev/null | md5sum)
assert_eq "retried read" "$want200" "$(md5sum < /tmp/tm.blk)"
assert_eq "read again" "$want" \
    "$(dd if="$dev" bs=4096 skip=100 count=1 iflag=direct 2>/dev/null | md5sum)"
fio_verify "$dev" 8M

# no online controller reset, by the driver's log and the device's count
if dmesg | grep -E "$OCR_RE"; then
    fail "the driver reset the controller or the target"
fi
qom_get "$CTRL" chip-resets
assert_eq "chip resets" "$resets0" "$QOM"
check_dmesg 'attempting task abort|Abort request is for SMID|task abort SUCCESS|CDB: Read'
log "abort by TM, no OCR"
