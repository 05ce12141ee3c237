// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: time accounting. Context time only moves while the context is
 * in; a counter's enabled time covers the context time it was enabled
 * for, its running time the part it was on the CPU — the pair user space
 * scales multiplexed counts with.
 */
#include <kunit/test.h>

#include "fake_counter.h"

struct pc_time_fixture {
	struct perf_counter_context	ctx;
	struct perf_counter		*counter;
	struct pc_fake_set		set;
};

/* A context that went in at local time 1000, holding one counter. */
static int pc_time_init(struct kunit *test)
{
	struct pc_time_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	pc_ctx_init(&f->ctx, NULL);
	f->ctx.is_active = true;
	f->ctx.timestamp = 1000;
	pc_fake_fail_config = ~0ULL;
	pc_fake_running = 0;
	f->counter = pc_fake_counter(test, &f->set, 1, NULL);
	f->counter->tstamp = f->ctx.time;
	test->priv = f;
	return 0;
}

static void pc_time_exit(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;

	pc_fake_free_all(&f->set);
}

static void context_time_stops_while_out(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;

	KUNIT_EXPECT_EQ(test, pc_ctx_advance(&f->ctx, 1400), 400);
	f->ctx.is_active = false;
	KUNIT_EXPECT_EQ(test, pc_ctx_advance(&f->ctx, 99999), 400);
	f->ctx.is_active = true;
	f->ctx.timestamp = 100000;
	KUNIT_EXPECT_EQ(test, pc_ctx_advance(&f->ctx, 100050), 450);
}

static void enabled_but_off_cpu_accrues_enabled_only(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;

	pc_counter_update_times(f->counter, pc_ctx_advance(&f->ctx, 1500));
	KUNIT_EXPECT_EQ(test, f->counter->time_enabled, 500);
	KUNIT_EXPECT_EQ(test, f->counter->time_running, 0);
}

static void counting_accrues_both(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;
	struct perf_counter *c = f->counter;

	KUNIT_ASSERT_EQ(test, pc_counter_sched_in(c, pc_ctx_advance(&f->ctx,
								     1000)), 0);
	KUNIT_EXPECT_EQ(test, c->state, PC_STATE_ACTIVE);
	pc_counter_update_times(c, pc_ctx_advance(&f->ctx, 1300));
	KUNIT_EXPECT_EQ(test, c->time_enabled, 300);
	KUNIT_EXPECT_EQ(test, c->time_running, 300);
	pc_counter_sched_out(c, pc_ctx_advance(&f->ctx, 1300));
}

static void disabled_accrues_nothing(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;
	struct perf_counter *c = f->counter;

	pc_counter_set_state(c, PC_STATE_OFF, pc_ctx_advance(&f->ctx, 1000));
	pc_counter_update_times(c, pc_ctx_advance(&f->ctx, 5000));
	KUNIT_EXPECT_EQ(test, c->time_enabled, 0);
	KUNIT_EXPECT_EQ(test, c->time_running, 0);
}

/*
 * on 100, enabled but off the CPU 50, disabled 70, on again 30,
 * context out (task asleep) 1000: enabled 180, running 130.
 */
static void mixed_history_sums_each_interval_once(struct kunit *test)
{
	struct pc_time_fixture *f = test->priv;
	struct perf_counter *c = f->counter;
	struct perf_counter_context *ctx = &f->ctx;

	pc_counter_sched_in(c, pc_ctx_advance(ctx, 1000));
	pc_counter_sched_out(c, pc_ctx_advance(ctx, 1100));
	pc_counter_set_state(c, PC_STATE_OFF, pc_ctx_advance(ctx, 1150));
	pc_counter_set_state(c, PC_STATE_INACTIVE, pc_ctx_advance(ctx, 1220));
	pc_counter_sched_in(c, pc_ctx_advance(ctx, 1220));
	pc_counter_sched_out(c, pc_ctx_advance(ctx, 1250));
	ctx->is_active = false;
	pc_counter_update_times(c, pc_ctx_advance(ctx, 2250));

	KUNIT_EXPECT_EQ(test, c->time_enabled, 180);
	KUNIT_EXPECT_EQ(test, c->time_running, 130);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
}

static struct kunit_case pc_time_cases[] = {
	KUNIT_CASE(context_time_stops_while_out),
	KUNIT_CASE(enabled_but_off_cpu_accrues_enabled_only),
	KUNIT_CASE(counting_accrues_both),
	KUNIT_CASE(disabled_accrues_nothing),
	KUNIT_CASE(mixed_history_sums_each_interval_once),
	{}
};

static struct kunit_suite pc_time_suite = {
	.name = "perf_counter_time",
	.init = pc_time_init,
	.exit = pc_time_exit,
	.test_cases = pc_time_cases,
};
kunit_test_suite(pc_time_suite);
