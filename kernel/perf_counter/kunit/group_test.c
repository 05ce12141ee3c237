// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: groups. Who may join a group, and that a group goes onto the
 * CPU all or nothing: when one member cannot start, none of the group
 * counts, and a pinned group enters the error state while a flexible
 * one waits for the rotation (pc_group_missed(), whichever path left
 * the group off).
 */
#include <kunit/test.h>

#include "fake_counter.h"

struct pc_group_fixture {
	struct perf_counter_context	ctx;
	struct pc_fake_set		set;
	struct perf_counter		*leader;
	struct perf_counter		*member[2];
};

/* A leader (config 10) with two members (11, 12). */
static int pc_group_init(struct kunit *test)
{
	struct pc_group_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	pc_ctx_init(&f->ctx, NULL);
	pc_fake_fail_config = ~0ULL;
	pc_fake_running = 0;
	f->leader = pc_fake_counter(test, &f->set, 10, NULL);
	f->member[0] = pc_fake_counter(test, &f->set, 11, f->leader);
	f->member[1] = pc_fake_counter(test, &f->set, 12, f->leader);
	f->leader->ctx = &f->ctx;
	test->priv = f;
	return 0;
}

/* The group on and off at context time @t, under its context's lock. */
static int group_in(struct pc_group_fixture *f, u64 t)
{
	int err;

	raw_spin_lock_irq(&f->ctx.lock);
	err = pc_group_sched_in(f->leader, t);
	raw_spin_unlock_irq(&f->ctx.lock);
	return err;
}

/*
 * The group placed as a context places it, at context time @t: what
 * becomes of it if it cannot go on is pc_group_missed()'s rule.
 */
static void group_placed(struct pc_group_fixture *f, u64 t)
{
	raw_spin_lock_irq(&f->ctx.lock);
	pc_ctx_group_in(&f->ctx, f->leader, t);
	raw_spin_unlock_irq(&f->ctx.lock);
}

static void group_out(struct pc_group_fixture *f, u64 t)
{
	raw_spin_lock_irq(&f->ctx.lock);
	pc_group_sched_out(f->leader, t);
	raw_spin_unlock_irq(&f->ctx.lock);
}

static void pc_group_exit(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;
	int i;

	for (i = 0; i < f->set.nr; i++) {
		f->set.counter[i]->ctx = NULL;
		f->set.counter[i]->attached = false;
	}
	pc_fake_free_all(&f->set);
}

static void join_rules(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;
	struct perf_counter_context other;
	struct perf_counter_hw_event hw = { };

	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &f->ctx, -1), 0);
	/* group_fd must name a leader, not a member */
	KUNIT_EXPECT_EQ(test, pc_check_group(f->member[0], &hw, &f->ctx, -1),
			-EINVAL);
	/* same task or CPU context, same cpu filter */
	pc_ctx_init(&other, NULL);
	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &other, -1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &f->ctx, 0),
			-EINVAL);
	/* pinned and exclusive are for leaders */
	hw.pinned = 1;
	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &f->ctx, -1),
			-EINVAL);
	hw.pinned = 0;
	hw.exclusive = 1;
	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &f->ctx, -1),
			-EINVAL);
	/* a group is inherited whole or not at all */
	hw.exclusive = 0;
	hw.inherit = 1;
	KUNIT_EXPECT_EQ(test, pc_check_group(f->leader, &hw, &f->ctx, -1),
			-EINVAL);
}

static void whole_group_goes_on(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	KUNIT_EXPECT_EQ(test, group_in(f, 0), 0);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 3);
	KUNIT_EXPECT_EQ(test, f->member[1]->state, PC_STATE_ACTIVE);
	group_out(f, 10);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_INACTIVE);
}

static void one_member_failing_keeps_all_off(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	pc_fake_fail_config = 12;
	KUNIT_EXPECT_EQ(test, group_in(f, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, f->member[0]->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, f->member[1]->state, PC_STATE_INACTIVE);
}

static void failing_pinned_group_enters_error(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	f->leader->hw_event.pinned = 1;
	pc_fake_fail_config = 10;
	group_placed(f, 0);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_FALSE(test, f->ctx.rotate);
	/* and stays there: an error group is not retried by scheduling */
	pc_fake_fail_config = ~0ULL;
	group_placed(f, 5);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
}

static void failing_flexible_group_waits_for_rotation(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	pc_fake_fail_config = 12;
	group_placed(f, 0);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_TRUE(test, f->ctx.rotate);
}

static void disabled_member_stays_off_with_its_group(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	f->member[0]->state = PC_STATE_OFF;
	KUNIT_EXPECT_EQ(test, group_in(f, 0), 0);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 2);
	KUNIT_EXPECT_EQ(test, f->member[0]->state, PC_STATE_OFF);
	group_out(f, 1);
}

static void disabled_leader_keeps_members_off(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	f->leader->state = PC_STATE_OFF;
	KUNIT_EXPECT_EQ(test, group_in(f, 0), 0);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_EQ(test, f->member[0]->state, PC_STATE_INACTIVE);
}

/* Make the fixture's context a live one on this CPU, group attached. */
static void pc_group_attach(struct pc_group_fixture *f)
{
	int i;

	f->ctx.active_cpu = raw_smp_processor_id();
	f->ctx.is_active = true;
	list_add_tail(&f->leader->group_entry, &f->ctx.groups);
	for (i = 0; i < f->set.nr; i++) {
		f->set.counter[i]->ctx = &f->ctx;
		f->set.counter[i]->attached = true;
	}
}

static void pc_group_detach(struct pc_group_fixture *f)
{
	group_out(f, f->ctx.time);
}

static void enabled_member_that_cannot_start_takes_group_off(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	f->member[1]->state = PC_STATE_OFF;
	pc_group_attach(f);
	KUNIT_ASSERT_EQ(test, group_in(f, 0), 0);
	KUNIT_ASSERT_EQ(test, pc_fake_running, 2);

	/* through the real ioctl path: pc_ctx_call() to the context's CPU */
	pc_fake_fail_config = 12;
	pc_counter_enable(f->member[1]);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_TRUE(test, f->ctx.rotate);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, f->member[0]->state, PC_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, f->member[1]->state, PC_STATE_INACTIVE);
	pc_group_detach(f);
}

static void enabling_a_member_joins_the_running_group(struct kunit *test)
{
	struct pc_group_fixture *f = test->priv;

	f->member[1]->state = PC_STATE_OFF;
	pc_group_attach(f);
	KUNIT_ASSERT_EQ(test, group_in(f, 0), 0);
	pc_counter_enable(f->member[1]);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 3);
	KUNIT_EXPECT_EQ(test, f->member[1]->state, PC_STATE_ACTIVE);
	pc_counter_disable(f->leader);
	KUNIT_EXPECT_EQ(test, pc_fake_running, 0);
	KUNIT_EXPECT_EQ(test, f->leader->state, PC_STATE_OFF);
	KUNIT_EXPECT_EQ(test, f->member[1]->state, PC_STATE_INACTIVE);
	pc_group_detach(f);
}

static struct kunit_case pc_group_cases[] = {
	KUNIT_CASE(join_rules),
	KUNIT_CASE(whole_group_goes_on),
	KUNIT_CASE(one_member_failing_keeps_all_off),
	KUNIT_CASE(failing_pinned_group_enters_error),
	KUNIT_CASE(failing_flexible_group_waits_for_rotation),
	KUNIT_CASE(disabled_member_stays_off_with_its_group),
	KUNIT_CASE(disabled_leader_keeps_members_off),
	KUNIT_CASE(enabled_member_that_cannot_start_takes_group_off),
	KUNIT_CASE(enabling_a_member_joins_the_running_group),
	{}
};

static struct kunit_suite pc_group_suite = {
	.name = "perf_counter_group",
	.init = pc_group_init,
	.exit = pc_group_exit,
	.test_cases = pc_group_cases,
};
kunit_test_suite(pc_group_suite);
