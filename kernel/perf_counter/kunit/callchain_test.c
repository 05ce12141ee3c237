// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the kernel part of a call chain, through the kernel's own
 * unwinder. An event the kernel raises is chained from where it raised
 * it: the first address is the raise site, whatever the subsystem's own
 * frames below it; a raise site the unwinder never meets breaks the
 * chain; the depth cuts it, and says so; a counter that excludes the
 * kernel gets no kernel part at all.
 */
#include <kunit/test.h>

#include "../internal.h"

static const struct pc_ops pc_chain_raised_ops = {
	.caps	= PC_CAP_RAISED,
};

struct pc_chain_fixture {
	struct perf_counter	counter;
	struct pc_queue		*q;
	u64			rec[64];
};

static int pc_chain_test_init(struct kunit *test)
{
	struct pc_chain_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->counter.ops = &pc_chain_raised_ops;
	f->counter.hw_event.record_type = PERF_RECORD_CALLCHAIN;
	f->counter.chain_depth = 32;
	f->counter.hw_event.exclude_user = 1;	/* the kernel part alone */
	f->q = pc_queue_alloc(PC_QUEUE_MIN, false);
	if (!f->q)
		return -ENOMEM;
	test->priv = f;
	return 0;
}

static void pc_chain_test_exit(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;

	pc_queue_free(f->q);
}

/*
 * Write one chain as an event raised at @site would (@site 0: at this
 * function's return address, which the unwinder finds in its frame).
 * Returns the raise site used.
 */
static noinline unsigned long pc_chain_raise(struct pc_chain_fixture *f,
					     unsigned long site)
{
	unsigned long flags, at, outer;

	if (!site)
		site = _RET_IP_;
	pc_queue_lock(f->q, &flags);
	outer = __this_cpu_read(pc_raise_ip);
	__this_cpu_write(pc_raise_ip, site);
	if (pc_queue_reserve(f->q, PERF_COUNTER_REC_SAMPLE,
			     1 + pc_chain_words(&f->counter), &at)) {
		pc_chain_put(f->q, &at, &f->counter, NULL);
		pc_queue_commit(f->q, at);
	}
	__this_cpu_write(pc_raise_ip, outer);
	pc_queue_unlock(f->q, flags);
	return site;
}

/* The chain read back: its header in *@head, its words in f->rec. */
static void pc_chain_read(struct kunit *test, struct pc_chain_fixture *f,
			  struct perf_counter_callchain *head)
{
	union {
		u64					word;
		struct perf_counter_record_header	h;
		struct perf_counter_callchain		c;
	} u;
	u32 words = pc_queue_kunit_copy(f->q, f->rec, ARRAY_SIZE(f->rec));

	KUNIT_ASSERT_GE(test, words, 2);
	u.word = f->rec[0];
	KUNIT_EXPECT_EQ(test, u.h.type, PERF_COUNTER_REC_SAMPLE);
	u.word = f->rec[1];
	*head = u.c;
	KUNIT_EXPECT_EQ(test, words, 2 + head->nr);
	u.word = f->rec[0];
	KUNIT_EXPECT_EQ(test, u.h.size, (2 + head->nr) * sizeof(u64));
}

static void raised_event_chain_starts_at_the_raise_site(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	struct perf_counter_callchain head;
	unsigned long site = pc_chain_raise(f, 0);

	pc_chain_read(test, f, &head);
	KUNIT_ASSERT_GE(test, head.nr, 2);
	KUNIT_EXPECT_EQ(test, f->rec[2], (u64)PERF_CONTEXT_KERNEL);
	KUNIT_EXPECT_EQ(test, f->rec[3], (u64)site);
	/* a kunit thread's stack ends within 32 frames */
	KUNIT_EXPECT_EQ(test, head.flags, PERF_COUNTER_CHAIN_COMPLETE);
}

static void raise_site_not_on_the_stack_breaks_the_chain(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	struct perf_counter_callchain head;

	pc_chain_raise(f, 1);		/* no return address is 1 */
	pc_chain_read(test, f, &head);
	KUNIT_EXPECT_EQ(test, head.nr, 1);	/* the marker alone */
	KUNIT_EXPECT_EQ(test, f->rec[2], (u64)PERF_CONTEXT_KERNEL);
	KUNIT_EXPECT_EQ(test, head.flags, PERF_COUNTER_CHAIN_BROKEN);
}

static void depth_cuts_the_chain_and_says_truncated(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	struct perf_counter_callchain head;
	unsigned long site;

	f->counter.chain_depth = 1;
	site = pc_chain_raise(f, 0);
	pc_chain_read(test, f, &head);
	KUNIT_EXPECT_EQ(test, head.nr, 2);
	KUNIT_EXPECT_EQ(test, f->rec[3], (u64)site);
	KUNIT_EXPECT_EQ(test, head.flags, PERF_COUNTER_CHAIN_TRUNCATED);
}

static void exclude_kernel_chain_has_no_kernel_word(struct kunit *test)
{
	struct pc_chain_fixture *f = test->priv;
	struct perf_counter_callchain head;

	f->counter.hw_event.exclude_kernel = 1;
	pc_chain_raise(f, 0);
	pc_chain_read(test, f, &head);
	/* no kernel part, and exclude_user: no user part */
	KUNIT_EXPECT_EQ(test, head.nr, 0);
	KUNIT_EXPECT_EQ(test, head.flags, PERF_COUNTER_CHAIN_COMPLETE);
}

static struct kunit_case pc_chain_cases[] = {
	KUNIT_CASE(raised_event_chain_starts_at_the_raise_site),
	KUNIT_CASE(raise_site_not_on_the_stack_breaks_the_chain),
	KUNIT_CASE(depth_cuts_the_chain_and_says_truncated),
	KUNIT_CASE(exclude_kernel_chain_has_no_kernel_word),
	{}
};

static struct kunit_suite pc_chain_suite = {
	.name = "perf_counter_callchain",
	.init = pc_chain_test_init,
	.exit = pc_chain_test_exit,
	.test_cases = pc_chain_cases,
};
kunit_test_suite(pc_chain_suite);
