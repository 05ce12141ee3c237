// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter on x86: Intel Pentium 4 and the other NetBurst parts
 * (family 15). See p4.h for the registers.
 *
 * Errata and quirks, as 6.1's perf_events and OProfile handle them too:
 * counter 1 of the BPU group is never used (it does not count
 * reliably); a counter is written twice, as a single write may not take
 * (erratum N15, Intel document 249199); and a wrap is recognised by the
 * counter's top bit as well as by the CCCR's OVF flag, which is not
 * always set. The interrupt line stays asserted while an OVF flag is
 * set, so LVTPC is unmasked only after the handler (pmi.c).
 *
 * A counter is placed on a counter register together with an ESCR that
 * feeds it: each place takes both, as two resource bits, so the core's
 * placement search does the ESCR allocation too. The ESCR candidates of
 * an event ride in the upper half of pc_hw_counter.extra, above the
 * 32-bit ESCR word.
 *
 * Hyper-threading: the two threads of a core share all of this. Only
 * the first thread of each core, by its APIC ID, uses the registers
 * (ESCR T0 bits, CCCR OVF_PMI_T0); the second is kept off them, at boot
 * and whenever it comes online, so a task's counters do not count
 * while it runs there, CPU-wide hardware counters for it are refused,
 * and it never writes them (not even to clear them: its sibling's
 * counters may be on). The events that count for both threads whatever
 * the T0 bits say are the whole core's: with two threads they need the
 * privilege of a CPU-wide counter (p4_shared_events[]).
 *
 * Every CCCR is cleared when the registers are taken (p4_clear()).
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/perf_counter.h>
#include <linux/perf_counter_hw.h>
#include <asm/apicdef.h>
#include <asm/processor.h>
#include <asm/smp.h>

#include "p4.h"
#include "p4_regs.h"
#include "x86_pmu.h"

/* The ESCR candidates of a decoded event: index + 1, two bytes. */
#define P4_HWC_ESCR_SHIFT	32
#define P4_HWC_ESCR(hwc, n)	((int)(((hwc)->extra >> \
				  (P4_HWC_ESCR_SHIFT + 8 * (n))) & 0xff) - 1)

/* Intel SDM vol. 3B: the CCCR ESCR_SELECT of each ESCR, by group. */
const struct p4_escr p4_escrs[] = {
	{ MSR_P4_BSU_ESCR0, P4_BPU, 7, 0 }, { MSR_P4_BSU_ESCR1, P4_BPU, 7, 1 },
	{ MSR_P4_FSB_ESCR0, P4_BPU, 6, 0 }, { MSR_P4_FSB_ESCR1, P4_BPU, 6, 1 },
	{ MSR_P4_MOB_ESCR0, P4_BPU, 2, 0 }, { MSR_P4_MOB_ESCR1, P4_BPU, 2, 1 },
	{ MSR_P4_PMH_ESCR0, P4_BPU, 4, 0 }, { MSR_P4_PMH_ESCR1, P4_BPU, 4, 1 },
	{ MSR_P4_BPU_ESCR0, P4_BPU, 0, 0 }, { MSR_P4_BPU_ESCR1, P4_BPU, 0, 1 },
	{ MSR_P4_IS_ESCR0, P4_BPU, 1, 0 }, { MSR_P4_IS_ESCR1, P4_BPU, 1, 1 },
	{ MSR_P4_ITLB_ESCR0, P4_BPU, 3, 0 }, { MSR_P4_ITLB_ESCR1, P4_BPU, 3, 1 },
	{ MSR_P4_IX_ESCR0, P4_BPU, 5, 0 }, { MSR_P4_IX_ESCR1, P4_BPU, 5, 1 },
	{ MSR_P4_MS_ESCR0, P4_MS, 0, 0 }, { MSR_P4_MS_ESCR1, P4_MS, 0, 1 },
	{ MSR_P4_TC_ESCR0, P4_MS, 1, 0 }, { MSR_P4_TC_ESCR1, P4_MS, 1, 1 },
	{ MSR_P4_TBPU_ESCR0, P4_MS, 2, 0 }, { MSR_P4_TBPU_ESCR1, P4_MS, 2, 1 },
	{ MSR_P4_FLAME_ESCR0, P4_FLAME, 0, 0 }, { MSR_P4_FLAME_ESCR1, P4_FLAME, 0, 1 },
	{ MSR_P4_FIRM_ESCR0, P4_FLAME, 1, 0 }, { MSR_P4_FIRM_ESCR1, P4_FLAME, 1, 1 },
	{ MSR_P4_SAAT_ESCR0, P4_FLAME, 2, 0 }, { MSR_P4_SAAT_ESCR1, P4_FLAME, 2, 1 },
	{ MSR_P4_U2L_ESCR0, P4_FLAME, 3, 0 }, { MSR_P4_U2L_ESCR1, P4_FLAME, 3, 1 },
	{ MSR_P4_DAC_ESCR0, P4_FLAME, 5, 0 }, { MSR_P4_DAC_ESCR1, P4_FLAME, 5, 1 },
	{ MSR_P4_IQ_ESCR0, P4_IQ, 0, 0 }, { MSR_P4_IQ_ESCR1, P4_IQ, 0, 1 },
	{ MSR_P4_ALF_ESCR0, P4_IQ, 1, 0 }, { MSR_P4_ALF_ESCR1, P4_IQ, 1, 1 },
	{ MSR_P4_RAT_ESCR0, P4_IQ, 2, 0 }, { MSR_P4_RAT_ESCR1, P4_IQ, 2, 1 },
	{ MSR_P4_SSU_ESCR0, P4_IQ, 3, 0 },
	{ MSR_P4_CRU_ESCR0, P4_IQ, 4, 0 }, { MSR_P4_CRU_ESCR1, P4_IQ, 4, 1 },
	{ MSR_P4_CRU_ESCR2, P4_IQ, 5, 0 }, { MSR_P4_CRU_ESCR3, P4_IQ, 5, 1 },
	{ MSR_P4_CRU_ESCR4, P4_IQ, 6, 0 }, { MSR_P4_CRU_ESCR5, P4_IQ, 6, 1 },
};
const unsigned int p4_nr_escrs = ARRAY_SIZE(p4_escrs);

/* Models above 2 have no IQ_ESCR0/1 (perfctr's low-level notes; SDM table of ESCRs). */
static unsigned int p4_model;

/**
 * p4_escr_index() - an ESCR's place in p4_escrs[]
 * @msr:	an MSR number
 *
 * Return: the index, or -1 if @msr is no ESCR.
 */
int p4_escr_index(u32 msr)
{
	unsigned int i;

	for (i = 0; i < p4_nr_escrs; i++)
		if (p4_escrs[i].msr == msr)
			return i;
	return -1;
}

/**
 * p4_counters_of() - the counters an ESCR feeds
 * @e:		the ESCR
 * @idx:	filled with their indexes, up to three
 *
 * Return: how many.
 */
unsigned int p4_counters_of(const struct p4_escr *e, u8 *idx)
{
	unsigned int first = e->group * 4 + e->half * 2;

	idx[0] = first;
	idx[1] = first + 1;
	if (e->group != P4_IQ)
		return 2;
	idx[2] = 16 + e->half;
	return 3;
}

/* A generic event: its ESCR pair, event select and mask. */
struct p4_generic {
	u16	escr[2];
	u8	event;
	u16	mask;
};

static const struct p4_generic p4_generic[PERF_HW_EVENTS_MAX] = {
	/* global_power_events: RUNNING */
	[PERF_COUNT_CPU_CYCLES] = {
		{ MSR_P4_FSB_ESCR0, MSR_P4_FSB_ESCR1 }, 0x13, 0x0001
	},
	/* instr_retired: NBOGUSNTAG, NBOGUSTAG */
	[PERF_COUNT_INSTRUCTIONS] = {
		{ MSR_P4_CRU_ESCR0, MSR_P4_CRU_ESCR1 }, 0x02, 0x0003
	},
	/* BSQ_cache_reference: 2nd/3rd level read hits and misses, write misses */
	[PERF_COUNT_CACHE_REFERENCES] = {
		{ MSR_P4_BSU_ESCR0, MSR_P4_BSU_ESCR1 }, 0x0c, 0x073f
	},
	/* BSQ_cache_reference: the misses */
	[PERF_COUNT_CACHE_MISSES] = {
		{ MSR_P4_BSU_ESCR0, MSR_P4_BSU_ESCR1 }, 0x0c, 0x0700
	},
	/* retired_branch_type: CONDITIONAL, CALL, RETURN, INDIRECT */
	[PERF_COUNT_BRANCH_INSTRUCTIONS] = {
		{ MSR_P4_TBPU_ESCR0, MSR_P4_TBPU_ESCR1 }, 0x04, 0x001e
	},
	/* retired_mispred_branch_type: the same kinds */
	[PERF_COUNT_BRANCH_MISSES] = {
		{ MSR_P4_TBPU_ESCR0, MSR_P4_TBPU_ESCR1 }, 0x05, 0x001e
	},
	/* FSB_data_activity: DRDY_DRV, DRDY_OWN */
	[PERF_COUNT_BUS_CYCLES] = {
		{ MSR_P4_FSB_ESCR0, MSR_P4_FSB_ESCR1 }, 0x17, 0x0003
	},
};

/*
 * The events that count for both threads of a core whatever an ESCR's
 * T0/T1 bits say (the SDM's thread-independent events, and those 6.1's
 * perf_events marks shared), by ESCR and event select: on a part with
 * hyper-threading, a task counting one counts its sibling thread's
 * activity too, so only a caller who may count the whole CPU may open
 * one (pc_hw_counter.counts_core, checked by the core at the open).
 */
static const struct {
	u16	msr;		/* either ESCR of the pair */
	u8	event;
} p4_shared_events[] = {
	{ MSR_P4_FSB_ESCR0, 0x17 },	/* FSB_data_activity (bus-cycles) */
	{ MSR_P4_TC_ESCR0, 0x01 },	/* TC_deliver_mode */
	{ MSR_P4_PMH_ESCR0, 0x01 },	/* page_walk_type */
	{ MSR_P4_FIRM_ESCR0, 0x34 },	/* SSE_input_assist */
	{ MSR_P4_FIRM_ESCR0, 0x08 },	/* packed_SP_uop */
	{ MSR_P4_FIRM_ESCR0, 0x0c },	/* packed_DP_uop */
	{ MSR_P4_FIRM_ESCR0, 0x0a },	/* scalar_SP_uop */
	{ MSR_P4_FIRM_ESCR0, 0x0e },	/* scalar_DP_uop */
	{ MSR_P4_FIRM_ESCR0, 0x02 },	/* 64bit_MMX_uop */
	{ MSR_P4_FIRM_ESCR0, 0x1a },	/* 128bit_MMX_uop */
	{ MSR_P4_FIRM_ESCR0, 0x04 },	/* x87_FP_uop */
	{ MSR_P4_DAC_ESCR0, 0x05 },	/* WC_Buffer */
};

/* 0: threads per core as the boot found them; KUnit's model sets it. */
unsigned int p4_threads_per_core;

/* Does the event on ESCR @k with ESCR word @escr count the whole core? */
static bool p4_counts_core(int k, u64 escr)
{
	unsigned int threads = READ_ONCE(p4_threads_per_core) ?: smp_num_siblings;
	u16 msr = p4_escrs[k].msr & ~1;		/* ESCR0 of the pair */
	/* the event select, bits 30:25 (the kernel's P4_ESCR_EVENT_MASK) */
	u8 event = FIELD_GET(P4_ESCR_EVENT_MASK, escr);
	unsigned int i;

	if (threads < 2)
		return false;
	for (i = 0; i < ARRAY_SIZE(p4_shared_events); i++)
		if (p4_shared_events[i].msr == msr &&
		    p4_shared_events[i].event == event)
			return true;
	return false;
}

static int p4_decode_raw(const struct perf_counter_hw_event *hw_event,
			 const u64 *extra, u64 *cccr, u64 *escr, int *k)
{
	u64 config = hw_event->event_config & PERF_COUNTER_CONFIG_MASK;
	u32 msr = (config & P4_RAW_ESCR_MASK) >> P4_RAW_ESCR_SHIFT;

	if (config & ~(P4_RAW_ESCR_MASK | P4_CCCR_RAW))
		return -EINVAL;
	if (hw_event->extra_config_len != sizeof(u64))
		return -EINVAL;		/* the ESCR word is required */
	*k = p4_escr_index(msr);
	if (*k < 0 ||
	    p4_escrs[*k].select != FIELD_GET(P4_CCCR_ESCR_SELECT_MASK, config))
		return -EINVAL;
	if ((msr == MSR_P4_IQ_ESCR0 || msr == MSR_P4_IQ_ESCR1) && p4_model > 2)
		return -EINVAL;
	if (extra[0] & ~P4_ESCR_RAW)
		return -EINVAL;
	*cccr = config & P4_CCCR_RAW;
	*escr = extra[0];
	return 0;
}

static int p4_decode(const struct pc_pmu *pmu,
		     const struct perf_counter_hw_event *hw_event,
		     const u64 *extra, struct pc_hw_counter *hwc)
{
	u64 config = hw_event->event_config;
	u64 cccr, escr, cand;
	int k0, k1 = -1, err;

	if (PERF_COUNTER_IS_RAW(config)) {
		err = p4_decode_raw(hw_event, extra, &cccr, &escr, &k0);
		if (err)
			return err;
	} else {
		u64 id = PERF_COUNTER_ID(config);
		const struct p4_generic *g;

		if (id >= PERF_HW_EVENTS_MAX || hw_event->extra_config_len)
			return -EINVAL;
		g = &p4_generic[id];
		k0 = p4_escr_index(g->escr[0]);
		k1 = p4_escr_index(g->escr[1]);
		cccr = P4_CCCR_ESEL((u64)p4_escrs[k0].select);
		escr = P4_ESCR_EVENT((u64)g->event) |
		       P4_ESCR_EMASK((u64)g->mask);
	}
	if (!hw_event->exclude_user)
		escr |= P4_ESCR_T0_USR;
	if (!hw_event->exclude_kernel)
		escr |= P4_ESCR_T0_OS;
	if (!(escr & (P4_ESCR_T0_USR | P4_ESCR_T0_OS)))
		return -EINVAL;
	hwc->counts_core = p4_counts_core(k0, escr);

	cand = (u64)(k0 + 1) << P4_HWC_ESCR_SHIFT;
	if (k1 >= 0)
		cand |= (u64)(k1 + 1) << (P4_HWC_ESCR_SHIFT + 8);
	hwc->config = cccr | P4_CCCR_THREAD_ANY | P4_CCCR_OVF_PMI_T0;
	hwc->extra = escr | cand;
	return 0;
}

static int p4_places(const struct pc_pmu *pmu, const struct pc_hw_counter *hwc,
		     struct pc_hw_place *place)
{
	int n = 0, c, k;

	for (c = 0; c < 2; c++) {
		const struct p4_escr *e;
		unsigned int i, nr;
		u8 idx[3];

		k = P4_HWC_ESCR(hwc, c);
		if (k < 0)
			continue;
		e = &p4_escrs[k];
		nr = p4_counters_of(e, idx);
		for (i = 0; i < nr; i++) {
			if (idx[i] == P4_BROKEN_COUNTER)
				continue;
			place[n].idx = idx[i];
			place[n].aux = e->msr;
			place[n].uses = BIT_ULL(idx[i]) |
					BIT_ULL(P4_COUNTERS + k);
			n++;
		}
	}
	return n;
}

static void p4_enable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, hwc->place.aux, lower_32_bits(hwc->extra));
	pc_hw_reg_write(cpuc, MSR_P4_BPU_CCCR0 + hwc->place.idx,
			hwc->config | P4_CCCR_ENABLE);
}

static void p4_disable(struct pc_hw_cpu *cpuc, const struct pc_hw_counter *hwc)
{
	pc_hw_reg_write(cpuc, MSR_P4_BPU_CCCR0 + hwc->place.idx, 0);
	pc_hw_reg_write(cpuc, hwc->place.aux, 0);
}

static u64 p4_read(struct pc_hw_cpu *cpuc, unsigned int idx)
{
	return pc_hw_reg_read(cpuc, MSR_P4_BPU_PERFCTR0 + idx) &
	       GENMASK_ULL(39, 0);
}

/* Twice: erratum N15, a single write may not take. */
static void p4_write(struct pc_hw_cpu *cpuc, unsigned int idx, u64 val)
{
	pc_hw_reg_write(cpuc, MSR_P4_BPU_PERFCTR0 + idx,
			val & GENMASK_ULL(39, 0));
	pc_hw_reg_write(cpuc, MSR_P4_BPU_PERFCTR0 + idx,
			val & GENMASK_ULL(39, 0));
}

/*
 * The CCCR's OVF flag says it wrapped, and stays set until cleared; but
 * it may be missing, so a top bit clear says so too (a counter on is
 * always loaded negative).
 */
static bool p4_overflowed(struct pc_hw_cpu *cpuc, unsigned int idx, u64 raw)
{
	u64 cccr = pc_hw_reg_read(cpuc, MSR_P4_BPU_CCCR0 + idx);

	if (!(cccr & P4_CCCR_OVF))
		return !(raw & BIT_ULL(39));
	pc_hw_reg_write(cpuc, MSR_P4_BPU_CCCR0 + idx, cccr & ~P4_CCCR_OVF);
	return true;
}

static bool p4_match(const struct cpuinfo_x86 *c)
{
	return c->x86_vendor == X86_VENDOR_INTEL && c->x86 == 15;
}

static u32 p4_escr_msr(unsigned int i)
{
	return p4_escrs[i].msr;
}

static void p4_setup(void)
{
	p4_model = boot_cpu_data.x86_model;
}

/**
 * p4_thread_of() - which hyper-thread of its core a CPU is
 * @apicid:	the CPU's initial APIC ID
 * @siblings:	threads per core (CPUID 1 EBX[23:16] over cores; 1 without HT)
 *
 * The thread is the low bits of the initial APIC ID, as many as it
 * takes to number @siblings (SDM vol. 3A, identifying logical
 * processors); the ESCRs' T0 and T1 bits and the CCCRs' OVF_PMI_T0 and
 * _T1 bits name threads by that number, not by Linux's CPU number.
 *
 * Return: 0 for the first thread.
 */
unsigned int p4_thread_of(unsigned int apicid, unsigned int siblings)
{
	return siblings > 1 ? apicid & (roundup_pow_of_two(siblings) - 1) : 0;
}

/*
 * Only thread 0 of each core uses the registers (T0, OVF_PMI_T0). An
 * online CPU's initial APIC ID is its own; one not yet up has the ID
 * the firmware's tables gave it (the same on these parts), or none yet
 * for a CPU not present: it is decided when it comes.
 */
static bool p4_second_thread(int cpu)
{
	unsigned int apicid = cpu_online(cpu) ? cpu_data(cpu).initial_apicid :
						 cpu_physical_id(cpu);

	if (apicid == BAD_APICID)
		return false;
	return p4_thread_of(apicid, smp_num_siblings) != 0;
}

/*
 * Every CCCR off, OVF flags and all: one left enabled (by the firmware,
 * or a kernel before a kexec) counts with whichever ESCR its select
 * names once the driver programs that ESCR, and its wrap, with an
 * OVF_PMI bit, raises an interrupt that no counter of ours claims; on
 * P4 the line then stays asserted while its OVF flag is set.
 */
static void p4_clear(struct pc_hw_cpu *cpuc)
{
	unsigned int idx;

	for (idx = 0; idx < P4_COUNTERS; idx++)
		if (!cpuc->on[idx])	/* see pc_x86_cpu_start() */
			pc_hw_reg_write(cpuc, MSR_P4_BPU_CCCR0 + idx, 0);
}

const struct pc_x86_driver pc_p4_driver = {
	.pmu = {
		.name		= "P4",
		.nr_counters	= P4_COUNTERS,
		.width		= 40,
		.max_period	= (1ULL << 39) - 1,
		.decode		= p4_decode,
		.places		= p4_places,
		.enable		= p4_enable,
		.disable	= p4_disable,
		.read		= p4_read,
		.write		= p4_write,
		.overflowed	= p4_overflowed,
		.reserve	= pc_x86_reserve,
		.release	= pc_x86_release,
		.cpu_online	= pc_x86_cpu_online,
	},
	.match		= p4_match,
	.perfctr0	= MSR_P4_BPU_PERFCTR0,
	.ctl_msr	= p4_escr_msr,
	.nr_ctl		= ARRAY_SIZE(p4_escrs),
	.check_ctl	= MSR_P4_BPU_CCCR0 + P4_COUNTERS - 1,
	.check_on	= P4_CCCR_ENABLE,
	.setup		= p4_setup,
	.second_thread	= p4_second_thread,
	.clear		= p4_clear,
	.lvtpc_last	= true,
};
