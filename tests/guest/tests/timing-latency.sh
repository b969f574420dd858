# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 timing=on seen from the guest: two controllers with
# timing=on and time-scale 1000 (the card 1000 times slower, so that a TCG
# guest's own overhead is small beside the modelled times), one with a
# write-through RAID 5 over 4 NVMe drives, one with a single NVMe drive
# as JBOD.  fio's 4 KiB random-read completion latency (median) at queue
# depth 1 must match the model's unloaded latency times the scale within 20 %
# (the device publishes it: timing-read-ns of the drive, vdN-timing-read-ns
# of the VD, time-scale applied), and the RAID 5 write penalty must show:
# the ratio of the median 4 KiB random-write latencies at QD 1 (RAID 5
# over JBOD) within 20 % of the model's ratio of the two unloaded write
# latencies (timing-write-ns, vdN-timing-write-ns), which must itself be
# above 2, and the JBOD's IOPS over the RAID 5's at least half of it (IOPS
# are means: on a shared host they carry its stalls).
# The counters: every completion costed, few late.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ qmp
#@ prepare bash tests/guest/tests/timing-latency.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

SCALE=1000
RT=10

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_ctrl c-t "timing=on,time-scale=$SCALE"
    RAID_DRIVE_SIZE=64M raid_host_group t5 raid5 nvme 4 0
    raid_host_ctrl c-j "timing=on,time-scale=$SCALE"
    truncate -s 64M "$2/j0.img"
    raid_host_drive j0 nvme
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh

# clat DEV RW: fio 4 KiB RW at QD 1 for RT s; sets CLAT_NS (the median
# completion latency: the host is shared, and a stall of it must not move
# the mean) and IOPS.
clat() {
    local out line f_iops f_clat
    out=$(fio --name="$2" --filename="$1" --direct=1 --ioengine=libaio \
              --iodepth=1 --rw="$2" --bs=4k --size=32M --time_based \
              --runtime="$RT" --ramp_time=1 --norandommap --randrepeat=0 \
              --output-format=terse --terse-version=3 2>&1) ||
        { echo "$out"; fail "fio $2 on $1 failed"; }
    line=$(echo "$out" | grep '^3;') || { echo "$out"; fail "no fio terse line"; }
    # terse v3: IOPS, clat min/max/mean (us), then percentiles 1 .. 99.99 %
    case "$2" in
    randread)  f_iops=8; f_clat=14 ;;
    randwrite) f_iops=49; f_clat=55 ;;
    esac
    IOPS=$(echo "$line" | cut -d';' -f$f_iops)
    p50=$(echo "$line" | cut -d';' -f$((f_clat + 10)))
    case "$p50" in 50.000000%=*) ;; *) fail "no clat median in fio's line: $line" ;; esac
    CLAT_NS=$((${p50#*=} * 1000))
    log "fio $2 QD1 on $1: $IOPS IOPS, clat median $CLAT_NS ns, mean" \
        "$(echo "$line" | cut -d';' -f$((f_clat + 2))) us, min" \
        "$(echo "$line" | cut -d';' -f$f_clat) us, max" \
        "$(echo "$line" | cut -d';' -f$((f_clat + 1))) us"
}

# within NAME GOT WANT PERCENT
within() {
    awk -v g="$2" -v w="$3" -v p="$4" \
        'BEGIN { e = (g - w) / w * 100; if (e < 0) e = -e; exit !(e <= p) }' ||
        fail "$1: $2 is not within $4 % of $3"
    log "$1: $2 within $4 % of $3 ($(awk -v g="$2" -v w="$3" \
        'BEGIN { printf "%+.1f %%", (g - w) / w * 100 }'))"
}

need_driver mpi3mr
wait_vds 120
vdev=$(vd_dev t5)
jdev=""
for _t in $(seq 1 100); do
    jdev=$(ctrl_disks c-j | sed -n '1s/^[0-9]* //p')
    [ -n "$jdev" ] && break
    sleep 0.2
done
[ -n "$jdev" ] || { lsscsi; fail "the JBOD drive of c-j is not a disk"; }
log "RAID 5 $vdev, JBOD $jdev"

qom_get /machine/peripheral/c-t time-scale
assert_eq "time-scale" "$SCALE" "$QOM"
qom_get /machine/peripheral/c-t timing-profile
assert_eq "timing profile" 9670w-16i "$QOM"
expect_vd t5 write-policy '^write-through$'
drive_qom j0 timing-read-ns
j_read=$QOM
drive_qom j0 timing-write-ns
j_write=$QOM
vd_qom t5 timing-read-ns
v_read=$QOM
vd_qom t5 timing-write-ns
v_write=$QOM
log "model x $SCALE: JBOD read $j_read ns write $j_write ns;" \
    "RAID 5 read $v_read ns write $v_write ns"
if [ "$j_read" -le 0 ] || [ "$v_read" -le 0 ]; then
    fail "no modelled latency"
fi

clat "$jdev" randread
within "JBOD 4K read latency (ns) against the model" "$CLAT_NS" "$j_read" 20
clat "$vdev" randread
within "RAID 5 4K read latency (ns) against the model" "$CLAT_NS" "$v_read" 20

clat "$jdev" randwrite
j_iops=$IOPS
j_clat=$CLAT_NS
clat "$vdev" randwrite
v_iops=$IOPS
v_clat=$CLAT_NS
model=$(awk -v a="$v_write" -v b="$j_write" 'BEGIN { printf "%.3f", a / b }')
got=$(awk -v a="$j_iops" -v b="$v_iops" 'BEGIN { printf "%.3f", a / b }')
lat=$(awk -v a="$v_clat" -v b="$j_clat" 'BEGIN { printf "%.3f", a / b }')
log "RAID 5 write penalty at QD1: JBOD/RAID 5 IOPS $got, RAID 5/JBOD" \
    "median latency $lat, model $model"
awk -v m="$model" 'BEGIN { exit !(m > 2) }' ||
    fail "the model gives no RAID 5 write penalty ($model)"
within "RAID 5 write penalty (median latencies)" "$lat" "$model" 20
# IOPS carry the host's stalls (the mean): only at least half the ratio
awk -v g="$got" -v m="$model" 'BEGIN { exit !(g >= m / 2) }' ||
    fail "RAID 5 write penalty in IOPS: $got, not even half the model's $model"

for c in c-t c-j; do
    qom_get "/machine/peripheral/$c" timing-completions
    n=$QOM
    qom_get "/machine/peripheral/$c" timing-late
    log "$c: $n completions costed, $QOM late"
    [ "$n" -gt 100 ] || fail "$c costed only $n completions"
    [ $((QOM * 20)) -le "$n" ] || fail "$c: $QOM of $n completions late"
done
check_dmesg
