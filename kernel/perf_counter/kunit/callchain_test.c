// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the kernel part of a call chain, through the kernel's own
 * unwinder. An event the kernel raises is chained from where it raised
 * it: the first address is the raise site, whatever the subsystem's own
 * frames below it; a raise site the unwinder never meets breaks the
 * chain; the depth cuts it, and says so; a counter that excludes the
 * kernel gets no kernel part at all. A walk never shares its buffer
 * with a walk nested in the same context.
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/perf_counter_chain.h>

#include "../internal.h"

static const struct pc_ops pc_chain_raised_ops = {
	.caps	= PC_CAP_RAISED,
};

struct pc_chain_fixture {
	struct perf_counter		counter;
	struct perf_counter_callchain	head;
	u64				rec[64];	/* head, then words */
	u32				words;
};

static int pc_chain_test_init(struct kunit *test)
{
	struct pc_chain_fixture *f;
	int err;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->counter.ops = &pc_chain_raised_ops;
	f->counter.hw_event.record_type = PERF_RECORD_CALLCHAIN;
	f->counter.chain_depth = 32;
	f->counter.hw_event.exclude_user = 1;	/* the kernel part alone */
	err = pc_chain_bufs_get();
	if (err)
		return err;
	test->priv = f;
	return 0;
}

static void pc_chain_test_exit(struct kunit *test)
{
	if (test->priv)		/* .exit runs after a failed .init too */
		pc_chain_bufs_put();
}

/*
 * Walk one chain as an event raised at @site would (@site 0: at this
 * function's return address, which the unwinder finds in its frame),
 * into f->rec and f->head. Returns the raise site used.
 */
static noinline unsigned long pc_chain_raise(struct kunit *test,
					     struct pc_chain_fixture *f,
					     unsigned long site)
{
	union {
		u64				word;
		struct perf_counter_callchain	head;
	} u;
	struct pc_raise raise = { };
	unsigned long flags;
	struct pc_chain c;
	bool taken;

	if (!site)
		site = _RET_IP_;
	local_irq_save(flags);
	pc_raise_note(&raise, site);
	taken = pc_chain_take(&c, &f->counter, NULL);
	if (taken) {
		f->words = min_t(u32, pc_chain_record_words(&c),
				 ARRAY_SIZE(f->rec));
		memcpy(f->rec, c.word, f->words * sizeof(u64));
		pc_chain_done(&c);
	}
	pc_raise_done(&raise);
	local_irq_restore(flags);

	KUNIT_ASSERT_TRUE(test, taken);
	u.word = f->rec[0];
	f->head = u.head;
	KUNIT_EXPECT_EQ(test, f->words, 1 + f->head.nr);
	return site;
}

static void raised_event_chain_starts_at_the_raise_site(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	unsigned long site = pc_chain_raise(test, f, 0);

	KUNIT_ASSERT_GE(test, f->head.nr, 2);
	KUNIT_EXPECT_EQ(test, f->rec[1], (u64)PERF_CONTEXT_KERNEL);
	KUNIT_EXPECT_EQ(test, f->rec[2], (u64)site);
	/* a kunit thread's stack ends within 32 frames */
	KUNIT_EXPECT_EQ(test, f->head.flags, PERF_COUNTER_CHAIN_COMPLETE);
}

static void raise_site_not_on_the_stack_breaks_the_chain(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;

	pc_chain_raise(test, f, 1);	/* no return address is 1 */
	KUNIT_EXPECT_EQ(test, f->head.nr, 1);	/* the marker alone */
	KUNIT_EXPECT_EQ(test, f->rec[1], (u64)PERF_CONTEXT_KERNEL);
	KUNIT_EXPECT_EQ(test, f->head.flags, PERF_COUNTER_CHAIN_BROKEN);
}

static void depth_cuts_the_chain_and_says_truncated(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	unsigned long site;

	f->counter.chain_depth = 1;
	site = pc_chain_raise(test, f, 0);
	KUNIT_EXPECT_EQ(test, f->head.nr, 2);
	KUNIT_EXPECT_EQ(test, f->rec[2], (u64)site);
	KUNIT_EXPECT_EQ(test, f->head.flags, PERF_COUNTER_CHAIN_TRUNCATED);
}

static void exclude_kernel_chain_has_no_kernel_word(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;

	f->counter.hw_event.exclude_kernel = 1;
	pc_chain_raise(test, f, 0);
	/* no kernel part, and exclude_user: no user part */
	KUNIT_EXPECT_EQ(test, f->head.nr, 0);
	KUNIT_EXPECT_EQ(test, f->head.flags, PERF_COUNTER_CHAIN_COMPLETE);
}

/* A hard-irq timer's walks, while the task's buffer is in use. */
struct pc_chain_irq {
	struct hrtimer		timer;
	struct perf_counter	*counter;
	bool			taken;
	bool			nested;
	bool			fired;
};

static enum hrtimer_restart pc_chain_irq_fn(struct hrtimer *timer)
{
	struct pc_chain_irq *irq = container_of(timer, struct pc_chain_irq,
						timer);
	struct pc_chain outer, inner;

	irq->taken = pc_chain_take(&outer, irq->counter, NULL);
	if (irq->taken) {
		irq->nested = pc_chain_take(&inner, irq->counter, NULL);
		if (irq->nested)
			pc_chain_done(&inner);
		pc_chain_done(&outer);
	}
	WRITE_ONCE(irq->fired, true);
	return HRTIMER_NORESTART;
}

/*
 * Within one context a second walk cannot have the buffer the first
 * is still using (its sample is lost instead); once the first is done,
 * it can. A walk in another context (a hard irq) has a buffer of its
 * own while the task's is in use, and the same rule within it.
 */
static void walk_in_use_refuses_a_nested_walk_of_its_context(struct kunit *test)
{
	struct pc_chain_irq *irq = kunit_kzalloc(test, sizeof(*irq), GFP_KERNEL);
	struct pc_chain_fixture *f = test->priv;
	struct pc_chain outer, inner;
	bool first, nested, after;
	unsigned long flags, end;

	KUNIT_ASSERT_NOT_NULL(test, irq);
	irq->counter = &f->counter;
	f->counter.hw_event.exclude_kernel = 1;	/* no part: no raise site */
	hrtimer_init(&irq->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	irq->timer.function = pc_chain_irq_fn;

	preempt_disable();	/* the timer fires on this CPU */
	local_irq_save(flags);
	first = pc_chain_take(&outer, &f->counter, NULL);
	nested = pc_chain_take(&inner, &f->counter, NULL);
	if (nested)
		pc_chain_done(&inner);
	local_irq_restore(flags);

	/* the task's buffer still in use: a hard irq walks meanwhile */
	hrtimer_start(&irq->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	end = jiffies + 2 * HZ;
	while (!READ_ONCE(irq->fired) && time_before(jiffies, end))
		cpu_relax();

	local_irq_save(flags);
	if (first)
		pc_chain_done(&outer);
	after = pc_chain_take(&inner, &f->counter, NULL);
	if (after)
		pc_chain_done(&inner);
	local_irq_restore(flags);
	preempt_enable();
	hrtimer_cancel(&irq->timer);

	KUNIT_EXPECT_TRUE(test, first);
	KUNIT_EXPECT_FALSE(test, nested);
	KUNIT_EXPECT_TRUE(test, after);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(irq->fired));
	KUNIT_EXPECT_TRUE(test, irq->taken);
	KUNIT_EXPECT_FALSE(test, irq->nested);
}

static struct kunit_case pc_chain_cases[] = {
	KUNIT_CASE(raised_event_chain_starts_at_the_raise_site),
	KUNIT_CASE(raise_site_not_on_the_stack_breaks_the_chain),
	KUNIT_CASE(depth_cuts_the_chain_and_says_truncated),
	KUNIT_CASE(exclude_kernel_chain_has_no_kernel_word),
	KUNIT_CASE(walk_in_use_refuses_a_nested_walk_of_its_context),
	{}
};

static struct kunit_suite pc_chain_suite = {
	.name = "perf_counter_callchain",
	.init = pc_chain_test_init,
	.exit = pc_chain_test_exit,
	.test_cases = pc_chain_cases,
};
kunit_test_suite(pc_chain_suite);
