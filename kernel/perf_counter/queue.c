// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the record queue of a sampling counter.
 *
 * A ring of 64-bit words. Producers — the overflow paths, on whichever
 * CPU a counter or one of its inherited copies counts — take q->lock
 * with irqs off (a trylock from NMI), reserve whole records and publish
 * them by moving q->head with a release store. The single reader takes
 * whole records below q->head and frees them by moving q->tail. A record
 * that does not fit is dropped and counted; the count goes out as a LOST
 * record ahead of the next record that fits, so the reader learns of
 * every drop, in order, and nothing is torn or duplicated.
 *
 * Wakeups go through irq_work: producers may run where waking a task is
 * not allowed.
 */
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "internal.h"

#define PC_LOST_WORDS	2	/* header, count */

static void pc_queue_wakeup(struct irq_work *work)
{
	struct pc_queue *q = container_of(work, struct pc_queue, wakeup);

	wake_up_all(&q->wait);
}

static u64 *pc_ring_alloc(u32 bytes)
{
	return kvzalloc(bytes, GFP_KERNEL);
}

/**
 * pc_queue_alloc() - a record queue of @bytes
 * @bytes: a power of two between PC_QUEUE_MIN and PC_QUEUE_MAX
 *
 * Return: the queue, or NULL without memory.
 */
struct pc_queue *pc_queue_alloc(u32 bytes)
{
	struct pc_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return NULL;
	q->ring = pc_ring_alloc(bytes);
	if (!q->ring) {
		kfree(q);
		return NULL;
	}
	q->mask = bytes / sizeof(u64) - 1;
	raw_spin_lock_init(&q->lock);
	mutex_init(&q->read_mutex);
	init_waitqueue_head(&q->wait);
	init_irq_work(&q->wakeup, pc_queue_wakeup);
	return q;
}

void pc_queue_free(struct pc_queue *q)
{
	if (!q)
		return;
	irq_work_sync(&q->wakeup);
	kvfree(q->ring);
	kfree(q);
}

/**
 * pc_queue_resize() - give the queue a new, empty ring
 * @q:		the queue
 * @bytes:	the new size
 *
 * Return: 0, -EINVAL for a size that is not a power of two in range,
 * -EBUSY while records wait to be read, -ENOMEM.
 */
int pc_queue_resize(struct pc_queue *q, u32 bytes)
{
	unsigned long flags;
	u64 *ring, *old;
	int err = 0;

	if (bytes < PC_QUEUE_MIN || bytes > PC_QUEUE_MAX ||
	    !is_power_of_2(bytes))
		return -EINVAL;
	ring = pc_ring_alloc(bytes);
	if (!ring)
		return -ENOMEM;

	mutex_lock(&q->read_mutex);
	raw_spin_lock_irqsave(&q->lock, flags);
	if (q->head != q->tail || q->lost || atomic_long_read(&q->missed)) {
		err = -EBUSY;
		old = ring;
	} else {
		old = q->ring;
		q->ring = ring;
		q->mask = bytes / sizeof(u64) - 1;
		q->head = 0;
		WRITE_ONCE(q->tail, 0);
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	mutex_unlock(&q->read_mutex);
	kvfree(old);
	return err;
}

static void pc_queue_put_header(struct pc_queue *q, unsigned long *at,
				u32 type, u32 words)
{
	union {
		u64					word;
		struct perf_counter_record_header	h;
	} u = { .h = { .type = type, .size = words * sizeof(u64) } };

	pc_queue_put(q, at, u.word);
}

/**
 * pc_queue_reserve() - room for one record, or count it lost
 * @q:		the queue, under q->lock
 * @type:	enum perf_counter_record_kind
 * @words:	the record's size in words, header included
 * @at:		where the record's first word after the header goes
 *
 * Writes the header (and a LOST record first, if drops are pending).
 *
 * Return: true if the caller may now put words - 1 words and commit.
 */
bool pc_queue_reserve(struct pc_queue *q, u32 type, u32 words,
		      unsigned long *at)
{
	/* Pairs with the reader's release: it is done with the words. */
	unsigned long tail = smp_load_acquire(&q->tail);
	u32 need;

	if (unlikely(atomic_long_read(&q->missed)))
		q->lost += atomic_long_xchg(&q->missed, 0);
	need = words + (q->lost ? PC_LOST_WORDS : 0);

	if (q->head - tail + need > q->mask + 1UL) {
		q->lost++;
		return false;
	}
	*at = q->head;
	if (q->lost) {
		pc_queue_put_header(q, at, PERF_COUNTER_REC_LOST,
				    PC_LOST_WORDS);
		pc_queue_put(q, at, q->lost);
		q->lost = 0;
	}
	pc_queue_put_header(q, at, type, words);
	return true;
}

/* Publish what was put since pc_queue_reserve() and wake the reader. */
void pc_queue_commit(struct pc_queue *q, unsigned long at)
{
	/* The record's words before the head that covers them. */
	smp_store_release(&q->head, at);
	irq_work_queue(&q->wakeup);
}

static bool pc_queue_empty(struct pc_queue *q)
{
	/* Pairs with pc_queue_commit(): see the words below the head. */
	return smp_load_acquire(&q->head) == READ_ONCE(q->tail);
}

/* Copy @words words from ring position @from to user space. */
static int pc_queue_copy(struct pc_queue *q, char __user *buf,
			 unsigned long from, u32 words)
{
	u32 start = from & q->mask;
	u32 first = min_t(u32, words, q->mask + 1 - start);

	if (copy_to_user(buf, q->ring + start, first * sizeof(u64)))
		return -EFAULT;
	if (first < words &&
	    copy_to_user(buf + first * sizeof(u64), q->ring,
			 (words - first) * sizeof(u64)))
		return -EFAULT;
	return 0;
}

/**
 * pc_queue_read() - read() of a sampling counter: whole records
 * @q:		the queue
 * @buf:	user buffer
 * @count:	its size
 * @nonblock:	O_NONBLOCK: -EAGAIN instead of waiting
 *
 * Return: bytes read (as many whole records as fit), -EAGAIN,
 * -ERESTARTSYS, -EFAULT, or -ENOSPC if @buf cannot hold the next record.
 */
ssize_t pc_queue_read(struct pc_queue *q, char __user *buf, size_t count,
		      bool nonblock)
{
	unsigned long tail, head;
	ssize_t done = 0;
	int err;

	for (;;) {
		mutex_lock(&q->read_mutex);
		if (!pc_queue_empty(q))
			break;
		mutex_unlock(&q->read_mutex);
		if (nonblock)
			return -EAGAIN;
		err = wait_event_interruptible(q->wait, !pc_queue_empty(q));
		if (err)
			return err;
	}

	tail = q->tail;
	/* Pairs with pc_queue_commit(): see the words below the head. */
	head = smp_load_acquire(&q->head);
	while (tail != head) {
		union {
			u64					word;
			struct perf_counter_record_header	h;
		} u = { .word = q->ring[tail & q->mask] };
		u32 words = u.h.size / sizeof(u64);

		if (done + u.h.size > count) {
			if (!done)
				done = -ENOSPC;
			break;
		}
		err = pc_queue_copy(q, buf + done, tail, words);
		if (err) {
			/* what was copied stays read; this record does not */
			if (!done)
				done = err;
			break;
		}
		done += u.h.size;
		tail += words;
	}
	/* Done with the words before producers may reuse them. */
	smp_store_release(&q->tail, tail);
	mutex_unlock(&q->read_mutex);
	return done;
}

/* poll(): readable when a record waits. */
__poll_t pc_queue_poll(struct pc_queue *q, struct file *file, poll_table *wait)
{
	poll_wait(file, &q->wait, wait);
	return pc_queue_empty(q) ? 0 : EPOLLIN | EPOLLRDNORM;
}
