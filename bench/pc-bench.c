// SPDX-License-Identifier: GPL-2.0
/*
 * pc-bench: perf_counter against 6.1's perf_events, in the same boot.
 *
 * Under QEMU TCG absolute times mean little: only ratios taken side by
 * side mean something. make bench boots with QEMU's -icount, so that
 * the guest's clock counts the instructions it executes (4 ns each) and
 * the host's load cannot reach the figures; BENCH_CLOCK=wall times on
 * the host's clock instead.
 *
 * Every measurement is a batch of operations timed in a fresh process
 * (the runner), so that no variant inherits another's state. A batch is
 * timed as sub-batches of about 1 ms and gives the fastest of them: not
 * one that a timer tick or, on the wall clock, the host took time from,
 * nor, in a round trip between a task and its child, the slower of the
 * two ways the scheduler takes from one round trip to the next (15%
 * apart). The variants of a set are measured in rounds, each round in a
 * new shuffled order, so that drift hits them all alike. Each round gives each figure one ratio, perf_counter's over
 * perf_events':
 *
 *   added  (ours - none) / (theirs - none): none is the same operation
 *          with no counter on the tasks measured
 *   plain  ours / theirs
 *
 * A figure is the median of its rounds' ratios, with their interquartile
 * range (IQR) as a percentage of the median: 10% or more is flagged MISS.
 *
 * The sets, N counters per task (1, 4, 16, 64 and 256):
 *
 *   switch  a one-byte pipe round trip, both tasks pinned to CPU 0:
 *           (a) two children of a task with N inherited counters,
 *           (b) a task with N inherited counters and its child,
 *           (c) two tasks, each with N counters of its own, and none;
 *           (e) a lap of a byte around a ring of N tasks (N = 4, 16
 *           and 64), each with RING_N (4) counters of its own, and
 *           none: the cost of a switch as tasks are added.
 *           A sleeping helper holds counters of both subsystems
 *           meanwhile, so that every static key is on in every variant.
 *   fork    fork + exit + wait with N inherited counters, and none
 *   read    read() of each of a group's N counters; perf_events also
 *           with one PERF_FORMAT_GROUP read of the leader (read_format
 *           GROUP alone: read-vs-group); and one PERF_FORMAT_GROUP read
 *           of the leader on both sides (group-read), with the same
 *           read_format on both: GROUP, ID, TOTAL_TIME_ENABLED and
 *           TOTAL_TIME_RUNNING (nr, the two times, then a value and an
 *           id per counter). A group read goes into a buffer of just
 *           that size; one that returns any other byte count, or
 *           another nr, fails the batch
 *   keys    (d) the round trip with no counter open anywhere (the keys
 *           off), in units of a null system call (getppid())
 *   chain   a page fault 16 calls deep sampled with its user call chain
 *           (page-faults:u, period 1, depth 16; perf_events with
 *           PERF_SAMPLE_CALLCHAIN, sample_max_stack 16 and its ring
 *           mmap()ed), cost added over the same fault unsampled
 *   self    a read of the caller's own counter from its counter page
 *           (tools/perf_counter/pc_self.h), task-clock and page-faults,
 *           in units of a null system call: no system call at all
 *   offcpu  the round trip of (c), each task with one counter of its
 *           own that writes a record at each of its switch-outs, cost
 *           added over the same round trip with none: ours a
 *           task-clock:u sampling counter (a period of 1 s, which never
 *           runs out here) with context_switch, PERF_RECORD_CALLCHAIN
 *           and PERF_SWITCH_OUT_CHAIN, 32 user stack words: a
 *           SWITCH_OUT_CHAIN record out, a SWITCH_IN one in; against
 *           (1) perf_events' task-clock:u, the same period, with
 *           context_switch (PERF_RECORD_SWITCH out and in, no chain;
 *           sample_id_all with TID and TIME, as ours carry) and (2)
 *           sched:sched_switch, period 1, with PERF_SAMPLE_TID, TIME and
 *           CALLCHAIN (user part only: exclude_callchain_kernel, as
 *           exclude_kernel would drop every sample of a tracepoint;
 *           sample_max_stack 127, ours' depth), a sample at each
 *           switch-out. Own counters, not inherited ones: a context
 *           swap at the switch between a task and its child (perf_events
 *           swaps theirs, ours never swaps a sampling copy) would skip
 *           the stop and start of the counters on one side only, and
 *           no longer compare the records. Every queue and ring is 1 MiB
 *           and emptied between sub-batches, untimed (the timer sends
 *           the echo OFF_DRAIN), so that every record is written: a
 *           batch that loses one, or writes fewer switch-out records
 *           than it makes round trips (ours' plain SWITCH_OUT, past
 *           the CPU's sample budget, has no chain), fails. The keys of
 *           the switch records and the tracepoint's probe are on in the
 *           variants that use them alone: they are part of the cost.
 *   memory  kernel memory per counter, from /proc/meminfo and
 *           /proc/slabinfo around the opening of many (mem_set())
 *
 * --short: few rounds, short batches, N = 1 and 4, few counters for the
 * memory: a smoke test (bench_test) that every figure is produced, never
 * a timing check.
 *
 * --set NAME (with or without --short): that set alone (keys, switch,
 * fork, read, self, chain, offcpu or memory), to look at one closer.
 *
 * --keys-only: (d) alone, and nothing that opens a counter: make bench
 * runs it on a kernel built without perf_counter, to set beside (d) of
 * the kernel with it.
 *
 * Lines for machines start with "PC-BENCH " (see print_fig() and
 * mem_set()); harness/run-guest.sh collects them into results.txt and
 * bench/plot.py draws the scale curves. With PC_BENCH_RAW set in its
 * environment, pc-bench prints every sub-batch too ("PC-RAW" lines).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>
#include <linux/perf_event.h>

#include "../tools/perf_counter/pc_self.h"

#ifndef __NR_perf_counter_open
#define __NR_perf_counter_open 451
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_N		256	/* counters per task, at most */
#define RING_N		4	/* counters of each task of the ring */
#define MAX_VARS	64	/* variants in a set */
#define MAX_FIGS	32	/* figures in a set */
#define MAX_ROUNDS	64
#define MAX_SUB		256	/* sub-batches in a batch */
#define IQR_TARGET	10.0	/* per cent of the median */
#define SAMPLE_PERIOD	(1ULL << 40)	/* a period that never runs out here */

enum who { NONE, OURS, THEIRS, NR_WHO };
static const char * const who_name[NR_WHO] = {
	"none", "perf_counter", "perf_events"
};

/* What a run of the bench covers: the full run or --short. */
struct plan {
	int rounds;		/* rounds of each set */
	double batch_ms;	/* the time a batch is sized to take */
	double sub_ms;		/* ... and each of its sub-batches */
	double sub_q;		/* the sub-batches' quantile a batch gives */
	int nr_ns;		/* the Ns of the scale */
	int ns[5];
	int warm;		/* untimed operations before a batch */
	int mem_reps;		/* repetitions of each memory measurement */
	int mem_n;		/* counters opened for a memory figure */
};

static const struct plan full_plan = {
	.rounds = 15, .batch_ms = 30, .sub_ms = 1, .sub_q = 0, .nr_ns = 5,
	.ns = { 1, 4, 16, 64, 256 }, .warm = 20,
	.mem_reps = 3, .mem_n = 512,
};

static const struct plan short_plan = {
	.rounds = 3, .batch_ms = 5, .sub_ms = 1, .sub_q = 0, .nr_ns = 2,
	.ns = { 1, 4 }, .warm = 2,
	.mem_reps = 1, .mem_n = 64,
};

static const struct plan *plan = &full_plan;

/* Memory shared with every runner: where a batch leaves its result. */
struct shared {
	double sub[MAX_SUB];		/* ns per operation, a sub-batch each */
	long long mem[2];		/* bytes, pages (mem_snap()) */
	double rec[3];			/* offcpu: run_offcpu()'s records */
};
static struct shared *shm;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Counters cycle through four software events, the same on both sides. */
static const unsigned int sw_ours[4] = {
	PERF_COUNT_TASK_CLOCK, PERF_COUNT_CONTEXT_SWITCHES,
	PERF_COUNT_PAGE_FAULTS, PERF_COUNT_CPU_MIGRATIONS,
};
static const uint64_t sw_theirs[4] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
};

/* How counters are opened (open_counters()). */
#define F_INHERIT	1	/* inherited by children forked later */
#define F_GROUP		2	/* the first leads, the others are members */
#define F_FMT_GROUP	4	/* perf_events: the leader reads the group */
#define F_SAMPLE	8	/* a period: ours get a queue of records */
#define F_QUEUE_4K	16	/* ours: the queue shrunk to 4 KiB */
#define F_FMT_ALL	32	/* both: the leader reads the group, FMT_ALL */
#define F_HW		128	/* hardware: cycles and instructions in turn */
#define F_UNUSED	64	/* opened disabled, never read nor mapped;
				 * ours headered: its queue comes at first use
				 */

/* group-read's read_format, the same on both sides */
#define FMT_ALL		(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

static int open_one(enum who who, int i, int group_fd, unsigned int flags)
{
	if (who == OURS) {
		struct perf_counter_hw_event hw;
		uint32_t bytes = 4096;
		int fd;

		memset(&hw, 0, sizeof(hw));
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						      sw_ours[i % 4]);
		if (flags & F_HW)
			hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
				i % 2 ? PERF_COUNT_INSTRUCTIONS :
					PERF_COUNT_CPU_CYCLES);
		hw.inherit = !!(flags & F_INHERIT);
		if (flags & F_SAMPLE) {
			hw.irq_period = SAMPLE_PERIOD;
			hw.record_type = PERF_RECORD_IRQ;
		}
		if (flags & F_UNUSED) {
			hw.disabled = 1;
			hw.record_type |= PERF_RECORD_TID;
		}
		if ((flags & F_FMT_ALL) && group_fd < 0)
			hw.read_format = FMT_ALL;
		fd = syscall(__NR_perf_counter_open, &hw, 0, -1, group_fd, 0);
		if (fd >= 0 && (flags & F_QUEUE_4K) &&
		    ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &bytes)) {
			close(fd);
			return -1;
		}
		return fd;
	}

	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = sw_theirs[i % 4];
	if (flags & F_HW) {
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = i % 2 ? PERF_COUNT_HW_INSTRUCTIONS :
				      PERF_COUNT_HW_CPU_CYCLES;
	}
	attr.inherit = !!(flags & F_INHERIT);
	if (flags & F_SAMPLE) {
		attr.sample_period = SAMPLE_PERIOD;
		attr.sample_type = PERF_SAMPLE_IP;
	}
	if (flags & F_UNUSED)
		attr.disabled = 1;
	if ((flags & F_FMT_GROUP) && group_fd < 0)
		attr.read_format = PERF_FORMAT_GROUP;
	if ((flags & F_FMT_ALL) && group_fd < 0)
		attr.read_format = FMT_ALL;
	return syscall(__NR_perf_event_open, &attr, 0, -1, group_fd, 0);
}

static void close_counters(int *fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* Open @n counters of @who on the caller; none for NONE. */
static int open_counters(enum who who, int n, int *fd, unsigned int flags)
{
	int i;

	for (i = 0; i < n; i++)
		fd[i] = -1;
	if (who == NONE)
		return 0;
	for (i = 0; i < n; i++) {
		int leader = (flags & F_GROUP) && i ? fd[0] : -1;

		fd[i] = open_one(who, i, leader, flags);
		if (fd[i] < 0) {
			printf("pc-bench: %s: counter %d of %d: %s\n",
			       who_name[who], i + 1, n, strerror(errno));
			close_counters(fd, i);
			return -1;
		}
	}
	return 0;
}

/* 0 if @pid exited with status 0. */
static int wait_ok(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* What one measurement does. */
enum op {
	K_NULL,		/* getppid() */
	K_READ,		/* read() of each of a group's N counters */
	K_READ_FMT,	/* one PERF_FORMAT_GROUP read of the leader */
	K_READ_ALL,	/* ... on both sides, read_format FMT_ALL */
	K_PIPE_KIDS,	/* round trip between two children of the runner */
	K_PIPE_PARENT,	/* round trip between the runner and its child */
	K_PIPE_RING,	/* a byte around a ring of N tasks, RING_N each */
	K_FORK,		/* fork + exit + wait */
	K_SELF_CLOCK,	/* a task-clock read from its counter page */
	K_SELF_FAULTS,	/* a page-faults read from its counter page */
	K_CHAIN,	/* a page fault 16 calls deep, sampled with its chain */
	K_OFFCPU,	/* round trip, own counters: ours' switch-out chains */
	K_OFFCPU_SWITCH,	/* ... perf_events' PERF_RECORD_SWITCH */
	K_OFFCPU_TP,	/* ... perf_events' sched_switch samples, chains */
};

struct variant {
	enum op kind;
	enum who who;
	int own;		/* pipes: each task opens its own counters */
	int hw;			/* F_HW: hardware counters, not software */
	int n;			/* counters per task */
	long ops;		/* operations in a sub-batch */
	int subs;		/* sub-batches in a batch */
	double ns[MAX_ROUNDS];	/* ns per operation, a round each */
	double rec[3];		/* offcpu: its last batch's shm->rec */
};

/* Untimed work after the warm-up and after each sub-batch (offcpu). */
static int (*between_subs)(void);

/*
 * The timed part of a batch, in the process that times: plan->warm
 * operations untimed, then @subs sub-batches of @ops, each one's ns per
 * operation into shm->sub[].
 */
static int time_subs(int (*op)(void *), void *arg, long ops, int subs)
{
	uint64_t t0;
	long i;
	int k;

	for (i = 0; i < plan->warm; i++)
		if (op(arg))
			return 1;
	if (between_subs && between_subs())
		return 1;
	for (k = 0; k < subs; k++) {
		t0 = now_ns();
		for (i = 0; i < ops; i++)
			if (op(arg))
				return 1;
		shm->sub[k] = (double)(now_ns() - t0) / ops;
		if (between_subs && between_subs())
			return 1;
	}
	return 0;
}

static int op_null(void *arg)
{
	syscall(__NR_getppid);
	return 0;
}

/* A pipe's two ends as the timing task sees them. */
struct ends {
	int out, in;
};

static int op_round_trip(void *arg)
{
	const struct ends *e = arg;
	char c = 0;

	return write(e->out, &c, 1) != 1 || read(e->in, &c, 1) != 1;
}

static int op_fork(void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return wait_ok(pid);
}

/* The most a group read returns: nr, two times, a value and an id each. */
#define GROUP_WORDS	(3 + 2 * MAX_N)

struct group {
	int *fd, n;
	uint64_t fmt;		/* the leader's read_format; 0: N reads */
	ssize_t want;		/* bytes of the group read */
};

/* Bytes of a PERF_FORMAT_GROUP read of @n counters with @fmt. */
static ssize_t group_size(uint64_t fmt, int n)
{
	int words = 1, each = 1;

	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		words++;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		words++;
	if (fmt & PERF_FORMAT_ID)
		each++;
	return (words + n * each) * sizeof(uint64_t);
}

/*
 * A read that gave something else than the group (@got bytes into
 * @buf): said, and the batch fails rather than time an error path.
 */
static int group_wrong(const struct group *g, ssize_t got,
		       const uint64_t *buf)
{
	if (got < 0)
		printf("pc-bench: group read of %d: %s\n", g->n, strerror(errno));
	else if (got < 8)
		printf("pc-bench: group read of %d: %zd bytes, not %zd\n",
		       g->n, got, g->want);
	else
		printf("pc-bench: group read of %d: %zd bytes, nr %llu, not %zd bytes\n",
		       g->n, got, (unsigned long long)buf[0], g->want);
	fflush(stdout);
	return 1;
}

static int op_read(void *arg)
{
	const struct group *g = arg;
	uint64_t buf[GROUP_WORDS];
	ssize_t got;
	int j;

	if (g->fmt) {
		got = read(g->fd[0], buf, g->want);
		if (got != g->want || buf[0] != g->n)
			return group_wrong(g, got, buf);
		return 0;
	}
	for (j = 0; j < g->n; j++)
		if (read(g->fd[j], buf, 8) != 8)
			return 1;
	return 0;
}

static int op_self(void *arg)
{
	struct pc_self_values v;

	return pc_self_read(arg, &v) != PC_SELF_PAGE;
}

/*
 * A self-read batch: every read must come from the page. A page that
 * cannot give the value (it always could here: a software counter of
 * the caller's own) would fail the batch rather than time read().
 */
static int run_self(const struct variant *v, long ops, int subs)
{
	int event = v->kind == K_SELF_CLOCK ? 0 : 2;	/* in sw_ours[] */
	struct pc_self self;
	int fd;

	fd = open_one(OURS, event, -1, 0);
	if (fd < 0 || pc_self_map(&self, fd, 0) || !self.page) {
		printf("pc-bench: no counter page for %s\n",
		       event ? "page-faults" : "task-clock");
		return 1;
	}
	return time_subs(op_self, &self, ops, subs);
}

/* The round-trip end that times: its own counters first (own). */
static int pipe_time(const struct variant *v, int out, int in, long ops,
		     int subs)
{
	struct ends e = { out, in };
	int fd[MAX_N];

	if (v->own && open_counters(v->who, v->n, fd, v->hw ? F_HW : 0))
		return 1;
	return time_subs(op_round_trip, &e, ops, subs);
}

/* The other end: echo every byte back. */
static int pipe_echo(const struct variant *v, int in, int out, long loops)
{
	int fd[MAX_N], i;
	char c;

	if (v->own && open_counters(v->who, v->n, fd, v->hw ? F_HW : 0))
		return 1;
	for (i = 0; i < loops; i++)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			return 1;
	return 0;
}

static int run_pipe(const struct variant *v, long ops, int subs)
{
	int to[2], from[2], fd[MAX_N], err = 0;
	pid_t echo, timer;

	if (pipe(to) || pipe(from))
		return 1;
	/* inherited: opened by the runner, before the forks */
	if (!v->own &&
	    open_counters(v->who, v->n, fd, F_INHERIT | (v->hw ? F_HW : 0)))
		return 1;
	echo = fork();
	if (echo == 0) {
		close(to[1]);
		close(from[0]);
		_exit(pipe_echo(v, to[0], from[1], plan->warm + ops * subs));
	}
	close(to[0]);
	close(from[1]);
	if (v->kind == K_PIPE_KIDS) {
		timer = fork();
		if (timer == 0)
			_exit(pipe_time(v, to[1], from[0], ops, subs));
		close(to[1]);
		close(from[0]);
		err = wait_ok(timer);
	} else {
		err = pipe_time(v, to[1], from[0], ops, subs);
		close(to[1]);
		close(from[0]);
	}
	return wait_ok(echo) || err;
}

/* A lap of the ring: the byte out to the next task and back round. */
static int op_lap(void *arg)
{
	return op_round_trip(arg);
}

/* Task @k of the ring: RING_N counters of its own, then pass the byte. */
static int ring_pass(const struct variant *v, int in, int out, long laps)
{
	int fd[RING_N];
	long i;
	char c;

	if (open_counters(v->who, RING_N, fd, 0))
		return 1;
	for (i = 0; i < laps; i++)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			return 1;
	return 0;
}

/*
 * v->n tasks in a ring of pipes: the runner (task 0, timing) and its
 * v->n - 1 children, each with RING_N counters of its own (none for
 * NONE). A lap is v->n switches: the figure, added cost against the
 * ring with none, shows whether a switch costs more as tasks are added.
 */
static int run_ring(const struct variant *v, long ops, int subs)
{
	int p[64][2], fd[RING_N], k, err = 0;
	long laps = plan->warm + ops * subs;
	struct ends e;
	pid_t kid[64];

	if (v->n < 2 || v->n > 64)
		return 1;
	for (k = 0; k < v->n; k++)
		if (pipe(p[k]))
			return 1;
	for (k = 1; k < v->n; k++) {
		kid[k] = fork();
		if (kid[k] < 0)
			return 1;
		if (kid[k] == 0)
			_exit(ring_pass(v, p[k - 1][0], p[k][1], laps));
	}
	e.out = p[0][1];
	e.in = p[v->n - 1][0];
	if (open_counters(v->who, RING_N, fd, 0))
		err = 1;
	else
		err = time_subs(op_lap, &e, ops, subs);
	for (k = 0; k < v->n; k++) {
		close(p[k][0]);
		close(p[k][1]);
	}
	for (k = 1; k < v->n; k++)
		err |= wait_ok(kid[k]);
	return err;
}

static int run_fork(const struct variant *v, long ops, int subs)
{
	int fd[MAX_N];

	if (open_counters(v->who, v->n, fd, F_INHERIT))
		return 1;
	return time_subs(op_fork, NULL, ops, subs);
}

static int run_read(const struct variant *v, long ops, int subs)
{
	unsigned int flags = F_GROUP | (v->hw ? F_HW : 0);
	int fd[MAX_N];
	struct group g = { fd, v->n, 0, 0 };

	if (v->kind == K_READ_FMT) {
		g.fmt = PERF_FORMAT_GROUP;
		flags |= F_FMT_GROUP;
	} else if (v->kind == K_READ_ALL) {
		g.fmt = FMT_ALL;
		flags |= F_FMT_ALL;
	}
	g.want = group_size(g.fmt, v->n);
	if (g.want > (ssize_t)(GROUP_WORDS * sizeof(uint64_t)) ||
	    open_counters(v->who, v->n, fd, flags))
		return 1;
	return time_subs(op_read, &g, ops, subs);
}

/*
 * The chain set: a page fault taken CHAIN_DEPTH calls deep, sampled
 * with a chain of that depth. The batch's records stay in the queue or
 * ring (CHAIN_RING bytes, sized for a batch: no reader is timed); a
 * batch that loses one fails rather than time a cheaper path.
 */
#define CHAIN_DEPTH	16
#define CHAIN_RING	(1 << 20)

struct chain_run {
	char *page;		/* the page each fault is taken on */
	int fd;
	struct perf_event_mmap_page *ring;	/* perf_events' */
};

static int __attribute__((noipa)) chain_fault(char *page, int level)
{
	if (level > 1)
		return chain_fault(page, level - 1) + 1;
	if (madvise(page, 4096, MADV_DONTNEED))
		return -1000;
	page[0] = 1;
	return 0;
}

static int op_chain(void *arg)
{
	const struct chain_run *c = arg;

	return chain_fault(c->page, CHAIN_DEPTH) != CHAIN_DEPTH - 1;
}

static int open_chain(enum who who, struct chain_run *c)
{
	c->fd = -1;
	if (who == OURS) {
		struct perf_counter_hw_event_ext d;
		uint32_t bytes = CHAIN_RING;

		memset(&d, 0, sizeof(d));
		d.hw.size = sizeof(d);
		d.hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							PERF_COUNT_PAGE_FAULTS);
		d.hw.irq_period = 1;
		d.hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_CALLCHAIN;
		d.hw.exclude_kernel = 1;
		d.hw.disabled = 1;
		d.callchain_depth = CHAIN_DEPTH;
		c->fd = syscall(__NR_perf_counter_open, &d, 0, -1, -1, 0);
		if (c->fd < 0 ||
		    ioctl(c->fd, PERF_COUNTER_IOC_QUEUE_SIZE, &bytes) ||
		    ioctl(c->fd, PERF_COUNTER_IOC_ENABLE, 0))
			return -1;
	} else if (who == THEIRS) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
		attr.sample_max_stack = CHAIN_DEPTH;
		attr.exclude_kernel = 1;
		attr.exclude_callchain_kernel = 1;
		c->fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
		if (c->fd < 0)
			return -1;
		c->ring = mmap(NULL, CHAIN_RING + 4096, PROT_READ | PROT_WRITE,
			       MAP_SHARED, c->fd, 0);
		if (c->ring == MAP_FAILED)
			return -1;
	}
	return 0;
}

/* Did the batch lose a sample? (Then it timed the cheaper path.) */
static int chain_lost(enum who who, const struct chain_run *c)
{
	uint64_t lost = 0;

	if (who == OURS)
		return ioctl(c->fd, PERF_COUNTER_IOC_LOST, &lost) || lost;
	if (who == THEIRS)
		return __atomic_load_n(&c->ring->data_head, __ATOMIC_ACQUIRE) >
		       CHAIN_RING - 4096;
	return 0;
}

static int run_chain(const struct variant *v, long ops, int subs)
{
	struct chain_run c;

	c.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.page == MAP_FAILED || open_chain(v->who, &c)) {
		printf("pc-bench: chain: %s: %s\n", who_name[v->who],
		       strerror(errno));
		return 1;
	}
	if (time_subs(op_chain, &c, ops, subs))
		return 1;
	if (chain_lost(v->who, &c)) {
		printf("pc-bench: chain: %s lost samples: the batch is too long\n",
		       who_name[v->who]);
		return 1;
	}
	return 0;
}

/*
 * The offcpu set (see the top): the round trip of switch (c), each task
 * with a counter of its own that writes a record at each switch-out. A
 * queue or ring is emptied between sub-batches, untimed, by its task:
 * the timer's by the timer, the echo's by the echo when the timer sends
 * it OFF_DRAIN for one round trip.
 */
#define OFF_RING	(1 << 20)	/* bytes of each queue and ring */
#define OFF_STACK	32		/* user stack words of ours' records */
#define OFF_DEPTH	PERF_COUNTER_CHAIN_DEPTH_DEFAULT	/* 127 */
#define OFF_PERIOD	1000000000ULL	/* 1 s of task-clock: never runs out */
#define OFF_DRAIN	'd'		/* to the echo: empty yours, then echo */

static long tp_switch_id = -1;	/* sched:sched_switch's id, from tracefs */

/* What a task's counter wrote, as its drains found it. */
struct off_recs {
	long long out, in;	/* switch-out records (samples), switch-in */
	long long out_bytes;	/* bytes of the switch-out records */
	long long plain;	/* ours: SWITCH_OUT, without a chain */
	long long lost;
};

/* One task's end of the round trip: its counter and what it wrote. */
struct off_end {
	const struct variant *v;
	int fd;
	struct perf_event_mmap_page *ring;	/* perf_events' */
	struct off_recs recs;
};

static int off_open(struct off_end *e)
{
	struct perf_event_attr attr;

	e->fd = -1;
	e->ring = NULL;
	memset(&e->recs, 0, sizeof(e->recs));
	if (e->v->who == NONE)
		return 0;
	if (e->v->who == OURS) {
		struct perf_counter_hw_event_ext d;
		uint32_t bytes = OFF_RING;
		int fl;

		memset(&d, 0, sizeof(d));
		d.hw.size = sizeof(d);
		d.hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							PERF_COUNT_TASK_CLOCK);
		d.hw.irq_period = OFF_PERIOD;
		d.hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_CALLCHAIN;
		d.hw.exclude_kernel = 1;
		d.hw.context_switch = 1;
		d.hw.disabled = 1;
		d.callchain_depth = OFF_DEPTH;
		d.switch_out = PERF_SWITCH_OUT_CHAIN;
		d.switch_stack = OFF_STACK;
		e->fd = syscall(__NR_perf_counter_open, &d, 0, -1, -1, 0);
		if (e->fd < 0)
			return -1;
		fl = fcntl(e->fd, F_GETFL);
		if (fl < 0 || fcntl(e->fd, F_SETFL, fl | O_NONBLOCK) ||
		    ioctl(e->fd, PERF_COUNTER_IOC_QUEUE_SIZE, &bytes))
			return -1;
		return ioctl(e->fd, PERF_COUNTER_IOC_ENABLE, 0);
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (e->v->kind == K_OFFCPU_SWITCH) {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_TASK_CLOCK;
		attr.sample_period = OFF_PERIOD;
		attr.sample_type |= PERF_SAMPLE_IP;
		attr.sample_id_all = 1;
		attr.exclude_kernel = 1;
		attr.context_switch = 1;
	} else {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tp_switch_id;
		attr.sample_period = 1;
		attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		attr.sample_max_stack = OFF_DEPTH;
		attr.exclude_callchain_kernel = 1;
	}
	e->fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (e->fd < 0)
		return -1;
	e->ring = mmap(NULL, getpagesize() + OFF_RING, PROT_READ | PROT_WRITE,
		       MAP_SHARED, e->fd, 0);
	if (e->ring == MAP_FAILED) {
		e->ring = NULL;
		return -1;
	}
	return ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
}

static uint64_t off_buf[8192];	/* a drain's read()s of our queue */

/* Our queue emptied: read() until it would wait. */
static int off_drain_ours(struct off_end *e)
{
	const struct perf_counter_record_header *h;
	uint64_t lost;
	ssize_t got, at;

	for (;;) {
		got = read(e->fd, off_buf, sizeof(off_buf));
		if (got <= 0)
			return got < 0 && errno != EAGAIN ? -1 : 0;
		for (at = 0; at < got; at += h->size) {
			h = (const void *)((const char *)off_buf + at);
			if (h->size < sizeof(*h) || h->size > got - at)
				return -1;
			if (h->type == PERF_COUNTER_REC_SWITCH_OUT_CHAIN) {
				e->recs.out++;
				e->recs.out_bytes += h->size;
			} else if (h->type == PERF_COUNTER_REC_SWITCH_IN) {
				e->recs.in++;
			} else if (h->type == PERF_COUNTER_REC_SWITCH_OUT) {
				e->recs.plain++;
			} else if (h->type == PERF_COUNTER_REC_LOST) {
				memcpy(&lost, h + 1, sizeof(lost));
				e->recs.lost += lost;
			}
		}
	}
}

/* A perf_events ring emptied: its records counted, data_tail moved on. */
static int off_drain_theirs(struct off_end *e)
{
	struct perf_event_mmap_page *r = e->ring;
	const char *data = (const char *)r + r->data_offset;
	uint64_t head = __atomic_load_n(&r->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->data_tail, mask = r->data_size - 1, lost;
	int tp = e->v->kind == K_OFFCPU_TP;
	const struct perf_event_header *h;

	/* (a header, 8 bytes at a multiple of 8, never wraps) */
	for (; tail < head; tail += h->size) {
		h = (const void *)(data + (tail & mask));
		if (h->size < sizeof(*h))
			return -1;
		if ((tp && h->type == PERF_RECORD_SAMPLE) ||
		    (h->type == PERF_RECORD_SWITCH &&
		     (h->misc & PERF_RECORD_MISC_SWITCH_OUT))) {
			e->recs.out++;
			e->recs.out_bytes += h->size;
		} else if (h->type == PERF_RECORD_SWITCH) {
			e->recs.in++;
		} else if (h->type == PERF_RECORD_LOST) {
			/* after the header: id, then lost */
			memcpy(&lost, data + ((tail + 16) & mask), sizeof(lost));
			e->recs.lost += lost;
		}
	}
	__atomic_store_n(&r->data_tail, head, __ATOMIC_RELEASE);
	return 0;
}

static int off_drain(struct off_end *e)
{
	if (e->v->who == OURS)
		return off_drain_ours(e);
	if (e->v->who == THEIRS)
		return off_drain_theirs(e);
	return 0;
}

/* The last drain, and the drops our queue counted: 0 or -1. */
static int off_finish(struct off_end *e)
{
	uint64_t lost = 0;

	if (off_drain(e))
		return -1;
	if (e->v->who == OURS) {
		if (ioctl(e->fd, PERF_COUNTER_IOC_LOST, &lost))
			return -1;
		if ((long long)lost > e->recs.lost)
			e->recs.lost = lost;
	}
	return 0;
}

/*
 * The echo: its own counter, every byte back, OFF_DRAIN after emptying
 * its queue or ring; at the end of file, what its counter wrote.
 */
static int off_echo(const struct variant *v, int in, int out)
{
	struct off_end e = { .v = v };
	ssize_t got;
	char c;

	if (off_open(&e))
		return 1;
	while ((got = read(in, &c, 1)) == 1) {
		if (c == OFF_DRAIN && off_drain(&e))
			return 1;
		if (write(out, &c, 1) != 1)
			return 1;
	}
	if (got || off_finish(&e))
		return 1;
	return write(out, &e.recs, sizeof(e.recs)) != sizeof(e.recs);
}

/* The timer's end, for off_between(). */
static struct off_end off_timer;
static struct ends off_pipe;

/* Between sub-batches: the timer's records, then the echo's. */
static int off_between(void)
{
	char c = OFF_DRAIN;

	if (off_drain(&off_timer))
		return 1;
	return write(off_pipe.out, &c, 1) != 1 || read(off_pipe.in, &c, 1) != 1;
}

/*
 * An offcpu batch: the runner times, its child echoes. Every switch-out
 * must have written its record: round trips (the drains' included) with
 * fewer switch-out records than themselves, or a record lost, fail the
 * batch rather than time a cheaper path. What was written goes to
 * shm->rec: switch-out and switch-in records a round trip, bytes of a
 * switch-out record.
 */
static int run_offcpu(const struct variant *v, long ops, int subs)
{
	long long trips = plan->warm + ops * subs + subs + 1;
	struct off_recs echo, *r = &off_timer.recs;
	int to[2], from[2], err;
	pid_t pid;

	if (pipe(to) || pipe(from))
		return 1;
	pid = fork();
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		_exit(off_echo(v, to[0], from[1]));
	}
	close(to[0]);
	close(from[1]);
	off_timer.v = v;
	off_pipe = (struct ends){ to[1], from[0] };
	if (off_open(&off_timer)) {
		printf("pc-bench: offcpu: %s: %s\n", who_name[v->who],
		       strerror(errno));
		return 1;
	}
	between_subs = off_between;
	err = time_subs(op_round_trip, &off_pipe, ops, subs);
	between_subs = NULL;
	close(to[1]);
	if (!err && read(from[0], &echo, sizeof(echo)) != sizeof(echo))
		err = 1;
	if (wait_ok(pid) || off_finish(&off_timer) || err)
		return 1;
	r->out += echo.out;
	r->in += echo.in;
	r->out_bytes += echo.out_bytes;
	r->plain += echo.plain;
	r->lost += echo.lost;
	if (v->who != NONE && (r->lost || r->out < trips)) {
		printf("pc-bench: offcpu: %s: %lld records lost, %lld switch-out records (%lld without a chain) for %lld round trips\n",
		       who_name[v->who], r->lost, r->out, r->plain, trips);
		return 1;
	}
	shm->rec[0] = (double)r->out / trips;
	shm->rec[1] = (double)r->in / trips;
	shm->rec[2] = r->out ? (double)r->out_bytes / r->out : 0;
	return 0;
}

/* sched:sched_switch's id from tracefs, mounted if need be; or -1. */
static long tp_lookup(void)
{
	static const char path[] =
		"/sys/kernel/tracing/events/sched/sched_switch/id";
	long id = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f && !mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL))
		f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

static void describe(const struct variant *v, char *buf, size_t len)
{
	static const char * const kind_name[] = {
		"null call", "read", "group read", "group read, id and times",
		"pipe, two children", "pipe, parent and child",
		"pipe ring of tasks", "fork",
		"self-read, task-clock", "self-read, page-faults",
		"sampled fault, 16-deep chain", "pipe, switch-out chains",
		"pipe, PERF_RECORD_SWITCH", "pipe, sched_switch samples, chains",
	};

	if (v->kind == K_PIPE_RING)
		snprintf(buf, len, "%s, %s, %d tasks, %d own counters each",
			 kind_name[v->kind], who_name[v->who], v->n,
			 v->who == NONE ? 0 : RING_N);
	else
		snprintf(buf, len, "%s, %s, %d %s counters", kind_name[v->kind],
			 who_name[v->who], v->n, v->own ? "own" : "inherited");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The value at fraction @p of the sorted @v, interpolated. */
static double quantile(const double *v, int n, double p)
{
	double pos = p * (n - 1);
	int i = (int)pos;

	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static int raw;		/* PC_BENCH_RAW set: every sub-batch printed */

/*
 * One batch of @v in a fresh process, @subs sub-batches of @ops: ns per
 * operation, the sub-batches' plan->sub_q quantile (0: the fastest), or
 * -1.
 */
static double measure(const struct variant *v, long ops, int subs)
{
	double sub[MAX_SUB];
	char what[96];
	pid_t pid;
	int err, k;

	for (k = 0; k < subs; k++)
		shm->sub[k] = -1;
	memset(shm->rec, 0, sizeof(shm->rec));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		switch (v->kind) {
		case K_NULL:
			_exit(time_subs(op_null, NULL, ops, subs));
		case K_READ:
		case K_READ_FMT:
		case K_READ_ALL:
			_exit(run_read(v, ops, subs));
		case K_PIPE_KIDS:
		case K_PIPE_PARENT:
			_exit(run_pipe(v, ops, subs));
		case K_PIPE_RING:
			_exit(run_ring(v, ops, subs));
		case K_FORK:
			_exit(run_fork(v, ops, subs));
		case K_SELF_CLOCK:
		case K_SELF_FAULTS:
			_exit(run_self(v, ops, subs));
		case K_CHAIN:
			_exit(run_chain(v, ops, subs));
		case K_OFFCPU:
		case K_OFFCPU_SWITCH:
		case K_OFFCPU_TP:
			_exit(run_offcpu(v, ops, subs));
		}
		_exit(1);
	}
	err = wait_ok(pid);
	for (k = 0; k < subs; k++) {
		sub[k] = shm->sub[k];
		err |= sub[k] <= 0;
	}
	if (err) {
		describe(v, what, sizeof(what));
		printf("pc-bench: the batch of %s failed\n", what);
		return -1;
	}
	if (raw) {
		describe(v, what, sizeof(what));
		printf("PC-RAW %s|%ld|", what, ops);
		for (k = 0; k < subs; k++)
			printf(" %.0f", sub[k]);
		printf("\n");
	}
	qsort(sub, subs, sizeof(*sub), cmp_double);
	return quantile(sub, subs, plan->sub_q);
}

/*
 * A figure: perf_counter's variant over perf_events', less the base's
 * time in both (ADDED), or as they are (PLAIN); UNITS is one variant in
 * units of another (@ours over @theirs), for the null-call units.
 */
enum fig_type { ADDED, PLAIN, UNITS };

struct stats {
	double med, q1, q3, iqr;	/* iqr: per cent of |med| */
};

struct figure {
	const char *key;	/* in the PC-BENCH lines */
	const char *label;
	enum fig_type type;
	int n;
	int ours, theirs, base;	/* variant indices */
	struct stats ratio;
	double ns[3];		/* medians: ours, theirs, base */
};

struct set {
	const char *name;
	int ran;		/* measured: this run of pc-bench has it */
	int nv, nf;
	struct variant v[MAX_VARS];
	struct figure f[MAX_FIGS];
};

/* Index of the variant, added if the set does not have it yet. */
static int var_of(struct set *s, enum op kind, enum who who, int own,
		  int n, int hw)
{
	int i;

	if (who == NONE || kind == K_NULL) {
		own = 0;
		hw = 0;
		if (kind != K_PIPE_RING)	/* its N: tasks, not counters */
			n = 0;
	}
	for (i = 0; i < s->nv; i++)
		if (s->v[i].kind == kind && s->v[i].who == who &&
		    s->v[i].own == own && s->v[i].n == n && s->v[i].hw == hw)
			return i;
	if (s->nv == MAX_VARS) {
		fprintf(stderr, "pc-bench: more than %d variants in %s\n",
			MAX_VARS, s->name);
		exit(1);
	}
	s->v[s->nv] = (struct variant){ .kind = kind, .who = who, .own = own,
					.n = n, .hw = hw };
	return s->nv++;
}

static int var(struct set *s, enum op kind, enum who who, int own, int n)
{
	return var_of(s, kind, who, own, n, 0);
}

static void fig(struct set *s, const char *key, const char *label,
		enum fig_type type, int n, int ours, int theirs, int base)
{
	if (s->nf == MAX_FIGS) {
		fprintf(stderr, "pc-bench: more than %d figures in %s\n",
			MAX_FIGS, s->name);
		exit(1);
	}
	s->f[s->nf++] = (struct figure){ .key = key, .label = label,
					 .type = type, .n = n, .ours = ours,
					 .theirs = theirs, .base = base };
}

static void stats_of(const double *in, int n, struct stats *st)
{
	double v[MAX_ROUNDS], m;

	memcpy(v, in, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	st->med = quantile(v, n, 0.5);
	st->q1 = quantile(v, n, 0.25);
	st->q3 = quantile(v, n, 0.75);
	m = st->med < 0 ? -st->med : st->med;
	st->iqr = m ? 100 * (st->q3 - st->q1) / m : 1e9;
}

static double median_of(const double *v, int n)
{
	struct stats st;

	stats_of(v, n, &st);
	return st.med;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned int rand_below(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* @order: 0 .. @n - 1 in a new random order (Fisher-Yates). */
static void shuffle(int *order, int n)
{
	int i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = rand_below(i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/*
 * Size every variant's sub-batches to about sub_ms and its batch to
 * about batch_ms, from a trial batch (which warms it up too).
 */
static int calibrate(struct set *s)
{
	int i;

	for (i = 0; i < s->nv; i++) {
		struct variant *v = &s->v[i];
		long trial;
		double ns;

		switch (v->kind) {
		case K_NULL:
		case K_SELF_CLOCK:
		case K_SELF_FAULTS:
			trial = 200;
			break;
		case K_READ:
		case K_READ_FMT:
		case K_READ_ALL:
			trial = 20;
			break;
		case K_FORK:
			trial = 1;
			break;
		default:
			trial = 5;
		}
		ns = measure(v, trial, 5);
		if (ns < 0)
			return -1;
		v->ops = plan->sub_ms * 1e6 / ns;
		if (v->ops < 1)
			v->ops = 1;
		v->subs = plan->batch_ms * 1e6 / (ns * v->ops);
		if (v->subs < 3)
			v->subs = 3;
		if (v->subs > MAX_SUB)
			v->subs = MAX_SUB;
	}
	return 0;
}

static void print_fig(const struct figure *f)
{
	int miss = f->ratio.iqr >= IQR_TARGET;

	if (f->type == UNITS) {
		printf("  %-44s %9.0f ns = %7.1f null calls (%.0f ns)  IQR %5.1f%%%s\n",
		       f->label, f->ns[0], f->ratio.med, f->ns[1], f->ratio.iqr,
		       miss ? "  MISS" : "");
		printf("PC-BENCH units %s %d %.4f %.4f %.4f %.2f %s %.0f %.0f\n",
		       f->key, f->n, f->ratio.med, f->ratio.q1, f->ratio.q3,
		       f->ratio.iqr, miss ? "miss" : "ok", f->ns[0], f->ns[1]);
		return;
	}
	if (f->type == ADDED)
		printf("  %-44s %2d %+11.0f ns %+11.0f ns", f->label, f->n,
		       f->ns[0] - f->ns[2], f->ns[1] - f->ns[2]);
	else
		printf("  %-44s %2d %12.0f ns %12.0f ns", f->label, f->n,
		       f->ns[0], f->ns[1]);
	printf(" %7.2f %6.1f%%%s\n", f->ratio.med, f->ratio.iqr,
	       miss ? "  MISS" : "");
	printf("PC-BENCH fig %s %d %.4f %.4f %.4f %.2f %s %.0f %.0f %.0f\n",
	       f->key, f->n, f->ratio.med, f->ratio.q1, f->ratio.q3,
	       f->ratio.iqr, miss ? "miss" : "ok", f->ns[0], f->ns[1],
	       f->type == ADDED ? f->ns[2] : 0);
}

/* Measure a set in shuffled rounds, then work out its figures. */
static int run_set(struct set *s)
{
	int order[MAX_VARS], r, i;
	uint64_t t0 = now_ns();

	if (calibrate(s))
		return -1;
	for (r = 0; r < plan->rounds; r++) {
		shuffle(order, s->nv);
		for (i = 0; i < s->nv; i++) {
			struct variant *v = &s->v[order[i]];

			v->ns[r] = measure(v, v->ops, v->subs);
			if (v->ns[r] < 0)
				return -1;
			memcpy(v->rec, shm->rec, sizeof(v->rec));
		}
	}
	for (i = 0; i < s->nf; i++) {
		struct figure *f = &s->f[i];
		const double *o = s->v[f->ours].ns, *t = s->v[f->theirs].ns;
		const double *b = f->base >= 0 ? s->v[f->base].ns : NULL;
		double ratio[MAX_ROUNDS];

		for (r = 0; r < plan->rounds; r++) {
			if (f->type == ADDED)
				ratio[r] = (o[r] - b[r]) / (t[r] - b[r]);
			else
				ratio[r] = o[r] / t[r];
		}
		stats_of(ratio, plan->rounds, &f->ratio);
		f->ns[0] = median_of(o, plan->rounds);
		f->ns[1] = median_of(t, plan->rounds);
		f->ns[2] = b ? median_of(b, plan->rounds) : 0;
	}
	printf("PC-BENCH time %s %.1f\n", s->name, (now_ns() - t0) / 1e9);
	s->ran = 1;
	return 0;
}

static void print_head(const char *title)
{
	printf("\n%s\n  %-44s %2s %15s %15s %7s %7s\n", title, "", "N",
	       who_name[OURS], who_name[THEIRS], "ratio", "IQR");
}

static struct set sw_set = { .name = "switch" };
static struct set fork_set = { .name = "fork" };
static struct set read_set = { .name = "read" };
static struct set keys_set = { .name = "keys" };
static struct set self_set = { .name = "self" };
static struct set chain_set = { .name = "chain" };
static struct set off_set = { .name = "offcpu" };

/*
 * Whether both subsystems count hardware events here (POWER8 under
 * QEMU does; TCG's x86 PMUs do not): then the switch and read sets
 * measure hardware counters too, at the Ns a PMU holds at once.
 */
static int hw_ok;

static int hw_probe(void)
{
	/* one after the other: the two never hold the PMU at once */
	int ours = open_one(OURS, 0, -1, F_HW), theirs;

	if (ours >= 0)
		close(ours);
	theirs = open_one(THEIRS, 0, -1, F_HW);
	if (theirs >= 0)
		close(theirs);
	hw_ok = ours >= 0 && theirs >= 0;
	return hw_ok;
}

#define HW_MAX_N	4	/* hardware counters per task in the hw figures */

static void build_hw_figs(void)
{
	struct set *s = &sw_set;
	int i, n, none_kids = var(s, K_PIPE_KIDS, NONE, 0, 0);

	for (i = 0; i < plan->nr_ns && plan->ns[i] <= HW_MAX_N; i++) {
		n = plan->ns[i];
		fig(s, "switch-a-hw", "(a) inherited, hardware counters",
		    ADDED, n, var_of(s, K_PIPE_KIDS, OURS, 0, n, 1),
		    var_of(s, K_PIPE_KIDS, THEIRS, 0, n, 1), none_kids);
		fig(s, "switch-c-hw", "(c) own, hardware counters",
		    ADDED, n, var_of(s, K_PIPE_KIDS, OURS, 1, n, 1),
		    var_of(s, K_PIPE_KIDS, THEIRS, 1, n, 1), none_kids);
	}
	s = &read_set;
	for (i = 0; i < plan->nr_ns && plan->ns[i] <= HW_MAX_N; i++) {
		n = plan->ns[i];
		fig(s, "read-hw", "read() of each of N hardware counters",
		    PLAIN, n, var_of(s, K_READ, OURS, 0, n, 1),
		    var_of(s, K_READ, THEIRS, 0, n, 1), -1);
		fig(s, "group-read-hw", "one GROUP read of N hardware counters",
		    PLAIN, n, var_of(s, K_READ_ALL, OURS, 0, n, 1),
		    var_of(s, K_READ_ALL, THEIRS, 0, n, 1), -1);
	}
}

static void build_sets(void)
{
	struct set *s = &sw_set;
	int i, n, none_kids, none_parent, null;

	null = var(s, K_NULL, NONE, 0, 0);
	none_kids = var(s, K_PIPE_KIDS, NONE, 0, 0);
	none_parent = var(s, K_PIPE_PARENT, NONE, 0, 0);
	for (i = 0; i < plan->nr_ns; i++) {
		n = plan->ns[i];
		if (n > 64)
			break;
		fig(s, "switch-b", "(b) inherited: the opener and its child",
		    ADDED, n, var(s, K_PIPE_PARENT, OURS, 0, n),
		    var(s, K_PIPE_PARENT, THEIRS, 0, n), none_parent);
	}
	for (i = 0; i < plan->nr_ns; i++) {
		n = plan->ns[i];
		fig(s, "switch-a", "(a) inherited: two children of the opener",
		    ADDED, n, var(s, K_PIPE_KIDS, OURS, 0, n),
		    var(s, K_PIPE_KIDS, THEIRS, 0, n), none_kids);
		fig(s, "switch-c", "(c) two children, each its own counters",
		    ADDED, n, var(s, K_PIPE_KIDS, OURS, 1, n),
		    var(s, K_PIPE_KIDS, THEIRS, 1, n), none_kids);
	}
	for (i = 0; i < plan->nr_ns; i++) {
		n = plan->ns[i];
		if (n < 4 || n > 64)
			continue;
		fig(s, "switch-tasks", "(e) a ring of N tasks, 4 own counters each",
		    ADDED, n, var(s, K_PIPE_RING, OURS, 1, n),
		    var(s, K_PIPE_RING, THEIRS, 1, n),
		    var(s, K_PIPE_RING, NONE, 1, n));
	}
	fig(s, "keys-on-kids", "round trip, two children, keys on",
	    UNITS, 0, none_kids, null, -1);
	fig(s, "keys-on-parent", "round trip, parent and child, keys on",
	    UNITS, 0, none_parent, null, -1);

	s = &fork_set;
	none_kids = var(s, K_FORK, NONE, 0, 0);
	for (i = 0; i < plan->nr_ns; i++) {
		n = plan->ns[i];
		fig(s, "fork", "fork+exit+wait, N inherited counters", ADDED,
		    n, var(s, K_FORK, OURS, 0, n), var(s, K_FORK, THEIRS, 0, n),
		    none_kids);
	}

	s = &read_set;
	null = var(s, K_NULL, NONE, 0, 0);
	for (i = 0; i < plan->nr_ns; i++) {
		n = plan->ns[i];
		fig(s, "read", "read() of each of a group's N", PLAIN, n,
		    var(s, K_READ, OURS, 0, n), var(s, K_READ, THEIRS, 0, n),
		    -1);
		fig(s, "read-vs-group", "... against one PERF_FORMAT_GROUP read",
		    PLAIN, n, var(s, K_READ, OURS, 0, n),
		    var(s, K_READ_FMT, THEIRS, 0, n), -1);
		fig(s, "group-read", "one PERF_FORMAT_GROUP read of N, both sides",
		    PLAIN, n, var(s, K_READ_ALL, OURS, 0, n),
		    var(s, K_READ_ALL, THEIRS, 0, n), -1);
	}

	s = &chain_set;
	fig(s, "chain", "a page fault, its 16-deep user chain sampled",
	    ADDED, CHAIN_DEPTH, var(s, K_CHAIN, OURS, 0, 1),
	    var(s, K_CHAIN, THEIRS, 0, 1), var(s, K_CHAIN, NONE, 0, 0));

	s = &off_set;
	none_kids = var(s, K_OFFCPU, NONE, 0, 0);
	n = var(s, K_OFFCPU, OURS, 1, 1);
	fig(s, "offcpu-switch", "switch-out chains vs PERF_RECORD_SWITCH",
	    ADDED, 1, n, var(s, K_OFFCPU_SWITCH, THEIRS, 1, 1), none_kids);
	fig(s, "offcpu-tp", "switch-out chains vs sched_switch chains",
	    ADDED, 1, n, var(s, K_OFFCPU_TP, THEIRS, 1, 1), none_kids);

	s = &keys_set;
	null = var(s, K_NULL, NONE, 0, 0);
	fig(s, "keys-off-kids", "round trip, two children",
	    UNITS, 0, var(s, K_PIPE_KIDS, NONE, 0, 0), null, -1);
	fig(s, "keys-off-parent", "round trip, parent and child",
	    UNITS, 0, var(s, K_PIPE_PARENT, NONE, 0, 0), null, -1);

	s = &self_set;
	null = var(s, K_NULL, NONE, 0, 0);
	fig(s, "self-clock", "task-clock from its page", UNITS, 1,
	    var(s, K_SELF_CLOCK, OURS, 1, 1), null, -1);
	fig(s, "self-faults", "page-faults from its page", UNITS, 1,
	    var(s, K_SELF_FAULTS, OURS, 1, 1), null, -1);
}

/*
 * Counters of both subsystems on a helper that sleeps: every static key
 * of the hooks stays on while the sets run, in the variants without
 * counters too. Returns the helper's pid, or -1.
 */
static pid_t keys_on(void)
{
	int ready[2], fd[8];
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (open_counters(OURS, 4, fd, 0) ||
		    open_counters(THEIRS, 4, fd + 4, 0))
			_exit(1);
		if (write(ready[1], "k", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		printf("pc-bench: the helper holding the keys on failed\n");
		if (pid > 0)
			waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/* Memory: the kinds of counter measured, and the snapshots taken. */
enum mem_kind {
	M_COUNT, M_SAMPLE, M_SAMPLE_4K, M_SAMPLE_UNUSED, M_INHERIT, NR_MEM
};

static const struct {
	const char *key, *label;
	unsigned int flags;
} mem_kinds[NR_MEM] = {
	{ "count", "counting", 0 },
	{ "sample", "sampling (ours: 64 KiB queue)", F_SAMPLE },
	{ "sample-4k", "sampling, our queue at 4 KiB", F_SAMPLE | F_QUEUE_4K },
	{ "sample-unused", "sampling, opened disabled, before use",
	  F_SAMPLE | F_UNUSED },
	{ "inherit", "inherited copy (counting)", F_INHERIT },
};

/* Write "1" to @path; 0 or -1. */
static int poke(const char *path)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -1;
	err = fputs("1", f) < 0;
	return fclose(f) || err ? -1 : 0;
}

/*
 * Kernel memory in use, two ways: out[1], pages: Slab + Percpu +
 * VmallocUsed of /proc/meminfo; out[0], bytes: the same with the slab
 * caches' pages (/proc/slabinfo's slabs) replaced by their objects in
 * use (active objects x object size), which a slab's free room does not
 * blur; what Slab holds beyond the caches' pages (kmalloc()s of more
 * than 8 KiB, our 64 KiB queues) stays in. Every slab cache is shrunk
 * first (its per-CPU slabs flushed, its empty slabs freed: the counts
 * are then of what is in use) and the per-CPU counts are folded into
 * /proc/meminfo's (vm.stat_refresh).
 */
static int mem_snap(long long out[2])
{
	unsigned long active, num, size, per_slab, pages, slabs;
	long long kb, objects = 0, cache_pages = 0;
	char line[512], name[64];
	struct dirent *e;
	DIR *d;
	FILE *f;

	d = opendir("/sys/kernel/slab");
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(line, sizeof(line), "/sys/kernel/slab/%s/shrink",
				 e->d_name);
			poke(line);
		}
	closedir(d);
	/* (it fails, and warns, only if it finds a count below zero) */
	poke("/proc/sys/vm/stat_refresh");
	out[1] = 0;
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if ((sscanf(line, "Slab: %lld", &kb) == 1 ||
		     sscanf(line, "Percpu: %lld", &kb) == 1 ||
		     sscanf(line, "VmallocUsed: %lld", &kb) == 1))
			out[1] += kb * 1024;
	fclose(f);
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	/* name active num objsize per-slab pages : tunables ... : slabdata */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %*u %lu",
			   name, &active, &num, &size, &per_slab, &pages,
			   &slabs) == 7) {
			objects += (long long)active * size;
			cache_pages += (long long)slabs * pages * getpagesize();
		}
	fclose(f);
	out[0] = out[1] - cache_pages + objects;
	return 0;
}

/*
 * In a fresh process: memory before and after opening @n counters of
 * @who (M_INHERIT: the counters are opened first, and what is measured
 * is a fork of a child that sleeps). The difference goes to shm->mem.
 */
static int mem_run(enum mem_kind kind, enum who who, int n)
{
	struct rlimit rl = { n + 64, n + 64 };
	long long before[2], after[2];
	int *fd = calloc(n, sizeof(*fd)), i;
	unsigned int flags = mem_kinds[kind].flags;
	pid_t child = -1;

	if (!fd || setrlimit(RLIMIT_NOFILE, &rl))
		return 1;
	if (kind == M_INHERIT && open_counters(who, n, fd, flags))
		return 1;
	/* what the last runner freed after RCU grace periods is freed */
	usleep(300000);
	if (mem_snap(before))
		return 1;
	if (kind == M_INHERIT) {
		child = fork();
		if (child == 0) {
			for (;;)
				pause();
		}
		usleep(50000);
	} else if (open_counters(who, n, fd, flags)) {
		return 1;
	}
	if (mem_snap(after))
		return 1;
	for (i = 0; i < 2; i++)
		shm->mem[i] = after[i] - before[i];
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return 0;
}

static int mem_measure(enum mem_kind kind, enum who who, int n,
		       long long out[2])
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(mem_run(kind, who, n));
	if (wait_ok(pid)) {
		printf("pc-bench: memory of %s, %s failed\n",
		       mem_kinds[kind].key, who_name[who]);
		return -1;
	}
	out[0] = shm->mem[0];
	out[1] = shm->mem[1];
	return 0;
}

/*
 * Bytes per counter, median of mem_reps, in rounds of every kind and
 * side in a shuffled order. An inherited copy is a fork with copies
 * less a fork without.
 */
static int mem_set(void)
{
	double v[NR_MEM][NR_WHO][2][MAX_ROUNDS];
	int r, i, k, w, m, n = plan->mem_n, reps = plan->mem_reps;
	int order[NR_MEM * NR_WHO];
	long long d[2];
	uint64_t t0 = now_ns();

	printf("\nmemory per counter: Slab + Percpu + VmallocUsed of /proc/meminfo\n"
	       "(pages), and the same with the slab caches' pages counted as their\n"
	       "objects in use (/proc/slabinfo: bytes), every slab cache shrunk\n"
	       "first, before and after opening n counters (an inherited copy:\n"
	       "forking a child of a task with n inherited counters, less a fork\n"
	       "without), over n; the median of %d. perf_events' sampling counters\n"
	       "have no buffer until mmap(); ours get a 64 KiB queue at the open,\n"
	       "4 KiB at the least.\n",
	       reps);
	for (r = 0; r < reps; r++) {
		shuffle(order, NR_MEM * NR_WHO);
		for (i = 0; i < NR_MEM * NR_WHO; i++) {
			k = order[i] / NR_WHO;
			w = order[i] % NR_WHO;
			/* a fork without counters only, as the inherited's base */
			if (w == NONE && k != M_INHERIT)
				continue;
			if (mem_measure(k, w, n, d))
				return -1;
			for (m = 0; m < 2; m++)
				v[k][w][m][r] = d[m];
		}
	}
	printf("  %-32s %5s %14s %14s %7s   %s\n", "", "n", "perf_counter",
	       "perf_events", "ratio", "pages: ours, theirs");
	for (k = 0; k < NR_MEM; k++) {
		double b[NR_WHO][2];

		for (w = OURS; w < NR_WHO; w++)
			for (m = 0; m < 2; m++) {
				double base = k == M_INHERIT ?
					median_of(v[k][NONE][m], reps) : 0;

				b[w][m] = (median_of(v[k][w][m], reps) - base) / n;
			}
		printf("  %-32s %5d %12.0f B %12.0f B %7.2f   %.0f B, %.0f B\n",
		       mem_kinds[k].label, n, b[OURS][0], b[THEIRS][0],
		       b[THEIRS][0] ? b[OURS][0] / b[THEIRS][0] : 0,
		       b[OURS][1], b[THEIRS][1]);
		printf("PC-BENCH mem %s %d %.0f %.0f %.4f %.0f %.0f\n",
		       mem_kinds[k].key, n, b[OURS][0], b[THEIRS][0],
		       b[THEIRS][0] ? b[OURS][0] / b[THEIRS][0] : 0,
		       b[OURS][1], b[THEIRS][1]);
	}
	printf("PC-BENCH time memory %.1f\n", (now_ns() - t0) / 1e9);
	return 0;
}

static int has_fig(const struct set *s, const char *key)
{
	int j;

	for (j = 0; j < s->nf; j++)
		if (!strcmp(s->f[j].key, key))
			return 1;
	return 0;
}

/* The scale table: a row per measurement, N across. */
static void print_scale(void)
{
	static const struct {
		struct set *set;
		const char *key, *label;
	} rows[] = {
		{ &sw_set, "switch-a", "switch (a) inherited, two children" },
		{ &sw_set, "switch-c", "switch (c) own counters, two children" },
		{ &sw_set, "switch-tasks", "switch (e) ring of N tasks, 4 each" },
		{ &fork_set, "fork", "fork+exit+wait, N inherited" },
		{ &read_set, "read", "read() of each of a group's N" },
		{ &read_set, "read-vs-group", "... against PERF_FORMAT_GROUP" },
		{ &read_set, "group-read", "one PERF_FORMAT_GROUP read, both" },
		{ &sw_set, "switch-a-hw", "switch (a), hardware counters" },
		{ &sw_set, "switch-c-hw", "switch (c), hardware counters" },
		{ &read_set, "read-hw", "read() of each, hardware" },
		{ &read_set, "group-read-hw", "one GROUP read, hardware" },
	};
	int r, i, j;

	if (!sw_set.ran && !fork_set.ran && !read_set.ran)
		return;
	printf("\nscale: perf_counter / perf_events (IQR)");
	for (i = 0; i < plan->nr_ns; i++)
		printf("%*sN=%-2d", i ? 11 : 4, "", plan->ns[i]);
	printf("\n");
	for (r = 0; r < (int)ARRAY_SIZE(rows); r++) {
		if (!rows[r].set->ran || !has_fig(rows[r].set, rows[r].key))
			continue;
		printf("  %-38s", rows[r].label);
		for (i = 0; i < plan->nr_ns; i++)
			for (j = 0; j < rows[r].set->nf; j++) {
				const struct figure *f = &rows[r].set->f[j];

				if (strcmp(f->key, rows[r].key) ||
				    f->n != plan->ns[i])
					continue;
				printf(" %6.2f (%4.1f%%)", f->ratio.med,
				       f->ratio.iqr);
			}
		printf("\n");
	}
}

/* The offcpu set's figures, and what each variant's records were. */
static void print_offcpu(void)
{
	static const char * const rec_name[] = {
		[K_OFFCPU] = "perf_counter, SWITCH_OUT_CHAIN",
		[K_OFFCPU_SWITCH] = "perf_events, PERF_RECORD_SWITCH",
		[K_OFFCPU_TP] = "perf_events, sched_switch samples",
	};
	int i;

	print_head("offcpu: switch (c)'s round trip, a record at each switch-out, cost added");
	for (i = 0; i < off_set.nf; i++)
		print_fig(&off_set.f[i]);
	printf("  records a round trip, both tasks' (last batch): switch-out, switch-in\n");
	for (i = 0; i < off_set.nv; i++) {
		const struct variant *v = &off_set.v[i];

		if (v->who == NONE)
			continue;
		printf("    %-38s %5.2f (%4.0f B each) %5.2f\n",
		       rec_name[v->kind], v->rec[0], v->rec[2], v->rec[1]);
	}
}

static int nr_figs, nr_misses, keys_only;

/* Figures that miss the IQR target, listed once more at the end. */
static void print_misses(void)
{
	struct set *sets[] = { &keys_set, &sw_set, &fork_set, &read_set,
			       &self_set, &chain_set, &off_set };
	int i, j;

	printf("\nIQR target %.0f%%:", IQR_TARGET);
	for (i = 0; i < (int)ARRAY_SIZE(sets); i++)
		for (j = 0; sets[i]->ran && j < sets[i]->nf; j++) {
			const struct figure *f = &sets[i]->f[j];

			nr_figs++;
			if (f->ratio.iqr < IQR_TARGET)
				continue;
			printf("%s %s N=%d (%.0f%%)", nr_misses ? "," : "",
			       f->key, f->n, f->ratio.iqr);
			nr_misses++;
		}
	printf(nr_misses ? " miss it\n" : " every figure meets it\n");
}

/* --set NAME: the set run alone, or NULL for all of them. */
static const char *only;

static const char * const set_names[] = {
	"keys", "switch", "fork", "read", "self", "chain", "offcpu", "memory",
};

static int want(const char *name)
{
	return !only || !strcmp(only, name);
}

static int parse_args(int argc, char **argv)
{
	int i, j;

	if (argc == 2 && !strcmp(argv[1], "--keys-only")) {
		keys_only = 1;
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--short")) {
			plan = &short_plan;
			continue;
		}
		if (strcmp(argv[i], "--set") || i + 1 == argc)
			return -1;
		only = argv[++i];
		for (j = 0; j < (int)ARRAY_SIZE(set_names); j++)
			if (!strcmp(only, set_names[j]))
				break;
		if (j == ARRAY_SIZE(set_names))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct set *sets[] = { &sw_set, &fork_set, &read_set, &self_set,
			       &chain_set, &off_set };
	uint64_t t0 = now_ns();
	pid_t helper = -1;
	cpu_set_t one;
	int i;

	if (parse_args(argc, argv)) {
		fprintf(stderr, "usage: pc-bench [--short] [--set keys|switch|fork|read|self|chain|offcpu|memory]\n"
			"       pc-bench --keys-only\n");
		return 2;
	}
	raw = !!getenv("PC_BENCH_RAW");
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		return 1;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		perror("sched_setaffinity");
	build_sets();

	printf("pc-bench%s: %d rounds in a shuffled order, a batch of about %.0f ms\n"
	       "per variant a round, every task pinned to CPU 0; a batch gives the\n"
	       "fastest of its 1 ms sub-batches. ns: the guest's clock (under\n"
	       "QEMU -icount, instructions). ratio: the median over the rounds of\n"
	       "perf_counter / perf_events, of the cost the counters add (switch,\n"
	       "fork, chain, offcpu) or of the whole call (read); IQR: the\n"
	       "interquartile range of the rounds' ratios, per cent of the median\n"
	       "(MISS: %.0f%% or more).\n",
	       plan == &short_plan ? " --short" : "", plan->rounds,
	       plan->batch_ms, IQR_TARGET);
	printf("PC-BENCH plan rounds=%d batch_ms=%.0f short=%d ns=",
	       plan->rounds, plan->batch_ms, plan == &short_plan);
	for (i = 0; i < plan->nr_ns; i++)
		printf("%s%d", i ? "," : "", plan->ns[i]);
	if (only)
		printf(" set=%s", only);
	printf("\n");

	/* (d) first, while nothing has opened a counter yet */
	if (want("keys")) {
		sleep(2);
		if (run_set(&keys_set))
			return 1;
		printf("\n(d) no counter open anywhere, the static keys off:\n");
		for (i = 0; i < keys_set.nf; i++)
			print_fig(&keys_set.f[i]);
	}
	if (keys_only) {
		for (i = 0; i < keys_set.nf; i++)
			nr_misses += keys_set.f[i].ratio.iqr >= IQR_TARGET;
		printf("PC-BENCH end figures=%d misses=%d seconds=%.0f\n",
		       keys_set.nf, nr_misses, (now_ns() - t0) / 1e9);
		return 0;
	}
	/* after (d): the probe's counters turn keys on */
	if (hw_probe())
		build_hw_figs();
	printf("hardware counters: %s\n", hw_ok ?
	       "both subsystems count: switch and read measure them too" :
	       "not counting here (software counters only)");
	if (want("offcpu")) {
		tp_switch_id = tp_lookup();
		if (tp_switch_id < 0) {
			printf("pc-bench: offcpu: no sched:sched_switch in /sys/kernel/tracing\n");
			return 1;
		}
	}

	for (i = 0; i < (int)ARRAY_SIZE(sets); i++) {
		if (!want(sets[i]->name))
			continue;
		if (helper < 0)
			helper = keys_on();
		if (helper < 0 || run_set(sets[i])) {
			if (helper > 0)
				kill(helper, SIGKILL);
			return 1;
		}
	}
	if (helper > 0) {
		kill(helper, SIGKILL);
		waitpid(helper, NULL, 0);
	}

	if (sw_set.ran) {
		print_head("switch: pipe round trip on CPU 0, cost added over none (keys on)");
		for (i = 0; i < sw_set.nf; i++)
			if (sw_set.f[i].type == ADDED)
				print_fig(&sw_set.f[i]);
		for (i = 0; i < sw_set.nf; i++)
			if (sw_set.f[i].type == UNITS)
				print_fig(&sw_set.f[i]);
	}
	if (fork_set.ran) {
		print_head("fork: fork + exit + wait, cost added over none (keys on)");
		for (i = 0; i < fork_set.nf; i++)
			print_fig(&fork_set.f[i]);
	}
	if (read_set.ran) {
		print_head("read: a group's N counters, whole calls");
		for (i = 0; i < read_set.nf; i++)
			print_fig(&read_set.f[i]);
		printf("  a null call (getppid()): %.0f ns\n",
		       median_of(read_set.v[0].ns, plan->rounds));
		printf("  read_format: read-vs-group's GROUP alone (perf_events); group-read's\n"
		       "  GROUP, ID, TOTAL_TIME_ENABLED and TOTAL_TIME_RUNNING on both sides\n");
	}
	if (self_set.ran) {
		printf("\nself: the caller's own counter from its counter page (task-clock: and\n"
		       "a clock_gettime(), a vDSO call where the clocksource allows)\n");
		for (i = 0; i < self_set.nf; i++)
			print_fig(&self_set.f[i]);
	}
	if (chain_set.ran) {
		print_head("chain: a sampled page fault with its user call chain, cost added");
		for (i = 0; i < chain_set.nf; i++)
			print_fig(&chain_set.f[i]);
	}
	if (off_set.ran)
		print_offcpu();
	print_scale();

	if (want("memory") && mem_set())
		return 1;
	print_misses();
	printf("PC-BENCH end figures=%d misses=%d seconds=%.0f\n", nr_figs,
	       nr_misses, (now_ns() - t0) / 1e9);
	return 0;
}
