// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: software event counters — page faults (all, minor,
 * major), context switches and CPU migrations.
 *
 * A counter that is on a CPU sits on that CPU's list for its event; the
 * hooks in the fault and scheduler paths add to every counter on the
 * current CPU's list. Lists change only on their own CPU with irqs off,
 * and are walked the same way, so they need no lock. A sampling counter
 * writes a record every irq_period events.
 */
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>

#include "internal.h"

DEFINE_STATIC_KEY_DEFERRED_FALSE(perf_counter_sw_key, HZ);

static DEFINE_PER_CPU(struct hlist_head, pc_sw_active[PERF_SW_EVENTS_MAX]);

static unsigned int pc_sw_id(const struct perf_counter *counter)
{
	return PERF_COUNTER_ID(counter->hw_event.event_config);
}

/* The hooks cost a patched-out branch until the first such counter. */
static int pc_sw_init(struct perf_counter *counter)
{
	static_branch_deferred_inc(&perf_counter_sw_key);
	return 0;
}

static void pc_sw_destroy(struct perf_counter *counter)
{
	static_branch_slow_dec_deferred(&perf_counter_sw_key);
}

static int pc_sw_start(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	hlist_add_head(&counter->sw_node,
		       this_cpu_ptr(&pc_sw_active[pc_sw_id(counter)]));
	return 0;
}

static void pc_sw_stop(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	hlist_del_init(&counter->sw_node);
}

/* The count is always current: nothing to fold. */
static void pc_sw_read(struct perf_counter *counter)
{
}

const struct pc_ops pc_sw_event_ops = {
	.caps		= PC_CAP_COUNT_CURRENT | PC_CAP_SWITCH_QUIET |
			  PC_CAP_RAISED,
	.init		= pc_sw_init,
	.destroy	= pc_sw_destroy,
	.start		= pc_sw_start,
	.stop		= pc_sw_stop,
	.read		= pc_sw_read,
};

/**
 * __perf_counter_sw_event() - count a software event on this CPU
 * @id:		enum sw_event_ids
 * @nr:		how many times it happened
 * @regs:	the interrupted user or kernel state, or NULL for events the
 *		kernel raises itself (they count as kernel mode)
 *
 * Called through perf_counter_sw_event() and the scheduler hooks.
 */
void __perf_counter_sw_event(unsigned int id, u64 nr, struct pt_regs *regs)
{
	bool user = regs && user_mode(regs);
	struct pc_raise raise = { };
	struct perf_counter *counter;
	unsigned long flags;

	if (WARN_ON_ONCE(id >= PERF_SW_EVENTS_MAX))
		return;

	local_irq_save(flags);
	hlist_for_each_entry(counter, this_cpu_ptr(&pc_sw_active[id]), sw_node) {
		if (user ? counter->hw_event.exclude_user :
			   counter->hw_event.exclude_kernel)
			continue;
		if (READ_ONCE(counter->idle_paused))
			continue;		/* exclude_idle, and idling */
		atomic64_add(nr, &counter->count);
		if (unlikely(counter->page))
			pc_page_event(counter);
		if (unlikely(pc_is_sampling(counter))) {
			/* for call chains: where the event was raised */
			pc_raise_note(&raise, _RET_IP_);
			counter->period_left -= nr;
			pc_sample_periods(counter, regs);
		}
	}
	pc_raise_done(&raise);
	local_irq_restore(flags);
}
