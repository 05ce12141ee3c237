/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perf_counter selftests.
 */
#ifndef _PC_UTIL_H
#define _PC_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_counter.h>
#include <linux/perf_event.h>

#ifndef __NR_perf_counter_open
#define __NR_perf_counter_open 451
#endif

static inline int sys_perf_counter_open(struct perf_counter_hw_event *hw,
					pid_t pid, int cpu, int group_fd,
					unsigned long flags)
{
	return syscall(__NR_perf_counter_open, hw, pid, cpu, group_fd, flags);
}

/* A software counter description; disabled if @disabled. */
static inline struct perf_counter_hw_event pc_sw(unsigned int id, int disabled)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, id);
	hw.disabled = disabled;
	return hw;
}

static inline int pc_open_sw(unsigned int id, pid_t pid, int cpu,
			     int group_fd)
{
	struct perf_counter_hw_event hw = pc_sw(id, 0);

	return sys_perf_counter_open(&hw, pid, cpu, group_fd, 0);
}

/* The 64-bit value of a counting counter, or -1 (as u64) on error. */
static inline uint64_t pc_read(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-1;
	return v;
}

static inline int pc_enable(int fd)
{
	return ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
}

static inline int pc_disable(int fd)
{
	return ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
}

/* 6.1's perf_event_open on the same event, for comparisons. */
static inline int pe_open_sw(uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	return syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

/* Burn CPU in user mode for about @loops iterations. */
static inline void pc_spin(unsigned long loops)
{
	unsigned long x = 0;

	while (loops--) {
		x += loops;
		__asm__ __volatile__("" : "+r" (x));	/* keep the loop */
	}
}

/* Touch @pages fresh anonymous pages: one minor fault each. */
static inline void pc_touch_pages(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, pages * psz);
}

/* Slab memory in use, kB, from /proc/meminfo. */
static inline long pc_slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

#endif
