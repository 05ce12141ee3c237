// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: cpu-clock and task-clock, in nanoseconds.
 *
 * Both count context time while the counter is on a CPU: in a task
 * context that is the time the task runs, in a CPU context the wall time
 * of the CPU. Every caller of start, stop and read has just brought the
 * context's time up to date, so a clock counter's value is exactly its
 * time running, and counting costs no clock reads of its own.
 *
 * A sampling clock counter samples from a hrtimer pinned to its CPU,
 * every irq_period ns of its running time: the part of a period left at
 * a context switch is kept for the next time the counter goes on.
 */
#include <asm/irq_regs.h>
#include <linux/hrtimer.h>

#include "internal.h"

static void pc_clock_read(struct perf_counter *counter)
{
	u64 now = counter->ctx->time;

	atomic64_add(now - counter->clock.start, &counter->count);
	counter->clock.start = now;
}

static enum hrtimer_restart pc_clock_tick(struct hrtimer *timer)
{
	struct perf_counter *counter =
		container_of(timer, struct perf_counter, clock.timer);
	struct perf_counter_context *ctx = counter->ctx;
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	raw_spin_lock(&ctx->lock);
	if (counter->state == PC_STATE_ACTIVE) {
		pc_ctx_update_time(ctx);
		pc_clock_read(counter);
		pc_sample(counter, get_irq_regs());
		hrtimer_forward_now(timer,
				    ns_to_ktime(counter->hw_event.irq_period));
		ret = HRTIMER_RESTART;
	}
	raw_spin_unlock(&ctx->lock);
	return ret;
}

static int pc_clock_init(struct perf_counter *counter)
{
	if (pc_is_sampling(counter)) {
		hrtimer_init(&counter->clock.timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		counter->clock.timer.function = pc_clock_tick;
	}
	return 0;
}

static void pc_clock_destroy(struct perf_counter *counter)
{
	if (pc_is_sampling(counter))
		hrtimer_cancel(&counter->clock.timer);
}

static int pc_clock_start(struct perf_counter *counter)
{
	counter->clock.start = counter->ctx->time;
	if (pc_is_sampling(counter)) {
		s64 left = counter->period_left;

		if (left <= 0)
			left = counter->hw_event.irq_period;
		hrtimer_start(&counter->clock.timer, ns_to_ktime(left),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}

static void pc_clock_stop(struct perf_counter *counter)
{
	pc_clock_read(counter);
	if (pc_is_sampling(counter)) {
		/* On this CPU with irqs off: the tick cannot be running. */
		counter->period_left =
			ktime_to_ns(hrtimer_get_remaining(&counter->clock.timer));
		hrtimer_try_to_cancel(&counter->clock.timer);
	}
}

const struct pc_ops pc_clock_ops = {
	.init		= pc_clock_init,
	.destroy	= pc_clock_destroy,
	.start		= pc_clock_start,
	.stop		= pc_clock_stop,
	.read		= pc_clock_read,
};
