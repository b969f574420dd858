#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/ddf-fuzz.sh with a fuzzer that dies of SIGKILL (as under the
# kernel's OOM killer) without a word in its log: the script must fail on
# the fuzzer's exit status.  (CC stands in for clang and builds that
# fuzzer instead of the DDF one.)
#@ expect ^ddf-fuzz: the fuzzer exited with status 137
. tests/controls/lib.sh
cat > "$CONTROL_TMP/killed.c" <<'EOS'
#include <signal.h>
#include <unistd.h>
int main(void)
{
    kill(getpid(), SIGKILL);
    return 0;
}
EOS
control_ddf_fuzz_with "$CONTROL_TMP/killed.c"
