#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/ddf-fuzz.sh with a fuzzer that exits 0 at once without
# running a single input: the script must not count that as a clean run.
# (CC stands in for clang and builds that fuzzer instead of the DDF one.)
#@ expect ^ddf-fuzz: the fuzzer did not finish its run
. tests/controls/lib.sh
printf 'int main(void)\n{\n    return 0;\n}\n' > "$CONTROL_TMP/empty.c"
control_ddf_fuzz_with "$CONTROL_TMP/empty.c"
