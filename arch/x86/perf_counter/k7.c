// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: AMD K7 (family 6), K8 (family 0Fh) and K10
 * (family 10h), with the four legacy counter registers at 0xC0010004
 * and their EVNTSELs at 0xC0010000.
 *
 * Four 48-bit counters, each with its own enable bit, written in full;
 * any event on any counter (AMD Athlon Processor x86 Code Optimization
 * Guide, 22007, "Performance-Monitoring Counters"; BKDG for AMD Athlon 64
 * and Opteron, 26094, chapter 10, "Performance Monitoring"; BKDG for
 * family 10h, 31116, "Performance Counter Events": no event is tied to
 * a counter).
 * From family 10h the event select has four more bits, 35:32.
 *
 * Family 15h and later have six core counters and rules of their own
 * (amd_core.c); the families in between (11h, 12h, 14h, 16h), whose
 * manuals this driver does not follow, get no driver.
 */
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "amd.h"

static void k7_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, MSR_K7_EVNTSEL0 + hwc->place.idx,
			hwc->config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

static void k7_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, MSR_K7_EVNTSEL0 + hwc->place.idx, 0);
}

static u64 k7_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return pc_hw_reg_read(cpuc, MSR_K7_PERFCTR0 + idx) & GENMASK_ULL(47, 0);
}

static void k7_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, MSR_K7_PERFCTR0 + idx, val & GENMASK_ULL(47, 0));
}

static bool k7_match(const struct cpuinfo_x86 *c)
{
	return c->x86_vendor == X86_VENDOR_AMD && c->x86 == 6;
}

static bool k8_match(const struct cpuinfo_x86 *c)
{
	return c->x86_vendor == X86_VENDOR_AMD && c->x86 == 0xf;
}

static bool k10_match(const struct cpuinfo_x86 *c)
{
	return c->x86_vendor == X86_VENDOR_AMD && c->x86 == 0x10;
}

#define K7_OPS						\
	.nr_counters	= 4,				\
	.width		= 48,				\
	.max_period	= (1ULL << 47) - 1,		\
	.decode		= pc_evntsel_decode,		\
	.places		= pc_evntsel_places,		\
	.enable		= k7_enable,			\
	.disable	= k7_disable,			\
	.read		= k7_read,			\
	.write		= k7_write,			\
	.reserve	= pc_x86_reserve,		\
	.release	= pc_x86_release,		\
	.cpu_online	= pc_x86_cpu_online

static u32 k7_evntsel(unsigned int i)
{
	return MSR_K7_EVNTSEL0 + i;
}

/* What the three models share of their x86 driver. */
#define K7_X86(match_fn)				\
	.match		= match_fn,			\
	.perfctr0	= MSR_K7_PERFCTR0,		\
	.ctl_msr	= k7_evntsel,			\
	.nr_ctl		= 4,				\
	.check_ctl	= MSR_K7_EVNTSEL3,		\
	.check_on	= ARCH_PERFMON_EVENTSEL_ENABLE

const struct pc_evntsel_pmu pc_k7_pmu = {
	.x86 = {
		.pmu		= { .name = "AMD K7", K7_OPS },
		K7_X86(k7_match),
	},
	.evntsel0	= MSR_K7_EVNTSEL0,
	.event_map	= AMD_K7_EVENT_MAP,
	.raw_mask	= X86_RAW_EVENT_MASK,
};

const struct pc_evntsel_pmu pc_k8_pmu = {
	.x86 = {
		.pmu		= { .name = "AMD K8", K7_OPS },
		K7_X86(k8_match),
	},
	.evntsel0	= MSR_K7_EVNTSEL0,
	.event_map	= AMD_K7_EVENT_MAP,
	.raw_mask	= X86_RAW_EVENT_MASK,
};

const struct pc_evntsel_pmu pc_k10_pmu = {
	.x86 = {
		.pmu		= { .name = "AMD K10", K7_OPS },
		K7_X86(k10_match),
	},
	.evntsel0	= MSR_K7_EVNTSEL0,
	.event_map	= AMD_K7_EVENT_MAP,
	.raw_mask	= AMD64_RAW_EVENT_MASK,
};
