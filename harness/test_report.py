#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of harness/report.py on synthetic console logs.

Each test writes a small tree in a temporary directory, laid out as
report.py reads it (configs/TARGET.env, configs/TARGET.skips,
build/TARGET/kernel/.config, build/TARGET/test/console-CPU.log), runs
report.py on it with PC_REPORT_TOP pointing there, and checks the
result: a good log passes, a log with one defect fails with its message.

Run: python3 test_report.py [-v]      (unittest's own output)
     python3 test_report.py --tap     (KTAP, one line per test, for the
                                       harness: harness/host-tests.sh)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
REPORT = os.path.join(HERE, 'report.py')
sys.path.insert(0, HERE)
import report  # noqa: E402

TARGET = 'tgt'
CPU = 'cpu0'
SKIPS_HEADER = '# CPU model | case | message | why\n'

# The good boot: two programs and two KUnit suites, one skip in each.
PROGRAMS = [
    ('a_test', [('global.one', 'ok', ''),
                ('global.two', 'skip', 'no PMU here (errno 2)')]),
    ('b_test', [('global.three', 'ok', '')]),
]
SUITES = [
    ('suite_one', [('case_a', 'ok', ''), ('case_b', 'ok', ''),
                   ('case_c', 'skip', 'no driver on this CPU')]),
    ('suite_two', [('case_d', 'ok', '')]),
]
SKIPS = [f'{CPU} | a_test: global.two | no PMU here (errno *) | none',
         f'{CPU} | kunit suite_one.case_c | no driver on this CPU | none']
# four checks of the boot, five cases passed, two skipped
GOOD_TOTALS = '9 passed, 0 failed, 2 skipped'


def selftest(prog, cases, path=None):
    """What /init prints around a kselftest harness program of 6.1:
    @cases are (name, verdict, message), verdict 'ok', 'fail' or 'skip'.
    The exit status is 1 if a case failed."""
    path = path or f'/bin/{prog}'
    lines = [f'PC-RUN {path}', 'TAP version 13', f'1..{len(cases)}',
             f'# Starting {len(cases)} tests from 1 test cases.']
    failed = 0
    for n, (name, verdict, message) in enumerate(cases, 1):
        lines.append(f'#  RUN           {name} ...')
        if verdict == 'skip':
            lines += [f'#      SKIP      {message}',
                      f'#            OK  {name}', f'ok {n} # SKIP {message}']
        elif verdict == 'fail':
            lines += [f'# {prog}.c:40:{name}:Expected 0 (0) == 1 (1)',
                      f'#          FAIL  {name}', f'not ok {n} {name}']
            failed = 1
        else:
            lines += [f'#            OK  {name}', f'ok {n} {name}']
    verdicts = [verdict for _, verdict, _ in cases]
    lines += [f'# {"FAILED" if failed else "PASSED"}: '
              f'{len(cases) - verdicts.count("fail")} / '
              f'{len(cases)} tests passed.',
              f'# Totals: pass:{verdicts.count("ok")} '
              f'fail:{verdicts.count("fail")} xfail:0 xpass:0 '
              f'skip:{verdicts.count("skip")} error:0',
              f'PC-EXIT {path} {failed}',
              # /init's time of the program, after its exit: ignored
              f'PC-TIME {path} 1234']
    return lines


def kunit(suites):
    """KUnit's KTAP as 6.1 prints it at boot (lib/kunit/executor.c and
    test.c): the plan of suites, then each suite's header, plan, cases,
    statistics and suite-level result. @suites are (name, cases), the
    cases as selftest()'s."""
    lines = ['KTAP version 1', f'1..{len(suites)}']
    for number, (suite, cases) in enumerate(suites, 1):
        lines += ['    KTAP version 1', f'    # Subtest: {suite}',
                  f'    1..{len(cases)}']
        for n, (name, verdict, message) in enumerate(cases, 1):
            if verdict == 'fail':
                lines += [f'    # {name}: EXPECTATION FAILED at x.c:9',
                          '    Expected a == b, but',
                          f'    not ok {n} {name}']
            elif verdict == 'skip':
                lines.append(f'    ok {n} {name} # SKIP {message}')
            else:
                lines.append(f'    ok {n} {name}')
        verdicts = [verdict for _, verdict, _ in cases]
        if len(cases) > 1:
            # (kunit.stats_enabled=1: statistics of two cases or more)
            lines.append(f'# {suite}: pass:{verdicts.count("ok")} '
                         f'fail:{verdicts.count("fail")} '
                         f'skip:{verdicts.count("skip")} '
                         f'total:{len(cases)}')
        if 'fail' in verdicts:
            lines.append(f'not ok {number} {suite}')
        elif 'ok' in verdicts:
            lines.append(f'ok {number} {suite}')
        else:
            lines.append(f'ok {number} {suite} # SKIP ')
    return lines


def kernel_log(lines, start=0.5):
    """@lines as klogctl(SYSLOG_ACTION_READ_ALL) gives them, between the
    markers /init prints around the kernel log."""
    stamped = [f'<6>[{start + i / 1000:12.6f}] {line}'
               for i, line in enumerate(lines)]
    return ['PC-DMESG-BEGIN'] + stamped + ['', 'PC-DMESG-END']


def guest_log(programs=PROGRAMS, suites=SUITES, ktap=None):
    """A test boot's whole console, as /init leaves it; @ktap, if given,
    is KUnit's output instead of @suites'."""
    lines = ['SeaBIOS (version 1.16.2)', 'Booting from ROM..',
             '[    0.000000] Linux version 6.1.0', 'PC-BEGIN',
             'PC-CLOCKSOURCE tsc']
    lines += kernel_log(['Linux version 6.1.0'] +
                        (kunit(suites) if ktap is None else ktap))
    for prog, cases in programs:
        lines += selftest(prog, cases)
    lines += kernel_log(['perf_counter: done'], start=30)
    return lines + ['PC-DONE ok', 'PC-QEMU-STATUS 1']


def host_program(path, cases):
    """What harness/host-tests.sh writes of one host program: its KTAP
    as test_jevents.py prints it (a skip's result line names its case)."""
    lines = [f'PC-RUN {path}', 'TAP version 13', f'1..{len(cases)}']
    for n, (name, verdict, message) in enumerate(cases, 1):
        if verdict == 'fail':
            lines += ['# AssertionError: 1 != 0', f'not ok {n} {name}']
        elif verdict == 'skip':
            lines.append(f'ok {n} {name} # SKIP {message}')
        else:
            lines.append(f'ok {n} {name}')
    failed = any(verdict == 'fail' for _, verdict, _ in cases)
    return lines + [f'PC-EXIT {path} {int(failed)}']


def host_log(programs=None):
    """harness/host-tests.sh's log: every one of report.py's
    HOST_PROGRAMS, each with one case passed unless @programs (by path)
    gives its cases."""
    lines = ['PC-BEGIN']
    for path in report.HOST_PROGRAMS:
        lines += host_program(path, (programs or {}).get(
            path, [('Case.test_one', 'ok', '')]))
    failed = any(line.startswith('not ok') for line in lines)
    return lines + [f'PC-DONE {"fail" if failed else "ok"}']


class ReportTest(unittest.TestCase):
    """A temporary tree for report.py, and assertions on its output."""

    manifest = {'TEST_PROGRAMS': 'a_test b_test',
                'KUNIT_SUITES': 'suite_one suite_two'}
    config = ['CONFIG_KUNIT=y']

    def setUp(self):
        self.top = tempfile.mkdtemp(prefix='test_report.')
        self.addCleanup(shutil.rmtree, self.top)
        self.write(f'configs/{TARGET}.env', ''.join(
            f'{name}="{value}"\n' for name, value in self.manifest.items()))
        self.write_skips(TARGET, SKIPS)
        self.write(f'build/{TARGET}/kernel/.config',
                   ''.join(c + '\n' for c in self.config))

    def write_skips(self, target, skips):
        """configs/TARGET.skips: its header comment and @skips."""
        self.write(f'configs/{target}.skips',
                   SKIPS_HEADER + ''.join(s + '\n' for s in skips))

    def write(self, path, text):
        """Write @text to @path under the temporary tree; its path."""
        path = os.path.join(self.top, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def run_report(self, lines, target=TARGET, cpu=CPU):
        """report.py on @lines as build/TARGET/test/console-CPU.log:
        (exit status, output)."""
        log = self.write(f'build/{target}/test/console-{cpu}.log',
                         '\n'.join(lines) + '\n')
        env = dict(os.environ, PC_REPORT_TOP=self.top)
        out = subprocess.run([sys.executable, REPORT, log], env=env,
                             capture_output=True, text=True)
        self.assertEqual(out.stderr, '')
        # the closing line, in its one format
        self.assertRegex(out.stdout.rstrip('\n').split('\n')[-1],
                         r'^\d+ passed, \d+ failed(, \d+ skipped)?$')
        return out.returncode, out.stdout

    def assertPasses(self, lines, totals=None, **where):
        """The report passes, with @totals as its closing line if given."""
        status, out = self.run_report(lines, **where)
        self.assertNotIn('  FAIL  ', out)
        self.assertEqual(status, 0, out)
        if totals:
            self.assertEqual(out.rstrip('\n').split('\n')[-1], totals)
        return out

    def assertFails(self, lines, label, detail='', **where):
        """The report fails, on a FAIL line holding @label and @detail
        (substrings; @label before the detail's parenthesis)."""
        status, out = self.run_report(lines, **where)
        self.assertEqual(status, 1, out)
        fails = [line for line in out.split('\n')
                 if line.startswith('  FAIL  ')]
        hits = [line for line in fails
                if label in line.split('  (', 1)[0] and detail in line]
        self.assertTrue(hits, f'no FAIL line with "{label}" and '
                        f'"{detail}" in:\n' + '\n'.join(fails))
        self.assertIn('\nFailures:\n', out)
        return out


def replace(lines, old, new):
    """@lines with the one line @old replaced by @new (a list: none, one
    or more lines)."""
    at = [i for i, line in enumerate(lines) if line == old]
    assert len(at) == 1, f'{old!r} is {len(at)} times in the log'
    return lines[:at[0]] + new + lines[at[0] + 1:]


class GoodLogs(ReportTest):
    """Good logs pass, and the host programs' two lists agree."""

    def test_good_guest_log_passes(self):
        out = self.assertPasses(guest_log(), GOOD_TOTALS)
        self.assertIn(f'  SKIP  {TARGET}/{CPU} a_test: global.two  '
                      '(no PMU here (errno 2))', out)
        self.assertIn(f'  PASS  {TARGET}/{CPU} kunit suite_two.case_d', out)

    def test_good_host_log_passes(self):
        status, out = self.run_report(host_log(), target='host',
                                      cpu='host')
        self.assertEqual(status, 0, out)
        self.assertEqual(out.rstrip('\n').split('\n')[-1],
                         f'{len(report.HOST_PROGRAMS) + 1} passed, 0 failed')

    def test_host_programs_are_host_tests_shs(self):
        with open(os.path.join(HERE, 'host-tests.sh')) as f:
            text = f.read()
        listed = re.search(r'^HOST_PROGRAMS="([^"]*)"', text, re.M)
        self.assertIsNotNone(listed)
        self.assertEqual(listed.group(1).split(), report.HOST_PROGRAMS)


class ExistingChecks(ReportTest):
    """What report.py failed on before the plan and numbering checks."""

    def test_failed_case(self):
        programs = [PROGRAMS[0], ('b_test', [('global.three', 'fail', '')])]
        self.assertFails(guest_log(programs), 'b_test: global.three',
                         'Expected 0 (0) == 1 (1)')

    def test_what_follows_a_failed_result_is_in_the_recap(self):
        # pc_fuzz prints its one result, then the failures it found: the
        # closing recap, which CI's cut log shows, must name them
        lines = replace(guest_log(), 'ok 1 global.three',
                        ['not ok 1 global.three',
                         '# w0.1 op 7 fork op 3: read(71) = -1 ESRCH'])
        lines = replace(lines, 'PC-EXIT /bin/b_test 0',
                        ['PC-EXIT /bin/b_test 1'])
        status, out = self.run_report(lines)
        self.assertEqual(status, 1, out)
        recap = out.split('\nFailures:\n', 1)[1]
        self.assertRegex(recap, r'b_test: global\.three .*then: '
                         r'w0\.1 op 7 fork op 3: read\(71\) = -1 ESRCH')
        self.assertNotIn('Totals', recap)

    def test_failed_kunit_case(self):
        suites = [SUITES[0], ('suite_two', [('case_d', 'fail', '')])]
        self.assertFails(guest_log(suites=suites), 'kunit suite_two.case_d')

    def test_fewer_cases_than_planned(self):
        lines = replace(guest_log(), 'ok 1 global.three', [])
        self.assertFails(lines, 'b_test: ran 0 of 1 planned')

    def test_no_plan(self):
        lines = replace(guest_log(), '1..1', [])
        self.assertFails(lines, 'b_test: printed a KTAP plan', 'no plan')

    def test_program_exits_non_zero(self):
        lines = replace(guest_log(), 'PC-EXIT /bin/b_test 0',
                        ['PC-EXIT /bin/b_test 139'])
        self.assertFails(lines, 'b_test: exit status', 'status 139')

    def test_program_never_exits(self):
        at = guest_log().index('PC-EXIT /bin/b_test 0')
        self.assertFails(guest_log()[:at], '/bin/b_test: finished',
                         'no PC-EXIT')

    def test_program_of_the_manifest_missing(self):
        self.assertFails(guest_log(PROGRAMS[:1]), '/bin/b_test: ran',
                         'never ran to its exit')

    def test_suite_of_the_manifest_missing(self):
        self.assertFails(guest_log(suites=SUITES[:1]),
                         'kunit suite_two: ran', 'suite missing')

    def test_no_pc_done(self):
        lines = replace(guest_log(), 'PC-DONE ok', [])
        self.assertFails(lines, 'boot reached the end of /init', 'no PC-DONE')

    def test_kernel_warning(self):
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['<4>[   30.000000] WARNING: CPU: 0 at x.c:1'])
        self.assertFails(lines, 'kernel log has no BUG', 'WARNING: CPU: 0')

    def test_artifact_base64_spelling_oops_is_no_trouble(self):
        # a file's bytes, printed for the host: any word may come up
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['PCA:AADQDwAA0A8AAHgOopscAAAAAAAAAP////8g'])
        self.assertPasses(lines)

    def test_oops_beside_an_artifact_line_is_trouble(self):
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['PCA:AADQDwAA<4>[   30.000000] Oops: Kernel access'])
        self.assertFails(lines, 'kernel log has no BUG', 'Oops')

    def test_kmemleak_count_alone_is_no_trouble(self):
        # /init's first scans count what boot left, then forget it
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['<6>[   30.000000] kmemleak: 3 new suspected '
                         'memory leaks (see /sys/kernel/debug/kmemleak)'])
        self.assertPasses(lines)

    def test_kmemleak_kernel_without_a_list_fails(self):
        self.config = ['CONFIG_KUNIT=y', 'CONFIG_DEBUG_KMEMLEAK=y']
        self.setUp()
        self.assertFails(guest_log(), 'kmemleak found no leak',
                         'no kmemleak list from /init')

    def test_kmemleak_off_at_boot_wants_no_list(self):
        # a model boot of the sanitizer target: kmemleak=off
        self.config = ['CONFIG_KUNIT=y', 'CONFIG_DEBUG_KMEMLEAK=y']
        self.setUp()
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['<6>[   30.000000] kmemleak: Kernel memory leak '
                         'detector disabled'])
        lines.insert(lines.index('PC-BEGIN') + 1, 'PC-KMEMLEAK-OFF')
        self.assertPasses(lines)

    def test_other_kmemleak_lines_are_trouble(self):
        lines = replace(guest_log(), '<6>[   30.000000] perf_counter: done',
                        ['<6>[   30.000000] kmemleak: Memory pool empty, '
                         'consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE'])
        self.assertFails(lines, 'kernel log has no BUG', 'kmemleak: Memory')

    def test_unexpected_skip(self):
        self.write_skips(TARGET, SKIPS[1:])
        self.assertFails(guest_log(), 'a_test: global.two: skip expected',
                         f'not in configs/{TARGET}.skips')

    def test_expected_skip_ran(self):
        programs = [('a_test', [('global.one', 'ok', ''),
                                ('global.two', 'ok', '')]), PROGRAMS[1]]
        self.assertFails(guest_log(programs),
                         'a_test: global.two: skipped as expected',
                         'ran instead')

    def test_skip_with_another_message(self):
        programs = [('a_test', [('global.one', 'ok', ''),
                                ('global.two', 'skip', 'other')]),
                    PROGRAMS[1]]
        self.assertFails(guest_log(programs),
                         'a_test: global.two: skipped for the reason',
                         'said "other"')


class KunitChecks(ReportTest):
    """KUnit's plans, numbers and suite-level results."""

    def test_audit_two_of_five_cases_then_suite_not_ok(self):
        ktap = replace(kunit(SUITES), '    1..3', ['    1..5'])
        ktap = replace(ktap, '    ok 3 case_c # SKIP no driver on this CPU',
                       [])
        ktap = replace(ktap, 'ok 1 suite_one', ['not ok 1 suite_one'])
        self.write_skips(TARGET, SKIPS[:1])
        out = self.assertFails(guest_log(ktap=ktap),
                               'kunit suite_one: ran 2 of 5 planned')
        self.assertIn('suite_one: suite-level result agrees with its cases'
                      '  ("not ok 1", its cases: 2 ok)', out)

    def test_fewer_cases_than_planned(self):
        ktap = replace(kunit(SUITES), '    1..1', ['    1..2'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: ran 1 of 2 planned')

    def test_more_cases_than_planned(self):
        ktap = replace(kunit(SUITES), '    ok 1 case_d',
                       ['    ok 1 case_d', '    ok 2 case_e'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: ran 2 of 1 planned')

    def test_no_suite_plan(self):
        ktap = replace(kunit(SUITES), '    1..1', [])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: printed a KTAP plan', 'no plan')

    def test_suite_plan_twice(self):
        ktap = replace(kunit(SUITES), '    1..1', ['    1..1', '    1..1'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: printed one KTAP plan', '2 plans')

    def test_case_number_twice(self):
        ktap = replace(kunit(SUITES), '    ok 2 case_b', ['    ok 1 case_b'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_one: cases numbered 1..N',
                         'numbered 1 1 3')

    def test_case_number_gap(self):
        ktap = replace(kunit(SUITES),
                       '    ok 3 case_c # SKIP no driver on this CPU',
                       ['    ok 4 case_c # SKIP no driver on this CPU'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_one: cases numbered 1..N',
                         'numbered 1 2 4')

    def test_cases_out_of_order(self):
        ktap = replace(kunit(SUITES), '    ok 1 case_a', [])
        ktap = replace(ktap, '    ok 2 case_b',
                       ['    ok 2 case_b', '    ok 1 case_a'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_one: cases numbered 1..N',
                         'numbered 2 1 3')

    def test_case_named_twice(self):
        ktap = replace(kunit(SUITES), '    ok 2 case_b', ['    ok 2 case_a'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_one: every case named once', 'case_a')

    def test_suite_not_ok_though_every_case_passed(self):
        ktap = replace(kunit(SUITES), 'ok 2 suite_two', ['not ok 2 suite_two'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: suite-level result agrees',
                         '"not ok 2", its cases: 1 ok')

    def test_suite_ok_though_a_case_failed(self):
        suites = [SUITES[0], ('suite_two', [('case_d', 'fail', '')])]
        ktap = replace(kunit(suites), 'not ok 2 suite_two', ['ok 2 suite_two'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: suite-level result agrees',
                         '"ok 2", its cases: 1 fail')

    def test_suite_level_result_missing(self):
        ktap = replace(kunit(SUITES), 'ok 1 suite_one', [])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_one: suite-level result',
                         'no "ok N name"')

    def test_last_suite_level_result_missing(self):
        ktap = replace(kunit(SUITES), 'ok 2 suite_two', [])
        out = self.assertFails(guest_log(ktap=ktap),
                               'kunit suite_two: suite-level result',
                               'no "ok N name"')
        self.assertIn('kunit: ran 1 of 2 planned suites', out)

    def test_suite_whose_init_failed(self):
        ktap = kunit(SUITES)
        ktap = ktap[:ktap.index('    # Subtest: suite_two') - 1] + [
            '    # suite_two:     # failed to initialize (-12)',
            'not ok 2 suite_two']
        self.assertFails(guest_log(ktap=ktap),
                         'kunit suite_two: suite-level result',
                         'its init failed?')

    def test_suite_twice(self):
        ktap = kunit(SUITES)
        ktap = replace(ktap, '1..2', ['1..3'])
        ktap += kunit([SUITES[1]])[2:-1] + ['ok 3 suite_two']
        self.assertFails(guest_log(ktap=ktap), 'kunit suite_two: ran once',
                         '2 times')

    def test_case_outside_a_suite(self):
        ktap = kunit(SUITES) + ['    ok 2 case_e']
        self.assertFails(guest_log(ktap=ktap),
                         'kunit: every case inside a suite', 'ok 2 case_e')

    def test_no_plan_of_suites(self):
        ktap = replace(kunit(SUITES), '1..2', [])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit: printed a KTAP plan of its suites')

    def test_plan_of_suites_twice(self):
        ktap = replace(kunit(SUITES), '1..2', ['1..2', '1..2'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit: printed one KTAP plan of its suites',
                         '1..2, 1..2')

    def test_plan_of_suites_not_met(self):
        ktap = replace(kunit(SUITES), '1..2', ['1..3'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit: ran 2 of 3 planned suites')

    def test_suite_numbers_wrong(self):
        ktap = replace(kunit(SUITES), 'ok 2 suite_two', ['ok 1 suite_two'])
        self.assertFails(guest_log(ktap=ktap),
                         'kunit: suites numbered 1..N', 'numbered 1 1')

    def test_parameterised_case_is_one_result(self):
        ktap = replace(kunit(SUITES), '    ok 1 case_d', [
            '        KTAP version 1', '        # Subtest: case_d',
            '        ok 1 param-0', '        not ok 2 param-1',
            '    # case_d: pass:1 fail:1 skip:0 total:2',
            '    not ok 1 case_d'])
        ktap = replace(ktap, 'ok 2 suite_two', ['not ok 2 suite_two'])
        out = self.assertFails(guest_log(ktap=ktap),
                               'kunit suite_two.case_d')
        self.assertNotIn('param', out)
        self.assertEqual(out.count('  FAIL  '), 2, out)  # again at the end

    def test_suite_whose_cases_all_skipped_passes(self):
        suites = [SUITES[0], ('suite_two', [('case_d', 'skip', 'why')])]
        self.write_skips(TARGET, SKIPS + [
            f'{CPU} | kunit suite_two.case_d | why | none'])
        self.assertPasses(guest_log(suites=suites),
                          '8 passed, 0 failed, 3 skipped')


class SelftestChecks(ReportTest):
    """Each program's plan, numbers, names, run and exit."""

    def test_audit_ok_1_twice_fills_a_plan_of_2(self):
        lines = replace(guest_log(), '1..1', ['1..2'])
        lines = replace(lines, 'ok 1 global.three',
                        ['ok 1 global.three', 'ok 1 global.four'])
        self.assertFails(lines, 'b_test: cases numbered 1..N',
                         'numbered 1 1')

    def test_number_gap(self):
        lines = replace(guest_log(), '1..1', ['1..2'])
        lines = replace(lines, 'ok 1 global.three',
                        ['ok 1 global.three', 'ok 3 global.four'])
        self.assertFails(lines, 'b_test: cases numbered 1..N',
                         'numbered 1 3')

    def test_numbers_out_of_order(self):
        lines = replace(guest_log(), 'ok 1 global.one', ['ok 2 global.one'])
        lines = replace(lines, 'ok 2 # SKIP no PMU here (errno 2)',
                        ['ok 1 # SKIP no PMU here (errno 2)'])
        self.assertFails(lines, 'a_test: cases numbered 1..N',
                         'numbered 2 1')

    def test_case_named_twice(self):
        lines = replace(guest_log(), '1..1', ['1..2'])
        lines = replace(lines, 'ok 1 global.three',
                        ['ok 1 global.three', 'ok 2 global.three'])
        self.assertFails(lines, 'b_test: every case named, each once',
                         'global.three')

    def test_case_with_no_name(self):
        lines = replace(guest_log(), '#  RUN           global.two ...', [])
        self.assertFails(lines, 'a_test: every case named, each once',
                         '(no name)')

    def test_plan_twice(self):
        lines = replace(guest_log(), '1..1', ['1..1', '1..1'])
        self.assertFails(lines, 'b_test: printed one KTAP plan',
                         '1..1, 1..1')

    def test_program_run_twice(self):
        lines = guest_log()
        at = lines.index('PC-DONE ok')
        lines[at:at] = selftest('b_test', PROGRAMS[1][1])
        self.assertFails(lines, '/bin/b_test: ran once', 'a second PC-RUN')

    def test_exit_of_another_program(self):
        lines = replace(guest_log(), 'PC-EXIT /bin/b_test 0',
                        ['PC-EXIT /bin/a_test 0'])
        self.assertFails(lines, 'b_test: its PC-EXIT names it',
                         'PC-EXIT /bin/a_test 0')

    def test_result_between_programs(self):
        lines = replace(guest_log(), 'PC-TIME /bin/a_test 1234',
                        ['PC-TIME /bin/a_test 1234', 'ok 3 global.late'])
        self.assertFails(lines, 'KTAP only between PC-RUN and PC-EXIT',
                         'ok 3 global.late')

    def test_plan_between_programs(self):
        lines = replace(guest_log(), 'PC-RUN /bin/b_test',
                        ['1..4', 'PC-RUN /bin/b_test'])
        self.assertFails(lines, 'KTAP only between PC-RUN and PC-EXIT',
                         '1..4')

    def test_firmware_before_init_passes(self):
        lines = ['ok 1 firmware says ok', '1..3'] + guest_log()
        self.assertPasses(lines, GOOD_TOTALS)

    def test_host_program_numbers(self):
        path = report.HOST_PROGRAMS[0]
        lines = host_log({path: [('Case.test_two', 'ok', '')]})
        lines = replace(lines, 'ok 1 Case.test_two', ['ok 2 Case.test_two'])
        self.assertFails(lines, f'{os.path.basename(path)}: cases numbered',
                         'numbered 2', target='host', cpu='host')


class HostSkips(ReportTest):
    """configs/host.skips applies to the host tests' log."""

    JEVENTS = 'tools/perf_counter/pmu-events/test_jevents.py'
    CASE = 'RealTree.test_compiles_with_gcc_warnings_as_errors'
    LABEL = f'test_jevents.py: {CASE}'

    def setUp(self):
        super().setUp()
        self.write_skips('host', [])

    def jevents(self, verdict, message='gcc is not installed'):
        return host_log({self.JEVENTS: [('RealTree.test_generates', 'ok', ''),
                                        (self.CASE, verdict, message)]})

    def test_unexpected_skip(self):
        self.assertFails(self.jevents('skip'), f'{self.LABEL}: skip expected',
                         'not in configs/host.skips', target='host',
                         cpu='host')

    def test_expected_skip_passes(self):
        self.write_skips('host', [f'host | {self.LABEL} | gcc is not '
                                  'installed | no gcc'])
        status, out = self.run_report(self.jevents('skip'), target='host',
                                      cpu='host')
        self.assertEqual(status, 0, out)
        self.assertIn(f'  SKIP  host/host {self.LABEL}  (gcc is not '
                      'installed)', out)

    def test_expected_skip_ran(self):
        self.write_skips('host', [f'host | {self.LABEL} | gcc is not '
                                  'installed | no gcc'])
        self.assertFails(self.jevents('ok'),
                         f'{self.LABEL}: skipped as expected',
                         'ran instead; expected to skip: no gcc',
                         target='host', cpu='host')

    def test_skip_with_another_message(self):
        self.write_skips('host', [f'host | {self.LABEL} | gcc is not '
                                  'installed | no gcc'])
        self.assertFails(self.jevents('skip', 'no compiler'),
                         f'{self.LABEL}: skipped for the reason expected',
                         'said "no compiler"', target='host', cpu='host')

    def test_the_trees_host_skips_are_well_formed(self):
        path = os.path.join(TOP, 'configs', 'host.skips')
        self.assertTrue(os.path.exists(path))
        for case in report.expected_skips('host', 'host'):
            self.assertFalse(case.startswith('(malformed line'), case)


class KunitFilteredOut(ReportTest):
    """A manifest with no KUnit suite: kunit.filter_glob matching none."""

    manifest = {'TEST_PROGRAMS': 'a_test b_test', 'KUNIT_SUITES': ''}

    def setUp(self):
        super().setUp()
        self.write_skips(TARGET, SKIPS[:1])

    def test_no_suite_passes(self):
        self.assertPasses(guest_log(ktap=['KTAP version 1', '1..0']),
                          '6 passed, 0 failed, 1 skipped')

    def test_suites_that_ran_fail(self):
        self.write_skips(TARGET, SKIPS)
        self.assertFails(guest_log(), 'kunit: ran no suite',
                         'KUnit planned 1..2')

    def test_no_kunit_output_fails(self):
        self.assertFails(guest_log(ktap=[]),
                         'kunit: printed a KTAP plan of its suites')

    def test_kernel_without_kunit_passes(self):
        self.write(f'build/{TARGET}/kernel/.config', '# CONFIG_KUNIT is '
                   'not set\n')
        self.assertPasses(guest_log(ktap=[]), '6 passed, 0 failed, 1 skipped')

    def test_no_program_in_the_manifest_fails(self):
        self.write(f'configs/{TARGET}.env',
                   'TEST_PROGRAMS=""\nKUNIT_SUITES=""\n')
        self.assertFails(guest_log(ktap=['KTAP version 1', '1..0']),
                         f'configs/{TARGET}.env names the programs to run')


class ModelBoots(ReportTest):
    """A target of two CPU models: the first boots the whole suite, the
    second (a model boot) only MODEL_TEST_PROGRAMS and the suites
    MODEL_KUNIT_SUITES matches."""

    manifest = {'TEST_PROGRAMS': 'a_test b_test',
                'KUNIT_SUITES': 'suite_one suite_two',
                'MODEL_TEST_PROGRAMS': 'a_test',
                'MODEL_KUNIT_SUITES': 'suite_o*',
                'QEMU_CPUS': f'{CPU}|arg=1 cpu1'}

    def setUp(self):
        super().setUp()
        self.write_skips(TARGET, SKIPS + [
            s.replace(CPU, 'cpu1', 1) for s in SKIPS])

    def test_first_model_boots_the_whole_suite(self):
        self.assertPasses(guest_log(), GOOD_TOTALS)

    def test_first_model_without_a_program_fails(self):
        self.assertFails(guest_log(PROGRAMS[:1]), '/bin/b_test: ran',
                         'never ran to its exit')

    def test_model_boot_runs_its_programs_and_suite(self):
        self.assertPasses(guest_log(PROGRAMS[:1], SUITES[:1]),
                          '7 passed, 0 failed, 2 skipped', cpu='cpu1')

    def test_model_boot_running_another_program_fails(self):
        self.assertFails(guest_log(PROGRAMS, SUITES[:1]),
                         "/bin/b_test: in this boot's manifest",
                         'does not name it', cpu='cpu1')

    def test_model_boot_running_another_suite_fails(self):
        self.assertFails(guest_log(PROGRAMS[:1], SUITES),
                         "kunit suite_two: in this boot's manifest",
                         'does not name it', cpu='cpu1')

    def test_model_boot_without_its_suite_fails(self):
        self.assertFails(guest_log(PROGRAMS[:1], SUITES[1:]),
                         'kunit suite_one: ran', 'suite missing', cpu='cpu1')


# ---------------------------------------------------------------------------
# KTAP output for the harness.

class SlabCounts(ReportTest):
    """A boot with slab_nomerge: /init's count of perf_counter's slab
    caches after the programs is a result of its own."""

    manifest = dict(ReportTest.manifest, KERNEL_ARGS='quiet slab_nomerge')
    LABEL = ("perf_counter's slab caches hold no counter or queue at "
             "the end, and only live tasks' contexts")

    def slab_log(self, counts):
        """guest_log() with @counts (lines between PC-SLAB-BEGIN and
        PC-SLAB-END) after the programs."""
        return replace(guest_log(), 'PC-DONE ok',
                       ['PC-SLAB-BEGIN'] + counts +
                       ['PC-SLAB-END', 'PC-DONE ok'])

    def test_empty_caches_pass(self):
        out = self.assertPasses(self.slab_log(
            ['PC-SLAB-READS 2', 'PC-SLAB perf_counter 0',
             'PC-SLAB perf_counter_ctx 0', 'PC-SLAB perf_counter_queue 0']),
            '10 passed, 0 failed, 2 skipped')
        self.assertIn(f'  PASS  {TARGET}/{CPU} {self.LABEL}', out)

    def test_object_left_fails_with_both_counts(self):
        self.assertFails(self.slab_log(
            ['PC-SLAB-READS 200', 'PC-SLAB perf_counter 3',
             'PC-SLAB perf_counter_ctx 0', 'PC-SLAB perf_counter_queue 0',
             'PC-SLAB-OBJECTS counters 0 contexts 0 queues 0 arrays 0 '
             'tracepoints 0 pages 0']),
            self.LABEL, 'objects left: perf_counter 3 (the subsystem '
            'counts counters 0')

    def test_live_tasks_context_passes(self):
        self.assertPasses(self.slab_log(
            ['PC-SLAB-READS 1', 'PC-SLAB perf_counter 0',
             'PC-SLAB perf_counter_ctx 1', 'PC-SLAB perf_counter_queue 0',
             'PC-SLAB-OBJECTS counters 0 contexts 1 queues 0 arrays 0 '
             'tracepoints 0 pages 0', 'PC-SLAB-TASKS 40']),
            '10 passed, 0 failed, 2 skipped')

    def test_context_the_subsystem_does_not_count_fails(self):
        self.assertFails(self.slab_log(
            ['PC-SLAB-READS 200', 'PC-SLAB perf_counter 0',
             'PC-SLAB perf_counter_ctx 2', 'PC-SLAB perf_counter_queue 0',
             'PC-SLAB-OBJECTS counters 0 contexts 1 queues 0 arrays 0 '
             'tracepoints 0 pages 0', 'PC-SLAB-TASKS 40']),
            self.LABEL, 'objects left: perf_counter_ctx 2 (the subsystem '
            'counts counters 0 contexts 1')

    def test_more_contexts_than_tasks_fail(self):
        self.assertFails(self.slab_log(
            ['PC-SLAB-READS 1', 'PC-SLAB perf_counter 0',
             'PC-SLAB perf_counter_ctx 3', 'PC-SLAB perf_counter_queue 0',
             'PC-SLAB-OBJECTS counters 0 contexts 3 queues 0 arrays 0 '
             'tracepoints 0 pages 0', 'PC-SLAB-TASKS 2']),
            self.LABEL, '2 tasks alive')

    def test_merged_cache_fails(self):
        self.assertFails(self.slab_log(
            ['PC-SLAB-ERROR perf_counter: no cache of its own in '
             '/sys/kernel/slab/']), self.LABEL, 'no cache of its own')

    def test_counts_cut_short_fail(self):
        self.assertFails(replace(guest_log(), 'PC-DONE ok',
                                 ['PC-SLAB-BEGIN', 'PC-SLAB perf_counter 0',
                                  'PC-DONE ok']),
                         self.LABEL, 'the counts did not end')

    def test_boot_with_slab_nomerge_without_counts_fails(self):
        self.assertFails(guest_log(), self.LABEL, 'no slab counts from /init')


class SparseChecks(ReportTest):
    """--sparse LOG: harness/sparse.sh's verdict is one result a target."""

    def run_sparse(self, text):
        """report.py on a good guest log and @text as sparse-T.log."""
        log = self.write(f'build/{TARGET}/test/console-{CPU}.log',
                         '\n'.join(guest_log()) + '\n')
        sparse = self.write('build/budget/sparse-t.log', text)
        env = dict(os.environ, PC_REPORT_TOP=self.top)
        out = subprocess.run([sys.executable, REPORT, '--sparse', sparse,
                              log], env=env, capture_output=True, text=True)
        return out.returncode, out.stdout

    def test_clean_sparse_run_is_one_pass(self):
        status, out = self.run_sparse('PC-SPARSE t ok (kernel/x)\n')
        self.assertEqual(status, 0, out)
        self.assertIn('  PASS  sparse: no warning on our files (t)', out)

    def test_a_warning_fails_and_is_named(self):
        status, out = self.run_sparse(
            'kernel/x/a.c:1:2: warning: context imbalance in \'f\'\n'
            'PC-SPARSE t fail: 1 warnings\n')
        self.assertEqual(status, 1, out)
        fails = [line for line in out.split('\nFailures:\n')[0].split('\n')
                 if line.startswith('  FAIL  sparse: no warning on our '
                                    'files (t)')]
        self.assertEqual(len(fails), 1, out)
        self.assertIn('context imbalance', fails[0])

    def test_a_log_without_its_verdict_fails(self):
        status, out = self.run_sparse('make: *** [Makefile] Error 2\n')
        self.assertEqual(status, 1, out)
        self.assertIn('  FAIL  sparse: no warning on our files (t)', out)


class KtapResult(unittest.TestResult):
    """One KTAP line per test, numbered from 1; a failure's traceback
    goes before its "not ok" line as "# " diagnostics."""

    def __init__(self, stream):
        super().__init__()
        self.stream, self.number = stream, 0

    def _result(self, test, verdict, why='', directive=''):
        self.number += 1
        for line in why.rstrip().split('\n')[-12:] if why else []:
            self.stream.write(f'# {line}\n')
        name = test.id().split('.', 1)[-1]
        self.stream.write(f'{verdict} {self.number} {name}{directive}\n')
        self.stream.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._result(test, 'ok')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._result(test, 'not ok', self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._result(test, 'not ok', self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._result(test, 'ok', directive=f' # SKIP {reason}')


def tap_main():
    tests = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    print('TAP version 13')
    print(f'1..{tests.countTestCases()}')
    result = KtapResult(sys.stdout)
    tests.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    if sys.argv[1:] == ['--tap']:
        sys.exit(tap_main())
    unittest.main()
