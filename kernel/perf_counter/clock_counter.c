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
 * A sampling clock counter writes one sample for every irq_period ns of
 * its running time, as a count-based counter does per irq_period
 * events: the time folded in counts the period down, and a hrtimer
 * pinned to the counter's CPU writes the samples due when the period
 * should run out. A late timer makes up the samples it missed; periods
 * that run out just before a context switch are written at the switch.
 * A timer whose sample the CPU's budget refused waits a tick.
 *
 * perf_events' task-clock counts its context time too, but its
 * cpu-clock reads local_clock() in its event's add and del, a little
 * after and before its context time starts and stops at a switch: on
 * a task, theirs differ from each other by a few us a switch under TCG,
 * and ours from theirs by as much (Documentation/perf_counter/core.rst,
 * "Agreeing with perf_events").
 */
#include <asm/irq_regs.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/sched/clock.h>

#include "internal.h"

static void pc_clock_read(struct perf_counter *counter)
{
	u64 now = counter->ctx->time;
	u64 delta = now - counter->clock.start;

	counter->clock.start = now;
	if (counter->idle_paused)
		return;			/* exclude_idle: idle time is not its */
	atomic64_add(delta, &counter->count);
	if (pc_is_sampling(counter))
		counter->period_left -= delta;
}

/*
 * A group record's member: the time counted until now, with the
 * context's time read as it stands, not moved. The caller is on the
 * context's CPU with irqs off, where only that CPU moves it, and not
 * inside the move (the NMI path holds the context's lock). The value
 * may run a little ahead of what the next fold counts: the time from
 * here to the next stop or pause is not the counter's if it ends in
 * one.
 */
static u64 pc_clock_peek(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;
	u64 count = atomic64_read(&counter->count);
	u64 now;

	if (counter->idle_paused || !ctx->is_active)
		return count;
	now = ctx->time + (local_clock() - ctx->timestamp);
	return count + (now - counter->clock.start);
}

static enum hrtimer_restart pc_clock_tick(struct hrtimer *timer)
{
	struct perf_counter *counter =
		container_of(timer, struct perf_counter, clock.timer);
	struct perf_counter_context *ctx = counter->ctx;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	u64 next;

	raw_spin_lock(&ctx->lock);
	if (counter->state == PC_STATE_ACTIVE && !counter->idle_paused) {
		pc_ctx_update_time(ctx);
		pc_clock_read(counter);
		pc_sample_periods(counter, get_irq_regs());
		/* A late tick is made up by the count, not by the timer. */
		next = counter->period_left;
		if (pc_sample_budget_spent())
			next = max_t(u64, next, TICK_NSEC);
		hrtimer_set_expires(timer,
				    ktime_add_safe(hrtimer_cb_get_time(timer),
						   ns_to_ktime(next)));
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
	pc_assert_irqs_off();
	counter->clock.start = counter->ctx->time;
	if (pc_is_sampling(counter))
		hrtimer_start(&counter->clock.timer,
			      ns_to_ktime(counter->period_left),
			      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static void pc_clock_stop(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	pc_clock_read(counter);
	if (pc_is_sampling(counter)) {
		/* On this CPU with irqs off: the tick cannot be running. */
		hrtimer_try_to_cancel(&counter->clock.timer);
		/*
		 * Periods that ran out since the last tick: what was being
		 * counted is still current, so the samples are its own.
		 */
		pc_sample_periods(counter, NULL);
	}
}

/*
 * A switch record is next: the samples of the periods that have run out
 * go first, so that the records stay in the order things happened.
 */
static void pc_clock_flush(struct perf_counter *counter)
{
	if (!pc_is_sampling(counter) || counter->idle_paused)
		return;
	pc_clock_read(counter);
	pc_sample_periods(counter, NULL);
}

/* exclude_idle: off the clock while the CPU idles, on it again after. */
static void pc_clock_resume(struct perf_counter *counter)
{
	pc_clock_start(counter);
}

/*
 * A period or value changed in flight (period.c): folded, the timer off
 * meanwhile (pinned here, and its handler takes the lock the caller
 * holds), then set for what is left of the period.
 */
static void pc_clock_change(struct perf_counter *counter,
			    void (*fn)(struct perf_counter *counter, u64 arg),
			    u64 arg)
{
	bool timer = pc_is_sampling(counter) && !counter->idle_paused;

	pc_assert_irqs_off();
	if (timer)
		hrtimer_try_to_cancel(&counter->clock.timer);
	pc_clock_read(counter);
	fn(counter, arg);
	if (timer)
		hrtimer_start(&counter->clock.timer,
			      ns_to_ktime(max_t(s64, counter->period_left, 1)),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

const struct pc_ops pc_clock_ops = {
	.caps		= PC_CAP_CLOCK | PC_CAP_SWITCH_QUIET,
	.init		= pc_clock_init,
	.destroy	= pc_clock_destroy,
	.start		= pc_clock_start,
	.stop		= pc_clock_stop,
	.read		= pc_clock_read,
	.pause		= pc_clock_stop,
	.resume		= pc_clock_resume,
	.flush		= pc_clock_flush,
	.peek		= pc_clock_peek,
	.change		= pc_clock_change,
};
