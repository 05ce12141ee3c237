// SPDX-License-Identifier: GPL-2.0
/*
 * The user tool, /bin/perf-counter, run as a person would and its
 * output parsed: stat's counts, CSV, exit status, repeated runs and
 * multiplexed scaling; record and report naming a known busy function;
 * list; top; the errors a person can act on.
 *
 * The workloads are this program itself, run again with PC_TOOL_SPIN
 * (ms in tool_spin_loop()), PC_TOOL_TOUCH (pages, spread over
 * PC_TOOL_TOUCH_MS ms if set), PC_TOOL_EXIT (a status), PC_TOOL_KILL (a
 * signal), PC_TOOL_CPU (ms of CPU time in tool_cpu_loop()),
 * PC_TOOL_FORKS (children that exec copies of it, each spinning
 * PC_TOOL_CHILD_MS of CPU time, default 10), PC_TOOL_CHILD_PAGES
 * (children that touch pages: 100,200 for two) or PC_TOOL_THREADS
 * (threads that name themselves) in its environment.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define TOOL	"/bin/perf-counter"
#define RUNNING	"/tmp/tool_test.running"	/* a PC_TOOL_SPIN command began */
#define SELF	"/bin/tool_test"
#define OUT	"/tmp/tool_test.out"
#define ERR	"/tmp/tool_test.err"
#define CPU_NS	"/tmp/tool_test.cpu"	/* a PC_TOOL_TOUCH command's CPU time */

/*
 * The function record/report must find: user-mode work only, never
 * inlined into its caller (noipa: nor cloned).
 */
__attribute__((noipa)) void tool_spin_loop(uint64_t ns)
{
	pc_spin_ns(ns);
}

/* The copies PC_TOOL_FORKS runs, one after the other: four programs. */
#define COPY	"/tmp/tool_test_%c"
#define COPIES	4

/* Spin until this thread has run @ns of CPU time, whatever else runs. */
__attribute__((noipa)) void tool_cpu_loop(uint64_t ns)
{
	struct timespec ts;
	uint64_t end;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	end = ts.tv_sec * 1000000000ULL + ts.tv_nsec + ns;
	do {
		pc_spin(10000);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000000000ULL + ts.tv_nsec < end);
}

/*
 * @n children one after the other, each spinning 3 ms of CPU time in
 * this program, then exec'ing a copy of it (COPY, 'a' to 'd' in turn)
 * that spins @ms of CPU time and exits: a workload of short-lived
 * programs, as a build or a test suite is.
 */
static void fork_exec_children(int n, int ms)
{
	char spin[32], *env[2];
	int i;

	snprintf(spin, sizeof(spin), "PC_TOOL_CPU=%d", ms);
	env[0] = spin;
	env[1] = NULL;
	for (i = 0; i < n; i++) {
		char path[64];
		pid_t pid;

		snprintf(path, sizeof(path), COPY, 'a' + i % COPIES);
		pid = fork();
		if (!pid) {
			tool_cpu_loop(3000000ULL);
			execle(path, path, (char *)NULL, env);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			_exit(1);
	}
}

static void *named_spinner(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "spin%ld", (long)arg);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	tool_spin_loop(600000000ULL);
	return NULL;
}

/*
 * @n threads that name themselves spin0, spin1, ... and spin 600 ms:
 * the first at once, the others 300 ms later (after a record -p has
 * attached, on any but a very slow machine).
 */
static void named_threads(int n)
{
	pthread_t t[8];
	long i;

	for (i = 0; i < n && i < 8; i++) {
		if (i == 1)
			usleep(300000);
		if (pthread_create(&t[i], NULL, named_spinner, (void *)i))
			_exit(1);
	}
	for (i = 0; i < n && i < 8; i++)
		pthread_join(t[i], NULL);
}

/*
 * Touch @pages fresh pages evenly over @ms of CLOCK_MONOTONIC, one at a
 * time: page faults in each interval of a stat -I, not all at its
 * start.
 */
static void touch_paced(int pages, int ms)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t t0 = pc_now_ns();
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < pages; i++) {
		uint64_t due = t0 + ms * 1000000ULL * i / pages;

		while (pc_now_ns() < due)
			pc_spin(1000);
		p[i * psz] = 1;
	}
	munmap(p, pages * psz);
}

/*
 * A child for each number N of @list ("100,200"), all at once: it names
 * itself "pages-N" (a COMM record), touches N fresh pages and exits;
 * each waited for. The child is made by the system call, not fork():
 * glibc's fork() runs its handlers in the child, whose writes to its
 * data are copy-on-write faults of their own; and its name is written
 * before, so that the child's faults are its pages and few more.
 */
static void page_children(const char *list)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		int pages = atoi(p);
		char name[16];
		pid_t pid;

		snprintf(name, sizeof(name), "pages-%d", pages);
		pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
		if (!pid) {
			prctl(PR_SET_NAME, name, 0, 0, 0);
			pc_touch_pages(pages);
			_exit(0);
		}
		if (pid < 0)
			_exit(1);
		n++;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	while (n-- > 0)
		wait(NULL);
}

__attribute__((constructor(101))) static void tool_workload(void)
{
	const char *forks = getenv("PC_TOOL_FORKS");
	const char *threads = getenv("PC_TOOL_THREADS");
	const char *touch = getenv("PC_TOOL_TOUCH");
	const char *spin = getenv("PC_TOOL_SPIN");
	const char *cpu = getenv("PC_TOOL_CPU");
	const char *status = getenv("PC_TOOL_EXIT");
	const char *sig = getenv("PC_TOOL_KILL");
	const char *paced = getenv("PC_TOOL_TOUCH_MS");
	const char *children = getenv("PC_TOOL_CHILD_PAGES");

	if (touch) {
		struct timespec ts;
		FILE *f;

		if (paced)
			touch_paced(atoi(touch), atoi(paced));
		else
			pc_touch_pages(atoi(touch));
		pc_spin_ns(100000000ULL);
		/*
		 * The CPU time this process has run, exec and all, for an
		 * upper bound on stat's task-clock of it: the scheduler's
		 * own account, not a counter's.
		 */
		f = fopen(CPU_NS, "w");
		if (f && !clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
			fprintf(f, "%llu\n", ts.tv_sec * 1000000000ULL +
				ts.tv_nsec);
		if (f)
			fclose(f);
		_exit(0);
	}
	if (spin) {
		/* for a test that must signal the tool while this runs */
		close(open(RUNNING, O_WRONLY | O_CREAT, 0600));
		tool_spin_loop(atoll(spin) * 1000000ULL);
		_exit(0);
	}
	if (cpu) {
		tool_cpu_loop(atoll(cpu) * 1000000ULL);
		_exit(0);
	}
	if (forks) {
		const char *ms = getenv("PC_TOOL_CHILD_MS");

		fork_exec_children(atoi(forks), ms ? atoi(ms) : 10);
		_exit(0);
	}
	if (threads) {
		named_threads(atoi(threads));
		_exit(0);
	}
	if (children) {
		page_children(children);
		_exit(0);
	}
	if (status)
		_exit(atoi(status));
	if (sig) {
		signal(atoi(sig), SIG_DFL);
		raise(atoi(sig));
		_exit(99);
	}
}

/* stdout up to 1 MiB: report -D of a few thousand items */
static char out_buf[1 << 20], err_buf[1 << 16];

/*
 * The last run's rusage from wait4(): the tool's and, as it reaps its
 * command, the command's (the kernel adds the children a task waited
 * for); and the ns from fork() to wait4() on CLOCK_MONOTONIC.
 */
static struct rusage tool_ru;
static uint64_t tool_wall_ns;

/*
 * For run_tool_sig() with no command: the signal goes once this file
 * (the record file) has grown past its stdio buffer, the recording's
 * loop written to it, instead of once a command made RUNNING.
 */
static const char *sig_when_grown;

/* Is @path past its first 4 KiB? */
static int grown(const char *path)
{
	struct stat st;

	return !stat(path, &st) && st.st_size > 4096;
}

static void slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/*
 * Run perf-counter with @argv (NULL-terminated, without the program)
 * and @env (NAME=VALUE words, or NULL) as user @uid (-1: as we are); its exit
 * status as a shell gives it, stdout in out_buf, stderr in err_buf.
 */
static int run_tool_sig(int uid, const char *env, const char * const *args,
			int sig, unsigned int after_ms)
{
	const char *argv[32] = { TOOL };
	int i, status;
	pid_t pid;

	for (i = 0; args[i] && i < 30; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	unlink(RUNNING);
	unlink(CPU_NS);
	tool_wall_ns = pc_now_ns();
	pid = fork();
	if (!pid) {
		int o = open(OUT, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int e = open(ERR, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		dup2(o, 1);
		dup2(e, 2);
		if (env) {
			/* NAME=VALUE words, split at spaces */
			char *copy = strdup(env), *save = NULL, *w;

			for (w = strtok_r(copy, " ", &save); w;
			     w = strtok_r(NULL, " ", &save))
				putenv(w);
		}
		if (uid >= 0 && (setgid(uid) || setuid(uid)))
			_exit(98);
		execv(TOOL, (char **)argv);
		_exit(97);
	}
	if (sig) {
		int waited;

		/*
		 * To the tool alone, as kill(1) would send it, @after_ms
		 * after the command has started (it makes RUNNING): the
		 * tool and its handlers are set up by then, however slow
		 * the machine.
		 */
		for (waited = 0; waited < 60000 &&
		     (sig_when_grown ? !grown(sig_when_grown) :
		      access(RUNNING, F_OK) != 0);
		     waited += 10)
			usleep(10000);
		usleep(after_ms * 1000);
		kill(pid, sig);
	}
	if (wait4(pid, &status, 0, &tool_ru) != pid)
		memset(&tool_ru, 0, sizeof(tool_ru));
	tool_wall_ns = pc_now_ns() - tool_wall_ns;
	slurp(OUT, out_buf, sizeof(out_buf));
	slurp(ERR, err_buf, sizeof(err_buf));
	fprintf(stderr, "# %s", TOOL);
	for (i = 0; args[i]; i++)
		fprintf(stderr, " %s", args[i]);
	fprintf(stderr, "%s%s: status %d\n", env ? " with " : "",
		env ? env : "", WIFEXITED(status) ? WEXITSTATUS(status) :
		128 + WTERMSIG(status));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run_tool_as(int uid, const char *env, const char * const *args)
{
	return run_tool_sig(uid, env, args, 0, 0);
}

#define run_tool(env, ...) \
	run_tool_as(-1, env, (const char * const []){ __VA_ARGS__, NULL })

/* One CSV line of stat -x, split; how many fields. */
struct csv {
	char buf[512];
	char *f[16];
	int nr;
};

static int csv_split(const char *line, size_t len, char sep, struct csv *c)
{
	char *p;

	if (len >= sizeof(c->buf))
		len = sizeof(c->buf) - 1;
	memcpy(c->buf, line, len);
	c->buf[len] = '\0';
	c->nr = 0;
	p = c->buf;
	c->f[c->nr++] = p;
	for (; *p; p++)
		if (*p == sep && c->nr < 16) {
			*p = '\0';
			c->f[c->nr++] = p + 1;
		}
	return c->nr;
}

/* The CSV line of @event in @text; 0 if none. */
static int csv_find(const char *text, char sep, const char *event,
		    struct csv *c)
{
	const char *line = text;

	while (*line) {
		const char *end = strchrnul(line, '\n');

		csv_split(line, end - line, sep, c);
		if (c->nr >= 3 && !strcmp(c->f[2], event))
			return 1;
		line = *end ? end + 1 : end;
	}
	return 0;
}

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

static void show_output(void)
{
	fprintf(stderr, "# stdout:\n%s# stderr:\n%s", out_buf, err_buf);
}

/* Is there a PMU driver? Hardware counters are ENODEV without one. */
static int have_pmu(void)
{
	struct perf_counter_hw_event hw;
	int fd;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
					      PERF_COUNT_CPU_CYCLES);
	fd = sys_perf_counter_open(&hw, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	return fd >= 0 || errno != ENODEV;
}

/*
 * Page faults of the PC_TOOL_TOUCH command besides its pages, from its
 * exec on: its static binary's text, data and stack pages, and the
 * spin's. Measured (2026-11-29): 31 and 33 on x86_64 (P6 model), 26 on
 * the 7450, 32 on POWER8; twice the most.
 */
#define TOOL_OWN_FAULTS		64

/*
 * What a command's task-clock may run on after it read its own CPU
 * time: writing it out and its exit. Measured (2026-11-29): 1.3 ms on
 * x86_64 (P6 model), 5.5 ms on the 7450, 4.0 ms on POWER8, 3.1 ms on
 * x86_64-debug; but 20 ms on i386 beside kernel builds, where a loaded
 * host stretches the guest's time for the same work as it stretches
 * the command's. So four steps of the kernel's clock and an eighth of
 * the command's own CPU time: a stat that doubles still fails.
 */
#define TOOL_EXIT_SLACK_NS(cmd_ns)	(4 * PC_CLOCK_STEP_NS + (cmd_ns) / 8)

/* The command's CPU time, as it wrote it before its exit; 0 if none. */
static uint64_t command_cpu_ns(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen(CPU_NS, "r");

	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

/*
 * stat's counts of a command of known size, from both sides. task-clock:
 * at least most of its 100 ms spin; at most the CPU time the command
 * read of itself just before its exit (CLOCK_PROCESS_CPUTIME_ID, the
 * scheduler's account since its fork) and what it ran after that
 * (TOOL_EXIT_SLACK_NS); and at most the run's wall time and the CPU
 * time rusage gives the tool and the command. Page faults: from the
 * pages it touches to those and its own, and at most the faults rusage
 * gives. Context switches: at most rusage's. A stat that doubles its
 * counts fails the first upper bound of task-clock and of page faults.
 */
TEST(stat_counts_task_clock_and_the_pages_touched)
{
	uint64_t cmd_ns, cpu_ns, ru_faults, ru_switches, faults;
	struct csv c;
	double ms;
	int status = run_tool("PC_TOOL_TOUCH=500", "stat", "-x", ",", "-o",
			      "/tmp/tool_test.csv", "-e",
			      "task-clock,page-faults,context-switches", "--",
			      SELF);

	cmd_ns = command_cpu_ns();
	cpu_ns = pc_rusage_cpu_ns(&tool_ru);
	ru_faults = tool_ru.ru_minflt + tool_ru.ru_majflt;
	ru_switches = tool_ru.ru_nvcsw + tool_ru.ru_nivcsw;
	slurp("/tmp/tool_test.csv", out_buf, sizeof(out_buf));
	show_output();
	TH_LOG("command: %llu ns CPU; tool and command: %llu ns wall, %llu ns CPU, %llu faults, %llu switches",
	       (unsigned long long)cmd_ns, (unsigned long long)tool_wall_ns,
	       (unsigned long long)cpu_ns, (unsigned long long)ru_faults,
	       (unsigned long long)ru_switches);
	ASSERT_EQ(0, status);
	ASSERT_NE(0, cmd_ns) TH_LOG("the command wrote no CPU time");
	ASSERT_TRUE(csv_find(out_buf, ',', "task-clock", &c));
	/* at least most of the 100 ms spin, in msec */
	ms = strtod(c.f[0], NULL);
	EXPECT_GT(ms, 50.0);
	EXPECT_LE(ms, (cmd_ns + TOOL_EXIT_SLACK_NS(cmd_ns)) / 1e6);
	/*
	 * Each to a clock step: the kernel's clock against CLOCK_MONOTONIC,
	 * and the last slice rusage may not hold yet (see example_test.c).
	 */
	EXPECT_LE(ms, (tool_wall_ns + PC_CLOCK_STEP_NS) / 1e6);
	EXPECT_LE(ms, (cpu_ns + PC_CLOCK_STEP_NS) / 1e6);
	EXPECT_STREQ("msec", c.f[1]);
	ASSERT_TRUE(csv_find(out_buf, ',', "page-faults", &c));
	faults = strtoull(c.f[0], NULL, 10);
	EXPECT_GE(faults, 500ULL);
	EXPECT_LE(faults, 500ULL + TOOL_OWN_FAULTS);
	EXPECT_LE(faults, ru_faults);
	EXPECT_STREQ("100.00", c.f[3]);
	ASSERT_TRUE(csv_find(out_buf, ',', "context-switches", &c));
	EXPECT_LE(strtoull(c.f[0], NULL, 10), ru_switches);
}

TEST(csv_lines_have_ten_fields_whatever_the_event)
{
	const char *line;
	int lines = 0, status;

	/* the default events: hardware ones may be <not supported> */
	status = run_tool("PC_TOOL_SPIN=50", "stat", "-x", ";", "-o",
			  "/tmp/tool_test.csv", SELF);
	slurp("/tmp/tool_test.csv", out_buf, sizeof(out_buf));
	show_output();
	ASSERT_EQ(0, status);
	for (line = out_buf; *line;) {
		const char *end = strchrnul(line, '\n');
		struct csv c;

		EXPECT_EQ(10, csv_split(line, end - line, ';', &c));
		lines++;
		line = *end ? end + 1 : end;
	}
	EXPECT_EQ(10, lines);
}

TEST(default_table_names_every_event_and_what_it_implies)
{
	static const char * const names[] = {
		"task-clock", "context-switches", "cpu-migrations",
		"page-faults", "cycles", "instructions", "branches",
		"branch-misses", "cache-references", "cache-misses",
		"CPUs utilized", "seconds time elapsed",
		"Performance counter stats for '" SELF "'",
	};
	unsigned int i;
	int status = run_tool("PC_TOOL_TOUCH=100", "stat", SELF);

	show_output();
	ASSERT_EQ(0, status);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		EXPECT_TRUE(strstr(err_buf, names[i]) != NULL);
	if (!have_pmu())
		EXPECT_TRUE(strstr(err_buf, "<not supported>") != NULL);
}

TEST(exit_status_is_the_commands)
{
	EXPECT_EQ(3, run_tool("PC_TOOL_EXIT=3", "stat", "-e", "task-clock",
			      SELF));
	EXPECT_EQ(0, run_tool("PC_TOOL_EXIT=0", "stat", "-e", "task-clock",
			      SELF));
	EXPECT_EQ(128 + SIGTERM, run_tool("PC_TOOL_KILL=15", "stat", "-e",
					  "task-clock", SELF));
	EXPECT_EQ(3, run_tool("PC_TOOL_EXIT=3", "record", "-o",
			      "/tmp/tool_test.data", SELF));
	/* a command that cannot be run: a shell's 127 */
	EXPECT_EQ(127, run_tool(NULL, "stat", "/nonexistent"));
}

TEST(repeated_runs_print_a_standard_deviation)
{
	struct csv c;
	int status = run_tool("PC_TOOL_SPIN=30", "stat", "-r", "3", "-e",
			      "task-clock,page-faults", SELF);

	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "(3 runs)") != NULL);
	EXPECT_TRUE(strstr(err_buf, "( +-") != NULL);
	EXPECT_TRUE(strstr(err_buf, "seconds time elapsed") != NULL);
	status = run_tool("PC_TOOL_SPIN=30", "stat", "-r", "3", "-x", ",",
			  "-e", "task-clock", SELF);
	ASSERT_EQ(0, status);
	ASSERT_TRUE(csv_find(err_buf, ',', "task-clock", &c));
	EXPECT_NE('\0', c.f[7][0]);	/* the stddev column */
}

TEST(sigint_ends_stat_and_the_counts_still_print)
{
	struct timespec t0, t1;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* a 5 s command; SIGINT to the tool half a second into it */
	status = run_tool_sig(-1, "PC_TOOL_SPIN=5000",
			      (const char * const []){ "stat", "-r", "3",
			      "-e", "task-clock", SELF, NULL }, SIGINT, 500);
	show_output();
	EXPECT_EQ(128 + SIGINT, status);
	EXPECT_TRUE(strstr(err_buf, "task-clock") != NULL);
	EXPECT_TRUE(strstr(err_buf, "seconds time elapsed") != NULL);
	/* not the other runs, nor the rest of this one */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_LT(t1.tv_sec - t0.tv_sec, 4);
}

TEST(repeated_runs_mean_the_pages_touched)
{
	struct csv c;
	double faults;
	int status = run_tool("PC_TOOL_TOUCH=1000", "stat", "-r", "3", "-x",
			      ",", "-e", "page-faults", SELF);

	show_output();
	ASSERT_EQ(0, status);
	ASSERT_TRUE(csv_find(err_buf, ',', "page-faults", &c));
	faults = strtod(c.f[0], NULL);
	EXPECT_GE(faults, 1000.0);
	EXPECT_LE(faults, 1200.0);
}

TEST(csv_separator_that_could_be_in_a_field_is_refused)
{
	static const char * const bad[] = { "", "1", ".", "-", ":", " ",
					    "a" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int status = run_tool("PC_TOOL_EXIT=0", "stat", "-x", bad[i],
				      "-e", "task-clock", SELF);

		show_output();
		EXPECT_EQ(1, status);
		EXPECT_TRUE(strstr(err_buf, "separator") != NULL);
	}
	EXPECT_EQ(0, run_tool("PC_TOOL_EXIT=0", "stat", "-x", ";", "-e",
			      "task-clock", SELF));
}

static int print_artifact(const char *name, const char *path);

/* One line of @text at a time: its start and length, 0 at the end. */
static int next_line(const char **at, const char **line, size_t *len)
{
	const char *end;

	if (!**at)
		return 0;
	end = strchrnul(*at, '\n');
	*line = *at;
	*len = end - *at;
	*at = *end ? end + 1 : end;
	return 1;
}

/*
 * The CSV fields of stat -I and --per-thread: what the line is of (the
 * time, "summary" or comm-tid), then the ten of stat -x.
 */
enum { CSV_AT, CSV_EVENT = 3, CSV_RAW = 5, CSV_FIELDS = 11 };

/*
 * stat -I 100 over a command that touches 1000 pages evenly over 800 ms
 * and then spins 100 ms: an interval line for each event every 100 ms
 * and one when the command ends (10, or 11 with a slow exec), the time
 * first; the intervals' raw page faults (field 6) add up exactly to the
 * count of the "summary" line printed after them, and most intervals
 * have some. -I under 10 ms and -I with -r are refused.
 */
TEST(stat_I_intervals_add_up_to_the_count)
{
	static const char csv[] = "/tmp/tool_test.interval.csv";
	static const char * const ev[] = { "task-clock", "page-faults" };
	unsigned long long sum = 0, total = 0, faults;
	int lines[2] = { 0 }, busy = 0, summaries = 0, status, e;
	double last[2] = { 0, 0 }, t;
	const char *at = out_buf, *line;
	struct csv c;
	size_t len;

	EXPECT_EQ(1, run_tool(NULL, "stat", "-I", "9", SELF));
	EXPECT_TRUE(strstr(err_buf, "-I 9: a number from 10") != NULL);
	EXPECT_EQ(1, run_tool(NULL, "stat", "-I", "100", "-r", "2", SELF));
	EXPECT_TRUE(strstr(err_buf, "-I and -r") != NULL);
	status = run_tool("PC_TOOL_TOUCH=1000 PC_TOOL_TOUCH_MS=800", "stat",
			  "-I", "100", "-x", ",", "-o", csv, "-e",
			  "task-clock,page-faults", SELF);
	slurp(csv, out_buf, sizeof(out_buf));
	show_output();
	ASSERT_EQ(0, status);
	while (next_line(&at, &line, &len)) {
		ASSERT_EQ(CSV_FIELDS, csv_split(line, len, ',', &c));
		for (e = 0; e < 2 && strcmp(c.f[CSV_EVENT], ev[e]); e++)
			;
		ASSERT_LT(e, 2) TH_LOG("%s", c.f[CSV_EVENT]);
		faults = strtoull(c.f[CSV_RAW], NULL, 10);
		if (!strcmp(c.f[CSV_AT], "summary")) {
			summaries++;
			if (e == 1)
				total = faults;
			continue;
		}
		t = strtod(c.f[CSV_AT], NULL);
		EXPECT_GT(t, last[e]);
		last[e] = t;
		lines[e]++;
		if (e == 1) {
			sum += faults;
			busy += faults > 0;
		}
	}
	TH_LOG("%d and %d intervals, the last at %.3f s; page faults: %llu in intervals (%d with some), %llu in all",
	       lines[0], lines[1], last[1], sum, busy, total);
	EXPECT_EQ(2, summaries);
	for (e = 0; e < 2; e++) {
		EXPECT_GE(lines[e], 9);
		EXPECT_LE(lines[e], 11);
	}
	EXPECT_GE(total, 1000ULL);
	EXPECT_EQ(total, sum);
	EXPECT_GE(busy, 6);
	unlink(csv);
}

/* Does JSON line @l have "@key" : , and the number after it, if any? */
static int json_key(const char *l, const char *key, double *num)
{
	char pat[64], *end;
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\" : ", key);
	p = strstr(l, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	if (num) {
		*num = strtod(p, &end);
		if (end == p || (*end != ',' && *end != '}'))
			return 0;
	}
	return 1;
}

/*
 * Each line of stat -j's @path as far as C can check it: an object,
 * the count objects with their keys (the interval's or the thread's
 * too, if @want), numbers where numbers are, and a last object of the
 * run. Return: the count objects.
 */
static int check_json_lines(struct __test_metadata *_metadata,
			    const char *path, const char *want)
{
	static const char * const num[] = { "event-runtime", "pcnt-running" };
	const char *at = out_buf, *line;
	char l[1024];
	int counts = 0, summaries = 0, k;
	double v;
	size_t len;

	slurp(path, out_buf, sizeof(out_buf));
	while (next_line(&at, &line, &len)) {
		ASSERT_LT(len, sizeof(l));
		memcpy(l, line, len);
		l[len] = '\0';
		ASSERT_TRUE(len > 2 && l[0] == '{' && l[len - 1] == '}')
			TH_LOG("%s: not an object: %s", path, l);
		if (!json_key(l, "event", NULL)) {
			EXPECT_TRUE(json_key(l, "target", NULL)) TH_LOG("%s", l);
			EXPECT_TRUE(json_key(l, "runs", &v)) TH_LOG("%s", l);
			EXPECT_TRUE(json_key(l, "seconds-time-elapsed", &v));
			EXPECT_GT(v, 0);
			summaries++;
			continue;
		}
		EXPECT_EQ(0, summaries) TH_LOG("a count after the run's line");
		EXPECT_TRUE(json_key(l, "unit", NULL)) TH_LOG("%s", l);
		EXPECT_TRUE(json_key(l, "counter-value", &v) ||
			    strstr(l, "\"counter-value\" : \"<not ")) TH_LOG("%s", l);
		for (k = 0; k < 2; k++)
			EXPECT_TRUE(json_key(l, num[k], &v)) TH_LOG("%s", l);
		EXPECT_EQ(json_key(l, "metric-value", &v),
			  json_key(l, "metric-unit", NULL)) TH_LOG("%s", l);
		if (want && !strcmp(want, "interval") &&
		    !json_key(l, "interval", &v))
			continue;	/* the whole count, after them */
		if (want)
			EXPECT_TRUE(json_key(l, want, strcmp(want, "thread") ?
					     &v : NULL)) TH_LOG("%s", l);
		counts++;
	}
	EXPECT_EQ(1, summaries);
	return counts;
}

/*
 * stat -j: a plain run of the default events (some may be "<not
 * supported>"), with a command line that needs escaping; a -I run; a
 * --per-thread run. Each line is checked here as far as C can, and the
 * three files go to the host (print_artifact()), whose test_export.py
 * parses every line and checks it against tool.rst's schema.
 */
TEST(stat_j_prints_a_json_object_a_line)
{
	static const char plain[] = "/tmp/tool_test.stat.json";
	static const char interval[] = "/tmp/tool_test.interval.json";
	static const char thread[] = "/tmp/tool_test.thread.json";
	/*
	 * A quote, a backslash, a tab, a control byte and UTF-8 (run_tool()
	 * writes it to the console as it is: no byte that is not UTF-8)
	 */
	static const char arg[] = "q\"b\\s\tt\001c \303\251";
	int status;

	status = run_tool("PC_TOOL_TOUCH=100", "stat", "-j", "-o", plain,
			  SELF, arg);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_EQ(10, check_json_lines(_metadata, plain, NULL));
	EXPECT_TRUE(strstr(out_buf, "\"target\" : \"'" SELF
			   " q\\\"b\\\\s\\u0009t\\u0001c \303\251'\"")
		    != NULL) TH_LOG("%s", out_buf);

	status = run_tool("PC_TOOL_SPIN=300", "stat", "-j", "-I", "100",
			  "-o", interval, "-e", "task-clock,page-faults",
			  SELF);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_GE(check_json_lines(_metadata, interval, "interval"), 6);

	status = run_tool("PC_TOOL_CHILD_PAGES=100,200,300,400", "stat", "-j",
			  "--per-thread", "-o", thread, "-e",
			  "task-clock,page-faults", SELF);
	show_output();
	ASSERT_EQ(0, status);
	/* the command and its four children, two events each */
	EXPECT_EQ(10, check_json_lines(_metadata, thread, "thread"));
	EXPECT_TRUE(strstr(out_buf, "\"thread\" : \"pages-400-") != NULL);

	ASSERT_EQ(0, print_artifact("stat.json", plain));
	ASSERT_EQ(0, print_artifact("stat-interval.json", interval));
	ASSERT_EQ(0, print_artifact("stat-per-thread.json", thread));
	unlink(plain);
	unlink(interval);
	unlink(thread);
}

/*
 * stat --per-thread over a command whose four children, all at once,
 * name themselves pages-N and touch N = 100, 200, 300 and 400 fresh
 * pages: a line for each of them and event, "pages-N-TID", each
 * child's page faults its N and at most 16 more (its copy-on-write and
 * exit faults), its task-clock counted too (the second group's
 * TOTALS, joined by tid); and the command's own line. Without a
 * command, --per-thread is refused.
 */
TEST(stat_per_thread_counts_each_child_at_its_exit)
{
	static const char csv[] = "/tmp/tool_test.thread.csv";
	int found[4] = { 0 }, clocks = 0, parent = 0, status, i, n;
	const char *at = out_buf, *line;
	unsigned long long faults;
	unsigned int tid;
	char comm[32];
	struct csv c;
	size_t len;

	EXPECT_EQ(1, run_tool(NULL, "stat", "--per-thread", "-a", "-e",
			      "task-clock"));
	EXPECT_TRUE(strstr(err_buf, "--per-thread") != NULL);
	status = run_tool("PC_TOOL_CHILD_PAGES=100,200,300,400", "stat",
			  "--per-thread", "-x", ",", "-o", csv, "-e",
			  "page-faults,task-clock", SELF);
	slurp(csv, out_buf, sizeof(out_buf));
	show_output();
	ASSERT_EQ(0, status);
	while (next_line(&at, &line, &len)) {
		ASSERT_EQ(CSV_FIELDS, csv_split(line, len, ',', &c));
		/* "comm-tid": the comm may hold a '-' itself */
		ASSERT_TRUE(strrchr(c.f[CSV_AT], '-') != NULL);
		tid = strtoul(strrchr(c.f[CSV_AT], '-') + 1, NULL, 10);
		snprintf(comm, sizeof(comm), "%.*s",
			 (int)(strrchr(c.f[CSV_AT], '-') - c.f[CSV_AT]), c.f[CSV_AT]);
		ASSERT_GT(tid, 0);
		if (!strcmp(comm, "tool_test"))
			parent++;
		if (sscanf(comm, "pages-%d", &n) != 1)
			continue;
		i = n / 100 - 1;
		ASSERT_TRUE(i >= 0 && i < 4 && n == 100 * (i + 1))
			TH_LOG("%s", comm);
		if (!strcmp(c.f[CSV_EVENT], "task-clock")) {
			clocks++;
			continue;
		}
		faults = strtoull(c.f[CSV_RAW], NULL, 10);
		TH_LOG("%s: %llu page faults", c.f[CSV_AT], faults);
		found[i]++;
		EXPECT_GE(faults, (unsigned long long)n);
		EXPECT_LE(faults, n + 16ULL);
	}
	for (i = 0; i < 4; i++)
		EXPECT_EQ(1, found[i]) TH_LOG("pages-%d", 100 * (i + 1));
	EXPECT_EQ(4, clocks);
	EXPECT_EQ(2, parent);
	unlink(csv);
}

/* Copy @from to @to cut at @len bytes and with @patch at @at (if any). */
static int damage(const char *from, const char *to, off_t len, off_t at,
		  const void *patch, size_t plen)
{
	static char data[1 << 20];
	int fd = open(from, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, data, sizeof(data));
	close(fd);
	if (n < len || at + (off_t)plen > len)
		return -1;
	if (plen)
		memcpy(data + at, patch, plen);
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write(fd, data, len) != len)
		return -1;
	close(fd);
	return 0;
}

TEST(report_of_a_damaged_record_file_says_so)
{
	const char *in = "/tmp/tool_test.data", *bad = "/tmp/tool_test.bad";
	uint32_t huge = 0xfffffff8, sample8[2] = { 4, 8 };
	struct stat st;
	int status;

	status = run_tool("PC_TOOL_SPIN=300", "record", "-e", "task-clock",
			  "-o", in, SELF);
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, stat(in, &st));
	ASSERT_GT(st.st_size, 64);

	/* cut in the middle of the last item */
	ASSERT_EQ(0, damage(in, bad, st.st_size - 4, 0, NULL, 0));
	status = run_tool(NULL, "report", "-i", bad);
	show_output();
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, "cut short") != NULL);

	/* the first item's size past the end of the file */
	ASSERT_EQ(0, damage(in, bad, st.st_size, 20, &huge, 4));
	status = run_tool(NULL, "report", "-i", bad);
	show_output();
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, "cut short") != NULL);

	/* a sample item with no body: skipped, said */
	ASSERT_EQ(0, damage(in, bad, 24, 16, sample8, sizeof(sample8)));
	status = run_tool(NULL, "report", "-i", bad);
	show_output();
	EXPECT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "too short") != NULL);
}

/*
 * Check each line of a multiplexed stat -x: ran part of the time, and
 * the printed value is raw * enabled / running.
 */
static void check_scaled(struct __test_metadata *_metadata,
			 const char * const *events, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		struct csv c;
		double val, raw, ena, run, share;

		ASSERT_TRUE(csv_find(err_buf, ',', events[i], &c));
		ASSERT_EQ(10, c.nr);
		val = strtod(c.f[0], NULL);
		share = strtod(c.f[3], NULL);
		raw = strtod(c.f[4], NULL);
		ena = strtod(c.f[5], NULL);
		run = strtod(c.f[6], NULL);
		ASSERT_GT(run, 0);
		EXPECT_LT(share, 100.0);
		EXPECT_LT(run, ena);
		EXPECT_LT(dabs(share - 100.0 * run / ena), 0.011);
		if (!strcmp(c.f[1], "msec"))
			val *= 1e6;
		/* %.2f msec: 5000 ns of rounding; %.0f: 0.5 */
		EXPECT_LT(dabs(val - raw * ena / run),
			  strcmp(c.f[1], "msec") ? 1.0 : 5001.0);
	}
}

TEST(software_groups_taking_turns_are_scaled)
{
	static const char * const ev[] = { "task-clock", "page-faults",
					   "cpu-clock" };
	int status;

	/* -X: each group exclusive, so they take turns at each tick */
	status = run_tool("PC_TOOL_TOUCH=2000", "stat", "-X", "-x", ",", "-e",
			  "task-clock,page-faults,cpu-clock", SELF);
	show_output();
	ASSERT_EQ(0, status);
	check_scaled(_metadata, ev, 3);
	status = run_tool("PC_TOOL_TOUCH=2000", "stat", "-X", "-e",
			  "task-clock,page-faults,cpu-clock", SELF);
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "% running; scaled from") != NULL);
}

TEST(hardware_groups_taking_turns_are_scaled)
{
	/* two groups of an event every driver has (the 750 has no branches) */
	static const char * const ev[] = { "cycles:u", "cycles:k" };
	int status;

	if (!have_pmu())
		SKIP(return, "no PMU driver on this CPU: hardware counters are ENODEV");
	status = run_tool("PC_TOOL_SPIN=300", "stat", "-X", "-x", ",", "-e",
			  "cycles:u,cycles:k", SELF);
	show_output();
	ASSERT_EQ(0, status);
	check_scaled(_metadata, ev, 2);
}

TEST(record_and_report_name_the_busy_function)
{
	char *line;
	int status;

	/*
	 * User mode only: under TCG the sampling timer's interrupt often
	 * lands in the softirqs of the tick before it.
	 */
	status = run_tool("PC_TOOL_SPIN=1500", "record", "-e", "task-clock:u",
			  "-c", "1000000", "-o", "/tmp/tool_test.data", SELF);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "perf-counter record:") != NULL);
	status = run_tool(NULL, "report", "-i", "/tmp/tool_test.data");
	show_output();
	ASSERT_EQ(0, status);
	/* the first line of the profile is the busy function */
	line = strstr(out_buf, "\n  ");
	ASSERT_TRUE(line != NULL);
	line = strtok(line + 1, "\n");
	ASSERT_TRUE(strstr(line, "tool_spin_loop") != NULL);
	EXPECT_TRUE(strstr(line, "tool_test") != NULL);
	EXPECT_GT(strtod(line, NULL), 50.0);
}

/*
 * The periods of report -D's SAMPLE lines: how many, their sum, the
 * least and the most.
 */
static int dump_periods(uint64_t *sum, uint64_t *min, uint64_t *max)
{
	char *line, *save, *p;
	int n = 0;

	*sum = *max = 0;
	*min = UINT64_MAX;
	for (line = strtok_r(out_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t v;

		p = strstr(line, " period ");
		if (!strstr(line, " SAMPLE ") || !p)
			continue;
		v = strtoull(p + 8, NULL, 10);
		*sum += v;
		*min = v < *min ? v : *min;
		*max = v > *max ? v : *max;
		n++;
	}
	return n;
}

/*
 * record -F: the kernel's frequency mode, each sample with the period
 * it chose (report -D shows them), which together are the command's
 * page faults but the last period's; report weighs by them. -c: the
 * one period asked.
 */
TEST(record_F_takes_the_kernels_periods_and_c_keeps_its_own)
{
	const char *data = "/tmp/tool_test_freq.data";
	uint64_t sum, min, max;
	int status, n;

	status = run_tool("PC_TOOL_TOUCH=4000", "record", "-e",
			  "page-faults:u", "-F", "2000", "-o", data, SELF);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "at 2000 a second") != NULL);
	status = run_tool(NULL, "report", "-D", "-i", data);
	ASSERT_EQ(0, status);
	n = dump_periods(&sum, &min, &max);
	TH_LOG("-F 2000: %d samples, periods %llu to %llu, %llu in all", n,
	       (unsigned long long)min, (unsigned long long)max,
	       (unsigned long long)sum);
	ASSERT_GT(n, 0);
	EXPECT_LT(min, max) TH_LOG("the kernel retuned the period");
	EXPECT_LE(sum, 4000 + TOOL_OWN_FAULTS);
	EXPECT_GE(sum + 8 * max, 4000ULL);
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "at 2000 a second") != NULL);
	EXPECT_TRUE(strstr(out_buf, "each weighted by its period") != NULL);

	status = run_tool("PC_TOOL_TOUCH=1000", "record", "-e",
			  "page-faults:u", "-c", "100", "-o", data, SELF);
	ASSERT_EQ(0, status);
	status = run_tool(NULL, "report", "-D", "-i", data);
	ASSERT_EQ(0, status);
	n = dump_periods(&sum, &min, &max);
	TH_LOG("-c 100: %d samples, periods %llu to %llu", n,
	       (unsigned long long)min, (unsigned long long)max);
	EXPECT_GE(n, 10);
	EXPECT_EQ(100, min);
	EXPECT_EQ(100, max);
	unlink(data);
}

/*
 * record -g and report: the call chains' quality line, and who called
 * the busy function. This program is built without frame pointers: on
 * x86 report must say so of it, naming the fix; PowerPC's back chain
 * needs none, and the tree shows the busy function's caller.
 */
TEST(record_g_and_report_show_the_callers_and_the_chains_quality)
{
	int status;

	status = run_tool("PC_TOOL_SPIN=1500", "record", "-g", "-e",
			  "task-clock:u", "-c", "1000000", "-o",
			  "/tmp/tool_test.data", SELF);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "call chains") != NULL);
	status = run_tool(NULL, "report", "-i", "/tmp/tool_test.data");
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "# call chains: ") != NULL);
	EXPECT_TRUE(strstr(out_buf, "tool_spin_loop") != NULL);
#if defined(__powerpc__)
	EXPECT_TRUE(strstr(out_buf, "tool_workload") != NULL);
#else
	EXPECT_TRUE(strstr(out_buf, "without a frame-pointer prologue") != NULL);
	EXPECT_TRUE(strstr(out_buf, "-fno-omit-frame-pointer") != NULL);
#endif
	status = run_tool(NULL, "report", "--no-children", "-i",
			  "/tmp/tool_test.data");
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "tool_spin_loop") != NULL);
}

/*
 * A file for the host, printed whole: "PC-ARTIFACT NAME SIZE CRC32",
 * its bytes in base64, a line of 76 characters each prefixed "PCA:",
 * then "PC-ARTIFACT-END". harness/artifacts.sh collects them from the
 * console and tools/perf_counter/test_export.py checks them.
 */
static int print_artifact(const char *name, const char *path)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static unsigned char buf[4 << 20];
	uint32_t crc = 0xffffffff;
	size_t len = 0, i;
	char line[80];
	int fd = open(path, O_RDONLY), k, n = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += got;
	close(fd);
	if (len == sizeof(buf))
		return -1;
	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320 & -(crc & 1));
	}
	printf("PC-ARTIFACT %s %zu %08x\n", name, len, ~crc);
	for (i = 0; i < len; i += 3) {
		uint32_t v = buf[i] << 16 |
			     (i + 1 < len ? buf[i + 1] << 8 : 0) |
			     (i + 2 < len ? buf[i + 2] : 0);

		line[n++] = b64[v >> 18 & 63];
		line[n++] = b64[v >> 12 & 63];
		line[n++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		line[n++] = i + 2 < len ? b64[v & 63] : '=';
		if (n == 76 || i + 3 >= len) {
			printf("PCA:%.*s\n", n, line);
			n = 0;
		}
	}
	printf("PC-ARTIFACT-END\n");
	fflush(stdout);
	return 0;
}

/*
 * The call-tree workload (chain_test's main -> chain_a -> chain_leaf,
 * main -> chain_b -> chain_leaf, a doing three times b's work) recorded
 * with -g and exported in every format; the record file, the exports,
 * report's table and the workload's own times go to the host, whose
 * test_export.py checks each format and reports the file again, with
 * no ELF file and no kallsyms, to the same table.
 */
TEST(record_g_exports_every_format_and_a_portable_file)
{
	static const char * const fmt[] = { "folded", "speedscope", "pprof",
					    "svg" };
	char out[64], name[64];
	unsigned long long samples;
	const char *heavy;
	unsigned int i;
	int status, got;

	/*
	 * About 3000 samples, a's and b's shares to +-5%: 40 rounds of
	 * calls of many sampling periods each (1500 rounds of 200000
	 * loops made a round about two periods long, and the samples beat
	 * with the calls: a's share 14% to 30% above its time's on the
	 * sanitizer kernel).
	 */
	status = run_tool("PC_CHAIN_TIMES=/tmp/export.times PC_CHAIN_ROUNDS=40 PC_CHAIN_LOOPS=7500000",
			  "record", "-g", "-e", "task-clock:u", "-c", "500000",
			  "-o", "/tmp/export.data", "/bin/chain_test",
			  "--workload", "ab");
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "symbol tables") != NULL);
	status = run_tool(NULL, "report", "--sort", "comm,dso,sym", "-n",
			  "10", "-i", "/tmp/export.data");
	ASSERT_EQ(0, status);
	got = sscanf(out_buf, "%*[^\n]\n# %llu samples", &samples);
	ASSERT_EQ(1, got) TH_LOG("%s", out_buf);
	ASSERT_LE(50, samples);
	EXPECT_TRUE(strstr(out_buf, "chain_leaf") != NULL);
	ASSERT_EQ(0, print_artifact("report.txt", OUT));
	for (i = 0; i < ARRAY_SIZE(fmt); i++) {
		snprintf(out, sizeof(out), "/tmp/export.%s", fmt[i]);
		status = run_tool(NULL, "report", "--format", fmt[i], "-o", out,
				  "-i", "/tmp/export.data");
		show_output();
		ASSERT_EQ(0, status);
		snprintf(name, sizeof(name), "export.%s", fmt[i]);
		ASSERT_EQ(0, print_artifact(name, out));
	}
	status = run_tool(NULL, "report", "--format", "svg", "--inverted",
			  "-o", "/tmp/export.inverted.svg", "-i",
			  "/tmp/export.data");
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, print_artifact("export.inverted.svg",
				    "/tmp/export.inverted.svg"));
	/* the heaviest stack, in the guest too */
	slurp("/tmp/export.folded", out_buf, sizeof(out_buf));
	heavy = strstr(out_buf, ";main;chain_a;chain_leaf ");
	EXPECT_TRUE(heavy != NULL) TH_LOG("%s", out_buf);
	ASSERT_EQ(0, print_artifact("export.data", "/tmp/export.data"));
	ASSERT_EQ(0, print_artifact("export.times", "/tmp/export.times"));
	for (i = 0; i < ARRAY_SIZE(fmt); i++) {
		snprintf(out, sizeof(out), "/tmp/export.%s", fmt[i]);
		unlink(out);
	}
	unlink("/tmp/export.inverted.svg");
	unlink("/tmp/export.data");
	unlink("/tmp/export.times");
}

/* report --wall's Children share of @sym, from its table; -1 if none. */
static double wall_share(const char *sym)
{
	char pat[96], *line;
	double share;

	snprintf(pat, sizeof(pat), "  %s\n", sym);
	line = strstr(out_buf, pat);
	if (!line)
		return -1;
	while (line > out_buf && line[-1] != '\n')
		line--;
	return sscanf(line, " %lf%%", &share) == 1 ? share : -1;
}

/* The ns of folded lines with @a;@b... (@b's name holding @what). */
static unsigned long long folded_ns(const char *a, const char *what,
				    const char *leaf)
{
	unsigned long long sum = 0, ns;
	char *line, *end, *at, *next;

	for (line = out_buf; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		*end = '\0';
		at = strstr(line, a);
		next = at ? strchr(at + strlen(a), ';') : NULL;
		if (next && strstr(next, what) && strstr(line, leaf) &&
		    sscanf(strrchr(line, ' '), " %llu", &ns) == 1)
			sum += ns;
		*end = '\n';
	}
	return sum;
}

/*
 * record --off-cpu, report --wall: chain_test's "offcpu" workload runs
 * 300 ms of CPU in chain_compute, sleeps 10 x 20 ms in chain_sleeper and
 * waits 100 ms in chain_pipe_wait for a child's write: 50%, 33% and 17%
 * of its wall-clock time, over the window it measured of itself
 * (report --time: not its exec, nor its exit). Its thread's off-CPU
 * time by the switch records is there its elapsed time less its CPU
 * time, as its own clocks measured them; the blocked stacks end in
 * sleeper -> nanosleep and pipe_wait -> read.
 */
TEST(record_off_cpu_wall_profile_splits_compute_sleeper_and_pipe_wait)
{
	unsigned long long start = 0, end = 0, cpu = 0, sleep_ns, read_ns;
	char window[64];
	double share[3], on, off = -1, t_elapsed;
	unsigned int pid;
	char comm[32], *line;
	int status, n = 0;

	status = run_tool("PC_CHAIN_TIMES=/tmp/offcpu.times", "record",
			  "--off-cpu", "-g", "-e", "task-clock:u", "-c",
			  "1000000", "-o", "/tmp/offcpu.data", "/bin/chain_test",
			  "--workload", "offcpu");
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "switch records") != NULL);
	slurp("/tmp/offcpu.times", out_buf, sizeof(out_buf));
	n = sscanf(out_buf, "%llu %llu %llu", &start, &end, &cpu);
	ASSERT_EQ(3, n);
	n = 0;
	/* its own window, to the ns: not the exec before, nor the exit */
	snprintf(window, sizeof(window), "%llu.%09llu,%llu.%09llu",
		 start / 1000000000, start % 1000000000, end / 1000000000,
		 end % 1000000000);
	status = run_tool(NULL, "report", "--wall", "--comms", "chain_test",
			  "--time", window, "-i", "/tmp/offcpu.data");
	show_output();
	ASSERT_EQ(0, status);
	share[0] = wall_share("chain_compute");
	share[1] = wall_share("chain_sleeper");
	share[2] = wall_share("chain_pipe_wait");
	TH_LOG("compute %.1f%%, sleeper %.1f%%, pipe_wait %.1f%%", share[0],
	       share[1], share[2]);
	EXPECT_GE(5, dabs(share[0] - 50));
	EXPECT_GE(5, dabs(share[1] - 33.3));
	EXPECT_GE(5, dabs(share[2] - 16.7));
	/* the thread's line: pid tid comm elapsed on off blocked preempted */
	line = strstr(out_buf, "# per thread");
	ASSERT_TRUE(line != NULL);
	while ((line = strchr(line, '\n')) && *++line) {
		if (sscanf(line, " %u %*u %31s %lf %lf %lf", &pid, comm,
			   &t_elapsed, &on, &off) == 5 &&
		    !strcmp(comm, "chain_test")) {
			n++;
			break;
		}
	}
	ASSERT_EQ(1, n);
	TH_LOG("off the CPU: %.3f ms by its switch records, %.3f ms by its clocks",
	       off, (end - start - cpu) / 1e6);
	/*
	 * Within 2.5%: 0.3% to 0.4% in make test's boots, but 1.3% and
	 * 2.0% in two of nine runs of 2026-12-01 (one beside kernel builds,
	 * 10 ms preempted; one 6 ms short by the switch records, cause not
	 * found), since record reads mapped rings.
	 */
	EXPECT_GE((end - start - cpu) / 1e6 * 0.025,
		  dabs(off - (end - start - cpu) / 1e6));
	status = run_tool(NULL, "report", "--wall", "--comms", "chain_test",
			  "--format", "folded", "-i", "/tmp/offcpu.data");
	ASSERT_EQ(0, status);
	sleep_ns = folded_ns(";chain_sleeper", "nanosleep", "[blocked]");
	read_ns = folded_ns(";chain_pipe_wait", "read", "[blocked]");
	TH_LOG("blocked in chain_sleeper -> nanosleep %llu ns, chain_pipe_wait -> read %llu ns",
	       sleep_ns, read_ns);
	EXPECT_LE(190000000ULL, sleep_ns);
	EXPECT_LE(95000000ULL, read_ns);
	unlink("/tmp/offcpu.times");
}

/*
 * Unprivileged at perf_event_paranoid 2, of its own tasks, with :u: the
 * switch-out chains hold no kernel address.
 */
TEST(record_off_cpu_unprivileged_chains_hold_no_kernel_address)
{
	int status, outs = 0, bad = 0, user = 0;
	unsigned int k, u;
	char old[16] = "", *line;
	int fd;

	slurp("/proc/sys/kernel/perf_event_paranoid", old, sizeof(old));
	fd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, write(fd, "2\n", 2));
	status = run_tool_as(65534, NULL, (const char * const []){ "record",
			     "--off-cpu", "-e", "task-clock:u", "-o",
			     "/tmp/offcpu.nobody.data", "/bin/chain_test",
			     "--workload", "offcpu", NULL });
	show_output();
	lseek(fd, 0, SEEK_SET);
	if (write(fd, old, strlen(old)) < 0)
		perror("restore perf_event_paranoid");
	close(fd);
	ASSERT_EQ(0, status);
	status = run_tool(NULL, "report", "-D", "-f", "-i",
			  "/tmp/offcpu.nobody.data");
	ASSERT_EQ(0, status);
	for (line = out_buf; (line = strstr(line, " out event ")); line++) {
		char *chain = strstr(line, "chain kernel ");

		if (!chain || sscanf(chain, "chain kernel %u user %u", &k,
				     &u) != 2)
			continue;
		outs++;
		bad += k != 0;
		user += u > 0;
	}
	TH_LOG("%d switch-outs, %d with a kernel part, %d with a user part",
	       outs, bad, user);
	EXPECT_LE(12, outs);
	EXPECT_EQ(0, bad);
	EXPECT_LE(12, user);
	unlink("/tmp/offcpu.nobody.data");
}

/* diff's table: the Change column of @sym's row, or NULL. */
static const char *diff_change(const char *sym)
{
	static char change[8];
	char pat[96], *line;

	snprintf(pat, sizeof(pat), "  %s\n", sym);
	line = strstr(out_buf, pat);
	if (!line)
		return NULL;
	while (line > out_buf && line[-1] != '\n')
		line--;
	if (sscanf(line, " %*f%% %*f%% %*f %*f %7s", change) != 1)
		return NULL;
	return change;
}

/*
 * perf-counter diff: chain_test's "hot" workload, hot_a doing as much
 * work as hot_b, then twice as much: hot_a up and hot_b down, with
 * |z| >= 3, and nothing else; two runs of the same: no change.
 */
TEST(diff_flags_the_functions_that_changed_and_only_them)
{
	/*
	 * Calls of many sampling periods each (about 13 on ppc32): calls
	 * about as long as a period beat with it, and two runs of one
	 * workload then split 44:55 and 54:46.
	 */
	static const char * const env[] = {
		"PC_CHAIN_HOT=1 PC_CHAIN_ROUNDS=40 PC_CHAIN_LOOPS=5000000",
		"PC_CHAIN_HOT=1 PC_CHAIN_ROUNDS=40 PC_CHAIN_LOOPS=5000000",
		"PC_CHAIN_HOT=2 PC_CHAIN_ROUNDS=40 PC_CHAIN_LOOPS=5000000",
	};
	char data[3][32];
	const char *c;
	int i, status;

	for (i = 0; i < 3; i++) {
		snprintf(data[i], sizeof(data[i]), "/tmp/hot%d.data", i);
		status = run_tool(env[i], "record", "-e", "task-clock:u", "-c",
				  "500000", "-o", data[i], "/bin/chain_test",
				  "--workload", "hot");
		show_output();
		ASSERT_EQ(0, status);
	}
	status = run_tool(NULL, "diff", data[0], data[1]);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "# 0 changes") != NULL);
	status = run_tool(NULL, "diff", data[0], data[2]);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "# 2 changes: 1 up, 1 down") != NULL);
	c = diff_change("chain_hot_a");
	EXPECT_TRUE(c && !strcmp(c, "up")) TH_LOG("hot_a: %s", c ? c : "none");
	c = diff_change("chain_hot_b");
	EXPECT_TRUE(c && !strcmp(c, "down")) TH_LOG("hot_b: %s", c ? c : "none");
	status = run_tool(NULL, "diff", "--format", "svg", "-o",
			  "/tmp/hot.svg", data[0], data[2]);
	ASSERT_EQ(0, status);
	slurp("/tmp/hot.svg", out_buf, sizeof(out_buf));
	EXPECT_TRUE(strstr(out_buf, "Differential") != NULL);
	EXPECT_TRUE(strstr(out_buf, "chain_hot_a") != NULL);
	for (i = 0; i < 3; i++)
		unlink(data[i]);
	unlink("/tmp/hot.svg");
}

/* Copy @from to @to, executable; 0 or -1. */
static int copy_program(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out, ok = 1;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			ok = 0;
	close(in);
	return close(out) == 0 && n == 0 && ok ? 0 : -1;
}

/*
 * A file the command mapped, swapped for a link after the recording (to
 * a copy of the same program: the symbols would even be right): report
 * of a file without its symbols (-B) reads none through the link, and
 * the busy function's samples stay addresses; a portable file names
 * them with its own. A record file another user owns is refused without
 * -f, as perf refuses one, and a FIFO in its place is not read.
 */
TEST(report_reads_symbols_only_from_the_file_that_was_mapped)
{
	static const char dir[] = "/tmp/tool_test.swap";
	static const char prog[] = "/tmp/tool_test.swap/tool_test";
	static const char data[] = "/tmp/tool_test.swap.data";
	static const char portable[] = "/tmp/tool_test.portable.data";
	char *line;
	int status;

	mkdir(dir, 0755);
	ASSERT_EQ(0, copy_program(SELF, prog));
	status = run_tool("PC_TOOL_SPIN=600", "record", "-e", "task-clock:u",
			  "-c", "1000000", "-o", portable, prog);
	ASSERT_EQ(0, status);
	status = run_tool("PC_TOOL_SPIN=600", "record", "-B", "-e",
			  "task-clock:u", "-c", "1000000", "-o", data, prog);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, " 0 symbol tables") != NULL);
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	line = strstr(out_buf, "\n  ");
	ASSERT_TRUE(line != NULL);
	line = strtok(line + 1, "\n");
	ASSERT_TRUE(strstr(line, "tool_spin_loop") != NULL) TH_LOG("%s", line);

	/* the name is now a link to another file */
	ASSERT_EQ(0, unlink(prog));
	ASSERT_EQ(0, symlink(SELF, prog));
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "tool_spin_loop") == NULL);
	line = strstr(out_buf, "\n  ");
	ASSERT_TRUE(line != NULL);
	line = strtok(line + 1, "\n");
	EXPECT_TRUE(strstr(line, "tool_test") && strstr(line, " 0x"))
		TH_LOG("%s", line);
	status = run_tool(NULL, "report", "-i", portable);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "tool_spin_loop") != NULL);
	unlink(portable);

	/* another user's record file: refused, then read with -f */
	ASSERT_EQ(0, chown(data, PC_NOBODY, PC_NOBODY));
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	EXPECT_NE(0, status);
	EXPECT_TRUE(strstr(err_buf, "use -f") != NULL);
	status = run_tool(NULL, "report", "-f", "-i", data);
	show_output();
	EXPECT_EQ(0, status);
	unlink(prog);
	unlink(data);

	/* a FIFO named as the record file: refused, not waited on */
	ASSERT_EQ(0, mkfifo(data, 0644));
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	EXPECT_NE(0, status);
	EXPECT_TRUE(strstr(err_buf, "not a regular file") != NULL);
	unlink(data);
	rmdir(dir);
}

/* One line of report --sort comm,dso: samples, command, file. */
struct row {
	unsigned long long samples;
	char comm[32], dso[64];
};

/*
 * The rows of report's profile in out_buf, the first @max; how many.
 * Every row of every event's part, one after the other.
 */
static int report_rows(struct row *rows, int max)
{
	const char *line = out_buf;
	int n = 0;

	while (*line && n < max) {
		double pct;

		if (sscanf(line, " %lf%% %llu %31s %63s", &pct,
			   &rows[n].samples, rows[n].comm, rows[n].dso) == 4 &&
		    line[0] == ' ')
			n++;
		line = strchrnul(line, '\n');
		if (*line)
			line++;
	}
	return n;
}

/* report --sort comm,dso of @data, its first @max rows; -1 if it failed. */
static int report_by_comm_dso(const char *data, struct row *rows, int max)
{
	int status = run_tool(NULL, "report", "--sort", "comm,dso", "-i", data);

	show_output();
	return status ? -1 : report_rows(rows, max);
}

/* The N of report's "# N <what>" line, or 0 without one. */
static unsigned long long report_count(const char *what)
{
	const char *at = out_buf;
	char pat[128];

	snprintf(pat, sizeof(pat), " %s", what);
	while ((at = strstr(at, pat))) {
		const char *bol = at;

		while (bol > out_buf && bol[-1] != '\n')
			bol--;
		if (bol[0] == '#')
			return strtoull(bol + 1, NULL, 10);
		at++;
	}
	return 0;
}

static void make_copies(struct __test_metadata *_metadata)
{
	char path[64];
	int i;

	for (i = 0; i < COPIES; i++) {
		snprintf(path, sizeof(path), COPY, 'a' + i);
		ASSERT_EQ(0, copy_program(SELF, path));
	}
}

static void remove_copies(void)
{
	char path[64];
	int i;

	for (i = 0; i < COPIES; i++) {
		snprintf(path, sizeof(path), COPY, 'a' + i);
		unlink(path);
	}
}

/* The N of report's "# N samples of @event" line, or 0. */
static unsigned long long event_samples(const char *event)
{
	char pat[96];
	const char *at;

	snprintf(pat, sizeof(pat), " samples of %s every", event);
	at = strstr(out_buf, pat);
	if (!at)
		return 0;
	while (at > out_buf && at[-1] != '#')
		at--;
	return strtoull(at, NULL, 10);
}

/* The K of the first "; K in the kernel". */
static unsigned long long kernel_samples(void)
{
	const char *at = strstr(out_buf, " lost; ");

	return at ? strtoull(at + 7, NULL, 10) : 0;
}

/*
 * report -D of @data: every child with samples has its FORK before its
 * first sample and its EXIT after its last, as the kernel wrote them
 * and record merged them.
 */
static void check_fork_exit_order(struct __test_metadata *_metadata,
				  const char *data)
{
	enum { FORKED, FIRST, LAST, ENDED, TIMES };
	const size_t max = 1 << 16;
	uint64_t (*t)[TIMES] = calloc(max, sizeof(*t));
	const char *line = out_buf;
	int status, checked = 0, bad = 0;
	unsigned int pid, tid;
	size_t i;

	ASSERT_TRUE(t != NULL);
	status = run_tool(NULL, "report", "-D", "-i", data);
	ASSERT_EQ(0, status);
	while (*line) {
		unsigned long long sec, ns, when;
		char kind[16];

		if (sscanf(line, " %llu.%llu %15s %u/%u", &sec, &ns, kind, &pid,
			   &tid) == 5 && pid < max) {
			when = sec * 1000000000ULL + ns;
			if (!strcmp(kind, "FORK") && pid == tid)
				t[pid][FORKED] = when;
			if (!strcmp(kind, "EXIT") && pid == tid)
				t[pid][ENDED] = when;
			if (!strcmp(kind, "SAMPLE")) {
				if (!t[pid][FIRST])
					t[pid][FIRST] = when;
				t[pid][LAST] = when;
			}
		}
		line = strchrnul(line, '\n');
		if (*line)
			line++;
	}
	for (i = 0; i < max; i++) {
		if (!t[i][FORKED] || !t[i][FIRST])
			continue;	/* the driver, or a child unsampled */
		checked++;
		if (t[i][FORKED] > t[i][FIRST] || !t[i][ENDED] ||
		    t[i][ENDED] < t[i][LAST]) {
			bad++;
			TH_LOG("pid %zu: FORK %llu, samples %llu-%llu, EXIT %llu",
			       i, (unsigned long long)t[i][FORKED],
			       (unsigned long long)t[i][FIRST],
			       (unsigned long long)t[i][LAST],
			       (unsigned long long)t[i][ENDED]);
		}
	}
	free(t);
	TH_LOG("%d children checked, %d out of order", checked, bad);
	EXPECT_GE(checked, 60);
	EXPECT_EQ(0, bad);
}

/*
 * The case side-band records exist for: 64 children, each spinning 3 ms
 * in this program, then exec'ing one of four copies of it for 10 ms (CPU
 * time both), then exiting, quicker than /proc could be read. Every
 * sample must be named with the program its task ran at that moment:
 * the file (dso) is the command (comm) of the program run (or the vDSO
 * it calls), for at least 99% of them; each copy has its quarter; and
 * the children's time before their exec is this program's, as a tool
 * that kept each task's last mappings, or ignored time, would not say.
 */
TEST(record_names_the_program_of_each_short_lived_child)
{
	static const char data[] = "/tmp/tool_test.forks.data";
	unsigned long long total = 0, right = 0, copy[COPIES] = { 0 }, all = 0;
	unsigned long long before = 0;
	struct row rows[64];
	int status, n, i;

	make_copies(_metadata);
	/* a sample each 250 us: a child's 10 ms is 40 of them */
	status = run_tool("PC_TOOL_FORKS=64", "record", "-e", "task-clock:u",
			  "-c", "250000", "-o", data, SELF);
	show_output();
	ASSERT_EQ(0, status);
	n = report_by_comm_dso(data, rows, 64);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		total += rows[i].samples;
		/* the program's own file, or the vDSO it calls */
		if (!strcmp(rows[i].comm, rows[i].dso) ||
		    !strcmp(rows[i].dso, "[vdso]"))
			right += rows[i].samples;
		if (!strcmp(rows[i].comm, "tool_test") &&
		    !strcmp(rows[i].dso, "tool_test"))
			before += rows[i].samples;
		/* a copy's, in its file and the vDSO: their shares vary */
		if (!strncmp(rows[i].comm, "tool_test_", 10) &&
		    rows[i].comm[10] >= 'a' &&
		    rows[i].comm[10] < 'a' + COPIES && !rows[i].comm[11])
			copy[rows[i].comm[10] - 'a'] += rows[i].samples;
	}
	for (i = 0; i < COPIES; i++)
		all += copy[i];
	TH_LOG("%llu samples, %llu named with the program run, %llu before the exec; a-d %llu %llu %llu %llu",
	       total, right, before, copy[0], copy[1], copy[2], copy[3]);
	ASSERT_GT(total, 600);
	EXPECT_EQ(total, report_count("samples of"));
	EXPECT_GE(right * 100, total * 99);
	/*
	 * 3 of each child's 13 ms: some 23% (a tool naming a pid with its
	 * last mappings, or without time order, would give none)
	 */
	EXPECT_GE(before * 100, total * 10);
	for (i = 0; i < COPIES; i++) {
		EXPECT_GE(copy[i] * 100, all * 20);
		EXPECT_LE(copy[i] * 100, all * 30);
	}
	EXPECT_EQ(0, report_count("samples at user addresses in no mapping"));
	check_fork_exit_order(_metadata, data);
	unlink(data);
	remove_copies();
}

/* Start a copy spinning until killed; it made RUNNING when this returns. */
static pid_t start_spinner(struct __test_metadata *_metadata,
			   const char *path)
{
	static const char * const env[] = { "PC_TOOL_SPIN=600000", NULL };
	int waited;
	pid_t pid;

	unlink(RUNNING);
	pid = fork();
	if (pid < 0)
		return pid;
	if (!pid) {
		execle(path, path, (char *)NULL, (char **)env);
		_exit(127);
	}
	for (waited = 0; waited < 30000 && access(RUNNING, F_OK); waited += 10)
		usleep(10000);
	EXPECT_EQ(0, access(RUNNING, F_OK));
	return pid;
}

/*
 * record -a: every task of every CPU, one that ran before recording
 * began (named from the /proc snapshot) and the command (from its exec's
 * records); at most 5% of the user samples left unnamed.
 */
TEST(record_a_names_the_tasks_of_every_cpu)
{
	static const char data[] = "/tmp/tool_test.all.data";
	unsigned long long total, user, unnamed, before = 0, command = 0;
	struct row rows[256];
	int status, n, i;
	pid_t spinner;

	make_copies(_metadata);
	spinner = start_spinner(_metadata, "/tmp/tool_test_b");
	ASSERT_LT(0, spinner);
	status = run_tool("PC_TOOL_SPIN=1000", "record", "-a", "-e",
			  "cpu-clock", "-c", "1000000", "-o", data,
			  "/tmp/tool_test_c");
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	show_output();
	ASSERT_EQ(0, status);
	n = report_by_comm_dso(data, rows, 256);
	ASSERT_LE(0, n);
	total = report_count("samples of");
	user = total - kernel_samples();
	unnamed = report_count("samples at user addresses in no mapping");
	for (i = 0; i < n; i++) {
		if (!strcmp(rows[i].comm, "tool_test_b") &&
		    !strcmp(rows[i].dso, "tool_test_b"))
			before += rows[i].samples;
		if (!strcmp(rows[i].comm, "tool_test_c") &&
		    !strcmp(rows[i].dso, "tool_test_c"))
			command += rows[i].samples;
	}
	TH_LOG("%llu samples, %llu of user mode, %llu unnamed; the earlier task's %llu, the command's %llu",
	       total, user, unnamed, before, command);
	ASSERT_GT(user, 200);
	EXPECT_LE(unnamed * 100, user * 5);
	EXPECT_GE(before * 100, total * 10);
	EXPECT_GE(command * 100, total * 10);
	unlink(data);
	remove_copies();
}

/*
 * record -C 0 without a command: every task on CPU 0 until SIGINT, which
 * ends the recording with the file whole and status 0; report --sort cpu
 * has CPU 0's samples alone.
 */
TEST(record_C_without_a_command_ends_at_sigint)
{
	static const char data[] = "/tmp/tool_test.cpu.data";
	const char * const args[] = { "record", "-C", "0", "-e", "cpu-clock",
				      "-c", "1000000", "-o", data, NULL };
	struct row rows[16];
	unsigned long long total;
	int status, n, i;
	pid_t spinner;

	make_copies(_metadata);
	spinner = start_spinner(_metadata, "/tmp/tool_test_b");
	ASSERT_LT(0, spinner);
	/* SIGINT a second after the recording's records reach the file */
	unlink(data);
	sig_when_grown = data;
	status = run_tool_sig(-1, NULL, args, SIGINT, 1000);
	sig_when_grown = NULL;
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(err_buf, "perf-counter record:") != NULL);
	status = run_tool(NULL, "report", "--sort", "cpu,comm", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	total = report_count("samples of");
	TH_LOG("%llu samples", total);
	ASSERT_GT(total, 300);
	/* the rows are " pct samples CPU comm": the CPU is the third field */
	n = report_rows(rows, 16);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		EXPECT_STREQ("0", rows[i].comm);
	unlink(data);
	remove_copies();
}

/*
 * record -p: attach to a running process; its threads are followed, one
 * there when it attached and two it makes after (on any but a very slow
 * machine), each named with the name it gave itself.
 */
TEST(record_p_follows_a_running_process_and_its_threads)
{
	static const char data[] = "/tmp/tool_test.pid.data";
	static const char * const env[] = { "PC_TOOL_THREADS=3", NULL };
	unsigned long long total = 0, spin[3] = { 0 };
	char pid_arg[16];
	struct row rows[64];
	int status, n, i;
	pid_t target;

	target = fork();
	ASSERT_LE(0, target);
	if (!target) {
		execle(SELF, SELF, (char *)NULL, (char **)env);
		_exit(127);
	}
	snprintf(pid_arg, sizeof(pid_arg), "%d", target);
	status = run_tool(NULL, "record", "-p", pid_arg, "-e", "task-clock:u",
			  "-c", "1000000", "-o", data);
	show_output();
	ASSERT_EQ(0, status);
	ASSERT_EQ(target, waitpid(target, &status, 0));
	ASSERT_EQ(0, status);
	n = report_by_comm_dso(data, rows, 64);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		total += rows[i].samples;
		if (!strncmp(rows[i].comm, "spin", 4) && rows[i].comm[4] >= '0' &&
		    rows[i].comm[4] <= '2' && !strcmp(rows[i].dso, "tool_test"))
			spin[rows[i].comm[4] - '0'] += rows[i].samples;
	}
	TH_LOG("%llu samples; spin0-2 %llu %llu %llu", total, spin[0], spin[1],
	       spin[2]);
	ASSERT_GT(total, 100);
	for (i = 0; i < 3; i++)
		EXPECT_GE(spin[i] * 100, total * 15);
	unlink(data);
}

/*
 * Two events in one record: report gives each its own profile, with its
 * own samples. An event that excludes user mode leaves the side-band
 * records to one that does not (the kernel refuses mappings for it).
 */
TEST(record_of_two_events_reports_each)
{
	static const char data[] = "/tmp/tool_test.two.data";
	unsigned long long task, cpu;
	int status;

	status = run_tool("PC_TOOL_SPIN=500", "record", "-e", "task-clock:u",
			  "-e", "cpu-clock:u", "-c", "1000000", "-o", data,
			  SELF);
	show_output();
	ASSERT_EQ(0, status);
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	task = event_samples("task-clock:u");
	cpu = event_samples("cpu-clock:u");
	TH_LOG("task-clock:u %llu samples, cpu-clock:u %llu", task, cpu);
	EXPECT_GT(task, 200);
	EXPECT_GT(cpu, 200);
	/* the busy function heads each event's profile */
	EXPECT_TRUE(strstr(out_buf, "[.] tool_spin_loop\n") != NULL);
	EXPECT_TRUE(strstr(strstr(out_buf, "samples of cpu-clock:u") ?: "",
			   "[.] tool_spin_loop\n") != NULL);

	status = run_tool("PC_TOOL_SPIN=200", "record", "-e",
			  "task-clock:k,task-clock:u", "-c", "1000000", "-o",
			  data, SELF);
	show_output();
	ASSERT_EQ(0, status);
	status = run_tool(NULL, "report", "-i", data);
	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "samples of task-clock:k") != NULL);
	EXPECT_GT(event_samples("task-clock:u"), 100);
	EXPECT_EQ(0, report_count("samples at user addresses in no mapping"));
	unlink(data);
}

TEST(unknown_event_suggests_the_nearest_names)
{
	int status = run_tool(NULL, "stat", "-e", "cylces", SELF);

	show_output();
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, "unknown event 'cylces'") != NULL);
	EXPECT_TRUE(strstr(err_buf, "did you mean: cycles") != NULL);
	status = run_tool(NULL, "record", "-e", "task-clok", SELF);
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, "did you mean: task-clock") != NULL);
}

TEST(cpu_wide_counting_without_privilege_names_the_capability)
{
	char old[16] = "";
	int fd, status;

	/* the base kernel's default level, whatever this boot has */
	slurp("/proc/sys/kernel/perf_event_paranoid", old, sizeof(old));
	fd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, write(fd, "2\n", 2));
	status = run_tool_as(65534, NULL, (const char * const []){ "stat",
			     "-a", "-e", "task-clock", SELF, NULL });
	show_output();
	lseek(fd, 0, SEEK_SET);
	if (write(fd, old, strlen(old)) < 0)
		perror("restore perf_event_paranoid");
	close(fd);
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, "Permission denied") != NULL);
	EXPECT_TRUE(strstr(err_buf, "CAP_SYS_ADMIN") != NULL);
	EXPECT_TRUE(strstr(err_buf, "perf_event_paranoid") != NULL);
}

TEST(raw_event_the_driver_refuses_says_why)
{
	/* every one of the 63 bits: reserved or the driver's on any PMU */
	const char *why = have_pmu() ? "refuses raw code" :
				       "no working PMU driver";
	int status = run_tool(NULL, "stat", "-e", "r7fffffffffffffff", SELF);

	show_output();
	EXPECT_EQ(1, status);
	EXPECT_TRUE(strstr(err_buf, why) != NULL);
}

TEST(list_shows_every_kind_of_event)
{
	int status = run_tool(NULL, "list", "cpu");

	show_output();
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "Named events of this CPU") != NULL);
	/*
	 * Every CPU a driver drives has its tables (the guests: P6, K7,
	 * 10h, P4, 740/750, 7400, 7450): named events, each with a topic.
	 */
	if (have_pmu()) {
		EXPECT_TRUE(strstr(out_buf, "none in the tables") == NULL);
		EXPECT_TRUE(strstr(out_buf, "Named events of this CPU: ") !=
			    NULL);
		EXPECT_TRUE(strstr(out_buf, " [raw 0x") != NULL);
	}
	status = run_tool(NULL, "list");
	ASSERT_EQ(0, status);
	EXPECT_TRUE(strstr(out_buf, "cycles") != NULL);
	EXPECT_TRUE(strstr(out_buf, "task-clock") != NULL);
	EXPECT_TRUE(strstr(out_buf, "page-faults") != NULL);
	EXPECT_TRUE(strstr(out_buf, "rNNN") != NULL);
	EXPECT_TRUE(strstr(out_buf, "Named events of this CPU") != NULL);
}

TEST(top_refreshes_as_often_as_asked)
{
	const char *p = out_buf;
	int n = 0;
	int status = run_tool(NULL, "top", "-d", "1", "-n", "2");

	show_output();
	ASSERT_EQ(0, status);
	while ((p = strstr(p, "perf-counter top:"))) {
		n++;
		p++;
	}
	EXPECT_EQ(2, n);
	EXPECT_TRUE(strstr(out_buf, "[k]") != NULL);
}

int main(int argc, char **argv)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
	return test_harness_run(argc, argv);
}
