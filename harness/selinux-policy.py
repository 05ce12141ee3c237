#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The SELinux policy lsm_test loads, as checkpolicy's source language.

Usage: selinux-policy.py KERNEL_SOURCE > policy.conf

Its classes and permissions, and its initial SIDs, are the kernel's own
(security/selinux/include/classmap.h and initial_sid_to_string.h), so
the kernel finds no class unknown. One user, one role, no MLS. Every
type may do everything to every type, but for the perf_event class:
there each domain has on itself every permission but the one its name
says it lacks, base_t has them all, and no domain has any on another
(a counter opened in base_t is not one that another domain may read or
write). Everything the kernel labels gets base_t (every initial SID),
and so does the boot's /init, so that loading the policy changes
nothing else the boot does.
"""
import re
import sys

PERF_PERMS = ['open', 'cpu', 'kernel', 'tracepoint', 'read', 'write']

# domain: the perf_event permissions it lacks on itself
DOMAINS = {
    'base_t': [],
    'noperf_t': PERF_PERMS,
    'nokernel_t': ['kernel'],
    'nocpu_t': ['cpu'],
    'notracepoint_t': ['tracepoint'],
    'noread_t': ['read'],
    'nowrite_t': ['write'],
}


def c_source(path):
    """The file with comments and preprocessor conditionals taken out."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return text.replace('\\\n', ' ')


def classes(src):
    """[(class, [permission, ...]), ...] in the kernel's order."""
    text = c_source(src + '/security/selinux/include/classmap.h')
    macros = {}
    body = []
    for line in text.splitlines():
        m = re.match(r'\s*#\s*define\s+(\w+)\s+(.*)', line)
        if m:
            macros[m.group(1)] = m.group(2)
        elif not line.lstrip().startswith('#'):
            body.append(line)
    body = ' '.join(body)
    # the permission-list macros name each other: expand to a fixpoint
    for _ in range(len(macros) + 1):
        new = re.sub(r'\b(COMMON_\w+)\b', lambda m: macros[m.group(1)], body)
        if new == body:
            break
        body = new
    else:
        sys.exit('classmap.h: a macro that never ends')
    start = body.index('secclass_map[]')
    found = []
    for m in re.finditer(r'\{\s*"(\w+)"\s*,\s*\{([^{}]*)\}\s*\}',
                         body[start:]):
        perms = re.findall(r'"(\w+)"', m.group(2))
        if not perms:
            sys.exit('classmap.h: class %s has no permission' % m.group(1))
        found.append((m.group(1), perms))
    if not any(c == 'perf_event' for c, _ in found):
        sys.exit('classmap.h: no perf_event class')
    return found


def initial_sids(src):
    """The initial SIDs' names by number from 1; None where unused."""
    text = c_source(src + '/security/selinux/include/initial_sid_to_string.h')
    items = re.search(r'\{(.*)\}', text, flags=re.S).group(1)
    names = [n.strip() for n in items.split(',') if n.strip()]
    names = [None if n == 'NULL' else n.strip('"') for n in names]
    if names[0] is not None or 'kernel' not in names:
        sys.exit('initial_sid_to_string.h: not the layout this expects')
    return names[1:]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    cls = classes(src)
    sids = [n or 'unused%d' % (i + 1)
            for i, n in enumerate(initial_sids(src))]
    out = []
    out += ['class %s' % c for c, _ in cls] + ['']
    out += ['sid %s' % s for s in sids] + ['']
    for c, perms in cls:
        out.append('class %s { %s }' % (c, ' '.join(perms)))
    out.append('')
    types = ' '.join(DOMAINS)
    out += ['type %s;' % t for t in DOMAINS]
    out += ['role system_r;', 'role system_r types { %s };' % types, '']
    others = ' '.join(c for c, _ in cls if c != 'perf_event')
    out.append('allow { %s } { %s }:{ %s } *;' % (types, types, others))
    for domain, lacks in DOMAINS.items():
        perms = [p for p in PERF_PERMS if p not in lacks]
        if perms:
            out.append('allow %s self:perf_event { %s };' %
                       (domain, ' '.join(perms)))
    out += ['', 'user system_u roles { system_r };', '']
    out += ['sid %s system_u:system_r:base_t' % s for s in sids]
    out.append('')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
