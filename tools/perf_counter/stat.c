// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter stat: count a command's events (or a task's, or every
 * task's on some CPUs) and print them with what they imply: the whole
 * count, each interval of it (-I), or each thread's (--per-thread); as
 * a table, CSV (-x) or JSON lines (-j).
 *
 * Each group is read at once: its leader has PERF_FORMAT_GROUP and
 * every counter PERF_FORMAT_ID, so one read gives the values of one
 * instant, each found by its counter's id. --per-thread gives each
 * leader inherit_stat: every task that counted writes its own counts
 * into the leader's queue at its exit (TOTALS records), and the first
 * leader's side-band records name the tasks.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"

#define MAX_CPUS	256
#define MAX_RUNS	100000
#define MIN_INTERVAL_MS	10		/* -I: perf's least */
#define QUEUE_BYTES	(256 * 1024)	/* --per-thread: each leader's */
#define DRAIN_MS	100		/* and read at least this often */
#define NO_PIDFD_MS	10		/* no pidfd: the command's end polled */

/* The same number on every architecture since 5.3. */
#ifndef __NR_pidfd_open
#define __NR_pidfd_open	434
#endif

/* A counter's value and times, from a group read or a TOTALS record. */
struct stat_count {
	uint64_t val, ena, run;
	int got;		/* a read or record gave it */
};

struct stat_counter {
	struct pc_event ev;
	int leader;		/* index of its group's leader */
	int unsupported;	/* a default event this machine lacks */
	int quiet;		/* --per-thread: its fd polled no more */
	int *fd;		/* one per CPU counted */
	uint64_t *id;		/* each fd's PERF_COUNTER_IOC_ID */
	double *scaled;		/* per run it counted in: runs_counted */
	uint64_t val, ena, run;	/* the last read's, summed over CPUs */
	uint64_t pval, pena, prun;	/* -I: the read before */
	double sum_share;	/* running/enabled, summed over runs */
	int runs_counted;
};

static const char * const default_events = "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses,cache-references,cache-misses";

/* Events counted in one group, so that their ratio is of one interval. */
static const char * const pairs[][2] = {
	{ "cycles", "instructions" },
	{ "cache-references", "cache-misses" },
	{ "branches", "branch-misses" },
};

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter stat [-e EVENT,...] [-a] [-C CPUS] [-p PID] [-r N]\n"
"                         [-x SEP | -j] [-o FILE] [-X] [-I MS]\n"
"                         [--per-thread] [--] [COMMAND ARGS]\n"
"  -e EVENT,...  events to count (default: %s)\n"
"  -a            every CPU, every task (CAP_SYS_ADMIN)\n"
"  -C CPUS       these CPUs only, every task: 0,2-3 (CAP_SYS_ADMIN)\n"
"  -p PID        an existing task (needs the right to trace it)\n"
"  -r N          run the command N times: mean and +- standard deviation\n"
"  -x SEP        CSV with SEP between fields, one line an event:\n"
"                value,unit,event,running%%,raw count,time enabled ns,\n"
"                time running ns,stddev%%,metric,metric unit\n"
"                (10 fields always; empty where none; not quoted, so\n"
"                SEP may not hold letters, digits, . : - _ %% < / > or blanks;\n"
"                -I puts the time first, --per-thread the thread)\n"
"  -j, --json    JSON lines: an object for each count, then one for\n"
"                the run (keys: Documentation/perf_counter/tool.rst)\n"
"  -o FILE       write the table there instead of to stderr\n"
"  -X            every group exclusive: groups take turns (multiplexed)\n"
"  -I, --interval-print MS\n"
"                also print the counts of every MS ms (10 at least),\n"
"                each line after the seconds since the start; the last\n"
"                interval ends with the counting, so they add up to the\n"
"                whole count, printed after them (not with -r)\n"
"  --per-thread  each thread and process of COMMAND apart, as counted\n"
"                at its exit: a line per event and thread, 'comm-tid'\n"
"                (a COMMAND only; not with -r or -I)\n"
"Without COMMAND, -a/-C/-p count until SIGINT (or the task's exit).\n"
"Hardware events that belong together (cycles and instructions, cache\n"
"references and misses, branches and misses) are counted as a group.\n"
"A counter that ran part of the time (multiplexed) is scaled:\n"
"value * enabled / running, printed with its running share and a bound\n"
"of +-(1 - running/enabled) of the estimate, which holds if the event's\n"
"rate while the counter was off was between 0 and twice the rate seen.\n"
"Exit status: the command's (128 + N if signal N killed it).\n",
		default_events);
}

static int has_alpha(const char *s)
{
	for (; *s; s++)
		if (isalpha((unsigned char)*s))
			return 1;
	return 0;
}

/* Is @ev the event @base, with or without a :u/:k modifier? */
static int is_base(const struct pc_event *ev, const char *base)
{
	size_t l = strlen(base);

	return !strncmp(ev->name, base, l) &&
	       (!ev->name[l] || ev->name[l] == ':');
}

/* Do @a and @b count in the same modes (one :u/:k)? */
static int same_modes(const struct pc_event *a, const struct pc_event *b)
{
	return a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel;
}

/* The hardware event @base in @ref's modes (any, if !@ref), its own leader. */
static int find(struct stat_counter *c, int nr, const char *base,
		const struct pc_event *ref)
{
	int i;

	for (i = 0; i < nr; i++)
		if (is_base(&c[i].ev, base) && c[i].ev.kind == PC_HW &&
		    c[i].leader == i && (!ref || same_modes(&c[i].ev, ref)))
			return i;
	return -1;
}

static void make_groups(struct stat_counter *c, int nr)
{
	unsigned int p;
	int i;

	for (i = 0; i < nr; i++)
		c[i].leader = i;
	for (p = 0; p < ARRAY_SIZE(pairs); p++) {
		/* each one of the pair with its partner in the same modes */
		for (i = 0; i < nr; i++) {
			int a = i, b;

			if (!is_base(&c[a].ev, pairs[p][0]) ||
			    c[a].ev.kind != PC_HW || c[a].leader != a)
				continue;
			b = find(c, nr, pairs[p][1], &c[a].ev);
			if (b < 0)
				continue;
			if (a < b)
				c[b].leader = a;
			else
				c[a].leader = b;
		}
	}
}

/*
 * The counter whose group read gives @i's value: its leader (always
 * before it), or @i itself when it leads or its leader could not be
 * opened, which opened it alone.
 */
static int group_of(const struct stat_counter *c, int i)
{
	int lead = c[i].leader;

	return lead != i && !c[lead].unsupported ? lead : i;
}

/* Is @i open and the leader of its group, which is read through it? */
static int leads(const struct stat_counter *c, int i)
{
	return !c[i].unsupported && group_of(c, i) == i;
}

struct stat_opts {
	int all, nr_cpus, cpus[MAX_CPUS];
	pid_t pid;
	int runs, exclusive, defaults;
	const char *sep, *out;
	int json;		/* -j */
	int interval_ms;	/* -I, or 0 */
	int per_thread;		/* --per-thread */
};

/* --per-thread: one life of a thread, as its TOTALS records tell it. */
struct stat_thread {
	uint32_t pid, tid;
	int named;		/* @name is the one it had at its exit */
	char name[24];		/* its comm, or ":TID" (pc_tasks_name()) */
	int next;		/* the next life of its tid, or -1 */
	struct stat_count *n;	/* per counter */
};

struct stat_threads {
	struct stat_thread *t;
	size_t nr, cap;
	int *slot;		/* open hash by tid: first life + 1, or 0 */
	size_t nr_slot, nr_tids;
	struct pc_tasks *tasks;	/* the names, from the side-band records */
	int sb;			/* the leader asked for them, or -1 */
	uint64_t lost;		/* records the queues dropped */
};

struct stat_state {
	struct stat_counter *c;
	int nr;
	struct stat_opts *o;
	FILE *out;
	struct stat_count *sum;	/* read_counts()'s, per counter */
	uint64_t *words;	/* a group read: 3 + 2 words a counter */
	size_t nr_words;
	uint64_t t0;		/* when the counting began */
	uint64_t tick, last;	/* -I: the next interval's end, the last's */
	int intervals;		/* -I: printed */
	struct stat_threads th;
};

static int nr_cpus_of(const struct stat_opts *o)
{
	return o->nr_cpus ? o->nr_cpus : 1;
}

/*
 * What an open counter needs besides: its id, by which group reads
 * name it; and for a --per-thread leader, a queue big enough for a
 * burst of exits, read without blocking.
 */
static int setup_counter(struct stat_state *st, int i, int k, int queued)
{
	struct stat_counter *s = &st->c[i];
	uint32_t qsize = QUEUE_BYTES;

	if (ioctl(s->fd[k], PERF_COUNTER_IOC_ID, &s->id[k]) < 0) {
		pc_warn("'%s': no counter id (PERF_COUNTER_IOC_ID): %s; this kernel cannot read a group at once",
			s->ev.name, strerror(errno));
		return -1;
	}
	if (!queued)
		return 0;
	ioctl(s->fd[k], PERF_COUNTER_IOC_QUEUE_SIZE, &qsize);
	fcntl(s->fd[k], F_SETFL, O_NONBLOCK);
	if (st->th.sb < 0)
		st->th.sb = i;
	return 0;
}

/*
 * The read format and, for --per-thread, the TOTALS records and names
 * of counter @i, which leads its group when @a->group_fd is -1.
 */
static void open_args(struct stat_state *st, int i, struct pc_open_args *a)
{
	a->read_format = PERF_FORMAT_ID;
	if (a->group_fd >= 0)
		return;
	a->read_format |= PERF_FORMAT_GROUP;
	if (!st->o->per_thread)
		return;
	a->inherit_stat = 1;
	/* the first leader's queue names the tasks, one copy enough */
	if (st->th.sb < 0 || st->th.sb == i)
		a->sideband = PERF_SIDEBAND_COMM | PERF_SIDEBAND_TASK;
}

/* Open every counter for one run on @pid (or the CPUs); 0 or -1. */
static int open_all(struct stat_state *st, pid_t pid, int on_command)
{
	struct stat_counter *c = st->c;
	struct stat_opts *o = st->o;
	int i, k;

	for (i = 0; i < st->nr; i++) {
		struct stat_counter *s = &c[i];
		int ncpu = nr_cpus_of(o);

		s->pval = s->pena = s->prun = 0;
		if (s->unsupported)
			continue;
		for (k = 0; k < ncpu; k++) {
			struct pc_open_args a = { 0 };
			int lead = s->leader;

			a.pid = o->nr_cpus ? -1 : pid;
			a.cpu = o->nr_cpus ? o->cpus[k] : -1;
			a.group_fd = lead != i && !c[lead].unsupported ?
				     c[lead].fd[k] : -1;
			a.inherit = !o->nr_cpus;
			/* leaders wait for the child's prctl() at exec */
			a.disabled = on_command && !o->nr_cpus &&
				     a.group_fd < 0;
			a.exclusive = o->exclusive && a.group_fd < 0;
			open_args(st, i, &a);
			s->fd[k] = pc_open(&s->ev, &a);
			if (s->fd[k] >= 0) {
				if (setup_counter(st, i, k, a.inherit_stat))
					return -1;
				continue;
			}
			if (o->defaults && errno == EACCES && a.pid >= 0 &&
			    !s->ev.exclude_kernel) {
				/* unprivileged at paranoid 2: user mode */
				s->ev.exclude_kernel = 1;
				strncat(s->ev.name, ":u",
					sizeof(s->ev.name) -
					strlen(s->ev.name) - 1);
				k--;
				continue;
			}
			if (o->defaults && k == 0 &&
			    (errno == ENODEV || errno == EINVAL ||
			     errno == ENOSPC || errno == EOPNOTSUPP)) {
				s->unsupported = 1;
				break;
			}
			pc_open_error(&s->ev, &a, errno);
			return -1;
		}
	}
	return 0;
}

/* The counter of group @lead on CPU @k that @id names, or -1. */
static int by_id(const struct stat_state *st, int lead, int k, uint64_t id)
{
	int j;

	for (j = lead; j < st->nr; j++)
		if (!st->c[j].unsupported && group_of(st->c, j) == lead &&
		    st->c[j].id[k] == id)
			return j;
	return -1;
}

/*
 * Add a group read of leader @lead on CPU @k (@w, @words words: nr,
 * enabled, running, then nr x { value, id }) to @n, the counters its
 * ids name. Each takes the group's times, the leader's: a member runs
 * exactly when its leader does, and is enabled from its open while
 * the leader waits for the command's exec.
 */
static void take_group(const struct stat_state *st, const uint64_t *w,
		       size_t words, int lead, int k, struct stat_count *n)
{
	uint64_t g;
	int j;

	if (words < 3 || w[0] > (words - 3) / 2)
		return;
	for (g = 0; g < w[0]; g++) {
		j = by_id(st, lead, k, w[4 + 2 * g]);
		if (j < 0)
			continue;
		n[j].val += w[3 + 2 * g];
		n[j].ena += w[1];
		n[j].run += w[2];
		n[j].got = 1;
	}
}

/* One read of a leader's group: the bytes, or -1. */
static ssize_t read_group(struct stat_state *st, int fd)
{
	size_t size = st->nr_words * sizeof(*st->words);
	struct perf_counter_read_buf rb = {
		.addr = (uintptr_t)st->words, .size = size,
	};

	/* an inherit_stat leader's read() gives its records instead */
	if (st->o->per_thread)
		return ioctl(fd, PERF_COUNTER_IOC_READ, &rb);
	return read(fd, st->words, size);
}

/* Every counter's value and times now, summed over the CPUs. */
static void read_counts(struct stat_state *st)
{
	int i, k, ncpu = nr_cpus_of(st->o);
	ssize_t n;

	memset(st->sum, 0, st->nr * sizeof(*st->sum));
	for (i = 0; i < st->nr; i++) {
		if (!leads(st->c, i))
			continue;
		for (k = 0; k < ncpu; k++) {
			n = read_group(st, st->c[i].fd[k]);
			if (n > 0)
				take_group(st, st->words, n / 8, i, k,
					   st->sum);
		}
	}
	for (i = 0; i < st->nr; i++) {
		st->c[i].val = st->sum[i].val;
		st->c[i].ena = st->sum[i].ena;
		st->c[i].run = st->sum[i].run;
	}
}

static void close_all(struct stat_state *st)
{
	int i, k, ncpu = nr_cpus_of(st->o);

	for (i = 0; i < st->nr; i++)
		for (k = 0; k < ncpu && !st->c[i].unsupported; k++)
			close(st->c[i].fd[k]);
}

/* The run's counts, scaled, to the runs' means and deviations. */
static void account_run(struct stat_state *st)
{
	int i;

	for (i = 0; i < st->nr; i++) {
		struct stat_counter *s = &st->c[i];

		if (s->unsupported)
			continue;
		/* a failed read leaves nothing to scale by: take it as run */
		if (s->ena < s->run)
			s->ena = s->run;
		if (s->run) {
			s->scaled[s->runs_counted] = s->run < s->ena ?
				(double)s->val * s->ena / s->run :
				(double)s->val;
			s->sum_share += (double)s->run / s->ena;
			s->runs_counted++;
		}
	}
}

/* --per-thread: the threads, by tid, and their names. */

static uint32_t tid_hash(uint32_t tid)
{
	return tid * 2654435761U;
}

/* The slot of @tid's first life in the hash, or the empty one to use. */
static int *tid_slot(struct stat_threads *th, uint32_t tid)
{
	size_t i, mask = th->nr_slot - 1;

	for (i = tid_hash(tid) & mask; th->slot[i];
	     i = (i + 1) & mask)
		if (th->t[th->slot[i] - 1].tid == tid)
			break;
	return &th->slot[i];
}

/* Room in the hash for one more tid: doubled when half full. */
static void tid_room(struct stat_threads *th)
{
	int *old = th->slot;
	size_t i, old_nr = th->nr_slot;

	if (2 * (th->nr_tids + 1) <= th->nr_slot)
		return;
	th->nr_slot = th->nr_slot ? 2 * th->nr_slot : 256;
	th->slot = pc_zalloc(th->nr_slot * sizeof(*th->slot));
	for (i = 0; i < old_nr; i++)
		if (old[i])
			*tid_slot(th, th->t[old[i] - 1].tid) = old[i];
	free(old);
}

static int new_thread(struct stat_state *st, uint32_t pid, uint32_t tid)
{
	struct stat_threads *th = &st->th;
	struct stat_thread *t;

	th->t = pc_grow(th->t, &th->cap, th->nr + 1, sizeof(*th->t));
	t = &th->t[th->nr];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->next = -1;
	t->n = pc_zalloc(st->nr * sizeof(*t->n));
	return th->nr++;
}

/*
 * The life of thread @tid that leader @lead's TOTALS record is of: the
 * first whose record from @lead has not come yet. A tid is used again
 * once its thread is gone, and each queue tells of the lives in the
 * order they ended; the queues, read one after the other, need not
 * have reached the same one.
 */
static int thread_life(struct stat_state *st, uint32_t pid, uint32_t tid,
		       int lead)
{
	struct stat_threads *th = &st->th;
	int *slot, i, last = -1;

	tid_room(th);
	slot = tid_slot(th, tid);
	for (i = *slot - 1; i >= 0; last = i, i = th->t[i].next)
		if (!th->t[i].n[lead].got)
			return i;
	i = new_thread(st, pid, tid);
	if (last >= 0) {
		th->t[last].next = i;
	} else {
		*slot = i + 1;
		th->nr_tids++;
	}
	return i;
}

/* Thread life @i's name as pc_tasks_name() gives it now. */
static void name_thread(struct stat_threads *th, int i)
{
	struct stat_thread *t = &th->t[i];
	char buf[24];

	snprintf(t->name, sizeof(t->name), "%s",
		 pc_tasks_name(th->tasks, t->pid, t->tid, buf, sizeof(buf)));
	t->named = 1;
}

/*
 * A TOTALS record of leader @lead: what the task counted in its life,
 * its group's read words after the task's pid, tid and time. The side-
 * band leader's is named now, its COMM records all read before it.
 */
static void take_totals(struct stat_state *st, int lead, const char *body,
			size_t blen)
{
	struct perf_counter_totals tot;
	size_t words;
	int i;

	if (blen < sizeof(tot))
		return;
	memcpy(&tot, body, sizeof(tot));
	words = (blen - sizeof(tot)) / 8;
	if (words > st->nr_words)
		return;		/* more than this group has */
	memcpy(st->words, body + sizeof(tot), words * 8);
	i = thread_life(st, tot.pid, tot.tid, lead);
	take_group(st, st->words, words, lead, 0, st->th.t[i].n);
	st->th.t[i].n[lead].got = 1;
	if (lead == st->th.sb)
		name_thread(&st->th, i);
}

/* One record of leader @lead's queue: totals, names, drops. */
static void take_record(struct stat_state *st, int lead, uint32_t type,
			const char *body, size_t blen)
{
	struct perf_counter_comm comm;
	struct perf_counter_task task;
	uint64_t lost;

	switch (type) {
	case PERF_COUNTER_REC_TOTALS:
		take_totals(st, lead, body, blen);
		break;
	case PERF_COUNTER_REC_COMM:
		if (blen < sizeof(comm))
			break;
		memcpy(&comm, body, sizeof(comm));
		pc_tasks_set_comm(st->th.tasks, comm.pid, comm.tid, comm.comm,
				  !!(comm.flags & PERF_COUNTER_COMM_EXEC));
		break;
	case PERF_COUNTER_REC_FORK:
		if (blen < sizeof(task))
			break;
		memcpy(&task, body, sizeof(task));
		pc_tasks_fork(st->th.tasks, task.pid, task.tid, task.ppid,
			      task.ptid);
		break;
	case PERF_COUNTER_REC_LOST:
	case PERF_COUNTER_REC_LOST_SIDEBAND:
		if (blen < sizeof(lost))
			break;
		memcpy(&lost, body, sizeof(lost));
		st->th.lost += lost;
		break;
	default:
		break;	/* EXIT: the TOTALS record tells of it */
	}
}

/* The records one read() of leader @lead's queue gave (extended format). */
static void take_records(struct stat_state *st, int lead, const char *buf,
			 size_t len)
{
	struct perf_counter_record_header h;
	size_t off = 0;

	while (len - off >= sizeof(h)) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;
		take_record(st, lead, h.type, buf + off + sizeof(h),
			    h.size - sizeof(h));
		off += h.size;
	}
}

/*
 * Read every leader's queue to its end, without blocking; the side-
 * band leader's first, so that the names come before the TOTALS of
 * the others that a later read of it would give.
 */
static void drain(struct stat_state *st)
{
	static char buf[QUEUE_BYTES];
	int i, lead;
	ssize_t n;

	for (i = -1; i < st->nr; i++) {
		lead = i < 0 ? st->th.sb : i;
		if (lead < 0 || (i >= 0 && lead == st->th.sb) ||
		    !leads(st->c, lead))
			continue;
		while ((n = read(st->c[lead].fd[0], buf, sizeof(buf))) > 0)
			take_records(st, lead, buf, n);
	}
}

/*
 * The records the queues dropped: the kernel's count (the LOST records
 * a full queue could not hold are in it), or those told, if more.
 */
static void count_lost(struct stat_state *st)
{
	uint64_t lost, all = 0;
	int i;

	for (i = 0; i < st->nr; i++)
		if (leads(st->c, i) &&
		    !ioctl(st->c[i].fd[0], PERF_COUNTER_IOC_LOST, &lost))
			all += lost;
	if (all > st->th.lost)
		st->th.lost = all;
	if (st->th.lost)
		pc_warn("%llu records lost (a queue was full): threads may be missing or unnamed",
			(unsigned long long)st->th.lost);
}

/*
 * One counter's line of output, of the whole count (the runs' mean), of
 * an interval or of a thread: what every format prints of it.
 */
struct row {
	const struct stat_counter *s;
	int counted;		/* it ran: a value to print */
	double value;		/* the estimate, scaled */
	double sd;		/* -r: deviation, % of the mean */
	double sum_share;	/* running/enabled, over runs_counted */
	int runs_counted;
	uint64_t raw, ena, run;	/* unscaled: the last run's */
};

static void mean_sd(const double *v, int n, double *mean, double *sd_pct)
{
	double m = 0, var = 0;
	int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n ? n : 1;
	for (i = 0; i < n; i++)
		var += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd_pct = n > 1 && m ? 100.0 * sqrt(var / (n - 1)) / m : 0;
}

/* Counter @s's row of the whole count: its runs. */
static void run_row(const struct stat_counter *s, struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->raw = s->val;
	r->ena = s->ena;
	r->run = s->run;
	r->sum_share = s->sum_share;
	r->runs_counted = s->runs_counted;
	if (s->unsupported || !s->runs_counted)
		return;
	r->counted = 1;
	mean_sd(s->scaled, s->runs_counted, &r->value, &r->sd);
}

/* Counter @s's row of counts @val, @ena, @run alone, scaled by them. */
static void count_row(const struct stat_counter *s, uint64_t val,
		      uint64_t ena, uint64_t run, struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	if (s->unsupported)
		return;
	if (ena < run)
		ena = run;
	r->raw = val;
	r->ena = ena;
	r->run = run;
	if (!run)
		return;
	r->counted = 1;
	r->runs_counted = 1;
	r->value = run < ena ? (double)val * ena / run : (double)val;
	r->sum_share = (double)run / ena;
}

/* The value of event @base counted in @ref's modes (any, if !@ref), or -1. */
static double value_of(const struct row *r, int nr, const char *base,
		       const struct pc_event *ref)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (!is_base(&r[i].s->ev, base) || !r[i].counted ||
		    (ref && !same_modes(&r[i].s->ev, ref)))
			continue;
		return r[i].value;
	}
	return -1;
}

/*
 * The derived figure of row @i among @r (the rows of one count, one
 * interval or one thread): a value and what it is, or 0.
 */
static int metric(const struct row *r, int nr, int i, double elapsed_ns,
		  double *val, const char **unit)
{
	const struct pc_event *ev = &r[i].s->ev;
	double v, d;

	if (!r[i].counted)
		return 0;
	v = r[i].value;
	if (pc_event_is_clock(ev)) {
		*val = elapsed_ns ? v / elapsed_ns : 0;
		*unit = "CPUs utilized";
		return 1;
	}
	d = -1;
	if (is_base(ev, "instructions"))
		d = value_of(r, nr, "cycles", ev);
	else if (is_base(ev, "cache-misses"))
		d = value_of(r, nr, "cache-references", ev);
	else if (is_base(ev, "branch-misses"))
		d = value_of(r, nr, "branches", ev);
	if (is_base(ev, "instructions") && d > 0) {
		*val = v / d;
		*unit = "insns per cycle";
		return 1;
	}
	if (is_base(ev, "cache-misses") && d > 0) {
		*val = 100.0 * v / d;
		*unit = "% of all cache refs";
		return 1;
	}
	if (is_base(ev, "branch-misses") && d > 0) {
		*val = 100.0 * v / d;
		*unit = "% of all branches";
		return 1;
	}
	/* a rate per second of the task's time, in the unit that reads */
	d = value_of(r, nr, "task-clock", NULL);
	if (d > 0) {
		*val = v * 1e9 / d;
		*unit = "/sec";
		if (*val >= 1e6) {
			*val /= 1e6;
			*unit = "M/sec";
		} else if (*val >= 1e3) {
			*val /= 1e3;
			*unit = "K/sec";
		}
		return 1;
	}
	return 0;
}

/*
 * What a line is of, printed before its count: the whole count
 * (nothing; "summary" in -I's CSV), an interval (its end, ns since the
 * start), or a thread.
 */
struct at {
	int interval;
	uint64_t ns;
	int summary;
	const struct stat_thread *t;
};

/*
 * @s for a CSV field or the table: as pc_escaped() gives it (bytes that
 * are not printable ASCII, and the backslash, as \ooo), and any byte
 * of @sep as well, since fields are not quoted.
 */
static char *field(const char *s, const char *sep, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	for (; *p && n + 5 <= len; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\' &&
		    !strchr(sep, *p))
			buf[n++] = *p;
		else
			n += snprintf(buf + n, len - n, "\\%03o", *p);
	}
	buf[n < len ? n : len - 1] = '\0';
	return buf;
}

static void csv_row(FILE *f, const struct row *rows, int nr, int i,
		    int runs, double elapsed, const char *sep)
{
	const struct row *r = &rows[i];
	const struct stat_counter *s = r->s;
	int clock = pc_event_is_clock(&s->ev);
	double mv;
	const char *mu;

	if (!r->counted) {
		fprintf(f, "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n",
			s->unsupported ? "<not supported>" :
			"<not counted>", sep, clock ? "msec" : "", sep,
			s->ev.name, sep, "0.00", sep, "0", sep,
			"0", sep, "0", sep, "", sep, "", sep, "");
		return;
	}
	if (clock)
		fprintf(f, "%.2f%smsec", r->value / 1e6, sep);
	else
		fprintf(f, "%.0f%s", r->value, sep);
	fprintf(f, "%s%s%s%.2f%s%llu%s%llu%s%llu%s", sep, s->ev.name,
		sep, 100.0 * r->sum_share / r->runs_counted, sep,
		(unsigned long long)r->raw, sep,
		(unsigned long long)r->ena, sep,
		(unsigned long long)r->run, sep);
	if (runs > 1)
		fprintf(f, "%.2f", r->sd);
	fputs(sep, f);
	if (metric(rows, nr, i, elapsed, &mv, &mu))
		fprintf(f, "%.4f%s%s\n", mv, sep, mu);
	else
		fprintf(f, "%s\n", sep);
}

static void csv_at(FILE *f, const struct at *at, const char *sep)
{
	char buf[4 * sizeof(at->t->name) + 1];

	if (at->interval)
		fprintf(f, "%llu.%09llu%s", (unsigned long long)at->ns /
			1000000000, (unsigned long long)at->ns % 1000000000,
			sep);
	else if (at->summary)
		fprintf(f, "summary%s", sep);
	else if (at->t)
		fprintf(f, "%s-%u%s", field(at->t->name, sep, buf,
					    sizeof(buf)), at->t->tid, sep);
}

/*
 * One JSON object: what the line is of, then the count; a value that
 * is not there is "<not supported>" or "<not counted>", as perf's.
 */
static void json_row(FILE *f, const struct at *at, const struct row *rows,
		     int nr, int i, int runs, double elapsed)
{
	const struct row *r = &rows[i];
	int clock = pc_event_is_clock(&r->s->ev);
	char label[48];
	double mv;
	const char *mu;

	fputc('{', f);
	if (at->interval)
		fprintf(f, "\"interval\" : %llu.%09llu, ",
			(unsigned long long)at->ns / 1000000000,
			(unsigned long long)at->ns % 1000000000);
	if (at->t) {
		snprintf(label, sizeof(label), "%s-%u", at->t->name,
			 at->t->tid);
		fputs("\"thread\" : ", f);
		pc_json_str(f, label);
		fprintf(f, ", \"pid\" : %u, \"tid\" : %u, ", at->t->pid,
			at->t->tid);
	}
	fputs("\"counter-value\" : ", f);
	if (!r->counted)
		fprintf(f, "\"%s\"", r->s->unsupported ? "<not supported>" :
			"<not counted>");
	else if (clock)
		fprintf(f, "%.2f", r->value / 1e6);
	else
		fprintf(f, "%.0f", r->value);
	fprintf(f, ", \"unit\" : \"%s\", \"event\" : ", clock ? "msec" : "");
	pc_json_str(f, r->s->ev.name);
	fprintf(f, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f",
		r->counted ? (unsigned long long)r->run : 0ULL,
		r->counted ? 100.0 * r->sum_share / r->runs_counted : 0.0);
	if (r->counted && runs > 1)
		fprintf(f, ", \"variance\" : %.2f", r->sd);
	if (metric(rows, nr, i, elapsed, &mv, &mu)) {
		fprintf(f, ", \"metric-value\" : %.6f, \"metric-unit\" : ", mv);
		pc_json_str(f, mu);
	}
	fputs("}\n", f);
}

/* One line of the table, written without its trailing blanks. */
struct line {
	char buf[512];
	size_t len;
};

static void lprintf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n :
		  sizeof(l->buf) - l->len - 1;
}

static void lflush(struct line *l, FILE *f)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	fprintf(f, "%.*s\n", (int)l->len, l->buf);
	l->len = 0;
}

/* The time of an interval, the thread as perf's --per-thread has it. */
static void table_at(struct line *l, const struct at *at)
{
	char buf[4 * sizeof(at->t->name) + 1];

	if (at->interval)
		lprintf(l, "%6llu.%09llu", (unsigned long long)at->ns /
			1000000000, (unsigned long long)at->ns % 1000000000);
	else if (at->t)
		lprintf(l, "%16s-%-8u", pc_escaped(at->t->name, buf,
						   sizeof(buf)), at->t->tid);
}

static void table_row(struct line *l, const struct row *rows, int nr, int i,
		      int runs, double elapsed)
{
	const struct row *r = &rows[i];
	const struct stat_counter *s = r->s;
	double share, mv;
	const char *mu;
	char buf[40];
	int more;

	if (!r->counted) {
		lprintf(l, "  %18s  %s", s->unsupported ?
			"<not supported>" : "<not counted>", s->ev.name);
		return;
	}
	if (pc_event_is_clock(&s->ev))
		lprintf(l, "  %13.2f msec  %-24s", r->value / 1e6, s->ev.name);
	else
		lprintf(l, "  %18s  %-24s",
			pc_commas((uint64_t)(r->value + 0.5), buf,
				  sizeof(buf)), s->ev.name);
	share = r->sum_share / r->runs_counted;
	more = runs > 1 || share < 0.99995;
	if (metric(rows, nr, i, elapsed, &mv, &mu))
		lprintf(l, " # %10.3f %-*s", mv, more ? 20 : 0, mu);
	else if (more)
		lprintf(l, "   %10s %-20s", "", "");
	if (runs > 1)
		lprintf(l, " ( +-%6.2f%% )", r->sd);
	if (share < 0.99995)
		lprintf(l, "  (%.2f%% running; scaled from %s, +-%.2f%%)",
			100.0 * share, pc_commas(r->raw, buf, sizeof(buf)),
			100.0 * (1 - share));
	if (r->runs_counted < runs)
		lprintf(l, "  (counted in %d of %d runs)", r->runs_counted,
			runs);
}

/* Row @i of @rows in the format asked for, after what it is of. */
static void print_row(struct stat_state *st, const struct at *at,
		      const struct row *rows, int i, int runs,
		      double elapsed)
{
	struct line l = { 0 };

	if (st->o->json) {
		json_row(st->out, at, rows, st->nr, i, runs, elapsed);
	} else if (st->o->sep) {
		csv_at(st->out, at, st->o->sep);
		csv_row(st->out, rows, st->nr, i, runs, elapsed, st->o->sep);
	} else {
		table_at(&l, at);
		table_row(&l, rows, st->nr, i, runs, elapsed);
		lflush(&l, st->out);
	}
}

/* -j's last line: what was counted, for how long, how many times. */
static void json_summary(struct stat_state *st, const char *what,
			 int runs, const double *elapsed)
{
	double el, sd;

	mean_sd(elapsed, runs, &el, &sd);
	fputs("{\"target\" : ", st->out);
	pc_json_str(st->out, what);
	fprintf(st->out, ", \"runs\" : %d, \"seconds-time-elapsed\" : %.9f",
		runs, el / 1e9);
	if (runs > 1)
		fprintf(st->out, ", \"variance\" : %.2f", sd);
	if (st->o->interval_ms)
		fprintf(st->out, ", \"intervals\" : %d", st->intervals);
	if (st->o->per_thread)
		fprintf(st->out, ", \"threads\" : %zu, \"lost\" : %llu",
			st->th.nr, (unsigned long long)st->th.lost);
	fputs("}\n", st->out);
}

static void table_head(FILE *f, const char *what, int runs)
{
	fprintf(f, "\n Performance counter stats for %s", what);
	if (runs > 1)
		fprintf(f, " (%d runs)", runs);
	fprintf(f, ":\n\n");
}

static void table_foot(FILE *f, int runs, const double *elapsed)
{
	double el, el_sd;

	mean_sd(elapsed, runs, &el, &el_sd);
	fprintf(f, "\n  %15.9f seconds time elapsed", el / 1e9);
	if (runs > 1)
		fprintf(f, "   ( +-%6.2f%% )", el_sd);
	fprintf(f, "\n\n");
}

/* The whole count: the runs' means, in the format asked for. */
static void print_summary(struct stat_state *st, const char *what, int runs,
			  const double *elapsed)
{
	struct row *rows = pc_zalloc(st->nr * sizeof(*rows));
	struct at at = { .summary = st->o->interval_ms > 0 };
	const struct stat_opts *o = st->o;
	double el, sd;
	int i;

	mean_sd(elapsed, runs, &el, &sd);
	for (i = 0; i < st->nr; i++)
		run_row(&st->c[i], &rows[i]);
	if (!o->sep && !o->json)
		table_head(st->out, what, runs);
	for (i = 0; i < st->nr; i++)
		print_row(st, &at, rows, i, runs, el);
	if (o->json)
		json_summary(st, what, runs, elapsed);
	else if (!o->sep)
		table_foot(st->out, runs, elapsed);
	free(rows);
}

/*
 * -I: the counts since the last interval (or the start), each scaled by
 * its own enabled and running times in it, and its metric of it; then
 * this read is the next interval's start.
 */
static void print_interval(struct stat_state *st, uint64_t now)
{
	struct row *rows = pc_zalloc(st->nr * sizeof(*rows));
	struct at at = { .interval = 1, .ns = now - st->t0 };
	int i;

	if (!st->intervals && !st->o->sep && !st->o->json)
		fprintf(st->out, "#%15s  %18s  %s\n", "time", "counts",
			"events");
	for (i = 0; i < st->nr; i++) {
		struct stat_counter *s = &st->c[i];

		count_row(s, s->val - s->pval, s->ena - s->pena,
			  s->run - s->prun, &rows[i]);
	}
	for (i = 0; i < st->nr; i++)
		print_row(st, &at, rows, i, 1, now - st->last);
	for (i = 0; i < st->nr; i++) {
		st->c[i].pval = st->c[i].val;
		st->c[i].pena = st->c[i].ena;
		st->c[i].prun = st->c[i].run;
	}
	st->last = now;
	st->intervals++;
	fflush(st->out);
}

/* -I: an interval's end has come: its counts. */
static void interval_due(struct stat_state *st)
{
	uint64_t now = pc_now_ns();
	uint64_t step = st->o->interval_ms * 1000000ULL;

	if (!st->o->interval_ms || now < st->tick)
		return;
	read_counts(st);
	print_interval(st, now);
	/* one interval for the time a slow machine lost, not several */
	while (st->tick <= now)
		st->tick += step;
}

/* Did any counter count since the last interval? */
static int counted_since(const struct stat_state *st)
{
	int i;

	for (i = 0; i < st->nr; i++)
		if (st->c[i].ena != st->c[i].pena)
			return 1;
	return 0;
}

/*
 * The end of a run: the last records, the last counts and, for -I, the
 * last interval, which ends with them, so that the intervals add up to
 * the count exactly (unless nothing counted since the last: the
 * command ended right at an interval's end).
 */
static void end_run(struct stat_state *st, uint64_t now)
{
	if (st->o->per_thread) {
		drain(st);
		count_lost(st);
	}
	read_counts(st);
	if (st->o->interval_ms && (counted_since(st) || !st->intervals))
		print_interval(st, now);
	account_run(st);
	close_all(st);
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct stat_thread *x = *(struct stat_thread * const *)a;
	const struct stat_thread *y = *(struct stat_thread * const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Thread @t's rows: its own counts, scaled by its own times. */
static void thread_rows(struct stat_state *st, const struct stat_thread *t,
			struct row *rows)
{
	int i;

	for (i = 0; i < st->nr; i++)
		count_row(&st->c[i], t->n[i].val, t->n[i].ena, t->n[i].run,
			  &rows[i]);
}

/*
 * --per-thread: a line for each event and thread, event by event as
 * perf's, the threads by pid and tid (the command's first); a thread's
 * metrics are of its own counts (CPUs utilized: of the whole run's
 * elapsed time).
 */
static void print_threads(struct stat_state *st, const char *what,
			  const double *elapsed)
{
	struct stat_thread **t = pc_zalloc((st->th.nr + 1) * sizeof(*t));
	struct row *rows = pc_zalloc(st->nr * sizeof(*rows));
	const struct stat_opts *o = st->o;
	struct at at = { 0 };
	size_t k;
	int i;

	for (k = 0; k < st->th.nr; k++) {
		if (!st->th.t[k].named)
			name_thread(&st->th, k);
		t[k] = &st->th.t[k];
	}
	qsort(t, st->th.nr, sizeof(*t), by_pid_tid);
	if (!o->sep && !o->json)
		table_head(st->out, what, 1);
	for (i = 0; i < st->nr; i++) {
		for (k = 0; k < st->th.nr; k++) {
			at.t = t[k];
			thread_rows(st, t[k], rows);
			print_row(st, &at, rows, i, 1, elapsed[0]);
		}
	}
	if (o->json)
		json_summary(st, what, 1, elapsed);
	else if (!o->sep)
		table_foot(st->out, 1, elapsed);
	free(rows);
	free(t);
}

/* read after waitpid() returns, written before fork(): no caching */
static sig_atomic_t got_sigint;
static pid_t command_pid;

/*
 * SIGINT while a command runs: the tool stays to print what was
 * counted, stops repeating (-r) and passes a SIGINT sent to it alone
 * (kill, not the terminal's, which the command got too) on to the
 * command. A handler, not SIG_IGN: exec resets it in the command.
 */
static void on_sigint(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_sigint = 1;
	if (command_pid > 0 && si && si->si_code == SI_USER)
		kill(command_pid, SIGINT);
}

/* ns from now until @t, 0 if it is past */
static uint64_t ns_until(uint64_t t)
{
	uint64_t now = pc_now_ns();

	return t > now ? t - now : 0;
}

/*
 * Until SIGINT or SIGTERM, or until the task counted (-p) is gone;
 * -I's intervals meanwhile.
 */
static void wait_window(struct stat_state *st)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (;;) {
		uint64_t ns = 100000000;
		struct timespec tick;

		if (st->o->interval_ms && ns_until(st->tick) < ns)
			ns = ns_until(st->tick);
		tick.tv_sec = ns / 1000000000;
		tick.tv_nsec = ns % 1000000000;
		if (sigtimedwait(&set, NULL, &tick) >= 0)
			break;
		if (st->o->pid > 0 && kill(st->o->pid, 0) < 0 &&
		    errno == ESRCH)
			break;
		interval_due(st);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/*
 * The poll() timeout in ms: until the next interval's end (-I), at most
 * DRAIN_MS while queues fill (--per-thread), and a short tick when the
 * command's end cannot be polled for; -1 for none of those.
 */
static int poll_timeout(const struct stat_state *st, int pidfd)
{
	int ms = -1;

	if (st->o->interval_ms)
		ms = (ns_until(st->tick) + 999999) / 1000000;
	if (st->o->per_thread && (ms < 0 || ms > DRAIN_MS))
		ms = DRAIN_MS;
	if (pidfd < 0 && (ms < 0 || ms > NO_PIDFD_MS))
		ms = NO_PIDFD_MS;
	return ms;
}

/*
 * Sleep until the command ends (@pidfd readable), an interval ends,
 * or a leader's queue has records to read (--per-thread). A queue
 * that says it hung up is polled no more. Return: whether the command
 * ended.
 */
static int wait_event(struct stat_state *st, int pidfd)
{
	struct pollfd *p = pc_zalloc((st->nr + 1) * sizeof(*p));
	int i, n = 0, ended;

	p[n].fd = pidfd;
	p[n++].events = POLLIN;
	for (i = 0; st->o->per_thread && i < st->nr; i++) {
		p[n].fd = leads(st->c, i) && !st->c[i].quiet ?
			  st->c[i].fd[0] : -1;
		p[n++].events = POLLIN;
	}
	poll(p, n, poll_timeout(st, pidfd));
	ended = pidfd >= 0 && (p[0].revents & POLLIN);
	for (i = 1; i < n; i++)
		if (p[i].revents & (POLLHUP | POLLERR | POLLNVAL))
			st->c[i - 1].quiet = 1;
	free(p);
	return ended;
}

/*
 * Until the command ends, its status in *@status. -I prints intervals
 * meanwhile and --per-thread reads the queues, so that they do not
 * overflow; an interval due as the command ends is the last one,
 * printed after it.
 */
static void watch_command(struct stat_state *st, pid_t child, int *status)
{
	int pidfd;

	if (!st->o->interval_ms && !st->o->per_thread) {
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
		return;
	}
	pidfd = syscall(__NR_pidfd_open, child, 0);
	while (waitpid(child, status, WNOHANG) == 0) {
		int ended = wait_event(st, pidfd);

		if (st->o->per_thread)
			drain(st);
		if (!ended)
			interval_due(st);
	}
	if (pidfd >= 0)
		close(pidfd);
}

enum { OPT_PER_THREAD = 256 };

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options; the index of COMMAND, or -1 to exit with *@ret. */
static int parse_opts(int argc, char **argv, struct stat_opts *o,
		      struct pc_event **evs, int *nr, int *ret)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "+e:aC:p:r:x:o:XjI:h",
				  long_opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!optarg[strspn(optarg, ",")])
				pc_die("-e '%s': no event named", optarg);
			/* it said what is wrong with the list */
			if (pc_parse_event_list(optarg, evs, nr)) {
				*ret = 1;
				return -1;
			}
			break;
		case 'a':
			o->all = 1;
			break;
		case 'C':
			o->nr_cpus = pc_parse_cpus(optarg, o->cpus, MAX_CPUS);
			if (o->nr_cpus <= 0)
				pc_die("-C %s: refused", optarg);
			break;
		case 'p':
			o->pid = pc_parse_num("-p", optarg, 1, INT_MAX);
			break;
		case 'r':
			o->runs = pc_parse_num("-r", optarg, 1, MAX_RUNS);
			break;
		case 'x':
			/* fields are not quoted: SEP must not occur in one */
			if (!*optarg ||
			    strpbrk(optarg, "0123456789.:-_%</> \t\n") ||
			    has_alpha(optarg))
				pc_die("-x '%s': a separator may not be empty or hold letters, digits, . : - _ %% < / > or blanks",
				       optarg);
			o->sep = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'X':
			o->exclusive = 1;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'I':
			/* "-I 5: a number from 10 to ...", as perf refuses */
			o->interval_ms = pc_parse_num("-I", optarg,
						      MIN_INTERVAL_MS, INT_MAX);
			break;
		case OPT_PER_THREAD:
			o->per_thread = 1;
			break;
		case 'h':
			print_help(stdout);
			*ret = 0;
			return -1;
		default:
			print_help(stderr);
			*ret = 1;
			return -1;
		}
	}
	return optind;
}

/* What cannot go together, told as perf tells it or plainer. */
static void check_opts(const struct stat_opts *o, int argc)
{
	if (!argc && o->runs > 1)
		pc_die("-r needs a COMMAND to run again");
	if (o->pid && o->nr_cpus)
		pc_die("-p counts one task; -a and -C count CPUs");
	if (o->sep && o->json)
		pc_die("-x and -j: one format or the other");
	if (o->interval_ms && o->runs > 1)
		pc_die("-I and -r: intervals are of one run (perf refuses them together too)");
	if (o->per_thread && (!argc || o->pid || o->nr_cpus))
		pc_die("--per-thread counts the threads of a COMMAND, each at its exit: not with -p, -a or -C");
	if (o->per_thread && o->runs > 1)
		pc_die("--per-thread and -r: the threads are of one run");
	if (o->per_thread && o->interval_ms)
		pc_die("--per-thread and -I: a thread's counts come at its exit, not in intervals");
}

/* What the table's head says was counted. */
static void describe(const struct stat_opts *o, int argc, char **argv,
		     char *what, size_t size)
{
	size_t l = 0;
	int i;

	if (argc) {
		l += snprintf(what + l, size - l, "'");
		for (i = 0; i < argc && l < size - 2; i++)
			l += snprintf(what + l, size - l, "%s%s",
				      i ? " " : "", argv[i]);
		if (l < size - 1)
			snprintf(what + l, size - l, "'");
	} else if (o->pid) {
		snprintf(what, size, "process id '%d'", o->pid);
	} else {
		snprintf(what, size, "%s",
			 o->all ? "all CPUs" : "the CPUs asked for");
	}
}

/* The counters of @nr events @evs, grouped, and room to read them. */
static void init_state(struct stat_state *st, struct stat_opts *o,
		       struct pc_event *evs, int nr)
{
	int i;

	st->o = o;
	st->nr = nr;
	st->c = pc_zalloc(nr * sizeof(*st->c));
	for (i = 0; i < nr; i++) {
		st->c[i].ev = evs[i];
		st->c[i].fd = pc_zalloc(MAX_CPUS * sizeof(int));
		st->c[i].id = pc_zalloc(MAX_CPUS * sizeof(uint64_t));
		st->c[i].scaled = pc_zalloc(o->runs * sizeof(double));
	}
	make_groups(st->c, nr);
	st->sum = pc_zalloc(nr * sizeof(*st->sum));
	st->nr_words = 3 + 2 * (size_t)nr;
	st->words = pc_zalloc(st->nr_words * sizeof(*st->words));
	st->th.sb = -1;
	if (o->per_thread)
		st->th.tasks = pc_tasks_new();
}

static void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigint;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { .runs = 1 };
	struct stat_state st = { 0 };
	struct pc_event *evs = NULL;
	int nr = 0, i, run, status = 0, ret = 0;
	double *elapsed;
	char what[256] = "";

	i = parse_opts(argc, argv, &o, &evs, &nr, &ret);
	if (i < 0)
		return ret;
	argv += i;
	argc -= i;
	if (!nr) {
		o.defaults = 1;
		if (pc_parse_event_list(default_events, &evs, &nr))
			return 1;
	}
	if (o.all)
		o.nr_cpus = pc_online_cpus(o.cpus, MAX_CPUS);
	if (!argc && !o.nr_cpus && !o.pid) {
		print_help(stderr);
		return 1;
	}
	check_opts(&o, argc);
	st.out = stderr;
	if (o.out) {
		st.out = fopen(o.out, "we");
		if (!st.out)
			pc_die("%s: %s", o.out, strerror(errno));
	}
	init_state(&st, &o, evs, nr);
	elapsed = pc_zalloc(o.runs * sizeof(double));

	if (argc)
		catch_sigint();
	for (run = 0; run < o.runs && !got_sigint; run++) {
		pid_t child = 0;
		int go = -1;
		uint64_t now;

		if (argc) {
			child = pc_fork_command(argv, &go);
			command_pid = child;
		}
		if (open_all(&st, o.pid ? o.pid : child, argc && !o.pid)) {
			if (child) {
				close(go);
				waitpid(child, NULL, 0);
			}
			return 1;
		}
		st.t0 = pc_now_ns();
		st.last = st.t0;
		st.tick = st.t0 + o.interval_ms * 1000000ULL;
		if (argc) {
			pc_start_command(go);
			watch_command(&st, child, &status);
			command_pid = 0;
			ret = pc_wait_status(status);
			/* no more runs; the status stays the command's */
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
				got_sigint = 1;
		} else {
			wait_window(&st);
		}
		now = pc_now_ns();
		elapsed[run] = now - st.t0;
		end_run(&st, now);
	}
	/* the runs done, if SIGINT ended them early */
	o.runs = run;

	describe(&o, argc, argv, what, sizeof(what));
	if (o.per_thread)
		print_threads(&st, what, elapsed);
	else
		print_summary(&st, what, o.runs, elapsed);
	if (st.out != stderr)
		fclose(st.out);
	return ret;
}
