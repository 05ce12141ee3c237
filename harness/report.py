#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the console logs of test boots and print one summary line.

Each log holds, between markers printed by /init: the KTAP of every
selftest program (PC-RUN / PC-EXIT), and the kernel log (PC-DMESG-BEGIN
/ PC-DMESG-END) with the KUnit suites' KTAP in it. Every selftest case
and every KUnit case is one result; so are "the boot reached its end",
"the clocksource is not jiffies" and "the kernel log is clean". A
program that dies, a plan that is not met or a missing KUnit suite is a
failure, never a pass.

Usage: report.py LOG...   Exit status 1 if anything failed.
"""
import re
import sys

TAP = re.compile(r'^(not ok|ok) \d+ (?:- )?(.*?)\s*(?:#\s*(SKIP|skip)\b.*)?$')
# 6.1's kselftest harness prints a skipped case as "ok N # SKIP reason",
# without its name: the name is on the "#  RUN  name ..." line before.
RUN = re.compile(r'^#\s+RUN\s+(\S+) \.\.\.')
KUNIT_CASE = re.compile(r'^    (not ok|ok) \d+ (?:- )?(.*?)(?:\s+#\s*(SKIP)\b.*)?$')
KUNIT_SUITE = re.compile(r'^    # Subtest: (\S+)')
PLAN = re.compile(r'^1\.\.(\d+)')
DMESG_PREFIX = re.compile(r'^(<\d+>)?(\[\s*\d+\.\d+\]\s?)?')
KERNEL_TROUBLE = re.compile(
    r'BUG:|WARNING:|Oops|Kernel panic|general protection fault|'
    r'possible circular locking|possible recursive locking|'
    r'inconsistent lock state|suspicious RCU usage|'
    r'sleeping function called from invalid context|UBSAN:|'
    r'kernel BUG at|Call Trace:')
EXPECTED_KUNIT = ('perf_counter_config', 'perf_counter_time',
                  'perf_counter_group', 'perf_counter_queue',
                  'perf_counter_rotate', 'perf_counter_hw_assign')
X86_KUNIT = ('perf_counter_x86_p6_model', 'perf_counter_x86_k7_model',
             'perf_counter_x86_p4_model', 'perf_counter_x86_reserve')
# The drivers' suites each target's kernel must run, by target name.
TARGET_KUNIT = {'x86_64': X86_KUNIT, 'i386': X86_KUNIT,
                'ppc32': ('perf_counter_ppc_mmcr_model',),
                'x86_64-bench': ()}


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def add(self, label, verdict, detail=''):
        word = {'ok': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}[verdict]
        print(f'  {word}  {label}{("  (" + detail + ")") if detail else ""}')
        if verdict == 'ok':
            self.passed += 1
        elif verdict == 'skip':
            self.skipped += 1
        else:
            self.failed += 1


def selftests(lines, res, where):
    prog, plan, seen, failed_here = None, None, 0, False
    running = ''
    for line in lines:
        if line.startswith('PC-RUN '):
            prog, plan, seen, failed_here = line.split()[1], None, 0, False
            continue
        if prog is None:
            continue
        if line.startswith('PC-EXIT '):
            status = int(line.split()[2])
            name = prog.rsplit('/', 1)[-1]
            if plan is None:
                res.add(f'{where} {name}: printed a KTAP plan', 'fail')
            elif seen != plan:
                res.add(f'{where} {name}: ran {seen} of {plan} planned', 'fail')
            if status and not failed_here:
                res.add(f'{where} {name}: exit status', 'fail', f'status {status}')
            prog = None
            continue
        m = PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = RUN.match(line)
        if m:
            running = m.group(1)
            continue
        m = TAP.match(line)
        if m:
            seen += 1
            name = prog.rsplit('/', 1)[-1] + ': ' + (m.group(2) or running)
            if m.group(1) == 'not ok':
                failed_here = True
                res.add(f'{where} {name}', 'fail')
            elif m.group(3):
                res.add(f'{where} {name}', 'skip')
            else:
                res.add(f'{where} {name}', 'ok')
    if prog is not None:
        res.add(f'{where} {prog}: finished', 'fail', 'no PC-EXIT: hang or crash')


def kunit(dmesg, res, where):
    suite, found = None, set()
    for line in dmesg:
        m = KUNIT_SUITE.match(line)
        if m:
            suite = m.group(1)
            found.add(suite)
            continue
        m = KUNIT_CASE.match(line)
        if m and suite:
            verdict = 'fail' if m.group(1) == 'not ok' else \
                      'skip' if m.group(3) else 'ok'
            res.add(f'{where} kunit {suite}.{m.group(2)}', verdict)
    target = where.split('/')[0]
    for want in EXPECTED_KUNIT + TARGET_KUNIT.get(target, ()):
        if want not in found:
            res.add(f'{where} kunit {want}: ran', 'fail', 'suite missing')


def report(path, res):
    where = path.rsplit('/', 3)
    where = f'{where[-3]}/{where[-1][len("console-"):-len(".log")]}' \
        if len(where) >= 3 else path
    with open(path, errors='replace') as f:
        text = f.read().replace('\r', '')
    lines = text.split('\n')
    print(f'== {where} ==')

    done = any(line.startswith('PC-DONE') for line in lines)
    res.add(f'{where} boot reached the end of /init', 'ok' if done else 'fail')

    cs = [line.split()[1] for line in lines
          if line.startswith('PC-CLOCKSOURCE ') and len(line.split()) > 1]
    res.add(f'{where} clocksource is not jiffies',
            'ok' if cs and cs[0] not in ('jiffies', 'unknown') else 'fail',
            cs[0] if cs else 'not reported')

    selftests(lines, res, where)

    dmesg, inside = [], False
    for line in lines:
        if line == 'PC-DMESG-BEGIN':
            inside = True
        elif line == 'PC-DMESG-END':
            inside = False
        elif inside:
            dmesg.append(DMESG_PREFIX.sub('', line, count=1))
    kunit(dmesg, res, where)

    trouble = [DMESG_PREFIX.sub('', line, count=1) for line in dmesg + lines
               if KERNEL_TROUBLE.search(line) and not line.startswith('PC-')]
    res.add(f'{where} kernel log has no BUG/WARNING/Oops/lockdep report',
            'fail' if trouble else 'ok',
            '; '.join(dict.fromkeys(trouble))[:400] if trouble else '')


def main():
    res = Results()
    if len(sys.argv) < 2:
        res.add('at least one boot log', 'fail')
    for path in sys.argv[1:]:
        try:
            report(path, res)
        except OSError as e:
            res.add(f'{path}: readable', 'fail', str(e))
    summary = f'{res.passed} passed, {res.failed} failed'
    if res.skipped:
        summary += f', {res.skipped} skipped'
    print(summary)
    return 1 if res.failed else 0


if __name__ == '__main__':
    sys.exit(main())
