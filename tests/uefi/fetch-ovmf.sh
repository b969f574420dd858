#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A second OVMF for the boot tests: sid's ovmf-generic, downloaded once
# into build/dl/deb and unpacked into build/ovmf-sid (scripts/apt-sources.sh
# pins sid, so nothing is installed from it).  Prints the path of its
# OVMF_CODE_4M.fd.
#
#   tests/uefi/fetch-ovmf.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dl=$top/build/dl/deb
out=$top/build/ovmf-sid
mkdir -p "$dl"
ver=$(apt-cache policy ovmf-generic | awk '/ sid\// { print prev } { prev = $1 }' |
      head -n1)
[ -n "$ver" ] || ver=$(apt-cache madison ovmf-generic | awk '/sid/ { print $3; exit }')
[ -n "$ver" ] || { echo "fetch-ovmf: no ovmf-generic in sid" >&2; exit 1; }
deb=$dl/ovmf-generic_${ver#*:}_all.deb
if [ ! -f "$deb" ]; then
    (cd "$dl" && apt-get download -q "ovmf-generic=$ver" >&2)
fi
if [ ! -f "$out/.version" ] || [ "$(cat "$out/.version")" != "$ver" ]; then
    rm -rf "$out"
    mkdir -p "$out"
    dpkg-deb -x "$deb" "$out"
    echo "$ver" >"$out/.version"
fi
echo "$out/usr/share/OVMF/OVMF_CODE_4M.fd"
