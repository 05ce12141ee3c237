/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: a sample's call chain, as an architecture's walker of
 * user stacks writes it.
 *
 * The core walks a chain into a buffer of this CPU's, before it takes
 * the sample's queue (kernel/perf_counter/callchain.c): the kernel part
 * from the kernel's own unwinder, then the user part from
 * pc_arch_user_chain(), which each architecture with perf_counter
 * provides, and the core calls with page faults off, irqs off (or in
 * NMI) and no queue lock held (a switch-out record's walk holds the run
 * queue's and the context's: a walker takes no lock and never sleeps). A walker adds addresses innermost first with
 * pc_chain_add_user(); reads user memory only once nmi_uaccess_okay()
 * says the address space is the task's (from NMI it may be on its way
 * in or out), and then only through pc_chain_read_user() or, after
 * __access_ok(), the architecture's unchecked user reads; takes a frame
 * only if pc_chain_frame_ok() says it is plausible; and says how the
 * walk ended: it returns at the outermost frame, calls pc_chain_broken()
 * at one it cannot trust, and stops when pc_chain_add_user() says the
 * depth is spent or the address is none of user space's. Every walk is
 * so bounded by the counter's callchain_depth.
 */
#ifndef _LINUX_PERF_COUNTER_CHAIN_H
#define _LINUX_PERF_COUNTER_CHAIN_H

#include <linux/perf_counter.h>
#include <linux/types.h>
#include <linux/uaccess.h>

struct pt_regs;

/**
 * struct pc_chain - a call chain being walked
 * @word:	this CPU's buffer for it: word 0 for struct
 *		perf_counter_callchain, then the addresses and markers
 * @nr:		addresses and markers in it so far
 * @left:	addresses the counter's depth still allows
 * @end:	PERF_COUNTER_CHAIN_COMPLETE until the walk says otherwise
 * @busy:	the buffer's flag: in use until pc_chain_done()
 * @skip_to:	kernel part of an event the kernel raised: the unwinder's
 *		addresses up to this one are the subsystem's own, left out
 * @skipped:	how many were left out so far
 * @entries:	addresses the kernel's unwinder has reported
 * @caller:	the interrupted kernel function's return address where a
 *		register holds it (pc_arch_kernel_caller()), else 0
 * @user_sp:	the user stack pointer the user part starts from
 * @user_span:	how far above @user_sp a frame may be: the stack limit
 * @stack_words: user stack words copied after the chain (switch-out
 *		records: pc_chain_take_switch())
 */
struct pc_chain {
	u64		*word;
	u32		nr;
	u32		left;
	u32		end;
	bool		*busy;
	unsigned long	skip_to;
	u32		skipped;
	u32		entries;
	unsigned long	caller;
	unsigned long	user_sp;
	unsigned long	user_span;
	u32		stack_words;
};

/**
 * pc_chain_add() - add an address to a chain
 * @c:		the chain
 * @ip:		the address
 *
 * Return: false if the depth is spent: the chain is then truncated and
 * the walk must stop.
 */
static inline bool pc_chain_add(struct pc_chain *c, u64 ip)
{
	if (unlikely(!c->left)) {
		c->end = PERF_COUNTER_CHAIN_TRUNCATED;
		return false;
	}
	c->left--;
	c->word[++c->nr] = ip;
	return true;
}

/**
 * pc_chain_record_words() - the words a walked chain takes in a record
 * @c:		the chain
 *
 * Return: struct perf_counter_callchain's word and the chain's.
 */
static inline u32 pc_chain_record_words(const struct pc_chain *c)
{
	return 1 + c->nr;
}

/**
 * pc_chain_broken() - the walk stopped at a frame it could not trust
 * @c:		the chain
 */
static inline void pc_chain_broken(struct pc_chain *c)
{
	c->end = PERF_COUNTER_CHAIN_BROKEN;
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
static inline bool pc_chain_add_user(struct pc_chain *c, unsigned long ip)
{
	if (!__access_ok((const void __user *)ip, 1)) {
		pc_chain_broken(c);
		return false;
	}
	return pc_chain_add(c, ip);
}

/**
 * pc_chain_read_user() - read a user stack's words in a walk
 * @dst:	where to
 * @addr:	the user address
 * @size:	bytes
 *
 * Only within pc_arch_user_chain(), which the core calls with page
 * faults off (a read of a page not present fails), and only once the
 * walker has seen nmi_uaccess_okay() say yes: this does not ask it.
 *
 * Return: true if all of it was read.
 */
static inline bool pc_chain_read_user(void *dst, unsigned long addr,
				      size_t size)
{
	const void __user *src = (const void __user *)addr;

	return __access_ok(src, size) &&
	       !__copy_from_user_inatomic(dst, src, size);
}

/**
 * pc_chain_frame_ok() - may a user walker take the frame at @fp?
 * @c:		the chain
 * @fp:		the frame's address
 * @low:	the lowest address it may have: the stack pointer for the
 *		first frame, past the previous frame for the others, so
 *		that every walk moves up the stack
 * @align:	the alignment the ABI gives frames, a power of two
 *
 * Return: true if @fp is aligned, at or above @low and within the
 * task's stack limit of the interrupted stack pointer. Whether it can be
 * read is the walker's read to say.
 */
static inline bool pc_chain_frame_ok(const struct pc_chain *c,
				     unsigned long fp, unsigned long low,
				     unsigned long align)
{
	return !(fp & (align - 1)) && fp >= low &&
	       fp - c->user_sp < c->user_span;
}

/**
 * pc_arch_user_chain() - the user part of a call chain
 * @c:		the chain, its PERF_CONTEXT_USER marker written
 * @regs:	the task's user state: the interrupted one, or that saved
 *		at its entry to the kernel
 *
 * Adds the interrupted instruction pointer, then one return address a
 * frame, as the architecture's ABI links frames.
 */
void pc_arch_user_chain(struct pc_chain *c, struct pt_regs *regs);

/**
 * pc_arch_kernel_caller() - the interrupted kernel function's caller,
 * where a register holds it
 * @regs:	interrupted kernel state
 *
 * PowerPC's LR holds a leaf function's return address, which its stack
 * frame does not (the unwinder's second address is then a stale word):
 * the chain takes LR in its place.
 *
 * Return: that address, or 0 where the kernel's unwinder finds the
 * caller on the stack.
 */
unsigned long pc_arch_kernel_caller(struct pt_regs *regs);

#endif /* _LINUX_PERF_COUNTER_CHAIN_H */
