// SPDX-License-Identifier: GPL-2.0
/*
 * pc-demo: count a real workload with perf_counter.
 *
 * A child waits until every counter is attached to it (inherit=1, so its
 * own children count too), then touches memory, forks, sleeps and
 * computes. The parent prints each counter's value, time enabled and
 * time running, beside 6.1's perf_events counting the same events.
 * "pc-demo --workload" runs the workload alone: make run counts it with
 * perf-counter stat and profiles it with perf-counter record and report.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>
#include <linux/perf_event.h>

#ifndef __NR_perf_counter_open
#define __NR_perf_counter_open 451
#endif

static const struct {
	const char *name;
	unsigned int ours;
	uint64_t theirs;
} events[] = {
	{ "task-clock (ns)",	PERF_COUNT_TASK_CLOCK,	PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock (ns)",	PERF_COUNT_CPU_CLOCK,	PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults",	PERF_COUNT_PAGE_FAULTS,	PERF_COUNT_SW_PAGE_FAULTS },
	{ "page-faults-min",	PERF_COUNT_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults-maj",	PERF_COUNT_PAGE_FAULTS_MAJ, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches",	PERF_COUNT_CONTEXT_SWITCHES, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PERF_COUNT_CPU_MIGRATIONS, PERF_COUNT_SW_CPU_MIGRATIONS },
};
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_EVENTS ARRAY_SIZE(events)

/* memory: 4096 fresh pages, a fault each */
static void touch_memory(void)
{
	size_t len = 16 << 20;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		for (size_t off = 0; off < len; off += 4096)
			p[off] = 1;
		munmap(p, len);
	}
}

/* forks: 20 children that each touch a little memory */
static void fork_children(void)
{
	int i, status;

	for (i = 0; i < 20; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char buf[64 << 10];

			memset(buf, i, sizeof(buf));
			_exit(buf[100] != i);
		}
		waitpid(pid, &status, 0);
	}
}

/*
 * compute: primes below @limit by trial division, the profile's top
 * line (not static, so that it stays a function of its own)
 */
unsigned long count_primes(unsigned long limit);
unsigned long count_primes(unsigned long limit)
{
	unsigned long n, d, sum = 0;

#if defined(__i386__) || defined(__x86_64__)
	/*
	 * For make run's flame graph: gcc 12 gives a leaf that needs no
	 * stack no frame even with -mno-omit-leaf-frame-pointer, and the
	 * call chains of its samples would lose its caller; asking for the
	 * frame's address puts the frame in.
	 */
	__asm__ volatile("" : : "r"(__builtin_frame_address(0)));
#endif

	for (n = 2; n < limit; n++) {
		for (d = 2; d * d <= n; d++)
			if (n % d == 0)
				break;
		if (d * d > n)
			sum++;
	}
	return sum;
}

/*
 * Wait until @pid sleeps (in its read() of the go pipe): a counter
 * opened while it still runs its way there counts that too, the first
 * opened the most, and its clock comes out ahead of the others' and of
 * perf_events'. 0, or -1 if it never does within 10 s.
 */
static int wait_asleep(pid_t pid)
{
	char path[64], line[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 10000; i++) {
		FILE *f = fopen(path, "r");

		if (!f)
			return -1;
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (p && p[1] == ' ' && p[2] == 'S')
			return 0;
		usleep(1000);
	}
	return -1;
}

static void workload(void)
{
	touch_memory();
	fork_children();
	/* sleep: 50 ms off the CPU */
	usleep(50000);
	printf("pc-demo: the child found %lu primes below 200000\n",
	       count_primes(200000));
}

int main(int argc, char **argv)
{
	int ours[NR_EVENTS], theirs[NR_EVENTS], go[2], status;
	uint64_t v[3], pe;
	unsigned int i;
	char c = 0;
	pid_t pid;

	/* the workload alone, for perf-counter stat and record to count */
	if (argc > 1 && !strcmp(argv[1], "--workload")) {
		workload();
		return 0;
	}
	if (pipe(go))
		return 1;
	pid = fork();
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		workload();
		_exit(0);
	}
	if (wait_asleep(pid)) {
		fprintf(stderr, "pc-demo: the child never waited for its start\n");
		return 1;
	}

	for (i = 0; i < NR_EVENTS; i++) {
		struct perf_counter_hw_event hw;
		struct perf_event_attr attr;

		memset(&hw, 0, sizeof(hw));
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						      events[i].ours);
		hw.inherit = 1;
		hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING;
		ours[i] = syscall(__NR_perf_counter_open, &hw, pid, -1, -1, 0);
		if (ours[i] < 0) {
			perror("perf_counter_open");
			return 1;
		}

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = events[i].theirs;
		attr.inherit = 1;
		theirs[i] = syscall(__NR_perf_event_open, &attr, pid, -1, -1, 0);
	}

	if (write(go[1], &c, 1) != 1)
		return 1;
	waitpid(pid, &status, 0);

	printf("\npc-demo: counters on pid %d and its children (inherit=1)\n\n",
	       pid);
	printf("  %-18s %16s %14s %14s   %16s\n", "counter", "value",
	       "enabled (ns)", "running (ns)", "perf_events");
	for (i = 0; i < NR_EVENTS; i++) {
		if (read(ours[i], v, sizeof(v)) != sizeof(v))
			return 1;
		if (theirs[i] < 0 || read(theirs[i], &pe, sizeof(pe)) != sizeof(pe))
			pe = 0;
		printf("  %-18s %16llu %14llu %14llu   %16llu\n", events[i].name,
		       (unsigned long long)v[0], (unsigned long long)v[1],
		       (unsigned long long)v[2], (unsigned long long)pe);
	}
	printf("\n");
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}
