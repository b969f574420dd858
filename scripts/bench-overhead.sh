#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Request-overhead benchmark (issue 13): builds and runs
# tests/qtest/megaraid-bench-overhead.c, which times the host-side path of
# 4K requests in megaraid-9600 (doorbell to reply posted) in batches of
# MRSIM_BENCH_N (default 1000) prefilled requests, MRSIM_BENCH_REPS
# (default 15) batches, median: a JBOD drive on null-co and a RAID 5 VD
# over four image files on tmpfs (/dev/shm when it exists).  Prints
# numbers; never fails on speed (only when the benchmark could not run or
# a reply was missing or wrong).
#
#   scripts/bench-overhead.sh [--no-build] [jbod|vd]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bld="$top/${MRSIM_QEMU_BUILD:-build/qemu}"
build=1
only=""
for a in "$@"; do
    case "$a" in
    --no-build) build=0 ;;
    jbod|vd)    only=$a ;;
    *) echo "usage: $0 [--no-build] [jbod|vd]" >&2; exit 2 ;;
    esac
done
if [ $build = 1 ]; then
    flock "$top/build/qemu.lock" "$top/scripts/build-qemu.sh" \
        qemu-system-x86_64 tests/qtest/megaraid/megaraid-bench-overhead >&2
fi
tmp=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
cd "$bld"
QTEST_QEMU_BINARY=./qemu-system-x86_64 TMPDIR=$tmp MRSIM_BENCH_ONLY=$only \
    tests/qtest/megaraid/megaraid-bench-overhead | grep -v '^#'
exit "${PIPESTATUS[0]}"
