// SPDX-License-Identifier: GPL-2.0
/*
 * Threads and exec: a counter opened on a thread that is not its
 * process's leader counts that thread alone, an inherited counter
 * follows pthread_create(), prctl() in a thread stops that thread's
 * counters and no other's, and a counter counts on across execve().
 * Every count is a number of page faults the test makes, bounded on
 * both sides.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

/* What a thread may fault besides the pages it is told to touch. */
#define SLACK	12

static pid_t gettid_now(void)
{
	return syscall(SYS_gettid);
}

static int open_faults(pid_t pid, int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, pid, -1, -1, 0);
}

/* One byte through a pipe: a step of the test's order. */
static void say(int fd)
{
	if (write(fd, "s", 1) != 1)
		abort();
}

static void hear(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		abort();
}

struct toucher {
	int	ready[2];	/* the thread: its tid is set */
	int	go[2];		/* the test: touch now */
	int	pages;
	pid_t	tid;
};

/* Says its tid, waits, touches its pages. */
static void *toucher(void *arg)
{
	struct toucher *t = arg;

	pc_prefault_stack(16384);
	t->tid = gettid_now();
	say(t->ready[1]);
	hear(t->go[0]);
	pc_touch_pages(t->pages);
	return NULL;
}

static int toucher_start(struct toucher *t, pthread_t *thread, int pages)
{
	t->pages = pages;
	if (pipe(t->ready) || pipe(t->go) ||
	    pthread_create(thread, NULL, toucher, t))
		return -1;
	hear(t->ready[0]);
	return 0;
}

static void toucher_close(struct toucher *t)
{
	close(t->ready[0]);
	close(t->ready[1]);
	close(t->go[0]);
	close(t->go[1]);
}

TEST(counter_on_a_non_leader_thread_counts_that_thread_alone)
{
	struct toucher t;
	pthread_t thread;
	uint64_t on_thread, on_leader;
	int fd_thread, fd_leader;

	pc_prefault_stack(16384);
	ASSERT_EQ(0, toucher_start(&t, &thread, 64));
	ASSERT_NE(getpid(), t.tid);
	fd_thread = open_faults(t.tid, 0);
	ASSERT_GE(fd_thread, 0);
	fd_leader = open_faults(getpid(), 0);
	ASSERT_GE(fd_leader, 0);

	pc_touch_pages(200);		/* the leader's, not the thread's */
	say(t.go[1]);
	ASSERT_EQ(0, pthread_join(thread, NULL));

	on_thread = pc_read(fd_thread);
	on_leader = pc_read(fd_leader);
	TH_LOG("thread %llu faults, leader %llu",
	       (unsigned long long)on_thread, (unsigned long long)on_leader);
	EXPECT_GE(on_thread, 64);
	EXPECT_LE(on_thread, 64 + SLACK);
	EXPECT_GE(on_leader, 200);
	EXPECT_LE(on_leader, 200 + SLACK);
	close(fd_thread);
	close(fd_leader);
	toucher_close(&t);
}

TEST(inherited_counter_follows_pthread_create)
{
	struct toucher t;
	pthread_t thread;
	uint64_t inherited, own;
	int fd_inherit, fd_own;

	pc_prefault_stack(16384);
	fd_inherit = open_faults(0, 1);
	ASSERT_GE(fd_inherit, 0);
	fd_own = open_faults(0, 0);
	ASSERT_GE(fd_own, 0);
	ASSERT_EQ(0, toucher_start(&t, &thread, 128));
	say(t.go[1]);
	/* the thread's copy is folded before its exit wakes the join */
	ASSERT_EQ(0, pthread_join(thread, NULL));

	inherited = pc_read(fd_inherit);
	own = pc_read(fd_own);
	TH_LOG("inherited %llu faults, not inherited %llu",
	       (unsigned long long)inherited, (unsigned long long)own);
	/* pthread_create() itself faults in the new stack's top page */
	EXPECT_GE(inherited, 128 + own);
	EXPECT_LE(inherited, 128 + own + SLACK);
	EXPECT_LE(own, SLACK);
	close(fd_inherit);
	close(fd_own);
	toucher_close(&t);
}

struct quiet {
	int	step[2];	/* thread to test */
	int	back[2];	/* test to thread */
	uint64_t before, stopped, after;
	int	err;
};

/*
 * Counts its own faults, stops its counters with prctl(), lets the
 * test count the leader's meanwhile, then starts them again.
 */
static void *quiet_thread(void *arg)
{
	struct quiet *q = arg;
	int fd;

	pc_prefault_stack(16384);
	fd = open_faults(0, 0);
	if (fd < 0) {
		q->err = errno;
		say(q->step[1]);
		return NULL;
	}
	pc_touch_pages(32);
	q->before = pc_read(fd);
	if (prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0))
		q->err = errno;
	pc_touch_pages(64);
	q->stopped = pc_read(fd);
	say(q->step[1]);
	hear(q->back[0]);		/* the leader touched its pages */
	if (prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0))
		q->err = errno;
	pc_touch_pages(16);
	q->after = pc_read(fd);
	close(fd);
	return NULL;
}

TEST(prctl_in_a_thread_stops_that_threads_counters_alone)
{
	struct quiet q = { .err = 0 };
	pthread_t thread;
	uint64_t leader;
	int fd;

	pc_prefault_stack(16384);
	ASSERT_EQ(0, pipe(q.step));
	ASSERT_EQ(0, pipe(q.back));
	fd = open_faults(0, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pthread_create(&thread, NULL, quiet_thread, &q));
	hear(q.step[0]);
	ASSERT_EQ(0, q.err);
	/* the thread has stopped its counters; the leader's count on */
	leader = pc_read(fd);
	pc_touch_pages(64);
	EXPECT_GE(pc_read(fd) - leader, 64);
	EXPECT_LE(pc_read(fd) - leader, 64 + SLACK);
	say(q.back[1]);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, q.err);

	TH_LOG("thread: %llu before prctl, %llu after 64 more pages, %llu after enable and 16",
	       (unsigned long long)q.before, (unsigned long long)q.stopped,
	       (unsigned long long)q.after);
	/* the control: it counted before the prctl */
	EXPECT_GE(q.before, 32);
	EXPECT_LE(q.before, 32 + SLACK);
	/* stopped: at most the fault or two before the prctl took hold */
	EXPECT_LE(q.stopped - q.before, 2);
	EXPECT_GE(q.after - q.stopped, 16);
	EXPECT_LE(q.after - q.stopped, 16 + SLACK);
	close(fd);
	close(q.step[0]);
	close(q.step[1]);
	close(q.back[0]);
	close(q.back[1]);
}

#define AFTER_EXEC	"--after-exec"

/*
 * The program again, after execve(): the counter's descriptor and its
 * value before the exec in argv. Exit 0 if the counter counted the exec
 * (the new image's loading faults) and counts the new image's faults.
 */
static int after_exec(int argc, char **argv)
{
	uint64_t before, at, now;
	int fd;

	if (argc != 4)
		return 10;
	fd = atoi(argv[2]);
	before = strtoull(argv[3], NULL, 10);
	pc_prefault_stack(16384);
	at = pc_read(fd);
	pc_touch_pages(50);
	now = pc_read(fd);
	printf("# after exec: %llu before, %llu at the new image, %llu after 50 pages\n",
	       (unsigned long long)before, (unsigned long long)at,
	       (unsigned long long)now);
	if (at <= before)
		return 11;
	if (now - at < 50 || now - at > 50 + SLACK)
		return 12;
	return 0;
}

TEST(counter_counts_on_across_execve)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		static char fd_arg[16], value_arg[24];
		static char * const args[] = { "thread_test", AFTER_EXEC,
					       fd_arg, value_arg, NULL };
		int fd = open_faults(0, 0);

		if (fd < 0)
			_exit(20);
		pc_touch_pages(10);
		snprintf(fd_arg, sizeof(fd_arg), "%d", fd);
		snprintf(value_arg, sizeof(value_arg), "%llu",
			 (unsigned long long)pc_read(fd));
		execv("/proc/self/exe", args);
		_exit(21);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], AFTER_EXEC))
		return after_exec(argc, argv);
	return test_harness_run(argc, argv);
}
