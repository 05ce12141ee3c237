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
#include "record.h"

static int swap;

static uint32_t g32(uint32_t v)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t g64(uint64_t v)
{
	return swap ? __builtin_bswap64(v) : v;
}

/* The least body an item of @type has (its fixed part) in @version. */
static size_t min_body(uint32_t type, uint32_t version)
{
	switch (type) {
	case PC_ITEM_EVENT:
		return sizeof(struct pc_item_event);
	case PC_ITEM_MMAP:
		return sizeof(struct pc_item_mmap);
	case PC_ITEM_SAMPLE:
		return version >= 4 ? sizeof(struct pc_item_sample4) :
			version >= 3 ? sizeof(struct pc_item_sample3) :
			sizeof(struct pc_item_sample);
	case PC_ITEM_LOST:
		return version >= 3 ? sizeof(struct pc_item_lost3) :
			sizeof(uint64_t);
	case PC_ITEM_KMMAP:
		return sizeof(struct perf_counter_mmap);
	case PC_ITEM_COMM:
		return sizeof(struct perf_counter_comm);
	case PC_ITEM_FORK:
	case PC_ITEM_EXIT:
		return sizeof(struct perf_counter_task);
	case PC_ITEM_LOST_SIDEBAND:
		return sizeof(struct pc_item_lost3);
	default:
		return 0;
	}
}

/* Items whose body ends with a string, after the fixed part. */
static int has_string(uint32_t type)
{
	return type == PC_ITEM_MMAP || type == PC_ITEM_EVENT ||
	       type == PC_ITEM_COMMAND || type == PC_ITEM_KMMAP;
}

static void print_help(FILE *f)
{
	fprintf(f,
"usage: perf-counter report [-f] [-i FILE] [-n LINES] [-s KEYS] [-g]\n"
"                           [--children | --no-children]\n"
"                           [--call-graph TYPE,MIN,ORDER]\n"
"                           [--comms LIST] [--dsos LIST] [--symbols LIST]\n"
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
"Samples per function: user addresses through the ELF symbols of the\n"
"files their task had mapped at that moment (replayed from the kernel's\n"
"side-band records), kernel addresses through /proc/kallsyms (of the\n"
"running kernel: report in the boot that recorded). Tasks with samples\n"
"in no mapping they were seen to make are named, never guessed. With call\n"
"chains, a line tells how many were complete, truncated at the depth\n"
"or broken, and a warning names x86 functions without a frame-pointer\n"
"prologue, whose chains are not to be trusted.\n");
}

/*
 * The record file, whole. One another user wrote is refused without
 * @force, as perf refuses it: its mappings name the files report reads
 * symbols from, and whoever wrote it chose them.
 */
static char *slurp(const char *path, size_t *len, int force)
{
	char *buf = NULL;
	size_t cap = 0, n;
	struct stat st;
	FILE *f;
	int fd;

	/* a FIFO or device (a link to /dev/zero) is never read from */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		pc_die("%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		pc_die("%s: not a regular file", path);
	if (!force && st.st_uid != geteuid() && st.st_uid != 0)
		pc_die("%s: owned by uid %u, not by you or root (use -f to read it anyway)",
		       path, (unsigned int)st.st_uid);
	f = fdopen(fd, "r");
	if (!f)
		pc_die("%s: %s", path, strerror(errno));
	*len = 0;
	do {
		if (*len + 65536 > cap) {
			cap = cap * 2 + 65536;
			buf = pc_realloc(buf, cap);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}


/* The chain after a SAMPLE's @fixed bytes, if any, in host order. */
static int sample_chain(const void *body, size_t blen, size_t fixed,
			uint64_t **words, size_t *cap, uint32_t *nr,
			uint32_t *flags)
{
	const struct pc_item_chain *ch;
	uint32_t i;

	if (blen < fixed + sizeof(*ch))
		return 0;
	ch = (const void *)((const char *)body + fixed);
	blen -= fixed + sizeof(*ch);
	*nr = g32(ch->nr);
	*flags = g32(ch->flags);
	if (*nr > blen / 8)
		return -1;
	*words = pc_grow(*words, cap, *nr + 1, sizeof(**words));
	for (i = 0; i < *nr; i++)
		(*words)[i] = g64(ch->ip[i]);
	return 1;
}

struct rep_event {
	const char *name;
	uint64_t period;	/* -c's, every sample's; 0 under -F */
	uint32_t freq;		/* -F's */
};

/* Where an item is, and its time (0 for one that has none). */
struct rep_at {
	uint64_t time;
	size_t off;
};

/* A record file and what report is asked of it. */
struct rep {
	const char *in;
	char *buf;
	size_t len;
	uint32_t version;
	struct rep_event *ev;
	uint32_t nr_ev;
	const char *cmd;
	int has_chains;
	struct rep_at *at;	/* version 3: the items by time */
	size_t nr_at, at_cap;
	struct pc_sample_opts *o;
	struct pc_sort sort;
	struct pc_chain_view view;

	/* one event's replay */
	uint32_t event;
	struct pc_tasks *tasks;
	struct pc_maps v2_maps;	/* a version 2 file's, for every task */
	struct pc_rows rows;
	struct pc_chains *chains;
	uint64_t *words;
	size_t words_cap;
	uint64_t samples, shown, kernel, lost, lost_sideband, bad;
	uint64_t weight;	/* the events the samples stand for */
};

/*
 * The next item at *@off, checked: its type, body and body's length.
 * Return: 0 at the end of the file, 1 for an item to read, -1 for one
 * to skip (too short for its type, or its string has no NUL; told once,
 * when @tell).
 */
static int next_item(struct rep *r, size_t *off, uint32_t *type,
		     const void **body, size_t *blen, int tell)
{
	const struct pc_item *it;
	uint32_t size;
	size_t min;

	if (*off + sizeof(*it) > r->len)
		return 0;
	it = (const void *)(r->buf + *off);
	*type = g32(it->type);
	size = g32(it->size);
	if (size < sizeof(*it) || size % 8 || size > r->len - *off)
		pc_die("%s: item at %zu is cut short", r->in, *off);
	*body = it + 1;
	*blen = size - sizeof(*it);
	*off += size;
	min = min_body(*type, r->version);
	if (*blen < min) {
		if (tell)
			pc_warn("%s: item at %zu (type %u) too short, skipped",
				r->in, *off - size, *type);
		return -1;
	}
	if (has_string(*type) &&
	    !memchr((const char *)*body + min, '\0', *blen - min)) {
		if (tell)
			pc_warn("%s: item at %zu (type %u): no NUL in its string, skipped",
				r->in, *off - size, *type);
		return -1;
	}
	return 1;
}

/*
 * An item's time, 0 for one that has none (EVENT, COMMAND, version 2's
 * MMAP and LOST); its body is long enough (next_item(), min_body()).
 */
static uint64_t item_time(const struct rep *r, uint32_t type,
			  const void *body)
{
	uint64_t t = 0;

	if (type == PC_ITEM_SAMPLE)
		memcpy(&t, (const char *)body + 16, 8);
	else if ((type >= PC_ITEM_KMMAP && type <= PC_ITEM_LOST_SIDEBAND) ||
		 (type == PC_ITEM_LOST && r->version >= 3))
		memcpy(&t, (const char *)body + 8, 8);
	return g64(t);
}

/*
 * Note an item's place and time. A version 3 file is in time order as
 * record wrote it, but a record the kernel committed late (its CPU
 * stalled) may follow later ones: report puts it back.
 */
static void note_time(struct rep *r, uint32_t type, const void *body,
		      size_t off)
{
	r->at = pc_grow(r->at, &r->at_cap, r->nr_at + 1, sizeof(*r->at));
	r->at[r->nr_at].time = item_time(r, type, body);
	r->at[r->nr_at].off = off;
	r->nr_at++;
}

static int by_time(const void *a, const void *b)
{
	const struct rep_at *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The events, the command, whether samples have chains. */
static void scan(struct rep *r)
{
	const void *body;
	uint32_t type;
	size_t off = sizeof(struct pc_file_header), blen;
	int got;

	while ((got = next_item(r, &off, &type, &body, &blen, 1))) {
		if (got < 0)
			continue;
		if (r->version >= 3)
			note_time(r, type, body, off - blen - sizeof(struct pc_item));
		if (type == PC_ITEM_EVENT) {
			const struct pc_item_event *e = body;

			/* a profile each, each a replay of the whole file */
			if (r->nr_ev == PC_FILE_EVENTS_MAX)
				pc_die("%s: more than %d events", r->in,
				       PC_FILE_EVENTS_MAX);
			r->ev = pc_realloc(r->ev, (r->nr_ev + 1) * sizeof(*r->ev));
			r->ev[r->nr_ev].name = e->name;
			r->ev[r->nr_ev].period = g64(e->irq_period);
			r->ev[r->nr_ev].freq = g32(e->freq);
			r->nr_ev++;
			if (g64(e->record_type) & PERF_RECORD_CALLCHAIN)
				r->has_chains = 1;
		} else if (type == PC_ITEM_SAMPLE) {
			if (blen >= min_body(type, r->version) +
			    sizeof(struct pc_item_chain))
				r->has_chains = 1;
		} else if (type == PC_ITEM_COMMAND) {
			r->cmd = body;
		}
	}
	if (r->nr_at)
		qsort(r->at, r->nr_at, sizeof(*r->at), by_time);
	if (!r->nr_ev) {
		/* a file cut before its first item: one nameless event */
		r->ev = pc_zalloc(sizeof(*r->ev));
		r->ev[0].name = "?";
		r->nr_ev = 1;
	}
}

/* Side-band items: the tasks as they become. */
static void replay_sideband(struct rep *r, uint32_t type, const void *body,
			    size_t blen)
{
	if (type == PC_ITEM_KMMAP) {
		struct perf_counter_mmap m;

		memcpy(&m, body, sizeof(m));
		m.pid = g32(m.pid);
		m.tid = g32(m.tid);
		m.addr = g64(m.addr);
		m.len = g64(m.len);
		m.pgoff = g64(m.pgoff);
		m.dev = g64(m.dev);
		m.ino = g64(m.ino);
		m.flags = g32(m.flags);
		if (pc_tasks_mmap(r->tasks, &m, (const char *)body + sizeof(m)))
			r->bad++;
	} else if (type == PC_ITEM_COMM) {
		struct perf_counter_comm c;

		memcpy(&c, body, sizeof(c));
		pc_tasks_set_comm(r->tasks, g32(c.pid), g32(c.tid), c.comm,
				  g32(c.flags) & PERF_COUNTER_COMM_EXEC);
	} else if (type == PC_ITEM_FORK || type == PC_ITEM_EXIT) {
		struct perf_counter_task t;

		memcpy(&t, body, sizeof(t));
		if (type == PC_ITEM_FORK)
			pc_tasks_fork(r->tasks, g32(t.pid), g32(t.tid),
				      g32(t.ppid), g32(t.ptid));
		else
			pc_tasks_exit(r->tasks, g32(t.pid), g32(t.tid));
	} else if (type == PC_ITEM_LOST_SIDEBAND) {
		const struct pc_item_lost3 *l = body;

		r->lost_sideband += g64(l->lost);
		pc_tasks_sideband_lost(r->tasks);
	}
	(void)blen;
	if (r->chains)
		pc_chains_forget(r->chains);
}

/* One sample of the event reported: named, filtered, counted. */
static void replay_sample(struct rep *r, const void *body, size_t blen,
			  size_t at)
{
	const struct pc_item_sample *s = body;
	uint32_t pid = g32(s->pid), tid = g32(s->tid), nr, flags;
	uint64_t ip = g64(s->ip);
	const struct pc_maps *maps;
	struct pc_task *task;
	struct pc_row row;
	char anon[16];
	int k, got;
	size_t fixed = min_body(PC_ITEM_SAMPLE, r->version);

	if (r->version >= 3 &&
	    g32(((const struct pc_item_sample3 *)body)->event) != r->event)
		return;
	task = pc_tasks_get(r->tasks, pid);
	maps = r->version >= 3 ? pc_task_maps(task) : &r->v2_maps;
	row.sym = pc_resolve(maps, pid, ip, &row.dso, &k);
	row.kernel = k;
	row.ip = ip;
	row.pid = pid;
	row.cpu = r->version >= 3 ?
		(int32_t)g32(((const struct pc_item_sample3 *)body)->cpu) : -1;
	row.comm = pc_tasks_comm(r->tasks, tid);
	if (!row.comm) {
		snprintf(anon, sizeof(anon), pid ? ":%u" : "swapper", tid);
		row.comm = anon;
	}
	/*
	 * The events it stands for: its own period. Before version 4 an
	 * event's samples all stood for one period: each weighs 1, the
	 * same shares without a sum that a huge -c could wrap.
	 */
	row.count = r->version >= 4 ?
		g64(((const struct pc_item_sample4 *)body)->period) : 1;
	if (!row.count)
		row.count = 1;
	r->samples++;
	r->weight += row.count;
	r->kernel += k;
	task->samples++;
	if (!k && !strcmp(row.dso, "[unknown]")) {
		task->unnamed++;
		task->unseen |= !task->known;
	}
	if (!pc_filter_match(r->o->comms, row.comm) ||
	    !pc_filter_match(r->o->dsos, row.dso) ||
	    !pc_filter_match(r->o->symbols, row.sym ? row.sym : ""))
		return;
	r->shown++;
	pc_rows_add(&r->rows, &r->sort, &row);
	if (!r->chains)
		return;
	got = sample_chain(body, blen, fixed, &r->words, &r->words_cap, &nr,
			   &flags);
	if (got < 0)
		pc_warn("%s: item at %zu: a chain longer than its item, not counted",
			r->in, at);
	if (got > 0)
		pc_chains_add(r->chains, maps, pid, ip, r->words, nr, flags,
			      row.count);
	else
		pc_chains_add_none(r->chains, maps, pid, ip, row.count);
}

/*
 * The @i-th item in the order report replays them (version 3 by time,
 * version 2 as written, at *@off): as next_item() says.
 */
static int replayed_item(struct rep *r, size_t i, size_t *off,
			 uint32_t *type, const void **body, size_t *blen)
{
	if (r->version >= 3) {
		if (i == r->nr_at)
			return 0;
		*off = r->at[i].off;
	}
	return next_item(r, off, type, body, blen, 0);
}

/*
 * Every item in the file's order, for event @r->event. A version 2
 * file's mappings (at its end) are read first and serve every task.
 */
static void replay(struct rep *r)
{
	size_t off = sizeof(struct pc_file_header), blen;
	const void *body;
	uint32_t type;
	size_t i;
	int got;

	while (r->version < 3 &&
	       (got = next_item(r, &off, &type, &body, &blen, 0))) {
		const struct pc_item_mmap *m = body;
		struct pc_map map;

		if (got < 0 || type != PC_ITEM_MMAP)
			continue;
		map.pid = g32(m->pid);
		map.start = g64(m->start);
		map.end = g64(m->end);
		map.pgoff = g64(m->pgoff);
		map.dev = g64(m->dev);
		map.ino = g64(m->ino);
		map.path = (char *)m->path;
		pc_maps_add(&r->v2_maps, &map);
	}
	off = sizeof(struct pc_file_header);
	for (i = 0; (got = replayed_item(r, i, &off, &type, &body, &blen));
	     i++) {
		if (got < 0)
			continue;
		if (type == PC_ITEM_SAMPLE) {
			replay_sample(r, body, blen, off - blen - 8);
		} else if (type == PC_ITEM_LOST) {
			uint64_t v;

			memcpy(&v, body, sizeof(v));
			if (r->version < 3 ||
			    g32(((const struct pc_item_lost3 *)body)->event) ==
			    r->event)
				r->lost += g64(v);
		} else if (r->version >= 3 && type >= PC_ITEM_KMMAP) {
			replay_sideband(r, type, body, blen);
		}
	}
}

/* One item as a line of -D: time, kind, pid/tid, the rest. */
static void dump_item(const struct rep *r, uint32_t type, const void *body)
{
	static const char * const kind[] = {
		[PC_ITEM_EVENT] = "EVENT", [PC_ITEM_COMMAND] = "COMMAND",
		[PC_ITEM_MMAP] = "MMAP", [PC_ITEM_SAMPLE] = "SAMPLE",
		[PC_ITEM_LOST] = "LOST", [PC_ITEM_KMMAP] = "MMAP",
		[PC_ITEM_COMM] = "COMM", [PC_ITEM_FORK] = "FORK",
		[PC_ITEM_EXIT] = "EXIT", [PC_ITEM_LOST_SIDEBAND] = "LOST_SIDEBAND",
	};
	const uint32_t *w = body;	/* pid, tid first, for most */
	uint64_t t = item_time(r, type, body);

	printf("%6llu.%09llu %-13s ", (unsigned long long)(t / 1000000000),
	       (unsigned long long)(t % 1000000000),
	       type < ARRAY_SIZE(kind) && kind[type] ? kind[type] : "?");
	switch (type) {
	case PC_ITEM_SAMPLE: {
		const struct pc_item_sample3 *s = body;

		printf("%u/%u ip 0x%llx", g32(s->pid), g32(s->tid),
		       (unsigned long long)g64(s->ip));
		if (r->version >= 3)
			printf(" event %u cpu %d", g32(s->event),
			       (int32_t)g32(s->cpu));
		if (r->version >= 4)
			printf(" period %llu", (unsigned long long)
			       g64(((const struct pc_item_sample4 *)body)->period));
		break;
	}
	case PC_ITEM_KMMAP: {
		struct perf_counter_mmap m;

		memcpy(&m, body, sizeof(m));
		printf("%u/%u 0x%llx-0x%llx pgoff 0x%llx ", g32(w[0]),
		       g32(w[1]), (unsigned long long)g64(m.addr),
		       (unsigned long long)(g64(m.addr) + g64(m.len)),
		       (unsigned long long)g64(m.pgoff));
		pc_print_escaped((const char *)body + sizeof(m));
		break;
	}
	case PC_ITEM_COMM: {
		struct perf_counter_comm c;

		memcpy(&c, body, sizeof(c));
		c.comm[sizeof(c.comm) - 1] = '\0';
		printf("%u/%u%s ", g32(c.pid), g32(c.tid),
		       g32(c.flags) & PERF_COUNTER_COMM_EXEC ? " exec" : "");
		pc_print_escaped(c.comm);
		break;
	}
	case PC_ITEM_FORK:
	case PC_ITEM_EXIT:
		printf("%u/%u %s %u/%u", g32(w[0]), g32(w[1]),
		       type == PC_ITEM_FORK ? "from" : "parent", g32(w[4]),
		       g32(w[5]));
		break;
	case PC_ITEM_LOST:
	case PC_ITEM_LOST_SIDEBAND: {
		uint64_t n;

		memcpy(&n, body, sizeof(n));
		printf("%llu", (unsigned long long)g64(n));
		break;
	}
	case PC_ITEM_EVENT:
		pc_print_escaped(((const struct pc_item_event *)body)->name);
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

	for (i = 0; (got = replayed_item(r, i, &off, &type, &body, &blen));
	     i++)
		if (got > 0)
			dump_item(r, type, body);
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

	pc_tasks_each(r->tasks, collect_unnamed, &u);
	if (r->lost_sideband)
		printf("# %llu side-band records lost: the mappings, names or tasks they told are not known\n",
		       (unsigned long long)r->lost_sideband);
	if (!u.nr)
		goto out;
	qsort(u.t, u.nr, sizeof(*u.t), by_unnamed);
	printf("# %llu samples at user addresses in no mapping their task was seen to make, of %d tasks:\n",
	       (unsigned long long)u.samples, u.nr);
	for (i = 0; i < u.nr && i < 20; i++) {
		const struct pc_task *p = u.t[i];
		const char *comm = pc_tasks_comm(r->tasks, p->pid);

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

/* One event's part of the report. */
static void report_event(struct rep *r)
{
	const char *in = r->in;

	r->tasks = pc_tasks_new();
	if (r->has_chains)
		r->chains = pc_chains_new(&r->view);
	replay(r);
	printf("# %llu samples of ", (unsigned long long)r->samples);
	pc_print_escaped(r->ev[r->event].name);
	if (r->ev[r->event].period)
		printf(" every %llu", (unsigned long long)r->ev[r->event].period);
	else
		printf(" at %u a second", r->ev[r->event].freq);
	printf(", %llu lost; %llu in the kernel\n",
	       (unsigned long long)r->lost, (unsigned long long)r->kernel);
	if (r->version >= 4 && !r->ev[r->event].period)
		printf("# each weighted by its period: %llu events in all\n",
		       (unsigned long long)r->weight);
	if (r->shown != r->samples)
		printf("# %llu of them pass the filters\n",
		       (unsigned long long)r->shown);
	if (r->bad)
		pc_warn("%s: %llu mappings that wrap, skipped", in,
			(unsigned long long)r->bad);
	if (pc_tasks_dropped(r->tasks))
		printf("# %llu mappings past what report holds (16384 a process, 2097152 in all) were not kept: samples in them are unnamed\n",
		       (unsigned long long)pc_tasks_dropped(r->tasks));
	if (r->version >= 3)
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
	pc_rows_free(&r->rows);
	pc_tasks_free(r->tasks);
	r->tasks = NULL;
	pc_maps_free(&r->v2_maps);
	r->samples = r->shown = r->kernel = r->lost = r->lost_sideband = 0;
	r->weight = 0;
	r->bad = 0;
}

int cmd_report(int argc, char **argv)
{
	struct pc_sample_opts o = { .input = "perf-counter.data", .count = -1,
				    .children = -1 };
	struct rep r = { .view = { .threshold = 0.5 }, .o = &o };
	const struct pc_file_header *hdr;
	int opt;

	opt = pc_sample_opts_parse(argc, argv, "fingGYNsKQZD", &o, print_help);
	if (opt < 0)
		return opt == -1 ? 0 : 1;
	if (opt < argc) {
		print_help(stderr);
		return 1;
	}
	r.in = o.input;
	r.view.children = o.children != 0;
	r.view.caller = r.view.children;
	r.view.max_lines = o.count;
	if (o.call_graph) {
		pc_chain_view_parse(&r.view, o.call_graph);
		o.callchain = 1;
	}
	r.buf = slurp(r.in, &r.len, o.force);
	hdr = (const void *)r.buf;
	if (r.len < sizeof(*hdr) || memcmp(hdr->magic, PC_FILE_MAGIC, 8))
		pc_die("%s: not a perf-counter record file", r.in);
	swap = hdr->byte_order != PC_FILE_BYTE_ORDER;
	if (swap && hdr->byte_order != __builtin_bswap32(PC_FILE_BYTE_ORDER))
		pc_die("%s: unknown byte order", r.in);
	r.version = g32(hdr->version);
	if (r.version < PC_FILE_VERSION_MIN || r.version > PC_FILE_VERSION)
		pc_die("%s: version %u, this report reads %u to %u", r.in,
		       r.version, PC_FILE_VERSION_MIN, PC_FILE_VERSION);
	/* a version 2 file knows no task names: by file and function */
	pc_sort_parse(o.sort ? o.sort : r.version >= 3 ? "comm,dso,sym" :
		      "dso,sym", &r.sort);
	scan(&r);
	if (o.callchain && !r.has_chains)
		pc_warn("%s has no call chains (record them with record -g)",
			r.in);
	/* --sort asks for the flat profile, unless chains are asked too */
	if (o.sort && r.has_chains && !o.callchain)
		r.has_chains = 0;
	else if (o.sort && r.has_chains)
		pc_warn("--sort orders the flat profile: the call-chain trees are by function (leave out -g for the rows by %s)",
			o.sort);
	if (o.dump) {
		dump(&r);
		goto out;
	}
	printf("# perf-counter report of ");
	pc_print_escaped(r.in);
	if (r.cmd) {
		printf(": command ");
		pc_print_escaped(r.cmd);
	}
	putchar('\n');
	for (r.event = 0; r.event < r.nr_ev; r.event++) {
		if (r.event)
			putchar('\n');
		report_event(&r);
	}
out:
	free(r.words);
	free(r.at);
	free(r.ev);
	free(r.buf);
	return 0;
}
