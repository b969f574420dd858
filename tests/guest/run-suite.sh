#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs the guest test matrix: every tests/guest/tests/*.sh on every kernel
# (all that run.sh knows by default; a test's "#@ kernels" line narrows
# it), one run.sh each.  Prints "PASS <kernel>/<test>" or
# "FAIL <kernel>/<test> (log: ...)" per run, then
#   baseline: N passed, N failed
#   N passed, N failed
# and exits 1 if any run failed.  The baseline runs (tests of QEMU's own
# controllers, virtio-scsi and megasas-gen2: they check the harness and
# the guest images, not our device) print "BASELINE PASS/FAIL ..." and are
# counted on the "baseline:" line only; the last line counts the product's
# runs.  A failed baseline run fails the suite all the same.
#
#   tests/guest/run-suite.sh [--kernel K]... [--test NAME]... [--jobs N]
#
# --jobs N (or MRSIM_GUEST_JOBS) runs N guests at once (default 1); the
# result lines then come at the end, in matrix order.
#
# Errors, each a FAIL line: a "#@ kernels" line naming a kernel run.sh does
# not know (run.sh --list-kernels), naming none, or given twice; --test of
# a test that does not exist; a run started that reported no result.
# A test left out by --kernel is not run and not counted.
#
# Adding a test needs no change here: drop a script with its "#@" header
# (see run.sh) into tests/guest/tests/.  MRSIM_GUEST_TESTS= names another
# folder of tests and MRSIM_GUEST_RUN= another run.sh (negative controls,
# tests/controls/); MRSIM_IMAGE_READY=1 skips build-image.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/guest"
tests_dir=${MRSIM_GUEST_TESTS:-$here/tests}
run_sh=${MRSIM_GUEST_RUN:-$here/run.sh}
# Tests of QEMU's own controllers: reported as baseline runs.
baseline_tests=" virtio-scsi megasas-gen2 "

mapfile -t known < <("$here/run.sh" --list-kernels)
if [ ${#known[@]} = 0 ]; then
    echo "run-suite.sh: run.sh --list-kernels names no kernel" >&2
    exit 2
fi
kernels=()
only=()
jobs=${MRSIM_GUEST_JOBS:-1}
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel) kernels+=("$2"); shift 2 ;;
    --test)   only+=("$2"); shift 2 ;;
    --jobs)   jobs=$2; shift 2 ;;
    *) echo "run-suite.sh: unknown argument '$1'" >&2
       echo "usage: $0 [--kernel ${known[*]// /|}]... [--test NAME]... [--jobs N]" >&2
       exit 2 ;;
    esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=("${known[@]}")
for k in "${kernels[@]}"; do
    case " ${known[*]} " in
    *" $k "*) ;;
    *) echo "run-suite.sh: unknown kernel '$k' (run.sh knows: ${known[*]})" >&2
       exit 2 ;;
    esac
done

tests=()
if [ ${#only[@]} -gt 0 ]; then
    tests=("${only[@]}")
else
    for f in "$tests_dir"/*.sh; do
        [ -e "$f" ] && tests+=("$(basename "$f" .sh)")
    done
fi
if [ ${#tests[@]} = 0 ]; then
    echo "run-suite.sh: no tests in $tests_dir" >&2
    exit 2
fi

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# prefix_of TEST: "BASELINE " for a baseline test, else nothing.
prefix_of() {
    case "$baseline_tests" in
    *" $1 "*) printf 'BASELINE ' ;;
    esac
}

# kernels_of TEST: sets tk to the kernels the test runs on, or kerr to
# what is wrong with its header.
kernels_of() {
    local f="$tests_dir/$1.sh" lines w
    tk=()
    kerr=""
    if [ ! -f "$f" ]; then
        kerr="no test script $f"
        return
    fi
    lines=$(grep -E '^#@ *kernels([[:space:]]|$)' "$f")
    if [ -z "$lines" ]; then
        tk=("${known[@]}")
        return
    fi
    if [ "$(printf '%s\n' "$lines" | wc -l)" != 1 ]; then
        kerr="more than one '#@ kernels' line"
        return
    fi
    for w in $(printf '%s\n' "$lines" | sed -E 's/^#@ *kernels//'); do
        case " ${known[*]} " in
        *" $w "*) tk+=("$w") ;;
        *) kerr="'$lines' names kernel '$w', which run.sh does not know (${known[*]})"
           return ;;
        esac
    done
    [ ${#tk[@]} -gt 0 ] || kerr="'$lines' names no kernel: the test would never run"
}

# run_one KERNEL TEST N: one run.sh; its result line goes to $results/N.
# A run that ended with a stuck guest vCPU (run.sh status 122: an
# interrupt lost in QEMU's TCG) is run once more; its result line names
# the first run's log either way.
run_one() {
    local start out rc log reason p again=""
    p=$(prefix_of "$2")
    start=$(date +%s)
    out=$(MRSIM_IMAGE_READY=1 "$run_sh" --kernel "$1" \
          --script "$tests_dir/$2.sh" 2>/dev/null)
    rc=$?
    if [ $rc = 122 ]; then
        log=$(echo "$out" | sed -n 's/^log: //p' | tail -n 1)
        again=" (run twice: the first run's guest vCPU was stuck, log: $log)"
        echo "  $1/$2: guest vCPU stuck after $(( $(date +%s) - start ))s;" \
             "running it again (log: $log)" >&2
        out=$(MRSIM_IMAGE_READY=1 "$run_sh" --kernel "$1" \
              --script "$tests_dir/$2.sh" 2>/dev/null)
        rc=$?
    fi
    echo "  $1/$2: $(( $(date +%s) - start ))s" >&2
    if [ $rc = 0 ]; then
        echo "${p}PASS $1/$2$again" > "$results/$3"
    else
        log=$(echo "$out" | sed -n 's/^log: //p' | tail -n 1)
        reason=$(echo "$out" | sed -n 's/^run: FAIL [^:]*: //p' | tail -n 1)
        echo "${p}FAIL $1/$2 (log: ${log:-none}${reason:+; $reason})$again" > "$results/$3"
    fi
}

suite_start=$(date +%s)
n=0
started=()             # "N KERNEL/TEST" of every run started
# Header errors first: each is one failed result.
runnable=()
for t in "${tests[@]}"; do
    kernels_of "$t"
    if [ -n "$kerr" ]; then
        n=$((n + 1))
        idx=$(printf '%04d' $n)
        started+=("$idx -/$t")
        echo "$(prefix_of "$t")FAIL -/$t ($kerr)" > "$results/$idx"
        cat "$results/$idx"
    else
        runnable+=("$t")
    fi
done
for k in "${kernels[@]}"; do
    image_ok=1
    if [ -z "${MRSIM_IMAGE_READY:-}" ] && ! "$here/build-image.sh" "$k" >&2; then
        image_ok=0
    fi
    for t in ${runnable[@]+"${runnable[@]}"}; do
        kernels_of "$t"
        case " ${tk[*]} " in
        *" $k "*) ;;
        *) continue ;;
        esac
        n=$((n + 1))
        idx=$(printf '%04d' $n)
        started+=("$idx $k/$t")
        if [ $image_ok = 0 ]; then
            echo "$(prefix_of "$t")FAIL $k/$t (log: image build failed)" > "$results/$idx"
        elif [ "$jobs" -gt 1 ]; then
            while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
                wait -n
            done
            run_one "$k" "$t" "$idx" &
            continue
        else
            run_one "$k" "$t" "$idx"
        fi
        [ "$jobs" -gt 1 ] || cat "$results/$idx" 2>/dev/null
    done
done
wait
# Every run started must have reported exactly one result.
for s in ${started[@]+"${started[@]}"}; do
    idx=${s%% *}
    r="$results/$idx"
    if [ ! -s "$r" ] || [ "$(grep -cE '^(BASELINE )?(PASS|FAIL) ' "$r")" != 1 ]; then
        t=${s#* }
        echo "$(prefix_of "${t#*/}")FAIL ${s#* } (no result reported: the run was started but never said PASS or FAIL)" > "$r"
        [ "$jobs" -gt 1 ] || cat "$r"
    fi
done
[ "$jobs" -le 1 ] || cat "$results"/* 2>/dev/null
all=$(cat "$results"/* 2>/dev/null)
passed=$(grep -c '^PASS ' <<< "$all")
failed=$(grep -c '^FAIL ' <<< "$all")
bpassed=$(grep -c '^BASELINE PASS ' <<< "$all")
bfailed=$(grep -c '^BASELINE FAIL ' <<< "$all")
echo "guest suite wall time: $(( $(date +%s) - suite_start ))s" >&2
echo "baseline: $bpassed passed, $bfailed failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$bfailed" = 0 ] && [ "$n" = $((passed + failed + bpassed + bfailed)) ]
