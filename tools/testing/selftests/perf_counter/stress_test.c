// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing is left behind: many open/close cycles, refused opens and
 * forks with inherited counters do not grow kernel memory or use fds.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

/* Under KASAN and kmemleak a case takes minutes, not the harness's 30 s. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	600

/*
 * Two checks: the subsystem's own objects, counted exactly (nothing of
 * any size may be left), and slab use as a whole, for anything else.
 * Slab use moves by whole pages of partly used slabs: 10000 cycles move
 * it by up to 96 kB with no leak (64 kB on every target unloaded, 96 on
 * P4 under a loaded host), so SLAB_SLACK_KB is 256: a leak of 32 bytes
 * a cycle (320 kB) is past it, and the exact counts catch any leak of
 * the subsystem's own objects. Forks move it by
 * up to 300 kB over 1000 (the fork's own caches), too much for 16 bytes
 * a fork to show: there the exact object counts, which cover every
 * allocation the subsystem makes, are the leak check, and
 * FORK_SLAB_SLACK_KB catches only a kilobyte a fork left elsewhere.
 */
#define CYCLES			10000
#define SLAB_SLACK_KB		256
#define FORK_SLAB_SLACK_KB	1024

/*
 * Under KASAN freed objects wait in its quarantine before the slab gets
 * them back, so slab use grows with no leak at all. There the growth is
 * printed, not checked, and the case skips if its other checks passed
 * (kmemleak looks for real leaks on that kernel). The harness's
 * initramfs names the kernel's sanitizers in /etc/pc-sanitizer.
 */
static int kasan_holds_slab(void)
{
	return pc_sanitizer("KASAN");
}

/*
 * The cycles a case runs: CYCLES, or a tenth under KASAN, where slab
 * growth is not checked (it reads /etc/pc-sanitizer: call it once). The exact object counts hold at any length,
 * and 10000 cycles took over three minutes of the sanitizer boot.
 */
static int cycles(void)
{
	return kasan_holds_slab() ? CYCLES / 10 : CYCLES;
}

/* The last check of a case: under KASAN it skips if the others passed. */
static void check_slab_growth(struct __test_metadata *_metadata, long kb,
			      long slack)
{
	if (!kasan_holds_slab()) {
		EXPECT_LT(kb, slack);
	} else if (_metadata->passed) {
		SKIP(return, "KASAN quarantine: slab growth of %ld kB not checked",
		     kb);
	}
}

static void open_close_cycle(int i)
{
	struct perf_counter_hw_event hw = pc_sw(i % PERF_SW_EVENTS_MAX, 0);
	int leader, m1, m2;

	hw.inherit = i & 1;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	m1 = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	m2 = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	pc_read(m1);
	/* close in a different order each time */
	if (i % 3 == 0) {
		close(leader);
		close(m1);
		close(m2);
	} else if (i % 3 == 1) {
		close(m2);
		close(m1);
		close(leader);
	} else {
		close(m1);
		close(leader);
		close(m2);
	}
}

TEST(ten_thousand_open_close_cycles_do_not_grow_slab)
{
	struct pc_objects o0, o1;
	long before, after;
	int i, n = cycles(), fd0 = dup(0), fd1;

	close(fd0);
	for (i = 0; i < 1000; i++)	/* warm the caches */
		open_close_cycle(i);
	before = pc_slab_settle();
	ASSERT_GT(before, 0);
	ASSERT_EQ(0, pc_objects_read(&o0));
	for (i = 0; i < n; i++)
		open_close_cycle(i);
	ASSERT_EQ(0, pc_objects_read(&o1));
	after = pc_slab_settle();
	TH_LOG("slab %ld kB before, %ld kB after %d cycles", before, after, n);
	EXPECT_SAME_OBJECTS(o0, o1);
	EXPECT_SLAB_AGREES();
	fd1 = dup(0);
	EXPECT_EQ(fd0, fd1);		/* every fd came back */
	close(fd1);
	check_slab_growth(_metadata, after - before, SLAB_SLACK_KB);
}

TEST(ten_thousand_refused_opens_leave_nothing)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	struct pc_objects o0, o1;
	long before, after;
	int i, n = cycles(), leader;

	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	before = pc_slab_settle();
	ASSERT_EQ(0, pc_objects_read(&o0));
	for (i = 0; i < n; i++) {
		hw.pinned = 1;		/* a pinned member: refused late */
		EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, leader, 0));
		hw.pinned = 0;
		EXPECT_EQ(-1, sys_perf_counter_open(&hw, 999999, -1, -1, 0));
	}
	ASSERT_EQ(0, pc_objects_read(&o1));
	after = pc_slab_settle();
	TH_LOG("slab %ld kB before, %ld kB after", before, after);
	EXPECT_SAME_OBJECTS(o0, o1);
	EXPECT_SLAB_AGREES();
	close(leader);
	check_slab_growth(_metadata, after - before, SLAB_SLACK_KB);
}

/* Slab growth over @n forks that exit at once. */
static long fork_growth(int n)
{
	long before = pc_slab_settle();
	int i, status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, &status, 0);
	}
	return pc_slab_settle() - before;
}

/* 2,200 forks take longer than the harness's 30 s on a loaded host. */
FIXTURE(forks) {
};

FIXTURE_SETUP(forks)
{
}

FIXTURE_TEARDOWN(forks)
{
}

TEST_F_TIMEOUT(forks, forks_with_inherited_counters_leave_nothing, 300)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	struct pc_objects o0, o1;
	long plain, counted;
	int i, fd[4], n = cycles() / 10;

	fork_growth(100);		/* warm the caches */
	plain = fork_growth(n);
	hw.inherit = 1;
	for (i = 0; i < 4; i++) {
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, i + 1);
		fd[i] = sys_perf_counter_open(&hw, 0, -1, -1, 0);
		ASSERT_GE(fd[i], 0);
	}
	fork_growth(100);
	ASSERT_EQ(0, pc_objects_read(&o0));
	/* each fork copies 4 counters and a context; each exit frees them */
	counted = fork_growth(n);
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);
	EXPECT_SLAB_AGREES();
	TH_LOG("slab growth over %d forks: %ld kB plain, %ld kB with 4 inherited counters",
	       n, plain, counted);
	for (i = 0; i < 4; i++)
		close(fd[i]);
	check_slab_growth(_metadata, counted - plain, FORK_SLAB_SLACK_KB);
}

/*
 * Switch-out records with call chains (kernel and user parts, 64 words
 * of user stack) of an inherited counter, under forks, pipe round trips
 * and sleeps: on the sanitizer boot every chain walk and stack copy runs
 * under KASAN, lockdep and kmemleak, whose reports fail the boot; and
 * nothing is left once the counter is closed.
 */
TEST_F_TIMEOUT(forks, switch_out_chains_under_forks_leave_nothing, 300)
{
	struct perf_counter_hw_event_ext d;
	struct pc_objects o0, o1;
	int i, fd, p[2], q[2], status;
	uint64_t lost = 0;
	ssize_t got, total = 0;
	char c, *buf = malloc(1 << 16);
	pid_t pid;

	ASSERT_TRUE(buf != NULL);
	memset(&d, 0, sizeof(d));
	d.hw.size = sizeof(d);
	d.hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						PERF_COUNT_TASK_CLOCK);
	d.hw.irq_period = 1000000;
	d.hw.record_type = PERF_RECORD_TID | PERF_RECORD_TIME |
			   PERF_RECORD_CALLCHAIN;
	d.hw.inherit = 1;
	d.hw.context_switch = 1;
	d.hw.exclude_kernel = !!geteuid();
	d.switch_out = PERF_SWITCH_OUT_CHAIN;
	d.switch_stack = PERF_SWITCH_STACK_MAX;
	fork_growth(10);
	/* the opener's own context lives on: made before the count */
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	usleep(100000);
	ASSERT_EQ(0, pc_objects_read(&o0));
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* the echo side, and forks of its own */
		for (i = 0; i < 200 && read(p[0], &c, 1) == 1; i++) {
			if (i % 20 == 0)
				fork_growth(2);
			if (write(q[1], &c, 1) != 1)
				break;
		}
		_exit(0);
	}
	for (i = 0; i < 200; i++) {
		c = i;
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			break;
		if (i % 50 == 0)
			usleep(1000);
		while ((got = read(fd, buf, 1 << 16)) > 0)
			total += got;
	}
	EXPECT_EQ(200, i);
	waitpid(pid, &status, 0);
	while ((got = read(fd, buf, 1 << 16)) > 0)
		total += got;
	ioctl(fd, PERF_COUNTER_IOC_LOST, &lost);
	TH_LOG("%zd bytes of records, %llu lost", total,
	       (unsigned long long)lost);
	EXPECT_LT(4096, total);
	close(fd);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	free(buf);
	/* the queue and the chain buffers go after an RCU grace period */
	usleep(100000);
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);
}

/*
 * A thread that reads a group while it changes: each round reads the
 * whole group with the READ ioctl (a leader with an inherit_stat queue
 * reads records), then opens a member on the leader's task and closes
 * it. Every read must be a whole group, its ids nonzero.
 */
struct group_churn {
	int leader;
	pid_t tid;			/* the leader's task */
	int rounds, bad, reads;
};

static void *group_churn(void *arg)
{
	struct group_churn *g = arg;
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	struct perf_counter_read_buf rb;
	uint64_t buf[3 + 2 * 16], nr, k;
	ssize_t got;
	int i, member;

	hw.inherit = 1;
	rb = (struct perf_counter_read_buf){ .addr = (uintptr_t)buf,
					    .size = sizeof(buf) };
	for (i = 0; i < g->rounds; i++) {
		got = ioctl(g->leader, PERF_COUNTER_IOC_READ, &rb);
		nr = buf[0];
		if (got < 0 || nr < 1 || nr > 16 ||
		    (size_t)got != (3 + 2 * nr) * 8)
			g->bad++;
		for (k = 0; got > 0 && k < nr && k < 16; k++)
			if (!buf[4 + 2 * k])
				g->bad++;
		g->reads++;
		member = sys_perf_counter_open(&hw, g->tid, -1, g->leader, 0);
		if (member >= 0)
			close(member);
	}
	return NULL;
}

/* Read @fd's records: count the TOTALS ones, and any malformed. */
static void count_totals(int fd, char *buf, int *totals, int *malformed)
{
	struct perf_counter_record_header *h;
	ssize_t got;
	size_t at;

	while ((got = read(fd, buf, 1 << 16)) > 0) {
		for (at = 0; at + sizeof(*h) <= (size_t)got; at += h->size) {
			h = (void *)(buf + at);
			if (h->size < sizeof(*h) || h->size % 8) {
				++*malformed;
				break;
			}
			*totals += h->type == PERF_COUNTER_REC_TOTALS;
		}
	}
}

/*
 * Group reads racing members that come and go, forks that copy the
 * group and exits that write TOTALS records of it and fold it: every
 * read whole, every record well formed, and nothing left after.
 */
TEST_F_TIMEOUT(forks, group_reads_under_churn_and_exits_leave_nothing, 300)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 1);
	struct group_churn g = { .rounds = 2000 };
	struct pc_objects o0, o1;
	int i, m[4], totals = 0, malformed = 0;
	uint64_t lost = 0;
	char *buf = malloc(1 << 16);
	pthread_t t;

	ASSERT_TRUE(buf != NULL);
	fork_growth(10);
	/* the opener's own context lives on: made before the count */
	g.leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(g.leader, 0);
	close(g.leader);
	usleep(100000);
	ASSERT_EQ(0, pc_objects_read(&o0));
	hw.inherit = 1;
	hw.inherit_stat = 1;
	hw.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	g.leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(g.leader, 0);
	fcntl(g.leader, F_SETFL, O_NONBLOCK);
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	hw.inherit = 1;
	for (i = 0; i < 4; i++) {
		m[i] = sys_perf_counter_open(&hw, 0, -1, g.leader, 0);
		ASSERT_GE(m[i], 0);
	}
	ASSERT_EQ(0, pc_enable(g.leader));
	g.tid = syscall(SYS_gettid);
	ASSERT_EQ(0, pthread_create(&t, NULL, group_churn, &g));
	for (i = 0; i < 200; i++) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			pc_touch_pages(4);
			_exit(0);
		}
		waitpid(pid, &status, 0);
		count_totals(g.leader, buf, &totals, &malformed);
	}
	pthread_join(t, NULL);
	/* the thread's own record: its exit is done once it is joined */
	count_totals(g.leader, buf, &totals, &malformed);
	ioctl(g.leader, PERF_COUNTER_IOC_LOST, &lost);
	TH_LOG("%d group reads, %d TOTALS records, %llu lost", g.reads,
	       totals, (unsigned long long)lost);
	EXPECT_EQ(0, g.bad);
	EXPECT_EQ(0, malformed);
	/* the 200 children and the thread */
	EXPECT_EQ(201, totals + lost);
	EXPECT_LT(100, totals);
	for (i = 0; i < 4; i++)
		close(m[i]);
	close(g.leader);
	free(buf);
	usleep(100000);
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);
}

/* Children that hold an inherited copy and a context each. */
#define SLAB_CHILDREN	16

/*
 * The slab allocator's count of the subsystem's caches (pc_util.h) sees
 * what it should, apart from the subsystem's own counts: a sampling
 * counter (with its queue) and SLAB_CHILDREN children each holding an
 * inherited copy in a context of its own are that many more objects in
 * the caches, and once all are gone none is left but the opener's own
 * context, which lives as long as the opener does. Where the caches are
 * not the subsystem's alone (merged with others: no slab_nomerge, or no
 * SLUB_DEBUG for their files) the case skips; the sanitizer boot has
 * them, and there the other cases compare the counts too.
 */
TEST(slab_caches_hold_what_the_subsystem_counts)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	struct pc_objects o0, o1, o2;
	struct pc_slab s0, s1, s2;
	pid_t pid[SLAB_CHILDREN];
	int i, fd, p[2], status;
	char c;

	if (!pc_slab_countable())
		SKIP(return, "perf_counter's slab caches are not its own here (slab_nomerge, SLUB_DEBUG)");
	ASSERT_GT(pc_slab_agree(&s0, &o0), 0);
	hw.irq_period = 1000000;	/* a queue too */
	hw.record_type = PERF_RECORD_IRQ;
	hw.inherit = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	for (i = 0; i < SLAB_CHILDREN; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(p[1]);
			/* hold the copy until the parent has counted */
			_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
		}
		ASSERT_GT(pid[i], 0);
	}
	close(p[0]);
	ASSERT_GT(pc_slab_agree(&s1, &o1), 0);
	close(p[1]);
	for (i = 0; i < SLAB_CHILDREN; i++) {
		EXPECT_EQ(pid[i], waitpid(pid[i], &status, 0));
		EXPECT_EQ(0, status);
	}
	close(fd);
	ASSERT_GT(pc_slab_agree(&s2, &o2), 0);
	TH_LOG("slab caches: %ld/%ld/%ld counters/contexts/queues before, %ld/%ld/%ld with %d children, %ld/%ld/%ld after",
	       s0.counters, s0.contexts, s0.queues, s1.counters, s1.contexts,
	       s1.queues, SLAB_CHILDREN, s2.counters, s2.contexts, s2.queues);
	/* the opener's counter and context, each child's copy and context */
	EXPECT_EQ(s0.counters + 1 + SLAB_CHILDREN, s1.counters);
	EXPECT_EQ(s0.contexts + 1 + SLAB_CHILDREN, s1.contexts);
	EXPECT_EQ(s0.queues + 1, s1.queues);
	EXPECT_EQ(o1.counters, s1.counters);
	EXPECT_EQ(o1.contexts, s1.contexts);
	EXPECT_EQ(o1.queues, s1.queues);
	/* the opener's context lives as long as the opener */
	EXPECT_EQ(s0.counters, s2.counters);
	EXPECT_EQ(s0.contexts + 1, s2.contexts);
	EXPECT_EQ(s0.queues, s2.queues);
	EXPECT_EQ(o2.counters, s2.counters);
	EXPECT_EQ(o2.contexts, s2.contexts);
	EXPECT_EQ(o2.queues, s2.queues);
}

TEST_HARNESS_MAIN
