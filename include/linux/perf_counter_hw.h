/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: what a PMU driver gives the counter core, and what the
 * core does for it.
 *
 * A driver is a table of facts (struct pc_pmu: how many counters, how
 * wide, the longest period a counter can be loaded with) and a few small
 * operations: decode an event into a control word, list where a counter
 * may go, switch a register on or off, read and write a counter. The
 * core keeps everything else: which counter sits on which register of
 * each CPU, the placement search that honours per-register constraints,
 * the 64-bit virtualization of narrow counters, sampling periods and the
 * overflow interrupt's work.
 *
 * Every register access goes through struct pc_hw_regs, so the KUnit
 * suites run the real driver against a model of the registers.
 */
#ifndef _LINUX_PERF_COUNTER_HW_H
#define _LINUX_PERF_COUNTER_HW_H

#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <asm/local64.h>

#define PC_HW_MAX_COUNTERS	18	/* P4 has the most */
#define PC_HW_MAX_PLACES	8	/* ways one counter may be placed */
#define PC_EXTRA_WORDS		2	/* extra_config words a counter may take */

/*
 * The interrupt of an overflow may come after its counter left the
 * register (it was raised just before, or is delivered late): it then
 * finds nothing to do. Expect it for a while, so that the handler can
 * say it was ours (x86: else "NMI received for unknown reason"); not
 * for long, or an unrelated interrupt would be taken for it.
 */
#define PC_HW_LATE_IRQ_NS	(10 * NSEC_PER_MSEC)

struct perf_counter;
struct perf_counter_hw_event;
struct perf_counter_hw_event_ext;
struct pt_regs;

/**
 * struct pc_hw_regs - how a driver reaches its registers
 * @read:	read register @reg (an MSR or SPR number)
 * @write:	write it
 * @irq_route:	optional: point the counters' overflow interrupt at an NMI
 *		(@nmi) or at a maskable interrupt, unmasked (x86: the
 *		local APIC's LVTPC entry). NULL where it is one kind only
 *		(PowerPC's performance monitor exception).
 * @priv:	passed back to them all; a register model keeps its state here
 */
struct pc_hw_regs {
	u64	(*read)(void *priv, u32 reg);
	void	(*write)(void *priv, u32 reg, u64 val);
	void	(*irq_route)(void *priv, bool nmi);
	void	*priv;
};

/**
 * struct pc_hw_place - one way to put a counter on the hardware
 * @idx:	the counter register
 * @uses:	every resource it takes: bit @idx, and any shared control
 *		register (a P4 ESCR) as a bit above the counters
 * @aux:	the driver's note for this placement (P4: the ESCR's MSR)
 */
struct pc_hw_place {
	u32	idx;
	u32	aux;
	u64	uses;
};

/**
 * struct pc_hw_counter - a hardware counter's state in the core
 * @config:	the control word the driver decoded (EVNTSEL, CCCR, ...)
 * @extra:	a second control word where the part has one (P4 ESCR)
 * @place:	where it is while on a CPU
 * @on:		it holds @place.idx now
 * @throttled:	its sample was refused for the CPU's budget: it is loaded
 *		for the longest period until the tick (pc_hw_unthrottle())
 * @counts_core: set by the driver's decode for an event that counts more
 *		than its task (P4's events both threads of a core share):
 *		opening one takes what a CPU-wide counter takes
 *		(pc_hw_decode()); inherited copies are not asked again
 * @prev:	the register's raw value when last folded into the count
 * @left:	events to the next sample (sampling counters)
 */
struct pc_hw_counter {
	u64			config;
	u64			extra;
	struct pc_hw_place	place;
	bool			on;
	bool			throttled;
	bool			counts_core;
	local64_t		prev;
	local64_t		left;
};

struct pc_pmu;

/**
 * struct pc_hw_want - a counter to place, for pc_hw_assign()
 * @place:	its placements, preferred first
 * @nr:		how many
 * @chosen:	set by pc_hw_assign(): the index into @place it got
 */
struct pc_hw_want {
	struct pc_hw_place	place[PC_HW_MAX_PLACES];
	unsigned int		nr;
	unsigned int		chosen;
};

/**
 * struct pc_hw_cpu - one CPU's counter registers
 * @pmu:	the driver
 * @regs:	the register accessors (the CPU's own, or a model)
 * @on:		the counter on each register, or NULL
 * @used:	resources taken, see struct pc_hw_place
 * @nr_on:	counters on
 * @nr_nmi:	of those, how many asked for a non-maskable interrupt (the
 *		hw_event's nmi bit, honoured for CAP_SYS_ADMIN): while one
 *		is on, the CPU's overflow interrupt is an NMI, else a
 *		maskable one (@regs->irq_route). Changed with irqs off.
 * @forbidden:	this CPU may not use the registers (the second thread of
 *		a hyper-threaded P4, which shares them with the first)
 * @throttled:	a counter on them is throttled until the next tick
 * @late_irq:	a counter was stopped after it wrapped, before its
 *		overflow interrupt came: that interrupt may still arrive,
 *		and find nothing (pc_hw_late_irq()). Set with irqs off,
 *		read and cleared by the interrupt, on this CPU only.
 * @late_irq_until: until when (local_clock(), in ns: a u64, or a 32-bit
 *		kernel's window closes for good 4.3 s after boot) to
 *		expect it; one store on a 64-bit kernel, two on a 32-bit
 *		one, which clears @late_irq first so that an NMI between
 *		them finds no mark
 * @want:	scratch for placing them all again (irqs off, this CPU)
 * @who:	the counter each @want entry is for
 * @poll_timer:	the driver's poll (pc_pmu.poll_ns), pinned to this CPU:
 *		started with the first counter on, stopping itself when it
 *		finds none (hw_poll.c)
 * @poll_ready:	@poll_timer is set up: a real CPU's registers (a model's
 *		are polled by its test)
 * @polling:	@poll_timer is queued or running. Set and cleared with
 *		irqs off on this CPU, by pc_hw_on() and the timer; cleared
 *		by a dead CPU's timer where it was moved, and reset when
 *		the CPU comes online (the rules are in hw_poll.c).
 */
struct pc_hw_cpu {
	const struct pc_pmu		*pmu;
	const struct pc_hw_regs		*regs;
	struct perf_counter		*on[PC_HW_MAX_COUNTERS];
	u64				used;
	unsigned int			nr_on;
	unsigned int			nr_nmi;
	bool				forbidden;
	bool				throttled;
	bool				late_irq;
	u64				late_irq_until;
	struct pc_hw_want		want[PC_HW_MAX_COUNTERS];
	struct perf_counter		*who[PC_HW_MAX_COUNTERS];
	struct hrtimer			poll_timer;
	bool				poll_ready;
	bool				polling;
};

/**
 * struct pc_pmu - a PMU driver
 * @name:	what the boot line and sysfs call it
 * @nr_counters: counter registers per CPU
 * @width:	bits a counter register holds
 * @max_period:	the most events a counter may be loaded to overflow
 *		after (P6: 31 bits, as writes sign-extend bit 31)
 * @user_read:	user mode may read counter register idx as register
 *		idx + 1 of the counter page (PowerPC's UPMCs mirror the
 *		PMCs): the page then publishes it (page.c)
 * @poll_ns:	where the overflow interrupt may be late or missing: every
 *		how many ns a timer on each CPU with counters on calls
 *		@poll, so that no counter runs more than half its width
 *		between two folds whatever the interrupt does; 0 for none
 * @irq_at:	the raw value at which a counter interrupts: 0 where it
 *		interrupts as it wraps past its width (x86), 0x80000000
 *		where it does as bit 31 turns on (PowerPC). A counter
 *		is loaded with @irq_at minus the events it may count.
 * @decode:	fill @hwc->config (and @hwc->extra) for a generic id or a
 *		raw event, with the privilege filters; @pmu is this
 *		descriptor (a driver that embeds it in a larger one finds
 *		its model's tables there with container_of()), @extra holds
 *		the hw_event's extra_config_len bytes of extra control
 *		words. -EINVAL for an event the model lacks, reserved bits,
 *		extra words it does not take, or filters it cannot apply
 * @places:	list the placements of a counter @pmu decoded; returns how
 *		many
 * @enable:	program @hwc's control registers at its place and start it
 * @disable:	stop the counter at register @idx
 * @read:	the raw value of counter register @idx
 * @write:	load counter register @idx with a raw value (width bits)
 * @overflowed:	did the counter at @idx overflow? @raw is its value just
 *		read; clears the hardware's overflow flag if it has one.
 *		NULL: the top bit clear means it wrapped (counters that
 *		interrupt at 0 are always loaded with a negative value).
 * @poll:	the timer's work, in its hard interrupt, irqs off: keep the
 *		overflow interrupt out, stop the counters, call
 *		pc_hw_poll_fold(), let them go
 * @compatible: may @a and @b be on the registers at once, wherever each
 *		sits? NULL: always. (PowerPC freezes every counter in
 *		user or kernel mode with one pair of MMCR0 bits.)
 * @reserve:	take the registers from the rest of the kernel; -EBUSY if
 *		someone holds them. Called for the first hardware counter.
 * @release:	give them back, after the last one
 * @cpu_online:	on a CPU that comes online, from that CPU, under the
 *		reservation's lock: keep it off the registers if it may
 *		not use them, and if they are reserved, set it up as
 *		@reserve set up the others (x86: LVTPC, P4's CCCRs).
 *		May be NULL.
 */
struct pc_pmu {
	const char	*name;
	unsigned int	nr_counters;
	unsigned int	width;
	u64		max_period;
	u64		irq_at;
	u64		poll_ns;
	bool		user_read;

	int	(*decode)(const struct pc_pmu *pmu,
			  const struct perf_counter_hw_event *hw_event,
			  const u64 *extra, struct pc_hw_counter *hwc);
	int	(*places)(const struct pc_pmu *pmu,
			  const struct pc_hw_counter *hwc,
			  struct pc_hw_place *place);
	void	(*enable)(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
	void	(*disable)(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
	u64	(*read)(struct pc_hw_cpu *cpuc, unsigned int idx);
	void	(*write)(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val);
	bool	(*overflowed)(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw);
	void	(*poll)(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
	bool	(*compatible)(const struct pc_hw_counter *a,
			      const struct pc_hw_counter *b);
	int	(*reserve)(void);
	void	(*release)(void);
	void	(*cpu_online)(void);
};

static inline u64 pc_hw_reg_read(struct pc_hw_cpu *cpuc, u32 reg)
{
	return cpuc->regs->read(cpuc->regs->priv, reg);
}

static inline void pc_hw_reg_write(struct pc_hw_cpu *cpuc, u32 reg, u64 val)
{
	cpuc->regs->write(cpuc->regs->priv, reg, val);
}

/* Why a registered PMU may or may not be used. */
enum pc_pmu_state {
	PC_PMU_OK,		/* registers checked and working */
	PC_PMU_UNCHECKED,	/* check skipped on the command line */
	PC_PMU_BROKEN,		/* registers do not hold what is written */
};

int pc_hw_register(const struct pc_pmu *pmu, const struct pc_hw_regs *regs,
		   enum pc_pmu_state state);
int pc_hw_register_checked(const struct pc_pmu *pmu,
			   const struct pc_hw_regs *regs,
			   bool (*works)(const struct pc_pmu *pmu),
			   const char *why);
const struct pc_pmu *pc_hw_pmu(void);
enum pc_pmu_state pc_hw_pmu_state(void);
struct pc_hw_cpu *pc_hw_this_cpu(void);
void pc_hw_forbid_cpu(int cpu);

/* The core's hardware work, on any struct pc_hw_cpu (KUnit uses models). */
int pc_hw_decode(const struct pc_pmu *pmu, struct perf_counter *counter);
int pc_hw_cpu_add(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
void pc_hw_cpu_del(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
u64 pc_hw_fold(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
u64 pc_hw_peek(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
void pc_hw_irq_route(struct pc_hw_cpu *cpuc);
void pc_hw_pause(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
void pc_hw_resume(struct pc_hw_cpu *cpuc, struct perf_counter *counter);
int pc_hw_handle_overflow(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
int pc_hw_poll_fold(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
bool pc_hw_late_irq(struct pc_hw_cpu *cpuc);
void pc_hw_unthrottle(struct pc_hw_cpu *cpuc);

bool pc_hw_assign(struct pc_hw_want *want, unsigned int n);
int pc_hw_places_of_mask(unsigned long mask, struct pc_hw_place *place);

/* For events that count more than their task (paranoid.c) */
int pc_allow_cpu(const struct perf_counter_hw_event_ext *desc,
		 const u64 *extra);

/* A statistics file for root in /sys/kernel/debug/perf_counter/ */
void pc_debugfs_add(const char *name, const struct file_operations *fops);

#endif /* _LINUX_PERF_COUNTER_HW_H */
