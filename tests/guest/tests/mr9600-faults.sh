# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 fault injection (docs/fault-injection.md) seen by the
# unmodified mpi3mr: while fio verifies data on a JBOD SAS drive and a
# RAID 1 VD, the host (QMP) makes the drive answer BUSY and TASK SET FULL,
# slows it down, loses a reply, makes the drive stop answering until the
# driver's error handling runs, puts the IOC into FAULT with a chosen code
# and info words, and sends PREPARE FOR RESET before a firmware reset.
# After each, fio ends without errors or verify mismatches; the driver's
# controller resets are exactly the expected ones, each successful, and
# match the device's own reset count.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ kernels 6.12 7.2
#@ prepare bash tests/guest/tests/mr9600-faults.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_ctrl raid0
    raid_host_group v1 raid1 nvme 2 0
    truncate -s 64M "$2/j0.img"
    echo "-drive if=none,id=b-j0,format=raw,file=$2/j0.img" >> "$2/qemu-all.args"
    echo "-device megaraid-drive,id=j0,bus=raid0.0,slot=8,drive=b-j0,interface=sas,vendor=SEAGATE,model=MRFAULTJ0,serial=SFAULTJ0" \
        >> "$2/qemu-p1.args"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

CTRL=/machine/peripheral/raid0
J0=/machine/peripheral/j0

need_driver mpi3mr
# The JBOD drive and the VD, by their INQUIRY identity.
mr9600_wait_jbod_vd MRFAULTJ0
log "JBOD $JB, RAID 1 VD $VD"
# Commands time out after 15 s instead of the driver's 60 (lost replies,
# an unresponsive drive), error handling commands after 10 s.
for _d in "$JB" "$VD"; do
    echo 15 > "/sys/block/${_d#/dev/}/device/timeout"
    echo 10 > "/sys/block/${_d#/dev/}/device/eh_timeout"
done




r0=$(mr9600_driver_resets)
d0=$(mr9600_device_resets "$CTRL")
log "start: driver resets $r0, device resets $d0"

# 1. BUSY and TASK SET FULL: retried by the midlayer, nothing else.
for _st in busy task-set-full; do
    qom_set "$J0" inject-status "\"$_st:25\""
    mr9600_fio_start
    mr9600_fio_check "$_st"
    qom_get "$J0" inject-status
    assert_eq "injected $_st all consumed" "" "$QOM"
done

# 2. A slow drive: 300 ms per command for a while.
qom_set "$J0" delay-ms 300
mr9600_fio_start
sleep 3
qom_set "$J0" delay-ms 0
mr9600_fio_check "delay-ms 300"
assert_eq "controller resets after BUSY and delay" "$r0" "$(mr9600_driver_resets)"

# 3. An unresponsive drive: its commands time out, the driver's error
# handling aborts them (ABORT TASK on 7.x, a device (LUN) reset before);
# then the drive answers again.
eh_tms() {
    dmesg | grep -cE 'Device\(lun\) Reset is issued|attempting abort task'
}
n_lr=$(eh_tms)
mr9600_fio_start
qom_set "$J0" unresponsive true
# One command surely reaches the silent drive (fio may have written its
# last block before the qom-set landed); mr9600_fio_check waits for it.
dd if="$JB" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &
_t=0
while [ "$(eh_tms)" -le "$n_lr" ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "no abort or device reset within 60 s of the drive going silent"
    sleep 0.1
done
qom_set "$J0" unresponsive false
log "abort or device reset seen, drive answers again"
mr9600_fio_check "unresponsive drive"
dmesg | grep -qE 'device\(LUN\) reset is SUCCESS|Abort Task SUCCEEDED' ||
    fail "the abort or device reset of the unresponsive drive did not succeed"

# 4. IOC FAULT with a code and info words: fault watchdog, soft reset.
r1=$(mr9600_driver_resets)
mr9600_fio_start
qom_set "$CTRL" inject-fault '"0x5a17:0x11:0x22:0x33"'
mr9600_wait_resets $((r1 + 1))
mr9600_fio_check "IOC fault 0x5A17"
dmesg | grep -qE 'mpi3mr[0-9]+: fault code\(0x00005A17\): Additional code: \(0x00000011:0x00000022:0x00000033\)' ||
    fail "the driver did not report the injected fault code and info"
assert_eq "controller resets after the fault" $((r1 + 1)) "$(mr9600_driver_resets)"

# 5. PREPARE FOR RESET, then the firmware resets itself.
mr9600_fio_start
qom_set "$CTRL" inject-prepare-reset true
mr9600_wait_resets $((r1 + 2))
mr9600_fio_check "prepare for reset"
assert_eq "controller resets after the firmware reset" $((r1 + 2)) "$(mr9600_driver_resets)"

# 6. A lost reply (of the JBOD's: only it has I/O): the command times
# out; the abort (7.x), LUN and target resets fail (the device no longer
# has the command, the driver still owns it) and error handling resets
# the controller.
r2=$(mr9600_driver_resets)
qom_set "$CTRL" drop-replies 1
mr9600_fio_start "$JB"
mr9600_wait_resets $((r2 + 1))
mr9600_fio_check "one reply dropped"
qom_get "$CTRL" drop-replies
assert_eq "the reply was dropped" 0 "$QOM"
assert_eq "controller resets after the lost reply" $((r2 + 1)) "$(mr9600_driver_resets)"

# Every controller reset succeeded (the LUN and target resets of the lost
# reply's command fail, as they must: the driver still owns it), and the
# device saw as many resets (for the firmware's own reset the driver
# issues none: it re-initializes the IOC the firmware reset).
_trig=$(mr9600_driver_resets)
_ok=$(dmesg | grep -c 'mpi3mr[0-9]*: controller reset is successful')
assert_eq "successful controller resets" "$_trig" "$_ok"
assert_eq "controller resets in all" $((r0 + 3)) "$_trig"
assert_eq "IOC resets the device saw" $((d0 + $(mr9600_driver_resets) - r0)) \
    "$(mr9600_device_resets "$CTRL")"
# What the driver logs for these faults, and nothing else it flags.
mr9600_driver_log 'mpi3mr[0-9]+: (fault code\(0x00005A17\): Additional code: \(0x00000011:0x00000022:0x00000033\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\)|controller reset is triggered by error handling|(diag fault|soft) reset due to error handling\(0x4\)|device has 1 pending commands, device\(LUN\) reset is failed|device\(LUN\) reset is FAILED for scmd\([0-9a-f]+\)|target has 1 pending commands, target reset is failed|target reset is FAILED for scmd\([0-9a-f]+\)|Abort task failed\. scmd \(0x[0-9a-f]+\) was not terminated|Abort Task FAILED for scmd \(0x[0-9a-f]+\))$'
check_disks_visible() {
    mr9600_find_disks MRFAULTJ0
    [ -n "$JB" ] && [ -n "$VD" ] || { lsscsi; fail "a disk is gone after the faults"; }
}
check_disks_visible
log "all faults recovered"
