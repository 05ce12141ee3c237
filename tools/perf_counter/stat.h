/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-counter stat, in three files: stat.c (the options, the event set
 * and its groups, opening and reading the counters, waiting, cmd_stat),
 * stat_threads.c (--per-thread: the threads' lives from the TOTALS and
 * side-band records) and stat_print.c (the rows, their metrics and the
 * table, CSV and JSON printers). What they share: the counters, the
 * options, the threads and the state of a stat.
 */
#ifndef PC_STAT_H
#define PC_STAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "pc.h"

/* -a, -C: the most CPUs counted */
#define STAT_MAX_CPUS		256
/* --per-thread: each leader's queue, and the buffer it is read into */
#define STAT_QUEUE_BYTES	(256 * 1024)
/*
 * --per-thread: the thread lives kept (a fork bomb under the tool makes
 * no more); later ones are counted in the total alone, and told.
 */
#define STAT_MAX_LIVES		(1 << 20)
/* --per-thread: reads of one queue a pass, so no queue starves the rest */
#define STAT_DRAIN_READS	8

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
	int read_failed;	/* a leader: its last group read failed */
	int *fd;		/* one per CPU counted */
	uint64_t *id;		/* each fd's PERF_COUNTER_IOC_ID */
	double *scaled;		/* per run it counted in: runs_counted */
	uint64_t val, ena, run;	/* the last read's, summed over CPUs */
	uint64_t pval, pena, prun;	/* -I: the read before */
	double sum_share;	/* running/enabled, summed over runs */
	int runs_counted;
};

struct stat_opts {
	int all, nr_cpus, cpus[STAT_MAX_CPUS];
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
	uint64_t unlisted;	/* lives past STAT_MAX_LIVES, not kept */
};

struct stat_state {
	struct stat_counter *c;
	int nr;
	struct stat_opts *o;
	FILE *out;
	struct stat_count *sum;	/* read_counts()'s, per counter */
	int read_warned;	/* a failed group read has been told */
	uint64_t *words;	/* a group read: 3 + 2 words a counter */
	size_t nr_words;
	uint64_t t0;		/* when the counting began */
	uint64_t tick, last;	/* -I: the next interval's end, the last's */
	int intervals;		/* -I: printed */
	struct stat_threads th;
};

/* stat.c: the event set and its groups, the counters read */

/* Is @ev the event @base, with or without a :u/:k modifier? */
int stat_is_base(const struct pc_event *ev, const char *base);
/* Do @a and @b count in the same modes (one :u/:k)? */
int stat_same_modes(const struct pc_event *a, const struct pc_event *b);
/* Is counter @i open and the leader of its group, read through it? */
int stat_leads(const struct stat_counter *c, int i);
/* Add group read @w (@words words) of leader @lead on CPU @k to @n. */
void stat_take_group(const struct stat_state *st, const uint64_t *w,
		     size_t words, int lead, int k, struct stat_count *n);

/* stat_threads.c: --per-thread */

/*
 * Read the leaders' queues without blocking, a few reads of each;
 * return 1 if one may hold more.
 */
int stat_drain(struct stat_state *st);
/* The records the queues dropped, into @st->th.lost; warn if any. */
void stat_count_lost(struct stat_state *st);
/* Every thread life, named, by pid and tid; an array to free(). */
struct stat_thread **stat_threads_sorted(struct stat_state *st);

/* stat_print.c: the output, in the format the options ask for */

/* The whole count: the runs' means, with the head and foot. */
void stat_print_summary(struct stat_state *st, const char *what, int runs,
			const double *elapsed);
/* -I: the counts of the interval that ends at @now; the next starts. */
void stat_print_interval(struct stat_state *st, uint64_t now);
/* --per-thread: a line for each event and thread. */
void stat_print_threads(struct stat_state *st, const char *what,
			const double *elapsed);

#endif /* PC_STAT_H */
