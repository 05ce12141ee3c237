// SPDX-License-Identifier: GPL-2.0
/*
 * The self-monitoring library, tools/perf_counter/lib/pc_monitor.c,
 * built into this test as one translation unit. Regions: what a group
 * of task-clock and page-faults counts over code that touches fresh
 * pages, read through the counter pages with no read() at all, the
 * group's leader switching its members, the scaled estimate, and the
 * refusals that leave no fd, counter or page behind. Overflow signals:
 * a signal every 10 page faults with the counter's fd and POLL_IN, a
 * refresh of 5 that ends with POLL_HUP and a counter that stopped
 * counting, a new period, a full table, and the signal's old action
 * called for what is not the library's and put back at the end.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "pc_util.h"
#include "../../../perf_counter/lib/pc_monitor.c"

extern char __executable_start[], etext[];

/* The overflow tests' signal: real-time, so that none merge. */
#define OV_SIG		(SIGRTMIN + 2)

#define NO_SIGNALS	"the kernel has no overflow signals (PERF_COUNTER_IOC_REFRESH: ENOTTY)"

/* An event that does not exist: the kernel refuses it (config.c). */
#define BAD_CONFIG	PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, 63)

TEST(event_names)
{
	uint64_t c = 0;

	EXPECT_EQ(0, pcm_event_config("cycles", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
				      PERF_COUNT_CPU_CYCLES), c);
	EXPECT_EQ(0, pcm_event_config("instructions", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
				      PERF_COUNT_INSTRUCTIONS), c);
	EXPECT_EQ(0, pcm_event_config("task-clock", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
				      PERF_COUNT_TASK_CLOCK), c);
	EXPECT_EQ(0, pcm_event_config("page-faults", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
				      PERF_COUNT_PAGE_FAULTS), c);
	EXPECT_EQ(0, pcm_event_config("cs", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
				      PERF_COUNT_CONTEXT_SWITCHES), c);
	EXPECT_EQ(0, pcm_event_config("major-faults", &c));
	EXPECT_EQ(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
				      PERF_COUNT_PAGE_FAULTS_MAJ), c);
	/* Raw codes: hex, 63 bits at most. */
	EXPECT_EQ(0, pcm_event_config("r1c2", &c));
	EXPECT_EQ(PERF_COUNTER_RAW_CONFIG(0x1c2), c);
	EXPECT_EQ(0, pcm_event_config("r7FFFFFFFFFFFFFFF", &c));
	EXPECT_EQ(PERF_COUNTER_RAW_CONFIG(0x7fffffffffffffffULL), c);
	c = 12345;
	EXPECT_EQ(-EINVAL, pcm_event_config("r8000000000000000", &c));
	EXPECT_EQ(-EINVAL, pcm_event_config("r10000000000000000", &c));
	EXPECT_EQ(-EINVAL, pcm_event_config("r", &c));
	EXPECT_EQ(-EINVAL, pcm_event_config("r0x10", &c));
	EXPECT_EQ(-EINVAL, pcm_event_config("r-1", &c));
	EXPECT_EQ(12345, c);		/* a refusal writes nothing */
	EXPECT_EQ(-ENOENT, pcm_event_config("no-such-event", &c));
	EXPECT_EQ(-ENOENT, pcm_event_config("", &c));
	EXPECT_EQ(-EINVAL, pcm_event_config(NULL, &c));
	/* And back: an event's first name. */
	EXPECT_STREQ("page-faults",
		     pcm_event_name(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							PERF_COUNT_PAGE_FAULTS)));
	EXPECT_STREQ("context-switches",
		     pcm_event_name(PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
							PERF_COUNT_CONTEXT_SWITCHES)));
	EXPECT_TRUE(pcm_event_name(PERF_COUNTER_RAW_CONFIG(0x1c2)) == NULL);
}

TEST(scaled_estimate)
{
	uint64_t s, want;

	/* Counted all the time it was enabled: the value itself. */
	EXPECT_EQ(100, pcm_scale(100, 1000, 1000));
	/* Half the time: twice the value; two thirds: one and a half. */
	EXPECT_EQ(200, pcm_scale(100, 2000, 1000));
	EXPECT_EQ(150, pcm_scale(100, 3000, 2000));
	/* Never ran: nothing to scale. */
	EXPECT_EQ(0, pcm_scale(0, 1000, 0));
	/* A product past 64 bits, exact in floating point. */
	EXPECT_EQ(1ULL << 42, pcm_scale(1ULL << 40, 1ULL << 40, 1ULL << 38));
	/* One that is not exact: within a part in 10^9. */
	want = 3000000000021ULL;
	s = pcm_scale(1000000000007ULL, 3000000000000ULL, 1000000000000ULL);
	EXPECT_LE(s, want + want / 1000000000);
	EXPECT_GE(s, want - want / 1000000000);
	/* Past 2^64: the most there is, not a wrapped value. */
	EXPECT_EQ(UINT64_MAX, pcm_scale(UINT64_MAX / 2, 4, 1));
}

/*
 * task-clock and page-faults over a region that touches 256 fresh
 * pages and spins for 16 ms, then over one that does nothing, then
 * summed over three: the faults are the pages (and a read() of a
 * counter of its own, around the region, agrees); the clock ran for
 * at least half the spin and no longer than the region;
 * the times agree, as they do for counters that always count; and
 * every read was the page's, with no system call.
 */
TEST(region_counts_through_the_page)
{
	struct pcm_event ev[2] = {
		{ .name = "task-clock" },
		{ .name = "page-faults" },
	};
	uint64_t ref0, ref1, t0, t1;
	struct pcm_value v[2];
	struct pcm_set set;
	int ref, i, next;

	pc_prefault_stack(64 << 10);
	next = pc_next_fd();
	ASSERT_EQ(0, pcm_open(&set, ev, 2));
	ASSERT_EQ(2, set.n);
	ASSERT_TRUE(set.page[0] != NULL);
	ASSERT_TRUE(set.page[1] != NULL);
	ref = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, ref);

	/* A region thrown away: the first calls' own faults. */
	ASSERT_EQ(0, pcm_start(&set));
	pc_touch_pages(1);
	pc_spin_ns(1);
	ASSERT_EQ(0, pcm_stop(&set));
	pc_read(ref);
	pcm_reset(&set);

	ref0 = pc_read(ref);
	t0 = pc_now_ns();
	ASSERT_EQ(0, pcm_start(&set));
	pc_touch_pages(256);
	pc_spin_ns(4 * PC_CLOCK_STEP_NS);
	ASSERT_EQ(0, pcm_stop(&set));
	t1 = pc_now_ns();
	ref1 = pc_read(ref);
	ASSERT_EQ(2, pcm_read(&set, v, 2));
	TH_LOG("256 pages: task-clock %llu ns (region %llu ns), page-faults %llu (read(): %llu); %lu page reads, %lu read()s",
	       (unsigned long long)v[0].value, (unsigned long long)(t1 - t0),
	       (unsigned long long)v[1].value,
	       (unsigned long long)(ref1 - ref0), set.page_reads,
	       set.syscall_reads);
	EXPECT_GE(v[1].value, 256);
	EXPECT_LE(v[1].value, 256 + PC_OWN_FAULTS);
	EXPECT_LE(v[1].value, ref1 - ref0);
	EXPECT_LE(ref1 - ref0, v[1].value + PC_OWN_FAULTS);
	/*
	 * The clock: at least half the spin (a one-CPU guest may run
	 * others meanwhile) less a step of the kernel's clock, which the
	 * page's times come from; at most the region and a step.
	 */
	EXPECT_LE(PC_CLOCK_STEP_NS, v[0].value);
	EXPECT_LE(v[0].value, t1 - t0 + 2 * PC_CLOCK_STEP_NS);
	for (i = 0; i < 2; i++) {
		EXPECT_LT(0, v[i].enabled);
		EXPECT_EQ(v[i].enabled, v[i].running);
		EXPECT_EQ(v[i].value, v[i].scaled);
	}
	EXPECT_EQ(1, set.regions);
	EXPECT_EQ(4, set.page_reads);
	EXPECT_EQ(0, set.syscall_reads);

	/* No work: no faults, or next to none. */
	pcm_reset(&set);
	ASSERT_EQ(0, pcm_start(&set));
	ASSERT_EQ(0, pcm_stop(&set));
	ASSERT_EQ(2, pcm_read(&set, v, 2));
	TH_LOG("no work: task-clock %llu ns, page-faults %llu",
	       (unsigned long long)v[0].value, (unsigned long long)v[1].value);
	EXPECT_LE(v[1].value, 2);
	EXPECT_EQ(4, set.page_reads);
	EXPECT_EQ(0, set.syscall_reads);

	/* Regions add up: three of 64 pages. */
	pcm_reset(&set);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pcm_start(&set));
		pc_touch_pages(64);
		ASSERT_EQ(0, pcm_stop(&set));
		pc_touch_pages(64);	/* between regions: not counted */
	}
	ASSERT_EQ(2, pcm_read(&set, v, 2));
	EXPECT_GE(v[1].value, 3 * 64);
	EXPECT_LE(v[1].value, 3 * 64 + PC_OWN_FAULTS);
	EXPECT_EQ(3, set.regions);
	EXPECT_EQ(12, set.page_reads);
	EXPECT_EQ(0, set.syscall_reads);

	close(ref);
	pcm_close(&set);
	EXPECT_EQ(-1, set.fd[0]);
	EXPECT_EQ(next, pc_next_fd());
}

/* The set is one group, its first event the leader. */
TEST(region_set_is_one_group)
{
	struct pcm_event ev[2] = {
		{ .name = "task-clock" },
		{ .name = "page-faults" },
	};
	struct pcm_reading a[2], b[2];
	struct pcm_set set;

	pc_prefault_stack(64 << 10);
	ASSERT_EQ(0, pcm_open(&set, ev, 2));
	/* The leader off: the member stops too. */
	ASSERT_EQ(0, pc_disable(set.fd[0]));
	ASSERT_EQ(2, pcm_read_now(&set, a, 2));
	pc_touch_pages(10);
	ASSERT_EQ(2, pcm_read_now(&set, b, 2));
	EXPECT_EQ(a[1].value, b[1].value);
	EXPECT_EQ(a[1].running, b[1].running);
	/* On again: both count. */
	ASSERT_EQ(0, pc_enable(set.fd[0]));
	pc_touch_pages(10);
	ASSERT_EQ(2, pcm_read_now(&set, b, 2));
	EXPECT_LE(a[1].value + 10, b[1].value);
	EXPECT_LE(b[1].value, a[1].value + 10 + PC_OWN_FAULTS);
	pcm_close(&set);
}

/*
 * Bad arguments, an unknown name and a kernel's refusal of the third
 * counter: each an error, and nothing left open (fds, and the
 * subsystem's counters and pages where debugfs tells them). Regions
 * out of order are refused.
 */
TEST(region_errors_leave_nothing_open)
{
	struct pcm_event ev[PCM_MAX_EVENTS + 1], one = { .name = "page-faults" };
	struct pcm_event bad_name[2] = {
		{ .name = "page-faults" }, { .name = "no-such-event" },
	};
	struct pcm_event refused[3] = {
		{ .name = "page-faults" }, { .name = "task-clock" },
		{ .config = BAD_CONFIG },
	};
	struct pcm_event bad_flags = { .name = "page-faults", .flags = 0x80 };
	struct pc_objects o0, o1;
	struct pcm_set set;
	int i, next, objects, fd;

	for (i = 0; i <= PCM_MAX_EVENTS; i++)
		ev[i] = one;
	/* The task's context first: it stays until the task exits. */
	fd = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, fd);
	close(fd);
	objects = pc_objects_read(&o0) == 0;
	next = pc_next_fd();

	EXPECT_EQ(-EINVAL, pcm_open(&set, ev, 0));
	EXPECT_EQ(-EINVAL, pcm_open(&set, ev, PCM_MAX_EVENTS + 1));
	EXPECT_EQ(-EINVAL, pcm_open(NULL, ev, 1));
	EXPECT_EQ(-EINVAL, pcm_open(&set, NULL, 1));
	EXPECT_EQ(-EINVAL, pcm_open(&set, &bad_flags, 1));
	EXPECT_EQ(-ENOENT, pcm_open(&set, bad_name, 2));
	EXPECT_EQ(-EINVAL, pcm_open(&set, refused, 3));
	EXPECT_EQ(0, set.n);
	EXPECT_EQ(-1, set.fd[0]);
	EXPECT_EQ(-1, set.fd[1]);
	EXPECT_EQ(next, pc_next_fd());
	if (objects) {
		ASSERT_EQ(0, pc_objects_read(&o1));
		EXPECT_SAME_OBJECTS(o0, o1);
	} else {
		TH_LOG("no %sobjects: the fds checked alone", PC_DEBUGFS);
	}

	/* A whole set of the most counters opens. */
	ASSERT_EQ(0, pcm_open(&set, ev, PCM_MAX_EVENTS));
	pcm_close(&set);

	ASSERT_EQ(0, pcm_open(&set, &one, 1));
	EXPECT_EQ(-EINVAL, pcm_stop(&set));	/* not in a region */
	EXPECT_EQ(0, pcm_start(&set));
	EXPECT_EQ(-EINVAL, pcm_start(&set));	/* in one already */
	EXPECT_EQ(0, pcm_stop(&set));
	pcm_close(&set);
	EXPECT_EQ(-EINVAL, pcm_start(&set));	/* closed */
	EXPECT_EQ(next, pc_next_fd());
	if (objects) {
		ASSERT_EQ(0, pc_objects_read(&o1));
		EXPECT_SAME_OBJECTS(o0, o1);
	}
}

/* What an overflow test's handler saw, a signal at a time. */
#define LOG_MAX		256

struct ov_log {
	unsigned int	n;		/* signals logged */
	unsigned int	overrun;	/* signals past LOG_MAX */
	int		fd[LOG_MAX];	/* si_fd */
	int		code[LOG_MAX];	/* si_code */
	long		band[LOG_MAX];	/* si_band */
	unsigned int	batch[LOG_MAX];	/* samples this signal read */
	unsigned int	samples[LOG_MAX]; /* samples read so far */
	uint64_t	value[LOG_MAX];	/* the newest sample's value */
	uint64_t	ip[LOG_MAX];	/* and ip */
};

static struct ov_log ovlog, warmlog;

/* The overflow handler: a copy of what it was given, nothing more. */
static void log_signal(struct pcm_overflow *ov, const siginfo_t *si,
		       void *arg)
{
	struct ov_log *log = arg;
	unsigned int i = log->n;

	if (i >= LOG_MAX) {
		log->overrun++;
		return;
	}
	log->fd[i] = si->si_fd;
	log->code[i] = si->si_code;
	log->band[i] = si->si_band;
	log->batch[i] = ov->batch;
	log->samples[i] = ov->samples;
	log->value[i] = ov->last.value;
	log->ip[i] = ov->last.ip;
	__atomic_store_n(&log->n, i + 1, __ATOMIC_RELEASE);
}

static unsigned int logged(struct ov_log *log)
{
	return __atomic_load_n(&log->n, __ATOMIC_ACQUIRE);
}

/*
 * The first signal faults in the handler's code and the stack its frame
 * takes, and so would count page faults of its own: take a few first,
 * with the logs' pages written. Returns pcm_overflow_start()'s error.
 */
static int warm_up(void)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_overflow ov;
	int err;

	pc_prefault_stack(64 << 10);
	memset(&ovlog, 0, sizeof(ovlog));
	memset(&warmlog, 0, sizeof(warmlog));
	err = pcm_overflow_start(&ov, &ev, 1, OV_SIG, log_signal, &warmlog);
	if (err)
		return err;
	pc_touch_pages(4);
	pcm_overflow_stop(&ov);
	return 0;
}

/*
 * A signal every 10 page faults over 1000 fresh pages touched one at a
 * time: 100 samples, each of whose values is the period times the
 * samples so far, taken in this program's text; a signal for each
 * wakeup, each with the counter's fd, POLL_IN and its band, each having
 * read at least the sample that made it. Samples written before a
 * wakeup's signal is sent share it (the ABI's one signal a wakeup): a
 * slow one-CPU guest beside kernel builds (ppc32) took 86 signals for
 * the 100 samples, so the signals are held to the samples, not to 100.
 */
TEST(overflow_every_10_page_faults)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_overflow_stats st;
	struct pcm_overflow ov;
	unsigned int i, n, text = 0;
	int err, fd;

	err = warm_up();
	if (err == -EOPNOTSUPP)
		SKIP(return, NO_SIGNALS);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pcm_overflow_start(&ov, &ev, 10, OV_SIG, log_signal,
					&ovlog));
	fd = ov.fd;
	pc_touch_pages(1000);
	n = logged(&ovlog);
	ASSERT_EQ(0, pcm_overflow_stats(&ov, &st));
	ASSERT_EQ(0, pcm_overflow_stop(&ov));
	TH_LOG("%u signals, %u samples (%u after the stop), %llu lost, last value %llu",
	       n, st.samples, ov.samples - st.samples,
	       (unsigned long long)st.lost,
	       (unsigned long long)st.last.value);
	EXPECT_GE(n, 1);
	EXPECT_EQ(n, st.signals);
	EXPECT_EQ(0, st.hups);
	EXPECT_EQ(0, st.lost);
	EXPECT_EQ(0, ovlog.overrun);
	EXPECT_GE(st.samples, n);
	EXPECT_GE(st.samples, 100);
	EXPECT_LE(st.samples, 101);
	for (i = 0; i < n && i < LOG_MAX; i++) {
		EXPECT_EQ(fd, ovlog.fd[i]);
		EXPECT_EQ(POLL_IN, ovlog.code[i]);
		EXPECT_EQ(POLLIN | POLLRDNORM, ovlog.band[i]);
		EXPECT_LE(1, ovlog.batch[i]) TH_LOG("signal %u", i);
		EXPECT_EQ(10ULL * ovlog.samples[i], ovlog.value[i])
			TH_LOG("signal %u", i);
		text += ovlog.ip[i] >= (uintptr_t)__executable_start &&
			ovlog.ip[i] < (uintptr_t)etext;
	}
	EXPECT_GE(text, n * 9 / 10);
	EXPECT_EQ(10ULL * st.samples, st.last.value);
}

/*
 * A refresh of 5 at a period of 100, over 1000 pages: 5 signals, the
 * last POLL_HUP; a counting counter beside it counts on through every
 * page, but the sampler stopped at 500: refreshed once more, its next
 * sample comes 100 faults on, not at the 1000 it would have reached.
 * (100 faults between samples: each sample's wakeup has sent its
 * signal before the next, which at 10 a slow guest did not always.)
 */
TEST(overflow_refresh_stops_after_5_samples)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_overflow_stats st;
	struct pcm_overflow ov;
	uint64_t c0, c1;
	unsigned int i, n;
	int err, count;

	err = warm_up();
	if (err == -EOPNOTSUPP)
		SKIP(return, NO_SIGNALS);
	ASSERT_EQ(0, err);
	count = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1);
	ASSERT_LE(0, count);
	ASSERT_EQ(0, pcm_overflow_open(&ov, &ev, 100, OV_SIG, log_signal,
				       &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_refresh(&ov, 0));
	EXPECT_EQ(-EINVAL, pcm_overflow_refresh(&ov, -1));
	c0 = pc_read(count);
	ASSERT_EQ(0, pcm_overflow_refresh(&ov, 5));
	pc_touch_pages(1000);
	c1 = pc_read(count);
	n = logged(&ovlog);
	ASSERT_EQ(0, pcm_overflow_stats(&ov, &st));
	TH_LOG("%u signals, %u POLL_HUP, %u samples, last value %llu; %llu faults counted beside",
	       n, st.hups, st.samples, (unsigned long long)st.last.value,
	       (unsigned long long)(c1 - c0));
	EXPECT_EQ(5, n);
	EXPECT_EQ(1, st.hups);
	EXPECT_EQ(5, st.samples);
	EXPECT_EQ(500, st.last.value);
	for (i = 0; i < n && i < 5; i++) {
		EXPECT_EQ(ov.fd, ovlog.fd[i]);
		EXPECT_EQ(i < 4 ? POLL_IN : POLL_HUP, ovlog.code[i])
			TH_LOG("signal %u", i);
		EXPECT_EQ(i < 4 ? POLLIN | POLLRDNORM : POLLERR | POLLHUP,
			  ovlog.band[i]) TH_LOG("signal %u", i);
		EXPECT_EQ(100ULL * ovlog.samples[i], ovlog.value[i]);
	}
	EXPECT_EQ(500, ovlog.value[4]);
	EXPECT_GE(c1 - c0, 1000);

	/* One more: 100 faults after the 500th, had it stopped there. */
	ASSERT_EQ(0, pcm_overflow_refresh(&ov, 1));
	for (i = 0; i < 300 && logged(&ovlog) == 5; i++)
		pc_touch_pages(1);
	n = logged(&ovlog);
	ASSERT_EQ(0, pcm_overflow_stop(&ov));
	TH_LOG("refreshed once more: a signal after %u pages, value %llu",
	       i, (unsigned long long)ovlog.value[5]);
	ASSERT_EQ(6, n);
	EXPECT_EQ(POLL_HUP, ovlog.code[5]);
	EXPECT_GE(ovlog.value[5], 501);
	EXPECT_LE(ovlog.value[5], 5 * 100 + 100 + PC_OWN_FAULTS);
	EXPECT_EQ(2, ov.hups);
	close(count);
}

/*
 * The period changed after the first sample: from the second on, the
 * samples are 100 faults apart.
 */
TEST(overflow_new_period)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_overflow ov;
	unsigned int i, n;
	int err;

	err = warm_up();
	if (err == -EOPNOTSUPP)
		SKIP(return, NO_SIGNALS);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pcm_overflow_start(&ov, &ev, 10, OV_SIG, log_signal,
					&ovlog));
	for (i = 0; i < 100 && logged(&ovlog) == 0; i++)
		pc_touch_pages(1);
	ASSERT_EQ(1, logged(&ovlog));
	EXPECT_EQ(10, ovlog.value[0]);
	EXPECT_EQ(-EINVAL, pcm_overflow_period(&ov, 0));
	ASSERT_EQ(0, pcm_overflow_period(&ov, 100));
	EXPECT_EQ(100, ov.period);
	pc_touch_pages(500);
	n = logged(&ovlog);
	ASSERT_EQ(0, pcm_overflow_stop(&ov));
	TH_LOG("%u signals after the change, values %llu to %llu", n - 1,
	       (unsigned long long)ovlog.value[n > 1 ? 1 : 0],
	       (unsigned long long)ovlog.value[n - 1]);
	EXPECT_GE(n - 1, 4);
	EXPECT_LE(n - 1, 6);
	for (i = 2; i < n && i < LOG_MAX; i++)
		EXPECT_EQ(ovlog.value[i - 1] + 100, ovlog.value[i])
			TH_LOG("signal %u", i);
}

static unsigned int sentinel_calls;

static void sentinel(int sig, siginfo_t *si, void *uc)
{
	__atomic_fetch_add(&sentinel_calls, 1, __ATOMIC_RELAXED);
}

/* OV_SIG's action is the sentinel, as the test installed it. */
static int sentinel_installed(void)
{
	struct sigaction now;

	return !sigaction(OV_SIG, NULL, &now) &&
	       (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == sentinel;
}

static int library_installed(void)
{
	struct sigaction now;

	return !sigaction(OV_SIG, NULL, &now) &&
	       (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == pcm_signal;
}

/* The sentinel is OV_SIG's action; nothing has logged a signal. */
static void install_sentinel(struct __test_metadata *_metadata)
{
	struct sigaction sa;

	memset(&ovlog, 0, sizeof(ovlog));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sentinel;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(OV_SIG, &sa, NULL));
}

/*
 * Every refusal leaves no fd and the signal's action as it was: bad
 * arguments and the kernel's refusal of the event before anything is
 * installed, and, on a kernel without overflow signals, the refusal
 * that comes after the handler went in, which takes it out again.
 */
TEST(overflow_refusals_leave_nothing_open)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_event unknown = { .name = "no-such-event" };
	struct pcm_event bad = { .config = BAD_CONFIG };
	struct pcm_overflow ov;
	int next, err;

	pc_prefault_stack(64 << 10);
	install_sentinel(_metadata);
	next = pc_next_fd();

	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &ev, 0, OV_SIG, log_signal,
					     &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &ev, 10, 0, log_signal,
					     &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &ev, 10, SIGKILL,
					     log_signal, &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &ev, 10, SIGRTMAX + 1,
					     log_signal, &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &ev, 10, OV_SIG, NULL,
					     &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, NULL, 10, OV_SIG,
					     log_signal, &ovlog));
	EXPECT_EQ(-ENOENT, pcm_overflow_open(&ov, &unknown, 10, OV_SIG,
					     log_signal, &ovlog));
	EXPECT_EQ(-EINVAL, pcm_overflow_open(&ov, &bad, 10, OV_SIG,
					     log_signal, &ovlog));
	EXPECT_EQ(-1, ov.fd);
	EXPECT_TRUE(sentinel_installed());
	EXPECT_EQ(next, pc_next_fd());

	err = pcm_overflow_open(&ov, &ev, 10, OV_SIG, log_signal, &ovlog);
	if (err == -EOPNOTSUPP) {
		TH_LOG("%s: refused after the handler went in", NO_SIGNALS);
		EXPECT_EQ(-1, ov.fd);
		EXPECT_TRUE(sentinel_installed());
		EXPECT_EQ(next, pc_next_fd());
	} else {
		ASSERT_EQ(0, err);
		EXPECT_TRUE(library_installed());
		EXPECT_EQ(0, pcm_overflow_stop(&ov));
		EXPECT_TRUE(sentinel_installed());
		EXPECT_EQ(next, pc_next_fd());
	}
	EXPECT_EQ(0, __atomic_load_n(&sentinel_calls, __ATOMIC_RELAXED));
}

/*
 * While a counter is open, the library's handler passes a signal that
 * is none of its counters' to the action before it; the stop puts that
 * action back, and a second stop does nothing.
 */
TEST(overflow_passes_other_signals_on)
{
	struct pcm_event ev = { .name = "page-faults" };
	struct pcm_overflow ov;
	int next, err;

	err = warm_up();
	if (err == -EOPNOTSUPP)
		SKIP(return, NO_SIGNALS);
	ASSERT_EQ(0, err);
	install_sentinel(_metadata);
	next = pc_next_fd();
	ASSERT_EQ(0, pcm_overflow_start(&ov, &ev, 1000000, OV_SIG, log_signal,
					&ovlog));
	EXPECT_TRUE(library_installed());
	ASSERT_EQ(0, raise(OV_SIG));	/* SI_TKILL: not a counter's */
	EXPECT_EQ(1, __atomic_load_n(&sentinel_calls, __ATOMIC_RELAXED));
	EXPECT_EQ(0, logged(&ovlog));
	EXPECT_EQ(0, pcm_overflow_stop(&ov));
	EXPECT_EQ(0, ov.signals);
	EXPECT_EQ(-1, ov.fd);
	EXPECT_EQ(0, pcm_overflow_stop(&ov));
	EXPECT_TRUE(sentinel_installed());
	EXPECT_EQ(next, pc_next_fd());
	ASSERT_EQ(0, raise(OV_SIG));
	EXPECT_EQ(2, __atomic_load_n(&sentinel_calls, __ATOMIC_RELAXED));
}

/*
 * PCM_OVERFLOW_MAX counters on one signal, then one more: -ENOSPC,
 * its counter closed. The library's handler stays until the last of
 * them stops, and then the old action is back.
 */
TEST(overflow_table_full)
{
	static struct pcm_overflow ov[PCM_OVERFLOW_MAX + 1];
	struct pcm_event ev = { .name = "page-faults" };
	int i, next, full, err;

	err = warm_up();
	if (err == -EOPNOTSUPP)
		SKIP(return, NO_SIGNALS);
	ASSERT_EQ(0, err);
	memset(ov, 0, sizeof(ov));
	install_sentinel(_metadata);
	next = pc_next_fd();
	for (i = 0; i < PCM_OVERFLOW_MAX; i++)
		ASSERT_EQ(0, pcm_overflow_open(&ov[i], &ev, 10, OV_SIG,
					       log_signal, &ovlog))
			TH_LOG("counter %d", i);
	full = pc_next_fd();
	EXPECT_EQ(-ENOSPC, pcm_overflow_open(&ov[i], &ev, 10, OV_SIG,
					     log_signal, &ovlog));
	EXPECT_EQ(-1, ov[i].fd);
	EXPECT_EQ(full, pc_next_fd());
	EXPECT_TRUE(library_installed());
	for (i = 0; i < PCM_OVERFLOW_MAX - 1; i++)
		EXPECT_EQ(0, pcm_overflow_stop(&ov[i]));
	EXPECT_TRUE(library_installed());
	EXPECT_EQ(0, pcm_overflow_stop(&ov[i]));
	EXPECT_TRUE(sentinel_installed());
	EXPECT_EQ(next, pc_next_fd());
}

TEST_HARNESS_MAIN
