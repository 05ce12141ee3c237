// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter: a record file read and replayed. pc_rfile_open() reads
 * the file whole, checks its header and every item's size, notes the
 * events, the command, the items' times (a version 3 file is replayed
 * in time order: a record the kernel committed late, its CPU stalled,
 * is put back) and, for report, loads the symbols of a portable file
 * (symbols.c). pc_replay_run() replays one event: the tasks' mappings
 * and names as the side-band items tell them (tasks.c), and each of
 * that event's samples, named with its task's mappings of the moment.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "reader.h"
#include "record.h"

uint32_t pc_rfile_u32(const struct pc_rfile *f, uint32_t v)
{
	return f->swap ? __builtin_bswap32(v) : v;
}

uint64_t pc_rfile_u64(const struct pc_rfile *f, uint64_t v)
{
	return f->swap ? __builtin_bswap64(v) : v;
}

/* The least body an item of @type has (its fixed part). */
size_t pc_rfile_fixed(const struct pc_rfile *f, uint32_t type)
{
	switch (type) {
	case PC_ITEM_EVENT:
		return sizeof(struct pc_item_event);
	case PC_ITEM_MMAP:
		return sizeof(struct pc_item_mmap);
	case PC_ITEM_SAMPLE:
		return f->version >= 4 ? sizeof(struct pc_item_sample4) :
			f->version >= 3 ? sizeof(struct pc_item_sample3) :
			sizeof(struct pc_item_sample);
	case PC_ITEM_LOST:
		return f->version >= 3 ? sizeof(struct pc_item_lost3) :
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
	case PC_ITEM_HOST:
		return sizeof(struct pc_item_host);
	case PC_ITEM_DSO:
		return sizeof(struct pc_item_dso);
	case PC_ITEM_KSYMS:
		return sizeof(struct pc_item_ksyms);
	case PC_ITEM_SWITCH:
		return sizeof(struct pc_item_switch);
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

/* What @fd holds, whole, read from its start. */
static char *slurp_fd(int fd, const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	*len = 0;
	do {
		if (*len + 65536 > cap) {
			cap = cap * 2 + 65536;
			buf = pc_realloc(buf, cap);
		}
		n = pread(fd, buf + *len, cap - *len, *len);
		if (n < 0 && errno != EINTR)
			pc_die("%s: %s", path, strerror(errno));
		if (n > 0)
			*len += n;
	} while (n);
	return buf;
}

/*
 * The record file, whole. One another user wrote is refused without
 * @force, as perf refuses it: its mappings name the files report reads
 * symbols from, and whoever wrote it chose them.
 */
static char *slurp(const char *path, size_t *len, int force)
{
	struct stat st;
	char *buf;
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
	buf = slurp_fd(fd, path, len);
	close(fd);
	return buf;
}

/*
 * The next item at *@off, checked: its type, body and body's length.
 * Return: 0 at the end of the file, 1 for an item to read, -1 for one
 * to skip (too short for its type, or its string has no NUL; told once,
 * when @tell).
 */
static int next_item(struct pc_rfile *f, size_t *off, uint32_t *type,
		     const void **body, size_t *blen, int tell)
{
	const struct pc_item *it;
	uint32_t size;
	size_t min;

	if (*off + sizeof(*it) > f->len)
		return 0;
	it = (const void *)(f->buf + *off);
	*type = pc_rfile_u32(f, it->type);
	size = pc_rfile_u32(f, it->size);
	if (size < sizeof(*it) || size % 8 || size > f->len - *off)
		pc_die("%s: item at %zu is cut short", f->in, *off);
	*body = it + 1;
	*blen = size - sizeof(*it);
	*off += size;
	min = pc_rfile_fixed(f, *type);
	if (*blen < min) {
		if (tell)
			pc_warn("%s: item at %zu (type %u) too short, skipped",
				f->in, *off - size, *type);
		return -1;
	}
	if (has_string(*type) &&
	    !memchr((const char *)*body + min, '\0', *blen - min)) {
		if (tell)
			pc_warn("%s: item at %zu (type %u): no NUL in its string, skipped",
				f->in, *off - size, *type);
		return -1;
	}
	return 1;
}

/*
 * An item's time, 0 for one that has none (EVENT, COMMAND, version 2's
 * MMAP and LOST, the portable items); its body is long enough
 * (next_item()).
 */
uint64_t pc_rfile_time(const struct pc_rfile *f, uint32_t type,
		       const void *body)
{
	uint64_t t = 0;

	if (type == PC_ITEM_SAMPLE)
		memcpy(&t, (const char *)body + 16, 8);
	else if ((type >= PC_ITEM_KMMAP && type <= PC_ITEM_LOST_SIDEBAND) ||
		 (type == PC_ITEM_LOST && f->version >= 3) ||
		 type == PC_ITEM_SWITCH)
		memcpy(&t, (const char *)body + 8, 8);
	return pc_rfile_u64(f, t);
}

static void note_time(struct pc_rfile *f, uint32_t type, const void *body,
		      size_t off)
{
	f->at = pc_grow(f->at, &f->at_cap, f->nr_at + 1, sizeof(*f->at));
	f->at[f->nr_at].time = pc_rfile_time(f, type, body);
	f->at[f->nr_at].off = off;
	f->nr_at++;
}

static int by_time(const void *a, const void *b)
{
	const struct pc_rfile_at *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Was the file recorded in this boot? */
static int this_boot(const struct pc_item_host *h)
{
	char id[sizeof(h->boot_id) + 1] = "";
	char here[64];

	memcpy(id, h->boot_id, sizeof(h->boot_id));
	if (pc_read_file("/proc/sys/kernel/random/boot_id", here,
			 sizeof(here)) < 0)
		return 0;
	here[strcspn(here, "\n")] = '\0';
	return id[0] && !strcmp(id, here);
}

/* The portable items: the boot, and symbols for symbols.c. */
static void scan_portable(struct pc_rfile *f, uint32_t type,
			  const void *body, size_t blen, size_t off,
			  int symbols)
{
	if (type == PC_ITEM_HOST) {
		const struct pc_item_host *h = body;

		f->other_boot = !this_boot(h);
		memcpy(f->machine, h->machine, sizeof(f->machine) - 1);
		f->machine[sizeof(f->machine) - 1] = '\0';
		return;
	}
	if (!symbols)
		return;
	if (pc_symbols_load(type, body, blen, f->swap))
		pc_warn("%s: item at %zu: symbols that do not hold what they say, skipped",
			f->in, off);
	else if (type == PC_ITEM_KSYMS)
		f->has_ksyms = 1;
}

/* The events, the command, whether samples have chains; the symbols. */
static void scan(struct pc_rfile *f, int symbols)
{
	size_t off = sizeof(struct pc_file_header), blen;
	const void *body;
	uint32_t type;
	int got;

	f->switch_event = UINT32_MAX;
	while ((got = next_item(f, &off, &type, &body, &blen, 1))) {
		if (got < 0)
			continue;
		if (f->version >= 3)
			note_time(f, type, body,
				  off - blen - sizeof(struct pc_item));
		if (type == PC_ITEM_SWITCH && f->switch_event == UINT32_MAX)
			f->switch_event = pc_rfile_u32(f,
				((const struct pc_item_switch *)body)->event);
		if (type == PC_ITEM_EVENT) {
			const struct pc_item_event *e = body;
			struct pc_rfile_event *ev;

			/* a profile each, each a replay of the whole file */
			if (f->nr_ev == PC_FILE_EVENTS_MAX)
				pc_die("%s: more than %d events", f->in,
				       PC_FILE_EVENTS_MAX);
			f->ev = pc_realloc(f->ev, (f->nr_ev + 1) * sizeof(*f->ev));
			ev = &f->ev[f->nr_ev++];
			ev->name = e->name;
			ev->period = pc_rfile_u64(f, e->irq_period);
			ev->freq = pc_rfile_u32(f, e->freq);
			ev->config = pc_rfile_u64(f, e->event_config);
			if (pc_rfile_u64(f, e->record_type) &
			    PERF_RECORD_CALLCHAIN)
				f->has_chains = 1;
		} else if (type == PC_ITEM_SAMPLE) {
			if (blen >= pc_rfile_fixed(f, type) +
			    sizeof(struct pc_item_chain))
				f->has_chains = 1;
		} else if (type == PC_ITEM_COMMAND) {
			f->cmd = body;
		} else if (type >= PC_ITEM_HOST && type <= PC_ITEM_KSYMS) {
			scan_portable(f, type, body, blen,
				      off - blen - sizeof(struct pc_item),
				      symbols);
		}
	}
	if (f->nr_at)
		qsort(f->at, f->nr_at, sizeof(*f->at), by_time);
	if (!f->nr_ev) {
		/* a file cut before its first item: one nameless event */
		f->ev = pc_zalloc(sizeof(*f->ev));
		f->ev[0].name = "?";
		f->nr_ev = 1;
	}
	/* another boot's kernel is not this one: no names but its own */
	if (symbols && f->other_boot && !f->has_ksyms)
		pc_symbols_no_kallsyms();
}

/* The file read into @f: its header and items checked, scanned. */
static void check(struct pc_rfile *f, int symbols)
{
	const struct pc_file_header *hdr = (const void *)f->buf;

	if (f->len < sizeof(*hdr) || memcmp(hdr->magic, PC_FILE_MAGIC, 8))
		pc_die("%s: not a perf-counter record file", f->in);
	f->swap = hdr->byte_order != PC_FILE_BYTE_ORDER;
	if (f->swap && hdr->byte_order != __builtin_bswap32(PC_FILE_BYTE_ORDER))
		pc_die("%s: unknown byte order", f->in);
	f->version = pc_rfile_u32(f, hdr->version);
	if (f->version < PC_FILE_VERSION_MIN || f->version > PC_FILE_VERSION)
		pc_die("%s: version %u, this report reads %u to %u", f->in,
		       f->version, PC_FILE_VERSION_MIN, PC_FILE_VERSION);
	scan(f, symbols);
}

/**
 * pc_rfile_open() - read and check a record file
 * @f:		filled
 * @path:	the file
 * @force:	read it even if another user owns it
 * @symbols:	load a portable file's symbols (report; not its -D)
 *
 * Dies with a message when the file cannot be read, is no record file,
 * or an item's size runs past its end.
 */
void pc_rfile_open(struct pc_rfile *f, const char *path, int force,
		   int symbols)
{
	memset(f, 0, sizeof(*f));
	f->in = path;
	f->buf = slurp(path, &f->len, force);
	check(f, symbols);
}

/**
 * pc_rfile_open_fd() - read and check the record file open at @fd
 * @f:		filled
 * @fd:		open for reading; read from its start, left open
 * @path:	its name, for messages
 *
 * record's own file, as it wrote it; its symbols are not loaded.
 */
void pc_rfile_open_fd(struct pc_rfile *f, int fd, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->in = path;
	f->buf = slurp_fd(fd, path, &f->len);
	check(f, 0);
}

void pc_rfile_close(struct pc_rfile *f)
{
	free(f->at);
	free(f->ev);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

/**
 * pc_rfile_item() - the @i-th item in the order a replay takes them
 * @f:		the file
 * @i:		from 0
 * @off:	a version 2 file's: where the next is (from the header on)
 * @type:	its type
 * @body:	its body
 * @blen:	the body's length
 *
 * Version 3 on by time, version 2 as written.
 *
 * Return: 0 after the last, 1 for an item, -1 for one to skip.
 */
int pc_rfile_item(struct pc_rfile *f, size_t i, size_t *off, uint32_t *type,
		  const void **body, size_t *blen)
{
	if (f->version >= 3) {
		if (i == f->nr_at)
			return 0;
		*off = f->at[i].off;
	}
	return next_item(f, off, type, body, blen, 0);
}

/* The chain after a SAMPLE's @fixed bytes, if any, in host order. */
static int sample_chain(struct pc_replay *p, const void *body, size_t blen,
			size_t fixed, uint32_t *nr, uint32_t *flags)
{
	const struct pc_item_chain *ch;
	uint32_t i;

	if (blen < fixed + sizeof(*ch))
		return 0;
	ch = (const void *)((const char *)body + fixed);
	blen -= fixed + sizeof(*ch);
	*nr = pc_rfile_u32(p->f, ch->nr);
	*flags = pc_rfile_u32(p->f, ch->flags);
	if (*nr > blen / 8)
		return -1;
	p->words = pc_grow(p->words, &p->words_cap, *nr + 1,
			   sizeof(*p->words));
	for (i = 0; i < *nr; i++)
		p->words[i] = pc_rfile_u64(p->f, ch->ip[i]);
	return 1;
}

/* Side-band items: the tasks as they become. */
static void replay_sideband(struct pc_replay *p, uint32_t type,
			    const void *body)
{
	const struct pc_rfile *f = p->f;

	if (type == PC_ITEM_KMMAP) {
		struct perf_counter_mmap m;

		memcpy(&m, body, sizeof(m));
		m.pid = pc_rfile_u32(f, m.pid);
		m.tid = pc_rfile_u32(f, m.tid);
		m.addr = pc_rfile_u64(f, m.addr);
		m.len = pc_rfile_u64(f, m.len);
		m.pgoff = pc_rfile_u64(f, m.pgoff);
		m.dev = pc_rfile_u64(f, m.dev);
		m.ino = pc_rfile_u64(f, m.ino);
		m.flags = pc_rfile_u32(f, m.flags);
		if (pc_tasks_mmap(p->tasks, &m, (const char *)body + sizeof(m)))
			p->bad++;
	} else if (type == PC_ITEM_COMM) {
		struct perf_counter_comm c;

		memcpy(&c, body, sizeof(c));
		pc_tasks_set_comm(p->tasks, pc_rfile_u32(f, c.pid),
				  pc_rfile_u32(f, c.tid), c.comm,
				  pc_rfile_u32(f, c.flags) &
				  PERF_COUNTER_COMM_EXEC);
	} else if (type == PC_ITEM_FORK || type == PC_ITEM_EXIT) {
		struct perf_counter_task t;

		memcpy(&t, body, sizeof(t));
		if (type == PC_ITEM_FORK)
			pc_tasks_fork(p->tasks, pc_rfile_u32(f, t.pid),
				      pc_rfile_u32(f, t.tid),
				      pc_rfile_u32(f, t.ppid),
				      pc_rfile_u32(f, t.ptid));
		else
			pc_tasks_exit(p->tasks, pc_rfile_u32(f, t.pid),
				      pc_rfile_u32(f, t.tid));
		if (type == PC_ITEM_EXIT && p->exited)
			p->exited(p->ctx, pc_rfile_u32(f, t.pid),
				  pc_rfile_u32(f, t.tid));
	} else if (type == PC_ITEM_LOST_SIDEBAND) {
		const struct pc_item_lost3 *l = body;

		p->lost_sideband += pc_rfile_u64(f, l->lost);
		pc_tasks_sideband_lost(p->tasks);
	}
	if (p->changed)
		p->changed(p->ctx);
}

/* A SAMPLE of the event replayed, to p->sample. */
static void replay_sample(struct pc_replay *p, const void *body, size_t blen,
			  size_t at)
{
	const struct pc_rfile *f = p->f;
	const struct pc_item_sample4 *s4 = body;
	struct pc_replay_sample s;
	int got;

	if (f->version >= 3 && pc_rfile_u32(f, s4->event) != p->event)
		return;
	memset(&s, 0, sizeof(s));
	s.pid = pc_rfile_u32(f, s4->pid);
	s.tid = pc_rfile_u32(f, s4->tid);
	s.ip = pc_rfile_u64(f, s4->ip);
	s.time = pc_rfile_u64(f, s4->time);
	s.cpu = f->version >= 3 ? (int32_t)pc_rfile_u32(f, s4->cpu) : -1;
	s.task = pc_tasks_get(p->tasks, s.pid);
	s.maps = f->version >= 3 ? pc_task_maps(s.task) : &p->v2_maps;
	/*
	 * The events it stands for: its own period. Before version 4 an
	 * event's samples all stood for one period: each weighs 1, the
	 * same shares without a sum that a huge -c could wrap.
	 */
	s.weight = f->version >= 4 ? pc_rfile_u64(f, s4->period) : 1;
	if (!s.weight)
		s.weight = 1;
	s.off = at;
	got = sample_chain(p, body, blen, pc_rfile_fixed(f, PC_ITEM_SAMPLE),
			   &s.nr, &s.flags);
	s.bad_chain = got < 0;
	if (got > 0)
		s.chain = p->words;
	p->sample(p->ctx, &s);
}

static int host_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one;
}

/* A SWITCH of the event replayed, to p->switched. */
static void replay_switch(struct pc_replay *p, const void *body, size_t blen)
{
	const struct pc_rfile *f = p->f;
	struct pc_item_switch w;
	struct pc_replay_switch s;
	uint32_t i;
	int got;

	memcpy(&w, body, sizeof(w));
	if (!p->switched || pc_rfile_u32(f, w.event) != p->event)
		return;
	memset(&s, 0, sizeof(s));
	s.pid = pc_rfile_u32(f, w.pid);
	s.tid = pc_rfile_u32(f, w.tid);
	s.time = pc_rfile_u64(f, w.time);
	s.cpu = (int32_t)pc_rfile_u32(f, w.cpu);
	s.out = !!pc_rfile_u32(f, w.out);
	s.preempted = !!(pc_rfile_u32(f, w.flags) &
			 PERF_COUNTER_SWITCH_PREEMPTED);
	s.task = pc_tasks_get(p->tasks, s.pid);
	s.maps = pc_task_maps(s.task);
	got = sample_chain(p, body, blen, sizeof(w), &s.nr, &s.flags);
	if (got > 0) {
		const struct pc_item_chain *ch = (const void *)
			((const char *)body + sizeof(w));
		size_t room = (blen - sizeof(w) - sizeof(*ch)) / 8 - s.nr;

		s.chain = p->words;
		s.stack_words = pc_rfile_u32(f, w.stack_words);
		if (s.stack_words > room || s.stack_words > PC_STACK_WORDS_MAX) {
			s.stack_words = 0;
			p->bad++;
		}
		for (i = 0; i < s.stack_words; i++)
			s.stack[i] = pc_rfile_u64(f, ch->ip[s.nr + i]);
		s.stack_le = f->swap ? !host_le() : host_le();
	} else if (got < 0) {
		p->bad++;
	}
	p->switched(p->ctx, &s);
}

/**
 * pc_replay_run() - replay the file for event @p->event
 * @p:		the replay: its file, event and callbacks set
 *
 * A version 2 file's mappings (at its end) are read first and serve
 * every task. Its tasks stay in @p until pc_replay_done().
 */
void pc_replay_run(struct pc_replay *p)
{
	size_t off = sizeof(struct pc_file_header), blen, i;
	struct pc_rfile *f = p->f;
	const void *body;
	uint32_t type;
	int got;

	p->tasks = pc_tasks_new();
	while (f->version < 3 &&
	       (got = next_item(f, &off, &type, &body, &blen, 0))) {
		const struct pc_item_mmap *m = body;
		struct pc_map map;

		if (got < 0 || type != PC_ITEM_MMAP)
			continue;
		map.pid = pc_rfile_u32(f, m->pid);
		map.start = pc_rfile_u64(f, m->start);
		map.end = pc_rfile_u64(f, m->end);
		map.pgoff = pc_rfile_u64(f, m->pgoff);
		map.dev = pc_rfile_u64(f, m->dev);
		map.ino = pc_rfile_u64(f, m->ino);
		map.path = (char *)m->path;
		pc_maps_add(&p->v2_maps, &map);
	}
	off = sizeof(struct pc_file_header);
	for (i = 0; (got = pc_rfile_item(f, i, &off, &type, &body, &blen));
	     i++) {
		if (got < 0)
			continue;
		if (type == PC_ITEM_SAMPLE) {
			replay_sample(p, body, blen,
				      off - blen - sizeof(struct pc_item));
		} else if (type == PC_ITEM_SWITCH && f->version >= 3) {
			replay_switch(p, body, blen);
		} else if (type == PC_ITEM_LOST) {
			uint64_t v;

			memcpy(&v, body, sizeof(v));
			if (f->version < 3 ||
			    pc_rfile_u32(f, ((const struct pc_item_lost3 *)
					     body)->event) == p->event)
				p->lost += pc_rfile_u64(f, v);
		} else if (f->version >= 3 && type >= PC_ITEM_KMMAP &&
			   type <= PC_ITEM_LOST_SIDEBAND) {
			replay_sideband(p, type, body);
		}
	}
}

/* What a replay holds: its tasks, mappings and chain words. */
void pc_replay_done(struct pc_replay *p)
{
	pc_tasks_free(p->tasks);
	p->tasks = NULL;
	pc_maps_free(&p->v2_maps);
	free(p->words);
	p->words = NULL;
	p->words_cap = 0;
	p->lost = p->lost_sideband = p->bad = 0;
}
