// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: sample records.
 *
 * A sampling counter that overflows writes one record to the queue of
 * its top-level counter, with the fields its record_type asks for in the
 * order the uapi header gives.
 */
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/timekeeping.h>

#include "internal.h"

DEFINE_STATIC_KEY_DEFERRED_FALSE(pc_switch_key, HZ);

static u64 pc_task_ids(struct task_struct *task)
{
	union {
		u64	word;
		u32	id[2];
	} u = { .id = { task_tgid_nr(task), task_pid_nr(task) } };

	return u.word;
}

static void pc_queue_lock(struct pc_queue *q, unsigned long *flags)
{
	raw_spin_lock_irqsave(&q->lock, *flags);
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

static u32 pc_sample_words(struct perf_counter *counter, u64 type)
{
	struct perf_counter *member;
	u32 words = 1;			/* the header */

	if (type & PERF_RECORD_IRQ)
		words++;
	if (type & PERF_RECORD_TID)
		words++;
	if (type & PERF_RECORD_TIME)
		words++;
	if (type & PERF_RECORD_VALUE)
		words++;
	if (type & PERF_RECORD_GROUP) {
		words++;
		list_for_each_entry(member, &counter->siblings, group_entry)
			words += 2;
	}
	return words;
}

/**
 * pc_sample_periods() - a sample for each period that has run out
 * @counter:	a sampling counter whose period_left its kind has counted
 *		down, on this CPU with irqs off
 * @regs:	as for pc_sample()
 */
void pc_sample_periods(struct perf_counter *counter, struct pt_regs *regs)
{
	while (counter->period_left <= 0) {
		counter->period_left += counter->hw_event.irq_period;
		pc_sample(counter, regs);
	}
}

/**
 * pc_sample_lost() - count a sample of @counter's that could not be taken
 * @counter:	the counter; any context, NMI included
 *
 * The next record written to its queue is preceded by a LOST record.
 */
void pc_sample_lost(struct perf_counter *counter)
{
	struct perf_counter *top = counter->parent ?: counter;

	atomic_long_inc(&top->queue->missed);
}

/**
 * pc_sample() - write one sample record for an overflow of @counter
 * @counter:	the counter, on this CPU with irqs off
 * @regs:	the interrupted state, or NULL for events the kernel raises
 *
 * A full queue counts the record lost. From NMI the queue is only
 * tried, never waited for: a sample that would wait is lost instead.
 */
void pc_sample(struct perf_counter *counter, struct pt_regs *regs)
{
	struct perf_counter *top = counter->parent ?: counter;
	u64 type = counter->hw_event.record_type;
	struct pc_queue *q = top->queue;
	struct perf_counter *member;
	unsigned long flags;
	unsigned long at;

	if (in_nmi()) {
		if (!raw_spin_trylock_irqsave(&q->lock, flags)) {
			atomic_long_inc(&q->missed);
			return;
		}
	} else {
		pc_queue_lock(q, &flags);
	}
	if (!pc_queue_reserve(q, PERF_COUNTER_REC_SAMPLE,
			      pc_sample_words(counter, type), &at))
		goto out;

	if (type & PERF_RECORD_IRQ)
		pc_queue_put(q, &at, pc_sample_ip(regs));
	if (type & PERF_RECORD_TID)
		pc_queue_put(q, &at, pc_task_ids(current));
	if (type & PERF_RECORD_TIME)
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
	if (type & PERF_RECORD_VALUE)
		pc_queue_put(q, &at, atomic64_read(&counter->count));
	if (type & PERF_RECORD_GROUP) {
		u64 *nr = &q->ring[at & q->mask];
		u64 n = 0;

		pc_queue_put(q, &at, 0);
		list_for_each_entry(member, &counter->siblings, group_entry) {
			pc_queue_put(q, &at, member->hw_event.event_config);
			pc_queue_put(q, &at, atomic64_read(&member->count));
			n++;
		}
		*nr = n;
	}
	pc_queue_commit(q, at);
out:
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

/* One switch record for @counter: @task went out (or in); @other too. */
static void pc_switch_record(struct perf_counter *counter, u32 kind,
			     struct task_struct *task,
			     struct task_struct *other)
{
	struct perf_counter *top = counter->parent ?: counter;
	struct pc_queue *q = top->queue;
	unsigned long flags;
	unsigned long at;

	pc_queue_lock(q, &flags);
	if (pc_queue_reserve(q, kind, other ? 4 : 3, &at)) {
		pc_queue_put(q, &at, pc_task_ids(task));
		pc_queue_put(q, &at, ktime_get_mono_fast_ns());
		if (other)
			pc_queue_put(q, &at, pc_task_ids(other));
		pc_queue_commit(q, at);
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * pc_ctx_switch_records() - switch records for a context's counters
 * @ctx:	the context, under ctx->lock with irqs off, on this CPU
 * @kind:	PERF_COUNTER_REC_SWITCH_OUT or _IN
 * @task:	the task leaving or taking the CPU
 * @other:	for a CPU context, the task taking or leaving it in turn;
 *		NULL for a task context, whose owner may not see it
 *
 * Every counter that asked (context_switch) and is counting gets one.
 */
void pc_ctx_switch_records(struct perf_counter_context *ctx, u32 kind,
			   struct task_struct *task, struct task_struct *other)
{
	struct perf_counter *leader, *member;

	list_for_each_entry(leader, &ctx->groups, group_entry) {
		if (leader->state != PC_STATE_ACTIVE)
			continue;
		if (leader->hw_event.context_switch)
			pc_switch_record(leader, kind, task, other);
		list_for_each_entry(member, &leader->siblings, group_entry)
			if (member->hw_event.context_switch &&
			    member->state == PC_STATE_ACTIVE)
				pc_switch_record(member, kind, task, other);
	}
}
