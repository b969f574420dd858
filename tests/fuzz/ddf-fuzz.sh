#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bounded libFuzzer run of the DDF decoder (for CI): builds the target with
# clang, ASan and UBSan, seeds it with tests/fuzz/ddf-corpus and runs for
# SECONDS (default 60) on one core.  New inputs go to a scratch corpus;
# pass --merge to fold interesting ones back into the regression corpus.
# Exits non-zero on a crash, leak or sanitizer report (the input is kept
# in the scratch directory).
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
    $(pkg-config --libs glib-2.0) -o "$out/ddf-fuzz"
cd "$out"
./ddf-fuzz -max_total_time="$secs" -max_len=400000 -rss_limit_mb=1024 \
    -print_final_stats=1 corpus "$top/tests/fuzz/ddf-corpus" 2>&1 |
    tee fuzz.log | grep -E "^#[0-9]+ +DONE|^stat::|ERROR|SUMMARY" || true
if grep -qE "ERROR: (libFuzzer|AddressSanitizer)|runtime error|SUMMARY:" \
        fuzz.log; then
    echo "ddf-fuzz: failure, see $out/fuzz.log and $out/crash-*" >&2
    exit 1
fi
if [ -n "$merge" ]; then
    ./ddf-fuzz -merge=1 "$top/tests/fuzz/ddf-corpus" corpus
fi
