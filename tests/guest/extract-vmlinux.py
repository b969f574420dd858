#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host-side helper of tests/guest/build-image.sh: unpacks the ELF kernel
# (vmlinux) from a Debian bzImage, so that QEMU can start it through its
# PVH entry point and skip the kernel's self-decompression, which takes
# seconds under TCG.  The payload is located from the boot protocol's
# setup header (setup_sects at 0x1f1, payload_offset and payload_length at
# 0x248/0x24c) and is xz (Debian 6.1) or zstd (6.12).
#
#   tests/guest/extract-vmlinux.py BZIMAGE OUTPUT
import lzma
import struct
import subprocess
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: extract-vmlinux.py BZIMAGE OUTPUT", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        img = f.read()
    if img[0x202:0x206] != b"HdrS":
        sys.exit("extract-vmlinux: %s is not a bzImage" % argv[1])
    setup_sects = img[0x1f1] or 4
    off, length = struct.unpack_from("<II", img, 0x248)
    start = (setup_sects + 1) * 512 + off
    payload = img[start:start + length]
    if payload.startswith(b"\xfd7zXZ\x00"):
        out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
    elif payload.startswith(b"\x28\xb5\x2f\xfd"):
        # The build appends the uncompressed size (4 bytes) after the frame.
        out = subprocess.run(["zstd", "-qdc"], input=payload[:-4],
                             stdout=subprocess.PIPE, check=True).stdout
    else:
        sys.exit("extract-vmlinux: %s: payload compression not handled"
                 % argv[1])
    if not out.startswith(b"\x7fELF"):
        sys.exit("extract-vmlinux: %s: payload is not an ELF file" % argv[1])
    with open(argv[2], "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
