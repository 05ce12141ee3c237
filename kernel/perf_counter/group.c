// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: groups.
 *
 * A group is a leader and its members. It goes onto the CPU as a unit —
 * every enabled member with the leader, or none of them — so the members'
 * values cover the same instructions and can be compared. Disabling the
 * leader stops the whole group; disabling a member stops only it.
 */
#include "internal.h"

/**
 * pc_group_sched_in() - put an enabled group on this CPU, all or nothing
 * @leader:	the group leader, under ctx->lock with irqs off
 * @ctx_time:	the context's time now
 *
 * The mechanism only: what becomes of a group that cannot go on is
 * pc_group_missed()'s to say (rotate.c), for every caller.
 *
 * Return: 0, or the error of the counter that could not start.
 */
int pc_group_sched_in(struct perf_counter *leader, u64 ctx_time)
{
	struct perf_counter *member, *failed;
	int err;

	pc_assert_counter_locked(leader);
	if (leader->state != PC_STATE_INACTIVE)
		return 0;
	if (leader->cpu >= 0 && leader->cpu != smp_processor_id())
		return 0;

	err = pc_counter_sched_in(leader, ctx_time);
	if (err)
		return err;
	pc_for_each_member(member, leader) {
		err = pc_counter_sched_in(member, ctx_time);
		if (err) {
			failed = member;
			goto undo;
		}
	}
	return 0;

undo:
	pc_for_each_member(member, leader) {
		if (member == failed)
			break;
		pc_counter_sched_out(member, ctx_time);
	}
	pc_counter_sched_out(leader, ctx_time);
	return err;
}

/* Take a group off the CPU; its members keep their own states. */
void pc_group_sched_out(struct perf_counter *leader, u64 ctx_time)
{
	struct perf_counter *member;

	pc_for_each_member(member, leader)
		pc_counter_sched_out(member, ctx_time);
	pc_counter_sched_out(leader, ctx_time);
}

/*
 * A counter was enabled or added: put it on if its group is on. A member
 * that cannot join its running group takes the group off with it — all or
 * nothing — until the group fits again.
 */
static void pc_member_sched_in(struct perf_counter_context *ctx,
			       struct perf_counter *counter, u64 now)
{
	struct perf_counter *leader = counter->leader;

	if (!ctx->is_active)
		return;
	if (leader == counter) {
		pc_ctx_group_in(ctx, counter, now);
	} else if (leader->state == PC_STATE_ACTIVE &&
		   pc_counter_sched_in(counter, now)) {
		pc_group_sched_out(leader, now);
		pc_group_missed(ctx, leader, now);
	}
}

/**
 * pc_ctx_link() - put a counter on its context's lists
 * @ctx:	the context, under ctx->lock, its mutex held by the caller's
 *		task (across pc_ctx_call(), which may run this on another
 *		CPU, where lockdep cannot see it)
 * @counter:	a counter on no context's lists, @counter->leader set: the
 *		counter itself to lead a group, else the group's leader
 *
 * The one way a counter joins a context: an install, and fork's copies
 * (inherit.c). The context's reference to the counter is the caller's to
 * take; putting the counter on the CPU is the caller's too.
 */
void pc_ctx_link(struct perf_counter_context *ctx, struct perf_counter *counter)
{
	lockdep_assert_held(&ctx->lock);
	if (pc_is_leader(counter))
		list_add_tail(&counter->group_entry, &ctx->groups);
	else
		list_add_tail(&counter->group_entry, &counter->leader->siblings);
	counter->attached = true;
	ctx->nr_counters++;
	if (!ctx->task && counter->hw_event.exclude_idle)
		WRITE_ONCE(ctx->nr_exclude_idle, ctx->nr_exclude_idle + 1);
	if (pc_freq_retuned(counter))
		WRITE_ONCE(ctx->nr_freq, ctx->nr_freq + 1);
	pc_ctx_changed(ctx);
}

/**
 * pc_ctx_unlink() - take a counter off its context's lists
 * @ctx:	the context, under ctx->lock, its mutex held as for
 *		pc_ctx_link()
 * @counter:	a counter on them, off the CPU
 * @ctx_time:	the context's time now
 *
 * The one way a counter leaves a context: a removal, and its task's
 * teardown (inherit.c). The members of a leader that leaves lead groups
 * of one, at the end of @ctx->groups, and go on if the context is active
 * and they fit. The context's reference is the caller's to drop.
 */
void pc_ctx_unlink(struct perf_counter_context *ctx,
		   struct perf_counter *counter, u64 ctx_time)
{
	struct perf_counter *member, *tmp;
	LIST_HEAD(orphans);

	lockdep_assert_held(&ctx->lock);
	list_del_init(&counter->group_entry);
	list_splice_init(&counter->siblings, &orphans);
	counter->leader = counter;
	counter->attached = false;
	ctx->nr_counters--;
	if (counter->page)
		WRITE_ONCE(ctx->nr_pages, ctx->nr_pages - 1);
	if (!ctx->task && counter->hw_event.exclude_idle)
		WRITE_ONCE(ctx->nr_exclude_idle, ctx->nr_exclude_idle - 1);
	if (pc_freq_retuned(counter))
		WRITE_ONCE(ctx->nr_freq, ctx->nr_freq - 1);
	pc_ctx_changed(ctx);

	list_for_each_entry_safe(member, tmp, &orphans, group_entry) {
		list_move_tail(&member->group_entry, &ctx->groups);
		member->leader = member;
		pc_member_sched_in(ctx, member, ctx_time);
	}
}

static void __pc_install(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;
	u64 now = pc_ctx_update_time(ctx);

	counter->tstamp = now;
	pc_ctx_link(ctx, counter);
	pc_member_sched_in(ctx, counter, now);
}

/**
 * pc_install() - add a counter to its context, alone or in a group
 * @counter:	a new counter; counter->ctx (a reference it holds) says
 *		which context
 * @leader:	the group to join, or NULL to lead a group of its own
 *
 * The context takes a reference to the counter. An enabled counter
 * starts counting at once if the context is active.
 *
 * Return: 0, -ESRCH if the context's task has exited, or -ENOSPC if
 * the group's hardware counters could never all be on at once, or its
 * leader's group records (samples, TOTALS) would no longer fit the
 * leader's queue.
 */
int pc_install(struct perf_counter *counter, struct perf_counter *leader)
{
	struct perf_counter_context *ctx = counter->ctx;
	int err = 0;

	mutex_lock(&ctx->mutex);
	if (ctx->dead || (leader && !leader->attached))
		err = -ESRCH;
	else if (leader)
		err = pc_hw_group_fits(leader, counter) ?:
		      pc_group_record_fits(leader);
	if (!err) {
		counter->leader = leader ?: counter;
		pc_counter_get(counter);
		pc_ctx_call_locked(ctx, __pc_install, counter);
		if (leader)
			pc_read_group_join(counter, leader);
	}
	mutex_unlock(&ctx->mutex);
	return err;
}

static void __pc_remove(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;
	u64 now;

	lockdep_assert_held(&ctx->lock);
	if (!counter->attached)
		return;
	now = pc_ctx_update_time(ctx);
	pc_counter_sched_out(counter, now);
	pc_ctx_unlink(ctx, counter, now);
}

/**
 * pc_remove() - take a counter out of its context
 * @counter:	the counter; it may have been detached already (its task
 *		exited), in which case it only leaves its group read
 *
 * Drops the context's reference to the counter. May sleep.
 */
void pc_remove(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;
	bool was_attached;

	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	was_attached = counter->attached;
	if (was_attached)
		pc_ctx_call_locked(ctx, __pc_remove, counter);
	pc_read_group_leave(counter);
	mutex_unlock(&ctx->mutex);
	if (was_attached)
		pc_counter_put(counter);
}

/*
 * Where @ctx is (a pc_ctx_fn): enable the counter @info, which goes on
 * if its group is on (or, a leader, if its group fits). The ioctl's and
 * prctl()'s (prctl.c).
 */
void __pc_enable(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;
	u64 now;

	lockdep_assert_held(&ctx->lock);
	if (!counter->attached || counter->state >= PC_STATE_INACTIVE)
		return;
	now = pc_ctx_update_time(ctx);
	pc_counter_set_state(counter, PC_STATE_INACTIVE, now);
	pc_member_sched_in(ctx, counter, now);
}

/* Where @ctx is: disable the counter @info, a leader with its group. */
void __pc_disable(struct perf_counter_context *ctx, void *info)
{
	struct perf_counter *counter = info;
	u64 now;

	lockdep_assert_held(&ctx->lock);
	if (!counter->attached || counter->state == PC_STATE_OFF)
		return;
	now = pc_ctx_update_time(ctx);
	if (pc_is_leader(counter))
		pc_group_sched_out(counter, now);
	else
		pc_counter_sched_out(counter, now);
	pc_counter_set_state(counter, PC_STATE_OFF, now);
}

static void pc_counter_apply(struct perf_counter *counter, pc_ctx_fn fn)
{
	struct perf_counter *child;

	pc_ctx_call(counter->ctx, fn, counter);
	mutex_lock(&counter->child_mutex);
	list_for_each_entry(child, &counter->children, child_entry)
		pc_ctx_call(child->ctx, fn, child);
	mutex_unlock(&counter->child_mutex);
}

/**
 * pc_counter_enable() - PERF_COUNTER_IOC_ENABLE
 * @counter: a top-level counter
 *
 * Enables the counter and its inherited copies; a leader brings its
 * group back on, a counter in the error state gets another chance.
 */
void pc_counter_enable(struct perf_counter *counter)
{
	pc_counter_apply(counter, __pc_enable);
}

/**
 * pc_counter_disable() - PERF_COUNTER_IOC_DISABLE
 * @counter: a top-level counter
 *
 * Disables the counter and its inherited copies; the values are kept.
 */
void pc_counter_disable(struct perf_counter *counter)
{
	pc_counter_apply(counter, __pc_disable);
}
