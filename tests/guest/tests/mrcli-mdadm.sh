# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# mdadm reads an array made through the controller's management path, on
# megaraid-9600 (mpi3mr) and megaraid-9500 (megaraid_sas).
# Phase 1: three blank 64 MiB SAS drives behind the controller (the
# unmodified driver shows them as JBODs); mrcli, over the driver's
# management node, creates a RAID 5 (64 KiB strips) on them, which the
# driver adds as a disk of the size mrcli reports; the guest writes random
# reference data through that disk (16 MiB at its start, 8 MiB at its
# end, conv=fsync), reads the whole VD back and carries its checksums
# over; the driver's log is clean; the guest shuts down (the driver's
# shutdown flushes the controller).
# Phase 2: the same drive images as virtio-blk disks, no megaraid device:
# mdadm --examine sees DDF on each, assembles the container and starts the
# RAID 5 from the metadata alone, at the VD's size and strip, with no
# member missing, and the array reads exactly what the VD held (whole
# device, and the two reference regions).  raid-mdadm-assemble does the
# same for arrays that megaraid-img made on the host.
# (Before, mr9500-mdadm on megaraid-9500 only; the megaraid-9600 run is
# new.)
# Control switch: MRSIM_CONTROL_MDADM_CORRUPT=1 overwrites 1 MiB of
# member d1 (from 1 MiB on, data and parity strips) in phase 2 before
# mdadm starts the array: the content checks must fail.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ phases 2
#@ prepare bash tests/guest/tests/mrcli-mdadm.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args@1 @WORK@/qemu-p1.args
#@ qemu-args@2 @WORK@/qemu-p2.args

NDRIVES=3
HEAD_MIB=16
TAIL_MIB=8

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    # (mdadm reads DDF only on drives larger than 32 MiB)
    mrcli_host_prepare "$2" sas "$NDRIVES" 64M
    for ((i = 0; i < NDRIVES; i++)); do
        echo "-device virtio-blk-pci,drive=b-d$i,serial=d$i" >> "$2/qemu-p2.args"
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mrcli.sh

# sum DEV [SKIP-MIB COUNT-MIB]: MD5 of DEV (or of COUNT MiB from SKIP MiB
# on), read with O_DIRECT; fails on a read error.
sum() {
    local rc
    SUM=$({ dd if="$1" bs=1M ${2:+skip="$2"} ${3:+count="$3"} iflag=direct \
              2>/tmp/sum.err
            echo $? > /tmp/sum.rc; } | md5sum | cut -d' ' -f1)
    rc=$(cat /tmp/sum.rc)
    [ "$rc" = 0 ] || { cat /tmp/sum.err; fail "reading $1 failed"; }
}

if [ "$MRSIM_PHASE" = 1 ]; then
    need_driver "$(ctrl_driver)"
    ctrl_mgmt_wait
    t=0
    while [ "$(mrcli /c0/eall/sall show J 2>/dev/null | grep -c '"EID:Slt"')" -lt $NDRIVES ]; do
        t=$((t + 1))
        [ $t -lt 300 ] || fail "mrcli does not list the $NDRIVES drives"
        sleep 0.2
    done
    mr_settle_all $NDRIVES
    mr_json /c0 show
    assert_eq "virtual drives at the start" 0 "$(mr_prop 'Virtual Drives')"
    assert_eq "drives in the bays" $NDRIVES "$(mr_prop 'Physical Drives')"

    mr_json /c0 add vd r5 drives=0:0-2 strip=64 name=mrcli-md
    vd=$(mr_cell '"DG/VD":"' DG/VD)
    vd=${vd#*/}
    assert_match "index of the new VD" '^[0-9]+$' "$vd"
    mr_vd_dev "$vd" 120
    dev=$MR_DEV
    mr_json "/c0/v$vd" show all
    blocks=$(mr_prop 'Number of Blocks')
    bytes=$(blockdev --getsize64 "$dev")
    assert_eq "size of $dev (VD $vd) against mrcli's block count" \
        $((blocks * 512)) "$bytes"
    mr_json /c0/eall/sall show
    for ((s = 0; s < NDRIVES; s++)); do
        assert_eq "state of member $s" Onln \
            "$(mr_cell "\"EID:Slt\":\"0:$s\"" State)"
    done

    # Reference data: at the start and at the end of the VD.
    mib=$((bytes / 1048576))
    tail_at=$((mib - TAIL_MIB))
    head -c $((HEAD_MIB * 1048576)) /dev/urandom > /tmp/ref-head
    head -c $((TAIL_MIB * 1048576)) /dev/urandom > /tmp/ref-tail
    assert_cmd "writing $HEAD_MIB MiB of reference data at the start of $dev" \
        dd if=/tmp/ref-head of="$dev" bs=1M conv=fsync
    assert_cmd "writing $TAIL_MIB MiB of reference data at MiB $tail_at of $dev" \
        dd if=/tmp/ref-tail of="$dev" bs=1M seek="$tail_at" conv=fsync
    want_head=$(md5sum < /tmp/ref-head | cut -d' ' -f1)
    want_tail=$(md5sum < /tmp/ref-tail | cut -d' ' -f1)
    echo 3 > /proc/sys/vm/drop_caches
    sum "$dev" 0 $HEAD_MIB
    assert_eq "VD $vd ($dev) reads back its first $HEAD_MIB MiB" "$want_head" "$SUM"
    sum "$dev" "$tail_at" $TAIL_MIB
    assert_eq "VD $vd ($dev) reads back $TAIL_MIB MiB at MiB $tail_at" "$want_tail" "$SUM"
    sum "$dev"
    log "VD $vd ($dev, $bytes bytes): reference written and read back; whole VD md5 $SUM"
    carry VD_BYTES "$bytes"
    carry VD_SUM "$SUM"
    carry HEAD_SUM "$want_head"
    carry TAIL_AT "$tail_at"
    carry TAIL_SUM "$want_tail"
    mr_vd_state "$vd"
    assert_eq "state of VD $vd before the shutdown" Optl "$MR_STATE"
    ctrl_driver_log
    check_dmesg ""
    exit 0
fi

# Phase 2: the drive images as virtio-blk disks; mdadm from DDF alone.
# shellcheck disable=SC2154 # VD_BYTES and the sums carried over from phase 1
if [ -z "${VD_SUM:-}" ] || [ -z "${VD_BYTES:-}" ]; then
    fail "no checksum or size carried over from phase 1"
fi
need_modules md_mod raid456
mkdir -p /run/mdadm /dev/md

devs=""
for ((i = 0; i < NDRIVES; i++)); do
    d=$(virtio_dev "d$i")
    out=$(mdadm --examine --metadata=ddf "$d" 2>&1) ||
        { echo "$out"; fail "mdadm --examine finds no DDF on d$i ($d)"; }
    [ $i != 0 ] || echo "$out"
    assert_match "mdadm --examine d$i: the VD's name" 'mrcli-md' "$out"
    devs="$devs $d"
done

if [ "${MRSIM_CONTROL_MDADM_CORRUPT:-}" = 1 ]; then
    log "CONTROL: overwriting 1 MiB of member d1 from 1 MiB on"
    assert_cmd "corrupting d1" dd if=/dev/urandom of="$(virtio_dev d1)" bs=1M \
        seek=1 count=1 conv=fsync
fi

# shellcheck disable=SC2086
assert_cmd "mdadm assembles the container" mdadm --assemble --run /dev/md/cmd $devs
assert_cmd "mdadm starts the RAID 5" mdadm --incremental --run /dev/md/cmd
cat /proc/mdstat
first=$(virtio_dev d0)
md=""
for m in /sys/block/md*; do
    case "$(cat "$m/md/level" 2>/dev/null)" in raid*) ;; *) continue ;; esac
    [ -e "$m/md/dev-${first#/dev/}" ] && md=/dev/${m##*/}
done
[ -n "$md" ] || { cat /proc/mdstat; fail "mdadm did not start the RAID 5"; }
mdadm --detail "$md"
sys=/sys/block/${md#/dev/}/md
assert_eq "md level" raid5 "$(cat "$sys/level")"
assert_eq "md members" $NDRIVES "$(cat "$sys/raid_disks")"
assert_eq "md chunk size" 65536 "$(cat "$sys/chunk_size")"
assert_eq "members md left out" 0 "$(cat "$sys/degraded")"
assert_eq "md size against the VD's" "$VD_BYTES" "$(blockdev --getsize64 "$md")"
sum "$md" 0 $HEAD_MIB
assert_eq "the first $HEAD_MIB MiB under md ($md)" "$HEAD_SUM" "$SUM"
# shellcheck disable=SC2153 # TAIL_AT carried over from phase 1
sum "$md" "$TAIL_AT" $TAIL_MIB
assert_eq "$TAIL_MIB MiB at MiB $TAIL_AT under md ($md)" "$TAIL_SUM" "$SUM"
sum "$md"
assert_eq "the whole array under md ($md) against the VD" "$VD_SUM" "$SUM"
log "mdadm: the RAID 5 made through $RAID_CTRL and mrcli ($md) reads back identical"
md_stop "stop $md" "$md"
md_stop "stop the container" /dev/md/cmd
check_dmesg ""
