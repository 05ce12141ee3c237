/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every register-model suite needs to run a real PMU driver under
 * KUnit: counters decoded by the driver but never put on a real CPU,
 * the hw_events to make them, and a look into their sample queues.
 */
#ifndef _PERF_COUNTER_KUNIT_HW_MODEL_H
#define _PERF_COUNTER_KUNIT_HW_MODEL_H

#include <kunit/test.h>
#include <linux/perf_counter_hw.h>

#include "../internal.h"

/* The kind of the counters the model suites decode: never on a CPU. */
extern const struct pc_ops pc_hw_model_ops;

struct perf_counter *pc_hw_model_counter(struct kunit *test,
					 const struct pc_pmu *pmu,
					 struct perf_counter_hw_event *hw,
					 const u64 *extra);
void pc_hw_model_free(struct pc_hw_cpu *cpuc, struct perf_counter *counter);

struct perf_counter_hw_event pc_hw_model_generic(unsigned int id);
struct perf_counter_hw_event pc_hw_model_raw(u64 code);
u64 pc_hw_model_records(struct perf_counter *counter, u64 *last_value);
u64 pc_hw_model_last_sample(struct perf_counter *counter, u64 *words,
			    unsigned int n);
u64 pc_hw_model_lost(struct perf_counter *counter);

#endif
