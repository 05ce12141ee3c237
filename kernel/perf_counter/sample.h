/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: sampling and records (sample.c), as the rest of the core
 * sees them: the records a counter writes, its periods, and which of the
 * two record formats its queue reads in.
 */
#ifndef _KERNEL_PERF_COUNTER_SAMPLE_H
#define _KERNEL_PERF_COUNTER_SAMPLE_H

#include <linux/jump_label_ratelimit.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/perf_counter.h>
#include <linux/types.h>

struct perf_counter;
struct perf_counter_context;
struct pc_queue;
struct pid_namespace;
struct pt_regs;
struct task_struct;

u32 pc_record_words_max(struct perf_counter *counter, u32 joining);
int pc_counter_queue_resize(struct perf_counter *counter, u32 bytes);
int pc_group_record_fits(struct perf_counter *leader);
bool pc_sample(struct perf_counter *counter, struct pt_regs *regs);
void pc_sample_write(struct perf_counter *counter, struct pt_regs *regs);
bool pc_sample_excluded(const struct perf_counter *counter,
			struct pt_regs *regs);
void pc_sample_periods(struct perf_counter *counter, struct pt_regs *regs);
void pc_sample_lost(struct perf_counter *counter, u64 n);
void pc_ctx_switch_records(struct perf_counter_context *ctx, u32 kind,
			   struct task_struct *task, struct task_struct *other);
extern struct static_key_false_deferred pc_switch_key;

u64 pc_task_ids(struct task_struct *task, struct pid_namespace *ns);

/* Side-band records (sideband.c) */
u32 pc_sideband_words_max(const struct perf_counter *counter);
void pc_sideband_exit(struct perf_counter_context *ctx,
		      struct task_struct *task);
void pc_sideband_exit_cpu(struct task_struct *task);

/* Call chains (callchain.c) */
struct pc_chain;
int pc_chain_bufs_get(void);
void pc_chain_bufs_put(void);
u32 pc_chain_words(const struct perf_counter *counter);
bool pc_chain_take(struct pc_chain *c, struct perf_counter *counter,
		   struct pt_regs *regs);
bool pc_chain_take_switch(struct pc_chain *c, struct perf_counter *counter);
void pc_chain_done(struct pc_chain *c);
DECLARE_PER_CPU(unsigned long, pc_raise_ip);

/**
 * struct pc_raise - where a software event or tracepoint hit was raised
 * @outer:	the raise site of the event this one interrupted, if any
 * @noted:	whether pc_raise_note() set this CPU's pc_raise_ip
 *
 * An entry point notes its return address in pc_raise_ip only once it
 * meets a counter that samples: an event that samples nothing costs no
 * per-CPU write. pc_raise_done() puts back what it found.
 */
struct pc_raise {
	unsigned long	outer;
	bool		noted;
};

static inline void pc_raise_note(struct pc_raise *r, unsigned long ip)
{
	if (r->noted)
		return;
	r->outer = __this_cpu_read(pc_raise_ip);
	__this_cpu_write(pc_raise_ip, ip);
	r->noted = true;
}

static inline void pc_raise_done(struct pc_raise *r)
{
	if (r->noted)
		__this_cpu_write(pc_raise_ip, r->outer);
}

/**
 * pc_periods_due() - how many periods of @period ran out at @left
 * @left:	events left to the next sample; <= 0 when one is due
 * @period:	irq_period, 1 to 2^63 - 1
 *
 * Add the result times @period to @left to start the next period where
 * the count stands: @left > -2^63 and @period < 2^63, so that fits. The
 * usual case, one period, costs no division (a library call on 32-bit,
 * and this runs in the overflow NMI).
 *
 * Return: 0 if none is due.
 */
static inline u64 pc_periods_due(s64 left, u64 period)
{
	if (left > 0)
		return 0;
	if ((u64)-left < period)
		return 1;
	return div64_u64((u64)-left, period) + 1;
}

/*
 * The 2009 perf-counters.txt's records, with no header: a sampling counter whose
 * record_type is PERF_RECORD_IRQ or PERF_RECORD_GROUP alone, and no
 * switch or side-band records. Every other counter with a queue reads
 * records with headers (see the uapi header).
 */
static inline bool pc_format_2009(const struct perf_counter_hw_event *hw,
				  u64 sideband)
{
	return (hw->record_type == PERF_RECORD_IRQ ||
		hw->record_type == PERF_RECORD_GROUP) && !hw->context_switch &&
	       !hw->inherit_stat && !sideband;
}

/*
 * Sampling counters and those asking for switch records or exits'
 * totals have a queue.
 */
static inline bool pc_has_records(const struct perf_counter_hw_event *hw)
{
	return hw->irq_period || hw->context_switch || hw->inherit_stat;
}

#endif /* _KERNEL_PERF_COUNTER_SAMPLE_H */
