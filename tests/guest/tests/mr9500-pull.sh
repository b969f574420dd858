# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9500 (Fusion, megaraid_sas) RAID members pulled with device_del
# (the megaraid-9600 counterpart is raid-fail-pull): a prefilled RAID 5
# and a RAID 1 that megaraid-img made, each with a global hot spare,
# behind one controller each (rebuild rate 1 %).  During fio verify one
# member of each is pulled: fio ends without errors or verify mismatches,
# the VDs go degraded (QOM, and mrcli through megaraid_sas' ioctl node),
# the spares take over and rebuild (rate raised to 100 %) until the VDs
# are optimal again (QOM and mrcli), with the spares online members and
# the data what it was.  Then a blank drive is inserted (device_add) in
# each pulled slot: the VDs being optimal, the controller keeps it
# unconfigured-good and shows it to the host (PD INSERTED: megaraid_sas
# adds it as a JBOD disk on channel 0, target = slot); the VDs still read
# what they held, and megaraid_sas' log is clean.
#@ kernels 6.12 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mr9500-pull.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

ALL="p5 p1"

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    # shellcheck disable=SC2034 # read by raid_host_ctrl and raid_host_group
    RAID_CTRL_TYPE=megaraid-9500 RAID_PREFILL=1
    raid_host_begin "$2"
    raid_host_ctrl c0 rebuild-rate=1; raid_host_group p5 raid5 sas 3 1
    raid_host_ctrl c1 rebuild-rate=1; raid_host_group p1 raid1 sata 2 1
    # blank replacements for the pulled slots (member 0 of each)
    raid_host_blank p5-n0 32M
    raid_host_blank p1-n0 32M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9500.sh
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
# view, through megaraid_sas' ioctl node) says of VD NAME (VD 0 of its
# controller) and, optionally, of the drive in SLOT.
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

# jbod_dev CTRL SLOT: the JBOD disk of the drive in SLOT of CTRL
# (megaraid_sas' PD channel 0, target = PD id = slot), or nothing.
jbod_dev() {
    local pci b path
    pci=$(layout_attr ctrl "$1" pci)
    for b in /sys/block/sd*; do
        [ -e "$b" ] || continue
        path=$(readlink -f "$b/device")
        case "$path" in */"$pci"/*:0:"$2":0) echo "/dev/${b##*/}" ;; esac
    done
}

need_driver megaraid_sas
wait_vds 120
mr9500_driver_log
mr show
for n in $ALL; do
    c=$(vd_attr "$n" ctrl)
    check_hidden "$c"
    dev=$(vd_dev "$n")
    assert_eq "size of VD $n ($dev)" "$(vd_attr "$n" bytes)" \
        "$(blockdev --getsize64 "$dev")"
    expect_vd "$n" state '^optimal$'
    expect_drive "$(vd_spare "$n" 0)" state '^hot-spare$'
    mr_expect "$n" Optl
    vd_sum "$n"
    assert_eq "$n holds what megaraid-img wrote on the host" \
        "$(vd_attr "$n" prefill_md5)" "$SUM"
    log "VD $n = $dev ($MRC/v0): $(vd_attr "$n" level), optimal, prefill read back"
done

# Member 0 of each VD pulled while fio verify runs on it (writes held to
# 768 KiB/s: fio lasts well past the pull).
for n in $ALL; do
    fio_start "$n" 16M --rate=,768k
    sleep 1
    fail_drive pull "$(vd_member "$n" 0)"
    fio_running "$n" || fail "fio on $n ended before its member was pulled"
    expect_vd "$n" state '^degraded$'
    expect_vd "$n" job '^rebuild$'
    expect_drive "$(vd_spare "$n" 0)" state '^(rebuild|online)$'
done
for n in $ALL; do
    mr_expect "$n" Dgrd
done
# shellcheck disable=SC2086
fio_wait $ALL
for n in $ALL; do
    vd_sum "$n"
    eval "SUM0_$n=$SUM"
    vd_qom "$n" progress
    log "VD $n: rebuild at $QOM%; rebuild-rate 1 -> 100"
    qom_set "/machine/peripheral/$(vd_attr "$n" ctrl)" rebuild-rate 100
done
# shellcheck disable=SC2086
wait_optimal 300 $ALL
echo 3 > /proc/sys/vm/drop_caches
for n in $ALL; do
    s=$(vd_spare "$n" 0)
    expect_drive "$s" state '^online$'
    expect_drive "$s" rebuild-progress '^-1$'
    # the spare is in the slot after the members
    mr_expect "$n" Optl "$(vd_attr "$n" members | tr ',' '\n' | wc -l)" '^Onln$'
    check_hidden "$(vd_attr "$n" ctrl)"
    vd_sum "$n"
    assert_eq "VD $n reads the same after the rebuild onto its spare" \
        "$(eval echo "\$SUM0_$n")" "$SUM"
done
log "pulled members: fio passed, the spares rebuilt, VDs optimal, data unchanged"

# A blank drive in each pulled slot (0): the VDs are optimal, so it stays
# unconfigured-good, and the controller shows it to the host as a JBOD.
for n in $ALL; do
    c=$(vd_attr "$n" ctrl)
    drive_insert "$n-n0" "$c" 0 "$(layout_attr vd "$n" iface)"
done
for n in $ALL; do
    c=$(vd_attr "$n" ctrl)
    expect_drive "$n-n0" state '^unconfigured-good$'
    t=0
    until d=$(jbod_dev "$c" 0) && [ -n "$d" ] &&
          dd if="$d" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; do
        t=$((t + 1))
        [ $t -lt 300 ] || { lsscsi; fail "no JBOD disk for the drive inserted in slot 0 of $c"; }
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
mr9500_driver_log
check_dmesg ""
