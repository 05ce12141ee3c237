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
		counter->read_leader = NULL;
	}
	list_for_each_entry_safe(member, tmp, &counter->read_members,
				 read_entry) {
		list_del_init(&member->read_entry);
		member->read_leader = NULL;
	}
	counter->read_nr = 1;
}

/*
 * The words read() of a counting counter returns, not of a group, into
 * @out (room for four): the value, then the times and the id its
 * read_format asks for. Return: their bytes.
 */
static size_t pc_read_words(struct perf_counter *counter, u64 *out)
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

/* Group reads of up to this many counters are built on the stack. */
#define PC_READ_STACK_NR	16

/* A group read's room: on the stack, or allocated for a larger group. */
struct pc_read_room {
	u64			word[3 + 2 * PC_READ_STACK_NR];
	struct perf_counter	*held[PC_READ_STACK_NR];
};

/*
 * A group read in the making: the words of the layout (the uapi
 * header's), the counters' values at @word[@first + i * @stride]; the
 * counters that had children, each held for its second step (@held[i],
 * NULL for the others).
 */
struct pc_group_read {
	struct perf_counter	*leader;
	u64			format;
	u32			nr;
	size_t			size;		/* bytes of the read */
	u64			*word;
	struct perf_counter	**held;
	void			*alloc;		/* @word and @held, or NULL */
	size_t			first;
	size_t			stride;
	struct pc_values	times;		/* the leader's */
};

/* One counter of a group read: its count now, and its id. */
static void pc_group_read_one(struct pc_group_read *req,
			      struct perf_counter *counter, size_t at, u64 now)
{
	pc_counter_fold(counter, now);
	req->word[at] = atomic64_read(&counter->count);
	if (req->format & PERF_FORMAT_ID)
		req->word[at + 1] = counter->id;
}

/*
 * Where the group's context is: every count of one instant, and the
 * ids. @read_members is stable: the caller holds ctx->mutex.
 */
static void __pc_group_read(struct perf_counter_context *ctx, void *info)
{
	struct pc_group_read *req = info;
	struct perf_counter *leader = req->leader, *member;
	u64 now = pc_ctx_update_time(ctx);
	size_t at = req->first;

	lockdep_assert_held(&ctx->lock);
	pc_group_read_one(req, leader, at, now);
	req->times.time_enabled = leader->time_enabled;
	req->times.time_running = leader->time_running;
	list_for_each_entry(member, &leader->read_members, read_entry) {
		at += req->stride;
		pc_group_read_one(req, member, at, now);
	}
}

/*
 * Room for the read of a group of @req->nr counters in @room, or
 * allocated. Return: 0, -ENOSPC if the read is more than @count bytes,
 * or -ENOMEM.
 */
static int pc_group_room(struct pc_group_read *req, size_t count,
			 struct pc_read_room *room)
{
	req->size = pc_read_size(req->format, req->nr);
	if (count < req->size)
		return -ENOSPC;
	if (req->nr <= PC_READ_STACK_NR) {
		req->word = room->word;
		req->held = room->held;
		return 0;
	}
	req->alloc = kvmalloc(req->size + req->nr * sizeof(*req->held),
			      GFP_KERNEL);
	if (!req->alloc)
		return -ENOMEM;
	req->word = req->alloc;
	req->held = req->alloc + req->size;
	return 0;
}

static void pc_group_room_free(struct pc_group_read *req)
{
	kvfree(req->alloc);
	req->alloc = NULL;
}

/*
 * Under ctx->mutex: the group's counts of one instant, and a reference
 * to each counter that ever had an inherited copy, whose children are
 * read once the mutex is dropped (a fork or exit of the task waits on
 * it meanwhile, and reading children is a call to each one's CPU).
 */
static void pc_group_snapshot(struct pc_group_read *req)
{
	struct perf_counter *counter = req->leader;
	u32 i = 0;

	pc_ctx_call(req->leader->ctx, __pc_group_read, req);
	req->held[i++] = NULL;
	if (READ_ONCE(counter->had_children)) {
		pc_counter_get(counter);
		req->held[0] = counter;
	}
	list_for_each_entry(counter, &req->leader->read_members, read_entry) {
		req->held[i] = NULL;
		if (READ_ONCE(counter->had_children)) {
			pc_counter_get(counter);
			req->held[i] = counter;
		}
		i++;
	}
}

/* After the mutex: the children's counts, and the header words. */
static void pc_group_children(struct pc_group_read *req)
{
	struct pc_values child;
	size_t at = req->first, n = 0;
	u32 i;

	for (i = 0; i < req->nr; i++, at += req->stride) {
		if (!req->held[i])
			continue;
		child = (struct pc_values){ };
		pc_counter_read_children(req->held[i], &child);
		req->word[at] += child.value;
		if (i == 0) {
			req->times.time_enabled += child.time_enabled;
			req->times.time_running += child.time_running;
		}
		pc_counter_put(req->held[i]);
	}
	req->word[n++] = req->nr;
	if (req->format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		req->word[n++] = req->times.time_enabled;
	if (req->format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		req->word[n++] = req->times.time_running;
}

/*
 * @leader's group read into @req's room (@room, or allocated: to free
 * with pc_group_room_free()). The room is found before the mutex is
 * taken, for the group as it is then; a group that changed meanwhile
 * gets its room again under the mutex.
 *
 * Return: the bytes, -ENOSPC if more than @count, -EAGAIN if @nowait
 * and the group is being changed, or -ENOMEM.
 */
static ssize_t pc_group_words(struct perf_counter *leader, size_t count,
			      bool nowait, struct pc_group_read *req,
			      struct pc_read_room *room)
{
	struct perf_counter_context *ctx = leader->ctx;
	int err;

	req->leader = leader;
	req->format = leader->hw_event.read_format;
	req->first = 1 + !!(req->format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(req->format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	req->stride = 1 + !!(req->format & PERF_FORMAT_ID);
	req->nr = READ_ONCE(leader->read_nr);
	err = pc_group_room(req, count, room);
	if (err)
		return err;
	if (!nowait) {
		mutex_lock(&ctx->mutex);
	} else if (!mutex_trylock(&ctx->mutex)) {
		pc_group_room_free(req);
		return -EAGAIN;
	}
	if (req->nr != leader->read_nr) {
		pc_group_room_free(req);
		req->nr = leader->read_nr;
		err = pc_group_room(req, count, room);
		if (err) {
			mutex_unlock(&ctx->mutex);
			return err;
		}
	}
	pc_group_snapshot(req);
	/* copied out after, too: no fault is taken under ctx->mutex */
	mutex_unlock(&ctx->mutex);
	pc_group_children(req);
	return req->size;
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
	struct pc_group_read req = { };
	struct pc_read_room room;
	ssize_t size;

	if (!(counter->hw_event.read_format & PERF_FORMAT_GROUP)) {
		if (count < pc_read_size(counter->hw_event.read_format, 1))
			return -ENOSPC;
		size = pc_read_words(counter, room.word);
		if (copy_to_user(buf, room.word, size))
			return -EFAULT;
		return size;
	}
	size = pc_group_words(counter, count, false, &req, &room);
	if (size > 0 && copy_to_user(buf, req.word, size))
		size = -EFAULT;
	pc_group_room_free(&req);
	return size;
}

/**
 * pc_read_values_iter() - pc_read_values() for readv() and the like
 * @counter:	a top-level counter; the caller holds a reference
 * @to:		where to
 * @nowait:	IOCB_NOWAIT: -EAGAIN rather than wait for a group being
 *		changed
 *
 * Return: as pc_read_values(), or -EAGAIN.
 */
ssize_t pc_read_values_iter(struct perf_counter *counter,
			    struct iov_iter *to, bool nowait)
{
	struct pc_group_read req = { };
	struct pc_read_room room;
	ssize_t size;

	if (!(counter->hw_event.read_format & PERF_FORMAT_GROUP)) {
		if (iov_iter_count(to) <
		    pc_read_size(counter->hw_event.read_format, 1))
			return -ENOSPC;
		size = pc_read_words(counter, room.word);
		if (copy_to_iter(room.word, size, to) != size)
			return -EFAULT;
		return size;
	}
	size = pc_group_words(counter, iov_iter_count(to), nowait, &req,
			      &room);
	if (size > 0 && copy_to_iter(req.word, size, to) != size)
		size = -EFAULT;
	pc_group_room_free(&req);
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

/*
 * @counter's TOTALS record for @task, if it asked; under ctx->lock. A
 * group's is written a word at a time with irqs off: a few words a
 * member, and no record is larger than its queue (1 MiB at most).
 */
static void pc_totals_write(struct perf_counter *counter,
			    struct task_struct *task, u64 now)
{
	struct perf_counter *top = counter->parent ?: counter;
	u64 format = counter->hw_event.read_format;
	struct pc_queue *q = top->queue ? pc_counter_out(top) : NULL;
	struct perf_counter *member;
	unsigned long flags, at;

	if (!counter->hw_event.inherit_stat || !q)
		return;
	/* a counter in error reads as end of file: none would be read */
	if (READ_ONCE(top->state) == PC_STATE_ERROR)
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
