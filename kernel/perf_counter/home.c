// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: a parent's context that swapped with a clone, brought home.
 *
 * A task's counters opened through files live in its own context, the
 * context's owner being that task. When every counter there is inherited
 * and could be stood in for by a copy (pc_counter_swappable()), the
 * context swaps at a switch with its children's clones as the clones
 * swap among themselves (swap.c): the owner runs on a clone, the child on
 * the owner's context, and every sum a top-level counter reads stays the
 * same. This is the switch between a tool's process and its workload,
 * or a shell and the command it waits for.
 *
 * A few things are the owner's own and not a sum: a counter opened on
 * it, or into one of its groups, must count the owner from then on;
 * prctl() turns the owner's own counters on and off; the owner's exit
 * ends them; a child's exit folds copies into their top-level counters
 * and must not end a context that is someone else's. Each of those,
 * before it touches a context, brings the owner's context home: that is
 * pc_task_ctx_hold() for anything but a pin, which every one of them
 * calls. Once home the context is bound (pc_ctx_changed()): it swaps
 * again only once its owner's next fork has copied it anew.
 *
 * Bringing it home exchanges it with the context the owner holds, a
 * clone, which goes to the task holding the owner's. The two may be
 * active on two CPUs at once, and no one CPU can take both off. So the
 * owner's context is first frozen where it is (taken off, not put on
 * again by its holder's switches: its holder counts nothing, and its
 * enabled time stands still, for the few microseconds of the next two
 * steps, run with preemption off), then, on the owner's CPU (or here,
 * if it is not running), the clone is taken off, the two change tasks,
 * and the owner's context goes on for the owner at once; last the
 * clone is put on for its new task if that runs. Both contexts'
 * mutexes are held throughout, so nothing is installed in either
 * meanwhile, and the clone is pinned, so it does not swap away from
 * the owner. Only contexts without records swap as parents: a frozen
 * holder would write no switch records.
 *
 * Where the owner's context is, when the owner holds a clone: in the
 * clone's @away. Each swap hands the two tasks' @away on with the
 * contexts they get (swap.c), and an exchange does too. A
 * context with an owner holds a reference to it, so an @owner is
 * always there to follow; the owner's exit brings its context home
 * before it ends it, so an @away never outlives its context.
 *
 * An open or a prctl() that brought a context home marks it @homed: it
 * never swaps as a parent again. So a task's contexts come home once
 * each, and pc_task_ctx_hold()'s loop is bounded however its owner
 * forks and switches meanwhile.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "internal.h"

/* Contexts brought home since boot, for tests to see that they are. */
static atomic_long_t pc_homings = ATOMIC_LONG_INIT(0);

/*
 * Under @ctx->lock, @ctx being @task's: the context @task must have home
 * before its counters can be changed — @ctx itself if it is another
 * task's, else @task's own if @ctx stands in for it — or NULL.
 */
static struct perf_counter_context *
pc_ctx_away(struct perf_counter_context *ctx, struct task_struct *task)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->owner && ctx->owner != task && !ctx->dead)
		return ctx;
	return ctx->away;
}

/**
 * pc_ctx_away_get() - a context to bring home before binding @ctx
 * @ctx:	@task's context, under ctx->lock, the task's pointer to it
 *		checked under the lock
 * @task:	the task
 *
 * Return: the context, with a reference, to pass to pc_ctx_bring_home()
 * and then put; or NULL if @ctx may be bound to @task as it is.
 */
struct perf_counter_context *pc_ctx_away_get(struct perf_counter_context *ctx,
					     struct task_struct *task)
{
	struct perf_counter_context *home = pc_ctx_away(ctx, task);

	/* Its holder's reference keeps it: it is not the last one. */
	if (home && WARN_ON_ONCE(!refcount_inc_not_zero(&home->refcount)))
		home = NULL;
	return home;
}

/* The home context, on its holder's CPU: off, and kept off. */
static void pc_home_freeze(struct perf_counter_context *home, void *info)
{
	if (home->dead || home->task == home->owner)
		return;
	pc_ctx_sched_out(home);
	home->frozen = true;
}

/* An exchange that did not happen: the home context goes on again. */
static void pc_home_thaw(struct perf_counter_context *home, void *info)
{
	home->frozen = false;
	if (home->task == current)
		pc_ctx_sched_in(home);
}

/* After the exchange: the clone goes on if its new task runs here. */
static void pc_home_kick(struct perf_counter_context *ctx, void *info)
{
	if (ctx->task == current)
		pc_ctx_sched_in(ctx);
}

struct pc_homing {
	struct perf_counter_context	*home;
	struct task_struct		*owner;
	bool				for_good;
	bool				done;
};

/*
 * On the owner's CPU, or here with the owner not running, under the
 * stand-in's lock: the owner takes its context back and its holder
 * the stand-in. Locks nest as at a swap: the second context is off.
 */
static void pc_home_take(struct perf_counter_context *stand_in, void *info)
{
	struct pc_homing *h = info;
	struct perf_counter_context *home = h->home;
	struct task_struct *owner = h->owner, *holder;

	raw_spin_lock_nested(&home->lock, SINGLE_DEPTH_NESTING);
	holder = home->task;
	/* The stand-in is a clone the owner holds, standing in for @home. */
	if (!home->frozen || home->dead || stand_in->dead ||
	    stand_in->owner || stand_in->away != home ||
	    holder == owner || stand_in->task != owner ||
	    rcu_access_pointer(owner->perf_counter_ctxp) != stand_in ||
	    rcu_access_pointer(holder->perf_counter_ctxp) != home)
		goto out;

	pc_ctx_sched_out(stand_in);
	stand_in->task = holder;
	stand_in->away = home->away;	/* the holder's own, if away */
	home->task = owner;
	home->away = NULL;
	/*
	 * Released, as in pc_ctx_give_back(): the holder may be being
	 * switched in elsewhere, and must see the stand-in off with the
	 * pointer (the kick puts it on).
	 */
	rcu_assign_pointer(owner->perf_counter_ctxp, home);
	rcu_assign_pointer(holder->perf_counter_ctxp, stand_in);
	home->frozen = false;
	/* Bound: it is about to change, or to end. */
	pc_ctx_changed(home);
	if (h->for_good)
		home->homed = true;
	if (owner == current)
		pc_ctx_sched_in(home);
	h->done = true;
out:
	raw_spin_unlock(&home->lock);
}

/* Both contexts' mutexes, the lower address first. */
static void pc_home_lock(struct perf_counter_context *a,
			 struct perf_counter_context *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mutex);
	mutex_lock_nested(&b->mutex, SINGLE_DEPTH_NESTING);
}

static void pc_home_unlock(struct perf_counter_context *a,
			   struct perf_counter_context *b)
{
	mutex_unlock(&a->mutex);
	mutex_unlock(&b->mutex);
}

/**
 * pc_ctx_bring_home() - give a context back to its owner
 * @home:	a context with an owner, held by a reference
 * @for_good:	an open or prctl() wants it: it never swaps as a parent
 *		again (an exit ends it anyway)
 *
 * If another task holds @home, it gets the clone the owner holds
 * instead, and the owner @home, bound to it. Nothing happens if @home
 * is its owner's already, or dead, or the owner holds no clone that
 * stands in for it (the owner's exit is under way and brings @home
 * back itself). Process context; takes both contexts' mutexes and may
 * wait for two CPUs, with preemption off between the three steps.
 */
void pc_ctx_bring_home(struct perf_counter_context *home, bool for_good)
{
	struct pc_homing h = { .home = home, .for_good = for_good };
	struct perf_counter_context *stand_in;

	raw_spin_lock_irq(&home->lock);
	if (!home->owner || home->owner == home->task || home->dead) {
		raw_spin_unlock_irq(&home->lock);
		return;
	}
	/* The context's own reference keeps the owner's task_struct. */
	h.owner = get_task_struct(home->owner);
	raw_spin_unlock_irq(&home->lock);

	/* Pinned: it does not swap away from the owner meanwhile. */
	stand_in = pc_task_ctx_hold(h.owner, PC_HOLD_PIN);
	if (!stand_in)
		goto put_owner;
	if (stand_in != home) {
		pc_home_lock(home, stand_in);
		preempt_disable();
		pc_ctx_call_atomic(home, pc_home_freeze, NULL);
		pc_ctx_call_atomic(stand_in, pc_home_take, &h);
		if (h.done)
			pc_ctx_call_atomic(stand_in, pc_home_kick, NULL);
		else
			pc_ctx_call_atomic(home, pc_home_thaw, NULL);
		preempt_enable();
		if (h.done)
			atomic_long_inc(&pc_homings);
		pc_home_unlock(home, stand_in);
	}
	pc_ctx_unpin(stand_in);
	pc_ctx_put(stand_in);
put_owner:
	put_task_struct(h.owner);
}

/**
 * pc_ctx_give_back() - an exiting task gives back the context it holds
 * @task:	current, exiting
 *
 * A child that exits right after its parent switched to it, waiting
 * for it, holds the parent's context, and the parent a clone, off the
 * CPU. Then no IPI is needed: as at a swap, under both locks, the
 * parent's context goes off here and the two change tasks, the parent
 * taking its own back when it is next switched in (its switch-in hook
 * looks at the pointer under the lock). The context keeps its number,
 * unchanged: the parent's other children may swap with it still. Any
 * other case (the owner running, or forking, its clone pinned) is for
 * pc_ctx_bring_home().
 *
 * Return: true if @task holds a context of its own, or none, now.
 */
bool pc_ctx_give_back(struct task_struct *task)
{
	struct perf_counter_context *ctx, *stand_in;
	struct task_struct *owner;
	bool done = false;
	unsigned long flags;

	local_irq_save(flags);
	ctx = rcu_dereference_sched(task->perf_counter_ctxp);
	if (!ctx || !READ_ONCE(ctx->owner) || READ_ONCE(ctx->owner) == task) {
		local_irq_restore(flags);
		return !ctx || !READ_ONCE(ctx->away);
	}
	raw_spin_lock(&ctx->lock);
	owner = ctx->owner;
	stand_in = rcu_dereference_sched(owner->perf_counter_ctxp);
	if (ctx->task != task || ctx->dead || ctx->frozen || !stand_in ||
	    stand_in == ctx)
		goto out;
	raw_spin_lock_nested(&stand_in->lock, SINGLE_DEPTH_NESTING);
	if (stand_in->task == owner && !stand_in->owner &&
	    stand_in->away == ctx && !stand_in->is_active &&
	    !stand_in->pins && !stand_in->frozen && !stand_in->dead &&
	    rcu_access_pointer(owner->perf_counter_ctxp) == stand_in) {
		pc_ctx_sched_out(ctx);
		stand_in->task = task;
		stand_in->away = ctx->away;	/* @task's own, if away */
		ctx->task = owner;
		ctx->away = NULL;
		/*
		 * The owner may be being switched in on another CPU: its
		 * hook's fast path reads the pointer, then is_active and
		 * task without the lock. Released, the pointer is seen only
		 * with the context already off (on powerpc the stores could
		 * pass each other).
		 */
		rcu_assign_pointer(owner->perf_counter_ctxp, ctx);
		RCU_INIT_POINTER(task->perf_counter_ctxp, stand_in);
		atomic_long_inc(&pc_homings);
		done = true;
	}
	raw_spin_unlock(&stand_in->lock);
out:
	raw_spin_unlock(&ctx->lock);
	local_irq_restore(flags);
	return done && !READ_ONCE(stand_in->away);
}

/* Contexts brought home since boot. */
unsigned long pc_ctx_homings(void)
{
	return atomic_long_read(&pc_homings);
}
