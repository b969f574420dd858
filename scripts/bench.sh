#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Storage benchmark: boots the same guest (tests/guest) against each
# controller with one raw image disk and prints fio 4K random read and
# write IOPS (iodepth 32, libaio, direct) and 128K sequential read and
# write MiB/s side by side.  The controllers run in interleaved rounds
# (A B C, A B C, ...: a shared, noisy host drifts over minutes, and
# interleaving spreads that drift over every row alike); each cell is the
# median of its rounds, and the ratios issue 13 sets targets for follow
# the table.  Prints numbers; never fails on speed (exits non-zero only
# when a run could not produce them).
#
#   scripts/bench.sh [--kernel 6.1|6.12|7.2] [--runtime S] [--rounds N]
#                    [controller...]
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
order="virtio-scsi nvme megasas-gen2 megaraid-9600 megaraid-9600-timing megaraid-9600-r5 megaraid-9600-r5-sync megaraid-9600-r5-timing md-raid5"
# A RAID 5 VD over 4 NVMe drive images made by megaraid-img (write-back
# cache with a journal on a raw drive, 2 x the 256 MiB cache); fio runs
# on the VD.
r5dir="$top/build/guest/bench/r5"
r5="-blockdev driver=raw,node-name=jnl0,file.driver=file,file.filename=$r5dir/cache.jnl"
r5+=" -device megaraid-9600,id=c0,journal=jnl0"
for i in 0 1 2 3; do
    r5+=" -drive if=none,id=r5d$i,file=$r5dir/d$i.img,format=raw"
    r5+=" -device megaraid-drive,bus=c0.0,slot=$i,drive=r5d$i"
done
ctrl[megaraid-9600-r5]=$r5
# the same RAID 5 with timing=on at time-scale 100 (x100: the modelled card)
ctrl[megaraid-9600-r5-timing]=${r5/id=c0,/id=c0,timing=on,time-scale=100,}
# the same RAID 5 with journal-sync=on: every acknowledged write waits for
# a flush of the journal drive (host crash safe), the cost of that promise
ctrl[megaraid-9600-r5-sync]=${r5/id=c0,/id=c0,journal-sync=on,}
# Linux md RAID 5 built in the guest (mdadm --assume-clean, chunk 256K as
# megaraid-img's default strip) over four image files of the RAID 5 row's
# size on virtio-blk: what the RAID 5 VD is compared with.
mddir="$top/build/guest/bench/md"
md=""
for i in 0 1 2 3; do
    md+=" -drive if=none,id=md$i,file=$mddir/d$i.img,format=raw"
    md+=" -device virtio-blk-pci,drive=md$i"
done
ctrl[md-raid5]=${md# }
# per-row guest environment (fio-bench.sh): BENCH_VD=1 the disk is a VD
# (not d0's size), BENCH_MD=1 build md0 over vda-vdd first
declare -A genv=([megaraid-9600-r5]="BENCH_VD=1" [megaraid-9600-r5-timing]="BENCH_VD=1"
                 [megaraid-9600-r5-sync]="BENCH_VD=1"
                 [md-raid5]="BENCH_MD=1")
r5_prepare() {
    local img
    img=$("$top/tests/guest/host-megaraid-img.sh")
    case "$img" in /*) ;; *) img=$top/$img ;; esac
    rm -rf "$r5dir"
    mkdir -p "$r5dir"
    (cd "$r5dir" && "$img" create -l raid5 --drive-size 256M --write-back \
        d0.img d1.img d2.img d3.img > /dev/null)
    truncate -s 512M "$r5dir/cache.jnl"
}
md_prepare() {
    rm -rf "$mddir"
    mkdir -p "$mddir"
    for i in 0 1 2 3; do
        truncate -s 256M "$mddir/d$i.img"
    done
}

# The ratios printed under the table: "numerator denominator" rows (the
# issue's targets: JBOD >= virtio-scsi, >= 1.2x megasas-gen2; RAID 5 VD
# >= 1.5x md RAID 5; RAID 5 VD writes against one JBOD drive).
ratios="megaraid-9600:virtio-scsi megaraid-9600:megasas-gen2
    megaraid-9600-r5:md-raid5 megaraid-9600-r5:megaraid-9600"

kernel=6.12
runtime=10
rounds=3
names=()
usage() {
    echo "usage: $0 [--kernel 6.1|6.12|7.2] [--runtime S] [--rounds N] [controller...]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel)  kernel=$2; shift 2 ;;
    --runtime) runtime=$2; shift 2 ;;
    --rounds)  rounds=$2; shift 2 ;;
    -*) usage ;;
    *) [ -n "${ctrl[$1]:-}" ] ||
           { echo "bench.sh: unknown controller '$1' (known: $order)" >&2; exit 2; }
       names+=("$1"); shift ;;
    esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || usage

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
export QEMU
if [ ${#names[@]} -eq 0 ]; then
    have=$("$QEMU" -device help 2>/dev/null | sed -n 's/^name "\([^"]*\)".*/\1/p')
    for n in $order; do
        dev=${ctrl[$n]#-device }
        dev=${dev#-drive * -device }
        dev=${dev%%,*}
        if echo "$have" | grep -qx "$dev"; then
            names+=("$n")
        fi
    done
fi

"$top/tests/guest/build-image.sh" "$kernel" >&2
logdir="$top/build/guest/bench"
mkdir -p "$logdir"
jobs="randread randwrite seqread seqwrite"
declare -A cell=()    # "name job" -> values of every round, space separated
bad=0
for ((r = 1; r <= rounds; r++)); do
    for n in "${names[@]}"; do
        log="$logdir/$n-$kernel.log"
        case "$n" in
        megaraid-9600-r5*) r5_prepare ;;
        md-raid5) md_prepare ;;
        esac
        echo "bench: round $r/$rounds: $n ($kernel), ${runtime}s per job" >&2
        envs=(--env BENCH_RUNTIME="$runtime")
        for e in ${genv[$n]:-}; do
            envs+=(--env "$e")
        done
        # shellcheck disable=SC2086
        if ! MRSIM_IMAGE_READY=1 "$top/tests/guest/run.sh" --kernel "$kernel" \
                --script "$top/tests/guest/bench/fio-bench.sh" \
                --timeout $((240 + 8 * runtime)) "${envs[@]}" \
                --log "$log" -- ${ctrl[$n]} >&2; then
            echo "bench: $n failed in round $r (log: $log)" >&2
            bad=1
            continue
        fi
        for j in $jobs; do
            # randread/randwrite: IOPS (field 2); seq*: KiB/s (field 1) as MiB/s
            case $j in rand*) f=2 ;; *) f=1 ;; esac
            v=$(tr -d '\r' < "$log" |
                sed -n "s/.*@@BENCH $j \([0-9]*\) \([0-9]*\)@@.*/\\$f/p" | tail -n 1)
            [ -n "$v" ] || { bad=1; continue; }
            [ $f = 2 ] || v=$(awk "BEGIN { printf \"%.1f\", $v / 1024 }")
            cell["$n $j"]="${cell["$n $j"]:-} $v"
        done
    done
done

# median of the values given ("-" when none)
median() {
    printf '%s\n' "$@" | sort -g |
        awk '{ v[NR] = $1 } END {
                 if (NR == 0) { print "-"; exit }
                 m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                 print (m == int(m)) ? m : sprintf("%.1f", m) }'
}
declare -A med=()
for n in "${names[@]}"; do
    for j in $jobs; do
        # shellcheck disable=SC2086
        med["$n $j"]=$(median ${cell["$n $j"]:-})
    done
done

echo
echo "guest kernel $kernel, TCG, fio libaio direct=1 iodepth=32, ${runtime}s per job;"
echo "median of $rounds interleaved round(s) per cell"
echo "(*-timing: timing=on, time-scale 100: the modelled card's numbers / 100 where the guest keeps up)"
printf '%-24s %14s %14s %14s %14s\n' controller "4K rand read" "4K rand write" "128K seq read" "128K seq write"
printf '%-24s %14s %14s %14s %14s\n' "" IOPS IOPS MiB/s MiB/s
for n in "${names[@]}"; do
    printf '%-24s' "$n"
    for j in $jobs; do
        printf ' %14s' "${med["$n $j"]}"
    done
    echo
done
if [ "$rounds" -gt 1 ]; then
    echo
    echo "every round (the spread behind each median):"
    for n in "${names[@]}"; do
        printf '%-24s' "$n"
        for j in $jobs; do
            v=${cell["$n $j"]:-}
            v=${v# }
            printf ' %14s' "${v// //}"
        done
        echo
    done
fi
hdr=0
for pair in $ratios; do
    a=${pair%%:*}
    b=${pair#*:}
    if [ -z "${med["$a randread"]:-}" ] || [ -z "${med["$b randread"]:-}" ]; then
        continue
    fi
    if [ $hdr = 0 ]; then
        echo
        echo "ratios of the medians (issue 13: JBOD >= 1.0x virtio-scsi, >= 1.2x megasas-gen2;"
        echo "RAID 5 VD >= 1.5x md-raid5; RAID 5 VD >= 0.7x JBOD 4K write, >= 0.8x 128K write)"
        printf '%-34s %14s %14s %14s %14s\n' "" "4K rand read" "4K rand write" "128K seq read" "128K seq write"
        hdr=1
    fi
    printf '%-34s' "$a/$b"
    for j in $jobs; do
        x=${med["$a $j"]}
        y=${med["$b $j"]}
        if [ "$x" = - ] || [ "$y" = - ] || [ "$y" = 0 ]; then
            printf ' %14s' -
        else
            printf ' %14s' "$(awk "BEGIN { printf \"%.2fx\", $x / $y }")"
        fi
    done
    echo
done
exit $bad
