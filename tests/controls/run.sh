#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Negative controls: each tests/controls/cases/*.sh breaks one thing on
# purpose and runs the REAL check that should catch it (tests/guest/run.sh,
# run-suite.sh, scripts/lib-count.sh, a host-side test block, ...).  A case
# passes only when that check fails AND its output matches the case's
# "#@ expect ERE" line, so a case that dies of an unrelated script error is
# not counted as a catch.  Prints one line per case, then
# "N passed, N failed"; exits 1 when a case failed or none ran.
#
#   tests/controls/run.sh [--no-guest] [--keep] [CASE...]
#
# CASE is a case's name (cases/NAME.sh) or path.  --no-guest leaves out the
# cases marked "#@ guest" (they boot a real guest: need build/qemu and the
# guest images); the summary says how many were left out.  --keep keeps
# every case's scratch folder and output (build/controls/NAME/).
# The case format is in tests/controls/README.md.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/controls"

no_guest=0
keep=0
sel=()
while [ $# -gt 0 ]; do
    case "$1" in
    --no-guest) no_guest=1; shift ;;
    --keep)     keep=1; shift ;;
    -h|--help)  sed -n '3,17s/^# \?//p' "$0"; exit 0 ;;
    -*) echo "controls: unknown option '$1'" >&2; exit 2 ;;
    *)  sel+=("$1"); shift ;;
    esac
done

cases=()
if [ ${#sel[@]} -gt 0 ]; then
    for c in "${sel[@]}"; do
        case "$c" in
        */*) f=$c ;;
        *)   f="$here/cases/${c%.sh}.sh" ;;
        esac
        if [ ! -f "$f" ]; then
            echo "controls: no case $c ($f)" >&2
            exit 2
        fi
        cases+=("$f")
    done
else
    for f in "$here"/cases/*.sh; do
        [ -e "$f" ] && cases+=("$f")
    done
fi

# header FILE KEY: the values of the case's "#@ KEY ..." lines, one a line.
header() {
    sed -n "s/^#@ *$2\( \+\(.*\)\)\?\$/\2/p" "$1"
}

out_root="$top/build/controls"
mkdir -p "$out_root"
passed=0
failed=0
left_out=0
for f in ${cases[@]+"${cases[@]}"}; do
    name=$(basename "$f" .sh)
    expect=$(header "$f" expect)
    is_guest=0
    grep -q '^#@ *guest *$' "$f" && is_guest=1
    limit=$(header "$f" timeout | tail -n 1)
    [ -n "$limit" ] || { [ $is_guest = 1 ] && limit=1500 || limit=300; }
    if [ $is_guest = 1 ] && [ $no_guest = 1 ]; then
        left_out=$((left_out + 1))
        continue
    fi
    if [ -z "$expect" ] || [ "$(printf '%s\n' "$expect" | wc -l)" != 1 ]; then
        echo "FAIL $name: the case needs exactly one '#@ expect ERE' line"
        failed=$((failed + 1))
        continue
    fi
    # An expect pattern that matches anything proves nothing.
    if printf '\n' | grep -qE -- "$expect" || echo x | grep -qE -- "$expect"; then
        echo "FAIL $name: '#@ expect $expect' matches any output"
        failed=$((failed + 1))
        continue
    fi
    scratch="$out_root/$name"
    rm -rf "$scratch"
    mkdir -p "$scratch/tmp"
    start=$(date +%s)
    (cd "$top" && CONTROL_TOP="$top" CONTROL_TMP="$scratch/tmp" \
        CONTROL_NAME="$name" timeout -k 10 "$limit" bash "$f") \
        > "$scratch/output" 2>&1 < /dev/null
    rc=$?
    secs=$(( $(date +%s) - start ))
    hit=$(grep -E -m 1 -- "$expect" "$scratch/output")
    if [ $rc = 0 ]; then
        echo "FAIL $name: the check did not fail (exit 0, ${secs}s)"
        tail -n 15 "$scratch/output" | sed 's/^/    | /'
        failed=$((failed + 1))
    elif [ $rc = 124 ] || [ $rc = 137 ]; then
        echo "FAIL $name: timeout after ${limit}s"
        tail -n 15 "$scratch/output" | sed 's/^/    | /'
        failed=$((failed + 1))
    elif [ -z "$hit" ]; then
        echo "FAIL $name: exit $rc but no line matches /$expect/ (${secs}s)"
        tail -n 15 "$scratch/output" | sed 's/^/    | /'
        failed=$((failed + 1))
    else
        echo "PASS $name: caught (exit $rc, ${secs}s): $(echo "$hit" | cut -c1-150)"
        passed=$((passed + 1))
    fi
    if [ $keep = 0 ] && [ $rc != 0 ] && [ -n "$hit" ]; then
        rm -rf "$scratch"
    fi
done
[ $left_out = 0 ] || echo "controls: $left_out guest case(s) left out (--no-guest)"
echo "$passed passed, $failed failed"
[ $failed = 0 ] && [ $passed -gt 0 ]
