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
# A test whose header says "#@ controllers megaraid-9600 megaraid-9500"
# runs once per controller named (run.sh --controller C); its result lines
# name the controller by its number: "PASS 6.12/raid-levels@9500".  A
# "#@ kernels@9500 K..." line sets the kernels of that controller's runs
# (the test's "#@ kernels" line, or all kernels, for the others).
# --test NAME@9500 runs only that controller's runs of NAME.
#
# Errors, each a FAIL line: a "#@ kernels" line naming a kernel run.sh does
# not know (run.sh --list-kernels), naming none, or given twice; a
# "#@ controllers" line naming a controller run.sh does not know (run.sh
# --list-controllers), naming one twice or none, or given twice; a
# "#@ kernels@N" line for a controller the test does not name; --test of a
# test (or controller of a test) that does not exist; a run started that
# reported no result.
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
mapfile -t known_ctrls < <("$here/run.sh" --list-controllers)
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

# kernel_list FILE KEY: sets tk to the kernels of the script's
# "#@ KEY" line (all kernels when it has none), or kerr to what is wrong.
kernel_list() {
    local lines w
    tk=()
    lines=$(grep -E "^#@ *$2([[:space:]]|\$)" "$1")
    if [ -z "$lines" ]; then
        tk=("${known[@]}")
        return
    fi
    if [ "$(printf '%s\n' "$lines" | wc -l)" != 1 ]; then
        kerr="more than one '#@ $2' line"
        return
    fi
    for w in $(printf '%s\n' "$lines" | sed -E "s/^#@ *$2//"); do
        case " ${known[*]} " in
        *" $w "*) tk+=("$w") ;;
        *) kerr="'$lines' names kernel '$w', which run.sh does not know (${known[*]})"
           return ;;
        esac
    done
    [ ${#tk[@]} -gt 0 ] || kerr="'$lines' names no kernel: the test would never run"
}

# ctrl_short CONTROLLER: its number, as result lines name it (9500).
ctrl_short() {
    printf '%s' "${1#megaraid-}"
}

# runs_of TEST: sets runs to the test's runs ("TEST" for a test without
# "#@ controllers", else "TEST@9600", "TEST@9500", ...), or kerr to what
# is wrong with its header.  TEST@N names one controller's run only.
runs_of() {
    local t=${1%@*} want="" f lines w c s seen=" "
    [ "$t" = "$1" ] || want=${1#*@}
    f="$tests_dir/$t.sh"
    runs=()
    kerr=""
    if [ ! -f "$f" ]; then
        kerr="no test script $f"
        return
    fi
    lines=$(grep -E '^#@ *controllers([[:space:]]|$)' "$f")
    if [ -z "$lines" ]; then
        [ -z "$want" ] || kerr="--test $1: $t has no '#@ controllers' line"
        [ -n "$want" ] || runs=("$t")
        if [ -z "$kerr" ] && grep -qE '^#@ *kernels@' "$f"; then
            kerr="'#@ kernels@...' without a '#@ controllers' line"
        fi
        return
    fi
    if [ "$(printf '%s\n' "$lines" | wc -l)" != 1 ]; then
        kerr="more than one '#@ controllers' line"
        return
    fi
    for c in $(printf '%s\n' "$lines" | sed -E 's/^#@ *controllers//'); do
        case " ${known_ctrls[*]} " in
        *" $c "*) ;;
        *) kerr="'$lines' names controller '$c', which run.sh does not know (${known_ctrls[*]})"
           return ;;
        esac
        s=$(ctrl_short "$c")
        case "$seen" in
        *" $s "*) kerr="'$lines' names controller '$c' twice"; return ;;
        esac
        seen="$seen$s "
        [ -n "$want" ] && [ "$want" != "$s" ] && continue
        runs+=("$t@$s")
    done
    if [ "$seen" = " " ]; then
        kerr="'$lines' names no controller: the test would never run"
        return
    fi
    while read -r w; do
        case "$seen" in
        *" $w "*) ;;
        *) kerr="'#@ kernels@$w' names a controller the test's '$lines' does not"
           return ;;
        esac
    done < <(grep -E '^#@ *kernels@' "$f" | sed -E 's/^#@ *kernels@([^[:space:]]*).*/\1/')
    [ ${#runs[@]} -gt 0 ] ||
        kerr="--test $1: '$lines' does not name megaraid-$want"
}

# kernels_of RUN: sets tk to the kernels the run (TEST or TEST@N, from
# runs_of) runs on, or kerr to what is wrong with its header.
kernels_of() {
    local t=${1%@*} f
    f="$tests_dir/$t.sh"
    kerr=""
    kernel_list "$f" kernels
    [ -z "$kerr" ] || return
    if [ "$t" != "$1" ] && grep -qE "^#@ *kernels@${1#*@}([[:space:]]|\$)" "$f"; then
        kernel_list "$f" "kernels@${1#*@}"
    fi
}

# run_args RUN: run.sh's arguments for the run's script and controller.
run_args() {
    local t=${1%@*}
    ra=(--script "$tests_dir/$t.sh")
    [ "$t" = "$1" ] || ra+=(--controller "megaraid-${1#*@}")
}

# run_one KERNEL TEST N: one run.sh; its result line goes to $results/N.
# A run that ended with a stuck guest vCPU (run.sh status 122: an
# interrupt lost in QEMU's TCG) is run once more; its result line names
# the first run's log either way.
run_one() {
    local start out rc log reason p again=""
    p=$(prefix_of "${2%@*}")
    run_args "$2"
    start=$(date +%s)
    out=$(MRSIM_IMAGE_READY=1 "$run_sh" --kernel "$1" "${ra[@]}" 2>/dev/null)
    rc=$?
    if [ $rc = 122 ]; then
        log=$(echo "$out" | sed -n 's/^log: //p' | tail -n 1)
        again=" (run twice: the first run's guest vCPU was stuck, log: $log)"
        echo "  $1/$2: guest vCPU stuck after $(( $(date +%s) - start ))s;" \
             "running it again (log: $log)" >&2
        out=$(MRSIM_IMAGE_READY=1 "$run_sh" --kernel "$1" "${ra[@]}" \
              2>/dev/null)
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
    runs_of "$t"
    if [ -z "$kerr" ]; then
        for r in "${runs[@]}"; do
            kernels_of "$r"
            [ -z "$kerr" ] || break
        done
    fi
    if [ -n "$kerr" ]; then
        n=$((n + 1))
        idx=$(printf '%04d' $n)
        started+=("$idx -/$t")
        echo "$(prefix_of "${t%@*}")FAIL -/$t ($kerr)" > "$results/$idx"
        cat "$results/$idx"
    else
        runnable+=("${runs[@]}")
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
            echo "$(prefix_of "${t%@*}")FAIL $k/$t (log: image build failed)" > "$results/$idx"
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
        t=${t#*/}
        echo "$(prefix_of "${t%@*}")FAIL ${s#* } (no result reported: the run was started but never said PASS or FAIL)" > "$r"
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
