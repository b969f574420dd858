#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds the guest image for the guest tests: Debian's own kernel (bookworm's
# 6.1, bookworm-backports' 6.12 or sid's 7.2) and an initramfs holding busybox, the
# kernel modules the tests need (with their dependencies, from a modules.dep
# made by depmod) and unmodified Debian tools with their shared libraries,
# copied from the host (install them with scripts/setup-guest-deps.sh),
# and the project's guest management CLI mrcli (tools/mrcli, static).
#
#   tests/guest/build-image.sh 6.1|6.12|7.2
#
# Output: build/guest/<kver>/vmlinuz (and vmlinux, the same kernel as an
# ELF file for a quicker PVH boot) and initrd.img.  sid splits a kernel into
# linux-image-* (a metapackage), linux-binary-* (vmlinuz), linux-modules-*
# and linux-base-* (System.map, modules.builtin): all are fetched and
# unpacked together (scripts/apt-sources.sh pins sid so that only this
# "-t sid" takes anything from it).  Kernel packages are
# downloaded once into build/dl/deb; the image is rebuilt only when one of
# its inputs (kernel package, tool package versions, this script, init)
# changes.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/guest"

kver=${1:-}
case "$kver" in
6.1)  rel_opts=() ;;
6.12) rel_opts=(-t bookworm-backports) ;;
7.2)  rel_opts=(-t sid) ;;
*)    echo "usage: $0 6.1|6.12|7.2" >&2; exit 2 ;;
esac

out="$top/build/guest/$kver"
dl="$top/build/dl/deb"
mkdir -p "$out" "$dl"
# One build of an image at a time (runs in parallel share it).
exec 9>"$out/.lock"
flock 9

# Modules in the image, with their dependencies: those loaded at boot
# (modprobe pulls in dependencies) and the md ones that tests load with
# lib.sh's need_modules (raid6_pq benchmarks itself on load: slow on TCG).
boot_modules="scsi_mod sd_mod sg scsi_transport_sas mpi3mr megaraid_sas
    virtio_pci virtio_scsi virtio_blk nvme ext4 crc32c_generic crc32c-intel
    libcrc32c"
extra_modules="md_mod raid0 raid1 raid10 raid456 ses"
modules="$boot_modules $extra_modules"
# Modules that newer kernels no longer have (crc32c became a library in
# 6.14; ext4 pulls in what it needs): left out when the kernel lacks them.
# Any other missing module fails the build.
optional_modules="crc32c_generic crc32c-intel libcrc32c"

# Host tools copied into the guest, with the packages they come from.
tool_pkgs="busybox-static bash fio lsscsi sg3-utils smartmontools pciutils
    util-linux fdisk e2fsprogs mdadm sdparm smp-utils"
tools="/bin/bash /usr/bin/fio /usr/bin/lsscsi /usr/sbin/smartctl /usr/bin/lspci
    /usr/bin/setpci /usr/bin/lsblk /usr/sbin/blkid /usr/sbin/blockdev
    /usr/bin/findmnt /usr/sbin/wipefs /usr/sbin/sfdisk
    /sbin/mke2fs /sbin/e2fsck /sbin/dumpe2fs /sbin/tune2fs /sbin/mdadm
    /sbin/mdmon /usr/bin/sdparm /usr/bin/smp_discover /usr/bin/smp_rep_general
    /usr/bin/smp_rep_manufacturer /usr/bin/smp_rep_phy_err_log
    /usr/bin/smp_phy_control"

# Resolve the kernel package: the linux-image-amd64 metapackage names the
# exact versioned package of each suite; in sid that package is itself a
# metapackage over the split linux-binary/modules/base packages.
debs=()
pkg=$(apt-cache depends "${rel_opts[@]}" linux-image-amd64 2>/dev/null |
      awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
if [ -n "$pkg" ] && [[ "$pkg" == linux-image-"$kver".* ]]; then
    kpkgs=("$pkg")
    # shellcheck disable=SC2207
    kpkgs+=($(apt-cache depends "${rel_opts[@]}" "$pkg" 2>/dev/null |
              awk -v v="${pkg#linux-image-}" '$1 == "Depends:" &&
                  ($2 == "linux-binary-" v || $2 == "linux-modules-" v ||
                   $2 == "linux-base-" v) { print $2 }'))
    for p in "${kpkgs[@]}"; do
        fname=$(apt-cache show --no-all-versions "${rel_opts[@]}" "$p" |
                awk '$1 == "Filename:" { print $2; exit }')
        if [ -z "$fname" ]; then
            debs=()
            break
        fi
        debs+=("$dl/${fname##*/}")
        if [ ! -f "${debs[-1]}" ]; then
            echo "build-image: downloading $p" >&2
            (cd "$dl" && apt-get download -q "${rel_opts[@]}" "$p") >&2
        fi
    done
else
    # No package lists (offline?): fall back to downloaded packages.
    for p in image binary modules base; do
        f=$(find "$dl" -name "linux-$p-$kver.*-amd64_*.deb" | sort -V |
            tail -n 1)
        [ -z "$f" ] || debs+=("$f")
    done
fi
for deb in "${debs[@]}" ""; do
    [ -z "$deb" ] || [ -f "$deb" ] || { debs=(); break; }
done
if [ ${#debs[@]} = 0 ]; then
    echo "build-image: cannot find Debian's linux-image package for $kver;" \
         "run scripts/apt-sources.sh and apt-get update" >&2
    exit 1
fi

for t in $tools /bin/busybox; do
    if [ ! -x "$t" ]; then
        echo "build-image: $t missing; run scripts/setup-guest-deps.sh" >&2
        exit 1
    fi
done

# MFI management tools from sid, unmodified: mfiutil (needs a newer glibc
# than bookworm's, so it runs on sid's libc6 through sid's own loader under
# /opt/sid) and megasasctl (package megactl).  Both find the controller by
# the megaraid_sas_ioctl major in /proc/devices and make the node
# /dev/megaraid_sas_ioctl_node themselves.  Downloaded once into build/dl.
sid_pkgs="mfiutil megactl libc6"
sid_debs=()
for p in $sid_pkgs; do
    fname=$(apt-cache show --no-all-versions -t sid "$p" 2>/dev/null |
            awk '$1 == "Filename:" { print $2; exit }')
    if [ -n "$fname" ]; then
        f="$dl/${fname##*/}"
        if [ ! -f "$f" ]; then
            echo "build-image: downloading $p (sid)" >&2
            (cd "$dl" && apt-get download -q -t sid "$p") >&2
        fi
    else
        # No package lists (offline?): the newest downloaded one.
        f=$(find "$dl" -name "${p}_*_amd64.deb" | sort -V | tail -n 1)
    fi
    if [ -z "$f" ] || [ ! -f "$f" ]; then
        echo "build-image: cannot get $p from sid; run scripts/apt-sources.sh" \
             "and apt-get update" >&2
        exit 1
    fi
    sid_debs+=("$f")
done

# mrcli (tools/mrcli), the project's guest management CLI: a static binary
# of the standalone build, brought up to date here under the lock the RAID
# tests take for build/core (scripts/test.sh has built it before).
mrcli_bin="$top/build/core/mrcli"
if ! (
    flock 9
    [ -f "$top/build/core/build.ninja" ] ||
        meson setup "$top/build/core" "$top" >/dev/null
    ninja -C "$top/build/core" mrcli >/dev/null
) 9> "$top/build/core.lock" || [ ! -x "$mrcli_bin" ]; then
    echo "build-image: cannot build mrcli (ninja -C build/core mrcli)" >&2
    exit 1
fi

# Rebuild only when an input changed (.inputs lists them, for diagnosis).
# shellcheck disable=SC2086
inputs=$( {
    echo "${debs[*]} $modules $tools"
    dpkg-query -W $tool_pkgs
    echo "mrcli $(sha256sum < "$mrcli_bin")"
    echo "sid ${sid_debs[*]}"
    for f in build-image.sh init extract-vmlinux.py; do
        echo "$f $(sha256sum < "$here/$f")"
    done
} )
stamp=$(echo "$inputs" | sha256sum | cut -d' ' -f1)
if [ -f "$out/vmlinuz" ] && [ -f "$out/vmlinux" ] && [ -f "$out/initrd.img" ] &&
   [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "build-image: $out up to date" >&2
    exit 0
fi
if [ -f "$out/.inputs" ]; then
    echo "build-image: inputs changed:" >&2
    diff "$out/.inputs" <(echo "$inputs") | grep '^[<>]' >&2 || true
fi

start=$(date +%s)
echo "build-image: building $out from ${debs[0]##*/}" >&2
tmp="$out/tmp"
rm -rf "$tmp"
mkdir -p "$tmp/kernel" "$tmp/root"
for deb in "${debs[@]}"; do
    dpkg-deb -x "$deb" "$tmp/kernel"
done
kroot="$tmp/kernel"
[ -d "$kroot/lib/modules" ] || kroot="$tmp/kernel/usr"
uname_r=$(ls "$kroot/lib/modules")
depmod -b "$kroot" "$uname_r"
# The kernel's image: /boot in bookworm, beside the modules in sid.
vmlinuz="$kroot/boot/vmlinuz-$uname_r"
[ -f "$vmlinuz" ] || vmlinuz="$kroot/lib/modules/$uname_r/vmlinuz"
# Drop the optional modules this kernel does not have.
present=""
for m in $modules; do
    if modprobe -C /dev/null -d "$kroot" -S "$uname_r" --show-depends "$m" \
            >/dev/null 2>&1; then
        present="$present $m"
    elif [[ " $optional_modules " != *" $m "* ]]; then
        echo "build-image: module $m not in $uname_r" >&2
        exit 1
    fi
done
modules=$present
kept=""
for m in $boot_modules; do
    [[ " $modules " != *" $m "* ]] || kept="$kept $m"
done
boot_modules=$kept

# Root filesystem, merged-/usr like the host so that library paths from
# ldd resolve whichever spelling they use.
root="$tmp/root"
mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{dev,proc,sys,tmp,run,mnt,etc,root}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
ln -s /proc/mounts "$root/etc/mtab"

# Modules: the closure of $modules over modules.dep, decompressed so that
# busybox's modprobe can load them, then a modules.dep of their own.
moddir="$root/lib/modules/$uname_r"
mkdir -p "$moddir"
# shellcheck disable=SC2086
modprobe -C /dev/null -d "$kroot" -S "$uname_r" --show-depends -a $modules |
    awk '$1 == "insmod" { print $2 }' | sort -u |
while read -r ko; do
    rel=${ko#"$kroot/lib/modules/$uname_r/"}
    mkdir -p "$moddir/$(dirname "$rel")"
    case "$ko" in
    *.ko.xz)  xz -dc "$ko" > "$moddir/${rel%.xz}" ;;
    *.ko.zst) zstd -qdc "$ko" > "$moddir/${rel%.zst}" ;;
    *)        cp "$ko" "$moddir/$rel" ;;
    esac
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
    [ -f "$kroot/lib/modules/$uname_r/$f" ] &&
        cp "$kroot/lib/modules/$uname_r/$f" "$moddir/"
done
depmod -b "$root" "$uname_r"
# Load list for init, by module name (builtin ones are skipped by modprobe).
# shellcheck disable=SC2086
printf '%s\n' $boot_modules > "$root/etc/mrsim-modules"

# Busybox applets first, real tools over them.  Test scripts run under
# bash: Debian's static busybox sh runs its own applets (lsscsi, lspci,
# blkid, ...) before anything on PATH.
cp /bin/busybox "$root/usr/bin/busybox"
/bin/busybox --list-full | while read -r a; do
    [ -e "$root/$a" ] || [ -L "$root/$a" ] || ln -s /usr/bin/busybox "$root/$a"
done

copy_file() {    # copy_file HOSTPATH: into the root at the same path
    mkdir -p "$root/$(dirname "$1")"
    rm -f "$root/$1"
    cp -L "$1" "$root/$1"
}
copy_bin() {     # copy_bin HOSTPATH: a binary and its shared libraries
    copy_file "$1"
    ldd "$1" | awk '/=> \// { print $3 } /^\t\/[^ ]* \(/ { print $1 }' |
    while read -r lib; do
        [ -e "$root/$lib" ] || copy_file "$lib"
    done
}
# shellcheck disable=SC2086
for t in $tools $(dpkg -L sg3-utils | grep '/bin/sg_'); do
    copy_bin "$t"
done
ln -sf mke2fs "$root/usr/sbin/mkfs.ext4"
ln -sf e2fsck "$root/usr/sbin/fsck.ext4"
copy_file /usr/share/misc/pci.ids
copy_file /etc/mke2fs.conf
cp "$mrcli_bin" "$root/usr/sbin/mrcli"
mkdir -p "$root/opt/sid"
for deb in "${sid_debs[@]}"; do
    dpkg-deb -x "$deb" "$root/opt/sid"
done
rm -rf "$root/opt/sid/usr/share"
ln -sf /opt/sid/usr/bin/megasasctl "$root/usr/sbin/megasasctl"
cat > "$root/usr/sbin/mfiutil" <<'MFI'
#!/bin/sh
exec /opt/sid/usr/lib64/ld-linux-x86-64.so.2 --argv0 mfiutil \
    --library-path /opt/sid/usr/lib/x86_64-linux-gnu \
    /opt/sid/usr/sbin/mfiutil "$@"
MFI
chmod 755 "$root/usr/sbin/mfiutil"
# StorCLI's names for mrcli (docs/storcli.md): called so it speaks storcli
# v1 (storcli, storcli64, perccli, perccli64) or storcli2 (storcli2,
# perccli2); in PATH and in the folders StorCLI's packages install to.
mkdir -p "$root/opt/MegaRAID/storcli" "$root/opt/MegaRAID/storcli2" \
    "$root/opt/MegaRAID/perccli" "$root/opt/MegaRAID/perccli2"
for n in storcli storcli64 perccli perccli64 storcli2 perccli2; do
    ln -sf mrcli "$root/usr/sbin/$n"
done
for n in storcli storcli64; do
    ln -sf /usr/sbin/mrcli "$root/opt/MegaRAID/storcli/$n"
done
ln -sf /usr/sbin/mrcli "$root/opt/MegaRAID/storcli2/storcli2"
ln -sf /usr/sbin/mrcli "$root/opt/MegaRAID/perccli/perccli64"
ln -sf /usr/sbin/mrcli "$root/opt/MegaRAID/perccli2/perccli2"
cp "$here/init" "$root/init"
chmod 755 "$root/init"

cp "$vmlinuz" "$out/vmlinuz.new"
# The ELF kernel too: QEMU starts it through PVH without the kernel's own
# decompression (seconds under TCG).  run.sh prefers it.
"$here/extract-vmlinux.py" "$out/vmlinuz.new" "$out/vmlinux.new"
# Uncompressed: unpacking a compressed initramfs takes seconds under TCG.
(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) \
    > "$out/initrd.img.new"
mv "$out/vmlinuz.new" "$out/vmlinuz"
mv "$out/vmlinux.new" "$out/vmlinux"
mv "$out/initrd.img.new" "$out/initrd.img"
echo "$uname_r" > "$out/uname"
echo "$stamp" > "$out/.stamp"
echo "$inputs" > "$out/.inputs"
rm -rf "$tmp"
echo "build-image: $out ($uname_r) built in $(( $(date +%s) - start ))s," \
     "initrd $(du -h "$out/initrd.img" | cut -f1)" >&2
