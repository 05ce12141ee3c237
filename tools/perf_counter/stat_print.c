// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter stat's output: a row for each counter (of the whole
 * count, the runs' mean and deviation; of an interval; of a thread),
 * the metric it implies (CPUs utilized, instructions per cycle, a
 * share of misses, a rate per second), and the three formats: the
 * table (to stderr, or -o), CSV (-x SEP: ten fields a line, after what
 * the line is of with -I or --per-thread) and JSON lines (-j).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "stat.h"

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
		if (!stat_is_base(&r[i].s->ev, base) || !r[i].counted ||
		    (ref && !stat_same_modes(&r[i].s->ev, ref)))
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
	if (stat_is_base(ev, "instructions"))
		d = value_of(r, nr, "cycles", ev);
	else if (stat_is_base(ev, "cache-misses"))
		d = value_of(r, nr, "cache-references", ev);
	else if (stat_is_base(ev, "branch-misses"))
		d = value_of(r, nr, "branches", ev);
	if (stat_is_base(ev, "instructions") && d > 0) {
		*val = v / d;
		*unit = "insns per cycle";
		return 1;
	}
	if (stat_is_base(ev, "cache-misses") && d > 0) {
		*val = 100.0 * v / d;
		*unit = "% of all cache refs";
		return 1;
	}
	if (stat_is_base(ev, "branch-misses") && d > 0) {
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
void stat_print_summary(struct stat_state *st, const char *what, int runs,
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
void stat_print_interval(struct stat_state *st, uint64_t now)
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
void stat_print_threads(struct stat_state *st, const char *what,
			const double *elapsed)
{
	struct stat_thread **t = stat_threads_sorted(st);
	struct row *rows = pc_zalloc(st->nr * sizeof(*rows));
	const struct stat_opts *o = st->o;
	struct at at = { 0 };
	size_t k;
	int i;

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
