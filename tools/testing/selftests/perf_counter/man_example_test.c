// SPDX-License-Identifier: GPL-2.0
/*
 * The program in EXAMPLES of man2/perf_counter_open.2, as the page shows
 * it: the harness extracts it (harness/man-example.py) and builds it into
 * the initramfs as /bin/man_example. It must exit 0 and print the counts
 * it promises, with plausible numbers — as root, and as an unprivileged
 * user at kernel.perf_event_paranoid 2, as the page says it can.
 */
#include <inttypes.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define EXAMPLE		"/bin/man_example"

/*
 * Page faults the example may take between enabling and disabling its
 * group besides the pages it touches: the vDSO's data page, text pages
 * of the calls it makes there for the first time, a stack page.
 */
#define EXAMPLE_SLACK	64

/* What the example printed, parsed; the test fails if a line is missing. */
struct example_counts {
	int		pages;
	long		page_size;
	uint64_t	clock[3];	/* value, enabled, running */
	uint64_t	faults[3];
};

static void check_example(struct __test_metadata *_metadata,
			  struct pc_prog_run *run)
{
	struct example_counts c;
	int got_pages = 0, got_clock = 0, got_faults = 0;
	char *line, *save;
	int i;

	memset(&c, 0, sizeof(c));
	for (line = strtok_r(run->out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		TH_LOG("%s", line);
		got_pages |= sscanf(line, "touched %d pages of %ld bytes",
				    &c.pages, &c.page_size) == 2;
		got_clock |= sscanf(line, "task-clock: %" SCNu64
				    " ns (enabled %" SCNu64
				    " ns, running %" SCNu64 " ns)",
				    &c.clock[0], &c.clock[1], &c.clock[2]) == 3;
		got_faults |= sscanf(line, "page-faults: %" SCNu64
				     " (enabled %" SCNu64
				     " ns, running %" SCNu64 " ns)",
				     &c.faults[0], &c.faults[1],
				     &c.faults[2]) == 3;
	}
	ASSERT_TRUE(WIFEXITED(run->status)) {
		TH_LOG("the example did not exit: wait status %#x",
		       run->status);
	}
	EXPECT_EQ(0, WEXITSTATUS(run->status));
	ASSERT_TRUE(got_pages) TH_LOG("no \"touched N pages\" line");
	ASSERT_TRUE(got_clock) TH_LOG("no \"task-clock:\" line");
	ASSERT_TRUE(got_faults) TH_LOG("no \"page-faults:\" line");

	EXPECT_GT(c.pages, 0);
	EXPECT_EQ(sysconf(_SC_PAGESIZE), c.page_size);
	/* It reads memory for 20 ms of CLOCK_MONOTONIC with the group on. */
	EXPECT_GE(c.clock[0], 1000000ULL);
	EXPECT_LE(c.clock[0], 60000000000ULL);
	/* Every touched page faults once, in user mode, and little else. */
	EXPECT_GE(c.faults[0], (uint64_t)c.pages);
	EXPECT_LE(c.faults[0], (uint64_t)c.pages + EXAMPLE_SLACK);
	for (i = 0; i < 2; i++) {
		uint64_t *v = i ? c.faults : c.clock;

		EXPECT_GT(v[1], 0ULL) TH_LOG("%s: no time enabled",
					  i ? "page-faults" : "task-clock");
		EXPECT_LE(v[2], v[1]) TH_LOG("%s: running > enabled",
					     i ? "page-faults" : "task-clock");
	}
}

TEST(example_counts_its_pages_and_time)
{
	struct pc_prog_run run;

	ASSERT_EQ(0, pc_run_prog(EXAMPLE, &run, 0));
	check_example(_metadata, &run);
}

/* The page says exclude_kernel lets it run unprivileged at the default. */
TEST(example_runs_unprivileged_at_paranoid_2)
{
	struct pc_prog_run run;

	ASSERT_EQ(0, pc_run_prog_unprivileged(EXAMPLE, &run));
	check_example(_metadata, &run);
}

TEST_HARNESS_MAIN
