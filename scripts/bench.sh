#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Storage benchmark: boots the same guest (tests/guest) against each
# controller with one raw image disk and prints fio 4K random read and
# write IOPS (iodepth 32, libaio, direct) and 128K sequential read and
# write MiB/s side by side.  Prints numbers; never fails on speed (exits
# non-zero only when a run could not produce them).
#
#   scripts/bench.sh [--kernel 6.1|6.12|7.2] [--runtime S] [controller...]
#
# Controllers: the table below; by default every entry whose QEMU device
# this QEMU build has.  Adding a controller is one table entry.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

# name -> QEMU arguments attaching drive d0 (the 256M image).
declare -A ctrl=(
    [virtio-scsi]="-device virtio-scsi-pci,id=c0 -device scsi-hd,bus=c0.0,drive=d0"
    [nvme]="-device nvme,serial=BENCH0,drive=d0"
    [megasas-gen2]="-device megasas-gen2,id=c0 -device scsi-hd,bus=c0.0,drive=d0"
    [megaraid-9600]="-device megaraid-9600,id=c0 -device megaraid-drive,bus=c0.0,slot=0,drive=d0,interface=sas"
    # timing=on: the card's model holds each completion; time-scale 100
    # makes it 100 times slower so that a TCG guest can keep up (multiply
    # the row by 100 for the modelled card: a Micron 7450 MAX as JBOD)
    [megaraid-9600-timing]="-device megaraid-9600,id=c0,timing=on,time-scale=100 -device megaraid-drive,bus=c0.0,slot=0,drive=d0,interface=nvme"
)
order="virtio-scsi nvme megasas-gen2 megaraid-9600 megaraid-9600-timing megaraid-9600-r5 megaraid-9600-r5-timing"
# A RAID 5 VD over 4 NVMe drive images made by megaraid-img (write-back
# cache with a journal); fio runs on the VD.
r5dir="$top/build/guest/bench/r5"
r5="-device megaraid-9600,id=c0,journal=$r5dir/cache.jnl"
for i in 0 1 2 3; do
    r5+=" -drive if=none,id=r5d$i,file=$r5dir/d$i.img,format=raw"
    r5+=" -device megaraid-drive,bus=c0.0,slot=$i,drive=r5d$i"
done
ctrl[megaraid-9600-r5]=$r5
# the same RAID 5 with timing=on at time-scale 100 (x100: the modelled card)
ctrl[megaraid-9600-r5-timing]=${r5/id=c0,/id=c0,timing=on,time-scale=100,}
declare -A vd=([megaraid-9600-r5]=1 [megaraid-9600-r5-timing]=1)
r5_prepare() {
    local img
    img=$("$top/tests/guest/host-megaraid-img.sh")
    case "$img" in /*) ;; *) img=$top/$img ;; esac
    rm -rf "$r5dir"
    mkdir -p "$r5dir"
    (cd "$r5dir" && "$img" create -l raid5 --drive-size 256M --write-back \
        d0.img d1.img d2.img d3.img > /dev/null)
}

kernel=6.12
runtime=10
names=()
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel)  kernel=$2; shift 2 ;;
    --runtime) runtime=$2; shift 2 ;;
    -*) echo "usage: $0 [--kernel 6.1|6.12|7.2] [--runtime S] [controller...]" >&2
        exit 2 ;;
    *) [ -n "${ctrl[$1]:-}" ] ||
           { echo "bench.sh: unknown controller '$1' (known: $order)" >&2; exit 2; }
       names+=("$1"); shift ;;
    esac
done

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
export QEMU
if [ ${#names[@]} -eq 0 ]; then
    have=$("$QEMU" -device help 2>/dev/null | sed -n 's/^name "\([^"]*\)".*/\1/p')
    for n in $order; do
        dev=${ctrl[$n]#-device }
        dev=${dev%%,*}
        if echo "$have" | grep -qx "$dev"; then
            names+=("$n")
        fi
    done
fi

"$top/tests/guest/build-image.sh" "$kernel" >&2
logdir="$top/build/guest/bench"
mkdir -p "$logdir"
results=()
bad=0
for n in "${names[@]}"; do
    log="$logdir/$n-$kernel.log"
    case "$n" in megaraid-9600-r5*) r5_prepare ;; esac
    echo "bench: $n ($kernel), ${runtime}s per job" >&2
    # shellcheck disable=SC2086
    if ! MRSIM_IMAGE_READY=1 "$top/tests/guest/run.sh" --kernel "$kernel" \
            --script "$top/tests/guest/bench/fio-bench.sh" \
            --env BENCH_RUNTIME="$runtime" --env BENCH_VD="${vd[$n]:-}" \
            --log "$log" -- ${ctrl[$n]} >&2; then
        results+=("$n - - - -")
        bad=1
        continue
    fi
    val() {    # val JOB FIELD(1: KiB/s, 2: IOPS)
        tr -d '\r' < "$log" |
            sed -n "s/.*@@BENCH $1 \([0-9]*\) \([0-9]*\)@@.*/\\$2/p" | tail -n 1
    }
    rr=$(val randread 2)
    rw=$(val randwrite 2)
    sr=$(val seqread 1)
    sw=$(val seqwrite 1)
    results+=("$n $rr $rw $(awk "BEGIN { printf \"%.1f\", $sr / 1024 }") $(awk "BEGIN { printf \"%.1f\", $sw / 1024 }")")
done

echo
echo "guest kernel $kernel, TCG, fio libaio direct=1 iodepth=32, ${runtime}s per job"
echo "(*-timing: timing=on, time-scale 100: the modelled card's numbers / 100 where the guest keeps up)"
printf '%-16s %14s %14s %14s %14s\n' controller "4K rand read" "4K rand write" "128K seq read" "128K seq write"
printf '%-16s %14s %14s %14s %14s\n' "" IOPS IOPS MiB/s MiB/s
for r in "${results[@]}"; do
    # shellcheck disable=SC2086
    printf '%-16s %14s %14s %14s %14s\n' $r
done
exit $bad
