/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the 604/750/74xx performance monitor SPRs, as perfctr's low-level notes and
 * the manuals describe them, for running the real driver under KUnit:
 * QEMU's PMCs hold what is written but never count.
 *
 * Things happen in user (problem) or supervisor state: cycles,
 * instructions, data cache misses, branches (enum pc_spr_event). A PMC
 * counts one of them only if its selector, on that PMC, means it in the
 * part's manual (the tables in spr_model.c): a selector the model does
 * not know, or one put on a PMC where it means something else, counts
 * nothing. And only if MMCR0 freezes nothing for that state (FC, FCS,
 * FCP).
 *
 * The exception is level-sensitive: it is signalled whenever MMCR0[PMXE]
 * is set and an enabled PMC is negative (PMC1CE for PMC1, PMCjCE for
 * PMC2-6), at a count or at any register write; the processor clears
 * PMXE as it signals, and the signal waits as pending, whatever the
 * driver does meanwhile, until it is delivered (MSR[EE] set). It may so
 * come after its counter was stopped or moved, and be for several PMCs.
 *
 * Delivery runs @handler, the driver's pc_ppc_irq() unless a test puts
 * another. The PMCs go on counting while it runs: @handler_events of
 * every kind happen in supervisor state at each register access it
 * makes, and once more as it returns. @counted[i] is every event PMC i
 * counted, whatever was written to it since.
 *
 * Accesses to SPRs the model lacks and writes of bits it reserves count
 * as faults: in MMCR1 and MMCR2 what the manuals reserve, and in MMCR0
 * (whose 32 bits the manuals all define) the controls the model does not
 * implement and the driver must leave clear.
 */
#ifndef _PC_SPR_MODEL_H
#define _PC_SPR_MODEL_H

#include <kunit/test.h>

#include "kunit/hw_model.h"
#include "../mmcr.h"

/* What happens on the CPU; a selector counts a set of these. */
enum pc_spr_event {
	PC_SPR_CYCLES,
	PC_SPR_INSTR_DONE,		/* instructions completed */
	PC_SPR_INSTR_DISP,		/* instructions dispatched */
	PC_SPR_L1D_LOAD_MISS,
	PC_SPR_L1D_STORE_MISS,
	PC_SPR_BR_TAKEN,		/* predicted right, taken */
	PC_SPR_BR_NOT_TAKEN,		/* predicted right, not taken */
	PC_SPR_BR_MISPRED,
	PC_SPR_NR_EVENTS
};

#define PC_SPR_EV(e)		BIT(PC_SPR_##e)
#define PC_SPR_L1D_MISSES	(PC_SPR_EV(L1D_LOAD_MISS) | \
				 PC_SPR_EV(L1D_STORE_MISS))
#define PC_SPR_BRANCHES		(PC_SPR_EV(BR_TAKEN) | \
				 PC_SPR_EV(BR_NOT_TAKEN) | \
				 PC_SPR_EV(BR_MISPRED))

struct pc_spr_model {
	const struct pc_ppc_pmu	*p;
	u32			mmcr0, mmcr1, mmcr2;
	u32			pmc[PC_PPC_MAX_PMCS];
	u64			counted[PC_PPC_MAX_PMCS];
	bool			pending;
	unsigned int		signals;
	unsigned int		faults;
	unsigned int		handler_events;
	bool			in_handler;
	int			(*handler)(struct pc_hw_cpu *cpuc,
					   struct pt_regs *regs);
	int			handled;
	struct pc_hw_regs	regs;
	struct pc_hw_cpu	cpuc;
};

struct pc_spr_model *pc_spr_model_new(struct kunit *test,
				      const struct pc_ppc_pmu *p);
void pc_spr_model_count(struct pc_spr_model *m, enum pc_spr_event ev,
			u32 n, bool user);
void pc_spr_model_run(struct pc_spr_model *m, u32 events, bool user);
int pc_spr_model_service(struct pc_spr_model *m);
unsigned int pc_spr_model_storm(struct pc_spr_model *m, unsigned int max);
u32 pc_spr_model_sel(const struct pc_spr_model *m, unsigned int pmc);
unsigned long pc_spr_model_means(const struct pc_ppc_pmu *p,
				 unsigned int pmc, u32 sel);

#endif
