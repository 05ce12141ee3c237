// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on 32-bit PowerPC: the parts whose performance monitor
 * exception may not be enabled, and the polled driver they get instead.
 *
 * - MPC750 RISC Microprocessor Family User's Manual, p. C-78: on the
 *   750 and 755, no two of the thermal assist unit, the decrementer and
 *   the performance monitor may have their exceptions enabled at once;
 *   the results are unpredictable. Linux always runs the decrementer.
 * - IBM PowerPC 750CXe erratum 13: a performance monitor exception
 *   taken just after a delayed decrementer exception can corrupt SRR0
 *   and hang the processor.
 * - PPC7410 erratum 10: as the 750's, fixed from PVR 0x800C1103. The
 *   7400, of which the 7410 is a shrink, is treated as the 7410 before
 *   the fix.
 *
 * On those parts (PVR version 0x0008, which the 740, 750, 755 and
 * 750CX/CXe share; 0x000C; 0x800C below revision 0x1103) MMCR0[PMXE]
 * is never set. A pinned timer on each CPU with counters on folds them
 * every PC_PPC_POLL_NS instead (kernel/perf_counter/hw_poll.c), loads
 * counting PMCs again far from bit 0, and takes each sampling counter's
 * sample when it finds its PMC past bit 0: a sample lands up to one
 * poll late, at the state the timer interrupted, and periods shorter
 * than what a poll interval counts give one sample a poll. The 750FX
 * and 750GX (0x7000, 0x7002), the 604 and 604e and the 745x keep the
 * exception. Documentation/admin-guide/perf/perf_counter-powerpc.rst.
 */
#include <linux/time64.h>
#include <asm/reg.h>

#include "mmcr.h"
#include "mmcr_regs.h"

/* 2^31 events of slack from bit 0 to the wrap: seconds, at any clock. */
#define PC_PPC_POLL_NS	(10 * NSEC_PER_MSEC)

/**
 * pc_ppc_pmi_erratum() - why a part may not take the performance monitor exception
 * @pvr:	the Processor Version Register
 *
 * Return: the erratum, as the document cites it; NULL for a part that
 * may take the exception.
 */
const char *pc_ppc_pmi_erratum(u32 pvr)
{
	switch (PVR_VER(pvr)) {
	case 0x0008:
		return "MPC750 user's manual C-78, 750CXe erratum 13";
	case 0x000c:
		return "PPC7410 erratum 10, as on the 7410 before rev 0x1103";
	case 0x800c:
		if (PVR_REV(pvr) < 0x1103)
			return "PPC7410 erratum 10";
		return NULL;
	default:
		return NULL;
	}
}

/**
 * pc_ppc_poll() - the poll timer's work on this CPU, for a polled part
 * @cpuc:	this CPU's registers, in the timer's hard interrupt
 * @regs:	the interrupted state
 *
 * Freezes the PMCs, does for every counter what the exception would
 * have done and folds and loads the counting ones (pc_hw_poll_fold()),
 * then lets them go as the exception's end would, without PMXE.
 */
void pc_ppc_poll(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	u32 mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);

	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0 | MMCR0_FC);
	pc_hw_poll_fold(cpuc, regs);
	pc_ppc_rearm(cpuc, mmcr0 & MMCR0_FC);
}

/**
 * pc_ppc_polled() - the polled driver of a part that may not take the exception
 * @p:		the model's driver
 * @polled:	set to a copy of it that never enables the exception and
 *		polls its counters instead
 */
void pc_ppc_polled(const struct pc_ppc_pmu *p, struct pc_ppc_pmu *polled)
{
	*polled = *p;
	polled->no_pmi = true;
	polled->pmu.poll_ns = PC_PPC_POLL_NS;
	polled->pmu.poll = pc_ppc_poll;
}
