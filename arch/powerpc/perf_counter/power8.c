// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on POWER8: the descriptor, the SPR accessors, the
 * reservation, and the checks at boot — that the PMCs count, and
 * whether an alert is delivered.
 *
 * The PMCs are reserved with reserve_pmc_hardware() while any hardware
 * counter exists, as on 32-bit PowerPC; perf_events reserves them the
 * same way, so whichever subsystem comes second gets EBUSY.
 *
 * The 64-bit count of each counter never depends on the alert: a
 * pinned timer on each CPU with counters on (pc_pmu.poll_ns, 10 ms)
 * folds every PMC on and loads the counting ones again. At the fastest
 * a POWER8 PMC counts (8 events a cycle at 5 GHz, 4 * 10^8 in 10 ms),
 * a counting PMC loaded at 1 stays far below bit 0 (2^31) between two
 * polls, so it never alerts and never wraps. A sampling counter alerts
 * at its period, if alerts are delivered; else the poll finds it past
 * bit 0 and takes its sample, up to 10 ms late, with the 2^31 events
 * from bit 0 to the wrap as slack.
 */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/cputable.h>
#include <asm/pmc.h>
#include <asm/reg.h>

#include "isa207.h"
#include "isa207_regs.h"

/*
 * mfspr and mtspr take the SPR number as an immediate. A write of MMCR0
 * is followed by isync, so that a freeze is in force before the PMCs
 * are read.
 */
static u64 pc_p8_mfspr(void *priv, u32 spr)
{
	switch (spr) {
	case SPRN_MMCR0:
		return mfspr(SPRN_MMCR0);
	case SPRN_MMCR1:
		return mfspr(SPRN_MMCR1);
	case SPRN_MMCR2:
		return mfspr(SPRN_MMCR2);
	case SPRN_MMCRA:
		return mfspr(SPRN_MMCRA);
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

static void pc_p8_mtspr(void *priv, u32 spr, u64 val)
{
	switch (spr) {
	case SPRN_MMCR0:
		mtspr(SPRN_MMCR0, val);
		isync();
		return;
	case SPRN_MMCR1:
		mtspr(SPRN_MMCR1, val);
		return;
	case SPRN_MMCR2:
		mtspr(SPRN_MMCR2, val);
		return;
	case SPRN_MMCRA:
		mtspr(SPRN_MMCRA, val);
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

static const struct pc_hw_regs pc_p8_sprs = {
	.read	= pc_p8_mfspr,
	.write	= pc_p8_mtspr,
};

/* The alert, through perf_irq while we hold the PMCs: may be an NMI. */
static void pc_p8_interrupt(struct pt_regs *regs)
{
	pc_isa207_irq(pc_hw_this_cpu(), regs);
}
NOKPROBE_SYMBOL(pc_p8_interrupt);

/*
 * We hold the PMCs (reserve_pmc_hardware()): set and cleared under the
 * core's reservation mutex, which cpu_online runs under too.
 */
static bool pc_p8_held;

/*
 * Taking the PMCs on a CPU: the hypervisor is told they are in use
 * (ppc_enable_pmcs(): the lppaca's pmcregs_in_use and H_PERFMON where
 * the platform has it; a KVM host's paca, so that running a guest saves
 * and restores them), and they are left idle.
 */
static void pc_p8_take_this_cpu(void *unused)
{
	ppc_enable_pmcs();
	pc_isa207_quiesce(pc_hw_this_cpu());
}

static void pc_p8_give_this_cpu(void *unused)
{
	pc_isa207_quiesce(pc_hw_this_cpu());
	ppc_set_pmu_inuse(0);
}

static int pc_p8_reserve(void)
{
	if (reserve_pmc_hardware(pc_p8_interrupt))
		return -EBUSY;
	on_each_cpu(pc_p8_take_this_cpu, NULL, 1);
	pc_p8_held = true;
	return 0;
}

static void pc_p8_release(void)
{
	pc_p8_held = false;
	on_each_cpu(pc_p8_give_this_cpu, NULL, 1);
	release_pmc_hardware();
}

/*
 * A CPU that comes online while we hold the PMCs is set up as the
 * others were; its registers are perf_events' while they hold them,
 * and left alone if a counter is on them already (a per-CPU thread's).
 */
static void pc_p8_cpu_online(void)
{
	struct pc_hw_cpu *cpuc = pc_hw_this_cpu();
	unsigned long flags;

	if (!pc_p8_held)
		return;
	powerpc_local_irq_pmu_save(flags);
	if (!READ_ONCE(cpuc->nr_on))
		pc_p8_take_this_cpu(NULL);
	else
		ppc_enable_pmcs();
	powerpc_local_irq_pmu_restore(flags);
}

/*
 * The generic events as the POWER8 event list names them: cycles
 * (PM_CYC) and instructions completed (PM_INST_CMPL) on any of PMC1-4,
 * L1 data cache load references (PM_LD_REF_L1) and branches finished
 * (PM_BRU_FIN) on PMC1, L1 data cache load misses (PM_LD_MISS_L1, unit
 * 0xe) on PMC3, mispredicted branches (PM_BR_MPRED_CMPL) on PMC4. No
 * bus cycle event.
 */
const struct pc_isa207_pmu pc_power8_pmu = {
	.pmu = {
		.name		= "POWER8",
		.nr_counters	= PC_ISA207_NR_PMCS,
		.width		= 32,
		.max_period	= 0x7fffffff,
		.irq_at		= PC_ISA207_OVERFLOW,
		.poll_ns	= 10 * NSEC_PER_MSEC,
		.decode		= pc_isa207_decode,
		.places		= pc_isa207_places,
		.enable		= pc_isa207_enable,
		.disable	= pc_isa207_disable,
		.read		= pc_isa207_read,
		.write		= pc_isa207_write,
		.overflowed	= pc_isa207_overflowed,
		.poll		= pc_isa207_poll,
		.reserve	= pc_p8_reserve,
		.release	= pc_p8_release,
		.cpu_online	= pc_p8_cpu_online,
	},
	.pvr	= { 0x004b, 0x004c, 0x004d },	/* POWER8E, POWER8NVL, POWER8 */
	.nr_pvr	= 3,
	.events	= {
		[PERF_COUNT_CPU_CYCLES]		 = 0x1e,
		[PERF_COUNT_INSTRUCTIONS]	 = 0x02,
		[PERF_COUNT_CACHE_REFERENCES]	 = 0x100ee,
		[PERF_COUNT_CACHE_MISSES]	 = 0x3e054,
		[PERF_COUNT_BRANCH_INSTRUCTIONS] = 0x10068,
		[PERF_COUNT_BRANCH_MISSES]	 = 0x400f6,
	},
};

/* Before the driver is registered: the probe's own view of the SPRs. */
static struct pc_hw_cpu pc_p8_probe_cpuc = { .regs = &pc_p8_sprs };
static unsigned int pc_p8_probe_alerts;

/* The probe's handler: count the alert and freeze. */
static void pc_p8_probe_interrupt(struct pt_regs *regs)
{
	mtspr(SPRN_MMCR0, MMCR0_FC | PC_MMCR0_8_PMCC_NONE);
	pc_p8_probe_alerts++;
}

/*
 * Does PMC5 count run instructions, and is an alert delivered when it
 * passes bit 0? Counted from 1000 events short of bit 0 over a loop of
 * many more, with interrupts on. QEMU's PMC5 counts; its alert only
 * sets PMAO.
 */
static bool pc_p8_pmcs_count(const struct pc_pmu *pmu)
{
	unsigned long flags;
	bool counts, alerted;
	u64 mmcr0;
	u32 pmc5;
	int i;

	if (reserve_pmc_hardware(pc_p8_probe_interrupt)) {
		pr_warn("perf_counter: POWER8 PMCs held by another user at boot: not checked\n");
		return false;
	}
	preempt_disable();
	ppc_enable_pmcs();
	pc_isa207_quiesce(&pc_p8_probe_cpuc);
	mtspr(SPRN_PMC5, PC_ISA207_OVERFLOW - 1000);
	mtspr(SPRN_MMCR2, 0);
	mtspr(SPRN_MMCR0, PC_MMCR0_8_FC14 | MMCR0_PMXE |
	      MMCR0_PMCjCE | PC_MMCR0_8_PMCC_NONE);
	for (i = 0; i < 100000; i++)
		barrier();
	udelay(100);	/* an alert on its way arrives */
	powerpc_local_irq_pmu_save(flags);
	mmcr0 = mfspr(SPRN_MMCR0);
	mtspr(SPRN_MMCR0, MMCR0_FC | PC_MMCR0_8_PMCC_NONE);
	pmc5 = mfspr(SPRN_PMC5);
	counts = pmc5 != PC_ISA207_OVERFLOW - 1000;
	alerted = READ_ONCE(pc_p8_probe_alerts) != 0;
	pc_isa207_quiesce(&pc_p8_probe_cpuc);
	ppc_set_pmu_inuse(0);
	powerpc_local_irq_pmu_restore(flags);
	preempt_enable();
	release_pmc_hardware();

	pc_isa207_alerts = alerted;
	pr_info("perf_counter: POWER8 alerts %s (MMCR0 %#llx after PMC5 passed bit 0): %s\n",
		alerted ? "delivered" : "not delivered", mmcr0,
		alerted ? "they sample, the timer folds" :
		"the timer folds and samples");
	return counts;
}

static int __init pc_p8_init(void)
{
	u16 version = PVR_VER(mfspr(SPRN_PVR));
	const struct pc_isa207_pmu *p = &pc_power8_pmu;
	unsigned int i;
	int err;

	for (i = 0; i < p->nr_pvr; i++)
		if (p->pvr[i] == version)
			break;
	if (i == p->nr_pvr) {
		pr_info("perf_counter: no PMU driver for PVR version %04x: software counters only\n",
			version);
		return 0;
	}
	/* bare metal (powernv): the kernel runs in hypervisor state */
	pc_isa207_kernel_hv = cpu_has_feature(CPU_FTR_HVMODE);
	err = pc_hw_register_checked(&p->pmu, &pc_p8_sprs, pc_p8_pmcs_count,
				     "its PMCs do not count");
	return err < 0 ? err : 0;
}
device_initcall(pc_p8_init);
