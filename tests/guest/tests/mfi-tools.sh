# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Unmodified MFI tools from Debian (mfiutil, megasasctl from megactl) on
# a megaraid-9500 (megaraid_sas, 6.12) with eight blank SAS drives: the
# adapter (its RAID levels, firmware as query-megaraid has it), battery
# and drives as the tools show them; a RAID 1 made by
# mfiutil create (possible because unconfigured drives are UNCONFIGURED
# GOOD), a hot spare added and removed, a member failed (degraded, the
# spare rebuilds: "show progress", megasasctl's degraded and rebuilding
# states; the failed member FAILED in both tools, the replaced drive
# unconfigured bad in both and QMP), the failed drive made good, patrol
# read started and stopped, the cache policy changed, the event log
# (the core's entries, as mrcli shows them), the volume deleted; a RAID 5
# whose member's injected medium error patrol read repairs (the data
# reads back, the event in mfiutil's log); RAID 0, 1, 5, 6, 10, 50 and 60
# made by mfiutil create, each a disk passing fio verify, then deleted;
# each checked against mrcli (the same core) and QMP query-megaraid /
# QOM; a clean kernel log.
#@ controllers megaraid-9500
#@ kernels 6.12
#@ timeout 1800
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ sas 8 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed.*$

. /mrsim/lib-mrcli.sh
. /mrsim/lib-mfi.sh

NDRV=8
mr_guest_start $NDRV

# qmp_drive_state SLOT: QMP_STATE is the drive's state in query-megaraid.
qmp_drive_state() {
    qmp_call '{"execute":"query-megaraid"}'
    # one drive object per line: the one whose slot is SLOT
    QMP_STATE=$(echo "${QMP_REPLY#*'"drives": ['}" | sed 's/}, {/}\n{/g' |
                grep -E "\"slot\": $1[,}]" |
                grep -oE '"state": "[a-z-]*"' | head -n 1 | cut -d'"' -f4)
    [ -n "$QMP_STATE" ] || { echo "$QMP_REPLY"; fail "no QMP state for slot $1"; }
}

expect_drive() {
    local slot=$1 mfi=$2 qmp=$3
    mf show drives
    mf_has "^ *$slot \(.*\) $mfi " "drive $slot is not $mfi"
    qmp_drive_state "$slot"
    assert_eq "query-megaraid state of slot $slot" "$qmp" "$QMP_STATE"
}

echo "== the adapter"
mf show adapter
mf_has "Product Name: .+" "no product name"
mf_has "Battery Backup: present" "the CacheVault is not shown"
# the 9500's levels (mfiutil derives 10 and 50; it names no RAID 60)
mf_has "RAID Levels: JBOD, RAID0, RAID1, RAID5, RAID6, RAID10, RAID50$" \
    "not the 9500's RAID levels"
qmp_call '{"execute":"query-megaraid"}'
# the controller's model and serial come first in its object
q=${QMP_REPLY#*'"return": [{'}
q=${q%%'"drives"'*}
model=$(echo "$q" | grep -oE '"model": "[^"]*"' | cut -d'"' -f4)
sn=$(echo "$q" | grep -oE '"serial": "[^"]*"' | cut -d'"' -f4)
[ -n "$model" ] && [ -n "$sn" ] || { echo "$QMP_REPLY"; fail "no model/serial in query-megaraid"; }
mf_has "Product Name: $model$" "not product $model"
mf_has "Serial Number: $sn$" "not serial $sn"
mf show battery
mf_has "Status: +normal" "the battery is not normal"
mf show firmware
fw=$(echo "$q" | grep -oE '"firmware": "[^"]*"' | cut -d'"' -f4)
[ -n "$fw" ] || { echo "$QMP_REPLY"; fail "no firmware in query-megaraid"; }
mf_has "Firmware Package Version: $fw$" "not firmware $fw"
ms
echo "$MS_OUT" | grep -q "^a0 " || fail "megasasctl: no adapter a0"
echo "$MS_OUT" | grep -q "batt:good" || fail "megasasctl: the CacheVault is not good"

echo "== unconfigured drives: UNCONFIGURED GOOD, still the host's disks"
for s in 0 1 2 3; do
    expect_drive $s "UNCONFIGURED GOOD" unconfigured-good
done
mf show config

echo "== RAID 1 by mfiutil create"
mf create raid1 0,1
mf show volumes
mf_has "RAID-1 .* OPTIMAL" "no optimal RAID 1"
mr_vd_state 0
assert_eq "mrcli state of VD 0" Optl "$MR_STATE"
mr_vd_dev 0
expect_drive 0 ONLINE online
expect_drive 1 ONLINE online
mf show config
ms
echo "$MS_OUT" | grep -qiE "a0d0 .*RAID 1.*optimal" || fail "megasasctl: VD not optimal"
fio_verify "$MR_DEV" 4M

echo "== hot spare added and removed"
mf add 3
expect_drive 3 "HOT SPARE" hot-spare
mf remove 3
expect_drive 3 "UNCONFIGURED GOOD" unconfigured-good
mr_pd_settle 3

echo "== cache policy"
mf cache 0 enable
mf show volumes
mf_has "RAID-1 .* OPTIMAL Enabled" "caching is not enabled"
mf cache 0 disable
mf show volumes
mf_has "RAID-1 .* OPTIMAL Disabled" "caching is not disabled"

echo "== a member fails; the spare rebuilds"
qom_set /machine/peripheral/raid0 rebuild-rate 5
mf fail 1
expect_drive 1 FAILED offline
mf show volumes
mf_has "RAID-1 .* DEGRADED" "the volume is not degraded"
ms
echo "$MS_OUT" | grep -qiE "a0d0 .*degraded" || fail "megasasctl: VD not degraded"
echo "$MS_OUT" | grep -qE "a0e.s1 .* FAILED" || fail "megasasctl: drive 1 is not FAILED"
mf add 3
t=0
while :; do
    mf show progress
    if echo "$MF_OUT" | grep -qE "drive .*[Rr]ebuild"; then
        break
    fi
    t=$((t + 1)); [ $t -lt 60 ] || fail "no rebuild in mfiutil show progress"
    sleep 1
done
ms
echo "$MS_OUT" | grep -qiE "a0e.s3 .*rebuild" || fail "megasasctl: drive 3 is not rebuilding"
qom_set /machine/peripheral/raid0 rebuild-rate 100
mr_wait_vd_state 0 Optl 300
expect_drive 3 ONLINE online
# the replaced drive: unconfigured bad until made good, as on the card
expect_drive 1 "UNCONFIGURED BAD" unconfigured-bad
ms
echo "$MS_OUT" | grep -qE "a0e.s1 .* BAD" || fail "megasasctl: drive 1 is not BAD"
mf good 1
expect_drive 1 "UNCONFIGURED GOOD" unconfigured-good
mr_pd_settle 1

echo "== patrol read"
mf start patrol
mf show patrol
mf stop patrol
mf show patrol

echo "== events: the core's log, as mrcli shows it"
mf show events -c info
mf_has "VOL 0: State change on VD 00/0 from OPTIMAL\(3\) to DEGRADED\(2\)" \
    "no VD state change"
# the drives' state changes: the same lines, in the same order, in both
pat="Drive in slot [0-9]+: state [a-z-]+ -> [a-z-]+"
mf_lines=$(echo "$MF_OUT" | grep -oE "$pat")
mr /c0 show events count=200
mr_lines=$(echo "$MR_OUT" | grep -oE "$pat")
echo "mfiutil: $mf_lines"
echo "mrcli: $mr_lines"
echo "$mf_lines" | grep -q "slot 1" || fail "mfiutil shows no state change of drive 1"
echo "$mf_lines" | grep -q "slot 3" || fail "mfiutil shows no state change of drive 3"
assert_eq "the drive state changes mfiutil and mrcli show" "$mr_lines" "$mf_lines"

echo "== delete, then a RAID 5"
mf delete 0
mf show volumes
mf show drives
mr_settle_all $NDRV
mf create raid5 0,1,2
mf show volumes
mf_has "RAID-5 .* OPTIMAL" "no optimal RAID 5"
ms

echo "== patrol read repairs a medium error on a RAID 5 member"
mr_vd_dev 0
dd if=/dev/urandom of=/tmp/p.bin bs=1M count=8 status=none
# whole rows (two 64 KiB data strips): the parity is the data's, whatever
# the drives held before (mfiutil create does not initialize)
dd if=/tmp/p.bin of="$MR_DEV" bs=128k oflag=direct status=none
qom_set /machine/peripheral/d1 media-error '"3850+8"'
qom_set /machine/peripheral/raid0 patrol-rate 100
mf start patrol
t=0
while :; do
    mf show patrol
    echo "$MF_OUT" | grep -qE "Runs Completed: [1-9]" && break
    t=$((t + 1)); [ $t -lt 120 ] || fail "patrol read did not end"
    sleep 1
done
qom_get /machine/peripheral/d1 media-error
[ -z "$QOM" ] || fail "the medium error is still there: $QOM"
dd if="$MR_DEV" of=/tmp/p2.bin bs=1M count=8 iflag=direct status=none
cmp /tmp/p2.bin /tmp/p.bin || {
    cmp -l /tmp/p2.bin /tmp/p.bin | awk 'NR == 1 { f = $1 } END { print "first differing byte", f, "bytes differing", NR }'
    fail "the RAID 5's data changed"
}
mf show events
mf_has "medium error at lba 3850 corrected" "no repair event"
mf delete 0
mr_wait_gone "$MR_HANDLE"
mr_settle_all $NDRV

echo "== every level by mfiutil create: a disk, fio verify, deleted"
for spec in "raid0 0" "raid1 0,1" "raid5 0,1,2" "raid6 0,1,2,3" \
            "raid10 0,1 2,3" "raid50 0,1,2 3,4,5" "raid60 0,1,2,3 4,5,6,7"; do
    # shellcheck disable=SC2086
    mf create $spec
    lvl=${spec%% *}
    mf show volumes
    mf_has "RAID-${lvl#raid} .* OPTIMAL" "no optimal ${lvl}"
    mr_vd_dev 0
    fio_verify "$MR_DEV" 2M
    mf delete 0
    mr_wait_gone "$MR_HANDLE"
    mr_settle_all $NDRV
done
mf show config
mf_has "0 arrays, 0 volumes" "the configuration is not empty"
check_dmesg
log "mfiutil and megasasctl manage the 9500 through its MFI DCMDs"
