// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: call chains in sample records (PERF_RECORD_CALLCHAIN).
 *
 * A chain is written straight into the sample record, which has room
 * for the counter's callchain_depth (pc_chain_words()); the record's
 * header then says the size the chain came to (pc_queue_commit()). It
 * holds, innermost first:
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
 *    with, through the architecture's walker (pc_arch_user_chain()).
 *
 * Its flags say how it ended: complete (the unwinder ran out of kernel
 * frames and the walker reached the outermost user frame), truncated
 * (one address more than the depth allows was there) or broken (a frame
 * could not be read or was not plausible, or the raise site was not on
 * the kernel stack). Every part runs with irqs off under the queue's
 * lock, NMI included: user memory is read with page faults off, and the
 * depth bounds the walk.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/perf_counter_chain.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

#include "internal.h"

/*
 * Where the kernel raised the software event or tracepoint hit being
 * handled on this CPU: the return address of the subsystem's entry
 * point, which the kernel's unwinder finds on the stack. Written and
 * read with irqs off, by the entry points and the samples they write.
 */
DEFINE_PER_CPU(unsigned long, pc_raise_ip);

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

/**
 * pc_chain_add() - add an address to a chain
 * @c:		the chain
 * @ip:		the address
 *
 * Return: false if the depth is spent: the chain is then truncated and
 * the walk must stop.
 */
bool pc_chain_add(struct pc_chain *c, u64 ip)
{
	if (!c->left) {
		c->end = PERF_COUNTER_CHAIN_TRUNCATED;
		return false;
	}
	c->left--;
	pc_queue_put(c->q, &c->at, ip);
	c->nr++;
	return true;
}

/**
 * pc_chain_add_user() - add a user address to a chain
 * @c:		the chain
 * @ip:		the address, read from the task's registers or stack
 *
 * A return address outside user space is not one: the stack it came
 * from is not a chain of frames there, and a kernel-looking word from it
 * must not reach a reader who may see no kernel address. The walk ends
 * there, broken.
 *
 * Return: false if the walk must stop (broken, or the depth spent).
 */
bool pc_chain_add_user(struct pc_chain *c, unsigned long ip)
{
	if (!__access_ok((const void __user *)ip, 1)) {
		pc_chain_broken(c);
		return false;
	}
	return pc_chain_add(c, ip);
}

/**
 * pc_chain_broken() - the walk stopped at a frame it could not trust
 * @c:		the chain
 */
void pc_chain_broken(struct pc_chain *c)
{
	c->end = PERF_COUNTER_CHAIN_BROKEN;
}

/**
 * pc_chain_read_user() - read a user stack's words, in any context
 * @dst:	where to
 * @addr:	the user address
 * @size:	bytes
 *
 * Page faults are off, the range must be user memory, and from NMI the
 * address space must be current's (copy_from_user_nofault()).
 *
 * Return: true if all of it was read.
 */
bool pc_chain_read_user(void *dst, unsigned long addr, size_t size)
{
	return !copy_from_user_nofault(dst, (const void __user *)addr, size);
}

static void pc_chain_marker(struct pc_chain *c, u64 marker)
{
	pc_queue_put(c->q, &c->at, marker);
	c->nr++;
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
	 * PowerPC from interrupted state: the interrupted function's
	 * caller is in LR; the stack slot the unwinder reads second is the
	 * function's own, written only by its callees: LR in its place, and
	 * the third, the return address the function saved, once only.
	 */
	if (c->link && ++c->entries == 2)
		addr = c->link;
	else if (c->link && c->entries == 3 && addr == c->link)
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

/* The kernel part, if the sample shows one. */
static void pc_chain_kernel(struct pc_chain *c, struct perf_counter *counter,
			    struct pt_regs *regs)
{
	if (pc_has_cap(counter, PC_CAP_RAISED)) {
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
#ifdef CONFIG_PPC
	c->link = regs->link;
#endif
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

/**
 * pc_chain_put() - write a sample's call chain
 * @q:		the sample's queue, under its lock, room reserved for
 *		pc_chain_words()
 * @at:		where the chain goes; moved past what was written
 * @counter:	the counter sampled
 * @regs:	the sample's state, as pc_sample_write() was given it
 */
void pc_chain_put(struct pc_queue *q, unsigned long *at,
		  struct perf_counter *counter, struct pt_regs *regs)
{
	const struct perf_counter_hw_event *hw = &counter->hw_event;
	struct pc_chain c = {
		.q	= q,
		.at	= *at + 1,
		.left	= counter->chain_depth,
		.end	= PERF_COUNTER_CHAIN_COMPLETE,
	};
	union {
		u64				word;
		struct perf_counter_callchain	head;
	} u;
	struct pt_regs *uregs;

	if (!hw->exclude_kernel)
		pc_chain_kernel(&c, counter, regs);
	if (c.end == PERF_COUNTER_CHAIN_COMPLETE && !hw->exclude_user) {
		uregs = pc_chain_user_regs(regs);
		if (uregs) {
			c.user_sp = user_stack_pointer(uregs);
			c.user_span = rlimit(RLIMIT_STACK);
			pc_chain_marker(&c, PERF_CONTEXT_USER);
			pc_arch_user_chain(&c, uregs);
		}
	}
	u.head.nr = c.nr;
	u.head.flags = c.end;
	pc_queue_put_at(q, *at, u.word);
	*at = c.at;
}
