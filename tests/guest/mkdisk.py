#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host-side helper of the guest tests: creates a raw disk image with known
# content, so that a test can compare what the guest sees with the image.
# Every 512-byte sector holds the line "MRSIM-DISK <name> LBA <lba>\n"
# (lba as 12 decimal digits) repeated to fill it.  tests/guest/lib.sh's
# check_pattern reads it back.
#
#   tests/guest/mkdisk.py NAME SIZE PATH      SIZE in bytes or with K/M/G
#   tests/guest/mkdisk.py --check NAME PATH   exit 0 if PATH holds the pattern
import sys

SECTOR = 512


def parse_size(text):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in mult:
        return int(text[:-1]) * mult[text[-1:].upper()]
    return int(text)


def sector(name, lba):
    line = b"MRSIM-DISK %s LBA %012d\n" % (name.encode(), lba)
    return (line * (SECTOR // len(line) + 1))[:SECTOR]


def create(name, size, path):
    if size <= 0 or size % SECTOR:
        sys.exit("mkdisk: size %d of %s is not a positive multiple of %d"
                 % (size, path, SECTOR))
    chunk = 2048  # sectors per write
    with open(path, "wb") as f:
        for first in range(0, size // SECTOR, chunk):
            last = min(first + chunk, size // SECTOR)
            f.write(b"".join(sector(name, lba) for lba in range(first, last)))


def check(name, path):
    with open(path, "rb") as f:
        lba = 0
        while True:
            data = f.read(SECTOR)
            if not data:
                return True
            if data != sector(name, lba):
                print("mkdisk: %s: LBA %d differs from the pattern"
                      % (path, lba), file=sys.stderr)
                return False
            lba += 1


def main(argv):
    if len(argv) == 4 and argv[1] == "--check":
        return 0 if check(argv[2], argv[3]) else 1
    if len(argv) == 4:
        try:
            size = parse_size(argv[2])
        except ValueError:
            sys.exit("mkdisk: bad size '%s' for %s" % (argv[2], argv[3]))
        create(argv[1], size, argv[3])
        return 0
    print("usage: mkdisk.py NAME SIZE PATH | mkdisk.py --check NAME PATH",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
