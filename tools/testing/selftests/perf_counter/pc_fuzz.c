// SPDX-License-Identifier: GPL-2.0
/*
 * pc_fuzz: a bounded, seeded, replayable fuzzer of perf_counter_open()
 * and of what can be done with the file descriptors it returns.
 *
 *   pc_fuzz [-s SEED] [-n CALLS] [-t SECONDS] [-p PROCS] [-T THREADS] [-H]
 *
 * PROCS worker processes of THREADS threads each make random calls until
 * CALLS system calls have been made in all or SECONDS have passed:
 * perf_counter_open() with random, mostly valid, counter descriptions at
 * good and bad addresses, for random tasks, CPUs and groups; read(),
 * readv(), ioctl() (PERIOD, RESET, REFRESH, ID and READ among them),
 * poll() and
 * ppoll(), fcntl(O_NONBLOCK), fcntl(F_SETOWN, F_SETOWN_EX, F_SETSIG and
 * O_ASYNC: overflow signals), dup(), dup2() and close() on the fds;
 * mmap() of a counter's page, its reads and munmap(), the fd closed,
 * a fork made, a child exiting or exec'ing while it is mapped;
 * mmap() of a counter's record ring, good and bad, its records read
 * in place, data_tail written sane and not, munmap(), the fds closed
 * under it; ioctl(SET_OUTPUT) and ioctl(WAKEUP);
 * prctl(PR_TASK_PERF_COUNTERS_*); fork(), the child
 * exiting at once, making a few calls of its own, or exec'ing this
 * program to make a few calls; sched_setaffinity(); short-lived
 * threads; with -H (root only), taking CPUs other than 0 offline and
 * online; and, not counted as calls, busy loops and page faults for
 * the software counters to see. Sampling counters on the clocks run at
 * periods down to the 50 us floor, on page faults and switches at 1 to
 * 3 events, and frequency counters (sample_freq) at up to
 * kernel.perf_event_max_sample_rate samples a second (a clock's at up
 * to 20000): their interrupts fire, and their records are read. As
 * root with two or more processes, the last worker process runs as
 * nobody (uid and gid 65534) at kernel.perf_event_paranoid 2 (set by
 * the top process if it is not, and put back on every way out of it
 * but a SIGKILL), without
 * injected faults (make-it-fail is root's to write).
 * Half the opens have arguments that are all valid and fit together (a
 * group leader counting the same task on the same CPU), to get deep into
 * the kernel; the other half draw every argument on its own, from
 * values valid and not, reserved bits and bad pointers included.
 *
 * Oracles. A valid open (the fuzzer built it) may fail only for a
 * reason that applies to it; these, from syscall.c and what it calls
 * (paranoid.c, context.c, config.c, group.c, hw_counter.c, queue.c):
 *
 *   EACCES   without privilege, exactly where paranoid.c asks for it
 *            (level > 2; > 0 and a whole CPU; > 1 and kernel mode
 *            counted), and for init's task (nobody may not trace it);
 *            then it is the only errno allowed, and an open that
 *            succeeds fails the run. Also for nobody's open of a
 *            child or thread that may have gone, its pid now a root
 *            task's. Never as root (uid 0 is taken to hold
 *            CAP_SYS_ADMIN, as in every boot of the harness: root
 *            without it, in a container, would see EACCES fail).
 *   EINVAL   a hardware id or raw code its driver cannot decode, or
 *            cannot put beside its group's hardware; a CPU offline
 *            (only when -H runs or it was offline at the start: the
 *            kernel gives EINVAL, not ENODEV, for an offline CPU); a
 *            group whose leader counts a child or thread that may have
 *            gone, its pid now another task's; a sample_freq above
 *            kernel.perf_event_max_sample_rate as read after the open
 *   ENODEV   a hardware counter: no working PMU, or not on that CPU
 *   EBUSY    a hardware counter: the PMU held by perf_events
 *   ENOSPC   joining a group that its hardware registers, or its
 *            leader's group records (PERF_RECORD_GROUP samples; a
 *            PERF_FORMAT_GROUP leader's TOTALS), could not hold
 *   ESRCH    another task (pid > 0, not this process), which may exit
 *   EINTR    a task's counter: a signal while waiting for its exec lock
 *   ENOMEM   under injection; a counter with a queue (RLIMIT_MEMLOCK)
 *   EMFILE   only where RLIMIT_NOFILE, not MAX_FDS, set the fd cap
 *
 * Any other errno of a valid open fails the run. A random open may
 * fail with any errno of the ABI (open_errnos), and must fail where a
 * reason is known: flags, an unreadable description, no task and no
 * CPU, a CPU past nr_cpu_ids, a group_fd that is no counter, reserved
 * or unknown bits (read_format's are the times, ID and GROUP;
 * record_type's up to ID), inherit_stat without inherit or on a
 * CPU-wide counter, half a sampling request, a period of 2^63 or more,
 * a clock period under 50 us, a sample_freq with an irq_period or
 * without a record_type, or above kernel.perf_event_max_sample_rate (a
 * clock's above 20000 too), side-band records without a queue (a
 * sampler's, a switch log's, an inherit_stat counter's), extra words on
 * other than a raw event or past the page, a member (of a group_fd the
 * worker holds) pinned, exclusive, recording or reading its group
 * (PERF_FORMAT_GROUP) or inherited where its leader is not or the other
 * way round, an unknown type or id; it opening fails the run. The
 * sysctl is read before and after each call that depends on it: only
 * perf_events changes it while the fuzzer runs, lowering it when its
 * own interrupts run long, so a valid frequency (drawn under it) may be
 * refused only where the value read after the open is below it.
 *
 * A read() or readv() of a counting counter (and the READ ioctl of any
 * counter) gives what its read_format says: the value, the times and
 * the id asked for; or, a leader's with PERF_FORMAT_GROUP, nr, the
 * times, then a value (and id) for the leader and each member, nr at
 * least the leader and the members whose fds the worker holds (another
 * thread, through a number this one closed, and forked children may add
 * members it does not see, and a member closed here may live on in a
 * child: nr is not known exactly, only that it is at least that and at
 * most the counters the worker's process and children can hold), the
 * size that nr's (EBUSY of a queue: see the ring below). ENOSPC
 * exactly where the buffer cannot hold any such size (may, where it
 * cannot hold some), EFAULT where the writable bytes cannot (after the
 * VFS's own EFAULT for a kernel address, and a readv() of 0 bytes is
 * 0), ENOMEM for a group read under injection, 0
 * only for a pinned counter (in error). Its time running is not above
 * its time enabled, and no word is below what the fd's last read gave,
 * but the value after a RESET (see below): times only grow, and the
 * value only grows between resets; a group read's member values too,
 * against their own fds' reads. Ids are nonzero, the counter's own
 * (every fd and every source: PERF_FORMAT_ID, a sample's PERF_RECORD_ID,
 * a TOTALS record, the ID ioctl) and no other counter's; a group's are
 * all different, the leader's first, and the members the worker holds
 * (their ids known) are there in the order they joined. A counter with
 * a queue's records are whole, of the kinds it asked for, each of the
 * size its record_type gives (ID a word, GROUP's members 24 bytes with
 * it); a sample's PERIOD word is 1 to 2^63 - 1, at least 50000 (ns)
 * for a clock, and for a fixed period the irq_period itself while no
 * PERIOD ioctl can have changed it; its ID word its counter's, its
 * members' other ids. An inherit_stat counter's TOTALS records are of
 * the size its read_format gives (a group's nr at least 1: a child's
 * copy's group as at its fork, not modelled further), their times and
 * ids as a read's; it reads in the extended format, and its drops are
 * told as side-band's (LOST_SIDEBAND).
 *
 * The ioctls on a worker's own counter: ENABLE, DISABLE and RESET
 * succeed; QUEUE_SIZE on a counting counter is EINVAL; PERIOD is
 * EFAULT for an unreadable argument, EINVAL for a counting counter, 0,
 * 2^63 or more, a clock period under 50000 ns, or a frequency counter's
 * frequency above its most (as at the open, with the sysctl read before
 * and after), else 0; REFRESH is EINVAL for a counting or an inherited
 * counter, or a count of 0 or above INT_MAX, else 0; ID on any counter
 * is EFAULT for an argument the kernel cannot write, else 0 and its id
 * (above); READ is EFAULT for an unreadable argument, EINVAL for
 * __reserved set, else as a read of its values (above), never with a
 * random buffer address, which the kernel would write to. A RESET of a
 * counter (a leader: of its group) lets the next read of its value, and
 * its members', start again. Forked children make no RESET and no
 * PERIOD on their parent's counters, and a counter another process or
 * thread may reset (a child's copy of its parent's fd, a member of a
 * group the worker does not lead) is held to its times only. PERIOD
 * and RESET are made on the worker's own fds (and /dev/null) only,
 * never on a number it closed (another thread's counter, perhaps).
 *
 * fcntl() on a worker's own counter: F_SETOWN (the worker's process,
 * its thread, its process group, its target, none) succeeds, INT_MIN is
 * EINVAL; F_SETOWN_EX likewise, EINVAL for an unknown type, EFAULT for
 * NULL; F_SETSIG succeeds for 0 to 64, EINVAL past; O_ASYNC set is 0
 * (ENOMEM under injection on a counter with a queue, whose fasync entry
 * is allocated; a counting counter takes the flag and never signals),
 * and cleared, 0. The signals chosen
 * (SIGIO, SIGRTMIN and SIGRTMIN + 1) are ignored by the top process and
 * exec'd children, and counted by the worker processes and theirs: each
 * must be POLL_IN with si_band POLLIN | POLLRDNORM, POLL_HUP with
 * POLLERR | POLLHUP (a spent REFRESH), or the plain SIGIO of
 * SEND_SIG_PRIV (F_SETSIG 0, or an RT signal queue full), with an si_fd;
 * the run fails on any other. Only the worker's own fds and /dev/null
 * get these calls. How many signals come is not modelled (no crash, no
 * leak): the "# overflow signals:" line gives their count.
 *
 * A counter page is given where page.c must give it (a worker thread's
 * own counting counter, not inherited) and refused where it must
 * (EOPNOTSUPP; a writable one EACCES, another length or offset EINVAL;
 * a counter with a queue maps its ring, whose shape a page's is not:
 * EINVAL, a 2009 queue's EOPNOTSUPP); it reads with the current
 * version, no unknown flag, time running not above time enabled, and a
 * read() after it is not below the value it showed.
 *
 * The record ring (queue_map.c): a counter with a headered queue maps a
 * control page and 2^n pages of records, shared and writable, at
 * offset 0, no more than 1 MiB of them. mmap() of random shapes is
 * held to what pc_mmap() must answer: EOPNOTSUPP for a 2009 queue;
 * EINVAL for another shape, for a counter whose records go to another's
 * queue, for another size than the ring mapped; EACCES for an
 * executable one; the same memory again for its size (EBUSY, another
 * task's reader holding the queue for an instant, is tried again up to
 * RING_TRIES times); for a queue not
 * mapped a new ring, or EBUSY (records wait for read(): half the first
 * mappings read them first), or ENOMEM where its memory may be refused
 * (injection, RLIMIT_MEMLOCK without privilege, RING_BIG or more); a
 * counting counter's, the page's rules. Mapped, a queue stays so:
 * read() and readv() of it are EBUSY (but for the VFS's EFAULT, a
 * readv() of 0 bytes and a pinned counter in error), and of one not
 * mapped never; QUEUE_SIZE never takes (EFAULT, EINVAL, ENOMEM or
 * EBUSY). A worker thread keeps up to MAX_RINGS rings, RING_MAPS
 * mappings of each, and at each call on one checks its control page:
 * version 1, data_offset a page, data_size its size, data_head a
 * multiple of 8 that never goes back and is never more than the ring
 * past the reader's tail, lost never back (on a 32-bit machine both
 * count modulo 2^32, their high halves 0, and the kernel reads
 * data_tail's low half alone), data_tail what the fuzzer wrote. Then
 * it reads the records (up to READ_BUF bytes a call, each whole: a
 * size of 8 or more, a multiple of 8, within the head, a known kind;
 * in a ring only its counter writes to, as a read()'s
 * records are held) and gives their room back or keeps it (the ring
 * fills, and drops); or writes a tail the kernel cannot take (ahead by
 * more than the ring, not a multiple of 8, more than the ring behind,
 * far off: the ring then takes no record past the one reservation
 * that may have been in flight) or one it may (just ahead, which is
 * then skipped to the head; back within the ring), given back at a
 * later call; or holds lost to PERF_COUNTER_IOC_LOST (never above what
 * it counts after, and where every drop shows at once,
 * lost_told_at_once(), never below what it counted before) and poll()
 * to the WAKEUP mark (readable once the records waiting reach it, a
 * mark the ring cannot hold being half of it; not short of it, unless
 * hung up); or maps it again (a word written through one mapping is in
 * the other; another size EINVAL); or unmaps a mapping; or closes
 * every fd of its counter, and reads on (the mapping holds it). A
 * forked child has none of its parent's mappings (mincore() finds
 * nothing at them); a child exits or execs with its own mapped.
 *
 * SET_OUTPUT (output.c) of the worker's counters (or /dev/null:
 * ENOTTY; a number no fd has: EBADF) to -1 or their own fd, to another
 * of its counters, to /dev/null, to a number no fd has or -2, to a
 * number closed lately (only from a counter the call cannot send
 * elsewhere: it may be another thread's counter by now): EBADF;
 * EINVAL for no headered queue on either side, not a counter, a target
 * queue that may not hold the counter's largest record, or a target
 * whose own records go elsewhere; EBUSY for a counter whose ring is
 * mapped; ENOMEM where a ring made at first use may fail; else 0. The
 * model follows where each counter's records go: a queue others'
 * records come to is held to whole records of known kinds only, and a
 * counter a forked child reads as its own is never made a target.
 * WAKEUP of marks of any size: EINVAL without a queue, EFAULT for an
 * unreadable mark, else 0. A headered queue of a counter opened
 * disabled gets its ring at its first use (charged at the open):
 * ENABLE, REFRESH, prctl()'s enable and SET_OUTPUT may then be ENOMEM
 * under injection (ring_alloc_may_fail()). Forked children make no
 * mmap(), SET_OUTPUT or WAKEUP on their parent's counters, and hold
 * theirs mapped since the fork or not (EBUSY allowed). The "# rings:"
 * line counts what reached these oracles.
 *
 * A run of MIN_RATE_S or more fails if it made fewer successful opens,
 * reads that gave bytes, records and counter page reads a minute than
 * MIN_RATE_* (measured rates, with margin: see there), or its nobody
 * worker had no valid open refused with EACCES. The result line gives
 * the rates.
 *
 * The test also fails when what cannot fail does (enabling, but for a
 * ring's first use, disabling, resetting or closing its own counter,
 * prctl() with zero arguments but for ENOMEM under injection, poll()
 * finding a counting counter readable), when a worker
 * process, a child or the counted target dies from a signal the fuzzer
 * did not send it or exits with a status other than 0, or when the
 * workers are still running SECONDS + 60 s after the start (a hang: the
 * state and kernel stack of each of their tasks are printed). It also
 * fails, as "syscall not available", when a task-clock counter on
 * itself cannot be opened: no perf_counter_open() in this kernel. What
 * the kernel noticed on its side (KASAN, kmemleak, lockdep) is in the
 * kernel log, for whoever runs this to scan.
 *
 * Fault injection. Started as a task marked make-it-fail (the harness's
 * "failslab" runs: /init marks the program at its first
 * perf_counter_open(), clone() or fork()), the fuzzer injects allocation
 * failures only into the calls that exercise perf_counter, so that
 * nothing else can fail by injection and nothing has to be excused:
 *
 * - The top process never runs with faults. Before anything else it
 *   opens its /proc/thread-self/make-it-fail, then makes a
 *   perf_counter_open() that fails before it allocates (flags 1:
 *   EINVAL), where /init marks it; the flag read then says whether the
 *   run injects, and is turned off for good.
 * - Each worker thread opens its own make-it-fail once, faults off, and
 *   turns its faults on with a one-byte write() to it (the kernel's
 *   write allocates nothing and the byte is on the stack: the toggle
 *   cannot fail) just around perf_counter_open(), read(), readv(),
 *   ioctl(), poll(), ppoll(), fcntl(), dup(), dup2(), mmap() and close()
 *   on counter fds,
 *   prctl(PR_TASK_PERF_COUNTERS_*), and half the fork()s the thread
 *   makes while it has inherited counters of its own (the fork copies
 *   them; nearly every fork with faults on fails, the other half give
 *   children that hold the copies); off for all else: thread creation,
 *   exec, exit, CPU affinity and hotplug, the C library and its page
 *   faults. A short-lived thread does the same around its calls.
 * - A forked child starts with its parent's flag as it was at the fork:
 *   it first opens its own make-it-fail (up to MIF_TRIES times: with
 *   faults on the open itself may fail) and turns its faults off, then
 *   on around its own calls only; it execs and exits with them off. An
 *   exec'd child is told by its arguments whether to inject.
 * - What the kernel writes into (the read buffer, the ioctl argument,
 *   pollfds, the stack a signal frame goes on) is made resident first,
 *   faults off, so that a copy to user memory needs no page table.
 *
 * Injection may add ENOMEM to perf_counter_open(), ioctl(), poll(),
 * dup(), mmap(), fork() and fcntl(O_ASYNC), all of which the rules
 * allow under injection (a ring's mmap() that fails so may have left
 * its queue mapped: the model then does not know, until a later call
 * says), to prctl() where a security module is asked about each
 * counter (the list of leaders is allocated), and EFAULT
 * only where a call is given a random address (a page there, if any,
 * might need memory to be faulted in; EFAULT is allowed there anyway).
 * Every other errno rule stands, and nothing is excused: a worker or a
 * child that dies of a signal the fuzzer did not send fails the run,
 * with or without injection, and no worker is ever started again. A run
 * under injection also fails when MIN_FAULTED or more of its calls were
 * made with faults on and neither perf_counter_open() nor ioctl() saw
 * ENOMEM, or the injector's counters say it failed nothing: injection
 * did not reach perf_counter. The result line gives the calls made
 * with faults on, the faults injected (what failslab's and
 * fail_page_alloc's "times" fell by: /init sets them to INT_MAX) and
 * the ENOMEMs each kind of call saw.
 *
 * Replay: every worker (process p, thread t) draws its choices from a
 * stream of its own derived from SEED, p and t; the seed is printed
 * first. "pc_fuzz -s SEED" with the same -p and -T makes the same
 * choices again, as far as the kernel answers the same way (a choice
 * among the open fds depends on which opens worked; injected faults
 * fall at random, so a run under injection replays less). A failure
 * names the worker ("w1.0" is process 1, thread 0), the index of its
 * call, and the call with all its arguments.
 *
 * Output is KTAP with a single test. Exit status 0 on pass, 1 on fail.
 * The option -x is for the program's own use: a child exec'd by a worker
 * runs "pc_fuzz -s SEED -x N:FD:F:WHO", making N calls (with faults
 * injected around them if F is 1) and writing any failure to fd FD.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "pc_util.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id	_sigev_un._tid
#endif

#define MAX_FDS		64	/* fds one worker thread keeps open */
#define MAX_HELPERS	4	/* short-lived threads one worker has */
#define MAX_KIDS	16	/* forked children one worker process has */
#define MAX_PROCS	64
#define MAX_THREADS	64
#define MAX_HOTPLUG	64	/* CPUs -H takes offline and online */
#define MAX_FAILS	20	/* failures described in the report */
#define FAIL_LEN	320
#define TAG_LEN		48	/* a worker's name, "w1.0 op 17 fork" */
#define WHO_LEN		96	/* its name and the index of a call */
#define MAX_ERRNO	134	/* errnos counted one by one; others in 0 */
#define READ_BUF	65536	/* the largest read; then PROT_NONE */
#define KID_MAX_OPS	16	/* calls a forked or exec'd child makes */
#define WATCHDOG_S	60	/* s past SECONDS: then it is a hang */
#define MIF_TRIES	100	/* opens of make-it-fail with faults on */
#define MIN_FAULTED	1000	/* calls with faults on that must see ENOMEM */
#define STACK_TOUCH	65536	/* stack made resident below a worker's calls */
#define KID_NO_MIF	3	/* a child's exit: its faults stayed on */
#define REAP_S		10	/* s to wait for killed workers to go */
#define EXEC_CHILD_S	30	/* s an exec'd child may run at most */
#define READ_GUARD_NS	20000000L	/* how long a read may block */
#define NSEC_PER_SEC	1000000000ULL
#define NO_SUCH_SYSCALL	0x7ffffL	/* no system call has it */
#define NEVER_FD	INT_MAX	/* no fd has it: past any fd table's size */
#define MAX_RINGS	4	/* record rings one worker thread keeps mapped */
#define RING_MAPS	2	/* mappings of one ring it keeps */
#define RING_TRIES	3	/* mmap()s of a mapped ring, in case of EBUSY */
#define RING_DATA_MAX	(1U << 20)	/* a ring's most data (PC_QUEUE_MAX) */
#define RING_BIG	(256U << 10)	/* a ring vmalloc space may lack */
#define CLOCK_PERIOD_MIN	50000	/* ns: PC_CLOCK_PERIOD_MIN */
/* a clock's most samples a second: one every CLOCK_PERIOD_MIN ns */
#define CLOCK_FREQ_MAX		(NSEC_PER_SEC / CLOCK_PERIOD_MIN)
/* kernel.perf_event_max_sample_rate without perf_events (throttle.c) */
#define SAMPLE_RATE_DEFAULT	100000
/*
 * The least work a run does per minute (see the top). Measured on
 * ppc32 (the 7450, one CPU, beside two other builds and boots), seven
 * runs of 30 to 120 s: successful opens 1177 to 2921 a minute, reads
 * with bytes 534 to 1244, records 3065 to 26358, counter page reads 143
 * to 222; on x86_64-debug (KASAN, 2% injection, -H, beside a ppc32
 * boot) in make fuzz's 150 s: opens 537, reads 214, records 4047, page
 * reads 41. The minimums are about a fifth of the lowest rate seen on
 * either (records: of ppc32's): a loaded host slows a run some times
 * over; a broken path (no record written, no page given) takes a rate
 * to near 0.
 */
#define MIN_RATE_OPENS		100
#define MIN_RATE_READS		40
#define MIN_RATE_RECORDS	250
#define MIN_RATE_PAGES		8

/* An address in the kernel's half of the address space. */
#if UINTPTR_MAX > 0xffffffffUL
#define KERNEL_ADDR	0xffffffff81000000UL
#else
#define KERNEL_ADDR	0xc0000000UL
#endif

/*
 * The description the fuzzer builds: struct perf_counter_hw_event_ext's
 * bytes, 2009's fields and those added since at one level, so that every
 * field is named alike wherever it is. The bit-fields are declared as the
 * uapi header declares them, so they lie where its do.
 */
struct fz_hw_event {
	__u64	event_config;
	__u64	irq_period;
	__u64	record_type;
	__u64	read_format;
	__u64	disabled       :  1,
		nmi	       :  1,
		inherit	       :  1,
		pinned	       :  1,
		exclusive      :  1,
		exclude_user   :  1,
		exclude_kernel :  1,
		exclude_hv     :  1,
		exclude_idle   :  1,
		context_switch :  1,
		inherit_stat   :  1,
		__reserved_1   : 53;
	__u32	extra_config_len;
	__u32	size;
	__u64	__reserved_2;
	__u64	__reserved_3;
	__u16	callchain_depth;
	__u16	__reserved_5;
	__u32	__reserved_6;
	__u64	sideband;
	__u64	sample_freq;
	__u32	switch_out;
	__u16	switch_stack;
	__u16	__reserved_7;
};

#define FZ_SAME(field, type, real)					\
	static_assert(offsetof(struct fz_hw_event, field) ==		\
		      offsetof(type, real), #field " lies where the uapi's does")
static_assert(sizeof(struct fz_hw_event) ==
	      sizeof(struct perf_counter_hw_event_ext), "the ext struct's size");
FZ_SAME(read_format, struct perf_counter_hw_event, read_format);
FZ_SAME(extra_config_len, struct perf_counter_hw_event, extra_config_len);
FZ_SAME(size, struct perf_counter_hw_event, size);
FZ_SAME(__reserved_3, struct perf_counter_hw_event, __reserved_3);
FZ_SAME(callchain_depth, struct perf_counter_hw_event_ext, callchain_depth);
FZ_SAME(__reserved_6, struct perf_counter_hw_event_ext, __reserved_6);
FZ_SAME(sideband, struct perf_counter_hw_event_ext, sideband);
FZ_SAME(sample_freq, struct perf_counter_hw_event_ext, sample_freq);
FZ_SAME(switch_out, struct perf_counter_hw_event_ext, switch_out);
FZ_SAME(__reserved_7, struct perf_counter_hw_event_ext, __reserved_7);

/*
 * Do the bit-fields lie where the uapi header's do? offsetof() cannot
 * tell of them, and an ABI may put the first in the top bit (32-bit
 * PowerPC): a copy of a description with the last flag, inherit_stat,
 * and the top reserved bit set must read so through the uapi struct.
 */
static int hw_bits_match(void)
{
	struct perf_counter_hw_event k;
	struct fz_hw_event f;

	memset(&f, 0, sizeof(f));
	f.inherit_stat = 1;
	f.__reserved_1 = 1ULL << 52;
	memcpy(&k, &f, sizeof(k));
	return k.inherit_stat && k.__reserved_1 == 1ULL << 52 &&
	       !k.context_switch && !k.disabled;
}

/* The largest size a description may say it has. */
#define HW_SIZE_MAX	4096

/* The bytes of a description the kernel reads: 64 with size 0. */
static size_t hw_bytes(const struct fz_hw_event *hw)
{
	return hw->size ? hw->size : PERF_COUNTER_HW_EVENT_SIZE_2009;
}

/*
 * The description as the kernel sees it: the fields past its size
 * read as zero. (A size it refuses is known_refusal()'s.)
 */
static struct fz_hw_event hw_seen(const struct fz_hw_event *hw)
{
	struct fz_hw_event k = *hw;
	size_t n = hw_bytes(hw);

	if (n < sizeof(k))
		memset((char *)&k + n, 0, sizeof(k) - n);
	return k;
}

/* The deepest chain a counter may ask for (kernel.perf_event_max_stack). */
static unsigned int max_depth = PERF_COUNTER_CHAIN_DEPTH_DEFAULT;

/* kernel.perf_event_max_stack, capped at the ABI's most. */
static unsigned int read_max_depth(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	long v = PERF_COUNTER_CHAIN_DEPTH_MAX;	/* no perf_events: no sysctl */

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = PERF_COUNTER_CHAIN_DEPTH_MAX;
		fclose(f);
	}
	if (v > PERF_COUNTER_CHAIN_DEPTH_MAX)
		v = PERF_COUNTER_CHAIN_DEPTH_MAX;
	return v < 0 ? 0 : v;
}

/* The rate read at the start: random frequencies are drawn around it. */
static uint64_t max_rate = SAMPLE_RATE_DEFAULT;

/*
 * kernel.perf_event_max_sample_rate now: the most samples a second a
 * frequency counter may ask for (throttle.c); SAMPLE_RATE_DEFAULT
 * without the sysctl, or what it was at the start where it cannot be
 * read now. Only perf_events changes it while the fuzzer runs, and
 * only down: a value read before a call is at least the one the kernel
 * saw, one read after it at most. Read with open() and read(), nothing
 * the C library allocates: forked children call it.
 */
static uint64_t read_max_rate(void)
{
	int fd = open("/proc/sys/kernel/perf_event_max_sample_rate",
		      O_RDONLY | O_CLOEXEC);
	char buf[32];
	ssize_t n;
	long long v;

	if (fd < 0)
		return max_rate;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return max_rate;
	buf[n] = 0;
	v = strtoll(buf, NULL, 10);
	return v < 1 ? 1 : v;		/* the kernel's max(rate, 1) */
}

/* The depth a counter's chains have: its own, or the default. */
static unsigned int depth_of(const struct fz_hw_event *hw)
{
	struct fz_hw_event k = hw_seen(hw);

	if (k.callchain_depth)
		return k.callchain_depth;
	return max_depth < PERF_COUNTER_CHAIN_DEPTH_DEFAULT ?
	       max_depth : PERF_COUNTER_CHAIN_DEPTH_DEFAULT;
}

/* What a worker does in one call. */
enum op_kind {
	OP_OPEN,
	OP_READ,
	OP_IOCTL,
	OP_CLOSE,
	OP_NONBLOCK,
	OP_POLL,
	OP_PRCTL,
	OP_DUP,
	OP_AFFINITY,
	OP_BUSY,
	OP_PAGES,
	OP_MMAP,
	OP_ASYNC,
	OP_RING,
	OP_OUTPUT,
	/* forked and exec'd children make only the calls above */
	OP_FORK,
	OP_THREAD,
	OP_HOTPLUG,
	OP_NR
};

#define OP_NR_CHILD	OP_FORK

static const char * const op_names[OP_NR] = {
	[OP_OPEN]	= "open",
	[OP_READ]	= "read",
	[OP_IOCTL]	= "ioctl",
	[OP_CLOSE]	= "close",
	[OP_NONBLOCK]	= "nonblock",
	[OP_POLL]	= "poll",
	[OP_PRCTL]	= "prctl",
	[OP_DUP]	= "dup",
	[OP_AFFINITY]	= "affinity",
	[OP_BUSY]	= "busy",
	[OP_PAGES]	= "pages",
	[OP_MMAP]	= "mmap",
	[OP_ASYNC]	= "async",
	[OP_RING]	= "ring",
	[OP_OUTPUT]	= "output",
	[OP_FORK]	= "fork",
	[OP_THREAD]	= "thread",
	[OP_HOTPLUG]	= "hotplug",
};

/* How often each call is made, relative to the others. */
static const unsigned int op_weights[OP_NR] = {
	[OP_OPEN]	= 30,
	[OP_READ]	= 18,
	[OP_IOCTL]	= 14,
	[OP_CLOSE]	= 8,
	[OP_NONBLOCK]	= 4,
	[OP_POLL]	= 5,
	[OP_PRCTL]	= 2,
	[OP_DUP]	= 4,
	[OP_AFFINITY]	= 2,
	[OP_BUSY]	= 5,
	[OP_PAGES]	= 5,
	[OP_MMAP]	= 3,
	[OP_ASYNC]	= 3,
	[OP_RING]	= 6,
	[OP_OUTPUT]	= 3,
	[OP_FORK]	= 2,
	[OP_THREAD]	= 2,
	[OP_HOTPLUG]	= 1,
};

/* The calls whose errnos are checked and counted. */
enum errno_class {
	ERRS_OPEN,
	ERRS_READ,
	ERRS_IOCTL,
	ERRS_POLL,
	ERRS_DUP,
	ERRS_FORK,
	ERRS_FCNTL,
	ERRS_MMAP,
	ERRS_NR
};

static const char * const errno_class_names[ERRS_NR] = {
	[ERRS_OPEN]	= "open",
	[ERRS_READ]	= "read",
	[ERRS_IOCTL]	= "ioctl",
	[ERRS_POLL]	= "poll",
	[ERRS_DUP]	= "dup",
	[ERRS_FORK]	= "fork",
	[ERRS_FCNTL]	= "fcntl",
	[ERRS_MMAP]	= "ring mmap",
};

/*
 * Every errno perf_counter_open() gives (syscall.c and what it calls):
 * the set any open, of any arguments, may fail with. EPERM, ENFILE
 * and ENOBUFS are not among them: nothing on the path returns them
 * (ENFILE is the system's file table, far from full here).
 */
static const int open_errnos[] = {
	EINVAL, EFAULT, EBADF, EACCES, ESRCH, ENODEV, ENOSPC, EBUSY, E2BIG,
	ENOMEM, EMFILE, EINTR,
	ENOENT, EOPNOTSUPP,		/* tracepoint ids */
};

/*
 * ENOMEM: a group read under injection (read.c allocates for a big one);
 * EBUSY: a queue whose ring is mapped (queue_map.c)
 */
static const int read_errnos[] = {
	EAGAIN, EINVAL, EFAULT, ENOSPC, EINTR, EBADF, ENOMEM, EBUSY,
};

/* ENOSPC: the READ ioctl's buffer too small */
static const int ioctl_errnos[] = {
	ENOTTY, EINVAL, EFAULT, EBUSY, ENOMEM, EBADF, EPERM, ENOSPC,
};

static const int poll_errnos[] = {
	EINTR, ENOMEM, EFAULT,
};

/* fcntl() of the owner, the signal or O_ASYNC (op_async()) */
static const int fcntl_errnos[] = {
	EINVAL, EBADF, ESRCH, ENOMEM, EFAULT,
};

static const struct {
	int		err;
	const char	*name;
} errno_names[] = {
	{ EPERM, "EPERM" },		{ ENOENT, "ENOENT" },
	{ ESRCH, "ESRCH" },		{ EINTR, "EINTR" },
	{ EIO, "EIO" },			{ ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" },		{ EBADF, "EBADF" },
	{ ECHILD, "ECHILD" },		{ EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" },		{ EACCES, "EACCES" },
	{ EFAULT, "EFAULT" },		{ EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" },		{ EXDEV, "EXDEV" },
	{ ENODEV, "ENODEV" },		{ EINVAL, "EINVAL" },
	{ ENFILE, "ENFILE" },		{ EMFILE, "EMFILE" },
	{ ENOTTY, "ENOTTY" },		{ EFBIG, "EFBIG" },
	{ ENOSPC, "ENOSPC" },		{ ESPIPE, "ESPIPE" },
	{ EPIPE, "EPIPE" },		{ ERANGE, "ERANGE" },
	{ EOPNOTSUPP, "EOPNOTSUPP" },	{ ENOBUFS, "ENOBUFS" },
	{ EOVERFLOW, "EOVERFLOW" },	{ ETIMEDOUT, "ETIMEDOUT" },
};

/* What all the processes share: the call budget, counts, failures. */
struct pc_shared {
	unsigned long	calls;		/* taken from the budget */
	unsigned long	max_calls;
	int		stop;		/* time or budget is spent */
	unsigned long	stop_ms;	/* when it was (ms, monotonic), or 0 */
	unsigned long	op_count[OP_NR];
	unsigned long	opens_ok;
	unsigned long	valid_refused;	/* valid opens refused, as allowed */
	unsigned long	unpriv_eacces;	/* EACCES owed to nobody, and given */
	unsigned long	reads_data;	/* read()s and readv()s with bytes */
	unsigned long	records;	/* sampling records parsed whole */
	unsigned long	pages_read;	/* counter pages mapped and read */
	unsigned long	group_reads;	/* PERF_FORMAT_GROUP reads checked */
	unsigned long	ioctl_reads;	/* READ ioctls whose words were checked */
	unsigned long	ids_checked;	/* ids held to their counter's */
	unsigned long	totals;		/* TOTALS records checked */
	unsigned long	rings_mapped;	/* ring mmap()s that mapped */
	unsigned long	ring_pages;	/* ring control pages checked */
	unsigned long	ring_records;	/* records parsed in rings */
	unsigned long	ring_orphans;	/* pages checked with no fd left */
	unsigned long	hostile_tails;	/* data_tails written to mislead */
	unsigned long	lost_checks;	/* lost held to the LOST ioctl */
	unsigned long	outputs;	/* SET_OUTPUTs to another's queue */
	unsigned long	no_syscall;	/* opens: no such syscall */
	unsigned long	faulted_calls;	/* calls made with faults on */
	unsigned long	sig_in;		/* overflow signals: POLL_IN */
	unsigned long	sig_hup;	/* POLL_HUP: a refresh spent */
	unsigned long	sig_plain;	/* SIGIO without siginfo */
	unsigned long	sig_bad;	/* any other: the run fails */
	int		bad_sig;	/* the first of those */
	int		bad_code;
	long		bad_band;
	unsigned long	errnos[ERRS_NR][MAX_ERRNO];
	unsigned int	nfails;
	char		fails[MAX_FAILS][FAIL_LEN];
};

/*
 * What the model holds of a counter's record queue rather than of one fd
 * of it: the same in every fd of the counter the worker keeps, and in
 * its ring (share_queue()).
 */
struct queue_model {
	uint32_t	ring_bytes;	/* the data of the ring mapped, or 0 */
	int		ring_maybe;	/* ring_bytes may be mapped, or not */
	unsigned int	out_id;		/* its records' queue's id; 0: its own */
	int		mixed;		/* others' records come to its queue */
	int		copy;		/* a forked child's: its parent's */
	unsigned int	born;		/* forks made before its open */
	uint32_t	wakeup;		/* PERF_COUNTER_IOC_WAKEUP's bytes */
	int		wakeup_unknown;	/* set from an address of unknown bytes */
};

/* An fd a worker thread opened (or dup'ed): what its counter counts. */
struct fd_slot {
	int		fd;
	/*
	 * bytes of a count (with PERF_FORMAT_GROUP, a group of one's, the
	 * least); 0: records; -1: unknown
	 */
	int		read_size;
	int		group_read;	/* PERF_FORMAT_GROUP: its group's counts */
	int		fmt2009;	/* records in the 2009 format: no headers */
	pid_t		task;		/* the thread counted, or -1: a whole CPU */
	int		cpu;
	int		inherit;
	int		inherit_stat;	/* TOTALS records at exits */
	int		pinned;		/* it may be in the error state */
	int		leader;		/* it leads its group */
	int		hw;		/* a hardware counter: its driver decides */
	int		soft;		/* a software counter */
	int		switches;	/* it writes switch records */
	int		switch_chain;	/* its switch-outs may have chains */
	int		user_only;	/* exclude_kernel: no kernel address */
	unsigned int	depth;		/* a chain's addresses, at most */
	uint64_t	sideband;	/* side-band records it asked for */
	uint64_t	record_type;	/* a sample's fields */
	uint64_t	read_format;
	int		has_last;	/* last[] holds the latest read */
	uint64_t	last[3];	/* value, time enabled, time running */
	unsigned int	id;		/* its counter's: dups share it */
	uint64_t	kernel_id;	/* PERF_COUNTER_IOC_ID's, or 0: not seen */
	unsigned int	group_id;	/* its leader's id, or 0: unknown */
	int		sampling;	/* irq_period or sample_freq set */
	int		freq;		/* sample_freq: PERIOD sets one */
	int		clock;		/* cpu-clock or task-clock */
	uint64_t	period;		/* its fixed period while known, or 0 */
	/*
	 * Another process or thread may reset it, or change its period:
	 * a forked child's copy of its parent's fd, a member of a group
	 * whose leader this worker does not hold as its own.
	 */
	int		shared;
	struct queue_model q;	/* a counter with a queue's */
};

/* A record ring the worker thread has mapped, and where it reads it. */
struct ring {
	unsigned int	id;		/* its counter's fd_slot.id */
	int		nmaps;
	char		*map[RING_MAPS];	/* mappings of it: one memory */
	size_t		len;		/* bytes of each */
	/*
	 * Positions in the ring count bytes modulo a long's range (2^32
	 * on a 32-bit machine: uapi header), as do the kernel's.
	 */
	unsigned long	size;		/* its data_size */
	unsigned long	parsed;		/* the reader's tail: a record's start */
	unsigned long	checked;	/* records checked up to here */
	uint64_t	tail;		/* the data_tail written last */
	unsigned long	head;		/* the data_head seen last */
	unsigned long	lost;		/* the lost seen last */
	unsigned long	hostile_head;	/* data_head after an insane tail */
	int		synced;		/* records from parsed on are whole */
	int		insane;		/* tail is one the kernel cannot take */
	struct fd_slot	rec;		/* its counter, as last known */
};

/* A short-lived thread and the counter it may leave behind. */
struct helper {
	pthread_t	thread;
	int		used;
	uint64_t	rng;
	struct fd_slot	slot;	/* slot.fd is -1 if it left none */
	int		mif_fd;	/* as in struct worker */
	char		who[WHO_LEN];
};

/* One stream of calls: a worker thread, or a forked or exec'd child. */
struct worker {
	int		proc;
	int		thread;
	int		child;		/* fewer kinds of call */
	char		tag[TAG_LEN];	/* "w1.0", "w1.0 op 17 fork" */
	uint64_t	rng;
	unsigned long	op;		/* index of the current call */
	int		nfds;		/* oldest first */
	struct fd_slot	fds[MAX_FDS];
	int		closed_fd;	/* a number closed lately, or -1 */
	int		mif_fd;		/* its make-it-fail, or -1: no faults */
	pid_t		last_kid;
	timer_t		timer;		/* ends a read that blocks */
	int		has_timer;
	char		*rbuf;		/* READ_BUF, then PROT_NONE */
	char		*hwbuf;		/* a page, then PROT_NONE */
	char		*page_map;	/* a counter page mapped, or NULL */
	int		nrings;
	struct ring	rings[MAX_RINGS];
	/*
	 * Children making calls (KID_OPS) not known to be reaped: at most
	 * MAX_KIDS live, and the one just forked.
	 */
	int		nreaders;
	pid_t		readers[MAX_KIDS + 1];
	unsigned int	reader_fork[MAX_KIDS + 1];	/* its fork's number */
	unsigned int	forks;		/* KID_OPS forks made */
	union {				/* an ioctl's argument */
		uint32_t	ioctl_val;	/* QUEUE_SIZE reads it */
		uint64_t	ioctl_out;	/* LOST, ID write, PERIOD reads */
		struct perf_counter_read_buf ioctl_rb;	/* READ reads it */
	};
	struct f_owner_ex owner_ex;	/* F_SETOWN_EX reads it */
	unsigned int	next_id;	/* the last fd_slot.id given */
	int		next_helper;
	struct helper	helpers[MAX_HELPERS];
};

/* A child forked by a worker thread, until it is reaped. */
struct kid {
	pid_t	pid;
	int	pipe_rd;	/* an exec'd child's failures, or -1 */
	int	killed;		/* the worker sent it SIGKILL */
	char	who[WHO_LEN];
};

static struct pc_shared *shared;
static uint64_t opt_seed;
static unsigned long opt_calls = 200000;
static unsigned long opt_secs = 120;
static int opt_procs = 3;
static int opt_threads = 2;
static int opt_hotplug;
static const char *opt_exec_child;
static int injected_faults;		/* the run injects (see the top) */

static uint64_t deadline_ns;		/* when SECONDS are up */
static long page_size;
static int nr_cpus;
static int hotplug_cpus[MAX_HOTPLUG];
static int hotplug_was_online[MAX_HOTPLUG];
static int nr_hotplug;
static int fd_cap;			/* fds one worker thread keeps */
static int no_syscall_errno;		/* errno of a missing system call */
static int fail_fd = -1;		/* an exec'd child reports here */
static int devnull_fd = -1;
static pid_t target_pid;		/* a long-lived child to count */
static pid_t worker_pgrp;		/* its worker's own process group */
static pid_t foreign_pid;		/* root's task nobody may not count */
static int privileged;			/* root: perfmon_capable() */
static int paranoid_level = 2;		/* kernel.perf_event_paranoid */
static int paranoid_was = -1;		/* the level the top changed, or -1 */
static int nobody_worker = -1;		/* the worker that runs as nobody */
static uint64_t online_at_start;	/* CPUs (below 64) online at start */
static int nr_possible;			/* the kernel's nr_cpu_ids, or 0 */
static pid_t worker_tids[MAX_THREADS];

static pthread_mutex_t kids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kid kids[MAX_KIDS];
static int nr_kids;

static pid_t this_tid(void)
{
	return syscall(SYS_gettid);
}

/* The errno a system call number the kernel does not know fails with. */
static int missing_syscall_errno(void)
{
	errno = 0;
	syscall(NO_SUCH_SYSCALL);
	return errno;
}

/* splitmix64: a small generator whose whole state is one word. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z;

	*state += 0x9e3779b97f4a7c15ULL;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The first state of worker (@proc, @thread)'s stream. */
static uint64_t worker_seed(uint64_t seed, int proc, int thread)
{
	uint64_t s = seed;

	s ^= ((uint64_t)(proc + 1) << 32) | (uint32_t)(thread + 1);
	splitmix64(&s);
	return splitmix64(&s);
}

static uint64_t rnd(struct worker *w)
{
	return splitmix64(&w->rng);
}

static unsigned int rnd_below(struct worker *w, unsigned int n)
{
	return n ? rnd(w) % n : 0;
}

static int chance(struct worker *w, unsigned int percent)
{
	return rnd_below(w, 100) < percent;
}

static const char *errno_name(int err, char *buf, size_t len)
{
	size_t i;

	if (err && err == no_syscall_errno)
		return "no-such-syscall";
	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

static int errno_in(int err, const int *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == err)
			return 1;
	return 0;
}

/* Add to the string in @buf. */
static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* Keep a failure for the report, or send it to the worker that exec'd. */
static void store_failure(const char *line)
{
	char buf[FAIL_LEN + 2];
	unsigned int i;
	int n;

	if (fail_fd >= 0) {
		n = snprintf(buf, sizeof(buf), "%.*s\n", FAIL_LEN - 1, line);
		if (write(fail_fd, buf, n) != n)
			fail_fd = -1;
		return;
	}
	i = __atomic_fetch_add(&shared->nfails, 1, __ATOMIC_RELAXED);
	if (i < MAX_FAILS)
		snprintf(shared->fails[i], FAIL_LEN, "%s", line);
}

static void vfail_at(const char *who, const char *fmt, va_list ap)
{
	char line[FAIL_LEN];
	int n;

	n = snprintf(line, sizeof(line), "%s: ", who);
	if (n < 0 || n >= (int)sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	store_failure(line);
}

static void fail_at(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at(who, fmt, ap);
	va_end(ap);
}

/* A failure of @w's current call. */
static void fail(struct worker *w, const char *fmt, ...)
{
	char who[WHO_LEN];
	va_list ap;

	snprintf(who, sizeof(who), "%s op %lu", w->tag, w->op);
	va_start(ap, fmt);
	vfail_at(who, fmt, ap);
	va_end(ap);
}

static void count_errno(int class, int err)
{
	int i = err > 0 && err < MAX_ERRNO ? err : 0;

	__atomic_fetch_add(&shared->errnos[class][i], 1, __ATOMIC_RELAXED);
}

static void set_stop(void)
{
	unsigned long none = 0;

	/*
	 * The first to stop the run says when it ended, for its rates: in
	 * ms, a word, as 32-bit targets have no 64-bit atomics without
	 * libatomic.
	 */
	__atomic_compare_exchange_n(&shared->stop_ms, &none,
				    (unsigned long)(pc_now_ns() / 1000000), 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_store_n(&shared->stop, 1, __ATOMIC_RELAXED);
}

/* Take one call from the budget; 0 when time or budget is spent. */
static int take_call(void)
{
	if (__atomic_load_n(&shared->stop, __ATOMIC_RELAXED))
		return 0;
	if (pc_now_ns() >= deadline_ns ||
	    __atomic_fetch_add(&shared->calls, 1, __ATOMIC_RELAXED) >=
	    shared->max_calls) {
		set_stop();
		return 0;
	}
	return 1;
}

/* SIGALRM interrupts a blocking read: no SA_RESTART, nothing to do. */
static void on_alarm(int sig)
{
}

/*
 * The signals a counter with O_ASYNC may send, which op_async() gives
 * to F_SETSIG: SIGIO (also F_SETSIG 0's, and what a full RT signal
 * queue falls back on) and two RT signals (SIGRTMIN is the C library's,
 * past those its threads keep).
 */
#define NR_ASYNC_SIGS	3

static int async_sig(int i)
{
	return i ? SIGRTMIN + i - 1 : SIGIO;
}

/*
 * An overflow signal in a worker process or a child of one, counted:
 * what queue.c sends (POLL_IN for records, POLL_HUP for a refresh
 * spent, each with its band and the fd), or the plain SIGIO of
 * SEND_SIG_PRIV. Nothing else sends these signals to the fuzzer: any
 * other fails the run (report()). Atomics only: async-signal-safe.
 */
static void on_async(int sig, siginfo_t *si, void *uc)
{
	int code = si->si_code;
	long band = si->si_band;

	if (code == POLL_IN && band == (POLLIN | POLLRDNORM) && si->si_fd >= 0)
		__atomic_fetch_add(&shared->sig_in, 1, __ATOMIC_RELAXED);
	else if (code == POLL_HUP && band == (POLLERR | POLLHUP) &&
		 si->si_fd >= 0)
		__atomic_fetch_add(&shared->sig_hup, 1, __ATOMIC_RELAXED);
	else if (sig == SIGIO && code == SI_KERNEL)
		__atomic_fetch_add(&shared->sig_plain, 1, __ATOMIC_RELAXED);
	/*
	 * A standard signal whose siginfo the kernel could not allocate
	 * (fault injection: out of queue space) arrives with none: SI_USER
	 * from pid 0, band 0 (collect_signal()).
	 */
	else if (sig < SIGRTMIN && code == SI_USER && !si->si_pid && !band)
		__atomic_fetch_add(&shared->sig_plain, 1, __ATOMIC_RELAXED);
	else if (!__atomic_fetch_add(&shared->sig_bad, 1, __ATOMIC_RELAXED)) {
		shared->bad_sig = sig;
		shared->bad_code = code;
		shared->bad_band = band;
	}
}

/*
 * The overflow signals counted by on_async() (SA_RESTART: a read()
 * goes on, as do most calls; poll() and an open's wait for the exec
 * lock give EINTR, which their oracles allow), or ignored: by the top
 * process, and across an exec, which keeps an ignored signal ignored
 * (a handler it would reset to the default, which kills).
 */
static void set_async_signals(int count)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (count) {
		sa.sa_sigaction = on_async;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
	} else {
		sa.sa_handler = SIG_IGN;
	}
	for (i = 0; i < NR_ASYNC_SIGS; i++)
		sigaction(async_sig(i), &sa, NULL);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	set_async_signals(0);
}

/*
 * Each thread has a timer of its own that sends it SIGALRM: a read that
 * may block is made with it armed, and ends with EINTR at the latest at
 * the second tick. It ticks on until disarmed, as the first tick may
 * come before the read starts.
 */
static void guard_init(struct worker *w)
{
	struct sigevent sev;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGALRM;
	sev.sigev_notify_thread_id = this_tid();
	w->has_timer = !timer_create(CLOCK_MONOTONIC, &sev, &w->timer);
}

/* Tick every @ns from now on, or stop with 0. */
static void guard_set(struct worker *w, long ns)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = ns;
	its.it_interval.tv_nsec = ns;
	timer_settime(w->timer, 0, &its, NULL);
}

static void guard_fini(struct worker *w)
{
	if (w->has_timer)
		timer_delete(w->timer);
	w->has_timer = 0;
}

/*
 * Injected faults, where the run injects them (see the top of the
 * file): a thread's own /proc/thread-self/make-it-fail, opened in up
 * to @tries tries (the open allocates: with faults on it may fail),
 * or -1.
 */
static int open_make_it_fail(int tries)
{
	int fd;

	do {
		fd = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC);
	} while (fd < 0 && --tries > 0);
	return fd;
}

/*
 * Turn the faults of the thread whose make-it-fail is @fd on or off: 0,
 * or -1 (errno). proc_fault_inject_write() allocates nothing, and the
 * byte it copies is on the stack, resident: this cannot fail by
 * injection.
 */
static int write_make_it_fail(int fd, int on)
{
	char c = on ? '1' : '0';

	return write(fd, &c, 1) == 1 ? 0 : -1;
}

/*
 * Faults on or off through *@fd, errno kept; -1 in *@fd stops them.
 * Between on and off the thread makes its call and nothing else.
 */
static void set_faults(int *fd, int on, const char *who)
{
	int err = errno;

	if (*fd < 0)
		return;
	if (on)
		__atomic_fetch_add(&shared->faulted_calls, 1, __ATOMIC_RELAXED);
	if (write_make_it_fail(*fd, on)) {
		fail_at(who, "make-it-fail: writing %d failed: errno %d", on,
			errno);
		close(*fd);
		*fd = -1;
	}
	errno = err;
}

/* Just around a call that exercises perf_counter. */
static void faults_on(struct worker *w)
{
	set_faults(&w->mif_fd, 1, w->tag);
}

static void faults_off(struct worker *w)
{
	set_faults(&w->mif_fd, 0, w->tag);
}

/*
 * The stack below the caller's frame, made resident: a signal frame
 * pushed there while faults are on needs no page table, nor, on a main
 * thread, the stack to grow (a maple node: SIGSEGV if it fails). Out
 * of line, so that the caller's calls run in what it touched.
 */
__attribute__((noipa))
static void touch_stack(void)
{
	char stack[STACK_TOUCH];

	memset(stack, 0, sizeof(stack));
	__asm__ __volatile__("" : : "r" (stack) : "memory");	/* keep it */
}

/* Anonymous memory of @bytes, the last @guard of them PROT_NONE. */
static void *map_guarded(size_t bytes, size_t guard, int flags)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || !guard)
		return p;
	if (mprotect((char *)p + bytes - guard, guard, PROT_NONE)) {
		munmap(p, bytes);
		return MAP_FAILED;
	}
	return p;
}

/*
 * The read buffer and the page counter descriptions are placed in,
 * resident (touched): what the kernel reads and writes there while
 * faults are on must not need memory to be faulted in.
 */
static int map_buffers(struct worker *w)
{
	w->rbuf = map_guarded(READ_BUF + page_size, page_size, MAP_PRIVATE);
	w->hwbuf = map_guarded(2 * page_size, page_size, MAP_PRIVATE);
	if (w->rbuf == MAP_FAILED || w->hwbuf == MAP_FAILED)
		return -1;
	memset(w->rbuf, 0, READ_BUF);
	memset(w->hwbuf, 0, page_size);
	return 0;
}

/*
 * Does @hw read the 2009 format's records: IRQ or GROUP alone, no
 * switches, no exits' totals, no side-band (pc_format_2009())?
 */
static int format_2009_of(const struct fz_hw_event *hw)
{
	return (hw->record_type == PERF_RECORD_IRQ ||
		hw->record_type == PERF_RECORD_GROUP) && !hw->context_switch &&
	       !hw->inherit_stat && !hw_seen(hw).sideband;
}

/*
 * Bytes of the words a counting read gives (read(), the READ ioctl, a
 * TOTALS record after its task and time) with read_format @fmt, for a
 * group of @nr with PERF_FORMAT_GROUP (pc_read_size()): the value, the
 * times and the id asked for; or nr, the times, then each counter's
 * value and id.
 */
static uint64_t values_size(uint64_t fmt, uint64_t nr)
{
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t id = !!(fmt & PERF_FORMAT_ID);

	if (fmt & PERF_FORMAT_GROUP)
		return 8 * (1 + times + nr * (1 + id));
	return 8 * (1 + times + id);
}

/*
 * Bytes a read of a counter opened with @hw gives (a group of one's,
 * with PERF_FORMAT_GROUP); 0 if it has a queue, whose records read()
 * gives: a sampler's, a switch log's, an inherit_stat counter's
 * (pc_has_records()).
 */
static int read_size_of(const struct fz_hw_event *hw)
{
	if (hw->record_type || hw->irq_period || hw->context_switch ||
	    hw->inherit_stat)
		return 0;
	return values_size(hw->read_format, 1);
}

/*
 * The fewest counters a group read of @s (the worker's own leader) can
 * give: the leader and every member the worker holds an fd of, which
 * stays in the read until its last fd is closed (read.c). Another
 * thread of its process (through a number this one closed) and its
 * forked children (through their copies of its fds) may add members the
 * model does not see, and a member closed here may live on in a child:
 * nr is at least this, not known to be it.
 */
static uint64_t group_nr_least(const struct worker *w, const struct fd_slot *s)
{
	const struct fd_slot *m;
	uint64_t nr = 1;
	int i, j;

	if (!s->group_id || s->group_id != s->id)
		return 1;
	for (i = 0; i < w->nfds; i++) {
		m = &w->fds[i];
		if (m->group_id != s->group_id || m->id == s->id)
			continue;
		for (j = 0; j < i && w->fds[j].id != m->id; j++)
			;
		nr += j == i;	/* a dup of one counted before: not again */
	}
	return nr;
}

/*
 * The most counters a group read can give. A member is opened through
 * an fd of its leader, which only the leader's worker process and that
 * process's children hold (no fd is passed on), and lives as long as an
 * fd or a counter page of it: the leader, each thread's fds, its short-
 * lived threads' and its page, and those of the children alive at once
 * (at most MAX_KIDS, and one more a thread while it forks), each of
 * which opens at most KID_MAX_OPS.
 */
static uint64_t group_nr_most(void)
{
	return 1 + (uint64_t)opt_threads * (MAX_FDS + MAX_HELPERS + 1) +
	       (uint64_t)(MAX_KIDS + opt_threads) * (KID_MAX_OPS + 1);
}

/* The fd table of a worker thread. */
static void forget_fd(struct worker *w, int i)
{
	w->closed_fd = w->fds[i].fd;
	w->nfds--;
	memmove(&w->fds[i], &w->fds[i + 1], (w->nfds - i) * sizeof(w->fds[0]));
}

static void close_slot(struct worker *w, int i)
{
	int fd = w->fds[i].fd, ret;

	forget_fd(w, i);
	faults_on(w);
	ret = close(fd);
	faults_off(w);
	if (ret)
		fail(w, "close(%d) of an open counter fd = -1 errno %d",
		     fd, errno);
}

/* Close the oldest fds until there is room for one more. */
static void make_room(struct worker *w)
{
	while (w->nfds && w->nfds >= fd_cap)
		close_slot(w, 0);
}

/* A new counter gets an id, and a leader leads the group of its id. */
static void add_fd(struct worker *w, const struct fd_slot *slot)
{
	struct fd_slot *s;

	make_room(w);
	s = &w->fds[w->nfds++];
	*s = *slot;
	if (!s->id) {
		s->id = ++w->next_id;
		s->q.born = w->forks;
	}
	if (s->leader && !s->group_id)
		s->group_id = s->id;
}

/* Another fd for the counter of @w->fds[@i]. */
static void add_dup(struct worker *w, int i, int fd)
{
	struct fd_slot slot = w->fds[i];

	slot.fd = fd;
	add_fd(w, &slot);
}

/*
 * What a counter's queue is known to be: share_queue() gives @s's model
 * of it to every fd of the counter the worker keeps, and to its ring.
 */
static void share_queue(struct worker *w, const struct fd_slot *s)
{
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id == s->id && &w->fds[i] != s)
			w->fds[i].q = s->q;
	for (i = 0; i < w->nrings; i++)
		if (w->rings[i].id == s->id && &w->rings[i].rec != s)
			w->rings[i].rec.q = s->q;
}

/*
 * Is @s's queue mapped, a ring that user space reads (queue_map.c)? 1:
 * yes, and for the rest of its life; 0: no; -1: not known (a counter of
 * unknown kind; an mmap() that failed with ENOMEM, perhaps after the
 * queue took its ring; a forked child's copy, which its parent may have
 * mapped since). A counting counter and a 2009 queue never are.
 */
static int ring_mapped(const struct fd_slot *s)
{
	if (s->read_size < 0)
		return -1;
	if (s->read_size || s->fmt2009)
		return 0;
	if (s->q.ring_bytes && !s->q.ring_maybe)
		return 1;
	return s->q.ring_maybe || s->q.copy ? -1 : 0;
}

/*
 * May a call that gives @s's queue its ring at its first use fail with
 * ENOMEM? A headered queue of a counter opened disabled gets it then
 * (pc_counter_prepare(): ENABLE, REFRESH, prctl()'s enable, a
 * SET_OUTPUT to it or back to it), charged to RLIMIT_MEMLOCK at the
 * open already: only for want of memory, under injection.
 */
static int ring_alloc_may_fail(const struct fd_slot *s)
{
	return s->read_size <= 0 && !s->fmt2009 && injected_faults;
}

/* Is @pid a child of this process not reaped yet? */
static int kid_alive(pid_t pid)
{
	int i, alive = 0;

	pthread_mutex_lock(&kids_lock);
	for (i = 0; i < nr_kids && !alive; i++)
		alive = kids[i].pid == pid;
	pthread_mutex_unlock(&kids_lock);
	return alive;
}

/* @w's children that make calls, the reaped forgotten. */
static void forget_reaped(struct worker *w)
{
	int i = 0;

	while (i < w->nreaders) {
		if (kid_alive(w->readers[i])) {
			i++;
			continue;
		}
		w->nreaders--;
		w->readers[i] = w->readers[w->nreaders];
		w->reader_fork[i] = w->reader_fork[w->nreaders];
	}
}

/*
 * Does a child of @w's that makes calls (KID_OPS), forked since @s's
 * counter was opened, hold it yet? A child forks none: its list is
 * empty.
 */
static int held_by_reader(struct worker *w, const struct fd_slot *s)
{
	int i;

	forget_reaped(w);
	for (i = 0; i < w->nreaders; i++)
		if (w->reader_fork[i] > s->q.born)
			return 1;
	return 0;
}

/*
 * A counter SET_OUTPUT may send others' records to: one only this worker
 * thread holds. A forked child reads its copies as its own (the records
 * of its counter only), and makes no SET_OUTPUT on them.
 */
static int may_take_records(struct worker *w, const struct fd_slot *t)
{
	return !t->q.copy && !held_by_reader(w, t);
}

/* What the model holds of @s's queue, for a failure's words. */
static void describe_queue(const struct fd_slot *s, char *buf, size_t len)
{
	static const char * const maps[] = { "maybe mapped", "not mapped",
					     "mapped" };
	int mapped = ring_mapped(s);

	if (s->read_size < 0)
		snprintf(buf, len, "of unknown kind");
	else if (s->read_size)
		snprintf(buf, len, "counting");
	else if (s->fmt2009)
		snprintf(buf, len, "2009 queue");
	else
		snprintf(buf, len, "queue: ring of %u bytes %s, records to %s%s%s",
			 (unsigned int)s->q.ring_bytes, maps[mapped + 1],
			 s->q.out_id ? "another's" : "its own",
			 s->q.mixed ? ", others' in it" : "",
			 s->q.copy ? ", a parent's" : "");
}

/*
 * The outcomes the model allows a call: 0 and errnos, a bit each
 * (may()); MAY_ANY where it does not know.
 */
static const int may_errnos[] = {
	0, EINVAL, EBUSY, ENOMEM, EOPNOTSUPP, EACCES, EBADF, EFAULT, ENOTTY,
};

#define MAY_ANY		(~0U)

static unsigned int may(int err)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(may_errnos); i++)
		if (may_errnos[i] == err)
			return 1U << i;
	return 0;
}

/* Is @err (0: the call did what it was asked) among @allowed? */
static int may_be(unsigned int allowed, int err)
{
	return allowed == MAY_ANY || (allowed & may(err));
}

/* @allowed in words, "0 or EBUSY", in @buf. */
static const char *may_names(unsigned int allowed, char *buf, size_t len)
{
	char name[24];
	unsigned int i;

	if (allowed == MAY_ANY)
		return "anything";
	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(may_errnos); i++)
		if (allowed & 1U << i)
			append(buf, len, "%s%s", buf[0] ? " or " : "",
			       may_errnos[i] ? errno_name(may_errnos[i], name,
							  sizeof(name)) : "0");
	return buf;
}

/* Random counter descriptions. */
static uint64_t random_config(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);

	if (r < 45)
		return PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					   rnd_below(w, PERF_SW_EVENTS_MAX));
	if (r < 50)	/* ids past the last */
		return PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					   rnd_below(w, 64) + PERF_SW_EVENTS_MAX);
	if (r < 65)
		return PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					   rnd_below(w, PERF_HW_EVENTS_MAX + 3));
	if (r < 80)	/* a random 56-bit raw event */
		return PERF_COUNTER_RAW_CONFIG(rnd(w) >> 8);
	if (r < 83)	/* where tracefs ids are */
		return PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT,
					   rnd_below(w, 2048));
	if (r < 85)
		return PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, rnd(w));
	if (r < 90)
		return PERF_COUNTER_CONFIG(3 + rnd_below(w, 125), rnd(w));
	return rnd(w);
}

static uint64_t random_period(struct worker *w)
{
	static const uint64_t periods[] = {
		0, 1, 2, 50000, 1ULL << 31, 0xffffffffULL,
		(1ULL << 63) - 1, 1ULL << 63, ~0ULL,
	};
	unsigned int r = rnd_below(w, 100);

	if (r < 70)
		return periods[rnd_below(w, ARRAY_SIZE(periods))];
	if (r < 90)
		return 50000 + rnd_below(w, 1000000);
	return rnd(w);
}

static uint64_t random_record_type(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);

	if (r < 80)
		return 1 + rnd_below(w, PERF_COUNTER_RECORD_MASK);
	if (r < 90)
		return 0;
	return rnd(w);
}

/* A description's size: mostly 0 (2009) or a version's, some refused. */
static uint32_t random_size(struct worker *w)
{
	static const uint32_t sizes[] = {
		PERF_COUNTER_HW_EVENT_SIZE_2009,
		PERF_COUNTER_HW_EVENT_SIZE_VER1,
		PERF_COUNTER_HW_EVENT_SIZE_VER2,
		PERF_COUNTER_HW_EVENT_SIZE_VER3,
		PERF_COUNTER_HW_EVENT_SIZE_VER4, 104, 128, 4096,	/* longer */
		8, 68, 76, 84, 4104, 65536,			/* refused */
	};
	unsigned int r = rnd_below(w, 100);

	if (r < 50)
		return 0;
	if (r < 62)
		return PERF_COUNTER_HW_EVENT_SIZE_VER2;
	if (r < 75)
		return PERF_COUNTER_HW_EVENT_SIZE_VER3;
	if (r < 95)
		return sizes[rnd_below(w, ARRAY_SIZE(sizes))];
	return rnd(w);
}

/*
 * A sample_freq: small, about kernel.perf_event_max_sample_rate as it
 * was at the start, a clock's most and about it, huge.
 */
static uint64_t random_freq(struct worker *w)
{
	const uint64_t freqs[] = {
		1, 2, 10, 100, 1000, CLOCK_FREQ_MAX - 1, CLOCK_FREQ_MAX,
		CLOCK_FREQ_MAX + 1, max_rate - 1, max_rate, max_rate + 1,
		2 * max_rate, 1ULL << 31, 1ULL << 32, 1ULL << 63, ~0ULL,
	};
	unsigned int r = rnd_below(w, 100);

	if (r < 60)
		return freqs[rnd_below(w, ARRAY_SIZE(freqs))];
	if (r < 85)
		return 1 + rnd_below(w, max_rate);
	return rnd(w);
}

/* A chain's depth: the default, the limits either side, any. */
static uint16_t random_depth(struct worker *w)
{
	static const uint16_t depths[] = { 0, 1, 2, 16, 126, 127, 128, 255,
					   256, 0xffff };

	if (chance(w, 60))
		return 0;
	if (chance(w, 85))
		return depths[rnd_below(w, ARRAY_SIZE(depths))];
	return rnd(w);
}

static uint32_t random_extra_len(struct worker *w, uint64_t config)
{
	static const uint32_t lens[] = { 0, 8, 16, 24, 7, 9, 65535 };

	if (!PERF_COUNTER_IS_RAW(config) && chance(w, 85))
		return 0;
	if (chance(w, 90))
		return lens[rnd_below(w, ARRAY_SIZE(lens))];
	return rnd(w);
}

/* Mostly known bits: the times, ID, GROUP (a member's is refused). */
static uint64_t random_read_format(struct worker *w)
{
	if (chance(w, 95))
		return rnd_below(w, PERF_COUNTER_FORMAT_MASK + 1);
	return rnd(w);
}

static void random_bits(struct worker *w, struct fz_hw_event *hw)
{
	hw->disabled = chance(w, 25);
	hw->nmi = chance(w, 10);
	hw->inherit = chance(w, 30);
	hw->pinned = chance(w, 10);
	hw->exclusive = chance(w, 8);
	hw->exclude_user = chance(w, 15);
	hw->exclude_kernel = chance(w, 15);
	hw->exclude_hv = chance(w, 10);
	hw->exclude_idle = chance(w, 10);
	hw->context_switch = chance(w, 10);
	/* with inherit or without it (refused) */
	hw->inherit_stat = chance(w, 10);
	if (chance(w, 4))
		hw->__reserved_1 = rnd(w);
}

/* A description built field by field, mostly valid. */
static void build_hw_event(struct worker *w, struct fz_hw_event *hw)
{
	unsigned int r = rnd_below(w, 100);

	memset(hw, 0, sizeof(*hw));
	hw->event_config = random_config(w);
	if (r < 35) {
		hw->irq_period = random_period(w);
		hw->record_type = random_record_type(w);
	} else if (r < 40) {
		hw->irq_period = random_period(w);
	} else if (r < 45) {
		hw->record_type = random_record_type(w);
	}
	/* a frequency: mostly instead of a period, with a record_type */
	if (chance(w, 15)) {
		hw->sample_freq = random_freq(w);
		if (chance(w, 70))
			hw->irq_period = 0;
		if (!hw->record_type && chance(w, 70))
			hw->record_type = random_record_type(w);
	}
	hw->read_format = random_read_format(w);
	random_bits(w, hw);
	hw->extra_config_len = random_extra_len(w, hw->event_config);
	hw->size = random_size(w);
	hw->callchain_depth = random_depth(w);
	hw->sideband = chance(w, 20) ? rnd_below(w, 16) : 0;
	if (chance(w, 10)) {
		hw->switch_out = rnd_below(w, 4);
		hw->switch_stack = rnd_below(w, 80);
	}
	if (chance(w, 2))
		hw->__reserved_7 = rnd(w);
	if (chance(w, 3))
		hw->__reserved_5 = rnd(w);
	if (chance(w, 3))
		hw->__reserved_6 = rnd(w);
	if (chance(w, 3))
		hw->__reserved_2 = rnd(w);
	if (chance(w, 3))
		hw->__reserved_3 = rnd(w);
}

/* A description of random bytes, sometimes tidied to get further. */
static void fill_raw_hw_event(struct worker *w,
			      struct fz_hw_event *hw)
{
	uint64_t word[sizeof(*hw) / 8];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(word); i++)
		word[i] = rnd(w);
	memcpy(hw, word, sizeof(*hw));
	if (chance(w, 50))
		return;
	hw->__reserved_1 = 0;
	hw->__reserved_2 = 0;
	hw->__reserved_3 = 0;
	hw->__reserved_5 = 0;
	hw->__reserved_6 = 0;
	hw->__reserved_7 = 0;
	hw->switch_out &= PERF_SWITCH_OUT_MASK;
	hw->switch_stack %= PERF_SWITCH_STACK_MAX + 8;
	hw->size = random_size(w);
	hw->callchain_depth = random_depth(w);
	hw->sideband &= PERF_SIDEBAND_MASK;
	hw->read_format &= PERF_COUNTER_FORMAT_MASK;
	hw->record_type &= PERF_COUNTER_RECORD_MASK;
	hw->extra_config_len &= 0x18;
	hw->sample_freq = chance(w, 70) ? 0 : random_freq(w);
	if (chance(w, 50))
		hw->event_config = random_config(w);
}

/* Where the description is when perf_counter_open() is called. */
enum hw_place {
	AT_PAGE,	/* in a page, with extra words after it */
	AT_PAGE_END,	/* at the end of a page followed by PROT_NONE */
	AT_STRADDLE,	/* running into the PROT_NONE page */
	AT_NOACCESS,	/* in the PROT_NONE page */
	AT_NULL,
	AT_ONE,
	AT_KERNEL,
	AT_RANDOM,
	AT_NR
};

static const char * const place_names[AT_NR] = {
	[AT_PAGE]	= "page",
	[AT_PAGE_END]	= "page-end",
	[AT_STRADDLE]	= "straddle",
	[AT_NOACCESS]	= "prot-none",
	[AT_NULL]	= "null",
	[AT_ONE]	= "one",
	[AT_KERNEL]	= "kernel",
	[AT_RANDOM]	= "random",
};

/*
 * Write @hw at @dst as the kernel reads it: its first hw_bytes() bytes
 * (of a size it accepts), the fields this header knows then zeros, with
 * a nonzero word among the zeros if @junk may be and chance says so;
 * then, in the room left of @room, its extra words, random. Returns
 * whether the zeros got a nonzero word: the kernel's E2BIG.
 */
static int write_hw(struct worker *w, char *dst, size_t room,
		    const struct fz_hw_event *hw, int junk)
{
	size_t n = hw_bytes(hw), head = sizeof(*hw), off;
	uint64_t word;
	int i, nonzero = 0;

	if (n > HW_SIZE_MAX || n % 8)
		n = head;		/* refused before the kernel reads on */
	if (head > n)
		head = n;
	if (n > room)
		n = room;
	memcpy(dst, hw, head);
	if (n > head) {
		memset(dst + head, 0, n - head);
		if (junk && n - head >= 8 && chance(w, 30)) {
			off = head + 8 * rnd_below(w, (n - head) / 8);
			word = rnd(w) | 1;
			memcpy(dst + off, &word, sizeof(word));
			nonzero = 1;
		}
	}
	for (i = 0; i < 4 && n + (i + 1) * sizeof(word) <= room; i++) {
		word = rnd(w);
		memcpy(dst + n + i * sizeof(word), &word, sizeof(word));
	}
	return nonzero;
}

/* Where the description goes: at @place, written by write_hw(). */
static void *place_hw_event(struct worker *w,
			    const struct fz_hw_event *hw, int *place,
			    int *junk)
{
	char *page = w->hwbuf;
	unsigned int r = rnd_below(w, 100);
	size_t off, n = hw_bytes(hw);

	*junk = 0;
	if (r < 80) {
		*place = AT_PAGE;
		*junk = write_hw(w, page, page_size, hw, 1);
		return page;
	}
	if (r < 88) {
		/* the last byte the kernel may read is the page's */
		*place = AT_PAGE_END;
		if (n > HW_SIZE_MAX || n % 8 ||
		    n < PERF_COUNTER_HW_EVENT_SIZE_2009)
			n = sizeof(*hw);	/* refused before read on */
		off = page_size - n;
		*junk = write_hw(w, page + off, n, hw, 1);
		return page + off;
	}
	if (r < 91) {
		*place = AT_STRADDLE;
		off = page_size - 8 * (1 + rnd_below(w, 7));
		memcpy(page + off, hw, page_size - off);
		return page + off;
	}
	*place = r < 94 ? AT_NOACCESS : r < 96 ? AT_NULL :
		 r < 97 ? AT_ONE : r < 99 ? AT_KERNEL : AT_RANDOM;
	if (*place == AT_NOACCESS)
		return page + page_size;
	if (*place == AT_ONE)
		return (void *)1;
	if (*place == AT_KERNEL)
		return (void *)KERNEL_ADDR;
	if (*place == AT_RANDOM)
		return (void *)(uintptr_t)rnd(w);
	return NULL;
}

static pid_t random_pid(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);

	if (r < 45)
		return 0;
	if (r < 55)
		return -1;
	if (r < 58)
		return -2;
	if (r < 65)
		return getpid();
	if (r < 68)
		return getppid();
	if (r < 71)
		return 1;
	if (r < 83)
		return target_pid;
	if (r < 90)
		return w->last_kid;
	if (r < 94)
		return __atomic_load_n(&worker_tids[rnd_below(w, opt_threads)],
				       __ATOMIC_RELAXED);
	if (r < 97)
		return 1 + rnd_below(w, 65536);
	return rnd(w);
}

static int random_cpu(struct worker *w)
{
	static const int cpus[] = { -1, 0, 1, 2, 64, 1 << 30, -2 };
	unsigned int r = rnd_below(w, 100);

	if (r < 55)
		return -1;
	if (r < 85)
		return cpus[rnd_below(w, ARRAY_SIZE(cpus))];
	return rnd_below(w, nr_cpus);
}

static int random_group_fd(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);

	if (r < 60)
		return -1;
	if (r < 85 && w->nfds)
		return w->fds[rnd_below(w, w->nfds)].fd;
	if (r < 90)
		return devnull_fd;
	if (r < 95)
		return w->closed_fd;
	return rnd(w);
}

static unsigned long random_flags(struct worker *w)
{
	if (chance(w, 95))
		return 0;
	if (chance(w, 50))
		return 1UL << rnd_below(w, 8 * sizeof(long));
	return rnd(w);
}

/* 2009's eight words, and those since where the size takes them in. */
static void describe_hw(const struct fz_hw_event *hw, char *buf,
			size_t len)
{
	uint64_t v[sizeof(*hw) / 8];
	size_t i;

	memcpy(v, hw, sizeof(v));
	snprintf(buf, len, "%llx:%llx:%llx:%llx:%llx:%llx:%llx:%llx",
		 (unsigned long long)v[0], (unsigned long long)v[1],
		 (unsigned long long)v[2], (unsigned long long)v[3],
		 (unsigned long long)v[4], (unsigned long long)v[5],
		 (unsigned long long)v[6], (unsigned long long)v[7]);
	for (i = 8; i < ARRAY_SIZE(v) && 8 * i < hw_bytes(hw); i++)
		append(buf, len, "%s%llx", i == 8 ? "+" : ":",
		       (unsigned long long)v[i]);
}

/* Check a failed perf_counter_open(); 1 if its errno is allowed. */
static int open_errno_ok(int err)
{
	count_errno(ERRS_OPEN, err);
	if (err && err == no_syscall_errno) {
		__atomic_fetch_add(&shared->no_syscall, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return errno_in(err, open_errnos, ARRAY_SIZE(open_errnos));
}

static void count_open_ok(void)
{
	__atomic_fetch_add(&shared->opens_ok, 1, __ATOMIC_RELAXED);
}

/* Everything perf_counter_open() is called with. */
struct open_args {
	struct fz_hw_event	hw;
	void				*addr;
	int				place;
	int				junk;	/* past the known fields */
	pid_t				pid;
	int				cpu;
	int				group;
	unsigned long			flags;
};

/* Any arguments at all, each drawn on its own. */
static void random_open_args(struct worker *w, struct open_args *a)
{
	if (chance(w, 20))
		fill_raw_hw_event(w, &a->hw);
	else
		build_hw_event(w, &a->hw);
	a->addr = place_hw_event(w, &a->hw, &a->place, &a->junk);
	a->pid = random_pid(w);
	a->cpu = random_cpu(w);
	a->group = random_group_fd(w);
	a->flags = random_flags(w);
}

/* The thread a pid argument names. */
static pid_t task_of(pid_t pid)
{
	return pid ? pid : this_tid();
}

/* An fd of the worker's that leads a group a counter for @task may join. */
static const struct fd_slot *find_leader(struct worker *w, pid_t task,
					 int cpu)
{
	int i, n = w->nfds, start = rnd_below(w, n ? n : 1);
	const struct fd_slot *f;

	for (i = 0; i < n; i++) {
		f = &w->fds[(start + i) % n];
		if (f->leader && f->task == task && f->cpu == cpu)
			return f;
	}
	return NULL;
}

/* Is @config the cpu-clock or the task-clock counter? */
static int is_clock(uint64_t config)
{
	return !PERF_COUNTER_IS_RAW(config) &&
	       PERF_COUNTER_TYPE(config) == PERF_TYPE_SOFTWARE &&
	       PERF_COUNTER_ID(config) <= PERF_COUNT_TASK_CLOCK;
}

/*
 * The most samples a second a frequency counter may ask for where
 * kernel.perf_event_max_sample_rate is @rate (pc_freq_max()): a clock
 * (@clock) no more than one every CLOCK_PERIOD_MIN ns.
 */
static uint64_t freq_max(int clock, uint64_t rate)
{
	return clock && rate > CLOCK_FREQ_MAX ? CLOCK_FREQ_MAX : rate;
}

/* A generic hardware id or a raw code: its driver decides. */
static int is_hw_config(uint64_t config)
{
	return PERF_COUNTER_IS_RAW(config) ||
	       PERF_COUNTER_TYPE(config) == PERF_TYPE_HARDWARE;
}

/* A sampling period the kernel takes for @config. */
static uint64_t sane_period(struct worker *w, uint64_t config)
{
	/*
	 * A clock at its floor (50 us: PC_CLOCK_PERIOD_MIN) interrupts
	 * every tick or so: half of them sample that fast.
	 */
	if (is_clock(config))
		return 50000 + (chance(w, 50) ? rnd_below(w, 50000) :
					 rnd_below(w, 2000000));
	return chance(w, 30) ? 1 + rnd_below(w, 3) : 1 + rnd_below(w, 20000);
}

/*
 * A sample_freq the kernel takes for @config now: a few a second, any
 * up to its most, or its most and just under (a clock's every 50 us).
 */
static uint64_t sane_freq(struct worker *w, uint64_t config)
{
	uint64_t max = freq_max(is_clock(config), read_max_rate());
	unsigned int r = rnd_below(w, 100);

	if (r < 30)
		return 1 + rnd_below(w, max < 100 ? max : 100);
	if (r < 70)
		return 1 + rnd_below(w, max);
	return max - rnd_below(w, max < 16 ? max : 16);
}

/*
 * A valid description; a member's must not be pinned, exclusive...; a
 * CPU-wide counter's (@task 0) has no exits' totals.
 */
static void sane_hw_event(struct worker *w, struct fz_hw_event *hw,
			  const struct fd_slot *leader, int task)
{
	unsigned int r = rnd_below(w, 100);
	unsigned int sw = rnd_below(w, PERF_SW_EVENTS_MAX);
	unsigned int hw_id = rnd_below(w, PERF_HW_EVENTS_MAX);

	memset(hw, 0, sizeof(*hw));
	if (r < 75) {
		hw->event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, sw);
	} else if (r < 90) {
		hw->event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE, hw_id);
	} else {
		hw->event_config = PERF_COUNTER_RAW_CONFIG(rnd_below(w, 0x10000));
		hw->extra_config_len = 8 * rnd_below(w, 3);
	}
	if (chance(w, 35)) {
		hw->irq_period = sane_period(w, hw->event_config);
		hw->record_type = 1 + rnd_below(w, PERF_COUNTER_RECORD_MASK);
		if (leader)
			hw->record_type &= ~(uint64_t)PERF_RECORD_GROUP;
		if (!hw->record_type)
			hw->record_type = PERF_RECORD_IRQ;
	}
	/* the times, ID and, for a leader, GROUP: its group's counts */
	hw->read_format = rnd_below(w, PERF_COUNTER_FORMAT_MASK + 1);
	if (leader)
		hw->read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
	hw->disabled = chance(w, 20);
	hw->nmi = chance(w, 10);
	hw->inherit = leader ? leader->inherit : chance(w, 30);
	hw->pinned = !leader && chance(w, 10);
	hw->exclusive = !leader && chance(w, 5);
	hw->exclude_user = chance(w, 10);
	/* Without privilege, at paranoid 2 and up, only these may open. */
	hw->exclude_kernel = chance(w, privileged ? 10 : 70);
	hw->exclude_hv = chance(w, 10);
	hw->exclude_idle = chance(w, 10);
	hw->context_switch = chance(w, 10);
	/* exits' totals, in a queue: for an inherited task counter only */
	hw->inherit_stat = task && hw->inherit && chance(w, 25);
	/* the 2009 size, or a later one's, with a chain's depth */
	r = rnd_below(w, 100);
	hw->size = r < 45 ? 0 : r < 55 ? PERF_COUNTER_HW_EVENT_SIZE_2009 :
		   r < 80 ? PERF_COUNTER_HW_EVENT_SIZE_VER2 :
		   PERF_COUNTER_HW_EVENT_SIZE_VER3;
	if (hw->size >= PERF_COUNTER_HW_EVENT_SIZE_VER2 &&
	    (hw->record_type & PERF_RECORD_CALLCHAIN) && max_depth &&
	    chance(w, 50))
		hw->callchain_depth = 1 + rnd_below(w, max_depth);
	/* half the samplers that can say so sample by frequency */
	if (hw->size == PERF_COUNTER_HW_EVENT_SIZE_VER3 && hw->irq_period &&
	    chance(w, 50)) {
		hw->sample_freq = sane_freq(w, hw->event_config);
		hw->irq_period = 0;
	}
	/* side-band records, for a counter with a queue */
	if (hw->size >= PERF_COUNTER_HW_EVENT_SIZE_VER2 &&
	    (hw->irq_period || hw->sample_freq || hw->context_switch ||
	     hw->inherit_stat) &&
	    chance(w, 30))
		hw->sideband = (1 + rnd_below(w, PERF_SIDEBAND_MASK)) &
			       (hw->exclude_user ? ~PERF_SIDEBAND_MMAP : ~0U);
	/* switch-outs with chains and stack words, for a sampler that may */
	if (hw->context_switch && (hw->record_type & PERF_RECORD_CALLCHAIN) &&
	    hw->size >= PERF_COUNTER_HW_EVENT_SIZE_VER2 && max_depth &&
	    chance(w, 40)) {
		hw->size = PERF_COUNTER_HW_EVENT_SIZE_VER4;
		hw->switch_out = PERF_SWITCH_OUT_CHAIN;
		if (!hw->exclude_user && chance(w, 70))
			hw->switch_stack = rnd_below(w, PERF_SWITCH_STACK_MAX + 1);
	}
}

/* Arguments that are all valid and fit together: the deeper paths. */
static const struct fd_slot *sane_open_args(struct worker *w,
					    struct open_args *a)
{
	const struct fd_slot *leader = NULL;
	unsigned int r = rnd_below(w, 100);

	a->pid = r < 50 ? 0 : r < 60 ? getpid() : r < 80 ? target_pid :
		 r < 90 ? w->last_kid : -1;
	if (foreign_pid && chance(w, 10))
		a->pid = foreign_pid;	/* the nobody worker: init's */
	a->cpu = a->pid == -1 || chance(w, 25) ? (int)rnd_below(w, nr_cpus) :
		 -1;
	if (chance(w, 50))
		leader = find_leader(w, a->pid == -1 ? -1 : task_of(a->pid),
				     a->cpu);
	a->group = leader ? leader->fd : -1;
	a->flags = 0;
	sane_hw_event(w, &a->hw, leader, a->pid >= 0);
	/* Extra words follow the struct: only AT_PAGE has room for them. */
	a->place = chance(w, 80) || a->hw.extra_config_len ? AT_PAGE :
							     AT_PAGE_END;
	a->addr = w->hwbuf;
	if (a->place == AT_PAGE)
		a->junk = write_hw(w, a->addr, page_size, &a->hw, 0);
	else {
		a->addr = w->hwbuf + page_size - hw_bytes(&a->hw);
		a->junk = write_hw(w, a->addr, hw_bytes(&a->hw), &a->hw, 0);
	}
	return leader;
}

/*
 * Does an open of @hw for @pid on @cpu need a privilege the caller
 * lacks? The rules of paranoid.c: EACCES, before anything else that a
 * valid description could fail for.
 */
static int needs_privilege(const struct fz_hw_event *hw, pid_t pid,
			   int cpu)
{
	if (privileged)
		return 0;
	/* a CPU's every task's stack words: only with the capability */
	return paranoid_level > 2 || (paranoid_level > 0 && pid < 0 && cpu >= 0) ||
	       (paranoid_level > 1 && !hw->exclude_kernel) ||
	       (hw_seen(hw).switch_stack && pid < 0 && cpu >= 0);
}

/*
 * Can @task have exited, and its number be another task's by now? Not
 * this thread, its process or the long-lived target: a forked child or
 * a short-lived thread can. A million-call run forks tens of thousands
 * of children, past pid_max, so a leader opened on a child that has
 * gone names another task's context (EINVAL for a member on the new
 * task), and the pid that nobody opens may be a root task's (EACCES).
 */
static int task_mortal(pid_t task)
{
	return task > 0 && task != this_tid() && task != getpid() &&
	       task != target_pid;
}

/* Was @cpu online at the start, and can it not have gone since? */
static int cpu_stays_online(int cpu)
{
	return !opt_hotplug && cpu < 64 && (online_at_start >> cpu & 1);
}

/*
 * The oracle of a valid open (sane_open_args(), helper_open()): 1 if
 * @err is a reason that can apply to this description, pid, CPU and
 * group (the table at the top of the file, from syscall.c, config.c,
 * paranoid.c, context.c, group.c, hw_counter.c and queue.c).
 */
static int valid_errno_ok(const struct fz_hw_event *hw, pid_t pid,
			  int cpu, const struct fd_slot *leader, int leader_rec,
			  int err)
{
	uint64_t freq = hw_seen(hw).sample_freq;
	int hwc = is_hw_config(hw->event_config);

	if (needs_privilege(hw, pid, cpu))
		return err == EACCES;
	/* init, root's: ptrace_may_access() says no to nobody */
	if (foreign_pid && pid == foreign_pid)
		return err == EACCES;
	switch (err) {
	case EINVAL:	/* the driver's decoding; a CPU gone offline */
		return hwc || (cpu >= 0 && !cpu_stays_online(cpu)) ||
		       (leader && task_mortal(leader->task)) ||
		       /* max_sample_rate lowered below it since it was drawn */
		       (freq && freq > freq_max(is_clock(hw->event_config),
						read_max_rate()));
	case EACCES:	/* nobody, on a pid a root task took over */
		return !privileged && task_mortal(pid);
	case ENODEV:	/* no working PMU, or not on that CPU */
	case EBUSY:	/* the PMU's registers held by perf_events */
		return hwc;
	case ENOSPC:	/* a group its registers or its records outgrow */
		return leader && (hwc || leader_rec);
	case ESRCH:	/* another task, that may have exited */
		return pid > 0 && pid != getpid();
	case EINTR:	/* a signal while waiting for the task's exec lock */
		return pid >= 0;
	case ENOMEM:	/* injected; a queue past RLIMIT_MEMLOCK */
		return injected_faults || hw->irq_period || freq ||
		       hw->context_switch || hw->inherit_stat;
	case EMFILE:	/* only where RLIMIT_NOFILE set the fd cap */
		return fd_cap < MAX_FDS;
	}
	return 0;
}

/* The worker's own slot of @fd, or NULL. */
static const struct fd_slot *own_slot(const struct worker *w, int fd)
{
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].fd == fd)
			return &w->fds[i];
	return NULL;
}

/*
 * A reason known to refuse an open of random arguments, or NULL: then
 * the open must fail. Only what the fuzzer knows for sure counts: a
 * random address, pid or group fd may hold anything. A group fd of the
 * worker's own is a counter, whose group a member pinned, exclusive,
 * recording its group or reading it (PERF_FORMAT_GROUP) may not join,
 * nor one inherited where the leader is not or the other way round
 * (pc_check_group()); whether it still leads (a task's exit dissolves
 * its groups) is not known.
 */
static const char *known_refusal(const struct worker *w,
				 const struct open_args *a)
{
	const struct fd_slot *lead = own_slot(w, a->group);
	struct fz_hw_event seen = hw_seen(&a->hw);
	const struct fz_hw_event *hw = &seen;
	size_t n = hw_bytes(hw);
	uint64_t config = hw->event_config, period = hw->irq_period;
	uint64_t type = PERF_COUNTER_TYPE(config), id = PERF_COUNTER_ID(config);
	int raw = PERF_COUNTER_IS_RAW(config);

	if (a->flags)
		return "flags are not 0";
	if (a->place != AT_PAGE && a->place != AT_PAGE_END &&
	    a->place != AT_RANDOM)
		return "the description cannot be read";
	if (a->pid < 0 && a->cpu == -1)
		return "no task and no CPU";
	if (a->cpu < -1 || (nr_possible && a->cpu >= nr_possible))
		return "no such CPU";
	if (devnull_fd >= 0 && a->group == devnull_fd)
		return "group_fd is not a counter";
	if (a->place == AT_RANDOM)
		return NULL;
	if (hw->size && (n < PERF_COUNTER_HW_EVENT_SIZE_2009 ||
			 n > HW_SIZE_MAX || n % 8))
		return "a size that is none";
	if (a->junk)
		return "nonzero bytes past the fields the kernel knows";
	if (hw->__reserved_1 || hw->__reserved_2 || hw->__reserved_3 ||
	    hw->__reserved_5 || hw->__reserved_6 || hw->__reserved_7)
		return "reserved bits set";
	if (hw->read_format & ~(uint64_t)PERF_COUNTER_FORMAT_MASK)
		return "unknown read_format bits";
	if (hw->record_type & ~(uint64_t)PERF_COUNTER_RECORD_MASK)
		return "unknown record_type bits";
	if (hw->inherit_stat && !hw->inherit)
		return "inherit_stat without inherit";
	if (hw->inherit_stat && a->pid < 0)
		return "inherit_stat on a CPU-wide counter";
	/*
	 * A frequency counter's period is the kernel's, checked as the
	 * rest (config.c): a clock's 10^9 / sample_freq ns, any other's
	 * 1 event. The rate read now is at least the one the open sees.
	 */
	if (hw->sample_freq) {
		if (hw->irq_period)
			return "a sample_freq with an irq_period";
		if (!hw->record_type)
			return "a sample_freq without a record_type";
		if (hw->sample_freq > freq_max(is_clock(config),
					       read_max_rate()))
			return "a sample_freq above its most";
		period = is_clock(config) ? NSEC_PER_SEC / hw->sample_freq : 1;
	}
	if (!period != !hw->record_type)
		return "half a sampling request";
	if (period > (uint64_t)INT64_MAX)
		return "a period of 2^63 or more";
	if (period && period < CLOCK_PERIOD_MIN && is_clock(config))
		return "a clock period under 50 us";
	if (hw->callchain_depth &&
	    (!(hw->record_type & PERF_RECORD_CALLCHAIN) ||
	     hw->callchain_depth > max_depth))
		return "a chain depth without a chain, or too deep";
	if ((hw->record_type & PERF_RECORD_CALLCHAIN) && !max_depth)
		return "a chain where kernel.perf_event_max_stack is 0";
	if (hw->sideband & ~(uint64_t)PERF_SIDEBAND_MASK)
		return "unknown side-band bits";
	if (hw->sideband && !period && !hw->context_switch &&
	    !hw->inherit_stat)
		return "side-band records without a queue";
	if ((hw->sideband & PERF_SIDEBAND_MMAP) && hw->exclude_user)
		return "mapping records for a counter of no user mode";
	if (hw->switch_out & ~PERF_SWITCH_OUT_MASK)
		return "unknown switch_out bits";
	if ((hw->switch_out & PERF_SWITCH_OUT_CHAIN) &&
	    (!hw->context_switch ||
	     !(hw->record_type & PERF_RECORD_CALLCHAIN)))
		return "switch-out chains without switch records or a chain";
	if (hw->switch_stack &&
	    (!(hw->switch_out & PERF_SWITCH_OUT_CHAIN) || hw->exclude_user ||
	     hw->switch_stack > PERF_SWITCH_STACK_MAX))
		return "stack words without a chain of user mode, or too many";
	if (hw->extra_config_len &&
	    (!raw || hw->extra_config_len % 8 || hw->extra_config_len > 16))
		return "bad extra_config_len";
	if (hw->extra_config_len &&
	    n + hw->extra_config_len > (a->place == AT_PAGE ? page_size : n))
		return "extra words past the page";
	if (lead && (hw->pinned || hw->exclusive ||
		     (hw->record_type & PERF_RECORD_GROUP) ||
		     (hw->read_format & PERF_FORMAT_GROUP)))
		return "a member pinned, exclusive, or recording or reading its group";
	if (lead && lead->read_size >= 0 && lead->inherit != hw->inherit)
		return "a member inherited apart from its leader";
	if (raw)
		return NULL;
	if (type == PERF_TYPE_SOFTWARE && id >= PERF_SW_EVENTS_MAX)
		return "unknown software id";
	if (type == PERF_TYPE_HARDWARE && id >= PERF_HW_EVENTS_MAX)
		return "unknown hardware id";
	if (type > PERF_TYPE_TRACEPOINT)
		return "unknown type";
	return NULL;
}

/* What is known of a counter opened with @hw for @pid on @cpu. */
static void fill_slot(struct fd_slot *slot, int fd,
		      const struct fz_hw_event *hw, pid_t pid,
		      int cpu, int group)
{
	memset(slot, 0, sizeof(*slot));
	slot->fd = fd;
	slot->read_size = read_size_of(hw);
	slot->group_read = !!(hw->read_format & PERF_FORMAT_GROUP);
	slot->fmt2009 = format_2009_of(hw);
	slot->task = pid < 0 ? -1 : task_of(pid);
	slot->cpu = cpu;
	slot->inherit = hw->inherit;
	slot->inherit_stat = hw->inherit_stat;
	slot->pinned = hw->pinned;
	slot->leader = group == -1;
	slot->hw = is_hw_config(hw->event_config);
	slot->soft = !PERF_COUNTER_IS_RAW(hw->event_config) &&
		     PERF_COUNTER_TYPE(hw->event_config) == PERF_TYPE_SOFTWARE;
	slot->switches = hw->context_switch;
	slot->switch_chain = !!(hw_seen(hw).switch_out & PERF_SWITCH_OUT_CHAIN);
	slot->user_only = hw->exclude_kernel;
	slot->depth = depth_of(hw);
	slot->sideband = hw_seen(hw).sideband;
	slot->record_type = hw->record_type;
	slot->read_format = hw->read_format;
	slot->freq = hw_seen(hw).sample_freq != 0;
	slot->sampling = hw->irq_period || slot->freq;
	slot->clock = is_clock(hw->event_config);
	slot->period = slot->freq ? 0 : hw->irq_period;
}

/*
 * A member of the group led by @group: its leader's id, if the leader
 * is one of the worker's own counters; shared if not (another thread's,
 * through a number this one closed), or if the leader is shared: a
 * RESET of the leader resets it, from where the worker cannot see.
 */
static void join_group(struct worker *w, struct fd_slot *slot, int group)
{
	int i;

	if (group == -1)
		return;
	slot->shared = 1;
	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].fd == group) {
			slot->group_id = w->fds[i].group_id;
			slot->shared = w->fds[i].shared || !slot->group_id;
			return;
		}
}

static void describe_open(const struct open_args *a, char *buf, size_t len)
{
	char desc[224];

	describe_hw(&a->hw, desc, sizeof(desc));
	snprintf(buf, len,
		 "perf_counter_open(hw %s at %s, pid %d, cpu %d, group_fd %d, flags %#lx)",
		 desc, place_names[a->place], (int)a->pid, a->cpu, a->group,
		 a->flags);
}

/*
 * Half the opens are valid (sane_open_args()): each may fail only for
 * a reason that applies to it (valid_errno_ok()), and must fail with
 * EACCES where it needs a privilege the worker lacks. The other half
 * are random: each may fail with any errno of the ABI, and must fail
 * where a reason is known (known_refusal()).
 */
static void op_open(struct worker *w)
{
	const struct fd_slot *leader = NULL;
	const char *refusal = NULL;
	int sane = chance(w, 50), fd, err, leader_rec = 0;
	struct open_args a;
	struct fd_slot slot;
	char call[384], name[24];

	make_room(w);
	if (sane) {
		leader = sane_open_args(w, &a);
		/*
		 * Records of the group in the leader's queue: its samples'
		 * (PERF_RECORD_GROUP), its TOTALS records' (a queue and
		 * PERF_FORMAT_GROUP); a member more may not fit them
		 * (pc_group_record_fits()).
		 */
		leader_rec = leader &&
			     ((leader->record_type & PERF_RECORD_GROUP) ||
			      (leader->group_read && !leader->read_size));
	} else {
		random_open_args(w, &a);
		refusal = known_refusal(w, &a);
	}

	faults_on(w);
	fd = sys_perf_counter_open(a.addr, a.pid, a.cpu, a.group, a.flags);
	err = errno;
	faults_off(w);
	if (fd >= 0) {
		count_open_ok();
		if (refusal || (sane && needs_privilege(&a.hw, a.pid, a.cpu)) ||
		    (sane && foreign_pid && a.pid == foreign_pid)) {
			describe_open(&a, call, sizeof(call));
			fail(w, "%s = %d: opened, though %s", call, fd,
			     refusal ?: "it needs a privilege this worker lacks");
		}
		fill_slot(&slot, fd, &a.hw, a.pid, a.cpu, a.group);
		join_group(w, &slot, a.group);
		/*
		 * A random address the kernel could read holds whatever
		 * this process keeps there (on a 32-bit machine one in a
		 * few hundred does, and zeroed memory is a counting
		 * counter): the fd is kept, but nothing is known of it.
		 */
		if (a.place == AT_RANDOM) {
			slot.read_size = -1;
			slot.leader = 0;
		}
		add_fd(w, &slot);
		return;
	}
	if (open_errno_ok(err) &&
	    (!sane || valid_errno_ok(&a.hw, a.pid, a.cpu, leader, leader_rec,
				     err))) {
		if (sane) {
			__atomic_fetch_add(&shared->valid_refused, 1,
					   __ATOMIC_RELAXED);
			if (err == EACCES && !privileged)
				__atomic_fetch_add(&shared->unpriv_eacces, 1,
						   __ATOMIC_RELAXED);
		}
		return;
	}
	describe_open(&a, call, sizeof(call));
	fail(w, "%s = -1 %s%s", call, errno_name(err, name, sizeof(name)),
	     sane ? ": not a reason this valid open can fail for" : "");
}

/* The fd a call works on: mostly one of the worker's own. */
struct target {
	int		fd;
	int		read_size;	/* as in fd_slot; -1: not its own */
	int		fmt2009;	/* as in fd_slot */
	struct fd_slot	*slot;		/* its own fd's, or NULL */
};

static struct target pick_target(struct worker *w)
{
	struct target t = { -1, -1, 0, NULL };
	unsigned int r = rnd_below(w, 100), i;

	if (w->nfds && r < 85) {
		i = rnd_below(w, w->nfds);
		t.fd = w->fds[i].fd;
		t.read_size = w->fds[i].read_size;
		t.fmt2009 = w->fds[i].fmt2009;
		t.slot = &w->fds[i];
	} else if (r < 92) {
		t.fd = devnull_fd;
	} else if (r < 97) {
		t.fd = w->closed_fd;
	}
	return t;
}

static void set_nonblock(struct worker *w, int fd, int on)
{
	int fl;

	faults_on(w);
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
	faults_off(w);
}

static int readable_now(struct worker *w, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	faults_on(w);
	ret = poll(&pfd, 1, 0);
	faults_off(w);
	return ret == 1 && (pfd.revents & POLLIN);
}

/*
 * The buffer a read goes to; *good if it is valid for READ_BUF bytes,
 * *room the bytes the kernel can write there (then PROT_NONE, or none:
 * NULL, a kernel address).
 */
static char *read_buffer(struct worker *w, int *good, size_t *room)
{
	unsigned int r = rnd_below(w, 100);

	*good = r < 80;
	*room = 0;
	if (r < 80) {
		*room = READ_BUF;
		return w->rbuf;
	}
	if (r < 85)
		return NULL;
	if (r < 90)
		return w->rbuf + READ_BUF;
	if (r < 95) {
		*room = 12;
		return w->rbuf + READ_BUF - 12;
	}
	return (char *)KERNEL_ADDR;
}

/*
 * Is the call chain of @nr words at @w what @s asked for: no more
 * addresses than its depth (exactly that many if cut there), a known
 * ending, markers in order (kernel, then user), and, for a counter that
 * excludes the kernel, neither a kernel marker nor a kernel address?
 */
static int chain_ok(const struct fd_slot *s, const char *w, uint32_t nr,
		    uint32_t flags)
{
	uint32_t i, addrs = 0, end = flags & PERF_COUNTER_CHAIN_END_MASK;
	int kernel = 0, user = 0;
	uint64_t v;

	if (flags & ~PERF_COUNTER_CHAIN_END_MASK || !end)
		return 0;
	for (i = 0; i < nr; i++) {
		memcpy(&v, w + 8 * i, sizeof(v));
		if (v == PERF_CONTEXT_KERNEL) {
			if (kernel || user || s->user_only)
				return 0;
			kernel = 1;
		} else if (v == PERF_CONTEXT_USER) {
			if (user)
				return 0;
			user = 1;
		} else {
			/* an address: after a marker, none of the kernel's
			 * for a counter that excludes it
			 */
			if ((!kernel && !user) ||
			    (s->user_only && pc_ip_is_kernel(v)))
				return 0;
			addrs++;
		}
	}
	if (addrs > s->depth)
		return 0;
	return end != PERF_COUNTER_CHAIN_TRUNCATED || addrs == s->depth;
}

/*
 * Is a switch-out record with a chain of @size bytes at @rec what @s
 * asked for: its body, a chain chain_ok() takes, and at most 64 stack
 * words, none for a counter of no user mode, filling it exactly?
 */
static int switch_chain_size_ok(const struct fd_slot *s, const char *rec,
				size_t size)
{
	size_t at = sizeof(struct perf_counter_record_header);
	struct perf_counter_switch_out b;
	struct perf_counter_callchain head;

	if (size < at + sizeof(b) + sizeof(head))
		return 0;
	memcpy(&b, rec + at, sizeof(b));
	memcpy(&head, rec + at + sizeof(b), sizeof(head));
	at += sizeof(b) + sizeof(head);
	return b.stack_words <= PERF_SWITCH_STACK_MAX &&
	       !(b.flags & ~PERF_COUNTER_SWITCH_PREEMPTED) &&
	       size == at + 8 * ((size_t)head.nr + b.stack_words) &&
	       chain_ok(s, rec + at, head.nr, head.flags);
}

/* The words of a sample's fields from IRQ to ID: those before GROUP. */
static size_t sample_head_words(uint64_t rt)
{
	return !!(rt & PERF_RECORD_IRQ) + !!(rt & PERF_RECORD_TID) +
	       !!(rt & PERF_RECORD_TIME) + !!(rt & PERF_RECORD_VALUE) +
	       !!(rt & PERF_RECORD_PERIOD) + !!(rt & PERF_RECORD_ID);
}

/*
 * Is a sample record of @size bytes at @rec the size @s's record_type
 * gives it? Its fields to ID, then GROUP's nr and nr members of 16
 * bytes each (24 with ID: their ids), then a chain.
 */
static int sample_size_ok(const struct fd_slot *s, const char *rec,
			  size_t size)
{
	size_t want = sizeof(struct perf_counter_record_header);
	struct perf_counter_callchain head;
	uint64_t rt = s->record_type;
	size_t stride = rt & PERF_RECORD_ID ? 24 : 16;
	uint64_t nr;

	want += 8 * sample_head_words(rt);
	if (rt & PERF_RECORD_GROUP) {
		if (size < want + 8)
			return 0;
		memcpy(&nr, rec + want, sizeof(nr));
		if (nr > (size - want - 8) / stride)
			return 0;
		want += 8 + stride * nr;
	}
	if (rt & PERF_RECORD_CALLCHAIN) {
		if (size < want + sizeof(head))
			return 0;
		memcpy(&head, rec + want, sizeof(head));
		want += sizeof(head);
		if (head.nr > s->depth + 2 || size != want + 8 * head.nr ||
		    !chain_ok(s, rec + want, head.nr, head.flags))
			return 0;
		want += 8 * head.nr;
	}
	return size == want;
}

/*
 * The PERIOD word of a sample of @s, whose size is right, at @rec: the
 * events it stands for (period.c), 1 to PC_PERIOD_MAX; a clock's at
 * least CLOCK_PERIOD_MIN ns (its fixed periods are refused below it,
 * its frequencies above 10^9 / it, and a period cut short by the PERIOD
 * ioctl ends longer, not shorter); a fixed period's the irq_period
 * itself while no PERIOD ioctl can have changed it (@s->period, which
 * RESET leaves). A frequency counter's retuned period is not modelled
 * further.
 */
static int period_word_ok(const struct fd_slot *s, const char *rec,
			  uint64_t *period)
{
	uint64_t rt = s->record_type;
	size_t at = sizeof(struct perf_counter_record_header);

	at += 8 * (!!(rt & PERF_RECORD_IRQ) + !!(rt & PERF_RECORD_TID) +
		   !!(rt & PERF_RECORD_TIME) + !!(rt & PERF_RECORD_VALUE));
	memcpy(period, rec + at, sizeof(*period));
	if (!*period || *period > (uint64_t)INT64_MAX)
		return 0;
	if (s->clock && *period < CLOCK_PERIOD_MIN)
		return 0;
	return !s->period || *period == s->period;
}

/*
 * @id, read from @s's counter (PERF_FORMAT_ID, a sample's ID word, a
 * TOTALS record, the ID ioctl): never 0, the counter's own for its
 * whole life (every fd of it, every inherited copy: a copy's samples
 * and records carry its parent's), and no other counter's: no other of
 * the worker's counters has it. Every fd of the counter learns it the
 * first time it is seen. 1 if it is as it should be; else a failure.
 */
static int learn_id(struct worker *w, struct fd_slot *s, uint64_t id,
		    const char *what)
{
	unsigned int sid = s->id;
	int i;

	if (!id) {
		fail(w, "%s of fd %d: id 0", what, s->fd);
		return 0;
	}
	__atomic_fetch_add(&shared->ids_checked, 1, __ATOMIC_RELAXED);
	if (s->kernel_id) {
		if (id == s->kernel_id)
			return 1;
		fail(w, "%s of fd %d: id %llu, not the %llu its counter had",
		     what, s->fd, (unsigned long long)id,
		     (unsigned long long)s->kernel_id);
		return 0;
	}
	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id != sid && w->fds[i].kernel_id == id) {
			fail(w, "%s of fd %d: id %llu, fd %d's, another counter's",
			     what, s->fd, (unsigned long long)id,
			     w->fds[i].fd);
			return 0;
		}
	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id == sid)
			w->fds[i].kernel_id = id;
	s->kernel_id = id;	/* a short-lived thread's, not in the table */
	return 1;
}

/* The @i-th word at @p. */
static uint64_t word_at(const char *p, size_t i)
{
	uint64_t v;

	memcpy(&v, p + 8 * i, sizeof(v));
	return v;
}

/*
 * Are the @nr ids at @p, @stride words apart, each nonzero and unlike
 * the others (counters of one group, each its own id)? Up to 64 of them
 * are compared; NULL, or what is wrong.
 */
static const char *ids_wrong(const char *p, uint64_t nr, size_t stride)
{
	uint64_t i, j, a;

	for (i = 0; i < nr; i++) {
		a = word_at(p, i * stride);
		if (!a)
			return "an id 0";
		for (j = 0; j < i && i < 64; j++)
			if (word_at(p, j * stride) == a)
				return "two counters of one id";
	}
	return NULL;
}

/*
 * The ids of a sample of @s with PERF_RECORD_ID, whose size is right, at
 * @rec: its ID word the counter's (learn_id()); with GROUP, its
 * members' {event_config, value, id}, each id nonzero, the member's own
 * (not the counter's, nor another member's). 1 if so.
 */
static int sample_ids_ok(struct worker *w, struct fd_slot *s,
			 const char *rec, size_t at, const char *src)
{
	uint64_t rt = s->record_type, id, nr, i;
	size_t off = sizeof(struct perf_counter_record_header) +
		     8 * (sample_head_words(rt) - 1);
	const char *why;
	char what[48];

	id = word_at(rec + off, 0);
	snprintf(what, sizeof(what), "%s(): the sample at %zu", src, at);
	if (!learn_id(w, s, id, what))
		return 0;
	if (!(rt & PERF_RECORD_GROUP))
		return 1;
	/* nr, then nr x { event_config, value, id } */
	nr = word_at(rec + off, 1);
	why = ids_wrong(rec + off + 8 * 4, nr, 3);
	for (i = 0; !why && i < nr; i++)
		if (word_at(rec + off, 4 + 3 * i) == id)
			why = "a member of the counter's own id";
	if (why) {
		fail(w, "%s(%d): the sample at %zu, group of %llu: %s",
		     src, s->fd, at, (unsigned long long)nr, why);
		return 0;
	}
	return 1;
}

/*
 * A TOTALS record of @size bytes at @rec, of @s (an inherit_stat
 * counter): its task and time, then the words a counting read with
 * @s's read_format gives, of the exiting task's own counts; with
 * PERF_FORMAT_GROUP its copy's group as it was at the fork (nr 1 to
 * group_nr_most(), not modelled further). Time running not above time
 * enabled; with PERF_FORMAT_ID the counter's own id first (into *@id,
 * for learn_id()), every id nonzero and unlike the others. NULL, or
 * what is wrong.
 */
static const char *totals_wrong(const struct fd_slot *s, const char *rec,
				size_t size, uint64_t *id)
{
	uint64_t fmt = s->read_format, nr = 1, en = 0, run = 0;
	size_t at = sizeof(struct perf_counter_record_header) +
		    sizeof(struct perf_counter_totals);
	int group = !!(fmt & PERF_FORMAT_GROUP), p = 1;

	*id = 0;
	if (size < at + 8)
		return "no words after its task and time";
	rec += at;
	if (group) {
		nr = word_at(rec, 0);
		if (!nr || nr > group_nr_most())
			return "a group of none, or of more than can be";
	}
	if (size - at != values_size(fmt, nr))
		return "not the size its read_format gives";
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		en = word_at(rec, p++);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		run = word_at(rec, p++);
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && run > en)
		return "time running above time enabled";
	if (!(fmt & PERF_FORMAT_ID))
		return NULL;
	if (!group) {
		*id = word_at(rec, p);
		return NULL;
	}
	*id = word_at(rec, p + 1);	/* the leader's, after its value */
	return ids_wrong(rec + 8 * (p + 1), nr, 2);
}

/*
 * Records from a counter with a queue (@src: "read", or "ring" for those
 * of its mapped ring): whole, of the kinds it asked for, each the size
 * its kind and the counter's record_type (a TOTALS record's:
 * read_format) give (uapi header), back to back, a sample's PERIOD word
 * as period_word_ok() says, its ids and a TOTALS record's as
 * sample_ids_ok() and totals_wrong() say; the number parsed is counted.
 * A queue other counters send their records to (SET_OUTPUT) holds
 * records of their kinds and sizes too: each is only held to be whole,
 * of a kind the ABI has, a LOST record 16 bytes.
 */
static void check_records(struct worker *w, struct fd_slot *s,
			  const char *buf, size_t len, const char *src)
{
	struct perf_counter_record_header h;
	unsigned long n = 0;
	uint64_t period, id;
	const char *why;
	size_t at = 0;
	int ok;

	while (at < len) {
		if (len - at < sizeof(h)) {
			fail(w, "%s(%d): record header cut at %zu of %zu bytes",
			     src, s->fd, at, len);
			return;
		}
		memcpy(&h, buf + at, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > len - at) {
			fail(w, "%s(%d): record type %u of size %u at %zu of %zu bytes",
			     src, s->fd, h.type, h.size, at, len);
			return;
		}
		if (s->q.mixed) {
			if (h.type < PERF_COUNTER_REC_SAMPLE ||
			    h.type > PERF_COUNTER_REC_TOTALS ||
			    ((h.type == PERF_COUNTER_REC_LOST ||
			      h.type == PERF_COUNTER_REC_LOST_SIDEBAND) &&
			     h.size != 16)) {
				fail(w, "%s(%d): record type %u size %u at %zu of %zu bytes, in a queue others send records to: no record any counter writes",
				     src, s->fd, h.type, h.size, at, len);
				return;
			}
			at += h.size;
			n++;
			continue;
		}
		switch (h.type) {
		case PERF_COUNTER_REC_SAMPLE:
			ok = s->record_type &&
			     sample_size_ok(s, buf + at, h.size);
			break;
		case PERF_COUNTER_REC_LOST:
			ok = h.size == 16;
			break;
		case PERF_COUNTER_REC_SWITCH_OUT:
		case PERF_COUNTER_REC_SWITCH_IN:
			/* a CPU-wide counter's names the other task too */
			ok = s->switches &&
			     (h.size == 24 || (h.size == 32 && s->task == -1));
			break;
		case PERF_COUNTER_REC_SWITCH_OUT_CHAIN:
			ok = s->switch_chain &&
			     switch_chain_size_ok(s, buf + at, h.size);
			break;
		case PERF_COUNTER_REC_MMAP:
			ok = (s->sideband & PERF_SIDEBAND_MMAP) &&
			     h.size > sizeof(h) +
				      sizeof(struct perf_counter_mmap) &&
			     h.size <= sizeof(h) +
				       sizeof(struct perf_counter_mmap) +
				       PERF_COUNTER_MMAP_PATH_MAX &&
			     !buf[at + h.size - 1];	/* the path ends */
			break;
		case PERF_COUNTER_REC_COMM:
			ok = (s->sideband & PERF_SIDEBAND_COMM) &&
			     h.size == sizeof(h) +
				       sizeof(struct perf_counter_comm);
			break;
		case PERF_COUNTER_REC_FORK:
		case PERF_COUNTER_REC_EXIT:
			ok = (s->sideband & PERF_SIDEBAND_TASK) &&
			     h.size == sizeof(h) +
				       sizeof(struct perf_counter_task);
			break;
		case PERF_COUNTER_REC_LOST_SIDEBAND:
			/* exits' totals are dropped as side-band is */
			ok = (s->sideband || s->inherit_stat) && h.size == 16;
			break;
		case PERF_COUNTER_REC_TOTALS:
			ok = s->inherit_stat;
			if (!ok)
				break;
			why = totals_wrong(s, buf + at, h.size, &id);
			if (why) {
				fail(w, "%s(%d): TOTALS record of size %u at %zu of %zu bytes (read_format %#llx): %s",
				     src, s->fd, h.size, at, len,
				     (unsigned long long)s->read_format, why);
				return;
			}
			if (id && !learn_id(w, s, id, "a TOTALS record"))
				return;
			__atomic_fetch_add(&shared->totals, 1,
					   __ATOMIC_RELAXED);
			break;
		default:
			ok = 0;
			break;
		}
		if (!ok) {
			fail(w, "%s(%d): record type %u size %u at %zu of %zu bytes: not what record_type %#llx%s gives",
			     src, s->fd, h.type, h.size, at, len,
			     (unsigned long long)s->record_type,
			     s->switches ? " with switches" : "");
			return;
		}
		if (h.type == PERF_COUNTER_REC_SAMPLE &&
		    (s->record_type & PERF_RECORD_PERIOD) &&
		    !period_word_ok(s, buf + at, &period)) {
			fail(w, "%s(%d): sample at %zu stands for a period of %llu: not 1 to 2^63 - 1%s%s (irq_period %llu)",
			     src, s->fd, at, (unsigned long long)period,
			     s->clock ? ", 50000 ns or more" : "",
			     s->period ? ", the fixed one" : "",
			     (unsigned long long)s->period);
			return;
		}
		if (h.type == PERF_COUNTER_REC_SAMPLE &&
		    (s->record_type & PERF_RECORD_ID) &&
		    !sample_ids_ok(w, s, buf + at, at, src))
			return;
		at += h.size;
		n++;
	}
	__atomic_fetch_add(&shared->records, n, __ATOMIC_RELAXED);
}

/*
 * A member's value @v in a group read, where @m (one of its fds) last
 * read less: as a read of its own, it is not below what the member's
 * fds read last (but after a RESET, or for a member another may reset),
 * and they hold it as their last from now on. 1 if so.
 */
static int member_value_ok(struct worker *w, const struct fd_slot *m,
			   uint64_t v)
{
	unsigned int id = m->id;
	struct fd_slot *f;
	int i;

	for (i = 0; i < w->nfds; i++) {
		f = &w->fds[i];
		if (f->id != id || f->shared)
			continue;
		if (f->has_last && v < f->last[0])
			return 0;
	}
	for (i = 0; i < w->nfds; i++) {
		f = &w->fds[i];
		if (f->id != id)
			continue;
		if (!f->has_last)
			f->last[1] = f->last[2] = 0;
		f->last[0] = v;
		f->has_last = 1;
	}
	return 1;
}

/*
 * The members of @s (the worker's own leader) that the worker holds fds
 * of and knows the ids of, in a group read's @nr entries at @ent (a
 * value and an id each, the leader's first): each is there, in the
 * order they joined (of their slots' ids: each joined as it was opened
 * here), its value as member_value_ok() says. Whether a member no fd
 * here holds is gone is not known: a child or another thread may hold
 * it yet. NULL, or what is wrong.
 */
static const char *members_wrong(struct worker *w, const struct fd_slot *s,
				 const char *ent, uint64_t nr)
{
	const struct fd_slot *m;
	unsigned int ids[MAX_FDS];
	uint64_t pos[MAX_FDS], i;
	int n = 0, k, j;

	if (!s->group_id || s->group_id != s->id)
		return NULL;
	for (k = 0; k < w->nfds; k++) {
		m = &w->fds[k];
		if (m->group_id != s->group_id || m->id == s->id ||
		    !m->kernel_id)
			continue;
		for (j = 0; j < n && ids[j] != m->id; j++)
			;
		if (j < n)
			continue;	/* a dup of one found */
		for (i = 1; i < nr && word_at(ent, 2 * i + 1) != m->kernel_id;
		     i++)
			;
		if (i >= nr)
			return "a member the worker holds an fd of is not there";
		if (!member_value_ok(w, m, word_at(ent, 2 * i)))
			return "a member's value below what its own fd read last";
		ids[n] = m->id;
		pos[n++] = i;
	}
	for (k = 0; k < n; k++)
		for (j = 0; j < n; j++)
			if (ids[k] < ids[j] && pos[k] > pos[j])
				return "members out of the order they joined";
	return NULL;
}

/*
 * A counting read's words (read(), readv(), the READ ioctl: @what), @len
 * bytes at @buf, of a size the read_format gives: with PERF_FORMAT_ID
 * the counter's id (learn_id()); with PERF_FORMAT_GROUP nr, the leader's
 * times, its value and id first, every id nonzero and unlike the
 * others, the members held there in order (members_wrong()). Time
 * running never above time enabled, and no word below what the last
 * read of the same fd gave (a group's: the leader's). Only
 * PERF_COUNTER_IOC_RESET sets a value back, never a time (ENABLE and
 * DISABLE keep them, and exited children only fold into the parent's
 * sums, pc_counter_read()): the worker's own RESETs zero last[0]
 * (reset_values()), and a shared counter's value, which another may
 * reset, is not held to its last. The rest only grows.
 */
static void check_values(struct worker *w, struct fd_slot *s,
			 const char *buf, const char *what)
{
	static const char * const names[3] = {
		"value", "time enabled", "time running",
	};
	uint64_t fmt = s->read_format, v[3] = { 0, 0, 0 }, nr = 1;
	int group = !!(fmt & PERF_FORMAT_GROUP), p = 0, k;
	const char *why = NULL;

	if (group)
		nr = word_at(buf, p++);
	else
		v[0] = word_at(buf, p++);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[1] = word_at(buf, p++);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[2] = word_at(buf, p++);
	if (group)
		v[0] = word_at(buf, p++);	/* the leader's value */
	if (fmt & PERF_FORMAT_ID) {
		if (group) {
			why = ids_wrong(buf + 8 * p, nr, 2);
			if (!why)
				why = members_wrong(w, s, buf + 8 * (p - 1),
						    nr);
		}
		if (why) {
			fail(w, "%s of fd %d, a group of %llu: %s", what,
			     s->fd, (unsigned long long)nr, why);
			return;
		}
		if (!learn_id(w, s, word_at(buf, p), what))
			return;
	}
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && v[2] > v[1])
		fail(w, "%s of fd %d: time running %llu > time enabled %llu",
		     what, s->fd, (unsigned long long)v[2],
		     (unsigned long long)v[1]);
	for (k = 0; s->has_last && k < 3; k++)
		if (v[k] < s->last[k] && !(k == 0 && s->shared))
			fail(w, "%s of fd %d: %s went back from %llu to %llu",
			     what, s->fd, names[k],
			     (unsigned long long)s->last[k],
			     (unsigned long long)v[k]);
	memcpy(s->last, v, sizeof(v));
	s->has_last = 1;
}

/*
 * Is @ret (@err) what a counting read of @s's counter (@what: read(),
 * readv() or the READ ioctl of any counter) may give into @size bytes
 * at @buf, @room of them writable (pc_read(), pc_read_values())? 0
 * only for a pinned counter, which may be in the error state; else
 * ENOSPC where @size cannot hold the words, EFAULT where @room cannot
 * (and @size can), ENOMEM for a group read under injection (a big one
 * is allocated), else the words, of the size the read_format gives. A
 * group's nr is known to be from group_nr_least() to group_nr_most()
 * only: each outcome some nr there gives is allowed, a size for nr
 * within them, and nr the size's. The words, where @buf is @good, as
 * check_values() says.
 */
static void check_values_result(struct worker *w, struct fd_slot *s,
				const char *what, const char *buf, int good,
				uint64_t size, uint64_t room, ssize_t ret,
				int err)
{
	uint64_t fmt = s->read_format, least = 1, most = 1, lo, hi, stride;
	uint64_t hdr, nr;
	const char *why = NULL;
	char got[32], name[24];

	if (s->group_read) {
		least = group_nr_least(w, s);
		most = group_nr_most();
		if (most < least)
			most = least;
	}
	lo = values_size(fmt, least);
	hi = values_size(fmt, most);
	if (ret < 0) {
		switch (err) {
		case ENOSPC:
			if (size >= hi)
				why = "ENOSPC, though the words fit";
			break;
		case EFAULT:
			if (size < lo)
				why = "EFAULT, where ENOSPC comes first";
			else if (room >= (size < hi ? size : hi))
				why = "EFAULT, though the buffer takes the words";
			break;
		case ENOMEM:
			if (!injected_faults || !s->group_read)
				why = "ENOMEM, with nothing to allocate";
			break;
		default:
			why = "not an errno of a counting read";
			break;
		}
	} else if (!ret) {
		if (!s->pinned)
			why = "nothing, though only a pinned counter is ever in error";
	} else if ((uint64_t)ret > size || (uint64_t)ret < lo ||
		   (uint64_t)ret > hi) {
		why = "not the size its read_format gives";
	} else if ((uint64_t)ret > room) {
		why = "more than the buffer could take";
	} else if (s->group_read) {
		hdr = values_size(fmt, 0);
		stride = values_size(fmt, 1) - hdr;
		nr = ((uint64_t)ret - hdr) / stride;
		if (((uint64_t)ret - hdr) % stride)
			why = "not a whole group's size";
		else if (good && word_at(buf, 0) != nr)
			why = "an nr that is not the size's";
	}
	if (!why) {
		if (ret <= 0 || !good)
			return;
		check_values(w, s, buf, what);
		if (s->group_read)
			__atomic_fetch_add(&shared->group_reads, 1,
					   __ATOMIC_RELAXED);
		if (what[0] == 'i')	/* "ioctl(READ)" */
			__atomic_fetch_add(&shared->ioctl_reads, 1,
					   __ATOMIC_RELAXED);
		return;
	}
	if (ret < 0)
		snprintf(got, sizeof(got), "-1 %s",
			 errno_name(err, name, sizeof(name)));
	else
		snprintf(got, sizeof(got), "%zd", ret);
	fail(w, "%s(%d, %p, %llu) of its counter (read_format %#llx, nr %llu to %llu, %llu bytes writable) = %s: %s",
	     what, s->fd, buf, (unsigned long long)size,
	     (unsigned long long)fmt, (unsigned long long)least,
	     (unsigned long long)most, (unsigned long long)room, got, why);
}

/*
 * A read() (@vec: readv()) of @size bytes into @buf of the queue of @s,
 * the worker's own counter, which gave @ret (@err). Once its ring is
 * mapped (ring_mapped()) every read is EBUSY (pc_queue_read()), but for
 * what is answered before the queue is looked at: the VFS's EFAULT for
 * a kernel address, the 0 of a readv() of 0 bytes, the 0 of a pinned
 * counter in error; while it is not, none is EBUSY. A read that tells
 * which, where the model did not know, teaches it. 1 if the read is as
 * the model says and its records are to be checked.
 */
static int check_read_ring(struct worker *w, struct fd_slot *s,
			   const char *buf, int vec, size_t size, ssize_t ret,
			   int err)
{
	int mapped = ring_mapped(s), busy = ret < 0 && err == EBUSY;
	char got[32], name[24];

	if (mapped > 0 && !busy &&
	    !(ret < 0 && err == EFAULT && buf == (char *)KERNEL_ADDR) &&
	    !(!ret && ((vec && !size) || s->pinned))) {
		if (ret < 0)
			snprintf(got, sizeof(got), "-1 %s",
				 errno_name(err, name, sizeof(name)));
		else
			snprintf(got, sizeof(got), "%zd", ret);
		fail(w, "%s(%d, %p, %zu) of its counter, whose ring is mapped (%u bytes) = %s, not EBUSY",
		     vec ? "readv" : "read", s->fd, buf, size,
		     (unsigned int)s->q.ring_bytes, got);
		return 0;
	}
	if (!mapped && busy) {
		fail(w, "%s(%d, %p, %zu) of its counter (%s) = -1 EBUSY, though no ring of its queue is mapped",
		     vec ? "readv" : "read", s->fd, buf, size,
		     s->fmt2009 ? "2009 queue" : "queue");
		return 0;
	}
	if (mapped < 0 && !s->q.copy && (busy || ret > 0)) {
		/* EBUSY: mapped (its size known, if it is); records: not */
		s->q.ring_maybe = busy && !s->q.ring_bytes;
		if (!busy)
			s->q.ring_bytes = 0;
		share_queue(w, s);
	}
	return !busy;
}

/*
 * A read() (@vec: readv()) of @size bytes into @buf, @room of them
 * writable. The VFS answers some first: a kernel address is EFAULT
 * (access_ok()), and readv() of 0 bytes is 0.
 */
static void check_read(struct worker *w, const struct target *t,
		       const char *buf, int good, size_t room, int vec,
		       size_t size, ssize_t ret, int err)
{
	size_t rec = t->slot && t->slot->record_type == PERF_RECORD_GROUP ?
		     16 : 8;
	char name[24];

	if (ret < 0) {
		count_errno(ERRS_READ, err);
		/*
		 * A number closed lately may be another file's by now: a
		 * thread's make-it-fail in /proc, which a forked child
		 * keeps after the thread is gone and then reads as ESRCH.
		 * Only the worker's own counters are held to the table.
		 */
		if (!errno_in(err, read_errnos, ARRAY_SIZE(read_errnos)) &&
		    !(err == ESRCH && !t->slot && t->fd != devnull_fd)) {
			fail(w, "read(%d, %p, %zu) = -1 %s", t->fd, buf, size,
			     errno_name(err, name, sizeof(name)));
			return;
		}
		if (t->slot && !t->read_size)
			check_read_ring(w, t->slot, buf, vec, size, ret, err);
		if (t->read_size > 0 &&
		    !(err == EFAULT && buf == (char *)KERNEL_ADDR))
			check_values_result(w, t->slot,
					    vec ? "readv" : "read", buf, good,
					    size, room, ret, err);
		return;
	}
	if ((size_t)ret > size) {
		fail(w, "read(%d, %p, %zu) = %zd: more than asked for",
		     t->fd, buf, size, ret);
		return;
	}
	if (t->slot && !t->read_size &&
	    !check_read_ring(w, t->slot, buf, vec, size, ret, err))
		return;
	if (ret > 0 && t->read_size >= 0)
		__atomic_fetch_add(&shared->reads_data, 1, __ATOMIC_RELAXED);
	if (t->read_size > 0) {
		if (!(vec && !size))
			check_values_result(w, t->slot,
					    vec ? "readv" : "read", buf, good,
					    size, room, ret, err);
		return;
	}
	if (!t->read_size && good && ret > 0 && !t->fmt2009)
		check_records(w, t->slot, buf, ret, "read");
	/*
	 * 2009 records: an ip each (IRQ), or a pair per member (GROUP),
	 * with nothing to say where a sample ends: the records figure
	 * counts each pair as one.
	 */
	if (!t->read_size && ret > 0 && t->fmt2009 && ret % rec)
		fail(w, "read(%d) of 2009-format records = %zd: not whole %zu-byte records",
		     t->fd, ret, rec);
	else if (!t->read_size && ret > 0 && t->fmt2009)
		__atomic_fetch_add(&shared->records, ret / rec,
				   __ATOMIC_RELAXED);
}

static void op_read(struct worker *w)
{
	static const size_t sizes[] = { 0, 1, 7, 8, 16, 24, 25, 4096, 65536 };
	struct target t = pick_target(w);
	size_t size = sizes[rnd_below(w, ARRAY_SIZE(sizes))], cut, room;
	unsigned int mode = rnd_below(w, 4);
	int good, may_block = t.read_size <= 0, err;
	char *buf = read_buffer(w, &good, &room);
	struct iovec iov[2];
	ssize_t ret;

	/*
	 * Only a counting counter never blocks. Anything else is read with
	 * the thread's timer armed: another thread or a child sharing the
	 * file may clear O_NONBLOCK, or drain what poll() saw.
	 */
	if (may_block && !w->has_timer)
		return;
	if (mode == 1)
		set_nonblock(w, t.fd, 1);
	if (mode == 2 && !readable_now(w, t.fd))
		return;
	/* readv() (mode 3): the same bytes, cut in two iovecs anywhere */
	cut = rnd_below(w, size + 1);
	iov[0].iov_base = buf;
	iov[0].iov_len = cut;
	iov[1].iov_base = (char *)((uintptr_t)buf + cut);
	iov[1].iov_len = size - cut;
	if (may_block)
		guard_set(w, READ_GUARD_NS);
	faults_on(w);
	ret = mode == 3 ? readv(t.fd, iov, 2) : read(t.fd, buf, size);
	err = errno;
	faults_off(w);
	if (may_block)
		guard_set(w, 0);
	check_read(w, &t, buf, good, room, mode == 3, size, ret, err);
}

static void op_nonblock(struct worker *w)
{
	int fd = devnull_fd, fl;

	if (w->nfds && chance(w, 90))
		fd = w->fds[rnd_below(w, w->nfds)].fd;
	faults_on(w);
	fl = fcntl(fd, F_GETFL);
	faults_off(w);
	if (fl < 0)
		return;
	switch (rnd_below(w, 3)) {
	case 0:
		fl |= O_NONBLOCK;
		break;
	case 1:
		fl &= ~O_NONBLOCK;
		break;
	default:
		fl ^= O_NONBLOCK;
		break;
	}
	faults_on(w);
	fcntl(fd, F_SETFL, fl);
	faults_off(w);
}

/*
 * The generic ioctl numbers the VFS answers itself, before the file's
 * own ioctl (FIOCLEX, FIONBIO, FIFREEZE, FICLONE, FS_IOC_*, FIBMAP,
 * pipe watch queues): a random number stays out of their types.
 */
static int vfs_ioctl_type(unsigned int type)
{
	return type == 0 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 'W' || type == 0x94 || type == 0x15;
}

static unsigned long random_ioctl_cmd(struct worker *w)
{
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE,
	};
	unsigned int r = rnd_below(w, 100);
	unsigned long cmd;

	if (r < 17)
		return PERF_COUNTER_IOC_ENABLE;
	if (r < 34)
		return PERF_COUNTER_IOC_DISABLE;
	if (r < 48)
		return PERF_COUNTER_IOC_QUEUE_SIZE;
	if (r < 52)
		return PERF_COUNTER_IOC_LOST;
	if (r < 60)
		return PERF_COUNTER_IOC_PERIOD;
	if (r < 66)
		return PERF_COUNTER_IOC_RESET;
	if (r < 72)
		return PERF_COUNTER_IOC_REFRESH;
	if (r < 77)
		return PERF_COUNTER_IOC_ID;
	if (r < 85)
		return PERF_COUNTER_IOC_READ;
	if (r < 93)
		return _IOC(dirs[rnd_below(w, ARRAY_SIZE(dirs))], '$',
			    rnd_below(w, 256), rnd_below(w, 64));
	cmd = (uint32_t)rnd(w);
	if (vfs_ioctl_type(_IOC_TYPE(cmd))) {
		cmd &= ~((unsigned long)_IOC_TYPEMASK << _IOC_TYPESHIFT);
		cmd |= (unsigned long)'$' << _IOC_TYPESHIFT;
	}
	return cmd;
}

/*
 * An ioctl's argument: mostly a pointer to a size (@w->ioctl_val), or an
 * address the kernel cannot read 4 bytes at (*@readable 0), or any
 * (*@readable -1).
 */
static unsigned long random_ioctl_arg(struct worker *w, int *readable)
{
	static const uint32_t sizes[] = { 0, 4096, 4095, 1U << 20, 1U << 21 };
	unsigned int r = rnd_below(w, 100);

	*readable = r < 70 ? 1 : r < 95 ? 0 : -1;
	if (r < 70) {
		if (chance(w, 85))
			w->ioctl_val = sizes[rnd_below(w, ARRAY_SIZE(sizes))];
		else
			w->ioctl_val = rnd(w);
		return (unsigned long)&w->ioctl_val;
	}
	if (r < 75)
		return 0;
	if (r < 80)
		return 1;
	if (r < 85)
		return KERNEL_ADDR;
	if (r < 90)
		return (unsigned long)(w->hwbuf + page_size);
	if (r < 95)
		return (unsigned long)(w->hwbuf + page_size - 2);
	return rnd(w);
}

/*
 * PERF_COUNTER_IOC_PERIOD's argument for @s (NULL: not the worker's own
 * counter): a pointer to a period, or for a frequency counter a
 * frequency, that the kernel takes or refuses (*@value), or an address
 * it cannot read. *@readable: 1 if the kernel can read the value, 0 if
 * not (EFAULT), -1 if not known (a random address).
 */
static unsigned long period_arg(struct worker *w, const struct fd_slot *s,
				uint64_t *value, int *readable)
{
	static const uint64_t periods[] = {
		0, 1, 2, 3, CLOCK_PERIOD_MIN - 1, CLOCK_PERIOD_MIN, 1000000,
		(1ULL << 63) - 1, 1ULL << 63, ~0ULL,
	};
	unsigned int r = rnd_below(w, 100);

	if (r < 30)
		*value = periods[rnd_below(w, ARRAY_SIZE(periods))];
	else if (r < 55)
		*value = random_freq(w);
	else if (s && s->freq)
		*value = 1 + rnd_below(w, s->clock ? CLOCK_FREQ_MAX : max_rate);
	else
		*value = s && s->clock ?
			 CLOCK_PERIOD_MIN + rnd_below(w, 2000000) :
			 1 + rnd_below(w, 20000);
	w->ioctl_out = *value;
	*readable = 0;
	r = rnd_below(w, 100);
	if (r < 80) {
		*readable = 1;
		return (unsigned long)&w->ioctl_out;
	}
	if (r < 83)
		return 0;
	if (r < 86)
		return 1;
	if (r < 90)
		return KERNEL_ADDR;
	if (r < 94)
		return (unsigned long)(w->hwbuf + page_size);
	if (r < 98)	/* four bytes readable, then PROT_NONE */
		return (unsigned long)(w->hwbuf + page_size - 4);
	*readable = -1;
	return rnd(w);
}

/*
 * PERF_COUNTER_IOC_ID's argument: where the id goes, or an address the
 * kernel cannot write 8 bytes at (*@writable 0: EFAULT). Never a random
 * one: the kernel would write there, and might hit this process's
 * memory.
 */
static unsigned long id_arg(struct worker *w, int *writable)
{
	unsigned int r = rnd_below(w, 100);

	w->ioctl_out = 0;
	*writable = r < 85;
	if (r < 85)
		return (unsigned long)&w->ioctl_out;
	if (r < 88)
		return 0;
	if (r < 91)
		return KERNEL_ADDR;
	if (r < 95)
		return (unsigned long)(w->hwbuf + page_size);
	return (unsigned long)(w->hwbuf + page_size - 4);	/* 4 bytes */
}

/*
 * PERF_COUNTER_IOC_READ's argument, in @w->ioctl_rb: a buffer of
 * read_buffer()'s (*@good, *@room as there; never a random address,
 * which the kernel would write), a size about what @s reads as (the
 * least for a group: its members may be more), or a small or big one,
 * __reserved mostly 0; or an address of it the kernel cannot read
 * (*@readable 0: EFAULT).
 */
static unsigned long read_arg(struct worker *w, const struct fd_slot *s,
			      int *readable, int *good, size_t *room)
{
	static const uint32_t sizes[] = {
		0, 7, 8, 16, 24, 32, 40, 4096, READ_BUF, UINT32_MAX,
	};
	struct perf_counter_read_buf *rb = &w->ioctl_rb;
	uint64_t need = 8;
	unsigned int r = rnd_below(w, 100);

	if (s && s->read_size >= 0)
		need = values_size(s->read_format,
				   s->group_read ? group_nr_least(w, s) : 1);
	rb->addr = (uintptr_t)read_buffer(w, good, room);
	if (r < 45)
		rb->size = need;
	else if (r < 55)
		rb->size = need - 8;
	else if (r < 95)
		rb->size = sizes[rnd_below(w, ARRAY_SIZE(sizes))];
	else
		rb->size = rnd(w);
	rb->__reserved = chance(w, 6) ? (uint32_t)rnd(w) | 1 : 0;
	r = rnd_below(w, 100);
	*readable = r < 88;
	if (r < 88)
		return (unsigned long)rb;
	if (r < 90)
		return 0;
	if (r < 92)
		return KERNEL_ADDR;
	if (r < 96)
		return (unsigned long)(w->hwbuf + page_size);
	return (unsigned long)(w->hwbuf + page_size - 8);	/* half of it */
}

/*
 * The ID ioctl on the worker's own counter @s (of any kind: every fd
 * it keeps is a counter's): EFAULT where the id cannot be written, else
 * 0 and the id, as learn_id() says.
 */
static void check_id(struct worker *w, struct fd_slot *s, int writable,
		     int ret, int err)
{
	char name[24];
	int e = ret ? err : 0;

	if (e != (writable ? 0 : EFAULT)) {
		fail(w, "ioctl(%d, ID) on its own counter = %s, not %s", s->fd,
		     e ? errno_name(e, name, sizeof(name)) : "0",
		     writable ? "0" : "EFAULT");
		return;
	}
	if (!e)
		learn_id(w, s, w->ioctl_out, "ioctl(ID)");
}

/*
 * The READ ioctl on the worker's own counter @s, whose kind is known:
 * EFAULT for an argument the kernel cannot read, EINVAL for __reserved
 * set (pc_ioctl_read()), else as a counting read of its values is
 * (check_values_result()), for a counter with a queue as well.
 */
static void check_read_ioctl(struct worker *w, struct fd_slot *s,
			     int readable, int good, size_t room, long ret,
			     int err)
{
	const struct perf_counter_read_buf *rb = &w->ioctl_rb;
	int want = !readable ? EFAULT : rb->__reserved ? EINVAL : -1;
	char name[24], name2[24];
	int e = ret < 0 ? err : 0;

	if (want < 0) {
		check_values_result(w, s, "ioctl(READ)",
				    (const char *)(uintptr_t)rb->addr, good,
				    rb->size, room, ret, err);
		return;
	}
	if (e != want)
		fail(w, "ioctl(%d, READ, %s) on its own counter = %s, not %s",
		     s->fd, readable ? "__reserved set" : "unreadable",
		     e ? errno_name(e, name, sizeof(name)) : "0 or more",
		     errno_name(want, name2, sizeof(name2)));
}

/* PERF_COUNTER_IOC_REFRESH's count: 1 to INT_MAX, or out of range. */
static unsigned long refresh_arg(struct worker *w)
{
	static const unsigned long counts[] = {
		0, 1, 2, 3, 10, 1000, INT_MAX, (unsigned long)INT_MAX + 1,
		ULONG_MAX,
	};

	if (chance(w, 90))
		return counts[rnd_below(w, ARRAY_SIZE(counts))];
	return rnd(w);
}

/* The ioctls after which a counter's value or period is not what was. */
static int changes_counter(unsigned int cmd)
{
	return cmd == PERF_COUNTER_IOC_PERIOD || cmd == PERF_COUNTER_IOC_RESET;
}

/*
 * May @w make such an ioctl on @t? On its own fds, but, in a forked
 * child, not on the copies of its parent's (the parent checks their
 * values and periods); on /dev/null and -1, refused anyway. Never on a
 * number it closed: another thread's counter may have it now.
 */
static int may_change(const struct worker *w, const struct target *t)
{
	if (t->slot)
		return !(w->child && t->slot->shared);
	return t->fd == devnull_fd || t->fd < 0;
}

/*
 * After a RESET of @s's counter: its value, and its members' if it
 * leads, start again from 0 (period.c); the times go on. Every fd of
 * the worker's on them forgets its last value.
 */
static void reset_values(struct worker *w, const struct fd_slot *s)
{
	unsigned int id = s->id, lead = s->group_id == s->id ? s->id : 0;
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id == id || (lead && w->fds[i].group_id == lead))
			w->fds[i].last[0] = 0;
}

/* After a PERIOD that took: the period of @s's counter is not known. */
static void period_changed(struct worker *w, const struct fd_slot *s)
{
	unsigned int id = s->id;
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id == id)
			w->fds[i].period = 0;
}

/*
 * Is an ioctl's result, @ret and @err, the one the model says, @want:
 * 0, an errno, or -1 for 0 or EINVAL? A failure names the counter.
 */
static void expect_ioctl(struct worker *w, const struct fd_slot *s,
			 const char *what, unsigned long long arg, int want,
			 int ret, int err)
{
	char got[32], name[24];
	int e = ret ? err : 0;

	if (e == want || (want < 0 && (!e || e == EINVAL)))
		return;
	snprintf(got, sizeof(got), "%s", ret ? errno_name(err, name,
							 sizeof(name)) : "0");
	fail(w, "ioctl(%d, %s %#llx) on its own counter (sampling %d, freq %d, clock %d, inherit %d) = %s, not %s",
	     s->fd, what, arg, s->sampling, s->freq, s->clock, s->inherit, got,
	     want < 0 ? "0 or EINVAL" : want ?
	     errno_name(want, name, sizeof(name)) : "0");
}

/*
 * PERIOD on the worker's own counter @s: EFAULT for an address the
 * kernel cannot read; EINVAL for a counter that does not sample, 0,
 * and what the open would refuse (pc_check_period()): a frequency
 * counter's above its most (@most: by the rate read before the call,
 * at least the kernel's; at most it, by the rate read now, is taken), a
 * fixed period of 2^63 or more, a clock's under CLOCK_PERIOD_MIN.
 */
static void check_period(struct worker *w, struct fd_slot *s,
			 uint64_t value, int readable, uint64_t most, int ret,
			 int err)
{
	int want = 0;

	if (!ret)
		period_changed(w, s);
	if (readable < 0)
		return;
	if (!readable)
		want = EFAULT;
	else if (!s->sampling || !value)
		want = EINVAL;
	else if (s->freq)
		want = value > most ? EINVAL :
		       value <= freq_max(s->clock, read_max_rate()) ? 0 : -1;
	else if (value > (uint64_t)INT64_MAX ||
		 (s->clock && value < CLOCK_PERIOD_MIN))
		want = EINVAL;
	expect_ioctl(w, s, "PERIOD of", value, want, ret, err);
}

/*
 * QUEUE_SIZE of @s, the worker's own counter with a queue, of @readable
 * (1: the size @w->ioctl_val; 0: an address the kernel cannot read; -1:
 * any), which gave @ret (@err). A mapped ring keeps its size: EFAULT
 * for the address, EINVAL for a size no queue may have
 * (pc_queue_resize()), else EINVAL for one too small for the counter's
 * largest record, ENOMEM for the new ring or EBUSY, never 0. A resize
 * that took says a queue maybe mapped is not.
 */
static void check_queue_size(struct worker *w, struct fd_slot *s,
			     int readable, int ret, int err)
{
	uint32_t v = w->ioctl_val;
	unsigned int allowed;
	char buf[64], name[24];
	int mapped = ring_mapped(s);

	if (mapped < 0 && !ret && !s->q.copy) {
		s->q.ring_maybe = 0;
		s->q.ring_bytes = 0;
		share_queue(w, s);
	}
	if (mapped <= 0)
		return;
	if (!readable)
		allowed = may(EFAULT);
	else if (readable > 0 && (v < 4096 || v > RING_DATA_MAX || (v & (v - 1))))
		allowed = may(EINVAL);
	else
		allowed = may(EINVAL) | may(ENOMEM) | may(EBUSY) |
			  (readable < 0 ? may(EFAULT) : 0);
	if (!may_be(allowed, ret ? err : 0))
		fail(w, "ioctl(%d, QUEUE_SIZE, %s %u) of its counter, whose ring is mapped (%u bytes) = %s, not %s",
		     s->fd, readable > 0 ? "size" : readable ? "any address, size" :
		     "an unreadable address, size", (unsigned int)v,
		     (unsigned int)s->q.ring_bytes,
		     ret ? errno_name(err, name, sizeof(name)) : "0",
		     may_names(allowed, buf, sizeof(buf)));
}

/*
 * ioctl()s of every kind on every kind of fd. On the worker's own
 * counter: ENABLE, DISABLE and RESET succeed, QUEUE_SIZE of a counting
 * counter is EINVAL and of a mapped ring as check_queue_size() says,
 * PERIOD is as check_period() says, and REFRESH is EINVAL for a
 * counting or an inherited counter and a count of 0 or past INT_MAX
 * (pc_counter_refresh()), else 0; ENABLE and REFRESH may also be
 * ENOMEM where the first use's ring may fail (ring_alloc_may_fail()).
 * ID and READ are as check_id() and check_read_ioctl() say. What a
 * RESET or a REFRESH then does is not modelled but for the values it
 * resets (no crash, no leak): a refreshed counter disables itself in
 * time.
 */
static void op_ioctl(struct worker *w)
{
	struct target t = pick_target(w);
	unsigned long cmd = random_ioctl_cmd(w), arg;
	struct fd_slot *s = t.read_size >= 0 ? t.slot : NULL;
	uint64_t value = 0, most = 0;
	int ret, err, readable = -1, good = 0;
	size_t room = 0;
	unsigned int c;
	char name[24];

	if (changes_counter(cmd) && !may_change(w, &t))
		cmd = PERF_COUNTER_IOC_LOST;
	/* what they change is op_output()'s to model: a random one, none */
	if (cmd == PERF_COUNTER_IOC_SET_OUTPUT ||
	    cmd == PERF_COUNTER_IOC_WAKEUP)
		cmd = PERF_COUNTER_IOC_LOST;
	c = cmd;
	if (c == PERF_COUNTER_IOC_PERIOD)
		arg = period_arg(w, t.slot, &value, &readable);
	else if (c == PERF_COUNTER_IOC_REFRESH)
		arg = refresh_arg(w);
	else if (c == PERF_COUNTER_IOC_ID)
		arg = id_arg(w, &readable);
	else if (c == PERF_COUNTER_IOC_READ)
		arg = read_arg(w, s, &readable, &good, &room);
	else
		arg = random_ioctl_arg(w, &readable);
	if (s && s->freq && c == PERF_COUNTER_IOC_PERIOD && readable > 0)
		most = freq_max(s->clock, read_max_rate());

	faults_on(w);
	ret = ioctl(t.fd, cmd, arg);
	err = errno;
	faults_off(w);
	if (ret < 0) {
		count_errno(ERRS_IOCTL, err);
		if (!errno_in(err, ioctl_errnos, ARRAY_SIZE(ioctl_errnos))) {
			fail(w, "ioctl(%d, %#lx, %#lx) = -1 %s", t.fd, cmd, arg,
			     errno_name(err, name, sizeof(name)));
			return;
		}
	}
	/* a PERIOD that took on a counter of unknown kind: its own slot */
	if (c == PERF_COUNTER_IOC_PERIOD && !ret && t.slot && !s)
		period_changed(w, t.slot);
	/* a counter of any kind has an id */
	if (c == PERF_COUNTER_IOC_ID && t.slot)
		check_id(w, t.slot, readable, ret, err);
	if (!s)
		return;
	if (c == PERF_COUNTER_IOC_READ)
		check_read_ioctl(w, s, readable, good, room, ret, err);
	/* the first use of a queue of a counter opened disabled: its ring */
	if (ret && err == ENOMEM && ring_alloc_may_fail(s) &&
	    (c == PERF_COUNTER_IOC_ENABLE || c == PERF_COUNTER_IOC_REFRESH))
		return;
	if ((c == PERF_COUNTER_IOC_ENABLE || c == PERF_COUNTER_IOC_DISABLE ||
	     c == PERF_COUNTER_IOC_RESET) && ret)
		fail(w, "ioctl(%d, %#lx) on its own counter = %d errno %d",
		     t.fd, cmd, ret, err);
	if (c == PERF_COUNTER_IOC_RESET && !ret)
		reset_values(w, s);
	if (c == PERF_COUNTER_IOC_QUEUE_SIZE && t.read_size > 0 &&
	    (ret != -1 || err != EINVAL))
		fail(w, "ioctl(%d, QUEUE_SIZE) on a counting counter = %d errno %d, not EINVAL",
		     t.fd, ret, err);
	if (c == PERF_COUNTER_IOC_QUEUE_SIZE && !t.read_size)
		check_queue_size(w, s, readable, ret, err);
	if (c == PERF_COUNTER_IOC_PERIOD)
		check_period(w, s, value, readable, most, ret, err);
	if (c == PERF_COUNTER_IOC_REFRESH)
		expect_ioctl(w, s, "REFRESH", arg,
			     (!s->sampling || s->inherit || !arg ||
			      arg > INT_MAX) ? EINVAL : 0, ret, err);
}

static void op_poll(struct worker *w)
{
	static const short events[] = { POLLIN, POLLOUT, POLLPRI, POLLRDNORM };
	struct pollfd pfd[4];
	struct target t[4];
	struct timespec ts;
	unsigned int n = 1 + rnd_below(w, 4), i;
	char name[24];
	int ret, err;

	for (i = 0; i < n; i++) {
		t[i] = pick_target(w);
		pfd[i].fd = t[i].fd;
		pfd[i].events = POLLIN;
		if (chance(w, 30))
			pfd[i].events |=
				events[rnd_below(w, ARRAY_SIZE(events))];
		pfd[i].revents = 0;
	}
	if (chance(w, 50)) {
		struct pollfd *p = chance(w, 3) ? NULL : pfd;
		int timeout = rnd_below(w, 2);

		faults_on(w);
		ret = poll(p, n, timeout);
		err = errno;
		faults_off(w);
	} else {
		ts.tv_sec = 0;
		ts.tv_nsec = rnd_below(w, 200000);
		faults_on(w);
		ret = ppoll(pfd, n, &ts, NULL);
		err = errno;
		faults_off(w);
	}
	if (ret < 0) {
		count_errno(ERRS_POLL, err);
		if (!errno_in(err, poll_errnos, ARRAY_SIZE(poll_errnos)))
			fail(w, "poll of %u fds = -1 %s", n,
			     errno_name(err, name, sizeof(name)));
		return;
	}
	for (i = 0; i < n; i++)
		if (t[i].read_size > 0 && !(pfd[i].revents & POLLIN))
			fail(w, "poll: counting counter fd %d not readable (revents %#x)",
			     pfd[i].fd, pfd[i].revents);
}

static void op_prctl(struct worker *w)
{
	int option = chance(w, 50) ? PR_TASK_PERF_COUNTERS_DISABLE :
				     PR_TASK_PERF_COUNTERS_ENABLE;
	unsigned long a = rnd(w), b = rnd(w);
	int ret;

	if (chance(w, 10)) {
		faults_on(w);
		prctl(option, a, b, a, b);
		faults_off(w);
		return;
	}
	faults_on(w);
	ret = prctl(option, 0, 0, 0, 0);
	faults_off(w);
	/*
	 * ENOMEM: a kernel with a security module to ask lists the
	 * leaders; an enable gives a leader opened disabled its ring
	 */
	if (ret && !(errno == ENOMEM && injected_faults))
		fail(w, "prctl(%d, 0, 0, 0, 0) = -1 errno %d", option, errno);
}

static void op_close(struct worker *w)
{
	if (!w->nfds)
		return;
	close_slot(w, chance(w, 30) ? 0 : rnd_below(w, w->nfds));
}

/* dup() or dup2() with faults on: its result, its errno counted. */
static int dup_faulted(struct worker *w, int fd, int fd2)
{
	int ret;

	faults_on(w);
	ret = fd2 < 0 ? dup(fd) : dup2(fd, fd2);
	faults_off(w);
	if (ret < 0)
		count_errno(ERRS_DUP, errno);
	return ret;
}

static void op_dup(struct worker *w)
{
	int i, j, fd;

	if (!w->nfds || chance(w, 10)) {
		fd = dup_faulted(w, chance(w, 50) ? devnull_fd : w->closed_fd,
				 -1);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (chance(w, 60)) {
		make_room(w);
		i = rnd_below(w, w->nfds);
		fd = dup_faulted(w, w->fds[i].fd, -1);
		if (fd >= 0)
			add_dup(w, i, fd);
		return;
	}
	i = rnd_below(w, w->nfds);
	j = rnd_below(w, w->nfds);
	fd = w->fds[j].fd;
	if (dup_faulted(w, w->fds[i].fd, fd) >= 0) {
		w->fds[j] = w->fds[i];
		w->fds[j].fd = fd;
	}
}

static void op_affinity(struct worker *w)
{
	int n = nr_cpus + 2, cpu;
	cpu_set_t set;

	if (n > CPU_SETSIZE)
		n = CPU_SETSIZE;
	CPU_ZERO(&set);
	if (chance(w, 20)) {
		for (cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &set);
	} else if (!chance(w, 5)) {
		for (cpu = 0; cpu < n; cpu++)
			if (chance(w, 50))
				CPU_SET(cpu, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

static void op_busy(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);

	if (r < 70)
		pc_spin(rnd_below(w, 200000));
	else if (r < 90)
		sched_yield();
	else
		usleep(rnd_below(w, 1000));
}

static void op_pages(struct worker *w)
{
	if (chance(w, 80))
		pc_touch_pages(1 + rnd_below(w, 16));
	else
		memset(w->rbuf, rnd(w), READ_BUF);
}

/*
 * The counter page a worker has mapped, read as its reader must
 * (uapi header: @seq even and unchanged around the copy, in at most
 * PAGE_TRIES tries: only an interrupt on the reader's own CPU writes
 * it), and checked: its version, no unknown flag, time running not
 * above time enabled. Touched with faults off: the first touch faults
 * the page in. 1 with the copy in *@out, 0 after a failure.
 */
#define PAGE_TRIES	1000

static int read_page(struct worker *w, const char *map,
		     struct perf_counter_page *out)
{
	struct perf_counter_page *pg = (void *)map;
	uint32_t seq;
	int i;

	for (i = 0; i < PAGE_TRIES; i++) {
		seq = __atomic_load_n(&pg->seq, __ATOMIC_ACQUIRE);
		memcpy(out, pg, sizeof(*out));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) &&
		    __atomic_load_n(&pg->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	if (i == PAGE_TRIES) {
		fail(w, "counter page: seq odd or changing in %d reads",
		     PAGE_TRIES);
		return 0;
	}
	__atomic_fetch_add(&shared->pages_read, 1, __ATOMIC_RELAXED);
	if (out->version != PERF_COUNTER_PAGE_VERSION ||
	    out->flags & ~(uint32_t)(PERF_COUNTER_PAGE_READ |
				     PERF_COUNTER_PAGE_RUNNING |
				     PERF_COUNTER_PAGE_CLOCK) ||
	    out->time_running > out->time_enabled) {
		fail(w, "counter page: version %u flags %#x time enabled %llu running %llu",
		     out->version, out->flags,
		     (unsigned long long)out->time_enabled,
		     (unsigned long long)out->time_running);
		return 0;
	}
	return 1;
}

/*
 * Is a counter page of @s certain to be given (page.c): a counting
 * counter, not inherited, of this thread, in a worker thread (whose
 * context never holds inherited copies, and so never swaps)? 1: yes;
 * 0: certain to be refused (EOPNOTSUPP); -1: not known (a forked or
 * exec'd child's context may hold copies; an fd of unknown counter).
 */
static int page_given(const struct worker *w, const struct fd_slot *s)
{
	int own = s->task == this_tid();

	if (s->read_size < 0)
		return -1;
	if (!s->read_size || s->inherit || !own)
		return 0;
	return w->child ? -1 : 1;
}

/*
 * mmap() of a counter's page, with the errno each wrong argument
 * gives (EACCES writable, EINVAL another length or offset; a counter
 * with a queue maps a ring, of which none of these is the shape:
 * EINVAL, EOPNOTSUPP for a 2009 queue); reads of it, a read() that
 * must not be below the value the page showed; and races: the fd
 * closed while mapped (the mapping holds the file), a fork while
 * mapped (VM_DONTCOPY: the child has no copy), an exit or exec of a
 * child holding one, munmap() at a later call.
 */
static void op_mmap(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);
	struct perf_counter_page pg;
	int prot = PROT_READ, i, given, err, closed = 0, want;
	size_t len = page_size, at;
	off_t off = 0;
	struct fd_slot *s;
	char name[24], name2[24];
	ssize_t ret;
	uint64_t v;
	void *p;

	if (w->page_map) {
		read_page(w, w->page_map, &pg);
		if (chance(w, 50)) {
			munmap(w->page_map, page_size);
			w->page_map = NULL;
		}
		return;
	}
	if (!w->nfds)
		return;
	i = rnd_below(w, w->nfds);
	s = &w->fds[i];
	given = page_given(w, s);
	want = 0;
	if (r < 8) {
		prot |= PROT_WRITE;
		want = EACCES;
	} else if (r < 14) {
		len *= 2;
		want = EINVAL;
	} else if (r < 20) {
		off = page_size;
		want = EINVAL;
	} else if (!given) {
		want = EOPNOTSUPP;
	}
	if (!s->read_size)
		want = s->fmt2009 ? EOPNOTSUPP : EINVAL;
	faults_on(w);
	p = mmap(NULL, len, prot, MAP_SHARED, s->fd, off);
	err = errno;
	faults_off(w);
	if (p == MAP_FAILED) {
		if (err == ENOMEM && injected_faults)
			return;
		/* of unknown kind: a queue's refusals too */
		if (s->read_size < 0 && (err == EINVAL || err == EOPNOTSUPP))
			return;
		if (want ? err != want : given == 1 ||
		    (err != EOPNOTSUPP && err != ENOMEM))
			fail(w, "mmap(%zu bytes, prot %#x, fd %d, offset %lld) of a counter = -1 %s, not %s",
			     len, prot, s->fd, (long long)off,
			     errno_name(err, name, sizeof(name)),
			     want ? errno_name(want, name2, sizeof(name2)) :
				    "a page");
		return;
	}
	if (want) {
		fail(w, "mmap(%zu bytes, prot %#x, fd %d, offset %lld) of a counter succeeded: %s expected",
		     len, prot, s->fd, (long long)off,
		     errno_name(want, name, sizeof(name)));
		munmap(p, len);
		return;
	}
	if (len != (size_t)page_size || s->read_size < 0) {
		munmap(p, len);
		return;
	}
	if (chance(w, 30)) {
		close_slot(w, i);	/* the mapping holds the file */
		closed = 1;
	}
	w->page_map = p;
	if (!read_page(w, p, &pg) || closed || s->shared ||
	    !(pg.flags & PERF_COUNTER_PAGE_READ))
		return;
	/* a group read: nr and the times, then the leader's value */
	at = s->group_read ? values_size(s->read_format, 0) : 0;
	faults_on(w);
	ret = read(s->fd, w->rbuf, s->group_read ? READ_BUF : s->read_size);
	faults_off(w);
	memcpy(&v, w->rbuf + at, sizeof(v));
	if (ret >= s->read_size && v < pg.value)
		fail(w, "read(%d) = value %llu, below the %llu its page showed before",
		     s->fd, (unsigned long long)v,
		     (unsigned long long)pg.value);
}

/*
 * The record ring (queue_map.c, the uapi header): mmap() of a counter
 * with a headered queue gives a control page, struct
 * perf_counter_ring_page, and 2^n pages the counter's records are
 * written to. The kernel moves data_head, the reader data_tail.
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HALF_HI		0
#define HALF_LO		1
#else
#define HALF_HI		1
#define HALF_LO		0
#endif

/*
 * A __u64 of a ring's control page, loaded with acquire semantics. A
 * 32-bit kernel counts data_head and lost modulo 2^32 and keeps their
 * high halves 0 (uapi header): no load of them is torn.
 */
static uint64_t ring_load(const __u64 *p)
{
#if __SIZEOF_LONG__ == 8
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
	const uint32_t *h = (const uint32_t *)p;
	uint64_t hi = __atomic_load_n(&h[HALF_HI], __ATOMIC_ACQUIRE);

	return hi << 32 | __atomic_load_n(&h[HALF_LO], __ATOMIC_ACQUIRE);
#endif
}

/*
 * data_tail, stored with release semantics, its high half first: a
 * 32-bit kernel reads its low half alone.
 */
static void ring_store_tail(struct perf_counter_ring_page *pg, uint64_t tail)
{
#if __SIZEOF_LONG__ == 8
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
#else
	uint32_t *h = (uint32_t *)&pg->data_tail;

	__atomic_store_n(&h[HALF_HI], (uint32_t)(tail >> 32), __ATOMIC_RELEASE);
	__atomic_store_n(&h[HALF_LO], (uint32_t)tail, __ATOMIC_RELEASE);
#endif
}

static struct perf_counter_ring_page *ring_page(const struct ring *r)
{
	return (struct perf_counter_ring_page *)r->map[0];
}

/* The ring the worker has mapped of counter @id, or NULL. */
static struct ring *ring_of(struct worker *w, unsigned int id)
{
	int i;

	for (i = 0; i < w->nrings; i++)
		if (w->rings[i].id == id)
			return &w->rings[i];
	return NULL;
}

/*
 * The counter of ring @r: an fd of it the worker keeps (the ring's copy
 * of its model brought up to date), or, with none left, that copy.
 */
static struct fd_slot *ring_counter(struct worker *w, struct ring *r)
{
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].id == r->id) {
			r->rec = w->fds[i];
			return &w->fds[i];
		}
	return &r->rec;
}

/* Ring @r is no longer mapped here. */
static void ring_forget(struct worker *w, struct ring *r)
{
	int i = r - w->rings;

	w->nrings--;
	memmove(&w->rings[i], &w->rings[i + 1],
		(w->nrings - i) * sizeof(w->rings[0]));
}

/* Every ring the worker has mapped, unmapped. */
static void unmap_rings(struct worker *w)
{
	struct ring *r;

	while (w->nrings) {
		r = &w->rings[w->nrings - 1];
		while (r->nmaps)
			munmap(r->map[--r->nmaps], r->len);
		w->nrings--;
	}
}

/* A ring's data pages: 2^n, mostly one to four, now and then 1 MiB. */
static size_t ring_pages(struct worker *w)
{
	size_t most = RING_DATA_MAX / page_size, n;
	unsigned int r = rnd_below(w, 100);

	n = r < 40 ? 1 : r < 65 ? 2 : r < 80 ? 4 : r < 90 ? 8 :
	    r < 98 ? (size_t)1 << rnd_below(w, 9) : most;
	while (n > most && n > 1)
		n /= 2;
	return n;
}

/*
 * The data bytes of a ring a mapping of @pages pages, @prot, @flags, at
 * @off, has; 0 if it is not a ring's shape: shared, writable, at offset
 * 0, 1 + 2^n pages, no more than 1 MiB of data (pc_queue_map_bytes()).
 */
static uint32_t ring_shape_bytes(size_t pages, int prot, int flags,
				 off_t off)
{
	size_t data = pages - 1;

	if (off || pages < 2 || data > RING_DATA_MAX / page_size ||
	    (data & (data - 1)) || !(flags & MAP_SHARED) ||
	    !(prot & PROT_WRITE))
		return 0;
	return data * page_size;
}

/*
 * What mmap() of @s's fd must answer for @pages pages, @prot, at @off,
 * of a ring's shape of @bytes if they are not 0 (pc_mmap()): for a
 * counting counter the page's rules (page.c: one page at offset 0, not
 * writable nor executable, which no ring's shape is); for a 2009 queue
 * EOPNOTSUPP; for a counter whose records go to another's queue EINVAL
 * (pc_output_mmap()), and for what is not a ring's shape; EACCES for an
 * executable one; for a mapped ring the same ring again (0), or EINVAL
 * for another size; for one not mapped yet a new ring, or EBUSY while
 * records wait for read() (or a read is in progress), or ENOMEM where
 * its memory may be refused (under injection, past RLIMIT_MEMLOCK
 * without CAP_IPC_LOCK, which root is taken to hold, or for RING_BIG
 * or more, which a 32-bit kernel's vmalloc space may lack).
 */
static unsigned int ring_allowed(const struct fd_slot *s, size_t pages,
				 int prot, off_t off, uint32_t bytes)
{
	int mapped = ring_mapped(s);
	unsigned int allowed;

	if (s->read_size < 0)
		return MAY_ANY;
	if (s->read_size)
		return off || pages != 1 ? may(EINVAL) :
		       prot & (PROT_WRITE | PROT_EXEC) ? may(EACCES) : MAY_ANY;
	if (s->fmt2009)
		return may(EOPNOTSUPP);
	if (s->q.out_id || !bytes)
		return may(EINVAL);
	if (prot & PROT_EXEC)
		return may(EACCES);
	if (mapped > 0)
		return may(bytes == s->q.ring_bytes ? 0 : EINVAL);
	allowed = may(0) | may(EBUSY);
	if (mapped < 0 && s->q.ring_bytes != bytes)
		allowed |= may(EINVAL);
	if (injected_faults || !privileged || bytes >= RING_BIG)
		allowed |= may(ENOMEM);
	return allowed;
}

/*
 * The records from @r->hostile_head to @head, written since a tail the
 * kernel cannot take: at most the one reservation a producer may have
 * made against the tail before it (pc_queue_reserve(): a LOST and a
 * LOST_SIDEBAND record, then its record). NULL, or what is wrong.
 */
static const char *ring_reservation_wrong(const struct ring *r,
					  unsigned long head)
{
	const char *data = r->map[0] + page_size;
	struct perf_counter_record_header h;
	unsigned long at = r->hostile_head;
	int records = 0, losts = 0;

	while (at != head) {
		if (records || losts > 2)
			return "records past a data_tail the kernel cannot take";
		memcpy(&h, data + (at & (r->size - 1)), sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - at)
			return "a record of a size that is none, past a data_tail the kernel cannot take";
		if (h.type == PERF_COUNTER_REC_LOST ||
		    h.type == PERF_COUNTER_REC_LOST_SIDEBAND)
			losts++;
		else
			records++;
		at += h.size;
	}
	return NULL;
}

/*
 * Ring @r's control page as the kernel must keep it: version 1, its data
 * one page in and of its size; data_head a multiple of 8, never back,
 * and, while the reader's place is a tail the kernel takes, no more
 * than the ring past it; lost never back; on a 32-bit machine the high
 * halves of both 0; data_tail what the fuzzer wrote last (the kernel
 * only reads it); while the tail is one the kernel cannot take, no
 * record past one reservation (ring_reservation_wrong()). Counts go
 * back where they fall by more than half a long's range. 1 if so, the
 * head in *@head; else a failure, and the ring is to be synced again.
 */
static int ring_inspect(struct worker *w, struct ring *r,
			unsigned long *head)
{
	struct perf_counter_ring_page *pg = ring_page(r);
	uint32_t version = __atomic_load_n(&pg->version, __ATOMIC_RELAXED);
	uint64_t offset = ring_load(&pg->data_offset);
	uint64_t size = ring_load(&pg->data_size);
	uint64_t lost = ring_load(&pg->lost);
	uint64_t h = ring_load(&pg->data_head);
	uint64_t tail = ring_load(&pg->data_tail);
	const char *why = NULL;

	__atomic_fetch_add(&shared->ring_pages, 1, __ATOMIC_RELAXED);
	if (ring_counter(w, r) == &r->rec)
		__atomic_fetch_add(&shared->ring_orphans, 1, __ATOMIC_RELAXED);
	if (version != PERF_COUNTER_RING_VERSION ||
	    offset != (uint64_t)page_size || size != r->size)
		why = "not its ring's control page";
	else if (sizeof(long) < 8 && ((h | lost) >> 32))
		why = "a 32-bit count's high half is not 0";
	else if (h % 8)
		why = "data_head is not a multiple of 8";
	else if ((unsigned long)h - r->head > LONG_MAX)
		why = "data_head went back";
	else if ((unsigned long)lost - r->lost > LONG_MAX)
		why = "lost went back";
	else if (tail != r->tail)
		why = "data_tail is not what the reader wrote";
	else if (r->synced && (unsigned long)h - r->parsed > r->size)
		why = "data_head is more than the ring past the reader's tail";
	else if (r->synced && r->insane)
		why = ring_reservation_wrong(r, h);
	if (why) {
		fail(w, "ring of fd %d (%lu bytes): %s: version %u, data_offset %llu, data_size %llu, data_head %llu (%lu before), data_tail %llu (%llu written, %lu given back), lost %llu (%lu before)",
		     r->rec.fd, r->size, why, version,
		     (unsigned long long)offset, (unsigned long long)size,
		     (unsigned long long)h, r->head, (unsigned long long)tail,
		     (unsigned long long)r->tail, r->parsed,
		     (unsigned long long)lost, r->lost);
		r->synced = 0;
		r->insane = 0;
	}
	r->head = h;
	r->lost = lost;
	r->tail = tail;
	*head = h;
	return !why;
}

/* The reader's place back at the head: what was there is skipped. */
static void ring_resync(struct ring *r)
{
	unsigned long head = ring_load(&ring_page(r)->data_head);

	ring_store_tail(ring_page(r), head);
	r->parsed = head;
	r->checked = head;
	r->tail = head;
	r->synced = 1;
	r->insane = 0;
}

/* The reader's tail given back, after a tail of ring_hostile()'s. */
static void ring_restore(struct ring *r)
{
	if (!r->synced) {
		ring_resync(r);
		return;
	}
	ring_store_tail(ring_page(r), r->parsed);
	r->tail = r->parsed;
	r->insane = 0;
}

/*
 * The records of ring @r from where they were last checked to @head, as
 * many as READ_BUF holds: each whole (of a size of 8 or more, a multiple
 * of 8, that ends by the head; of a kind the ABI has), and as
 * check_records() says; then, if @give_back, data_tail past them. The
 * records past the reader's tail are the kernel's alone (it writes no
 * more than the ring past the tail), and whole below the head.
 */
static void ring_parse(struct worker *w, struct ring *r, unsigned long head,
		       int give_back)
{
	const char *data = r->map[0] + page_size, *why = NULL;
	struct fd_slot *s = ring_counter(w, r);
	struct perf_counter_record_header h = { 0, 0 };
	unsigned long at = r->checked;
	size_t len = 0, off, first;
	unsigned long n = 0;

	while (at != head) {
		off = at & (r->size - 1);
		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - at ||
		    h.size > READ_BUF) {
			why = "a record of a size that is none, or past data_head";
			break;
		}
		if (h.type < PERF_COUNTER_REC_SAMPLE ||
		    h.type > PERF_COUNTER_REC_TOTALS) {
			why = "a record of no kind the ABI has";
			break;
		}
		if (len + h.size > READ_BUF)
			break;
		first = r->size - off < h.size ? r->size - off : h.size;
		memcpy(w->rbuf + len, data + off, first);
		memcpy(w->rbuf + len + first, data, h.size - first);
		len += h.size;
		at += h.size;
		n++;
	}
	if (why) {
		fail(w, "ring of fd %d (%lu bytes): %s: type %u size %u at %lu, data_head %lu, the reader's tail %lu",
		     s->fd, r->size, why, h.type, h.size, at, head, r->parsed);
		r->synced = 0;
		return;
	}
	if (len)
		check_records(w, s, w->rbuf, len, "ring");
	__atomic_fetch_add(&shared->ring_records, n, __ATOMIC_RELAXED);
	r->checked = at;
	if (!give_back)
		return;
	ring_store_tail(ring_page(r), at);
	r->parsed = at;
	r->tail = at;
}

/*
 * A data_tail to mislead the kernel (pc_queue_tail()): ahead of the
 * head by more than the ring, or by less, not a multiple of 8, more
 * than the ring behind it, back within the ring, far off (a 32-bit
 * kernel reads its low half alone). Once it is in place, with the
 * head read again: one the kernel cannot take leaves the ring full,
 * and ring_inspect() holds it to the one reservation that may have
 * been in flight (a value not a multiple of 8 from the head, or more
 * than the ring away from it either side, stays so whatever that one
 * adds); one at or behind the reader's place only holds producers
 * back; any other (just ahead, which a record in flight may pass) may
 * let them write over records not read: the reader goes back to the
 * head later. It stays until a later call gives the reader's back.
 */
static void ring_hostile(struct worker *w, struct ring *r,
			 unsigned long head)
{
	unsigned long size = r->size, used, at;
	uint64_t t;

	switch (rnd_below(w, 8)) {
	case 0:
		t = head + size + 8 * (1 + rnd_below(w, 64));
		break;
	case 1:
		t = head + 8 * (1 + rnd_below(w, 4));
		break;
	case 2:
		t = head - 8 * rnd_below(w, 4) + 1 + rnd_below(w, 7);
		break;
	case 3:
		t = head - size - 8 * (1 + rnd_below(w, 64));
		break;
	case 4:
		t = (uint64_t)rnd(w) << 32 | (uint32_t)(head + size + 8);
		break;
	case 5:
		t = ~0ULL;
		break;
	case 6:
		t = rnd(w) & ~7ULL;
		break;
	default:
		t = r->parsed - 8 * (unsigned long)rnd_below(w,
				(size - (head - r->parsed)) / 8 + 1);
		break;
	}
	ring_store_tail(ring_page(r), t);
	/* seen by every producer that reserves from now on */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	at = ring_load(&ring_page(r)->data_head);
	used = at - (unsigned long)t;
	r->hostile_head = at;
	r->tail = t;
	r->insane = used % 8 || (used > size && (unsigned long)t - at > size);
	if (!r->insane && (used > size || r->parsed - (unsigned long)t > size))
		r->synced = 0;
	__atomic_fetch_add(&shared->hostile_tails, 1, __ATOMIC_RELAXED);
}

/*
 * Does @s's queue show each drop in its page's lost as the LOST ioctl
 * counts it? Where only its own counter writes to it (a software
 * counter of this thread, not inherited: its producers run where the
 * thread does, with irqs off, never in NMI), no child holds it (a
 * child's LOST or QUEUE_SIZE ioctl takes the lock pc_queue_missed()
 * only tries, and a drop it then counts waits for the next record to
 * be shown), and no mapping record fails to be made (under injection:
 * pc_queue_sideband_lost() counts it and leaves the page as it is).
 */
static int lost_told_at_once(struct worker *w, const struct fd_slot *s)
{
	return s->task == this_tid() && s->soft && !s->inherit &&
	       !s->q.mixed && !s->q.copy && !held_by_reader(w, s) &&
	       !(injected_faults && (s->sideband & PERF_SIDEBAND_MMAP));
}

/*
 * The drops of ring @r's queue, through an fd of its counter: lost in
 * the page is never above what the LOST ioctl counts after it, nor,
 * where every drop is shown at once (lost_told_at_once()), below what
 * it counted before; the ioctl of a counter with a queue never fails.
 * Then, the wakeup mark known and the reader's tail given back, poll()
 * says readable where the records waiting reach the mark
 * (pc_queue_past_watermark(); a mark the ring cannot hold is half of
 * it): readable if @head, read before, was there; not, unless nothing
 * more can come (POLLHUP), if the head read after it is short of it.
 */
static void ring_lost(struct worker *w, struct ring *r, unsigned long head)
{
	struct perf_counter_ring_page *pg = ring_page(r);
	struct fd_slot *s = ring_counter(w, r);
	unsigned long before, after, told, later, words = r->size / 8;
	uint64_t mark;
	struct pollfd pfd;
	char name[24];
	int ret, err;

	if (s == &r->rec)
		return;		/* no fd of it left */
	before = ring_load(&pg->lost);
	faults_on(w);
	ret = ioctl(s->fd, PERF_COUNTER_IOC_LOST, &w->ioctl_out);
	err = errno;
	faults_off(w);
	after = ring_load(&pg->lost);
	if (ret) {
		count_errno(ERRS_IOCTL, err);
		fail(w, "ioctl(%d, LOST) of its counter, whose ring is mapped = -1 %s",
		     s->fd, errno_name(err, name, sizeof(name)));
		return;
	}
	told = w->ioctl_out;	/* the page's: a long's worth of it */
	__atomic_fetch_add(&shared->lost_checks, 1, __ATOMIC_RELAXED);
	if (told - before > LONG_MAX)
		fail(w, "ring of fd %d: lost %lu in its page, above the %llu PERF_COUNTER_IOC_LOST counted after",
		     s->fd, before, (unsigned long long)w->ioctl_out);
	else if (after - told > LONG_MAX && lost_told_at_once(w, s))
		fail(w, "ring of fd %d: lost %lu in its page after PERF_COUNTER_IOC_LOST counted %llu: drops its page does not show",
		     s->fd, after, (unsigned long long)w->ioctl_out);
	if (s->q.wakeup_unknown || !r->synced || r->tail != r->parsed)
		return;
	mark = ((uint64_t)s->q.wakeup + 7) / 8;
	if (mark > words)
		mark = words / 2;
	pfd.fd = s->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	faults_on(w);
	ret = poll(&pfd, 1, 0);
	faults_off(w);
	later = ring_load(&pg->data_head);
	if (ret < 0)
		return;
	if (head != r->parsed && (head - r->parsed) / 8 >= mark &&
	    !(pfd.revents & POLLIN))
		fail(w, "poll() of fd %d, %lu bytes waiting in its ring of %lu, wakeup mark %u bytes: not readable (revents %#x)",
		     s->fd, head - r->parsed, r->size,
		     (unsigned int)s->q.wakeup, pfd.revents);
	else if ((pfd.revents & POLLIN) && !(pfd.revents & POLLHUP) &&
		 (later == r->parsed || (later - r->parsed) / 8 < mark))
		fail(w, "poll() of fd %d, %lu bytes waiting in its ring of %lu at most, wakeup mark %u bytes: readable (revents %#x)",
		     s->fd, later - r->parsed, r->size,
		     (unsigned int)s->q.wakeup, pfd.revents);
}

/* One mapping of ring @r unmapped; the last, and the worker forgets it. */
static void ring_unmap(struct worker *w, struct ring *r)
{
	char *p = r->map[--r->nmaps];

	if (munmap(p, r->len))
		fail(w, "munmap() of a ring of fd %d: errno %d", r->rec.fd,
		     errno);
	if (!r->nmaps)
		ring_forget(w, r);
}

/*
 * Every fd of ring @r's counter closed: the mapping holds the counter,
 * and its page reads on.
 */
static void ring_close_fds(struct worker *w, struct ring *r)
{
	unsigned long head;
	int i;

	ring_counter(w, r);
	for (i = w->nfds - 1; i >= 0; i--)
		if (w->fds[i].id == r->id)
			close_slot(w, i);
	ring_inspect(w, r, &head);
}

/*
 * A mapping @p (@len bytes, @bytes of data) of @s's ring, which was
 * @mapped (ring_mapped()) before it. A counter not mapped before has a
 * new ring: empty (read() had nothing waiting), its tail 0, read from
 * its start. Mapped before, it is the same ring: if the worker has it
 * mapped, a word written through the new mapping is in the old, and it
 * is of the same size; if it unmapped it, it reads it from its head on.
 * The worker keeps MAX_RINGS rings and RING_MAPS mappings of each: past
 * them, the mapping is checked once and unmapped. Now and then the
 * counter's fds are closed at once (ring_close_fds()).
 */
static void ring_adopt(struct worker *w, struct fd_slot *s, char *p,
		       size_t len, uint32_t bytes, int mapped)
{
	struct perf_counter_ring_page *pg = (void *)p;
	struct ring *r = ring_of(w, s->id), spare;
	uint32_t cookie, seen;
	unsigned long head;

	__atomic_fetch_add(&shared->rings_mapped, 1, __ATOMIC_RELAXED);
	if (mapped <= 0) {
		s->q.ring_bytes = bytes;
		s->q.ring_maybe = 0;
		share_queue(w, s);
	}
	if (r) {
		cookie = (uint32_t)rnd(w) | 1;
		__atomic_store_n(&pg->__reserved_0, cookie, __ATOMIC_RELAXED);
		seen = __atomic_load_n(&ring_page(r)->__reserved_0,
				       __ATOMIC_RELAXED);
		__atomic_store_n(&pg->__reserved_0, 0, __ATOMIC_RELAXED);
		if (seen != cookie || ring_load(&pg->data_size) != r->size)
			fail(w, "mmap() of the ring of fd %d again: not the memory its mapping has (a word written read %#x, not %#x; data_size %llu, not %lu)",
			     s->fd, seen, cookie,
			     (unsigned long long)ring_load(&pg->data_size),
			     r->size);
		if (r->nmaps < RING_MAPS)
			r->map[r->nmaps++] = p;
		else
			munmap(p, len);
		return;
	}
	r = w->nrings < MAX_RINGS ? &w->rings[w->nrings++] : &spare;
	memset(r, 0, sizeof(*r));
	r->id = s->id;
	r->map[0] = p;
	r->nmaps = 1;
	r->len = len;
	r->size = bytes;
	r->rec = *s;
	r->synced = mapped <= 0;
	r->lost = ring_load(&pg->lost);
	if (mapped > 0) {			/* as it was left */
		r->tail = ring_load(&pg->data_tail);
		r->head = ring_load(&pg->data_head);
	}
	ring_inspect(w, r, &head);
	if (r == &spare)
		munmap(p, len);
	else if (chance(w, 20))
		ring_close_fds(w, r);
}

/*
 * mmap() of @pages pages of @s's fd, @prot, @flags, at @off, and what it
 * must answer (ring_allowed()); a mapping is kept as its counter's ring
 * (ring_adopt()). A mapped ring's read_mutex, which another task's
 * read(), QUEUE_SIZE or mmap() of the counter may hold for an instant
 * (a child's, through its copy), makes EBUSY: the call is made again,
 * RING_TRIES times in all. Under injection any may be ENOMEM; what was
 * known of the ring's mapping is not then (the queue may have taken the
 * ring, and remap_vmalloc_range() failed after).
 */
static void ring_mmap(struct worker *w, struct fd_slot *s, size_t pages,
		      int prot, int flags, off_t off)
{
	uint32_t bytes = ring_shape_bytes(pages, prot, flags, off);
	unsigned int allowed = ring_allowed(s, pages, prot, off, bytes);
	int mapped = ring_mapped(s), tries = 0, err;
	size_t len = pages * page_size;
	char desc[128], buf[64], name[24];
	void *p;

	do {
		faults_on(w);
		p = mmap(NULL, len, prot, flags, s->fd, off);
		err = errno;
		faults_off(w);
	} while (p == MAP_FAILED && err == EBUSY && mapped > 0 &&
		 ++tries < RING_TRIES && !sched_yield());
	if (p == MAP_FAILED)
		count_errno(ERRS_MMAP, err);
	if (p == MAP_FAILED && (may_be(allowed, err) ||
				(err == ENOMEM && injected_faults))) {
		if (err == ENOMEM && bytes && mapped <= 0 && !s->read_size &&
		    !s->fmt2009 && !s->q.out_id) {
			/* a second candidate: its size is not known */
			if (mapped < 0 && s->q.ring_bytes != bytes)
				bytes = 0;
			s->q.ring_bytes = bytes;
			s->q.ring_maybe = 1;
			share_queue(w, s);
		} else if (err == EINVAL && mapped < 0 && bytes &&
			   s->q.ring_bytes && s->q.ring_bytes != bytes &&
			   !s->q.out_id) {
			s->q.ring_maybe = 0;	/* mapped, of the other size */
			share_queue(w, s);
		}
		return;
	}
	if (p != MAP_FAILED && may_be(allowed, 0)) {
		if (s->read_size)
			munmap(p, len);		/* of unknown kind */
		else
			ring_adopt(w, s, p, len, bytes, mapped);
		return;
	}
	describe_queue(s, desc, sizeof(desc));
	fail(w, "mmap(%zu pages, prot %#x, %s, fd %d, offset %lld) of its counter (%s) = %s, not %s",
	     pages, prot, flags & MAP_SHARED ? "shared" : "private", s->fd,
	     (long long)off, desc,
	     p == MAP_FAILED ? errno_name(err, name, sizeof(name)) : "a mapping",
	     may_names(allowed, buf, sizeof(buf)));
	if (p != MAP_FAILED)
		munmap(p, len);
}

/* One of the worker's fds, mostly one of a counter with a headered queue. */
static struct fd_slot *pick_queue_slot(struct worker *w, unsigned int percent)
{
	int i, n = w->nfds, start;
	struct fd_slot *f;

	if (!n)
		return NULL;
	start = rnd_below(w, n);
	if (chance(w, percent))
		for (i = 0; i < n; i++) {
			f = &w->fds[(start + i) % n];
			if (!f->read_size && !f->fmt2009 && !f->q.copy)
				return f;
		}
	return &w->fds[start];
}

/*
 * The records waiting in @s's queue, read without waiting and checked
 * as op_read()'s are: a queue with records waiting is not mapped
 * (EBUSY), and a sampler's seldom has none.
 */
static void ring_drain(struct worker *w, struct fd_slot *s)
{
	struct target t = { s->fd, s->read_size, s->fmt2009, s };
	ssize_t ret;
	int err;

	if (!w->has_timer)
		return;
	set_nonblock(w, s->fd, 1);
	guard_set(w, READ_GUARD_NS);
	faults_on(w);
	ret = read(s->fd, w->rbuf, READ_BUF);
	err = errno;
	faults_off(w);
	guard_set(w, 0);
	check_read(w, &t, w->rbuf, 1, READ_BUF, 0, READ_BUF, ret, err);
}

/*
 * mmap() of a ring: of one of the worker's counters (not a forked
 * child's copy of its parent's), mostly one with a headered queue;
 * mostly of a ring's shape, 1 + 2^n pages (for a counter mapped
 * already, half the time its size; for one not, half the time after
 * its records are read), else of another: no data page, three, twice
 * the most, at an offset, private, read-only, or executable.
 */
static void ring_map(struct worker *w)
{
	struct fd_slot *s = pick_queue_slot(w, 85);
	int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED;
	unsigned int r = rnd_below(w, 100);
	size_t pages;
	off_t off = 0;

	if (!s || s->q.copy)
		return;
	pages = 1 + ring_pages(w);
	if (s->q.ring_bytes && r < 50) {
		pages = 1 + s->q.ring_bytes / page_size;
	} else if (r < 40 && !ring_mapped(s) && !s->read_size) {
		ring_drain(w, s);
	} else if (r >= 75) {
		switch (r % 7) {
		case 0:
			pages = 1;
			break;
		case 1:
			pages = 1 + 3;
			break;
		case 2:
			pages = 1 + 2 * (RING_DATA_MAX / page_size);
			break;
		case 3:
			off = page_size;
			break;
		case 4:
			flags = MAP_PRIVATE;
			break;
		case 5:
			prot |= PROT_EXEC;
			break;
		default:
			prot = PROT_READ;
			break;
		}
	}
	ring_mmap(w, s, pages, prot, flags, off);
}

/* Ring @r mapped again through an fd of it: its size, or another. */
static void ring_map_again(struct worker *w, struct ring *r)
{
	struct fd_slot *s = ring_counter(w, r);
	size_t pages = 1 + r->size / page_size;

	if (s == &r->rec)
		return;
	if (chance(w, 25))
		pages = 1 + ring_pages(w);
	ring_mmap(w, s, pages, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
}

/*
 * A call on ring @r: its control page looked at (ring_inspect()); a
 * tail of ring_hostile()'s given back, mostly; the ring synced to its
 * head where its records are not known to be whole; then its records
 * read and given back, or read and kept (the ring fills, and drops), a
 * tail it cannot take written, its drops and its wakeup mark
 * (ring_lost()), the ring mapped again, a mapping unmapped, or the fds
 * of its counter closed.
 */
static void ring_service(struct worker *w, struct ring *r)
{
	unsigned int a = rnd_below(w, 100);
	int sane = r->tail == r->parsed;
	unsigned long head;

	if (!ring_inspect(w, r, &head))
		return;
	if (!sane && a < 60) {
		ring_restore(r);
		return;
	}
	if (!r->synced) {
		ring_resync(r);
		return;
	}
	if (sane && a < 45)
		ring_parse(w, r, head, a < 35);
	else if (sane && a < 57)
		ring_hostile(w, r, head);
	else if (a < 72)
		ring_lost(w, r, head);
	else if (a < 84)
		ring_map_again(w, r);
	else if (a < 95)
		ring_unmap(w, r);
	else
		ring_close_fds(w, r);
}

/*
 * The record ring: mmap() of rings, good and bad (ring_map()); or a call
 * on one the worker has mapped (ring_service()).
 */
static void op_ring(struct worker *w)
{
	if (w->nrings && chance(w, 70))
		ring_service(w, &w->rings[rnd_below(w, w->nrings)]);
	else
		ring_map(w);
}

/*
 * The most bytes one record of @s's may take, and the LOST and
 * LOST_SIDEBAND records before it (pc_record_words_max()): a sample's
 * fields and chain, a switch record, a switch-out's chain and stack
 * words, a mapping record of the longest path, a TOTALS record; a
 * group's (PERF_RECORD_GROUP, a TOTALS record of its group), whose
 * members the worker does not know all of, UINT64_MAX.
 */
static uint64_t record_bytes_most(const struct fd_slot *s)
{
	uint64_t chain = s->record_type & PERF_RECORD_CALLCHAIN ?
			 3 + s->depth : 0, words = 0, v;

	if ((s->record_type & PERF_RECORD_GROUP) ||
	    (s->inherit_stat && s->group_read))
		return UINT64_MAX;
	if (s->sampling)
		words = 1 + sample_head_words(s->record_type) + chain;
	v = s->switch_chain ? 1 + sizeof(struct perf_counter_switch_out) / 8 +
			      chain + PERF_SWITCH_STACK_MAX :
	    s->switches ? 4 : 0;
	words = v > words ? v : words;
	v = s->sideband ? 3 + (sizeof(struct perf_counter_mmap) +
			       PERF_COUNTER_MMAP_PATH_MAX) / 8 : 0;
	words = v > words ? v : words;
	v = s->inherit_stat ? 3 + values_size(s->read_format, 1) / 8 : 0;
	words = v > words ? v : words;
	return 8 * (words + 4);
}

/*
 * PERF_COUNTER_IOC_SET_OUTPUT (output.c) of one of the worker's own
 * counters (or of /dev/null: ENOTTY; of a number no fd has: EBADF): to
 * -1 or its own fd, its records back to its own queue; to another of
 * its counters; to /dev/null (EINVAL: not a counter); to a number no
 * fd has or -2 (EBADF); to a number it closed lately, which may be
 * another thread's counter by now (only from a counter the call cannot
 * send elsewhere: no headered queue, or a mapped one). The answers:
 * EINVAL for no headered queue on either side, for a queue that may
 * not hold the counter's largest record (record_bytes_most(); a ring
 * mapped keeps its size, any other queue may have been made as small
 * as 4 KiB), or another counter whose own records go elsewhere; EBUSY
 * for a counter whose ring is mapped; ENOMEM where a ring made at
 * first use may fail (ring_alloc_may_fail()); else 0, in that order
 * (pc_counter_set_output()). A counter a child may read as its
 * own (may_take_records()) is sent no other's records. The model
 * follows where the counter's records go, and which queues hold
 * others' (check_records()).
 */
static void op_set_output(struct worker *w)
{
	struct fd_slot *s = NULL, *t = NULL;
	unsigned int r = rnd_below(w, 100), allowed;
	unsigned long arg = (unsigned long)NEVER_FD;
	int fd, home = 0, closed = 0, ret, err;
	char of[128], to[160], buf[64], name[24];

	if (w->nfds && r < 88) {
		s = pick_queue_slot(w, 80);
		if (s->read_size < 0 || s->q.copy)
			s = NULL;
	}
	fd = s ? s->fd : r < 94 ? devnull_fd : NEVER_FD;
	r = rnd_below(w, 100);
	if (r < 16) {
		arg = -1UL;
		home = 1;
	} else if (r < 20) {
		arg = 0xffffffffUL;	/* (int)arg: -1 */
		home = 1;
	} else if (r < 28) {
		arg = fd;		/* its own fd */
		home = !!s;
	} else if (r < 72 && w->nfds) {
		t = pick_queue_slot(w, 75);
		if (t->read_size < 0 || t->q.copy)
			t = NULL;
		else if (s && t->id == s->id)
			home = 1;
		arg = t ? t->fd : devnull_fd;
	} else if (r < 80) {
		arg = devnull_fd;
	} else if (r < 88) {
		arg = NEVER_FD;
	} else if (r < 92) {
		arg = -2UL;
	} else if (w->closed_fd >= 0 && !own_slot(w, w->closed_fd) &&
		   (!s || s->read_size || s->fmt2009 || ring_mapped(s) > 0)) {
		arg = w->closed_fd;
		closed = 1;
	}
	if (s && t && !home && !t->read_size && !t->fmt2009 &&
	    ring_mapped(s) <= 0 && !t->q.out_id && !may_take_records(w, t)) {
		arg = -1UL;		/* it might take: not to this one */
		t = NULL;
		home = 1;
	}

	if (!s)
		allowed = may(fd == devnull_fd ? ENOTTY : EBADF);
	else if (s->read_size || s->fmt2009)
		allowed = may(EINVAL);
	else if (home)
		allowed = may(0) | (ring_alloc_may_fail(s) ? may(ENOMEM) : 0);
	else if (t && (t->read_size || t->fmt2009))
		allowed = may(EINVAL);
	else if (t)
		allowed = (ring_alloc_may_fail(t) ? may(ENOMEM) : 0) |
			  (record_bytes_most(s) > (ring_mapped(t) > 0 ?
						   t->q.ring_bytes : 4096) ?
			   may(EINVAL) : 0) |
			  (ring_mapped(s) ? may(EBUSY) : 0) |
			  (ring_mapped(s) > 0 ? 0 :
			   may(t->q.out_id ? EINVAL : 0));
	else if (closed)
		allowed = may(EBADF) | may(EINVAL) | may(EBUSY) | may(ENOMEM);
	else
		allowed = may(arg == (unsigned long)devnull_fd ? EINVAL : EBADF);

	faults_on(w);
	ret = ioctl(fd, PERF_COUNTER_IOC_SET_OUTPUT, arg);
	err = ret ? errno : 0;
	faults_off(w);
	if (ret)
		count_errno(ERRS_IOCTL, err);
	if (!may_be(allowed, err)) {
		snprintf(of, sizeof(of), "no counter");
		if (s)
			describe_queue(s, of, sizeof(of));
		snprintf(to, sizeof(to), "%s", home ? "its own fd or -1" :
			 closed ? "a number closed lately" :
			 t ? "" : "no counter's");
		if (t && !home)
			describe_queue(t, to, sizeof(to));
		fail(w, "ioctl(%d, SET_OUTPUT, %d) of its counter (%s), to %s%s%s = %s, not %s",
		     fd, (int)arg, of, t && !home ? "another (" : "", to,
		     t && !home ? ")" : "",
		     err ? errno_name(err, name, sizeof(name)) : "0",
		     may_names(allowed, buf, sizeof(buf)));
		return;
	}
	if (!s || (err && err != EBUSY))
		return;
	if (err) {		/* EBUSY: its ring is mapped */
		s->q.ring_maybe = !s->q.ring_bytes;
	} else if (home) {
		s->q.out_id = 0;
	} else if (t) {
		s->q.out_id = t->id;
		if (s->q.ring_maybe)	/* it took: not mapped */
			s->q.ring_bytes = 0;
		s->q.ring_maybe = 0;
		t->q.mixed = 1;
		share_queue(w, t);
		__atomic_fetch_add(&shared->outputs, 1, __ATOMIC_RELAXED);
	}
	share_queue(w, s);
}

/*
 * PERF_COUNTER_IOC_WAKEUP (file.c) of one of the worker's own counters
 * (or of /dev/null: ENOTTY; of a number no fd has: EBADF), a mark of any
 * size, or an address the kernel cannot read 4 bytes at, or any: EINVAL
 * for a counter without a queue, EFAULT for the address, else 0, and
 * the queue's mark from then on (ring_lost() holds poll() to it). A
 * forked child sets none on its parent's counters.
 */
static void op_wakeup(struct worker *w)
{
	static const uint32_t marks[] = {
		0, 1, 7, 8, 64, 2048, 4096, 65536, 1U << 20, 1U << 21,
		UINT32_MAX - 7, UINT32_MAX,
	};
	unsigned int r = rnd_below(w, 100), allowed;
	struct fd_slot *s = NULL;
	int fd, readable, ret, err;
	char desc[128], buf[64], name[24];
	unsigned long arg;

	if (w->nfds && r < 88) {
		s = &w->fds[rnd_below(w, w->nfds)];
		if (s->q.copy)
			s = NULL;
	}
	fd = s ? s->fd : r < 94 ? devnull_fd : NEVER_FD;
	w->ioctl_val = chance(w, 85) ? marks[rnd_below(w, ARRAY_SIZE(marks))] :
				       (uint32_t)rnd(w);
	r = rnd_below(w, 100);
	readable = r < 85 ? 1 : r < 98 ? 0 : -1;
	arg = r < 85 ? (unsigned long)&w->ioctl_val : r < 88 ? 0 :
	      r < 91 ? 1 : r < 94 ? KERNEL_ADDR :
	      r < 96 ? (unsigned long)(w->hwbuf + page_size) :
	      r < 98 ? (unsigned long)(w->hwbuf + page_size - 2) :
	      (unsigned long)rnd(w);
	if (!s)
		allowed = may(fd == devnull_fd ? ENOTTY : EBADF);
	else if (s->read_size < 0)
		allowed = MAY_ANY;
	else if (s->read_size)
		allowed = may(EINVAL);
	else
		allowed = readable > 0 ? may(0) : readable ? may(EFAULT) :
			  may(0) | may(EFAULT);

	faults_on(w);
	ret = ioctl(fd, PERF_COUNTER_IOC_WAKEUP, arg);
	err = ret ? errno : 0;
	faults_off(w);
	if (ret)
		count_errno(ERRS_IOCTL, err);
	if (!may_be(allowed, err)) {
		if (s)
			describe_queue(s, desc, sizeof(desc));
		fail(w, "ioctl(%d, WAKEUP, %s %u) of %s%s%s = %s, not %s", fd,
		     readable > 0 ? "mark" : readable ? "any address, mark" :
		     "an unreadable address, mark", (unsigned int)w->ioctl_val,
		     s ? "its counter (" : "no counter", s ? desc : "",
		     s ? ")" : "", err ? errno_name(err, name, sizeof(name)) :
		     "0", may_names(allowed, buf, sizeof(buf)));
		return;
	}
	if (!s || err || s->read_size)
		return;
	s->q.wakeup = readable > 0 ? w->ioctl_val : 0;
	s->q.wakeup_unknown = readable < 0;
	share_queue(w, s);
}

/* Where a counter's records go, and when its readers are woken. */
static void op_output(struct worker *w)
{
	if (chance(w, 30))
		op_wakeup(w);
	else
		op_set_output(w);
}

/*
 * In a forked child: the parent's mappings of counter pages and rings
 * are not there (VM_DONTCOPY): mincore() finds nothing at each.
 */
static void check_not_inherited(struct worker *w, const char *who)
{
	unsigned char vec[1];
	int i, j;

	if (w->page_map && (mincore(w->page_map, page_size, vec) != -1 ||
			    errno != ENOMEM))
		fail_at(who, "fork(): the child has its parent's counter page at %p",
			w->page_map);
	for (i = 0; i < w->nrings; i++)
		for (j = 0; j < w->rings[i].nmaps; j++)
			if (mincore(w->rings[i].map[j], page_size, vec) != -1 ||
			    errno != ENOMEM)
				fail_at(who, "fork(): the child has its parent's ring of fd %d at %p",
					w->rings[i].rec.fd, w->rings[i].map[j]);
	w->page_map = NULL;
	w->nrings = 0;
}

/*
 * F_SETOWN's owner: only the fuzzer's own tasks, which exist (the
 * target until the worker's threads are done: a child may outlive
 * it), and none of which dies of the signals (set_async_signals());
 * or INT_MIN. An exec'd child knows no group of its worker's.
 */
static pid_t random_owner(struct worker *w)
{
	switch (rnd_below(w, 6)) {
	case 0:
		return 0;		/* none */
	case 1:
		return getpid();
	case 2:
		return this_tid();	/* its process is signalled */
	case 3:			/* the worker's process group */
		return worker_pgrp ? -worker_pgrp : getpid();
	case 4:
		return target_pid;
	default:
		return INT_MIN;		/* EINVAL: no pid is its negation */
	}
}

/* F_SETOWN_EX's owner, in @w (read with faults on): 1 if its type is known. */
static int random_owner_ex(struct worker *w)
{
	switch (rnd_below(w, 5)) {
	case 0:
		w->owner_ex.type = F_OWNER_TID;
		w->owner_ex.pid = this_tid();
		return 1;
	case 1:
		w->owner_ex.type = F_OWNER_PID;
		w->owner_ex.pid = getpid();
		return 1;
	case 2:
		w->owner_ex.type = worker_pgrp ? F_OWNER_PGRP : F_OWNER_PID;
		w->owner_ex.pid = worker_pgrp ? worker_pgrp : getpid();
		return 1;
	case 3:
		w->owner_ex.type = F_OWNER_TID;
		w->owner_ex.pid = 0;	/* none */
		return 1;
	default:
		w->owner_ex.type = F_OWNER_PGRP + 1 + rnd_below(w, 8);
		w->owner_ex.pid = getpid();
		return 0;
	}
}

/*
 * Overflow signals: fcntl() of a counter's owner (F_SETOWN,
 * F_SETOWN_EX), its signal (F_SETSIG, one of async_sig()'s, 0, or one
 * past the last) and O_ASYNC, on the worker's own fds or /dev/null:
 * never on a number it closed, which may be a pipe's now (whose signals
 * on_async() would count as bad). On the worker's own counter each
 * gives what fs/fcntl.c and pc_fasync() say: F_SETOWN 0, EINVAL for
 * INT_MIN (ESRCH for the target, in a child that may outlive it);
 * F_SETOWN_EX 0, EINVAL for an unknown type, EFAULT for NULL; F_SETSIG
 * 0, EINVAL past 64; O_ASYNC set 0 (ENOMEM where faults are injected,
 * on a counter with a queue: the fasync entry), O_ASYNC cleared 0. The
 * signals are on_async()'s to check.
 */
static void op_async(struct worker *w)
{
	struct fd_slot *s = NULL;
	int fd = devnull_fd, want = 0, ret, err, fl, on = 0, esrch = 0;
	char what[32], name[24], name2[24];
	unsigned long arg;
	pid_t owner;

	if (w->nfds && chance(w, 90)) {
		s = &w->fds[rnd_below(w, w->nfds)];
		fd = s->fd;
	}
	switch (rnd_below(w, 4)) {
	case 0:
		owner = random_owner(w);
		want = owner == INT_MIN ? EINVAL : 0;
		esrch = owner == target_pid && w->child;
		snprintf(what, sizeof(what), "F_SETOWN, %d", (int)owner);
		faults_on(w);
		ret = fcntl(fd, F_SETOWN, owner);
		break;
	case 1:
		arg = (unsigned long)&w->owner_ex;
		want = random_owner_ex(w) ? 0 : EINVAL;
		if (chance(w, 10)) {
			arg = 0;
			want = EFAULT;
		}
		snprintf(what, sizeof(what), "F_SETOWN_EX, %d:%d",
			 w->owner_ex.type, (int)w->owner_ex.pid);
		faults_on(w);
		ret = fcntl(fd, F_SETOWN_EX, arg);
		break;
	case 2:
		fl = rnd_below(w, NR_ASYNC_SIGS + 3);
		fl = fl < NR_ASYNC_SIGS ? async_sig(fl) :
		     fl == NR_ASYNC_SIGS ? 0 : fl == NR_ASYNC_SIGS + 1 ? -1 :
		     SIGRTMAX + 1;
		want = (fl < 0 || fl > SIGRTMAX) ? EINVAL : 0;
		snprintf(what, sizeof(what), "F_SETSIG, %d", fl);
		faults_on(w);
		ret = fcntl(fd, F_SETSIG, fl);
		break;
	default:
		faults_on(w);
		fl = fcntl(fd, F_GETFL);
		faults_off(w);
		if (fl < 0)
			return;
		on = chance(w, 70);
		/* a counting counter takes the flag, and never signals */
		want = 0;
		snprintf(what, sizeof(what), "F_SETFL, %sO_ASYNC",
			 on ? "" : "~");
		faults_on(w);
		ret = fcntl(fd, F_SETFL, on ? fl | O_ASYNC : fl & ~O_ASYNC);
		break;
	}
	err = errno;
	faults_off(w);
	if (ret < 0) {
		count_errno(ERRS_FCNTL, err);
		if (!errno_in(err, fcntl_errnos, ARRAY_SIZE(fcntl_errnos))) {
			fail(w, "fcntl(%d, %s) = -1 %s", fd, what,
			     errno_name(err, name, sizeof(name)));
			return;
		}
	}
	if (!s || s->read_size < 0)
		return;
	err = ret < 0 ? err : 0;
	if (err == want || (esrch && err == ESRCH) ||
	    (err == ENOMEM && injected_faults && on && !s->read_size))
		return;
	fail(w, "fcntl(%d, %s) on its own %s counter = %s, not %s", fd, what,
	     s->read_size ? "counting" : "queued",
	     err ? errno_name(err, name, sizeof(name)) : "0",
	     want ? errno_name(want, name2, sizeof(name2)) : "0");
}

/* Children a worker process forked, reaped by whichever thread asks. */
static void read_kid_failures(struct kid *k)
{
	char buf[4096], *line, *end;
	ssize_t n;

	n = read(k->pipe_rd, buf, sizeof(buf) - 1);
	close(k->pipe_rd);
	k->pipe_rd = -1;
	if (n <= 0)
		return;
	buf[n] = 0;
	for (line = buf; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end) {
			store_failure(line);
			return;
		}
		*end = 0;
		store_failure(line);
	}
}

/*
 * A child's end: any signal but the worker's own SIGKILL, and any exit
 * status but 0, is a failure, with faults injected or not.
 */
static void kid_done(struct kid *k, int status)
{
	if (WIFSIGNALED(status) &&
	    !(k->killed && WTERMSIG(status) == SIGKILL))
		fail_at(k->who, "child %d killed by signal %d (%s)", (int)k->pid,
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == KID_NO_MIF)
		fail_at(k->who, "child %d could not turn its injected faults off",
			(int)k->pid);
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		fail_at(k->who, "child %d exited with status %d", (int)k->pid,
			WEXITSTATUS(status));
	if (k->pipe_rd >= 0)
		read_kid_failures(k);
}

static pid_t wait_for(pid_t pid, int *status, int flags)
{
	pid_t ret;

	do {
		ret = waitpid(pid, status, flags);
	} while (ret < 0 && errno == EINTR);
	return ret;
}

/* Under kids_lock: reap kids[@i], waiting for it if @block; 1 if gone. */
static int reap_kid(int i, int block)
{
	int status;
	pid_t ret = wait_for(kids[i].pid, &status, block ? 0 : WNOHANG);

	if (ret == 0)
		return 0;
	if (ret == kids[i].pid)
		kid_done(&kids[i], status);
	else if (kids[i].pipe_rd >= 0)
		close(kids[i].pipe_rd);
	nr_kids--;
	memmove(&kids[i], &kids[i + 1], (nr_kids - i) * sizeof(kids[0]));
	return 1;
}

/* Reap the children that have exited; with @all, wait for every one. */
static void reap_kids(int all)
{
	int i = 0;

	pthread_mutex_lock(&kids_lock);
	while (i < nr_kids)
		if (!reap_kid(i, all))
			i++;
	pthread_mutex_unlock(&kids_lock);
}

/* Note a new child; when there are too many, wait for the oldest. */
static void add_kid(pid_t pid, int pipe_rd, int killed, const char *who)
{
	struct kid *k;

	pthread_mutex_lock(&kids_lock);
	if (nr_kids == MAX_KIDS)
		reap_kid(0, 1);
	k = &kids[nr_kids++];
	k->pid = pid;
	k->pipe_rd = pipe_rd;
	k->killed = killed;
	snprintf(k->who, sizeof(k->who), "%s", who);
	pthread_mutex_unlock(&kids_lock);
}

static void run_ops(struct worker *w, unsigned long max);

enum kid_kind {
	KID_EXIT,	/* exits at once */
	KID_OPS,	/* makes a few calls, then exits */
	KID_EXEC,	/* execs this program to make a few calls */
};

/*
 * In a forked child: only async-signal-safe work until it execs. Its
 * faults are first turned off, through a make-it-fail of its own, if
 * it was forked with them on (@faulted) or is to make calls with them.
 */
static void run_kid(struct worker *w, int kind, uint64_t seed,
		    unsigned int nops, int pipe_wr, const char *who,
		    int faulted)
{
	char seed_arg[24], orders[WHO_LEN];
	int fd = -1, i;

	if (injected_faults && (faulted || kind == KID_OPS)) {
		fd = open_make_it_fail(MIF_TRIES);
		if (fd < 0 || write_make_it_fail(fd, 0))
			_exit(KID_NO_MIF);
	}
	if (w->mif_fd >= 0)
		close(w->mif_fd);	/* the forking thread's */
	w->mif_fd = fd;
	check_not_inherited(w, who);	/* VM_DONTCOPY: not in the child */
	if (kind == KID_EXIT)
		_exit(0);
	if (kind == KID_EXEC) {
		set_async_signals(0);	/* ignored across the exec */
		snprintf(seed_arg, sizeof(seed_arg), "%llu",
			 (unsigned long long)seed);
		snprintf(orders, sizeof(orders), "%u:%d:%d:%.*s", nops,
			 pipe_wr, injected_faults | opt_hotplug << 1,
			 TAG_LEN - 1, who);
		execl("/proc/self/exe", "pc_fuzz", "-s", seed_arg, "-x", orders,
		      (char *)NULL);
		_exit(0);	/* no /proc: nothing to test */
	}
	w->child = 1;
	w->rng = seed;
	w->op = 0;
	w->next_helper = 0;
	w->nreaders = 0;		/* its parent's children */
	memset(w->helpers, 0, sizeof(w->helpers));
	/*
	 * the parent's counters: it may reset them, change a period, map
	 * their rings or send their records elsewhere
	 */
	for (i = 0; i < w->nfds; i++) {
		w->fds[i].shared = 1;
		w->fds[i].period = 0;
		w->fds[i].q.copy = 1;
	}
	snprintf(w->tag, sizeof(w->tag), "%.*s", TAG_LEN - 1, who);
	guard_init(w);
	run_ops(w, nops);
	/* An exec with a page or a ring mapped: it goes with the mm. */
	if ((w->page_map || w->nrings) && chance(w, 50)) {
		set_async_signals(0);
		execl("/proc/self/exe", "pc_fuzz", "-x", "0:-1:0:exec",
		      (char *)NULL);
	}
	_exit(0);
}

/*
 * Has this thread counters on itself that a fork copies? Half its forks
 * are then made with faults on, to exercise the copying: a fork makes
 * hundreds of allocations, and at 2% each nearly every one so fails
 * (413 of 453 in a 150 s run), so the other half, without, are what
 * gives children holding the copies.
 */
static int holds_inherited(struct worker *w)
{
	pid_t tid = this_tid();
	int i;

	for (i = 0; i < w->nfds; i++)
		if (w->fds[i].inherit && w->fds[i].task == tid)
			return 1;
	return 0;
}

static void op_fork(struct worker *w)
{
	unsigned int r = rnd_below(w, 100);
	unsigned int nops = 1 + rnd_below(w, KID_MAX_OPS);
	int kind = r < 25 ? KID_EXIT : r < 75 ? KID_OPS : KID_EXEC;
	int killed = chance(w, 15), pipefd[2] = { -1, -1 };
	int faulted = holds_inherited(w) && chance(w, 50), err;
	uint64_t seed = rnd(w);
	char who[WHO_LEN];
	pid_t pid;

	snprintf(who, sizeof(who), "%s op %lu %s", w->tag, w->op,
		 kind == KID_EXEC ? "exec" : "fork");
	if (kind == KID_EXEC) {
		if (pipe2(pipefd, O_NONBLOCK))
			return;
		fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
	}
	fflush(stdout);
	if (faulted)
		faults_on(w);
	pid = fork();
	err = errno;
	if (pid == 0)
		run_kid(w, kind, seed, nops, pipefd[1], who, faulted);
	if (faulted)
		faults_off(w);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (pid < 0) {
		count_errno(ERRS_FORK, err);
		if (pipefd[0] >= 0)
			close(pipefd[0]);
		return;
	}
	w->last_kid = pid;
	/* it reads its copies as its own counters' (held_by_reader()) */
	if (kind == KID_OPS) {
		forget_reaped(w);
		w->readers[w->nreaders] = pid;
		w->reader_fork[w->nreaders++] = ++w->forks;
	}
	if (killed)
		kill(pid, SIGKILL);
	add_kid(pid, pipefd[0], killed, who);
	reap_kids(0);
}

/* A short-lived thread: counts something of its own, or just runs. */
static void helper_open(struct helper *h, uint64_t r)
{
	struct perf_counter_hw_event hw;
	struct fz_hw_event f = { 0 };
	char name[24];
	int fd, err;

	hw = pc_sw((r >> 8) % PERF_SW_EVENTS_MAX, (r >> 16) & 1);
	hw.inherit = (r >> 17) & 1;
	hw.exclude_kernel = (r >> 19) & 1;
	if ((r >> 18) & 1) {
		hw.irq_period = 50000 + (r >> 32) % 1000000;
		hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_TID;
	}
	hw.read_format = (r >> 24) & PERF_COUNTER_FORMAT_MASK;
	memcpy(&f, &hw, sizeof(hw));	/* 2009's description */
	set_faults(&h->mif_fd, 1, h->who);
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	err = errno;
	set_faults(&h->mif_fd, 0, h->who);
	if (fd < 0) {
		if (!open_errno_ok(err) ||
		    !valid_errno_ok(&f, 0, -1, NULL, 0, err))
			fail_at(h->who, "thread's perf_counter_open(config %#llx, exclude_kernel %d, pid 0) = -1 %s",
				(unsigned long long)hw.event_config,
				(int)hw.exclude_kernel,
				errno_name(err, name, sizeof(name)));
		return;
	}
	count_open_ok();
	if (needs_privilege(&f, 0, -1))
		fail_at(h->who, "thread's perf_counter_open(config %#llx, exclude_kernel 0, pid 0) = %d: opened without privilege at paranoid %d",
			(unsigned long long)hw.event_config, fd,
			paranoid_level);
	pc_spin(20000);
	pc_touch_pages(2);
	fill_slot(&h->slot, fd, &f, 0, -1, -1);
}

/*
 * Started with faults off (its creator's, at the clone); with a
 * make-it-fail of its own to turn them on around its perf_counter
 * calls.
 */
static void *helper_main(void *arg)
{
	struct helper *h = arg;
	uint64_t r = splitmix64(&h->rng);

	h->mif_fd = -1;
	if (injected_faults && r % 4 >= 2) {
		touch_stack();
		h->mif_fd = open_make_it_fail(1);
		if (h->mif_fd < 0)
			fail_at(h->who, "thread's make-it-fail: errno %d", errno);
	}
	switch (r % 4) {
	case 0:
		pc_spin((r >> 8) % 100000);
		break;
	case 1:
		pc_touch_pages(1 + (r >> 8) % 8);
		break;
	case 2:
		helper_open(h, r);
		break;
	default:
		set_faults(&h->mif_fd, 1, h->who);
		prctl((r >> 8) & 1 ? PR_TASK_PERF_COUNTERS_ENABLE :
				     PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0);
		set_faults(&h->mif_fd, 0, h->who);
		break;
	}
	if (h->mif_fd >= 0)
		close(h->mif_fd);
	return NULL;
}

static void join_helper(struct worker *w, struct helper *h)
{
	if (!h->used)
		return;
	pthread_join(h->thread, NULL);
	h->used = 0;
	if (h->slot.fd >= 0)
		add_fd(w, &h->slot);
}

static void op_thread(struct worker *w)
{
	struct helper *h = &w->helpers[w->next_helper];

	w->next_helper = (w->next_helper + 1) % MAX_HELPERS;
	join_helper(w, h);
	h->rng = rnd(w);
	h->slot.fd = -1;
	snprintf(h->who, sizeof(h->who), "%s op %lu thread", w->tag, w->op);
	if (!pthread_create(&h->thread, NULL, helper_main, h))
		h->used = 1;
}

/* Take @cpu offline or bring it online; 1 if the kernel agreed. */
static int write_cpu_online(int cpu, int online)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = write(fd, online ? "1" : "0", 1) == 1;
	close(fd);
	return ok;
}

static void op_hotplug(struct worker *w)
{
	if (nr_hotplug)
		write_cpu_online(hotplug_cpus[rnd_below(w, nr_hotplug)],
				 chance(w, 50));
}

static unsigned int op_weight(int kind)
{
	/* nobody cannot write the online files: no call, none counted */
	if (kind == OP_HOTPLUG && (!opt_hotplug || !privileged))
		return 0;
	return op_weights[kind];
}

static int pick_op(struct worker *w)
{
	int n = w->child ? OP_NR_CHILD : OP_NR, kind;
	unsigned int total = 0, r;

	for (kind = 0; kind < n; kind++)
		total += op_weight(kind);
	r = rnd_below(w, total);
	for (kind = 0; kind < n; kind++) {
		if (r < op_weight(kind))
			return kind;
		r -= op_weight(kind);
	}
	return OP_BUSY;
}

static void run_op(struct worker *w, int kind)
{
	switch (kind) {
	case OP_OPEN:
		op_open(w);
		break;
	case OP_READ:
		op_read(w);
		break;
	case OP_IOCTL:
		op_ioctl(w);
		break;
	case OP_CLOSE:
		op_close(w);
		break;
	case OP_NONBLOCK:
		op_nonblock(w);
		break;
	case OP_POLL:
		op_poll(w);
		break;
	case OP_PRCTL:
		op_prctl(w);
		break;
	case OP_DUP:
		op_dup(w);
		break;
	case OP_AFFINITY:
		op_affinity(w);
		break;
	case OP_BUSY:
		op_busy(w);
		break;
	case OP_PAGES:
		op_pages(w);
		break;
	case OP_MMAP:
		op_mmap(w);
		break;
	case OP_ASYNC:
		op_async(w);
		break;
	case OP_RING:
		op_ring(w);
		break;
	case OP_OUTPUT:
		op_output(w);
		break;
	case OP_FORK:
		op_fork(w);
		break;
	case OP_THREAD:
		op_thread(w);
		break;
	case OP_HOTPLUG:
		op_hotplug(w);
		break;
	}
}

/* Busy loops and page touching: the work of no system call. */
static int is_syscall_op(int kind)
{
	return kind != OP_BUSY && kind != OP_PAGES;
}

/*
 * Make up to @max calls, while the budget and the time last: only
 * system calls are taken from the budget (and counted as calls); the
 * rest only while the time lasts.
 */
static void run_ops(struct worker *w, unsigned long max)
{
	int kind;

	while (w->op < max) {
		kind = pick_op(w);
		if (is_syscall_op(kind) ? !take_call() :
		    __atomic_load_n(&shared->stop, __ATOMIC_RELAXED) ||
		    pc_now_ns() >= deadline_ns)
			break;
		__atomic_fetch_add(&shared->op_count[kind], 1,
				   __ATOMIC_RELAXED);
		run_op(w, kind);
		w->op++;
		if (!w->child && !(w->op % 64))
			reap_kids(0);
	}
}

/* @w zeroed by hand: its pages resident (the ioctl argument is in it). */
static int setup_worker(struct worker *w, int proc, int thread)
{
	memset(w, 0, sizeof(*w));
	w->proc = proc;
	w->thread = thread;
	w->rng = worker_seed(opt_seed, proc, thread);
	w->closed_fd = -1;
	w->mif_fd = -1;
	w->last_kid = target_pid;
	snprintf(w->tag, sizeof(w->tag), "w%d.%d", proc, thread);
	return map_buffers(w);
}

/*
 * The thread's make-it-fail, where the run injects: opened with faults
 * off (this thread's and its creator's), so it cannot fail by injection.
 */
static void worker_faults_init(struct worker *w)
{
	if (!injected_faults)
		return;
	w->mif_fd = open_make_it_fail(1);
	if (w->mif_fd < 0)
		fail_at(w->tag, "its make-it-fail: errno %d: no faults injected",
			errno);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int i;

	__atomic_store_n(&worker_tids[w->thread], this_tid(), __ATOMIC_RELAXED);
	touch_stack();
	worker_faults_init(w);
	guard_init(w);
	run_ops(w, ULONG_MAX);
	if (w->page_map)
		munmap(w->page_map, page_size);
	w->page_map = NULL;
	unmap_rings(w);
	for (i = 0; i < MAX_HELPERS; i++)
		join_helper(w, &w->helpers[i]);
	/* Half the time the fds are left for the exit to close. */
	if (chance(w, 50))
		while (w->nfds)
			close_slot(w, w->nfds - 1);
	guard_fini(w);
	if (w->mif_fd >= 0)
		close(w->mif_fd);
	return NULL;
}

/* A child that runs, faults and sleeps, for counters on another task. */
static void target_loop(pid_t parent)
{
	uint64_t end = deadline_ns + (WATCHDOG_S + REAP_S) * NSEC_PER_SEC;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (getppid() == parent && pc_now_ns() < end) {
		pc_spin(20000);
		pc_touch_pages(1);
		usleep(1000);
	}
	_exit(0);
}

static void start_target(void)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		target_loop(parent);
	target_pid = pid > 0 ? pid : 0;
}

static void stop_target(const char *who)
{
	int status;

	if (target_pid <= 0)
		return;
	kill(target_pid, SIGKILL);
	if (wait_for(target_pid, &status, 0) == target_pid &&
	    WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		fail_at(who, "target child killed by signal %d (%s)",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/*
 * The worker that runs without privilege: nobody (uid and gid 65534),
 * no supplementary groups, dumpable again (so that its children are
 * its to count and its /proc files its own). Its target is forked
 * after, as nobody, so that it may kill it; init (pid 1) is the task
 * it may not count. 0, or -1 (errno).
 */
static int become_nobody(void)
{
	if (pc_become_nobody(1))
		return -1;
	privileged = 0;
	foreign_pid = 1;
	/*
	 * Writing make-it-fail takes CAP_SYS_RESOURCE: this worker's
	 * faults stay as the top process left them, off, and it and its
	 * children run without injection.
	 */
	injected_faults = 0;
	return 0;
}

/* A worker process: THREADS threads of calls, then every child reaped. */
static void run_worker_process(int proc, pid_t top)
{
	pthread_t threads[MAX_THREADS];
	int started[MAX_THREADS] = { 0 }, ready[MAX_THREADS] = { 0 };
	struct worker *w;
	char who[16];
	int t, err;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != top)
		_exit(0);
	/* its own group, which overflow signals may go to */
	worker_pgrp = setpgid(0, 0) ? 0 : getpid();
	snprintf(who, sizeof(who), "w%d", proc);
	devnull_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (proc == nobody_worker && become_nobody()) {
		fail_at(who, "could not become uid %d: errno %d", PC_NOBODY, errno);
		_exit(0);
	}
	/* this process, its target and its forked children count them */
	set_async_signals(1);
	start_target();
	w = calloc(opt_threads, sizeof(*w));
	if (!w) {
		fail_at(who, "out of memory for %d workers", opt_threads);
		stop_target(who);
		_exit(0);
	}
	for (t = 0; t < opt_threads; t++) {
		ready[t] = !setup_worker(&w[t], proc, t);
		/* Without its guard pages a worker's EFAULT checks are void. */
		if (!ready[t]) {
			fail_at(who, "no memory for worker %d's buffers", t);
			continue;
		}
		if (!t)
			continue;
		err = pthread_create(&threads[t], NULL, worker_main, &w[t]);
		started[t] = !err;
		if (err)
			fail_at(who, "worker thread %d not started: errno %d",
				t, err);
	}
	if (ready[0])
		worker_main(&w[0]);
	for (t = 1; t < opt_threads; t++)
		if (started[t])
			pthread_join(threads[t], NULL);
	stop_target(who);
	reap_kids(1);
	_exit(0);
}

/*
 * "pc_fuzz -s SEED -x N:FD:F:WHO": an exec'd child's few calls, with
 * faults injected around them if bit 0 of F is set; bit 1: the run
 * takes CPUs offline. It was exec'd with its faults
 * off: nothing of its start can fail by injection.
 */
static int run_exec_child(void)
{
	char who[TAG_LEN];
	unsigned int nops;
	struct worker *w;
	int fd, inject;

	if (sscanf(opt_exec_child, "%u:%d:%d:%47[^\n]", &nops, &fd, &inject,
		   who) != 4)
		return 2;
	fail_fd = fd;
	opt_hotplug = inject >> 1 & 1;	/* CPUs may go offline */
	inject &= 1;
	injected_faults = inject;	/* the oracles allow ENOMEM */
	shared = calloc(1, sizeof(*shared));
	w = calloc(1, sizeof(*w));
	if (!shared || !w) {
		fail_at(who, "exec'd child: out of memory");
		return 0;
	}
	memset(w, 0, sizeof(*w));
	w->mif_fd = -1;
	if (inject) {
		touch_stack();
		w->mif_fd = open_make_it_fail(1);
		if (w->mif_fd < 0)
			fail_at(who, "exec'd child's make-it-fail: errno %d",
				errno);
	}
	shared->max_calls = nops;
	deadline_ns = pc_now_ns() + EXEC_CHILD_S * NSEC_PER_SEC;
	install_signals();
	devnull_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	target_pid = getppid();
	w->child = 1;
	w->rng = opt_seed;
	w->closed_fd = -1;
	w->last_kid = target_pid;
	snprintf(w->tag, sizeof(w->tag), "%s", who);
	if (map_buffers(w)) {
		fail_at(who, "exec'd child: no memory for its buffers");
		return 0;
	}
	guard_init(w);
	run_ops(w, nops);
	return 0;
}

/* The top process. */
static int index_of(const pid_t *pids, int n, pid_t pid)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return i;
	return -1;
}

/*
 * A worker process's end: a signal or an exit status other than 0 is a
 * failure, with faults injected or not (the top process sends none
 * before the watchdog's).
 */
static void worker_done(int proc, pid_t pid, int status)
{
	if (WIFSIGNALED(status)) {
		fail_at("top", "worker w%d (pid %d) killed by signal %d (%s)",
			proc, (int)pid, WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		kill(-pid, SIGKILL);	/* what is left of its children */
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		fail_at("top", "worker w%d (pid %d) exited with status %d",
			proc, (int)pid, WEXITSTATUS(status));
	}
}

/*
 * Fork worker @proc, faults off (the top process never has them): its
 * pid, or 0 if fork failed.
 */
static pid_t start_worker(int proc)
{
	pid_t top = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		run_worker_process(proc, top);
	if (pid < 0) {
		fail_at("top", "fork of worker w%d: errno %d", proc, errno);
		return 0;
	}
	return pid;
}

/* Reap what is left: killed workers and orphaned children. */
static void reap_rest(pid_t *pids, int n, uint64_t until)
{
	pid_t pid;
	int i;

	while (pc_now_ns() < until) {
		pid = waitpid(-1, NULL, WNOHANG);
		if (pid < 0 && errno == ECHILD)
			return;
		if (pid > 0) {
			i = index_of(pids, n, pid);
			if (i >= 0)
				pids[i] = 0;
			continue;
		}
		usleep(10000);
	}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			fail_at("watchdog", "worker w%d (pid %d) could not be reaped",
				i, (int)pids[i]);
}

/* Up to @len - 1 bytes of a /proc file, or "". */
static void read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
}

/* The innermost kernel functions of a task, from its stack file. */
static void kernel_frames(const char *stack, char *out, size_t len, int max)
{
	const char *p = stack;
	int n = 0, fn;

	out[0] = 0;
	while (n < max) {
		p = strchr(p, ']');
		if (!p)
			break;
		p++;
		while (*p == ' ')
			p++;
		fn = strcspn(p, "+\n");
		append(out, len, "%s%.*s", n ? "<" : "", fn, p);
		n++;
	}
}

/* A hung task: its state, where it waits, and its kernel stack. */
static void print_hung_task(pid_t pid, int tid)
{
	char path[64], stat[256], wchan[64], stack[1024], frames[160];
	const char *state;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, tid);
	read_proc(path, stat, sizeof(stat));
	state = strrchr(stat, ')');
	snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", (int)pid, tid);
	read_proc(path, wchan, sizeof(wchan));
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", (int)pid, tid);
	read_proc(path, stack, sizeof(stack));
	kernel_frames(stack, frames, sizeof(frames), 6);
	printf("# watchdog:   pid %d tid %d state %c wchan %s stack %s\n",
	       (int)pid, tid, state && state[1] ? state[2] : '?',
	       wchan[0] ? wchan : "-", frames[0] ? frames : "-");
}

/* The parent of process @pid, from its stat file; 0 if unknown. */
static pid_t parent_of(const char *pid)
{
	char path[64], stat[256], *p;

	snprintf(path, sizeof(path), "/proc/%.16s/stat", pid);
	read_proc(path, stat, sizeof(stat));
	p = strrchr(stat, ')');
	return p && p[1] && p[2] && p[3] ? atoi(p + 4) : 0;
}

/* Every task of a hung process and of its descendants, two levels down. */
static void print_hung_tree(pid_t pid, int depth)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int id;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		id = atoi(d->d_name);
		if (id > 0)
			print_hung_task(pid, id);
	}
	closedir(dir);
	if (depth >= 2)
		return;
	dir = opendir("/proc");
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		id = atoi(d->d_name);
		if (id > 0 && parent_of(d->d_name) == pid)
			print_hung_tree(id, depth + 1);
	}
	closedir(dir);
}

static void report_hang(pid_t *pids, int n, uint64_t start)
{
	unsigned long long secs = (pc_now_ns() - start) / NSEC_PER_SEC;
	int i;

	for (i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		fail_at("watchdog",
			"hang: worker w%d (pid %d) still running %llu s after the start; killed",
			i, (int)pids[i], secs);
		printf("# watchdog: worker w%d (pid %d) hangs:\n", i,
		       (int)pids[i]);
		print_hung_tree(pids[i], 0);
		kill(-pids[i], SIGKILL);
		kill(pids[i], SIGKILL);
	}
}

/* Wait for the workers; stop them at SECONDS, kill them at SECONDS + 60. */
static void supervise(pid_t *pids, int n, uint64_t start)
{
	uint64_t hang_ns = deadline_ns + WATCHDOG_S * NSEC_PER_SEC;
	int alive = 0, i, status;
	pid_t pid;

	for (i = 0; i < n; i++)
		alive += pids[i] > 0;
	while (alive) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			i = index_of(pids, n, pid);
			if (i < 0)
				continue;
			pids[i] = 0;
			alive--;
			worker_done(i, pid, status);
			continue;
		}
		if (pid < 0 && errno != EINTR)
			break;
		if (pc_now_ns() >= deadline_ns)
			set_stop();
		if (pc_now_ns() >= hang_ns) {
			report_hang(pids, n, start);
			break;
		}
		usleep(20000);
	}
	reap_rest(pids, n, pc_now_ns() + REAP_S * NSEC_PER_SEC);
}

static void find_hotplug_cpus(void)
{
	char path[64], c;
	int cpu, fd;

	for (cpu = 1; cpu < nr_cpus && nr_hotplug < MAX_HOTPLUG; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		hotplug_was_online[nr_hotplug] = read(fd, &c, 1) == 1 &&
						 c == '1';
		hotplug_cpus[nr_hotplug++] = cpu;
		close(fd);
	}
}

static void restore_hotplug_cpus(void)
{
	int i;

	for (i = 0; i < nr_hotplug; i++)
		if (hotplug_was_online[i])
			write_cpu_online(hotplug_cpus[i], 1);
}

/* Room for fds: each worker thread's share of RLIMIT_NOFILE. */
static void set_fd_cap(int threads)
{
	struct rlimit rl;
	long room = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < LONG_MAX)
		room = rl.rlim_cur;
	room -= 16 + 2 * MAX_KIDS;
	/* less its make-it-fail, and its helpers' counters and theirs */
	room = room / threads - 1 - 2 * MAX_HELPERS;
	fd_cap = room < 2 ? 2 : room > MAX_FDS ? MAX_FDS : room;
}

/*
 * Can a task-clock counter be opened on this task? *err if not. The top
 * process has no faults: the probe cannot fail by injection.
 */
static int probe_syscall(int *err)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	int fd;

	hw.exclude_kernel = 1;		/* as anyone may, at any paranoia */
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	*err = errno;
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static unsigned long print_counts(void)
{
	unsigned long total = 0, opens = 0;
	char line[512] = "# calls:", name[24];
	int k, c, e;

	for (k = 0; k < OP_NR; k++) {
		if (!is_syscall_op(k))
			continue;
		total += shared->op_count[k];
		append(line, sizeof(line), " %s %lu", op_names[k],
		       shared->op_count[k]);
	}
	printf("%s\n", line);
	printf("# not system calls: busy %lu, pages %lu\n",
	       shared->op_count[OP_BUSY], shared->op_count[OP_PAGES]);
	for (e = 0; e < MAX_ERRNO; e++)
		opens += shared->errnos[ERRS_OPEN][e];
	printf("# opens: %lu succeeded, %lu failed\n", shared->opens_ok, opens);
	/* what reached the read formats' and ids' oracles */
	printf("# values: %lu group reads, %lu READ ioctls read, %lu ids, %lu TOTALS records checked\n",
	       shared->group_reads, shared->ioctl_reads, shared->ids_checked,
	       shared->totals);
	/* what reached the rings' oracles (op_ring(), op_output()) */
	printf("# rings: %lu mappings, %lu control pages (%lu with no fd left) and %lu records checked, %lu hostile tails, %lu lost checks, %lu SET_OUTPUTs to another's queue\n",
	       shared->rings_mapped, shared->ring_pages, shared->ring_orphans,
	       shared->ring_records, shared->hostile_tails,
	       shared->lost_checks, shared->outputs);
	for (c = 0; c < ERRS_NR; c++) {
		snprintf(line, sizeof(line), "# %s errnos:",
			 errno_class_names[c]);
		for (e = 0; e < MAX_ERRNO; e++)
			if (shared->errnos[c][e])
				append(line, sizeof(line), " %s %lu",
				       e ? errno_name(e, name, sizeof(name)) :
					   "other",
				       shared->errnos[c][e]);
		printf("%s\n", line);
	}
	return total;
}

/*
 * Before anything else, the top process's faults off for good (see the
 * top of the file): its make-it-fail is opened while /init has not
 * marked it yet, then its first perf_counter_open() is one that fails
 * before it allocates, where /init marks it. 1 if its flag was on (the
 * run injects), 0 if not or if this kernel has no make-it-fail, -1
 * (errno) if it is on and cannot be turned off.
 */
static int top_faults_off(void)
{
	int fd = open_make_it_fail(MIF_TRIES), on, err = 0;
	char c = 0;

	sys_perf_counter_open(NULL, 0, -1, -1, 1);
	if (fd < 0)
		return 0;
	on = pread(fd, &c, 1, 0) == 1 && c == '1';
	if (on && write_make_it_fail(fd, 0))
		err = errno;
	close(fd);
	errno = err;
	return err ? -1 : on;
}

#define FAILSLAB_TIMES	"/sys/kernel/debug/failslab/times"
#define FAIL_PAGE_TIMES	"/sys/kernel/debug/fail_page_alloc/times"

/*
 * The failures the injector has left to make, failslab's and
 * fail_page_alloc's: each counts down as it fails an allocation (/init
 * starts them at INT_MAX). -1 if not known: unlimited, or no debugfs.
 */
static long long faults_left(void)
{
	static const char * const files[] = { FAILSLAB_TIMES, FAIL_PAGE_TIMES };
	long long sum = 0, n;
	char buf[32], *end;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		read_proc(files[i], buf, sizeof(buf));
		n = strtoll(buf, &end, 10);
		if (end == buf || n < 0)
			return -1;
		sum += n;
	}
	return sum;
}

/*
 * What injection did, into @what, and a failure if, over MIN_FAULTED
 * or more calls with faults on, it failed no allocation, or neither
 * perf_counter_open() nor ioctl() saw ENOMEM (theirs are perf_counter's
 * own allocations; poll()'s, dup()'s and fork()'s are mostly the rest
 * of the kernel's): it did not reach perf_counter. @faults: the faults
 * injected, or -1 if not known.
 */
static void check_injection(long long faults, char *what, size_t len)
{
	unsigned long calls = shared->faulted_calls;
	unsigned long (*e)[MAX_ERRNO] = shared->errnos;
	char injected[32] = "unknown";

	if (faults >= 0)
		snprintf(injected, sizeof(injected), "%lld", faults);
	snprintf(what, len, "%lu calls with faults on, %s faults injected, ENOMEM from open %lu ioctl %lu poll %lu dup %lu fork %lu",
		 calls, injected, e[ERRS_OPEN][ENOMEM], e[ERRS_IOCTL][ENOMEM],
		 e[ERRS_POLL][ENOMEM], e[ERRS_DUP][ENOMEM],
		 e[ERRS_FORK][ENOMEM]);
	printf("# fault injection: %s\n", what);
	if (calls >= MIN_FAULTED &&
	    (!faults || !(e[ERRS_OPEN][ENOMEM] + e[ERRS_IOCTL][ENOMEM])))
		fail_at("top", "fault injection did not reach perf_counter: %s",
			what);
}

/*
 * The verdict. Where perf_counter_open() is there, a task-clock counter
 * on self opens: if the probe failed, the number is unused (ENOSYS) or
 * is another system call's (cachestat() on Linux 6.5 and later), and
 * the calls made say nothing about perf_counter.
 */
/*
 * The least work a run must do, per minute of it: successful opens,
 * reads and readv()s that gave bytes, sampling records parsed, and
 * counter pages read. Below them the run proves little, and fails.
 * Measured (calls and rates per minute of a 150 s run): see MIN_RATES
 * in the comment at the top.
 */
#define MIN_OPENS_PM	MIN_RATE_OPENS
#define MIN_READS_PM	MIN_RATE_READS
#define MIN_RECORDS_PM	MIN_RATE_RECORDS
#define MIN_PAGES_PM	MIN_RATE_PAGES
#define MIN_RATE_S	10	/* a shorter run is not held to them */

/* Check the rates of a run of @secs seconds; what was done into @buf. */
static void check_rates(double secs, char *buf, size_t len)
{
	static const char * const names[] = {
		"opens", "reads", "records", "pages",
	};
	static const unsigned long mins[] = {
		MIN_OPENS_PM, MIN_READS_PM, MIN_RECORDS_PM, MIN_PAGES_PM,
	};
	unsigned long n[4] = {
		shared->opens_ok, shared->reads_data, shared->records,
		shared->pages_read,
	};
	double rate;
	size_t i;

	snprintf(buf, len, "per minute:");
	for (i = 0; i < ARRAY_SIZE(n); i++) {
		rate = secs > 0 ? n[i] * 60.0 / secs : 0;
		append(buf, len, " %s %.0f", names[i], rate);
		if (secs >= MIN_RATE_S && rate < mins[i])
			fail_at("top", "%lu %s in %.0f s: %.0f a minute, under the %lu a run must make",
				n[i], names[i], secs, rate, mins[i]);
	}
	if (secs < MIN_RATE_S)
		append(buf, len, " (not checked: under %d s)", MIN_RATE_S);
	if (nobody_worker >= 0 && secs >= MIN_RATE_S && !shared->unpriv_eacces)
		fail_at("top", "worker w%d ran as nobody, and no valid open of its was refused with EACCES",
			nobody_worker);
	printf("# oracles: %lu valid opens refused for a reason that applies, %lu of them EACCES to nobody; %s\n",
	       shared->valid_refused, shared->unpriv_eacces, buf);
}

/*
 * The overflow signals the workers counted (on_async()), and a failure
 * for any of a kind no counter sends.
 */
static void check_signals(void)
{
	printf("# overflow signals: POLL_IN %lu, POLL_HUP %lu, plain SIGIO %lu, other %lu\n",
	       shared->sig_in, shared->sig_hup, shared->sig_plain,
	       shared->sig_bad);
	if (shared->sig_bad)
		fail_at("top", "%lu overflow signals no counter sends, the first signal %d si_code %d si_band %#lx",
			shared->sig_bad, shared->bad_sig, shared->bad_code,
			(unsigned long)shared->bad_band);
}

static int report(int probe_ok, int probe_err, long long faults,
		  double secs)
{
	unsigned long total = print_counts();
	unsigned long long seed = opt_seed;
	int available = probe_ok && !shared->no_syscall;
	char name[24], what[192] = "", with[400] = "", rates[160];
	unsigned int nfails, i;

	check_rates(secs, rates, sizeof(rates));
	check_signals();
	if (injected_faults)
		check_injection(faults, what, sizeof(what));
	snprintf(with, sizeof(with), "; %s%s%s", rates, what[0] ? "; " : "",
		 what);
	nfails = shared->nfails;
	if (nfails > MAX_FAILS)
		printf("# %u failures, the first %d follow the result\n",
		       nfails, MAX_FAILS);
	if (!available)
		printf("not ok 1 pc_fuzz: %s (probe: %s; %lu calls, %d processes, seed %llu)\n",
		       "perf_counter_open() syscall not available",
		       probe_ok ? "opens" :
				  errno_name(probe_err, name, sizeof(name)),
		       total, opt_procs, seed);
	else if (nfails)
		printf("not ok 1 pc_fuzz: %lu calls, %d processes, seed %llu%s: %u failures\n",
		       total, opt_procs, seed, with, nfails);
	else
		printf("ok 1 pc_fuzz: %lu calls, %d processes, seed %llu%s\n",
		       total, opt_procs, seed, with);
	for (i = 0; i < nfails && i < MAX_FAILS; i++)
		printf("# %s\n", shared->fails[i]);
	fflush(stdout);
	return nfails || !available;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s SEED] [-n CALLS] [-t SECONDS] [-p PROCS] [-T THREADS] [-H]\n"
		"  -s SEED     seed of every worker's choices (default: time and pid)\n"
		"  -n CALLS    calls to make in all (default 200000)\n"
		"  -t SECONDS  time to run at most (default 120)\n"
		"  -p PROCS    worker processes (default 3, at most 64)\n"
		"  -T THREADS  threads per worker process (default 2, at most 64)\n"
		"  -H          take CPUs other than 0 offline and online (root)\n",
		prog);
}

static int parse_number(const char *s, unsigned long long max,
			unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || *out > max || *s == '-')
		return -1;
	return 0;
}

static int parse_args(int argc, char **argv)
{
	unsigned long long v;
	int c, seeded = 0;

	while ((c = getopt(argc, argv, "s:n:t:p:T:Hx:")) != -1) {
		switch (c) {
		case 's':
			if (parse_number(optarg, ULLONG_MAX, &v))
				return -1;
			opt_seed = v;
			seeded = 1;
			break;
		case 'n':
			if (parse_number(optarg, LONG_MAX, &v) || !v)
				return -1;
			opt_calls = v;
			break;
		case 't':
			if (parse_number(optarg, 86400 * 365, &v) || !v)
				return -1;
			opt_secs = v;
			break;
		case 'p':
			if (parse_number(optarg, MAX_PROCS, &v) || !v)
				return -1;
			opt_procs = v;
			break;
		case 'T':
			if (parse_number(optarg, MAX_THREADS, &v) || !v)
				return -1;
			opt_threads = v;
			break;
		case 'H':
			opt_hotplug = 1;
			break;
		case 'x':
			opt_exec_child = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc)
		return -1;
	if (!seeded) {
		opt_seed = pc_now_ns() ^ ((uint64_t)getpid() << 32);
		opt_seed = splitmix64(&opt_seed);
	}
	return 0;
}

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/*
 * The highest CPU of a list file ("0-3,6") and, in *@mask, those
 * below 64; -1 if the file cannot be read. Each step moves on in the
 * file's few bytes: the loop ends.
 */
static int cpu_list(const char *path, uint64_t *mask)
{
	char buf[256], *p = buf, *end;
	long a, b, max = -1, i;

	*mask = 0;
	read_proc(path, buf, sizeof(buf));
	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p || a < 0)
			break;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				break;
		}
		for (i = a; i <= b && i < 64; i++)
			*mask |= 1ULL << i;
		if (b > max)
			max = b;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return max;
}

/*
 * What the oracles need of the system: who we are, the paranoid level
 * (2, the default, where the knob is missing), the CPUs online and
 * the number the kernel may have (nr_cpu_ids), the deepest chain and
 * the sample rate as they are at the start.
 */
static void read_system(void)
{
	char buf[16];
	uint64_t possible;

	privileged = !geteuid();
	read_proc(PARANOID, buf, sizeof(buf));
	paranoid_level = buf[0] ? atoi(buf) : 2;
	nr_possible = cpu_list("/sys/devices/system/cpu/possible", &possible) + 1;
	max_depth = read_max_depth();
	max_rate = read_max_rate();
	cpu_list("/sys/devices/system/cpu/online", &online_at_start);
}

/*
 * As root with more than one worker, the last runs as nobody, at the
 * paranoid level 2 (set here if it is not; restore_paranoid() puts
 * back what was, on every way out of main() after this; a SIGKILL from
 * /init's deadline leaves it, which only a later program could see:
 * every boot runs pc_fuzz last). The level is read again for the
 * oracles.
 */
static void setup_nobody(void)
{
	char buf[16];
	int fd;

	if (!privileged || opt_procs < 2)
		return;
	if (paranoid_level != 2) {
		fd = open(PARANOID, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "2", 1) != 1) {
			printf("# no worker runs as nobody: %s cannot be set to 2\n",
			       PARANOID);
			if (fd >= 0)
				close(fd);
			return;
		}
		close(fd);
		paranoid_was = paranoid_level;
		read_proc(PARANOID, buf, sizeof(buf));
		paranoid_level = atoi(buf);
	}
	nobody_worker = opt_procs - 1;
	printf("# worker w%d runs as nobody (uid %d) at paranoid level %d\n",
	       nobody_worker, PC_NOBODY, paranoid_level);
}

static void restore_paranoid(void)
{
	char buf[16];
	int fd, n;

	if (paranoid_was < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%d", paranoid_was);
	fd = open(PARANOID, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, n) != n)
		fail_at("top", "%s could not be put back to %d", PARANOID,
			paranoid_was);
	if (fd >= 0)
		close(fd);
}

/* -H offlines CPUs: only as root, and only where the syscall works. */
static void check_hotplug(int probe_ok)
{
	if (!opt_hotplug)
		return;
	if (geteuid() || !probe_ok || !nr_hotplug) {
		printf("# -H ignored: %s\n",
		       "needs root, a working perf_counter_open() and a CPU other than 0 with an online file");
		opt_hotplug = 0;
	}
}

static void print_header(int probe_ok, int probe_err)
{
	unsigned long long seed = opt_seed;
	char name[24];

	printf("TAP version 13\n1..1\n");
	printf("# pc_fuzz: seed %llu (replay with -s %llu)\n", seed, seed);
	printf("# calls %lu, seconds %lu, processes %d, threads %d, fds per thread %d, cpus %d\n",
	       opt_calls, opt_secs, opt_procs, opt_threads, fd_cap, nr_cpus);
	if (probe_ok)
		printf("# probe: task-clock counter on self opens\n");
	else
		printf("# probe: task-clock counter on self fails: %s\n",
		       errno_name(probe_err, name, sizeof(name)));
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_PROCS] = { 0 };
	int p, probe_ok, probe_err;
	long long faults_before = -1, faults = -1, faults_after;
	uint64_t start, end;
	double secs;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!hw_bits_match()) {
		printf("TAP version 13\n1..1\nnot ok 1 pc_fuzz: struct fz_hw_event's bit-fields are not where the uapi header's are\n");
		return 1;
	}
	page_size = sysconf(_SC_PAGESIZE);
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (nr_cpus < 1)
		nr_cpus = 1;
	no_syscall_errno = missing_syscall_errno();
	read_system();
	if (parse_args(argc, argv)) {
		print_usage(argv[0]);
		return 1;
	}
	if (opt_exec_child) {
		set_fd_cap(1);
		return run_exec_child();
	}
	injected_faults = top_faults_off();
	if (injected_faults < 0) {
		printf("TAP version 13\n1..1\n");
		printf("not ok 1 pc_fuzz: make-it-fail is on and cannot be turned off (errno %d)\n",
		       errno);
		return 1;
	}
	if (injected_faults)
		faults_before = faults_left();
	set_fd_cap(opt_threads);
	probe_ok = probe_syscall(&probe_err);
	print_header(probe_ok, probe_err);
	if (injected_faults)
		printf("# fault injection: on, only around the calls that exercise perf_counter; no death is excused\n");
	find_hotplug_cpus();
	check_hotplug(probe_ok);
	if (opt_hotplug)
		printf("# -H: %d CPUs go offline and online\n", nr_hotplug);
	shared = map_guarded(sizeof(*shared), 0, MAP_SHARED);
	if (shared == MAP_FAILED) {
		printf("not ok 1 pc_fuzz: no shared memory (errno %d)\n", errno);
		return 1;
	}
	/* from here every return goes through restore_paranoid() */
	setup_nobody();
	shared->max_calls = opt_calls;
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	start = pc_now_ns();
	deadline_ns = start + opt_secs * NSEC_PER_SEC;

	for (p = 0; p < opt_procs; p++)
		pids[p] = start_worker(p);
	supervise(pids, opt_procs, start);
	/*
	 * The rates are of the time the workers had: to the stop (budget
	 * or SECONDS spent), not to the end of the reaping after it.
	 */
	end = __atomic_load_n(&shared->stop_ms, __ATOMIC_RELAXED) *
	      (uint64_t)1000000;
	if (!end || end > deadline_ns)
		end = deadline_ns < pc_now_ns() ? deadline_ns : pc_now_ns();
	secs = (end - start) / 1e9;
	if (opt_hotplug)
		restore_hotplug_cpus();
	restore_paranoid();
	faults_after = faults_before >= 0 ? faults_left() : -1;
	if (faults_after >= 0)
		faults = faults_before - faults_after;
	return report(probe_ok, probe_err, faults, secs);
}
