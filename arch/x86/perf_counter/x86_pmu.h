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
 * @perfctr0:	MSR of counter 0; the counters' MSRs follow it
 * @ctl_msr:	control MSR @i of those the kernel's perfctr reservation
 *		covers (EVNTSELs; ESCRs on P4)
 * @nr_ctl:	how many
 * @check_ctl:	the control MSR of the last counter, which must be off
 *		when the registers are checked ...
 * @check_on:	... as this bit of it says
 * @setup:	optional: after registration, before any counter (P4 marks
 *		the CPUs that may not use the counters)
 */
struct pc_x86_driver {
	struct pc_pmu	pmu;
	bool		(*match)(const struct cpuinfo_x86 *c);
	u32		perfctr0;
	u32		(*ctl_msr)(unsigned int i);
	unsigned int	nr_ctl;
	u32		check_ctl;
	u64		check_on;
	void		(*setup)(void);
};

/* pmu.c: the reservation of the chosen driver's registers */
int pc_x86_reserve(void);
void pc_x86_release(void);
void pc_x86_cpu_online(void);
const struct pc_x86_driver *pc_x86_chosen(void);

extern const struct pc_x86_driver pc_p4_driver;

#endif /* _ARCH_X86_PERF_COUNTER_X86_PMU_H */
