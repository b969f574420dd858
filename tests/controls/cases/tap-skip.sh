#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A GLib test binary with one subtest calling g_test_skip() ("ok 2 ... #
# SKIP", exit 0): count_tap must count the skip as a failure.
#@ expect count: tap-sample: subtest skipped: ok 2 /control/skip # SKIP
. tests/controls/lib.sh
. scripts/lib-count.sh
bin=$(control_tap_sample) || exit 1
CONTROL_TAP=skip "$bin" --tap -k > "$CONTROL_TMP/skip.tap"
count_tap "$CONTROL_TMP/skip.tap" "tap-sample" $?
