// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: inheritance.
 *
 * At fork, each group whose leader has the inherit bit is copied into
 * the child's context. Every copy points at the top-level counter (the
 * one with the file descriptor), however deep the descendant, and sits
 * on that counter's children list. When the child exits its copies fold
 * their values and times into the top-level counter. Only tasks forked
 * after the counter was made are counted: copies are made at fork, never
 * pushed into tasks that already exist.
 *
 * Whoever takes a copy off its top-level counter's children list — the
 * exiting child folding it, or the top-level counter's release — drops
 * the reference that list held.
 */
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "internal.h"

/*
 * Link a copy of @orig into @ctx, in @leader's group (or its own).
 *
 * Return: the copy, NULL if @orig's top-level counter is being released
 * (its file closed: no new copy may outlive it), or an ERR_PTR().
 */
static struct perf_counter *pc_inherit_counter(struct perf_counter *orig,
					       struct perf_counter_context *ctx,
					       struct perf_counter *leader)
{
	struct perf_counter_hw_event_ext desc = pc_counter_desc(orig);
	struct perf_counter *top = orig->parent ?: orig;
	struct perf_counter *copy;

	copy = pc_counter_alloc(&desc, orig->extra_config, orig->ops,
				orig->cpu, top);
	if (IS_ERR(copy))
		return copy;
	/* a monitor's counter stays the monitor's in the forked child */
	copy->prctl_exempt = orig->prctl_exempt;
	pc_ctx_get(ctx);
	copy->ctx = ctx;
	copy->leader = leader ?: copy;

	/* Joining @top's children and the release are ordered by its mutex. */
	mutex_lock(&top->child_mutex);
	if (top->released) {
		mutex_unlock(&top->child_mutex);
		pc_counter_put(copy);
		return NULL;
	}
	/*
	 * An enable or disable changes @top, then every copy on its list
	 * under this mutex: read here, @orig's state is either the new one
	 * or the walk is still to come and will find this copy.
	 */
	copy->state = READ_ONCE(orig->state) >= PC_STATE_INACTIVE ?
		      PC_STATE_INACTIVE : PC_STATE_OFF;
	/* The period, as the state: the PERIOD ioctl holds the mutex too. */
	pc_period_inherit(copy, orig);
	/* The child has not run: its context is not active anywhere. */
	raw_spin_lock_irq(&ctx->lock);
	pc_ctx_link(ctx, copy);
	raw_spin_unlock_irq(&ctx->lock);
	/* The allocation's reference is now the context's. */

	pc_counter_get(copy);
	/* Before the copy is seen or counts: see pc_counter_read(). */
	WRITE_ONCE(top->had_children, true);
	list_add_tail(&copy->child_entry, &top->children);
	mutex_unlock(&top->child_mutex);
	return copy;
}

/*
 * Copy a group. A leader whose top-level counter is being released is
 * not copied, and its members lead groups of one, as they will in the
 * parent once the release takes the leader out.
 */
static int pc_inherit_group(struct perf_counter *leader,
			    struct perf_counter_context *ctx, bool *whole)
{
	struct perf_counter *copy, *member, *m;

	copy = pc_inherit_counter(leader, ctx, NULL);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	*whole &= !!copy;
	pc_for_each_member(member, leader) {
		m = pc_inherit_counter(member, ctx, copy);
		if (IS_ERR(m))
			return PTR_ERR(m);
		*whole &= !!m;
	}
	return 0;
}

/*
 * Could a clone stand in for @ctx at a swap? Under ctx->lock. A parent
 * (@parent) must hold nothing a clone lacks, and nothing that writes
 * records: bringing it home freezes it, and a frozen context would
 * write no switch records (home.c).
 */
static bool pc_ctx_all_swappable(struct perf_counter_context *ctx,
				 bool parent)
{
	struct perf_counter *leader, *member;

	pc_for_each_leader(leader, ctx) {
		if (!pc_counter_swappable(leader) ||
		    (parent && (!leader->hw_event.inherit || leader->queue)))
			return false;
		pc_for_each_member(member, leader)
			if (!pc_counter_swappable(member) ||
			    (parent && member->queue))
				return false;
	}
	return true;
}

/*
 * @ctx holds @parent_ctx's inherited groups, copied while @parent_ctx
 * was snapshot @snapshot: it is a clone of that snapshot if every group
 * was copied whole, @parent_ctx did not change meanwhile (a state change
 * under its lock alone clears its number), and no copy would show that
 * it changed tasks (pc_counter_swappable()). A parent that holds only
 * counters its clones copied, each swappable, swaps with them too
 * (home.c).
 */
static void pc_ctx_clone_made(struct perf_counter_context *parent_ctx,
			      struct perf_counter_context *ctx, u64 snapshot,
			      bool whole)
{
	bool same;

	raw_spin_lock_irq(&parent_ctx->lock);
	same = (parent_ctx->clone_id ?: parent_ctx->snapshot) == snapshot;
	/*
	 * An open between its bind and its install, or a context an open
	 * or prctl() brought home, gets no number: see home.c. A parent
	 * whose every counter may swap has copies that may too.
	 */
	if (whole && same && !parent_ctx->clone_id &&
	    !parent_ctx->opening && !parent_ctx->homed &&
	    pc_ctx_all_swappable(parent_ctx, true))
		parent_ctx->swap_id = snapshot;
	raw_spin_unlock_irq(&parent_ctx->lock);

	/* The child has not run: its context is not active anywhere. */
	raw_spin_lock_irq(&ctx->lock);
	whole &= pc_ctx_all_swappable(ctx, false);
	ctx->clone_id = whole && same ? snapshot : 0;
	ctx->swap_id = ctx->clone_id;
	raw_spin_unlock_irq(&ctx->lock);
}

/*
 * current's context, pinned so that no swap takes it from current, and
 * its mutex, so that nothing is installed or removed while it is
 * copied. Bringing a context home moves pinned contexts too (home.c),
 * under their mutexes: once the mutex is held the pointer is looked at
 * again, so a fork never copies a context that came home to another
 * task meanwhile, nor counters opened there since. One homing can move
 * current's context (it holds at most one context that is not its own,
 * and its own comes home once): the third look is the last.
 */
static struct perf_counter_context *pc_parent_ctx_lock(void)
{
	struct perf_counter_context *ctx;
	unsigned int tries;

	for (tries = 0;; tries++) {
		ctx = pc_task_ctx_hold(current, PC_HOLD_PIN);
		if (!ctx)
			return NULL;
		mutex_lock(&ctx->mutex);
		if (rcu_access_pointer(current->perf_counter_ctxp) == ctx ||
		    WARN_ON_ONCE(tries == 2))
			return ctx;
		mutex_unlock(&ctx->mutex);
		pc_ctx_unpin(ctx);
		pc_ctx_put(ctx);
	}
}

/**
 * __perf_counter_init_task() - copy inherited counters into a new task
 * @child: the task being forked by current
 *
 * Return: 0, or -ENOMEM or a security module's refusal of a copy
 * (lsm.c), with nothing left behind.
 */
int __perf_counter_init_task(struct task_struct *child)
{
	struct perf_counter_context *parent_ctx, *ctx = NULL;
	struct perf_counter **leaders;
	unsigned int i, nr;
	u64 snapshot = 0;
	bool whole = true;
	int err = 0;

	parent_ctx = pc_parent_ctx_lock();
	if (!parent_ctx)
		return 0;
	leaders = pc_ctx_leaders(parent_ctx, true, &nr, &snapshot);
	if (IS_ERR(leaders)) {
		err = PTR_ERR(leaders);
		leaders = NULL;
	}
	for (i = 0; i < nr; i++) {
		if (!ctx) {
			ctx = pc_task_ctx_alloc(child);
			if (!ctx) {
				err = -ENOMEM;
				break;
			}
			/*
			 * A copy is on its top-level counter's children list
			 * as soon as it is made, where a release may take it
			 * out: not before its group is whole.
			 */
			mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
			rcu_assign_pointer(child->perf_counter_ctxp, ctx);
		}
		err = pc_inherit_group(leaders[i], ctx, &whole);
		if (err)
			break;
	}
	if (ctx && !err)
		pc_ctx_clone_made(parent_ctx, ctx, snapshot, whole);
	if (ctx)
		mutex_unlock(&ctx->mutex);
	mutex_unlock(&parent_ctx->mutex);
	pc_ctx_unpin(parent_ctx);
	pc_ctx_put(parent_ctx);
	pc_ctx_leaders_free(leaders);

	if (err && ctx)
		pc_task_teardown(child);
	return err;
}

/*
 * A task counter's task has exited (@copy NULL), or one of its copies
 * has (@copy, under top->child_mutex, just taken off): once neither
 * the task nor any copy is left, its queue can get no more records.
 */
static bool pc_records_ended(struct perf_counter *top)
{
	lockdep_assert_held(&top->child_mutex);
	return top->queue && top->task_ended && list_empty(&top->children);
}

/* An exited copy gives its value and times to its top-level counter. */
static void pc_fold_into_parent(struct perf_counter *copy)
{
	struct perf_counter *top = copy->parent;
	bool folded = false;

	mutex_lock(&top->child_mutex);
	if (!list_empty(&copy->child_entry)) {
		list_del_init(&copy->child_entry);
		atomic64_add(atomic64_read(&copy->count), &top->child_count);
		atomic64_add(copy->time_enabled, &top->child_time_enabled);
		atomic64_add(copy->time_running, &top->child_time_running);
		folded = true;
		if (pc_records_ended(top))
			pc_output_end(top);
	}
	mutex_unlock(&top->child_mutex);
	if (folded)
		pc_counter_put(copy);
}

/* The task of top-level counter @counter has exited. */
static void pc_task_ended(struct perf_counter *counter)
{
	mutex_lock(&counter->child_mutex);
	counter->task_ended = true;
	if (pc_records_ended(counter))
		pc_output_end(counter);
	mutex_unlock(&counter->child_mutex);
}

/* An exiting task's context, or NULL. */
static struct perf_counter_context *pc_exiting_ctx(struct task_struct *task)
{
	struct perf_counter_context *ctx;

	/*
	 * Pairs with the PF_EXITING check of pc_task_ctx_get(): no context
	 * is made after it. Nor is one swapped: swaps skip exiting tasks,
	 * and a child whose fork failed never ran.
	 */
	task_lock(task);
	ctx = rcu_dereference_protected(task->perf_counter_ctxp,
					lockdep_is_held(&task->alloc_lock));
	task_unlock(task);
	return ctx;
}

/*
 * Take an exiting task's context off the CPU for good: marked dead, it
 * is never put on again and nothing new is installed.
 */
static void pc_ctx_stop(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	lockdep_assert_held(&ctx->lock);
	pc_ctx_sched_out(ctx);
	ctx->dead = true;
}

/**
 * pc_task_teardown() - end a task's context
 * @task: current at exit, or a child whose fork failed
 *
 * Takes the context off the CPU, marks it dead so nothing new can be
 * installed, dissolves its groups, folds inherited copies into their
 * top-level counters and drops the context's references. Counters opened
 * on the task through a file keep their final values for read().
 */
void pc_task_teardown(struct task_struct *task)
{
	struct perf_counter_context *ctx;
	struct perf_counter *counter, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	ctx = pc_exiting_ctx(task);
	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	raw_spin_lock_irqsave(&ctx->lock, flags);
	pc_ctx_stop(ctx);
	RCU_INIT_POINTER(task->perf_counter_ctxp, NULL);
	/*
	 * Ends: each round takes a counter off, and a leader's members,
	 * leading groups of one now, come round later. The context is off
	 * the CPU and dead: none goes on again.
	 */
	while ((counter = list_first_entry_or_null(&ctx->groups,
						   struct perf_counter,
						   group_entry))) {
		/* Enabled but not on (multiplexed out, another CPU's): */
		pc_counter_update_times(counter, ctx->time);
		pc_ctx_unlink(ctx, counter, ctx->time);
		list_add_tail(&counter->group_entry, &gone);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	mutex_unlock(&ctx->mutex);

	list_for_each_entry_safe(counter, tmp, &gone, group_entry) {
		list_del_init(&counter->group_entry);
		if (counter->parent)
			pc_fold_into_parent(counter);
		else if (counter->queue)
			pc_task_ended(counter);
		pc_counter_put(counter);	/* the context's reference */
	}
	pc_ctx_put(ctx);			/* the task's reference */
}

/*
 * The exiting task's clocks stop here, right before perf_events' exit
 * hook stops theirs; the teardown waits until after that hook. Torn
 * down here, ours would be counted by their clocks, as their teardown
 * was by ours when our one exit hook came after theirs. What their
 * clocks still count and ours do not is their hook's work before its
 * stop (a mutex, the context's pin, its lock): tens of us under TCG.
 * Marked dead, the context is never put on again, even if the task is
 * switched out and in meanwhile.
 */
void __perf_counter_exit_task_stop(struct task_struct *task)
{
	struct perf_counter_context *ctx;
	unsigned long flags;

	/*
	 * A context another task owns goes back to it, and @task's own
	 * comes home, before @task's is stopped (home.c): each ends with
	 * its owner. Exiting, @task swaps no more. The common case, a
	 * child exiting with the context of a parent that waits for it,
	 * needs no more than a swap's locks.
	 */
	if (!pc_ctx_give_back(task)) {
		ctx = pc_task_ctx_hold(task, PC_HOLD_EXIT);
		if (ctx)
			pc_ctx_put(ctx);
	}

	ctx = pc_exiting_ctx(task);
	if (ctx) {
		mutex_lock(&ctx->mutex);
		raw_spin_lock_irqsave(&ctx->lock, flags);
		pc_ctx_stop(ctx);
		/* after the last sample: the counters are off */
		pc_totals_exit(ctx, task);
		pc_sideband_exit(ctx, task);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		mutex_unlock(&ctx->mutex);
	}
	pc_sideband_exit_cpu(task);
}

void __perf_counter_exit_task(struct task_struct *task)
{
	pc_task_teardown(task);
}

/**
 * perf_counter_exec_untrusted() - an exec made current a task its
 * counters' openers may not trace
 * @task:	current, in exec, its new credentials committed, with
 *		exec_update_lock held for writing
 *
 * Called where perf_events drops its events (a setuid or otherwise
 * non-dumpable exec): the task's context ends as at exit, inherited
 * copies folded into their top-level counters and counters opened on
 * it left with their values, so that no sample, call chain or
 * side-band record of the new program reaches the old openers. An open
 * on it from here on is judged by the new credentials (it waits for
 * exec_update_lock). No EXIT record: the task goes on.
 */
void perf_counter_exec_untrusted(struct task_struct *task)
{
	struct perf_counter_context *ctx;

	/* home, and bound: no swap moves it to another task from here */
	ctx = pc_task_ctx_hold(task, PC_HOLD_EXIT);
	if (!ctx)
		return;
	pc_task_teardown(task);
	pc_ctx_put(ctx);		/* the hold's reference */
}

/**
 * perf_counter_free_task() - undo __perf_counter_init_task() for a child
 * whose fork failed
 * @child: the task that will never run
 */
void perf_counter_free_task(struct task_struct *child)
{
	pc_task_teardown(child);
}

/**
 * pc_release_children() - end every inherited copy of a counter
 * @counter: a top-level counter whose file is being released
 *
 * The copies are taken out of their tasks' contexts; their values go
 * with the counter. From here no fork makes a new copy. Each copy
 * leaves @counter->children once, under child_mutex, either here or in
 * its exiting task's fold, and whoever takes it off drops the list's
 * reference.
 */
void pc_release_children(struct perf_counter *counter)
{
	struct perf_counter *child;

	mutex_lock(&counter->child_mutex);
	counter->released = true;
	mutex_unlock(&counter->child_mutex);

	/* Ends: with released set, the list only shrinks. */
	for (;;) {
		mutex_lock(&counter->child_mutex);
		child = list_first_entry_or_null(&counter->children,
						 struct perf_counter,
						 child_entry);
		if (child)
			list_del_init(&child->child_entry);
		mutex_unlock(&counter->child_mutex);
		if (!child)
			break;
		pc_remove(child);
		pc_counter_put(child);		/* the children list's */
	}
}
