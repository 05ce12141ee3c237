#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of perf-counter's call chains, with no kernel.

Builds the tool for the host, compiles a small program (main calls a
or b, each calls leaf) with and without frame pointers, writes record
files by hand whose samples carry chains through its functions, and
checks what report prints: Children and Self, the trees, the chains'
quality line, --no-children, the frame-pointer warning, a file in the
other byte order, and a version 2 file without chains (the flat
report). record's --call-graph refusals need no kernel either.

Run: python3 test_callchain.py [-v]     (unittest's own output)
     python3 test_callchain.py --tap    (KTAP, one line per test, for
                                         harness/host-tests.sh)
"""
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))

PERF_RECORD_IRQ, PERF_RECORD_TID, PERF_RECORD_TIME = 1, 4, 8
PERF_RECORD_CALLCHAIN = 32
CONTEXT_USER = (1 << 64) - 512
COMPLETE, TRUNCATED, BROKEN = 1, 2, 3
PID = 4242
BASE = 0x555555554000           # where the program is "mapped"
X86 = platform.machine() in ('x86_64', 'i386', 'i686')

# leaf keeps an array on the stack: gcc 12 gives a leaf function that
# needs no stack no frame, even with -mno-omit-leaf-frame-pointer
PROGRAM = r'''
volatile int sink;

void leaf(void)
{
	volatile int x[4];

	x[sink & 3] = 3;
	sink += x[1];
}

void a(void) { leaf(); sink += 1; }
void b(void) { leaf(); sink += 2; }

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5)
		a();
	else
		b();
	return 0;
}
'''

# 72 + 3 chains leaf <- a <- main, 24 + 1 leaf <- b <- main: leaf's self
# share is 100%, a's children 75%, b's 25%, main's 100%; 96% of the
# chains complete, 3% truncated, 1% broken
CHAINS = [('a', COMPLETE, 72), ('a', TRUNCATED, 3),
          ('b', COMPLETE, 24), ('b', BROKEN, 1)]

state = {}


def setUpModule():
    tmp = tempfile.mkdtemp(prefix='pc-callchain-')
    state['tmp'] = tmp
    hdr = os.path.join(tmp, 'hdr', 'linux')
    os.makedirs(hdr)
    # the tool against this tree's ABI header alone; the rest is libc's
    shutil.copy(os.path.join(TOP, 'include', 'uapi', 'linux',
                             'perf_counter.h'), hdr)
    out = os.path.join(tmp, 'tool')
    make = subprocess.run(['make', '-s', '-C', HERE, 'CC=gcc',
                           'HDR=' + os.path.join(tmp, 'hdr'), 'OUT=' + out],
                          capture_output=True, text=True)
    if make.returncode:
        raise RuntimeError('building perf-counter failed:\n' +
                           make.stdout + make.stderr)
    state['tool'] = os.path.join(out, 'perf-counter')
    src = os.path.join(tmp, 'prog.c')
    with open(src, 'w') as f:
        f.write(PROGRAM)
    # a leaf function without a frame loses its caller from the chain
    # as any other function does
    leaf = ['-mno-omit-leaf-frame-pointer'] if X86 else []
    for name, fp in (('prog_fp', ['-fno-omit-frame-pointer'] + leaf),
                     ('prog_nofp', ['-fomit-frame-pointer'])):
        path = os.path.join(tmp, name)
        cc = subprocess.run(['gcc', '-O2', '-fno-inline'] + fp +
                            ['-o', path, src], capture_output=True,
                            text=True)
        if cc.returncode:
            raise RuntimeError(f'gcc {fp} failed:\n{cc.stderr}')
        state[name] = path


def tearDownModule():
    if 'tmp' in state:
        shutil.rmtree(state['tmp'])


def symbols(path):
    """{name: (address, size)} of the program's functions (nm)."""
    nm = subprocess.run(['nm', '-S', '--defined-only', path],
                        capture_output=True, text=True, check=True)
    syms = {}
    for line in nm.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'tT':
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


def loads(path):
    """The PT_LOAD program headers of an ELF64 file: (offset, vaddr,
    filesz)."""
    with open(path, 'rb') as f:
        data = f.read()
    e = '<' if data[5] == 1 else '>'
    phoff, = struct.unpack_from(e + 'Q', data, 32)
    phentsize, phnum = struct.unpack_from(e + 'HH', data, 54)
    segs = []
    for i in range(phnum):
        p_type, _, off, vaddr, _, filesz = struct.unpack_from(
            e + 'IIQQQQ', data, phoff + i * phentsize)
        if p_type == 1:
            segs.append((off, vaddr, filesz))
    return segs


class Program:
    """A compiled program as if mapped at BASE: the run-time address of a
    point inside each function."""

    def __init__(self, path):
        self.path = path
        self.syms = symbols(path)
        self.segs = loads(path)

    def at(self, name, into=1):
        addr, size = self.syms[name]
        into = min(into, max(size - 1, 0))
        for off, vaddr, filesz in self.segs:
            if vaddr <= addr < vaddr + filesz:
                return BASE + addr - vaddr + off + into
        raise KeyError(name)


def item(e, kind, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack(e + 'II', kind, 8 + len(body)) + body


def record_file(path, prog, chains=True, order='<', extra=()):
    """A record file of CHAINS through @prog, as record -g writes one;
    without @chains, as record wrote one before chains."""
    e = order
    rtype = PERF_RECORD_IRQ | PERF_RECORD_TID | PERF_RECORD_TIME
    if chains:
        rtype |= PERF_RECORD_CALLCHAIN
    out = b'PCRECORD' + struct.pack(e + 'II', 2, 0x01020304)
    out += item(e, 1, struct.pack(e + 'QQQQII', 1, 1000000, rtype, 0, 0,
                                  0) + b'task-clock:u\0')
    out += item(e, 2, prog.path.encode() + b'\0prog\0')
    leaf = prog.at('leaf')
    t = 1
    for caller, flags, n in list(CHAINS) + list(extra):
        words = [CONTEXT_USER, leaf, prog.at(caller, 9), prog.at('main', 9)]
        for _ in range(n):
            body = struct.pack(e + 'QIIQ', leaf, PID, PID, t)
            if chains:
                body += struct.pack(e + 'II', len(words), flags)
                body += struct.pack(e + f'{len(words)}Q', *words)
            out += item(e, 4, body)
            t += 1
    st = os.stat(prog.path)
    out += item(e, 3, struct.pack(e + 'IIQQQQQ', PID, 0, BASE,
                                  BASE + 0x100000, 0, st.st_dev,
                                  st.st_ino) + prog.path.encode() + b'\0')
    with open(path, 'wb') as f:
        f.write(out)
    return path


def block(out, first):
    """The lines from the one starting with @first to the next blank."""
    lines = out.split('\n')
    for i, line in enumerate(lines):
        if line.startswith(first):
            end = lines.index('', i)
            return lines[i:end]
    raise AssertionError(f'no line starting {first!r} in:\n{out}')


def entry(name, children, self_, samples, dso='prog_fp'):
    return (f'  {children:7.2f}% {self_:7.2f}% {samples:8d}  '
            f'{dso:<20s} [.] {name}')


class ReportTest(unittest.TestCase):
    def report(self, path, *args, status=0):
        r = subprocess.run([state['tool'], 'report', '-i', path] +
                           list(args), capture_output=True, text=True)
        self.assertEqual(r.returncode, status, r.stdout + r.stderr)
        return r.stdout

    def data(self, name='fp.data', prog='prog_fp', **kw):
        return record_file(os.path.join(state['tmp'], name),
                           Program(state[prog]), **kw)


class Children(ReportTest):
    """The default with chains: Children, Self, trees from the caller."""

    def test_children_and_self_shares(self):
        out = self.report(self.data())
        self.assertIn('# Children     Self  Samples  DSO', out)
        lines = [ln for ln in out.split('\n') if ln.startswith('  ')
                 and '[.]' in ln]
        # equal children: the caller first
        self.assertEqual(lines, [entry('main', 100, 0, 100),
                                 entry('leaf', 100, 100, 100),
                                 entry('a', 75, 0, 75),
                                 entry('b', 25, 0, 25)])

    def test_caller_tree_of_main(self):
        out = self.report(self.data())
        self.assertEqual(block(out, entry('main', 100, 0, 100)), [
            entry('main', 100, 0, 100),
            '            |',
            '            ---main',
            '               |',
            '               |--75.00%--a',
            '               |          leaf',
            '               |',
            '                --25.00%--b',
            '                          leaf'])

    def test_leaf_shows_whole_chains_and_a_its_callees(self):
        out = self.report(self.data())
        self.assertEqual(block(out, entry('leaf', 100, 100, 100))[1:], [
            '            |',
            '            ---main',
            '               |',
            '               |--75.00%--a',
            '               |          leaf',
            '               |',
            '                --25.00%--b',
            '                          leaf'])
        self.assertEqual(block(out, entry('a', 75, 0, 75))[1:], [
            '            |',
            '            ---a',
            '               leaf'])

    def test_markers_are_no_symbols(self):
        out = self.report(self.data())
        self.assertNotIn('0xfffffffffffffe00', out)
        self.assertNotIn('[unknown]', out)

    def test_quality_line(self):
        out = self.report(self.data())
        self.assertIn('\n# call chains: 96.0% complete, 3.0% truncated, '
                      '1.0% broken\n', out)

    def test_lines_limit_and_no_trees(self):
        out = self.report(self.data(), '-n', '1', '--call-graph', 'none')
        self.assertEqual([ln for ln in out.split('\n')
                          if ln and not ln.startswith('#')],
                         [entry('main', 100, 0, 100)])

    def test_fractal_and_threshold(self):
        # b's 25% is under a 30% threshold: hidden
        out = self.report(self.data(), '--call-graph', 'fractal,30')
        tree = block(out, entry('main', 100, 0, 100))
        # the one branch left is the last: no pipe down the left
        self.assertEqual(tree[3:], ['               |',
                                    '                --75.00%--a',
                                    '                          leaf'])

    def test_other_byte_order(self):
        mine = self.report(self.data())
        other = self.report(self.data('be.data', order='>'))
        self.assertEqual(mine.split('\n')[2:], other.split('\n')[2:])


class NoChildren(ReportTest):
    """--no-children: Self alone, trees out to the callers."""

    def test_self_with_callers_below(self):
        out = self.report(self.data(), '--no-children')
        self.assertIn('# Overhead  Samples  DSO', out)
        self.assertNotIn('Children', out)
        self.assertEqual(block(out, '   100.00%      100  prog_fp'), [
            '   100.00%      100  prog_fp              [.] leaf',
            '            |',
            '            ---leaf',
            '               |',
            '               |--75.00%--a',
            '               |          main',
            '               |',
            '                --25.00%--b',
            '                          main'])
        lines = [ln for ln in out.split('\n') if '[.]' in ln]
        self.assertEqual(len(lines), 1, out)


class FramePointers(ReportTest):
    """x86: functions without push/mov of the frame pointer are named."""

    def setUp(self):
        if not X86:
            self.skipTest('the prologue check is of x86 code')

    def test_warning_names_functions_without_frames(self):
        out = self.report(self.data('nofp.data', prog='prog_nofp'))
        m = re.search(r'^# warning: (\d+) functions of prog_nofp without '
                      r'a frame-pointer prologue: (.*)$', out, re.M)
        self.assertIsNotNone(m, out)
        self.assertIn('leaf', m.group(2))
        self.assertIn('rebuild prog_nofp with -fno-omit-frame-pointer', out)

    def test_no_warning_with_frames(self):
        out = self.report(self.data())
        self.assertNotIn('warning', out)
        self.assertNotIn('frame-pointer', out)


class Compatible(ReportTest):
    """A version 2 file from before chains: the flat report, unchanged."""

    def test_flat_report_of_a_file_without_chains(self):
        out = self.report(self.data('flat.data', chains=False))
        self.assertNotIn('call chains', out)
        self.assertIn('# Overhead  Samples  DSO', out)
        self.assertIn('\n   100.00%      100  prog_fp              [.] leaf\n',
                      out)
        self.assertNotIn('|', out)

    def test_dash_g_on_a_file_without_chains(self):
        r = subprocess.run([state['tool'], 'report', '-g', '-i',
                            self.data('flat.data', chains=False)],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('no call chains', r.stderr)
        self.assertIn('[.] leaf', r.stdout)


class RecordOptions(unittest.TestCase):
    """record's --call-graph: refused before anything is opened."""

    def record(self, *args):
        return subprocess.run([state['tool'], 'record'] + list(args) +
                              ['-o', os.path.join(state['tmp'], 'x.data'),
                               'true'], capture_output=True, text=True)

    def test_dwarf_is_refused(self):
        r = self.record('--call-graph', 'dwarf')
        self.assertEqual(r.returncode, 1)
        self.assertIn('only fp or fp,DEPTH', r.stderr)

    def test_depth_range(self):
        r = self.record('--call-graph', 'fp,256')
        self.assertEqual(r.returncode, 1)
        self.assertIn('a number from 1 to 255', r.stderr)

    def test_help_names_the_options(self):
        for cmd, want in (('record', ('-g', '--call-graph fp[,DEPTH]')),
                          ('report', ('--no-children', '--children',
                                      '--call-graph'))):
            r = subprocess.run([state['tool'], cmd, '-h'],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0)
            for w in want:
                self.assertIn(w, r.stdout)


class TapResult(unittest.TestResult):
    """One KTAP line a test, with the reason of a failure before it."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def line(self, test, verdict, why='', directive=''):
        self.n += 1
        for text in why.rstrip().split('\n')[-12:] if why else []:
            print(f'# {text}')
        name = test.id().split('.', 1)[-1]
        print(f'{verdict} {self.n} {name}{directive}', flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, 'ok')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(test, 'not ok', self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        if isinstance(test, unittest.TestCase):
            self.line(test, 'not ok', self.errors[-1][1])
        else:
            # setUpModule failed: it says why, the tests then fail
            print('# ' + self.errors[-1][1].rstrip().replace('\n', '\n# '))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line(test, 'ok', directive=f' # SKIP {reason}')


def tap_main(module=None):
    """The tests of @module (this one by default) in KTAP; the exit
    status."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        module or sys.modules[__name__])
    tests = list(iter_tests(suite))
    print('TAP version 13')
    print(f'1..{len(tests)}')
    result = TapResult()
    suite.run(result)
    # a test setUpModule kept from running is a failure too
    for test in tests[result.n:]:
        result.line(test, 'not ok', 'not run: the module setup failed')
        result.failures.append((test, ''))
    return 0 if result.wasSuccessful() else 1


def iter_tests(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from iter_tests(t)
        else:
            yield t


if __name__ == '__main__':
    if sys.argv[1:] == ['--tap']:
        sys.exit(tap_main())
    unittest.main()
