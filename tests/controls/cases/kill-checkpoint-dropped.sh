#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-kill whose rebuild restarts from row 0 after the SIGKILL: phase 2
# boots on copies of the rr drives, made before phase 1, in which
# megaraid-img failed rr-m1 and put the spare in its place (the same
# rebuild, with its cursor at row 0), as if the checkpoints were never
# written.  The real resume check must fail.  The test runs from a
# throwaway copy of raid-kill.sh whose "#@" header lines alone differ
# (checked below).
#@ expect the rebuild resumed at row [0-9]+, behind its checkpoint at row [0-9]+
#@ guest
#@ timeout 1200
. tests/controls/lib.sh
real=tests/guest/tests/raid-kill.sh
mkdir -p "$CONTROL_TMP/tests"
copy=$CONTROL_TMP/tests/raid-kill.sh
hook=$CONTROL_TMP/rr-from-zero.sh
cat > "$hook" <<'EOS'
# rr-from-zero.sh WORK: rr's drives with a rebuild cursor at row 0, and
# the QEMU arguments of every phase with them in place of rr's drives.
set -euo pipefail
w=$1
img=$(tests/guest/host-megaraid-img.sh)
imgs=()
for d in rr-m0 rr-m1 rr-m2 rr-s0; do
    cp --sparse=always "$w/$d.img" "$w/$d.zero.img"
    imgs+=("$w/$d.zero.img")
done
"$img" fail -d "$w/rr-m1.zero.img" "${imgs[@]}"
"$img" replace -d "$w/rr-m1.zero.img" "${imgs[@]}"
"$img" show "${imgs[@]}"
"$img" show "${imgs[@]}" | grep -q 'rebuild: 0% (row 0 of' ||
    { echo "rr-from-zero: no rebuild at 0% in the copies" >&2; exit 1; }
sed 's,/\(rr-[ms][0-9]\)\.img,/\1.zero.img,' "$w/qemu-all.args" > "$w/qemu-all-zero.args"
[ "$(grep -c '\.zero\.img' "$w/qemu-all-zero.args")" = 4 ] ||
    { echo "rr-from-zero: rr's 4 drives not found in qemu-all.args" >&2; exit 1; }
EOS
sed 's|^#@ qemu-args @WORK@/qemu-all.args$|#@ qemu-args@1 @WORK@/qemu-all.args\
#@ qemu-args@2 @WORK@/qemu-all-zero.args|
s|^#@ qemu-args @WORK@/qemu-p1.args$|#@ qemu-args @WORK@/qemu-p1.args\
#@ prepare bash '"$hook"' @WORK@|' "$real" > "$copy"
grep -q '^#@ qemu-args@2 @WORK@/qemu-all-zero.args$' "$copy" &&
    grep -q "^#@ prepare bash $hook @WORK@\$" "$copy" ||
    { echo "control: raid-kill.sh's header changed: cannot swap rr's drives"; exit 2; }
if ! diff <(grep -v '^#@' "$real") <(grep -v '^#@' "$copy") > /dev/null; then
    echo "control: the copy differs from raid-kill.sh beyond its header"
    exit 2
fi
tests/guest/run.sh --kernel 6.12 --script "$copy" --verbose
