/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the Power ISA 2.07 performance monitor SPRs (POWER8), as
 * the ISA and the POWER8 user's manual describe them, for running the
 * real driver under KUnit: QEMU's PMU counts, but ignores MMCR2 and
 * never delivers an alert, so the logic behind those is proven here.
 *
 * Cycles and instructions happen in problem, privileged or hypervisor
 * state. PMC1-4 count them when their MMCR1 selector is PM_CYC (0x1e)
 * or PM_INST_CMPL (0x02), with unit and combine 0; PMC5 counts
 * instructions and PMC6 cycles, always. A PMC counts only if nothing
 * freezes it: MMCR0[FC], FC14 (PMC1-4), FC56 (PMC5-6), MMCR0[FCS/FCP]
 * and its own MMCR2 bits for the state. The PMCs are 32 bits wide and
 * wrap.
 *
 * The alert's condition is a level, as the ISA has it: whenever
 * MMCR0[PMAE] is set and a PMC whose condition (PMC1CE, PMCjCE for
 * PMC2-6) is enabled reads negative, after events or any register
 * write, an alert is signalled: PMAO is set, PMAE cleared, and the
 * alert is pending until the test delivers it to pc_isa207_irq(). The
 * state the kernel runs in is the test's to say: privileged, or
 * hypervisor state where pc_isa207_kernel_hv. Writes of bits the driver must leave clear (MMCR0's
 * other controls, MMCRA, bits of MMCR1 and MMCR2 it has no use for, PMC
 * bits above 31) and accesses to other SPRs count as faults.
 */
#ifndef _PC_ISA207_MODEL_H
#define _PC_ISA207_MODEL_H

#include <kunit/test.h>

#include "kunit/hw_model.h"
#include "../isa207.h"

enum pc_i207_event { PC_I207_CYCLES, PC_I207_INSTR };
enum pc_i207_state { PC_I207_USER, PC_I207_KERNEL, PC_I207_HV };

struct pc_isa207_model {
	u64			mmcr0, mmcr1, mmcr2, mmcra;
	u64			pmc[PC_ISA207_NR_PMCS];
	bool			pending;
	unsigned int		alerts;
	unsigned int		faults;
	int			handled;
	struct pc_hw_regs	regs;
	struct pc_hw_cpu	cpuc;
};

struct pc_isa207_model *pc_isa207_model_new(struct kunit *test);
void pc_isa207_model_run(struct pc_isa207_model *m, enum pc_i207_event ev,
			 u32 n, enum pc_i207_state state);
int pc_isa207_model_deliver(struct pc_isa207_model *m);

#endif /* _PC_ISA207_MODEL_H */
