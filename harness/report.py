#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the console logs of test boots and print one summary line.

Each log holds, between markers printed by /init: the KTAP of every
selftest program (PC-RUN / PC-EXIT), and the kernel log (PC-DMESG-BEGIN
/ PC-DMESG-END) with the KUnit suites' KTAP in it, and on kernels with
kmemleak its list of leaks (PC-KMEMLEAK-BEGIN / PC-KMEMLEAK-END). Every
selftest case and every KUnit case is one result; so are "the boot
reached its end", "the clocksource is not jiffies", "the kernel log is
clean", with kmemleak, "kmemleak found no leak" and, on a boot with
slab_nomerge, "perf_counter's slab caches hold no counter or queue at
the end, and only live tasks' contexts" (the counts /init prints
between PC-SLAB-BEGIN and PC-SLAB-END). A program
that dies, a plan that is not met, a missing KUnit suite, a missing
kmemleak list on a target with kmemleak or missing slab counts on a
boot with slab_nomerge is a failure, never a pass.
So is KTAP that does not add up: a program's or a suite's plan printed
twice, cases not numbered 1..plan in order each once, a case named
twice, a program run twice or a suite in the log twice, KTAP between
programs, a KUnit suite-level result missing or disagreeing with its
cases, KUnit's plan of suites not met or its suites misnumbered. A
skip is a failure unless configs/TARGET.skips expects it, with its
message; an expected skip that did not happen is one too.

With --lint-man first (make test), one more result: mandoc -Tlint finds
nothing to say of the man pages in man2/. With --docs LOG (make test,
harness/docs.sh's output), one more: the documentation builds with no
warning from our files and kernel-doc is clean on our sources (LOG ends
with "PC-DOCS ok"). Each --sparse LOG (make test: harness/sparse.sh's
output for a target with SPARSE_DIRS) is one more: sparse finds nothing
to say of our code in that target's configuration.

build/host/test/console-host.log, from harness/host-tests.sh, is the host
unit tests' log (no kernel): the same PC-RUN / PC-EXIT markers and KTAP,
each case one result, every one of HOST_PROGRAMS run to its exit, and
"the host tests reached their end" (PC-DONE ok); its skips are checked
against configs/host.skips.

Usage: report.py [--lint-man] [--docs LOG] [--sparse LOG]... LOG...
Exit status 1 if anything failed. PC_REPORT_TOP, if set, is the tree
whose configs/ and man2/ are read instead of this one's (for
harness/test_report.py).
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys

TAP = re.compile(
    r'^(not ok|ok) (\d+) (?:- )?(.*?)\s*(?:#\s*(SKIP|skip)\b\s*(.*))?$')
# 6.1's kselftest harness prints a skipped case as "ok N # SKIP reason",
# without its name: the name is on the "#  RUN  name ..." line before.
RUN = re.compile(r'^#\s+RUN\s+(\S+) \.\.\.')
# KUnit in 6.1 (lib/kunit/executor.c, test.c), in the kernel log: at
# the left margin "KTAP version 1" and the plan of suites "1..N" (1..0
# when kunit.filter_glob matches no suite); each suite indented by four
# spaces: its header "# Subtest: NAME", its plan "1..N" and its cases;
# then, at the left margin again, the suite's own "ok N NAME" ("not ok"
# if a case failed or its init did, "# SKIP" if every case skipped).
# A suite whose init failed prints no header, plan or case.
KUNIT_CASE = re.compile(
    r'^    (not ok|ok) (\d+) (?:- )?(.*?)(?:\s+#\s*(SKIP)\b\s*(.*))?$')
KUNIT_SUITE = re.compile(r'^    # Subtest: (\S+)')
KUNIT_SUITE_PLAN = re.compile(r'^    1\.\.(\d+)\s*$')
KUNIT_SUITE_END = re.compile(
    r'^(not ok|ok) (\d+) (?:- )?(\S+)(?:\s+#\s*(SKIP)\b\s*(.*?))?\s*$')
KUNIT_PLAN = re.compile(r'^1\.\.(\d+)\s*$')
VERDICT = re.compile(r'^#\s+(OK|FAIL|SKIP)\s')
# the harness's closing lines, which say nothing of a case
HARNESS_TOTALS = re.compile(r'^# (PASSED|FAILED): |^# Totals: ')
# lines a failed result is followed by, kept for the closing recap
AFTER_LINES = 4
PLAN = re.compile(r'^1\.\.(\d+)')
DMESG_PREFIX = re.compile(r'^(<\d+>)?(\[\s*\d+\.\d+\]\s?)?')
# BUG: covers KASAN's reports ("BUG: KASAN: ..."), WARNING: every WARN
# and lockdep report; the corruption checks and refcount_t say what
# they found on a line of their own. kmemleak: anything but its boot
# line (a full pool, unknown objects, giving up) and its count of new
# suspects, which any scan prints: /init's first scans, to forget what
# boot left, count that too; what the programs leak is judged from the
# list after them ("kmemleak found no leak"). The fault injector prints
# nothing at verbose 0.
KERNEL_TROUBLE = re.compile(
    r'BUG:|WARNING:|Oops|Kernel panic|general protection fault|'
    r'possible circular locking|possible recursive locking|'
    r'inconsistent lock state|suspicious RCU usage|'
    r'sleeping function called from invalid context|UBSAN:|'
    r'kernel BUG at|Call Trace:|'
    r'list_add corruption|list_del corruption|refcount_t:|'
    r'DEBUG_LOCKS_WARN_ON|lockdep is turned off|ODEBUG:|usercopy:|'
    r'INFO: (task .* blocked|rcu|trying to register)|'
    r'kmemleak: (?!Kernel memory leak detector (initialized|disabled)|'
    r'\d+ new suspected memory leaks \(see /sys/kernel/debug/kmemleak\))')
# A line of the base64 of a file tool_test prints for the host.
ARTIFACT_LINE = re.compile(r'^PCA:[A-Za-z0-9+/=]*$')
# Under fault injection (a PC-FAILSLAB program), a failed allocation is
# reported with a stack (warn_alloc, kmemleak's own scan areas): those
# reports and their "Call Trace:" lines are what was asked for. Any
# other trouble inside them (BUG:, WARNING: ...) still counts.
INJECTED = re.compile(r'page allocation failure:|vmalloc error:|'
                      r'kmemleak: Cannot allocate a scan area')
INJECTED_DUMP_LINES = 80
LEAK = re.compile(r'^unreferenced object (0x[0-9a-f]+) \(size (\d+)\)')
ALLOCATOR = re.compile(r'kmem_cache_alloc|kmalloc|__alloc|alloc_pages|'
                       r'slab_post_alloc|kmemleak|kvmalloc|kzalloc')
TOP = os.environ.get('PC_REPORT_TOP') or \
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What harness/host-tests.sh runs, as its PC-RUN lines name them.
HOST_PROGRAMS = ['tools/perf_counter/pmu-events/test_jevents.py',
                 'tools/perf_counter/test_callchain.py',
                 'tools/perf_counter/test_sideband.py',
                 'tools/perf_counter/test_export.py',
                 'tools/perf_counter/test_offcpu.py',
                 'tools/perf_counter/test_offcpu_fuzz.py',
                 'harness/readme-example.py', 'harness/test_report.py']

# What harness/artifacts.sh runs on the test boots' logs.
ARTIFACT_PROGRAMS = ['tools/perf_counter/test_export.py']


def manifest(target):
    """What a target's boots must run, as configs/TARGET.env declares
    them: on its first CPU model ('first'), the whole suite: its
    TEST_PROGRAMS (by the name /init runs them under), its KUnit suites
    and whether the boot ends with a bounded fuzz run; on every later
    model, MODEL_TEST_PROGRAMS and the KUnit suites MODEL_KUNIT_SUITES
    (a glob) names ('model_programs', 'model_kunit'); and whether its
    boots count perf_counter's slab caches at the end ('slab': booted
    with slab_nomerge)."""
    env = os.path.join(TOP, 'configs', f'{target}.env')
    if not os.path.exists(env):
        return None
    try:
        out = subprocess.run(
            ['bash', '-c', 'set -eu; . "$1"; echo $TEST_PROGRAMS; '
             'echo $KUNIT_SUITES; echo ${FUZZ_TEST_SECONDS:-}; '
             'echo ${MODEL_TEST_PROGRAMS:-}; echo "${MODEL_KUNIT_SUITES:-}"; '
             'set -f; echo ${QEMU_CPUS:-}; echo ${KERNEL_ARGS:-}',
             'bash', env],
            capture_output=True, text=True, check=True).stdout.split('\n')
    except subprocess.CalledProcessError:
        return None
    kunit = out[1].split()
    model_glob = out[4].strip()
    return {'programs': ['/bin/' + p.rsplit('/', 1)[-1]
                         for p in out[0].split()],
            'kunit': kunit, 'fuzz': bool(out[2].strip()),
            'model_programs': ['/bin/' + p.rsplit('/', 1)[-1]
                               for p in out[3].split()],
            'model_kunit': [s for s in kunit if model_glob and
                            fnmatch.fnmatchcase(s, model_glob)],
            'first': (out[5].split() or [''])[0].split('|')[0],
            'slab': 'slab_nomerge' in out[6].split()}


def kernel_has(build, target, option):
    """Is CONFIG_@option=y in the target's kernel .config? None if the
    config cannot be read."""
    try:
        with open(os.path.join(build, target, 'kernel', '.config')) as f:
            return any(line.strip() == f'CONFIG_{option}=y' for line in f)
    except OSError:
        return None


def expected_skips(target, cpu):
    """configs/TARGET.skips: the skips a boot of @target on @cpu expects,
    as {case: (message, why)}: the message the case must print when it
    skips (a glob: '*' for the numbers it gives), and why it skips there."""
    path = os.path.join(TOP, 'configs', f'{target}.skips')
    want = {}
    if not os.path.exists(path):
        return want
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            fields = [x.strip() for x in line.split(' | ', 3)]
            if len(fields) == 4 and fnmatch.fnmatchcase(cpu, fields[0]):
                want[fields[1]] = (fields[2], fields[3])
            elif len(fields) != 4:
                want[f'(malformed line: {line.strip()})'] = ('', '')
    return want


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.cases, self.boots, self.boot_skips = set(), 0, {}
        self.failures = []

    def amend(self, index, more):
        """Failure @index of the closing recap, with @more (what the
        program printed after the result) added to its line."""
        line = self.failures[index]
        self.failures[index] = (line[:-1] + ' | then: ' + more + ')'
                                if line.endswith(')') else
                                line + '  (then: ' + more + ')')

    def add(self, label, verdict, detail=''):
        word = {'ok': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}[verdict]
        # the same case on every boot is one distinct case
        self.cases.add(label.split(' ', 1)[-1])
        if verdict == 'skip':
            # a skip's detail is the message the case gave
            self.boot_skips[label.split(' ', 1)[-1]] = detail
        line = f'  {word}  {label}{("  (" + detail + ")") if detail else ""}'
        print(line)
        if verdict == 'fail':
            self.failures.append(line)
        if verdict == 'ok':
            self.passed += 1
        elif verdict == 'skip':
            self.skipped += 1
        else:
            self.failed += 1


def selftests(lines, res, where, programs):
    """Every program's cases and exit; each of @programs must have run
    and exited. A program runs once, prints one plan, numbers its cases
    1..plan in order, each once, names each case once, and its PC-EXIT
    names it; no KTAP result or plan is printed outside a program (from
    PC-BEGIN to PC-DONE, the kernel log and kmemleak dumps aside)."""
    prog, started, dump = None, False, False
    runs, exited = {}, set()
    for line in lines:
        if line == 'PC-BEGIN':
            started = True
        elif line.startswith('PC-DONE'):
            started = False
        elif line in ('PC-DMESG-BEGIN', 'PC-KMEMLEAK-BEGIN'):
            dump = True
        elif line in ('PC-DMESG-END', 'PC-KMEMLEAK-END'):
            dump = False
        if line.startswith('PC-RUN '):
            if prog is not None:
                res.add(f'{where} {prog["path"]}: finished', 'fail',
                        'no PC-EXIT before the next program')
            path = line.split()[1]
            runs[path] = runs.get(path, 0) + 1
            if runs[path] == 2:
                res.add(f'{where} {path}: ran once', 'fail',
                        'a second PC-RUN')
            prog = {'path': path, 'name': path.rsplit('/', 1)[-1],
                    'plan': None, 'plans': [], 'numbers': [], 'names': {},
                    'failed': False, 'running': '', 'diag': [],
                    'after': None}
            continue
        if prog is None:
            if started and not dump and (TAP.match(line) or
                                         PLAN.match(line)):
                res.add(f'{where} KTAP only between PC-RUN and PC-EXIT',
                        'fail', line[:200])
            continue
        if line.startswith('PC-EXIT '):
            program_exit(prog, line, res, where)
            exited.add(prog['path'])
            prog = None
            continue
        program_line(prog, line, res, where)
    if prog is not None:
        res.add(f'{where} {prog["path"]}: finished', 'fail',
                'no PC-EXIT: hang or crash')
    for want in programs:
        if want not in exited:
            res.add(f'{where} {want}: ran', 'fail',
                    'in the target\'s manifest, never ran to its exit')
    for extra in sorted(exited - set(programs)):
        res.add(f'{where} {extra}: in this boot\'s manifest', 'fail',
                'ran, but configs/TARGET.env does not name it for this boot')


def program_line(prog, line, res, where):
    """One line of @prog's output: its plan, a case's start, a
    diagnostic or a result."""
    m = PLAN.match(line)
    if m:
        prog['plans'].append(line.strip())
        if prog['plan'] is None:
            prog['plan'] = int(m.group(1))
        return
    m = RUN.match(line)
    if m:
        prog['running'], prog['diag'], prog['after'] = m.group(1), [], None
        return
    if line.startswith('# ') and not VERDICT.match(line):
        # a diagnostic: "# /path/x_test.c:NN:case:text" loses its path
        prog['diag'].append(re.sub(r'^\S*/', '', line[2:].strip()))
        after = prog['after']
        if after and len(after[1]) < AFTER_LINES and \
                not HARNESS_TOTALS.match(line):
            # what a failed result is followed by (pc_fuzz prints its
            # failures after its one result), in the closing recap
            after[1].append(prog['diag'][-1])
            res.amend(after[0], ' | '.join(after[1]))
        return
    m = TAP.match(line)
    if not m:
        return
    case = m.group(3) or prog['running']
    prog['numbers'].append(int(m.group(2)))
    prog['names'][case] = prog['names'].get(case, 0) + 1
    # a result without a name takes no name from an earlier case
    prog['running'] = ''
    label = f'{where} {prog["name"]}: {case}'
    prog['after'] = None
    if m.group(1) == 'not ok':
        prog['failed'] = True
        # what the case said last is why it failed
        res.add(label, 'fail', ' | '.join(prog['diag'][-4:]))
        prog['after'] = (len(res.failures) - 1, [])
    elif m.group(4):
        res.add(label, 'skip', (m.group(5) or '').strip())
    else:
        res.add(label, 'ok')


def program_exit(prog, line, res, where):
    """@prog's PC-EXIT line: its status, plan and case numbers."""
    words = line.split()
    status = int(words[2]) if words[2:3] and words[2].isdigit() else 255
    name, plan, numbers = prog['name'], prog['plan'], prog['numbers']
    if words[1:2] != [prog['path']]:
        res.add(f'{where} {name}: its PC-EXIT names it', 'fail', line)
    if not plan:
        res.add(f'{where} {name}: printed a KTAP plan of its cases',
                'fail', '1..0' if plan == 0 else 'no plan')
    elif len(numbers) != plan:
        res.add(f'{where} {name}: ran {len(numbers)} of {plan} planned',
                'fail')
    if len(prog['plans']) > 1:
        res.add(f'{where} {name}: printed one KTAP plan', 'fail',
                ', '.join(prog['plans']))
    if numbering(numbers):
        res.add(f'{where} {name}: cases numbered 1..N in order, each once',
                'fail', numbering(numbers))
    twice = [case or '(no name)' for case, n in prog['names'].items()
             if n > 1 or not case]
    if twice:
        res.add(f'{where} {name}: every case named, each once', 'fail',
                ', '.join(twice)[:200])
    if status and not prog['failed']:
        res.add(f'{where} {name}: exit status', 'fail', f'status {status}')


def numbering(numbers):
    """'' if @numbers are 1, 2, 3... in order, each once; else what they
    are, for a failure's detail."""
    if numbers == list(range(1, len(numbers) + 1)):
        return ''
    text = ' '.join(str(n) for n in numbers)
    return 'numbered ' + (text if len(text) < 120 else text[:120] + ' ...')


def kunit_verdict(words, skip):
    """A KUnit result line's verdict: 'ok', 'fail' or 'skip'."""
    return 'fail' if words == 'not ok' else 'skip' if skip else 'ok'


def kunit(dmesg, res, where, suites, need_plan):
    """Every KUnit case is one result; a suite of @suites (the manifest)
    missing fails. Each suite must print its plan, its cases numbered
    1..plan in order, each once, and its suite-level result, agreeing
    with its cases, and name each case once; the suites' own results
    must be numbered 1..N and match KUnit's plan of suites, printed once
    (required if @need_plan). A suite runs once. With @suites empty,
    KUnit must run none."""
    plans, ends, named, suite = [], [], {}, None

    def close(suite, verdict, number):
        label = f'{where} kunit {suite["name"]}'
        numbers = suite['numbers']
        if suite['plan'] is None:
            res.add(f'{label}: printed a KTAP plan of its cases', 'fail',
                    'no plan')
        elif len(numbers) != suite['plan']:
            res.add(f'{label}: ran {len(numbers)} of {suite["plan"]} '
                    'planned', 'fail')
        if suite['plans'] > 1:
            res.add(f'{label}: printed one KTAP plan', 'fail',
                    f'{suite["plans"]} plans')
        if numbering(numbers):
            res.add(f'{label}: cases numbered 1..N in order, each once',
                    'fail', numbering(numbers))
        twice = sorted({case for case in suite['cases']
                        if suite['cases'].count(case) > 1})
        if twice:
            res.add(f'{label}: every case named once', 'fail',
                    ', '.join(twice)[:200])
        if verdict is None:
            res.add(f'{label}: suite-level result', 'fail',
                    'no "ok N name" or "not ok N name" after its cases')
            return
        cases = suite['verdicts']
        want = 'fail' if 'fail' in cases else 'ok' if 'ok' in cases \
            else 'skip'
        if verdict != want:
            words = {'ok': 'ok', 'fail': 'not ok', 'skip': 'ok # SKIP'}
            res.add(f'{label}: suite-level result agrees with its cases',
                    'fail', f'"{words[verdict]} {number}", its cases: ' +
                    (', '.join(f'{cases.count(v)} {v}' for v in
                               ('ok', 'fail', 'skip') if v in cases)
                     or 'none'))

    for line in dmesg:
        m = KUNIT_PLAN.match(line)
        if m:
            plans.append(int(m.group(1)))
            continue
        m = KUNIT_SUITE.match(line)
        if m:
            if suite:
                close(suite, None, 0)
            suite = {'name': m.group(1), 'plan': None, 'plans': 0,
                     'numbers': [], 'verdicts': [], 'cases': []}
            named[suite['name']] = named.get(suite['name'], 0) + 1
            continue
        m = KUNIT_SUITE_PLAN.match(line)
        if m and suite:
            suite['plans'] += 1
            if suite['plan'] is None:
                suite['plan'] = int(m.group(1))
            continue
        m = KUNIT_CASE.match(line)
        if m:
            if not suite:
                res.add(f'{where} kunit: every case inside a suite', 'fail',
                        line.strip()[:200])
                continue
            verdict = kunit_verdict(m.group(1), m.group(4))
            suite['numbers'].append(int(m.group(2)))
            suite['verdicts'].append(verdict)
            suite['cases'].append(m.group(3))
            res.add(f'{where} kunit {suite["name"]}.{m.group(3)}', verdict,
                    (m.group(5) or '').strip() if m.group(4) else '')
            continue
        m = KUNIT_SUITE_END.match(line)
        if m:
            name, number = m.group(3), int(m.group(2))
            verdict = kunit_verdict(m.group(1), m.group(4))
            ends.append(number)
            if suite and suite['name'] == name:
                close(suite, verdict, number)
            else:
                if suite:
                    close(suite, None, 0)
                # no header: a suite whose init failed, if not ok
                named[name] = named.get(name, 0) + 1
                res.add(f'{where} kunit {name}: suite-level result', 'fail',
                        f'"{line.strip()}" with no "# Subtest: {name}" '
                        'before it' + (' (its init failed?)'
                                       if verdict == 'fail' else ''))
            suite = None
    if suite:
        close(suite, None, 0)

    for name, times in named.items():
        if times > 1:
            res.add(f'{where} kunit {name}: ran once', 'fail',
                    f'its results are in the kernel log {times} times')
    if plans:
        if len(plans) > 1:
            res.add(f'{where} kunit: printed one KTAP plan of its suites',
                    'fail', ', '.join(f'1..{n}' for n in plans))
        if len(ends) != plans[0]:
            res.add(f'{where} kunit: ran {len(ends)} of {plans[0]} planned '
                    'suites', 'fail')
        if not suites and plans[0]:
            res.add(f'{where} kunit: ran no suite (the manifest names none)',
                    'fail', f'KUnit planned 1..{plans[0]}')
    elif need_plan or ends or named:
        res.add(f'{where} kunit: printed a KTAP plan of its suites', 'fail',
                'no "1..N" at the left margin: did KUnit run?')
    if numbering(ends):
        res.add(f'{where} kunit: suites numbered 1..N in order, each once',
                'fail', numbering(ends))
    for want in suites:
        if want not in named:
            res.add(f'{where} kunit {want}: ran', 'fail', 'suite missing')
    for extra in sorted(set(named) - set(suites)):
        if suites:
            res.add(f'{where} kunit {extra}: in this boot\'s manifest',
                    'fail', 'ran, but configs/TARGET.env does not name it '
                    'for this boot')


def marked_block(lines, tag):
    """What /init printed between PC-@tag-BEGIN and PC-@tag-END: the
    lines inside but its PC-@tag-ERROR ones, those errors, and whether
    the block ended."""
    inside, ended, body, errors = False, False, [], []
    error = f'PC-{tag}-ERROR '
    for line in lines:
        if line == f'PC-{tag}-BEGIN':
            inside = True
        elif line == f'PC-{tag}-END':
            inside, ended = False, True
        elif inside and line.startswith(error):
            errors.append(line[len(error):])
        elif inside:
            body.append(line)
    return body, errors, ended


def kmemleak(lines, res, where, expected):
    """The list /init printed after two scans: any object in it fails,
    and so does a boot of a kernel with kmemleak (@expected) without one."""
    if 'PC-KMEMLEAK-BEGIN' not in lines:
        if expected:
            res.add(f'{where} kmemleak found no leak', 'fail',
                    'no kmemleak list from /init')
        return
    body, errors, ended = marked_block(lines, 'KMEMLEAK')
    leaks = []
    for line in body:
        m = LEAK.match(line.strip())
        if m:
            leaks.append({'size': m.group(2), 'comm': '', 'at': ''})
        elif leaks and line.strip().startswith('comm '):
            leaks[-1]['comm'] = line.strip().split(',')[0][5:]
        elif leaks and '] ' in line and not leaks[-1]['at'] and \
                not ALLOCATOR.search(line):
            # the first frame past the allocator: who leaked it
            leaks[-1]['at'] = line.split('] ', 1)[1].strip()
    if errors or not ended:
        res.add(f'{where} kmemleak found no leak', 'fail',
                '; '.join(errors) or 'the list did not end')
    elif leaks:
        res.add(f'{where} kmemleak found no leak', 'fail',
                f'{len(leaks)} unreferenced objects: ' +
                '; '.join(f"{x['size']} bytes from {x['comm']} at {x['at']}"
                          for x in leaks[:4]) +
                ('; ...' if len(leaks) > 4 else ''))
    else:
        res.add(f'{where} kmemleak found no leak', 'ok')


def slab_left(words, objects, tasks):
    """Is the count of a PC-SLAB line (@words) more than may be left: a
    counter or queue is, a task context more than the subsystem counts
    (@objects, its PC-SLAB-OBJECTS words) or than the tasks alive
    (@tasks) is. A context lives as long as its task, and a fuzzer
    counting init or a kernel thread leaves one on it."""
    if len(words) != 3 or not words[2].isdigit():
        return True
    n = int(words[2])
    if words[1] != 'perf_counter_ctx':
        return n != 0
    contexts = (int(objects[objects.index('contexts') + 1])
                if 'contexts' in objects[:-1] else -1)
    return n != 0 and (n != contexts or tasks is None or n > tasks)


def slab(lines, res, where, expected):
    """perf_counter's slab caches as /init counted them after the
    programs (PC-SLAB-BEGIN / PC-SLAB-END): a counter or queue left
    fails, a task context that is not a live task's (slab_left()) too,
    and so does a boot with slab_nomerge (@expected) without the
    counts."""
    name = (f'{where} perf_counter\'s slab caches hold no counter or '
            'queue at the end, and only live tasks\' contexts')
    if 'PC-SLAB-BEGIN' not in lines:
        if expected:
            res.add(name, 'fail', 'no slab counts from /init')
        return
    body, errors, ended = marked_block(lines, 'SLAB')
    counts, objects, tasks = [], [], None
    for line in body:
        if line.startswith('PC-SLAB '):
            counts.append(line.split())
        elif line.startswith('PC-SLAB-OBJECTS '):
            objects = line.split()[1:]
        elif line.startswith('PC-SLAB-TASKS '):
            word = line.split()[-1]
            tasks = int(word) if word.isdigit() else None
    left = [' '.join(words[1:]) for words in counts
            if slab_left(words, objects, tasks)]
    if errors or not ended or (not counts and expected):
        res.add(name, 'fail',
                '; '.join(errors) or ('the counts did not end' if not ended
                                      else 'no cache counted'))
    elif left:
        res.add(name, 'fail', 'objects left: ' + ', '.join(left) +
                (f' (the subsystem counts {" ".join(objects)}'
                 f'{f"; {tasks} tasks alive" if tasks is not None else ""})'
                 if objects else ''))
    else:
        res.add(name, 'ok')


def kernel_trouble(lines, injected):
    """The lines that report kernel trouble; with @injected, not the
    reports of allocations the fault injector failed."""
    trouble, quiet = [], 0
    for line in lines:
        # a marker, or a line of a file's bytes a program printed (its
        # base64 may spell any word: "Oops" came up once)
        if line.startswith('PC-') or ARTIFACT_LINE.match(line):
            continue
        bare = DMESG_PREFIX.sub('', line, count=1)
        if injected and INJECTED.search(bare):
            quiet = INJECTED_DUMP_LINES
            continue
        if quiet:
            quiet -= 1
            if bare.strip() == 'Call Trace:':
                continue
        if KERNEL_TROUBLE.search(bare):
            trouble.append(bare)
    return trouble


def report(path, res):
    where = path.rsplit('/', 3)
    where = f'{where[-3]}/{where[-1][len("console-"):-len(".log")]}' \
        if len(where) >= 3 else path
    with open(path, errors='replace') as f:
        text = f.read().replace('\r', '')
    lines = text.split('\n')
    print(f'== {where} ==')
    res.boots += 1
    res.boot_skips = {}

    # target and mode from build/TARGET/MODE/console-CPU.log
    parts = path.rsplit('/', 3)
    target, mode = (parts[-3], parts[-2]) if len(parts) >= 3 else ('', '')
    if target == 'host':
        # the host unit tests, or (mode artifacts) the host's checks of
        # the files the test boots printed: no kernel, no boot checks
        done = [line for line in lines if line.startswith('PC-DONE')]
        res.add(f'{where} host tests reached their end, every program '
                'passed', 'ok' if done == ['PC-DONE ok'] else 'fail',
                done[0] if done else 'no PC-DONE')
        selftests(lines, res, where, ARTIFACT_PROGRAMS
                  if mode == 'artifacts' else HOST_PROGRAMS)
        check_skips(res, where, target, mode, done)
        return
    want = manifest(target)
    if want is None:
        res.add(f'{where} target has a configs/TARGET.env manifest', 'fail')
        want = {'programs': [], 'kunit': [], 'fuzz': False,
                'model_programs': [], 'model_kunit': [], 'first': '',
                'slab': False}
    if mode == 'test' and want['first'] and \
            where.split('/', 1)[-1] != want['first']:
        # a model boot: the driver's programs and suites only
        want = dict(want, programs=want['model_programs'],
                    kunit=want['model_kunit'], fuzz=False)
    # (KUNIT_SUITES may be empty: then KUnit must run no suite)
    if mode == 'test' and not want['programs']:
        res.add(f'{where} configs/{target}.env names the programs to run',
                'fail')
    programs = want['programs'] if mode == 'test' else []
    if mode == 'fuzz' or (mode == 'test' and want['fuzz']):
        programs = programs + ['/bin/pc_fuzz']

    done = [line for line in lines if line.startswith('PC-DONE')]
    res.add(f'{where} boot reached the end of /init, every program passed',
            'ok' if done == ['PC-DONE ok'] else 'fail',
            done[0] if done else 'no PC-DONE')
    # what /init itself complains of: a mount, an exec, fault injection
    # or kmemleak it could not set up
    errors = [line for line in lines if line.startswith('init: ')]
    res.add(f'{where} /init reported no error', 'fail' if errors else 'ok',
            '; '.join(errors)[:400])

    cs = [line.split()[1] for line in lines
          if line.startswith('PC-CLOCKSOURCE ') and len(line.split()) > 1]
    res.add(f'{where} clocksource is not jiffies',
            'ok' if cs and cs[0] not in ('jiffies', 'unknown') else 'fail',
            cs[0] if cs else 'not reported')

    selftests(lines, res, where, programs)

    dmesg, inside = [], False
    for line in lines:
        if line == 'PC-DMESG-BEGIN':
            inside = True
        elif line == 'PC-DMESG-END':
            inside = False
        elif inside:
            dmesg.append(DMESG_PREFIX.sub('', line, count=1))
    has_kunit = kernel_has(parts[0], target, 'KUNIT') \
        if len(parts) == 4 else None
    kunit(dmesg, res, where, want['kunit'],
          bool(want['kunit']) or bool(has_kunit))
    has_kmemleak = kernel_has(parts[0], target, 'DEBUG_KMEMLEAK') \
        if len(parts) == 4 else None
    if has_kmemleak is None:
        res.add(f'{where} the kernel\'s .config is readable', 'fail',
                'build/TARGET/kernel/.config: kmemleak or not?')
    elif 'PC-KMEMLEAK-OFF' in lines:
        has_kmemleak = False    # booted with kmemleak=off: a model boot
    kmemleak(lines, res, where, has_kmemleak)
    slab(lines, res, where, want['slab'])

    # kmemleak's list has its own result and its backtraces are not
    # trouble; a list cut short (a crash in the scan) is scanned whole.
    console = lines
    if 'PC-KMEMLEAK-BEGIN' in lines and 'PC-KMEMLEAK-END' in lines:
        begin = lines.index('PC-KMEMLEAK-BEGIN')
        end = lines.index('PC-KMEMLEAK-END')
        console = lines[:begin] + lines[end + 1:]
    trouble = kernel_trouble(dmesg + console,
                             any(line.startswith('PC-FAILSLAB ')
                                 for line in lines))
    res.add(f'{where} kernel log has no BUG/WARNING/Oops/lockdep report',
            'fail' if trouble else 'ok',
            '; '.join(dict.fromkeys(trouble))[:400] if trouble else '')

    check_skips(res, where, target, mode, done)


def check_skips(res, where, target, mode, done):
    """Every skip of the log is expected (configs/TARGET.skips, the host
    tests' configs/host.skips) with its message, and every expected skip
    of a test log (@mode) that reached its end (@done) happened."""
    cpu = where.split('/', 1)[-1]
    expected = expected_skips(target, cpu)
    for case, message in res.boot_skips.items():
        if case not in expected:
            res.add(f'{where} {case}: skip expected', 'fail',
                    f'not in configs/{target}.skips')
        elif not fnmatch.fnmatchcase(message, expected[case][0]):
            res.add(f'{where} {case}: skipped for the reason expected',
                    'fail', f'said "{message}", configs/{target}.skips '
                    f'expects "{expected[case][0]}"')
    # (a boot that never ended has failed already, its cases unseen)
    if mode == 'test' and done:
        for case, (_, why) in expected.items():
            if case not in res.boot_skips:
                res.add(f'{where} {case}: skipped as expected', 'fail',
                        f'ran instead; expected to skip: {why}')


def man_lint(res):
    """One result: every page under man2/ is clean to mandoc -Tlint
    -W warning (no message at all, exit status 0). On failure its
    messages are printed whole, and the first ones are the detail."""
    pages = sorted(glob.glob(os.path.join(TOP, 'man2', '*.2')))
    label = 'man pages: mandoc -Tlint -W warning is clean on ' + \
        (' '.join(os.path.relpath(p, TOP) for p in pages) or 'man2/*.2')
    if not pages:
        res.add(label, 'fail', 'no page in man2/')
        return
    try:
        out = subprocess.run(['mandoc', '-Tlint', '-W', 'warning'] + pages,
                             capture_output=True, text=True)
    except OSError as e:
        res.add(label, 'fail', f'mandoc: {e} (make deps installs it)')
        return
    msgs = [line.replace(TOP + '/', '') for line in
            (out.stdout + out.stderr).split('\n') if line.strip()]
    if out.returncode or msgs:
        print('\n'.join('    ' + m for m in msgs))
        res.add(label, 'fail', f'exit status {out.returncode}: ' +
                ' | '.join(msgs[:4]) + (' | ...' if len(msgs) > 4 else ''))
    else:
        res.add(label, 'ok')


def docs_check(res, path):
    """One result: harness/docs.sh ended with "PC-DOCS ok". On failure
    the problems it printed ("docs: ..." lines and the warnings before
    them) are printed whole, and the first ones are the detail."""
    label = 'documentation: htmldocs and kernel-doc clean on our files'
    try:
        with open(path, errors='replace') as f:
            lines = [line.rstrip('\n') for line in f]
    except OSError as e:
        res.add(label, 'fail', f'{path}: {e}')
        return
    if lines and lines[-1] == 'PC-DOCS ok':
        res.add(label, 'ok')
        return
    msgs = [line for line in lines if line.strip() and
            not line.startswith('==>') and not line.startswith('PC-DOCS')]
    print('\n'.join('    ' + m for m in msgs))
    last = lines[-1] if lines else 'empty log'
    res.add(label, 'fail', f'{os.path.relpath(path, TOP)}: {last}: ' +
            ' | '.join(msgs[:4]) + (' | ...' if len(msgs) > 4 else ''))


def sparse_check(res, path):
    """One result per target: harness/sparse.sh ended with "PC-SPARSE
    TARGET ok". On failure the warnings it printed are printed whole,
    and the first ones are the detail."""
    name = os.path.basename(path)[len('sparse-'):-len('.log')]
    label = f'sparse: no warning on our files ({name})'
    try:
        with open(path, errors='replace') as f:
            lines = [line.rstrip('\n') for line in f]
    except OSError as e:
        res.add(label, 'fail', f'{path}: {e}')
        return
    if lines and lines[-1].startswith(f'PC-SPARSE {name} ok'):
        res.add(label, 'ok')
        return
    msgs = [line for line in lines[:-1] if line.strip()]
    print('\n'.join('    ' + m for m in lines if m.strip()))
    last = lines[-1] if lines else 'empty log'
    res.add(label, 'fail', f'{last}: ' + ' | '.join(msgs[:3]) +
            (' | ...' if len(msgs) > 3 else ''))


def main():
    res = Results()
    args = sys.argv[1:]
    if args[:1] == ['--lint-man']:
        args = args[1:]
        print('== man pages ==')
        man_lint(res)
    if args[:1] == ['--docs']:
        if len(args) < 2:
            res.add('--docs LOG: a log', 'fail')
            args = args[1:]
        else:
            print('== documentation ==')
            docs_check(res, args[1])
            args = args[2:]
    while args[:1] == ['--sparse']:
        if len(args) < 2:
            res.add('--sparse LOG: a log', 'fail')
            args = args[1:]
            break
        print('== sparse ==')
        sparse_check(res, args[1])
        args = args[2:]
    if not args:
        res.add('at least one boot log', 'fail')
    for path in args:
        try:
            report(path, res)
        except OSError as e:
            res.add(f'{path}: readable', 'fail', str(e))
    if res.failures:
        # again at the end, where a log cut to its tail still shows them
        print('Failures:')
        print('\n'.join(res.failures))
    print(f'{len(res.cases)} distinct cases and checks on {res.boots} boots')
    summary = f'{res.passed} passed, {res.failed} failed'
    if res.skipped:
        summary += f', {res.skipped} skipped'
    print(summary)
    return 1 if res.failed else 0


if __name__ == '__main__':
    sys.exit(main())
