# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Guest side of scripts/bench-scale.sh: how long mpi3mr takes from its
# load to every disk of the controller visible as a block device.  The
# expected count is BENCH_DISKS (run.sh --env).  Two measurements:
#   boot    the driver loaded by /init: from its first kernel message to
#           the last "Attached SCSI disk" (both on the kernel's clock)
#   reload  rmmod mpi3mr, then modprobe mpi3mr: from the modprobe to the
#           last disk in /sys/block
# Each ends with "@@BENCH-VISIBLE name seconds@@" and a BENCH_HOLD-second
# pause (default 4) in which the host reads QEMU's resident memory.
# Between the two, a SCSI host reset (sg_reset -H, a controller reset
# for mpi3mr) timed until the driver logs its success and every disk is
# there: "@@BENCH-VISIBLE reset seconds@@" (BENCH_RESET=0 skips it).
# BENCH_RELOAD=0 skips the reload.  Numbers only: it fails only when the
# disks never all appear (BENCH_WAIT seconds, default 600).
#@ timeout 1800

want=${BENCH_DISKS:?BENCH_DISKS not set}
hold=${BENCH_HOLD:-4}
limit=${BENCH_WAIT:-600}

# The sd disks (the guest has no other SCSI disks): a glob, no fork per
# disk, so that a poll stays short with hundreds of them.
count_disks() {
    set -- /sys/block/sd*
    if [ -e "$1" ]; then echo $#; else echo 0; fi
}

uptime_s() {
    cut -d' ' -f1 /proc/uptime
}

# wait_count N: polls every 0.2 s until exactly N disks are there.
wait_count() {
    _end=$(awk -v u="$(uptime_s)" -v l="$limit" 'BEGIN { print u + l }')
    while [ "$(count_disks)" != "$1" ]; do
        if awk -v u="$(uptime_s)" -v e="$_end" 'BEGIN { exit !(u > e) }'; then
            lsscsi 2>/dev/null | tail -n 5
            fail "$(count_disks) disks after ${limit}s, expected $1"
        fi
        sleep 0.2
    done
}

need_driver mpi3mr
wait_count "$want"
t1=$(uptime_s)
# On the kernel's clock: from the driver's first line (its load by /init)
# to the last "Attached SCSI disk" (when /init's modprobe returns and this
# script starts, the disks have been there for a while).
t0=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] mpi3mr.*/\1/p' | head -n 1)
[ -n "$t0" ] || fail "no mpi3mr line in dmesg"
ta=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] sd .*Attached SCSI disk.*/\1/p' |
     tail -n 1)
[ -n "$ta" ] || ta=$t0
boot=$(awk -v a="$t0" -v b="$ta" 'BEGIN { printf "%.2f", b - a }')
log "$want disks attached ${boot}s after mpi3mr's first message (seen at $t1)"
echo "@@BENCH-VISIBLE boot $boot@@"
sleep "$hold"

if [ "${BENCH_RESET:-1}" = 1 ] && [ "$want" -gt 0 ]; then
    # A SCSI host reset: mpi3mr resets the controller, which announces
    # every device again; until the driver says it succeeded.
    n0=$(dmesg | grep -c 'controller reset is successful')
    t0=$(uptime_s)
    sg_reset -H /dev/sda || fail "sg_reset -H /dev/sda failed"
    while [ "$(dmesg | grep -c 'controller reset is successful')" = "$n0" ]; do
        sleep 0.1
    done
    wait_count "$want"
    t1=$(uptime_s)
    reset=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    log "controller reset with $want disks: ${reset}s"
    echo "@@BENCH-VISIBLE reset $reset@@"
fi

if [ "${BENCH_RELOAD:-1}" = 1 ]; then
    assert_cmd "rmmod mpi3mr" rmmod mpi3mr
    wait_count 0
    t0=$(uptime_s)
    assert_cmd "modprobe mpi3mr" modprobe mpi3mr
    wait_count "$want"
    t1=$(uptime_s)
    reload=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    log "$want disks visible ${reload}s after modprobe mpi3mr"
    echo "@@BENCH-VISIBLE reload $reload@@"
    sleep "$hold"
fi
dmesg | grep -E 'mpi3mr[0-9]+: ' | tail -n 30 | sed 's/^/dmesg: /'
