// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter stat: count a command's events (or a task's, or every
 * task's on some CPUs) and print them with what they imply.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"

#define MAX_CPUS	256
#define MAX_RUNS	100000

struct stat_counter {
	struct pc_event ev;
	int leader;		/* index of its group's leader */
	int unsupported;	/* a default event this machine lacks */
	int *fd;		/* one per CPU counted */
	double *scaled;		/* per run it counted in: runs_counted */
	uint64_t val, ena, run;	/* the last run's, summed over CPUs */
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
"                         [-x SEP] [-o FILE] [-X] [--] [COMMAND ARGS]\n"
"  -e EVENT,...  events to count (default: %s)\n"
"  -a            every CPU, every task (CAP_SYS_ADMIN)\n"
"  -C CPUS       these CPUs only, every task: 0,2-3 (CAP_SYS_ADMIN)\n"
"  -p PID        an existing task (needs the right to trace it)\n"
"  -r N          run the command N times: mean and +- standard deviation\n"
"  -x SEP        CSV with SEP between fields, one line an event:\n"
"                value,unit,event,running%%,raw count,time enabled ns,\n"
"                time running ns,stddev%%,metric,metric unit\n"
"                (10 fields always; empty where none; not quoted, so\n"
"                SEP may not hold letters, digits, . : - _ %% < / > or blanks)\n"
"  -o FILE       write the table there instead of to stderr\n"
"  -X            every group exclusive: groups take turns (multiplexed)\n"
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

struct stat_opts {
	int all, nr_cpus, cpus[MAX_CPUS];
	pid_t pid;
	int runs, exclusive, defaults;
	const char *sep, *out;
};

/* Open every counter for one run on @pid (or the CPUs); 0 or -1. */
static int open_all(struct stat_counter *c, int nr, struct stat_opts *o,
		    pid_t pid, int on_command)
{
	int i, k;

	for (i = 0; i < nr; i++) {
		struct stat_counter *s = &c[i];
		int ncpu = o->nr_cpus ? o->nr_cpus : 1;

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
			s->fd[k] = pc_open(&s->ev, &a);
			if (s->fd[k] >= 0)
				continue;
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

static void read_all(struct stat_counter *c, int nr, struct stat_opts *o)
{
	int i, k, ncpu = o->nr_cpus ? o->nr_cpus : 1;

	for (i = 0; i < nr; i++) {
		struct stat_counter *s = &c[i];

		s->val = s->ena = s->run = 0;
		if (s->unsupported)
			continue;
		for (k = 0; k < ncpu; k++) {
			uint64_t v[3];

			if (read(s->fd[k], v, sizeof(v)) == sizeof(v)) {
				s->val += v[0];
				s->ena += v[1];
				s->run += v[2];
			}
			close(s->fd[k]);
		}
	}
	for (i = 0; i < nr; i++) {
		struct stat_counter *s = &c[i];

		if (s->unsupported)
			continue;
		/*
		 * A member runs exactly when its leader does, but is enabled
		 * from its open while the leader waits for the command's
		 * exec: the group's enabled time is the leader's.
		 */
		if (s->leader != i && !c[s->leader].unsupported &&
		    c[s->leader].ena)
			s->ena = c[s->leader].ena;
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

/* The mean of event @base counted in @ref's modes, or -1. */
static double value_of(struct stat_counter *c, int nr, const char *base,
		       const struct pc_event *ref)
{
	double m, sd;
	int i;

	for (i = 0; i < nr; i++) {
		if (!is_base(&c[i].ev, base) || c[i].unsupported ||
		    !c[i].runs_counted || (ref && !same_modes(&c[i].ev, ref)))
			continue;
		mean_sd(c[i].scaled, c[i].runs_counted, &m, &sd);
		return m;
	}
	return -1;
}

/* The derived line of counter @i: a value and what it is, or 0. */
static int metric(struct stat_counter *c, int nr, int i, double elapsed_ns,
		  double *val, const char **unit)
{
	const struct pc_event *ev = &c[i].ev;
	double v, d, sd;

	if (c[i].unsupported || !c[i].runs_counted)
		return 0;
	mean_sd(c[i].scaled, c[i].runs_counted, &v, &sd);
	if (pc_event_is_clock(&c[i].ev)) {
		*val = elapsed_ns ? v / elapsed_ns : 0;
		*unit = "CPUs utilized";
		return 1;
	}
	d = -1;
	if (is_base(ev, "instructions"))
		d = value_of(c, nr, "cycles", ev);
	else if (is_base(ev, "cache-misses"))
		d = value_of(c, nr, "cache-references", ev);
	else if (is_base(ev, "branch-misses"))
		d = value_of(c, nr, "branches", ev);
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
	d = value_of(c, nr, "task-clock", NULL);
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

static void print_csv(FILE *f, struct stat_counter *c, int nr, int runs,
		      double elapsed, const char *sep)
{
	int i;

	for (i = 0; i < nr; i++) {
		struct stat_counter *s = &c[i];
		int clock = pc_event_is_clock(&s->ev);
		double m, sd, mv;
		const char *mu;

		if (s->unsupported || !s->runs_counted) {
			fprintf(f, "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n",
				s->unsupported ? "<not supported>" :
				"<not counted>", sep, clock ? "msec" : "", sep,
				s->ev.name, sep, "0.00", sep, "0", sep,
				"0", sep, "0", sep, "", sep, "", sep, "");
			continue;
		}
		mean_sd(s->scaled, s->runs_counted, &m, &sd);
		if (clock)
			fprintf(f, "%.2f%smsec", m / 1e6, sep);
		else
			fprintf(f, "%.0f%s", m, sep);
		fprintf(f, "%s%s%s%.2f%s%llu%s%llu%s%llu%s", sep, s->ev.name,
			sep, 100.0 * s->sum_share / s->runs_counted, sep,
			(unsigned long long)s->val, sep,
			(unsigned long long)s->ena, sep,
			(unsigned long long)s->run, sep);
		if (runs > 1)
			fprintf(f, "%.2f", sd);
		fputs(sep, f);
		if (metric(c, nr, i, elapsed, &mv, &mu))
			fprintf(f, "%.4f%s%s\n", mv, sep, mu);
		else
			fprintf(f, "%s\n", sep);
	}
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

static void print_table(FILE *f, struct stat_counter *c, int nr, int runs,
			double *elapsed, const char *what)
{
	double el, el_sd, mv;
	const char *mu;
	char buf[40];
	struct line l = { 0 };
	int i;

	mean_sd(elapsed, runs, &el, &el_sd);
	fprintf(f, "\n Performance counter stats for %s", what);
	if (runs > 1)
		fprintf(f, " (%d runs)", runs);
	fprintf(f, ":\n\n");
	for (i = 0; i < nr; i++) {
		struct stat_counter *s = &c[i];
		double m, sd, share;
		int more;

		if (s->unsupported || !s->runs_counted) {
			lprintf(&l, "  %18s  %s", s->unsupported ?
				"<not supported>" : "<not counted>",
				s->ev.name);
			lflush(&l, f);
			continue;
		}
		mean_sd(s->scaled, s->runs_counted, &m, &sd);
		if (pc_event_is_clock(&s->ev))
			lprintf(&l, "  %13.2f msec  %-24s", m / 1e6,
				s->ev.name);
		else
			lprintf(&l, "  %18s  %-24s",
				pc_commas((uint64_t)(m + 0.5), buf,
					  sizeof(buf)), s->ev.name);
		share = s->sum_share / s->runs_counted;
		more = runs > 1 || share < 0.99995;
		if (metric(c, nr, i, el, &mv, &mu))
			lprintf(&l, " # %10.3f %-*s", mv, more ? 20 : 0, mu);
		else if (more)
			lprintf(&l, "   %10s %-20s", "", "");
		if (runs > 1)
			lprintf(&l, " ( +-%6.2f%% )", sd);
		if (share < 0.99995)
			lprintf(&l, "  (%.2f%% running; scaled from %s, +-%.2f%%)",
				100.0 * share,
				pc_commas(s->val, buf, sizeof(buf)),
				100.0 * (1 - share));
		if (s->runs_counted < runs)
			lprintf(&l, "  (counted in %d of %d runs)",
				s->runs_counted, runs);
		lflush(&l, f);
	}
	fprintf(f, "\n  %15.9f seconds time elapsed", el / 1e9);
	if (runs > 1)
		fprintf(f, "   ( +-%6.2f%% )", el_sd);
	fprintf(f, "\n\n");
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

/* Until SIGINT or SIGTERM, or until the task counted (-p) is gone. */
static void wait_window(struct stat_opts *o)
{
	struct timespec tick = { 0, 100000000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (sigtimedwait(&set, NULL, &tick) < 0) {
		if (o->pid > 0 && kill(o->pid, 0) < 0 && errno == ESRCH)
			break;
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { .runs = 1 };
	struct stat_counter *c;
	struct pc_event *evs = NULL;
	int nr = 0, opt, i, run, status = 0, ret = 0;
	double *elapsed;
	char what[256] = "";
	FILE *out = stderr;

	while ((opt = getopt(argc, argv, "+e:aC:p:r:x:o:Xh")) != -1) {
		switch (opt) {
		case 'e':
			if (!optarg[strspn(optarg, ",")])
				pc_die("-e '%s': no event named", optarg);
			if (pc_parse_event_list(optarg, &evs, &nr))
				return 1;
			break;
		case 'a':
			o.all = 1;
			break;
		case 'C':
			o.nr_cpus = pc_parse_cpus(optarg, o.cpus, MAX_CPUS);
			if (o.nr_cpus <= 0)
				pc_die("-C %s: refused", optarg);
			break;
		case 'p':
			o.pid = pc_parse_num("-p", optarg, 1, INT_MAX);
			break;
		case 'r':
			o.runs = pc_parse_num("-r", optarg, 1, MAX_RUNS);
			break;
		case 'x':
			/* fields are not quoted: SEP must not occur in one */
			if (!*optarg ||
			    strpbrk(optarg, "0123456789.:-_%</> \t\n") ||
			    has_alpha(optarg))
				pc_die("-x '%s': a separator may not be empty or hold letters, digits, . : - _ %% < / > or blanks",
				       optarg);
			o.sep = optarg;
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'X':
			o.exclusive = 1;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 1;
		}
	}
	argv += optind;
	argc -= optind;
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
	if (!argc && o.runs > 1)
		pc_die("-r needs a COMMAND to run again");
	if (o.pid && o.nr_cpus)
		pc_die("-p counts one task; -a and -C count CPUs");
	if (o.out) {
		out = fopen(o.out, "we");
		if (!out)
			pc_die("%s: %s", o.out, strerror(errno));
	}

	c = pc_zalloc(nr * sizeof(*c));
	for (i = 0; i < nr; i++) {
		c[i].ev = evs[i];
		c[i].fd = pc_zalloc(MAX_CPUS * sizeof(int));
		c[i].scaled = pc_zalloc(o.runs * sizeof(double));
	}
	make_groups(c, nr);
	elapsed = pc_zalloc(o.runs * sizeof(double));

	if (argc) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigint;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
	}
	for (run = 0; run < o.runs && !got_sigint; run++) {
		pid_t child = 0;
		int go = -1;
		uint64_t t0;

		if (argc) {
			child = pc_fork_command(argv, &go);
			command_pid = child;
		}
		if (open_all(c, nr, &o, o.pid ? o.pid : child, argc &&
			     !o.pid)) {
			if (child) {
				close(go);
				waitpid(child, NULL, 0);
			}
			return 1;
		}
		t0 = pc_now_ns();
		if (argc) {
			pc_start_command(go);
			while (waitpid(child, &status, 0) < 0 && errno == EINTR)
				;
			command_pid = 0;
			ret = pc_wait_status(status);
			/* no more runs; the status stays the command's */
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
				got_sigint = 1;
		} else {
			wait_window(&o);
		}
		elapsed[run] = pc_now_ns() - t0;
		read_all(c, nr, &o);
	}
	/* the runs done, if SIGINT ended them early */
	o.runs = run;

	if (argc) {
		size_t l = 0;

		l += snprintf(what + l, sizeof(what) - l, "'");
		for (i = 0; i < argc && l < sizeof(what) - 2; i++)
			l += snprintf(what + l, sizeof(what) - l, "%s%s",
				      i ? " " : "", argv[i]);
		if (l < sizeof(what) - 1)
			snprintf(what + l, sizeof(what) - l, "'");
	} else if (o.pid) {
		snprintf(what, sizeof(what), "process id '%d'", o.pid);
	} else {
		snprintf(what, sizeof(what), "%s",
			 o.all ? "all CPUs" : "the CPUs asked for");
	}
	if (o.sep) {
		double el, sd;

		mean_sd(elapsed, o.runs, &el, &sd);
		print_csv(out, c, nr, o.runs, el, o.sep);
	} else {
		print_table(out, c, nr, o.runs, elapsed, what);
	}
	if (out != stderr)
		fclose(out);
	return ret;
}
