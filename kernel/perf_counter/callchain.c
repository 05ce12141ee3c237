// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: call chains in sample records (PERF_RECORD_CALLCHAIN).
 *
 * A sample's chain is walked into a buffer of this CPU's first
 * (pc_chain_take()), with irqs off but no queue lock held (a switch-out
 * record's, pc_chain_take_switch(), under the run queue's and the
 * context's locks, in the scheduler's hook), then copied into
 * the record, which is reserved at the size the chain came to: the
 * queue's lock is held for a copy, not for a walk of up to 255 user
 * frames, and a queue never has room set aside for a depth a chain did
 * not reach. The chain holds, innermost first:
 *
 *  - the kernel part, behind PERF_CONTEXT_KERNEL, for a counter that
 *    counts the kernel (one that excludes it, as every unprivileged
 *    counter at kernel.perf_event_paranoid 2 must, shows no kernel
 *    address): from the interrupted kernel state, through the kernel's
 *    unwinder; or, for an event the kernel raises in the task it counts
 *    (a software event, a tracepoint: PC_CAP_RAISED), from where it
 *    raised it, this subsystem's own frames left out;
 *  - the user part, behind PERF_CONTEXT_USER, for a counter that counts
 *    user mode, of a task with a user address space: from the
 *    interrupted user state, or the state the task entered the kernel
 *    with, through the architecture's walker (pc_arch_user_chain()),
 *    with page faults off.
 *
 * Its flags say how it ended: complete (the unwinder ran out of kernel
 * frames and the walker reached the outermost user frame), truncated
 * (one address more than the depth allows was there) or broken (a frame
 * could not be read or was not plausible, or the raise site was not on
 * the kernel stack).
 *
 * Buffers: each CPU has one per context a sample can be taken in (task,
 * softirq, hardirq, NMI: interrupt_context_level()), since a sample in
 * one may interrupt a walk in another. Within one context, samples
 * never nest: they are written with irqs off, and the walk counts as
 * recording (pc_recording), so a tracepoint hit by a fault the walk
 * takes is not counted. A sample that finds its context's buffer in use
 * all the same is counted lost. The buffers exist while a counter that
 * records chains does (pc_chain_bufs_get()), and are freed after an RCU
 * grace period, which every sampler, running with irqs off, is within.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_counter_chain.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

#include "internal.h"

/*
 * Where the kernel raised the software event or tracepoint hit being
 * handled on this CPU: the return address of the subsystem's entry
 * point, which the kernel's unwinder finds on the stack. Written and
 * read with irqs off, by the entry points (pc_raise_note()) and the
 * samples they write.
 */
DEFINE_PER_CPU(unsigned long, pc_raise_ip);

/* task, softirq, hardirq, NMI: interrupt_context_level() */
#define PC_CHAIN_LEVELS		4
/*
 * struct perf_counter_callchain, two markers, the deepest chain, and the
 * user stack words a switch-out record may copy after it
 */
#define PC_CHAIN_WORDS_MAX	(1 + 2 + PERF_COUNTER_CHAIN_DEPTH_MAX + \
				 PERF_SWITCH_STACK_MAX)

/*
 * One CPU's chain buffers. @busy[l] is set while a sample in context
 * level l walks or copies @word[l]: only code at that level on this CPU
 * touches either, with irqs off.
 */
struct pc_chain_cpu {
	u64	word[PC_CHAIN_LEVELS][PC_CHAIN_WORDS_MAX];
	bool	busy[PC_CHAIN_LEVELS];
};

struct pc_chain_bufs {
	struct pc_chain_cpu __percpu	*cpu;
	struct rcu_head			rcu;
};

/*
 * The buffers, published while pc_chain_users is not 0. Both change
 * under pc_chain_bufs_mutex; samplers read the pointer with irqs off.
 */
static struct pc_chain_bufs __rcu *pc_chain_bufs;
static unsigned int pc_chain_users;
static DEFINE_MUTEX(pc_chain_bufs_mutex);

/**
 * pc_chain_bufs_get() - have the buffers chains are walked into
 *
 * For each counter made that records call chains (inherited copies use
 * their top-level counter's), before it can sample. May sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int pc_chain_bufs_get(void)
{
	struct pc_chain_bufs *bufs;
	int err = 0;

	mutex_lock(&pc_chain_bufs_mutex);
	if (!pc_chain_users) {
		bufs = kzalloc(sizeof(*bufs), GFP_KERNEL);
		if (bufs)
			bufs->cpu = alloc_percpu(struct pc_chain_cpu);
		if (!bufs || !bufs->cpu) {
			kfree(bufs);
			err = -ENOMEM;
			goto out;
		}
		rcu_assign_pointer(pc_chain_bufs, bufs);
	}
	pc_chain_users++;
out:
	mutex_unlock(&pc_chain_bufs_mutex);
	return err;
}

static void pc_chain_bufs_free(struct rcu_head *rcu)
{
	struct pc_chain_bufs *bufs = container_of(rcu, struct pc_chain_bufs,
						  rcu);

	free_percpu(bufs->cpu);
	kfree(bufs);
}

/**
 * pc_chain_bufs_put() - the counter that had them is being freed
 *
 * The last user's put frees the buffers once every sampler that may
 * have found them is done.
 */
void pc_chain_bufs_put(void)
{
	struct pc_chain_bufs *bufs;

	mutex_lock(&pc_chain_bufs_mutex);
	if (!WARN_ON_ONCE(!pc_chain_users) && !--pc_chain_users) {
		bufs = rcu_dereference_protected(pc_chain_bufs,
				lockdep_is_held(&pc_chain_bufs_mutex));
		RCU_INIT_POINTER(pc_chain_bufs, NULL);
		call_rcu(&bufs->rcu, pc_chain_bufs_free);
	}
	mutex_unlock(&pc_chain_bufs_mutex);
}

/**
 * pc_chain_words() - the most words a sample's call chain takes
 * @counter:	the counter, its chain_depth set at the open
 *
 * Return: 0 without PERF_RECORD_CALLCHAIN; else the chain's nr and
 * flags word, its two markers and an address for each level of depth.
 */
u32 pc_chain_words(const struct perf_counter *counter)
{
	if (!(counter->hw_event.record_type & PERF_RECORD_CALLCHAIN))
		return 0;
	return 1 + 2 + counter->chain_depth;
}

static void pc_chain_marker(struct pc_chain *c, u64 marker)
{
	c->word[++c->nr] = marker;
}

/* Frames of this subsystem's own below a raise site, at most */
#define PC_CHAIN_SKIP_MAX	64

/*
 * One address from the kernel's unwinder. Only kernel text is taken: an
 * unwinder that reads return addresses from stack slots (PowerPC's, whose
 * interrupted function's slot holds whatever its last callee left) may
 * report stale stack words, which must not reach a record.
 */
static bool pc_chain_kernel_entry(void *cookie, unsigned long addr)
{
	struct pc_chain *c = cookie;

	/*
	 * Where a register holds the interrupted function's caller
	 * (PowerPC's LR), the unwinder's second address is a stack slot of
	 * the function's own, written only by its callees: the register's
	 * address takes its place, and the third, the return address the
	 * function saved, if it did, is not taken twice.
	 */
	if (c->caller && ++c->entries == 2)
		addr = c->caller;
	else if (c->caller && c->entries == 3 && addr == c->caller)
		return true;
	if (c->skip_to) {
		if (addr != c->skip_to)
			return ++c->skipped < PC_CHAIN_SKIP_MAX;
		c->skip_to = 0;		/* the raise site: the first kept */
	}
	if (!__kernel_text_address(addr))
		return true;
	return pc_chain_add(c, addr);
}

/*
 * The kernel part, if the sample shows one: for an event the kernel
 * raised (@raised), from its raise site in pc_raise_ip.
 */
static void pc_chain_kernel(struct pc_chain *c, struct pt_regs *regs,
			    bool raised)
{
	if (raised) {
		c->skip_to = __this_cpu_read(pc_raise_ip);
		if (WARN_ON_ONCE(!c->skip_to))
			return;
		pc_chain_marker(c, PERF_CONTEXT_KERNEL);
		arch_stack_walk(pc_chain_kernel_entry, c, current, NULL);
		if (c->skip_to)
			pc_chain_broken(c);
		return;
	}
	if (!regs || user_mode(regs))
		return;
	pc_chain_marker(c, PERF_CONTEXT_KERNEL);
	c->caller = pc_arch_kernel_caller(regs);
	arch_stack_walk(pc_chain_kernel_entry, c, current, regs);
}

/* The state the user part starts from, or NULL if there is none. */
static struct pt_regs *pc_chain_user_regs(struct pt_regs *regs)
{
	if (regs && user_mode(regs))
		return regs;
	if (!current->mm || (current->flags & (PF_KTHREAD | PF_IO_WORKER)))
		return NULL;
	return task_pt_regs(current);
}

/* The user part: the architecture's walk, page faults off. */
static void pc_chain_user(struct pc_chain *c, struct pt_regs *uregs)
{
	c->user_sp = user_stack_pointer(uregs);
	c->user_span = rlimit(RLIMIT_STACK);
	pc_chain_marker(c, PERF_CONTEXT_USER);
	pagefault_disable();
	pc_arch_user_chain(c, uregs);
	pagefault_enable();
}

/*
 * The first @words words of the user stack at its pointer, after the
 * chain, as far as they can be read without a fault and lie below the
 * top of user space. Not of a task that may not be dumped (setuid, or
 * prctl(PR_SET_DUMPABLE, 0)): its memory is not given away.
 */
static void pc_chain_stack(struct pc_chain *c, u32 words)
{
	u64 *dst = &c->word[1 + c->nr];
	unsigned long sp = c->user_sp, bytes, left;
	const void __user *src = (const void __user *)sp;
	struct mm_struct *mm = current->mm;

	BUILD_BUG_ON(PERF_SWITCH_STACK_MAX > U8_MAX);
	if (!mm || get_dumpable(mm) != SUID_DUMP_USER || sp >= TASK_SIZE)
		return;
	words = min3(words, (u32)PERF_SWITCH_STACK_MAX,
		     (u32)(PC_CHAIN_WORDS_MAX - 1 - c->nr));
	bytes = min_t(unsigned long, words * sizeof(u64), TASK_SIZE - sp);
	bytes &= ~(sizeof(u64) - 1);
	if (!bytes || !__access_ok(src, bytes))
		return;
	pagefault_disable();
	left = __copy_from_user_inatomic(dst, src, bytes);
	pagefault_enable();
	c->stack_words = (bytes - left) / sizeof(u64);
}

/* pc_chain_take()'s walk: @raised as for pc_chain_kernel() */
static bool __pc_chain_take(struct pc_chain *c, struct perf_counter *counter,
			    struct pt_regs *regs, bool raised, u32 stack)
{
	const struct perf_counter_hw_event *hw = &counter->hw_event;
	struct pc_chain_bufs *bufs = rcu_dereference_sched(pc_chain_bufs);
	unsigned int level = interrupt_context_level();
	struct pc_chain_cpu *cpu;
	union {
		u64				word;
		struct perf_counter_callchain	head;
	} u;
	struct pt_regs *uregs;

	/* A counter with chains holds the buffers (pc_counter_alloc()). */
	if (WARN_ON_ONCE(!bufs))
		return false;
	cpu = this_cpu_ptr(bufs->cpu);
	if (READ_ONCE(cpu->busy[level]))
		return false;
	/*
	 * Only this context on this CPU touches the flag, but an exception
	 * the walk takes (a fault on a user page) runs in this context too:
	 * the compiler must set the flag before the walk, not after.
	 */
	WRITE_ONCE(cpu->busy[level], true);
	barrier();
	this_cpu_inc(pc_recording);

	*c = (struct pc_chain) {
		.word	= cpu->word[level],
		.busy	= &cpu->busy[level],
		.left	= min_t(u32, counter->chain_depth,
				PERF_COUNTER_CHAIN_DEPTH_MAX),
		.end	= PERF_COUNTER_CHAIN_COMPLETE,
	};
	if (!hw->exclude_kernel)
		pc_chain_kernel(c, regs, raised);
	if (c->end == PERF_COUNTER_CHAIN_COMPLETE && !hw->exclude_user) {
		uregs = pc_chain_user_regs(regs);
		if (uregs) {
			pc_chain_user(c, uregs);
			if (stack)
				pc_chain_stack(c, stack);
		}
	}
	u.head.nr = c->nr;
	u.head.flags = c->end;
	c->word[0] = u.word;

	this_cpu_dec(pc_recording);
	return true;
}

/**
 * pc_chain_take() - walk a sample's call chain into this CPU's buffer
 * @c:		the chain, to fill
 * @counter:	the counter sampled, on this CPU with irqs off (or in NMI)
 * @regs:	the sample's state, as pc_sample_write() was given it
 *
 * On success, the chain is the first pc_chain_record_words() words at
 * c->word, struct perf_counter_callchain first; the record is written
 * from them, and pc_chain_done() gives the buffer back.
 *
 * Return: false if there is no buffer to walk into (a sample of this
 * context's is already using it): the sample is lost.
 */
bool pc_chain_take(struct pc_chain *c, struct perf_counter *counter,
		   struct pt_regs *regs)
{
	return __pc_chain_take(c, counter, regs,
			       pc_has_cap(counter, PC_CAP_RAISED), 0);
}

/**
 * pc_chain_take_switch() - walk the chain of the task leaving this CPU
 * @c:		the chain, to fill
 * @counter:	a counter with PERF_SWITCH_OUT_CHAIN, in the switch-out
 *		hook, whose call site the hook noted in pc_raise_ip
 *
 * As pc_chain_take(), in the outgoing task's own context: the kernel
 * part from the scheduler's call of the hook, the user part from the
 * task's user state, then the counter's switch_stack words of its user
 * stack, c->stack_words of them read, after the chain's words.
 *
 * Return: as pc_chain_take().
 */
bool pc_chain_take_switch(struct pc_chain *c, struct perf_counter *counter)
{
	return __pc_chain_take(c, counter, NULL, true, counter->switch_stack);
}

/**
 * pc_chain_done() - give back the buffer pc_chain_take() walked into
 * @c:		the chain, written to the record or not
 */
void pc_chain_done(struct pc_chain *c)
{
	barrier();		/* the words copied out before it is free */
	WRITE_ONCE(*c->busy, false);
}
