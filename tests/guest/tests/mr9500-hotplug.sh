# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9500 hot plug and the ioctl pass-through: device_del of a SAS
# drive removes its disk (PD_REMOVED through the held EVENT_WAIT),
# device_add of a SATA drive makes a new disk appear with its identity
# and data (PD_INSERTED); smartctl -d megaraid,N reaches the drives by PD
# id through MFI PD_SCSI_IO frames on the driver's ioctl node.
# The controller offers 16 reply queues as RDPQ arrays (rdpq=on).
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ disk d0 32M vendor=SEAGATE product=MR95HP0 serial=H95P0
#@ disk d1 32M vendor=SEAGATE product=MR95HP1 serial=H95P1
#@ disk d2 32M vendor=ATA product=MR95HPSATA2 serial=H95P2
#@ qemu -device megaraid-9500,id=raid0,rdpq=on,queues=16,model=9560-16i
#@ qemu -device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,interface=sas,vendor=SEAGATE,model=MR95HP0,serial=H95P0
#@ qemu -device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1,interface=sas,vendor=SEAGATE,model=MR95HP1,serial=H95P1

# The driver's log: nothing that reads as a failure.
mr9500_log_clean() {
    _m=$(dmesg | grep -iE 'megaraid_sas|megasas')
    _bad=$(echo "$_m" | grep -iE 'fail|error|invalid|timed out|not supported|unknown|(^|[^a-z])fault|killing|critical|pool empty|WARNING')
    [ -z "$_bad" ] || { echo "$_m"; fail "megaraid_sas logged errors: $_bad"; }
    log "megaraid_sas log clean"
}

need_driver megaraid_sas
disks_only d0 d1
wait_disks 120
check_disks
mr9500_log_clean
assert_match "RDPQ mode" 'RDPQ mode.*enabled' "$(dmesg | grep 'RDPQ mode')"

# smartctl through the ioctl node, by PD id (= slot)
_v=$(smartctl -i -d megaraid,1 "$(disk_dev d0)" 2>&1)
echo "$_v"
assert_match "smartctl megaraid,1 vendor" 'Vendor: +SEAGATE' "$_v"
assert_match "smartctl megaraid,1 product" 'Product: +MR95HP1' "$_v"
_v=$(smartctl -i -d megaraid,9 "$(disk_dev d0)" 2>&1)
assert_match "smartctl megaraid,9 (no drive)" 'does not exist|No such device|INQUIRY failed' "$_v"

qmp_send '{"execute":"device_del","arguments":{"id":"hd0"}}'
disk_gone d0
disks_only d1
check_disks

qmp_send '{"execute":"device_add","arguments":{"driver":"megaraid-drive","id":"hd2","bus":"raid0.0","slot":4,"drive":"d2","interface":"sata","model":"MR95HPSATA2","serial":"H95P2"}}'
disks_only d1 d2
wait_disks 120
check_disks
fio_verify "$(disk_dev d1)" 8M
fio_verify "$(disk_dev d2)" 8M
_v=$(smartctl -i -d megaraid,4 "$(disk_dev d1)" 2>&1)
echo "$_v"
assert_match "smartctl megaraid,4 (SATA) model" 'MR95HPSATA2' "$_v"
for _n in d1 d2; do
    host_expect "$_n" "$(disk_dev "$_n")"
done
mr9500_log_clean
check_dmesg ""
