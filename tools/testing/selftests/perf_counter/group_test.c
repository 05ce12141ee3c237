// SPDX-License-Identifier: GPL-2.0
/*
 * Groups, enable/disable by ioctl and prctl, and closing in any order.
 */
#define _GNU_SOURCE
#include <sched.h>
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

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
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
	ASSERT_EQ(0, pin_to(0));
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
	ASSERT_EQ(0, pin_to(1));
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
