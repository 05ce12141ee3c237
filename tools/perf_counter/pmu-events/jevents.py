#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the JSON event tables under ARCH_DIR into C tables (pmu-events.h).

Usage: jevents.py ARCH_DIR OUTPUT.c

ARCH_DIR/mapfile.csv names, one CSV row each, a CPU identity (an anchored
POSIX extended regex), the directory of its JSON files under ARCH_DIR, the
perf_counter driver that counts its events, and the CPU's name. Each JSON
file in that directory is a topic ("cache.json": topic "cache") holding an
array of events. The JSON files directly in ARCH_DIR/<arch>/ hold the
architecture's standard events, which a CPU's event names with
"ArchStdEvent" and may override field by field.

The event_config code of each event, without the raw bit, is computed
from its fields the way its driver reads a raw event
(Documentation/admin-guide/perf/perf_counter-x86.rst,
Documentation/admin-guide/perf/perf_counter-powerpc.rst,
Documentation/perf_counter/pmu-events.rst).

Any malformed input stops the generator with "FILE:LINE: what is wrong"
on stderr and exit status 1; nothing is written then.
"""
import csv
import json
import os
import re
import sys


class InputError(Exception):
    """Malformed input, at a file and line."""

    def __init__(self, path, line, message):
        super().__init__(f'{path}:{line}: {message}')


# ---------------------------------------------------------------------------
# The drivers: what a raw event looks like to each.

# Counter 1 of the BPU group: p4.c never uses it (p4.h P4_BROKEN_COUNTER).
P4_BROKEN_COUNTER = 1

# P4 ESCRs (Intel SDM vol. 3B, "Performance Counter MSRs and Associated
# CCCR and ESCR MSRs"): name -> (MSR, CCCR ESCR_SELECT, counters
# it feeds that the driver uses).
def _p4_escr_table():
    table = {}
    rows = [
        # unit, ESCR0's MSR (ESCR1's follows), CCCR select, counter group
        ('BSU', 0x3a0, 7, 'BPU'), ('FSB', 0x3a2, 6, 'BPU'),
        ('MOB', 0x3aa, 2, 'BPU'), ('PMH', 0x3ac, 4, 'BPU'),
        ('BPU', 0x3b2, 0, 'BPU'), ('IS', 0x3b4, 1, 'BPU'),
        ('ITLB', 0x3b6, 3, 'BPU'), ('IX', 0x3c8, 5, 'BPU'),
        ('MS', 0x3c0, 0, 'MS'), ('TC', 0x3c4, 1, 'MS'),
        ('TBPU', 0x3c2, 2, 'MS'),
        ('FLAME', 0x3a6, 0, 'FLAME'), ('FIRM', 0x3a4, 1, 'FLAME'),
        ('SAAT', 0x3ae, 2, 'FLAME'), ('U2L', 0x3b0, 3, 'FLAME'),
        ('DAC', 0x3a8, 5, 'FLAME'),
        ('IQ', 0x3ba, 0, 'IQ'), ('ALF', 0x3ca, 1, 'IQ'),
        ('RAT', 0x3bc, 2, 'IQ'), ('SSU', 0x3be, 3, 'IQ'),
        ('CRU', 0x3b8, 4, 'IQ'), ('CRU2', 0x3cc, 5, 'IQ'),
        ('CRU4', 0x3e0, 6, 'IQ'),
    ]
    first = {'BPU': 0, 'MS': 4, 'FLAME': 8, 'IQ': 12}
    for unit, msr, select, group in rows:
        for half in (0, 1):
            if unit == 'SSU' and half == 1:
                continue        # there is no SSU_ESCR1
            base = first[group] + 2 * half
            counters = [c for c in (base, base + 1)
                        if c != P4_BROKEN_COUNTER]
            if group == 'IQ':
                counters.append(16 + half)
            # CRU_ESCR0/1, CRU_ESCR2/3, CRU_ESCR4/5 are numbered by pair
            if unit.startswith('CRU'):
                number = int(unit[3:] or 0) + half
                name = f'CRU_ESCR{number}'
            else:
                name = f'{unit}_ESCR{half}'
            table[name] = (msr + half, select, tuple(counters))
    return table


P4_ESCRS = _p4_escr_table()

# PowerPC selector field widths, PMC1 to PMC6
# (perf_counter-powerpc.rst, "The registers").
PPC_SEL_BITS = (7, 6, 5, 5, 5, 6)


def _ppc_6xx_alike(sel):
    """604, 604e, 750, 7400: selectors 1-4 count alike on every PMC."""
    return set(range(1, 7)) if 1 <= sel <= 4 else set()


def _ppc_7450_alike(sel):
    """The 745x's selector classes (arch/powerpc/perf_counter/models.c)."""
    if sel <= 1:
        return set(range(1, 7))
    if sel <= 7:
        return {1, 2, 3, 4}
    if sel <= 13:
        return {1, 2, 4}
    if sel <= 22:
        return {1, 2}
    return set()


def _isa207_pmcs(code):
    """isa207.c's pc_isa207_code_pmcs(): the PMCs a POWER8 raw code
    (selector 7..0, combine 11, unit 15..12, PMC 19..16) may count on;
    empty if the driver refuses it."""
    if code & ~(0xff | 1 << 11 | 0xf << 12 | 0xf << 16):
        return set()
    pmc, sel, direct = code >> 16 & 0xf, code & 0xff, code & 0xffff
    if pmc == 0:
        return {1, 2, 3, 4} if sel and direct == sel else set()
    if pmc == 5:
        return {5} if direct == 0xfa else set()
    if pmc == 6:
        return {6} if direct == 0xf4 else set()
    return {pmc} if pmc <= 4 and sel else set()


# kind: how event_config is built; counters: how many the driver has
# (numbered from 0 on x86, PMC1.. on PowerPC); code_max: EventCode's range.
PMUS = {
    'p6': {'kind': 'evntsel', 'counters': 2, 'code_max': 0xff,
           # Intel SDM vol. 3B, P6 events tied to one counter (p6.c)
           'constraints': {0x10: {0}, 0x11: {1}, 0x12: {1}, 0x13: {1},
                           0x14: {0}, 0xc1: {0}}},
    'k7': {'kind': 'evntsel', 'counters': 4, 'code_max': 0xff},
    'k8': {'kind': 'evntsel', 'counters': 4, 'code_max': 0xff},
    'k10': {'kind': 'evntsel', 'counters': 4, 'code_max': 0xfff},
    'p4': {'kind': 'p4', 'counters': 18, 'code_max': 0x3f},
    'ppc604': {'kind': 'ppc', 'counters': 2, 'code_max': 0x7f,
               'alike': _ppc_6xx_alike},
    'ppc604e': {'kind': 'ppc', 'counters': 4, 'code_max': 0x7f,
                'alike': _ppc_6xx_alike},
    'ppc750': {'kind': 'ppc', 'counters': 4, 'code_max': 0x7f,
               'alike': _ppc_6xx_alike},
    'ppc7400': {'kind': 'ppc', 'counters': 4, 'code_max': 0x7f,
                'alike': _ppc_6xx_alike},
    'ppc7450': {'kind': 'ppc', 'counters': 6, 'code_max': 0x7f,
                'alike': _ppc_7450_alike},
    'power8': {'kind': 'isa207', 'counters': 6, 'code_max': 0xfffff},
}

# The fields an event may have, per kind of driver.
COMMON_FIELDS = {'EventName', 'ArchStdEvent', 'EventCode', 'Counter',
                 'BriefDescription'}
KIND_FIELDS = {
    'evntsel': {'UMask', 'EdgeDetect', 'Invert', 'CounterMask'},
    'p4': {'UMask', 'ESCR'},
    'ppc': set(),
    'isa207': set(),
}
ALL_FIELDS = COMMON_FIELDS.union(*KIND_FIELDS.values())

NAME_RE = re.compile(r'[A-Za-z0-9][A-Za-z0-9_.]*')

# The tool's generic and software event names (tools/perf_counter/events.c,
# pc_names[]): the tool looks them up before a table's names, so a table
# event of one of these names could never be reached by -e.
GENERIC_NAMES = frozenset((
    'cycles', 'cpu-cycles', 'instructions', 'cache-references',
    'cache-misses', 'branches', 'branch-instructions', 'branch-misses',
    'bus-cycles', 'cpu-clock', 'task-clock', 'page-faults', 'faults',
    'minor-faults', 'major-faults', 'context-switches', 'cs',
    'cpu-migrations', 'migrations'))
# A name the tool reads as a raw code (events.c, parse_raw()).
RAW_RE = re.compile(r'r[0-9a-fA-F]+')
# A number in a string: hex with 0x, or decimal.
NUMBER_RE = re.compile(r'0x[0-9a-fA-F]+|[0-9]+')
# A description: printable, no control character (C0, DEL or C1).
CONTROL_RE = re.compile(r'[\x00-\x1f\x7f-\x9f]')


def name_problem(name):
    """Why @name cannot be an event name, or None."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        return f'{json.dumps(name)} is not letters, digits, _ and .'
    if name.lower() in GENERIC_NAMES:
        return f'"{name}" is the tool\'s generic event "{name.lower()}", ' \
            'which -e finds first'
    if RAW_RE.fullmatch(name.lower()):
        return f'"{name}" reads as the raw code "{name.lower()}" to -e'
    return None


# ---------------------------------------------------------------------------
# Reading JSON with line numbers.

class Event:
    """One event object of a JSON file, with where it and its fields are."""

    def __init__(self, path, text, start, end, fields):
        self.path, self.text = path, text
        self.start, self.end = start, end
        self.fields = fields

    @property
    def line(self):
        return self.text.count('\n', 0, self.start) + 1

    def field_line(self, key):
        m = re.compile(r'"' + re.escape(key) + r'"\s*:').search(
            self.text, self.start, self.end)
        return self.text.count('\n', 0, m.start()) + 1 if m else self.line

    def error(self, message, key=None):
        line = self.field_line(key) if key else self.line
        return InputError(self.path, line, message)


def _no_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f'duplicate field "{key}"')
        seen[key] = value
    return seen


def read_events(path):
    """The events of a JSON file: a non-empty array of objects."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys)
    ws = re.compile(r'\s*')

    def lineno(pos):
        return text.count('\n', 0, pos) + 1

    def decode(pos):
        try:
            return decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise InputError(path, e.lineno, f'malformed JSON: {e.msg}')
        except ValueError as e:
            raise InputError(path, lineno(pos), str(e))

    pos = ws.match(text, 0).end()
    if text[pos:pos + 1] != '[':
        # let json say what is wrong, or say it ourselves
        decode(pos)
        raise InputError(path, lineno(pos), 'not a JSON array of events')
    pos = ws.match(text, pos + 1).end()
    events = []
    if text[pos:pos + 1] == ']':
        raise InputError(path, lineno(pos), 'no events')
    while True:
        obj, end = decode(pos)
        if not isinstance(obj, dict):
            raise InputError(path, lineno(pos), 'an event is not an object')
        events.append(Event(path, text, pos, end, obj))
        pos = ws.match(text, end).end()
        sep = text[pos:pos + 1]
        if sep == ']':
            break
        if sep != ',':
            raise InputError(path, lineno(pos),
                             "malformed JSON: expecting ',' or ']'")
        pos = ws.match(text, pos + 1).end()
    pos = ws.match(text, pos + 1).end()
    if pos != len(text):
        raise InputError(path, lineno(pos), 'malformed JSON: extra data')
    return events


# ---------------------------------------------------------------------------
# Field values.

def number(event, key, lo, hi):
    """A field's integer value: a JSON number or a string, "0x.." or
    decimal, in lo..hi."""
    value = event.fields[key]
    if isinstance(value, bool):
        value = None
    elif isinstance(value, str):
        if NUMBER_RE.fullmatch(value):
            value = int(value, 16 if value.startswith('0x') else 10)
        else:
            value = None
    if not isinstance(value, int):
        raise event.error(f'{key}: {json.dumps(event.fields[key])} is not '
                          'a number', key)
    if not lo <= value <= hi:
        raise event.error(f'{key}: {value:#x} out of range '
                          f'{lo:#x}-{hi:#x}', key)
    return value


def counter_list(event, nr, first):
    """The Counter field: "any", or counter numbers, comma separated.
    Returns a sorted list, or None for any."""
    value = event.fields['Counter']
    if not isinstance(value, str):
        raise event.error('Counter: not a string', 'Counter')
    if value.strip().lower() == 'any':
        return None
    out = set()
    for part in value.split(','):
        part = part.strip()
        if not re.fullmatch(r'[0-9]+', part):
            raise event.error(f'Counter: "{value}" is not "any" or a list '
                              'of counter numbers', 'Counter')
        n = int(part)
        if not first <= n < first + nr:
            raise event.error(f'Counter: {n} out of range '
                              f'{first}-{first + nr - 1}', 'Counter')
        if n in out:
            raise event.error(f'Counter: {n} listed twice', 'Counter')
        out.add(n)
    return sorted(out)


def flag(event, key):
    value = event.fields[key]
    if value in (0, 1, '0', '1'):
        return int(value)
    raise event.error(f'{key}: must be 0 or 1', key)


# ---------------------------------------------------------------------------
# event_config per driver.

def encode_evntsel(event, pmu):
    """P6 and AMD K7/K8/10h: the EVNTSEL word a raw event may set."""
    f = event.fields
    code = number(event, 'EventCode', 0, pmu['code_max'])
    umask = number(event, 'UMask', 0, 0xff) if 'UMask' in f else 0
    config = (code & 0xff) | umask << 8 | (code >> 8) << 32
    if 'EdgeDetect' in f:
        config |= flag(event, 'EdgeDetect') << 18
    if 'Invert' in f:
        config |= flag(event, 'Invert') << 23
    if 'CounterMask' in f:
        config |= number(event, 'CounterMask', 0, 0xff) << 24
    counters = counter_list(event, pmu['counters'], 0)
    every = set(range(pmu['counters']))
    allowed = pmu.get('constraints', {}).get(code & 0xff)
    listed = every if counters is None else set(counters)
    # the list is what the driver enforces: the event's constraint, or
    # every counter ("any") for an unconstrained event
    if allowed is not None and listed != allowed:
        raise event.error(
            f'Counter: event {code:#x} counts only on counter ' +
            ','.join(map(str, sorted(allowed))), 'Counter')
    if allowed is None and listed != every:
        raise event.error(
            f'Counter: the driver puts event {code:#x} on any counter: '
            '"any" or ' + ','.join(map(str, sorted(every))), 'Counter')
    return config, 0, 0, counters


def encode_p4(event, pmu):
    """Pentium 4: the CCCR word (ESCR select) with the ESCR's MSR in bits
    47..32, and the ESCR word (event select, event mask) as extra."""
    f = event.fields
    if 'ESCR' not in f:
        raise event.error('missing field "ESCR"')
    code = number(event, 'EventCode', 0, pmu['code_max'])
    umask = number(event, 'UMask', 0, 0xffff) if 'UMask' in f else 0
    names = f['ESCR']
    if not isinstance(names, str) or not names.strip():
        raise event.error('ESCR: not a list of ESCR names', 'ESCR')
    escrs = []
    for name in names.split(','):
        name = name.strip().upper()
        if name not in P4_ESCRS:
            raise event.error(f'ESCR: unknown ESCR "{name}"', 'ESCR')
        escrs.append(P4_ESCRS[name])
    fed = sorted({c for _, _, cs in escrs for c in cs})
    counters = counter_list(event, pmu['counters'], 0)
    if counters != fed:
        raise event.error('Counter: the ESCRs named feed counters ' +
                          ','.join(map(str, fed)), 'Counter')
    msr, select, its_counters = escrs[0]
    config = msr << 32 | select << 13
    extra = code << 25 | umask << 9
    return config, extra, 1, list(its_counters)


def encode_ppc(event, pmu):
    """32-bit PowerPC: the selector in bits 6..0, the PMC in 10..8 (0: any
    PMC the driver takes the selector as counting alike on)."""
    nr = pmu['counters']
    sel = number(event, 'EventCode', 1, pmu['code_max'])
    counters = counter_list(event, nr, 1)
    every = set(range(1, nr + 1))
    alike = pmu['alike'](sel) & every
    listed = every if counters is None else set(counters)
    if listed == alike:
        pmc, where = 0, sorted(alike)
    elif counters is None:
        raise event.error(f'Counter: selector {sel:#x} does not count '
                          'alike on every PMC: name the PMCs', 'Counter')
    elif len(counters) == 1:
        # one PMC named: the event is encoded for it
        pmc = counters[0]
        where = [pmc]
    else:
        raise event.error(
            f'Counter: the driver takes selector {sel:#x} as alike on ' +
            (','.join(map(str, sorted(alike))) or 'no PMCs') +
            ': list exactly those, or one PMC', 'Counter')
    for p in where:
        if sel >> PPC_SEL_BITS[p - 1]:
            raise event.error(f'EventCode: selector {sel:#x} is wider '
                              f'than the {PPC_SEL_BITS[p - 1]}-bit field '
                              f'of PMC{p}', 'EventCode')
    return sel | pmc << 8, 0, 0, where


def encode_isa207(event, pmu):
    """POWER8: EventCode is the whole raw code, as the POWER8 event
    lists write it, its PMC in bits 19..16; Counter lists exactly the
    PMCs it lands on (PMC1-4 for a direct event given without a PMC)."""
    code = number(event, 'EventCode', 1, pmu['code_max'])
    pmcs = _isa207_pmcs(code)
    if not pmcs:
        raise event.error(f'EventCode: {code:#x} is not a raw event the '
                          'POWER8 driver takes (reserved bits, a unit or '
                          'combine without its PMC, selector 0, or PMC5 '
                          'and PMC6 other than 0x500fa and 0x600f4)',
                          'EventCode')
    counters = counter_list(event, pmu['counters'], 1)
    if counters is None or set(counters) != pmcs:
        raise event.error(f'Counter: {code:#x} counts on PMC ' +
                          ','.join(map(str, sorted(pmcs))) +
                          ': list exactly those', 'Counter')
    return code, 0, 0, sorted(pmcs)


ENCODERS = {'evntsel': encode_evntsel, 'p4': encode_p4, 'ppc': encode_ppc,
            'isa207': encode_isa207}


# ---------------------------------------------------------------------------
# The tree.

class Table:
    def __init__(self, cpuid, dir, pmu, name):
        self.cpuid, self.dir, self.pmu, self.name = cpuid, dir, pmu, name
        self.events, self.line = [], 0


def check_identity(path, line, regex):
    """An anchored POSIX ERE, which Python's re also compiles alike."""
    if not (regex.startswith('^') and regex.endswith('$')):
        raise InputError(path, line, f'identity "{regex}" must be anchored '
                         'with ^ and $ (it matches the whole string)')
    if re.search(r'\\[A-Za-z0-9]|\(\?|[*+?}]\?', regex):
        raise InputError(path, line, f'identity "{regex}" uses syntax that '
                         'is not POSIX extended regex')
    try:
        re.compile(regex)
    except re.error as e:
        raise InputError(path, line,
                         f'identity "{regex}" does not compile: {e}')


def read_mapfile(arch_dir):
    """The mapfile's rows: identity, directory, driver, CPU name. Lines
    starting with # and empty lines are skipped."""
    path = os.path.join(arch_dir, 'mapfile.csv')
    tables = []
    try:
        f = open(path, encoding='utf-8', newline='')
    except OSError as e:
        raise InputError(path, 0, f'cannot read: {e.strerror}')
    with f:
        for line_no, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            row = next(csv.reader([line]))
            if len(row) != 4:
                raise InputError(path, line_no, f'{len(row)} columns, '
                                 'expected 4: identity,dir,pmu,name')
            cpuid, dir, pmu, name = (x.strip() for x in row)
            check_identity(path, line_no, cpuid)
            if pmu not in PMUS:
                raise InputError(path, line_no, f'unknown pmu "{pmu}" '
                                 f'(one of {", ".join(sorted(PMUS))})')
            full = os.path.join(arch_dir, dir)
            if not dir or os.path.isabs(dir) or '..' in dir.split('/') or \
                    not os.path.isdir(full) or '/' not in dir:
                raise InputError(path, line_no, f'directory "{dir}" does '
                                 'not exist (ARCH/CPU under the mapfile\'s '
                                 'directory)')
            if not name:
                raise InputError(path, line_no, 'empty CPU name')
            for t in tables:
                if t.dir == dir and t.pmu != pmu:
                    raise InputError(path, line_no, f'directory "{dir}" is '
                                     f'for pmu "{t.pmu}" on an earlier line')
                # the tool matches without case; the first row wins
                if t.cpuid.lower() == cpuid.lower():
                    raise InputError(path, line_no, f'identity "{cpuid}" '
                                     f'is on line {t.line} already: this '
                                     'row could never match')
            tables.append(Table(cpuid, dir, pmu, name))
            tables[-1].line = line_no
    if not tables:
        raise InputError(path, 1, 'no CPU in the mapfile')
    return tables


def json_files(directory):
    return sorted(os.path.join(directory, n) for n in os.listdir(directory)
                  if n.endswith('.json') and
                  os.path.isfile(os.path.join(directory, n)))


def read_std_events(arch_dir, arch):
    """The standard events of an architecture, by lower-case name."""
    std = {}
    for path in json_files(os.path.join(arch_dir, arch)):
        for ev in read_events(path):
            unknown = set(ev.fields) - ALL_FIELDS
            if unknown:
                raise ev.error(f'unknown field "{sorted(unknown)[0]}"',
                               sorted(unknown)[0])
            if 'ArchStdEvent' in ev.fields:
                raise ev.error('a standard event cannot name another',
                               'ArchStdEvent')
            name = ev.fields.get('EventName')
            if not isinstance(name, str) or not NAME_RE.fullmatch(name):
                raise ev.error('missing or bad field "EventName"')
            why = name_problem(name)
            if why:
                raise ev.error(f'EventName: {why}', 'EventName')
            if name.lower() in std:
                raise ev.error(f'duplicate standard event "{name.lower()}"',
                               'EventName')
            std[name.lower()] = ev
    return std


def resolve(ev, std):
    """An event's fields, a standard event's under its own."""
    fields = dict(ev.fields)
    if 'ArchStdEvent' in fields:
        ref = fields.pop('ArchStdEvent')
        if 'EventName' in fields:
            raise ev.error('EventName cannot be given with ArchStdEvent',
                           'EventName')
        if not isinstance(ref, str) or ref.lower() not in std:
            raise ev.error(f'ArchStdEvent "{ref}" names no standard event',
                           'ArchStdEvent')
        base = dict(std[ref.lower()].fields)
        base.update(fields)
        fields = base
    return fields


def build_event(ev, std, pmu, topic):
    fields = resolve(ev, std)
    kind = PMUS[pmu]['kind']
    unknown = set(fields) - COMMON_FIELDS - KIND_FIELDS[kind]
    if unknown:
        key = sorted(unknown)[0]
        raise ev.error(f'unknown field "{key}" for pmu {pmu}', key)
    for key in ('EventName', 'EventCode', 'Counter', 'BriefDescription'):
        if key not in fields:
            raise ev.error(f'missing field "{key}"')
    name = fields['EventName']
    why = name_problem(name)
    if why:
        raise ev.error(f'EventName: {why}', 'EventName')
    desc = fields['BriefDescription']
    if not isinstance(desc, str) or not desc.strip():
        raise ev.error('BriefDescription: empty or not a string',
                       'BriefDescription')
    if CONTROL_RE.search(desc):
        raise ev.error('BriefDescription: holds a newline or another '
                       'control character', 'BriefDescription')
    resolved = Event(ev.path, ev.text, ev.start, ev.end, fields)
    config, extra, nr_extra, counters = \
        ENCODERS[kind](resolved, PMUS[pmu])
    every = PMUS[pmu]['counters']
    first = 1 if kind in ('ppc', 'isa207') else 0
    text = '' if counters is None or \
        counters == list(range(first, first + every)) and kind != 'p4' \
        else ','.join(map(str, counters))
    return {'name': name.lower(), 'topic': topic, 'desc': desc,
            'config': config, 'extra': extra, 'nr_extra': nr_extra,
            'counters': text}


def read_tree(arch_dir):
    tables = read_mapfile(arch_dir)
    std_of, events_of = {}, {}
    for t in tables:
        arch = t.dir.split('/')[0]
        if arch not in std_of:
            std_of[arch] = read_std_events(arch_dir, arch)
        if t.dir in events_of:
            t.events = events_of[t.dir]
            continue
        seen = {}
        directory = os.path.join(arch_dir, t.dir)
        files = json_files(directory)
        if not files:
            raise InputError(directory, 0, 'no JSON files')
        for path in files:
            topic = os.path.basename(path)[:-len('.json')].lower()
            for ev in read_events(path):
                e = build_event(ev, std_of[arch], t.pmu, topic)
                if e['name'] in seen:
                    raise ev.error(f'duplicate event "{e["name"]}" (first at '
                                   f'{seen[e["name"]]})')
                seen[e['name']] = f'{path}:{ev.line}'
                t.events.append(e)
        t.events.sort(key=lambda e: (e['topic'], e['name']))
        events_of[t.dir] = t.events
    return tables


# ---------------------------------------------------------------------------
# C output.

def c_string(s):
    """A C string literal of s (UTF-8), every special character escaped."""
    out = []
    for b in s.encode('utf-8'):
        c = chr(b)
        if c in '"\\?':
            out.append('\\' + c)
        elif c == '\n':
            out.append('\\n')
        elif c == '\t':
            out.append('\\t')
        elif 0x20 <= b < 0x7f:
            out.append(c)
        else:
            out.append(f'\\{b:03o}')
    return '"' + ''.join(out) + '"'


def c_ident(dir):
    return 'pc_events_' + re.sub(r'[^A-Za-z0-9]', '_', dir).lower()


def generate(tables):
    lines = ['/* SPDX-License-Identifier: GPL-2.0 */',
             '/* Generated by jevents.py from the JSON tables under arch/:'
             ' do not edit. */',
             '#include "pmu-events.h"', '']
    idents, done = {}, set()
    for t in tables:
        if t.dir in idents:
            continue
        ident = c_ident(t.dir)
        while ident in done:
            ident += '_'
        idents[t.dir] = ident
        done.add(ident)
        lines.append(f'static const struct pc_pmu_event {ident}[] = {{')
        for e in t.events:
            lines += ['\t{',
                      f'\t\t.name = {c_string(e["name"])},',
                      f'\t\t.topic = {c_string(e["topic"])},',
                      f'\t\t.desc = {c_string(e["desc"])},',
                      f'\t\t.config = {e["config"]:#x}ULL,',
                      f'\t\t.extra = {e["extra"]:#x}ULL,',
                      f'\t\t.nr_extra = {e["nr_extra"]},',
                      f'\t\t.counters = {c_string(e["counters"])},',
                      '\t},']
        lines += ['};', '']
    lines.append('const struct pc_pmu_table pc_pmu_tables[] = {')
    for t in tables:
        lines += ['\t{',
                  f'\t\t.cpuid = {c_string(t.cpuid)},',
                  f'\t\t.dir = {c_string(t.dir)},',
                  f'\t\t.cpu_name = {c_string(t.name)},',
                  f'\t\t.events = {idents[t.dir]},',
                  f'\t\t.nr_events = {len(t.events)},',
                  '\t},']
    lines += ['};', '',
              'const unsigned int pc_pmu_nr_tables =',
              '\tsizeof(pc_pmu_tables) / sizeof(pc_pmu_tables[0]);', '']
    return '\n'.join(lines)


def main(argv):
    if len(argv) != 3:
        print(f'usage: {argv[0]} ARCH_DIR OUTPUT.c', file=sys.stderr)
        return 2
    arch_dir, output = argv[1], argv[2]
    try:
        text = generate(read_tree(arch_dir))
    except InputError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f'{e.filename}:0: {e.strerror}', file=sys.stderr)
        return 1
    tmp = output + '.tmp'
    try:
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, output)
    except OSError as e:
        print(f'{output}:0: cannot write: {e.strerror}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
