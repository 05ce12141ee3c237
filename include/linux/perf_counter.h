/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: the kernel side, as the rest of the kernel sees it.
 *
 * The scheduler, fork, exit, prctl and fault paths call the inline hooks
 * below. Each is a patched-out static branch until the first counter of
 * its kind exists, so a kernel with the subsystem built in but unused
 * pays nothing on those paths.
 */
#ifndef _LINUX_PERF_COUNTER_H
#define _LINUX_PERF_COUNTER_H

#include <uapi/linux/perf_counter.h>

struct task_struct;
struct pt_regs;

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

void __perf_counter_task_sched_out(struct task_struct *prev,
				   struct task_struct *next);
void __perf_counter_task_sched_in(struct task_struct *prev,
				  struct task_struct *task);
int __perf_counter_init_task(struct task_struct *child);
void __perf_counter_exit_task(struct task_struct *task);
void __perf_counter_sw_event(unsigned int id, u64 nr, struct pt_regs *regs);
void perf_counter_free_task(struct task_struct *child);
void perf_counter_task_tick(void);
int perf_counter_task_disable(void);
int perf_counter_task_enable(void);

/* prepare_task_switch(): @prev is about to leave the CPU. */
static inline void perf_counter_task_sched_out(struct task_struct *prev,
					       struct task_struct *next)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		__perf_counter_sw_event(PERF_COUNT_CONTEXT_SWITCHES, 1, NULL);
	if (static_branch_unlikely(&perf_counter_task_key.key))
		__perf_counter_task_sched_out(prev, next);
}

/* finish_task_switch(): @task (current) has just come onto the CPU. */
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

/* set_task_cpu(): @task moves; counted when it next runs. */
static inline void perf_counter_task_migrate(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		task->perf_counter_migrated = 1;
}

/* copy_process(): @child is a copy of current; clone inherited counters. */
static inline int perf_counter_init_task(struct task_struct *child)
{
	child->perf_counter_ctxp = NULL;
	child->perf_counter_migrated = 0;
	if (static_branch_unlikely(&perf_counter_task_key.key) &&
	    current->perf_counter_ctxp)
		return __perf_counter_init_task(child);
	return 0;
}

/* do_exit(): fold inherited counts into the parents, detach the rest. */
static inline void perf_counter_exit_task(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_task_key.key))
		__perf_counter_exit_task(task);
}

/* A software event happened @nr times in the current context. */
static inline void perf_counter_sw_event(unsigned int id, u64 nr,
					 struct pt_regs *regs)
{
	if (static_branch_unlikely(&perf_counter_sw_key.key))
		__perf_counter_sw_event(id, nr, regs);
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

#endif /* CONFIG_PERF_COUNTERS */

#endif /* _LINUX_PERF_COUNTER_H */
