#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scale benchmark (issue 13): megaraid-9600 with many drives, and with many
# VDs.  Sparse raw images in build/bench-scale (BENCH_SCALE_DIR), 64 MiB
# each (--size).  For each drive count N (default 0 16 64 272; 272 is the
# card's limit, 240 SAS/SATA drives in enclosure 0, even slots SAS and odd
# slots SATA, and 32 NVMe drives in enclosure 1; a smaller N keeps the same
# proportion of NVMe):
#   start    QEMU's resident memory (VmRSS) right after the machine is
#            built, paused (-S), with no guest: the device model's own
#   visible  a 6.12 guest under TCG (tests/guest/bench/scale.sh): the
#            seconds from mpi3mr's load to the last disk: as /init loads
#            it (boot: its first message to the last "Attached SCSI disk"
#            in dmesg) and by rmmod + modprobe (reload: from the modprobe
#            until all are in /sys/block), and VmRSS while the guest holds
#            still after each; between the two, a SCSI host reset
#            (sg_reset -H: a controller reset that announces every device
#            again) timed until the driver reports success (reset)
# Each VmRSS is also printed without the guest's RAM ("dev": the RSS of
# the guest RAM block, the largest anonymous mapping, taken away), which is
# what the device model and the rest of QEMU hold; per-drive growth is
# (dev(N) - dev(0)) / N.  Then the same for V VDs (default 0 1 16 64) made
# with megaraid-img over 8 drives: RAID 1 drive groups of 2 drives and
# up to 16 VDs of 8 MiB each, the drives not in a group JBOD; the guest
# sees V + the JBOD drives.
# Numbers only: it never fails on speed or memory; it fails when it could
# not measure (QEMU refused the configuration, the disks never appeared).
# BENCH_SCALE_QEMU_ARGS adds QEMU arguments to the guest runs (e.g.
# "-trace megaraid_9600_scsi_io -D /tmp/trace.log").
#
#   scripts/bench-scale.sh [--drives "0 16 64 272"] [--vds "0 1 16 64"]
#                          [--kernel 6.12] [--mem MIB] [--size SIZE]
#                          [--no-guest] [--no-reload]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
drives="0 16 64 272"
vds="0 1 16 64"
kernel=6.12
mem=1024
size=64M
guest=1
reload=1
while [ $# -gt 0 ]; do
    case "$1" in
    --drives) drives=$2; shift 2 ;;
    --vds) vds=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --no-guest) guest=0; shift ;;
    --no-reload) reload=0; shift ;;
    *) sed -n '3,/^set -euo/s/^# \?//p' "$0" >&2; exit 2 ;;
    esac
done

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
[ -x "$QEMU" ] || { echo "bench-scale: no QEMU at $QEMU" >&2; exit 1; }
work=${BENCH_SCALE_DIR:-$top/build/bench-scale}
mkdir -p "$work"
work=$(cd "$work" && pwd)
args="$work/args"

# rss_of PID: "VmRSS-KiB dev-KiB", dev without the guest RAM's mapping.
rss_of() {
    awk -v pid="$1" '
        /^[0-9a-f]+-[0-9a-f]+ / { anon = ($6 == ""); next }
        /^Size:/ { sz = $2; next }
        /^Rss:/ { if (anon && sz > bigsz) { bigsz = sz; big = $2 }; next }
        END { while ((getline l < ("/proc/" pid "/status")) > 0)
                  if (l ~ /^VmRSS:/) { split(l, f, " "); rss = f[2] }
              print rss, rss - big }' "/proc/$1/smaps"
}

# images N: N fresh sparse images d0..d(N-1).
images() {
    rm -f "$work"/d*.img
    for ((i = 0; i < $1; i++)); do
        truncate -s "$size" "$work/d$i.img"
    done
}

# drive_args N: the -drive/-device arguments of N drives, in $args.
drive_args() {
    local n=$1 nvme i sas
    nvme=$(( (n * 32 + 136) / 272 ))
    sas=$((n - nvme))
    : > "$args"
    for ((i = 0; i < n; i++)); do
        local dev
        if [ $i -lt $sas ]; then
            local ifc=sas
            [ $((i % 2)) = 0 ] || ifc=sata
            dev="interface=$ifc,enclosure=0,slot=$i"
        else
            dev="interface=nvme,enclosure=1,slot=$((i - sas))"
        fi
        printf '%s\n' -drive "if=none,id=d$i,format=raw,file=$work/d$i.img" \
            -device "megaraid-drive,bus=raid0.0,drive=d$i,$dev" >> "$args"
    done
}

# vd_config V: 8 drive images, V VDs over RAID 1 groups of 2; prints the
# disks the guest sees.
vd_config() {
    local v=$1 g=0 made=0 k all=()
    size=256M images 8
    for ((i = 0; i < 8; i++)); do all+=("$work/d$i.img"); done
    while [ $made -lt "$v" ]; do
        local a="$work/d$((2 * g)).img" b="$work/d$((2 * g + 1)).img"
        if [ $g = 0 ]; then
            "$img" create -l raid1 --size 8M "$a" "$b" > /dev/null
        else
            "$img" add-dg -l raid1 --size 8M -m "$a" -m "$b" "${all[@]}" > /dev/null
        fi
        made=$((made + 1))
        for ((k = 1; k < 16 && made < v; k++)); do
            "$img" add-vd -l raid1 --size 8M --dg "$g" "${all[@]}" > /dev/null
            made=$((made + 1))
        done
        g=$((g + 1))
    done
    echo $((v + 8 - 2 * g))
}

# host_rss: VmRSS of a paused QEMU with the drives of $args, no guest.
host_rss() {
    local sock="$work/qmp.sock" pid out
    rm -f "$sock"
    mapfile -t da < "$args"
    "$QEMU" -M q35 -accel tcg -cpu max -m "$mem" -S -display none \
        -nodefaults -L /usr/share/qemu -L /usr/share/seabios \
        -qmp "unix:$sock,server=on,wait=off" \
        -device megaraid-9600,id=raid0 ${da[@]+"${da[@]}"} \
        > "$work/host.log" 2>&1 &
    pid=$!
    out=$(python3 - "$sock" <<'EOF'
import json, socket, sys, time
for _ in range(600):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit(1)
f = s.makefile('rw')
f.readline()
for cmd in ('qmp_capabilities', 'query-status'):
    f.write(json.dumps({'execute': cmd}) + '\n'); f.flush()
    while 'return' not in json.loads(f.readline()):
        pass
print('ok')
EOF
    ) || true
    if [ "$out" = ok ] && kill -0 $pid 2>/dev/null; then
        sleep 1
        rss_of $pid
    fi
    kill $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
    [ "$out" = ok ] || { cat "$work/host.log" >&2; echo "bench-scale: QEMU did not start" >&2; exit 1; }
}

# guest_run DISKS: the guest benchmark; prints "name seconds rss dev" for
# boot and reload.
guest_run() {
    local want=$1 rpid dir serial seen=0 line
    mapfile -t da < "$args"
    rm -f "$work/qemu.pid"
    # shellcheck disable=SC2086  # BENCH_SCALE_QEMU_ARGS: several words
    MRSIM_IMAGE_READY=1 "$top/tests/guest/run.sh" --kernel "$kernel" \
        --script "$top/tests/guest/bench/scale.sh" --smp 2 --mem "$mem" \
        --env "BENCH_DISKS=$want" --env "BENCH_RELOAD=$reload" \
        --env "BENCH_RESET=$reload" \
        --append log_buf_len=16M --log "$work/serial-$want.log" \
        -- -pidfile "$work/qemu.pid" -device megaraid-9600,id=raid0 \
        ${da[@]+"${da[@]}"} ${BENCH_SCALE_QEMU_ARGS:-} > "$work/run.log" 2>&1 &
    rpid=$!
    dir="$top/build/guest/work/$kernel-scale-$rpid"
    serial="$dir/serial-1.log"
    while kill -0 $rpid 2>/dev/null; do
        if [ -f "$serial" ]; then
            while read -r line; do
                seen=$((seen + 1))
                # shellcheck disable=SC2086  # "name seconds"
                set -- $line
                echo "$1 $2 $(rss_of "$(cat "$work/qemu.pid")")"
            done < <(tr -d '\r' < "$serial" |
                     sed -n 's/.*@@BENCH-VISIBLE \([a-z]*\) \([0-9.]*\)@@.*/\1 \2/p' |
                     tail -n +$((seen + 1)))
        fi
        sleep 0.5
    done
    if ! wait $rpid; then
        tail -n 30 "$work/run.log" >&2
        echo "bench-scale: the guest run with $want disks failed" >&2
        exit 1
    fi
}

"$top/tests/guest/build-image.sh" "$kernel" > /dev/null
img=$("$top/tests/guest/host-megaraid-img.sh")

kib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo "bench-scale: kernel $kernel, guest $mem MiB, TCG, smp 2; drive images $size sparse"
echo "MiB: rss = QEMU VmRSS, dev = without the guest RAM"
base_start=""
declare -A base_vis=()
printf '%-8s %8s %8s %9s %8s %8s %9s %8s %8s %8s %9s\n' drives start_rss \
    start_dev per_drive boot_s vis_dev per_drive reset_s reload_s vis_dev \
    per_drive
for n in $drives; do
    images "$n"
    drive_args "$n"
    read -r srss sdev <<< "$(host_rss)"
    [ -n "$sdev" ] || exit 1
    [ -n "$base_start" ] || base_start=$sdev
    per="-"
    [ "$n" = 0 ] || per=$(awk -v a="$sdev" -v b="$base_start" -v n="$n" \
                          'BEGIN { printf "%.3f", (a - b) / 1024 / n }')
    row=$(printf '%-8s %8s %8s %9s' "$n" "$(kib "$srss")" "$(kib "$sdev")" "$per")
    if [ $guest = 1 ]; then
        got_reset=0
        while read -r name secs rss dev; do
            if [ "$name" = reset ]; then
                row="$row $(printf '%8s' "$secs")"
                got_reset=1
                echo "  reset: controller reset with $n disks took ${secs}s" >&2
                continue
            fi
            # no reset with no disk
            [ "$name" != reload ] || [ $got_reset = 1 ] ||
                row="$row $(printf '%8s' -)"
            [ -n "${base_vis[$name]:-}" ] || base_vis[$name]=$dev
            per="-"
            [ "$n" = 0 ] || per=$(awk -v a="$dev" -v b="${base_vis[$name]}" -v n="$n" \
                                  'BEGIN { printf "%.3f", (a - b) / 1024 / n }')
            row="$row $(printf '%8s %8s %9s' "$secs" "$(kib "$dev")" "$per")"
            echo "  $name: $n disks visible after ${secs}s, rss $(kib "$rss") MiB, dev $(kib "$dev") MiB" >&2
        done < <(guest_run "$n")
    fi
    echo "$row"
done

[ -n "$vds" ] || exit 0
echo
printf '%-8s %8s %8s %8s %8s %8s\n' vds disks start_rss start_dev boot_s vis_dev
for v in $vds; do
    disks=$(vd_config "$v")
    drive_args 8
    read -r srss sdev <<< "$(host_rss)"
    [ -n "$sdev" ] || exit 1
    row=$(printf '%-8s %8s %8s %8s' "$v" "$disks" "$(kib "$srss")" "$(kib "$sdev")")
    if [ $guest = 1 ]; then
        reload_keep=$reload
        reload=0
        while read -r name secs rss dev; do
            row="$row $(printf '%8s %8s' "$secs" "$(kib "$dev")")"
        done < <(guest_run "$disks")
        reload=$reload_keep
    fi
    echo "$row"
done
