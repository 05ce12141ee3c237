// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test initramfs.
 *
 * Mounts what the tests need, checks the clock, runs the programs named
 * in /etc/pc-run with their output on the console, dumps the kernel log
 * between markers for the host to scan, and ends the machine with a
 * status: isa-debug-exit on x86, power-off elsewhere. The host trusts
 * only the markers it reads, never QEMU's exit status.
 *
 * A line of /etc/pc-run is a program and its arguments, split at spaces,
 * after "failslab" to run it with allocation failures injected (failslab
 * and fail_page_alloc, on kernels that have them), "timeout=SECONDS"
 * (a program still running then is dumped and killed) and
 * "env=NAME=VALUE" for its environment. On kernels with kmemleak the
 * leaks the programs left are listed at the end; on a kernel booted
 * with slab_nomerge, so are the objects left in perf_counter's slab
 * caches (slab_report()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void mount_fs(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	/* ENODEV: a file system this kernel does not have (debugfs) */
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY && errno != ENODEV)
		printf("init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Write @val to @path; 0 if the file is not there, -1 (errno) on error. */
static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = errno;
	close(fd);
	errno = err;
	return err ? -1 : 1;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc/"
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

/*
 * Fault injection, where the kernel has it, for the tasks marked with
 * make-it-fail only (task-filter): 2% of their slab and page
 * allocations fail, sleeping ones too (ignore-gfp-wait N; by default
 * only atomic ones would), from the first call on (interval 1, space
 * 0), with no limit in practice (times INT_MAX, not -1: it counts down
 * by one per failure injected, so a program can tell how many were)
 * and silently (verbose 0: no stack trace per failure in the log). User
 * pages (GFP_HIGHUSER) are spared: what is under test is the kernel's
 * own allocations.
 */
static int fault_injection;

static void setup_fault_injection(void)
{
	static const char *const attr[][2] = {
		{ "task-filter", "Y" }, { "probability", "2" },
		{ "interval", "1" }, { "times", "2147483647" }, { "space", "0" },
		{ "verbose", "0" }, { "ignore-gfp-wait", "N" },
	};
	char path[128];
	int i, ok = 1;

	if (access(FAILSLAB, F_OK) || access(FAIL_PAGE, F_OK))
		return;
	for (i = 0; i < (int)ARRAY_SIZE(attr); i++) {
		snprintf(path, sizeof(path), FAILSLAB "%s", attr[i][0]);
		ok &= put(path, attr[i][1]) > 0;
		snprintf(path, sizeof(path), FAIL_PAGE "%s", attr[i][0]);
		ok &= put(path, attr[i][1]) > 0;
	}
	ok &= put(FAIL_PAGE "ignore-gfp-highmem", "Y") > 0;
	ok &= put(FAIL_PAGE "min-order", "0") > 0;
	if (!ok)
		printf("init: fault injection: could not set it up\n");
	fault_injection = ok;
}

/*
 * Does this kernel have kmemleak, and did the boot leave it on? A boot
 * with kmemleak=off (the sanitizer target's model boots) says so once,
 * for the report, which then wants no list from it.
 */
static bool kmemleak_on(void)
{
	static int said;
	char cmdline[4096] = "";
	FILE *f;

	if (access(KMEMLEAK, F_OK))
		return false;
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	if (!strstr(cmdline, "kmemleak=off"))
		return true;
	if (!said++)
		printf("PC-KMEMLEAK-OFF\n");
	return false;
}

/*
 * kmemleak: forget what boot left (KUnit included), so only what the
 * programs leak is reported. "clear" forgets only what a scan has
 * reported, and a scan reports an object only if the scan before found
 * it unreferenced too (its checksum unchanged): two scans first. Boot
 * does leave some: 6.1's KUnit, filtering suites for a model boot
 * (kunit.filter_glob), loses the logs of the copies it runs.
 */
static void kmemleak_clear(void)
{
	int i;

	if (!kmemleak_on())
		return;
	for (i = 0; i < 2; i++)
		if (put(KMEMLEAK, "scan") < 0)
			printf("init: kmemleak scan: %s\n", strerror(errno));
	if (put(KMEMLEAK, "clear") < 0)
		printf("init: kmemleak clear: %s\n", strerror(errno));
}

/*
 * After the programs: kmemleak reports an object only once it is older
 * than 5 s (MSECS_MIN_AGE) and unchanged since the scan before (its
 * checksum), so two scans 6 s apart, then the list between markers.
 */
static void kmemleak_report(void)
{
	char buf[4096];
	size_t n;
	FILE *f;
	int i;

	if (!kmemleak_on())
		return;
	printf("PC-KMEMLEAK-BEGIN\n");
	for (i = 0; i < 2; i++) {
		sleep(6);
		if (put(KMEMLEAK, "scan") < 0)
			printf("PC-KMEMLEAK-ERROR scan: %s\n", strerror(errno));
	}
	fflush(stdout);
	f = fopen(KMEMLEAK, "r");
	if (!f)
		printf("PC-KMEMLEAK-ERROR read: %s\n", strerror(errno));
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	if (f)
		fclose(f);
	printf("PC-KMEMLEAK-END\n");
}

/* Time-based tests are nonsense on the jiffies clocksource. */
static int clock_ok(void)
{
	char cs[64] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = 0;
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = 0;
	printf("PC-CLOCKSOURCE %s\n", cs[0] ? cs : "unknown");
	if (!strcmp(cs, "jiffies") || !cs[0]) {
		printf("init: clocksource is '%s': time-based results would be meaningless\n",
		       cs);
		return 0;
	}
	return 1;
}

/*
 * A program still running at its deadline: the state and kernel stack of
 * every user task, and of kernel threads in D state, so a hang says where
 * it hangs; then everything but init is killed and the boot goes on.
 */
static int deadline_passed;	/* set by the SIGALRM handler */

static void on_alarm(int sig)
{
	__atomic_store_n(&deadline_passed, 1, __ATOMIC_RELAXED);
}

static void print_file(const char *path, const char *prefix)
{
	char line[256];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		printf("%s%s", prefix, line);
	if (f)
		fclose(f);
}

static void dump_tasks(void)
{
	char path[600], stat[256], *comm_end;
	struct dirent *p, *t;
	DIR *proc = opendir("/proc"), *task;
	int user;
	FILE *f;

	while (proc && (p = readdir(proc))) {
		if (p->d_name[0] < '0' || p->d_name[0] > '9' || !strcmp(p->d_name, "1"))
			continue;
		/* kernel threads have no command line */
		snprintf(path, sizeof(path), "/proc/%s/cmdline", p->d_name);
		f = fopen(path, "r");
		user = f && fgetc(f) != EOF;
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		while (task && (t = readdir(task))) {
			if (t->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat",
				 p->d_name, t->d_name);
			f = fopen(path, "r");
			if (!f || !fgets(stat, sizeof(stat), f))
				stat[0] = 0;
			if (f)
				fclose(f);
			/* "tid (comm) S ..." */
			comm_end = strrchr(stat, ')');
			if (!comm_end || (!user && comm_end[2] != 'D'))
				continue;
			comm_end[3] = 0;
			printf("PC-TASK %s\n", stat);
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stack",
				 p->d_name, t->d_name);
			print_file(path, "PC-TASK   ");
		}
		if (task)
			closedir(task);
	}
	if (proc)
		closedir(proc);
}

/* waitpid() that, past the deadline, dumps the tasks and kills them. */
static pid_t wait_child(pid_t pid, int *status, const char *prog, int limit)
{
	pid_t ret;

	while ((ret = waitpid(pid, status, 0)) < 0 && errno == EINTR) {
		if (__atomic_load_n(&deadline_passed, __ATOMIC_RELAXED) != 1)
			continue;
		__atomic_store_n(&deadline_passed, 2, __ATOMIC_RELAXED);
		printf("init: %s still running after %d s: its tasks' stacks, then all killed\n",
		       prog, limit);
		dump_tasks();
		fflush(stdout);
		kill(-1, SIGKILL);
	}
	return ret;
}

#if defined(__x86_64__) || defined(__i386__)
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/user.h>
#ifdef __x86_64__
#define ORIG_NR	offsetof(struct user, regs.orig_rax)
#else
#define ORIG_NR	offsetof(struct user, regs.orig_eax)
#endif

/*
 * The system call @pid is stopped in: the program's own work starts at
 * its first perf_counter_open() or at a new thread or process (which
 * must inherit the mark); what comes before is the C library starting.
 */
static int program_started(pid_t pid)
{
	long nr = ptrace(PTRACE_PEEKUSER, pid, (void *)ORIG_NR, NULL);

	return nr == 451 /* perf_counter_open */ || nr == SYS_clone ||
	       nr == SYS_clone3 || nr == SYS_vfork
#ifdef SYS_fork
	       || nr == SYS_fork
#endif
	       ;
}
#else
/* no system call numbers to watch for here: at the exec */
static int program_started(pid_t pid)
{
	return 1;
}
#endif

/*
 * Mark a child stopped after PTRACE_TRACEME and exec with make-it-fail
 * when its program starts, then let it go. Not before: exec and the C
 * library's start allocate too, and with them failing (2% of calls)
 * three runs in five of a static hello-world died before main or in
 * exec; after exec, one in eight still did in static glibc's startup.
 * Returns 0 with @status the child's end if it ended first.
 */
static int mark_when_started(pid_t pid, int *status, const char *prog,
			     int limit)
{
	char mark[64];
	int sig = 0;

	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_TRACESYSGOOD);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) ||
		    wait_child(pid, status, prog, limit) < 0 ||
		    !WIFSTOPPED(*status))
			return 0;
		sig = 0;
		if (WSTOPSIG(*status) != (SIGTRAP | 0x80))
			sig = WSTOPSIG(*status);	/* its own signal */
		else if (program_started(pid))
			break;
	}
	snprintf(mark, sizeof(mark), "/proc/%d/make-it-fail", pid);
	if (put(mark, "1") <= 0)
		printf("init: %s: %s\n", mark, errno ? strerror(errno) : "missing");
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 1;
}

/*
 * Run one line of /etc/pc-run: a program and its arguments, after
 * optional words "failslab" (allocation failures injected into the
 * program once it has started, and into the threads and processes it
 * makes: make-it-fail is inherited), "timeout=SECONDS" (1200 if not
 * given), the time after which the program counts as hung, and
 * "env=NAME=VALUE", put in the program's environment.
 */
static int run(char *line)
{
	char *argv[32], *envs[8], *save = NULL, *word;
	int argc = 0, nenv = 0, fail = 0, limit = 1200, status, i;
	long long start;
	pid_t pid;

	for (word = strtok_r(line, " \t", &save); word && argc < 31;
	     word = strtok_r(NULL, " \t", &save)) {
		if (!argc && !strcmp(word, "failslab"))
			fail = 1;
		else if (!argc && !strncmp(word, "timeout=", 8))
			limit = atoi(word + 8) > 0 ? atoi(word + 8) : limit;
		else if (!argc && !strncmp(word, "env=", 4) && nenv < 8)
			envs[nenv++] = word + 4;
		else
			argv[argc++] = word;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	if (fail && !fault_injection) {
		printf("init: no fault injection in this kernel: %s runs without\n",
		       argv[0]);
		fail = 0;
	}

	printf("PC-RUN");
	for (i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	if (fail)
		printf("PC-FAILSLAB %s\n", argv[0]);
	fflush(stdout);
	__atomic_store_n(&deadline_passed, 0, __ATOMIC_RELAXED);
	alarm(limit);
	start = mono_ms();
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < nenv; i++)
			putenv(envs[i]);
		if (fail)
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[0], argv);
		printf("init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		printf("init: fork for %s: %s\n", argv[0], strerror(errno));
		return 1;
	}
	if (wait_child(pid, &status, argv[0], limit) < 0)
		return 1;
	/* stopped with SIGTRAP after the exec */
	if (fail && WIFSTOPPED(status) &&
	    mark_when_started(pid, &status, argv[0], limit) &&
	    wait_child(pid, &status, argv[0], limit) < 0)
		return 1;
	alarm(0);
	/*
	 * What the program left behind is init's: end it and reap it, so
	 * that nothing runs on into the next program or holds counters.
	 */
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
	printf("PC-EXIT %s %d\n", argv[0],
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	/* what make test's budget is made of (harness/budget.py) */
	printf("PC-TIME %s %lld\n", argv[0], mono_ms() - start);
	fflush(stdout);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

/*
 * After the programs, with every counter closed and every task that
 * inherited one gone: the slab allocator's count of the objects left in
 * perf_counter's own caches (kernel/perf_counter/objects.c), which does
 * not take the subsystem's word, must be 0 for counters and queues. A
 * task context lives as long as its task: one on a task that outlives
 * the programs (init, or a kernel thread, which pc_fuzz counts as
 * root) is left, so the contexts the slab holds must be those the
 * subsystem counts, and no more than the tasks alive (a context whose
 * task is gone and which nothing points to is kmemleak's). Only on a
 * kernel booted with
 * slab_nomerge: elsewhere the caches may share slabs with other caches
 * of their size, whose objects would count too. "objects" counts a free
 * object in a CPU's slab as used, so each cache is shrunk first (which
 * also empties KASAN's quarantine of its objects); a task context goes
 * back to its cache an RCU grace period after its last put, so a count
 * that is not 0 is read again, SLAB_TRIES times SLAB_WAIT_US apart (2 s;
 * the first read was 0 after stress_test alone and after the whole
 * sanitizer boot's programs and pc_fuzz, each beside kernel builds).
 * Prints the counts between PC-SLAB-BEGIN and PC-SLAB-END for
 * harness/report.py. Returns 1 if an object was left or a count could
 * not be read, else 0.
 */
#define SLAB		"/sys/kernel/slab/"
#define SLAB_TRIES	200
#define SLAB_WAIT_US	10000

/* Shrink the cache and read its objects: the count, or -1 (errno). */
static long slab_objects(const char *name)
{
	char path[96];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), SLAB "%s/shrink", name);
	if (put(path, "1") <= 0) {
		if (!errno)
			errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof(path), SLAB "%s/objects", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1) {
		n = -1;
		errno = EINVAL;
	}
	fclose(f);
	return n;
}

static int slab_nomerge(void)
{
	char cmdline[4096] = "", *word, *save = NULL;
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	for (word = strtok_r(cmdline, " \t\n", &save); word;
	     word = strtok_r(NULL, " \t\n", &save))
		found |= !strcmp(word, "slab_nomerge");
	return found;
}

/* The task contexts the subsystem counts alive, or -1 */
static long subsystem_contexts(void)
{
	FILE *f = fopen("/sys/kernel/debug/perf_counter/objects", "r");
	long counters, contexts = -1;

	if (f) {
		if (fscanf(f, "counters %ld contexts %ld", &counters,
			   &contexts) != 2)
			contexts = -1;
		fclose(f);
	}
	return contexts;
}

/* The tasks alive: every thread of every process in /proc. */
static long count_tasks(void)
{
	struct dirent *p, *t;
	char path[sizeof(p->d_name) + sizeof("/proc//task")];
	DIR *proc = opendir("/proc"), *task;
	long n = 0;

	while (proc && (p = readdir(proc))) {
		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		while (task && (t = readdir(task)))
			n += t->d_name[0] >= '0' && t->d_name[0] <= '9';
		if (task)
			closedir(task);
	}
	if (proc)
		closedir(proc);
	return n;
}

#define SLAB_CTX	1	/* cache[]'s task contexts */

static int slab_report(void)
{
	static const char *const cache[] = {
		"perf_counter", "perf_counter_ctx", "perf_counter_queue",
	};
	long left[ARRAY_SIZE(cache)], contexts = -1, tasks;
	int i, tries, busy, failed = 0;
	struct stat st;
	char path[96];

	if (!slab_nomerge())
		return 0;
	printf("PC-SLAB-BEGIN\n");
	for (i = 0; i < (int)ARRAY_SIZE(cache); i++) {
		/* a cache merged with others is a link to the shared one */
		snprintf(path, sizeof(path), SLAB "%s", cache[i]);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode)) {
			printf("PC-SLAB-ERROR %s: no cache of its own in " SLAB "\n",
			       cache[i]);
			failed = 1;
			continue;
		}
		/*
		 * Without SLUB_DEBUG "objects" counts only the CPUs' slabs,
		 * 0 after a shrink whatever is left: the check would pass
		 * on anything. total_objects is there only with it.
		 */
		snprintf(path, sizeof(path), SLAB "%s/total_objects", cache[i]);
		if (access(path, R_OK)) {
			printf("PC-SLAB-ERROR %s: no total_objects (a kernel without SLUB_DEBUG cannot count its objects)\n",
			       cache[i]);
			failed = 1;
		}
	}
	for (tries = 1; !failed && tries <= SLAB_TRIES; tries++) {
		busy = 0;
		contexts = subsystem_contexts();
		for (i = 0; i < (int)ARRAY_SIZE(cache); i++) {
			left[i] = slab_objects(cache[i]);
			if (left[i] < 0) {
				printf("PC-SLAB-ERROR %s: %s\n", cache[i],
				       strerror(errno));
				failed = 1;
			}
			busy |= left[i] != (i == SLAB_CTX ? contexts : 0);
		}
		if (failed || !busy)
			break;
		if (tries < SLAB_TRIES)
			usleep(SLAB_WAIT_US);
	}
	if (!failed) {
		tasks = count_tasks();
		printf("PC-SLAB-READS %d\n", tries > SLAB_TRIES ? SLAB_TRIES : tries);
		for (i = 0; i < (int)ARRAY_SIZE(cache); i++) {
			printf("PC-SLAB %s %ld\n", cache[i], left[i]);
			failed |= left[i] != (i == SLAB_CTX ? contexts : 0);
		}
		failed |= contexts < 0 || contexts > tasks;
		print_file("/sys/kernel/debug/perf_counter/objects",
			   "PC-SLAB-OBJECTS ");
		printf("PC-SLAB-TASKS %ld\n", tasks);
	}
	printf("PC-SLAB-END\n");
	return failed;
}

/*
 * The kernel log so far, between markers. It is dumped twice: before
 * the programs run, with the KUnit results, and then cleared, so that
 * an hour of fuzzing under fault injection cannot push the KUnit
 * results out of the ring buffer; and at the end, with what the
 * programs made the kernel say. What is dropped from the buffer in
 * between is only what the console did not print already: the console
 * shows every warning and error.
 */
static void dump_kernel_log(int clear)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (len <= 0)
		return;
	buf = malloc(len);
	if (!buf)
		return;
	len = klogctl(clear ? 4 /* SYSLOG_ACTION_READ_CLEAR */ :
			      3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	printf("PC-DMESG-BEGIN\n");
	if (len > 0)
		fwrite(buf, 1, len, stdout);
	printf("\nPC-DMESG-END\n");
	free(buf);
}

static void end_machine(int failed)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
#if defined(__x86_64__) || defined(__i386__)
	if (!ioperm(0xf4, 4, 1))
		outb(failed ? 1 : 0, 0xf4);	/* QEMU exits (v << 1) | 1 */
#endif
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(void)
{
	char line[512];
	int failed = 0;
	FILE *list;

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");
	mount_fs("tmpfs", "/tmp", "tmpfs");
	/* sysfs has the mount point only where the kernel has debugfs */
	if (!access("/sys/kernel/debug", F_OK))
		mount_fs("debugfs", "/sys/kernel/debug", "debugfs");
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* no SA_RESTART: the alarm interrupts waitpid() */
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_alarm }, NULL);

	printf("PC-BEGIN\n");
	setup_fault_injection();
	kmemleak_clear();
	if (!clock_ok())
		failed = 1;
	dump_kernel_log(1);

	list = fopen("/etc/pc-run", "r");
	if (!list) {
		printf("init: no /etc/pc-run\n");
		failed = 1;
	}
	while (list && fgets(line, sizeof(line), list)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && line[0] != '#')
			failed |= run(line);
	}
	if (list)
		fclose(list);

	failed |= slab_report();
	kmemleak_report();
	dump_kernel_log(0);
	printf("PC-DONE %s\n", failed ? "failed" : "ok");
	end_machine(failed);
	return 0;
}
