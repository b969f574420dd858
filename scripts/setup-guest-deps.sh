#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installs, as root on a Debian bookworm host, what the guest test harness
# (tests/guest/) and scripts/bench.sh need: firmware for booting QEMU, the
# tools copied into the guest initramfs (taken from the host with their
# shared libraries), the tools used to pack the initramfs and gdb (run.sh
# shows where a QEMU that ran out of time was).  Kernels are
# not installed: tests/guest/build-image.sh downloads them as packages.
# Idempotent: installs only what is missing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

pkgs="
busybox-static
cpio
xz-utils
zstd
kmod
fio
lsscsi
sg3-utils
smp-utils
sdparm
smartmontools
pciutils
util-linux
fdisk
e2fsprogs
mdadm
seabios
qemu-system-data
gdb
prometheus-node-exporter-collectors
python3-prometheus-client
"

missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    "$top/scripts/apt-sources.sh"
    export DEBIAN_FRONTEND=noninteractive
    # Other setup scripts may be running apt at the same time: wait for it.
    n=0
    until apt-get update -q -o DPkg::Lock::Timeout=600; do
        n=$((n + 1))
        [ $n -lt 30 ] || exit 1
        sleep 10
    done
    # mdadm pulls in an MTA and initramfs hooks by recommendation only.
    # shellcheck disable=SC2086
    apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends $missing
fi

# The newest storcli.py collector (Debian sid's
# prometheus-node-exporter-collectors), unpacked unmodified beside
# bookworm's installed one: tests/guest/storcli-replay.py --collector-newest.
newest=/usr/local/share/megaraid-sim/collectors-sid
if [ ! -f "$newest/storcli.py" ]; then
    "$top/scripts/apt-sources.sh"
    tmp=$(mktemp -d)
    chmod 755 "$tmp"
    if ! (cd "$tmp" && apt-get download -q prometheus-node-exporter-collectors/sid); then
        apt-get update -q -o DPkg::Lock::Timeout=600
        (cd "$tmp" && apt-get download -q prometheus-node-exporter-collectors/sid)
    fi
    dpkg-deb -x "$tmp"/prometheus-node-exporter-collectors_*.deb "$tmp/x"
    mkdir -p "$newest"
    cp "$tmp/x/usr/share/prometheus-node-exporter-collectors/storcli.py" \
       "$newest/storcli.py"
    chmod 755 "$newest/storcli.py"
    rm -rf "$tmp"
fi
