// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: sampling periods, fixed or retuned to a frequency, and
 * the ioctls that change a counter in flight (period, reset, refresh).
 *
 * A sampling counter's period runs down in @period_left (a hardware
 * counter's in @hw.left). When it runs out, the sample stands for
 * @period_len events (PERF_RECORD_PERIOD) and the next period is
 * @period long. So, for every sampling counter, the periods that ran out
 * (their samples written, lost, or in a mode it excludes) plus
 * @period_len less what is left equal its count since it was opened or
 * reset, exactly. A software event's or tracepoint's sample's value
 * (PERF_RECORD_VALUE) is then the sum of its period and those of the
 * samples before it, none lost; a clock's or a hardware counter's runs
 * past that by what its timer or interrupt came late.
 *
 * A frequency counter (sample_freq) that counts a clock has a period of
 * exactly 10^9 / sample_freq ns of its own time, never retuned. Any
 * other's is retuned from the rate of its events, in CLOCK_MONOTONIC:
 *
 *  - at each sample, from the events and time since the last retune:
 *    at once to the period that rate asks for if it is twice as long or
 *    more (8 times at most), else three quarters of the way there, in
 *    the interval between samples (pc_freq_next());
 *  - at the tick, for a counter on this CPU that has not sampled for
 *    two of its intervals (its events slowed down, or its period is
 *    still its first): shortened at once to what the rate seen since
 *    the last sample asks for, by at most 8 times a tick; the measure
 *    goes on to the next sample.
 *
 * A task that sleeps between its events is retuned by its samples, one
 * that runs by both. Periods that ran out while the CPU's sample budget
 * refused their samples count towards the rate as the others do, so a
 * throttled counter's period does not grow to hide the throttle: its
 * reader learns of the samples from LOST records.
 *
 * Rules: @period, @period_len, the left and @freq_* change on the
 * counter's CPU with irqs off: in its sample paths (its overflow
 * interrupt, perhaps an NMI, or where its events are raised), or under
 * ctx->lock through pc_counter_change(), which keeps the overflow
 * interrupt and the timer of the counter out meanwhile
 * (pc_ops.change). @sample_freq is a u32 written with WRITE_ONCE() in
 * the same places and read anywhere.
 */
#include <linux/irq_work.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "internal.h"

/* How far one retune may move a period, each way. */
#define PC_FREQ_STEP		8

/* Intervals without a sample after which the tick shortens a period. */
#define PC_FREQ_TICK_INTERVALS	2

/*
 * The longest period a retune gives: 2^40 events, a second's at 1 THz,
 * so that the products of two periods and a small factor fit in 128
 * bits and their factors in 64.
 */
#define PC_FREQ_PERIOD_MAX	(1ULL << 40)

/*
 * The longest time a rate is measured over, ns: dt * freq fits in u64
 * (freq at most PC_FREQ_MAX).
 */
#define PC_FREQ_DT_MAX		(10000ULL * NSEC_PER_SEC)

static s64 pc_left(const struct perf_counter *counter)
{
	if (pc_has_cap(counter, PC_CAP_REGISTER))
		return local64_read(&counter->hw.left);
	return counter->period_left;
}

static void pc_left_set(struct perf_counter *counter, s64 left)
{
	if (pc_has_cap(counter, PC_CAP_REGISTER))
		local64_set(&counter->hw.left, left);
	else
		counter->period_left = left;
}

/**
 * pc_freq_retuned() - is @counter a frequency counter whose period is
 *		       retuned (not a clock's)?
 * @counter:	the counter
 *
 * Return: true if so.
 */
bool pc_freq_retuned(const struct perf_counter *counter)
{
	return counter->sample_freq && !pc_has_cap(counter, PC_CAP_CLOCK);
}

/**
 * pc_period_init() - a sampling counter's first period
 * @counter:	a counter being made, or one of no context's yet
 * @period:	its length, 1 to PC_PERIOD_MAX (0 for a counting counter)
 */
void pc_period_init(struct perf_counter *counter, u64 period)
{
	counter->period = period;
	counter->period_len = period;
	pc_left_set(counter, period);
	counter->freq_stamp = ktime_get_mono_fast_ns();
	counter->freq_count = atomic64_read(&counter->count);
}

/**
 * pc_period_inherit() - an inherited copy's first period
 * @copy:	the copy, in no context yet
 * @orig:	the counter it is copied from, its top-level counter's
 *		child_mutex held (which the PERIOD ioctl holds too)
 *
 * The top-level counter's period, or frequency, as last set; a retuned
 * frequency counter's copy starts from the period its parent's copy had
 * last, read as it stands (on a 32-bit kernel perhaps half old: the
 * retune mends it).
 */
void pc_period_inherit(struct perf_counter *copy, struct perf_counter *orig)
{
	struct perf_counter *top = orig->parent ?: orig;
	u64 period;

	if (!pc_is_sampling(copy))
		return;
	copy->sample_freq = READ_ONCE(top->sample_freq);
	if (pc_freq_retuned(copy))
		period = clamp_t(u64, READ_ONCE(orig->period), 1,
				 PC_FREQ_PERIOD_MAX);
	else
		period = top->period;
	pc_period_init(copy, period);
}

/*
 * From now on periods are @period long; the current one becomes that
 * long too, or, if more has been counted of it already, ends at the
 * next event.
 */
static void pc_period_set(struct perf_counter *counter, u64 period)
{
	s64 done = counter->period_len - pc_left(counter);
	u64 len;

	period = clamp_t(u64, period, 1, PC_PERIOD_MAX);
	done = max_t(s64, done, 0);
	len = max_t(u64, period, done + 1);
	pc_left_set(counter, len - done);
	counter->period_len = len;
	counter->period = period;
}

/* Periods in a retune's arithmetic are fixed point, 8 bits a fraction. */
#define PC_FREQ_FRAC		8

/*
 * The period that @events events in @dt ns ask for, to sample @freq
 * times a second, in fixed point, 1/256 to PC_FREQ_PERIOD_MAX. In two
 * steps, whole and remainder, so that no quotient overflows however
 * many events a throttled counter brings.
 */
static u64 pc_freq_target(u64 events, u64 dt, u64 freq)
{
	const u64 k = (u64)NSEC_PER_SEC << PC_FREQ_FRAC;
	const u64 max = PC_FREQ_PERIOD_MAX << PC_FREQ_FRAC;
	u64 d, whole, rem;

	dt = clamp_t(u64, dt, 1, PC_FREQ_DT_MAX);
	d = dt * max_t(u64, freq, 1);
	whole = div64_u64_rem(events, d, &rem);
	if (whole >= div64_u64(max, k))
		return max;
	return clamp_t(u64, whole * k + mul_u64_u64_div_u64(rem, k, d), 1,
		       max);
}

static u64 pc_freq_lowest(u64 period)
{
	return max_t(u64, period / PC_FREQ_STEP, 1);
}

static u64 pc_freq_highest(u64 period)
{
	return min_t(u64, period * PC_FREQ_STEP, PC_FREQ_PERIOD_MAX);
}

/*
 * The next period, from the current one and the one the last interval
 * asked for (@target, in fixed point). Twice too short or more (the
 * events came far faster than the period was made for): straight to
 * the target, 8 times at most. Else three quarters of the way, in the
 * interval and not in the rate:
 * @period * (1 + 3/4 (1 - period / target)), so that it stands still
 * where the mean interval, not the mean rate, is 1 / freq. An interval
 * that varies (a workload in bursts) then gives freq samples a second
 * on average, where averaging the rate would give fewer.
 */
static u64 pc_freq_next(u64 period, u64 target)
{
	u64 lowest = pc_freq_lowest(period);
	u64 p = period << PC_FREQ_FRAC;
	u64 next;

	if (target / 2 >= p)
		return min(target >> PC_FREQ_FRAC, pc_freq_highest(period));
	/* p at most 2^48, target under 2^49: no product overflows 2^64 */
	if (7 * target <= 3 * p)
		return lowest;
	next = mul_u64_u64_div_u64(p, 7 * target - 3 * p, 4 * target);
	/* rounded: a floor would bias short periods shorter still */
	next = (next + (1 << (PC_FREQ_FRAC - 1))) >> PC_FREQ_FRAC;
	return max(next, lowest);
}

/*
 * The ns since the last retune, at least 1: the stamp may be a little
 * ahead of @now (an NMI's retune after @now was read, or a stamp taken
 * on another CPU, whose fast clock may be a little ahead).
 */
static u64 pc_freq_since(const struct perf_counter *counter, u64 now)
{
	s64 dt = now - READ_ONCE(counter->freq_stamp);

	return dt > 0 ? dt : 1;
}

/*
 * The rate since the last retune, and a new start for the next one.
 * Return: the period it asks for, in fixed point.
 */
static u64 pc_freq_measure(struct perf_counter *counter, u64 now)
{
	u64 count = atomic64_read(&counter->count);
	u64 events = count - counter->freq_count;
	u64 dt = pc_freq_since(counter, now);

	counter->freq_stamp = now;
	counter->freq_count = count;
	return pc_freq_target(events, dt, READ_ONCE(counter->sample_freq));
}

/**
 * pc_period_ended() - periods of a sampling counter ran out
 * @counter:	the counter, in its sample path (see the rules above),
 *		its left already moved on by @due periods and their
 *		samples written or counted lost
 * @due:	how many
 *
 * The next sample stands for a whole period; a frequency counter's
 * period is retuned from the rate seen since its last retune.
 */
void pc_period_ended(struct perf_counter *counter, u64 due)
{
	u64 period = counter->period;
	u64 target;

	counter->period_len = period;
	if (!pc_freq_retuned(counter))
		return;
	target = pc_freq_measure(counter, ktime_get_mono_fast_ns());
	pc_period_set(counter, pc_freq_next(period, target));
}

/*
 * Run @fn on @counter, under its context's lock where the context is
 * (pc_ctx_call()), with its events kept out meanwhile: folded first if
 * it is on, and counting on after from where @fn left its period.
 */
static void pc_counter_change(struct perf_counter *counter,
			      void (*fn)(struct perf_counter *counter, u64 arg),
			      u64 arg)
{
	pc_assert_counter_locked(counter);
	if (counter->state != PC_STATE_ACTIVE || !counter->ops->change) {
		fn(counter, arg);
		return;
	}
	pc_ctx_update_time(counter->ctx);
	counter->ops->change(counter, fn, arg);
}

/* Has the counter gone two of its intervals without a retune? */
static bool pc_freq_overdue(const struct perf_counter *counter, u64 now)
{
	u64 dt = min(pc_freq_since(counter, now), PC_FREQ_DT_MAX);

	return dt * READ_ONCE(counter->sample_freq) >=
	       PC_FREQ_TICK_INTERVALS * (u64)NSEC_PER_SEC;
}

/*
 * The tick's look at a frequency counter that has not sampled lately,
 * folded and out of its overflow interrupt's sight: the time is read
 * here, after any retune that interrupt made.
 */
static void pc_freq_tick_fn(struct perf_counter *counter, u64 unused)
{
	u64 now = ktime_get_mono_fast_ns();
	u64 target;

	if (!pc_freq_overdue(counter, now))
		return;
	target = pc_freq_target(atomic64_read(&counter->count) -
				counter->freq_count,
				pc_freq_since(counter, now),
				READ_ONCE(counter->sample_freq));
	/*
	 * Shorter only, and the measure left to run on from the last
	 * sample: one cut here would make the interval the next sample
	 * sees look short, and its period grow for it.
	 */
	target >>= PC_FREQ_FRAC;
	if (target < counter->period)
		pc_period_set(counter, max(target,
					   pc_freq_lowest(counter->period)));
}

static void pc_freq_tick_one(struct perf_counter *counter, u64 now)
{
	if (counter->state != PC_STATE_ACTIVE || !pc_freq_retuned(counter))
		return;
	/*
	 * Overdue means fewer events than a period in two intervals: the
	 * change always shortens, 8 times a tick, down to 1, where it
	 * stops (a counter whose events stopped is not reloaded forever).
	 */
	if (counter->period <= 1)
		return;
	/* a first look, racy against the sample path; the change looks again */
	if (pc_freq_overdue(counter, now))
		pc_counter_change(counter, pc_freq_tick_fn, 0);
}

/**
 * pc_freq_tick() - the tick's retune of a context's frequency counters
 * @ctx:	this CPU's context or current's, or NULL; irqs off
 *
 * Costs a load where the context has no retuned frequency counter.
 */
void pc_freq_tick(struct perf_counter_context *ctx)
{
	struct perf_counter *leader, *member;
	u64 now;

	if (!ctx || !READ_ONCE(ctx->nr_freq))
		return;
	raw_spin_lock(&ctx->lock);
	if (ctx->is_active && ctx->active_cpu == smp_processor_id()) {
		now = ktime_get_mono_fast_ns();
		pc_for_each_leader(leader, ctx) {
			pc_freq_tick_one(leader, now);
			pc_for_each_member(member, leader)
				pc_freq_tick_one(member, now);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/**
 * pc_check_period() - may @value be a counter's period (or frequency)?
 * @counter:	a sampling counter
 * @value:	for PERF_COUNTER_IOC_PERIOD
 *
 * Return: 0, or -EINVAL where the open would refuse @value as its
 * irq_period (sample_freq, for a frequency counter), or @counter does
 * not sample.
 */
int pc_check_period(const struct perf_counter *counter, u64 value)
{
	const struct perf_counter_hw_event *hw = &counter->hw_event;

	if (!pc_is_sampling(counter) || !value)
		return -EINVAL;
	if (counter->sample_freq)
		return value > pc_freq_max(hw) ? -EINVAL : 0;
	if (value > PC_PERIOD_MAX ||
	    (value < PC_CLOCK_PERIOD_MIN && pc_hw_event_is_clock(hw)))
		return -EINVAL;
	return 0;
}

/* A counter and the value an ioctl gave, for pc_ctx_call() */
struct pc_counter_arg {
	struct perf_counter	*counter;
	u64			value;
};

static void pc_period_fn(struct perf_counter *counter, u64 value)
{
	u64 old_freq = counter->sample_freq;
	u64 period = value;

	if (old_freq) {
		WRITE_ONCE(counter->sample_freq, value);
		if (pc_has_cap(counter, PC_CAP_CLOCK)) {
			period = div64_u64(NSEC_PER_SEC, value);
		} else {
			/*
			 * The same rate: the period scales with the
			 * frequency (2^40 * 2^20 at most: no overflow).
			 */
			period = min(div64_u64(min(counter->period,
						   PC_FREQ_PERIOD_MAX) *
					       old_freq, value),
				     PC_FREQ_PERIOD_MAX);
			counter->freq_stamp = ktime_get_mono_fast_ns();
			counter->freq_count = atomic64_read(&counter->count);
		}
	}
	pc_period_set(counter, period);
}

static void __pc_period(struct perf_counter_context *ctx, void *info)
{
	struct pc_counter_arg *c = info;

	lockdep_assert_held(&ctx->lock);
	pc_counter_change(c->counter, pc_period_fn, c->value);
}

/**
 * pc_counter_period() - PERF_COUNTER_IOC_PERIOD
 * @counter:	a top-level counter
 * @value:	its new period, or frequency for a frequency counter
 *
 * The counter and its inherited copies, each where its context is;
 * copies made from now on start with it (inherit.c reads the period
 * under child_mutex, which this holds).
 *
 * Return: 0, or pc_check_period()'s -EINVAL.
 */
int pc_counter_period(struct perf_counter *counter, u64 value)
{
	struct pc_counter_arg c = { .counter = counter, .value = value };
	struct perf_counter *child;
	int err;

	err = pc_check_period(counter, value);
	if (err)
		return err;
	mutex_lock(&counter->child_mutex);
	pc_ctx_call(counter->ctx, __pc_period, &c);
	list_for_each_entry(child, &counter->children, child_entry) {
		c.counter = child;
		pc_ctx_call(child->ctx, __pc_period, &c);
	}
	mutex_unlock(&counter->child_mutex);
	return 0;
}

static void pc_reset_fn(struct perf_counter *counter, u64 unused)
{
	atomic64_set(&counter->count, 0);
	counter->freq_count = 0;
	if (pc_is_sampling(counter)) {
		counter->period_len = counter->period;
		pc_left_set(counter, counter->period);
	}
}

static void __pc_reset(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;

	lockdep_assert_held(&ctx->lock);
	pc_counter_change(counter, pc_reset_fn, 0);
	pc_page_publish(counter);
}

/* One counter of the group being reset, and its copies. */
static void pc_reset_one(struct perf_counter *counter)
{
	struct perf_counter *child;

	pc_ctx_call(counter->ctx, __pc_reset, counter);
	mutex_lock(&counter->child_mutex);
	atomic64_set(&counter->child_count, 0);
	list_for_each_entry(child, &counter->children, child_entry)
		pc_ctx_call(child->ctx, __pc_reset, child);
	mutex_unlock(&counter->child_mutex);
}

/**
 * pc_counter_reset() - PERF_COUNTER_IOC_RESET
 * @counter:	a top-level counter
 *
 * Its value back to 0, and its inherited copies' and the values they
 * folded in at their exits; a leader's whole group's, each member with
 * its copies. Times go on; a sampling counter's period starts again.
 * The group is its group read's (@read_members, the same as @siblings
 * while its task lives, and whole after the task's exit dissolved
 * those), held still by the context's mutex.
 */
void pc_counter_reset(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct perf_counter *member;

	mutex_lock(&ctx->mutex);
	pc_reset_one(counter);
	list_for_each_entry(member, &counter->read_members, read_entry)
		pc_reset_one(member);
	mutex_unlock(&ctx->mutex);
}

/* Where the counter's context is: disable it, if its refresh is spent. */
static void __pc_refresh_disable(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;

	if (READ_ONCE(counter->refresh_spent))
		__pc_disable(ctx, counter);
}

/*
 * The irq_work of a refresh that ran out: the counter disabled where
 * its context is, here unless the context has moved to another CPU
 * since the sample; then from a workqueue, which may wait for that CPU
 * (or see it go offline) as any ioctl does.
 */
static void pc_refresh_disable(struct irq_work *work)
{
	struct perf_counter *counter =
		container_of(work, struct perf_counter, refresh_work);

	if (pc_ctx_try_here(counter->ctx, __pc_refresh_disable, counter) >= 0)
		schedule_work(&counter->refresh_late);
}

static void pc_refresh_disable_late(struct work_struct *work)
{
	struct perf_counter *counter =
		container_of(work, struct perf_counter, refresh_late);

	pc_ctx_call(counter->ctx, __pc_refresh_disable, counter);
}

/**
 * pc_refresh_init() - a new counter's refresh, none in force
 * @counter:	the counter being made
 */
void pc_refresh_init(struct perf_counter *counter)
{
	init_irq_work(&counter->refresh_work, pc_refresh_disable);
	INIT_WORK(&counter->refresh_late, pc_refresh_disable_late);
}

/**
 * pc_refresh_take() - may a refreshed counter write one more sample?
 * @counter:	the counter, in its sample path, @refresh_on set
 *
 * The last sample the refresh allows marks the counter spent: it
 * writes nothing more, and is disabled from an irq_work where its
 * context is (pc_refresh_done()).
 *
 * Return: true if the sample may be written.
 */
bool pc_refresh_take(struct perf_counter *counter)
{
	int left;

	if (READ_ONCE(counter->refresh_spent))
		return false;
	left = atomic_dec_return(&counter->refresh);
	if (left < 0) {
		atomic_inc(&counter->refresh);
		return false;
	}
	if (!left)
		WRITE_ONCE(counter->refresh_spent, true);
	return true;
}

/**
 * pc_refresh_done() - after a sample of a refreshed counter
 * @counter:	the counter, in its sample path
 *
 * If it was the last the refresh allowed: POLL_HUP to the owner of
 * the counter's file, and the counter disabled.
 */
void pc_refresh_done(struct perf_counter *counter)
{
	if (!READ_ONCE(counter->refresh_spent))
		return;
	pc_queue_hangup(counter->queue);
	irq_work_queue(&counter->refresh_work);
}

/*
 * A refresh's start (@n samples more) or end (@n 0), with the counter's
 * sample path kept out (pc_counter_change()): it could otherwise take
 * the last sample between the read of what is left and the write.
 */
static void pc_refresh_fn(struct perf_counter *counter, u64 n)
{
	int left;

	if (!n) {
		WRITE_ONCE(counter->refresh_on, false);
		WRITE_ONCE(counter->refresh_spent, false);
		return;
	}
	left = counter->refresh_on && !counter->refresh_spent ?
	       max(atomic_read(&counter->refresh), 0) : 0;
	atomic_set(&counter->refresh, (int)min_t(u64, (u64)left + n,
						 INT_MAX));
	/* the count before the flags: the sample path reads them first */
	barrier();
	WRITE_ONCE(counter->refresh_spent, false);
	WRITE_ONCE(counter->refresh_on, true);
}

static void __pc_refresh(struct perf_counter_context *ctx, void *info)
{
	struct pc_counter_arg *c = info;

	lockdep_assert_held(&ctx->lock);
	pc_counter_change(c->counter, pc_refresh_fn, c->value);
}

/**
 * pc_counter_refresh() - PERF_COUNTER_IOC_REFRESH
 * @counter:	a top-level counter
 * @n:		more samples to allow, 1 to INT_MAX
 *
 * Adds @n to what is left of a refresh in force (INT_MAX at most) and
 * enables the counter, as PERF_COUNTER_IOC_ENABLE does.
 *
 * Return: 0, or -EINVAL for a counter that does not sample or is
 * inherited (whose copies' samples would race for the count), or @n
 * out of range.
 */
int pc_counter_refresh(struct perf_counter *counter, unsigned long n)
{
	struct pc_counter_arg c = { .counter = counter, .value = n };

	if (!pc_is_sampling(counter) || counter->hw_event.inherit ||
	    !n || n > INT_MAX)
		return -EINVAL;
	pc_ctx_call(counter->ctx, __pc_refresh, &c);
	pc_counter_enable(counter);
	return 0;
}

/**
 * pc_counter_refresh_end() - no refresh in force any more
 * @counter:	a top-level counter being enabled by the ENABLE ioctl,
 *		which samples without a limit again
 */
void pc_counter_refresh_end(struct perf_counter *counter)
{
	struct pc_counter_arg c = { .counter = counter, .value = 0 };

	if (READ_ONCE(counter->refresh_on))
		pc_ctx_call(counter->ctx, __pc_refresh, &c);
}

/**
 * pc_refresh_sync() - wait for a refresh's pending disable
 * @counter:	a counter being freed
 */
void pc_refresh_sync(struct perf_counter *counter)
{
	irq_work_sync(&counter->refresh_work);
	cancel_work_sync(&counter->refresh_late);
}
