# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600's PCIe function under the unmodified mpi3mr, behind a
# pcie-root-port, while fio verifies data on a JBOD NVMe drive and a RAID 1
# VD (docs/fault-injection.md, "PCIe errors, FLR, power states"):
# (a) a correctable AER error (HMP pcie_aer_inject_error RCVR): the AER core
#     logs it, the driver is not called and nothing resets;
# (b) a non-fatal one: mpi3mr's error_detected (normal), mmio_enabled and
#     resume run, no reset;
# (c) a fatal one: error_detected (frozen), the link reset by the root
#     port, slot_reset re-initialises the IOC, resume; I/O goes on;
# (d) an FLR through sysfs (reset_method offers flr): the IOC reports a
#     reset it did not ask for and the driver's watchdog re-initialises it;
# (e) suspend and resume (pm_test platform, s2idle): mpi3mr_suspend and
#     mpi3mr_resume, the function through D3hot and back;
# (f) device_del of the controller under fio: the driver's remove path,
#     QEMU still answering, the controller gone.
# After (a) to (e) fio ends without errors or verify mismatches.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
# 6.1's mpi3mr has no PCI error handlers (the AER core says "can't
# recover (no error_detected callback)")
#@ kernels 7.2 6.12
#@ prepare bash tests/guest/tests/mr9600-aer.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
# The AER core logs uncorrectable errors at error level (b, c).
#@ allow mpi3mr 0000:01:00\.0: (AER: )?PCIe Bus Error: severity=Uncorrectable \((Non-Fatal|Fatal)\), type=(Transaction Layer, \(Receiver ID\)|Inaccessible, \(Unregistered Agent ID\))$
#@ allow mpi3mr 0000:01:00\.0: +device \[1000:00a5\] error status/mask=00001000/[0-9a-f]{8}$
#@ allow mpi3mr 0000:01:00\.0: +\[12\] TLP +\(First\)$
#@ allow mpi3mr 0000:01:00\.0: AER: +TLP Header: (0x)?0{8} (0x)?0{8} (0x)?0{8} (0x)?0{8}$
# device_del under fio (f): the writes in flight when the disks go.
#@ allow (I/O|device offline) error, dev sd[a-z]+, sector [0-9]+ op 0x1:\(WRITE\)

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    # The controller behind a root port (not raid_host_ctrl's pcie.0
    # slot), with native PCIe hotplug: with q35's default ACPI hotplug on
    # the port, QEMU never sets the port's Data Link Layer Link Active
    # bit, and Linux's secondary bus reset (the fatal error's recovery)
    # then fails waiting for the link (docs/fault-injection.md).
    echo "-global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off" \
        >> "$2/qemu-p1.args"
    echo "-device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10" \
        >> "$2/qemu-p1.args"
    echo "-device megaraid-9600,id=raid0,bus=rp0" >> "$2/qemu-p1.args"
    echo "ctrl raid0 pci=0000:01:00.0" >> "$RH_LAYOUT"
    RH_CTRL=raid0 RH_SLOT=0 RH_VDS=0
    raid_host_group v1 raid1 nvme 2 0
    truncate -s 64M "$2/j0.img"
    echo "-drive if=none,id=b-j0,format=raw,file=$2/j0.img" >> "$2/qemu-all.args"
    echo "-device megaraid-drive,id=j0,bus=raid0.0,slot=8,drive=b-j0,interface=nvme,model=MR-AER-J0,serial=SAERJ0" \
        >> "$2/qemu-p1.args"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

CTRL=/machine/peripheral/raid0
PCI=0000:01:00.0
SYS=/sys/bus/pci/devices/$PCI

need_driver mpi3mr
# The JBOD drive and the VD, by their INQUIRY identity.
mr9600_wait_jbod_vd MR-AER-J0
log "JBOD $JB, RAID 1 VD $VD, controller $PCI"
[ "$(basename "$(readlink "$SYS/driver")")" = mpi3mr ] ||
    fail "mpi3mr is not bound to $PCI"
dmesg | grep -E 'pcieport 0000:00:10\.0: AER: enabled' | sed 's/^/dmesg: /'
dmesg | grep -qE 'pcieport 0000:00:10\.0: AER: enabled' ||
    fail "the root port's AER service is not enabled"
mr9600_driver_log

driver_resets_ok() {
    dmesg | grep -c 'mpi3mr[0-9]*: controller reset is successful'
}
# count ERE: kernel log lines matching ERE
count() {
    dmesg | grep -cE "$1"
}
# aer_inject ERROR: HMP pcie_aer_inject_error on raid0 through QMP
aer_inject() {
    qmp_ok "{\"execute\":\"human-monitor-command\",\"arguments\":{\"command-line\":\"pcie_aer_inject_error raid0 $1\"}}"
    case "$QMP_REPLY" in
    *'"return": "OK id: raid0 '*) log "HMP pcie_aer_inject_error raid0 $1" ;;
    *) fail "HMP pcie_aer_inject_error raid0 $1: $QMP_REPLY" ;;
    esac
}

# wait_for ERE N SECONDS WHAT: at least N kernel log lines match ERE
wait_for() {
    _t=0
    while [ "$(count "$1")" -lt "$2" ]; do
        _t=$((_t + 1))
        [ $_t -lt $(($3 * 10)) ] ||
            { dmesg | tail -n 40 | sed 's/^/dmesg: /'; fail "no $4 within $3 s"; }
        sleep 0.1
    done
}
CB='mpi3mr 0000:01:00\.0: mpi3mr_pcierr'
# each verifying writer long enough to be under way when the event comes
# shellcheck disable=SC2034 # read by mr9600_fio_start (lib-mr9600.sh)
MR9600_FIO_ARGS=--loops=4
r0=$(mr9600_driver_resets)
d0=$(mr9600_device_resets "$CTRL")
log "start: driver resets $r0, device resets $d0"

# (a) correctable: logged by the AER core, the driver is not involved.
mr9600_fio_start
aer_inject "RCVR"
wait_for 'AER: Correct(able|ed) error (message )?received from 0000:01:00\.0' 1 30 \
    "correctable error report"
mr9600_fio_check "correctable error"
dmesg | grep -E 'AER|PCIe Bus Error|RxErr' | sed 's/^/dmesg: /'
assert_eq "driver callbacks after a correctable error" 0 "$(count "$CB")"
assert_eq "controller resets after a correctable error" "$r0" "$(mr9600_driver_resets)"

# (b) non-fatal (poisoned TLP): error_detected(normal) -> CAN_RECOVER,
# mmio_enabled -> RECOVERED, resume; no reset.
mr9600_fio_start
aer_inject "POISON_TLP"
wait_for "$CB"'_resume: callback invoked' 1 60 "resume callback (non-fatal)"
mr9600_fio_check "non-fatal error"
dmesg | grep -E "$CB|AER" | sed 's/^/dmesg: /'
assert_eq "error_detected(normal)" 1 \
    "$(count "$CB"'_error_detected: callback invoked state\(1\)$')"
assert_eq "mmio_enabled" 1 "$(count "$CB"'_mmio_enabled: callback invoked$')"
assert_eq "no slot_reset for a non-fatal error" 0 \
    "$(count "$CB"'_slot_reset: callback invoked$')"
assert_eq "controller resets after a non-fatal error" "$r0" "$(mr9600_driver_resets)"
assert_eq "IOC resets after a non-fatal error" "$d0" "$(mr9600_device_resets "$CTRL")"

# (c) fatal (malformed TLP): error_detected(frozen) -> NEED_RESET, the root
# port resets the link (the IOC with it), slot_reset re-initialises the
# IOC, resume unblocks I/O.
mr9600_fio_start
aer_inject "MALF_TLP"
wait_for "$CB"'_resume: callback invoked' 2 180 "resume callback (fatal)"
mr9600_fio_check "fatal error"
dmesg | grep -E "$CB|AER|controller reset" | sed 's/^/dmesg: /'
assert_eq "error_detected(frozen)" 1 \
    "$(count "$CB"'_error_detected: callback invoked state\(2\)$')"
assert_eq "slot_reset" 1 "$(count "$CB"'_slot_reset: callback invoked$')"
assert_eq "controller resets after the fatal error" $((r0 + 1)) "$(mr9600_driver_resets)"
assert_eq "successful controller resets after the fatal error" $((r0 + 1)) \
    "$(driver_resets_ok)"
dmesg | grep -qE 'mpi3mr[0-9]+: controller reset is triggered by firmware asynchronous reset' ||
    fail "the slot reset's controller reset did not say firmware asynchronous reset"
# The link reset is the one IOC reset: the IOC then reports Reset History,
# so the driver's slot_reset re-initialises it without a reset of its own.
d1=$(mr9600_device_resets "$CTRL")
assert_eq "IOC resets after the fatal error (the link reset)" $((d0 + 1)) "$d1"
dmesg | grep -qE 'AER: device recovery successful' ||
    fail "the AER core did not report the recovery successful"

# (d) FLR from sysfs: the driver is not told; the IOC reports Reset History
# and the driver's watchdog re-initialises it.
log "reset_method: $(cat "$SYS/reset_method")"
case " $(cat "$SYS/reset_method") " in
*" flr "*) ;;
*) fail "reset_method '$(cat "$SYS/reset_method")' has no flr" ;;
esac
echo flr > "$SYS/reset_method" || fail "cannot choose flr in reset_method"
r1=$(mr9600_driver_resets)
mr9600_fio_start
echo 1 > "$SYS/reset" || fail "the FLR through $SYS/reset failed"
wait_for 'mpi3mr[0-9]*: controller reset is successful' $((r1 + 1)) 120 \
    "controller re-initialisation after the FLR"
mr9600_fio_check "FLR"
assert_eq "controller resets after the FLR" $((r1 + 1)) "$(mr9600_driver_resets)"
# the FLR, and no reset of the driver's own (it re-initialises the IOC)
assert_eq "IOC resets after the FLR" $((d1 + 1)) "$(mr9600_device_resets "$CTRL")"
echo default > "$SYS/reset_method" 2>/dev/null || true

# (e) suspend to idle with pm_test=platform: the devices' suspend (late,
# noirq: the function to D3hot), 5 s, resume (D0: the function resets).
if [ -w /sys/power/pm_test ] && grep -qw freeze /sys/power/state; then
    n_s=$(count 'mpi3mr[0-9]*: pdev=0x[0-9a-f]+, slot=0000:01:00\.0, entering operating state')
    n_r=$(count 'mpi3mr[0-9]*: controller resume completed successfully')
    d2=$(mr9600_device_resets "$CTRL")
    mr9600_fio_start
    echo platform > /sys/power/pm_test
    echo freeze > /sys/power/state || fail "echo freeze > /sys/power/state failed"
    echo none > /sys/power/pm_test
    mr9600_fio_check "suspend and resume"
    dmesg | grep -E 'mpi3mr[0-9]*: (pdev=|Issuing|Base IOC|ioc_status|controller resume)|PM: ' | sed 's/^/dmesg: /'
    assert_eq "mpi3mr_suspend" $((n_s + 1)) \
        "$(count 'mpi3mr[0-9]*: pdev=0x[0-9a-f]+, slot=0000:01:00\.0, entering operating state')"
    assert_eq "mpi3mr_resume" $((n_r + 1)) \
        "$(count 'mpi3mr[0-9]*: controller resume completed successfully')"
    # suspend: the driver's message unit reset; D3hot -> D0: the function's
    # own reset, which the driver's resume finds (Reset History, the
    # shutdown state gone) and brings up without a reset of its own
    assert_eq "IOC resets across suspend and resume" $((d2 + 2)) "$(mr9600_device_resets "$CTRL")"
    dmesg | grep -A 3 'previous operating state' |
        grep -q 'ioc_status(0x00000010), ioc_config(0x00470000), ioc_info(0x[0-9a-f]*) at the bringup' ||
        fail "the resumed IOC did not come up in RESET with Reset History"
else
    fail "no /sys/power/pm_test or no freeze in /sys/power/state"
fi

# Everything so far: every controller reset succeeded, the driver logged
# nothing it flags, the disks are there.
assert_eq "successful controller resets" "$(mr9600_driver_resets)" "$(driver_resets_ok)"
mr9600_driver_log 'mpi3mr[0-9]+: controller reset is triggered by firmware asynchronous reset$|mpi3mr 0000:01:00\.0: (PCIe Bus Error: severity=(Correct(able|ed)|Uncorrectable \(Non-Fatal\)), type=(Physical|Transaction) Layer, \(Receiver ID\)|AER: PCIe Bus Error: severity=Uncorrectable \(Fatal\), type=Inaccessible, \(Unregistered Agent ID\)|  device \[1000:00a5\] error status/mask=[0-9a-f]{8}/[0-9a-f]{8}|mpi3mr_pcierr_error_detected: callback invoked state\([12]\))$'
mr9600_find_disks MR-AER-J0
if [ -z "$JB" ] || [ -z "$VD" ]; then
    lsscsi
    fail "a disk is gone after (a) to (e)"
fi

# (f) device_del of the controller under fio: the driver's remove runs,
# QEMU goes on, the controller is gone.
for _d in "$JB" "$VD"; do
    ( fio --name=unplug --filename="$_d" --direct=1 --ioengine=libaio \
          --rw=randwrite --bs=4k --iodepth=16 --size=16M --time_based \
          --runtime=120 > /dev/null 2>&1 ) &
done
wait_io_flowing "$JB" /dev/null
qmp_ok '{"execute":"device_del","arguments":{"id":"raid0"}}'
_t=0
while [ -e "$SYS" ]; do
    _t=$((_t + 1))
    [ $_t -lt 600 ] || fail "$PCI still there 60 s after device_del"
    sleep 0.1
done
wait
log "controller $PCI removed from the guest"
# QEMU unplugs it when the guest powers the slot off, after the removal
_t=0
while :; do
    qmp_call '{"execute":"qom-list","arguments":{"path":"/machine/peripheral"}}'
    case "$QMP_REPLY" in
    *'"name": "raid0"'*) ;;
    *'"return": '*) log "QEMU answers and has no raid0"; break ;;
    *) fail "qom-list: $QMP_REPLY" ;;
    esac
    _t=$((_t + 1))
    [ $_t -lt 100 ] || fail "QEMU still has raid0 30 s after the guest released it"
    sleep 0.3
done
for _b in /sys/block/sd*; do
    [ ! -e "$_b" ] || fail "disks left after the unplug: $(ls /sys/block)"
done
dmesg | grep -E 'mpi3mr|pciehp|ACPI.*hotplug' | tail -n 20 | sed 's/^/dmesg: /'
check_dmesg 'I/O error, dev sd[a-z]+, sector [0-9]+ op 0x1:\(WRITE\)'
