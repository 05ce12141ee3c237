/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the 604/750/74xx performance monitor SPRs, as seed 004 and
 * the manuals describe them, for running the real driver under KUnit:
 * QEMU's PMCs hold what is written but never count.
 *
 * Events happen in user (problem) or supervisor state. A PMC counts them
 * if its selector is not 0 and MMCR0 freezes nothing for that state (FC,
 * FCS, FCP). The exception is signalled while MMCR0[PMXE] is set and an
 * enabled PMC is negative (PMC1CE for PMC1, PMCjCE for PMC2-6); the
 * processor clears PMXE as it signals, and the signal waits as pending
 * until pc_spr_model_service() delivers it. Accesses to SPRs the model
 * lacks and writes of bits it reserves count as faults.
 */
#ifndef _PC_SPR_MODEL_H
#define _PC_SPR_MODEL_H

#include <kunit/test.h>

#include "kunit/hw_model.h"
#include "../mmcr.h"

struct pc_spr_model {
	const struct pc_ppc_pmu	*p;
	u32			mmcr0, mmcr1, mmcr2;
	u32			pmc[PC_PPC_MAX_PMCS];
	bool			pending;
	unsigned int		signals;
	unsigned int		faults;
	struct pc_hw_regs	regs;
	struct pc_hw_cpu	cpuc;
};

struct pc_spr_model *pc_spr_model_new(struct kunit *test,
				      const struct pc_ppc_pmu *p);
void pc_spr_model_run(struct pc_spr_model *m, u32 events, bool user);
int pc_spr_model_service(struct pc_spr_model *m);
u32 pc_spr_model_sel(const struct pc_spr_model *m, unsigned int pmc);

#endif
