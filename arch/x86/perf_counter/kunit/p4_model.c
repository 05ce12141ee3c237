// SPDX-License-Identifier: GPL-2.0
/*
 * The Pentium 4 core model: see p4_model.h.
 */
#include <linux/bitfield.h>
#include <asm/apicdef.h>
#include <asm/irq_vectors.h>

#include "p4_model.h"

struct p4_route {
	u16	msr;
	u8	select;
};

/*
 * The SDM's table of the NetBurst performance counter MSRs: for each
 * pair of counters (the IQ group's pairs take counter 16 or 17 too),
 * the ESCRs that feed it and the CCCR ESCR_SELECT that names each.
 */
static const struct p4_route p4_routes[8][8] = {
	/* MSR_BPU_COUNTER0/1: BSU, FSB, MOB, PMH, BPU, IS, ITLB, IX ESCR0 */
	{ { 0x3a0, 7 }, { 0x3a2, 6 }, { 0x3aa, 2 }, { 0x3ac, 4 },
	  { 0x3b2, 0 }, { 0x3b4, 1 }, { 0x3b6, 3 }, { 0x3c8, 5 } },
	/* MSR_BPU_COUNTER2/3: the same units' ESCR1s */
	{ { 0x3a1, 7 }, { 0x3a3, 6 }, { 0x3ab, 2 }, { 0x3ad, 4 },
	  { 0x3b3, 0 }, { 0x3b5, 1 }, { 0x3b7, 3 }, { 0x3c9, 5 } },
	/* MSR_MS_COUNTER0/1: MS, TC, TBPU ESCR0 */
	{ { 0x3c0, 0 }, { 0x3c4, 1 }, { 0x3c2, 2 } },
	/* MSR_MS_COUNTER2/3 */
	{ { 0x3c1, 0 }, { 0x3c5, 1 }, { 0x3c3, 2 } },
	/* MSR_FLAME_COUNTER0/1: FLAME, FIRM, SAAT, U2L, DAC ESCR0 */
	{ { 0x3a6, 0 }, { 0x3a4, 1 }, { 0x3ae, 2 }, { 0x3b0, 3 },
	  { 0x3a8, 5 } },
	/* MSR_FLAME_COUNTER2/3 */
	{ { 0x3a7, 0 }, { 0x3a5, 1 }, { 0x3af, 2 }, { 0x3b1, 3 },
	  { 0x3a9, 5 } },
	/* MSR_IQ_COUNTER0/1/4: IQ, ALF, RAT, SSU, CRU0, CRU2, CRU4 */
	{ { 0x3ba, 0 }, { 0x3ca, 1 }, { 0x3bc, 2 }, { 0x3be, 3 },
	  { 0x3b8, 4 }, { 0x3cc, 5 }, { 0x3e0, 6 } },
	/* MSR_IQ_COUNTER2/3/5: IQ, ALF, RAT, CRU1, CRU3, CRU5 */
	{ { 0x3bb, 0 }, { 0x3cb, 1 }, { 0x3bd, 2 }, { 0x3b9, 4 },
	  { 0x3cd, 5 }, { 0x3e1, 6 } },
};

static unsigned int p4_model_pair(unsigned int idx)
{
	if (idx < 12)
		return idx / 2;
	if (idx == 16)
		return 6;
	if (idx == 17)
		return 7;
	return idx < 14 ? 6 : 7;
}

/**
 * p4_model_route() - the ESCR a CCCR's select names, by the SDM
 * @idx:	the counter
 * @select:	its CCCR's ESCR_SELECT
 *
 * Return: the ESCR's MSR, or 0 if none feeds @idx with that select.
 */
u16 p4_model_route(unsigned int idx, unsigned int select)
{
	const struct p4_route *r = p4_routes[p4_model_pair(idx)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p4_routes[0]) && r[i].msr; i++)
		if (r[i].select == select)
			return r[i].msr;
	return 0;
}

static bool p4_model_is_escr(u32 msr)
{
	unsigned int p, i;

	for (p = 0; p < ARRAY_SIZE(p4_routes); p++)
		for (i = 0; i < ARRAY_SIZE(p4_routes[0]); i++)
			if (p4_routes[p][i].msr && p4_routes[p][i].msr == msr)
				return true;
	return false;
}

/* "Hits": the cache references that did not miss. */
#define P4_KIND_HITS	PERF_HW_EVENTS_MAX

/*
 * What an ESCR's event counts, from the SDM's tables of NetBurst
 * events: the event, the ESCRs that take it, the mask bits that count
 * a kind. An event on another ESCR, or mask bits not listed, count
 * nothing.
 */
static const struct {
	u16	escr0;
	u8	event;
	u16	mask;
	u8	kind;
} p4_meanings[] = {
	/* global_power_events: RUNNING (FSB_ESCR0/1) */
	{ 0x3a2, 0x13, 0x0001, PERF_COUNT_CPU_CYCLES },
	/* instr_retired: NBOGUSNTAG, NBOGUSTAG (CRU_ESCR0/1) */
	{ 0x3b8, 0x02, 0x0003, PERF_COUNT_INSTRUCTIONS },
	/* BSQ_cache_reference: 2nd/3rd level read hits; the misses */
	{ 0x3a0, 0x0c, 0x003f, P4_KIND_HITS },
	{ 0x3a0, 0x0c, 0x0700, PERF_COUNT_CACHE_MISSES },
	/* retired_branch_type: CONDITIONAL, CALL, RETURN, INDIRECT (TBPU) */
	{ 0x3c2, 0x04, 0x001e, PERF_COUNT_BRANCH_INSTRUCTIONS },
	/* retired_mispred_branch_type: the same */
	{ 0x3c2, 0x05, 0x001e, PERF_COUNT_BRANCH_MISSES },
	/* FSB_data_activity: DRDY_DRV, DRDY_OWN (FSB_ESCR0/1) */
	{ 0x3a2, 0x17, 0x0003, PERF_COUNT_BUS_CYCLES },
};

static u64 p4_model_meaning(u16 msr, u64 escr, const u64 *kinds)
{
	u8 event = FIELD_GET(P4M_ESCR_EVENT_SELECT, escr);
	u16 mask = FIELD_GET(P4M_ESCR_EVENT_MASK, escr);
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p4_meanings); i++) {
		u8 kind = p4_meanings[i].kind;

		if ((msr & ~1) != p4_meanings[i].escr0 ||
		    event != p4_meanings[i].event ||
		    !(mask & p4_meanings[i].mask))
			continue;
		if (kind == P4_KIND_HITS)
			n += kinds[PERF_COUNT_CACHE_REFERENCES] -
			     min(kinds[PERF_COUNT_CACHE_MISSES],
				 kinds[PERF_COUNT_CACHE_REFERENCES]);
		else
			n += kinds[kind];
	}
	return n;
}

/* Inside the handler, time passes at every access: events happen. */
static void p4_model_handler_runs(struct p4_thread *t)
{
	struct p4_model *m = t->core;
	u64 kinds[PERF_HW_EVENTS_MAX];
	unsigned int i;

	if (!m->in_handler || !m->handler_events)
		return;
	for (i = 0; i < PERF_HW_EVENTS_MAX; i++)
		kinds[i] = m->handler_events;
	p4_model_run_kinds(m, t->id, kinds, false);
}

static u64 p4_model_read(void *priv, u32 msr)
{
	struct p4_thread *t = priv;
	struct p4_model *m = t->core;

	p4_model_handler_runs(t);
	if (msr >= P4M_PERFCTR0 && msr < P4M_PERFCTR0 + P4M_COUNTERS)
		return m->ctr[msr - P4M_PERFCTR0];
	if (msr >= P4M_CCCR0 && msr < P4M_CCCR0 + P4M_COUNTERS)
		return m->cccr[msr - P4M_CCCR0];
	if (p4_model_is_escr(msr))
		return m->escr[msr - P4M_ESCR_FIRST];
	m->faults++;
	return 0;
}

static void p4_model_write(void *priv, u32 msr, u64 val)
{
	struct p4_thread *t = priv;
	struct p4_model *m = t->core;

	p4_model_handler_runs(t);
	t->writes++;
	if (msr >= P4M_PERFCTR0 && msr < P4M_PERFCTR0 + P4M_COUNTERS) {
		unsigned int idx = msr - P4M_PERFCTR0;

		if (val & ~P4M_MASK40)
			m->faults++;
		if (m->ctr_pending[idx] != val) {	/* N15 */
			m->ctr_pending[idx] = val;
			return;
		}
		m->ctr_pending[idx] = ~0ULL;
		m->ctr[idx] = val & P4M_MASK40;
	} else if (msr >= P4M_CCCR0 && msr < P4M_CCCR0 + P4M_COUNTERS) {
		unsigned int idx = msr - P4M_CCCR0;

		if ((val & P4M_CCCR_RESERVED) ||
		    ((val & P4M_CCCR_ENABLE) &&
		     (idx == P4M_BROKEN_COUNTER ||
		      !p4_model_route(idx, FIELD_GET(P4M_CCCR_ESCR_SELECT, val)))))
			m->faults++;
		m->cccr[idx] = val;
	} else if (p4_model_is_escr(msr)) {
		if (val & P4M_ESCR_RESERVED)
			m->faults++;
		m->escr[msr - P4M_ESCR_FIRST] = val;
	} else {
		m->faults++;
	}
}

static u64 p4_model_pmi_bit(const struct p4_thread *t)
{
	return t->id ? P4M_CCCR_OVF_PMI_T1 : P4M_CCCR_OVF_PMI_T0;
}

/*
 * Counter @idx raises @t's interrupt: lost while LVTPC is masked. It is
 * delivered later as LVTPC then says (p4_model_service_thread()).
 */
static void p4_model_raise(struct p4_thread *t, unsigned int idx)
{
	if (t->lvtpc & APIC_LVT_MASKED)
		t->pmis_lost++;
	else
		t->pending |= BIT(idx);
}

static bool p4_model_counts(const struct p4_model *m, unsigned int idx,
			    unsigned int thread, bool user, u16 *msr)
{
	static const u64 mode[2][2] = {
		{ P4M_ESCR_T0_OS, P4M_ESCR_T0_USR },
		{ P4M_ESCR_T1_OS, P4M_ESCR_T1_USR },
	};
	u64 cccr = m->cccr[idx];
	unsigned int active = FIELD_GET(P4M_CCCR_ACTIVE_THREAD, cccr);

	if (!(cccr & P4M_CCCR_ENABLE) || idx == P4M_BROKEN_COUNTER)
		return false;
	/* one thread runs at a time: "one active" or "any" */
	if (active != P4M_ACTIVE_ONE && active != P4M_ACTIVE_ANY)
		return false;
	*msr = p4_model_route(idx, FIELD_GET(P4M_CCCR_ESCR_SELECT, cccr));
	return *msr && (m->escr[*msr - P4M_ESCR_FIRST] & mode[thread][user]);
}

/**
 * p4_model_run_kinds() - thread @thread runs events
 * @m:		the core
 * @thread:	0 or 1
 * @kinds:	how many of each kind (PERF_COUNT_*) happen
 * @user:	in user mode, else kernel
 */
void p4_model_run_kinds(struct p4_model *m, unsigned int thread,
			const u64 *kinds, bool user)
{
	unsigned int idx;

	for (idx = 0; idx < P4M_COUNTERS; idx++) {
		u64 next, delta;
		u16 msr;

		if (!p4_model_counts(m, idx, thread, user, &msr))
			continue;
		delta = p4_model_meaning(msr, m->escr[msr - P4M_ESCR_FIRST], kinds);
		m->counted[idx] += delta;
		next = m->ctr[idx] + delta;
		if (next > P4M_MASK40) {
			if (!m->unflagged)
				m->cccr[idx] |= P4M_CCCR_OVF;
			if (m->cccr[idx] & P4M_CCCR_OVF_PMI_T0)
				p4_model_raise(&m->t[0], idx);
			if (m->cccr[idx] & P4M_CCCR_OVF_PMI_T1)
				p4_model_raise(&m->t[1], idx);
		}
		m->ctr[idx] = next & P4M_MASK40;
	}
}

/**
 * p4_model_run() - thread 0 runs @events of every kind
 * @m:		the core
 * @events:	how many
 * @user:	in user mode, else kernel
 */
void p4_model_run(struct p4_model *m, u64 events, bool user)
{
	u64 kinds[PERF_HW_EVENTS_MAX];
	unsigned int i;

	for (i = 0; i < PERF_HW_EVENTS_MAX; i++)
		kinds[i] = events;
	p4_model_run_kinds(m, 0, kinds, user);
}

/*
 * The driver routes the interrupt (and unmasks it). The line stays
 * asserted while a CCCR with the thread's OVF_PMI bit has its OVF flag
 * set: unmasking LVTPC raises it again.
 */
static void p4_model_irq_route(void *priv, bool nmi)
{
	struct p4_thread *t = priv;
	struct p4_model *m = t->core;
	unsigned int idx;

	t->writes++;
	t->lvtpc = pc_x86_lvtpc(nmi);
	for (idx = 0; idx < P4M_COUNTERS; idx++)
		if ((m->cccr[idx] & P4M_CCCR_OVF) &&
		    (m->cccr[idx] & p4_model_pmi_bit(t)))
			t->pending |= BIT(idx);
}

/**
 * p4_model_service_thread() - deliver @t's interrupt, if raised
 * @t:		the thread
 *
 * LVTPC is masked as P4 delivers; the handler is the driver's own
 * entry. Deliveries it does not claim are counted in @t->unclaimed.
 *
 * Return: what the handler returned, 0 if nothing was raised.
 */
int p4_model_service_thread(struct p4_thread *t)
{
	unsigned long flags;
	int handled;

	if (!t->pending)
		return 0;
	t->pending = 0;
	if ((t->lvtpc & APIC_MODE_MASK) == APIC_DM_NMI)
		t->nmis++;
	else if ((t->lvtpc & APIC_VECTOR_MASK) == PERF_COUNTER_VECTOR)
		t->vectors++;
	else
		t->core->faults++;	/* no handler of ours there */
	t->lvtpc |= APIC_LVT_MASKED;
	t->core->in_handler = true;
	/* irqs off, as the interrupt runs the driver's entry */
	local_irq_save(flags);
	handled = pc_x86_pmi(&t->cpuc, NULL);
	local_irq_restore(flags);
	t->core->in_handler = false;
	if (!handled)
		t->unclaimed++;
	return handled;
}

/**
 * p4_model_new() - a core, its registers clear, LVTPC on the vector
 * @test:	the test, which owns it
 *
 * Return: the model.
 */
struct p4_model *p4_model_new(struct kunit *test)
{
	struct p4_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	memset(m->ctr_pending, 0xff, sizeof(m->ctr_pending));
	for (i = 0; i < ARRAY_SIZE(m->t); i++) {
		struct p4_thread *t = &m->t[i];

		t->core = m;
		t->id = i;
		t->regs.read = p4_model_read;
		t->regs.write = p4_model_write;
		t->regs.irq_route = p4_model_irq_route;
		t->regs.priv = t;
		t->cpuc.pmu = &pc_p4_driver.pmu;
		t->cpuc.regs = &t->regs;
		t->lvtpc = pc_x86_lvtpc(false);
	}
	return m;
}
