# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 with sas-transport=on: mpi3mr runs its SAS transport
# layer.  One SAS host with the model's 16 phys, the directly attached
# SAS and SATA drives each an end device on its own port with the SAS
# address of its WWN, their phys at their negotiated rate (12 and 6 Gb/s),
# the empty phys at none; every end device's enclosure is the card's
# (its logical ID the host's SAS address) and its bay the drive's QOM
# slot; an NVMe drive stays a plain SCSI target on the driver's second
# channel; a drive pulled takes its port and end device with it, one
# inserted in its bay brings them back; a host reset (sg_reset -H) leaves
# the transport objects as they were; the kernel log stays clean.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ kernels 6.1 7.2
#@ disk d0 32M vendor=SEAGATE product=MRSASTOPO0 serial=STP0
#@ disk d1 32M vendor=ATA product=MRSATATOPO1 serial=STP1
#@ disk d2 32M vendor=SEAGATE product=MRSASTOPO2 serial=STP2
#@ disk d3 32M vendor=NVMe product=MR-TOPO-3 serial=STP3
#@ disk d4 32M vendor=ATA product=MRSATATOPO4 serial=STP4
#@ qemu -device megaraid-9600,id=raid0,sas-transport=on
#@ qemu -device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,interface=sas,vendor=SEAGATE,model=MRSASTOPO0,serial=STP0,wwn=0x5000c50000a0b000
#@ qemu -device megaraid-drive,id=hd1,bus=raid0.0,slot=2,drive=d1,interface=sata,model=MRSATATOPO1,serial=STP1,wwn=0x5000c50000a0b010
#@ qemu -device megaraid-drive,id=hd2,bus=raid0.0,slot=5,drive=d2,interface=sas,vendor=SEAGATE,model=MRSASTOPO2,serial=STP2,wwn=0x5000c50000a0b020
#@ qemu -device megaraid-drive,id=hd3,bus=raid0.0,slot=8,drive=d3,interface=nvme,model=MR-TOPO-3,serial=STP3
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

CTRL=/machine/peripheral/raid0

# sas_count CLASS: the objects of /sys/class/CLASS.
sas_count() {
    find "/sys/class/$1" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

# end_device_of DEV: the SAS end device (end_device-H:B:N) above disk DEV.
end_device_of() {
    readlink -f "/sys/block/${1#/dev/}/device" |
        grep -oE 'end_device-[0-9]+:[0-9]+(:[0-9]+)?' | tail -n 1
}

# phy_attr N ATTR: the SAS host's phy N's attribute.
phy_attr() {
    cat /sys/class/sas_phy/phy-"$HOSTNO":"$1"/"$2"
}

# check_end_device NAME QOM-ID WWN RATE: disk NAME is an end device with
# SAS address WWN, in the card's enclosure, in the bay QOM says is its
# slot, on the phy of that slot which runs at RATE.
check_end_device() {
    local dev ed slot bay encl addr
    dev=$(disk_dev "$1") || fail "disk $1 missing"
    ed=$(end_device_of "$dev")
    [ -n "$ed" ] || { readlink -f "/sys/block/${dev#/dev/}/device";
                      fail "disk $1 ($dev) is no SAS end device"; }
    [ -d "/sys/class/sas_end_device/$ed" ] ||
        fail "$ed not in /sys/class/sas_end_device"
    addr=$(cat "/sys/class/sas_device/$ed/sas_address")
    assert_eq "$1 SAS address" "$3" "$addr"
    qom_get "/machine/peripheral/$2" slot
    slot=$QOM
    bay=$(cat "/sys/class/sas_device/$ed/bay_identifier")
    assert_eq "$1 bay identifier (QOM slot)" "$slot" "$bay"
    encl=$(cat "/sys/class/sas_device/$ed/enclosure_identifier")
    assert_eq "$1 enclosure identifier" "$HOSTADDR" "$encl"
    assert_eq "phy $slot negotiated rate" "$4" \
        "$(phy_attr "$slot" negotiated_linkrate)"
    lsscsi -t | grep -q "sas:$3" ||
        { lsscsi -t; fail "lsscsi -t does not show $1 at sas:$3"; }
    log "$1: $ed, SAS address $addr, enclosure $encl bay $bay, $4"
}

# topology: every end device with its address, enclosure and bay, and
# every phy with its rate, one line each.
topology() {
    local e p
    for e in /sys/class/sas_end_device/*; do
        p=/sys/class/sas_device/${e##*/}
        echo "${e##*/} $(cat "$p/sas_address") $(cat "$p/enclosure_identifier") $(cat "$p/bay_identifier")"
    done
    for p in /sys/class/sas_phy/*; do
        echo "${p##*/} $(cat "$p/negotiated_linkrate")"
    done
}

need_driver mpi3mr
disks_only d0 d1 d2 d3
wait_disks 120
check_disks
mr9600_driver_log

# One SAS host, the 9670W-16i's 16 phys, all with the host's address.
assert_eq "SAS hosts" 1 "$(sas_count sas_host)"
HOST=$(ls /sys/class/sas_host)
HOSTNO=${HOST#host}
assert_eq "SAS phys" 16 "$(sas_count sas_phy)"
HOSTADDR=$(phy_attr 0 sas_address)
case "$HOSTADDR" in
0x5*) ;;
*) fail "host SAS address $HOSTADDR is no NAA 5 name" ;;
esac
for _p in $(seq 0 15); do
    assert_eq "phy $_p SAS address" "$HOSTADDR" "$(phy_attr "$_p" sas_address)"
    assert_eq "phy $_p max hw rate" "22.5 Gbit" \
        "$(phy_attr "$_p" maximum_linkrate_hw)"
done
for _p in 1 3 4 6 7 8 9 10 11 12 13 14 15; do
    assert_eq "empty phy $_p rate" "Unknown" \
        "$(phy_attr "$_p" negotiated_linkrate)"
done

# Three ports and end devices: the SAS and SATA drives; not the NVMe.
assert_eq "SAS ports" 3 "$(sas_count sas_port)"
assert_eq "SAS end devices" 3 "$(sas_count sas_end_device)"
check_end_device d0 hd0 0x5000c50000a0b000 "12.0 Gbit"
check_end_device d1 hd1 0x5000c50000a0b010 "6.0 Gbit"
check_end_device d2 hd2 0x5000c50000a0b020 "12.0 Gbit"
_nv=$(disk_dev d3)
[ -z "$(end_device_of "$_nv")" ] || fail "the NVMe drive is a SAS end device"
_hctl=$(basename "$(readlink -f "/sys/block/${_nv#/dev/}/device")")
assert_eq "NVMe drive's channel" 1 "$(echo "$_hctl" | cut -d: -f2)"
fio_verify "$(disk_dev d1)" 8M

# Hot pull of the SATA drive in slot 2: its port and end device go.
qmp_ok '{"execute":"device_del","arguments":{"id":"hd1"}}'
disk_gone d1
_t=0
until [ "$(sas_count sas_end_device)" = 2 ]; do
    _t=$((_t + 1))
    [ $_t -lt 150 ] || fail "end device of the pulled drive still there"
    sleep 0.2
done
assert_eq "SAS ports after the pull" 2 "$(sas_count sas_port)"
assert_eq "SAS phys after the pull" 16 "$(sas_count sas_phy)"
disks_only d0 d2 d3
check_disks

# Another SATA drive into bay 2: a port and end device again.
qmp_ok '{"execute":"device_add","arguments":{"driver":"megaraid-drive","id":"hd4","bus":"raid0.0","slot":2,"drive":"d4","interface":"sata","model":"MRSATATOPO4","serial":"STP4","wwn":5764824126835437632}}'
disks_only d0 d2 d3 d4
wait_disks 120
check_disks
assert_eq "SAS ports after the insert" 3 "$(sas_count sas_port)"
assert_eq "SAS end devices after the insert" 3 "$(sas_count sas_end_device)"
check_end_device d4 hd4 0x5000c50000a0b040 "6.0 Gbit"
check_end_device d0 hd0 0x5000c50000a0b000 "12.0 Gbit"

# A host reset: the driver re-reads the topology; nothing changes.
mr9600_reset_keeps topology "$(disk_dev d0)"
assert_eq "SAS end devices after the reset" 3 "$(sas_count sas_end_device)"
check_disks
fio_verify "$(disk_dev d4)" 8M
for _n in d0 d4; do
    host_expect "$_n" "$(disk_dev "$_n")"
done
# (the host reset's lines, as in mr9600-reset)
mr9600_driver_log 'mpi3mr[0-9]+: (controller reset is triggered by error handling|diag fault reset due to error handling\(0x4\)|soft reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
check_dmesg 'mpi3mr[0-9]+: (diag fault reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
