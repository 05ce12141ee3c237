// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what perf_counter_open() accepts — event_config encoding,
 * reserved bits, read_format, record types and counter kinds.
 */
#include <kunit/test.h>

#include "../internal.h"

static void hw_event_is_64_bytes_of_2009_then_the_extension(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct perf_counter_hw_event), 64);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event,
				       extra_config_len), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event, size), 44);
	KUNIT_EXPECT_EQ(test, sizeof(struct perf_counter_hw_event_ext), 96);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       callchain_depth), 64);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       sideband), 72);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       sample_freq), 80);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       switch_out), 88);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       switch_stack), 92);
	KUNIT_EXPECT_EQ(test, offsetof(struct perf_counter_hw_event_ext,
				       __reserved_7), 94);
}

static void event_config_fields_round_trip(struct kunit *test)
{
	u64 c = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS);

	KUNIT_EXPECT_EQ(test, c, 0x0100000000000002ULL);
	KUNIT_EXPECT_FALSE(test, PERF_COUNTER_IS_RAW(c));
	KUNIT_EXPECT_EQ(test, PERF_COUNTER_TYPE(c), PERF_TYPE_SOFTWARE);
	KUNIT_EXPECT_EQ(test, PERF_COUNTER_ID(c), PERF_COUNT_PAGE_FAULTS);

	/* The id field is 56 bits wide, not the mask the 2009 perf-counters.txt prints. */
	c = PERF_COUNTER_CONFIG(0x7f, 0x00ffffffffffffffULL);
	KUNIT_EXPECT_EQ(test, c, 0x7fffffffffffffffULL);
	KUNIT_EXPECT_EQ(test, PERF_COUNTER_TYPE(c), 0x7f);
	KUNIT_EXPECT_EQ(test, PERF_COUNTER_ID(c), 0x00ffffffffffffffULL);

	/* Type bits above 7 do not spill into raw_type. */
	c = PERF_COUNTER_CONFIG(0xff, 0);
	KUNIT_EXPECT_FALSE(test, PERF_COUNTER_IS_RAW(c));

	c = PERF_COUNTER_RAW_CONFIG(0x4064);
	KUNIT_EXPECT_TRUE(test, PERF_COUNTER_IS_RAW(c));
	KUNIT_EXPECT_EQ(test, c & PERF_COUNTER_CONFIG_MASK, 0x4064);
}

static struct perf_counter_hw_event sw_event(unsigned int id)
{
	struct perf_counter_hw_event hw = {
		.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, id),
	};
	return hw;
}

static void reserved_bits_are_refused(struct kunit *test)
{
	struct perf_counter_hw_event hw = sw_event(PERF_COUNT_TASK_CLOCK);
	int bit;

	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	for (bit = 0; bit < 53; bit++) {
		hw = sw_event(PERF_COUNT_TASK_CLOCK);
		hw.__reserved_1 = 1ULL << bit;
		KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	}
	hw = sw_event(PERF_COUNT_TASK_CLOCK);
	hw.__reserved_2 = 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	hw = sw_event(PERF_COUNT_TASK_CLOCK);
	hw.__reserved_3 = 1ULL << 63;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
}

static void chain_depth_needs_a_chain_and_a_limit(struct kunit *test)
{
	struct perf_counter_hw_event_ext d = {
		.hw = sw_event(PERF_COUNT_PAGE_FAULTS),
	};
	u32 max = pc_chain_depth_max();

	KUNIT_ASSERT_GT(test, max, 0);
	KUNIT_EXPECT_LE(test, max, PERF_COUNTER_CHAIN_DEPTH_MAX);
	d.hw.irq_period = 1;
	d.hw.record_type = PERF_RECORD_IRQ;
	d.callchain_depth = 1;		/* a depth without a chain */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.hw.record_type |= PERF_RECORD_CALLCHAIN;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	d.callchain_depth = max;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	d.callchain_depth = max + 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.callchain_depth = 0xffff;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);

	/* the reserved fields of the extension, and 2009's rules still */
	d.callchain_depth = 0;
	d.__reserved_5 = 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.__reserved_5 = 0;
	d.__reserved_6 = 1U << 31;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.__reserved_6 = 0;
	d.hw.__reserved_2 = 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.hw.__reserved_2 = 0;

	/* 0 is the default, kept by the counter from then on. */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	pc_hw_event_defaults(&d);
	KUNIT_EXPECT_EQ(test, d.callchain_depth,
			min_t(u32, max, PERF_COUNTER_CHAIN_DEPTH_DEFAULT));
	d.callchain_depth = 5;
	pc_hw_event_defaults(&d);
	KUNIT_EXPECT_EQ(test, d.callchain_depth, 5);

	/* No chain, no depth. */
	d.hw.record_type = PERF_RECORD_IRQ;
	d.callchain_depth = 0;
	pc_hw_event_defaults(&d);
	KUNIT_EXPECT_EQ(test, d.callchain_depth, 0);
}

static void read_format_and_record_type_are_checked(struct kunit *test)
{
	struct perf_counter_hw_event hw = sw_event(PERF_COUNT_TASK_CLOCK);

	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	hw.read_format = PERF_COUNTER_FORMAT_MASK;	/* ids, the group */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	hw.read_format = PERF_FORMAT_GROUP << 1;	/* an unknown bit */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);

	hw = sw_event(PERF_COUNT_PAGE_FAULTS);
	hw.record_type = PERF_RECORD_IRQ;	/* without a period */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	hw.irq_period = 1;			/* a sampling counter */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	hw.record_type = PERF_COUNTER_RECORD_MASK;	/* every field */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	hw.record_type = PERF_RECORD_ID << 1;	/* an unknown field */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	hw.record_type = PERF_RECORD_SIMPLE;	/* a period, no record */
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);

	hw = sw_event(PERF_COUNT_TASK_CLOCK);
	hw.extra_config_len = 8;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	/* Raw events may carry whole words, up to PC_EXTRA_WORDS. */
	hw.event_config = PERF_COUNTER_RAW_CONFIG(0x3a2);
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	hw.extra_config_len = 12;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	hw.extra_config_len = 8 * (PC_EXTRA_WORDS + 1);
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
}

static void clock_sampling_period_has_a_floor(struct kunit *test)
{
	struct perf_counter_hw_event hw;
	unsigned int id;

	for (id = PERF_COUNT_CPU_CLOCK; id <= PERF_COUNT_TASK_CLOCK; id++) {
		hw = sw_event(id);
		hw.record_type = PERF_RECORD_IRQ;
		hw.irq_period = PC_CLOCK_PERIOD_MIN - 1;
		KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
		hw.irq_period = PC_CLOCK_PERIOD_MIN;
		KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	}
}

/*
 * sample_freq: with a record_type and no irq_period, at most the sample
 * rate (a clock: one period every 50 us); a frequency counter asks for
 * side-band records as any sampler does; its first period is a clock's
 * exact 10^9 / freq ns, any other's one event.
 */
static void sample_freq_rules_and_first_period(struct kunit *test)
{
	struct perf_counter_hw_event_ext d = {
		.hw = sw_event(PERF_COUNT_PAGE_FAULTS),
		.sample_freq = 100,
	};

	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.hw.record_type = PERF_RECORD_IRQ;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	d.sideband = PERF_SIDEBAND_COMM;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	d.hw.irq_period = 10;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.hw.irq_period = 0;
	d.sample_freq = pc_freq_max(&d.hw);
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), 0);
	d.sample_freq++;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.sample_freq = 100;
	pc_hw_event_defaults(&d);
	KUNIT_EXPECT_EQ(test, d.hw.irq_period, 1);

	d.hw = sw_event(PERF_COUNT_TASK_CLOCK);
	d.hw.record_type = PERF_RECORD_IRQ;
	d.sample_freq = NSEC_PER_SEC / PC_CLOCK_PERIOD_MIN;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d),
			d.sample_freq <= pc_freq_max(&d.hw) ? 0 : -EINVAL);
	d.sample_freq++;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event_ext(&d), -EINVAL);
	d.sample_freq = 1000;
	pc_hw_event_defaults(&d);
	KUNIT_EXPECT_EQ(test, d.hw.irq_period, 1000000);
}

static void every_software_id_has_its_kind(struct kunit *test)
{
	struct perf_counter_hw_event hw;
	unsigned int id;

	for (id = 0; id < PERF_SW_EVENTS_MAX; id++) {
		hw = sw_event(id);
		KUNIT_EXPECT_PTR_EQ(test, pc_event_ops(&hw),
				    id <= PERF_COUNT_TASK_CLOCK ?
				    &pc_clock_ops : &pc_sw_event_ops);
	}
	hw = sw_event(PERF_SW_EVENTS_MAX);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pc_event_ops(&hw)), -EINVAL);
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pc_event_ops(&hw)), -EINVAL);
}

static void hardware_ids_and_raw_events_are_hardware_counters(struct kunit *test)
{
	struct perf_counter_hw_event hw = { };
	unsigned int id;

	/* Whether the PMU counts them is the driver's call, at init. */
	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE, id);
		KUNIT_EXPECT_PTR_EQ(test, pc_event_ops(&hw), &pc_hw_ops);
	}
	hw.event_config = PERF_COUNTER_RAW_CONFIG(0xc0);
	KUNIT_EXPECT_PTR_EQ(test, pc_event_ops(&hw), &pc_hw_ops);
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					      PERF_HW_EVENTS_MAX);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pc_event_ops(&hw)), -EINVAL);
	/* Which ids name a tracepoint is the tracing code's to say, at init. */
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, 1);
	if (IS_ENABLED(CONFIG_PERF_COUNTERS_TRACEPOINTS))
		KUNIT_EXPECT_PTR_EQ(test, pc_event_ops(&hw), &pc_tp_ops);
	else
		KUNIT_EXPECT_EQ(test, PTR_ERR(pc_event_ops(&hw)), -ENOENT);
	hw.event_config = PERF_COUNTER_CONFIG(3, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pc_event_ops(&hw)), -EINVAL);
}

static void read_size_follows_read_format(struct kunit *test)
{
	u64 times = PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING;

	KUNIT_EXPECT_EQ(test, pc_read_size(0, 1), 8);
	KUNIT_EXPECT_EQ(test, pc_read_size(PERF_FORMAT_TOTAL_TIME_ENABLED, 1),
			16);
	KUNIT_EXPECT_EQ(test, pc_read_size(PERF_FORMAT_TOTAL_TIME_RUNNING, 1),
			16);
	KUNIT_EXPECT_EQ(test, pc_read_size(times | PERF_FORMAT_ID, 1), 32);
	/* a group: nr and the times once, then value (and id) each */
	KUNIT_EXPECT_EQ(test, pc_read_size(PERF_FORMAT_GROUP, 8), 8 + 8 * 8);
	KUNIT_EXPECT_EQ(test, pc_read_size(PERF_COUNTER_FORMAT_MASK, 64),
			24 + 64 * 16);
}

static void inherit_stat_needs_inherit(struct kunit *test)
{
	struct perf_counter_hw_event hw = sw_event(PERF_COUNT_PAGE_FAULTS);

	hw.inherit_stat = 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), -EINVAL);
	hw.inherit = 1;
	KUNIT_EXPECT_EQ(test, pc_check_hw_event(&hw), 0);
	/* a counting counter with exits' totals has a queue, headered */
	KUNIT_EXPECT_TRUE(test, pc_has_records(&hw));
	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_IRQ;
	KUNIT_EXPECT_FALSE(test, pc_format_2009(&hw, 0));
}

static struct kunit_case pc_config_cases[] = {
	KUNIT_CASE(hw_event_is_64_bytes_of_2009_then_the_extension),
	KUNIT_CASE(event_config_fields_round_trip),
	KUNIT_CASE(reserved_bits_are_refused),
	KUNIT_CASE(inherit_stat_needs_inherit),
	KUNIT_CASE(chain_depth_needs_a_chain_and_a_limit),
	KUNIT_CASE(read_format_and_record_type_are_checked),
	KUNIT_CASE(clock_sampling_period_has_a_floor),
	KUNIT_CASE(sample_freq_rules_and_first_period),
	KUNIT_CASE(every_software_id_has_its_kind),
	KUNIT_CASE(hardware_ids_and_raw_events_are_hardware_counters),
	KUNIT_CASE(read_size_follows_read_format),
	{}
};

static struct kunit_suite pc_config_suite = {
	.name = "perf_counter_config",
	.test_cases = pc_config_cases,
};
kunit_test_suite(pc_config_suite);
