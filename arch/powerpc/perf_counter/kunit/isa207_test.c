// SPDX-License-Identifier: GPL-2.0
/*
 * The POWER8 driver against a model of the ISA 2.07 performance monitor:
 * the event map and raw validation, MMCR1's unit, combine and selector
 * fields, MMCR2's per-PMC freezes (which QEMU ignores), the block
 * freezes, and the two ways a count is folded: the poll timer's work,
 * which keeps counting PMCs far from bit 0 over 2^40 events, and the
 * alert (which QEMU never delivers), with its rearm.
 */
#include "isa207_model.h"

#define PMC(n)		BIT((n) - 1)

static bool saved_alerts, saved_kernel_hv;

/* Each case starts as a pseries guest on QEMU is: no alerts, not HV. */
static int p8_init(struct kunit *test)
{
	saved_alerts = pc_isa207_alerts;
	saved_kernel_hv = pc_isa207_kernel_hv;
	pc_isa207_alerts = false;
	pc_isa207_kernel_hv = false;
	return 0;
}

static void p8_exit(struct kunit *test)
{
	pc_isa207_alerts = saved_alerts;
	pc_isa207_kernel_hv = saved_kernel_hv;
}

static struct perf_counter *counter(struct kunit *test,
				    struct perf_counter_hw_event hw)
{
	return pc_hw_model_counter(test, &pc_power8_pmu.pmu, &hw, NULL);
}

/* The PMCs @hw may sit on, as a mask, or 0 if the driver refuses it. */
static u32 pmcs_of(struct kunit *test, struct perf_counter_hw_event hw)
{
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	struct perf_counter *c = counter(test, hw);
	u32 mask = 0;
	int i, n;

	if (!c)
		return 0;
	n = pc_power8_pmu.pmu.places(&pc_power8_pmu.pmu, &c->hw, place);
	for (i = 0; i < n; i++)
		mask |= BIT(place[i].idx);
	pc_counter_put(c);
	return mask;
}

static void p8_generic_events_sit_on_the_pmcs_the_event_list_names(struct kunit *test)
{
	static const u32 want[PERF_HW_EVENTS_MAX] = {
		[PERF_COUNT_CPU_CYCLES]		 = 0xf,
		[PERF_COUNT_INSTRUCTIONS]	 = 0xf,
		[PERF_COUNT_CACHE_REFERENCES]	 = PMC(1),
		[PERF_COUNT_CACHE_MISSES]	 = PMC(3),
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = PMC(1),
		[PERF_COUNT_BRANCH_MISSES]	 = PMC(4),
		[PERF_COUNT_BUS_CYCLES]		 = 0,
	};
	unsigned int id;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++)
		KUNIT_EXPECT_EQ_MSG(test, pmcs_of(test, pc_hw_model_generic(id)),
				    want[id], "generic id %u", id);
	KUNIT_EXPECT_EQ(test, pmcs_of(test, pc_hw_model_generic(PERF_HW_EVENTS_MAX)), 0);
}

static void p8_raw_codes_outside_the_event_format_are_einval(struct kunit *test)
{
	static const struct {
		u64	code;
		u32	pmcs;
	} cases[] = {
		{ 0x02, 0xf },		/* PM_INST_CMPL, any of PMC1-4 */
		{ 0x3e054, PMC(3) },	/* PM_LD_MISS_L1: unit 0xe, PMC3 */
		{ 0x4085e, PMC(4) },	/* combine, PMC4 */
		{ 0x500fa, PMC(5) },	/* PM_RUN_INST_CMPL */
		{ 0x600f4, PMC(6) },	/* PM_RUN_CYC */
		{ 0x00, 0 },		/* selector 0 is no event */
		{ 0x10000, 0 },		/* nor on PMC1 */
		{ 0x1e | 0x100, 0 },	/* marked: MMCRA sampling not offered */
		{ 0x1e | 0x200, 0 },	/* reserved bit 9 */
		{ 0x1e | BIT_ULL(20), 0 },
		{ 0x1e | BIT_ULL(40), 0 },
		{ 0x7001e, 0 },		/* there is no PMC7 */
		{ 0xf001e, 0 },
		{ 0xe054, 0 },		/* a unit needs its PMC */
		{ 0x81e, 0 },		/* so does combine */
		{ 0x500f4, 0 },		/* PMC5 counts run instructions only */
		{ 0x5001e, 0 },
		{ 0x600fa, 0 },		/* PMC6 run cycles only */
		{ 0x6e0f4, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pmcs_of(test, pc_hw_model_raw(cases[i].code)),
				    cases[i].pmcs, "raw %#llx", cases[i].code);
}

static void p8_counting_in_neither_mode_or_with_extra_words_is_einval(struct kunit *test)
{
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	u64 extra[1] = { 0 };

	hw.exclude_user = 1;
	hw.exclude_kernel = 1;
	KUNIT_EXPECT_NULL(test, counter(test, hw));
	hw.exclude_kernel = 0;
	hw.exclude_hv = 1;
	KUNIT_EXPECT_EQ(test, pmcs_of(test, hw), 0xf);
	hw = pc_hw_model_raw(0x1e);
	hw.exclusive = 1;
	hw.extra_config_len = sizeof(extra);
	KUNIT_EXPECT_NULL(test, pc_hw_model_counter(test, &pc_power8_pmu.pmu,
						    &hw, extra));
}

static void p8_mmcr1_gets_unit_combine_and_selector_of_each_pmc(struct kunit *test)
{
	unsigned int n, other;

	for (n = 1; n <= 4; n++) {
		struct pc_isa207_model *m = pc_isa207_model_new(test);
		u64 code = (u64)n << 16 | 0xa << 12 | 0x800 | 0x5c;
		struct perf_counter *c = counter(test, pc_hw_model_raw(code));

		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
		KUNIT_EXPECT_EQ(test, c->hw.place.idx, n - 1);
		KUNIT_EXPECT_EQ(test, i207m_get(m->mmcr1, I207M_MMCR1_UNIT(n)), 0xa);
		KUNIT_EXPECT_EQ(test, i207m_get(m->mmcr1, I207M_MMCR1_COMB(n)), 1);
		KUNIT_EXPECT_EQ(test, i207m_get(m->mmcr1, I207M_MMCR1_SEL(n)), 0x5c);
		for (other = 1; other <= 4; other++) {
			if (other == n)
				continue;
			KUNIT_EXPECT_EQ(test, i207m_get(m->mmcr1, I207M_MMCR1_SEL(other)), 0);
			KUNIT_EXPECT_EQ(test, i207m_get(m->mmcr1, I207M_MMCR1_UNIT(other)), 0);
		}
		/* its PMC counts in every state, the others in none */
		for (other = 1; other <= I207M_NR_PMCS; other++) {
			u64 fr = I207M_MMCR2_FCS(other) | I207M_MMCR2_FCP(other) |
				 I207M_MMCR2_FCH(other);

			KUNIT_EXPECT_EQ_MSG(test, m->mmcr2 & fr,
					    other == n ? 0 : fr, "PMC%u", other);
		}
		KUNIT_EXPECT_EQ(test, m->mmcr0 & (I207M_MMCR0_FC | I207M_MMCR0_FC14), 0);
		KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_FC56);
		KUNIT_EXPECT_EQ(test, m->mmcr0 & I207M_MMCR0_PMAE, 0);
		/* user mode may not read the PMCs: PMCC 0b01 */
		KUNIT_EXPECT_EQ(test, m->mmcr0 & I207M_MMCR0_PMCC,
				i207m_put(I207M_MMCR0_PMCC, I207M_PMCC_NONE));
		KUNIT_EXPECT_EQ(test, m->pmc[n - 1], 1);
		pc_hw_model_free(&m->cpuc, c);
		KUNIT_EXPECT_EQ(test, m->mmcr1, 0);
		KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_FC);
		KUNIT_EXPECT_EQ(test, m->faults, 0);
	}
}

/* Three counters with three filters, on at once, each frozen alone. */
static void p8_each_pmc_is_frozen_in_the_states_its_counter_excludes(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *user, *kernel, *all;

	hw.exclude_kernel = 1;
	hw.exclude_hv = 1;
	user = counter(test, hw);
	hw.exclude_kernel = 0;
	hw.exclude_hv = 0;
	hw.exclude_user = 1;
	kernel = counter(test, hw);
	all = counter(test, pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS));
	KUNIT_ASSERT_NOT_NULL(test, user);
	KUNIT_ASSERT_NOT_NULL(test, kernel);
	KUNIT_ASSERT_NOT_NULL(test, all);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, user), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, kernel), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, all), 0);
	pc_isa207_model_run(m, PC_I207_INSTR, 1000, PC_I207_USER);
	pc_isa207_model_run(m, PC_I207_INSTR, 300, PC_I207_KERNEL);
	pc_isa207_model_run(m, PC_I207_INSTR, 20, PC_I207_HV);
	pc_isa207_model_run(m, PC_I207_CYCLES, 5000, PC_I207_USER);
	pc_hw_fold(&m->cpuc, user);
	pc_hw_fold(&m->cpuc, kernel);
	pc_hw_fold(&m->cpuc, all);
	KUNIT_EXPECT_EQ(test, atomic64_read(&user->count), 1000);
	KUNIT_EXPECT_EQ(test, atomic64_read(&kernel->count), 320);
	KUNIT_EXPECT_EQ(test, atomic64_read(&all->count), 1320);
	/* PMC4 is no one's, PMC5-6 a frozen block */
	KUNIT_EXPECT_EQ(test, m->pmc[3], 0);
	KUNIT_EXPECT_EQ(test, m->pmc[4], 0);
	KUNIT_EXPECT_EQ(test, m->pmc[5], 0);
	pc_hw_model_free(&m->cpuc, user);
	pc_hw_model_free(&m->cpuc, kernel);
	pc_hw_model_free(&m->cpuc, all);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

static void p8_pmc5_and_pmc6_count_alone_with_pmc1_4_frozen_as_a_block(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter *inst = counter(test, pc_hw_model_raw(0x500fa));
	struct perf_counter *cyc = counter(test, pc_hw_model_raw(0x600f4));

	KUNIT_ASSERT_NOT_NULL(test, inst);
	KUNIT_ASSERT_NOT_NULL(test, cyc);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, inst), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, cyc), 0);
	KUNIT_EXPECT_EQ(test, inst->hw.place.idx, 4);
	KUNIT_EXPECT_EQ(test, cyc->hw.place.idx, 5);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_FC14);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (I207M_MMCR0_FC | I207M_MMCR0_FC56), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr1, 0);
	pc_isa207_model_run(m, PC_I207_INSTR, 777, PC_I207_KERNEL);
	pc_isa207_model_run(m, PC_I207_CYCLES, 999, PC_I207_USER);
	pc_hw_fold(&m->cpuc, inst);
	pc_hw_fold(&m->cpuc, cyc);
	KUNIT_EXPECT_EQ(test, atomic64_read(&inst->count), 777);
	KUNIT_EXPECT_EQ(test, atomic64_read(&cyc->count), 999);
	pc_hw_model_free(&m->cpuc, inst);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (I207M_MMCR0_FC | I207M_MMCR0_FC56), 0);
	pc_hw_model_free(&m->cpuc, cyc);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_FC);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/*
 * The policy: a poll each 10 ms reloads a counting PMC at 1, and no
 * PMC counts 2^30 events in 10 ms, so it never reaches bit 0: 1024
 * polls of 2^30 events each sum to exactly 2^40, and with alerts on
 * (conditions enabled) not one alert is raised.
 */
static void p8_poll_sums_2_pow_40_events_with_the_pmc_never_at_bit_0(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter *c;
	unsigned int i;

	pc_isa207_alerts = true;
	c = counter(test, pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	for (i = 0; i < 1024; i++) {
		pc_isa207_model_run(m, PC_I207_CYCLES, 1U << 30, PC_I207_KERNEL);
		KUNIT_ASSERT_FALSE(test, m->pmc[c->hw.place.idx] & I207M_PMC_MSB);
		pc_isa207_poll(&m->cpuc, NULL);
		KUNIT_ASSERT_EQ(test, m->pmc[c->hw.place.idx], 1);
		KUNIT_ASSERT_EQ(test, m->mmcr0 & I207M_MMCR0_FC, 0);
		KUNIT_ASSERT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMAE);
	}
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 1ULL << 40);
	KUNIT_EXPECT_EQ(test, m->alerts, 0);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/* A poll that comes late, the PMC past bit 0 and short of 2^32. */
static void p8_late_poll_folds_a_pmc_past_bit_0_exactly(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter *c = counter(test, pc_hw_model_raw(0x500fa));

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_isa207_model_run(m, PC_I207_INSTR, 0xf0000000, PC_I207_USER);
	pc_isa207_poll(&m->cpuc, NULL);
	KUNIT_EXPECT_EQ(test, m->pmc[4], 1);
	pc_isa207_model_run(m, PC_I207_INSTR, 5, PC_I207_USER);
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 0xf0000005ULL);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/* QEMU's case: no alert, so the poll takes the sample. */
static void p8_without_alerts_no_condition_is_enabled_and_the_poll_samples(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *c;
	u64 value = 0;
	int i;

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_VALUE;
	c = counter(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (I207M_MMCR0_PMAE | I207M_MMCR0_PMC1CE |
					  I207M_MMCR0_PMCJCE), 0);
	for (i = 0; i < 3; i++) {
		pc_isa207_model_run(m, PC_I207_INSTR, 999, PC_I207_USER);
		pc_isa207_poll(&m->cpuc, NULL);
		pc_isa207_model_run(m, PC_I207_INSTR, 1, PC_I207_USER);
		KUNIT_EXPECT_FALSE(test, m->pending);
		pc_isa207_poll(&m->cpuc, NULL);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 3);
	KUNIT_EXPECT_EQ(test, value, 3000);
	KUNIT_EXPECT_EQ(test, m->alerts, 0);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

static void p8_alert_samples_and_rearms_pmae_clearing_pmao(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_raw(0x2001e);
	struct perf_counter *c;
	u64 value = 0;
	int i;

	pc_isa207_alerts = true;
	hw.irq_period = 5000;
	hw.record_type = PERF_RECORD_VALUE;
	c = counter(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMAE);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMCJCE);
	KUNIT_EXPECT_FALSE(test, m->mmcr0 & I207M_MMCR0_PMC1CE);
	for (i = 0; i < 4; i++) {
		pc_isa207_model_run(m, PC_I207_CYCLES, 4999, PC_I207_USER);
		KUNIT_EXPECT_FALSE(test, m->pending);
		pc_isa207_model_run(m, PC_I207_CYCLES, 1, PC_I207_USER);
		KUNIT_ASSERT_TRUE(test, m->pending);
		KUNIT_EXPECT_EQ(test, pc_isa207_model_deliver(m), 1);
		KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMAE);
		KUNIT_EXPECT_EQ(test, m->mmcr0 & (I207M_MMCR0_PMAO | I207M_MMCR0_FC), 0);
		KUNIT_EXPECT_EQ(test, m->pmc[1], I207M_PMC_MSB - 5000);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 4);
	KUNIT_EXPECT_EQ(test, value, 20000);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/*
 * A PMC left negative by a counter gone holds the alert's level: enable
 * zeroes it before PMAE and PMCjCE are set, and if one alerts anyway
 * the handler zeroes it, and the alert does not come again.
 */
static void p8_a_negative_pmc_no_counter_owns_is_zeroed_not_stormed(struct kunit *test)
{
	struct pc_isa207_model *m = pc_isa207_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_raw(0x2001e);
	struct perf_counter *c;

	pc_isa207_alerts = true;
	hw.irq_period = 1000;
	c = counter(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	m->pmc[3] = I207M_PMC_MSB + 7;
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->pmc[3], 0);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMCJCE);
	KUNIT_EXPECT_FALSE(test, m->pending);
	/* it turns negative behind the driver's back: one alert */
	m->pmc[3] = I207M_PMC_MSB + 7;
	pc_isa207_model_run(m, PC_I207_CYCLES, 10, PC_I207_KERNEL);
	KUNIT_ASSERT_TRUE(test, m->pending);
	KUNIT_EXPECT_EQ(test, pc_isa207_model_deliver(m), 0);
	KUNIT_EXPECT_EQ(test, m->pmc[3], 0);
	KUNIT_EXPECT_FALSE(test, m->pending);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & I207M_MMCR0_PMAE);
	pc_isa207_model_run(m, PC_I207_CYCLES, 10, PC_I207_KERNEL);
	KUNIT_EXPECT_FALSE(test, m->pending);
	KUNIT_EXPECT_EQ(test, m->alerts, 1);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/*
 * Where the kernel runs in hypervisor state (bare metal), excluding the
 * kernel must freeze that state; exclude_hv then adds nothing, so user
 * mode with exclude_hv still counts. In a guest, exclude_hv freezes the
 * hypervisor's state and exclude_kernel the guest kernel's.
 */
static void p8_kernel_in_hypervisor_state_is_excluded_as_the_kernel(struct kunit *test)
{
	bool hv;

	for (hv = false; ; hv = true) {
		struct pc_isa207_model *m = pc_isa207_model_new(test);
		struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
		enum pc_i207_state kernel = hv ? PC_I207_HV : PC_I207_KERNEL;
		struct perf_counter *no_kernel, *no_hv;

		pc_isa207_kernel_hv = hv;
		hw.exclude_kernel = 1;
		no_kernel = counter(test, hw);
		hw.exclude_kernel = 0;
		hw.exclude_hv = 1;
		no_hv = counter(test, hw);
		KUNIT_ASSERT_NOT_NULL(test, no_kernel);
		KUNIT_ASSERT_NOT_NULL(test, no_hv);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, no_kernel), 0);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, no_hv), 0);
		pc_isa207_model_run(m, PC_I207_INSTR, 100, PC_I207_USER);
		pc_isa207_model_run(m, PC_I207_INSTR, 40, kernel);
		if (!hv)
			pc_isa207_model_run(m, PC_I207_INSTR, 7, PC_I207_HV);
		pc_hw_fold(&m->cpuc, no_kernel);
		pc_hw_fold(&m->cpuc, no_hv);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&no_kernel->count),
				    hv ? 100 : 107, "kernel_hv %d", hv);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&no_hv->count), 140,
				    "kernel_hv %d", hv);
		pc_hw_model_free(&m->cpuc, no_kernel);
		pc_hw_model_free(&m->cpuc, no_hv);
		KUNIT_EXPECT_EQ(test, m->faults, 0);
		if (hv)
			break;
	}
}

/* A raw code that counts on PMC n alone (1-6). */
static u64 p8_code_on(unsigned int n)
{
	if (n == 5)
		return 0x500fa;		/* PM_RUN_INST_CMPL */
	if (n == 6)
		return 0x600f4;		/* PM_RUN_CYC */
	return (u64)n << 16 | 0x1e;	/* PM_CYC on PMC n */
}

/* Every PMC's FCnS, FCnP and FCnH: frozen in every state. */
static u64 p8_all_frozen(void)
{
	u64 mmcr2 = 0;
	unsigned int n;

	for (n = 1; n <= I207M_NR_PMCS; n++)
		mmcr2 |= I207M_MMCR2_FCS(n) | I207M_MMCR2_FCP(n) |
			 I207M_MMCR2_FCH(n);
	return mmcr2;
}

/*
 * The driver's MMCR2 against the ISA's, which the model spells itself
 * (isa207_model.h) where the driver has isa207_regs.h. For each PMC n,
 * each filter a counter may have, and the kernel in privileged or in
 * hypervisor state: MMCR2 holds exactly, in PMC n's nine bits from bit
 * 9(n-1), FCnP (+1) for exclude_user, FCnS (+0) for exclude_kernel, and
 * FCnH (+6) for exclude_hv, or for exclude_kernel where the kernel runs
 * in hypervisor state; every other PMC, no counter's, frozen in all
 * three states; none of the other freezes (FCnM1, FCnM0, FCnWAIT). Off
 * again, PMC n is frozen in all three as well. QEMU ignores MMCR2, so
 * only this holds the driver to it: an FCnP field shifted in the driver
 * fails here, where before the model, reading the driver's own bits,
 * agreed with it.
 */
static void p8_driver_sets_exactly_the_mmcr2_freeze_bits_the_isa_names(struct kunit *test)
{
	static const struct {
		bool	user, kernel, hv;
	} filters[] = {
		{ false, false, false }, { true, false, false },
		{ false, true, false }, { false, false, true },
		{ true, false, true }, { false, true, true },
	};
	const u64 all = p8_all_frozen();
	unsigned int n, f, hv;

	for (hv = 0; hv < 2; hv++) {
		pc_isa207_kernel_hv = hv;
		for (n = 1; n <= I207M_NR_PMCS; n++) {
			u64 mine = I207M_MMCR2_FCS(n) | I207M_MMCR2_FCP(n) |
				   I207M_MMCR2_FCH(n);

			for (f = 0; f < ARRAY_SIZE(filters); f++) {
				struct pc_isa207_model *m = pc_isa207_model_new(test);
				struct perf_counter_hw_event hw =
					pc_hw_model_raw(p8_code_on(n));
				struct perf_counter *c;
				u64 want = all & ~mine;

				hw.exclude_user = filters[f].user;
				hw.exclude_kernel = filters[f].kernel;
				hw.exclude_hv = filters[f].hv;
				if (filters[f].user)
					want |= I207M_MMCR2_FCP(n);
				if (filters[f].kernel)
					want |= I207M_MMCR2_FCS(n) |
						(hv ? I207M_MMCR2_FCH(n) : 0);
				if (filters[f].hv && !hv)
					want |= I207M_MMCR2_FCH(n);
				KUNIT_EXPECT_EQ_MSG(test, m->mmcr2, all,
						    "idle: MMCR2 %#llx, the ISA's %#llx",
						    m->mmcr2, all);
				c = counter(test, hw);
				KUNIT_ASSERT_NOT_NULL(test, c);
				KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
				KUNIT_ASSERT_EQ(test, c->hw.place.idx, n - 1);
				KUNIT_EXPECT_EQ_MSG(test, m->mmcr2, want,
						    "PMC%u, filter %u, kernel_hv %u: MMCR2 %#llx, the ISA's %#llx",
						    n, f, hv, m->mmcr2, want);
				pc_hw_model_free(&m->cpuc, c);
				KUNIT_EXPECT_EQ_MSG(test, m->mmcr2, all,
						    "off: MMCR2 %#llx, the ISA's %#llx",
						    m->mmcr2, all);
				KUNIT_EXPECT_EQ(test, m->faults, 0);
			}
		}
	}
}

/*
 * The driver's MMCR0 and MMCR1 against the ISA's and the POWER8
 * manual's, which the model spells itself. A counter on PMC n of 1-4
 * with unit 0xa, combine and selector 0x5c leaves MMCR1 exactly those in
 * PMC n's unit (bits 4(n-1) to +3), combine (28 + n-1) and selector
 * (32 + 8(n-1) to +7) fields; on PMC5 or 6 MMCR1 stays 0. MMCR0 is
 * exactly PMCC 0b01 (bits 44-45) and FC56 (59) or FC14 (58) for the
 * block with no counter; with alerts on, PMAE (37) and PMC1CE (48) for
 * PMC1 or PMCjCE (49) for the others as well; FC (32), FCS, FCP, FCECE
 * and PMAO clear. Off again, MMCR0 is exactly FC, FC14, FC56 and PMCC
 * 0b01, MMCR1 0. A driver bit out of the manuals' place (PMCC's 0b01
 * written as 0b10, a selector one PMC over) fails here.
 */
static void p8_driver_sets_exactly_the_mmcr0_and_mmcr1_bits_the_manuals_name(struct kunit *test)
{
	const u64 pmcc = i207m_put(I207M_MMCR0_PMCC, I207M_PMCC_NONE);
	unsigned int n, alerts;

	for (alerts = 0; alerts < 2; alerts++) {
		pc_isa207_alerts = alerts;
		for (n = 1; n <= I207M_NR_PMCS; n++) {
			struct pc_isa207_model *m = pc_isa207_model_new(test);
			u64 code = n <= 4 ? (u64)n << 16 | 0xa << 12 | 0x800 | 0x5c :
					    p8_code_on(n);
			struct perf_counter *c = counter(test, pc_hw_model_raw(code));
			u64 mmcr0 = pmcc | (n <= 4 ? I207M_MMCR0_FC56 :
						     I207M_MMCR0_FC14);
			u64 mmcr1 = 0;

			if (alerts)
				mmcr0 |= I207M_MMCR0_PMAE |
					 (n == 1 ? I207M_MMCR0_PMC1CE :
						   I207M_MMCR0_PMCJCE);
			if (n <= 4)
				mmcr1 = i207m_put(I207M_MMCR1_UNIT(n), 0xa) |
					I207M_MMCR1_COMB(n) |
					i207m_put(I207M_MMCR1_SEL(n), 0x5c);
			KUNIT_ASSERT_NOT_NULL(test, c);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
			KUNIT_ASSERT_EQ(test, c->hw.place.idx, n - 1);
			KUNIT_EXPECT_EQ_MSG(test, m->mmcr0, mmcr0,
					    "PMC%u, alerts %u: MMCR0 %#llx, the manuals' %#llx",
					    n, alerts, m->mmcr0, mmcr0);
			KUNIT_EXPECT_EQ_MSG(test, m->mmcr1, mmcr1,
					    "PMC%u: MMCR1 %#llx, the manuals' %#llx",
					    n, m->mmcr1, mmcr1);
			KUNIT_EXPECT_EQ(test, m->mmcra, 0);
			pc_hw_model_free(&m->cpuc, c);
			KUNIT_EXPECT_EQ(test, m->mmcr0, I207M_MMCR0_FC |
					I207M_MMCR0_FC14 | I207M_MMCR0_FC56 | pmcc);
			KUNIT_EXPECT_EQ(test, m->mmcr1, 0);
			KUNIT_EXPECT_EQ(test, m->faults, 0);
		}
	}
}

static struct kunit_case pc_p8_cases[] = {
	KUNIT_CASE(p8_generic_events_sit_on_the_pmcs_the_event_list_names),
	KUNIT_CASE(p8_raw_codes_outside_the_event_format_are_einval),
	KUNIT_CASE(p8_counting_in_neither_mode_or_with_extra_words_is_einval),
	KUNIT_CASE(p8_mmcr1_gets_unit_combine_and_selector_of_each_pmc),
	KUNIT_CASE(p8_each_pmc_is_frozen_in_the_states_its_counter_excludes),
	KUNIT_CASE(p8_pmc5_and_pmc6_count_alone_with_pmc1_4_frozen_as_a_block),
	KUNIT_CASE(p8_poll_sums_2_pow_40_events_with_the_pmc_never_at_bit_0),
	KUNIT_CASE(p8_late_poll_folds_a_pmc_past_bit_0_exactly),
	KUNIT_CASE(p8_without_alerts_no_condition_is_enabled_and_the_poll_samples),
	KUNIT_CASE(p8_alert_samples_and_rearms_pmae_clearing_pmao),
	KUNIT_CASE(p8_a_negative_pmc_no_counter_owns_is_zeroed_not_stormed),
	KUNIT_CASE(p8_kernel_in_hypervisor_state_is_excluded_as_the_kernel),
	KUNIT_CASE(p8_driver_sets_exactly_the_mmcr2_freeze_bits_the_isa_names),
	KUNIT_CASE(p8_driver_sets_exactly_the_mmcr0_and_mmcr1_bits_the_manuals_name),
	{}
};

static struct kunit_suite pc_p8_suite = {
	.name = "perf_counter_power8_model",
	.init = p8_init,
	.exit = p8_exit,
	.test_cases = pc_p8_cases,
};
kunit_test_suite(pc_p8_suite);
