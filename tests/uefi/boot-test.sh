#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The option ROM's fast boot test (under a minute under TCG): OVMF loads
# the UEFI driver from the controller's ROM (megaraid-9600 by default,
# or megaraid-9500), the driver brings the IOC up and offers the VD, OVMF's SCSI disk driver gives it
# Block I/O and the boot manager starts \EFI\BOOT\BOOTX64.EFI from the
# VD's EFI system partition: tests/uefi/blkio-app.c, which reads a nonce,
# writes through Block I/O (one 1 MiB write the driver must have split)
# and powers off.  Checked: the driver's banner line, the app's PASS line,
# the written data read back on the host through the RAID core, and a
# clean `megaraid-img check`.  Then the IOC in FAULT at power-on (the
# driver resets it and boots), a degraded VD (boots, with a warning), and
# the negative cases: both members of
# the RAID 1 failed (no bootable device, QEMU still answers and quits
# cleanly), and the ROM given to another device model (nothing happens).
#
#   tests/uefi/boot-test.sh [--controller megaraid-9600|megaraid-9500]
#                           [OVMF_CODE.fd]
#
# Prints TAP ("ok"/"not ok" lines, the plan last) and ends with "N passed,
# N failed".  Needs build/qemu (scripts/build-qemu.sh),
# build/core/megaraid-img, gnu-efi, ovmf, mtools, dosfstools, fdisk.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
model=megaraid-9600
if [ "${1:-}" = --controller ]; then
    model=$2
    shift 2
fi
case "$model" in
megaraid-9600) banner="MegaRAID 9600 (MPI3) boot driver" ;;
megaraid-9500) banner="MegaRAID 9500 (Fusion) boot driver" ;;
*) echo "boot-test: --controller megaraid-9600 or megaraid-9500" >&2; exit 2 ;;
esac
code=${1:-/usr/share/OVMF/OVMF_CODE_4M.fd}
vars_tmpl=${code%CODE_4M.fd}VARS_4M.fd
qemu=$top/build/qemu/qemu-system-x86_64
img=$top/build/core/megaraid-img
work=$(mktemp -d /tmp/mrsim-uefi.XXXXXX)
trap '[ -n "${MRSIM_KEEP:-}" ] || rm -rf "$work"' EXIT
pass=0
fail=0

ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

for f in "$qemu" "$img" "$code" "$vars_tmpl"; do
    if [ ! -e "$f" ]; then
        echo "boot-test: $f is missing"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

"$top/firmware/uefi/build.sh" "$work/rom" --app || {
    echo "boot-test: the ROM or the app did not build"
    echo "0 passed, 1 failed"
    exit 1
}
rom=$work/rom/$model-efi.rom

# The disk the VD holds: GPT, an 8 MiB EFI system partition at 1 MiB with
# the app as its default boot loader, the nonce at LBA 101.
nonce=$(( (RANDOM << 15 | RANDOM) % 1000000000 ))
disk=$work/disk.img
truncate -s 16M "$disk"
printf 'label: gpt\nstart=2048, size=16384, type=uefi\n' |
    sfdisk -q "$disk" >/dev/null
mkfs.vfat -C "$work/esp.img" 8192 >/dev/null
mmd -i "$work/esp.img" ::/EFI ::/EFI/BOOT
mcopy -i "$work/esp.img" "$work/rom/blkio-app.efi" ::/EFI/BOOT/BOOTX64.EFI
dd if="$work/esp.img" of="$disk" bs=512 seek=2048 conv=notrunc status=none
printf 'MRSIM-IN %010d' "$nonce" |
    dd of="$disk" bs=512 seek=101 conv=notrunc status=none

# A RAID 1 VD over two 64 MiB members holding that disk.
d0=$work/d0.img
d1=$work/d1.img
"$img" create -l raid1 --drive-size 64M "$d0" "$d1" >/dev/null &&
"$img" write -i "$disk" "$d0" "$d1" >/dev/null ||
    { echo "boot-test: megaraid-img could not build the VD"
      echo "0 passed, 1 failed"; exit 1; }

# What the firmware prints when no device booted: bookworm's OVMF starts
# its built-in shell, newer ones (no shell) say so.
gave_up='starting Boot[0-9A-F]* "EFI Internal Shell"|No bootable option or device was found'

# qmp_run SOCKET OUT JSON...: each command over QMP (tests/lib/qmp.py,
# connecting as soon as the socket is there), the replies in OUT.
qmp_run() {
    local sock=$1 out=$2
    shift 2
    python3 "$top/tests/lib/qmp.py" "$sock" "$@" >"$out" 2>&1
}

# qmp_quit SOCKET LOG OUT: once LOG shows the firmware gave up on every
# boot device (at most 180 s), query-status and quit over QMP; the replies
# in OUT.
qmp_quit() {
    for _ in $(seq 180); do
        grep -aEq "$gave_up" "$2" 2>/dev/null && break
        sleep 1
    done
    qmp_run "$1" "$3" '{"execute": "query-status"}' '{"execute": "quit"}'
}

# boot NAME DEVICE-ARGS...: OVMF with the given devices, console on
# $work/NAME.log; returns QEMU's exit status (timeout: 124).
boot() {
    local name=$1
    shift
    cp "$vars_tmpl" "$work/$name.vars"
    timeout 240 "$qemu" -M q35 -m 256M -nodefaults -display none \
        -L "$top/build/qemu/pc-bios" -L /usr/share/qemu \
        -drive if=pflash,format=raw,unit=0,readonly=on,file="$code" \
        -drive if=pflash,format=raw,unit=1,file="$work/$name.vars" \
        -serial file:"$work/$name.log" -no-reboot \
        -qmp unix:"$work/$name.qmp",server=on,wait=off "$@" \
        >"$work/$name.out" 2>&1
}

# The controller's default romfile: the ROM build-qemu.sh installed.
ctrl=(-device "$model,id=raid0,bootindex=0"
      -drive if=none,id=d0,file="$d0",format=raw
      -device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=d0
      -drive if=none,id=d1,file="$d1",format=raw
      -device megaraid-drive,id=hd1,bus=raid0.0,slot=1,drive=d1)

# ---- 1. boot from the VD
start=$(date +%s)
boot vd "${ctrl[@]}"
rc=$?
secs=$(( $(date +%s) - start ))
log=$work/vd.log
if [ $rc -eq 0 ]; then
    ok "QEMU powered off by the app (${secs}s)"
else
    bad "QEMU ended with $rc after ${secs}s: $(tail -c 300 "$work/vd.out")"
fi
if grep -aq "$banner: 1 disk(s); target 0: VD RAID 1 optimal" "$log"; then
    ok "the driver's banner names the RAID 1 VD"
else
    bad "no driver banner for the VD in the console log"
fi
if grep -aq "MRSIM-TOKEN $nonce PASS" "$log"; then
    ok "the app read the nonce and wrote and read back through Block I/O"
else
    bad "the app did not pass: $(grep -a MRSIM-TOKEN "$log" | tr -d '\r' | tail -n1)"
fi
"$img" read -o $((100 * 512)) -l 512 "$d0" "$d1" 2>/dev/null |
    head -c 20 | tr -d "\\0" >"$work/out.bin"
if [ "$(cat "$work/out.bin")" = "MRSIM-OUT $(printf %010d "$nonce")" ]; then
    ok "the token is on the VD (read on the host)"
else
    bad "the token is not on the VD: $(od -c "$work/out.bin" | head -n2)"
fi
python3 - "$nonce" >"$work/pattern.bin" <<'EOF'
import sys
n = int(sys.argv[1])
sys.stdout.buffer.write(bytes(((i * 131 + (i >> 9) * 7 + n) & 0xFF)
                              for i in range(1024 * 1024)))
EOF
"$img" read -o $((20480 * 512)) -l $((1024 * 1024)) "$d0" "$d1" \
    >"$work/vdpattern.bin" 2>/dev/null
if cmp -s "$work/pattern.bin" "$work/vdpattern.bin"; then
    ok "the 1 MiB pattern is on the VD"
else
    bad "the 1 MiB pattern on the VD differs"
fi
if "$img" check "$d0" "$d1" >"$work/check.out" 2>&1; then
    ok "megaraid-img check: consistent"
else
    bad "megaraid-img check: $(tail -n3 "$work/check.out")"
fi

# ---- 2. the IOC in FAULT when the firmware starts (injected while the
# machine waits, -S): the driver resets it and boots as before
nonce=$((nonce + 1))
printf 'MRSIM-IN %010d' "$nonce" >"$work/nonce.bin"
truncate -s 512 "$work/nonce.bin"
"$img" write -o $((101 * 512)) -i "$work/nonce.bin" "$d0" "$d1" \
    >"$work/write.out" 2>&1 ||
    bad "megaraid-img write (fault case): $(tail -n2 "$work/write.out")"
qmp_run "$work/fault.qmp" "$work/fault.qmpout" \
    '{"execute": "qom-set", "arguments": {"path": "/machine/peripheral/raid0", "property": "inject-fault", "value": "0x123"}}' \
    '{"execute": "cont"}' &
boot fault "${ctrl[@]}" -S
wait
if grep -q '"error"' "$work/fault.qmpout"; then
    bad "inject-fault over QMP: $(grep error "$work/fault.qmpout" | head -c 300)"
elif grep -aq "$banner: 1 disk(s); target 0: VD RAID 1 optimal" \
        "$work/fault.log" &&
     grep -aq "MRSIM-TOKEN $nonce PASS" "$work/fault.log"; then
    ok "an IOC in FAULT at power-on is reset by the driver, and boots"
else
    bad "IOC in FAULT: $(grep -a "boot driver\|MRSIM" "$work/fault.log" | tr -d '\r' | head -n3)"
fi

# ---- 3. one member failed: the degraded VD boots, with a warning
"$img" fail -d "$d0" "$d0" "$d1" >"$work/fail.out" 2>&1 ||
    bad "megaraid-img fail: $(tail -n2 "$work/fail.out")"
nonce=$((nonce + 1))
printf 'MRSIM-IN %010d' "$nonce" >"$work/nonce.bin"
truncate -s 512 "$work/nonce.bin"
"$img" write -o $((101 * 512)) -i "$work/nonce.bin" "$d0" "$d1" \
    >"$work/write.out" 2>&1 ||
    bad "megaraid-img write (degraded): $(tail -n2 "$work/write.out")"
boot degraded "${ctrl[@]}"
if grep -aq "target 0: VD RAID 1 degraded (WARNING: not optimal)" \
        "$work/degraded.log" &&
   grep -aq "MRSIM-TOKEN $nonce PASS" "$work/degraded.log"; then
    ok "a degraded VD boots, with a warning line"
else
    bad "degraded VD: $(grep -a "boot driver\|MRSIM" "$work/degraded.log" | tr -d '\r' | head -n3)"
fi

# ---- 4. both members failed: no bootable device, QEMU healthy
"$img" fail -d "$d1" "$d0" "$d1" >>"$work/fail.out" 2>&1 ||
    bad "megaraid-img fail: $(tail -n2 "$work/fail.out")"
qmp_quit "$work/off.qmp" "$work/off.log" "$work/off.qmpout" &
boot off "${ctrl[@]}"
rc=$?
wait
if grep -aq "$banner: 0 disk(s)" "$work/off.log" &&
   grep -aEq "$gave_up" "$work/off.log" &&
   ! grep -aq "MRSIM-TOKEN" "$work/off.log"; then
    ok "an offline VD is not offered and nothing boots"
else
    bad "offline VD: $(grep -a "boot driver\|MRSIM" "$work/off.log" | tr -d '\r' | head -n3)"
fi
if [ $rc -eq 0 ] && grep -q '"running"' "$work/off.qmpout"; then
    ok "QEMU still answers QMP and quits cleanly"
else
    bad "QEMU with no bootable device: rc $rc, $(head -c 300 "$work/off.qmpout")"
fi

# ---- 5. romfile= (empty) takes the ROM away: no driver, nothing boots
qmp_quit "$work/norom.qmp" "$work/norom.log" "$work/norom.qmpout" &
boot norom "${ctrl[@]/bootindex=0/romfile=}"
rc=$?
wait
if [ $rc -eq 0 ] && ! grep -aq "boot driver" "$work/norom.log" &&
   grep -aEq "$gave_up" "$work/norom.log"; then
    ok "romfile= leaves the controller without its boot driver"
else
    bad "romfile=: rc $rc, $(grep -a "boot driver" "$work/norom.log" | head -n2)"
fi

# ---- 6. the ROM on another device model: nothing binds, nothing breaks
qmp_quit "$work/other.qmp" "$work/other.log" "$work/other.qmpout" &
boot other -device megasas,romfile="$rom"
rc=$?
wait
if [ $rc -eq 0 ] && ! grep -aq "boot driver" "$work/other.log"; then
    ok "the ROM on a megasas (1000:0060) does nothing"
else
    bad "the ROM on a megasas: rc $rc, $(head -c 200 "$work/other.out")"
fi

# ---- 7. the ROM builds to the same bytes twice, and is the one installed
cmp -s "$rom" "$top/build/qemu/qemu-bundle/usr/local/share/qemu/$model-efi.rom" ||
    bad "the installed ROM is not this tree's (run scripts/build-qemu.sh)"
"$top/firmware/uefi/build.sh" "$work/rom2" >/dev/null 2>&1
if cmp -s "$rom" "$work/rom2/$model-efi.rom"; then
    ok "the ROM is reproducible"
else
    bad "two builds of the ROM differ"
fi

echo "1..$((pass + fail))"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
