# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# mrcli, the guest's management CLI, over the unmodified mpi3mr driver's
# BSG node (megaraid-9600) or megaraid_sas' ioctl node (megaraid-9500,
# MEGASAS_IOC_FIRMWARE, the management DCMD): four blank drives (NVMe on
# the 9600, SAS on the 9500) in the bays of the controller, which the
# driver shows as JBOD disks (mrcli's OS Drive Name names them); VDs of
# RAID 0, 1, 5 and 10 are created, their members online, used (fio
# verify) and deleted only through mrcli, each one appearing and
# disappearing as a SCSI disk of the size mrcli reports, the one mrcli's
# OS Drive Name and the driver's own view (mpi3mr's device handle,
# megaraid_sas' LD channel 2 with the VD's index as target id) name.
# Wrong commands get a Failure document and a non-zero exit status.
# Every JSON document is checked against tests/guest/mrcli.schema.json on
# the host after the run.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 6.1 6.12
#@ kernels@9500 6.1 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ prepare bash tests/guest/tests/mrcli-levels.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 20

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    # NVMe drives on megaraid-9600; SAS on megaraid-9500, where a SAS
    # drive's PD id (its JBOD's target id) is its slot
    iface=nvme
    [ "${MRSIM_CTRL:-}" != megaraid-9500 ] || iface=sas
    mrcli_host_prepare "$2" "$iface" 4 64M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-mrcli.sh

mr_guest_start 4
mr show
mr_json show
assert_eq "controllers mrcli finds" 1 "$(mr_prop 'Number of Controllers')"
if ctrl_is 9500; then
    [ -c /dev/megaraid_sas_ioctl_node ] || fail "mrcli left no ioctl node"
fi
mr /c0 show all
mr_json /c0 show
assert_eq "virtual drives at the start" 0 "$(mr_prop 'Virtual Drives')"
assert_eq "drives in the bays" 4 "$(mr_prop 'Physical Drives')"
mr_json /c0/eall/sall show
for s in 0 1 2 3; do
    st=$(mr_cell "\"EID:Slt\":\"0:$s\"" State)
    assert_match "state of the blank drive in slot $s" '^(UGood|JBOD)$' "$st"
done
mr_json /c0/e0/s3 show all
d=$(mr_prop 'OS Drive Name')
[ -b "$d" ] && [ "$(blockdev --getsize64 "$d")" = 67108864 ] ||
    { lsscsi; fail "OS Drive Name of the blank drive in slot 3 ('$d') is not its 64 MiB disk"; }
if ctrl_is 9500; then
    # megaraid_sas' PD channel 0, target id = PD id = slot
    assert_eq "OS Drive Name of JBOD 3" "$(mr9500_key_disk 0:3)" "$d"
fi
mr /c0/e0/s0 show all
mr_json /c0/cv show
mr_json /c0/fall show
assert_eq "foreign drives" 0 "$(mr_prop 'Foreign Drives')"
mr_refused 1 /c0/fall import
mr_json /c0 show rebuildrate

echo "== wrong commands: a Failure document, a non-zero exit status"
mr_refused 2 /c0 add vd r5 drives=0:0-2,2
mr_refused 2 /c0 add vd r7 drives=0:0-3
mr_refused 2 /c0/e1/s0 show
mr_refused 2 /c0/v0 frobnicate
mr_refused 1 /c0/v5 delete
mr_json_refused 1 /c0/e0/s9 show all
mr_json_refused 2 /c0 add vd r5 drives=0:0-3 strip=abc
mr_refused 1 /c0 add vd r5 drives=0:0-1
mr_refused 1 /c0 add vd r1 drives=0:0-1 strip=100

# mr_slots DRIVES: the slots of a drives= list ("0:0-2", "0:0,0:1").
mr_slots() {
    local p a b
    for p in $(echo "$1" | tr ',' ' '); do
        p=${p#*:}
        a=${p%-*}
        b=${p#*-}
        seq "$a" "$b"
    done
}

# level drives: create, check, fio verify, delete
vd_cycle() {
    local level=$1 drives=$2 strip=$3 name=$4 vd blocks bytes dev handle
    echo "== $level over drives $drives, strip $strip KiB"
    mr_json /c0 add vd "$level" drives="$drives" strip="$strip" name="$name"
    vd=$(mr_cell '"DG/VD":"' DG/VD)
    vd=${vd#*/}
    assert_match "index of the new VD" '^[0-9]+$' "$vd"
    assert_eq "state of the new $level VD" Optl "$(mr_cell '"DG/VD":"' State)"
    assert_eq "name of the new VD" "$name" "$(mr_cell '"DG/VD":"' Name)"
    mr_vd_dev "$vd"
    dev=$MR_DEV
    handle=$MR_HANDLE
    mr_json "/c0/v$vd" show all
    blocks=$(mr_prop 'Number of Blocks')
    assert_eq "strip size of VD $vd" "$strip KB" "$(mr_prop 'Strip Size')"
    bytes=$(blockdev --getsize64 "$dev")
    assert_eq "size of $dev (VD $vd) against mrcli's block count" \
        $((blocks * 512)) "$bytes"
    mr_json /c0/eall/sall show
    for s in $(mr_slots "$drives"); do
        assert_eq "state of member $s of VD $vd" Onln \
            "$(mr_cell "\"EID:Slt\":\"0:$s\"" State)"
    done
    mr /c0/dall show
    mr /c0/vall show
    fio_verify "$dev" 16M
    mr_json "/c0/v$vd" delete
    mr_wait_gone "$handle"
    mr_json /c0/vall show
    assert_eq "VDs after deleting VD $vd" "" "$(mr_cell '"DG/VD":"' DG/VD)"
    mr_json /c0/eall/sall show
    for s in 0 1 2 3; do
        st=$(mr_cell "\"EID:Slt\":\"0:$s\"" State)
        assert_match "state of drive $s after the delete" '^(UGood|JBOD)$' "$st"
    done
    mr_settle_all 4
    log "$level: created, verified, deleted through mrcli"
}

vd_cycle r0 0:0-1 64 lv-r0
vd_cycle r1 0:2-3 128 lv-r1
vd_cycle r5 0:0-2 256 lv-r5
vd_cycle r10 0:0-3 64 lv-r10

echo "== two VDs at once, then /c0/vall delete"
handles=""
for spec in "r1 drives=0:0,0:1 wt name=a" "r0 drives=0:2-3 nora name=b"; do
    # shellcheck disable=SC2086
    mr_json /c0 add vd $spec
    vd=$(mr_cell '"DG/VD":"' DG/VD)
    # the disk is there before it goes (a delete during the kernel's
    # partition scan fails that scan's reads, as on the real card)
    mr_vd_dev "${vd#*/}"
    handles="$handles $MR_HANDLE"
done
mr_json /c0/vall show all
mr_json /c0/vall delete
for h in $handles; do
    mr_wait_gone "$h"
done
mr_json /c0 show
assert_eq "virtual drives at the end" 0 "$(mr_prop 'Virtual Drives')"
mr_json /c0 show events count=20
check_dmesg ""
