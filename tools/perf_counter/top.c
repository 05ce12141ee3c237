// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter top: sample every CPU, every task, and show the hottest
 * functions every few seconds, as 2009's kerneltop did.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc.h"

#define MAX_CPUS	256
#define NR_SHOWN	20
#define MAX_PIDS	4096	/* tasks whose mappings are kept at once */

struct top_state {
	struct pc_maps maps;
	pid_t *pids;
	int nr_pids;
	struct pc_hist h;
	uint64_t lost;
};

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter top [-e EVENT] [-c PERIOD] [-d SECS] [-n ITERATIONS]\n"
"                        [-C CPUS]\n"
"  -e EVENT       the event to sample (default cpu-clock)\n"
"  -c PERIOD      a sample every PERIOD events (default: 1000000 ns for\n"
"                 the clock events, 100000 for any other)\n"
"  -d SECS        seconds between refreshes (default 2)\n"
"  -n ITERATIONS  stop after so many refreshes (default: until SIGINT)\n"
"  -C CPUS        these CPUs only (default: every online CPU)\n"
"Needs CAP_SYS_ADMIN (or perf_event_paranoid at 0 or below).\n");
}

static void add_sample(struct top_state *st, uint32_t pid, uint64_t ip)
{
	const char *dso, *sym;
	int i, k;

	for (i = 0; pid && i < st->nr_pids; i++)
		if (st->pids[i] == (pid_t)pid)
			break;
	if (pid && i == st->nr_pids) {
		st->pids = pc_realloc(st->pids, (i + 1) * sizeof(pid_t));
		st->pids[st->nr_pids++] = pid;
		if (pc_read_maps(pid, &st->maps) <= 0) {
			/* a kernel thread, or gone: no user mappings */
			struct pc_map none = { .pid = pid, .path = "/" };

			pc_maps_add(&st->maps, &none);
		}
	}
	sym = pc_resolve(&st->maps, pid, ip, &dso, &k);
	pc_hist_add(&st->h, dso, sym, ip, k);
}

static void take_one(void *ctx, const struct pc_rec *r)
{
	struct top_state *st = ctx;

	if (r->type == PERF_COUNTER_REC_SAMPLE)
		add_sample(st, r->pid, r->ip);
	else if (r->type == PERF_COUNTER_REC_LOST)
		st->lost += r->lost;
}

/* IRQ and TID: 16 bytes a sample */
static void take(struct top_state *st, const char *buf, ssize_t len)
{
	pc_take(buf, len, PERF_RECORD_IRQ | PERF_RECORD_TID, take_one, st);
}

static void show(struct top_state *st, const struct pc_event *ev,
		 uint64_t period, int ncpu, double secs)
{
	int i;

	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("------------------------------------------------------------------------------\n");
	printf(" perf-counter top: %.0f samples/s of %s every %llu [%d CPU%s], %llu lost\n",
	       st->h.total / secs, ev->name, (unsigned long long)period,
	       ncpu, ncpu == 1 ? "" : "s", (unsigned long long)st->lost);
	printf("------------------------------------------------------------------------------\n\n");
	printf("  %8s  %6s  %-20s     %s\n\n", "samples", "pcnt", "DSO",
	       "function");
	pc_hist_sort(&st->h);
	for (i = 0; i < st->h.nr && i < NR_SHOWN; i++) {
		const struct pc_hist_entry *e = &st->h.e[i];
		char sym[32];

		if (!e->sym)
			snprintf(sym, sizeof(sym), "0x%llx",
				 (unsigned long long)e->ip);
		printf("  %8llu  %5.1f%%  ", (unsigned long long)e->count,
		       100.0 * e->count / (st->h.total ? st->h.total : 1));
		/* names from other users' maps and binaries: escaped */
		pc_print_escaped(e->dso);
		printf("%*s [%c] ", (int)(strlen(e->dso) < 20 ?
					 20 - strlen(e->dso) : 0), "",
		       e->kernel ? 'k' : '.');
		pc_print_escaped(e->sym ? e->sym : sym);
		putchar('\n');
	}
	fflush(stdout);
	st->h.nr = 0;
	st->h.total = 0;
	st->lost = 0;
	/*
	 * Past MAX_PIDS tasks (most gone by now), forget every task's
	 * mappings: the ones still sampled are read again. Only here,
	 * with no entry left that points into them.
	 */
	if (st->nr_pids > MAX_PIDS) {
		pc_maps_free(&st->maps);
		free(st->pids);
		st->pids = NULL;
		st->nr_pids = 0;
	}
}

/* set by the handler; read after each poll(), a call it may run in */
static sig_atomic_t top_stop;

static void top_on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

int cmd_top(int argc, char **argv)
{
	struct pc_sample_opts o = { .event = "cpu-clock", .delay = 2 };
	const char *ev_name;
	struct top_state st = { 0 };
	struct pollfd pfd[MAX_CPUS];
	struct sigaction sa;
	struct pc_event ev;
	uint64_t period = 0;
	int cpus[MAX_CPUS], ncpu = 0, delay = 2, iters = 0, it, opt, k, perr, live;
	static char buf[65536];

	opt = pc_sample_opts_parse(argc, argv, "ecdnC", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	ev_name = o.event;
	period = o.period;
	delay = o.delay;
	iters = o.count;
	ncpu = o.nr_cpus;
	for (k = 0; k < ncpu && k < MAX_CPUS; k++)
		cpus[k] = o.cpus[k];
	perr = pc_parse_event(ev_name, &ev);
	if (perr) {
		if (perr == -1)
			pc_unknown_event(ev_name);
		return 1;
	}
	if (!period)
		period = pc_event_is_clock(&ev) ? 1000000 : 100000;
	if (!ncpu)
		ncpu = pc_online_cpus(cpus, MAX_CPUS);
	pc_symbols_init();
	for (k = 0; k < ncpu; k++) {
		struct pc_open_args a = { .pid = -1, .cpu = cpus[k],
					  .group_fd = -1, .period = period };

		a.record_type = PERF_RECORD_IRQ | PERF_RECORD_TID;
		pfd[k].fd = pc_open(&ev, &a);
		pfd[k].events = POLLIN;
		if (pfd[k].fd < 0) {
			pc_open_error(&ev, &a, errno);
			return 1;
		}
	}
	/*
	 * SIGINT and SIGTERM end the loop: a handler without SA_RESTART,
	 * so that poll() returns at once (no signalfd: not every kernel
	 * has one, tinyconfig's does not).
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = top_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	live = ncpu;
	for (it = 0; !top_stop && (!iters || it < iters); it++) {
		uint64_t t0 = pc_now_ns(), end = t0 + delay * 1000000000ULL;
		uint64_t now;

		while (!top_stop && (now = pc_now_ns()) < end) {
			int left = (end - now) / 1000000;

			if (poll(pfd, ncpu, left > 0 ? left : 1) <= 0)
				continue;
			for (k = 0; k < ncpu; k++) {
				ssize_t n;

				if (pfd[k].revents & POLLIN) {
					n = read(pfd[k].fd, buf, sizeof(buf));
					if (n > 0)
						take(&st, buf, n);
				}
				if (!(pfd[k].revents & (POLLERR | POLLHUP |
							POLLNVAL)))
					continue;
				/* that CPU's counter is gone: poll it no more */
				pc_warn("CPU %d: its counter ended", cpus[k]);
				close(pfd[k].fd);
				pfd[k].fd = -1;
				if (!--live)
					top_stop = 1;
			}
		}
		show(&st, &ev, period, ncpu, (pc_now_ns() - t0) / 1e9);
	}
	for (k = 0; k < ncpu; k++)
		if (pfd[k].fd >= 0)
			close(pfd[k].fd);
	return 0;
}
