// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on PowerPC: the user part of a call chain, by the ABI's
 * back chain.
 *
 * Every stack frame begins with the back chain, the address of the
 * caller's frame, and the outermost frame's is 0 (the C library's
 * _start makes it so). A function that calls another saves its return
 * address (LR) in its caller's frame: at word 1 of it in the 32-bit
 * SVR4 ABI, doubleword 2 in the 64-bit ABIs. So, from the interrupted
 * state: the interrupted instruction; then LR, the return address of
 * the interrupted function while it has not called anything (a leaf,
 * the usual place for a sample); then, for each frame up the back chain
 * from the second, the return address saved in it. LR is taken only if
 * the instruction before it branched and linked somewhere else: 32-bit
 * position-independent code reads its own address with "bcl 20,31,$+4",
 * after which LR is no return address (and the function has saved the
 * real one in its caller's frame, where the walk finds it). A function
 * that has called another still has that call's return in LR, so its
 * caller may show as itself. Nothing needs rebuilding: the back chain is
 * the ABI, compiler options cannot take it away.
 *
 * Signal frames: a signal handler returns to the signal trampoline of the
 * vDSO (on 64-bit, to the instruction after the trampoline's call of it)
 * and runs on a frame the kernel built
 * (arch/powerpc/kernel/signal_{32,64}.c), whose back chain
 * is the interrupted stack pointer and which holds the interrupted
 * registers. When a return address is the trampoline, the walk goes on
 * from the registers saved there, as from an interrupted state; the
 * frame is taken only if its saved stack pointer is its back chain. On
 * a 64-bit kernel, a 32-bit task's chain stops at a signal frame.
 *
 * A frame is taken only if it is 16-byte aligned, above the previous one
 * and within the stack limit of the interrupted stack pointer, and only
 * if it can be read without a page fault. Anything else ends the chain
 * as broken.
 */
#include <linux/mm_types.h>
#include <linux/perf_counter_chain.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <asm/sigcontext.h>
#include <asm/tlb.h>
#include <asm/ucontext.h>
#include <asm/vdso.h>

#define PC_FRAME_ALIGN	16

/* The user state a walk goes on from: the interrupted one at first. */
struct pc_user_state {
	unsigned long	ip;
	unsigned long	lr;
	unsigned long	sp;
};

static bool pc_read_word(unsigned long addr, bool words64, unsigned long *w)
{
	if (words64) {
		u64 v;

		if (!pc_chain_read_user(&v, addr, sizeof(v)))
			return false;
		*w = v;
	} else {
		u32 v;

		if (!pc_chain_read_user(&v, addr, sizeof(v)))
			return false;
		*w = v;
	}
	return true;
}

/*
 * Is @lr a return address: does the instruction before it branch and
 * link (I-form bl, B-form bcl, XL-form bclrl/bcctrl/bctarl), and not
 * to @lr itself, as "bcl 20,31,$+4" does to read its own address?
 */
static bool pc_lr_is_return(unsigned long lr)
{
	u32 insn;

	if (lr & 3 || !pc_chain_read_user(&insn, lr - 4, sizeof(insn)))
		return false;
	if (!(insn & 1))
		return false;			/* LK clear: no link */
	switch (insn >> 26) {
	case 18:				/* bl */
		return true;
	case 19:				/* bclrl, bcctrl, bctarl */
		switch ((insn >> 1) & 0x3ff) {
		case 16:
		case 528:
		case 560:
			return true;
		}
		return false;
	case 16:				/* bcl: not to the next insn */
		return (insn & 0xfffc) != 4;
	default:
		return false;
	}
}

/*
 * The saved registers of the signal frame based at @frame, if @ip, a
 * return address found at @frame, is a signal trampoline and the frame
 * is as the kernel built it. Native tasks only.
 */
static bool pc_signal_frame(unsigned long frame, unsigned long ip,
			    struct pc_user_state *s)
{
	const struct mm_struct *mm = current->mm;
	const bool w64 = IS_ENABLED(CONFIG_PPC64);
	unsigned long vdso, gregs, back, r1, nip, lr;

	if (!mm)		/* user registers, but no user memory */
		return false;
	vdso = (unsigned long)mm->context.vdso;
	if (!vdso)
		return false;
#ifdef CONFIG_PPC64
	/* the kernel starts the trampoline, whose bctrl calls the handler */
	if (ip != VDSO64_SYMBOL(vdso, sigtramp_rt64) + 4)
		return false;
	/* struct rt_sigframe: the ucontext first */
	gregs = frame + __SIGNAL_FRAMESIZE +
		offsetof(struct ucontext, uc_mcontext.gp_regs);
#else
	if (ip == VDSO32_SYMBOL(vdso, sigtramp_rt32)) {
		/* struct rt_sigframe: siginfo, then the ucontext */
		if (!pc_read_word(frame + __SIGNAL_FRAMESIZE + 16 +
				  sizeof(struct siginfo) +
				  offsetof(struct ucontext, uc_regs),
				  w64, &gregs))
			return false;
	} else if (ip == VDSO32_SYMBOL(vdso, sigtramp32)) {
		/* struct sigframe: the sigcontext first */
		if (!pc_read_word(frame + __SIGNAL_FRAMESIZE +
				  offsetof(struct sigcontext, regs),
				  w64, &gregs))
			return false;
	} else {
		return false;
	}
#endif
	if (!pc_read_word(frame, w64, &back) ||
	    !pc_read_word(gregs + PT_R1 * sizeof(long), w64, &r1) ||
	    back != r1 ||
	    !pc_read_word(gregs + PT_NIP * sizeof(long), w64, &nip) ||
	    !pc_read_word(gregs + PT_LNK * sizeof(long), w64, &lr))
		return false;
	s->ip = nip;
	s->lr = lr;
	s->sp = r1;
	return true;
}

/**
 * pc_arch_user_chain() - the user part of a call chain, by back chain
 * @c:		the chain
 * @regs:	the task's user state
 *
 * Each pass adds an address or stops, and pc_chain_add_user() stops the walk
 * at the counter's depth.
 */
void pc_arch_user_chain(struct pc_chain *c, struct pt_regs *regs)
{
	bool words64 = IS_ENABLED(CONFIG_PPC64) && !is_32bit_task();
	unsigned long word = words64 ? 8 : 4;
	unsigned long lr_save = words64 ? 16 : 4;
	struct pc_user_state s = {
		.ip = regs->nip, .lr = regs->link, .sp = regs->gpr[1],
	};
	unsigned long low, frame, next, ip;
	bool native = words64 == IS_ENABLED(CONFIG_PPC64);

	if (!words64) {			/* a 32-bit task's registers */
		s.ip = (u32)s.ip;
		s.lr = (u32)s.lr;
		s.sp = (u32)s.sp;
		c->user_sp = s.sp;
	}
	low = s.sp;
	if (!nmi_uaccess_okay()) {	/* always yes here, as it stands */
		pc_chain_add_user(c, s.ip);
		pc_chain_broken(c);
		return;
	}

again:
	/* The interrupted function and its return address, from LR. */
	if (!pc_chain_add_user(c, s.ip))
		return;
	frame = s.sp;
	if (!pc_chain_frame_ok(c, frame, low, PC_FRAME_ALIGN) ||
	    !pc_read_word(frame, words64, &next)) {
		pc_chain_broken(c);
		return;
	}
	if (native && (pc_signal_frame(frame, s.lr, &s) ||
		       (next && pc_signal_frame(next, s.lr, &s)))) {
		low = frame + word;
		goto again;
	}
	if (pc_lr_is_return(s.lr) && !pc_chain_add_user(c, s.lr))
		return;

	/* Then each frame's caller, up the back chain. */
	while (next) {
		low = frame + word;
		frame = next;
		if (!pc_chain_frame_ok(c, frame, low, PC_FRAME_ALIGN) ||
		    !pc_read_word(frame, words64, &next) ||
		    !pc_read_word(frame + lr_save, words64, &ip)) {
			pc_chain_broken(c);
			return;
		}
		if (native && pc_signal_frame(frame, ip, &s)) {
			low = frame + word;
			goto again;
		}
		if (!next)
			return;		/* _start's frame: nothing returns */
		if (!pc_chain_add_user(c, ip))
			return;
	}
}

/**
 * pc_arch_kernel_caller() - the interrupted kernel function's caller
 * @regs:	interrupted kernel state
 *
 * Return: LR: a leaf's return address, which no stack slot holds yet.
 */
unsigned long pc_arch_kernel_caller(struct pt_regs *regs)
{
	return regs->link;
}
