// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance: inherit=1 counters count the tasks forked after them, and
 * their children's counts fold into them at exit; existing children and
 * their descendants are not counted.
 */
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

static int open_faults(int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, 0, -1, -1, 0);
}

static void child_touches(int pages)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		pc_touch_pages(pages);
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

TEST(inherited_counter_folds_children_at_exit)
{
	int fd = open_faults(1);
	uint64_t v;

	ASSERT_GE(fd, 0);
	v = pc_read(fd);
	child_touches(400);
	EXPECT_GE(pc_read(fd) - v, 400);
	close(fd);
}

TEST(counter_without_inherit_ignores_children)
{
	int fd = open_faults(0);
	uint64_t v;

	ASSERT_GE(fd, 0);
	v = pc_read(fd);
	child_touches(400);
	/* only the parent's own fork and wait faults */
	EXPECT_LT(pc_read(fd) - v, 100);
	close(fd);
}

TEST(grandchildren_fold_too)
{
	int fd = open_faults(1), status;
	uint64_t v;
	pid_t pid;

	ASSERT_GE(fd, 0);
	v = pc_read(fd);
	pid = fork();
	if (pid == 0) {
		child_touches(300);
		pc_touch_pages(100);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	EXPECT_GE(pc_read(fd) - v, 400);
	close(fd);
}

/* Touch pages here and in a new child. */
static void touch_here_and_in_a_child(int pages)
{
	pc_touch_pages(pages);
	child_touches(pages);
}

TEST(only_descendants_forked_after_the_counter)
{
	struct pc_child child;		/* exists before the counter */
	uint64_t v;
	int fd;

	ASSERT_EQ(0, pc_child_start(&child, touch_here_and_in_a_child, 300));
	fd = open_faults(1);
	ASSERT_GE(fd, 0);
	v = pc_read(fd);
	/* neither the child nor the child it forks is counted */
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_LT(pc_read(fd) - v, 100);
	close(fd);
}

TEST(read_includes_live_children)
{
	int ready[2], done[2], status, fd;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	fd = open_faults(1);
	ASSERT_GE(fd, 0);
	pid = fork();
	if (pid == 0) {
		pc_touch_pages(300);
		if (write(ready[1], "x", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	EXPECT_GE(pc_read(fd), 300);	/* the child has not exited */
	ASSERT_EQ(1, write(done[1], "x", 1));
	waitpid(pid, &status, 0);
	close(fd);
}

TEST(disable_reaches_inherited_copies)
{
	struct pc_child child;
	uint64_t v;
	int fd;

	fd = open_faults(1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 300));
	ASSERT_EQ(0, pc_disable(fd));	/* the child's copy too */
	v = pc_read(fd);
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_EQ(v, pc_read(fd));
	close(fd);
}

TEST(times_of_children_are_summed)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	uint64_t before[3], after[3];
	int fd, status;
	pid_t pid;

	hw.inherit = 1;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(24, read(fd, before, sizeof(before)));
	pid = fork();
	if (pid == 0) {
		pc_spin(20000000);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ASSERT_EQ(24, read(fd, after, sizeof(after)));
	/* the child's spin is in the value and in both times */
	EXPECT_GT(after[0] - before[0], 5000000);
	EXPECT_GE(after[1] - before[1], after[0] - before[0]);
	EXPECT_GE(after[2] - before[2], (after[0] - before[0]) * 9 / 10);
	close(fd);
}

TEST(closing_the_counter_while_children_run)
{
	struct pc_child child;
	int fd;

	fd = open_faults(1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pc_child_start(&child, touch_here_and_in_a_child, 100));
	close(fd);			/* the child's copy goes with it */
	EXPECT_EQ(0, pc_child_finish(&child));
}

TEST(inherited_group_stays_a_group_in_the_child)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	int leader, member;
	uint64_t l, m;

	hw.inherit = 1;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	member = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	ASSERT_GE(member, 0);
	l = pc_read(leader);
	m = pc_read(member);
	child_touches(200);
	EXPECT_GE(pc_read(leader) - l, 200);
	EXPECT_GE(pc_read(member) - m, 200);
	close(member);
	close(leader);
}

TEST_HARNESS_MAIN
