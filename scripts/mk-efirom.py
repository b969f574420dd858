#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Wraps a UEFI driver (a PE32+ image) as a PCI expansion ROM image, the
# form a card's option ROM has and QEMU's romfile= takes: the ROM header
# (0x55AA, the EFI signature 0x0EF1, subsystem, machine type, no
# compression, where the PE image and the PCI data structure are), a PCI
# Data Structure (revision 3) with the controller's vendor and device ids,
# class code and code type 3 (EFI), marked as the last image, then the PE
# image, padded with 0xFF to a multiple of 512 bytes.  The output depends
# on the input bytes only, so two builds give the same ROM.
#
#   mk-efirom.py --vendor 0x1000 --device 0x00a5 --class 0x010400 \
#                DRIVER.efi OUT.rom
import argparse
import struct
import sys

ROM_HDR = 0x1C          # the EFI ROM header's size
PCIR_LEN = 0x1C         # a revision 3 PCI Data Structure
PE_OFFSET = 0x40


def wrap(pe, vendor, device, class_code, subsystem):
    if pe[:2] != b"MZ":
        raise ValueError("not a PE image (no MZ signature)")
    pe_hdr = struct.unpack_from("<I", pe, 0x3C)[0]
    if pe[pe_hdr:pe_hdr + 4] != b"PE\0\0":
        raise ValueError("not a PE image (no PE signature)")
    machine = struct.unpack_from("<H", pe, pe_hdr + 4)[0]
    size = PE_OFFSET + len(pe)
    size = (size + 511) // 512 * 512
    if size // 512 > 0xFFFF:
        raise ValueError("image too large for a ROM")
    rom = bytearray(b"\xff" * size)
    struct.pack_into("<BBHIHHH8xHH", rom, 0, 0x55, 0xAA, size // 512,
                     0x0EF1, subsystem, machine, 0, PE_OFFSET, ROM_HDR)
    struct.pack_into("<4sHHHHB3sHHBBHHH", rom, ROM_HDR, b"PCIR", vendor,
                     device, 0, PCIR_LEN, 3,
                     struct.pack("<I", class_code)[:3], size // 512, 0,
                     3, 0x80, 0, 0, 0)
    rom[PE_OFFSET:PE_OFFSET + len(pe)] = pe
    return bytes(rom)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vendor", type=lambda v: int(v, 0), required=True)
    ap.add_argument("--device", type=lambda v: int(v, 0), required=True)
    ap.add_argument("--class", dest="class_code", type=lambda v: int(v, 0),
                    required=True)
    ap.add_argument("--subsystem", type=lambda v: int(v, 0), default=11,
                    help="PE subsystem: 11 boot service driver (default)")
    ap.add_argument("driver")
    ap.add_argument("out")
    a = ap.parse_args()
    with open(a.driver, "rb") as f:
        pe = f.read()
    try:
        rom = wrap(pe, a.vendor, a.device, a.class_code, a.subsystem)
    except ValueError as e:
        sys.exit("mk-efirom: %s: %s" % (a.driver, e))
    with open(a.out, "wb") as f:
        f.write(rom)


if __name__ == "__main__":
    main()
