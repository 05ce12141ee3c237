/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter core: the objects and the rules that bind them.
 *
 * The locking rules, and the helpers that assert them, are in
 * locking.h.
 */
#ifndef _KERNEL_PERF_COUNTER_INTERNAL_H
#define _KERNEL_PERF_COUNTER_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/perf_counter.h>
#include <linux/perf_counter_hw.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/sizes.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "lsm.h"
#include "objects.h"
#include "queue.h"
#include "sample.h"

/* Counter states, ordered: >= PC_STATE_INACTIVE means "enabled". */
enum pc_state {
	PC_STATE_ERROR		= -2,	/* pinned group could not go on */
	PC_STATE_OFF		= -1,	/* disabled */
	PC_STATE_INACTIVE	= 0,	/* enabled, not on a CPU now */
	PC_STATE_ACTIVE		= 1,	/* enabled and counting */
};

struct perf_counter;
struct vm_area_struct;
struct iov_iter;
struct pc_tp;

/*
 * The most samples a second a frequency counter may ask for, whatever
 * kernel.perf_event_max_sample_rate says: the retune's arithmetic
 * (period.c) holds a rate this high over hours in 64 bits.
 */
#define PC_FREQ_MAX		(1U << 20)

/* The shortest sampling period of a clock counter, ns. */
#define PC_CLOCK_PERIOD_MIN	(50 * NSEC_PER_USEC)

/*
 * The longest sampling period: periods are counted down in a signed
 * 64-bit period_left, so irq_period must be below 2^63.
 */
#define PC_PERIOD_MAX		((u64)S64_MAX)

/*
 * Records one overflow may write when several periods ran out at once
 * (a late timer, a large software event); the rest are counted lost.
 */
#define PC_SAMPLE_BURST		8

/*
 * pc_ops.caps. PC_CAP_REGISTER: counts on a PMU register (hw_*.c): a
 * group's such counters must fit the PMU together, and user mode may
 * read the register. PC_CAP_CLOCK: counts context time, which a reader
 * of the counter page extrapolates. PC_CAP_COUNT_CURRENT: @count is
 * current whenever the counter is on, so the page shows it as it is.
 * PC_CAP_SWITCH_QUIET: counts nothing between a context switch's two
 * hooks, so a context of such copies may swap (swap.c);
 * PC_CAP_SWITCH_QUIET_USER: the same only if it excludes the kernel.
 * PC_CAP_RAISED: the kernel raises its events itself, in the task they
 * count (software events, tracepoints): a call chain's kernel part
 * starts where it raised one (callchain.c).
 */
#define PC_CAP_REGISTER			BIT(0)
#define PC_CAP_CLOCK			BIT(1)
#define PC_CAP_COUNT_CURRENT		BIT(2)
#define PC_CAP_SWITCH_QUIET		BIT(3)
#define PC_CAP_SWITCH_QUIET_USER	BIT(4)
#define PC_CAP_RAISED			BIT(5)

/**
 * struct pc_ops - how one kind of counter counts
 * @caps:	what the kind is, where the core's rules tell kinds apart:
 *		the PC_CAP_* flags above
 * @init:	set up a new counter of this kind; may sleep
 * @destroy:	undo @init; may sleep
 * @start:	begin counting on this CPU; irqs off, ctx->lock held
 * @stop:	stop counting and fold the value into the counter
 * @read:	fold the value counted so far into the counter; on the
 *		counter's CPU, irqs off
 * @pause:	exclude_idle: the CPU is about to idle; fold the value and
 *		stop counting, staying on (its register kept); irqs off,
 *		ctx->lock held, context time up to date. Optional: without
 *		it the kind counts nothing while @idle_paused is set.
 * @resume:	the CPU no longer idles: count again from now
 * @flush:	write the samples of periods that have run out by now, as
 *		a switch record is about to be written: on the counter's CPU,
 *		irqs off, ctx->lock held, the context's time up to date.
 *		Optional: kinds that sample as their events happen need none.
 * @peek:	the value counted until now, for a group record: on the
 *		counter's CPU with irqs off, the counter on, the context's
 *		lock held or not (in NMI it is: a trylock, so that the
 *		context's time is whole). Optional: without it @count is
 *		always current.
 * @change:	fold the counter, call @fn(@counter, @arg) with nothing of
 *		the counter's running meanwhile (its overflow interrupt,
 *		its timer), then let it count on from where @fn left its
 *		period: a period or a value changed in flight (period.c).
 *		On the counter's CPU, irqs off, ctx->lock held, the counter
 *		on and its context's time up to date. Optional: kinds whose
 *		events all come with irqs off on that CPU need none.
 *
 * @start may fail (no free hardware register): the counter then stays
 * off the CPU and its group with it.
 */
struct pc_ops {
	unsigned int	caps;
	int	(*init)(struct perf_counter *counter);
	void	(*destroy)(struct perf_counter *counter);
	int	(*start)(struct perf_counter *counter);
	void	(*stop)(struct perf_counter *counter);
	void	(*read)(struct perf_counter *counter);
	void	(*pause)(struct perf_counter *counter);
	void	(*resume)(struct perf_counter *counter);
	void	(*flush)(struct perf_counter *counter);
	u64	(*peek)(struct perf_counter *counter);
	void	(*change)(struct perf_counter *counter,
			  void (*fn)(struct perf_counter *counter, u64 arg),
			  u64 arg);
};

/**
 * struct perf_counter - one virtual 64-bit counter
 * @group_entry:	in ctx->groups (leaders) or in leader->siblings
 * @siblings:		the members of a group, on its leader
 * @leader:		group leader; the counter itself when it leads
 * @read_members:	top-level leaders: the members a PERF_FORMAT_GROUP
 *			read gives, in the order they joined. Unlike
 *			@siblings it outlives the task's exit, which
 *			dissolves the groups on the context: under
 *			ctx->mutex alone (read.c)
 * @read_entry:		top-level members: in their leader's @read_members
 * @read_leader:	and that leader, while in them
 * @read_nr:		leaders: 1 + the members in @read_members
 * @id:			PERF_COUNTER_IOC_ID's: unique, never 0; an inherited
 *			copy has its top-level counter's
 * @hw_event:		what user space asked for
 * @extra_config:	the extra control words that followed it
 *			(hw_event.extra_config_len bytes)
 * @chain_depth:	the callchain_depth it asked for, the default filled
 *			in: the most addresses its samples' call chains hold
 * @sideband:		the side-band records it asked for (PERF_SIDEBAND_*)
 * @switch_out:		what its switch-out records carry (PERF_SWITCH_OUT_*)
 * @switch_stack:	and how many user stack words with their chains
 * @ops:		the kind of counter
 * @ctx:		the context it is installed in (a reference is held)
 * @state:		enum pc_state, under ctx->lock
 * @idle_paused:	exclude_idle, in a CPU context: on, but not counting,
 *			as its CPU runs the idle task; written under
 *			ctx->lock on the counter's CPU, read locklessly
 *			there (software events, the tick's unthrottle)
 * @attached:		on @ctx's lists; under ctx->mutex and ctx->lock
 * @cpu:		the only CPU it counts on, or -1
 * @prctl_exempt:	opened on another task by a task that task could not
 *			trace (pc_task_could_trace()): that task's prctl()
 *			leaves it alone. Set at the open and copied to
 *			inherited counters; prctl() reads it on group
 *			leaders only (members follow their leader)
 * @prctl_refused:	a group leader on the task of a prctl() in progress
 *			that the security module will not let that task
 *			write (lsm.c): the prctl() leaves it alone. Written
 *			and read under ctx->mutex, which the prctl() holds
 *			across its pc_ctx_call()
 * @count:		the 64-bit value
 * @time_enabled:	ns of context time spent enabled
 * @time_running:	ns of context time spent counting
 * @tstamp:		context time of the last update of the two above
 * @clock:		clock counters: context time at the last fold, and
 *			the sampling timer
 * @sw_node:		software event counters: on the CPU's event list
 * @tp:			tracepoint counters: on the tracepoint's list for the
 *			CPU (@tp.node), and the tracepoint (@tp.point)
 * @hw:			hardware counters: register, raw value, period
 * @period_left:	sampling counters but hardware ones (which keep it in
 *			@hw.left): events until the next sample
 * @period:		sampling counters: the length of the periods to come
 * @period_len:		the length of the current one, which its sample
 *			stands for (PERF_RECORD_PERIOD)
 * @sample_freq:	frequency counters: the samples a second asked for;
 *			0 for a fixed period
 * @freq_stamp:		frequency counters: CLOCK_MONOTONIC ns at the last
 *			retune of @period (period.c)
 * @freq_count:		and @count then
 * @refresh:		a refreshed counter (PERF_COUNTER_IOC_REFRESH): the
 *			samples it may still write; top-level counters only
 * @refresh_on:		a refresh is in force: @refresh counts down
 * @refresh_spent:	@refresh ran out: no more samples, and the counter
 *			is to be disabled by @refresh_work
 * @refresh_work:	disables it, where its context is
 * @refresh_late:	or from a workqueue, if the context has moved
 * @queue:		sampling counters: their own record queue, which
 *			their fd reads and maps (top-level counters only;
 *			inherited copies use their parent's)
 * @out:		where their records go: @queue, or another
 *			counter's (PERF_COUNTER_IOC_SET_OUTPUT, output.c);
 *			read by producers with irqs off, changed under
 *			@child_mutex and pc_output_mutex, and an old one
 *			dropped only after an RCU grace period
 * @out_writer:		counted among @out's writers: until the records
 *			end (the task and its copies), or the counter does;
 *			under @child_mutex
 * @pid_ns:		top-level counters: the opener's pid namespace, in
 *			which records give pids and tids
 * @page:		top-level counters, once mmap()ed: the page user space
 *			reads the counter from (page.c); set once under
 *			ctx->lock, freed with the counter
 * @parent:		the top-level counter an inherited counter folds into
 * @child_mutex:	protects @children and @released
 * @children:		inherited counters alive in descendant tasks
 * @released:		its file is being released: no copy may join @children
 * @had_children:	a copy has joined @children (set once, never cleared)
 * @task_ended:		its task has exited (task counters with a queue):
 *			once @children is empty too, no record can come
 * @chain_bufs:		a top-level counter recording call chains: it holds
 *			the buffers they are walked into (callchain.c)
 * @child_entry:	in @parent->children
 * @child_count:	values folded in from exited children
 * @child_time_enabled:	their enabled times
 * @child_time_running:	their running times
 * @lsm_event:		the perf_event shell the security module keeps its
 *			blob in and is shown (lsm.c); NULL until the
 *			counter is made, and freed with it
 * @refcount:		the file, the context and @parent->children each
 *			hold one
 */
struct perf_counter {
	struct list_head		group_entry;
	struct list_head		siblings;
	struct perf_counter		*leader;
	struct list_head		read_members;
	struct list_head		read_entry;
	struct perf_counter		*read_leader;
	u32				read_nr;
	u64				id;
	struct perf_counter_hw_event	hw_event;
	u64				extra_config[PC_EXTRA_WORDS];
	u16				chain_depth;
	u8				sideband;
	u8				switch_out;
	u8				switch_stack;
	const struct pc_ops		*ops;
	struct perf_counter_context	*ctx;
	int				state;
	bool				attached;
	bool				idle_paused;
	bool				prctl_exempt;
	bool				prctl_refused;
	int				cpu;

	atomic64_t			count;
	u64				time_enabled;
	u64				time_running;
	u64				tstamp;

	union {
		struct {
			u64		start;
			struct hrtimer	timer;
		} clock;
		struct hlist_node	sw_node;
		struct {
			struct hlist_node	node;
			struct pc_tp		*point;
		} tp;
		struct pc_hw_counter	hw;
	};
	s64				period_left;
	u64				period;
	u64				period_len;
	u32				sample_freq;
	bool				refresh_on;
	bool				refresh_spent;
	u64				freq_stamp;
	u64				freq_count;
	atomic_t			refresh;
	struct irq_work			refresh_work;
	struct work_struct		refresh_late;
	struct pc_queue			*queue;
	struct pc_queue			*out;
	bool				out_writer;
	struct pid_namespace		*pid_ns;
	struct perf_counter_page	*page;

	struct perf_counter		*parent;
	struct mutex			child_mutex;
	struct list_head		children;
	bool				released;
	bool				had_children;
	bool				task_ended;
	bool				chain_bufs;
	struct list_head		child_entry;
	atomic64_t			child_count;
	atomic64_t			child_time_enabled;
	atomic64_t			child_time_running;
#ifdef CONFIG_PERF_COUNTERS_LSM
	struct perf_event		*lsm_event;
#endif

	refcount_t			refcount;
};

/**
 * struct perf_counter_context - the counters of one task or one CPU
 * @lock:	see the locking rules at the top of this file
 * @mutex:	see the locking rules at the top of this file
 * @groups:	group leaders
 * @nr_counters: counters installed
 * @is_active:	scheduled in on @active_cpu
 * @active_cpu:	the CPU it is active on
 * @dead:	its task is exiting (its clocks have stopped) or has exited:
 *		nothing more may be installed
 * @rotate:	a flexible group did not fit: rotate at the tick
 * @nr_pages:	installed counters with a page (page.c), whose pages the
 *		tick renews; under ctx->lock, read locklessly by the tick
 * @nr_freq:	installed frequency counters the tick retunes (period.c);
 *		under ctx->lock, read locklessly by the tick
 * @nr_exclude_idle: CPU contexts: installed counters with exclude_idle,
 *		under ctx->lock; read locklessly by the switch hooks
 * @task:	the task, or NULL for a CPU context; changes at a swap
 * @owner:	the task whose counters, opened through files, the context
 *		holds, with a reference, or NULL for one that holds copies
 *		only: set when the context is first bound to its task
 *		(pc_task_ctx_hold()), put with the context (pc_ctx_put())
 * @away:	the context its holder owns, if that is elsewhere (a clone
 *		stands in for it): the holder's own, for it to come home
 *		(home.c); NULL if the holder holds its own or owns none
 * @clone_id:	a task context copied at fork and unchanged since: the
 *		number of the snapshot it was copied from, else 0 (swap.c)
 * @snapshot:	the number this context's next copies get, 0 once it
 *		changes (swap.c)
 * @swap_id:	the number the context swaps under at a switch, 0 for
 *		none: a clone's @clone_id, or, for a parent all of whose
 *		counters its copies could stand in for, unchanged since it
 *		was snapshot @snapshot, that number (home.c)
 * @opening:	opens between binding the context and installing their
 *		counters: meanwhile it gets no @swap_id (home.c)
 * @homed:	brought home for an open or prctl once: it never gets a
 *		@swap_id again, which bounds pc_task_ctx_hold()'s homings
 * @frozen:	on its way home: taken off, not put on again until it is
 *		its owner's (home.c)
 * @pins:	forks copying the context: it may not swap meanwhile
 * @time:	context time: ns during which the context was active
 * @timestamp:	local_clock() when @time was last brought up to date
 * @refcount:	the task and every counter hold one (task contexts only)
 * @rcu:	deferred free
 */
struct perf_counter_context {
	raw_spinlock_t		lock;
	struct mutex		mutex;
	struct list_head	groups;
	int			nr_counters;
	bool			is_active;
	int			active_cpu;
	bool			dead;
	bool			rotate;
	int			nr_exclude_idle;
	int			nr_freq;
	int			nr_pages;
	struct task_struct	*task;
	struct task_struct	*owner;
	struct perf_counter_context *away;
	u64			clone_id;
	u64			snapshot;
	u64			swap_id;
	unsigned int		opening;
	bool			homed;
	bool			frozen;
	unsigned int		pins;
	u64			time;
	u64			timestamp;
	refcount_t		refcount;
	struct rcu_head		rcu;
};

#include "locking.h"

/* config.c: checking and decoding what user space passed */
int pc_check_hw_event(const struct perf_counter_hw_event *hw_event);
int pc_check_hw_event_ext(const struct perf_counter_hw_event_ext *desc);
u32 pc_chain_depth_max(void);
bool pc_hw_event_is_clock(const struct perf_counter_hw_event *hw);
u64 pc_freq_max(const struct perf_counter_hw_event *hw);
u64 pc_freq_first_period(const struct perf_counter_hw_event *hw, u64 freq);
void pc_hw_event_defaults(struct perf_counter_hw_event_ext *desc);
const struct pc_ops *pc_event_ops(const struct perf_counter_hw_event *hw_event);
int pc_check_group(const struct perf_counter *leader,
		   const struct perf_counter_hw_event *hw_event,
		   const struct perf_counter_context *ctx, int cpu);
size_t pc_read_size(u64 read_format, u32 nr);

/* paranoid.c: kernel.perf_event_paranoid, and who may blind whose counter */
bool pc_task_could_trace(struct task_struct *task);
int pc_check_privilege(const struct perf_counter_hw_event_ext *desc,
		       const u64 *extra, bool cpu_wide);

/* counter.c: one counter's life, time and value */
struct perf_counter *
pc_counter_alloc(const struct perf_counter_hw_event_ext *desc,
		 const u64 *extra, const struct pc_ops *ops, int cpu,
		 struct perf_counter *parent);
void pc_counter_get(struct perf_counter *counter);
void pc_counter_put(struct perf_counter *counter);
void pc_counter_update_times(struct perf_counter *counter, u64 ctx_time);
int pc_counter_sched_in(struct perf_counter *counter, u64 ctx_time);
void pc_counter_sched_out(struct perf_counter *counter, u64 ctx_time);
void pc_counter_idle(struct perf_counter *counter, bool idle);
void pc_counter_set_state(struct perf_counter *counter, int state,
			  u64 ctx_time);

struct pc_values {
	u64	value;
	u64	time_enabled;
	u64	time_running;
};
void pc_counter_fold(struct perf_counter *counter, u64 now);
void pc_counter_read(struct perf_counter *counter, struct pc_values *vals);
void pc_counter_read_children(struct perf_counter *counter,
			      struct pc_values *vals);

/* read.c: the words a counter reads as, alone or with its group */
ssize_t pc_read_values(struct perf_counter *counter, char __user *buf,
		       size_t count);
ssize_t pc_read_values_iter(struct perf_counter *counter,
			    struct iov_iter *to, bool nowait);
void pc_read_group_join(struct perf_counter *counter,
			struct perf_counter *leader);
void pc_read_group_leave(struct perf_counter *counter);
u32 pc_totals_words(struct perf_counter *counter, u32 joining);
void pc_totals_exit(struct perf_counter_context *ctx,
		    struct task_struct *task);

/* group.c: groups on and off the CPU; enable, disable, install, remove */
int pc_group_sched_in(struct perf_counter *leader, u64 ctx_time);
void pc_group_sched_out(struct perf_counter *leader, u64 ctx_time);
void pc_ctx_link(struct perf_counter_context *ctx, struct perf_counter *counter);
void pc_ctx_unlink(struct perf_counter_context *ctx,
		   struct perf_counter *counter, u64 ctx_time);
int pc_install(struct perf_counter *counter, struct perf_counter *leader);
void pc_remove(struct perf_counter *counter);
int pc_counter_set_output(struct perf_counter *counter, int fd);
int pc_output_mmap(struct perf_counter *counter, struct vm_area_struct *vma);
void pc_output_end(struct perf_counter *counter);
void pc_output_free(struct perf_counter *counter);
int pc_counter_prepare(struct perf_counter *counter);

/*
 * The queue a top-level counter's records go to, from a producer (irqs
 * off: an RCU reader, see output.c).
 */
static inline struct pc_queue *pc_counter_out(struct perf_counter *top)
{
	return READ_ONCE(top->out);
}

void pc_counter_enable(struct perf_counter *counter);
void pc_counter_disable(struct perf_counter *counter);
void __pc_enable(struct perf_counter_context *ctx, void *info);
void __pc_disable(struct perf_counter_context *ctx, void *info);

/* context.c: contexts, where they run, and the scheduler hooks */
typedef void (*pc_ctx_fn)(struct perf_counter_context *ctx, void *info);
void pc_ctx_call(struct perf_counter_context *ctx, pc_ctx_fn fn, void *info);
void pc_ctx_call_atomic(struct perf_counter_context *ctx, pc_ctx_fn fn,
			void *info);
void pc_ctx_call_locked(struct perf_counter_context *ctx, pc_ctx_fn fn,
			void *info);
int pc_ctx_try_here(struct perf_counter_context *ctx, pc_ctx_fn fn,
		    void *info);
void pc_ctx_init(struct perf_counter_context *ctx, struct task_struct *task);
u64 pc_ctx_advance(struct perf_counter_context *ctx, u64 now);
u64 pc_ctx_update_time(struct perf_counter_context *ctx);
struct task_struct *pc_find_task(pid_t pid);
int pc_check_cpu(struct task_struct *task, int cpu);
struct perf_counter_context *pc_find_context(struct task_struct *task,
					     int cpu);
struct perf_counter_context *pc_member_context(const struct perf_counter *leader,
					       struct task_struct *task,
					       int cpu);
void pc_ctx_get(struct perf_counter_context *ctx);
void pc_ctx_put(struct perf_counter_context *ctx);
struct perf_counter_context *pc_task_ctx_alloc(struct task_struct *task);
void pc_ctx_sched_out(struct perf_counter_context *ctx);
void pc_ctx_sched_in(struct perf_counter_context *ctx);
struct perf_counter_context *pc_this_cpu_ctx(void);
bool pc_cpu_ctx_maybe_busy(void);
struct perf_counter **pc_ctx_leaders(struct perf_counter_context *ctx,
				     bool inherited, unsigned int *nr,
				     u64 *snapshot);
void pc_ctx_leaders_free(struct perf_counter **leaders);

/* swap.c: clone contexts, and swapping them at a switch */
void pc_ctx_changed(struct perf_counter_context *ctx);
bool pc_counter_swappable(const struct perf_counter *counter);
u64 pc_ctx_snapshot(struct perf_counter_context *ctx);
/**
 * enum pc_hold - what pc_task_ctx_hold() holds a task's context for
 * @PC_HOLD_PIN:	to read or copy it: pinned against swaps until
 *			pc_ctx_unpin() (fork, side-band records)
 * @PC_HOLD_BIND:	to change it (prctl()): the task's own context,
 *			brought home, bound to it
 * @PC_HOLD_OPEN:	to install a counter, as @PC_HOLD_BIND, and kept
 *			from swapping until pc_ctx_open_end()
 * @PC_HOLD_EXIT:	to end it (exit, exec's untrusted end): as
 *			@PC_HOLD_BIND, but not for good (home.c)
 */
enum pc_hold {
	PC_HOLD_PIN,
	PC_HOLD_BIND,
	PC_HOLD_OPEN,
	PC_HOLD_EXIT,
};
struct perf_counter_context *pc_task_ctx_hold(struct task_struct *task,
					      enum pc_hold why);
void pc_ctx_open_end(struct perf_counter_context *ctx);
void pc_ctx_unpin(struct perf_counter_context *ctx);

/* home.c: a parent's context that swapped with a clone, brought home */
struct perf_counter_context *pc_ctx_away_get(struct perf_counter_context *ctx,
					     struct task_struct *task);
void pc_ctx_bring_home(struct perf_counter_context *home, bool for_good);
bool pc_ctx_give_back(struct task_struct *task);
unsigned long pc_ctx_homings(void);
unsigned long pc_ctx_swaps(void);
bool pc_ctx_swap(struct task_struct *prev, struct task_struct *next,
		 struct perf_counter_context *ctx);

/* rotate.c: placement, pinned first, and multiplexing */
void pc_group_missed(struct perf_counter_context *ctx,
		     struct perf_counter *leader, u64 ctx_time);
void pc_ctx_groups_in(struct perf_counter_context *ctx, u64 ctx_time);
void pc_ctx_group_in(struct perf_counter_context *ctx,
		     struct perf_counter *leader, u64 ctx_time);
void pc_ctx_rotate(struct perf_counter_context *ctx, u64 now);

/* inherit.c: fork, exit and the end of inherited copies */
void pc_task_teardown(struct task_struct *task);
void pc_release_children(struct perf_counter *counter);

/* throttle.c: the per-CPU sample budget */
unsigned long pc_sample_rate_max(void);
unsigned long pc_samples_per_tick(void);
bool pc_sample_budget_take(void);
bool pc_sample_budget_spent(void);
void pc_sample_budget_tick(void);
#ifdef CONFIG_PERF_COUNTER_KUNIT_TEST
void pc_sample_budget_hold(bool hold);
#endif

/* period.c: periods, frequencies, and the ioctls that change them */
void pc_period_init(struct perf_counter *counter, u64 period);
void pc_period_inherit(struct perf_counter *copy, struct perf_counter *orig);
void pc_period_ended(struct perf_counter *counter, u64 due);
void pc_freq_tick(struct perf_counter_context *ctx);
int pc_check_period(const struct perf_counter *counter, u64 value);
int pc_counter_period(struct perf_counter *counter, u64 value);
void pc_counter_reset(struct perf_counter *counter);
int pc_counter_refresh(struct perf_counter *counter, unsigned long n);
void pc_refresh_init(struct perf_counter *counter);
bool pc_refresh_take(struct perf_counter *counter);
void pc_refresh_done(struct perf_counter *counter);
void pc_counter_refresh_end(struct perf_counter *counter);
void pc_refresh_sync(struct perf_counter *counter);
bool pc_freq_retuned(const struct perf_counter *counter);

/* file.c */
extern const struct file_operations pc_fops;

/* page.c: the counter page, read in user mode */
int pc_page_mmap(struct perf_counter *counter, struct vm_area_struct *vma);
void pc_page_free(struct perf_counter *counter);
void __pc_page_publish(struct perf_counter *counter);
void pc_page_event(struct perf_counter *counter);
void __pc_page_reg(struct perf_counter *counter);
void pc_page_tick(struct perf_counter_context *ctx);

/*
 * Publish what the counter's page shows. Callers hold ctx->lock, or are
 * on the CPU the counter is on with irqs off, never in NMI: see page.c.
 */
static inline void pc_page_publish(struct perf_counter *counter)
{
	if (unlikely(counter->page))
		__pc_page_publish(counter);
}

static inline void pc_page_reg(struct perf_counter *counter)
{
	if (unlikely(counter->page))
		__pc_page_reg(counter);
}

/* the kinds of counter */
extern const struct pc_ops pc_clock_ops;
extern const struct pc_ops pc_sw_event_ops;
extern const struct pc_ops pc_hw_ops;
extern const struct pc_ops pc_tp_ops;

/*
 * The hardware counters' share of the core's rules: hw_pmu.c (a group's
 * fit, a CPU coming online), hw_counter.c (the register user mode may
 * read), hw_poll.c (the poll timer).
 */
int pc_hw_group_fits(struct perf_counter *leader, struct perf_counter *counter);
void pc_hw_cpu_online(void);
bool pc_hw_user_reg(struct perf_counter *counter, u16 *reg, u16 *bits,
		    u64 *base);
void pc_hw_poll_init(struct pc_hw_cpu *cpuc);
void pc_hw_poll_start(struct pc_hw_cpu *cpuc);
void pc_hw_poll_reset(struct pc_hw_cpu *cpuc);

static inline bool pc_is_leader(const struct perf_counter *counter)
{
	return counter->leader == counter;
}

/*
 * Walks of a context's groups and of a group's members, each asserting
 * the rule (top of this file) that keeps its list still. The list head
 * is asserted once, at the walk's start.
 */
static inline struct list_head *pc_ctx_groups(struct perf_counter_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	return &ctx->groups;
}

/* Every group leader of @ctx, under ctx->lock. */
#define pc_for_each_leader(leader, ctx)					\
	for (leader = list_first_entry(pc_ctx_groups(ctx),		\
				       struct perf_counter, group_entry); \
	     !list_entry_is_head(leader, &(ctx)->groups, group_entry);	\
	     leader = list_next_entry(leader, group_entry))

static inline struct list_head *pc_members(struct perf_counter *leader)
{
	lockdep_assert_once(!leader->ctx ||
			    lockdep_is_held(&leader->ctx->mutex) ||
			    lockdep_is_held(&leader->ctx->lock));
	return &leader->siblings;
}

/*
 * Every member of @leader's group, the leader left out: under its
 * context's mutex or its lock (a leader on no context yet has no other
 * user).
 */
#define pc_for_each_member(member, leader)				\
	for (member = list_first_entry(pc_members(leader),		\
				       struct perf_counter, group_entry); \
	     !list_entry_is_head(member, &(leader)->siblings, group_entry); \
	     member = list_next_entry(member, group_entry))

static inline struct list_head *pc_members_here(struct perf_counter *leader)
{
	pc_assert_irqs_off();
	return &leader->siblings;
}

/*
 * The same, from where the group counts: on the CPU its context is
 * active on, irqs off (an overflow, a software event, the NMI under a
 * tried ctx->lock), where every change to the group runs with irqs off
 * too (pc_ctx_call()), so none can be half done.
 */
#define pc_for_each_member_here(member, leader)				\
	for (member = list_first_entry(pc_members_here(leader),		\
				       struct perf_counter, group_entry); \
	     !list_entry_is_head(member, &(leader)->siblings, group_entry); \
	     member = list_next_entry(member, group_entry))

/* A sampling counter: one with a period (sample.h has the rest). */
static inline bool pc_is_sampling(const struct perf_counter *counter)
{
	return counter->hw_event.irq_period != 0;
}

/* The description @counter was made from, its defaults filled in. */
static inline struct perf_counter_hw_event_ext
pc_counter_desc(const struct perf_counter *counter)
{
	return (struct perf_counter_hw_event_ext) {
		.hw		 = counter->hw_event,
		.callchain_depth = counter->chain_depth,
		.sideband	 = counter->sideband,
		.sample_freq	 = counter->sample_freq,
		.switch_out	 = counter->switch_out,
		.switch_stack	 = counter->switch_stack,
	};
}

/* Is @counter of a kind with @cap (PC_CAP_*)? */
static inline bool pc_has_cap(const struct perf_counter *counter,
			      unsigned int cap)
{
	return counter->ops->caps & cap;
}

#endif /* _KERNEL_PERF_COUNTER_INTERNAL_H */
