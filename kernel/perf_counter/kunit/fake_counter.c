// SPDX-License-Identifier: GPL-2.0
/*
 * The fake counter kind shared by the KUnit suites.
 */
#include "fake_counter.h"

u64 pc_fake_fail_config = ~0ULL;
int pc_fake_running;
int pc_fake_capacity = INT_MAX;

static int pc_fake_start(struct perf_counter *counter)
{
	if (counter->hw_event.event_config == pc_fake_fail_config ||
	    pc_fake_running >= pc_fake_capacity)
		return -ENOSPC;
	pc_fake_running++;
	return 0;
}

static void pc_fake_stop(struct perf_counter *counter)
{
	pc_fake_running--;
}

static void pc_fake_read(struct perf_counter *counter)
{
}

static const struct pc_ops pc_fake_ops = {
	.start	= pc_fake_start,
	.stop	= pc_fake_stop,
	.read	= pc_fake_read,
};

/* An enabled counter in @set; it joins @leader's group if given. */
struct perf_counter *pc_fake_counter(struct kunit *test,
				     struct pc_fake_set *set, u64 config,
				     struct perf_counter *leader)
{
	struct perf_counter_hw_event_ext desc = {
		.hw = { .event_config = config },
	};
	struct perf_counter *counter;

	KUNIT_ASSERT_LT(test, set->nr, PC_FAKE_MAX);
	counter = pc_counter_alloc(&desc, NULL, &pc_fake_ops, -1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(counter));
	if (leader) {
		counter->leader = leader;
		list_add_tail(&counter->group_entry, &leader->siblings);
	}
	set->counter[set->nr++] = counter;
	return counter;
}

void pc_fake_free_all(struct pc_fake_set *set)
{
	while (set->nr) {
		struct perf_counter *counter = set->counter[--set->nr];

		list_del_init(&counter->group_entry);
		pc_counter_put(counter);
	}
}
