/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter on x86: PMUs with one EVNTSEL control register per
 * counter — Intel P6 and AMD's K7 and its descendants: the descriptor
 * each driver is and the operations they share. The drivers take the
 * fields of an EVNTSEL from the kernel's asm/perf_event.h
 * (ARCH_PERFMON_EVENTSEL_*) and their MSR numbers from msr-index.h,
 * which their .c files include, not this header: the register model of
 * the KUnit suites has its own, from the manuals.
 */
#ifndef _ARCH_X86_PERF_COUNTER_EVNTSEL_H
#define _ARCH_X86_PERF_COUNTER_EVNTSEL_H

#include <linux/container_of.h>
#include <linux/perf_counter.h>
#include <linux/perf_counter_hw.h>

#include "x86_pmu.h"

/* An event that only some counters can count. */
struct pc_evntsel_constraint {
	u8	event;		/* event select code */
	u8	counters;	/* bit n: counter n may count it */
};

/**
 * struct pc_evntsel_pmu - a PMU of counter/EVNTSEL register pairs
 * @x86:	the x86 driver; its pmu's decode and places are
 *		pc_evntsel_decode() and pc_evntsel_places(), which find
 *		this descriptor around it (pc_evntsel_of())
 * @evntsel0:	MSR of EVNTSEL 0; the others follow it (for the legacy
 *		layouts; x86.ctl_msr says where each is)
 * @event_map:	EVNTSEL event and unit mask for each generic id, 0 if the
 *		model has no such event
 * @raw_mask:	the bits a raw event may set
 * @constraints: events tied to some counters, ended by a zero event
 * @counters:	optional, instead of @constraints: the counters that may
 *		count the event of EVNTSEL word @config (bit n: counter
 *		n), where the rule needs more than the event select (AMD
 *		family 15h: the unit mask, and codes of 12 bits). 0: none.
 */
struct pc_evntsel_pmu {
	struct pc_x86_driver			x86;
	u32					evntsel0;
	u64					event_map[PERF_HW_EVENTS_MAX];
	u64					raw_mask;
	const struct pc_evntsel_constraint	*constraints;
	unsigned long				(*counters)(u64 config);
};

static inline const struct pc_evntsel_pmu *
pc_evntsel_of(const struct pc_pmu *pmu)
{
	return container_of(pmu, struct pc_evntsel_pmu, x86.pmu);
}

int pc_evntsel_decode(const struct pc_pmu *pmu,
		      const struct perf_counter_hw_event *hw_event,
		      const u64 *extra, struct pc_hw_counter *hwc);
int pc_evntsel_places(const struct pc_pmu *pmu,
		      const struct pc_hw_counter *hwc,
		      struct pc_hw_place *place);

/* The drivers */
extern const struct pc_evntsel_pmu pc_p6_pmu;
extern const struct pc_evntsel_pmu pc_k7_pmu;
extern const struct pc_evntsel_pmu pc_k8_pmu;
extern const struct pc_evntsel_pmu pc_k10_pmu;
extern const struct pc_evntsel_pmu pc_f15h_pmu;
extern const struct pc_evntsel_pmu pc_zen_pmu;
extern const struct pc_evntsel_pmu pc_zen4_pmu;

#endif /* _ARCH_X86_PERF_COUNTER_EVNTSEL_H */
