/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: a sample's call chain, as an architecture's walker of
 * user stacks writes it.
 *
 * The core writes the chain straight into the sample record it has
 * reserved room for (kernel/perf_counter/callchain.c): the kernel part
 * from the kernel's own unwinder, then the user part from
 * pc_arch_user_chain(), which each architecture with perf_counter
 * provides. A walker adds addresses innermost first with
 * pc_chain_add_user(), reads user memory only with pc_chain_read_user()
 * (page faults off, any context, NMI included), takes a frame only if
 * pc_chain_frame_ok() says it is plausible, and says how the walk ended:
 * it returns at the outermost frame, calls pc_chain_broken() at one it
 * cannot trust, and stops when pc_chain_add_user() says the depth is
 * spent or the address is none of user space's. Every walk is so
 * bounded by the counter's callchain_depth.
 */
#ifndef _LINUX_PERF_COUNTER_CHAIN_H
#define _LINUX_PERF_COUNTER_CHAIN_H

#include <linux/types.h>

struct pc_queue;
struct pt_regs;

/**
 * struct pc_chain - a call chain being written
 * @q:		the record queue, under its lock
 * @at:		where the next word goes
 * @nr:		words written, markers included
 * @left:	addresses the counter's depth still allows
 * @end:	PERF_COUNTER_CHAIN_COMPLETE until the walk says otherwise
 * @skip_to:	kernel part of an event the kernel raised: the unwinder's
 *		addresses up to this one are the subsystem's own, left out
 * @skipped:	how many were left out so far
 * @entries:	addresses the kernel's unwinder has reported
 * @link:	PowerPC, a walk from interrupted kernel state: its LR, the
 *		interrupted function's return address while it is a leaf,
 *		which the unwinder's second address (a stack slot the
 *		function has not written) is not; else 0
 * @user_sp:	the user stack pointer the user part starts from
 * @user_span:	how far above @user_sp a frame may be: the stack limit
 */
struct pc_chain {
	struct pc_queue	*q;
	unsigned long	at;
	u32		nr;
	u32		left;
	u32		end;
	unsigned long	skip_to;
	u32		skipped;
	u32		entries;
	unsigned long	link;
	unsigned long	user_sp;
	unsigned long	user_span;
};

bool pc_chain_add(struct pc_chain *c, u64 ip);
bool pc_chain_add_user(struct pc_chain *c, unsigned long ip);
void pc_chain_broken(struct pc_chain *c);
bool pc_chain_read_user(void *dst, unsigned long addr, size_t size);

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
 * read is pc_chain_read_user()'s to say.
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

#endif /* _LINUX_PERF_COUNTER_CHAIN_H */
