# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600's second round of fault injection (docs/fault-injection.md)
# seen by the unmodified mpi3mr of 7.2 (8.17), each while fio verifies data
# on a JBOD SAS drive: a lost admin reply (an MPI pass-through through the
# BSG node: the driver's application command timeout, a diag fault reset
# whose snapdump phase, diag-save-ms, it waits out, then a soft reset); a
# lost task management reply (the abort of a command the drive sat on: TM
# timeout, controller reset); one completion with a wrong host tag (the
# driver's invalid completion, reset reason 32); a second drive's commands
# failing with chosen IOCStatus and LogInfo (the driver's host byte for
# each, the SCSI midlayer's retries or the error dd sees); IOC INIT
# faulting during the re-initialization after a reset (the driver's retry).
# After each, fio ends without errors or verify mismatches and every
# controller reset the driver started succeeded.  The controller also
# reports IO FACTS throttle limits and the reply queue limit flag from
# its properties: the driver logs the limits as given.  6.1's driver panics on a
# wrong host tag (docs/fault-injection.md): that point is 7.x only.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ kernels 7.2
#@ prepare bash tests/guest/tests/mr9600-faults2.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow mpi3mr[0-9]+: Cannot Identify scmd for host_tag 0x0$
#@ allow mpi3mr[0-9]+: reply_desc_type\(4096\) host_tag\(0\(0x0000\)\): qid\([0-9]+\): command issued to$
#@ allow \] handle\(0xffff\) returned with ioc_status\(0x0000\), log_info\(0x00000000\),$
#@ allow ^(<3>)?\[ *[0-9.]+\] I/O error, dev sd[a-z]+, sector 0 op 0x0:\(READ\) flags 0x[0-9a-f]+ phys_seg 1 prio class [0-9]+$
#@ allow mpi3mr[0-9]+: ioc_init timed out$
#@ allow mpi3mr[0-9]+: OpReqQ submit reset in progress$
#@ allow mpi3mr[0-9]+: failed to send ioc_init$
#@ allow \] scsi_state\(0x00\), scsi_status\(0x00\), xfer_count\(0\), resp_data\(0x00000000\)$

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_pel_tool
    raid_host_ctrl raid0 reply-queue-limit=on,io-throttle-groups=8,io-throttle-devices=16,io-throttle-data-kib=128,io-throttle-high-mib=24,io-throttle-low-mib=12
    for i in 0 1; do
        truncate -s 64M "$2/j$i.img"
        echo "-drive if=none,id=b-j$i,format=raw,file=$2/j$i.img" >> "$2/qemu-all.args"
        echo "-device megaraid-drive,id=j$i,bus=raid0.0,slot=$((8 + i)),drive=b-j$i,interface=sas,vendor=SEAGATE,model=MRFAULTJ$i,serial=SFAULTJ$i" \
            >> "$2/qemu-p1.args"
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

CTRL=/machine/peripheral/raid0
J0=/machine/peripheral/j0

need_driver mpi3mr
# disk_of MODEL: the /dev/sdX of that INQUIRY model, "" if none yet.
disk_of() {
    for _b in /sys/block/sd*; do
        [ -e "$_b/device/model" ] || continue
        [ "$(trim < "$_b/device/model")" != "$1" ] || { echo "/dev/${_b##*/}"; return; }
    done
}
_t=0
while JB=$(disk_of MRFAULTJ0); J1=$(disk_of MRFAULTJ1); [ -z "$JB" ] || [ -z "$J1" ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || { lsscsi; fail "JBOD drives not found ($JB, $J1)"; }
    sleep 0.2
done
log "fio on $JB, injected statuses on $J1"
echo 15 > "/sys/block/${JB#/dev/}/device/timeout"
echo 10 > "/sys/block/${JB#/dev/}/device/eh_timeout"

# recovered N WHAT PROPERTY VALUE: controller reset N has happened and
# succeeded, fio verified everything, and PROPERTY of the controller
# reads VALUE (the injection is used up).
recovered() {
    mr9600_wait_resets "$1" 240
    mr9600_fio_check "$2"
    qom_get "$CTRL" "$3"
    assert_eq "$2: $3 used up" "$4" "$QOM"
}

# logged ERE WHY: a kernel line matches ERE, or the test fails with WHY.
logged() {
    dmesg | grep -qE "$1" || fail "$2"
}

# ms_of ERE: the kernel timestamp (ms) of the last line matching ERE.
ms_of() {
    dmesg | grep -E "$1" | tail -n 1 | sed 's/^\[ *\([0-9]*\)\.\([0-9][0-9][0-9]\).*/\1\2/'
}

# The FACTS limits, as the driver read them; the reply queue full count
# its limit flag enables (nothing held back yet).
logged 'mpi3mr0: max_dev_per_throttle_group\(16\), max_throttle_groups\(8\)$' \
    "the driver did not read the throttle groups"
logged 'mpi3mr0: io_throttle_data_len\(128KiB\), io_throttle_high\(24MiB\), io_throttle_low\(12MiB\)$' \
    "the driver did not read the throttle limits"
qfull=$(cat "/sys/class/scsi_host/$(readlink -f "/sys/block/${JB#/dev/}/device" | grep -o 'host[0-9]*' | head -n 1)/reply_qfull_count")
assert_eq "reply_qfull_count at start" 0 "$qfull"

r0=$(mr9600_driver_resets)

# 1. A lost admin reply, with a 3 s snapdump: an MPI pass-through (PEL
# GET_SEQNUM) gets no answer; after 60 s (the driver's least timeout
# for an application's request) it resets with a
# diag fault first (application command timeout, 0x6), waits while the
# IOC says SAVE IN PROGRESS, then soft resets.
qom_set "$CTRL" diag-save-ms 3000
qom_set "$CTRL" drop-admin-replies 1
mr9600_fio_start "$JB"
if /mrsim/pel-tool seq > /tmp/pel.out 2>&1; then
    cat /tmp/pel.out
    fail "the pass-through whose reply was lost succeeded"
fi
recovered $((r0 + 1)) "lost admin reply" drop-admin-replies 0
logged 'mpi3mr0: mpi3mr_bsg_process_mpt_cmds: bsg request timedout after 60 seconds$' \
    "the driver did not time out the pass-through"
logged 'mpi3mr0: controller reset is triggered by application command timeout$' \
    "no controller reset for the application command timeout"
t_diag=$(ms_of 'mpi3mr0: diag fault reset due to application command timeout\(0x6\)')
t_soft=$(ms_of 'mpi3mr0: soft reset due to application command timeout\(0x6\)')
[ -n "$t_diag" ] && [ -n "$t_soft" ] ||
    fail "no diag fault then soft reset for the application command timeout"
log "diag fault at $t_diag ms, soft reset at $t_soft ms"
[ $((t_soft - t_diag)) -ge 3000 ] ||
    fail "the driver did not wait out the 3 s snapdump ($((t_soft - t_diag)) ms)"
qom_set "$CTRL" diag-save-ms 0

# 2. A lost TM reply: the drive sits on a command, the driver's abort is
# carried out but its reply lost; after the TM's 60 s the driver resets
# the controller (TM timeout, 0x5) and the abort fails.
qom_set "$CTRL" drop-tm-replies 1
n_ab=$(dmesg | grep -c 'attempting abort task')
mr9600_fio_start "$JB"
qom_set "$J0" unresponsive true
dd if="$JB" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &
_t=0
while [ "$(dmesg | grep -c 'attempting abort task')" -le "$n_ab" ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "no abort within 60 s of the drive going silent"
    sleep 0.1
done
qom_set "$J0" unresponsive false
recovered $((r0 + 2)) "lost TM reply" drop-tm-replies 0
logged 'mpi3mr0: controller reset is triggered by TM timeout$' \
    "no controller reset for the TM timeout"
logged 'mpi3mr0: diag fault reset due to TM timeout\(0x5\)$' \
    "the TM timeout's reset was not a diag fault (snapdump) first"
logged 'mpi3mr0: Abort Task FAILED for scmd' "the lost abort did not fail"

# 3. A completion with a wrong host tag (0: no command has it): the
# driver cannot find the command, flags the invalid completion and its
# watchdog resets the controller (reason 32); the command lost with it is
# retried after the reset.
mr9600_fio_start "$JB"
qom_set "$CTRL" inject-bad-host-tag '"0"'
recovered $((r0 + 3)) "wrong host tag" inject-bad-host-tag ""
logged 'mpi3mr0: Cannot Identify scmd for host_tag 0x0$' \
    "the driver did not report the unknown host tag"
logged 'mpi3mr0: controller reset is triggered by invalid cmd completion$' \
    "no controller reset for the invalid completion"
logged 'mpi3mr0: diag fault reset due to invalid cmd completion\(0x20\)$' \
    "the invalid completion's reset did not carry reason 32"

# 4. IOCStatus and LogInfo on the second drive, with the driver's error
# logging on: each status's host byte, and what dd then sees.
H1=$(cat "/sys/block/${J1#/dev/}/device/device_handle")
host=$(readlink -f "/sys/block/${J1#/dev/}/device" | grep -o 'host[0-9]*' | head -n 1)
lvl=/sys/class/scsi_host/$host/logging_level
[ -e "$lvl" ] || fail "no $lvl"
echo 0x40 > "$lvl"
dd_j1() {
    dd if="$J1" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
}
h1=$(printf '%x' "$H1")
drv_err() {
    dmesg | grep -cE "Command issued to handle 0x0*$h1 returned with error $1 loginfo $2"
}
# inject_j1 IOCSTATUS:LOGINFO:COUNT
inject_j1() {
    qom_set "$CTRL" inject-io-status "\"$H1:$1\""
}
left_j1() {
    qom_get "$CTRL" inject-io-status
    assert_eq "$1" "$2" "$QOM"
}
# DEVICE NOT THERE: DID_NO_CONNECT, not retried: dd fails.
inject_j1 0x43:0x31120303:1
! dd_j1 || fail "a read completed with DEVICE NOT THERE succeeded"
assert_eq "driver's log of DEVICE NOT THERE" 1 "$(drv_err 0x0043 0x31120303)"
logged "\[${J1#/dev/}\] tag#[0-9]+ FAILED Result: hostbyte=DID_NO_CONNECT" \
    "DEVICE NOT THERE did not end as DID_NO_CONNECT"
# IOC TERMINATED twice: DID_SOFT_ERROR, retried: dd succeeds.
inject_j1 0x4b:0x1234:2
dd_j1 || fail "a read retried after IOC TERMINATED failed"
left_j1 "both IOC TERMINATED completions used" ""
assert_eq "driver's log of IOC TERMINATED" 2 "$(drv_err 0x004b 0x00001234)"
# BUSY twice: the midlayer's BUSY retry: dd succeeds.
inject_j1 0x2:0:2
dd_j1 || fail "a read retried after BUSY failed"
left_j1 "both BUSY completions used" ""
# IOC TERMINATED 10 times: the read is tried 1 + 5 times, then fails.
inject_j1 0x4b:0x1234:10
! dd_j1 || fail "a read failed 10 times with IOC TERMINATED succeeded"
left_j1 "tries of a read failing with IOC TERMINATED" "$H1:0x004b:0x00001234:4"
logged "\[${J1#/dev/}\] tag#[0-9]+ FAILED Result: hostbyte=DID_SOFT_ERROR" \
    "IOC TERMINATED did not end as DID_SOFT_ERROR"
qom_set "$CTRL" inject-io-status '""'
echo 0 > "$lvl"
dd_j1 || fail "$J1 does not read after the injected statuses"
assert_eq "controller resets after the injected statuses" $((r0 + 3)) "$(mr9600_driver_resets)"

# 5. IOC INIT faults once during the re-initialization after a reset:
# the driver waits for its reply (60 s), retries, and the second IOC INIT
# succeeds.
qom_set "$CTRL" fault-ioc-init 1
mr9600_fio_start "$JB"
qom_set "$CTRL" inject-fault '"0x5a18"'
recovered $((r0 + 4)) "IOC INIT fault" fault-ioc-init 0
logged 'mpi3mr0: ioc_init timed out$' \
    "the driver did not time out the faulted IOC INIT"
logged 'mpi3mr0: fault code\(0x00002005\)' \
    "the driver did not report the IOC INIT fault code"
logged 'mpi3mr0: retrying controller re-initialization, retry_count:1$' \
    "the driver did not retry the re-initialization"
logged 'mpi3mr0: soft reset due to timeout in bringup\(0x1\)$' \
    "the retry did not soft reset the faulted IOC"

_trig=$(mr9600_driver_resets)
_ok=$(dmesg | grep -c 'mpi3mr[0-9]*: controller reset is successful')
assert_eq "successful controller resets" "$_trig" "$_ok"
assert_eq "controller resets in all" $((r0 + 4)) "$_trig"
[ -n "$(disk_of MRFAULTJ0)" ] && [ -n "$(disk_of MRFAULTJ1)" ] ||
    { lsscsi; fail "a disk is gone after the faults"; }
log "all faults recovered"
