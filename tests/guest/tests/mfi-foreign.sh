# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Debian's unmodified mfiutil on another controller's drives
# (megaraid_sas, 6.12): megaraid-img makes a RAID 5 of three drives and a
# hot spare as controller OTHERCTRL0000001 would, with 4 MiB of random
# data; behind this megaraid-9500 (serial MRSIM00000000001) its drives
# are foreign.  `mfiutil foreign scan` finds one configuration; `show
# foreign`, `foreign preview` and `foreign diag` describe it
# (FOREIGN_DISPLAY and FOREIGN_PREVIEW: one array of the three drives,
# one RAID-5 volume, one spare), `show config` has nothing of it; `foreign
# import` makes it the controller's: the volume appears as a disk with
# the data the host wrote, `show config` and query-megaraid agree, and
# there is no foreign configuration left.  A clean kernel log.
#@ controllers megaraid-9500
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mfi-foreign.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: the drives hold a foreign configuration.*$

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    RAID_CTRL_TYPE=megaraid-9500
    raid_host_begin "$2"
    raid_host_ctrl c0
    raid_host_group f5 raid5 sas 3 1 "" --serial OTHERCTRL0000001
    data=$RH_WORK/f5.data
    head -c $((4 * 1024 * 1024)) /dev/urandom > "$data"
    "$RH_IMG" write --serial OTHERCTRL0000001 -i "$data" \
        "$RH_WORK"/f5-m0.img "$RH_WORK"/f5-m1.img "$RH_WORK"/f5-m2.img \
        "$RH_WORK"/f5-s0.img
    md5=$(md5sum < "$data" | cut -d' ' -f1)
    sed -i "s/^vd f5 .*/& head_md5=$md5/" "$RH_LAYOUT"
    rm -f "$data"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mrcli.sh
. /mrsim/lib-mfi.sh

need_driver megaraid_sas
bytes=$(vd_attr f5 bytes)

echo "== another controller's drives: one foreign configuration"
mf foreign scan
mf_has "Found 1 foreign configuration" "no foreign configuration found"
mf show config
mf_has "Configuration: 0 arrays, 0 volumes, 0 spares" \
    "show config has the foreign configuration before the import"

echo "== show foreign, foreign preview, foreign diag"
for what in "show foreign 0" "foreign preview 0" "foreign diag 0"; do
    # shellcheck disable=SC2086
    mf $what
    mf_has "1 arrays, 1 volumes, 1 spares" \
        "$what is not one array, one volume and one spare"
    mf_has "RAID-5" "$what has no RAID-5 volume"
done
mf show foreign 0
for d in 0 1 2; do
    mf_has "drive $d ONLINE" "show foreign 0: drive $d is not an ONLINE member"
done
mf foreign diag 0
diag=$MF_OUT
mf foreign preview 0
mf_has "volume 0 RAID-5 OPTIMAL <f5>" "foreign preview 0: no optimal volume f5"
mf_has "global spare 3 HOT SPARE" "foreign preview 0: no global spare 3"
[ "$diag" = "$(echo "$MF_OUT" | sed 's/configuration preview 0/configuration 0/')" ] ||
    fail "foreign preview 0 and foreign diag 0 differ"
rc=0
mfiutil show foreign 1 > /tmp/mf1.out 2>&1 || rc=$?
cat /tmp/mf1.out
[ $rc != 0 ] || fail "show foreign 1 succeeded: there is only one configuration"

echo "== import"
# (it asks "Are you sure ...? [y/N]")
run_tool MF_OUT sh -c 'echo y | mfiutil foreign import'
mf_has "All foreign configurations imported" "foreign import did not report the import"
wait_vds 120
dev=$(vd_dev f5)
assert_eq "size of the imported volume ($dev)" "$bytes" \
    "$(blockdev --getsize64 "$dev")"
vd_sum f5 4
assert_eq "the host's 4 MiB on the imported volume" \
    "$(vd_attr f5 head_md5)" "$SUM"
mf show config
mf_has "1 arrays, 1 volumes, 1 spares" "show config after the import"
mf_has "RAID-5" "show config: no RAID-5 volume after the import"
mf foreign scan
mf_has "Found 0 foreign configuration" "a foreign configuration left"
qmp_call '{"execute":"query-megaraid"}'
echo "$QMP_REPLY" | grep -q '"level": "raid5"' ||
    fail "query-megaraid has no RAID 5 VD after the import"
check_dmesg
log "mfiutil shows, previews and imports another controller's configuration"
