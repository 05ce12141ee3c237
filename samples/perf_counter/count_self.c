// SPDX-License-Identifier: GPL-2.0
/*
 * count_self: count this program's own task clock and page faults with
 * perf_counter_open(), around a workload that touches PAGES fresh pages.
 *
 * Build it against the headers `make headers_install` installs; see
 * Documentation/userspace-api/perf_counter.rst for how to build it.
 *
 * It exits 0 when both counts are sane, 1 with a message otherwise.
 * It counts user mode only, so an unprivileged user may run it at the
 * default kernel.perf_event_paranoid (2).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_counter.h>

/*
 * <sys/syscall.h> takes the number from the installed <asm/unistd.h>.
 * It is 451 on x86_64, i386 and powerpc; mainline Linux 6.5 and later
 * give 451 to cachestat(), so run this only on a perf_counter kernel.
 */
#ifndef __NR_perf_counter_open
#error "no __NR_perf_counter_open: compile with -isystem <headers_install dir>/include"
#endif

#define PAGES	256	/* 1 MiB of 4 KiB pages, each faulted in once */

/* perf_counter_open() has no C library wrapper: call it by number. */
static int counter_open(struct perf_counter_hw_event *hw_event, pid_t pid,
			int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_counter_open, hw_event, pid, cpu, group_fd,
		       flags);
}

/*
 * One software counter on this task (pid 0) on any CPU (-1), in the
 * group of @group_fd, or leading a new one if it is -1. A leader starts
 * disabled: enabling it later starts the whole group at once.
 */
static int open_sw_counter(uint64_t event_id, int group_fd)
{
	struct perf_counter_hw_event hw_event;

	memset(&hw_event, 0, sizeof(hw_event));	/* reserved fields 0 */
	hw_event.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						    event_id);
	hw_event.disabled = group_fd == -1;
	hw_event.exclude_kernel = 1;
	return counter_open(&hw_event, 0, -1, group_fd, 0);
}

/* A counter's value: read() gives one __u64 with read_format 0. */
static int read_counter(int fd, const char *name, uint64_t *value)
{
	ssize_t n = read(fd, value, sizeof(*value));

	if (n != (ssize_t)sizeof(*value)) {
		fprintf(stderr, "count_self: read %s: %s\n", name,
			n < 0 ? strerror(errno) : "short read");
		return -1;
	}
	return 0;
}

int main(void)
{
	long page_size = sysconf(_SC_PAGESIZE);
	uint64_t clock_ns, faults;
	int clock_fd, faults_fd;
	char *mem;
	int i;

	clock_fd = open_sw_counter(PERF_COUNT_TASK_CLOCK, -1);
	if (clock_fd < 0) {
		fprintf(stderr, "count_self: perf_counter_open task-clock: %s\n",
			strerror(errno));
		return 1;
	}
	faults_fd = open_sw_counter(PERF_COUNT_PAGE_FAULTS, clock_fd);
	if (faults_fd < 0) {
		fprintf(stderr, "count_self: perf_counter_open page-faults: %s\n",
			strerror(errno));
		return 1;
	}

	mem = mmap(NULL, PAGES * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "count_self: mmap: %s\n", strerror(errno));
		return 1;
	}

	/* The workload: the first write to each page faults it in. */
	if (ioctl(clock_fd, PERF_COUNTER_IOC_ENABLE, 0)) {
		fprintf(stderr, "count_self: enable: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < PAGES; i++)
		mem[i * page_size] = 1;
	if (ioctl(clock_fd, PERF_COUNTER_IOC_DISABLE, 0)) {
		fprintf(stderr, "count_self: disable: %s\n", strerror(errno));
		return 1;
	}

	if (read_counter(clock_fd, "task-clock", &clock_ns) ||
	    read_counter(faults_fd, "page-faults", &faults))
		return 1;
	printf("count_self: touched %d pages: task-clock %" PRIu64
	       " ns, page-faults %" PRIu64 "\n", PAGES, clock_ns, faults);

	if (clock_ns == 0) {
		fprintf(stderr, "count_self: task-clock counted nothing\n");
		return 1;
	}
	if (faults < PAGES) {
		fprintf(stderr, "count_self: %" PRIu64 " page faults, fewer than the %d pages touched\n",
			faults, PAGES);
		return 1;
	}
	printf("count_self: ok\n");

	munmap(mem, PAGES * page_size);
	close(faults_fd);
	close(clock_fd);
	return 0;
}
