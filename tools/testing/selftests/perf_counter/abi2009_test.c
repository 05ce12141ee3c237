// SPDX-License-Identifier: GPL-2.0
/*
 * The records of the 2009 perf-counters.txt, read as a 2009 program reads them: with
 * record_type PERF_RECORD_IRQ alone each record is the 8-byte IP, with
 * PERF_RECORD_GROUP alone it is the event_config and value of every
 * other member; no header, whole records only, drops told by
 * PERF_COUNTER_IOC_LOST. Group records carry the members' values as
 * they are at the sample, in both formats.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

extern char __executable_start[], etext[];

/*
 * The two functions the client's histogram must find. noipa: neither
 * inlined nor cloned, each one function of its own at its address.
 */

#define SPIN(loops) do {						\
	unsigned long x = 0, l = (loops);				\
	while (l--) {							\
		x += l;							\
		__asm__ __volatile__("" : "+r" (x));			\
	}								\
} while (0)

__attribute__((noipa))
static void hot_a(unsigned long loops)
{
	SPIN(loops);
}

__attribute__((noipa))
static void hot_b(unsigned long loops)
{
	SPIN(loops);
}

static uint64_t cpu_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The profiled child: three parts in hot_a to one in hot_b, for @ms of
 * its CPU time, asking the kernel the time seldom (periods that end in
 * the kernel are neither samples nor drops). Each call spans several
 * sampling periods (tens of ms under TCG, against 1 ms), so the samples
 * cannot fall into step with the calls: with calls of about one period
 * (100 us) they did under a loaded host, and one function took most.
 */
static void spin_a_and_b(int ms)
{
	uint64_t end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000ULL;

	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		hot_a(900000);
		hot_b(300000);
	}
}

static uint64_t ioc_lost(int fd)
{
	uint64_t n = ~0ULL;

	if (ioctl(fd, PERF_COUNTER_IOC_LOST, &n))
		return ~0ULL;
	return n;
}

struct histogram {
	long	a, b, text, other, kernel, reads, bad_reads;
};

static void spin_a_and_b(int ms);
static void read_ips(int fd, struct histogram *h);

/*
 * Where @fn ends, as a 2009 tool found it in the symbol table: at the
 * next function's entry (of those this file knows), at most 256 bytes
 * on; the spin loops are a few dozen.
 */
static uintptr_t fn_end(uintptr_t fn)
{
	const uintptr_t entries[] = {
		(uintptr_t)hot_a, (uintptr_t)hot_b, (uintptr_t)spin_a_and_b,
		(uintptr_t)cpu_ns, (uintptr_t)read_ips,
	};
	uintptr_t end = fn + 256;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(entries); i++)
		if (entries[i] > fn && entries[i] < end)
			end = entries[i];
	return end;
}

static void bin_ip(struct histogram *h, uint64_t ip)
{
	if (ip >= (uintptr_t)hot_a && ip < fn_end((uintptr_t)hot_a))
		h->a++;
	else if (ip >= (uintptr_t)hot_b && ip < fn_end((uintptr_t)hot_b))
		h->b++;
	else if (ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext)
		h->text++;
	else if (pc_ip_is_kernel(ip))
		h->kernel++;
	else
		h->other++;		/* the vDSO, say */
}

/*
 * Every IP waiting, one read(fd, &ip, 8) each, as kerneltop read them,
 * to EAGAIN, or to end of file once the child has exited.
 */
static void read_ips(int fd, struct histogram *h)
{
	uint64_t ip;
	ssize_t n;

	while ((n = read(fd, &ip, sizeof(ip))) > 0) {
		h->reads++;
		if (n != sizeof(ip))
			h->bad_reads++;
		else
			bin_ip(h, ip);
	}
	if (n < 0 && errno != EAGAIN)
		h->bad_reads++;
}

/* perf_events' sampler of the same clock, period and task: the reference. */
struct pe_sampler {
	int	fd;
	void	*ring;
	size_t	len;
};

#define PE_RING_PAGES	16

static int pe_sampler_open(struct pe_sampler *s, pid_t pid, uint64_t period)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.exclude_kernel = 1;
	s->fd = syscall(__NR_perf_event_open, &attr, pid, -1, -1, 0);
	if (s->fd < 0)
		return -1;
	s->len = (PE_RING_PAGES + 1) * sysconf(_SC_PAGESIZE);
	s->ring = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       s->fd, 0);
	if (s->ring == MAP_FAILED) {
		close(s->fd);
		return -1;
	}
	return 0;
}

static void ring_copy(const char *data, uint64_t size, uint64_t off,
		      void *to, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((char *)to)[i] = data[(off + i) % size];
}

/*
 * Every sample's IP in the ring into @h, once the task has exited (never
 * consumed: the ring holds 4096 samples, ten times the run's); returns
 * the samples lost.
 */
static uint64_t pe_sampler_histogram(struct pe_sampler *s, struct histogram *h)
{
	const struct perf_event_mmap_page *pg = s->ring;
	const char *data = (const char *)s->ring + pg->data_offset;
	uint64_t head = pg->data_head;	/* the task is gone: no writer */
	uint64_t size = pg->data_size, tail = 0, lost = 0, v[2];
	struct perf_event_header hdr;

	while (tail + sizeof(hdr) <= head) {
		ring_copy(data, size, tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr))
			break;
		if (hdr.type == PERF_RECORD_SAMPLE) {
			ring_copy(data, size, tail + sizeof(hdr), v, 8);
			bin_ip(h, v[0]);
		} else if (hdr.type == PERF_RECORD_LOST) {
			ring_copy(data, size, tail + sizeof(hdr), v, 16);
			lost += v[1];
		}
		tail += hdr.size;
	}
	return lost;
}

static void pe_sampler_close(struct pe_sampler *s)
{
	munmap(s->ring, s->len);
	close(s->fd);
}

/*
 * The 2009 client: a task-clock sampler on another process, IRQ
 * records, a poll() loop reading single 8-byte IPs into a histogram of
 * the program's own functions. Every period of the child's running
 * time is a sample or a drop; the samples fall in the two functions,
 * more in hot_a, which runs three times as long as hot_b. How many more
 * is what perf_events' sampler of the same task and period finds at the
 * same time: under TCG a loop's iterations do not take the same time in
 * both (from 3:1 to 12:1 seen), and the sampling sees what the CPU did.
 */
TEST(kerneltop_style_client_histograms_the_childs_functions)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	struct histogram h = { 0 }, pe = { 0 };
	struct pe_sampler ref;
	double share, pe_share;
	uint64_t pe_lost;
	struct pc_child child;
	struct pollfd p;
	uint64_t ran, lost, periods, last;
	int fd, clock, status, done = 0;
	long samples;

	ASSERT_EQ(0, pc_child_start(&child, spin_a_and_b, 300));
	hw.irq_period = 1000000;		/* 1 ms */
	hw.record_type = PERF_RECORD_IRQ;
	hw.exclude_kernel = 1;
	fd = sys_perf_counter_open(&hw, child.pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	clock = pc_open_sw(PERF_COUNT_TASK_CLOCK, child.pid, -1, -1);
	ASSERT_GE(clock, 0);
	ASSERT_EQ(0, pe_sampler_open(&ref, child.pid, hw.irq_period));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	ASSERT_EQ(1, write(child.go, "x", 1));

	p.fd = fd;
	p.events = POLLIN;
	while (!done) {
		if (poll(&p, 1, 100) > 0 && (p.revents & POLLIN))
			read_ips(fd, &h);
		done = waitpid(child.pid, &status, WNOHANG) == child.pid;
	}
	read_ips(fd, &h);
	/* the child is gone, and so is every record: end of file */
	EXPECT_EQ(0, read(fd, &last, sizeof(last)));
	ran = pc_read(clock);
	lost = ioc_lost(fd);
	pe_lost = pe_sampler_histogram(&ref, &pe);
	pe_sampler_close(&ref);
	samples = h.a + h.b + h.text + h.other + h.kernel;
	periods = ran / hw.irq_period;
	TH_LOG("child ran %llu ns: %ld samples in %ld reads (hot_a %ld, hot_b %ld, other text %ld, elsewhere %ld, kernel %ld), %llu lost",
	       (unsigned long long)ran, samples, h.reads, h.a, h.b, h.text,
	       h.other, h.kernel, (unsigned long long)lost);
	TH_LOG("perf_events: hot_a %ld, hot_b %ld, other text %ld, elsewhere %ld, kernel %ld, %llu lost",
	       pe.a, pe.b, pe.text, pe.other, pe.kernel,
	       (unsigned long long)pe_lost);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(0, h.bad_reads);
	EXPECT_EQ(samples, h.reads);		/* one IP a read */
	EXPECT_NE(~0ULL, lost);
	/*
	 * Every period a sample or a drop, but for those that end in the
	 * kernel (exclude_kernel), which are neither: the child's system
	 * calls and interrupts, and on a one-CPU machine the switches to
	 * this reader, took up to 41% of its time under TCG (ppc32).
	 */
	EXPECT_LE(samples + (long)lost, (long)periods + 2);
	EXPECT_GE(samples + (long)lost, (long)periods / 2 - 2);
	EXPECT_EQ(0, h.kernel);			/* exclude_kernel */
	/* the loop around them and the vDSO's clock: 18% on a 750 */
	EXPECT_GE(h.a + h.b, samples * 75 / 100);
	/*
	 * Both functions found, hot_a more, and hot_b's share of the two
	 * within 0.15 of the share perf_events finds (3:1 is 0.25; the old
	 * factor of three on the ratios allowed 0.10 to 0.50): on one
	 * CPU (the PowerPCs) the two samplers' ratios have differed by up
	 * to 25% (shares 0.25 and 0.21), about one sigma for the 50 to 80
	 * samples in hot_b; on two, by 10% at most on a quiet host. On a
	 * loaded one the timer fires late, and ours makes up each period
	 * it missed with a sample at the one IP it interrupted (perf_events
	 * takes one sample): bursts that made ours 8.8:1 against
	 * perf_events' 4.2:1 once (0.10 and 0.19), and once, beside a
	 * fuzzer and kernel builds, 248:1 against 52:1 (0.004 and 0.019:
	 * both samplers saw hot_b once), which a bound on the ratios took
	 * for a disagreement; beside the same load 0.031 against 0.155.
	 * Shares compare what the two saw; a sampler
	 * that put everything in hot_a where perf_events finds 3:1 is 0.25
	 * off.
	 * Every period of ours is a sample or a drop, where perf_events
	 * skips the periods a late timer missed: ours are not fewer, but
	 * for 10%.
	 */
	ASSERT_GT(h.b, 0);
	ASSERT_GT(pe.b, 0);
	EXPECT_GT(h.a, h.b);
	share = (double)h.b / (h.a + h.b);
	pe_share = (double)pe.b / (pe.a + pe.b);
	EXPECT_LE(share, pe_share + 0.15) TH_LOG("hot_b %.3f against %.3f",
						 share, pe_share);
	EXPECT_GE(share, pe_share - 0.15) TH_LOG("hot_b %.3f against %.3f",
						 share, pe_share);
	EXPECT_GE(10 * (samples + (long)lost),
		  9 * (pe.a + pe.b + pe.text + pe.other));
	close(clock);
	close(fd);
}

/* A page-fault sampler at period 1 on this task, records as @type. */
static int open_fault_sampler(uint64_t type, int disabled)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS,
						disabled);

	hw.irq_period = 1;
	hw.record_type = type;
	return sys_perf_counter_open(&hw, 0, -1, -1, 0);
}

static uint64_t ips[4096];

/*
 * The counter and the sampler see the same faults: opened disabled and
 * turned on and off together by prctl() (a fault of the test's own
 * between two opens made them differ by one on the 7450).
 */
TEST(an_8_byte_read_is_one_ip_and_a_larger_one_whole_ips)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	int count = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	int fd = open_fault_sampler(PERF_RECORD_IRQ, 1);
	uint64_t faults, ip;
	ssize_t n;
	long got = 0, in_text = 0, i;

	ASSERT_GE(count, 0);
	ASSERT_GE(fd, 0);
	memset(ips, 0, sizeof(ips));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	pc_touch_pages(20);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	faults = pc_read(count);
	ASSERT_GE(faults, 20);

	EXPECT_EQ(-1, read(fd, &ip, 4));	/* less than a record */
	EXPECT_EQ(ENOSPC, errno);
	ASSERT_EQ(8, read(fd, &ip, 8));
	got = 1;
	in_text += ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext;
	/* 12 bytes hold one record of 8: whole records only */
	ASSERT_EQ(8, read(fd, ips, 12));
	got++;
	n = read(fd, ips, sizeof(ips));
	ASSERT_GT(n, 0);
	EXPECT_EQ(0, n % 8);
	got += n / 8;
	for (i = 0; i < n / 8; i++)
		in_text += ips[i] >= (uintptr_t)__executable_start &&
			   ips[i] < (uintptr_t)etext;
	TH_LOG("%llu faults, %ld IPs, %ld in this program's text",
	       (unsigned long long)faults, got, in_text);
	EXPECT_EQ((long)faults, got + (long)ioc_lost(fd));
	EXPECT_EQ(0, ioc_lost(fd));
	EXPECT_GE(in_text, got - 4);		/* the touching, in user mode */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, read(fd, &ip, 8));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
	close(count);
}

/*
 * A 2009-format queue has no LOST records: the ioctl tells the drops,
 * exactly. Control: an extended-format queue's LOST records say the
 * same number as its ioctl. The counter and the sampler are opened
 * disabled and turned on and off together by prctl(), so that they
 * see the same faults (a fault of the test's own between two opens or
 * two ioctls made them differ by one).
 */
TEST(format_2009_drops_are_told_by_ioc_lost)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	int count = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	int fd = open_fault_sampler(PERF_RECORD_IRQ, 1);
	uint32_t size = 4096;			/* 512 IPs */
	uint64_t faults, lost;
	long got = 0;
	ssize_t n;

	ASSERT_GE(count, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	pc_touch_pages(2000);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	faults = pc_read(count);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	while ((n = read(fd, ips, sizeof(ips))) > 0) {
		EXPECT_EQ(0, n % 8);
		got += n / 8;
	}
	EXPECT_EQ(EAGAIN, errno);
	lost = ioc_lost(fd);
	TH_LOG("%llu faults: %ld IPs read, %llu lost",
	       (unsigned long long)faults, got, (unsigned long long)lost);
	EXPECT_LE(got, 512);
	EXPECT_GT(lost, 0);
	EXPECT_EQ(faults, got + lost);
	/* the ioctl's own errors */
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_LOST, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(count, PERF_COUNTER_IOC_LOST, &lost));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	close(count);
}

TEST(extended_format_lost_records_match_ioc_lost)
{
	int fd = open_fault_sampler(PERF_RECORD_VALUE, 0);
	uint32_t size = 4096;			/* 256 records of 16 bytes */
	uint64_t told = 0, samples = 0, lost;
	char buf[4096];
	ssize_t n, off;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &size));
	pc_touch_pages(1000);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n <= 0) {
			if (told || samples > 300)
				break;
			pc_touch_pages(1);	/* the LOST record goes out */
			continue;
		}
		for (off = 0; off < n; ) {
			struct perf_counter_record_header *h = (void *)(buf + off);

			ASSERT_TRUE(h->size >= 16 && off + h->size <= n);
			if (h->type == PERF_COUNTER_REC_LOST)
				told += *(uint64_t *)(h + 1);
			else
				samples++;
			off += h->size;
		}
	}
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	lost = ioc_lost(fd);
	TH_LOG("%llu samples, %llu told lost, ioctl says %llu",
	       (unsigned long long)samples, (unsigned long long)told,
	       (unsigned long long)lost);
	EXPECT_GT(told, 0);
	EXPECT_EQ(told, lost);
	close(fd);
}

/*
 * Group records: a page-fault leader at period 1 with a task-clock and
 * a minor-fault member; between two faults 40 ms of CPU. Each record
 * must carry the task-clock as it is at that fault: consecutive values
 * apart by the CPU burned in between.
 */
#define BURN_NS		40000000ULL
#define TICK_NS		8000000ULL	/* TCG's clock moves in ticks */
#define GROUP_FAULTS	5

static void touch_and_burn(uint64_t *span)
{
	uint64_t start = cpu_ns(CLOCK_THREAD_CPUTIME_ID), end;
	int i;

	for (i = 0; i < GROUP_FAULTS; i++) {
		pc_touch_pages(1);
		if (i == GROUP_FAULTS - 1)
			break;
		end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + BURN_NS;
		while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
			pc_spin(10000);
	}
	*span = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - start;
}

static int open_group(uint64_t type, int *members)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 1);
	int leader;

	hw.irq_period = 1;
	hw.record_type = type;
	leader = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	if (leader < 0)
		return -1;
	members[0] = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, leader);
	members[1] = pc_open_sw(PERF_COUNT_PAGE_FAULTS_MIN, 0, -1, leader);
	if (members[0] < 0 || members[1] < 0)
		return -1;
	return leader;
}

/* Records of { clock config, clock, fault config, faults } as pairs. */
static void check_group_values(struct __test_metadata *_metadata,
			       uint64_t (*rec)[4], int n, uint64_t span)
{
	int i;

	ASSERT_GE(n, GROUP_FAULTS);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					      PERF_COUNT_TASK_CLOCK), rec[i][0]);
		EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
					      PERF_COUNT_PAGE_FAULTS_MIN),
			  rec[i][2]);
	}
	/* the last GROUP_FAULTS records are the touched pages' */
	for (i = n - GROUP_FAULTS + 1; i < n; i++) {
		uint64_t d = rec[i][1] - rec[i - 1][1];

		TH_LOG("record %d: task-clock %llu (+%llu ns), minor faults %llu",
		       i, (unsigned long long)rec[i][1], (unsigned long long)d,
		       (unsigned long long)rec[i][3]);
		EXPECT_GE(d, BURN_NS - TICK_NS);
		EXPECT_LE(d, span + TICK_NS);
		EXPECT_GT(rec[i][3], rec[i - 1][3]);
	}
}

TEST(format_2009_group_records_carry_the_members_values_at_the_sample)
{
	static uint64_t rec[64][4];
	int members[2], leader, n;
	uint64_t span;
	ssize_t len;

	leader = open_group(PERF_RECORD_GROUP, members);
	ASSERT_GE(leader, 0);
	pc_prefault_stack(64 << 10);
	memset(rec, 0, sizeof(rec));
	ASSERT_EQ(0, pc_enable(leader));
	touch_and_burn(&span);
	ASSERT_EQ(0, pc_disable(leader));
	ASSERT_EQ(0, fcntl(leader, F_SETFL, O_NONBLOCK));
	/* a record is 32 bytes: one a read of 32 */
	for (n = 0; n < 64; n++) {
		len = read(leader, rec[n], 32);
		if (len < 0)
			break;
		ASSERT_EQ(32, len);
	}
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, ioc_lost(leader));
	check_group_values(_metadata, rec, n, span);
	close(members[1]);
	close(members[0]);
	close(leader);
}

TEST(extended_group_records_carry_the_members_values_at_the_sample)
{
	static uint64_t rec[64][4];
	static char buf[8192];
	int members[2], leader, n = 0;
	uint64_t span;
	ssize_t len, off;

	leader = open_group(PERF_RECORD_TID | PERF_RECORD_GROUP, members);
	ASSERT_GE(leader, 0);
	pc_prefault_stack(64 << 10);
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, pc_enable(leader));
	touch_and_burn(&span);
	ASSERT_EQ(0, pc_disable(leader));
	ASSERT_EQ(0, fcntl(leader, F_SETFL, O_NONBLOCK));
	while ((len = read(leader, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len && n < 64; n++) {
			struct perf_counter_record_header *h = (void *)(buf + off);
			uint64_t *w = (uint64_t *)(h + 1);

			/* header, tid, nr, two pairs */
			ASSERT_EQ(PERF_COUNTER_REC_SAMPLE, h->type);
			ASSERT_EQ(8 * 7, h->size);
			EXPECT_EQ(2, w[1]);
			memcpy(rec[n], w + 2, sizeof(rec[n]));
			off += h->size;
		}
	}
	check_group_values(_metadata, rec, n, span);
	close(members[1]);
	close(members[0]);
	close(leader);
}

/* A 2009-format group record of no other member has nothing to say. */
TEST(a_leader_alone_writes_no_2009_group_record)
{
	int fd = open_fault_sampler(PERF_RECORD_GROUP, 0);
	int ctl = open_fault_sampler(PERF_RECORD_IRQ, 0);
	uint64_t w[4];

	ASSERT_GE(fd, 0);
	ASSERT_GE(ctl, 0);
	pc_touch_pages(10);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	ASSERT_EQ(0, fcntl(ctl, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(8, read(ctl, w, sizeof(w[0])));	/* control: it sampled */
	EXPECT_EQ(-1, read(fd, w, sizeof(w)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, ioc_lost(fd));
	close(ctl);
	close(fd);
}

TEST_HARNESS_MAIN
