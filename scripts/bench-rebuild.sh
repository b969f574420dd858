#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Rebuild benchmark: a RAID VD made with megaraid-img over NVMe drive images
# (raw files in build/bench-rebuild), imported by megaraid-9600 in a QEMU
# that runs no guest; one member is failed over QMP and the hot spare's
# rebuild is timed.  Prints MiB/s rebuilt onto the spare per level and
# rebuild rate; then, per level, the same rebuild with timing=on at
# rebuild-rate 30 over drives modelled as the 9670W test bed's Micron 7450
# MAX 6.4 TB (the image stands for the whole drive), at --timing-scale
# (default 0.01: the modelled hour in about 36 s): the model's unloaded
# rebuild time (vd0-last-job-model-ms) beside the one measured on the
# guest clock (vd0-last-job-ms) and in wall time, and both unscaled.
# Beside each rebuild at rate 100 with timing off it prints the host's
# sequential copy of one member image on the same storage (dd, 1 MiB
# blocks, the source read with O_DIRECT as QEMU's cache=none reads it,
# the copy flushed with fdatasync before the clock stops) and the ratio
# rebuild / copy (issue 13 asks for at least 0.8), and the same ratio
# for all the bytes each one moves ("I/O ratio": the rebuild reads every
# other member of the row it needs, k = 1 for RAID 1, 3 for RAID 5 over 4
# drives, 4 for RAID 6 over 6, and writes the spare, k + 1 bytes moved per byte
# rebuilt against the copy's 2): with every image on one device the
# rebuild can reach at most 2 / (k + 1) of the copy's speed.
# The rebuild's time is the controller's own (vd0-last-job-ms: from the
# job's start to its end, not QEMU's start nor QMP polling); the wall time
# from the QMP failure to the spare online is printed beside it.  The
# last two columns are bytes moved per second, all members' reads and
# writes for the rebuild ((k + 1) x the rebuilt bytes), the copy's read
# plus write (2 x the member).
# --dir DIR (or BENCH_REBUILD_DIR) puts the images elsewhere, e.g.
# /dev/shm to take the disk out (keep --size at 512M or less there);
# --cache none|writeback|directsync... and --aio native|threads|io_uring
# (or BENCH_REBUILD_DRIVE="cache=...,aio=...") replace the drives'
# cache=none,aio=native; with a cache mode other than none the copy reads
# through the page cache too.  --strip KiB (default 256) is the VD's strip.
# Numbers only: it never fails on speed.
#
#   scripts/bench-rebuild.sh [--size 512M] [--timing-scale S] [--no-timing]
#                            [--rates "100:off 30:off"] [--dir DIR]
#                            [--cache MODE] [--aio MODE] [--strip KiB]
#                            [LEVEL...]      (default raid1 raid5 raid6)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
size=512M
tscale=0.01
timing=1
rates=
cache=none
aio=native
strip=256
work=${BENCH_REBUILD_DIR:-$top/build/bench-rebuild}
levels=()
while [ $# -gt 0 ]; do
    case "$1" in
    --size) size=$2; shift 2 ;;
    --timing-scale) tscale=$2; shift 2 ;;
    --no-timing) timing=0; shift ;;
    --rates) rates=$2; shift 2 ;;
    --dir) work=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --aio) aio=$2; shift 2 ;;
    --strip) strip=$2; shift 2 ;;
    -*) echo "usage: $0 [--size SIZE] [--timing-scale S] [--no-timing]" \
             "[--rates RUNS] [--dir DIR] [--cache MODE] [--aio MODE]" \
             "[--strip KiB] [LEVEL...]" >&2
        exit 2 ;;
    *) levels+=("$1"); shift ;;
    esac
done
[ ${#levels[@]} -gt 0 ] || levels=(raid1 raid5 raid6)

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
img=$("$top/tests/guest/host-megaraid-img.sh")
case "$img" in /*) ;; *) img=$top/$img ;; esac
dopts=${BENCH_REBUILD_DRIVE:-cache=$cache,aio=$aio}
iflag=
case "$dopts" in *cache=none*) iflag=iflag=direct ;; esac
mkdir -p "$work"

members() {
    case "$1" in
    raid1) echo 2 ;;
    raid5) echo 4 ;;
    raid6) echo 6 ;;
    raid10) echo 4 ;;
    *) echo 4 ;;
    esac
}

echo "# $(date -u '+%F %T') UTC, images in $work, drives $dopts," \
    "strip $strip KiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %6s %9s %7s %7s %8s %8s %6s %6s %9s %9s\n' level rate \
    "spare MiB" seconds wall "MiB/s" "copy" ratio "I/O" "rb MB/s" "cp MB/s"

runs="100:off 30:off"
[ "$timing" = 0 ] || runs="$runs 30:on"
[ -z "$rates" ] || runs=$rates
for level in "${levels[@]}"; do
    for run in $runs; do
        rate=${run%:*}
        tm=${run#*:}
        rm -f "$work"/*.img
        n=$(members "$level")
        drives=()
        for i in $(seq 0 $((n - 1))); do drives+=("$work/d$i.img"); done
        (cd "$work" && "$img" create -l "$level" -s "$strip" --drive-size "$size" \
            --hot-spare s.img "${drives[@]##*/}" > /dev/null)
        args=(-M q35 -nodefaults -display none -S
              -bios /usr/share/qemu/qboot.rom -L /usr/share/qemu)
        if [ "$tm" = on ]; then
            # the guest clock runs (no -S pause) for the timed rebuild
            args+=(-device "megaraid-9600,id=raid0,timing=on,time-scale=$tscale")
        else
            args+=(-device megaraid-9600,id=raid0)
        fi
        i=0
        for f in "${drives[@]}" "$work/s.img"; do
            args+=(-drive "if=none,id=d$i,file=$f,format=raw,$dopts"
                   -device "megaraid-drive,id=hd$i,bus=raid0.0,slot=$i,drive=d$i,perf-profile=micron-7450-max-6.4t")
            i=$((i + 1))
        done
        spare=hd$((i - 1))
        copy=-
        if [ "$rate" = 100 ] && [ "$tm" = off ]; then
            # the host's own sequential copy of one member, same storage;
            # the images megaraid-img just wrote are on the disk first
            sync "$work"/*.img
            t0=$(date +%s.%N)
            dd if="$work/d0.img" of="$work/copy.img" bs=1M $iflag \
                conv=fdatasync status=none
            t1=$(date +%s.%N)
            rm -f "$work/copy.img"
            copy=$(python3 -c "import sys; print('%.1f' % (
                $(stat -c %s "$work/d0.img") / 1048576 / ($t1 - $t0)))")
        fi
        python3 - "$QEMU" "$spare" "$rate" "$level" "$size" "$tm" "$tscale" \
            "$copy" "$n" "${args[@]}" <<'EOF'
import json, os, socket, subprocess, sys, tempfile, time
qemu, spare, rate, level, size, tm, tscale, copy, n = sys.argv[1:10]
args = sys.argv[10:]
reads = (1 if level in ('raid1', 'raid10') else
         int(n) - 2 if level in ('raid6', 'raid60') else int(n) - 1)
sock_path = os.path.join(tempfile.mkdtemp(), 'qmp.sock')
p = subprocess.Popen([qemu] + args + ['-qmp', 'unix:%s,server=on,wait=on' % sock_path],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock_path):
        break
    time.sleep(0.05)
s = socket.socket(socket.AF_UNIX)
s.connect(sock_path)
f = s.makefile('rw')
f.readline()
def cmd(c, **a):
    f.write(json.dumps({'execute': c, 'arguments': a} if a else {'execute': c}) + '\n')
    f.flush()
    while True:
        r = json.loads(f.readline())
        if 'return' in r or 'error' in r:
            return r
cmd('qmp_capabilities')
if tm == 'on':
    cmd('cont')
cmd('qom-set', path='/machine/peripheral/raid0', property='rebuild-rate', value=int(rate))
t0 = time.time()
cmd('qom-set', path='/machine/peripheral/hd1', property='state', value='offline')
while True:
    st = cmd('qom-get', path='/machine/peripheral/' + spare, property='state')['return']
    if st == 'online':
        break
    if time.time() - t0 > 1800:
        print('%-8s %6s rebuild did not finish in 1800 s' % (level, rate))
        break
    time.sleep(0.05)
wall = time.time() - t0
# the controller's own measure of the job (timing off: host clock)
dt = cmd('qom-get', path='/machine/peripheral/raid0',
         property='vd0-last-job-ms')['return'] / 1000
if dt <= 0:
    dt = wall
if tm == 'on':
    def get(prop):
        return cmd('qom-get', path='/machine/peripheral/raid0',
                   property=prop)['return']
    meas = get('vd0-last-job-ms') / 1000
    model = get('vd0-last-job-model-ms') / 1000
    sc = float(tscale)
    print('%-8s %5s%% timing=on x%s: modelled %.2f s, measured %.2f s '
          '(%+.1f %%), wall %.2f s; unscaled: modelled %.1f min, '
          'measured %.1f min' % (level, rate, tscale, model, meas,
                                 (meas - model) / model * 100 if model else 0,
                                 wall, model / sc / 60, meas / sc / 60))
cmd('quit')
p.wait()
if tm != 'on':
    mib = int(size.rstrip('M')) * 127 / 128
    moved = mib * 1.048576 * (reads + 1) / dt
    if copy == '-':
        print('%-8s %5s%% %9.0f %7.2f %7.2f %8.1f %8s %6s %6s %9.0f %9s' %
              (level, rate, mib, dt, wall, mib / dt, '-', '-', '-', moved,
               '-'))
    else:
        ratio = mib / dt / float(copy)
        print('%-8s %5s%% %9.0f %7.2f %7.2f %8.1f %8s %6.2f %6.2f %9.0f %9.0f' %
              (level, rate, mib, dt, wall, mib / dt, copy, ratio,
               ratio * (reads + 1) / 2, moved,
               float(copy) * 1.048576 * 2))
EOF
    done
done
rm -f "$work"/*.img
