// SPDX-License-Identifier: GPL-2.0
/*
 * Counters for the register-model suites, see hw_model.h.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

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

/*
 * The words of @counter's records not yet read, copied from its queue
 * (pc_queue_kunit_copy()), for the caller to kvfree(); NULL without
 * memory, which the callers' counts then show as no record.
 */
static u64 *pc_hw_model_words(struct perf_counter *counter, u32 *nr)
{
	u32 max = pc_queue_words(counter->queue);
	u64 *buf = kvmalloc_array(max, sizeof(u64), GFP_KERNEL);

	*nr = buf ? pc_queue_kunit_copy(counter->queue, buf, max) : 0;
	return buf;
}

/* The size in words of the record whose header is @word (0 if torn). */
static u32 pc_hw_model_record(u64 word, u32 *type)
{
	struct perf_counter_record_header h;

	memcpy(&h, &word, sizeof(h));
	*type = h.type;
	return h.size / sizeof(u64);
}

/* How many samples the queue holds; the last one's value field. */
u64 pc_hw_model_records(struct perf_counter *counter, u64 *last_value)
{
	u64 n = 0;
	u32 nr, at, size, type;
	u64 *w = pc_hw_model_words(counter, &nr);

	for (at = 0; at < nr; at += size) {
		size = pc_hw_model_record(w[at], &type);
		if (!size || at + size > nr)
			break;
		if (type == PERF_COUNTER_REC_SAMPLE && size > 1) {
			*last_value = w[at + 1];
			n++;
		}
	}
	kvfree(w);
	return n;
}

/*
 * How many samples the queue holds; the first @n words after the last
 * one's header (its fields in record_type order) into @words.
 */
u64 pc_hw_model_last_sample(struct perf_counter *counter, u64 *words,
			    unsigned int n)
{
	u64 samples = 0;
	u32 nr, at, size, type, i;
	u64 *w = pc_hw_model_words(counter, &nr);

	for (at = 0; at < nr; at += size) {
		size = pc_hw_model_record(w[at], &type);
		if (!size || at + size > nr)
			break;
		if (type == PERF_COUNTER_REC_SAMPLE) {
			for (i = 0; i < n && i + 1 < size; i++)
				words[i] = w[at + 1 + i];
			samples++;
		}
	}
	kvfree(w);
	return samples;
}

/* Samples the queue reported lost, and those still to be reported. */
u64 pc_hw_model_lost(struct perf_counter *counter)
{
	u64 lost = pc_queue_kunit_lost(counter->queue);
	u32 nr, at, size, type;
	u64 *w = pc_hw_model_words(counter, &nr);

	for (at = 0; at < nr; at += size) {
		size = pc_hw_model_record(w[at], &type);
		if (!size || at + size > nr)
			break;
		if (type == PERF_COUNTER_REC_LOST && size > 1)
			lost += w[at + 1];
	}
	kvfree(w);
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
	.caps	= PC_CAP_REGISTER,		/* its period left in hw.left */
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
	struct perf_counter_hw_event_ext desc = { .hw = *hw };
	struct perf_counter *counter;

	if (hw->record_type & PERF_RECORD_CALLCHAIN)
		desc.callchain_depth = PERF_COUNTER_CHAIN_DEPTH_DEFAULT;
	counter = pc_counter_alloc(&desc, extra, &pc_hw_model_ops, -1, NULL);
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
