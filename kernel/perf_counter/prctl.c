// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: prctl(PR_TASK_PERF_COUNTERS_DISABLE and _ENABLE), a
 * task's switch for every counter group on it.
 *
 * The caller's own context only, its group leaders only (members keep
 * their own enable bit and follow their leader), and never a group a
 * more privileged monitor opened on it (@prctl_exempt) or one the
 * security module will not let it change (@prctl_refused). Both marks
 * are read under the context's mutex, held across the pc_ctx_call()
 * that flips the leaders.
 */
#include <linux/err.h>
#include <linux/sched.h>

#include "internal.h"

/*
 * prctl: enable (*@enable true) or disable every group leader, but for
 * those a more privileged monitor opened (@prctl_exempt, set at the open
 * by pc_task_could_trace()) and those the security module refused the
 * caller (@prctl_refused, set by the caller under ctx->mutex). Members
 * follow their leader: only leaders change state here.
 */
static void __pc_set_leaders(struct perf_counter_context *ctx, void *enable)
{
	struct perf_counter *leader;

	lockdep_assert_held(&ctx->lock);
	pc_for_each_leader(leader, ctx) {
		if (leader->prctl_exempt || leader->prctl_refused)
			continue;
		if (*(bool *)enable)
			__pc_enable(ctx, leader);
		else
			__pc_disable(ctx, leader);
	}
}

/*
 * The next leader of @ctx about to be enabled whose records have no
 * ring yet (opened disabled, not used since), held, or NULL. A copy's
 * ring is its top-level counter's.
 */
static struct perf_counter *pc_task_leader_unprepared(struct perf_counter_context *ctx)
{
	struct perf_counter *leader, *top, *found = NULL;

	raw_spin_lock_irq(&ctx->lock);
	pc_for_each_leader(leader, ctx) {
		top = leader->parent ?: leader;
		if (!leader->prctl_exempt && top->queue &&
		    READ_ONCE(top->out) == top->queue &&
		    !pc_queue_has_ring(top->queue)) {
			found = top;
			pc_counter_get(found);
			break;
		}
	}
	raw_spin_unlock_irq(&ctx->lock);
	return found;
}

/*
 * The rings of the leaders about to be enabled, made outside ctx->lock
 * (they may sleep); ctx->mutex, held, keeps the leaders. Each pass
 * makes one, or fails: no more passes than leaders without one.
 */
static int pc_task_prepare_leaders(struct perf_counter_context *ctx)
{
	struct perf_counter *top;
	int err = 0;

	lockdep_assert_held(&ctx->mutex);
	while (!err && (top = pc_task_leader_unprepared(ctx))) {
		err = pc_counter_prepare(top);
		pc_counter_put(top);
	}
	return err;
}

/*
 * prctl(PR_TASK_PERF_COUNTERS_*): every group leader on current, but
 * for those a more privileged monitor opened and those the security
 * module will not let current write (see __pc_set_leaders()). The
 * module is asked outside ctx->lock, for each leader from a copy of
 * the list, and only if there is a module to ask.
 */
static int pc_task_set_leaders(bool enable)
{
	struct perf_counter_context *ctx;
	struct perf_counter **leaders = NULL;
	struct perf_counter *leader;
	unsigned int i, nr = 0;
	int err = 0;

	ctx = pc_task_ctx_hold(current, PC_HOLD_BIND);
	if (!ctx)
		return 0;
	mutex_lock(&ctx->mutex);
	if (enable)
		err = pc_task_prepare_leaders(ctx);
	if (!err && IS_ENABLED(CONFIG_PERF_COUNTERS_LSM))
		leaders = pc_ctx_leaders(ctx, false, &nr, NULL);
	if (err) {
		leaders = NULL;
	} else if (IS_ERR(leaders)) {
		err = PTR_ERR(leaders);
		leaders = NULL;
	} else {
		/* A copy is its top-level counter's, opener and all. */
		for (i = 0; i < nr; i++) {
			leader = leaders[i];
			leader->prctl_refused = !leader->prctl_exempt &&
				pc_lsm_write(leader->parent ?: leader);
		}
		pc_ctx_call_locked(ctx, __pc_set_leaders, &enable);
	}
	mutex_unlock(&ctx->mutex);
	pc_ctx_leaders_free(leaders);
	pc_ctx_put(ctx);
	return err;
}

/**
 * perf_counter_task_disable() - disable every counter group on current
 *
 * Only the group leaders change state, so members keep their own
 * enable bit. Counters current opened on other tasks are not touched,
 * nor those a task that current could not trace opened on current
 * (pc_task_could_trace()), nor those a security module will not let
 * current change (lsm.c).
 *
 * Return: 0, or -ENOMEM (with a security module to ask, and nothing
 * changed).
 */
int perf_counter_task_disable(void)
{
	return pc_task_set_leaders(false);
}

/**
 * perf_counter_task_enable() - enable every counter group on current
 *
 * The same counters as perf_counter_task_disable() turns off. A queue
 * opened disabled gets its ring first (pc_counter_prepare()).
 *
 * Return: as perf_counter_task_disable(), and -ENOMEM for a ring;
 * nothing changed then.
 */
int perf_counter_task_enable(void)
{
	return pc_task_set_leaders(true);
}
