// SPDX-License-Identifier: GPL-2.0
/*
 * Placing counters on registers: pc_hw_assign() against an exhaustive
 * search on thousands of random constraint sets, some with shared
 * control registers as P4's ESCRs are.
 */
#include <kunit/test.h>
#include <linux/perf_counter_hw.h>
#include <linux/prandom.h>

#define NR_REGS		6

/* Does any choice of places for want[i..n) avoid @used and each other? */
static bool exists(const struct pc_hw_want *want, unsigned int i,
		   unsigned int n, u64 used)
{
	unsigned int k;

	if (i == n)
		return true;
	for (k = 0; k < want[i].nr; k++)
		if (!(want[i].place[k].uses & used) &&
		    exists(want, i + 1, n, used | want[i].place[k].uses))
			return true;
	return false;
}

static void random_want(struct rnd_state *rs, struct pc_hw_want *w)
{
	unsigned int k;

	w->nr = 1 + prandom_u32_state(rs) % 3;
	for (k = 0; k < w->nr; k++) {
		w->place[k].idx = prandom_u32_state(rs) % NR_REGS;
		w->place[k].uses = BIT_ULL(w->place[k].idx);
		/* a third of the places also need one of two shared registers */
		if (prandom_u32_state(rs) % 3 == 0)
			w->place[k].uses |= BIT_ULL(32 + prandom_u32_state(rs) % 2);
	}
}

static void finds_a_placement_exactly_when_one_exists(struct kunit *test)
{
	struct pc_hw_want want[NR_REGS];
	struct rnd_state rs;
	unsigned int round, found = 0, refused = 0;

	prandom_seed_state(&rs, 20090604);
	for (round = 0; round < 4000; round++) {
		unsigned int n = 1 + prandom_u32_state(&rs) % NR_REGS;
		unsigned int i;
		bool ok;
		u64 used = 0;

		for (i = 0; i < n; i++)
			random_want(&rs, &want[i]);
		ok = pc_hw_assign(want, n);
		KUNIT_ASSERT_EQ_MSG(test, ok, exists(want, 0, n, 0),
				    "round %u", round);
		if (!ok) {
			refused++;
			continue;
		}
		found++;
		for (i = 0; i < n; i++) {
			const struct pc_hw_place *p;

			KUNIT_ASSERT_LT(test, want[i].chosen, want[i].nr);
			p = &want[i].place[want[i].chosen];
			KUNIT_ASSERT_EQ(test, p->uses & used, 0);
			used |= p->uses;
		}
	}
	/* Both answers were exercised, many times. */
	KUNIT_EXPECT_GT(test, found, 500);
	KUNIT_EXPECT_GT(test, refused, 500);
}

static void keeps_first_places_when_they_fit(struct kunit *test)
{
	struct pc_hw_want want[3] = {
		{ .nr = 2, .place = { { .idx = 1, .uses = BIT(1) },
				      { .idx = 0, .uses = BIT(0) } } },
		{ .nr = 2, .place = { { .idx = 0, .uses = BIT(0) },
				      { .idx = 2, .uses = BIT(2) } } },
		{ .nr = 1, .place = { { .idx = 2, .uses = BIT(2) } } },
	};

	KUNIT_ASSERT_TRUE(test, pc_hw_assign(want, 2));
	KUNIT_EXPECT_EQ(test, want[0].chosen, 0);
	KUNIT_EXPECT_EQ(test, want[1].chosen, 0);
	/* The third takes register 2, which is free: nobody moves. */
	KUNIT_ASSERT_TRUE(test, pc_hw_assign(want, 3));
	KUNIT_EXPECT_EQ(test, want[0].chosen, 0);
	KUNIT_EXPECT_EQ(test, want[1].chosen, 0);
	KUNIT_EXPECT_EQ(test, want[2].chosen, 0);
	/* Now the first can only have register 0: the second moves to 2. */
	want[0].nr = 1;
	want[0].place[0].idx = 0;
	want[0].place[0].uses = BIT(0);
	KUNIT_ASSERT_TRUE(test, pc_hw_assign(want, 2));
	KUNIT_EXPECT_EQ(test, want[1].place[want[1].chosen].idx, 2);
	KUNIT_EXPECT_FALSE(test, pc_hw_assign(want, 3));
}

static void more_counters_than_the_limit_are_refused(struct kunit *test)
{
	static struct pc_hw_want want[PC_HW_MAX_COUNTERS + 1];
	unsigned int i;

	for (i = 0; i <= PC_HW_MAX_COUNTERS; i++) {
		want[i].nr = 1;
		want[i].place[0].idx = i;
		want[i].place[0].uses = BIT_ULL(i);
	}
	KUNIT_EXPECT_TRUE(test, pc_hw_assign(want, PC_HW_MAX_COUNTERS));
	KUNIT_EXPECT_FALSE(test, pc_hw_assign(want, PC_HW_MAX_COUNTERS + 1));
	KUNIT_EXPECT_TRUE(test, pc_hw_assign(want, 0));
}

/* A mask's registers, lowest first, each its own resource; no more. */
static void places_of_a_mask_are_its_registers_in_order(struct kunit *test)
{
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	static const u32 want[] = { 0, 2, 3, 5 };
	int i, n = pc_hw_places_of_mask(0x2d, place);

	KUNIT_ASSERT_EQ(test, n, 4);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, place[i].idx, want[i]);
		KUNIT_EXPECT_EQ(test, place[i].uses, BIT_ULL(want[i]));
		KUNIT_EXPECT_EQ(test, place[i].aux, 0);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_places_of_mask(0, place), 0);
	/* bits past the place array are left out, and nothing past it written */
	{
		struct pc_hw_place wide[PC_HW_MAX_PLACES + 1];

		wide[PC_HW_MAX_PLACES].idx = 0x5a5a;
		KUNIT_EXPECT_EQ(test, pc_hw_places_of_mask(~0UL, wide),
				PC_HW_MAX_PLACES);
		KUNIT_EXPECT_EQ(test, wide[PC_HW_MAX_PLACES].idx, 0x5a5a);
		KUNIT_EXPECT_EQ(test, wide[PC_HW_MAX_PLACES - 1].idx,
				PC_HW_MAX_PLACES - 1);
	}
}

static struct kunit_case pc_hw_assign_cases[] = {
	KUNIT_CASE(finds_a_placement_exactly_when_one_exists),
	KUNIT_CASE(keeps_first_places_when_they_fit),
	KUNIT_CASE(more_counters_than_the_limit_are_refused),
	KUNIT_CASE(places_of_a_mask_are_its_registers_in_order),
	{}
};

static struct kunit_suite pc_hw_assign_suite = {
	.name = "perf_counter_hw_assign",
	.test_cases = pc_hw_assign_cases,
};
kunit_test_suite(pc_hw_assign_suite);
