// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit PowerPC driver against a model of the 604, 604e, 750, 7400
 * and 7450 performance monitors: selectors in the right MMCR fields on
 * every PMC, the freeze, exception and condition bits, preloads, the
 * 64-bit sum across wraps at bit 31, periods of 1 (every second event) and 0x7fffffff, the
 * call chain of a sample the exception takes, no exception storms, placement under each model's event constraints,
 * the event maps, raw and threshold validation, the reservation, and
 * no count left in a PMC user mode may read, and the polled driver of
 * the parts whose errata forbid the exception;
 * and against silicon's harder edges: each selector counting only what
 * its PMC's table says, PMCs counting on in the handler, exceptions
 * taken late or for two PMCs, and the level-sensitive exception.
 */
#include <linux/bitfield.h>
#include <linux/irqflags.h>
#include <asm/pmc.h>

#include "spr_model.h"

static const struct pc_ppc_pmu *const models[] = {
	&pc_ppc604_pmu, &pc_ppc604e_pmu, &pc_ppc750_pmu,
	&pc_ppc7400_pmu, &pc_ppc7450_pmu,
};

/* Selector field widths per PMC, from the manuals. */
static const unsigned int sel_bits[PC_PPC_MAX_PMCS] = { 7, 6, 5, 5, 5, 6 };

static struct perf_counter_hw_event raw(u32 sel, u32 pmc)
{
	return pc_hw_model_raw(sel | pmc << 8);
}

static struct perf_counter *counter(struct kunit *test, struct pc_spr_model *m,
				    struct perf_counter_hw_event hw)
{
	return pc_hw_model_counter(test, &m->p->pmu, &hw, NULL);
}

static void ppc_selectors_land_in_their_mmcr_field_on_every_pmc(struct kunit *test)
{
	unsigned int i, pmc, other;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		unsigned int nr = models[i]->pmu.nr_counters;

		for (pmc = 1; pmc <= nr; pmc++) {
			struct pc_spr_model *m = pc_spr_model_new(test, models[i]);
			u32 sel = BIT(sel_bits[pmc - 1]) - 1;
			u32 ce = pmc == 1 ? SPRM_MMCR0_PMC1CE : SPRM_MMCR0_PMCJCE;
			struct perf_counter *c = counter(test, m, raw(sel, pmc));

			KUNIT_ASSERT_NOT_NULL(test, c);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
			KUNIT_EXPECT_EQ(test, c->hw.place.idx, pmc - 1);
			for (other = 0; other < nr; other++)
				KUNIT_EXPECT_EQ_MSG(test, pc_spr_model_sel(m, other),
						    other == pmc - 1 ? sel : 0,
						    "%s PMC%u on, PMC%u's field",
						    models[i]->pmu.name, pmc,
						    other + 1);
			KUNIT_EXPECT_EQ(test, m->mmcr0 &
					(SPRM_MMCR0_FC | SPRM_MMCR0_FCS |
					 SPRM_MMCR0_FCP), 0);
			KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
			KUNIT_EXPECT_EQ(test, m->mmcr0 &
					(SPRM_MMCR0_PMC1CE | SPRM_MMCR0_PMCJCE), ce);
			/* counting: 0x7fffffff events to the interrupt */
			KUNIT_EXPECT_EQ(test, m->pmc[pmc - 1], 1);
			/* one bit more than the field holds */
			KUNIT_EXPECT_NULL(test, counter(test, m,
							raw(sel + 1, pmc)));

			pc_hw_model_free(&m->cpuc, c);
			KUNIT_EXPECT_EQ(test, m->mmcr0, SPRM_MMCR0_FC);
			KUNIT_EXPECT_EQ(test, m->mmcr1, 0);
			KUNIT_EXPECT_EQ(test, m->faults, 0);
		}
		if (nr < PC_PPC_MAX_PMCS) {
			struct pc_spr_model *m = pc_spr_model_new(test, models[i]);

			KUNIT_EXPECT_NULL(test, counter(test, m, raw(1, nr + 1)));
		}
	}
}

static void ppc_condition_enables_follow_the_pmcs_on(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	struct perf_counter *a = counter(test, m, raw(1, 1));
	struct perf_counter *b = counter(test, m, raw(1, 5));
	struct perf_counter *c = counter(test, m, raw(1, 6));

	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (SPRM_MMCR0_PMC1CE | SPRM_MMCR0_PMCJCE),
			SPRM_MMCR0_PMC1CE | SPRM_MMCR0_PMCJCE);
	pc_hw_cpu_del(&m->cpuc, b);
	/* PMC6 still needs PMCjCE */
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMCJCE);
	KUNIT_EXPECT_EQ(test, pc_spr_model_sel(m, 4), 0);
	pc_hw_cpu_del(&m->cpuc, c);
	KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_PMCJCE);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMC1CE);
	KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_FC);
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, m->mmcr0, SPRM_MMCR0_FC);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, b);
	pc_hw_model_free(&m->cpuc, c);
}

static void ppc_freeze_bits_follow_the_excludes_and_must_agree(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc750_pmu);
	struct perf_counter_hw_event user = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event kern = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *a, *b, *c;

	user.exclude_kernel = 1;
	kern.exclude_user = 1;
	a = counter(test, m, user);
	b = counter(test, m, kern);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (SPRM_MMCR0_FCS | SPRM_MMCR0_FCP),
			SPRM_MMCR0_FCS);
	pc_spr_model_run(m, 100, true);
	pc_spr_model_run(m, 50, false);
	pc_hw_fold(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 100);
	/* MMCR0 has one pair of freeze bits: a kernel-only counter waits */
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), -ENOSPC);
	user.event_config = PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE,
						PERF_COUNT_INSTRUCTIONS);
	c = counter(test, m, user);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_hw_cpu_del(&m->cpuc, a);
	pc_hw_cpu_del(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & (SPRM_MMCR0_FCS | SPRM_MMCR0_FCP),
			SPRM_MMCR0_FCP);
	pc_spr_model_run(m, 7, true);
	pc_spr_model_run(m, 30, false);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 30);
	/* frozen in both states counts nothing: refused */
	kern.exclude_kernel = 1;
	KUNIT_EXPECT_NULL(test, counter(test, m, kern));
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, b);
	pc_hw_model_free(&m->cpuc, c);
}

static void ppc_wraps_at_bit_31_sum_exactly_to_64_bits(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	struct perf_counter *c = counter(test, m,
					 pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	const u32 chunk = 0x6543210f;
	unsigned int wraps = 0;
	u64 total = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	while (total < (20ULL << 32)) {
		pc_spr_model_run(m, chunk, false);
		total += chunk;
		if (m->pending)
			wraps += pc_spr_model_service(m);
		/* the handler loads it again: never a second signal */
		KUNIT_ASSERT_FALSE(test, m->pending);
	}
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), total);
	/* one exception per 2^31 events at least, as the model runs them */
	KUNIT_EXPECT_GE(test, wraps, total >> 32);
	KUNIT_EXPECT_EQ(test, wraps, m->signals);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, c);
}

/*
 * No register is loaded within two events of its exception, so period 1
 * samples every second event and reports the period between lost.
 */
static void ppc_period_of_1_samples_every_second_event_and_counts_the_rest(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc604_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *c;
	u64 value = 0;
	int i;

	hw.irq_period = 1;
	hw.record_type = PERF_RECORD_VALUE;
	c = counter(test, m, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->pmc[c->hw.place.idx], 0x7ffffffe);
	for (i = 1; i <= 5; i++) {
		pc_spr_model_run(m, 1, true);
		KUNIT_EXPECT_FALSE(test, m->pending);
		pc_spr_model_run(m, 1, true);
		KUNIT_ASSERT_TRUE(test, m->pending);
		KUNIT_EXPECT_EQ(test, pc_spr_model_service(m), 1);
		KUNIT_EXPECT_FALSE(test, m->pending);
		KUNIT_EXPECT_EQ(test, m->pmc[c->hw.place.idx], 0x7ffffffe);
		KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
	}
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 5);
	KUNIT_EXPECT_EQ(test, value, 10);
	KUNIT_EXPECT_EQ(test, pc_hw_model_lost(c), 5);
	KUNIT_EXPECT_EQ(test, m->signals, 5);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, c);
}

static void ppc_period_of_0x7fffffff_samples_at_its_last_event(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7400_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c;
	u64 value = 0;

	hw.irq_period = 0x7fffffff;
	hw.record_type = PERF_RECORD_VALUE;
	c = counter(test, m, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->pmc[c->hw.place.idx], 1);
	pc_spr_model_run(m, 0x7ffffffe, false);
	KUNIT_EXPECT_FALSE(test, m->pending);
	pc_spr_model_run(m, 1, false);
	KUNIT_ASSERT_TRUE(test, m->pending);
	KUNIT_EXPECT_EQ(test, pc_spr_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 0x7fffffff);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, c);
}

/*
 * Take one sample of @c's, the exception finding @regs interrupted:
 * its record's first @n words after the header in @w.
 */
static void ppc_sample_from(struct kunit *test, struct pc_spr_model *m,
			    struct perf_counter *c, struct pt_regs *regs,
			    u64 *w, unsigned int n)
{
	u64 before = pc_hw_model_last_sample(c, w, n);

	m->irq_regs = regs;
	pc_spr_model_run(m, 1000, !!user_mode(regs));
	KUNIT_EXPECT_EQ(test, pc_spr_model_service(m), 1);
	m->irq_regs = NULL;
	KUNIT_ASSERT_EQ(test, pc_hw_model_last_sample(c, w, n), before + 1);
}

/*
 * Interrupted in this function's frame: its address, then LR (a leaf's
 * return address, in no stack slot yet: the unwinder's second address
 * is a stale word of the frame's), then the callers up the back chain.
 */
static noinline void ppc_sample_here(struct kunit *test,
				     struct pc_spr_model *m,
				     struct perf_counter *c, u64 *w,
				     unsigned int n, struct pt_regs *kregs)
{
	*kregs = (struct pt_regs) {
		.nip	= _THIS_IP_,
		.link	= _RET_IP_,
		.msr	= MSR_KERNEL,
	};
	kregs->gpr[1] = current_stack_frame();
	ppc_sample_from(test, m, c, kregs, w, n);
}

/*
 * A sample's call chain from the performance monitor exception: from
 * kernel state, the interrupted address, LR in place of the stale word
 * the unwinder reads for the interrupted function's caller, that address
 * once only, and the callers; from user state, the interrupted address,
 * then a walk that ends broken at a frame this kernel thread cannot
 * read; no user part for a counter of the kernel alone, no kernel part
 * for one that excludes it.
 */
static void ppc_exception_sample_carries_its_call_chain(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct pt_regs user = {
		.nip = 0x10001234, .link = 0x10000100, .msr = MSR_USER,
	};
	union {
		u64				word;
		struct perf_counter_callchain	head;
	} u;
	struct pt_regs kregs;
	struct perf_counter *c;
	u64 w[8];

	user.gpr[1] = 0x7ff00000;
	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_IRQ | PERF_RECORD_CALLCHAIN;
	hw.exclude_user = 1;
	c = counter(test, m, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);

	ppc_sample_here(test, m, c, w, ARRAY_SIZE(w), &kregs);
	u.word = w[1];
	KUNIT_EXPECT_EQ(test, w[0], kregs.nip);
	KUNIT_ASSERT_GE(test, u.head.nr, 4);
	KUNIT_EXPECT_EQ(test, u.head.flags, PERF_COUNTER_CHAIN_COMPLETE);
	KUNIT_EXPECT_EQ(test, w[2], (u64)PERF_CONTEXT_KERNEL);
	KUNIT_EXPECT_EQ(test, w[3], kregs.nip);
	KUNIT_EXPECT_EQ(test, w[4], kregs.link);	/* this case's call */
	KUNIT_EXPECT_NE(test, w[5], kregs.link);	/* once only */
	KUNIT_EXPECT_TRUE(test, __kernel_text_address(w[5]));
	pc_hw_model_free(&m->cpuc, c);

	hw.exclude_user = 0;
	hw.exclude_kernel = 1;
	c = counter(test, m, hw);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	ppc_sample_from(test, m, c, &user, w, 4);
	u.word = w[1];
	KUNIT_EXPECT_EQ(test, w[0], 0x10001234);
	KUNIT_EXPECT_EQ(test, u.head.nr, 2);
	KUNIT_EXPECT_EQ(test, u.head.flags, PERF_COUNTER_CHAIN_BROKEN);
	KUNIT_EXPECT_EQ(test, w[2], (u64)PERF_CONTEXT_USER);
	KUNIT_EXPECT_EQ(test, w[3], 0x10001234);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, c);
}

static void ppc_stale_negative_pmc_is_cleared_not_a_storm(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc750_pmu);
	struct perf_counter *a = counter(test, m, raw(1, 1));
	struct perf_counter *b = counter(test, m, raw(1, 2));
	struct perf_counter *c = counter(test, m, raw(1, 3));

	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	/* Both wrap; PMC2's counter goes off before the exception is taken. */
	pc_spr_model_run(m, 0x7fffffff, false);
	KUNIT_ASSERT_TRUE(test, m->pending);
	pc_hw_cpu_del(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 0x7fffffff);
	/* PMC3 keeps PMCjCE on, so a negative PMC2 would signal for ever */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.idx, 2);
	KUNIT_EXPECT_EQ(test, pc_spr_model_service(m), 1);
	/* PMC2 was zeroed, PMC1 loaded again: PMXE on and nothing signals */
	KUNIT_EXPECT_EQ(test, m->pmc[1], 0);
	KUNIT_EXPECT_EQ(test, m->pmc[0], 1);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMCJCE);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
	KUNIT_EXPECT_FALSE(test, m->pending);
	KUNIT_EXPECT_EQ(test, m->signals, 1);
	pc_hw_fold(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 0x7fffffff);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, b);
	pc_hw_model_free(&m->cpuc, c);
}

/*
 * User mode reads the 750's and 74xx's PMCs (UPMC1-6): a PMC a counter
 * gives up, at its switch-out or close, holds neither its count nor its
 * sampling preload for the next task to read. On every model and PMC.
 */
static void ppc_pmc_given_up_holds_no_count_on_every_model(struct kunit *test)
{
	unsigned int i, pmc;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		unsigned int nr = models[i]->pmu.nr_counters;

		for (pmc = 1; pmc <= nr; pmc++) {
			struct pc_spr_model *m = pc_spr_model_new(test, models[i]);
			struct perf_counter_hw_event hw = raw(1, pmc);
			struct perf_counter *c;

			hw.irq_period = 1000;
			hw.record_type = PERF_RECORD_IRQ;
			c = counter(test, m, hw);
			KUNIT_ASSERT_NOT_NULL(test, c);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
			KUNIT_EXPECT_EQ(test, m->pmc[pmc - 1],
					0x80000000u - 1000);
			pc_spr_model_run(m, 123, true);
			pc_hw_cpu_del(&m->cpuc, c);
			KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 123);
			KUNIT_EXPECT_EQ_MSG(test, m->pmc[pmc - 1], 0,
					    "%s PMC%u after its counter went off",
					    models[i]->pmu.name, pmc);
			KUNIT_EXPECT_EQ(test, m->faults, 0);
			pc_hw_model_free(&m->cpuc, c);
		}
	}
}

/*
 * Which parts may not take the performance monitor exception, per PVR,
 * as the errata cited in errata.c name them.
 */
static void ppc_pmi_erratum_per_pvr(struct kunit *test)
{
	static const struct {
		u32	pvr;
		bool	erratum;
	} parts[] = {
		{ 0x00040103, false },	/* 604 */
		{ 0x00090204, false },	/* 604e */
		{ 0x00080202, true },	/* 740/750 */
		{ 0x00083203, true },	/* 755 */
		{ 0x00082214, true },	/* 750CXe */
		{ 0x70000203, false },	/* 750FX */
		{ 0x70020101, false },	/* 750GX */
		{ 0x000c0209, true },	/* 7400 */
		{ 0x800c1100, true },	/* 7410 rev 1.0 */
		{ 0x800c1102, true },	/* 7410 rev 1.2 */
		{ 0x800c1103, false },	/* 7410, fixed */
		{ 0x800c1104, false },
		{ 0x80000201, false },	/* 7450 */
		{ 0x80010302, false },	/* 7455 */
		{ 0x80040202, false },	/* 7448 */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		KUNIT_EXPECT_EQ_MSG(test, !!pc_ppc_pmi_erratum(parts[i].pvr),
				    parts[i].erratum, "PVR %08x",
				    parts[i].pvr);
}

/*
 * The polled driver of such a part: a sampling counter on any PMC never
 * enables the exception, so a PMC past bit 0 raises nothing; the poll
 * takes its sample and loads it again, and a counting counter's PMC is
 * loaded far from bit 0 at each poll. On the 750 and the 7400.
 */
static void ppc_polled_part_never_enables_the_exception_and_samples_at_the_poll(struct kunit *test)
{
	static const struct pc_ppc_pmu *const polled_parts[] = {
		&pc_ppc750_pmu, &pc_ppc7400_pmu,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(polled_parts); i++) {
		struct pc_spr_model *m = pc_spr_model_new(test, polled_parts[i]);
		struct perf_counter_hw_event hw = raw(1, 2), cyc = raw(1, 1);
		struct perf_counter *s, *c;
		struct pc_ppc_pmu *p;
		unsigned long flags;
		u64 value = 0;

		p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		pc_ppc_polled(polled_parts[i], p);
		KUNIT_EXPECT_TRUE(test, p->no_pmi);
		KUNIT_EXPECT_GT(test, p->pmu.poll_ns, 0);
		m->cpuc.pmu = &p->pmu;
		hw.irq_period = 1000;
		hw.record_type = PERF_RECORD_VALUE;
		s = pc_hw_model_counter(test, &p->pmu, &hw, NULL);
		c = pc_hw_model_counter(test, &p->pmu, &cyc, NULL);
		KUNIT_ASSERT_TRUE(test, s && c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, s), 0);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
		KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
		KUNIT_EXPECT_EQ(test, m->mmcr0 & (SPRM_MMCR0_PMC1CE |
						  SPRM_MMCR0_PMCJCE),
				SPRM_MMCR0_PMC1CE | SPRM_MMCR0_PMCJCE);
		pc_spr_model_run(m, 1500, true);
		/* PMC2 is past bit 0, and nothing is signalled */
		KUNIT_EXPECT_TRUE(test, m->pmc[1] & SPRM_PMC_OVERFLOW);
		KUNIT_EXPECT_FALSE(test, m->pending);
		/* irqs off, as the poll timer runs it */
		local_irq_save(flags);
		p->pmu.poll(&m->cpuc, NULL);
		local_irq_restore(flags);
		KUNIT_EXPECT_EQ(test, pc_hw_model_records(s, &value), 1);
		KUNIT_EXPECT_EQ(test, value, 1500);
		/* the rest of the second period still to count */
		KUNIT_EXPECT_EQ(test, m->pmc[1], 0x80000000u - 500);
		KUNIT_EXPECT_EQ(test, m->pmc[0], 1);
		KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
		KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_FC);
		KUNIT_EXPECT_EQ(test, m->signals, 0);
		pc_hw_fold(&m->cpuc, c);
		KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 1500);
		KUNIT_EXPECT_EQ(test, m->faults, 0);
		pc_hw_model_free(&m->cpuc, s);
		pc_hw_model_free(&m->cpuc, c);
	}
}

/* Add @ids in order on a fresh @p; how many went on, then -ENOSPC. */
static int place_all(struct kunit *test, const struct pc_ppc_pmu *p,
		     const unsigned int *ids, int n)
{
	struct pc_spr_model *m = pc_spr_model_new(test, p);
	struct perf_counter *c[PC_PPC_MAX_PMCS + 1];
	int i, on = 0;

	for (i = 0; i < n; i++) {
		c[i] = counter(test, m, pc_hw_model_generic(ids[i]));
		KUNIT_ASSERT_NOT_NULL(test, c[i]);
		if (pc_hw_cpu_add(&m->cpuc, c[i]) == 0)
			on++;
	}
	/* every counter on sits on a PMC that counts its event */
	for (i = 0; i < n; i++) {
		if (!c[i]->hw.on)
			continue;
		KUNIT_EXPECT_TRUE(test, p->events[ids[i]].pmcs &
				  BIT(c[i]->hw.place.idx));
		KUNIT_EXPECT_EQ(test, pc_spr_model_sel(m, c[i]->hw.place.idx),
				p->events[ids[i]].sel);
	}
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	for (i = 0; i < n; i++)
		pc_hw_model_free(&m->cpuc, c[i]);
	kunit_kfree(test, m);
	return on;
}

static void ppc_placement_finds_an_assignment_whenever_one_exists(struct kunit *test)
{
	/* cycles first take PMC1/PMC2 and are moved to make room */
	static const unsigned int full_7450[] = {
		PERF_COUNT_CPU_CYCLES, PERF_COUNT_CPU_CYCLES,
		PERF_COUNT_CACHE_MISSES, PERF_COUNT_CACHE_MISSES,
		PERF_COUNT_BRANCH_INSTRUCTIONS, PERF_COUNT_BRANCH_MISSES,
		PERF_COUNT_INSTRUCTIONS,
	};
	static const unsigned int pmc4_twice_7400[] = {
		PERF_COUNT_BRANCH_MISSES, PERF_COUNT_BRANCH_MISSES,
	};
	static const unsigned int pmc2_twice_604[] = {
		PERF_COUNT_CPU_CYCLES, PERF_COUNT_CACHE_MISSES,
		PERF_COUNT_BRANCH_INSTRUCTIONS,
	};
	static const unsigned int moved_604[] = {
		PERF_COUNT_CPU_CYCLES, PERF_COUNT_BRANCH_MISSES,
	};
	static const unsigned int full_750[] = {
		PERF_COUNT_INSTRUCTIONS, PERF_COUNT_CPU_CYCLES,
		PERF_COUNT_BRANCH_MISSES, PERF_COUNT_CACHE_MISSES,
	};

	/* six fit; instructions has no seventh PMC among PMC1-4 */
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc7450_pmu, full_7450, 7), 6);
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc7400_pmu, pmc4_twice_7400, 2), 1);
	/* the 604's PMC2 counts cache misses and branches, one at a time */
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc604_pmu, pmc2_twice_604, 3), 2);
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc604_pmu, moved_604, 2), 2);
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc604e_pmu, full_750, 4), 4);
	KUNIT_EXPECT_EQ(test, place_all(test, &pc_ppc750_pmu, full_750, 4), 4);
}

/* Is there a PMC for each of @n events, none shared? By brute force. */
static bool fits(const struct pc_ppc_pmu *p, const unsigned int *ids, int n,
		 unsigned int taken)
{
	unsigned int pmc;

	if (!n)
		return true;
	for (pmc = 0; pmc < p->pmu.nr_counters; pmc++)
		if ((p->events[ids[0]].pmcs & BIT(pmc)) && !(taken & BIT(pmc)) &&
		    fits(p, ids + 1, n - 1, taken | BIT(pmc)))
			return true;
	return false;
}

/*
 * Every multiset of up to six of a model's generic events, added one by
 * one (the driver moves counters already on to make room): all of them
 * go on exactly when a brute-force search finds PMCs for them all.
 */
static void ppc_placement_matches_a_brute_force_search(struct kunit *test)
{
	unsigned int i, id, ids[PC_PPC_MAX_PMCS], have[PERF_HW_EVENTS_MAX];
	unsigned int checked = 0, refused = 0;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		const struct pc_ppc_pmu *p = models[i];
		unsigned int nr_have = 0, len, pos[PC_PPC_MAX_PMCS] = { 0 };

		for (id = 0; id < PERF_HW_EVENTS_MAX; id++)
			if (p->events[id].sel)
				have[nr_have++] = id;
		/* non-decreasing index tuples: each multiset once */
		for (len = 1; len <= PC_PPC_MAX_PMCS; len++) {
			memset(pos, 0, sizeof(pos));
			for (;;) {
				int k, on;
				bool want;

				for (k = 0; k < len; k++)
					ids[k] = have[pos[k]];
				want = fits(p, ids, len, 0);
				on = place_all(test, p, ids, len);
				KUNIT_EXPECT_EQ_MSG(test, on == len, want,
						    "%s: %u events", p->pmu.name,
						    len);
				checked++;
				refused += !want;
				for (k = len - 1; k >= 0 && pos[k] == nr_have - 1; k--)
					;
				if (k < 0)
					break;
				pos[k]++;
				while (++k < len)
					pos[k] = pos[k - 1];
			}
		}
	}
	kunit_info(test, "%u event sets, %u with no placement\n", checked,
		   refused);
	KUNIT_EXPECT_GT(test, refused, 0);
}

static void ppc_event_maps_and_raw_selectors_per_model(struct kunit *test)
{
	/* { selector, PMCs } per generic id; 0 where the model has none */
	static const struct pc_ppc_event want[][PERF_HW_EVENTS_MAX] = {
		{ { 1, 0x3 }, { 2, 0x3 }, { 0 }, { 6, 0x2 }, { 8, 0x2 }, { 7, 0x1 } },
		{ { 1, 0xf }, { 2, 0xf }, { 0 }, { 6, 0x2 }, { 8, 0x2 }, { 7, 0x1 } },
		{ { 1, 0xf }, { 2, 0xf }, { 0 }, { 5, 0x4 }, { 0 }, { 8, 0x8 } },
		{ { 1, 0xf }, { 2, 0xf }, { 0 }, { 15, 0x2 }, { 0 }, { 5, 0x8 } },
		{ { 1, 0x3f }, { 2, 0xf }, { 0 }, { 0x17, 0x6 }, { 0x22, 0x1 },
		  { 0x1c, 0x8 } },
	};
	const struct pc_pmu *p7450 = &pc_ppc7450_pmu.pmu;
	struct perf_counter_hw_event hw;
	struct pc_hw_counter hwc;
	unsigned int i, id;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		const struct pc_pmu *pmu = &models[i]->pmu;

		for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
			hw = pc_hw_model_generic(id);
			if (!want[i][id].sel) {
				KUNIT_EXPECT_EQ_MSG(test, pmu->decode(pmu, &hw, NULL, &hwc),
						    -EINVAL, "%s id %u", pmu->name, id);
				continue;
			}
			KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
			KUNIT_EXPECT_EQ(test, hwc.config & PC_PPC_CFG_SEL,
					want[i][id].sel);
			KUNIT_EXPECT_EQ(test, (hwc.config & PC_PPC_CFG_PMCS) >>
					PC_PPC_CFG_PMCS_SHIFT, want[i][id].pmcs);
		}
		/* selector 0 holds the counter; reserved bits; a PMC's own event */
		hw = raw(0, 1);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = pc_hw_model_raw(1 | BIT_ULL(7));
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = pc_hw_model_raw(1 | BIT_ULL(11));
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = pc_hw_model_raw(1 | BIT_ULL(40));
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = raw(4, 0);		/* dispatched: alike on every PMC */
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
		hw = raw(0x30, 0);	/* PMC-specific: needs its PMC */
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
		hw = raw(0x30, 1);
		KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
		KUNIT_EXPECT_EQ(test, hwc.config >> PC_PPC_CFG_PMCS_SHIFT & 0x3f, 1);
	}
	/* 745x classes: 8-13 on PMC1, 2 and 4; 14-22 on PMC1 and 2 */
	hw = raw(9, 0);
	KUNIT_ASSERT_EQ(test, p7450->decode(p7450, &hw, NULL, &hwc), 0);
	KUNIT_EXPECT_EQ(test, hwc.config >> PC_PPC_CFG_PMCS_SHIFT & 0x3f, 0xb);
	hw = raw(20, 0);
	KUNIT_ASSERT_EQ(test, p7450->decode(p7450, &hw, NULL, &hwc), 0);
	KUNIT_EXPECT_EQ(test, hwc.config >> PC_PPC_CFG_PMCS_SHIFT & 0x3f, 0x3);
	hw = raw(23, 0);
	KUNIT_EXPECT_EQ(test, p7450->decode(p7450, &hw, NULL, &hwc), -EINVAL);
}

/* A raw counter with threshold words. */
struct thresh_event {
	struct perf_counter_hw_event	hw;
	u64				word[2];
};

static struct perf_counter *thresh_counter(struct kunit *test,
					   struct pc_spr_model *m,
					   struct thresh_event *ev,
					   unsigned int words, bool exclusive)
{
	ev->hw = raw(0x1e, 1);
	ev->hw.exclusive = exclusive;
	ev->hw.extra_config_len = words * sizeof(u64);
	return pc_hw_model_counter(test, &m->p->pmu, &ev->hw, ev->word);
}

static void ppc_threshold_words_only_for_exclusive_raw_counters(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	struct pc_spr_model *g3 = pc_spr_model_new(test, &pc_ppc750_pmu);
	struct thresh_event ev = { .word = { 0x00150000, SPRM_MMCR2_THRESHMULT } };
	struct perf_counter *c, *other;

	KUNIT_EXPECT_NULL(test, thresh_counter(test, m, &ev, 2, false));
	c = thresh_counter(test, m, &ev, 2, true);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->mmcr0 & SPRM_MMCR0_THRESHOLD, 0x00150000);
	KUNIT_EXPECT_EQ(test, m->mmcr2, SPRM_MMCR2_THRESHMULT);
	/* a counter asking for another threshold is never on with it */
	ev.word[0] = 0x00030000;
	other = thresh_counter(test, m, &ev, 1, true);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, other), -ENOSPC);
	pc_hw_model_free(&m->cpuc, other);
	pc_hw_model_free(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->mmcr0, SPRM_MMCR0_FC);
	KUNIT_EXPECT_EQ(test, m->mmcr2, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);

	/* MMCR0 bits beyond THRESHOLD are the driver's */
	ev.word[0] = SPRM_MMCR0_PMXE;
	KUNIT_EXPECT_NULL(test, thresh_counter(test, m, &ev, 1, true));
	ev.word[0] = SPRM_MMCR0_TBEE | 0x00010000;
	KUNIT_EXPECT_NULL(test, thresh_counter(test, m, &ev, 1, true));
	/* only THRESHMULT in MMCR2, and the 750 has no MMCR2 */
	ev.word[0] = 0x00010000;
	ev.word[1] = 1;
	KUNIT_EXPECT_NULL(test, thresh_counter(test, m, &ev, 2, true));
	ev.word[1] = SPRM_MMCR2_THRESHMULT;
	KUNIT_EXPECT_NULL(test, thresh_counter(test, g3, &ev, 2, true));
	c = thresh_counter(test, g3, &ev, 1, true);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&g3->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, g3->mmcr0 & SPRM_MMCR0_THRESHOLD, 0x00010000);
	KUNIT_EXPECT_EQ(test, g3->faults, 0);
	pc_hw_model_free(&g3->cpuc, c);
}

static void ppc_pmcs_held_by_another_user_are_ebusy(struct kunit *test)
{
	if (!pc_hw_pmu())
		kunit_skip(test, "no PowerPC PMU driver on this CPU");
	KUNIT_ASSERT_EQ(test, reserve_pmc_hardware(NULL), 0);
	KUNIT_EXPECT_EQ(test, pc_ppc_reserve(), -EBUSY);
	release_pmc_hardware();
	KUNIT_ASSERT_EQ(test, pc_ppc_reserve(), 0);
	KUNIT_EXPECT_EQ(test, reserve_pmc_hardware(NULL), -EBUSY);
	pc_ppc_release();
	KUNIT_EXPECT_EQ(test, reserve_pmc_hardware(NULL), 0);
	release_pmc_hardware();
}

/*
 * The PMCs count on while the handler runs (handler_events at each of
 * its register accesses): whatever a PMC counted must reach the 64-bit
 * count, across many exceptions, on every model. The handler freezes
 * the PMCs from its first write to its last; without that, the events
 * between a PMC's fold and its load would be lost.
 */
static void ppc_pmcs_count_on_in_the_handler_and_the_sums_stay_exact(struct kunit *test)
{
	const u32 chunk = 0x2345678f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		struct pc_spr_model *m = pc_spr_model_new(test, models[i]);
		struct perf_counter *a = counter(test, m,
				pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
		struct perf_counter *b = counter(test, m,
				pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS));
		unsigned int deliveries = 0;
		u64 total = 0;

		KUNIT_ASSERT_TRUE(test, a && b);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
		m->handler_events = 3;
		while (total < (6ULL << 32)) {
			pc_spr_model_count(m, PC_SPR_CYCLES, chunk, false);
			pc_spr_model_count(m, PC_SPR_INSTR_DONE, chunk / 2, true);
			total += chunk;
			deliveries += pc_spr_model_storm(m, 10);
			KUNIT_ASSERT_FALSE(test, m->pending);
		}
		pc_hw_fold(&m->cpuc, a);
		pc_hw_fold(&m->cpuc, b);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&a->count),
				    m->counted[a->hw.place.idx], "%s cycles",
				    models[i]->pmu.name);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&b->count),
				    m->counted[b->hw.place.idx],
				    "%s instructions", models[i]->pmu.name);
		/* the handler's own events were not counted, the rest were */
		KUNIT_EXPECT_GE(test, m->counted[a->hw.place.idx], total);
		KUNIT_EXPECT_GE(test, deliveries, 6);
		KUNIT_EXPECT_EQ(test, deliveries, m->signals);
		KUNIT_EXPECT_EQ(test, m->faults, 0);
		pc_hw_model_free(&m->cpuc, a);
		pc_hw_model_free(&m->cpuc, b);
	}
}

static void ppc_two_overflows_in_one_exception_are_both_handled(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	struct perf_counter *a = counter(test, m,
				pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	struct perf_counter *b = counter(test, m,
				pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS));

	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	/* both PMCs turn negative before the exception is taken */
	pc_spr_model_run(m, 0x7fffffff, false);
	KUNIT_ASSERT_TRUE(test, m->pending);
	KUNIT_EXPECT_EQ(test, pc_spr_model_storm(m, 100), 1);
	KUNIT_EXPECT_EQ(test, m->handled, 2);
	KUNIT_EXPECT_EQ(test, m->pmc[a->hw.place.idx], 1);
	KUNIT_EXPECT_EQ(test, m->pmc[b->hw.place.idx], 1);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
	KUNIT_EXPECT_FALSE(test, m->mmcr0 & SPRM_MMCR0_FC);
	KUNIT_EXPECT_EQ(test, m->signals, 1);
	pc_spr_model_run(m, 5, true);
	pc_hw_fold(&m->cpuc, a);
	pc_hw_fold(&m->cpuc, b);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 0x7fffffffLL + 5);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->count), 0x7fffffffLL + 5);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, b);
}

/*
 * The exception comes late, after rotation took its counter off and put
 * it back on another PMC: the PMC it wrapped on is nobody's and still
 * negative, with PMCjCE on for a third counter.
 */
static void ppc_late_exception_after_its_counter_moved_is_not_a_storm(struct kunit *test)
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc750_pmu);
	struct perf_counter *x = counter(test, m, raw(2, 1));
	struct perf_counter *a = counter(test, m,
				pc_hw_model_generic(PERF_COUNT_CPU_CYCLES));
	struct perf_counter *y = counter(test, m, raw(4, 3));

	KUNIT_ASSERT_TRUE(test, x && a && y);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, x), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, y), 0);
	KUNIT_ASSERT_EQ(test, a->hw.place.idx, 1);
	pc_spr_model_count(m, PC_SPR_CYCLES, 0x7fffffff, false);
	KUNIT_ASSERT_TRUE(test, m->pending);
	pc_hw_cpu_del(&m->cpuc, x);
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, a->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, pc_spr_model_storm(m, 100), 1);
	KUNIT_EXPECT_EQ(test, m->handled, 0);
	KUNIT_EXPECT_EQ(test, m->pmc[1], 0);
	KUNIT_EXPECT_TRUE(test, m->mmcr0 & SPRM_MMCR0_PMXE);
	KUNIT_EXPECT_EQ(test, m->signals, 1);
	pc_spr_model_count(m, PC_SPR_CYCLES, 10, true);
	pc_hw_fold(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->count), 0x7fffffffLL + 10);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, x);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, y);
}

/* A handler that sets PMXE again and leaves stale PMCs as they are. */
static int naive_irq(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	int handled = pc_hw_handle_overflow(cpuc, regs);

	pc_hw_reg_write(cpuc, SPRM_MMCR0,
			pc_hw_reg_read(cpuc, SPRM_MMCR0) | SPRM_MMCR0_PMXE);
	return handled;
}

/*
 * PMC1 and PMC2 wrap, PMC2's counter goes and PMC2 is left negative;
 * PMC3's counter keeps PMCjCE on.
 */
static unsigned int stale_pmc2_storm(struct kunit *test,
				     int (*handler)(struct pc_hw_cpu *cpuc,
						    struct pt_regs *regs))
{
	struct pc_spr_model *m = pc_spr_model_new(test, &pc_ppc7400_pmu);
	struct perf_counter *a = counter(test, m, raw(1, 1));
	struct perf_counter *b = counter(test, m, raw(1, 2));
	struct perf_counter *c = counter(test, m, raw(2, 3));
	unsigned int n;

	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	pc_spr_model_count(m, PC_SPR_CYCLES, 0x7fffffff, false);
	KUNIT_ASSERT_TRUE(test, m->pending);
	pc_hw_cpu_del(&m->cpuc, b);
	/*
	 * pc_hw_off() zeroed PMC2 as its counter went; a negative value
	 * no counter owns may still be there from whoever held the PMCs
	 * before (firmware, a kexec'd kernel, perf_events).
	 */
	KUNIT_EXPECT_EQ(test, m->pmc[1], 0);
	m->pmc[1] = 0x80000001;
	m->handler = handler;
	m->handler_events = 1;
	n = pc_spr_model_storm(m, 1000);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_model_free(&m->cpuc, a);
	pc_hw_model_free(&m->cpuc, b);
	pc_hw_model_free(&m->cpuc, c);
	return n;
}

/*
 * The exception is level-sensitive: a handler that sets PMXE again with
 * a negative PMC whose condition is enabled is interrupted again at
 * once, for ever. Ours zeroes such a PMC first: one delivery.
 */
static void ppc_level_exception_storms_if_a_negative_pmc_is_left_and_ours_leaves_none(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, stale_pmc2_storm(test, naive_irq), 1000);
	KUNIT_EXPECT_EQ(test, stale_pmc2_storm(test, pc_ppc_irq), 1);
}

/* Each kind of event n times, n a power of 4 of its own. */
static u32 ev_amount(unsigned int ev)
{
	return 1U << (2 * ev);
}

static u64 ev_sum(unsigned long kinds)
{
	unsigned int ev;
	u64 sum = 0;

	for_each_set_bit(ev, &kinds, PC_SPR_NR_EVENTS)
		sum += ev_amount(ev);
	return sum;
}

/*
 * Put @hw on each PMC the driver lets it take (the others held by
 * counters pinned there), let every kind of event happen, and see it
 * counted exactly @want.
 */
static void counts_on_every_place(struct kunit *test, const struct pc_ppc_pmu *p,
				  struct perf_counter_hw_event hw,
				  unsigned long want, const char *what)
{
	unsigned int nr = p->pmu.nr_counters, k, j, ev;
	struct pc_hw_counter hwc;
	unsigned long pmcs;

	KUNIT_ASSERT_EQ(test, p->pmu.decode(&p->pmu, &hw, NULL, &hwc), 0);
	pmcs = (hwc.config & PC_PPC_CFG_PMCS) >> PC_PPC_CFG_PMCS_SHIFT;
	for_each_set_bit(k, &pmcs, nr) {
		struct pc_spr_model *m = pc_spr_model_new(test, p);
		struct perf_counter *pin[PC_PPC_MAX_PMCS] = { NULL };
		struct perf_counter *c;

		for_each_set_bit(j, &pmcs, nr) {
			if (j == k)
				continue;
			pin[j] = counter(test, m, raw(1, j + 1));
			KUNIT_ASSERT_NOT_NULL(test, pin[j]);
			KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, pin[j]), 0);
		}
		c = counter(test, m, hw);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
		KUNIT_ASSERT_EQ(test, c->hw.place.idx, k);
		for (ev = 0; ev < PC_SPR_NR_EVENTS; ev++)
			pc_spr_model_count(m, ev, ev_amount(ev), ev & 1);
		pc_hw_fold(&m->cpuc, c);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&c->count), ev_sum(want),
				    "%s: %s on PMC%u (selector %u)", p->pmu.name,
				    what, k + 1, pc_spr_model_sel(m, k));
		KUNIT_EXPECT_EQ(test, m->faults, 0);
		pc_hw_model_free(&m->cpuc, c);
		for (j = 0; j < nr; j++)
			if (pin[j])
				pc_hw_model_free(&m->cpuc, pin[j]);
	}
}

/*
 * The register model counts with a selector only what the part's manual
 * says it counts on that PMC. Every generic event, on every PMC the
 * driver may put it, counts its event and nothing else; so do the raw
 * selectors given without a PMC.
 */
static void ppc_events_count_only_what_their_selector_means_on_every_pmc(struct kunit *test)
{
	static const char *const names[PERF_HW_EVENTS_MAX] = {
		"cycles", "instructions", "cache references", "cache misses",
		"branches", "branch misses", "bus cycles",
	};
	static const unsigned long want[PERF_HW_EVENTS_MAX] = {
		[PERF_COUNT_CPU_CYCLES]		= PC_SPR_EV(CYCLES),
		[PERF_COUNT_INSTRUCTIONS]	= PC_SPR_EV(INSTR_DONE),
		[PERF_COUNT_CACHE_MISSES]	= PC_SPR_L1D_MISSES,
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = PC_SPR_BRANCHES,
		[PERF_COUNT_BRANCH_MISSES]	= PC_SPR_EV(BR_MISPRED),
	};
	struct pc_spr_model *m;
	struct perf_counter *c;
	unsigned int i, id, ev;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		const struct pc_ppc_pmu *p = models[i];

		for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
			unsigned long w = want[id];

			if (!p->events[id].sel)
				continue;
			/* the 7400 counts L1 data misses of loads only */
			if (p == &pc_ppc7400_pmu && id == PERF_COUNT_CACHE_MISSES)
				w = PC_SPR_EV(L1D_LOAD_MISS);
			counts_on_every_place(test, p, pc_hw_model_generic(id),
					      w, names[id]);
		}
		counts_on_every_place(test, p, raw(1, 0), PC_SPR_EV(CYCLES),
				      "raw 1");
		counts_on_every_place(test, p, raw(2, 0),
				      PC_SPR_EV(INSTR_DONE), "raw 2");
		if (p != &pc_ppc7450_pmu)
			counts_on_every_place(test, p, raw(4, 0),
					      PC_SPR_EV(INSTR_DISP), "raw 4");
	}

	/* the model: a 7450 selector of PMC2-3 on PMC1 counts no misses */
	m = pc_spr_model_new(test, &pc_ppc7450_pmu);
	c = counter(test, m, raw(0x17, 1));
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	for (ev = 0; ev < PC_SPR_NR_EVENTS; ev++)
		pc_spr_model_count(m, ev, ev_amount(ev), false);
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 0);
	pc_hw_model_free(&m->cpuc, c);
}

/*
 * No path of the driver — enable, disable, the exception, thresholds —
 * writes an MMCR0 control the model refuses (FCM1/FCM0, FCECE, TBSEL,
 * TBEE, TRIGGER); the model does count one written.
 */
static void ppc_mmcr0_controls_the_model_refuses_stay_clear(struct kunit *test)
{
	struct thresh_event ev = { .word = { 0x00150000, SPRM_MMCR2_THRESHMULT } };
	struct pc_spr_model *self = pc_spr_model_new(test, &pc_ppc7450_pmu);
	unsigned int i;

	/* the model: FCECE written is a fault */
	pc_hw_reg_write(&self->cpuc, SPRM_MMCR0, SPRM_MMCR0_FC | SPRM_MMCR0_FCECE);
	KUNIT_EXPECT_EQ(test, self->faults, 1);

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		struct pc_spr_model *m = pc_spr_model_new(test, models[i]);
		struct perf_counter *a = counter(test, m, raw(1, 1));
		struct perf_counter *b = counter(test, m, raw(2, 2));

		KUNIT_ASSERT_TRUE(test, a && b);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
		pc_spr_model_run(m, 0x7fffffff, true);
		KUNIT_EXPECT_EQ(test, pc_spr_model_storm(m, 10), 1);
		pc_hw_cpu_del(&m->cpuc, b);
		pc_hw_cpu_del(&m->cpuc, a);
		KUNIT_EXPECT_EQ_MSG(test, m->faults, 0, "%s", models[i]->pmu.name);
		pc_hw_model_free(&m->cpuc, a);
		pc_hw_model_free(&m->cpuc, b);
		if (!models[i]->has_mmcr2)
			continue;
		a = thresh_counter(test, m, &ev, 2, true);
		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
		pc_hw_model_free(&m->cpuc, a);
		KUNIT_EXPECT_EQ_MSG(test, m->faults, 0, "%s", models[i]->pmu.name);
	}
}

/*
 * The driver's MMCR bits against the manuals', which the model spells
 * itself (spr_model.h) where the driver takes asm/reg.h's and
 * mmcr_regs.h's. On every part and every PMC, a counter under each
 * privilege filter leaves MMCR0 exactly its selector in PMC1SEL (bits
 * 19-25) or PMC2SEL (26-31), FCP (bit 2) for exclude_user or FCS (1) for
 * exclude_kernel, PMXE (5), and PMC1CE (16) for PMC1 or PMCjCE (17) for
 * PMC2-6: FC (0), FCM1/FCM0 (3, 4), FCECE (6), TBSEL/TBEE (7-9) and
 * TRIGGER (18) clear. MMCR1 holds exactly the selector in PMC3SEL (0-4),
 * PMC4SEL (5-9), PMC5SEL (10-14) or PMC6SEL (15-20); MMCR2 is untouched.
 * An exclusive counter's threshold words land in MMCR0's THRESHOLD
 * (10-15) and MMCR2's THRESHMULT (bit 0) and nowhere else. Off again,
 * MMCR0 is FC alone. The PMCs and MMCR2 the descriptor gives each part
 * are the part's. A driver bit out of the manuals' place (FCS and FCP
 * swapped, PMC1CE one off, a selector field shifted) fails here.
 */
static void ppc_driver_sets_exactly_the_mmcr_bits_the_manuals_name(struct kunit *test)
{
	static const struct {
		bool	exclude_user, exclude_kernel;
		u32	freeze;
	} modes[] = {
		{ false, false, 0 },
		{ true, false, SPRM_MMCR0_FCP },
		{ false, true, SPRM_MMCR0_FCS },
	};
	struct thresh_event ev = { .word = {
		FIELD_PREP(SPRM_MMCR0_THRESHOLD, 0x2a), SPRM_MMCR2_THRESHMULT,
	} };
	const u32 thresh_mmcr0 = FIELD_PREP(SPRM_MMCR0_PMC1SEL, 0x1e) |
				 ev.word[0] | SPRM_MMCR0_PMXE |
				 SPRM_MMCR0_PMC1CE;
	unsigned int i, pmc, f;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		const char *name = models[i]->pmu.name;
		struct pc_spr_model *part = pc_spr_model_new(test, models[i]);
		struct pc_spr_model *m;
		struct perf_counter *c;

		/* the descriptor's PMCs and MMCR2 are the part's */
		KUNIT_EXPECT_EQ_MSG(test, models[i]->pmu.nr_counters,
				    part->nr_pmcs, "%s PMCs", name);
		KUNIT_EXPECT_EQ_MSG(test, models[i]->has_mmcr2,
				    part->has_mmcr2, "%s MMCR2", name);
		for (pmc = 0; pmc < part->nr_pmcs; pmc++) {
			u32 spr, field = sprm_sel_field(pmc, &spr);
			/* alternate bits, as wide as the field */
			u32 sel = 0x55 & (field >> __ffs(field));
			u32 placed = sel << __ffs(field);
			u32 mmcr0 = SPRM_MMCR0_PMXE | (pmc ? SPRM_MMCR0_PMCJCE :
							      SPRM_MMCR0_PMC1CE);

			for (f = 0; f < ARRAY_SIZE(modes); f++) {
				struct perf_counter_hw_event hw = raw(sel, pmc + 1);

				m = pc_spr_model_new(test, models[i]);
				hw.exclude_user = modes[f].exclude_user;
				hw.exclude_kernel = modes[f].exclude_kernel;
				c = counter(test, m, hw);
				KUNIT_ASSERT_NOT_NULL(test, c);
				KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
				KUNIT_EXPECT_EQ_MSG(test, m->mmcr0, mmcr0 |
						    modes[f].freeze |
						    (spr == SPRM_MMCR0 ? placed : 0),
						    "%s PMC%u filter %u: MMCR0",
						    name, pmc + 1, f);
				KUNIT_EXPECT_EQ_MSG(test, m->mmcr1,
						    spr == SPRM_MMCR1 ? placed : 0,
						    "%s PMC%u filter %u: MMCR1",
						    name, pmc + 1, f);
				KUNIT_EXPECT_EQ(test, m->mmcr2, 0);
				pc_hw_model_free(&m->cpuc, c);
				KUNIT_EXPECT_EQ(test, m->mmcr0, SPRM_MMCR0_FC);
				KUNIT_EXPECT_EQ(test, m->mmcr1, 0);
				KUNIT_EXPECT_EQ_MSG(test, m->faults, 0, "%s", name);
			}
		}

		/* the threshold: MMCR2's word only where there is MMCR2 */
		m = part;
		c = thresh_counter(test, m, &ev, m->has_mmcr2 ? 2 : 1, true);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
		KUNIT_EXPECT_EQ_MSG(test, m->mmcr0, thresh_mmcr0,
				    "%s threshold: MMCR0", name);
		KUNIT_EXPECT_EQ_MSG(test, m->mmcr2, m->has_mmcr2 ?
				    SPRM_MMCR2_THRESHMULT : 0,
				    "%s threshold: MMCR2", name);
		pc_hw_model_free(&m->cpuc, c);
		KUNIT_EXPECT_EQ(test, m->mmcr0, SPRM_MMCR0_FC);
		KUNIT_EXPECT_EQ(test, m->mmcr2, 0);
		KUNIT_EXPECT_EQ_MSG(test, m->faults, 0, "%s", name);
	}
}

static struct kunit_case pc_ppc_cases[] = {
	KUNIT_CASE(ppc_selectors_land_in_their_mmcr_field_on_every_pmc),
	KUNIT_CASE(ppc_condition_enables_follow_the_pmcs_on),
	KUNIT_CASE(ppc_freeze_bits_follow_the_excludes_and_must_agree),
	KUNIT_CASE(ppc_wraps_at_bit_31_sum_exactly_to_64_bits),
	KUNIT_CASE(ppc_period_of_1_samples_every_second_event_and_counts_the_rest),
	KUNIT_CASE(ppc_period_of_0x7fffffff_samples_at_its_last_event),
	KUNIT_CASE(ppc_exception_sample_carries_its_call_chain),
	KUNIT_CASE(ppc_stale_negative_pmc_is_cleared_not_a_storm),
	KUNIT_CASE(ppc_pmc_given_up_holds_no_count_on_every_model),
	KUNIT_CASE(ppc_pmi_erratum_per_pvr),
	KUNIT_CASE(ppc_polled_part_never_enables_the_exception_and_samples_at_the_poll),
	KUNIT_CASE(ppc_placement_finds_an_assignment_whenever_one_exists),
	KUNIT_CASE(ppc_placement_matches_a_brute_force_search),
	KUNIT_CASE(ppc_event_maps_and_raw_selectors_per_model),
	KUNIT_CASE(ppc_threshold_words_only_for_exclusive_raw_counters),
	KUNIT_CASE(ppc_pmcs_held_by_another_user_are_ebusy),
	KUNIT_CASE(ppc_pmcs_count_on_in_the_handler_and_the_sums_stay_exact),
	KUNIT_CASE(ppc_two_overflows_in_one_exception_are_both_handled),
	KUNIT_CASE(ppc_late_exception_after_its_counter_moved_is_not_a_storm),
	KUNIT_CASE(ppc_level_exception_storms_if_a_negative_pmc_is_left_and_ours_leaves_none),
	KUNIT_CASE(ppc_events_count_only_what_their_selector_means_on_every_pmc),
	KUNIT_CASE(ppc_mmcr0_controls_the_model_refuses_stay_clear),
	KUNIT_CASE(ppc_driver_sets_exactly_the_mmcr_bits_the_manuals_name),
	{}
};

static struct kunit_suite pc_ppc_suite = {
	.name = "perf_counter_ppc_mmcr_model",
	.test_cases = pc_ppc_cases,
};
kunit_test_suite(pc_ppc_suite);
