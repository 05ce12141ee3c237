// SPDX-License-Identifier: GPL-2.0
/*
 * The PowerPC performance monitor SPR model, see spr_model.h.
 */
#include "spr_model.h"

/* MMCR1's selector fields: PMC3-4 on every part with MMCR1, 5-6 on 745x. */
#define MODEL_MMCR1_PMC3_4	0xffc00000
#define MODEL_MMCR1_PMC3_6	0xfffff800

static int model_pmc(const struct pc_spr_model *m, u32 spr)
{
	static const u16 pmc[] = { 953, 954, 957, 958, 945, 946 };
	unsigned int i;

	for (i = 0; i < m->p->pmu.nr_counters; i++)
		if (pmc[i] == spr)
			return i;
	return -1;
}

static bool model_has_mmcr1(const struct pc_spr_model *m)
{
	return m->p->pmu.nr_counters > 2;
}

/*
 * PMC @i's selector, from the manuals' bit numbers: PMC1 MMCR0 19-25,
 * PMC2 MMCR0 26-31, PMC3 MMCR1 0-4, PMC4 5-9, PMC5 10-14, PMC6 15-20.
 */
u32 pc_spr_model_sel(const struct pc_spr_model *m, unsigned int pmc)
{
	switch (pmc) {
	case 0:
		return (m->mmcr0 >> (31 - 25)) & 0x7f;
	case 1:
		return m->mmcr0 & 0x3f;
	case 2:
		return m->mmcr1 >> (31 - 4);
	case 3:
		return (m->mmcr1 >> (31 - 9)) & 0x1f;
	case 4:
		return (m->mmcr1 >> (31 - 14)) & 0x1f;
	default:
		return (m->mmcr1 >> (31 - 20)) & 0x3f;
	}
}

/* Signal the exception if PMXE is set and an enabled PMC is negative. */
static void model_check_signal(struct pc_spr_model *m)
{
	bool cond = false;
	unsigned int i;

	if (!(m->mmcr0 & PC_MMCR0_PMXE))
		return;
	for (i = 0; i < m->p->pmu.nr_counters; i++) {
		u32 ce = i ? PC_MMCR0_PMCJCE : PC_MMCR0_PMC1CE;

		if ((m->mmcr0 & ce) && (m->pmc[i] & 0x80000000))
			cond = true;
	}
	if (!cond)
		return;
	m->mmcr0 &= ~PC_MMCR0_PMXE;
	/* a signal while one is pending is the same interrupt */
	if (!m->pending)
		m->signals++;
	m->pending = true;
}

static u64 model_read(void *priv, u32 spr)
{
	struct pc_spr_model *m = priv;
	int i = model_pmc(m, spr);

	if (i >= 0)
		return m->pmc[i];
	if (spr == 952)
		return m->mmcr0;
	if (spr == 956 && model_has_mmcr1(m))
		return m->mmcr1;
	if (spr == 944 && m->p->has_mmcr2)
		return m->mmcr2;
	m->faults++;
	return 0;
}

static void model_write(void *priv, u32 spr, u64 val)
{
	struct pc_spr_model *m = priv;
	u32 mmcr1_ok = m->p->pmu.nr_counters > 4 ? MODEL_MMCR1_PMC3_6 :
		       MODEL_MMCR1_PMC3_4;
	int i = model_pmc(m, spr);

	if (val >> 32)
		m->faults++;
	if (i >= 0) {
		m->pmc[i] = val;
	} else if (spr == 952) {
		m->mmcr0 = val;
	} else if (spr == 956 && model_has_mmcr1(m)) {
		if (val & ~(u64)mmcr1_ok)
			m->faults++;
		m->mmcr1 = val;
	} else if (spr == 944 && m->p->has_mmcr2) {
		if (val & ~(u64)PC_MMCR2_THRESHMULT)
			m->faults++;
		m->mmcr2 = val;
	} else {
		m->faults++;
		return;
	}
	model_check_signal(m);
}

/**
 * pc_spr_model_run() - @events events happen in user or supervisor state
 * @m:		the model
 * @events:	how many; under 2^31, so a PMC crosses bit 0 at most once
 * @user:	problem state (else supervisor)
 */
void pc_spr_model_run(struct pc_spr_model *m, u32 events, bool user)
{
	unsigned int i;

	if (m->mmcr0 & PC_MMCR0_FC)
		return;
	if (m->mmcr0 & (user ? PC_MMCR0_FCP : PC_MMCR0_FCS))
		return;
	for (i = 0; i < m->p->pmu.nr_counters; i++)
		if (pc_spr_model_sel(m, i))
			m->pmc[i] += events;
	model_check_signal(m);
}

/**
 * pc_spr_model_service() - deliver a pending exception to the driver
 * @m:		the model
 *
 * Return: how many counters the handler found wrapped, or -1 if nothing
 * was pending.
 */
int pc_spr_model_service(struct pc_spr_model *m)
{
	int handled;

	if (!m->pending)
		return -1;
	m->pending = false;
	handled = pc_hw_handle_overflow(&m->cpuc, NULL);
	pc_ppc_rearm(&m->cpuc);
	return handled;
}

struct pc_spr_model *pc_spr_model_new(struct kunit *test,
				      const struct pc_ppc_pmu *p)
{
	struct pc_spr_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->p = p;
	m->mmcr0 = PC_MMCR0_FC;
	m->regs.read = model_read;
	m->regs.write = model_write;
	m->regs.priv = m;
	m->cpuc.pmu = &p->pmu;
	m->cpuc.regs = &m->regs;
	return m;
}
