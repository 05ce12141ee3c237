// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: the user part of a call chain, by frame pointers.
 *
 * Code built with frame pointers starts each function with
 * "push %bp; mov %sp, %bp": %bp then points at a frame of two words, the
 * caller's %bp and the return address, and the frames link outwards to
 * the outermost, whose saved %bp is 0 (the C library's _start clears
 * %bp). Words are 8 bytes in a 64-bit task and 4 in a 32-bit one, on
 * either kernel. A function without the prologue leaves %bp to its
 * caller's frame, so its caller is missing from the chain: the tool says
 * so (Documentation/perf_counter/tool.rst).
 *
 * A frame is taken only if it is aligned, above the previous one and
 * within the stack limit of the interrupted stack pointer, and only if it
 * can be read without a page fault (the core turns them off, and from
 * NMI walks only while the address space is the task's own:
 * nmi_uaccess_okay()). Anything else ends the chain as broken.
 */
#include <linux/perf_counter_chain.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <asm/tlb.h>

/* One frame as the walk reads it, whatever the task's word size. */
struct pc_user_frame {
	unsigned long	next;		/* the caller's frame pointer */
	unsigned long	ret;		/* where this frame returns to */
};

/*
 * One word at a time, as perf_events' walker reads: a word-sized user
 * read is fewer instructions than a copy of two words through the
 * string copy, though each has its speculation barrier. The walk runs
 * with page faults off (pc_chain_read_user()'s rule holds here too), and
 * the whole frame is checked to be user memory first.
 */
static bool pc_read_frame(unsigned long fp, bool words64,
			  struct pc_user_frame *f)
{
	if (words64) {
		const u64 __user *w = (const u64 __user *)fp;
		u64 next, ret;

		if (!__access_ok(w, 2 * sizeof(*w)) ||
		    __get_user(next, &w[0]) || __get_user(ret, &w[1]))
			return false;
		f->next = next;
		f->ret = ret;
	} else {
		const u32 __user *w = (const u32 __user *)fp;
		u32 next, ret;

		if (!__access_ok(w, 2 * sizeof(*w)) ||
		    __get_user(next, &w[0]) || __get_user(ret, &w[1]))
			return false;
		f->next = next;
		f->ret = ret;
	}
	return true;
}

/**
 * pc_arch_user_chain() - the user part of a call chain, by frame pointer
 * @c:		the chain
 * @regs:	the task's user state
 *
 * Each pass adds an address or stops, and pc_chain_add_user() stops the walk
 * at the counter's depth.
 */
void pc_arch_user_chain(struct pc_chain *c, struct pt_regs *regs)
{
	bool words64 = user_64bit_mode(regs);
	unsigned long word = words64 ? 8 : 4;
	unsigned long fp = regs->bp, low = regs->sp, ip = regs->ip;
	struct pc_user_frame f;

	if (v8086_mode(regs)) {		/* segmented: no frames to follow */
		pc_chain_broken(c);
		return;
	}
	if (!words64) {			/* a 32-bit task's registers */
		fp = (u32)fp;
		low = (u32)low;
		ip = (u32)ip;
		c->user_sp = low;
	}
	if (!pc_chain_add_user(c, ip))
		return;
	/* From NMI, the address space may be on its way in or out. */
	if (fp && !nmi_uaccess_okay()) {
		pc_chain_broken(c);
		return;
	}
	while (fp) {
		if (!pc_chain_frame_ok(c, fp, low, word) ||
		    !pc_read_frame(fp, words64, &f)) {
			pc_chain_broken(c);
			return;
		}
		if (!f.ret)
			return;			/* nowhere to return: the end */
		if (!pc_chain_add_user(c, f.ret))
			return;
		low = fp + 2 * word;
		fp = f.next;
	}
}

/**
 * pc_arch_kernel_caller() - where a register holds a kernel caller
 * @regs:	interrupted kernel state
 *
 * Return: 0: x86's unwinder finds every return address on the stack.
 */
unsigned long pc_arch_kernel_caller(struct pt_regs *regs)
{
	return 0;
}
