#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The option ROM's full boot test: a small Debian system on a RAID 5 VD
# (three members and a hot spare, made with megaraid-img) boots through
# OVMF -> the controller's UEFI driver -> GRUB (grub-mkstandalone, from
# Debian's grub-efi-amd64-bin) -> Debian's kernel, whose initramfs loads
# the unmodified mpi3mr and mounts the root file system from the VD.  Once
# up, the system writes files to its root while the host fails a member
# over QMP; the spare rebuilds under the running system; after the
# rebuild the host resets the machine, which boots again from the rebuilt
# VD and checks every file written before.  tests/uefi/boot-linux.py
# drives QEMU; this script builds the disk.
#
#   tests/uefi/boot-linux.sh [--controller megaraid-9600|megaraid-9500]
#                            [KERNEL]     (default 6.12; tests/guest kernels)
#
# On megaraid-9500 the kernel's driver is megaraid_sas.
#
# Prints TAP and "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
model=megaraid-9600
if [ "${1:-}" = --controller ]; then
    model=$2
    shift 2
fi
kver=${1:-6.12}
img=$top/build/core/megaraid-img
work=$(mktemp -d /tmp/mrsim-linux.XXXXXX)
trap '[ -n "${MRSIM_KEEP:-}" ] || rm -rf "$work"' EXIT

die() {
    echo "boot-linux: $*"
    echo "1..1"
    echo "not ok 1 - $*"
    echo "0 passed, 1 failed"
    exit 1
}

"$top/tests/guest/build-image.sh" "$kver" >"$work/build-image.log" 2>&1 ||
    die "the $kver guest image did not build: $(tail -n3 "$work/build-image.log")"
gdir=$top/build/guest/$kver
kmods=$(cat "$gdir/uname")

# ---- the initramfs: busybox and the kernel's modules from the guest
# image, and an /init that mounts the root from the VD.
mkdir -p "$work/ird-src" "$work/ird"
(cd "$work/ird-src" && cpio -idm --quiet <"$gdir/initrd.img") ||
    die "cannot unpack $gdir/initrd.img"
ird=$work/ird
mkdir -p "$ird/usr/bin" "$ird/usr/lib" "$ird/proc" "$ird/sys" "$ird/dev" \
    "$ird/newroot"
ln -s usr/bin "$ird/bin"
ln -s usr/bin "$ird/sbin"
ln -s usr/lib "$ird/lib"
cp "$work/ird-src/usr/bin/busybox" "$ird/usr/bin/"
cp -a "$work/ird-src/usr/lib/modules" "$ird/usr/lib/"
cat >"$ird/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
modprobe -a mpi3mr megaraid_sas sd_mod ext4
dev=""
for _ in $(seq 120); do
    dev=$(findfs LABEL=mrsimroot 2>/dev/null) && break
    sleep 1
done
[ -n "$dev" ] || { echo "MRSIM-INITRD no root file system"; poweroff -f; }
mount -t ext4 "$dev" /newroot ||
    { echo "MRSIM-INITRD mount failed"; poweroff -f; }
echo "MRSIM-INITRD root $dev"
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
EOF
chmod +x "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet) >"$work/initrd.img" ||
    die "cannot pack the initramfs"

# ---- the root file system: busybox and an init that writes files on
# the first boot and checks them on the second.
root=$work/root
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" \
    "$root/tmp" "$root/var"
cp "$work/ird-src/usr/bin/busybox" "$root/bin/"
cat >"$root/sbin/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -o remount,rw /
n=$(cat /var/boot-count 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >/var/boot-count
sync
echo "MRSIM-ROOT-UP boot=$n root=$(awk '$2 == "/" { print $1 }' /proc/mounts)"
echo "@@MRSIM-DMESG-BEGIN@@"
dmesg -r
echo "@@MRSIM-DMESG-END@@"
if [ "$n" = 1 ]; then
    # until the host resets the machine (it waits for the rebuild)
    i=0
    while [ $i -lt 600 ]; do
        i=$((i + 1))
        dd if=/dev/urandom of=/var/f$i bs=16k count=4 2>/dev/null
        sha1sum /var/f$i >>/var/sums
        sync
        echo "MRSIM-IO $i"
        sleep 1
    done
    echo "MRSIM-IO gave up waiting for the reset"
else
    if sha1sum -c /var/sums >/tmp/check 2>&1; then
        echo "MRSIM-VERIFY PASS $(wc -l </var/sums) files"
    else
        echo "MRSIM-VERIFY FAIL $(grep -c FAILED /tmp/check) of $(wc -l </var/sums)"
    fi
fi
sync
poweroff -f
EOF
chmod +x "$root/sbin/init"

# ---- the disk: GPT, a 64 MiB ESP (GRUB, kernel, initramfs) and a 32 MiB
# ext4 root labelled mrsimroot.
cat >"$work/grub.cfg" <<EOF
set timeout=0
search --no-floppy --file --set=root /mrsim-vmlinuz
echo "GRUB: loading Linux from \$root"
linux /mrsim-vmlinuz console=ttyS0 panic=-1 mitigations=off no_timer_check loglevel=4
initrd /mrsim-initrd
boot
EOF
grub-mkstandalone -O x86_64-efi -o "$work/BOOTX64.EFI" \
    --modules="part_gpt fat ext2 search search_fs_file linux echo normal" \
    --install-modules="part_gpt fat ext2 search search_fs_file linux echo normal test" \
    "boot/grub/grub.cfg=$work/grub.cfg" ||
    die "grub-mkstandalone failed"
d=$work
"$img" create -l raid5 --drive-size 80M --hot-spare "$d/s.img" \
    "$d/d0.img" "$d/d1.img" "$d/d2.img" >/dev/null ||
    die "megaraid-img could not create the RAID 5 VD"
# the disk is as large as the VD, so its backup GPT is at the VD's end
sectors=$("$img" show --json "$d/d0.img" "$d/d1.img" "$d/d2.img" "$d/s.img" |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["vds"][0]["sectors"])') ||
    die "megaraid-img show: no VD size"
disk=$work/disk.img
truncate -s $((sectors * 512)) "$disk"
printf 'label: gpt\nstart=2048, size=131072, type=uefi\nstart=133120, size=65536, type=linux\n' |
    sfdisk -q "$disk" >/dev/null || die "sfdisk failed"
mkfs.vfat -C "$work/esp.img" 65536 >/dev/null
mmd -i "$work/esp.img" ::/EFI ::/EFI/BOOT
mcopy -i "$work/esp.img" "$work/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$work/esp.img" "$gdir/vmlinuz" ::/mrsim-vmlinuz
mcopy -i "$work/esp.img" "$work/initrd.img" ::/mrsim-initrd ||
    die "the ESP is too small"
mke2fs -q -t ext4 -L mrsimroot -d "$root" "$work/root.img" 32M \
        >/dev/null 2>&1 ||
    die "mke2fs failed"
dd if="$work/esp.img" of="$disk" bs=512 seek=2048 conv=notrunc status=none
dd if="$work/root.img" of="$disk" bs=512 seek=133120 conv=notrunc status=none

"$img" write -i "$disk" "$d/d0.img" "$d/d1.img" "$d/d2.img" "$d/s.img" \
    >/dev/null || die "megaraid-img could not write the disk to the VD"
rm -rf "$work/ird-src" "$work/ird"

python3 "$top/tests/uefi/boot-linux.py" "$top" "$work" "$kmods" "$model" |
    tee "$work/tap"
if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    if "$img" check "$d/d0.img" "$d/d1.img" "$d/d2.img" "$d/s.img" \
            >"$work/check.out" 2>&1; then
        echo "ok - megaraid-img check after the rebuild and reboot: consistent"
    else
        echo "not ok - megaraid-img check: $(tail -n3 "$work/check.out")"
    fi | tee -a "$work/tap"
fi
pass=$(grep -c '^ok ' "$work/tap")
fail=$(grep -c '^not ok ' "$work/tap")
if [ "$fail" -gt 0 ]; then
    echo "# console tail:"
    tail -c 2000 "$work/console.log" | tr -d '\r' | sed 's/^/# /'
fi
echo "1..$((pass + fail))"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
