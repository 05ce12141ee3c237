// SPDX-License-Identifier: GPL-2.0
/*
 * pc-bench: perf_counter against 6.1's perf_events, in the same boot.
 *
 * Each measurement runs in 11 interleaved rounds — none, perf_counter
 * and perf_events, the order turning each round so none always follows
 * another — and reports the median, so drift in the emulator hits all
 * three alike. Absolute times under QEMU TCG mean
 * little; the ratios are the result.
 *
 *   read:      read() of a task-clock counter, against getppid()
 *   pipe:      a one-byte pipe round trip between two tasks on one CPU,
 *              with 4 inherited software counters on both
 *   fork:      fork + exit + wait with 4 inherited software counters
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>
#include <linux/perf_event.h>

#ifndef __NR_perf_counter_open
#define __NR_perf_counter_open 451
#endif

#define ROUNDS	11
#define NR_CTRS	4

enum who { NONE, OURS, THEIRS, NR_WHO };
static const char * const who_name[NR_WHO] = {
	"no counters", "perf_counter", "perf_events"
};

static const unsigned int sw_ours[NR_CTRS] = {
	PERF_COUNT_TASK_CLOCK, PERF_COUNT_CONTEXT_SWITCHES,
	PERF_COUNT_PAGE_FAULTS, PERF_COUNT_CPU_MIGRATIONS,
};
static const uint64_t sw_theirs[NR_CTRS] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int open_counter(enum who who, int i, int inherit)
{
	if (who == OURS) {
		struct perf_counter_hw_event hw;

		memset(&hw, 0, sizeof(hw));
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						      sw_ours[i]);
		hw.inherit = inherit;
		return syscall(__NR_perf_counter_open, &hw, 0, -1, -1, 0);
	}

	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = sw_theirs[i];
	attr.inherit = inherit;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Open NR_CTRS counters of @who on the caller; fd[] gets -1 for NONE. */
static int attach(enum who who, int fd[NR_CTRS], int inherit)
{
	int i;

	for (i = 0; i < NR_CTRS; i++) {
		fd[i] = who == NONE ? -1 : open_counter(who, i, inherit);
		if (who != NONE && fd[i] < 0) {
			perror(who_name[who]);
			return -1;
		}
	}
	return 0;
}

static void detach(int fd[NR_CTRS])
{
	int i;

	for (i = 0; i < NR_CTRS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp_u64);
	return v[ROUNDS / 2];
}

/* ns per getppid(), or per read() of @who's task-clock counter. */
static uint64_t time_read(enum who who, int loops)
{
	uint64_t t0, v;
	int fd = who == NONE ? -1 : open_counter(who, 0, 0), i;

	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		if (fd < 0)
			syscall(__NR_getppid);
		else if (read(fd, &v, sizeof(v)) != sizeof(v))
			return 0;
	}
	t0 = now_ns() - t0;
	if (fd >= 0)
		close(fd);
	return t0 / loops;
}

/* ns per pipe round trip, both tasks pinned to CPU 0. */
static uint64_t time_pipe(enum who who, int loops)
{
	int to[2], from[2], fd[NR_CTRS], i, status;
	uint64_t t0;
	char c = 0;
	pid_t pid;

	if (pipe(to) || pipe(from) || attach(who, fd, 1))
		return 0;
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < loops; i++)
			if (read(to[0], &c, 1) != 1 || write(from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	t0 = now_ns();
	for (i = 0; i < loops; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
	t0 = now_ns() - t0;
	waitpid(pid, &status, 0);
	detach(fd);
	close(to[0]);
	close(to[1]);
	close(from[0]);
	close(from[1]);
	return t0 / loops;
}

/* ns per fork + exit + wait. */
static uint64_t time_fork(enum who who, int loops)
{
	int fd[NR_CTRS], i, status;
	uint64_t t0;

	if (attach(who, fd, 1))
		return 0;
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, &status, 0);
	}
	t0 = now_ns() - t0;
	detach(fd);
	return t0 / loops;
}

static void run(const char *what, uint64_t (*fn)(enum who, int), int loops,
		uint64_t med[NR_WHO])
{
	uint64_t v[NR_WHO][ROUNDS];
	int r, w;

	for (r = 0; r < ROUNDS; r++)
		for (w = 0; w < NR_WHO; w++) {
			enum who who = (w + r) % NR_WHO;

			v[who][r] = fn(who, loops);
		}
	for (w = 0; w < NR_WHO; w++)
		med[w] = median(v[w]);
	printf("  %-6s %14llu %14llu %14llu ns\n", what,
	       (unsigned long long)med[NONE], (unsigned long long)med[OURS],
	       (unsigned long long)med[THEIRS]);
}

/*
 * One line: perf_counter's and perf_events' figure, and their ratio. A
 * figure is either the time over the baseline (@added) or the time in
 * units of the baseline.
 */
static void ratio(const char *what, uint64_t ours, uint64_t theirs,
		  uint64_t base, int added)
{
	double a, b;

	if (added) {
		a = (double)((int64_t)(ours - base));
		b = (double)((int64_t)(theirs - base));
		printf("  %-48s perf_counter %+8.0f ns  perf_events %+8.0f ns",
		       what, a, b);
	} else {
		a = (double)ours / base;
		b = (double)theirs / base;
		printf("  %-48s perf_counter %8.2fx    perf_events %8.2fx   ",
		       what, a, b);
	}
	printf("  ours/theirs %.2f\n", b ? a / b : 0.0);
}

int main(void)
{
	uint64_t rd[NR_WHO], pp[NR_WHO], fk[NR_WHO];
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		perror("sched_setaffinity");

	printf("pc-bench: medians of %d interleaved rounds, pinned to CPU 0\n\n",
	       ROUNDS);
	printf("  %-6s %14s %14s %14s\n", "", who_name[NONE], who_name[OURS],
	       who_name[THEIRS]);
	run("read", time_read, 20000, rd);
	run("pipe", time_pipe, 4000, pp);
	run("fork", time_fork, 200, fk);

	printf("\n");
	ratio("read() of a counter, in null calls", rd[OURS], rd[THEIRS],
	      rd[NONE], 0);
	ratio("pipe round trip, added by 4 inherited counters", pp[OURS],
	      pp[THEIRS], pp[NONE], 1);
	ratio("fork+exit+wait, added by 4 inherited counters", fk[OURS],
	      fk[THEIRS], fk[NONE], 1);
	printf("\n");
	return 0;
}
