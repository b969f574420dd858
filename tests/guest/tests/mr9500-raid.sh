# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 (Fusion, megaraid_sas) RAID virtual disks: RAID 0, 1, 5, 6,
# 10, 50 and 60 drive groups that megaraid-img made on the host (64 KiB
# strips), imported at start, one controller each.  The unmodified
# megaraid_sas shows one disk per VD (LD target ids from LD_LIST_QUERY) on
# its LD channel, of the VD's size, and nothing else: members and the hot
# spare are hidden from the PD list.  The prefilled RAID 5 reads what the
# host wrote; fio random write + crc32c verify passes on every VD at once,
# the RAID 0, 1 and 10 ones partly through fast path (the driver's own
# member/LBA arithmetic on the RAID map), the parity ones never.
# Then a RAID 5 member fails through QOM (state=offline) while fio runs
# on it: the VD goes degraded, fio passes, the hot spare rebuilds (its
# progress seen through QMP query-megaraid) until the VD is optimal, and
# the VD reads back what it held before.  Then a RAID 0 member fails:
# the VD goes offline, megaraid_sas removes its disk, reads through the
# device held open fail, the other VDs carry on.  Last, a JBOD becomes a
# hot spare (its disk goes) and unconfigured-good again (it comes back
# with its data).
#@ kernels 6.1 6.12 7.2
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mr9500-raid.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

ALL="r0 r1 r5 r6 r10 r50 r60"

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # shellcheck disable=SC2034 # read by raid_host_ctrl
    RAID_CTRL_TYPE=megaraid-9500
    raid_host_begin "$2"
    raid_host_ctrl c0; raid_host_group r0 raid0 sas 2 0
    raid_host_ctrl c1; raid_host_group r1 raid1 sata 2 0
    raid_host_ctrl c2 rebuild-rate=1
    RAID_PREFILL=1 raid_host_group r5 raid5 sas 3 1
    raid_host_ctrl c3; raid_host_group r6 raid6 sas 4 0
    # a JBOD beside the RAID 6 (slot 4, PD id 4)
    truncate -s 32M "$2/j6.img"
    raid_host_drive j6 sas
    raid_host_ctrl c4; raid_host_group r10 raid10 sata 4 0
    raid_host_ctrl c5; raid_host_group r50 raid50 sas 6 0 2
    raid_host_ctrl c6; raid_host_group r60 raid60 sas 8 0 2
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh

# jbod_dev: the /dev/sdX of the JBOD j6 (c3, PD channel 0, target 4).
jbod_dev() {
    local pci b path
    pci=$(layout_attr ctrl c3 pci)
    for b in /sys/block/sd*; do
        [ -e "$b" ] || continue
        path=$(readlink -f "$b/device")
        case "$path" in */"$pci"/*:0:4:0) echo "/dev/${b##*/}" ;; esac
    done
}

# wait_jbod present|gone: waits up to 30 s for j6's disk.
wait_jbod() {
    local t=150
    while [ $t -gt 0 ]; do
        if [ -n "$(jbod_dev)" ]; then
            [ "$1" = present ] && return 0
        else
            [ "$1" = gone ] && return 0
        fi
        sleep 0.2
        t=$((t - 1))
    done
    lsscsi
    fail "the JBOD j6 is not $1"
}

# job_progress: the first job progress query-megaraid reports (only one
# VD runs a job here; empty: none).
job_progress() {
    qmp_ok '{"execute":"query-megaraid"}'
    echo "$QMP_REPLY" | grep -o '"progress": [0-9]*' | head -n 1 |
        sed 's/.*: //'
}

need_driver megaraid_sas
wait_vds 120
mr9500_driver_log
lsscsi
for n in $ALL; do
    c=$(vd_attr "$n" ctrl)
    # (c3 also has the JBOD j6)
    [ "$c" = c3 ] || check_hidden "$c"
    dev=$(vd_dev "$n")
    assert_eq "size of VD $n ($dev)" "$(vd_attr "$n" bytes)" \
        "$(blockdev --getsize64 "$dev")"
    path=$(readlink -f "/sys/block/${dev#/dev/}/device")
    hctl=${path##*/}
    assert_eq "VD $n is on megaraid_sas' LD channel" 2 \
        "$(echo "$hctl" | cut -d: -f2)"
    expect_vd "$n" state '^optimal$'
    # the LD's target properties: queue depth 128 (driver default 256)
    assert_eq "queue depth of VD $n ($dev)" 128 \
        "$(cat "/sys/block/${dev#/dev/}/device/queue_depth")"
    log "VD $n = $dev ($hctl): $(vd_attr "$n" level), $(vd_attr "$n" bytes) bytes"
done
assert_eq "disks behind c3 (r6 and the JBOD)" 2 "$(ctrl_disks c3 | wc -l)"
wait_jbod present
j6=$(jbod_dev)
log "JBOD j6 = $j6"
want=$(vd_attr r5 prefill_md5)
vd_sum r5
assert_eq "r5 holds what megaraid-img wrote on the host" "$want" "$SUM"

for n in $ALL; do
    fio_start "$n" 12M
done
# shellcheck disable=SC2086
fio_wait $ALL

# Fast path: megaraid_sas sent fio's single-strip I/O on the write-through
# RAID 0, 1 and 10 (c0, c1, c4) to their members itself, by its own
# arm/strip arithmetic on the RAID map, and the data verified; the parity
# VDs' controllers (c2, c3, c5, c6) offer none.
for c in c0 c1 c4; do
    qom_get "/machine/peripheral/$c" fast-path-ios
    [ "$QOM" -gt 0 ] || fail "no fast path I/O reached $c (RAID 0/1/10)"
    log "$c: $QOM fast path frames"
done
for c in c2 c3 c5 c6; do
    qom_get "/machine/peripheral/$c" fast-path-ios
    assert_eq "fast path frames to $c (RAID 5/6/50/60)" 0 "$QOM"
done

# RAID 5: a member fails under fio; the hot spare rebuilds.
expect_drive "$(vd_spare r5 0)" state '^hot-spare$'
fio_start r5 16M --rate=,768k
sleep 1
drive_set "$(vd_member r5 0)" state '"offline"'
fio_running r5 || fail "fio on r5 ended before its drive failed"
expect_vd r5 state '^degraded$'
expect_vd r5 job '^rebuild$'
p=$(job_progress)
[ -n "$p" ] || { echo "$QMP_REPLY"; fail "query-megaraid shows no job progress"; }
log "query-megaraid: rebuild of r5 at $p%"
fio_wait r5
vd_sum r5
before=$SUM
qom_set /machine/peripheral/c2 rebuild-rate 100
wait_optimal 600 r5
expect_drive "$(vd_spare r5 0)" state '^online$'
echo 3 > /proc/sys/vm/drop_caches
vd_sum r5
assert_eq "r5 reads the same after the rebuild" "$before" "$SUM"
check_hidden c2
mr9500_driver_log
check_dmesg ""

# RAID 0 loses a member: offline.  megaraid_sas removes its disk (LD
# OFFLINE, and the target id list leaves it out); reads through the
# device held open fail, never return data; the other VDs carry on.
r0=$(vd_dev r0)
exec 8<"$r0"
drive_set "$(vd_member r0 0)" state '"offline"'
expect_vd r0 state '^offline$'
t=150
while [ -e "/sys/block/${r0#/dev/}" ] && [ $t -gt 0 ]; do
    sleep 0.2
    t=$((t - 1))
done
[ ! -e "/sys/block/${r0#/dev/}" ] || { lsscsi; fail "the disk of offline r0 ($r0) is still there"; }
log "r0 offline: megaraid_sas removed $r0"
if dd if=/proc/self/fd/8 of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
    fail "a read of offline r0 succeeded"
fi
exec 8<&-
assert_eq "disks behind c0" 0 "$(ctrl_disks c0 | wc -l)"
vd_sum r1
log "r1 reads on: $SUM"
fio_verify "$(vd_dev r6)" 4M

# The JBOD becomes a global hot spare: hidden (PD REMOVED), its disk goes;
# unconfigured-good again: visible (PD INSERTED), its disk comes back
# with what it held.
dd if=/dev/urandom of="$j6" bs=1M count=1 oflag=direct 2>/dev/null ||
    fail "writing to the JBOD $j6 failed"
jsum=$(dd if="$j6" bs=1M count=1 iflag=direct 2>/dev/null | md5sum)
drive_set j6 state '"hot-spare"'
wait_jbod gone
log "j6 is a hot spare: its disk is gone"
drive_set j6 state '"unconfigured-good"'
wait_jbod present
j6=$(jbod_dev)
assert_eq "the JBOD j6 ($j6) holds what it held" "$jsum" \
    "$(dd if="$j6" bs=1M count=1 iflag=direct 2>/dev/null | md5sum)"
log "j6 is unconfigured-good again: $j6"
mr9500_driver_log