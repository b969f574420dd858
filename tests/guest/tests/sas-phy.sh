# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 with sas-transport=on: the controller's phys controlled
# through mpi3mr's SAS transport sysfs, unmodified: the phy error counters
# of SAS Phy page 1 read what QOM set; maximum_linkrate 6.0 Gbit lowers a
# SAS drive's negotiated rate, 22.5 brings it back to 12.0; enable 0 on a
# JBOD drive's phy takes its disk away, enable 1 brings it back with its
# data; link_reset and hard_reset under fio verify fail no I/O; an
# injected renegotiation at 6 Gb/s shows in negotiated_linkrate; injected
# faults under fio verify fail no I/O either: a link flap (DELAY NOT
# RESPONDING, then RESPONDING: the driver holds the drive's I/O
# meanwhile), an internal device reset (start, complete), events sent
# with ACK REQUIRED (the driver acknowledges each); the driver log stays
# clean.  One kernel: 7.2 (the transport code of these paths is the same
# in 6.1's driver).
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ kernels 7.2
#@ disk d0 32M vendor=SEAGATE product=MRSASPHY0 serial=SPH0
#@ disk d1 32M vendor=SEAGATE product=MRSASPHY1 serial=SPH1
#@ disk d2 32M vendor=ATA product=MRSATAPHY2 serial=SPH2
#@ qemu -device megaraid-9600,id=raid0,sas-transport=on
#@ qemu -device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,interface=sas,vendor=SEAGATE,model=MRSASPHY0,serial=SPH0,wwn=0x5000c50000a0c000
#@ qemu -device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1,interface=sas,vendor=SEAGATE,model=MRSASPHY1,serial=SPH1,wwn=0x5000c50000a0c010
#@ qemu -device megaraid-drive,id=hd2,bus=raid0.0,slot=2,drive=d2,interface=sata,model=MRSATAPHY2,serial=SPH2,wwn=0x5000c50000a0c020
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

CTRL=/machine/peripheral/raid0

# phy N ATTR: the SAS host's phy N's attribute; phy_set N ATTR VALUE.
phy() {
    cat "/sys/class/sas_phy/phy-$HOSTNO:$1/$2"
}
phy_set() {
    echo "$3" > "/sys/class/sas_phy/phy-$HOSTNO:$1/$2" ||
        fail "writing '$3' to phy $1's $2 failed"
    log "phy $1: $2 = $3"
}

# wait_rate N RATE: phy N's negotiated rate becomes RATE (30 s).
wait_rate() {
    _t=0
    until [ "$(phy "$1" negotiated_linkrate)" = "$2" ]; do
        _t=$((_t + 1))
        [ $_t -lt 150 ] || fail "phy $1 rate $(phy "$1" negotiated_linkrate), not $2"
        sleep 0.2
    done
}

# end_devices: how many SAS end devices the host has.
end_devices() {
    find /sys/class/sas_end_device -mindepth 1 -maxdepth 1 | wc -l
}

need_driver mpi3mr
wait_disks 120
check_disks
mr9600_driver_log
HOST=$(ls /sys/class/sas_host)
HOSTNO=${HOST#host}
assert_eq "SAS end devices" 3 "$(end_devices)"

# Phy page 1's error counters: what QOM sets, the driver's sysfs reads.
_v=100
for _c in invalid_dword_count running_disparity_error_count \
          loss_of_dword_sync_count phy_reset_problem_count; do
    _v=$((_v + 11))
    qom_set "$CTRL" "phy2-${_c//_/-}" "$_v"
    assert_eq "phy 2 $_c" "$_v" "$(phy 2 "$_c")"
    assert_eq "phy 0 $_c" 0 "$(phy 0 "$_c")"
done
qom_set "$CTRL" phy0-invalid-dword-count 4294967295
assert_eq "phy 0 invalid_dword_count" 4294967295 "$(phy 0 invalid_dword_count)"
qom_set "$CTRL" phy0-invalid-dword-count 0

# The programmed maximum below the drive's 12 Gb/s: 6.0; back: 12.0.
assert_eq "phy 0 rate" "12.0 Gbit" "$(phy 0 negotiated_linkrate)"
assert_eq "phy 0 maximum" "22.5 Gbit" "$(phy 0 maximum_linkrate)"
phy_set 0 maximum_linkrate "6.0 Gbit"
wait_rate 0 "6.0 Gbit"
assert_eq "phy 0 maximum" "6.0 Gbit" "$(phy 0 maximum_linkrate)"
assert_eq "phy 0 minimum" "6.0 Gbit" "$(phy 0 minimum_linkrate)"
check_disk d0
phy_set 0 maximum_linkrate "22.5 Gbit"
wait_rate 0 "12.0 Gbit"
assert_eq "phy 0 maximum" "22.5 Gbit" "$(phy 0 maximum_linkrate)"
assert_eq "SAS end devices after the rate changes" 3 "$(end_devices)"

# Phy 1 disabled: its JBOD disk goes; enabled: back with its data.
_sum=$(dd if="$(disk_dev d1)" bs=1M count=32 iflag=direct 2>/dev/null | md5sum)
phy_set 1 enable 0
disk_gone d1
_t=0
until [ "$(end_devices)" = 2 ]; do
    _t=$((_t + 1))
    [ $_t -lt 150 ] || fail "end device of the disabled phy still there"
    sleep 0.2
done
assert_eq "phy 1 enable" 0 "$(phy 1 enable)"
phy_set 1 enable 1
disks_only d0 d1 d2
wait_disks 120
check_disk d1
assert_eq "d1 content after enable 0/1" "$_sum" \
    "$(dd if="$(disk_dev d1)" bs=1M count=32 iflag=direct 2>/dev/null | md5sum)"
wait_rate 1 "12.0 Gbit"
assert_eq "SAS end devices after enable" 3 "$(end_devices)"

# Link and hard resets of the busy drives' phys: no I/O fails.
mr9600_fio_start "$(disk_dev d0)" "$(disk_dev d2)"
for _i in 1 2 3; do
    phy_set 0 link_reset 1
    phy_set 2 hard_reset 1
    sleep 1
done
mr9600_fio_check "link_reset and hard_reset under I/O"
assert_eq "phy 0 rate after the resets" "12.0 Gbit" "$(phy 0 negotiated_linkrate)"
assert_eq "phy 2 rate after the resets" "6.0 Gbit" "$(phy 2 negotiated_linkrate)"
assert_eq "SAS end devices after the resets" 3 "$(end_devices)"

# wait_qom PROP VALUE: the controller's PROP reads VALUE (30 s).
wait_qom() {
    _t=0
    qom_get "$CTRL" "$1"
    until [ "$QOM" = "$2" ]; do
        _t=$((_t + 1))
        [ $_t -lt 150 ] || fail "$1 reads '$QOM', not '$2'"
        sleep 0.2
        qom_get "$CTRL" "$1"
    done
}

# The link renegotiating at 6 Gb/s by itself (a PHY CHANGED list), and back.
qom_set "$CTRL" inject-phy-rate '"0:6.0"'
wait_rate 0 "6.0 Gbit"
qom_set "$CTRL" inject-phy-rate '"0:none"'
wait_rate 0 "12.0 Gbit"

# A link flap of 3 s and an internal reset of 2 s under I/O, their events
# with ACK REQUIRED: no I/O fails, the driver acknowledges all four.
mr9600_fio_start "$(disk_dev d0)" "$(disk_dev d2)"
qom_set "$CTRL" inject-ack-events 4
qom_set "$CTRL" inject-link-flap '"0:3000"'
qom_set "$CTRL" inject-device-reset '"2:2000"'
qom_get "$CTRL" inject-link-flap
assert_eq "phys flapping" 0 "$QOM"
wait_qom inject-link-flap ""
wait_qom inject-device-reset ""
wait_qom events-awaiting-ack 0
qom_get "$CTRL" events-acked
assert_eq "events the driver acknowledged" 4 "$QOM"
mr9600_fio_check "a link flap and an internal device reset under I/O"
assert_eq "phy 0 loss_of_dword_sync_count after the flap" 1 \
    "$(phy 0 loss_of_dword_sync_count)"
assert_eq "SAS end devices after the flap" 3 "$(end_devices)"
fio_verify "$(disk_dev d0)" 8M
mr9600_driver_log
