# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A member set offline by mistake comes back with mrcli's forced online
# (StorCLI's "set online force"), without a rebuild: a RAID 5 over three
# blank SAS drives, made with mrcli and filled; drive 1 is set offline
# (the VD degrades, nothing is written meanwhile), a plain "set online" is
# refused, "set online force" makes the VD optimal at once and the data
# reads back unchanged; a consistency check then runs to its end
# (paused and resumed on the way) and finds the VD consistent.  JSON
# output is checked against tests/guest/mrcli.schema.json on the host.
#@ kernels 6.1 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ sas 3 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed \(set offline by the host\)$
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 10

. /mrsim/lib-mrcli.sh

mr_guest_start 3

mr_json /c0 add vd r5 drives=0:0-2 name=fo
vd=$(mr_cell '"DG/VD":"' DG/VD)
vd=${vd#*/}
mr_vd_dev "$vd"
dev=$MR_DEV
handle=$MR_HANDLE
fio_verify "$dev" 16M
dd if=/dev/urandom of="$dev" bs=1M count=32 oflag=direct 2>/dev/null ||
    fail "writing 32 MiB to $dev"
before=$(dd if="$dev" bs=1M count=32 iflag=direct 2>/dev/null | md5sum)

echo "== drive 1 set offline by mistake"
mr_json /c0/e0/s1 set offline
mr_vd_state "$vd"
assert_eq "VD state with drive 1 offline" Dgrd "$MR_STATE"
mr_pd_state 1
assert_eq "state of drive 1" Offln "$MR_STATE"
mr_json_refused 1 /c0/e0/s1 set online
mr_refused 2 /c0/e0/s1 set good force
mr_vd_state "$vd"
assert_eq "VD state after the refused online" Dgrd "$MR_STATE"

echo "== set online force: back at once, no rebuild"
mr_json /c0/e0/s1 set online force
assert_eq "state of drive 1 in the reply" Onln \
    "$(mr_cell '"EID:Slt":"0:1"' State)"
mr_vd_state "$vd"
assert_eq "VD state after the forced online" Optl "$MR_STATE"
mr_json /c0/e0/s1 show rebuild
assert_eq "rebuild after the forced online" "Not in progress" \
    "$(mr_cell '"Drive-ID":"/c0/e0/s1"' Status)"
after=$(dd if="$dev" bs=1M count=32 iflag=direct 2>/dev/null | md5sum)
assert_eq "data after the forced online" "$before" "$after"
mr "/c0/v$vd" show all

echo "== consistency check: start, pause, resume, to its end"
mr_json /c0 set rebuildrate=10
mr_json "/c0/v$vd" start cc
mr_json "/c0/v$vd" pause cc
mr_json "/c0/v$vd" show cc
assert_eq "cc after pause" Paused "$(mr_cell '"Object":"' Status)"
mr_json "/c0/v$vd" resume cc
t=0
while :; do
    mr_quiet "/c0/v$vd" show cc
    st=$(mr_cell '"Object":"' Status)
    log "cc: $(mr_cell '"Object":"' 'Progress%')% $st"
    [ "$st" != "Not in progress" ] || break
    t=$((t + 1))
    [ $t -lt 600 ] || fail "cc not done after 600 s"
    sleep 1
done
mr_json "/c0/v$vd" show all
assert_eq "VD consistent after the cc" Yes "$(mr_cell '"DG/VD":"' Consist)"
mr_refused 1 "/c0/v$vd" pause cc
after=$(dd if="$dev" bs=1M count=32 iflag=direct 2>/dev/null | md5sum)
assert_eq "data after the cc" "$before" "$after"
mr_json /c0 show events count=12
mr_json "/c0/v$vd" delete
mr_wait_gone "$handle"
check_dmesg ""
