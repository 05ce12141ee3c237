// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: multiplexing. With a fake PMU of two registers, six flexible
 * groups rotating at each tick each count a third of the time, within
 * 10%; a pinned group stays on all the time while the flexible ones
 * share what is left; a context whose groups all fit never rotates; and
 * groups bound to another CPU are passed over.
 */
#include <kunit/test.h>
#include <linux/math64.h>

#include "fake_counter.h"

#define TICK_NS		(4 * NSEC_PER_MSEC)
#define TICKS		600

struct pc_rotate_fixture {
	struct perf_counter_context	ctx;
	struct pc_fake_set		set;
};

static int pc_rotate_init(struct kunit *test)
{
	struct pc_rotate_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	pc_ctx_init(&f->ctx, NULL);
	pc_fake_fail_config = ~0ULL;
	pc_fake_running = 0;
	pc_fake_capacity = 2;
	test->priv = f;
	return 0;
}

static void pc_rotate_exit(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	int i;

	for (i = 0; i < f->set.nr; i++)
		pc_counter_sched_out(f->set.counter[i], f->ctx.time);
	pc_fake_capacity = INT_MAX;
	pc_fake_free_all(&f->set);
}

/* @n single-counter groups, the first @pinned of them pinned. */
static void add_groups(struct kunit *test, int n, int pinned)
{
	struct pc_rotate_fixture *f = test->priv;
	struct perf_counter *c;
	int i;

	for (i = 0; i < n; i++) {
		c = pc_fake_counter(test, &f->set, i + 1, NULL);
		c->hw_event.pinned = i < pinned;
		list_add_tail(&c->group_entry, &f->ctx.groups);
	}
}

/* Go on at local time 0, then run @ticks ticks of TICK_NS. */
static void run_ticks(struct pc_rotate_fixture *f, int ticks)
{
	struct perf_counter_context *ctx = &f->ctx;
	u64 now = 0;
	int i;

	ctx->is_active = true;
	ctx->timestamp = 0;
	raw_spin_lock_irq(&ctx->lock);
	pc_ctx_groups_in(ctx, ctx->time);
	raw_spin_unlock_irq(&ctx->lock);
	for (i = 0; i < ticks; i++) {
		now += TICK_NS;
		raw_spin_lock_irq(&ctx->lock);
		pc_ctx_rotate(ctx, now);
		raw_spin_unlock_irq(&ctx->lock);
	}
	pc_ctx_advance(ctx, now);
	for (i = 0; i < f->set.nr; i++)
		pc_counter_update_times(f->set.counter[i], ctx->time);
}

/*
 * Ticks of uneven length — every third one ten times as long — still
 * give each of six groups on two registers a third of the time: a
 * rotation by tick count, not by each group's share of its enabled
 * time, gives whoever is on during the long ticks more and fails here.
 */
static void uneven_ticks_still_give_a_third_each(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	struct perf_counter_context *ctx = &f->ctx;
	u64 now = 0, total;
	int i;

	pc_fake_capacity = 2;
	add_groups(test, 6, 0);
	ctx->is_active = true;
	ctx->timestamp = 0;
	raw_spin_lock_irq(&ctx->lock);
	pc_ctx_groups_in(ctx, ctx->time);
	raw_spin_unlock_irq(&ctx->lock);
	for (i = 0; i < 600; i++) {
		now += i % 3 ? TICK_NS : 10 * TICK_NS;
		raw_spin_lock_irq(&ctx->lock);
		pc_ctx_rotate(ctx, now);
		raw_spin_unlock_irq(&ctx->lock);
	}
	pc_ctx_advance(ctx, now);
	total = ctx->time;
	for (i = 0; i < f->set.nr; i++) {
		struct perf_counter *c = f->set.counter[i];

		pc_counter_update_times(c, ctx->time);
		KUNIT_EXPECT_GE(test, c->time_running, div_u64(total * 9, 30));
		KUNIT_EXPECT_LE(test, c->time_running, div_u64(total * 11, 30));
	}
}

static void six_groups_on_two_registers_get_a_third_each(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	u64 total = (u64)TICKS * TICK_NS;
	int i;

	add_groups(test, 6, 0);
	run_ticks(f, TICKS);
	KUNIT_EXPECT_TRUE(test, f->ctx.rotate);
	for (i = 0; i < 6; i++) {
		struct perf_counter *c = f->set.counter[i];

		KUNIT_EXPECT_EQ(test, c->time_enabled, total);
		KUNIT_EXPECT_GE(test, c->time_running, div_u64(total * 9, 30));
		KUNIT_EXPECT_LE(test, c->time_running, div_u64(total * 11, 30));
	}
	KUNIT_EXPECT_LE(test, pc_fake_running, 2);
}

static void pinned_group_stays_on_while_the_rest_share(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	u64 total = (u64)TICKS * TICK_NS;
	int i;

	add_groups(test, 5, 1);
	run_ticks(f, TICKS);
	KUNIT_EXPECT_EQ(test, f->set.counter[0]->time_running, total);
	/* one register left for four flexible groups: a quarter each */
	for (i = 1; i < 5; i++) {
		struct perf_counter *c = f->set.counter[i];

		KUNIT_EXPECT_GE(test, c->time_running, div_u64(total * 9, 40));
		KUNIT_EXPECT_LE(test, c->time_running, div_u64(total * 11, 40));
	}
}

static void groups_that_fit_never_rotate(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	struct perf_counter *first;

	add_groups(test, 2, 0);
	first = f->set.counter[0];
	run_ticks(f, 10);
	KUNIT_EXPECT_FALSE(test, f->ctx.rotate);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&f->ctx.groups,
						   struct perf_counter,
						   group_entry), first);
	KUNIT_EXPECT_EQ(test, first->time_running, first->time_enabled);
}

static void exclusive_group_runs_alone_and_takes_its_turn(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	u64 total = (u64)TICKS * TICK_NS;
	struct perf_counter *excl;
	int i;

	pc_fake_capacity = 4;		/* room for all, but for exclusivity */
	add_groups(test, 3, 0);
	excl = f->set.counter[2];
	excl->hw_event.exclusive = 1;
	run_ticks(f, TICKS);
	/*
	 * The exclusive group is on alone, the other two together: each of
	 * the three runs half of the time.
	 */
	KUNIT_EXPECT_GE(test, excl->time_running, div_u64(total * 9, 20));
	KUNIT_EXPECT_LE(test, excl->time_running, div_u64(total * 11, 20));
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_GE(test, f->set.counter[i]->time_running,
				div_u64(total * 9, 20));
	/* never together: the running times add up to at most the total
	 * for the exclusive group plus what the others shared
	 */
	KUNIT_EXPECT_LE(test, excl->time_running +
			max(f->set.counter[0]->time_running,
			    f->set.counter[1]->time_running), total);
}

/*
 * Groups bound to another CPU are passed over here: beside a pinned
 * exclusive group, a pinned one does not enter the error state, and a
 * flexible exclusive one does not mark the context for rotation (which
 * would come again at every tick, for a group that can never go on).
 * The control: the same two groups unbound do both.
 */
static void groups_bound_to_another_cpu_are_passed_over(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	struct perf_counter *excl, *pinned, *flexible;
	int elsewhere;

	pc_fake_capacity = 4;
	add_groups(test, 3, 2);
	excl = f->set.counter[0];
	pinned = f->set.counter[1];
	flexible = f->set.counter[2];
	excl->hw_event.exclusive = 1;
	flexible->hw_event.exclusive = 1;

	migrate_disable();		/* "another CPU" stays another */
	elsewhere = raw_smp_processor_id() ? 0 : 1;
	pinned->cpu = elsewhere;
	flexible->cpu = elsewhere;
	run_ticks(f, 10);
	KUNIT_EXPECT_FALSE(test, f->ctx.rotate);
	KUNIT_EXPECT_EQ(test, pinned->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, flexible->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, excl->state, PC_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, excl->time_running, excl->time_enabled);

	pinned->cpu = -1;
	flexible->cpu = -1;
	raw_spin_lock_irq(&f->ctx.lock);
	pc_ctx_groups_in(&f->ctx, f->ctx.time);
	raw_spin_unlock_irq(&f->ctx.lock);
	migrate_enable();
	KUNIT_EXPECT_TRUE(test, f->ctx.rotate);
	KUNIT_EXPECT_EQ(test, pinned->state, PC_STATE_ERROR);
}

/* A context of its own, live on this CPU, for the real ioctl path. */
static void make_live(struct pc_rotate_fixture *f)
{
	int i;

	f->ctx.active_cpu = raw_smp_processor_id();
	f->ctx.is_active = true;
	for (i = 0; i < f->set.nr; i++) {
		f->set.counter[i]->ctx = &f->ctx;
		f->set.counter[i]->attached = true;
	}
}

static void pinned_group_in_error_recovers_when_enabled(struct kunit *test)
{
	struct pc_rotate_fixture *f = test->priv;
	struct perf_counter *pinned;

	add_groups(test, 3, 0);
	pinned = f->set.counter[2];
	pinned->hw_event.pinned = 1;
	/* two flexible groups hold both registers... */
	list_move(&pinned->group_entry, &f->ctx.groups);
	pc_fake_capacity = 0;
	make_live(f);
	raw_spin_lock_irq(&f->ctx.lock);
	pc_ctx_groups_in(&f->ctx, 0);
	raw_spin_unlock_irq(&f->ctx.lock);
	KUNIT_EXPECT_EQ(test, pinned->state, PC_STATE_ERROR);

	/* ...enabling it again is its second chance, through the ioctl */
	pc_fake_capacity = 3;
	pc_counter_enable(pinned);
	KUNIT_EXPECT_EQ(test, pinned->state, PC_STATE_ACTIVE);

	/* and disabling a counter in error turns it plainly off */
	pc_counter_disable(pinned);
	pinned->state = PC_STATE_ERROR;
	pc_counter_disable(pinned);
	KUNIT_EXPECT_EQ(test, pinned->state, PC_STATE_OFF);
	for (int i = 0; i < f->set.nr; i++) {
		f->set.counter[i]->attached = false;
		f->set.counter[i]->ctx = NULL;
	}
}

static struct kunit_case pc_rotate_cases[] = {
	KUNIT_CASE(six_groups_on_two_registers_get_a_third_each),
	KUNIT_CASE(uneven_ticks_still_give_a_third_each),
	KUNIT_CASE(pinned_group_stays_on_while_the_rest_share),
	KUNIT_CASE(groups_that_fit_never_rotate),
	KUNIT_CASE(exclusive_group_runs_alone_and_takes_its_turn),
	KUNIT_CASE(pinned_group_in_error_recovers_when_enabled),
	KUNIT_CASE(groups_bound_to_another_cpu_are_passed_over),
	{}
};

static struct kunit_suite pc_rotate_suite = {
	.name = "perf_counter_rotate",
	.init = pc_rotate_init,
	.exit = pc_rotate_exit,
	.test_cases = pc_rotate_cases,
};
kunit_test_suite(pc_rotate_suite);
