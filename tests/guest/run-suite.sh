#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs the guest test matrix: every tests/guest/tests/*.sh on every kernel
# (both by default; a test's "#@ kernels" line narrows it), one run.sh
# each.  Prints "PASS <kernel>/<test>" or "FAIL <kernel>/<test> (log: ...)"
# per run, then "N passed, N failed"; exits 1 if any failed.
#
#   tests/guest/run-suite.sh [--kernel K]... [--test NAME]...
#
# Adding a test needs no change here: drop a script with its "#@" header
# (see run.sh) into tests/guest/tests/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/guest"

kernels=()
only=()
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel) kernels+=("$2"); shift 2 ;;
    --test)   only+=("$2"); shift 2 ;;
    *) echo "run-suite.sh: unknown argument '$1'" >&2
       echo "usage: $0 [--kernel 6.1|6.12]... [--test NAME]..." >&2
       exit 2 ;;
    esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.12)

tests=()
if [ ${#only[@]} -gt 0 ]; then
    tests=("${only[@]}")
else
    for f in "$here"/tests/*.sh; do
        [ -e "$f" ] && tests+=("$(basename "$f" .sh)")
    done
fi

passed=0
failed=0
suite_start=$(date +%s)
for k in "${kernels[@]}"; do
    image_ok=1
    if ! "$here/build-image.sh" "$k" >&2; then
        image_ok=0
    fi
    for t in "${tests[@]}"; do
        f="$here/tests/$t.sh"
        want=$(sed -n 's/^#@ *kernels //p' "$f" 2>/dev/null)
        if [ -n "$want" ] && ! echo " $want " | grep -q " $k "; then
            continue
        fi
        if [ $image_ok = 0 ]; then
            echo "FAIL $k/$t (log: image build failed)"
            failed=$((failed + 1))
            continue
        fi
        start=$(date +%s)
        out=$(MRSIM_IMAGE_READY=1 "$here/run.sh" --kernel "$k" --test "$t" 2>/dev/null)
        rc=$?
        echo "  $k/$t: $(( $(date +%s) - start ))s" >&2
        if [ $rc = 0 ]; then
            echo "PASS $k/$t"
            passed=$((passed + 1))
        else
            log=$(echo "$out" | sed -n 's/^log: //p' | tail -n 1)
            reason=$(echo "$out" | sed -n 's/^run: FAIL [^:]*: //p' | tail -n 1)
            echo "FAIL $k/$t (log: ${log:-none}${reason:+; $reason})"
            failed=$((failed + 1))
        fi
    done
done
echo "guest suite wall time: $(( $(date +%s) - suite_start ))s" >&2
echo "$passed passed, $failed failed"
[ $failed = 0 ]
