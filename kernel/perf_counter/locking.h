/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter core: the locking rules, and the helpers that assert them.
 *
 * Locking, outermost first:
 *
 *   task->signal->exec_update_lock
 *                      read, by an open on another task (syscall.c):
 *                      held from the permission check to the install,
 *                      so no exec slips between; everything below may
 *                      be taken inside it.
 *   ctx->mutex         structural changes to a context: installing and
 *                      removing counters, a group's members, its task's
 *                      exit, prctl, each held across its pc_ctx_call().
 *                      Process context only. Fork holds the parent's
 *                      and, nested inside it, the child's.
 *   counter->child_mutex
 *                      a top-level counter's @children and @released.
 *                      Taken inside a ctx->mutex (fork, the RESET
 *                      ioctl, a group read), or alone (read, other
 *                      ioctls, release, a copy's fold at exit), never
 *                      around one.
 *   pc_hw_reserve_mutex
 *                      the PMU registers' users (hw_pmu.c); taken
 *                      inside ctx->mutex (a hardware copy made at fork)
 *                      and in the CPU hotplug callbacks, never around
 *                      anything here.
 *   pc_output_mutex    where records go (output.c): every SET_OUTPUT, and
 *                      the mmap() of a ring, inside mmap_lock; takes
 *                      child_mutex, a queue's read_mutex (trylock) and
 *                      q->lock inside, and never ctx->mutex (SET_OUTPUT
 *                      checks record sizes under ctx->mutex before).
 *   pc_tp_mutex        the tracepoints in use (tp_counter.c): inside
 *                      ctx->mutex (fork) and exec_update_lock (open);
 *                      takes only the tracing code's own locks inside.
 *   q->read_mutex      a queue's reader (queue.c), held around
 *                      mmap_lock, which copying records to user memory
 *                      may fault on; a resize only tries it, inside
 *                      ctx->mutex, and so does an mmap() of the ring,
 *                      inside mmap_lock. So ctx->mutex is never taken
 *                      under mmap_lock (page.c's first mmap() installs
 *                      its page under ctx->lock alone).
 *   ctx->lock          raw, irqs off: everything the scheduler touches.
 *                      May be taken inside child_mutex (fork links a
 *                      copy into the child's context).
 *   q->lock            raw, irqs off: a record queue's producers; inside
 *                      ctx->lock, or alone.
 *
 * What each guards:
 *
 *   counter->out, out_writer
 *                      change under pc_output_mutex and child_mutex
 *                      together (SET_OUTPUT), @out_writer also under
 *                      child_mutex alone (the records' end, inherit.c);
 *                      producers load @out with irqs off, and the queue
 *                      it named is dropped a grace period after.
 *
 *   ctx->groups        its membership changes under ctx->mutex and
 *                      ctx->lock together; its order changes under
 *                      ctx->lock alone (the tick's rotation sorts it).
 *                      So it is walked under ctx->lock, and a walk that
 *                      sleeps copies it first (fork, inherit.c).
 *   leader->siblings   changes under ctx->mutex and ctx->lock together:
 *                      stable under either.
 *   leader->read_members, counter->read_entry
 *                      ctx->mutex alone: the group a PERF_FORMAT_GROUP
 *                      read gives (read.c), which a task's exit leaves
 *                      as it is. Read where the context is too, by the
 *                      group read's pc_ctx_call(), whose caller holds
 *                      the mutex across it.
 *   counter->state, times, period_left, ctx->time, is_active, rotate,
 *   nr_counters        ctx->lock, on the CPU the context is active on
 *                      (pc_ctx_call()), or anywhere while it is not.
 *   counter->period, period_len, freq_*, refresh*
 *                      the same, and the counter's own sample path
 *                      (its overflow NMI too); under ctx->lock only
 *                      through pc_counter_change(), which keeps that
 *                      path out (period.c).
 *   counter->children  child_mutex. A copy leaves it exactly once: its
 *                      task's exit folds it, or its top-level counter's
 *                      release takes it; whoever unlinks it drops the
 *                      list's reference. Once @released is set no copy
 *                      joins. @had_children is set under child_mutex
 *                      before the first copy joins, and read without
 *                      it: false means no copy to add, so a read skips
 *                      child_mutex (the ordering: pc_counter_read()).
 *   task->perf_counter_ctxp
 *                      RCU-published (__rcu): set once under task_lock()
 *                      (context.c), cleared at exit under task_lock() and
 *                      the context's locks, and exchanged under both
 *                      contexts' locks: at a switch (swap.c), or when a
 *                      context is brought home (home.c, which also holds
 *                      both contexts' mutexes). Read under
 *                      rcu_read_lock(), or with irqs off by the switch
 *                      hooks and the tick (pc_switching_ctx()); a
 *                      context goes a grace period after its last put.
 *                      Whoever reaches a context through its task holds
 *                      it with pc_task_ctx_hold() before relying on it;
 *                      the switch-in hook checks ctx->task under the lock.
 *   ctx->task, owner, away, clone_id, snapshot, swap_id, opening,
 *   homed, frozen, pins
 *                      ctx->lock. ctx->owner is set once, when the
 *                      context is bound, with a reference to the task
 *                      put with the context: compared without the lock,
 *                      followed only under it (home.c).
 *   CPU contexts       in while their CPU is online: a CPU hotplug state
 *                      puts them in and takes them out, on that CPU.
 *
 * In NMI (x86's overflow interrupt) nothing is waited for: the handler
 * reads pc_hw_cpu.on[] (published with WRITE_ONCE once a counter is
 * loaded), folds with a cmpxchg on hw.prev, only tries q->lock and,
 * for a group record, ctx->lock, counts what it cannot write as lost,
 * and wakes readers through irq_work. It never allocates or sleeps.
 *
 * A context that is active (its task is running, or it is a CPU context)
 * may only be changed on the CPU it is active on: pc_ctx_call() runs a
 * function there, with an IPI from another CPU and in place from that
 * one (found active here under ctx->lock, irqs off), or locally when the
 * context is inactive.
 */
#ifndef _KERNEL_PERF_COUNTER_LOCKING_H
#define _KERNEL_PERF_COUNTER_LOCKING_H

#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

/*
 * Irqs off, as the rule says. In NMI they are off whatever lockdep was
 * told (powerpc's NMI does not tell it).
 */
static inline void pc_assert_irqs_off(void)
{
	if (!in_nmi())
		lockdep_assert_irqs_disabled();
}

/*
 * A counter's state, times and period: under its context's lock, or,
 * for a counter in no context yet (being made, or a KUnit model's),
 * its maker's alone.
 */
static inline void pc_assert_counter_locked(const struct perf_counter *counter)
{
	if (counter->ctx)
		lockdep_assert_held(&counter->ctx->lock);
}

/*
 * The context of a task switching on or off this CPU, or of current in
 * the tick: irqs are off, an RCU read-side section (it is not freed).
 * Only this CPU's switch swaps it; an exchange (home.c) may move it
 * from another CPU, under the context's lock, so whoever acts on it
 * checks under the lock: the switch hooks that ctx->task is theirs
 * (pc_switching_lock()), the tick that the context is active here (a
 * parent's, the only kind an exchange moves, has no frequency counter
 * nor counter page for its other ticks).
 */
static inline struct perf_counter_context *
pc_switching_ctx(struct task_struct *task)
{
	return rcu_dereference_sched(task->perf_counter_ctxp);
}

#endif /* _KERNEL_PERF_COUNTER_LOCKING_H */
