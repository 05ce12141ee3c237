// SPDX-License-Identifier: GPL-2.0
/*
 * The PowerPC driver's programming, seen from user mode: the 604, 750
 * and 74xx mirror their monitor registers read-only in user SPRs
 * (UMMCR0 936, UPMC1 937, UPMC2 938, UMMCR1 940, UPMC3 941, UPMC4 942;
 * on 745x also UMMCR2 928, UPMC5 929, UPMC6 930). While a counter of
 * this task is on, they show its selector in the right field, the
 * freeze bits its excludes ask for, PMXE (not on the parts whose errata
 * forbid the exception) and its condition enable, and
 * its preload; when it is off, or another task runs, everything is
 * frozen and clear, and no PMC holds a count or a preload for another
 * user's task to read.
 *
 * QEMU's PMCs hold what is written and never count, so there a PMC
 * reads exactly its preload; on a part that counts, it reads at least
 * that and has not reached bit 31.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "../../kselftest_harness.h"
#include "../pc_util.h"

#define MMCR0_FC	0x80000000u
#define MMCR0_FCS	0x40000000u
#define MMCR0_FCP	0x20000000u
#define MMCR0_PMXE	0x04000000u
#define MMCR0_THRESHOLD	0x003f0000u
#define MMCR0_PMC1CE	0x00008000u
#define MMCR0_PMCJCE	0x00004000u
#define MMCR2_THRESHMULT 0x80000000u

#define mfspr(n) ({ uint32_t v; asm volatile("mfspr %0, %1" : "=r" (v) : "i" (n)); v; })

/* The user-mode mirror of PMC @pmc (1-6). */
static uint32_t upmc(int pmc)
{
	switch (pmc) {
	case 1: return mfspr(937);
	case 2: return mfspr(938);
	case 3: return mfspr(941);
	case 4: return mfspr(942);
	case 5: return mfspr(929);
	default: return mfspr(930);
	}
}

/*
 * The performance monitor exception enable the driver sets: none on the
 * parts whose errata forbid the exception beside the decrementer (the
 * 750 family, PVR version 0x0008; the 7400, 0x000C; the 7410, 0x800C,
 * before revision 0x1103), which are polled instead. The kernel
 * emulates mfspr of the PVR for user mode.
 */
static uint32_t pmxe(void)
{
	uint32_t pvr = mfspr(287), ver = pvr >> 16;

	if (ver == 0x0008 || ver == 0x000c ||
	    (ver == 0x800c && (pvr & 0xffff) < 0x1103))
		return 0;
	return MMCR0_PMXE;
}

/* PMC @pmc's selector field, where the manuals put it. */
static uint32_t sel_of(int pmc)
{
	uint32_t mmcr0 = mfspr(936), mmcr1 = pmc > 2 ? mfspr(940) : 0;

	switch (pmc) {
	case 1: return mmcr0 >> 6 & 0x7f;
	case 2: return mmcr0 & 0x3f;
	case 3: return mmcr1 >> 27;
	case 4: return mmcr1 >> 22 & 0x1f;
	case 5: return mmcr1 >> 17 & 0x1f;
	default: return mmcr1 >> 11 & 0x3f;
	}
}

static struct perf_counter_hw_event raw(uint32_t sel, int pmc)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_RAW_CONFIG(sel | pmc << 8);
	return hw;
}

static int open_self(struct perf_counter_hw_event hw)
{
	return sys_perf_counter_open(&hw, 0, -1, -1, 0);
}

FIXTURE(mmcr) {
	struct pc_pmu_info pmu;
	int usable;
	int exact;	/* PMCs that do not count: they read their preload */
};

FIXTURE_SETUP(mmcr)
{
	pc_read_pmu(&self->pmu);
	/* The harness runs a test even when its setup skips: each asks. */
	self->usable = !strncmp(self->pmu.name, "PowerPC", 7) &&
		       pc_pmu_usable(&self->pmu);
	self->exact = !strcmp(self->pmu.state, "unchecked");
}

FIXTURE_TEARDOWN(mmcr)
{
}

/* PMC @pmc holds @preload, or has counted on from it. */
static int preloaded(int exact, int pmc, uint32_t preload)
{
	uint32_t v = upmc(pmc);

	return exact ? v == preload : v >= preload && !(v & 0x80000000u);
}

TEST_F(mmcr, counting_counter_programs_pmc1_freeze_and_exception_bits)
{
	struct perf_counter_hw_event hw = raw(1, 1);	/* cycles */
	uint32_t mmcr0;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	hw.exclude_kernel = 1;
	fd = open_self(hw);
	ASSERT_LE(0, fd) TH_LOG("errno %d", errno);
	mmcr0 = mfspr(936);
	TH_LOG("UMMCR0 %08x UPMC1 %08x", mmcr0, upmc(1));
	EXPECT_EQ(1, sel_of(1));
	EXPECT_EQ(0, mmcr0 & MMCR0_FC);
	EXPECT_EQ(MMCR0_FCS, mmcr0 & (MMCR0_FCS | MMCR0_FCP));
	EXPECT_EQ(pmxe(), mmcr0 & MMCR0_PMXE);
	EXPECT_EQ(MMCR0_PMC1CE, mmcr0 & (MMCR0_PMC1CE | MMCR0_PMCJCE));
	/* counting: 0x7fffffff events to the interrupt */
	EXPECT_TRUE(preloaded(self->exact, 1, 1));
	close(fd);
	EXPECT_EQ(MMCR0_FC, mfspr(936));
}

TEST_F(mmcr, sampling_counter_preloads_0x80000000_minus_its_period)
{
	struct perf_counter_hw_event hw = raw(1, 2);
	uint32_t mmcr0;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	hw.irq_period = 100000;
	hw.record_type = PERF_RECORD_IRQ;
	hw.exclude_user = 1;
	fd = open_self(hw);
	ASSERT_LE(0, fd) TH_LOG("errno %d", errno);
	mmcr0 = mfspr(936);
	TH_LOG("UMMCR0 %08x UPMC2 %08x", mmcr0, upmc(2));
	EXPECT_EQ(1, sel_of(2));
	EXPECT_EQ(0, sel_of(1));
	EXPECT_EQ(MMCR0_FCP, mmcr0 & (MMCR0_FC | MMCR0_FCS | MMCR0_FCP));
	EXPECT_EQ(MMCR0_PMCJCE, mmcr0 & (MMCR0_PMC1CE | MMCR0_PMCJCE));
	EXPECT_TRUE(preloaded(self->exact, 2, 0x80000000u - 100000));
	close(fd);
}

TEST_F(mmcr, mmcr1_holds_the_selectors_of_pmc3_and_up)
{
	int fd[6], pmc, nr = self->pmu.counters;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	if (nr < 4)
		SKIP(return, "%d PMCs", nr);
	for (pmc = 3; pmc <= nr; pmc++) {
		/* selector 2, 3, 4 (the reference events), then 1 */
		fd[pmc - 1] = open_self(raw(pmc <= 4 ? pmc - 1 : 1, pmc));
		ASSERT_LE(0, fd[pmc - 1]) TH_LOG("PMC%d: errno %d", pmc, errno);
	}
	TH_LOG("UMMCR1 %08x", mfspr(940));
	for (pmc = 3; pmc <= nr; pmc++) {
		EXPECT_EQ(pmc <= 4 ? pmc - 1 : 1, sel_of(pmc));
		EXPECT_TRUE(preloaded(self->exact, pmc, 1));
	}
	EXPECT_EQ(0, mfspr(940) & (nr == 6 ? 0x7ffu : 0x3fffffu));
	EXPECT_EQ(MMCR0_PMCJCE, mfspr(936) & (MMCR0_PMC1CE | MMCR0_PMCJCE));
	for (pmc = 3; pmc <= nr; pmc++)
		close(fd[pmc - 1]);
	EXPECT_EQ(0, mfspr(940));
}

TEST_F(mmcr, branch_misses_program_each_models_pmc4_selector)
{
	struct perf_counter_hw_event hw;
	uint32_t want;
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					      PERF_COUNT_BRANCH_MISSES);
	if (strstr(self->pmu.name, "7450"))
		want = 0x1c;
	else if (strstr(self->pmu.name, "7400"))
		want = 5;
	else if (strstr(self->pmu.name, "750"))
		want = 8;
	else
		SKIP(return, "the 604's sit on PMC1");
	fd = open_self(hw);
	ASSERT_LE(0, fd) TH_LOG("errno %d", errno);
	EXPECT_EQ(want, sel_of(4));
	close(fd);
}

TEST_F(mmcr, disable_freezes_and_clears_enable_programs_again)
{
	int fd;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);
	fd = open_self(raw(2, 1));
	ASSERT_LE(0, fd);
	EXPECT_EQ(2, sel_of(1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	EXPECT_EQ(MMCR0_FC, mfspr(936));
	if (self->pmu.counters > 2)
		EXPECT_EQ(0, mfspr(940));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	EXPECT_EQ(2, sel_of(1));
	EXPECT_EQ(pmxe() | MMCR0_PMC1CE,
		  mfspr(936) & (MMCR0_FC | MMCR0_PMXE | MMCR0_PMC1CE));
	close(fd);
}

static void report_mmcr0(int fd)
{
	uint32_t v = mfspr(936);

	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(1);
}

TEST_F(mmcr, another_task_runs_with_the_counters_frozen)
{
	int fd, p[2];
	cpu_set_t one;
	uint32_t theirs = 0;
	pid_t pid;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);
	fd = open_self(raw(1, 1));
	ASSERT_LE(0, fd);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		report_mmcr0(p[1]);
		_exit(0);
	}
	ASSERT_EQ(sizeof(theirs), read(p[0], &theirs, sizeof(theirs)));
	waitpid(pid, NULL, 0);
	/* The child inherited nothing: on its CPU time all is frozen. */
	EXPECT_EQ(MMCR0_FC, theirs);
	/* and ours is back */
	EXPECT_EQ(1, sel_of(1));
	EXPECT_EQ(0, mfspr(936) & MMCR0_FC);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/* Every UPMC the model has, as another task sees them, in @fd. */
static void report_upmcs(int fd, int nr)
{
	uint32_t v[6] = { 0 };
	int pmc;

	if (pc_become_nobody(0))
		_exit(1);
	for (pmc = 1; pmc <= nr && pmc <= 6; pmc++)
		v[pmc - 1] = upmc(pmc);
	if (write(fd, v, sizeof(v)) != sizeof(v))
		_exit(1);
}

/*
 * A sampling counter of root's on every PMC, preloaded 0x80000000 minus
 * its period, root's task switched out: another user's task on the CPU
 * reads zero in every UPMC, neither the preloads nor counts.
 */
TEST_F(mmcr, another_users_task_reads_no_count_in_the_upmcs)
{
	uint32_t theirs[6];
	int fd[6], p[2], i, nr;
	cpu_set_t one;
	pid_t pid;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);
	nr = self->pmu.counters;
	ASSERT_LE(nr, 6);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	for (i = 0; i < nr; i++) {
		struct perf_counter_hw_event hw = raw(1, i + 1);

		hw.irq_period = 1000 + i;
		hw.record_type = PERF_RECORD_IRQ;
		fd[i] = open_self(hw);
		ASSERT_LE(0, fd[i]) TH_LOG("PMC%d: errno %d", i + 1, errno);
	}
	for (i = 0; i < nr; i++)
		EXPECT_TRUE(preloaded(self->exact, i + 1, 0x80000000u - 1000 - i))
			TH_LOG("UPMC%d %08x", i + 1, upmc(i + 1));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		report_upmcs(p[1], nr);
		_exit(0);
	}
	ASSERT_EQ(sizeof(theirs), read(p[0], theirs, sizeof(theirs)));
	waitpid(pid, NULL, 0);
	for (i = 0; i < nr; i++)
		EXPECT_EQ(0, theirs[i]) TH_LOG("UPMC%d", i + 1);
	for (i = 0; i < nr; i++)
		close(fd[i]);
	/* and none is left behind by a close either */
	for (i = 0; i < nr; i++)
		EXPECT_EQ(0, upmc(i + 1)) TH_LOG("UPMC%d after close", i + 1);
	close(p[0]);
	close(p[1]);
}

TEST_F(mmcr, exclusive_threshold_lands_in_mmcr0_and_mmcr2)
{
	struct {
		struct perf_counter_hw_event	hw;
		uint64_t			word[2];
	} ev;
	int fd, words = strstr(self->pmu.name, "7450") ? 2 : 1;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	ev.hw = raw(2, 1);
	ev.hw.exclusive = 1;
	ev.hw.extra_config_len = words * sizeof(uint64_t);
	ev.word[0] = 0x00250000;		/* THRESHOLD 37 */
	ev.word[1] = MMCR2_THRESHMULT;
	/* the words follow the struct: pass it in place */
	fd = sys_perf_counter_open(&ev.hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("errno %d", errno);
	EXPECT_EQ(0x00250000, mfspr(936) & MMCR0_THRESHOLD);
	if (words == 2)				/* UMMCR2: 745x only */
		EXPECT_EQ(MMCR2_THRESHMULT, mfspr(928));
	close(fd);
	EXPECT_EQ(MMCR0_FC, mfspr(936));

	/* not exclusive, or a bit beyond THRESHOLD: refused */
	ev.hw.exclusive = 0;
	EXPECT_EQ(-1, sys_perf_counter_open(&ev.hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	ev.hw.exclusive = 1;
	ev.word[0] |= MMCR0_PMXE;
	EXPECT_EQ(-1, sys_perf_counter_open(&ev.hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(mmcr, counters_that_freeze_differently_take_turns)
{
	struct perf_counter_hw_event hw = raw(1, 0);
	struct { uint64_t value, enabled, running; } v[2];
	int fd[2], i, leader, member;

	if (!self->usable)
		SKIP(return, "no usable PowerPC PMU (%s)", self->pmu.state);

	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	hw.exclude_kernel = 1;
	fd[0] = open_self(hw);
	hw.exclude_kernel = 0;
	hw.exclude_user = 1;
	fd[1] = open_self(hw);
	ASSERT_LE(0, fd[0]);
	ASSERT_LE(0, fd[1]);
	pc_spin_ns(300000000);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(sizeof(v[i]), read(fd[i], &v[i], sizeof(v[i])));
		TH_LOG("counter %d: on %.2f of the time", i,
		       (double)v[i].running / v[i].enabled);
		/* one pair of freeze bits: never on together */
		EXPECT_LT(v[i].running, v[i].enabled);
		EXPECT_LT(0, v[i].running);
	}
	close(fd[0]);
	close(fd[1]);

	/* in one group they could never be on: refused */
	leader = open_self(hw);
	ASSERT_LE(0, leader);
	hw.exclude_user = 0;
	hw.exclude_kernel = 1;
	member = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	EXPECT_EQ(-1, member);
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

TEST_HARNESS_MAIN
