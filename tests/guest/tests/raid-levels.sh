# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# RAID virtual disks of every level on megaraid-9600 (mpi3mr) and
# megaraid-9500 (megaraid_sas): RAID 0, 1, 5, 6, 10, 50 and 60, each a
# drive group that megaraid-img made (NVMe, SAS and SATA drives of 40 MiB,
# 64 KiB strips), imported at start, one controller each, and shown to
# the driver as BROADCOM virtual disks of the VD's size (the card's
# product) whose block limits give the full stripe as optimal transfer
# length, with members and hot spares hidden; QOM reports them optimal
# with their level.  The prefilled RAID 50 reads what the host wrote; fio
# random write + crc32c verify passes on every VD at once, and an ext4
# round trip on each.
# Then a RAID 50 member fails through QOM (state=offline) while fio runs
# on it: the VD goes degraded, fio passes, the hot spare rebuilds (its
# progress seen through QMP query-megaraid) until the VD is optimal, and
# the VD reads back what it held before.  Then a RAID 0 member fails: the
# VD goes offline, the driver removes its disk, reads through the device
# held open fail, the other VDs carry on.
# megaraid-9500 only: its VDs are on megaraid_sas' LD channel with queue
# depth 128; fio's I/O on the RAID 0, 1 and 10 went partly through fast
# path (the driver's own member/LBA arithmetic on the RAID map), on the
# parity ones never; a JBOD becomes a hot spare (its disk goes) and
# unconfigured-good again (it comes back with its data).  (The 9600's
# JBOD visibility is mr9600-visibility's.)
# Phase 2 boots again with the same drive images on virtio-scsi: mdadm
# assembles RAID 0/1/5/6/10 from their DDF, and each reads back exactly
# what the guest left on the VD (checksum carried over), its ext4 clean.
# (md refuses DDF RAID 50/60: the RAID core's property tests cover them.)
#
# One controller per drive group: megaraid-img creates one drive group
# per configuration, and a controller imports one configuration.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 6.12
#@ kernels@9500 6.1 7.2
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ phases 2
# 7.2's md says so (level err) each time it is asked to write the
# superblock of the read-only arrays phase 2 assembles: expected.
#@ allow md_update_sb: can't update sb for read-only array md[0-9]+$
#@ prepare bash tests/guest/tests/raid-levels.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args@1 @WORK@/qemu-p1.args
#@ qemu-args@2 @WORK@/qemu-p2.args

ALL="r0 r1 r5 r6 r10 r50 r60 x0"
MD="r0 r1 r5 r6 r10"

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # mdadm reads DDF only on drives larger than 32 MiB.
    RAID_DRIVE_SIZE=40M
    raid_host_begin "$2"
    raid_host_ctrl c0; raid_host_group r0 raid0 nvme 2 0
    raid_host_ctrl c1; raid_host_group r1 raid1 sata 2 0
    raid_host_ctrl c2; raid_host_group r5 raid5 nvme 3 0
    raid_host_ctrl c3; raid_host_group r6 raid6 sata 4 0
    if [ "${MRSIM_CTRL:-}" = megaraid-9500 ]; then
        # a JBOD beside the RAID 6 (slot 4, PD id 4)
        truncate -s 32M "$2/j6.img"
        raid_host_drive j6 sas
    fi
    raid_host_ctrl c4; raid_host_group r10 raid10 nvme 4 0
    raid_host_ctrl c5 rebuild-rate=1
    RAID_PREFILL=1 raid_host_group r50 raid50 sas 6 1 2
    raid_host_ctrl c6; raid_host_group r60 raid60 nvme 8 0 2
    # the RAID 0 that goes offline
    raid_host_ctrl c7
    RAID_DRIVE_SIZE=16M raid_host_group x0 raid0 sas 2 0
    for n in $MD; do
        ids=$(raid_host_members "$n")
        # shellcheck disable=SC2086
        raid_host_virtio $ids
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh

# jbod_dev: the /dev/sdX of the JBOD j6 (megaraid-9500: c3, PD channel 0,
# target 4).
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

if [ "$MRSIM_PHASE" = 1 ]; then
    need_driver "$(ctrl_driver)"
    wait_vds 120
    ctrl_driver_log
    lsscsi
    for c in c0 c1 c2 c4 c5 c6 c7; do
        check_hidden "$c"
    done
    if ctrl_is 9500; then
        assert_eq "disks behind c3 (r6 and the JBOD)" 2 "$(ctrl_disks c3 | wc -l)"
        wait_jbod present
        j6=$(jbod_dev)
        log "JBOD j6 = $j6"
    else
        check_hidden c3
    fi
    for n in $ALL; do
        check_vd "$n"
        expect_vd "$n" state '^optimal$'
        # (the device spells levels RAID0..RAID60; either case will do)
        vd_qom "$n" level
        assert_eq "VD $n level" "$(vd_attr "$n" level)" "$(echo "$QOM" | tr '[:upper:]' '[:lower:]')"
        expect_vd "$n" write-policy '^write-through$'
        expect_vd "$n" job '^none$'
        expect_drive "$(vd_member "$n" 0)" state '^online$'
        if ctrl_is 9500; then
            dev=$(vd_dev "$n")
            path=$(readlink -f "/sys/block/${dev#/dev/}/device")
            hctl=${path##*/}
            assert_eq "VD $n is on megaraid_sas' LD channel" 2 \
                "$(echo "$hctl" | cut -d: -f2)"
            # the LD's target properties: queue depth 128 (driver default 256)
            assert_eq "queue depth of VD $n ($dev)" 128 \
                "$(cat "/sys/block/${dev#/dev/}/device/queue_depth")"
        fi
    done
    expect_drive "$(vd_spare r50 0)" state '^hot-spare$'
    want=$(vd_attr r50 prefill_md5)
    vd_sum r50
    assert_eq "r50 holds what megaraid-img wrote on the host" "$want" "$SUM"

    for n in $ALL; do
        fio_start "$n" 12M
    done
    # shellcheck disable=SC2086
    fio_wait $ALL
    if ctrl_is 9500; then
        # Fast path: megaraid_sas sent fio's single-strip I/O on the
        # write-through RAID 0, 1 and 10 (c0, c1, c4) to their members
        # itself, by its own arm/strip arithmetic on the RAID map, and the
        # data verified; the parity VDs' controllers offer none.
        for c in c0 c1 c4; do
            qom_get "/machine/peripheral/$c" fast-path-ios
            [ "$QOM" -gt 0 ] || fail "no fast path I/O reached $c (RAID 0/1/10)"
            log "$c: $QOM fast path frames"
        done
        for c in c2 c3 c5 c6; do
            qom_get "/machine/peripheral/$c" fast-path-ios
            assert_eq "fast path frames to $c (RAID 5/6/50/60)" 0 "$QOM"
        done
    fi
    for n in $ALL; do
        fs_roundtrip "$(vd_dev "$n")"
    done
    for n in $MD; do
        vd_sum "$n"
        log "VD $n: md5 $SUM"
        carry "SUM_$n" "$SUM"
    done

    # RAID 50: a member fails under fio; the hot spare rebuilds.
    fio_start r50 16M --rate=,768k
    sleep 1
    drive_set "$(vd_member r50 0)" state '"offline"'
    fio_running r50 || fail "fio on r50 ended before its drive failed"
    expect_vd r50 state '^degraded$'
    expect_vd r50 job '^rebuild$'
    p=$(job_progress)
    [ -n "$p" ] || { echo "$QMP_REPLY"; fail "query-megaraid shows no job progress"; }
    log "query-megaraid: rebuild of r50 at $p%"
    fio_wait r50
    vd_sum r50
    before=$SUM
    qom_set /machine/peripheral/c5 rebuild-rate 100
    wait_optimal 600 r50
    expect_drive "$(vd_spare r50 0)" state '^online$'
    echo 3 > /proc/sys/vm/drop_caches
    vd_sum r50
    assert_eq "r50 reads the same after the rebuild" "$before" "$SUM"
    check_hidden c5
    ctrl_driver_log
    check_dmesg ""

    # RAID 0 loses a member: offline.  The driver removes its disk; reads
    # through the device held open fail, never return data; the other VDs
    # carry on.
    x0=$(vd_dev x0)
    exec 8<"$x0"
    drive_set "$(vd_member x0 0)" state '"offline"'
    expect_vd x0 state '^offline$'
    t=150
    while [ -e "/sys/block/${x0#/dev/}" ] && [ $t -gt 0 ]; do
        sleep 0.2
        t=$((t - 1))
    done
    [ ! -e "/sys/block/${x0#/dev/}" ] || { lsscsi; fail "the disk of offline x0 ($x0) is still there"; }
    log "x0 offline: $(ctrl_driver) removed $x0"
    if dd if=/proc/self/fd/8 of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
        fail "a read of offline x0 succeeded"
    fi
    exec 8<&-
    assert_eq "disks behind c7" 0 "$(ctrl_disks c7 | wc -l)"
    vd_sum r1
    log "r1 reads on: $SUM"
    fio_verify "$(vd_dev r60)" 4M

    if ctrl_is 9500; then
        # The JBOD becomes a global hot spare: hidden (PD REMOVED), its
        # disk goes; unconfigured-good again: visible (PD INSERTED), its
        # disk comes back with what it held.
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
    fi
    ctrl_driver_log
    exit 0
fi

# Phase 2: mdadm on the drive images.
need_modules md_mod raid0 raid1 raid10 raid456
mkdir -p /run/mdadm /dev/md

# serial_dev SERIAL: the virtio-scsi disk with that serial.
serial_dev() {
    local b
    for b in /sys/block/sd*; do
        if [ "$(sysfs_serial "$b")" = "$1" ]; then
            echo "/dev/${b##*/}"
            return 0
        fi
    done
    return 1
}

for n in $MD; do
    devs=""
    for m in $(vd_attr "$n" members | tr ',' ' '); do
        d=$(serial_dev "$m") || { lsscsi; fail "no disk with serial $m"; }
        devs="$devs $d"
    done
    # shellcheck disable=SC2086
    assert_cmd "mdadm assembles the container of $n" \
        mdadm --assemble --run "/dev/md/${n}c" $devs
    assert_cmd "mdadm starts VD $n" mdadm --incremental --run "/dev/md/${n}c"
    md=""
    first=$(serial_dev "$(vd_member "$n" 0)")
    for m in /sys/block/md*; do
        case "$(cat "$m/md/level" 2>/dev/null)" in raid*) ;; *) continue ;; esac
        [ -e "$m/md/dev-${first#/dev/}" ] && md=/dev/${m##*/}
    done
    [ -n "$md" ] || { cat /proc/mdstat; fail "VD $n did not start under md"; }
    cat /proc/mdstat
    assert_eq "md level of $n" "$(vd_attr "$n" level)" "$(cat "/sys/block/${md#/dev/}/md/level")"
    assert_eq "md size of $n" "$(vd_attr "$n" bytes)" "$(blockdev --getsize64 "$md")"
    want=$(eval echo "\${SUM_$n:-}")
    [ -n "$want" ] || fail "no checksum of $n carried over from phase 1"
    got=$(dd if="$md" bs=1M iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1)
    assert_eq "content of $n under md ($md)" "$want" "$got"
    assert_cmd "ext4 on $n under md is clean" e2fsck -fn "$md"
    log "mdadm: $n ($md) holds what the guest wrote through $RAID_CTRL"
    md_stop "stop $md" "$md"
    md_stop "stop container $n" "/dev/md/${n}c"
done
