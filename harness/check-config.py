#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a merged .config holds what the fragments asked for.

Usage: check-config.py .config FRAGMENT...  Later fragments win, as with
merge_config.sh. Prints each option that did not land; exit status 1 if
any did not.
"""
import re
import sys

SET = re.compile(r'^(CONFIG_\w+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_\w+) is not set$')


def read(path):
    want = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = SET.match(line)
            if m:
                want[m.group(1)] = m.group(2)
            m = UNSET.match(line)
            if m:
                want[m.group(1)] = 'n'
    return want


def main():
    have = read(sys.argv[1])
    want = {}
    for frag in sys.argv[2:]:
        want.update(read(frag))
    bad = [f'{k}: want {v}, have {have.get(k, "n")}'
           for k, v in want.items() if have.get(k, 'n') != v]
    for line in bad:
        print('config:', line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
