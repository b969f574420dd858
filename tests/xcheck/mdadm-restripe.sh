#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Cross-checks the core's RAID 5/6 layouts and parity with mdadm's own
# restripe code (see mdadm-restripe.c).  Needs the standalone build
# (build/core) and Debian's mdadm source: fetched with `apt-get source`
# into a temporary directory unless MDADM_SRC points at an unpacked tree.
# Not part of `meson test` (it needs deb-src); exits non-zero on mismatch.
#
#   tests/xcheck/mdadm-restripe.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

src=${MDADM_SRC:-}
if [ -z "$src" ]; then
    (cd "$work" && apt-get source -qq mdadm >/dev/null 2>&1) || {
        echo "mdadm-restripe: cannot fetch mdadm source (deb-src lines?)" >&2
        exit 2
    }
    src=$(ls -d "$work"/mdadm-*/ | head -1)
fi
[ -f "$top/build/core/libraidcore.a" ] || {
    echo "mdadm-restripe: build the core first (meson setup build/core)" >&2
    exit 2
}
flags="-O2 -DNO_COROSYNC -DNO_DLM"
# shellcheck disable=SC2086
gcc $flags -c -o "$work/restripe.o" "$src/restripe.c"
# shellcheck disable=SC2086
gcc $flags -c -o "$work/xmalloc.o" "$src/xmalloc.c"
# shellcheck disable=SC2046
gcc -O2 -I"$top/include" $(pkg-config --cflags glib-2.0) \
    -o "$work/xcheck" "$top/tests/xcheck/mdadm-restripe.c" \
    "$work/restripe.o" "$work/xmalloc.o" "$top/build/core/libraidcore.a" \
    -lisal $(pkg-config --libs glib-2.0)
"$work/xcheck"
