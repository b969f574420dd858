# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9500 (Fusion, SAS3916 "Aero") with three SAS and one SATA JBOD
# drive: the unmodified megaraid_sas binds, its log has no error line, every
# drive shows with its vendor, model, serial and size and the queue depth
# the firmware's target properties give, fio verifies on one,
# ext4 round trip, the image holds what the guest wrote; then rmmod and
# modprobe again and the drives come back the same.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ disk j0 32M vendor=SEAGATE product=MR95SAS0 serial=J95S00
#@ disk j1 48M vendor=SEAGATE product=MR95SAS1 serial=J95S01
#@ disk j2 32M vendor=HGST product=MR95SAS2 serial=J95S02
#@ disk j3 32M vendor=ATA product=MR95SATA0 serial=J95A00
#@ qemu -device megaraid-9500,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=j0,interface=sas,vendor=SEAGATE,model=MR95SAS0,serial=J95S00
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=j1,interface=sas,vendor=SEAGATE,model=MR95SAS1,serial=J95S01
#@ qemu -device megaraid-drive,bus=raid0.0,slot=5,drive=j2,interface=sas,vendor=HGST,model=MR95SAS2,serial=J95S02
#@ qemu -device megaraid-drive,bus=raid0.0,slot=7,drive=j3,interface=sata,model=MR95SATA0,serial=J95A00

. /mrsim/lib-mr9500.sh

need_driver megaraid_sas
wait_disks 120
check_disks
mr9500_driver_log
# The firmware's target properties (DEV_GET_TARGET_PROP, asked for every
# device because scratch pad 3 gives an NVMe page size): queue depth 64
# for SAS, 32 for SATA; the driver's own default for SAS would be 256.
for _n in j0 j1 j2 j3; do
    _want=64
    [ "$_n" = j3 ] && _want=32
    _b=$(disk_dev "$_n")
    assert_eq "queue depth of $_n (${_b#/dev/})" "$_want" \
        "$(cat "/sys/block/${_b#/dev/}/device/queue_depth")"
done
_d0=$(disk_dev j0)
fio_verify "$_d0" 8M
fs_roundtrip "$(disk_dev j1)"
check_dmesg ""

# what every drive holds now, to compare after the driver reload
sync
echo 3 > /proc/sys/vm/drop_caches
for _n in $(disk_names); do
    echo "$_n $(sha256sum < "$(disk_dev "$_n")" | cut -d' ' -f1)"
done > /tmp/mr9500-sums
log "rmmod megaraid_sas"
assert_cmd "rmmod megaraid_sas" rmmod megaraid_sas
_left=$(lsscsi | grep -c disk)
assert_eq "disks left after rmmod" 0 "$_left"
dmesg -c > /dev/null
need_modules megaraid_sas
need_driver megaraid_sas
wait_disks 120
for _n in $(disk_names); do
    assert_eq "content of $_n after the reload" \
        "$(sed -n "s/^$_n //p" /tmp/mr9500-sums)" \
        "$(sha256sum < "$(disk_dev "$_n")" | cut -d' ' -f1)"
    _l=$(lsscsi | tr '\t' ' ' | grep " $(disk_dev "$_n") *\$")
    assert_match "lsscsi line of $_n after the reload" \
        " $(disk_attr "$_n" product) " "$_l"
done
mr9500_driver_log
fio_verify "$(disk_dev j3)" 4M
for _n in $(disk_names); do
    host_expect "$_n" "$(disk_dev "$_n")"
done
check_dmesg ""
