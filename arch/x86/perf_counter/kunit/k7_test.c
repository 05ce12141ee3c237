// SPDX-License-Identifier: GPL-2.0
/*
 * The K7-family driver against a model of its MSRs: 48-bit sums, four
 * counters with an enable bit each, long periods, and the event maps of
 * K7, K8 and K10.
 */
#include "internal.h"
#include "msr_model.h"

static void k7_wraps_of_the_48_bit_counter_sum_exactly(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_k7_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = pc_model_counter(test, m, &hw);
	unsigned int wraps;
	u64 total;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	/* batches under 2^47 */
	total = pc_msr_model_wrap_run(m, c, 0x765432109877ULL, 20ULL << 48,
				      &wraps);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), total);
	KUNIT_EXPECT_GE(test, wraps, total >> 48);
	KUNIT_EXPECT_GT(test, wraps, 19);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

static void k7_four_counters_each_with_its_own_enable(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_k7_pmu);
	struct perf_counter *c[5];
	unsigned int i;

	for (i = 0; i < 5; i++) {
		struct perf_counter_hw_event hw = pc_hw_model_generic(i);

		c[i] = pc_model_counter(test, m, &hw);
		KUNIT_ASSERT_NOT_NULL(test, c[i]);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c[i]), 0);
		KUNIT_EXPECT_EQ(test, c[i]->hw.place.idx, i);
		KUNIT_EXPECT_TRUE(test, m->sel[i] & MSRM_EVNTSEL_EN);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c[4]), -ENOSPC);
	pc_msr_model_run(m, 10, false);

	pc_hw_cpu_del(&m->cpuc, c[2]);
	KUNIT_EXPECT_EQ(test, m->sel[2], 0);
	pc_msr_model_run(m, 5, false);
	for (i = 0; i < 4; i++) {
		if (c[i]->hw.on)
			pc_hw_fold(&m->cpuc, c[i]);
		KUNIT_EXPECT_EQ(test, atomic64_read(&c[i]->count),
				i == 2 ? 10 : 15);
	}
	/* The freed register takes the fifth counter. */
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c[4]), 0);
	KUNIT_EXPECT_EQ(test, c[4]->hw.place.idx, 2);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	for (i = 0; i < 5; i++)
		pc_model_counter_free(m, c[i]);
}

static void k7_period_of_2_47_plus_3_samples_at_its_last_event(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_k7_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	const u64 period = (1ULL << 47) + 3;
	struct perf_counter *c;
	u64 value = 0;

	hw.irq_period = period;
	hw.record_type = PERF_RECORD_VALUE;
	c = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_msr_model_run(m, (1ULL << 47) - 1, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	pc_msr_model_run(m, 3, true);
	pc_msr_model_service(m);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 0);
	pc_msr_model_run(m, 1, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	KUNIT_EXPECT_EQ(test, value, period);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

static void k7_k8_k10_event_maps_and_raw_bits(struct kunit *test)
{
	static const u64 want[PERF_HW_EVENTS_MAX] = {
		0x76, 0xc0, 0x40, 0x41, 0xc2, 0xc3, 0,
	};
	const struct pc_evntsel_pmu *model[] = {
		&pc_k7_pmu, &pc_k8_pmu, &pc_k10_pmu,
	};
	struct perf_counter_hw_event hw;
	struct pc_hw_counter hwc;
	unsigned int i, id;

	for (i = 0; i < ARRAY_SIZE(model); i++) {
		const struct pc_pmu *pmu = &model[i]->x86.pmu;

		for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
			hw = pc_hw_model_generic(id);
			if (!want[id]) {
				/* no bus cycle event on AMD parts */
				KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc),
						-EINVAL);
				continue;
			}
			KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
			KUNIT_EXPECT_EQ(test, hwc.config & 0xffff, want[id]);
		}
		hw = pc_hw_model_raw(MSRM_EVNTSEL_INT | 0x76);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = pc_hw_model_raw(MSRM_EVNTSEL_EN | 0x76);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		/* Event select bits 35..32 exist from family 10h on. */
		hw = pc_hw_model_raw(0x100000076ULL);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc),
				model[i] == &pc_k10_pmu ? 0 : -EINVAL);
		hw = pc_hw_model_raw(BIT_ULL(40) | 0x76);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
	}
}

static struct kunit_case pc_k7_cases[] = {
	KUNIT_CASE(k7_wraps_of_the_48_bit_counter_sum_exactly),
	KUNIT_CASE(k7_four_counters_each_with_its_own_enable),
	KUNIT_CASE(k7_period_of_2_47_plus_3_samples_at_its_last_event),
	KUNIT_CASE(k7_k8_k10_event_maps_and_raw_bits),
	{}
};

static struct kunit_suite pc_k7_suite = {
	.name = "perf_counter_x86_k7_model",
	.test_cases = pc_k7_cases,
};
kunit_test_suite(pc_k7_suite);
