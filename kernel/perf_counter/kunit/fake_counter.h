/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counter kind for the KUnit suites: it counts nothing and its start
 * fails on demand, as a PMU driver's does when no register is free.
 */
#ifndef _PERF_COUNTER_KUNIT_FAKE_H
#define _PERF_COUNTER_KUNIT_FAKE_H

#include <kunit/test.h>

#include "../internal.h"

#define PC_FAKE_MAX	8

/* The counters one test made, freed by pc_fake_free_all(). */
struct pc_fake_set {
	struct perf_counter	*counter[PC_FAKE_MAX];
	int			nr;
};

/* event_config of the counter whose start fails, or ~0 for none. */
extern u64 pc_fake_fail_config;
/* How many fake counters are on the CPU now, and how many fit. */
extern int pc_fake_running;
extern int pc_fake_capacity;

struct perf_counter *pc_fake_counter(struct kunit *test,
				     struct pc_fake_set *set, u64 config,
				     struct perf_counter *leader);
void pc_fake_free_all(struct pc_fake_set *set);

#endif
