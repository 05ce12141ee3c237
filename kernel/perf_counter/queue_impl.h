/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: a record queue's insides, for queue.c and queue_map.c
 * alone; the rest of the core goes through queue.h.
 */
#ifndef _KERNEL_PERF_COUNTER_QUEUE_IMPL_H
#define _KERNEL_PERF_COUNTER_QUEUE_IMPL_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/perf_counter.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

/*
 * Positions are word-sized (acquire/release needs that on 32-bit) and
 * only their differences, never above the ring size, are used: they may
 * wrap.
 *
 * The ring: NULL until the queue is first used (pc_queue_prepare()),
 * then kernel memory read() copies from, or, once the queue is mapped
 * (queue_map.c), the pages after @user, which user space reads and
 * whose tail it moves in @user->data_tail. @ring, @mask and @user
 * change under @lock with @read_mutex held (a resize, a mapping) or
 * from NULL under @lock alone (the first use); a mapped queue never
 * changes them again.
 *
 * @ref: its counter, each counter sending its records here
 * (PERF_COUNTER_IOC_SET_OUTPUT), each mapping's file through its
 * counter. @writers: counters whose records may still come here, each
 * counted once (struct perf_counter's @out_writer): none left is the
 * end of file.
 */
struct pc_queue {
	u64			*ring;
	u32			mask;		/* ring size in words - 1 */
	unsigned long		head;		/* words written, under lock */
	unsigned long		tail;		/* words read, by the reader */
	u64			lost;		/* records dropped, not reported */
	u64			lost_sideband;	/* side-band ones, likewise */
	atomic_long_t		missed;		/* dropped without the lock */
	u64			dropped;	/* no longer pending, under lock */
	unsigned long		end;		/* reserved record's end */
	u32			kind;		/* and its kind */
	u32			wakeup_words;	/* PERF_COUNTER_IOC_WAKEUP */
	bool			format_2009;	/* read() leaves headers out */
	bool			error;		/* its counter is in error */
	refcount_t		ref;
	atomic_t		writers;
	struct perf_counter_ring_page *user;	/* mapped: the control page */
	unsigned long		head_bytes;	/* mapped: data_head, under lock */
	raw_spinlock_t		lock;		/* producers */
	/*
	 * The reader's, held while it copies records to user memory, a
	 * fault user space may answer late or never: others only trylock.
	 */
	struct mutex		read_mutex;
	wait_queue_head_t	wait;
	struct irq_work		wakeup;
	struct fasync_struct	*fasync;	/* overflow signals' owners */
	unsigned long		signals;	/* PC_SIGNAL_* to send */
	struct ucounts		*ucounts;	/* charged for the ring */
};

static inline u32 pc_queue_bytes(const struct pc_queue *q)
{
	return (q->mask + 1) * sizeof(u64);
}

/*
 * Where producers may write up to: the reader's tail, in words. A
 * mapped queue's is user space's @data_tail, which may hold anything: a
 * value behind the head by more than the ring, or not a whole word,
 * leaves the ring full. Under q->lock, or as a hint without it.
 */
static inline unsigned long pc_queue_tail(struct pc_queue *q)
{
	struct perf_counter_ring_page *up = READ_ONCE(q->user);
	unsigned long used;

	if (!up)
		/* Pairs with the reader's release: it is done with them. */
		return smp_load_acquire(&q->tail);
	/*
	 * Producers move the head under q->lock; the hints read it
	 * without, and a position a producer moves meanwhile only makes
	 * the hint a record out of date.
	 */
	/* a long's worth: on 32-bit the two count modulo 2^32 (uapi) */
	used = data_race(q->head_bytes) -
	       (unsigned long)READ_ONCE(up->data_tail);
	/* The reader's loads of the records before our stores over them. */
	smp_mb();
	if (used > pc_queue_bytes(q) || (used & (sizeof(u64) - 1)))
		return data_race(q->head) - (q->mask + 1);	/* as above */
	return data_race(q->head) - used / sizeof(u64);
}

/* Every record dropped since the queue was made, told or not; q->lock. */
static inline u64 pc_queue_lost_total(struct pc_queue *q)
{
	return q->dropped + q->lost + q->lost_sideband +
	       atomic_long_read(&q->missed);
}

/* A mapped queue's drops so far, for its reader to see; under q->lock. */
static inline void pc_queue_show_lost(struct pc_queue *q)
{
	/* a long's worth, as data_head (uapi) */
	if (q->user)
		WRITE_ONCE(q->user->lost, (unsigned long)pc_queue_lost_total(q));
}

/* Words of records waiting to be read. */
static inline unsigned long pc_queue_used(struct pc_queue *q)
{
	/* Pairs with pc_queue_commit(): see the words below the head. */
	unsigned long head = smp_load_acquire(&q->head);

	return head - pc_queue_tail(q);
}

#endif /* _KERNEL_PERF_COUNTER_QUEUE_IMPL_H */
