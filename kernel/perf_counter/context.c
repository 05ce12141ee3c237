// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: contexts — the counters of one task or of one CPU.
 *
 * A task context is scheduled in and out with its task; a CPU context is
 * in while its CPU is online (a CPU hotplug state takes it out before
 * the CPU goes and puts it in when it is back). Context time advances
 * only while a context is in, and is read with local_clock() on the CPU
 * it is in on, so every change to an active context runs on that CPU
 * (pc_ctx_call()).
 */
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

DEFINE_STATIC_KEY_DEFERRED_FALSE(perf_counter_task_key, HZ);

static DEFINE_PER_CPU(struct perf_counter_context, pc_cpu_ctx);

void pc_ctx_init(struct perf_counter_context *ctx, struct task_struct *task)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->groups);
	refcount_set(&ctx->refcount, 1);
	ctx->task = task;
	ctx->active_cpu = -1;
}

/**
 * pc_ctx_advance() - move context time on to @now
 * @ctx:	the context, under ctx->lock
 * @now:	local_clock() on the CPU the context is active on
 *
 * Return: the context time; it does not move while the context is out.
 */
u64 pc_ctx_advance(struct perf_counter_context *ctx, u64 now)
{
	if (ctx->is_active) {
		ctx->time += now - ctx->timestamp;
		ctx->timestamp = now;
	}
	return ctx->time;
}

u64 pc_ctx_update_time(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	/* local_clock() is this CPU's: an active context's time is its CPU's */
	WARN_ON_ONCE(ctx->is_active && ctx->active_cpu != smp_processor_id());
	return pc_ctx_advance(ctx, local_clock());
}

/*
 * Take every group of an active context off this CPU at context time
 * @now, which the caller has just brought up to date.
 */
static void pc_ctx_sched_out_at(struct perf_counter_context *ctx, u64 now)
{
	struct perf_counter *leader;

	pc_for_each_leader(leader, ctx)
		pc_group_sched_out(leader, now);
	WRITE_ONCE(ctx->is_active, false);
}

/* Take every group of an active context off this CPU. */
void pc_ctx_sched_out(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->is_active)
		pc_ctx_sched_out_at(ctx, pc_ctx_update_time(ctx));
}

/* Make the context active on this CPU and put its groups on. */
void pc_ctx_sched_in(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->is_active || ctx->dead || ctx->frozen)
		return;
	ctx->timestamp = local_clock();
	ctx->active_cpu = smp_processor_id();
	WRITE_ONCE(ctx->is_active, true);
	pc_ctx_groups_in(ctx, ctx->time);
}

/* Switch records of this CPU's CPU-wide counters, with the other task. */
static void pc_cpu_switch_records(u32 kind, struct task_struct *task,
				  struct task_struct *other)
{
	struct perf_counter_context *ctx = pc_this_cpu_ctx();

	raw_spin_lock(&ctx->lock);
	pc_ctx_update_time(ctx);
	pc_ctx_switch_records(ctx, kind, task, other);
	raw_spin_unlock(&ctx->lock);
}

/*
 * exclude_idle: this CPU is about to run its idle task (@idle) or has
 * just stopped. Its context's exclude_idle counters stay on but count
 * nothing in between (pc_counter_idle()).
 */
static void pc_cpu_idle(bool idle)
{
	struct perf_counter_context *ctx = pc_this_cpu_ctx();
	struct perf_counter *leader, *member;

	if (!READ_ONCE(ctx->nr_exclude_idle))
		return;
	raw_spin_lock(&ctx->lock);
	if (ctx->is_active) {
		pc_ctx_update_time(ctx);
		pc_for_each_leader(leader, ctx) {
			pc_counter_idle(leader, idle);
			pc_for_each_member(member, leader)
				pc_counter_idle(member, idle);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/*
 * An active task context as @prev leaves: its switch records, then off
 * the PMU at one time, unless @next owns a copy of the same counters
 * and takes ours.
 */
static void pc_ctx_leave(struct perf_counter_context *ctx,
			 struct task_struct *prev, struct task_struct *next,
			 bool records)
{
	u64 now = 0;

	/* One time for the records and the stop. */
	if (records) {
		now = pc_ctx_update_time(ctx);
		pc_ctx_switch_records(ctx, PERF_COUNTER_REC_SWITCH_OUT,
				      prev, NULL);
	}
	if (!pc_ctx_swap(prev, next, ctx))
		pc_ctx_sched_out_at(ctx, records ?
				    now : pc_ctx_update_time(ctx));
}

/*
 * The switch hooks lock the context their task's pointer names and
 * check under the lock that it is still the task's. A context brought
 * home (home.c) while its holder was switching, by an exchange that ran
 * on another CPU while this one waited for the lock, names another task
 * now, and may be active where that one runs: the pointer is read
 * again. No second exchange can follow while this CPU waits (it would
 * need this CPU to take its IPI, and irqs are off): PC_SWITCH_TRIES
 * looks are more than enough.
 */
#define PC_SWITCH_TRIES	3

void __perf_counter_task_sched_out(struct task_struct *prev,
				   struct task_struct *next)
{
	struct perf_counter_context *ctx = pc_switching_ctx(prev);
	bool records = static_branch_unlikely(&pc_switch_key.key);
	struct pc_raise raise = {};
	unsigned int tries;

	if (is_idle_task(next))
		pc_cpu_idle(true);
	if (records) {
		/* switch-out chains start where the scheduler called us */
		pc_raise_note(&raise, _RET_IP_);
		pc_cpu_switch_records(PERF_COUNTER_REC_SWITCH_OUT, prev, next);
	}
	for (tries = 0; ctx; tries++) {
		if (WARN_ON_ONCE(tries == PC_SWITCH_TRIES))
			break;
		raw_spin_lock(&ctx->lock);
		if (likely(ctx->task == prev)) {
			if (ctx->is_active)
				pc_ctx_leave(ctx, prev, next, records);
			raw_spin_unlock(&ctx->lock);
			break;
		}
		raw_spin_unlock(&ctx->lock);
		ctx = pc_switching_ctx(prev);
	}
	pc_raise_done(&raise);
}

void __perf_counter_task_sched_in(struct task_struct *prev,
				  struct task_struct *task)
{
	struct perf_counter_context *ctx = pc_switching_ctx(task);
	bool records = static_branch_unlikely(&pc_switch_key.key);
	unsigned int tries;

	/*
	 * A context that is active already and @task's was swapped to
	 * @task by the switch-out hook on this CPU, and runs on untouched.
	 * Nothing else makes @task's context active: only this CPU does,
	 * in this hook or in an IPI, and irqs are off from the switch-out
	 * hook to here. A context brought home meanwhile (home.c) names
	 * another task, and may be active where that one runs: looked at
	 * under its lock.
	 */
	if (ctx && !records && READ_ONCE(ctx->is_active) &&
	    READ_ONCE(ctx->task) == task)
		ctx = NULL;
	for (tries = 0; ctx; tries++) {
		if (WARN_ON_ONCE(tries == PC_SWITCH_TRIES))
			break;
		raw_spin_lock(&ctx->lock);
		if (likely(ctx->task == task)) {
			pc_ctx_sched_in(ctx);
			if (records && ctx->is_active) {
				pc_ctx_update_time(ctx);
				pc_ctx_switch_records(ctx,
						      PERF_COUNTER_REC_SWITCH_IN,
						      task, NULL);
			}
			raw_spin_unlock(&ctx->lock);
			break;
		}
		raw_spin_unlock(&ctx->lock);
		ctx = pc_switching_ctx(task);
	}
	if (records)
		pc_cpu_switch_records(PERF_COUNTER_REC_SWITCH_IN, task, prev);
	if (is_idle_task(prev))
		pc_cpu_idle(false);
}

struct perf_counter_context *pc_this_cpu_ctx(void)
{
	return this_cpu_ptr(&pc_cpu_ctx);
}

/**
 * pc_cpu_ctx_maybe_busy() - might this CPU's context hold counters?
 *
 * A hint, read without the lock and from any context (preemptible: the
 * CPU may change right after): for hooks that would do work before
 * finding out under the lock.
 *
 * Return: false if its group list was empty as looked at.
 */
bool pc_cpu_ctx_maybe_busy(void)
{
	/* unlocked: a hint, looked at again under the lock */
	return !data_race(list_empty(&raw_cpu_ptr(&pc_cpu_ctx)->groups));
}

struct pc_call {
	struct perf_counter_context	*ctx;
	pc_ctx_fn			fn;
	void				*info;
	bool				done;
};

/*
 * IPI handler: run the function if the context is (or, for a task
 * context whose task is running here, becomes) active on this CPU.
 */
static void pc_call_here(void *data)
{
	struct pc_call *call = data;
	struct perf_counter_context *ctx = call->ctx;

	raw_spin_lock(&ctx->lock);
	if (ctx->task && !ctx->dead) {
		if (ctx->task != current)
			goto out;
		/* A context made while its task ran was never put in. */
		pc_ctx_sched_in(ctx);
	} else if (!ctx->task && !ctx->is_active) {
		goto out;	/* its CPU is going: the caller runs it */
	}
	call->fn(ctx, call->info);
	call->done = true;
out:
	raw_spin_unlock(&ctx->lock);
}

/*
 * Where must a change to @ctx run? -1: here, under ctx->lock, with irqs
 * off since it was taken (so this CPU cannot change under the caller):
 * the context is active on this CPU, or is not active anywhere and its
 * task, if it has one, is not running. A context active here is as the
 * IPI handler would find it, its task current, and is changed in place.
 */
static int pc_ctx_cpu(struct perf_counter_context *ctx)
{
	if (ctx->is_active)
		return ctx->active_cpu == smp_processor_id() ?
		       -1 : ctx->active_cpu;
	if (!ctx->task || ctx->dead)
		return -1;
	if (task_curr(ctx->task))
		return task_cpu(ctx->task);
	return -1;
}

/* pc_ctx_call()'s loop; @may_sleep: may give up the CPU between tries */
static void __pc_ctx_call(struct perf_counter_context *ctx, pc_ctx_fn fn,
			  void *info, bool may_sleep)
{
	struct pc_call call = { .ctx = ctx, .fn = fn, .info = info };
	int cpu;

	for (;;) {
		raw_spin_lock_irq(&ctx->lock);
		cpu = pc_ctx_cpu(ctx);
		if (cpu < 0) {
			fn(ctx, info);
			raw_spin_unlock_irq(&ctx->lock);
			return;
		}
		raw_spin_unlock_irq(&ctx->lock);

		if (!smp_call_function_single(cpu, pc_call_here, &call, 1) &&
		    call.done)
			return;
		/* The task moved, or the CPU went, between look and call. */
		if (may_sleep)
			cond_resched();
		else
			cpu_relax();
	}
}

/**
 * pc_ctx_call() - run @fn on @ctx where it is safe to
 * @ctx:	the context
 * @fn:		called with ctx->lock held and irqs off
 * @info:	passed to @fn
 *
 * @fn runs on the CPU the context is active on, or, when it is not
 * active and its task is not running (or its CPU is offline), right
 * here: a task that is about to be scheduled in, or a CPU coming
 * online, waits for ctx->lock and then sees what @fn did. A context
 * active on this CPU (current's own, this CPU's) is changed here too,
 * with no IPI: irqs are off from the check to the end of @fn, so it
 * cannot be switched out meanwhile.
 * Process context only; may wait for another CPU.
 */
void pc_ctx_call(struct perf_counter_context *ctx, pc_ctx_fn fn, void *info)
{
	might_sleep();
	__pc_ctx_call(ctx, fn, info, true);
}

/**
 * pc_ctx_call_atomic() - pc_ctx_call() with preemption off
 * @ctx:	the context
 * @fn:		as for pc_ctx_call()
 * @info:	passed to @fn
 *
 * For steps that must follow each other with no preemption between
 * them (home.c). Irqs on: it may wait for another CPU.
 */
void pc_ctx_call_atomic(struct perf_counter_context *ctx, pc_ctx_fn fn,
			void *info)
{
	lockdep_assert_irqs_enabled();
	__pc_ctx_call(ctx, fn, info, false);
}

/**
 * pc_ctx_try_here() - pc_ctx_call() from hard interrupt context
 * @ctx:	the context
 * @fn:		as for pc_ctx_call()
 * @info:	passed to @fn
 *
 * Where waiting for another CPU is not allowed (an irq_work): @fn runs
 * now if this CPU is where it must, else the caller is told which CPU
 * that is, to go on from where it may wait (a workqueue's
 * pc_ctx_call()). Irqs off.
 *
 * Return: -1 if @fn ran, else the CPU to run it on.
 */
int pc_ctx_try_here(struct perf_counter_context *ctx, pc_ctx_fn fn,
		    void *info)
{
	struct pc_call call = { .ctx = ctx, .fn = fn, .info = info };
	int cpu;

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&ctx->lock);
	cpu = pc_ctx_cpu(ctx);
	if (cpu < 0)
		fn(ctx, info);
	raw_spin_unlock(&ctx->lock);
	if (cpu < 0 || cpu != smp_processor_id())
		return cpu;
	/* its task runs here, its context not yet put in */
	pc_call_here(&call);
	return call.done ? -1 : cpu;
}

/**
 * pc_ctx_call_locked() - pc_ctx_call() for a change to a context's counters
 * @ctx:	the context, its mutex held by the caller
 * @fn:		as for pc_ctx_call()
 * @info:	passed to @fn
 *
 * Installs, removals and prctl() change which counters a context holds
 * or how its groups are, under ctx->mutex. @fn may run on another CPU,
 * where lockdep cannot see the mutex, so it is asserted here.
 */
void pc_ctx_call_locked(struct perf_counter_context *ctx, pc_ctx_fn fn,
			void *info)
{
	lockdep_assert_held(&ctx->mutex);
	pc_ctx_call(ctx, fn, info);
}

/* A new, empty task context; the caller links it to its task. */
struct perf_counter_context *pc_task_ctx_alloc(struct task_struct *task)
{
	struct perf_counter_context *ctx;

	/* charged to current's memory cgroup: the cache is SLAB_ACCOUNT */
	ctx = kmem_cache_zalloc(pc_ctx_cache, GFP_KERNEL);
	if (!ctx)
		return NULL;
	pc_object_made(PC_OBJ_CONTEXT);
	pc_ctx_init(ctx, task);
	/* On before the context can be seen, so no switch is missed. */
	static_branch_deferred_inc(&perf_counter_task_key);
	return ctx;
}

void pc_ctx_get(struct perf_counter_context *ctx)
{
	if (ctx->task)
		refcount_inc(&ctx->refcount);
}

/*
 * A task context's memory goes back to its cache a grace period after
 * the last put: pc_task_ctx_hold() may have read the task's pointer to
 * it, with interrupts off, just before the put, and still lock it.
 * call_rcu() with kmem_cache_free(), as kfree_rcu() is for kmalloc()'s
 * objects under every allocator 6.1 offers.
 */
static void pc_ctx_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(pc_ctx_cache,
			container_of(head, struct perf_counter_context, rcu));
}

/*
 * Drop a reference to a task context; CPU contexts live for ever.
 * May sleep (the static key).
 *
 * A task context does not pin the task it runs with: once the task is
 * gone the context is dead, and ctx->task is only compared, never
 * followed. It holds a reference to its owner (home.c), put here.
 */
void pc_ctx_put(struct perf_counter_context *ctx)
{
	if (!ctx->task || !refcount_dec_and_test(&ctx->refcount))
		return;
	WARN_ON_ONCE(ctx->nr_counters);
	if (ctx->owner)
		put_task_struct(ctx->owner);
	static_branch_slow_dec_deferred(&perf_counter_task_key);
	pc_object_ended(PC_OBJ_CONTEXT);
	call_rcu(&ctx->rcu, pc_ctx_free_rcu);
}

/* The task's context with a reference, made if it has none yet. */
static struct perf_counter_context *pc_task_ctx_get(struct task_struct *task)
{
	struct perf_counter_context *ctx;
	int err;

	for (;;) {
		/* A counter is about to go in: the context stays the task's. */
		ctx = pc_task_ctx_hold(task, PC_HOLD_OPEN);
		if (ctx)
			return ctx;

		ctx = pc_task_ctx_alloc(task);
		if (!ctx)
			return ERR_PTR(-ENOMEM);

		task_lock(task);
		if (task->flags & PF_EXITING) {
			err = -ESRCH;
		} else if (rcu_access_pointer(task->perf_counter_ctxp)) {
			err = -EAGAIN;
		} else {
			refcount_set(&ctx->refcount, 2);  /* task, caller */
			ctx->owner = get_task_struct(task);
			ctx->opening = 1;
			/* Made before seen: the hooks read it without a lock. */
			rcu_assign_pointer(task->perf_counter_ctxp, ctx);
			err = 0;
		}
		task_unlock(task);
		if (!err)
			return ctx;

		pc_ctx_put(ctx);
		if (err != -EAGAIN)
			return ERR_PTR(err);
	}
}

/**
 * pc_find_task() - the task a new counter is for
 * @pid:	0 for the caller, > 0 for that task, < 0 for none: every task
 *		on a CPU, as the 2009 perf-counters.txt says of any negative pid
 *
 * Return: the task with a reference, NULL for a negative pid, or
 * ERR_PTR(-ESRCH) if there is no such task.
 */
struct task_struct *pc_find_task(pid_t pid)
{
	struct task_struct *task;

	if (pid < 0)
		return NULL;

	rcu_read_lock();
	task = pid ? find_task_by_vpid(pid) : current;
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ?: ERR_PTR(-ESRCH);
}

/**
 * pc_check_cpu() - may a counter for @task count on @cpu?
 * @task:	the task, or NULL for every task on @cpu
 * @cpu:	-1 for any CPU, or the CPU to count on
 *
 * The first check of an open: nothing may use @cpu (a per-CPU pointer,
 * a CPU context) before it has passed.
 *
 * Return: 0, or -EINVAL for a @cpu out of range or offline, or no task
 * and no CPU.
 */
int pc_check_cpu(struct task_struct *task, int cpu)
{
	if (cpu < -1 || cpu >= (int)nr_cpu_ids || (cpu >= 0 && !cpu_online(cpu)))
		return -EINVAL;
	if (!task && cpu < 0)
		return -EINVAL;
	return 0;
}

/**
 * pc_find_context() - the context a new counter goes into
 * @task:	the task from pc_find_task(), or NULL for a CPU context
 * @cpu:	-1 for any CPU, or the CPU to count on, as pc_check_cpu()
 *		passed them
 *
 * The caller has checked the privilege a whole CPU needs
 * (pc_check_privilege()), and checks the right to trace another task
 * under the task's exec_update_lock, so that an exec cannot slip
 * between the check and the install.
 *
 * Return: the context with a reference, or ERR_PTR(): -ENOMEM, or
 * -ESRCH for a task that is exiting.
 */
struct perf_counter_context *pc_find_context(struct task_struct *task,
					     int cpu)
{
	if (!task)
		return per_cpu_ptr(&pc_cpu_ctx, cpu);
	return pc_task_ctx_get(task);
}

/**
 * pc_member_context() - the context a new member of @leader's group goes in
 * @leader:	the group's leader, held through its file
 * @task:	the task the new counter is for, or NULL for a CPU context
 * @cpu:	-1 for any CPU, or the CPU to count on, as pc_check_cpu()
 *		passed them
 *
 * A member must count what its leader counts: the same task, or the same
 * CPU's every task. Its context is the leader's, which exists already,
 * so a group refused here makes no context. The leader's CPU is checked
 * against @cpu by pc_check_group().
 *
 * Return: the leader's context with a reference, or ERR_PTR(-EINVAL) for
 * a leader in another task's or CPU's context.
 */
struct perf_counter_context *pc_member_context(const struct perf_counter *leader,
					       struct task_struct *task,
					       int cpu)
{
	struct perf_counter_context *ctx = leader->ctx, *own;

	if (!task) {
		if (ctx != per_cpu_ptr(&pc_cpu_ctx, cpu))
			return ERR_PTR(-EINVAL);
		pc_ctx_get(ctx);
		return ctx;
	}
	/* The owner is held by the context: it cannot be a new @task. */
	if (READ_ONCE(ctx->owner) != task)
		return ERR_PTR(-EINVAL);
	/*
	 * The leader's context may have swapped with a clone (home.c):
	 * home, and bound, before the member goes in to count @task. A
	 * dead one (@task exited) is @task's no more.
	 */
	own = pc_task_ctx_hold(task, PC_HOLD_OPEN);
	if (own == ctx)
		return ctx;	/* the hold's reference, the open's end */
	if (own) {
		pc_ctx_open_end(own);
		pc_ctx_put(own);
	}
	return ERR_PTR(READ_ONCE(ctx->dead) ? -ESRCH : -EINVAL);
}

/**
 * pc_ctx_leaders() - @ctx's group leaders, in an array
 * @ctx:	a context, its mutex held
 * @inherited:	only the leaders of groups children inherit (fork)
 * @nr:		set to how many leaders the array holds
 * @snapshot:	if not NULL, set to @ctx's state number as the list was read
 *
 * For a walk of the leaders that sleeps (fork's copies, prctl()'s
 * questions to a security module): the tick's rotation re-sorts
 * ctx->groups under ctx->lock alone, so the list is read once under the
 * lock. ctx->mutex, held, keeps every leader installed and every
 * group's members as they are. A task may hold as many counters as it
 * may open files (a million by default): the array may be larger than
 * kmalloc() gives without a warning, so it comes from kvmalloc(), and a
 * failure is a clean -ENOMEM.
 *
 * Return: the array, to free with pc_ctx_leaders_free(); NULL when @ctx
 * has no counter; ERR_PTR(-ENOMEM).
 */
struct perf_counter **pc_ctx_leaders(struct perf_counter_context *ctx,
				     bool inherited, unsigned int *nr,
				     u64 *snapshot)
{
	unsigned int max = ctx->nr_counters, n = 0;
	struct perf_counter **leaders, *leader;

	lockdep_assert_held(&ctx->mutex);
	*nr = 0;
	if (!max)
		return NULL;
	leaders = kvmalloc_array(max, sizeof(*leaders), GFP_KERNEL);
	if (!leaders)
		return ERR_PTR(-ENOMEM);
	pc_object_made(PC_OBJ_ARRAY);
	raw_spin_lock_irq(&ctx->lock);
	pc_for_each_leader(leader, ctx)
		if ((!inherited || leader->hw_event.inherit) &&
		    !WARN_ON_ONCE(n == max))
			leaders[n++] = leader;
	if (snapshot)
		*snapshot = pc_ctx_snapshot(ctx);
	raw_spin_unlock_irq(&ctx->lock);
	*nr = n;
	return leaders;
}

/**
 * pc_ctx_leaders_free() - free what pc_ctx_leaders() gave
 * @leaders:	its array, or NULL
 */
void pc_ctx_leaders_free(struct perf_counter **leaders)
{
	if (!leaders)
		return;
	kvfree(leaders);
	pc_object_ended(PC_OBJ_ARRAY);
}

/*
 * CPU hotplug, on the CPU itself: a CPU context is in from when its CPU
 * is online until it goes, and its counters are off the CPU meanwhile
 * (their times stand still; counters can still be opened, read and
 * closed, from any CPU, under ctx->lock).
 */
static int pc_cpu_online(unsigned int cpu)
{
	struct perf_counter_context *ctx = per_cpu_ptr(&pc_cpu_ctx, cpu);

	pc_hw_cpu_online();
	raw_spin_lock_irq(&ctx->lock);
	pc_ctx_sched_in(ctx);
	raw_spin_unlock_irq(&ctx->lock);
	return 0;
}

static int pc_cpu_offline(unsigned int cpu)
{
	struct perf_counter_context *ctx = per_cpu_ptr(&pc_cpu_ctx, cpu);

	raw_spin_lock_irq(&ctx->lock);
	pc_ctx_sched_out(ctx);
	raw_spin_unlock_irq(&ctx->lock);
	return 0;
}

static int __init pc_cpu_ctx_init(void)
{
	int cpu, state;

	for_each_possible_cpu(cpu) {
		struct perf_counter_context *ctx = per_cpu_ptr(&pc_cpu_ctx, cpu);

		pc_ctx_init(ctx, NULL);
		ctx->active_cpu = cpu;
	}
	/* Runs pc_cpu_online() on every CPU online now, then as they come. */
	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf_counter:online",
				  pc_cpu_online, pc_cpu_offline);
	return state < 0 ? state : 0;
}
core_initcall(pc_cpu_ctx_init);
