#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs the guest test matrix: every tests/guest/tests/*.sh on every kernel
# (both by default; a test's "#@ kernels" line narrows it), one run.sh
# each.  Prints "PASS <kernel>/<test>" or "FAIL <kernel>/<test> (log: ...)"
# per run, then "N passed, N failed"; exits 1 if any failed.
#
#   tests/guest/run-suite.sh [--kernel K]... [--test NAME]... [--jobs N]
#
# --jobs N (or MRSIM_GUEST_JOBS) runs N guests at once (default 1); the
# result lines then come at the end, in matrix order.
#
# Adding a test needs no change here: drop a script with its "#@" header
# (see run.sh) into tests/guest/tests/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/guest"

kernels=()
only=()
jobs=${MRSIM_GUEST_JOBS:-1}
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel) kernels+=("$2"); shift 2 ;;
    --test)   only+=("$2"); shift 2 ;;
    --jobs)   jobs=$2; shift 2 ;;
    *) echo "run-suite.sh: unknown argument '$1'" >&2
       echo "usage: $0 [--kernel 6.1|6.12]... [--test NAME]... [--jobs N]" >&2
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

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# run_one KERNEL TEST N: one run.sh; its result line goes to $results/N.
run_one() {
    local start out rc log reason
    start=$(date +%s)
    out=$(MRSIM_IMAGE_READY=1 "$here/run.sh" --kernel "$1" --test "$2" 2>/dev/null)
    rc=$?
    echo "  $1/$2: $(( $(date +%s) - start ))s" >&2
    if [ $rc = 0 ]; then
        echo "PASS $1/$2" > "$results/$3"
    else
        log=$(echo "$out" | sed -n 's/^log: //p' | tail -n 1)
        reason=$(echo "$out" | sed -n 's/^run: FAIL [^:]*: //p' | tail -n 1)
        echo "FAIL $1/$2 (log: ${log:-none}${reason:+; $reason})" > "$results/$3"
    fi
}

suite_start=$(date +%s)
n=0
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
        n=$((n + 1))
        idx=$(printf '%04d' $n)
        if [ $image_ok = 0 ]; then
            echo "FAIL $k/$t (log: image build failed)" > "$results/$idx"
        elif [ "$jobs" -gt 1 ]; then
            while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
                wait -n
            done
            run_one "$k" "$t" "$idx" &
            continue
        else
            run_one "$k" "$t" "$idx"
        fi
        [ "$jobs" -gt 1 ] || cat "$results/$idx"
    done
done
wait
[ "$jobs" -le 1 ] || cat "$results"/* 2>/dev/null
passed=$(cat "$results"/* 2>/dev/null | grep -c '^PASS ')
failed=$(cat "$results"/* 2>/dev/null | grep -c '^FAIL ')
echo "guest suite wall time: $(( $(date +%s) - suite_start ))s" >&2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
