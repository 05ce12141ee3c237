// SPDX-License-Identifier: GPL-2.0
/*
 * perf-counter stat --per-thread: each thread and process of the
 * command counted apart, at its exit. Every task that counted writes
 * its counts into its group leader's queue (a TOTALS record: the
 * leader has inherit_stat), and the first leader's side-band records
 * (COMM, FORK) name the tasks. Here: the queues read, their records
 * taken, each thread's lives kept by tid, their names, the records
 * lost, and the threads in the order they are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pc.h"
#include "stat.h"

/* The threads by tid: an open hash of each tid's first life. */

/* Fibonacci hashing: the product's top bits, which all of @tid's move. */
static size_t tid_hash(uint32_t tid, size_t nr_slot)
{
	unsigned int bits = __builtin_ctzl(nr_slot);

	return bits ? (uint32_t)(tid * 2654435761U) >> (32 - bits) : 0;
}

/* The slot of @tid's first life in the hash, or the empty one to use. */
static int *tid_slot(struct stat_threads *th, uint32_t tid)
{
	size_t i, mask = th->nr_slot - 1;

	for (i = tid_hash(tid, th->nr_slot); th->slot[i];
	     i = (i + 1) & mask)
		if (th->t[th->slot[i] - 1].tid == tid)
			break;
	return &th->slot[i];
}

/* Room in the hash for one more tid: doubled when half full. */
static void tid_room(struct stat_threads *th)
{
	int *old = th->slot;
	size_t i, old_nr = th->nr_slot;

	if (2 * (th->nr_tids + 1) <= th->nr_slot)
		return;
	th->nr_slot = th->nr_slot ? 2 * th->nr_slot : 256;
	th->slot = pc_zalloc(th->nr_slot * sizeof(*th->slot));
	for (i = 0; i < old_nr; i++)
		if (old[i])
			*tid_slot(th, th->t[old[i] - 1].tid) = old[i];
	free(old);
}

static int new_thread(struct stat_state *st, uint32_t pid, uint32_t tid)
{
	struct stat_threads *th = &st->th;
	struct stat_thread *t;

	th->t = pc_grow(th->t, &th->cap, th->nr + 1, sizeof(*th->t));
	t = &th->t[th->nr];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->next = -1;
	t->n = pc_zalloc(st->nr * sizeof(*t->n));
	return th->nr++;
}

/*
 * The life of thread @tid of process @pid that leader @lead's TOTALS
 * record is of: the first whose record from @lead has not come yet. A
 * tid is used again once its thread is gone, and each queue tells of
 * the lives in the order they ended; the queues, read one after the
 * other, need not have reached the same one. (Where a queue dropped a
 * life's record, a later life of the same tid and pid may take it:
 * the lost records are told.) Return: the life, or -1 past
 * STAT_MAX_LIVES.
 */
static int thread_life(struct stat_state *st, uint32_t pid, uint32_t tid,
		       int lead)
{
	struct stat_threads *th = &st->th;
	int *slot, i, last = -1;

	tid_room(th);
	slot = tid_slot(th, tid);
	for (i = *slot - 1; i >= 0; last = i, i = th->t[i].next)
		if (th->t[i].pid == pid && !th->t[i].n[lead].got)
			return i;
	if (th->nr >= STAT_MAX_LIVES) {
		th->unlisted++;
		return -1;
	}
	i = new_thread(st, pid, tid);
	if (last >= 0) {
		th->t[last].next = i;
	} else {
		*slot = i + 1;
		th->nr_tids++;
	}
	return i;
}

/* Thread life @i's name as pc_tasks_name() gives it now. */
static void name_thread(struct stat_threads *th, int i)
{
	struct stat_thread *t = &th->t[i];
	char buf[24];

	snprintf(t->name, sizeof(t->name), "%s",
		 pc_tasks_name(th->tasks, t->pid, t->tid, buf, sizeof(buf)));
	t->named = 1;
}

/*
 * A TOTALS record of leader @lead: what the task counted in its life,
 * its group's read words after the task's pid, tid and time. The side-
 * band leader's is named now, its COMM records all read before it.
 */
static void take_totals(struct stat_state *st, int lead, const char *body,
			size_t blen)
{
	struct perf_counter_totals tot;
	size_t words;
	int i;

	if (blen < sizeof(tot))
		return;
	memcpy(&tot, body, sizeof(tot));
	words = (blen - sizeof(tot)) / 8;
	if (words > st->nr_words)
		return;		/* more than this group has */
	memcpy(st->words, body + sizeof(tot), words * 8);
	/* a group read's nr, its times and a value and an id each */
	if (!words || st->words[0] > (words - 3) / 2)
		return;
	i = thread_life(st, tot.pid, tot.tid, lead);
	if (i < 0)
		return;
	stat_take_group(st, st->words, words, lead, 0, st->th.t[i].n);
	st->th.t[i].n[lead].got = 1;
	if (lead == st->th.sb)
		name_thread(&st->th, i);
}

/* One record of leader @lead's queue: totals, names, drops. */
static void take_record(struct stat_state *st, int lead, uint32_t type,
			const char *body, size_t blen)
{
	struct perf_counter_comm comm;
	struct perf_counter_task task;
	uint64_t lost;

	switch (type) {
	case PERF_COUNTER_REC_TOTALS:
		take_totals(st, lead, body, blen);
		break;
	case PERF_COUNTER_REC_COMM:
		if (blen < sizeof(comm))
			break;
		memcpy(&comm, body, sizeof(comm));
		pc_tasks_set_comm(st->th.tasks, comm.pid, comm.tid, comm.comm,
				  !!(comm.flags & PERF_COUNTER_COMM_EXEC));
		break;
	case PERF_COUNTER_REC_FORK:
		if (blen < sizeof(task))
			break;
		memcpy(&task, body, sizeof(task));
		pc_tasks_fork(st->th.tasks, task.pid, task.tid, task.ppid,
			      task.ptid);
		break;
	case PERF_COUNTER_REC_LOST:
	case PERF_COUNTER_REC_LOST_SIDEBAND:
		if (blen < sizeof(lost))
			break;
		memcpy(&lost, body, sizeof(lost));
		st->th.lost += lost;
		break;
	default:
		break;	/* EXIT: the TOTALS record tells of it */
	}
}

/* The records one read() of leader @lead's queue gave (extended format). */
static void take_records(struct stat_state *st, int lead, const char *buf,
			 size_t len)
{
	struct perf_counter_record_header h;
	size_t off = 0;

	while (len - off >= sizeof(h)) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off) {
			pc_warn("a record of %u bytes in a read of %zu: the rest of the read is skipped",
				h.size, len - off);
			break;
		}
		take_record(st, lead, h.type, buf + off + sizeof(h),
			    h.size - sizeof(h));
		off += h.size;
	}
}

/*
 * Read every leader's queue, without blocking, STAT_DRAIN_READS reads
 * of each at most (a queue its tasks keep filling does not keep the
 * tool from the others, nor from the command's end); the side-band
 * leader's first, so that the names come before the TOTALS of the
 * others that a later read of it would give.
 *
 * Return: 1 if a queue may hold more, else 0.
 */
int stat_drain(struct stat_state *st)
{
	static char buf[STAT_QUEUE_BYTES];
	int i, lead, reads, more = 0;
	ssize_t n;

	for (i = -1; i < st->nr; i++) {
		lead = i < 0 ? st->th.sb : i;
		if (lead < 0 || (i >= 0 && lead == st->th.sb) ||
		    !stat_leads(st->c, lead))
			continue;
		for (reads = 0; reads < STAT_DRAIN_READS; reads++) {
			n = read(st->c[lead].fd[0], buf, sizeof(buf));
			if (n <= 0)
				break;
			take_records(st, lead, buf, n);
		}
		more |= reads == STAT_DRAIN_READS;
	}
	return more;
}

/*
 * The records the queues dropped: the kernel's count (the LOST records
 * a full queue could not hold are in it), or those told, if more.
 */
void stat_count_lost(struct stat_state *st)
{
	uint64_t lost, all = 0;
	int i;

	for (i = 0; i < st->nr; i++)
		if (stat_leads(st->c, i) &&
		    !ioctl(st->c[i].fd[0], PERF_COUNTER_IOC_LOST, &lost))
			all += lost;
	if (all > st->th.lost)
		st->th.lost = all;
	if (st->th.lost)
		pc_warn("%llu records lost (a queue was full): threads may be missing, unnamed, or a tid's lives merged",
			(unsigned long long)st->th.lost);
	if (st->th.unlisted)
		pc_warn("%llu thread lives past the first %d not listed: counted in the total alone",
			(unsigned long long)st->th.unlisted, STAT_MAX_LIVES);
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct stat_thread *x = *(struct stat_thread * const *)a;
	const struct stat_thread *y = *(struct stat_thread * const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Every thread life, by pid and tid (the command's first), each named:
 * with the name it had at its exit, or else the one pc_tasks_name()
 * gives it now. An array of pointers into @st->th.t, to free().
 */
struct stat_thread **stat_threads_sorted(struct stat_state *st)
{
	struct stat_thread **t = pc_zalloc((st->th.nr + 1) * sizeof(*t));
	size_t k;

	for (k = 0; k < st->th.nr; k++) {
		if (!st->th.t[k].named)
			name_thread(&st->th, k);
		t[k] = &st->th.t[k];
	}
	qsort(t, st->th.nr, sizeof(*t), by_pid_tid);
	return t;
}
