# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The strict page parsers of sg3_utils, sdparm and smartmontools on every
# kind of logical unit megaraid-9600 presents: JBOD NVMe, SAS (SSD and
# HDD) and SATA (SSD and HDD) drives and a RAID 5 virtual disk.  Each tool
# runs over every page the unit advertises (sg_vpd -a, sg_inq, sg_modes
# -a for the four page controls, sg_logs -a, sdparm -a -l, sg_opcodes with
# and without timeouts and for every listed opcode, sg_readcap -l,
# smartctl -x) and the test fails on any complaint, as defined at
# "What a complaint is" below.  The check itself is proved able to fail
# at the start: canned outputs with the complaints the tools printed for
# the device's old pages (an 8-byte NAA 6 name, ...) must be caught.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
# (the host: a RAID 5 VD over three NVMe drives on a second card)
#@ prepare . tests/guest/lib-raid.sh; raid_host_begin @WORK@; raid_host_ctrl raid0; raid_host_group vd raid5 nvme 3 0
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ disk nvme 32M vendor=NVMe serial=SPNVME0
#@ disk sasssd 32M vendor=SEAGATE product=XS3840SE70084 serial=SPSAS0
#@ disk sashdd 32M vendor=SEAGATE product=ST8000NM001A serial=SPSAS1
#@ disk satassd 32M vendor=ATA serial=SPSATA0
#@ disk satahdd 32M vendor=ATA serial=SPSATA1
#@ qemu -device megaraid-9600,id=jbod,addr=0x18
#@ qemu -device megaraid-drive,bus=jbod.0,slot=0,drive=nvme,interface=nvme,serial=SPNVME0
#@ qemu -device megaraid-drive,bus=jbod.0,slot=1,drive=sasssd,interface=sas,serial=SPSAS0
#@ qemu -device megaraid-drive,bus=jbod.0,slot=2,drive=sashdd,interface=sas,media=hdd,serial=SPSAS1
#@ qemu -device megaraid-drive,bus=jbod.0,slot=3,drive=satassd,interface=sata,serial=SPSATA0
#@ qemu -device megaraid-drive,bus=jbod.0,slot=4,drive=satahdd,interface=sata,media=hdd,serial=SPSATA1

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

# ---- What a complaint is ----
#
# Every tool: a non-zero exit status (every command below asks only for
# what the unit advertises, so none may fail), or a line on stderr.
# On stdout, per tool (case-insensitive extended regexes):
# - sg3_utils (sg_vpd, sg_inq, sg_modes, sg_logs, sg_opcodes, sg_readcap):
#   their decoders flag what they cannot parse inline: "<<...>>" notes
#   ("<< unexpected NAA 6 identifier length: 0x8>>"), "unexpected",
#   "malformed", "bad", "invalid", "truncat", "too short|long", "short",
#   "exceeds", "unable", "failed", "error:" (the "error: ..." prefix, not
#   the page names "Error counter" or "Read-write error recovery"),
#   "not supported|available" (a page in the supported list that answers
#   otherwise), "unknown", "reserved [..]" decodes, "mismatch", "warning",
#   "response length", "strange", "ignored", "imbalance", "no ... found".
# - sdparm: the same words; it reports a mode page it lists but cannot
#   fetch as "failed" / "not supported".
# - smartctl -x: exit status bits 0-2 (command line, open, a SMART or
#   ATA/SCSI command failed), 3 (health FAILING) and 6-7 (errors logged:
#   none are injected here) are complaints, except bit 2 on the VD (see
#   smart() below).  On stdout: "failed",
#   "not supported" (smartctl prints it for a page or log the device
#   listed and then refused), "invalid", "unknown", "unexpected", "error:"
#   (but not "Error counter log" or "Non-medium error count"), "warning",
#   "bad", "mismatch", "malformed", "truncat", "short", "unable".
SG_COMPLAINT='<<|unexpected|malformed|(^|[^a-z])bad([^a-z]|$)|invalid|truncat|too (short|long)|(^|[^a-z])short([^a-z]|$)|exceed|unable|failed|error:|not (supported|available)|unknown|reserved \[|mismatch|warning|response length|strange|ignor|imbalance|no .* found'
SMART_COMPLAINT='failed|not supported|invalid|unknown|unexpected|error:|warning|(^|[^a-z])bad([^a-z]|$)|mismatch|malformed|truncat|(^|[^a-z])short([^a-z]|$)|unable'

# Lines those words match that are decodes of valid fields, not
# complaints, each as narrow as the line the tool prints: sg_vpd's
# "[ignored]" (a zero prefetch length), "[invalid]" (the unmap
# granularity alignment of a drive without UNMAP, UGAVALID 0), the
# provisioning page's threshold fields of a device without thresholds;
# the field names "Enable warning" (EWASC), "Temperature Warning"
# and "Invalid DWORD count" (a SAS phy counter), the SATA phy event
# counter "Command failed due to ICRC error"; smartctl's lines on ATA
# features the drive's IDENTIFY data and log directory do not claim (SCT,
# selective self-test, pending defects: it asks for none of them), and
# its attribute legend.
LEGIT='^  Maximum prefetch transfer length: 0 blocks \[ignored\]$|^  Threshold exponent: 0 \[threshold sets not supported\]$|^  Threshold percentage: 0 \[percentages not supported\]$|^  Unmap granularity alignment: 0 \[invalid\]$|^  EWASC .*Enable warning$|^    Invalid DWORD count = 0$|^Temperature Warning:  Enabled$|^(SCT Commands|Selective Self-tests/Logging|Pending Defects log \(GP Log 0x0c\)) not supported$|^0x0001  2            0  Command failed due to ICRC error$|^Short self-test routine $|^ +\|______ P prefailure warning$'

COMPLAINTS=0
RUNS=0
OUT=/tmp/strict-out
ERR=/tmp/strict-err

# complaints_in REGEX FILE: the lines of FILE that are complaints (match
# REGEX, not LEGIT).
complaints_in() {
    grep -iE "$1" "$2" | grep -vE "$LEGIT"
}

# strict LABEL REGEX CMD...: runs CMD; counts a complaint (and shows the
# whole output) when it exits non-zero (other than $STRICT_OK), writes
# to stderr, or prints a stdout line matching REGEX.  CMD's output stays
# in $OUT.
strict() {
    local label=$1 re=$2 rc=0 hits
    shift 2
    RUNS=$((RUNS + 1))
    "$@" > "$OUT" 2> "$ERR" || rc=$?
    [ -z "${STRICT_DUMP:-}" ] || { echo "---- $label: $*"; cat "$OUT" "$ERR"; }
    hits=$(complaints_in "$re" "$OUT")
    [ "$rc" != "${STRICT_OK:-0}" ] || rc=0
    if [ $rc != 0 ] || [ -s "$ERR" ] || [ -n "$hits" ]; then
        echo "---- COMPLAINT $label: '$*' exit $rc"
        sed 's/^/  out| /' "$OUT" | tail -n 80
        sed 's/^/  err| /' "$ERR"
        [ -z "$hits" ] || echo "$hits" | sed 's/^/  hit| /'
        COMPLAINTS=$((COMPLAINTS + 1))
        return 0
    fi
}

# smart LABEL DEV [vd]: smartctl -x; exit bits 0-3, 6-7 and the stdout
# regex.  A VD, like a MegaRAID volume, has no SMART of its own (no
# informational exceptions page, only log page 00h): smartctl must say
# so ("SMART support is: Unavailable"), and then the exit bit 2 its
# refused log reads set and its "Error Counter logging not supported"
# are what it should report, not complaints.
smart() {
    local label=$1 dev=$2 vd=${3:-} rc=0 hits mask=$((0xcf))
    RUNS=$((RUNS + 1))
    smartctl -x "$dev" > "$OUT" 2> "$ERR" || rc=$?
    [ -z "${STRICT_DUMP:-}" ] || { echo "---- $label: smartctl -x $dev"; cat "$OUT" "$ERR"; }
    hits=$(complaints_in "$SMART_COMPLAINT" "$OUT")
    if [ -n "$vd" ]; then
        mask=$((0xcb))
        hits=$(echo "$hits" | grep -vx 'Error Counter logging not supported')
        grep -qx 'SMART support is:     Unavailable - device lacks SMART capability.' "$OUT" ||
            hits="$hits (no 'SMART support is: Unavailable' line for a VD)"
    fi
    if [ $((rc & mask)) != 0 ] || [ -s "$ERR" ] || [ -n "$hits" ]; then
        echo "---- COMPLAINT $label: 'smartctl -x $dev' exit $rc"
        sed 's/^/  out| /' "$OUT" | tail -n 120
        sed 's/^/  err| /' "$ERR"
        [ -z "$hits" ] || echo "$hits" | sed 's/^/  hit| /'
        COMPLAINTS=$((COMPLAINTS + 1))
    fi
}

# The check can fail: what the tools printed for pages the device once
# returned must count as complaints.
self_test() {
    local canned
    for canned in \
        '      [0x600605b000000001]  << unexpected NAA 6 identifier length: 0x8>>' \
        'Supported log pages  [0x0]:
    0x02        Write error counter page
warning: log page 0x18 response length 60 exceeds buffer' \
        'Mode parameter header from MODE SENSE(10):
  >> page 0x1c: page length 12 too short' \
        'fetching VPD page failed: Illegal request'; do
        printf '%s\n' "$canned" > /tmp/strict-canned
        complaints_in "$SG_COMPLAINT" /tmp/strict-canned > /dev/null ||
            fail "self test: the sg3_utils check misses: $canned"
    done
    printf '%s\n' 'Error counter log:' \
        '           Errors Corrected by           Total   Correction     Gigabytes    Total' \
        'Non-medium error count:        0' 'Read-write error recovery' \
        '  Total uncorrected errors = 0' > /tmp/strict-canned
    ! complaints_in "$SG_COMPLAINT" /tmp/strict-canned ||
        fail "self test: the sg3_utils check flags page names"
    ! complaints_in "$SMART_COMPLAINT" /tmp/strict-canned ||
        fail "self test: the smartctl check flags page names"
    printf '%s\n' 'Read SCT Status failed: scsi error aborted command' \
        > /tmp/strict-canned
    complaints_in "$SMART_COMPLAINT" /tmp/strict-canned > /dev/null ||
        fail "self test: the smartctl check misses a failed log"
    log "self test: the complaint checks catch the canned complaints"
}

# pages_of KIND DEV [vd]: every check on one logical unit.
pages_of() {
    local k=$1 dev=$2 vd=${3:-} pc op pg
    log "== $k: $dev ($(sg_inq "$dev" 2>/dev/null |
        sed -n 's/^ *\(Vendor\|Product\) identification: *//p' | tr '\n' ' '))"
    strict "$k sg_inq" "$SG_COMPLAINT" sg_inq "$dev"
    strict "$k sg_inq -d" "$SG_COMPLAINT" sg_inq -d "$dev"
    strict "$k sg_inq -e" "$SG_COMPLAINT" sg_inq -e "$dev"
    strict "$k sg_vpd -a" "$SG_COMPLAINT" sg_vpd -a "$dev"
    for pc in 0 1 2 3; do
        strict "$k sg_modes -a -c$pc" "$SG_COMPLAINT" sg_modes -a -c "$pc" "$dev"
        strict "$k sg_modes -6 -a -c$pc" "$SG_COMPLAINT" sg_modes -6 -a -c "$pc" "$dev"
    done
    strict "$k sg_modes -L -a" "$SG_COMPLAINT" sg_modes -L -a "$dev"
    strict "$k sg_logs -a" "$SG_COMPLAINT" sg_logs -a "$dev"
    strict "$k sg_logs -A" "$SG_COMPLAINT" sg_logs -A "$dev"
    # sdparm -a probes every mode page it knows and exits 5 (illegal
    # request) when the last of them is one the unit does not have: so
    # status 5 is accepted here, and each page the unit does list must
    # then come back on its own with status 0.
    STRICT_OK=5 strict "$k sdparm -a -l" "$SG_COMPLAINT" sdparm -a -l "$dev"
    for pg in $(sed -n 's/.* \[\([a-z]*\)\] mode page.*/\1/p' "$OUT"); do
        strict "$k sdparm -p $pg -l" "$SG_COMPLAINT" sdparm -p "$pg" -l "$dev"
    done
    strict "$k sdparm -i -l" "$SG_COMPLAINT" sdparm --inquiry -l "$dev"
    strict "$k sg_opcodes" "$SG_COMPLAINT" sg_opcodes "$dev"
    strict "$k sg_opcodes -R" "$SG_COMPLAINT" sg_opcodes -R "$dev"
    # every listed opcode (and service action) on its own
    for op in $(sg_opcodes "$dev" 2>/dev/null |
                awk '$1 ~ /^[0-9a-f][0-9a-f]$/ {
                         if ($2 ~ /^[0-9a-f]+$/ && $3 ~ /^[0-9]+$/)
                             print "0x" $1 ",0x" $2
                         else
                             print "0x" $1 }'); do
        strict "$k sg_opcodes -o $op" "$SG_COMPLAINT" sg_opcodes -o "$op" "$dev"
    done
    strict "$k sg_readcap -l" "$SG_COMPLAINT" sg_readcap -l "$dev"
    smart "$k" "$dev" ${vd:+"$vd"}
}

self_test
need_driver mpi3mr
wait_disks 120
wait_vds 120
mr9600_driver_log

pages_of nvme "$(disk_dev nvme)"
pages_of sas-ssd "$(disk_dev sasssd)"
pages_of sas-hdd "$(disk_dev sashdd)"
pages_of sata-ssd "$(disk_dev satassd)"
pages_of sata-hdd "$(disk_dev satahdd)"
check_vd vd
pages_of raid5-vd "$(vd_dev vd)" vd

check_dmesg ""
[ "$COMPLAINTS" = 0 ] || fail "$COMPLAINTS of $RUNS tool runs complained"
log "$RUNS tool runs, no complaint"
