// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: the tasks of a recording as they were at each
 * moment, rebuilt from the side-band records in time order. A process
 * (by pid) has the executable mappings it was seen to make: it starts
 * with those of the /proc snapshot, or its parent's at FORK; exec (a
 * COMM record with PERF_COUNTER_COMM_EXEC) empties them, and the MMAP
 * records that follow fill them again. A thread (by tid) has a name,
 * from the snapshot, its creator at FORK, or COMM.
 *
 * A process is "known" when its mappings were learned from the start of
 * its life or of its program: the snapshot, a FORK from a known process,
 * or an exec. Its mappings are let go at its last thread's EXIT (none of
 * its samples comes after), unless side-band records were lost, which
 * may have been of a thread still alive.
 *
 * The file may be anyone's: what it can make report hold is bounded. A
 * child shares its parent's list of mappings until one of them changes
 * it (most exec at once), paths are kept once, a process holds at most
 * PC_TASK_MAPS_MAX mappings and all of them PC_TASKS_MAPS_MAX, and the
 * tables of pids and tids are hashed with a seed a file cannot know.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc.h"

#define PC_TASK_MAPS_MAX	16384		/* a process's, at once */
#define PC_TASKS_MAPS_MAX	(1 << 21)	/* every process's */

/* A list of mappings, shared by a process and its children after FORK. */
struct pc_maplist {
	struct pc_maps maps;	/* their paths are interned: not freed */
	size_t cap;
	int refs;
};

struct pc_thread {
	uint32_t tid;		/* first: the hash table's key */
	uint32_t pid;		/* its process, while it is alive */
	int alive;		/* seen made or named, not yet ended */
	char comm[16];
};

/* Open addressing of entries whose first field is their uint32_t id. */
struct pc_idtab {
	void **slot;
	size_t cap, nr;
};

struct pc_tasks {
	struct pc_idtab task, thread;
	char **path;		/* interned paths, open addressing */
	size_t path_cap, nr_path;
	long nr_maps;		/* held in lists, at most PC_TASKS_MAPS_MAX */
	uint64_t dropped;	/* mappings past the limits, not held */
	int keep;		/* side-band records were lost: free none */
	uint32_t seed;
};

static uint32_t mix(uint32_t x, uint32_t seed)
{
	x ^= seed;
	x ^= x >> 16;
	x *= 0x85ebca6bU;
	x ^= x >> 13;
	x *= 0xc2b2ae35U;
	return x ^ (x >> 16);
}

static void *id_find(const struct pc_tasks *t, const struct pc_idtab *h,
		     uint32_t id)
{
	size_t i;

	if (!h->cap)
		return NULL;
	for (i = mix(id, t->seed) & (h->cap - 1); h->slot[i];
	     i = (i + 1) & (h->cap - 1))
		if (*(uint32_t *)h->slot[i] == id)
			return h->slot[i];
	return NULL;
}

static void id_insert(const struct pc_tasks *t, struct pc_idtab *h, void *e)
{
	size_t i;

	if (2 * (h->nr + 1) > h->cap) {
		struct pc_idtab old = *h;

		h->cap = h->cap ? h->cap * 2 : 1024;
		h->slot = pc_zalloc(h->cap * sizeof(*h->slot));
		h->nr = 0;
		for (i = 0; i < old.cap; i++)
			if (old.slot[i])
				id_insert(t, h, old.slot[i]);
		free(old.slot);
	}
	for (i = mix(*(uint32_t *)e, t->seed) & (h->cap - 1); h->slot[i];
	     i = (i + 1) & (h->cap - 1))
		;
	h->slot[i] = e;
	h->nr++;
}

struct pc_tasks *pc_tasks_new(void)
{
	struct pc_tasks *t = pc_zalloc(sizeof(*t));

	t->seed = (uint32_t)(pc_now_ns() * 2654435761U) ^ (uint32_t)getpid();
	return t;
}

static void list_put(struct pc_tasks *t, struct pc_maplist *l)
{
	if (!l || --l->refs)
		return;
	t->nr_maps -= l->maps.nr;
	free(l->maps.map);
	free(l);
}

void pc_tasks_free(struct pc_tasks *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->task.cap; i++) {
		struct pc_task *p = t->task.slot[i];

		if (p) {
			list_put(t, p->ml);
			free(p);
		}
	}
	for (i = 0; i < t->thread.cap; i++)
		free(t->thread.slot[i]);
	for (i = 0; i < t->path_cap; i++)
		free(t->path[i]);
	free(t->task.slot);
	free(t->thread.slot);
	free(t->path);
	free(t);
}

/* Process @pid, made (unknown, no mappings) if it was never seen. */
struct pc_task *pc_tasks_get(struct pc_tasks *t, uint32_t pid)
{
	struct pc_task *p = id_find(t, &t->task, pid);

	if (p)
		return p;
	p = pc_zalloc(sizeof(*p));
	p->pid = pid;
	id_insert(t, &t->task, p);
	return p;
}

static struct pc_thread *thread_get(struct pc_tasks *t, uint32_t tid)
{
	struct pc_thread *p = id_find(t, &t->thread, tid);

	if (p)
		return p;
	p = pc_zalloc(sizeof(*p));
	p->tid = tid;
	id_insert(t, &t->thread, p);
	return p;
}

/* Every process, in no order: @fn for each. */
void pc_tasks_each(struct pc_tasks *t, void (*fn)(void *ctx, struct pc_task *p),
		   void *ctx)
{
	size_t i;

	for (i = 0; i < t->task.cap; i++)
		if (t->task.slot[i])
			fn(ctx, t->task.slot[i]);
}

/* The mappings process @p has now (none: an empty list). */
const struct pc_maps *pc_task_maps(const struct pc_task *p)
{
	static const struct pc_maps none;

	return p->ml ? &p->ml->maps : &none;
}

/* How many mappings were past the limits, and not held. */
uint64_t pc_tasks_dropped(const struct pc_tasks *t)
{
	return t->dropped;
}

/*
 * The name thread @tid had last, or NULL if none was seen. COMM and the
 * snapshot give it; a new thread or process takes its creator's.
 */
const char *pc_tasks_comm(struct pc_tasks *t, uint32_t tid)
{
	struct pc_thread *p = id_find(t, &t->thread, tid);

	return p && p->comm[0] ? p->comm : NULL;
}

/*
 * The name thread @tid of @pid goes by in a report: its last (as
 * pc_tasks_comm()), else ":TID" in @buf ("swapper" for pid 0).
 */
const char *pc_tasks_name(struct pc_tasks *t, uint32_t pid, uint32_t tid,
			  char *buf, size_t len)
{
	const char *comm = pc_tasks_comm(t, tid);

	if (comm)
		return comm;
	snprintf(buf, len, pid ? ":%u" : "swapper", tid);
	return buf;
}

static uint32_t path_hash(const struct pc_tasks *t, const char *s)
{
	uint32_t h = t->seed;

	for (; *s; s++)
		h = mix(h ^ (unsigned char)*s, t->seed);
	return h;
}

/* The slot of @s in the interned paths: its own, or the empty one. */
static size_t path_slot(const struct pc_tasks *t, const char *s)
{
	size_t i;

	for (i = path_hash(t, s) & (t->path_cap - 1); t->path[i];
	     i = (i + 1) & (t->path_cap - 1))
		if (!strcmp(t->path[i], s))
			break;
	return i;
}

/* @s, kept once however many mappings name it (and never moved). */
static char *intern(struct pc_tasks *t, const char *s)
{
	size_t i;

	if (2 * (t->nr_path + 1) > t->path_cap) {
		char **old = t->path;
		size_t old_cap = t->path_cap;

		t->path_cap = t->path_cap ? t->path_cap * 2 : 1024;
		t->path = pc_zalloc(t->path_cap * sizeof(*t->path));
		for (i = 0; i < old_cap; i++)
			if (old[i])
				t->path[path_slot(t, old[i])] = old[i];
		free(old);
	}
	i = path_slot(t, s);
	if (!t->path[i]) {
		t->path[i] = pc_strdup(s);
		t->nr_path++;
	}
	return t->path[i];
}

/* Process @p's own list of mappings, copied first if it is shared. */
static struct pc_maplist *own_list(struct pc_tasks *t, struct pc_task *p)
{
	struct pc_maplist *l = p->ml, *copy;
	int i;

	if (l && l->refs == 1)
		return l;
	copy = pc_zalloc(sizeof(*copy));
	copy->refs = 1;
	if (l) {
		copy->cap = l->maps.nr;
		copy->maps.nr = l->maps.nr;
		copy->maps.map = pc_zalloc((copy->cap ? copy->cap : 1) *
					   sizeof(*copy->maps.map));
		memcpy(copy->maps.map, l->maps.map,
		       l->maps.nr * sizeof(*l->maps.map));
		/* its own now: pc_maps_find() looks for @p's pid */
		for (i = 0; i < copy->maps.nr; i++)
			copy->maps.map[i].pid = p->pid;
		t->nr_maps += l->maps.nr;
		l->refs--;
	}
	p->ml = copy;
	return copy;
}

static void add_map(struct pc_tasks *t, struct pc_task *p,
		    const struct pc_map *m)
{
	struct pc_maplist *l;
	struct pc_map *n;

	/* a shared list is copied first: its mappings count twice */
	if ((p->ml && p->ml->maps.nr >= PC_TASK_MAPS_MAX) ||
	    t->nr_maps + (p->ml && p->ml->refs > 1 ? p->ml->maps.nr : 0) >=
	    PC_TASKS_MAPS_MAX) {
		t->dropped++;
		return;
	}
	l = own_list(t, p);
	l->maps.map = pc_grow(l->maps.map, &l->cap, l->maps.nr + 1,
			      sizeof(*l->maps.map));
	n = &l->maps.map[l->maps.nr++];
	*n = *m;
	n->pid = p->pid;
	n->path = intern(t, m->path);
	t->nr_maps++;
}

static void forget_maps(struct pc_tasks *t, struct pc_task *p)
{
	list_put(t, p->ml);
	p->ml = NULL;
}

/* Thread @th is of process @pid and alive: its process counts it. */
static void thread_alive(struct pc_tasks *t, struct pc_thread *th,
			 uint32_t pid)
{
	if (th->alive && th->pid == pid)
		return;
	if (th->alive)
		pc_tasks_get(t, th->pid)->threads--;
	th->alive = 1;
	th->pid = pid;
	pc_tasks_get(t, pid)->threads++;
}

/**
 * pc_tasks_mmap() - a MMAP record: an executable mapping was made
 * @t:		the tasks
 * @m:		the record's fixed part, in this machine's byte order
 * @path:	its path, NUL-terminated
 *
 * Return: 0, or -1 for a mapping that wraps.
 */
int pc_tasks_mmap(struct pc_tasks *t, const struct perf_counter_mmap *m,
		  const char *path)
{
	struct pc_map map;

	if (m->addr + m->len < m->addr)
		return -1;
	map.pid = m->pid;
	map.start = m->addr;
	map.end = m->addr + m->len;
	map.pgoff = m->pgoff;
	map.dev = m->dev;
	map.ino = m->ino;
	/*
	 * Only an absolute path names a file symbols are read from (and
	 * only with this device and inode: symbols.c).
	 */
	if (m->flags & PERF_COUNTER_MMAP_CUT)
		map.path = "[path too long]";
	else if ((m->flags & PERF_COUNTER_MMAP_ANON) && strcmp(path, "[vdso]"))
		map.path = "[anon]";
	else
		map.path = (char *)path;
	add_map(t, pc_tasks_get(t, m->pid), &map);
	return 0;
}

/**
 * pc_tasks_set_comm() - a COMM record, or a thread the snapshot showed
 * @t:		the tasks
 * @pid:	the process
 * @tid:	the thread renamed
 * @comm:	its name, NUL-terminated within 16 bytes or cut there
 * @exec:	an exec: the process's mappings are gone, its new ones come
 */
void pc_tasks_set_comm(struct pc_tasks *t, uint32_t pid, uint32_t tid,
		       const char *comm, int exec)
{
	struct pc_thread *th = thread_get(t, tid);

	memcpy(th->comm, comm, sizeof(th->comm));
	th->comm[sizeof(th->comm) - 1] = '\0';
	thread_alive(t, th, pid);
	if (exec) {
		struct pc_task *p = pc_tasks_get(t, pid);

		forget_maps(t, p);
		p->known = 1;
	}
}

/* Side-band records were lost: no process's mappings are let go. */
void pc_tasks_sideband_lost(struct pc_tasks *t)
{
	t->keep = 1;
}

/**
 * pc_tasks_fork() - a FORK record
 * @t:		the tasks
 * @pid:	the new task's process (its creator's, for a thread)
 * @tid:	the new thread
 * @ppid:	the creator's process
 * @ptid:	the creator's thread
 *
 * A new process starts with its parent's mappings (forgetting a process
 * of the same pid that ended), known if the parent was; a new thread
 * shares its process's. Either takes its creator's name.
 */
void pc_tasks_fork(struct pc_tasks *t, uint32_t pid, uint32_t tid,
		   uint32_t ppid, uint32_t ptid)
{
	const char *comm = pc_tasks_comm(t, ptid);
	struct pc_thread *th = thread_get(t, tid);

	if (comm)
		memcpy(th->comm, comm, sizeof(th->comm));
	else
		th->comm[0] = '\0';
	if (pid != ppid) {
		struct pc_task *child = pc_tasks_get(t, pid);
		struct pc_task *parent = pc_tasks_get(t, ppid);

		forget_maps(t, child);
		child->known = parent->known;
		child->threads = 0;
		child->ml = parent->ml;
		if (child->ml)
			child->ml->refs++;
		/* a thread of the pid's last life, counted no more */
		if (th->alive && th->pid == pid)
			th->alive = 0;
	}
	thread_alive(t, th, pid);
}

/* An EXIT record: thread @tid of @pid ended; the process, if it was its last. */
void pc_tasks_exit(struct pc_tasks *t, uint32_t pid, uint32_t tid)
{
	struct pc_thread *th = id_find(t, &t->thread, tid);
	struct pc_task *p;

	if (!th || !th->alive || th->pid != pid)
		return;
	th->alive = 0;
	p = pc_tasks_get(t, pid);
	if (--p->threads == 0 && !t->keep) {
		forget_maps(t, p);
		p->known = 0;
	}
}
