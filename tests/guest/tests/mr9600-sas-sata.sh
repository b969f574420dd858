# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 with 8 SAS and 8 SATA drives in JBOD: mpi3mr binds, all 16
# appear with their identity and size, fio with crc32c verification on 4
# at once, ext4 round trip, images hold what the guest reads.
#@ kernels 6.12 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ disk s0 32M vendor=SEAGATE product=MRSAS0 serial=SSAS00
#@ disk s1 32M vendor=SEAGATE product=MRSAS1 serial=SSAS01
#@ disk s2 32M vendor=SEAGATE product=MRSAS2 serial=SSAS02
#@ disk s3 32M vendor=SEAGATE product=MRSAS3 serial=SSAS03
#@ disk s4 32M vendor=SEAGATE product=MRSAS4 serial=SSAS04
#@ disk s5 32M vendor=SEAGATE product=MRSAS5 serial=SSAS05
#@ disk s6 32M vendor=SEAGATE product=MRSAS6 serial=SSAS06
#@ disk s7 32M vendor=SEAGATE product=MRSAS7 serial=SSAS07
#@ disk a0 32M vendor=ATA product=MRSATA0 serial=SSATA00
#@ disk a1 32M vendor=ATA product=MRSATA1 serial=SSATA01
#@ disk a2 32M vendor=ATA product=MRSATA2 serial=SSATA02
#@ disk a3 32M vendor=ATA product=MRSATA3 serial=SSATA03
#@ disk a4 32M vendor=ATA product=MRSATA4 serial=SSATA04
#@ disk a5 32M vendor=ATA product=MRSATA5 serial=SSATA05
#@ disk a6 32M vendor=ATA product=MRSATA6 serial=SSATA06
#@ disk a7 32M vendor=ATA product=MRSATA7 serial=SSATA07
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=s0,interface=sas,vendor=SEAGATE,model=MRSAS0,serial=SSAS00
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=s1,interface=sas,vendor=SEAGATE,model=MRSAS1,serial=SSAS01
#@ qemu -device megaraid-drive,bus=raid0.0,slot=2,drive=s2,interface=sas,vendor=SEAGATE,model=MRSAS2,serial=SSAS02
#@ qemu -device megaraid-drive,bus=raid0.0,slot=3,drive=s3,interface=sas,vendor=SEAGATE,model=MRSAS3,serial=SSAS03
#@ qemu -device megaraid-drive,bus=raid0.0,slot=4,drive=s4,interface=sas,vendor=SEAGATE,model=MRSAS4,serial=SSAS04
#@ qemu -device megaraid-drive,bus=raid0.0,slot=5,drive=s5,interface=sas,vendor=SEAGATE,model=MRSAS5,serial=SSAS05
#@ qemu -device megaraid-drive,bus=raid0.0,slot=6,drive=s6,interface=sas,vendor=SEAGATE,model=MRSAS6,serial=SSAS06
#@ qemu -device megaraid-drive,bus=raid0.0,slot=7,drive=s7,interface=sas,vendor=SEAGATE,model=MRSAS7,serial=SSAS07
#@ qemu -device megaraid-drive,bus=raid0.0,slot=8,drive=a0,interface=sata,model=MRSATA0,serial=SSATA00
#@ qemu -device megaraid-drive,bus=raid0.0,slot=9,drive=a1,interface=sata,model=MRSATA1,serial=SSATA01
#@ qemu -device megaraid-drive,bus=raid0.0,slot=10,drive=a2,interface=sata,model=MRSATA2,serial=SSATA02
#@ qemu -device megaraid-drive,bus=raid0.0,slot=11,drive=a3,interface=sata,model=MRSATA3,serial=SSATA03
#@ qemu -device megaraid-drive,bus=raid0.0,slot=12,drive=a4,interface=sata,model=MRSATA4,serial=SSATA04
#@ qemu -device megaraid-drive,bus=raid0.0,slot=13,drive=a5,interface=sata,model=MRSATA5,serial=SSATA05
#@ qemu -device megaraid-drive,bus=raid0.0,slot=14,drive=a6,interface=sata,model=MRSATA6,serial=SSATA06
#@ qemu -device megaraid-drive,bus=raid0.0,slot=15,drive=a7,interface=sata,model=MRSATA7,serial=SSATA07

. /mrsim/lib-mr9600.sh

mr9600_jbod_suite
