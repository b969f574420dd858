# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# mrcli on megaraid-9500: three blank SAS drives behind the controller,
# the unmodified megaraid_sas shows them as JBOD disks; mrcli reaches the
# controller through the driver's ioctl node (MEGASAS_IOC_FIRMWARE, the
# management DCMD).  /c0 show, the drives' JSON, a RAID 1 created through
# mrcli that the driver adds as a new LD disk (channel 2, the VD's index
# as target id) of the size mrcli reports, fio verify on it, the VD
# deleted through mrcli and its disk gone, the drives unconfigured again.
# Every JSON document is checked against tests/guest/mrcli.schema.json on
# the host after the run.  mrcli show lists the controller, OS Drive Name
# names the JBOD's and the LD's disks.
#@ kernels 6.1 6.12 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ prepare bash tests/guest/tests/mr9500-mrcli.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 8

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    # shellcheck disable=SC2034 # read by raid_host_ctrl
    RAID_CTRL_TYPE=megaraid-9500
    mrcli_host_prepare "$2" sas 3 64M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-mrcli.sh

# the SCSI host of megaraid_sas
mr95_host() {
    local h
    for h in /sys/class/scsi_host/host*; do
        [ "$(cat "$h/proc_name" 2>/dev/null)" = megaraid_sas ] &&
            echo "${h##*/host}"
    done
}

# mr95_disk CHANNEL TARGET: the sd disk at HOST:CHANNEL:TARGET:0, or nothing
mr95_disk() {
    local b r
    for b in /sys/block/sd*; do
        [ -e "$b/device" ] || continue
        r=$(readlink -f "$b/device")
        [ "${r##*/}" != "$H:$1:$2:0" ] || echo "/dev/${b##*/}"
    done
}

# mr95_wait_ld TARGET present|gone: the LD disk appears or goes; after 30 s
# without the driver acting on the controller's event, rescan as a user
# would (and say so in the log).
mr95_wait_ld() {
    local t=0 d
    while :; do
        d=$(mr95_disk 2 "$1")
        if [ "$2" = present ] && [ -n "$d" ] && [ -b "$d" ] &&
           dd if="$d" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
            LD_DEV=$d
            log "LD $1 is $d after $((t / 5)) s"
            return 0
        fi
        if [ "$2" = gone ] && [ -z "$d" ]; then
            log "LD $1's disk is gone after $((t / 5)) s"
            return 0
        fi
        t=$((t + 1))
        if [ $t = 150 ]; then
            log "RESCAN: the driver did not act on the controller's event in 30 s"
            if [ "$2" = gone ] && [ -n "$d" ]; then
                echo 1 > "/sys/block/${d#/dev/}/device/delete"
            else
                echo "- - -" > "/sys/class/scsi_host/host$H/scan"
            fi
        fi
        [ $t -lt 600 ] || { lsscsi; fail "LD $1 not $2 after 120 s"; }
        sleep 0.2
    done
}

need_driver megaraid_sas
H=$(mr95_host)
[ -n "$H" ] || fail "no megaraid_sas SCSI host"
log "megaraid_sas is host $H"
# the three blank drives are JBOD disks first, read once (probe done)
t=0
while [ "$(lsscsi | grep -c "^\[$H:0:")" -lt 3 ]; do
    t=$((t + 1))
    [ $t -lt 600 ] || { lsscsi; fail "the 3 JBOD disks did not appear"; }
    sleep 0.2
done
for s in 0 1 2; do
    d=$(mr95_disk 0 "$s")
    [ -n "$d" ] || { lsscsi; fail "no JBOD disk for PD $s"; }
    t=0
    until dd if="$d" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; do
        t=$((t + 1))
        [ $t -lt 300 ] || fail "JBOD $d cannot be read"
        sleep 0.2
    done
done
lsscsi

mr show
mr_json show
assert_eq "controllers mrcli finds" 1 "$(mr_prop 'Number of Controllers')"
mr /c0 show
mr_json /c0 show
assert_eq "virtual drives at the start" 0 "$(mr_prop 'Virtual Drives')"
assert_eq "drives in the bays" 3 "$(mr_prop 'Physical Drives')"
[ -c /dev/megaraid_sas_ioctl_node ] || fail "mrcli left no ioctl node"
mr_json /c0/eall/sall show
for s in 0 1 2; do
    st=$(mr_cell "\"EID:Slt\":\"0:$s\"" State)
    assert_match "state of the blank drive in slot $s" '^(UGood|JBOD)$' "$st"
done
mr_json /c0/e0/s2 show all
assert_eq "OS Drive Name of JBOD 2" "$(mr95_disk 0 2)" "$(mr_prop 'OS Drive Name')"
mr_refused 1 /c0/v5 delete

echo "== RAID 1 over drives 0 and 1"
mr_json /c0 add vd r1 drives=0:0-1 strip=64 name=mr95-r1
vd=$(mr_cell '"DG/VD":"' DG/VD)
vd=${vd#*/}
assert_match "index of the new VD" '^[0-9]+$' "$vd"
assert_eq "state of the new RAID 1" Optl "$(mr_cell '"DG/VD":"' State)"
mr95_wait_ld "$vd" present
dev=$LD_DEV
mr_json "/c0/v$vd" show all
blocks=$(mr_prop 'Number of Blocks')
assert_eq "OS Drive Name of VD $vd" "$dev" "$(mr_prop 'OS Drive Name')"
bytes=$(blockdev --getsize64 "$dev")
assert_eq "size of $dev (VD $vd) against mrcli's block count" \
    $((blocks * 512)) "$bytes"
lsscsi
mr_json /c0/eall/sall show
for s in 0 1; do
    assert_eq "state of member $s" Onln \
        "$(mr_cell "\"EID:Slt\":\"0:$s\"" State)"
done
fio_verify "$dev" 16M

echo "== delete VD $vd"
mr_json "/c0/v$vd" delete
mr95_wait_ld "$vd" gone
mr_json /c0/vall show
assert_eq "VDs after the delete" "" "$(mr_cell '"DG/VD":"' DG/VD)"
mr_json /c0/eall/sall show
for s in 0 1 2; do
    st=$(mr_cell "\"EID:Slt\":\"0:$s\"" State)
    assert_match "state of drive $s after the delete" '^(UGood|JBOD)$' "$st"
done
lsscsi
check_dmesg ""
log "mrcli on megaraid-9500: show, RAID 1 created, verified, deleted"
