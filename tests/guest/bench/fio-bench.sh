# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Guest side of scripts/bench.sh: fio against the one data disk of the
# guest (whatever controller presents it) and "@@BENCH name value@@" lines
# for the host.  BENCH_RUNTIME (seconds per job) comes from run.sh --env.
#@ disk d0 256M
#@ timeout 300

dev=""
# BENCH_MD=1: Linux md RAID 5 over the four virtio-blk disks vda-vdd
# (scripts/bench.sh's md-raid5 row), built without a resync
if [ -n "${BENCH_MD:-}" ]; then
    need_modules raid456
    for _t in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
        [ -b /dev/vdd ] && break
        sleep 0.5
    done
    assert_cmd "mdadm --create md0" mdadm --create /dev/md0 --run \
        --level=5 --raid-devices=4 --chunk=256 --assume-clean \
        /dev/vda /dev/vdb /dev/vdc /dev/vdd
    dev=/dev/md0
    BENCH_VD=1
fi
for _t in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 \
          21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39; do
    [ -z "$dev" ] || break
    for d in /dev/nvme0n1 /dev/sda /dev/vda; do
        [ -b "$d" ] && { dev=$d; break 2; }
    done
    sleep 0.5
done
[ -n "$dev" ] || { lspci -nnk; fail "no data disk appeared"; }
# a RAID VD or md (BENCH_VD=1) has the size of its array, not of d0
[ -n "${BENCH_VD:-}" ] ||
    assert_eq "size of $dev" "$(disk_attr d0 size)" "$(blockdev --getsize64 "$dev")"
log "benchmarking $dev"

rt=${BENCH_RUNTIME:-10}
# bench JOB RW BS: one fio job; prints KiB/s and IOPS of its direction.
bench() {
    _o=$(fio --name="$1" --filename="$dev" --direct=1 --ioengine=libaio \
             --iodepth=32 --rw="$2" --bs="$3" --time_based --runtime="$rt" \
             --ramp_time=1 --norandommap --randrepeat=0 \
             --output-format=terse --terse-version=3 2>&1) ||
        { echo "$_o"; fail "fio $1 failed"; }
    _l=$(echo "$_o" | grep '^3;')
    case "$2" in
    *read)  echo "@@BENCH $1 $(echo "$_l" | cut -d';' -f7) $(echo "$_l" | cut -d';' -f8)@@" ;;
    *write) echo "@@BENCH $1 $(echo "$_l" | cut -d';' -f48) $(echo "$_l" | cut -d';' -f49)@@" ;;
    esac
}
bench randread randread 4k
bench randwrite randwrite 4k
bench seqread read 128k
bench seqwrite write 128k
check_dmesg
