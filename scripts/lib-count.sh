# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Counting of test results, sourced by scripts/test.sh; the negative
# controls (tests/controls/cases/) call the same functions on crafted
# input.  Strict everywhere: a skipped test or subtest is a failure, and so
# are a run that reports no tests at all, a TAP plan that does not match
# the results, and a summary line that disagrees with the result lines.
#
# Every count_* function sets CNT_PASS and CNT_FAIL, prints one
# "count: LABEL: ..." line per problem it finds, and returns 0 only when
# CNT_FAIL is 0 and CNT_PASS is above 0.

# count_tap FILE LABEL [STATUS]: a TAP stream (GLib's --tap output, meson's
# copy of a TAP test's stdout).  "ok" counts as a pass, "not ok", an
# "ok ... # SKIP" and any "# TODO" as failures; a missing or wrong plan
# ("1..N"), "Bail out!", no test lines, or a non-zero STATUS (the binary's
# exit status) when nothing else failed add a failure.
count_tap() {
    local file=$1 label=$2 status=${3:-0} res
    res=$(tr -d '\r' < "$file" 2>/dev/null | awk -v label="$label" '
        function problem(m) { print "count: " label ": " m; bad++ }
        /^1\.\.[0-9]+/ {
            if (plans++) problem("more than one plan line")
            plan = substr($1, 4) + 0
            if (tolower($0) ~ /# *skip/) problem("whole run skipped: " $0)
            next
        }
        /^(not )?ok([ \t]|$)/ {
            n++
            if ($0 ~ /^not ok/) { problem("failed: " $0); next }
            if (tolower($0) ~ /#[ \t]*skip/) { problem("subtest skipped: " $0); next }
            if (tolower($0) ~ /#[ \t]*todo/) { problem("subtest TODO: " $0); next }
            pass++
            next
        }
        /^Bail out!/ { problem($0) }
        END {
            if (n == 0) problem("no tests")
            if (!plans) { if (n) problem("no TAP plan (1..N)") }
            else if (plan != n) problem("plan says " plan " tests, " n " reported")
            print "=" pass + 0, bad + 0
        }')
    printf '%s\n' "$res" | grep -v '^='
    res=$(printf '%s\n' "$res" | sed -n 's/^=//p')
    CNT_PASS=${res% *}
    CNT_FAIL=${res#* }
    if [ "$status" != 0 ] && [ "$CNT_FAIL" = 0 ]; then
        echo "count: $label: exit status $status"
        CNT_FAIL=1
    fi
    [ "$CNT_FAIL" = 0 ] && [ "$CNT_PASS" -gt 0 ]
}

# count_meson LOG LABEL: meson's testlog.json.  Each TAP test counts its
# subtests (count_tap over the stdout meson kept): meson itself calls a
# TAP test OK when only some of its subtests skipped.  A test whose stdout
# has no TAP at all (no plan, no result line: an exitcode test) counts as
# one test.  A test whose result is not OK (SKIP included) fails even when
# its TAP looks clean.
count_meson() {
    local log=$1 label=$2 dir name result rc p=0 f=0
    if [ ! -s "$log" ]; then
        echo "count: $label: no meson test log $log"
        CNT_PASS=0 CNT_FAIL=1
        return 1
    fi
    dir=$(mktemp -d)
    # One folder per test: name, result, returncode, stdout.
    if ! python3 - "$log" "$dir" <<'EOF'
import json, os, sys
for i, line in enumerate(open(sys.argv[1])):
    t = json.loads(line)
    d = os.path.join(sys.argv[2], '%04d' % i)
    os.mkdir(d)
    for k in ('name', 'result', 'returncode', 'stdout'):
        with open(os.path.join(d, k), 'w') as f:
            f.write(str(t.get(k, '')))
EOF
    then
        echo "count: $label: cannot read $log"
        rm -rf "$dir"
        CNT_PASS=0 CNT_FAIL=1
        return 1
    fi
    for t in "$dir"/*; do
        [ -d "$t" ] || continue
        name=$(cat "$t/name")
        result=$(cat "$t/result")
        rc=$(cat "$t/returncode")
        if grep -qE '^(1\.\.[0-9]+|(not )?ok([[:space:]]|$))' "$t/stdout"; then
            count_tap "$t/stdout" "$label $name" "$rc"
        elif [ "$result" = OK ] && [ "$rc" = 0 ]; then
            CNT_PASS=1 CNT_FAIL=0
        else
            CNT_PASS=0 CNT_FAIL=1
        fi
        if [ "$result" != OK ]; then
            echo "count: $label $name: meson result $result"
            [ "$CNT_FAIL" != 0 ] || CNT_FAIL=1
        fi
        p=$((p + CNT_PASS))
        f=$((f + CNT_FAIL))
    done
    rm -rf "$dir"
    CNT_PASS=$p CNT_FAIL=$f
    if [ "$p" = 0 ] && [ "$f" = 0 ]; then
        echo "count: $label: no tests in $log"
        CNT_FAIL=1
    fi
    [ "$CNT_FAIL" = 0 ] && [ "$CNT_PASS" -gt 0 ]
}

# count_summary LOG LABEL [RESULT-PREFIX [SUMMARY-PREFIX]]: the output of a
# runner that prints one "PASS ..." or "FAIL ..." line per run (after
# RESULT-PREFIX, e.g. "BASELINE ") and a last summary line
# "[SUMMARY-PREFIX]N passed, N failed" (run-suite.sh, tests/controls/run.sh).
# The summary must be there and agree with the result lines.
count_summary() {
    local log=$1 label=$2 rp=${3:-} sp=${4:-} line lp lf lines_failed
    line=$(grep -E "^${sp}[0-9]+ passed, [0-9]+ failed\$" "$log" 2>/dev/null |
           tail -n 1)
    lp=$(grep -c "^${rp}PASS " "$log" 2>/dev/null)
    lf=$(grep -c "^${rp}FAIL " "$log" 2>/dev/null)
    CNT_PASS=${lp:-0}
    CNT_FAIL=${lf:-0}
    if [ -z "$line" ]; then
        echo "count: $label: no '${sp}N passed, N failed' line"
        CNT_FAIL=$((CNT_FAIL + 1))
        return 1
    fi
    line=${line#"$sp"}
    lines_failed=${line#*passed, }
    if [ "${line%% passed*}" != "$lp" ] || [ "${lines_failed%% *}" != "$lf" ]; then
        echo "count: $label: summary '$line' but $lp PASS and $lf FAIL lines"
        CNT_FAIL=$((CNT_FAIL + 1))
    fi
    [ $((lp + lf)) -gt 0 ] || echo "count: $label: no tests"
    [ "$CNT_FAIL" = 0 ] && [ "$CNT_PASS" -gt 0 ]
}

# stage_add LABEL: adds CNT_PASS and CNT_FAIL to the totals of
# scripts/test.sh (TOTAL_PASS, TOTAL_FAIL, FAILURES) and prints the stage's
# line; a stage that reports no test at all is a failed stage.
stage_add() {
    if [ "${CNT_PASS:-0}" = 0 ] && [ "${CNT_FAIL:-0}" = 0 ]; then
        echo "count: $1: no tests"
        CNT_FAIL=1
    fi
    TOTAL_PASS=$(( ${TOTAL_PASS:-0} + ${CNT_PASS:-0} ))
    TOTAL_FAIL=$(( ${TOTAL_FAIL:-0} + ${CNT_FAIL:-0} ))
    if [ "${CNT_FAIL:-0}" != 0 ] || [ "${CNT_PASS:-0}" = 0 ]; then
        FAILURES+=("$1${2:+ ($2)}")
    fi
    echo "== $1: ${CNT_PASS:-0} passed, ${CNT_FAIL:-0} failed"
}
