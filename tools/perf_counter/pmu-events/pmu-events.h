/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs' named events, as tools/perf_counter/pmu-events/jevents.py
 * generates them at build time from the JSON tables under arch/ and
 * their mapfile.csv (the scheme of tools/perf/pmu-events/README). The generated file defines
 * pc_pmu_tables[] and pc_pmu_nr_tables; the tool carries no JSON parser.
 *
 * Each event carries what perf_counter_open() needs to count it as a
 * raw event on the driver that table is for: event_config (without the
 * raw bit, PERF_COUNTER_RAW_MASK, which the tool sets) and, for drivers
 * that take one (the Pentium 4's ESCR word), one extra control word for
 * extra_config_len. Documentation/admin-guide/perf/perf_counter-x86.rst and
 * Documentation/admin-guide/perf/perf_counter-powerpc.rst say how each
 * driver reads them.
 */
#ifndef PC_PMU_EVENTS_H
#define PC_PMU_EVENTS_H

struct pc_pmu_event {
	const char *name;		/* lower case: "l2_lines_in" */
	const char *topic;		/* the JSON file's: "cache", "memory" */
	const char *desc;		/* one line, from the manual's facts */
	unsigned long long config;	/* event_config's code, raw bit clear */
	unsigned long long extra;	/* the extra control word, if any */
	unsigned int nr_extra;		/* 0 or 1: extra is given */
	const char *counters;		/* "0,1", or "" for any register */
};

struct pc_pmu_table {
	const char *cpuid;		/* mapfile's identity, a regex (ERE) */
	const char *dir;		/* under arch/: "x86/p6" */
	const char *cpu_name;		/* "Intel P6 (Pentium Pro, II, III, M)" */
	const struct pc_pmu_event *events;
	unsigned int nr_events;
};

extern const struct pc_pmu_table pc_pmu_tables[];
extern const unsigned int pc_pmu_nr_tables;

#endif /* PC_PMU_EVENTS_H */
