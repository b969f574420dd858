#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of the RAID guest tests: prints the absolute path of the
# megaraid-img to use.  $MEGARAID_IMG when set (it must be executable);
# otherwise the standalone build's, which is set up and brought up to date
# first (as scripts/test.sh builds it), under a lock so that guest tests
# started together do not run ninja in build/core at once.  Fails, with a
# message on stderr, when there is no working binary.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${MEGARAID_IMG:-}" ]; then
    if [ ! -x "$MEGARAID_IMG" ]; then
        echo "host-megaraid-img: MEGARAID_IMG=$MEGARAID_IMG is not an executable" >&2
        exit 1
    fi
    case "$MEGARAID_IMG" in
    /*) echo "$MEGARAID_IMG" ;;
    *)  echo "$(pwd)/$MEGARAID_IMG" ;;
    esac
    exit 0
fi
mkdir -p "$top/build"
(
    flock 9
    if [ ! -f "$top/build/core/build.ninja" ]; then
        out=$(meson setup "$top/build/core" "$top" 2>&1) || {
            printf '%s\n' "$out" | tail -n 20 >&2
            echo "host-megaraid-img: meson setup build/core failed" >&2
            exit 1
        }
    fi
    out=$(ninja -C "$top/build/core" megaraid-img 2>&1) || {
        printf '%s\n' "$out" | tail -n 30 >&2
        echo "host-megaraid-img: ninja -C build/core megaraid-img failed" >&2
        exit 1
    }
) 9> "$top/build/core.lock"
if [ ! -x "$top/build/core/megaraid-img" ]; then
    echo "host-megaraid-img: no $top/build/core/megaraid-img after the build" >&2
    exit 1
fi
echo "$top/build/core/megaraid-img"
