// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the sample budget, how many samples a CPU may take per
 * jiffy.
 *
 * Any user may open a counter that overflows at every event, or a few
 * thousand of them. So each CPU may take at most max_sample_rate / HZ
 * samples a jiffy, where max_sample_rate is the base kernel's
 * kernel.perf_event_max_sample_rate (perf_events lowers it when its own
 * interrupts take too long; without perf_events it is
 * PC_SAMPLE_RATE_DEFAULT). Every hardware sampling interrupt spends it,
 * whatever it records; a software counter's sample spends it when it is
 * written. A sample past the budget is not written but counted lost, so
 * the reader's LOST records account for every period of a counted mode
 * that ran out.
 *
 * What raised a refused sample is quietened: a hardware counter is
 * loaded to interrupt only after its PMU's longest period until the
 * tick lets it go (pc_hw_unthrottle()), or, where the tick is off, until
 * that longest period has passed; a clock counter's timer waits a tick.
 * Both go on counting, so their values stay exact; only samples are
 * lost.
 *
 * The budget is per CPU and touched only on its CPU, from the overflow
 * paths (irqs off, or NMI) and the tick (irqs off). It is renewed when
 * jiffies moves on, so a CPU whose tick is stopped still gets one. An
 * NMI between another path's read and write of the count can make it
 * miss one sample: the bound is approximate by that much.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include "internal.h"

#define PC_SAMPLE_RATE_DEFAULT	100000

struct pc_budget {
	unsigned long	taken;		/* samples asked for in @jiffy */
	unsigned long	jiffy;		/* the jiffy they were asked in */
};

static DEFINE_PER_CPU(struct pc_budget, pc_budget);

/**
 * pc_sample_rate_max() - the samples a CPU may take a second
 *
 * Return: kernel.perf_event_max_sample_rate, at least 1, or
 * PC_SAMPLE_RATE_DEFAULT without perf_events.
 */
unsigned long pc_sample_rate_max(void)
{
	unsigned long rate = PC_SAMPLE_RATE_DEFAULT;

#ifdef CONFIG_PERF_EVENTS
	rate = max(READ_ONCE(sysctl_perf_event_sample_rate), 1);
#endif
	return rate;
}

/**
 * pc_samples_per_tick() - a CPU's sample budget for one jiffy
 *
 * Return: pc_sample_rate_max() / HZ, rounded up, at least 1.
 */
unsigned long pc_samples_per_tick(void)
{
	return DIV_ROUND_UP(pc_sample_rate_max(), HZ);
}

#ifdef CONFIG_PERF_COUNTER_KUNIT_TEST
static DEFINE_PER_CPU(bool, pc_budget_held);

/**
 * pc_sample_budget_hold() - keep this CPU's budget in its jiffy (KUnit)
 * @hold:	true: only pc_sample_budget_tick() renews it; false: jiffies do
 *
 * For the register models' interrupt storms, irqs off: on a slow
 * machine (a sanitizer kernel under TCG) another CPU's tick moves
 * jiffies on faster than a storm spends a jiffy's budget.
 */
void pc_sample_budget_hold(bool hold)
{
	this_cpu_write(pc_budget_held, hold);
}

static bool pc_budget_is_held(void)
{
	return this_cpu_read(pc_budget_held);
}
#else
static inline bool pc_budget_is_held(void)
{
	return false;
}
#endif

/* This CPU's budget, renewed if jiffies has moved on since. */
static struct pc_budget *pc_budget_now(void)
{
	struct pc_budget *b = this_cpu_ptr(&pc_budget);
	unsigned long now = READ_ONCE(jiffies);

	if (b->jiffy != now && !pc_budget_is_held()) {
		b->jiffy = now;
		b->taken = 0;
	}
	return b;
}

/**
 * pc_sample_budget_take() - spend one sample of this CPU's budget
 *
 * Irqs off or NMI.
 *
 * Return: true if the sample may be taken.
 */
bool pc_sample_budget_take(void)
{
	return ++pc_budget_now()->taken <= pc_samples_per_tick();
}

/**
 * pc_sample_budget_spent() - is this CPU's budget spent for this jiffy?
 *
 * Return: true if the next sample would be refused.
 */
bool pc_sample_budget_spent(void)
{
	return pc_budget_now()->taken >= pc_samples_per_tick();
}

/**
 * pc_sample_budget_tick() - a new tick: a new budget
 *
 * Called from the scheduler tick with irqs off; lets this CPU's
 * throttled hardware counters interrupt again.
 */
void pc_sample_budget_tick(void)
{
	struct pc_budget *b = this_cpu_ptr(&pc_budget);

	lockdep_assert_irqs_disabled();
	b->jiffy = READ_ONCE(jiffies);
	b->taken = 0;
	pc_hw_unthrottle(pc_hw_this_cpu());
}
