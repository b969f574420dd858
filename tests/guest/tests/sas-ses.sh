# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 with sas-transport=on: the SES device of the card's
# enclosure.  Linux's unmodified ses driver binds to it (an enclosure on
# the driver's non-transport channel) and /sys/class/enclosure has one
# SlotNN per bay (the model's 16 phys); the bays of the two JBOD drives
# (SAS in slot 2, SATA in slot 3) link to their sd disks, found by the SAS
# address page 0Ah gives; sg_ses lists the slots; the locate LED written
# through sysfs (SlotNN/locate) and through sg_ses --set/--clear ident is
# what QOM (locate-led) and query-megaraid show, and a locate set from QOM
# is what the guest reads, and so is mrcli's start/stop locate; a fault
# requested through sysfs shows in QOM and page 2; a RAID 1 member (slots
# 0 and 1) failed through QOM shows Fault sensed in page 2 and its slot's
# sysfs fault, while the other member's bay stays dark; the SAS JBOD
# pulled with its locate on empties its bay and a drive put in its place
# links to its own disk with its LEDs dark; after a host reset (sg_reset
# -H) the links and controls are as before; the kernel log stays clean.
# (Debian's ledmon drives directly attached disks through SGPIO over SMP,
# not SES: see docs/sas-topology.md.)
#@ kernels 6.12 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/sas-ses.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_ctrl raid0 sas-transport=on
    raid_host_group r1 raid1 sas 2 0
    for _j in jb2:sas jb3:sata; do
        truncate -s 32M "$2/${_j%:*}.img"
        raid_host_drive "${_j%:*}" "${_j#*:}"
    done
    raid_host_blank jb4 32M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

# sd_of_drive ID: the sd disk whose SCSI name is drive ID's QOM wwn.
sd_of_drive() {
    local want b
    drive_qom "$1" wwn
    want=$(printf 'naa.%x' "$QOM")
    for b in /sys/block/sd*; do
        [ "$(cat "$b/device/wwid" 2>/dev/null)" = "$want" ] &&
            { echo "${b##*/}"; return 0; }
    done
    return 1
}

# qmp_drive_led ID KEY: sets LED to query-megaraid's boolean KEY of
# drive ID (its object in the drives list holds no other object).
qmp_drive_led() {
    local obj
    qmp_call '{"execute":"query-megaraid"}'
    obj=$(echo "$QMP_REPLY" |
          grep -oE "\{[^{}]*\"qom-path\": \"/machine/peripheral/$1\"[^{}]*\}")
    case "$obj" in
    *"\"$2\": true"*) LED=true ;;
    *"\"$2\": false"*) LED=false ;;
    *) fail "query-megaraid has no $2 for drive $1: $QMP_REPLY" ;;
    esac
}

# expect_led ID LOCATE FAULT: QOM and query-megaraid agree on drive ID's
# locate and fault LEDs.
expect_led() {
    drive_qom "$1" locate-led
    assert_eq "$1 locate-led (QOM)" "$2" "$QOM"
    qmp_drive_led "$1" locate
    assert_eq "$1 locate (query-megaraid)" "$2" "$LED"
    drive_qom "$1" fault-led
    assert_eq "$1 fault-led (QOM)" "$3" "$QOM"
    qmp_drive_led "$1" fault-led
    assert_eq "$1 fault-led (query-megaraid)" "$3" "$LED"
}

need_driver mpi3mr
_t=0
until JB2=$(sd_of_drive jb2) && JB3=$(sd_of_drive jb3); do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || { lsscsi; fail "the JBOD disks did not come"; }
    sleep 0.2
done
log "JBOD disks: jb2 $JB2, jb3 $JB3"
mr9600_driver_log

# The SEP: an enclosure on the non-transport channel; ses binds to it.
lsscsi -t
lsscsi | grep -E 'enclosu +BROADCOM +VirtualSES' ||
    fail "no enclosure device in lsscsi"
need_modules ses
_t=0
until [ -n "$(ls /sys/class/enclosure 2>/dev/null)" ]; do
    _t=$((_t + 1))
    [ $_t -lt 150 ] || { dmesg | tail -n 20; fail "ses made no enclosure"; }
    sleep 0.2
done
ENC=/sys/class/enclosure/$(ls /sys/class/enclosure | head -n 1)
assert_eq "enclosures" 1 "$(ls /sys/class/enclosure | wc -l)"
assert_eq "enclosure components" 16 "$(cat "$ENC/components")"
for _s in $(seq 0 15); do
    _n=$(printf 'Slot%02d' "$_s")
    [ -d "$ENC/$_n" ] || { ls "$ENC"; fail "no $_n in $ENC"; }
done
log "enclosure $ENC: 16 slots Slot00..Slot15, id $(cat "$ENC/id" 2>/dev/null)"
SG=$(ls "$ENC/device/scsi_generic")
SG=/dev/$SG
log "SES device $SG"

# The JBODs' bays link to their disks; the members (hidden) have none.
for _j in jb2:Slot02:$JB2 jb3:Slot03:$JB3; do
    _id=${_j%%:*} _r=${_j#*:}
    _slot=${_r%%:*} _sd=${_r#*:}
    [ -e "$ENC/$_slot/device/block/$_sd" ] ||
        { ls -l "$ENC/$_slot/"; fail "$ENC/$_slot/device is not $_sd"; }
    log "$_slot -> $_sd ($_id)"
done
for _slot in Slot00 Slot01 Slot04; do
    [ ! -e "$ENC/$_slot/device" ] || fail "$_slot has a device link"
done

# sg_ses lists the slots.
sg_ses --page=2 "$SG" > /tmp/ses.p2 || fail "sg_ses --page=2 failed"
head -n 20 /tmp/ses.p2
grep -qi 'Array device slot' /tmp/ses.p2 || fail "page 2 lists no array device slot"
assert_eq "page 2 elements" 16 "$(grep -cE '^ *Element [0-9]+ descriptor' /tmp/ses.p2)"
sg_ses --page=7 "$SG" | grep -q Slot15 || fail "page 7 names no Slot15"

# Locate through sysfs, then through sg_ses, then from QOM.
expect_led jb2 false false
echo 1 > "$ENC/Slot02/locate" || fail "writing Slot02/locate"
expect_led jb2 true false
expect_led jb3 false false
assert_eq "Slot02/locate" 1 "$(cat "$ENC/Slot02/locate")"
echo 0 > "$ENC/Slot02/locate" || fail "clearing Slot02/locate"
expect_led jb2 false false
sg_ses --index=3 --set=ident "$SG" || fail "sg_ses --set=ident"
expect_led jb3 true false
assert_eq "sg_ses --get=ident" 1 "$(sg_ses --index=3 --get=ident "$SG")"
sg_ses --index=3 --clear=ident "$SG" || fail "sg_ses --clear=ident"
expect_led jb3 false false
drive_set jb3 locate-led true
assert_eq "Slot03/locate after QOM" 1 "$(cat "$ENC/Slot03/locate")"
drive_set jb3 locate-led false
assert_eq "Slot03/locate cleared from QOM" 0 "$(cat "$ENC/Slot03/locate")"

# mrcli's locate (the management protocol's PD_LOCATE, as storcli's) is
# the same LED.
mrcli /c0/e0/s3 start locate > /tmp/mrcli.out || { cat /tmp/mrcli.out; fail "mrcli start locate"; }
assert_eq "Slot03/locate after mrcli start locate" 1 "$(cat "$ENC/Slot03/locate")"
echo 0 > "$ENC/Slot03/locate"
expect_led jb3 false false
mrcli /c0/e0/s3 start locate > /tmp/mrcli.out || { cat /tmp/mrcli.out; fail "mrcli start locate"; }
mrcli /c0/e0/s3 stop locate > /tmp/mrcli.out || { cat /tmp/mrcli.out; fail "mrcli stop locate"; }
assert_eq "Slot03/locate after mrcli stop locate" 0 "$(cat "$ENC/Slot03/locate")"
log "mrcli start/stop locate and the SES slot agree"

# A fault requested by the guest.
echo 1 > "$ENC/Slot02/fault" || fail "writing Slot02/fault"
expect_led jb2 false true
sg_ses --index=2 --page=2 "$SG" | grep -q 'Fault reqstd=1' ||
    fail "page 2 shows no requested fault on slot 2"
echo 0 > "$ENC/Slot02/fault"
expect_led jb2 false false

# A member failed from the host: its bay shows the fault.
drive_set r1-m1 state '"offline"'
expect_drive r1-m1 state '^offline$'
sg_ses --index=1 --page=2 "$SG" > /tmp/ses.e1
cat /tmp/ses.e1
grep -q 'Fault sensed=1' /tmp/ses.e1 || fail "slot 1 of the failed member shows no fault"
grep -qi 'status: critical' /tmp/ses.e1 || fail "slot 1 is not critical"
[ "$(cat "$ENC/Slot01/fault")" != 0 ] || fail "Slot01/fault is 0"
expect_led r1-m1 false true
expect_led r1-m0 false false
sg_ses --index=0 --page=2 "$SG" | grep -q 'Fault sensed=0' ||
    fail "slot 0 of the healthy member shows a fault"

# Pull the SAS JBOD with its locate LED on: the bay empties, its link
# goes; a new drive in the bay links to its own disk, its LEDs dark.
echo 1 > "$ENC/Slot02/locate"
qmp_ok '{"execute":"device_del","arguments":{"id":"jb2"}}'
drive_gone jb2
_t=0
while [ -e "$ENC/Slot02/device" ]; do
    _t=$((_t + 1))
    [ $_t -lt 300 ] || fail "Slot02 still links a device after the pull"
    sleep 0.2
done
sg_ses --index=2 --page=2 "$SG" | grep -q 'status: Not installed' ||
    fail "slot 2 is not empty after the pull"
assert_eq "Slot02/locate of the empty bay" 0 "$(cat "$ENC/Slot02/locate")"
drive_insert jb4 raid0 2 sas
_t=0
until JB4=$(sd_of_drive jb4) && [ -e "$ENC/Slot02/device/block/$JB4" ]; do
    _t=$((_t + 1))
    [ $_t -lt 300 ] || { ls -l "$ENC/Slot02/"; fail "Slot02 does not link the new drive's disk"; }
    sleep 0.2
done
log "Slot02 -> $JB4 (jb4, inserted)"
expect_led jb4 false false
assert_eq "Slot02/locate of the new drive" 0 "$(cat "$ENC/Slot02/locate")"

# A host reset: the SEP, the enclosure and its links stay as they were.
ls -l "$ENC"/Slot0[0-3]/ > /tmp/ses.before 2>&1
sg_reset -H "$SG" || fail "sg_reset -H failed"
wait_dmesg 'newly added devices after soft reset completed' \
    'unrecoverable|reset failed' 120 "the device refresh after the reset"
[ -e "$ENC/Slot03/device/block/$JB3" ] || fail "Slot03 lost its disk after the reset"
[ -e "$ENC/Slot02/device/block/$JB4" ] || fail "Slot02 lost its disk after the reset"
echo 1 > "$ENC/Slot03/locate"
expect_led jb3 true false
echo 0 > "$ENC/Slot03/locate"
expect_led jb3 false false
log "the enclosure after the host reset as before"

# (the host reset's lines, as in mr9600-reset)
mr9600_driver_log 'mpi3mr[0-9]+: (controller reset is triggered by error handling|diag fault reset due to error handling\(0x4\)|soft reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
check_dmesg 'mpi3mr[0-9]+: (diag fault reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
