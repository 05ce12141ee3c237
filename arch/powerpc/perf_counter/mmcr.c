// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on 32-bit PowerPC: what the 604, 750 and 74xx drivers
 * share — decoding an event into a selector and freeze bits, the PMCs
 * it may sit on, and programming MMCR0/MMCR1/MMCR2 one PMC at a time.
 *
 * The freeze bits (MMCR0[FCS], MMCR0[FCP]) and the threshold are one set
 * for all PMCs: counters that disagree on them are never on together
 * (pc_ppc_compatible()), so whichever counter is enabled last writes
 * what every counter on the CPU asked for.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/errno.h>

#include "mmcr.h"
#include "mmcr_regs.h"

/* Where each PMC's selector lives: register and field. */
static const struct {
	u16	spr;
	u32	mask;
} pc_ppc_sel_field[PC_PPC_MAX_PMCS] = {
	{ SPRN_MMCR0, MMCR0_PMC1SEL },	/* MMCR0 19-25 */
	{ SPRN_MMCR0, MMCR0_PMC2SEL },	/* MMCR0 26-31 */
	{ SPRN_MMCR1, MMCR1_PMC3SEL },	/* MMCR1 0-4 */
	{ SPRN_MMCR1, MMCR1_PMC4SEL },	/* MMCR1 5-9 */
	{ SPRN_MMCR1, MMCR1_PMC5SEL },	/* MMCR1 10-14 */
	{ SPRN_MMCR1, MMCR1_PMC6SEL },	/* MMCR1 15-20 */
};

static const u16 pc_ppc_pmc[PC_PPC_MAX_PMCS] = {
	SPRN_PMC1, SPRN_PMC2, SPRN_PMC3,
	SPRN_PMC4, SPRN_PMC5, SPRN_PMC6,
};

/**
 * pc_ppc_pmc_spr() - the SPR number of a PMC
 * @idx:	0 for PMC1 ... 5 for PMC6
 *
 * Return: the SPR number.
 */
u32 pc_ppc_pmc_spr(unsigned int idx)
{
	return pc_ppc_pmc[idx];
}

static u32 pc_ppc_sel_mask(unsigned int idx)
{
	return pc_ppc_sel_field[idx].mask;
}

static unsigned int pc_ppc_sel_shift(unsigned int idx)
{
	return __ffs(pc_ppc_sel_field[idx].mask);
}

/* The highest selector the field holds. */
static u32 pc_ppc_sel_max(unsigned int idx)
{
	return pc_ppc_sel_mask(idx) >> pc_ppc_sel_shift(idx);
}

/* The threshold words an exclusive raw counter may bring. */
static int pc_ppc_decode_extra(const struct pc_ppc_pmu *p,
			       const struct perf_counter_hw_event *hw_event,
			       const u64 *extra, struct pc_hw_counter *hwc)
{
	unsigned int words = hw_event->extra_config_len / sizeof(u64);

	hwc->extra = 0;
	if (!words)
		return 0;
	if (!hw_event->exclusive)
		return -EINVAL;
	/* word 0: MMCR0, only its THRESHOLD field */
	if (extra[0] & ~(u64)PC_MMCR0_THRESHOLD)
		return -EINVAL;
	hwc->extra = PC_PPC_EXTRA_SET | extra[0];
	if (words < 2)
		return 0;
	/* word 1: MMCR2, only THRESHMULT, on the parts that have it */
	if (!p->has_mmcr2 || (extra[1] & ~(u64)PC_MMCR2_THRESHMULT))
		return -EINVAL;
	if (extra[1])
		hwc->extra |= PC_PPC_EXTRA_MULT;
	return 0;
}

/**
 * pc_ppc_decode() - an event as a selector, its PMCs and freeze bits
 * @pmu:	the model's pc_pmu, in its struct pc_ppc_pmu
 * @hw_event:	a generic id or a raw event (PC_PPC_RAW_SEL/_PMC), and
 *		the privilege filters
 * @extra:	its extra_config words: MMCR0's THRESHOLD field, then
 *		MMCR2's THRESHMULT; only for an exclusive counter
 * @hwc:	gets the decoded counter
 *
 * exclude_user sets MMCR0[FCP], exclude_kernel MMCR0[FCS]; exclude_hv
 * means nothing on these parts (no hypervisor mode) and is accepted;
 * exclude_idle is the core's: it pauses the counter while the CPU idles.
 *
 * Return: 0, or -EINVAL for a generic id the model lacks, a raw
 * selector wider than its PMC's field, a PMC the model lacks, a
 * selector that needs its PMC named, reserved bits, threshold words on
 * a counter that is not exclusive, or a counter frozen in both modes.
 */
int pc_ppc_decode(const struct pc_pmu *pmu,
		  const struct perf_counter_hw_event *hw_event,
		  const u64 *extra, struct pc_hw_counter *hwc)
{
	const struct pc_ppc_pmu *p = pc_ppc_of(pmu);
	unsigned int nr = pmu->nr_counters;
	u64 config = hw_event->event_config;
	u32 sel, pmcs, freeze = 0;

	if (PERF_COUNTER_IS_RAW(config)) {
		u64 code = config & PERF_COUNTER_CONFIG_MASK;
		unsigned int pmc = FIELD_GET(PC_PPC_RAW_PMC, code);

		if (code & ~(PC_PPC_RAW_SEL | PC_PPC_RAW_PMC))
			return -EINVAL;
		sel = FIELD_GET(PC_PPC_RAW_SEL, code);
		if (pmc > nr)
			return -EINVAL;
		if (pmc) {
			if (sel > pc_ppc_sel_max(pmc - 1))
				return -EINVAL;
			pmcs = BIT(pmc - 1);
		} else {
			pmcs = p->any_pmcs(sel) & GENMASK(nr - 1, 0);
		}
	} else {
		u64 id = PERF_COUNTER_ID(config);

		if (id >= PERF_HW_EVENTS_MAX)
			return -EINVAL;
		sel = p->events[id].sel;
		pmcs = p->events[id].pmcs & GENMASK(nr - 1, 0);
	}
	/* Selector 0 holds the counter: it counts nothing. */
	if (!sel || !pmcs)
		return -EINVAL;
	if (hw_event->exclude_user)
		freeze |= MMCR0_FCP;
	if (hw_event->exclude_kernel)
		freeze |= MMCR0_FCS;
	if (freeze == PC_MMCR0_FREEZE_MODE)
		return -EINVAL;
	hwc->config = sel | pmcs << PC_PPC_CFG_PMCS_SHIFT | freeze;
	return pc_ppc_decode_extra(p, hw_event, extra, hwc);
}

/**
 * pc_ppc_places() - the PMCs a decoded counter may sit on
 * @pmu:	the model (its PMCs are in @hwc already)
 * @hwc:	the decoded counter
 * @place:	one place per PMC, PMC1 first
 *
 * Return: how many.
 */
int pc_ppc_places(const struct pc_pmu *pmu, const struct pc_hw_counter *hwc,
		  struct pc_hw_place *place)
{
	return pc_hw_places_of_mask((hwc->config & PC_PPC_CFG_PMCS) >>
				    PC_PPC_CFG_PMCS_SHIFT, place);
}

/**
 * pc_ppc_compatible() - may two counters be on at once?
 * @a:		a decoded counter
 * @b:		another
 *
 * One pair of freeze bits serves every PMC, and one threshold: the two
 * must agree on the first, and on the second if both set it.
 *
 * Return: true if they may.
 */
bool pc_ppc_compatible(const struct pc_hw_counter *a,
		       const struct pc_hw_counter *b)
{
	if ((a->config ^ b->config) & PC_MMCR0_FREEZE_MODE)
		return false;
	return !(a->extra & PC_PPC_EXTRA_SET) ||
	       !(b->extra & PC_PPC_EXTRA_SET) || a->extra == b->extra;
}

/* The PMC's condition enable: PMC1CE for PMC1, PMCjCE for the rest. */
static u32 pc_ppc_ce(unsigned int idx)
{
	return idx ? MMCR0_PMCnCE : MMCR0_PMC1CE;
}

/**
 * pc_ppc_enable() - program @hwc's PMC and start the counters
 * @cpuc:	this CPU's registers; @hwc's PMC is loaded already
 * @hwc:	a counter at its place
 *
 * Writes the selector into MMCR0 or MMCR1, then MMCR0 last: the freeze
 * bits the counter asks for, FC clear, PMXE (unless the part may not
 * take the exception: errata.c) and the PMC's condition enable, and the
 * threshold (with MMCR2) if the counter set one.
 */
void pc_ppc_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	const struct pc_ppc_pmu *p = pc_ppc_of(cpuc->pmu);
	unsigned int idx = hwc->place.idx;
	u32 sel = (hwc->config & PC_PPC_CFG_SEL) << pc_ppc_sel_shift(idx);
	u32 mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);

	if (pc_ppc_sel_field[idx].spr == SPRN_MMCR1) {
		u32 mmcr1 = pc_hw_reg_read(cpuc, SPRN_MMCR1);

		mmcr1 = (mmcr1 & ~pc_ppc_sel_mask(idx)) | sel;
		pc_hw_reg_write(cpuc, SPRN_MMCR1, mmcr1);
	} else {
		mmcr0 = (mmcr0 & ~pc_ppc_sel_mask(idx)) | sel;
	}
	if (hwc->extra & PC_PPC_EXTRA_SET) {
		mmcr0 = (mmcr0 & ~PC_MMCR0_THRESHOLD) |
			(hwc->extra & PC_MMCR0_THRESHOLD);
		if (p->has_mmcr2)
			pc_hw_reg_write(cpuc, SPRN_MMCR2,
					hwc->extra & PC_PPC_EXTRA_MULT ?
					PC_MMCR2_THRESHMULT : 0);
	}
	mmcr0 &= ~(MMCR0_FC | PC_MMCR0_FREEZE_MODE);
	mmcr0 |= (hwc->config & PC_MMCR0_FREEZE_MODE) | pc_ppc_ce(idx);
	if (!p->no_pmi)
		mmcr0 |= MMCR0_PMXE;
	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0);
}

/**
 * pc_ppc_disable() - stop the counter at @hwc's PMC
 * @cpuc:	this CPU's registers
 * @hwc:	a counter at its place, still in @cpuc->used
 *
 * Clears the PMC's selector (a PMC with selector 0 holds its value for
 * the fold that follows) and, when no other PMC is on, freezes them all
 * and turns the exception, the conditions and the threshold off; the
 * PMCjCE enable goes when the last of PMC2-6 does.
 */
void pc_ppc_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	const struct pc_ppc_pmu *p = pc_ppc_of(cpuc->pmu);
	unsigned int idx = hwc->place.idx;
	u64 others = cpuc->used & ~hwc->place.uses & GENMASK_ULL(5, 0);
	u32 mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);

	if (!others) {
		pc_hw_reg_write(cpuc, SPRN_MMCR0, MMCR0_FC);
		if (p->pmu.nr_counters > 2)
			pc_hw_reg_write(cpuc, SPRN_MMCR1, 0);
		if (p->has_mmcr2)
			pc_hw_reg_write(cpuc, SPRN_MMCR2, 0);
		return;
	}
	if (pc_ppc_sel_field[idx].spr == SPRN_MMCR1) {
		u32 mmcr1 = pc_hw_reg_read(cpuc, SPRN_MMCR1);

		pc_hw_reg_write(cpuc, SPRN_MMCR1,
				mmcr1 & ~pc_ppc_sel_mask(idx));
	} else {
		mmcr0 &= ~pc_ppc_sel_mask(idx);
	}
	if (!idx)
		mmcr0 &= ~MMCR0_PMC1CE;
	else if (!(others & ~BIT_ULL(0)))
		mmcr0 &= ~MMCR0_PMCnCE;
	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0);
}

/**
 * pc_ppc_read() - a PMC's value, overflow bit included
 * @cpuc:	this CPU's registers
 * @idx:	0 for PMC1 ... 5 for PMC6
 *
 * Return: the 32-bit value.
 */
u64 pc_ppc_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return (u32)pc_hw_reg_read(cpuc, pc_ppc_pmc[idx]);
}

/**
 * pc_ppc_write() - load a PMC
 * @cpuc:	this CPU's registers
 * @idx:	0 for PMC1 ... 5 for PMC6
 * @val:	0x80000000 minus the events to count before the interrupt
 */
void pc_ppc_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, pc_ppc_pmc[idx], (u32)val);
}

/**
 * pc_ppc_overflowed() - did a PMC turn negative?
 * @cpuc:	this CPU's registers
 * @idx:	the PMC
 * @raw:	its value just read
 *
 * Return: true if its bit 0 (the overflow bit) is set.
 */
bool pc_ppc_overflowed(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw)
{
	return raw & PC_PMC_OVERFLOW;
}

/**
 * pc_ppc_rearm() - end the performance monitor exception's work
 * @cpuc:	this CPU's registers, the core's overflow work done
 * @frozen:	MMCR0[FC] was set when the exception came (the counters
 *		paused on purpose): it stays set
 *
 * The counters on were loaded again by the core. A PMC no counter owns
 * may still read negative (its counter went off or moved after it
 * wrapped, with the exception pending): it is zeroed. The exception is
 * level-sensitive: while PMXE is set, a negative PMC with its condition
 * enabled signals it again at once (MPC7400 User's Manual, 2.1.3.1.1;
 * IBM 750GX/GL User's Manual, MMCR0[DISCOUNT]), so leaving one would
 * storm. Then, if any counter is on, the counters are let go (FC, set
 * by pc_ppc_irq()) unless they were frozen before, and PMXE, which the
 * processor cleared as it signalled, is set again, in one write (not on
 * a polled part, errata.c, which calls this at the end of each poll).
 */
void pc_ppc_rearm(struct pc_hw_cpu *cpuc, bool frozen)
{
	unsigned int idx;
	u32 mmcr0;
	bool pmi = !pc_ppc_of(cpuc->pmu)->no_pmi;

	for (idx = 0; idx < cpuc->pmu->nr_counters; idx++)
		if (!READ_ONCE(cpuc->on[idx]) &&
		    (pc_ppc_read(cpuc, idx) & PC_PMC_OVERFLOW))
			pc_ppc_write(cpuc, idx, 0);
	if (!READ_ONCE(cpuc->nr_on))
		return;
	mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0) & ~MMCR0_FC;
	if (frozen)
		mmcr0 |= MMCR0_FC;
	pc_hw_reg_write(cpuc, SPRN_MMCR0, pmi ? mmcr0 | MMCR0_PMXE : mmcr0);
}

/**
 * pc_ppc_irq() - the performance monitor exception
 * @cpuc:	this CPU's registers
 * @regs:	the interrupted state
 *
 * The PMCs go on counting while the handler runs. Between the read that
 * folds a PMC and the write that loads it again, the events it counts
 * would be lost: the handler freezes every PMC first (MMCR0[FC]) and
 * pc_ppc_rearm() lets them go at its end, so the 64-bit counts hold
 * exactly what the PMCs counted. The handler's own events are not
 * counted.
 *
 * Return: how many counters had wrapped.
 */
int pc_ppc_irq(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	u32 mmcr0 = pc_hw_reg_read(cpuc, SPRN_MMCR0);
	int handled;

	pc_hw_reg_write(cpuc, SPRN_MMCR0, mmcr0 | MMCR0_FC);
	handled = pc_hw_handle_overflow(cpuc, regs);
	pc_ppc_rearm(cpuc, mmcr0 & MMCR0_FC);
	return handled;
}
