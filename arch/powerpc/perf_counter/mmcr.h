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
 *
 * Here: the descriptor and the operations the models share, and the
 * raw event format. The driver takes the SPR numbers and the fields of
 * MMCR0 and MMCR1 from the kernel's asm/reg.h, and those it lacks from
 * mmcr_regs.h, which only the driver includes: the KUnit register model
 * (kunit/spr_model.h) spells them itself, from the manuals.
 */
#ifndef _PC_PPC_MMCR_H
#define _PC_PPC_MMCR_H

#include <linux/bits.h>
#include <linux/perf_counter_hw.h>
#include <uapi/linux/perf_counter.h>

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
 * @no_pmi:	the part may not take the performance monitor exception
 *		(errata.c): PMXE is never set, the poll timer samples
 */
struct pc_ppc_pmu {
	struct pc_pmu		pmu;
	u16			pvr[6];
	unsigned int		nr_pvr;
	bool			has_mmcr2;
	struct pc_ppc_event	events[PERF_HW_EVENTS_MAX];
	u8			(*any_pmcs)(u8 sel);
	bool			no_pmi;
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
int pc_ppc_decode(const struct pc_pmu *pmu,
		  const struct perf_counter_hw_event *hw_event,
		  const u64 *extra, struct pc_hw_counter *hwc);
int pc_ppc_places(const struct pc_pmu *pmu, const struct pc_hw_counter *hwc,
		  struct pc_hw_place *place);
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

/* Parts whose exception is off, and their polled driver (errata.c). */
const char *pc_ppc_pmi_erratum(u32 pvr);
void pc_ppc_poll(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
void pc_ppc_polled(const struct pc_ppc_pmu *p, struct pc_ppc_pmu *polled);

/* The chosen model's registers taken from the rest of the kernel (pmu.c). */
int pc_ppc_reserve(void);
void pc_ppc_release(void);

#endif
