/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_counter: the user-space ABI of the Linux performance counter
 * subsystem.
 *
 * One file descriptor per virtual 64-bit counter, obtained from the
 * perf_counter_open() system call and driven with read(), ioctl(),
 * poll() and prctl(). See Documentation/userspace-api/perf_counter.rst.
 */
#ifndef _UAPI_LINUX_PERF_COUNTER_H
#define _UAPI_LINUX_PERF_COUNTER_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/perf_event.h>

/*
 * event_config: what a counter counts.
 *
 *   bit  63      raw_type: 1 = machine-specific raw event in bits 62..0
 *   bits 62..56  type (PERF_TYPE_*, below) when raw_type is 0
 *   bits 55..0   event_id within that type
 */
#define PERF_COUNTER_RAW_BITS		1
#define PERF_COUNTER_RAW_SHIFT		63
#define PERF_COUNTER_RAW_MASK		(1ULL << PERF_COUNTER_RAW_SHIFT)

#define PERF_COUNTER_CONFIG_BITS	63
#define PERF_COUNTER_CONFIG_MASK	((1ULL << PERF_COUNTER_CONFIG_BITS) - 1)

#define PERF_COUNTER_TYPE_BITS		7
#define PERF_COUNTER_TYPE_SHIFT		56
#define PERF_COUNTER_TYPE_MASK		(((1ULL << PERF_COUNTER_TYPE_BITS) - 1) \
					 << PERF_COUNTER_TYPE_SHIFT)

#define PERF_COUNTER_EVENT_BITS		56
#define PERF_COUNTER_EVENT_SHIFT	0
#define PERF_COUNTER_EVENT_MASK		((1ULL << PERF_COUNTER_EVENT_BITS) - 1)

/* Build an event_config from a type and an id, or a raw machine code. */
#define PERF_COUNTER_CONFIG(type, id)					\
	((((__u64)(type) << PERF_COUNTER_TYPE_SHIFT) &			\
	  PERF_COUNTER_TYPE_MASK) | ((__u64)(id) & PERF_COUNTER_EVENT_MASK))
#define PERF_COUNTER_RAW_CONFIG(code)					\
	(PERF_COUNTER_RAW_MASK | ((__u64)(code) & PERF_COUNTER_CONFIG_MASK))

/* Take an event_config apart. */
#define PERF_COUNTER_IS_RAW(config)	(!!((config) & PERF_COUNTER_RAW_MASK))
#define PERF_COUNTER_TYPE(config)					\
	(((config) & PERF_COUNTER_TYPE_MASK) >> PERF_COUNTER_TYPE_SHIFT)
#define PERF_COUNTER_ID(config)		((config) & PERF_COUNTER_EVENT_MASK)

/*
 * The event types — PERF_TYPE_HARDWARE (0), PERF_TYPE_SOFTWARE (1) and
 * PERF_TYPE_TRACEPOINT (2) — and the read_format bits
 * PERF_FORMAT_TOTAL_TIME_ENABLED (1), PERF_FORMAT_TOTAL_TIME_RUNNING (2),
 * PERF_FORMAT_ID (4) and PERF_FORMAT_GROUP (8) carry the same names and
 * values in <linux/perf_event.h>, included above, so that one program
 * can use both interfaces.
 */

/* Generalized hardware events (type PERF_TYPE_HARDWARE). */
enum hw_event_ids {
	PERF_COUNT_CPU_CYCLES		= 0,
	PERF_COUNT_INSTRUCTIONS		= 1,
	PERF_COUNT_CACHE_REFERENCES	= 2,
	PERF_COUNT_CACHE_MISSES		= 3,
	PERF_COUNT_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_BRANCH_MISSES	= 5,
	PERF_COUNT_BUS_CYCLES		= 6,

	PERF_HW_EVENTS_MAX,
};

/* Software events (type PERF_TYPE_SOFTWARE), counted by the kernel. */
enum sw_event_ids {
	PERF_COUNT_CPU_CLOCK		= 0,
	PERF_COUNT_TASK_CLOCK		= 1,
	PERF_COUNT_PAGE_FAULTS		= 2,
	PERF_COUNT_CONTEXT_SWITCHES	= 3,
	PERF_COUNT_CPU_MIGRATIONS	= 4,
	PERF_COUNT_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_PAGE_FAULTS_MAJ	= 6,

	PERF_SW_EVENTS_MAX,
};

/*
 * record_type: what a sampling counter records at each overflow. A bit
 * mask; 0, 1 and 2 keep their first meanings.
 *
 * The 2009 format: with PERF_RECORD_IRQ alone or PERF_RECORD_GROUP
 * alone, and no context_switch or inherit_stat bit nor sideband, read()
 * returns the records the first perf_counter ABI defined, with no
 * header: IRQ, one __u64 ip a
 * record; GROUP, a { __u64 event_config, value } pair for every other
 * member of the group (a leader alone writes none). Drops are told by
 * PERF_COUNTER_IOC_LOST.
 *
 * Every other record_type reads in the extended format: records that
 * start with a struct perf_counter_record_header. A sample holds, after
 * its header and in this order, the fields whose bits are set:
 *
 *   IRQ    __u64 ip             instruction pointer interrupted
 *   TID    __u32 pid, tid       the task the event happened in
 *   TIME   __u64 time           CLOCK_MONOTONIC ns
 *   VALUE  __u64 value          the counter's value
 *   PERIOD __u64 period         the events this sample stands for:
 *                               the period that ran out (ns for a
 *                               clock), which a frequency counter's
 *                               kernel retunes and the PERIOD ioctl
 *                               changes
 *   ID     __u64 id             the counter's id (PERF_COUNTER_IOC_ID)
 *   GROUP  __u64 nr, then nr x { __u64 event_config, value }
 *                               every other member (leaders only);
 *                               with ID, nr x { event_config, value,
 *                               id }
 *   CALLCHAIN struct perf_counter_callchain, then nr x __u64
 *                               where the sample was taken from
 */
enum perf_counter_record_type {
	PERF_RECORD_SIMPLE		= 0,
	PERF_RECORD_IRQ			= 1U << 0,
	PERF_RECORD_GROUP		= 1U << 1,
	PERF_RECORD_TID			= 1U << 2,
	PERF_RECORD_TIME		= 1U << 3,
	PERF_RECORD_VALUE		= 1U << 4,
	PERF_RECORD_CALLCHAIN		= 1U << 5,
	PERF_RECORD_PERIOD		= 1U << 6,
	PERF_RECORD_ID			= 1U << 7,
};

#define PERF_COUNTER_RECORD_MASK	((PERF_RECORD_ID << 1) - 1)

/*
 * A sample's call chain: how it ended, then @nr words, innermost first.
 * The kernel's part, if any, follows the marker PERF_CONTEXT_KERNEL and
 * the user part PERF_CONTEXT_USER (perf_event's markers, values of
 * (__u64)-128 and -512 that no address takes). Markers do not count
 * towards the counter's callchain_depth; addresses do.
 */
struct perf_counter_callchain {
	__u32	nr;			/* words that follow, markers included */
	__u32	flags;			/* PERF_COUNTER_CHAIN_* */
};

/* How a call chain ended: the low two bits of its flags. */
/*
 * COMPLETE: at the outermost frame; TRUNCATED: one more address than
 * callchain_depth allows was there; BROKEN: at a frame that could not be
 * read or was not plausible.
 */
#define PERF_COUNTER_CHAIN_END_MASK	0x3U
#define PERF_COUNTER_CHAIN_COMPLETE	0x1U
#define PERF_COUNTER_CHAIN_TRUNCATED	0x2U
#define PERF_COUNTER_CHAIN_BROKEN	0x3U

/* callchain_depth: 0 asks for the default; at most the maximum. */
#define PERF_COUNTER_CHAIN_DEPTH_DEFAULT	127
#define PERF_COUNTER_CHAIN_DEPTH_MAX		255

/*
 * In the extended format every record read() returns starts with this
 * header; size counts the header and is a multiple of 8.
 */
struct perf_counter_record_header {
	__u32	type;		/* enum perf_counter_record_kind */
	__u32	size;
};

enum perf_counter_record_kind {
	PERF_COUNTER_REC_SAMPLE		= 1,	/* fields per record_type */
	PERF_COUNTER_REC_LOST		= 2,	/* __u64 records dropped */
	PERF_COUNTER_REC_SWITCH_OUT	= 3,	/* struct perf_counter_switch */
	PERF_COUNTER_REC_SWITCH_IN	= 4,	/* struct perf_counter_switch */
	PERF_COUNTER_REC_MMAP		= 5,	/* struct perf_counter_mmap */
	PERF_COUNTER_REC_COMM		= 6,	/* struct perf_counter_comm */
	PERF_COUNTER_REC_FORK		= 7,	/* struct perf_counter_task */
	PERF_COUNTER_REC_EXIT		= 8,	/* struct perf_counter_task */
	PERF_COUNTER_REC_LOST_SIDEBAND	= 9,	/* __u64 side-band, TOTALS dropped */
	PERF_COUNTER_REC_SWITCH_OUT_CHAIN = 10,	/* struct perf_counter_switch_out */
	PERF_COUNTER_REC_TOTALS		= 11,	/* struct perf_counter_totals */
};

/*
 * The body of a switch record, written for a counter with the
 * context_switch bit when its task leaves or takes the CPU. A CPU-wide
 * counter's records go on with the other task: the next one on a
 * switch-out, the previous one on a switch-in (size tells which form).
 */
struct perf_counter_switch {
	__u32	pid, tid;		/* the task switched out or in */
	__u64	time;			/* CLOCK_MONOTONIC ns */
	__u32	other_pid, other_tid;	/* CPU-wide counters only */
};

/*
 * A switch-out record that says where and why the task left, written in
 * place of SWITCH_OUT for a counter whose description's @switch_out has
 * PERF_SWITCH_OUT_CHAIN. @other is 0, 0 but for CPU-wide counters. The
 * body is followed by the outgoing task's call chain, taken in its own
 * context as a sample's is (struct perf_counter_callchain, then nr
 * words: the kernel part from the scheduler's call site, for a counter
 * that counts the kernel; the user part from the task's user state),
 * then @stack_words words: the user stack's first bytes from its stack
 * pointer, as they are in memory, for a tool to find the callers that
 * functions without a frame pointer leave out of the chain (fewer than
 * the description asked for where they cannot be read without a fault
 * or user space ends; none for a task without a user state or that may
 * not be dumped). Past this CPU's sample budget a switch-out is a plain
 * SWITCH_OUT record.
 */
struct perf_counter_switch_out {
	__u32	pid, tid;		/* the task switched out */
	__u64	time;			/* CLOCK_MONOTONIC ns */
	__u32	other_pid, other_tid;	/* the next one (CPU-wide counters) */
	__u32	flags;			/* PERF_COUNTER_SWITCH_* */
	__u32	stack_words;		/* user stack words after the chain */
};

/*
 * It was still runnable (preempted, or it yielded). Clear: it blocked
 * (or exited).
 */
#define PERF_COUNTER_SWITCH_PREEMPTED	0x1U

/*
 * Side-band records: what a task did that a tool needs to name its
 * samples, for a counter whose description's @sideband asks (enum
 * perf_counter_sideband). Each starts as a switch record does, with the
 * task and the CLOCK_MONOTONIC time samples carry, so that a tool orders
 * all of them exactly.
 *
 * MMAP: an executable mapping was made (mmap(), mprotect() adding
 * PROT_EXEC, exec's loading of the program and its interpreter, the
 * vDSO). @path is the file's, NUL-terminated and padded with NULs to a
 * multiple of 8 bytes; PERF_COUNTER_MMAP_CUT in @flags says it did not
 * fit PERF_COUNTER_MMAP_PATH_MAX bytes ("//toolong" stands for it),
 * PERF_COUNTER_MMAP_ANON that no file is mapped (@path then names the
 * mapping: "[vdso]", "//anon").
 * @dev and @ino tell two files of one path apart.
 */
struct perf_counter_mmap {
	__u32	pid, tid;
	__u64	time;
	__u64	addr;			/* start of the mapping */
	__u64	len;			/* its length in bytes */
	__u64	pgoff;			/* offset in the file, in bytes */
	__u64	dev;			/* the file's device, huge_encode_dev() */
	__u64	ino;			/* and inode number */
	__u32	prot;			/* PROT_* */
	__u32	flags;			/* PERF_COUNTER_MMAP_* */
	char	path[];
};

#define PERF_COUNTER_MMAP_CUT		0x1U	/* @path did not fit */
#define PERF_COUNTER_MMAP_ANON		0x2U	/* no file behind it */
#define PERF_COUNTER_MMAP_PATH_MAX	1024	/* with the NUL */

/*
 * COMM: the task's name changed, by exec (PERF_COUNTER_COMM_EXEC),
 * prctl(PR_SET_NAME) or /proc/PID/comm; @comm is NUL-terminated.
 */
struct perf_counter_comm {
	__u32	pid, tid;
	__u64	time;
	__u32	flags;			/* PERF_COUNTER_COMM_EXEC */
	__u32	__reserved;
	char	comm[16];
};

#define PERF_COUNTER_COMM_EXEC		0x1U

/*
 * FORK: @pid, @tid was made by @ppid, @ptid (a new thread has its
 * creator's pid). EXIT: @pid, @tid ended; @ppid, @ptid its parent then.
 */
struct perf_counter_task {
	__u32	pid, tid;
	__u64	time;
	__u32	ppid, ptid;
};

/*
 * TOTALS: what an exiting task counted, for a counter with the
 * inherit_stat bit: written when the counter's own task exits and when
 * each child that inherited it does, in the counter's queue, with the
 * task's own counts alone (not its children's). The body is followed by
 * the words read() of a counting counter with the same read_format
 * returns (see read_format below), of the task's copy: a group leader
 * with PERF_FORMAT_GROUP gives its group's (a child's: the members it
 * got at its fork and still has; the counter's own task's: the group at
 * its exit). Task counters only (EINVAL for a CPU-wide counter). Once
 * every task has exited, the records sum to the counter's value, but
 * for records dropped (told by LOST_SIDEBAND), a RESET meanwhile, and a
 * task whose counting an exec of a program its openers may not trace
 * ended (it writes none). None is written while the counter is in the
 * error state.
 */
struct perf_counter_totals {
	__u32	pid, tid;		/* the task that exited */
	__u64	time;			/* CLOCK_MONOTONIC ns */
};

/*
 * read_format: what read() of a counting counter returns (and
 * PERF_COUNTER_IOC_READ, and a TOTALS record) after the 64-bit value,
 * in this order: time enabled (ns), time running (ns), the counter's id
 * (PERF_FORMAT_ID). A group leader with PERF_FORMAT_GROUP reads its
 * whole group at one instant instead:
 *
 *   __u64 nr                    the leader and its members
 *   __u64 time_enabled          the leader's, with TOTAL_TIME_ENABLED
 *   __u64 time_running          the leader's, with TOTAL_TIME_RUNNING
 *   nr x { __u64 value;         the leader first, then the members in
 *          __u64 id; }          the order they joined; id with
 *                               PERF_FORMAT_ID
 *
 * PERF_FORMAT_GROUP is for leaders only: EINVAL on a member, where
 * perf_events takes it and reads the member's leader's group. A read
 * into a buffer too small for the whole group is ENOSPC. Counts of the
 * counter's own task (or CPU) are taken together, at one instant; an
 * inherited counter then adds each child's, as read() of one counter
 * does.
 */
#define PERF_COUNTER_FORMAT_MASK	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
					 PERF_FORMAT_TOTAL_TIME_RUNNING | \
					 PERF_FORMAT_ID | PERF_FORMAT_GROUP)

/*
 * PERF_COUNTER_IOC_READ's argument: where the words go and how many
 * bytes fit there.
 */
struct perf_counter_read_buf {
	__u64	addr;			/* a user pointer */
	__u32	size;			/* bytes at @addr */
	__u32	__reserved;		/* 0 */
};

/*
 * The counter description passed to perf_counter_open(): 64 bytes, as in
 * 2009, forever, so that a program that puts extra control words right
 * after it (struct { hw; extra[] }) keeps their place when rebuilt.
 * Every reserved field and bit must be zero (EINVAL).
 *
 * How the description grows: fields added since 2009 follow the 64 bytes,
 * in struct perf_counter_hw_event_ext below. @size is 0 in a description
 * of 2009 (the kernel reads the 64 bytes and nothing past them); a program
 * that uses a later field passes the ext struct with @size set to
 * sizeof(struct perf_counter_hw_event_ext) of the header it was built
 * with (a multiple of 8, 64 to 4096, else EINVAL). Fields past @size read
 * as zero, so a program built against an older header runs on a newer
 * kernel unchanged. Nonzero bytes past the fields the kernel knows fail
 * with E2BIG, and the kernel writes the size it knows into @size: a newer
 * program on an older kernel is told, never silently loses a field. The
 * extra control words follow the @size bytes (64 when @size is 0).
 */
struct perf_counter_hw_event {
	__u64	event_config;

	__u64	irq_period;
	__u64	record_type;
	__u64	read_format;

	__u64	disabled       :  1,	/* off by default		*/
		nmi	       :  1,	/* NMI sampling (root only)	*/
		inherit	       :  1,	/* children inherit it		*/
		pinned	       :  1,	/* must always be on PMU	*/
		exclusive      :  1,	/* only group on PMU		*/
		exclude_user   :  1,	/* don't count user		*/
		exclude_kernel :  1,	/* ditto kernel			*/
		exclude_hv     :  1,	/* ditto hypervisor		*/
		exclude_idle   :  1,	/* don't count when idle	*/
		context_switch :  1,	/* switch-out/in records	*/
		inherit_stat   :  1,	/* TOTALS records at exits	*/

		__reserved_1   : 53;

	/*
	 * Bytes of __u64 control words that follow this struct: raw
	 * events only, at most 16 (P4: the ESCR word; 32-bit PowerPC,
	 * exclusive counters only: MMCR0's THRESHOLD field, then
	 * MMCR2's THRESHMULT bit on the parts with MMCR2).
	 */
	__u32	extra_config_len;

	__u32	size;			/* 0: these 64 bytes alone */
	__u64	__reserved_2;
	__u64	__reserved_3;
};

/* The description with the fields added since 2009 (see above). */
struct perf_counter_hw_event_ext {
	struct perf_counter_hw_event	hw;	/* hw.size: sizeof(this) */

	/* PERF_COUNTER_HW_EVENT_SIZE_VER1 */
	__u16	callchain_depth;	/* addresses a chain may hold */
	__u16	__reserved_5;
	__u32	__reserved_6;

	/* PERF_COUNTER_HW_EVENT_SIZE_VER2 */
	__u64	sideband;		/* enum perf_counter_sideband */

	/* PERF_COUNTER_HW_EVENT_SIZE_VER3 */
	__u64	sample_freq;		/* samples a second, irq_period 0 */

	/* PERF_COUNTER_HW_EVENT_SIZE_VER4 */
	__u32	switch_out;		/* PERF_SWITCH_OUT_* */
	__u16	switch_stack;		/* user stack words a switch-out copies */
	__u16	__reserved_7;
};

#define PERF_COUNTER_HW_EVENT_SIZE_2009	64
#define PERF_COUNTER_HW_EVENT_SIZE_VER1	72
#define PERF_COUNTER_HW_EVENT_SIZE_VER2	80
#define PERF_COUNTER_HW_EVENT_SIZE_VER3	88
#define PERF_COUNTER_HW_EVENT_SIZE_VER4	96

/*
 * What a switch-out record carries (@switch_out), for a counter with the
 * context_switch bit. CHAIN: the outgoing task's call chain and whether
 * it was preempted, in PERF_COUNTER_REC_SWITCH_OUT_CHAIN records; the
 * counter's record_type must have PERF_RECORD_CALLCHAIN (whose depth it
 * takes) and its exclude bits decide the parts, as for a sample. Then
 * @switch_stack (CHAIN, a counter of user mode, at most
 * PERF_SWITCH_STACK_MAX) words of the user stack follow each chain. A
 * kernel older than these fields refuses them (E2BIG): a tool is told
 * that off-CPU chains are not to be had, rather than getting records
 * without them.
 */
#define PERF_SWITCH_OUT_CHAIN		0x1U
#define PERF_SWITCH_OUT_MASK		0x1U
#define PERF_SWITCH_STACK_MAX		64

/*
 * Frequency sampling: a counter with @sample_freq (and a record_type,
 * and irq_period 0) samples about that many times a second, the kernel
 * choosing its period from the rate of its events: a second of
 * CLOCK_MONOTONIC for counts of events, a second of the clock's own
 * time for cpu-clock and task-clock (whose period is then exactly
 * 10^9 / @sample_freq ns). At most kernel.perf_event_max_sample_rate
 * and 2^20 (EINVAL above), and for a clock 10^9 / 50000 a second.
 */

/*
 * The side-band records a counter with a queue asks for (see struct
 * perf_counter_mmap and after): of its task, and of the children that
 * inherit it, or of every task on its CPU for a CPU-wide counter.
 */
enum perf_counter_sideband {
	PERF_SIDEBAND_MMAP		= 1U << 0,	/* executable mappings */
	PERF_SIDEBAND_COMM		= 1U << 1,	/* name changes */
	PERF_SIDEBAND_TASK		= 1U << 2,	/* fork and exit */
};

#define PERF_SIDEBAND_MASK		((PERF_SIDEBAND_TASK << 1) - 1)

/* ioctl()s on a counter fd. */
#define PERF_COUNTER_IOC_ENABLE		_IO('$', 0)
#define PERF_COUNTER_IOC_DISABLE	_IO('$', 1)
/*
 * The size in bytes of a counter's record queue, for any counter that has
 * one (irq_period, context_switch or inherit_stat set): a power of two,
 * 4 KiB..1 MiB.
 */
#define PERF_COUNTER_IOC_QUEUE_SIZE	_IOW('$', 2, __u32)
/* Records a counter's queue dropped since it was opened, told or not. */
#define PERF_COUNTER_IOC_LOST		_IOR('$', 3, __u64)
/*
 * A sampling counter's period from now on (its frequency, samples a
 * second, for a frequency counter), as irq_period or sample_freq would
 * be at the open: a period that has already run past the new one ends
 * at the next event. The counter and its inherited copies; not the
 * other members of its group. EINVAL on a counting counter and for a
 * value the open would refuse.
 */
#define PERF_COUNTER_IOC_PERIOD		_IOW('$', 4, __u64)
/*
 * The value back to 0 (the times go on); a sampling counter's current
 * period starts again. A leader resets its whole group, a member
 * itself; inherited copies with it.
 */
#define PERF_COUNTER_IOC_RESET		_IO('$', 5)
/*
 * Enable a sampling counter for @arg (1 to INT_MAX) more samples: it
 * disables itself (a leader with its group, as the DISABLE ioctl) once
 * it has taken them (a sample a full queue drops counts), and its
 * owner's overflow signal says POLL_HUP. Adds to what is left of an
 * earlier refresh; the ENABLE ioctl ends one. EINVAL on a counting or
 * an inherited counter, or for @arg out of range.
 */
#define PERF_COUNTER_IOC_REFRESH	_IO('$', 6)
/*
 * The counter's id: unique among the counters of the running kernel,
 * never 0, the same for the counter's whole life and for its inherited
 * copies, as PERF_FORMAT_ID, PERF_RECORD_ID and TOTALS records give it.
 * Its number is perf_events' PERF_EVENT_IOC_ID's on 64-bit machines,
 * another on 32-bit ones (its size is a __u64's, not a pointer's): each
 * fd answers its own subsystem's ioctls, so the two never mix.
 */
#define PERF_COUNTER_IOC_ID		_IOR('$', 7, __u64)
/*
 * The words read() of a counting counter returns, for any counter, one
 * with a queue too (whose read() gives its records): the value, the
 * times and the id its read_format asks for, or its group's. Returns
 * the bytes written (0 for a counter in the error state, as read()
 * gives); ENOSPC if they do not fit @size.
 */
#define PERF_COUNTER_IOC_READ		_IOW('$', 8, struct perf_counter_read_buf)
/*
 * Send this counter's records (samples, switch and side-band records,
 * totals) to the queue of the counter whose fd is @arg from now on, or
 * back to its own for -1 (2.6.32's PERF_EVENT_IOC_SET_OUTPUT): a
 * group, every CPU of a system-wide profile, or counters of several
 * tasks then fill one ring. Both counters must have a queue in the
 * headered format; the other counter's own records must not go
 * elsewhere (EINVAL); this counter's queue must not be mapped (EBUSY).
 * Its inherited copies follow it. Its own queue then gets nothing more:
 * its fd may still be read for what it holds.
 */
#define PERF_COUNTER_IOC_SET_OUTPUT	_IO('$', 9)
/*
 * Wake a reader waiting on the queue (poll(), a blocked read()) only
 * once @arg bytes of records wait in it (0, the default: at each
 * record; a size the ring cannot hold: at half the ring). Drops to
 * tell and the counter's end wake it whatever is waiting.
 */
#define PERF_COUNTER_IOC_WAKEUP		_IOW('$', 10, __u32)

/*
 * Overflow signals: fcntl(F_SETOWN) (or F_SETOWN_EX), F_SETSIG and
 * O_ASYNC on a sampling counter, as on any file: its owner gets a
 * signal when samples are ready, and when a refresh has run out. With
 * F_SETSIG, the signal chosen carries si_fd (the counter's fd), si_code
 * POLL_IN and si_band POLLIN | POLLRDNORM for samples, POLL_HUP and
 * POLLERR | POLLHUP for the refresh's end; without, a plain SIGIO. One
 * signal a wakeup: samples written before it is sent share it. Drops,
 * switch and side-band records send none, so that signals are held to
 * the sample budget as samples are. Owners the setter of the owner may
 * not signal get none. A counting counter takes O_ASYNC and never
 * signals.
 */

/*
 * The counter page: mmap() of a counter fd, one page at offset 0,
 * read-only, gives the task the counter counts in a way to read it
 * without a system call (see Documentation/userspace-api/perf_counter.rst
 * and tools/perf_counter/pc_self.h). Counters of the caller's own
 * thread that are neither inherited nor sampling only.
 *
 * The kernel makes @seq odd, writes the rest, then makes it even again:
 * a reader takes @seq, waits while it is odd, reads what it needs, and
 * starts again if @seq has changed meanwhile. The value and times then
 * stand as at @stamp, CLOCK_MONOTONIC ns:
 *
 *   PAGE_READ clear     the page cannot give the value now: read().
 *   PAGE_RUNNING set    the counter is counting: time_enabled and
 *                       time_running run on at one ns per ns of
 *                       CLOCK_MONOTONIC after @stamp, and so does the
 *                       value when PAGE_CLOCK is set as well.
 *   @reg nonzero        the value runs on in a counter register the
 *                       counter's task may read in user mode (PowerPC:
 *                       UPMC<reg>); add the register's raw value minus
 *                       @reg_base, modulo 2^@reg_bits.
 *
 * The rest of the page reads as zero.
 */
struct perf_counter_page {
	__u32	version;	/* PERF_COUNTER_PAGE_VERSION */
	__u32	seq;		/* odd while the kernel writes the page */
	__u32	flags;		/* PERF_COUNTER_PAGE_* */
	__u16	reg;		/* user-readable register + 1, or 0 */
	__u16	reg_bits;	/* its width, when @reg is nonzero */
	__u64	value;		/* the counter's value at @stamp */
	__u64	reg_base;	/* @reg's raw value at @stamp */
	__u64	time_enabled;	/* ns, at @stamp */
	__u64	time_running;	/* ns, at @stamp */
	__u64	stamp;		/* CLOCK_MONOTONIC ns */
};

#define PERF_COUNTER_PAGE_VERSION	1

#define PERF_COUNTER_PAGE_READ		(1U << 0)
#define PERF_COUNTER_PAGE_RUNNING	(1U << 1)
#define PERF_COUNTER_PAGE_CLOCK		(1U << 2)

/*
 * The record ring: mmap() of a counter fd whose counter has a queue in
 * the headered format (the 2009 one: EOPNOTSUPP), shared and writable, at
 * offset 0, of 1 + 2^n pages whose 2^n data pages hold at most 1 MiB
 * (else EINVAL). The first page is this control page, the rest the ring the counter's
 * records are written to, each a struct perf_counter_record_header and
 * its words, a record running on from the ring's end at its start. It
 * replaces the queue's read() ring (records waiting in it: EBUSY), and
 * from then on read() of records gives EBUSY: they are read here. The
 * mapping is not inherited by fork(); mapping it again gives the same
 * ring (another size: EINVAL); unmapping it leaves the ring with the
 * counter, which goes on writing what fits.
 *
 * @data_head and @data_tail count bytes written and read since the ring
 * was made; only their difference, and each modulo @data_size, is
 * meaningful. The kernel writes records at @data_head, then moves it (a
 * reader loads it with acquire semantics: records below it are whole);
 * the reader reads them from @data_tail & (@data_size - 1) and moves
 * @data_tail past them with release semantics when done with their
 * bytes, which the kernel may then overwrite. A record that does not
 * fit between the two is dropped, and counted: @lost, and a LOST record
 * ahead of the next record that fits. A @data_tail behind @data_head by
 * more than @data_size, or not a multiple of 8, leaves the ring full.
 * A ring too small for the counter's largest record drops it, counted.
 * poll() says readable when records wait (past the WAKEUP mark): drops
 * alone are told in @lost, not by poll().
 * On 32-bit machines @data_head, @data_tail and @lost count modulo
 * 2^32: the kernel keeps their high halves 0 and reads @data_tail's low
 * half alone, so a reader takes differences of the low halves (a
 * 32-bit unsigned long's arithmetic) and no value is ever torn.
 */
struct perf_counter_ring_page {
	__u32	version;	/* PERF_COUNTER_RING_VERSION */
	__u32	__reserved_0;
	__u64	data_offset;	/* where the ring starts: one page in */
	__u64	data_size;	/* its bytes: 2^n pages */
	__u64	lost;		/* records dropped since the counter's open */
	__u64	__reserved[124];
	__u64	data_head;	/* bytes written: the kernel's, at 1024 */
	__u64	data_tail;	/* bytes read: the reader's */
};

#define PERF_COUNTER_RING_VERSION	1

/* prctl() options: the same numbers as PR_TASK_PERF_EVENTS_*. */
#define PR_TASK_PERF_COUNTERS_DISABLE	31
#define PR_TASK_PERF_COUNTERS_ENABLE	32

#endif /* _UAPI_LINUX_PERF_COUNTER_H */
