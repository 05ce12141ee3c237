// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: clone contexts, and swapping them at a context switch.
 *
 * A fork copies the parent's inherited groups into a new context (see
 * inherit.c). Two contexts copied from one parent context, while that
 * context did not change, hold the same groups in the same states, and
 * every copy in them folds into the same top-level counter. At a switch
 * between two tasks that own such contexts it makes no difference to
 * any top-level counter which task runs on which copy: their values,
 * times and records are sums over the copies. So the scheduler hook
 * hands the outgoing task's context, still on the CPU, to the incoming
 * task, and the incoming task's context to the outgoing one, instead of
 * taking one set of counters off and putting the other on.
 *
 * Which contexts may swap is said by @clone_id: the number of the
 * snapshot of the parent context both were copied from. A context
 * holding counters of its own (opened on it through a file) never has
 * one, nor does one holding a copy whose records or count would show
 * the swap (pc_counter_swappable()). The parent context itself swaps
 * with its clones, under the same number (@swap_id, which for a clone
 * is its @clone_id), while it holds nothing its clones
 * could not stand in for: inherited counters only, each one
 * swappable; what that takes is in home.c. Every change that would
 * make two clones differ — a counter installed or removed, enabled or
 * disabled, or in error — clears both numbers (pc_ctx_changed()), for
 * good. A parent context's @snapshot is the number its next copies
 * get; a change clears it too, and the next fork draws a new one, so
 * no two contexts with different contents ever share a number.
 *
 * Swapping changes which task holds a context, so whoever finds a task's
 * context through the task and then works on it — an open on the task,
 * prctl, fork copying it — first locks the context and checks the task
 * still holds it (pc_task_ctx_hold()). An open or prctl then brings the
 * task's own context home and clears its numbers, binding it to the
 * task; fork only pins it for as long as it copies. An exiting task is
 * never swapped with: its exit tears down the context it holds, once
 * its own is home.
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "internal.h"

/* The last snapshot number drawn; 0 is never one. */
static atomic64_t pc_snapshots = ATOMIC64_INIT(0);

/*
 * Callers of pc_task_ctx_hold() that found their task's context moved
 * PC_HOLD_TRIES times running: no context swaps while any is waiting.
 */
#define PC_HOLD_TRIES	4

/* Contexts a pc_task_ctx_hold() may bring home before it gives up. */
#define PC_HOMING_TRIES	4
static atomic_t pc_swaps_held_off = ATOMIC_INIT(0);

/* Swaps made on each CPU since boot, for tests to see that they happen. */
static DEFINE_PER_CPU(unsigned long, pc_swaps);

/**
 * pc_ctx_changed() - a context's counters changed: it is no clone now
 * @ctx:	the context, under ctx->lock
 *
 * Called for every change a copy made at fork would not share: a counter
 * installed or removed, a change of state other than going on or off
 * the CPU. The context is never swapped again, and its next fork's
 * copies are numbered anew.
 */
void pc_ctx_changed(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	ctx->clone_id = 0;
	ctx->snapshot = 0;
	ctx->swap_id = 0;
}

/*
 * The number @ctx swaps under, or 0. Read without a lock to skip a
 * switch's second lock, and again under both.
 */
static u64 pc_ctx_swap_id(const struct perf_counter_context *ctx)
{
	return READ_ONCE(ctx->swap_id);
}

/**
 * pc_counter_swappable() - may a context holding @counter be swapped?
 * @counter:	an inherited copy, or a parent's counter that copies would
 *		stand in for (home.c)
 *
 * Only if nobody could tell. A sampling copy writes its own value and
 * spends its own period, so its records would mix two tasks', as would
 * an inherit_stat copy's TOTALS record at its task's exit. A copy
 * that can count kernel events between the two switch hooks — a
 * tracepoint fired by the switch itself, a hardware counter counting
 * the switch's instructions — would count them in a swapped context,
 * where a context taken off and put on counts nothing there. Software
 * events (none happens between the hooks), the clocks (the switch is
 * counted into the turn of the task switched to, one clock read fewer
 * than a stop and a start) and hardware counters that exclude the
 * kernel can swap.
 *
 * Return: true if a context of such copies may change tasks.
 */
bool pc_counter_swappable(const struct perf_counter *counter)
{
	if (pc_is_sampling(counter) || counter->hw_event.inherit_stat)
		return false;
	if (pc_has_cap(counter, PC_CAP_SWITCH_QUIET))
		return true;
	return pc_has_cap(counter, PC_CAP_SWITCH_QUIET_USER) &&
	       counter->hw_event.exclude_kernel;
}

/**
 * pc_ctx_snapshot() - the number of the copies a fork makes of @ctx now
 * @ctx:	the parent's context, under ctx->lock
 *
 * A clone's copies are clones of the same snapshot as it is.
 *
 * Return: a number, never 0, that stays the context's until it changes.
 */
u64 pc_ctx_snapshot(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->clone_id)
		return ctx->clone_id;
	if (!ctx->snapshot)
		ctx->snapshot = atomic64_inc_return(&pc_snapshots);
	return ctx->snapshot;
}

/*
 * One try of pc_task_ctx_hold(): @task's context, held as @why says, or
 * NULL, with *@none set if @task has no context, *@away (if @away is
 * not NULL) if a context must come home before @task's can be bound
 * (with a reference), else because a swap moved @task's context between
 * the read and the lock.
 */
static struct perf_counter_context *
pc_task_ctx_try(struct task_struct *task, enum pc_hold why, bool *none,
		struct perf_counter_context **away)
{
	struct perf_counter_context *ctx;
	unsigned long flags;

	local_irq_save(flags);
	rcu_read_lock();
	ctx = rcu_dereference(task->perf_counter_ctxp);
	if (!ctx) {
		rcu_read_unlock();
		local_irq_restore(flags);
		*none = true;
		return NULL;
	}
	raw_spin_lock(&ctx->lock);
	rcu_read_unlock();
	if (ctx != rcu_access_pointer(task->perf_counter_ctxp)) {
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return NULL;
	}
	if (why != PC_HOLD_PIN && away) {
		*away = pc_ctx_away_get(ctx, task);
		if (*away) {
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			return NULL;
		}
	}
	/* The task's own reference is alive while it names the context. */
	refcount_inc(&ctx->refcount);
	if (why == PC_HOLD_PIN) {
		ctx->pins++;
	} else {
		pc_ctx_changed(ctx);
		if (!ctx->owner)
			WRITE_ONCE(ctx->owner, get_task_struct(task));
		if (why == PC_HOLD_OPEN)
			ctx->opening++;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return ctx;
}

/* pc_task_ctx_hold() but for bringing a context home: see @away above */
static struct perf_counter_context *
pc_task_ctx_hold_here(struct task_struct *task, enum pc_hold why,
		      struct perf_counter_context **away)
{
	struct perf_counter_context *ctx;
	bool held_off = false, none = false;
	unsigned int tries;

	/*
	 * A swap changes task->perf_counter_ctxp under the context's lock:
	 * once it is held and the pointer still names the context, no swap
	 * can move it. The context cannot be freed between the read and
	 * the lock (it goes a grace period after its last put, and irqs
	 * are off). A retry follows a swap of @task's context made between
	 * the read and the lock.
	 * Two tasks switching to each other as fast as they can could keep
	 * that up, so after a few tries every swap is held off until the
	 * task's context is held (a few iterations, not preempted: the
	 * hold-off is every user's). The count is raised with a full
	 * barrier before the pointer is read again, and every switch runs
	 * one (smp_mb__after_spinlock() in __schedule()) before its hook
	 * reads the count (pc_ctx_swappable()). A swap that reads it as
	 * zero began before the pointer was read, and only one such swap
	 * of the task can be on the way: the task's next switch is on the
	 * same CPU, after that barrier, or on another CPU after the task
	 * left this one (its on_cpu handed over by release and acquire),
	 * then that barrier. Two more tries at most: that swap, and the
	 * exit that may clear the pointer. (A context brought home moves
	 * under the same lock, with every mutex it needs held: at most
	 * one such move a try, see pc_task_ctx_hold().)
	 */
	for (tries = 0;; tries++) {
		if (tries == PC_HOLD_TRIES) {
			/* Not preempted while every swap waits for us. */
			preempt_disable();
			atomic_inc(&pc_swaps_held_off);
			/* Seen by every switch after the pointer's next read. */
			smp_mb__after_atomic();
			held_off = true;
		}
		WARN_ON_ONCE(tries > PC_HOLD_TRIES + 2);
		ctx = pc_task_ctx_try(task, why, &none, away);
		if (ctx || none || (away && *away))
			break;
		cpu_relax();
	}
	if (held_off) {
		atomic_dec(&pc_swaps_held_off);
		preempt_enable();
	}
	return ctx;
}

/**
 * pc_task_ctx_hold() - a task's context, made sure to stay the task's
 * @task:	the task
 * @why:	what for (enum pc_hold): to pin the context the task holds,
 *		or to bind the task's own, brought home first, to it
 *
 * Return: the context with a reference, or NULL if @task has none.
 * Process context unless @why is PC_HOLD_PIN: bringing a context home
 * sleeps.
 */
struct perf_counter_context *pc_task_ctx_hold(struct task_struct *task,
					      enum pc_hold why)
{
	struct perf_counter_context *ctx, *away;
	unsigned int homings;

	/*
	 * A task holds contexts of one number only, and one context at
	 * most owned by another (the parent's of that number); it owns one
	 * at most. Each is brought home once: for an open or a prctl, for
	 * good (@homed); for an exit or exec's untrusted end, renumbered
	 * (its next fork draws a new number, which no context the task
	 * held has). Two homings, and
	 * two for a race with the owners' own exits, which bring their
	 * contexts home themselves.
	 */
	for (homings = 0;; homings++) {
		away = NULL;
		ctx = pc_task_ctx_hold_here(task, why, &away);
		if (!away)
			return ctx;
		if (WARN_ON_ONCE(homings == PC_HOMING_TRIES)) {
			pc_ctx_put(away);
			return pc_task_ctx_hold_here(task, why, NULL);
		}
		pc_ctx_bring_home(away, why != PC_HOLD_EXIT);
		pc_ctx_put(away);
	}
}

/**
 * pc_ctx_open_end() - an open that held @ctx with PC_HOLD_OPEN is over
 * @ctx:	the context, or a CPU context (nothing to do)
 */
void pc_ctx_open_end(struct perf_counter_context *ctx)
{
	if (!ctx->task)
		return;
	raw_spin_lock_irq(&ctx->lock);
	WARN_ON_ONCE(!ctx->opening);
	ctx->opening--;
	raw_spin_unlock_irq(&ctx->lock);
}

/**
 * pc_ctx_unpin() - undo pc_task_ctx_hold(@ctx's task, PC_HOLD_PIN)
 * @ctx:	the context; its reference is the caller's to drop
 */
void pc_ctx_unpin(struct perf_counter_context *ctx)
{
	raw_spin_lock_irq(&ctx->lock);
	WARN_ON_ONCE(!ctx->pins);
	ctx->pins--;
	raw_spin_unlock_irq(&ctx->lock);
}

/*
 * Under both contexts' locks: may @ctx (@prev's, number @id) and
 * @next_ctx change tasks? The hold-off count is read under them, so a
 * pc_task_ctx_hold() that raised it and then took one of these locks
 * before us is seen. @ctx needs fewer checks: it is active on this CPU
 * (so neither dead nor frozen), and @prev's pointer to it cannot move
 * meanwhile (an exchange, home.c, would run here in an IPI, and irqs
 * are off); only a fork copying it may have pinned it.
 */
static bool pc_ctx_swappable(struct perf_counter_context *ctx,
			     struct perf_counter_context *next_ctx,
			     struct task_struct *next, u64 id)
{
	return !atomic_read(&pc_swaps_held_off) &&
	       next_ctx->swap_id == id &&
	       !ctx->pins && !next_ctx->pins && !next_ctx->frozen &&
	       !next_ctx->is_active && !next_ctx->dead &&
	       rcu_access_pointer(next->perf_counter_ctxp) == next_ctx;
}

/* The context @task owns, given the one it holds; NULL if none. */
static struct perf_counter_context *
pc_own_ctx(struct perf_counter_context *held, struct task_struct *task)
{
	return held->owner == task ? held : held->away;
}

/*
 * At a swap, under both locks: hand the two tasks' @away on with the
 * contexts they get (home.c). Each task's own context is where it was:
 * with the task if it held it, else where the context it held said. It
 * is away from the task unless it is the context the task gets.
 */
static void pc_ctx_swap_away(struct perf_counter_context *ctx,
			     struct perf_counter_context *next_ctx,
			     struct task_struct *prev, struct task_struct *next)
{
	struct perf_counter_context *prev_own = pc_own_ctx(ctx, prev);
	struct perf_counter_context *next_own = pc_own_ctx(next_ctx, next);

	next_ctx->away = prev_own == next_ctx ? NULL : prev_own;
	ctx->away = next_own == ctx ? NULL : next_own;
}

/**
 * pc_ctx_swap() - hand @prev's context, still on the CPU, to @next
 * @prev:	the task leaving the CPU (current)
 * @next:	the task taking it
 * @ctx:	@prev's context, active on this CPU, under ctx->lock
 *
 * Called from the switch-out hook with irqs off. Does nothing unless
 * both tasks hold clones of one snapshot (or one holds the parent
 * context they were copied from, unchanged) and neither is exiting.
 *
 * Return: true if the contexts changed tasks: @ctx stays on for @next,
 * whose switch-in hook finds it active and leaves it be, its time
 * running on through the switch, and @next's context, which was off,
 * is @prev's now.
 */
bool pc_ctx_swap(struct task_struct *prev, struct task_struct *next,
		 struct perf_counter_context *ctx)
{
	struct perf_counter_context *next_ctx = pc_switching_ctx(next);
	bool swapped;
	u64 id;

	lockdep_assert_held(&ctx->lock);
	if (!next_ctx || next_ctx == ctx)
		return false;
	id = ctx->swap_id;
	if (!id || id != pc_ctx_swap_id(next_ctx))
		return false;
	/* Exit tears down the context it holds, once its own is home. */
	if ((prev->flags | next->flags) & PF_EXITING)
		return false;

	/*
	 * @next_ctx cannot be freed here: only @next's exit (it is not
	 * running) or a failed fork (it never ran) frees it, and an
	 * exchange that moves it (home.c) leaves it alive with another
	 * task, which pc_ctx_swappable() sees in @next's pointer. Two context
	 * locks are held together only here and in an exchange (home.c),
	 * the second always of a context that is off: @ctx, active on this
	 * CPU, is the second lock of neither.
	 */
	raw_spin_lock_nested(&next_ctx->lock, SINGLE_DEPTH_NESTING);
	swapped = pc_ctx_swappable(ctx, next_ctx, next, id);
	if (swapped) {
		pc_ctx_swap_away(ctx, next_ctx, prev, next);
		ctx->task = next;
		next_ctx->task = prev;
		/* Both were published long ago: no barrier to order. */
		RCU_INIT_POINTER(prev->perf_counter_ctxp, next_ctx);
		RCU_INIT_POINTER(next->perf_counter_ctxp, ctx);
		this_cpu_inc(pc_swaps);
	}
	raw_spin_unlock(&next_ctx->lock);
	return swapped;
}

/* Contexts handed from one task to another at a switch, since boot. */
unsigned long pc_ctx_swaps(void)
{
	unsigned long swaps = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		swaps += READ_ONCE(per_cpu(pc_swaps, cpu));
	return swaps;
}
