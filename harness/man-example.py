#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract the C program of a man page's EXAMPLES section.

The program is the one .EX/.EE block under ".SS Program source" in
".SH EXAMPLES" (man-pages' layout); there must be exactly one. Its roff
escapes are turned back into C: \\e is a backslash, \\- a minus, \\&
nothing, \\(aq and \\(dq (or \\[aq], \\[dq]) quotes, \\(ti a tilde, \\(ha
a caret, \\(rs a backslash. Any other escape, and any control line inside
the block, is an error: the page would not show the program as written.

Usage: man-example.py PAGE OUT.c   Exit status 1 on any error.
"""
import os
import re
import sys

ESCAPES = {
    'e': '\\', '-': '-', '&': '',
    '(aq': "'", '[aq]': "'", '(dq': '"', '[dq]': '"',
    '(ti': '~', '[ti]': '~', '(ha': '^', '[ha]': '^',
    '(rs': '\\', '[rs]': '\\',
}
ESCAPE = re.compile(r'\\(\([a-z]{2}|\[[a-z]+\]|.)')


def unescape(line, where):
    def one(m):
        if m.group(1) not in ESCAPES:
            raise ValueError(f'{where}: roff escape \\{m.group(1)} '
                             'has no C meaning here')
        return ESCAPES[m.group(1)]
    return ESCAPE.sub(one, line)


def extract(path):
    with open(path) as f:
        lines = f.read().split('\n')
    section = subsection = None
    blocks, block = [], None
    for n, line in enumerate(lines, 1):
        where = f'{path}:{n}'
        if block is not None:
            if line == '.EE':
                blocks.append(block)
                block = None
            elif line[:1] in ('.', "'"):
                raise ValueError(f'{where}: control line inside .EX: '
                                 f'{line!r} (write \\&{line[:1]})')
            else:
                block.append(unescape(line, where))
            continue
        if line.startswith('.SH'):
            section, subsection = line[3:].strip().strip('"'), None
        elif line.startswith('.SS'):
            subsection = line[3:].strip().strip('"')
        elif line == '.EX' and section == 'EXAMPLES' and \
                subsection == 'Program source':
            block = []
    if block is not None:
        raise ValueError(f'{path}: .EX without .EE')
    if len(blocks) != 1:
        raise ValueError(f'{path}: {len(blocks)} .EX blocks under '
                         '".SS Program source" in EXAMPLES, not one')
    return '\n'.join(blocks[0]) + '\n'


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split('\n')[-1], file=sys.stderr)
        return 1
    try:
        text = extract(sys.argv[1])
    except (OSError, ValueError) as e:
        print(f'man-example: {e}', file=sys.stderr)
        return 1
    with open(sys.argv[2], 'w') as f:
        page = os.path.join(os.path.basename(os.path.dirname(
            os.path.abspath(sys.argv[1]))), os.path.basename(sys.argv[1]))
        f.write(f'/* Extracted from {page} by harness/man-example.py: '
                'edit the page, not this file. */\n')
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
