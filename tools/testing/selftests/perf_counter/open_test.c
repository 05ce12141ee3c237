// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter_open(): what it accepts, what it refuses and with which
 * errno, and that a refusal leaves nothing behind.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define EXPECT_REFUSED(hw, pid, cpu, group, flags, err) do {		\
	int before = pc_next_fd();						\
	errno = 0;							\
	EXPECT_EQ(-1, sys_perf_counter_open(hw, pid, cpu, group, flags)); \
	EXPECT_EQ(err, errno);						\
	EXPECT_EQ(before, pc_next_fd());					\
} while (0)

TEST(software_counter_opens_on_self)
{
	int fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);

	ASSERT_GE(fd, 0);
	EXPECT_NE((uint64_t)-1, pc_read(fd));
	close(fd);
}

TEST(every_software_id_opens)
{
	int id, fd;

	for (id = 0; id < PERF_SW_EVENTS_MAX; id++) {
		fd = pc_open_sw(id, 0, -1, -1);
		EXPECT_GE(fd, 0) TH_LOG("software id %d", id);
		if (fd >= 0)
			close(fd);
	}
}

TEST(unknown_software_id_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_SW_EVENTS_MAX, 0);

	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, 1ULL << 55);
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
}

TEST(unknown_type_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(0, 0);

	hw.event_config = PERF_COUNTER_CONFIG(3, 0);
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	hw.event_config = PERF_COUNTER_CONFIG(0x7f, 0);
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
}

TEST(reserved_bits_are_einval)
{
	struct perf_counter_hw_event_ext d;
	struct perf_counter_hw_event hw;
	unsigned char *raw = (unsigned char *)&hw, *draw = (unsigned char *)&d;
	int bit;
	/*
	 * Every bit of the flag word above context_switch: bit-fields fill
	 * a __u64 from its least significant bit on little-endian machines,
	 * from its most significant one on big-endian ones.
	 */
	const bool big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	for (bit = 10; bit < 64; bit++) {
		uint64_t flags;

		hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
		memcpy(&flags, raw + 32, sizeof(flags));
		flags |= 1ULL << (big_endian ? 63 - bit : bit);
		memcpy(raw + 32, &flags, sizeof(flags));
		EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	}
	/*
	 * __reserved_2, __reserved_3; and, read with this header's size,
	 * callchain_depth without a chain, __reserved_5 and __reserved_6.
	 * (2009's __reserved_4 is the size now: chain_test checks its rule.)
	 */
	for (bit = 48; bit < 72; bit += bit < 64 ? 4 : 2) {
		memset(&d, 0, sizeof(d));
		d.hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
		d.hw.size = bit < 64 ? 0 : sizeof(d);
		draw[bit] = 0x80;
		EXPECT_REFUSED(&d.hw, 0, -1, -1, 0, EINVAL);
	}
}

TEST(unknown_read_format_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	hw.read_format = PERF_FORMAT_GROUP << 1;
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	hw.read_format = 1ULL << 63;
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
}

TEST(bad_sampling_request_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.record_type = PERF_RECORD_IRQ;	/* no period */
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	hw.record_type = 0;			/* no record */
	hw.irq_period = 10;
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
	hw.record_type = PERF_COUNTER_RECORD_MASK + 1;	/* unknown field */
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
}

TEST(extra_config_on_a_software_counter_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_PAGE_FAULTS, 0);

	hw.extra_config_len = 4;
	EXPECT_REFUSED(&hw, 0, -1, -1, 0, EINVAL);
}

TEST(nonzero_flags_are_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	EXPECT_REFUSED(&hw, 0, -1, -1, 1, EINVAL);
	EXPECT_REFUSED(&hw, 0, -1, -1, 1UL << 31, EINVAL);
}

TEST(bad_pointer_is_efault)
{
	EXPECT_REFUSED(NULL, 0, -1, -1, 0, EFAULT);
	EXPECT_REFUSED((void *)16, 0, -1, -1, 0, EFAULT);
	/* the last byte of the struct falls off a mapping */
	{
		long psz = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_TRUE(p != MAP_FAILED);
		ASSERT_EQ(0, munmap(p + psz, psz));
		EXPECT_REFUSED((void *)(p + psz - 32), 0, -1, -1, 0, EFAULT);
		munmap(p, psz);
	}
}

TEST(pid_and_cpu_both_minus_one_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	EXPECT_REFUSED(&hw, -1, -1, -1, 0, EINVAL);
}

TEST(bad_cpu_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	EXPECT_REFUSED(&hw, 0, -2, -1, 0, EINVAL);
	EXPECT_REFUSED(&hw, 0, 4096, -1, 0, EINVAL);
	EXPECT_REFUSED(&hw, -1, 4096, -1, 0, EINVAL);
}

/*
 * The CPU is checked before anything uses it: a hardware counter's
 * driver looks at its CPU's registers (a per-CPU pointer) as the counter
 * is made, so a CPU past the end must be refused first, by anyone,
 * whatever the PMU (EINVAL, not ENODEV, where there is none), and a bad
 * group fd after it, as ever.
 */
TEST(bad_cpu_of_a_hardware_counter_is_einval_first)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					      PERF_COUNT_CPU_CYCLES);
	hw.exclude_kernel = 1;
	EXPECT_REFUSED(&hw, 0, 4096, -1, 0, EINVAL);
	EXPECT_REFUSED(&hw, 0, INT_MAX, -1, 0, EINVAL);
	EXPECT_REFUSED(&hw, 0, INT_MAX, 12345, 0, EINVAL);
	EXPECT_REFUSED(&hw, -1, -1, -1, 0, EINVAL);
}

TEST(bad_pid_is_refused)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	EXPECT_REFUSED(&hw, -2, -1, -1, 0, EINVAL);
	EXPECT_REFUSED(&hw, 999999, -1, -1, 0, ESRCH);
}

/*
 * perf-counters.txt (2009): "pid < 0: all tasks are counted (per cpu counters)". Each
 * negative pid counts the whole CPU, so a CPU-wide cpu-clock runs with
 * the wall clock while this task sleeps; with no CPU it is refused.
 *
 * The control is this task's own clock over a window inside the CPU
 * counter's: whatever the host steals from the guest lands in both, but
 * only the CPU counter runs through the 20 ms this task sleeps.
 */
TEST(any_negative_pid_counts_every_task_on_the_cpu)
{
	static const pid_t pids[] = { -1, -2, -1000, INT_MIN };
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_CPU_CLOCK, 0);
	struct perf_counter_hw_event task = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	uint64_t own, cpu;
	unsigned int i;
	int fd, self;

	ASSERT_EQ(0, geteuid());
	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		fd = sys_perf_counter_open(&hw, pids[i], 0, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("pid %d: %s", pids[i], strerror(errno));
		self = sys_perf_counter_open(&task, 0, -1, -1, 0);
		ASSERT_GE(self, 0);
		usleep(20000);
		own = pc_read(self);
		cpu = pc_read(fd);
		EXPECT_GT(cpu, own + 10000000ULL)
			TH_LOG("pid %d: cpu %llu own %llu", pids[i],
			       (unsigned long long)cpu,
			       (unsigned long long)own);
		close(self);
		close(fd);
		EXPECT_REFUSED(&hw, pids[i], -1, -1, 0, EINVAL);
	}
}

TEST(counter_on_one_cpu_of_self_opens)
{
	int fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, 0, -1);

	ASSERT_GE(fd, 0);
	close(fd);
}

TEST(cpu_wide_counter_opens_for_root)
{
	int fd;

	ASSERT_EQ(0, geteuid());
	fd = pc_open_sw(PERF_COUNT_CPU_CLOCK, -1, 0, -1);
	ASSERT_GE(fd, 0);
	usleep(20000);
	EXPECT_GT(pc_read(fd), 10000000ULL);	/* 10 ms of 20 ms wall */
	close(fd);
}

TEST(group_fd_that_is_not_an_fd_is_ebadf)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	EXPECT_REFUSED(&hw, 0, -1, 1000, 0, EBADF);
	EXPECT_REFUSED(&hw, 0, -1, -5, 0, EBADF);
}

TEST(group_fd_that_is_not_a_counter_is_einval)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	int fd = open("/dev/null", O_RDONLY);

	ASSERT_GE(fd, 0);
	EXPECT_REFUSED(&hw, 0, -1, fd, 0, EINVAL);
	close(fd);
}

/* Run @fn in a child that dropped root; its exit status is the verdict. */
static int as_nobody(int (*fn)(pid_t), pid_t arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (pc_become_nobody(0))
			_exit(100);
		_exit(fn(arg));
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

static int open_cpu_wide(pid_t unused)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_CPU_CLOCK, 0);

	if (sys_perf_counter_open(&hw, -1, 0, -1, 0) != -1)
		return 1;
	return errno == EACCES ? 0 : 2;
}

TEST(cpu_wide_counter_needs_cap_sys_admin)
{
	EXPECT_EQ(0, as_nobody(open_cpu_wide, 0));
}

static int open_on(pid_t target)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);

	if (sys_perf_counter_open(&hw, target, -1, -1, 0) != -1)
		return 1;
	return errno == EACCES ? 0 : 2;
}

TEST(other_users_task_needs_ptrace_right)
{
	/* init (pid 1) runs as root; nobody may not trace it */
	EXPECT_EQ(0, as_nobody(open_on, 1));
}

/*
 * At kernel.perf_event_paranoid 2, the base kernel's default, an
 * unprivileged counter counts user mode only (see hostile_test).
 */
static int open_on_self_nobody(pid_t unused)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	int fd;

	hw.exclude_kernel = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	return fd >= 0 ? 0 : 1;
}

TEST(unprivileged_task_may_count_itself)
{
	EXPECT_EQ(0, as_nobody(open_on_self_nobody, 0));
}

/*
 * nmi asks for overflow interrupts as NMIs, which only CAP_SYS_ADMIN
 * may: from anyone else the bit is dropped, not refused, and the
 * counter opens and goes on the CPU. Hardware counters are the bit's
 * users: with a usable PMU the counter is one (under TCG its registers
 * count nothing, so "on the CPU" is its running time).
 */
static int nmi_bit_is_ignored(pid_t hardware)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	uint64_t v[3];
	int fd;

	if (hardware)
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
						      PERF_COUNT_CPU_CYCLES);
	hw.nmi = 1;
	hw.exclude_kernel = 1;
	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	if (fd < 0)
		return 1;
	pc_spin_ns(10000000);
	if (read(fd, v, sizeof(v)) != sizeof(v))
		return 2;
	return v[2] >= 5000000 ? 0 : 3;
}

TEST(nmi_bit_is_ignored_without_cap_sys_admin)
{
	struct pc_pmu_info pmu;
	int hardware;

	pc_read_pmu(&pmu);
	hardware = pc_pmu_usable(&pmu);
	TH_LOG("a %s counter (PMU %s, %s)", hardware ? "hardware" : "software",
	       pmu.name, pmu.state);
	EXPECT_EQ(0, as_nobody(nmi_bit_is_ignored, hardware));
}

/*
 * A task with no counter has no context. An open refused for what it
 * asked (a leader counting another task, a group fd that is no counter,
 * a hardware event with no PMU to count it) must not make one for it:
 * the checks all run before a context is made. An open that succeeds
 * makes exactly one, so the count can see it.
 */
TEST(refused_opens_on_a_task_make_no_context)
{
	struct pc_objects before, after;
	struct perf_counter_hw_event hw;
	struct pc_pmu_info pmu;
	struct pc_child child;
	int leader, dev, fd;

	leader = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);
	ASSERT_LE(0, leader);
	dev = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 1));
	ASSERT_EQ(0, pc_objects_read(&before));

	EXPECT_EQ(-1, pc_open_sw(PERF_COUNT_TASK_CLOCK, child.pid, -1, leader));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, pc_open_sw(PERF_COUNT_TASK_CLOCK, child.pid, -1, dev));
	EXPECT_EQ(EINVAL, errno);
	pc_read_pmu(&pmu);
	if (!pc_pmu_usable(&pmu)) {
		hw = pc_sw(0, 0);
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
						      PERF_COUNT_CPU_CYCLES);
		EXPECT_EQ(-1, sys_perf_counter_open(&hw, child.pid, -1, -1, 0));
		EXPECT_EQ(ENODEV, errno);
	}
	ASSERT_EQ(0, pc_objects_read(&after));
	EXPECT_SAME_OBJECTS(before, after);

	fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, child.pid, -1, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_objects_read(&after));
	EXPECT_EQ(before.contexts + 1, after.contexts);
	close(fd);
	pc_child_kill(&child);
	close(dev);
	close(leader);
}

TEST(counter_on_child_task_opens)
{
	struct pc_child child;
	int fd;

	ASSERT_EQ(0, pc_child_start(&child, pc_touch_pages, 1));
	fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, child.pid, -1, -1);
	EXPECT_GE(fd, 0);
	pc_child_kill(&child);
	/* the task is gone; the counter still reads */
	EXPECT_NE((uint64_t)-1, pc_read(fd));
	close(fd);
}

TEST(counter_on_exited_task_is_esrch)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	EXPECT_REFUSED(&hw, pid, -1, -1, 0, ESRCH);
}

/*
 * Opens on a task as it exits, over and over until one is refused: each
 * one either opens a counter that reads (the task's context still took
 * it) or is ESRCH (the task's clocks had stopped: its context is dead
 * from the first exit hook on, torn down at the second), and nothing is
 * left once every counter is closed. 40 children, so opens land all
 * along the exit.
 */
TEST(opens_on_a_task_as_it_exits_count_or_are_esrch)
{
	const int children = 40, most = 100000;
	struct pc_objects before, after;
	struct perf_counter_hw_event hw;
	int i, n, fd, err, status, opened = 0;
	pid_t pid;

	ASSERT_EQ(0, pc_objects_read(&before));
	for (i = 0; i < children; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			pc_spin_ns(200000);
			_exit(0);
		}
		hw = pc_sw(i & 1 ? PERF_COUNT_PAGE_FAULTS :
			   PERF_COUNT_TASK_CLOCK, 0);
		hw.inherit = !!(i & 2);
		err = 0;
		for (n = 0; n < most; n++) {
			fd = sys_perf_counter_open(&hw, pid, -1, -1, 0);
			if (fd < 0) {
				err = errno;
				break;
			}
			opened++;
			EXPECT_NE((uint64_t)-1, pc_read(fd));
			close(fd);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(ESRCH, err) TH_LOG("child %d, open %d: %s", i, n,
					     strerror(err));
	}
	TH_LOG("%d counters opened on the %d children as they exited",
	       opened, children);
	ASSERT_EQ(0, pc_objects_read(&after));
	EXPECT_SAME_OBJECTS(before, after);
}

TEST(read_needs_room_for_the_value)
{
	int fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);
	uint64_t v[3];

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, read(fd, v, 7));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(8, read(fd, v, sizeof(v)));
	/* an address in page 0, computed so the compiler cannot see it */
	EXPECT_EQ(-1, read(fd, (void *)(uintptr_t)(sysconf(_SC_PAGESIZE) / 512), 8));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

TEST(read_format_adds_the_times)
{
	struct perf_counter_hw_event hw = pc_sw(PERF_COUNT_TASK_CLOCK, 0);
	uint64_t v[4] = { 0 };
	int fd;

	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, read(fd, v, 8));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(16, read(fd, v, sizeof(v)));
	close(fd);

	hw.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	pc_spin_ns(20000000);
	EXPECT_EQ(24, read(fd, v, sizeof(v)));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_GE(v[1], v[2]);
	/* one counter alone is never multiplexed: it ran all it was on */
	EXPECT_EQ(v[1], v[2]);
	close(fd);
}

TEST(unknown_ioctl_is_enotty)
{
	int fd = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 7), 0));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

TEST_HARNESS_MAIN
