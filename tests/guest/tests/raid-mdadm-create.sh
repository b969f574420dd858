# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# mdadm cross-check, direction 2: the guest's mdadm creates DDF containers
# with RAID 1, 5, 6 and 10 arrays (--metadata=ddf) on blank disks and
# writes reference data through md; afterwards, on the host, megaraid-img
# sees each set as foreign, imports it, finds it consistent (parity and
# mirrors as md wrote them) and reads back the reference data.
#
# Host parts: "#@ prepare" makes the blank images and the reference data,
# "#@ check" runs the megaraid-img side once the guest passed.
#@ kernels 6.1 6.12
#@ timeout 900
#@ mem 1024
#@ prepare bash tests/guest/tests/raid-mdadm-create.sh --host-prepare @WORK@
#@ check bash tests/guest/tests/raid-mdadm-create.sh --host-check @WORK@
#@ qemu -drive if=none,id=ref,format=raw,file=@WORK@/ref.img,snapshot=on -device virtio-blk-pci,drive=ref,serial=ref
#@ qemu -drive if=none,id=c1m0,format=raw,file=@WORK@/c1m0.img -device virtio-blk-pci,drive=c1m0,serial=c1m0
#@ qemu -drive if=none,id=c1m1,format=raw,file=@WORK@/c1m1.img -device virtio-blk-pci,drive=c1m1,serial=c1m1
#@ qemu -drive if=none,id=c5m0,format=raw,file=@WORK@/c5m0.img -device virtio-blk-pci,drive=c5m0,serial=c5m0
#@ qemu -drive if=none,id=c5m1,format=raw,file=@WORK@/c5m1.img -device virtio-blk-pci,drive=c5m1,serial=c5m1
#@ qemu -drive if=none,id=c5m2,format=raw,file=@WORK@/c5m2.img -device virtio-blk-pci,drive=c5m2,serial=c5m2
#@ qemu -drive if=none,id=c6m0,format=raw,file=@WORK@/c6m0.img -device virtio-blk-pci,drive=c6m0,serial=c6m0
#@ qemu -drive if=none,id=c6m1,format=raw,file=@WORK@/c6m1.img -device virtio-blk-pci,drive=c6m1,serial=c6m1
#@ qemu -drive if=none,id=c6m2,format=raw,file=@WORK@/c6m2.img -device virtio-blk-pci,drive=c6m2,serial=c6m2
#@ qemu -drive if=none,id=c6m3,format=raw,file=@WORK@/c6m3.img -device virtio-blk-pci,drive=c6m3,serial=c6m3
#@ qemu -drive if=none,id=c10m0,format=raw,file=@WORK@/c10m0.img -device virtio-blk-pci,drive=c10m0,serial=c10m0
#@ qemu -drive if=none,id=c10m1,format=raw,file=@WORK@/c10m1.img -device virtio-blk-pci,drive=c10m1,serial=c10m1
#@ qemu -drive if=none,id=c10m2,format=raw,file=@WORK@/c10m2.img -device virtio-blk-pci,drive=c10m2,serial=c10m2
#@ qemu -drive if=none,id=c10m3,format=raw,file=@WORK@/c10m3.img -device virtio-blk-pci,drive=c10m3,serial=c10m3

SETS="c1:1:2 c5:5:3 c6:6:4 c10:10:4"

# ---- host parts ----
# (bash, from run.sh's "#@ prepare" and "#@ check": every step must work,
# and each failure says which set and which step.)
if [ "${1:-}" = --host-prepare ] || [ "${1:-}" = --host-check ]; then
    set -eu
    # shellcheck disable=SC3040
    set -o pipefail
    work=$2
    . tests/guest/host-lib.sh
    host_part "raid-mdadm-create $1"
fi
if [ "${1:-}" = --host-prepare ]; then
    head -c 8M /dev/urandom > "$work/ref.img"
    [ "$(stat -c %s "$work/ref.img")" = 8388608 ] ||
        hfail "short reference data $work/ref.img"
    for set in $SETS; do
        name=${set%%:*}
        n=${set##*:}
        i=0
        while [ $i -lt "$n" ]; do
            rm -f "$work/${name}m$i.img"
            truncate -s 40M "$work/${name}m$i.img"
            i=$((i + 1))
        done
    done
    exit 0
fi
if [ "${1:-}" = --host-check ]; then
    [ "$(stat -c %s "$work/ref.img")" = 8388608 ] ||
        hfail "no 8 MiB reference data in $work/ref.img"
    for set in $SETS; do
        name=${set%%:*}
        level=${set#*:}
        level=raid${level%%:*}
        n=${set##*:}
        members=""
        i=0
        while [ $i -lt "$n" ]; do
            [ -f "$work/${name}m$i.img" ] ||
                hfail "$name: member image ${name}m$i.img is missing"
            members="$members $work/${name}m$i.img"
            i=$((i + 1))
        done
        echo "== $name: $level from mdadm"
        # shellcheck disable=SC2086
        "$img" show $members > "$work/$name.show" 2>&1 || {
            cat "$work/$name.show"
            hfail "$name: megaraid-img show failed"
        }
        cat "$work/$name.show"
        grep -q FOREIGN "$work/$name.show" ||
            hfail "$name: megaraid-img does not see mdadm's set as foreign"
        want="'m$name': RAID${level#raid}, optimal"
        grep -qF "$want" "$work/$name.show" ||
            hfail "$name: no VD $want in megaraid-img show"
        # shellcheck disable=SC2086
        "$img" import $members ||
            hfail "$name: megaraid-img import of mdadm's $level failed"
        rc=0
        # shellcheck disable=SC2086
        "$img" check $members || rc=$?
        [ $rc = 0 ] ||
            hfail "$name: megaraid-img check of mdadm's $level failed (status $rc; 3: inconsistent rows)"
        rm -f "$work/$name.back"
        # shellcheck disable=SC2086
        "$img" read -l 8M -O "$work/$name.back" $members ||
            hfail "$name: megaraid-img read of mdadm's $level failed"
        cmp "$work/ref.img" "$work/$name.back" ||
            hfail "$name: megaraid-img reads mdadm's $level back different from the reference data"
        echo "== $name: megaraid-img reads mdadm's $level back identical"
    done
    exit 0
fi

# ---- guest part ----
need_modules md_mod raid0 raid1 raid10 raid456
mkdir -p /run/mdadm /dev/md
command -v mdmon > /dev/null || fail "mdmon is not in the guest image"

ref=$(virtio_dev ref)
for set in $SETS; do
    name=${set%%:*}
    level=${set#*:}
    level=${level%%:*}
    n=${set##*:}
    devs=""
    i=0
    while [ $i -lt "$n" ]; do
        devs="$devs $(virtio_dev "${name}m$i")"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    assert_cmd "create DDF container $name" mdadm --create "/dev/md/$name" \
        --run --metadata=ddf --raid-devices="$n" $devs
    chunk=--chunk=64
    [ "$level" != 1 ] || chunk=""
    # Blank (zero) disks are consistent for every level: no resync.
    # shellcheck disable=SC2086
    assert_cmd "create RAID $level in $name" mdadm --create "/dev/md/m$name" \
        --run --level="$level" --raid-devices="$n" $chunk --size=8192 \
        --assume-clean "/dev/md/$name"
    cat /proc/mdstat
    md=$(readlink -f "/dev/md/m$name")
    [ -b "$md" ] || fail "no md device for m$name"
    # An array in a DDF container starts read-only; mdmon, which mdadm
    # forks, makes it writable once it manages the container.  Under TCG
    # that can take longer than mdadm's return (CI saw dd get EPERM).
    state=/sys/block/${md##*/}/md/array_state
    t=0
    while [ "$(cat "$state")" = readonly ] && [ $t -lt 300 ]; do
        sleep 0.2
        t=$((t + 1))
    done
    [ "$(cat "$state")" != readonly ] ||
        fail "$md still read-only 60 s after creation: mdmon never took over container $name ($(pgrep -a mdmon || echo no mdmon running))"
    assert_cmd "write reference data to $md" \
        dd if="$ref" of="$md" bs=1M count=8 conv=fsync
    echo 3 > /proc/sys/vm/drop_caches
    assert_eq "read back of $md" "$(head -c 8388608 "$ref" | sha256sum)" \
        "$(head -c 8388608 "$md" | sha256sum)"
    md_stop "stop $md" "$md"
    md_stop "stop container $name" "/dev/md/$name"
    log "mdadm wrote RAID $level set $name"
done
sync
