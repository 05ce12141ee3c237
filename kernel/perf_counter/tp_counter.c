// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: tracepoint counters (PERF_TYPE_TRACEPOINT) — the hits of
 * one of the kernel's static tracepoints, named by the id tracefs shows
 * in events/SYSTEM/EVENT/id.
 *
 * Each tracepoint in use has one struct pc_tp: a probe registered on
 * the tracepoint with the first counter of that id and removed with the
 * last, and a list per CPU of the counters that are on that CPU, like a
 * software event's (sw_counter.c): changed only on its own CPU with
 * irqs off, and walked there the same way, so it needs no lock.
 *
 * Locking: pc_tp_mutex guards pc_tps and every pc_tp's @users. It is
 * taken inside ctx->mutex (a copy made at fork) and inside the task's
 * exec_update_lock (open), and takes the tracing code's locks inside it
 * when a probe goes on or off (event_mutex, tracepoints_mutex and what
 * registering takes: cpu_hotplug_lock, jump_label_mutex, text_mutex,
 * tasklist_lock for the syscall events), never around anything of
 * ours. The grace periods that end a probe are waited for after it is
 * dropped.
 *
 * Every hit counts one, whatever the event's arguments say. The probe
 * registered on the tracepoint is its event class's own
 * (trace_event_class.pc_probe, made by include/trace/perf_counter.h with
 * the class's prototype, so the tracepoint's indirect call has its
 * callee's exact type); it hands our data and its return address to
 * perf_counter_tp_hit(). An event whose class has none (one not made by
 * TRACE_EVENT()) is refused with EOPNOTSUPP.
 *
 * What a hit is:
 *  - kernel mode: the kernel hits its tracepoints. A counter with
 *    exclude_kernel counts none (as 6.1's perf_events does for
 *    tracepoint events) and so puts no probe on: a user who may count
 *    only user mode cannot switch a tracepoint on. exclude_user changes
 *    nothing.
 *  - in the task current on the CPU, as a software event is.
 *  - not counted in NMI (this CPU's lists may be half changed under
 *    it), nor while this CPU holds a record queue's lock, walks a call
 *    chain or runs the probe, interrupts taken meanwhile included
 *    (pc_recording): the probe's own irq toggles would recurse, a
 *    record be written inside another.
 * The events of the lock system (lockdep's acquire and release, lock
 * contention) fire inside any critical section, those of the record
 * queue and of a 32-bit machine's atomic64 operations included, where
 * the probe's own atomic64 and queue lock would deadlock: they are
 * refused with EOPNOTSUPP, as are events with no static tracepoint of
 * their own and dynamic ones (synthetic, user events).
 *
 * A sample's instruction pointer is where the tracepoint's probes were
 * called from: the traced code while this is the tracepoint's only
 * probe (its static call), else the tracepoint's iterator.
 */
#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "internal.h"

/**
 * struct pc_tp - one tracepoint that counters count
 * @entry:	in pc_tps
 * @call:	the trace event, a reference held (its module's)
 * @id:		its id
 * @users:	counters of that id, inherited copies included
 * @active:	per CPU, the counters on that CPU
 */
struct pc_tp {
	struct list_head	entry;
	struct trace_event_call	*call;
	int			id;
	unsigned int		users;
	struct hlist_head __percpu *active;
};

static DEFINE_MUTEX(pc_tp_mutex);
static LIST_HEAD(pc_tps);

/* A sample's state: kernel mode (zeroed), and where the hit was. */
static DEFINE_PER_CPU(struct pt_regs, pc_tp_regs);

/**
 * perf_counter_tp_hit() - a tracepoint with counters was hit
 * @data:	the struct pc_tp its probe was registered with
 * @ip:		where the tracepoint's probes were called from
 *
 * Called by the event class's probe (include/trace/perf_counter.h), with
 * preemption off, as every tracepoint probe is; exported for the probes
 * of modules' trace events.
 */
notrace void perf_counter_tp_hit(void *data, unsigned long ip)
{
	struct pc_tp *tp = data;
	struct pc_raise raise = { };
	struct perf_counter *counter;
	struct pt_regs *regs;
	unsigned long flags;

	if (in_nmi())
		return;
	if (this_cpu_inc_return(pc_recording) != 1)
		goto nested;
	local_irq_save(flags);
	regs = this_cpu_ptr(&pc_tp_regs);
	instruction_pointer_set(regs, ip);
	hlist_for_each_entry(counter, this_cpu_ptr(tp->active), tp.node) {
		if (counter->hw_event.exclude_kernel ||
		    READ_ONCE(counter->idle_paused))
			continue;
		atomic64_inc(&counter->count);
		if (unlikely(pc_is_sampling(counter))) {
			/* for call chains: where the hit was raised */
			pc_raise_note(&raise, ip);
			counter->period_left--;
			pc_sample_periods(counter, regs);
		}
	}
	pc_raise_done(&raise);
	local_irq_restore(flags);
nested:
	this_cpu_dec(pc_recording);
}
EXPORT_SYMBOL_GPL(perf_counter_tp_hit);

/*
 * The event of @id, a reference held, if a counter may count it: a
 * static tracepoint of its own whose class has our probe (every
 * TRACE_EVENT()'s; not custom events'), not a dynamic event, not one
 * of the lock system's.
 */
static struct trace_event_call *pc_tp_event(int id)
{
	struct trace_event_call *call = trace_event_get_static(id);

	if (IS_ERR(call))
		return call;
	if ((call->flags & TRACE_EVENT_FL_DYNAMIC) || !call->class->pc_probe ||
	    (call->class->system &&
	     !strcmp(call->class->system, "lock"))) {
		trace_event_put_ref(call);
		return ERR_PTR(-EOPNOTSUPP);
	}
	return call;
}

/* The tracepoint of event @id, with its probe on; under pc_tp_mutex. */
static struct pc_tp *pc_tp_get(int id)
{
	struct trace_event_call *call;
	struct pc_tp *tp;
	int err;

	lockdep_assert_held(&pc_tp_mutex);
	list_for_each_entry(tp, &pc_tps, entry) {
		if (tp->id == id) {
			tp->users++;
			return tp;
		}
	}

	call = pc_tp_event(id);
	if (IS_ERR(call))
		return ERR_CAST(call);
	err = -ENOMEM;
	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		goto put_call;
	tp->active = alloc_percpu(struct hlist_head);
	if (!tp->active)
		goto free_tp;
	tp->call = call;
	tp->id = id;
	tp->users = 1;
	err = tracepoint_probe_register(call->tp, call->class->pc_probe, tp);
	if (err)
		goto free_active;
	list_add(&tp->entry, &pc_tps);
	pc_object_made(PC_OBJ_TRACEPOINT);
	return tp;

free_active:
	free_percpu(tp->active);
free_tp:
	kfree(tp);
put_call:
	trace_event_put_ref(call);
	return ERR_PTR(err);
}

/*
 * A counter of @tp is gone; the last takes the probe off, and frees it
 * once no CPU can be in the probe, outside pc_tp_mutex.
 */
static void pc_tp_put(struct pc_tp *tp)
{
	bool last;

	mutex_lock(&pc_tp_mutex);
	last = !--tp->users;
	if (last) {
		list_del(&tp->entry);
		WARN_ON_ONCE(tracepoint_probe_unregister(tp->call->tp,
							 tp->call->class->pc_probe,
							 tp));
	}
	mutex_unlock(&pc_tp_mutex);
	if (!last)
		return;
	/* No CPU is in the probe, or walking tp->active, after this. */
	tracepoint_synchronize_unregister();
	free_percpu(tp->active);
	trace_event_put_ref(tp->call);
	kfree(tp);
	pc_object_ended(PC_OBJ_TRACEPOINT);
}

/*
 * The event_id is the tracefs id: an int. Larger ids name nothing, and
 * are -ENOENT like every id no event has. A counter that excludes the
 * kernel would count no hit: its id is checked, and no probe put on.
 */
static int pc_tp_init(struct perf_counter *counter)
{
	u64 id = PERF_COUNTER_ID(counter->hw_event.event_config);
	struct trace_event_call *call;
	struct pc_tp *tp;

	if (id > INT_MAX)
		return -ENOENT;
	INIT_HLIST_NODE(&counter->tp.node);
	counter->tp.point = NULL;
	if (counter->hw_event.exclude_kernel) {
		call = pc_tp_event(id);
		if (IS_ERR(call))
			return PTR_ERR(call);
		trace_event_put_ref(call);
		return 0;
	}
	mutex_lock(&pc_tp_mutex);
	tp = pc_tp_get(id);
	mutex_unlock(&pc_tp_mutex);
	if (IS_ERR(tp))
		return PTR_ERR(tp);
	counter->tp.point = tp;
	return 0;
}

static void pc_tp_destroy(struct perf_counter *counter)
{
	if (counter->tp.point)
		pc_tp_put(counter->tp.point);
}

static int pc_tp_start(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	if (counter->tp.point)
		hlist_add_head(&counter->tp.node,
			       this_cpu_ptr(counter->tp.point->active));
	return 0;
}

static void pc_tp_stop(struct perf_counter *counter)
{
	pc_assert_irqs_off();
	if (counter->tp.point)
		hlist_del_init(&counter->tp.node);
}

/* The count is always current: nothing to fold. */
static void pc_tp_read(struct perf_counter *counter)
{
}

const struct pc_ops pc_tp_ops = {
	.caps		= PC_CAP_RAISED,
	.init		= pc_tp_init,
	.destroy	= pc_tp_destroy,
	.start		= pc_tp_start,
	.stop		= pc_tp_stop,
	.read		= pc_tp_read,
};
