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
# BENCH_REBUILD_DIR puts the images elsewhere and BENCH_REBUILD_DRIVE
# replaces the drives' "cache=none,aio=native": e.g. /dev/shm with
# "cache=writeback,aio=threads" takes the disk out (the copy then reads
# through the page cache too).
# Numbers only: it never fails on speed.
#
#   scripts/bench-rebuild.sh [--size 512M] [--timing-scale S] [--no-timing]
#                            [--rates "100:off 30:off"] [LEVEL...]
#                                            (default raid1 raid5 raid6)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
size=512M
tscale=0.01
timing=1
rates=
levels=()
while [ $# -gt 0 ]; do
    case "$1" in
    --size) size=$2; shift 2 ;;
    --timing-scale) tscale=$2; shift 2 ;;
    --no-timing) timing=0; shift ;;
    --rates) rates=$2; shift 2 ;;
    -*) echo "usage: $0 [--size SIZE] [--timing-scale S] [--no-timing] [--rates RUNS] [LEVEL...]" >&2
        exit 2 ;;
    *) levels+=("$1"); shift ;;
    esac
done
[ ${#levels[@]} -gt 0 ] || levels=(raid1 raid5 raid6)

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
img=$("$top/tests/guest/host-megaraid-img.sh")
case "$img" in /*) ;; *) img=$top/$img ;; esac
work=${BENCH_REBUILD_DIR:-$top/build/bench-rebuild}
dopts=${BENCH_REBUILD_DRIVE:-cache=none,aio=native}
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

printf '%-8s %6s %10s %10s %10s %10s %6s %6s\n' level rate "spare MiB" \
    seconds "MiB/s" "copy MiB/s" ratio "I/O"

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
        (cd "$work" && "$img" create -l "$level" -s 256 --drive-size "$size" \
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
dt = time.time() - t0
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
                                 dt, model / sc / 60, meas / sc / 60))
cmd('quit')
p.wait()
if tm != 'on':
    mib = int(size.rstrip('M')) * 127 / 128
    if copy == '-':
        print('%-8s %5s%% %10.0f %10.2f %10.1f %10s %6s %6s' %
              (level, rate, mib, dt, mib / dt, '-', '-', '-'))
    else:
        ratio = mib / dt / float(copy)
        print('%-8s %5s%% %10.0f %10.2f %10.1f %10s %6.2f %6.2f' %
              (level, rate, mib, dt, mib / dt, copy, ratio,
               ratio * (reads + 1) / 2))
EOF
    done
done
rm -f "$work"/*.img
