#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a formatted NVRAM image for QEMU's pseries machine.

Under QEMU's own Open Firmware (x-vof=on) nothing formats the NVRAM, as
SLOF does: the kernel finds a first partition of length 0 and warns of
corruption. This image holds the CHRP layout the kernel expects (its
nvram_64.c): one free partition (signature 0x7f) over the whole 64 KiB,
its 16-byte header checksummed as the kernel checks it.

Usage: chrp-nvram.py IMAGE   (written again each time, atomically)
"""
import os
import struct
import sys
import tempfile

SIZE = 64 * 1024
BLOCK = 16
FREE = 0x7f
NAME = b'wwwwwwwwwwww'


def checksum(signature, length, name):
    """The kernel's nvram_checksum(): the name as six little-endian
    shorts (a ppc64le kernel reads them in its own order)."""
    total = signature + length + sum(struct.unpack('<6H', name))
    total = ((total & 0xffff) + (total >> 16)) & 0xffff
    folded = (total >> 8) + (total << 8)
    return ((total + folded) >> 8) & 0xff


def main():
    path = sys.argv[1]
    length = SIZE // BLOCK
    header = struct.pack('>BBH12s', FREE, checksum(FREE, length, NAME),
                         length, NAME)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)))
    with os.fdopen(fd, 'wb') as f:
        f.write(header + b'\xff' * (SIZE - len(header)))
    os.replace(tmp, path)


if __name__ == '__main__':
    main()
