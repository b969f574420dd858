# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600's NVMe ENCAPSULATED as a management tool reaches it:
# through the unmodified mpi3mr driver's BSG node (MPI pass-through), the
# driver building the PRP list or the NVMe SGL from its own buffers.
# pel-tool's nvme subcommand (tests/guest/pel-tool.c, built statically on
# the host into /mrsim) sends Identify (serial and model as the drive's
# QOM has them, MDTS as nvme-mdts), the SMART log (temperature, power-on
# hours and power cycles as smartctl reads them through SCSI), a Write of
# a pattern and its Read back through PRPs (three 8 KiB driver buffers:
# a PRP list) and through an SGL (a last segment of four data blocks),
# Flush, the block device reading the pattern the Write left; an opcode
# the drive does not know answers INVALID OPCODE in the completion the
# driver copies back; the SAS drive beside it is refused (by the driver
# for PRPs, by the IOC with INVALID FUNCTION for an SGL).
# 7.2 only: the newest driver's pass-through and PRP/SGL builders (read
# from its source); the device's side is the same for every kernel.
#@ kernels 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare cc -static -O2 -Wall -Werror -Itools/mrcli -o @GUEST@/pel-tool tests/guest/pel-tool.c tools/mrcli/bsg.c
#@ disk nv0 32M vendor=NVMe product=MR-ENCAP-NV0 serial=SENCAP0
#@ disk sas0 32M vendor=SEAGATE product=MR-ENCAP-SAS0 serial=SENCAPS0
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,id=pd-nv0,bus=raid0.0,slot=0,drive=nv0,interface=nvme,model=MR-ENCAP-NV0,serial=SENCAP0,nvme-mdts=262144
#@ qemu -device megaraid-drive,id=pd-sas0,bus=raid0.0,slot=1,drive=sas0,interface=sas,vendor=SEAGATE,model=MR-ENCAP-SAS0,serial=SENCAPS0

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

tool=/mrsim/pel-tool
need_driver mpi3mr
wait_disks 60
NV=$(disk_dev nv0)
SAS=$(disk_dev sas0)
h=$(cat "/sys/block/${NV#/dev/}/device/device_handle")
hs=$(cat "/sys/block/${SAS#/dev/}/device/device_handle")
log "NVMe drive $NV handle $h, SAS drive $SAS handle $hs"

# Identify against the drive's QOM
out=$($tool nvme "$h" identify) || fail "Identify failed"
log "identify: $out"
qom_get /machine/peripheral/pd-nv0 serial
assert_match "Identify serial" "^serial $QOM model " "$out"
qom_get /machine/peripheral/pd-nv0 model
assert_match "Identify model" " model $QOM firmware " "$out"
# nvme-mdts=262144: 2^6 pages of 4 KiB; one namespace of 32 MiB
assert_match "Identify MDTS, NN, NSZE, LBADS" \
    " mdts 6 nn 1 nsze 65536 lbads 9$" "$out"
assert_eq "the driver's max_hw_sectors_kb (Device Page 0 MDTS)" 256 \
    "$(cat "/sys/block/${NV#/dev/}/queue/max_hw_sectors_kb")"

# SMART log against smartctl through SCSI
out=$($tool nvme "$h" smart) || fail "SMART log failed"
log "smart: $out"
sm=$(smartctl -a "$NV" 2>&1)
t=$(echo "$sm" | sed -n 's/^Current Drive Temperature: *\([0-9]*\) C.*/\1/p')
poh=$(echo "$sm" | sed -n 's/.*power on time, hours:minutes *\([0-9]*\):.*/\1/p' | head -n 1)
cyc=$(echo "$sm" | sed -n 's/^Accumulated start-stop cycles: *\([0-9]*\).*/\1/p')
[ -n "$t" ] && [ -n "$poh" ] || { echo "$sm"; fail "smartctl: no temperature or power-on time"; }
assert_match "SMART temperature as smartctl's" "^temperature $t " "$out"
assert_match "SMART power-on hours as smartctl's" " power_on_hours $poh " "$out"
[ -z "$cyc" ] || assert_match "SMART power cycles as smartctl's start-stop" \
    " power_cycles $cyc " "$out"
assert_match "SMART no critical warning, no media error" \
    " media_errors 0 critical 0x00 errors 0$" "$out"

# Write, Read back, Flush: PRPs (24 KiB: three driver buffers, a PRP list)
assert_cmd "Write 48 blocks at 4096 (PRP)" $tool nvme "$h" write 4096 48 0x5a
assert_eq "Read back (PRP)" match "$($tool nvme "$h" read 4096 48 0x5a)"
assert_eq "a different pattern does not match" 1 \
    "$($tool nvme "$h" read 4096 48 0x5b >/dev/null 2>&1; echo $?)"
# ... and an SGL (32 KiB: a last segment of four data blocks)
assert_cmd "Write 64 blocks at 8192 (SGL)" $tool nvme "$h" write 8192 64 0x33 sgl
assert_eq "Read back (SGL)" match "$($tool nvme "$h" read 8192 64 0x33 sgl)"
assert_cmd "Flush" $tool nvme "$h" flush
# the block device reads what the NVMe Writes left
assert_eq "the SCSI disk reads the PRP write" \
    "$($tool pattern 48 0x5a | md5sum)" \
    "$(dd if="$NV" bs=512 skip=4096 count=48 iflag=direct 2>/dev/null | md5sum)"
assert_eq "the SCSI disk reads the SGL write" \
    "$($tool pattern 64 0x33 | md5sum)" \
    "$(dd if="$NV" bs=512 skip=8192 count=64 iflag=direct 2>/dev/null | md5sum)"

# refusals
assert_eq "unknown admin opcode: INVALID OPCODE (DNR)" "ioc 0x0 status 0x4001" \
    "$($tool nvme "$h" raw admin 0x7f)"
assert_eq "unknown I/O opcode: INVALID OPCODE (DNR)" "ioc 0x0 status 0x4001" \
    "$($tool nvme "$h" raw io 0x7e)"
assert_match "the two failures in SMART's error log count" " errors 2$" \
    "$($tool nvme "$h" smart)"
# The SAS drive: with PRPs the driver refuses it itself (no PCIe page
# size for it), with an SGL the request reaches the IOC, which refuses it.
assert_eq "the SAS drive, PRP form: the driver refuses" 1 \
    "$($tool nvme "$hs" raw admin 0x06 >/dev/null 2>&1; echo $?)"
assert_eq "the SAS drive, SGL form: INVALID FUNCTION from the IOC" \
    "ioc 0x1 status 0x0" "$($tool nvme "$hs" raw admin 0x06 sgl)"
# the drive still serves the block layer
fio_verify "$NV" 8M
log "nvme-encap: Identify, SMART, Write/Read (PRP, SGL), Flush and refusals through mpi3mr's BSG"
