#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# raidsim --plot: draws a PNG with gnuplot, refuses --plot without
# --reference, and exits non-zero naming the package when gnuplot is
# missing.  Usage: raidsim-plot.sh PATH-TO-RAIDSIM
set -u
raidsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }
echo "1..4"
"$raidsim" --plot "$tmp/a.png" >/dev/null 2>"$tmp/err1"; rc=$?
check "--plot without --reference refused" \
    '[ $rc = 1 ] && grep -q "needs --reference" "$tmp/err1"'
"$raidsim" --reference 9670w --plot "$tmp/b.png" >/dev/null 2>"$tmp/err2"; rc=$?
check "--plot draws a PNG" \
    '[ $rc = 0 ] && [ "$(head -c 4 "$tmp/b.png" | tail -c 3)" = PNG ]'
PATH=/nonexistent "$raidsim" --reference 9670w --plot "$tmp/c.png" \
    >/dev/null 2>"$tmp/err3"; rc=$?
check "missing gnuplot: exit 1" '[ $rc = 1 ]'
check "missing gnuplot: names gnuplot-nox" 'grep -q "gnuplot-nox" "$tmp/err3"'
exit $fail
