# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 with PCI revision 0: the driver then uses contiguous
# operational queues and 4096-entry reply queues (and validates UNMAP for
# NVMe targets itself).  Two NVMe and one SAS drive: identity, fio with
# crc32c verification on all three at once, ext4, images hold what the
# guest reads.
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ disk c0 32M vendor=NVMe product=MR-CONTIG-0 serial=SCONT0
#@ disk c1 32M vendor=NVMe product=MR-CONTIG-1 serial=SCONT1
#@ disk c2 32M vendor=SEAGATE product=MRCONTSAS2 serial=SCONT2
#@ qemu -device megaraid-9600,id=raid0,revision=0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=c0,interface=nvme,model=MR-CONTIG-0,serial=SCONT0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=c1,interface=nvme,model=MR-CONTIG-1,serial=SCONT1
#@ qemu -device megaraid-drive,bus=raid0.0,slot=2,drive=c2,interface=sas,vendor=SEAGATE,model=MRCONTSAS2,serial=SCONT2
. /mrsim/lib-mr9600.sh

mr9600_jbod_suite 3
