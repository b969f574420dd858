#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A GLib test binary that registers no test (as megaraid-9600-test does
# when QEMU lacks the device) prints "1..0" and exits 0: the qtest
# stage's counting (count_tap + stage_add, as scripts/test.sh calls them)
# must call it a failure; the same binary with tests must pass.
#@ expect count: qtest tap-sample: no tests
. tests/controls/lib.sh
. scripts/lib-count.sh
bin=$(control_tap_sample) || exit 1
CONTROL_TAP=pass "$bin" --tap -k > "$CONTROL_TMP/pass.tap"
if ! count_tap "$CONTROL_TMP/pass.tap" "sanity" $?; then
    echo "control: a clean TAP run is refused too"; exit 0
fi
CONTROL_TAP=none "$bin" --tap -k > "$CONTROL_TMP/none.tap"
rc=$?
count_tap "$CONTROL_TMP/none.tap" "qtest tap-sample" "$rc"
stage_add "qtest tap-sample"
[ "${#FAILURES[@]}" = 1 ] || exit 0
exit 1
