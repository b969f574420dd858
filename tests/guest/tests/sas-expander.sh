# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 with sas-transport=on and a megaraid-expander (28 phys)
# on controller phys 0-3: mpi3mr builds one SAS expander with the
# expander's SAS address on a 4-phy wide port of the host, its 28 phys,
# and behind it an end device per drive (SAS, SATA, SAS) with the SAS
# address of the drive's WWN, its enclosure the expander's and its bay
# the drive's slot; a drive directly on controller phy 4 stays an end
# device of the host; fio verifies through the expander; a host reset
# (sg_reset -H) leaves the topology as it was; the driver log is clean.
# smp_utils answer through /dev/bsg/expander-H:0.
# 7.2 only for now: 6.1's driver reads a drive's rate from SAS Expander
# page 1 (the qtest covers the page) and cuts the expander's vendor to 7
# characters; this test less its SMP part passed on 6.1 by hand (its
# image has no smp_utils yet).
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ kernels 7.2
#@ disk d0 32M vendor=SEAGATE product=MREXPSAS0 serial=EXP0
#@ disk d1 32M vendor=ATA product=MREXPSATA1 serial=EXP1
#@ disk d2 32M vendor=SEAGATE product=MREXPSAS2 serial=EXP2
#@ disk d3 32M vendor=SEAGATE product=MREXPDIR3 serial=EXP3
#@ qemu -device megaraid-9600,id=raid0,sas-transport=on
#@ qemu -device megaraid-expander,id=exp1,controller=raid0,enclosure=1,phys=28,port=0,width=4
#@ qemu -device megaraid-drive,id=hd0,bus=raid0.0,enclosure=1,slot=0,drive=d0,interface=sas,vendor=SEAGATE,model=MREXPSAS0,serial=EXP0,wwn=0x5000c50000a0e000
#@ qemu -device megaraid-drive,id=hd1,bus=raid0.0,enclosure=1,slot=1,drive=d1,interface=sata,model=MREXPSATA1,serial=EXP1,wwn=0x5000c50000a0e010
#@ qemu -device megaraid-drive,id=hd2,bus=raid0.0,enclosure=1,slot=6,drive=d2,interface=sas,vendor=SEAGATE,model=MREXPSAS2,serial=EXP2,wwn=0x5000c50000a0e020
#@ qemu -device megaraid-drive,id=hd3,bus=raid0.0,slot=4,drive=d3,interface=sas,vendor=SEAGATE,model=MREXPDIR3,serial=EXP3,wwn=0x5000c50000a0e030
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

EXPADDR=0x500062b2000c01ff      # the controller's + enclosure 1 * 0x100 + 0xff

sas_count() {
    find "/sys/class/$1" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

# the sysfs device path of disk DEV
disk_path() {
    readlink -f "/sys/block/${1#/dev/}/device"
}

end_device_of() {
    disk_path "$1" | grep -oE 'end_device-[0-9]+:[0-9]+(:[0-9]+)?' |
        tail -n 1
}

# check_end_device NAME QOM-ID WWN ENCLOSURE EXPANDER(yes|no)
check_end_device() {
    local dev ed slot
    dev=$(disk_dev "$1") || fail "disk $1 missing"
    ed=$(end_device_of "$dev")
    [ -n "$ed" ] || { disk_path "$dev"; fail "disk $1 ($dev) is no SAS end device"; }
    assert_eq "$1 SAS address" "$3" "$(cat "/sys/class/sas_device/$ed/sas_address")"
    qom_get "/machine/peripheral/$2" slot
    slot=$QOM
    assert_eq "$1 bay identifier (QOM slot)" "$slot" \
        "$(cat "/sys/class/sas_device/$ed/bay_identifier")"
    assert_eq "$1 enclosure identifier" "$4" \
        "$(cat "/sys/class/sas_device/$ed/enclosure_identifier")"
    if [ "$5" = yes ]; then
        disk_path "$dev" | grep -q "/$EXP/" ||
            { disk_path "$dev"; fail "$1 is not behind $EXP"; }
    else
        ! disk_path "$dev" | grep -q "/expander-" ||
            { disk_path "$dev"; fail "$1 is behind an expander"; }
    fi
    lsscsi -t | grep -q "sas:$3" ||
        { lsscsi -t; fail "lsscsi -t does not show $1 at sas:$3"; }
    log "$1: $ed, SAS address $3, enclosure $4 bay $slot"
}

# topology: the transport objects' identities, rates and widths
topology() {
    grep -H . /sys/class/sas_device/*/sas_address \
        /sys/class/sas_device/*/enclosure_identifier \
        /sys/class/sas_device/*/bay_identifier \
        /sys/class/sas_phy/*/negotiated_linkrate \
        /sys/class/sas_phy/*/sas_address \
        /sys/class/sas_port/*/num_phys 2>/dev/null
}

need_driver mpi3mr
disks_only d0 d1 d2 d3
wait_disks 120
check_disks
mr9600_driver_log

HOST=$(ls /sys/class/sas_host)
HOSTNO=${HOST#host}
HOSTADDR=$(cat /sys/class/sas_phy/phy-"$HOSTNO":0/sas_address)
assert_eq "SAS expanders" 1 "$(sas_count sas_expander)"
EXP=$(ls /sys/class/sas_expander)
assert_eq "expander SAS address" "$EXPADDR" \
    "$(cat "/sys/class/sas_device/$EXP/sas_address")"
assert_eq "expander device type" "edge expander" \
    "$(cat "/sys/class/sas_device/$EXP/device_type")"
# 16 host phys and the expander's 28
assert_eq "SAS phys" 44 "$(sas_count sas_phy)"
assert_eq "expander phys" 28 \
    "$(find "/sys/class/sas_phy" -name "phy-$HOSTNO:0:*" | wc -l)"
# the host's wide port to the expander: 4 phys; the direct drive's: 1
_wide=$(dirname "$(readlink -f "/sys/class/sas_device/$EXP/device")")
_wide=${_wide##*/}
assert_eq "wide port width" 4 "$(cat "/sys/class/sas_port/$_wide/num_phys")"
for _p in 0 1 2 3; do
    assert_eq "host phy $_p rate" "22.5 Gbit" \
        "$(cat /sys/class/sas_phy/phy-"$HOSTNO":"$_p"/negotiated_linkrate)"
    [ -e "/sys/class/sas_port/$_wide/device/phy-$HOSTNO:$_p" ] ||
        { ls "/sys/class/sas_port/$_wide/device/"; fail "host phy $_p not in $_wide"; }
done
assert_eq "SAS ports" 5 "$(sas_count sas_port)"
assert_eq "SAS end devices" 4 "$(sas_count sas_end_device)"
for _p in 0 1 6; do
    _r="12.0 Gbit"; [ $_p = 1 ] && _r="6.0 Gbit"
    assert_eq "expander phy $_p rate" "$_r" \
        "$(cat /sys/class/sas_phy/phy-"$HOSTNO":0:"$_p"/negotiated_linkrate)"
done
assert_eq "empty expander phy 2" "Unknown" \
    "$(cat /sys/class/sas_phy/phy-"$HOSTNO":0:2/negotiated_linkrate)"
for _p in 24 25 26 27; do
    assert_eq "expander phy $_p (to the host) rate" "22.5 Gbit" \
        "$(cat /sys/class/sas_phy/phy-"$HOSTNO":0:"$_p"/negotiated_linkrate)"
done
check_end_device d0 hd0 0x5000c50000a0e000 "$EXPADDR" yes
check_end_device d1 hd1 0x5000c50000a0e010 "$EXPADDR" yes
check_end_device d2 hd2 0x5000c50000a0e020 "$EXPADDR" yes
check_end_device d3 hd3 0x5000c50000a0e030 "$HOSTADDR" no

# REPORT MANUFACTURER INFORMATION, sent by the driver when it added it
# (space-padded as the SMP fields are)
exp_attr() {
    sed 's/ *$//' "/sys/class/sas_expander/$EXP/$1"
}
assert_eq "expander vendor" BROADCOM "$(exp_attr vendor_id)"
assert_eq "expander product" SAS4x28 "$(exp_attr product_id)"
assert_eq "expander revision" 0100 "$(exp_attr product_rev)"
assert_eq "expander component vendor" BROADCOM "$(exp_attr component_vendor_id)"

# smp_utils through the expander's bsg node
BSG=/dev/bsg/$EXP
[ -e "$BSG" ] || { ls /dev/bsg; fail "$BSG missing"; }
smp_rep_general "$BSG" > /tmp/rg || fail "smp_rep_general failed"
grep -q "number of phys: 28" /tmp/rg || { cat /tmp/rg; fail "REPORT GENERAL: not 28 phys"; }
grep -qi "enclosure logical identifier (hex): *${EXPADDR#0x}" /tmp/rg ||
    grep -qi "${EXPADDR#0x}" /tmp/rg || { cat /tmp/rg; fail "REPORT GENERAL: enclosure id"; }
smp_rep_manufacturer "$BSG" > /tmp/rm || fail "smp_rep_manufacturer failed"
if ! grep -q "vendor identification: BROADCOM" /tmp/rm ||
   ! grep -q "product identification: SAS4x28" /tmp/rm; then
    cat /tmp/rm
    fail "REPORT MANUFACTURER strings"
fi
smp_discover "$BSG" > /tmp/disc || fail "smp_discover failed"
for _a in 5000c50000a0e000 5000c50000a0e010 5000c50000a0e020 "${HOSTADDR#0x}"; do
    grep -qi "$_a" /tmp/disc || { cat /tmp/disc; fail "smp_discover: no $_a"; }
done
smp_discover -p 6 "$BSG" > /tmp/disc6 || fail "smp_discover -p 6 failed"
grep -qi "attached SAS address: 0x5000c50000a0e020" /tmp/disc6 ||
    { cat /tmp/disc6; fail "DISCOVER phy 6: attached address"; }
smp_rep_phy_err_log -p 0 "$BSG" > /dev/null || fail "smp_rep_phy_err_log failed"
# PHY CONTROL: the vacant phy 2 disabled and back by a link reset; a
# drive's phy is not taken down
smp_phy_control --phy=2 --op=dis "$BSG" || fail "PHY CONTROL disable of phy 2"
smp_discover "$BSG" > /tmp/disc
grep -q "phy   2:.:disabled" /tmp/disc || { cat /tmp/disc; fail "phy 2 not disabled"; }
smp_phy_control --phy=2 --op=lr "$BSG" || fail "PHY CONTROL link reset of phy 2"
smp_discover "$BSG" > /tmp/disc
! grep -q "phy   2:.:disabled" /tmp/disc || { cat /tmp/disc; fail "phy 2 still disabled"; }
! smp_phy_control --phy=0 --op=dis "$BSG" 2> /dev/null ||
    fail "PHY CONTROL disabled the phy of drive d0"
smp_discover -p 0 "$BSG" | grep -qi "attached SAS address: 0x5000c50000a0e000" ||
    fail "phy 0 lost its drive"
log "smp_utils: REPORT GENERAL, REPORT MANUFACTURER, DISCOVER, PHY ERROR LOG, PHY CONTROL ok"

# A host reset: the driver refreshes ports, expanders and devices.
mr9600_reset_keeps topology "$(disk_dev d0)"
assert_eq "SAS expanders after the reset" 1 "$(sas_count sas_expander)"
check_disks
# I/O through the expander (SAS and SATA), after the disks' checks
fio_verify "$(disk_dev d2)" 8M
fio_verify "$(disk_dev d1)" 8M
mr9600_driver_log 'mpi3mr[0-9]+: (controller reset is triggered by error handling|diag fault reset due to error handling\(0x4\)|soft reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
check_dmesg 'mpi3mr[0-9]+: (diag fault reset due to error handling\(0x4\)|fault code\(0x0000F000\): Additional code: \(0x00000000:0x00000000:0x00000000\))$'
