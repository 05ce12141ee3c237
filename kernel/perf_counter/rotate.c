// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: which groups go on, and multiplexing.
 *
 * When a context goes on, its pinned groups go first, then the flexible
 * ones in list order, each all or nothing. When a flexible group does
 * not fit (a counter kind's start failed: no free hardware register),
 * the context is marked for rotation, and at each scheduler tick its
 * flexible groups come off and go on again, the ones that have run the
 * smallest share of their enabled time first — so each gets its share
 * even when ticks come unevenly (a loaded host, an emulator), and each
 * counter's time running against time enabled says how big a share.
 * Pinned groups are never rotated out; one that cannot go on is in the
 * error state. An exclusive group goes on only into an empty context and
 * then alone: it takes its turn like any flexible group, with the
 * context to itself. A group bound to another CPU (its cpu argument) is
 * passed over on this one: it neither fails to fit nor waits its turn.
 */
#include <linux/list_sort.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>

#include "internal.h"

/* What is on a context now, as far as exclusivity goes. */
struct pc_placement {
	bool	any_on;		/* some group is on */
	bool	alone;		/* an exclusive group is on */
};

static void pc_placement_add(struct pc_placement *p,
			     const struct perf_counter *leader)
{
	if (leader->state != PC_STATE_ACTIVE)
		return;
	p->any_on = true;
	p->alone |= leader->hw_event.exclusive;
}

static bool pc_fits_beside(const struct pc_placement *p,
			   const struct perf_counter *leader)
{
	return !p->alone && !(leader->hw_event.exclusive && p->any_on);
}

/* A group that counts only on another CPU: nothing to place here. */
static bool pc_bound_elsewhere(const struct perf_counter *leader)
{
	return leader->cpu >= 0 && leader->cpu != smp_processor_id();
}

/**
 * pc_group_missed() - a group that should have gone on did not
 * @ctx:	its context, under ctx->lock (on the CPU it is active on)
 * @leader:	the group's leader, off the CPU, its members with it
 * @ctx_time:	the context's time now
 *
 * The one rule for a group left off, whatever left it off (an exclusive
 * group in the way, a register the hardware did not have, a member that
 * could not join its running group): a pinned group enters the error
 * state, where it stays until it is enabled or disabled again; a
 * flexible one waits for its turn at the tick's rotation.
 */
void pc_group_missed(struct perf_counter_context *ctx,
		     struct perf_counter *leader, u64 ctx_time)
{
	lockdep_assert_held(&ctx->lock);
	if (leader->hw_event.pinned)
		pc_counter_set_state(leader, PC_STATE_ERROR, ctx_time);
	else
		ctx->rotate = true;
}

/*
 * Try one enabled group. One that should go on here and does not has
 * missed its turn: pc_group_missed() says what becomes of it.
 */
static void pc_place(struct perf_counter_context *ctx, struct pc_placement *p,
		     struct perf_counter *leader, u64 ctx_time)
{
	if (pc_bound_elsewhere(leader))
		return;
	if (!pc_fits_beside(p, leader) || pc_group_sched_in(leader, ctx_time))
		pc_group_missed(ctx, leader, ctx_time);
	pc_placement_add(p, leader);
}

/**
 * pc_ctx_groups_in() - put the context's enabled groups on, pinned first
 * @ctx:	an active context, under ctx->lock on its CPU
 * @ctx_time:	its time now
 *
 * What did not go on is pc_group_missed()'s: the context is marked for
 * rotation anew if a flexible group did not fit.
 */
void pc_ctx_groups_in(struct perf_counter_context *ctx, u64 ctx_time)
{
	struct pc_placement p = { };
	struct perf_counter *leader;

	lockdep_assert_held(&ctx->lock);
	pc_for_each_leader(leader, ctx)
		pc_placement_add(&p, leader);

	pc_for_each_leader(leader, ctx)
		if (leader->hw_event.pinned &&
		    leader->state == PC_STATE_INACTIVE)
			pc_place(ctx, &p, leader, ctx_time);

	ctx->rotate = false;
	pc_for_each_leader(leader, ctx)
		if (!leader->hw_event.pinned &&
		    leader->state == PC_STATE_INACTIVE)
			pc_place(ctx, &p, leader, ctx_time);
}

/**
 * pc_ctx_group_in() - put one group on beside what is on already
 * @ctx:	an active context, under ctx->lock on its CPU
 * @leader:	a group just installed or enabled
 * @ctx_time:	the context's time now
 *
 * A flexible group that does not fit now waits for its turn.
 */
void pc_ctx_group_in(struct perf_counter_context *ctx,
		     struct perf_counter *leader, u64 ctx_time)
{
	struct pc_placement p = { };
	struct perf_counter *other;

	lockdep_assert_held(&ctx->lock);
	if (leader->state != PC_STATE_INACTIVE)
		return;
	pc_for_each_leader(other, ctx)
		pc_placement_add(&p, other);
	pc_place(ctx, &p, leader, ctx_time);
}

/* A group's share of its enabled time spent running, in 1/2^20ths. */
static u64 pc_share(const struct perf_counter *leader)
{
	if (!leader->time_enabled)
		return 0;
	return mul_u64_u64_div_u64(leader->time_running, 1 << 20,
				   leader->time_enabled);
}

/* Pinned groups first (they never rotate), then the least served. */
static int pc_cmp_share(void *priv, const struct list_head *a,
			const struct list_head *b)
{
	const struct perf_counter *x = list_entry(a, struct perf_counter,
						  group_entry);
	const struct perf_counter *y = list_entry(b, struct perf_counter,
						  group_entry);

	if (x->hw_event.pinned || y->hw_event.pinned)
		return (int)y->hw_event.pinned - (int)x->hw_event.pinned;
	return pc_share(x) > pc_share(y);
}

/**
 * pc_ctx_rotate() - give the next flexible group its turn
 * @ctx:	an active context, under ctx->lock on its CPU
 * @now:	local_clock() now
 *
 * Does nothing unless the last placement left a flexible group out.
 * The flexible groups go on again least served first (a stable sort:
 * equal shares keep their order).
 */
void pc_ctx_rotate(struct perf_counter_context *ctx, u64 now)
{
	struct perf_counter *leader;
	u64 ctx_time;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->rotate || !ctx->is_active)
		return;
	ctx_time = pc_ctx_advance(ctx, now);
	/* Off, and every share up to now: the ones that waited too. */
	pc_for_each_leader(leader, ctx) {
		if (leader->hw_event.pinned)
			continue;
		pc_group_sched_out(leader, ctx_time);
		pc_counter_update_times(leader, ctx_time);
	}
	list_sort(NULL, &ctx->groups, pc_cmp_share);
	pc_ctx_groups_in(ctx, ctx_time);
}

static void pc_ctx_tick(struct perf_counter_context *ctx)
{
	if (!ctx || !READ_ONCE(ctx->rotate))
		return;
	raw_spin_lock(&ctx->lock);
	if (ctx->is_active && ctx->active_cpu == smp_processor_id())
		pc_ctx_rotate(ctx, local_clock());
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_counter_task_tick() - scheduler tick: rotate what needs it
 *
 * Called with irqs off. Renews this CPU's sample budget and the counter
 * pages of current's counters, and retunes frequency counters; costs a
 * few loads when nothing is multiplexed, throttled, mapped or sampled
 * by frequency.
 */
void perf_counter_task_tick(void)
{
	struct perf_counter_context *ctx = pc_switching_ctx(current);

	lockdep_assert_irqs_disabled();
	pc_sample_budget_tick();
	pc_ctx_tick(pc_this_cpu_ctx());
	pc_ctx_tick(ctx);
	pc_freq_tick(pc_this_cpu_ctx());
	pc_freq_tick(ctx);
	pc_page_tick(ctx);
}
