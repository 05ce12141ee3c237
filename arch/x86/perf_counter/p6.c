// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: Intel P6 — Pentium Pro, II, III and M, the family
 * 6 models the manuals list (p6_models[]).
 *
 * Two 40-bit counters, PERFCTR0/1, with EVNTSEL0/1. The enable bit 22
 * exists only in EVNTSEL0 and starts and stops both counters; it is
 * reserved in EVNTSEL1, as are bits 19 and 21 in both. A write to a
 * counter stores its low 32 bits, sign-extended from bit 31, so a
 * counter can be loaded with at most 2^31 events to overflow.
 *
 * While counter 1 runs alone, EVNTSEL0 holds the enable bit with
 * neither USR nor OS set, so counter 0 counts nothing and raises
 * nothing.
 */
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "evntsel.h"

static void p6_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	if (hwc->place.idx == 0) {
		pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL0,
				hwc->config | ARCH_PERFMON_EVENTSEL_ENABLE);
	} else {
		pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL1, hwc->config);
		/*
		 * Counter 0 off, or on but paused while the CPU idles (its
		 * enable bit clear): EN alone. Read only in the second case.
		 */
		if (!cpuc->on[0] ||
		    !(pc_hw_reg_read(cpuc, MSR_P6_EVNTSEL0) &
		      ARCH_PERFMON_EVENTSEL_ENABLE))
			pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL0,
					ARCH_PERFMON_EVENTSEL_ENABLE);
	}
}

static void p6_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	if (hwc->place.idx == 0) {
		pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL0,
				cpuc->on[1] ? ARCH_PERFMON_EVENTSEL_ENABLE : 0);
	} else {
		pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL1, 0);
		if (!cpuc->on[0])
			pc_hw_reg_write(cpuc, MSR_P6_EVNTSEL0, 0);
	}
}

static u64 p6_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return pc_hw_reg_read(cpuc, MSR_P6_PERFCTR0 + idx) & GENMASK_ULL(39, 0);
}

/* Only the low 32 bits reach the counter; bit 31 fills the rest. */
static void p6_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, MSR_P6_PERFCTR0 + idx, val & 0xffffffffULL);
}

/*
 * The family 6 models the manuals give this PMU: Pentium Pro (1),
 * Pentium II (3, 5; Celeron 6), Pentium III (7, 8, 0Ah, 0Bh) and
 * Pentium M (9, 0Dh). Intel SDM vol. 3B, "Performance Monitoring (P6
 * Family Processor)", and the model numbers of vol. 4's table 2-1 for
 * family 06H before Core. Later family 6 parts have architectural
 * performance monitoring, another PMU.
 */
static const u8 p6_models[] = { 0x1, 0x3, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa,
				0xb, 0xd };

static bool p6_match(const struct cpuinfo_x86 *c)
{
	unsigned int i;

	if (c->x86_vendor != X86_VENDOR_INTEL || c->x86 != 6 ||
	    cpu_has(c, X86_FEATURE_ARCH_PERFMON))
		return false;
	for (i = 0; i < ARRAY_SIZE(p6_models); i++)
		if (c->x86_model == p6_models[i])
			return true;
	return false;
}

/* Intel SDM vol. 3B, P6 family events: the ones tied to one counter. */
static const struct pc_evntsel_constraint p6_constraints[] = {
	{ 0x10, 0x1 },	/* FP_COMP_OPS_EXE */
	{ 0x11, 0x2 },	/* FP_ASSIST */
	{ 0x12, 0x2 },	/* MUL */
	{ 0x13, 0x2 },	/* DIV */
	{ 0x14, 0x1 },	/* CYCLES_DIV_BUSY */
	{ 0xc1, 0x1 },	/* FLOPS */
	{ }
};

static u32 p6_evntsel(unsigned int i)
{
	return MSR_P6_EVNTSEL0 + i;
}

const struct pc_evntsel_pmu pc_p6_pmu = {
	.x86 = {
		.pmu = {
			.name		= "P6",
			.nr_counters	= 2,
			.width		= 40,
			.max_period	= (1ULL << 31) - 1,
			.decode		= pc_evntsel_decode,
			.places		= pc_evntsel_places,
			.enable		= p6_enable,
			.disable	= p6_disable,
			.read		= p6_read,
			.write		= p6_write,
			.reserve	= pc_x86_reserve,
			.release	= pc_x86_release,
			.cpu_online	= pc_x86_cpu_online,
		},
		.match		= p6_match,
		.perfctr0	= MSR_P6_PERFCTR0,
		.ctl_msr	= p6_evntsel,
		.nr_ctl		= 2,
		.check_ctl	= MSR_P6_EVNTSEL0,	/* its enable bit starts both */
		.check_on	= ARCH_PERFMON_EVENTSEL_ENABLE,
	},
	.evntsel0	= MSR_P6_EVNTSEL0,
	.event_map = {
		[PERF_COUNT_CPU_CYCLES]		= 0x0079, /* CPU_CLK_UNHALTED */
		[PERF_COUNT_INSTRUCTIONS]	= 0x00c0, /* INST_RETIRED */
		[PERF_COUNT_CACHE_REFERENCES]	= 0x0f2e, /* L2_RQSTS, MESI */
		[PERF_COUNT_CACHE_MISSES]	= 0x012e, /* L2_RQSTS, I */
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = 0x00c4, /* BR_INST_RETIRED */
		[PERF_COUNT_BRANCH_MISSES]	= 0x00c5, /* BR_MISS_PRED_RETIRED */
		[PERF_COUNT_BUS_CYCLES]		= 0x0062, /* BUS_DRDY_CLOCKS */
	},
	.raw_mask	= X86_RAW_EVENT_MASK,
	.constraints	= p6_constraints,
};
