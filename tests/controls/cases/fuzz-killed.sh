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
cat > "$CONTROL_TMP/cc" <<EOS
#!/bin/bash
# CC stand-in of control $CONTROL_NAME: builds killed.c into the -o file.
out=""
while [ \$# -gt 0 ]; do
    [ "\$1" != -o ] || out=\$2
    shift
done
exec cc -o "\$out" "$CONTROL_TMP/killed.c"
EOS
chmod +x "$CONTROL_TMP/cc"
CC="$CONTROL_TMP/cc" DDF_FUZZ_DIR="$CONTROL_TMP/fuzz" tests/fuzz/ddf-fuzz.sh 5
