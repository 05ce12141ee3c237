// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: AMD family 15h and later — six core counters,
 * the event constraints of family 15h, the event map of family 17h and
 * later, and the global enable of PerfMonV2 parts (Zen 4).
 *
 * - Family 15h (BKDG for AMD family 15h models 00h-0Fh, 42301,
 *   MSRC001_020[B:0], and section 3.24, "Performance Counter Events"):
 *   six core counters, PERF_CTL[i] at 0xC0010200 + 2i and
 *   PERF_CTR[i] at 0xC0010201 + 2i, where CPUID 0x80000001 ECX bit 23
 *   (PerfCtrExtCore) says they exist. Many events count only on some of
 *   them: see f15h_class[] and f15h_rules[].
 * - Families 17h and 19h (PPR for AMD family 17h model 01h, 54945, and
 *   for family 19h model 01h, 55898, "Performance Monitor Counters",
 *   2.1.17 in the latter): the same six counters, any event on any;
 *   PMCx041 no longer counts data cache misses, so the cache events are
 *   the L2's (zen_map).
 * - PerfMonV2 (AMD64 APM vol. 2, 24593, section 13.2, Performance
 *   Monitoring Counters; CPUID 0x80000022 EAX bit 0, EBX[3:0] the number
 *   of core counters): a counter counts only while its bit in
 *   PerfCntrGlobalCtl (0xC0000301) is set as well as its PERF_CTL's
 *   enable bit; a wrap sets its bit in PerfCntrGlobalStatus (0xC0000300)
 *   until PerfCntrGlobalStatusClr (0xC0000302) clears it. Nothing
 *   promises those registers' values to a new user: 6.1's perf_events
 *   writes PerfCntrGlobalCtl 0 in its reset and whenever it stops its
 *   counters. As the registers are taken, each CPU's status is cleared
 *   and every counter enabled (zen4_clear()); as they are given back,
 *   the status is cleared again and the enables left at 0
 *   (zen4_stop()).
 *
 * Families this file and k7.c do not model — 11h, 12h, 14h, 16h, 1Ah and
 * later, or 15h to 19h without the CPUID bits above — get no driver and
 * a boot line that says why (pc_amd_why_no_driver()).
 */
#include <linux/bitops.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "amd.h"

static u32 core_ctl(unsigned int i)
{
	return MSR_F15H_PERF_CTL0 + 2 * i;
}

static u32 core_ctr(unsigned int i)
{
	return MSR_F15H_PERF_CTR0 + 2 * i;
}

static void core_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, core_ctl(hwc->place.idx),
			hwc->config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

static void core_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, core_ctl(hwc->place.idx), 0);
}

static u64 core_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return pc_hw_reg_read(cpuc, core_ctr(idx)) & GENMASK_ULL(47, 0);
}

static void core_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, core_ctr(idx), val & GENMASK_ULL(47, 0));
}

/* The BKDG's counter sets, PERF_CTL[...] */
#define CTL(n)		BIT(n)
#define CTL_2_0		0x07UL
#define CTL_5_3		0x38UL
#define CTL_5_0		0x3fUL

/*
 * Family 15h: the counters of each event class, by event select bits
 * 7:4 (BKDG 15h, 3.24: FP 00h-1Fh on PERF_CTL[5:3]; LS 20h-3Fh and DC
 * 40h-5Fh on any; CU 60h-7Fh and IC/DE 80h-9Fh on PERF_CTL[2:0]; EX/LS
 * C0h-CFh on any; DE D0h-DFh on PERF_CTL[2:0]). A0h-BFh hold no event,
 * and E0h-FFh are northbridge events, counted by the northbridge's own
 * counters (NB_PERF_CTL), never by a core counter: no counter.
 */
static const u8 f15h_class[16] = {
	[0x0] = CTL_5_3, [0x1] = CTL_5_3,
	[0x2] = CTL_5_0, [0x3] = CTL_5_0, [0x4] = CTL_5_0, [0x5] = CTL_5_0,
	[0x6] = CTL_2_0, [0x7] = CTL_2_0, [0x8] = CTL_2_0, [0x9] = CTL_2_0,
	[0xc] = CTL_5_0, [0xd] = CTL_2_0,
};

/* Which unit masks a rule of f15h_rules[] is for */
enum f15h_umask {
	F15H_ANY,	/* any */
	F15H_BOTH_HALVES, /* bits set in both 7:4 and 3:0 */
	F15H_SEVERAL,	/* more than one bit set */
};

/* An event whose counters are not its class's (BKDG 15h, 3.24) */
struct f15h_rule {
	u16	first, last;	/* event select, 11:0 */
	u8	umask;		/* enum f15h_umask */
	u8	counters;
};

/* The first rule that fits wins; an event without one takes its class's. */
static const struct f15h_rule f15h_rules[] = {
	/* Dispatched FPU Ops: single- and dual-pipe ops together: [3] */
	{ 0x000, 0x000, F15H_BOTH_HALVES, CTL(3) },
	{ 0x003, 0x003, F15H_ANY, CTL(3) },
	{ 0x004, 0x004, F15H_SEVERAL, CTL(3) },
	{ 0x00b, 0x00b, F15H_ANY, CTL(3) },
	{ 0x00d, 0x00d, F15H_ANY, CTL(3) },
	{ 0x023, 0x023, F15H_ANY, CTL_2_0 },
	{ 0x02d, 0x02d, F15H_ANY, CTL(3) },
	{ 0x02e, 0x02e, F15H_ANY, CTL(3) | CTL(0) },
	/* one unit mask bit at a time, on PERF_CTL[2:0] */
	{ 0x031, 0x031, F15H_SEVERAL, 0 },
	{ 0x031, 0x031, F15H_ANY, CTL_2_0 },
	{ 0x043, 0x043, F15H_ANY, CTL_2_0 },
	{ 0x045, 0x046, F15H_ANY, CTL_2_0 },
	{ 0x054, 0x055, F15H_ANY, CTL_2_0 },
	{ 0x08f, 0x08f, F15H_ANY, CTL(0) },
	{ 0x187, 0x188, F15H_ANY, CTL(0) },
	{ 0x0db, 0x0df, F15H_ANY, CTL_5_0 },
	{ 0x1c0, 0x1c0, F15H_ANY, CTL_5_3 },
	{ 0x1d6, 0x1d6, F15H_ANY, CTL_5_0 },
	{ 0x1d8, 0x1d8, F15H_ANY, CTL_5_0 },
};

static bool f15h_umask_fits(u8 rule, u8 umask)
{
	switch (rule) {
	case F15H_BOTH_HALVES:
		return (umask & 0xf0) && (umask & 0x0f);
	case F15H_SEVERAL:
		return hweight8(umask) > 1;
	default:
		return true;
	}
}

/**
 * pc_amd_f15h_counters() - the family 15h counters that count an event
 * @config:	its EVNTSEL word
 *
 * Return: bit n set if PERF_CTL[n] may count it (BKDG for family 15h
 * models 00h-0Fh, section 3.24); 0 if no core counter can.
 */
unsigned long pc_amd_f15h_counters(u64 config)
{
	/* EventSelect[7:0] in bits 7:0, EventSelect[11:8] in 35:32 */
	u64 sel = config & AMD64_EVENTSEL_EVENT;
	u16 event = (sel & ARCH_PERFMON_EVENTSEL_EVENT) | (sel >> 24);
	u8 umask = (config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f15h_rules); i++) {
		const struct f15h_rule *r = &f15h_rules[i];

		if (event >= r->first && event <= r->last &&
		    f15h_umask_fits(r->umask, umask))
			return r->counters;
	}
	return f15h_class[(event >> 4) & 0xf];
}

static bool amd_core(const struct cpuinfo_x86 *c)
{
	return c->x86_vendor == X86_VENDOR_AMD &&
	       cpu_has(c, X86_FEATURE_PERFCTR_CORE);
}

static bool amd_zen_family(const struct cpuinfo_x86 *c)
{
	return c->x86 == 0x17 || c->x86 == 0x19;
}

/*
 * Family 15h without PerfMonV2: a part that has it (a hypervisor may
 * say so) gates its counters by PerfCntrGlobalCtl, which this driver
 * does not set up.
 */
static bool f15h_match(const struct cpuinfo_x86 *c)
{
	return amd_core(c) && c->x86 == 0x15 &&
	       !cpu_has(c, X86_FEATURE_PERFMON_V2);
}

static bool zen_match(const struct cpuinfo_x86 *c)
{
	return amd_core(c) && amd_zen_family(c) &&
	       !cpu_has(c, X86_FEATURE_PERFMON_V2);
}

/**
 * pc_amd_zen4_fits() - is this a PerfMonV2 part the Zen 4 driver takes?
 * @c:		the CPU
 * @nr_core:	its core counters, CPUID 0x80000022 EBX[3:0]
 *
 * Family 17h or 19h with PerfCtrExtCore and PerfMonV2, and at least the
 * six counters the driver uses.
 *
 * Return: true if it does.
 */
bool pc_amd_zen4_fits(const struct cpuinfo_x86 *c, unsigned int nr_core)
{
	return amd_core(c) && amd_zen_family(c) &&
	       cpu_has(c, X86_FEATURE_PERFMON_V2) && nr_core >= AMD_NR_CORE;
}

static unsigned int amd_v2_nr_core(const struct cpuinfo_x86 *c)
{
	if (!cpu_has(c, X86_FEATURE_PERFMON_V2))
		return 0;
	return cpuid_ebx(0x80000022) & 0xf;
}

static bool zen4_match(const struct cpuinfo_x86 *c)
{
	return pc_amd_zen4_fits(c, amd_v2_nr_core(c));
}

/**
 * pc_amd_why_no_driver() - why an AMD part has no driver, for the boot line
 * @c:		the CPU
 *
 * Return: the reason, starting with a space, or "".
 */
const char *pc_amd_why_no_driver(const struct cpuinfo_x86 *c)
{
	if (c->x86 <= 0x10)
		return "";
	if (c->x86 != 0x15 && !amd_zen_family(c))
		return " (a family perf_counter does not model: it drives K7, K8 and families 10h, 15h, 17h and 19h)";
	if (!cpu_has(c, X86_FEATURE_PERFCTR_CORE))
		return " (no core performance counters: CPUID 0x80000001 ECX bit 23, PerfCtrExtCore, is clear)";
	if (cpu_has(c, X86_FEATURE_PERFMON_V2) && c->x86 == 0x15)
		return " (PerfMonV2 on family 15h, whose driver does not set up PerfCntrGlobalCtl)";
	if (cpu_has(c, X86_FEATURE_PERFMON_V2))
		return " (PerfMonV2 with fewer than six core counters: CPUID 0x80000022 EBX[3:0])";
	return "";
}

/*
 * Zen 4: each CPU's counters are turned off, the overflow status a
 * previous user left is cleared, then every counter is enabled in
 * PerfCntrGlobalCtl, so that a PERF_CTL's enable bit alone starts and
 * stops its counter, as on the parts before.
 */
static void zen4_clear(struct pc_hw_cpu *cpuc)
{
	u64 free = GENMASK_ULL(AMD_NR_CORE - 1, 0);
	unsigned int i;

	for (i = 0; i < AMD_NR_CORE; i++) {
		if (cpuc->on[i]) {	/* see pc_x86_cpu_start() */
			free &= ~BIT_ULL(i);
			continue;
		}
		pc_hw_reg_write(cpuc, core_ctl(i), 0);
	}
	pc_hw_reg_write(cpuc, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, free);
	pc_hw_reg_write(cpuc, MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
			GENMASK_ULL(AMD_NR_CORE - 1, 0));
}

/*
 * Zen 4, as the registers are given back: the overflow status bits are
 * sticky (only PerfCntrGlobalStatusClr clears them), and 6.1's
 * perf_events clears them only as a CPU comes up — a bit we left set is
 * "an overflow of an inactive counter" to its handler, and makes it
 * wait for one on every stop. So they are cleared, and
 * PerfCntrGlobalCtl left at 0, as perf_events' own reset leaves it.
 */
static void zen4_stop(struct pc_hw_cpu *cpuc)
{
	pc_hw_reg_write(cpuc, MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
			GENMASK_ULL(AMD_NR_CORE - 1, 0));
	pc_hw_reg_write(cpuc, MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
}

#define CORE_OPS					\
	.nr_counters	= AMD_NR_CORE,			\
	.width		= 48,				\
	.max_period	= (1ULL << 47) - 1,		\
	.decode		= pc_evntsel_decode,		\
	.places		= pc_evntsel_places,		\
	.enable		= core_enable,			\
	.disable	= core_disable,			\
	.read		= core_read,			\
	.write		= core_write,			\
	.reserve	= pc_x86_reserve,		\
	.release	= pc_x86_release,		\
	.cpu_online	= pc_x86_cpu_online

#define CORE_X86(match_fn)				\
	.match		= match_fn,			\
	.perfctr0	= MSR_F15H_PERF_CTR0,		\
	.ctr_msr	= core_ctr,			\
	.ctl_msr	= core_ctl,			\
	.nr_ctl		= AMD_NR_CORE,			\
	.check_ctl	= MSR_F15H_PERF_CTL0 + 2 * (AMD_NR_CORE - 1), \
	.check_on	= ARCH_PERFMON_EVENTSEL_ENABLE

/*
 * Families 17h and 19h (PPR 17h and 19h, core performance events):
 * LsNotHaltedCyc (76h), ExRetInstr (C0h), ExRetBrn (C2h), ExRetBrnMisp
 * (C3h) as before; the cache events are the L2's: L2RequestG1 (60h) with
 * every unit mask bit, and L2CacheReqStat (64h) with IcFillMiss and
 * LsRdBlkC (unit mask 09h), the requests that miss. PMCx041 is no data
 * cache miss event on these families.
 */
#define ZEN_EVENT_MAP {							\
	[PERF_COUNT_CPU_CYCLES]		= 0x0076,			\
	[PERF_COUNT_INSTRUCTIONS]	= 0x00c0,			\
	[PERF_COUNT_CACHE_REFERENCES]	= 0xff60,			\
	[PERF_COUNT_CACHE_MISSES]	= 0x0964,			\
	[PERF_COUNT_BRANCH_INSTRUCTIONS] = 0x00c2,			\
	[PERF_COUNT_BRANCH_MISSES]	= 0x00c3,			\
}

const struct pc_evntsel_pmu pc_f15h_pmu = {
	.x86 = {
		.pmu	= { .name = "AMD family 15h", CORE_OPS },
		CORE_X86(f15h_match),
	},
	.evntsel0	= MSR_F15H_PERF_CTL0,
	.event_map	= AMD_K7_EVENT_MAP,
	.raw_mask	= AMD64_RAW_EVENT_MASK,
	.counters	= pc_amd_f15h_counters,
};

const struct pc_evntsel_pmu pc_zen_pmu = {
	.x86 = {
		.pmu	= { .name = "AMD Zen", CORE_OPS },
		CORE_X86(zen_match),
	},
	.evntsel0	= MSR_F15H_PERF_CTL0,
	.event_map	= ZEN_EVENT_MAP,
	.raw_mask	= AMD64_RAW_EVENT_MASK,
};

const struct pc_evntsel_pmu pc_zen4_pmu = {
	.x86 = {
		.pmu	= { .name = "AMD Zen 4", CORE_OPS },
		CORE_X86(zen4_match),
		.clear		= zen4_clear,
		.stop		= zen4_stop,
	},
	.evntsel0	= MSR_F15H_PERF_CTL0,
	.event_map	= ZEN_EVENT_MAP,
	.raw_mask	= AMD64_RAW_EVENT_MASK,
};
