/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: what every x86 PMU driver is, besides its
 * struct pc_pmu, and what pmu.c does for all of them.
 */
#ifndef _ARCH_X86_PERF_COUNTER_X86_PMU_H
#define _ARCH_X86_PERF_COUNTER_X86_PMU_H

#include <linux/perf_counter_hw.h>

struct cpuinfo_x86;

/**
 * struct pc_x86_driver - an x86 PMU driver
 * @pmu:	the core's view of it
 * @match:	does it drive @c?
 * @perfctr0:	MSR of counter 0; the counters' MSRs follow it, unless
 *		@ctr_msr says where they are
 * @ctr_msr:	optional: the MSR of counter @i, for parts whose counter
 *		MSRs are not consecutive (AMD's core counters, every other
 *		MSR from 0xC0010201)
 * @ctl_msr:	control MSR @i of those the kernel's perfctr reservation
 *		covers (EVNTSELs; ESCRs on P4)
 * @nr_ctl:	how many
 * @check_ctl:	the control MSR whose @check_on bit says the last counter
 *		runs (P6: EVNTSEL0's enable bit, which starts both); it
 *		must be clear when the registers are checked
 * @check_on:	that bit (or bits) of @check_ctl
 * @setup:	optional: after registration, before any counter
 * @second_thread: optional: is @cpu a thread that shares the registers
 *		of another, which uses them? It is kept off them
 *		(pc_hw_forbid_cpu()) from boot — every possible CPU whose
 *		APIC ID is known — and again as it comes online, and never
 *		writes them (P4 with hyper-threading)
 * @clear:	optional: on each CPU the registers are taken for, and
 *		one that comes online while they are held, before any
 *		counter is on it: turn off what a previous user (the
 *		firmware, a kexec'd kernel) may have left on (P4's CCCRs)
 * @stop:	optional: on each CPU as the registers are given back, the
 *		counters all off: leave them as the next user (6.1's
 *		perf_events) expects them (Zen 4: no overflow status left,
 *		PerfCntrGlobalCtl 0)
 * @lvtpc_last:	unmask LVTPC after the overflows are handled, not before
 *		(P4: its interrupt stays asserted while an OVF flag is set)
 */
struct pc_x86_driver {
	struct pc_pmu	pmu;
	bool		(*match)(const struct cpuinfo_x86 *c);
	u32		perfctr0;
	u32		(*ctr_msr)(unsigned int i);
	u32		(*ctl_msr)(unsigned int i);
	unsigned int	nr_ctl;
	u32		check_ctl;
	u64		check_on;
	void		(*setup)(void);
	bool		(*second_thread)(int cpu);
	void		(*clear)(struct pc_hw_cpu *cpuc);
	void		(*stop)(struct pc_hw_cpu *cpuc);
	bool		lvtpc_last;
};

/**
 * pc_x86_ctr_msr() - the MSR of a driver's counter
 * @d:		the driver
 * @i:		the counter
 *
 * Return: @d's counter @i's MSR.
 */
static inline u32 pc_x86_ctr_msr(const struct pc_x86_driver *d, unsigned int i)
{
	return d->ctr_msr ? d->ctr_msr(i) : d->perfctr0 + i;
}

/* pmi.c: the overflow interrupt */
int pc_x86_pmi(struct pc_hw_cpu *cpuc, struct pt_regs *regs);
u32 pc_x86_lvtpc(bool nmi);

/**
 * struct pc_x86_msr_safe - MSR accessors that report a fault
 * @read:	0, or an error if the MSR does not exist
 * @write:	0, or an error if it does not exist or refuses the value
 * @priv:	a model's state
 */
struct pc_x86_msr_safe {
	int	(*read)(void *priv, u32 msr, u64 *val);
	int	(*write)(void *priv, u32 msr, u64 val);
	void	*priv;
};

bool pc_x86_regs_check(const struct pc_x86_driver *d,
		       const struct pc_x86_msr_safe *msr);

/* pmu.c: the reservation of the chosen driver's registers */
void pc_x86_cpu_start(struct pc_hw_cpu *cpuc);
void pc_x86_cpu_stop(struct pc_hw_cpu *cpuc);
void pc_x86_cpu_arrive(struct pc_hw_cpu *cpuc, int cpu, bool held);
int pc_x86_overflow(struct pt_regs *regs);
DECLARE_PER_CPU(bool, pc_x86_in_vector);
int pc_x86_reserve(void);
void pc_x86_release(void);
void pc_x86_cpu_online(void);
const struct pc_x86_driver *pc_x86_chosen(void);

extern const struct pc_x86_driver pc_p4_driver;

#endif /* _ARCH_X86_PERF_COUNTER_X86_PMU_H */
