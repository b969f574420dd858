#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/ddf-fuzz.sh with a fuzzer that exits 0 at once without
# running a single input: the script must not count that as a clean run.
# (CC stands in for clang and builds that fuzzer instead of the DDF one.)
#@ expect ^ddf-fuzz: the fuzzer did not finish its run
. tests/controls/lib.sh
printf 'int main(void)\n{\n    return 0;\n}\n' > "$CONTROL_TMP/empty.c"
cat > "$CONTROL_TMP/cc" <<EOS
#!/bin/bash
# CC stand-in of control $CONTROL_NAME: builds empty.c into the -o file.
out=""
while [ \$# -gt 0 ]; do
    [ "\$1" != -o ] || out=\$2
    shift
done
exec cc -o "\$out" "$CONTROL_TMP/empty.c"
EOS
chmod +x "$CONTROL_TMP/cc"
CC="$CONTROL_TMP/cc" DDF_FUZZ_DIR="$CONTROL_TMP/fuzz" tests/fuzz/ddf-fuzz.sh 5
