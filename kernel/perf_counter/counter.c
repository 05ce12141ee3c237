// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: one counter — its life, its times and its value.
 *
 * Times are kept in context time (see context.c), which only advances
 * while the context is scheduled in: a counter's time_enabled is the
 * time its task ran while the counter was enabled, time_running the part
 * of that during which the counter was actually on the CPU.
 */
#include <linux/pid_namespace.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/* The last id handed out (PERF_COUNTER_IOC_ID): 2^64 opens never wrap. */
static atomic64_t pc_last_id;

/**
 * pc_counter_alloc() - make a counter, not yet installed anywhere
 * @desc:	its description, defaults filled in (an inherited copy's
 *		is its parent's: pc_counter_desc())
 * @extra:	its extra control words (desc->hw.extra_config_len bytes),
 *		or NULL when there are none
 * @ops:	its kind
 * @cpu:	the CPU it is restricted to, or -1
 * @parent:	for an inherited counter, the top-level counter it folds
 *		into (a reference is taken); NULL otherwise
 *
 * The counter starts with one reference, its creator's. A top-level
 * counter takes a reference to current's pid namespace, in which its
 * records name tasks, if it samples or records switches or exits'
 * totals, a queue charged to current (see queue.c), and if it records
 * call chains, the
 * buffers they are walked into (callchain.c).
 *
 * Return: the counter or an ERR_PTR(): -ENOMEM without memory or past
 * current's RLIMIT_MEMLOCK, the kind's init error, or a security
 * module's refusal (lsm.c).
 */
struct perf_counter *
pc_counter_alloc(const struct perf_counter_hw_event_ext *desc,
		 const u64 *extra, const struct pc_ops *ops, int cpu,
		 struct perf_counter *parent)
{
	const struct perf_counter_hw_event *hw = &desc->hw;
	struct perf_counter *counter;
	int err;

	/* charged to current's memory cgroup: the cache is SLAB_ACCOUNT */
	counter = kmem_cache_zalloc(pc_counter_cache, GFP_KERNEL);
	if (!counter)
		return ERR_PTR(-ENOMEM);
	pc_object_made(PC_OBJ_COUNTER);

	INIT_LIST_HEAD(&counter->group_entry);
	INIT_LIST_HEAD(&counter->siblings);
	INIT_LIST_HEAD(&counter->read_members);
	INIT_LIST_HEAD(&counter->read_entry);
	counter->read_nr = 1;
	INIT_LIST_HEAD(&counter->children);
	INIT_LIST_HEAD(&counter->child_entry);
	mutex_init(&counter->child_mutex);
	refcount_set(&counter->refcount, 1);
	counter->leader = counter;
	counter->hw_event = *hw;
	counter->chain_depth = desc->callchain_depth;
	counter->sideband = desc->sideband;
	counter->switch_out = desc->switch_out;
	counter->switch_stack = desc->switch_stack;
	if (extra)
		memcpy(counter->extra_config, extra,
		       min_t(size_t, hw->extra_config_len,
			     sizeof(counter->extra_config)));
	counter->ops = ops;
	counter->cpu = cpu;
	counter->state = hw->disabled ? PC_STATE_OFF : PC_STATE_INACTIVE;
	counter->sample_freq = desc->sample_freq;
	pc_period_init(counter, hw->irq_period);
	pc_refresh_init(counter);

	/* Inherited copies write to their top-level counter's queue. */
	if (pc_has_records(hw) && !parent) {
		bool format_2009 = pc_format_2009(hw, desc->sideband);

		/*
		 * A headered queue of a counter opened disabled gets its
		 * ring at its first use (pc_counter_prepare()); one in the
		 * 2009 format at once, whose read() may come last, and an
		 * inherit_stat one, whose TOTALS records come at exits
		 * whether or not the counter was ever enabled.
		 */
		counter->queue = pc_queue_alloc(PC_QUEUE_DEFAULT, format_2009,
						hw->disabled && !format_2009 &&
						!hw->inherit_stat);
		if (!counter->queue) {
			pc_object_ended(PC_OBJ_COUNTER);
			kmem_cache_free(pc_counter_cache, counter);
			return ERR_PTR(-ENOMEM);
		}
		counter->out = counter->queue;
		counter->out_writer = true;
	}
	/* Known to init (an inherited copy); the reference comes after. */
	counter->parent = parent;
	counter->id = parent ? parent->id : atomic64_inc_return(&pc_last_id);
	if (ops->init) {
		err = ops->init(counter);
		if (err) {
			pc_queue_drop(counter->queue);
			pc_object_ended(PC_OBJ_COUNTER);
			kmem_cache_free(pc_counter_cache, counter);
			return ERR_PTR(err);
		}
	}
	if (parent) {
		pc_counter_get(parent);
	} else {
		/* Records name tasks as the opener sees them. */
		counter->pid_ns = get_pid_ns(task_active_pid_ns(current));
	}
	/*
	 * The switch hooks must run, even with no task context about: they
	 * write switch records, and pause exclude_idle counters while the
	 * CPU idles.
	 */
	if (hw->exclude_idle)
		static_branch_deferred_inc(&perf_counter_task_key);
	if (hw->context_switch) {
		static_branch_deferred_inc(&perf_counter_task_key);
		static_branch_deferred_inc(&pc_switch_key);
	}
	/* Copies are their top-level counter's: its key holds for them. */
	if (counter->sideband && !parent)
		static_branch_deferred_inc(&pc_sideband_key);
	/* Chains are walked into buffers the top-level counter holds. */
	if ((hw->record_type & PERF_RECORD_CALLCHAIN) && !parent) {
		err = pc_chain_bufs_get();
		if (err) {
			pc_counter_put(counter);
			return ERR_PTR(err);
		}
		counter->chain_bufs = true;
	}
	/* Last, as perf_events asks: a refusal unwinds like any put. */
	err = pc_lsm_alloc(counter);
	if (err) {
		pc_counter_put(counter);
		return ERR_PTR(err);
	}
	return counter;
}

void pc_counter_get(struct perf_counter *counter)
{
	refcount_inc(&counter->refcount);
}

/* Drop a reference; the last one frees. May sleep. */
void pc_counter_put(struct perf_counter *counter)
{
	might_sleep();
	if (!refcount_dec_and_test(&counter->refcount))
		return;

	WARN_ON_ONCE(counter->attached);
	WARN_ON_ONCE(!list_empty(&counter->children));
	WARN_ON_ONCE(!list_empty(&counter->read_entry));
	WARN_ON_ONCE(!list_empty(&counter->read_members));
	if (counter->ops->destroy)
		counter->ops->destroy(counter);
	pc_refresh_sync(counter);
	if (counter->hw_event.exclude_idle)
		static_branch_slow_dec_deferred(&perf_counter_task_key);
	if (counter->hw_event.context_switch) {
		static_branch_slow_dec_deferred(&pc_switch_key);
		static_branch_slow_dec_deferred(&perf_counter_task_key);
	}
	if (counter->sideband && !counter->parent)
		static_branch_slow_dec_deferred(&pc_sideband_key);
	if (counter->chain_bufs)
		pc_chain_bufs_put();
	pc_output_free(counter);
	pc_page_free(counter);
	if (counter->pid_ns)
		put_pid_ns(counter->pid_ns);
	if (counter->ctx)
		pc_ctx_put(counter->ctx);
	if (counter->parent)
		pc_counter_put(counter->parent);
	pc_lsm_free(counter);
	pc_object_ended(PC_OBJ_COUNTER);
	kmem_cache_free(pc_counter_cache, counter);
}

/**
 * pc_counter_update_times() - bring the counter's times up to @ctx_time
 * @counter:	the counter, under its ctx->lock
 * @ctx_time:	the context's time now
 *
 * Call before every state change, so each interval is charged to the
 * state the counter was in during it.
 */
void pc_counter_update_times(struct perf_counter *counter, u64 ctx_time)
{
	u64 delta = ctx_time - counter->tstamp;

	pc_assert_counter_locked(counter);
	if (counter->state >= PC_STATE_INACTIVE)
		counter->time_enabled += delta;
	if (counter->state == PC_STATE_ACTIVE)
		counter->time_running += delta;
	counter->tstamp = ctx_time;
}

/*
 * Change state with the times charged to the old one. A reader of the
 * counter's queue learns at once that it entered or left the error
 * state (from any context: the wakeup goes through irq_work). Under
 * ctx->lock.
 */
void pc_counter_set_state(struct perf_counter *counter, int state,
			  u64 ctx_time)
{
	bool error = state == PC_STATE_ERROR;

	pc_counter_update_times(counter, ctx_time);
	if (counter->queue && error != (counter->state == PC_STATE_ERROR))
		pc_queue_set_error(counter->queue, error);
	/* Off, error: not what a copy made at fork would have. */
	if (counter->ctx && counter->state != state &&
	    min(counter->state, state) < PC_STATE_INACTIVE)
		pc_ctx_changed(counter->ctx);
	counter->state = state;
	pc_page_publish(counter);
}

/**
 * pc_counter_sched_in() - put an enabled counter on this CPU
 * @counter:	the counter, under its ctx->lock with irqs off
 * @ctx_time:	the context's time now
 *
 * A counter that is off, already on, or restricted to another CPU is
 * left as it is.
 *
 * Return: 0, or the error of a counter that could not start.
 */
int pc_counter_sched_in(struct perf_counter *counter, u64 ctx_time)
{
	int err;

	pc_assert_counter_locked(counter);
	if (counter->state != PC_STATE_INACTIVE)
		return 0;
	if (counter->cpu >= 0 && counter->cpu != smp_processor_id())
		return 0;

	err = counter->ops->start(counter);
	if (err)
		return err;
	pc_counter_set_state(counter, PC_STATE_ACTIVE, ctx_time);
	/* Put on while its CPU idles (an IPI, the tick): paused at once. */
	if (counter->hw_event.exclude_idle && counter->ctx &&
	    !counter->ctx->task && is_idle_task(current))
		pc_counter_idle(counter, true);
	return 0;
}

/* Take a counting counter off the CPU; it stays enabled. */
void pc_counter_sched_out(struct perf_counter *counter, u64 ctx_time)
{
	pc_assert_counter_locked(counter);
	if (counter->state != PC_STATE_ACTIVE)
		return;
	/* A paused counter's stop folds nothing of the idle time. */
	counter->ops->stop(counter);
	WRITE_ONCE(counter->idle_paused, false);
	pc_counter_set_state(counter, PC_STATE_INACTIVE, ctx_time);
}

/**
 * pc_counter_idle() - exclude_idle: the CPU starts or stops idling
 * @counter:	a counter of this CPU's context, under ctx->lock, with the
 *		context's time up to date
 * @idle:	true as the CPU is about to run its idle task, false once it
 *		runs another
 *
 * An exclude_idle counter that is on stays on, but counts nothing while
 * its CPU idles: its value stops and its times run on, as they do for
 * a counter that excludes a mode. Others are left alone.
 */
void pc_counter_idle(struct perf_counter *counter, bool idle)
{
	pc_assert_counter_locked(counter);
	if (!counter->hw_event.exclude_idle ||
	    counter->state != PC_STATE_ACTIVE || counter->idle_paused == idle)
		return;
	if (idle) {
		if (counter->ops->pause)
			counter->ops->pause(counter);
		WRITE_ONCE(counter->idle_paused, true);
	} else {
		WRITE_ONCE(counter->idle_paused, false);
		if (counter->ops->resume)
			counter->ops->resume(counter);
	}
}

/* Runs where the counter's context is active: fold, then copy out. */
struct pc_read_req {
	struct perf_counter	*counter;
	struct pc_values	*vals;
};

/**
 * pc_counter_fold() - bring a counter's value and times up to now
 * @counter:	the counter, where its context is, under ctx->lock
 * @now:	the context's time, just updated
 */
void pc_counter_fold(struct perf_counter *counter, u64 now)
{
	pc_assert_counter_locked(counter);
	/* a kind whose count is always current has nothing to fold */
	if (counter->state == PC_STATE_ACTIVE &&
	    !pc_has_cap(counter, PC_CAP_COUNT_CURRENT))
		counter->ops->read(counter);
	pc_counter_update_times(counter, now);
	pc_page_publish(counter);
}

static void __pc_counter_read(struct perf_counter_context *ctx, void *info)
{
	struct pc_read_req *req = info;
	struct perf_counter *counter = req->counter;

	lockdep_assert_held(&ctx->lock);
	pc_counter_fold(counter, pc_ctx_update_time(ctx));
	req->vals->value += atomic64_read(&counter->count);
	req->vals->time_enabled += counter->time_enabled;
	req->vals->time_running += counter->time_running;
}

/**
 * pc_counter_read() - the counter's value and times, children included
 * @counter:	a top-level counter; the caller holds a reference
 * @vals:	where to put them
 *
 * The value of an inherited counter is its own count, plus the counts of
 * the children that have exited, plus the current counts of the live
 * ones. A counter of current's own context, or of this CPU's, is read
 * right here (pc_ctx_call() sends no IPI for it), and one that never had
 * a child costs no child_mutex. May sleep.
 */
void pc_counter_read(struct perf_counter *counter, struct pc_values *vals)
{
	struct pc_read_req req = { .counter = counter, .vals = vals };

	vals->value = 0;
	vals->time_enabled = 0;
	vals->time_running = 0;
	pc_ctx_call(counter->ctx, __pc_counter_read, &req);
	pc_counter_read_children(counter, vals);
}

/**
 * pc_counter_read_children() - add what a counter's children counted
 * @counter:	a top-level counter; the caller holds a reference
 * @vals:	what to add to
 *
 * The exited children's folded values and times, and each live copy's,
 * read where it is. May sleep.
 */
void pc_counter_read_children(struct perf_counter *counter,
			      struct pc_values *vals)
{
	struct pc_read_req req = { .vals = vals };
	struct perf_counter *child;

	/*
	 * No child: nothing to add, and no child_mutex. A copy can only
	 * count, or fold, once its task runs, and fork sets @had_children
	 * before the copy joins @children, under child_mutex, before the
	 * child is woken: so the store happens before every event of
	 * every copy. A reader that has learnt anything of a copy (its
	 * fork or exit, a value that included it: each through a lock,
	 * wait() or the fork itself) is ordered after that store and
	 * loads true here, and takes child_mutex below. A reader that
	 * loads false knows of no copy, and each copy has counted 0 as
	 * far as it can tell: the value without children is exact at a
	 * point between its call and its return, and no later read can
	 * be lower (it loads true, or still counts no copy).
	 */
	if (!READ_ONCE(counter->had_children))
		return;

	/* Exited children fold under child_mutex: none is seen twice. */
	mutex_lock(&counter->child_mutex);
	vals->value += atomic64_read(&counter->child_count);
	vals->time_enabled += atomic64_read(&counter->child_time_enabled);
	vals->time_running += atomic64_read(&counter->child_time_running);
	list_for_each_entry(child, &counter->children, child_entry) {
		req.counter = child;
		pc_ctx_call(child->ctx, __pc_counter_read, &req);
	}
	mutex_unlock(&counter->child_mutex);
}
