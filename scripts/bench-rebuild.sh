#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Rebuild benchmark: a RAID VD made with megaraid-img over NVMe drive images
# (raw files in build/bench-rebuild), imported by megaraid-9600 in a QEMU
# that runs no guest; one member is failed over QMP and the hot spare's
# rebuild is timed.  Prints MiB/s rebuilt onto the spare per level and
# rebuild rate.  Numbers only: it never fails on speed.
#
#   scripts/bench-rebuild.sh [--size 512M] [LEVEL...]     (default raid1 raid5 raid6)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
size=512M
levels=()
while [ $# -gt 0 ]; do
    case "$1" in
    --size) size=$2; shift 2 ;;
    -*) echo "usage: $0 [--size SIZE] [LEVEL...]" >&2; exit 2 ;;
    *) levels+=("$1"); shift ;;
    esac
done
[ ${#levels[@]} -gt 0 ] || levels=(raid1 raid5 raid6)

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
img=$("$top/tests/guest/host-megaraid-img.sh")
case "$img" in /*) ;; *) img=$top/$img ;; esac
work=$top/build/bench-rebuild
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

printf '%-8s %6s %10s %10s %10s\n' level rate "spare MiB" seconds "MiB/s"
for level in "${levels[@]}"; do
    for rate in 100 30; do
        rm -f "$work"/*.img
        n=$(members "$level")
        drives=()
        for i in $(seq 0 $((n - 1))); do drives+=("$work/d$i.img"); done
        (cd "$work" && "$img" create -l "$level" -s 256 --drive-size "$size" \
            --hot-spare s.img "${drives[@]##*/}" > /dev/null)
        args=(-M q35 -nodefaults -display none -S
              -bios /usr/share/qemu/qboot.rom -L /usr/share/qemu
              -device megaraid-9600,id=raid0)
        i=0
        for f in "${drives[@]}" "$work/s.img"; do
            args+=(-drive "if=none,id=d$i,file=$f,format=raw,cache=none,aio=native"
                   -device "megaraid-drive,id=hd$i,bus=raid0.0,slot=$i,drive=d$i")
            i=$((i + 1))
        done
        spare=hd$((i - 1))
        python3 - "$QEMU" "$spare" "$rate" "$level" "$size" "${args[@]}" <<'EOF'
import json, os, socket, subprocess, sys, tempfile, time
qemu, spare, rate, level, size = sys.argv[1:6]
args = sys.argv[6:]
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
cmd('qom-set', path='/machine/peripheral/raid0', property='rebuild-rate', value=int(rate))
t0 = time.time()
cmd('qom-set', path='/machine/peripheral/hd1', property='state', value='offline')
while True:
    st = cmd('qom-get', path='/machine/peripheral/' + spare, property='state')['return']
    if st == 'online':
        break
    if time.time() - t0 > 600:
        print('%-8s %6s rebuild did not finish in 600 s' % (level, rate))
        break
    time.sleep(0.05)
dt = time.time() - t0
cmd('quit')
p.wait()
mib = int(size.rstrip('M')) * 127 / 128
print('%-8s %5s%% %10.0f %10.2f %10.1f' % (level, rate, mib, dt, mib / dt))
EOF
    done
done
rm -f "$work"/*.img
