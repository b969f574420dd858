# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 RAID virtual disks of every level: RAID 0, 1, 5, 6, 10, 50
# and 60, each a drive group that megaraid-img made (NVMe, SAS and SATA
# drives of 40 MiB, 64 KiB strips), imported at start and shown to mpi3mr
# as BROADCOM virtual disks of the VD's size whose block limits give the
# full stripe as optimal transfer length, with members hidden; QOM reports
# them optimal with their level.  Each passes fio random write + crc32c
# verify (all at once) and an ext4 round trip.
# Phase 2 boots again with the same drive images on virtio-scsi: mdadm
# assembles RAID 0/1/5/6/10 from their DDF, and each reads back exactly
# what the guest left on the VD (checksum carried over), its ext4 clean.
# (md refuses DDF RAID 50/60: the RAID core's property tests cover them.)
#
# One controller per drive group: megaraid-img creates one drive group
# per configuration, and a controller imports one configuration.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ phases 2
#@ prepare bash tests/guest/tests/raid-levels.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args@1 @WORK@/qemu-p1.args
#@ qemu-args@2 @WORK@/qemu-p2.args

ALL="r0 r1 r5 r6 r10 r50 r60"
MD="r0 r1 r5 r6 r10"

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # mdadm reads DDF only on drives larger than 32 MiB.
    RAID_DRIVE_SIZE=40M
    raid_host_begin "$2"
    raid_host_ctrl c0; raid_host_group r0 raid0 nvme 2 0
    raid_host_ctrl c1; raid_host_group r1 raid1 sas 2 0
    raid_host_ctrl c2; raid_host_group r5 raid5 nvme 3 0
    raid_host_ctrl c3; raid_host_group r6 raid6 sata 4 0
    raid_host_ctrl c4; raid_host_group r10 raid10 nvme 4 0
    raid_host_ctrl c5; raid_host_group r50 raid50 sas 6 0 2
    raid_host_ctrl c6; raid_host_group r60 raid60 nvme 8 0 2
    for n in $MD; do
        ids=$(raid_host_members "$n")
        # shellcheck disable=SC2086
        raid_host_virtio $ids
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

if [ "$MRSIM_PHASE" = 1 ]; then
    need_driver mpi3mr
    wait_vds 120
    for c in c0 c1 c2 c3 c4 c5 c6; do
        check_hidden "$c"
    done
    for n in $ALL; do
        check_vd "$n"
        expect_vd "$n" state '^optimal$'
        # (the device spells levels RAID0..RAID60; either case will do)
        vd_qom "$n" level
        assert_eq "VD $n level" "$(vd_attr "$n" level)" "$(echo "$QOM" | tr '[:upper:]' '[:lower:]')"
        expect_vd "$n" write-policy '^write-through$'
        expect_vd "$n" job '^none$'
        expect_drive "$(vd_member "$n" 0)" state '^online$'
    done
    mr9600_driver_log
    for n in $ALL; do
        fio_start "$n" 16M
    done
    # shellcheck disable=SC2086
    fio_wait $ALL
    for n in $ALL; do
        fs_roundtrip "$(vd_dev "$n")"
    done
    for n in $MD; do
        vd_sum "$n"
        log "VD $n: md5 $SUM"
        carry "SUM_$n" "$SUM"
    done
    check_dmesg ""
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
    log "mdadm: $n ($md) holds what the guest wrote through megaraid-9600"
    md_stop "stop $md" "$md"
    md_stop "stop container $n" "/dev/md/${n}c"
done
