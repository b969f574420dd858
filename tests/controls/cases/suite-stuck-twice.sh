#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A test whose guest vCPU is stuck (run.sh status 122) in both of its
# runs: run-suite.sh runs it a second time, and when that one is stuck
# too the test fails, its result naming the first run's log.  A stand-in
# run.sh (MRSIM_GUEST_RUN) answers 122 every time.
#@ expect FAIL 6\.12/stuck \(log: /stand-in/second\.log.*\) \(run twice: the first run's guest vCPU was stuck, log: /stand-in/first\.log\)
. tests/controls/lib.sh
control_fake_image
control_guest_test stuck 'true' > /dev/null
cat > "$CONTROL_TMP/run.sh" <<EOS
#!/bin/bash
n=first
[ ! -f "$CONTROL_TMP/ran" ] || n=second
touch "$CONTROL_TMP/ran"
echo "run: FAIL 6.12/stuck in 1.0s: guest vCPU stuck: stand-in"
echo "log: /stand-in/\$n.log"
exit 122
EOS
chmod +x "$CONTROL_TMP/run.sh"
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" MRSIM_GUEST_RUN="$CONTROL_TMP/run.sh" \
    tests/guest/run-suite.sh --kernel 6.12
