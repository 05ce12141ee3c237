// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the poll timer, for PMUs whose overflow interrupt may be
 * late or missing (pc_pmu.poll_ns).
 *
 * Each CPU's timer is pinned to it, runs in hard interrupt context and
 * is started by the first counter put on the CPU's registers. Every
 * poll_ns it calls the driver's poll, which folds every counter on
 * (pc_hw_poll_fold()); it stops itself when it finds no counter on. So
 * a CPU without counters has no timer, and no counter ever runs longer
 * than poll_ns between two folds.
 *
 * Rules for @polling (struct pc_hw_cpu): it is true while the timer is
 * queued or running. pc_hw_on() and the timer set and clear it with
 * irqs off on the CPU itself, so they never race. A CPU that goes down
 * leaves its timer to be moved to another CPU, where it finds a CPU not
 * its own, clears @polling from there and stops. When the CPU comes
 * back, its online callback waits for that timer (pc_hw_poll_reset()),
 * then sets @polling afresh and starts the poll if a counter went on
 * there in between (a per-CPU thread's, the only tasks that run on a
 * CPU before its online callbacks): such a counter may go unpolled from
 * its start to that callback, a few milliseconds.
 *
 * The poll costs an interrupt every poll_ns on each CPU with a counter
 * on, idle or not (a CPU-wide counter keeps an idle CPU waking): the
 * price of counts that do not depend on the overflow interrupt.
 */
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/lockdep.h>
#include <linux/perf_counter_hw.h>
#include <linux/sched/task_stack.h>
#include <asm/irq_regs.h>

#include "hw_counter.h"

static enum hrtimer_restart pc_hw_poll_tick(struct hrtimer *timer)
{
	struct pc_hw_cpu *cpuc = container_of(timer, struct pc_hw_cpu,
					      poll_timer);
	struct pt_regs *regs = get_irq_regs();

	if (cpuc != pc_hw_this_cpu() || !READ_ONCE(cpuc->nr_on)) {
		WRITE_ONCE(cpuc->polling, false);
		return HRTIMER_NORESTART;
	}
	/* what a sample taken here names: the interrupted state */
	if (!regs)
		regs = task_pt_regs(current);
	cpuc->pmu->poll(cpuc, regs);
	hrtimer_forward_now(timer, ns_to_ktime(cpuc->pmu->poll_ns));
	return HRTIMER_RESTART;
}

/**
 * pc_hw_poll_init() - set up a CPU's poll timer
 * @cpuc:	the CPU's registers, its driver one with poll_ns
 */
void pc_hw_poll_init(struct pc_hw_cpu *cpuc)
{
	hrtimer_init(&cpuc->poll_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	cpuc->poll_timer.function = pc_hw_poll_tick;
	cpuc->poll_ready = true;
}

/**
 * pc_hw_poll_start() - start this CPU's poll, if it is not running
 * @cpuc:	this CPU's registers, irqs off, a counter just put on
 */
void pc_hw_poll_start(struct pc_hw_cpu *cpuc)
{
	if (!cpuc->poll_ready || READ_ONCE(cpuc->polling))
		return;
	lockdep_assert_irqs_disabled();
	WRITE_ONCE(cpuc->polling, true);
	hrtimer_start(&cpuc->poll_timer, ns_to_ktime(cpuc->pmu->poll_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * pc_hw_poll_reset() - a CPU coming online: no poll left from before
 * @cpuc:	its registers, from the CPU itself, irqs on (its online
 *		callback)
 *
 * The timer a dead CPU left may be running elsewhere: it is waited for
 * (hrtimer_cancel() spins until it ends). A counter put on since the
 * CPU came up (a per-CPU thread's) gets its poll started again.
 */
void pc_hw_poll_reset(struct pc_hw_cpu *cpuc)
{
	if (!cpuc->poll_ready)
		return;
	hrtimer_cancel(&cpuc->poll_timer);
	local_irq_disable();
	WRITE_ONCE(cpuc->polling, false);
	if (cpuc->nr_on)
		pc_hw_poll_start(cpuc);
	local_irq_enable();
}

/**
 * pc_hw_poll_fold() - the poll timer's work on one CPU
 * @cpuc:	the CPU's registers, its counters stopped by the driver
 * @regs:	the interrupted state
 *
 * Does the overflow interrupt's work for every counter that wrapped
 * (pc_hw_handle_overflow()), then folds every counter on and loads the
 * counting ones again, for their longest period: between two polls a
 * counting register never comes near its interrupt. A sampling counter
 * keeps its register, to interrupt at its period; one paused for idle
 * is loaded when it resumes.
 *
 * Return: how many counters had wrapped.
 */
int pc_hw_poll_fold(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	int handled = pc_hw_handle_overflow(cpuc, regs);
	unsigned int idx;

	for (idx = 0; idx < cpuc->pmu->nr_counters; idx++) {
		struct perf_counter *counter = READ_ONCE(cpuc->on[idx]);

		if (!counter)
			continue;
		pc_hw_fold(cpuc, counter);
		if (pc_is_sampling(counter) || READ_ONCE(counter->idle_paused))
			continue;
		pc_hw_load(cpuc, counter);
		if (cpuc->pmu->user_read)
			pc_page_reg(counter);
	}
	return handled;
}
