# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 with 16 NVMe drives in JBOD: the guest's unmodified mpi3mr
# binds without errors, all 16 appear with their identity and size, fio
# with crc32c verification runs on 4 at once, ext4 round trip, and the
# images hold what the guest reads.
#@ kernels 6.12 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ disk n00 32M vendor=NVMe product=MR-NVME-00 serial=SNVME00
#@ disk n01 32M vendor=NVMe product=MR-NVME-01 serial=SNVME01
#@ disk n02 32M vendor=NVMe product=MR-NVME-02 serial=SNVME02
#@ disk n03 32M vendor=NVMe product=MR-NVME-03 serial=SNVME03
#@ disk n04 32M vendor=NVMe product=MR-NVME-04 serial=SNVME04
#@ disk n05 32M vendor=NVMe product=MR-NVME-05 serial=SNVME05
#@ disk n06 32M vendor=NVMe product=MR-NVME-06 serial=SNVME06
#@ disk n07 32M vendor=NVMe product=MR-NVME-07 serial=SNVME07
#@ disk n08 32M vendor=NVMe product=MR-NVME-08 serial=SNVME08
#@ disk n09 32M vendor=NVMe product=MR-NVME-09 serial=SNVME09
#@ disk n10 32M vendor=NVMe product=MR-NVME-10 serial=SNVME10
#@ disk n11 32M vendor=NVMe product=MR-NVME-11 serial=SNVME11
#@ disk n12 32M vendor=NVMe product=MR-NVME-12 serial=SNVME12
#@ disk n13 32M vendor=NVMe product=MR-NVME-13 serial=SNVME13
#@ disk n14 32M vendor=NVMe product=MR-NVME-14 serial=SNVME14
#@ disk n15 32M vendor=NVMe product=MR-NVME-15 serial=SNVME15
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=n00,interface=nvme,model=MR-NVME-00,serial=SNVME00
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=n01,interface=nvme,model=MR-NVME-01,serial=SNVME01
#@ qemu -device megaraid-drive,bus=raid0.0,slot=2,drive=n02,interface=nvme,model=MR-NVME-02,serial=SNVME02
#@ qemu -device megaraid-drive,bus=raid0.0,slot=3,drive=n03,interface=nvme,model=MR-NVME-03,serial=SNVME03
#@ qemu -device megaraid-drive,bus=raid0.0,slot=4,drive=n04,interface=nvme,model=MR-NVME-04,serial=SNVME04
#@ qemu -device megaraid-drive,bus=raid0.0,slot=5,drive=n05,interface=nvme,model=MR-NVME-05,serial=SNVME05
#@ qemu -device megaraid-drive,bus=raid0.0,slot=6,drive=n06,interface=nvme,model=MR-NVME-06,serial=SNVME06
#@ qemu -device megaraid-drive,bus=raid0.0,slot=7,drive=n07,interface=nvme,model=MR-NVME-07,serial=SNVME07
#@ qemu -device megaraid-drive,bus=raid0.0,slot=8,drive=n08,interface=nvme,model=MR-NVME-08,serial=SNVME08
#@ qemu -device megaraid-drive,bus=raid0.0,slot=9,drive=n09,interface=nvme,model=MR-NVME-09,serial=SNVME09
#@ qemu -device megaraid-drive,bus=raid0.0,slot=10,drive=n10,interface=nvme,model=MR-NVME-10,serial=SNVME10
#@ qemu -device megaraid-drive,bus=raid0.0,slot=11,drive=n11,interface=nvme,model=MR-NVME-11,serial=SNVME11
#@ qemu -device megaraid-drive,bus=raid0.0,slot=12,drive=n12,interface=nvme,model=MR-NVME-12,serial=SNVME12
#@ qemu -device megaraid-drive,bus=raid0.0,slot=13,drive=n13,interface=nvme,model=MR-NVME-13,serial=SNVME13
#@ qemu -device megaraid-drive,bus=raid0.0,slot=14,drive=n14,interface=nvme,model=MR-NVME-14,serial=SNVME14
#@ qemu -device megaraid-drive,bus=raid0.0,slot=15,drive=n15,interface=nvme,model=MR-NVME-15,serial=SNVME15

. /mrsim/lib-mr9600.sh

mr9600_jbod_suite
