#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of perf-counter report's replay of side-band records.

Writes version 3 record files by hand, as record writes them (the
events, the snapshot at time 0, then samples and the kernel's MMAP,
COMM, FORK and EXIT records in time order), with two programs built
here (test_callchain's prog_fp and prog_nofp) mapped at one address,
and checks that report names each sample with the program its task had
at that moment: across fork, exec and a pid used again, with a record
written late put back in its place; that tasks it never saw start are
named with their unnamed samples, never guessed (a task's samples from
before record read it from /proc too); that a process's mappings go
with its last thread; --sort (cpu too, and rows of a file with chains),
--comms, --dsos, --symbols; one profile per event; -D's lines in time
order; either byte order; damaged items.

Run: python3 test_sideband.py [-v]     (unittest's own output)
     python3 test_sideband.py --tap    (KTAP, for harness/host-tests.sh)
"""
import os
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_callchain as tc  # noqa: E402  (its programs and helpers)

KMMAP, COMM, FORK, EXIT, LOST_SIDEBAND = 6, 7, 8, 9, 10
SAMPLE, LOST, EVENT, COMMAND = 4, 5, 1, 2
COMM_EXEC = 1
MMAP_ANON = 2
RTYPE = tc.PERF_RECORD_IRQ | tc.PERF_RECORD_TID | tc.PERF_RECORD_TIME
PARENT, CHILD, STRANGER = 100, 101, 200


def setUpModule():
    tc.setUpModule()


def tearDownModule():
    tc.tearDownModule()


class File:
    """A version 3 record file, item by item; version 4 (-F) carries
    each sample's period."""

    def __init__(self, order='<', events=('task-clock:u',), version=3):
        self.e = order
        self.version = version
        self.out = b'PCRECORD' + struct.pack(order + 'II', version,
                                             0x01020304)
        for name in events:
            self.add(EVENT, struct.pack(order + 'QQQQII', 1,
                                        0 if version >= 4 else 1000000,
                                        RTYPE, 0, 0, 1000) +
                     name.encode() + b'\0')

    def add(self, kind, body):
        self.out += tc.item(self.e, kind, body)

    def comm(self, pid, tid, t, name, exec_=True):
        self.add(COMM, struct.pack(self.e + 'IIQII16s', pid, tid, t,
                                   COMM_EXEC if exec_ else 0, 0,
                                   name.encode()))

    def mmap(self, pid, t, prog, path=None, flags=0):
        st = os.stat(prog.path)
        path = prog.path if path is None else path
        self.add(KMMAP, struct.pack(self.e + 'IIQQQQQQII', pid, pid, t,
                                    tc.BASE, 0x100000, 0, st.st_dev,
                                    st.st_ino, 5, flags) +
                 path.encode() + b'\0')

    def exec_(self, pid, t, prog):
        self.comm(pid, pid, t, os.path.basename(prog.path))
        self.mmap(pid, t, prog)

    def task(self, kind, pid, tid, t, ppid, ptid):
        self.add(kind, struct.pack(self.e + 'IIQII', pid, tid, t, ppid,
                                   ptid))

    def sample(self, pid, t, ip, n=1, event=0, tid=None, cpu=-1,
               period=1000000):
        for i in range(n):
            body = struct.pack(self.e + 'QIIQIi', ip, pid, tid or pid,
                               t + i, event, cpu)
            if self.version >= 4:
                body += struct.pack(self.e + 'Q', period)
            self.add(SAMPLE, body)

    def lost_sideband(self, n, t):
        self.add(LOST_SIDEBAND, struct.pack(self.e + 'QQIi', n, t, 0, -1))

    def write(self, name):
        path = os.path.join(tc.state['tmp'], name)
        with open(path, 'wb') as f:
            f.write(self.out)
        return path


def progs():
    return tc.Program(tc.state['prog_fp']), tc.Program(tc.state['prog_nofp'])


def workload(order='<'):
    """PARENT runs prog_fp (from the snapshot); it forks CHILD, whose
    first samples (before its exec) are prog_fp's 'a', then CHILD execs
    prog_nofp, mapped at the same address, and its samples are there;
    it exits, and its pid comes back as a fork of PARENT again."""
    fp, nofp = progs()
    f = File(order)
    f.exec_(PARENT, 0, fp)
    f.sample(PARENT, 10, fp.at('leaf'), n=10)
    f.task(FORK, CHILD, CHILD, 20, PARENT, PARENT)
    f.sample(CHILD, 21, fp.at('a'), n=5)
    f.exec_(CHILD, 30, nofp)
    f.sample(CHILD, 40, nofp.at('b'), n=20)
    f.task(EXIT, CHILD, CHILD, 60, PARENT, PARENT)
    f.task(FORK, CHILD, CHILD, 70, PARENT, PARENT)
    f.sample(CHILD, 71, fp.at('main'), n=3)
    return f


class Report(tc.ReportTest):
    def rows(self, out):
        """(percent, samples, the rest split) of each profile line."""
        rows = []
        for line in out.split('\n'):
            if line.startswith('  ') and '%' in line:
                f = line.split()
                rows.append((float(f[0][:-1]), int(f[1]), f[2:]))
        return rows


class Replay(Report):
    """Each sample is named with its task's program at that moment."""

    def test_fork_exec_and_a_pid_used_again(self):
        out = self.report(workload().write('w.data'))
        self.assertIn('# 38 samples of task-clock:u', out)
        rows = {tuple(r[2]): r[1] for r in self.rows(out)}
        self.assertEqual(rows, {
            ('prog_fp', 'prog_fp', '[.]', 'leaf'): 10,
            ('prog_nofp', 'prog_nofp', '[.]', 'b'): 20,
            ('prog_fp', 'prog_fp', '[.]', 'a'): 5,
            ('prog_fp', 'prog_fp', '[.]', 'main'): 3}, out)
        self.assertNotIn('no mapping', out)

    def test_a_record_written_late_is_put_in_its_place(self):
        # the exec's records after samples that came after them: a CPU
        # stalled between taking the time and committing the record
        fp, nofp = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 40, nofp.at('b'), n=4)
        f.exec_(PARENT, 30, nofp)
        out = self.report(f.write('late.data'))
        rows = {tuple(r[2]): r[1] for r in self.rows(out)}
        self.assertEqual(rows, {('prog_nofp', 'prog_nofp', '[.]', 'b'): 4},
                         out)

    def test_samples_before_a_task_was_read_are_not_named_by_it(self):
        # record -p: the task ran prog_fp, then exec'd prog_nofp, then
        # /proc was read (the snapshot, at its time): the samples from
        # before are unnamed, never named with what /proc showed after
        fp, nofp = progs()
        f = File()
        f.sample(PARENT, 10, fp.at('a'), n=3)
        f.exec_(PARENT, 50, nofp)
        f.sample(PARENT, 60, nofp.at('b'), n=2)
        out = self.report(f.write('snap.data'))
        self.assertIn(f'#   pid {PARENT} (prog_nofp): 3 of its 5 samples; '
                      'its start was not seen', out)

    def test_mappings_go_with_the_last_thread(self):
        fp, _ = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.task(FORK, PARENT, PARENT + 1, 5, PARENT, PARENT)
        f.task(EXIT, PARENT, PARENT, 10, PARENT, PARENT)
        # the main thread ended, the other still runs in the program
        f.sample(PARENT, 20, fp.at('leaf'), n=2, tid=PARENT + 1)
        f.task(EXIT, PARENT, PARENT + 1, 30, PARENT, PARENT)
        # (no sample comes after the last EXIT: this one shows they went)
        f.sample(PARENT, 40, fp.at('leaf'), n=1)
        out = self.report(f.write('gone.data'), '--sort', 'dso')
        self.assertEqual([(r[1], r[2]) for r in self.rows(out)],
                         [(2, ['prog_fp']), (1, ['[unknown]'])])

    def test_a_child_keeps_its_parents_mappings_beside_its_own(self):
        # a forked worker maps a library of its own (dlopen) and still
        # runs in the program it shares with its parent
        fp, nofp = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.task(FORK, CHILD, CHILD, 5, PARENT, PARENT)
        st = os.stat(nofp.path)
        f.add(KMMAP, struct.pack('<IIQQQQQQII', CHILD, CHILD, 6,
                                 0x7f0000000000, 0x1000, 0, st.st_dev,
                                 st.st_ino, 5, 0) +
              nofp.path.encode() + b'\0')
        f.sample(CHILD, 10, fp.at('leaf'), n=3)
        out = self.report(f.write('own.data'), '--sort', 'dso,sym')
        self.assertEqual([(r[1], r[2]) for r in self.rows(out)],
                         [(3, ['prog_fp', '[.]', 'leaf'])], out)

    def test_a_snapshot_after_the_fork_counts_every_thread(self):
        # record -a: C forked and made a thread after the counters
        # opened, then /proc was read (its snapshot stamped after the
        # FORKs); C's main thread ends first, the other still runs
        fp, _ = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.task(FORK, CHILD, CHILD, 5, PARENT, PARENT)
        f.task(FORK, CHILD, CHILD + 1, 6, CHILD, CHILD)
        f.exec_(CHILD, 10, fp)
        f.comm(CHILD, CHILD + 1, 10, 'worker', exec_=False)
        f.task(EXIT, CHILD, CHILD, 20, PARENT, PARENT)
        f.sample(CHILD, 25, fp.at('leaf'), n=2, tid=CHILD + 1)
        out = self.report(f.write('thr.data'), '--sort', 'comm,dso')
        self.assertEqual([(r[1], r[2]) for r in self.rows(out)],
                         [(2, ['worker', 'prog_fp'])], out)

    def test_other_byte_order(self):
        mine = self.report(workload().write('le.data'))
        other = self.report(workload('>').write('be.data'))
        self.assertEqual(mine.split('\n')[1:], other.split('\n')[1:])

    def test_a_thread_takes_its_name_from_comm(self):
        fp, _ = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.task(FORK, PARENT, PARENT + 5, 5, PARENT, PARENT)
        f.comm(PARENT, PARENT + 5, 6, 'worker', exec_=False)
        f.sample(PARENT, 10, fp.at('leaf'), n=4, tid=PARENT + 5)
        f.sample(PARENT, 20, fp.at('leaf'), n=2)
        out = self.report(f.write('t.data'), '--sort', 'comm,pid,sym')
        rows = {tuple(r[2]): r[1] for r in self.rows(out)}
        self.assertEqual(rows, {('worker', str(PARENT), '[.]', 'leaf'): 4,
                                ('prog_fp', str(PARENT), '[.]', 'leaf'): 2},
                         out)

    def test_vdso_and_anonymous_mappings_are_named(self):
        fp, _ = progs()
        f = File()
        f.comm(PARENT, PARENT, 0, 'jit')
        f.mmap(PARENT, 1, fp, path='[vdso]', flags=MMAP_ANON)
        f.sample(PARENT, 10, tc.BASE + 16, n=2)
        out = self.report(f.write('v.data'), '--sort', 'dso')
        self.assertEqual([r[2] for r in self.rows(out)], [['[vdso]']])


class Unnamed(Report):
    """Tasks whose mappings were not learned are named, not guessed."""

    def test_a_task_never_seen_and_lost_records(self):
        fp, _ = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 10, fp.at('leaf'), n=6)
        f.lost_sideband(3, 15)
        f.sample(STRANGER, 20, fp.at('leaf'), n=4)
        out = self.report(f.write('u.data'))
        self.assertIn('# 3 side-band records lost', out)
        self.assertIn('# 4 samples at user addresses in no mapping their '
                      'task was seen to make, of 1 tasks:\n'
                      f'#   pid {STRANGER} (?): 4 of its 4 samples; its '
                      'start was not seen', out)
        rows = {tuple(r[2]): r[1] for r in self.rows(out)}
        # never with PARENT's mappings, though they hold the address
        self.assertEqual(rows[(f':{STRANGER}', '[unknown]', '[.]',
                               hex(fp.at('leaf')))], 4, out)

    def test_a_child_of_an_unseen_parent_is_unknown_until_exec(self):
        fp, nofp = progs()
        f = File()
        f.task(FORK, CHILD, CHILD, 5, STRANGER, STRANGER)
        f.sample(CHILD, 10, fp.at('leaf'), n=2)
        f.exec_(CHILD, 20, nofp)
        f.sample(CHILD, 30, nofp.at('leaf'), n=5)
        out = self.report(f.write('c.data'))
        self.assertIn(f'#   pid {CHILD} (prog_nofp): 2 of its 7 samples; '
                      'its start was not seen', out)


class SortAndFilter(Report):
    """--sort and the filters, as perf spells them."""

    def test_sort_by_dso(self):
        out = self.report(workload().write('s.data'), '--sort', 'dso')
        self.assertIn('# Overhead  Samples  DSO\n', out)
        self.assertEqual([(r[1], r[2]) for r in self.rows(out)],
                         [(20, ['prog_nofp']), (18, ['prog_fp'])])

    def test_unknown_key_is_refused(self):
        r = subprocess.run([tc.state['tool'], 'report', '-s', 'comm,weight',
                            '-i', workload().write('k.data')],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no key 'weight' (comm, pid, dso, sym, cpu)", r.stderr)

    def test_sort_by_cpu(self):
        fp, _ = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 10, fp.at('leaf'), n=3, cpu=1)
        f.sample(PARENT, 20, fp.at('leaf'), n=2, cpu=0)
        out = self.report(f.write('cpu.data'), '--sort', 'cpu,sym')
        self.assertIn('# Overhead  Samples  CPU Symbol\n', out)
        self.assertEqual([(r[1], r[2][0]) for r in self.rows(out)],
                         [(3, '1'), (2, '0')])

    def test_sort_gives_rows_of_a_file_with_chains(self):
        path = tc.record_file(os.path.join(tc.state['tmp'], 'ch.data'),
                              tc.Program(tc.state['prog_fp']))
        out = self.report(path, '--sort', 'dso')
        self.assertNotIn('Children', out)
        self.assertEqual([r[2] for r in self.rows(out)], [['prog_fp']])

    def test_filters(self):
        path = workload().write('f.data')
        out = self.report(path, '--comms', 'prog_nofp')
        self.assertIn('# 20 of them pass the filters', out)
        self.assertEqual([r[2][0] for r in self.rows(out)], ['prog_nofp'])
        # percentages stay of every sample
        self.assertAlmostEqual(self.rows(out)[0][0], 100 * 20 / 38, 1)
        out = self.report(path, '--dsos', 'prog_fp', '--symbols', 'a,main')
        self.assertEqual(sorted(r[2][3] for r in self.rows(out)),
                         ['a', 'main'])


class Events(Report):
    """Several events in one file: a profile each."""

    def test_a_profile_per_event(self):
        fp, _ = progs()
        f = File(events=('task-clock:u', 'cpu-clock:u'))
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 10, fp.at('leaf'), n=7, event=0)
        f.sample(PARENT, 20, fp.at('a'), n=3, event=1)
        f.add(LOST, struct.pack('<QQIi', 2, 30, 1, -1))
        out = self.report(f.write('e.data'))
        self.assertIn('# 7 samples of task-clock:u every 1000000, 0 lost',
                      out)
        self.assertIn('# 3 samples of cpu-clock:u every 1000000, 2 lost',
                      out)
        parts = out.split('\n\n')
        self.assertEqual(len(parts), 2, out)
        self.assertIn('[.] leaf', parts[0])
        self.assertIn('[.] a', parts[1])


class Dump(Report):
    """-D: every item on a line, in the order report replays them."""

    def test_items_in_time_order(self):
        fp, nofp = progs()
        f = File()
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 40, nofp.at('b'))
        f.exec_(PARENT, 30, nofp)
        f.task(EXIT, PARENT, PARENT, 50, 1, 1)
        out = self.report(f.write('dump.data'), '-D')
        lines = out.strip('\n').split('\n')
        self.assertEqual([ln.split()[1] for ln in lines],
                         ['EVENT', 'COMM', 'MMAP', 'COMM', 'MMAP',
                          'SAMPLE', 'EXIT'], out)
        self.assertEqual(lines[3].split()[0], '0.000000030')
        self.assertEqual(lines[3].split()[2:], [f'{PARENT}/{PARENT}', 'exec',
                                                'prog_nofp'])
        self.assertIn(f' {PARENT}/{PARENT} ip {hex(nofp.at("b"))} event 0 '
                      'cpu -1', lines[5])
        self.assertEqual(lines[6].split()[2:], [f'{PARENT}/{PARENT}',
                                                'parent', '1/1'])


class Damaged(Report):
    """Items that cannot be read are skipped, and said to be."""

    def test_mmap_without_nul(self):
        fp, _ = progs()
        f = File()
        f.comm(PARENT, PARENT, 0, 'prog_fp')
        f.add(KMMAP, struct.pack('<IIQQQQQQII', PARENT, PARENT, 1, tc.BASE,
                                 0x100000, 0, 0, 0, 5, 0) + b'/x' * 8)
        f.sample(PARENT, 10, fp.at('leaf'))
        r = subprocess.run([tc.state['tool'], 'report', '-i',
                            f.write('d.data')], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('no NUL in its string, skipped', r.stderr)
        self.assertIn('1 of its 1 samples', r.stdout)

    def test_newer_version_is_refused(self):
        path = workload().write('n.data')
        with open(path, 'r+b') as f:
            f.seek(8)
            f.write(struct.pack('<I', 5))
        r = subprocess.run([tc.state['tool'], 'report', '-i', path],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn('version 5, this report reads 2 to 4', r.stderr)


class Periods(Report):
    """Version 4 (record -F): a sample weighs the events it stands for."""

    def weighted(self, order):
        fp, _ = progs()
        f = File(order, version=4)
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 10, fp.at('leaf'), n=10, period=100)
        f.sample(PARENT, 30, fp.at('a'), n=10, period=300)
        f.sample(PARENT, 50, fp.at('b'), n=5, period=0x100000000)
        return f

    def test_overhead_is_the_share_of_the_periods(self):
        out = self.report(self.weighted('<').write('p4.data'))
        rows = {r[2][-1]: (r[0], r[1]) for r in self.rows(out)}
        whole = 10 * 100 + 10 * 300 + 5 * 0x100000000
        self.assertEqual(rows['b'], (round(100 * 5 * 0x100000000 / whole,
                                           2), 5), out)
        self.assertEqual(rows['a'][1], 10, out)
        self.assertEqual(rows['leaf'][1], 10, out)
        # a's samples weigh three times leaf's (shares of 0.00%: the
        # periods, not the sample counts, order the rows)
        names = [r[2][-1] for r in self.rows(out)]
        self.assertEqual(names, ['b', 'a', 'leaf'], out)
        self.assertIn('# 25 samples of task-clock:u at 1000 a second', out)
        self.assertIn('# each weighted by its period: %d events in all'
                      % whole, out)

    def test_other_byte_order(self):
        a = self.report(self.weighted('<').write('p4le.data'))
        b = self.report(self.weighted('>').write('p4be.data'))
        self.assertEqual(self.rows(a), self.rows(b))
        self.assertEqual(len(self.rows(a)), 3, a)

    def test_equal_periods_weigh_as_samples(self):
        fp, _ = progs()
        f = File(version=4)
        f.exec_(PARENT, 0, fp)
        f.sample(PARENT, 10, fp.at('leaf'), n=30, period=7)
        f.sample(PARENT, 50, fp.at('a'), n=10, period=7)
        out = self.report(f.write('p4eq.data'))
        rows = {r[2][-1]: (r[0], r[1]) for r in self.rows(out)}
        self.assertEqual(rows, {'leaf': (75.0, 30), 'a': (25.0, 10)}, out)


if __name__ == '__main__':
    if '--tap' in sys.argv:
        sys.exit(tc.tap_main(sys.modules[__name__]))
    unittest.main()
