# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Drives pulled (device_del) from RAID 1, 5, 6, 10, 50 and 60 on
# megaraid-9600 (mpi3mr) and megaraid-9500 (megaraid_sas), each VD
# prefilled by megaraid-img and with global hot spares, behind one
# controller each (rebuild rate 1 %): the prefilled data reads back; mrcli
# (through the driver's management node) says the VDs are optimal; during
# fio verify one member of each is pulled (two of RAID 6/60); fio ends
# without errors or verify mismatches, the spares take over and rebuild
# until the VDs are optimal; then different original members are pulled
# and every VD still reads what it held, through the rebuilt drives, and
# mrcli says the RAID 1 and 5 are degraded.  Then blank drives are
# inserted (device_add) in the slots of the second pulls: the controller
# rebuilds onto them and the VDs, optimal again (QOM, and mrcli with the
# spare an online member), still hold their data.  Last, a blank drive
# goes into the slot of the RAID 1's and RAID 5's first pull: the VDs
# being optimal and copyback off (raid_host_fail_groups), the controller
# keeps it unconfigured-good and shows it to the host as a JBOD disk; the
# VDs still read what they held, and the driver's log is clean.
# Runs on 7.2 for megaraid-9600 (raid-fail-offline on 6.1), on 6.12 and
# 7.2 for megaraid-9500.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 7.2
#@ kernels@9500 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/raid-fail-pull.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# The VDs whose first pulled slot gets a drive again at the end.
AGAIN="f1 f5"

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_fail_groups
    for n in $FAIL_VDS; do
        for i in $(fail_second "$n"); do
            raid_host_blank "$n-n$i" 32M
        done
    done
    for n in $AGAIN; do
        raid_host_blank "$n-n0" 32M
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mrcli.sh

# mr_ctl NAME: sets MRC to mrcli's /cN of VD NAME's controller (matched by
# its PCI address in mrcli show).
mr_ctl() {
    local pci n
    pci=$(layout_attr ctrl "$(vd_attr "$1" ctrl)" pci)
    mr_quiet show
    n=$(mr_cell "${pci#0000:}" Ctl)
    [ -n "$n" ] || { echo "$MR_JSON"; fail "mrcli show lists no controller at $pci"; }
    MRC=/c$n
}

# mr_expect NAME VD-STATE [SLOT PD-STATE-ERE]: what mrcli (the guest's
# view, through the driver's management node) says of VD NAME (VD 0 of
# its controller) and, optionally, of the drive in SLOT.
mr_expect() {
    local st
    mr_ctl "$1"
    mr_quiet "$MRC/v0" show
    st=$(mr_cell '"DG/VD":"' State)
    assert_eq "mrcli: state of VD $1 ($MRC/v0)" "$2" "$st"
    [ -n "${3:-}" ] || return 0
    mr_quiet "$MRC/e0/s$3" show
    st=$(mr_cell "\"EID:Slt\":\"0:$3\"" State)
    assert_match "mrcli: state of $MRC/e0/s$3 (VD $1)" "$4" "$st"
}

# new_disk CTRL: the disk behind CTRL that is none of the VDs (after
# wait_vds), or nothing.
new_disk() {
    local t d
    ctrl_disks "$1" | while read -r t d; do
        grep -q " $d\$" /tmp/raid-devs || echo "$d"
    done
}

need_driver "$(ctrl_driver)"
wait_vds 120
ctrl_driver_log
mr show
for n in $AGAIN; do
    vd_sum "$n"
    assert_eq "$n holds what megaraid-img wrote on the host" \
        "$(vd_attr "$n" prefill_md5)" "$SUM"
    mr_expect "$n" Optl
done
raid_fail_test pull
for n in $AGAIN; do
    mr_expect "$n" Dgrd
done

# Blank drives in the slots of the second pulls: rebuilds onto them.
for n in $FAIL_VDS; do
    for i in $(fail_second "$n"); do
        drive_insert "$n-n$i" "$(vd_attr "$n" ctrl)" "$i" "$(vd_attr "$n" iface)"
        expect_drive "$n-n$i" state '^(rebuild|online)$'
    done
done
# shellcheck disable=SC2086
wait_optimal 600 $FAIL_VDS
echo 3 > /proc/sys/vm/drop_caches
for n in $FAIL_VDS; do
    for i in $(fail_second "$n"); do
        expect_drive "$n-n$i" state '^online$'
    done
    check_hidden "$(vd_attr "$n" ctrl)"
    vd_sum "$n"
    assert_eq "VD $n after the rebuild onto new drives" "$(eval echo "\$SUM0_$n")" "$SUM"
done
for n in $AGAIN; do
    # the spare is in the slot after the members
    mr_expect "$n" Optl "$(vd_attr "$n" members | tr ',' '\n' | wc -l)" '^Onln$'
done
log "rebuilt onto the inserted drives; data unchanged"

# A blank drive in the slot of the first pull (0): the VD is optimal, so
# it stays unconfigured-good, and the controller shows it to the host.
for n in $AGAIN; do
    drive_insert "$n-n0" "$(vd_attr "$n" ctrl)" 0 "$(vd_attr "$n" iface)"
done
for n in $AGAIN; do
    c=$(vd_attr "$n" ctrl)
    expect_drive "$n-n0" state '^unconfigured-good$'
    t=0
    until d=$(new_disk "$c") && [ -n "$d" ] &&
          dd if="$d" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; do
        t=$((t + 1))
        [ $t -lt 300 ] || { lsscsi; fail "no disk for the drive inserted in slot 0 of $c"; }
        sleep 0.2
    done
    assert_eq "size of the inserted drive's disk $d" 33554432 \
        "$(blockdev --getsize64 "$d")"
    mr_expect "$n" Optl 0 '^(UGood|JBOD)$'
    expect_vd "$n" state '^optimal$'
    expect_vd "$n" job '^none$'
    vd_sum "$n"
    assert_eq "VD $n after the insertion" "$(eval echo "\$SUM0_$n")" "$SUM"
    log "slot 0 of $c: the inserted blank drive is $d (unconfigured-good); VD $n optimal, data unchanged"
done
lsscsi
# Pulled and inserted members log no errors (driver or kernel).
ctrl_driver_log ""
check_dmesg ""
