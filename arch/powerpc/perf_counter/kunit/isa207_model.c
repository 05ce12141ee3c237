// SPDX-License-Identifier: GPL-2.0
/*
 * The ISA 2.07 performance monitor model: see isa207_model.h.
 */
#include <linux/bits.h>
#include <linux/irqflags.h>

#include "isa207_model.h"

/*
 * What the driver may set in MMCR0: FC, FC14 and FC56 (not FCS, FCP,
 * FCM0/1: its filters are MMCR2's), the alert's PMAE, PMC1CE, PMCjCE and
 * PMAO, and PMCC 0b00 or 0b01.
 */
#define MMCR0_DRIVER	(I207M_MMCR0_FC | I207M_MMCR0_PMAE | \
			 I207M_MMCR0_PMC1CE | I207M_MMCR0_PMCJCE | \
			 I207M_MMCR0_PMAO | I207M_MMCR0_FC14 | \
			 I207M_MMCR0_FC56 | \
			 i207m_put(I207M_MMCR0_PMCC, I207M_PMCC_NONE))

/* MMCR1's fields for PMC1-4: unit, combine, selector */
static u64 mmcr1_defined(void)
{
	u64 mask = 0;
	unsigned int n;

	for (n = 1; n <= 4; n++)
		mask |= I207M_MMCR1_UNIT(n) | I207M_MMCR1_COMB(n) |
			I207M_MMCR1_SEL(n);
	return mask;
}

/* MMCR2's freezes the driver may set: FCnS, FCnP, FCnH */
static u64 mmcr2_defined(void)
{
	u64 mask = 0;
	unsigned int n;

	for (n = 1; n <= I207M_NR_PMCS; n++)
		mask |= I207M_MMCR2_FCS(n) | I207M_MMCR2_FCP(n) |
			I207M_MMCR2_FCH(n);
	return mask;
}

static bool model_alert_enabled(const struct pc_isa207_model *m,
				unsigned int n);

/*
 * The alert's condition is a level: whenever PMAE is set and a PMC whose
 * condition is enabled reads negative, the alert is signalled.
 */
static void model_check_alert(struct pc_isa207_model *m)
{
	unsigned int n;

	for (n = 1; n <= I207M_NR_PMCS; n++) {
		if (!(m->pmc[n - 1] & I207M_PMC_MSB) ||
		    !model_alert_enabled(m, n))
			continue;
		m->mmcr0 = (m->mmcr0 & ~I207M_MMCR0_PMAE) | I207M_MMCR0_PMAO;
		m->pending = true;
		m->alerts++;
		return;
	}
}

static u64 *model_reg(struct pc_isa207_model *m, u32 spr)
{
	switch (spr) {
	case I207M_SPR_MMCR0:
		return &m->mmcr0;
	case I207M_SPR_MMCR1:
		return &m->mmcr1;
	case I207M_SPR_MMCR2:
		return &m->mmcr2;
	case I207M_SPR_MMCRA:
		return &m->mmcra;
	}
	if (spr >= I207M_SPR_PMC(1) && spr <= I207M_SPR_PMC(I207M_NR_PMCS))
		return &m->pmc[spr - I207M_SPR_PMC(1)];
	return NULL;
}

static u64 model_read(void *priv, u32 spr)
{
	struct pc_isa207_model *m = priv;
	u64 *reg = model_reg(m, spr);

	if (!reg) {
		m->faults++;
		return 0;
	}
	return *reg;
}

static void model_write(void *priv, u32 spr, u64 val)
{
	struct pc_isa207_model *m = priv;
	u64 *reg = model_reg(m, spr);
	u64 allowed = U32_MAX;

	if (spr == I207M_SPR_MMCR0)
		allowed = MMCR0_DRIVER;
	else if (spr == I207M_SPR_MMCR1)
		allowed = mmcr1_defined();
	else if (spr == I207M_SPR_MMCR2)
		allowed = mmcr2_defined();
	else if (spr == I207M_SPR_MMCRA)
		allowed = 0;
	if (!reg) {
		m->faults++;
		return;
	}
	/* kept, so that a case comparing the register sees the stray bit */
	if (val & ~allowed)
		m->faults++;
	*reg = val;
	model_check_alert(m);
}

/* Does PMC n (1-6) count @ev in @state now? */
static bool model_counts(const struct pc_isa207_model *m, unsigned int n,
			 enum pc_i207_event ev, enum pc_i207_state state)
{
	u64 frozen = 0;

	if (m->mmcr0 & I207M_MMCR0_FC)
		return false;
	if (m->mmcr0 & (n <= 4 ? I207M_MMCR0_FC14 : I207M_MMCR0_FC56))
		return false;
	switch (state) {
	case PC_I207_USER:
		frozen = (m->mmcr0 & I207M_MMCR0_FCP) |
			 (m->mmcr2 & I207M_MMCR2_FCP(n));
		break;
	case PC_I207_KERNEL:
		frozen = (m->mmcr0 & I207M_MMCR0_FCS) |
			 (m->mmcr2 & I207M_MMCR2_FCS(n));
		break;
	case PC_I207_HV:
		frozen = m->mmcr2 & I207M_MMCR2_FCH(n);
		break;
	}
	if (frozen)
		return false;
	if (n == 5)
		return ev == PC_I207_INSTR;
	if (n == 6)
		return ev == PC_I207_CYCLES;
	if (m->mmcr1 & (I207M_MMCR1_UNIT(n) | I207M_MMCR1_COMB(n)))
		return false;
	switch (i207m_get(m->mmcr1, I207M_MMCR1_SEL(n))) {
	case 0x1e:
		return ev == PC_I207_CYCLES;
	case 0x02:
		return ev == PC_I207_INSTR;
	}
	return false;
}

static bool model_alert_enabled(const struct pc_isa207_model *m,
				unsigned int n)
{
	if (!(m->mmcr0 & I207M_MMCR0_PMAE))
		return false;
	return m->mmcr0 & (n == 1 ? I207M_MMCR0_PMC1CE : I207M_MMCR0_PMCJCE);
}

/**
 * pc_isa207_model_run() - @n events of @ev happen in @state, and a PMC
 * left negative alerts if its condition is enabled
 * @m:		the model
 * @ev:		cycles or instructions
 * @n:		how many
 * @state:	problem, privileged or hypervisor state
 */
void pc_isa207_model_run(struct pc_isa207_model *m, enum pc_i207_event ev,
			 u32 n, enum pc_i207_state state)
{
	unsigned int i;

	for (i = 1; i <= I207M_NR_PMCS; i++)
		if (model_counts(m, i, ev, state))
			m->pmc[i - 1] = (u32)(m->pmc[i - 1] + n);
	model_check_alert(m);
}

/**
 * pc_isa207_model_deliver() - deliver a pending alert to the driver
 * @m:		the model
 *
 * Return: how many counters the handler found past bit 0, or -1 if no
 * alert was pending.
 */
int pc_isa207_model_deliver(struct pc_isa207_model *m)
{
	unsigned long flags;

	if (!m->pending)
		return -1;
	m->pending = false;
	/* irqs off, as the exception runs the handler */
	local_irq_save(flags);
	m->handled = pc_isa207_irq(&m->cpuc, NULL);
	local_irq_restore(flags);
	return m->handled;
}

/**
 * pc_isa207_model_new() - a POWER8 model in its reset state
 * @test:	the case it is for
 *
 * Return: the model, its PMCs frozen as the driver leaves them idle.
 */
struct pc_isa207_model *pc_isa207_model_new(struct kunit *test)
{
	struct pc_isa207_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->regs.read = model_read;
	m->regs.write = model_write;
	m->regs.priv = m;
	m->cpuc.pmu = &pc_power8_pmu.pmu;
	m->cpuc.regs = &m->regs;
	pc_isa207_quiesce(&m->cpuc);
	return m;
}
