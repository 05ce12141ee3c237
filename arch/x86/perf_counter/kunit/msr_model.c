// SPDX-License-Identifier: GPL-2.0
/*
 * The P6/AMD MSR model, see msr_model.h.
 */
#include <asm/apicdef.h>
#include <asm/irq_vectors.h>

#include "internal.h"
#include "msr_model.h"

#define ANY		0
#define CTR(n)		BIT(n)

/*
 * P6 (Intel SDM vol. 3B, appendix A, "Performance-Monitoring Events for
 * the P6 family"): CPU_CLK_UNHALTED, INST_RETIRED, L2_RQSTS with every
 * MESI state and with I (a miss), BR_INST_RETIRED, BR_MISS_PRED_RETIRED,
 * BUS_DRDY_CLOCKS; FP_COMP_OPS_EXE, FLOPS and CYCLES_DIV_BUSY count on
 * counter 0 only, FP_ASSIST, MUL and DIV on counter 1 only.
 */
static const struct pc_model_event pc_p6_events[] = {
	{ 0x79, 0x00, PC_KIND_CYCLES, ANY },
	{ 0xc0, 0x00, PC_KIND_INSTRUCTIONS, ANY },
	{ 0x2e, 0x0f, PC_KIND_L2_REQUESTS, ANY },
	{ 0x2e, 0x01, PC_KIND_L2_MISSES, ANY },
	{ 0xc4, 0x00, PC_KIND_BRANCHES, ANY },
	{ 0xc5, 0x00, PC_KIND_BRANCH_MISSES, ANY },
	{ 0x62, 0x00, PC_KIND_BUS_CYCLES, ANY },
	{ 0x10, 0x00, PC_KIND_FP_OPS, CTR(0) },
	{ 0xc1, 0x00, PC_KIND_FP_OPS, CTR(0) },
	{ 0x14, 0x00, PC_KIND_DIV_BUSY, CTR(0) },
	{ 0x11, 0x00, PC_KIND_FP_ASSISTS, CTR(1) },
	{ 0x12, 0x00, PC_KIND_MULS, CTR(1) },
	{ 0x13, 0x00, PC_KIND_DIVS, CTR(1) },
};

/*
 * K7, K8 and family 10h (AMD Athlon code optimization guide 22007,
 * "Performance-Monitoring Counters"; BKDG 26094 chapter 10; BKDG 31116,
 * "Performance Counter Events"): data cache accesses (40h) and misses
 * (41h), cycles not halted (76h), retired instructions (C0h), branches
 * (C2h) and mispredicted branches (C3h), on any counter.
 */
static const struct pc_model_event pc_k7_events[] = {
	{ 0x040, 0x00, PC_KIND_L1D_ACCESSES, ANY },
	{ 0x041, 0x00, PC_KIND_L1D_MISSES, ANY },
	{ 0x076, 0x00, PC_KIND_CYCLES, ANY },
	{ 0x0c0, 0x00, PC_KIND_INSTRUCTIONS, ANY },
	{ 0x0c2, 0x00, PC_KIND_BRANCHES, ANY },
	{ 0x0c3, 0x00, PC_KIND_BRANCH_MISSES, ANY },
};

/*
 * Family 15h (BKDG 42301, section 3.24, each event with the PERF_CTL
 * counters that count it): CPU clocks not halted (076h) on PERF_CTL[2:0]
 * only; data cache accesses and misses, retired instructions, branches
 * and mispredicted branches on any; dispatched FPU ops (000h) on
 * PERF_CTL[5:3], and on PERF_CTL[3] alone when the unit mask selects
 * single- and dual-pipe ops together.
 */
static const struct pc_model_event pc_f15h_events[] = {
	{ 0x040, 0x00, PC_KIND_L1D_ACCESSES, ANY },
	{ 0x041, 0x00, PC_KIND_L1D_MISSES, ANY },
	{ 0x076, 0x00, PC_KIND_CYCLES, CTR(0) | CTR(1) | CTR(2) },
	{ 0x0c0, 0x00, PC_KIND_INSTRUCTIONS, ANY },
	{ 0x0c2, 0x00, PC_KIND_BRANCHES, ANY },
	{ 0x0c3, 0x00, PC_KIND_BRANCH_MISSES, ANY },
	{ 0x000, 0x01, PC_KIND_FP_OPS, CTR(3) | CTR(4) | CTR(5) },
	{ 0x000, 0x11, PC_KIND_FP_OPS, CTR(3) },
};

/*
 * Families 17h and 19h (PPR 54945 and 55898, core performance events):
 * LsNotHaltedCyc (076h), ExRetInstr (0C0h), ExRetBrn (0C2h),
 * ExRetBrnMisp (0C3h), LsDcAccesses (040h), L2RequestG1 (060h, every
 * unit mask bit: all L2 requests), L2CacheReqStat (064h) with IcFillMiss
 * and LsRdBlkC (09h: the L2 misses), on any counter. 041h counts MAB
 * allocations here, no kind the model has.
 */
static const struct pc_model_event pc_zen_events[] = {
	{ 0x040, 0x00, PC_KIND_L1D_ACCESSES, ANY },
	{ 0x060, 0xff, PC_KIND_L2_REQUESTS, ANY },
	{ 0x064, 0x09, PC_KIND_L2_MISSES, ANY },
	{ 0x076, 0x00, PC_KIND_CYCLES, ANY },
	{ 0x0c0, 0x00, PC_KIND_INSTRUCTIONS, ANY },
	{ 0x0c2, 0x00, PC_KIND_BRANCHES, ANY },
	{ 0x0c3, 0x00, PC_KIND_BRANCH_MISSES, ANY },
};

#define PC_PART_EVENTS(e)	.events = e, .nr_events = ARRAY_SIZE(e)

const struct pc_model_part pc_model_p6 = {
	.name = "P6", .p6 = true, .nr_legacy = 2, PC_PART_EVENTS(pc_p6_events),
};

const struct pc_model_part pc_model_k7 = {
	.name = "K7", .nr_legacy = 4, PC_PART_EVENTS(pc_k7_events),
};

const struct pc_model_part pc_model_k8 = {
	.name = "K8", .nr_legacy = 4, PC_PART_EVENTS(pc_k7_events),
};

const struct pc_model_part pc_model_f10h = {
	.name = "family 10h", .nr_legacy = 4, .event_hi = true,
	PC_PART_EVENTS(pc_k7_events),
};

const struct pc_model_part pc_model_f15h = {
	.name = "family 15h", .nr_legacy = 4, .nr_core = 6, .event_hi = true,
	PC_PART_EVENTS(pc_f15h_events),
};

const struct pc_model_part pc_model_zen = {
	.name = "family 17h", .nr_legacy = 4, .nr_core = 6, .event_hi = true,
	PC_PART_EVENTS(pc_zen_events),
};

const struct pc_model_part pc_model_zen4 = {
	.name = "Zen 4", .nr_legacy = 4, .nr_core = 6, .event_hi = true,
	.perfmon_v2 = true, PC_PART_EVENTS(pc_zen_events),
};

static unsigned int pc_model_nr(const struct pc_msr_model *m)
{
	return m->part->nr_core ?: m->part->nr_legacy;
}

static u64 pc_model_width_mask(const struct pc_msr_model *m)
{
	return GENMASK_ULL(m->p6 ? 39 : 47, 0);
}

/*
 * Which counter @msr is of, in *@idx, and whether it is the control
 * register (else the counter): the legacy MSRs, and on AMD parts with
 * core counters their MSRs too, the legacy ones aliases of the first
 * four. False if @msr is neither.
 */
static bool pc_model_reg(const struct pc_msr_model *m, u32 msr, int *idx,
			 bool *ctl)
{
	const struct pc_model_part *part = m->part;
	u32 ctr0 = part->p6 ? MSRM_P6_PERFCTR0 : MSRM_AMD_PERFCTR0;
	u32 sel0 = part->p6 ? MSRM_P6_EVNTSEL0 : MSRM_AMD_EVNTSEL0;

	if (msr >= ctr0 && msr < ctr0 + part->nr_legacy) {
		*idx = msr - ctr0;
		*ctl = false;
		return true;
	}
	if (msr >= sel0 && msr < sel0 + part->nr_legacy) {
		*idx = msr - sel0;
		*ctl = true;
		return true;
	}
	if (msr >= MSRM_AMD_PERF_CTL(0) &&
	    msr < MSRM_AMD_PERF_CTL(part->nr_core)) {
		*idx = (msr - MSRM_AMD_PERF_CTL(0)) / 2;
		*ctl = msr == MSRM_AMD_PERF_CTL(*idx);
		return true;
	}
	return false;
}

static bool pc_model_global(const struct pc_msr_model *m, u32 msr)
{
	return m->part->perfmon_v2 &&
	       (msr == MSRM_AMD_GLOBAL_CTL || msr == MSRM_AMD_GLOBAL_STATUS ||
		msr == MSRM_AMD_GLOBAL_STATUS_CLR);
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
	bool ctl;
	u64 val;

	pc_model_handler_runs(m);
	if (pc_model_global(m, msr)) {
		if (msr == MSRM_AMD_GLOBAL_STATUS_CLR)
			m->faults++;		/* write-only */
		return msr == MSRM_AMD_GLOBAL_CTL ? m->global_ctl :
						    m->global_status;
	}
	if (!pc_model_reg(m, msr, &idx, &ctl)) {
		m->faults++;
		return 0;
	}
	if (ctl)
		return m->sel[idx];
	val = m->ctr[idx];
	if (hook) {
		m->in_read = NULL;
		hook(m);
	}
	return val;
}

/* The EVNTSEL bits this model reserves for counter @idx. */
static u64 pc_model_reserved(const struct pc_msr_model *m, int idx)
{
	u64 ok = MSRM_EVNTSEL_EVENT | MSRM_EVNTSEL_UMASK | MSRM_EVNTSEL_USR |
		 MSRM_EVNTSEL_OS | MSRM_EVNTSEL_EDGE | MSRM_EVNTSEL_INT |
		 MSRM_EVNTSEL_INV | MSRM_EVNTSEL_CMASK;

	/* pin control: the drivers leave the PMi pins alone */
	if (!m->p6 || idx == 0)
		ok |= MSRM_EVNTSEL_EN;
	if (m->part->event_hi)
		ok |= MSRM_EVNTSEL_EVENT_HI;
	return ~ok;
}

static void pc_model_write(void *priv, u32 msr, u64 val)
{
	struct pc_msr_model *m = priv;
	int idx;
	bool ctl;

	pc_model_handler_runs(m);
	if (pc_model_global(m, msr)) {
		/* one bit a core counter; the rest reserved here */
		if ((val & ~(MSRM_AMD_GLOBAL_CTR(m->part->nr_core) - 1)) ||
		    msr == MSRM_AMD_GLOBAL_STATUS)	/* read-only */
			m->faults++;
		else if (msr == MSRM_AMD_GLOBAL_STATUS_CLR)
			m->global_status &= ~val;
		else
			m->global_ctl = val;
		return;
	}
	if (!pc_model_reg(m, msr, &idx, &ctl)) {
		m->faults++;
		return;
	}
	if (ctl) {
		if (val & pc_model_reserved(m, idx))
			m->faults++;
		m->sel[idx] = val;
		return;
	}
	if (m->p6) {
		/* EAX only; bit 31 fills bits 39..32 */
		val &= 0xffffffffULL;
		if (val & BIT_ULL(31))
			val |= GENMASK_ULL(39, 32);
	} else if (val & ~pc_model_width_mask(m)) {
		m->faults++;
	}
	m->ctr[idx] = val & pc_model_width_mask(m);
}

static bool pc_model_has(const struct pc_msr_model *m, u32 msr)
{
	int idx;
	bool ctl;

	return pc_model_global(m, msr) || pc_model_reg(m, msr, &idx, &ctl);
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
	u64 mode = user ? MSRM_EVNTSEL_USR : MSRM_EVNTSEL_OS;
	u64 en = m->p6 ? m->sel[0] : m->sel[idx];

	/* PerfMonV2: PerfCntrGlobalCtl's bit as well as PERF_CTL's */
	if (m->part->perfmon_v2 && !(m->global_ctl & MSRM_AMD_GLOBAL_CTR(idx)))
		return false;
	return (en & MSRM_EVNTSEL_EN) && (m->sel[idx] & mode);
}

/* What counter @idx's event counts of @w on this part. */
static u64 pc_model_counted(const struct pc_msr_model *m, int idx,
			    const struct pc_model_work *w)
{
	const struct pc_model_part *part = m->part;
	u64 sel = m->sel[idx];
	u16 event = FIELD_GET(MSRM_EVNTSEL_EVENT, sel);
	u8 umask = FIELD_GET(MSRM_EVNTSEL_UMASK, sel);
	unsigned int i;

	if (part->event_hi)
		event |= FIELD_GET(MSRM_EVNTSEL_EVENT_HI, sel) << 8;
	/* what edge, invert and a threshold make of a count is not modelled */
	if (sel & (MSRM_EVNTSEL_EDGE | MSRM_EVNTSEL_INV | MSRM_EVNTSEL_CMASK))
		return 0;
	for (i = 0; i < part->nr_events; i++) {
		const struct pc_model_event *e = &part->events[i];

		if (e->event != event || e->umask != umask)
			continue;
		if (e->counters && !(e->counters & BIT(idx)))
			return 0;
		return w->n[e->kind];
	}
	return 0;
}

/**
 * pc_msr_model_work() - a workload runs in user or kernel mode
 * @m:		the model
 * @w:		how many of each kind happen; each counter wraps at most
 *		once per call
 * @user:	user mode (else kernel mode)
 */
void pc_msr_model_work(struct pc_msr_model *m, const struct pc_model_work *w,
		       bool user)
{
	u64 mask = pc_model_width_mask(m);
	unsigned int idx;

	for (idx = 0; idx < pc_model_nr(m); idx++) {
		u64 next, delta;

		if (!pc_model_counts(m, idx, user))
			continue;
		delta = pc_model_counted(m, idx, w);
		m->counted[idx] += delta;
		next = m->ctr[idx] + delta;
		/* PerfMonV2: a wrap sets its sticky status bit */
		if (next > mask && m->part->perfmon_v2)
			m->global_status |= MSRM_AMD_GLOBAL_CTR(idx);
		if (next > mask && (m->sel[idx] & MSRM_EVNTSEL_INT)) {
			if (m->lvtpc & APIC_LVT_MASKED)
				m->pmis_lost++;
			else
				m->pending |= BIT(idx);
		}
		m->ctr[idx] = next & mask;
	}
}

/**
 * pc_msr_model_run() - @events events of every kind happen
 * @m:		the model
 * @events:	how many; each counter wraps at most once per call
 * @user:	user mode (else kernel mode)
 */
void pc_msr_model_run(struct pc_msr_model *m, u64 events, bool user)
{
	struct pc_model_work w;
	unsigned int kind;

	for (kind = 0; kind < PC_KINDS; kind++)
		w.n[kind] = events;
	pc_msr_model_work(m, &w, user);
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
 * The driver's entry as an interrupt runs it: irqs off (what the
 * overflow paths assert), whatever the test's own context.
 */
static int pc_model_pmi(struct pc_hw_cpu *cpuc, struct pt_regs *regs)
{
	unsigned long flags;
	int handled;

	local_irq_save(flags);
	handled = pc_x86_pmi(cpuc, regs);
	local_irq_restore(flags);
	return handled;
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
	m->handled = pc_model_pmi(&m->cpuc, regs);
	if (!m->handled)
		m->unclaimed++;
	return m->handled;
}

/**
 * pc_msr_model_service() - deliver a raised overflow interrupt
 * @m:		the model, whose @irq_regs (NULL unless a test sets them) the
 *		interrupt finds
 *
 * Return: what the driver's handler reported, or 0 if nothing was
 * pending.
 */
int pc_msr_model_service(struct pc_msr_model *m)
{
	if (!m->pending)
		return 0;
	return pc_model_deliver(m, m->irq_regs);
}

/**
 * pc_msr_model_nmi() - an NMI the counters did not raise
 * @m:		the model
 *
 * Return: what the driver's handler reported.
 */
int pc_msr_model_nmi(struct pc_msr_model *m)
{
	return pc_model_pmi(&m->cpuc, NULL);
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

/**
 * pc_msr_model_new_part() - a model of @part, for driver @p
 * @test:	the test
 * @p:		the driver to run on it
 * @part:	the part
 *
 * Return: the model, its registers all 0 (PerfCntrGlobalCtl too: as a
 * hypervisor starts it, and as 6.1's perf_events leaves it).
 */
struct pc_msr_model *pc_msr_model_new_part(struct kunit *test,
					   const struct pc_evntsel_pmu *p,
					   const struct pc_model_part *part)
{
	struct pc_msr_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->p = p;
	m->part = part;
	m->p6 = part->p6;
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

/**
 * pc_msr_model_new() - a model of the part driver @p is for
 * @test:	the test
 * @p:		the driver
 *
 * Return: the model.
 */
struct pc_msr_model *pc_msr_model_new(struct kunit *test,
				      const struct pc_evntsel_pmu *p)
{
	static const struct {
		const struct pc_evntsel_pmu	*p;
		const struct pc_model_part	*part;
	} parts[] = {
		{ &pc_p6_pmu, &pc_model_p6 },
		{ &pc_k7_pmu, &pc_model_k7 },
		{ &pc_k8_pmu, &pc_model_k8 },
		{ &pc_k10_pmu, &pc_model_f10h },
		{ &pc_f15h_pmu, &pc_model_f15h },
		{ &pc_zen_pmu, &pc_model_zen },
		{ &pc_zen4_pmu, &pc_model_zen4 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i].p == p)
			return pc_msr_model_new_part(test, p, parts[i].part);
	KUNIT_ASSERT_TRUE_MSG(test, false, "no model part for %s",
			      p->x86.pmu.name);
	return NULL;
}
