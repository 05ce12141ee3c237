// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: what the EVNTSEL-style PMUs (P6, K7 family) share:
 * decoding an event into an EVNTSEL word, the per-counter constraints,
 * and reserving the register pairs from the rest of the kernel.
 */
#include <linux/errno.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "evntsel.h"

/**
 * pc_evntsel_decode() - an event as an EVNTSEL word
 * @p:		the model
 * @hw_event:	a generic id or a raw event, and the privilege filters
 * @hwc:	gets the word in ->config: event, unit mask, USR/OS from
 *		exclude_user/exclude_kernel, and INT (every counter wraps
 *		into the overflow interrupt). The enable bit is the
 *		model's to set.
 *
 * exclude_hv and exclude_idle mean nothing on these parts and are
 * accepted.
 *
 * Return: 0, or -EINVAL for a generic id the model lacks, a raw event
 * with bits the driver owns or the model reserves, or a counter that
 * would count in neither mode.
 */
int pc_evntsel_decode(const struct pc_evntsel_pmu *p,
		      const struct perf_counter_hw_event *hw_event,
		      struct pc_hw_counter *hwc)
{
	u64 config = hw_event->event_config;
	u64 sel;

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
		sel |= PC_EVNTSEL_USR;
	if (!hw_event->exclude_kernel)
		sel |= PC_EVNTSEL_OS;
	if (!(sel & (PC_EVNTSEL_USR | PC_EVNTSEL_OS)))
		return -EINVAL;
	hwc->config = sel | PC_EVNTSEL_INT;
	hwc->extra = 0;
	return 0;
}

/**
 * pc_evntsel_places() - the counters a decoded event may use
 * @p:		the model
 * @hwc:	the decoded counter
 * @place:	filled with one place per counter, lowest first
 *
 * Return: how many places.
 */
int pc_evntsel_places(const struct pc_evntsel_pmu *p,
		      const struct pc_hw_counter *hwc,
		      struct pc_hw_place *place)
{
	const struct pc_evntsel_constraint *c;
	u8 event = hwc->config & PC_EVNTSEL_EVENT;
	unsigned long counters = GENMASK(p->pmu.nr_counters - 1, 0);
	unsigned int idx;
	int n = 0;

	for (c = p->constraints; c && c->event; c++) {
		if (c->event == event) {
			counters &= c->counters;
			break;
		}
	}
	for_each_set_bit(idx, &counters, p->pmu.nr_counters) {
		place[n].idx = idx;
		place[n].aux = 0;
		place[n].uses = BIT_ULL(idx);
		n++;
	}
	return n;
}

/* The overflow interrupt is an NMI; some parts mask it as they raise it. */
static void pc_evntsel_lvtpc_nmi(void *unused)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/**
 * pc_evntsel_reserve() - take every counter and EVNTSEL register
 * @p:		the model
 *
 * Through the kernel's perfctr reservation, which perf_events and the
 * NMI watchdog use too: all of them or none. Points each CPU's local
 * APIC performance interrupt at NMI.
 *
 * Return: 0, or -EBUSY if another user holds one of them.
 */
int pc_evntsel_reserve(const struct pc_evntsel_pmu *p)
{
	unsigned int i;

	for (i = 0; i < p->pmu.nr_counters; i++) {
		if (!reserve_perfctr_nmi(p->perfctr0 + i))
			goto busy;
		if (!reserve_evntsel_nmi(p->evntsel0 + i)) {
			release_perfctr_nmi(p->perfctr0 + i);
			goto busy;
		}
	}
	if (boot_cpu_has(X86_FEATURE_APIC))
		on_each_cpu(pc_evntsel_lvtpc_nmi, NULL, 1);
	return 0;

busy:
	while (i--) {
		release_evntsel_nmi(p->evntsel0 + i);
		release_perfctr_nmi(p->perfctr0 + i);
	}
	return -EBUSY;
}

/**
 * pc_evntsel_release() - give the registers back
 * @p:		the model
 *
 * The counters are all off by now. The APIC entry stays on NMI, where
 * perf_events, the next user, expects it.
 */
void pc_evntsel_release(const struct pc_evntsel_pmu *p)
{
	unsigned int i;

	for (i = 0; i < p->pmu.nr_counters; i++) {
		release_evntsel_nmi(p->evntsel0 + i);
		release_perfctr_nmi(p->perfctr0 + i);
	}
}
