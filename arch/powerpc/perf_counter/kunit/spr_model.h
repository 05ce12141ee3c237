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
#include <linux/bits.h>

#include "kunit/hw_model.h"
/* The driver's descriptors and entry points: no register layout. */
#include "../mmcr.h"

/*
 * The registers, spelled here from the manuals and not taken from where
 * the driver takes them (the kernel's asm/reg.h, mmcr_regs.h): the model
 * reads and checks what the driver writes by these alone, so a field the
 * driver has in the wrong place is a difference the cases see. The
 * manuals number a register's 32 bits from the most significant, 0 to
 * 31; so do these.
 */
#define SPRM_BIT(b)		BIT(31 - (b))
#define SPRM_FIELD(first, last)	GENMASK(31 - (first), 31 - (last))

/*
 * SPR numbers: the same on every part that has the register (604 UM,
 * 750GX UM, 7400 UM and 7450 RM, their tables of the performance
 * monitor's SPRs). MMCR1 and PMC3-4 from the 604e, MMCR2 on the 7400
 * and 745x, PMC5-6 on the 745x.
 */
#define SPRM_MMCR2		944
#define SPRM_PMC5		945
#define SPRM_PMC6		946
#define SPRM_MMCR0		952
#define SPRM_PMC1		953
#define SPRM_PMC2		954
#define SPRM_MMCR1		956
#define SPRM_PMC3		957
#define SPRM_PMC4		958

/*
 * MMCR0: 7400 UM Table 2-7; 7450 RM chapter 11, MMCR0; the same bits in
 * the 604 UM (chapter 9) and the 750GX UM (2.1.2.5) under other names:
 * DIS, DP, DU, DMS, DMR, ENINT, DISCOUNT, RTCSELECT, INTONBITTRANS,
 * THRESHOLD, PMC1INTCONTROL, PMCINTCONTROL, PMCTRIGGER, PMC1SELECT,
 * PMC2SELECT.
 */
#define SPRM_MMCR0_FC		SPRM_BIT(0)	/* freeze all PMCs */
#define SPRM_MMCR0_FCS		SPRM_BIT(1)	/* ... in supervisor state */
#define SPRM_MMCR0_FCP		SPRM_BIT(2)	/* ... in problem state */
#define SPRM_MMCR0_FCM1		SPRM_BIT(3)	/* ... while MSR[PMM] = 1 */
#define SPRM_MMCR0_FCM0		SPRM_BIT(4)	/* ... while MSR[PMM] = 0 */
#define SPRM_MMCR0_PMXE		SPRM_BIT(5)	/* exception enable */
#define SPRM_MMCR0_FCECE	SPRM_BIT(6)	/* freeze on enabled condition */
#define SPRM_MMCR0_TBSEL	SPRM_FIELD(7, 8)	/* time base bit */
#define SPRM_MMCR0_TBEE		SPRM_BIT(9)	/* time base event enable */
#define SPRM_MMCR0_THRESHOLD	SPRM_FIELD(10, 15)
#define SPRM_MMCR0_PMC1CE	SPRM_BIT(16)	/* PMC1 condition enable */
#define SPRM_MMCR0_PMCJCE	SPRM_BIT(17)	/* PMC2-6 condition enable */
#define SPRM_MMCR0_TRIGGER	SPRM_BIT(18)
#define SPRM_MMCR0_PMC1SEL	SPRM_FIELD(19, 25)
#define SPRM_MMCR0_PMC2SEL	SPRM_FIELD(26, 31)

/*
 * MMCR1: 7400 UM Table 11-4 (PMC3SELECT, PMC4SELECT; 10-31 reserved);
 * the 745x adds PMC5SELECT and PMC6SELECT, 21-31 reserved (7450 RM
 * chapter 11, MMCR1).
 */
#define SPRM_MMCR1_PMC3SEL	SPRM_FIELD(0, 4)
#define SPRM_MMCR1_PMC4SEL	SPRM_FIELD(5, 9)
#define SPRM_MMCR1_PMC5SEL	SPRM_FIELD(10, 14)
#define SPRM_MMCR1_PMC6SEL	SPRM_FIELD(15, 20)

/* MMCR2: 7400 UM Table 11-5; the threshold is x32 instead of x2 */
#define SPRM_MMCR2_THRESHMULT	SPRM_BIT(0)

/* Every PMC: bit 0 set is the overflow its condition signals. */
#define SPRM_PMC_OVERFLOW	SPRM_BIT(0)

/**
 * sprm_sel_field() - where a PMC's selector is
 * @pmc:	0 for PMC1 ... 5 for PMC6
 * @spr:	set to the SPR that holds it, MMCR0 or MMCR1
 *
 * Return: the selector's field in that register, as the manuals give it.
 */
static inline u32 sprm_sel_field(unsigned int pmc, u32 *spr)
{
	static const u32 field[] = {
		SPRM_MMCR0_PMC1SEL, SPRM_MMCR0_PMC2SEL, SPRM_MMCR1_PMC3SEL,
		SPRM_MMCR1_PMC4SEL, SPRM_MMCR1_PMC5SEL, SPRM_MMCR1_PMC6SEL,
	};

	*spr = pmc < 2 ? SPRM_MMCR0 : SPRM_MMCR1;
	return field[pmc];
}

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
	unsigned int		nr_pmcs;	/* the part's, by its manual */
	bool			has_mmcr2;	/* likewise */
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
	struct pt_regs		*irq_regs;
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
