// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter selftest: side-band records (PERF_SIDEBAND_*), the
 * kernel's account of what tasks did that a tool needs to name samples:
 * executable mappings, name changes, forks and exits, each with the
 * task's ids and the time samples carry, in the queue of the counter
 * that asked (inherited copies: their top-level counter's).
 *
 * A child, once let go, execs this program as "--child": it renames
 * itself, maps a page of anonymous memory and a page of its own file
 * executable, forks a grandchild that spins, spins itself and exits.
 * Its records, read to the end, must tell all of it, in order with the
 * samples. A flood of forks into a small queue must count every record
 * it could not take, apart from samples; refusals are checked too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "pc_util.h"

#define TASK_CLOCK	PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, \
					    PERF_COUNT_TASK_CLOCK)
#define NEW_NAME	"sb-renamed"
#define SPIN_NS		(40 * 1000 * 1000ULL)
#define FLOOD		200

/* One record as read, its body after the header. */
struct rec {
	uint32_t	type;
	uint32_t	size;
	const char	*body;
};

struct records {
	char	*buf;
	size_t	len;
	size_t	at;
};

static int next_rec(struct records *r, struct rec *out)
{
	struct perf_counter_record_header h;

	if (r->len - r->at < sizeof(h))
		return 0;
	memcpy(&h, r->buf + r->at, sizeof(h));
	if (h.size < sizeof(h) || h.size > r->len - r->at)
		return 0;
	out->type = h.type;
	out->size = h.size;
	out->body = r->buf + r->at + sizeof(h);
	r->at += h.size;
	return 1;
}

/* The "--child" program; its grandchild spins and exits. */
static int child_main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY);
	void *anon, *file;
	pid_t pid;
	int status;

	if (fd < 0 || prctl(PR_SET_NAME, NEW_NAME, 0, 0, 0))
		return 10;
	anon = mmap(NULL, page, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	file = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, page);
	if (anon == MAP_FAILED || file == MAP_FAILED)
		return 11;
	pid = fork();
	if (pid == 0) {
		pc_spin_ns(SPIN_NS);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return 12;
	pc_spin_ns(SPIN_NS);
	return 0;
}

/* The "--flood" program: FLOOD children that exit at once. */
static int flood_main(void)
{
	int i, status;
	pid_t pid;

	for (i = 0; i < FLOOD; i++) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
			return 20;
	}
	return 0;
}

/* A child held until *@go is written, then exec'ing us as @mode. */
static pid_t start(const char *mode, int *go)
{
	char path[256];
	ssize_t len;
	int p[2];
	pid_t pid;
	char c;

	/* by its own path: exec names the task after it */
	len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (len <= 0 || pipe(p))
		return -1;
	path[len] = 0;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(4);
		execl(path, "sideband_test", mode, (char *)NULL);
		_exit(5);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/*
 * Open @d on @pid with a queue of @qsize bytes, let it go, and read
 * records to the end (after its exit and its children's: end of file).
 * Returns the fd, still open, or -errno.
 */
static int record(struct perf_counter_hw_event_ext *d, pid_t pid, int go,
		  uint32_t qsize, int read_after, struct records *r)
{
	size_t cap = 1 << 20;
	ssize_t n;
	int fd, status;

	fd = pc_open_queued_go(&d->hw, pid, qsize, go);
	if (fd < 0)
		return fd;
	close(go);
	if (read_after && (waitpid(pid, &status, 0) != pid || status))
		return -ECHILD;
	r->buf = malloc(cap);
	r->len = r->at = 0;
	for (;;) {
		if (cap - r->len < 65536) {
			cap *= 2;
			r->buf = realloc(r->buf, cap);
		}
		if (!r->buf)
			return -ENOMEM;
		n = read(fd, r->buf + r->len, cap - r->len);
		if (n <= 0)
			break;
		r->len += n;
	}
	if (!read_after && (waitpid(pid, &status, 0) != pid || status))
		return -ECHILD;
	return fd;
}

static struct perf_counter_hw_event_ext sideband_event(uint64_t sideband)
{
	struct perf_counter_hw_event_ext d;

	memset(&d, 0, sizeof(d));
	d.hw.size = sizeof(d);
	d.hw.event_config = TASK_CLOCK;
	d.hw.irq_period = 1000000;
	d.hw.record_type = PERF_RECORD_TID | PERF_RECORD_TIME;
	d.hw.exclude_kernel = 1;
	d.hw.inherit = 1;
	d.sideband = sideband;
	return d;
}

static uint32_t ids_tid(const char *body)
{
	uint32_t v;

	memcpy(&v, body + 4, 4);
	return v;
}

static uint64_t rec_time(const char *body)
{
	uint64_t v;

	memcpy(&v, body + 8, 8);
	return v;
}

/*
 * What a counter may ask: bits it knows, for a queue it has, and records
 * of mappings only where it counts user mode; a kernel that knows the
 * field reads it only within the size.
 */
TEST(sideband_bits_are_checked)
{
	struct perf_counter_hw_event_ext d = sideband_event(PERF_SIDEBAND_TASK);
	int fd;

	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	close(fd);

	d.sideband = 1ULL << 5;
	EXPECT_EQ(-1, sys_perf_counter_open(&d.hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	/* a counting counter has no queue */
	d = sideband_event(PERF_SIDEBAND_COMM);
	d.hw.irq_period = 0;
	d.hw.record_type = 0;
	EXPECT_EQ(-1, sys_perf_counter_open(&d.hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	/* a switch log has one */
	d.hw.context_switch = 1;
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	EXPECT_LE(0, fd);
	close(fd);

	/* mappings name user samples: none for a counter of no user mode */
	d = sideband_event(PERF_SIDEBAND_MMAP);
	d.hw.exclude_user = 1;
	d.hw.exclude_kernel = 0;
	EXPECT_EQ(-1, sys_perf_counter_open(&d.hw, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	/* the field is past a VER1 description: not read */
	d = sideband_event(1ULL << 5);
	d.hw.size = PERF_COUNTER_HW_EVENT_SIZE_VER1;
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	EXPECT_LE(0, fd);
	close(fd);
}

/*
 * A record_type of 2009's (PERF_RECORD_IRQ alone) with side-band
 * records reads in the extended format: a child's FORK record comes
 * with its header.
 */
TEST(sideband_records_come_with_headers_whatever_the_record_type)
{
	struct perf_counter_hw_event_ext d = sideband_event(PERF_SIDEBAND_TASK);
	struct {
		struct perf_counter_record_header	h;
		struct perf_counter_task		t;
	} rec;
	int fd, status;
	pid_t pid;

	d.hw.record_type = PERF_RECORD_IRQ;
	d.hw.irq_period = 1000ULL * 1000 * 1000 * 100;	/* no sample */
	d.hw.inherit = 0;
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	pid = fork();
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	ASSERT_EQ(sizeof(rec), read(fd, &rec, sizeof(rec)));
	EXPECT_EQ(PERF_COUNTER_REC_FORK, rec.h.type);
	EXPECT_EQ(sizeof(rec), rec.h.size);
	EXPECT_EQ((uint32_t)pid, rec.t.tid);
	EXPECT_EQ((uint32_t)getpid(), rec.t.ppid);
	close(fd);
}

/*
 * The child's life told whole: its exec's name and its rename, the
 * program's mapping (the file's device and inode), an anonymous and a
 * file page mapped executable, the vDSO, its grandchild's fork and
 * exit around every sample of it, and the child's own exit last.
 */
TEST(fork_exec_mmap_comm_exit_are_recorded_around_the_samples)
{
	struct perf_counter_hw_event_ext d =
		sideband_event(PERF_SIDEBAND_MMAP | PERF_SIDEBAND_COMM |
			       PERF_SIDEBAND_TASK);
	uint64_t gc_fork = 0, gc_exit = 0, gc_first = 0, gc_last = 0;
	uint64_t child_exit = 0, last_sample = 0, page = sysconf(_SC_PAGESIZE);
	int exec_comm = 0, renamed = 0, prog = 0, anon = 0, file = 0;
	int vdso = 0, gc_samples = 0, child_samples = 0, lost = 0;
	int lost_samples = 0;
	uint32_t gc = 0, last_type = 0, last_tid = 0;
	struct records r;
	struct stat st;
	struct rec x;
	pid_t pid;
	int go, fd;

	/* root samples the kernel too: an EXIT must follow those */
	d.hw.exclude_kernel = !!geteuid();
	ASSERT_EQ(0, stat("/proc/self/exe", &st));
	pid = start("--child", &go);
	ASSERT_LT(0, pid);
	fd = record(&d, pid, go, 1 << 20, 0, &r);
	ASSERT_LE(0, fd) TH_LOG("record: %s", strerror(-fd));

	while (next_rec(&r, &x)) {
		const struct perf_counter_mmap *m = (const void *)x.body;
		const struct perf_counter_comm *c = (const void *)x.body;
		const struct perf_counter_task *t = (const void *)x.body;

		switch (x.type) {
		case PERF_COUNTER_REC_SAMPLE:
			if (ids_tid(x.body) == gc && gc) {
				gc_samples++;
				if (!gc_first)
					gc_first = rec_time(x.body);
				gc_last = rec_time(x.body);
			} else if (ids_tid(x.body) == (uint32_t)pid) {
				child_samples++;
			}
			last_sample = rec_time(x.body);
			break;
		case PERF_COUNTER_REC_COMM:
			EXPECT_EQ((uint32_t)pid, c->tid);
			if (c->flags & PERF_COUNTER_COMM_EXEC)
				exec_comm += !strcmp(c->comm, "sideband_test");
			else
				renamed += !strcmp(c->comm, NEW_NAME);
			break;
		case PERF_COUNTER_REC_MMAP: {
			size_t room = x.size - sizeof(struct
					perf_counter_record_header) -
				      sizeof(*m);
			size_t len = strnlen(m->path, room), i;

			EXPECT_EQ((uint32_t)pid, m->tid);
			EXPECT_EQ(PROT_READ | PROT_EXEC,
				  m->prot & (PROT_READ | PROT_EXEC));
			EXPECT_TRUE(m->addr && !(m->addr % page));
			/* NUL-terminated, NULs to the end, no word more */
			EXPECT_LT(len, room);
			EXPECT_LE(room - len, 8);
			for (i = len; i < room; i++)
				EXPECT_EQ(0, m->path[i]);
			if (m->flags & PERF_COUNTER_MMAP_ANON) {
				anon += !strcmp(m->path, "//anon") &&
					m->len == page;
				vdso += !strcmp(m->path, "[vdso]");
			} else if (m->ino == st.st_ino &&
				   strstr(m->path, "sideband_test")) {
				EXPECT_EQ((uint64_t)st.st_dev, m->dev);
				/* ours: one page at a page; else the loader's */
				if (m->pgoff == page && m->len == page)
					file++;
				else
					prog++;
			}
			break;
		}
		case PERF_COUNTER_REC_FORK:
			EXPECT_EQ((uint32_t)pid, t->ppid);
			gc = t->tid;
			gc_fork = t->time;
			EXPECT_EQ(0, gc_samples);	/* before its samples */
			break;
		case PERF_COUNTER_REC_EXIT:
			if (t->tid == gc && gc) {
				gc_exit = t->time;
				EXPECT_EQ((uint32_t)pid, t->ppid);
			} else if (t->tid == (uint32_t)pid) {
				child_exit = t->time;
				EXPECT_EQ((uint32_t)getpid(), t->ppid);
			}
			break;
		case PERF_COUNTER_REC_LOST:
			/* a timer late by PC_SAMPLE_BURST periods on a slow host */
			lost_samples++;
			break;
		case PERF_COUNTER_REC_LOST_SIDEBAND:
			lost++;
			break;
		default:
			EXPECT_EQ(0, x.type) TH_LOG("record type %u", x.type);
		}
		last_type = x.type;
		last_tid = ids_tid(x.body);
	}
	EXPECT_EQ(r.len, r.at);
	EXPECT_EQ(0, lost);
	/* the child's exit is the last thing its counter tells */
	EXPECT_EQ(PERF_COUNTER_REC_EXIT, last_type);
	EXPECT_EQ((uint32_t)pid, last_tid);
	EXPECT_EQ(1, exec_comm);
	EXPECT_EQ(1, renamed);
	EXPECT_LE(1, prog);
	EXPECT_EQ(1, anon);
	EXPECT_EQ(1, file);
	EXPECT_LE(1, vdso);
	ASSERT_NE(0, gc);
	EXPECT_LE(10, gc_samples);
	EXPECT_LE(10, child_samples);
	EXPECT_LE(gc_fork, gc_first);
	EXPECT_LE(gc_last, gc_exit);
	EXPECT_NE(0, gc_exit);
	EXPECT_NE(0, child_exit);
	EXPECT_LE(last_sample, child_exit);
	TH_LOG("%d and %d samples (%d LOST records); grandchild %u forked %llu, exited %llu ns later",
	       child_samples, gc_samples, lost_samples, gc,
	       (unsigned long long)gc_fork,
	       (unsigned long long)(gc_exit - gc_fork));
	free(r.buf);
	close(fd);
}

/*
 * FLOOD forks and exits into a queue of 4 KiB not read until the end:
 * every FORK and EXIT record is either read or counted in a
 * LOST_SIDEBAND record, exactly, and PERF_COUNTER_IOC_LOST counts them.
 */
TEST(sideband_drops_are_counted_apart_exactly)
{
	struct perf_counter_hw_event_ext d = sideband_event(PERF_SIDEBAND_TASK);
	uint64_t lost_sb = 0, lost = 0, ioc = 0;
	int forks = 0, exits = 0;
	struct records r;
	struct rec x;
	pid_t pid;
	int go, fd;

	d.hw.irq_period = 1000ULL * 1000 * 1000 * 100;	/* no sample */
	pid = start("--flood", &go);
	ASSERT_LT(0, pid);
	fd = record(&d, pid, go, 4096, 1, &r);
	ASSERT_LE(0, fd) TH_LOG("record: %s", strerror(-fd));
	while (next_rec(&r, &x)) {
		uint64_t n;

		memcpy(&n, x.body, sizeof(n));
		if (x.type == PERF_COUNTER_REC_FORK)
			forks++;
		else if (x.type == PERF_COUNTER_REC_EXIT)
			exits++;
		else if (x.type == PERF_COUNTER_REC_LOST_SIDEBAND)
			lost_sb += n;
		else if (x.type == PERF_COUNTER_REC_LOST)
			lost += n;
		else
			EXPECT_EQ(0, x.type) TH_LOG("record type %u", x.type);
	}
	EXPECT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_LOST, &ioc));
	EXPECT_LT(0, lost_sb);
	EXPECT_EQ(0, lost);
	/* FLOOD forks, their exits and the flooder's own */
	EXPECT_EQ(2 * FLOOD + 1, forks + exits + lost_sb)
		TH_LOG("%d forks, %d exits, %llu lost", forks, exits,
		       (unsigned long long)lost_sb);
	EXPECT_EQ(lost_sb, ioc);
	free(r.buf);
	close(fd);
}

/*
 * As nobody, open an inherited counter on ourselves, let a child exec
 * @path as "--child" and read what the counter was told. Returns a bit
 * mask: 1 the program's mapping seen, 2 the rename, 4 the grandchild's
 * fork; or 64 and up if something failed.
 */
static int told_of_exec(const char *path, const struct stat *st)
{
	struct perf_counter_hw_event_ext d =
		sideband_event(PERF_SIDEBAND_MMAP | PERF_SIDEBAND_COMM |
			       PERF_SIDEBAND_TASK);
	struct records r = { .len = 0 };
	int fd, status, told = 0;
	struct rec x;
	pid_t pid;
	ssize_t n;

	if (pc_become_nobody(1))
		return 64;
	fd = sys_perf_counter_open(&d.hw, 0, -1, -1, 0);
	if (fd < 0)
		return 65;
	pid = fork();
	if (pid == 0) {
		execl(path, "sb_exec", "--child", (char *)NULL);
		_exit(5);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 66;
	r.buf = malloc(1 << 20);
	if (!r.buf || fcntl(fd, F_SETFL, O_NONBLOCK))
		return 67;
	while ((1 << 20) - r.len >= 65536 &&
	       (n = read(fd, r.buf + r.len, (1 << 20) - r.len)) > 0)
		r.len += n;
	while (next_rec(&r, &x)) {
		const struct perf_counter_mmap *m = (const void *)x.body;
		const struct perf_counter_comm *c = (const void *)x.body;
		const struct perf_counter_task *t = (const void *)x.body;

		if (x.type == PERF_COUNTER_REC_MMAP && m->ino == st->st_ino)
			told |= 1;
		if (x.type == PERF_COUNTER_REC_COMM &&
		    !strcmp(c->comm, NEW_NAME))
			told |= 2;
		if (x.type == PERF_COUNTER_REC_FORK &&
		    t->ppid == (uint32_t)pid)
			told |= 4;
	}
	return told;
}

/*
 * An exec the opener may not trace (a setuid program) ends the task's
 * counters, as perf_events' do: nobody's inherited counter hears of a
 * program it runs, mappings, name and children (the control), and of
 * nothing the same program does once it is setuid root.
 */
TEST(setuid_exec_tells_the_untrusted_opener_nothing)
{
	const char *path = "/tmp/sb_suid";
	int mode, status, src, dst;
	char buf[65536];
	struct stat st;
	ssize_t n;
	pid_t pid;

	if (geteuid())
		SKIP(return, "making a setuid program is root's");
	src = open("/proc/self/exe", O_RDONLY);
	unlink(path);
	dst = open(path, O_WRONLY | O_CREAT | O_EXCL, 0700);
	ASSERT_LE(0, src);
	ASSERT_LE(0, dst);
	while ((n = read(src, buf, sizeof(buf))) > 0)
		ASSERT_EQ(n, write(dst, buf, n));
	close(src);
	close(dst);
	ASSERT_EQ(0, chown(path, 0, 0));
	ASSERT_EQ(0, stat(path, &st));

	for (mode = 0755; ; mode = 04755) {
		ASSERT_EQ(0, chmod(path, mode));
		pid = fork();
		if (pid == 0)
			_exit(told_of_exec(path, &st));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		if (mode == 0755) {
			EXPECT_EQ(7, WEXITSTATUS(status))
				TH_LOG("not setuid: told %#x", WEXITSTATUS(status));
			continue;
		}
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("setuid: told %#x", WEXITSTATUS(status));
		break;
	}
	unlink(path);
}

/*
 * A CPU-wide counter (root) hears of every task on its CPU: a child
 * pinned there, its fork and its exit.
 */
TEST(cpu_wide_counter_records_the_tasks_of_its_cpu)
{
	struct perf_counter_hw_event_ext d = sideband_event(PERF_SIDEBAND_TASK);
	int forked = 0, exited = 0, fd, status;
	struct records r = { };
	size_t cap = 1 << 20;
	struct rec x;
	pid_t pid;
	ssize_t n;

	if (geteuid())
		SKIP(return, "a CPU-wide counter is root's");
	d.hw.exclude_kernel = 0;
	d.hw.inherit = 0;
	d.hw.irq_period = 1000ULL * 1000 * 1000 * 100;
	fd = sys_perf_counter_open(&d.hw, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_pin_to(0));
	pid = fork();
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	r.buf = malloc(cap);
	ASSERT_NE(NULL, r.buf);
	/* the records are in by now: read until there are no more */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	while (cap - r.len >= 4096 &&
	       (n = read(fd, r.buf + r.len, cap - r.len)) > 0)
		r.len += n;
	while (next_rec(&r, &x)) {
		const struct perf_counter_task *t = (const void *)x.body;

		if (t->tid != (uint32_t)pid)
			continue;
		forked += x.type == PERF_COUNTER_REC_FORK &&
			  t->ppid == (uint32_t)getpid();
		exited += x.type == PERF_COUNTER_REC_EXIT;
	}
	EXPECT_EQ(1, forked);
	EXPECT_EQ(1, exited);
	free(r.buf);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_main();
	if (argc > 1 && !strcmp(argv[1], "--flood"))
		return flood_main();
	return test_harness_run(argc, argv);
}
