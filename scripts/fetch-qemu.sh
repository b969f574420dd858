#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetches QEMU's source from Debian's "qemu" source package, with Debian's
# patches applied, into build/qemu-src.  The upstream version must match the
# pin in configs/qemu-version.  Downloads are cached in build/dl.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pin=$(grep -v '^#' "$top/configs/qemu-version" | head -n1)
dl="$top/build/dl/qemu"
src="$top/build/qemu-src"

if [ -f "$src/.megaraid-fetched" ]; then
    exit 0
fi

# Newest Debian source version whose upstream part matches the pin.
ver=""
for v in $(apt-cache showsrc qemu | sed -n 's/^Version: //p'); do
    up=${v#*:}
    up=${up%%+*}
    up=${up%%-*}
    # shellcheck disable=SC2053
    if [[ $up == $pin ]]; then
        if [ -z "$ver" ] || dpkg --compare-versions "$v" gt "$ver"; then
            ver=$v
        fi
    fi
done
if [ -z "$ver" ]; then
    echo "fetch-qemu: no Debian qemu source matches the pin '$pin'" \
         "(configs/qemu-version); run scripts/apt-sources.sh" >&2
    exit 1
fi
echo "fetch-qemu: using Debian qemu $ver"

mkdir -p "$dl"
dsc=$(ls "$dl"/qemu_"${ver#*:}".dsc 2>/dev/null || true)
if [ -z "$dsc" ]; then
    (cd "$dl" && apt-get source --download-only -q "qemu=$ver")
    dsc=$(ls "$dl"/qemu_"${ver#*:}".dsc)
fi
rm -rf "$src" "$src.tmp"
dpkg-source --no-check -x "$dsc" "$src.tmp" >/dev/null
mv "$src.tmp" "$src"
echo "$ver" > "$src/.megaraid-fetched"
