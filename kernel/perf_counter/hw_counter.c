// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: hardware counters, the part every PMU driver shares.
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
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_counter_hw.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "internal.h"

static const struct pc_pmu *pc_pmu;
static enum pc_pmu_state pc_pmu_state;
static DEFINE_PER_CPU(struct pc_hw_cpu, pc_hw_cpus);

/* Raw register values fit in this many bits of pc_hw_counter.prev. */
#define PC_HW_RAW_BITS	48

/* The fewest events a register is ever loaded to overflow after. */
#define PC_HW_MIN_LOAD	2

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "perf_counter."

/* /sys/module/perf_counter/parameters/pmu: "name,counters,width,state" */
static int pc_hw_pmu_show(char *buf, const struct kernel_param *kp)
{
	static const char * const state[] = {
		[PC_PMU_OK]		= "ok",
		[PC_PMU_UNCHECKED]	= "unchecked",
		[PC_PMU_BROKEN]		= "broken",
	};
	const struct pc_pmu *pmu = READ_ONCE(pc_pmu);

	if (!pmu)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s,%u,%u,%s\n", pmu->name, pmu->nr_counters,
			  pmu->width, state[pc_pmu_state]);
}

static const struct kernel_param_ops pc_hw_pmu_param = {
	.flags	= KERNEL_PARAM_OPS_FL_NOARG,
	.set	= pc_param_ignore_set,
	.get	= pc_hw_pmu_show,
};
module_param_cb(pmu, &pc_hw_pmu_param, NULL, 0444);
MODULE_PARM_DESC(pmu, "the PMU driver: name,counters,width,state, or none");

/* Counters holding the registers; the first reserves, the last frees. */
static DEFINE_MUTEX(pc_hw_reserve_mutex);
static unsigned int pc_hw_users;

/* perf_counter.no_pmu_check=1: emulators whose PMUs do not count. */
static bool no_pmu_check;
module_param(no_pmu_check, bool, 0444);
MODULE_PARM_DESC(no_pmu_check,
		 "use the PMU even if its registers do not work as they should");

/**
 * pc_hw_register() - make a PMU driver the one hardware counters use
 * @pmu:	the driver, chosen for this CPU model
 * @regs:	the CPU's own register accessors
 * @state:	whether its registers were found to work
 *
 * Called once at boot. A broken PMU is registered too, so that user
 * space is told why hardware counters are refused.
 *
 * Return: 0, -EBUSY if a driver is registered already, or -EINVAL for
 * registers wider than 48 bits or more than PC_HW_MAX_COUNTERS.
 */
int pc_hw_register(const struct pc_pmu *pmu, const struct pc_hw_regs *regs,
		   enum pc_pmu_state state)
{
	int cpu;

	if (pc_pmu)
		return -EBUSY;
	if (WARN_ON(pmu->width > PC_HW_RAW_BITS ||
		    pmu->nr_counters > PC_HW_MAX_COUNTERS))
		return -EINVAL;
	for_each_possible_cpu(cpu) {
		struct pc_hw_cpu *cpuc = per_cpu_ptr(&pc_hw_cpus, cpu);

		cpuc->pmu = pmu;
		cpuc->regs = regs;
		if (pmu->poll_ns && pmu->poll)
			pc_hw_poll_init(cpuc);
	}
	pc_pmu_state = state;
	pc_pmu = pmu;
	return 0;
}

/**
 * pc_hw_register_checked() - register a driver as its register check found it
 * @pmu:	the driver, chosen for this CPU model
 * @regs:	the CPU's own register accessors
 * @works:	the driver's check: do @pmu's registers work on this CPU?
 *		Not called when perf_counter.no_pmu_check=1 skips it (for
 *		emulators whose PMUs do not count: counters are then
 *		placed, scheduled and read anyway).
 * @why:	what a failed check means, for the boot line
 *
 * Names the driver, its registers and its state in one boot line.
 *
 * Return: the state it was registered with, or pc_hw_register()'s
 * negative errno.
 */
int pc_hw_register_checked(const struct pc_pmu *pmu,
			   const struct pc_hw_regs *regs,
			   bool (*works)(const struct pc_pmu *pmu),
			   const char *why)
{
	enum pc_pmu_state state;
	int err;

	if (no_pmu_check)
		state = PC_PMU_UNCHECKED;
	else
		state = works(pmu) ? PC_PMU_OK : PC_PMU_BROKEN;
	err = pc_hw_register(pmu, regs, state);
	if (err)
		return err;
	if (state == PC_PMU_BROKEN)
		pr_warn("perf_counter: %s PMU, %u counters, %u bits: %s, hardware counters disabled (perf_counter.no_pmu_check=1 skips this check)\n",
			pmu->name, pmu->nr_counters, pmu->width, why);
	else
		pr_info("perf_counter: %s PMU, %u counters, %u bits%s\n",
			pmu->name, pmu->nr_counters, pmu->width,
			state == PC_PMU_UNCHECKED ?
			", not checked (perf_counter.no_pmu_check)" : "");
	return state;
}

/**
 * pc_hw_pmu() - the registered PMU driver
 *
 * Return: the driver, or NULL if this CPU has none.
 */
const struct pc_pmu *pc_hw_pmu(void)
{
	return pc_pmu;
}

/**
 * pc_hw_pmu_state() - whether the registered driver's registers work
 *
 * Return: enum pc_pmu_state; meaningless without a driver.
 */
enum pc_pmu_state pc_hw_pmu_state(void)
{
	return pc_pmu_state;
}

/**
 * pc_hw_this_cpu() - this CPU's counter registers
 *
 * Return: the state, for use with irqs (or preemption) off.
 */
struct pc_hw_cpu *pc_hw_this_cpu(void)
{
	return this_cpu_ptr(&pc_hw_cpus);
}

/**
 * pc_hw_forbid_cpu() - keep hardware counters off a CPU
 * @cpu:	a CPU whose registers belong to another (a second thread)
 *
 * Counters of tasks that run there do not count while they do (their
 * time running says so); CPU-wide hardware counters for it are refused.
 * Called by the driver at boot, and from its cpu_online op as @cpu comes,
 * before any counter can be on it.
 */
void pc_hw_forbid_cpu(int cpu)
{
	per_cpu_ptr(&pc_hw_cpus, cpu)->forbidden = true;
}

static u64 pc_hw_mask(const struct pc_pmu *pmu)
{
	return pmu->width >= 64 ? ~0ULL : (1ULL << pmu->width) - 1;
}

/**
 * pc_hw_decode() - check and decode a hardware counter's event
 * @pmu:	the driver
 * @counter:	a counter whose hw_event is PERF_TYPE_HARDWARE or raw
 *
 * Return: 0, the driver's -EINVAL for an event it cannot count, or
 * -EACCES for one that counts the whole core (@counts_core) opened
 * without a CPU-wide counter's privilege.
 */
int pc_hw_decode(const struct pc_pmu *pmu, struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	int err;

	err = pmu->decode(&counter->hw_event, counter->extra_config, hwc);
	if (err)
		return err;
	/*
	 * An event that counts the whole core is the opener's to ask for
	 * with a CPU-wide counter's privilege; a fork copies what its
	 * parent was given, whoever forks and whatever the level now.
	 */
	if (hwc->counts_core && !counter->parent) {
		err = pc_allow_cpu(&counter->hw_event, counter->extra_config);
		if (err)
			return err;
	}
	/* An event no register can take is refused now, not at each run. */
	if (pmu->places(hwc, place) <= 0)
		return -EINVAL;
	local64_set(&hwc->left, counter->hw_event.irq_period);
	return 0;
}

/*
 * prev holds the raw value in its low PC_HW_RAW_BITS and, above them, a
 * generation that each load of the register bumps. A fold interrupted
 * between its read and its cmpxchg by an overflow that folds and loads
 * the register again finds prev changed even when the load wrote the
 * same raw value as before (every load of a counting counter does), so
 * it reads again instead of counting the interval twice.
 */
#define PC_HW_RAW_MASK	((1ULL << PC_HW_RAW_BITS) - 1)

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
static void pc_hw_load(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
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
static void pc_hw_note_late_irq(struct pc_hw_cpu *cpuc,
				struct perf_counter *counter)
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

	want->nr = pmu->places(hwc, want->place);
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

static bool pc_hw_compatible(const struct pc_pmu *pmu,
			     const struct perf_counter *a,
			     const struct perf_counter *b)
{
	return !pmu->compatible || pmu->compatible(&a->hw, &b->hw);
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

/*
 * Start the next period after the ones that ran out (left <= 0), and
 * say how many ran out.
 */
static u64 pc_hw_next_period(struct perf_counter *counter)
{
	struct pc_hw_counter *hwc = &counter->hw;
	u64 period = counter->hw_event.irq_period;
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
static void pc_hw_sample(struct pc_hw_cpu *cpuc, struct perf_counter *counter,
			 struct pt_regs *regs)
{
	struct perf_counter_context *ctx = counter->ctx;
	u64 due = pc_hw_next_period(counter);

	if (!due)
		return;
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
	if (due > 1)
		pc_sample_lost(counter, due - 1);

	if (!(counter->hw_event.record_type & PERF_RECORD_GROUP)) {
		pc_sample_write(counter, regs);
	} else if (!in_nmi() || raw_spin_trylock(&ctx->lock)) {
		/*
		 * The member list may be half changed under the context
		 * lock on this very CPU: walk it only if the lock is free.
		 */
		pc_sample_write(counter, regs);
		if (in_nmi())
			raw_spin_unlock(&ctx->lock);
	} else {
		pc_sample_lost(counter, 1);
	}
}

/*
 * Fold @counter, load it for what is left of its period and let it
 * count, on the register it holds; a throttled counter's periods that
 * ran out meanwhile are counted lost. The overflow interrupt sees it
 * until it is folded (an overflow then is handled, or marked late), and
 * not again until it is loaded.
 */
static void pc_hw_reload(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
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
		if (due)
			pc_sample_lost(counter, due);
	}
	pc_hw_load(cpuc, counter);
	WRITE_ONCE(cpuc->on[idx], counter);
	barrier();
	cpuc->pmu->enable(cpuc, hwc);
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

/* The registers are taken from the rest of the kernel while in use. */
static int pc_hw_get(void)
{
	int err = 0;

	mutex_lock(&pc_hw_reserve_mutex);
	if (!pc_hw_users && pc_pmu->reserve)
		err = pc_pmu->reserve();
	if (!err)
		pc_hw_users++;
	mutex_unlock(&pc_hw_reserve_mutex);
	return err;
}

static void pc_hw_put(void)
{
	mutex_lock(&pc_hw_reserve_mutex);
	if (!--pc_hw_users && pc_pmu->release)
		pc_pmu->release();
	mutex_unlock(&pc_hw_reserve_mutex);
}

/**
 * pc_hw_cpu_online() - a CPU comes online: its share of the registers
 *
 * Runs on that CPU, may sleep. The driver sees every CPU come, and may
 * keep it off the registers (pc_hw_forbid_cpu()); while they are
 * reserved, it makes them ready there as it did on the others.
 */
void pc_hw_cpu_online(void)
{
	pc_hw_poll_reset(pc_hw_this_cpu());
	mutex_lock(&pc_hw_reserve_mutex);
	if (pc_pmu && pc_pmu->cpu_online)
		pc_pmu->cpu_online();
	mutex_unlock(&pc_hw_reserve_mutex);
}

static int pc_hw_init(struct perf_counter *counter)
{
	int err;

	if (!pc_pmu || pc_pmu_state == PC_PMU_BROKEN)
		return -ENODEV;
	if (counter->cpu >= 0 &&
	    per_cpu_ptr(&pc_hw_cpus, counter->cpu)->forbidden)
		return -ENODEV;
	err = pc_hw_decode(pc_pmu, counter);
	if (err)
		return err;
	return pc_hw_get();
}

static void pc_hw_destroy(struct perf_counter *counter)
{
	pc_hw_put();
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
	return pc_hw_cpu_add(pc_hw_this_cpu(), counter);
}

static void pc_hw_stop(struct perf_counter *counter)
{
	pc_hw_cpu_del(pc_hw_this_cpu(), counter);
}

static void pc_hw_read(struct perf_counter *counter)
{
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
	const struct pc_pmu *pmu = pc_pmu;

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
	return pc_hw_peek(pc_hw_this_cpu(), counter);
}

static void pc_hw_pause_op(struct perf_counter *counter)
{
	pc_hw_pause(pc_hw_this_cpu(), counter);
}

static void pc_hw_resume_op(struct perf_counter *counter)
{
	pc_hw_resume(pc_hw_this_cpu(), counter);
}

const struct pc_ops pc_hw_ops = {
	.init		= pc_hw_init,
	.destroy	= pc_hw_destroy,
	.start		= pc_hw_start,
	.stop		= pc_hw_stop,
	.read		= pc_hw_read,
	.pause		= pc_hw_pause_op,
	.resume		= pc_hw_resume_op,
	.peek		= pc_hw_peek_op,
};

/**
 * pc_hw_group_fits() - could @leader's group, with @counter, ever go on?
 * @leader:	a group leader, its member list stable (ctx->mutex held)
 * @counter:	a new member
 *
 * Return: 0, -EINVAL if @counter can never be on with another member
 * (see pc_pmu.compatible), or -ENOSPC if the group's hardware counters
 * have no placement even on an idle CPU.
 */
int pc_hw_group_fits(struct perf_counter *leader, struct perf_counter *counter)
{
	struct perf_counter *member;
	struct pc_hw_want *want;
	unsigned int n = 0;
	int err = -ENOSPC;

	if (counter->ops != &pc_hw_ops)
		return 0;
	if (leader->ops == &pc_hw_ops &&
	    !pc_hw_compatible(pc_pmu, leader, counter))
		return -EINVAL;
	list_for_each_entry(member, &leader->siblings, group_entry)
		if (member->ops == &pc_hw_ops &&
		    !pc_hw_compatible(pc_pmu, member, counter))
			return -EINVAL;
	want = kmalloc_array(PC_HW_MAX_COUNTERS, sizeof(*want), GFP_KERNEL);
	if (!want)
		return -ENOMEM;
	pc_object_made(PC_OBJ_ARRAY);
	if (leader->ops == &pc_hw_ops)
		want[n++].nr = pc_pmu->places(&leader->hw, want[0].place);
	list_for_each_entry(member, &leader->siblings, group_entry) {
		if (member->ops != &pc_hw_ops)
			continue;
		if (n == pc_pmu->nr_counters)
			goto out;
		want[n].nr = pc_pmu->places(&member->hw, want[n].place);
		n++;
	}
	if (n == pc_pmu->nr_counters)
		goto out;
	want[n].nr = pc_pmu->places(&counter->hw, want[n].place);
	if (pc_hw_assign(want, n + 1))
		err = 0;
out:
	pc_object_ended(PC_OBJ_ARRAY);
	kfree(want);
	return err;
}
