# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600's persistent event log as the unmodified mpi3mr driver
# uses it: an application enables PEL through the BSG node (PELENABLE,
# drives only); the driver reads the sequence numbers and keeps a PEL WAIT
# outstanding; a RAID 1 member failure (QOM state=offline) completes it,
# the driver counts it (event_counter) and arms the next WAIT; widening
# the filter to every locale makes the driver ABORT its WAIT and arm a new
# one, which a CacheVault failure completes.  The log read back through
# MPI pass-through (PEL GET_LOG) holds the failure, the drive's and the
# VD's state changes and the CacheVault's, in sequence; the driver logs
# no error (the post-exit scan).  pel-tool (tests/guest/pel-tool.c) is
# built statically on the host and put in /mrsim.
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mr9600-pel.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_pel_tool
    raid_host_state_drive evl-p "$2/evlog.bin" 1M
    raid_host_ctrl c-p event-log=evl-p
    raid_host_group pel raid1 nvme 2 0
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

counter=/sys/bus/pci/drivers/mpi3mr/event_counter

# wait_counter_above N: the driver counted a PEL WAIT completion.
wait_counter_above() {
    local i
    for ((i = 0; i < 300; i++)); do
        COUNT=$(cat "$counter")
        [ "$COUNT" -gt "$1" ] && return 0
        sleep 0.2
    done
    fail "event_counter stayed at $1 (no PEL WAIT completion seen)"
}

need_driver mpi3mr
wait_vds 120
[ -r "$counter" ] || fail "no $counter"
assert_cmd "PEL GET_SEQNUM through MPI pass-through" /mrsim/pel-tool seq
seq=$(/mrsim/pel-tool seq)
log "before: $seq"
newest=$(echo "$seq" | sed -n 's/^newest \([0-9]*\) .*/\1/p')
[ -n "$newest" ] && [ "$newest" -ge 1 ] || fail "no entry in the log: $seq"

c0=$(cat "$counter")
assert_cmd "PELENABLE, drive locale" /mrsim/pel-tool enable 0x0002 0
sleep 2
assert_eq "no completion before anything happens" "$c0" "$(cat "$counter")"

drive_set pel-m1 state '"offline"'
expect_vd pel state '^degraded$'
wait_counter_above "$c0"
c1=$COUNT
log "member failure: event_counter $c0 -> $c1"

# Wider filter: the driver aborts its WAIT (counted too) and arms another.
assert_cmd "PELENABLE, every locale" /mrsim/pel-tool enable 0xffff 0
wait_counter_above "$c1"
c2=$COUNT
log "filter widened (PEL ABORT): event_counter $c1 -> $c2"
sleep 1
c2=$(cat "$counter")
qom_set /machine/peripheral/c-p cachevault '"failed"'
wait_counter_above "$c2"
log "CacheVault failure: event_counter $c2 -> $COUNT"

/mrsim/pel-tool log $((newest + 1)) 0xffff 0 > /tmp/pel.log ||
    fail "PEL GET_LOG through MPI pass-through failed"
cat /tmp/pel.log
drive_qom pel-m1 slot
slot=$QOM
grep -q "code 0x0104 locale 0x0002 class 4 target $slot " /tmp/pel.log ||
    fail "no 'drive failed' entry for slot $slot"
grep -q "code 0x0103 locale 0x0002 .* target $slot arg 2 3 " /tmp/pel.log ||
    fail "no 'drive online -> offline' entry for slot $slot"
grep -q "code 0x0201 locale 0x0001 class 3 target 0 arg 0 2 " /tmp/pel.log ||
    fail "no 'VD optimal -> degraded' entry"
grep -q "code 0x0401 locale 0x0008 class 3 target -1 arg 0 1 " /tmp/pel.log ||
    fail "no 'CacheVault optimal -> failed' entry"
# sequence numbers follow each other from where the log stood
first=$(sed -n '2s/^seq \([0-9]*\) .*/\1/p' /tmp/pel.log)
assert_eq "first new entry follows the old newest" "$((newest + 1))" "$first"
awk '/^seq / { if (prev && $2 != prev + 1) exit 1; prev = $2 }' \
    /tmp/pel.log || fail "sequence numbers are not consecutive"
log "mr9600-pel: WAIT completions counted by the driver, entries read back"
