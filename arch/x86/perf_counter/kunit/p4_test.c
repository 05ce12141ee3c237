// SPDX-License-Identifier: GPL-2.0
/*
 * The P4 driver against a model of its MSRs: 18 counters of 40 bits,
 * their CCCRs and the 45 ESCRs. A counter counts when its CCCR is
 * enabled and the ESCR its ESCR_SELECT names in its group's half has
 * the mode's T0 bit; a wrap sets the CCCR's OVF flag and, with
 * OVF_PMI_T0, raises the interrupt. Writes of reserved bits, a CCCR
 * enabled with a select no ESCR of its half has, and accesses to MSRs
 * the model lacks are faults. The model routes a CCCR to its ESCR with
 * the driver's table; the registers the tests expect are written out
 * from the SDM's tables by hand.
 *
 * The errata are the model's too: a counter write takes only when the
 * same value is written again at once (N15: a single write may not
 * take); counter 1 does not count, and enabling its CCCR is a fault;
 * with @unflagged a wrap raises the interrupt without setting OVF.
 */
#include <linux/bitfield.h>
#include <asm/apicdef.h>

#include "internal.h"
#include "msr_model.h"
#include "../p4.h"
#include "../x86_pmu.h"

struct p4_model {
	u64			ctr[P4_COUNTERS];
	u64			cccr[P4_COUNTERS];
	u64			escr[0x42];	/* by MSR - 0x3a0 */
	unsigned long		pending;
	unsigned int		faults;
	struct pc_hw_regs	regs;
	struct pc_hw_cpu	cpuc;
	u64			ctr_pending[P4_COUNTERS]; /* N15: first writes */
	bool			unflagged;	/* wraps leave OVF clear */
	u32			lvtpc;		/* P4 masks it on delivery */
	unsigned int		pmis_lost;
	unsigned int		unclaimed;	/* deliveries found nothing */
	struct pc_x86_lvtpc	lvt;
};

#define P4_MASK40	GENMASK_ULL(39, 0)
#define P4_CCCR_RESERVED (GENMASK_ULL(11, 0) | BIT_ULL(28) | BIT_ULL(29) | \
			  GENMASK_ULL(63, 32))

/* The ESCR feeding counter @idx through select @sel, or NULL. */
static const struct p4_escr *p4_model_escr(unsigned int idx, unsigned int sel)
{
	unsigned int group = idx >= 12 ? P4_IQ : idx / 4;
	unsigned int half = idx >= 16 ? idx - 16 : (idx % 4) / 2;
	unsigned int i;

	if (idx >= 12 && idx < 16)
		half = (idx - 12) / 2;
	for (i = 0; i < p4_nr_escrs; i++)
		if (p4_escrs[i].group == group && p4_escrs[i].half == half &&
		    p4_escrs[i].select == sel)
			return &p4_escrs[i];
	return NULL;
}

static u64 p4_model_read(void *priv, u32 msr)
{
	struct p4_model *m = priv;

	if (msr >= P4_PERFCTR0 && msr < P4_PERFCTR0 + P4_COUNTERS)
		return m->ctr[msr - P4_PERFCTR0];
	if (msr >= P4_CCCR0 && msr < P4_CCCR0 + P4_COUNTERS)
		return m->cccr[msr - P4_CCCR0];
	if (p4_escr_index(msr) >= 0)
		return m->escr[msr - 0x3a0];
	m->faults++;
	return 0;
}

static void p4_model_write(void *priv, u32 msr, u64 val)
{
	struct p4_model *m = priv;

	if (msr >= P4_PERFCTR0 && msr < P4_PERFCTR0 + P4_COUNTERS) {
		unsigned int idx = msr - P4_PERFCTR0;

		if (val & ~P4_MASK40)
			m->faults++;
		if (m->ctr_pending[idx] != val) {	/* N15 */
			m->ctr_pending[idx] = val;
			return;
		}
		m->ctr_pending[idx] = ~0ULL;
		m->ctr[idx] = val & P4_MASK40;
	} else if (msr >= P4_CCCR0 && msr < P4_CCCR0 + P4_COUNTERS) {
		unsigned int idx = msr - P4_CCCR0;

		if ((val & P4_CCCR_RESERVED) ||
		    ((val & P4_CCCR_ENABLE) &&
		     (idx == P4_BROKEN_COUNTER ||
		      !p4_model_escr(idx, FIELD_GET(P4_CCCR_ESCR_SELECT, val)))))
			m->faults++;
		m->cccr[idx] = val;
	} else if (p4_escr_index(msr) >= 0) {
		if (val & GENMASK_ULL(63, 31))
			m->faults++;
		m->escr[msr - 0x3a0] = val;
	} else {
		m->faults++;
	}
}

/* Counter @idx raises the interrupt: lost while LVTPC is masked. */
static void p4_model_raise(struct p4_model *m, unsigned int idx)
{
	if (m->lvtpc & APIC_LVT_MASKED)
		m->pmis_lost++;
	else
		m->pending |= BIT(idx);
}

static void p4_model_run(struct p4_model *m, u64 events, bool user)
{
	unsigned int idx;

	for (idx = 0; idx < P4_COUNTERS; idx++) {
		const struct p4_escr *e;
		u64 next, escr;

		if (!(m->cccr[idx] & P4_CCCR_ENABLE))
			continue;
		e = p4_model_escr(idx, FIELD_GET(P4_CCCR_ESCR_SELECT,
						 m->cccr[idx]));
		if (!e)
			continue;
		escr = m->escr[e->msr - 0x3a0];
		if (!(escr & (user ? P4_ESCR_T0_USR : P4_ESCR_T0_OS)))
			continue;
		if (idx == P4_BROKEN_COUNTER)
			continue;		/* does not count */
		next = m->ctr[idx] + events;
		if (next > P4_MASK40) {
			if (!m->unflagged)
				m->cccr[idx] |= P4_CCCR_OVF;
			if (m->cccr[idx] & P4_CCCR_OVF_PMI_T0)
				p4_model_raise(m, idx);
		}
		m->ctr[idx] = next & P4_MASK40;
	}
}

/*
 * The interrupt line stays asserted while a CCCR with OVF_PMI_T0 has
 * its OVF flag set: unmasking LVTPC then raises the interrupt again.
 */
static void p4_model_lvtpc_write(void *priv, u32 val)
{
	struct p4_model *m = priv;
	unsigned int idx;

	m->lvtpc = val;
	if (val & APIC_LVT_MASKED)
		return;
	for (idx = 0; idx < P4_COUNTERS; idx++)
		if ((m->cccr[idx] & P4_CCCR_OVF) &&
		    (m->cccr[idx] & P4_CCCR_OVF_PMI_T0))
			m->pending |= BIT(idx);
}

/*
 * Deliver a raised interrupt, masking LVTPC as P4 does; count the
 * deliveries the handler did not claim.
 */
static int p4_model_service(struct p4_model *m)
{
	int handled;

	if (!m->pending)
		return 0;
	m->pending = 0;
	m->lvtpc |= APIC_LVT_MASKED;
	handled = pc_x86_pmi(&m->cpuc, &m->lvt, NULL);
	if (!handled)
		m->unclaimed++;
	return handled;
}

static struct p4_model *p4_model_new(struct kunit *test)
{
	struct p4_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->regs.read = p4_model_read;
	m->regs.write = p4_model_write;
	m->regs.priv = m;
	m->cpuc.pmu = &pc_p4_driver.pmu;
	m->cpuc.regs = &m->regs;
	memset(m->ctr_pending, 0xff, sizeof(m->ctr_pending));
	m->lvtpc = APIC_DM_NMI;
	m->lvt.write = p4_model_lvtpc_write;
	m->lvt.priv = m;
	return m;
}

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
	pc_hw_cpu_del(&m->cpuc, counter);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	/* global_power_events (0x13), RUNNING, both privilege levels */
	KUNIT_EXPECT_EQ(test, c->hw.place.idx, 0);
	KUNIT_EXPECT_EQ(test, m->escr[FSB_ESCR0 - 0x3a0],
			(0x13ULL << 25) | (1ULL << 9) | P4_ESCR_T0_OS |
			P4_ESCR_T0_USR);
	KUNIT_EXPECT_EQ(test, m->cccr[0],
			P4_CCCR_SELECT(6) | P4_CCCR_ENABLE |
			P4_CCCR_ACTIVE_THREAD | P4_CCCR_OVF_PMI_T0);
	p4_model_run(m, 1000, true);
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 1000);

	pc_hw_cpu_del(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->cccr[0], 0);
	KUNIT_EXPECT_EQ(test, m->escr[FSB_ESCR0 - 0x3a0], 0);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, b), 0);
	/* FSB_ESCR1 feeds counters 2 and 3 */
	KUNIT_EXPECT_EQ(test, b->hw.place.aux, FSB_ESCR1);
	KUNIT_EXPECT_TRUE(test, b->hw.place.idx == 2 || b->hw.place.idx == 3);
	/* Bus cycles need an FSB ESCR too: none left, counter 3 free. */
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), -ENOSPC);

	/* instr_retired: CRU_ESCR0 feeds 12, 13, 16; CRU_ESCR1 14, 15, 17 */
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, i1), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, i2), 0);
	KUNIT_EXPECT_EQ(test, i1->hw.place.aux, CRU_ESCR0);
	KUNIT_EXPECT_EQ(test, i2->hw.place.aux, CRU_ESCR1);
	KUNIT_EXPECT_TRUE(test, i1->hw.place.idx == 12 ||
			  i1->hw.place.idx == 13 || i1->hw.place.idx == 16);
	KUNIT_EXPECT_EQ(test, FIELD_GET(P4_CCCR_ESCR_SELECT,
					m->cccr[i1->hw.place.idx]), 4);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, i3), -ENOSPC);

	/* An ESCR freed serves the next. */
	pc_hw_cpu_del(&m->cpuc, a);
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	while (total < 9ULL << 40) {
		p4_model_run(m, chunk, false);
		total += chunk;
		wraps += p4_model_service(m);
		KUNIT_ASSERT_FALSE(test, m->cccr[c->hw.place.idx] & P4_CCCR_OVF);
	}
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), total);
	KUNIT_EXPECT_GT(test, wraps, 10);
	/*
	 * LVTPC unmasked each time, and only once the OVF flags are clear:
	 * unmasked before, the line still asserted, the interrupt would
	 * come again at once and find nothing.
	 */
	KUNIT_EXPECT_EQ(test, m->pmis_lost, 0);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->pending, 0UL);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	p4_model_run(m, 1000, false);
	KUNIT_EXPECT_NE(test, m->pending, 0UL);
	pc_hw_cpu_del(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, m->cccr[c->hw.place.idx], 0);
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 1);
	m->pending = 1;				/* another NMI: not ours */
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

static void p4_raw_event_carries_its_escr_word(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	/* instr_retired, by hand: CRU_ESCR1, select 4 */
	u64 cccr = P4_CCCR_SELECT(4) | ((u64)CRU_ESCR1 << 32);
	u64 escr = P4_ESCR_EVENT(0x02, 0x1);
	struct perf_counter_hw_event hw = pc_hw_model_raw(cccr);
	struct perf_counter_hw_event bad;
	struct perf_counter *c;
	u64 word;

	c = p4_counter(test, &hw, &escr);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, c->hw.place.aux, CRU_ESCR1);
	KUNIT_EXPECT_TRUE(test, c->hw.place.idx == 14 ||
			  c->hw.place.idx == 15 || c->hw.place.idx == 17);
	KUNIT_EXPECT_EQ(test, m->escr[CRU_ESCR1 - 0x3a0],
			escr | P4_ESCR_T0_OS | P4_ESCR_T0_USR);
	p4_model_run(m, 77, false);
	pc_hw_fold(&m->cpuc, c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->count), 77);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);

	/* Refused: a select that is not that ESCR's ... */
	bad = pc_hw_model_raw(P4_CCCR_SELECT(5) | ((u64)CRU_ESCR1 << 32));
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	/* ... an MSR that is no ESCR, the driver's CCCR bits ... */
	bad = pc_hw_model_raw(P4_CCCR_SELECT(4) | (0x3c6ULL << 32));
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4_CCCR_ENABLE);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4_CCCR_OVF_PMI_T1);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	bad = pc_hw_model_raw(cccr | P4_CCCR_CASCADE);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &escr));
	/* ... thread bits or bit 32 in the ESCR word, or no ESCR word. */
	bad = pc_hw_model_raw(cccr);
	word = escr | P4_ESCR_T1_USR;
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &word));
	word = escr | BIT_ULL(32);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, &word));
	bad = pc_hw_model_raw(cccr);
	KUNIT_EXPECT_NULL(test, p4_counter(test, &bad, NULL));
}

static void p4_second_thread_keeps_off_the_registers(struct kunit *test)
{
	struct p4_model *m = p4_model_new(test);
	struct perf_counter_hw_event hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	struct perf_counter *c = p4_counter(test, &hw, NULL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	m->cpuc.forbidden = true;
	KUNIT_EXPECT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, c->hw.on);
	for (i = 0; i < P4_COUNTERS; i++)
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
	struct pc_hw_place place[PC_HW_MAX_PLACES];
	struct perf_counter_hw_event hw;
	struct pc_hw_counter hwc;
	unsigned int id;

	for (id = 0; id < PERF_HW_EVENTS_MAX; id++) {
		hw = pc_hw_model_generic(id);
		KUNIT_ASSERT_EQ(test, pc_p4_driver.pmu.decode(&hw, NULL, &hwc), 0);
		KUNIT_EXPECT_EQ(test, FIELD_GET(P4_ESCR_EVENT_SELECT, hwc.extra),
				want[id].event);
		/* two ESCRs, two counters each (BPU group: counter 1 never) */
		KUNIT_EXPECT_GE(test, pc_p4_driver.pmu.places(&hwc, place), 3);
		KUNIT_EXPECT_EQ(test, place[0].aux, want[id].escr);
	}
	hw = pc_hw_model_generic(PERF_COUNT_CPU_CYCLES);
	hw.exclude_user = hw.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, pc_p4_driver.pmu.decode(&hw, NULL, &hwc), -EINVAL);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	KUNIT_EXPECT_EQ(test, m->ctr[c->hw.place.idx], P4_MASK40 + 1 - 1000);
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
	KUNIT_ASSERT_EQ(test, pc_hw_cpu_add(&m->cpuc, c), 0);
	m->unflagged = true;
	p4_model_run(m, 999, false);
	KUNIT_EXPECT_EQ(test, m->pending, 0UL);
	p4_model_run(m, 1, false);
	KUNIT_EXPECT_EQ(test, p4_model_service(m), 1);
	KUNIT_EXPECT_EQ(test, pc_hw_model_records(c, &value), 1);
	KUNIT_EXPECT_EQ(test, value, 1000);
	KUNIT_EXPECT_EQ(test, m->unclaimed, 0);
	KUNIT_EXPECT_EQ(test, m->faults, 0);
	p4_free(m, c);
}

static struct kunit_case pc_p4_cases[] = {
	KUNIT_CASE(p4_cycles_take_an_fsb_escr_and_cccr_select_6),
	KUNIT_CASE(p4_an_escr_serves_one_counter_at_a_time),
	KUNIT_CASE(p4_wraps_clear_ovf_and_sum_exactly),
	KUNIT_CASE(p4_late_interrupt_of_a_stopped_counter_is_claimed),
	KUNIT_CASE(p4_counter_1_of_the_bpu_group_is_never_used),
	KUNIT_CASE(p4_counter_loads_take_despite_erratum_n15),
	KUNIT_CASE(p4_wrap_without_ovf_is_seen_by_the_top_bit),
	KUNIT_CASE(p4_raw_event_carries_its_escr_word),
	KUNIT_CASE(p4_second_thread_keeps_off_the_registers),
	KUNIT_CASE(p4_event_map_uses_the_sdm_events),
	{}
};

static struct kunit_suite pc_p4_suite = {
	.name = "perf_counter_x86_p4_model",
	.test_cases = pc_p4_cases,
};
kunit_test_suite(pc_p4_suite);
