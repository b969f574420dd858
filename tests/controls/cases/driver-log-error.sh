#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guests' driver log checks (lib.sh driver_log, through lib-mr9500.sh's
# mr9500_driver_log and lib-mr9600.sh's mr9600_driver_log), run on the
# host with only dmesg faked: a clean megaraid_sas and mpi3mr log must
# pass, an allowed error line must pass, and a megaraid_sas log with a
# failure line must fail naming it (else the check passes everything).
#@ expect megaraid_sas logged errors: .*megasas: fake firmware failure
set -u
cd "$CONTROL_TOP" || exit 0

# check LIB FUNCTION [ALLOW] -- LINE...: runs FUNCTION of LIB over a fake
# kernel log made of LINEs; its output and status.
check() {
    local lib=$1 fn=$2 allow=$3
    shift 4
    bash -c '
        lines=$1 lib=$2 fn=$3 allow=$4
        dmesg() { printf "%s\n" "$lines"; }
        . tests/guest/lib.sh
        . "$lib"
        if [ -n "$allow" ]; then "$fn" "$allow"; else "$fn"; fi
    ' check "$(printf '%s\n' "$@")" "$lib" "$fn" "$allow"
}

ok95='megaraid_sas 0000:00:10.0: INIT adapter done'
ok96a='mpi3mr0: controller initialization completed successfully'
ok96b='mpi3mr0: port enable is successfully completed'
bad='megaraid_sas 0000:00:10.0: megasas: fake firmware failure'
if ! check tests/guest/lib-mr9500.sh mr9500_driver_log "" -- "$ok95" \
        > "$CONTROL_TMP/clean95.out" 2>&1; then
    echo "control: a clean megaraid_sas log failed:"
    cat "$CONTROL_TMP/clean95.out"
    exit 0
fi
if ! check tests/guest/lib-mr9600.sh mr9600_driver_log "" -- "$ok96a" \
        "$ok96b" > "$CONTROL_TMP/clean96.out" 2>&1; then
    echo "control: a clean mpi3mr log failed:"
    cat "$CONTROL_TMP/clean96.out"
    exit 0
fi
if check tests/guest/lib-mr9600.sh mr9600_driver_log "" -- "$ok96a" \
        > "$CONTROL_TMP/noport.out" 2>&1; then
    echo "control: an mpi3mr log without port enable passed"
    exit 0
fi
if ! check tests/guest/lib-mr9500.sh mr9500_driver_log 'fake firmware' \
        -- "$ok95" "$bad" > "$CONTROL_TMP/allowed.out" 2>&1; then
    echo "control: the allowed failure line failed the check:"
    cat "$CONTROL_TMP/allowed.out"
    exit 0
fi
check tests/guest/lib-mr9500.sh mr9500_driver_log "" -- "$ok95" "$bad"
