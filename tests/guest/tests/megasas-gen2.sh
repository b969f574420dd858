# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Baseline guest test: QEMU's megasas-gen2 (SAS2108 family) with two
# image-backed scsi-hd disks; the guest's megaraid_sas driver must pass
# lib.sh's scsi_baseline.
#@ kernels 6.1 6.12
#@ disk d0 64M vendor=MRSIM product=MSAS-D0 serial=MS0
#@ disk d1 48M vendor=MRSIM product=MSAS-D1 serial=MS1
#@ qemu -device megasas-gen2,id=ms0
#@ qemu -device scsi-hd,bus=ms0.0,drive=d0,scsi-id=0,vendor=MRSIM,product=MSAS-D0,serial=MS0
#@ qemu -device scsi-hd,bus=ms0.0,drive=d1,scsi-id=1,vendor=MRSIM,product=MSAS-D1,serial=MS1
scsi_baseline megaraid_sas
