// SPDX-License-Identifier: GPL-2.0
/*
 * The real PMU's registers and the kernel's perfctr reservation, which
 * perf_events and the NMI watchdog use too: whoever holds them first
 * owns them. Skipped where this CPU has no usable PMU driver.
 */
#include <kunit/test.h>
#include <asm/nmi.h>

#include "internal.h"
#include "../x86_pmu.h"

static const struct pc_x86_driver *pc_usable_pmu(struct kunit *test)
{
	if (!pc_x86_chosen() || pc_hw_pmu_state() == PC_PMU_BROKEN)
		kunit_skip(test, "no usable PMU driver on this CPU");
	return pc_x86_chosen();
}

static struct perf_counter *pc_new_cycles(void)
{
	struct perf_counter_hw_event_ext desc = {
		.hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
						       PERF_COUNT_CPU_CYCLES),
	};

	return pc_counter_alloc(&desc, NULL, &pc_hw_ops, -1, NULL);
}

/* Every register is free: none was left reserved by us. */
static void pc_expect_all_free(struct kunit *test,
			       const struct pc_x86_driver *p)
{
	unsigned int i;

	for (i = 0; i < p->pmu.nr_counters; i++) {
		KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(pc_x86_ctr_msr(p, i)));
		release_perfctr_nmi(pc_x86_ctr_msr(p, i));
	}
	for (i = 0; i < p->nr_ctl; i++) {
		KUNIT_EXPECT_TRUE(test, reserve_evntsel_nmi(p->ctl_msr(i)));
		release_evntsel_nmi(p->ctl_msr(i));
	}
}

static void registers_held_elsewhere_make_a_new_counter_ebusy(struct kunit *test)
{
	const struct pc_x86_driver *p = pc_usable_pmu(test);
	u32 last = p->ctl_msr(p->nr_ctl - 1);
	struct perf_counter *counter;

	/* Someone else (perf_events, say) holds the last control register. */
	KUNIT_ASSERT_TRUE(test, reserve_evntsel_nmi(last));
	counter = pc_new_cycles();
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(counter), -EBUSY);
	if (!IS_ERR(counter))
		pc_counter_put(counter);
	release_evntsel_nmi(last);
	/* The half-taken reservation was undone. */
	pc_expect_all_free(test, p);
}

static void our_counters_hold_the_registers_until_the_last_goes(struct kunit *test)
{
	const struct pc_x86_driver *p = pc_usable_pmu(test);
	struct perf_counter *a, *b;

	a = pc_new_cycles();
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = pc_new_cycles();
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_FALSE(test, reserve_perfctr_nmi(pc_x86_ctr_msr(p, 0)));
	KUNIT_EXPECT_FALSE(test, reserve_evntsel_nmi(p->ctl_msr(1)));
	pc_counter_put(a);
	KUNIT_EXPECT_FALSE(test, reserve_perfctr_nmi(pc_x86_ctr_msr(p, 0)));
	pc_counter_put(b);
	pc_expect_all_free(test, p);
}

static struct kunit_case pc_reserve_cases[] = {
	KUNIT_CASE(registers_held_elsewhere_make_a_new_counter_ebusy),
	KUNIT_CASE(our_counters_hold_the_registers_until_the_last_goes),
	{}
};

static struct kunit_suite pc_reserve_suite = {
	.name = "perf_counter_x86_reserve",
	.test_cases = pc_reserve_cases,
};
kunit_test_suite(pc_reserve_suite);
