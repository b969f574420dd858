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

# storcli's names (tools/mrcli/dialect.c): the same binary called storcli64
# speaks storcli v1, called storcli2 speaks storcli2.
dir=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$dir"' EXIT
for name in storcli storcli64 perccli perccli64 storcli2 perccli2; do
    ln -s "$(readlink -f "$mrcli")" "$dir/$name"
done
# sexpect NAME STATUS ARGS...: as expect, for the binary called NAME.
slog=$dir/storcli.log
sexpect() {
    local name=$1 keep=$log
    mrcli_save=$mrcli
    mrcli=$dir/$name
    shift
    log=$slog
    expect "$@"
    mrcli=$mrcli_save
    log=$keep
}
# vexpect NAME VERSION-PREFIX: -v names the dialect's version
vexpect() {
    n=$((n + 1))
    if ! "$dir/$1" -v | grep -q "Ver $2"; then
        echo "FAIL: $1 -v does not print Ver $2"
        fails=$((fails + 1))
    fi
}
vexpect storcli64 007.
vexpect perccli64 007.
vexpect storcli2 008.
vexpect perccli2 008.
sexpect storcli64 0 help
sexpect storcli64 0 show ctrlcount J nolog
sexpect storcli64 0 J show ctrlcount
sexpect storcli64 0 show all J nolog
sexpect storcli64 0 show nolog J
# refused forms: storcli's failure document, exit status 2
sexpect storcli64 2 /c0 frob J
sexpect storcli64 2 /c0 frob nolog J
sexpect storcli64 2 J /c0/e251/s3 show
sexpect storcli64 2 /c0/e252/s3 show J frob
sexpect storcli64 2 /cfoo show J
sexpect storcli64 2 /c0/x0 show J
sexpect storcli64 2 /c0 /x0 show J
sexpect storcli64 2 /c0/v0 start cc repair extra J
sexpect storcli64 2 /c0 add vd type=raid7 drives=252:0-3 J
# copyback and VD cache policies: refused forms, then to the controller
sexpect storcli64 2 /c0/e252/s1 start copyback J
sexpect storcli64 2 /c0/e252/s1 start copyback target=7:4 J
sexpect storcli64 2 /c0/e252/s1 start copyback target=252 J
sexpect storcli64 2 /c0/e252/s1 start copyback target=252:4x J
sexpect storcli64 2 /c0/eall/sall start copyback target=252:4 J
sexpect storcli64 2 /c0/e252/s1 stop copyback target=252:4 J
sexpect storcli2 2 /c0/e252/s1 pause copyback extra J
# insert / replace: refused forms (storcli-insert.c)
sexpect storcli64 2 /c0/e252/s4 insert dg=0 array=0 J
sexpect storcli64 2 /c0/e252/s4 insert dg=0 array=0 row=x J
sexpect storcli64 2 /c0/e252/s4 insert dg=0 array=0 row=1 bogus J
sexpect storcli64 2 /c0/eall/sall insert dg=0 array=0 row=1 J
sexpect storcli64 2 /c0/e252/s1 replace J
sexpect storcli64 2 /c0/e252/s1 replace replacedrive=252:1 J
sexpect storcli64 2 /c0/e252/s1 replace replacedrive=9:4 J
sexpect storcli2 2 /c0/eall/sall replace replacedrive=252:4 J
sexpect storcli64 2 /c0/v0 set J
sexpect storcli64 2 /c0/v0 set wrcache=fast J
sexpect storcli64 2 /c0/v0 set rdcache=adra J
sexpect storcli64 2 /c0/vall set wrcache=wb J
sexpect storcli64 2 /c0/v0 set wrcache=wb bogus=1 J
sexpect storcli64 2 /c0/v0 set name=sixteen-letters! J
sexpect storcli64 2 /c0/v0 set name= J
sexpect storcli2 2 /c0/v0 set "name=a b" J
sexpect storcli64 2 /c0 add vd r5 drives=252:0-3,252:3 J
sexpect storcli2 2 /c0 frob J
sexpect storcli64 2 /c0 start patrolread now J
sexpect storcli2 2 /c0 suspend patrolread frob J
# every object form parses; without a controller they exit 3
for obj in /c0 /cALL /c0/v0 /c0/vall /c0/e252/s0 /c0/e0/s0 /c0/eall/sall \
           /c0/sall /c0/dall /c0/fall /c0/cv /c0/bbu "/c0 /cv" \
           "/c0 /eall /sall" /call/vall /cALL/eALL/sALL; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 $obj show J nolog
done
for cmd in "show all" "show time" "show rebuildrate" "show events" \
           "show termlog" "show patrolread" "show cc" "show aso" \
           "show autoconfig" "set jbod=on" "set rebuildrate=30" \
           "start patrolread" "stop patrolread" "suspend patrolread" \
           "resume patrolread"; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 /c0 $cmd J
done
for cmd in "show" "show all" "import" "del" "delete"; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 /c0/fall $cmd J
done
sexpect storcli64 3 /c0/vall show all J
sexpect storcli64 3 /c0/dall show J
sexpect storcli2 3 /cALL show all J nolog
sexpect storcli2 3 /cALL/eALL/sALL show all J nolog
for cmd in "show status" "show all"; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 /c0/cv $cmd J
done
for cmd in "show all" "show rebuild" "show initialization" \
           "start rebuild" "stop rebuild" "set offline" "set good" \
           "add hotsparedrive" "delete hotsparedrive" "start locate" \
           "stop locate" "show copyback" "stop copyback" "pause copyback" \
           "resume copyback" "start copyback target=252:4" \
           "insert dg=0 array=0 row=1" "replace replacedrive=252:4"; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 /c0/e252/s1 $cmd J
done
for cmd in "show init" "show cc" "show bgi" "show all" "start cc" \
           "delete force" "set wrcache=wt" "set wrcache=awb rdcache=nora" \
           "set name=lab5"; do
    # shellcheck disable=SC2086
    sexpect storcli64 3 /c0/v0 $cmd J
done
sexpect storcli64 3 /c0 add vd type=raid5 drives=252:0-2 size=all \
    strip=64 wb ra direct J
sexpect storcli64 3 /c0 add vd r10 drives=252:0-3 pdperarray=2 J
# the failure document's shape
out=$("$dir/storcli64" /c0 frob J nolog 2>/dev/null || true)
n=$((n + 1))
if ! python3 -c '
import json, sys
d = json.loads(sys.argv[1])["Controllers"][0]["Command Status"]
assert d["Status"] == "Failure", d
assert d["Description"] == "Un-supported command", d
e = d["Detailed Status"][0]
assert e["Ctrl"] == 0 and e["Status"] == "Failed", e
assert e["ErrCd"] == 254 and "frob" in e["ErrMsg"], e
' "$out"; then
    echo "FAIL: storcli64 /c0 frob J: not storcli's failure document"
    fails=$((fails + 1))
fi

# no such controller: storcli's "Controller N not found", no details
out=$("$dir/storcli2" /c7 show all J 2>/dev/null || true)
n=$((n + 1))
if ! python3 -c '
import json, sys
d = json.loads(sys.argv[1])["Controllers"][0]
assert list(d) == ["Command Status"], d
s = d["Command Status"]
assert s["Controller"] == 7 and s["Status"] == "Failure", s
assert s["Description"] == "Controller 7 not found", s
assert "Detailed Status" not in s, s
' "$out"; then
    echo "FAIL: storcli2 /c7 show all J: not storcli's not-found document"
    fails=$((fails + 1))
fi

if ! python3 "$src/tests/guest/mrcli-json-check.py" "$log" --min 10; then
    fails=$((fails + 1))
fi
if ! python3 "$src/tests/guest/mrcli-json-check.py" "$slog" --min 40 \
        --schema "$src/tests/guest/storcli-v1.schema.json"; then
    fails=$((fails + 1))
fi
echo "mrcli test-cli: $n commands, $fails failures"
[ "$fails" = 0 ]
