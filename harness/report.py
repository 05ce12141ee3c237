#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the console logs of test boots and print one summary line.

Each log holds, between markers printed by /init: the KTAP of every
selftest program (PC-RUN / PC-EXIT), and the kernel log (PC-DMESG-BEGIN
/ PC-DMESG-END) with the KUnit suites' KTAP in it, and on kernels with
kmemleak its list of leaks (PC-KMEMLEAK-BEGIN / PC-KMEMLEAK-END). Every
selftest case and every KUnit case is one result; so are "the boot
reached its end", "the clocksource is not jiffies", "the kernel log is
clean" and, with kmemleak, "kmemleak found no leak". A program that
dies, a plan that is not met, a missing KUnit suite or a missing
kmemleak list on a target with kmemleak is a failure, never a pass.

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
# BUG: covers KASAN's reports ("BUG: KASAN: ..."), WARNING: every WARN
# and lockdep report; the corruption checks and refcount_t say what
# they found on a line of their own. kmemleak: anything but its boot
# line (leaks, a full pool, unknown objects, giving up). The fault
# injector prints nothing at verbose 0.
KERNEL_TROUBLE = re.compile(
    r'BUG:|WARNING:|Oops|Kernel panic|general protection fault|'
    r'possible circular locking|possible recursive locking|'
    r'inconsistent lock state|suspicious RCU usage|'
    r'sleeping function called from invalid context|UBSAN:|'
    r'kernel BUG at|Call Trace:|'
    r'list_add corruption|list_del corruption|refcount_t:|'
    r'DEBUG_LOCKS_WARN_ON|lockdep is turned off|ODEBUG:|usercopy:|'
    r'INFO: (task .* blocked|rcu|trying to register)|'
    r'kmemleak: (?!Kernel memory leak detector initialized)')
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
EXPECTED_KUNIT = ('perf_counter_config', 'perf_counter_time',
                  'perf_counter_group', 'perf_counter_queue',
                  'perf_counter_rotate', 'perf_counter_hw_assign')
X86_KUNIT = ('perf_counter_x86_p6_model', 'perf_counter_x86_k7_model',
             'perf_counter_x86_p4_model', 'perf_counter_x86_reserve')
# The drivers' suites each target's kernel must run, by target name.
TARGET_KUNIT = {'x86_64': X86_KUNIT, 'i386': X86_KUNIT,
                'ppc32': ('perf_counter_ppc_mmcr_model',),
                'x86_64-bench': (), 'x86_64-debug': X86_KUNIT}
# Targets whose kernel has kmemleak: a boot without its list fails.
KMEMLEAK_TARGETS = ('x86_64-debug',)


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


def kmemleak(lines, res, where):
    """The list /init printed after two scans: any object in it fails."""
    if 'PC-KMEMLEAK-BEGIN' not in lines:
        if where.split('/')[0] in KMEMLEAK_TARGETS:
            res.add(f'{where} kmemleak found no leak', 'fail',
                    'no kmemleak list from /init')
        return
    inside, ended, errors, leaks = False, False, [], []
    for line in lines:
        if line == 'PC-KMEMLEAK-BEGIN':
            inside = True
        elif line == 'PC-KMEMLEAK-END':
            inside, ended = False, True
        elif inside and line.startswith('PC-KMEMLEAK-ERROR '):
            errors.append(line[len('PC-KMEMLEAK-ERROR '):])
        elif inside:
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


def kernel_trouble(lines, injected):
    """The lines that report kernel trouble; with @injected, not the
    reports of allocations the fault injector failed."""
    trouble, quiet = [], 0
    for line in lines:
        if line.startswith('PC-'):
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

    done = any(line.startswith('PC-DONE') for line in lines)
    res.add(f'{where} boot reached the end of /init', 'ok' if done else 'fail')
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
    kmemleak(lines, res, where)

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
