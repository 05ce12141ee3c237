// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the tables jevents.py generates, used to build the
 * tool where the generator is absent: one small P6 table, so that the
 * named-event path of the tool can be built and tried. The codes are
 * the P6 family's (Intel SDM vol. 3B, P6 family events): event select
 * in bits 7..0, unit mask in bits 15..8.
 */
#include <stddef.h>

#include "pmu-events.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct pc_pmu_event p6_events[] = {
	{ "l2_lines_in", "cache", "L2 lines allocated", 0x24, 0, 0, "" },
	{ "data_mem_refs", "memory", "memory references, loads and stores",
	  0x43, 0, 0, "" },
	{ "dcu_lines_in", "cache", "lines allocated in the L1 data cache",
	  0x45, 0, 0, "" },
	{ "inst_retired", "pipeline", "instructions retired", 0xc0, 0, 0,
	  "" },
	{ "flops", "floating-point", "floating-point operations retired",
	  0xc1, 0, 0, "0" },
};

const struct pc_pmu_table pc_pmu_tables[] = {
	{
		.cpuid = "GenuineIntel-6-(1|3|5|6|7|8|9|10|11|13)",
		.dir = "x86/p6",
		.cpu_name = "Intel P6 (stand-in table)",
		.events = p6_events,
		.nr_events = ARRAY_SIZE(p6_events),
	},
};

const unsigned int pc_pmu_nr_tables =
	ARRAY_SIZE(pc_pmu_tables);
