// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter report: the tasks of a recording as they were at each
 * moment, rebuilt from the side-band records in time order. A process
 * (by pid) has the executable mappings it was seen to make: it starts
 * with those the /proc snapshot showed, or its parent's at FORK; exec
 * (a COMM record with PERF_COUNTER_COMM_EXEC) empties them, and the
 * MMAP records that follow fill them again. A thread (by tid) has a
 * name, from the snapshot, its creator at FORK, or COMM.
 *
 * A process is "known" when its mappings were learned from the start of
 * its life or of its program: the snapshot, a FORK from a known process,
 * or an exec. Report counts, for each process, the samples whose user
 * address lies in no mapping it was seen to make, and names the
 * processes it never knew, never guessing with another one's mappings.
 */
#include <stdlib.h>
#include <string.h>

#include "pc.h"

#define PC_TASK_BUCKETS	1024
/*
 * The mappings held at once, every task's together: a FORK copies its
 * parent's, so a file of many forks of a task with many mappings would
 * otherwise grow without bound.
 */
#define PC_TASKS_MAPS_MAX	(1 << 21)

struct pc_thread {
	uint32_t tid;
	char comm[16];
	struct pc_thread *next;
};

struct pc_tasks {
	struct pc_task *task[PC_TASK_BUCKETS];
	struct pc_thread *thread[PC_TASK_BUCKETS];
	struct pc_maps all;	/* every mapping made, for fp_warn */
	int nr_tasks;
	long nr_maps;		/* held by the tasks, at most the max */
};

static void forget_maps(struct pc_tasks *t, struct pc_task *p)
{
	t->nr_maps -= p->maps.nr;
	pc_maps_free(&p->maps);
}

static unsigned int bucket(uint32_t id)
{
	return (id * 2654435761U) % PC_TASK_BUCKETS;
}

struct pc_tasks *pc_tasks_new(void)
{
	return pc_zalloc(sizeof(struct pc_tasks));
}

void pc_tasks_free(struct pc_tasks *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < PC_TASK_BUCKETS; i++) {
		while (t->task[i]) {
			struct pc_task *p = t->task[i];

			t->task[i] = p->next;
			forget_maps(t, p);
			free(p);
		}
		while (t->thread[i]) {
			struct pc_thread *p = t->thread[i];

			t->thread[i] = p->next;
			free(p);
		}
	}
	pc_maps_free(&t->all);
	free(t);
}

/* Process @pid, made (unknown, no mappings) if it was never seen. */
struct pc_task *pc_tasks_get(struct pc_tasks *t, uint32_t pid)
{
	struct pc_task **b = &t->task[bucket(pid)], *p;

	for (p = *b; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = pc_zalloc(sizeof(*p));
	p->pid = pid;
	p->next = *b;
	*b = p;
	t->nr_tasks++;
	return p;
}

static struct pc_thread *thread_get(struct pc_tasks *t, uint32_t tid)
{
	struct pc_thread **b = &t->thread[bucket(tid)], *p;

	for (p = *b; p; p = p->next)
		if (p->tid == tid)
			return p;
	p = pc_zalloc(sizeof(*p));
	p->tid = tid;
	p->next = *b;
	*b = p;
	return p;
}

/* Every process, in no order: @fn for each. */
void pc_tasks_each(struct pc_tasks *t, void (*fn)(void *ctx, struct pc_task *p),
		   void *ctx)
{
	unsigned int i;
	struct pc_task *p;

	for (i = 0; i < PC_TASK_BUCKETS; i++)
		for (p = t->task[i]; p; p = p->next)
			fn(ctx, p);
}

const struct pc_maps *pc_tasks_all_maps(const struct pc_tasks *t)
{
	return &t->all;
}

/*
 * The name thread @tid had last, or NULL if none was seen. COMM and the
 * snapshot give it; a new thread or process takes its creator's.
 */
const char *pc_tasks_comm(struct pc_tasks *t, uint32_t tid)
{
	struct pc_thread *p = thread_get(t, tid);

	return p->comm[0] ? p->comm : NULL;
}

static void add_map(struct pc_tasks *t, struct pc_task *p,
		    const struct pc_map *m)
{
	if (++t->nr_maps > PC_TASKS_MAPS_MAX)
		pc_die("more than %d mappings held at once: a file no record of this machine wrote",
		       PC_TASKS_MAPS_MAX);
	pc_maps_add(&p->maps, m);
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
	/* copies at FORK are of the same files: not kept here again */
	pc_maps_add(&t->all, &map);
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
	if (exec) {
		struct pc_task *p = pc_tasks_get(t, pid);

		forget_maps(t, p);
		p->known = 1;
	}
}

/* The snapshot saw @pid's mappings: it is known. */
void pc_tasks_seen(struct pc_tasks *t, uint32_t pid)
{
	pc_tasks_get(t, pid)->known = 1;
}

/**
 * pc_tasks_fork() - a FORK record
 * @t:		the tasks
 * @pid:	the new task's process (its creator's, for a thread)
 * @tid:	the new thread
 * @ppid:	the creator's process
 * @ptid:	the creator's thread
 *
 * A new process starts with a copy of its parent's mappings (forgetting
 * a process of the same pid that ended), known if the parent was; a new
 * thread shares its process's. Either takes its creator's name.
 */
void pc_tasks_fork(struct pc_tasks *t, uint32_t pid, uint32_t tid,
		   uint32_t ppid, uint32_t ptid)
{
	const char *comm = pc_tasks_comm(t, ptid);

	if (comm) {
		char c[16];

		memcpy(c, comm, sizeof(c));
		memcpy(thread_get(t, tid)->comm, c, sizeof(c));
	} else {
		thread_get(t, tid)->comm[0] = '\0';
	}
	if (pid != ppid) {
		struct pc_task *child = pc_tasks_get(t, pid);
		struct pc_task *parent = pc_tasks_get(t, ppid);
		int i;

		forget_maps(t, child);
		child->known = parent->known;
		child->exited = 0;
		for (i = 0; i < parent->maps.nr; i++) {
			struct pc_map m = parent->maps.map[i];

			m.pid = pid;
			add_map(t, child, &m);
		}
	}
}

/* An EXIT record: thread @tid of @pid ended (the process, if @tid is it). */
void pc_tasks_exit(struct pc_tasks *t, uint32_t pid, uint32_t tid)
{
	if (pid == tid)
		pc_tasks_get(t, pid)->exited = 1;
}
