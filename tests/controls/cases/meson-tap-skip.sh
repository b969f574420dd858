#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# meson calls a TAP test OK when only some of its subtests skip (as
# test-ddf's mdadm subtests can): a real meson project with such a test,
# its real testlog.json, and count_meson must fail it.
#@ expect count: unit \(control\) tap-sample: subtest skipped
. tests/controls/lib.sh
. scripts/lib-count.sh
p="$CONTROL_TMP/proj"
mkdir -p "$p"
cp tests/controls/tap-sample.c "$p/"
cat > "$p/meson.build" <<'EOM'
project('control', 'c')
exe = executable('tap-sample', 'tap-sample.c',
                 dependencies: dependency('glib-2.0'))
test('tap-sample', exe, protocol: 'tap', args: ['--tap'],
     env: {'CONTROL_TAP': 'skip'})
EOM
(meson setup "$p/build" "$p" && meson test -C "$p/build") > "$CONTROL_TMP/meson.out" 2>&1
# Show that meson itself let it through.
grep -q '"result": "OK"' "$p/build/meson-logs/testlog.json" ||
    { cat "$CONTROL_TMP/meson.out"; echo "control: meson did not report OK"; }
count_meson "$p/build/meson-logs/testlog.json" "unit (control)"
