// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint counters (PERF_TYPE_TRACEPOINT): the hits of a static
 * tracepoint, named by its tracefs id, counted exactly — per task,
 * inherited, CPU-wide, in groups with software counters, sampled in
 * both record formats — and refused with a clear errno for ids that
 * name no tracepoint.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

static struct perf_counter_hw_event tp_event(long id, int disabled)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, id);
	hw.disabled = disabled;
	return hw;
}

static int tp_open(const char *system, const char *event, pid_t pid,
		   int cpu, int group_fd, int inherit)
{
	long id = pc_tp_id(system, event);
	struct perf_counter_hw_event hw;

	if (id < 0) {
		errno = ENOENT;
		return -1;
	}
	hw = tp_event(id, 0);
	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, pid, cpu, group_fd, 0);
}

/* Fork @n children that each fork @grand children of their own. */
static int forks(int n, int grand)
{
	int i, j, status, bad = 0;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			for (j = 0; j < grand; j++) {
				pid_t g = fork();

				if (g == 0)
					_exit(0);
				if (g < 0 || waitpid(g, NULL, 0) != g)
					_exit(1);
			}
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	}
	return bad ? -1 : 0;
}

TEST(tracefs_has_the_events_these_tests_count)
{
	EXPECT_GT(pc_tp_id("sched", "sched_process_fork"), 0);
	EXPECT_GT(pc_tp_id("sched", "sched_switch"), 0);
	EXPECT_GT(pc_tp_id("raw_syscalls", "sys_enter"), 0);
}

TEST(sched_process_fork_counts_exactly_the_forks_a_task_made)
{
	int fd = tp_open("sched", "sched_process_fork", 0, -1, -1, 0);

	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(0, pc_read(fd));		/* none before */
	ASSERT_EQ(0, forks(10, 2));
	/* the grandchildren's forks are their parents', not ours */
	EXPECT_EQ(10, pc_read(fd));
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, forks(3, 0));
	EXPECT_EQ(10, pc_read(fd));		/* disabled: not counted */
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, forks(3, 0));
	EXPECT_EQ(13, pc_read(fd));
	close(fd);
}

TEST(inherited_fork_counter_counts_the_descendants_forks)
{
	int fd = tp_open("sched", "sched_process_fork", 0, -1, -1, 1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, forks(10, 2));
	EXPECT_EQ(10 + 10 * 2, pc_read(fd));
	close(fd);
}

/*
 * raw_syscalls:sys_enter counts each system call once: a loop of 1000
 * getppid() between the enable and the disable, which is itself a call.
 */
TEST(sys_enter_counts_the_system_calls_a_loop_made)
{
	long id = pc_tp_id("raw_syscalls", "sys_enter");
	struct perf_counter_hw_event hw = tp_event(id, 1);
	uint64_t v;
	int fd, i;

	ASSERT_GT(id, 0);
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pc_enable(fd));
	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, pc_disable(fd));
	v = pc_read(fd);
	TH_LOG("1000 getppid(): %llu system calls", (unsigned long long)v);
	EXPECT_GE(v, 1000);
	EXPECT_LE(v, 1002);
	close(fd);
}

/*
 * On one CPU, sched:sched_switch and the context-switches counter see
 * the same switches: in one group, switched on and off together, they
 * agree exactly; and with tasks ping-ponging there, both saw them.
 */
TEST(cpu_wide_sched_switch_agrees_with_context_switches)
{
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	long id = pc_tp_id("sched", "sched_switch");
	struct perf_counter_hw_event hw = tp_event(id, 1);
	uint64_t tp, cs, own;
	int leader, member, mine;

	ASSERT_GT(id, 0);
	ASSERT_EQ(0, pc_pin_to(cpu));
	leader = sys_perf_counter_open(&hw, -1, cpu, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("open: %s", strerror(errno));
	member = pc_open_sw(PERF_COUNT_CONTEXT_SWITCHES, -1, cpu, leader);
	ASSERT_GE(member, 0);
	mine = pc_open_sw(PERF_COUNT_CONTEXT_SWITCHES, 0, -1, -1);
	ASSERT_GE(mine, 0);
	ASSERT_EQ(0, pc_enable(leader));
	pc_ping_pong(200);
	ASSERT_EQ(0, pc_disable(leader));
	tp = pc_read(leader);
	cs = pc_read(member);
	own = pc_read(mine);
	TH_LOG("CPU %d: sched_switch %llu, context-switches %llu, this task's %llu",
	       cpu, (unsigned long long)tp, (unsigned long long)cs,
	       (unsigned long long)own);
	EXPECT_EQ(cs, tp);
	EXPECT_GE(own, 200);			/* each round, out and back */
	EXPECT_GE(tp, 2 * 200);			/* both tasks' switches */
	close(mine);
	close(member);
	close(leader);
}

/* A tracepoint leader's group scheduled as one: members count with it. */
TEST(group_of_a_tracepoint_and_software_counters)
{
	int leader = tp_open("sched", "sched_process_fork", 0, -1, -1, 0);
	int faults, clock;

	ASSERT_GE(leader, 0);
	faults = pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, leader);
	clock = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, leader);
	ASSERT_GE(faults, 0);
	ASSERT_GE(clock, 0);
	ASSERT_EQ(0, forks(5, 0));
	pc_touch_pages(50);
	EXPECT_EQ(5, pc_read(leader));
	EXPECT_GE(pc_read(faults), 50);
	EXPECT_GT(pc_read(clock), 0);
	/* the leader's disable stops them all */
	ASSERT_EQ(0, pc_disable(leader));
	pc_touch_pages(50);
	ASSERT_EQ(0, forks(2, 0));
	EXPECT_EQ(5, pc_read(leader));
	close(clock);
	close(faults);
	close(leader);
}

/* A software leader with a tracepoint member: the member counts too. */
TEST(tracepoint_member_under_a_software_leader)
{
	int leader = pc_open_sw(PERF_COUNT_TASK_CLOCK, 0, -1, -1);
	int member;

	ASSERT_GE(leader, 0);
	member = tp_open("sched", "sched_process_fork", 0, -1, leader, 0);
	ASSERT_GE(member, 0);
	ASSERT_EQ(0, forks(4, 0));
	EXPECT_EQ(4, pc_read(member));
	close(member);
	close(leader);
}

/*
 * A hit is kernel mode: exclude_kernel counts none, as 6.1's
 * perf_events does, and switches no tracepoint on; the control without
 * it counts them all.
 */
TEST(exclude_kernel_counts_no_tracepoint_hit)
{
	long id = pc_tp_id("sched", "sched_process_fork");
	struct perf_counter_hw_event hw = tp_event(id, 0);
	struct pc_objects o0, o1;
	int ctl, fd, user;

	ASSERT_GT(id, 0);
	hw.exclude_kernel = 1;
	ASSERT_EQ(0, pc_objects_read(&o0));
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_EQ(0, pc_objects_read(&o1));
	/* it can count nothing: it puts no probe on */
	EXPECT_EQ(o0.tracepoints, o1.tracepoints);
	hw.exclude_kernel = 0;
	ctl = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	hw.exclude_user = 1;
	user = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(ctl, 0);
	ASSERT_GE(fd, 0);
	ASSERT_GE(user, 0);
	ASSERT_EQ(0, forks(3, 0));
	EXPECT_EQ(3, pc_read(ctl));
	EXPECT_EQ(0, pc_read(fd));
	EXPECT_EQ(3, pc_read(user));		/* exclude_user: all of them */
	close(user);
	close(fd);
	close(ctl);
}

/* Extended format: one record a fork, the forker's ids, a kernel IP. */
TEST(sampling_every_fork_records_the_forker_and_a_kernel_ip)
{
	long id = pc_tp_id("sched", "sched_process_fork");
	struct perf_counter_hw_event hw = tp_event(id, 0);
	uint64_t buf[64], lost = 1;
	uint32_t ids[2];
	ssize_t len;
	int fd, i;

	ASSERT_GT(id, 0);
	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_TID | PERF_RECORD_VALUE;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, forks(6, 1));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	len = read(fd, buf, sizeof(buf));
	ASSERT_EQ(6 * 32, len);			/* header, ip, ids, value */
	for (i = 0; i < 6; i++) {
		struct perf_counter_record_header *h = (void *)&buf[4 * i];

		EXPECT_EQ(PERF_COUNTER_REC_SAMPLE, h->type);
		EXPECT_EQ(32, h->size);
		EXPECT_TRUE(pc_ip_is_kernel(buf[4 * i + 1]))
			TH_LOG("ip %#llx", (unsigned long long)buf[4 * i + 1]);
		memcpy(ids, &buf[4 * i + 2], sizeof(ids));
		EXPECT_EQ(getpid(), (pid_t)ids[0]);
		EXPECT_EQ(i + 1, buf[4 * i + 3]);
	}
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_LOST, &lost));
	EXPECT_EQ(0, lost);
	close(fd);
}

/* The 2009 format, inherited: every second fork of the family, a bare IP. */
TEST(inherited_2009_format_sampler_gets_the_descendants_samples)
{
	long id = pc_tp_id("sched", "sched_process_fork");
	struct perf_counter_hw_event hw = tp_event(id, 0);
	uint64_t ips[64];
	ssize_t len;
	int fd, i;

	ASSERT_GT(id, 0);
	hw.irq_period = 2;
	hw.record_type = PERF_RECORD_IRQ;
	hw.inherit = 1;
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	/*
	 * 4 forks here (2 periods), and in each child 4 more (2 each):
	 * 2 + 4 * 2 = 10 samples.
	 */
	ASSERT_EQ(0, forks(4, 4));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	len = read(fd, ips, sizeof(ips));
	EXPECT_EQ(10 * 8, len);
	for (i = 0; i < len / 8; i++)
		EXPECT_TRUE(pc_ip_is_kernel(ips[i]));
	close(fd);
}

TEST(ids_that_name_no_static_tracepoint_are_refused)
{
	static const uint64_t none[] = {
		0, 0x7fffffff, 0x80000000ULL, (1ULL << 56) - 1,
	};
	struct perf_counter_hw_event hw;
	long syscall_id = pc_tp_id("syscalls", "sys_enter_getppid");
	long lock_id = pc_tp_id("lock", "contention_begin");
	unsigned int i;
	int fd;

	/* Control: a real one opens. */
	fd = tp_open("sched", "sched_process_fork", 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	for (i = 0; i < ARRAY_SIZE(none); i++) {
		hw = tp_event(0, 0);
		hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT,
						      none[i]);
		EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
		EXPECT_EQ(ENOENT, errno) TH_LOG("id %#llx",
						(unsigned long long)none[i]);
	}
	/* an event with no static tracepoint of its own */
	ASSERT_GT(syscall_id, 0);
	hw = tp_event(syscall_id, 0);
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* the lock events fire inside any critical section: refused */
	ASSERT_GT(lock_id, 0);
	hw = tp_event(lock_id, 0);
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* and a raw type bit is still a hardware event's business */
	hw = tp_event(pc_tp_id("sched", "sched_switch"), 0);
	hw.extra_config_len = 8;
	EXPECT_EQ(-1, sys_perf_counter_open(&hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * At kernel.perf_event_paranoid 2 an unprivileged tracepoint counter
 * must exclude the kernel (and then counts nothing, as in 6.1); a
 * CPU-wide one needs privilege at 1.
 */
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* Set a sysctl to @val; its old value in *old. */
static int sysctl_swap(const char *path, long val, long *old)
{
	FILE *f = fopen(path, "r+");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", old) == 1 && !fseek(f, 0, SEEK_SET) &&
	     fprintf(f, "%ld\n", val) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

TEST(tracepoint_counters_follow_the_paranoid_rules)
{
	long id = pc_tp_id("sched", "sched_process_fork"), old, was;
	int status;
	pid_t pid;

	ASSERT_GT(id, 0);
	ASSERT_EQ(0, sysctl_swap(PARANOID, 2, &old));
	pid = fork();
	if (pid == 0) {
		struct perf_counter_hw_event hw = tp_event(id, 0);
		int fd;

		if (pc_become_nobody(0))
			_exit(10);
		if (sys_perf_counter_open(&hw, 0, -1, -1, 0) >= 0 ||
		    errno != EACCES)
			_exit(11);
		if (sys_perf_counter_open(&hw, -1, 0, -1, 0) >= 0 ||
		    errno != EACCES)
			_exit(12);
		hw.exclude_kernel = 1;
		fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
		if (fd < 0)
			_exit(13);
		if (forks(2, 0) || pc_read(fd) != 0)
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, sysctl_swap(PARANOID, old, &was));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(closing_the_last_counter_takes_the_probe_off)
{
	struct pc_objects o0, o1, o2;
	int fd[8], i, tries;

	/* this task's context first, so that o0 has it */
	close(pc_open_sw(PERF_COUNT_PAGE_FAULTS, 0, -1, -1));
	ASSERT_EQ(0, pc_objects_read(&o0));
	for (i = 0; i < 8; i++) {
		fd[i] = tp_open("sched", i % 2 ? "sched_switch" :
				"sched_process_fork", 0, -1, -1, 1);
		ASSERT_GE(fd[i], 0);
	}
	ASSERT_EQ(0, pc_objects_read(&o1));
	EXPECT_EQ(o0.tracepoints + 2, o1.tracepoints);	/* one probe each */
	ASSERT_EQ(0, forks(5, 1));
	for (i = 0; i < 8; i++)
		close(fd[i]);
	/* the reaped children's contexts go an RCU grace period later */
	for (tries = 0; tries < 100; tries++) {
		ASSERT_EQ(0, pc_objects_read(&o2));
		if (!memcmp(&o0, &o2, sizeof(o0)))
			break;
		usleep(20000);
	}
	EXPECT_SAME_OBJECTS(o0, o2);
}

TEST_HARNESS_MAIN
