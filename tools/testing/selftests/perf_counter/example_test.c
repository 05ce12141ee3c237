// SPDX-License-Identifier: GPL-2.0
/*
 * The README's example, samples/perf_counter/count_self.c: the harness
 * builds it with -Wall -Wextra -Werror against the target's installed
 * headers into the initramfs as /bin/count_self. It must exit 0 and
 * print counts that fit its workload, as root and, as it promises, as
 * an unprivileged user at kernel.perf_event_paranoid 2. Its counts are
 * held to references of their own, not to what it prints: the pages
 * its source touches, and the CPU time and page faults the kernel's
 * process accounting gave it (wait4()'s rusage).
 */
#include <inttypes.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define EXAMPLE		"/bin/count_self"

/*
 * Faults the example may take with its group on besides its pages: the
 * stack, and text and data pages of the calls it makes for the first
 * time (ioctl()'s, say).
 */
#define EXAMPLE_SLACK	64

/* PAGES in samples/perf_counter/count_self.c: what its loop touches. */
#define EXAMPLE_PAGES	256

/*
 * Its task-clock covers part of its life, so at most the CPU time its
 * rusage gives, plus the kernel's clock step for the time rusage may
 * not have taken in yet. Every target's kernel has tick accounting,
 * where rusage is the scheduler's runtime (cut to microseconds), which
 * it takes in at a tick or a switch: the exit's last switch may come
 * after the parent's wait4() has read it, up to a tick (4 ms at HZ=250)
 * later, and a loaded emulator's ticks come late: four steps, as
 * tool_test allows its stat. The task-clock measured is 12 to 69 ms
 * against 32 to 253 ms of CPU time, so the slack costs this bound
 * nothing it could catch.
 */
#define EXAMPLE_CPU_SLACK_NS	(4 * PC_CLOCK_STEP_NS)

/* Exit status 0, "ok", and counts that fit the pages it touched. */
static void check_example(struct __test_metadata *_metadata,
			  struct pc_prog_run *out)
{
	uint64_t clock_ns = 0, faults = 0, cpu_ns, ru_faults;
	int pages = 0, got_counts = 0, got_ok = 0;
	char *line, *save;

	for (line = strtok_r(out->out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		TH_LOG("%s", line);
		got_counts |= sscanf(line, "count_self: touched %d pages: task-clock %"
				     SCNu64 " ns, page-faults %" SCNu64,
				     &pages, &clock_ns, &faults) == 3;
		got_ok |= !strcmp(line, "count_self: ok");
	}
	ASSERT_TRUE(WIFEXITED(out->status)) {
		TH_LOG("the example did not exit: wait status %#x",
		       out->status);
	}
	EXPECT_EQ(0, WEXITSTATUS(out->status));
	ASSERT_TRUE(got_counts) TH_LOG("no \"touched N pages\" line");
	EXPECT_TRUE(got_ok) TH_LOG("no \"count_self: ok\" line");
	cpu_ns = pc_rusage_cpu_ns(&out->ru);
	ru_faults = out->ru.ru_minflt + out->ru.ru_majflt;
	TH_LOG("rusage: %llu ns of CPU, %llu page faults",
	       (unsigned long long)cpu_ns, (unsigned long long)ru_faults);
	EXPECT_EQ(EXAMPLE_PAGES, pages);
	EXPECT_GT(clock_ns, 0ULL);
	EXPECT_LE(clock_ns, cpu_ns + EXAMPLE_CPU_SLACK_NS);
	EXPECT_GE(faults, (uint64_t)EXAMPLE_PAGES);
	EXPECT_LE(faults, (uint64_t)EXAMPLE_PAGES + EXAMPLE_SLACK);
	/* Every fault of its group is one of the process's. */
	EXPECT_LE(faults, ru_faults);
}

TEST(example_counts_its_pages_and_time)
{
	struct pc_prog_run out;

	ASSERT_EQ(0, pc_run_prog(EXAMPLE, &out, 0));
	check_example(_metadata, &out);
}

/* It counts user mode only, so nobody may run it at the default level. */
TEST(example_runs_unprivileged_at_paranoid_2)
{
	struct pc_prog_run out;

	ASSERT_EQ(0, pc_run_prog_unprivileged(EXAMPLE, &out));
	check_example(_metadata, &out);
}

/*
 * The self-monitoring library's example,
 * samples/perf_counter/overflow_signal.c, built by the harness with the
 * library as /bin/overflow_signal: it holds its own counts to its work
 * (a region's page faults, a signal every 100 faults, a refresh that
 * stops after 3) and says "ok"; as root and as nobody at paranoid 2.
 */
#define SIGNAL_EXAMPLE	"/bin/overflow_signal"

static void check_signal_example(struct __test_metadata *_metadata,
				 struct pc_prog_run *out)
{
	int got_ok = 0, got_signals = 0, got_refresh = 0;
	char *line, *save;

	for (line = strtok_r(out->out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		TH_LOG("%s", line);
		got_ok |= !strcmp(line, "overflow_signal: ok");
		got_signals |= !!strstr(line, "a signal every");
		got_refresh |= !!strstr(line, "refreshed for");
	}
	ASSERT_TRUE(WIFEXITED(out->status));
	EXPECT_EQ(0, WEXITSTATUS(out->status));
	EXPECT_TRUE(got_ok);
	EXPECT_TRUE(got_signals) TH_LOG("no overflow signals shown");
	EXPECT_TRUE(got_refresh) TH_LOG("no refresh shown");
}

TEST(signal_example_counts_and_samples_itself)
{
	struct pc_prog_run out;

	ASSERT_EQ(0, pc_run_prog(SIGNAL_EXAMPLE, &out, 0));
	check_signal_example(_metadata, &out);
}

TEST(signal_example_runs_unprivileged_at_paranoid_2)
{
	struct pc_prog_run out;

	ASSERT_EQ(0, pc_run_prog_unprivileged(SIGNAL_EXAMPLE, &out));
	check_signal_example(_metadata, &out);
}

TEST_HARNESS_MAIN
