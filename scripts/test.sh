#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs every test of the project: installs what is missing, builds the
# standalone core (plain and with ASan/UBSan) and runs its unit tests, builds
# QEMU with our devices and runs our qtests, then boots Debian's 6.1 and 6.12
# kernels under TCG for the guest tests.  Ends with "N passed, N failed".
#
#   scripts/test.sh [--no-guest]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
guest=1
[ "${1:-}" = "--no-guest" ] && guest=0

passed=0
failed=0
failures=()

count() {   # stage, passed, failed
    passed=$((passed + $2))
    failed=$((failed + $3))
    echo "== $1: $2 passed, $3 failed"
}

fail_stage() {
    failed=$((failed + 1))
    failures+=("$1")
    echo "== $1: FAILED"
}

# Count meson's results from its JSON test log.
meson_counts() {   # builddir stage
    local log="$1/meson-logs/testlog.json" p f
    p=$(grep -c '"result": "OK"' "$log" 2>/dev/null)
    f=$(grep -Ec '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' "$log" \
        2>/dev/null)
    if [ "$(grep -c '"result": "SKIP"' "$log" 2>/dev/null)" != 0 ]; then
        echo "== $2: skipped tests count as failures"
        f=$((f + $(grep -c '"result": "SKIP"' "$log")))
    fi
    [ "$f" != 0 ] && failures+=("$2")
    count "$2" "${p:-0}" "${f:-0}"
}

"$top/scripts/setup.sh" || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

# 1. The RAID core and host tools, standalone.
if [ -f meson.build ]; then
    for v in core core-asan; do
        opts=()
        [ "$v" = core-asan ] && opts=(-Db_sanitize=address,undefined
                                       -Db_lundef=false)
        if [ ! -f "build/$v/build.ninja" ]; then
            meson setup "build/$v" "${opts[@]}" >/dev/null || {
                fail_stage "$v setup"; continue; }
        fi
        if ninja -C "build/$v" >"build/$v.log" 2>&1; then
            meson test -C "build/$v" --no-rebuild --print-errorlogs \
                >>"build/$v.log" 2>&1
            tail -n 15 "build/$v.log"
            meson_counts "build/$v" "unit ($v)"
        else
            tail -n 30 "build/$v.log"
            fail_stage "$v build"
        fi
    done
fi

# 1b. A bounded libFuzzer run of the DDF decoder (ASan + UBSan).
if [ -x tests/fuzz/ddf-fuzz.sh ]; then
    if tests/fuzz/ddf-fuzz.sh "${DDF_FUZZ_SECONDS:-30}"; then
        count "fuzz (DDF decoder)" 1 0
    else
        failures+=("fuzz (DDF decoder): build/fuzz-ddf/fuzz.log")
        count "fuzz (DDF decoder)" 0 1
    fi
fi

# 2. QEMU with our devices, and our qtests.
# *-test.c are qtests in QEMU's list; *-unit.c are unit tests built in
# the QEMU tree (they need QEMU's headers but no QEMU binary).
qtests=()
for f in tests/qtest/*-test.c; do
    [ -e "$f" ] && qtests+=("tests/qtest/$(basename "$f" .c)")
done
for f in tests/qtest/*-unit.c; do
    [ -e "$f" ] && qtests+=("tests/qtest/megaraid/$(basename "$f" .c)")
done
if scripts/build-qemu.sh qemu-system-x86_64 qemu-img "${qtests[@]}" \
        >build/qemu-build.log 2>&1; then
    echo "== QEMU built"
    for t in "${qtests[@]}"; do
        out="build/$(basename "$t").tap"
        (cd build/qemu && QTEST_QEMU_BINARY=./qemu-system-x86_64 \
            QTEST_QEMU_IMG=./qemu-img timeout 600 "./$t" --tap -k) >"$out" 2>&1
        rc=$?
        p=$(grep -Ec '^ok [0-9]+' "$out")
        f=$(grep -Ec '^not ok [0-9]+' "$out")
        s=$(grep -Eic '^ok [0-9]+.*# skip' "$out")
        p=$((p - s))
        f=$((f + s))
        if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
            f=1
        fi
        grep -E '^(not ok|ok)' "$out" | sed 's/^/   /'
        [ "$f" != 0 ] && failures+=("qtest $(basename "$t") (log: $out)")
        count "qtest $(basename "$t")" "$p" "$f"
    done
else
    tail -n 40 build/qemu-build.log
    fail_stage "QEMU build (log: build/qemu-build.log)"
fi

# 3. Guests: Debian's kernels with unmodified drivers, under TCG.
if [ $guest = 1 ] && [ -x tests/guest/run-suite.sh ] &&
   [ -x build/qemu/qemu-system-x86_64 ]; then
    # Two guests at a time: much of a guest's time is idle (boot, module
    # load, timers), so two share 2 cores well and the stage gets shorter.
    MRSIM_GUEST_JOBS=${MRSIM_GUEST_JOBS:-2} tests/guest/run-suite.sh |
        tee build/guest-suite.log
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' build/guest-suite.log |
           tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}
        f=${line#*passed, }
        f=${f%% failed*}
        [ "$f" != 0 ] && failures+=("guest suite (see above)")
        count "guest" "$p" "$f"
    else
        fail_stage "guest suite (no result line)"
    fi
fi

echo
if [ ${#failures[@]} -gt 0 ]; then
    echo "Failures:"
    printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
