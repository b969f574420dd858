# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# docs/first-five-minutes.md as a newcomer runs it: on the host, its
# marked blocks (steps 2 and 3: a RAID 5 with a hot spare made by
# megaraid-img, a member failed over QMP and rebuilt onto the spare) run
# as written by tests/docs/readme-commands.py; then step 4's QEMU
# arguments and guest commands, taken from the page by
# tests/docs/doc-guest-step.py, run here unchanged.  Each command must
# succeed and show what the page says: one disk of about 3 GiB, the VD
# degraded after the second failure and optimal after the forced online.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ prepare python3 tests/docs/readme-commands.py --keep @WORK@/ffm @TOP@ docs/first-five-minutes.md
#@ prepare python3 tests/docs/doc-guest-step.py docs/first-five-minutes.md @WORK@/ffm @WORK@/ffm.args @GUEST@/ffm-steps
#@ qemu-args @WORK@/ffm.args

. /mrsim/lib-mrcli.sh

need_driver mpi3mr
ctrl_mgmt_wait

steps=()
while IFS= read -r line; do
    steps+=("$line")
done < /mrsim/ffm-steps
assert_eq "guest commands on the page" 5 "${#steps[@]}"

for cmd in "${steps[@]}"; do
    # shellcheck disable=SC2086
    run_tool OUT $cmd
    case $cmd in
    lsblk)
        disks=$(lsblk -dn -o NAME,SIZE,TYPE | awk '$3 == "disk"')
        assert_eq "disks the guest sees" 1 "$(echo "$disks" | wc -l)"
        assert_match "the VD's size" '^sd[a-z]+ +3G ' "$disks"
        ;;
    "mrcli /c0 show")
        assert_match "the VD in the controller's table" \
            '0/0 +RAID5 +Optl' "$OUT"
        ;;
    "mrcli /c0/v0 show")
        assert_match "the VD after the second failure" '0/0 +RAID5 +Dgrd' \
            "$OUT"
        ;;
    esac
done

mr /c0/v0 show
assert_match "the VD after set online force" '0/0 +RAID5 +Optl' "$MR_OUT"
check_dmesg ""
echo "PASS: first five minutes, step 4 as written"
