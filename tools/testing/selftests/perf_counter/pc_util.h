/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perf_counter selftests.
 */
#ifndef _PC_UTIL_H
#define _PC_UTIL_H

#include <alloca.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_counter.h>
#include <linux/perf_event.h>

/*
 * The exported uapi headers name the call on every architecture that
 * numbers it (asm/unistd_*.h, from the system call tables), so that a
 * seccomp filter can name it rather than 451, which mainline gives to
 * cachestat(). Every test program is built against the target's
 * exported headers: one without the name fails to build.
 */
#ifndef __NR_perf_counter_open
#error "the uapi headers do not name perf_counter_open (asm/unistd_*.h)"
#endif

static inline int sys_perf_counter_open(struct perf_counter_hw_event *hw,
					pid_t pid, int cpu, int group_fd,
					unsigned long flags)
{
	return syscall(__NR_perf_counter_open, hw, pid, cpu, group_fd, flags);
}

/* A software counter description; disabled if @disabled. */
static inline struct perf_counter_hw_event pc_sw(unsigned int id, int disabled)
{
	struct perf_counter_hw_event hw;

	memset(&hw, 0, sizeof(hw));
	hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, id);
	hw.disabled = disabled;
	return hw;
}

static inline int pc_open_sw(unsigned int id, pid_t pid, int cpu,
			     int group_fd)
{
	struct perf_counter_hw_event hw = pc_sw(id, 0);

	return sys_perf_counter_open(&hw, pid, cpu, group_fd, 0);
}

/* A software sampling counter of current's: @period, records @type. */
static inline int pc_open_sampler(unsigned int id, uint64_t period,
				  uint64_t type, int group_fd, int inherit)
{
	struct perf_counter_hw_event hw = pc_sw(id, 0);

	hw.irq_period = period;
	hw.record_type = type;
	hw.inherit = inherit;
	return sys_perf_counter_open(&hw, 0, -1, group_fd, 0);
}

/*
 * Open @hw on @pid disabled, give its queue @qsize bytes (before the
 * task runs: it may fault meanwhile), enable it, and let the child held
 * on the pipe @go run. Returns the fd or -errno.
 */
static inline int pc_open_queued_go(struct perf_counter_hw_event *hw,
				    pid_t pid, uint32_t qsize, int go)
{
	int fd;

	hw->disabled = 1;
	fd = sys_perf_counter_open(hw, pid, -1, -1, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &qsize) ||
	    ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0))
		return -errno;
	if (write(go, "g", 1) != 1)
		return -EIO;
	return fd;
}

/* The number the next open() or dup() gives, or -1. */
static inline int pc_next_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

#define PC_TRACEFS	"/sys/kernel/tracing"

/* The id tracefs gives SYSTEM:EVENT, or -1 (tracefs mounted if need be). */
static inline long pc_tp_id(const char *system, const char *event)
{
	char path[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), PC_TRACEFS "/events/%s/%s/id", system,
		 event);
	if (access(path, R_OK)) {
		mkdir(PC_TRACEFS, 0755);
		mount("tracefs", PC_TRACEFS, "tracefs", 0, NULL);
	}
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/*
 * The 64-bit value of a counting counter. A read that fails is never a
 * value a bound could pass: it ends the test (or the test's child)
 * with a message and SIGABRT, which the harness reports as a failure.
 */
static inline uint64_t pc_read(int fd)
{
	uint64_t v;
	ssize_t n = read(fd, &v, sizeof(v));

	if (n != sizeof(v)) {
		fprintf(stderr, "# %s(%d): read returned %zd (%s)\n", __func__, fd,
			n, n < 0 ? strerror(errno) : "short");
		abort();
	}
	return v;
}

static inline int pc_enable(int fd)
{
	return ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
}

static inline int pc_disable(int fd)
{
	return ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
}

/* 6.1's perf_event_open on the same event, for comparisons. */
static inline int pe_open(uint32_t type, uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	return syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

static inline int pe_open_sw(uint64_t config, pid_t pid, int cpu)
{
	return pe_open(PERF_TYPE_SOFTWARE, config, pid, cpu);
}

/*
 * Whether @ip is a kernel address: where the kernel's own addresses
 * start (x86_64's top half, PowerPC 64's 0xc000..., PAGE_OFFSET at 3 GiB
 * on our 32-bit kernels).
 */
static inline int pc_ip_is_kernel(uint64_t ip)
{
#if defined(__x86_64__)
	return ip >= 0xffff800000000000ULL;
#elif defined(__powerpc64__)
	return ip >= 0xc000000000000000ULL;
#else
	return ip >= 0xc0000000ULL;	/* i386 and ppc32: PAGE_OFFSET */
#endif
}

/* Burn CPU in user mode for about @loops iterations. */
static inline void pc_spin(unsigned long loops)
{
	unsigned long x = 0;

	while (loops--) {
		x += loops;
		__asm__ __volatile__("" : "+r" (x));	/* keep the loop */
	}
}

/* CLOCK_MONOTONIC in ns: the wall time tests bound clocks with. */
static inline uint64_t pc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Run the calling thread on @cpu alone (one of the first 32, all a test
 * guest has): sched_setaffinity()'s result, through the system call, so
 * that no program needs _GNU_SOURCE for it.
 */
static inline int pc_pin_to(int cpu)
{
	unsigned long mask = 1UL << cpu;

	return syscall(SYS_sched_setaffinity, 0, sizeof(mask), &mask);
}

/*
 * @rounds round trips of a byte between this task and a forked child
 * over two pipes: each one two context switches where the two share a
 * CPU. Return: the child's pid, reaped, or -1 if it could not start.
 */
static inline pid_t pc_ping_pong(int rounds)
{
	int to[2], from[2], i;
	char c = 0;
	pid_t pid;

	if (pipe(to))
		return -1;
	if (pipe(from)) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < rounds; i++)
			if (read(to[0], &c, 1) != 1 || write(from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; pid > 0 && i < rounds; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
	close(to[0]);
	close(to[1]);
	close(from[0]);
	close(from[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* CLOCK_THREAD_CPUTIME_ID in ns: the calling thread's CPU time. */
static inline uint64_t pc_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The step of local_clock() under TCG: a tick at the kernels' HZ=250. */
#define PC_CLOCK_STEP_NS	4000000ULL

/*
 * Burn CPU in user mode for @ns of CLOCK_MONOTONIC. Use it where a test
 * needs time to pass: under QEMU TCG the kernel's local_clock() moves in
 * steps of up to a tick (4 ms), so a shorter spin may show no time.
 */
static inline void pc_spin_ns(uint64_t ns)
{
	struct timespec ts;
	uint64_t end;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec * 1000000000ULL + ts.tv_nsec + ns;
	do {
		pc_spin(10000);
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec * 1000000000ULL + ts.tv_nsec < end);
}

/* Touch @pages fresh anonymous pages: one minor fault each. */
static inline void pc_touch_pages(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, pages * psz);
}

/*
 * Bounds on page faults around a known number of touched pages. A task
 * that touches N pages faults N times plus what its own calls fault
 * (PC_OWN_FAULTS: a stack or data page written first); a child forked
 * to touch them adds its copy-on-write and exit faults (PC_CHILD_FAULTS,
 * for each child). Measured in one make test (2026-11-29) on x86_64 and
 * the sanitizer kernel, i386, the 7450 and POWER8: under 10 of its own;
 * a forked child 7 to 11.2 (inherit_test's, i386 the most), a grandchild
 * of race_test's 4.3 to 8.2 on average. The bounds are those and a
 * margin of up to as much again: a count that drifts past them is a
 * fault counted twice or a child's counted in the wrong task.
 */
#define PC_OWN_FAULTS		16
#define PC_CHILD_FAULTS		20

/*
 * Write the next @bytes of stack below the caller. After fork() the
 * stack pages are copy-on-write, and where a deeper call first writes a
 * new page moves with stack randomization: a test that counts its own
 * page faults exactly calls this first, so no call it makes faults.
 * (A function that calls alloca() is not inlined; if it were, the
 * bytes would be below the caller's frame all the same.)
 */
static inline void pc_prefault_stack(size_t bytes)
{
	char *p = alloca(bytes);

	memset(p, 0, bytes);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * A child that waits: forked now, it runs @work(@arg) only when told to,
 * so counters can be set up on it (or inherited into it) first. Its
 * start is over when pc_child_start() returns: it has said it is ready,
 * so what it does after fork() (copy-on-write faults) is not counted by
 * counters opened on it then, however late the host lets it run.
 */
struct pc_child {
	pid_t	pid;
	int	go;		/* write end: one byte starts the work */
};

static inline int pc_child_start(struct pc_child *child,
				 void (*work)(int), int arg)
{
	int p[2], ready[2];
	char c = 0;

	if (pipe(p))
		return -1;
	if (pipe(ready)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	child->pid = fork();
	if (child->pid == 0) {
		close(p[1]);
		close(ready[0]);
		if (write(ready[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
			_exit(1);
		work(arg);
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	child->go = p[1];
	if (child->pid > 0 && read(ready[0], &c, 1) != 1)
		child->pid = -1;
	close(ready[0]);
	return child->pid < 0 ? -1 : 0;
}

/* Start the work and wait for the child: its exit status, or -1. */
static inline int pc_child_finish(struct pc_child *child)
{
	int status;

	if (write(child->go, "x", 1) != 1)
		return -1;
	close(child->go);
	if (waitpid(child->pid, &status, 0) != child->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Never start the work: end the child. */
static inline void pc_child_kill(struct pc_child *child)
{
	close(child->go);
	waitpid(child->pid, NULL, 0);
}

/* Slab memory in use, kB, from /proc/meminfo. */
static inline long pc_slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Slab use once it stops moving: drop what the kernel can drop and wait
 * for RCU to free what it holds (slower on some guests than others).
 */
static inline long pc_slab_settle(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY), i;
	long prev, cur;

	if (fd >= 0) {
		if (write(fd, "2", 1) != 1)
			(void)0;
		close(fd);
	}
	prev = pc_slab_kb();
	for (i = 0; i < 30; i++) {
		usleep(100000);
		cur = pc_slab_kb();
		if (cur - prev < 4 && prev - cur < 4)
			break;
		prev = cur;
	}
	return cur;
}

/*
 * The subsystem's objects alive, from
 * /sys/kernel/debug/perf_counter/objects: every counter (inherited
 * copies too), task context, record queue, scratch array, tracepoint
 * probe and counter page, counted exactly: every allocation the subsystem makes. A leak check compares
 * them before and after: nothing may be left, whatever its size.
 * Returns 0, or -1 if the file cannot be read.
 */
#define PC_DEBUGFS "/sys/kernel/debug/perf_counter/"

struct pc_objects {
	long counters, contexts, queues, arrays, tracepoints, pages;
};

static inline int pc_objects_read(struct pc_objects *o)
{
	FILE *f = fopen(PC_DEBUGFS "objects", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f,
		   "counters %ld contexts %ld queues %ld arrays %ld tracepoints %ld pages %ld",
		   &o->counters, &o->contexts, &o->queues, &o->arrays,
		   &o->tracepoints, &o->pages);
	fclose(f);
	return n == 6 ? 0 : -1;
}

/* @before and @after hold the same objects, or the test fails. */
#define EXPECT_SAME_OBJECTS(before, after) do {				\
	TH_LOG("objects: %ld/%ld/%ld/%ld/%ld/%ld counters/contexts/"	\
	       "queues/arrays/tracepoints/pages before, "		\
	       "%ld/%ld/%ld/%ld/%ld/%ld after",				\
	       (before).counters, (before).contexts, (before).queues,	\
	       (before).arrays, (before).tracepoints, (before).pages,	\
	       (after).counters, (after).contexts, (after).queues,	\
	       (after).arrays, (after).tracepoints, (after).pages);	\
	EXPECT_EQ((before).counters, (after).counters);			\
	EXPECT_EQ((before).contexts, (after).contexts);			\
	EXPECT_EQ((before).queues, (after).queues);			\
	EXPECT_EQ((before).arrays, (after).arrays);			\
	EXPECT_EQ((before).tracepoints, (after).tracepoints);		\
	EXPECT_EQ((before).pages, (after).pages);			\
} while (0)

/*
 * The slab allocator's own count of the subsystem's counters, task
 * contexts and record queues, each in a cache of its own
 * (kernel/perf_counter/objects.c): a leak check that does not take the
 * subsystem's word for it. /sys/kernel/slab/NAME/objects counts the
 * objects of the slabs on the cache's lists less the free ones on its
 * partial lists, so a free object in a CPU's slab counts as used; a
 * write of 1 to NAME/shrink first gives every CPU's slabs back to the
 * lists (and, under KASAN, empties its quarantine of the cache's
 * objects), after which "objects" is exactly the objects allocated.
 * (objects_partial misses full slabs, total_objects counts capacity.)
 * The caches can be counted apart only where they are not merged with
 * other caches of their size: then NAME is a directory, not a link to
 * a shared one (a kernel booted with slab_nomerge, and SLUB_DEBUG for
 * the files).
 */
struct pc_slab {
	long counters, contexts, queues;
};

#define PC_SLAB_DIR	"/sys/kernel/slab/"
static const char *const pc_slab_caches[] = {
	"perf_counter", "perf_counter_ctx", "perf_counter_queue",
};

static inline int pc_slab_countable(void)
{
	struct stat st;
	char path[96];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), PC_SLAB_DIR "%s", pc_slab_caches[i]);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			return 0;
		/* only SLUB_DEBUG's "objects" counts every slab */
		snprintf(path, sizeof(path), PC_SLAB_DIR "%s/total_objects",
			 pc_slab_caches[i]);
		if (access(path, R_OK))
			return 0;
	}
	return 1;
}

/* Shrink @name and read its objects: the count, or -1. */
static inline long pc_slab_cache_objects(const char *name)
{
	char path[96];
	long n = -1;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), PC_SLAB_DIR "%s/shrink", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, "1", 1) != 1)
		n = -2;
	close(fd);
	if (n == -2)
		return -1;
	snprintf(path, sizeof(path), PC_SLAB_DIR "%s/objects", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/*
 * A task context goes back to its cache an RCU grace period after the
 * subsystem stops counting it, so the two counts agree only once the
 * grace periods of the last puts have passed: PC_SLAB_TRIES reads
 * PC_SLAB_WAIT_US apart, 2 s. Measured on the sanitizer boot beside
 * two kernel builds, every check of stress_test agreed at the first
 * read; 2 s leaves room for grace periods on a far busier host, and is
 * spent in full only when the counts never agree: on a failure.
 */
#define PC_SLAB_TRIES	200
#define PC_SLAB_WAIT_US	10000

/*
 * With nothing opened or closed meanwhile: shrink and count the caches
 * into @slab, and the subsystem's objects into @o, until the two agree
 * or PC_SLAB_TRIES passed. Returns the reads made (the last one's
 * counts are in @slab and @o), or -1 if a file could not be read.
 */
static inline int pc_slab_agree(struct pc_slab *slab, struct pc_objects *o)
{
	int i;

	for (i = 1; i <= PC_SLAB_TRIES; i++) {
		if (pc_objects_read(o))
			return -1;
		slab->counters = pc_slab_cache_objects(pc_slab_caches[0]);
		slab->contexts = pc_slab_cache_objects(pc_slab_caches[1]);
		slab->queues = pc_slab_cache_objects(pc_slab_caches[2]);
		if (slab->counters < 0 || slab->contexts < 0 || slab->queues < 0)
			return -1;
		if (slab->counters == o->counters &&
		    slab->contexts == o->contexts && slab->queues == o->queues)
			break;
		if (i < PC_SLAB_TRIES)
			usleep(PC_SLAB_WAIT_US);
	}
	return i > PC_SLAB_TRIES ? PC_SLAB_TRIES : i;
}

/*
 * Where the caches can be counted apart (pc_slab_countable()), the slab
 * allocator holds exactly the counters, contexts and queues the
 * subsystem counts: a free that was counted but never made shows here.
 * Elsewhere nothing is checked (the case
 * stress_test: global.slab_caches_hold_what_the_subsystem_counts skips
 * there, with the reason).
 */
#define EXPECT_SLAB_AGREES() do {					\
	struct pc_objects _o;						\
	struct pc_slab _s;						\
	int _t;								\
									\
	if (!pc_slab_countable())					\
		break;							\
	_t = pc_slab_agree(&_s, &_o);					\
	ASSERT_GT(_t, 0);						\
	TH_LOG("slab caches hold %ld/%ld/%ld counters/contexts/queues, "\
	       "the subsystem counts %ld/%ld/%ld (read %d times)",	\
	       _s.counters, _s.contexts, _s.queues,			\
	       _o.counters, _o.contexts, _o.queues, _t);		\
	EXPECT_EQ(_o.counters, _s.counters);				\
	EXPECT_EQ(_o.contexts, _s.contexts);				\
	EXPECT_EQ(_o.queues, _s.queues);				\
} while (0)

/*
 * Does the kernel have sanitizer @name (KASAN, kmemleak, ...)? The
 * harness's initramfs lists them in /etc/pc-sanitizer. Under KASAN
 * freed objects wait in a quarantine, so slab use grows with no leak:
 * slab-growth checks print instead (kmemleak looks for real leaks).
 */
static inline int pc_sanitizer(const char *name)
{
	FILE *f = fopen("/etc/pc-sanitizer", "r");
	char line[64];
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		found |= !strcmp(line, name);
	}
	if (f)
		fclose(f);
	return found;
}

/* /sys/module/perf_counter/parameters/pmu: the hardware counter driver. */
struct pc_pmu_info {
	char	name[32];	/* "none" without a driver */
	int	counters;
	int	width;
	char	state[16];	/* ok, unchecked, broken; "" for none */
};

static inline void pc_read_pmu(struct pc_pmu_info *pmu)
{
	FILE *f = fopen("/sys/module/perf_counter/parameters/pmu", "r");
	char line[128] = "";

	memset(pmu, 0, sizeof(*pmu));
	strcpy(pmu->name, "none");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) &&
	    sscanf(line, "%31[^,],%d,%d,%15s", pmu->name, &pmu->counters,
		   &pmu->width, pmu->state) != 4)
		strcpy(pmu->name, "none");
	fclose(f);
}

/* Counters can be placed: the driver's registers work or were not checked. */
static inline int pc_pmu_usable(const struct pc_pmu_info *pmu)
{
	return !strcmp(pmu->state, "ok") || !strcmp(pmu->state, "unchecked");
}

/*
 * A program the tests run and read: its exit status, what the kernel
 * accounted to it (an independent reference for its own counts), and
 * the first 4 KiB of its stdout and stderr (the rest is read and
 * dropped, so it never blocks on a full pipe).
 */
struct pc_prog_run {
	int		status;		/* from wait4() */
	struct rusage	ru;		/* from wait4(): its CPU time, faults */
	char		out[4096];
};

/* The unprivileged user the tests become: nobody, uid and gid 65534. */
#define PC_NOBODY	65534

/*
 * Become nobody: real, effective and saved ids, no supplementary
 * groups. With @dumpable, dumpable again afterwards (the uid change
 * cleared it): a same-uid monitor without CAP_SYS_PTRACE may count only
 * a dumpable task, and a dumpable task's /proc files are its own.
 * 0, or -1 (errno).
 */
static inline int pc_become_nobody(int dumpable)
{
	/*
	 * As root, setgid() and setuid() set the saved ids as well; a
	 * task that is nobody already (a monitor that became nobody,
	 * forking its child) may set them to its own ids, but not drop
	 * groups it no longer has.
	 */
	if ((!geteuid() && setgroups(0, NULL)) || setgid(PC_NOBODY) ||
	    setuid(PC_NOBODY))
		return -1;
	return dumpable ? prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) : 0;
}

/* The user and system time of a rusage, in ns. */
static inline uint64_t pc_rusage_cpu_ns(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

/* Run @path, as nobody if @as_nobody: 0, or -1 if it could not. */
static inline int pc_run_prog(const char *path, struct pc_prog_run *run,
			      int as_nobody)
{
	char discard[256];
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2];

	memset(run, 0, sizeof(*run));
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(125);
		if (as_nobody && pc_become_nobody(0)) {
			dprintf(1, "becoming nobody: %s\n", strerror(errno));
			_exit(126);
		}
		execl(path, path, (char *)NULL);
		dprintf(1, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		if (len < sizeof(run->out) - 1)
			n = read(p[0], run->out + len, sizeof(run->out) - 1 - len);
		else
			n = read(p[0], discard, sizeof(discard));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < sizeof(run->out) - 1)
			len += n;
	}
	close(p[0]);
	return wait4(pid, &run->status, 0, &run->ru) == pid ? 0 : -1;
}

#define PC_PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* kernel.perf_event_paranoid into @level: 0, or -1 where there is none. */
static inline int pc_paranoid_get(long *level)
{
	FILE *f = fopen(PC_PARANOID, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", level) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static inline int pc_paranoid_set(long level)
{
	FILE *f = fopen(PC_PARANOID, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", level) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/*
 * Run @path as nobody at kernel.perf_event_paranoid 2, the base
 * kernel's default, and put the level back: 0, or -1 if it could not.
 * Without perf_events there is no knob, and the level is 2.
 */
static inline int pc_run_prog_unprivileged(const char *path,
					   struct pc_prog_run *run)
{
	int have_knob, ret;
	long old = 2;

	have_knob = pc_paranoid_get(&old) == 0;
	if (have_knob && pc_paranoid_set(2))
		return -1;
	ret = pc_run_prog(path, run, 1);
	if (have_knob && pc_paranoid_set(old))
		return -1;
	return ret;
}

#endif
