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
 *
 * This file: the options, the event set and its groups, the counters
 * opened and read, the waiting for the command, the run; --per-thread's
 * records are taken in stat_threads.c, and stat_print.c prints (stat.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"
#include "stat.h"

#define MAX_RUNS	100000
#define MIN_INTERVAL_MS	10		/* -I: perf's least */
#define DRAIN_MS	100		/* queues read at least this often */
#define NO_PIDFD_MS	10		/* no pidfd: the command's end polled */

/* The same number on every architecture since 5.3. */
#ifndef __NR_pidfd_open
#define __NR_pidfd_open	434
#endif

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
"                SEP may not hold letters, digits, . : - _ %% < / > \\ or blanks;\n"
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
int stat_is_base(const struct pc_event *ev, const char *base)
{
	size_t l = strlen(base);

	return !strncmp(ev->name, base, l) &&
	       (!ev->name[l] || ev->name[l] == ':');
}

/* Do @a and @b count in the same modes (one :u/:k)? */
int stat_same_modes(const struct pc_event *a, const struct pc_event *b)
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
		if (stat_is_base(&c[i].ev, base) && c[i].ev.kind == PC_HW &&
		    c[i].leader == i &&
		    (!ref || stat_same_modes(&c[i].ev, ref)))
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

			if (!stat_is_base(&c[a].ev, pairs[p][0]) ||
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
int stat_leads(const struct stat_counter *c, int i)
{
	return !c[i].unsupported && group_of(c, i) == i;
}

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
	uint32_t qsize = STAT_QUEUE_BYTES;

	if (ioctl(s->fd[k], PERF_COUNTER_IOC_ID, &s->id[k]) < 0) {
		pc_warn("'%s': no counter id (PERF_COUNTER_IOC_ID): %s; this kernel cannot read a group at once",
			s->ev.name, strerror(errno));
		return -1;
	}
	if (!queued)
		return 0;
	/* the default 64 KiB does, if RLIMIT_MEMLOCK will not have more */
	if (ioctl(s->fd[k], PERF_COUNTER_IOC_QUEUE_SIZE, &qsize) < 0)
		pc_warn("'%s': its queue stays at 64 KiB: %s; records may be lost",
			s->ev.name, strerror(errno));
	if (fcntl(s->fd[k], F_SETFL, O_NONBLOCK) < 0)
		pc_die("'%s': O_NONBLOCK: %s", s->ev.name, strerror(errno));
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
void stat_take_group(const struct stat_state *st, const uint64_t *w,
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
		if (!stat_leads(st->c, i))
			continue;
		st->c[i].read_failed = 0;
		for (k = 0; k < ncpu; k++) {
			n = read_group(st, st->c[i].fd[k]);
			if (n > 0)
				stat_take_group(st, st->words, n / 8, i, k,
						st->sum);
			else
				st->c[i].read_failed = 1;
		}
	}
	for (i = 0; i < st->nr; i++) {
		/*
		 * A group whose read failed keeps the counts it had: an
		 * interval's delta is never taken from a zero.
		 */
		if (st->c[st->c[i].leader].read_failed) {
			if (!st->read_warned)
				pc_warn("'%s': a read failed: its group's counts are those of the read before",
					st->c[i].ev.name);
			st->read_warned = 1;
			continue;
		}
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

/* -I: an interval's end has come: its counts. */
static void interval_due(struct stat_state *st)
{
	uint64_t now = pc_now_ns();
	uint64_t step = st->o->interval_ms * 1000000ULL;

	if (!st->o->interval_ms || now < st->tick)
		return;
	read_counts(st);
	stat_print_interval(st, now);
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
	int pass;

	/* bounded: a task that left the command's wait still writes */
	for (pass = 0; st->o->per_thread && pass < 1024; pass++)
		if (!stat_drain(st))
			break;
	if (st->o->per_thread)
		stat_count_lost(st);
	read_counts(st);
	if (st->o->interval_ms && (counted_since(st) || !st->intervals))
		stat_print_interval(st, now);
	account_run(st);
	close_all(st);
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
		p[n].fd = stat_leads(st->c, i) && !st->c[i].quiet ?
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
			stat_drain(st);
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
			o->nr_cpus = pc_parse_cpus(optarg, o->cpus,
						   STAT_MAX_CPUS);
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
			    strpbrk(optarg, "0123456789.:-_%</>\\ \t\n") ||
			    has_alpha(optarg))
				pc_die("-x '%s': a separator may not be empty or hold letters, digits, . : - _ %% < / > \\ or blanks",
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
		st->c[i].fd = pc_zalloc(STAT_MAX_CPUS * sizeof(int));
		st->c[i].id = pc_zalloc(STAT_MAX_CPUS * sizeof(uint64_t));
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
		o.nr_cpus = pc_online_cpus(o.cpus, STAT_MAX_CPUS);
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
		stat_print_threads(&st, what, elapsed);
	else
		stat_print_summary(&st, what, o.runs, elapsed);
	if (st.out != stderr)
		fclose(st.out);
	return ret;
}
