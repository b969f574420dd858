# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# The SCSI target megaraid-9600 presents for JBOD drives, seen through
# mpi3mr with sg3_utils and smartctl: default identities per interface,
# VPD pages, READ CAPACITY (16) provisioning bits, mode pages (caching
# page through the kernel's cache_type, MODE SELECT back), log pages,
# UNMAP / WRITE SAME / VERIFY with their effect on the medium, sense data
# for bad requests, smartctl -a on a SAS and a SATA drive (ATA
# PASS-THROUGH), self-tests logged, and backend errors (blkdebug) as
# MEDIUM ERROR sense with the failing LBA.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ prepare tests/guest/mkdisk.py sasssd 64M @WORK@/sasssd.img
#@ prepare tests/guest/mkdisk.py satassd 64M @WORK@/satassd.img
#@ disk sashdd 48M vendor=SEAGATE product=ST8000NM001A
#@ disk nvme 32M vendor=NVMe product=Micron_7450_MTFD
#@ qemu -drive if=none,id=sasssd,format=raw,file=@WORK@/sasssd.img,discard=unmap
#@ qemu -drive if=none,id=satassd,format=raw,file=@WORK@/satassd.img,discard=unmap
#@ prepare truncate -s 8M @WORK@/bad.img
#@ qemu -drive if=none,id=bad,driver=raw,file.driver=blkdebug,file.image.driver=file,file.image.filename=@WORK@/bad.img,file.inject-error.0.event=read_aio,file.inject-error.0.sector=1024,file.inject-error.0.once=off,file.inject-error.1.event=write_aio,file.inject-error.1.sector=2048,file.inject-error.1.once=off
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=sasssd,interface=sas
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=sashdd,interface=sas,media=hdd,physical_block_size=4096
#@ qemu -device megaraid-drive,bus=raid0.0,slot=2,drive=satassd,interface=sata
#@ qemu -device megaraid-drive,bus=raid0.0,slot=3,drive=nvme,interface=nvme,logical_block_size=4096
#@ qemu -device megaraid-drive,bus=raid0.0,slot=4,drive=bad,interface=sas,model=BADDISK

# dev_by_model MODEL: the /dev/sdX whose INQUIRY product is MODEL.
dev_by_model() {
    for _b in /sys/block/sd*; do
        [ -e "$_b/device/model" ] || continue
        if [ "$(trim < "$_b/device/model")" = "$1" ]; then
            echo "/dev/${_b##*/}"
            return 0
        fi
    done
    lsscsi
    fail "no disk with product '$1'"
}

# has WHAT OUTPUT REGEX: OUTPUT has a line matching REGEX; a miss is
# reported with the output and counted, and the test fails at its end.
MISSES=0
has() {
    echo "$2" | grep -qE "$3" && return 0
    echo "$2" | tail -n 30
    echo "MISS: $1: no line matching /$3/"
    MISSES=$((MISSES + 1))
}

# The command-set checks below count misses the same way (lib.sh's
# versions end the test at the first).
assert_eq() {
    [ "$2" = "$3" ] && return 0
    echo "MISS: $1: expected '$2', got '$3'"
    MISSES=$((MISSES + 1))
}

assert_cmd() {
    _desc=$1
    shift
    _out=$("$@" 2>&1) && return 0
    echo "$_out" | tail -n 20
    echo "MISS: $_desc: '$*' failed"
    MISSES=$((MISSES + 1))
}

# sector_text DEV LBA: the first 34 bytes of the 512-byte sector LBA, NULs
# shown as dots.
sector_text() {
    dd if="$1" bs=512 skip="$2" count=1 iflag=direct 2>/dev/null |
        tr '\0' '.' | head -c 34
}

# pattern NAME LBA: what mkdisk.py wrote at the start of sector LBA.
pattern() {
    printf 'MRSIM-DISK %s LBA %012d' "$1" "$2"
}

ZEROS=..................................
WSAME=WSAME-PATTERN.....................

need_driver mpi3mr
wait_disks 120
check_disks

SAS=$(dev_by_model XS3840SE70084)
HDD=$(disk_dev sashdd)
SATA=$(dev_by_model "INTEL SSDSC2KB03")
NVME=$(disk_dev nvme)
log "SAS SSD $SAS, SAS HDD $HDD, SATA SSD $SATA, NVMe $NVME"
lsscsi

# ---- identity ----
inq=$(sg_inq "$SAS")
has "sg_inq SAS vendor" "$inq" 'Vendor identification: SEAGATE'
has "sg_inq SAS revision" "$inq" 'Product revision level: 0003'
has "sg_inq SAS version" "$inq" 'PQual=0 +PDT=0 .*version=0x06'
inq=$(sg_inq "$SATA")
has "sg_inq SATA vendor (SAT)" "$inq" 'Vendor identification: ATA'
has "sg_inq SATA revision" "$inq" 'Product revision level: 0132'
inq=$(sg_inq "$NVME")
has "sg_inq NVMe revision" "$inq" 'Product revision level: U200'
assert_match "SAS SSD serial" '^HLJ[0-9A-F]{5}$' "$(scsi_serial "$SAS")"
assert_match "SATA SSD serial" '^PHYF[0-9A-F]{8}3P8EGN$' "$(scsi_serial "$SATA")"
assert_match "NVMe serial" '^2245[0-9A-F]{8}$' "$(scsi_serial "$NVME")"

# ---- VPD pages ----
v=$(sg_vpd -p 0 "$SAS")
for p in 'Unit serial number' 'Device identification' 'Block limits' \
         'Block device characteristics' 'Logical block provisioning'; do
    has "VPD 00h of SAS lists $p" "$v" "$p"
done
echo "$v" | grep -q 'ATA information' && fail "SAS drive lists VPD 89h"
has "VPD 00h of SATA lists 89h" "$(sg_vpd -p 0 "$SATA")" 'ATA information'

v=$(sg_vpd -p di "$SAS")
has "VPD 83h SAS LU NAA" "$v" '0x5000c50[0-9a-f]{9}'
has "VPD 83h SAS target port" "$v" '[Tt]arget port'
has "VPD 83h SAS protocol" "$v" 'transport: Serial Attached SCSI'
v=$(sg_vpd -p di "$SATA")
has "VPD 83h SATA T10 vendor id" "$v" 'vendor id: ATA'
has "VPD 83h SATA model+serial" "$v" 'vendor specific: INTEL SSDSC2KB038T8 +PHYF'
has "VPD 83h SATA NAA" "$(sg_vpd -p di "$SATA")" '0x55cd2e4[0-9a-f]{8}'
has "VPD 83h NVMe EUI-64" "$(sg_vpd -p di "$NVME")" 'EUI-64'

v=$(sg_vpd -p bl "$SAS")
has "VPD B0h max transfer" "$v" 'Maximum transfer length: 2048'
has "VPD B0h max unmap LBAs" "$v" 'Maximum unmap LBA count: 4194304'
has "VPD B0h max unmap descriptors" "$v" 'Maximum unmap block descriptor count: 255'
v=$(sg_vpd -p bl "$HDD")
has "VPD B0h HDD: no unmap" "$v" 'Maximum unmap LBA count: 0'
has "VPD B0h HDD granularity (512e)" "$v" 'Optimal transfer length granularity: 8'
v=$(sg_vpd -p bdc "$SAS")
has "VPD B1h SSD rotation" "$v" 'Non-rotating medium'
has "VPD B1h SSD form factor" "$v" '2.5 inch'
v=$(sg_vpd -p bdc "$HDD")
has "VPD B1h HDD rotation" "$v" '7200 rpm'
has "VPD B1h HDD form factor" "$v" '3.5 inch'
v=$(sg_vpd -p lbpv "$SAS")
has "VPD B2h LBPU" "$v" 'Unmap command supported \(LBPU\): 1'
has "VPD B2h LBPWS" "$v" 'Write same \(16\) with unmap bit supported \(LBPWS\): 1'
has "VPD B2h LBPRZ" "$v" 'LBPRZ'
has "VPD B2h HDD LBPU" "$(sg_vpd -p lbpv "$HDD")" 'Unmap command supported \(LBPU\): 0'
v=$(sg_vpd -p ai "$SATA")
has "VPD 89h SAT vendor" "$v" 'BROADCOM'
has "VPD 89h IDENTIFY model" "$v" 'INTEL SSDSC2KB038T8'

# ---- READ CAPACITY ----
v=$(sg_readcap -l "$SAS")
has "READ CAPACITY 16 SAS blocks" "$v" 'Number of logical blocks=131072'
has "READ CAPACITY 16 SAS lbpme" "$v" 'lbpme=1, lbprz=1'
v=$(sg_readcap -l "$HDD")
has "READ CAPACITY 16 HDD lbpme" "$v" 'lbpme=0'
has "READ CAPACITY 16 HDD 512e" "$v" 'Logical blocks per physical block exponent=3'
v=$(sg_readcap -l "$NVME")
has "READ CAPACITY 16 NVMe 4K" "$v" 'Logical block length=4096 bytes'
has "READ CAPACITY 16 NVMe blocks" "$v" 'Number of logical blocks=8192'
has "READ CAPACITY 10" "$(sg_readcap "$HDD")" 'Number of logical blocks=98304'
assert_eq "kernel discard on SAS SSD" 1 \
    "$([ "$(cat /sys/block/${SAS#/dev/}/queue/discard_max_bytes)" -gt 0 ] && echo 1)"
assert_eq "kernel discard on SAS HDD" 0 \
    "$(cat /sys/block/${HDD#/dev/}/queue/discard_max_bytes)"
assert_eq "rotational SAS HDD" 1 "$(cat /sys/block/${HDD#/dev/}/queue/rotational)"
assert_eq "rotational SATA SSD" 0 "$(cat /sys/block/${SATA#/dev/}/queue/rotational)"

# ---- mode pages ----
v=$(sg_modes -p 8 "$SAS")
has "MODE SENSE caching page" "$v" 'Caching'
v=$(sg_modes -a "$SAS")
for p in 'Read-Write error recovery' 'Caching' 'Control' 'Informational exceptions'; do
    has "MODE SENSE all pages: $p" "$v" "$p"
done
has "MODE SENSE(6) changeable" "$(sg_modes -6 -c 1 -p 8 "$SAS")" 'Caching'
sd=$(ls -d /sys/block/${SAS#/dev/}/device/scsi_disk/*)
assert_eq "cache_type after probe" "write back" "$(cat "$sd/cache_type")"
echo "write through" > "$sd/cache_type" || fail "MODE SELECT through cache_type"
assert_eq "cache_type after MODE SELECT" "write through" "$(cat "$sd/cache_type")"
echo 1 > "/sys/block/${SAS#/dev/}/device/rescan"
assert_eq "WCE re-read by MODE SENSE" "write through" "$(cat "$sd/cache_type")"
echo "write back" > "$sd/cache_type" || fail "MODE SELECT WCE=1"
assert_eq "cache_type back" "write back" "$(cat "$sd/cache_type")"

# ---- log pages ----
v=$(sg_logs "$SAS")
for p in 'Write error' 'Read error' 'Non medium' 'Temperature' \
         'Start-stop cycle counter' 'Self test results' \
         'Solid state media' 'Informational exceptions'; do
    has "LOG SENSE 00h lists $p" "$v" "$p"
done
has "LOG SENSE 0Dh" "$(sg_logs -p 0xd "$SAS")" 'Current temperature = 34 C'
has "LOG SENSE 11h" "$(sg_logs -p 0x11 "$SAS")" 'Percentage used endurance indicator'
echo "$(sg_logs "$HDD")" | grep -q 'Solid state media' && fail "HDD lists page 11h"
dd if="$SAS" of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
has "LOG SENSE 03h bytes processed" "$(sg_logs -p 3 "$SAS")" \
    'Total bytes processed = [1-9][0-9]*'

# ---- UNMAP, WRITE SAME, VERIFY ----
assert_eq "pattern before UNMAP" "$(pattern sasssd 100)" "$(sector_text "$SAS" 100)"
assert_cmd "sg_unmap" sg_unmap --lba=100 --num=4 "$SAS"
assert_eq "unmapped reads zero" "$ZEROS" "$(sector_text "$SAS" 100)"
assert_eq "unmapped reads zero (last)" "$ZEROS" "$(sector_text "$SAS" 103)"
assert_eq "UNMAP is exact" "$(pattern sasssd 104)" "$(sector_text "$SAS" 104)"
printf 'WSAME-PATTERN' > /tmp/ws && dd if=/dev/zero bs=1 count=499 >> /tmp/ws 2>/dev/null
assert_cmd "WRITE SAME(16)" sg_write_same --16 --lba=200 --num=3 --in=/tmp/ws "$SAS"
for l in 200 201 202; do
    assert_eq "WRITE SAME LBA $l" "$WSAME" "$(sector_text "$SAS" $l)"
done
assert_cmd "WRITE SAME(10) UNMAP" sg_write_same --10 --unmap --lba=200 --num=2 "$SAS"
assert_eq "WRITE SAME past the pattern" "$(pattern sasssd 203)" "$(sector_text "$SAS" 203)"
assert_eq "WRITE SAME UNMAP zeroes" "$ZEROS" "$(sector_text "$SAS" 201)"
assert_eq "WRITE SAME UNMAP stops" "$WSAME" "$(sector_text "$SAS" 202)"
assert_cmd "VERIFY(10)" sg_verify --lba=0 --count=64 "$SAS"
assert_cmd "VERIFY(16)" sg_verify --16 --lba=1000 --count=64 "$SAS"
dd if="$SAS" of=/tmp/blk bs=512 skip=500 count=1 iflag=direct 2>/dev/null
assert_cmd "VERIFY BYTCHK match" sg_verify --ndo=512 --in=/tmp/blk --lba=500 --count=1 "$SAS"
sg_verify --ndo=512 --in=/tmp/blk --lba=501 --count=1 "$SAS" > /tmp/v 2>&1
assert_eq "VERIFY BYTCHK miscompare exit status" 14 "$?"
sg_unmap --lba=0 --num=8 "$HDD" > /tmp/u 2>&1 && fail "UNMAP on an HDD succeeded"
has "UNMAP on HDD sense" "$(cat /tmp/u)" 'Illegal request|Invalid command operation code|not supported'

# ---- sense data for bad requests ----
v=$(sg_raw -r 512 "$SAS" 28 00 00 02 00 00 00 00 01 00 2>&1)
has "READ(10) past the end: key" "$v" 'Illegal [Rr]equest'
has "READ(10) past the end: asc" "$v" 'Logical block address out of range'
v=$(sg_raw -r 64 "$SAS" 12 01 c7 00 40 00 2>&1)
has "INQUIRY bad VPD page" "$v" 'Invalid field in cdb'
has "INQUIRY bad VPD page pointer" "$v" 'Field replaceable|[Ff]ield pointer|byte 2'
v=$(sg_raw -r 512 "$HDD" 88 00 ff ff ff ff ff ff ff ff 00 00 00 01 00 00 2>&1)
has "READ(16) LBA overflow" "$v" 'Logical block address out of range'
v=$(sg_raw "$SAS" 85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00 2>&1)
has "ATA PASS-THROUGH on SAS rejected" "$v" 'Invalid command operation code'
v=$(sg_opcodes "$SAS" 2>&1)
has "REPORT SUPPORTED OPCODES lists READ(16)" "$v" 'Read\(16\)'
has "REPORT SUPPORTED OPCODES lists UNMAP" "$v" 'Unmap'
echo "$v" | grep -q 'ATA pass-through' && fail "SAS drive lists ATA PASS-THROUGH"
has "REPORT SUPPORTED OPCODES SATA" "$(sg_opcodes "$SATA" 2>&1)" 'ATA pass-through\(16\)'
has "REPORT SUPPORTED OPCODES one command" "$(sg_opcodes -o 0x88 "$SAS" 2>&1)" \
    'Read\(16\)'
assert_cmd "REPORT LUNS" sg_luns "$SAS"
has "REPORT LUNS lists LUN 0" "$(sg_luns "$SAS")" '0000000000000000'
assert_cmd "TEST UNIT READY" sg_turs "$SAS"
assert_cmd "SYNCHRONIZE CACHE(10)" sg_sync "$SAS"
assert_cmd "SYNCHRONIZE CACHE(16)" sg_sync --16 "$SAS"
assert_cmd "REQUEST SENSE" sg_requests "$SAS"
has "REQUEST SENSE fixed" "$(sg_requests "$SAS" 2>&1)" 'Fixed format'
has "REQUEST SENSE DESC" "$(sg_requests --desc "$SAS" 2>&1)" 'Descriptor format'
v=$(sg_raw -r 4096 "$SAS" 28 00 00 00 00 00 00 00 10 00 2>&1)
has "READ(10) beyond the buffer" "$v" 'Invalid field in cdb'
has "READ(10) beyond the buffer: pointer" "$v" 'byte 7'

# ---- backend errors (blkdebug: reads of LBA 1024, writes of 2048 fail) ----
BAD=$(dev_by_model BADDISK)
v=$(sg_raw -r 512 "$BAD" 28 00 00 00 04 00 00 00 01 00 2>&1)
has "read error: key" "$v" 'Sense key: Medium Error'
has "read error: asc" "$v" 'Unrecovered read error'
has "read error: LBA" "$v" 'Info fld=0x400'
dd if=/dev/zero of=/tmp/blk0 bs=512 count=1 2>/dev/null
v=$(sg_raw -s 512 -i /tmp/blk0 "$BAD" 2a 00 00 00 08 00 00 00 01 00 2>&1)
has "write error: key" "$v" 'Sense key: Medium Error'
has "write error: asc" "$v" 'Write error'
has "write error: LBA" "$v" 'Info fld=0x800'
has "good LBA next to it" "$(sg_raw -r 512 "$BAD" 28 00 00 00 04 01 00 00 01 00 2>&1)" \
    'SCSI Status: Good'
has "read error counted" "$(sg_logs -p 3 "$BAD")" 'Total uncorrected errors = 1'

# ---- START STOP UNIT ----
assert_cmd "STOP" sg_start --stop "$HDD"
v=$(sg_turs "$HDD" 2>&1 || true)
has "TUR after STOP" "$v" 'not ready'
assert_cmd "START" sg_start --start "$HDD"
assert_cmd "TUR after START" sg_turs "$HDD"
has "start-stop cycles counted" "$(sg_logs -p 0xe "$HDD")" \
    'Accumulated start-stop cycles = 13'

# ---- smartctl ----
v=$(smartctl -a "$SAS" 2>&1); rc=$?
echo "$v"
assert_eq "smartctl -a SAS exit status" 0 "$rc"
has "smartctl SAS vendor" "$v" 'Vendor: +SEAGATE'
has "smartctl SAS product" "$v" 'Product: +XS3840SE70084'
has "smartctl SAS health" "$v" 'SMART Health Status: OK'
has "smartctl SAS temperature" "$v" 'Current Drive Temperature: +34 C'
has "smartctl SAS SSD endurance" "$v" 'Percentage used endurance indicator'
has "smartctl SAS error log" "$v" 'Error counter log'
smartctl -x "$SAS" > /tmp/smart-x 2>&1
assert_eq "smartctl -x SAS exit status" 0 "$?"
cat /tmp/smart-x
has "smartctl -x SAS grown defects" "$(cat /tmp/smart-x)" 'Elements in grown defect list: 0'
has "smartctl -x SAS background scan" "$(cat /tmp/smart-x)" 'Background scan results log'
has "smartctl -x SAS port log" "$(cat /tmp/smart-x)" 'Protocol Specific port log page for SAS SSP'
has "smartctl -x SAS link rate" "$(cat /tmp/smart-x)" 'negotiated logical link rate: phy enabled; 12 Gbps'
assert_cmd "SAS self-test" smartctl -t short "$SAS"
has "SAS self-test logged" "$(smartctl -l selftest "$SAS")" 'Background short +Completed'

v=$(smartctl -a "$SATA" 2>&1); rc=$?
echo "$v"
assert_eq "smartctl -a SATA exit status" 0 "$rc"
has "smartctl SATA model" "$v" 'Device Model: +INTEL SSDSC2KB038T8'
has "smartctl SATA firmware" "$v" 'Firmware Version: +XCV10132'
has "smartctl SATA WWN" "$v" 'LU WWN Device Id: 5 5cd2e4'
has "smartctl SATA rotation" "$v" 'Solid State Device'
has "smartctl SATA TRIM" "$v" 'TRIM Command: +Available, deterministic, zeroed'
has "smartctl SATA health" "$v" 'self-assessment test result: PASSED'
has "smartctl SATA attribute 194" "$v" '194 Temperature_Celsius .* 34$'
has "smartctl SATA attribute 9" "$v" '  9 Power_On_Hours .* 120[0-9]$'
has "smartctl SATA error log" "$v" 'No Errors Logged'
assert_cmd "SATA self-test" smartctl -t short "$SATA"
has "SATA self-test logged" "$(smartctl -l selftest "$SATA")" 'Short offline +Completed without error'
smartctl -x "$SATA" > /tmp/smart-x 2>&1
assert_eq "smartctl -x SATA exit status" 0 "$?"
has "CHECK POWER MODE" "$(smartctl -n standby -i "$SATA")" 'Power mode is: +ACTIVE or IDLE'

# ---- hostile CDBs: random bytes after real and random opcodes, with
# random buffers, on the NVMe drive; the target must keep answering ----
dd if=/dev/urandom of=/tmp/junk bs=4096 count=1 2>/dev/null
i=0
while [ $i -lt 300 ]; do
    set -- $(od -An -tx1 -N20 /dev/urandom)
    op=$(echo "00 03 08 0a 12 15 1a 1b 1d 25 28 2a 2e 2f 35 41 42 4c 4d 55 5a 85 88 8a 8e 8f 91 93 9e a0 a1 a3 a8 aa ae af $1" |
         tr ' ' '\n' | sed -n "$((0x$2 % 37 + 1))p")
    case $op in
    0?|1?) len=6 ;;
    8?|9?) len=16 ;;
    a?|b?) len=12 ;;
    *) len=10 ;;
    esac
    shift 3
    cdb="$op $(echo "$@" | cut -d' ' -f1-$((len - 1)))"
    case $((i % 3)) in
    0) sg_raw -t 20 -r 4096 "$NVME" $cdb > /dev/null 2>&1 ;;
    1) sg_raw -t 20 -s 4096 -i /tmp/junk "$NVME" $cdb > /dev/null 2>&1 ;;
    *) sg_raw -t 20 "$NVME" $cdb > /dev/null 2>&1 ;;
    esac
    i=$((i + 1))
done
sg_start --start "$NVME" > /dev/null 2>&1
assert_cmd "TEST UNIT READY after random CDBs" sg_turs "$NVME"
assert_cmd "READ after random CDBs" sg_raw -r 4096 "$NVME" 28 00 00 00 00 00 00 00 01 00
log "300 random CDBs answered"

# data still intact where nothing wrote
check_pattern sashdd "$HDD"
# Errors the kernel may log are those of the injected failures only: on
# the BADDISK drive, a read of LBA 1024 and a write of LBA 2048.
_bad=${BAD#/dev/}
check_dmesg "(critical medium error|I/O error), dev $_bad, sector 1024 op 0x0:\(READ\) |(critical medium error|I/O error), dev $_bad, sector 2048 op 0x1:\(WRITE\) "
[ "$MISSES" -eq 0 ] || fail "$MISSES checks missed"
log "mr9600 SCSI command set ok"
