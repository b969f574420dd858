#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/qtest/megaraid-img-test.c: a megaraid-img whose "fail" goes
# through beside a running QEMU (no lock check) must fail the qtest.
#@ expect megaraid-img fail beside a running QEMU: status 0, not a lock refusal
. tests/controls/lib.sh
. tests/controls/lib-host.sh
t=build/qemu/tests/qtest/megaraid-img-test
[ -x "$t" ] || {
    echo "control setup: no $t (scripts/build-qemu.sh tests/qtest/megaraid-img-test)"
    exit 99
}
# shellcheck disable=SC2016
host_wrap_img '[ "$1" != fail ] || { echo "control: offline"; exit 0; }
exec "$real" "$@"'
cd build/qemu && ulimit -c 0 &&
    TMPDIR="$CONTROL_TMP" QTEST_QEMU_BINARY=./qemu-system-x86_64 \
    "./tests/qtest/megaraid-img-test" --tap -p /x86_64/megaraid-img/locks/running-vm
