/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: what AMD's PMU drivers share — the legacy
 * registers of K7 and after (k7.c), the core counters of family 15h and
 * after (amd_core.c), and the generic events' codes.
 */
#ifndef _ARCH_X86_PERF_COUNTER_AMD_H
#define _ARCH_X86_PERF_COUNTER_AMD_H

#include <linux/types.h>

#include "evntsel.h"

struct cpuinfo_x86;

/*
 * The core counters of family 15h and later (CPUID 0x80000001 ECX bit
 * 23, PerfCtrExtCore): six, PERF_CTL[i] at 0xC0010200 + 2i, PERF_CTR[i]
 * at 0xC0010201 + 2i (msr-index.h's MSR_F15H_PERF_CTL0 and _CTR0); the
 * legacy MSRs are aliases of the first four (AMD64 APM vol. 2, section
 * 13.2, Performance Monitoring Counters; BKDG for family 15h models
 * 00h-0Fh, MSRC001_020[B:0] and MSRC001_00[07:00]).
 */
#define AMD_NR_CORE		6

/*
 * The generic events from K7 to family 15h: cycles not halted (76h),
 * retired instructions (C0h), data cache accesses and misses (40h,
 * 41h), retired branches and their mispredictions (C2h, C3h). There is
 * no bus cycle event: PERF_COUNT_BUS_CYCLES is EINVAL on AMD parts.
 */
#define AMD_K7_EVENT_MAP {						\
	[PERF_COUNT_CPU_CYCLES]		= 0x0076,			\
	[PERF_COUNT_INSTRUCTIONS]	= 0x00c0,			\
	[PERF_COUNT_CACHE_REFERENCES]	= 0x0040,			\
	[PERF_COUNT_CACHE_MISSES]	= 0x0041,			\
	[PERF_COUNT_BRANCH_INSTRUCTIONS] = 0x00c2,			\
	[PERF_COUNT_BRANCH_MISSES]	= 0x00c3,			\
}

const char *pc_amd_why_no_driver(const struct cpuinfo_x86 *c);
bool pc_amd_zen4_fits(const struct cpuinfo_x86 *c, unsigned int nr_core);
unsigned long pc_amd_f15h_counters(u64 config);

#endif /* _ARCH_X86_PERF_COUNTER_AMD_H */
