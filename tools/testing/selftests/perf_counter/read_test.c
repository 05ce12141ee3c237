// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counters together: PERF_FORMAT_GROUP (one read() of a leader
 * for its whole group, at one instant), counter ids (PERF_FORMAT_ID,
 * PERF_COUNTER_IOC_ID, PERF_RECORD_ID), the READ ioctl, and the TOTALS
 * records an inherit_stat counter gets as each task that counted on it
 * exits.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define GROUP_N		8
#define FMT_ALL		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP)

/* A group read with every field: nr, the times, then value and id. */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	struct {
		uint64_t value;
		uint64_t id;
	} cnt[GROUP_N];
};

static uint64_t counter_id(int fd)
{
	uint64_t id = 0;

	if (ioctl(fd, PERF_COUNTER_IOC_ID, &id))
		return 0;
	return id;
}

/*
 * Open @n software counters of @pid as one group, the leader reading
 * the group with every field and disabled until the group is whole.
 * @ids[i] gets each one's id. Returns 0 or -errno.
 */
static int open_group(const unsigned int *events, int n, pid_t pid,
		      int inherit, int *fd, uint64_t *ids)
{
	struct perf_counter_hw_event hw;
	int i;

	for (i = 0; i < n; i++) {
		hw = pc_sw(events[i], i == 0);
		hw.inherit = inherit;
		hw.read_format = i == 0 ? FMT_ALL : PERF_FORMAT_ID;
		fd[i] = sys_perf_counter_open(&hw, pid, -1, i ? fd[0] : -1, 0);
		if (fd[i] < 0)
			return -errno;
		ids[i] = counter_id(fd[i]);
	}
	return 0;
}

static void close_all(int *fd, int n)
{
	while (n--)
		close(fd[n]);
}

/* The leader is page-faults and so is the second: they must agree. */
static const unsigned int eight[GROUP_N] = {
	PERF_COUNT_PAGE_FAULTS, PERF_COUNT_PAGE_FAULTS,
	PERF_COUNT_TASK_CLOCK, PERF_COUNT_CPU_CLOCK,
	PERF_COUNT_CONTEXT_SWITCHES, PERF_COUNT_CPU_MIGRATIONS,
	PERF_COUNT_PAGE_FAULTS_MIN, PERF_COUNT_PAGE_FAULTS_MAJ,
};

/*
 * One read() of the leader of 8 software counters gives what 8 read()s
 * give while the group is disabled: the members' own reads exactly, the
 * leader's what its twin member counted; nr 8, every id the counter's
 * own (the ioctl's), all distinct and nonzero.
 */
TEST(group_read_of_eight_equals_eight_single_reads)
{
	int fd[GROUP_N], i, j;
	uint64_t ids[GROUP_N];
	struct group_read g, again;
	uint64_t v[3];

	ASSERT_EQ(0, open_group(eight, GROUP_N, 0, 0, fd, ids));
	ASSERT_EQ(0, pc_enable(fd[0]));
	pc_touch_pages(64);
	usleep(2000);			/* a context switch */
	pc_spin_ns(5000000);
	ASSERT_EQ(0, pc_disable(fd[0]));

	ASSERT_EQ(sizeof(g), read(fd[0], &g, sizeof(g)));
	EXPECT_EQ(GROUP_N, g.nr);
	EXPECT_GT(g.time_enabled, 0);
	EXPECT_EQ(g.time_enabled, g.time_running);
	for (i = 1; i < GROUP_N; i++) {
		ASSERT_EQ(2 * sizeof(uint64_t), read(fd[i], v, sizeof(v)));
		EXPECT_EQ(v[0], g.cnt[i].value);
		EXPECT_EQ(v[1], ids[i]);
		TH_LOG("counter %d: group %llu single %llu", i,
		       (unsigned long long)g.cnt[i].value,
		       (unsigned long long)v[0]);
	}
	EXPECT_EQ(g.cnt[1].value, g.cnt[0].value);
	EXPECT_GE(g.cnt[0].value, 64);
	EXPECT_GE(g.cnt[4].value, 1);	/* the sleep switched */
	for (i = 0; i < GROUP_N; i++) {
		EXPECT_EQ(ids[i], g.cnt[i].id);
		EXPECT_NE(0, ids[i]);
		for (j = 0; j < i; j++)
			EXPECT_NE(ids[j], ids[i]);
	}
	/* disabled: a second read is the same, word for word */
	ASSERT_EQ(sizeof(again), read(fd[0], &again, sizeof(again)));
	EXPECT_EQ(0, memcmp(&g, &again, sizeof(g)));
	close_all(fd, GROUP_N);
}

/*
 * The group's counts are taken at one instant: task-clock and cpu-clock
 * of one task, running together, differ by a constant (their starts)
 * when read together, where two reads in a row would differ by the time
 * between them. Over many reads of a running group the difference may
 * move by less than one tick.
 */
TEST(group_read_takes_its_counts_at_one_instant)
{
	static const unsigned int clocks[2] = {
		PERF_COUNT_TASK_CLOCK, PERF_COUNT_CPU_CLOCK,
	};
	long tick_ns = 1000000000L / sysconf(_SC_CLK_TCK);
	int64_t d, lo = INT64_MAX, hi = INT64_MIN;
	int fd[2], i;
	uint64_t ids[2];
	struct group_read g;

	ASSERT_EQ(0, open_group(clocks, 2, 0, 0, fd, ids));
	ASSERT_EQ(0, pc_enable(fd[0]));
	for (i = 0; i < 200; i++) {
		pc_spin(20000);
		ASSERT_EQ(3 * 8 + 2 * 16, read(fd[0], &g, sizeof(g)));
		d = (int64_t)(g.cnt[0].value - g.cnt[1].value);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	TH_LOG("task-clock - cpu-clock: %lld..%lld ns over 200 reads of %llu ns",
	       (long long)lo, (long long)hi,
	       (unsigned long long)g.cnt[0].value);
	EXPECT_GT(g.cnt[0].value, 0);
	EXPECT_LT(hi - lo, tick_ns);
	close_all(fd, 2);
}

/* Malformed group reads and ids are refused. */
TEST(group_read_rules)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	struct perf_counter_read_buf rb = { 0 };
	uint64_t buf[8], id;
	int leader, member;

	hw.read_format = PERF_FORMAT_GROUP << 1;	/* unknown */
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	hw.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	/* only a leader reads its group */
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	hw.read_format = 0;
	member = sys_perf_counter_open(&hw, 0, -1, leader, 0);
	ASSERT_GE(member, 0);
	/* nr, then two values and ids: 40 bytes; 32 do not hold them */
	EXPECT_EQ(-1, read(leader, buf, 32));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(40, read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);
	/* the READ ioctl: the same words, and its own rules */
	rb.addr = (uintptr_t)buf;
	rb.size = 32;
	EXPECT_EQ(-1, ioctl(leader, PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(ENOSPC, errno);
	rb.size = sizeof(buf);
	EXPECT_EQ(40, ioctl(leader, PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(2, buf[0]);
	EXPECT_EQ(counter_id(member), buf[4]);
	rb.__reserved = 1;
	EXPECT_EQ(-1, ioctl(leader, PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(EINVAL, errno);
	rb.__reserved = 0;
	rb.addr = 8;				/* not mapped */
	EXPECT_EQ(-1, ioctl(leader, PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(leader, PERF_COUNTER_IOC_ID, (uint64_t *)8));
	EXPECT_EQ(EFAULT, errno);
	/* closing the member leaves a group of one */
	id = counter_id(leader);
	close(member);
	EXPECT_EQ(24, read(leader, buf, sizeof(buf)));
	EXPECT_EQ(1, buf[0]);
	EXPECT_EQ(id, buf[2]);
	/* inherit_stat is for inherited counters, of tasks */
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	hw.inherit_stat = 1;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	hw.inherit = 1;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, -1, 0, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

struct totals {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t word[16];
};

/*
 * Read the records of @fd until none is left: TOTALS records into @out
 * (at most @max, each @words long after pid, tid and time); samples
 * (TID, then ID) counted in @samples, those whose id is not @id in
 * @wrong. Returns the TOTALS records seen, or -1 for a malformed record.
 */
static int drain(int fd, struct totals *out, int max, int words,
		 uint64_t id, int *samples, int *wrong)
{
	static uint64_t buf[8192];
	struct perf_counter_record_header *h;
	int n = 0;
	ssize_t got;
	size_t at;

	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		for (at = 0; at < (size_t)got; at += h->size) {
			h = (void *)((char *)buf + at);
			if (h->size < sizeof(*h) || h->size % 8)
				return -1;
			if (h->type == PERF_COUNTER_REC_TOTALS && n < max &&
			    h->size == sizeof(*h) + 16 + 8 * (size_t)words) {
				memcpy(&out[n], h + 1, 16 + 8 * words);
				n++;
			} else if (h->type == PERF_COUNTER_REC_SAMPLE &&
				   samples) {
				++*samples;
				if (((uint64_t *)(h + 1))[1] != id)
					++*wrong;
			}
		}
	}
	return n;
}

/*
 * The workload: forks four children that touch 100, 200, 300 and 400
 * fresh pages and exit, waits for them and exits itself.
 */
static void four_children(int unused)
{
	int i, status;
	pid_t pid;

	for (i = 1; i <= 4; i++) {
		pid = fork();
		if (pid == 0) {
			pc_touch_pages(100 * i);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			_exit(1);
	}
}

/*
 * inherit_stat: a group of task-clock and page-faults on a task that
 * forks four children touching 100..400 pages gets five TOTALS records
 * (the children and the task itself), each with the group's ids and
 * its task's own counts: each child's faults within its pages and
 * PC_CHILD_FAULTS, and the five sum to the group's total exactly. The
 * group read after every task has gone still holds both counters; the
 * counter's read() gives records, its values come from the READ ioctl.
 */
TEST(inherit_stat_totals_name_each_child_and_sum_to_the_total)
{
	static const unsigned int ev[2] = {
		PERF_COUNT_TASK_CLOCK, PERF_COUNT_PAGE_FAULTS,
	};
	struct perf_counter_hw_event hw;
	struct perf_counter_read_buf rb;
	struct totals t[8];
	struct pc_child child;
	struct group_read g;
	int fd[2], n, i, seen[5] = { 0 };
	uint64_t ids[2], sum = 0, lost = 1, sum_ms = 0;
	uint32_t qsize = 65536;

	ASSERT_EQ(0, pc_child_start(&child, four_children, 0));
	hw = pc_sw(ev[0], 1);
	hw.inherit = 1;
	hw.inherit_stat = 1;
	hw.read_format = FMT_ALL;
	fd[0] = sys_perf_counter_open(&hw, child.pid, -1, -1, 0);
	ASSERT_GE(fd[0], 0);
	ASSERT_EQ(0, ioctl(fd[0], PERF_COUNTER_IOC_QUEUE_SIZE, &qsize));
	hw = pc_sw(ev[1], 0);
	hw.inherit = 1;
	fd[1] = sys_perf_counter_open(&hw, child.pid, -1, fd[0], 0);
	ASSERT_GE(fd[1], 0);
	ids[0] = counter_id(fd[0]);
	ids[1] = counter_id(fd[1]);
	ASSERT_EQ(0, pc_enable(fd[0]));
	ASSERT_EQ(0, pc_child_finish(&child));

	/* nr, times, two values and ids: 7 words after pid/tid and time */
	n = drain(fd[0], t, 8, 7, 0, NULL, NULL);
	ASSERT_EQ(5, n);
	ASSERT_EQ(0, ioctl(fd[0], PERF_COUNTER_IOC_LOST, &lost));
	EXPECT_EQ(0, lost);
	for (i = 0; i < n; i++) {
		uint64_t faults = t[i].word[5];

		EXPECT_EQ(2, t[i].word[0]);
		EXPECT_EQ(ids[0], t[i].word[4]);
		EXPECT_EQ(ids[1], t[i].word[6]);
		EXPECT_EQ(t[i].pid, t[i].tid);
		sum += faults;
		sum_ms += t[i].word[3] / 1000000;
		TH_LOG("pid %u: %llu faults, %llu ns task-clock", t[i].pid,
		       (unsigned long long)faults,
		       (unsigned long long)t[i].word[3]);
		if (t[i].pid == (uint32_t)child.pid) {
			seen[0]++;
			EXPECT_LE(faults, PC_CHILD_FAULTS);
		} else if (i < 4) {
			/* the children exit in turn: 100..400 pages */
			seen[i + 1]++;
			EXPECT_GE(faults, 100 * (i + 1));
			EXPECT_LE(faults, 100 * (i + 1) + PC_CHILD_FAULTS);
		}
	}
	for (i = 0; i < 5; i++)
		EXPECT_EQ(1, seen[i]);
	/* the task's own record comes last, at its exit */
	EXPECT_EQ((uint32_t)child.pid, t[4].pid);

	/* read() gives records; the values come from the ioctl */
	rb = (struct perf_counter_read_buf){ .addr = (uintptr_t)&g,
					    .size = sizeof(g) };
	ASSERT_EQ(3 * 8 + 2 * 16, ioctl(fd[0], PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(2, g.nr);
	EXPECT_EQ(ids[0], g.cnt[0].id);
	EXPECT_EQ(ids[1], g.cnt[1].id);
	EXPECT_EQ(sum, g.cnt[1].value);
	TH_LOG("total %llu faults, the records' sum %llu; %llu ms",
	       (unsigned long long)g.cnt[1].value, (unsigned long long)sum,
	       (unsigned long long)sum_ms);
	/* the group stays whole after the exit: RESET reaches the member */
	ASSERT_EQ(0, ioctl(fd[0], PERF_COUNTER_IOC_RESET, 0));
	ASSERT_EQ(3 * 8 + 2 * 16, ioctl(fd[0], PERF_COUNTER_IOC_READ, &rb));
	EXPECT_EQ(0, g.cnt[0].value);
	EXPECT_EQ(0, g.cnt[1].value);
	close_all(fd, 2);
}

/*
 * PERF_RECORD_ID: every sample carries its counter's id, an inherited
 * copy's the same as its top-level counter's.
 */
TEST(samples_carry_the_counters_id)
{
	int fd, samples = 0, wrong = 0, status;
	uint64_t id;
	pid_t pid;

	fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1,
			     PERF_RECORD_TID | PERF_RECORD_ID, -1, 1);
	ASSERT_GE(fd, 0);
	pid = fork();
	if (pid == 0) {
		pc_touch_pages(16);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	pc_touch_pages(16);
	ASSERT_EQ(0, pc_disable(fd));
	id = counter_id(fd);
	EXPECT_NE(0, id);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(0, drain(fd, NULL, 0, 0, id, &samples, &wrong));
	EXPECT_GE(samples, 32);
	EXPECT_EQ(0, wrong);
	close(fd);
}

TEST_HARNESS_MAIN
