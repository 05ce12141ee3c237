#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print what make test's time was spent on, against the budget.

make test must fit CI: a cold run (no ccache, a fresh clone) on a
2-core machine within MAKE_TEST_BUDGET_S of wall time
(configs/common.env), well inside CI's limit, with room for what the
next features add. The kernels build one after another in the
background while the boots of those built run (harness/test.sh), so a
build costs the run only the time the boots wait for it. Each target's
boots have a share, BOOT_BUDGET_S in configs/TARGET.env. This prints
each target's build, wait and boots, the boots against their share, the
whole run's wall time against the budget, and the programs that took
longest, so that a suite growing towards CI's limit is seen here, long
before a CI run is cut off. A warm build (ccache) takes a fraction of
its cold time.

Usage: budget.py TIMES LOG...
TIMES holds lines "NAME SECONDS" from harness/test.sh ("setup",
"wall", "artifacts", "TARGET build", "TARGET wait", "TARGET boot CPU"); each LOG is a
console log with /init's "PC-TIME PROGRAM MS" lines. Prints only; never
fails the run.
"""
import os
import subprocess
import sys
from collections import OrderedDict

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CI_LIMIT_S = 5400
LONGEST = 8


def env_value(target, name):
    """@name as configs/@target.env sets it, or None."""
    env = os.path.join(TOP, 'configs', f'{target}.env')
    try:
        out = subprocess.run(['bash', '-c', f'. "$1"; echo "${{{name}:-}}"',
                              'bash', env], capture_output=True, text=True,
                             check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return out or None


def read_times(path):
    """{'setup': s, 'wall': s, 'artifacts': s},
    {target: {'build', 'wait', 'boots'}}"""
    whole, targets = {'setup': 0, 'wall': 0, 'artifacts': 0}, OrderedDict()
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) < 2 or not words[-1].isdigit():
                continue
            secs = int(words[-1])
            if words[0] in whole:
                whole[words[0]] += secs
                continue
            t = targets.setdefault(words[0],
                                   {'build': 0, 'wait': 0, 'boots': []})
            if words[1] in ('build', 'wait'):
                t[words[1]] += secs
            elif words[1] == 'boot' and len(words) == 4:
                t['boots'].append((words[2], secs))
    return whole, targets


def program_times(logs):
    """[(seconds, 'target/cpu program')] from every log's PC-TIME lines"""
    found = []
    for path in logs:
        parts = path.rsplit('/', 3)
        if len(parts) < 4:
            continue
        where = f'{parts[-3]}/{parts[-1][len("console-"):-len(".log")]}'
        try:
            with open(path, errors='replace') as f:
                for line in f:
                    words = line.replace('\r', '').split()
                    if len(words) == 3 and words[0] == 'PC-TIME' and \
                            words[2].isdigit():
                        found.append((int(words[2]) / 1000,
                                      f'{where} {words[1]}'))
        except OSError:
            pass
    return sorted(found, reverse=True)


def main():
    if len(sys.argv) < 2:
        print('usage: budget.py TIMES LOG...', file=sys.stderr)
        return 0
    try:
        whole, targets = read_times(sys.argv[1])
    except OSError as e:
        print(f'budget: {e}')
        return 0
    budget = int(env_value('common', 'MAKE_TEST_BUDGET_S') or 3600)
    print(f'== time against the budget: a cold make test within {budget} s '
          f'(CI stops at {CI_LIMIT_S} s) ==')
    print(f'  {"target":<14}{"build":>8}{"waited":>8}{"boots":>8}'
          f'{"share":>8}')
    shares = 0
    for name, t in targets.items():
        boots = sum(s for _, s in t['boots'])
        share = env_value(name, 'BOOT_BUDGET_S')
        shares += int(share or 0)
        note = ''
        if share is None:
            note = '  (no BOOT_BUDGET_S in its env)'
        elif boots > int(share):
            note = f'  boots OVER their share by {boots - int(share)} s'
        print(f'  {name:<14}{t["build"]:>7}s{t["wait"]:>7}s{boots:>7}s'
              f'{(share or "-"):>7}{"s" if share else " "}{note}')
        for cpu, secs in t['boots']:
            print(f'      boot {cpu}: {secs} s')
    print(f'  setup: {whole["setup"]} s (packages, source, host tests, '
          'docs; the first build runs beside it)')
    print(f'  artifacts: {whole["artifacts"]} s (the host\'s checks of the '
          'files the boots printed)')
    wall = whole['wall']
    verdict = 'within the budget' if wall <= budget else \
        'OVER the budget: trim the suite or move cases (testing.rst)'
    print(f'  wall time: {wall} s, {100 * wall // budget}% of {budget} s, '
          f'{verdict}')
    if shares > budget:
        print(f'  the boots\' shares add up to {shares} s: more than the '
              'whole budget')
    longest = program_times(sys.argv[2:])[:LONGEST]
    if longest:
        print('  the longest programs:')
        for secs, what in longest:
            print(f'    {secs:8.1f} s  {what}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
