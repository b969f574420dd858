#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One run of the suite dies without reporting (its runner process is
# killed): the number of results must still equal the runs started, the
# lost one a FAIL.  A stand-in run.sh (MRSIM_GUEST_RUN) passes "good" and
# SIGKILLs run-suite's runner of "lost".
#@ expect FAIL 6\.12/lost \(no result reported
. tests/controls/lib.sh
control_fake_image
control_guest_test good 'true' > /dev/null
control_guest_test lost 'true' > /dev/null
cat > "$CONTROL_TMP/run.sh" <<'EOS'
#!/bin/bash
case "$*" in
*/lost.sh*)
    # Our parent is the $(...) of run_one; its parent the job running it.
    kill -9 "$(ps -o ppid= -p "$PPID" | tr -d ' ')" ;;
esac
echo "run: PASS stand-in"
EOS
chmod +x "$CONTROL_TMP/run.sh"
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" MRSIM_GUEST_RUN="$CONTROL_TMP/run.sh" \
    tests/guest/run-suite.sh --kernel 6.12 --jobs 2
