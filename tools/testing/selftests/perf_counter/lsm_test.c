// SPDX-License-Identifier: GPL-2.0
/*
 * A security module decides perf_counter as it decides perf_events:
 * SELinux's perf_event class, permission by permission.
 *
 * The boot's kernel has SELinux. The first case loads the policy
 * harness/selinux-policy.py made from this kernel's class map
 * (/etc/pc-selinux.policy) and turns enforcing on: every domain may do
 * everything but what the perf_event class governs, and each domain
 * lacks one perf_event permission on itself (noperf_t lacks them all;
 * base_t, where the boot runs, has them all). Each case runs in its
 * own process (the harness forks one a case), moves it into a domain
 * through /proc/self/attr/current, and tries what that domain's
 * missing permission governs: perf_counter_open(), read() and mmap(),
 * ioctl() and prctl() must be refused with SELinux's errno, EACCES,
 * and leave no counter, context, queue, page or fd behind; what the
 * domain may do must still work; and 6.1's perf_event_open() must be
 * refused the same, the same policy governing both. The test runs as
 * root, so kernel.perf_event_paranoid refuses none of it: a refusal is
 * the module's. The policy stays loaded for the rest of the boot,
 * where base_t may do everything.
 */
#define _GNU_SOURCE
#include <sys/uio.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define SELINUXFS	"/sys/fs/selinux"
#define POLICY		"/etc/pc-selinux.policy"

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int enforcing(void)
{
	char c = 0;
	int fd = open(SELINUXFS "/enforce", O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

/* Load the policy and enforce it, once a boot: 0, or -1 with errno. */
static int load_policy(void)
{
	struct stat st;
	char *buf;
	int fd, err;

	if (enforcing())
		return 0;
	if (mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL) &&
	    errno != EBUSY)
		return -1;
	fd = open(POLICY, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		close(fd);
		errno = EIO;
		return -1;
	}
	close(fd);
	err = write_file(SELINUXFS "/load", buf, st.st_size);
	free(buf);
	if (err)
		return -1;
	return write_file(SELINUXFS "/enforce", "1", 1);
}

/* Move this process into @domain: 0, or -1 with errno. */
static int enter(const char *domain)
{
	char want[128], got[128] = "";
	ssize_t n;
	int fd;

	snprintf(want, sizeof(want), "system_u:system_r:%s", domain);
	if (write_file("/proc/self/attr/current", want, strlen(want)))
		return -1;
	fd = open("/proc/self/attr/current", O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	got[n] = 0;
	if (strcmp(got, want)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* A task-clock counter on this task, counting user mode alone. */
static struct perf_counter_hw_event user_clock(void)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	hw.exclude_kernel = 1;
	return hw;
}

/* 6.1's perf_event_open() of the same counter. */
static int pe_clock(int exclude_kernel, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.exclude_kernel = exclude_kernel;
	return syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

/*
 * Enter @domain, then expect perf_counter_open(@hw, @pid, @cpu) refused
 * with EACCES, with nothing left behind.
 */
#define EXPECT_OPEN_REFUSED(hw, pid, cpu) do {				\
	struct pc_objects before, after;				\
	int fd_before = pc_next_fd();					\
									\
	ASSERT_EQ(0, pc_objects_read(&before));				\
	EXPECT_EQ(-1, sys_perf_counter_open(&(hw), pid, cpu, -1, 0));	\
	EXPECT_EQ(EACCES, errno);					\
	ASSERT_EQ(0, pc_objects_read(&after));				\
	EXPECT_SAME_OBJECTS(before, after);				\
	EXPECT_EQ(fd_before, pc_next_fd());				\
} while (0)

TEST(the_policy_loads_and_base_t_may_do_everything)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	long id = pc_tp_id("sched", "sched_switch");
	int fd, cpu_fd, tp_fd;
	void *page;

	ASSERT_EQ(0, load_policy()) {
		TH_LOG("loading %s: %s", POLICY, strerror(errno));
	}
	ASSERT_TRUE(enforcing());
	ASSERT_EQ(0, enter("base_t"));
	ASSERT_GT(id, 0);

	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	pc_spin(100000);
	EXPECT_GT(pc_read(fd), 0);
	page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	EXPECT_NE(MAP_FAILED, page);
	EXPECT_EQ(0, pc_disable(fd));
	EXPECT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	cpu_fd = sys_perf_counter_open(&hw, -1, 0, -1, 0);
	EXPECT_GE(cpu_fd, 0);
	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, id);
	tp_fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	EXPECT_GE(tp_fd, 0);
	if (page != MAP_FAILED)
		munmap(page, getpagesize());
	close(tp_fd);
	close(cpu_fd);
	close(fd);
}

TEST(open_needs_perf_event_open)
{
	struct perf_counter_hw_event hw = user_clock();

	ASSERT_EQ(0, enter("noperf_t"));
	EXPECT_OPEN_REFUSED(hw, 0, -1);
	EXPECT_EQ(-1, pe_clock(1, 0, -1));
	EXPECT_EQ(EACCES, errno);
}

TEST(kernel_mode_needs_perf_event_kernel)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	int fd;

	ASSERT_EQ(0, enter("nokernel_t"));
	EXPECT_OPEN_REFUSED(hw, 0, -1);
	EXPECT_EQ(-1, pe_clock(0, 0, -1));
	EXPECT_EQ(EACCES, errno);
	/* user mode alone asks no more than the domain has */
	hw.exclude_kernel = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	close(fd);
}

TEST(a_whole_cpu_needs_perf_event_cpu)
{
	struct perf_counter_hw_event hw = user_clock();
	int fd;

	ASSERT_EQ(0, enter("nocpu_t"));
	EXPECT_OPEN_REFUSED(hw, -1, 0);
	EXPECT_EQ(-1, pe_clock(1, -1, 0));
	EXPECT_EQ(EACCES, errno);
	/* this task, on that CPU only, is not the whole CPU */
	fd = sys_perf_counter_open(&hw, 0, 0, -1, 0);
	EXPECT_GE(fd, 0);
	close(fd);
}

/*
 * perf_events asks this permission only for raw tracepoint data, which
 * perf_counter never gives: here a counter that puts a probe on a
 * tracepoint needs it (one that excludes kernel mode puts none on).
 */
TEST(a_tracepoint_probe_needs_perf_event_tracepoint)
{
	long id = pc_tp_id("sched", "sched_switch");
	struct perf_counter_hw_event hw;
	int fd;

	ASSERT_GT(id, 0);
	ASSERT_EQ(0, enter("notracepoint_t"));
	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, id);
	EXPECT_OPEN_REFUSED(hw, 0, -1);
	hw.exclude_kernel = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	close(fd);
	hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	close(fd);
}

TEST(read_readv_and_mmap_need_perf_event_read)
{
	struct perf_counter_hw_event hw = user_clock();
	struct iovec iov;
	uint64_t v;
	int fd, pe;

	ASSERT_EQ(0, enter("noread_t"));
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, read(fd, &v, sizeof(v)));
	EXPECT_EQ(EACCES, errno);
	iov.iov_base = &v;
	iov.iov_len = sizeof(v);
	EXPECT_EQ(-1, readv(fd, &iov, 1));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, getpagesize(), PROT_READ,
				   MAP_SHARED, fd, 0));
	EXPECT_EQ(EACCES, errno);
	/* writing is the domain's */
	EXPECT_EQ(0, pc_disable(fd));
	close(fd);
	pe = pe_clock(1, 0, -1);
	ASSERT_GE(pe, 0);
	EXPECT_EQ(-1, read(pe, &v, sizeof(v)));
	EXPECT_EQ(EACCES, errno);
	close(pe);
}

TEST(ioctl_and_prctl_need_perf_event_write)
{
	struct perf_counter_hw_event hw = user_clock();
	uint64_t before;
	int fd, pe;

	ASSERT_EQ(0, enter("nowrite_t"));
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, pc_disable(fd));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, pc_enable(fd));
	EXPECT_EQ(EACCES, errno);
	/* prctl() leaves a counter the caller may not write as it is */
	EXPECT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	before = pc_read(fd);
	pc_spin_ns(20 * PC_CLOCK_STEP_NS);
	EXPECT_GT(pc_read(fd), before);
	close(fd);
	pe = pe_clock(1, 0, -1);
	ASSERT_GE(pe, 0);
	EXPECT_EQ(-1, ioctl(pe, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(EACCES, errno);
	close(pe);
}

/* The control for the case above: where the domain may write, it does. */
TEST(prctl_stops_the_counters_the_caller_may_write)
{
	struct perf_counter_hw_event hw = user_clock();
	uint64_t stopped;
	int fd;

	ASSERT_EQ(0, enter("nokernel_t"));
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0));
	stopped = pc_read(fd);
	pc_spin_ns(20 * PC_CLOCK_STEP_NS);
	EXPECT_EQ(stopped, pc_read(fd));
	EXPECT_EQ(0, prctl(PR_TASK_PERF_COUNTERS_ENABLE, 0, 0, 0, 0));
	pc_spin_ns(20 * PC_CLOCK_STEP_NS);
	EXPECT_GT(pc_read(fd), stopped);
	close(fd);
}

/*
 * A counter is judged by the domain that opened it, kept in the blob
 * the module gave it at the open: a domain with every permission on its
 * own counters has none on base_t's, though it holds the fd.
 */
TEST(a_counter_keeps_the_domain_that_opened_it)
{
	struct perf_counter_hw_event hw = user_clock();
	uint64_t v;
	int theirs, mine;

	ASSERT_EQ(0, enter("base_t"));
	theirs = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(theirs, 0);
	ASSERT_EQ(0, enter("nokernel_t"));
	EXPECT_EQ(-1, read(theirs, &v, sizeof(v)));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, pc_disable(theirs));
	EXPECT_EQ(EACCES, errno);
	mine = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(mine, 0);
	pc_spin(100000);
	EXPECT_GT(pc_read(mine), 0);
	EXPECT_EQ(0, pc_disable(mine));
	close(mine);
	close(theirs);
}

/*
 * Fork a child that moves into @domain and forks a grandchild there,
 * which stops the counters it may with prctl() and spins CHILD_SPIN_NS:
 * the ns of task-clock @fd (inherited, base_t's) gained meanwhile, the
 * copies in both folded in at their exits. The grandchild's copy is
 * made by the child's fork, in @domain. A clock counts kernel time
 * whatever exclude_kernel says, so the figure has the forks', the
 * exits' and the domain change's time too.
 */
#define CHILD_SPIN_NS	(50 * PC_CLOCK_STEP_NS)

static int spin_after_prctl(void)
{
	if (prctl(PR_TASK_PERF_COUNTERS_DISABLE, 0, 0, 0, 0))
		return 1;
	pc_spin_ns(CHILD_SPIN_NS);
	return 0;
}

static int waited_ok(pid_t pid)
{
	int status;

	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status);
}

static uint64_t grandchild_spin_after_prctl(int fd, const char *domain)
{
	uint64_t before = pc_read(fd);
	pid_t pid;

	pid = fork();
	if (!pid) {
		if (enter(domain))
			_exit(1);
		pid = fork();
		if (!pid)
			_exit(spin_after_prctl());
		_exit(!waited_ok(pid));
	}
	if (!waited_ok(pid))
		return 0;
	return pc_read(fd) - before;
}

/*
 * An inherited copy is judged as the counter it copies, the opener's,
 * not as the task that forked it: a grandchild in a domain that may not
 * write base_t's counters leaves its copy of one counting, though its
 * own domain made that copy; in base_t it stops it.
 */
TEST(prctl_judges_an_inherited_copy_by_its_opener)
{
	struct perf_counter_hw_event hw = user_clock();
	uint64_t stopped, counting;
	int fd, pin;

	ASSERT_EQ(0, enter("base_t"));
	hw.inherit = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	/*
	 * A sampling copy in every context keeps the family's contexts from
	 * being swapped at a switch (swap.c), so that each task holds the
	 * copies its own parent's fork made: else the grandchild could hold
	 * its parent's copy, made in base_t, and a kernel that asked about
	 * the copy and not its opener's counter would pass.
	 */
	hw.irq_period = 1000ULL * 1000 * 1000 * 1000;	/* 1000 s */
	hw.record_type = PERF_RECORD_IRQ;
	pin = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(pin, 0);
	stopped = grandchild_spin_after_prctl(fd, "base_t");
	counting = grandchild_spin_after_prctl(fd, "nokernel_t");
	TH_LOG("task-clock gained: %llu ns from a base_t family, %llu from a nokernel_t one, the grandchild spinning %llu ns after its prctl()",
	       (unsigned long long)stopped, (unsigned long long)counting,
	       CHILD_SPIN_NS);
	EXPECT_GT(stopped, 0);
	/* the one counted its grandchild's spin, the other did not */
	EXPECT_GE(counting, stopped + CHILD_SPIN_NS * 3 / 4);
	close(pin);
	close(fd);
}

TEST_HARNESS_MAIN
