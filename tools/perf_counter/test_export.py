#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of perf-counter report --format and of portable record files.

On the host (no kernel), with test_callchain.py's program and record
files written by hand: each export format (folded, speedscope, pprof,
svg, svg --inverted) holds what the samples say; an SVG opens in a
real browser (headless chromium) with no script error and draws
something; a record file's own symbols (DSO and KSYMS items) name its
samples with no ELF file, and a file at the same path with another
build-id is told; and a bounded fuzz of hostile record files through
report built with AddressSanitizer and UBSan: a clear error or escaped
output, never a crash.

With --guest LOG...: the files tool_test's
record_g_exports_every_format_and_a_portable_file printed on each
test boot's console (PC-ARTIFACT ... PC-ARTIFACT-END, base64 with a
CRC-32) are checked the same way, with chain_test's functions, and the
host-built tool reports each guest's record file, of whatever byte
order and word size, to the table the guest printed; and the stat -j
output of stat_j_prints_a_json_object_a_line (a plain run, -I and
--per-thread) is parsed line by line and checked against the schema of
Documentation/perf_counter/tool.rst.

Run: python3 test_export.py [-v]          (unittest's own output)
     python3 test_export.py --tap         (KTAP, for harness/host-tests.sh)
     python3 test_export.py --tap --guest LOG...   (harness/artifacts.sh)
"""
import base64
import gzip
import json
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
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_callchain as tc  # noqa: E402  (its program and record files)

SVG_NS = '{http://www.w3.org/2000/svg}'
PC_ITEM_HOST, PC_ITEM_DSO, PC_ITEM_KSYMS = 11, 12, 13
FUZZ_SECONDS = 25           # the hostile-file fuzz's bound
GUEST_LOGS = []             # --guest: the console logs


def chromium():
    """The browser's path, or None."""
    for name in ('chromium', 'chromium-browser'):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(args, **kw):
    return subprocess.run(args, capture_output=True, **kw)


# -- the formats' checks, for the host's files and the guests' -------------

def folded_lines(text):
    """[(frames, count)] of a folded file; each line checked."""
    out = []
    for line in text.splitlines():
        stack, _, count = line.rpartition(' ')
        if not stack or not count.isdigit():
            raise AssertionError(f'not a folded line: {line!r}')
        out.append((stack.split(';'), int(count)))
    return out


def check_folded(t, text, total, heavy):
    """@text's counts sum to @total; its heaviest line ends with @heavy
    (outermost first); no stack is written twice."""
    lines = folded_lines(text)
    t.assertEqual(sum(c for _, c in lines), total)
    stacks = [';'.join(s) for s, _ in lines]
    t.assertEqual(len(stacks), len(set(stacks)), 'a stack twice')
    top = max(lines, key=lambda x: x[1])[0]
    t.assertEqual(top[-len(heavy):], heavy, f'heaviest: {top}')


def check_speedscope(t, text, total, names):
    """The schema's rules: a file format, shared frames, sampled profiles
    whose frame indices are in range, as many weights as samples, the
    weights summing to @total; @names among the frames."""
    doc = json.loads(text)
    t.assertEqual(doc['$schema'],
                  'https://www.speedscope.app/file-format-schema.json')
    frames = doc['shared']['frames']
    t.assertTrue(all(isinstance(f['name'], str) for f in frames))
    t.assertTrue(set(names) <= {f['name'] for f in frames})
    t.assertGreaterEqual(len(doc['profiles']), 1)
    t.assertLess(doc.get('activeProfileIndex', 0), len(doc['profiles']))
    weight = 0
    for p in doc['profiles']:
        t.assertEqual(p['type'], 'sampled')
        t.assertIn(p['unit'], ('none', 'nanoseconds', 'microseconds',
                               'milliseconds', 'seconds', 'bytes'))
        t.assertEqual(len(p['samples']), len(p['weights']))
        for s in p['samples']:
            t.assertTrue(all(isinstance(i, int) and 0 <= i < len(frames)
                             for i in s), s)
        t.assertEqual(p['endValue'] - p['startValue'], sum(p['weights']))
        weight += sum(p['weights'])
    t.assertEqual(weight, total)


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """[(number, wire type, value)] of a protobuf message."""
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise AssertionError(f'wire type {wt}')
        out.append((num, wt, v))
    return out


def packed(v, wt):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def check_pprof(t, data, samples, total, names):
    """gzip, then profile.proto as protoc --decode_raw reads it; sample
    values summing to @samples and @total (its first event's pair),
    every location and function referred to there, @names among the
    functions."""
    raw = gzip.decompress(data)
    if shutil.which('protoc'):
        p = run(['protoc', '--decode_raw'], input=raw)
        t.assertEqual(p.returncode, 0, p.stderr.decode(errors='replace'))
    else:
        t.fail('no protoc: make deps installs protobuf-compiler')
    top = fields(raw)
    strings = [v.decode() for n, wt, v in top if n == 6]
    t.assertEqual(strings[0], '')
    funcs, locs = {}, {}
    for n, wt, v in top:
        if n == 5:
            f = {k: x for k, _, x in fields(v)}
            funcs[f[1]] = strings[f.get(2, 0)]
        elif n == 4:
            f = fields(v)
            lid = [x for k, _, x in f if k == 1][0]
            lines = [dict((k, x) for k, _, x in fields(x))
                     for k, _, x in f if k == 4]
            locs[lid] = [ln[1] for ln in lines]
    sums = None
    for n, wt, v in top:
        if n != 2:
            continue
        ids, vals = [], []
        for k, w, x in fields(v):
            if k == 1:
                ids += packed(x, w)
            elif k == 2:
                vals += packed(x, w)
        t.assertTrue(ids and all(i in locs for i in ids))
        sums = [a + b for a, b in zip(sums, vals)] if sums else vals
    for fs in locs.values():
        t.assertTrue(all(f in funcs for f in fs))
    t.assertEqual(sums[:2], [samples, total])
    t.assertTrue(set(names) <= set(funcs.values()),
                 f'{names} not in {sorted(funcs.values())[:40]}')


def svg_frames(path):
    """[(path of names from the root, width, g)] of an SVG's frames, from
    their pre-order and data-depth."""
    root = ET.parse(path).getroot()
    t = []
    stack = []
    for g in root.iter(SVG_NS + 'g'):
        if g.get('class') != 'f':
            continue
        depth = int(g.get('data-depth'))
        name = g.find(SVG_NS + 'title').text.split('\n')[0]
        del stack[depth:]
        stack.append(name)
        width = float(g.find(SVG_NS + 'rect').get('width'))
        t.append((list(stack), width, g))
    return root, t


def width_of(frames, tail):
    return sum(w for p, w, _ in frames if p[-len(tail):] == tail)


def check_svg(t, path, a, b, ratio, inverted=False):
    """Well-formed; the frame @a (a path's tail) wider than @b by @ratio
    +-10%; --inverted has the leaf functions at depth 1."""
    root, frames = svg_frames(path)
    t.assertEqual(root.get('data-inverted'), '1' if inverted else '0')
    wa, wb = width_of(frames, a), width_of(frames, b)
    t.assertGreater(wb, 0, f'no frame {b}')
    t.assertLess(abs(wa / wb / ratio - 1), 0.10,
                 f'{a}: {wa:.1f} px, {b}: {wb:.1f} px, not {ratio:.2f}:1')


def check_browser(t, path, tmp):
    """chromium opens it headless: its script ends (data-ready) with no
    error, and a screenshot is not blank."""
    exe = chromium()
    t.assertIsNotNone(exe, 'no chromium: make deps installs it')
    url = 'file://' + os.path.abspath(path)
    # root in a container: no sandbox, and /dev/shm may be small
    base = [exe, '--headless=new', '--no-sandbox', '--disable-gpu',
            '--disable-dev-shm-usage',
            '--user-data-dir=' + tempfile.mkdtemp(dir=tmp)]
    p = run(base + ['--enable-logging=stderr', '--v=0', '--dump-dom', url],
            timeout=120)
    err = p.stderr.decode(errors='replace')
    t.assertNotIn('Uncaught', err)
    t.assertIn('data-ready="1"', p.stdout.decode(errors='replace'))
    png = os.path.join(tmp, os.path.basename(path) + '.png')
    p = run(base + ['--screenshot=' + png, '--window-size=1200,800', url],
            timeout=120)
    t.assertEqual(p.returncode, 0, p.stderr.decode(errors='replace')[-500:])
    t.assertGreater(png_colours(png), 20, 'a blank screenshot')


def png_colours(path):
    """How many distinct pixels a PNG (8-bit RGB or RGBA) has."""
    with open(path, 'rb') as f:
        data = f.read()
    i, idat, w = 8, b'', 0
    while i < len(data):
        n, kind = struct.unpack_from('>I4s', data, i)
        chunk = data[i + 8:i + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack_from('>IIBB', chunk)
            bpp = {2: 3, 6: 4}[ctype]
        elif kind == b'IDAT':
            idat += chunk
        i += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        if y % 8 == 0:
            for x in range(0, stride, bpp * 4):
                seen.add(bytes(line[x:x + 3]))
        prev = line
    return len(seen)


# -- the host's files ------------------------------------------------------

def setUpModule():
    tc.setUpModule()
    tc.state['prog'] = tc.Program(tc.state['prog_fp'])


def tearDownModule():
    tc.tearDownModule()


def tool(*args):
    return run([tc.state['tool']] + list(args), text=True)


def dso_item(e, path, syms, build_id=b'', loads=(), dev=0, ino=0):
    """A DSO item: @syms [(addr, size, name)] of the file at @path."""
    names = path.encode() + b'\0'
    body = b''
    for off, vaddr, filesz in loads:
        body += struct.pack(e + 'QQQ', off, vaddr, filesz)
    for addr, size, name in syms:
        body += struct.pack(e + 'QQIi', addr, size, len(names), -1)
        names += name + b'\0'
    head = struct.pack(e + 'QQIIII', dev, ino, len(loads), len(syms),
                       len(names), len(build_id))
    head += build_id.ljust(32, b'\0')
    return tc.item(e, PC_ITEM_DSO, head + body + names)


def portable_file(path, prog, e='<', build_id=b'\x12\x34', names=None):
    """test_callchain's record file of @prog, and the DSO item record
    would append: its symbols (leaf, a, b, main), by other names (bytes)
    if @names maps them."""
    tc.record_file(path, prog, order=e)
    st = os.stat(prog.path)
    syms = [(prog.syms[n][0], prog.syms[n][1],
             (names or {}).get(n, n.encode()))
            for n in ('leaf', 'a', 'b', 'main')]
    with open(path, 'ab') as f:
        f.write(tc.item(e, PC_ITEM_HOST, b'\0' * 128))
        f.write(dso_item(e, prog.path, syms, build_id, prog.segs,
                         st.st_dev, st.st_ino))
    return path


def v4_file(path, prog, e='<'):
    """A version 4 file as record writes one: EVENT and COMMAND, the
    task's COMM and KMMAP, then SAMPLEs with periods and chains, a FORK
    and an EXIT, in time order; then the portable items."""
    rtype = tc.PERF_RECORD_IRQ | tc.PERF_RECORD_TID | \
        tc.PERF_RECORD_TIME | tc.PERF_RECORD_CALLCHAIN | 256
    out = b'PCRECORD' + struct.pack(e + 'II', 4, 0x01020304)
    out += tc.item(e, 1, struct.pack(e + 'QQQQII', 1, 0, rtype, 0, 0,
                                     1000) + b'task-clock:u\0')
    out += tc.item(e, 2, prog.path.encode() + b'\0prog\0')
    pid = tc.PID
    out += tc.item(e, 7, struct.pack(e + 'IIQII', pid, pid, 0, 1, 0) +
                   b'prog'.ljust(16, b'\0'))
    st = os.stat(prog.path)
    out += tc.item(e, 6, struct.pack(e + 'IIQQQQQQII', pid, pid, 0,
                                     tc.BASE, 0x100000, 0, st.st_dev,
                                     st.st_ino, 5, 0) +
                   prog.path.encode() + b'\0')
    t = 10
    leaf = prog.at('leaf')
    for caller, flags, n in tc.CHAINS:
        words = [tc.CONTEXT_USER, leaf, prog.at(caller, 9),
                 prog.at('main', 9)]
        for _ in range(n):
            body = struct.pack(e + 'QIIQIiQ', leaf, pid, pid, t, 0, -1,
                               1000 + t)
            body += struct.pack(e + 'II', len(words), flags)
            body += struct.pack(e + f'{len(words)}Q', *words)
            out += tc.item(e, 4, body)
            t += 1
    out += tc.item(e, 8, struct.pack(e + 'IIQII', pid + 1, pid + 1, t,
                                     pid, pid))
    out += tc.item(e, 9, struct.pack(e + 'IIQII', pid + 1, pid + 1,
                                     t + 1, pid, pid))
    with open(path, 'wb') as f:
        f.write(out)
    syms = [(prog.syms[n][0], prog.syms[n][1], n.encode())
            for n in ('leaf', 'a', 'b', 'main')]
    with open(path, 'ab') as f:
        f.write(tc.item(e, PC_ITEM_HOST, b'\0' * 128))
        f.write(dso_item(e, prog.path, syms, b'\x12\x34', prog.segs,
                         st.st_dev, st.st_ino))
    return path


class Formats(unittest.TestCase):
    """Each format of test_callchain's 75 chains through a, 25 through
    b (version 2: each sample weighs 1)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tc.state['tmp']
        cls.data = tc.record_file(os.path.join(cls.tmp, 'f.data'),
                                  tc.state['prog'])

    def export(self, fmt, *more):
        out = os.path.join(self.tmp, 'out.' + fmt)
        p = tool('report', '-i', self.data, '--format', fmt, '-o', out,
                 *more)
        self.assertEqual(p.returncode, 0, p.stderr)
        return out

    def test_folded_sums_to_the_samples_heaviest_main_a_leaf(self):
        with open(self.export('folded')) as f:
            check_folded(self, f.read(), 100, ['main', 'a', 'leaf'])

    def test_speedscope_follows_the_schema(self):
        with open(self.export('speedscope')) as f:
            check_speedscope(self, f.read(), 100, ['leaf', 'a', 'b', 'main'])

    def test_pprof_decodes_with_protoc(self):
        with open(self.export('pprof'), 'rb') as f:
            check_pprof(self, f.read(), 100, 100, ['leaf', 'a', 'b', 'main'])

    def test_svg_main_a_leaf_three_times_main_b_leaf(self):
        check_svg(self, self.export('svg'), ['main', 'a', 'leaf'],
                  ['main', 'b', 'leaf'], 3.0)

    def test_svg_inverted_puts_the_leaf_first(self):
        out = self.export('svg', '--inverted')
        check_svg(self, out, ['leaf', 'a', 'main'], ['leaf', 'b', 'main'],
                  3.0, inverted=True)
        _, frames = svg_frames(out)
        self.assertEqual([p for p, _, _ in frames if len(p) == 2],
                         [['all', 'leaf']])

    def test_svg_opens_in_a_browser_without_error(self):
        check_browser(self, self.export('svg'), self.tmp)

    def test_stdout_and_refusals(self):
        p = tool('report', '-i', self.data, '--format', 'folded')
        self.assertEqual(p.returncode, 0)
        self.assertIn(';main;a;leaf 75', p.stdout)
        p = tool('report', '-i', self.data, '--format', 'perl')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('folded, speedscope, pprof or svg', p.stderr)
        p = tool('report', '-i', self.data, '--inverted')
        self.assertNotEqual(p.returncode, 0)


class Portable(unittest.TestCase):
    """A file's own symbols name its samples, with no ELF file."""

    def setUp(self):
        self.tmp = tc.state['tmp']

    def test_symbols_in_the_file_name_samples_without_the_elf(self):
        prog = tc.state['prog']
        # other names than the ELF file's: the file's are used
        path = portable_file(os.path.join(self.tmp, 'p.data'), prog,
                             names={'leaf': b'leaf_rec', 'a': b'a_rec'})
        for e in ('<', '>'):
            path = portable_file(os.path.join(self.tmp, 'p.data'), prog,
                                 e=e, names={'leaf': b'leaf_rec',
                                             'a': b'a_rec'})
            p = tool('report', '-i', path, '--no-children')
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn('leaf_rec', p.stdout)
            self.assertIn('a_rec', p.stdout)
            self.assertIn('here has build-id', p.stderr)

    def test_same_build_id_is_quiet(self):
        prog = tc.state['prog']
        nt = run(['readelf', '-n', prog.path], text=True).stdout
        m = re.search(r'Build ID: ([0-9a-f]+)', nt)
        if not m:
            self.skipTest('gcc wrote no build-id')
        path = portable_file(os.path.join(self.tmp, 'q.data'), prog,
                             build_id=bytes.fromhex(m.group(1)))
        p = tool('report', '-i', path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn('build-id', p.stderr)

    def test_another_boot_without_kernel_symbols_names_no_kernel(self):
        prog = tc.state['prog']
        path = portable_file(os.path.join(self.tmp, 'k.data'), prog)
        p = tool('report', '-i', path)
        self.assertIn('recorded in another boot', p.stdout)


# -- hostile files through report under ASan and UBSan ----------------------

class Hostile(unittest.TestCase):
    """Truncations, flipped bytes, wrong counts and offsets, huge tables,
    names of control characters and SVG/JSON metacharacters: report (its
    table, -D and every format) ends with 0 or a message, never a
    sanitizer's report; what it writes parses."""

    @classmethod
    def setUpClass(cls):
        tmp = tc.state['tmp']
        cls.tmp = tmp
        out = os.path.join(tmp, 'asan')
        flags = '-O1 -g -fsanitize=address,undefined ' \
                '-fno-sanitize-recover=all -fno-omit-frame-pointer'
        make = run(['make', '-s', '-C', HERE, 'CC=gcc', 'LDFLAGS=' + flags,
                    'CFLAGS=' + flags, 'HDR=' + os.path.join(tmp, 'hdr'),
                    'OUT=' + out], text=True)
        if make.returncode:
            raise RuntimeError('the sanitizer build failed:\n' +
                               make.stdout + make.stderr)
        cls.tool = os.path.join(out, 'perf-counter')
        prog = tc.state['prog']
        evil = b'<&"\'>]]>;\x01\x1b[31m\xff\xfe' + b'x' * 300
        # the busiest function named with every metacharacter
        cls.seed = portable_file(os.path.join(tmp, 'seed.data'), prog,
                                 names={'leaf': evil})
        with open(cls.seed, 'ab') as f:
            f.write(tc.item('<', PC_ITEM_KSYMS, struct.pack(
                '<QII', 0xffffffff80000000, 1, 6) +
                struct.pack('<QQIi', 0xffffffff80000000, 64, 0, -1) +
                b'k_fn\0\0'))
            f.write(dso_item('<', '/no/such/' + 'evil', [(0x1000, 16,
                                                          evil)]))
        with open(cls.seed, 'rb') as f:
            cls.seeds = [f.read()]
        # and version 4, replayed in time order, both byte orders
        for e in ('<', '>'):
            with open(v4_file(os.path.join(tmp, 'v4.data'), prog, e),
                      'rb') as f:
                cls.seeds.append(f.read())

    def report(self, data, args):
        path = os.path.join(self.tmp, 'h.data')
        with open(path, 'wb') as f:
            f.write(data)
        env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0:exitcode=99',
                   UBSAN_OPTIONS='halt_on_error=1:exitcode=98')
        p = run([self.tool, 'report', '-i', path] + args, env=env,
                timeout=60)
        err = p.stderr.decode(errors='replace')
        why = f'{args}: status {p.returncode}\n{err[-2000:]}'
        self.assertIn(p.returncode, (0, 1), why)
        self.assertNotIn('Sanitizer', err, why)
        self.assertNotIn('runtime error', err, why)
        if p.returncode == 1:
            self.assertTrue(err.strip(), 'an error without a message')
        return p

    def mutants(self, rng):
        s = rng.choice(self.seeds)
        yield s[:rng.randrange(len(s))]
        b = bytearray(s)
        for _ in range(rng.randrange(1, 8)):
            b[rng.randrange(16, len(b))] = rng.randrange(256)
        yield bytes(b)
        # a count or offset field made huge or off by a little
        b = bytearray(s)
        at = rng.randrange(16, len(b) - 4) & ~3
        struct.pack_into('<I', b, at, rng.choice(
            (0xffffffff, 0x7fffffff, 0x10000, struct.unpack_from(
                '<I', b, at)[0] + rng.choice((-1, 1, 8)) & 0xffffffff)))
        yield bytes(b)

    def test_every_mutant_is_refused_or_read_safely(self):
        rng = random.Random(0x5eed)
        formats = [[], ['-D'], ['-g'], ['--format', 'folded'],
                   ['--format', 'speedscope'], ['--format', 'pprof'],
                   ['--format', 'svg'], ['--format', 'svg', '--inverted']]
        for seed in self.seeds:
            p = self.report(seed, ['--format', 'svg'])
            self.assertEqual(p.returncode, 0)
            ET.fromstring(p.stdout)
            p = self.report(seed, ['--format', 'speedscope'])
            json.loads(p.stdout)
            p = self.report(seed, ['--no-children'])
            self.assertIn(b'main', p.stdout)
        end, runs = time.monotonic() + FUZZ_SECONDS, 0
        while time.monotonic() < end:
            for data in self.mutants(rng):
                args = rng.choice(formats)
                p = self.report(data, args)
                runs += 1
                if p.returncode or not args[1:2]:
                    continue
                if args[1] == 'svg':
                    ET.fromstring(p.stdout)
                elif args[1] == 'speedscope':
                    json.loads(p.stdout)
                elif args[1] == 'pprof':
                    raw = gzip.decompress(p.stdout)
                    fields(raw)
                    [v.decode() for n, _, v in fields(raw) if n == 6]
        print(f'# {runs} hostile files read', flush=True)
        self.assertGreater(runs, 50)


# -- stat -j: the schema of Documentation/perf_counter/tool.rst -----------

NUMBER = (int, float)
# a count object's keys, in the order they come, and their types
STAT_COUNT = {
    'interval': NUMBER, 'thread': (str,), 'pid': (int,), 'tid': (int,),
    'counter-value': NUMBER + (str,), 'unit': (str,), 'event': (str,),
    'event-runtime': (int,), 'pcnt-running': NUMBER, 'variance': NUMBER,
    'metric-value': NUMBER, 'metric-unit': (str,),
}
STAT_COUNT_ALWAYS = ('counter-value', 'unit', 'event', 'event-runtime',
                     'pcnt-running')
# the run's object
STAT_RUN = {
    'target': (str,), 'runs': (int,), 'seconds-time-elapsed': NUMBER,
    'variance': NUMBER, 'intervals': (int,), 'threads': (int,),
    'lost': (int,),
}
STAT_RUN_ALWAYS = ('target', 'runs', 'seconds-time-elapsed')
STAT_NOT_THERE = ('<not supported>', '<not counted>')


def check_keys(t, obj, schema, always, line):
    """@obj has @always, no key @schema has not, in @schema's order,
    each of its type (a bool is no number)."""
    keys = list(obj)
    t.assertEqual([k for k in schema if k in obj], keys,
                  f'unknown keys or out of order: {line}')
    for k in always:
        t.assertIn(k, obj, line)
    for k, v in obj.items():
        t.assertTrue(isinstance(v, schema[k]) and not isinstance(v, bool),
                     f'{k} is {type(v).__name__}: {line}')


def check_count(t, obj, mode, line):
    """One count object of stat -j in @mode ('plain', 'interval',
    'thread')."""
    check_keys(t, obj, STAT_COUNT, STAT_COUNT_ALWAYS, line)
    value = obj['counter-value']
    if isinstance(value, str):
        t.assertIn(value, STAT_NOT_THERE, line)
        t.assertNotIn('metric-value', obj, line)
    else:
        t.assertGreaterEqual(value, 0, line)
    t.assertIn(obj['unit'], ('msec', ''), line)
    t.assertEqual('metric-value' in obj, 'metric-unit' in obj, line)
    t.assertGreaterEqual(obj['event-runtime'], 0, line)
    t.assertTrue(0 <= obj['pcnt-running'] <= 100, line)
    t.assertNotIn('variance', obj, line)       # one run each
    threaded = mode == 'thread'
    for k in ('thread', 'pid', 'tid'):
        t.assertEqual(k in obj, threaded, line)
    if threaded:
        t.assertTrue(obj['thread'].endswith(f'-{obj["tid"]}'), line)
    if mode != 'interval':
        t.assertNotIn('interval', obj, line)


def check_stat_json(t, text, mode):
    """stat -j's output: an object a line, the counts (an interval's
    all together and in time order, then the whole count's, one an
    event), the run's object last with the keys of @mode."""
    lines = text.splitlines()
    t.assertGreaterEqual(len(lines), 2)
    objs = []
    for line in lines:
        obj = json.loads(line)
        t.assertIsInstance(obj, dict, line)
        objs.append(obj)
    *counts, run = objs
    check_keys(t, run, STAT_RUN, STAT_RUN_ALWAYS, lines[-1])
    t.assertNotIn('event', run)
    t.assertEqual(run['runs'], 1)
    t.assertGreater(run['seconds-time-elapsed'], 0)
    for obj, line in zip(counts, lines):
        check_count(t, obj, mode, line)
    events = list(dict.fromkeys(o['event'] for o in counts))
    ticks = [o for o in counts if 'interval' in o]
    whole = counts[len(ticks):]
    t.assertEqual(counts[:len(ticks)], ticks, 'the intervals come first')
    t.assertEqual('intervals' in run, mode == 'interval')
    t.assertEqual('threads' in run and 'lost' in run, mode == 'thread')
    if mode == 'interval':
        times = list(dict.fromkeys(o['interval'] for o in ticks))
        t.assertEqual(times, sorted(times))
        t.assertEqual(run['intervals'], len(times))
        t.assertEqual([o['event'] for o in ticks], events * len(times))
        t.assertEqual([o['event'] for o in whole], events)
    elif mode == 'thread':
        threads = list(dict.fromkeys(o['thread'] for o in counts))
        t.assertEqual(run['threads'], len(threads))
        t.assertEqual(len(counts), len(threads) * len(events))
    else:
        t.assertEqual([o['event'] for o in counts], events)
    return objs


# -- the guests' files -----------------------------------------------------

ARTIFACT = re.compile(r'^PC-ARTIFACT (\S+) (\d+) ([0-9a-f]{8})$')


def artifacts(log):
    """{name: bytes} of a console log's artifacts, each checked against
    its size and CRC-32."""
    out, name, lines = {}, None, []
    with open(log, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = ARTIFACT.match(line)
            if m:
                name, size, crc, lines = m.group(1), int(m.group(2)), \
                    int(m.group(3), 16), []
            elif name and line == 'PC-ARTIFACT-END':
                data = base64.b64decode(''.join(lines))
                if len(data) != size or zlib.crc32(data) != crc:
                    raise AssertionError(f'{log}: {name} arrived damaged')
                out[name] = data
                name = None
            elif name and line.startswith('PCA:'):
                lines.append(line[4:])
    return out


def guest_where(log):
    parts = log.rsplit('/', 3)
    return parts[-3] if len(parts) >= 3 else log


def table(text):
    """A report's table: its counts line and rows, not the file's name."""
    return [ln for ln in text.splitlines()
            if ln.startswith('  ') or re.match(r'# \d+ samples', ln)]


def guest_tests():
    """A TestCase of each guest log's artifacts."""
    class Guest(unittest.TestCase):
        pass
    Guest.__qualname__ = 'Guest'

    def make(log):
        where = guest_where(log)

        def get(self):
            a = artifacts(log)
            if 'export.data' not in a:
                self.fail(f'{log}: no artifacts (tool_test did not print '
                          'them)')
            d = os.path.join(tc.state['tmp'], where)
            os.makedirs(d, exist_ok=True)
            for name, data in a.items():
                with open(os.path.join(d, name), 'wb') as f:
                    f.write(data)
            return a, d

        def expect(a):
            """a's time over b's, as the workload measured them; the
            samples, and the events (ns) they stand for."""
            spent = [int(x) for x in a['export.times'].split()]
            m = re.search(rb'# (\d+) samples of \S+ every (\d+)',
                          a['report.txt'])
            samples = int(m.group(1))
            return spent[0] / spent[1], samples, samples * int(m.group(2))

        def test_exports(self):
            a, d = get(self)
            ratio, samples, total = expect(a)
            names = ['chain_leaf', 'chain_a', 'chain_b', 'main']
            heavy = ['main', 'chain_a', 'chain_leaf']
            check_folded(self, a['export.folded'].decode(), total, heavy)
            check_speedscope(self, a['export.speedscope'].decode(), total,
                             names)
            check_pprof(self, a['export.pprof'], samples, total, names)
            check_svg(self, os.path.join(d, 'export.svg'),
                      heavy, ['main', 'chain_b', 'chain_leaf'], ratio)
            check_svg(self, os.path.join(d, 'export.inverted.svg'),
                      ['chain_leaf', 'chain_a', 'main'],
                      ['chain_leaf', 'chain_b', 'main'], ratio,
                      inverted=True)
            self.assertLess(abs(ratio / 3 - 1), 0.25, f'a:b {ratio:.2f}')
            check_browser(self, os.path.join(d, 'export.svg'), d)

        def test_report_on_the_host_is_the_guests(self):
            a, d = get(self)
            p = tool('report', '--sort', 'comm,dso,sym', '-n', '10', '-i',
                     os.path.join(d, 'export.data'))
            self.assertEqual(p.returncode, 0, p.stderr)
            want = table(a['report.txt'].decode())
            # the counts line and a row at least (ppc64le's has two:
            # chain_leaf and the vDSO)
            self.assertGreaterEqual(len(want), 2)
            self.assertEqual(table(p.stdout), want)

        def test_stat_json(self):
            a = artifacts(log)
            for name, mode in (('stat.json', 'plain'),
                               ('stat-interval.json', 'interval'),
                               ('stat-per-thread.json', 'thread')):
                if name not in a:
                    self.fail(f'{log}: no {name} (tool_test did not '
                              'print it)')
                with self.subTest(name):
                    check_stat_json(self, a[name].decode(), mode)
            # the command line, escaped, comes back whole
            run = json.loads(a['stat.json'].decode().splitlines()[-1])
            self.assertEqual(run['target'],
                             "'/bin/tool_test q\"b\\s\tt\x01c \u00e9'")

        safe = re.sub(r'\W', '_', where)
        setattr(Guest, f'test_{safe}_stat_json_follows_the_schema',
                test_stat_json)
        setattr(Guest, f'test_{safe}_exports_check_on_the_host', test_exports)
        setattr(Guest, f'test_{safe}_file_reports_on_the_host_as_in_the_guest',
                test_report_on_the_host_is_the_guests)

    for log in GUEST_LOGS:
        make(log)
    return Guest


def load_tests(loader, tests, pattern):
    if not GUEST_LOGS:
        return tests
    return loader.loadTestsFromTestCase(guest_tests())


if __name__ == '__main__':
    args = sys.argv[1:]
    if '--guest' in args:
        GUEST_LOGS = args[args.index('--guest') + 1:]
        args = args[:args.index('--guest')]
        if not GUEST_LOGS:
            sys.exit('--guest needs the logs')
    if args == ['--tap']:
        sys.exit(tc.tap_main(sys.modules[__name__]))
    sys.argv[1:] = args
    unittest.main()
