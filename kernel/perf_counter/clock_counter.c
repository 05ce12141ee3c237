// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: cpu-clock and task-clock, in nanoseconds.
 *
 * Both count the time the counter spends on a CPU, read with
 * local_clock() on that CPU: in a task context that is the time the task
 * runs, in a CPU context the wall time of the CPU.
 */
#include <linux/sched/clock.h>

#include "internal.h"

static int pc_clock_start(struct perf_counter *counter)
{
	counter->clock_start = local_clock();
	return 0;
}

static void pc_clock_read(struct perf_counter *counter)
{
	u64 now = local_clock();

	atomic64_add(now - counter->clock_start, &counter->count);
	counter->clock_start = now;
}

const struct pc_ops pc_clock_ops = {
	.start	= pc_clock_start,
	.stop	= pc_clock_read,
	.read	= pc_clock_read,
};
