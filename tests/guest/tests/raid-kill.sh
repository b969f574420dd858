# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 controller cache and its journal: a write-back RAID 5 with
# a healthy CacheVault and a journal file reports write-back (QOM and the
# caching mode page's WCE).  Four writers overwrite sequence-numbered 4 KiB
# blocks with O_DIRECT (no flush: acknowledged = in the controller's
# cache) and log each acknowledged number; the guest has the host kill
# QEMU with SIGKILL in the middle.  Phase 2 starts QEMU again on the same
# drives and journal: every block holds its last acknowledged write or a
# later one, never an older one.  Then the CacheVault fails: the VD
# reports write-through (QOM, WCE, the kernel after a rescan) and still
# reads back what it is given; with the CacheVault optimal again it goes
# back to write-back.  Alongside, on a second controller, a RAID 5 member
# fails and its rebuild onto the hot spare (rebuild rate 1 %) is cut by
# the SIGKILL: after the restart the rebuild carries on from the DDF
# checkpoint and ends with the VD's data intact.
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ phases 2
#@ prepare bash tests/guest/tests/raid-kill.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

WRITERS="0 1 2 3"
SLOTS=16

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_ctrl c-k "journal=$2/journal.bin"
    raid_host_group k5 raid5 nvme 3 0 "" --write-back
    raid_host_ctrl c-r rebuild-rate=1
    RAID_PREFILL=1 raid_host_group rr raid5 sas 3 1
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

# slot_blk W S: 4 KiB block of writer W's slot S (slots 68 KiB apart, so
# they fall on different strips and rows).
slot_blk() {
    echo $(($1 * 512 + $2 * 17))
}

need_driver mpi3mr
wait_vds 120
dev=$(vd_dev k5)
check_vd k5
qom_get /machine/peripheral/c-k cachevault
assert_eq "CacheVault" optimal "$QOM"

# expect_policy POLICY WCE KERNEL-CACHE-TYPE
expect_policy() {
    expect_vd k5 write-policy "^$1\$"
    assert_eq "WCE of the caching page of $dev" "$2" "$(sd_wce "$dev")"
    echo 1 > "/sys/block/${dev#/dev/}/device/rescan"
    assert_eq "kernel cache type of $dev" "$3" \
        "$(cat /sys/block/"${dev#/dev/}"/device/scsi_disk/*/cache_type)"
    log "k5: $1, WCE $2, kernel '$3'"
}

if [ "$MRSIM_PHASE" = 1 ]; then
    expect_policy write-back 1 "write back"
    # The rebuild that the kill interrupts.
    vd_sum rr
    carry SUM_rr "$SUM"
    drive_set rr-m1 state '"offline"'
    expect_vd rr state '^degraded$'
    expect_vd rr job '^rebuild$'
    for w in $WRITERS; do
        ( n=1
          while :; do
              s=$((n % SLOTS))
              printf 'MRSIM-SEQ w=%d n=%d\n' "$w" "$n" |
                  dd of="$dev" bs=4096 count=1 seek="$(slot_blk "$w" "$s")" \
                     conv=sync oflag=direct 2>/dev/null ||
                  { echo "writer $w: write $n failed"; exit 1; }
              echo "@@MRSIM-CARRY $MRSIM_TOKEN ACK_$w=$n@@"
              echo "$n" > "/tmp/ack-$w"
              n=$((n + 1))
          done ) &
    done
    # Kill once each writer had 40 writes acknowledged (every slot
    # overwritten at least twice).
    t=0
    while :; do
        low=1000000
        for w in $WRITERS; do
            a=$(cat "/tmp/ack-$w" 2>/dev/null || echo 0)
            [ "$a" -ge "$low" ] || low=$a
        done
        [ "$low" -lt 40 ] || break
        [ "$(jobs -rp | wc -l)" = 4 ] || fail "a writer stopped"
        t=$((t + 1))
        [ $t -lt 600 ] || fail "writers too slow"
        sleep 0.5
    done
    expect_vd rr job '^rebuild$'
    vd_qom rr progress
    log "rr: rebuild at $QOM% when QEMU is killed"
    qemu_kill
fi

# Phase 2: after the SIGKILL and the journal replay.
expect_vd k5 state '^optimal$'
# The rebuild resumes where its checkpoint was and finishes.
expect_vd rr state '^degraded$'
expect_vd rr job '^rebuild$'
expect_drive rr-s0 state '^rebuild$'
expect_drive rr-m1 state '^(offline|unconfigured-bad)$'
vd_qom rr progress
log "rr: rebuild resumed at $QOM% after the restart"
qom_set /machine/peripheral/c-r rebuild-rate 100
wait_optimal 300 rr
expect_drive rr-s0 state '^online$'
vd_sum rr
# shellcheck disable=SC2154  # (carried over from phase 1)
assert_eq "rr after the rebuild that a SIGKILL cut" "$SUM_rr" "$SUM"
for w in $WRITERS; do
    ack=$(eval echo "\${ACK_$w:-0}")
    [ "$ack" -ge 40 ] || fail "writer $w: last acknowledged write $ack (<40) carried over"
    for s in $(seq 0 $((SLOTS - 1))); do
        # The last acknowledged write to the slot, or any later one.
        want=$((ack - ((ack - s) % SLOTS + SLOTS) % SLOTS))
        line=$(dd if="$dev" bs=4096 count=1 skip="$(slot_blk "$w" "$s")" \
                  iflag=direct 2>/dev/null | head -n 1)
        got=$(echo "$line" | sed -n "s/^MRSIM-SEQ w=$w n=\([0-9]*\)\$/\1/p")
        [ -n "$got" ] || fail "writer $w slot $s: '$line' is no write of this writer"
        [ $((got % SLOTS)) = "$s" ] || fail "writer $w slot $s holds write $got of another slot"
        [ "$got" -ge "$want" ] ||
            fail "writer $w slot $s holds write $got: acknowledged write $want lost (last ack $ack)"
        [ "$got" -le $((ack + 64)) ] ||
            fail "writer $w slot $s holds write $got, far beyond the last ack $ack"
    done
    log "writer $w: all $SLOTS slots hold their last acknowledged write (ack $ack) or later"
done
expect_policy write-back 1 "write back"

# CacheVault failed: write-through.
qom_set /machine/peripheral/c-k cachevault '"failed"'
expect_policy write-through 0 "write through"
dd if=/dev/urandom of=/tmp/wt.ref bs=1M count=2 2>/dev/null
assert_cmd "write in write-through" dd if=/tmp/wt.ref of="$dev" bs=1M seek=8 oflag=direct
got=$(dd if="$dev" bs=1M skip=8 count=2 iflag=direct 2>/dev/null | sha256sum)
assert_eq "read back in write-through" "$(sha256sum < /tmp/wt.ref)" "$got"
qom_set /machine/peripheral/c-k cachevault '"optimal"'
expect_policy write-back 1 "write back"
mr9600_driver_log
check_dmesg ""
