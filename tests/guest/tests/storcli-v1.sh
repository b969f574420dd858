# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# storcli v1 for unmodified tools: mrcli installed as
# /opt/MegaRAID/storcli/storcli64 on a megaraid-9500 (megaraid_sas) with a
# RAID 5 over three SAS drives.  Every command line Debian's
# prometheus-node-exporter-collectors storcli.py runs ("/cALL show all J
# nolog", "/cALL/eALL/sALL show all J nolog") is captured in three
# states: optimal; drive 1 failed (degraded, no spare); drive 1 rebuilding.
# The drives' health (temperature, error counts, SMART alert) is set
# through QOM and changes between the states.  On the host,
# tests/guest/storcli-replay.py runs the unmodified collector against a
# shim that returns the captured output per command line and checks its
# metrics; the documents are checked against storcli-v1.schema.json.
#@ controllers megaraid-9500
#@ kernels 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/storcli-v1.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed \(set offline by the host\)$
#@ check python3 tests/guest/storcli-replay.py @WORK@/serial.log
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 6 --schema tests/guest/storcli-v1.schema.json

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    mrcli_host_prepare "$2" sas 3 64M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-mrcli.sh

S=/opt/MegaRAID/storcli/storcli64
[ -L "$S" ] && [ -x "$S" ] || fail "$S is not installed (build-image.sh)"
for n in /usr/sbin/storcli /usr/sbin/storcli64 /usr/sbin/perccli64 \
         /usr/sbin/storcli2 /opt/MegaRAID/storcli2/storcli2; do
    [ -x "$n" ] || fail "$n is not installed"
done

mr_guest_start 3

# st ARGS...: storcli64 ARGS must succeed; its output in ST_OUT.
st() {
    local rc=0
    echo "# storcli64 $*"
    ST_OUT=$("$S" "$@" 2>&1) || rc=$?
    echo "$ST_OUT"
    [ $rc = 0 ] || fail "storcli64 $* failed (exit status $rc)"
}

# capture STATE: the collector's command lines, as it builds them.
capture() {
    local cmd rc
    for cmd in "/cALL show all J" "/cALL/eALL/sALL show all J"; do
        rc=0
        # shellcheck disable=SC2086
        out=$("$S" $cmd nolog 2>/dev/null) || rc=$?
        [ $rc = 0 ] || fail "storcli64 $cmd nolog: exit status $rc"
        echo "@@STORCLI-BEGIN $1|$cmd nolog@@"
        echo "$out"
        echo "@@STORCLI-END@@"
        # the same document for the schema check
        MR_JSON=$out
        mr_json_log
    done
}

# vd_state: the state of VD 0 in "/c0/v0 show J"
vd_state() {
    "$S" /c0/v0 show J | sed -n 's/.*"DG\/VD":"0\/0","TYPE":"[^"]*","State":"\([A-Za-z]*\)".*/\1/p'
}

echo "== a slow rebuild, so that the rebuilding state can be captured"
st /c0 set rebuildrate=1 J
st /c0 add vd type=raid5 drives=252:0-2 J
st /c0/v0 show J
echo "== the overview without a controller"
st show J nolog
echo "$ST_OUT" | grep -q '"Number of Controllers" : 1' ||
    fail "show: not one controller"
echo "$ST_OUT" | grep -q '{"Ctl":0,"Model":"[^"-][^"]*"' ||
    fail "show: no row for controller 0"
st show ctrlcount J
echo "$ST_OUT" | grep -q '"Controller Count" : 1' || fail "show ctrlcount"
echo "== the text output: storcli's key = value lines and closing status"
st /c0 show all
for want in "^Status = Success$" "^Basics :$" "^Version :$" \
            "^Driver Name = $(ctrl_driver)$" "^Physical Drives = 3$" \
            "^Virtual Drives = 1$" \
            "^RAID Level Supported = RAID0, RAID1, RAID5, RAID6, RAID10, RAID50, RAID60$"; do
    echo "$ST_OUT" | grep -q "$want" || fail "/c0 show all: no line $want"
done
rc=0
"$S" /c0 frob > /tmp/frob.out 2> /tmp/frob.err || rc=$?
[ $rc = 2 ] || fail "/c0 frob: exit status $rc, not 2"
grep -q "^Description = Un-supported command$" /tmp/frob.out ||
    fail "/c0 frob: not storcli's failure document"
[ -s /tmp/frob.err ] || fail "/c0 frob: nothing on stderr"
D=/machine/peripheral
qom_set $D/d0 temperature 33
qom_set $D/d1 temperature 41
qom_set $D/d1 other-errors 2
qom_set $D/d2 media-errors 1
capture optimal

echo "== drive 1 fails: degraded, no spare"
st /c0/e252/s1 set offline J
t=0
while [ "$(vd_state)" != Dgrd ]; do
    t=$((t + 1)); [ $t -lt 60 ] || fail "VD 0 not Dgrd after drive 1 failed"
    sleep 1
done
st /c0/e252/s1 show J
echo "$ST_OUT" | grep -q '"EID:Slt":"252:1","DID":[0-9]*,"State":"Offln"' ||
    fail "/c0/e252/s1 show: drive 1 is not shown failed"
st /c0/vall show J
echo "$ST_OUT" | grep -q '"DG/VD":"0/0","TYPE":"RAID5","State":"Dgrd"' ||
    fail "/c0/vall show: VD 0 is not Dgrd"
qom_set $D/d1 temperature 52
qom_set $D/d1 predictive-failures 1
qom_set $D/d1 smart-alert true
capture degraded

echo "== drive 1 rebuilds"
st /c0/e252/s1 start rebuild J
st /c0/e252/s1 show rebuild J
echo "$ST_OUT" | grep -q '"Status":"In progress"' ||
    fail "the rebuild of drive 1 is not in progress"
qom_set $D/d2 media-errors 4
capture rebuilding
st /c0/e252/s1 show rebuild J
echo "$ST_OUT" | grep -q '"Status":"In progress"' ||
    fail "the rebuild of drive 1 ended before the capture was complete"
log "storcli v1: the collector's command lines captured in 3 states"
