#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that README.md shows the example program exactly as it is built.

README.md holds one fenced C block (a line "```c", then the program,
then a line "```"); its text must be samples/perf_counter/count_self.c
byte for byte, the file make test builds with -Werror and runs in every
guest (example_test). On a difference the first lines of a unified diff
are printed.

Usage: readme-example.py [--tap]   (KTAP for harness/host-tests.sh)
Exit status 1 if a check fails.
"""
import difflib
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = 'README.md'
EXAMPLE = 'samples/perf_counter/count_self.c'


def c_blocks(text):
    """The fenced ```c blocks of a Markdown text, each as its lines' text
    with their newlines; a block left open is one too (to its end)."""
    blocks, block = [], None
    for line in text.splitlines(keepends=True):
        if block is None:
            if line.rstrip('\n') == '```c':
                block = []
        elif line.rstrip('\n') == '```':
            blocks.append(''.join(block))
            block = None
        else:
            block.append(line)
    if block is not None:
        blocks.append(''.join(block))
    return blocks


def checks():
    """(name, failure text or None) for each check, in order."""
    with open(os.path.join(TOP, README), encoding='utf-8') as f:
        readme = f.read()
    with open(os.path.join(TOP, EXAMPLE), encoding='utf-8') as f:
        example = f.read()
    blocks = c_blocks(readme)
    yield ('readme_has_one_c_block',
           None if len(blocks) == 1 else
           f'{README} has {len(blocks)} fenced ```c blocks, not one')
    if not blocks:
        yield ('readme_c_block_is_the_example_byte_for_byte',
               f'no ```c block in {README}')
        return
    diff = list(difflib.unified_diff(
        example.splitlines(keepends=True), blocks[0].splitlines(keepends=True),
        EXAMPLE, f'{README} (its ```c block)'))
    yield ('readme_c_block_is_the_example_byte_for_byte',
           None if blocks[0] == example else
           ''.join(diff[:30]) or 'they differ in their line endings')


def main():
    tap = sys.argv[1:] == ['--tap']
    if sys.argv[1:] and not tap:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 1
    try:
        results = list(checks())
    except OSError as e:
        results = [('readme_and_example_are_readable', str(e))]
    failed = 0
    if tap:
        print('TAP version 13')
        print(f'1..{len(results)}')
    for n, (name, why) in enumerate(results, 1):
        failed |= why is not None
        if why:
            for line in why.rstrip('\n').split('\n'):
                print(f'# {line}' if tap else line)
        if tap:
            print(f'{"not ok" if why else "ok"} {n} {name}')
    if not tap and not failed:
        print(f'{README} shows {EXAMPLE} exactly')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
