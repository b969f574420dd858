# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A drive fails and is rebuilt, all through mrcli while fio writes and
# verifies the VD: a RAID 5 over four blank NVMe drives with a global hot
# spare, made with mrcli; drive 1 is set offline and the spare rebuilds
# (progress read with "show rebuild" must rise); drive 2 is set offline
# and rebuilt in place with "start rebuild", paused and resumed on the
# way; the failed drive 1 is made good again and replaces drive 3.  The
# event log (show events) lists the failures and the rebuilds, and a
# reader waiting for the next entry (seq=N wait=S) gets the first failure.  JSON
# output is checked against tests/guest/mrcli.schema.json on the host.
#@ kernels 6.1
#@ timeout 1500
#@ mem 1024
#@ smp 2
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ nvme 5 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot [123] failed \(set offline by the host\)$
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 15

. /mrsim/lib-mrcli.sh

mr_guest_start 5

echo "== a slow rebuild rate, so that the rebuild can be watched"
mr_json /c0 set rebuildrate=3
assert_eq "rebuild rate" "3%" "$(mr_cell '"Ctrl_Prop":"Rebuild Rate"' Value)"
mr_json /c0 show events
first_seq=$(($(mr_prop 'Newest Sequence') + 1))

echo "== RAID 5 over slots 0-3, slot 4 a global hot spare"
mr_json /c0 add vd r5 drives=0:0-3 strip=64 name=rb
vd=$(mr_cell '"DG/VD":"' DG/VD)
vd=${vd#*/}
mr_vd_dev "$vd"
dev=$MR_DEV
handle=$MR_HANDLE
mr_json /c0/e0/s4 add hotsparedrive
mr_pd_state 4
assert_eq "state of the spare" GHS "$MR_STATE"

# fio write+verify rounds in the background until /tmp/fio-stop exists
rm -f /tmp/fio-stop /tmp/fio.rc
( rc=0; n=0
  while [ ! -f /tmp/fio-stop ] && [ $rc = 0 ]; do
      n=$((n + 1))
      ( fio_verify "$dev" 16M --offset=$(( (n % 3) * 16 ))M ) > /tmp/fio.out 2>&1 || rc=$?
  done
  echo "$rc $n" > /tmp/fio.rc ) &

# watch_rebuild SLOT MIN [PCT]: samples "show rebuild" until the VD is
# optimal; the progress must never go down and must be seen strictly
# between 0 and 100 at least MIN times (PCT: a value seen before, which
# counts).
watch_rebuild() {
    local slot=$1 min=$2 t=0 pct last=-1 mid=0 seen=""
    if [ -n "${3:-}" ]; then
        last=$3
        seen=" $3"
        [ "$3" -le 0 ] || [ "$3" -ge 100 ] || mid=1
    fi
    while :; do
        mr_quiet "/c0/e0/s$slot" show rebuild
        pct=$(mr_cell "\"Drive-ID\":\"/c0/e0/s$slot\"" 'Progress%')
        st=$(mr_cell "\"Drive-ID\":\"/c0/e0/s$slot\"" Status)
        mr_vd_state "$vd"
        log "rebuild of slot $slot: $pct% ($st), VD $vd $MR_STATE"
        if [ "$st" != "Not in progress" ]; then
            [ "$pct" -ge "$last" ] ||
                fail "rebuild progress of slot $slot went down: $last% -> $pct%"
            [ "$pct" -le 0 ] || [ "$pct" -ge 100 ] || mid=$((mid + 1))
            [ "$pct" = "$last" ] || seen="$seen $pct"
            last=$pct
        fi
        [ "$MR_STATE" != Optl ] || break
        t=$((t + 1))
        [ $t -lt 900 ] || fail "rebuild of slot $slot not done after 900 samples"
        sleep 1
    done
    [ "$mid" -ge "$min" ] ||
        fail "rebuild of slot $slot: progress seen between 0 and 100 only $mid times (values:$seen)"
    log "rebuild of slot $slot done; progress seen:$seen"
}

echo "== drive 1 fails (set offline): the spare rebuilds"
# a reader waiting for the next event: it returns once the failure is in
# the log, not before
mr_quiet /c0 show events
next=$(($(mr_prop 'Newest Sequence') + 1))
rm -f /tmp/ev-wait.rc
( rc=0; mrcli /c0 show events seq=$next wait=120 J > /tmp/ev-wait.json 2>&1 ||
      rc=$?; echo $rc > /tmp/ev-wait.rc ) &
evpid=$!
sleep 2
[ ! -f /tmp/ev-wait.rc ] || fail "show events seq=$next wait=120 returned before event $next"
mr_json /c0/e0/s1 set offline
wait $evpid
MR_JSON=$(cat /tmp/ev-wait.json)
mr_json_log
assert_eq "exit status of show events seq=$next wait=120" 0 "$(cat /tmp/ev-wait.rc)"
echo "$MR_JSON" | grep "\"Target\":\"/c0/e0/s1\"" | grep -qiE 'fail|offline' ||
    fail "the waiting reader did not get drive 1's failure"
mr_vd_state "$vd"
assert_match "VD state with drive 1 offline" '^(Dgrd|Pdgd)$' "$MR_STATE"
mr /c0/eall/sall show
watch_rebuild 4 3
mr_pd_state 4
assert_eq "state of the former spare" Onln "$MR_STATE"
mr_json "/c0/v$vd" show all
mr_pd_state 1
log "drive 1 after the spare took its place: $MR_STATE"

echo "== drive 2 fails; rebuilt in place with start rebuild, paused, resumed"
mr_json /c0/e0/s2 set offline
mr_vd_state "$vd"
assert_match "VD state with drive 2 offline" '^(Dgrd|Pdgd)$' "$MR_STATE"
mr_json /c0/e0/s2 show rebuild
assert_eq "rebuild before start" "Not in progress" \
    "$(mr_cell '"Drive-ID":"/c0/e0/s2"' Status)"
mr_json /c0/e0/s2 start rebuild
mr_json /c0/e0/s2 pause rebuild
mr_json /c0/e0/s2 show rebuild
assert_eq "rebuild after pause" Paused "$(mr_cell '"Drive-ID":"/c0/e0/s2"' Status)"
p1=$(mr_cell '"Drive-ID":"/c0/e0/s2"' 'Progress%')
sleep 3
mr_json /c0/e0/s2 show rebuild
assert_eq "progress while paused" "$p1" \
    "$(mr_cell '"Drive-ID":"/c0/e0/s2"' 'Progress%')"
mr_json /c0/e0/s2 resume rebuild
watch_rebuild 2 2 "$p1"
mr_pd_state 2
assert_eq "state of drive 2 after its rebuild" Onln "$MR_STATE"

echo "== drive 1 made good again replaces drive 3"
mr_pd_state 1
case "$MR_STATE" in
UBad|Offln) mr_json /c0/e0/s1 set good ;;
esac
mr_pd_state 1
assert_eq "state of drive 1 after set good" UGood "$MR_STATE"
mr_pd_settle 1
mr_json /c0/e0/s3 set offline
mr_json /c0/e0/s1 start rebuild
watch_rebuild 1 1
mr_pd_state 1
assert_eq "state of drive 1 after rebuilding" Onln "$MR_STATE"

touch /tmp/fio-stop
wait
read -r rc rounds < /tmp/fio.rc
cat /tmp/fio.out
assert_eq "fio verify during the rebuilds (after $rounds rounds)" 0 "$rc"
[ "$rounds" -ge 2 ] || fail "only $rounds fio rounds ran during the rebuilds"
log "fio verify passed, $rounds rounds during the rebuilds"

echo "== the event log lists the failures and the rebuilds"
mr /c0 show events seq=$first_seq
mr_json /c0 show events seq=$first_seq
for s in 1 2 3; do
    echo "$MR_JSON" | grep "\"Target\":\"/c0/e0/s$s\"" | grep -qiE 'fail|offline' ||
        fail "no event of drive $s failing in the event log"
done
echo "$MR_JSON" | grep '"Class":"Job"' | grep -qi rebuild ||
    fail "no rebuild job in the event log"
mr_json /c0 show events count=3
n=$(echo "$MR_JSON" | grep -c '"Seq":')
assert_eq "events shown with count=3" 3 "$n"
mr_json "/c0/v$vd" delete force
mr_wait_gone "$handle"
check_dmesg ""
