// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling counters: a record every irq_period events, read as whole
 * records from the counter's queue, with blocking, O_NONBLOCK, poll()
 * and exact accounting of records lost to a full queue.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

extern char __executable_start[], etext[];

/* One record as read(): its header and up to 64 words after it. */
struct rec {
	struct perf_counter_record_header h;
	uint64_t w[64];
};

static struct rec recs[4096];
static char buf[1 << 16];

/*
 * Reading records must not fault, or it would make records of its own:
 * write the buffers and the stack once in the test's own process (the
 * harness forks each test, so pages written before are copy-on-write
 * there).
 */
FIXTURE(sampling) {
};

FIXTURE_SETUP(sampling)
{
	memset(recs, 0, sizeof(recs));
	memset(buf, 0, sizeof(buf));
	pc_prefault_stack(64 << 10);
}

FIXTURE_TEARDOWN(sampling)
{
}

/*
 * Read every record waiting (O_NONBLOCK) into @out (up to @max); add
 * the counts of LOST records to *lost. Return the number of samples,
 * or -1 if a record is malformed or the read that ends it fails with
 * anything but EAGAIN.
 */
static int drain(int fd, struct rec *out, int max, uint64_t *lost)
{
	int n = 0, fl = fcntl(fd, F_GETFL);
	ssize_t len, off;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len; ) {
			struct perf_counter_record_header *h = (void *)(buf + off);

			if (h->size < 8 || h->size % 8 || off + h->size > len)
				return -1;	/* torn or malformed */
			if (h->type == PERF_COUNTER_REC_LOST) {
				if (lost)
					*lost += *(uint64_t *)(h + 1);
			} else if (h->type == PERF_COUNTER_REC_SAMPLE) {
				if (n < max)
					memcpy(&out[n], h, h->size < sizeof(*out) ?
					       h->size : sizeof(*out));
				n++;
			} else {
				return -1;
			}
			off += h->size;
		}
	}
	fcntl(fd, F_SETFL, fl);
	/* an empty queue says EAGAIN; anything else is an error */
	if (len == 0 || errno != EAGAIN)
		return -1;
	return n;
}

/* Where this process's vDSO is mapped: [*lo, *hi), empty if nowhere. */
static void vdso_range(uint64_t *lo, uint64_t *hi)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long a, b;

	*lo = *hi = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%lx-%lx", &a, &b) == 2) {
			*lo = a;
			*hi = b;
			break;
		}
	fclose(f);
}

/* The pid (first) or tid (second) half of a PERF_RECORD_TID word. */
static pid_t rec_id(uint64_t word, int which)
{
	uint32_t id[2];

	memcpy(id, &word, sizeof(id));
	return id[which];
}

TEST_F(sampling, period_n_over_m_faults_gives_m_over_n_records)
{
	int count = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 10, PERF_RECORD_VALUE,
			      -1, 0);
	uint64_t m, lost = 0;
	int n, i;

	ASSERT_GE(count, 0);
	ASSERT_GE(fd, 0);
	pc_touch_pages(1000);
	n = drain(fd, recs, 4096, &lost);
	m = pc_read(count);
	TH_LOG("%llu faults, %d records", (unsigned long long)m, n);
	EXPECT_EQ(0, lost);
	EXPECT_GE(n, (int)(m / 10) - 1);
	EXPECT_LE(n, (int)(m / 10) + 1);
	/* each record came at the next multiple of the period */
	for (i = 0; i < n && i < 4096; i++) {
		ASSERT_EQ(16, recs[i].h.size);
		EXPECT_EQ(10ULL * (i + 1), recs[i].w[0]);
	}
	close(fd);
	close(count);
}

TEST_F(sampling, sample_fields_are_the_tasks_own)
{
	uint64_t type = PERF_RECORD_IRQ | PERF_RECORD_TID | PERF_RECORD_TIME |
			PERF_RECORD_VALUE;
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1, type, -1, 0);
	uint64_t t0, t1, prev = 0;
	int n, i, touching = 0;

	ASSERT_GE(fd, 0);
	/* fault in drain()'s own code */
	ASSERT_GE(drain(fd, recs, 4096, NULL), 0);
	t0 = pc_now_ns();
	pc_touch_pages(64);
	t1 = pc_now_ns();
	n = drain(fd, recs, 4096, NULL);
	ASSERT_GE(n, 64);
	for (i = 0; i < n; i++) {
		uint64_t ip = recs[i].w[0], time = recs[i].w[2];

		ASSERT_EQ(40, recs[i].h.size);
		EXPECT_EQ(getpid(), rec_id(recs[i].w[1], 0));
		EXPECT_EQ(gettid(), rec_id(recs[i].w[1], 1));
		EXPECT_GE(time, prev);		/* time never goes back */
		prev = time;
		/* one record per fault: the values run on by one */
		if (i)
			EXPECT_EQ(recs[i - 1].w[3] + 1, recs[i].w[3]);
		/* the touching loop's faults, from this program's text */
		touching += time >= t0 && time <= t1 &&
			    ip >= (uintptr_t)__executable_start &&
			    ip < (uintptr_t)etext;
	}
	EXPECT_GE(touching, 64);
	close(fd);
}

TEST_F(sampling, blocking_read_waits_for_a_record)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	int ready[2], fd, status;
	struct rec r;
	uint64_t t0;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	if (pid == 0) {
		/* fault in what the sleep will use, then say so and sleep */
		usleep(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep(200000);
		pc_touch_pages(50);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &r, 1));
	/* a record per 10 faults: a stray fault or two makes none */
	hw.irq_period = 10;
	hw.record_type = PERF_RECORD_VALUE;	/* header and value: 16 bytes */
	fd = sys_perf_counter_open(&hw, pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	t0 = pc_now_ns();
	EXPECT_EQ(16, read(fd, &r, 16));	/* sleeps until the touching */
	EXPECT_GE(pc_now_ns() - t0, 100000000ULL);
	waitpid(pid, &status, 0);
	close(fd);
}

TEST_F(sampling, empty_queue_with_o_nonblock_is_eagain)
{
	int fd = pc_open_sampler(PERF_COUNT_CPU_MIGRATIONS, 1, PERF_RECORD_IRQ,
			      -1, 0);
	struct rec r;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, read(fd, &r, sizeof(r)));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
}

TEST_F(sampling, poll_reports_pollin_when_a_record_waits)
{
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1, PERF_RECORD_IRQ,
			      -1, 0);
	struct pollfd p;

	ASSERT_GE(fd, 0);
	p.fd = fd;
	p.events = POLLIN;
	EXPECT_EQ(0, poll(&p, 1, 0));
	pc_touch_pages(4);
	EXPECT_EQ(1, poll(&p, 1, 1000));
	EXPECT_TRUE(p.revents & POLLIN);
	close(fd);
}

/*
 * A page-fault counter and a sampler of every fault (VALUE records), both
 * current's, opened disabled for prctl() to put on and off together: a
 * fault between two separate opens or enables (a page of this program's
 * code or stack touched there for the first time) would be one's and
 * not the other's.
 */
static int open_fault_pair(int *count, int *fd)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);

	*count = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_VALUE;
	*fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	return *count >= 0 && *fd >= 0 ? 0 : -1;
}

TEST_F(sampling, full_queue_reports_exactly_what_it_dropped)
{
	uint32_t size = 4096;
	uint64_t lost = 0, m;
	int n, count, fd;

	ASSERT_EQ(0, open_fault_pair(&count, &fd));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE));
	pc_touch_pages(2000);		/* 2000 records of 16 bytes: 4 KiB overflows */
	n = drain(fd, recs, 4096, &lost);
	ASSERT_GE(n, 0);
	pc_touch_pages(1);		/* room again: the LOST record goes out */
	m = drain(fd, recs, 4096, &lost);
	ASSERT_NE(-1, (int)m);
	n += m;
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE));
	m = pc_read(count);
	TH_LOG("%llu faults: %d records read, %llu reported lost",
	       (unsigned long long)m, n, (unsigned long long)lost);
	EXPECT_GT(lost, 0);
	EXPECT_LT(n, 300);
	EXPECT_EQ(m, n + lost);
	close(fd);
	close(count);
}

TEST_F(sampling, queue_size_rules)
{
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1, PERF_RECORD_VALUE,
			      -1, 0);
	int counting = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	uint32_t size;

	ASSERT_GE(fd, 0);
	size = 1000;
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EINVAL, errno);
	size = 2 << 20;
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EINVAL, errno);
	size = 2048;
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, NULL));
	EXPECT_EQ(EFAULT, errno);
	pc_touch_pages(4);
	size = 8192;
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EBUSY, errno);	/* records wait */
	EXPECT_GE(drain(fd, recs, 4096, NULL), 4);
	EXPECT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(-1, ioctl(counting, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EINVAL, errno);
	close(counting);
	close(fd);
}

TEST_F(sampling, buffer_smaller_than_a_record_is_enospc)
{
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1,
			      PERF_RECORD_IRQ | PERF_RECORD_TIME, -1, 0);
	char small[16];

	ASSERT_GE(fd, 0);
	pc_touch_pages(2);
	EXPECT_EQ(-1, read(fd, small, sizeof(small)));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(24, read(fd, recs, 24 + 16));	/* whole records only */
	close(fd);
}

/*
 * readv() reads whole records across its buffers, as read() does (it
 * reaches the queue another way: file.c).
 */
TEST_F(sampling, readv_reads_whole_records_across_its_buffers)
{
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1,
			      PERF_RECORD_IRQ | PERF_RECORD_TIME, -1, 0);
	struct perf_counter_record_header *h;
	struct iovec iov[2] = {
		{ .iov_base = buf, .iov_len = 20 },
		{ .iov_base = buf + 20, .iov_len = 36 },
	};

	ASSERT_GE(fd, 0);
	pc_touch_pages(4);
	EXPECT_EQ(48, readv(fd, iov, 2));	/* two of 24, not a third */
	h = (void *)buf;
	EXPECT_EQ(PERF_COUNTER_REC_SAMPLE, h->type);
	EXPECT_EQ(24, h->size);
	h = (void *)(buf + 24);
	EXPECT_EQ(PERF_COUNTER_REC_SAMPLE, h->type);
	EXPECT_EQ(24, h->size);
	close(fd);
	/* and with O_NONBLOCK, an empty queue is EAGAIN (no migration) */
	fd = pc_open_sampler(PERF_COUNT_CPU_MIGRATIONS, 1, PERF_RECORD_IRQ,
			  -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, readv(fd, iov, 2));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
}

TEST_F(sampling, group_record_carries_every_member)
{
	int leader = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 5,
				  PERF_RECORD_VALUE | PERF_RECORD_GROUP, -1, 0);
	int m1, m2, n, i;
	uint64_t prev = 0;

	ASSERT_GE(leader, 0);
	m1 = pc_open_sw(PERF_COUNT_PAGE_FAULTS_MIN, 0, -1, leader);
	m2 = pc_open_sw(PERF_COUNT_CONTEXT_SWITCHES, 0, -1, leader);
	ASSERT_GE(m1, 0);
	ASSERT_GE(m2, 0);
	pc_touch_pages(100);
	n = drain(leader, recs, 4096, NULL);
	ASSERT_GE(n, 19);
	for (i = 0; i < n; i++) {
		/* value, nr, then { config, value } per member */
		ASSERT_EQ(8 * (1 + 1 + 1 + 2 * 2), recs[i].h.size);
		EXPECT_EQ(5ULL * (i + 1), recs[i].w[0]);
		EXPECT_EQ(2, recs[i].w[1]);
		EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					      PERF_COUNT_PAGE_FAULTS_MIN),
			  recs[i].w[2]);
		EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					      PERF_COUNT_CONTEXT_SWITCHES),
			  recs[i].w[4]);
		EXPECT_GE(recs[i].w[3], prev);
		prev = recs[i].w[3];
	}
	EXPECT_GE(prev, 90);	/* the minor faults member kept up */
	close(m2);
	close(m1);
	close(leader);
}

TEST_F(sampling, group_record_on_a_member_is_einval)
{
	int leader = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);

	ASSERT_GE(leader, 0);
	EXPECT_EQ(-1, pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 5,
				   PERF_RECORD_GROUP, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

TEST_F(sampling, task_clock_samples_every_period_of_running_time)
{
	int clock = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);
	int fd = pc_open_sampler(PERF_COUNT_TASK_CLOCK, 1000000,
			      PERF_RECORD_IRQ | PERF_RECORD_TIME, -1, 0);
	uint64_t ran, prev = 0, lost = 0, t0, loops, vdso_lo, vdso_hi;
	int n, i, in_text = 0, in_kernel = 0, in_vdso = 0, reads = 0;
	int shown = 0;

	ASSERT_GE(clock, 0);
	ASSERT_GE(fd, 0);
	/*
	 * 100 ms on the CPU, read about every 10 ms. An emulator delivers
	 * a timer that fell due in the spin where the guest next takes
	 * interrupts, often the read's system call entry: the fewer the
	 * reads, the fewer the samples a kernel IP may honestly carry.
	 */
	t0 = pc_read(clock);
	pc_spin(100000);
	loops = 100000ULL * 10000000 / (pc_read(clock) - t0 + 1) + 1;
	loops = loops > 100000000 ? 100000000 : loops;	/* a clock gone wrong */
	while (pc_read(clock) < 100000000ULL && reads++ < 1000)
		pc_spin(loops);
	/*
	 * The sampler stops first: it ran no longer than the clock read
	 * after it, however long the host holds the CPU in between.
	 */
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ran = pc_read(clock);
	n = drain(fd, recs, 4096, &lost);
	/*
	 * A timer the host made very late writes at most 8 of the samples
	 * it owes and reports the rest lost: every period is accounted.
	 */
	TH_LOG("%d samples and %llu lost for %llu ns of task-clock, %d reads",
	       n, (unsigned long long)lost, (unsigned long long)ran, reads);
	EXPECT_GE(n + (int)lost, (int)(ran / 1000000) * 9 / 10 - 2);
	EXPECT_LE(n + (int)lost, (int)(ran / 1000000) + 2);
	EXPECT_GE(n, (int)(ran / 1000000) / 2);
	vdso_range(&vdso_lo, &vdso_hi);
	for (i = 0; i < n; i++) {
		uint64_t ip = recs[i].w[0];
		int here = ip >= (uintptr_t)__executable_start &&
			   ip < (uintptr_t)etext;

		if (!here && shown++ < 8)	/* where, if it fails */
			TH_LOG("sample %d outside the text: ip %#llx", i,
			       (unsigned long long)ip);
		in_text += here;
		in_kernel += pc_ip_is_kernel(ip);
		in_vdso += ip >= vdso_lo && ip < vdso_hi;
		EXPECT_GT(recs[i].w[1], prev);
		prev = recs[i].w[1];
	}
	/*
	 * The interrupted IP: the spin's, or the kernel's in a read, or the
	 * vDSO's on the way in (i386's system calls enter through its
	 * __kernel_vsyscall)
	 */
	EXPECT_EQ(n, in_text + in_kernel + in_vdso);
	EXPECT_GE(in_text, n * 8 / 10);		/* mostly in the spin */
	close(fd);
	close(clock);
}

TEST_F(sampling, clock_period_below_the_floor_is_einval)
{
	EXPECT_EQ(-1, pc_open_sampler(PERF_COUNT_TASK_CLOCK, 1000,
				   PERF_RECORD_IRQ, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(sampling, inherited_sampler_receives_the_childrens_records)
{
	int fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1, PERF_RECORD_TID,
			      -1, 1);
	struct pc_child child;
	int n, i, theirs = 0;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 100));
	ASSERT_EQ(0, pc_child_finish(&child));
	n = drain(fd, recs, 4096, NULL);
	for (i = 0; i < n; i++)
		theirs += rec_id(recs[i].w[0], 0) == child.pid;
	EXPECT_GE(theirs, 100);
	close(fd);
}

/*
 * Drops that no later record follows: once the queue is read empty,
 * the LOST record of them comes on its own, and the queue can then be
 * resized. Before, the reader saw EAGAIN and never learned of them.
 */
TEST_F(sampling, drops_with_no_record_after_them_are_told_once_empty)
{
	uint32_t size = 4096;
	uint64_t lost = 0, m;
	int n, count, fd;

	ASSERT_EQ(0, open_fault_pair(&count, &fd));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE));
	pc_touch_pages(1000);		/* 256 records fit: the rest drop */
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE));
	m = pc_read(count);
	n = drain(fd, recs, 4096, &lost);	/* no fault after the burst */
	TH_LOG("%llu faults: %d records, %llu told lost",
	       (unsigned long long)m, n, (unsigned long long)lost);
	ASSERT_GE(n, 0);
	EXPECT_GT(lost, 0);
	EXPECT_EQ(m, n + lost);
	size = 8192;			/* nothing waits now */
	EXPECT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	close(fd);
	close(count);
}

/*
 * A queue must hold the largest record its counter writes: a group
 * leader's queue of 4 KiB (512 words) takes group records of a header,
 * the value, the count and 2 words a member, after a LOST record of 2:
 * 253 members at most. The 254th member is ENOSPC; in 8 KiB it fits,
 * and then a queue of 4 KiB, too small for the group, is EINVAL.
 */
TEST_F(sampling, a_queue_too_small_for_the_largest_record_is_refused)
{
	int leader = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1000,
				  PERF_RECORD_VALUE | PERF_RECORD_GROUP, -1, 0);
	static int members[300];
	uint32_t size = 4096;
	int n, i;

	ASSERT_GE(leader, 0);
	ASSERT_EQ(0, ioctl(leader, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	for (n = 0; n < 300; n++) {
		members[n] = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, leader);
		if (members[n] < 0)
			break;
	}
	EXPECT_EQ(253, n);
	EXPECT_EQ(ENOSPC, errno);
	size = 8192;
	EXPECT_EQ(0, ioctl(leader, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	members[n] = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, leader);
	EXPECT_GE(members[n], 0);		/* room for one more now */
	if (members[n] >= 0)
		n++;
	size = 4096;			/* back to 4 KiB: 254 do not fit */
	EXPECT_EQ(-1, ioctl(leader, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	EXPECT_EQ(EINVAL, errno);
	for (i = 0; i < n; i++)
		close(members[i]);
	close(leader);
}

/*
 * Each kind of member is brought up to date under each kind of leader:
 * a task-clock leader sampling every 10 ms of its time with a cpu-clock
 * member (the same time, counted apart) and a page-fault member.
 */
TEST_F(sampling, clock_leaders_records_carry_current_clock_members)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 1);
	int leader, clock, faults, n, i;
	uint64_t lost = 0;

	hw.irq_period = 10000000;
	hw.record_type = PERF_RECORD_VALUE | PERF_RECORD_GROUP;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	clock = pc_open_sw(PERF_COUNT_CPU_CLOCK, 0, -1, leader);
	faults = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, leader);
	ASSERT_GE(clock, 0);
	ASSERT_GE(faults, 0);
	ASSERT_EQ(0, pc_enable(leader));	/* the group starts as one */
	for (i = 0; i < 20; i++) {
		pc_touch_pages(5);
		pc_spin_ns(10000000);
	}
	ASSERT_EQ(0, ioctl(leader, PERF_COUNTER_IOC_DISABLE, 0));
	n = drain(leader, recs, 4096, &lost);
	ASSERT_GE(n, 10);
	for (i = 0; i < n; i++) {
		/* value, nr, { cpu-clock, v }, { page-faults, v } */
		uint64_t task = recs[i].w[0], cpu = recs[i].w[3];

		ASSERT_EQ(8 * 7, recs[i].h.size);
		EXPECT_EQ(2, recs[i].w[1]);
		/*
		 * The same running time, read a moment apart: within 1 ms,
		 * and 1% of it besides (on ppc64le, with a kernel building
		 * beside the boot, cpu-clock ran 1.016 ms ahead at 132 ms).
		 */
		EXPECT_LE(cpu, task + 1000000 + task / 100)
			TH_LOG("record %d: task-clock %llu, cpu-clock %llu",
			       i, (unsigned long long)task,
			       (unsigned long long)cpu);
		EXPECT_GE(cpu + 1000000 + task / 100, task)
			TH_LOG("record %d: task-clock %llu, cpu-clock %llu",
			       i, (unsigned long long)task,
			       (unsigned long long)cpu);
		if (i)
			EXPECT_GE(recs[i].w[5], recs[i - 1].w[5]);
	}
	close(faults);
	close(clock);
	close(leader);
}

/* A reader blocked in read() of @fd, in a child: what read() returned. */
struct blocked_reader {
	pid_t	pid;
	int	result;		/* read end: the child's read() result */
};

static int start_blocked_reader(struct blocked_reader *r, int fd)
{
	int p[2];

	if (pipe(p))
		return -1;
	r->pid = fork();
	if (r->pid == 0) {
		long n = read(fd, buf, sizeof(buf));

		if (write(p[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	r->result = p[0];
	usleep(100000);			/* let it block */
	return r->pid < 0 ? -1 : 0;
}

/* What the reader's read() returned, or -2 if it is still blocked. */
static long blocked_reader_result(struct blocked_reader *r, int ms)
{
	struct pollfd p = { .fd = r->result, .events = POLLIN };
	long n = -2;

	if (poll(&p, 1, ms) == 1 && read(r->result, &n, sizeof(n)) != sizeof(n))
		n = -3;
	if (n == -2)
		kill(r->pid, SIGKILL);
	waitpid(r->pid, NULL, 0);
	close(r->result);
	return n;
}

/*
 * A pinned sampler that enters the error state (a pinned exclusive
 * group holds the context) wakes the reader blocked on it: read()
 * returns 0, end of file, and poll() says readable and hung up.
 */
TEST_F(sampling, reader_blocked_on_a_group_that_enters_error_is_woken)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	struct blocked_reader r;
	struct pollfd p;
	int excl, fd;

	hw.pinned = 1;
	hw.exclusive = 1;
	excl = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(excl, 0);
	hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	hw.pinned = 1;
	hw.irq_period = 1000000;
	hw.record_type = PERF_RECORD_VALUE;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	p.fd = fd;
	p.events = POLLIN;
	EXPECT_EQ(0, poll(&p, 1, 0));		/* control: nothing yet */
	ASSERT_EQ(0, start_blocked_reader(&r, fd));
	ASSERT_EQ(0, pc_enable(fd));		/* cannot go on: error */
	EXPECT_EQ(0, blocked_reader_result(&r, 2000));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN | POLLHUP, p.revents & (POLLIN | POLLHUP));
	close(fd);
	close(excl);
}

/*
 * Once the counted task has exited (and no inherited copy is left),
 * nothing more can come: a reader blocked on an empty queue is woken
 * with end of file, and poll() says readable and hung up.
 */
TEST_F(sampling, reader_is_told_when_the_counted_task_has_exited)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);
	struct blocked_reader r;
	struct pc_child child;
	struct pollfd p;
	int fd;

	hw.irq_period = 1000000;		/* no record will come */
	hw.record_type = PERF_RECORD_VALUE;
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 10));
	fd = sys_perf_counter_open(&hw, child.pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	p.fd = fd;
	p.events = POLLIN;
	EXPECT_EQ(0, poll(&p, 1, 0));		/* control: it runs on */
	ASSERT_EQ(0, start_blocked_reader(&r, fd));
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_EQ(0, blocked_reader_result(&r, 2000));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN | POLLHUP, p.revents & (POLLIN | POLLHUP));
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));	/* end of file */
	close(fd);
}

/* A read() into memory whose fault user space answers: what it gave. */
struct faulting_read {
	int	fd;
	char	*to;
	ssize_t	got;
};

static void *read_into_the_fault(void *arg)
{
	struct faulting_read *r = arg;

	r->got = read(r->fd, r->to, 4096);
	return NULL;
}

/* A call on @fd from another thread: its errno (or 0), once done. */
struct side_call {
	int	fd;
	int	err;
	int	done;
};

static void side_call_done(struct side_call *c, int failed)
{
	c->err = failed ? errno : 0;
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

/* Whether it returned within 10 s (a loaded host's worst). */
static int side_call_returns(struct side_call *c)
{
	int i;

	for (i = 0; i < 1000 && !__atomic_load_n(&c->done, __ATOMIC_ACQUIRE);
	     i++)
		usleep(10000);
	return __atomic_load_n(&c->done, __ATOMIC_ACQUIRE);
}

static void *resize_the_queue(void *arg)
{
	struct side_call *c = arg;
	uint32_t size = 8192;

	side_call_done(c, ioctl(c->fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	return NULL;
}

/* A reader with O_NONBLOCK set, for as long as its read() takes. */
static void *read_without_waiting(void *arg)
{
	struct side_call *c = arg;
	int fl = fcntl(c->fd, F_GETFL);
	char some[64];

	fcntl(c->fd, F_SETFL, fl | O_NONBLOCK);
	side_call_done(c, read(c->fd, some, sizeof(some)) < 0);
	fcntl(c->fd, F_SETFL, fl);
	return NULL;
}

/*
 * A reader that faults on memory user space answers (userfaultfd here,
 * a FUSE file alike) holds the queue for as long as the answer takes.
 * A resize must not wait for it holding what every open, close, fork
 * and exit of the context needs: it is EBUSY at once, and the context
 * stays free while the fault is unanswered. A reader that asked not to
 * wait is EAGAIN, not held behind the fault.
 */
TEST_F(sampling, resize_while_a_read_waits_on_a_user_fault_is_ebusy)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct faulting_read r = { .got = -1 };
	struct side_call z = { .err = -1 }, nb = { .err = -1 };
	long psz = sysconf(_SC_PAGESIZE);
	pthread_t reader, resizer, nonblocking;
	struct pollfd pfd;
	struct uffd_msg msg;
	uint32_t size = 8192;
	int uffd, fd, other;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	ASSERT_LE(0, uffd);
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	r.to = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(r.to != MAP_FAILED);
	reg.range.start = (uintptr_t)r.to;
	reg.range.len = psz;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));

	fd = pc_open_sampler(PERF_COUNT_PAGE_FAULTS, 1, PERF_RECORD_VALUE,
			  -1, 0);
	ASSERT_LE(0, fd);
	pc_touch_pages(4);		/* records to read */
	r.fd = fd;
	z.fd = fd;
	nb.fd = fd;
	ASSERT_EQ(0, pthread_create(&reader, NULL, read_into_the_fault, &r));
	/* the fault's message: the reader is in it, the queue held */
	pfd = (struct pollfd){ .fd = uffd, .events = POLLIN };
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	ASSERT_EQ(0, pthread_create(&resizer, NULL, resize_the_queue, &z));
	ASSERT_EQ(0, pthread_create(&nonblocking, NULL, read_without_waiting,
				    &nb));
	EXPECT_TRUE(side_call_returns(&nb))
		TH_LOG("an O_NONBLOCK read waits on the reader's fault");
	EXPECT_TRUE(side_call_returns(&z))
		TH_LOG("the resize waits on the reader's fault");
	if (__atomic_load_n(&z.done, __ATOMIC_ACQUIRE)) {
		/* the context is free: a counter opens and closes on it */
		other = pc_open_sw(PERF_COUNT_CONTEXT_SWITCHES, 0, -1, -1);
		EXPECT_LE(0, other);
		close(other);
	}

	/* answered, the fault lets the reader have its records */
	zero.range.start = (uintptr_t)r.to;
	zero.range.len = psz;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	pthread_join(reader, NULL);
	pthread_join(resizer, NULL);
	pthread_join(nonblocking, NULL);
	EXPECT_EQ(EBUSY, z.err);
	EXPECT_EQ(EAGAIN, nb.err);
	EXPECT_GE(r.got, 8);
	/* nothing reads now: the resize goes through */
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	EXPECT_LE(0, drain(fd, recs, 4096, NULL));
	EXPECT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	close(fd);
	munmap(r.to, psz);
	close(uffd);
}

TEST_HARNESS_MAIN
