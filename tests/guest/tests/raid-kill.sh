# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The controller cache and its journal, on megaraid-9600 (mpi3mr) and
# megaraid-9500 (megaraid_sas): a write-back RAID 5 with
# a healthy CacheVault and a journal drive reports write-back (QOM and the
# caching mode page's WCE).  Four writers overwrite sequence-numbered 4 KiB
# blocks with O_DIRECT (no flush: acknowledged = in the controller's
# cache) and record each acknowledged number on a virtio disk outside the
# controller; half way the controller's cache flush interval goes from 1 s
# to 255 s, so that the members hold the older writes and the cache and
# journal alone the newer ones; just before the guest has the host kill
# QEMU with SIGKILL, QOM shows such acknowledged data (cache-dirty-bytes
# above what the writes in flight hold, journal-records > 0).  Phase 2 starts QEMU again on
# the same drives and journal: every block holds the newest acknowledged
# write recorded for it (or the one write in flight after it), never an
# older one.  Then the CacheVault fails: the VD
# reports write-through (QOM, WCE, the kernel after a rescan) and still
# reads back what it is given; with the CacheVault optimal again it goes
# back to write-back.  Alongside, on a second controller, a RAID 5 member
# fails and its rebuild onto the hot spare (rebuild rate 1 %) is cut by
# the SIGKILL: after the restart the rebuild resumes at the DDF checkpoint
# seen before the kill or later (vdN-checkpoint-row, vdN-resumed-row), not
# past where it was, and ends with the VD's data intact.
# Control switch (tests/controls): MRSIM_CONTROL_KILL_WRITE_THROUGH=1 fails
# the CacheVault before the writes, so nothing is dirty at the kill.
# Kernels: 6.12 for megaraid-9600, 6.1 and 7.2 for megaraid-9500.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 6.12
#@ kernels@9500 6.1 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ phases 2
#@ prepare bash tests/guest/tests/raid-kill.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ disk acks 1M
#@ qemu -device virtio-blk-pci,drive=acks,serial=MRSIM-ACKS

WRITERS="0 1 2 3"
SLOTS=16

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    # the journal: 2 x the default 256 MiB cache
    raid_host_state_drive jnl-k "$2/journal.bin" 512M
    raid_host_ctrl c-k journal=jnl-k
    raid_host_group k5 raid5 nvme 3 0 "" --write-back
    raid_host_ctrl c-r rebuild-rate=1
    RAID_PREFILL=1 RAID_DRIVE_SIZE=128M raid_host_group rr raid5 sas 3 1
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh

# slot_blk W S: 4 KiB block of writer W's slot S (slots 68 KiB apart, so
# they fall on different strips and rows).
slot_blk() {
    echo $(($1 * 512 + $2 * 17))
}

# The acknowledgement disk (virtio-blk, serial MRSIM-ACKS, outside the
# controller under test): sector W holds writer W's newest acknowledged
# number, "MRSIM-ACK w=W n=N".
ack_disk() {
    local b
    for b in /sys/block/vd*; do
        [ "$(cat "$b/serial" 2>/dev/null)" != MRSIM-ACKS ] || {
            echo "/dev/${b##*/}"; return 0; }
    done
    ls /sys/block
    fail "no virtio disk with serial MRSIM-ACKS (the acknowledgement disk)"
}

# ack_recorded W: writer W's number on the acknowledgement disk, empty if
# none.
ack_recorded() {
    dd if="$acks" bs=512 count=1 skip="$1" iflag=direct 2>/dev/null |
        head -n 1 | sed -n "s/^MRSIM-ACK w=$1 n=\([0-9]*\)\$/\1/p"
}

need_driver "$(ctrl_driver)"
wait_vds 120
ctrl_driver_log
dev=$(vd_dev k5)
acks=$(ack_disk)
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

# uptime in milliseconds
now_ms() {
    awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

if [ "$MRSIM_PHASE" = 1 ]; then
    expect_policy write-back 1 "write back"
    if [ "${MRSIM_CONTROL_KILL_WRITE_THROUGH:-}" = 1 ]; then
        # Control: nothing is left for the cache to hold at the kill.
        log "CONTROL: CacheVault failed before the writes (write-through)"
        qom_set /machine/peripheral/c-k cachevault '"failed"'
        expect_vd k5 write-policy '^write-through$'
    fi
    # What rr holds before the rebuild that the kill interrupts.
    vd_sum rr
    carry SUM_rr "$SUM"
    for w in $WRITERS; do
        ( n=1
          while :; do
              s=$((n % SLOTS))
              printf 'MRSIM-SEQ w=%d n=%d\n' "$w" "$n" |
                  dd of="$dev" bs=4096 count=1 seek="$(slot_blk "$w" "$s")" \
                     conv=sync oflag=direct 2>/dev/null ||
                  { echo "writer $w: write $n failed"; exit 1; }
              # Acknowledged: recorded where the SIGKILL cannot lose it
              # (an O_DIRECT write to virtio-blk completes once QEMU has
              # written the image file, whose data a killed process
              # cannot take back).  The one write between its
              # acknowledgement and this record is the only one phase 2
              # cannot check.
              printf 'MRSIM-ACK w=%d n=%d\n' "$w" "$n" |
                  dd of="$acks" bs=512 count=1 seek="$w" conv=sync \
                     oflag=direct 2>/dev/null ||
                  { echo "writer $w: recording ack $n failed"; exit 1; }
              echo "@@MRSIM-CARRY $MRSIM_TOKEN ACK_$w=$n@@"
              echo "$n" > "/tmp/ack-$w"
              n=$((n + 1))
          done ) &
    done
    # Once each writer had 20 writes acknowledged (every slot written,
    # destaged once a second), the cache holds what comes next: cache
    # flush interval 255 s.  Once each writer wrote every slot again after
    # that, so that the members hold older writes and only the cache and
    # the journal the newest ones, a member of rr fails and its rebuild
    # starts; kill once it checkpointed progress.  The rebuild starts this
    # late so that it cannot end before the kill however fast the host's
    # I/O is against the guest's writers: at 1 % its 2,000 rows take 30 s
    # or more, from the failure to the kill takes 5-15 s.
    # Meanwhile its cursor is sampled ("uptime-ms row").
    t=0
    held=""
    rebuilding=""
    : > /tmp/rr-rows
    while :; do
        low=1000000
        high=0
        for w in $WRITERS; do
            a=$(cat "/tmp/ack-$w" 2>/dev/null || echo 0)
            [ "$a" -ge "$low" ] || low=$a
            [ "$a" -le "$high" ] || high=$a
        done
        if [ -z "$held" ] && [ "$low" -ge 20 ]; then
            qom_set /machine/peripheral/c-k cache-flush-interval 255
            held=$high
        fi
        if [ -z "$rebuilding" ] && [ -n "$held" ] &&
               [ "$low" -ge $((held + SLOTS + 1)) ] && [ "$low" -ge 40 ]; then
            drive_set rr-m1 state '"offline"'
            expect_vd rr state '^degraded$'
            expect_vd rr job '^rebuild$'
            rebuilding=1
        fi
        ckpt=0
        if [ -n "$rebuilding" ]; then
            vd_qom rr job-row
            [ "$QOM" != -1 ] ||
                fail "rr: the rebuild at rate 1 % ended before its first checkpoint"
            echo "$(now_ms) $QOM" >> /tmp/rr-rows
            vd_qom rr checkpoint-row
            ckpt=$QOM
            [ "$ckpt" -le 0 ] || break
        fi
        [ "$(jobs -rp | wc -l)" = 4 ] || fail "a writer stopped"
        t=$((t + 1))
        [ $t -lt 600 ] || fail "writers too slow or no rebuild checkpoint (row $ckpt)"
        sleep 0.5
    done
    expect_vd rr job '^rebuild$'

    # The rebuild's cursor, as checkpointed in the DDF (read first: it
    # cannot pass the cursor read after it) and now.
    t_ckpt=$(now_ms)
    vd_qom rr checkpoint-row
    ckpt=$QOM
    vd_qom rr job-row
    row=$QOM
    t_row=$(now_ms)
    vd_qom rr progress
    log "rr: rebuild at row $row ($QOM%), checkpoint at row $ckpt"
    [ "$ckpt" -gt 0 ] && [ "$ckpt" -le "$row" ] ||
        fail "rr: checkpoint row $ckpt is not within (0, $row]"
    # The metadata lags the cursor by what the job did since its last
    # checkpoint: at most 2 s, plus the rest (<= 2 s) and the batch
    # (20 ms) after which the next one is stored, plus the store itself
    # (DDF writes and flushes on 4 drives) and the QMP round trips: 6 s.
    # So the checkpoint is at least the row sampled 6 s before.
    old=$(awk -v t=$((t_ckpt - 6000)) '$1 <= t { r = $2 } END { print r + 0 }' /tmp/rr-rows)
    [ "$ckpt" -ge "$old" ] ||
        fail "rr: checkpoint row $ckpt is behind row $old, where the rebuild was more than 6 s earlier"
    # Rows per second over the sampling, for phase 2's upper bound.
    rate=$(awk -v t="$t_row" -v r="$row" 'NR == 1 { t0 = $1; r0 = $2 }
           END { d = t - t0; printf "%d\n", (d > 0 ? ((r - r0) * 1000 + d - 1) / d : 0) }' /tmp/rr-rows)
    carry RR_CKPT "$ckpt"
    carry RR_ROW "$row"
    carry RR_RATE "$rate"

    # Just before the kill: acknowledged data that only the cache and the
    # journal hold (no destage has written it to the members yet).  The
    # cache also holds the writes in flight, whose journal record is not
    # durable yet: at most one 4 KiB write per writer, so more than that
    # is acknowledged data.  Reads that catch a clean moment (a destage
    # just finished) are retried; a good one is followed at once by the
    # kill request.
    inflight=$((4096 * $(echo $WRITERS | wc -w)))
    i=0
    while :; do
        qom_get /machine/peripheral/c-k journal-records
        jrec=$QOM
        qom_get /machine/peripheral/c-k cache-dirty-bytes
        dirty=$QOM
        [ "$dirty" -le "$inflight" ] || [ "$jrec" -le 0 ] || break
        i=$((i + 1))
        [ $i -lt 50 ] || fail "no acknowledged write was held only in the cache and journal before the kill (cache-dirty-bytes $dirty, at most $inflight in flight; journal-records $jrec; 50 reads)"
        sleep 0.2
    done
    # Up to then the rebuild moved on at most for this long.
    carry RR_LAG_MS $(($(now_ms) - t_row))
    log "k5: $dirty bytes dirty in the cache, $jrec journal records; rr at row $row, $rate rows/s"
    qemu_kill
fi

# Phase 2: after the SIGKILL and the journal replay.
expect_vd k5 state '^optimal$'
# The rebuild resumes where its checkpoint was and finishes (at 1 % it
# may have finished already: phase 2 runs it faster than phase 1, where
# the guest's writes load the host).
# shellcheck disable=SC2154  # (RR_* carried over from phase 1)
{
    vd_qom rr resumed-row
    resumed=$QOM
    vd_qom rr job-row
    log "rr: rebuild resumed at row $resumed (now at row $QOM); checkpoint before the kill $RR_CKPT, cursor $RR_ROW at $RR_RATE rows/s"
    # Not before the checkpoint phase 1 saw stored (not from 0)...
    [ "$resumed" -ge "$RR_CKPT" ] ||
        fail "rr: the rebuild resumed at row $resumed, behind its checkpoint at row $RR_CKPT stored before the kill"
    # ...and not past the cursor at the kill: the row read last plus what
    # the job can do until the kill, at the rate measured in phase 1 over
    # the time to the kill request + 2 s (the request, rate jitter), + one
    # batch (1 MiB of member I/O: 5 rows of this 3 x 64 KiB RAID 5).  The
    # rate is taken twice: at rebuild-rate 1 the job works in bursts and
    # a second guest on the host skews the mean measured in phase 1 (a
    # resume 5 % past the single-rate bound was seen).
    max=$((RR_ROW + 2 * RR_RATE * (RR_LAG_MS + 2000) / 1000 + 5))
    [ "$resumed" -le "$max" ] ||
        fail "rr: the rebuild resumed at row $resumed, past the row it can have reached at the kill ($max)"
}
expect_drive rr-m1 state '^(offline|unconfigured-bad)$'
vd_qom rr state
if [ "$QOM" = optimal ]; then
    expect_vd rr job '^none$'
    log "rr: the resumed rebuild has finished already"
else
    expect_vd rr state '^degraded$'
    expect_vd rr job '^rebuild$'
    expect_drive rr-s0 state '^rebuild$'
    vd_qom rr progress
    log "rr: rebuild at $QOM% after the restart"
fi
qom_set /machine/peripheral/c-r rebuild-rate 100
wait_optimal 300 rr
expect_drive rr-s0 state '^online$'
vd_sum rr
# shellcheck disable=SC2154  # (carried over from phase 1)
assert_eq "rr after the rebuild that a SIGKILL cut" "$SUM_rr" "$SUM"

# Every acknowledged write: each slot holds the newest write to it that
# the acknowledgement disk records, or the one write after it in flight.
for w in $WRITERS; do
    ack=$(ack_recorded "$w")
    [ -n "$ack" ] || fail "writer $w: no acknowledgement recorded on $acks"
    [ "$ack" -ge 40 ] || fail "writer $w: last recorded acknowledgement $ack (<40)"
    console=$(eval echo "\${ACK_$w:-0}")
    [ "$console" -le "$ack" ] ||
        fail "writer $w: the console saw ack $console, the ack disk only $ack"
    for s in $(seq 0 $((SLOTS - 1))); do
        # The newest recorded write to the slot.
        want=$((ack - ((ack - s) % SLOTS + SLOTS) % SLOTS))
        line=$(dd if="$dev" bs=4096 count=1 skip="$(slot_blk "$w" "$s")" \
                  iflag=direct 2>/dev/null | head -n 1)
        got=$(echo "$line" | sed -n "s/^MRSIM-SEQ w=$w n=\([0-9]*\)\$/\1/p")
        [ -n "$got" ] ||
            fail "writer $w slot $s: acknowledged write $want lost (the block holds '$line', no write of this writer)"
        [ $((got % SLOTS)) = "$s" ] || fail "writer $w slot $s holds write $got of another slot"
        [ "$got" -ge "$want" ] ||
            fail "writer $w slot $s holds write $got: acknowledged write $want lost (last ack $ack)"
        [ "$got" -le $((ack + 1)) ] ||
            fail "writer $w slot $s holds write $got, beyond the one write after the last ack $ack"
    done
    log "writer $w: all $SLOTS slots hold their newest acknowledged write (ack $ack, console $console) or the next"
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
ctrl_driver_log
check_dmesg ""
