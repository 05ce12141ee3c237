// SPDX-License-Identifier: GPL-2.0
/*
 * The README's example, samples/perf_counter/count_self.c: the harness
 * builds it with -Wall -Wextra -Werror against the target's installed
 * headers into the initramfs as /bin/count_self. It must exit 0 and
 * print counts that fit its workload, as root and, as it promises, as
 * an unprivileged user at kernel.perf_event_paranoid 2.
 */
#include <inttypes.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define EXAMPLE		"/bin/count_self"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/*
 * Faults the example may take with its group on besides its pages: the
 * stack, and text and data pages of the calls it makes for the first
 * time (ioctl()'s, say).
 */
#define EXAMPLE_SLACK	64

struct example_out {
	int	status;		/* from waitpid() */
	char	text[4096];	/* its stdout and stderr */
};

/* Run the example, as nobody if @as_nobody: 0, or -1 if it could not. */
static int run_example(struct example_out *out, int as_nobody)
{
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2];

	memset(out, 0, sizeof(*out));
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(125);
		if (as_nobody && (setgid(65534) || setuid(65534))) {
			dprintf(1, "setuid(65534): %s\n", strerror(errno));
			_exit(126);
		}
		execl(EXAMPLE, EXAMPLE, (char *)NULL);
		dprintf(1, "exec %s: %s\n", EXAMPLE, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while (len < sizeof(out->text) - 1) {
		n = read(p[0], out->text + len, sizeof(out->text) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(p[0]);
	return waitpid(pid, &out->status, 0) == pid ? 0 : -1;
}

/* Exit status 0, "ok", and counts that fit the pages it touched. */
static void check_example(struct __test_metadata *_metadata,
			  struct example_out *out)
{
	uint64_t clock_ns = 0, faults = 0;
	int pages = 0, got_counts = 0, got_ok = 0;
	char *line, *save;

	for (line = strtok_r(out->text, "\n", &save); line;
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
	EXPECT_GT(pages, 0);
	EXPECT_GT(clock_ns, 0ULL);
	EXPECT_LE(clock_ns, 60000000000ULL);
	EXPECT_GE(faults, (uint64_t)pages);
	EXPECT_LE(faults, (uint64_t)pages + EXAMPLE_SLACK);
}

TEST(example_counts_its_pages_and_time)
{
	struct example_out out;

	ASSERT_EQ(0, run_example(&out, 0));
	check_example(_metadata, &out);
}

static int paranoid_get(long *level)
{
	FILE *f = fopen(PARANOID, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", level) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int paranoid_set(long level)
{
	FILE *f = fopen(PARANOID, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", level) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* It counts user mode only, so nobody may run it at the default level. */
TEST(example_runs_unprivileged_at_paranoid_2)
{
	struct example_out out;
	long old = 2;
	int have_knob = paranoid_get(&old) == 0;

	/* Without perf_events there is no knob, and the level is 2. */
	if (have_knob)
		ASSERT_EQ(0, paranoid_set(2));
	EXPECT_EQ(0, run_example(&out, 1));
	if (have_knob)
		EXPECT_EQ(0, paranoid_set(old));
	check_example(_metadata, &out);
}

TEST_HARNESS_MAIN
