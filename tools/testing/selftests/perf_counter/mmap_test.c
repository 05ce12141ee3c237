// SPDX-License-Identifier: GPL-2.0
/*
 * The counter page: mmap() of a counter fd, read with pc_self.h
 * (tools/perf_counter/pc_self.h) without a system call. What is refused,
 * that the page agrees with read(), runs on, follows the counter's state
 * and its task's switches, that the library falls back to read() when
 * it must, that a hardware counter's page names the register the
 * driver put it on, that nothing is left once the mapping and the fd
 * are gone, and what a self-read costs against getppid() (logged, not asserted).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"
#include "../../../perf_counter/pc_self.h"

#define TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/*
 * Calls timed for each line of the timings: self-reads, and system
 * calls (100 us each on the PowerPCs under TCG: the test has 30 s).
 */
#define LOOPS		200000
#define SYS_LOOPS	20000

static long psz(void)
{
	return sysconf(_SC_PAGESIZE);
}

static int open_times(unsigned int id, int disabled, pid_t pid)
{
	struct perf_counter_hw_event hw = pc_sw(id, disabled);

	hw.read_format = TIMES;
	return sys_perf_counter_open(&hw, pid, -1, -1, 0);
}

/* read() with both times. */
static void read_times(int fd, uint64_t v[3])
{
	if (read(fd, v, 3 * sizeof(*v)) != 3 * sizeof(*v))
		abort();
}

static const struct perf_counter_page *map_page(int fd)
{
	void *p = mmap(NULL, psz(), PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

TEST(refusals)
{
	int fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	struct perf_counter_hw_event hw;
	struct pc_child child;
	unsigned char vec;
	int status = -1;
	pid_t pid;
	void *p;

	ASSERT_LE(0, fd);
	/* Writable. */
	p = mmap(NULL, psz(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(EACCES, errno);
	/* Two pages, then an offset. */
	p = mmap(NULL, 2 * psz(), PROT_READ, MAP_SHARED, fd, 0);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, psz(), PROT_READ, MAP_SHARED, fd, psz());
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	/* Executable. */
	p = mmap(NULL, psz(), PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(EACCES, errno);
	/* Read-only for good: no mprotect() to writable or executable. */
	p = mmap(NULL, psz(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	EXPECT_EQ(-1, mprotect(p, psz(), PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect(p, psz(), PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(PERF_COUNTER_PAGE_VERSION,
		  ((struct perf_counter_page *)p)->version);
	/*
	 * Not copied into a child at fork: the page is its owner's, and
	 * madvise(MADV_DOFORK) cannot make it the child's.
	 */
	EXPECT_EQ(-1, madvise(p, psz(), MADV_DOFORK));
	EXPECT_EQ(EINVAL, errno);
	pid = fork();
	if (pid == 0)
		_exit(mincore(p, psz(), &vec) == -1 && errno == ENOMEM ? 0 : 1);
	ASSERT_LT(0, pid);
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(0, mincore(p, psz(), &vec));
	munmap(p, psz());
	close(fd);

	/* Inherited, sampling: no page. */
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	hw.inherit = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(map_page(fd) == NULL);
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_IRQ;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(map_page(fd) == NULL);
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);

	/* Another task's. */
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 1));
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, child.pid, -1, -1);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(map_page(fd) == NULL);
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
	EXPECT_EQ(0, pc_child_finish(&child));

	/* A CPU's, where the caller may open one. */
	fd = pc_open_sw(PERF_COUNT_CPU_CLOCK, -1, 0, -1);
	if (fd >= 0) {
		EXPECT_TRUE(map_page(fd) == NULL);
		EXPECT_EQ(EOPNOTSUPP, errno);
		close(fd);
	}
}

/* A software event counter's page agrees with read(), to the event. */
TEST(sw_value_matches_read)
{
	int fd = open_times(PERF_COUNT_PAGE_FAULTS, 0, 0);
	struct pc_self_values a, b;
	struct pc_self self;
	uint64_t r[3];
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_self_map(&self, fd, TIMES));
	ASSERT_TRUE(self.page != NULL);
	pc_prefault_stack(16384);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
		read_times(fd, r);
		ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &b));
		/* No fault between the three. */
		EXPECT_EQ(a.value, r[0]);
		EXPECT_EQ(b.value, r[0]);
		/* The times: extrapolated, within the kernel clock's step. */
		EXPECT_LE(a.time_enabled, r[1] + 2 * PC_CLOCK_STEP_NS);
		EXPECT_LE(r[1], b.time_enabled + 2 * PC_CLOCK_STEP_NS);
		EXPECT_LE(a.time_running, r[2] + 2 * PC_CLOCK_STEP_NS);
		pc_touch_pages(5);
		ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
		EXPECT_LE(b.value + 5, a.value);
		EXPECT_GE(b.value + 5 + PC_OWN_FAULTS, a.value);
	}
	pc_self_unmap(&self);
	close(fd);
}

/*
 * The page goes into a mapping at its first touch, a page fault like any
 * other (counted), for a shared mapping and a private one alike, and it
 * is the counter's page, not one of zeros: the same path brings it back
 * after madvise(MADV_DONTNEED).
 */
TEST(first_touch_faults_the_page_in)
{
	int fd = open_times(PERF_COUNT_PAGE_FAULTS, 0, 0);
	int flags[2] = { MAP_SHARED, MAP_PRIVATE };
	const struct perf_counter_page *pg;
	uint64_t before, r[3];
	uint32_t version;
	int i;

	ASSERT_LE(0, fd);
	pc_prefault_stack(16384);
	for (i = 0; i < 2; i++) {
		pg = mmap(NULL, psz(), PROT_READ, flags[i], fd, 0);
		ASSERT_TRUE(pg != MAP_FAILED);
		read_times(fd, r);
		before = r[0];
		version = pg->version;
		read_times(fd, r);
		EXPECT_EQ(PERF_COUNTER_PAGE_VERSION, version)
			TH_LOG("%s mapping", i ? "private" : "shared");
		EXPECT_NE(0, pg->flags & PERF_COUNTER_PAGE_READ);
		EXPECT_EQ(r[0], pg->value);
		EXPECT_GE(r[0], before + 1);
		EXPECT_LE(r[0], before + 1 + PC_OWN_FAULTS);
		/* Dropped, it comes back at the next touch: a fault again. */
		ASSERT_EQ(0, madvise((void *)pg, psz(), MADV_DONTNEED));
		read_times(fd, r);
		before = r[0];
		version = pg->version;
		read_times(fd, r);
		EXPECT_EQ(PERF_COUNTER_PAGE_VERSION, version);
		EXPECT_EQ(r[0], pg->value);
		EXPECT_GE(r[0], before + 1);
		EXPECT_LE(r[0], before + 1 + PC_OWN_FAULTS);
		munmap((void *)pg, psz());
	}
	close(fd);
}

/* Successive self-reads never go back (a clock: by less than a step). */
TEST(monotonic)
{
	int faults = open_times(PERF_COUNT_PAGE_FAULTS, 0, 0);
	int clock = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct pc_self sf, sc;
	struct pc_self_values f0, f1, c0, c1;
	uint64_t back = 0;
	int i;

	ASSERT_LE(0, faults);
	ASSERT_LE(0, clock);
	ASSERT_EQ(0, pc_self_map(&sf, faults, TIMES));
	ASSERT_EQ(0, pc_self_map(&sc, clock, TIMES));
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&sf, &f0));
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&sc, &c0));
	for (i = 0; i < 200000; i++) {
		if (!(i % 1000))
			pc_touch_pages(1);
		ASSERT_LE(0, pc_self_read(&sf, &f1));
		ASSERT_LE(0, pc_self_read(&sc, &c1));
		ASSERT_LE(f0.value, f1.value);
		ASSERT_LE(f0.time_enabled, f1.time_enabled + PC_CLOCK_STEP_NS);
		ASSERT_LE(c0.value, c1.value + PC_CLOCK_STEP_NS);
		if (c1.value < c0.value && c0.value - c1.value > back)
			back = c0.value - c1.value;
		f0 = f1;
		c0 = c1;
	}
	TH_LOG("task-clock: %llu ns, at most %llu ns back",
	       (unsigned long long)c1.value, (unsigned long long)back);
	EXPECT_LE(200, f1.value);
	pc_self_unmap(&sf);
	pc_self_unmap(&sc);
	close(faults);
	close(clock);
}

/* task-clock runs on in the page as read() sees it run. */
TEST(task_clock_extrapolated)
{
	int fd = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct pc_self_values a, b;
	struct pc_self self;
	uint64_t r[3], cpu0 = pc_thread_cpu_ns(), ran;
	uint32_t flags;
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_self_map(&self, fd, TIMES));
	ASSERT_TRUE(self.page != NULL);
	flags = self.page->flags;
	EXPECT_EQ(PERF_COUNTER_PAGE_READ | PERF_COUNTER_PAGE_RUNNING |
		  PERF_COUNTER_PAGE_CLOCK, flags);
	for (i = 0; i < 10; i++) {
		pc_spin_ns(2 * PC_CLOCK_STEP_NS);
		ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
		read_times(fd, r);
		ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &b));
		EXPECT_LE(a.value, r[0] + 2 * PC_CLOCK_STEP_NS);
		EXPECT_LE(r[0], b.value + 2 * PC_CLOCK_STEP_NS);
		EXPECT_LE(a.time_running, r[2] + 2 * PC_CLOCK_STEP_NS);
		EXPECT_LE(r[2], b.time_running + 2 * PC_CLOCK_STEP_NS);
		/*
		 * It ran for the spin, as the scheduler counted the time it
		 * ran (a one-CPU guest may run others during a wall-clock
		 * spin: 0.85 ms of the first 8 ms on the 7400 model once),
		 * give or take a step of the clock; and for at least half of
		 * the wall-clock spin.
		 */
		ran = pc_thread_cpu_ns() - cpu0;
		EXPECT_LE(ran * 9 / 10, b.value + PC_CLOCK_STEP_NS);
		EXPECT_LE((i + 1) * PC_CLOCK_STEP_NS, b.value);
	}
	TH_LOG("self-read %llu ns, read() %llu ns", (unsigned long long)b.value,
	       (unsigned long long)r[0]);
	pc_self_unmap(&self);
	close(fd);
}

/*
 * A task that runs on without a switch still has its page renewed, at
 * every tick: a reader never extrapolates over more than one, whatever
 * CLOCK_MONOTONIC's drift from the kernel's clock. 200 ms of spinning
 * (a tick is 10 ms at most) sees many stamps, not the one of the mmap.
 */
TEST(renewed_at_the_tick)
{
	int fd = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	const struct perf_counter_page *pg;
	uint64_t t0, stamp, last = 0;
	int stamps = 0;
	uint32_t seq;

	ASSERT_LE(0, fd);
	pg = map_page(fd);
	ASSERT_TRUE(pg != NULL);
	t0 = pc_self_now();
	while (pc_self_now() - t0 < 200000000ULL) {
		seq = pc_self_seq(pg);
		pc_self_barrier();
		stamp = pg->stamp;
		pc_self_barrier();
		if (!(seq & 1) && pc_self_seq(pg) == seq && stamp != last) {
			stamps++;
			last = stamp;
		}
	}
	TH_LOG("%d stamps in 200 ms", stamps);
	EXPECT_GE(stamps, 5);
	munmap((void *)pg, psz());
	close(fd);
}

/* Disabled, the page stops; enabled, it runs again. */
TEST(disable_enable)
{
	int fd = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct pc_self_values a, b;
	struct pc_self self;
	uint32_t seq;
	uint64_t r[3];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_self_map(&self, fd, TIMES));
	ASSERT_TRUE(self.page != NULL);
	pc_spin_ns(2 * PC_CLOCK_STEP_NS);
	seq = self.page->seq;
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_NE(seq, self.page->seq);
	EXPECT_EQ(PERF_COUNTER_PAGE_READ, self.page->flags);
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
	read_times(fd, r);
	/* Stopped: the page is exact. */
	EXPECT_EQ(r[0], a.value);
	EXPECT_EQ(r[1], a.time_enabled);
	EXPECT_EQ(r[2], a.time_running);
	pc_spin_ns(2 * PC_CLOCK_STEP_NS);
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &b));
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.time_enabled, b.time_enabled);

	ASSERT_EQ(0, pc_enable(fd));
	EXPECT_EQ(PERF_COUNTER_PAGE_READ | PERF_COUNTER_PAGE_RUNNING |
		  PERF_COUNTER_PAGE_CLOCK, self.page->flags);
	pc_spin_ns(2 * PC_CLOCK_STEP_NS);
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &b));
	EXPECT_LT(a.value + PC_CLOCK_STEP_NS, b.value);
	pc_self_unmap(&self);
	close(fd);
}

/* The task leaves the CPU and comes back: the page follows. */
TEST(switched_out_and_in)
{
	int sw = open_times(PERF_COUNT_CONTEXT_SWITCHES, 0, 0);
	int clock = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct pc_self ss, sc;
	struct pc_self_values s0, s1, c0, c1;
	uint64_t r[3], rs[3];
	uint32_t seq;

	ASSERT_LE(0, sw);
	ASSERT_LE(0, clock);
	ASSERT_EQ(0, pc_self_map(&ss, sw, TIMES));
	ASSERT_EQ(0, pc_self_map(&sc, clock, TIMES));
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&ss, &s0));
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&sc, &c0));
	seq = sc.page->seq;
	usleep(100000);		/* off the CPU for 100 ms */
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&ss, &s1));
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&sc, &c1));
	/* Both read() at once: a failure's message costs CPU time. */
	read_times(clock, r);
	read_times(sw, rs);
	/* Out and in: two updates at least, four increments. */
	EXPECT_LE(seq + 4, sc.page->seq);
	EXPECT_LT(s0.value, s1.value);
	EXPECT_EQ(rs[0], s1.value);
	EXPECT_LE(c1.value, r[0] + 2 * PC_CLOCK_STEP_NS);
	EXPECT_LE(r[0], c1.value + 2 * PC_CLOCK_STEP_NS);
	/*
	 * Asleep, task-clock stood still, and so did time_enabled: far
	 * less than the 100 ms went by (with room for a busy host stealing
	 * the guest's CPU while the task runs).
	 */
	EXPECT_GT(c0.value + 50000000ULL, c1.value);
	EXPECT_GT(c0.time_enabled + 50000000ULL, c1.time_enabled);
	pc_self_unmap(&ss);
	pc_self_unmap(&sc);
	close(sw);
	close(clock);
}

struct reader {
	struct pc_self	*self;
	int		how;
	uint64_t	value;
	int		go[2];
};

static void *other_thread(void *arg)
{
	struct reader *rd = arg;
	struct pc_self_values v;
	char c;

	if (read(rd->go[0], &c, 1) != 1)
		return NULL;
	usleep(20000);		/* the main thread sleeps in join */
	rd->how = pc_self_read(rd->self, &v);
	rd->value = v.value;
	return NULL;
}

/* When the page cannot give the value, the library asks read(). */
TEST(fallback)
{
	int fd = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct perf_counter_page fake;
	struct pc_self_values v;
	struct reader rd;
	struct pc_self self, busy;
	pthread_t t;
	uint64_t r[3];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_self_map(&self, fd, TIMES));
	ASSERT_TRUE(self.page != NULL);

	/* Its task is off the CPU: another thread of it must read(). */
	rd.self = &self;
	rd.how = -2;
	ASSERT_EQ(0, pipe(rd.go));
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread, &rd));
	ASSERT_EQ(1, write(rd.go[1], "x", 1));
	pthread_join(t, NULL);
	EXPECT_EQ(PC_SELF_READ, rd.how);
	read_times(fd, r);
	EXPECT_LE(rd.value, r[0]);
	close(rd.go[0]);
	close(rd.go[1]);

	/* A page forever mid-update: the retries run out, then read(). */
	memset(&fake, 0, sizeof(fake));
	fake.version = PERF_COUNTER_PAGE_VERSION;
	fake.seq = 1;
	fake.flags = PERF_COUNTER_PAGE_READ;
	fake.value = 12345;
	busy = self;
	busy.page = &fake;
	EXPECT_EQ(PC_SELF_READ, pc_self_read(&busy, &v));
	EXPECT_NE(12345, v.value);
	/* The same page, whole: read from it. */
	fake.seq = 2;
	EXPECT_EQ(PC_SELF_PAGE, pc_self_read(&busy, &v));
	EXPECT_EQ(12345, v.value);

	/* No page at all (mmap() refused): read(). */
	busy.page = NULL;
	EXPECT_EQ(PC_SELF_READ, pc_self_read(&busy, &v));
	pc_self_unmap(&self);
	close(fd);
}

/* The models whose PMCs user mode reads through UPMCs (models.c). */
static int pmu_user_read(const struct pc_pmu_info *pmu)
{
	return !strcmp(pmu->name, "PowerPC 750") ||
	       !strcmp(pmu->name, "PowerPC 7400") ||
	       !strcmp(pmu->name, "PowerPC 7450");
}

/*
 * A hardware counter: read through its UPMC where the model has them
 * (PowerPC 750, 7400, 745x), else by read() while it counts; exact in
 * the page while disabled either way.
 */
TEST(hardware_counter)
{
	struct perf_counter_hw_event hw = pc_sw(0, 0);
	struct pc_self_values a, b;
	struct pc_pmu_info pmu;
	struct pc_self self;
	uint64_t r[3], t0, t1, t2;
	int fd, i, user;

	pc_read_pmu(&pmu);
	if (!pc_pmu_usable(&pmu))
		SKIP(return, "no usable PMU (%s)", pmu.name);
	user = pmu_user_read(&pmu);
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					      PERF_COUNT_INSTRUCTIONS);
	hw.read_format = TIMES;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s: errno %d", pmu.name, errno);
	ASSERT_EQ(0, pc_self_map(&self, fd, TIMES));
	ASSERT_TRUE(self.page != NULL);
	TH_LOG("%s: flags %u reg %u bits %u", pmu.name, self.page->flags,
	       self.page->reg, self.page->reg_bits);
	if (user) {
		EXPECT_EQ(PERF_COUNTER_PAGE_READ | PERF_COUNTER_PAGE_RUNNING,
			  self.page->flags);
		/*
		 * Alone on the PMU, instructions take the lowest PMC they
		 * may use: PMC1 on each of these models (models.c).
		 */
		EXPECT_EQ(1, self.page->reg);
		EXPECT_EQ(pmu.width, self.page->reg_bits);
		for (i = 0; i < 20; i++) {
			pc_spin(100000);
			ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
			read_times(fd, r);
			ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &b));
			EXPECT_LE(a.value, r[0]);
			EXPECT_LE(r[0], b.value);
			EXPECT_LE(a.time_running, r[2] + 2 * PC_CLOCK_STEP_NS);
			EXPECT_LE(r[2], b.time_running + 2 * PC_CLOCK_STEP_NS);
		}
		TH_LOG("instructions: self-read %llu, read() %llu",
		       (unsigned long long)b.value, (unsigned long long)r[0]);
	} else {
		EXPECT_EQ(PERF_COUNTER_PAGE_RUNNING, self.page->flags);
		EXPECT_EQ(0, self.page->reg);
		EXPECT_EQ(PC_SELF_READ, pc_self_read(&self, &a));
	}

	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(PERF_COUNTER_PAGE_READ, self.page->flags);
	EXPECT_EQ(0, self.page->reg);
	ASSERT_EQ(PC_SELF_PAGE, pc_self_read(&self, &a));
	read_times(fd, r);
	EXPECT_EQ(r[0], a.value);
	EXPECT_EQ(r[2], a.time_running);
	ASSERT_EQ(0, pc_enable(fd));

	t0 = pc_now_ns();
	for (i = 0; i < LOOPS; i++)
		pc_self_read(&self, &a);
	t1 = pc_now_ns();
	for (i = 0; i < SYS_LOOPS; i++)
		syscall(SYS_getppid);
	t2 = pc_now_ns();
	printf("# %s instructions self-read (%s) %.1f ns, getppid %.1f ns: ratio %.3f\n",
	       pmu.name, user ? "UPMC" : "read()",
	       (double)(t1 - t0) / LOOPS, (double)(t2 - t1) / SYS_LOOPS,
	       (double)(t1 - t0) / LOOPS / ((double)(t2 - t1) / SYS_LOOPS));
	pc_self_unmap(&self);
	close(fd);
}

/*
 * Where each counter of a known set goes, per the models.c event tables
 * (the manuals' PMCs for each event) and the placement rules: a counter
 * takes the lowest free register it may use (hw_counter.c); when none
 * is free, every counter on is placed again, fewest places first, each
 * keeping its own register when it can and else taking its lowest free
 * one (hw_assign.c). The set is opened in this order, on a PMU nothing
 * else uses: instructions, cycles, branch-misses, cache-misses and,
 * where the model has it, branch instructions.
 */
#define PLACED_SET	5

static const unsigned int placed_events[PLACED_SET] = {
	PERF_COUNT_INSTRUCTIONS, PERF_COUNT_CPU_CYCLES,
	PERF_COUNT_BRANCH_MISSES, PERF_COUNT_CACHE_MISSES,
	PERF_COUNT_BRANCH_INSTRUCTIONS,
};

struct placed_model {
	const char	*cpu;	/* the cpu line of /proc/cpuinfo starts so */
	int		steps;	/* how many of placed_events it has */
	/* after opening event k, the PMC (1-based) of each event 0..k */
	unsigned char	reg[PLACED_SET][PLACED_SET];
};

/*
 * The models whose PMCs user mode reads (UPMCs), so the page names the
 * register. 750: instructions and cycles on any of PMC1-4 (the first
 * two free), branch-misses on PMC4 only, cache-misses on PMC3 only, all
 * free. 7400: cache-misses on PMC2 only, which cycles holds: placed
 * again, branch-misses and cache-misses first take PMC4 and PMC2,
 * instructions keeps PMC1, cycles moves to PMC3. 7450: cache-misses on
 * PMC2 or PMC3 takes PMC3; branch instructions on PMC1 only: placed
 * again, branch-misses PMC4, branch instructions PMC1, cache-misses
 * keeps PMC3, instructions (PMC1-4) moves to PMC2, cycles (any of six)
 * to PMC5.
 */
static const struct placed_model placed_models[] = {
	{ "745", 5, { {1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 3}, {2, 5, 4, 3, 1} } },
	{ "744", 5, { {1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 3}, {2, 5, 4, 3, 1} } },
	{ "7400", 4, { {1}, {1, 2}, {1, 2, 4}, {1, 3, 4, 2} } },
	{ "7410", 4, { {1}, {1, 2}, {1, 2, 4}, {1, 3, 4, 2} } },
	{ "740/750", 4, { {1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 3} } },
	{ "750", 4, { {1}, {1, 2}, {1, 2, 4}, {1, 2, 4, 3} } },
};

/* The placed_models[] entry /proc/cpuinfo's cpu line names, or NULL. */
static const struct placed_model *placed_model(void)
{
	char line[256], cpu[64] = "";
	FILE *f = fopen("/proc/cpuinfo", "r");
	unsigned int i;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu : %63s", cpu) == 1)
			break;
	fclose(f);
	for (i = 0; i < ARRAY_SIZE(placed_models); i++)
		if (!strncmp(cpu, placed_models[i].cpu,
			     strlen(placed_models[i].cpu)))
			return &placed_models[i];
	return NULL;
}

/* The page's reg and flags, read whole: 0, or -1 if never whole. */
static int page_reg(const struct perf_counter_page *pg, unsigned int *reg,
		    uint32_t *flags)
{
	uint32_t seq;
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		seq = pc_self_seq(pg);
		pc_self_barrier();
		*reg = pg->reg;
		*flags = pg->flags;
		pc_self_barrier();
		if (!(seq & 1) && pc_self_seq(pg) == seq)
			return 0;
	}
	return -1;
}

/*
 * Each counter's page names the register the assignment rules give it,
 * after each open, the moved ones included; where user mode has no
 * register to read (x86, POWER8, the 604s) it names none. Under TCG
 * nothing counts, but the placement is real all the same.
 */
TEST(hardware_page_names_the_assigned_register)
{
	const struct perf_counter_page *pg[PLACED_SET];
	const struct placed_model *m;
	struct perf_counter_hw_event hw;
	int fd[PLACED_SET], opened, steps, i, k;
	struct pc_pmu_info pmu;
	unsigned int reg, want;
	uint32_t flags;

	pc_read_pmu(&pmu);
	if (!pc_pmu_usable(&pmu))
		SKIP(return, "no usable PMU (%s)", pmu.name);
	m = placed_model();
	/* Without user registers two counters show it: no page names one. */
	steps = m ? m->steps : 2;
	TH_LOG("%s: %s", pmu.name, m ? m->cpu : "no user-readable PMCs");
	for (opened = 0; opened < steps; opened++) {
		hw = pc_sw(0, 0);
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
						      placed_events[opened]);
		fd[opened] = sys_perf_counter_open(&hw, 0, -1, -1, 0);
		EXPECT_LE(0, fd[opened])
			TH_LOG("event %u: errno %d", placed_events[opened], errno);
		if (fd[opened] < 0)
			break;
		pg[opened] = map_page(fd[opened]);
		EXPECT_TRUE(pg[opened] != NULL) TH_LOG("mmap: errno %d", errno);
		if (!pg[opened]) {
			close(fd[opened]);
			break;
		}
		k = opened;
		for (i = 0; i <= k; i++) {
			want = m ? m->reg[k][i] : 0;
			EXPECT_EQ(0, page_reg(pg[i], &reg, &flags));
			EXPECT_EQ(want, reg)
				TH_LOG("%d counters open: counter %d (event %u) on PMC %u, not %u",
				       k + 1, i, placed_events[i], reg, want);
			EXPECT_EQ(PERF_COUNTER_PAGE_RUNNING |
				  (m ? PERF_COUNTER_PAGE_READ : 0), flags);
		}
	}
	while (opened-- > 0) {
		munmap((void *)pg[opened], psz());
		close(fd[opened]);
	}
}

/* munmap() and close() in either order leave nothing behind. */
TEST(unmap_close_orders)
{
	const struct perf_counter_page *p, *q;
	struct pc_objects o0, o1, mid;
	uint64_t v;
	int fd;

	/* The task's context first: it stays until the task exits. */
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, pc_objects_read(&o0));

	/* munmap(), then close(). */
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, fd);
	p = map_page(fd);
	ASSERT_TRUE(p != NULL);
	/* A second mapping shares the page. */
	q = map_page(fd);
	ASSERT_TRUE(q != NULL);
	ASSERT_EQ(0, pc_objects_read(&mid));
	EXPECT_EQ(o0.pages + 1, mid.pages);
	munmap((void *)p, psz());
	munmap((void *)q, psz());
	close(fd);
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);

	/* close(), then munmap(). */
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, fd);
	p = map_page(fd);
	ASSERT_TRUE(p != NULL);
	close(fd);
	/* The mapping holds the counter: its page still runs. */
	v = p->value;
	pc_touch_pages(3);
	EXPECT_LE(v + 3, p->value);
	ASSERT_EQ(0, pc_objects_read(&mid));
	EXPECT_EQ(o0.pages + 1, mid.pages);
	EXPECT_EQ(o0.counters + 1, mid.counters);
	munmap((void *)p, psz());
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);
}


/* ns per self-read against ns per getppid(): logged, not asserted. */
TEST(timing)
{
	int faults = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	int clock = open_times(PERF_COUNT_TASK_CLOCK, 0, 0);
	struct pc_self sf, sc;
	struct pc_self_values v;
	uint64_t t0, t1, t2, t3, t4;
	double nf, nc, np, nr;
	int i, page = 0;
	char cs[64] = "?";
	FILE *f;

	/* Where clock_gettime() has no vDSO path, a clock costs a call. */
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  "r");
	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			strcpy(cs, "?");
		cs[strcspn(cs, "\n")] = 0;
		fclose(f);
	}
	ASSERT_LE(0, faults);
	ASSERT_LE(0, clock);
	ASSERT_EQ(0, pc_self_map(&sf, faults, 0));
	ASSERT_EQ(0, pc_self_map(&sc, clock, TIMES));
	t0 = pc_now_ns();
	for (i = 0; i < LOOPS; i++)
		page += pc_self_read(&sf, &v) == PC_SELF_PAGE;
	t1 = pc_now_ns();
	for (i = 0; i < LOOPS; i++)
		page += pc_self_read(&sc, &v) == PC_SELF_PAGE;
	t2 = pc_now_ns();
	for (i = 0; i < SYS_LOOPS; i++)
		syscall(SYS_getppid);
	t3 = pc_now_ns();
	for (i = 0; i < SYS_LOOPS; i++)
		pc_read(faults);
	t4 = pc_now_ns();
	nf = (double)(t1 - t0) / LOOPS;
	nc = (double)(t2 - t1) / LOOPS;
	np = (double)(t3 - t2) / SYS_LOOPS;
	nr = (double)(t4 - t3) / SYS_LOOPS;
	printf("# self-read ns: page-faults %.1f, task-clock+times %.1f; getppid %.1f, read() %.1f; ratios %.3f %.3f (%d of %d from the page; clocksource %s)\n",
	       nf, nc, np, nr, nf / np, nc / np, page, 2 * LOOPS, cs);
	EXPECT_EQ(2 * LOOPS, page);
	pc_self_unmap(&sf);
	pc_self_unmap(&sc);
	close(faults);
	close(clock);
}

TEST_HARNESS_MAIN
