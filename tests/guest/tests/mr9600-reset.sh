# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 resets: a SCSI host reset (sg_reset -H, which mpi3mr turns
# into a diag fault and soft reset of the controller) while fio with crc32c
# verification runs, then the driver is unloaded and loaded again; the
# drives come back each time with their data.  fio must be running and
# completing I/O just before the host reset, still running while it
# lasts, and I/O must complete again after it; there is exactly one
# controller reset and it succeeds.
# Control switch (tests/controls): MRSIM_CONTROL_RESET_KILL_FIO=1 kills
# fio just before the host reset.
#@ timeout 900
# mpi3mr logs this at error level when a command it is queuing meets the
# reset this test asks for (it returns the command to the SCSI midlayer,
# which retries it); seen once in three runs on 7.2, a race in the driver.
#@ allow OpReqQ submit reset in progress
#@ mem 1024
#@ smp 2
#@ disk d0 64M vendor=NVMe product=MR-RESET-0 serial=SRESET0
#@ disk d1 64M vendor=SEAGATE product=MRSASR1 serial=SRESET1
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=d0,interface=nvme,model=MR-RESET-0,serial=SRESET0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=d1,interface=sas,vendor=SEAGATE,model=MRSASR1,serial=SRESET1
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_disks 120
check_disks
mr9600_driver_log

# LUN reset and target reset (task management through the admin queue).
dev=$(disk_dev d0)
for _d in "$dev" "$(disk_dev d1)"; do
    log "LUN reset and target reset through $_d"
    sg_reset -d "$_d" || fail "sg_reset -d $_d (LUN reset) failed"
    sg_reset -t "$_d" || fail "sg_reset -t $_d (target reset) failed"
done
dmesg | grep -q 'controller reset is triggered' &&
    fail "a LUN or target reset escalated to a controller reset"

# Host reset with I/O running: fio must be running and completing I/O on
# the disk just before the reset, still be there while the reset runs,
# and I/O must complete again after it.
# fio_pids: the fio processes (not zombies).
# (Shell builtins only: this runs every 0.1 s during the reset.)
fio_pids() {
    for _p in /proc/[0-9]*; do
        _c=""
        read -r _c 2>/dev/null < "$_p/comm" || continue
        [ "$_c" = fio ] || continue
        _st=""
        while read -r _k _v _; do
            [ "$_k" != State: ] || { _st=$_v; break; }
        done 2>/dev/null < "$_p/status"
        [ "$_st" = Z ] || [ -z "$_st" ] || echo "${_p#/proc/}"
    done
}
( fio_verify "$dev" 32M --loops=6 > /tmp/fio.r 2>&1; echo $? > /tmp/fio.r.rc ) &
# fio under way: running and completing I/O.
_t=0
while :; do
    _a=$(disk_io_done "$dev")
    sleep 0.5
    [ -z "$(fio_pids)" ] || [ "$(disk_io_done "$dev")" -le "$_a" ] || break
    _t=$((_t + 1))
    [ $_t -lt 120 ] || { cat /tmp/fio.r; fail "fio did not start I/O on $dev"; }
done
sleep 2
resets_before=$(dmesg | grep -c 'controller reset is triggered')
_a=$(disk_io_done "$dev")
sleep 0.3
_b=$(disk_io_done "$dev")
[ -n "$(fio_pids)" ] || fail "fio was not running just before the host reset"
[ "$_b" -gt "$_a" ] ||
    fail "no I/O completed on $dev in the 0.3 s before the host reset (fio stalled)"
if [ "${MRSIM_CONTROL_RESET_KILL_FIO:-}" = 1 ]; then
    # Control: the I/O is gone when the reset comes.
    log "CONTROL: fio killed just before the host reset"
    # shellcheck disable=SC2046
    kill -9 $(fio_pids)
    sleep 1
fi
log "host reset through $dev (fio running, $_b requests done)"
sg_reset -H "$dev" > /tmp/reset.out 2>&1 &
_rpid=$!
_seen=0
_queued=0
while kill -0 $_rpid 2>/dev/null; do
    [ -n "$(fio_pids)" ] || fail "fio was not running during the host reset"
    _seen=$((_seen + 1))
    # requests of fio's waiting in the block layer or the driver
    read -r _r _w < "/sys/block/${dev#/dev/}/inflight"
    [ $((_r + _w)) -le "$_queued" ] || _queued=$((_r + _w))
    sleep 0.1
done
wait $_rpid || { cat /tmp/reset.out; fail "sg_reset -H $dev failed"; }
[ "$_seen" -gt 0 ] || fail "the host reset ended before fio could be seen running during it"
_c=$(disk_io_done "$dev")
log "host reset done (fio seen running $_seen times during it, up to $_queued requests in flight; $_c requests done)"
# I/O resumes after the reset.
_t=0
while [ "$(disk_io_done "$dev")" -le "$_c" ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "no I/O completed on $dev in the 60 s after the host reset"
    sleep 0.1
done
log "I/O resumed after the host reset ($(disk_io_done "$dev") requests done)"
wait
cat /tmp/fio.r
assert_eq "fio across the host reset" 0 "$(cat /tmp/fio.r.rc)"
# Exactly one controller reset, and it succeeded.
mr9600_resets_ok $((resets_before + 1))
# fio has overwritten d0's pattern.
sed 's/^\(name=d0 .*\) pattern=1/\1 pattern=0/' /mrsim/disks > /tmp/disks
MRSIM_DISKS=/tmp/disks
wait_disks 60
check_disks

# Unload and load the driver.
assert_cmd "rmmod mpi3mr" rmmod mpi3mr
[ -z "$(ls /sys/block | grep '^sd')" ] || fail "disks left after rmmod: $(ls /sys/block)"
assert_cmd "modprobe mpi3mr" modprobe mpi3mr
need_driver mpi3mr
wait_disks 120
check_disks
for _n in $(disk_names); do
    host_expect "$_n" "$(disk_dev "$_n")"
done
# Unload once more: the second shutdown notification of this boot (the
# driver ORs the field into IOC Configuration again) completes at once,
# not after the driver's shutdown timeout.
t0=$(cut -d' ' -f1 /proc/uptime)
assert_cmd "second rmmod mpi3mr" rmmod mpi3mr
t1=$(cut -d' ' -f1 /proc/uptime)
log "second unload took $(echo "$t0 $t1" | awk '{ print $2 - $1 }') s"
echo "$t0 $t1" | awk '{ exit !($2 - $1 < 5) }' ||
    fail "the second driver unload took $t0 -> $t1 s (shutdown timeout?)"
assert_eq "successful shutdown notifications" 2 \
    "$(dmesg | grep -c 'after successful shutdown')"
# What the one host reset logs (mpi3mr turns it into a diag fault, code
# F000h, and a soft reset); the LUN and target resets log nothing these
# checks flag.
mr9600_driver_log 'mpi3mr[0-9]+: (controller reset is triggered by error handling|diag fault reset due to error handling\(0x4\)|soft reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
check_dmesg 'mpi3mr[0-9]+: (diag fault reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
