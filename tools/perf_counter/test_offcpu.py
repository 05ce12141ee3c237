#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host checks of report --wall and of perf-counter diff, with record
files written by hand (no kernel, no ELF file read: the files carry
their own symbols).

report --wall: a version 4 file of task-clock samples (on the CPU) and
SWITCH items (off it) of two threads: blocked switch-outs in a
frameless system call wrapper whose chain skips its caller (the stack
words hold it: report puts it back), preempted ones, and kernel frames
in the second thread's chains. The table's times per function and per
thread are checked to the microsecond, the folded stacks, and the SVG
flame graph's colours: the reasons deep blue and purple, functions
entirely off the CPU blue (the kernel's teal), the rest warm; its
data-off sums. Both byte orders.

perf-counter diff: two files whose leaf functions hot_a and hot_b go
from 1:1 to 2:1 among functions whose shares stay: the table flags
those two and nothing else, a file against itself nothing; -g lists
stacks; --format svg colours hot_a red, hot_b blue and the rest grey.

Run: python3 test_offcpu.py [-v]          (unittest's own output)
     python3 test_offcpu.py --tap         (KTAP, for harness/host-tests.sh)
"""
import math
import os
import re
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_callchain as tc  # noqa: E402  (the tool's build, KTAP)
import test_export as te  # noqa: E402  (the SVG and browser checks)

SVG_NS = te.SVG_NS
PC_ITEM_EVENT, PC_ITEM_COMMAND, PC_ITEM_SAMPLE = 1, 2, 4
PC_ITEM_KMMAP, PC_ITEM_COMM = 6, 7
PC_ITEM_HOST, PC_ITEM_DSO, PC_ITEM_KSYMS, PC_ITEM_SWITCH = 11, 12, 13, 14
PERF_RECORD_PERIOD = 64
TASK_CLOCK = (1 << 56) | 1          # PERF_TYPE_SOFTWARE, TASK_CLOCK
CONTEXT_KERNEL = (1 << 64) - 128
CONTEXT_USER = tc.CONTEXT_USER
CONTEXT_MAX = (1 << 64) - 4095     # the markers are from here up
SWITCH_PREEMPTED = 1
COMPLETE = tc.COMPLETE

MS = 1000000                        # ns
T0 = 1000 * MS                      # the first record's time
PID = 4321
BASE = 0x400000                     # where the fake program is mapped
APP = '/nonexistent/pc-offcpu/app'
KSTART = 0xffffffff81000000

# The program's functions (file offsets; no PT_LOAD: offset = address)
# and whether each sets up a frame pointer: wrapper_leaf, a system call
# wrapper, does not.
FUNCS = {
    'main': (0x1000, 0x100, 1),
    'compute': (0x1100, 0x100, 1),
    'sleeper': (0x1200, 0x100, 1),
    'wrapper_leaf': (0x1300, 0x80, 0),
    'reader_loop': (0x1400, 0x100, 1),
    'read_pipe': (0x1500, 0x100, 1),
    'hot_a': (0x1600, 0x100, 1),
    'hot_b': (0x1700, 0x100, 1),
    'warm_1': (0x1800, 0x100, 1),
    'warm_2': (0x1900, 0x100, 1),
    'warm_3': (0x1a00, 0x100, 1),
}
KFUNCS = {
    'k_schedule': 0x1000,
    'k_pipe_read': 0x2000,
    'k_preempt_schedule': 0x3000,
}

# the fills flamegraph.c gives the reasons
BLOCKED_FILL = (30, 60, 190)
PREEMPTED_FILL = (125, 55, 175)


def at(name, off=0x10):
    return BASE + FUNCS[name][0] + off


def kat(name, off=0x10):
    return KSTART + KFUNCS[name] + off


def tool(*args):
    return subprocess.run([tc.state['tool']] + list(args),
                          capture_output=True, text=True)


# -- writing record files --------------------------------------------------

class Writer:
    """A version 4 record file of one task-clock event, its items in
    the byte order @e, its program's symbols at its end."""

    def __init__(self, e, name='task-clock:u', period=MS):
        self.e = e
        self.out = b'PCRECORD' + struct.pack(e + 'II', 4, 0x01020304)
        rtype = tc.PERF_RECORD_IRQ | tc.PERF_RECORD_TID | \
            tc.PERF_RECORD_TIME | tc.PERF_RECORD_CALLCHAIN | \
            PERF_RECORD_PERIOD
        self.item(PC_ITEM_EVENT, struct.pack(e + 'QQQQII', TASK_CLOCK,
                                             period, rtype, 0, 0, 0) +
                  name.encode() + b'\0')
        self.item(PC_ITEM_COMMAND, APP.encode() + b'\0app\0')

    def item(self, kind, body):
        self.out += tc.item(self.e, kind, body)

    def mmap(self):
        """The program's mapping (after the exec's COMM, which forgets
        the mappings before)."""
        self.item(PC_ITEM_KMMAP, struct.pack(self.e + 'IIQQQQQQII', PID, PID,
                                             0, BASE, 0x10000, 0, 0, 0, 5, 0)
                  + APP.encode() + b'\0')

    def comm(self, tid, name, flags=1):
        self.item(PC_ITEM_COMM, struct.pack(self.e + 'IIQII', PID, tid, 0,
                                            flags, 0) +
                  name.encode().ljust(16, b'\0'))

    def sample(self, tid, time, words, period=MS):
        """A sample at the first address of @words, its chain."""
        e = self.e
        ip = [w for w in words if w < CONTEXT_MAX][0]
        body = struct.pack(e + 'QIIQIiQ', ip, PID, tid, time, 0, -1, period)
        body += struct.pack(e + 'II', len(words), COMPLETE)
        body += struct.pack(e + f'{len(words)}Q', *words)
        self.item(PC_ITEM_SAMPLE, body)

    def switch_in(self, tid, time):
        self.item(PC_ITEM_SWITCH, struct.pack(self.e + 'IIQIiIIII', PID,
                                              tid, time, 0, -1, 0, 0, 0, 0))

    def switch_out(self, tid, time, words, stack=(), preempted=False):
        e = self.e
        body = struct.pack(e + 'IIQIiIIII', PID, tid, time, 0, -1, 1,
                           SWITCH_PREEMPTED if preempted else 0, len(stack),
                           0)
        body += struct.pack(e + 'II', len(words), COMPLETE)
        body += struct.pack(e + f'{len(words) + len(stack)}Q', *words,
                            *stack)
        self.item(PC_ITEM_SWITCH, body)

    def symbols(self):
        """HOST (another boot), the program's DSO item with each
        function's frame-pointer flag, the kernel's KSYMS."""
        e = self.e
        self.item(PC_ITEM_HOST, b'\0' * 128)
        names = APP.encode() + b'\0'
        syms = b''
        for name, (addr, size, fp) in sorted(FUNCS.items(),
                                             key=lambda x: x[1][0]):
            syms += struct.pack(e + 'QQIi', addr, size, len(names), fp)
            names += name.encode() + b'\0'
        head = struct.pack(e + 'QQIIII', 0, 0, 0, len(FUNCS), len(names), 0)
        self.item(PC_ITEM_DSO, head + b'\0' * 32 + syms + names)
        names, syms = b'', b''
        for name, off in sorted(KFUNCS.items(), key=lambda x: x[1]):
            syms += struct.pack(e + 'QQIi', KSTART + off, 0x100, len(names),
                                -1)
            names += name.encode() + b'\0'
        self.item(PC_ITEM_KSYMS, struct.pack(e + 'QII', KSTART - 0x1000000,
                                             len(KFUNCS), len(names)) +
                  syms + names)

    def write(self, path):
        self.symbols()
        with open(path, 'wb') as f:
            f.write(self.out)
        return path


def wall_file(path, e='<'):
    """Two threads' samples and switches; times in ms after T0.

    app (tid PID): 27 ms on the CPU (23 in main>compute, 2 in
    main>sleeper, 2 in main), blocked 30 + 20 + 10 ms in wrapper_leaf
    called by sleeper (a chain without sleeper, the stack words with
    it), preempted 2 + 3 ms in compute; 92 ms from first record to last.
    app-reader (tid PID + 1): 3 ms on the CPU in reader_loop, blocked
    40 ms in read_pipe in the kernel's k_pipe_read > k_schedule,
    preempted 4 ms in k_preempt_schedule; 47 ms in all.
    """
    w = Writer(e)
    w.comm(PID, 'app')
    w.comm(PID + 1, 'app-reader', flags=0)
    w.mmap()
    main_ret = at('main', 0x30)
    on = {
        'compute': [CONTEXT_USER, at('compute'), main_ret],
        'sleeper': [CONTEXT_USER, at('sleeper', 0x40), main_ret],
        'main': [CONTEXT_USER, at('main', 0x50)],
        'reader_loop': [CONTEXT_USER, at('reader_loop')],
    }
    # wrapper_leaf's chain: its caller's caller next; the words of the
    # stack from its stack pointer: the return address into sleeper,
    # sleeper's saved frame pointer, a number, then the return address
    # into main the kernel's walk read
    blocked = [CONTEXT_USER, at('wrapper_leaf', 8), main_ret]
    stack = [at('sleeper', 0x18), 0x7ffc12345670, 7, main_ret,
             0x7ffc123456a0]
    preempted = [CONTEXT_USER, at('compute', 0x20), main_ret]
    k_blocked = [CONTEXT_KERNEL, kat('k_schedule'), kat('k_pipe_read', 0x20),
                 CONTEXT_USER, at('read_pipe', 8), at('reader_loop', 0x28)]
    k_preempted = [CONTEXT_KERNEL, kat('k_preempt_schedule', 8),
                   CONTEXT_USER, at('reader_loop', 0x30)]

    ev = []         # (ms, order, what, args)

    def samples(tid, fn, first, last):
        for t in range(first, last + 1):
            ev.append((t, 0, 'sample', (tid, on[fn])))

    def off(tid, out, back, words, stk=(), pre=False):
        ev.append((out, 1, 'out', (tid, words, stk, pre)))
        if back is not None:
            ev.append((back, 2, 'in', (tid,)))

    a, r = PID, PID + 1
    ev.append((0, 2, 'in', (a,)))
    samples(a, 'compute', 1, 10)
    off(a, 10, 12, preempted, pre=True)
    samples(a, 'compute', 13, 17)
    off(a, 17, 47, blocked, stack)
    samples(a, 'sleeper', 48, 49)
    off(a, 49, 69, blocked, stack)
    samples(a, 'compute', 70, 74)
    off(a, 74, 77, preempted, pre=True)
    samples(a, 'compute', 78, 80)
    off(a, 80, 90, blocked, stack)
    samples(a, 'main', 91, 92)
    off(a, 92, None, on['main'])            # never back: not counted
    ev.append((5, 2, 'in', (r,)))
    samples(r, 'reader_loop', 6, 6)
    off(r, 6, 46, k_blocked)
    samples(r, 'reader_loop', 47, 47)
    off(r, 47, 51, k_preempted, pre=True)
    samples(r, 'reader_loop', 52, 52)
    off(r, 52, None, k_blocked)
    for ms, _, what, args in sorted(ev, key=lambda x: x[:2]):
        t = T0 + ms * MS
        if what == 'sample':
            w.sample(args[0], t, args[1])
        elif what == 'in':
            w.switch_in(args[0], t)
        else:
            w.switch_out(args[0], t, args[1], args[2], args[3])
    return w.write(path)


# The wall time per function, ms: (in its stacks, as their leaf, on the
# CPU, blocked, preempted)
WALL_FUNCS = {
    ('app', 'main'): (92, 2, 27, 60, 5),
    ('[off-cpu]', '[blocked]'): (100, 100, 0, 100, 0),
    ('app', 'compute'): (28, 23, 23, 0, 5),
    ('app', 'sleeper'): (62, 2, 2, 60, 0),
    ('app', 'wrapper_leaf'): (60, 0, 0, 60, 0),
    ('app', 'reader_loop'): (47, 3, 3, 40, 4),
    ('app', 'read_pipe'): (40, 0, 0, 40, 0),
    ('[kernel]', 'k_pipe_read'): (40, 0, 0, 40, 0),
    ('[kernel]', 'k_schedule'): (40, 0, 0, 40, 0),
    ('[off-cpu]', '[preempted]'): (9, 9, 0, 0, 9),
    ('[kernel]', 'k_preempt_schedule'): (4, 0, 0, 0, 4),
}
WALL_MS = 139

# (tid, command): elapsed, on, off, blocked, preempted (ms)
WALL_THREADS = [
    (PID, 'app', 92, 27, 65, 60, 5),
    (PID + 1, 'app-reader', 47, 3, 44, 40, 4),
]

WALL_FOLDED = {
    'app;main': 2 * MS,
    'app;main;compute': 23 * MS,
    'app;main;compute;[preempted]': 5 * MS,
    'app;main;sleeper': 2 * MS,
    'app;main;sleeper;wrapper_leaf;[blocked]': 60 * MS,
    'app-reader;reader_loop': 3 * MS,
    'app-reader;reader_loop;k_preempt_schedule;[preempted]': 4 * MS,
    'app-reader;reader_loop;read_pipe;k_pipe_read;k_schedule;[blocked]':
        40 * MS,
}


def wall_row(dso, sym, total, self_, on, blocked, pre):
    return (f'  {100 * total / WALL_MS:7.2f}%  {100 * self_ / WALL_MS:7.2f}%'
            f'  {on:11.3f}  {blocked:11.3f}  {pre:11.3f}  {dso:<20.20s}  '
            f'{sym}')


def fill(g):
    m = re.fullmatch(r'rgb\((\d+),(\d+),(\d+)\)',
                     g.find(SVG_NS + 'rect').get('fill'))
    return tuple(int(x) for x in m.groups())


def svg_nodes(path):
    """The root and [(path of names, g, [child indices])] of an SVG's
    frames, in their pre-order."""
    root, frames = te.svg_frames(path)
    nodes, open_ = [], []
    for names, _, g in frames:
        depth = int(g.get('data-depth'))
        del open_[depth:]
        if open_:
            nodes[open_[-1]][2].append(len(nodes))
        open_.append(len(nodes))
        nodes.append((names, g, []))
    return root, nodes


def node(nodes, names):
    found = [g for p, g, _ in nodes if p == names]
    if len(found) != 1:
        raise AssertionError(f'{names}: {len(found)} frames')
    return found[0]


def runs_file(path, e='<'):
    """One thread's runs on the CPU whose samples do not cover them: 1 ms
    of samples in compute in a 4 ms run, 1 in compute and 1 in sleeper
    in a 6 ms run, and a 2 ms run with none that left blocked in
    wrapper_leaf (called by sleeper: the stack words say)."""
    w = Writer(e)
    w.comm(PID, 'app')
    w.mmap()
    main_ret = at('main', 0x30)
    compute = [CONTEXT_USER, at('compute'), main_ret]
    sleeper = [CONTEXT_USER, at('sleeper', 0x40), main_ret]
    blocked = [CONTEXT_USER, at('wrapper_leaf', 8), main_ret]
    stack = [at('sleeper', 0x18), 7, main_ret]
    w.switch_in(PID, T0)
    w.sample(PID, T0 + 2 * MS, compute)
    w.switch_out(PID, T0 + 4 * MS, compute, preempted=True)
    w.switch_in(PID, T0 + 10 * MS)
    w.sample(PID, T0 + 11 * MS, compute)
    w.sample(PID, T0 + 12 * MS, sleeper)
    w.switch_out(PID, T0 + 16 * MS, blocked, stack)
    w.switch_in(PID, T0 + 20 * MS)
    w.switch_out(PID, T0 + 22 * MS, blocked, stack)
    return w.write(path)


class Runs(unittest.TestCase):
    """report --wall shares each run on the CPU among its samples."""

    def test_each_run_goes_to_its_samples_or_the_stack_it_left_with(self):
        path = runs_file(os.path.join(tc.state['tmp'], 'runs.data'))
        p = tool('report', '-i', path, '--wall', '--format', 'folded')
        self.assertEqual(p.returncode, 0, p.stderr)
        got = {s: int(c) for s, _, c in
               (ln.rpartition(' ') for ln in p.stdout.splitlines())}
        self.assertEqual(got, {
            # 4 ms, then 3 of the 6 ms run
            'app;main;compute': 7 * MS,
            'app;main;compute;[preempted]': 6 * MS,
            'app;main;sleeper': 3 * MS,
            # the 2 ms run without a sample: where it left from
            'app;main;sleeper;wrapper_leaf': 2 * MS,
            'app;main;sleeper;wrapper_leaf;[blocked]': 4 * MS,
        })


class Wall(unittest.TestCase):
    """report --wall of the hand-written file, both byte orders."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tc.state['tmp']
        cls.files = {e: wall_file(os.path.join(cls.tmp, f'wall{n}.data'), e)
                     for n, e in (('le', '<'), ('be', '>'))}

    def wall(self, e, *args):
        p = tool('report', '-i', self.files[e], '--wall', *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_table_times_per_function_and_thread(self):
        for e in self.files:
            with self.subTest(order=e):
                out = self.wall(e).split('\n')
                self.assertIn('# wall-clock profile: 139.000 ms of 2 threads:'
                              ' on the CPU 30.000 ms, off it '
                              '109.000 ms (blocked 100.000, preempted '
                              '9.000)', out)
                self.assertIn('# on the CPU by the switch records 30.000 ms,'
                              " of which the samples' periods 30.000 ms (not"
                              ' the modes their event excludes, nor periods'
                              ' a switch cut short): each run on the CPU is'
                              ' shared among the stacks sampled in it', out)
                self.assertIn('# 3 off-CPU chains given callers from the '
                              'stack words (frameless wrappers)', out)
                head = out.index('# Children     Self      On-CPU ms   '
                                 'Blocked ms Preempted ms  Shared Object'
                                 '         Symbol')
                end = out.index('', head)
                rows = out[head + 1:end]
                want = [wall_row(d, s, *v) for (d, s), v in
                        WALL_FUNCS.items()]
                self.assertEqual(sorted(rows), sorted(want))
                # the heaviest first
                totals = [float(r.split('%')[0]) for r in rows]
                self.assertEqual(totals, sorted(totals, reverse=True))

    def test_per_thread_elapsed_is_on_plus_off(self):
        for e in self.files:
            with self.subTest(order=e):
                out = self.wall(e).split('\n')
                at_ = out.index('# per thread, from its switch records: '
                                'elapsed = on + off the CPU')
                rows = [ln for ln in out[at_ + 2:] if ln]
                want = [f'  {PID:7d}  {tid:7d}  {comm:<16.16s}  '
                        f'{el:11.3f}  {on:11.3f}  {off:11.3f}  '
                        f'{bl:11.3f}  {pre:11.3f}'
                        for tid, comm, el, on, off, bl, pre in WALL_THREADS]
                self.assertEqual(rows, want)
                for r in rows:
                    el, on, off, bl, pre = [float(x) for x in r.split()[3:]]
                    self.assertAlmostEqual(el, on + off, places=3)
                    self.assertAlmostEqual(off, bl + pre, places=3)

    def test_folded_has_the_frameless_wrappers_caller(self):
        for e in self.files:
            with self.subTest(order=e):
                text = self.wall(e, '--format', 'folded')
                got = {s: int(c) for s, _, c in
                       (ln.rpartition(' ') for ln in text.splitlines())}
                self.assertEqual(got, WALL_FOLDED)
                self.assertNotIn('app;main;wrapper_leaf;[blocked]', text)

    def svg(self, e='<', *more):
        out = os.path.join(self.tmp, f'wall{"-inv" if more else ""}.svg')
        self.wall(e, '--format', 'svg', '-o', out, *more)
        return out

    def test_svg_colours_off_cpu_frames_cold(self):
        root, nodes = svg_nodes(self.svg())
        self.assertEqual(root.get('data-event'), 'wall-clock')
        a = ['all', 'app', 'main']
        r = ['all', 'app-reader', 'reader_loop']
        # the reasons
        for names in (a + ['sleeper', 'wrapper_leaf', '[blocked]'],
                      r + ['read_pipe', 'k_pipe_read', 'k_schedule',
                           '[blocked]']):
            self.assertEqual(fill(node(nodes, names)), BLOCKED_FILL)
        for names in (a + ['compute', '[preempted]'],
                      r + ['k_preempt_schedule', '[preempted]']):
            self.assertEqual(fill(node(nodes, names)), PREEMPTED_FILL)
        # entirely off the CPU: blue, the kernel's teal
        for names in (a + ['sleeper', 'wrapper_leaf'],
                      r + ['read_pipe']):
            c = fill(node(nodes, names))
            self.assertGreater(c[2], c[0], names)
            self.assertGreater(c[2] - c[1], 30, f'{names}: {c} not blue')
        for names in (r + ['read_pipe', 'k_pipe_read'],
                      r + ['read_pipe', 'k_pipe_read', 'k_schedule'],
                      r + ['k_preempt_schedule']):
            c = fill(node(nodes, names))
            self.assertEqual(node(nodes, names).get('data-kind'), 'kernel')
            self.assertGreater(c[2], c[0], names)
            self.assertGreater(c[1], c[0] + 80, f'{names}: {c} not teal')
            self.assertLessEqual(abs(c[1] - c[2]), 35, f'{names}: {c}')
        # on the CPU, or on and off: warm
        for names in (a, a + ['compute'], a + ['sleeper'], r):
            c = fill(node(nodes, names))
            self.assertGreater(c[0], c[2], f'{names}: {c} not warm')
        self.assertIn('blue: off the CPU',
                      root.find(f'.//{SVG_NS}text[@id="note"]').text)

    def test_svg_data_off_adds_up(self):
        root, nodes = svg_nodes(self.svg())
        self.assertEqual(int(nodes[0][1].get('data-off')), 109 * MS)
        self.assertEqual(int(nodes[0][1].get('data-weight')), WALL_MS * MS)
        reasons = {'[blocked]': 0, '[preempted]': 0}
        for names, g, kids in nodes:
            off, weight = int(g.get('data-off')), int(g.get('data-weight'))
            self.assertLessEqual(off, weight, names)
            if names[-1] in reasons:
                self.assertEqual(off, weight, names)
                reasons[names[-1]] += off
            elif kids:
                # off-CPU time always ends in a reason: a frame's is its
                # callees'
                self.assertEqual(off, sum(int(nodes[k][1].get('data-off'))
                                          for k in kids), names)
            else:
                self.assertEqual(off, 0, names)
        self.assertEqual(reasons, {'[blocked]': 100 * MS,
                                   '[preempted]': 9 * MS})
        compute = node(nodes, ['all', 'app', 'main', 'compute'])
        self.assertEqual(int(compute.get('data-off')), 5 * MS)
        tip = compute.find(SVG_NS + 'title').text
        self.assertIn('\n17.86% off-CPU', tip)
        tip = node(nodes, ['all', 'app-reader']).find(SVG_NS + 'title').text
        self.assertIn('\n93.62% off-CPU', tip)

    def test_svg_same_of_either_byte_order_and_inverted(self):
        with open(self.svg('<'), 'rb') as f:
            le = f.read()
        with open(self.svg('>'), 'rb') as f:
            self.assertEqual(f.read(), le)
        root, nodes = svg_nodes(self.svg('<', '--inverted'))
        self.assertEqual(root.get('data-inverted'), '1')
        top = {p[1]: fill(g) for p, g, _ in nodes if len(p) == 2}
        self.assertEqual(top['[blocked]'], BLOCKED_FILL)
        self.assertEqual(top['[preempted]'], PREEMPTED_FILL)
        self.assertGreater(top['compute'][0], top['compute'][2])

    def test_svg_opens_in_a_browser(self):
        te.check_browser(self, self.svg(), self.tmp)


# -- perf-counter diff ------------------------------------------------------

# samples per leaf function: hot_a and hot_b 1:1, then 2:1
DIFF_A = {'hot_a': 200, 'hot_b': 200, 'warm_1': 60, 'warm_2': 60,
          'warm_3': 60}
DIFF_B = {'hot_a': 280, 'hot_b': 140, 'warm_1': 60, 'warm_2': 60,
          'warm_3': 60}
HAVE_DIFF = os.path.exists(os.path.join(HERE, 'diff.c'))

ROW = re.compile(r'^  +(\d+\.\d\d)%  +(\d+\.\d\d)%  +([+-]\d+\.\d\d)  +'
                 r'([+-]\d+\.\d\d)  +(up|down|-) +(\S+)(?:  +(.*))?$')


def diff_file(path, counts, e='<', period=MS):
    """Samples whose leaf is each function of @counts, called by main,
    interleaved in time."""
    w = Writer(e, period=period)
    w.comm(PID, 'app')
    w.mmap()
    left = dict(counts)
    t = T0
    while any(left.values()):
        for fn in sorted(left):
            if left[fn]:
                w.sample(PID, t, [CONTEXT_USER, at(fn), at('main', 0x30)],
                         period)
                left[fn] -= 1
                t += period
    return w.write(path)


def z_score(x, n, y, m):
    """The two-proportion z score of x of n against y of m, with the
    continuity correction diff.c applies (0 within it)."""
    p = (x + y) / (n + m)
    se = math.sqrt(p * (1 - p) * (1 / n + 1 / m)) if 0 < p < 1 else 0
    if not se:
        return 0.0
    d = y / m - x / n
    z = (abs(d) - (1 / n + 1 / m) / 2) / se
    if z <= 0:
        return 0.0
    return -z if d < 0 else z


def diff_rows(text):
    """{symbol or stack: (base%, new%, delta, z, change, dso)}; every
    line not a comment is a row."""
    rows = {}
    lines = text.splitlines()
    assert lines and lines[0].startswith('#'), text
    for ln in lines:
        if ln.startswith('#') or not ln:
            continue
        m = ROW.match(ln)
        if not m:
            raise AssertionError(f'not a diff row: {ln!r}')
        a, b, d, z, change, dso, sym = m.groups()
        key = sym if sym is not None else dso
        rows[key] = (float(a), float(b), float(d), float(z), change, dso)
    return rows


@unittest.skipUnless(HAVE_DIFF, 'no diff.c in the tree yet')
class Diff(unittest.TestCase):
    """perf-counter diff of A (hot_a:hot_b 1:1) and B (2:1)."""

    @classmethod
    def setUpClass(cls):
        tmp = cls.tmp = tc.state['tmp']
        cls.a = diff_file(os.path.join(tmp, 'a.data'), DIFF_A)
        # another period, another byte order: shares are of samples
        cls.b = diff_file(os.path.join(tmp, 'b.data'), DIFF_B, e='>',
                          period=2 * MS)
        no3 = {k: v for k, v in DIFF_B.items() if k != 'warm_3'}
        cls.c = diff_file(os.path.join(tmp, 'c.data'), no3)

    def diff(self, *args):
        p = tool('diff', *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_table_flags_hot_a_up_and_hot_b_down_only(self):
        rows = diff_rows(self.diff(self.a, self.b))
        self.assertEqual(set(rows), set(DIFF_A))
        na, nb = sum(DIFF_A.values()), sum(DIFF_B.values())
        for fn, (a, b, d, z, change, dso) in rows.items():
            pa, pb = 100 * DIFF_A[fn] / na, 100 * DIFF_B[fn] / nb
            self.assertEqual(dso, 'app')
            self.assertAlmostEqual(a, pa, delta=0.006)
            self.assertAlmostEqual(b, pb, delta=0.006)
            self.assertAlmostEqual(d, pb - pa, delta=0.011)
            # the test's own z, continuity corrected as diff.c does
            self.assertAlmostEqual(z, z_score(DIFF_A[fn], na, DIFF_B[fn],
                                              nb), delta=0.006, msg=fn)
        flagged = {fn: (r[4], r[3]) for fn, r in rows.items()
                   if r[4] != '-'}
        self.assertEqual(set(flagged), {'hot_a', 'hot_b'}, rows)
        self.assertEqual(flagged['hot_a'][0], 'up')
        self.assertGreaterEqual(flagged['hot_a'][1], 3)
        self.assertEqual(flagged['hot_b'][0], 'down')
        self.assertLessEqual(flagged['hot_b'][1], -3)
        for fn in ('warm_1', 'warm_2', 'warm_3'):
            self.assertLess(abs(rows[fn][3]), 3)

    def test_a_file_against_itself_flags_nothing(self):
        rows = diff_rows(self.diff(self.a, self.a))
        self.assertEqual(set(rows), set(DIFF_A))
        for fn, r in rows.items():
            self.assertEqual((r[2], r[3], r[4]), (0.0, 0.0, '-'), fn)

    def test_dash_g_lists_stacks(self):
        text = self.diff('-g', self.a, self.b)
        rows = diff_rows(text)
        self.assertEqual(rows['app;main;hot_a'][4], 'up', text)
        self.assertEqual(rows['app;main;hot_b'][4], 'down', text)
        self.assertEqual(rows['app;main;warm_1'][4], '-', text)

    def svg(self, a, b, name):
        out = os.path.join(self.tmp, name)
        self.diff('--format', 'svg', '-o', out, a, b)
        return out

    def test_svg_red_where_it_grew_blue_where_it_shrank(self):
        root, nodes = svg_nodes(self.svg(self.a, self.b, 'diff.svg'))
        self.assertEqual(root.get('data-diff'), '1')
        title = root.find(f'.//{SVG_NS}text[@id="title"]').text
        self.assertTrue(title.startswith('Differential Flame Graph'), title)
        note = root.find(f'.//{SVG_NS}text[@id="note"]').text
        self.assertIn('red: grew, blue: shrank, |z| >= 3; widths: the new '
                      'recording', note)
        for _, g, _ in nodes:
            float(g.get('data-z'))
            int(g.get('data-base'))
        na, nb = sum(DIFF_A.values()), sum(DIFF_B.values())
        main = ['all', 'app', 'main']
        for fn in DIFF_A:
            g = node(nodes, main + [fn])
            self.assertEqual(int(g.get('data-base')), DIFF_A[fn])
            self.assertEqual(int(g.get('data-samples')), DIFF_B[fn])
            z = z_score(DIFF_A[fn], na, DIFF_B[fn], nb)
            self.assertAlmostEqual(float(g.get('data-z')), z, delta=0.006)
            self.assertRegex(g.get('data-z'), r'^-?\d+\.\d\d$')
        hot_a = fill(node(nodes, main + ['hot_a']))
        hot_b = fill(node(nodes, main + ['hot_b']))
        self.assertGreater(hot_a[0], hot_a[2] + 50, f'hot_a {hot_a}')
        self.assertGreater(hot_b[2], hot_b[0] + 50, f'hot_b {hot_b}')
        for names in (main, main + ['warm_1'], ['all', 'app']):
            c = fill(node(nodes, names))
            self.assertEqual(c[0], c[1], f'{names}: {c} not grey')
            self.assertEqual(c[1], c[2], f'{names}: {c} not grey')
        # widths: the new recording's samples
        wa = float(node(nodes, main + ['hot_a']).find(SVG_NS + 'rect')
                   .get('width'))
        wb = float(node(nodes, main + ['hot_b']).find(SVG_NS + 'rect')
                   .get('width'))
        self.assertAlmostEqual(wa / wb, 2.0, delta=0.01)
        tip = node(nodes, main + ['hot_a']).find(SVG_NS + 'title').text
        self.assertIn('baseline 34.48% (200 samples), new 46.67% '
                      '(280 samples)', tip)
        self.assertIn('+12.18 points, z +', tip)

    def test_svg_of_a_function_only_in_the_baseline(self):
        root, nodes = svg_nodes(self.svg(self.a, self.c, 'gone.svg'))
        self.assertEqual(root.get('data-gone'), '1')
        self.assertNotIn(['all', 'app', 'main', 'warm_3'],
                         [p for p, _, _ in nodes])
        note = root.find(f'.//{SVG_NS}text[@id="note"]').text
        self.assertIn('1 frame only in the baseline not drawn', note)
        main = node(nodes, ['all', 'app', 'main'])
        self.assertEqual(int(main.get('data-base')), sum(DIFF_A.values()))

    def test_svg_opens_in_a_browser(self):
        te.check_browser(self, self.svg(self.a, self.b, 'diff.svg'),
                         self.tmp)


def setUpModule():
    tc.setUpModule()


def tearDownModule():
    tc.tearDownModule()


if __name__ == '__main__':
    if sys.argv[1:] == ['--tap']:
        sys.exit(tc.tap_main(sys.modules[__name__]))
    unittest.main()
