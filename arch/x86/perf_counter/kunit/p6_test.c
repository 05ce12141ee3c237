// SPDX-License-Identifier: GPL-2.0
/*
 * The P6 driver against a model of its MSRs: the 64-bit sums, long
 * sampling periods, the overflow NMI racing a read, the shared enable
 * bit, the per-counter event constraints, the privilege bits, group
 * records, the models it drives and its register check.
 */
#include <asm/processor.h>

#include "internal.h"
#include "msr_model.h"

static void p6_wraps_of_the_40_bit_counter_sum_exactly(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = pc_model_counter(test, m, &hw);
	unsigned int wraps;
	u64 total;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	/* batches under 2^31: a wrap a batch at most */
	total = pc_msr_model_wrap_run(m, c, 0x65432107, 5ULL << 40, &wraps);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), total);
	/* Loaded with 2^31 - 1 at each wrap: it went round over a thousand times. */
	KUNIT_EXPECT_GE(test, wraps, total >> 32);
	KUNIT_EXPECT_GT(test, wraps, 1000);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * The counter counts on while the handler runs (3 kernel events at each
 * register access it makes, as a counter of kernel events counts its own
 * interrupt). The handler folds the register, then loads it: what it
 * counts during the load's write is overwritten, as on the silicon, and
 * nothing else may be lost: the 64-bit count is what the register
 * counted less exactly 3 events a wrap.
 */
static void p6_handler_loses_only_what_its_load_overwrites(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = pc_model_counter(test, m, &hw);
	const u64 chunk = 0x6543210fULL;	/* under 2^31 */
	u64 total = 0, wraps = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	m->handler_events = 3;
	while (total < 40ULL << 31) {
		pc_msr_model_run(m, chunk, true);
		total += chunk;
		wraps += pc_msr_model_storm(m, 10);
	}
	m->handler_events = 0;
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_GT(test, m->counted[c->hw.place.idx], total);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count) + 3 * wraps,
			m->counted[c->hw.place.idx]);
	KUNIT_EXPECT_GT(test, wraps, 10);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * A hardware sample's call chain, written by the overflow interrupt: the
 * interrupted user state's address, then a walk that ends at a frame
 * pointer of 0 (complete), or at one this kernel thread cannot read
 * (broken: it has no user memory); no kernel part with exclude_kernel.
 */
static void p6_sample_carries_its_call_chain(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct pt_regs user = { .cs = __USER_CS, .ip = 0x401234,
				.sp = 0x7ff00000 };
	union {
		u64				word;
		struct perf_counter_callchain	head;
	} u;
	struct perf_counter *c;
	u64 w[4];

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_CALLCHAIN;
	hw.exclude_kernel = 1;
	c = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->chain_depth = 8;		/* made with the default, cut to 8 */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	m->irq_regs = &user;

	pc_msr_model_run(m, 1000, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_ASSERT_EQ(test, pc_hw_model_last_sample(c, w, 4), 1);
	u.word = w[1];
	KUNIT_EXPECT_EQ(test, w[0], 0x401234);
	KUNIT_EXPECT_EQ(test, u.head.nr, 2);
	KUNIT_EXPECT_EQ(test, u.head.flags, PERF_COUNTER_CHAIN_COMPLETE);
	KUNIT_EXPECT_EQ(test, w[2], (u64)PERF_CONTEXT_USER);
	KUNIT_EXPECT_EQ(test, w[3], 0x401234);

	user.bp = user.sp + 64;		/* a frame, unreadable here */
	pc_msr_model_run(m, 1000, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_ASSERT_EQ(test, pc_hw_model_last_sample(c, w, 4), 2);
	u.word = w[1];
	KUNIT_EXPECT_EQ(test, u.head.nr, 2);
	KUNIT_EXPECT_EQ(test, u.head.flags, PERF_COUNTER_CHAIN_BROKEN);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	m->irq_regs = NULL;
	pc_model_counter_free(m, c);
}

static void p6_period_of_2_31_plus_5_samples_at_its_last_event(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	const u64 period = (1ULL << 31) + 5;
	struct perf_counter *c;
	u64 value = 0;

	hw.irq_period = period;
	hw.record_type = PERF_RECORD_VALUE;
	c = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);

	/* 31 bits is all a P6 counter takes: the period goes in two loads. */
	pc_msr_model_run(m, (1ULL << 31) - 1, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	pc_msr_model_run(m, 5, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 0);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 0);
	pc_msr_model_run(m, 1, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	KUNIT_EXPECT_EQ(test, value, period);

	/* The next period is as exact. */
	pc_msr_model_run(m, (1ULL << 31) - 1, false);
	pc_msr_model_service(m);
	pc_msr_model_run(m, 5, false);
	pc_msr_model_service(m);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	pc_msr_model_run(m, 1, false);
	pc_msr_model_service(m);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 2);
	KUNIT_EXPECT_EQ(test, value, 2 * period);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * Period 1 on kernel-mode events, and the counter counts the handler's
 * own events: each NMI wraps the register again. The CPU's sample
 * budget ends the storm, and every period is a sample or a loss. With
 * @exclude_user every NMI finds user mode, which the counter excludes: no
 * sample is ever written, and the budget must end that storm too.
 */
static void p6_storm(struct kunit *test, bool exclude_user)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct pt_regs user = { .cs = 3 };
	unsigned long budget, start, jiffies_seen;
	struct perf_counter *c;
	unsigned int nmis;
	int added;
	u64 value, records, count;

	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_VALUE;
	hw.exclude_user = exclude_user;
	c = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	m->handler_events = 3;
	if (exclude_user)
		m->irq_regs = &user;

	/*
	 * No tick may renew the budget in the middle: irqs off, and the
	 * budget held in its jiffy while another CPU's tick moves jiffies.
	 */
	local_irq_disable();
	budget = pc_samples_per_tick();
	pc_sample_budget_hold(true);
	pc_sample_budget_tick();
	start = READ_ONCE(jiffies);
	added = pc_hw_cpu_add(&m->cpuc, c);
	if (added) {
		/* never leave this CPU's budget held, nor its irqs off */
		pc_sample_budget_hold(false);
		local_irq_enable();
		KUNIT_ASSERT_EQ(test, added, 0);
	}
	pc_msr_model_run(m, 2, false);
	nmis = pc_msr_model_storm(m, 100000);
	jiffies_seen = READ_ONCE(jiffies) - start + 1;
	pc_sample_budget_hold(false);
	local_irq_enable();

	/*
	 * Exactly the budget and one interrupt more: the budget was held
	 * in one jiffy, however many the storm took (443 on the sanitizer
	 * kernel once, whose every jiffy then renewed it before it was
	 * spent, and the storm never ended).
	 */
	records = pc_hw_model_records(c, &value);
	kunit_info(test, "%u interrupts, %llu samples, budget %lu, %lu jiffies\n",
		   nmis, records, budget, jiffies_seen);
	KUNIT_EXPECT_LT(test, nmis, 100000);
	KUNIT_EXPECT_GE(test, (unsigned long)nmis, budget + 1);
	KUNIT_EXPECT_EQ(test, (unsigned long)nmis, budget + 1);
	if (exclude_user) {
		KUNIT_EXPECT_EQ(test, records, 0);
	} else {
		KUNIT_EXPECT_GE(test, (unsigned long)records, budget);
		KUNIT_EXPECT_EQ(test, (unsigned long)records, budget);
	}
	KUNIT_EXPECT_TRUE(test, c->hw.throttled);
	KUNIT_EXPECT_FALSE(test, m->pending);

	/* The next tick: loaded for its period again, the rest lost. */
	local_irq_disable();
	pc_sample_budget_tick();
	pc_hw_unthrottle(&m->cpuc);
	local_irq_enable();
	KUNIT_EXPECT_FALSE(test, c->hw.throttled);
	count = atomic64_read(&c->count);
	KUNIT_EXPECT_EQ(test, records + pc_hw_model_lost(c), count);
	/* Never loaded within two events of its interrupt. */
	KUNIT_EXPECT_EQ(test, m->ctr[c->hw.place.idx], GENMASK_ULL(39, 1));
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

static void p6_period_1_nmi_storm_ends_at_the_sample_budget(struct kunit *test)
{
	p6_storm(test, false);
}

static void p6_storm_of_excluded_samples_ends_at_the_sample_budget(struct kunit *test)
{
	p6_storm(test, true);
}

/* The NMI: 25 more events wrap the counter, and the handler runs. */
static void p6_nmi_in_read(struct pc_msr_model *m)
{
	pc_msr_model_run(m, 25, false);
	pc_msr_model_service(m);
}

static void p6_overflow_between_read_and_update_loses_nothing(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = pc_model_counter(test, m, &hw);
	const u64 before = pc_p6_pmu.x86.pmu.max_period - 10;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_msr_model_run(m, before, false);
	/* The fold reads the counter; the NMI comes before it updates. */
	m->in_read = p6_nmi_in_read;
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_NULL(test, m->in_read);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), before + 25);
	pc_msr_model_run(m, 100, false);
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), before + 125);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, c);
}

/*
 * rdpmc reaches the counters wherever CR4.PCE is set (perf_events sets
 * it for a task that maps an event): a counter taken off, at its
 * switch-out or close, leaves neither its count nor its sampling preload
 * for the next task to read.
 */
static void p6_counter_given_up_holds_no_count(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event div = pc_hw_model_raw(0x13);	/* DIV: counter 1 */
	struct perf_counter *a, *b;

	cyc.irq_period = 1000;
	cyc.record_type = PERF_RECORD_IRQ;
	a = pc_model_counter(test, m, &cyc);
	b = pc_model_counter(test, m, &div);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	pc_msr_model_run(m, 123, true);
	KUNIT_EXPECT_NE(test, m->ctr[0], 0);
	KUNIT_EXPECT_NE(test, m->ctr[1], 0);
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, m->ctr[0], 0);
	pc_hw_cpu_del(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, m->ctr[1], 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 123);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

static void p6_evntsel0_enable_bit_gates_counter_1_alone(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event div = pc_hw_model_raw(0x13);	/* DIV: counter 1 */
	struct perf_counter *a = pc_model_counter(test, m, &cyc);
	struct perf_counter *b = pc_model_counter(test, m, &div);

	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_EXPECT_EQ(test, a->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, b->hw.place.idx, 1);
	KUNIT_EXPECT_TRUE(test, m->sel[0] & MSRM_EVNTSEL_EN);
	KUNIT_EXPECT_FALSE(test, m->sel[1] & MSRM_EVNTSEL_EN);

	/* Counter 1 alone: EVNTSEL0 enables it and counts nothing itself. */
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, m->sel[0], MSRM_EVNTSEL_EN);
	KUNIT_EXPECT_EQ(test, m->sel[1], b->hw.config);
	m->ctr[0] = 0;
	pc_msr_model_run(m, 100, true);
	pc_msr_model_run(m, 100, false);
	KUNIT_EXPECT_EQ(test, m->ctr[0], 0);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 200);

	pc_hw_cpu_del(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, m->sel[0], 0);
	KUNIT_EXPECT_EQ(test, m->sel[1], 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

static void p6_constraints_move_counters_or_refuse(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event flops = pc_hw_model_raw(0xc1);  /* counter 0 */
	struct perf_counter_hw_event busy = pc_hw_model_raw(0x14);   /* counter 0 */
	struct perf_counter *a = pc_model_counter(test, m, &cyc);
	struct perf_counter *b = pc_model_counter(test, m, &flops);
	struct perf_counter *c = pc_model_counter(test, m, &busy);

	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, a->hw.place.idx, 0);
	pc_msr_model_run(m, 1000, false);

	/* FLOPS needs counter 0: cycles moves to counter 1, counting on. */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_EXPECT_EQ(test, b->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, a->hw.place.idx, 1);
	KUNIT_EXPECT_EQ(test, m->sel[0] & MSRM_EVNTSEL_EVENT, 0xc1);
	KUNIT_EXPECT_EQ(test, m->sel[1] & MSRM_EVNTSEL_EVENT, 0x79);
	pc_msr_model_run(m, 500, false);
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 1500);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 500);

	/* Counter 1 free, but CYCLES_DIV_BUSY may only use counter 0. */
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, c->hw.on);
	KUNIT_EXPECT_EQ(test, b->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, m->sel[1], 0);
	KUNIT_EXPECT_EQ(test, m->cpuc.nr_on, 1);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
	pc_model_counter_free(m, c);
}

static void p6_exclude_user_and_kernel_clear_usr_and_os(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event ku = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event kk = ku, none = ku;
	struct perf_counter *a, *b;

	ku.exclude_user = 1;
	kk.exclude_kernel = 1;
	none.exclude_user = none.exclude_kernel = 1;
	a = pc_model_counter(test, m, &ku);
	b = pc_model_counter(test, m, &kk);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_EXPECT_NULL(test, pc_model_counter(test, m, &none));

	KUNIT_EXPECT_EQ(test, a->hw.config & (MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS),
			MSRM_EVNTSEL_OS);
	KUNIT_EXPECT_EQ(test, b->hw.config & (MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS),
			MSRM_EVNTSEL_USR);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	pc_msr_model_run(m, 300, true);
	pc_msr_model_run(m, 40, false);
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 40);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 300);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

/*
 * No hypervisor runs beneath the kernel that an EVNTSEL can tell apart,
 * and the PMU has no idle filter: exclude_hv and exclude_idle leave the
 * word exactly as it would be without them, for every generic event and
 * each privilege filter.
 */
static void p6_exclude_hv_and_idle_program_the_same_evntsel(struct kunit *test)
{
	const struct pc_pmu *pmu = &pc_p6_pmu.x86.pmu;
	struct perf_counter_hw_event plain, hv;
	struct pc_hw_counter a, b;
	unsigned int id, mode;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		for (mode = 0; mode < 3; mode++) {
			plain = pc_hw_model_generic(id);
			plain.exclude_user = mode == 1;
			plain.exclude_kernel = mode == 2;
			hv = plain;
			hv.exclude_hv = 1;
			hv.exclude_idle = 1;
			KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &plain, NULL, &a), 0);
			KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &hv, NULL, &b), 0);
			KUNIT_EXPECT_EQ(test, a.config, b.config);
			KUNIT_EXPECT_EQ(test, a.extra, b.extra);
		}
	}
}

/*
 * exclude_idle: a paused counter keeps its register, which counts
 * nothing and raises nothing, while the other goes on (on P6 the enable
 * bit of EVNTSEL0 gates both registers: pausing counter 0 must leave
 * counter 1 counting). Resumed, it samples at the event that ends its
 * period, the idle events not among them.
 */
/*
 * Counter 0 paused while the CPU idles has EVNTSEL0's enable bit clear.
 * A counter put on counter 1 meanwhile must set it (alone: counter 0
 * still counts nothing), or it counts nothing until counter 0 resumes.
 */
static void p6_counter_1_put_on_while_counter_0_is_paused_counts(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *a, *b;

	hw.exclude_idle = 1;
	a = pc_model_counter(test, m, &hw);
	hw.exclude_idle = 0;
	b = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, a->hw.place.idx, 0);
	pc_msr_model_run(m, 10, true);
	pc_hw_pause(&m->cpuc, a);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_ASSERT_EQ(test, b->hw.place.idx, 1);
	pc_msr_model_run(m, 50, true);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 50);
	pc_hw_resume(&m->cpuc, a);
	pc_msr_model_run(m, 5, true);
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 10 + 5);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 50 + 5);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, b);
	pc_model_counter_free(m, a);
}

/*
 * A counter paused while its CPU idles, moved to make room for an event
 * that only counter 0 counts, stays stopped on its new register until
 * the CPU stops idling: it counts no idle events meanwhile.
 */
static void p6_counter_paused_for_idle_stays_stopped_when_moved(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event flops = pc_hw_model_raw(0xc1);  /* counter 0 */
	struct perf_counter *a, *b;

	cyc.exclude_idle = 1;
	a = pc_model_counter(test, m, &cyc);
	b = pc_model_counter(test, m, &flops);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, a->hw.place.idx, 0);
	pc_msr_model_run(m, 10, true);
	pc_hw_pause(&m->cpuc, a);		/* as pc_counter_idle() does */
	WRITE_ONCE(a->idle_paused, true);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_ASSERT_EQ(test, a->hw.place.idx, 1);
	pc_msr_model_run(m, 50, true);		/* idle: a counts none */
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 10);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 50);
	WRITE_ONCE(a->idle_paused, false);
	pc_hw_resume(&m->cpuc, a);
	pc_msr_model_run(m, 5, true);
	pc_hw_fold(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 10 + 5);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, b);
	pc_model_counter_free(m, a);
}

static void p6_idle_pause_keeps_the_register_and_counts_nothing(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *a, *b;
	u64 value = 0;

	hw.exclude_idle = 1;
	a = pc_model_counter(test, m, &hw);
	hw.irq_period = 100;
	hw.record_type = PERF_RECORD_VALUE;
	b = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_ASSERT_EQ(test, a->hw.place.idx, 0);
	KUNIT_ASSERT_EQ(test, b->hw.place.idx, 1);

	pc_msr_model_run(m, 60, true);
	pc_hw_pause(&m->cpuc, b);
	pc_msr_model_run(m, 500, true);		/* past b's period: no NMI */
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 0);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(b, &value), 0);
	pc_hw_resume(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, b->hw.place.idx, 1);
	pc_msr_model_run(m, 39, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 0);
	pc_msr_model_run(m, 1, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(b, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 100);

	/* counter 0 paused: counter 1, under EVNTSEL0's enable bit, counts */
	pc_hw_pause(&m->cpuc, a);
	pc_msr_model_run(m, 20, true);
	pc_hw_resume(&m->cpuc, a);
	pc_msr_model_run(m, 5, true);
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 60 + 500 + 40 + 5);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 60 + 40 + 20 + 5);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_model_counter_free(m, a);
	pc_model_counter_free(m, b);
}

/* The model whose registers p6_peek_ops folds: the running test's. */
static struct pc_msr_model *p6_peek_model;

static u64 p6_model_peek(struct perf_counter *counter)
{
	return pc_hw_peek(&p6_peek_model->cpuc, counter);
}

static int p6_model_start(struct perf_counter *counter)
{
	return -ENODEV;
}

static void p6_model_nop(struct perf_counter *counter)
{
}

/* A model counter that is read for group records as pc_hw_ops reads. */
static const struct pc_ops p6_peek_ops = {
	.start	= p6_model_start,
	.stop	= p6_model_nop,
	.read	= p6_model_nop,
	.peek	= p6_model_peek,
};

static void p6_join(struct perf_counter *member, struct perf_counter *leader)
{
	list_del_init(&member->group_entry);
	member->leader = leader;
	list_add_tail(&member->group_entry, &leader->siblings);
}

/*
 * A group record holds a hardware member's count up to the moment it
 * is written: under a hardware leader (written by the overflow
 * interrupt) and under a software one (written where its event
 * happens). The member's register has never folded here, so without
 * the fold its value in the records would be 0.
 */
static void p6_group_records_carry_the_members_register_now(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event_ext sw = {
		.hw.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE,
						       PERF_COUNT_PAGE_FAULTS),
		.hw.irq_period = 1,
		.hw.record_type = PERF_RECORD_VALUE | PERF_RECORD_GROUP,
	};
	struct perf_counter *leader, *member, *soft;
	u64 rec[4] = { };	/* value, nr, member's config, its value */

	hw.irq_period = 100;
	hw.record_type = PERF_RECORD_VALUE | PERF_RECORD_GROUP;
	leader = pc_model_counter(test, m, &hw);
	hw.irq_period = 0;
	hw.record_type = 0;
	member = pc_model_counter(test, m, &hw);
	soft = pc_counter_alloc(&sw, NULL, &pc_hw_model_ops, -1, NULL);
	KUNIT_ASSERT_TRUE(test, leader && member && !IS_ERR(soft));
	p6_peek_model = m;
	member->ops = &p6_peek_ops;
	member->state = PC_STATE_ACTIVE;	/* on, as its group is */
	p6_join(member, leader);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, leader), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, member), 0);

	/* the leader's 100th event: the member took the same 100 */
	pc_msr_model_run(m, 100, true);
	KUNIT_EXPECT_EQ(test, pc_msr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_last_sample(leader, rec, 4), 1);
	KUNIT_EXPECT_EQ(test, rec[0], 100);
	KUNIT_EXPECT_EQ(test, rec[1], 1);
	KUNIT_EXPECT_EQ(test, rec[2], hw.event_config);
	KUNIT_EXPECT_EQ(test, rec[3], 100);

	/* 37 more, then a page fault's sample under a software leader */
	p6_join(member, soft);
	pc_msr_model_run(m, 37, true);
	local_irq_disable();
	pc_sample_write(soft, NULL);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, pc_hw_model_last_sample(soft, rec, 4), 1);
	KUNIT_EXPECT_EQ(test, rec[1], 1);
	KUNIT_EXPECT_EQ(test, rec[3], 137);
	KUNIT_EXPECT_EQ(test, m->faults, 0);

	list_del_init(&member->group_entry);
	member->state = PC_STATE_INACTIVE;
	pc_counter_put(soft);
	pc_model_counter_free(m, member);
	pc_model_counter_free(m, leader);
}

/*
 * The driver takes the family 6 models the manuals list for P6 and no
 * other: not those with architectural performance monitoring, not
 * other vendors or families. A match on family 6 alone, without the
 * model list, fails here on every unlisted model.
 */
static void p6_drives_the_models_the_manuals_list(struct kunit *test)
{
	static const u8 listed[] = { 0x1, 0x3, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa,
				     0xb, 0xd };
	bool (*match)(const struct cpuinfo_x86 *c) = pc_p6_pmu.x86.match;
	struct cpuinfo_x86 c = { .x86_vendor = X86_VENDOR_INTEL, .x86 = 6 };
	unsigned int model, i;

	for (model = 0; model < 0x100; model++) {
		bool is_listed = false;

		for (i = 0; i < ARRAY_SIZE(listed); i++)
			is_listed |= model == listed[i];
		c.x86_model = model;
		KUNIT_EXPECT_EQ_MSG(test, match(&c), is_listed,
				    "family 6 model %#x", model);
	}
	c.x86_model = 0xd;
	KUNIT_EXPECT_TRUE(test, match(&c));		/* control */
	set_bit(X86_FEATURE_ARCH_PERFMON, (unsigned long *)c.x86_capability);
	KUNIT_EXPECT_FALSE(test, match(&c));
	clear_bit(X86_FEATURE_ARCH_PERFMON, (unsigned long *)c.x86_capability);
	c.x86_vendor = X86_VENDOR_AMD;
	KUNIT_EXPECT_FALSE(test, match(&c));
	c.x86_vendor = X86_VENDOR_INTEL;
	c.x86 = 15;
	KUNIT_EXPECT_FALSE(test, match(&c));
}

/*
 * The register check refuses registers someone is using: on P6 that is
 * EVNTSEL0's enable bit, which runs both counters (bit 22 of EVNTSEL1
 * is reserved and means nothing). It checks the last counter holds a
 * pattern, and puts its old value back.
 */
static void p6_register_check_reads_evntsel0s_enable_bit(struct kunit *test)
{
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);

	m->ctr[1] = 1234;
	KUNIT_EXPECT_TRUE(test, pc_x86_regs_check(&pc_p6_pmu.x86, &m->safe));
	KUNIT_EXPECT_EQ(test, m->ctr[1], 1234);
	/* counter 1 counting for someone: EVNTSEL1 has the event */
	m->sel[0] = MSRM_EVNTSEL_EN;
	m->sel[1] = MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS | 0x79;
	KUNIT_EXPECT_FALSE(test, pc_x86_regs_check(&pc_p6_pmu.x86, &m->safe));
	KUNIT_EXPECT_EQ(test, m->ctr[1], 1234);
	/* given back: free again */
	m->sel[0] = 0;
	m->sel[1] = 0;
	KUNIT_EXPECT_TRUE(test, pc_x86_regs_check(&pc_p6_pmu.x86, &m->safe));
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

static void p6_event_map_and_raw_reserved_bits(struct kunit *test)
{
	static const u64 want[PERF_HW_EVENTS_MAX] = {
		0x79, 0xc0, 0x0f2e, 0x012e, 0xc4, 0xc5, 0x62,
	};
	const struct pc_pmu *pmu = &pc_p6_pmu.x86.pmu;
	struct pc_hw_counter hwc;
	struct perf_counter_hw_event hw;
	unsigned int id;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		hw = pc_hw_model_generic(id);
		KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
		KUNIT_EXPECT_EQ(test, hwc.config & 0xffff, want[id]);
		KUNIT_EXPECT_TRUE(test, hwc.config & MSRM_EVNTSEL_INT);
		KUNIT_EXPECT_FALSE(test, hwc.config & MSRM_EVNTSEL_EN);
	}
	hw = pc_hw_model_generic(PERF_HW_EVENTS_MAX);
	KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);

	/* Raw: event, unit mask, edge, invert, counter mask; nothing else. */
	hw = pc_hw_model_raw(0xff84ffff);
	KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
	for (id = 16; id < 63; id++) {
		if (BIT_ULL(id) & 0xff840000ULL)
			continue;
		hw = pc_hw_model_raw(0xc0 | BIT_ULL(id));
		KUNIT_EXPECT_EQ_MSG(test, pmu->decode(pmu, &hw, NULL, &hwc),
				    -EINVAL, "raw bit %u", id);
	}
}

/*
 * The driver's EVNTSEL bits against the SDM's, which the model spells
 * itself (msr_model.h) where the driver takes asm/perf_event.h's: each
 * privilege filter sets exactly USR (bit 16), OS (bit 17) or both; every
 * counter INT (bit 20); EVNTSEL0 EN (bit 22), for both counters, and
 * EVNTSEL1 never; the event select and unit mask go in bits 7:0 and
 * 15:8, a raw event's edge (18), invert (23) and counter mask (31:24)
 * where it put them. The bits the driver owns (USR, OS, INT, EN, pin
 * control, 19), reserved bit 21 and the bits above 31 are refused in a
 * raw event. A bit the driver has where the SDM has another (USR and OS
 * swapped, INT one off) fails here, though driver and model would still
 * agree with each other if the model took the driver's bits.
 */
static void p6_driver_sets_exactly_the_evntsel_bits_the_sdm_names(struct kunit *test)
{
	static const struct {
		bool	exclude_user, exclude_kernel;
		u64	mode;
	} modes[] = {
		{ false, false, MSRM_EVNTSEL_USR | MSRM_EVNTSEL_OS },
		{ true, false, MSRM_EVNTSEL_OS },
		{ false, true, MSRM_EVNTSEL_USR },
	};
	static const u64 owned[] = {
		MSRM_EVNTSEL_USR, MSRM_EVNTSEL_OS, MSRM_EVNTSEL_INT,
		MSRM_EVNTSEL_EN, MSRM_EVNTSEL_PC, BIT_ULL(21), BIT_ULL(32),
		BIT_ULL(40), BIT_ULL(62),
	};
	/* L2_RQSTS with every MESI state; edge, invert, counter mask 0x5a */
	const u64 raw = msrm_evntsel(0x2e, 0x0f) | MSRM_EVNTSEL_EDGE |
			MSRM_EVNTSEL_INV | FIELD_PREP(MSRM_EVNTSEL_CMASK, 0x5a);
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	const struct pc_pmu *pmu = &pc_p6_pmu.x86.pmu;
	struct perf_counter_hw_event hw;
	struct pc_hw_counter hwc;
	struct perf_counter *a, *b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		/* cycles on counter 0; DIV, counted by counter 1 only, on 1 */
		hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
		hw.exclude_user = modes[i].exclude_user;
		hw.exclude_kernel = modes[i].exclude_kernel;
		a = pc_model_counter(test, m, &hw);
		hw.event_config = pc_hw_model_raw(0x13).event_config;
		b = pc_model_counter(test, m, &hw);
		KUNIT_ASSERT_TRUE(test, a && b);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
		KUNIT_ASSERT_EQ(test, a->hw.place.idx, 0);
		KUNIT_ASSERT_EQ(test, b->hw.place.idx, 1);
		KUNIT_EXPECT_EQ_MSG(test, m->sel[0], msrm_evntsel(0x79, 0) |
				    modes[i].mode | MSRM_EVNTSEL_INT |
				    MSRM_EVNTSEL_EN,
				    "EVNTSEL0, filter %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m->sel[1], msrm_evntsel(0x13, 0) |
				    modes[i].mode | MSRM_EVNTSEL_INT,
				    "EVNTSEL1, filter %u", i);
		/* counter 1 alone: EVNTSEL0 holds EN, and nothing else */
		pc_model_counter_free(m, a);
		KUNIT_EXPECT_EQ(test, m->sel[0], MSRM_EVNTSEL_EN);
		pc_model_counter_free(m, b);
		KUNIT_EXPECT_EQ(test, m->sel[0], 0);
		KUNIT_EXPECT_EQ(test, m->sel[1], 0);
	}

	hw = pc_hw_model_raw(raw);
	a = pc_model_counter(test, m, &hw);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, m->sel[a->hw.place.idx], raw | MSRM_EVNTSEL_USR |
			MSRM_EVNTSEL_OS | MSRM_EVNTSEL_INT |
			(a->hw.place.idx ? 0 : MSRM_EVNTSEL_EN));
	pc_model_counter_free(m, a);

	for (i = 0; i < ARRAY_SIZE(owned); i++) {
		hw = pc_hw_model_raw(raw | owned[i]);
		KUNIT_EXPECT_EQ_MSG(test, pmu->decode(pmu, &hw, NULL, &hwc),
				    -EINVAL, "raw %#llx", raw | owned[i]);
	}
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

/*
 * Each generic event counts what it names on the model, whose events
 * are the SDM's P6 events: cycles, retired instructions, L2 requests and
 * their misses, retired branches and mispredictions, bus clocks with
 * data ready. Two at a time, on the two counters.
 */
static void p6_generic_events_count_what_they_name(struct kunit *test)
{
	static const u8 kind[PERF_HW_EVENTS_MAX] = {
		[PERF_COUNT_CPU_CYCLES]		= PC_KIND_CYCLES,
		[PERF_COUNT_INSTRUCTIONS]	= PC_KIND_INSTRUCTIONS,
		[PERF_COUNT_CACHE_REFERENCES]	= PC_KIND_L2_REQUESTS,
		[PERF_COUNT_CACHE_MISSES]	= PC_KIND_L2_MISSES,
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = PC_KIND_BRANCHES,
		[PERF_COUNT_BRANCH_MISSES]	= PC_KIND_BRANCH_MISSES,
		[PERF_COUNT_BUS_CYCLES]		= PC_KIND_BUS_CYCLES,
	};
	struct pc_msr_model *m = pc_msr_model_new(test, &pc_p6_pmu);
	struct pc_model_work w;
	unsigned int id, k;

	for (k = 0; k < PC_KINDS; k++)
		w.n[k] = 1000 + 37 * k;		/* every kind its own count */
	for (id = 0; id < PERF_HW_EVENTS_MAX; id += 2) {
		struct perf_counter_hw_event hw = pc_hw_model_generic(id);
		struct perf_counter *a, *b = NULL;

		a = pc_model_counter(test, m, &hw);
		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
		if (id + 1 < PERF_HW_EVENTS_MAX) {
			hw = pc_hw_model_generic(id + 1);
			b = pc_model_counter(test, m, &hw);
			KUNIT_ASSERT_NOT_NULL(test, b);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
		}
		pc_msr_model_work(m, &w, false);
		pc_hw_fold(&m->cpuc, a);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&a->count), w.n[kind[id]],
				    "generic %u", id);
		if (b) {
			pc_hw_fold(&m->cpuc, b);
			KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&b->count),
					    w.n[kind[id + 1]], "generic %u", id + 1);
			pc_model_counter_free(m, b);
		}
		pc_model_counter_free(m, a);
	}
	/* A code the part does not have counts nothing: 0x76 is AMD's. */
	m->ctr[0] = 0;
	m->sel[0] = MSRM_EVNTSEL_EN | MSRM_EVNTSEL_OS | 0x76;
	pc_msr_model_work(m, &w, false);
	KUNIT_EXPECT_EQ(test, m->ctr[0], 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

static struct kunit_case pc_p6_cases[] = {
	KUNIT_CASE(p6_wraps_of_the_40_bit_counter_sum_exactly),
	KUNIT_CASE(p6_handler_loses_only_what_its_load_overwrites),
	KUNIT_CASE(p6_period_of_2_31_plus_5_samples_at_its_last_event),
	KUNIT_CASE(p6_sample_carries_its_call_chain),
	KUNIT_CASE(p6_period_1_nmi_storm_ends_at_the_sample_budget),
	KUNIT_CASE(p6_storm_of_excluded_samples_ends_at_the_sample_budget),
	KUNIT_CASE(p6_overflow_between_read_and_update_loses_nothing),
	KUNIT_CASE(p6_counter_given_up_holds_no_count),
	KUNIT_CASE(p6_evntsel0_enable_bit_gates_counter_1_alone),
	KUNIT_CASE(p6_constraints_move_counters_or_refuse),
	KUNIT_CASE(p6_exclude_user_and_kernel_clear_usr_and_os),
	KUNIT_CASE(p6_exclude_hv_and_idle_program_the_same_evntsel),
	KUNIT_CASE(p6_idle_pause_keeps_the_register_and_counts_nothing),
	KUNIT_CASE(p6_counter_1_put_on_while_counter_0_is_paused_counts),
	KUNIT_CASE(p6_counter_paused_for_idle_stays_stopped_when_moved),
	KUNIT_CASE(p6_group_records_carry_the_members_register_now),
	KUNIT_CASE(p6_drives_the_models_the_manuals_list),
	KUNIT_CASE(p6_register_check_reads_evntsel0s_enable_bit),
	KUNIT_CASE(p6_event_map_and_raw_reserved_bits),
	KUNIT_CASE(p6_driver_sets_exactly_the_evntsel_bits_the_sdm_names),
	KUNIT_CASE(p6_generic_events_count_what_they_name),
	{}
};

static struct kunit_suite pc_p6_suite = {
	.name = "perf_counter_x86_p6_model",
	.test_cases = pc_p6_cases,
};
kunit_test_suite(pc_p6_suite);
