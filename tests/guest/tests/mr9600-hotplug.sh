# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 hot plug: device_del of an NVMe and a SAS drive while the
# guest runs removes their disks cleanly; device_add of an NVMe and a SATA
# drive makes new disks appear with their identity and data.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ disk d0 32M vendor=NVMe product=MR-HP-0 serial=SHP0
#@ disk d1 32M vendor=SEAGATE product=MRHPSAS1 serial=SHP1
#@ disk d2 32M vendor=NVMe product=MR-HP-2 serial=SHP2
#@ disk d3 32M vendor=ATA product=MRHPSATA3 serial=SHP3
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0,interface=nvme,model=MR-HP-0,serial=SHP0
#@ qemu -device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1,interface=sas,vendor=SEAGATE,model=MRHPSAS1,serial=SHP1
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
disks_only d0 d1
wait_disks 120
check_disks
mr9600_driver_log

qmp_send '{"execute":"device_del","arguments":{"id":"hd0"}}'
disk_gone d0
dmesg | grep -q 'removal handshake completed successfully' ||
    log "note: no removal handshake message (logging level)"
disks_only d1
check_disks

qmp_send '{"execute":"device_add","arguments":{"driver":"megaraid-drive","id":"hd2","bus":"raid0.0","slot":5,"drive":"d2","interface":"nvme","model":"MR-HP-2","serial":"SHP2"}}'
disks_only d1 d2
wait_disks 120
check_disks

qmp_send '{"execute":"device_del","arguments":{"id":"hd1"}}'
disk_gone d1
qmp_send '{"execute":"device_add","arguments":{"driver":"megaraid-drive","id":"hd3","bus":"raid0.0","slot":1,"drive":"d3","interface":"sata","model":"MRHPSATA3","serial":"SHP3"}}'
disks_only d2 d3
wait_disks 120
check_disks
fio_verify "$(disk_dev d2)" 8M
fio_verify "$(disk_dev d3)" 8M
for _n in d2 d3; do
    host_expect "$_n" "$(disk_dev "$_n")"
done
# Drives pulled and inserted log no errors (driver or kernel).
mr9600_driver_log ""
check_dmesg ""
