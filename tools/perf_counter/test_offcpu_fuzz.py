#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A bounded fuzz of hostile record --off-cpu files through report --wall
and perf-counter diff, built with AddressSanitizer and UBSan.

On the host (no kernel), as test_export.py's fuzz does for report's
formats. Seeds written by hand: test_offcpu.py's wall-clock file
(samples with chains, switch-outs with chains and stack words, a DSO
item of frameless and frame-pointer functions) with HOST's machine
x86_64, in either byte order; and an i686 file whose switch-outs have
the chains a frameless i386 C library leaves, [PERF_CONTEXT_USER, ip],
so that report scans their stack words as 4-byte return addresses:
words into frameless functions, zeros, huge values, a function's first
byte and the byte after it, the same function twice in a row, more
return addresses than are taken (either byte order).

Their mutants: truncations, flipped bytes, counts and offsets made huge
or off by one, and what an off-CPU file alone has: stack_words past the
item, chain nr huge or off by one, switch-ins without switch-outs,
times going backwards, one tid in two pids, thousands of threads
(their tids colliding in a hash), a switch item's event out of range,
chain and stack words of every kind, HOST's machine, the DSO item's
frame-pointer flags and sizes, names of control characters. Each
mutant goes through report --wall (its table, folded, svg, pprof),
report -D, diff SEED MUTANT, diff -g MUTANT SEED and diff --format svg:
each ends with 0 or with 1 and a message, never a sanitizer's report,
a signal or a hang; what it writes on 0 parses (the tables' rows, text
that is printable ASCII, XML, gzip'd protobuf). A failure's mutant is
kept under REPRO_DIR with the command that shows it.

And plain checks, no fuzz: the sanitizer build's report --wall table
of the first seed is the normal build's; the i686 seed's stack words
give the callers offcpu.c's scan is to find; every seed passes every
run; a command, file and event name of escape sequences reach the
terminal escaped (stdout and stderr); and three files a fuzz found
trouble with, made on purpose: a recording that ended while its threads
ran, an exec between a sample and its thread's switch-out, a first
sample whose chain has no words.

Run: python3 test_offcpu_fuzz.py [-v]     (unittest's own output)
     python3 test_offcpu_fuzz.py --tap    (KTAP, for harness/host-tests.sh)
"""
import concurrent.futures
import gzip
import hashlib
import io
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_callchain as tc  # noqa: E402  (the tool's build, KTAP)
import test_export as te  # noqa: E402  (the SVG and protobuf readers)
import test_offcpu as to  # noqa: E402  (the off-CPU record files)

FUZZ_SECONDS = 18           # the mutants' bound: ~30 s for the whole test
RUN_TIMEOUT = 10            # s, one run of the tool
RNG_SEED = 0x0ffc9          # the mutants are the same from run to run
WORKERS = 2                 # runs at once (a 2-core machine)
REPRO_DIR = '/tmp/pc-offcpu-fuzz-repro'     # kept: failing mutants
SAN_ENV = dict(os.environ, ASAN_OPTIONS='detect_leaks=0:exitcode=99',
               UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1:'
               'exitcode=98')

PC_ITEM_EVENT, PC_ITEM_SAMPLE = to.PC_ITEM_EVENT, to.PC_ITEM_SAMPLE
PC_ITEM_KMMAP, PC_ITEM_COMM = to.PC_ITEM_KMMAP, to.PC_ITEM_COMM
PC_ITEM_HOST, PC_ITEM_DSO = to.PC_ITEM_HOST, to.PC_ITEM_DSO
PC_ITEM_KSYMS, PC_ITEM_SWITCH = to.PC_ITEM_KSYMS, to.PC_ITEM_SWITCH
U64 = (1 << 64) - 1
MS = to.MS
PID = to.PID

# offsets in a SWITCH item's body (struct pc_item_switch, then the chain)
SW_PID, SW_TID, SW_TIME, SW_EVENT, SW_CPU = 0, 4, 8, 16, 20
SW_OUT, SW_FLAGS, SW_STACK, SW_NR, SW_WORDS = 24, 28, 32, 40, 48
# and in a version 4 SAMPLE's, a COMM's, a KMMAP's, a HOST's
SA_PID, SA_TID, SA_TIME, SA_PERIOD, SA_NR = 8, 12, 16, 32, 40
COMM_NAME, KMMAP_PATH, HOST_MACHINE, EVENT_NAME = 24, 64, 104, 40

state = {}


# -- the seeds --------------------------------------------------------------

def items(data):
    """The byte order of a record file and [(offset, type, size)] of its
    items, up to the first whose size does not hold."""
    if len(data) < 16:
        return '<', []
    e = '<' if struct.unpack_from('<I', data, 12)[0] == 0x01020304 else '>'
    out, off = [], 16
    while off + 8 <= len(data):
        kind, size = struct.unpack_from(e + 'II', data, off)
        if size < 8 or size % 8 or off + size > len(data):
            break
        out.append((off, kind, size))
        off += size
    return e, out


def set_machine(data, machine):
    """@data with HOST's uname -m set to @machine (24 bytes at most)."""
    b = bytearray(data)
    for off, kind, size in items(data)[1]:
        if kind == PC_ITEM_HOST and size >= 8 + 128:
            at = off + 8 + HOST_MACHINE
            b[at:at + 24] = machine[:24].ljust(24, b'\0')
    return bytes(b)


def evil_names(data, comm=b'\x1b[7mapp\x1b[0m', base=b'\x1b[H',
               event=b'\x1b]2;x\x07', config=None):
    """@data with every COMM's command @comm, the mapping's file's name
    (its path's last part, 3 bytes) @base and the EVENT's name @event
    (8 bytes at most): what a terminal takes for its control sequences;
    the EVENT's config @config if given."""
    e, its = items(data)
    b = bytearray(data)
    for off, kind, size in its:
        if kind == PC_ITEM_COMM:
            at = off + 8 + COMM_NAME
            b[at:at + 16] = comm[:15].ljust(16, b'\0')
        elif kind == PC_ITEM_KMMAP:
            at = off + 8 + KMMAP_PATH + len(to.APP) - 3
            b[at:at + 3] = base[:3]
        elif kind == PC_ITEM_EVENT:
            at = off + 8 + EVENT_NAME
            b[at:at + 9] = event[:8].ljust(9, b'\0')
            if config is not None:
                struct.pack_into(e + 'Q', b, off + 8, config)
    return bytes(b)


def comm_item(e, tid, time, name, exec_=True):
    """A COMM item of @tid of PID at @time; an exec's forgets the
    mappings before."""
    return tc.item(e, PC_ITEM_COMM, struct.pack(
        e + 'IIQII', PID, tid, time, int(exec_), 0) + name.ljust(16, b'\0'))


def kmmap_item(e, tid, time, start, path):
    return tc.item(e, PC_ITEM_KMMAP, struct.pack(
        e + 'IIQQQQQQII', PID, tid, time, start, 0x10000, 0, 0, 0, 5, 0) +
        path + b'\0')


def without_last_outs(data):
    """@data without each thread's last switch-out: a recording that
    ended while its threads ran."""
    e, its = items(data)
    last = {struct.unpack_from(e + 'I', data, o + 8 + SW_TID)[0]: o
            for o, k, n in its if k == PC_ITEM_SWITCH and
            struct.unpack_from(e + 'I', data, o + 8 + SW_OUT)[0]}
    return data[:16] + b''.join(data[o:o + n] for o, _, n in its
                                if o not in last.values())


def wall_seed(path, e):
    """test_offcpu's wall-clock file, recorded on an x86_64."""
    with open(to.wall_file(path, e), 'rb') as f:
        data = set_machine(f.read(), b'x86_64')
    with open(path, 'wb') as f:
        f.write(data)
    return data


# the i686 seed's program: between its frameless system call wrapper and
# the first function with a frame pointer, a frameless helper and one
# whose prologue is not known (fp -1)
FUNCS32 = {
    'main': (0x1000, 0x100, 1),
    'worker': (0x1100, 0x100, 1),
    'helper_nofp': (0x1200, 0x100, 0),
    'unknown_fp': (0x1300, 0x100, -1),
    'wrapper_leaf': (0x1400, 0x80, 0),
}


def at32(name, off=0x10):
    return to.BASE + FUNCS32[name][0] + off


def words32(values, e):
    """4-byte stack values as the 8-byte words the kernel copied: in
    memory order, read as the file's words."""
    values = list(values) + [0] * (len(values) % 2)
    raw = struct.pack(e + f'{len(values)}I', *values)
    return list(struct.unpack(e + f'{len(values) // 2}Q', raw))


class I686Writer(to.Writer):
    """test_offcpu's writer, HOST saying i686, FUNCS32's symbols."""

    def symbols(self):
        e = self.e
        self.item(PC_ITEM_HOST, b'\0' * 40 + b'6.1.0'.ljust(64, b'\0') +
                  b'i686'.ljust(24, b'\0'))
        names = to.APP.encode() + b'\0'
        syms = b''
        for name, (addr, size, fp) in sorted(FUNCS32.items(),
                                             key=lambda x: x[1][0]):
            syms += struct.pack(e + 'QQIi', addr, size, len(names), fp)
            names += name.encode() + b'\0'
        head = struct.pack(e + 'QQIIII', 0, 0, 0, len(FUNCS32), len(names),
                           0)
        self.item(PC_ITEM_DSO, head + b'\0' * 32 + syms + names)


# the stacks the i686 seed's stack words give (folded, ns)
I686_FOLDED = {
    # helper_nofp, [0, huge], helper_nofp again (not taken), main's
    # first byte (no return address), unknown_fp's second, a word in no
    # mapping, worker (a frame pointer: the end)
    'app;worker;unknown_fp;helper_nofp;wrapper_leaf;[blocked]': 10 * MS,
    # more return addresses than are taken before the one into a
    # function with a frame pointer: the chain as the kernel gave it
    'app;wrapper_leaf;[blocked]': 10 * MS,
    # two return addresses into wrapper_leaf in a row: the first taken
    'app-io;worker;wrapper_leaf;wrapper_leaf;[preempted]': 10 * MS,
}


def i686_seed(path, e):
    """Two threads of an i386 program whose switch-outs' chains end at
    the system call wrapper: [PERF_CONTEXT_USER, ip]."""
    w = I686Writer(e)
    w.comm(PID, 'app')
    w.comm(PID + 1, 'app-io', flags=0)
    w.mmap()
    user = to.CONTEXT_USER
    on = [user, at32('worker'), at32('main', 0x30)]
    leaf = [user, at32('wrapper_leaf', 8)]
    scan = words32([at32('helper_nofp', 0x20), 0, 0xffffffff,
                    at32('helper_nofp', 0x31), at32('main', 0),
                    at32('unknown_fp', 1), 0x7ffc1234, at32('worker', 0x44),
                    at32('main', 0x30)], e)
    full = words32([at32('helper_nofp', 0x20), at32('unknown_fp', 0x20)] * 5
                   + [at32('worker', 0x44), 0xffffffff], e)
    twice = words32([at32('wrapper_leaf', 0x40), at32('wrapper_leaf', 0x50),
                     0, at32('worker', 0x20)], e)
    ev = []     # (ms, order, what, args)
    a, b = PID, PID + 1
    ev.append((0, 2, 'in', (a,)))
    ev += [(t, 0, 'sample', (a, on)) for t in range(1, 5)]
    ev += [(4, 1, 'out', (a, leaf, scan, False)), (14, 2, 'in', (a,))]
    ev += [(t, 0, 'sample', (a, on)) for t in range(15, 17)]
    ev += [(16, 1, 'out', (a, leaf, full, False)), (26, 2, 'in', (a,))]
    ev += [(t, 0, 'sample', (a, on)) for t in range(27, 29)]
    ev.append((28, 1, 'out', (a, leaf, [], False)))     # never back
    ev += [(1, 2, 'in', (b,)), (2, 0, 'sample', (b, on))]
    ev += [(2, 1, 'out', (b, leaf, twice, True)), (12, 2, 'in', (b,))]
    for ms, _, what, args in sorted(ev, key=lambda x: x[:2]):
        t = to.T0 + ms * MS
        if what == 'sample':
            w.sample(args[0], t, args[1])
        elif what == 'in':
            w.switch_in(args[0], t)
        else:
            w.switch_out(args[0], t, args[1], args[2], args[3])
    w.write(path)
    with open(path, 'rb') as f:
        return f.read()


# -- the mutations ----------------------------------------------------------

EVIL = [b'\x1b[31m;<&"\'>]]>', b'\x01\x7f\xff\xfe\xc0\x80;', b'a;b\nc\td',
        b'\xe2\x80\xae<script>', b'\\\\\x1b]0;pwn\x07']
MARKERS = [to.CONTEXT_USER, to.CONTEXT_KERNEL, (1 << 64) - 2048,
           to.CONTEXT_MAX, to.CONTEXT_MAX - 1, U64]


class Mutator:
    """Hostile files from the seeds: each mutant 1 to 3 mutations of a
    seed (one of them maybe another seed's items spliced in)."""

    def __init__(self, rng, seeds):
        self.rng = rng
        self.seeds = seeds
        self.ops = [
            (self.truncate, 3), (self.flip, 3), (self.u32, 3),
            (self.u64, 2), (self.stack_words, 4), (self.chain_nr, 4),
            (self.ins_only, 2), (self.times, 3), (self.two_pids, 2),
            (self.threads, 1), (self.event, 2), (self.chain_words, 3),
            (self.stack_values, 4), (self.machine, 2), (self.dso, 3),
            (self.names, 2), (self.reorder, 2), (self.splice, 1),
            (self.period, 1), (self.event_item, 1),
            (self.second_event, 2), (self.sideband, 2),
        ]

    def mutant(self):
        """(seed index, mutant bytes, [mutation names])"""
        rng = self.rng
        i = rng.randrange(len(self.seeds))
        data, done = self.seeds[i], []
        for _ in range(rng.choice((1, 1, 2, 3))):
            op = rng.choices([o for o, _ in self.ops],
                             [w for _, w in self.ops])[0]
            data = op(data)
            done.append(op.__name__)
        return i, data, done

    # helpers
    def pick(self, data, kinds, pred=None):
        e, its = items(data)
        its = [it for it in its if it[1] in kinds and
               (pred is None or pred(data, e, it))]
        return e, its

    def field(self, b, e, at, fmt, value):
        if at + struct.calcsize(fmt) <= len(b):
            struct.pack_into(e + fmt, b, at, value & (
                (1 << 8 * struct.calcsize(fmt)) - 1))

    def interesting(self, old, room=None):
        c = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x10000,
             (old - 1) & 0xffffffff, old + 1, old + 8]
        if room is not None:
            c += [room - 1, room, room + 1, room + 2, room * 2]
        return self.rng.choice(c) & 0xffffffff

    @staticmethod
    def is_out(data, e, it):
        off, _, size = it
        return size >= 8 + SW_WORDS and \
            struct.unpack_from(e + 'I', data, off + 8 + SW_OUT)[0]

    # generic, as test_export's
    def truncate(self, s):
        rng = self.rng
        if len(s) < 2:
            return s
        its = items(s)[1]
        if its and rng.random() < 0.5:
            off, _, size = rng.choice(its)
            return s[:max(0, off + rng.choice((0, 1, 4, 8, 16,
                                               size - 8, size - 1)))]
        return s[:rng.randrange(len(s))]

    def flip(self, s):
        if len(s) <= 16:
            return s
        b = bytearray(s)
        for _ in range(self.rng.randrange(1, 9)):
            b[self.rng.randrange(16, len(b))] = self.rng.randrange(256)
        return bytes(b)

    def u32(self, s):
        if len(s) < 24:
            return s
        e = items(s)[0]
        if self.rng.random() < 0.25:
            e = '>' if e == '<' else '<'
        b = bytearray(s)
        at = self.rng.randrange(16, len(b) - 4) & ~3
        old = struct.unpack_from(e + 'I', b, at)[0]
        struct.pack_into(e + 'I', b, at, self.interesting(old))
        return bytes(b)

    def u64(self, s):
        if len(s) < 32:
            return s
        e = items(s)[0]
        b = bytearray(s)
        at = self.rng.randrange(16, len(b) - 8) & ~7
        old = struct.unpack_from(e + 'Q', b, at)[0]
        struct.pack_into(e + 'Q', b, at, self.rng.choice(
            (0, U64, 1 << 63, (old - 1) & U64, (old + 1) & U64,
             to.CONTEXT_USER, to.CONTEXT_KERNEL, old << 32 & U64)))
        return bytes(b)

    # the switch items'
    def stack_words(self, s):
        """stack_words past the item, or at the limits."""
        e, outs = self.pick(s, (PC_ITEM_SWITCH,), self.is_out)
        b = bytearray(s)
        n = min(len(outs), self.rng.randrange(1, 4))
        for off, _, size in self.rng.sample(outs, n):
            body = off + 8
            nr = struct.unpack_from(e + 'I', b, body + SW_NR)[0]
            room = (size - 8 - SW_WORDS) // 8 - nr
            self.field(b, e, body + SW_STACK, 'I', self.rng.choice(
                (room + 1, room + 2, 64, 65, 0xffffffff, 0x80000000,
                 0x20000000, max(room - 1, 0), room)))
        return bytes(b)

    def chain_nr(self, s):
        """A switch's chain nr huge, off by one, or taking the stack."""
        e, sw = self.pick(s, (PC_ITEM_SWITCH,),
                          lambda d, e, it: it[2] >= 8 + SW_WORDS)
        b = bytearray(s)
        for off, _, size in self.rng.sample(sw, min(len(sw), 2)):
            body = off + 8
            nr = struct.unpack_from(e + 'I', b, body + SW_NR)[0]
            stack = struct.unpack_from(e + 'I', b, body + SW_STACK)[0]
            room = (size - 8 - SW_WORDS) // 8
            self.field(b, e, body + SW_NR, 'I', self.rng.choice(
                (0xffffffff, 0x1fffffff, 0x20000000, room, room + 1,
                 nr + stack, nr - 1, nr + 1, 0, 1)))
            if self.rng.random() < 0.3:
                # a switch-out cut after its fixed part: no chain
                self.field(b, e, off + 4, 'I', 8 + SW_NR)
                b[off + 8 + SW_NR:off + size] = b''
                break
        return bytes(b)

    def ins_only(self, s):
        """Switch-ins without switch-outs: outs made ins (their chains
        kept), or taken out of the file."""
        e, outs = self.pick(s, (PC_ITEM_SWITCH,), self.is_out)
        if self.rng.random() < 0.5:
            b = bytearray(s)
            for off, _, _ in outs:
                if self.rng.random() < 0.7:
                    self.field(b, e, off + 8 + SW_OUT, 'I', 0)
            return bytes(b)
        drop = {off for off, _, _ in outs if self.rng.random() < 0.7}
        return self.rebuild(s, lambda it: it[0] not in drop)

    def times(self, s):
        """Times going backwards, wrapping, equal, shuffled."""
        e, its = self.pick(s, (PC_ITEM_SWITCH, PC_ITEM_SAMPLE))
        if not its:
            return s
        b = bytearray(s)
        at = [off + 8 + (SW_TIME if kind == PC_ITEM_SWITCH else SA_TIME)
              for off, kind, _ in its]
        old = [struct.unpack_from(e + 'Q', b, a)[0] for a in at]
        how = self.rng.randrange(4)
        if how == 0:        # shuffled
            self.rng.shuffle(old)
            new = old
        elif how == 1:      # backwards from some item on
            k = self.rng.randrange(len(old))
            new = old[:k] + [t - self.rng.choice((1, MS, 50 * MS, to.T0))
                             for t in old[k:]]
        elif how == 2:      # the extremes
            new = [self.rng.choice((t, 0, 1, U64, U64 - 1, 1 << 63))
                   for t in old]
        else:               # all at once
            new = [old[0]] * len(old)
        for a, t in zip(at, new):
            struct.pack_into(e + 'Q', b, a, t & U64)
        return bytes(b)

    def two_pids(self, s):
        """A tid's items split between two pids."""
        e, its = self.pick(s, (PC_ITEM_SWITCH, PC_ITEM_SAMPLE,
                               PC_ITEM_COMM))
        b = bytearray(s)
        other = self.rng.choice((PID + 7, 0, 1, 0xffffffff))
        for off, kind, _ in its:
            p = off + 8 + (SA_PID if kind == PC_ITEM_SAMPLE else SW_PID)
            if self.rng.random() < 0.5:
                self.field(b, e, p, 'I', other)
        return bytes(b)

    def threads(self, s):
        """Thousands of threads: a switch-out and -in of each and maybe
        a sample, their tids sequential, colliding in a power-of-two
        hash, or any."""
        e, outs = self.pick(s, (PC_ITEM_SWITCH,), self.is_out)
        sa = self.pick(s, (PC_ITEM_SAMPLE,))[1]
        if not outs:
            return s
        off, _, size = self.rng.choice(outs)
        out = bytearray(s[off:off + size])
        inn = bytearray(out[:8 + SW_NR])
        struct.pack_into(e + 'I', inn, 4, len(inn))
        struct.pack_into(e + 'I', inn, 8 + SW_OUT, 0)
        struct.pack_into(e + 'I', inn, 8 + SW_STACK, 0)
        kinds = [(out, SW_PID, SW_TIME, 0), (inn, SW_PID, SW_TIME, 1000)]
        if sa and self.rng.random() < 0.7:
            off, _, size = self.rng.choice(sa)
            kinds.append((bytearray(s[off:off + size]), SA_PID, SA_TIME,
                          -1000))
        n = self.rng.randrange(1000, 6000)
        how = self.rng.randrange(3)
        t0 = struct.unpack_from(e + 'Q', out, 8 + SW_TIME)[0]
        extra = []
        for k in range(n):
            tid = (PID + k if how == 0 else (k << 16) | 5 if how == 1
                   else self.rng.getrandbits(32))
            pid = PID if self.rng.random() < 0.8 else tid
            for item, at_pid, at_time, dt in kinds:
                struct.pack_into(e + 'II', item, 8 + at_pid, pid, tid)
                struct.pack_into(e + 'Q', item, 8 + at_time,
                                 (t0 + dt + k) & U64)
                extra.append(bytes(item))
        return s + b''.join(extra)

    def event(self, s):
        """A switch item's event out of range (the first one's too)."""
        e, sw = self.pick(s, (PC_ITEM_SWITCH,))
        if not sw:
            return s
        b = bytearray(s)
        off = sw[0][0] if self.rng.random() < 0.5 else \
            self.rng.choice(sw)[0]
        self.field(b, e, off + 8 + SW_EVENT, 'I', self.rng.choice(
            (1, 2, 63, 64, 65, 0x7fffffff, 0xffffffff)))
        if self.rng.random() < 0.3:
            self.field(b, e, off + 8 + SW_CPU, 'I', self.rng.choice(
                (0x7fffffff, 0x80000000, 4096)))
        return bytes(b)

    def word(self, e):
        """A chain or stack word of any kind."""
        rng = self.rng
        fn = rng.choice(list(FUNCS32.values()) + list(to.FUNCS.values()))
        return rng.choice((
            0, 1, 2, U64, U64 - 1, 1 << 63, 0xffffffff, 0x100000000,
            rng.choice(MARKERS), to.KSTART + 0x1010, to.KSTART - 1,
            to.BASE - 1, to.BASE, to.BASE + 0x10000, to.BASE + fn[0],
            to.BASE + fn[0] + 1, to.BASE + fn[0] + fn[1],
            to.BASE + fn[0] + fn[1] - 1, to.BASE + fn[0] + 0x10,
            # two 4-byte return addresses in one word
            (to.BASE + fn[0] + 8) << 32 | (to.BASE + fn[0] + 9),
            rng.getrandbits(64)))

    def chain_words(self, s):
        e, outs = self.pick(s, (PC_ITEM_SWITCH, PC_ITEM_SAMPLE))
        b = bytearray(s)
        for off, kind, size in self.rng.sample(outs, min(len(outs), 3)):
            first = off + 8 + (SW_WORDS if kind == PC_ITEM_SWITCH else
                               SA_NR + 8)
            if first >= off + size:
                continue
            n = (off + size - first) // 8
            for _ in range(self.rng.randrange(1, 4)):
                struct.pack_into(e + 'Q', b, first + 8 * self.rng.randrange(
                    n), self.word(e))
        return bytes(b)

    def stack_values(self, s):
        """A switch-out's stack words replaced, as 8 or 4-byte values;
        sometimes a longer stack, up to and past PC_STACK_WORDS_MAX."""
        e, outs = self.pick(s, (PC_ITEM_SWITCH,), self.is_out)
        if not outs:
            return s
        off, _, size = self.rng.choice(outs)
        item = bytearray(s[off:off + size])
        nr = struct.unpack_from(e + 'I', item, 8 + SW_NR)[0]
        keep = 8 + SW_WORDS + 8 * min(nr, (size - 8 - SW_WORDS) // 8)
        n = self.rng.choice((0, 1, 2, 5, 8, 9, 63, 64, 65, 100))
        if self.rng.random() < 0.5:
            words = [self.word(e) for _ in range(n)]
        else:
            fn = [to.BASE + a + self.rng.choice((0, 1, 8, 0x20))
                  for a, _, _ in list(FUNCS32.values())]
            words = words32([self.rng.choice(fn + [0, 0xffffffff, 1])
                             for _ in range(2 * n)], e)
        item[keep:] = struct.pack(e + f'{len(words)}Q', *words)
        struct.pack_into(e + 'II', item, 0, PC_ITEM_SWITCH, len(item))
        struct.pack_into(e + 'I', item, 8 + SW_STACK,
                         len(words) if self.rng.random() < 0.8 else
                         self.rng.choice((len(words) + 1, 64, 65)))
        return s[:off] + bytes(item) + s[off + size:]

    # the portable items'
    def machine(self, s):
        return set_machine(s, self.rng.choice(
            (b'i686', b'i386', b'i586', b'x86_64', b'i', b'i8', b'i86',
             b'', b'X' * 24, b'i' + b'\xff' * 23, b'i\x0086')))

    def dso(self, s):
        """The DSO item's frame-pointer flags, sizes, counts, offsets."""
        e, ds = self.pick(s, (PC_ITEM_DSO,))
        if not ds:
            return s
        off, _, size = self.rng.choice(ds)
        b = bytearray(s)
        body = off + 8
        nl, ns, strs = struct.unpack_from(e + 'III', b, body + 16)
        syms = body + 64 + 24 * nl
        for _ in range(self.rng.randrange(1, 5)):
            k = self.rng.randrange(max(ns, 1))
            at = syms + 24 * k
            what = self.rng.randrange(6)
            if what == 0:
                self.field(b, e, at + 20, 'I', self.rng.choice(
                    (0, 1, -1, 2, -(1 << 31), (1 << 31) - 1)))
            elif what == 1:
                self.field(b, e, at + 8, 'Q', self.rng.choice(
                    (0, 1, U64, 1 << 32)))
            elif what == 2:
                self.field(b, e, at, 'Q', self.rng.choice(
                    (0, U64, to.BASE, 0x1000, 0x1001)))
            elif what == 3:
                self.field(b, e, at + 16, 'I', self.rng.choice(
                    (strs - 1, strs, strs + 1, 0xffffffff, 0)))
            elif what == 4:
                self.field(b, e, body + 16 + 4 * self.rng.randrange(4),
                           'I', self.interesting(ns, ns))
            else:
                self.field(b, e, body + 28, 'I', self.rng.choice(
                    (32, 33, 0xffffffff)))
        return bytes(b)

    def names(self, s):
        """A thread's command, the mapping's path, a symbol's or the
        event's name of control characters and metacharacters (in
        place)."""
        e, its = self.pick(s, (PC_ITEM_COMM, PC_ITEM_KMMAP, PC_ITEM_DSO,
                               PC_ITEM_EVENT))
        if not its:
            return s
        off, kind, size = self.rng.choice(its)
        b = bytearray(s)
        evil = self.rng.choice(EVIL)
        if kind == PC_ITEM_COMM:
            at, n = off + 8 + COMM_NAME, 15
        elif kind == PC_ITEM_EVENT:
            at = off + 8 + EVENT_NAME
            n = b[at:off + size].find(b'\0')
        elif kind == PC_ITEM_KMMAP:
            # the path's last part: the name report's tables show
            path = b[off + 8 + KMMAP_PATH:off + size].split(b'\0')[0]
            at = off + 8 + KMMAP_PATH + path.rfind(b'/') + 1
            n = len(path) - path.rfind(b'/') - 1
        else:
            nl, ns, strs = struct.unpack_from(e + 'III', b, off + 24)
            at = off + 8 + 64 + 24 * nl + 24 * ns
            if at + strs > off + size or strs < 2:
                return s
            names = b[at:at + strs]
            zero = [i for i, c in enumerate(names) if c == 0]
            if not zero:
                return s
            k = self.rng.randrange(len(zero))
            start = zero[k - 1] + 1 if k else 0
            at, n = at + start, zero[k] - start
        n = min(n, len(evil))
        if n > 0:
            b[at:at + n] = evil[:n].replace(b'\0', b'?')
        return bytes(b)

    # the items'
    def rebuild(self, s, keep):
        e, its = items(s)
        end = its[-1][0] + its[-1][2] if its else 16
        return s[:16] + b''.join(s[o:o + n] for o, k, n in its
                                 if keep((o, k, n))) + s[end:]

    def reorder(self, s):
        """Items dropped, doubled or shuffled (EVENT, HOST, DSO too)."""
        e, its = items(s)
        if not its:
            return s
        parts = [s[o:o + n] for o, _, n in its]
        how = self.rng.randrange(3)
        if how == 0:
            k = self.rng.randrange(len(parts))
            del parts[k]
        elif how == 1:
            k = self.rng.randrange(len(parts))
            parts.insert(self.rng.randrange(len(parts)), parts[k])
        else:
            self.rng.shuffle(parts)
        end = its[-1][0] + its[-1][2]
        return s[:16] + b''.join(parts) + s[end:]

    def splice(self, s):
        """Another seed's items after this one's (another byte order,
        another machine, the symbols twice)."""
        o = self.rng.choice(self.seeds)
        return s + o[16:16 + self.rng.randrange(len(o) - 16)]

    def period(self, s):
        e, sa = self.pick(s, (PC_ITEM_SAMPLE,),
                          lambda d, e, it: it[2] >= 8 + SA_NR)
        b = bytearray(s)
        for off, _, _ in sa:
            if self.rng.random() < 0.5:
                self.field(b, e, off + 8 + SA_PERIOD, 'Q', self.rng.choice(
                    (0, 1, U64, 1 << 63, to.T0, to.T0 + 1)))
        return bytes(b)

    def second_event(self, s):
        """A second EVENT, a clock or not, with the switch items and
        some of the samples."""
        e, its = items(s)
        ev = [it for it in its if it[1] == PC_ITEM_EVENT]
        if not ev:
            return s
        off, _, size = ev[0]
        b = bytearray(s[:off + size] + s[off:off + size] + s[off + size:])
        if self.rng.random() < 0.3:
            self.field(b, e, off + size + 8, 'Q', 1 << 56)  # cpu-clock
        elif self.rng.random() < 0.3:
            self.field(b, e, off + size + 8, 'Q', 0)        # cycles
        for o, kind, n in items(bytes(b))[1]:
            if kind == PC_ITEM_SWITCH and self.rng.random() < 0.9:
                self.field(b, e, o + 8 + SW_EVENT, 'I', 1)
            elif kind == PC_ITEM_SAMPLE and self.rng.random() < 0.5:
                self.field(b, e, o + 8 + 24, 'I', 1)
        return bytes(b)

    def sideband(self, s):
        """Side-band items amid the runs: an exec (the mappings before
        forgotten), a rename, a new mapping over the program or beside
        it, a fork, an exit; at an item's time or just after."""
        e, its = self.pick(s, (PC_ITEM_SWITCH, PC_ITEM_SAMPLE))
        if not its:
            return s
        add = b''
        for _ in range(self.rng.randrange(1, 5)):
            off, kind, _ = self.rng.choice(its)
            at = off + 8 + (SW_TIME if kind == PC_ITEM_SWITCH else SA_TIME)
            t = (struct.unpack_from(e + 'Q', s, at)[0] +
                 self.rng.choice((0, 1, 1000))) & U64
            tid = self.rng.choice((PID, PID + 1, PID + 9))
            how = self.rng.randrange(5)
            if how < 2:
                add += comm_item(e, tid, t, b'app', exec_=how == 0)
            elif how == 2:
                add += kmmap_item(e, tid, t, self.rng.choice(
                    (to.BASE, to.BASE + 0x8000, to.BASE + 0x100000)),
                    self.rng.choice((to.APP.encode(), b'/x/other')))
            else:
                add += tc.item(e, 8 if how == 3 else 9, struct.pack(
                    e + 'IIQII', PID, tid, t, PID, PID))
        return s + add

    def event_item(self, s):
        """The EVENT: another type, another record_type, no NUL."""
        e, ev = self.pick(s, (PC_ITEM_EVENT,))
        if not ev:
            return s
        off, _, size = ev[0]
        b = bytearray(s)
        what = self.rng.randrange(3)
        if what == 0:
            self.field(b, e, off + 8, 'Q', self.rng.choice(
                (0, 1 << 56, (1 << 56) | 2, (1 << 56) | 0, 2 << 56, U64)))
        elif what == 1:
            self.field(b, e, off + 8 + 16, 'Q', self.rng.choice((0, U64)))
        else:
            b[off + 8 + 40:off + size] = b'x' * (size - 8 - 40)
        return bytes(b)


# -- the runs and what they write -------------------------------------------

WALL_ROW = re.compile(r'  +\d+\.\d\d%  +\d+\.\d\d%  +\d+\.\d{3}  +\d+\.\d{3}'
                      r'  +\d+\.\d{3}  .{20}  .*')
THREAD_ROW = re.compile(r'  +\d+  +\d+  .*?(  +\d+\.\d{3}){5}')
DIFF_ROW = re.compile(r'  +\d+\.\d\d%  +\d+\.\d\d%  +[+-]\d+\.\d\d  +'
                      r'[+-]\d+\.\d\d  +(up|down|-) +\S.*')
DUMP_ROW = re.compile(r' *\d+\.\d{9} \S+ *.*')


def printable(t, out):
    """Text for a terminal: printable ASCII lines, a name's other bytes
    escaped (as report's table escapes them)."""
    bad = [ln for ln in out.split(b'\n')
           if any(not 0x20 <= c < 0x7f for c in ln)]
    if bad:
        codes = sorted({c for ln in bad for c in ln if not 0x20 <= c < 0x7f})
        raise AssertionError('bytes not escaped: ' + ' '.join(
            f'{c:#04x}' for c in codes[:8]) + ' in\n' + '\n'.join(
                repr(ln[:160]) for ln in bad[:4]))
    return out.decode()


def check_wall_table(t, out):
    text = printable(t, out)
    lines = text.split('\n')
    t.assertTrue(any(ln.startswith('# wall-clock profile: ')
                     for ln in lines), 'no wall-clock line')
    t.assertIn('# per thread, from its switch records: elapsed = on + off '
               'the CPU', lines)
    for ln in lines:
        if ln and not ln.startswith('#'):
            t.assertTrue(WALL_ROW.fullmatch(ln) or THREAD_ROW.fullmatch(ln),
                         f'not a row: {ln!r}')


def check_folded(t, out):
    bad = {c for c in out if c != 10 and (c < 0x20 or c == 0x7f)}
    t.assertFalse(bad, f'control characters {sorted(bad)}')
    te.folded_lines(out.decode(errors='replace'))


def check_svg(t, data):
    _, frames = te.svg_frames(io.BytesIO(data))
    for names, width, g in frames:
        t.assertGreaterEqual(width, 0, names)
        int(g.get('data-samples'))


def check_pprof(t, data):
    """gzip'd profile.proto: its messages decode, its strings are
    UTF-8, what its samples and locations refer to is there."""
    raw = gzip.decompress(data)
    top = te.fields(raw)
    strings = [v.decode() for n, wt, v in top if n == 6 and wt == 2]
    t.assertEqual(strings[:1], [''])
    funcs, locs = set(), set()
    for n, wt, v in top:
        if n == 5:
            f = {k: x for k, _, x in te.fields(v)}
            t.assertLess(f.get(2, 0), len(strings))
            funcs.add(f[1])
    for n, wt, v in top:
        if n == 4:
            f = te.fields(v)
            locs.add([x for k, _, x in f if k == 1][0])
            for k, _, x in f:
                if k == 4:
                    t.assertIn(dict((a, y) for a, _, y in te.fields(x))[1],
                               funcs)
    for n, wt, v in top:
        if n == 2:
            for k, w, x in te.fields(v):
                if k == 1:
                    t.assertTrue(set(te.packed(x, w)) <= locs)


def check_dump(t, out):
    for ln in printable(t, out).split('\n'):
        if ln:
            t.assertTrue(DUMP_ROW.fullmatch(ln), f'not a -D line: {ln!r}')


def check_diff(t, out):
    lines = printable(t, out).split('\n')
    t.assertTrue(lines[0].startswith('# perf-counter diff: '), lines[0])
    for ln in lines:
        if ln and not ln.startswith('#'):
            t.assertTrue(DIFF_ROW.fullmatch(ln), f'not a diff row: {ln!r}')


def runs(seed, mutant, tmp):
    """[(name, argv, where its output is, its check)] of a mutant."""
    svg = os.path.join(tmp, 'diff.svg')
    return [
        ('wall', ['report', '--wall', '-i', mutant], None, check_wall_table),
        ('wall-folded', ['report', '--wall', '--format', 'folded', '-i',
                         mutant], None, check_folded),
        ('wall-svg', ['report', '--wall', '--format', 'svg', '-i', mutant],
         None, check_svg),
        ('wall-pprof', ['report', '--wall', '--format', 'pprof', '-i',
                        mutant], None, check_pprof),
        ('dump', ['report', '-D', '-i', mutant], None, check_dump),
        ('diff', ['diff', seed, mutant], None, check_diff),
        ('diff-g', ['diff', '-g', mutant, seed], None, check_diff),
        ('diff-svg', ['diff', '--format', 'svg', seed, mutant, '-o', svg],
         svg, check_svg),
    ]


def sanitizer_report(err):
    """The sanitizer's first lines and its first frames in the tool."""
    lines = err.splitlines()
    for i, ln in enumerate(lines):
        if 'Sanitizer' in ln or 'runtime error' in ln:
            frames = [x.strip() for x in lines[i:] if
                      re.match(r'\s*#\d+ ', x)][:6]
            return [ln.strip()] + frames
    return None


def judge(p, out_path, check):
    """None, or (kind, signature, detail) of a failed run."""
    err = p.stderr.decode(errors='replace')
    san = sanitizer_report(err)
    if san:
        where = next((f.split(' in ', 1)[1] for f in san[1:]
                      if ' in ' in f), '?')
        return ('sanitizer', san[0].split(' on ')[0].split(': ', 1)[-1][:80]
                + ' in ' + where.split(' ')[0], '\n'.join(san))
    if p.returncode < 0:
        return ('signal', f'signal {-p.returncode}', err[-1500:])
    if p.returncode not in (0, 1):
        return ('status', f'status {p.returncode}', err[-1500:])
    try:
        printable(None, p.stderr)
    except AssertionError as x:
        return ('stderr', 'bytes not escaped', str(x)[:800])
    if p.returncode == 1:
        if not err.strip():
            return ('silent', 'status 1 without a message', '')
        return None
    out = p.stdout
    if out_path:
        with open(out_path, 'rb') as f:
            out = f.read()
    try:
        check(unittest.TestCase(), out)     # for its asserts
    except Exception as x:      # an assert, or a parser's error
        why = str(x).split(' : ', 1)[-1].split(':')[0][:40] if isinstance(
            x, AssertionError) else type(x).__name__
        return ('output', f'{check.__name__}: {why}', str(x)[:800])
    return None


def run_one(tool, argv):
    try:
        return subprocess.run([tool] + argv, capture_output=True,
                              env=SAN_ENV, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None


class Failures:
    """Failed runs by what failed and where: the first file of each kept
    in REPRO_DIR (with its seed and the sanitizer build), its command."""

    def __init__(self):
        self.seen = {}
        self.tool = None

    def add(self, fail, kind, argv, seed, mutant, data, label=''):
        key = (fail[0], fail[1], kind + label)
        if key in self.seen:
            self.seen[key]['count'] += 1
            return
        os.makedirs(REPRO_DIR, exist_ok=True)
        if not self.tool:       # this build's, not an earlier run's
            self.tool = os.path.join(REPRO_DIR, 'perf-counter-asan')
            shutil.copy(state['asan'], self.tool)
        name = '-'.join(label.split()) or hashlib.sha1(data).hexdigest()[:12]
        path = os.path.join(REPRO_DIR, name + '.data')
        with open(path, 'wb') as f:
            f.write(data)
        seed_copy = os.path.join(REPRO_DIR, os.path.basename(seed))
        shutil.copy(seed, seed_copy)
        out = os.path.join(REPRO_DIR, 'out.svg')
        args = [self.tool] + [path if a == mutant else seed_copy if a == seed
                              else out if a.endswith('.svg') else a
                              for a in argv]
        self.seen[key] = {'count': 1, 'cmd': ' '.join(args),
                          'detail': fail[2]}

    def run_all(self, seed, mutant, data, ends=None, label=''):
        """Every run of a mutant (written to @mutant), at once on
        WORKERS; @ends counts their exit status; failures told apart by
        @label too."""
        todo = runs(seed, mutant, os.path.dirname(mutant))
        got = list(state['pool'].map(lambda r: run_one(state['asan'],
                                                       r[1]), todo))
        for (kind, argv, out, check), p in zip(todo, got):
            if p is not None and ends is not None:
                ends[p.returncode] = ends.get(p.returncode, 0) + 1
            fail = ('timeout', f'over {RUN_TIMEOUT} s', '') \
                if p is None else judge(p, out, check)
            if fail:
                self.add(fail, kind, argv, seed, mutant, data, label)
        return len(todo)

    def text(self):
        out = []
        for (what, sig, kind), f in sorted(self.seen.items()):
            out.append(f'{what}: {sig} [{kind}, {f["count"]} runs]\n'
                       f'  {f["cmd"]}\n  ' +
                       f['detail'].replace('\n', '\n  '))
        return f'{len(self.seen)} failures, files in {REPRO_DIR}:\n' + \
            '\n'.join(out)


# -- the builds -------------------------------------------------------------

def setUpModule():
    tmp = tempfile.mkdtemp(prefix='pc-offcpu-fuzz-')
    state['tmp'] = tmp
    hdr = os.path.join(tmp, 'hdr', 'linux')
    os.makedirs(hdr)
    shutil.copy(os.path.join(tc.TOP, 'include', 'uapi', 'linux',
                             'perf_counter.h'), hdr)
    flags = '-O1 -g -fsanitize=address,undefined ' \
            '-fno-sanitize-recover=all -fno-omit-frame-pointer'
    out = os.path.join(tmp, 'asan')
    # the sanitizer build beside test_callchain's (normal) one
    make = subprocess.Popen(['make', '-s', '-j2', '-C', HERE, 'CC=gcc',
                             'CFLAGS=' + flags, 'LDFLAGS=' + flags,
                             'HDR=' + os.path.join(tmp, 'hdr'),
                             'OUT=' + out], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        tc.setUpModule()
    finally:
        log = make.communicate()[0]
    if make.returncode:
        raise RuntimeError('the sanitizer build failed:\n' + log)
    state['asan'] = os.path.join(out, 'perf-counter')
    seeds = []
    for name, make_seed, e in (('x86_64-le', wall_seed, '<'),
                               ('x86_64-be', wall_seed, '>'),
                               ('i686-le', i686_seed, '<'),
                               ('i686-be', i686_seed, '>')):
        path = os.path.join(tmp, f'seed-{name}.data')
        seeds.append((name, path, make_seed(path, e)))
    state['seeds'] = seeds
    state['pool'] = concurrent.futures.ThreadPoolExecutor(WORKERS)


def tearDownModule():
    if 'pool' in state:
        state['pool'].shutdown()
    tc.tearDownModule()
    if 'tmp' in state:
        shutil.rmtree(state['tmp'])


def san(*args):
    return run_one(state['asan'], list(args))


class Plain(unittest.TestCase):
    """The sanitizer build reads the seeds as the normal one does."""

    def test_sanitizer_build_gives_the_same_wall_table(self):
        _, path, _ = state['seeds'][0]
        normal = subprocess.run([tc.state['tool'], 'report', '--wall', '-i',
                                 path], capture_output=True)
        self.assertEqual(normal.returncode, 0, normal.stderr)
        p = san('report', '--wall', '-i', path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.decode(), normal.stdout.decode())
        self.assertEqual(p.stderr, b'')
        self.assertIn(b'# 3 off-CPU chains given callers from the stack '
                      b'words', p.stdout)

    def test_i686_seed_scans_its_stack_words_as_4_byte_values(self):
        for name, path, _ in state['seeds'][2:]:
            with self.subTest(seed=name):
                p = san('report', '--wall', '--format', 'folded', '-i',
                        path)
                self.assertEqual(p.returncode, 0, p.stderr)
                got = {s: int(c) for s, _, c in
                       (ln.rpartition(' ') for ln in
                        p.stdout.decode().splitlines())}
                for stack, ns in I686_FOLDED.items():
                    self.assertEqual(got.get(stack), ns,
                                     f'{stack} not in {sorted(got)}')
                p = san('report', '--wall', '-i', path)
                self.assertIn(b'# 2 off-CPU chains given callers from the '
                              b'stack words', p.stdout)

    def test_tables_and_messages_escape_the_files_names(self):
        """A command, a file name and an event name with escape
        sequences: report's table prints them escaped
        (pc_print_escaped()); --wall's and diff's tables and messages
        are to as well."""
        seed = state['seeds'][0][1]
        path = os.path.join(state['tmp'], 'names.data')
        cycles = os.path.join(state['tmp'], 'names-cycles.data')
        with open(path, 'wb') as f:
            f.write(evil_names(state['seeds'][0][2]))
        with open(cycles, 'wb') as f:
            f.write(evil_names(state['seeds'][0][2], config=0))
        for argv, status in (
                (['report', '-i', path], 0), (['report', '-D', '-i', path], 0),
                (['report', '--wall', '-i', path], 0),
                (['diff', seed, path], 0), (['diff', '-g', seed, path], 0),
                (['report', '--wall', '-i', cycles], 1)):
            with self.subTest(run=' '.join(
                    {seed: 'SEED', path: 'NAMES', cycles: 'NAMES-CYCLES'}
                    .get(a, a) for a in argv)):
                p = san(*argv)
                self.assertEqual(p.returncode, status, p.stderr)
                bad = []
                for what, out in (('stdout', p.stdout), ('stderr',
                                                         p.stderr)):
                    try:
                        printable(self, out)
                    except AssertionError as x:
                        bad.append(f'{what}: {x}')
                if bad:
                    os.makedirs(REPRO_DIR, exist_ok=True)
                    for f in (path, cycles):
                        shutil.copy(f, REPRO_DIR)
                    self.fail(f'(files in {REPRO_DIR}) ' + '\n'.join(bad))

    def test_samples_kept_to_the_end_of_their_run(self):
        """The first seed as a recording that ended while its threads
        ran (without each one's last switch-out), with an exec between
        a sample and its thread's switch-out (the mappings the sample
        was taken in forgotten), and with a first sample whose chain
        has no words: every run reads them safely."""
        failures = Failures()
        for name, path, data in state['seeds'][:2]:
            e, its = items(data)
            exec_ = data + comm_item(e, PID, to.T0 + 5 * MS + 1, b'app2')
            empty = bytearray(data)
            first = [o for o, k, _ in its if k == PC_ITEM_SAMPLE][0]
            struct.pack_into(e + 'I', empty, first + 8 + SA_NR, 0)
            for case, cut in (('ended', without_last_outs(data)),
                              ('exec', exec_), ('empty-chain', bytes(empty))):
                mutant = os.path.join(state['tmp'], f'{case}-{name}.data')
                with open(mutant, 'wb') as f:
                    f.write(cut)
                failures.run_all(path, mutant, cut, label=f' {case} {name}')
        if failures.seen:
            self.fail(failures.text())

    def test_every_seed_passes_every_check(self):
        seeds = state['seeds']
        for name, path, _ in seeds:
            for kind, argv, out, check in runs(seeds[0][1], path,
                                               state['tmp']):
                with self.subTest(seed=name, run=kind):
                    p = san(*argv)
                    self.assertIsNotNone(p, 'a timeout')
                    self.assertEqual(p.returncode, 0, p.stderr)
                    self.assertIsNone(judge(p, out, check))


class Hostile(unittest.TestCase):
    """Mutants of the seeds through every run, FUZZ_SECONDS of them."""

    def test_every_mutant_is_refused_or_read_safely(self):
        tmp = state['tmp']
        seeds = state['seeds']
        mut = Mutator(random.Random(RNG_SEED), [d for _, _, d in seeds])
        mutant = os.path.join(tmp, 'mutant.data')
        failures, files, nruns, ends, ops = Failures(), 0, 0, {}, {}
        start = time.monotonic()
        while time.monotonic() < start + FUZZ_SECONDS:
            i, data, done = mut.mutant()
            for op in done:
                ops[op] = ops.get(op, 0) + 1
            with open(mutant, 'wb') as f:
                f.write(data)
            files += 1
            nruns += failures.run_all(seeds[i][1], mutant, data, ends)
        took = time.monotonic() - start
        print(f'# {files} hostile files, {nruns} runs in {took:.1f} s; '
              'exit status: ' + ', '.join(f'{k}: {v}' for k, v in
                                          sorted(ends.items())) +
              '\n# mutations: ' + ', '.join(f'{k} {v}' for k, v in
                                            sorted(ops.items())),
              flush=True)
        if failures.seen:
            self.fail(failures.text())
        self.assertGreater(files, 50)


if __name__ == '__main__':
    if sys.argv[1:] == ['--tap']:
        sys.exit(tc.tap_main(sys.modules[__name__]))
    unittest.main()
