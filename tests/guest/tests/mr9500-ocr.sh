# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9500 online controller reset: fio with crc32c verification runs
# on a JBOD drive when the firmware faults (QOM inject-fault through QMP);
# megaraid_sas's fault watchdog sees FAULT, returns the outstanding I/O to
# the SCSI midlayer, resets the chip (diagnostic key sequence), waits for
# READY, sends IOC INIT again, fetches the controller info and the RAID
# map again, and the midlayer re-issues the I/O.  fio must finish with no
# error, the reset must be logged as successful exactly once, the kernel
# log must hold nothing beyond what a successful OCR prints, and the
# images must hold what the guest reads.
# The lines a successful OCR prints at error/warning level (allowed here):
#   "FW in FAULT state Fault code:0x5a5 subcode:0x0 func:..."  (the fault)
#   "resetting fusion adapter scsiN."                          (the OCR)
#   "Reset successful for scsiN."                              (its end)
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ allow FW in FAULT state Fault code:0x5a5
#@ allow resetting fusion adapter scsi[0-9]+
#@ allow Reset successful for scsi[0-9]+
#@ disk o0 64M vendor=SEAGATE product=MR95OCR0 serial=J95O00
#@ disk o1 32M vendor=ATA product=MR95OCR1 serial=J95O01
#@ qemu -device megaraid-9500,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=o0,interface=sas,vendor=SEAGATE,model=MR95OCR0,serial=J95O00
#@ qemu -device megaraid-drive,bus=raid0.0,slot=3,drive=o1,interface=sata,model=MR95OCR1,serial=J95O01
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh

CTRL=/machine/peripheral/raid0

need_driver megaraid_sas
wait_disks 120
check_disks
mr9500_driver_log
check_dmesg ""

dev=$(disk_dev o0)
( fio_verify "$dev" 48M --loops=4 > /tmp/fio.r 2>&1; echo $? > /tmp/fio.r.rc ) &
# fio under way: completing I/O
wait_io_flowing "$dev" /tmp/fio.r
sleep 2
[ ! -f /tmp/fio.r.rc ] || { cat /tmp/fio.r; fail "fio ended before the fault"; }
_b=$(disk_io_done "$dev")
log "firmware fault with fio running ($_b requests done)"
mr9500_ocr "$CTRL"
_c=$(disk_io_done "$dev")
_t=0
while [ "$(disk_io_done "$dev")" -le "$_c" ] && [ ! -f /tmp/fio.r.rc ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "no I/O completed on $dev in the 60 s after the OCR"
    sleep 0.1
done
wait
cat /tmp/fio.r
assert_eq "fio across the OCR" 0 "$(cat /tmp/fio.r.rc)"

mr9500_ocr_once "$CTRL"
qom_get "$CTRL" inject-fault
assert_eq "fault code after the OCR (none)" "" "$QOM"
mr9500_driver_log "$MR9500_OCR_LINES"
check_dmesg "$MR9500_OCR_LINES"

# the controller works after the reset: the other drive, then a new fio
fio_verify "$(disk_dev o1)" 8M
fio_verify "$dev" 8M
for _n in $(disk_names); do
    host_expect "$_n" "$(disk_dev "$_n")"
done
check_dmesg "$MR9500_OCR_LINES"
