// SPDX-License-Identifier: GPL-2.0
/*
 * The P6/K7 MSR model, see msr_model.h.
 */
#include <asm/apicdef.h>
#include <asm/irq_vectors.h>

#include "internal.h"
#include "msr_model.h"

static u64 pc_model_width_mask(const struct pc_msr_model *m)
{
	return GENMASK_ULL(m->p->x86.pmu.width - 1, 0);
}

/* Which register of a kind @msr is, or -1. */
static int pc_model_index(const struct pc_msr_model *m, u32 msr, u32 base)
{
	if (msr >= base && msr < base + m->p->x86.pmu.nr_counters)
		return msr - base;
	return -1;
}

/* Inside the handler, time passes at every access: events happen. */
static void pc_model_handler_runs(struct pc_msr_model *m)
{
	if (m->in_handler && m->handler_events)
		pc_msr_model_run(m, m->handler_events, false);
}

static u64 pc_model_read(void *priv, u32 msr)
{
	struct pc_msr_model *m = priv;
	void (*hook)(struct pc_msr_model *m) = m->in_read;
	int idx;
	u64 val;

	pc_model_handler_runs(m);
	idx = pc_model_index(m, msr, m->p->x86.perfctr0);
	if (idx >= 0) {
		val = m->ctr[idx];
		if (hook) {
			m->in_read = NULL;
			hook(m);
		}
		return val;
	}
	idx = pc_model_index(m, msr, m->p->evntsel0);
	if (idx >= 0)
		return m->sel[idx];
	m->faults++;
	return 0;
}

/* The EVNTSEL bits this model reserves for counter @idx. */
static u64 pc_model_reserved(const struct pc_msr_model *m, int idx)
{
	u64 ok = PC_EVNTSEL_RAW | PC_EVNTSEL_USR | PC_EVNTSEL_OS |
		 PC_EVNTSEL_INT;

	if (!m->p6 || idx == 0)
		ok |= PC_EVNTSEL_EN;
	if (m->p->raw_mask & PC_EVNTSEL_EVENT_HI)
		ok |= PC_EVNTSEL_EVENT_HI;
	return ~ok;
}

static void pc_model_write(void *priv, u32 msr, u64 val)
{
	struct pc_msr_model *m = priv;
	int idx;

	pc_model_handler_runs(m);
	idx = pc_model_index(m, msr, m->p->x86.perfctr0);
	if (idx >= 0) {
		if (m->p6) {
			/* EAX only; bit 31 fills bits 39..32 */
			val &= 0xffffffffULL;
			if (val & BIT_ULL(31))
				val |= GENMASK_ULL(39, 32);
		} else if (val & ~pc_model_width_mask(m)) {
			m->faults++;
		}
		m->ctr[idx] = val & pc_model_width_mask(m);
		return;
	}
	idx = pc_model_index(m, msr, m->p->evntsel0);
	if (idx >= 0) {
		if (val & pc_model_reserved(m, idx))
			m->faults++;
		m->sel[idx] = val;
		return;
	}
	m->faults++;
}

static bool pc_model_has(const struct pc_msr_model *m, u32 msr)
{
	return pc_model_index(m, msr, m->p->x86.perfctr0) >= 0 ||
	       pc_model_index(m, msr, m->p->evntsel0) >= 0;
}

/* rdmsrl_safe(): an MSR the model lacks is an error, not a fault. */
static int pc_model_read_safe(void *priv, u32 msr, u64 *val)
{
	struct pc_msr_model *m = priv;

	if (!pc_model_has(m, msr))
		return -EIO;
	*val = pc_model_read(priv, msr);
	return 0;
}

static int pc_model_write_safe(void *priv, u32 msr, u64 val)
{
	struct pc_msr_model *m = priv;

	if (!pc_model_has(m, msr))
		return -EIO;
	pc_model_write(priv, msr, val);
	return 0;
}

static bool pc_model_counts(const struct pc_msr_model *m, int idx, bool user)
{
	u64 mode = user ? PC_EVNTSEL_USR : PC_EVNTSEL_OS;
	u64 en = m->p6 ? m->sel[0] : m->sel[idx];

	return (en & PC_EVNTSEL_EN) && (m->sel[idx] & mode);
}

/**
 * pc_msr_model_run() - @events events happen in user or kernel mode
 * @m:		the model
 * @events:	how many; each counter wraps at most once per call
 * @user:	user mode (else kernel mode)
 */
void pc_msr_model_run(struct pc_msr_model *m, u64 events, bool user)
{
	u64 mask = pc_model_width_mask(m);
	unsigned int idx;

	for (idx = 0; idx < m->p->x86.pmu.nr_counters; idx++) {
		u64 next;

		if (!pc_model_counts(m, idx, user))
			continue;
		next = m->ctr[idx] + events;
		if (next > mask && (m->sel[idx] & PC_EVNTSEL_INT)) {
			if (m->lvtpc & APIC_LVT_MASKED)
				m->pmis_lost++;
			else
				m->pending |= BIT(idx);
		}
		m->ctr[idx] = next & mask;
	}
}

u64 pc_msr_model_wrap_run(struct pc_msr_model *m, struct perf_counter *counter,
			  u64 chunk, u64 total, unsigned int *wraps)
{
	u64 run = 0;

	*wraps = 0;
	while (run < total) {
		pc_msr_model_run(m, chunk, false);
		run += chunk;
		*wraps += pc_msr_model_service(m);
	}
	pc_hw_fold(&m->cpuc, counter);
	return run;
}

static void pc_model_irq_route(void *priv, bool nmi)
{
	struct pc_msr_model *m = priv;

	m->lvtpc = pc_x86_lvtpc(nmi);
}

/*
 * Deliver the raised interrupt as LVTPC says — an NMI, or the fixed
 * vector it names, which must be PERF_COUNTER_VECTOR (another is a
 * fault: no handler of ours is there) — to the driver's entry, masking
 * LVTPC first where the part does. Return what the handler reported;
 * count the deliveries it did not claim.
 */
static int pc_model_deliver(struct pc_msr_model *m, struct pt_regs *regs)
{
	m->pending = 0;
	if ((m->lvtpc & APIC_MODE_MASK) == APIC_DM_NMI)
		m->nmis++;
	else if ((m->lvtpc & APIC_MODE_MASK) == APIC_DM_FIXED &&
		 (m->lvtpc & APIC_VECTOR_MASK) == PERF_COUNTER_VECTOR)
		m->vectors++;
	else
		m->faults++;
	if (m->mask_on_pmi)
		m->lvtpc |= APIC_LVT_MASKED;
	m->handled = pc_x86_pmi(&m->cpuc, regs);
	if (!m->handled)
		m->unclaimed++;
	return m->handled;
}

/**
 * pc_msr_model_service() - deliver a raised overflow interrupt
 * @m:		the model
 *
 * Return: what the driver's handler reported, or 0 if nothing was
 * pending.
 */
int pc_msr_model_service(struct pc_msr_model *m)
{
	if (!m->pending)
		return 0;
	return pc_model_deliver(m, NULL);
}

/**
 * pc_msr_model_nmi() - an NMI the counters did not raise
 * @m:		the model
 *
 * Return: what the driver's handler reported.
 */
int pc_msr_model_nmi(struct pc_msr_model *m)
{
	return pc_x86_pmi(&m->cpuc, NULL);
}

/**
 * pc_msr_model_storm() - deliver interrupts as long as they are raised
 * @m:		the model; its counters count while the handler runs
 * @max:	the most to deliver
 *
 * Return: how many were delivered; @max if the storm did not end.
 */
unsigned int pc_msr_model_storm(struct pc_msr_model *m, unsigned int max)
{
	unsigned int n = 0;

	m->in_handler = true;
	while (m->pending && n < max) {
		pc_model_deliver(m, m->irq_regs);
		/* and on its way out, after it loaded the counters */
		pc_msr_model_run(m, m->handler_events, false);
		n++;
	}
	m->in_handler = false;
	return n;
}

struct pc_msr_model *pc_msr_model_new(struct kunit *test,
				      const struct pc_evntsel_pmu *p)
{
	struct pc_msr_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->p = p;
	m->p6 = p == &pc_p6_pmu;
	m->regs.read = pc_model_read;
	m->regs.write = pc_model_write;
	m->regs.irq_route = pc_model_irq_route;
	m->regs.priv = m;
	m->cpuc.pmu = &p->x86.pmu;
	m->cpuc.regs = &m->regs;
	/* as the reservation leaves it: no counter asked for an NMI */
	m->lvtpc = pc_x86_lvtpc(false);
	m->mask_on_pmi = m->p6;		/* Pentium M and later; not AMD */
	m->safe.read = pc_model_read_safe;
	m->safe.write = pc_model_write_safe;
	m->safe.priv = m;
	return m;
}
