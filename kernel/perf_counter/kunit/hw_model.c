// SPDX-License-Identifier: GPL-2.0
/*
 * Counters for the register-model suites, see hw_model.h.
 */
#include "hw_model.h"

struct perf_counter_hw_event pc_hw_model_generic(unsigned int id)
{
	struct perf_counter_hw_event hw = {
		.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE, id),
	};

	return hw;
}

struct perf_counter_hw_event pc_hw_model_raw(u64 code)
{
	struct perf_counter_hw_event hw = {
		.event_config = PERF_COUNTER_RAW_CONFIG(code),
	};

	return hw;
}

/* How many samples the queue holds; the last one's value field. */
u64 pc_hw_model_records(struct perf_counter *counter, u64 *last_value)
{
	struct pc_queue *q = counter->queue;
	unsigned long at = q->tail;
	u64 n = 0;

	while (at != q->head) {
		struct perf_counter_record_header h;
		u64 word = q->ring[at & q->mask];

		memcpy(&h, &word, sizeof(h));
		if (h.type == PERF_COUNTER_REC_SAMPLE) {
			*last_value = q->ring[(at + 1) & q->mask];
			n++;
		}
		at += h.size / sizeof(u64);
	}
	return n;
}

/*
 * How many samples the queue holds; the first @n words after the last
 * one's header (its fields in record_type order) into @words.
 */
u64 pc_hw_model_last_sample(struct perf_counter *counter, u64 *words,
			    unsigned int n)
{
	struct pc_queue *q = counter->queue;
	unsigned long at = q->tail;
	u64 samples = 0;
	unsigned int i;

	while (at != q->head) {
		struct perf_counter_record_header h;
		u64 word = q->ring[at & q->mask];

		memcpy(&h, &word, sizeof(h));
		if (h.type == PERF_COUNTER_REC_SAMPLE) {
			for (i = 0; i < n && i + 1 < h.size / sizeof(u64); i++)
				words[i] = q->ring[(at + 1 + i) & q->mask];
			samples++;
		}
		at += h.size / sizeof(u64);
	}
	return samples;
}

/* Samples the queue reported lost, and those still to be reported. */
u64 pc_hw_model_lost(struct perf_counter *counter)
{
	struct pc_queue *q = counter->queue;
	u64 lost = q->lost + atomic_long_read(&q->missed);
	unsigned long at = q->tail;

	while (at != q->head) {
		struct perf_counter_record_header h;
		u64 word = q->ring[at & q->mask];

		memcpy(&h, &word, sizeof(h));
		if (h.type == PERF_COUNTER_REC_LOST)
			lost += q->ring[(at + 1) & q->mask];
		at += h.size / sizeof(u64);
	}
	return lost;
}

static int pc_hw_model_start(struct perf_counter *counter)
{
	return -ENODEV;
}

static void pc_hw_model_nop(struct perf_counter *counter)
{
}

const struct pc_ops pc_hw_model_ops = {
	.start	= pc_hw_model_start,
	.stop	= pc_hw_model_nop,
	.read	= pc_hw_model_nop,
};

/*
 * A counter for @hw (with its extra_config_len bytes at @extra) decoded
 * by @pmu; NULL if the driver refuses it.
 */
struct perf_counter *pc_hw_model_counter(struct kunit *test,
					 const struct pc_pmu *pmu,
					 struct perf_counter_hw_event *hw,
					 const u64 *extra)
{
	struct perf_counter *counter;

	counter = pc_counter_alloc(hw, extra, &pc_hw_model_ops, -1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(counter));
	if (pc_hw_decode(pmu, counter)) {
		pc_counter_put(counter);
		return NULL;
	}
	return counter;
}

/* Take @counter off the model's registers if it is on, and free it. */
void pc_hw_model_free(struct pc_hw_cpu *cpuc, struct perf_counter *counter)
{
	local_irq_disable();
	pc_hw_cpu_del(cpuc, counter);
	local_irq_enable();
	pc_counter_put(counter);
}
