// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the record queue. Records survive wrap-around whole; a full
 * queue counts every record it drops and reports the count in a LOST
 * record ahead of the next record that fits; and a producer in hard-irq
 * context racing a reader loses nothing it does not report, tears
 * nothing and duplicates nothing.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>

#include "../internal.h"

union pc_test_header {
	u64					word;
	struct perf_counter_record_header	h;
};

/* A producer: one SAMPLE record carrying @seq. */
static bool push(struct pc_queue *q, u64 seq)
{
	unsigned long flags;
	bool ok;
	unsigned long at;

	raw_spin_lock_irqsave(&q->lock, flags);
	ok = pc_queue_reserve(q, PERF_COUNTER_REC_SAMPLE, 2, &at);
	if (ok) {
		pc_queue_put(q, &at, seq);
		pc_queue_commit(q, at);
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return ok;
}

/* The reader's side, as pc_queue_read() does it, without user memory. */
static u32 pop(struct pc_queue *q, u32 *type, u64 *payload)
{
	/* Pairs with pc_queue_commit(), as in pc_queue_read(). */
	unsigned long tail = q->tail, head = smp_load_acquire(&q->head);
	union pc_test_header u;
	u32 words;

	if (tail == head)
		return 0;
	u.word = q->ring[tail & q->mask];
	words = u.h.size / sizeof(u64);
	*type = u.h.type;
	*payload = q->ring[(tail + 1) & q->mask];
	/* Done with the words: producers may reuse them. */
	smp_store_release(&q->tail, tail + words);
	return words;
}

static void records_wrap_around_whole(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN);
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
	pc_queue_free(q);
}

static void full_queue_reports_every_drop_before_the_next_record(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN);
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
	pc_queue_free(q);
}

static void resize_rules(struct kunit *test)
{
	struct pc_queue *q = pc_queue_alloc(PC_QUEUE_MIN);
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
	pc_queue_free(q);
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

static void irq_producer_racing_a_reader_loses_only_what_it_reports(struct kunit *test)
{
	struct pc_race *race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	u64 expect = 0, got, lost = 0, samples = 0;
	unsigned long end;
	u32 type;

	KUNIT_ASSERT_NOT_NULL(test, race);
	race->q = pc_queue_alloc(PC_QUEUE_MIN);
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
		if (!pop(race->q, &type, &got)) {
			if (!running)
				break;			/* stopped and drained */
			continue;
		}
		if (type == PERF_COUNTER_REC_LOST) {
			lost += got;
			expect += got;			/* the gap it announces */
			continue;
		}
		KUNIT_ASSERT_EQ(test, type, PERF_COUNTER_REC_SAMPLE);
		KUNIT_ASSERT_EQ(test, got, expect);	/* no tear, no repeat */
		expect++;
		if ((++samples & 63) == 0)
			mdelay(2);			/* fall behind on purpose */
	}
	/* drops after the last record that fitted are still pending */
	lost += race->q->lost;
	kunit_info(test, "%llu produced, %llu read, %llu lost",
		   race->produced, samples, lost);
	KUNIT_EXPECT_GT(test, samples, 100);
	KUNIT_EXPECT_EQ(test, samples + lost, race->produced);
	pc_queue_free(race->q);
}

static struct kunit_case pc_queue_cases[] = {
	KUNIT_CASE(records_wrap_around_whole),
	KUNIT_CASE(full_queue_reports_every_drop_before_the_next_record),
	KUNIT_CASE(resize_rules),
	KUNIT_CASE(irq_producer_racing_a_reader_loses_only_what_it_reports),
	{}
};

static struct kunit_suite pc_queue_suite = {
	.name = "perf_counter_queue",
	.test_cases = pc_queue_cases,
};
kunit_test_suite(pc_queue_suite);
