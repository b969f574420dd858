#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bounded libFuzzer run of the DDF decoder (for CI): builds the target with
# clang, ASan and UBSan, seeds it with tests/fuzz/ddf-corpus and runs for
# SECONDS (default 60) on one core.  New inputs go to a scratch corpus;
# pass --merge to fold interesting ones back into the regression corpus.
# Exits non-zero when the fuzzer does (crash, leak, timeout, out of
# memory: the input is kept in the scratch directory), when its log has a
# sanitizer report, or when it did not finish its run ("Done N runs").
# DDF_FUZZ_DIR: the scratch folder (default build/fuzz-ddf); CC: the
# compiler (default clang).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=60
merge=
for a in "$@"; do
    case "$a" in
    --merge) merge=1 ;;
    [0-9]*) secs=$a ;;
    *) echo "usage: $0 [SECONDS] [--merge]" >&2; exit 2 ;;
    esac
done
out=${DDF_FUZZ_DIR:-$top/build/fuzz-ddf}
mkdir -p "$out/corpus"
CC=${CC:-clang}
# shellcheck disable=SC2046
$CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$top/include" $(pkg-config --cflags glib-2.0) \
    "$top/tests/fuzz/ddf-fuzz.c" \
    "$top/hw/raid/ddf-crc.c" "$top/hw/raid/ddf-meta.c" \
    "$top/hw/raid/ddf-encode.c" "$top/hw/raid/ddf-decode.c" \
    "$top/hw/raid/ddf-config.c" "$top/hw/raid/config.c" \
    "$top/hw/raid/config-state.c" "$top/hw/raid/geometry.c" \
    "$top/hw/raid/copyback.c" \
    $(pkg-config --libs glib-2.0) -o "$out/ddf-fuzz"
cd "$out"
rm -f fuzz.log
rc=0
./ddf-fuzz -max_total_time="$secs" -max_len=400000 -rss_limit_mb=1024 \
    -print_final_stats=1 corpus "$top/tests/fuzz/ddf-corpus" \
    > fuzz.log 2>&1 || rc=$?
grep -E "^Done [0-9]+ runs|^#[0-9]+ +DONE|^stat::|ERROR|SUMMARY" fuzz.log || true
if [ "$rc" != 0 ]; then
    echo "ddf-fuzz: the fuzzer exited with status $rc (crash, leak," \
         "timeout or out of memory), see $out/fuzz.log and $out/crash-*" >&2
    tail -n 20 fuzz.log >&2
    exit 1
fi
if grep -qE "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|SUMMARY:" \
        fuzz.log; then
    echo "ddf-fuzz: sanitizer report in $out/fuzz.log (see $out/crash-*)" >&2
    exit 1
fi
if ! grep -qE "^Done [1-9][0-9]* runs in" fuzz.log; then
    echo "ddf-fuzz: the fuzzer did not finish its run (no 'Done N runs'" \
         "line in $out/fuzz.log)" >&2
    tail -n 20 fuzz.log >&2
    exit 1
fi
if [ -n "$merge" ]; then
    ./ddf-fuzz -merge=1 "$top/tests/fuzz/ddf-corpus" corpus
fi
