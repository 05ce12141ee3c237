// SPDX-License-Identifier: GPL-2.0
/*
 * The ISA 2.07 performance monitor model: see isa207_model.h.
 */
#include <linux/bits.h>

#include "isa207_model.h"

/* What the driver may set in each control register. */
#define MMCR0_DRIVER	(PC_MMCR0_8_FC | PC_MMCR0_8_PMAE | \
			 PC_MMCR0_8_PMC1CE | PC_MMCR0_8_PMCJCE | \
			 PC_MMCR0_8_PMAO | PC_MMCR0_8_FC14 | PC_MMCR0_8_FC56 | \
			 PC_MMCR0_8_PMCC_NONE)
#define MMCR1_DEFINED	(GENMASK_ULL(63, 48) | GENMASK_ULL(35, 0))

static u64 mmcr2_defined(void)
{
	u64 mask = 0;
	unsigned int n;

	for (n = 1; n <= PC_ISA207_NR_PMCS; n++)
		mask |= PC_MMCR2_FCS(n) | PC_MMCR2_FCP(n) | PC_MMCR2_FCH(n);
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

	for (n = 1; n <= PC_ISA207_NR_PMCS; n++) {
		if (!(m->pmc[n - 1] & PC_ISA207_OVERFLOW) ||
		    !model_alert_enabled(m, n))
			continue;
		m->mmcr0 = (m->mmcr0 & ~PC_MMCR0_8_PMAE) | PC_MMCR0_8_PMAO;
		m->pending = true;
		m->alerts++;
		return;
	}
}

static u64 *model_reg(struct pc_isa207_model *m, u32 spr)
{
	switch (spr) {
	case PC_SPR8_MMCR0:
		return &m->mmcr0;
	case PC_SPR8_MMCR1:
		return &m->mmcr1;
	case PC_SPR8_MMCR2:
		return &m->mmcr2;
	case PC_SPR8_MMCRA:
		return &m->mmcra;
	}
	if (spr >= PC_SPR8_PMC1 && spr < PC_SPR8_PMC1 + PC_ISA207_NR_PMCS)
		return &m->pmc[spr - PC_SPR8_PMC1];
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

	if (spr == PC_SPR8_MMCR0)
		allowed = MMCR0_DRIVER;
	else if (spr == PC_SPR8_MMCR1)
		allowed = MMCR1_DEFINED;
	else if (spr == PC_SPR8_MMCR2)
		allowed = mmcr2_defined();
	else if (spr == PC_SPR8_MMCRA)
		allowed = 0;
	if (!reg || (val & ~allowed)) {
		m->faults++;
		return;
	}
	*reg = val;
	model_check_alert(m);
}

/* Does PMC n (1-6) count @ev in @state now? */
static bool model_counts(const struct pc_isa207_model *m, unsigned int n,
			 enum pc_i207_event ev, enum pc_i207_state state)
{
	u64 frozen = 0;

	if (m->mmcr0 & PC_MMCR0_8_FC)
		return false;
	if (m->mmcr0 & (n <= 4 ? PC_MMCR0_8_FC14 : PC_MMCR0_8_FC56))
		return false;
	switch (state) {
	case PC_I207_USER:
		frozen = (m->mmcr0 & PC_MMCR0_8_FCP) |
			 (m->mmcr2 & PC_MMCR2_FCP(n));
		break;
	case PC_I207_KERNEL:
		frozen = (m->mmcr0 & PC_MMCR0_8_FCS) |
			 (m->mmcr2 & PC_MMCR2_FCS(n));
		break;
	case PC_I207_HV:
		frozen = m->mmcr2 & PC_MMCR2_FCH(n);
		break;
	}
	if (frozen)
		return false;
	if (n == 5)
		return ev == PC_I207_INSTR;
	if (n == 6)
		return ev == PC_I207_CYCLES;
	if ((m->mmcr1 >> PC_MMCR1_UNIT_SHIFT(n)) & 0xf ||
	    (m->mmcr1 >> PC_MMCR1_COMB_SHIFT(n)) & 1)
		return false;
	switch ((m->mmcr1 >> PC_MMCR1_SEL_SHIFT(n)) & 0xff) {
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
	if (!(m->mmcr0 & PC_MMCR0_8_PMAE))
		return false;
	return m->mmcr0 & (n == 1 ? PC_MMCR0_8_PMC1CE : PC_MMCR0_8_PMCJCE);
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

	for (i = 1; i <= PC_ISA207_NR_PMCS; i++)
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
	if (!m->pending)
		return -1;
	m->pending = false;
	m->handled = pc_isa207_irq(&m->cpuc, NULL);
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
