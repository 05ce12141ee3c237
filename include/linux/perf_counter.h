/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: the kernel side, as the rest of the kernel sees it.
 *
 * The scheduler, fork, exec, exit, prctl, mmap and fault paths call the
 * hooks below. Those on hot paths are patched-out static branches until the
 * first counter of their kind exists, so a kernel with the subsystem
 * built in but unused pays nothing on those paths; the tick, prctl and
 * fork-failure hooks are plain calls (see below).
 */
#ifndef _LINUX_PERF_COUNTER_H
#define _LINUX_PERF_COUNTER_H

#include <uapi/linux/perf_counter.h>

struct task_struct;
struct pt_regs;
struct vm_area_struct;

#ifdef CONFIG_PERF_COUNTERS

#include <linux/jump_label_ratelimit.h>
#include <linux/sched.h>

/*
 * The hooks on hot paths (context switch, migration, fork, exit and the
 * software events) cost a patched-out branch while nothing counts. The
 * keys go off a second after their last user, so opening and closing
 * counters in a loop does not rewrite kernel text each time. Three are
 * plain calls: the tick (once a jiffy; it reads this CPU's contexts),
 * prctl() (a system call of its own) and fork's failure path (it frees
 * what perf_counter_init_task() made, whatever the keys say now).
 */
extern struct static_key_false_deferred perf_counter_task_key;
extern struct static_key_false_deferred perf_counter_sw_key;
extern struct static_key_false_deferred pc_sideband_key;

void __perf_counter_task_sched_out(struct task_struct *prev,
				   struct task_struct *next);
void __perf_counter_task_sched_in(struct task_struct *prev,
				  struct task_struct *task);
int __perf_counter_init_task(struct task_struct *child);
void __perf_counter_exit_task_stop(struct task_struct *task);
void __perf_counter_exit_task(struct task_struct *task);
void __perf_counter_sw_event(unsigned int id, u64 nr, struct pt_regs *regs);
void __perf_counter_mmap(struct vm_area_struct *vma);
void __perf_counter_comm(struct task_struct *task, bool exec);
void __perf_counter_fork(struct task_struct *child);
void perf_counter_free_task(struct task_struct *child);
void perf_counter_exec_untrusted(struct task_struct *task);
void perf_counter_task_tick(void);
int perf_counter_task_disable(void);
int perf_counter_task_enable(void);

/**
 * perf_counter_task_sched_out() - a task is about to leave the CPU
 * @prev:	the task leaving (current)
 * @next:	the task that takes the CPU
 *
 * Called from prepare_task_switch(), right before perf_events' hook.
 * Counts the context switch for the context-switch software counters,
 * then takes @prev's counters off the CPU, folding their values.
 */
static inline void perf_counter_task_sched_out(struct task_struct *prev,
					       struct task_struct *next)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		__perf_counter_sw_event(PERF_COUNT_CONTEXT_SWITCHES, 1, NULL);
	if (static_branch_unlikely(&perf_counter_task_key.key))
		__perf_counter_task_sched_out(prev, next);
}

/**
 * perf_counter_task_sched_in() - a task has just taken the CPU
 * @prev:	the task that left it
 * @task:	the task now running (current)
 *
 * Called from finish_task_switch(), right before perf_events' hook.
 * Puts @task's counters on the CPU, then counts a migration for the
 * migration software counters if @task moved since it last ran (see
 * perf_counter_task_migrate()).
 */
static inline void perf_counter_task_sched_in(struct task_struct *prev,
					      struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_task_key.key))
		__perf_counter_task_sched_in(prev, task);
	if (static_branch_unlikely(&perf_counter_sw_key.key) &&
	    task->perf_counter_migrated) {
		task->perf_counter_migrated = 0;
		__perf_counter_sw_event(PERF_COUNT_CPU_MIGRATIONS, 1, NULL);
	}
}

/**
 * perf_counter_task_migrate() - a task moves to another CPU
 * @task:	the task
 *
 * Called from set_task_cpu(). Only marks @task: the migration is
 * counted when it next runs, on its new CPU.
 */
static inline void perf_counter_task_migrate(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		task->perf_counter_migrated = 1;
}

/**
 * perf_counter_init_task() - set up a new task's counters at fork
 * @child:	the new task, a copy of current
 *
 * Called from copy_process(). Clears the two task_struct fields the
 * child copied from its parent, then copies the parent's inherited
 * counters into a context of the child's own.
 *
 * Return: 0, or a negative errno if the copies could not be made (the
 * fork then fails).
 */
static inline int perf_counter_init_task(struct task_struct *child)
{
	RCU_INIT_POINTER(child->perf_counter_ctxp, NULL);
	child->perf_counter_migrated = 0;
	if (static_branch_unlikely(&perf_counter_task_key.key) &&
	    rcu_access_pointer(current->perf_counter_ctxp))
		return __perf_counter_init_task(child);
	return 0;
}

/**
 * perf_counter_exit_task_stop() - an exiting task's counters stop
 * @task:	the task (current)
 *
 * Called from do_exit() right before perf_events' exit hook, as the
 * switch hooks are called right before perf_events' own, so that
 * @task's clocks stop where perf_events' stop and not after the work
 * of its hook (see Documentation/perf_counter/core.rst). Takes @task's
 * context off the CPU for good: nothing more may be installed in it,
 * and writes the task's EXIT records (perf_counter_fork() has more).
 * perf_counter_exit_task(), called after perf_events' hook, does the
 * rest.
 */
static inline void perf_counter_exit_task_stop(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_task_key.key) ||
	    static_branch_unlikely(&pc_sideband_key.key))
		__perf_counter_exit_task_stop(task);
}

/**
 * perf_counter_exit_task() - a task exits
 * @task:	the task (current)
 *
 * Called from do_exit(), after perf_events' exit hook. Folds the
 * counts of @task's inherited copies into their top-level counters and
 * takes every other counter on @task out of its context.
 *
 * Not merged with perf_counter_exit_task_stop(): our teardown runs
 * after perf_events' hook so that its work is not counted by their
 * clocks, as theirs is not counted by ours, which stopped before it.
 * One hook on either side would charge one subsystem's teardown to the
 * other's task-clock (see "Agreeing with perf_events" in
 * Documentation/perf_counter/core.rst).
 */
static inline void perf_counter_exit_task(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_task_key.key))
		__perf_counter_exit_task(task);
}

/**
 * perf_counter_sw_event() - a software event happened
 * @id:		the event, a PERF_COUNT_* software id
 * @nr:		how many times
 * @regs:	the interrupted state, for samples and the exclude bits;
 *		NULL for events the kernel raises itself (kernel mode)
 *
 * Counts the event for the counters of that id on this CPU: the current
 * task's and the CPU's. A patched-out branch while no software event
 * counter exists.
 */
static inline void perf_counter_sw_event(unsigned int id, u64 nr,
					 struct pt_regs *regs)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		__perf_counter_sw_event(id, nr, regs);
}

/*
 * Side-band records (kernel/perf_counter/sideband.c): patched-out
 * branches while no counter asks for them (PERF_SIDEBAND_*). Each is
 * called beside perf_events' hook of the same event.
 */

/**
 * perf_counter_mmap() - a mapping was made or made executable
 * @vma:	the mapping, in current's address space, mmap_lock held
 *
 * From mmap_region(), mprotect() and the special mappings (the vDSO):
 * an executable one is recorded for the counters that asked.
 */
static inline void perf_counter_mmap(struct vm_area_struct *vma)
{
	if (static_branch_unlikely(&pc_sideband_key.key))
		__perf_counter_mmap(vma);
}

/**
 * perf_counter_comm() - a task's name changed
 * @task:	the task, its new name set
 * @exec:	by exec (else prctl(PR_SET_NAME) or /proc/PID/comm)
 */
static inline void perf_counter_comm(struct task_struct *task, bool exec)
{
	if (static_branch_unlikely(&pc_sideband_key.key))
		__perf_counter_comm(task, exec);
}

/**
 * perf_counter_fork() - current made a task
 * @child:	the new task, its pid given, not yet running
 *
 * Its exit is recorded by perf_counter_exit_task_stop().
 */
static inline void perf_counter_fork(struct task_struct *child)
{
	if (static_branch_unlikely(&pc_sideband_key.key))
		__perf_counter_fork(child);
}

#else /* !CONFIG_PERF_COUNTERS */

static inline void perf_counter_task_sched_out(struct task_struct *prev,
					       struct task_struct *next) { }
static inline void perf_counter_task_sched_in(struct task_struct *prev,
					      struct task_struct *task) { }
static inline void perf_counter_task_migrate(struct task_struct *task) { }
static inline int perf_counter_init_task(struct task_struct *child)
{
	return 0;
}
static inline void perf_counter_free_task(struct task_struct *child) { }
static inline void perf_counter_exec_untrusted(struct task_struct *task) { }
static inline void perf_counter_exit_task_stop(struct task_struct *task) { }
static inline void perf_counter_exit_task(struct task_struct *task) { }
static inline void perf_counter_task_tick(void) { }
static inline int perf_counter_task_disable(void)
{
	return 0;
}
static inline int perf_counter_task_enable(void)
{
	return 0;
}
static inline void perf_counter_sw_event(unsigned int id, u64 nr,
					 struct pt_regs *regs) { }
static inline void perf_counter_mmap(struct vm_area_struct *vma) { }
static inline void perf_counter_comm(struct task_struct *task, bool exec) { }
static inline void perf_counter_fork(struct task_struct *child) { }

#endif /* CONFIG_PERF_COUNTERS */

#endif /* _LINUX_PERF_COUNTER_H */
