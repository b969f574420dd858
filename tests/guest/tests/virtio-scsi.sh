# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Baseline guest test: QEMU's virtio-scsi with two image-backed scsi-hd
# disks; the guest's virtio_scsi driver must pass lib.sh's scsi_baseline.
#@ disk d0 64M vendor=MRSIM product=VSCSI-D0 serial=VS0
#@ disk d1 48M vendor=MRSIM product=VSCSI-D1 serial=VS1
#@ qemu -device virtio-scsi-pci,id=scsi0
#@ qemu -device scsi-hd,bus=scsi0.0,drive=d0,vendor=MRSIM,product=VSCSI-D0,serial=VS0
#@ qemu -device scsi-hd,bus=scsi0.0,drive=d1,vendor=MRSIM,product=VSCSI-D1,serial=VS1
scsi_baseline virtio_scsi
