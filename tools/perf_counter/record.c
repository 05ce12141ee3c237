// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter record: run a command with a sampling counter on it and
 * its children, and write the samples, the event, the command and its
 * executable mappings to a file (record.h) for report.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc.h"
#include "record.h"

#define QUEUE_BYTES	(256 * 1024)

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter record [-e EVENT] [-c PERIOD | -F FREQ] [-o FILE]\n"
"                           [-g | --call-graph fp[,DEPTH]] [--] COMMAND ARGS\n"
"  -e EVENT   the event to sample (default task-clock)\n"
"  -c PERIOD  a sample every PERIOD events (ns for the clock events,\n"
"             at least 50000)\n"
"  -F FREQ    about FREQ samples a second (default 1000): a clock\n"
"             event's period is 1e9/FREQ ns; any other event's is its\n"
"             rate over a 100 ms busy loop of the tool's own, divided\n"
"             by FREQ (the kernel has no frequency mode)\n"
"  -o FILE    where to write (default perf-counter.data)\n"
"  -g         record each sample's call chain (PERF_RECORD_CALLCHAIN):\n"
"             the kernel walks the frame pointers (on PowerPC the back\n"
"             chain), so build the program with -fno-omit-frame-pointer\n"
"  --call-graph fp[,DEPTH]\n"
"             -g, with at most DEPTH addresses a chain (1 to 255 and\n"
"             kernel.perf_event_max_stack; default 127)\n"
"Every sample has the IP, pid/tid and time (PERF_RECORD_IRQ|TID|TIME).\n"
"Exit status: the command's (128 + N if signal N killed it).\n");
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

static void spin_100ms(void)
{
	uint64_t end = pc_now_ns() + 100000000ULL;
	unsigned long x = 0;

	while (pc_now_ns() < end) {
		unsigned long i;

		for (i = 0; i < 10000; i++) {
			x += i;
			__asm__ __volatile__("" : "+r" (x));
		}
	}
}

/* -F on an event that is no clock: a period from its rate here. */
static uint64_t calibrate(const struct pc_event *ev, unsigned int freq)
{
	struct pc_open_args a = { .pid = 0, .cpu = -1, .group_fd = -1 };
	uint64_t v[3] = { 0 }, t0;
	double rate;
	int fd = pc_open(ev, &a);

	if (fd < 0) {
		pc_open_error(ev, &a, errno);
		exit(1);
	}
	t0 = pc_now_ns();
	spin_100ms();
	if (read(fd, v, sizeof(v)) != sizeof(v))
		v[0] = 0;
	close(fd);
	rate = v[0] * 1e9 / (double)(pc_now_ns() - t0);
	if (rate / freq < 1) {
		pc_warn("'%s' counted %llu in a 100 ms loop: -F %u needs a\n"
			"  rate; sampling every 100000 events instead (-c)",
			ev->name, (unsigned long long)v[0], freq);
		return 100000;
	}
	return (uint64_t)(rate / freq);
}

struct rec_state {
	FILE *f;
	uint64_t record_type;
	struct pc_maps maps;
	pid_t *pids;
	int nr_pids;
	uint64_t samples, lost;
	char self_exe[PATH_MAX];
};

/* Replace @pid's saved mappings with what /proc shows after its exec. */
static void snapshot_maps(struct rec_state *st, pid_t pid)
{
	char path[64], exe[PATH_MAX];
	struct pc_maps fresh = { NULL, 0 };
	ssize_t n;
	int i, j;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	if (!strcmp(exe, st->self_exe))
		return;		/* not yet exec'd */
	if (pc_read_maps(pid, &fresh) <= 0) {
		pc_maps_free(&fresh);
		return;
	}
	for (i = j = 0; i < st->maps.nr; i++) {
		if (st->maps.map[i].pid == (uint32_t)pid)
			free(st->maps.map[i].path);
		else
			st->maps.map[j++] = st->maps.map[i];
	}
	st->maps.nr = j;
	for (i = 0; i < fresh.nr; i++)
		pc_maps_add(&st->maps, &fresh.map[i]);
	pc_maps_free(&fresh);
}

static void saw_pid(struct rec_state *st, pid_t pid)
{
	int i;

	for (i = 0; i < st->nr_pids; i++)
		if (st->pids[i] == pid)
			return;
	st->pids = pc_realloc(st->pids, (st->nr_pids + 1) * sizeof(pid_t));
	st->pids[st->nr_pids++] = pid;
	snapshot_maps(st, pid);
}

/* One record read from the queue: into the file. */
static void take_one(void *ctx, const struct pc_rec *r)
{
	struct rec_state *st = ctx;

	if (r->type == PERF_COUNTER_REC_SAMPLE) {
		struct pc_item_sample s;
		struct pc_item_chain c;
		size_t len = sizeof(s), words = 0;
		char *body;

		s.ip = r->ip;
		s.pid = r->pid;
		s.tid = r->tid;
		s.time = r->time;
		if (st->record_type & PERF_RECORD_CALLCHAIN) {
			words = r->chain_nr;
			len += sizeof(c) + words * 8;
		}
		body = pc_zalloc(len);
		memcpy(body, &s, sizeof(s));
		if (st->record_type & PERF_RECORD_CALLCHAIN) {
			c.nr = r->chain_nr;
			c.flags = r->chain_flags;
			memcpy(body + sizeof(s), &c, sizeof(c));
			memcpy(body + sizeof(s) + sizeof(c), r->chain,
			       words * 8);
		}
		write_item(st->f, PC_ITEM_SAMPLE, body, len);
		free(body);
		st->samples++;
		saw_pid(st, s.pid);
	} else {
		st->lost += r->lost;
		write_item(st->f, PC_ITEM_LOST, &r->lost, 8);
	}
}

/* Take the records read() gave (IRQ, TID, TIME and maybe CALLCHAIN). */
static void take(struct rec_state *st, const char *buf, ssize_t len)
{
	pc_take(buf, len, st->record_type, take_one, st);
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

int cmd_record(int argc, char **argv)
{
	struct pc_sample_opts o = { .event = "task-clock",
				    .output = "perf-counter.data" };
	const char *out, *ev_name;
	struct rec_state st = { 0 };
	struct pc_event ev;
	struct pc_open_args a = { .cpu = -1, .group_fd = -1 };
	struct pc_file_header hdr;
	uint64_t period = 0;
	unsigned int freq = 0;
	uint32_t qsize = QUEUE_BYTES;
	int opt, fd, go, status = 0, done = 0, i, perr;
	pid_t child;
	static char buf[QUEUE_BYTES];
	ssize_t n;

	opt = pc_sample_opts_parse(argc, argv, "+ecFogG", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	argv += opt;
	argc -= opt;
	ev_name = o.event;
	period = o.period;
	freq = o.freq;
	out = o.output;
	if (!argc) {
		print_help(stderr);
		return 1;
	}
	if (period && freq)
		pc_die("-c and -F both give the period: one of them");
	if (o.call_graph) {
		a.chain_depth = call_graph(o.call_graph);
		o.callchain = 1;
	}
	perr = pc_parse_event(ev_name, &ev);
	if (perr) {
		if (perr == -1)
			pc_unknown_event(ev_name);
		return 1;
	}
	if (!period) {
		if (!freq)
			freq = 1000;
		if (pc_event_is_clock(&ev))
			period = 1000000000ULL / freq;
		else
			period = calibrate(&ev, freq);
		if (pc_event_is_clock(&ev) && period < 50000)
			period = 50000;
	}

	n = readlink("/proc/self/exe", st.self_exe, sizeof(st.self_exe) - 1);
	st.self_exe[n > 0 ? n : 0] = '\0';
	st.f = fopen(out, "we");
	if (!st.f)
		pc_die("%s: %s", out, strerror(errno));
	memcpy(hdr.magic, PC_FILE_MAGIC, 8);
	hdr.version = PC_FILE_VERSION;
	hdr.byte_order = PC_FILE_BYTE_ORDER;
	fwrite(&hdr, sizeof(hdr), 1, st.f);
	a.period = period;
	a.record_type = PERF_RECORD_IRQ | PERF_RECORD_TID | PERF_RECORD_TIME;
	if (o.callchain)
		a.record_type |= PERF_RECORD_CALLCHAIN;
	st.record_type = a.record_type;
	write_event(st.f, &ev, period, a.record_type, freq);
	write_command(st.f, argv);

	child = pc_fork_command(argv, &go);
	a.pid = child;
	a.inherit = 1;
	a.disabled = 1;
	fd = pc_open(&ev, &a);
	if (fd < 0) {
		pc_open_error(&ev, &a, errno);
		close(go);
		waitpid(child, NULL, 0);
		fclose(st.f);
		unlink(out);
		return 1;
	}
	ioctl(fd, PERF_COUNTER_IOC_QUEUE_SIZE, &qsize);
	signal(SIGINT, SIG_IGN);
	pc_start_command(go);
	saw_pid(&st, child);

	while (!done) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 20);
		if (p.revents & POLLIN) {
			n = read(fd, buf, sizeof(buf));
			if (n > 0)
				take(&st, buf, n);
		}
		snapshot_maps(&st, child);
		if (waitpid(child, &status, WNOHANG) == child)
			done = 1;
	}
	/* what is left: read() says 0 once the last copy has ended */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		take(&st, buf, n);
	close(fd);

	for (i = 0; i < st.maps.nr; i++) {
		const struct pc_map *m = &st.maps.map[i];
		size_t len = sizeof(struct pc_item_mmap) + strlen(m->path) + 1;
		struct pc_item_mmap *mm = pc_zalloc(len);

		mm->pid = m->pid;
		mm->start = m->start;
		mm->end = m->end;
		mm->pgoff = m->pgoff;
		mm->dev = m->dev;
		mm->ino = m->ino;
		strcpy(mm->path, m->path);
		write_item(st.f, PC_ITEM_MMAP, mm, len);
		free(mm);
	}
	fprintf(stderr,
		"[ perf-counter record: %llu samples of %s every %llu, %llu lost, %d mappings, %sin %s ]\n",
		(unsigned long long)st.samples, ev.name,
		(unsigned long long)period, (unsigned long long)st.lost,
		st.maps.nr, o.callchain ? "call chains, " : "", out);
	if (fclose(st.f))
		pc_die("%s: %s", out, strerror(errno));
	return pc_wait_status(status);
}
