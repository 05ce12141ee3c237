// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on 64-bit Book3S PowerPC: the ISA 2.07 operations —
 * decoding an event into a selector, unit and freeze bits, the PMCs it
 * may sit on, programming MMCR0/MMCR1/MMCR2 one PMC at a time, and the
 * work of the alert and of the poll timer.
 *
 * Each PMC is frozen in the states its counter excludes by its own MMCR2
 * bits, so counters with different filters are on together. A PMC no
 * counter holds is frozen in every state (MMCR2), its selector cleared,
 * and PMC1-4 or PMC5-6 with none on are frozen as a block (FC14, FC56):
 * nothing counts toward an alert no counter owns.
 *
 * The alert is not masked by local_irq_disable() on 64-bit Book3S: it
 * comes as an NMI while interrupts are soft-disabled. Every
 * read-modify-write of MMCR0 here masks it (powerpc_local_irq_pmu_save())
 * so that an alert cannot come between the read and the write.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kprobes.h>
#include <asm/hw_irq.h>
#include <asm/reg.h>

#include "isa207.h"
#include "isa207_regs.h"

bool pc_isa207_alerts __read_mostly;
bool pc_isa207_kernel_hv __read_mostly;

/* pc_isa207_spr() counts on PMC1-6 being consecutive SPRs. */
static_assert(SPRN_PMC1 + 5 == SPRN_PMC6);

#define PC_PMC(n)	BIT((n) - 1)
#define PC_PMC1_4	GENMASK(3, 0)
#define PC_PMC5_6	GENMASK(5, 4)

static u32 pc_isa207_spr(unsigned int idx)
{
	return SPRN_PMC1 + idx;
}

static u64 pc_isa207_mmcr2_freeze(unsigned int n)
{
	return PC_MMCR2_FCS(n) | PC_MMCR2_FCP(n) | PC_MMCR2_FCH(n);
}

static u64 pc_isa207_mmcr1_mask(unsigned int n)
{
	return GENMASK_ULL(3, 0) << PC_MMCR1_UNIT_SHIFT(n) |
	       BIT_ULL(PC_MMCR1_COMB_SHIFT(n)) |
	       GENMASK_ULL(7, 0) << PC_MMCR1_SEL_SHIFT(n);
}

/* The PMCs a raw code may count on, or 0 if it is not an event. */
static u32 pc_isa207_code_pmcs(u64 code)
{
	unsigned int pmc = FIELD_GET(PC_ISA207_RAW_PMC, code);
	u64 sel = FIELD_GET(PC_ISA207_RAW_SEL, code);
	u64 direct = code & ~PC_ISA207_RAW_PMC;

	if (code & ~(PC_ISA207_RAW_SEL | PC_ISA207_RAW_COMB |
		     PC_ISA207_RAW_UNIT | PC_ISA207_RAW_PMC))
		return 0;
	switch (pmc) {
	case 0:
		/* any of PMC1-4: a direct event, counted alike on each */
		return sel && direct == sel ? PC_PMC1_4 : 0;
	case 5:
		return direct == PC_ISA207_PMC5_SEL ? PC_PMC(5) : 0;
	case 6:
		return direct == PC_ISA207_PMC6_SEL ? PC_PMC(6) : 0;
	case 1 ... 4:
		/* selector 0 is no event */
		return sel ? PC_PMC(pmc) : 0;
	}
	return 0;
}

/**
 * pc_isa207_decode() - an event as a selector, its PMCs and freeze bits
 * @pmu:	the model's pc_pmu, in its struct pc_isa207_pmu
 * @hw_event:	a generic id or a raw event (PC_ISA207_RAW_*), and the
 *		privilege filters
 * @extra:	its extra_config words: none are taken
 * @hwc:	gets the decoded counter
 *
 * exclude_user freezes the PMC in problem state (MMCR2 FCnP),
 * exclude_kernel in privileged state (FCnS), exclude_hv in hypervisor
 * state (FCnH). Where the kernel itself runs in hypervisor state
 * (pc_isa207_kernel_hv), exclude_kernel freezes that state too and
 * exclude_hv adds nothing. exclude_idle is the core's.
 *
 * Return: 0, or -EINVAL for a generic id the model lacks, a raw code
 * with reserved bits, a PMC above 6, a nest event (unit or combine)
 * without its PMC, selector 0, an event PMC5 or PMC6 does not count,
 * extra words, or a counter frozen in both user and kernel mode.
 */
int pc_isa207_decode(const struct pc_pmu *pmu,
		     const struct perf_counter_hw_event *hw_event,
		     const u64 *extra, struct pc_hw_counter *hwc)
{
	const struct pc_isa207_pmu *p = pc_isa207_of(pmu);
	u64 config = hw_event->event_config;
	u64 code, ex = 0;
	u32 pmcs;

	if (hw_event->extra_config_len)
		return -EINVAL;
	if (PERF_COUNTER_IS_RAW(config)) {
		code = config & PERF_COUNTER_CONFIG_MASK;
	} else {
		u64 id = PERF_COUNTER_ID(config);

		if (id >= PERF_HW_EVENTS_MAX)
			return -EINVAL;
		code = p->events[id];
	}
	pmcs = pc_isa207_code_pmcs(code);
	if (!pmcs)
		return -EINVAL;
	if (hw_event->exclude_user)
		ex |= PC_ISA207_CFG_EX_USER;
	if (hw_event->exclude_kernel)
		ex |= PC_ISA207_CFG_EX_KERNEL;
	if (hw_event->exclude_user && hw_event->exclude_kernel)
		return -EINVAL;
	if (hw_event->exclude_hv)
		ex |= PC_ISA207_CFG_EX_HV;
	hwc->config = (code & ~PC_ISA207_RAW_PMC) |
		      (u64)pmcs << PC_ISA207_CFG_PMCS_SHIFT | ex;
	hwc->extra = 0;
	return 0;
}

/**
 * pc_isa207_places() - the PMCs a decoded counter may sit on
 * @pmu:	the model (its PMCs are in @hwc already)
 * @hwc:	the decoded counter
 * @place:	one place per PMC, PMC1 first
 *
 * Return: how many.
 */
int pc_isa207_places(const struct pc_pmu *pmu,
		     const struct pc_hw_counter *hwc,
		     struct pc_hw_place *place)
{
	return pc_hw_places_of_mask(FIELD_GET(PC_ISA207_CFG_PMCS, hwc->config),
				    place);
}

/*
 * MMCR0's block freezes and alert enables for the PMCs in @used, the
 * rest of @mmcr0 kept; FC and the state freezes cleared. PMAO is kept:
 * an alert raised and not yet delivered stays raised (POWER8E loses it
 * if PMAO is cleared first); the alert's handler clears it. Setting
 * PMAE again with PMAO still set may bring that alert a second time:
 * the handler then finds nothing wrapped, and its rearm clears PMAO.
 */
static u64 pc_isa207_mmcr0(u64 mmcr0, u64 used)
{
	mmcr0 &= ~(MMCR0_FC | MMCR0_FCS | MMCR0_FCP |
		   PC_MMCR0_8_FC14 | MMCR0_FC56 | MMCR0_PMXE |
		   MMCR0_FCECE | MMCR0_PMC1CE | MMCR0_PMCjCE |
		   MMCR0_PMCC);
	mmcr0 |= PC_MMCR0_8_PMCC_NONE;
	if (!(used & PC_PMC1_4))
		mmcr0 |= PC_MMCR0_8_FC14;
	if (!(used & PC_PMC5_6))
		mmcr0 |= MMCR0_FC56;
	if (pc_isa207_alerts) {
		mmcr0 |= MMCR0_PMXE;
		if (used & PC_PMC(1))
			mmcr0 |= MMCR0_PMC1CE;
		if (used & GENMASK(5, 1))
			mmcr0 |= MMCR0_PMCjCE;
	}
	return mmcr0;
}

/*
 * A PMC outside @used that reads negative was left so by a counter gone
 * (folded already): the alert's condition is a level, so with PMAE and
 * its condition enabled it would alert at once. Zeroed, while alerts
 * are on.
 */
static void pc_isa207_zero_unowned(struct pc_hw_cpu *cpuc, u64 used)
{
	unsigned int idx;

	if (!pc_isa207_alerts)
		return;
	for (idx = 0; idx < PC_ISA207_NR_PMCS; idx++)
		if (!(used & BIT_ULL(idx)) &&
		    (pc_hw_reg_read(cpuc, pc_isa207_spr(idx)) &
		     PC_ISA207_OVERFLOW))
			pc_hw_reg_write(cpuc, pc_isa207_spr(idx), 0);
}

/* The MMCR2 bits that freeze PMC n in the states @config excludes. */
static u64 pc_isa207_freeze(u64 config, unsigned int n)
{
	u64 freeze = 0;

	if (config & PC_ISA207_CFG_EX_USER)
		freeze |= PC_MMCR2_FCP(n);
	if (config & PC_ISA207_CFG_EX_KERNEL)
		freeze |= PC_MMCR2_FCS(n) |
			  (pc_isa207_kernel_hv ? PC_MMCR2_FCH(n) : 0);
	if ((config & PC_ISA207_CFG_EX_HV) && !pc_isa207_kernel_hv)
		freeze |= PC_MMCR2_FCH(n);
	return freeze;
}

/**
 * pc_isa207_enable() - program @hwc's PMC and start the counters
 * @cpuc:	this CPU's registers; @hwc's PMC is loaded, its place in
 *		@cpuc->used
 * @hwc:	a counter at its place
 *
 * MMCR1 gets its unit, combine and selector (PMC1-4), MMCR2 its freeze
 * bits, then MMCR0, last: FC and the block freezes of the PMCs in use
 * cleared, the alert enabled for them if alerts are delivered.
 */
void pc_isa207_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	unsigned int n = hwc->place.idx + 1;
	u64 mmcr2, freeze = pc_isa207_freeze(hwc->config, n);
	unsigned long flags;

	powerpc_local_irq_pmu_save(flags);
	if (n <= 4) {
		u64 mmcr1 = pc_hw_reg_read(cpuc, SPRN_MMCR1);
		u64 unit = FIELD_GET(PC_ISA207_RAW_UNIT, hwc->config);
		u64 comb = FIELD_GET(PC_ISA207_RAW_COMB, hwc->config);
		u64 sel = FIELD_GET(PC_ISA207_RAW_SEL, hwc->config);

		mmcr1 &= ~pc_isa207_mmcr1_mask(n);
		mmcr1 |= unit << PC_MMCR1_UNIT_SHIFT(n) |
			 comb << PC_MMCR1_COMB_SHIFT(n) |
			 sel << PC_MMCR1_SEL_SHIFT(n);
		pc_hw_reg_write(cpuc, SPRN_MMCR1, mmcr1);
	}
	mmcr2 = pc_hw_reg_read(cpuc, SPRN_MMCR2);
	mmcr2 = (mmcr2 & ~pc_isa207_mmcr2_freeze(n)) | freeze;
	pc_hw_reg_write(cpuc, SPRN_MMCR2, mmcr2);
	pc_isa207_zero_unowned(cpuc, cpuc->used);
	pc_hw_reg_write(cpuc, SPRN_MMCR0,
			pc_isa207_mmcr0(pc_hw_reg_read(cpuc, SPRN_MMCR0),
					cpuc->used));
	powerpc_local_irq_pmu_restore(flags);
}

/**
 * pc_isa207_disable() - stop the counter at @hwc's PMC
 * @cpuc:	this CPU's registers
 * @hwc:	a counter at its place, still in @cpuc->used
 *
 * The PMC is frozen in every state (MMCR2) and its selector cleared; it
 * holds its value for the fold that follows. With no other PMC on,
 * everything is frozen (FC) and the alert is off; else MMCR0's block
 * freezes and condition enables follow the PMCs still on.
 */
void pc_isa207_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	unsigned int n = hwc->place.idx + 1;
	u64 others = cpuc->used & ~hwc->place.uses &
		     GENMASK_ULL(PC_ISA207_NR_PMCS - 1, 0);
	unsigned long flags;
	u64 mmcr0, mmcr2;

	powerpc_local_irq_pmu_save(flags);
	mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);
	if (!others)
		pc_hw_reg_write(cpuc, SPRN_MMCR0,
				MMCR0_FC | PC_MMCR0_8_FC14 |
				MMCR0_FC56 | PC_MMCR0_8_PMCC_NONE);
	mmcr2 = pc_hw_reg_read(cpuc, SPRN_MMCR2);
	pc_hw_reg_write(cpuc, SPRN_MMCR2,
			mmcr2 | pc_isa207_mmcr2_freeze(n));
	if (n <= 4)
		pc_hw_reg_write(cpuc, SPRN_MMCR1,
				pc_hw_reg_read(cpuc, SPRN_MMCR1) &
				~pc_isa207_mmcr1_mask(n));
	if (others) {
		pc_isa207_zero_unowned(cpuc, cpuc->used);
		pc_hw_reg_write(cpuc, SPRN_MMCR0,
				pc_isa207_mmcr0(mmcr0, others) |
				(mmcr0 & MMCR0_FC));
	}
	powerpc_local_irq_pmu_restore(flags);
}

/**
 * pc_isa207_read() - a PMC's value
 * @cpuc:	this CPU's registers
 * @idx:	0 for PMC1 ... 5 for PMC6
 *
 * Return: its 32 bits (QEMU's PMCs count on past them).
 */
u64 pc_isa207_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return (u32)pc_hw_reg_read(cpuc, pc_isa207_spr(idx));
}

/**
 * pc_isa207_write() - load a PMC
 * @cpuc:	this CPU's registers
 * @idx:	0 for PMC1 ... 5 for PMC6
 * @val:	0x80000000 minus the events to count before it alerts
 */
void pc_isa207_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, pc_isa207_spr(idx), (u32)val);
}

/**
 * pc_isa207_overflowed() - has a PMC reached its alert?
 * @cpuc:	this CPU's registers
 * @idx:	the PMC
 * @raw:	its value just read
 *
 * Return: true if its bit 0 (0x80000000) is set.
 */
bool pc_isa207_overflowed(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw)
{
	return raw & PC_ISA207_OVERFLOW;
}

/*
 * The end of the alert's or the poll's work: a PMC no counter owns that
 * reads negative (its counter went off after it passed bit 0) is zeroed,
 * or its condition would alert again; then, with counters on, FC is
 * cleared unless it was set before (@frozen), PMAO is cleared and PMAE,
 * which the alert cleared, set again if alerts are on.
 */
static void pc_isa207_rearm(struct pc_hw_cpu *cpuc, bool frozen)
{
	unsigned int idx;
	u64 mmcr0;

	for (idx = 0; idx < PC_ISA207_NR_PMCS; idx++)
		if (!READ_ONCE(cpuc->on[idx]) &&
		    (pc_isa207_read(cpuc, idx) & PC_ISA207_OVERFLOW))
			pc_isa207_write(cpuc, idx, 0);
	mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0) & ~MMCR0_PMAO;
	if (READ_ONCE(cpuc->nr_on)) {
		mmcr0 &= ~MMCR0_FC;
		if (frozen)
			mmcr0 |= MMCR0_FC;
		if (pc_isa207_alerts)
			mmcr0 |= MMCR0_PMXE;
	}
	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0);
}

/**
 * pc_isa207_irq() - the performance monitor alert
 * @cpuc:	this CPU's registers
 * @regs:	the interrupted state
 *
 * Every PMC is frozen (FC) while the counters that passed bit 0 are
 * folded, sampled and loaded again, so nothing they count is lost
 * between read and load; the handler's own events are not counted.
 *
 * Return: how many counters had passed bit 0.
 */
int pc_isa207_irq(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	u64 mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);
	int handled;

	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0 | MMCR0_FC);
	handled = pc_hw_handle_overflow(cpuc, regs);
	pc_isa207_rearm(cpuc, mmcr0 & MMCR0_FC);
	return handled;
}
NOKPROBE_SYMBOL(pc_isa207_irq);

/**
 * pc_isa207_poll() - the poll timer's work on this CPU
 * @cpuc:	this CPU's registers, in the timer's hard interrupt
 * @regs:	the interrupted state
 *
 * With the alert masked and every PMC frozen, pc_hw_poll_fold() folds
 * each counter on, reloads the counting ones far from bit 0 and does
 * the alert's work for any sampling counter that passed it.
 */
void pc_isa207_poll(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	unsigned long flags;
	u64 mmcr0;

	powerpc_local_irq_pmu_save(flags);
	mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);
	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0 | MMCR0_FC);
	pc_hw_poll_fold(cpuc, regs);
	pc_isa207_rearm(cpuc, mmcr0 & MMCR0_FC);
	powerpc_local_irq_pmu_restore(flags);
}

/**
 * pc_isa207_quiesce() - the idle state: all frozen, all zero, no alert
 * @cpuc:	the registers
 */
void pc_isa207_quiesce(struct pc_hw_cpu *cpuc)
{
	unsigned int idx;
	u64 mmcr2 = 0;

	for (idx = 1; idx <= PC_ISA207_NR_PMCS; idx++)
		mmcr2 |= pc_isa207_mmcr2_freeze(idx);
	pc_hw_reg_write(cpuc, SPRN_MMCR0, MMCR0_FC |
			PC_MMCR0_8_FC14 | MMCR0_FC56 |
			PC_MMCR0_8_PMCC_NONE);
	pc_hw_reg_write(cpuc, SPRN_MMCR1, 0);
	pc_hw_reg_write(cpuc, SPRN_MMCR2, mmcr2);
	pc_hw_reg_write(cpuc, SPRN_MMCRA, 0);
	for (idx = 0; idx < PC_ISA207_NR_PMCS; idx++)
		pc_isa207_write(cpuc, idx, 0);
}
