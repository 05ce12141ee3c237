// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: the profile of a record file, for each event
 * samples per command, file and function (sort.c), weighed by the
 * events each stands for (its period), the heaviest first; with call
 * chains in the file, each function's share with its callees and the
 * tree of its chains (callchain.c). A version 3 file is replayed in
 * time order (tasks.c): each sample is named with the mappings its task
 * had when it was taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pc.h"
#include "profile.h"
#include "reader.h"
#include "record.h"

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter report [-f] [-i FILE] [-n LINES] [-s KEYS] [-g]\n"
"                           [--children | --no-children]\n"
"                           [--call-graph TYPE,MIN,ORDER]\n"
"                           [--comms LIST] [--dsos LIST] [--symbols LIST]\n"
"                           [--format folded|speedscope|pprof|svg\n"
"                            [--inverted] [-o FILE]] [--wall]\n"
"                           [--time START,END]\n"
"  -f        read a record file another user owns (its mappings name\n"
"            the files whose symbols are read)\n"
"  -i FILE   the record file (default perf-counter.data)\n"
"  -n LINES  at most LINES functions (default all)\n"
"  -s, --sort KEYS\n"
"            what a line counts, from comm (the thread's name), pid,\n"
"            dso (the file), sym (the function) and cpu (of -a, -C;\n"
"            -1 for a task's counter); default comm,dso,sym (dso,sym\n"
"            for a file from before side-band records, which has no\n"
"            names). Given, the flat profile even of a file with call\n"
"            chains, unless -g asks for the trees too\n"
"  -D, --dump-raw-trace\n"
"            each item of the file on a line, in time order: its time\n"
"            (s), kind, pid/tid and what it says; no profile\n"
"  --comms LIST, --dsos LIST, --symbols LIST\n"
"            only the samples of these commands, files or functions\n"
"            (comma-separated); percentages stay of all the samples'\n"
"            periods\n"
"  --wall    a wall-clock profile of a record --off-cpu file: on-CPU\n"
"            samples and, per stack, the time each thread spent off the\n"
"            CPU (blocked or preempted) from its switch records; a\n"
"            table, or with --format the profile in that format\n"
"  --time START,END\n"
"            only the samples taken in this window (seconds of\n"
"            CLOCK_MONOTONIC, as -D shows them; either end may be\n"
"            empty); --wall also cuts each thread's times to it\n"
"  -g        show the call chains (the default when the file has them,\n"
"            from record -g)\n"
"  --children     Children: the samples whose chain passes through the\n"
"                 function, with the Self share (the default); trees\n"
"                 from the outermost caller down\n"
"  --no-children  the Self share alone; trees from the function out to\n"
"                 its callers\n"
"  --call-graph TYPE,MIN,ORDER\n"
"                 how trees print, each part optional: TYPE graph (a\n"
"                 branch's percent of all samples' periods, the\n"
"                 default),\n"
"                 fractal (of its parent branch) or none (no trees);\n"
"                 MIN the percent under which a branch is hidden\n"
"                 (default 0.5); ORDER caller or callee (the default\n"
"                 as above)\n"
"  --format FORMAT\n"
"                 no table: the samples' stacks (with -g, each sample's\n"
"                 chain, outermost first) written to -o FILE (default\n"
"                 stdout) for other tools: folded (FlameGraph's and\n"
"                 inferno's input: a line a stack, its command first,\n"
"                 then the events or ns it stands for), speedscope\n"
"                 (JSON), pprof (gzipped profile.proto), svg (an\n"
"                 interactive flame graph); folded and svg show the\n"
"                 first event\n"
"  --inverted     with --format svg: an icicle of callers, each leaf\n"
"                 function at the top\n"
"Samples per function: user addresses through the symbols the record\n"
"file carries (record writes them at its end), else the ELF symbols of\n"
"the files their task had mapped at that moment (replayed from the\n"
"kernel's side-band records); kernel addresses through the file's\n"
"kernel symbols, else /proc/kallsyms in the boot that recorded. Tasks\n"
"with samples in no mapping they were seen to make are named, never\n"
"guessed. With call chains, a line tells how many were complete,\n"
"truncated at the depth or broken, and a warning names x86 functions\n"
"without a frame-pointer prologue, whose chains are not to be trusted.\n");
}

/* A record file and what report is asked of it. */
struct rep {
	struct pc_rfile f;
	struct pc_sample_opts *o;
	struct pc_sort sort;
	struct pc_chain_view view;
	int format;		/* --format: an enum pc_format, else -1 */
	struct pc_prof_builder *prof;
	struct pc_wall *wall;	/* --wall */
	uint64_t from, to;	/* --time, CLOCK_MONOTONIC ns */

	/* one event's replay */
	struct pc_replay p;
	struct pc_rows rows;
	struct pc_chains *chains;
	uint64_t samples, shown, kernel;
	uint64_t weight;	/* the events the samples stand for */
};

/* One sample of the event reported: named, filtered, counted. */
static void report_sample(void *ctx, const struct pc_replay_sample *s)
{
	struct rep *r = ctx;
	struct pc_row row;
	char anon[16];
	int k;

	if (s->time < r->from || s->time > r->to)
		return;			/* --time */
	row.sym = pc_resolve(s->maps, s->pid, s->ip, &row.dso, &k);
	row.kernel = k;
	row.ip = s->ip;
	row.pid = s->pid;
	row.cpu = s->cpu;
	row.comm = pc_tasks_name(r->p.tasks, s->pid, s->tid, anon,
				 sizeof(anon));
	row.count = s->weight;
	r->samples++;
	r->weight += row.count;
	r->kernel += k;
	s->task->samples++;
	if (!k && !strcmp(row.dso, "[unknown]")) {
		s->task->unnamed++;
		s->task->unseen |= !s->task->known;
	}
	if (!pc_filter_match(r->o->comms, row.comm) ||
	    !pc_filter_match(r->o->dsos, row.dso) ||
	    !pc_filter_match(r->o->symbols, row.sym ? row.sym : ""))
		return;
	r->shown++;
	if (s->bad_chain)
		pc_warn("%s: item at %zu: a chain longer than its item, not counted",
			r->f.in, s->off);
	if (r->wall) {
		pc_wall_sample(r->wall, s, row.comm);
		return;
	}
	if (r->prof) {
		pc_prof_add(r->prof, s, row.comm, r->p.event);
		return;
	}
	pc_rows_add(&r->rows, &r->sort, &row);
	if (!r->chains)
		return;
	if (s->chain)
		pc_chains_add(r->chains, s->maps, s->pid, s->ip, s->chain,
			      s->nr, s->flags, row.count);
	else
		pc_chains_add_none(r->chains, s->maps, s->pid, s->ip,
				   row.count);
}

/*
 * One end of --time: SECONDS[.FRACTION] of CLOCK_MONOTONIC (as -D and
 * the samples show times), exactly to the ns; empty: open.
 */
static uint64_t time_end(const char *s, size_t len, uint64_t open)
{
	uint64_t sec = 0, ns = 0, scale = 100000000;
	size_t i = 0, digits = 0;

	if (!len)
		return open;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		/* seconds whose ns fit 64 bits: 18446744072 at most */
		if (sec > (UINT64_MAX / 1000000000ULL - 9) / 10)
			break;
		sec = sec * 10 + (s[i] - '0');
		digits++;
	}
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			ns += (s[i] - '0') * scale;
			scale /= 10;
			digits++;
		}
	if (i != len || !digits)
		pc_die("--time %s: START,END, each seconds as -D shows them (1234.5), or empty",
		       s);
	return sec * 1000000000ULL + ns;
}

static void parse_time(struct rep *r, const char *arg)
{
	const char *comma = strchr(arg, ',');

	if (!comma)
		pc_die("--time %s: START,END (either may be empty)", arg);
	r->from = time_end(arg, comma - arg, 0);
	r->to = time_end(comma + 1, strlen(comma + 1), UINT64_MAX);
	if (r->to < r->from)
		pc_die("--time %s: END before START", arg);
}

/* --wall: a switch of a thread that passes the command filter */
static void report_switch(void *ctx, const struct pc_replay_switch *s)
{
	struct rep *r = ctx;
	char anon[16];
	const char *comm = pc_tasks_name(r->p.tasks, s->pid, s->tid, anon,
					 sizeof(anon));

	/* the idle tasks (-a): no thread of anyone's */
	if (!s->pid && !s->tid)
		return;
	if (pc_filter_match(r->o->comms, comm))
		pc_wall_switch(r->wall, s, comm);
}

/* --wall: a thread ended */
static void report_exit(void *ctx, uint32_t pid, uint32_t tid)
{
	struct rep *r = ctx;

	pc_wall_exit(r->wall, pid, tid);
}

/* Side-band items changed the tasks: addresses may name others now. */
static void report_changed(void *ctx)
{
	struct rep *r = ctx;

	if (r->chains)
		pc_chains_forget(r->chains);
}

/* A SWITCH item's line: in or out, why, its chain's and stack's words */
static void dump_switch(const struct rep *r, const void *body, size_t blen)
{
	const struct pc_rfile *f = &r->f;
	struct pc_item_switch w;
	struct pc_item_chain ch;
	uint32_t nr, i, n[2] = { 0, 0 };
	int part = -1;
	uint64_t v;

	memcpy(&w, body, sizeof(w));
	printf("%u/%u %s event %u cpu %d", pc_rfile_u32(f, w.pid),
	       pc_rfile_u32(f, w.tid), pc_rfile_u32(f, w.out) ? "out" : "in",
	       pc_rfile_u32(f, w.event), (int32_t)pc_rfile_u32(f, w.cpu));
	if (!pc_rfile_u32(f, w.out))
		return;
	printf(" %s", pc_rfile_u32(f, w.flags) &
	       PERF_COUNTER_SWITCH_PREEMPTED ? "preempted" : "blocked");
	if (blen < sizeof(w) + sizeof(ch))
		return;
	memcpy(&ch, (const char *)body + sizeof(w), sizeof(ch));
	nr = pc_rfile_u32(f, ch.nr);
	if (nr > (blen - sizeof(w) - sizeof(ch)) / 8)
		nr = 0;
	/* the addresses of each part of the chain */
	for (i = 0; i < nr; i++) {
		memcpy(&v, (const char *)body + sizeof(w) + sizeof(ch) + 8 * i,
		       sizeof(v));
		v = pc_rfile_u64(f, v);
		if (v == PERF_CONTEXT_KERNEL || v == PERF_CONTEXT_USER)
			part = v == PERF_CONTEXT_USER;
		else if (part >= 0 && v < (uint64_t)PERF_CONTEXT_MAX)
			n[part]++;
	}
	printf(" chain kernel %u user %u, stack %u", n[0], n[1],
	       pc_rfile_u32(f, w.stack_words));
}

/* One item as a line of -D: time, kind, pid/tid, the rest. */
static void dump_item(const struct rep *r, uint32_t type, const void *body,
		      size_t blen)
{
	static const char * const kind[] = {
		[PC_ITEM_EVENT] = "EVENT", [PC_ITEM_COMMAND] = "COMMAND",
		[PC_ITEM_MMAP] = "MMAP", [PC_ITEM_SAMPLE] = "SAMPLE",
		[PC_ITEM_LOST] = "LOST", [PC_ITEM_KMMAP] = "MMAP",
		[PC_ITEM_COMM] = "COMM", [PC_ITEM_FORK] = "FORK",
		[PC_ITEM_EXIT] = "EXIT", [PC_ITEM_LOST_SIDEBAND] = "LOST_SIDEBAND",
		[PC_ITEM_HOST] = "HOST", [PC_ITEM_DSO] = "DSO",
		[PC_ITEM_KSYMS] = "KSYMS", [PC_ITEM_SWITCH] = "SWITCH",
	};
	const uint32_t *w = body;	/* pid, tid first, for most */
	uint64_t t = pc_rfile_time(&r->f, type, body);

	printf("%6llu.%09llu %-13s ", (unsigned long long)(t / 1000000000),
	       (unsigned long long)(t % 1000000000),
	       type < ARRAY_SIZE(kind) && kind[type] ? kind[type] : "?");
	switch (type) {
	case PC_ITEM_SAMPLE: {
		const struct pc_item_sample3 *s = body;

		printf("%u/%u ip 0x%llx", pc_rfile_u32(&r->f, s->pid), pc_rfile_u32(&r->f, s->tid),
		       (unsigned long long)pc_rfile_u64(&r->f, s->ip));
		if (r->f.version >= 3)
			printf(" event %u cpu %d", pc_rfile_u32(&r->f, s->event),
			       (int32_t)pc_rfile_u32(&r->f, s->cpu));
		if (r->f.version >= 4)
			printf(" period %llu", (unsigned long long)
			       pc_rfile_u64(&r->f, ((const struct pc_item_sample4 *)body)->period));
		break;
	}
	case PC_ITEM_KMMAP: {
		struct perf_counter_mmap m;

		memcpy(&m, body, sizeof(m));
		printf("%u/%u 0x%llx-0x%llx pgoff 0x%llx ", pc_rfile_u32(&r->f, w[0]),
		       pc_rfile_u32(&r->f, w[1]), (unsigned long long)pc_rfile_u64(&r->f, m.addr),
		       (unsigned long long)(pc_rfile_u64(&r->f, m.addr) + pc_rfile_u64(&r->f, m.len)),
		       (unsigned long long)pc_rfile_u64(&r->f, m.pgoff));
		pc_print_escaped((const char *)body + sizeof(m));
		break;
	}
	case PC_ITEM_COMM: {
		struct perf_counter_comm c;

		memcpy(&c, body, sizeof(c));
		c.comm[sizeof(c.comm) - 1] = '\0';
		printf("%u/%u%s ", pc_rfile_u32(&r->f, c.pid), pc_rfile_u32(&r->f, c.tid),
		       pc_rfile_u32(&r->f, c.flags) & PERF_COUNTER_COMM_EXEC ? " exec" : "");
		pc_print_escaped(c.comm);
		break;
	}
	case PC_ITEM_FORK:
	case PC_ITEM_EXIT:
		printf("%u/%u %s %u/%u", pc_rfile_u32(&r->f, w[0]), pc_rfile_u32(&r->f, w[1]),
		       type == PC_ITEM_FORK ? "from" : "parent", pc_rfile_u32(&r->f, w[4]),
		       pc_rfile_u32(&r->f, w[5]));
		break;
	case PC_ITEM_LOST:
	case PC_ITEM_LOST_SIDEBAND: {
		uint64_t n;

		memcpy(&n, body, sizeof(n));
		printf("%llu", (unsigned long long)pc_rfile_u64(&r->f, n));
		break;
	}
	case PC_ITEM_EVENT:
		pc_print_escaped(((const struct pc_item_event *)body)->name);
		break;
	case PC_ITEM_DSO: {
		struct pc_item_dso d;

		memcpy(&d, body, sizeof(d));
		printf("%u symbols, build-id of %u bytes",
		       pc_rfile_u32(&r->f, d.nr_sym),
		       pc_rfile_u32(&r->f, d.build_id_len));
		break;
	}
	case PC_ITEM_KSYMS: {
		struct pc_item_ksyms k;

		memcpy(&k, body, sizeof(k));
		printf("%u symbols", pc_rfile_u32(&r->f, k.nr_sym));
		break;
	}
	case PC_ITEM_SWITCH:
		dump_switch(r, body, blen);
		break;
	case PC_ITEM_COMMAND:
	case PC_ITEM_MMAP:
	default:
		break;
	}
	putchar('\n');
}

/* -D: every item, in the order report replays them. */
static void dump(struct rep *r)
{
	size_t off = sizeof(struct pc_file_header), blen, i;
	const void *body;
	uint32_t type;
	int got;

	for (i = 0;
	     (got = pc_rfile_item(&r->f, i, &off, &type, &body, &blen)); i++)
		if (got > 0)
			dump_item(r, type, body, blen);
}

struct unnamed {
	struct pc_task **t;
	int nr;
	uint64_t samples;
};

static void collect_unnamed(void *ctx, struct pc_task *p)
{
	struct unnamed *u = ctx;

	if (!p->unnamed)
		return;
	u->t = pc_realloc(u->t, (u->nr + 1) * sizeof(*u->t));
	u->t[u->nr++] = p;
	u->samples += p->unnamed;
}

static int by_unnamed(const void *a, const void *b)
{
	const struct pc_task *x = *(struct pc_task * const *)a;
	const struct pc_task *y = *(struct pc_task * const *)b;

	if (x->unnamed != y->unnamed)
		return x->unnamed > y->unnamed ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The tasks with samples at user addresses in no mapping they were seen
 * to make: by name, with how many, and why when it is known. Never a
 * guess with another task's mappings.
 */
static void print_unnamed(struct rep *r)
{
	struct unnamed u = { NULL, 0, 0 };
	int i;

	pc_tasks_each(r->p.tasks, collect_unnamed, &u);
	if (r->p.lost_sideband)
		printf("# %llu side-band records lost: the mappings, names or tasks they told are not known\n",
		       (unsigned long long)r->p.lost_sideband);
	if (!u.nr)
		goto out;
	qsort(u.t, u.nr, sizeof(*u.t), by_unnamed);
	printf("# %llu samples at user addresses in no mapping their task was seen to make, of %d tasks:\n",
	       (unsigned long long)u.samples, u.nr);
	for (i = 0; i < u.nr && i < 20; i++) {
		const struct pc_task *p = u.t[i];
		const char *comm = pc_tasks_comm(r->p.tasks, p->pid);

		printf("#   pid %u (", p->pid);
		pc_print_escaped(comm ? comm : "?");
		printf("): %llu of its %llu samples%s\n",
		       (unsigned long long)p->unnamed,
		       (unsigned long long)p->samples,
		       !p->unseen ? "" :
		       "; its start was not seen (no snapshot, fork or exec record)");
	}
	if (u.nr > 20)
		printf("#   and %d tasks more\n", u.nr - 20);
out:
	free(u.t);
}

/* One event's part of the report, or of the profile exported. */
static void report_event(struct rep *r)
{
	const struct pc_rfile_event *ev = &r->f.ev[r->p.event];

	if (r->f.has_chains && !r->prof)
		r->chains = pc_chains_new(&r->view);
	r->p.f = &r->f;
	r->p.sample = report_sample;
	r->p.changed = report_changed;
	r->p.switched = r->wall ? report_switch : NULL;
	r->p.exited = r->wall ? report_exit : NULL;
	r->p.ctx = r;
	pc_replay_run(&r->p);
	if (r->prof)
		goto out;
	printf("# %llu samples of ", (unsigned long long)r->samples);
	pc_print_escaped(ev->name);
	if (ev->period)
		printf(" every %llu", (unsigned long long)ev->period);
	else
		printf(" at %u a second", ev->freq);
	printf(", %llu lost; %llu in the kernel\n",
	       (unsigned long long)r->p.lost, (unsigned long long)r->kernel);
	if (r->f.version >= 4 && !ev->period)
		printf("# each weighted by its period: %llu events in all\n",
		       (unsigned long long)r->weight);
	if (r->shown != r->samples)
		printf("# %llu of them pass the filters\n",
		       (unsigned long long)r->shown);
	if (r->p.bad)
		pc_warn("%s: %llu mappings that wrap, skipped", r->f.in,
			(unsigned long long)r->p.bad);
	if (pc_tasks_dropped(r->p.tasks))
		printf("# %llu mappings past what report holds (16384 a process, 2097152 in all) were not kept: samples in them are unnamed\n",
		       (unsigned long long)pc_tasks_dropped(r->p.tasks));
	if (r->f.version >= 3)
		print_unnamed(r);
	if (r->chains) {
		pc_chains_quality(r->chains);
		pc_chains_fp_warn(r->chains);
		pc_chains_print(r->chains);
		pc_chains_free(r->chains);
		r->chains = NULL;
	} else {
		pc_rows_print(&r->rows, &r->sort, r->weight, r->o->count);
	}
out:
	/* before the replay's counts go */
	if (r->wall)
		pc_wall_lost(r->wall, r->p.lost);
	pc_rows_free(&r->rows);
	pc_replay_done(&r->p);
	r->samples = r->shown = r->kernel = r->weight = 0;
}

/* --format: the formats, and whether each shows one event or all. */
enum pc_format { PC_FOLDED, PC_SPEEDSCOPE, PC_PPROF, PC_SVG };

static const struct {
	const char *name;
	int one_event;
} formats[] = {
	[PC_FOLDED] = { "folded", 1 },
	[PC_SPEEDSCOPE] = { "speedscope", 0 },
	[PC_PPROF] = { "pprof", 0 },
	[PC_SVG] = { "svg", 1 },
};

/* The profile in --format's format, the stacks of @event where one. */
static void write_profile(struct rep *r, const struct pc_profile *p,
			  uint32_t event)
{
	const char *out = r->o->output;
	FILE *f = stdout;
	int err;

	if (out && strcmp(out, "-")) {
		f = fopen(out, "we");
		if (!f)
			pc_die("%s: %s", out, strerror(errno));
	} else {
		out = "stdout";
	}
	switch (r->format) {
	case PC_FOLDED:
		err = pc_write_folded(p, event, f);
		break;
	case PC_SPEEDSCOPE:
		err = pc_write_speedscope(p, f);
		break;
	case PC_PPROF:
		err = pc_write_pprof(p, f);
		break;
	default:
		err = pc_write_svg(p, event, r->o->inverted, f);
	}
	if (f != stdout && fclose(f))
		err = -1;
	if (err)
		pc_die("%s: cannot write it all: %s", out, strerror(errno));
}

/* --format's export of every event's samples, to -o or stdout. */
static int export(struct rep *r)
{
	uint32_t nr_ev = formats[r->format].one_event ? 1 : r->f.nr_ev;
	const struct pc_profile *p;

	if (nr_ev < r->f.nr_ev)
		pc_warn("%s: %u events; --format %s shows the first, %s",
			r->f.in, r->f.nr_ev, formats[r->format].name,
			r->f.ev[0].name);
	r->prof = pc_prof_new(&r->f);
	/* one replay an event, and only of those shown */
	for (r->p.event = 0; r->p.event < nr_ev; r->p.event++)
		report_event(r);
	p = pc_prof_get(r->prof);
	write_profile(r, p, 0);
	pc_prof_free(r->prof);
	r->prof = NULL;
	return 0;
}

/*
 * --wall: the event with switch records, its samples and its times off
 * the CPU, as a table or in --format's format.
 */
static void wall(struct rep *r)
{
	const struct pc_profile *p;
	uint32_t ev = r->f.switch_event;
	char name[256];
	uint64_t c;

	if (ev >= r->f.nr_ev)
		pc_die("%s has no switch records: record with --off-cpu",
		       r->f.in);
	/* a run's time goes to its samples: all of them, or none */
	if (r->o->dsos || r->o->symbols)
		pc_die("--%s takes --comms and --time, not --dsos or --symbols",
		       "wall");
	c = r->f.ev[ev].config;
	if (PERF_COUNTER_TYPE(c) != PERF_TYPE_SOFTWARE ||
	    (PERF_COUNTER_ID(c) != PERF_COUNT_TASK_CLOCK &&
	     PERF_COUNTER_ID(c) != PERF_COUNT_CPU_CLOCK))
		pc_die("%s: the switch records' event, %s, is not a clock: its samples are no time (record --off-cpu -e task-clock)",
		       r->f.in, pc_escaped(r->f.ev[ev].name, name,
					   sizeof(name)));
	r->prof = pc_prof_new(&r->f);
	r->wall = pc_wall_new(r->prof, ev, r->f.machine);
	pc_wall_window(r->wall, r->from, r->to);
	r->p.event = ev;
	report_event(r);
	p = pc_prof_get(r->prof);
	if (r->format >= 0) {
		write_profile(r, p, ev);
	} else {
		printf("# perf-counter report %s of ", "--wall");
		pc_print_escaped(r->f.in);
		if (r->f.cmd) {
			printf(": command ");
			pc_print_escaped(r->f.cmd);
		}
		printf("\n# samples of ");
		pc_print_escaped(r->f.ev[ev].name);
		printf(" on the CPU, switch records off it\n");
		pc_wall_print(r->wall, p, r->o->count);
	}
	pc_wall_free(r->wall);
	r->wall = NULL;
	pc_prof_free(r->prof);
	r->prof = NULL;
}

int cmd_report(int argc, char **argv)
{
	struct pc_sample_opts o = { .input = "perf-counter.data", .count = -1,
				    .children = -1 };
	struct rep r = { .view = { .threshold = 0.5 }, .o = &o,
			 .format = -1, .to = UINT64_MAX };
	size_t i;
	int opt;

	opt = pc_sample_opts_parse(argc, argv, "fingGYNsKQZDoRVWT", &o,
				   print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	if (opt < argc) {
		print_help(stderr);
		return 1;
	}
	if (o.format) {
		for (i = 0; i < ARRAY_SIZE(formats); i++)
			if (!strcmp(o.format, formats[i].name))
				break;
		if (i == ARRAY_SIZE(formats))
			pc_die("--format %s: folded, speedscope, pprof or svg",
			       o.format);
		r.format = i;
	} else if (o.inverted || o.output) {
		pc_die("%s goes with --format", o.inverted ? "--inverted" :
		       "-o");
	}
	if (o.inverted && r.format != PC_SVG)
		pc_die("--inverted goes with --format svg");
	if (o.time)
		parse_time(&r, o.time);
	r.view.children = o.children != 0;
	r.view.caller = r.view.children;
	r.view.max_lines = o.count;
	if (o.call_graph) {
		pc_chain_view_parse(&r.view, o.call_graph);
		o.callchain = 1;
	}
	/* -D shows the items: no symbols loaded, no build-id checked */
	pc_rfile_open(&r.f, o.input, o.force, !o.dump);
	/* a version 2 file knows no task names: by file and function */
	pc_sort_parse(o.sort ? o.sort : r.f.version >= 3 ? "comm,dso,sym" :
		      "dso,sym", &r.sort);
	if (o.callchain && !r.f.has_chains)
		pc_warn("%s has no call chains (record them with record -g)",
			r.f.in);
	if (o.dump) {
		dump(&r);
		goto out;
	}
	if (o.wall) {
		wall(&r);
		goto out;
	}
	if (r.format >= 0) {
		export(&r);
		goto out;
	}
	/* --sort asks for the flat profile, unless chains are asked too */
	if (o.sort && r.f.has_chains && !o.callchain)
		r.f.has_chains = 0;
	else if (o.sort && r.f.has_chains)
		pc_warn("--sort orders the flat profile: the call-chain trees are by function (leave out -g for the rows by %s)",
			o.sort);
	printf("# perf-counter report of ");
	pc_print_escaped(r.f.in);
	if (r.f.cmd) {
		printf(": command ");
		pc_print_escaped(r.f.cmd);
	}
	putchar('\n');
	if (r.f.other_boot && !r.f.has_ksyms)
		printf("# recorded in another boot, without its kernel's symbols: kernel addresses are not named\n");
	for (r.p.event = 0; r.p.event < r.f.nr_ev; r.p.event++) {
		if (r.p.event)
			putchar('\n');
		report_event(&r);
	}
out:
	pc_rfile_close(&r.f);
	return 0;
}
