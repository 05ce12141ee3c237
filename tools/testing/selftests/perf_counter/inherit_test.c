// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance: inherit=1 counters count the tasks forked after them, and
 * their children's counts fold into them at exit; existing children and
 * their descendants are not counted.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

static int open_faults(int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, 0, -1, -1, 0);
}

/* @v faults are @pages touched by @children forked children, and theirs */
#define EXPECT_CHILD_PAGES(v, pages, children) do {			\
	EXPECT_GE(v, pages);						\
	EXPECT_LE(v, (pages) + (children) * PC_CHILD_FAULTS);		\
} while (0)

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
	v = pc_read(fd) - v;
	TH_LOG("%llu faults for a child's 400 pages", (unsigned long long)v);
	EXPECT_CHILD_PAGES(v, 400, 1);
	close(fd);
}

TEST(counter_without_inherit_ignores_children)
{
	int fd = open_faults(0);
	uint64_t v;

	ASSERT_GE(fd, 0);
	/* the control: it counts what this task touches */
	v = pc_read(fd);
	pc_touch_pages(50);
	EXPECT_GE(pc_read(fd) - v, 50);
	v = pc_read(fd);
	child_touches(400);
	/* only the parent's own fork and wait faults */
	v = pc_read(fd) - v;
	TH_LOG("%llu faults in the parent of a child's 400", (unsigned long long)v);
	EXPECT_LE(v, PC_CHILD_FAULTS);
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
	v = pc_read(fd) - v;
	TH_LOG("%llu faults for 400 pages in two generations",
	       (unsigned long long)v);
	EXPECT_CHILD_PAGES(v, 400, 2);
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
	v = pc_read(fd) - v;
	EXPECT_LE(v, PC_CHILD_FAULTS);
	/* the control: the counter does count; children forked now too */
	v = pc_read(fd);
	touch_here_and_in_a_child(100);
	EXPECT_CHILD_PAGES(pc_read(fd) - v, 200, 1);
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
	/* the child has not exited */
	EXPECT_CHILD_PAGES(pc_read(fd), 300, 1);
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
	/* the control: a copy left enabled counts the child's work */
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 300));
	v = pc_read(fd);
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_CHILD_PAGES(pc_read(fd) - v, 300, 1);
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
	uint64_t before[3], after[3], v, wall, cpu;
	struct rusage self0, self1, kid;
	struct timespec t0, t1;
	int fd, status;
	pid_t pid;

	hw.inherit = 1;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(24, read(fd, before, sizeof(before)));
	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &self0));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		pc_spin(20000000);
		_exit(0);
	}
	ASSERT_EQ(pid, wait4(pid, &status, 0, &kid));
	ASSERT_EQ(24, read(fd, after, sizeof(after)));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &self1));
	wall = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	cpu = pc_rusage_cpu_ns(&kid) + pc_rusage_cpu_ns(&self1) -
	      pc_rusage_cpu_ns(&self0);
	v = after[0] - before[0];
	TH_LOG("task-clock %llu ns, enabled %llu, running %llu; CPU time of the child and this task %llu ns, in %llu ns",
	       (unsigned long long)v,
	       (unsigned long long)(after[1] - before[1]),
	       (unsigned long long)(after[2] - before[2]),
	       (unsigned long long)cpu, (unsigned long long)wall);
	/*
	 * The child's spin is in the value and in both times; no more
	 * than the scheduler's account of the child's and this task's CPU
	 * time meanwhile (wait4()'s and getrusage()'s, on the clock
	 * local_clock() reads), but for local_clock()'s steps: the
	 * child's two ends and this task's. Twice the spin is refused.
	 * Not the wall time: on the 7450 beside kernel builds
	 * CLOCK_MONOTONIC once moved 11.9 ms around the child's 44.5 ms.
	 */
	EXPECT_GT(v, 5000000);
	EXPECT_LE(v, cpu + 3 * PC_CLOCK_STEP_NS);
	EXPECT_GE(after[1] - before[1], v);
	EXPECT_LE(after[1] - before[1], cpu + 3 * PC_CLOCK_STEP_NS);
	EXPECT_GE(after[2] - before[2], v * 9 / 10);
	EXPECT_LE(after[2] - before[2], after[1] - before[1]);
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

/*
 * The child's copies of a group are a group: they count the same
 * interval, and disabling the leader (which reaches the copies) stops
 * the member's copy in the child although the member stays enabled.
 */
TEST(inherited_group_stays_a_group_in_the_child)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	int leader, member, go[2], ready[2], status;
	uint64_t l, m;
	char c;
	pid_t pid;

	hw.inherit = 1;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	member = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	ASSERT_GE(member, 0);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	if (pid == 0) {
		pc_touch_pages(200);
		if (write(ready[1], "x", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		pc_touch_pages(300);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, pc_disable(leader));
	l = pc_read(leader);
	m = pc_read(member);
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("leader %llu, member %llu; after the child's exit %llu, %llu",
	       (unsigned long long)l, (unsigned long long)m,
	       (unsigned long long)pc_read(leader),
	       (unsigned long long)pc_read(member));
	/* the same faults, the child's 200 among them */
	EXPECT_EQ(l, m);
	EXPECT_CHILD_PAGES(l, 200, 1);
	/* the child's 300 pages after the leader's disable: in neither */
	EXPECT_EQ(l, pc_read(leader));
	EXPECT_EQ(m, pc_read(member));
	close(member);
	close(leader);
}

/*
 * Reads racing the copies' forks and exits. A read of an inherited
 * counter sums its own count, what exited copies folded in and the live
 * copies' counts, without locks where no copy was ever made: as copies
 * come, count and fold, every value a reader sees is at least the one
 * before, and once every child has exited the counter holds exactly
 * what the member of its group, read only then, counted. Children touch
 * their pages and exit; every other one forks a grandchild that does
 * too, so copies fold from two generations.
 */
#define RACE_ROUNDS	4
#define RACE_CHILDREN	8
#define RACE_PAGES	16
#define RACE_FORKS	(RACE_ROUNDS * RACE_CHILDREN * 3 / 2)

struct race {
	int		leader, member;
	int		go, stop;	/* the reader thread's start and end */
	uint64_t	last;		/* the highest value read */
	unsigned long	reads, drops;
	uint64_t	drop_from, drop_to;	/* the first drop */
	int		threaded;	/* another thread runs meanwhile */
};

/* A group of two inherited page fault counters, both counting from now. */
static int race_open(struct race *r)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);

	hw.inherit = 1;
	r->leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	if (r->leader < 0)
		return -1;
	hw.disabled = 0;
	r->member = sys_perf_counter_open(&hw, 0, -1, r->leader, 0);
	if (r->member < 0)
		return -1;
	return pc_enable(r->leader);
}

static void race_read(struct race *r)
{
	uint64_t v = pc_read(r->leader);

	r->reads++;
	if (v >= r->last) {
		r->last = v;
	} else if (!r->drops++) {
		r->drop_from = r->last;
		r->drop_to = v;
	}
}

static pid_t race_fork(int i)
{
	pid_t pid = fork();

	if (pid == 0) {
		pc_touch_pages(RACE_PAGES);
		if (i & 1)
			child_touches(RACE_PAGES);
		_exit(0);
	}
	return pid;
}

/* Every child has exited: the counter against its group's member. */
static void race_check(struct __test_metadata *_metadata, struct race *r)
{
	uint64_t leader, member;

	ASSERT_EQ(0, pc_disable(r->leader));
	leader = pc_read(r->leader);
	member = pc_read(r->member);
	TH_LOG("%lu reads, the last %llu; at the end %llu, the member %llu",
	       r->reads, (unsigned long long)r->last,
	       (unsigned long long)leader, (unsigned long long)member);
	EXPECT_EQ(0, r->drops) TH_LOG("%lu drops, the first from %llu to %llu",
				      r->drops,
				      (unsigned long long)r->drop_from,
				      (unsigned long long)r->drop_to);
	EXPECT_GE(leader, r->last);
	EXPECT_EQ(member, leader);
	/*
	 * A fork while another thread of this task runs costs about twice
	 * the faults (measured: 15.0 to 19.0 a fork against 7.1 to 11.2 on
	 * x86_64, i386, the 7450, POWER8 and the sanitizer kernel), so it is
	 * allowed two children's worth.
	 */
	EXPECT_CHILD_PAGES(leader, RACE_FORKS * RACE_PAGES,
			   RACE_FORKS * (r->threaded ? 2 : 1));
	close(r->member);
	close(r->leader);
}

/* The counter's own task reads, between forks and while children run. */
TEST(own_reads_as_copies_come_and_go)
{
	struct race r = { 0 };
	int round, i, live, status, bad = 0;
	pid_t pid;

	ASSERT_EQ(0, race_open(&r));
	for (round = 0; round < RACE_ROUNDS; round++) {
		for (i = 0; i < RACE_CHILDREN; i++) {
			race_read(&r);
			ASSERT_LT(0, race_fork(i));
		}
		for (live = RACE_CHILDREN; live;) {
			race_read(&r);
			pid = waitpid(-1, &status, WNOHANG);
			ASSERT_LE(0, pid);
			if (!pid)
				continue;
			live--;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				bad++;
		}
	}
	EXPECT_EQ(0, bad);
	race_check(_metadata, &r);
}

static void *race_reader(void *arg)
{
	struct race *r = arg;

	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		sched_yield();
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		race_read(r);
	return NULL;
}

/*
 * Another thread reads without pause while the counter's task forks and
 * waits: its reads run on whichever CPU the task is on, or in place
 * while it waits. The thread exists before the counter, so it has no
 * copy: the first copies are made while it reads.
 */
TEST(another_threads_reads_as_copies_come_and_go)
{
	struct race r = { 0 };
	int round, i, status, bad = 0;
	pthread_t reader;
	pid_t pid;

	r.threaded = 1;
	ASSERT_EQ(0, pthread_create(&reader, NULL, race_reader, &r));
	ASSERT_EQ(0, race_open(&r));
	__atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
	for (round = 0; round < RACE_ROUNDS; round++) {
		for (i = 0; i < RACE_CHILDREN; i++)
			ASSERT_LT(0, race_fork(i));
		for (i = 0; i < RACE_CHILDREN; i++) {
			pid = waitpid(-1, &status, 0);
			ASSERT_LT(0, pid);
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				bad++;
		}
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_join(reader, NULL));
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, r.reads);
	race_check(_metadata, &r);
}

TEST_HARNESS_MAIN
