// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: what a counter reads as — its value, its times and its
 * id, or its whole group's (PERF_FORMAT_GROUP) — for read() of a
 * counting counter, the READ ioctl of any counter, and the TOTALS
 * records an exiting task leaves in an inherit_stat counter's queue.
 *
 * A group read takes the counts of the group's own task (or CPU) in one
 * call where its context is, under ctx->lock: one instant for all of
 * them, so that two counters of one thing agree. An inherited group
 * then adds, counter by counter, what its exited children folded in and
 * what each live child's copy has counted, each copy read at an instant
 * of its own, as read() of one counter does.
 *
 * The members a group read gives are the leader's @read_members, under
 * ctx->mutex: the group as it was opened. A task's exit dissolves the
 * groups on its context (@siblings), for its counters to leave it one
 * by one; @read_members stays, so that a tool reads a whole group once
 * its workload has gone.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "internal.h"

/* Words a group read of a few counters takes on the stack. */
#define PC_READ_STACK_WORDS	36

/**
 * pc_read_group_join() - a new member joins its leader's group read
 * @counter:	the member, being installed
 * @leader:	its group's leader
 *
 * Under the context's mutex (pc_install()).
 */
void pc_read_group_join(struct perf_counter *counter,
			struct perf_counter *leader)
{
	lockdep_assert_held(&leader->ctx->mutex);
	list_add_tail(&counter->read_entry, &leader->read_members);
	counter->read_leader = leader;
	leader->read_nr++;
}

/**
 * pc_read_group_leave() - a counter leaves its group read, or a leader
 * ends its own
 * @counter:	a top-level counter being removed
 *
 * Under the context's mutex (pc_remove()). The members of a leader that
 * leaves lead groups of one, as they do on the context.
 */
void pc_read_group_leave(struct perf_counter *counter)
{
	struct perf_counter *member, *tmp;

	lockdep_assert_held(&counter->ctx->mutex);
	if (!list_empty(&counter->read_entry)) {
		list_del_init(&counter->read_entry);
		counter->read_leader->read_nr--;
	}
	list_for_each_entry_safe(member, tmp, &counter->read_members,
				 read_entry)
		list_del_init(&member->read_entry);
	counter->read_nr = 1;
}

/**
 * pc_read_words() - the words read() of a counting counter returns,
 * not of a group
 * @counter:	a top-level counter; the caller holds a reference
 * @out:	room for four words
 *
 * Return: the bytes: the value, then the times and the id its
 * read_format asks for.
 */
size_t pc_read_words(struct perf_counter *counter, u64 *out)
{
	u64 format = counter->hw_event.read_format;
	struct pc_values vals;
	size_t n = 0;

	pc_counter_read(counter, &vals);
	out[n++] = vals.value;
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = vals.time_enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = vals.time_running;
	if (format & PERF_FORMAT_ID)
		out[n++] = counter->id;
	return n * sizeof(u64);
}

/*
 * A group read in the making: the words of the layout (the uapi
 * header's), the counters' values at @word[@first + i * @stride].
 */
struct pc_group_read {
	struct perf_counter	*leader;
	u64			*word;
	size_t			first;
	size_t			stride;
	struct pc_values	times;	/* the leader's */
};

/* Where the group's context is: every count of one instant. */
static void __pc_group_read(struct perf_counter_context *ctx, void *info)
{
	struct pc_group_read *req = info;
	struct perf_counter *leader = req->leader, *member;
	u64 now = pc_ctx_update_time(ctx);
	size_t at = req->first;

	lockdep_assert_held(&ctx->lock);
	pc_counter_fold(leader, now);
	req->word[at] = atomic64_read(&leader->count);
	req->times.time_enabled = leader->time_enabled;
	req->times.time_running = leader->time_running;
	/* @read_members: stable, the caller holds ctx->mutex */
	list_for_each_entry(member, &leader->read_members, read_entry) {
		at += req->stride;
		pc_counter_fold(member, now);
		req->word[at] = atomic64_read(&member->count);
	}
}

/*
 * Add what @counter's children counted to its value at @at (and their
 * times to @times), and put its id after it if asked for.
 */
static void pc_read_group_add(struct pc_group_read *req,
			      struct perf_counter *counter, size_t at,
			      u64 format, struct pc_values *times)
{
	struct pc_values child = { };

	if (format & PERF_FORMAT_ID)
		req->word[at + 1] = counter->id;
	/* the common case, a counter that never had a child: no call */
	if (!READ_ONCE(counter->had_children))
		return;
	pc_counter_read_children(counter, &child);
	req->word[at] += child.value;
	if (times) {
		times->time_enabled += child.time_enabled;
		times->time_running += child.time_running;
	}
}

/*
 * Fill @req->word, sized for the group, with its read; ctx->mutex held.
 * Children's counts are added after the instant the task's were taken.
 */
static void pc_read_group_fill(struct pc_group_read *req, u64 format,
			       u32 nr)
{
	struct perf_counter *leader = req->leader, *member;
	size_t at = req->first, n = 0;

	pc_ctx_call(leader->ctx, __pc_group_read, req);
	pc_read_group_add(req, leader, at, format, &req->times);
	list_for_each_entry(member, &leader->read_members, read_entry) {
		at += req->stride;
		pc_read_group_add(req, member, at, format, NULL);
	}
	req->word[n++] = nr;
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		req->word[n++] = req->times.time_enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		req->word[n++] = req->times.time_running;
}

/*
 * The words of @counter's read, into @stack (PC_READ_STACK_WORDS) or a
 * buffer allocated here: *@out says which, to free if not @stack.
 *
 * Return: the bytes, -ENOSPC if more than @count, or -ENOMEM.
 */
static ssize_t pc_values_words(struct perf_counter *counter, size_t count,
			       u64 *stack, u64 **out)
{
	struct perf_counter_context *ctx = counter->ctx;
	u64 format = counter->hw_event.read_format;
	struct pc_group_read req = { .leader = counter };
	size_t size;
	u32 nr;

	*out = stack;
	if (!(format & PERF_FORMAT_GROUP)) {
		if (count < pc_read_size(format, 1))
			return -ENOSPC;
		return pc_read_words(counter, stack);
	}

	mutex_lock(&ctx->mutex);
	nr = counter->read_nr;
	size = pc_read_size(format, nr);
	if (count < size) {
		mutex_unlock(&ctx->mutex);
		return -ENOSPC;
	}
	if (size > PC_READ_STACK_WORDS * sizeof(u64)) {
		*out = kvmalloc(size, GFP_KERNEL_ACCOUNT);
		if (!*out) {
			mutex_unlock(&ctx->mutex);
			return -ENOMEM;
		}
	}
	req.word = *out;
	req.first = 1 + !!(format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	req.stride = 1 + !!(format & PERF_FORMAT_ID);
	pc_read_group_fill(&req, format, nr);
	/* copied out after: a fault may not be taken under ctx->mutex */
	mutex_unlock(&ctx->mutex);
	return size;
}

/**
 * pc_read_values() - what read() of a counting counter returns, to user
 * memory
 * @counter:	a top-level counter; the caller holds a reference
 * @buf:	where to
 * @count:	the bytes there
 *
 * The value, times and id, or with PERF_FORMAT_GROUP (a leader's) its
 * group's (see the uapi header). May sleep.
 *
 * Return: the bytes written, or -ENOSPC (@count too small for them),
 * -ENOMEM or -EFAULT.
 */
ssize_t pc_read_values(struct perf_counter *counter, char __user *buf,
		       size_t count)
{
	u64 stack[PC_READ_STACK_WORDS], *out;
	ssize_t size;

	size = pc_values_words(counter, count, stack, &out);
	if (size > 0 && copy_to_user(buf, out, size))
		size = -EFAULT;
	if (out != stack)
		kvfree(out);
	return size;
}

/**
 * pc_read_values_iter() - pc_read_values() for readv() and the like
 * @counter:	a top-level counter; the caller holds a reference
 * @to:		where to
 *
 * Return: as pc_read_values().
 */
ssize_t pc_read_values_iter(struct perf_counter *counter,
			    struct iov_iter *to)
{
	u64 stack[PC_READ_STACK_WORDS], *out;
	ssize_t size;

	size = pc_values_words(counter, iov_iter_count(to), stack, &out);
	if (size > 0 && copy_to_iter(out, size, to) != size)
		size = -EFAULT;
	if (out != stack)
		kvfree(out);
	return size;
}

/* The counters of @counter's TOTALS record: its group's, or itself. */
static u32 pc_totals_nr(struct perf_counter *counter, u32 joining)
{
	struct perf_counter *member;
	u32 nr = 1 + joining;

	if (!(counter->hw_event.read_format & PERF_FORMAT_GROUP))
		return 1;
	pc_for_each_member(member, counter)
		nr++;
	return nr;
}

/**
 * pc_totals_words() - the words of a counter's TOTALS record
 * @counter:	a counter, its group stable (ctx->mutex or ctx->lock held)
 * @joining:	members about to join its group
 *
 * Return: 0 for a counter without inherit_stat; else the record's
 * words, header included.
 */
u32 pc_totals_words(struct perf_counter *counter, u32 joining)
{
	u64 format = counter->hw_event.read_format;

	if (!counter->hw_event.inherit_stat)
		return 0;
	/* header, pid and tid, time, then the read */
	return 3 + pc_read_size(format, pc_totals_nr(counter, joining)) /
		   sizeof(u64);
}

/* One counter's own count and times, as they are at its task's exit. */
static void pc_totals_put_one(struct pc_queue *q, unsigned long *at,
			      struct perf_counter *counter, u64 format,
			      bool times)
{
	pc_queue_put(q, at, atomic64_read(&counter->count));
	if (times && (format & PERF_FORMAT_TOTAL_TIME_ENABLED))
		pc_queue_put(q, at, counter->time_enabled);
	if (times && (format & PERF_FORMAT_TOTAL_TIME_RUNNING))
		pc_queue_put(q, at, counter->time_running);
	if (format & PERF_FORMAT_ID)
		pc_queue_put(q, at, counter->id);
}

/* @counter's TOTALS record for @task, if it asked; under ctx->lock. */
static void pc_totals_write(struct perf_counter *counter,
			    struct task_struct *task, u64 now)
{
	struct perf_counter *top = counter->parent ?: counter;
	u64 format = counter->hw_event.read_format;
	struct pc_queue *q = top->queue;
	struct perf_counter *member;
	unsigned long flags, at;

	if (!counter->hw_event.inherit_stat || !q)
		return;
	pc_counter_update_times(counter, now);
	pc_queue_lock(q, &flags);
	if (!pc_queue_reserve(q, PERF_COUNTER_REC_TOTALS,
			      pc_totals_words(counter, 0), &at))
		goto unlock;
	pc_queue_put(q, &at, pc_task_ids(task, top->pid_ns));
	pc_queue_put(q, &at, ktime_get_mono_fast_ns());
	if (!(format & PERF_FORMAT_GROUP)) {
		pc_totals_put_one(q, &at, counter, format, true);
	} else {
		pc_queue_put(q, &at, pc_totals_nr(counter, 0));
		if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			pc_queue_put(q, &at, counter->time_enabled);
		if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			pc_queue_put(q, &at, counter->time_running);
		pc_totals_put_one(q, &at, counter, format, false);
		pc_for_each_member(member, counter)
			pc_totals_put_one(q, &at, member, format, false);
	}
	pc_queue_commit(q, at);
unlock:
	pc_queue_unlock(q, flags);
}

/**
 * pc_totals_exit() - the TOTALS records of an exiting task
 * @ctx:	@task's context, under its lock, its counters just stopped
 * @task:	current, exiting
 *
 * For each counter of the context with inherit_stat (the task's own
 * top-level counters, and the copies it inherited, whose records go to
 * their top-level counter's queue), what the task itself counted on it.
 */
void pc_totals_exit(struct perf_counter_context *ctx,
		    struct task_struct *task)
{
	struct perf_counter *leader, *member;

	lockdep_assert_held(&ctx->lock);
	pc_for_each_leader(leader, ctx) {
		pc_totals_write(leader, task, ctx->time);
		pc_for_each_member(member, leader)
			pc_totals_write(member, task, ctx->time);
	}
}
