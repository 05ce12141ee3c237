// SPDX-License-Identifier: GPL-2.0
/*
 * The P4 driver against the model of a hyper-threaded NetBurst core's
 * registers (p4_model.h): event selection through ESCRs and CCCRs,
 * wraps and their interrupts, the errata, the second thread, the
 * events both threads share, and the state a previous user leaves
 * behind. The registers the tests expect
 * are written out from the SDM's tables by hand.
 */
#include <linux/bitfield.h>
#include <linux/cred.h>
#include <linux/perf_event.h>
#include <asm/apicdef.h>

#include "internal.h"
#include "p4_model.h"
#include "../p4.h"

/* A counter decoded by the P4 driver, with an ESCR word if @escr. */
static struct perf_counter *p4_counter(struct kunit *test,
				       struct perf_counter_hw_event *hw,
				       const u64 *escr)
{
	if (escr)
		hw->extra_config_len = sizeof(u64);
	return pc_hw_model_counter(test, &pc_p4_driver.pmu, hw, escr);
}

static void p4_free(struct p4_model *m, struct perf_counter *counter)
{
	pc_hw_cpu_del(&m->t[0].cpuc, counter);
	pc_counter_put(counter);
}

#define FSB_ESCR0	0x3a2
#define FSB_ESCR1	0x3a3
#define CRU_ESCR0	0x3b8
#define CRU_ESCR1	0x3b9

static void p4_cycles_take_an_fsb_escr_and_cccr_select_6(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = p4_counter(test, &hw, NULL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	/* global_power_events (0x13), RUNNING, both privilege levels */
	KUNIT_EXPECT_EQ(test, c->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, m->escr[FSB_ESCR0 - P4M_ESCR_FIRST],
			p4m_escr_event(0x13, 0x1) | P4M_ESCR_T0_OS |
			P4M_ESCR_T0_USR);
	KUNIT_EXPECT_EQ(test, m->cccr[0],
			p4m_cccr_select(6) | P4M_CCCR_ENABLE |
			FIELD_PREP(P4M_CCCR_ACTIVE_THREAD, P4M_ACTIVE_ANY) |
			P4M_CCCR_OVF_PMI_T0);
	p4_model_run(m, 1000, true);
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 1000);

	pc_hw_cpu_del(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, m->cccr[0], 0);
	KUNIT_EXPECT_EQ(test, m->escr[FSB_ESCR0 - P4M_ESCR_FIRST], 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

static void p4_an_escr_serves_one_counter_at_a_time(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event bus = pc_hw_model_generic(PERF_COUNT_BUS_CYCLES);
	struct perf_counter_hw_event ins = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *a = p4_counter(test, &cyc, NULL);
	struct perf_counter *b = p4_counter(test, &cyc, NULL);
	struct perf_counter *c = p4_counter(test, &bus, NULL);
	struct perf_counter *i1 = p4_counter(test, &ins, NULL);
	struct perf_counter *i2 = p4_counter(test, &ins, NULL);
	struct perf_counter *i3 = p4_counter(test, &ins, NULL);

	KUNIT_ASSERT_TRUE(test, a && b && c && i1 && i2 && i3);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, b), 0);
	/* FSB_ESCR1 feeds counters 2 and 3 */
	KUNIT_EXPECT_EQ(test, b->hw.place.aux, FSB_ESCR1);
	KUNIT_EXPECT_TRUE(test, b->hw.place.idx == 2 || b->hw.place.idx == 3);
	/* Bus cycles need an FSB ESCR too: none left, counter 3 free. */
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), -ENOSPC);

	/* instr_retired: CRU_ESCR0 feeds 12, 13, 16; CRU_ESCR1 14, 15, 17 */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, i1), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, i2), 0);
	KUNIT_EXPECT_EQ(test, i1->hw.place.aux, CRU_ESCR0);
	KUNIT_EXPECT_EQ(test, i2->hw.place.aux, CRU_ESCR1);
	KUNIT_EXPECT_TRUE(test, i1->hw.place.idx == 12 ||
			  i1->hw.place.idx == 13 || i1->hw.place.idx == 16);
	KUNIT_EXPECT_EQ(test, FIELD_GET(P4M_CCCR_ESCR_SELECT,
					m->cccr[i1->hw.place.idx]), 4);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, i3), -ENOSPC);

	/* An ESCR freed serves the next. */
	pc_hw_cpu_del(&m->t[0].cpuc, a);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.aux, FSB_ESCR0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, a);
	p4_free(m, b);
	p4_free(m, c);
	p4_free(m, i1);
	p4_free(m, i2);
	p4_free(m, i3);
}

static void p4_wraps_clear_ovf_and_sum_exactly(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	const u64 chunk = 0x6543210fedULL;	/* under 2^39 */
	u64 total = 0, wraps = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	while (total < 9ULL << 40) {
		p4_model_run(m, chunk, false);
		total += chunk;
		wraps += p4_model_service(m);
		KUNIT_ASSERT_FALSE(test, m->cccr[c->hw.place.idx] & P4M_CCCR_OVF);
	}
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), total);
	KUNIT_EXPECT_GT(test, wraps, 10);
	/*
	 * LVTPC unmasked each time, and only once the OVF flags are clear:
	 * unmasked before, the line still asserted, the interrupt would
	 * come again at once and find nothing.
	 */
	KUNIT_EXPECT_EQ(test, m->t[0].pmis_lost, 0);
	KUNIT_EXPECT_EQ(test, m->t[0].unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->t[0].pending, 0UL);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/*
 * The counters count on while the handler runs (3 kernel events of every
 * kind at each register access it makes). What a counter counts during
 * the load's two writes (erratum N15) is overwritten, as on the silicon,
 * and nothing else may be lost: the 64-bit count is what the register
 * counted less exactly 6 events a wrap.
 */
static void p4_handler_loses_only_what_its_load_overwrites(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	const u64 chunk = 0x6543210fedULL;	/* under 2^39 */
	u64 total = 0, wraps = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	m->handler_events = 3;
	while (total < 9ULL << 40) {
		p4_model_run(m, chunk, true);
		total += chunk;
		wraps += p4_model_service(m);
	}
	m->handler_events = 0;
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_GT(test, m->counted[c->hw.place.idx], total);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count) + 6 * wraps,
			m->counted[c->hw.place.idx]);
	KUNIT_EXPECT_GT(test, wraps, 10);
	KUNIT_EXPECT_EQ(test, m->t[0].unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/*
 * A counter stopped after it wrapped, before its interrupt came: the
 * stop clears its CCCR, OVF flag and all, and the interrupt, delivered
 * late, finds nothing. It is claimed, once.
 */
static void p4_late_interrupt_of_a_stopped_counter_is_claimed(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c;

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_VALUE;
	c = p4_counter(test, &hw, NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	p4_model_run(m, 1000, false);
	KUNIT_EXPECT_NE(test, m->t[0].pending, 0UL);
	pc_hw_cpu_del(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, m->cccr[c->hw.place.idx], 0);
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 1);
	m->t[0].pending = 1;				/* another NMI: not ours */
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

static void p4_raw_event_carries_its_escr_word(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	/* instr_retired, by hand: CRU_ESCR1, select 4 */
	u64 cccr = p4m_cccr_select(4) | ((u64)CRU_ESCR1 << 32);
	u64 escr = p4m_escr_event(0x02, 0x1);
	struct perf_counter_hw_event hw = pc_hw_model_raw(cccr);
	struct perf_counter_hw_event bad;
	struct perf_counter *c;
	u64 word;

	c = p4_counter(test, &hw, &escr);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.aux, CRU_ESCR1);
	KUNIT_EXPECT_TRUE(test, c->hw.place.idx == 14 ||
			  c->hw.place.idx == 15 || c->hw.place.idx == 17);
	KUNIT_EXPECT_EQ(test, m->escr[CRU_ESCR1 - P4M_ESCR_FIRST],
			escr | P4M_ESCR_T0_OS | P4M_ESCR_T0_USR);
	p4_model_run(m, 77, false);
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 77);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);

	/* Refused: a select that is not that ESCR's ... */
	bad = pc_hw_model_raw(p4m_cccr_select(5) | ((u64)CRU_ESCR1 << 32));
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	/* ... an MSR that is no ESCR, the driver's CCCR bits ... */
	bad = pc_hw_model_raw(p4m_cccr_select(4) | (0x3c6ULL << 32));
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4M_CCCR_ENABLE);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4M_CCCR_OVF_PMI_T1);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4M_CCCR_CASCADE);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	/* ... thread bits or bit 32 in the ESCR word, or no ESCR word. */
	bad = pc_hw_model_raw(cccr);
	word = escr | P4M_ESCR_T1_USR;
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &word));
	word = escr | BIT_ULL(32);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &word));
	bad = pc_hw_model_raw(cccr);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, NULL));
}

/*
 * The core's decode of @hw (with ESCR word @escr, if any) through the
 * P4 driver, for a counter opened now, or an inherited copy of @parent:
 * its errno.
 */
static int p4_decode_for(struct perf_counter_hw_event *hw, const u64 *escr,
			 struct perf_counter *parent)
{
	struct perf_counter_hw_event_ext desc;
	struct perf_counter *counter;
	int err;

	if (escr)
		hw->extra_config_len = sizeof(u64);
	desc = (struct perf_counter_hw_event_ext) { .hw = *hw };
	counter = pc_counter_alloc(&desc, escr, &pc_hw_model_ops, -1, parent);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	err = pc_hw_decode(&pc_p4_driver.pmu, counter);
	pc_counter_put(counter);
	return err;
}

static int p4_decode_errno(struct perf_counter_hw_event *hw, const u64 *escr)
{
	return p4_decode_for(hw, escr, NULL);
}

static int p4_decode_errno_as_copy(struct perf_counter_hw_event *hw,
				   struct perf_counter *parent)
{
	return p4_decode_for(hw, NULL, parent);
}

#define FIRM_ESCR0	0x3a4

/*
 * Events the two threads of a core share (the SDM's thread-independent
 * ones: FSB_data_activity, the generic bus-cycles; x87_FP_uop on the
 * FIRM ESCR, ...) count the sibling thread's work whatever the ESCR's
 * T0 bits say. With two threads a core, a caller without CAP_PERFMON at
 * perf_event_paranoid 2 may not open one (EACCES), as for a CPU-wide
 * counter; a thread-specific event (cycles) it may. With one thread a
 * core, or with the capability, both open.
 */
static void p4_events_shared_by_two_threads_need_the_cpu_wide_privilege(struct kunit *test)
{
	u64 x87 = p4m_escr_event(0x04, 0x1);	/* x87_FP_uop, ALL */
	struct perf_counter_hw_event bus = pc_hw_model_generic(PERF_COUNT_BUS_CYCLES);
	struct perf_counter_hw_event cyc = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter_hw_event raw = pc_hw_model_raw(p4m_cccr_select(1) |
							    ((u64)FIRM_ESCR0 << 32));
	struct perf_counter *parent;
	const struct cred *old;
	struct cred *unprivileged;
#ifdef CONFIG_PERF_EVENTS
	int paranoid = sysctl_perf_event_paranoid;
#endif

	p4_threads_per_core = 2;
	parent = p4_counter(test, &bus, NULL);
	KUNIT_ASSERT_NOT_NULL(test, parent);
	unprivileged = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, unprivileged);
	cap_clear(unprivileged->cap_effective);
#ifdef CONFIG_PERF_EVENTS
	sysctl_perf_event_paranoid = 2;
#endif

	p4_threads_per_core = 2;
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&bus, NULL), 0);
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&raw, &x87), 0);
	old = override_creds(unprivileged);
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&bus, NULL), -EACCES);
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&raw, &x87), -EACCES);
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&cyc, NULL), 0);
	/* a fork's copy of root's counter: not asked again */
	KUNIT_EXPECT_EQ(test, p4_decode_errno_as_copy(&bus, parent), 0);
	p4_threads_per_core = 1;
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&bus, NULL), 0);
	KUNIT_EXPECT_EQ(test, p4_decode_errno(&raw, &x87), 0);
	revert_creds(old);
	put_cred(unprivileged);
	p4_threads_per_core = 0;
#ifdef CONFIG_PERF_EVENTS
	sysctl_perf_event_paranoid = paranoid;
#endif
	pc_counter_put(parent);
}

static void p4_second_thread_keeps_off_the_registers(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	m->t[0].cpuc.forbidden = true;
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, c->hw.on);
	for (i = 0; i < P4M_COUNTERS; i++)
		KUNIT_EXPECT_EQ(test, m->cccr[i], 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

static void p4_event_map_uses_the_sdm_events(struct kunit *test)
{
	static const struct { u8 event; u16 escr; } want[PERF_HW_EVENTS_MAX] = {
		{ 0x13, FSB_ESCR0 },	/* global_power_events */
		{ 0x02, CRU_ESCR0 },	/* instr_retired */
		{ 0x0c, 0x3a0 },	/* BSQ_cache_reference, BSU_ESCR0 */
		{ 0x0c, 0x3a0 },
		{ 0x04, 0x3c2 },	/* retired_branch_type, TBPU_ESCR0 */
		{ 0x05, 0x3c2 },	/* retired_mispred_branch_type */
		{ 0x17, FSB_ESCR0 },	/* FSB_data_activity */
	};
	const struct pc_pmu *pmu = &pc_p4_driver.pmu;
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	struct perf_counter_hw_event hw;
	struct pc_hw_counter hwc;
	unsigned int id;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		hw = pc_hw_model_generic(id);
		KUNIT_ASSERT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), 0);
		KUNIT_EXPECT_EQ(test, FIELD_GET(P4M_ESCR_EVENT_SELECT, hwc.extra),
				want[id].event);
		/* two ESCRs, two counters each (BPU group: counter 1 never) */
		KUNIT_EXPECT_GE(test, pmu->places(pmu, &hwc, place), 3);
		KUNIT_EXPECT_EQ(test, place[0].aux, want[id].escr);
	}
	hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	hw.exclude_user = hw.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, pmu->decode(pmu, &hw, NULL, &hwc), -EINVAL);
}

/*
 * Counter 1 of the BPU group is never used: with counter 0 taken by
 * cycles (FSB_ESCR0), cache references, whose first ESCR (BSU_ESCR0)
 * feeds counters 0 and 1, go to counter 2 through BSU_ESCR1. (Placed
 * on counter 1, they counted nothing, and the model says so.)
 */
static void p4_counter_1_of_the_bpu_group_is_never_used(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *a, *c;

	a = p4_counter(test, &hw, NULL);
	hw = pc_hw_model_generic(PERF_COUNT_CACHE_REFERENCES);
	c = p4_counter(test, &hw, NULL);
	KUNIT_ASSERT_TRUE(test, a && c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, a->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.idx, 2);
	KUNIT_EXPECT_EQ(test, c->hw.place.aux, 0x3a1);	/* BSU_ESCR1 */
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
	p4_free(m, a);
}

/*
 * Erratum N15: a counter write may not take, so the driver writes
 * twice. In the model a single write never takes: a sampling counter
 * just put on holds its load, 2^40 - 1000, only if written twice.
 */
static void p4_counter_loads_take_despite_erratum_n15(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
	struct perf_counter *c;

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_VALUE;
	c = p4_counter(test, &hw, NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->ctr[c->hw.place.idx], P4M_MASK40 + 1 - 1000);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/*
 * A wrap whose OVF flag is not set is still a wrap: the counter's top
 * bit is clear. The interrupt is handled and the sample written. (On
 * OVF alone it was not: no sample, the interrupt unclaimed.)
 */
static void p4_wrap_without_ovf_is_seen_by_the_top_bit(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c;
	u64 value = 0;

	hw.irq_period = 1000;
	hw.record_type = PERF_RECORD_VALUE;
	c = p4_counter(test, &hw, NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	m->unflagged = true;
	p4_model_run(m, 999, false);
	KUNIT_EXPECT_EQ(test, m->t[0].pending, 0UL);
	p4_model_run(m, 1, false);
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 1000);
	KUNIT_EXPECT_EQ(test, m->t[0].unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/*
 * The firmware left CCCR 5 on, with an interrupt bit, feeding from
 * TBPU_ESCR0 — the ESCR that branch counts take — and its counter near
 * a wrap. Taking the registers clears it: the driver's branch counter,
 * on counter 4 through that ESCR, counts alone, and no interrupt comes
 * that no counter of ours claims. (Left on, counter 5 counted too,
 * wrapped and raised an interrupt that stayed asserted and unclaimed.)
 */
static void p4_cccrs_left_on_are_cleared_when_the_registers_are_taken(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw =
		pc_hw_model_generic(PERF_COUNT_BRANCH_INSTRUCTIONS);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	m->t[0].lvtpc = APIC_DM_NMI | APIC_LVT_MASKED;	/* as it was */
	m->cccr[5] = P4M_CCCR_ENABLE | p4m_cccr_select(2) |
		     FIELD_PREP(P4M_CCCR_ACTIVE_THREAD, P4M_ACTIVE_ANY) |
		     P4M_CCCR_OVF_PMI_T0;
	m->ctr[5] = P4M_MASK40 - 10;
	pc_x86_cpu_start(&m->t[0].cpuc);
	for (i = 0; i < P4M_COUNTERS; i++)
		KUNIT_EXPECT_EQ(test, m->cccr[i], 0);
	KUNIT_EXPECT_EQ(test, m->t[0].lvtpc, pc_x86_lvtpc(false));

	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.idx, 4);
	p4_model_run(m, 100, false);
	p4_model_service(m);
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 100);
	KUNIT_EXPECT_EQ(test, m->ctr[5], P4M_MASK40 - 10);
	KUNIT_EXPECT_EQ(test, m->t[0].unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->t[0].pending, 0UL);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/* The model's CPUs: CPU n has APIC ID n, two threads a core. */
static bool p4_odd_cpu_is_second_thread(int cpu)
{
	return p4_thread_of(cpu, 2) != 0;
}

/*
 * Thread 0 counts cycles; then thread 1 of its core comes online (after
 * boot) while the registers are held. It is kept off them and writes
 * nothing — no clearing of the CCCRs its sibling's counter is on, and a
 * counter of a task that runs there is not placed on FSB_ESCR0 and
 * counter 0, which are thread 0's. Thread 0 counts on, exactly. (Looked
 * at only at boot, thread 1 took thread 0's registers; clearing them as
 * it came stopped thread 0's counter.)
 */
static void p4_second_thread_coming_online_leaves_its_sibling_counting(struct kunit *test)
{
	struct pc_x86_driver *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct p4_model *m = p4_model_new(test);
	struct p4_thread *t0 = &m->t[0], *t1 = &m->t[1];
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c0 = p4_counter(test, &hw, NULL);
	struct perf_counter *c1 = p4_counter(test, &hw, NULL);
	u64 kinds[PERF_HW_EVENTS_MAX] = { [PERF_COUNT_CPU_CYCLES] = 400 };

	KUNIT_ASSERT_TRUE(test, d && c0 && c1);
	*d = pc_p4_driver;
	d->second_thread = p4_odd_cpu_is_second_thread;
	t0->cpuc.pmu = &d->pmu;
	t1->cpuc.pmu = &d->pmu;

	pc_x86_cpu_arrive(&t0->cpuc, 0, true);
	KUNIT_EXPECT_FALSE(test, t0->cpuc.forbidden);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&t0->cpuc, c0), 0);
	p4_model_run_kinds(m, 0, kinds, false);

	t1->lvtpc = APIC_DM_NMI;	/* as perf_events left it */
	pc_x86_cpu_arrive(&t1->cpuc, 1, true);
	KUNIT_EXPECT_TRUE(test, t1->cpuc.forbidden);
	KUNIT_EXPECT_NE(test, m->cccr[c0->hw.place.idx], 0);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&t1->cpuc, c1), -ENOSPC);
	p4_model_run_kinds(m, 1, kinds, false);	/* thread 1's: not ours */
	pc_hw_cpu_del(&t1->cpuc, c1);
	KUNIT_EXPECT_EQ(test, t1->writes, 0);	/* not one MSR, nor LVTPC */
	KUNIT_EXPECT_EQ(test, t1->lvtpc, APIC_DM_NMI);

	p4_model_run_kinds(m, 0, kinds, false);
	pc_hw_fold(&t0->cpuc, c0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c0->count), 800);
	KUNIT_EXPECT_EQ(test, t0->unclaimed + t1->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_counter_put(c1);
	pc_hw_cpu_del(&t0->cpuc, c0);
	pc_counter_put(c0);
}

/*
 * Thread 0 comes online (again) with a counter on already: a per-CPU
 * kernel thread's, scheduled there before the hotplug callback ran.
 * The callback's clear leaves that counter's CCCR alone and it counts
 * on, exactly. (Clearing every CCCR stopped it.)
 */
static void p4_cpu_arriving_keeps_a_counter_already_on(struct kunit *test)
{
	struct pc_x86_driver *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct p4_model *m = p4_model_new(test);
	struct p4_thread *t0 = &m->t[0];
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	u64 kinds[PERF_HW_EVENTS_MAX] = { [PERF_COUNT_CPU_CYCLES] = 400 };

	KUNIT_ASSERT_TRUE(test, d && c);
	/* thread 0 whatever this machine's APIC IDs say */
	*d = pc_p4_driver;
	d->second_thread = p4_odd_cpu_is_second_thread;
	t0->cpuc.pmu = &d->pmu;
	pc_x86_cpu_start(&t0->cpuc);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&t0->cpuc, c), 0);
	p4_model_run_kinds(m, 0, kinds, false);
	pc_x86_cpu_arrive(&t0->cpuc, 0, true);
	KUNIT_ASSERT_FALSE(test, t0->cpuc.forbidden);
	KUNIT_EXPECT_NE(test, m->cccr[c->hw.place.idx], 0);
	p4_model_run_kinds(m, 0, kinds, false);
	pc_hw_fold(&t0->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 800);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	pc_hw_cpu_del(&t0->cpuc, c);
	pc_counter_put(c);
}

/*
 * The thread is the initial APIC ID's low bits, as many as number the
 * siblings, whatever Linux's CPU number: CPU 1 may be a core's first
 * thread, CPU 0's sibling CPU 2.
 */
static void p4_thread_is_the_low_bits_of_the_apic_id(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, p4_thread_of(0, 2), 0);
	KUNIT_EXPECT_EQ(test, p4_thread_of(1, 2), 1);
	KUNIT_EXPECT_EQ(test, p4_thread_of(6, 2), 0);
	KUNIT_EXPECT_EQ(test, p4_thread_of(7, 2), 1);
	KUNIT_EXPECT_EQ(test, p4_thread_of(7, 1), 0);	/* no HT */
	KUNIT_EXPECT_EQ(test, p4_thread_of(3, 1), 0);
	KUNIT_EXPECT_EQ(test, p4_thread_of(6, 4), 2);
}

/*
 * Every ESCR the driver lists feeds, by the SDM's table (the model's),
 * the counters the driver places on with the select it writes, and the
 * driver lists every ESCR of that table.
 */
static void p4_driver_escr_table_routes_as_the_sdm_says(struct kunit *test)
{
	unsigned int k, i, routes = 0, idx;

	for (k = 0; k < p4_nr_escrs; k++) {
		const struct p4_escr *e = &p4_escrs[k];
		unsigned int nr;
		u8 ctr[3];

		nr = p4_counters_of(e, ctr);
		for (i = 0; i < nr; i++)
			KUNIT_EXPECT_EQ_MSG(test, p4_model_route(ctr[i], e->select),
					    e->msr, "ESCR %#x counter %u",
					    e->msr, ctr[i]);
	}
	for (idx = 0; idx < P4M_COUNTERS; idx++)
		for (i = 0; i < 8; i++)
			routes += p4_model_route(idx, i) != 0;
	/* the driver's, counted the same way */
	for (k = 0; k < p4_nr_escrs; k++)
		routes -= p4_escrs[k].group == P4_IQ ? 3 : 2;
	KUNIT_EXPECT_EQ(test, routes, 0);
}

/*
 * Each generic event counts what it names, and only that, with the
 * kinds of events at different rates; an event code on an ESCR that
 * does not take it, or a mask bit that means nothing, counts nothing.
 */
static void p4_each_generic_event_counts_what_it_names(struct kunit *test)
{
	static const u64 kinds[PERF_HW_EVENTS_MAX] = {
		1000, 300, 200, 50, 70, 7, 11,
	};
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw;
	struct perf_counter *c;
	unsigned int id;
	u64 escr;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		hw = pc_hw_model_generic(id);
		c = p4_counter(test, &hw, NULL);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
		p4_model_run_kinds(m, 0, kinds, true);
		pc_hw_fold(&m->t[0].cpuc, c);
		KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&c->count), kinds[id],
				    "generic event %u", id);
		p4_free(m, c);
	}

	/* global_power_events on CRU_ESCR1, which does not take it */
	hw = pc_hw_model_raw(p4m_cccr_select(4) | ((u64)CRU_ESCR1 << 32));
	escr = p4m_escr_event(0x13, 0x1);
	c = p4_counter(test, &hw, &escr);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	p4_model_run_kinds(m, 0, kinds, true);
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 0);
	p4_free(m, c);

	/* instr_retired with BOGUSNTAG only: not retired instructions */
	hw = pc_hw_model_raw(p4m_cccr_select(4) | ((u64)CRU_ESCR1 << 32));
	escr = p4m_escr_event(0x02, 0x4);
	c = p4_counter(test, &hw, &escr);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	p4_model_run_kinds(m, 0, kinds, true);
	pc_hw_fold(&m->t[0].cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

/*
 * The driver's ESCR and CCCR bits against the SDM's, which the model
 * spells itself (p4_model.h) where the driver takes the kernel's
 * (p4_regs.h: msr-index.h, asm/perf_event_p4.h). Retired instructions
 * under each privilege filter: CRU_ESCR0 holds exactly
 * event select 02h (bits 30:25), mask NBOGUSNTAG|NBOGUSTAG (24:9) and
 * T0_USR (bit 2), T0_OS (3) or both, thread 1's bits (0, 1) clear; the
 * counter's CCCR exactly ENABLE (12), ESCR select 4 (15:13),
 * ACTIVE_THREAD 11b, any thread (17:16), and OVF_PMI_T0 (26). A raw
 * event's compare (18), complement (19), threshold (23:20) and edge (24)
 * and its ESCR word's tag value (8:5) and tag enable (4) land where the
 * SDM has them; the CCCR bits the driver owns (ENABLE, ACTIVE_THREAD,
 * FORCE_OVF, OVF_PMI_T0/T1, CASCADE, OVF) and the ESCR's thread bits are
 * refused in a raw event, as are reserved bits. A driver bit out of the
 * SDM's place (T0_USR and T0_OS swapped, OVF_PMI_T0 taken for T1) fails
 * here.
 */
static void p4_driver_sets_exactly_the_escr_and_cccr_bits_the_sdm_names(struct kunit *test)
{
	static const struct {
		bool	exclude_user, exclude_kernel;
		u64	mode;
	} modes[] = {
		{ false, false, P4M_ESCR_T0_USR | P4M_ESCR_T0_OS },
		{ true, false, P4M_ESCR_T0_OS },
		{ false, true, P4M_ESCR_T0_USR },
	};
	static const u64 cccr_owned[] = {
		P4M_CCCR_ENABLE, BIT_ULL(16), BIT_ULL(17), P4M_CCCR_FORCE_OVF,
		P4M_CCCR_OVF_PMI_T0, P4M_CCCR_OVF_PMI_T1, P4M_CCCR_CASCADE,
		P4M_CCCR_OVF, BIT_ULL(0), BIT_ULL(11), BIT_ULL(28), BIT_ULL(29),
	};
	static const u64 escr_owned[] = {
		P4M_ESCR_T0_USR, P4M_ESCR_T0_OS, P4M_ESCR_T1_USR,
		P4M_ESCR_T1_OS, BIT_ULL(31), BIT_ULL(40),
	};
	const u64 on = P4M_CCCR_ENABLE | P4M_CCCR_OVF_PMI_T0 |
		       FIELD_PREP(P4M_CCCR_ACTIVE_THREAD, P4M_ACTIVE_ANY);
	/* instr_retired on CRU_ESCR1 by hand, with every field it may set */
	const u64 cccr = p4m_cccr_select(4) | P4M_CCCR_COMPARE |
			 P4M_CCCR_COMPLEMENT | P4M_CCCR_EDGE |
			 FIELD_PREP(P4M_CCCR_THRESHOLD, 0xa);
	const u64 raw_escr = p4m_escr_event(0x02, 0x1) | P4M_ESCR_TAG_ENABLE |
			     FIELD_PREP(P4M_ESCR_TAG_VALUE, 0x5);
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw;
	struct perf_counter *c;
	unsigned int i, idx;
	u64 word;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		hw = pc_hw_model_generic(PERF_COUNT_INSTRUCTIONS);
		hw.exclude_user = modes[i].exclude_user;
		hw.exclude_kernel = modes[i].exclude_kernel;
		c = p4_counter(test, &hw, NULL);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
		KUNIT_ASSERT_EQ(test, c->hw.place.aux, CRU_ESCR0);
		idx = c->hw.place.idx;
		KUNIT_EXPECT_EQ_MSG(test, m->escr[CRU_ESCR0 - P4M_ESCR_FIRST],
				    p4m_escr_event(0x02, 0x3) | modes[i].mode,
				    "ESCR, filter %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m->cccr[idx], p4m_cccr_select(4) | on,
				    "CCCR %u, filter %u", idx, i);
		p4_free(m, c);
		KUNIT_EXPECT_EQ(test, m->cccr[idx], 0);
		KUNIT_EXPECT_EQ(test, m->escr[CRU_ESCR0 - P4M_ESCR_FIRST], 0);
	}

	hw = pc_hw_model_raw(cccr | (u64)CRU_ESCR1 << 32);
	word = raw_escr;
	c = p4_counter(test, &hw, &word);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->t[0].cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.aux, CRU_ESCR1);
	KUNIT_EXPECT_EQ(test, m->escr[CRU_ESCR1 - P4M_ESCR_FIRST],
			raw_escr | P4M_ESCR_T0_USR | P4M_ESCR_T0_OS);
	KUNIT_EXPECT_EQ(test, m->cccr[c->hw.place.idx], cccr | on);
	p4_free(m, c);

	for (i = 0; i < ARRAY_SIZE(cccr_owned); i++) {
		hw = pc_hw_model_raw(cccr | cccr_owned[i] | (u64)CRU_ESCR1 << 32);
		word = raw_escr;
		KUNIT_EXPECT_NULL_MSG(test, p4_counter(test, &hw, &word),
				      "CCCR word %#llx", cccr | cccr_owned[i]);
	}
	for (i = 0; i < ARRAY_SIZE(escr_owned); i++) {
		hw = pc_hw_model_raw(cccr | (u64)CRU_ESCR1 << 32);
		word = raw_escr | escr_owned[i];
		KUNIT_EXPECT_NULL_MSG(test, p4_counter(test, &hw, &word),
				      "ESCR word %#llx", word);
	}
	KUNIT_EXPECT_EQ(test, m->faults, 0);
}

static struct kunit_case pc_p4_cases[] = {
	KUNIT_CASE(p4_cycles_take_an_fsb_escr_and_cccr_select_6),
	KUNIT_CASE(p4_an_escr_serves_one_counter_at_a_time),
	KUNIT_CASE(p4_wraps_clear_ovf_and_sum_exactly),
	KUNIT_CASE(p4_handler_loses_only_what_its_load_overwrites),
	KUNIT_CASE(p4_late_interrupt_of_a_stopped_counter_is_claimed),
	KUNIT_CASE(p4_counter_1_of_the_bpu_group_is_never_used),
	KUNIT_CASE(p4_counter_loads_take_despite_erratum_n15),
	KUNIT_CASE(p4_wrap_without_ovf_is_seen_by_the_top_bit),
	KUNIT_CASE(p4_raw_event_carries_its_escr_word),
	KUNIT_CASE(p4_events_shared_by_two_threads_need_the_cpu_wide_privilege),
	KUNIT_CASE(p4_second_thread_keeps_off_the_registers),
	KUNIT_CASE(p4_event_map_uses_the_sdm_events),
	KUNIT_CASE(p4_cccrs_left_on_are_cleared_when_the_registers_are_taken),
	KUNIT_CASE(p4_second_thread_coming_online_leaves_its_sibling_counting),
	KUNIT_CASE(p4_cpu_arriving_keeps_a_counter_already_on),
	KUNIT_CASE(p4_thread_is_the_low_bits_of_the_apic_id),
	KUNIT_CASE(p4_driver_escr_table_routes_as_the_sdm_says),
	KUNIT_CASE(p4_each_generic_event_counts_what_it_names),
	KUNIT_CASE(p4_driver_sets_exactly_the_escr_and_cccr_bits_the_sdm_names),
	{}
};

static struct kunit_suite pc_p4_suite = {
	.name = "perf_counter_x86_p4_model",
	.test_cases = pc_p4_cases,
};
kunit_test_suite(pc_p4_suite);
