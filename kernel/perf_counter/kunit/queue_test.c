// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the record queue. Records survive wrap-around whole; a full
 * queue counts every record it drops and reports the count in a LOST
 * record ahead of the next record that fits; and a producer in hard-irq
 * context racing a reader loses nothing it does not report, tears
 * nothing and duplicates nothing. In the 2009 format the same records read
 * without their headers, and drops are counted, never written. A reader
 * blocked in read() is woken by a record and by a drop. The reader is
 * read()'s own, pc_queue_read(), into a kernel buffer.
 *
 * Built as a part of queue.c (included at its end), so that it sees the
 * queue's fields, which are queue.c's alone; so is what the other suites
 * ask of a queue (pc_queue_kunit_copy(), pc_queue_kunit_lost()).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/uio.h>
#include <linux/workqueue.h>

#include "../internal.h"

/**
 * pc_queue_kunit_copy() - KUnit: the words of the records not yet read
 * @q:		the queue, no producer running
 * @buf:	where they go, in order, records whole
 * @max:	room in @buf, in words
 *
 * Nothing is taken: the reader still finds them.
 *
 * Return: the words copied.
 */
u32 pc_queue_kunit_copy(struct pc_queue *q, u64 *buf, u32 max)
{
	unsigned long at;
	u32 n = 0;

	for (at = q->tail; at != q->head && n < max; at++)
		buf[n++] = q->ring[at & q->mask];
	return n;
}

/**
 * pc_queue_kunit_lost() - KUnit: drops not yet written as a LOST record
 * @q:		the queue
 *
 * Return: their count.
 */
u64 pc_queue_kunit_lost(struct pc_queue *q)
{
	return q->lost + atomic_long_read(&q->missed);
}

union pc_test_header {
	u64					word;
	struct perf_counter_record_header	h;
};

/* A producer: one record of @type carrying @seq. */
static bool push_kind(struct pc_queue *q, u32 type, u64 seq)
{
	unsigned long flags;
	bool ok;
	unsigned long at;

	raw_spin_lock_irqsave(&q->lock, flags);
	ok = pc_queue_reserve(q, type, 2, &at);
	if (ok) {
		pc_queue_put(q, &at, seq);
		pc_queue_commit(q, at);
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return ok;
}

/* A producer: one SAMPLE record carrying @seq. */
static bool push(struct pc_queue *q, u64 seq)
{
	return push_kind(q, PERF_COUNTER_REC_SAMPLE, seq);
}

/*
 * read() of up to @words words of whole records into @buf, through
 * pc_queue_read() itself: the bytes read, or its error.
 */
static ssize_t read_words_waiting(struct pc_queue *q, u64 *buf, u32 words,
				  bool nonblock)
{
	struct kvec kv = { .iov_base = buf, .iov_len = words * sizeof(u64) };
	struct iov_iter to;

	iov_iter_kvec(&to, ITER_DEST, &kv, 1, kv.iov_len);
	return pc_queue_read(q, &to, nonblock);
}

static ssize_t read_words(struct pc_queue *q, u64 *buf, u32 words)
{
	return read_words_waiting(q, buf, words, true);
}

/* One record of two words (all this test writes): its size in words. */
static u32 pop(struct pc_queue *q, u32 *type, u64 *payload)
{
	union pc_test_header u;
	u64 rec[2];

	if (read_words(q, rec, 2) != sizeof(rec))
		return 0;
	u.word = rec[0];
	*type = u.h.type;
	*payload = rec[1];
	return u.h.size / sizeof(u64);
}

/*
 * A call chain goes into its record as one block of words: across the
 * ring's end, the block is split and read back whole, in order, at
 * every position the ring's end can cut it.
 */
static void block_of_words_wraps_around_whole(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 block[40], buf[42];
	union pc_test_header u;
	unsigned long flags, at;
	u32 round, i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	/* 512 words; records of 41 words: every offset comes round */
	for (round = 0; round < 600; round++) {
		for (i = 0; i < ARRAY_SIZE(block); i++)
			block[i] = (u64)round << 32 | i;
		raw_spin_lock_irqsave(&q->lock, flags);
		KUNIT_ASSERT_TRUE(test, pc_queue_reserve(q,
				  PERF_COUNTER_REC_SAMPLE,
				  1 + ARRAY_SIZE(block), &at));
		pc_queue_put_words(q, &at, block, ARRAY_SIZE(block));
		pc_queue_commit(q, at);
		raw_spin_unlock_irqrestore(&q->lock, flags);

		KUNIT_ASSERT_EQ(test, read_words(q, buf, ARRAY_SIZE(buf)),
				41 * sizeof(u64));
		u.word = buf[0];
		KUNIT_EXPECT_EQ(test, u.h.size, 41 * sizeof(u64));
		for (i = 0; i < ARRAY_SIZE(block); i++)
			KUNIT_EXPECT_EQ(test, buf[1 + i], block[i]);
	}
	KUNIT_EXPECT_EQ(test, pc_queue_kunit_lost(q), 0);
	pc_queue_drop(q);
}

static void records_wrap_around_whole(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 seq, got;
	u32 type;

	KUNIT_ASSERT_NOT_NULL(test, q);
	/* 512 words, 2 per record: 5000 records wrap it about 20 times */
	for (seq = 0; seq < 5000; seq++) {
		KUNIT_ASSERT_TRUE(test, push(q, seq));
		if ((u32)seq % 3 == 2) {
			/* fall behind a little, then catch up */
			continue;
		}
		while (pop(q, &type, &got)) {
			KUNIT_ASSERT_EQ(test, type, PERF_COUNTER_REC_SAMPLE);
			KUNIT_ASSERT_LE(test, got, seq);
		}
	}
	KUNIT_EXPECT_EQ(test, q->lost, 0);
	KUNIT_EXPECT_EQ(test, q->head, q->tail);
	KUNIT_EXPECT_GT(test, q->head, 10 * (q->mask + 1UL));
	pc_queue_drop(q);
}

static void full_queue_reports_every_drop_before_the_next_record(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 seq = 0, got, dropped = 0;
	u32 type, i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	while (push(q, seq))
		seq++;
	KUNIT_EXPECT_EQ(test, seq, (q->mask + 1) / 2);	/* exactly full */
	KUNIT_EXPECT_EQ(test, q->lost, 1);	/* the push that found it so */
	for (i = 0; i < 37; i++)
		dropped += !push(q, 1000 + i);
	KUNIT_EXPECT_EQ(test, dropped, 37);
	KUNIT_EXPECT_EQ(test, q->lost, 38);

	/* one record's room is not enough for LOST + record: still lost */
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_FALSE(test, push(q, 2000));
	KUNIT_EXPECT_EQ(test, q->lost, 39);

	/* two records' room: LOST(39) goes out, then the record */
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_TRUE(test, push(q, 3000));
	KUNIT_EXPECT_EQ(test, q->lost, 0);
	for (i = 2; i < seq; i++) {
		KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
		KUNIT_EXPECT_EQ(test, got, i);
	}
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST);
	KUNIT_EXPECT_EQ(test, got, 39);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_SAMPLE);
	KUNIT_EXPECT_EQ(test, got, 3000);
	KUNIT_EXPECT_EQ(test, pop(q, &type, &got), 0);
	pc_queue_drop(q);
}

/*
 * Side-band records dropped are counted apart from samples: a full
 * queue's drops of both kinds go out as a LOST and a LOST_SIDEBAND
 * record ahead of the next record that fits, each with its own count,
 * or, with no record after them, read one after the other once the
 * queue is empty (a resize meanwhile refused).
 */
static void sideband_drops_are_told_apart_from_samples(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 seq = 0, got;
	u32 type, i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	while (push(q, seq))
		seq++;
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_FALSE(test, push_kind(q, PERF_COUNTER_REC_FORK, i));
	KUNIT_EXPECT_EQ(test, q->lost, 1);
	KUNIT_EXPECT_EQ(test, q->lost_sideband, 5);
	for (i = 0; i < 3; i++)		/* room for both, then the record */
		KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_TRUE(test, push_kind(q, PERF_COUNTER_REC_EXIT, 77));
	for (i = 3; i < seq; i++)
		KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST);
	KUNIT_EXPECT_EQ(test, got, 1);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST_SIDEBAND);
	KUNIT_EXPECT_EQ(test, got, 5);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_EXIT);
	KUNIT_EXPECT_EQ(test, got, 77);
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 6);

	/* with no record after them, read once empty: samples' first */
	while (push(q, seq))		/* the push that finds it full: 1 */
		seq++;
	KUNIT_EXPECT_FALSE(test, push(q, 1));	/* 2 */
	KUNIT_EXPECT_FALSE(test, push_kind(q, PERF_COUNTER_REC_COMM, 2));
	KUNIT_EXPECT_FALSE(test, push_kind(q, PERF_COUNTER_REC_EXIT, 3));
	while (pop(q, &type, &got) == 2 && type == PERF_COUNTER_REC_SAMPLE)
		;
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST);
	KUNIT_EXPECT_EQ(test, got, 2);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), -EBUSY);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST_SIDEBAND);
	KUNIT_EXPECT_EQ(test, got, 2);
	KUNIT_EXPECT_EQ(test, pop(q, &type, &got), 0);
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 10);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), 0);
	pc_queue_drop(q);
}

static void format_2009_reads_bare_records_and_counts_drops(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, true, false);
	u64 seq = 0, buf[8] = { 0 };
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	while (push(q, seq))
		seq++;
	KUNIT_EXPECT_EQ(test, seq, (q->mask + 1) / 2);	/* headers kept */
	for (i = 0; i < 9; i++)
		KUNIT_EXPECT_FALSE(test, push(q, 1000 + i));
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 10);

	/* one word: one record's payload, no header */
	KUNIT_EXPECT_EQ(test, read_words(q, buf, 1), 8);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
	/* five words hold five records, never a part of one */
	KUNIT_EXPECT_EQ(test, read_words(q, buf, 5), 40);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, buf[i], i + 1);
	/* room again: no LOST record is written, the count stays */
	KUNIT_EXPECT_TRUE(test, push(q, 2000));
	KUNIT_EXPECT_EQ(test, q->lost, 0);
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 10);
	while (read_words(q, buf, 1) == 8)
		;
	KUNIT_EXPECT_EQ(test, buf[0], 2000);
	/* drops pending do not keep a 2009-format queue from a resize */
	push(q, 1);
	read_words(q, buf, 1);
	atomic_long_inc(&q->missed);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, 2 * PC_QUEUE_MIN), 0);
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 11);
	pc_queue_drop(q);
}

/*
 * Drops after the last record that fitted are not kept from the reader
 * until another record comes: read empty, the queue gives their LOST
 * record, then EAGAIN; and with nothing waiting it can be resized.
 */
static void drops_with_no_record_after_them_are_read_once_empty(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 seq = 0, got, buf[2];
	u32 type;

	KUNIT_ASSERT_NOT_NULL(test, q);
	while (push(q, seq))
		seq++;
	KUNIT_EXPECT_FALSE(test, push(q, seq));
	while (seq--)
		KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), -EBUSY);
	KUNIT_EXPECT_EQ(test, read_words(q, buf, 1), -ENOSPC);
	KUNIT_ASSERT_EQ(test, pop(q, &type, &got), 2);
	KUNIT_EXPECT_EQ(test, type, PERF_COUNTER_REC_LOST);
	KUNIT_EXPECT_EQ(test, got, 2);
	KUNIT_EXPECT_EQ(test, read_words(q, buf, 2), -EAGAIN);
	KUNIT_EXPECT_EQ(test, pc_queue_dropped(q), 2);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), 0);
	pc_queue_drop(q);
}

static void resize_rules(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	u64 got;
	u32 type;

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, PC_QUEUE_MIN + 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, PC_QUEUE_MIN / 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, PC_QUEUE_MAX * 2), -EINVAL);
	push(q, 1);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), -EBUSY);
	pop(q, &type, &got);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, SZ_8K), 0);
	KUNIT_EXPECT_EQ(test, q->mask + 1, SZ_8K / 8);
	KUNIT_EXPECT_EQ(test, pc_queue_resize(q, PC_QUEUE_MAX), 0);
	pc_queue_drop(q);
}

struct pc_race {
	struct hrtimer		timer;
	struct pc_queue		*q;
	u64			produced;
	bool			stop;
};

static enum hrtimer_restart pc_race_tick(struct hrtimer *timer)
{
	struct pc_race *race = container_of(timer, struct pc_race, timer);
	int i;

	if (READ_ONCE(race->stop))
		return HRTIMER_NORESTART;
	/* a burst, so the queue really fills now and then */
	for (i = 0; i < 8; i++)
		push(race->q, race->produced++);
	hrtimer_forward_now(timer, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* A reader blocked in read(), as a task would be, in a worker. */
struct pc_test_waiter {
	struct work_struct	work;
	struct pc_queue		*q;
	u64			buf[4];
	ssize_t			got;
	struct completion	done;
};

static void pc_test_wait_fn(struct work_struct *work)
{
	struct pc_test_waiter *w = container_of(work, struct pc_test_waiter,
						work);

	w->got = read_words_waiting(w->q, w->buf, ARRAY_SIZE(w->buf), false);
	complete(&w->done);
}

/*
 * Start @w's read and wait until it sleeps on the queue. Return: false
 * if it did not within two seconds.
 */
static bool pc_test_waiter_sleeps(struct pc_test_waiter *w)
{
	int i;

	reinit_completion(&w->done);
	queue_work(system_unbound_wq, &w->work);
	for (i = 0; i < 2000 && !wq_has_sleeper(&w->q->wait); i++)
		usleep_range(1000, 2000);
	return wq_has_sleeper(&w->q->wait);
}

/*
 * Was @w woken within two seconds? If not, its queue is ended (which
 * wakes readers unconditionally) so that the worker finishes.
 */
static bool pc_test_waiter_woken(struct pc_test_waiter *w)
{
	bool woken = wait_for_completion_timeout(&w->done, 2 * HZ);

	if (!woken) {
		pc_queue_writer_end(w->q);
		wait_for_completion(&w->done);
	}
	flush_work(&w->work);
	return woken;
}

/*
 * Producers wake only a reader that waits: one blocked in read() is
 * woken by the record that comes, and again by drops alone (a LOST
 * record is what it then reads), from the queue's irq_work.
 */
static void blocked_reader_is_woken_by_a_record_and_by_a_drop(struct kunit *test)
{
	struct pc_test_waiter *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	union pc_test_header u;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	KUNIT_ASSERT_NOT_NULL(test, w->q);
	INIT_WORK(&w->work, pc_test_wait_fn);
	init_completion(&w->done);

	KUNIT_ASSERT_TRUE(test, pc_test_waiter_sleeps(w));
	KUNIT_EXPECT_TRUE(test, push(w->q, 7));
	KUNIT_EXPECT_TRUE(test, pc_test_waiter_woken(w));
	KUNIT_EXPECT_EQ(test, w->got, 2 * sizeof(u64));
	u.word = w->buf[0];
	KUNIT_EXPECT_EQ(test, u.h.type, PERF_COUNTER_REC_SAMPLE);
	KUNIT_EXPECT_EQ(test, w->buf[1], 7);

	KUNIT_ASSERT_TRUE(test, pc_test_waiter_sleeps(w));
	pc_queue_missed(w->q, 3);
	KUNIT_EXPECT_TRUE(test, pc_test_waiter_woken(w));
	KUNIT_EXPECT_EQ(test, w->got, PC_LOST_WORDS * sizeof(u64));
	u.word = w->buf[0];
	KUNIT_EXPECT_EQ(test, u.h.type, PERF_COUNTER_REC_LOST);
	KUNIT_EXPECT_EQ(test, w->buf[1], 3);
	pc_queue_drop(w->q);
}

/*
 * The reader takes what read() would: up to eight records a call, by
 * pc_queue_read() into a kernel buffer, each checked whole.
 */
static void irq_producer_racing_a_reader_loses_only_what_it_reports(struct kunit *test)
{
	struct pc_race *race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	u64 expect = 0, lost = 0, samples = 0, calls = 0, buf[16];
	unsigned long end;
	ssize_t n, off;

	KUNIT_ASSERT_NOT_NULL(test, race);
	race->q = pc_queue_alloc(PC_QUEUE_MIN, false, false);
	KUNIT_ASSERT_NOT_NULL(test, race->q);
	hrtimer_init(&race->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	race->timer.function = pc_race_tick;
	hrtimer_start(&race->timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);

	end = jiffies + msecs_to_jiffies(200);
	for (;;) {
		bool running = time_before(jiffies, end);

		if (!running && !race->stop) {
			WRITE_ONCE(race->stop, true);
			hrtimer_cancel(&race->timer);	/* no producer now */
		}
		n = read_words(race->q, buf, ARRAY_SIZE(buf));
		if (n == -EAGAIN) {
			if (!running)
				break;			/* stopped and drained */
			continue;
		}
		KUNIT_ASSERT_GT(test, n, 0);
		KUNIT_ASSERT_EQ(test, n % 16, 0);	/* whole records */
		calls++;
		for (off = 0; off < n / 8; off += 2) {
			union pc_test_header u = { .word = buf[off] };

			KUNIT_ASSERT_EQ(test, u.h.size, 16);
			if (u.h.type == PERF_COUNTER_REC_LOST) {
				lost += buf[off + 1];
				expect += buf[off + 1];	/* the gap it announces */
				continue;
			}
			KUNIT_ASSERT_EQ(test, u.h.type, PERF_COUNTER_REC_SAMPLE);
			/* no tear, no repeat */
			KUNIT_ASSERT_EQ(test, buf[off + 1], expect);
			expect++;
			if ((++samples & 63) == 0)
				mdelay(2);		/* fall behind on purpose */
		}
	}
	/* drops after the last record that fitted: read as LOST, once empty */
	KUNIT_EXPECT_EQ(test, race->q->lost, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&race->q->missed), 0);
	kunit_info(test, "%llu produced, %llu read in %llu reads, %llu lost",
		   race->produced, samples, calls, lost);
	KUNIT_EXPECT_GT(test, samples, 100);
	KUNIT_EXPECT_EQ(test, samples + lost, race->produced);
	pc_queue_drop(race->q);
}

static struct kunit_case pc_queue_cases[] = {
	KUNIT_CASE(records_wrap_around_whole),
	KUNIT_CASE(block_of_words_wraps_around_whole),
	KUNIT_CASE(blocked_reader_is_woken_by_a_record_and_by_a_drop),
	KUNIT_CASE(full_queue_reports_every_drop_before_the_next_record),
	KUNIT_CASE(sideband_drops_are_told_apart_from_samples),
	KUNIT_CASE(format_2009_reads_bare_records_and_counts_drops),
	KUNIT_CASE(drops_with_no_record_after_them_are_read_once_empty),
	KUNIT_CASE(resize_rules),
	KUNIT_CASE(irq_producer_racing_a_reader_loses_only_what_it_reports),
	{}
};

static struct kunit_suite pc_queue_suite = {
	.name = "perf_counter_queue",
	.test_cases = pc_queue_cases,
};
kunit_test_suite(pc_queue_suite);
