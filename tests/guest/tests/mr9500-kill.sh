# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 (Fusion, megaraid_sas) controller cache and its journal
# across a SIGKILL: the same method as raid-kill (megaraid-9600), without
# its second controller and CacheVault part.  Phase 1: a write-back RAID 5
# that megaraid-img made, behind a megaraid-9500 with a journal drive,
# reports write-back (QOM).  Four writers overwrite sequence-numbered
# 4 KiB blocks of the LD with O_DIRECT and no flush, so an acknowledged
# write may sit in the controller's cache only, and record each
# acknowledged number on a virtio disk outside the controller.  Once every
# slot was written and destaged (flush interval 1 s), the cache flush
# interval goes to 255 s; once every slot was written again, the members
# hold older writes and only the cache and journal the newest ones: QOM
# shows cache-dirty-bytes above what the writes in flight can hold and
# journal-records > 0, and the guest has the host kill QEMU with SIGKILL.
# Phase 2 starts QEMU again on the same drives and journal: the LD is
# optimal and every block holds the newest acknowledged write recorded for
# it (or the one write in flight after it), never an older one;
# megaraid_sas' log and the kernel log are clean.
# Control switch: MRSIM_CONTROL_KILL_WRITE_THROUGH=1 fails the CacheVault
# before the writes (write-through), so nothing is dirty at the kill and
# the "held only in the cache and journal" check must fail.
#@ kernels 6.1 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ phases 2
#@ prepare bash tests/guest/tests/mr9500-kill.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ disk acks 1M
#@ qemu -device virtio-blk-pci,drive=acks,serial=MRSIM-ACKS

WRITERS="0 1 2 3"
NSLOT=16

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # shellcheck disable=SC2034 # read by raid_host_ctrl
    RAID_CTRL_TYPE=megaraid-9500
    raid_host_begin "$2"
    # the journal: 2 x the default 256 MiB cache
    raid_host_state_drive jnl-w "$2/journal.bin" 512M
    raid_host_ctrl c-w journal=jnl-w
    raid_host_group w5 raid5 sas 3 0 "" --write-back
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh

CTRL=/machine/peripheral/c-w

# blk_of W S: the LD's 4 KiB block for writer W, slot S.  Writers are
# 2 MiB apart and slots 72 KiB apart: consecutive slots land on other
# strips (64 KiB) and rows of the 3-drive RAID 5.
blk_of() {
    echo $(($1 * 512 + $2 * 18))
}

# The record disk: virtio-blk with serial MRSIM-ACKS.  Its 512-byte
# sector W holds "MRSIM-ACK w=W n=N", writer W's newest acknowledged N.
find_acks() {
    local d
    for d in /sys/block/vd*; do
        if [ "$(cat "$d/serial" 2>/dev/null)" = MRSIM-ACKS ]; then
            echo "/dev/${d##*/}"
            return 0
        fi
    done
    ls /sys/block
    fail "the virtio disk with serial MRSIM-ACKS (acknowledgement record) is missing"
}

# recorded_ack W: N of writer W's record, empty without one.
recorded_ack() {
    dd if="$acks" bs=512 skip="$1" count=1 iflag=direct 2>/dev/null |
        head -n 1 | sed -n "s/^MRSIM-ACK w=$1 n=\([0-9]*\)\$/\1/p"
}

need_driver megaraid_sas
wait_vds 120
mr9500_driver_log
dev=$(vd_dev w5)
acks=$(find_acks)
assert_eq "size of VD w5 ($dev)" "$(vd_attr w5 bytes)" \
    "$(blockdev --getsize64 "$dev")"
log "w5 = $dev, record disk $acks"

if [ "$MRSIM_PHASE" = 1 ]; then
    expect_vd w5 write-policy '^write-back$'
    qom_get "$CTRL" cachevault
    assert_eq "CacheVault of c-w" optimal "$QOM"
    if [ "${MRSIM_CONTROL_KILL_WRITE_THROUGH:-}" = 1 ]; then
        log "CONTROL: CacheVault failed before the writes (write-through)"
        qom_set "$CTRL" cachevault '"failed"'
        expect_vd w5 write-policy '^write-through$'
    fi
    for w in $WRITERS; do
        ( n=1
          while :; do
              printf 'MRSIM-SEQ w=%d n=%d\n' "$w" "$n" |
                  dd of="$dev" bs=4096 count=1 \
                     seek="$(blk_of "$w" $((n % NSLOT)))" \
                     conv=sync oflag=direct 2>/dev/null ||
                  { echo "writer $w: write $n to $dev failed"; exit 1; }
              # Acknowledged by the controller; now recorded on virtio-blk,
              # whose O_DIRECT completion means QEMU wrote the image file
              # (a SIGKILL cannot undo that).  Only the write between the
              # acknowledgement and this record goes unchecked.
              printf 'MRSIM-ACK w=%d n=%d\n' "$w" "$n" |
                  dd of="$acks" bs=512 count=1 seek="$w" conv=sync \
                     oflag=direct 2>/dev/null ||
                  { echo "writer $w: recording $n failed"; exit 1; }
              echo "@@MRSIM-CARRY $MRSIM_TOKEN ACK_$w=$n@@"
              # (renamed into place: the reader never sees a half file)
              echo "$n" > "/tmp/ack-$w.new" && mv "/tmp/ack-$w.new" "/tmp/ack-$w"
              n=$((n + 1))
          done ) &
    done
    # 20 writes acked by every writer: each slot written and destaged at
    # the default interval; then interval 255 s, and once every writer
    # wrote each slot again the cache and journal alone hold the newest.
    held=""
    t=0
    while :; do
        low=1000000
        high=0
        for w in $WRITERS; do
            a=$(cat "/tmp/ack-$w" 2>/dev/null)
            case "$a" in ''|*[!0-9]*) a=0 ;; esac
            [ "$a" -ge "$low" ] || low=$a
            [ "$a" -le "$high" ] || high=$a
        done
        if [ -z "$held" ] && [ "$low" -ge 20 ]; then
            qom_set "$CTRL" cache-flush-interval 255
            held=$high
        fi
        [ -z "$held" ] || [ "$low" -lt $((held + NSLOT + 1)) ] || break
        [ "$(jobs -rp | wc -l)" = 4 ] || fail "a writer stopped"
        t=$((t + 1))
        [ $t -lt 600 ] || fail "writers too slow (lowest ack $low after 300 s)"
        sleep 0.5
    done
    # The writes in flight (at most one 4 KiB block per writer) are dirty
    # in the cache without a durable journal record; above that the cache
    # holds acknowledged data.  Retry a read that meets a clean moment.
    inflight=$((4096 * $(echo $WRITERS | wc -w)))
    i=0
    while :; do
        qom_get "$CTRL" journal-records
        jrec=$QOM
        qom_get "$CTRL" cache-dirty-bytes
        dirty=$QOM
        [ "$dirty" -le "$inflight" ] || [ "$jrec" -le 0 ] || break
        i=$((i + 1))
        [ $i -lt 50 ] || fail "no acknowledged write was held only in the cache and journal before the kill (cache-dirty-bytes $dirty, at most $inflight in flight; journal-records $jrec; 50 reads)"
        sleep 0.2
    done
    log "w5: $dirty bytes dirty in the cache, $jrec journal records (lowest ack $low, interval raised at $held)"
    qemu_kill
fi

# Phase 2: QEMU restarted after the SIGKILL, the journal replayed.
expect_vd w5 state '^optimal$'
expect_vd w5 write-policy '^write-back$'
for w in $WRITERS; do
    ack=$(recorded_ack "$w")
    [ -n "$ack" ] || fail "writer $w: no acknowledgement recorded on $acks"
    [ "$ack" -ge 36 ] || fail "writer $w: last recorded acknowledgement $ack (<36)"
    # shellcheck disable=SC2154 # ACK_N carried over from phase 1
    seen=$(eval echo "\${ACK_$w:-0}")
    [ "$seen" -le "$ack" ] ||
        fail "writer $w: the console saw ack $seen, the record disk holds only $ack"
    for s in $(seq 0 $((NSLOT - 1))); do
        # newest recorded write to slot s: the largest n <= ack, n % NSLOT = s
        want=$((ack - ((ack - s) % NSLOT + NSLOT) % NSLOT))
        line=$(dd if="$dev" bs=4096 count=1 skip="$(blk_of "$w" "$s")" \
                  iflag=direct 2>/dev/null | head -n 1)
        got=$(echo "$line" | sed -n "s/^MRSIM-SEQ w=$w n=\([0-9]*\)\$/\1/p")
        [ -n "$got" ] ||
            fail "writer $w slot $s: acknowledged write $want lost (the block holds '$line')"
        [ $((got % NSLOT)) = "$s" ] ||
            fail "writer $w slot $s holds write $got, which belongs to another slot"
        [ "$got" -ge "$want" ] ||
            fail "writer $w slot $s holds write $got: acknowledged write $want lost (last ack $ack)"
        [ "$got" -le $((ack + 1)) ] ||
            fail "writer $w slot $s holds write $got, past the one write after the last ack $ack"
    done
    log "writer $w: all $NSLOT slots hold their newest acknowledged write (ack $ack, console $seen) or the next"
done
mr9500_driver_log
check_dmesg ""
