// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: what the EVNTSEL-style PMUs (P6, K7 family) share:
 * decoding an event into an EVNTSEL word and the per-counter
 * constraints.
 */
#include <linux/errno.h>
#include <asm/perf_event.h>

#include "evntsel.h"

/**
 * pc_evntsel_decode() - an event as an EVNTSEL word
 * @pmu:	the model's pc_pmu, in its struct pc_evntsel_pmu
 * @hw_event:	a generic id or a raw event, and the privilege filters
 * @extra:	its extra control words: none are taken
 * @hwc:	gets the word in ->config: event, unit mask, USR/OS from
 *		exclude_user/exclude_kernel, and INT (every counter wraps
 *		into the overflow interrupt). The enable bit is the
 *		model's to set.
 *
 * exclude_hv means nothing on these parts (no hypervisor level the
 * EVNTSEL tells apart) and is accepted; exclude_idle is the core's: it
 * pauses the counter while the CPU idles.
 *
 * Return: 0, or -EINVAL for a generic id the model lacks, a raw event
 * with bits the driver owns or the model reserves, extra control words,
 * or a counter that would count in neither mode.
 */
int pc_evntsel_decode(const struct pc_pmu *pmu,
		      const struct perf_counter_hw_event *hw_event,
		      const u64 *extra, struct pc_hw_counter *hwc)
{
	const struct pc_evntsel_pmu *p = pc_evntsel_of(pmu);
	u64 config = hw_event->event_config;
	u64 sel;

	if (hw_event->extra_config_len)
		return -EINVAL;		/* nothing beyond the EVNTSEL word */
	if (PERF_COUNTER_IS_RAW(config)) {
		sel = config & PERF_COUNTER_CONFIG_MASK;
		if (sel & ~p->raw_mask)
			return -EINVAL;
	} else {
		u64 id = PERF_COUNTER_ID(config);

		if (id >= PERF_HW_EVENTS_MAX || !p->event_map[id])
			return -EINVAL;
		sel = p->event_map[id];
	}
	if (!hw_event->exclude_user)
		sel |= ARCH_PERFMON_EVENTSEL_USR;
	if (!hw_event->exclude_kernel)
		sel |= ARCH_PERFMON_EVENTSEL_OS;
	if (!(sel & (ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS)))
		return -EINVAL;
	hwc->config = sel | ARCH_PERFMON_EVENTSEL_INT;
	hwc->extra = 0;
	return 0;
}

/**
 * pc_evntsel_places() - the counters a decoded event may use
 * @pmu:	the model's pc_pmu, in its struct pc_evntsel_pmu
 * @hwc:	the decoded counter
 * @place:	filled with one place per counter, lowest first
 *
 * Return: how many places.
 */
int pc_evntsel_places(const struct pc_pmu *pmu,
		      const struct pc_hw_counter *hwc,
		      struct pc_hw_place *place)
{
	const struct pc_evntsel_pmu *p = pc_evntsel_of(pmu);
	const struct pc_evntsel_constraint *c;
	u8 event = hwc->config & ARCH_PERFMON_EVENTSEL_EVENT;
	unsigned long counters = GENMASK(pmu->nr_counters - 1, 0);
	unsigned int idx;
	int n = 0;

	if (p->counters)
		counters &= p->counters(hwc->config);
	for (c = p->constraints; c && c->event; c++) {
		if (c->event == event) {
			counters &= c->counters;
			break;
		}
	}
	for_each_set_bit(idx, &counters, pmu->nr_counters) {
		place[n].idx = idx;
		place[n].aux = 0;
		place[n].uses = BIT_ULL(idx);
		n++;
	}
	return n;
}
