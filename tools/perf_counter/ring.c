// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: a counter's record queue read in its mapped ring
 * (struct perf_counter_ring_page, <linux/perf_counter.h>). The ring
 * holds the records read() would give, each a struct
 * perf_counter_record_header and its words, one running on from the
 * ring's end at its start. The kernel moves @data_head past whole
 * records; the reader copies them out from @data_tail and moves it past
 * them, which gives their room back: no system call while they come.
 *
 * On a 32-bit machine the three words count modulo 2^32 (the kernel
 * keeps their high halves 0 and reads @data_tail's low half): they are
 * read until two reads agree all the same, differences are taken as
 * unsigned longs, and @data_tail is written high half first when that
 * changes.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pc.h"

#if UINTPTR_MAX != UINT64_MAX
/* A 64-bit word of the control page, as a 32-bit machine takes it. */
union pc_ring_word {
	__u64 word;
	__u32 half[2];
} __attribute__((__may_alias__));

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PC_RING_HI	0
#else
#define PC_RING_HI	1
#endif

/* @w by halves: torn, if the kernel writes it meanwhile. */
static uint64_t ring_halves(const __u64 *w)
{
	const union pc_ring_word *u = (const void *)w;
	uint32_t hi = __atomic_load_n(&u->half[PC_RING_HI], __ATOMIC_RELAXED);
	uint32_t lo = __atomic_load_n(&u->half[!PC_RING_HI], __ATOMIC_RELAXED);

	return (uint64_t)hi << 32 | lo;
}
#endif

/* @w, which the kernel writes: whole, and before what it covers. */
static uint64_t ring_load(const __u64 *w)
{
#if UINTPTR_MAX == UINT64_MAX
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
#else
	uint64_t a, b = ring_halves(w);

	do {
		a = b;
		b = ring_halves(w);
	} while (a != b);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return a;
#endif
}

/* @tail as @r's data_tail, once the records below it are copied out. */
static void ring_store_tail(struct pc_ring *r, uint64_t tail)
{
#if UINTPTR_MAX == UINT64_MAX
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
#else
	union pc_ring_word *u = (void *)&r->page->data_tail;

	/* each a release: after the copies, the high half first */
	if ((r->tail ^ tail) >> 32)
		__atomic_store_n(&u->half[PC_RING_HI], (uint32_t)(tail >> 32),
				 __ATOMIC_RELEASE);
	__atomic_store_n(&u->half[!PC_RING_HI], (uint32_t)tail,
			 __ATOMIC_RELEASE);
#endif
	r->tail = tail;
}

/**
 * pc_ring_map() - map the record queue of counter @fd
 * @r:		filled
 * @fd:		a counter whose queue is in the headered format, empty,
 *		and whose records are not sent elsewhere
 * @bytes:	the ring's data bytes: 2^n pages, at most 1 MiB
 *
 * From then on read() of its records gives EBUSY: they are read here.
 *
 * Return: 0, or -errno: EINVAL from a kernel that maps no ring, EBUSY
 * while records wait in the queue, ENOMEM past RLIMIT_MEMLOCK, EPROTO
 * for a control page that does not describe the mapping.
 */
int pc_ring_map(struct pc_ring *r, int fd, size_t bytes)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *base;

	memset(r, 0, sizeof(*r));
	base = mmap(NULL, page + bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	r->page = base;
	r->len = page + bytes;
	r->size = r->page->data_size;
	if (r->size != bytes || r->page->data_offset < sizeof(*r->page) ||
	    r->page->data_offset > r->len - bytes) {
		munmap(base, r->len);
		memset(r, 0, sizeof(*r));
		return -EPROTO;
	}
	r->data = (const char *)base + r->page->data_offset;
	r->tail = ring_load(&r->page->data_tail);
	return 0;
}

/**
 * pc_ring_take() - the records waiting in @r, copied out
 * @r:		the ring
 * @buf:	where they go: room for the whole ring
 * @size:	its bytes
 *
 * Their room is given back to the kernel at once.
 *
 * Return: their bytes, whole records; 0 if none wait (or what waits is
 * not what the kernel writes: it is skipped).
 */
size_t pc_ring_take(struct pc_ring *r, char *buf, size_t size)
{
	uint64_t head = ring_load(&r->page->data_head);
	/* counts modulo 2^32 on a 32-bit machine: a difference of longs */
	uint64_t n = (unsigned long)(head - r->tail);
	size_t at = r->tail & (r->size - 1), first;

	if (!n)
		return 0;
	if (n > r->size || n > size || n % 8) {
		ring_store_tail(r, head);
		return 0;
	}
	first = n < r->size - at ? n : r->size - at;
	memcpy(buf, r->data + at, first);
	memcpy(buf + first, r->data, n - first);
	ring_store_tail(r, head);
	return n;
}

/* Bytes of records waiting in @r. */
uint64_t pc_ring_waiting(const struct pc_ring *r)
{
	return (unsigned long)(ring_load(&r->page->data_head) - r->tail);
}

/* Records the kernel dropped from @r's queue since its counter's open. */
uint64_t pc_ring_lost(const struct pc_ring *r)
{
	return ring_load(&r->page->lost);
}

void pc_ring_unmap(struct pc_ring *r)
{
	if (r->page)
		munmap(r->page, r->len);
	memset(r, 0, sizeof(*r));
}
