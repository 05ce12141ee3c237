// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-wide counters while their CPU goes offline and comes back: they
 * stop (their times stand still), can still be read, opened beside and
 * closed, and count again once the CPU is online. What a wrong CPU's
 * registers or a freed counter left behind would do, the kernel's
 * checkers report in the log the harness reads.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define ROUNDS		20

static int cpu1_set_online(int on)
{
	int fd = open(CPU1_ONLINE, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* A CPU-wide counter on CPU 1 with both times; -1 if refused. */
static int open_on_cpu1(uint64_t config)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = config;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_counter_open(&hw, -1, 1, -1, 0);
}

struct reading {
	uint64_t value, enabled, running;
};

static int read3(int fd, struct reading *r)
{
	return read(fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
}

FIXTURE(cpu1) {
	int fd[3];
	int nr;
};

FIXTURE_SETUP(cpu1)
{
	struct pc_pmu_info pmu;

	self->nr = 0;
	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access(CPU1_ONLINE, W_OK))
		SKIP(return, "no second CPU that can go offline");
	ASSERT_EQ(0, cpu1_set_online(1));
	self->fd[self->nr++] = open_on_cpu1(PERF_COUNTER_CONFIG(
				PERF_TYPE_SOFTWARE, PERF_COUNT_CPU_CLOCK));
	self->fd[self->nr++] = open_on_cpu1(PERF_COUNTER_CONFIG(
				PERF_TYPE_SOFTWARE, PERF_COUNT_CONTEXT_SWITCHES));
	pc_read_pmu(&pmu);
	if (pc_pmu_usable(&pmu))
		self->fd[self->nr++] = open_on_cpu1(PERF_COUNTER_CONFIG(
				PERF_TYPE_HARDWARE, PERF_COUNT_CPU_CYCLES));
	ASSERT_GE(self->fd[0], 0);
	ASSERT_GE(self->fd[1], 0);
	if (self->nr == 3)
		ASSERT_GE(self->fd[2], 0);
}

FIXTURE_TEARDOWN(cpu1)
{
	int i;

	cpu1_set_online(1);
	for (i = 0; i < self->nr; i++)
		close(self->fd[i]);
}

TEST_F_TIMEOUT(cpu1, counters_stand_still_while_their_cpu_is_offline, 600)
{
	struct reading before, during, after, clock = { 0 };
	int round, i, extra, other;

	/* 6.1's harness runs the body even after a SKIP in the setup. */
	if (!self->nr)
		SKIP(return, "no second CPU that can go offline");
	TH_LOG("%d counters on CPU 1", self->nr);
	for (round = 0; round < ROUNDS; round++) {
		/* Opened before, closed while the CPU is away. */
		extra = open_on_cpu1(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							 PERF_COUNT_CPU_CLOCK));
		ASSERT_GE(extra, 0);
		ASSERT_EQ(0, cpu1_set_online(0));

		for (i = 0; i < self->nr; i++) {
			ASSERT_EQ(0, read3(self->fd[i], &before));
			usleep(20000);
			ASSERT_EQ(0, read3(self->fd[i], &during));
			EXPECT_EQ(before.value, during.value);
			EXPECT_EQ(before.enabled, during.enabled);
			EXPECT_EQ(before.running, during.running);
			if (i == 0)
				clock = during;
		}
		/* No counter goes onto a CPU that is not there. */
		other = open_on_cpu1(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							 PERF_COUNT_CPU_CLOCK));
		EXPECT_EQ(-1, other);
		EXPECT_EQ(EINVAL, errno);
		if (other >= 0)
			close(other);
		close(extra);

		ASSERT_EQ(0, cpu1_set_online(1));
		usleep(20000);
		/* The clock counts CPU 1's time again. */
		ASSERT_EQ(0, read3(self->fd[0], &after));
		EXPECT_GT(after.running, clock.running);
		EXPECT_GT(after.value, clock.value);
	}
}

TEST_HARNESS_MAIN
