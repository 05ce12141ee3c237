// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on 32-bit PowerPC: the model descriptors — which PVRs
 * each is for, how many PMCs it has, and where its generic events and
 * raw selectors may count.
 *
 * Selectors 1-4 (processor cycles, instructions completed, time base
 * transitions, instructions dispatched) mean the same on every PMC of
 * the 604, 604e, 750 and 7400; their other selectors differ per PMC, so
 * a raw event names its PMC. The 745x's selectors fall into classes:
 * 0-1 count alike on all six PMCs, 2-7 on PMC1-4, 8-13 on PMC1, PMC2
 * and PMC4, 14-22 on PMC1 and PMC2; the rest are PMC-specific.
 *
 * The 750, 7400 and 745x mirror their PMCs in UPMCs user mode may read
 * (UPMC1-4 at SPRs 937, 938, 941 and 942, the 745x's UPMC5-6 at 929 and
 * 930): user_read, so the counter page names them. The 604 and 604e
 * have no such mirrors.
 */
#include <linux/bits.h>

#include "mmcr.h"
#include "mmcr_regs.h"

#define PMC(n)		BIT((n) - 1)
#define ALL_PMCS	GENMASK(PC_PPC_MAX_PMCS - 1, 0)

static u8 pc_6xx_any_pmcs(u8 sel)
{
	return sel >= 1 && sel <= 4 ? ALL_PMCS : 0;
}

static u8 pc_7450_any_pmcs(u8 sel)
{
	if (sel <= 1)
		return ALL_PMCS;
	if (sel <= 7)
		return PMC(1) | PMC(2) | PMC(3) | PMC(4);
	if (sel <= 13)
		return PMC(1) | PMC(2) | PMC(4);
	if (sel <= 22)
		return PMC(1) | PMC(2);
	return 0;
}

#define PC_PPC_OPS(nr)					\
	.nr_counters	= (nr),				\
	.width		= 32,				\
	.max_period	= 0x7fffffff,			\
	.irq_at		= PC_PMC_OVERFLOW,		\
	.decode		= pc_ppc_decode,		\
	.places		= pc_ppc_places,		\
	.enable		= pc_ppc_enable,		\
	.disable	= pc_ppc_disable,		\
	.read		= pc_ppc_read,			\
	.write		= pc_ppc_write,			\
	.overflowed	= pc_ppc_overflowed,		\
	.compatible	= pc_ppc_compatible,		\
	.reserve	= pc_ppc_reserve,		\
	.release	= pc_ppc_release

/*
 * 604 and 604e: PMC1 counts mispredicted branches (7), PMC2 data cache
 * misses (6) and completed branches (8). No cache reference or bus
 * cycle event.
 */
#define PC_604_EVENTS {							\
	[PERF_COUNT_CPU_CYCLES]		= { 1, ALL_PMCS },		\
	[PERF_COUNT_INSTRUCTIONS]	= { 2, ALL_PMCS },		\
	[PERF_COUNT_CACHE_MISSES]	= { 6, PMC(2) },		\
	[PERF_COUNT_BRANCH_INSTRUCTIONS] = { 8, PMC(2) },		\
	[PERF_COUNT_BRANCH_MISSES]	= { 7, PMC(1) },		\
}

const struct pc_ppc_pmu pc_ppc604_pmu = {
	.pmu		= { .name = "PowerPC 604", PC_PPC_OPS(2) },
	.pvr		= { 0x0004 },
	.nr_pvr		= 1,
	.events		= PC_604_EVENTS,
	.any_pmcs	= pc_6xx_any_pmcs,
};

const struct pc_ppc_pmu pc_ppc604e_pmu = {
	.pmu		= { .name = "PowerPC 604e", PC_PPC_OPS(4) },
	.pvr		= { 0x0009, 0x000a },	/* 604e, 604ev */
	.nr_pvr		= 2,
	.events		= PC_604_EVENTS,
	.any_pmcs	= pc_6xx_any_pmcs,
};

/*
 * 750 (740, 750CX/FX/GX): L1 data cache misses on PMC3 (5),
 * mispredicted branches on PMC4 (8). Branches are counted taken (PMC3)
 * and not taken (PMC2) apart, never together: no branch event.
 */
const struct pc_ppc_pmu pc_ppc750_pmu = {
	.pmu		= { .name = "PowerPC 750", PC_PPC_OPS(4),
			    .user_read = true },
	.pvr		= { 0x0008, 0x7000, 0x7002 },	/* 740/750, FX, GX */
	.nr_pvr		= 3,
	.events		= {
		[PERF_COUNT_CPU_CYCLES]		= { 1, ALL_PMCS },
		[PERF_COUNT_INSTRUCTIONS]	= { 2, ALL_PMCS },
		[PERF_COUNT_CACHE_MISSES]	= { 5, PMC(3) },
		[PERF_COUNT_BRANCH_MISSES]	= { 8, PMC(4) },
	},
	.any_pmcs	= pc_6xx_any_pmcs,
};

/*
 * 7400 and 7410: L1 data cache load misses on PMC2 (15), mispredicted
 * branches on PMC4 (5); taken and fall-through branches apart again.
 */
const struct pc_ppc_pmu pc_ppc7400_pmu = {
	.pmu		= { .name = "PowerPC 7400", PC_PPC_OPS(4),
			    .user_read = true },
	.pvr		= { 0x000c, 0x800c },		/* 7400, 7410 */
	.nr_pvr		= 2,
	.has_mmcr2	= true,
	.events		= {
		[PERF_COUNT_CPU_CYCLES]		= { 1, ALL_PMCS },
		[PERF_COUNT_INSTRUCTIONS]	= { 2, ALL_PMCS },
		[PERF_COUNT_CACHE_MISSES]	= { 15, PMC(2) },
		[PERF_COUNT_BRANCH_MISSES]	= { 5, PMC(4) },
	},
	.any_pmcs	= pc_6xx_any_pmcs,
};

/*
 * 7450 and its kin (7451/7441, 7455/7445, 7457/7447, 7447A, 7448):
 * instructions completed on PMC1-4, L1 data cache misses (0x17) on PMC2
 * or PMC3, branches completed (0x22) on PMC1, mispredicted (0x1c) on
 * PMC4.
 */
const struct pc_ppc_pmu pc_ppc7450_pmu = {
	.pmu		= { .name = "PowerPC 7450", PC_PPC_OPS(6),
			    .user_read = true },
	.pvr		= { 0x8000, 0x8001, 0x8002, 0x8003, 0x8004 },
	.nr_pvr		= 5,
	.has_mmcr2	= true,
	.events		= {
		[PERF_COUNT_CPU_CYCLES]		= { 1, ALL_PMCS },
		[PERF_COUNT_INSTRUCTIONS]	= { 2, PMC(1) | PMC(2) | PMC(3) | PMC(4) },
		[PERF_COUNT_CACHE_MISSES]	= { 0x17, PMC(2) | PMC(3) },
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = { 0x22, PMC(1) },
		[PERF_COUNT_BRANCH_MISSES]	= { 0x1c, PMC(4) },
	},
	.any_pmcs	= pc_7450_any_pmcs,
};
