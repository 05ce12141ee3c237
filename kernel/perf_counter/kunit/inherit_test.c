// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: fork. The array of inherited groups a fork reads is sized by
 * the parent's count of counters, which a task raises as far as it may
 * open files: at two million it is past what kmalloc() gives at all
 * (16 MiB on 64-bit, 8 MiB on 32-bit, above the largest page order).
 * There the array still comes, from vmalloc, and no warning is logged.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/panic.h>

#include "fake_counter.h"

#define PC_MANY_COUNTERS	(2U << 20)

static void fork_array_for_two_million_counters_comes_without_warning(struct kunit *test)
{
	struct perf_counter_context *ctx;
	struct perf_counter **leaders;
	bool tainted = test_taint(TAINT_WARN);
	long arrays = atomic_long_read(&pc_objects[PC_OBJ_ARRAY]);
	unsigned int nr = ~0U;
	u64 snapshot;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	pc_ctx_init(ctx, NULL);
	/* A count alone: the groups list is empty, no leader is copied. */
	ctx->nr_counters = PC_MANY_COUNTERS;
	mutex_lock(&ctx->mutex);
	leaders = pc_ctx_leaders(ctx, true, &nr, &snapshot);
	mutex_unlock(&ctx->mutex);
	/* kmalloc_array() there gave NULL (the fork's -ENOMEM) and a WARN. */
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(leaders));
	KUNIT_EXPECT_EQ(test, nr, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&pc_objects[PC_OBJ_ARRAY]),
			arrays + 1);
	/* The whole array is there to write. */
	leaders[PC_MANY_COUNTERS - 1] = NULL;
	pc_ctx_leaders_free(leaders);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&pc_objects[PC_OBJ_ARRAY]),
			arrays);
	if (!tainted)
		KUNIT_EXPECT_FALSE(test, test_taint(TAINT_WARN));
}

static struct kunit_case pc_inherit_cases[] = {
	KUNIT_CASE(fork_array_for_two_million_counters_comes_without_warning),
	{}
};

static struct kunit_suite pc_inherit_suite = {
	.name		= "perf_counter_inherit",
	.test_cases	= pc_inherit_cases,
};
kunit_test_suite(pc_inherit_suite);
