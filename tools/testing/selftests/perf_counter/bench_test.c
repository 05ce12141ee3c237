// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's program, bench/pc-bench.c, in its short mode: the harness
 * builds it into the initramfs as /bin/pc-bench. A smoke test, never a
 * timing check: pc-bench --short must exit 0 and print every figure it
 * has (each switch variant, the fork, read, read-vs-group, group-read
 * and memory figures at each N of its plan, the null-call units, the
 * self-reads from the counter page, the sampled 16-deep call chain and
 * the off-CPU records against each of perf_events' two) as a "PC-BENCH"
 * line that parses.
 * What the figures say is not checked.
 */
#include <fcntl.h>
#include <math.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define BENCH		"/bin/pc-bench"
#define BENCH_OUT	"/tmp/pc-bench-short.out"

FIXTURE(bench) {
	FILE *out;
};

FIXTURE_SETUP(bench)
{
	self->out = NULL;
}

FIXTURE_TEARDOWN(bench)
{
	if (self->out)
		fclose(self->out);
	unlink(BENCH_OUT);
}

/* Run pc-bench --short with its output in BENCH_OUT: its wait status. */
static int run_short(void)
{
	int fd, status;
	pid_t pid;

	fd = open(BENCH_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(125);
		execl(BENCH, BENCH, "--short", (char *)NULL);
		dprintf(1, "exec %s: %s\n", BENCH, strerror(errno));
		_exit(127);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* The figures a short run must print at each N of its plan. */
static const char * const per_n[] = {
	"switch-a", "switch-b", "switch-c", "fork", "read", "read-vs-group",
	"group-read",
};
static const char * const units[] = {
	"keys-off-kids", "keys-off-parent", "keys-on-kids", "keys-on-parent",
	"self-clock", "self-faults",
};
static const char * const mem[] = {
	"count", "sample", "sample-4k", "sample-unused", "inherit",
};

#define NR(a)		(sizeof(a) / sizeof((a)[0]))
#define MAX_NS		4

struct seen {
	int ns[MAX_NS], nr_ns;
	int fig[NR(per_n)][MAX_NS], switch_tasks, chain;
	int unit[NR(units)];
	int offcpu_switch, offcpu_tp;
	int mem[NR(mem)];
	int figs, end_figs, end;
};

static int find(const char * const *names, size_t nr, const char *key)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], key))
			return i;
	return -1;
}

/* A quartile triple that is three finite numbers in order. */
static int ordered(double med, double q1, double q3)
{
	return isfinite(med) && isfinite(q1) && isfinite(q3) &&
	       q1 <= med && med <= q3;
}

/* One "PC-BENCH" line into @s: 0, or -1 if it does not parse. */
static int parse(const char *line, struct seen *s)
{
	double med, q1, q3, iqr, ns[3], ours, theirs, ratio, obj[2];
	char key[64], flag[8], *p;
	int n, i, k, misses;

	if (!strncmp(line, "PC-BENCH plan ", 14)) {
		p = strstr(line, " ns=");
		if (!p)
			return -1;
		for (p += 4; s->nr_ns < MAX_NS; p++) {
			s->ns[s->nr_ns++] = strtol(p, &p, 10);
			if (*p != ',')
				break;
		}
		return 0;
	}
	/* key N median q1 q3 IQR% ok|miss, then ns: ours theirs base */
	if (sscanf(line, "PC-BENCH fig %63s %d %lf %lf %lf %lf %7s %lf %lf %lf",
		   key, &n, &med, &q1, &q3, &iqr, flag, &ns[0], &ns[1],
		   &ns[2]) == 10) {
		if (!ordered(med, q1, q3) || !isfinite(iqr) ||
		    (strcmp(flag, "ok") && strcmp(flag, "miss")))
			return -1;
		s->figs++;
		/* hardware figures, where the PMU counts: not required */
		if (strlen(key) > 3 && !strcmp(key + strlen(key) - 3, "-hw"))
			return 0;
		if (!strcmp(key, "switch-tasks") && n == 4) {
			s->switch_tasks++;
			return 0;
		}
		if (!strcmp(key, "chain") && n == 16) {
			s->chain++;
			return 0;
		}
		if (!strcmp(key, "offcpu-switch") && n == 1) {
			s->offcpu_switch++;
			return 0;
		}
		if (!strcmp(key, "offcpu-tp") && n == 1) {
			s->offcpu_tp++;
			return 0;
		}
		k = find(per_n, NR(per_n), key);
		for (i = 0; k >= 0 && i < s->nr_ns; i++)
			if (s->ns[i] == n) {
				s->fig[k][i]++;
				return 0;
			}
		return -1;
	}
	/* key 0 median q1 q3 IQR% ok|miss, then ns: the call, a null call */
	if (sscanf(line, "PC-BENCH units %63s %d %lf %lf %lf %lf %7s %lf %lf",
		   key, &n, &med, &q1, &q3, &iqr, flag, &ns[0], &ns[1]) == 9) {
		k = find(units, NR(units), key);
		if (k < 0 || !ordered(med, q1, q3) || !isfinite(iqr))
			return -1;
		s->figs++;
		s->unit[k]++;
		return 0;
	}
	/* key n, bytes: ours theirs, ratio, pages: ours theirs */
	if (sscanf(line, "PC-BENCH mem %63s %d %lf %lf %lf %lf %lf",
		   key, &n, &ours, &theirs, &ratio, &obj[0], &obj[1]) == 7) {
		k = find(mem, NR(mem), key);
		if (k < 0 || n <= 0 || !isfinite(ours) || !isfinite(theirs) ||
		    !isfinite(ratio))
			return -1;
		s->mem[k]++;
		return 0;
	}
	if (sscanf(line, "PC-BENCH end figures=%d misses=%d", &n, &misses) == 2) {
		s->end++;
		s->end_figs = n;
		return 0;
	}
	/* the sets' times */
	return strncmp(line, "PC-BENCH time ", 14) ? -1 : 0;
}

/* A figure printed exactly once. */
static void once(struct __test_metadata *_metadata, int seen, const char *key,
		 int n)
{
	EXPECT_EQ(1, seen) TH_LOG("%s at N=%d: printed %d times", key, n, seen);
}

TEST_F_TIMEOUT(bench, short_mode_prints_every_figure, 900)
{
	struct seen s;
	char line[512];
	int status, i, k;

	memset(&s, 0, sizeof(s));
	status = run_short();
	self->out = fopen(BENCH_OUT, "r");
	ASSERT_NE(NULL, self->out);
	while (fgets(line, sizeof(line), self->out)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "PC-BENCH ", 9)) {
			/* its table, for whoever reads the log */
			TH_LOG("%s", line);
			continue;
		}
		EXPECT_EQ(0, parse(line, &s)) TH_LOG("does not parse: %s", line);
	}
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("wait status %#x", status);
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_LT(0, s.nr_ns) TH_LOG("no plan line");
	for (k = 0; k < (int)NR(per_n); k++)
		for (i = 0; i < s.nr_ns; i++)
			once(_metadata, s.fig[k][i], per_n[k], s.ns[i]);
	once(_metadata, s.switch_tasks, "switch-tasks", 4);
	once(_metadata, s.chain, "chain", 16);
	once(_metadata, s.offcpu_switch, "offcpu-switch", 1);
	once(_metadata, s.offcpu_tp, "offcpu-tp", 1);
	for (k = 0; k < (int)NR(units); k++)
		once(_metadata, s.unit[k], units[k], 0);
	for (k = 0; k < (int)NR(mem); k++)
		once(_metadata, s.mem[k], mem[k], 0);
	EXPECT_EQ(1, s.end) TH_LOG("no end line");
	EXPECT_EQ(s.figs, s.end_figs);
}

TEST_HARNESS_MAIN
