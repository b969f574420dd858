#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mrcli without a controller (the standalone build's unit stage): usage
# errors exit 2 with a Failure document, a missing controller exits 3,
# help exits 0, and every JSON document validates against the guest
# tests' schema (tests/guest/mrcli.schema.json).  The commands against a
# real controller are the guest tests tests/guest/tests/mrcli-*.sh.
#
#   tools/mrcli/test-cli.sh MRCLI SOURCE-DIR
set -euo pipefail
mrcli=$1
src=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fails=0
n=0

# expect STATUS ARGS...: mrcli ARGS exits STATUS; with J its JSON goes to
# the schema check.
expect() {
    local want=$1 rc=0 label
    shift
    n=$((n + 1))
    out=$("$mrcli" "$@" 2>/dev/null) || rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: mrcli $*: exit status $rc, expected $want"
        fails=$((fails + 1))
    fi
    if [ "${*: -1}" = J ]; then
        label=$n-refused
        [ "$want" != 0 ] || label=$n-ok
        printf '@@MRCLI-JSON-BEGIN %s@@\n%s\n@@MRCLI-JSON-END %s@@\n' \
            "$label" "$out" "$label" >> "$log"
    fi
}

expect 0 help
expect 2
expect 2 /c0 frob
expect 2 /c0 frob J
expect 2 /x0 show J
expect 2 /c0/e1/s3 show J
expect 2 /c0/eall/s3 show
expect 2 /c0 add vd r5 drives=0:0-3,3 J
expect 2 /c0 add vd r7 drives=0:0-3 J
expect 2 /c0 add vd drives=0:0-3
expect 2 /c0 add vd r5 drives=1:0-3
expect 2 /c0 add vd r5
expect 2 /c0 add vd r5 drives=0:0-3 strip=abc
expect 2 /c0 add vd r5 drives=0:0-3 size=12XB
expect 2 /c0 add vd r5 drives=0:0-3 name=abcdefghijklmnopq
expect 2 /c0 add vd r10 drives=0:0-5 pdperarray=4
expect 2 /c0 add vd r5 drives=0:0-3 bogus J
expect 2 /c0 set rebuildrate=101 J
expect 2 /c0 set autorebuild=maybe
expect 2 /c0 set patrolread=1 J
expect 2 /c0 show events wait=3
expect 2 /c0 show events seq=x J
expect 2 /c0 set
expect 2 /c0/e0/s3 set good force
expect 2 /c0/eall/sall set offline
expect 2 /c0/v0 start cc repair extra
expect 2 /c0/v0 start init repair
expect 2 /c0 set patrolread=on mode=bogus
expect 2 /c0 set mode=auto patrolread=maybe
expect 2 /c0 bogus patrolread
expect 2 /c0 start patrolread now
expect 3 /c0 show J
expect 3 /c7/v0 show all J
expect 3 /c0/e0/s3 set online force
expect 0 show J

if ! python3 "$src/tests/guest/mrcli-json-check.py" "$log" --min 10; then
    fails=$((fails + 1))
fi
echo "mrcli test-cli: $n commands, $fails failures"
[ "$fails" = 0 ]
