// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: what a Linux security module decides.
 *
 * A security module governs perf_counter through the five hooks it
 * governs 6.1's perf_events by (include/linux/lsm_hook_defs.h), asked
 * at the same points with the same meaning, so a policy written for
 * perf_events (SELinux's perf_event class, a BPF LSM program) holds
 * for perf_counter too:
 *
 *   perf_event_open	at perf_counter_open(), once the description's
 *			form is checked and kernel.perf_event_paranoid 3
 *			has refused the unprivileged (as Debian's
 *			perf_event_open() orders them): PERF_SECURITY_OPEN
 *			for every open; then, each after
 *			the kernel.perf_event_paranoid check for the same
 *			thing (paranoid.c), PERF_SECURITY_KERNEL for a
 *			counter that counts kernel mode, PERF_SECURITY_CPU
 *			for a CPU-wide counter (pid -1) and for an event
 *			that counts the whole core (P4's events shared by
 *			its threads), and PERF_SECURITY_TRACEPOINT for a
 *			tracepoint counter that counts kernel mode (one
 *			that puts a probe on a tracepoint). perf_events
 *			asks the last only for raw tracepoint data, which
 *			perf_counter never records: here every probe a
 *			counter puts on is the module's to allow. An
 *			inherited copy is not asked again (perf_events asks
 *			CPU again for P4's shared events at each fork): a
 *			copy has what its opener was given, as with
 *			kernel.perf_event_paranoid.
 *   perf_event_alloc	for every counter made, inherited copies too (in
 *			the forking task, as perf_events does), once its
 *			kind has accepted it; a refusal fails the open or
 *			the fork, as ENOMEM would.
 *   perf_event_free	for each of them, when it is freed.
 *   perf_event_read	read() and readv(), and mmap() of the counter page.
 *   perf_event_write	every ioctl(); and in prctl(), for each group on
 *			the caller: a group whose leader the module will
 *			not let the caller write is left as it is, as a
 *			more privileged monitor's is (group.c). An
 *			inherited copy is asked about as its top-level
 *			counter, the one its opener made: a copy's own
 *			blob is the forking task's (perf_events makes it
 *			so too), and which task holds which copy is not
 *			even fixed, clone contexts being swapped between
 *			tasks at a switch (swap.c).
 *
 * A refusal is the module's errno (SELinux's and a BPF LSM program's
 * is usually EACCES), returned as it is.
 *
 * The hooks take perf_events' structures. The open hook is given a
 * struct perf_event_attr made from the counter's description
 * (pc_lsm_attr()). The other four are given a counter's struct
 * perf_event shell, made with the counter: its attr is that same
 * translation, its cpu the counter's, and its security field the
 * module's own blob (SELinux keeps the opener's SID there and compares
 * it with the reader's or writer's); every other field is zero. A
 * module that reads more of a perf_event than that sees an event that
 * is not on any PMU or context.
 *
 * Without CONFIG_SECURITY, or without perf_events (whose header
 * declares the hooks), there is nothing to ask: this file is not built
 * and counters carry no shell (CONFIG_PERF_COUNTERS_LSM).
 */
#include <linux/perf_event.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "internal.h"

/*
 * The perf_events description of @desc (with @extra, its extra control
 * words, or NULL): the event, its period and the flags both ABIs
 * share, what its samples hold in perf_events' terms, the depth of
 * their call chains (sample_max_stack), the user stack words of its
 * switch records (as a user stack dump), and the side-band records it
 * asks for (mmap, comm, task). The extra
 * words (P4's ESCR, PowerPC's threshold) go in config1 and config2 as
 * they come, since they select the event too: a module filtering raw
 * events sees all of it, though not packed as a perf_events driver
 * packs it.
 */
static void pc_lsm_attr(const struct perf_counter_hw_event_ext *desc,
			const u64 *extra, struct perf_event_attr *attr)
{
	const struct perf_counter_hw_event *hw = &desc->hw;
	/* each record field, and the sample field that holds the same */
	static const struct {
		u64 record, sample;
	} fields[] = {
		{ PERF_RECORD_IRQ,	PERF_SAMPLE_IP },
		{ PERF_RECORD_TID,	PERF_SAMPLE_TID },
		{ PERF_RECORD_TIME,	PERF_SAMPLE_TIME },
		{ PERF_RECORD_VALUE | PERF_RECORD_GROUP, PERF_SAMPLE_READ },
		{ PERF_RECORD_CALLCHAIN, PERF_SAMPLE_CALLCHAIN },
		{ PERF_RECORD_PERIOD,	PERF_SAMPLE_PERIOD },
	};
	u64 config = hw->event_config;
	bool raw = PERF_COUNTER_IS_RAW(config);
	size_t words = extra ? hw->extra_config_len / sizeof(u64) : 0;
	unsigned int i;

	*attr = (struct perf_event_attr) {
		.size		= sizeof(*attr),
		.type		= raw ? PERF_TYPE_RAW : PERF_COUNTER_TYPE(config),
		.config		= raw ? config & PERF_COUNTER_CONFIG_MASK :
					PERF_COUNTER_ID(config),
		.config1	= words > 0 ? extra[0] : 0,
		.config2	= words > 1 ? extra[1] : 0,
		.sample_period	= desc->sample_freq ?: hw->irq_period,
		.freq		= !!desc->sample_freq,
		.read_format	= hw->read_format |
				  (hw->record_type & PERF_RECORD_GROUP ?
				   PERF_FORMAT_GROUP : 0),
		.disabled	= hw->disabled,
		.inherit	= hw->inherit,
		.pinned		= hw->pinned,
		.exclusive	= hw->exclusive,
		.exclude_user	= hw->exclude_user,
		.exclude_kernel	= hw->exclude_kernel,
		.exclude_hv	= hw->exclude_hv,
		.exclude_idle	= hw->exclude_idle,
		.context_switch	= hw->context_switch,
		.sample_max_stack = desc->callchain_depth,
		.mmap		= !!(desc->sideband & PERF_SIDEBAND_MMAP),
		.comm		= !!(desc->sideband & PERF_SIDEBAND_COMM),
		.task		= !!(desc->sideband & PERF_SIDEBAND_TASK),
	};
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (hw->record_type & fields[i].record)
			attr->sample_type |= fields[i].sample;
	/* switch records' user stack words: perf_events' user stack dump */
	if (desc->switch_stack) {
		attr->sample_type |= PERF_SAMPLE_STACK_USER;
		attr->sample_stack_user = desc->switch_stack * sizeof(u64);
	}
}

/**
 * pc_lsm_open() - may current open a counter of this description?
 * @desc:	the description, defaults filled in
 * @extra:	its extra control words, or NULL
 * @type:	what is asked: PERF_SECURITY_OPEN, _CPU, _KERNEL or
 *		_TRACEPOINT (see the top of this file for when)
 *
 * Return: 0, or the security module's errno.
 */
int pc_lsm_open(const struct perf_counter_hw_event_ext *desc,
		const u64 *extra, int type)
{
	struct perf_event_attr attr;

	pc_lsm_attr(desc, extra, &attr);
	return security_perf_event_open(&attr, type);
}

/**
 * pc_lsm_alloc() - give a new counter its perf_event shell and the
 * security module its blob
 * @counter:	the counter, made but installed nowhere, @lsm_event NULL
 *
 * The shell is charged to current's memory cgroup, as the counter is.
 *
 * Return: 0, -ENOMEM, or the module's errno; on an error @counter has
 * no shell, and pc_lsm_free() does nothing.
 */
int pc_lsm_alloc(struct perf_counter *counter)
{
	struct perf_counter_hw_event_ext desc = pc_counter_desc(counter);
	struct perf_event *event;
	int err;

	event = kzalloc(sizeof(*event), GFP_KERNEL_ACCOUNT);
	if (!event)
		return -ENOMEM;
	pc_lsm_attr(&desc, counter->extra_config, &event->attr);
	event->cpu = counter->cpu;
	event->oncpu = -1;
	err = security_perf_event_alloc(event);
	if (err) {
		kfree(event);
		return err;
	}
	counter->lsm_event = event;
	return 0;
}

/**
 * pc_lsm_free() - end a counter's shell and the module's blob
 * @counter:	the counter being freed
 */
void pc_lsm_free(struct perf_counter *counter)
{
	struct perf_event *event = counter->lsm_event;

	if (!event)
		return;
	security_perf_event_free(event);
	kfree(event);
	counter->lsm_event = NULL;
}

/**
 * pc_lsm_read() - may current read this counter (read(), mmap(), the
 * ID and READ ioctls)?
 * @counter:	a top-level counter, through its file
 *
 * Return: 0, or the security module's errno.
 */
int pc_lsm_read(struct perf_counter *counter)
{
	return security_perf_event_read(counter->lsm_event);
}

/**
 * pc_lsm_write() - may current change this counter (the other ioctls,
 * prctl())?
 * @counter:	a top-level counter through its file, or a group leader
 *		on current's context
 *
 * Return: 0, or the security module's errno.
 */
int pc_lsm_write(struct perf_counter *counter)
{
	return security_perf_event_write(counter->lsm_event);
}
