/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on 64-bit Book3S PowerPC: the performance monitor of
 * Power ISA 2.07 (POWER8), and the descriptor a model's driver is.
 *
 * Six 32-bit PMCs. PMC1-4 count what the 8-bit selector of each in
 * MMCR1 names, with a unit and a combine field beside it for the events
 * of the nest units; PMC5 counts run instructions and PMC6 run cycles,
 * always. MMCR0 holds the freezes of them all (FC), of PMC1-4 (FC14)
 * and of PMC5-6 (FC56), the alert enables (PMAE, PMC1CE, PMCjCE) and
 * the alert's occurrence bit (PMAO); MMCR2 freezes each PMC on its own
 * in problem, privileged and hypervisor state; MMCRA controls sampling,
 * which this driver leaves off (0).
 *
 * A PMC signals an alert (the performance monitor interrupt) as its bit
 * 0 (0x80000000) turns on, if its condition and PMAE are enabled; the
 * processor then clears PMAE and sets PMAO. Whether the alert is
 * delivered is checked once at boot (power8.c): where it is not (QEMU
 * sets PMAO but raises no interrupt, and stops the PMC at 0x80000000),
 * no condition is ever enabled. Either way a per-CPU timer folds every
 * PMC on (pc_pmu.poll_ns), see pc_isa207_poll().
 *
 * Here: the descriptor and its operations, and the raw event format.
 * The driver takes the SPR numbers and MMCR0's bits from the kernel's
 * asm/reg.h (whose MMCR0_PMXE is PMAE), and the fields it lacks (FC14,
 * PMCC 0b01, MMCR1's and MMCR2's) from isa207_regs.h, which only the
 * driver includes: the KUnit register model (kunit/isa207_model.h)
 * spells them itself, from the ISA and the POWER8 user's manual.
 */
#ifndef _PC_PPC_ISA207_H
#define _PC_PPC_ISA207_H

#include <linux/bits.h>
#include <linux/perf_counter_hw.h>
#include <uapi/linux/perf_counter.h>

#define PC_ISA207_NR_PMCS	6

/*
 * A raw event, as the POWER8 event lists write them: the selector in
 * bits 7-0, combine in bit 11, the unit in bits 15-12 and the PMC (1-6)
 * in bits 19-16, 0 for any of PMC1-4 (direct events only: unit and
 * combine 0). PMC5 takes only 0x500fa (run instructions), PMC6 only
 * 0x600f4 (run cycles). Every other bit is reserved, the marked bit (8)
 * among them: MMCRA's sampling is not offered.
 */
#define PC_ISA207_RAW_SEL	GENMASK_ULL(7, 0)
#define PC_ISA207_RAW_COMB	BIT_ULL(11)
#define PC_ISA207_RAW_UNIT	GENMASK_ULL(15, 12)
#define PC_ISA207_RAW_PMC	GENMASK_ULL(19, 16)
#define PC_ISA207_PMC5_SEL	0xfa
#define PC_ISA207_PMC6_SEL	0xf4

/*
 * pc_hw_counter.config: the raw event's selector, combine and unit
 * where a raw event has them, the PMCs it may sit on (bit i for PMC
 * i + 1) and the states it is frozen in.
 */
#define PC_ISA207_CFG_PMCS	GENMASK_ULL(21, 16)
#define PC_ISA207_CFG_PMCS_SHIFT 16
#define PC_ISA207_CFG_EX_USER	BIT_ULL(24)
#define PC_ISA207_CFG_EX_KERNEL	BIT_ULL(25)
#define PC_ISA207_CFG_EX_HV	BIT_ULL(26)

/**
 * struct pc_isa207_pmu - an ISA 2.07 model's performance monitor
 * @pmu:	what the core sees
 * @pvr:	the PVR versions (upper halves) of the parts it is for
 * @nr_pvr:	how many
 * @events:	the raw code of each generic id (its PMC in bits 19-16,
 *		0 for any of PMC1-4), 0 for none
 */
struct pc_isa207_pmu {
	struct pc_pmu	pmu;
	u16		pvr[4];
	unsigned int	nr_pvr;
	u32		events[PERF_HW_EVENTS_MAX];
};

static inline const struct pc_isa207_pmu *
pc_isa207_of(const struct pc_pmu *pmu)
{
	return container_of(pmu, struct pc_isa207_pmu, pmu);
}

extern const struct pc_isa207_pmu pc_power8_pmu;

/*
 * Whether the alerts are enabled: set at boot on a CPU that delivers
 * them (power8.c), cleared for one that does not, and by the KUnit
 * suite around each case.
 */
extern bool pc_isa207_alerts;

/*
 * The kernel runs in hypervisor state (MSR[HV] = 1: bare metal, or a
 * KVM host): exclude_kernel must freeze that state, and exclude_hv
 * means nothing more. Set at boot from CPU_FTR_HVMODE; the KUnit suite
 * sets it around its cases.
 */
extern bool pc_isa207_kernel_hv;

/* The operations the descriptor points at (isa207.c). */
int pc_isa207_decode(const struct pc_pmu *pmu,
		     const struct perf_counter_hw_event *hw_event,
		     const u64 *extra, struct pc_hw_counter *hwc);
int pc_isa207_places(const struct pc_pmu *pmu,
		     const struct pc_hw_counter *hwc,
		     struct pc_hw_place *place);
void pc_isa207_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
void pc_isa207_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc);
u64 pc_isa207_read(struct pc_hw_cpu *cpuc, unsigned int idx);
void pc_isa207_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val);
bool pc_isa207_overflowed(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw);
int pc_isa207_irq(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
void pc_isa207_poll(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
void pc_isa207_quiesce(struct pc_hw_cpu *cpuc);

#endif /* _PC_PPC_ISA207_H */
