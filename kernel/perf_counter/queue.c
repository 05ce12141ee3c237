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
 * A queue in the 2009 format (pc_format_2009(): record_type IRQ or GROUP
 * alone, as the 2009 perf-counters.txt defines them) keeps the same records in the ring,
 * headers included, for the reader to find where each one ends; read()
 * copies only what follows each header. That format has no LOST
 * record: drops are counted in @dropped at once, and
 * PERF_COUNTER_IOC_LOST tells them, as it does for every queue.
 *
 * When drops are pending and no record follows them, the reader gets
 * the LOST record on its own once the queue is empty: it never has to
 * wait for another sample to learn of a burst it missed.
 *
 * A queue whose counter can write nothing for now (the error state) or
 * ever again (its task and every inherited copy have exited) reads as
 * end of file once empty, and polls as readable and hung up: readers
 * blocked on it are woken.
 *
 * Wakeups go through irq_work: producers may run where waking a task is
 * not allowed. A record or a drop wakes only a reader that waits (a
 * blocked read(), poll() or epoll on the queue), so that a reader that
 * drains the queue without waiting costs producers no interrupt. A
 * queue whose file has O_ASYNC (fasync) sends its owner a signal from
 * that irq_work for every wakeup a sample brings (pc_queue_wakeup()).
 *
 * A ring's memory is charged to its user (ring.c).
 */
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/wait.h>

#include "internal.h"
#include "queue_impl.h"
#include "ring.h"

/* The overflow signals a wakeup sends: records ready, a refresh spent. */
#define PC_SIGNAL_IN		0
#define PC_SIGNAL_HUP		1

/*
 * Counters' queues, from a cache of their own so that a test can count
 * them in /sys/kernel/slab/perf_counter_queue apart from the subsystem's
 * count (objects.c), on a kernel booted with slab_nomerge. Made at
 * core_initcall, before any counter can exist; SLAB_ACCOUNT charges each
 * to the allocating task's memory cgroup.
 */
static struct kmem_cache *pc_queue_cache;

/* How deep this CPU is in a queue's lock (queue.h) */
DEFINE_PER_CPU(unsigned int, pc_recording);

static int __init pc_queue_cache_init(void)
{
	pc_queue_cache = kmem_cache_create("perf_counter_queue",
					   sizeof(struct pc_queue), 0,
					   SLAB_PANIC | SLAB_ACCOUNT, NULL);
	return 0;
}
core_initcall(pc_queue_cache_init);

/*
 * Readers woken, and the overflow signal sent: one a wakeup, POLL_HUP
 * alone when a refresh ran out (its last record's POLL_IN with it).
 */
static void pc_queue_wakeup(struct irq_work *work)
{
	struct pc_queue *q = container_of(work, struct pc_queue, wakeup);
	unsigned long signals = xchg(&q->signals, 0);

	wake_up_all(&q->wait);
	if (signals & BIT(PC_SIGNAL_HUP))
		kill_fasync(&q->fasync, SIGIO, POLL_HUP);
	else if (signals & BIT(PC_SIGNAL_IN))
		kill_fasync(&q->fasync, SIGIO, POLL_IN);
}

/*
 * Enough waits for a reader that asked to be woken only past a mark
 * (PERF_COUNTER_IOC_WAKEUP), or for any other once a record does.
 */
static bool pc_queue_past_watermark(struct pc_queue *q)
{
	u32 mark = READ_ONCE(q->wakeup_words);

	if (!mark)
		return true;
	if (mark > q->mask + 1)		/* more than the ring holds */
		mark = (q->mask + 1) / 2;
	return pc_queue_used(q) >= mark;
}

/**
 * pc_queue_set_wakeup() - PERF_COUNTER_IOC_WAKEUP
 * @q:		the queue
 * @bytes:	records waiting that wake a reader; 0 for every record
 */
void pc_queue_set_wakeup(struct pc_queue *q, u32 bytes)
{
	WRITE_ONCE(q->wakeup_words, (bytes + (u64)sizeof(u64) - 1) /
				    sizeof(u64));
}

/*
 * Wake the readers waiting for @q, if any, from any context: what they
 * wait for (a record, a drop to tell) is in place before the look at
 * the wait queue, as a waiter joins the queue before it looks at @q
 * (prepare_to_wait_event(), pc_queue_poll()). A reader that reads
 * without waiting costs producers no interrupt.
 */
static void pc_queue_wake_waiters(struct pc_queue *q)
{
	if (wq_has_sleeper(&q->wait))
		irq_work_queue(&q->wakeup);
}

/*
 * A sample is ready: the waiting readers woken, and the overflow signal
 * sent if one is asked for. Drops, switch and side-band records wake
 * readers but send no signal, so that signals are bounded as samples
 * are, by the CPU's sample budget (throttle.c).
 */
static void pc_queue_wake_record(struct pc_queue *q)
{
	if (READ_ONCE(q->fasync)) {
		set_bit(PC_SIGNAL_IN, &q->signals);
		irq_work_queue(&q->wakeup);
	} else {
		pc_queue_wake_waiters(q);
	}
}

/**
 * pc_queue_hangup() - a refresh ran out: POLL_HUP to the signal's owner
 * @q:	the queue of the refreshed counter; any context
 */
void pc_queue_hangup(struct pc_queue *q)
{
	set_bit(PC_SIGNAL_HUP, &q->signals);
	irq_work_queue(&q->wakeup);
}

/**
 * pc_queue_fasync() - fcntl(O_ASYNC) on the queue's counter file
 * @q:		the queue
 * @fd:		the file descriptor
 * @file:	the file
 * @on:		whether O_ASYNC is being set or cleared
 *
 * The signal goes where fcntl(F_SETOWN) points, as for any file, and
 * only to tasks the owner's setter may signal (send_sigio()).
 *
 * Return: as fasync_helper(): 0 or 1, or -ENOMEM.
 */
int pc_queue_fasync(struct pc_queue *q, int fd, struct file *file, int on)
{
	return fasync_helper(fd, file, on, &q->fasync);
}

/**
 * pc_queue_alloc() - a record queue of @bytes, charged to current
 * @bytes: a power of two between PC_QUEUE_MIN and PC_QUEUE_MAX
 * @format_2009: read() leaves the headers out (pc_format_2009())
 * @lazy: its ring comes at its first use (pc_queue_prepare()), and what
 *	producers write before is dropped, and told
 *
 * The queue has one reference, and one writer (its counter).
 *
 * Return: the queue, or NULL without memory or past current's
 * RLIMIT_MEMLOCK.
 */
struct pc_queue *pc_queue_alloc(u32 bytes, bool format_2009, bool lazy)
{
	/* charged to current's memory cgroup: the cache is SLAB_ACCOUNT */
	struct pc_queue *q = kmem_cache_zalloc(pc_queue_cache, GFP_KERNEL);

	if (!q)
		return NULL;
	q->ucounts = get_ucounts(current_ucounts());
	if (!q->ucounts) {
		kmem_cache_free(pc_queue_cache, q);
		return NULL;
	}
	/* A lazy ring is charged now, to the opener, and made later. */
	if (!lazy)
		q->ring = pc_ring_alloc(q->ucounts, bytes);
	if (lazy ? !pc_ring_reserve(q->ucounts, bytes) : !q->ring) {
		put_ucounts(q->ucounts);
		kmem_cache_free(pc_queue_cache, q);
		return NULL;
	}
	pc_object_made(PC_OBJ_QUEUE);
	refcount_set(&q->ref, 1);
	atomic_set(&q->writers, 1);
	q->mask = bytes / sizeof(u64) - 1;
	q->format_2009 = format_2009;
	raw_spin_lock_init(&q->lock);
	mutex_init(&q->read_mutex);
	init_waitqueue_head(&q->wait);
	init_irq_work(&q->wakeup, pc_queue_wakeup);
	return q;
}

/**
 * pc_queue_hold() - another reference to @q
 * @q:	the queue, of a counter the caller holds
 */
void pc_queue_hold(struct pc_queue *q)
{
	refcount_inc(&q->ref);
}

/**
 * pc_queue_drop() - drop a reference; the last frees the queue
 * @q:	the queue, or NULL; no producer may be left writing to it
 */
void pc_queue_drop(struct pc_queue *q)
{
	if (!q || !refcount_dec_and_test(&q->ref))
		return;
	irq_work_sync(&q->wakeup);
	if (q->user)
		pc_ring_free_mapped(q->ucounts, q->user, pc_queue_bytes(q));
	else		/* a lazy queue's charge, whether or not it was made */
		pc_ring_free(q->ucounts, q->ring, pc_queue_bytes(q));
	put_ucounts(q->ucounts);
	pc_object_ended(PC_OBJ_QUEUE);
	kmem_cache_free(pc_queue_cache, q);
}

/**
 * pc_queue_prepare() - the queue's first use: its ring, if it has none
 * @q:	the queue; process context, no lock held
 *
 * The ring was charged to the opener's RLIMIT_MEMLOCK at the open; its
 * pages go to the caller's memory cgroup.
 *
 * Return: 0, or -ENOMEM without memory.
 */
int pc_queue_prepare(struct pc_queue *q)
{
	unsigned long flags;
	u32 bytes;
	u64 *ring;

	if (likely(READ_ONCE(q->ring)))
		return 0;
	for (;;) {
		bytes = READ_ONCE(q->mask) * sizeof(u64) + sizeof(u64);
		ring = pc_ring_make(bytes);
		if (!ring)
			return -ENOMEM;
		pc_queue_lock(q, &flags);
		if (!q->ring && pc_queue_bytes(q) == bytes) {
			q->ring = ring;
			ring = NULL;
		}
		pc_queue_unlock(q, flags);
		if (!ring)
			return 0;
		kvfree(ring);			/* never charged: the open was */
		if (READ_ONCE(q->ring))		/* another use made it */
			return 0;
	}
}

/**
 * pc_queue_resize() - give the queue a new, empty ring
 * @q:		the queue
 * @bytes:	the new size
 *
 * The new ring is charged to the queue's user (the opener) before the
 * old one is uncharged, against the caller's RLIMIT_MEMLOCK unless the
 * caller has CAP_IPC_LOCK, and to the caller's memory cgroup.
 *
 * It never waits for a reader: the caller holds ctx->mutex, which every
 * open, close, fork and exit of the context needs, and a reader may sit
 * in a page fault user space answers (userfaultfd, FUSE) while it
 * copies records out under read_mutex. A resize that finds a read in
 * progress fails, as one that finds records waiting does.
 *
 * A mapped queue keeps its ring: its size is the mapping's.
 *
 * Return: 0, -EINVAL for a size that is not a power of two in range,
 * -EBUSY while records wait to be read, a read is in progress or the
 * queue is mapped, -ENOMEM without memory or past that limit.
 */
int pc_queue_resize(struct pc_queue *q, u32 bytes)
{
	unsigned long flags;
	u64 *ring, *old;
	u32 old_bytes;
	int err = 0;

	if (bytes < PC_QUEUE_MIN || bytes > PC_QUEUE_MAX ||
	    !is_power_of_2(bytes))
		return -EINVAL;
	ring = pc_ring_alloc(q->ucounts, bytes);
	if (!ring)
		return -ENOMEM;

	if (!mutex_trylock(&q->read_mutex)) {
		pc_ring_free(q->ucounts, ring, bytes);
		return -EBUSY;
	}
	pc_queue_lock(q, &flags);
	if (q->user || q->head != q->tail ||
	    (!q->format_2009 && (q->lost || q->lost_sideband ||
				 atomic_long_read(&q->missed)))) {
		err = -EBUSY;
		old = ring;
		old_bytes = bytes;
	} else {
		old = q->ring;
		old_bytes = pc_queue_bytes(q);
		q->ring = ring;
		q->mask = bytes / sizeof(u64) - 1;
		q->head = 0;
		WRITE_ONCE(q->tail, 0);
	}
	pc_queue_unlock(q, flags);
	mutex_unlock(&q->read_mutex);
	/* (a lazy queue's ring may not have been made: its charge was) */
	pc_ring_free(q->ucounts, old, old_bytes);
	return err;
}

/**
 * pc_queue_words() - the size of @q's ring, in words
 * @q:		the queue
 *
 * Return: the most words a record may have, header included.
 */
u32 pc_queue_words(const struct pc_queue *q)
{
	return q->mask + 1;
}

/*
 * The producers' lock, irqs off, this CPU counted as recording meanwhile
 * (pc_recording): pc_queue_lock() (not from NMI), pc_queue_trylock()
 * (from NMI: true if @q is now locked), pc_queue_unlock() after either.
 */
void pc_queue_lock(struct pc_queue *q, unsigned long *flags) __acquires(q)
{
	/* An NMI that waited here could wait for the code it interrupted. */
	WARN_ON_ONCE(in_nmi());
	this_cpu_inc(pc_recording);
	raw_spin_lock_irqsave(&q->lock, *flags);
}

/* Called as pc_queue_trylock(), which tells sparse what it took. */
bool __pc_queue_trylock(struct pc_queue *q, unsigned long *flags)
{
	this_cpu_inc(pc_recording);
	local_irq_save(*flags);
	if (raw_spin_trylock(&q->lock)) {
		__release(q);		/* the caller's pc_queue_trylock() */
		return true;
	}
	local_irq_restore(*flags);
	this_cpu_dec(pc_recording);
	return false;
}

void pc_queue_unlock(struct pc_queue *q, unsigned long flags) __releases(q)
{
	raw_spin_unlock_irqrestore(&q->lock, flags);
	this_cpu_dec(pc_recording);
}

/*
 * A reserved record's words, under q->lock: pc_queue_put() writes the
 * next at *@at and moves it on; pc_queue_put_at() fills in one put
 * earlier (at the position pc_queue_put() had then), before the commit.
 */
void pc_queue_put(struct pc_queue *q, unsigned long *at, u64 word)
{
	q->ring[(*at)++ & q->mask] = word;
}

void pc_queue_put_at(struct pc_queue *q, unsigned long at, u64 word)
{
	q->ring[at & q->mask] = word;
}

/**
 * pc_queue_put_words() - put @n words of a reserved record at once
 * @q:		the queue, under q->lock
 * @at:		as for pc_queue_put(), moved past them
 * @src:	the words
 * @n:		how many: no more than the reservation has left
 */
void pc_queue_put_words(struct pc_queue *q, unsigned long *at,
			const u64 *src, u32 n)
{
	u32 from = *at & q->mask;
	u32 first = min(n, q->mask + 1 - from);

	memcpy(&q->ring[from], src, first * sizeof(u64));
	memcpy(q->ring, src + first, (n - first) * sizeof(u64));
	*at += n;
}

/**
 * pc_queue_missed() - count records that could not even be tried
 * @q:		the queue; any context, NMI included, its lock not needed
 * @n:		how many
 *
 * They are reported, as any drop is, before the next record that fits.
 */
void pc_queue_missed(struct pc_queue *q, u64 n)
{
	unsigned long flags;

	/* A long is what the queue keeps: 2^31 losses at once on 32-bit. */
	atomic_long_add(min_t(u64, n, LONG_MAX), &q->missed);
	/* A mapped queue's page tells them now, unless a producer is in. */
	if (READ_ONCE(q->user) && pc_queue_trylock(q, &flags)) {
		pc_queue_show_lost(q);
		pc_queue_unlock(q, flags);
	}
	pc_queue_wake_waiters(q);
}

/**
 * pc_queue_sideband_lost() - count a side-band record that was not made
 * @q:		the queue, under q->lock
 *
 * Told, as a side-band record the queue had no room for is, in the
 * next LOST_SIDEBAND record.
 */
void pc_queue_sideband_lost(struct pc_queue *q)
{
	lockdep_assert_held(&q->lock);
	q->lost_sideband++;
	pc_queue_show_lost(q);
	pc_queue_wake_waiters(q);
}

/**
 * pc_queue_may_fit() - might a record of @words fit now?
 * @q:		the queue; any context, its lock not needed
 * @words:	the record's size, or the least it can be
 *
 * A hint, from positions read without the lock, for a producer about to
 * do work for a record (walk a call chain) that a full queue would only
 * drop: it is dropped before, and counted as pc_queue_missed() counts.
 *
 * Return: false if it would not fit as the queue stands.
 */
bool pc_queue_may_fit(struct pc_queue *q, u32 words)
{
	/* unlocked: a producer elsewhere may move the head meanwhile */
	unsigned long used = data_race(q->head) - pc_queue_tail(q);

	return READ_ONCE(q->ring) && used + words <= q->mask + 1UL;
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
 * Writes the header (and a LOST and a LOST_SIDEBAND record first, if
 * such drops are pending and the queue is not in the 2009 format, which
 * has no side-band records). A side-band record that does not fit is
 * counted apart from samples (pc_kind_is_sideband()).
 *
 * Return: true if the caller may now put words - 1 words and commit.
 */
bool pc_queue_reserve(struct pc_queue *q, u32 type, u32 words,
		      unsigned long *at)
{
	unsigned long tail = pc_queue_tail(q);
	u32 need;

	lockdep_assert_held(&q->lock);
	if (unlikely(atomic_long_read(&q->missed))) {
		q->lost += atomic_long_xchg(&q->missed, 0);
		pc_queue_show_lost(q);
	}
	if (q->format_2009) {
		/* No LOST record in this format: counted, not written. */
		q->dropped += q->lost;
		q->lost = 0;
	}
	need = words + (q->lost ? PC_LOST_WORDS : 0) +
	       (q->lost_sideband ? PC_LOST_WORDS : 0);

	/* Without a ring yet (a lazy queue not used), as if full. */
	if (q->head - tail + need > q->mask + 1UL || unlikely(!q->ring)) {
		if (pc_kind_is_sideband(type))
			q->lost_sideband++;
		else
			q->lost++;
		pc_queue_show_lost(q);
		pc_queue_wake_waiters(q);	/* a drop to tell */
		return false;
	}
	*at = q->head;
	if (q->lost) {
		pc_queue_put_header(q, at, PERF_COUNTER_REC_LOST,
				    PC_LOST_WORDS);
		pc_queue_put(q, at, q->lost);
		q->dropped += q->lost;
		q->lost = 0;
	}
	if (q->lost_sideband) {
		pc_queue_put_header(q, at, PERF_COUNTER_REC_LOST_SIDEBAND,
				    PC_LOST_WORDS);
		pc_queue_put(q, at, q->lost_sideband);
		q->dropped += q->lost_sideband;
		q->lost_sideband = 0;
	}
	q->end = *at + words;
	q->kind = type;
	pc_queue_put_header(q, at, type, words);
	return true;
}

/**
 * pc_queue_commit() - publish a record and wake the reader
 * @q:		the queue, under q->lock
 * @at:		where the record ends: after the last of the words
 *		pc_queue_reserve() made room for
 *
 * A record must fill its reservation: one that does not (a producer's
 * bug) is published as its header says, so the reader stays in step.
 */
void pc_queue_commit(struct pc_queue *q, unsigned long at)
{
	lockdep_assert_held(&q->lock);
	if (WARN_ON_ONCE(at != q->end))
		at = q->end;
	if (q->user) {
		q->head_bytes += (at - q->head) * sizeof(u64);
		/* The record's words before the head that covers them. */
		smp_wmb();
		WRITE_ONCE(q->user->data_head, q->head_bytes);
	}
	/* The record's words before the head that covers them. */
	smp_store_release(&q->head, at);
	if (!pc_queue_past_watermark(q))
		return;
	if (q->kind == PERF_COUNTER_REC_SAMPLE)
		pc_queue_wake_record(q);
	else
		pc_queue_wake_waiters(q);
}

/**
 * pc_queue_dropped() - PERF_COUNTER_IOC_LOST: records dropped so far
 * @q:	the queue
 *
 * Return: every record the queue's producers could not write since it
 * was made, whether or not a LOST record has told the reader yet.
 */
u64 pc_queue_dropped(struct pc_queue *q)
{
	unsigned long flags;
	u64 n;

	pc_queue_lock(q, &flags);
	n = pc_queue_lost_total(q);
	pc_queue_unlock(q, flags);
	return n;
}

static bool pc_queue_empty(struct pc_queue *q)
{
	return !pc_queue_used(q);
}

/*
 * Drops no LOST record has told yet (the extended format's only; a
 * mapped queue shows them in its control page, and a LOST record is
 * all read() could add). A hint, read without the lock (q->lost is a
 * u64 that producers change under it): pc_queue_read_lost() looks
 * again under the lock.
 */
static bool pc_queue_lost_pending(struct pc_queue *q)
{
	if (q->format_2009 || READ_ONCE(q->user))
		return false;
	/* unlocked: a hint, looked at again under the lock */
	return data_race(q->lost) || data_race(q->lost_sideband) ||
	       atomic_long_read(&q->missed);
}

/*
 * Nothing more can come for now, or ever: read() ends, poll() hangs
 * up. Its counter's error state ends a queue only when no other
 * counter writes there (SET_OUTPUT).
 */
static bool pc_queue_ended(struct pc_queue *q)
{
	int writers = atomic_read(&q->writers);

	return !writers || (READ_ONCE(q->error) && writers == 1);
}

/* What a blocked reader waits for; a mapping made meanwhile ends it. */
static bool pc_queue_readable(struct pc_queue *q)
{
	return (!pc_queue_empty(q) && pc_queue_past_watermark(q)) ||
	       pc_queue_lost_pending(q) || pc_queue_ended(q) ||
	       READ_ONCE(q->user);
}

/**
 * pc_queue_set_error() - its counter entered or left the error state
 * @q:		the queue
 * @error:	whether it is in error now
 *
 * Any context: the wakeup of blocked readers goes through irq_work.
 */
void pc_queue_set_error(struct pc_queue *q, bool error)
{
	WRITE_ONCE(q->error, error);
	if (error)
		irq_work_queue(&q->wakeup);
}

/**
 * pc_queue_writer_add() - a counter's records come to @q from now on
 * @q:	the queue
 */
void pc_queue_writer_add(struct pc_queue *q)
{
	atomic_inc(&q->writers);
}

/**
 * pc_queue_writer_end() - a counter's records no longer come to @q
 * @q:	the queue: of a task counter whose task and copies have ended,
 *	of a counter sending its records elsewhere from now on, or of
 *	one being freed
 *
 * Once no counter writes to the queue, its readers reach end of file.
 */
void pc_queue_writer_end(struct pc_queue *q)
{
	if (atomic_dec_and_test(&q->writers))
		irq_work_queue(&q->wakeup);
}

/*
 * The queue is empty and drops are pending: a LOST record of them now.
 * Return: its size, 0 if a record came meanwhile (it carries them), or
 * -ENOSPC or -EFAULT (the drops stay pending).
 */
static ssize_t pc_queue_read_lost(struct pc_queue *q, struct iov_iter *to)
{
	union {
		u64					word[PC_LOST_WORDS];
		struct perf_counter_record_header	h;
	} rec = { };
	u32 type = PERF_COUNTER_REC_LOST;
	unsigned long flags;
	u64 n = 0;

	if (iov_iter_count(to) < sizeof(rec))
		return -ENOSPC;
	pc_queue_lock(q, &flags);
	if (q->head == q->tail) {
		n = q->lost + atomic_long_xchg(&q->missed, 0);
		q->lost = 0;
		if (!n) {		/* samples' drops first, one a read */
			type = PERF_COUNTER_REC_LOST_SIDEBAND;
			n = q->lost_sideband;
			q->lost_sideband = 0;
		}
		q->dropped += n;
	}
	pc_queue_unlock(q, flags);
	if (!n)
		return 0;

	rec.h.type = type;
	rec.h.size = sizeof(rec);
	rec.word[1] = n;
	if (copy_to_iter(&rec, sizeof(rec), to) == sizeof(rec))
		return sizeof(rec);
	pc_queue_lock(q, &flags);
	if (type == PERF_COUNTER_REC_LOST)
		q->lost += n;
	else
		q->lost_sideband += n;
	q->dropped -= n;
	pc_queue_unlock(q, flags);
	return -EFAULT;
}

/* Copy @words words from ring position @from to the reader. */
static int pc_queue_copy(struct pc_queue *q, struct iov_iter *to,
			 unsigned long from, u32 words)
{
	u32 start = from & q->mask;
	u32 first = min_t(u32, words, q->mask + 1 - start);
	size_t bytes = first * sizeof(u64);

	if (copy_to_iter(q->ring + start, bytes, to) != bytes)
		return -EFAULT;
	bytes = (words - first) * sizeof(u64);
	if (bytes && copy_to_iter(q->ring, bytes, to) != bytes)
		return -EFAULT;
	return 0;
}

/**
 * pc_queue_read() - read() of a sampling counter: whole records
 * @q:		the queue
 * @to:		where they go (user memory for read(), a kernel buffer
 *		in the KUnit tests)
 * @nonblock:	O_NONBLOCK: -EAGAIN instead of waiting, for records or
 *		for another reader
 *
 * A queue in the 2009 format gives each record without its header. An
 * empty queue gives the LOST record of drops still pending, or end of
 * file if its counter is in error or its task and copies have ended.
 *
 * Return: bytes read (as many whole records as fit), 0 at end of file,
 * -EAGAIN, -ERESTARTSYS, -EFAULT, or -ENOSPC if @to cannot hold the
 * next record.
 * After -EFAULT part of a record may have been copied; it stays unread.
 */
ssize_t pc_queue_read(struct pc_queue *q, struct iov_iter *to, bool nonblock)
{
	u32 skip = q->format_2009 ? 1 : 0;	/* header words left out */
	size_t count = iov_iter_count(to);
	unsigned long tail, head;
	ssize_t done = 0;
	int err;

	if (READ_ONCE(q->user))
		return -EBUSY;		/* its records are read in the mapping */
	/* A queue without a ring yet is empty: its counter has not run. */
	for (;;) {
		/*
		 * Another reader may be in a fault user space answers:
		 * wait for it only as long as this reader would wait.
		 */
		if (nonblock) {
			if (!mutex_trylock(&q->read_mutex))
				return -EAGAIN;
		} else if (mutex_lock_interruptible(&q->read_mutex)) {
			return -ERESTARTSYS;
		}
		/* Mapped while this reader waited: the ring is user space's. */
		if (q->user) {
			mutex_unlock(&q->read_mutex);
			return -EBUSY;
		}
		if (!pc_queue_empty(q))
			break;
		if (pc_queue_lost_pending(q)) {
			done = pc_queue_read_lost(q, to);
			mutex_unlock(&q->read_mutex);
			if (done)
				return done;
			continue;	/* a record came: it tells them */
		}
		mutex_unlock(&q->read_mutex);
		if (pc_queue_ended(q))
			return 0;
		if (nonblock)
			return -EAGAIN;
		err = wait_event_interruptible(q->wait, pc_queue_readable(q));
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
		size_t bytes = (words - skip) * sizeof(u64);

		if (done + bytes > count) {
			if (!done)
				done = -ENOSPC;
			break;
		}
		err = pc_queue_copy(q, to, tail + skip, words - skip);
		if (err) {
			/* what was copied stays read; this record does not */
			if (!done)
				done = err;
			break;
		}
		done += bytes;
		tail += words;
	}
	/* Done with the words before producers may reuse them. */
	smp_store_release(&q->tail, tail);
	mutex_unlock(&q->read_mutex);
	return done;
}

/*
 * poll(): readable when a record (a pending LOST one included) waits,
 * or when read() would end at once; hung up when nothing more can come
 * for now (the error state) or ever (the task and its copies ended).
 */
__poll_t pc_queue_poll(struct pc_queue *q, struct file *file, poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &q->wait, wait);
	/* On the wait queue before the look: pairs with pc_queue_commit() */
	smp_mb();
	if ((!pc_queue_empty(q) && pc_queue_past_watermark(q)) ||
	    pc_queue_lost_pending(q))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (pc_queue_ended(q))
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLHUP;
	return mask;
}

#ifdef CONFIG_PERF_COUNTER_KUNIT_TEST
/*
 * The queue's own suite, and what the others ask of a queue, see inside
 * it: built as a part of queue.c.
 */
#include "kunit/queue_test.c"
#endif
