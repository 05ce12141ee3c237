// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: a hardware counter on a register: on, off, fold, read.
 *
 * A hardware counter is a register narrower than 64 bits. Its 64-bit
 * value is kept by folding: each time the register is read, the events
 * since the last read, (now - prev) masked to the register's width, are
 * added to the count. The fold claims its interval with a cmpxchg on
 * prev, so a fold from the overflow interrupt (on x86, an NMI or not) that
 * arrives between another fold's read and its update takes the rest of
 * the interval and nothing is counted twice or lost.
 *
 * Every counter on a register is loaded to interrupt (on x86 as it
 * wraps, on PowerPC as bit 31 turns on, see pc_pmu.irq_at): a sampling
 * counter after the events left to its next sample (or the most the
 * register takes, if that is fewer), a counting one after
 * pmu->max_period events, so that no counter ever wraps twice between
 * two folds; never fewer than two events, and a counter throttled for
 * its CPU's sample budget (see throttle.c) max_period until the tick.
 *
 * Placement is all or nothing per counter: when a counter does not fit
 * beside the ones already on the CPU, the counters on the CPU and the
 * new one are placed again together (pc_hw_assign()), and those whose
 * register changes are moved. A group's members go on one by one; as
 * each step places the whole set again, a group goes on whenever its
 * counters, with the ones already on, have a placement at all.
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/preempt.h>

#include "hw_counter.h"

/**
 * pc_hw_fold() - add what the register counted since the last fold
 * @cpuc:	the CPU the counter is on
 * @counter:	a counter on one of @cpuc's registers
 *
 * Safe against the overflow interrupt folding the same counter. Only a
 * sampling counter has a period to take the events from: a counting
 * counter's left stays as it was (on 32-bit, one 64-bit atomic less).
 *
 * Return: the events added.
 */
u64 pc_hw_fold(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev);
		now = cpuc->pmu->read(cpuc, hwc->place.idx);
	} while (local64_cmpxchg(&hwc->prev, prev,
				 now | (prev & ~PC_HW_RAW_MASK)) != prev);

	delta = (now - prev) & pc_hw_mask(cpuc->pmu);
	atomic64_add(delta, &counter->count);
	if (pc_is_sampling(counter))
		local64_sub(delta, &hwc->left);
	return delta;
}

/*
 * Load the register to overflow at the next sample, or at most later;
 * a throttled counter as late as the register allows. Never within two
 * events: a register that overflowed again at once would interrupt
 * inside its own handler.
 */
void pc_hw_load(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	const struct pc_pmu *pmu = cpuc->pmu;
	struct pc_hw_counter *hwc = &counter->hw;
	u64 load = pmu->max_period;
	u64 raw, gen;

	if (pc_is_sampling(counter) && !hwc->throttled) {
		s64 left = local64_read(&hwc->left);

		if (left > 0 && left < load)
			load = left;
		else if (left <= 0)
			load = 1;	/* a sample is due: at the next event */
	}
	load = max_t(u64, load, PC_HW_MIN_LOAD);
	raw = (pmu->irq_at - load) & pc_hw_mask(pmu);
	gen = (local64_read(&hwc->prev) & ~PC_HW_RAW_MASK) +
	      (1ULL << PC_HW_RAW_BITS);
	local64_set(&hwc->prev, raw | gen);
	pmu->write(cpuc, hwc->place.idx, raw);
}

/**
 * pc_hw_irq_route() - point @cpuc's overflow interrupt where its counters want
 * @cpuc:	this CPU's registers (or a model's), irqs off or no counter on
 *
 * An NMI while a counter on asks for one (@cpuc->nr_nmi), else a
 * maskable interrupt, which finds the CPU's contexts and queues free of
 * anything it interrupted. Drivers whose interrupt has one kind have no
 * @irq_route. Also what an overflow handler unmasks with.
 */
void pc_hw_irq_route(struct pc_hw_cpu *cpuc)
{
	if (cpuc->regs->irq_route)
		cpuc->regs->irq_route(cpuc->regs->priv, cpuc->nr_nmi);
}

/* Put @counter on at @place; the place is free. */
static void pc_hw_on(struct pc_hw_cpu *cpuc, struct perf_counter *counter,
		     const struct pc_hw_place *place)
{
	struct pc_hw_counter *hwc = &counter->hw;

	hwc->place = *place;
	pc_hw_load(cpuc, counter);
	/* Throttled elsewhere: this CPU's tick lets it interrupt again. */
	if (hwc->throttled)
		WRITE_ONCE(cpuc->throttled, true);
	cpuc->used |= place->uses;
	cpuc->nr_on++;
	pc_hw_poll_start(cpuc);
	/* The first that asks for an NMI gets it before it can wrap. */
	/* hw_event.nmi: honoured for CAP_SYS_ADMIN, cleared at open else */
	if (counter->hw_event.nmi && !cpuc->nr_nmi++)
		pc_hw_irq_route(cpuc);
	hwc->on = true;
	/* Seen by the overflow handler before it can raise anything. */
	WRITE_ONCE(cpuc->on[place->idx], counter);
	barrier();
	/* Moved while paused for idle: started when its CPU stops idling. */
	if (!READ_ONCE(counter->idle_paused))
		cpuc->pmu->enable(cpuc, hwc);
	/* Moved to make room: its page names the new register. */
	if (counter->state == PC_STATE_ACTIVE)
		pc_page_reg(counter);
}

/* Take @counter off its register, its count brought up to date. */
static void pc_hw_off(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	unsigned int idx = hwc->place.idx;

	cpuc->pmu->disable(cpuc, hwc);
	pc_hw_fold(cpuc, counter);
	/* Marked before the handler stops seeing it: see pmi rules. */
	pc_hw_note_late_irq(cpuc, counter);
	barrier();
	WRITE_ONCE(cpuc->on[idx], NULL);
	barrier();
	/*
	 * Leave no count behind: the next task on this CPU may read the
	 * register (the 750's and 74xx's UPMCs, rdpmc where CR4.PCE is
	 * set for another user), and a count or a sampling preload tells
	 * it what this counter's task did. Only now, the register no
	 * longer the counter's, may an overflow handler not fold it.
	 */
	cpuc->pmu->write(cpuc, idx, 0);
	cpuc->used &= ~hwc->place.uses;
	cpuc->nr_on--;
	if (counter->hw_event.nmi && !--cpuc->nr_nmi)
		pc_hw_irq_route(cpuc);
	hwc->on = false;
}

/* @want gets @counter's places, the one it holds now first. */
static void pc_hw_want(const struct pc_pmu *pmu, struct perf_counter *counter,
		       struct pc_hw_want *want)
{
	struct pc_hw_counter *hwc = &counter->hw;
	unsigned int i;

	want->nr = pmu->places(pmu, hwc, want->place);
	if (!hwc->on)
		return;
	for (i = 1; i < want->nr; i++) {
		if (want->place[i].idx == hwc->place.idx &&
		    want->place[i].uses == hwc->place.uses) {
			swap(want->place[0], want->place[i]);
			break;
		}
	}
}

/**
 * pc_hw_cpu_add() - put a counter on a register of @cpuc
 * @cpuc:	this CPU's registers, irqs off
 * @counter:	a decoded hardware counter, not on
 *
 * Moves counters already on if that makes room.
 *
 * Return: 0, or -ENOSPC if no placement holds them all, the counter
 * cannot be on with one that is, or the CPU may not use its registers.
 */
int pc_hw_cpu_add(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	const struct pc_pmu *pmu = cpuc->pmu;
	struct perf_counter **who = cpuc->who;
	struct pc_hw_want *want = cpuc->want;
	unsigned int i, n = 0;

	if (cpuc->forbidden || cpuc->nr_on >= pmu->nr_counters)
		return -ENOSPC;
	for (i = 0; pmu->compatible && i < pmu->nr_counters; i++)
		if (cpuc->on[i] && !pmu->compatible(&cpuc->on[i]->hw, &counter->hw))
			return -ENOSPC;

	/* The easy case: a place of its own is free. */
	pc_hw_want(pmu, counter, &want[0]);
	for (i = 0; i < want[0].nr; i++) {
		if (!(want[0].place[i].uses & cpuc->used)) {
			pc_hw_on(cpuc, counter, &want[0].place[i]);
			return 0;
		}
	}

	for (i = 0; i < pmu->nr_counters; i++) {
		if (!cpuc->on[i])
			continue;
		who[n] = cpuc->on[i];
		pc_hw_want(pmu, who[n], &want[n]);
		n++;
	}
	who[n] = counter;
	pc_hw_want(pmu, counter, &want[n]);
	n++;
	if (!pc_hw_assign(want, n))
		return -ENOSPC;

	/* Off first, then on: a moved counter may take another's place. */
	for (i = 0; i + 1 < n; i++)
		if (want[i].chosen)
			pc_hw_off(cpuc, who[i]);
	for (i = 0; i + 1 < n; i++)
		if (want[i].chosen)
			pc_hw_on(cpuc, who[i], &want[i].place[want[i].chosen]);
	pc_hw_on(cpuc, counter, &want[n - 1].place[want[n - 1].chosen]);
	return 0;
}

/**
 * pc_hw_cpu_del() - take a counter off @cpuc, folding its count
 * @cpuc:	this CPU's registers, irqs off
 * @counter:	a counter on one of them
 */
void pc_hw_cpu_del(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	if (counter->hw.on)
		pc_hw_off(cpuc, counter);
}

/**
 * pc_hw_pause() - stop a counter's register, keeping it (exclude_idle)
 * @cpuc:	the CPU the counter is on, irqs off
 * @counter:	a counter on one of @cpuc's registers
 *
 * The register stops counting and its count is folded; the counter keeps
 * the register until pc_hw_resume() or its stop.
 */
void pc_hw_pause(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	if (!counter->hw.on)
		return;
	cpuc->pmu->disable(cpuc, &counter->hw);
	pc_hw_fold(cpuc, counter);
}

/**
 * pc_hw_resume() - count again on the register pc_hw_pause() kept
 * @cpuc:	the CPU the counter is on, irqs off
 * @counter:	the paused counter
 *
 * Loaded for what is left of its period, as it was when paused (a
 * period throttled away in between is lost, as at the tick).
 */
void pc_hw_resume(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	if (counter->hw.on)
		pc_hw_reload(cpuc, counter);
}

static int pc_hw_start(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	return pc_hw_cpu_add(pc_hw_this_cpu(), counter);
}

static void pc_hw_stop(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	pc_hw_cpu_del(pc_hw_this_cpu(), counter);
}

static void pc_hw_read(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	if (counter->hw.on)
		pc_hw_fold(pc_hw_this_cpu(), counter);
}

/**
 * pc_hw_peek() - a counter's value now, for a group record
 * @cpuc:	the CPU the counter is on (irqs off, or in its NMI)
 * @counter:	a member of the group being recorded
 *
 * Folds the register first, which is safe in NMI, but only while the
 * register is published as the counter's own (cpuc->on[]): a reload
 * clears that before it sets the raw value and the register apart, and
 * a fold between the two would take their difference for events.
 *
 * Return: the counter's value, up to the last event its register took.
 */
u64 pc_hw_peek(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;

	if (hwc->on && READ_ONCE(cpuc->on[hwc->place.idx]) == counter)
		pc_hw_fold(cpuc, counter);
	return atomic64_read(&counter->count);
}

/**
 * pc_hw_user_reg() - the register user mode may read a counter from
 * @counter:	a hardware counter that is on this CPU, irqs off
 * @reg:	set to its register + 1 for the counter page
 * @bits:	set to the register's width
 * @base:	set to the register's raw value at the last fold or load
 *
 * Only where the driver offers user reads, and not for a counter that
 * asked for an NMI: its overflow handler could not publish the new base
 * after a load (page.c).
 *
 * Return: true if the page may publish it.
 */
bool pc_hw_user_reg(struct perf_counter *counter, u16 *reg, u16 *bits,
		    u64 *base)
{
	const struct pc_pmu *pmu = pc_hw_pmu();

	if (!pmu || !pmu->user_read || !counter->hw.on ||
	    counter->hw_event.nmi)
		return false;
	*reg = counter->hw.place.idx + 1;
	*bits = pmu->width;
	*base = local64_read(&counter->hw.prev) & pc_hw_mask(pmu);
	return true;
}

static u64 pc_hw_peek_op(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	return pc_hw_peek(pc_hw_this_cpu(), counter);
}

static void pc_hw_pause_op(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	pc_hw_pause(pc_hw_this_cpu(), counter);
}

static void pc_hw_resume_op(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	pc_hw_resume(pc_hw_this_cpu(), counter);
}

/* A period or value changed in flight (period.c). */
static void pc_hw_change_op(struct perf_counter *counter,
			    void (*fn)(struct perf_counter *counter, u64 arg),
			    u64 arg)
{
	pc_assert_irqs_off();
	/* off a register, or paused (folded, loaded again on resume) */
	if (!counter->hw.on || counter->idle_paused) {
		fn(counter, arg);
		return;
	}
	pc_hw_reload_change(pc_hw_this_cpu(), counter, fn, arg);
}

const struct pc_ops pc_hw_ops = {
	.caps		= PC_CAP_REGISTER | PC_CAP_SWITCH_QUIET_USER,
	.init		= pc_hw_init,
	.destroy	= pc_hw_destroy,
	.start		= pc_hw_start,
	.stop		= pc_hw_stop,
	.read		= pc_hw_read,
	.pause		= pc_hw_pause_op,
	.resume		= pc_hw_resume_op,
	.peek		= pc_hw_peek_op,
	.change		= pc_hw_change_op,
};
