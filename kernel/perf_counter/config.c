// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: what user space may ask for.
 *
 * Everything here is a function of its arguments and of two sysctls
 * (kernel.perf_event_max_stack and _max_sample_rate), so the KUnit suites can check every rule
 * without opening a counter.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>

#include "internal.h"

/**
 * pc_chain_depth_max() - the deepest call chain a counter may ask for
 *
 * Return: PERF_COUNTER_CHAIN_DEPTH_MAX, or kernel.perf_event_max_stack
 * if that is lower (perf_events' limit binds both subsystems).
 */
u32 pc_chain_depth_max(void)
{
	int max = PERF_COUNTER_CHAIN_DEPTH_MAX;

#ifdef CONFIG_PERF_EVENTS
	max = min(max, READ_ONCE(sysctl_perf_event_max_stack));
#endif
	return max_t(int, max, 0);
}

/* cpu-clock and task-clock, whose periods are ns of their own time */
bool pc_hw_event_is_clock(const struct perf_counter_hw_event *hw)
{
	u64 config = hw->event_config;

	return !PERF_COUNTER_IS_RAW(config) &&
	       PERF_COUNTER_TYPE(config) == PERF_TYPE_SOFTWARE &&
	       PERF_COUNTER_ID(config) <= PERF_COUNT_TASK_CLOCK;
}

/**
 * pc_freq_max() - the most samples a second a counter may ask for
 * @hw:		its description
 *
 * Return: kernel.perf_event_max_sample_rate (as perf_events' limit on
 * its own frequencies) up to PC_FREQ_MAX, for a clock no more than one
 * sample every PC_CLOCK_PERIOD_MIN ns allows.
 */
u64 pc_freq_max(const struct perf_counter_hw_event *hw)
{
	u64 max = min_t(u64, pc_sample_rate_max(), PC_FREQ_MAX);

	if (pc_hw_event_is_clock(hw))
		max = min_t(u64, max, NSEC_PER_SEC / PC_CLOCK_PERIOD_MIN);
	return max;
}

/**
 * pc_freq_first_period() - a frequency counter's first period
 * @hw:		its description
 * @freq:	its sample_freq, 1 to pc_freq_max()
 *
 * A clock's is exact, ns a sample; a count of events starts at one
 * event and is retuned from the rate seen (period.c).
 *
 * Return: the period.
 */
u64 pc_freq_first_period(const struct perf_counter_hw_event *hw, u64 freq)
{
	if (pc_hw_event_is_clock(hw))
		return div64_u64(NSEC_PER_SEC, freq);
	return 1;
}

/**
 * pc_hw_event_defaults() - fill in what a description left to the kernel
 * @desc:	a description that passed pc_check_hw_event_ext()
 *
 * A call chain's depth, 0, becomes PERF_COUNTER_CHAIN_DEPTH_DEFAULT (or
 * pc_chain_depth_max() if lower), so that the counter and its inherited
 * copies keep the depth they were opened with. A frequency counter's
 * irq_period, 0, becomes its first period.
 */
void pc_hw_event_defaults(struct perf_counter_hw_event_ext *desc)
{
	if (desc->sample_freq)
		desc->hw.irq_period = pc_freq_first_period(&desc->hw,
							   desc->sample_freq);
	if ((desc->hw.record_type & PERF_RECORD_CALLCHAIN) &&
	    !desc->callchain_depth)
		desc->callchain_depth =
			min_t(u32, PERF_COUNTER_CHAIN_DEPTH_DEFAULT,
			      pc_chain_depth_max());
}

/*
 * What switch-out records carry: chains only with switch records and a
 * chain's bit (whose depth they take), user stack words only with a
 * chain of user mode, and no more of them than the kernel copies.
 */
static int pc_check_switch_out(const struct perf_counter_hw_event_ext *desc)
{
	if (desc->__reserved_7 || desc->switch_out & ~PERF_SWITCH_OUT_MASK)
		return -EINVAL;
	if ((desc->switch_out & PERF_SWITCH_OUT_CHAIN) &&
	    (!desc->hw.context_switch ||
	     !(desc->hw.record_type & PERF_RECORD_CALLCHAIN)))
		return -EINVAL;
	if (desc->switch_stack &&
	    (!(desc->switch_out & PERF_SWITCH_OUT_CHAIN) ||
	     desc->hw.exclude_user ||
	     desc->switch_stack > PERF_SWITCH_STACK_MAX))
		return -EINVAL;
	return 0;
}

/**
 * pc_check_hw_event_ext() - refuse a malformed description, 2009's fields
 *			     and those added since
 * @desc:	the description copied from user space, its fields past
 *		the caller's size zero
 *
 * Return: 0, or pc_check_hw_event()'s -EINVAL, or -EINVAL for reserved
 * fields set, a callchain_depth without PERF_RECORD_CALLCHAIN or above
 * pc_chain_depth_max(), a chain where that is 0, unknown side-band
 * bits, side-band records for a counter without a queue, records of
 * executable mappings for one that excludes user mode (no sample of it
 * needs them), or a sample_freq with an irq_period, without a
 * record_type, or above pc_freq_max(); or switch-out chains without
 * switch records or a chain, and user stack words without a chain of
 * user mode or more than PERF_SWITCH_STACK_MAX of them.
 */
int pc_check_hw_event_ext(const struct perf_counter_hw_event_ext *desc)
{
	struct perf_counter_hw_event hw = desc->hw;
	int err;

	/*
	 * A frequency counter: its first period is the kernel's
	 * (pc_hw_event_defaults()), checked as any period would be.
	 */
	if (desc->sample_freq) {
		if (hw.irq_period || !hw.record_type ||
		    desc->sample_freq > pc_freq_max(&hw))
			return -EINVAL;
		hw.irq_period = pc_freq_first_period(&hw, desc->sample_freq);
	}
	err = pc_check_hw_event(&hw);
	if (err)
		return err;
	if (desc->__reserved_5 || desc->__reserved_6)
		return -EINVAL;
	/* A depth only for a chain, and no deeper than the kernel allows. */
	if (desc->callchain_depth &&
	    (!(desc->hw.record_type & PERF_RECORD_CALLCHAIN) ||
	     desc->callchain_depth > pc_chain_depth_max()))
		return -EINVAL;
	/* No chain at all where kernel.perf_event_max_stack is 0. */
	if ((desc->hw.record_type & PERF_RECORD_CALLCHAIN) &&
	    !pc_chain_depth_max())
		return -EINVAL;
	/* Side-band records go to a queue: a sampler's or a switch log's. */
	if (desc->sideband & ~(u64)PERF_SIDEBAND_MASK ||
	    (desc->sideband && !pc_has_records(&hw)))
		return -EINVAL;
	if ((desc->sideband & PERF_SIDEBAND_MMAP) && desc->hw.exclude_user)
		return -EINVAL;
	return pc_check_switch_out(desc);
}

/**
 * pc_check_hw_event() - refuse a malformed counter description
 * @hw_event: the description copied from user space
 *
 * A sampling counter has both irq_period and record_type set, and a
 * period below 2^63 (PC_PERIOD_MAX), which a signed 64-bit count of
 * events left can hold; a clock counter samples at most every
 * PC_CLOCK_PERIOD_MIN ns, so a timer cannot take the machine.
 *
 * Return: 0, or -EINVAL for reserved bits, unknown read_format or
 * record_type bits, inherit_stat without inherit, half a sampling
 * request, a period of 2^63 or more,
 * a clock period under the floor, and extra configuration words on
 * other than a raw event, not whole words, or more than PC_EXTRA_WORDS
 * of them.
 */
int pc_check_hw_event(const struct perf_counter_hw_event *hw_event)
{
	u64 config = hw_event->event_config;

	if (hw_event->__reserved_1 || hw_event->__reserved_2 ||
	    hw_event->__reserved_3)
		return -EINVAL;
	if (hw_event->read_format & ~(u64)PERF_COUNTER_FORMAT_MASK)
		return -EINVAL;
	if (hw_event->record_type & ~(u64)PERF_COUNTER_RECORD_MASK)
		return -EINVAL;
	/* Exits' totals are of the tasks that inherit the counter. */
	if (hw_event->inherit_stat && !hw_event->inherit)
		return -EINVAL;
	/* A sampling counter needs both a period and a record type. */
	if (!hw_event->irq_period != !hw_event->record_type)
		return -EINVAL;
	if (hw_event->irq_period > PC_PERIOD_MAX)
		return -EINVAL;
	if (hw_event->irq_period && hw_event->irq_period < PC_CLOCK_PERIOD_MIN &&
	    pc_hw_event_is_clock(hw_event))
		return -EINVAL;
	/*
	 * Extra control words, whole __u64s after the struct, belong to
	 * raw hardware counters only; the driver says which it takes.
	 */
	if (hw_event->extra_config_len &&
	    (!PERF_COUNTER_IS_RAW(config) || hw_event->extra_config_len % 8 ||
	     hw_event->extra_config_len > PC_EXTRA_WORDS * sizeof(u64)))
		return -EINVAL;
	return 0;
}

/**
 * pc_event_ops() - the kind of counter an event_config names
 * @hw_event: a description that passed pc_check_hw_event()
 *
 * Generic hardware ids and raw events are hardware counters: whether
 * this CPU's PMU driver can count them is its decision, when the
 * counter is made (pc_hw_ops.init).
 *
 * Tracepoint ids are the tracing code's to know: whether one names a
 * static tracepoint is decided when the counter is made (pc_tp_ops.init).
 *
 * Return: the counter operations, or ERR_PTR(-EINVAL) for an unknown
 * type or id, ERR_PTR(-ENOENT) for a tracepoint on a kernel without
 * tracepoint counters.
 */
const struct pc_ops *pc_event_ops(const struct perf_counter_hw_event *hw_event)
{
	u64 config = hw_event->event_config;

	if (PERF_COUNTER_IS_RAW(config))
		return &pc_hw_ops;

	switch (PERF_COUNTER_TYPE(config)) {
	case PERF_TYPE_SOFTWARE:
		switch (PERF_COUNTER_ID(config)) {
		case PERF_COUNT_CPU_CLOCK:
		case PERF_COUNT_TASK_CLOCK:
			return &pc_clock_ops;
		case PERF_COUNT_PAGE_FAULTS:
		case PERF_COUNT_CONTEXT_SWITCHES:
		case PERF_COUNT_CPU_MIGRATIONS:
		case PERF_COUNT_PAGE_FAULTS_MIN:
		case PERF_COUNT_PAGE_FAULTS_MAJ:
			return &pc_sw_event_ops;
		}
		return ERR_PTR(-EINVAL);
	case PERF_TYPE_HARDWARE:
		if (PERF_COUNTER_ID(config) < PERF_HW_EVENTS_MAX)
			return &pc_hw_ops;
		return ERR_PTR(-EINVAL);
	case PERF_TYPE_TRACEPOINT:
		if (IS_ENABLED(CONFIG_PERF_COUNTERS_TRACEPOINTS))
			return &pc_tp_ops;
		return ERR_PTR(-ENOENT);
	default:
		return ERR_PTR(-EINVAL);
	}
}

/**
 * pc_check_group() - may a new counter join @leader's group?
 * @leader:	the counter named by group_fd
 * @hw_event:	the new counter's description
 * @ctx:	the context the new counter is for
 * @cpu:	the new counter's cpu argument
 *
 * A group lives in one context on one CPU filter, is led by a counter
 * that leads (not a member), and is inherited as a whole or not at all.
 * Only a leader may be pinned or exclusive, record its group, or read it
 * (PERF_FORMAT_GROUP).
 *
 * Return: 0 or -EINVAL.
 */
int pc_check_group(const struct perf_counter *leader,
		   const struct perf_counter_hw_event *hw_event,
		   const struct perf_counter_context *ctx, int cpu)
{
	if (!pc_is_leader(leader))
		return -EINVAL;
	if (leader->ctx != ctx || leader->cpu != cpu)
		return -EINVAL;
	if (hw_event->pinned || hw_event->exclusive ||
	    (hw_event->record_type & PERF_RECORD_GROUP) ||
	    (hw_event->read_format & PERF_FORMAT_GROUP))
		return -EINVAL;
	if (hw_event->inherit != leader->hw_event.inherit)
		return -EINVAL;
	return 0;
}

/**
 * pc_read_size() - bytes one read() of a counting counter returns
 * @read_format: the counter's PERF_FORMAT_* bits
 * @nr:		with PERF_FORMAT_GROUP, the counters in the group, its
 *		leader included (each a counter in memory: 16 bytes of
 *		read for each cannot wrap a size_t)
 *
 * Return: 8 for the value, 8 for each time and 8 for the id asked for;
 * with PERF_FORMAT_GROUP 8 for nr and the times, and per counter 8 for
 * its value and 8 for its id.
 */
size_t pc_read_size(u64 read_format, u32 nr)
{
	/* Not hweight64(): every read() asks, and without POPCNT it is a call. */
	size_t times = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t id = !!(read_format & PERF_FORMAT_ID);

	if (read_format & PERF_FORMAT_GROUP)
		return (1 + times + (size_t)nr * (1 + id)) * sizeof(u64);
	return (1 + times + id) * sizeof(u64);
}
