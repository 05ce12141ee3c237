// SPDX-License-Identifier: GPL-2.0
/*
 * The record ring: mmap() of a sampling counter in the headered format
 * gives its records in place, after a control page (struct
 * perf_counter_ring_page) whose @data_head the kernel moves and whose
 * @data_tail the reader does. Checked: the control page and the records
 * a known workload makes, a head that goes many times around a ring of
 * one page with records run past its end, a reader that falls behind
 * (every drop counted, in @lost, the LOST ioctl and a LOST record), the
 * sample budget's drops counted alike, a tail user space sets to
 * garbage, a ring that outlives its mappings and its fd, rings shared
 * with PERF_COUNTER_IOC_SET_OUTPUT by two tasks and by two CPUs, the
 * refusals, fork(), the wakeup watermark, the lazy ring of a counter
 * opened disabled, and a read() blocked before the mapping.
 *
 * The workload is page faults, a sample each: reads of pages of zeros
 * that madvise() unmaps again, paced to stay within the CPU's sample
 * budget, so that every drop is the ring's. Each count is checked
 * against the counter's own value: every fault it counted is a sample
 * in the ring or a drop it told. A sample is 40 bytes, which no ring
 * size divides: records run past the ring's end.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

/* A sample: header, then ip, pid and tid, time, the counter's value. */
#define SAMPLE_TYPE	(PERF_RECORD_IRQ | PERF_RECORD_TID | \
			 PERF_RECORD_TIME | PERF_RECORD_VALUE)
#define SAMPLE_SIZE	40
#define LOST_SIZE	16

/* Pages of zeros read in turn, unmapped again after each round. */
#define REGION_PAGES	8

/* The most data a ring may have. */
#define RING_MAX	(1 << 20)

#define SAMPLE_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"

/* The halves of a __u64 on a 32-bit machine, which reads it in two. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HI	0
#define LO	1
#else
#define HI	1
#define LO	0
#endif

static long psz;
static char *region;
static long chunk;		/* faults a millisecond at most */
static char buf[1 << 16];	/* read()'s records */

/* One record as the ring holds it: its header and up to 15 words. */
struct rec {
	struct perf_counter_record_header h;
	uint64_t w[15];
};

/* A mapping of a counter's ring, and where its reader is. */
struct ring {
	struct perf_counter_ring_page *pg;
	char *data;
	size_t len;		/* the mapping's bytes */
	uint64_t size;		/* the ring's: @data_size */
	uint64_t tail;		/* the reader's @data_tail */
};

/* What a reader found in records. */
struct tally {
	pid_t pid[2], tid[2];	/* tasks whose samples are counted apart */
	int of[3];		/* their samples, and the others' */
	int samples;		/* SAMPLE records */
	int lost_records;	/* LOST records */
	int lost_first_at;	/* samples read before the first LOST */
	uint64_t lost;		/* the drops they told */
	int split;		/* records run past the ring's end */
	int bad;		/* records of another kind or size */
	int backwards;		/* samples timed before the one before */
	int stale;		/* values not past the one before's */
	uint64_t gaps;		/* values between samples' that none had */
	uint64_t value;		/* the last sample's value */
	uint64_t time;		/* and time */
};

/* @n faults: reads of pages that are not mapped, and no other fault. */
static void faults(int n)
{
	uint64_t start = pc_now_ns();
	char c = 0;
	int i;

	madvise(region, REGION_PAGES * psz, MADV_DONTNEED);
	for (i = 0; i < n; i++) {
		/* within the CPU's sample budget: see the setup */
		if (i && i % chunk == 0) {
			while (pc_now_ns() - start < 1000000)
				pc_spin(100);
			start = pc_now_ns();
		}
		c += region[(i % REGION_PAGES) * psz];
		__asm__ __volatile__("" : "+r" (c));	/* keep the read */
		if (i % REGION_PAGES == REGION_PAGES - 1)
			madvise(region, REGION_PAGES * psz, MADV_DONTNEED);
	}
}

/* kernel.perf_event_max_sample_rate, or its default if unreadable. */
static long rate_get(void)
{
	FILE *f = fopen(SAMPLE_RATE, "r");
	long rate = 100000;

	if (!f)
		return rate;
	if (fscanf(f, "%ld", &rate) != 1)
		rate = 100000;
	fclose(f);
	return rate;
}

static int rate_set(long rate)
{
	FILE *f = fopen(SAMPLE_RATE, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", rate) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* The workload of a child, pc_child_start()'s work. */
static void child_faults(int n)
{
	faults(n);
}

/* A child's work: @n faults, then a grandchild's @n more. */
static void child_and_grandchild_faults(int n)
{
	int status;
	pid_t pid;

	faults(n);
	pid = fork();
	if (pid == 0) {
		faults(n);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		_exit(1);
}

/* A sampler of every page fault of @pid (or of CPU @cpu), headered. */
static int open_sampler(pid_t pid, int cpu, int disabled, int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS,
						disabled);

	hw.irq_period = 1;
	hw.record_type = SAMPLE_TYPE;
	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, pid, cpu, -1, 0);
}

/* A counter's value, from the READ ioctl: its read() gives records. */
static uint64_t value_of(int fd)
{
	struct perf_counter_read_buf rb;
	uint64_t v = 0;
	long n;

	memset(&rb, 0, sizeof(rb));
	rb.addr = (uintptr_t)&v;
	rb.size = sizeof(v);
	n = ioctl(fd, PERF_COUNTER_IOC_READ, &rb);
	if (n != sizeof(v)) {
		fprintf(stderr, "# %s(%d): %ld (%s)\n", __func__, fd, n,
			n < 0 ? strerror(errno) : "short");
		abort();
	}
	return v;
}

/* PERF_COUNTER_IOC_LOST, or ~0 if it fails. */
static uint64_t lost_of(int fd)
{
	uint64_t n;

	if (ioctl(fd, PERF_COUNTER_IOC_LOST, &n))
		return ~0ULL;
	return n;
}

#if __SIZEOF_LONG__ != 8
static uint32_t half(const uint32_t *w, int which)
{
	return __atomic_load_n(&w[which], __ATOMIC_ACQUIRE);
}
#endif

/*
 * A __u64 of the control page the kernel writes, loaded with acquire
 * semantics; a 32-bit machine writes it in two halves, so it is read
 * until two reads agree.
 */
static uint64_t load64(const __u64 *p)
{
#if __SIZEOF_LONG__ == 8
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
	const uint32_t *w = (const uint32_t *)p;
	uint64_t a, b;

	do {
		a = (uint64_t)half(w, HI) << 32 | half(w, LO);
		b = (uint64_t)half(w, HI) << 32 | half(w, LO);
	} while (a != b);
	return b;
#endif
}

/* @data_tail, stored with release semantics: the high half first. */
static void store_tail(struct ring *r, uint64_t tail)
{
#if __SIZEOF_LONG__ == 8
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
#else
	uint32_t *w = (uint32_t *)&r->pg->data_tail;

	__atomic_store_n(&w[HI], (uint32_t)(tail >> 32), __ATOMIC_RELEASE);
	__atomic_store_n(&w[LO], (uint32_t)tail, __ATOMIC_RELEASE);
#endif
	r->tail = tail;
}

static uint64_t head_of(const struct ring *r)
{
	return load64(&r->pg->data_head);
}

/* Map @fd's ring of @data_pages pages: 0 or -errno. */
static int ring_map(struct ring *r, int fd, int data_pages)
{
	memset(r, 0, sizeof(*r));
	r->len = (1 + data_pages) * psz;
	r->pg = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->pg == MAP_FAILED) {
		r->pg = NULL;
		return -errno;
	}
	r->data = (char *)r->pg + psz;
	r->size = (uint64_t)data_pages * psz;
	r->tail = load64(&r->pg->data_tail);
	return 0;
}

static void ring_unmap(struct ring *r)
{
	if (r->pg)
		munmap(r->pg, r->len);
	r->pg = NULL;
}

/* mmap() of @fd: 0 if it maps (unmapped again), else its errno. */
static int map_err(int fd, long pages, int prot, int flags, off_t off)
{
	void *p = mmap(NULL, pages * psz, prot, flags, fd, off);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, pages * psz);
	return 0;
}

static void tally_record(struct tally *t, const struct rec *rec)
{
	uint32_t ids[2];
	int i;

	if (rec->h.type == PERF_COUNTER_REC_LOST &&
	    rec->h.size == LOST_SIZE) {
		if (!t->lost_records++)
			t->lost_first_at = t->samples;
		t->lost += rec->w[0];
		return;
	}
	if (rec->h.type != PERF_COUNTER_REC_SAMPLE ||
	    rec->h.size != SAMPLE_SIZE) {
		t->bad++;
		return;
	}
	t->samples++;
	memcpy(ids, &rec->w[1], sizeof(ids));
	for (i = 0; i < 2; i++)
		if (t->tid[i] && ids[0] == (uint32_t)t->pid[i] &&
		    ids[1] == (uint32_t)t->tid[i])
			break;
	t->of[i]++;
	t->backwards += rec->w[2] < t->time;
	t->time = rec->w[2];
	if (rec->w[3] > t->value)
		t->gaps += rec->w[3] - t->value - 1;
	else
		t->stale++;
	t->value = rec->w[3];
}

/*
 * Read the records between the reader's tail and the head, then give
 * their room back. Return: 0, or -1 for a head too far ahead or a
 * record that cannot be (a size not a whole number of words, past the
 * head, or larger than any this test makes).
 */
static int drain(struct ring *r, struct tally *t)
{
	uint64_t head = head_of(r), tail = r->tail, at, first;
	struct rec rec;

	if (head - tail > r->size || (head - tail) % 8)
		return -1;
	while (tail != head) {
		at = tail & (r->size - 1);
		memcpy(&rec.h, r->data + at, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || rec.h.size % 8 ||
		    rec.h.size > sizeof(rec) || rec.h.size > head - tail)
			return -1;
		first = r->size - at;
		if (first > rec.h.size)
			first = rec.h.size;
		memcpy(&rec, r->data + at, first);
		memcpy((char *)&rec + first, r->data, rec.h.size - first);
		t->split += first < rec.h.size;
		tally_record(t, &rec);
		tail += rec.h.size;
	}
	store_tail(r, tail);
	return 0;
}

/*
 * read() every record waiting in @fd's queue (O_NONBLOCK). Return: 0
 * once it is empty (EAGAIN) or ended, -1 for a malformed record or
 * another error.
 */
static int read_drain(int fd, struct tally *t)
{
	int fl = fcntl(fd, F_GETFL), err = 0;
	struct rec rec;
	ssize_t len, at;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (at = 0; at < len; at += rec.h.size) {
			memcpy(&rec.h, buf + at, sizeof(rec.h));
			if (rec.h.size < sizeof(rec.h) || rec.h.size % 8 ||
			    rec.h.size > sizeof(rec) || rec.h.size > len - at)
				return -1;
			memcpy(&rec, buf + at, rec.h.size);
			tally_record(t, &rec);
		}
	}
	if (len < 0 && errno != EAGAIN)
		err = -1;
	fcntl(fd, F_SETFL, fl);
	return err;
}

/* This thread's samples, in @t: counted in @t->of[0]. */
static void tally_mine(struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->pid[0] = getpid();
	t->tid[0] = gettid();
}

static int poll_in(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * Reading records must not fault, nor must the workload but where it
 * means to: the buffers, the stack, the workload's region and code
 * are written and run once in the test's own process (the harness
 * forks each test).
 */
FIXTURE(ring) {
};

FIXTURE_SETUP(ring)
{
	long rate = rate_get();

	psz = sysconf(_SC_PAGESIZE);
	memset(buf, 0, sizeof(buf));
	pc_prefault_stack(64 << 10);
	/*
	 * The CPU's sample budget is rate / HZ samples a tick. At most
	 * rate / 2000 faults in a millisecond, a tick has no more than
	 * that for HZ up to 1000 (a 1 ms tick meets two such
	 * milliseconds, a 4 ms one five): a drop is then the ring's.
	 */
	chunk = rate / 2000 > 1 ? rate / 2000 : 1;
	region = mmap(NULL, REGION_PAGES * psz, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(region != MAP_FAILED);
	/* a fault a page: never a huge page */
	madvise(region, REGION_PAGES * psz, MADV_NOHUGEPAGE);
	faults(2 * REGION_PAGES);
}

FIXTURE_TEARDOWN(ring)
{
}

/*
 * A sampler of this thread's faults, mapped with four pages of ring: the
 * control page as the ABI has it, and after 100 faults a record for
 * each fault the counter counted, each whole, this thread's, in time
 * order, with the values 1, 2, 3...; the head is where they end.
 */
TEST_F(ring, control_page_and_records_are_well_formed)
{
	struct tally t;
	struct ring r;
	uint64_t t0, t1, v, head;
	int fd;

	ASSERT_EQ(1024, offsetof(struct perf_counter_ring_page, data_head));
	ASSERT_EQ(1032, offsetof(struct perf_counter_ring_page, data_tail));
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4));
	EXPECT_EQ(PERF_COUNTER_RING_VERSION, r.pg->version);
	EXPECT_EQ(psz, load64(&r.pg->data_offset));
	EXPECT_EQ(4 * psz, load64(&r.pg->data_size));
	EXPECT_EQ(0, load64(&r.pg->lost));
	EXPECT_EQ(0, head_of(&r));
	EXPECT_EQ(0, r.tail);

	t0 = pc_now_ns();
	ASSERT_EQ(0, pc_enable(fd));
	faults(100);
	ASSERT_EQ(0, pc_disable(fd));
	t1 = pc_now_ns();
	v = value_of(fd);
	head = head_of(&r);
	TH_LOG("100 faults: counter %llu, data_head %llu of %llu",
	       (unsigned long long)v, (unsigned long long)head,
	       (unsigned long long)r.size);
	EXPECT_EQ(0, (int)(head % 8));
	EXPECT_LE(head, r.size);
	EXPECT_EQ(v * SAMPLE_SIZE, head);

	tally_mine(&t);
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_EQ(t.samples, t.of[0]);		/* pid and tid: ours */
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(0, t.backwards);
	EXPECT_EQ(0, t.stale);
	EXPECT_EQ(0, t.gaps);			/* 1, 2, 3... */
	EXPECT_EQ(v, t.value);
	EXPECT_LE(t0, t.time);
	EXPECT_GE(t1, t.time);
	EXPECT_GE(v, 100);
	EXPECT_LE(v, 100 + PC_OWN_FAULTS);
	EXPECT_EQ(0, load64(&r.pg->lost));
	EXPECT_EQ(0, lost_of(fd));
	EXPECT_EQ(head, load64(&r.pg->data_tail));	/* the reader's */
	ring_unmap(&r);
	close(fd);
}

/*
 * One page of ring, read while the faults go on in batches of a
 * quarter of it: the head goes more than 8 times around, and every
 * record is whole, those run past the ring's end too (a sample is 40
 * bytes, which no ring size divides: each turn of the head but every
 * fifth cuts one), with no drop and a record for each fault counted.
 */
TEST_F(ring, head_goes_many_times_around_with_every_record_whole)
{
	int fd, batch, rounds = 0, bad_drain = 0, cuts = 0;
	uint64_t v, head, k;
	struct tally t;
	struct ring r;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	batch = r.size / SAMPLE_SIZE / 4;
	tally_mine(&t);
	ASSERT_EQ(0, pc_enable(fd));
	while (head_of(&r) <= 8 * r.size && rounds++ < 10000) {
		faults(batch);
		if (drain(&r, &t)) {
			bad_drain++;
			break;
		}
	}
	ASSERT_EQ(0, pc_disable(fd));
	bad_drain += drain(&r, &t) != 0;
	v = value_of(fd);
	head = head_of(&r);
	for (k = r.size; k < head; k += r.size)
		cuts += k % SAMPLE_SIZE != 0;
	TH_LOG("%d batches of %d faults: %llu samples, head %llu (%llu turns), %d cut at the end",
	       rounds, batch, (unsigned long long)v,
	       (unsigned long long)head,
	       (unsigned long long)(head / r.size), t.split);
	EXPECT_EQ(0, bad_drain);
	EXPECT_GT(head, 8 * r.size);
	EXPECT_EQ(v, t.samples);
	EXPECT_EQ(v * SAMPLE_SIZE, head);
	EXPECT_EQ(t.samples, t.of[0]);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(0, load64(&r.pg->lost));
	EXPECT_EQ(0, lost_of(fd));
	EXPECT_EQ(0, t.backwards);
	EXPECT_EQ(0, t.stale);
	EXPECT_EQ(0, t.gaps);
	EXPECT_EQ(cuts, t.split);
	EXPECT_GE(t.split, 1);
	EXPECT_GE(v, (uint64_t)batch * (rounds - 1));
	ring_unmap(&r);
	close(fd);
}

/*
 * A reader that does not move its tail: the ring fills with the first
 * faults' records, and every later one is dropped and counted, in
 * @lost and by the LOST ioctl, the same. Once the reader gives the room
 * back, the next record is a LOST record of all of them, then samples:
 * the values the samples skipped are exactly the drops.
 */
TEST_F(ring, reader_that_falls_behind_is_told_every_drop)
{
	struct tally t1, t2;
	uint64_t v1, v2, lost, head;
	int fd, fit;
	struct ring r;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	fit = r.size / SAMPLE_SIZE;
	ASSERT_EQ(0, pc_enable(fd));
	faults(2 * fit + 20);
	ASSERT_EQ(0, pc_disable(fd));
	v1 = value_of(fd);
	lost = load64(&r.pg->lost);
	head = head_of(&r);
	TH_LOG("%d records fit: %llu faults, %llu lost, head %llu",
	       fit, (unsigned long long)v1, (unsigned long long)lost,
	       (unsigned long long)head);
	EXPECT_GT(lost, 0);
	EXPECT_EQ(lost, lost_of(fd));
	EXPECT_EQ(fit * SAMPLE_SIZE, head);	/* full: no room for one more */
	EXPECT_EQ(v1, fit + lost);

	tally_mine(&t1);
	ASSERT_EQ(0, drain(&r, &t1));
	EXPECT_EQ(fit, t1.samples);
	EXPECT_EQ(0, t1.lost_records);		/* no room came back yet */
	EXPECT_EQ(0, t1.gaps);			/* the first ones fit */
	EXPECT_EQ(fit, t1.value);

	/* Room again: a LOST record first, then the samples. */
	tally_mine(&t2);
	t2.value = t1.value;
	ASSERT_EQ(0, pc_enable(fd));
	faults(10);
	ASSERT_EQ(0, pc_disable(fd));
	v2 = value_of(fd);
	ASSERT_EQ(0, drain(&r, &t2));
	TH_LOG("then %llu faults: %d LOST records of %llu, %d samples",
	       (unsigned long long)(v2 - v1), t2.lost_records,
	       (unsigned long long)t2.lost, t2.samples);
	EXPECT_EQ(1, t2.lost_records);
	EXPECT_EQ(0, t2.lost_first_at);
	EXPECT_EQ(lost, t2.lost);
	EXPECT_EQ(lost, t2.gaps);		/* the values dropped */
	EXPECT_EQ(v2 - v1, t2.samples);
	EXPECT_GE(v2 - v1, 10);
	EXPECT_EQ(t2.samples, t2.of[0]);
	EXPECT_EQ(0, t2.bad);
	EXPECT_EQ(0, t2.stale);
	EXPECT_EQ(v2, t1.samples + t2.samples + t2.lost);
	/* told, still counted: nothing more was dropped */
	EXPECT_EQ(lost, load64(&r.pg->lost));
	EXPECT_EQ(lost, lost_of(fd));
	ring_unmap(&r);
	close(fd);
}

/*
 * Tails user space may write: ahead of the head, not a whole word
 * behind it, more than the ring behind it, and far off. Each leaves
 * the ring full: nothing is written, every fault's record is dropped
 * and counted, the control page is the kernel's still. A sane tail
 * again, and records come, after a LOST record of all of those.
 */
TEST_F(ring, hostile_tails_only_drop_records)
{
	uint64_t head, v0, v1, l0, l1, bad[5];
	struct tally t;
	struct ring r;
	int fd, i;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	ASSERT_EQ(0, pc_enable(fd));
	faults(5);
	ASSERT_EQ(0, pc_disable(fd));
	tally_mine(&t);
	ASSERT_EQ(0, drain(&r, &t));
	head = head_of(&r);
	ASSERT_GE(head, 5 * SAMPLE_SIZE);
	bad[0] = head + 8;			/* ahead of the head */
	bad[1] = head - 4;			/* not a whole word */
	bad[2] = head - r.size - 8;		/* more than the ring behind */
	/*
	 * Far off, with a low half ahead of the head too: a 32-bit kernel
	 * takes the low half alone (counts run modulo 2^32 there).
	 */
	bad[3] = 1ULL << 63 | (uint32_t)(head + 16);
	bad[4] = ~0ULL;
	for (i = 0; i < 5; i++) {
		store_tail(&r, bad[i]);
		v0 = value_of(fd);
		l0 = load64(&r.pg->lost);
		ASSERT_EQ(0, pc_enable(fd));
		faults(5);
		ASSERT_EQ(0, pc_disable(fd));
		v1 = value_of(fd);
		l1 = load64(&r.pg->lost);
		TH_LOG("tail %#llx, head %#llx: %llu faults, %llu more lost",
		       (unsigned long long)bad[i], (unsigned long long)head,
		       (unsigned long long)(v1 - v0),
		       (unsigned long long)(l1 - l0));
		EXPECT_EQ(head, head_of(&r));	/* nothing written */
		EXPECT_GE(v1 - v0, 5);
		EXPECT_EQ(v1 - v0, l1 - l0);	/* every one dropped */
		EXPECT_EQ(l1, lost_of(fd));
		EXPECT_EQ(bad[i], load64(&r.pg->data_tail));
		EXPECT_EQ(PERF_COUNTER_RING_VERSION, r.pg->version);
		EXPECT_EQ(psz, load64(&r.pg->data_offset));
		EXPECT_EQ(r.size, load64(&r.pg->data_size));
	}

	/* Sane again: records resume, the drops told first. */
	store_tail(&r, head);
	l0 = load64(&r.pg->lost);
	v0 = value_of(fd);
	ASSERT_EQ(0, pc_enable(fd));
	faults(5);
	ASSERT_EQ(0, pc_disable(fd));
	v1 = value_of(fd);
	tally_mine(&t);
	t.value = v0 - l0;		/* the last value the ring has */
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_GT(head_of(&r), head);
	EXPECT_EQ(1, t.lost_records);
	EXPECT_EQ(0, t.lost_first_at);
	EXPECT_EQ(l0, t.lost);
	EXPECT_EQ(l0, t.gaps);
	EXPECT_EQ(v1 - v0, t.samples);
	EXPECT_EQ(t.samples, t.of[0]);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(l0, load64(&r.pg->lost));
	ring_unmap(&r);
	close(fd);
}

/*
 * Samples past the CPU's budget are dropped and told as a full ring's
 * are: at kernel.perf_event_max_sample_rate 1000, a burst of faults
 * into a ring with room for all of them leaves most unwritten. Once
 * the counter is off, @lost counts every one, as the LOST ioctl does,
 * those after the last record written too; the ring's LOST records
 * tell those before it, which the samples' values skip.
 */
TEST_F(ring, budget_drops_show_in_the_control_page)
{
	long old = rate_get();
	uint64_t v, lost, told;
	struct tally t;
	struct ring r;
	int fd, err;

	if (geteuid())
		SKIP(return, "setting the sample rate needs root");
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4));
	ASSERT_EQ(0, rate_set(1000));
	err = pc_enable(fd);
	faults(1000);
	err |= pc_disable(fd);
	rate_set(old);
	ASSERT_EQ(0, err);
	v = value_of(fd);
	lost = load64(&r.pg->lost);
	told = lost_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, drain(&r, &t));
	TH_LOG("%llu faults: %d samples, %llu lost (%llu by the ioctl), %llu told in %d LOST records",
	       (unsigned long long)v, t.samples, (unsigned long long)lost,
	       (unsigned long long)told, (unsigned long long)t.lost,
	       t.lost_records);
	EXPECT_GT(told, 0);
	EXPECT_EQ(told, lost);
	EXPECT_EQ(v, t.samples + told);
	EXPECT_EQ(t.lost, t.gaps);
	EXPECT_EQ(told - t.lost, v - t.value);	/* after the last sample */
	EXPECT_EQ(t.samples, t.of[0]);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.stale);
	ring_unmap(&r);
	close(fd);
}

/*
 * munmap() leaves the ring with the counter, which goes on writing to
 * it: mapped again, it holds what it held and what came meanwhile, and
 * read() is refused throughout. Closing the fd while it is mapped
 * leaves the counter to the mapping, still writing; munmap() then ends
 * it, and nothing of it is left.
 */
TEST_F(ring, ring_outlives_its_mappings_and_its_fd)
{
	static char saved[1 << 16];
	struct pc_objects o0, o1, mid;
	uint64_t h1, h2, h3, v;
	uint32_t size = 8192;
	struct tally t;
	struct ring r;
	int fd;

	/* The task's context first: it stays until the task exits. */
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, pc_objects_read(&o0));

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 2));
	ASSERT_EQ(0, pc_enable(fd));
	faults(10);
	ASSERT_EQ(0, pc_disable(fd));
	h1 = head_of(&r);
	ASSERT_GE(h1, 10 * SAMPLE_SIZE);
	ASSERT_LE(h1, sizeof(saved));
	memcpy(saved, r.data, h1);
	ring_unmap(&r);

	/* Unmapped: the counter's records still go to the ring. */
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, pc_enable(fd));
	faults(10);
	ASSERT_EQ(0, pc_disable(fd));
	v = value_of(fd);

	EXPECT_EQ(EINVAL, map_err(fd, 2, PROT_READ | PROT_WRITE, MAP_SHARED,
				  0));		/* one page of ring: not its size */
	ASSERT_EQ(0, ring_map(&r, fd, 2));
	h2 = head_of(&r);
	EXPECT_EQ(v * SAMPLE_SIZE, h2);
	EXPECT_GE(h2, h1 + 10 * SAMPLE_SIZE);
	EXPECT_EQ(0, memcmp(saved, r.data, h1));
	EXPECT_EQ(0, r.tail);
	tally_mine(&t);
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_EQ(0, t.gaps);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EBUSY, errno);

	/* The fd closed, the mapping holds the counter: it still writes. */
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, close(fd));
	faults(10);
	h3 = head_of(&r);
	EXPECT_EQ(PERF_COUNTER_RING_VERSION, r.pg->version);
	EXPECT_GE(h3, h2 + 10 * SAMPLE_SIZE);
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(h3 / SAMPLE_SIZE, t.samples);
	EXPECT_EQ(0, t.gaps);
	EXPECT_EQ(0, t.bad);
	ASSERT_EQ(0, pc_objects_read(&mid));
	EXPECT_EQ(o0.counters + 1, mid.counters);
	EXPECT_EQ(o0.queues + 1, mid.queues);
	EXPECT_EQ(0, munmap(r.pg, r.len));
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_SAME_OBJECTS(o0, o1);
}

/*
 * SET_OUTPUT: the counter of a child (inherited by its grandchild)
 * sends its records to the ring of this thread's counter. The ring
 * holds this thread's, the child's and the grandchild's, as many as
 * each counter counted; the child's counter's own queue gets none.
 */
TEST_F(ring, two_tasks_share_one_ring)
{
	struct pc_child child;
	uint64_t va, vb;
	int a, b, n = 50;
	struct tally t;
	struct ring r;

	ASSERT_EQ(0, pc_child_start(&child, child_and_grandchild_faults, n));
	a = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, a);
	b = open_sampler(child.pid, -1, 0, 1);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, ring_map(&r, a, 4));
	ASSERT_EQ(0, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, a));
	ASSERT_EQ(0, pc_enable(a));
	faults(30);
	ASSERT_EQ(0, pc_child_finish(&child));
	ASSERT_EQ(0, pc_disable(a));
	va = value_of(a);
	vb = value_of(b);

	tally_mine(&t);
	t.pid[1] = child.pid;
	t.tid[1] = child.pid;
	ASSERT_EQ(0, drain(&r, &t));
	TH_LOG("ours %d (counted %llu), the child's %d and its child's %d (counted %llu)",
	       t.of[0], (unsigned long long)va, t.of[1], t.of[2],
	       (unsigned long long)vb);
	EXPECT_EQ(va, t.of[0]);
	EXPECT_EQ(vb, t.of[1] + t.of[2]);
	EXPECT_GE(va, 30);
	EXPECT_GE(t.of[1], n);
	EXPECT_LE(t.of[1], n + PC_CHILD_FAULTS);
	EXPECT_GE(t.of[2], n);
	EXPECT_LE(t.of[2], n + PC_CHILD_FAULTS);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(0, load64(&r.pg->lost));
	/* b's own queue: nothing, and no writer left: end of file */
	ASSERT_EQ(0, fcntl(b, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(0, read(b, buf, sizeof(buf)));
	EXPECT_EQ(0, lost_of(b));
	ring_unmap(&r);
	close(b);
	close(a);
}

/*
 * A ring two children's counters write to ends when both have: poll()
 * hangs up only once the second has exited, and it holds both.
 */
TEST_F(ring, shared_ring_hangs_up_once_every_writer_has_ended)
{
	struct pc_child c1, c2;
	struct pollfd p;
	struct tally t;
	struct ring r;
	int a, b;

	ASSERT_EQ(0, pc_child_start(&c1, child_faults, 20));
	ASSERT_EQ(0, pc_child_start(&c2, child_faults, 40));
	a = open_sampler(c1.pid, -1, 0, 0);
	ASSERT_LE(0, a);
	b = open_sampler(c2.pid, -1, 0, 0);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, ring_map(&r, a, 4));
	ASSERT_EQ(0, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, a));
	p = (struct pollfd){ .fd = a, .events = POLLIN };
	EXPECT_EQ(0, poll(&p, 1, 0));		/* control: nothing yet */
	ASSERT_EQ(0, pc_child_finish(&c1));
	EXPECT_EQ(1, poll(&p, 1, 0));		/* records */
	EXPECT_EQ(0, p.revents & POLLHUP);	/* b still writes */
	ASSERT_EQ(0, pc_child_finish(&c2));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN | POLLHUP, p.revents & (POLLIN | POLLHUP));

	memset(&t, 0, sizeof(t));
	t.pid[0] = c1.pid;
	t.tid[0] = c1.pid;
	t.pid[1] = c2.pid;
	t.tid[1] = c2.pid;
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(value_of(a), t.of[0]);
	EXPECT_EQ(value_of(b), t.of[1]);
	EXPECT_GE(t.of[0], 20);
	EXPECT_GE(t.of[1], 40);
	EXPECT_EQ(0, t.of[2]);
	EXPECT_EQ(0, t.lost_records);
	ring_unmap(&r);
	close(b);
	close(a);
}

/*
 * CPU-wide counters of CPUs 0 and 1, the second's records sent to the
 * first's ring: a child pinned to each makes its faults there, and the
 * ring holds them all. A record does not name its CPU; the pinned
 * child's tid does.
 */
TEST_F(ring, two_cpus_share_one_ring)
{
	struct pc_child w0, w1;
	int c0, c1, n = 50, pages;
	struct tally t;
	struct ring r;

	if (geteuid())
		SKIP(return, "CPU-wide counters need root");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	c0 = open_sampler(-1, 0, 1, 0);
	ASSERT_LE(0, c0);
	c1 = open_sampler(-1, 1, 1, 0);
	if (c1 < 0)
		SKIP(return, "no counter on CPU 1: %s", strerror(errno));
	pages = (256 << 10) / psz;		/* others' faults count too */
	ASSERT_EQ(0, ring_map(&r, c0, pages ? pages : 1));
	ASSERT_EQ(0, ioctl(c1, PERF_COUNTER_IOC_SET_OUTPUT, c0));
	/* the children keep the CPU they are forked on */
	ASSERT_EQ(0, pc_pin_to(0));
	ASSERT_EQ(0, pc_child_start(&w0, child_faults, n));
	ASSERT_EQ(0, pc_pin_to(1));
	ASSERT_EQ(0, pc_child_start(&w1, child_faults, n));
	ASSERT_EQ(0, pc_enable(c0));
	ASSERT_EQ(0, pc_enable(c1));
	ASSERT_EQ(0, pc_child_finish(&w0));
	ASSERT_EQ(0, pc_child_finish(&w1));
	ASSERT_EQ(0, pc_disable(c1));
	ASSERT_EQ(0, pc_disable(c0));

	memset(&t, 0, sizeof(t));
	t.pid[0] = w0.pid;
	t.tid[0] = w0.pid;
	t.pid[1] = w1.pid;
	t.tid[1] = w1.pid;
	ASSERT_EQ(0, drain(&r, &t));
	TH_LOG("CPU 0's child %d, CPU 1's %d, others %d; %llu lost; counted %llu and %llu",
	       t.of[0], t.of[1], t.of[2],
	       (unsigned long long)load64(&r.pg->lost),
	       (unsigned long long)value_of(c0),
	       (unsigned long long)value_of(c1));
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, load64(&r.pg->lost));
	EXPECT_EQ(value_of(c0) + value_of(c1), t.samples);
	EXPECT_GE(t.of[0], n);
	EXPECT_LE(t.of[0], n + PC_CHILD_FAULTS);
	EXPECT_GE(t.of[1], n);			/* CPU 1's counter's */
	EXPECT_LE(t.of[1], n + PC_CHILD_FAULTS);
	ring_unmap(&r);
	close(c1);
	close(c0);
}

/*
 * Mappings a ring is not: each refused with EINVAL. A queue in the
 * 2009 format has no ring: EOPNOTSUPP, as every sampling counter's
 * mmap() was before the ring.
 */
TEST_F(ring, mmap_refusals)
{
	struct perf_counter_hw_event hw;
	int fd, f2009, rw = PROT_READ | PROT_WRITE, err;
	long most = RING_MAX / psz;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	/* The 2009 format, IRQ alone and GROUP alone. */
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_IRQ;
	f2009 = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, f2009);
	EXPECT_EQ(EOPNOTSUPP, map_err(f2009, 2, rw, MAP_SHARED, 0));
	close(f2009);
	hw.record_type = PERF_RECORD_GROUP;
	f2009 = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, f2009);
	EXPECT_EQ(EOPNOTSUPP, map_err(f2009, 2, rw, MAP_SHARED, 0));
	close(f2009);

	EXPECT_EQ(EINVAL, map_err(fd, 2, rw, MAP_SHARED, psz));
	EXPECT_EQ(EINVAL, map_err(fd, 2, rw, MAP_PRIVATE, 0));
	EXPECT_EQ(EINVAL, map_err(fd, 2, PROT_READ, MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_err(fd, 1, rw, MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_err(fd, 1 + 3, rw, MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_err(fd, 1 + 2 * most, rw, MAP_SHARED, 0));
	if (most >= 8)			/* 2^n - 2 pages, n > 2 */
		EXPECT_EQ(EINVAL, map_err(fd, 1 + most - 2, rw, MAP_SHARED,
					  0));
	/* The control: 1 MiB is the most, and it maps (memlock allowing). */
	err = map_err(fd, 1 + most, rw, MAP_SHARED, 0);
	TH_LOG("a ring of %ld pages of %ld bytes: %s", most, psz,
	       err ? strerror(err) : "mapped");
	if (err != ENOMEM || !geteuid())
		EXPECT_EQ(0, err);
	close(fd);
}

/*
 * A queue read() has records waiting in cannot be mapped (EBUSY) until
 * they are read. Once mapped, read() and the QUEUE_SIZE ioctl are EBUSY,
 * a mapping of the same size is the same ring, another size EINVAL.
 */
TEST_F(ring, mapped_queue_refusals)
{
	uint32_t size = 4096;
	struct ring r1, r2;
	struct tally t;
	uint64_t head;
	int fd;

	fd = open_sampler(0, -1, 0, 0);
	ASSERT_LE(0, fd);
	faults(3);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(-EBUSY, ring_map(&r1, fd, 1));
	tally_mine(&t);
	ASSERT_EQ(0, read_drain(fd, &t));
	EXPECT_GE(t.samples, 3);
	ASSERT_EQ(0, ring_map(&r1, fd, 1));

	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(EINVAL, map_err(fd, 1 + 2, PROT_READ | PROT_WRITE,
				  MAP_SHARED, 0));

	ASSERT_EQ(0, ring_map(&r2, fd, 1));
	EXPECT_TRUE(r1.pg != r2.pg);
	ASSERT_EQ(0, pc_enable(fd));
	faults(3);
	ASSERT_EQ(0, pc_disable(fd));
	head = head_of(&r1);
	EXPECT_GE(head, 3 * SAMPLE_SIZE);
	EXPECT_EQ(head, head_of(&r2));
	EXPECT_EQ(0, memcmp(r1.data, r2.data, head));
	store_tail(&r2, head);			/* one tail for both */
	EXPECT_EQ(head, load64(&r1.pg->data_tail));
	ring_unmap(&r2);
	ring_unmap(&r1);
	close(fd);
}

/* SET_OUTPUT's refusals, and mmap() of a counter whose records go away. */
TEST_F(ring, set_output_refusals)
{
	struct perf_counter_hw_event hw;
	int a, b, c, counting, f2009, p[2], closed;
	uint32_t mark = 64;
	struct ring r;

	a = open_sampler(0, -1, 1, 0);
	b = open_sampler(0, -1, 1, 0);
	c = open_sampler(0, -1, 1, 0);
	counting = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_IRQ;
	f2009 = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, c);
	ASSERT_LE(0, counting);
	ASSERT_LE(0, f2009);
	ASSERT_EQ(0, pipe(p));
	closed = pc_next_fd();

	EXPECT_EQ(-1, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, closed));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EINVAL, errno);		/* not a counter */
	EXPECT_EQ(-1, ioctl(counting, PERF_COUNTER_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);		/* no queue of its own */
	EXPECT_EQ(-1, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, counting));
	EXPECT_EQ(EINVAL, errno);		/* no queue to go to */
	EXPECT_EQ(-1, ioctl(f2009, PERF_COUNTER_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);		/* 2009 records */
	EXPECT_EQ(-1, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, f2009));
	EXPECT_EQ(EINVAL, errno);		/* to a 2009 queue */
	EXPECT_EQ(-1, ioctl(counting, PERF_COUNTER_IOC_WAKEUP, &mark));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(0, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, a));
	EXPECT_EQ(-1, ioctl(c, PERF_COUNTER_IOC_SET_OUTPUT, b));
	EXPECT_EQ(EINVAL, errno);		/* b's go elsewhere */
	EXPECT_EQ(-EINVAL, ring_map(&r, b, 1));	/* likewise */
	/* -1: back to its own queue, which maps */
	EXPECT_EQ(0, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, -1));
	ASSERT_EQ(0, ring_map(&r, b, 1));
	EXPECT_EQ(-1, ioctl(b, PERF_COUNTER_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EBUSY, errno);		/* its own is mapped */
	/* a mapped target takes others' records */
	EXPECT_EQ(0, ioctl(c, PERF_COUNTER_IOC_SET_OUTPUT, b));
	ring_unmap(&r);
	close(p[0]);
	close(p[1]);
	close(f2009);
	close(counting);
	close(c);
	close(b);
	close(a);
}

/* Is @addr mapped here? 1 if /proc/self/maps says so. */
static int listed(const void *addr)
{
	unsigned long lo, hi, at = (uintptr_t)addr;
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    at >= lo && at < hi)
			found = 1;
	fclose(f);
	return found;
}

/*
 * In a child, what says the ring is not mapped at @r: a bit for each
 * that disagrees.
 */
static int child_sees_no_ring(const struct ring *r)
{
	unsigned char vec[2];
	int status, ret = 0;
	pid_t pid;

	if (mincore(r->pg, psz, vec) != -1 || errno != ENOMEM)
		ret |= 1;
	if (msync(r->pg, psz, MS_ASYNC) != -1 || errno != ENOMEM)
		ret |= 2;
	if (listed(r->pg))
		ret |= 4;
	/* a touch: a grandchild dies of it (no core) */
	pid = fork();
	if (pid == 0) {
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);
		_exit(r->pg->version == PERF_COUNTER_RING_VERSION ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV)
		ret |= 8;
	return ret;
}

/*
 * fork() does not copy the mapping: the child has nothing at its
 * address. The parent's stays, and records still come to it.
 */
TEST_F(ring, fork_does_not_copy_the_mapping)
{
	unsigned char vec[2];
	int fd, status = -1;
	uint64_t head;
	struct ring r;
	pid_t pid;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	ASSERT_EQ(0, pc_enable(fd));
	faults(3);
	ASSERT_EQ(0, pc_disable(fd));
	head = head_of(&r);
	ASSERT_GE(head, 3 * SAMPLE_SIZE);
	ASSERT_TRUE(listed(r.pg));

	pid = fork();
	if (pid == 0)
		_exit(child_sees_no_ring(&r));
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("in the child: %s%s%s%s",
		       WEXITSTATUS(status) & 1 ? "mincore() found it; " : "",
		       WEXITSTATUS(status) & 2 ? "msync() found it; " : "",
		       WEXITSTATUS(status) & 4 ? "/proc/self/maps lists it; " : "",
		       WEXITSTATUS(status) & 8 ? "a touch did not fault" : "");

	EXPECT_EQ(0, mincore(r.pg, psz, vec));
	EXPECT_EQ(PERF_COUNTER_RING_VERSION, r.pg->version);
	EXPECT_EQ(head, head_of(&r));
	ASSERT_EQ(0, pc_enable(fd));
	faults(3);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_GE(head_of(&r), head + 3 * SAMPLE_SIZE);
	ring_unmap(&r);
	close(fd);
}

/* A thread that makes faults until told to stop: a counter's task. */
struct fault_thread {
	pid_t tid;
	int go, stop;
};

static void *fault_thread(void *arg)
{
	struct fault_thread *w = arg;

	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		faults(4);
		usleep(2000);
	}
	return NULL;
}

/*
 * PERF_COUNTER_IOC_WAKEUP: with a mark of 2048 bytes, poll() says
 * readable exactly when 2048 bytes of records wait, not before; with
 * 0, at each record; with more than the ring, at half of it. A poll()
 * that waits is woken once the mark is passed.
 */
TEST_F(ring, wakeup_waits_for_the_watermark)
{
	struct fault_thread w = { 0 };
	int fd, i, quiet = 0, wrong = 0, readable = 0;
	uint32_t mark = 2048;
	uint64_t waiting = 0;
	struct pollfd p;
	pthread_t thread;
	struct tally t;
	struct ring r;

	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_WAKEUP, &mark));
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, pc_enable(fd));
		faults(5);
		ASSERT_EQ(0, pc_disable(fd));
		waiting = head_of(&r) - r.tail;
		readable = poll_in(fd);
		wrong += readable != (waiting >= mark);
		quiet += !readable && waiting;
		if (waiting >= mark)
			break;
	}
	TH_LOG("mark %u: %d polls with records short of it, readable at %llu bytes",
	       mark, quiet, (unsigned long long)waiting);
	EXPECT_EQ(0, wrong);
	EXPECT_GE(quiet, 5);
	EXPECT_GE(waiting, mark);
	EXPECT_TRUE(readable);
	memset(&t, 0, sizeof(t));
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_FALSE(poll_in(fd));		/* read: nothing waits */
	/* 0: a record is enough */
	mark = 0;
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_WAKEUP, &mark));
	EXPECT_FALSE(poll_in(fd));
	ASSERT_EQ(0, pc_enable(fd));
	faults(1);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_TRUE(poll_in(fd));
	ring_unmap(&r);
	close(fd);

	/* More than the ring holds: half of it. */
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	mark = 2 * r.size;
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_WAKEUP, &mark));
	quiet = 0;
	wrong = 0;
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, pc_enable(fd));
		faults(r.size / 2 / SAMPLE_SIZE / 8 + 1);
		ASSERT_EQ(0, pc_disable(fd));
		waiting = head_of(&r) - r.tail;
		readable = poll_in(fd);
		wrong += readable != (waiting >= r.size / 2);
		quiet += !readable && waiting;
		if (readable)
			break;
	}
	TH_LOG("mark %u, ring %llu: %d polls short of half, readable at %llu",
	       mark, (unsigned long long)r.size, quiet,
	       (unsigned long long)waiting);
	EXPECT_EQ(0, wrong);
	EXPECT_GE(quiet, 4);
	EXPECT_TRUE(readable);
	ring_unmap(&r);
	close(fd);

	/*
	 * A poll() that waits, on a thread's records: it returns once
	 * the mark is passed (a wakeup at the first record finds too
	 * little and waits on).
	 */
	ASSERT_EQ(0, pthread_create(&thread, NULL, fault_thread, &w));
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	fd = open_sampler(w.tid, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	mark = 2048;
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_WAKEUP, &mark));
	ASSERT_EQ(0, pc_enable(fd));
	__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	i = poll(&p, 1, 10000);
	waiting = head_of(&r) - r.tail;
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	TH_LOG("a waiting poll() returned %d with %llu bytes waiting", i,
	       (unsigned long long)waiting);
	EXPECT_EQ(1, i);
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_GE(waiting, mark);
	ring_unmap(&r);
	close(fd);
}

/*
 * A counter opened disabled gets its ring at its first use: mapped then
 * enabled, enabled by the ioctl or by prctl() then read, or sent
 * another's records, each has every record of what it counted, and no
 * drop.
 */
TEST_F(ring, lazy_queue_gets_its_ring_at_first_use)
{
	struct tally t;
	struct ring r;
	uint64_t v;
	int fd, to;

	/* mmap(), then ENABLE */
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	ASSERT_EQ(0, pc_enable(fd));
	faults(20);
	ASSERT_EQ(0, pc_disable(fd));
	v = value_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_GE(v, 20);
	EXPECT_EQ(0, t.gaps);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(0, lost_of(fd));
	ring_unmap(&r);
	close(fd);

	/* ENABLE, then read() */
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_enable(fd));
	faults(20);
	ASSERT_EQ(0, pc_disable(fd));
	v = value_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, read_drain(fd, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_GE(v, 20);
	EXPECT_EQ(0, t.gaps);
	EXPECT_EQ(0, t.lost_records);
	EXPECT_EQ(0, lost_of(fd));
	close(fd);

	/* prctl(), then read() */
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE));
	faults(20);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE));
	v = value_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, read_drain(fd, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_GE(v, 20);
	EXPECT_EQ(0, lost_of(fd));
	close(fd);

	/* a SET_OUTPUT target never enabled, read() or polled */
	to = open_sampler(0, -1, 1, 0);
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, to);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_SET_OUTPUT, to));
	ASSERT_EQ(0, pc_enable(fd));
	faults(20);
	ASSERT_EQ(0, pc_disable(fd));
	v = value_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, read_drain(to, &t));
	EXPECT_EQ(v, t.samples);
	EXPECT_GE(v, 20);
	EXPECT_EQ(0, lost_of(to));
	EXPECT_EQ(0, value_of(to));
	close(fd);
	close(to);
}

/*
 * A counter opened disabled and enabled while its records went to
 * another's queue made no ring of its own (it needed none then). Sent
 * back to its own queue, it must have one: its records are kept, none
 * dropped for want of a ring until a read() or poll() makes it.
 */
TEST_F(ring, lazy_queue_sent_back_to_itself_keeps_its_records)
{
	struct tally t;
	int fd, to;
	uint64_t v;

	to = open_sampler(0, -1, 1, 0);
	fd = open_sampler(0, -1, 1, 0);
	ASSERT_LE(0, to);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_SET_OUTPUT, to));
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_SET_OUTPUT, -1));
	faults(20);
	ASSERT_EQ(0, pc_disable(fd));
	v = value_of(fd);
	tally_mine(&t);
	ASSERT_EQ(0, read_drain(fd, &t));
	TH_LOG("%llu faults: %d samples, %llu told lost",
	       (unsigned long long)v, t.samples, (unsigned long long)t.lost);
	EXPECT_EQ(0, lost_of(fd));
	EXPECT_EQ(v, t.samples);
	EXPECT_GE(v, 20);
	close(fd);
	close(to);
}

/* A read() in a thread of its own: what it returned, once it has. */
struct blocked_read {
	int fd;
	ssize_t got;
	int err;
	int done;
};

static char blocked_buf[1 << 16];

static void *read_blocked(void *arg)
{
	struct blocked_read *b = arg;

	b->got = read(b->fd, blocked_buf, sizeof(blocked_buf));
	b->err = errno;
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A read() that waits on an empty queue, and the queue mapped
 * meanwhile (or refused, EBUSY, for the read in progress): once
 * records come to the ring, the read() must not copy them out of it
 * (the kernel would be parsing headers user space may write). It ends
 * with EBUSY, or end of file, or waits on.
 */
TEST_F(ring, blocked_read_never_reads_a_ring_mapped_meanwhile)
{
	struct blocked_read b = { .got = -2 };
	struct pc_child child;
	pthread_t thread;
	struct tally t;
	struct ring r;
	int i, err;

	memset(blocked_buf, 0, sizeof(blocked_buf));
	ASSERT_EQ(0, pc_child_start(&child, child_faults, 20));
	b.fd = open_sampler(child.pid, -1, 0, 0);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&thread, NULL, read_blocked, &b));
	usleep(100000);				/* let it block */
	ASSERT_FALSE(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE));
	err = ring_map(&r, b.fd, 1);
	ASSERT_EQ(0, pc_child_finish(&child));
	for (i = 0; i < 200 && !__atomic_load_n(&b.done, __ATOMIC_ACQUIRE);
	     i++)
		usleep(10000);
	if (__atomic_load_n(&b.done, __ATOMIC_ACQUIRE))
		pthread_join(thread, NULL);
	TH_LOG("mmap() during the read: %s; the read: %s, %zd (%s)",
	       err ? strerror(-err) : "mapped",
	       __atomic_load_n(&b.done, __ATOMIC_ACQUIRE) ? "returned" :
	       "still waits", b.got, b.got < 0 ? strerror(b.err) : "bytes");
	if (err) {
		EXPECT_EQ(-EBUSY, err);
		return;
	}
	EXPECT_GE(0, b.got);
	if (b.got == -1)
		EXPECT_EQ(EBUSY, b.err);
	memset(&t, 0, sizeof(t));
	t.pid[0] = child.pid;
	t.tid[0] = child.pid;
	ASSERT_EQ(0, drain(&r, &t));
	EXPECT_EQ(value_of(b.fd), t.of[0]);
	EXPECT_GE(t.of[0], 20);
	ring_unmap(&r);
}

TEST_HARNESS_MAIN
