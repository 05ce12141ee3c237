// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on 32-bit PowerPC: choosing the model from the PVR at
 * boot, checking that its PMCs count, the SPR accessors, and the
 * performance monitor exception.
 *
 * The PMCs are reserved with reserve_pmc_hardware() while any hardware
 * counter exists, which makes our handler the one the exception calls;
 * perf_events does the same, so whichever subsystem comes second gets
 * EBUSY. The exception is an ordinary interrupt here, masked with
 * MSR[EE]: the handler never runs while the counters are being
 * switched.
 */
#include <linux/bitfield.h>
#include <linux/cache.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/perf_counter_hw.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/time64.h>
#include <asm/pmc.h>
#include <asm/reg.h>

#include "mmcr.h"
#include "mmcr_regs.h"

static const struct pc_ppc_pmu *const pc_ppc_models[] = {
	&pc_ppc604_pmu, &pc_ppc604e_pmu, &pc_ppc750_pmu,
	&pc_ppc7400_pmu, &pc_ppc7450_pmu,
};

/* mfspr and mtspr take the SPR number as an immediate. */
static u64 pc_ppc_mfspr(void *priv, u32 spr)
{
	switch (spr) {
	case SPRN_MMCR0:
		return mfspr(SPRN_MMCR0);
	case SPRN_MMCR1:
		return mfspr(SPRN_MMCR1);
	case SPRN_MMCR2:
		return mfspr(SPRN_MMCR2);
	case SPRN_PMC1:
		return mfspr(SPRN_PMC1);
	case SPRN_PMC2:
		return mfspr(SPRN_PMC2);
	case SPRN_PMC3:
		return mfspr(SPRN_PMC3);
	case SPRN_PMC4:
		return mfspr(SPRN_PMC4);
	case SPRN_PMC5:
		return mfspr(SPRN_PMC5);
	case SPRN_PMC6:
		return mfspr(SPRN_PMC6);
	}
	WARN_ONCE(1, "perf_counter: read of SPR %u\n", spr);
	return 0;
}

static void pc_ppc_mtspr(void *priv, u32 spr, u64 val)
{
	switch (spr) {
	case SPRN_MMCR0:
		mtspr(SPRN_MMCR0, val);
		return;
	case SPRN_MMCR1:
		mtspr(SPRN_MMCR1, val);
		return;
	case SPRN_MMCR2:
		mtspr(SPRN_MMCR2, val);
		return;
	case SPRN_PMC1:
		mtspr(SPRN_PMC1, val);
		return;
	case SPRN_PMC2:
		mtspr(SPRN_PMC2, val);
		return;
	case SPRN_PMC3:
		mtspr(SPRN_PMC3, val);
		return;
	case SPRN_PMC4:
		mtspr(SPRN_PMC4, val);
		return;
	case SPRN_PMC5:
		mtspr(SPRN_PMC5, val);
		return;
	case SPRN_PMC6:
		mtspr(SPRN_PMC6, val);
		return;
	}
	WARN_ONCE(1, "perf_counter: write of SPR %u\n", spr);
}

static const struct pc_hw_regs pc_ppc_sprs = {
	.read	= pc_ppc_mfspr,
	.write	= pc_ppc_mtspr,
};

/* Every PMC zero, everything frozen, no exception: the idle state. */
static void pc_ppc_quiesce(const struct pc_ppc_pmu *p)
{
	unsigned int idx;

	mtspr(SPRN_MMCR0, MMCR0_FC);
	if (p->pmu.nr_counters > 2)
		mtspr(SPRN_MMCR1, 0);
	if (p->has_mmcr2)
		mtspr(SPRN_MMCR2, 0);
	for (idx = 0; idx < p->pmu.nr_counters; idx++)
		pc_ppc_mtspr(NULL, pc_ppc_pmc_spr(idx), 0);
}

/* The exception, through perf_irq while we hold the PMCs. */
static void pc_ppc_interrupt(struct pt_regs *regs)
{
	pc_ppc_irq(pc_hw_this_cpu(), regs);
}

/* Run only while our driver, the registered one, holds the PMCs. */
static void pc_ppc_quiesce_this_cpu(void *unused)
{
	pc_ppc_quiesce(pc_ppc_of(pc_hw_pmu()));
}

/**
 * pc_ppc_reserve() - take the PMCs for the first hardware counter
 *
 * Return: 0, or -EBUSY if perf_events (or anyone) holds them.
 */
int pc_ppc_reserve(void)
{
	if (reserve_pmc_hardware(pc_ppc_interrupt))
		return -EBUSY;
	on_each_cpu(pc_ppc_quiesce_this_cpu, NULL, 1);
	return 0;
}

/**
 * pc_ppc_release() - give the PMCs back after the last hardware counter
 *
 * The counters are all off by now; they are left frozen and zero.
 */
void pc_ppc_release(void)
{
	on_each_cpu(pc_ppc_quiesce_this_cpu, NULL, 1);
	release_pmc_hardware();
}

/*
 * Do the PMCs hold what is written, and does PMC1 count processor
 * cycles for a moment? QEMU's are storage that never counts.
 */
static bool pc_ppc_pmcs_count(const struct pc_pmu *pmu)
{
	const struct pc_ppc_pmu *p = pc_ppc_of(pmu);
	u32 last = pc_ppc_pmc_spr(p->pmu.nr_counters - 1);
	unsigned long flags;
	bool holds, counts;
	u32 cycles;
	int i;

	if (reserve_pmc_hardware(NULL))
		return false;
	local_irq_save(flags);
	pc_ppc_quiesce(p);
	pc_ppc_mtspr(NULL, last, 0x5a5a17);
	holds = pc_ppc_mfspr(NULL, last) == 0x5a5a17;
	/*
	 * PMC1 selector 1, processor cycles, in both modes (not reg.h's
	 * MMCR0_PMC1_CYCLES, 1 << 7: in this PMC1SEL field, selector 2)
	 */
	mtspr(SPRN_MMCR0, FIELD_PREP(MMCR0_PMC1SEL, 1));
	for (i = 0; i < 1000; i++)
		barrier();
	mtspr(SPRN_MMCR0, MMCR0_FC);
	cycles = mfspr(SPRN_PMC1);
	counts = cycles && !(cycles & PC_PMC_OVERFLOW);
	pc_ppc_quiesce(p);
	local_irq_restore(flags);
	release_pmc_hardware();
	return holds && counts;
}

static const struct pc_ppc_pmu *pc_ppc_match(u16 version)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(pc_ppc_models); i++)
		for (j = 0; j < pc_ppc_models[i]->nr_pvr; j++)
			if (pc_ppc_models[i]->pvr[j] == version)
				return pc_ppc_models[i];
	return NULL;
}

/* The driver of a part that may not take the exception (errata.c). */
static struct pc_ppc_pmu pc_ppc_polled_pmu __ro_after_init;

static int __init pc_ppc_pmu_init(void)
{
	u32 pvr = mfspr(SPRN_PVR);
	u16 version = PVR_VER(pvr);
	const struct pc_ppc_pmu *p = pc_ppc_match(version);
	const char *erratum = pc_ppc_pmi_erratum(pvr);
	int err;

	if (!p) {
		pr_info("perf_counter: no PMU driver for PVR version %04x: software counters only\n",
			version);
		return 0;
	}
	if (erratum) {
		pc_ppc_polled(p, &pc_ppc_polled_pmu);
		p = &pc_ppc_polled_pmu;
		pr_info("perf_counter: PVR %08x: no performance monitor exception (%s): counters polled every %llu ms\n",
			pvr, erratum, div_u64(p->pmu.poll_ns, NSEC_PER_MSEC));
	}
	err = pc_hw_register_checked(&p->pmu, &pc_ppc_sprs,
				     pc_ppc_pmcs_count,
				     "its PMCs do not count");
	return err < 0 ? err : 0;
}
device_initcall(pc_ppc_pmu_init);
