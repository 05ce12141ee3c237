// SPDX-License-Identifier: GPL-2.0
/*
 * The AMD drivers against models of each family's registers and event
 * meanings: which family gets which driver, the six core counters of
 * family 15h and later, family 15h's event constraints, the L2 cache
 * events of families 17h and 19h, and Zen 4's PerfCntrGlobalCtl.
 */
#include <asm/processor.h>

#include "internal.h"
#include "msr_model.h"
#include "../amd.h"

/* PerfCntrGlobalCtl with the six core counters enabled */
#define AMD_ALL_SIX	(MSRM_AMD_GLOBAL_CTR(6) - 1)

/* A workload whose kinds all differ, so that a count says which it is. */
static const struct pc_model_work amd_work = {
	.n = {
		[PC_KIND_CYCLES]	= 100000,
		[PC_KIND_INSTRUCTIONS]	= 70000,
		[PC_KIND_BRANCHES]	= 9000,
		[PC_KIND_BRANCH_MISSES]	= 300,
		[PC_KIND_L1D_ACCESSES]	= 20000,
		[PC_KIND_L1D_MISSES]	= 700,
		[PC_KIND_L2_REQUESTS]	= 1100,
		[PC_KIND_L2_MISSES]	= 40,
		[PC_KIND_BUS_CYCLES]	= 5000,
		[PC_KIND_FP_OPS]	= 2500,
		[PC_KIND_FP_ASSISTS]	= 3,
		[PC_KIND_MULS]		= 600,
		[PC_KIND_DIVS]		= 50,
		[PC_KIND_DIV_BUSY]	= 1500,
	},
};

static struct perf_counter *amd_counter(struct kunit *test,
					struct pc_msr_model *m,
					struct perf_counter_hw_event hw)
{
	struct perf_counter *c = pc_model_counter(test, m, &hw);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static u64 amd_count(struct pc_msr_model *m, struct perf_counter *c)
{
	if (c->hw.on)
		pc_hw_fold(&m->cpuc, c);
	return atomic64_read(&c->count);
}

/* The counters a raw event may use on driver @p; 0 if it is refused. */
static unsigned long amd_counters_of(const struct pc_evntsel_pmu *p, u64 raw)
{
	const struct pc_pmu *pmu = &p->x86.pmu;
	struct perf_counter_hw_event hw = pc_hw_model_raw(raw);
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	struct pc_hw_counter hwc = { };
	unsigned long counters = 0;
	int i, n;

	if (pmu->decode(pmu, &hw, NULL, &hwc))
		return 0;
	n = pmu->places(pmu, &hwc, place);
	for (i = 0; i < n; i++)
		counters |= BIT(place[i].idx);
	return counters;
}

static const char *amd_driver_of(const struct cpuinfo_x86 *c)
{
	const struct pc_evntsel_pmu *drivers[] = {
		&pc_k7_pmu, &pc_k8_pmu, &pc_k10_pmu, &pc_f15h_pmu, &pc_zen_pmu,
	};
	const char *name = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(drivers); i++) {
		if (!drivers[i]->x86.match(c))
			continue;
		if (name)
			return "two drivers";
		name = drivers[i]->x86.pmu.name;
	}
	/* Zen 4's match reads CPUID 0x80000022: its rule, with six counters */
	if (pc_amd_zen4_fits(c, 6))
		return name ? "two drivers" : pc_zen4_pmu.x86.pmu.name;
	return name ?: "none";
}

/*
 * Each family gets the driver of its manual and nothing else: K7 (6),
 * K8 (0Fh), K10 (10h only), family 15h with PerfCtrExtCore, families
 * 17h and 19h with it, Zen 4 with PerfMonV2 as well. Families 11h, 12h,
 * 14h, 16h, 1Ah and later, and 15h-19h without the CPUID bits, get none
 * and a boot line that says why. A K10 driver that takes every family
 * from 10h on fails here on 11h and later.
 */
static void amd_families_get_the_driver_their_manuals_give(struct kunit *test)
{
	struct cpuinfo_x86 c = { .x86_vendor = X86_VENDOR_AMD };
	unsigned long *caps = (unsigned long *)c.x86_capability;
	unsigned int family, core, v2;

	for (family = 0; family < 0x20; family++) {
		for (core = 0; core < 2; core++) {
			for (v2 = 0; v2 < 2; v2++) {
				const char *want = "none";
				const char *got, *why;

				c.x86 = family;
				if (core)
					set_bit(X86_FEATURE_PERFCTR_CORE, caps);
				else
					clear_bit(X86_FEATURE_PERFCTR_CORE, caps);
				if (v2)
					set_bit(X86_FEATURE_PERFMON_V2, caps);
				else
					clear_bit(X86_FEATURE_PERFMON_V2, caps);
				if (family == 6)
					want = "AMD K7";
				else if (family == 0xf)
					want = "AMD K8";
				else if (family == 0x10)
					want = "AMD K10";
				else if (family == 0x15 && core && !v2)
					want = "AMD family 15h";
				else if ((family == 0x17 || family == 0x19) &&
					 core)
					want = v2 ? "AMD Zen 4" : "AMD Zen";
				got = amd_driver_of(&c);
				KUNIT_EXPECT_STREQ_MSG(test, got, want,
						       "family %#x core %u v2 %u",
						       family, core, v2);
				why = pc_amd_why_no_driver(&c);
				if (!strcmp(want, "none") && family > 0x10)
					KUNIT_EXPECT_NE_MSG(test, strlen(why), 0,
							    "family %#x core %u", family, core);
			}
		}
	}
	/* PerfMonV2 with fewer than six core counters: not modelled */
	c.x86 = 0x19;
	set_bit(X86_FEATURE_PERFCTR_CORE, caps);
	set_bit(X86_FEATURE_PERFMON_V2, caps);
	KUNIT_EXPECT_TRUE(test, pc_amd_zen4_fits(&c, 6));
	KUNIT_EXPECT_FALSE(test, pc_amd_zen4_fits(&c, 4));
	KUNIT_EXPECT_NE(test, strlen(pc_amd_why_no_driver(&c)), 0);
	c.x86_vendor = X86_VENDOR_INTEL;
	KUNIT_EXPECT_STREQ(test, amd_driver_of(&c), "none");
}

/*
 * Family 15h and later: six core counters, PERF_CTL[i] at 0xC0010200 +
 * 2i and PERF_CTR[i] at 0xC0010201 + 2i (APM vol. 2, 13.2; BKDG 15h).
 * Six counters of an event any counter takes all count at once, and
 * the register check works on the last of them. (The drivers offered
 * the four legacy counters: the fifth was ENOSPC.)
 */
static void amd_six_core_counters_count_at_once(struct kunit *test)
{
	const struct pc_evntsel_pmu *drivers[] = {
		&pc_f15h_pmu, &pc_zen_pmu, &pc_zen4_pmu,
	};
	unsigned int d, i;

	for (d = 0; d < ARRAY_SIZE(drivers); d++) {
		const struct pc_evntsel_pmu *p = drivers[d];
		struct pc_msr_model *m = pc_msr_model_new(test, p);
		struct perf_counter *c[AMD_NR_CORE];

		KUNIT_EXPECT_EQ(test, p->x86.pmu.nr_counters, AMD_NR_CORE);
		KUNIT_EXPECT_TRUE(test, pc_x86_regs_check(&p->x86, &m->safe));
		pc_x86_cpu_start(&m->cpuc);	/* as reserved */
		for (i = 0; i < AMD_NR_CORE; i++) {
			c[i] = amd_counter(test, m,
					   pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS));
			KUNIT_ASSERT_EQ_MSG(test, pc_hw_cpu_add(&m->cpuc, c[i]), 0,
					    "%s counter %u", p->x86.pmu.name, i);
			KUNIT_EXPECT_EQ(test, c[i]->hw.place.idx, i);
			KUNIT_EXPECT_EQ(test, pc_x86_ctr_msr(&p->x86, i),
					MSRM_AMD_PERF_CTR(i));
			KUNIT_EXPECT_EQ(test, p->x86.ctl_msr(i),
					MSRM_AMD_PERF_CTL(i));
		}
		pc_msr_model_work(m, &amd_work, true);
		for (i = 0; i < AMD_NR_CORE; i++) {
			KUNIT_EXPECT_EQ_MSG(test, amd_count(m, c[i]),
					    amd_work.n[PC_KIND_INSTRUCTIONS],
					    "%s counter %u", p->x86.pmu.name, i);
			pc_model_counter_free(m, c[i]);
		}
		KUNIT_EXPECT_EQ(test, m->faults, 0);
	}
}

/*
 * BKDG 15h, 3.24: the FP events (00h-1Fh) count on PERF_CTL[5:3] only,
 * CPU clocks not halted (076h) on PERF_CTL[2:0] only. A dispatched-FPU-
 * ops counter goes on counter 3 and counts; three cycle counters take
 * 0-2, and a fourth is ENOSPC with two counters free. In the model an
 * event on a counter it cannot use counts nothing: without the
 * constraints the FP counter went on counter 0 and counted 0, and the
 * fourth cycle counter on counter 4, counting 0.
 */
static void amd_f15h_fp_and_cycle_events_keep_to_their_counters(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_f15h_pmu);
	struct perf_counter *fp, *cyc[4];
	unsigned int i;

	/* The model: FP ops asked of counter 0, cycles of 4, count nothing. */
	m->sel[0] = MSRM_EVNTSEL_EN | MSRM_EVNTSEL_OS | 0x0100;
	m->sel[4] = MSRM_EVNTSEL_EN | MSRM_EVNTSEL_OS | 0x0076;
	m->sel[3] = MSRM_EVNTSEL_EN | MSRM_EVNTSEL_OS | 0x0100;	/* control */
	pc_msr_model_work(m, &amd_work, false);
	KUNIT_EXPECT_EQ(test, m->ctr[0], 0);
	KUNIT_EXPECT_EQ(test, m->ctr[4], 0);
	KUNIT_EXPECT_EQ(test, m->ctr[3], amd_work.n[PC_KIND_FP_OPS]);
	memset(m->sel, 0, sizeof(m->sel));
	memset(m->ctr, 0, sizeof(m->ctr));

	fp = amd_counter(test, m, pc_hw_model_raw(0x0100));	/* 000h, pipe 0 */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, fp), 0);
	KUNIT_EXPECT_EQ(test, fp->hw.place.idx, 3);
	for (i = 0; i < 4; i++)
		cyc[i] = amd_counter(test, m,
				     pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, cyc[i]), 0);
		KUNIT_EXPECT_LT(test, cyc[i]->hw.place.idx, 3);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, cyc[3]), -ENOSPC);

	pc_msr_model_work(m, &amd_work, false);
	KUNIT_EXPECT_EQ(test, amd_count(m, fp), amd_work.n[PC_KIND_FP_OPS]);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, amd_count(m, cyc[i]),
				amd_work.n[PC_KIND_CYCLES]);

	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, fp);
	for (i = 0; i < 4; i++)
		pc_model_counter_free(m, cyc[i]);
}

/*
 * The counters of each event class and exception of BKDG 15h, 3.24, as
 * raw events: the class rules by event select bits 7:4, the exceptions
 * by code and unit mask, 12-bit codes, and the events no core counter
 * takes (northbridge E0h-FFh, the empty A0h-BFh, 031h with more than
 * one unit mask bit), which are EINVAL.
 */
static void amd_f15h_constraints_follow_the_bkdg_table(struct kunit *test)
{
	static const struct {
		u64		raw;
		unsigned long	counters;
	} cases[] = {
		{ 0x0076, 0x07 },	/* CU: CPU clocks not halted */
		{ 0x00c0, 0x3f },	/* EX/LS: retired instructions */
		{ 0x00c3, 0x3f },
		{ 0x0040, 0x3f },	/* DC */
		{ 0x0041, 0x3f },
		{ 0x0024, 0x3f },	/* LS */
		{ 0x0100, 0x38 },	/* FP: dispatched FPU ops, one pipe */
		{ 0x1100, 0x08 },	/* single and dual pipe together */
		{ 0x0003, 0x08 },
		{ 0x0104, 0x38 },	/* 004h, one unit mask bit */
		{ 0x0304, 0x08 },	/* and two */
		{ 0x000b, 0x08 },
		{ 0x000d, 0x08 },
		{ 0x0011, 0x38 },
		{ 0x0023, 0x07 },
		{ 0x002d, 0x08 },
		{ 0x002e, 0x09 },
		{ 0x0131, 0x07 },
		{ 0x0331, 0 },		/* 031h: one unit mask bit at a time */
		{ 0x0043, 0x07 },
		{ 0x0046, 0x07 },
		{ 0x0054, 0x07 },
		{ 0x0062, 0x07 },	/* CU */
		{ 0x0080, 0x07 },	/* IC/DE */
		{ 0x008f, 0x01 },
		{ 0x100000087ULL, 0x01 },	/* 187h */
		{ 0x100000088ULL, 0x01 },	/* 188h */
		{ 0x1000000c0ULL, 0x38 },	/* 1C0h */
		{ 0x1000000d6ULL, 0x3f },	/* 1D6h */
		{ 0x00d0, 0x07 },	/* DE */
		{ 0x00db, 0x3f },
		{ 0x00df, 0x3f },
		{ 0x00a0, 0 },		/* no such class */
		{ 0x00e0, 0 },		/* northbridge events */
		{ 0x00f7, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, amd_counters_of(&pc_f15h_pmu, cases[i].raw),
				    cases[i].counters, "raw %#llx", cases[i].raw);
	/* Families 10h and 17h have no such rules. */
	KUNIT_EXPECT_EQ(test, amd_counters_of(&pc_k10_pmu, 0x0100), 0xf);
	KUNIT_EXPECT_EQ(test, amd_counters_of(&pc_zen_pmu, 0x0076), 0x3f);
}

/*
 * Families 17h and 19h: PMCx041 is no data cache miss event (PPR 17h,
 * 19h), and cache references and misses are the L2's: L2RequestG1 with
 * every unit mask bit (FF60h) and L2CacheReqStat's misses (0964h). On
 * the model each generic event counts its kind; the K7 map's 041h
 * counted nothing there, and its 040h the L1's accesses.
 */
static void amd_zen_cache_events_count_the_l2s_requests_and_misses(struct kunit *test)
{
	static const u8 kind[] = {
		[PERF_COUNT_CPU_CYCLES]		= PC_KIND_CYCLES,
		[PERF_COUNT_INSTRUCTIONS]	= PC_KIND_INSTRUCTIONS,
		[PERF_COUNT_CACHE_REFERENCES]	= PC_KIND_L2_REQUESTS,
		[PERF_COUNT_CACHE_MISSES]	= PC_KIND_L2_MISSES,
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = PC_KIND_BRANCHES,
		[PERF_COUNT_BRANCH_MISSES]	= PC_KIND_BRANCH_MISSES,
	};
	const struct pc_evntsel_pmu *drivers[] = { &pc_zen_pmu, &pc_zen4_pmu };
	unsigned int d, id;

	for (d = 0; d < ARRAY_SIZE(drivers); d++) {
		const struct pc_pmu *pmu = &drivers[d]->x86.pmu;
		struct pc_msr_model *m = pc_msr_model_new(test, drivers[d]);
		struct perf_counter *c[ARRAY_SIZE(kind)];
		struct perf_counter_hw_event hw;
		struct pc_hw_counter hwc;

		hw = pc_hw_model_generic(PERF_COUNT_BUS_CYCLES);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		pc_x86_cpu_start(&m->cpuc);
		for (id = 0; id < ARRAY_SIZE(kind); id++) {
			c[id] = amd_counter(test, m, pc_hw_model_generic(id));
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c[id]), 0);
		}
		KUNIT_EXPECT_EQ(test, c[PERF_COUNT_CACHE_REFERENCES]->hw.config & 0xffff,
				0xff60);
		KUNIT_EXPECT_EQ(test, c[PERF_COUNT_CACHE_MISSES]->hw.config & 0xffff,
				0x0964);
		pc_msr_model_work(m, &amd_work, true);
		for (id = 0; id < ARRAY_SIZE(kind); id++) {
			KUNIT_EXPECT_EQ_MSG(test, amd_count(m, c[id]),
					    amd_work.n[kind[id]], "%s generic %u",
					    drivers[d]->x86.pmu.name, id);
			pc_model_counter_free(m, c[id]);
		}
		KUNIT_EXPECT_EQ(test, m->faults, 0);
	}
}

/*
 * Zen 4, PerfMonV2 (APM vol. 2, 13.2): a counter counts only while its
 * PerfCntrGlobalCtl bit is set too, and that register may hold zero when
 * the registers are taken. Taking them turns each CPU's counters off
 * and every enable bit on; a CPU that comes online while they are held
 * gets the same. Without it the counter counted nothing.
 */
static void amd_zen4_sets_perfcntrglobalctl_as_the_registers_are_taken(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_zen4_pmu);
	struct perf_counter *c;

	/* The model: a counter enabled in its PERF_CTL alone counts nothing. */
	m->sel[2] = MSRM_EVNTSEL_EN | MSRM_EVNTSEL_USR | 0x76;
	pc_msr_model_work(m, &amd_work, true);
	KUNIT_EXPECT_EQ(test, m->ctr[2], 0);

	pc_x86_cpu_start(&m->cpuc);
	KUNIT_EXPECT_EQ(test, m->global_ctl, AMD_ALL_SIX);
	KUNIT_EXPECT_EQ(test, m->sel[2], 0);	/* left on: turned off */

	c = amd_counter(test, m, pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_msr_model_work(m, &amd_work, true);
	KUNIT_EXPECT_EQ(test, amd_count(m, c), amd_work.n[PC_KIND_CYCLES]);
	pc_hw_cpu_del(&m->cpuc, c);

	/* A CPU that comes online with the register clear */
	m->global_ctl = 0;
	pc_x86_cpu_arrive(&m->cpuc, 1, true);
	KUNIT_EXPECT_EQ(test, m->global_ctl, AMD_ALL_SIX);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_msr_model_work(m, &amd_work, false);
	KUNIT_EXPECT_EQ(test, amd_count(m, c), 2 * amd_work.n[PC_KIND_CYCLES]);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * A CPU coming online may have a counter on already: a per-CPU kernel
 * thread's, scheduled there before the hotplug callback ran. The
 * callback's clear leaves that counter's PERF_CTL alone and it counts
 * on, exactly. (Clearing every PERF_CTL stopped it.)
 */
static void amd_zen4_cpu_arriving_keeps_a_counter_already_on(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_zen4_pmu);
	struct perf_counter *c;

	pc_x86_cpu_start(&m->cpuc);
	c = amd_counter(test, m, pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_x86_cpu_arrive(&m->cpuc, 1, true);
	KUNIT_EXPECT_NE(test, m->sel[c->hw.place.idx], 0);
	pc_msr_model_work(m, &amd_work, true);
	KUNIT_EXPECT_EQ(test, amd_count(m, c), amd_work.n[PC_KIND_CYCLES]);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * Zen 4's overflow status bits are sticky, and 6.1's perf_events, the
 * next user, takes one it did not cause for an overflow of an inactive
 * counter (a WARN) and waits on it at every stop. Taking the registers
 * clears a previous user's; giving them back clears ours, and leaves
 * PerfCntrGlobalCtl at 0 as perf_events' reset does. (Without it the
 * wraps of our counters stayed in the status register.)
 */
static void amd_zen4_leaves_no_overflow_status_behind(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_zen4_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c;

	m->global_status = BIT_ULL(5);		/* a previous user's */
	pc_x86_cpu_start(&m->cpuc);
	KUNIT_EXPECT_EQ(test, m->global_status, 0);

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_VALUE;
	c = amd_counter(test, m, hw);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_msr_model_run(m, 1000, true);
	KUNIT_EXPECT_EQ(test, m->global_status, BIT_ULL(c->hw.place.idx));
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	pc_hw_cpu_del(&m->cpuc, c);

	pc_x86_cpu_stop(&m->cpuc);
	KUNIT_EXPECT_EQ(test, m->global_status, 0);
	KUNIT_EXPECT_EQ(test, m->global_ctl, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * K7, K8, family 10h and 15h: each generic event counts what it names
 * on the model — cycles, retired instructions, data cache accesses and
 * misses, retired branches and mispredictions — and bus cycles are
 * EINVAL.
 */
static void amd_k7_to_f15h_generic_events_count_what_they_name(struct kunit *test)
{
	static const u8 kind[] = {
		[PERF_COUNT_CPU_CYCLES]		= PC_KIND_CYCLES,
		[PERF_COUNT_INSTRUCTIONS]	= PC_KIND_INSTRUCTIONS,
		[PERF_COUNT_CACHE_REFERENCES]	= PC_KIND_L1D_ACCESSES,
		[PERF_COUNT_CACHE_MISSES]	= PC_KIND_L1D_MISSES,
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = PC_KIND_BRANCHES,
		[PERF_COUNT_BRANCH_MISSES]	= PC_KIND_BRANCH_MISSES,
	};
	const struct pc_evntsel_pmu *drivers[] = {
		&pc_k7_pmu, &pc_k8_pmu, &pc_k10_pmu, &pc_f15h_pmu,
	};
	unsigned int d, id;

	for (d = 0; d < ARRAY_SIZE(drivers); d++) {
		const struct pc_evntsel_pmu *p = drivers[d];
		const struct pc_pmu *pmu = &p->x86.pmu;
		struct pc_msr_model *m = pc_msr_model_new(test, p);
		struct perf_counter_hw_event hw;
		struct pc_hw_counter hwc;

		hw = pc_hw_model_generic(PERF_COUNT_BUS_CYCLES);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		/* one at a time: the legacy drivers have four counters */
		for (id = 0; id < ARRAY_SIZE(kind); id++) {
			struct perf_counter *c;

			c = amd_counter(test, m, pc_hw_model_generic(id));
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
			pc_msr_model_work(m, &amd_work, id & 1);
			KUNIT_EXPECT_EQ_MSG(test, amd_count(m, c), amd_work.n[kind[id]],
					    "%s generic %u", p->x86.pmu.name, id);
			pc_model_counter_free(m, c);
		}
		KUNIT_EXPECT_EQ(test, m->faults, 0);
	}
}

/*
 * Every AMD driver's PerfEvtSel / PERF_CTL bits against the APM's, which
 * the model spells itself (msr_model.h) where the drivers take the
 * kernel's (asm/perf_event.h, msr-index.h): each privilege filter sets
 * exactly USR (bit 16), OS (bit 17) or both, with INT (20) and EN (22);
 * a raw event's unit mask (15:8), edge (18), invert (23), counter mask
 * (31:24) and event select land as the APM places them, bits 11:8 of the
 * select in 35:32 from family 10h (a raw event with them is refused
 * before); the bits the driver owns, pin control (19), reserved 21 and
 * those above 35 are refused. Zen 4's PerfCntrGlobalCtl gets exactly the six core
 * counters' enable bits (5:0) as the registers are taken and 0 as they
 * are given back, with no overflow status left in PerfCntrGlobalStatus.
 * A driver bit out of the APM's place (USR and OS swapped, EventSelect
 * 11:8 shifted) fails here.
 */
static void amd_drivers_set_exactly_the_perfevtsel_and_globalctl_bits_the_apm_names(struct kunit *test)
{
	static const struct {
		bool	exclude_user, exclude_kernel;
		u64	mode;
	} modes[] = {
		{ false, false, MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS },
		{ true, false, MSRM_EVNTSEL_OS },
		{ false, true, MSRM_EVNTSEL_USR },
	};
	static const u64 owned[] = {
		MSRM_EVNTSEL_USR, MSRM_EVNTSEL_OS, MSRM_EVNTSEL_INT,
		MSRM_EVNTSEL_EN, MSRM_EVNTSEL_PC, BIT_ULL(21), BIT_ULL(36),
		BIT_ULL(40), BIT_ULL(41), BIT_ULL(62),
	};
	const struct pc_evntsel_pmu *drivers[] = {
		&pc_k7_pmu, &pc_k8_pmu, &pc_k10_pmu,
		&pc_f15h_pmu, &pc_zen_pmu, &pc_zen4_pmu,
	};
	const u64 fields = MSRM_EVNTSEL_EDGE | MSRM_EVNTSEL_INV |
			   FIELD_PREP(MSRM_EVNTSEL_CMASK, 0x3c);
	const u64 set = MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS |
			MSRM_EVNTSEL_INT | MSRM_EVNTSEL_EN;
	unsigned int d, i;

	for (d = 0; d < ARRAY_SIZE(drivers); d++) {
		const struct pc_evntsel_pmu *p = drivers[d];
		const struct pc_pmu *pmu = &p->x86.pmu;
		struct pc_msr_model *m = pc_msr_model_new(test, p);
		const char *name = p->x86.pmu.name;
		/* retired x87 ops (1C0h), FP on family 15h: counters 3-5 */
		u64 raw = msrm_evntsel(m->part->event_hi ? 0x1c0 : 0xc0, 0x5a) |
			  fields;
		struct perf_counter_hw_event hw;
		struct pc_hw_counter hwc;
		struct perf_counter *c;
		unsigned int idx;

		pc_x86_cpu_start(&m->cpuc);	/* as reserved */
		KUNIT_EXPECT_EQ_MSG(test, m->global_ctl,
				    m->part->perfmon_v2 ? AMD_ALL_SIX : 0,
				    "%s PerfCntrGlobalCtl", name);
		for (i = 0; i < ARRAY_SIZE(modes); i++) {
			hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
			hw.exclude_user = modes[i].exclude_user;
			hw.exclude_kernel = modes[i].exclude_kernel;
			c = amd_counter(test, m, hw);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
			idx = c->hw.place.idx;
			KUNIT_EXPECT_EQ_MSG(test, m->sel[idx],
					    msrm_evntsel(0xc0, 0) | modes[i].mode |
					    MSRM_EVNTSEL_INT | MSRM_EVNTSEL_EN,
					    "%s filter %u", name, i);
			pc_model_counter_free(m, c);
			KUNIT_EXPECT_EQ(test, m->sel[idx], 0);
		}

		c = amd_counter(test, m, pc_hw_model_raw(raw));
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
		KUNIT_EXPECT_EQ_MSG(test, m->sel[c->hw.place.idx], raw | set,
				    "%s raw", name);
		pc_model_counter_free(m, c);

		hw = pc_hw_model_raw(fields | msrm_evntsel(0x1c0, 0));
		KUNIT_EXPECT_EQ_MSG(test, pmu->decode(pmu, &hw, NULL, &hwc),
				    m->part->event_hi ? 0 : -EINVAL,
				    "%s EventSelect[11:8]", name);
		for (i = 0; i < ARRAY_SIZE(owned); i++) {
			hw = pc_hw_model_raw(raw | owned[i]);
			KUNIT_EXPECT_EQ_MSG(test, pmu->decode(pmu, &hw, NULL, &hwc),
					    -EINVAL, "%s raw %#llx", name,
					    raw | owned[i]);
		}

		m->global_status = MSRM_AMD_GLOBAL_CTR(4);	/* a wrap */
		pc_x86_cpu_stop(&m->cpuc);
		KUNIT_EXPECT_EQ_MSG(test, m->global_ctl, 0, "%s", name);
		if (m->part->perfmon_v2)
			KUNIT_EXPECT_EQ(test, m->global_status, 0);
		KUNIT_EXPECT_EQ_MSG(test, m->faults, 0, "%s", name);
	}
}

static struct kunit_case pc_amd_cases[] = {
	KUNIT_CASE(amd_families_get_the_driver_their_manuals_give),
	KUNIT_CASE(amd_six_core_counters_count_at_once),
	KUNIT_CASE(amd_f15h_fp_and_cycle_events_keep_to_their_counters),
	KUNIT_CASE(amd_f15h_constraints_follow_the_bkdg_table),
	KUNIT_CASE(amd_zen_cache_events_count_the_l2s_requests_and_misses),
	KUNIT_CASE(amd_zen4_sets_perfcntrglobalctl_as_the_registers_are_taken),
	KUNIT_CASE(amd_zen4_leaves_no_overflow_status_behind),
	KUNIT_CASE(amd_zen4_cpu_arriving_keeps_a_counter_already_on),
	KUNIT_CASE(amd_k7_to_f15h_generic_events_count_what_they_name),
	KUNIT_CASE(amd_drivers_set_exactly_the_perfevtsel_and_globalctl_bits_the_apm_names),
	{}
};

static struct kunit_suite pc_amd_suite = {
	.name = "perf_counter_x86_amd_model",
	.test_cases = pc_amd_cases,
};
kunit_test_suite(pc_amd_suite);
