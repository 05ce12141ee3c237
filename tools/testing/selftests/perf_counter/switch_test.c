// SPDX-License-Identifier: GPL-2.0
/*
 * Context-switch records: a counter with the context_switch bit gets a
 * SWITCH_OUT record each time its task leaves the CPU and a SWITCH_IN
 * record each time it comes back; a CPU-wide counter's records also name
 * the task on the other side of the switch.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

struct sw_rec {
	struct perf_counter_record_header h;
	struct perf_counter_switch s;
};

static struct sw_rec recs[8192];
static char buf[1 << 16];

/* The harness forks each test: write the buffers in the test's process. */
FIXTURE(switches) {
};

FIXTURE_SETUP(switches)
{
	cpu_set_t one;

	memset(recs, 0, sizeof(recs));
	memset(buf, 0, sizeof(buf));
	CPU_ZERO(&one);
	CPU_SET(0, &one);	/* one CPU: every round trip switches */
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
}

FIXTURE_TEARDOWN(switches)
{
}

static int open_switches(pid_t pid, int cpu, unsigned int id)
{
	struct perf_counter_hw_event hw = pc_sw(id, 0);

	hw.context_switch = 1;
	return sys_perf_counter_open(&hw, pid, cpu, -1, 0);
}

/*
 * All waiting switch records, in order; -1 if anything else is there or
 * the read that ends it fails with anything but EAGAIN.
 */
static int drain(int fd)
{
	int n = 0;
	ssize_t len, off;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len; ) {
			struct sw_rec *r = (void *)(buf + off);

			if (r->h.type != PERF_COUNTER_REC_SWITCH_OUT &&
			    r->h.type != PERF_COUNTER_REC_SWITCH_IN)
				return -1;
			if (n < 8192)
				memcpy(&recs[n++], r, r->h.size);
			off += r->h.size;
		}
	}
	if (len == 0 || errno != EAGAIN)
		return -1;
	return n;
}

TEST_F(switches, task_records_pair_up_in_a_ping_pong)
{
	int fd = open_switches(0, -1, PERF_COUNT_PAGE_FAULTS);
	uint64_t prev_time = 0;
	int n, i, out = 0, in = 0;

	ASSERT_GE(fd, 0);
	pc_ping_pong(200);
	n = drain(fd);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		struct sw_rec *r = &recs[i];

		/* a task counter's records name only the task itself */
		ASSERT_EQ(24, r->h.size);
		EXPECT_EQ(getpid(), (pid_t)r->s.pid);
		EXPECT_EQ(gettid(), (pid_t)r->s.tid);
		EXPECT_GE(r->s.time, prev_time);
		prev_time = r->s.time;
		/* out, in, out, in ...: never two of a kind in a row */
		if (i)
			EXPECT_NE(recs[i - 1].h.type, r->h.type);
		out += r->h.type == PERF_COUNTER_REC_SWITCH_OUT;
		in += r->h.type == PERF_COUNTER_REC_SWITCH_IN;
	}
	TH_LOG("%d records: %d out, %d in", n, out, in);
	EXPECT_EQ(PERF_COUNTER_REC_SWITCH_OUT, recs[0].h.type);
	EXPECT_GE(out, 200);
	EXPECT_LE(out - in, 1);
	EXPECT_GE(out - in, 0);
	close(fd);
}

TEST_F(switches, disabled_counter_writes_no_records)
{
	int fd = open_switches(0, -1, PERF_COUNT_TASK_CLOCK);

	ASSERT_GE(fd, 0);
	/* the control: enabled, it writes a record for each switch */
	pc_ping_pong(50);
	/*
	 * Disabled before it is drained: a switch between a drain and the
	 * disable (the reaped child, a kworker) is a record of its own,
	 * written while still enabled (seen on a 740).
	 */
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_GE(drain(fd), 100);
	pc_ping_pong(50);
	EXPECT_EQ(0, drain(fd));
	close(fd);
}

TEST_F(switches, cpu_wide_records_name_both_tasks)
{
	int fd = open_switches(-1, 0, PERF_COUNT_CPU_CLOCK);
	int n, i, pairs = 0, child_in = 0, parent_in = 0;
	pid_t child;

	ASSERT_GE(fd, 0);
	child = pc_ping_pong(100);
	n = drain(fd);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		struct sw_rec *r = &recs[i];

		ASSERT_EQ(32, r->h.size);
		if (r->h.type == PERF_COUNTER_REC_SWITCH_IN) {
			child_in += (pid_t)r->s.tid == child;
			parent_in += (pid_t)r->s.tid == gettid();
		}
		if (i && r->h.type == PERF_COUNTER_REC_SWITCH_IN &&
		    recs[i - 1].h.type == PERF_COUNTER_REC_SWITCH_OUT) {
			/* out (A, next B) is followed by in (B, prev A) */
			EXPECT_EQ(recs[i - 1].s.other_tid, r->s.tid);
			EXPECT_EQ(recs[i - 1].s.tid, r->s.other_tid);
			pairs += ((pid_t)r->s.tid == child &&
				  (pid_t)r->s.other_tid == gettid()) ||
				 ((pid_t)r->s.tid == gettid() &&
				  (pid_t)r->s.other_tid == child);
		}
	}
	TH_LOG("%d records, %d switches between the two", n, pairs);
	/* Each side blocks in read() once a round at least. */
	EXPECT_GE(child_in, 100);
	EXPECT_GE(parent_in, 100);
	/*
	 * Nearly every one of the 200 hand-offs goes straight from one to
	 * the other; on one CPU a kworker or the idle task may come between
	 * a few of them.
	 */
	EXPECT_GE(pairs, 190);
	close(fd);
}

TEST_F(switches, inherited_counter_records_the_childrens_switches)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	int fd, n, i, theirs = 0;
	pid_t child;

	hw.context_switch = 1;
	hw.inherit = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	child = pc_ping_pong(100);
	n = drain(fd);
	for (i = 0; i < n; i++)
		theirs += (pid_t)recs[i].s.pid == child &&
			  recs[i].h.type == PERF_COUNTER_REC_SWITCH_OUT;
	EXPECT_GE(theirs, 99);
	close(fd);
}

/* What clock_samples_come_before_the_switch_out has read so far. */
struct order_scan {
	int	samples, outs, misplaced, lost;
	bool	off_cpu;	/* between a SWITCH_OUT and its SWITCH_IN */
	bool	bad;		/* a malformed record, or a read error */
};

/* Read every waiting record, without blocking, into @st. */
static void scan_order(int fd, struct order_scan *st)
{
	ssize_t len, off;

	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len; ) {
			struct perf_counter_record_header *h = (void *)(buf + off);

			if (h->size < 8 || off + h->size > len) {
				st->bad = true;
				return;
			}
			if (h->type == PERF_COUNTER_REC_SWITCH_OUT) {
				st->off_cpu = true;
				st->outs++;
			} else if (h->type == PERF_COUNTER_REC_SWITCH_IN) {
				st->off_cpu = false;
			} else if (h->type == PERF_COUNTER_REC_SAMPLE) {
				st->samples++;
				st->misplaced += st->off_cpu;
			} else if (h->type == PERF_COUNTER_REC_LOST) {
				st->lost++;
			}
			off += h->size;
		}
	}
	if (len == 0 || errno != EAGAIN)
		st->bad = true;
}

/*
 * A task-clock sampler that also records switches: the task is off the
 * CPU from its switch-out to its switch-in, so no sample lies between
 * the two; the periods that ran out before a switch come before its
 * record. Each round spins 1 ms (five periods of 200 us) and then
 * blocks; the records are read every round, so that the queue never
 * fills (a one-CPU PowerMac ran 3 s of task-clock, and at 50 us
 * periods a 1 MB queue read at the end dropped switch records; read
 * every round, those samples took it past 30 s).
 */
TEST_F_TIMEOUT(switches, clock_samples_come_before_the_switch_out, 120)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 1);
	int to[2], from[2], i, fd;
	struct order_scan st = { 0 };
	uint32_t size = 1 << 20;
	char c = 0;
	pid_t pid;

	hw.irq_period = 200000;
	hw.record_type = PERF_RECORD_TIME;
	hw.context_switch = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	ASSERT_EQ(0, pipe(to));
	ASSERT_EQ(0, pipe(from));
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 200; i++)
			if (read(to[0], &c, 1) != 1 || write(from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	ASSERT_EQ(0, pc_enable(fd));
	for (i = 0; i < 200; i++) {
		pc_spin_ns(1000000);
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
		scan_order(fd, &st);
	}
	ASSERT_EQ(0, pc_disable(fd));
	waitpid(pid, NULL, 0);
	scan_order(fd, &st);
	TH_LOG("%d samples, %d switch-outs, %d samples while switched out, %d LOST records",
	       st.samples, st.outs, st.misplaced, st.lost);
	/*
	 * LOST records here are periods run out together (local_clock()
	 * steps 4 ms under TCG: one sample for 80 periods), not records
	 * dropped: the queue is read every round, far from full.
	 */
	EXPECT_FALSE(st.bad);
	EXPECT_GE(st.outs, 200);
	EXPECT_GE(st.samples, 200);		/* control: it sampled */
	EXPECT_EQ(0, st.misplaced);
	close(fd);
}

TEST_HARNESS_MAIN
