// SPDX-License-Identifier: GPL-2.0
/*
 * Groups, enable/disable by ioctl and prctl, and closing in any order.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

FIXTURE(group) {
	int leader;
	int member;
};

/* A disabled page-fault leader with an enabled page-fault member. */
FIXTURE_SETUP(group)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);

	self->leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(self->leader, 0);
	hw.disabled = 0;
	self->member = sys_perf_counter_open(&hw, 0, -1, self->leader, 0);
	ASSERT_GE(self->member, 0);
}

FIXTURE_TEARDOWN(group)
{
	close(self->member);
	close(self->leader);
}

/* @v - @before is the @pages just touched, and only their faults. */
#define EXPECT_PAGES(before, v, pages) do {			\
	EXPECT_GE((v) - (before), pages);			\
	EXPECT_LE((v) - (before), (pages) + PC_OWN_FAULTS);	\
} while (0)

TEST_F(group, disabled_leader_keeps_enabled_member_from_counting)
{
	pc_touch_pages(64);
	EXPECT_EQ(0, pc_read(self->leader));
	EXPECT_EQ(0, pc_read(self->member));
	/* the control: the same member counts once its leader is on */
	ASSERT_EQ(0, pc_enable(self->leader));
	pc_touch_pages(64);
	EXPECT_PAGES(0, pc_read(self->member), 64);
}

TEST_F(group, enabling_the_leader_starts_the_group)
{
	ASSERT_EQ(0, pc_enable(self->leader));
	pc_touch_pages(64);
	EXPECT_PAGES(0, pc_read(self->leader), 64);
	/* they counted the same faults */
	EXPECT_EQ(pc_read(self->leader), pc_read(self->member));
}

TEST_F(group, disabling_the_leader_stops_the_group)
{
	uint64_t l, m;

	ASSERT_EQ(0, pc_enable(self->leader));
	pc_touch_pages(32);
	ASSERT_EQ(0, pc_disable(self->leader));
	l = pc_read(self->leader);
	m = pc_read(self->member);
	EXPECT_PAGES(0, l, 32);		/* the control: they counted */
	EXPECT_EQ(l, m);
	pc_touch_pages(64);
	EXPECT_EQ(l, pc_read(self->leader));
	EXPECT_EQ(m, pc_read(self->member));
}

TEST_F(group, disabling_a_member_stops_only_it)
{
	uint64_t l, m;

	ASSERT_EQ(0, pc_enable(self->leader));
	ASSERT_EQ(0, pc_disable(self->member));
	l = pc_read(self->leader);
	m = pc_read(self->member);
	pc_touch_pages(64);
	EXPECT_PAGES(l, pc_read(self->leader), 64);
	EXPECT_EQ(m, pc_read(self->member));
	/* and enabling it again brings it back into the running group */
	ASSERT_EQ(0, pc_enable(self->member));
	pc_touch_pages(64);
	EXPECT_PAGES(m, pc_read(self->member), 64);
}

TEST_F(group, member_cannot_lead)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, self->member, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(group, pinned_or_exclusive_member_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.pinned = 1;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
	hw.pinned = 0;
	hw.exclusive = 1;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(group, member_inherit_must_match_leader)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.inherit = 1;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(group, member_on_another_cpu_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, 0, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, -1, 0, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(group, member_on_another_task_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	struct pc_child child;

	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 1));
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, child.pid, -1, self->leader, 0));
	EXPECT_EQ(EINVAL, errno);
	pc_child_kill(&child);
}

TEST_F(group, prctl_toggles_leaders_only)
{
	uint64_t l;

	ASSERT_EQ(0, pc_disable(self->member));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	pc_touch_pages(64);
	l = pc_read(self->leader);
	EXPECT_PAGES(0, l, 64);
	EXPECT_EQ(0, pc_read(self->member));	/* a member keeps its bit */

	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	l = pc_read(self->leader);
	pc_touch_pages(64);
	EXPECT_EQ(l, pc_read(self->leader));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	pc_touch_pages(64);
	EXPECT_PAGES(l, pc_read(self->leader), 64);
}

TEST_F(group, closing_the_member_first_leaves_the_leader)
{
	ASSERT_EQ(0, pc_enable(self->leader));
	close(self->member);
	self->member = dup(0);
	pc_touch_pages(64);
	EXPECT_PAGES(0, pc_read(self->leader), 64);
}

TEST_F(group, closing_the_leader_first_leaves_the_member_alone)
{
	uint64_t m;

	ASSERT_EQ(0, pc_enable(self->leader));
	pc_touch_pages(16);
	close(self->leader);
	self->leader = dup(0);
	m = pc_read(self->member);
	pc_touch_pages(64);
	/* it now leads its own group and goes on counting */
	EXPECT_PAGES(m, pc_read(self->member), 64);
	ASSERT_EQ(0, pc_disable(self->member));
	m = pc_read(self->member);
	pc_touch_pages(16);
	EXPECT_EQ(m, pc_read(self->member));
}

TEST(prctl_leaves_counters_on_other_tasks_alone)
{
	struct pc_child child;
	int fd;

	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 100));
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, child.pid, -1, -1);
	ASSERT_GE(fd, 0);
	/* ours made on the child: our prctl must not touch it */
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_GE(pc_read(fd), 100);
	EXPECT_LE(pc_read(fd), 100 + PC_CHILD_FAULTS);
	prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0);
	close(fd);
}

TEST(prctl_reaches_counters_others_made_on_us)
{
	int fd, status, p2c[2], c2p[2];
	uint64_t before, after;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(p2c));
	ASSERT_EQ(0, pipe(c2p));
	pid = fork();
	if (pid == 0) {
		/* child: wait until the parent counts us, fault, prctl off */
		if (read(p2c[0], &c, 1) != 1)
			_exit(1);
		pc_touch_pages(50);
		if (write(c2p[1], "x", 1) != 1 || read(p2c[0], &c, 1) != 1)
			_exit(1);
		prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0);
		if (write(c2p[1], "x", 1) != 1 || read(p2c[0], &c, 1) != 1)
			_exit(1);
		pc_touch_pages(200);
		_exit(0);
	}
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, pid, -1, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(p2c[1], "x", 1));
	ASSERT_EQ(1, read(c2p[0], &c, 1));
	before = pc_read(fd);
	/* the control: our counter on the child counted its faults */
	EXPECT_GE(before, 50);
	EXPECT_LE(before, 50 + PC_CHILD_FAULTS);
	ASSERT_EQ(1, write(p2c[1], "x", 1));
	ASSERT_EQ(1, read(c2p[0], &c, 1));
	before = pc_read(fd);
	ASSERT_EQ(1, write(p2c[1], "x", 1));
	waitpid(pid, &status, 0);
	after = pc_read(fd);
	EXPECT_EQ(before, after);
	close(fd);
}

/*
 * prctl() and a monitor's counter on the calling task. The child turns
 * its counters off with prctl(PR_TASK_PERF_COUNTERS_DISABLE), spins
 * PRCTL_OFF_MS of its CPU time, and, once the monitor has disabled its
 * own counter by ioctl, turns its counters on with
 * prctl(PR_TASK_PERF_COUNTERS_ENABLE) and spins PRCTL_ON_MS. Its own
 * task-clock counter is the control: prctl() reaches it either way.
 */
#define PRCTL_OFF_MS	300
#define PRCTL_ON_MS	100

/*
 * A task-clock counter on the child gains what the child spins, whoever
 * reads it: measured on x86_64 (2026-11-29, TCG, a loaded host, three
 * runs) 100.2% to 101.9% of the CPU time the child measured over
 * PRCTL_OFF_MS (an inherited copy the most), and 100.0% to 103.9% of
 * PRCTL_ON_MS after the enable (the spin's own overshoot and its
 * reads). The bounds ask for 90%: a counter that stopped gains 0.
 */
#define PRCTL_MIN_PCT	90

/* What the monitor saw, handed to the test through a pipe. */
struct prctl_run {
	uint64_t	own_off;	/* child's own counter after its prctl(31) */
	uint64_t	own_spun;	/* ... after PRCTL_OFF_MS more */
	uint64_t	own_on;		/* ... after prctl(32) and PRCTL_ON_MS */
	uint64_t	spun_ns;	/* the child's CPU time over the first spin */
	uint64_t	mon_off;	/* monitor's counter after the prctl(31) */
	uint64_t	mon_spun;	/* ... after the child's first spin */
	uint64_t	mon_stopped;	/* ... after the monitor's own ioctl */
	uint64_t	mon_end;	/* ... after prctl(32), the child gone */
	int		child_status;	/* from waitpid() */
	char		err[96];	/* the monitor's failure, or "" */
};

/* Burn @ms of this thread's CPU time, in user mode. */
static uint64_t spin_cpu_ms(unsigned int ms)
{
	uint64_t start = pc_thread_cpu_ns(), now;

	do {
		pc_spin(10000);
		now = pc_thread_cpu_ns();
	} while (now - start < ms * 1000000ULL);
	return now - start;
}

static int step_say(int fd)
{
	return write(fd, "x", 1) == 1 ? 0 : -1;
}

static int step_hear(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? 0 : -1;
}

/* A task-clock counter an unprivileged task may open at paranoid 2. */
static int open_task_clock(pid_t pid, int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	hw.exclude_kernel = 1;
	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, pid, -1, -1, 0);
}

/* How run_prctl_monitor() sets the case up. */
#define PRCTL_NOBODY_MONITOR	1	/* the monitor is nobody too */
#define PRCTL_GRANDCHILD	2	/* an inherited copy in a grandchild */

/*
 * The child: its exit status says which step failed. With
 * PRCTL_GRANDCHILD it forks once counted, and its child does the steps
 * under the monitor's inherited copy; it waits and passes on the status.
 */
static void prctl_child(int in, int out, int how)
{
	uint64_t v[3];
	int own, status;
	pid_t pid;

	if (pc_become_nobody(1))
		_exit(2);
	/* nobody now: only from here may the monitor count us */
	if (step_say(out) || step_hear(in))
		_exit(3);
	if (how & PRCTL_GRANDCHILD) {
		pid = fork();
		if (pid < 0)
			_exit(6);
		if (pid > 0) {
			if (waitpid(pid, &status, 0) != pid)
				_exit(6);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 7);
		}
	}
	own = open_task_clock(0, 0);
	if (own < 0)
		_exit(4);
	spin_cpu_ms(50);
	if (prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0))
		_exit(5);
	v[0] = pc_read(own);
	if (step_say(out) || step_hear(in))
		_exit(3);
	v[2] = spin_cpu_ms(PRCTL_OFF_MS);
	v[1] = pc_read(own);
	if (write(out, v, sizeof(v)) != sizeof(v) || step_hear(in))
		_exit(3);
	if (prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0))
		_exit(5);
	spin_cpu_ms(PRCTL_ON_MS);
	v[0] = pc_read(own);
	if (write(out, v, sizeof(v[0])) != sizeof(v[0]))
		_exit(3);
	_exit(0);
}

/*
 * The monitor, in a process of its own (it may drop to nobody): fork
 * the child, wait until it is nobody, count it, and read the counter
 * around each of the child's steps. Return: 0, or -1 with @r->err set.
 */
static int prctl_monitor(int how, struct prctl_run *r)
{
	int m2c[2], c2m[2], mon = -1;
	uint64_t v[3];
	pid_t pid;

	if ((how & PRCTL_NOBODY_MONITOR) && pc_become_nobody(1)) {
		snprintf(r->err, sizeof(r->err), "monitor: nobody: %m");
		return -1;
	}
	if (pipe(m2c))
		goto no_pipe;
	if (pipe(c2m)) {
		close(m2c[0]);
		close(m2c[1]);
		goto no_pipe;
	}
	pid = fork();
	if (pid == 0) {
		close(m2c[1]);
		close(c2m[0]);
		prctl_child(m2c[0], c2m[1], how);
	}
	close(m2c[0]);
	close(c2m[1]);
	if (pid < 0) {
		snprintf(r->err, sizeof(r->err), "fork: %m");
		goto out;
	}
	if (step_hear(c2m[0]))
		goto child_gone;
	mon = open_task_clock(pid, !!(how & PRCTL_GRANDCHILD));
	if (mon < 0) {
		snprintf(r->err, sizeof(r->err), "open on the child: %m");
		goto end_child;
	}
	if (step_say(m2c[1]) || step_hear(c2m[0]))
		goto child_gone;
	r->mon_off = pc_read(mon);
	if (step_say(m2c[1]) || read(c2m[0], v, sizeof(v)) != sizeof(v))
		goto child_gone;
	r->mon_spun = pc_read(mon);
	r->own_off = v[0];
	r->own_spun = v[1];
	r->spun_ns = v[2];
	if (pc_disable(mon)) {
		snprintf(r->err, sizeof(r->err), "ioctl disable: %m");
		goto end_child;
	}
	r->mon_stopped = pc_read(mon);
	if (step_say(m2c[1]) ||
	    read(c2m[0], &r->own_on, sizeof(r->own_on)) != sizeof(r->own_on))
		goto child_gone;
	waitpid(pid, &r->child_status, 0);
	r->mon_end = pc_read(mon);
	goto out;

child_gone:
	/* the child failed a step and exited: its status says which */
	snprintf(r->err, sizeof(r->err), "child exited early");
end_child:
	/* a child still waiting reads end of file here, and exits */
	close(m2c[1]);
	m2c[1] = -1;
	waitpid(pid, &r->child_status, 0);
out:
	if (mon >= 0)
		close(mon);
	if (m2c[1] >= 0)
		close(m2c[1]);
	close(c2m[0]);
	return r->err[0] ? -1 : 0;

no_pipe:
	snprintf(r->err, sizeof(r->err), "pipe: %m");
	return -1;
}

/*
 * Run the monitor in a process of its own, at kernel.perf_event_paranoid
 * 2 (the base kernel's default, at which nobody may count its own
 * tasks in user mode), and put the level back.
 */
static void run_prctl_monitor(struct __test_metadata *_metadata,
			      int how, struct prctl_run *r)
{
	int have_knob, status = 0, p[2];
	long old = 2;
	ssize_t n = -1;
	pid_t m;

	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, pipe(p));
	have_knob = pc_paranoid_get(&old) == 0;
	ASSERT_TRUE(!have_knob || pc_paranoid_set(2) == 0);
	m = fork();
	if (m == 0) {
		close(p[0]);
		prctl_monitor(how, r);
		_exit(write(p[1], r, sizeof(*r)) == sizeof(*r) ? 0 : 1);
	}
	close(p[1]);
	if (m > 0) {
		n = read(p[0], r, sizeof(*r));
		waitpid(m, &status, 0);
	}
	close(p[0]);
	EXPECT_TRUE(!have_knob || pc_paranoid_set(old) == 0);
	ASSERT_GT(m, 0);
	ASSERT_EQ((ssize_t)sizeof(*r), n);
	ASSERT_EQ(0, status);
	ASSERT_STREQ("", r->err) TH_LOG("child status 0x%x", r->child_status);
	ASSERT_EQ(0, r->child_status);
	TH_LOG("child spun %llu ns; its counter %llu -> %llu -> %llu; monitor's %llu -> %llu, stopped %llu -> %llu",
	       (unsigned long long)r->spun_ns,
	       (unsigned long long)r->own_off, (unsigned long long)r->own_spun,
	       (unsigned long long)r->own_on,
	       (unsigned long long)r->mon_off, (unsigned long long)r->mon_spun,
	       (unsigned long long)r->mon_stopped,
	       (unsigned long long)r->mon_end);
	/* the control: prctl() reached the child's own counter both ways */
	EXPECT_EQ(r->own_off, r->own_spun);
	EXPECT_GE(r->own_on - r->own_spun, PRCTL_ON_MS * 10000ULL * PRCTL_MIN_PCT);
}

/*
 * Root counts a child that is nobody: the child could not trace root,
 * so its prctl() must not blind root's counter (2.6.31's rule), nor
 * turn it back on once root disabled it.
 */
TEST(prctl_leaves_a_more_privileged_monitors_counter_alone)
{
	struct prctl_run r;

	run_prctl_monitor(_metadata, 0, &r);
	EXPECT_GE(r.mon_spun - r.mon_off, r.spun_ns * PRCTL_MIN_PCT / 100);
	EXPECT_EQ(r.mon_stopped, r.mon_end);
}

/*
 * The same with an inherited copy: root's counter, with inherit, is
 * copied into a grandchild forked after the open, and the copy is
 * root's as much as the counter is: the grandchild's prctl() neither
 * stops it nor turns it back on after root's disable reached it.
 */
TEST(prctl_leaves_a_more_privileged_monitors_inherited_copy_alone)
{
	struct prctl_run r;

	run_prctl_monitor(_metadata, PRCTL_GRANDCHILD, &r);
	EXPECT_GE(r.mon_spun - r.mon_off, r.spun_ns * PRCTL_MIN_PCT / 100);
	EXPECT_EQ(r.mon_stopped, r.mon_end);
}

/*
 * A monitor that is nobody too counts its child: the child could
 * trace it, and its prctl() turns the monitor's counter off and on,
 * as the 2009 ABI says.
 */
TEST(prctl_reaches_a_same_uid_monitors_counter)
{
	struct prctl_run r;

	run_prctl_monitor(_metadata, PRCTL_NOBODY_MONITOR, &r);
	EXPECT_EQ(r.mon_off, r.mon_spun);
	EXPECT_GE(r.mon_end - r.mon_stopped, PRCTL_ON_MS * 10000ULL * PRCTL_MIN_PCT);
}

TEST(group_members_count_the_same_interval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 1);
	int leader, member;
	uint64_t l, m;

	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	hw.disabled = 0;
	member = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	ASSERT_GE(member, 0);
	ASSERT_EQ(0, pc_enable(leader));
	pc_spin_ns(20000000);
	ASSERT_EQ(0, pc_disable(leader));
	l = pc_read(leader);
	m = pc_read(member);
	TH_LOG("leader %llu ns, member %llu ns", (unsigned long long)l,
	       (unsigned long long)m);
	EXPECT_GT(l, 1000000);
	EXPECT_LT(l > m ? l - m : m - l, l / 100);
	close(member);
	close(leader);
}

/*
 * A pinned group bound to CPU 1 is not in error while its task runs on
 * CPU 0 beside a pinned exclusive group there: it waits for its CPU,
 * and counts once the task is on it.
 */
TEST(pinned_group_bound_to_another_cpu_waits_for_that_cpu)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	uint64_t v, t0, t1;
	int g1, g2;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pc_pin_to(0));
	t0 = pc_now_ns();
	hw.pinned = 1;
	hw.exclusive = 1;
	g1 = sys_perf_counter_open(&hw, 0, 0, -1, 0);
	ASSERT_GE(g1, 0);
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	hw.pinned = 1;
	g2 = sys_perf_counter_open(&hw, 0, 1, -1, 0);
	ASSERT_GE(g2, 0);
	pc_touch_pages(10);			/* on CPU 0: not its own */
	ASSERT_EQ(8, read(g2, &v, 8));		/* a value, not end of file */
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, pc_pin_to(1));
	pc_touch_pages(50);
	ASSERT_EQ(8, read(g2, &v, 8));
	EXPECT_GE(v, 50);
	EXPECT_LE(v, 50 + PC_OWN_FAULTS);
	ASSERT_EQ(8, read(g1, &v, 8));		/* the control ran on CPU 0 */
	t1 = pc_now_ns();
	EXPECT_GT(v, 0);
	/* On CPU 0 only: less than the whole case took, to a clock step. */
	EXPECT_GE(t1 - t0 + PC_CLOCK_STEP_NS, v);
	close(g2);
	close(g1);
}

TEST_HARNESS_MAIN
