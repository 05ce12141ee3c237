// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: cpu-clock and task-clock, in nanoseconds.
 *
 * Both count context time while the counter is on a CPU: in a task
 * context that is the time the task runs, in a CPU context the wall time
 * of the CPU. Every caller of start, stop and read has just brought the
 * context's time up to date, so a clock counter's value is exactly its
 * time running, and counting costs no clock reads of its own.
 */
#include "internal.h"

static int pc_clock_start(struct perf_counter *counter)
{
	counter->clock_start = counter->ctx->time;
	return 0;
}

static void pc_clock_read(struct perf_counter *counter)
{
	u64 now = counter->ctx->time;

	atomic64_add(now - counter->clock_start, &counter->count);
	counter->clock_start = now;
}

const struct pc_ops pc_clock_ops = {
	.start	= pc_clock_start,
	.stop	= pc_clock_read,
	.read	= pc_clock_read,
};
