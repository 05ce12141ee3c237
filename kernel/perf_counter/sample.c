// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: sample records.
 *
 * A sampling counter that overflows writes one record to the queue of
 * its top-level counter, with the fields its record_type asks for in the
 * order the uapi header gives.
 *
 * A sample is taken only in the modes the counter counts: one whose
 * exclude_kernel bit is set never reports where the kernel was, nor
 * one with exclude_user where user space was. Pids and tids are those
 * the opener's pid namespace sees (0 for a task it cannot see). Every
 * sample also spends this CPU's sample budget (see throttle.c).
 */
#include <linux/perf_counter_chain.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/timekeeping.h>

#include "internal.h"

DEFINE_STATIC_KEY_DEFERRED_FALSE(pc_switch_key, HZ);

/* A switch-out record with a chain: header and body, but the chain */
#define PC_SWITCH_OUT_WORDS	(1 + sizeof(struct perf_counter_switch_out) / 8)
static_assert(sizeof(struct perf_counter_switch_out) == 32);
static_assert(offsetof(struct perf_counter_switch_out, flags) == 24);

/**
 * pc_task_ids() - a record's word of a task's pid and tid
 * @task:	the task
 * @ns:		the pid namespace of the counter's opener
 *
 * Return: the pid and tid @ns sees (0 for a task it cannot see), in
 * struct order whatever the byte order.
 */
u64 pc_task_ids(struct task_struct *task, struct pid_namespace *ns)
{
	union {
		u64	word;
		u32	id[2];
	} u = { .id = { task_tgid_nr_ns(task, ns), task_pid_nr_ns(task, ns) } };

	return u.word;
}

/* The IP to report: the interrupted one, else where current entered. */
static u64 pc_sample_ip(struct pt_regs *regs)
{
	if (regs)
		return instruction_pointer(regs);
	if (current->mm)
		return instruction_pointer(task_pt_regs(current));
	return 0;
}

/*
 * A member's value now, for a group record: a kind whose count lags
 * (a clock, a hardware register) says what it has counted since it last
 * folded. Whoever is in the member list here (NMI aside, which holds
 * the context's lock) is stable: it changes only on this CPU, irqs off.
 */
static u64 pc_member_value(struct perf_counter *member)
{
	if (member->state == PC_STATE_ACTIVE && member->ops->peek)
		return member->ops->peek(member);
	return atomic64_read(&member->count);
}

/* A sample's words, header included, but for its call chain. */
static u32 pc_sample_words(struct perf_counter *counter, u64 type,
			   u32 members)
{
	u32 words = 1;			/* the header */

	if (type & PERF_RECORD_IRQ)
		words++;
	if (type & PERF_RECORD_TID)
		words++;
	if (type & PERF_RECORD_TIME)
		words++;
	if (type & PERF_RECORD_VALUE)
		words++;
	if (type & PERF_RECORD_PERIOD)
		words++;
	if (type & PERF_RECORD_ID)
		words++;
	if (type & PERF_RECORD_GROUP) {
		if (!pc_format_2009(&counter->hw_event, counter->sideband))
			words++;	/* the number of members */
		words += (type & PERF_RECORD_ID ? 3 : 2) * members;
	}
	return words;
}

/**
 * pc_record_words_max() - the most words one record of @counter needs
 * @counter:	a top-level counter with a queue, its group stable
 *		(ctx->mutex held)
 * @joining:	members about to join its group
 *
 * A sample with every field its record_type asks for, a switch record,
 * a side-band record or a TOTALS record, and, in the extended format,
 * the LOST record (and with side-band or TOTALS records the
 * LOST_SIDEBAND one) that may have to go first: a queue smaller than
 * that could never take the record.
 */
u32 pc_record_words_max(struct perf_counter *counter, u32 joining)
{
	u64 type = counter->hw_event.record_type;
	u32 words = 0;

	if (pc_is_sampling(counter)) {
		struct perf_counter *member;
		u32 members = joining;

		pc_for_each_member(member, counter)
			members++;
		words = pc_sample_words(counter, type, members) +
			pc_chain_words(counter);
	}
	if (counter->hw_event.context_switch)
		words = max_t(u32, words, 4);
	if (counter->switch_out & PERF_SWITCH_OUT_CHAIN)
		words = max_t(u32, words, PC_SWITCH_OUT_WORDS +
			      pc_chain_words(counter) + counter->switch_stack);
	words = max_t(u32, words, pc_sideband_words_max(counter));
	words = max_t(u32, words, pc_totals_words(counter, joining));
	if (!pc_format_2009(&counter->hw_event, counter->sideband))
		words += PC_LOST_WORDS;
	/* and a LOST_SIDEBAND one */
	if (counter->sideband || counter->hw_event.inherit_stat)
		words += PC_LOST_WORDS;
	return words;
}

/**
 * pc_group_record_fits() - may one more member join @leader's group?
 * @leader:	a group leader, its group stable (ctx->mutex held)
 *
 * Return: 0, or -ENOSPC if the group records of a leader that samples
 * its group, or its TOTALS records of the group, would no longer fit
 * its queue.
 */
int pc_group_record_fits(struct perf_counter *leader)
{
	if (!leader->queue ||
	    (!(leader->hw_event.record_type & PERF_RECORD_GROUP) &&
	     !(leader->hw_event.read_format & PERF_FORMAT_GROUP)))
		return 0;
	if (pc_record_words_max(leader, 1) > pc_queue_words(leader->queue))
		return -ENOSPC;
	return 0;
}

/**
 * pc_counter_queue_resize() - PERF_COUNTER_IOC_QUEUE_SIZE
 * @counter:	a top-level counter with a queue
 * @bytes:	the size asked for
 *
 * Return: as pc_queue_resize(), and -EINVAL for a size that could not
 * hold the largest record the counter writes.
 */
int pc_counter_queue_resize(struct perf_counter *counter, u32 bytes)
{
	struct perf_counter_context *ctx = counter->ctx;
	int err;

	mutex_lock(&ctx->mutex);	/* the group, and so the records */
	if (bytes / sizeof(u64) < pc_record_words_max(counter, 0))
		err = -EINVAL;
	else
		err = pc_queue_resize(counter->queue, bytes);
	mutex_unlock(&ctx->mutex);
	return err;
}

/**
 * pc_sample_periods() - a sample for each period that has run out
 * @counter:	a software sampling counter whose period_left its kind has
 *		counted down, on this CPU with irqs off
 * @regs:	as for pc_sample()
 *
 * Writes at most PC_SAMPLE_BURST records, however many periods ran out
 * (a long irq_period-sized count, a late timer), and counts the others
 * lost: the work done here is bounded whatever the period. Periods that
 * end in a mode the counter excludes (a clock counter's time in the
 * kernel, with exclude_kernel) are not sampled, and not lost either.
 * Then the period starts again, retuned if the counter samples by
 * frequency (period.c).
 */
void pc_sample_periods(struct perf_counter *counter, struct pt_regs *regs)
{
	u64 period = counter->period;
	u64 due, i;
	bool taken;

	pc_assert_irqs_off();
	due = pc_periods_due(counter->period_left, period);
	if (!due)
		return;
	counter->period_left += due * period;
	if (!pc_sample_excluded(counter, regs)) {
		for (i = 0; i < min_t(u64, due, PC_SAMPLE_BURST); i++) {
			taken = pc_sample(counter, regs);
			/* the first stood for the current period, the rest whole */
			counter->period_len = period;
			if (!taken) {
				i++;	/* that one was counted lost */
				break;
			}
		}
		if (i < due)
			pc_sample_lost(counter, due - i);
	}
	pc_period_ended(counter, due);
}

/**
 * pc_sample_lost() - count samples of @counter's that could not be taken
 * @counter:	the counter; any context, NMI included
 * @n:		how many
 *
 * The next record written to its queue is preceded by a LOST record.
 */
void pc_sample_lost(struct perf_counter *counter, u64 n)
{
	struct perf_counter *top = counter->parent ?: counter;

	pc_queue_missed(pc_counter_out(top), n);
}

/**
 * pc_sample_excluded() - was the event sampled in a mode it excludes?
 * @counter:	the counter
 * @regs:	the interrupted state; without it the kernel raised the
 *		event: kernel mode
 *
 * Return: true if a sample taken there would report the excluded mode.
 */
bool pc_sample_excluded(const struct perf_counter *counter,
			struct pt_regs *regs)
{
	if (regs && user_mode(regs))
		return counter->hw_event.exclude_user;
	return counter->hw_event.exclude_kernel;
}

/**
 * pc_sample() - a software counter's sample, if it may be taken
 * @counter:	the counter, on this CPU with irqs off
 * @regs:	the interrupted state, or NULL for events the kernel raises
 *
 * A sample in a mode the counter excludes is not taken. One past this
 * CPU's budget is counted lost.
 *
 * Return: false if the budget was spent: the caller should quieten the
 * counter until the next tick.
 */
bool pc_sample(struct perf_counter *counter, struct pt_regs *regs)
{
	pc_assert_irqs_off();
	if (pc_sample_excluded(counter, regs))
		return true;
	if (!pc_sample_budget_take()) {
		pc_sample_lost(counter, 1);
		return false;
	}
	pc_sample_write(counter, regs);
	return true;
}

/* pc_sample_write()'s record, the refresh left out */
static void __pc_sample_write(struct perf_counter *counter,
			      struct pt_regs *regs)
{
	struct perf_counter *top = counter->parent ?: counter;
	u64 type = counter->hw_event.record_type;
	struct pc_queue *q = pc_counter_out(top);
	struct perf_counter *member;
	struct pc_chain chain;
	unsigned long flags;
	unsigned long at;
	u32 words, members = 0;

	if (type & PERF_RECORD_GROUP)
		pc_for_each_member_here(member, counter)
			members++;
	words = pc_sample_words(counter, type, members);
	if (type & PERF_RECORD_CALLCHAIN) {
		/* no walk for a record a full queue would drop */
		if (!pc_queue_may_fit(q, words + 1) ||
		    !pc_chain_take(&chain, counter, regs)) {
			pc_queue_missed(q, 1);
			return;
		}
		words += pc_chain_record_words(&chain);
	}
	if (words == 1)
		return;			/* 2009 format: nothing to record */
	if (in_nmi()) {
		if (!pc_queue_trylock(q, &flags)) {
			pc_queue_missed(q, 1);
			goto out;
		}
	} else {
		pc_queue_lock(q, &flags);
	}
	if (!pc_queue_reserve(q, PERF_COUNTER_REC_SAMPLE, words, &at))
		goto unlock;

	if (type & PERF_RECORD_IRQ)
		pc_queue_put(q, &at, pc_sample_ip(regs));
	if (type & PERF_RECORD_TID)
		pc_queue_put(q, &at, pc_task_ids(current, top->pid_ns));
	if (type & PERF_RECORD_TIME)
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
	if (type & PERF_RECORD_VALUE)
		pc_queue_put(q, &at, atomic64_read(&counter->count));
	if (type & PERF_RECORD_PERIOD)
		pc_queue_put(q, &at, counter->period_len);
	if (type & PERF_RECORD_ID)
		pc_queue_put(q, &at, counter->id);
	if (type & PERF_RECORD_GROUP) {
		bool format_2009 = pc_format_2009(&top->hw_event, top->sideband);
		unsigned long nr_at = at;
		u64 n = 0;

		if (!format_2009)
			pc_queue_put(q, &at, 0);
		pc_for_each_member_here(member, counter) {
			pc_queue_put(q, &at, member->hw_event.event_config);
			pc_queue_put(q, &at, pc_member_value(member));
			if (type & PERF_RECORD_ID)
				pc_queue_put(q, &at, member->id);
			n++;
		}
		if (!format_2009)
			pc_queue_put_at(q, nr_at, n);
	}
	if (type & PERF_RECORD_CALLCHAIN)
		pc_queue_put_words(q, &at, chain.word,
				   pc_chain_record_words(&chain));
	pc_queue_commit(q, at);
unlock:
	pc_queue_unlock(q, flags);
out:
	if (type & PERF_RECORD_CALLCHAIN)
		pc_chain_done(&chain);
}

/**
 * pc_sample_write() - write one sample record for @counter
 * @counter:	the counter, on this CPU with irqs off (or in NMI)
 * @regs:	the interrupted state, or NULL for events the kernel raises
 *
 * The caller has checked the modes and spent the budget. A full queue
 * counts the record lost. From NMI the queue is only tried, never
 * waited for: a sample that would wait is lost instead. A call chain is
 * walked before the queue is taken (unless the queue has no room for
 * even the least of records with one), and the record reserved at the
 * size it came to; the time and the values in it are then those of
 * the record's writing, after the walk, so that the queue's records
 * stay in the order of their times. Group members' values are brought
 * up to date first. In the 2009 format a group record has no count of
 * members, and a leader without members writes none. A refreshed
 * counter whose refresh has run out writes nothing (period.c).
 */
void pc_sample_write(struct perf_counter *counter, struct pt_regs *regs)
{
	pc_assert_irqs_off();
	if (likely(!READ_ONCE(counter->refresh_on))) {
		__pc_sample_write(counter, regs);
		return;
	}
	if (!pc_refresh_take(counter))
		return;			/* its refresh ran out */
	__pc_sample_write(counter, regs);
	pc_refresh_done(counter);
}

/*
 * A switch-out record with where and why @task (current) left
 * (PERF_SWITCH_OUT_CHAIN): the chain walked first, the queue taken for
 * the copy only. Each spends a sample of this CPU's budget, as a
 * sample's walk would: past it, the plain record is written (false).
 */
static bool pc_switch_out_chain(struct perf_counter *counter,
				struct pc_queue *q, struct pid_namespace *ns,
				struct task_struct *task,
				struct task_struct *other)
{
	union {
		u64	word;
		u32	half[2];
	} why = { .half = { READ_ONCE(task->on_rq) ?
			    PERF_COUNTER_SWITCH_PREEMPTED : 0 } };
	struct pc_chain chain;
	unsigned long flags;
	unsigned long at;
	u32 words;

	if (WARN_ON_ONCE(task != current) || !pc_sample_budget_take())
		return false;
	/* no walk for a record a full queue would drop */
	if (!pc_queue_may_fit(q, PC_SWITCH_OUT_WORDS + 1 +
			      counter->switch_stack) ||
	    !pc_chain_take_switch(&chain, counter)) {
		pc_queue_missed(q, 1);
		return true;
	}
	why.half[1] = chain.stack_words;
	words = PC_SWITCH_OUT_WORDS + pc_chain_record_words(&chain) +
		chain.stack_words;
	pc_queue_lock(q, &flags);
	if (pc_queue_reserve(q, PERF_COUNTER_REC_SWITCH_OUT_CHAIN, words,
			     &at)) {
		pc_queue_put(q, &at, pc_task_ids(task, ns));
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
		pc_queue_put(q, &at, other ? pc_task_ids(other, ns) : 0);
		pc_queue_put(q, &at, why.word);
		pc_queue_put_words(q, &at, chain.word,
				   pc_chain_record_words(&chain) +
				   chain.stack_words);
		pc_queue_commit(q, at);
	}
	pc_queue_unlock(q, flags);
	pc_chain_done(&chain);
	return true;
}

/* One switch record for @counter: @task went out (or in); @other too. */
static void pc_switch_record(struct perf_counter *counter, u32 kind,
			     struct task_struct *task,
			     struct task_struct *other)
{
	struct perf_counter *top = counter->parent ?: counter;
	struct pc_queue *q = pc_counter_out(top);
	unsigned long flags;
	unsigned long at;

	if (kind == PERF_COUNTER_REC_SWITCH_OUT &&
	    (counter->switch_out & PERF_SWITCH_OUT_CHAIN) &&
	    pc_switch_out_chain(counter, q, top->pid_ns, task, other))
		return;
	pc_queue_lock(q, &flags);
	if (pc_queue_reserve(q, kind, other ? 4 : 3, &at)) {
		pc_queue_put(q, &at, pc_task_ids(task, top->pid_ns));
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
		if (other)
			pc_queue_put(q, &at, pc_task_ids(other, top->pid_ns));
		pc_queue_commit(q, at);
	}
	pc_queue_unlock(q, flags);
}

/* Samples due before a switch record: written first (pc_ops.flush). */
static void pc_flush(struct perf_counter *counter)
{
	if (counter->state == PC_STATE_ACTIVE && counter->ops->flush)
		counter->ops->flush(counter);
}

/**
 * pc_ctx_switch_records() - switch records for a context's counters
 * @ctx:	the context, under ctx->lock with irqs off, on this CPU, its
 *		time just brought up to date: a switch-out then takes the
 *		context off at that same time (pc_ctx_sched_out_at()), so
 *		that no period ends between the samples and the record
 * @kind:	PERF_COUNTER_REC_SWITCH_OUT or _IN
 * @task:	the task leaving or taking the CPU
 * @other:	for a CPU context, the task taking or leaving it in turn;
 *		NULL for a task context, whose owner may not see it
 *
 * Every counter that asked (context_switch) and is counting gets one,
 * after the samples of its context's clock counters that were due by
 * now (but a task's switch-in, which follows their start), so that no
 * sample of before a switch comes after its record.
 */
void pc_ctx_switch_records(struct perf_counter_context *ctx, u32 kind,
			   struct task_struct *task, struct task_struct *other)
{
	struct perf_counter *leader, *member;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active)
		return;
	/*
	 * A task context switched in has just started its clocks: what
	 * they count from here is after the switch-in record.
	 */
	pc_for_each_leader(leader, ctx) {
		if (ctx->task && kind == PERF_COUNTER_REC_SWITCH_IN)
			break;
		pc_flush(leader);
		pc_for_each_member(member, leader)
			pc_flush(member);
	}
	pc_for_each_leader(leader, ctx) {
		if (leader->state != PC_STATE_ACTIVE)
			continue;
		if (leader->hw_event.context_switch)
			pc_switch_record(leader, kind, task, other);
		pc_for_each_member(member, leader)
			if (member->hw_event.context_switch &&
			    member->state == PC_STATE_ACTIVE)
				pc_switch_record(member, kind, task, other);
	}
}
