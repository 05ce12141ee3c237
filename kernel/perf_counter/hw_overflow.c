// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the hardware counters' overflow interrupt, late
 * interrupts and throttling.
 *
 * A register loaded to interrupt (hw_counter.c) wraps: the driver's
 * interrupt handler calls pc_hw_handle_overflow(), which folds every
 * counter that wrapped, writes a sample where a period ran out and loads
 * the register again. On x86 it may run in NMI: nothing here sleeps,
 * waits for a lock or allocates (see the NMI rules in internal.h).
 *
 * A counter stopped after it wrapped leaves its interrupt to come, to
 * find nothing: pc_hw_note_late_irq() marks the CPU so that the first
 * such interrupt within PC_HW_LATE_IRQ_NS is claimed, not reported as
 * unknown.
 *
 * Every interrupt that finds a period run out spends its CPU's sample
 * budget (throttle.c); past it the counter is throttled, loaded as late
 * as its register allows, until the tick gives the budget back and
 * pc_hw_unthrottle() loads it for what is left of its period.
 */
#include <linux/hardirq.h>
#include <linux/sched/clock.h>

#include "hw_counter.h"

/* Has the counter at @idx, its raw value @raw, wrapped since loaded? */
static bool pc_hw_wrapped(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw)
{
	const struct pc_pmu *pmu = cpuc->pmu;

	if (pmu->overflowed)
		return pmu->overflowed(cpuc, idx, raw);
	return !(raw & (1ULL << (pmu->width - 1)));
}

/*
 * @counter just stopped and folded, still on its register: if it had
 * wrapped and no interrupt folded it since (which loads it again), that
 * interrupt is still to come. From the folded value alone: the driver's
 * overflowed() may clear a flag, and a stopped register may have lost
 * it (P4's disable clears the CCCR).
 */
void pc_hw_note_late_irq(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	const struct pc_pmu *pmu = cpuc->pmu;
	u64 raw = local64_read(&counter->hw.prev) & PC_HW_RAW_MASK;

	if (((raw - pmu->irq_at) & pc_hw_mask(pmu)) >= 1ULL << (pmu->width - 1))
		return;			/* short of its interrupt */
	/*
	 * A 32-bit kernel writes the window's end in two stores: the mark
	 * is cleared first, so that an NMI between them finds none. A
	 * 64-bit one writes it in one, and leaves a mark already set (by
	 * another counter stopped in the same pass) for its NMI to find.
	 */
	if (!IS_ENABLED(CONFIG_64BIT)) {
		WRITE_ONCE(cpuc->late_irq, false);
		barrier();
	}
	WRITE_ONCE(cpuc->late_irq_until, local_clock() + PC_HW_LATE_IRQ_NS);
	barrier();
	WRITE_ONCE(cpuc->late_irq, true);
}

/**
 * pc_hw_late_irq() - is this interrupt a late one?
 * @cpuc:	this CPU's registers, in its overflow interrupt
 *
 * A counter stopped after it wrapped leaves its interrupt to come: the
 * first interrupt after that, within 10 ms, is taken to be it. Clears
 * the mark, whatever the interrupt finds: the interrupt controller
 * holds one at most, so a later one is not that counter's.
 *
 * Return: true if an interrupt that finds nothing is to be claimed.
 */
bool pc_hw_late_irq(struct pc_hw_cpu *cpuc)
{
	/* one exchange: an NMI inside the vector's handler cannot claim it too */
	if (!xchg(&cpuc->late_irq, false))
		return false;
	return local_clock() < READ_ONCE(cpuc->late_irq_until);
}

/*
 * Start the next period after the ones that ran out (left <= 0), and
 * say how many ran out.
 */
static u64 pc_hw_next_period(struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	u64 period = counter->period;
	s64 left = local64_read(&hwc->left);
	u64 due = pc_periods_due(left, period);

	if (due)
		local64_set(&hwc->left, left + due * period);
	return due;
}

/*
 * A sampling counter wrapped: a record if its period ran out (it may
 * have been loaded for a part of a long period only). Every such
 * interrupt spends the CPU's sample budget, whatever it records, so no
 * storm escapes it; past the budget the counter is throttled. One
 * record an interrupt: further periods the register ran past are
 * counted lost, and so is a sample whose skid landed in a mode the
 * counter excludes (the events were counted in the other).
 */
static void pc_hw_sample_due(struct pc_hw_cpu *cpuc,
			     struct perf_counter *counter,
			     struct pt_regs *regs, u64 due)
{
	struct perf_counter_context *ctx = counter->ctx;

	if (!pc_sample_budget_take()) {
		pc_sample_lost(counter, due);
		counter->hw.throttled = true;
		WRITE_ONCE(cpuc->throttled, true);
		return;
	}
	/* A new budget without a tick between (the tick may be off). */
	counter->hw.throttled = false;
	if (pc_sample_excluded(counter, regs)) {
		pc_sample_lost(counter, due);
		return;
	}
	if (due > 1) {
		/* the first periods lost, the record the last, whole one's */
		pc_sample_lost(counter, due - 1);
		counter->period_len = counter->period;
	}

	/*
	 * In NMI, a group's member list may be half changed under the
	 * context lock on this very CPU: walk it only if the lock is free.
	 */
	if (!(counter->hw_event.record_type & PERF_RECORD_GROUP) || !in_nmi()) {
		pc_sample_write(counter, regs);
	} else if (raw_spin_trylock(&ctx->lock)) {
		pc_sample_write(counter, regs);
		raw_spin_unlock(&ctx->lock);
	} else {
		pc_sample_lost(counter, 1);
	}
}

static void pc_hw_sample(struct pc_hw_cpu *cpuc, struct perf_counter *counter,
			 struct pt_regs *regs)
{
	u64 due = pc_hw_next_period(counter);

	if (!due)
		return;
	pc_hw_sample_due(cpuc, counter, regs, due);
	/* the next period, retuned for a frequency counter */
	pc_period_ended(counter, due);
}

/**
 * pc_hw_reload_change() - reload a counter on its register, changing it
 * @cpuc:	this CPU's registers, irqs off
 * @counter:	a counter on one of them, not paused for idle
 * @fn:		what to change while the overflow interrupt cannot see it
 *		(pc_ops.change), or NULL
 * @arg:	for @fn
 *
 * Fold @counter, load it for what is left of its period and let it
 * count, on the register it holds; a throttled counter's periods that
 * ran out meanwhile are counted lost. The overflow interrupt sees it
 * until it is folded (an overflow then is handled, or marked late), and
 * not again until it is loaded.
 */
void pc_hw_reload_change(struct pc_hw_cpu *cpuc, struct perf_counter *counter,
			 void (*fn)(struct perf_counter *counter, u64 arg),
			 u64 arg)
{
	struct pc_hw_counter *hwc = &counter->hw;
	unsigned int idx = hwc->place.idx;
	u64 due;

	cpuc->pmu->disable(cpuc, hwc);
	pc_hw_fold(cpuc, counter);
	pc_hw_note_late_irq(cpuc, counter);
	barrier();
	/* Unseen by the handler from here until it is loaded again. */
	WRITE_ONCE(cpuc->on[idx], NULL);
	barrier();
	if (hwc->throttled) {
		hwc->throttled = false;
		due = pc_hw_next_period(counter);
		if (due) {
			pc_sample_lost(counter, due);
			pc_period_ended(counter, due);
		}
	}
	if (fn)
		fn(counter, arg);
	pc_hw_load(cpuc, counter);
	WRITE_ONCE(cpuc->on[idx], counter);
	barrier();
	cpuc->pmu->enable(cpuc, hwc);
}

/* The same, changing nothing. */
void pc_hw_reload(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	pc_hw_reload_change(cpuc, counter, NULL, 0);
}

/**
 * pc_hw_unthrottle() - let @cpuc's throttled counters interrupt again
 * @cpuc:	this CPU's registers, irqs off (the tick)
 *
 * Each is loaded for what is left of its period; the periods that ran
 * out while it was throttled are counted lost. The overflow interrupt
 * does not see a counter while it is reloaded.
 */
void pc_hw_unthrottle(struct pc_hw_cpu *cpuc)
{
	unsigned int idx;

	if (!READ_ONCE(cpuc->throttled))
		return;
	/*
	 * Cleared first: a counter the interrupt throttles during the walk
	 * sets it again, and, if the walk has passed it, waits a tick.
	 */
	WRITE_ONCE(cpuc->throttled, false);
	barrier();
	for (idx = 0; idx < cpuc->pmu->nr_counters; idx++) {
		struct perf_counter *counter = READ_ONCE(cpuc->on[idx]);

		if (!counter || !READ_ONCE(counter->hw.throttled) ||
		    READ_ONCE(counter->idle_paused))
			continue;	/* a paused one is loaded on resume */
		pc_hw_reload(cpuc, counter);
	}
}

/**
 * pc_hw_handle_overflow() - the overflow interrupt's work on one CPU
 * @cpuc:	the CPU's registers
 * @regs:	the interrupted state
 *
 * For every counter that wrapped: fold its count, write a sample if its
 * period ran out (spending the CPU's sample budget, throttling the
 * counter past it, counting lost the periods it cannot report), load it
 * again, never within two events. May run in NMI context (x86, for
 * counters that asked for it): nothing here sleeps or waits for a lock;
 * queue wakeups go through irq_work.
 *
 * Return: how many counters had wrapped.
 */
int pc_hw_handle_overflow(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	const struct pc_pmu *pmu = cpuc->pmu;
	unsigned int idx;
	int handled = 0;

	pc_assert_irqs_off();
	if (!pmu || !READ_ONCE(cpuc->nr_on))
		return 0;
	for (idx = 0; idx < pmu->nr_counters; idx++) {
		struct perf_counter *counter = READ_ONCE(cpuc->on[idx]);
		u64 raw;

		if (!counter)
			continue;
		raw = pmu->read(cpuc, idx);
		if (!pc_hw_wrapped(cpuc, idx, raw))
			continue;
		handled++;
		/*
		 * What the register counts from this read to the load's
		 * write (a counter of kernel events counts the handler's
		 * own) is lost to the load: a few events an overflow.
		 */
		pc_hw_fold(cpuc, counter);
		if (pc_is_sampling(counter))
			pc_hw_sample(cpuc, counter, regs);
		pc_hw_load(cpuc, counter);
		/* Its page's register base moved; never from NMI: page.c. */
		if (!in_nmi())
			pc_page_reg(counter);
	}
	return handled;
}
