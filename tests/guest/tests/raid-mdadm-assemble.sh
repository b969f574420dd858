# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# mdadm cross-check, direction 1: arrays that megaraid-img made (RAID 0, 1,
# 5, 6 and 10, 8 MiB each, filled with reference data) are assembled by the
# guest's mdadm from DDF alone and read back identical to the reference,
# complete and degraded (RAID 1/10 one mirror, RAID 5 one member and RAID 6
# two members left out, so md reads through P and Q), and as megaraid-img
# left them: a RAID 5 with a member failed in the metadata and a RAID 6
# whose replacement member is half rebuilt, which md must leave out; and
# two VDs (RAID 5 and RAID 0) sharing one drive group at different
# member offsets.
#
# The host part (run by run.sh's "#@ prepare", with --host-prepare) makes
# the images; the guest gets them as virtio disks with snapshot=on, so
# nothing the guest does changes them.
#@ kernels 6.1 6.12
#@ timeout 600
#@ mem 1024
#@ prepare bash tests/guest/tests/raid-mdadm-assemble.sh --host-prepare @WORK@
#@ qemu -drive if=none,id=ref,format=raw,file=@WORK@/ref.img,snapshot=on -device virtio-blk-pci,drive=ref,serial=ref
#@ qemu -drive if=none,id=r0m0,format=raw,file=@WORK@/r0m0.img,snapshot=on -device virtio-blk-pci,drive=r0m0,serial=r0m0
#@ qemu -drive if=none,id=r0m1,format=raw,file=@WORK@/r0m1.img,snapshot=on -device virtio-blk-pci,drive=r0m1,serial=r0m1
#@ qemu -drive if=none,id=r1m0,format=raw,file=@WORK@/r1m0.img,snapshot=on -device virtio-blk-pci,drive=r1m0,serial=r1m0
#@ qemu -drive if=none,id=r1m1,format=raw,file=@WORK@/r1m1.img,snapshot=on -device virtio-blk-pci,drive=r1m1,serial=r1m1
#@ qemu -drive if=none,id=r5m0,format=raw,file=@WORK@/r5m0.img,snapshot=on -device virtio-blk-pci,drive=r5m0,serial=r5m0
#@ qemu -drive if=none,id=r5m1,format=raw,file=@WORK@/r5m1.img,snapshot=on -device virtio-blk-pci,drive=r5m1,serial=r5m1
#@ qemu -drive if=none,id=r5m2,format=raw,file=@WORK@/r5m2.img,snapshot=on -device virtio-blk-pci,drive=r5m2,serial=r5m2
#@ qemu -drive if=none,id=r6m0,format=raw,file=@WORK@/r6m0.img,snapshot=on -device virtio-blk-pci,drive=r6m0,serial=r6m0
#@ qemu -drive if=none,id=r6m1,format=raw,file=@WORK@/r6m1.img,snapshot=on -device virtio-blk-pci,drive=r6m1,serial=r6m1
#@ qemu -drive if=none,id=r6m2,format=raw,file=@WORK@/r6m2.img,snapshot=on -device virtio-blk-pci,drive=r6m2,serial=r6m2
#@ qemu -drive if=none,id=r6m3,format=raw,file=@WORK@/r6m3.img,snapshot=on -device virtio-blk-pci,drive=r6m3,serial=r6m3
#@ qemu -drive if=none,id=r10m0,format=raw,file=@WORK@/r10m0.img,snapshot=on -device virtio-blk-pci,drive=r10m0,serial=r10m0
#@ qemu -drive if=none,id=r10m1,format=raw,file=@WORK@/r10m1.img,snapshot=on -device virtio-blk-pci,drive=r10m1,serial=r10m1
#@ qemu -drive if=none,id=r10m2,format=raw,file=@WORK@/r10m2.img,snapshot=on -device virtio-blk-pci,drive=r10m2,serial=r10m2
#@ qemu -drive if=none,id=r10m3,format=raw,file=@WORK@/r10m3.img,snapshot=on -device virtio-blk-pci,drive=r10m3,serial=r10m3
#@ qemu -drive if=none,id=r5fm0,format=raw,file=@WORK@/r5fm0.img,snapshot=on -device virtio-blk-pci,drive=r5fm0,serial=r5fm0
#@ qemu -drive if=none,id=r5fm1,format=raw,file=@WORK@/r5fm1.img,snapshot=on -device virtio-blk-pci,drive=r5fm1,serial=r5fm1
#@ qemu -drive if=none,id=r5fm2,format=raw,file=@WORK@/r5fm2.img,snapshot=on -device virtio-blk-pci,drive=r5fm2,serial=r5fm2
#@ qemu -drive if=none,id=r6rm0,format=raw,file=@WORK@/r6rm0.img,snapshot=on -device virtio-blk-pci,drive=r6rm0,serial=r6rm0
#@ qemu -drive if=none,id=r6rm1,format=raw,file=@WORK@/r6rm1.img,snapshot=on -device virtio-blk-pci,drive=r6rm1,serial=r6rm1
#@ qemu -drive if=none,id=r6rm2,format=raw,file=@WORK@/r6rm2.img,snapshot=on -device virtio-blk-pci,drive=r6rm2,serial=r6rm2
#@ qemu -drive if=none,id=r6rm3,format=raw,file=@WORK@/r6rm3.img,snapshot=on -device virtio-blk-pci,drive=r6rm3,serial=r6rm3
#@ qemu -drive if=none,id=mvm0,format=raw,file=@WORK@/mvm0.img,snapshot=on -device virtio-blk-pci,drive=mvm0,serial=mvm0
#@ qemu -drive if=none,id=mvm1,format=raw,file=@WORK@/mvm1.img,snapshot=on -device virtio-blk-pci,drive=mvm1,serial=mvm1
#@ qemu -drive if=none,id=mvm2,format=raw,file=@WORK@/mvm2.img,snapshot=on -device virtio-blk-pci,drive=mvm2,serial=mvm2

# ---- host part ----
# (bash; every step must work, and a failure names the set and the step.)
if [ "${1:-}" = --host-prepare ]; then
    set -eu
    # shellcheck disable=SC3040
    set -o pipefail
    work=$2
    . tests/guest/host-lib.sh
    host_part "raid-mdadm-assemble --host-prepare"
    # mimg WHAT ARGS...: megaraid-img ARGS, which must succeed.
    mimg() {
        _what=$1
        shift
        "$img" "$@" || hfail "$_what: megaraid-img $1 failed (status $?)"
    }
    head -c 8M /dev/urandom > "$work/ref.img"
    [ "$(stat -c %s "$work/ref.img")" = 8388608 ] ||
        hfail "short reference data $work/ref.img"
    for set in r0:raid0:2 r1:raid1:2 r5:raid5:3 r6:raid6:4 r10:raid10:4; do
        name=${set%%:*}
        rest=${set#*:}
        level=${rest%%:*}
        n=${rest#*:}
        members=""
        i=0
        while [ $i -lt "$n" ]; do
            members="$members $work/${name}m$i.img"
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        mimg "$name" create -l "$level" -s 64 --size 8M --name "$name" \
            --drive-size 40M $members
        # shellcheck disable=SC2086
        mimg "$name" write -i "$work/ref.img" $members
        rm -f "$work/$name.back"
        # shellcheck disable=SC2086
        mimg "$name" read -O "$work/$name.back" $members
        cmp "$work/ref.img" "$work/$name.back" ||
            hfail "$name: $level made by megaraid-img reads back different from the reference data"
        rm -f "$work/$name.back"
    done
    # RAID 5 with member 1 failed in the metadata.
    r5f="$work/r5fm0.img $work/r5fm1.img $work/r5fm2.img"
    # shellcheck disable=SC2086
    mimg r5f create -l raid5 -s 64 --size 8M --name r5f --drive-size 40M $r5f
    # shellcheck disable=SC2086
    mimg r5f write -i "$work/ref.img" $r5f
    # shellcheck disable=SC2086
    mimg r5f fail -d "$work/r5fm1.img" $r5f
    # RAID 6 whose member 2 was replaced and is rebuilt up to row 10.
    r6r="$work/r6rm0.img $work/r6rm1.img $work/r6rx.img $work/r6rm3.img"
    # shellcheck disable=SC2086
    mimg r6r create -l raid6 -s 64 --size 8M --name r6r --drive-size 40M $r6r
    # shellcheck disable=SC2086
    mimg r6r write -i "$work/ref.img" $r6r
    # shellcheck disable=SC2086
    mimg r6r fail -d "$work/r6rx.img" $r6r
    rm -f "$work/r6rm2.img"
    truncate -s 40M "$work/r6rm2.img"
    # shellcheck disable=SC2086
    mimg r6r replace -d "$work/r6rx.img" -w "$work/r6rm2.img" $r6r \
        "$work/r6rm2.img"
    # shellcheck disable=SC2086
    mimg r6r rebuild --max-rows 10 $r6r "$work/r6rm2.img"
    mimg r6r show "$work/r6rm0.img" "$work/r6rm1.img" "$work/r6rm2.img" \
        "$work/r6rm3.img" > "$work/r6r.show"
    cat "$work/r6r.show"
    grep -qF "rebuild: 15% (row 10 of 64)" "$work/r6r.show" ||
        hfail "r6r: the rebuild did not stop at 'rebuild: 15% (row 10 of 64)'"
    rm -f "$work/r6rx.img"
    # Two VDs on one drive group: RAID 5 at member LBA 0, RAID 0 above it.
    mv="$work/mvm0.img $work/mvm1.img $work/mvm2.img"
    # shellcheck disable=SC2086
    mimg mv create -l raid5 -s 64 --size 8M --name mva --drive-size 40M $mv
    # shellcheck disable=SC2086
    mimg mv add-vd -l raid0 -s 64 --size 6M --name mvb $mv
    # shellcheck disable=SC2086
    mimg mv write -v 0 -i "$work/ref.img" $mv
    # shellcheck disable=SC2086
    mimg mv write -v 1 -l 6M -i "$work/ref.img" $mv
    exit 0
fi

# ---- guest part ----
need_modules md_mod raid0 raid1 raid10 raid456

mkdir -p /run/mdadm /dev/md
ref=$(virtio_dev ref)
refsum=$(sha256sum < "$ref" | cut -d' ' -f1)
log "reference data: $refsum"

# md_of NAME: the md device running the VD named NAME.
md_of() {
    for _m in /sys/block/md*; do
        [ -e "$_m/md/array_state" ] || continue
        _l=$(cat "$_m/md/level" 2>/dev/null)
        case "$_l" in raid*) ;; *) continue ;; esac
        for _d in "$_m"/md/dev-*; do
            [ -e "$_d/block" ] || continue
            _s=$(cat "$_d/block/serial" 2>/dev/null)
            case "$_s" in "$1"m*) echo "/dev/${_m##*/}"; return 0 ;; esac
        done
    done
    return 1
}

# check NAME MD-LEVEL MEMBERS OMIT...: assemble the DDF container of set
# NAME from its members minus OMIT, start its VD, compare its content.
check() {
    _name=$1 _level=$2 _n=$3
    _level_n=${_level#raid}
    shift 3
    _devs=""
    _i=0
    while [ $_i -lt "$_n" ]; do
        _skip=0
        for _o in "$@"; do
            [ "$_o" != $_i ] || _skip=1
        done
        if [ $_skip = 0 ]; then
            _d=$(virtio_dev "${_name}m$_i")
            assert_cmd "mdadm --examine ${_name}m$_i" \
                mdadm --examine --metadata=ddf "$_d"
            _devs="$_devs $_d"
        fi
        _i=$((_i + 1))
    done
    # shellcheck disable=SC2086
    assert_cmd "assemble container $_name (without $*)" \
        mdadm --assemble --run "/dev/md/${_name}c" $_devs
    assert_cmd "start VD $_name" mdadm --incremental --run "/dev/md/${_name}c"
    _md=$(md_of "$_name") || { cat /proc/mdstat; fail "VD $_name did not start"; }
    cat /proc/mdstat
    assert_eq "md level of $_name" "$_level" "$(cat "/sys/block/${_md#/dev/}/md/level")"
    assert_eq "size of $_name" 8388608 "$(blockdev --getsize64 "$_md")"
    if [ -n "${DEGRADED:-}" ]; then
        # md may already be recovering onto the member it left out (into
        # the snapshot overlay): its start message says what it used.
        _want="${_md#/dev/}: raid level $_level_n active with $((_n - DEGRADED)) out of $_n devices"
        dmesg | grep -q "$_want" ||
            { dmesg | grep "md/raid"; fail "no '$_want' in the kernel log"; }
    else
        _deg=0
        [ ! -e "/sys/block/${_md#/dev/}/md/degraded" ] ||
            _deg=$(cat "/sys/block/${_md#/dev/}/md/degraded")
        assert_eq "members md left out of $_name" "$#" "$_deg"
    fi
    _sum=$(sha256sum < "$_md" | cut -d' ' -f1)
    assert_eq "content of $_name ($_md, without members '$*')" "$refsum" "$_sum"
    log "$_name ($_level) read back identical without members '$*'"
    md_stop "stop $_md" "$_md"
    md_stop "stop container $_name" "/dev/md/${_name}c"
}

check r0 raid0 2
check r1 raid1 2
check r1 raid1 2 0
check r5 raid5 3
check r5 raid5 3 1
check r6 raid6 4
check r6 raid6 4 0 2
check r6 raid6 4 1 3
check r10 raid10 4
check r10 raid10 4 0 3
# As megaraid-img left them: md must leave out the failed and the
# rebuilding member by their DDF state.
DEGRADED=1 check r5f raid5 3
DEGRADED=1 check r6r raid6 4

# Two VDs in one container: both start, each reads back its data.
assert_cmd "assemble container mv" mdadm --assemble --run /dev/md/mvc \
    "$(virtio_dev mvm0)" "$(virtio_dev mvm1)" "$(virtio_dev mvm2)"
assert_cmd "start the VDs of mv" mdadm --incremental --run /dev/md/mvc
cat /proc/mdstat
found=""
for m in /sys/block/md*; do
    [ -e "$m/md/dev-$(basename "$(virtio_dev mvm0)")" ] || continue
    lvl=$(cat "$m/md/level")
    case "$lvl" in
    raid5) bytes=8388608 ;;
    raid0) bytes=6291456 ;;
    *) continue ;;
    esac
    dev=/dev/${m##*/}
    assert_eq "size of the $lvl VD in mv" "$bytes" "$(blockdev --getsize64 "$dev")"
    assert_eq "content of the $lvl VD in mv" \
        "$(head -c "$bytes" "$ref" | sha256sum)" "$(sha256sum < "$dev")"
    found="$found $lvl"
done
assert_eq "VDs started in mv" " raid0 raid5" \
    " $(echo $found | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"
log "two VDs sharing a drive group read back identical"
