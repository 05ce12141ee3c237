#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host unit tests of jevents.py and of the tables under arch/.

Run: python3 test_jevents.py [-v]      (unittest's own output)
     python3 test_jevents.py --tap     (KTAP, one line per test, for the
                                        harness: harness/host-tests.sh)
"""
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
sys.path.insert(0, HERE)
import jevents  # noqa: E402


def run_jevents(arch_dir, output):
    """jevents.main() in-process: (exit status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = jevents.main(['jevents.py', arch_dir, output])
    return status, err.getvalue().strip()


class Tree:
    """A throwaway arch/ tree: files given as {relative path: text}."""

    def __init__(self, files):
        self.dir = tempfile.mkdtemp(prefix='jevents-test-')
        self.arch = os.path.join(self.dir, 'arch')
        for rel, text in files.items():
            path = os.path.join(self.arch, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        self.out = os.path.join(self.dir, 'out.c')

    def path(self, rel):
        return os.path.join(self.arch, rel)

    def run(self):
        return run_jevents(self.arch, self.out)

    def output(self):
        with open(self.out, encoding='utf-8') as f:
            return f.read()

    def cleanup(self):
        shutil.rmtree(self.dir)


def js(events):
    return json.dumps(events, indent=4) + '\n'


MAPFILE = '''# identity,dir,pmu,name
^GenuineIntel-6-(1|3)$,x86/p6t,p6,"P6, test"
^AuthenticAMD-16-[0-9]+$,x86/k10t,k10,K10 test
^GenuineIntel-15-[0-9]+$,x86/p4t,p4,P4 test
^0x800[0-4][0-9A-Fa-f]{4}$,powerpc/t7450,ppc7450,7450 test
^0x0004[0-9A-Fa-f]{4}$,powerpc/t604,ppc604,604 test
'''
# A POWER8 table, added by the cases that need one.
MAPFILE_P8 = MAPFILE + '^0x004[Dd][0-9A-Fa-f]{4}$,powerpc/tp8,power8,P8 test\n'

X86_STD = [
    {'EventName': 'CPU_CYCLES', 'Counter': 'any',
     'BriefDescription': 'standard cycles'},
    {'EventName': 'BR_RETIRED', 'EventCode': '0xc4', 'Counter': 'any',
     'BriefDescription': 'standard branches'},
]
PPC_STD = [
    {'EventName': 'CPU_CYCLES', 'EventCode': '1', 'Counter': 'any',
     'BriefDescription': 'cycles'},
]

P6_PIPE = [
    {'ArchStdEvent': 'cpu_cycles', 'EventCode': '0x79'},
    {'ArchStdEvent': 'BR_RETIRED', 'EventCode': 197,
     'BriefDescription': 'overridden', 'Counter': '0,1'},
    {'EventName': 'Zeta', 'EventCode': '0x2e', 'UMask': '0x41',
     'EdgeDetect': 1, 'Invert': '1', 'CounterMask': '3', 'Counter': '0,1',
     'BriefDescription': 'say "hi" \\ ??= \u00e9 end'},
    {'EventName': 'ALPHA', 'EventCode': '0x10', 'Counter': '0',
     'BriefDescription': 'fp ops'},
]
P6_BUS = [
    {'EventName': 'BUS_X', 'EventCode': '0x62', 'Counter': '0,1',
     'BriefDescription': 'bus'},
]


def good_files():
    return {
        'mapfile.csv': MAPFILE,
        'x86/std.json': js(X86_STD),
        'powerpc/std.json': js(PPC_STD),
        'x86/p6t/pipeline.json': js(P6_PIPE),
        'x86/p6t/bus.json': js(P6_BUS),
        'x86/k10t/fp.json': js([
            {'EventName': 'X87', 'EventCode': '0x1c0', 'UMask': '0x07',
             'Counter': 'any', 'BriefDescription': 'x87 ops'}]),
        'x86/p4t/pipeline.json': js([
            {'ArchStdEvent': 'CPU_CYCLES', 'EventCode': '0x13',
             'UMask': '0x0001', 'ESCR': 'FSB_ESCR0,FSB_ESCR1',
             'Counter': '0,2,3'},
            {'EventName': 'INSTR_RETIRED', 'EventCode': '0x02',
             'UMask': '0x0003', 'ESCR': 'cru_escr1,CRU_ESCR0',
             'Counter': '12,13,14,15,16,17',
             'BriefDescription': 'instructions'}]),
        'powerpc/t7450/all.json': js([
            {'ArchStdEvent': 'CPU_CYCLES'},
            {'EventName': 'STORES', 'EventCode': '0x14', 'Counter': '1,2',
             'BriefDescription': 'stores'},
            {'EventName': 'VPU', 'EventCode': '0x08', 'Counter': '1,4,2',
             'BriefDescription': 'vpu'},
            {'EventName': 'L1_MISS', 'EventCode': '0x17', 'Counter': '2',
             'BriefDescription': 'misses'},
            {'EventName': 'L2_HITS', 'EventCode': '0x02', 'Counter': '5',
             'BriefDescription': 'l2 hits'}]),
        'powerpc/t604/all.json': js([
            {'ArchStdEvent': 'CPU_CYCLES'},
            {'EventName': 'DC_MISSES', 'EventCode': '6', 'Counter': '2',
             'BriefDescription': 'dc misses'}]),
    }


class GoodTree(unittest.TestCase):
    """A small good tree: every field lands where its driver reads it."""

    @classmethod
    def setUpClass(cls):
        cls.tree = Tree(good_files())
        cls.status, cls.err = cls.tree.run()
        cls.tables = jevents.read_tree(cls.tree.arch)
        cls.by = {t.dir: {e['name']: e for e in t.events}
                  for t in cls.tables}

    @classmethod
    def tearDownClass(cls):
        cls.tree.cleanup()

    def test_generates_without_error(self):
        self.assertEqual((self.status, self.err), (0, ''))

    def test_evntsel_fields_make_config(self):
        e = self.by['x86/p6t']['zeta']
        self.assertEqual(e['config'],
                         0x2e | 0x41 << 8 | 1 << 18 | 1 << 23 | 3 << 24)
        self.assertEqual((e['extra'], e['nr_extra']), (0, 0))
        self.assertEqual(e['counters'], '')     # both of P6's: any
        self.assertEqual(self.by['x86/p6t']['alpha']['counters'], '0')

    def test_k10_event_select_bits_35_32(self):
        e = self.by['x86/k10t']['x87']
        self.assertEqual(e['config'], 0xc0 | 0x07 << 8 | 0x1 << 32)

    def test_p4_cccr_escr_and_extra_word(self):
        e = self.by['x86/p4t']['cpu_cycles']
        # FSB_ESCR0 is MSR 0x3a2, CCCR ESCR_SELECT 6; it feeds counters
        # 0 and 1, but the driver never uses BPU counter 1
        self.assertEqual(e['config'], 0x3a2 << 32 | 6 << 13)
        self.assertEqual(e['extra'], 0x13 << 25 | 0x0001 << 9)
        self.assertEqual(e['nr_extra'], 1)
        self.assertEqual(e['counters'], '0')
        e = self.by['x86/p4t']['instr_retired']
        # the first ESCR named is the one encoded: CRU_ESCR1, 0x3b9
        self.assertEqual(e['config'], 0x3b9 << 32 | 4 << 13)
        self.assertEqual(e['extra'], 0x02 << 25 | 0x0003 << 9)
        self.assertEqual(e['counters'], '14,15,17')

    def test_ppc_selector_and_pmc(self):
        t = self.by['powerpc/t7450']
        self.assertEqual((t['cpu_cycles']['config'],
                          t['cpu_cycles']['counters']), (0x01, ''))
        # 0x14: the driver's class of PMC1-2, exactly the PMCs listed
        self.assertEqual((t['stores']['config'], t['stores']['counters']),
                         (0x14, '1,2'))
        # 0x08: the driver takes it alike on PMC1, 2 and 4, as listed
        self.assertEqual((t['vpu']['config'], t['vpu']['counters']),
                         (0x08, '1,2,4'))
        self.assertEqual((t['l1_miss']['config'], t['l1_miss']['counters']),
                         (0x217, '2'))
        self.assertEqual(t['l2_hits']['config'], 0x502)
        self.assertEqual(self.by['powerpc/t604']['dc_misses']['config'],
                         0x206)

    def test_arch_std_event_inherits(self):
        e = self.by['x86/p6t']['cpu_cycles']
        self.assertEqual(e['desc'], 'standard cycles')
        self.assertEqual(e['config'], 0x79)
        self.assertEqual(e['counters'], '')
        e = self.by['powerpc/t604']['cpu_cycles']
        self.assertEqual((e['config'], e['desc']), (0x01, 'cycles'))

    def test_arch_std_event_overridden(self):
        e = self.by['x86/p6t']['br_retired']
        self.assertEqual(e['desc'], 'overridden')
        self.assertEqual(e['config'], 197)
        self.assertEqual(e['counters'], '')

    def test_names_lower_case_topic_from_file(self):
        self.assertIn('zeta', self.by['x86/p6t'])
        self.assertEqual(self.by['x86/p6t']['zeta']['topic'], 'pipeline')
        self.assertEqual(self.by['x86/p6t']['bus_x']['topic'], 'bus')

    def test_c_strings_escaped(self):
        out = self.tree.output()
        self.assertIn(r'.desc = "say \"hi\" \\ \?\?= \303\251 end",', out)
        self.assertIn(r'.cpu_name = "P6, test",', out)
        self.assertIn(r'.cpuid = "^GenuineIntel-6-(1|3)$",', out)
        self.assertEqual(jevents.c_string('a?"\\\x01\n\t'),
                         r'"a\?\"\\\001\n\t"')

    def test_ordering_deterministic(self):
        out = self.tree.output()
        names = re.findall(r'\.name = "([^"]*)"', out)
        p6 = names[:5]
        # by topic (bus before pipeline), then by name
        self.assertEqual(p6, ['bus_x', 'alpha', 'br_retired', 'cpu_cycles',
                              'zeta'])
        dirs = re.findall(r'\.dir = "([^"]*)"', out)
        self.assertEqual(dirs, ['x86/p6t', 'x86/k10t', 'x86/p4t',
                                'powerpc/t7450', 'powerpc/t604'])
        again = os.path.join(self.tree.dir, 'again.c')
        self.assertEqual(run_jevents(self.tree.arch, again), (0, ''))
        with open(again) as f:
            self.assertEqual(f.read(), out)

    def test_table_layout(self):
        out = self.tree.output()
        self.assertTrue(out.startswith('/* SPDX-License-Identifier: '
                                       'GPL-2.0 */\n'))
        self.assertIn('#include "pmu-events.h"', out)
        self.assertIn('const struct pc_pmu_table pc_pmu_tables[] = {', out)
        self.assertIn('const unsigned int pc_pmu_nr_tables =', out)
        self.assertIn('.nr_events = 5,', out)
        self.assertIn('.config = 0x3a20000c000ULL,', out)
        self.assertIn('.extra = 0x26000200ULL,', out)

    def test_exit_status_of_the_command(self):
        ok = subprocess.run([sys.executable,
                             os.path.join(HERE, 'jevents.py'),
                             self.tree.arch,
                             os.path.join(self.tree.dir, 'cmd.c')],
                            capture_output=True, text=True)
        self.assertEqual((ok.returncode, ok.stderr), (0, ''))
        bad = subprocess.run([sys.executable,
                              os.path.join(HERE, 'jevents.py'),
                              os.path.join(self.tree.dir, 'nothing'),
                              os.path.join(self.tree.dir, 'bad.c')],
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertRegex(bad.stderr, r'mapfile\.csv:0: cannot read')
        self.assertFalse(os.path.exists(os.path.join(self.tree.dir,
                                                     'bad.c')))


class Malformed(unittest.TestCase):
    """Every malformed input: exit status 1, FILE:LINE: what is wrong."""

    def check(self, changes, rel, line, message):
        """The good tree with @changes fails at @rel:@line with @message
        ({TREE} in it: the tree's arch directory)."""
        files = good_files()
        files.update(changes)
        tree = Tree(files)
        try:
            status, err = tree.run()
            self.assertEqual(status, 1, err)
            want = f'{tree.path(rel)}:{line}: ' + \
                message.replace('{TREE}', tree.arch)
            self.assertEqual(err.split('\n')[0], want)
            self.assertFalse(os.path.exists(tree.out))
        finally:
            tree.cleanup()

    def p6(self, events):
        return {'x86/p6t/pipeline.json': js(events)}

    def test_malformed_json(self):
        text = js(P6_PIPE).replace('"0x79"\n', '"0x79",\n', 1)
        self.check({'x86/p6t/pipeline.json': text},
                   'x86/p6t/pipeline.json', 5,
                   'malformed JSON: Expecting property name enclosed in '
                   'double quotes')

    def test_missing_comma_between_events(self):
        text = js(P6_PIPE).replace('},\n    {\n        "ArchStdEvent": '
                                   '"BR_RETIRED"',
                                   '}\n    {\n        "ArchStdEvent": '
                                   '"BR_RETIRED"')
        self.check({'x86/p6t/pipeline.json': text},
                   'x86/p6t/pipeline.json', 6,
                   "malformed JSON: expecting ',' or ']'")

    def test_not_an_array(self):
        self.check({'x86/p6t/bus.json': '{"EventName": "X"}\n'},
                   'x86/p6t/bus.json', 1, 'not a JSON array of events')

    def test_empty_file(self):
        self.check({'x86/p6t/bus.json': '[\n]\n'},
                   'x86/p6t/bus.json', 2, 'no events')

    def test_duplicate_json_key(self):
        text = '[\n  {"EventName": "A",\n   "EventName": "B"}\n]\n'
        self.check({'x86/p6t/bus.json': text}, 'x86/p6t/bus.json', 2,
                   'duplicate field "EventName"')

    def test_missing_field(self):
        ev = dict(P6_BUS[0])
        del ev['BriefDescription']
        self.check({'x86/p6t/bus.json': js([P6_BUS[0], ev])},
                   'x86/p6t/bus.json', 8,
                   'missing field "BriefDescription"')

    def test_missing_code_of_a_std_event(self):
        self.check(self.p6([{'ArchStdEvent': 'CPU_CYCLES'}]),
                   'x86/p6t/pipeline.json', 2, 'missing field "EventCode"')

    def test_unknown_field(self):
        ev = dict(P6_BUS[0], Foo='1')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 7,
                   'unknown field "Foo" for pmu p6')

    def test_field_of_another_driver(self):
        ev = dict(P6_BUS[0], ESCR='FSB_ESCR0')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 7,
                   'unknown field "ESCR" for pmu p6')

    def test_code_out_of_range(self):
        ev = dict(P6_BUS[0], EventCode='0x162')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 4,
                   'EventCode: 0x162 out of range 0x0-0xff')

    def test_umask_out_of_range(self):
        ev = dict(P6_BUS[0], UMask='256')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 7,
                   'UMask: 0x100 out of range 0x0-0xff')

    def test_code_not_a_number(self):
        ev = dict(P6_BUS[0], EventCode='0xzz')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 4,
                   'EventCode: "0xzz" is not a number')

    def test_counter_out_of_range(self):
        ev = dict(P6_BUS[0], Counter='0,2')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 5,
                   'Counter: 2 out of range 0-1')

    def test_counter_the_driver_forbids(self):
        ev = dict(P6_BUS[0], EventCode='0x12')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 5,
                   'Counter: event 0x12 counts only on counter 1')

    def test_ppc_selector_too_wide_for_its_pmc(self):
        ev = {'EventName': 'W', 'EventCode': '0x20', 'Counter': '3',
              'BriefDescription': 'w'}
        self.check({'powerpc/t7450/all.json': js([ev])},
                   'powerpc/t7450/all.json', 4,
                   'EventCode: selector 0x20 is wider than the 5-bit field '
                   'of PMC3')

    def test_ppc_selector_zero(self):
        ev = {'EventName': 'W', 'EventCode': '0', 'Counter': '1',
              'BriefDescription': 'w'}
        self.check({'powerpc/t604/all.json': js([ev])},
                   'powerpc/t604/all.json', 4,
                   'EventCode: 0x0 out of range 0x1-0x7f')

    def test_isa207_code_the_driver_refuses(self):
        ev = {'EventName': 'W', 'EventCode': '0x5001e', 'Counter': '5',
              'BriefDescription': 'w'}
        self.check({'mapfile.csv': MAPFILE_P8,
                    'powerpc/tp8/all.json': js([ev])},
                   'powerpc/tp8/all.json', 4,
                   'EventCode: 0x5001e is not a raw event the POWER8 '
                   'driver takes (reserved bits, a unit or combine without '
                   'its PMC, selector 0, or PMC5 and PMC6 other than '
                   '0x500fa and 0x600f4)')

    def test_isa207_counter_not_where_it_lands(self):
        ev = {'EventName': 'W', 'EventCode': '0x3e054',
              'Counter': '1,2,3,4', 'BriefDescription': 'w'}
        self.check({'mapfile.csv': MAPFILE_P8,
                    'powerpc/tp8/all.json': js([ev])},
                   'powerpc/tp8/all.json', 5,
                   'Counter: 0x3e054 counts on PMC 3: list exactly those')

    def test_p4_unknown_escr(self):
        ev = {'EventName': 'W', 'EventCode': '1', 'ESCR': 'XYZ_ESCR0',
              'Counter': '0,1', 'BriefDescription': 'w'}
        self.check({'x86/p4t/pipeline.json': js([ev])},
                   'x86/p4t/pipeline.json', 5,
                   'ESCR: unknown ESCR "XYZ_ESCR0"')

    def test_p4_counters_not_the_escrs(self):
        ev = {'EventName': 'W', 'EventCode': '1', 'ESCR': 'FSB_ESCR0',
              'Counter': '0,1,2,3', 'BriefDescription': 'w'}
        self.check({'x86/p4t/pipeline.json': js([ev])},
                   'x86/p4t/pipeline.json', 6,
                   'Counter: the ESCRs named feed counters 0')

    def test_p4_missing_escr(self):
        ev = {'EventName': 'W', 'EventCode': '1', 'Counter': '0,1',
              'BriefDescription': 'w'}
        self.check({'x86/p4t/pipeline.json': js([ev])},
                   'x86/p4t/pipeline.json', 2, 'missing field "ESCR"')

    def test_arch_std_event_names_nothing(self):
        self.check(self.p6([{'ArchStdEvent': 'NO_SUCH', 'EventCode': '1'}]),
                   'x86/p6t/pipeline.json', 3,
                   'ArchStdEvent "NO_SUCH" names no standard event')

    def test_arch_std_event_with_event_name(self):
        self.check(self.p6([{'ArchStdEvent': 'CPU_CYCLES',
                             'EventName': 'X', 'EventCode': '1'}]),
                   'x86/p6t/pipeline.json', 4,
                   'EventName cannot be given with ArchStdEvent')

    def test_duplicate_event_in_one_file(self):
        self.check({'x86/p6t/bus.json': js([P6_BUS[0], P6_BUS[0]])},
                   'x86/p6t/bus.json', 8,
                   'duplicate event "bus_x" (first at ' +
                   '{TREE}/x86/p6t/bus.json' + ':2)')

    def test_duplicate_event_across_files_and_case(self):
        ev = dict(P6_BUS[0], EventName='Cpu_Cycles')
        self.check({'x86/p6t/bus.json': js([ev])},
                   'x86/p6t/pipeline.json', 2,
                   'duplicate event "cpu_cycles" (first at ' +
                   '{TREE}/x86/p6t/bus.json' + ':2)')

    def test_name_with_trailing_newline(self):
        ev = dict(P6_BUS[0], EventName='FOO\n')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 3,
                   'EventName: "FOO\\n" is not letters, digits, _ and .')

    def test_std_name_with_trailing_newline(self):
        std = X86_STD + [{'EventName': 'X\n', 'BriefDescription': 'x'}]
        self.check({'x86/std.json': js(std)}, 'x86/std.json', 13,
                   'missing or bad field "EventName"')

    def test_numbers_only_hex_or_decimal(self):
        for key, value, line in (('EventCode', '0x4_3', 4),
                                 ('EventCode', '+67', 4),
                                 ('EventCode', ' 67', 4),
                                 ('EventCode', '0X43', 4),
                                 ('EventCode', '\u0661', 4),
                                 ('UMask', '0b11', 7),
                                 ('CounterMask', '0o7', 7)):
            with self.subTest(value):
                ev = dict(P6_BUS[0], **{key: value})
                self.check({'x86/p6t/bus.json': js([ev])},
                           'x86/p6t/bus.json', line,
                           f'{key}: {json.dumps(value)} is not a number')

    def test_counter_listed_twice(self):
        ev = dict(P6_BUS[0], Counter='0,0')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 5,
                   'Counter: 0 listed twice')

    def test_counter_not_a_digit(self):
        ev = dict(P6_BUS[0], Counter='0,\u00b2')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 5,
                   'Counter: "0,\u00b2" is not "any" or a list of counter '
                   'numbers')

    def test_counter_narrower_than_the_driver_enforces(self):
        ev = dict(P6_BUS[0], Counter='1')
        self.check({'x86/p6t/bus.json': js([ev])}, 'x86/p6t/bus.json', 5,
                   'Counter: the driver puts event 0x62 on any counter: '
                   '"any" or 0,1')
        ev = {'EventName': 'X', 'EventCode': '0x1c0', 'Counter': '0,1,2',
              'BriefDescription': 'x'}
        self.check({'x86/k10t/fp.json': js([ev])}, 'x86/k10t/fp.json', 5,
                   'Counter: the driver puts event 0x1c0 on any counter: '
                   '"any" or 0,1,2,3')

    def test_counter_wider_than_the_constraint(self):
        ev = dict(P6_PIPE[3], Counter='any')
        self.check(self.p6([ev]), 'x86/p6t/pipeline.json', 5,
                   'Counter: event 0x10 counts only on counter 0')

    def test_description_with_control_characters(self):
        for desc in ('two\nlines', 'tab\there', 'del\x7f', 'c1\x85'):
            with self.subTest(desc):
                ev = dict(P6_BUS[0], BriefDescription=desc)
                self.check({'x86/p6t/bus.json': js([ev])},
                           'x86/p6t/bus.json', 6,
                           'BriefDescription: holds a newline or another '
                           'control character')

    def test_std_description_with_a_newline(self):
        std = [dict(X86_STD[0], BriefDescription='a\nb'), X86_STD[1]]
        self.check({'x86/std.json': js(std)}, 'x86/p6t/pipeline.json', 2,
                   'BriefDescription: holds a newline or another control '
                   'character')

    def test_generic_event_names(self):
        for name in ('cycles', 'Instructions', 'BRANCHES', 'cs', 'Faults',
                     'migrations'):
            with self.subTest(name):
                ev = dict(P6_BUS[0], EventName=name)
                self.check({'x86/p6t/bus.json': js([ev])},
                           'x86/p6t/bus.json', 3,
                           f'EventName: "{name}" is the tool\'s generic '
                           f'event "{name.lower()}", which -e finds first')

    def test_generic_name_of_a_std_event(self):
        std = X86_STD + [{'EventName': 'Instructions',
                          'BriefDescription': 'x'}]
        self.check({'x86/std.json': js(std)}, 'x86/std.json', 14,
                   'EventName: "Instructions" is the tool\'s generic event '
                   '"instructions", which -e finds first')

    def test_raw_code_names(self):
        for name in ('r1a', 'RC0', 'r0', 'rabcdef'):
            with self.subTest(name):
                ev = dict(P6_BUS[0], EventName=name)
                self.check({'x86/p6t/bus.json': js([ev])},
                           'x86/p6t/bus.json', 3,
                           f'EventName: "{name}" reads as the raw code '
                           f'"{name.lower()}" to -e')

    def test_ppc_pmcs_neither_the_class_nor_one(self):
        ev = {'EventName': 'W', 'EventCode': '0x08', 'Counter': '1,2',
              'BriefDescription': 'w'}
        self.check({'powerpc/t7450/all.json': js([ev])},
                   'powerpc/t7450/all.json', 5,
                   'Counter: the driver takes selector 0x8 as alike on '
                   '1,2,4: list exactly those, or one PMC')
        ev = dict(ev, EventCode='0x17', Counter='2,3')
        self.check({'powerpc/t7450/all.json': js([ev])},
                   'powerpc/t7450/all.json', 5,
                   'Counter: the driver takes selector 0x17 as alike on no '
                   'PMCs: list exactly those, or one PMC')
        ev = dict(ev, EventCode='0x02', Counter='5,6')
        self.check({'powerpc/t7450/all.json': js([ev])},
                   'powerpc/t7450/all.json', 5,
                   'Counter: the driver takes selector 0x2 as alike on '
                   '1,2,3,4: list exactly those, or one PMC')

    def check_mapfile(self, text, line, message):
        self.check({'mapfile.csv': text}, 'mapfile.csv', line, message)

    def test_mapfile_wrong_number_of_columns(self):
        self.check_mapfile(MAPFILE + '^x$,x86/p6t,p6\n', 7,
                           '3 columns, expected 4: identity,dir,pmu,name')

    def test_mapfile_unquoted_comma_in_name(self):
        self.check_mapfile(MAPFILE + '^x$,x86/p6t,p6,a, b\n', 7,
                           '5 columns, expected 4: identity,dir,pmu,name')

    def test_mapfile_missing_directory(self):
        self.check_mapfile(MAPFILE + '^x$,x86/nothere,p6,X\n', 7,
                           'directory "x86/nothere" does not exist '
                           "(ARCH/CPU under the mapfile's directory)")

    def test_mapfile_bad_regex(self):
        self.check_mapfile('^GenuineIntel-6-(1$,x86/p6t,p6,X\n', 1,
                           'identity "^GenuineIntel-6-(1$" does not '
                           'compile: missing ), unterminated subpattern at '
                           'position 16')

    def test_mapfile_unanchored_regex(self):
        self.check_mapfile('GenuineIntel-6-1,x86/p6t,p6,X\n', 1,
                           'identity "GenuineIntel-6-1" must be anchored '
                           'with ^ and $ (it matches the whole string)')

    def test_mapfile_not_posix_regex(self):
        self.check_mapfile('^GenuineIntel-6-\\d+$,x86/p6t,p6,X\n', 1,
                           'identity "^GenuineIntel-6-\\d+$" uses syntax '
                           'that is not POSIX extended regex')

    def test_mapfile_unknown_pmu(self):
        self.check_mapfile('^x$,x86/p6t,p5,X\n', 1,
                           'unknown pmu "p5" (one of ' +
                           ', '.join(sorted(jevents.PMUS)) + ')')

    def test_mapfile_identity_twice(self):
        self.check_mapfile(MAPFILE + '^GenuineIntel-6-(1|3)$,x86/p6t,p6,X\n',
                           7, 'identity "^GenuineIntel-6-(1|3)$" is on line '
                           '2 already: this row could never match')
        # the tool matches without case: another case is the same
        self.check_mapfile(MAPFILE + '^0x0004[0-9a-fA-F]{4}$,powerpc/t604,'
                           'ppc604,X\n', 7,
                           'identity "^0x0004[0-9a-fA-F]{4}$" is on line 6 '
                           'already: this row could never match')

    def test_mapfile_empty(self):
        self.check_mapfile('# nothing\n', 1, 'no CPU in the mapfile')


# ---------------------------------------------------------------------------
# The real tree, against the drivers' own rules.

def driver_source(rel):
    with open(os.path.join(TOP, rel), encoding='utf-8') as f:
        return f.read()


# The base kernel's tree, as make src unpacks it (harness/lib.sh's SRC):
# the drivers take MSR numbers from its msr-index.h.
KERNEL_SRC = os.path.join(os.environ.get('BUILD', os.path.join(TOP, 'build')),
                          'src', 'linux')


def kernel_msrs():
    """The base kernel's msr-index.h: MSR_* name -> number."""
    path = os.path.join(KERNEL_SRC, 'arch', 'x86', 'include', 'asm',
                        'msr-index.h')
    if not os.path.exists(path):
        raise unittest.SkipTest(f'{path} missing: run make src')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    return {m[0]: int(m[1], 16) for m in
            re.findall(r'#define\s+(MSR_\w+)\s+(0x[0-9a-fA-F]+)\b', text)}


def p4_escrs_of_the_driver():
    """p4_escrs[] of arch/x86/perf_counter/p4.c, its MSR names looked up
    in msr-index.h: MSR -> (select, group, half)."""
    text = driver_source('arch/x86/perf_counter/p4.c')
    body = text[text.index('const struct p4_escr p4_escrs[] = {'):]
    body = body[:body.index('};')]
    groups = {'P4_BPU': 0, 'P4_MS': 1, 'P4_FLAME': 2, 'P4_IQ': 3}
    msrs = kernel_msrs()
    return {msrs[m[0]]: (int(m[2]), groups[m[1]], int(m[3]))
            for m in re.findall(r'\{ (MSR_P4_\w+), (P4_\w+), (\d), (\d) \}',
                                body)}


def p4_broken_counter_of_the_driver():
    """p4.h's P4_BROKEN_COUNTER: the counter p4_places() never offers."""
    text = driver_source('arch/x86/perf_counter/p4.h')
    return int(re.search(r'#define P4_BROKEN_COUNTER\s+(\d+)', text)[1])


def p6_constraints_of_the_driver():
    text = driver_source('arch/x86/perf_counter/p6.c')
    body = text[text.index('p6_constraints[] = {'):]
    body = body[:body.index('};')]
    return {int(e, 16): int(c, 16)
            for e, c in re.findall(r'\{ (0x[0-9a-f]+), (0x[0-9a-f]+) \}',
                                   body)}


def p6_models_of_the_driver():
    text = driver_source('arch/x86/perf_counter/p6.c')
    body = text[text.index('p6_models[] = {'):]
    body = body[:body.index('};')]
    return [int(x, 16) for x in re.findall(r'0x[0-9a-f]+', body)]


def power8_pvrs_of_the_driver():
    """power8.c: the PVR versions pc_power8_pmu is for."""
    text = driver_source('arch/powerpc/perf_counter/power8.c')
    body = re.search(r'\.pvr\s*= \{([^}]*)\}', text)[1]
    return [int(x, 16) for x in re.findall(r'0x[0-9a-f]+', body)]


def isa207_accepts(e):
    """isa207.c's pc_isa207_decode() on a raw code, written out again
    from isa207.h's format: None, or why the driver refuses it."""
    config = e['config']
    if config & ~(0xff | 1 << 11 | 0xf << 12 | 0xf << 16):
        return 'reserved bits'
    if e['nr_extra']:
        return 'POWER8 takes no extra words'
    pmc, sel, direct = config >> 16 & 0xf, config & 0xff, config & 0xffff
    if pmc == 0:
        pmcs = {1, 2, 3, 4} if sel and direct == sel else set()
    elif pmc == 5:
        pmcs = {5} if direct == 0xfa else set()
    elif pmc == 6:
        pmcs = {6} if direct == 0xf4 else set()
    else:
        pmcs = {pmc} if pmc <= 4 and sel else set()
    if not pmcs:
        return 'no event the driver takes'
    if counters_of(e, set(range(1, 7))) != pmcs:
        return f'counters {e["counters"]} are not where it lands: ' \
            f'{sorted(pmcs)}'
    return None


def ppc_models_of_the_driver():
    """models.c: driver -> (number of PMCs, PVR versions)."""
    text = driver_source('arch/powerpc/perf_counter/models.c')
    out = {}
    for m in re.finditer(r'const struct pc_ppc_pmu pc_(ppc\w+)_pmu = \{'
                         r'(.*?)\n\};', text, re.S):
        nr = int(re.search(r'PC_PPC_OPS\((\d)\)', m[2])[1])
        pvr = re.search(r'\.pvr\s*= \{([^}]*)\}', m[2])[1]
        out[m[1]] = (nr, [int(x, 16) for x in re.findall(r'0x[0-9a-f]+',
                                                         pvr)])
    return out


# What a raw event may set on the EVNTSEL PMUs: asm/perf_event.h's
# X86_RAW_EVENT_MASK, and on family 10h event select bits 35..32 too
# (AMD64_RAW_EVENT_MASK, k7.c's pc_k10_pmu).
EVNTSEL_RAW = 0xff | 0xff00 | 1 << 18 | 1 << 23 | 0xff << 24
EVNTSEL_RAW_K10 = EVNTSEL_RAW | 0xf << 32
# p4_regs.h's P4_CCCR_RAW and P4_ESCR_RAW (asm/perf_event_p4.h's
# P4_CONFIG_MASK_ESCR), p4.h's P4_RAW_ESCR_MASK
P4_CCCR_RAW = 7 << 13 | 1 << 18 | 1 << 19 | 0xf << 20 | 1 << 24
P4_RAW_ESCR_MASK = 0xffff << 32
P4_ESCR_RAW = 0x3f << 25 | 0xffff << 9 | 0xf << 5 | 1 << 4
CONFIG_MASK = (1 << 63) - 1     # PERF_COUNTER_CONFIG_MASK: bits 62..0


def ppc_any_pmcs(pmu, sel):
    """models.c: pc_6xx_any_pmcs() and pc_7450_any_pmcs(), as PMC sets."""
    if pmu != 'ppc7450':
        return set(range(1, 7)) if 1 <= sel <= 4 else set()
    if sel <= 1:
        return set(range(1, 7))
    if sel <= 7:
        return {1, 2, 3, 4}
    if sel <= 13:
        return {1, 2, 4}
    if sel <= 22:
        return {1, 2}
    return set()


def counters_of(e, every):
    return every if e['counters'] == '' else \
        {int(x) for x in e['counters'].split(',')}


def driver_accepts(pmu, e):
    """None if the driver takes e's config (and extra word) as a raw
    event that lands on the counters e names, else why not."""
    config = e['config']
    if config & ~CONFIG_MASK:
        return 'raw bit or beyond bits 62..0'
    if pmu in ('p6', 'k7', 'k8', 'k10'):
        # pc_evntsel_decode(), pc_evntsel_places()
        nr = 2 if pmu == 'p6' else 4
        mask = EVNTSEL_RAW_K10 if pmu == 'k10' else EVNTSEL_RAW
        if config & ~mask:
            return f'bits {config & ~mask:#x} not the raw event\'s'
        if e['nr_extra']:
            return 'extra word on an EVNTSEL PMU'
        allowed = set(range(nr))
        if pmu == 'p6':
            bits = p6_constraints_of_the_driver().get(config & 0xff)
            if bits is not None:
                allowed = {i for i in range(nr) if bits >> i & 1}
        if not counters_of(e, set(range(nr))) <= allowed:
            return f'counters {e["counters"]} not in {sorted(allowed)}'
        return None
    if pmu == 'p4':
        # p4_decode_raw(), p4_places()
        escrs = p4_escrs_of_the_driver()
        if config & ~(P4_RAW_ESCR_MASK | P4_CCCR_RAW):
            return 'CCCR bits a raw event may not set'
        if e['nr_extra'] != 1:
            return 'no ESCR word'
        msr = config >> 32
        if msr not in escrs:
            return f'{msr:#x} is no ESCR'
        select, group, half = escrs[msr]
        if select != (config >> 13) & 7:
            return 'the CCCR\'s ESCR select is not the ESCR\'s'
        if msr in (0x3ba, 0x3bb):
            return 'IQ_ESCR0/1 exist only on models up to 2'
        if e['extra'] & ~P4_ESCR_RAW:
            return 'ESCR bits a raw event may not set'
        fed = {group * 4 + half * 2, group * 4 + half * 2 + 1}
        if group == 3:
            fed.add(16 + half)
        fed.discard(p4_broken_counter_of_the_driver())
        if not counters_of(e, set()) <= fed or not e['counters']:
            return f'counters {e["counters"]} not the ESCR\'s {sorted(fed)}'
        return None
    if pmu == 'power8':
        return isa207_accepts(e)
    # PowerPC: pc_ppc_decode()
    nr = ppc_models_of_the_driver()[pmu][0]
    every = set(range(1, nr + 1))
    if config & ~(0x7f | 0x7 << 8):
        return 'reserved bits'
    if e['nr_extra']:
        return 'extra words are for exclusive counters only'
    sel, pmc = config & 0x7f, config >> 8 & 7
    if pmc > nr:
        return f'PMC{pmc} on a part with {nr}'
    if pmc:
        if sel >> jevents.PPC_SEL_BITS[pmc - 1]:
            return 'selector wider than its PMC\'s field'
        pmcs = {pmc}
    else:
        pmcs = ppc_any_pmcs(pmu, sel) & every
    if not sel or not pmcs:
        return 'selector 0, or one that must name its PMC'
    if counters_of(e, every) != pmcs:
        return f'counters {e["counters"]} are not where it lands: ' \
            f'{sorted(pmcs)}'
    return None


# The tool's table lookup (tools/perf_counter: "^(%s)$", REG_EXTENDED,
# REG_ICASE), for each identity given: the directory of every table that
# matches, "-" for none; exit status 1 if two match.
REGCOMP_MAIN = r'''
#include <regex.h>
#include <stdio.h>
#include "pmu-events.h"

int main(int argc, char **argv)
{
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		const char *hit = "-";
		unsigned int t, n = 0;

		for (t = 0; t < pc_pmu_nr_tables; t++) {
			char src[512];
			regex_t re;

			snprintf(src, sizeof(src), "^(%s)$", pc_pmu_tables[t].cpuid);
			if (regcomp(&re, src, REG_EXTENDED | REG_NOSUB | REG_ICASE)) {
				fprintf(stderr, "%s does not compile\n", src);
				return 1;
			}
			if (!regexec(&re, argv[i], 0, NULL, 0)) {
				hit = pc_pmu_tables[t].dir;
				n++;
			}
			regfree(&re);
		}
		if (n > 1)
			status = 1;
		printf("%s %s\n", argv[i], hit);
	}
	return status;
}
'''


class RealTree(unittest.TestCase):
    """arch/ as committed: it generates, compiles, and every config is
    one its driver accepts."""

    @classmethod
    def setUpClass(cls):
        cls.arch = os.path.join(HERE, 'arch')
        cls.tmp = tempfile.mkdtemp(prefix='jevents-real-')
        cls.out = os.path.join(cls.tmp, 'pmu-events.c')
        cls.status, cls.err = run_jevents(cls.arch, cls.out)
        try:
            cls._tables = jevents.read_tree(cls.arch)
        except jevents.InputError as e:
            # each test that needs them fails with this, test_generates too
            cls._tables, cls.tree_error = None, str(e)

    @property
    def tables(self):
        if self._tables is None:
            self.fail(f'arch/ does not generate: {self.tree_error}')
        return self._tables

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_generates(self):
        self.assertEqual((self.status, self.err), (0, ''))

    def test_compiles_with_gcc_warnings_as_errors(self):
        self.assertEqual(self.status, 0, self.err)
        gcc = shutil.which('gcc')
        if not gcc:
            self.skipTest('gcc is not installed')
        obj = os.path.join(self.tmp, 'pmu-events.o')
        cc = subprocess.run([gcc, '-c', '-Wall', '-Wextra', '-Werror',
                             '-I', HERE, self.out, '-o', obj],
                            capture_output=True, text=True)
        self.assertEqual((cc.returncode, cc.stderr), (0, ''))
        self.assertTrue(os.path.exists(obj))

    def test_identities_compile_and_match_with_posix_regcomp(self):
        """The tool matches "^(identity)$" with regcomp(REG_EXTENDED):
        glibc's POSIX matcher, not Python's, must pick each CPU."""
        self.assertEqual(self.status, 0, self.err)
        gcc = shutil.which('gcc')
        if not gcc:
            self.skipTest('gcc is not installed')
        main = os.path.join(self.tmp, 'match.c')
        with open(main, 'w') as f:
            f.write(REGCOMP_MAIN)
        exe = os.path.join(self.tmp, 'match')
        cc = subprocess.run([gcc, '-Wall', '-Wextra', '-Werror', '-I', HERE,
                             main, self.out, '-o', exe],
                            capture_output=True, text=True)
        self.assertEqual((cc.returncode, cc.stderr), (0, ''))
        cases = {'GenuineIntel-6-13': 'x86/p6', 'GenuineIntel-6-1': 'x86/p6',
                 'GenuineIntel-6-14': '-', 'GenuineIntel-6-130': '-',
                 'AuthenticAMD-6-8': 'x86/k7', 'AuthenticAMD-15-65': 'x86/k8',
                 'AuthenticAMD-16-4': 'x86/k10', 'AuthenticAMD-23-1': '-',
                 'GenuineIntel-15-4': 'x86/p4', '0x00040103': 'powerpc/604',
                 '0x000a0203': 'powerpc/604e', '0x00083203': 'powerpc/750',
                 '0x70020101': 'powerpc/750', '0x000c0209': 'powerpc/7400',
                 '0x800c1101': 'powerpc/7400', '0x80040202': 'powerpc/7450',
                 '0x80050000': '-', '0x00390202': '-'}
        run = subprocess.run([exe] + list(cases), capture_output=True,
                             text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        got = dict(line.split(' ', 1) for line in run.stdout.split('\n')
                   if line)
        self.assertEqual(got, cases)

    def test_every_cpu_and_size(self):
        dirs = [t.dir for t in self.tables]
        self.assertEqual(dirs, ['x86/p6', 'x86/k7', 'x86/k8', 'x86/k10',
                                'x86/p4', 'powerpc/604', 'powerpc/604e',
                                'powerpc/750', 'powerpc/7400',
                                'powerpc/7450', 'powerpc/power8'])
        for t in self.tables:
            with self.subTest(t.dir):
                self.assertGreaterEqual(len(t.events), 8)
                self.assertLessEqual(len(t.events), 70)

    def test_every_config_is_accepted_by_its_driver(self):
        for t in self.tables:
            for e in t.events:
                with self.subTest(f'{t.dir} {e["name"]}'):
                    self.assertIsNone(driver_accepts(t.pmu, e))

    def test_generic_events_agree_with_the_drivers_event_maps(self):
        want = {
            # p6.c's event_map; k7.c's AMD_K7_EVENT_MAP (amd.h); p4.c's
            # p4_generic[]; models.c's events[]
            'x86/p6': {'cpu_cycles': 0x79, 'inst_retired': 0xc0,
                       'branch_instructions': 0xc4, 'branch_misses': 0xc5,
                       'l2_rqsts': 0x0f2e, 'l2_rqsts.i_state': 0x012e,
                       'bus_drdy_clocks': 0x62},
            'x86/k8': {'cpu_cycles': 0x76, 'retired_instructions': 0xc0,
                       'branch_instructions': 0xc2, 'branch_misses': 0xc3,
                       'dc_accesses': 0x40, 'dc_misses': 0x41},
            'x86/p4': {'cpu_cycles': 0x3a2 << 32 | 6 << 13,
                       'instr_retired': 0x3b8 << 32 | 4 << 13,
                       'branch_misses': 0x3c2 << 32 | 2 << 13},
            'powerpc/604': {'data_cache_misses': 0x206,
                            'branches_completed': 0x208,
                            'branch_mispredict_corrections': 0x107},
            'powerpc/750': {'l1_dcache_misses': 0x305,
                            'mispredicted_branches': 0x408},
            'powerpc/7400': {'l1_dcache_load_misses': 0x20f,
                             'mispredicted_branches': 0x405},
            'powerpc/7450': {'branches_completed': 0x122,
                             'mispredicted_branches': 0x41c,
                             'l1_data_total_misses': 0x217},
            # power8.c's events[]
            'powerpc/power8': {'pm_cyc': 0x1e, 'pm_inst_cmpl': 0x02,
                               'pm_ld_ref_l1': 0x100ee,
                               'pm_ld_miss_l1': 0x3e054,
                               'pm_bru_fin': 0x10068,
                               'pm_br_mpred_cmpl': 0x400f6},
        }
        by = {t.dir: {e['name']: e for e in t.events} for t in self.tables}
        for d, events in want.items():
            for name, config in events.items():
                with self.subTest(f'{d} {name}'):
                    self.assertEqual(by[d][name]['config'], config)
        p4 = by['x86/p4']
        self.assertEqual(p4['cpu_cycles']['extra'], 0x13 << 25 | 1 << 9)
        self.assertEqual(p4['instr_retired']['extra'], 0x02 << 25 | 3 << 9)
        self.assertEqual(p4['branch_misses']['extra'],
                         0x05 << 25 | 0x1e << 9)

    def test_generator_knows_the_tools_generic_names(self):
        text = driver_source('tools/perf_counter/events.c')
        body = text[text.index('pc_names[] = {'):]
        body = body[:body.index('};')]
        names = set(re.findall(r'\{ "([^"]+)",', body))
        self.assertGreaterEqual(len(names), 19)
        self.assertEqual(set(jevents.GENERIC_NAMES), names)

    def test_no_event_name_the_tool_reads_otherwise(self):
        for t in self.tables:
            for e in t.events:
                with self.subTest(f'{t.dir} {e["name"]}'):
                    self.assertNotIn(e['name'], jevents.GENERIC_NAMES)
                    self.assertIsNone(re.fullmatch(r'r[0-9a-f]+',
                                                   e['name']))

    def test_generator_escrs_are_the_drivers(self):
        driver = p4_escrs_of_the_driver()
        self.assertEqual(len(driver), 45)
        ours = {msr: (select, tuple(counters))
                for msr, select, counters in jevents.P4_ESCRS.values()}
        self.assertEqual(set(ours), set(driver))
        broken = p4_broken_counter_of_the_driver()
        self.assertEqual(jevents.P4_BROKEN_COUNTER, broken)
        for msr, (select, group, half) in driver.items():
            first = group * 4 + half * 2
            fed = (first, first + 1) + ((16 + half,) if group == 3 else ())
            fed = tuple(c for c in fed if c != broken)
            self.assertEqual(ours[msr], (select, fed), hex(msr))

    def test_identities_pick_the_drivers_cpus(self):
        def pick(ident):
            hits = [t for t in self.tables if re.match(t.cpuid, ident)]
            self.assertLessEqual(len(hits), 1, ident)
            return hits[0].pmu if hits else None

        for model in range(0, 32):
            ident = f'GenuineIntel-6-{model}'
            want = 'p6' if model in p6_models_of_the_driver() else None
            self.assertEqual(pick(ident), want, ident)
        for family, pmu in ((6, 'k7'), (15, 'k8'), (16, 'k10'),
                            (17, None), (21, None), (25, None)):
            self.assertEqual(pick(f'AuthenticAMD-{family}-2'), pmu)
        for model in (0, 1, 2, 3, 4, 6):
            self.assertEqual(pick(f'GenuineIntel-15-{model}'), 'p4')
        for pmu, (_, pvrs) in ppc_models_of_the_driver().items():
            for pvr in pvrs:
                for rev in (0x0000, 0x0209, 0xabcd):
                    for ident in (f'0x{pvr:04X}{rev:04X}',
                                  f'0x{pvr:04x}{rev:04x}'):
                        self.assertEqual(pick(ident), pmu, ident)
        for pvr in power8_pvrs_of_the_driver():
            for ident in (f'0x{pvr:04X}0200', f'0x{pvr:04x}0201'):
                self.assertEqual(pick(ident), 'power8', ident)
        self.assertIsNone(pick('0x004E1200'))       # a POWER9: no driver
        self.assertIsNone(pick('0x00390000'))       # a 970: no driver
        self.assertIsNone(pick('000C0209'))         # no 0x


# ---------------------------------------------------------------------------
# KTAP output for the harness.

class TapResult(unittest.TestResult):
    """Prints one KTAP line per test, with diagnostics before a failure."""

    def __init__(self, stream):
        super().__init__()
        self.stream, self.n = stream, 0

    def _line(self, test, verdict, why=''):
        self.n += 1
        name = test.id().split('.', 1)[-1] \
            if isinstance(test, unittest.TestCase) else str(test)
        if why:
            for line in why.rstrip().split('\n')[-12:]:
                self.stream.write(f'# {line}\n')
        self.stream.write(f'{verdict} {self.n} {name}\n')
        self.stream.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(test, 'ok')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(test, 'not ok', self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._line(test, 'not ok', self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.n += 1
        name = test.id().split('.', 1)[-1]
        self.stream.write(f'ok {self.n} {name} # SKIP {reason}\n')

    def addSubTest(self, test, subtest, err):
        # a failing subtest fails its test; addSuccess is not called then
        if err is not None:
            super().addSubTest(test, subtest, err)
            if not getattr(test, '_tap_failed', False):
                test._tap_failed = True
                self._line(test, 'not ok', self._exc_info_to_string(err,
                                                                    test))


def tap_main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    print('TAP version 13')
    print(f'1..{suite.countTestCases()}')
    result = TapResult(sys.stdout)
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    if sys.argv[1:] == ['--tap']:
        sys.exit(tap_main())
    unittest.main()
