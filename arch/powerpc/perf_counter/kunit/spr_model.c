// SPDX-License-Identifier: GPL-2.0
/*
 * The PowerPC performance monitor SPR model, see spr_model.h.
 */
#include <linux/irqflags.h>

#include "spr_model.h"

/* MMCR1's selector fields: PMC3-4 on every part with MMCR1, 5-6 on 745x. */
#define MODEL_MMCR1_PMC3_4	(SPRM_MMCR1_PMC3SEL | SPRM_MMCR1_PMC4SEL)
#define MODEL_MMCR1_PMC3_6	(MODEL_MMCR1_PMC3_4 | SPRM_MMCR1_PMC5SEL | \
				 SPRM_MMCR1_PMC6SEL)

/*
 * MMCR0 controls the model does not implement, which the driver must
 * leave clear: FCM1/FCM0 (freeze by MSR[PMM], a mark the kernel never
 * sets), FCECE and TRIGGER (they make the processor change MMCR0 behind
 * the driver: perfctr's low-level notes, "MMCR0 can change asynchronously"), TBSEL and
 * TBEE (time base conditions). The manuals define every MMCR0 bit, so
 * none is reserved there as such (MPC7400 UM Table 2-7; the MMCR0 tables
 * of the 604 and 750GX/GL user's manuals).
 */
#define MODEL_MMCR0_REFUSED	(SPRM_MMCR0_FCM1 | SPRM_MMCR0_FCM0 | \
				 SPRM_MMCR0_FCECE | SPRM_MMCR0_TBSEL | \
				 SPRM_MMCR0_TBEE | SPRM_MMCR0_TRIGGER)

#define P(n)		BIT((n) - 1)
#define P1_4		(P(1) | P(2) | P(3) | P(4))
#define P1_6		(P1_4 | P(5) | P(6))
#define EV(e)		PC_SPR_EV(e)

/* A selector, the PMCs where it means something the model runs, and what. */
struct model_sel {
	u8	pmcs;
	u8	sel;
	u8	counts;
};

/*
 * PowerPC 604 and 604e (IBM PowerPC 604 RISC Microprocessor User's
 * Manual, Table 9-2 for PMC1 and Table 9-3 for PMC2): 1 cycles, 2
 * instructions completed, 4 instructions dispatched; PMC1 7 branches
 * incorrectly predicted; PMC2 6 data cache misses (line fills), 8
 * branches completed. The 604e's PMC3 and PMC4 are modelled with
 * selectors 1, 2 and 4 only (the PowerPC 604e User's Manual's tables
 * for them were not at hand).
 */
static const struct model_sel model_604[] = {
	{ P1_4, 1, EV(CYCLES) },
	{ P1_4, 2, EV(INSTR_DONE) },
	{ P1_4, 4, EV(INSTR_DISP) },
	{ P(1), 7, EV(BR_MISPRED) },
	{ P(2), 6, PC_SPR_L1D_MISSES },
	{ P(2), 8, PC_SPR_BRANCHES },
	{ }
};

/*
 * PowerPC 750 (IBM PowerPC 750GX/GL User's Manual, Tables 11-2 to 11-5,
 * PMC1-PMC4 select encodings): 1, 2, 4 as above on every PMC; PMC2 8
 * branches predicted or resolved not taken; PMC3 5 L1 data cache
 * misses, 8 predicted branches that were taken; PMC4 8 mispredicted
 * branches.
 */
static const struct model_sel model_750[] = {
	{ P1_4, 1, EV(CYCLES) },
	{ P1_4, 2, EV(INSTR_DONE) },
	{ P1_4, 4, EV(INSTR_DISP) },
	{ P(2), 8, EV(BR_NOT_TAKEN) },
	{ P(3), 5, PC_SPR_L1D_MISSES },
	{ P(3), 8, EV(BR_TAKEN) },
	{ P(4), 8, EV(BR_MISPRED) },
	{ }
};

/*
 * MPC7400 (MPC7400 RISC Microprocessor User's Manual, 11.5, Tables 11-8
 * to 11-11): 1, 2, 4 as above on every PMC; PMC2 5 fall-through
 * branches, 15 dL1 load misses; PMC3 5 branches taken; PMC4 5
 * mispredicted branches.
 */
static const struct model_sel model_7400[] = {
	{ P1_4, 1, EV(CYCLES) },
	{ P1_4, 2, EV(INSTR_DONE) },
	{ P1_4, 4, EV(INSTR_DISP) },
	{ P(2), 5, EV(BR_NOT_TAKEN) },
	{ P(2), 15, EV(L1D_LOAD_MISS) },
	{ P(3), 5, EV(BR_TAKEN) },
	{ P(4), 5, EV(BR_MISPRED) },
	{ }
};

/*
 * MPC7450 family (MPC7450 RISC Microprocessor Family Reference Manual,
 * chapter 11, event selection; the codes as Linux 6.1's
 * arch/powerpc/perf/mpc7450-pmu.c lists them): 1 cycles on every PMC, 2
 * instructions completed on PMC1-4, 0x17 L1 data cache misses on PMC2
 * and PMC3, 0x22 branches completed on PMC1, 0x1c mispredicted branches
 * on PMC4.
 */
static const struct model_sel model_7450[] = {
	{ P1_6, 1, EV(CYCLES) },
	{ P1_4, 2, EV(INSTR_DONE) },
	{ P(2) | P(3), 0x17, PC_SPR_L1D_MISSES },
	{ P(1), 0x22, PC_SPR_BRANCHES },
	{ P(4), 0x1c, EV(BR_MISPRED) },
	{ }
};

/*
 * Each part as its manual has it, not as the driver's descriptor says:
 * its PMCs (PMC3-4, with MMCR1, from the 604e; PMC5-6 on the 745x),
 * whether it has MMCR2 (7400 and 745x), and what its selectors count.
 */
struct model_part {
	const struct pc_ppc_pmu	*p;	/* the driver for it */
	unsigned int		nr_pmcs;
	bool			mmcr2;
	const struct model_sel	*sels;
};

static const struct model_part model_parts[] = {
	{ &pc_ppc604_pmu, 2, false, model_604 },	/* 604 UM chapter 9 */
	{ &pc_ppc604e_pmu, 4, false, model_604 },
	{ &pc_ppc750_pmu, 4, false, model_750 },	/* 750GX UM chapter 11 */
	{ &pc_ppc7400_pmu, 4, true, model_7400 },	/* 7400 UM chapter 11 */
	{ &pc_ppc7450_pmu, 6, true, model_7450 },	/* 7450 RM chapter 11 */
};

static const struct model_part *model_part_of(const struct pc_ppc_pmu *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(model_parts); i++)
		if (model_parts[i].p == p)
			return &model_parts[i];
	return NULL;
}

/**
 * pc_spr_model_means() - what a selector counts on a PMC of a part
 * @p:		the part's driver descriptor (it names the part)
 * @pmc:	0 for PMC1 ... 5 for PMC6
 * @sel:	the selector
 *
 * Return: the PC_SPR_EV() bits it counts; 0 for selector 0 (the PMC
 * holds), for a PMC the part does not have, and for every selector the
 * model does not know on that PMC.
 */
unsigned long pc_spr_model_means(const struct pc_ppc_pmu *p,
				 unsigned int pmc, u32 sel)
{
	const struct model_part *part = model_part_of(p);
	const struct model_sel *t;

	if (!part || pmc >= part->nr_pmcs)
		return 0;
	for (t = part->sels; t->counts; t++)
		if (t->sel == sel && (t->pmcs & BIT(pmc)))
			return t->counts;
	return 0;
}

static int model_pmc(const struct pc_spr_model *m, u32 spr)
{
	static const u16 pmc[] = {
		SPRM_PMC1, SPRM_PMC2, SPRM_PMC3, SPRM_PMC4, SPRM_PMC5, SPRM_PMC6,
	};
	unsigned int i;

	for (i = 0; i < m->nr_pmcs; i++)
		if (pmc[i] == spr)
			return i;
	return -1;
}

static bool model_has_mmcr1(const struct pc_spr_model *m)
{
	return m->nr_pmcs > 2;
}

/**
 * pc_spr_model_sel() - a PMC's selector, where the manuals put it
 * @m:		the model
 * @pmc:	0 for PMC1 ... 5 for PMC6
 *
 * PMC1 MMCR0 19-25, PMC2 MMCR0 26-31, PMC3 MMCR1 0-4, PMC4 5-9, PMC5
 * 10-14, PMC6 15-20 (sprm_sel_field()).
 *
 * Return: the selector.
 */
u32 pc_spr_model_sel(const struct pc_spr_model *m, unsigned int pmc)
{
	u32 spr, field = sprm_sel_field(pmc, &spr);
	u32 reg = spr == SPRM_MMCR0 ? m->mmcr0 : m->mmcr1;

	return (reg & field) >> __ffs(field);
}

/*
 * Level-sensitive: signal whenever PMXE is set and an enabled PMC is
 * negative, however it got there — a count, or an mtspr of a negative
 * value: "Setting an overflowed value may cause an erroneous exception"
 * (MPC7400 UM 2.1.3.1.1); the 750's is "(PMCnINTCONTROL = 1) & (PMCn[0]
 * = 1) & (ENINT = 1)" (750GX UM, MMCR0[DISCOUNT]). The processor clears
 * PMXE as it signals (MPC7400 UM Table 2-7).
 */
static void model_check_signal(struct pc_spr_model *m)
{
	bool cond = false;
	unsigned int i;

	if (!(m->mmcr0 & SPRM_MMCR0_PMXE))
		return;
	for (i = 0; i < m->nr_pmcs; i++) {
		u32 ce = i ? SPRM_MMCR0_PMCJCE : SPRM_MMCR0_PMC1CE;

		if ((m->mmcr0 & ce) && (m->pmc[i] & SPRM_PMC_OVERFLOW))
			cond = true;
	}
	if (!cond)
		return;
	m->mmcr0 &= ~SPRM_MMCR0_PMXE;
	/* a signal while one is pending is the same interrupt */
	if (!m->pending)
		m->signals++;
	m->pending = true;
}

static void model_run_all(struct pc_spr_model *m, u32 events, bool user)
{
	unsigned int ev;

	for (ev = 0; ev < PC_SPR_NR_EVENTS; ev++)
		pc_spr_model_count(m, ev, events, user);
}

/* Inside the handler, time passes at every register access. */
static void model_handler_runs(struct pc_spr_model *m)
{
	if (m->in_handler && m->handler_events)
		model_run_all(m, m->handler_events, false);
}

static u64 model_read(void *priv, u32 spr)
{
	struct pc_spr_model *m = priv;
	int i;

	model_handler_runs(m);
	i = model_pmc(m, spr);
	if (i >= 0)
		return m->pmc[i];
	if (spr == SPRM_MMCR0)
		return m->mmcr0;
	if (spr == SPRM_MMCR1 && model_has_mmcr1(m))
		return m->mmcr1;
	if (spr == SPRM_MMCR2 && m->has_mmcr2)
		return m->mmcr2;
	m->faults++;
	return 0;
}

static void model_write(void *priv, u32 spr, u64 val)
{
	struct pc_spr_model *m = priv;
	u32 mmcr1_ok = m->nr_pmcs > 4 ? MODEL_MMCR1_PMC3_6 : MODEL_MMCR1_PMC3_4;
	int i;

	model_handler_runs(m);
	i = model_pmc(m, spr);
	if (val >> 32)
		m->faults++;
	if (i >= 0) {
		m->pmc[i] = val;
	} else if (spr == SPRM_MMCR0) {
		if (val & MODEL_MMCR0_REFUSED)
			m->faults++;
		m->mmcr0 = val;
	} else if (spr == SPRM_MMCR1 && model_has_mmcr1(m)) {
		/* MPC7400 UM Table 11-4: MMCR1 10-31 reserved */
		if (val & ~(u64)mmcr1_ok)
			m->faults++;
		m->mmcr1 = val;
	} else if (spr == SPRM_MMCR2 && m->has_mmcr2) {
		/* MPC7400 UM Table 11-5: only THRESHMULT is ours */
		if (val & ~(u64)SPRM_MMCR2_THRESHMULT)
			m->faults++;
		m->mmcr2 = val;
	} else {
		m->faults++;
		return;
	}
	model_check_signal(m);
}

/**
 * pc_spr_model_count() - @n events of one kind happen
 * @m:		the model
 * @ev:		what happens
 * @n:		how many; under 2^31, so a PMC crosses bit 0 at most once
 * @user:	problem state (else supervisor)
 *
 * Each PMC whose selector means @ev on it counts them, unless frozen.
 */
void pc_spr_model_count(struct pc_spr_model *m, enum pc_spr_event ev,
			u32 n, bool user)
{
	unsigned int i;

	if (m->mmcr0 & SPRM_MMCR0_FC)
		return;
	if (m->mmcr0 & (user ? SPRM_MMCR0_FCP : SPRM_MMCR0_FCS))
		return;
	for (i = 0; i < m->nr_pmcs; i++) {
		if (!(pc_spr_model_means(m->p, i, pc_spr_model_sel(m, i)) &
		      BIT(ev)))
			continue;
		m->pmc[i] += n;
		m->counted[i] += n;
	}
	model_check_signal(m);
}

/**
 * pc_spr_model_run() - @events events of every kind happen
 * @m:		the model
 * @events:	how many of each; under 2^31 / 3 (a selector counting
 *		three kinds crosses bit 0 at most once)
 * @user:	problem state (else supervisor)
 */
void pc_spr_model_run(struct pc_spr_model *m, u32 events, bool user)
{
	model_run_all(m, events, user);
}

/*
 * Take the pending exception: the handler runs, the PMCs counting, irqs
 * off as the exception runs it (what the overflow paths assert).
 */
static void model_deliver(struct pc_spr_model *m)
{
	unsigned long flags;

	m->pending = false;
	m->in_handler = true;
	local_irq_save(flags);
	m->handled = m->handler(&m->cpuc, m->irq_regs);
	local_irq_restore(flags);
	m->in_handler = false;
	/* and on its way out, after it let the PMCs go */
	if (m->handler_events)
		model_run_all(m, m->handler_events, false);
}

/**
 * pc_spr_model_service() - deliver a pending exception to the handler
 * @m:		the model
 *
 * Return: how many counters the handler found wrapped, or -1 if nothing
 * was pending.
 */
int pc_spr_model_service(struct pc_spr_model *m)
{
	if (!m->pending)
		return -1;
	model_deliver(m);
	return m->handled;
}

/**
 * pc_spr_model_storm() - deliver the exception as long as it is raised
 * @m:		the model
 * @max:	the most deliveries
 *
 * Return: how many were delivered; @max if it did not stop.
 */
unsigned int pc_spr_model_storm(struct pc_spr_model *m, unsigned int max)
{
	unsigned int n = 0;

	while (m->pending && n < max) {
		model_deliver(m);
		n++;
	}
	return n;
}

/**
 * pc_spr_model_new() - a model of the part driver @p is for
 * @test:	the test, which owns it
 * @p:		the driver
 *
 * Return: the model, MMCR0 with FC set and the rest 0; its PMCs and
 * MMCR2 as the part's manual has them (@nr_pmcs, @has_mmcr2).
 */
struct pc_spr_model *pc_spr_model_new(struct kunit *test,
				      const struct pc_ppc_pmu *p)
{
	struct pc_spr_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	const struct model_part *part = model_part_of(p);

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL_MSG(test, part, "no model part for %s",
				  p->pmu.name);
	m->p = p;
	m->nr_pmcs = part->nr_pmcs;
	m->has_mmcr2 = part->mmcr2;
	m->mmcr0 = SPRM_MMCR0_FC;
	m->handler = pc_ppc_irq;
	m->regs.read = model_read;
	m->regs.write = model_write;
	m->regs.priv = m;
	m->cpuc.pmu = &p->pmu;
	m->cpuc.regs = &m->regs;
	return m;
}
