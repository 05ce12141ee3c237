// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter record: sample a command and its children, running
 * processes (-p) or whole CPUs (-a, -C), with one or more events, and
 * write to a file (record.h) for report: the events, the command, the
 * tasks as they were when recording began, then the samples and the
 * kernel's side-band records (exec, mmap, comm, fork, exit) in time
 * order.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"
#include "record.h"

#define QUEUE_BYTES	(256 * 1024)
/*
 * A mapped ring's data bytes (-m): by default those of a queue read(),
 * at most the kernel's 1 MiB. It wakes the tool once a quarter of it
 * waits (PERF_COUNTER_IOC_WAKEUP).
 */
#define RING_BYTES	QUEUE_BYTES
#define RING_BYTES_MAX	(1024 * 1024)
#define RING_WAKEUP(b)	((b) / 4)
/* mappings of a counter that counts already, while records wait (EBUSY) */
#define RING_TRIES	8
/*
 * The kernel wakes a waiting read() at every record: the queues are read
 * in rounds at least this far apart, so that the tool's own work does
 * not grow with the sample rate (a 255-deep chain at 4 kHz fills 80 KiB
 * of a queue in that time). A ring wakes the tool only once a quarter
 * of it waits: it is read then at once, lest the rest fill meanwhile,
 * and its records are written in time order at most this often.
 */
#define READ_GAP_NS	10000000ULL

/*
 * record --off-cpu: the user stack words each switch-out copies, for
 * report to find the callers of system call wrappers built without a
 * frame pointer (offcpu.c); PowerPC's back chain needs none.
 */
#if defined(__i386__) || defined(__x86_64__)
#define PC_SWITCH_STACK	32
#else
#define PC_SWITCH_STACK	0
#endif

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter record [-e EVENT[,EVENT...]] [-c PERIOD | -F FREQ]\n"
"                           [-o FILE] [-g | --call-graph fp[,DEPTH]]\n"
"                           [--off-cpu] [-m PAGES | --no-mmap]\n"
"                           [-a | -C CPUS | -p PID[,PID...]] [-B]\n"
"                           [--] [COMMAND ARGS]\n"
"  -e EVENT   the events to sample (default task-clock); -e may be given\n"
"             again: every event is sampled, each on its own\n"
"  -c PERIOD  a sample every PERIOD events (ns for the clock events,\n"
"             at least 50000)\n"
"  -F FREQ    about FREQ samples a second (default 1000), the kernel\n"
"             choosing each event's period from its rate as it goes\n"
"             (sample_freq): a clock event's is exactly 1e9/FREQ ns;\n"
"             every sample carries its period, which report weighs it\n"
"             by\n"
"  -o FILE    where to write (default perf-counter.data). At its end,\n"
"             for report on any machine: this boot, the build-id of each\n"
"             file with samples and the symbols its samples and chains\n"
"             fall in, and the kernel's (when /proc/kallsyms shows them)\n"
"  -B, --no-buildid\n"
"             none of that: report reads the files and /proc/kallsyms\n"
"  -g         record each sample's call chain (PERF_RECORD_CALLCHAIN):\n"
"             the kernel walks the frame pointers (on PowerPC the back\n"
"             chain), so build the program with -fno-omit-frame-pointer\n"
"  --call-graph fp[,DEPTH]\n"
"             -g, with at most DEPTH addresses a chain (1 to 255 and\n"
"             kernel.perf_event_max_stack; default 127)\n"
"  -a         every task on every online CPU (CAP_SYS_ADMIN, or\n"
"             kernel.perf_event_paranoid at 0 or below)\n"
"  -C CPUS    every task on these CPUs (0,2-3; as -a)\n"
"  -p PID     these running processes, every thread, and what they\n"
"             start from now on (the right to trace them)\n"
"  --off-cpu  also where and why each task left the CPU: switch records\n"
"             with the outgoing task's call chain (implies -g), for\n"
"             report --wall's off-CPU time; the first event that counts\n"
"             user mode takes them\n"
"  -m, --mmap-pages PAGES\n"
"             the records are read in rings mapped from the kernel, one\n"
"             per event and CPU (per event for a task's): PAGES of data\n"
"             each, a power of two (or a size: 512K, 1M), at most 1 MiB;\n"
"             default 256 KiB. Counts against ulimit -l\n"
"  --no-mmap  read() the queues instead, as on a kernel without rings\n"
"             (which record falls back to by itself)\n"
"With a COMMAND: until it exits (with -a, -C or -p it only says how\n"
"long); without: until SIGINT or SIGTERM, or -p's processes all end.\n"
"Every sample has the IP, pid/tid and time (PERF_RECORD_IRQ|TID|TIME);\n"
"the first event that counts user mode asks for the side-band records\n"
"(MMAP, COMM, FORK, EXIT) that report names the samples with.\n"
"Exit status: the command's (128 + N if signal N killed it), else 0.\n");
}

static void write_item(FILE *f, uint32_t type, const void *body, size_t len)
{
	static const char zero[8];
	struct pc_item it = { type, (uint32_t)((sizeof(it) + len + 7) & ~7) };

	fwrite(&it, sizeof(it), 1, f);
	fwrite(body, len, 1, f);
	fwrite(zero, it.size - sizeof(it) - len, 1, f);
}

static void write_event(FILE *f, const struct pc_event *ev, uint64_t period,
			uint64_t record_type, unsigned int freq)
{
	size_t len = sizeof(struct pc_item_event) + strlen(ev->name) + 1;
	struct pc_item_event *e = pc_zalloc(len);

	e->event_config = ev->config;
	e->irq_period = period;
	e->record_type = record_type;
	e->extra = ev->extra;
	e->nr_extra = ev->nr_extra;
	e->freq = freq;
	strcpy(e->name, ev->name);
	write_item(f, PC_ITEM_EVENT, e, len);
	free(e);
}

/* The command's executable as exec will find it, and its arguments. */
static void write_command(FILE *f, char **argv)
{
	char path[PATH_MAX] = "", *buf;
	const char *p = getenv("PATH");
	size_t len, o;
	int i;

	if (strchr(argv[0], '/')) {
		if (!realpath(argv[0], path))
			snprintf(path, sizeof(path), "%s", argv[0]);
	} else {
		while (p && *p) {
			const char *end = strchr(p, ':');
			int n = end ? end - p : (int)strlen(p);
			char cand[PATH_MAX];

			snprintf(cand, sizeof(cand), "%.*s/%s", n, p, argv[0]);
			if (!access(cand, X_OK)) {
				snprintf(path, sizeof(path), "%s", cand);
				break;
			}
			p = end ? end + 1 : NULL;
		}
	}
	len = strlen(path) + 1;
	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	buf = pc_zalloc(len);
	o = strlen(path) + 1;
	memcpy(buf, path, o);
	for (i = 0; argv[i]; i++) {
		memcpy(buf + o, argv[i], strlen(argv[i]) + 1);
		o += strlen(argv[i]) + 1;
	}
	write_item(f, PC_ITEM_COMMAND, buf, len);
	free(buf);
}

/* An item of the snapshot, and when its task's /proc entries were read. */
struct snap_item {
	uint64_t read;
	uint32_t type;
	uint32_t len;
	char *body;		/* starts as the kernel's: pid, tid, time */
};

/*
 * One counter: an event on a task (cpu -1) or on a CPU. Its records go
 * to its own queue, read with read() or in its mapped ring, or since a
 * SET_OUTPUT to the queue of the first counter of its event and CPU,
 * whose index @out is then (attach_ring()). @ended: read() said 0, or
 * its ring hung up: every counter writing there has ended (a task
 * counter, with its task and every copy).
 */
struct rec_counter {
	int fd;
	uint32_t event;
	int cpu;
	int ended;
	int out;		/* whose queue has its records (its own) */
	struct pc_ring *ring;	/* its queue, mapped; NULL: read() */
	uint64_t told;		/* drops the LOST records of its queue told */
};

struct rec_state {
	FILE *f;
	uint64_t record_type;
	uint64_t period;		/* -c, every sample's */
	struct rec_counter *ctr;
	int nr_ctr;
	struct pc_order *order;
	const struct rec_counter *reading;	/* whose records take_one has */
	uint64_t samples, lost, lost_sideband, sideband, switches;
	pid_t *forked;		/* -p: threads FORK records told of */
	int nr_forked;
	pid_t *execed;		/* processes made or exec'd before the stamp */
	int nr_pids;		/* -p's processes */
	int nr_execed;
	struct snap_item *snap;	/* the snapshot, until it is stamped */
	size_t nr_snap, snap_cap;
	uint64_t opened;	/* when the counters began to be opened */
	int snap_done;		/* stamped: execs no longer noted */
	uint32_t sb_event;	/* whose counters ask for side-band records */
	uint64_t sb_bits;	/* and which */
	int off_cpu;		/* and switch records with chains */
	char *buf;		/* what read() or a ring gives, whole */
	size_t buf_size;
	int rings;		/* map the queues: not --no-mmap, nor refused */
	size_t ring_bytes;	/* -m */
	int ring_asked;		/* -m was given */
	int mapped;		/* rings mapped */
	int ring_warned;	/* a mapping's failure was told */
};

/*
 * A side-band record read before the snapshot was stamped: -p's
 * threads that have their creator's counters (a FORK names them), and
 * processes made or that exec'd since the counters were opened, whose
 * snapshot is stamped with its reading (snapshot_stamp()).
 */
static void note_before_snapshot(struct rec_state *st, const struct pc_rec *r)
{
	int made = 0, execed = 0;
	uint32_t word;

	if (r->type == PERF_COUNTER_REC_FORK &&
	    r->blen >= sizeof(struct perf_counter_task)) {
		memcpy(&word, r->body + 16, sizeof(word));	/* ppid */
		made = word != r->pid;
		if (st->nr_pids) {
			st->forked = pc_realloc(st->forked, (st->nr_forked + 1) *
						sizeof(*st->forked));
			st->forked[st->nr_forked++] = r->tid;
		}
	} else if (r->type == PERF_COUNTER_REC_COMM &&
		   r->blen >= sizeof(struct perf_counter_comm)) {
		memcpy(&word, r->body + 16, sizeof(word));	/* flags */
		execed = !!(word & PERF_COUNTER_COMM_EXEC);
	}
	if (made || execed) {
		st->execed = pc_realloc(st->execed, (st->nr_execed + 1) *
					sizeof(*st->execed));
		st->execed[st->nr_execed++] = r->pid;
	}
}

/*
 * A switch record as a SWITCH item; a switch-out with a chain keeps it
 * and the stack words after (struct perf_counter_switch_out).
 */
static void take_switch(struct rec_state *st, const struct pc_rec *r)
{
	const struct rec_counter *c = st->reading;
	struct pc_item_switch w = {
		.pid = r->pid, .tid = r->tid, .time = r->time,
		.event = c->event, .cpu = c->cpu,
		.out = r->type != PERF_COUNTER_REC_SWITCH_IN,
	};
	struct perf_counter_switch_out so;
	struct perf_counter_callchain ch;
	size_t words = 0, len = sizeof(w);
	char *body;

	if (r->type == PERF_COUNTER_REC_SWITCH_OUT_CHAIN) {
		if (r->blen < sizeof(so) + sizeof(ch))
			return;
		memcpy(&so, r->body, sizeof(so));
		memcpy(&ch, r->body + sizeof(so), sizeof(ch));
		words = (size_t)ch.nr + so.stack_words;
		if (words > (r->blen - sizeof(so) - sizeof(ch)) / 8)
			return;			/* not what its size says */
		w.flags = so.flags;
		w.stack_words = so.stack_words;
		len += sizeof(ch) + words * 8;
	}
	body = pc_zalloc(len);
	memcpy(body, &w, sizeof(w));
	if (r->type == PERF_COUNTER_REC_SWITCH_OUT_CHAIN)
		memcpy(body + sizeof(w), r->body + sizeof(so),
		       sizeof(ch) + words * 8);
	pc_order_add(st->order, r->time, PC_ITEM_SWITCH, body, len);
	free(body);
	st->switches++;
}

/* Hold one record read from the queue, to be written in time order. */
static void take_one(void *ctx, const struct pc_rec *r)
{
	struct rec_state *st = ctx;
	const struct rec_counter *c = st->reading;

	if (r->type == PERF_COUNTER_REC_SAMPLE) {
		struct pc_item_sample4 s = {
			.ip = r->ip, .pid = r->pid, .tid = r->tid,
			.time = r->time, .event = c->event, .cpu = c->cpu,
			.period = st->record_type & PERF_RECORD_PERIOD ?
				  r->period : st->period,
		};
		struct pc_item_chain ch = {
			.nr = r->chain_nr, .flags = r->chain_flags,
		};
		size_t len = sizeof(s), words = 0;
		char *body;

		if (st->record_type & PERF_RECORD_CALLCHAIN) {
			words = r->chain_nr;
			len += sizeof(ch) + words * 8;
		}
		body = pc_zalloc(len);
		memcpy(body, &s, sizeof(s));
		if (st->record_type & PERF_RECORD_CALLCHAIN) {
			memcpy(body + sizeof(s), &ch, sizeof(ch));
			memcpy(body + sizeof(s) + sizeof(ch), r->chain,
			       words * 8);
		}
		pc_order_add(st->order, r->time, PC_ITEM_SAMPLE, body, len);
		free(body);
		st->samples++;
	} else if (r->type == PERF_COUNTER_REC_LOST ||
		   r->type == PERF_COUNTER_REC_LOST_SIDEBAND) {
		struct pc_item_lost3 l = {
			.lost = r->lost, .time = pc_now_ns(),
			.event = c->event, .cpu = c->cpu,
		};
		int sb = r->type == PERF_COUNTER_REC_LOST_SIDEBAND;

		if (sb)
			st->lost_sideband += r->lost;
		else
			st->lost += r->lost;
		pc_order_add(st->order, l.time,
			     sb ? PC_ITEM_LOST_SIDEBAND : PC_ITEM_LOST,
			     &l, sizeof(l));
	} else if (r->type == PERF_COUNTER_REC_SWITCH_OUT ||
		   r->type == PERF_COUNTER_REC_SWITCH_IN ||
		   r->type == PERF_COUNTER_REC_SWITCH_OUT_CHAIN) {
		take_switch(st, r);
	} else if (r->body) {
		static const uint32_t item[] = {
			[PERF_COUNTER_REC_MMAP] = PC_ITEM_KMMAP,
			[PERF_COUNTER_REC_COMM] = PC_ITEM_COMM,
			[PERF_COUNTER_REC_FORK] = PC_ITEM_FORK,
			[PERF_COUNTER_REC_EXIT] = PC_ITEM_EXIT,
		};

		pc_order_add(st->order, r->time, item[r->type], r->body,
			     r->blen);
		st->sideband++;
		if (!st->snap_done)
			note_before_snapshot(st, r);
	}
}

static void write_ordered(void *ctx, uint32_t type, const void *body,
			  size_t len)
{
	write_item(ctx, type, body, len);
}

/*
 * Counter @c's queue read() to its end. Return: 0 at end of file (its
 * writers have all ended), -EAGAIN when all is read for now, or another
 * -errno.
 */
static ssize_t read_queue(struct rec_state *st, struct rec_counter *c)
{
	uint64_t told = st->lost + st->lost_sideband;
	ssize_t n;
	int err;

	st->reading = c;
	while ((n = read(c->fd, st->buf, st->buf_size)) > 0)
		pc_take(st->buf, n, st->record_type, take_one, st);
	err = n < 0 ? -errno : 0;
	c->told += st->lost + st->lost_sideband - told;
	return err;
}

/*
 * The records waiting in counter @c's ring. One look at its head: what
 * comes while they are taken waits for the next round, so that a round
 * ends however fast they come (and records older than its start are
 * all read, as order.c needs).
 */
static void read_ring(struct rec_state *st, struct rec_counter *c)
{
	uint64_t told = st->lost + st->lost_sideband;
	size_t n;

	st->reading = c;
	n = pc_ring_take(c->ring, st->buf, st->buf_size);
	if (n)
		pc_take(st->buf, n, st->record_type, take_one, st);
	c->told += st->lost + st->lost_sideband - told;
}

/*
 * A ring's drops that no LOST record in it told: a LOST record goes in
 * ahead of the next record that fits, and after the last drops no
 * record may come. read() gives them as a record of their own; here
 * they are the ring's count (@lost: samples and side-band records
 * alike, which it does not tell apart) less what its records told, and
 * taken as read() would give them, as samples'.
 */
static void ring_untold(struct rec_state *st, struct rec_counter *c)
{
	uint64_t lost = pc_ring_lost(c->ring);
	struct pc_rec r = { .type = PERF_COUNTER_REC_LOST };

	if (lost <= c->told)
		return;
	r.lost = lost - c->told;
	st->reading = c;
	take_one(st, &r);
	c->told = lost;
}

/*
 * Read every counter's queue to its end: each ring, and each queue
 * read() (a counter sent to another's ring is, until it ends: what it
 * wrote before). Return: how many are still going (a task counter ends
 * when its task and every copy have; a ring, when all its writers have).
 */
static int drain(struct rec_state *st)
{
	int i, going = 0;

	for (i = 0; i < st->nr_ctr; i++) {
		struct rec_counter *c = &st->ctr[i];
		ssize_t n;

		if (c->ended)
			continue;
		if (c->ring) {
			struct pollfd p = { .fd = c->fd, .events = POLLIN };
			/*
			 * A task's ring hangs up when no counter can write
			 * to it any more: what it holds then is the last. A
			 * CPU's never does.
			 */
			int hup = c->cpu < 0 && poll(&p, 1, 0) > 0 &&
				  (p.revents & POLLHUP);

			read_ring(st, c);
			if (hup)
				c->ended = 1;
			else
				going++;
			continue;
		}
		n = read_queue(st, c);
		if (n < 0 && n != -EAGAIN && n != -EINTR) {
			pc_warn("reading a counter of event %u: %s; it is read no more",
				c->event, strerror(-n));
			c->ended = 1;
		} else if (n == 0) {
			c->ended = 1;
		} else {
			going++;
		}
	}
	return going;
}

/* Does a ring hold what wakes the tool (a quarter of it)? */
static int rings_due(const struct rec_state *st)
{
	int i;

	for (i = 0; i < st->nr_ctr; i++)
		if (st->ctr[i].ring && !st->ctr[i].ended &&
		    pc_ring_waiting(st->ctr[i].ring) >=
		    RING_WAKEUP(st->ring_bytes))
			return 1;
	return 0;
}

static void snap_add(struct rec_state *st, uint64_t read, uint32_t type,
		     const void *body, size_t len)
{
	struct snap_item *it;

	st->snap = pc_grow(st->snap, &st->snap_cap, st->nr_snap + 1,
			   sizeof(*st->snap));
	it = &st->snap[st->nr_snap++];
	it->read = read;
	it->type = type;
	it->len = len;
	it->body = pc_zalloc(len);
	memcpy(it->body, body, len);
}

/*
 * A task as /proc shows it now, as if it had just called exec: a COMM
 * record (EXEC) for its main thread, one MMAP record per executable
 * mapping, a COMM for each other thread; held until stamped.
 */
static void snapshot_task(struct rec_state *st, pid_t pid)
{
	struct pc_maps maps = { NULL, 0 };
	struct perf_counter_comm c;
	char path[64], comm[32];
	uint64_t now = pc_now_ns();
	struct dirent *d;
	DIR *dir;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (pc_read_file(path, comm, sizeof(comm)) < 0)
		return;		/* gone */
	memset(&c, 0, sizeof(c));
	c.pid = c.tid = pid;
	c.flags = PERF_COUNTER_COMM_EXEC;
	snprintf(c.comm, sizeof(c.comm), "%.*s", (int)strcspn(comm, "\n"),
		 comm);
	snap_add(st, now, PC_ITEM_COMM, &c, sizeof(c));
	pc_read_maps(pid, &maps);
	for (i = 0; i < maps.nr; i++) {
		const struct pc_map *m = &maps.map[i];
		size_t len = sizeof(struct perf_counter_mmap) +
			     strlen(m->path) + 1;
		struct perf_counter_mmap *mm = pc_zalloc(len);

		mm->pid = mm->tid = pid;
		mm->addr = m->start;
		mm->len = m->end - m->start;
		mm->pgoff = m->pgoff;
		mm->dev = m->dev;
		mm->ino = m->ino;
		mm->prot = PROT_READ | PROT_EXEC;
		if (m->path[0] != '/')
			mm->flags = PERF_COUNTER_MMAP_ANON;
		strcpy(mm->path, m->path);
		snap_add(st, now, PC_ITEM_KMMAP, mm, len);
		free(mm);
	}
	pc_maps_free(&maps);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);

		if (tid <= 0 || tid == pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		if (pc_read_file(path, comm, sizeof(comm)) < 0)
			continue;
		c.tid = tid;
		c.flags = 0;
		snprintf(c.comm, sizeof(c.comm), "%.*s",
			 (int)strcspn(comm, "\n"), comm);
		snap_add(st, now, PC_ITEM_COMM, &c, sizeof(c));
	}
	if (dir)
		closedir(dir);
}

/*
 * The snapshot's time. A task's /proc entries were read after the
 * counters were opened, so its samples from between came first: the
 * snapshot is stamped with the opening's time and names them too,
 * unless the kernel told of an exec of the task, or of its making (a
 * FORK), before the queues were read here (after every /proc read):
 * then what /proc showed is the new program's, or comes after the
 * FORK that gives the process its parent's mappings and counts its
 * threads, and it is stamped with its reading, so that the samples of
 * the old program before are not named with the new one (report lists
 * them as unnamed), and the FORK comes first. A mapping made meanwhile is in /proc too, and
 * nothing sampled there before it was made; one unmapped meanwhile is
 * missing from the snapshot, and its samples before are unnamed.
 */
static void snapshot_stamp(struct rec_state *st)
{
	size_t i;
	int j;

	drain(st);
	st->snap_done = 1;
	for (i = 0; i < st->nr_snap; i++) {
		struct snap_item *it = &st->snap[i];
		uint32_t pid;
		uint64_t t = st->opened;

		memcpy(&pid, it->body, sizeof(pid));
		for (j = 0; j < st->nr_execed; j++)
			if ((uint32_t)st->execed[j] == pid)
				t = it->read;
		memcpy(it->body + 8, &t, sizeof(t));
		pc_order_add(st->order, t, it->type, it->body, it->len);
		free(it->body);
	}
	free(st->snap);
	free(st->execed);
	st->snap = NULL;
	st->execed = NULL;
	st->nr_snap = st->nr_execed = 0;
}

/* Every process /proc shows (-a, -C). */
static void snapshot_all(struct rec_state *st)
{
	DIR *dir = opendir("/proc");
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		pid_t pid = atoi(d->d_name);

		if (pid > 0)
			snapshot_task(st, pid);
	}
	if (dir)
		closedir(dir);
}

static struct rec_counter *add_counter(struct rec_state *st, int fd,
				       uint32_t event, int cpu)
{
	struct rec_counter *c;

	st->ctr = pc_realloc(st->ctr, (st->nr_ctr + 1) * sizeof(*st->ctr));
	c = &st->ctr[st->nr_ctr];
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->event = event;
	c->cpu = cpu;
	c->out = st->nr_ctr++;
	return c;
}

/*
 * Counter @c's own queue mapped as its ring, woken at a quarter of it.
 * A counter that counts already (-p's) may have records waiting: they
 * are read() first. Return: 0, or -errno.
 */
static int map_ring(struct rec_state *st, struct rec_counter *c)
{
	uint32_t wake = RING_WAKEUP(st->ring_bytes);
	int tries, err;

	c->ring = pc_zalloc(sizeof(*c->ring));
	for (tries = 0;; tries++) {
		err = pc_ring_map(c->ring, c->fd, st->ring_bytes);
		if (err != -EBUSY || tries == RING_TRIES)
			break;
		read_queue(st, c);
	}
	if (err) {
		free(c->ring);
		c->ring = NULL;
		return err;
	}
	ioctl(c->fd, PERF_COUNTER_IOC_WAKEUP, &wake);
	st->mapped++;
	return 0;
}

/*
 * Counter @c's records to a ring: with SET_OUTPUT to the queue of the
 * first counter of its event and CPU, if there is one, else to its own,
 * mapped. Return: 1, or 0 when its own queue is read() (a kernel that
 * maps none, or that refused).
 *
 * Which counters share a ring: take_one() names each SAMPLE, LOST and
 * SWITCH item with the event and CPU of the counter whose queue it
 * reads (st->reading), and report counts each event's samples and
 * drops by them. Counters of one event and one CPU (-p's threads, each
 * with a counter of every event) lose nothing by sharing: whichever
 * wrote a record, st->reading names the same event and CPU, and the
 * ring hangs up once every one has ended, as the last one's read()
 * said 0 (drain()). Counters of several events (or CPUs) would: the
 * samples' events could be had from PERF_RECORD_ID, but a LOST record
 * counts the ring's drops, not whose, so an event's drops could no
 * longer be told, and the file would not be what read() gives. So a
 * ring an event and CPU: -a and a COMMAND, a counter each, share none;
 * -p's counters share one an event.
 */
static int attach_ring(struct rec_state *st, struct rec_counter *c)
{
	int i = c - st->ctr, o, err;

	for (o = 0; o < i; o++)
		if (st->ctr[o].out == o && st->ctr[o].event == c->event &&
		    st->ctr[o].cpu == c->cpu)
			break;
	if (o < i && !ioctl(c->fd, PERF_COUNTER_IOC_SET_OUTPUT,
			    st->ctr[o].fd)) {
		/*
		 * What it wrote before is read() from its own queue until
		 * its end, which comes once that is empty: its own queue
		 * has no writer left. The ring has one more.
		 */
		c->out = o;
		st->ctr[o].ended = 0;
		return 1;
	}
	if (o < i)
		return 0;	/* refused: its own queue, read() */
	err = map_ring(st, c);
	if (!err)
		return 1;
	if (!st->mapped && err != -EBUSY) {
		/*
		 * The kernel's answer for them all. EINVAL: it maps a
		 * counter page at most (one page), ENODEV: nothing at all.
		 */
		int none = err == -EINVAL || err == -ENODEV;

		st->rings = 0;
		if (none && st->ring_asked)
			pc_warn("-m: this kernel maps no record ring (%s); the queues are read() instead",
				strerror(-err));
		else if (!none)
			pc_warn("mapping a record ring of %zu KiB: %s%s; the queues are read() instead",
				st->ring_bytes / 1024, strerror(-err),
				err == -ENOMEM ?
				" (ulimit -l, or a smaller -m)" : "");
	} else if (!st->ring_warned) {
		pc_warn("mapping a record ring of %zu KiB: %s; its queue is read() instead",
			st->ring_bytes / 1024, strerror(-err));
		st->ring_warned = 1;
	}
	return 0;
}

/*
 * Which event's counters ask for the side-band records (one copy of
 * each is enough): the first that counts user mode, with every kind;
 * when all exclude it, the first, without mappings (the kernel refuses
 * them there: a kernel-only profile names no file).
 */
static void choose_sideband(struct rec_state *st, const struct pc_event *evs,
			    int nr_ev)
{
	int e;

	for (e = 0; e < nr_ev; e++)
		if (!evs[e].exclude_user) {
			st->sb_event = e;
			st->sb_bits = PERF_SIDEBAND_MASK;
			return;
		}
	st->sb_event = 0;
	st->sb_bits = PERF_SIDEBAND_COMM | PERF_SIDEBAND_TASK;
}

/*
 * Open @ev (number @event) per @a, with a queue and the side-band
 * records @a asks for. Return: 0, or -errno.
 */
static int open_one(struct rec_state *st, const struct pc_event *ev,
		    uint32_t event, struct pc_open_args a)
{
	uint32_t qsize = QUEUE_BYTES;
	struct rec_counter *c;
	int fd, enable = 0;

	a.sideband = event == st->sb_event ? st->sb_bits : 0;
	if (st->off_cpu && event == st->sb_event) {
		a.context_switch = 1;
		a.switch_out = PERF_SWITCH_OUT_CHAIN;
		a.switch_stack = ev->exclude_user ? 0 : PC_SWITCH_STACK;
	}
	/*
	 * A ring is mapped while its queue is empty: a CPU-wide counter
	 * is opened disabled and enabled once its ring is there. -p's
	 * are not: a thread made meanwhile by one whose side-band event
	 * was off would have its copies and no FORK record (open_pids());
	 * what they wrote first is read() (map_ring()). A COMMAND's wait
	 * disabled for its exec.
	 */
	if (st->rings && a.cpu >= 0 && !a.disabled) {
		a.disabled = 1;
		enable = 1;
	}
	fd = pc_open(ev, &a);
	if (fd < 0)
		return -errno;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	c = add_counter(st, fd, event, a.cpu);
	if (!st->rings || !attach_ring(st, c))
		ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &qsize);
	if (enable && ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0))
		return -errno;
	return 0;
}

/*
 * Does a counter of @event already watch thread @tid: one opened on it,
 * or, for a thread made since a counter of its creator was opened, that
 * counter's inherited copy (its FORK record told of it)?
 */
static int watched(const struct rec_state *st, uint32_t event, pid_t tid,
		   const pid_t *tids)
{
	int i;

	for (i = 0; i < st->nr_ctr; i++)
		if (st->ctr[i].event == event && tids[i] == tid)
			return 1;
	for (i = 0; i < st->nr_forked; i++)
		if (st->forked[i] == tid)
			return 1;
	return 0;
}

/*
 * -p: every thread of each process, by /proc/PID/task, listed again
 * after opening until no new one appears (a thread made meanwhile by
 * one not yet watched), at most a few times. The counters inherit: the
 * threads and children made later are counted by their creators'
 * copies. The queues are read after each listing, and a thread a FORK
 * record names has such copies and gets no counter of its own: each
 * thread's side-band event is opened first, so a thread with any copy
 * has its FORK record; it has the events its creator had when it was
 * made.
 * Return: 0, or -errno of the first failure (a thread that ended
 * meanwhile is no failure), with *@failed and *@failed_ev the thread
 * and event it was of.
 */
static int open_pids(struct rec_state *st, const struct pc_event *evs,
		     int nr_ev, const pid_t *pids, int nr_pids,
		     struct pc_open_args a, pid_t *failed, int *failed_ev)
{
	pid_t *tids = NULL, *listed = NULL;
	int round, p, k, e, nr, added = 1;
	size_t cap = 0;

	for (round = 0; round < 4 && added; round++) {
		added = 0;
		for (p = 0; p < nr_pids; p++) {
			char path[64];
			struct dirent *d;
			DIR *dir;
			int i;

			snprintf(path, sizeof(path), "/proc/%d/task", pids[p]);
			dir = opendir(path);
			if (!dir && round)
				continue;	/* it ended since */
			if (!dir) {
				free(tids);
				free(listed);
				*failed = pids[p];
				return -ESRCH;
			}
			for (nr = 0; (d = readdir(dir));) {
				pid_t tid = atoi(d->d_name);

				if (tid <= 0)
					continue;
				listed = pc_grow(listed, &cap, nr + 1,
						 sizeof(*listed));
				listed[nr++] = tid;
			}
			closedir(dir);
			/*
			 * The FORK records of the threads listed that were
			 * made by watched ones: read after the listing, so
			 * none made before it is missed.
			 */
			drain(st);
			for (i = 0; i < nr; i++) {
				/* side-band event first: copies mean a FORK */
				for (k = 0; k < nr_ev; k++) {
					int err;

					e = (st->sb_event + k) % nr_ev;
					if (watched(st, e, listed[i], tids))
						continue;
					a.pid = listed[i];
					err = open_one(st, &evs[e], e, a);
					if (err == -ESRCH)
						break;
					if (err) {
						*failed = listed[i];
						*failed_ev = e;
						free(tids);
						free(listed);
						return err;
					}
					tids = pc_realloc(tids, st->nr_ctr *
							  sizeof(*tids));
					tids[st->nr_ctr - 1] = listed[i];
					added = 1;
				}
			}
		}
	}
	free(tids);
	free(listed);
	if (!st->nr_ctr)
		*failed = pids[0];
	return st->nr_ctr ? 0 : -ESRCH;
}

static sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* --call-graph: "fp" or "fp,DEPTH"; the depth, 0 for the default. */
static unsigned int call_graph(const char *arg)
{
	if (!strcmp(arg, "fp"))
		return 0;
	if (!strncmp(arg, "fp,", 3))
		return pc_parse_num("--call-graph fp,", arg + 3, 1,
				    PERF_COUNTER_CHAIN_DEPTH_MAX);
	pc_die("--call-graph %s: only fp or fp,DEPTH: the kernel walks the\n"
	       "  frame pointers (the back chain on PowerPC); it has no dwarf\n"
	       "  or lbr mode", arg);
}

/* The process thread @tid is of (itself when /proc does not say). */
static pid_t tgid_of(pid_t tid)
{
	char path[64], buf[1024], *at;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (pc_read_file(path, buf, sizeof(buf)) < 0)
		return tid;
	at = strstr(buf, "\nTgid:");
	return at ? (pid_t)strtol(at + 6, NULL, 10) : tid;
}

/* -p's list: PID[,PID...], each a running process (a thread: its own). */
static int parse_pids(const char *list, pid_t **pids)
{
	char *copy = pc_strdup(list), *save = NULL, *tok;
	int nr = 0;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		*pids = pc_realloc(*pids, (nr + 1) * sizeof(**pids));
		(*pids)[nr] = tgid_of(pc_parse_num("-p", tok, 1, INT_MAX));
		if ((*pids)[nr] <= 0)
			pc_die("-p %s: no process", tok);
		nr++;
	}
	free(copy);
	if (!nr)
		pc_die("-p %s: no process", list);
	return nr;
}

/*
 * -m, as perf's --mmap-pages: a ring's data pages, a number of pages or
 * a size (B, K, M or G after it), rounded up to a power of two of
 * pages, which is said; at most the kernel's 1 MiB. Return: bytes.
 */
static size_t mmap_bytes(const char *arg)
{
	const unsigned long long max = RING_BYTES_MAX;
	unsigned long long v, bytes, pages = 1;
	size_t page = sysconf(_SC_PAGESIZE);
	const char *units = "BKMG", *u;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)arg[0]) || errno == ERANGE || !v)
		goto bad;
	if (*end) {
		u = strchr(units, toupper((unsigned char)*end));
		if (!u || end[1] || v > max >> (10 * (u - units)))
			goto bad;
		bytes = v << (10 * (u - units));
		v = (bytes + page - 1) / page;
	} else {
		if (v > max / page)
			goto bad;
		bytes = v * page;
	}
	while (pages < v)
		pages *= 2;
	if (pages * page > max)
		goto bad;
	if (pages * page != bytes)
		fprintf(stderr, "perf-counter: -m %s: rounded up to %llu page%s (%llu KiB)\n",
			arg, pages, pages > 1 ? "s" : "", pages * page / 1024);
	return pages * page;
bad:
	pc_die("-m %s: pages (a power of two) or a size (512K, 1M): 1 to %llu pages of %zu KiB, at most 1 MiB",
	       arg, max / page, page / 1024);
}

static void close_all(struct rec_state *st)
{
	int i;

	for (i = 0; i < st->nr_ctr; i++) {
		if (st->ctr[i].ring) {
			pc_ring_unmap(st->ctr[i].ring);
			free(st->ctr[i].ring);
		}
		close(st->ctr[i].fd);
	}
	st->nr_ctr = 0;
}

int cmd_record(int argc, char **argv)
{
	struct pc_sample_opts o = { .event = "task-clock",
				    .output = "perf-counter.data" };
	const char *out;
	struct rec_state st = { 0 };
	struct pc_event *evs = NULL;
	struct pc_open_args a = { .cpu = -1, .group_fd = -1 };
	struct pc_file_header hdr;
	unsigned int freq;
	int opt, go = -1, status = 0, done = 0, i, e, nr_ev = 0, err = 0;
	int nr_pids = 0, cpus[PC_OPT_MAX_CPUS], nr_cpus = 0;
	pid_t child = 0, *pids = NULL, failed = 0;
	uint64_t last_read = 0, last_flush = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat sb;
	int nr_syms = 0;
	char switches[48] = "";

	opt = pc_sample_opts_parse(argc, argv, "+ecFogGaCpBOmM", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	argv += opt;
	argc -= opt;
	out = o.output;
	if (o.pids && (o.all_cpus || o.nr_cpus))
		pc_die("-p and -a/-C: one of them (a process, or CPUs)");
	if (!argc && !o.pids && !o.all_cpus && !o.nr_cpus) {
		print_help(stderr);
		return 1;
	}
	if (o.period && o.freq)
		pc_die("-c and -F both give the period: one of them");
	if (o.call_graph) {
		a.chain_depth = call_graph(o.call_graph);
		o.callchain = 1;
	}
	st.off_cpu = o.off_cpu;
	if (o.off_cpu)
		o.callchain = 1;	/* the switch-outs' chains need it */
	if (o.mmap_pages && o.no_mmap)
		pc_die("-m and --no-mmap: one of them (rings, or read())");
	st.rings = !o.no_mmap;
	st.ring_asked = !!o.mmap_pages;
	st.ring_bytes = o.mmap_pages ? mmap_bytes(o.mmap_pages) : RING_BYTES;
	if (st.ring_bytes < (size_t)sysconf(_SC_PAGESIZE))
		st.ring_bytes = sysconf(_SC_PAGESIZE);
	st.buf_size = st.ring_bytes > QUEUE_BYTES ? st.ring_bytes : QUEUE_BYTES;
	st.buf = pc_zalloc(st.buf_size);
	if (pc_parse_event_list(o.event, &evs, &nr_ev))
		return 1;
	if (!nr_ev)
		pc_die("-e '%s': no event", o.event);
	if (nr_ev > PC_FILE_EVENTS_MAX)
		pc_die("-e: %d events, at most %d in one record", nr_ev,
		       PC_FILE_EVENTS_MAX);
	/* -c a fixed period; else a frequency, 1000 a second by default */
	freq = o.period ? 0 : o.freq ? o.freq : 1000;
	if (freq > pc_max_sample_rate()) {
		/* as perf record does: the kernel's limit, said */
		pc_warn("-F %u: kernel.perf_event_max_sample_rate is %u; sampling at %u a second",
			freq, pc_max_sample_rate(), pc_max_sample_rate());
		freq = pc_max_sample_rate();
	}
	if (o.pids)
		st.nr_pids = nr_pids = parse_pids(o.pids, &pids);
	if (o.nr_cpus) {
		nr_cpus = o.nr_cpus;
		memcpy(cpus, o.cpus, nr_cpus * sizeof(int));
	} else if (o.all_cpus) {
		nr_cpus = pc_online_cpus(cpus, PC_OPT_MAX_CPUS);
	}

	choose_sideband(&st, evs, nr_ev);
	st.order = pc_order_new();
	/* read back at the end, for its symbols (portable.c) */
	st.f = fopen(out, "w+e");
	if (!st.f)
		pc_die("%s: %s", out, strerror(errno));
	memcpy(hdr.magic, PC_FILE_MAGIC, 8);
	hdr.version = PC_FILE_VERSION;
	hdr.byte_order = PC_FILE_BYTE_ORDER;
	fwrite(&hdr, sizeof(hdr), 1, st.f);
	a.record_type = PERF_RECORD_IRQ | PERF_RECORD_TID | PERF_RECORD_TIME;
	if (freq)
		a.record_type |= PERF_RECORD_PERIOD;
	if (o.callchain)
		a.record_type |= PERF_RECORD_CALLCHAIN;
	st.record_type = a.record_type;
	st.period = o.period;
	for (e = 0; e < nr_ev; e++)
		write_event(st.f, &evs[e], o.period, a.record_type, freq);
	if (argc)
		write_command(st.f, argv);

	/*
	 * The counters first, then the snapshot of the tasks: what they
	 * do in between is in both, and replayed in order it comes out
	 * right. A signal meanwhile (a long snapshot of every task) stops
	 * the recording once it is written.
	 */
	if (argc) {
		child = pc_fork_command(argv, &go);
		signal(SIGINT, SIG_IGN);
	} else {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	st.opened = pc_now_ns();
	a.period = o.period;
	a.freq = freq;
	for (e = 0; e < nr_ev && !err; e++) {
		if (nr_cpus) {
			a.pid = -1;
			for (i = 0; i < nr_cpus && !err; i++) {
				a.cpu = cpus[i];
				err = open_one(&st, &evs[e], e, a);
			}
			a.cpu = -1;
		} else if (!nr_pids) {
			/* the command: held until every counter is on it */
			a.pid = child;
			a.inherit = 1;
			a.disabled = 1;
			err = open_one(&st, &evs[e], e, a);
		}
	}
	if (!err && nr_pids) {
		a.inherit = 1;
		e = 0;
		err = open_pids(&st, evs, nr_ev, pids, nr_pids, a, &failed,
				&e);
		e++;
	}
	if (err) {
		/* the event and task (or CPU) of the counter that failed */
		a.pid = nr_cpus ? -1 : nr_pids ? failed : child;
		pc_open_error(&evs[e - 1], &a, -err);
		close_all(&st);
		if (go >= 0)
			close(go);
		if (child)
			waitpid(child, NULL, 0);
		fclose(st.f);
		unlink(out);
		return 1;
	}
	if (nr_cpus) {
		snapshot_all(&st);
	} else {
		for (i = 0; i < nr_pids; i++)
			snapshot_task(&st, pids[i]);
		if (child)
			snapshot_task(&st, child);
	}
	snapshot_stamp(&st);
	if (argc)
		pc_start_command(go);

	while (!done) {
		struct pollfd *p = pc_zalloc(st.nr_ctr * sizeof(*p));
		uint64_t round = pc_now_ns();

		for (i = 0; i < st.nr_ctr; i++) {
			p[i].fd = st.ctr[i].ended ? -1 : st.ctr[i].fd;
			p[i].events = POLLIN;
		}
		/*
		 * A ring woken at a quarter is read at once; the rest (a
		 * read() queue woken by a record, a ring by drops none of
		 * its records can tell yet) wait for the round's gap.
		 */
		if (poll(p, st.nr_ctr, 100) > 0 && !rings_due(&st) &&
		    pc_now_ns() - last_read < READ_GAP_NS)
			usleep((READ_GAP_NS - (pc_now_ns() - last_read)) / 1000);
		last_read = pc_now_ns();
		free(p);
		if (!drain(&st) && !argc)
			done = 1;	/* -p: every process ended */
		if (!st.mapped || round - last_flush >= READ_GAP_NS) {
			pc_order_flush(st.order, round > PC_ORDER_SLACK_NS ?
				       round - PC_ORDER_SLACK_NS : 0,
				       write_ordered, st.f);
			last_flush = round;
		}
		if (child && waitpid(child, &status, WNOHANG) == child)
			done = 1;
		if (stop)
			done = 1;
	}
	/*
	 * What is left (a task counter's read() says 0 once it ended, its
	 * ring hangs up), and the rings' drops no record told.
	 */
	drain(&st);
	for (i = 0; i < st.nr_ctr; i++)
		if (st.ctr[i].ring)
			ring_untold(&st, &st.ctr[i]);
	close_all(&st);
	pc_order_flush(st.order, UINT64_MAX, write_ordered, st.f);
	/* what report needs on another machine: the symbols */
	if (!o.no_buildid && !fflush(st.f) && !ferror(st.f) &&
	    !fstat(fileno(st.f), &sb) && S_ISREG(sb.st_mode))
		nr_syms = pc_portable_append(out, st.f);
	if (nr_syms < 0)
		nr_syms = 0;

	if (o.off_cpu)
		snprintf(switches, sizeof(switches), "%llu switch records, ",
			 (unsigned long long)st.switches);
	fprintf(stderr,
		"[ perf-counter record: %llu samples of %s%s %s %llu%s (%llu lost), %llu side-band records (%llu lost), %s%s%d symbol tables, in %s ]\n",
		(unsigned long long)st.samples, evs[0].name,
		nr_ev > 1 ? " and more" : "", freq ? "at" : "every",
		(unsigned long long)(freq ? freq : o.period),
		freq ? " a second" : "", (unsigned long long)st.lost,
		(unsigned long long)st.sideband,
		(unsigned long long)st.lost_sideband,
		o.callchain ? "call chains, " : "", switches, nr_syms, out);
	if (pc_order_late(st.order))
		pc_warn("%llu records came later than records after them: they are out of order in %s",
			(unsigned long long)pc_order_late(st.order), out);
	pc_order_free(st.order);
	free(evs);
	free(pids);
	free(st.ctr);
	free(st.forked);
	free(st.buf);
	if (ferror(st.f) | fclose(st.f))
		pc_die("%s: cannot write it all: %s", out, strerror(errno));
	return argc ? pc_wait_status(status) : 0;
}
