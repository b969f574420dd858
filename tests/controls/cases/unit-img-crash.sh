#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/test-img.c's expect_fail: a megaraid-img that crashes (SIGSEGV)
# whenever it would fail must not count as "failed as expected"; test-img
# must fail on the crash.  (test-img's own /img/expect-fail-self-test also
# feeds the check crashes, wrong statuses and missing messages.)
#@ expect crashed \(killed by signal 11 .*\) instead of exit status 1
. tests/controls/lib.sh
. tests/controls/lib-host.sh
build=${CONTROL_CORE_BUILD:-build/core}
real=$(host_real_img) || { echo "control setup: no megaraid-img"; exit 99; }
host_setup "build test-img in $build" \
    flock build/core.lock ninja -C "$build" test-img
cat > "$CONTROL_TMP/megaraid-img" <<EOS
#!/bin/bash
"$real" "\$@"
rc=\$?
[ \$rc = 0 ] || kill -SEGV \$\$
exit 0
EOS
chmod +x "$CONTROL_TMP/megaraid-img"
cd "$CONTROL_TMP" && ulimit -c 0 &&
    MEGARAID_IMG="$CONTROL_TMP/megaraid-img" "$CONTROL_TOP/$build/test-img" \
        -p /img/create-errors
