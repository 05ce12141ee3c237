/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pc_self.h: read a perf_counter from its counter page, without a
 * system call where the page allows, with read() where it does not.
 * Header-only: include it, with <linux/perf_counter.h> from the kernel's
 * exported headers on the include path.
 *
 *	int fd = perf_counter_open(&hw_event, 0, -1, -1, 0);
 *	struct pc_self self;
 *	struct pc_self_values v;
 *
 *	if (pc_self_map(&self, fd, hw_event.read_format) == 0)
 *		pc_self_read(&self, &v);	// v.value, and the times
 *	pc_self_unmap(&self);
 *
 * The page is the one struct perf_counter_page in the uapi header
 * describes, and Documentation/userspace-api/perf_counter.rst: only the
 * counter's own thread may use a register the page names. A read that
 * keeps meeting the kernel mid-update (PC_SELF_RETRIES times) or finds
 * the page cannot give the value asks read() instead.
 */
#ifndef _PC_SELF_H
#define _PC_SELF_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>

/* How often a read meets an update before it gives up on the page. */
#define PC_SELF_RETRIES		16

struct pc_self {
	int					fd;
	uint64_t				read_format;
	const struct perf_counter_page		*page;	/* NULL: read() */
};

struct pc_self_values {
	uint64_t	value;
	uint64_t	time_enabled;	/* read_format asked for it */
	uint64_t	time_running;	/* read_format asked for it */
};

/* How a pc_self_read() got its values. */
enum pc_self_how {
	PC_SELF_PAGE	= 0,	/* the page, no system call */
	PC_SELF_READ	= 1,	/* read(): the page could not give them */
};

/*
 * The page's loads in order (GCC and Clang): @seq before the rest, the
 * rest before @seq again. @seq itself is loaded once each time.
 */
#define pc_self_barrier()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define pc_self_seq(pg)		__atomic_load_n(&(pg)->seq, __ATOMIC_RELAXED)

/*
 * Map @fd's counter page. On failure (an old kernel, a counter that
 * has none) every read goes through read(): still 0 is returned if
 * @fd is usable that way, so callers need not care.
 */
static inline int pc_self_map(struct pc_self *self, int fd,
			      uint64_t read_format)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);

	self->fd = fd;
	self->read_format = read_format;
	self->page = p == MAP_FAILED ? NULL : p;
	if (self->page && self->page->version != PERF_COUNTER_PAGE_VERSION) {
		munmap(p, psz);
		self->page = NULL;
	}
	return fd < 0 ? -1 : 0;
}

static inline void pc_self_unmap(struct pc_self *self)
{
	if (self->page)
		munmap((void *)self->page, sysconf(_SC_PAGESIZE));
	self->page = NULL;
}

/* The raw value of the user-readable counter register @reg (page's). */
static inline int pc_self_reg(unsigned int reg, uint64_t *raw)
{
#if defined(__powerpc__) && !defined(__powerpc64__)
	/* 7xx/74xx: UPMC1-6 mirror PMC1-6 for user-mode reads. */
	uint32_t v;

	switch (reg) {
	case 1:
		__asm__ __volatile__("mfspr %0, 937" : "=r" (v));
		break;
	case 2:
		__asm__ __volatile__("mfspr %0, 938" : "=r" (v));
		break;
	case 3:
		__asm__ __volatile__("mfspr %0, 941" : "=r" (v));
		break;
	case 4:
		__asm__ __volatile__("mfspr %0, 942" : "=r" (v));
		break;
	case 5:
		__asm__ __volatile__("mfspr %0, 929" : "=r" (v));
		break;
	case 6:
		__asm__ __volatile__("mfspr %0, 930" : "=r" (v));
		break;
	default:
		return -1;
	}
	*raw = v;
	return 0;
#else
	/* x86's rdpmc is not published: the page names no register. */
	(void)reg;
	(void)raw;
	return -1;
#endif
}

static inline uint64_t pc_self_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* read() of the counter, as read_format gives it. */
static inline int pc_self_read_fd(struct pc_self *self,
				  struct pc_self_values *v)
{
	uint64_t buf[3] = { 0, 0, 0 };
	ssize_t n = read(self->fd, buf, sizeof(buf));
	int i = 1;

	if (n < (ssize_t)sizeof(buf[0]))
		return -1;
	memset(v, 0, sizeof(*v));
	v->value = buf[0];
	if (self->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v->time_enabled = buf[i++];
	if (self->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v->time_running = buf[i++];
	return PC_SELF_READ;
}

/*
 * One try at the page: 0 and @v filled, 1 if it changed under us, -1
 * if it cannot give the value now.
 */
static inline int pc_self_try(const struct perf_counter_page *pg,
			      uint64_t read_format, struct pc_self_values *v)
{
	uint32_t seq = pc_self_seq(pg), flags;
	uint64_t delta = 0, raw;
	unsigned int reg;

	if (seq & 1)
		return 1;
	pc_self_barrier();
	flags = pg->flags;
	if (!(flags & PERF_COUNTER_PAGE_READ))
		return -1;
	v->value = pg->value;
	v->time_enabled = pg->time_enabled;
	v->time_running = pg->time_running;
	reg = pg->reg;
	if (reg) {
		if (pc_self_reg(reg, &raw))
			return -1;
		v->value += (raw - pg->reg_base) &
			    (pg->reg_bits >= 64 ? ~0ULL :
			     (1ULL << pg->reg_bits) - 1);
	}
	/* The clock is read only when something runs on with it. */
	if ((flags & PERF_COUNTER_PAGE_RUNNING) &&
	    ((flags & PERF_COUNTER_PAGE_CLOCK) || read_format)) {
		uint64_t now = pc_self_now(), stamp = pg->stamp;

		/* An update may land between the stamp and the clock. */
		delta = now > stamp ? now - stamp : 0;
	}
	pc_self_barrier();
	if (pc_self_seq(pg) != seq)
		return 1;
	if (flags & PERF_COUNTER_PAGE_CLOCK)
		v->value += delta;
	v->time_enabled += delta;
	v->time_running += delta;
	return 0;
}

/*
 * The counter's value (and the times read_format asked for): from the
 * page if it can, else read(). Returns PC_SELF_PAGE or PC_SELF_READ, or
 * -1 if read() failed (a pinned counter in error reads as end of file).
 */
static inline int pc_self_read(struct pc_self *self, struct pc_self_values *v)
{
	int tries, r;

	if (self->page) {
		for (tries = 0; tries < PC_SELF_RETRIES; tries++) {
			r = pc_self_try(self->page, self->read_format, v);
			if (r == 0)
				return PC_SELF_PAGE;
			if (r < 0)
				break;
		}
	}
	return pc_self_read_fd(self, v);
}

#endif /* _PC_SELF_H */
