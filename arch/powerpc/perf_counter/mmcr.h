/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 32-bit PowerPC: the performance monitor of the 604,
 * 604e, 750 and 74xx, as perfctr's low-level notes and the processors' manuals lay it
 * out, and the descriptor each model's driver is.
 *
 * PMC1 to PMC6 are 32-bit counters; a counter whose bit 0 (the most
 * significant) turns to 1 signals the performance monitor exception if
 * MMCR0[PMXE] and its condition enable (PMC1CE for PMC1, PMCjCE for the
 * rest) are set, and the processor clears PMXE as it signals. MMCR0
 * holds the freeze bits, the exception enables and the selectors of
 * PMC1 and PMC2; MMCR1 the selectors of PMC3 to PMC6; MMCR2 (7400 and
 * 745x) the threshold multiplier. The core folds all 32 bits and loads
 * a counter with 0x80000000 minus the events it may count before it
 * interrupts (pc_pmu.irq_at): from the interrupt to the wrap at 2^32
 * there are 2^31 events of slack for the handler to come.
 */
#ifndef _PC_PPC_MMCR_H
#define _PC_PPC_MMCR_H

#include <linux/bits.h>
#include <linux/perf_counter_hw.h>
#include <uapi/linux/perf_counter.h>

/* The SPRs, by number (a register model uses the same numbers). */
#define PC_SPR_MMCR2	944
#define PC_SPR_PMC5	945
#define PC_SPR_PMC6	946
#define PC_SPR_MMCR0	952
#define PC_SPR_PMC1	953
#define PC_SPR_PMC2	954
#define PC_SPR_MMCR1	956
#define PC_SPR_PMC3	957
#define PC_SPR_PMC4	958

/* MMCR0; the manuals number bits from the most significant, 0 to 31. */
#define PC_MMCR0_FC		0x80000000	/* 0: freeze all counters */
#define PC_MMCR0_FCS		0x40000000	/* 1: freeze in supervisor state */
#define PC_MMCR0_FCP		0x20000000	/* 2: freeze in problem state */
#define PC_MMCR0_FCM1		0x10000000	/* 3: freeze while marked */
#define PC_MMCR0_FCM0		0x08000000	/* 4: freeze while not marked */
#define PC_MMCR0_PMXE		0x04000000	/* 5: exception enable */
#define PC_MMCR0_FCECE		0x02000000	/* 6: freeze on condition */
#define PC_MMCR0_TBSEL		0x01800000	/* 7-8: time base bit */
#define PC_MMCR0_TBEE		0x00400000	/* 9: time base condition */
#define PC_MMCR0_THRESHOLD	0x003f0000	/* 10-15 */
#define PC_MMCR0_PMC1CE		0x00008000	/* 16: PMC1 condition */
#define PC_MMCR0_PMCJCE		0x00004000	/* 17: PMC2-6 condition */
#define PC_MMCR0_TRIGGER	0x00002000	/* 18 */
#define PC_MMCR0_PMC1SEL	0x00001fc0	/* 19-25 */
#define PC_MMCR0_PMC2SEL	0x0000003f	/* 26-31 */
#define PC_MMCR0_FREEZE_MODE	(PC_MMCR0_FCS | PC_MMCR0_FCP)

#define PC_MMCR2_THRESHMULT	0x80000000	/* threshold x32, not x2 */

#define PC_PMC_OVERFLOW		0x80000000	/* bit 0 of every PMC */
#define PC_PPC_MAX_PMCS		6

/*
 * A raw event: the selector in bits 6-0 and, in bits 10-8, the PMC
 * (1-6) it must count on, or 0 for any PMC the model allows it on.
 * Every other bit is reserved.
 */
#define PC_PPC_RAW_SEL		GENMASK_ULL(6, 0)
#define PC_PPC_RAW_PMC		GENMASK_ULL(10, 8)

/*
 * pc_hw_counter.config: the selector, the PMCs it may sit on (bit i for
 * PMC i + 1) and the freeze bits, where MMCR0 has them.
 */
#define PC_PPC_CFG_SEL		GENMASK(6, 0)
#define PC_PPC_CFG_PMCS		GENMASK(13, 8)
#define PC_PPC_CFG_PMCS_SHIFT	8

/*
 * pc_hw_counter.extra: set for an exclusive raw counter that brought
 * extra_config words, with the MMCR0 threshold and MMCR2's multiplier
 * they asked for.
 */
#define PC_PPC_EXTRA_SET	BIT_ULL(32)
#define PC_PPC_EXTRA_MULT	BIT_ULL(33)

/* A generic event on a model: its selector and the PMCs that count it. */
struct pc_ppc_event {
	u8	sel;
	u8	pmcs;
};

/**
 * struct pc_ppc_pmu - a 32-bit PowerPC model's performance monitor
 * @pmu:	what the core sees; nr_counters is the number of PMCs
 * @pvr:	the PVR version fields (upper halves) of the parts it is for
 * @nr_pvr:	how many
 * @has_mmcr2:	the part has MMCR2 and its threshold multiplier
 * @events:	selector and PMCs of each generic id; sel 0 for none
 * @any_pmcs:	the PMCs a raw selector given without a PMC may use (the
 *		events every PMC it names counts alike), or 0
 */
struct pc_ppc_pmu {
	struct pc_pmu		pmu;
	u16			pvr[6];
	unsigned int		nr_pvr;
	bool			has_mmcr2;
	struct pc_ppc_event	events[PERF_HW_EVENTS_MAX];
	u8			(*any_pmcs)(u8 sel);
};

static inline const struct pc_ppc_pmu *pc_ppc_of(const struct pc_pmu *pmu)
{
	return container_of(pmu, struct pc_ppc_pmu, pmu);
}

extern const struct pc_ppc_pmu pc_ppc604_pmu;
extern const struct pc_ppc_pmu pc_ppc604e_pmu;
extern const struct pc_ppc_pmu pc_ppc750_pmu;
extern const struct pc_ppc_pmu pc_ppc7400_pmu;
extern const struct pc_ppc_pmu pc_ppc7450_pmu;

/* The shared operations every model's descriptor points at (mmcr.c). */
int pc_ppc_decode(const struct pc_ppc_pmu *p,
		  const struct perf_counter_hw_event *hw_event,
		  const u64 *extra, struct pc_hw_counter *hwc);
int pc_ppc_places(const struct pc_hw_counter *hwc, struct pc_hw_place *place);
void pc_ppc_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
void pc_ppc_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
u64 pc_ppc_read(struct pc_hw_cpu *cpuc, unsigned int idx);
void pc_ppc_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val);
bool pc_ppc_overflowed(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw);
bool pc_ppc_compatible(const struct pc_hw_counter *a,
		       const struct pc_hw_counter *b);
void pc_ppc_rearm(struct pc_hw_cpu *cpuc, bool frozen);
int pc_ppc_irq(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
u32 pc_ppc_pmc_spr(unsigned int idx);

/* The chosen model's registers taken from the rest of the kernel (pmu.c). */
int pc_ppc_reserve(void);
void pc_ppc_release(void);

#endif
