#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs every test of the project: installs what is missing, checks the
# device tree's layer doors (scripts/check-layers.sh), builds the
# standalone core (plain and with ASan/UBSan) and runs its unit tests, and
# the parity's users without ISA-L, runs the DDF fuzzer, builds QEMU with our devices and runs our qtests and
# the option ROM's boot test (tests/uefi/boot-test.sh, OVMF), boots
# Debian's 6.1, 6.12 and sid's 7.2 kernels under TCG for the guest tests,
# and runs the negative controls (tests/controls/).  Ends with "N passed,
# N failed".
#
#   scripts/test.sh [--no-guest]
#
# Counting (scripts/lib-count.sh, which the controls exercise): every stage
# and every qtest binary must report more than zero tests; a skipped test
# or TAP subtest is a failure (meson calls a TAP test OK when only some of
# its subtests skip: its stdout is counted here); a guest run started but
# not reported is a failure; the guest suite's baseline runs (QEMU's own
# controllers) are a stage of their own, apart from the product's runs.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
guest=1
[ "${1:-}" = "--no-guest" ] && guest=0
# shellcheck source=scripts/lib-count.sh
. "$top/scripts/lib-count.sh"

TOTAL_PASS=0
TOTAL_FAIL=0
FAILURES=()

fail_stage() {
    CNT_PASS=0 CNT_FAIL=1
    stage_add "$1" "${2:-}"
}

"$top/scripts/setup.sh" || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p build

# 0. The device tree's doors (docs/dev/architecture.md): personalities
# include only public core headers, layers include only the layers below.
if scripts/check-layers.sh >build/check-layers.log 2>&1; then
    CNT_PASS=1 CNT_FAIL=0
else
    cat build/check-layers.log
    CNT_PASS=0 CNT_FAIL=1
fi
stage_add "layers (scripts/check-layers.sh)" "log: build/check-layers.log"

# 1. The RAID core and host tools, standalone.
if [ ! -f meson.build ]; then
    fail_stage "unit (no meson.build)"
fi
for v in core core-asan; do
    [ -f meson.build ] || break
    opts=()
    [ "$v" = core-asan ] && opts=("-Db_sanitize=address,undefined"
                                   -Db_lundef=false)
    if [ ! -f "build/$v/build.ninja" ]; then
        meson setup "build/$v" "${opts[@]}" >/dev/null || {
            fail_stage "unit ($v): meson setup"; continue; }
    fi
    if ninja -C "build/$v" >"build/$v.log" 2>&1; then
        # A stale log of an earlier run must not be counted.
        rm -f "build/$v/meson-logs/testlog.json"
        meson test -C "build/$v" --no-rebuild --print-errorlogs \
            >>"build/$v.log" 2>&1
        tail -n 15 "build/$v.log"
        count_meson "build/$v/meson-logs/testlog.json" "unit ($v)"
        stage_add "unit ($v)" "log: build/$v.log"
    else
        tail -n 30 "build/$v.log"
        fail_stage "unit ($v): build" "log: build/$v.log"
    fi
done

# 1a. The core without ISA-L (-Disal=disabled, as on a host without
# libisal-dev): the parity's users and CRC-32C on the reference code.
noisal_tests=(test-parity test-crc32c test-plan test-concurrency test-job
              test-property)
if [ -f meson.build ]; then
    v=core-noisal
    if [ -f "build/$v/build.ninja" ] ||
       meson setup "build/$v" -Disal=disabled >/dev/null; then
        if ninja -C "build/$v" "${noisal_tests[@]}" >"build/$v.log" 2>&1; then
            rm -f "build/$v/meson-logs/testlog.json"
            meson test -C "build/$v" --no-rebuild --print-errorlogs \
                "${noisal_tests[@]}" >>"build/$v.log" 2>&1
            tail -n 12 "build/$v.log"
            count_meson "build/$v/meson-logs/testlog.json" "unit ($v)"
            stage_add "unit ($v)" "log: build/$v.log"
        else
            tail -n 30 "build/$v.log"
            fail_stage "unit ($v): build" "log: build/$v.log"
        fi
    else
        fail_stage "unit ($v): meson setup"
    fi
fi

# 1b. A bounded libFuzzer run of the DDF decoder (ASan + UBSan); the
# script's status is the fuzzer's.
if [ -x tests/fuzz/ddf-fuzz.sh ]; then
    if tests/fuzz/ddf-fuzz.sh "${DDF_FUZZ_SECONDS:-30}"; then
        CNT_PASS=1 CNT_FAIL=0
    else
        CNT_PASS=0 CNT_FAIL=1
    fi
    stage_add "fuzz (DDF decoder)" "log: build/fuzz-ddf/fuzz.log"
else
    fail_stage "fuzz (DDF decoder): tests/fuzz/ddf-fuzz.sh missing"
fi

# 2. QEMU with our devices, and our qtests.
# tests/qtest/*-test.c are qtests in QEMU's list; tests/unit-qemu/*-unit.c
# are unit tests built in the QEMU tree (they need QEMU's headers but no
# QEMU binary; the hook links the folder as tests/megaraid-unit).  Each
# binary is a stage: it must report tests, none skipped.
qtests=()
for f in tests/qtest/*-test.c; do
    [ -e "$f" ] && qtests+=("tests/qtest/$(basename "$f" .c)")
done
for f in tests/unit-qemu/*-unit.c; do
    [ -e "$f" ] && qtests+=("tests/megaraid-unit/$(basename "$f" .c)")
done
[ ${#qtests[@]} -gt 0 ] || fail_stage "qtest: no tests/qtest/*-test.c"
if scripts/build-qemu.sh qemu-system-x86_64 qemu-img "${qtests[@]}" \
        >build/qemu-build.log 2>&1; then
    echo "== QEMU built"
    for t in "${qtests[@]}"; do
        out="build/$(basename "$t").tap"
        (cd build/qemu && QTEST_QEMU_BINARY=./qemu-system-x86_64 \
            QTEST_QEMU_IMG=./qemu-img timeout 600 "./$t" --tap -k) >"$out" 2>&1
        rc=$?
        grep -E '^(not ok|ok)' "$out" | sed 's/^/   /'
        count_tap "$out" "qtest $(basename "$t")" "$rc"
        stage_add "qtest $(basename "$t")" "log: $out"
    done
    # the command lines of README.md and the first-five-minutes page, as
    # written (tests/docs/readme-commands.py), against this build
    out=build/readme-commands.tap
    tests/docs/readme-commands.py . README.md docs/first-five-minutes.md \
        >"$out" 2>&1
    rc=$?
    grep -E '^(not ok|ok)' "$out" | sed 's/^/   /'
    count_tap "$out" "docs: command lines" "$rc"
    stage_add "docs: command lines" "log: $out"
    # the option ROMs: OVMF (bookworm's, and sid's: tests/uefi/fetch-ovmf.sh)
    # boots from a VD through our UEFI driver, on each controller
    sid_ovmf=$(tests/uefi/fetch-ovmf.sh 2>build/fetch-ovmf.log) || sid_ovmf=""
    [ -n "$sid_ovmf" ] || fail_stage "uefi: sid's OVMF" "log: build/fetch-ovmf.log"
    for c in megaraid-9600 megaraid-9500; do
        for fw in /usr/share/OVMF/OVMF_CODE_4M.fd $sid_ovmf; do
            case "$fw" in /usr/share/*) v=bookworm ;; *) v=sid ;; esac
            out=build/uefi-boot-$c-$v.tap
            tests/uefi/boot-test.sh --controller "$c" "$fw" >"$out" 2>&1
            rc=$?
            grep -E '^(not ok|ok)' "$out" | sed 's/^/   /'
            count_tap "$out" "uefi: boot from a VD ($c, $v OVMF)" "$rc"
            stage_add "uefi: boot from a VD ($c, $v OVMF)" "log: $out"
        done
    done
    # ... and a Linux system with its root on a RAID 5 VD: mpi3mr on the
    # 6.12 guest kernel, megaraid_sas on 6.1
    for ck in megaraid-9600:6.12 megaraid-9500:6.1; do
        out=build/uefi-linux-${ck%:*}.tap
        tests/uefi/boot-linux.sh --controller "${ck%:*}" "${ck#*:}" \
            >"$out" 2>&1
        rc=$?
        grep -E '^(not ok|ok)' "$out" | sed 's/^/   /'
        count_tap "$out" "uefi: Linux root on a RAID 5 VD (${ck%:*}, ${ck#*:})" "$rc"
        stage_add "uefi: Linux root on a RAID 5 VD (${ck%:*}, ${ck#*:})" \
            "log: $out"
    done
else
    tail -n 40 build/qemu-build.log
    fail_stage "QEMU build" "log: build/qemu-build.log"
fi

# 3. Guests: Debian's kernels with unmodified drivers, under TCG.  The
# baseline runs (virtio-scsi, megasas-gen2: QEMU's devices, not ours) are
# counted as their own stage.
if [ $guest = 1 ]; then
    if [ ! -x build/qemu/qemu-system-x86_64 ]; then
        fail_stage "guest suite: no build/qemu/qemu-system-x86_64"
    else
        # Two guests at a time: much of a guest's time is idle (boot,
        # module load, timers), so two share 2 cores well.
        MRSIM_GUEST_JOBS=${MRSIM_GUEST_JOBS:-2} tests/guest/run-suite.sh |
            tee build/guest-suite.log
        count_summary build/guest-suite.log "guest" "" ""
        stage_add "guest" "log: build/guest-suite.log"
        count_summary build/guest-suite.log "guest baseline" "BASELINE " \
            "baseline: "
        stage_add "guest baseline (QEMU's own controllers)" \
            "log: build/guest-suite.log"
    fi
fi

# 4. Negative controls: each breaks one check on purpose and expects it to
# fail (without guests, only the cases that need no guest).
ctl_opts=()
[ $guest = 1 ] || ctl_opts=(--no-guest)
tests/controls/run.sh ${ctl_opts[@]+"${ctl_opts[@]}"} 2>&1 |
    tee build/controls.log
count_summary build/controls.log "negative controls" "" ""
stage_add "negative controls" "log: build/controls.log"

echo
# The end of each failed guest run's log (a CI that keeps only this
# output still shows where the run stopped: the last console lines of a
# timeout, the failed check).
if [ -f build/guest-suite.log ]; then
    sed -n 's/^FAIL \([^ ]*\) (log: \([^;)]*\).*/\1 \2/p' \
        build/guest-suite.log | head -n 6 |
    while read -r run log; do
        [ -f "$log" ] || continue
        echo "-- $run: the end of $log"
        grep -avE '^(QMP-RELAY|<[4-7]>|@@MRSIM-|#[0-9]|Thread )' "$log" | tail -n 12 |
            cut -c1-160 | sed 's/^/   | /'
    done
fi
if [ ${#FAILURES[@]} -gt 0 ]; then
    echo "Failures:"
    printf '  %s\n' "${FAILURES[@]}"
fi
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" = 0 ] && [ "$TOTAL_PASS" -gt 0 ]
